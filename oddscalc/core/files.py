"""Files the user names: read within a cap, checked before any work is done, written whole
or not at all (a temporary file beside the target, then one rename). Every refusal is
one `InputError` naming the option and the path."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import InputError


def read_capped(path: Path, cap: int, what: str, option: str = "file") -> bytes:
    """The bytes of a regular file of at most `cap` bytes (`what` it should be, for the messages).

    The size is checked before reading, and the read stops at the cap whatever the size said
    (a file that grows, or a file of the /proc kind that says 0 bytes). A query asked without this
    machine's files (`given.Files`: the page's) is refused before the path is looked at."""
    from .given import current

    source = str(path)
    files = current().files
    if not files.local:
        raise InputError(option, source, files.why)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise InputError(option, source, f"not a regular file: expected {what}")
        if info.st_size > cap:
            raise InputError(option, source, f"{info.st_size:,} bytes: {what} is at most {cap:,} bytes")
        with path.open("rb") as handle:
            data = handle.read(cap + 1)
    except FileNotFoundError:
        raise InputError(option, source, "no such file") from None
    except OSError as error:
        raise InputError(option, source, f"cannot be read ({error.strerror or type(error).__name__})") from None
    if len(data) > cap:
        raise InputError(option, source, f"more than {cap:,} bytes: {what} is at most {cap:,} bytes")
    return data


def _either(suffixes: Sequence[str]) -> str:
    return suffixes[0] if len(suffixes) == 1 else f"{', '.join(suffixes[:-1])} or {suffixes[-1]}"


def check_writable(path: str | os.PathLike[str], option: str, suffixes: Sequence[str]) -> Path:
    """Refuse, before any work, a path that could not be written: checked as a file is made."""
    path = Path(path)
    expected = f"a file name ending in {_either(suffixes)}"
    if path.suffix.lower() not in suffixes:
        raise InputError(option, str(path), f"expected {expected}")
    if len(path.name.encode()) > 250 or len(str(path).encode()) > 4000:
        raise InputError(option, str(path)[:60] + "...", "the file name is too long (at most 250 bytes)")
    folder = path.parent  # "." for a bare file name
    if not folder.is_dir():
        raise InputError(option, str(path), f"the folder {folder} does not exist")
    if path.is_dir():
        raise InputError(option, str(path), f"is a folder; expected {expected}")
    try:  # the one sure test of a folder: make a file in it (as writing will), then remove it
        handle, probe = tempfile.mkstemp(suffix=path.suffix, prefix=".oddscalc-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise InputError(option, str(path), f"cannot write in {folder} ({error.strerror or error})") from None
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace_atomically(path: Path, write: Callable[[str], object]) -> Path:
    """Call `write(temporary)` on a private temporary file in path's folder, then rename it onto
    path with the permissions a new file gets; on any failure nothing is left behind."""
    handle, temporary = tempfile.mkstemp(suffix=path.suffix, prefix=".oddscalc-", dir=path.parent)
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # a temporary file is private; the result is not
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path
