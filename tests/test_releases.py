"""An old release of a game's catalogues (releases.py, `balance --compare`): a folder, or FOLDER@REVISION of a git
checkout written out into a temporary folder as plain files inside it, then removed."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile

import pytest

from oddscalc.errors import InputError
from oddscalc.studies.releases import _extract, releases


def test_an_old_release_is_written_out_only_as_plain_files_inside_its_folder(tmp_path, monkeypatch):
    """Where this Python's tarfile lacks the "data" filter, a member outside the folder or a link is refused."""
    def archive(name: str, kind: bytes = tarfile.REGTYPE) -> bytes:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            member = tarfile.TarInfo(name)
            member.type, member.size = kind, 0 if kind != tarfile.REGTYPE else 2
            if kind == tarfile.SYMTYPE:
                member.linkname = "/etc/passwd"
            tar.addfile(member, io.BytesIO(b"ok") if kind == tarfile.REGTYPE else None)
        return buffer.getvalue()
    monkeypatch.delattr(tarfile, "data_filter", raising=False)
    out = tmp_path / "out"
    out.mkdir()
    _extract(archive("mini.cat"), out, "repo@old")
    assert (out / "mini.cat").read_text() == "ok"
    for bad in (archive("../escaped.cat"), archive("link.cat", tarfile.SYMTYPE)):
        with pytest.raises(InputError, match="not a plain file inside the folder"):
            _extract(bad, out, "repo@old")
    assert not (tmp_path / "escaped.cat").exists() and not (out / "link.cat").exists()


def test_a_folder_is_itself_and_a_revision_is_written_out_then_removed(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.cat").write_text("old")
    subprocess.run([*git, "add", "a.cat"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "old"], check=True)
    (repo / "a.cat").write_text("new")
    with releases([str(repo), f"{repo}@HEAD"]) as (same, old):
        assert same == repo and (old / "a.cat").read_text() == "old" and old != repo
    assert not old.exists()  # the written-out revision is gone with the study


@pytest.mark.parametrize("name, allowed", [
    ("{tmp}/missing", "expected a folder of catalogues, or FOLDER@REVISION of a git checkout"),
    ("{tmp}@--output=x", "a revision does not start with '-'"),
    ("{tmp}@no-such-revision", "no such revision in that git checkout"),
])
def test_a_release_that_is_not_there_is_refused_naming_compare(tmp_path, name, allowed):
    name = name.format(tmp=tmp_path)
    with pytest.raises(InputError) as error:
        with releases([name]):
            pass
    assert (error.value.name, error.value.value) == ("compare", name) and allowed in error.value.allowed
