"""RunOptions: one value of a run's settings, checked once; Cancel: one run stopped, not every run."""

from __future__ import annotations

import enum
import math
import subprocess
import sys
import threading

import numpy as np
import pytest

from oddscalc import Cancel, Cancelled, RunOptions
from oddscalc.studies import cells, sweeps as studies
from oddscalc.core import engine, sampling
from oddscalc.core.dice import DiceExpression
from oddscalc.errors import InputError
from oddscalc.core.roll import Roll

TWO_D6 = Roll(DiceExpression.parse("2d6"))


def refusal(make) -> tuple:
    with pytest.raises(InputError) as error:
        make()
    return error.value.name, error.value.value, error.value.allowed


@pytest.mark.parametrize("settings, refused", [
    ({"trials": 0}, ("trials", 0, "expected a whole number of trials from 1 to 1e+12")),
    ({"trials": 10**12 + 1}, ("trials", 10**12 + 1, "expected a whole number of trials from 1 to 1e+12")),
    ({"trials": 1.5}, ("trials", 1.5, "expected a whole number of trials from 1 to 1e+12")),
    ({"trials": True}, ("trials", True, "expected a whole number of trials from 1 to 1e+12")),
    ({"threads": 0}, ("threads", 0, "expected 1 or more threads (default: every core)")),
    ({"threads": 1025}, ("threads", 1025, "expected 1 or more threads (default: every core)")),
    ({"precision": 0.0}, ("precision", 0.0, "expected a standard error from 1e-9 up, e.g. 0.01")),
    ({"precision": float("inf")}, ("precision", float("inf"), "expected a standard error from 1e-9 up, e.g. 0.01")),
    ({"precision": True}, ("precision", True, "expected a standard error from 1e-9 up, e.g. 0.01")),
    ({"seed": -1}, ("seed", -1, "expected a whole number from 0 to 2^128 - 1")),
    ({"seed": 2**128}, ("seed", 2**128, "expected a whole number from 0 to 2^128 - 1")),
    ({"seed": "7"}, ("seed", "7", "expected a whole number from 0 to 2^128 - 1")),
    ({"method": "guess"}, ("method", "guess", "expected one of monte-carlo, exact, verify")),
    ({"fractions": 1, "method": "exact"}, ("fractions", 1, "expected true or false")),
    ({"cancel": threading.Event()}, ("cancel", "Event", "expected a Cancel (oddscalc.Cancel())")),
])
def test_every_setting_is_refused_when_made_naming_itself(settings, refused):
    assert refusal(lambda: RunOptions(**settings)) == refused
    assert refusal(lambda: engine.run(TWO_D6, **settings)) == refused  # the same from any entry point
    assert refusal(lambda: cells.run_cells([TWO_D6], **settings)) == refused


def test_the_conflicts_are_in_the_options_not_only_in_the_command_line():
    assert refusal(lambda: RunOptions(method="exact", precision=0.01)) == (
        "precision", 0.01, "--precision applies to sampling; drop it or drop --exact")
    assert refusal(lambda: engine.run(TWO_D6, method="exact", precision=0.01))[0] == "precision"
    assert refusal(lambda: RunOptions(fractions=True)) == ("fractions", None, "exact rationals come with --exact only")
    assert refusal(lambda: RunOptions(fractions=True, method="verify"))[0] == "fractions"
    assert RunOptions(method="exact", fractions=True).fractions is True
    assert RunOptions(method="verify", precision=0.01).precision == 0.01  # verify samples: a precision applies


def test_options_are_made_from_keywords_and_replaced_as_a_whole():
    base = RunOptions(trials=1000, seed=3)
    assert RunOptions.of() == RunOptions() and RunOptions.of(base) is base
    assert RunOptions.of(base, seed=4) == RunOptions(trials=1000, seed=4)
    assert refusal(lambda: RunOptions.of(base, workers=2)) == (
        "workers", 2, "is not a setting of a run; the settings are trials, seed, method, precision, threads, "
                      "fractions, cancel, budget, seconds")
    assert refusal(lambda: RunOptions.of({"trials": 5}))[:2] == ("options", "dict")
    assert refusal(lambda: base.replace(method="exact", precision=0.1))[0] == "precision"
    assert RunOptions(trials=np.int64(5), threads=np.int32(2)) == RunOptions(trials=5, threads=2)
    assert type(RunOptions(trials=np.int64(5)).trials) is int

    class Method(str, enum.Enum):
        EXACT = "exact"

    assert RunOptions(method=Method.EXACT).method == "exact"  # an Enum reads as its value


