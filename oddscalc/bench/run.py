"""Benchmark: `python -m oddscalc.bench` prints speeds measured side by side in one run.

For each case: a plain numpy baseline (roll every die with `rng.integers(1, 7, ...)`,
compare, sum, stage by stage), the engine on one thread and on every core, and the
ratios. Also the raw speed of the random generator, the two-core scaling on 10⁸
trials, the canonical query end to end (a fresh process each, start-up included), the peak
memory of 10⁹ trials, and the wall time of a command-line query; then
exact mode against icepool (bench/exact.py), and the page's figures (bench/web.py).
Targets are printed next to the figures; nothing here is a test.
"""

from __future__ import annotations

import argparse
import inspect
import threading
from typing import Any

import numpy as np

from ..core import engine
from .. import contract
from ..core.options import every_core
from ..core.hits import HitAndSave
from . import core, exact, web
from .core import Case, best_time, fresh_process, grid_roster, verdict

BASELINE_CHUNK = 1_000_000


def all_cases() -> list[Case]:
    """The core cases, then each game's (`<game>/benchmark.py`, in the registry's order)."""
    return core.cases() + [case for name in contract.names() for case in contract.benchmark(name).cases()]


def baseline_rate(case: Case, trials: int, repeat: int) -> float:
    rng = np.random.default_rng(1)

    def go() -> None:
        for start in range(0, trials, BASELINE_CHUNK):
            case.baseline(rng, min(BASELINE_CHUNK, trials - start))

    return trials / best_time(go, repeat)


def engine_rate(attack: engine.Attack, trials: int, threads: int, repeat: int) -> float:
    """Steady-state trials per second (a warm-up run builds the lookup tables first)."""
    engine.monte_carlo(attack, trials=1000, seed=0, threads=1)
    return trials / best_time(lambda: engine.monte_carlo(attack, trials=trials, seed=1, threads=threads), repeat)


def raw_bytes_rate(threads: int, megabytes: int = 256, repeat: int = 3) -> float:
    """Random bytes per second straight from the bit generator (PCG64), on `threads` threads."""
    words = megabytes * (1 << 20) // 8 // threads
    generators = [np.random.default_rng(i) for i in range(threads)]

    def go() -> None:
        workers = [threading.Thread(target=g.bit_generator.random_raw, args=(words,)) for g in generators]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()

    return words * 8 * threads / best_time(go, repeat)


def peak_memory_of_billion(trials: int) -> tuple[float, float]:
    """Run `trials` canonical trials in a fresh process; return (seconds, peak MiB)."""
    # VmHWM (Linux) is the peak of this process's own memory; ru_maxrss would carry over the
    # parent's peak from before exec.
    code = (
        "import re, time\n"
        "from oddscalc import engine\nfrom oddscalc.core.hits import HitAndSave\n"
        f"start = time.perf_counter(); engine.monte_carlo(HitAndSave(10, 4, 5), trials={trials}, seed=1)\n"
        "seconds = time.perf_counter() - start\n"
        "peak = int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n"
        "print(seconds, peak / 1024)\n"
    )
    output = fresh_process(["-c", code], capture_output=True, text=True, check=True).stdout
    seconds, peak = output.split()
    return float(seconds), float(peak)


def end_to_end(trials: int, repeat: int) -> tuple[float, float]:
    """Wall seconds of the canonical query, `trials` trials on one thread, each in a fresh process,
    start-up included: plain numpy (the baseline's own source, numpy alone imported) and oddscalc's
    library (`run`, as a notebook's first cell)."""
    baseline = (f"import numpy as np\n{inspect.getsource(core.count_outcomes)}\n"
                f"{inspect.getsource(core.baseline_canonical)}\nrng = np.random.default_rng(1)\n"
                f"for start in range(0, {trials}, {BASELINE_CHUNK}):\n"
                f"    baseline_canonical(rng, min({BASELINE_CHUNK}, {trials} - start))\n")
    ours = f"from oddscalc import HitAndSave, run\nrun(HitAndSave(10, 4, 5), trials={trials}, seed=1, threads=1)\n"
    plain = best_time(lambda: fresh_process(["-c", baseline], check=True), min(repeat, 2))  # 10 s a run: best of 2
    return plain, best_time(lambda: fresh_process(["-c", ours], check=True), repeat)


