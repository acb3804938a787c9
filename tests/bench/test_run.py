"""The benchmark runs (a smoke run; speed is measured by `python -m oddscalc.bench`, never in tests).

The exact benchmark's queries against icepool are in test_exact.py; each game's own cases in
tests/<game>/test_benchmark.py."""

import numpy as np
import pytest

from oddscalc.core import engine
from oddscalc.bench import run
from oddscalc.core.distribution import Distribution, dkw_bound


def test_quick_benchmark_prints_every_figure(capsys):
    run.main(["--quick", "--no-cluster"])
    out = capsys.readouterr().out
    for text in ("random generator", "canonical", "maximised 2d6", "scaling", "end to end", "grid 4 x 4", "wall",
                 "server time of exact queries", "first paint", "load: 20 requests from 8 clients",
                 "no bytecode at all", "oddscalc t9a first answer / icepool", "dust attack  (command line)"):
        assert text in out
    assert "balance study, 6 Epic formations x the reference targets" in out and "trials, in process (" in out
    # the load test's mix: 2 of its 20 requests are refused, the rest answered, none lost (each client its own)
    assert "answered 18, refused 2, told to wait 0, busy 0, errors 0" in out and "server memory" in out


def test_the_balance_figures_count_the_studys_cells_in_process_and_on_a_cluster(monkeypatch):
    """Each rate is the study's cells (6 formations x 3 reference targets, shooting and assaults) over its time."""
    monkeypatch.setattr(run, "best_time", lambda go, repeat: (go(), 2.0)[1])
    rates = run.balance_rates(6, 100, 1, cluster=False)
    from oddscalc.studies import balance
    from oddscalc.lists.games import parse_roster
    text = run.grid_roster(6).replace('kind = "infantry"\n', 'kind = "infantry"\ncc = "4+"\nff = "5+"\n')
    roster = parse_roster(text, "bench")
    targets = balance.reference(roster.game).units
    fights = sum(balance.engagement_of(roster.game, unit, target) is not None
                 for unit in roster.units for target in targets)
    shots = {balance.cell_key(attack, "monte-carlo", 1) for unit in roster.units for target in targets
             for attack in balance.attacks_of(roster.game, unit, target)}
    assert fights > 0 and [label for label, _ in rates] == ["1e+02 trials, in process (1 thread)"]
    assert rates[0][1] == pytest.approx((len(shots) + fights) / 2.0)


@pytest.mark.parametrize("case", run.all_cases(), ids=lambda case: case.name)
def test_each_baseline_runs_the_same_kind_of_attack(case):
    """The baselines are honest: they sample the same main outcome as the attack's exact twin."""
    exact = engine.run(case.attack, method="exact")
    main = exact[exact.main]
    values = case.baseline(np.random.default_rng(5), 200_000)
    assert values.shape == (200_000,)
    assert abs(values.mean() - main.mean) <= 5 * main.sd / np.sqrt(values.size) + 1e-12
    assert Distribution.from_samples(values).cdf_gap(main) <= dkw_bound(values.size, 1e-6)


def test_the_exact_balance_figures_count_the_studys_cells_on_one_process_and_on_every_core(monkeypatch):
    """The same study exact: its cells (shooting and assaults, each counted once) over its time, one process
    and then every core's."""
    monkeypatch.setattr(run, "best_time", lambda go, repeat: (go(), 4.0)[1])
    from oddscalc.studies import balance
    entries, targets = run.study_entries(3)
    cells = {balance.cell_key(attack, "exact", None) for entry in entries for target in targets.units
             for attack in balance.attacks_of(targets.game, entry.units[0], target)}
    cells |= {balance.cell_key(fight, "exact", None) for entry in entries for target in targets.units
              if (fight := balance.engagement_of(targets.game, entry.units[0], target)) is not None}
    rates = run.exact_balance_rates(3, 2)
    assert [label for label, _ in rates] == ["exact, one process", "exact, 2 processes"]
    assert [rate for _, rate in rates] == [pytest.approx(len(cells) / 4.0)] * 2


def test_the_assault_grid_figure_times_every_assault_from_cold(monkeypatch):
    """size × size exact assaults, every one engaged (both sides fight), each timing from no worked pmf."""
    from oddscalc.epic import engagement
    from oddscalc.epic.assault import Assault

    forgotten, fought = [], []
    monkeypatch.setattr(engagement, "forget", lambda: forgotten.append(1))
    real = Assault.pmfs
    monkeypatch.setattr(Assault, "pmfs", lambda self, number: (fought.append(self.key()), real(self, number))[1])
    monkeypatch.setattr(run, "best_time", lambda go, repeat: (go(), 3.0)[1])
    assert run.assault_grid_seconds(3) == 3.0
    assert forgotten == [1] and len(fought) == len(set(fought)) == 9


def test_the_hero_fight_is_20_against_20_with_a_character_each_and_timed_three_ways(monkeypatch):
    from oddscalc.bench import run

    fight = run.hero_fight(20, duel=True)
    assert (fight.models, fight.enemy_models, fight.rounds, fight.challenge) == (20, 20, 10, True)
    assert fight.hero("") is not None and fight.hero("enemy_") is not None
    timed = []
    monkeypatch.setattr(run, "best_time", lambda go, repeat: (timed.append(go), 2.0)[1])
    assert run.hero_fight_seconds(2, 10) == (2.0, 2.0, 2.0) and len(timed) == 3
    timed[0]()  # the sampled one runs (two models a side: quick)


def test_the_combat_grid_figure_is_a_grid_of_charges(monkeypatch):
    """The bench's grid --combat figure times size × size charges of made-up 9th Age units, every one a combat."""
    from oddscalc.bench import run
    from oddscalc.bench.core import combat_roster
    from oddscalc.lists.games import parse_roster
    from oddscalc.studies.grid import matchups
    from oddscalc.t9a import Combat

    roster = parse_roster(combat_roster(4), "bench")
    attacks = [pair.attack for pair in matchups(roster.game, roster.units, roster.units, assault="combat")]
    assert len(attacks) == 16 and all(isinstance(attack, Combat) for attack in attacks)
    ran = []
    monkeypatch.setattr(run, "best_time", lambda work, repeat: ran.append(work()) or 1.5)
    assert run.combat_grid_seconds(4, 100, 2) == 1.5 and len(ran[0][0]) == 16