def test_one_default_number_of_trials_everywhere():
    assert RunOptions().trials == 1_000_000
    assert engine.run(TWO_D6, seed=1).trials == 1_000_000
    assert engine.monte_carlo(TWO_D6, seed=1).trials == 1_000_000
    (cell,), _ = cells.run_cells([TWO_D6], seed=1)
    assert cell.trials == 1_000_000
    assert studies.sweep(TWO_D6, {"maximised": [0]}, seed=1).results[0].trials == 1_000_000
    assert studies.compare([TWO_D6, TWO_D6], seed=1).results[1].trials == 1_000_000


def test_options_given_as_one_value_or_as_keywords_give_the_same_run():
    options = RunOptions(trials=20_000, seed=9, threads=1)
    assert engine.run(TWO_D6, options=options)["sum"] == engine.run(TWO_D6, trials=20_000, seed=9)["sum"]
    swept = studies.sweep(TWO_D6, {"maximised": [0, 1]}, options=options)
    assert swept.results[1]["sum"] == studies.sweep(TWO_D6, {"maximised": [0, 1]}, trials=20_000, seed=9).results[1]["sum"]


def test_cancelling_one_run_leaves_another_in_the_same_process_running():
    """Two runs on two threads: the first is cancelled from outside once it has started; the
    second finishes with the very counts of an undisturbed run of its seed."""
    doomed, steady = Cancel(), Cancel()
    started = threading.Event()
    outcome: dict[str, object] = {}

    def first() -> None:
        try:
            engine.run(TWO_D6, trials=10**10, seed=1, threads=2, cancel=doomed,
                       progress=lambda done, total: started.set())
        except Cancelled:
            outcome["first"] = "cancelled"

    def second() -> None:
        outcome["second"] = engine.run(TWO_D6, trials=3 * sampling.CHUNK, seed=2, threads=2, cancel=steady)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    assert started.wait(60)
    doomed.cancel()
    for thread in threads:
        thread.join(120)
    assert outcome["first"] == "cancelled" and doomed.cancelled and not steady.cancelled
    assert outcome["second"]["sum"] == engine.run(TWO_D6, trials=3 * sampling.CHUNK, seed=2, threads=1)["sum"]


def test_a_cancelled_token_stops_a_serial_run_and_a_study_at_once():
    cancel = Cancel()
    cancel.cancel()
    with pytest.raises(Cancelled):
        engine.run(TWO_D6, trials=1000, seed=1, threads=1, cancel=cancel)
    with pytest.raises(Cancelled):
        cells.run_cells([TWO_D6, TWO_D6], trials=1000, seed=1, threads=2, cancel=cancel)
    assert engine.run(TWO_D6, method="exact", cancel=cancel)["sum"].exact  # nothing to stop: exact is one step
    assert repr(cancel) == "Cancel(cancelled)" and repr(Cancel()) == "Cancel(live)"


def test_a_study_cancelled_midway_stops_its_cells():
    cancel = Cancel()
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        cancel.cancel()

    attacks = [Roll(DiceExpression.parse(f"{n}d6")) for n in range(1, 40)]
    with pytest.raises(Cancelled):
        cells.run_cells(attacks, trials=sampling.CHUNK * 4, seed=1, threads=1, cancel=cancel, progress=progress)
    assert seen == [1]  # the first cell finished; the second stopped at its first chunk


@pytest.mark.parametrize("seconds", [0, -1, math.inf, math.nan, True, "60"])
def test_a_runs_seconds_are_a_number_above_zero(seconds):
    assert refusal(lambda: RunOptions(seconds=seconds)) == ("seconds", seconds, "expected a number of seconds above 0")


