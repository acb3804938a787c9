"""Files the user names: each refusal of a path by option, value and message; a write is
whole or nothing, with the permissions of a new file."""

import os
import stat
from pathlib import Path

import pytest

from oddscalc.core import files
from oddscalc.errors import InputError


def _refusal(call) -> tuple:
    with pytest.raises(InputError) as error:
        call()
    return error.value.name, error.value.value, error.value.allowed


PLOTS = (".png", ".svg", ".pdf")


def test_a_writable_path_is_returned_and_nothing_is_left_in_its_folder(tmp_path):
    assert files.check_writable(str(tmp_path / "a.PNG"), "plot", PLOTS) == tmp_path / "a.PNG"
    assert files.check_writable(tmp_path / "army.toml", "write", (".toml",)) == tmp_path / "army.toml"
    assert list(tmp_path.iterdir()) == []  # the probe file is gone


def test_a_bare_file_name_is_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    probes, mkstemp = [], files.tempfile.mkstemp

    def recorded(**kwargs):
        probes.append(kwargs)
        return mkstemp(**kwargs)

    monkeypatch.setattr(files.tempfile, "mkstemp", recorded)
    assert files.check_writable("plot.svg", "plot", PLOTS) == tmp_path.joinpath("plot.svg").relative_to(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    files.check_writable(folder / "plot.pdf", "plot", PLOTS)
    assert probes == [{"suffix": ".svg", "prefix": ".oddscalc-", "dir": Path(".")},
                      {"suffix": ".pdf", "prefix": ".oddscalc-", "dir": folder}]  # a probe in the folder itself
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out"] and list(folder.iterdir()) == []


def test_a_path_of_4000_bytes_is_checked_and_one_of_4001_is_too_long(tmp_path):
    def path_of(size: int):
        head = str(tmp_path / "nowhere")
        middle = size - len(head) - len("/a.png")
        parts = [("d" * 199)] * (middle // 200) + (["d" * (middle % 200 - 1)] if middle % 200 else [])
        path = tmp_path.joinpath("nowhere", *parts, "a.png")
        assert len(str(path).encode()) == size
        return path

    at = path_of(4000)
    assert _refusal(lambda: files.check_writable(at, "plot", PLOTS))[2] == f"the folder {at.parent} does not exist"
    assert _refusal(lambda: files.check_writable(path_of(4001), "plot", PLOTS))[2] == \
        "the file name is too long (at most 250 bytes)"


@pytest.mark.parametrize("name, option, suffixes, allowed", [
    ("a.txt", "plot", PLOTS, "expected a file name ending in .png, .svg or .pdf"),
    ("a.png", "write", (".toml",), "expected a file name ending in .toml"),
    ("a", "write", (".toml", ".txt"), "expected a file name ending in .toml or .txt"),
])
def test_a_path_with_the_wrong_ending_is_refused(tmp_path, name, option, suffixes, allowed):
    assert _refusal(lambda: files.check_writable(tmp_path / name, option, suffixes)) == (
        option, str(tmp_path / name), allowed)


def test_a_folder_a_missing_folder_and_a_long_name_are_refused(tmp_path):
    folder = tmp_path / "plots.png"
    folder.mkdir()
    assert _refusal(lambda: files.check_writable(folder, "plot", PLOTS)) == (
        "plot", str(folder), "is a folder; expected a file name ending in .png, .svg or .pdf")
    missing = tmp_path / "nowhere" / "a.toml"
    assert _refusal(lambda: files.check_writable(missing, "write", (".toml",))) == (
        "write", str(missing), f"the folder {tmp_path / 'nowhere'} does not exist")
    long = tmp_path / ("a" * 247 + ".png")  # 251 bytes
    assert _refusal(lambda: files.check_writable(long, "plot", PLOTS)) == (
        "plot", str(long)[:60] + "...", "the file name is too long (at most 250 bytes)")
    assert files.check_writable(tmp_path / ("a" * 246 + ".png"), "plot", PLOTS)  # 250 bytes: accepted
    deep = tmp_path.joinpath(*["d"] * 2100, "a.png")  # a path of over 4,000 bytes
    assert _refusal(lambda: files.check_writable(deep, "plot", PLOTS))[1:] == (
        str(deep)[:60] + "...", "the file name is too long (at most 250 bytes)")


def test_a_folder_that_cannot_be_written_in_is_refused(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    assert _refusal(lambda: files.check_writable(tmp_path / "a.png", "plot", PLOTS)) == (
        "plot", str(tmp_path / "a.png"), f"cannot write in {tmp_path} (Permission denied)")


def test_a_file_is_replaced_whole_with_the_permissions_of_a_new_file(tmp_path):
    target = tmp_path / "army.toml"
    target.write_text("old", encoding="utf-8")
    mask = os.umask(0o026)
    try:
        assert files.replace_atomically(target, lambda temporary: open(temporary, "w").write("new")) == target
    finally:
        os.umask(mask)
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640  # 0o666 less the mask
    assert sorted(path.name for path in tmp_path.iterdir()) == ["army.toml"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "army.toml"
    target.write_text("old", encoding="utf-8")

    def fail(temporary):
        open(temporary, "w").write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        files.replace_atomically(target, fail)
    assert target.read_text() == "old" and sorted(path.name for path in tmp_path.iterdir()) == ["army.toml"]


def test_a_temporary_file_is_made_beside_the_target(tmp_path):
    seen = []
    files.replace_atomically(tmp_path / "plot.svg", lambda temporary: seen.append(temporary))
    (temporary,) = seen
    assert os.path.dirname(temporary) == str(tmp_path) and os.path.basename(temporary).startswith(".oddscalc-")
    assert temporary.endswith(".svg") and (tmp_path / "plot.svg").exists()