def cli_wall_time(repeat: int = 3) -> float:
    command = ["-m", "oddscalc", "roll", "2d6", "--maximised", "1", "--trials", "1e6", "--format", "json"]
    return best_time(lambda: fresh_process(command, capture_output=True, check=True), repeat)


def grid_rates(size: int, trials: int, cores: int, cluster: bool) -> list[tuple[str, float]]:
    """Cells per second of a size × size grid: exact, in process, on every core, on a LocalCluster."""
    from ..studies.cells import run_cells
    from ..lists.games import parse_roster
    from ..studies.grid import matchups

    roster = parse_roster(grid_roster(size), "benchmark grid")
    attacks = [pair.attack for pair in matchups(roster.game, roster.units, roster.units)]
    cells = len(attacks)
    rates = []
    for label, options in (("exact, in process", {"method": "exact", "threads": 1}),
                           (f"{trials:.0e} trials, in process (1 thread)", {"threads": 1}),
                           (f"{trials:.0e} trials, {cores} cores", {"threads": cores})):
        seconds = best_time(lambda: run_cells(attacks, trials=trials, seed=1, **options), 1)
        rates.append((label, cells / seconds))
    if cluster:
        try:
            from distributed import LocalCluster
        except ImportError:
            rates.append(("LocalCluster (install the dask extra)", float("nan")))
            return rates
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
            run_cells(attacks[:4], trials=1000, seed=1, scheduler=local.scheduler_address)  # warm up
            seconds = best_time(lambda: run_cells(attacks, trials=trials, seed=1,
                                                          scheduler=local.scheduler_address), 1)
        rates.append((f"{trials:.0e} trials, two-worker LocalCluster", cells / seconds))
    return rates


def assault_grid_seconds(size: int) -> float:
    """Seconds of a size × size grid of exact Epic assaults (`grid --assault --exact`: each made-up formation with
    CC 4+ and FF 5+ against each), from cold (no worked pmf kept), in process."""
    import re

    from ..studies.cells import run_cells
    from ..epic import engagement
    from ..lists.games import parse_roster
    from ..studies.grid import matchups

    roster = parse_roster(re.sub(r"(points = \d+\n)", '\\1cc = "4+"\nff = "5+"\n', grid_roster(size)),
                          "benchmark assaults")
    attacks = [pair.attack for pair in matchups(roster.game, roster.units, roster.units, assault=True)]
    assert len(attacks) == size * size and all(attack.engaged for attack in attacks)

    def cold() -> None:
        engagement.forget()
        run_cells(attacks, method="exact")
    return best_time(cold, 1)


def combat_grid_seconds(size: int, trials: int, threads: int) -> float:
    """Seconds of a size × size grid of sampled 9th Age charges (`grid --combat`: each made-up unit charging each),
    `trials` fights a cell, on `threads` threads."""
    from ..core.options import RunOptions
    from ..lists.games import parse_roster
    from ..studies.cells import run_cells
    from ..studies.grid import matchups
    from .core import combat_roster

    roster = parse_roster(combat_roster(size), "benchmark charges")
    attacks = [pair.attack for pair in matchups(roster.game, roster.units, roster.units, assault="combat")]
    assert len(attacks) == size * size
    options = RunOptions(trials=trials, seed=1, threads=threads)
    return best_time(lambda: run_cells(attacks, options=options), 1)


