"""Hostile input, big requests and faults, replayed as a table of cases: each gets the
one-line error with exit 2 (or the right answer) in bounded time; seeds replay exactly;
a failure after the computation keeps the answer; Ctrl-C and SIGTERM stop cleanly."""

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from clirun import assert_refused, run

from oddscalc.core import engine, options

# (arguments, words the one error line must hold)
REFUSED = [
    (["roll", "2d6", "--trials", "99999999999999999999999"], ("--trials 99999999999999999999999",)),
    (["roll", "2d6", "--precision", "1e-300"], ("--precision 1e-300", "1e-9")),
    (["roll", "2d6", "--exact", "--trials", "0"], ("--trials 0",)),
    (["roll", "2d6", "--exact", "--seed", "-5"], ("--seed -5",)),
    (["roll", "2d6", "--exact", "--threads", "0"], ("--threads 0",)),
    (["roll", "2d6", "--seed", str(2**128)], ("--seed",)),
    (["dust", "salvo", "3/2-5/2", "--charges", "1_0"], ("--charges 1_0", "whole number")),
    (["grid", "--game", "epic", "--set", "shots=abc"], ("--set shots=abc:", "whole number")),
    (["grid", "--game", "epic", "--set", "armour=abc"], ("--set armour=abc:",)),
    (["grid", "--game", "epic", "--set", "crossfire=none"], ("--set crossfire=none:", "true or false")),
    (["grid", "--game", "epic", "--set", "crossfire=5"], ("--set crossfire=5:",)),
    (["grid", "--game", "epic", "--set", "shots=0"], ("--set shots=0:", "1 to 200")),
    (["grid", "--game", "epic", "--set", "reinforced=maybe"], ("--set reinforced=maybe:",)),
    (["grid", "--game", "epic", "--set", "luck=3"], ("--set", "luck")),
    (["grid", "--game", "epic", "--set", "crosfire=true"], ("--set crosfire=true", "(did you mean crossfire?)")),
    (["grid", "--game", "epic", "--sort", "pkill"], ("--sort pkill", "(did you mean p_kill?)")),
    (["epic", "assault", "--add-dice"], ("--add-dice: no such option now", "adds both dice by default",
                                         "--keep-highest")),
    (["grid", "--game", "epic", "--stat", "x.mean", "--plot", "p.png"], ("--stat x.mean", "no outcome x")),
    (["sweep", "epic barrage --units 3 --armour 4", "--vary", "bp=1..2", "--vary", "bp=17..18"],
     ("--vary", "varied twice")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..9999", "--vary", "minimised=0..9999"], ("--vary", "10,000")),
    (["profiles", "--game", ""], ("--game ''",)),
    (["grid", "--game", "epic", "--exact", "--fractions"], ("--fractions", "exact rationals are shown for one query")),
    (["compare", "roll 2d6", "roll 3d6", "--exact", "--fractions"], ("--fractions", "compare shows figures")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--fractions"], ("--fractions", "sweep shows")),
    (["grid", "--game", "epic", "--scheduler", ""], ("--scheduler ''",)),
    (["grid", "--game", "epic", "--scheduler", "inproc://x/1/2"], ("--scheduler inproc://x/1/2", "tcp://host:8786",
                                                                   "another process")),
    (["grid", "--game", "epic", "--scheduler", "tls://host:8786"], ("--scheduler tls://host:8786",)),
    (["grid", "--game", "epic", "--scheduler", "tcp://" + "a" * 5000], ("--scheduler tcp://aaaa", "tcp://host:8786")),
    (["grid", "--game", "epic", "--scheduler-timeout", "5"], ("--scheduler-timeout", "--scheduler")),
    (["grid", "/dev/zero"], ("/dev/zero", "not a regular file")),
    (["roll", "2d6", "--plot", "."], ("--plot", "ending in .png")),
    (["roll", "2d6", "--plot", "/proc/x.png"], ("--plot /proc/x.png", "cannot write")),
    (["roll", "2d6", "--plot", "a" * 300 + ".png"], ("--plot", "too long")),
]


@pytest.mark.parametrize("args, words", REFUSED, ids=[" ".join(a)[:60] for a, _ in REFUSED])
def test_hostile_input_gets_one_line(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    assert_refused(capsys, *args, mentions=words)
    assert time.monotonic() - started < 10
    assert os.listdir(tmp_path) == []  # no plot, no temporary file


def test_a_fifo_roster_is_refused_without_blocking(capsys, tmp_path):
    path = tmp_path / "army.toml"
    os.mkfifo(path)
    assert_refused(capsys, "grid", path, mentions=("not a regular file",))


def test_a_roster_saved_with_a_bom_is_read(capsys, tmp_path):
    path = tmp_path / "army.toml"
    text = 'game = "epic"\n[[unit]]\nname = "U"\nkind = "infantry"\nunits = 2\narmour = "4+"\n' \
           '[[unit.weapon]]\nname = "W"\nap = "4+"\n'
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert run(capsys, "grid", path, "--exact").code == 0


def test_a_fresh_seed_printed_in_json_replays_the_run_byte_for_byte(capsys):
    first = run(capsys, "roll", "10d6", "--success", "5", "--trials", "1e5", "--format", "json")
    seed = first.json()["seed"]  # 63-bit, well above the 2**53 a float keeps exactly
    again = run(capsys, "roll", "10d6", "--success", "5", "--trials", "1e5", "--seed", str(seed), "--format", "json")
    first_data, again_data = first.json(), again.json()
    assert again_data.pop("command").endswith(f"--seed {seed}") and first_data.pop("command")
    assert json.dumps(first_data) == json.dumps(again_data)


def test_a_big_seed_is_kept_exactly(capsys):
    data = run(capsys, "roll", "2d6", "--trials", "1000", "--seed", "1346791341729732557", "--format", "json").json()
    assert data["seed"] == 1346791341729732557


def test_a_plot_that_cannot_be_written_keeps_the_answer(capsys, tmp_path, monkeypatch):
    from oddscalc.output import plots

    def fail(figure, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "save", fail)
    result = run(capsys, "roll", "2d6", "--exact", "--plot", tmp_path / "p.png")
    assert result.code == 2 and "P(= k)" in result.out
    assert result.err.strip() == f"error: --plot {tmp_path / 'p.png'}: cannot be written (No space left on device)"


def test_a_heatmap_too_large_to_draw_says_so_and_the_table_prints(capsys, tmp_path):
    units = "\n".join(f'[[unit]]\nname = "U{i}"\nkind = "infantry"\nunits = 1\narmour = "4+"\n'
                      f'[[unit.weapon]]\nname = "W"\nap = "4+"\n' for i in range(210))
    roster = tmp_path / "big.toml"
    roster.write_text('game = "epic"\n' + units)
    result = run(capsys, "grid", roster, "--targets", "U0", "--exact", "--plot", tmp_path / "h.png")
    assert result.code == 2 and result.out.count("U0") >= 210
    assert "a heatmap of 210 rows: too large to draw (at most 200)" in result.err
    assert not (tmp_path / "h.png").exists()


def test_more_threads_than_cores_run_on_the_cores(monkeypatch):
    """--threads 64 starts no more threads (and no more chunks in flight) than there are cores."""
    import concurrent.futures

    from oddscalc.core.hits import HitAndSave

    started = []

    class Recording(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, max_workers):
            started.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Recording)
    monkeypatch.setattr(options, "every_core", lambda: 2)
    many = engine.run(HitAndSave(10, 4, 5), trials=2_000_000, seed=1, threads=64)
    assert started == [2]
    assert many["unsaved"] == engine.run(HitAndSave(10, 4, 5), trials=2_000_000, seed=1, threads=1)["unsaved"]


def _stopped(signum: int, args: list[str], tmp_path: Path, wait: float = 2.5) -> subprocess.CompletedProcess:
    process = subprocess.Popen([sys.executable, "-m", "oddscalc", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(wait)
    sent = time.monotonic()
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    return subprocess.CompletedProcess(args, process.returncode, out, err), time.monotonic() - sent


def stopped_lines(stderr: str) -> str:
    """The one line a stopped run ends with; before it, at most the note that the run would be long."""
    *before, last = stderr.splitlines()
    assert all(line.startswith("note: this run will take about ") for line in before) and len(before) <= 1, stderr
    return last


@pytest.mark.parametrize("args", [["grid", "--game", "epic", "--trials", "1e9", "--seed", "1"],
                                  ["compare", "roll 10d6", "roll 9d6", "--trials", "1e11", "--plot", "c.png"],
                                  ["roll", "10d6", "--trials", "1e12"]], ids=["grid", "compare", "query"])
def test_ctrl_c_stops_within_a_second_with_one_line(tmp_path, args):
    result, seconds = _stopped(signal.SIGINT, args, tmp_path)
    assert result.returncode == 130 and seconds < 2
    assert stopped_lines(result.stderr) == "error: interrupted (Ctrl-C); nothing more was written"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("signum, code, said", [(signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                                (signal.SIGHUP, 129, "hung up (SIGHUP)")])
def test_sigterm_and_sighup_stop_the_same_way_and_leave_no_temporary_file(tmp_path, signum, code, said):
    result, seconds = _stopped(signum, ["sweep", "roll 10d6", "--vary", "maximised=0..3", "--trials",
                                        "1e10", "--plot", "s.png"], tmp_path)
    assert result.returncode == code and seconds < 2
    assert stopped_lines(result.stderr) == f"error: {said}; nothing more was written"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                                (signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                                (signal.SIGHUP, 129, "hung up (SIGHUP)")])
def test_a_signal_while_the_command_line_loads_is_one_line(monkeypatch, capsys, signum, code, said):
    """The first ~0.2 s import numpy and Typer: a Ctrl-C then ends as one later does."""
    import types

    from oddscalc import console

    class Loading(types.ModuleType):
        def __getattr__(self, name):
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            signal.getsignal(signum)(signum, None)  # the handler the console installed, as the signal calls it

    monkeypatch.setitem(sys.modules, "oddscalc.cli", Loading("oddscalc.cli"))
    previous = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    with pytest.raises(SystemExit) as stopped:
        console.run()
    assert stopped.value.code == code
    assert capsys.readouterr().err == f"error: {said}; nothing more was written\n"
    for number, handler in previous.items():
        signal.signal(number, handler)


@pytest.mark.parametrize("number, code, said", [(2, 130, "interrupted (Ctrl-C)"), (15, 143, "terminated (SIGTERM)")])
def test_a_stop_that_left_a_module_half_loaded_is_the_stop_not_an_internal_error(capsys, number, code, said):
    """A stop that lands inside an import leaves the module half loaded; the next use of it fails with an ordinary
    exception (seen once under load: "internal error", exit 1). Once a stop has come, that failure is the stop."""
    from oddscalc.cli.errors import on_signal
    from oddscalc.cli.main import run_app

    def building():
        try:
            on_signal(number, None)  # the signal lands while a module loads
        except KeyboardInterrupt:
            pass  # swallowed by the import machinery's clean-up
        raise AttributeError("partially initialized module 'numpy' has no attribute 'ndarray'")

    assert run_app(building, []) == code
    assert capsys.readouterr().err == f"error: {said}; nothing more was written\n"
    assert run_app(lambda: (_ for _ in ()).throw(AttributeError("a bug")), []) == 1  # no stop: a bug is a bug
    assert "internal error: AttributeError: a bug" in capsys.readouterr().err


@pytest.mark.parametrize("argv, ours", [(["python", "-m", "oddscalc", "roll", "2d6"], True),
                                        (["python", "-X", "importtime", "-m", "oddscalc"], True),
                                        (["/venv/bin/python", "/venv/bin/oddscalc", "roll", "2d6"], True),
                                        (["python", "-m", "oddscalc.bench"], False),
                                        (["python", "-c", "import oddscalc"], False),
                                        (["python", "-m", "pytest", "oddscalc"], False), (["python"], False)])
def test_the_stops_are_held_from_the_package_s_first_lines_only_for_the_command_line(argv, ours):
    """Started as the command line, the package's own first lines hold a stop (a Ctrl-C there printed Python's
    KeyboardInterrupt under load); imported as a library, it leaves the signals alone."""
    from oddscalc import is_the_command_line

    assert is_the_command_line(argv) is ours


@pytest.mark.parametrize("argv, held", [(None, False), (["python", "-m", "oddscalc", "roll", "2d6"], True)])
def test_the_package_s_first_lines_hold_the_stops_only_when_it_is_the_command_line(argv, held):
    """Imported as a library, the package leaves Ctrl-C and SIGTERM to Python; started as the command line, its
    first lines keep them (for console.py to say)."""
    told = "" if argv is None else f"sys.orig_argv = {argv!r}; "
    shown = subprocess.run([sys.executable, "-c", f"import signal, sys; {told}import oddscalc; print(*(getattr("
                            "signal.getsignal(number), '__name__', None) for number in (signal.SIGINT, "
                            "signal.SIGTERM)))"], capture_output=True, text=True, timeout=60)
    assert shown.stdout.split() == (["_kept", "_kept"] if held else ["default_int_handler", "None"]), shown.stderr


def pythons_own(code: int, err: str, signum: int) -> bool:
    """A stop that landed in Python's own start-up (its site, its runpy finding our package), before any code of
    ours: Python's default effect, a KeyboardInterrupt (at site: "Fatal Python error", exit 1) whose frames are all
    Python's, or the signal's own end. A loaded machine stretches that start-up past 0.1 s now and then."""
    return code in (-signum, 1) and f"{os.sep}oddscalc{os.sep}" not in err


def test_a_ctrl_c_in_the_first_moments_prints_no_traceback(tmp_path):
    for wait in (0.1, 0.2, 0.3):
        result, _ = _stopped(signal.SIGINT, ["roll", "10d6", "--trials", "1e12"], tmp_path, wait=wait)
        if pythons_own(result.returncode, result.stderr, signal.SIGINT):
            continue
        assert "Traceback" not in result.stderr and result.returncode in (130, -signal.SIGINT), result.stderr


@pytest.mark.parametrize("redirect, said", [("> /dev/full", "No space left on device"),
                                            (">&-", "standard output is closed")])
def test_output_that_cannot_be_written_is_one_line(tmp_path, redirect, said):
    if redirect.startswith(">") and "full" in redirect and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    command = f"{shlex.quote(sys.executable)} -m oddscalc roll 2d6 --exact {redirect}"
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (1, f"error: cannot write the output ({said})\n")


def test_a_console_that_is_not_utf8_reads_the_answer_in_plain_characters(tmp_path):
    result = subprocess.run([sys.executable, "-m", "oddscalc", "roll", "2d6", "--exact"], cwd=tmp_path,
                            capture_output=True, env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode("latin-1")
    assert "P(>= k)" in text and "-" * 20 in text and "oddscalc 0.1.0 · exact" in text  # · is latin-1


def test_a_closed_pipe_says_nothing(tmp_path):
    result = subprocess.run(["bash", "-c", f"{shlex.quote(sys.executable)} -m oddscalc roll 200d6 --exact | head -1"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.stdout == "Roll 200d6\n" and result.stderr == ""


def test_a_plot_interrupted_while_saving_leaves_no_file(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from oddscalc.output import plots

    def interrupted(self, *args, **kwargs):
        Path(args[0]).write_bytes(b"")  # half a file, as a signal would leave it
        raise KeyboardInterrupt

    monkeypatch.setattr(Figure, "savefig", interrupted)
    from oddscalc.core.distribution import Distribution

    ax = plots.distribution(Distribution.from_pmf([0.5, 0.5]), "hit")
    with pytest.raises(KeyboardInterrupt):
        plots.save(ax.figure, tmp_path / "p.png")
    assert os.listdir(tmp_path) == []


def test_a_run_that_will_be_long_says_so_once_and_a_short_one_not(monkeypatch, capsys):
    from oddscalc.query import answer as output

    now = [0.0]
    monkeypatch.setattr(output.time, "monotonic", lambda: now[0])
    long_run = output.TerminalProgress("sampling", bar=False)
    now[0] = 1.0
    long_run(1, 100)  # before PROGRESS_AFTER: nothing yet
    now[0] = 3.0
    long_run(1, 100)  # 1 % in 3 s: 297 s to go, 300 s in all
    long_run(2, 100)
    assert capsys.readouterr().err == ("note: this run will take about 5 min at its rate so far (Ctrl-C stops it; "
                                       "fewer --trials, or --precision E, ends sooner)\n")
    now[0] = 0.0
    short_run = output.TerminalProgress("sampling", bar=False)
    now[0] = 3.0
    short_run(10, 100)  # 27 s to go
    assert capsys.readouterr().err == ""
    assert (output._duration(5400), output._duration(3 * 86400)) == ("1.5 h", "3 days")


def test_a_long_exact_study_says_to_sample_not_to_take_fewer_trials(monkeypatch, capsys):
    """An exact study has no trials to cut: its note says what does end it sooner."""
    from oddscalc.query import answer as output
    from oddscalc.core.options import RunOptions

    now = [0.0]
    monkeypatch.setattr(output.time, "monotonic", lambda: now[0])
    study = output.TerminalProgress("cells", bar=False, sooner=output.sooner(RunOptions(method="exact")))
    now[0] = 3.0
    study(1, 100)
    assert capsys.readouterr().err == ("note: this run will take about 5 min at its rate so far (Ctrl-C stops it; "
                                       "sampling (leave out --exact) ends sooner)\n")
    assert output.sooner(RunOptions()) == output.SAMPLED_SOONER


def test_a_second_ctrl_c_says_nothing_more_and_keeps_the_code(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "oddscalc", "roll", "10d6", "--trials", "1e12"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.5)
    for _ in range(2):
        process.send_signal(signal.SIGINT)
        time.sleep(0.02)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and out == ""
    assert stopped_lines(err) == "error: interrupted (Ctrl-C); nothing more was written" and "Traceback" not in err


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                                (signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                                (signal.SIGHUP, 129, "hung up (SIGHUP)")])
def test_a_signal_after_the_output_is_complete_is_one_line_and_its_code(tmp_path, signum, code, said):
    """The answer printed, the process on its way out: a signal then still says so, and exits by its code."""
    script = ("import signal, sys\nfrom oddscalc import console\nleave = console._leave\n"
              f"console._leave = lambda code: (signal.raise_signal({int(signum)}), leave(code))\n"
              "sys.argv = ['oddscalc', 'roll', '2d6', '--exact']\nconsole.run()\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == code and "oddscalc roll 2d6 --exact" in result.stdout
    assert result.stderr == f"error: {said}; nothing more was written\n"


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                                (signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                                (signal.SIGHUP, 129, "hung up (SIGHUP)")])
def test_serve_stops_on_a_signal_with_one_line_and_its_code(signum, code, said):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "oddscalc", "serve", "--port", str(port)],
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    process.send_signal(signum)
    err = process.communicate(timeout=30)[1]
    assert process.returncode == code and "Traceback" not in err and "CancelledError" not in err
    assert err.splitlines()[-1] == f"error: {said}; nothing more was written"


def test_a_signal_while_the_errors_module_is_half_loaded_is_a_plain_stop(monkeypatch):
    """A Ctrl-C that lands while `oddscalc.cli.errors` is being imported finds the module without its STOP yet:
    the handler stops as before it was loaded, with no AttributeError (a traceback the flaky run once showed)."""
    import types

    from oddscalc import console

    monkeypatch.setitem(sys.modules, "oddscalc.cli.errors", types.ModuleType("oddscalc.cli.errors"))
    assert console._stopped() is None
    with pytest.raises(KeyboardInterrupt):
        console._stop(signal.SIGINT, None)


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                                (signal.SIGTERM, 143, "terminated (SIGTERM)")])
def test_a_stop_at_any_moment_after_start_up_is_its_line_and_its_code(tmp_path, signum, code, said):
    """Stops spread over the load and the first moments of the run (issue 47: Typer turned a stop while a
    command was built into a silent 130, even for SIGTERM). Each ends in the signal's line and code; only one
    that lands before Python has run any code of ours may end by the signal itself (no line of ours); from the
    package's first line on (oddscalc/__init__.py holds them), every stop is ours."""
    query = [sys.executable, "-m", "oddscalc", "t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive",
             "4", "--strength", "4", "--resilience", "4", "--trials", "1e12"]  # a game's commands load as it is read
    ours = 0
    for step in range(12):
        process = subprocess.Popen(query, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.1 + 0.03 * step)  # (from 0.1 s: a Ctrl-C inside Python's own site start-up, which a loaded
        process.send_signal(signum)    # machine stretches past 50 ms, can be swallowed by it: no code of ours ran)
        _, err = process.communicate(timeout=30)
        if pythons_own(process.returncode, err, signum):
            continue  # before any code of ours
        assert (process.returncode, err.splitlines()[-1:]) == (code, [f"error: {said}; nothing more was written"])
        ours += 1
    assert ours >= 5


def test_a_stop_whose_exception_python_drops_still_ends_the_run(capsys, monkeypatch):
    """A signal that lands while Python runs a weakref's callback (an import's module lock) has its KeyboardInterrupt
    dropped ("Exception ignored in ... _get_module_lock"): the run under way still stops at its next chunk, with the
    stop's line and code, where it sampled on (a 1e12-trial run: hours)."""
    from clirun import run

    from oddscalc.cli import errors
    from oddscalc.core import engine

    real = engine.run

    def dropped(*args, **kwargs):
        try:
            errors.on_signal(2, None)  # the handler raises, and Python drops what it raised
        except KeyboardInterrupt:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "run", dropped)
    result = run(capsys, "roll", "2d6", "--trials", "1e12")
    assert (result.code, result.out, result.err.strip()) == (130, "", "error: interrupted (Ctrl-C); nothing more "
                                                                      "was written")


def test_a_stop_python_drops_before_the_run_sets_its_handler_still_ends_the_run(tmp_path):
    """The CI run that hung: a Ctrl-C that lands once the command line has loaded but before the run's own handler
    is set, inside an import's callback (Python drops what a handler raises there). The stop is held until the
    run's handler takes it (`console.held_stop`), so a 1e12-trial run ends at once, with its line and code."""
    script = textwrap.dedent("""
        import sys
        import oddscalc.cli as cli
        from oddscalc import console

        real = cli.main

        def main():
            try:
                console._stop(2, None)  # the handler runs, and Python drops whatever it raised
            except KeyboardInterrupt:
                pass
            return real()

        cli.main = main
        sys.argv = ["oddscalc", "t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4",
                    "--strength", "4", "--resilience", "4", "--trials", "1e12"]
        console.run()
        """)
    process = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert (process.returncode, process.stdout, process.stderr) == (
        130, "", "error: interrupted (Ctrl-C); nothing more was written\n")


def test_the_command_line_run_from_a_program_s_own_thread_answers_and_leaves_the_handlers(capsys):
    """Signals are the main thread's: run from another thread, the command line sets no handler (Python refuses
    it there) and answers as ever."""
    import threading

    from oddscalc.cli import main

    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    codes = []
    thread = threading.Thread(target=lambda: codes.append(main(["roll", "2d6", "--exact", "--format", "json"])))
    thread.start()
    thread.join(60)
    import json

    assert codes == [0] and json.loads(capsys.readouterr().out)["outcomes"]["sum"]["mean"] == 7
    assert {number: signal.getsignal(number) for number in before} == before


def test_the_collector_is_paused_while_the_command_line_loads_and_runs_again_for_its_work(tmp_path):
    """Loading makes tens of thousands of objects and next to no garbage: the console pauses Python's cyclic
    collector until the command's modules are loaded, then freezes what they made and runs it again, before the
    command's own work (a long run needs it). A program that paused the collector itself keeps it paused."""
    script = textwrap.dedent("""
        import gc, json, sys
        import oddscalc.cli.main
        from oddscalc import console

        cli_main = sys.modules["oddscalc.cli.main"]  # (the package's `main` is the function)
        seen = {}
        load, answer = cli_main.library_path, cli_main.answer_on_terminal

        def loading(args):
            seen["loading"] = gc.isenabled()
            return load(args)

        def answering(*args):
            seen["answering"], seen["frozen"] = gc.isenabled(), gc.get_freeze_count() > 0
            return answer(*args)

        cli_main.library_path, cli_main.answer_on_terminal = loading, answering
        console._leave = lambda code: (print(json.dumps(seen)), sys.stdout.flush(), sys.exit(code))
        if sys.argv[1] == "paused":
            gc.disable()
        sys.argv = ["oddscalc", "roll", "2d6", "--exact", "--format", "json"]
        console.run()
        """)
    for how, expected in (("enabled", {"loading": False, "answering": True, "frozen": True}),
                          ("paused", {"loading": False, "answering": False, "frozen": False})):
        process = subprocess.run([sys.executable, "-c", script, how], cwd=tmp_path, capture_output=True, text=True,
                                 timeout=60)
        assert process.returncode == 0, process.stderr
        assert json.loads(process.stdout.splitlines()[-1]) == expected
