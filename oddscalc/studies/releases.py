"""An old release of a game's catalogues, to set beside the new one (`balance --compare`): a folder, or a
revision of a git checkout written out into a temporary folder while a study reads it."""

from __future__ import annotations

import contextlib
import io
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Iterator, Sequence

from ..errors import require


@contextlib.contextmanager
def releases(names: Sequence[str]) -> Iterator[list[Path]]:
    """The folders of an old release: each a folder, or FOLDER@REVISION of a git checkout, written out (`git
    archive`) into a temporary folder while the study reads it, then removed."""
    with tempfile.TemporaryDirectory(prefix="oddscalc-release-") as scratch:
        folders = []
        for number, name in enumerate(names):
            path, _, revision = name.rpartition("@") if "@" in name and not Path(name).is_dir() else (name, "", "")
            require(Path(path).is_dir(), "compare", name, "expected a folder of catalogues, or FOLDER@REVISION of a "
                                                          "git checkout")
            if not revision:
                folders.append(Path(path))
                continue
            require(not revision.startswith("-"), "compare", name, "expected FOLDER@REVISION: a revision does not "
                                                                   "start with '-'")
            out = Path(scratch) / str(number)
            out.mkdir()
            archive = subprocess.run(["git", "-C", path, "archive", "--format=tar", "--end-of-options", revision],
                                     capture_output=True)
            require(archive.returncode == 0, "compare", name, "no such revision in that git checkout ("
                    + (archive.stderr.decode(errors="replace").strip().splitlines() or ["git failed"])[0] + ")")
            _extract(archive.stdout, out, name)
            folders.append(out)
        yield folders


def _extract(archive: bytes, out: Path, name: str) -> None:
    """The plain files and folders of a tar, inside `out` only (tarfile's "data" filter, or the same check where
    this Python lacks it)."""
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(out, filter="data")
            return
        inside = out.resolve()
        for member in tar.getmembers():
            target = (out / member.name).resolve()
            require((member.isfile() or member.isdir()) and target.is_relative_to(inside), "compare", name,
                    f"the revision holds {member.name!r}, not a plain file inside the folder")
        tar.extractall(out)