def test_a_budget_caps_the_trials_of_a_run_and_of_a_study_in_all():
    assert refusal(lambda: RunOptions(trials=1001, budget=1000)) == (
        "trials", "1,001", "expected at most 1,000 trials in all here; the command line has no such cap")
    assert RunOptions(trials=1000, budget=1000).budget == 1000  # exactly the budget is allowed
    assert RunOptions(trials=10**9, budget=1000, method="exact").method == "exact"  # exact samples nothing
    assert refusal(lambda: RunOptions(budget=0))[:2] == ("budget", 0)
    assert refusal(lambda: RunOptions(budget=2.5))[:2] == ("budget", 2.5)
    assert refusal(lambda: cells.run_cells([TWO_D6] * 3, trials=400, budget=1000)) == (
        "trials", "3 cells × 400 trials",
        "expected at most 1,000 trials in all here, at most 333 a cell (or exact); the command line has no such cap")
    assert refusal(lambda: RunOptions(trials=500, budget=1000).afford(3))[1] == "3 cells × 500 trials"
    RunOptions(trials=500, budget=1000).afford(2)  # 1,000 in all: allowed
    RunOptions(trials=500, budget=1000, method="verify").afford(2)
    assert refusal(lambda: RunOptions(trials=500, budget=1000, method="verify").afford(3))[0] == "trials"


def test_every_setting_takes_its_limits_themselves():
    from enum import Enum

    from oddscalc.core import options

    edge = RunOptions(trials=options.MAX_TRIALS, threads=options.MAX_THREADS, seed=options.MAX_SEED, budget=10**12)
    assert (edge.trials, edge.threads, edge.seed) == (options.MAX_TRIALS, options.MAX_THREADS, options.MAX_SEED)
    assert RunOptions(trials=1, threads=1, seed=0, budget=1).trials == 1

    class Method(Enum):
        EXACT = "exact"

    assert RunOptions(method=Method.EXACT).method == "exact"  # the command line's choice, as its value
    assert refusal(lambda: RunOptions.of({"trials": 5})) == ("options", "dict", "expected RunOptions(...)")
    assert refusal(lambda: RunOptions(trials=500, budget=999).afford(2)) == (
        "trials", "2 cells × 500 trials",
        "expected at most 999 trials in all here, at most 499 a cell (or exact); the command line has no such cap")


def test_every_core_is_at_least_one(monkeypatch):
    from oddscalc.core import options

    monkeypatch.setattr(options.os, "cpu_count", lambda: None)
    assert options.every_core() == 1
    monkeypatch.setattr(options.os, "cpu_count", lambda: 3)
    assert options.every_core() == 3


def test_a_seed_is_checked_while_another_thread_imports_numpy():
    """The page checks a query's options in one thread while another's first sample imports
    numpy.random: its half-made module in sys.modules is waited for, never read (it was a 500)."""
    code = """
import sys, threading
from oddscalc.core.options import RunOptions
failures, done = [], threading.Event()
def check():
    while not done.is_set():
        try:
            RunOptions(seed=1)
        except Exception as error:
            failures.append(repr(error))
            return
checker = threading.Thread(target=check)
checker.start()
import numpy.random
done.set()
checker.join()
print(failures or "none", "numpy.random" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["none", "True"]


def test_a_sampled_runs_seconds_are_projected_from_its_trials_done():
    """`seconds` holds a single sampled run too (not only a study's cells): refused once a thirtieth of the
    allowance is spent, if its trials so far project past it; with a precision (it may stop sooner) the run
    goes on, and a run that fits is answered."""
    from oddscalc.core.hits import HitAndSave

    attack = HitAndSave(20, 4, 5)
    with pytest.raises(InputError) as error:
        engine.run(attack, trials=10**10, seed=1, seconds=0.3)
    assert (error.value.name, error.value.value) == ("trials", "10,000,000,000")
    assert error.value.allowed.endswith("more than the 0.3 s a run may take here: ask for fewer --trials, or run it "
                                        "on the command line")
    assert engine.run(attack, trials=10**5, seed=1, seconds=30).trials == 10**5
    cancel = Cancel()
    timer = threading.Timer(0.5, cancel.cancel)
    timer.start()
    with pytest.raises(Cancelled):  # not refused: a precision's run is not projected, only cancelled
        engine.run(attack, trials=10**10, seed=1, seconds=0.3, precision=1e-9, cancel=cancel)
