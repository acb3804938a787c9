"""Python work on every core (oddscalc/studies/processes.py): answers in order, in worker processes only where forking
is safe, errors and stops reaching the caller, no worker left behind; a balance study the same on one process
or two."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from oddscalc.studies import processes
from oddscalc.studies.processes import in_processes

MINI = Path(__file__).parent / "data" / "battlescribe" / "mini"


def _in_a_fresh_process(code: str) -> str:
    """Run `code` in a new Python (no thread but its main one, as the command line); return what it printed."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def forking(monkeypatch):
    """This test process forks as if it had no other thread (another test's cluster may have left some: the
    workers here run only the functions below)."""
    monkeypatch.setattr(processes.threading, "active_count", lambda: 1)


def _square(item: int) -> tuple[int, int]:
    return item * item, os.getpid()


def _refusing(item: int) -> int:
    if item == 5:
        raise ValueError(f"item {item} refused")
    return item


def _slow(item: int) -> int:
    time.sleep(0.2 if item else 0)
    return item


def _handlers(_: object) -> tuple[object, ...]:
    return tuple(signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP))


def _ours() -> list[multiprocessing.Process]:
    return [child for child in multiprocessing.active_children() if child.name.startswith("ForkProcess")]


def test_the_answers_come_in_order_from_worker_processes(forking):
    found = list(in_processes(_square, list(range(40)), 2))
    assert [square for square, _ in found] == [i * i for i in range(40)]
    pids = {pid for _, pid in found}
    assert len(pids) == 2 and os.getpid() not in pids and _ours() == []  # two workers, neither this process


def test_a_worker_leaves_ctrl_c_to_the_study_and_a_stop_ends_it_quietly(forking):
    """Forked with the command line's handlers (a stop raised as an exception), a worker ignores Ctrl-C (the study
    stops it) and takes SIGTERM and SIGHUP as any process does."""
    before = [signal.signal(number, lambda *_: None) for number in (signal.SIGTERM, signal.SIGHUP)]
    try:
        found = set(in_processes(_handlers, list(range(4)), 2))
    finally:
        for number, handler in zip((signal.SIGTERM, signal.SIGHUP), before):
            signal.signal(number, handler)
    assert found == {(signal.SIG_IGN, signal.SIG_DFL, signal.SIG_DFL)}


def test_an_error_in_a_worker_reaches_the_caller_and_no_worker_stays(forking):
    with pytest.raises(ValueError, match="item 5 refused"):
        list(in_processes(_refusing, list(range(12)), 2))
    assert _ours() == []


def test_a_caller_that_stops_reading_stops_the_workers(forking):
    answers = in_processes(_slow, list(range(20)), 2)
    assert next(answers) == 0
    busy = _ours()  # both workers at a slow item: stopped, not waited for
    answers.close()
    assert _ours() == [] and len(busy) == 2 and {child.exitcode for child in busy} == {-signal.SIGKILL}


def _loud_then_slow(item: int) -> int:
    """A worker that has the command line's handler of SIGTERM (a stop raised as an exception), as one forked a
    moment before it ran `_quiet` has (the first item answers at once)."""
    if item == 0:
        return 0

    def raising(number: int, frame: object) -> None:
        raise KeyboardInterrupt(number)

    signal.signal(signal.SIGTERM, raising)
    time.sleep(30)
    return item


def test_workers_are_stopped_without_a_word_even_before_they_are_quiet(forking, capfd):
    """Stopped by SIGKILL: a SIGTERM would reach a handler it was forked with, and the worker would print its
    traceback ("Process ForkProcess-2: ...") beside the study's one line."""
    answers = in_processes(_loud_then_slow, list(range(4)), 2)
    started = time.monotonic()
    assert next(answers) == 0
    time.sleep(0.5)  # both workers in a slow item, with the raising handler
    answers.close()
    assert _ours() == [] and time.monotonic() - started < 10
    assert capfd.readouterr().err == ""


def _pid(_: object) -> int:
    return os.getpid()


def test_with_another_thread_running_the_work_stays_in_this_process():
    """A thread's locks would be copied held into a fork: a server's study runs in process."""
    waiting = threading.Event()
    other = threading.Thread(target=waiting.wait)
    other.start()
    try:
        assert set(in_processes(_pid, list(range(6)), 2)) == {os.getpid()}
    finally:
        waiting.set()
        other.join()


def test_one_worker_or_one_item_is_this_process():
    assert set(in_processes(_pid, list(range(4)), 1)) == {os.getpid()}
    assert list(in_processes(_pid, [0], 2)) == [os.getpid()]


def test_a_study_on_two_processes_gives_the_bytes_of_one(capsys, monkeypatch):
    """The exact cells in batches of two, spread over two workers, and the same study in this process."""
    from clirun import run

    from oddscalc.studies import balance

    command = ["balance", str(MINI), "--exact", "--engage", "--format", "json"]
    out = _in_a_fresh_process(f"""
        import sys
        from oddscalc.studies import balance
        from oddscalc.cli.main import main

        balance.BATCH = 2
        sys.exit(main({command!r}))
    """)
    monkeypatch.setattr(balance, "in_processes", lambda work, items, workers: map(work, items))
    here = run(capsys, *command)
    assert here.code == 0 and out == here.out


def test_a_refusal_travels_whole_from_a_worker():
    import pickle

    from oddscalc.errors import InputError, Refusal

    error = pickle.loads(pickle.dumps(InputError("folder", "x.cat", "not a BattleScribe catalogue (line 3)")))
    assert (error.name, error.value, error.allowed) == ("folder", "x.cat", "not a BattleScribe catalogue (line 3)")
    refusal = pickle.loads(pickle.dumps(Refusal("error: --dice 0: expected 1 to 60", "--dice", "0")))
    assert (refusal.line, refusal.option, refusal.value) == ("error: --dice 0: expected 1 to 60", "--dice", "0")


def test_a_catalogue_broken_after_its_first_line_is_one_line_from_a_worker(tmp_path):
    """Its game system is read from its root element alone; the import (in a worker, with two catalogues to read)
    finds the rest broken and says so in one line, exit 2."""
    folder = tmp_path / "catalogues"
    folder.mkdir()
    for path in MINI.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    whole = (MINI / "mini.cat").read_text(encoding="utf-8")
    (folder / "broken.cat").write_text(whole[:whole.index("<selectionEntries>")] + "<selectionEntries><oops>",
                                       encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "oddscalc", "balance", str(folder), "--exact"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: FOLDER {folder / 'broken.cat'}: not a BattleScribe catalogue (")
