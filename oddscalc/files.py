"""Writing a file whole or not at all: a temporary file beside it, then one rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace_atomically(path: Path, write: Callable[[str], None]) -> Path:
    """Call `write(temporary)` on a private temporary file in path's folder, then rename it onto
    path with the permissions a new file gets; on any failure nothing is left behind."""
    handle, temporary = tempfile.mkstemp(suffix=path.suffix, prefix=".oddscalc-", dir=path.parent or ".")
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # a temporary file is private; the result is not
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path
