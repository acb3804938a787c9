"""Exact answers side by side with icepool (`pip install -e '.[bench]'`), the strongest exact
dice engine in Python: the same queries, written in each, timed warm in one process and
first thing in a fresh process. `tests/bench/test_exact.py` checks that both give the same pmf.
"""

from __future__ import annotations

from typing import Any

import functools
import time
from collections.abc import Callable

from ..core.dice import DiceExpression
from .. import contract
from ..core.hits import HitAndSave
from ..core.roll import Roll
from .core import ExactCase, fresh_process, grid_roster, verdict


def _hit_and_save(ip: Any) -> Any:
    return 10 @ ip.map(lambda hit, save: int(hit >= 4 and save < 5), ip.d6, ip.d6)


def cases() -> list[ExactCase]:
    """The queries of the comparison: the game-free ones, then each game's (`<game>/benchmark.py`)."""
    return [
        ExactCase("10 dice hit 4+, save 5+", HitAndSave(10, 4, 5), "unsaved", _hit_and_save),
        ExactCase("2d6 maximised", Roll(DiceExpression.parse("2d6"), maximised=1), "sum",
                  lambda ip: ip.d6.highest(3, 2)),
        ExactCase("10d6 maximised x3", Roll(DiceExpression.parse("10d6"), maximised=3), "sum",
                  lambda ip: ip.d6.highest(13, 10)),
        ExactCase("200d6 (plain sum)", Roll(DiceExpression.parse("200d6")), "sum", lambda ip: 200 @ ip.d6),
    ] + [case for name in contract.names() for case in contract.benchmark(name).exact_cases()]


def best_ms(function: Callable[[], object], repeat: int) -> float:
    function()  # warm: imports and tables
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best * 1000


FRESH = {  # the first answer in a fresh process, through each library's public import: its mean, read
    "python": "pass",
    "numpy": "import numpy",
    "icepool": "import icepool; (10 @ icepool.map(lambda h, s: int(h >= 4 and s < 5), icepool.d6, icepool.d6))"
               ".mean()",
    "oddscalc": "from oddscalc import HitAndSave, run; run(HitAndSave(10, 4, 5), method='exact')['unsaved'].mean",
    "oddscalc epic": "from oddscalc import EpicShoot, run; run(EpicShoot(shots=12, to_hit='4+', units=6, "
                     "armour='4+'), method='exact')['kills'].mean",
    "oddscalc t9a": "from oddscalc import Melee, run; run(Melee(attacks=10, offensive=4, defensive=4, strength=4, "
                    "resilience=4), method='exact')['unsaved'].mean",
    "oddscalc dust": "from oddscalc import WeaponLine, run; run(WeaponLine(dice=4), method='exact')['damage'].mean",
}


def first_answers(repeat: int) -> None:
    """The first answer in a fresh process, side by side in one run: Python alone, `import numpy`,
    icepool's first answer to 10 hit-and-save dice, oddscalc's to the same dice and each game's (an Epic
    shooting attack, a 9th Age melee, a Dust weapon line), and the same through the command line (`CLI`)."""
    for compiled, how in ((True, "every library's bytecode cached, as an install has it"),
                          (False, "no bytecode at all: every module compiled from source")):
        times = interleaved({name: functools.partial(fresh_process, ["-c", code], compiled, check=True)
                             for name, code in FRESH.items()}, repeat)
        print(f"\nfirst answer in a fresh process, best of {repeat} (wall, start-up included; {how}):")
        for name, ms in times.items():
            print(f"  {name:14} {ms:7.1f} ms  {ms - times['python']:6.1f} ms beyond Python"
                  + (f", {ms / times['icepool']:4.2f}x icepool's" if name.startswith("oddscalc") else ""))
        for name in (name for name in times if name.startswith("oddscalc")):
            print(f"  {name} first answer / icepool first answer: {times[name] / times['icepool']:.2f}"
                  f"{verdict(times[name] / times['icepool'], 1.0, above=False)}")
        first_commands(repeat, compiled)


CLI = {  # each game's first question through the command line, the same as FRESH asks through the library
    "plain": ["roll", "2d6", "--exact"],
    "epic": ["epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+", "--exact"],
    "t9a": ["t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4", "--strength", "4",
            "--resilience", "4", "--exact"],
    "dust": ["dust", "attack", "--dice", "4", "--exact"],
}


def first_commands(repeat: int, compiled: bool = True) -> None:
    """Each game's first answer through the command line in a fresh process, beside icepool's through its library
    (taken in turn with them), with every library's bytecode cached or with none (`compiled`)."""
    runs: dict[str, Callable[[], object]] = {
        "icepool": functools.partial(fresh_process, ["-c", FRESH["icepool"]], compiled, check=True)}
    runs.update({name: functools.partial(fresh_process, ["-m", "oddscalc", *words], compiled, capture_output=True,
                                         check=True) for name, words in CLI.items()})
    times = interleaved(runs, repeat)
    for name, words in CLI.items():
        ratio = times[name] / times["icepool"]
        print(f"  oddscalc {' '.join(words[:2]):12} (command line) {times[name]:7.1f} ms, "
              f"{ratio:4.2f}x icepool's{verdict(ratio, 1.0, above=False)}")


