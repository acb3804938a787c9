"""What the command line writes besides the answer (`oddscalc.cli.output`): plot files, whole and
with the usual permissions and a caption, and the progress bar."""

import os

import pytest
from clirun import run

from oddscalc import __version__


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_plot_writes_a_valid_image(capsys, tmp_path, suffix, magic):
    path = tmp_path / f"plot{suffix}"
    result = run(capsys, "roll", "2d6", "--maximised", "1", "--trials", "1e4", "--seed", "1", "--plot", path)
    assert result.code == 0
    assert path.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_a_plot_file_has_the_usual_permissions(capsys, tmp_path):
    path = tmp_path / "plot.png"
    old = os.umask(0o022)
    try:
        run(capsys, "roll", "2d6", "--exact", "--plot", path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644


def test_plot_caption_carries_the_command_seed_method_and_version(capsys, tmp_path):
    path = tmp_path / "plot.svg"
    run(capsys, "roll", "2d6", "--trials", "1e4", "--seed", "42", "--plot", path)
    text = path.read_text()
    assert "oddscalc roll 2d6" in text and "seed 42" in text and f"oddscalc {__version__}" in text


def test_progress_bar_only_on_a_terminal_and_after_two_seconds(monkeypatch):
    from oddscalc.core.given import GIVEN, Given
    from oddscalc.query import answer as output

    with output.progress_bar() as bar:
        assert bar is None  # a program's own call: no bar
    token = GIVEN.set(Given(terminal=True))  # the command line's
    try:
        with output.progress_bar() as bar:
            assert bar.show is False  # pytest's stderr is not a terminal: no bar (a long run still says so)
    finally:
        GIVEN.reset(token)
    clock = [100.0]
    monkeypatch.setattr(output.time, "monotonic", lambda: clock[0])
    progress = output.TerminalProgress("sampling")
    progress(1, 10)
    assert progress.bar is None  # a quick run never shows a bar
    clock[0] += output.PROGRESS_AFTER + 0.1
    progress(5, 10)
    assert progress.bar is not None and progress.bar.tasks[0].completed == 5
    progress.close()