def hero_fight(models: int, duel: bool = False) -> Any:
    """The bench's fight to the end: `models` a side (O3 D3 S3 R3, 5 wide), a character each (issue "Fights to
    the end": 20 against 20), in a Duel or not."""
    from ..t9a import Combat

    plain = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
    width = min(models, 5)
    return Combat(models=models, width=width, **plain, **{f"enemy_{key}": value for key, value in plain.items()},
                  enemy_models=models, enemy_width=width, rounds=10, challenge=duel,
                  character="attacks 3 offensive 5 defensive 5 strength 4 resilience 4 agility 5 health 2",
                  enemy_character="attacks 3 offensive 5 defensive 5 strength 4 resilience 4 agility 5 health 2")


def baseline_fight(rng: np.random.Generator, trials: int, models: int) -> Any:
    """The fight to the end in a plain numpy loop (`t9a.benchmark.baseline_fight`)."""
    from ..t9a.benchmark import baseline_fight as loop

    return loop(rng, trials, models)


def hero_fight_seconds(models: int, trials: int) -> tuple[float, float, float]:
    """(seconds for `trials` sampled fights to the end with a character each side, in a Duel, on one thread;
    seconds of the exact twin without a Duel; with one), from cold."""
    from ..t9a.fight_exact import combat_pmfs

    sampled = best_time(lambda: hero_fight(models, duel=True).sample(np.random.default_rng(1), trials), 1)
    plain = best_time(lambda: combat_pmfs(hero_fight(models).fight, 10, float), 1)
    duel = best_time(lambda: combat_pmfs(hero_fight(models, duel=True).fight, 10, float), 1)
    return sampled, plain, duel


def study_entries(size: int) -> tuple[list[Any], Any]:
    """The bench's balance study: `size` made-up Epic formations (`grid_roster`, with CC and FF to assault),
    and the game's reference targets."""
    from ..studies import balance
    from ..lists.games import parse_roster

    text = grid_roster(size).replace('kind = "infantry"\n', 'kind = "infantry"\ncc = "4+"\nff = "5+"\n')
    roster = parse_roster(text, "benchmark balance")
    return [balance.Entry("bench", unit.name, (unit,)) for unit in roster.units], balance.reference(roster.game)


def balance_rates(size: int, trials: int, cores: int, cluster: bool) -> list[tuple[str, float]]:
    """Cells per second of a balance study (`oddscalc balance`) of `size` made-up Epic formations against the
    reference targets, shooting and assaults (--engage), sampled: in process on every core, and on a two-worker
    LocalCluster (the cells sent in batches, `balance.BATCH`)."""
    from ..studies import balance
    from ..core.options import RunOptions
    from ..output.style import plural

    entries, targets = study_entries(size)
    options = RunOptions(trials=trials, seed=1, threads=cores)

    def cells_per_second(scheduler: str | None) -> float:
        counted: list[int] = []
        seconds = best_time(lambda: balance.study(entries, targets, options=options, engage=True,
                                                  scheduler=scheduler, progress=lambda done, _: counted.append(done)),
                            1)
        return counted[-1] / seconds
    rates = [(f"{trials:.0e} trials, in process ({plural(cores, 'thread')})", cells_per_second(None))]
    if cluster:
        try:
            from distributed import LocalCluster
        except ImportError:
            return rates + [("LocalCluster (install the dask extra)", float("nan"))]
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
            cells_per_second(local.scheduler_address)  # warm up: the workers import the engines
            rates.append((f"{trials:.0e} trials, two-worker LocalCluster", cells_per_second(local.scheduler_address)))
    return rates


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The benchmark's options (`--quick`: the smallest sizes, a smoke run)."""
    parser = argparse.ArgumentParser(prog="python -m oddscalc.bench", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=float, default=1e7, help="trials per case (default 1e7)")
    parser.add_argument("--scaling-trials", type=float, default=1e8, help="trials for the two-core scaling and the "
                                                                          "end-to-end run (0 skips them)")
    parser.add_argument("--billion", type=float, default=1e9, help="trials for the memory probe (0 skips)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check that the benchmark runs")
    parser.add_argument("--only", default="", help="run only cases whose name contains this text")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask LocalCluster grid")
    parser.add_argument("--no-web", action="store_true", help="skip the page's figures (oddscalc.bench.web)")
    options = parser.parse_args(argv)
    if options.quick:
        core.QUICK = True
        options.trials, options.scaling_trials, options.billion, options.repeat = 2e4, 4e4, 0, 1
    return options