def interleaved(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Each run's best wall time in ms, the runs taken in turn `repeat` times (after one warm round): a machine's
    slow moment falls on all of them alike, not on one name's whole series."""
    best = {name: float("inf") for name in runs}
    for round_ in range(repeat + 1):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            if round_:
                best[name] = min(best[name], (time.perf_counter() - start) * 1000)
    return best


COMMANDS = [  # (command line, target seconds, what the target asks)
    ("roll 2d6 --exact", 0.25, "answer"),
    ("roll 200d6 --exact", 0.2, "answer"),
    ("roll 200d6 --maximised 3 --exact", 2.0, "answer or refuse"),
    ("roll 40d100 --exact", 2.0, "answer or refuse"),
    ("roll 100d100 --maximised 3 --exact", 2.0, "answer or refuse"),
    ("roll 200d100 --maximised 20 --exact", 0.5, "answer or refuse"),
    ("roll 200d100 --verify --trials 1e6", None, "answer"),
    ("t9a melee --attacks 200 --offensive 4 --defensive 4 --strength 4 --resilience 4 --models 500 --health 20 "
     "--multiple-wounds 3d6 --exact --fractions", 2.0, "answer or refuse"),
    ("t9a melee --attacks 50 --offensive 4 --defensive 4 --strength 4 --resilience 4 --models 500 --health 5 "
     "--multiple-wounds 3d6 --exact --fractions", 2.0, "answer or refuse"),
    ("dust attack --dice 4 --exact", None, "answer"),
    ("dust attack --dice 4 --trials 1e6", None, "answer"),
    ("grid --game epic --exact", None, "answer"),
    ("grid --game epic --trials 1e6", None, "answer"),
]


def command_seconds(words: list[str], repeat: int) -> tuple[float, str]:
    """Best wall time of `oddscalc WORDS` in a fresh process, and how it ended."""
    ended = []

    def go() -> None:
        process = fresh_process(["-m", "oddscalc", *words], capture_output=True, text=True)
        ended.append("answered" if process.returncode == 0 else
                     "refused: " + process.stderr.strip()[:60] if process.returncode == 2 else
                     f"failed ({process.returncode})")

    return best_ms(go, repeat) / 1000, ended[-1]


def commands(repeat: int) -> None:
    """The command lines of the issue, wall time with start-up, and a 20 x 20 roster grid exact."""
    import tempfile
    from pathlib import Path


    startup, _ = command_seconds(["--version"], repeat)
    print(f"\nexact mode on the command line, wall time of a fresh process (start-up alone: {startup:.2f} s):")
    for line, target, asks in COMMANDS:
        seconds, ended = command_seconds(line.split(), repeat)
        print(f"  oddscalc {line:44} {seconds:6.2f} s  {ended}{verdict(seconds, target, above=False)}")
    with tempfile.TemporaryDirectory() as folder:
        roster = Path(folder, "grid20.toml")
        roster.write_text(grid_roster(20))
        seconds, ended = command_seconds(["grid", str(roster), "--exact", "--format", "csv"], repeat)
    print(f"  oddscalc grid (20 x 20 = 400 cells) --exact        {seconds:6.2f} s  {ended}"
          f"{verdict(seconds, 2.0, above=False)}")


README_EXACT = [  # the README's exact queries, and the Dust weapon line
    "roll 2d6 --maximised 1",
    "dust attack --dice 4",
    "dust phaser 2z3",
    "epic barrage --bp 6 --units 3 --armour 4+",
    "grid --game epic --attackers 'Whirlwind Battery' --targets 'Ork Warband' --show-query",
]


def readme_queries(repeat: int) -> None:
    """Each README query exact and sampled (1e6 trials), warm in this process: parse, compute, render."""
    import contextlib
    import io
    import shlex

    from ..cli import main as cli

    def answer(words: list[str]) -> Callable[[], None]:
        def go() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                cli(words)
        return go

    print("\nthe README's exact queries, warm in one process (parse, compute, print):")
    for line in README_EXACT:
        words = shlex.split(line)
        exact = best_ms(answer([*words, "--exact"]), repeat)
        sampled = best_ms(answer([*words, "--trials", "1e6", "--seed", "1"]), repeat)
        print(f"  oddscalc {line[:60]:60} exact {exact:7.1f} ms, sampled 1e6 {sampled:7.1f} ms"
              f"{'' if exact <= sampled else '  (exact slower)'}")


def main(repeat: int = 5, command_repeat: int = 3) -> None:
    commands(command_repeat)
    readme_queries(command_repeat)
    try:
        import icepool
    except ImportError:
        print("exact mode against icepool: install the bench extra (pip install -e '.[bench]')")
        return
    print(f"\nexact mode, warm, best of {repeat} (icepool {icepool.__version__}):")
    print(f"  {'query':52} {'oddscalc':>10} {'fractions':>10} {'icepool':>10} {'icepool/oddscalc':>17}")
    for case in cases():
        ours = best_ms(case.attack.exact, repeat)
        rational = best_ms(functools.partial(case.attack.exact, fractions=True), max(1, repeat // 2))
        theirs = best_ms(functools.partial(lambda build: build(icepool).probabilities(), case.icepool), repeat)
        print(f"  {case.name:52} {ours:8.2f}ms {rational:8.2f}ms {theirs:8.2f}ms {theirs / ours:16.1f}x")
    first_answers(repeat)