def exact_balance_rates(size: int, cores: int) -> list[tuple[str, float]]:
    """Cells per second of the same balance study (`balance_rates`) exact, from cold (no worked pmf kept): in
    one process, and on `cores` forked processes (`processes.in_processes`)."""
    from ..studies import balance
    from ..epic import engagement
    from ..core.options import Method, RunOptions

    entries, targets = study_entries(size)
    rates = []
    for workers in sorted({1, cores}):
        counted: list[int] = []
        engagement.forget()
        seconds = best_time(lambda: balance.study(entries, targets, options=RunOptions(method=Method.EXACT, threads=workers),
                                                  engage=True, progress=lambda done, _: counted.append(done)), 1)
        rates.append(("exact, one process" if workers == 1 else f"exact, {workers} processes", counted[-1] / seconds))
    return rates


def studies(options: argparse.Namespace, cores: int) -> None:
    """The studies' figures: a grid's cells per second, and a balance study's, in process and on a cluster."""
    size, grid_trials = (4, 1000) if options.quick else (40, 100_000)
    print(f"\ngrid {size} x {size} ({size * size} cells), cells per second:")
    _show(grid_rates(size, grid_trials, cores, cluster=not options.no_cluster), rates_on_every_core=2, cores=cores)
    size = 6 if options.quick else 40
    print(f"\nbalance study, {size} Epic formations x the reference targets, shooting and assaults, cells per second:")
    _show(balance_rates(size, 1000 if options.quick else 20_000, cores, cluster=not options.no_cluster),
          rates_on_every_core=0, cores=cores)
    exact = exact_balance_rates(size, cores)
    for label, rate in exact:
        print(f"  {label:44} {rate:8.1f} cells/s")
    print(f"  exact, every core / one process: {100 * exact[-1][1] / exact[0][1]:.0f} %")
    size = 5 if options.quick else 20
    seconds = assault_grid_seconds(size)
    print(f"\ngrid --assault --exact {size} x {size} ({size * size} assaults), from cold: {seconds:.2f} s"
          + verdict(seconds, 2.0, above=False))
    size, fights = (4, 1000) if options.quick else (20, 100_000)
    seconds = combat_grid_seconds(size, fights, cores)
    print(f"grid --combat {size} x {size} ({size * size} charges), {fights:.0e} fights each, {cores} cores: "
          f"{seconds:.2f} s" + verdict(seconds, 10.0, above=False))
    models, fights = (5, 10_000) if options.quick else (20, 1_000_000)
    sampled, plain, duel = hero_fight_seconds(models, fights)
    baseline = best_time(lambda: baseline_fight(np.random.default_rng(1), fights, models), 1)
    print(f"\nt9a combat, {models} against {models} fought to the end, a character each, one thread:")
    print(f"  sampled, a Duel, {fights:,} fights: {sampled:.2f} s" + verdict(sampled, 1.0, above=False))
    print(f"  the same fights in a plain numpy loop: {baseline:.2f} s: {baseline / sampled:.1f}x")
    print(f"  exact, no Duel: {plain:.2f} s" + verdict(plain, 5.0, above=False))
    print(f"  exact, a Duel: {duel:.2f} s" + verdict(duel, 5.0, above=False))


def _show(rates: list[tuple[str, float]], rates_on_every_core: int, cores: int) -> None:
    """Each rate on its line, then the cluster's (the last, when run) over the in-process rate on every core."""
    for label, rate in rates:
        print(f"  {label:44} {rate:8.1f} cells/s")
    if "LocalCluster" in rates[-1][0] and rates[-1][1] == rates[-1][1]:  # (nan: no Dask)
        share = rates[-1][1] / rates[rates_on_every_core][1]
        print(f"  two-worker LocalCluster / in process on {cores} cores: {100 * share:.0f} %{verdict(share, 0.8)}")


def main(argv: list[str] | None = None) -> None:
    options = arguments(argv)
    trials, repeat = int(options.trials), options.repeat
    cores = every_core()
    print(f"oddscalc benchmark · numpy {np.__version__} · {cores} cores · best of {repeat}"
          + (" · quick smoke run: sizes too small to judge the targets" if core.QUICK else ""))

    raw_one = raw_bytes_rate(1, 16 if options.quick else 256, repeat)
    raw_all = raw_bytes_rate(cores, 16 if options.quick else 256, repeat)
    print(f"\nrandom generator (PCG64 random_raw): {raw_one / 1e9:.2f} GB/s on 1 thread, "
          f"{raw_all / 1e9:.2f} GB/s on {cores}")

    print(f"\n{'case':62} {'baseline':>12} {'engine 1T':>12} {'engine ' + str(cores) + 'T':>12} "
          f"{'1T/base':>8} {'dice rate/raw':>14}")
    for case in all_cases():
        if options.only not in case.name:
            continue
        base = baseline_rate(case, trials, repeat)
        one = engine_rate(case.attack, trials, 1, repeat)
        every = engine_rate(case.attack, trials, cores, repeat)
        dice_share = one * case.dice / raw_one
        print(f"{case.name:62} {base:10.3g}/s {one:10.3g}/s {every:10.3g}/s {one / base:7.1f}x "
              f"{100 * dice_share:12.0f} %{verdict(one / base, case.target)}")
        if case.name.startswith("canonical"):
            print(f"{'':62} effective dice rate {one * case.dice / 1e9:.2f} G dice/s = {100 * dice_share:.0f} % of "
                  f"the raw byte rate{verdict(100 * dice_share, 20)}")

    if options.only and "canonical" not in options.only:
        return
    canonical = HitAndSave(10, 4, 5)
    scaling = int(options.scaling_trials)
    if scaling:  # 0 skips the scaling and the end-to-end run
        single = engine_rate(canonical, scaling, 1, repeat)
        both = engine_rate(canonical, scaling, cores, repeat)
        print(f"\nscaling, canonical, {scaling:.0e} trials: {single:.3g}/s on 1 thread, {both:.3g}/s on {cores}: "
              f"{both / single:.2f}x{verdict(both / single, 1.7)}")
        base_seconds, our_seconds = end_to_end(scaling, repeat)
        print(f"end to end, canonical, {scaling:.0e} trials on one thread, a fresh process each, start-up included: "
              f"plain numpy {base_seconds:.2f} s, oddscalc {our_seconds:.2f} s: "
              f"{base_seconds / our_seconds:.1f}x{verdict(base_seconds / our_seconds, 12.0)}")

    if options.billion:
        seconds, peak = peak_memory_of_billion(int(options.billion))
        print(f"memory, canonical, {options.billion:.0e} trials: {seconds:.1f} s, peak {peak:.0f} MiB"
              f"{verdict(peak, 1024, above=False)}")
    studies(options, cores)
    wall = cli_wall_time(1 if options.quick else 3)
    print(f"`oddscalc roll 2d6 --maximised 1 --trials 1e6 --format json`: {wall:.2f} s wall"
          f"{verdict(wall, 1.0, above=False)}")
    exact.main(1 if options.quick else 7, 1 if options.quick else 3)
    if not options.no_web:
        web.main(["--quick"] if options.quick else [])


if __name__ == "__main__":
    main()
