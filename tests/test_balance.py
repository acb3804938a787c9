"""The balance study (`oddscalc balance`, issue 37): every entry of a folder of catalogues against the reference
targets, each row's figures the exact answers of its queries, the index and outliers as defined, a stopped study
resumed from its store with the same bytes, and a clear line for what it cannot do."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
from pathlib import Path

import pytest
from clirun import assert_refused, run

from oddscalc.query import asking
from oddscalc.studies import balance
from oddscalc.lists import games
from oddscalc.errors import Refusal
from oddscalc.core.options import RunOptions

MINI = Path(__file__).parent / "data" / "battlescribe" / "mini"  # a game system and catalogue in BSData's shape


def study_json(capsys, *words: str) -> dict:
    result = run(capsys, "balance", *words, "--format", "json")
    assert result.code == 0, result.err
    return result.json()


def exact_of(query: str):
    return asking.ask(shlex.split(query)[1:] + ["--exact"]).answer.content.result


def test_each_row_is_the_exact_answer_of_its_queries(capsys):
    data = study_json(capsys, str(MINI), "--exact")
    assert [row["entry"] for row in data["rows"]] == ["Veterans", "Tactical"] and data["apart"] == []
    targets = balance.reference(games.game("epic")).units
    assert data["targets"] == [target.name for target in targets]
    for row in data["rows"]:
        queries = dict(line.split(": ", 1) for line in row["queries"].splitlines())
        value = 0.0
        for target in targets:
            result = exact_of(queries[target.name])  # one formation, one attack: its figures are the row's
            kills, whole = result["kills"], target["units"] if target["kind"] != "war-engine" else 1
            assert row[f"{target.name}.mean"] == pytest.approx(kills.mean, abs=1e-12)
            assert row[f"{target.name}.P(kill or break)"] == pytest.approx(result["broken"].at_least(1), abs=1e-12)
            assert row[f"{target.name}.per_100_points"] == pytest.approx(100 * kills.mean / row["points"], abs=1e-12)
            value += 100 * kills.mean / whole / row["points"]
        assert row["value"] == pytest.approx(value, abs=1e-12)
    # by hand: 4 and 6 shots at 5+ on 4+ armour (1/3 × 1/2 each, of 6 units), at 6+ on reinforced 4+ armour
    # (1/6 × 1/4, of 10 vehicles), nothing on a Warlord behind its shields
    veterans, tactical = data["rows"]
    assert veterans["Tactical Detachment.mean"] == pytest.approx(4 / 6) and tactical["Tactical Detachment.mean"] == 1
    assert veterans["Leman Russ Company.mean"] == pytest.approx(4 / 24)
    assert veterans["value"] == pytest.approx(100 / 175 * (4 / 6 / 6 + 4 / 24 / 10))
    assert tactical["value"] == pytest.approx(100 / 325 * (6 / 6 / 6 + 6 / 24 / 10))
    assert veterans["index"] == pytest.approx(veterans["value"] / ((veterans["value"] + tactical["value"]) / 2))


def test_a_stopped_study_resumes_from_its_store_with_the_same_bytes(capsys, tmp_path, monkeypatch):
    whole = run(capsys, "balance", str(MINI), "--exact", "--format", "json").out
    store = tmp_path / "study.jsonl"
    monkeypatch.setattr(balance, "BATCH", 2)  # cells run two at a time, each pair kept as it finishes
    monkeypatch.setattr(balance, "in_processes", lambda work, items, workers: map(work, items))  # this process's
    real, calls = balance.run_cells, []

    def stopping(attacks, **settings):
        calls.append(len(attacks))
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the second batch
        return real(attacks, **settings)

    monkeypatch.setattr(balance, "run_cells", stopping)
    stopped = run(capsys, "balance", str(MINI), "--exact", "--store", store, "--format", "json")
    assert stopped.code == 130 and stopped.out == ""
    kept = [json.loads(line)["key"] for line in store.read_text().splitlines()]
    assert sum(key.startswith("cell ") for key in kept) == 2 and sum(key.startswith("catalogue ") for key in kept) == 1
    calls.clear()
    monkeypatch.setattr(balance, "run_cells", real)
    resumed = run(capsys, "balance", str(MINI), "--exact", "--store", store, "--format", "json")
    assert resumed.code == 0 and resumed.out == whole  # the same bytes as the study never stopped
    assert len(store.read_text().splitlines()) == len(set(json.loads(line)["key"] for line in store.read_text()
                                                           .splitlines())) == 1 + 6  # each cell computed once


def test_a_sampled_study_draws_each_cell_from_the_study_s_seed_however_it_is_run(tmp_path, monkeypatch):
    game = games.game("epic")
    entries, apart = balance.catalogue_entries(MINI, game, balance.Store())
    targets = balance.reference(game)
    options = RunOptions(trials=20_000, seed=11)
    once = balance.study(entries, targets, apart, options=options)
    monkeypatch.setattr(balance, "BATCH", 1)
    store = balance.Store(tmp_path / "kept.jsonl")
    again = balance.study(entries, targets, apart, options=options, store=store)
    assert once.rows == again.rows and once.seed == again.seed == 11 and once.trials == 20_000
    assert balance.study(entries, targets, apart, options=options, store=balance.Store(tmp_path / "kept.jsonl")).rows \
        == once.rows  # every cell from the store
    exact = balance.study(entries, targets, apart, options=RunOptions(method="exact"))
    checked = 0
    for sampled, computed in zip(once.rows, exact.rows):
        assert sampled["entry"] == computed["entry"] and "Tactical Detachment.mean_stderr" not in computed
        for target in targets.units:
            exact_kills = exact_of(computed["queries"][target.name][0])["kills"]  # one attack a row: its standard error is the cell's
            error, p_error = (sampled[f"{target.name}.mean_stderr"], sampled[f"{target.name}.P(kill or break)_stderr"])
            assert error == pytest.approx(exact_kills.sd / math.sqrt(20_000), rel=0.05)  # the error a player reads
            assert abs(sampled[f"{target.name}.mean"] - computed[f"{target.name}.mean"]) <= 5 * error
            p, seen = computed[f"{target.name}.P(kill or break)"], sampled[f"{target.name}.P(kill or break)"]
            if seen > 0:
                assert p_error == pytest.approx(math.sqrt(p * (1 - p) / 20_000), rel=0.2)
                assert abs(seen - p) <= 5 * p_error
                checked += 1
            else:  # never seen: no standard error (the table shows its exact interval); P(none in 20,000) ≥ e^-10
                assert p_error == 0 and p < 10 / 20_000
    assert checked >= 2  # Veterans and Tactical against the Tactical Detachment


def test_the_reference_targets_are_the_documented_ones():
    text = (Path(__file__).parent.parent / "docs" / "balance.md").read_text(encoding="utf-8")
    for name, kinds in (("epic", {"infantry", "armoured-vehicle", "war-engine"}), ("t9a", None)):
        targets = balance.reference(games.game(name)).units
        assert len(targets) == 3 and all(f"**{target.name}**" in text for target in targets)
        if kinds:
            assert {target["kind"] for target in targets} == kinds


def test_the_plot_shows_the_rows_indexes_and_every_value_against_its_points(capsys, tmp_path):
    """The first panel: the top and bottom entries, each bar its row's index, labelled with its rank, name and
    army and its index as the table writes it; the outlier lines at 1/far, 1 and far; its title whole. The second:
    every ranked row's value against its points, one colour per kind as in the first panel."""
    from oddscalc.output import plots
    from oddscalc.query.balancing import _figure
    from oddscalc.output.style import number

    found = balance.study(*balance.catalogue_entries(MINI, games.game("epic"), balance.Store())[:1],
                          balance.reference(games.game("epic")), options=RunOptions(method="exact"))
    left = _figure(plots, found, 1)
    right = left.figure.axes[1]
    assert [label.get_text() for label in left.get_yticklabels()] == ["1. Veterans (mini)", "2. Tactical (mini)"]
    bars = sorted(left.patches, key=lambda bar: -bar.get_y())[:2]  # from the top
    assert [bar.get_width() for bar in bars] == [row["index"] for row in found.rows]
    assert [text.get_text() for text in left.texts] == [f" {number(row['index'])}" for row in found.rows]
    assert sorted(line.get_xdata()[0] for line in left.lines) == [0.5, 1, 2.0]
    assert left.get_title(loc="left") == ("Epic Armageddon: the top and bottom 1 entries, each by its index within its "
                                          "kind")
    points = [tuple(xy) for collection in right.collections for xy in collection.get_offsets()]
    assert sorted(points) == sorted((row["points"], row["value"]) for row in found.rows)
    path = tmp_path / "outliers.png"
    assert run(capsys, "balance", str(MINI), "--exact", "--plot", path).code == 0 and path.stat().st_size > 0


@pytest.mark.parametrize("words, mentions", [
    (("/nonexistent/folder", "--game", "epic"), ("FOLDER /nonexistent/folder", "no such folder", "catalogues")),
    ((str(MINI), "--far", "1"), ("--far", "1")),
    ((str(MINI), "--top", "0"), ("--top", "0")),
    ((str(MINI), "--game", "t9a"), (f"FOLDER {MINI}", "The 9th Age")),
    ((str(MINI), "--targets", "t9a"), ("--targets", "t9a", "not epic")),
    ((str(MINI), "--outcome", "kills"), ("--outcome kills", "main outcome")),
    ((str(MINI), "--at-least", "3"), ("--at-least", "no such option of balance")),  # its help offers none
    ((str(MINI), "--store", str(MINI)), ("--store", "cannot keep a study there")),
    ((str(MINI), "--store", str(MINI / "mini.gst")), ("--store", "line 1 is not a balance study's")),
    (("/nonexistent/folder",), ("FOLDER /nonexistent/folder", "no such folder")),
    (("--game", "t9a"), ("FOLDER", "is needed", "The 9th Age BattleScribe catalogues")),
    ((), ("FOLDER", "is needed", "catalogues")),
])
def test_what_a_study_cannot_do_is_one_line(capsys, words, mentions):
    assert_refused(capsys, "balance", *words, "--exact", mentions=mentions)


@pytest.mark.parametrize("words, mentions", [
    (("--verify",), ("--verify", "verify a row's query")),
    (("--precision", "0.1"), ("--precision 0.1", "--trials")),
])
def test_what_a_study_would_take_and_not_use_is_refused(capsys, words, mentions):
    assert_refused(capsys, "balance", str(MINI), "--trials", "1000", *words, mentions=mentions)


def test_the_page_never_opens_a_folder_a_request_names(tmp_path, monkeypatch):
    folder = tmp_path / "catalogues"
    shutil.copytree(MINI, folder)
    looked = []
    monkeypatch.setattr(balance, "catalogue_entries", lambda *args, **kwargs: looked.append(args))
    with pytest.raises(Refusal, match="opens no file here"):
        asking.ask(["balance", str(folder), "--exact"])  # as the page asks: no LocalFiles given
    assert looked == []


def test_a_study_on_a_cluster_prints_the_same_bytes(capsys, cluster):
    words = (str(MINI), "--trials", "20000", "--seed", "5", "--format", "json")
    here = run(capsys, "balance", *words)
    there = run(capsys, "balance", *words, "--scheduler", cluster.scheduler_address)
    assert here.code == there.code == 0
    assert there.out == here.out  # the same bytes (where it ran is not part of the answer's command)


@pytest.mark.parametrize("name, engagement", [("epic", "epic assault"), ("t9a", "t9a combat")])
def test_engagements_are_columns_their_queries_give(name, engagement):
    game = games.game(name)
    entries = [balance.Entry("example", unit.name, (unit,)) for unit in games.load_roster(name).units]
    found = balance.study(entries, balance.reference(game), options=RunOptions(method="exact"), engage=True)
    checked = 0
    for row in found.rows:
        for target in found.targets:
            win = row[f"{target.name}.P(win)"]
            if win is None:  # the entry or the target cannot fight it (no close combat values)
                continue
            fight = row["queries"][target.name][-1]
            assert fight.startswith(f"oddscalc {engagement} ")
            assert win == pytest.approx(exact_of(fight)["win"].at_least(1), abs=1e-12)
            checked += 1
    assert checked >= 6


def test_a_cell_too_costly_to_answer_exactly_is_left_out_and_counted(monkeypatch):
    from oddscalc.epic.assault import Assault
    from oddscalc.errors import InputError

    def costly(attack, number):  # as an engagement of many units answers: one line, no figures
        raise InputError("exact", "Epic assault", "the exact answer would take about 9 s; sample instead")

    monkeypatch.setattr(Assault, "pmfs", costly)
    entries = [balance.Entry("example", unit.name, (unit,)) for unit in games.load_roster("epic").units]
    found = balance.study(entries, balance.reference(games.game("epic")), options=RunOptions(method="exact"),
                          engage=True)
    assert all(row[f"{target.name}.P(win)"] is None for row in found.rows for target in found.targets)
    assert all(" assault " not in row["queries"][target.name][-1] for row in found.rows for target in found.targets
               if row["queries"][target.name])
    game = games.game("epic")
    fights = {balance.cell_key(fight, "exact", None) for entry in entries for target in balance.reference(game).units
              if (fight := balance.engagement_of(game, entry.units[0], target)) is not None}
    assert found.refused == len(fights) > 0  # every engagement, each counted once
    assert any(f"{found.refused} cells too costly" in line for line in found.json()["notes"])
    plain = balance.study(entries, balance.reference(games.game("epic")), options=RunOptions(method="exact"))
    assert [row["value"] for row in found.rows] == [row["value"] for row in plain.rows]  # the rest as without


def test_an_army_is_named_by_its_catalogue():
    assert balance.army_of("Orks - Ghazghkull's Waaagh - EA.cat") == "Orks - Ghazghkull's Waaagh"
    assert balance.army_of("2nd-dreadElves.cat") == "dreadElves"
    assert balance.army_of("Eldar - EA Legacy.cat") == "Eldar - EA Legacy"  # only a suffix is the game's mark


def test_the_9th_age_books_are_the_2nd_ones_or_in_an_older_release_the_plain_ones(tmp_path):
    """BSData's The 9th Age repository names its 2nd-edition books `2nd-*.cat` since the 3rd edition took the plain
    names (and a homebrew book of the 2nd edition's system keeps a plain name beside them); a release before that
    named them plainly: `balance The-9th-Age --compare The-9th-Age@2023` must find the old release's books."""
    from oddscalc.lists.battlescribe.sweep import catalogues

    second, third = "aa64-1e8e-66fc-9abf", "8c9a-3026-84b4-cf16"

    def folder(name: str, books: dict[str, str]) -> Path:
        (tmp_path / name).mkdir()
        for book, system in books.items():
            (tmp_path / name / book).write_text(f'<catalogue id="{book}" gameSystemId="{system}"/>')
        return tmp_path / name

    now = folder("now", {"2nd-dreadElves.cat": second, "homebrew.cat": second, "dreadElves.cat": third})
    assert [path.name for path in catalogues(now, "t9a")] == ["2nd-dreadElves.cat"]
    then = folder("then", {"dreadElves2.cat": second, "beastHerds.cat": second, "other.cat": third})
    assert [path.name for path in catalogues(then, "t9a")] == ["beastHerds.cat", "dreadElves2.cat"]
    assert catalogues(folder("third", {"dreadElves.cat": third}), "t9a") == []


def test_an_entry_s_kind_is_its_first_unit_s_kind_or_height():
    epic, t9a = games.load_roster("epic"), games.load_roster("t9a")
    assert balance.Entry("a", "b", epic.units[2:4]).kind(epic.game) == "armoured-vehicle"
    giant = next(unit for unit in t9a.units if unit.name == "Giant")
    assert balance.Entry("a", "b", (giant,)).kind(t9a.game) == str(giant["height"])
    dust = games.load_roster("dust")
    assert balance.Entry("a", "b", dust.units[:1]).kind(dust.game) == dust.units[0]["kind"]
    assert balance.Entry("a", "b", epic.units[:2]).points == epic.units[0].points + epic.units[1].points


def test_entries_apart_say_why(monkeypatch):
    from types import SimpleNamespace

    from oddscalc.lists.battlescribe import sweep
    from oddscalc.errors import InputError

    real_build = sweep.build_entry
    names = ["Tactical", "Veterans", "Ghost", "Empty", "Silent", "Free", "Broken"]
    monkeypatch.setattr(sweep, "root_entries", lambda data: names)

    def build(data, name, choices):
        if name == "Ghost":
            return None, "", "hidden by every root option"
        return real_build(data, "Tactical" if name not in ("Veterans",) else name, choices)

    real_xml = sweep.read_xml
    note = SimpleNamespace(line=lambda long: "Empty: the list gives no unit profile (left out)")
    fake = {"Empty": SimpleNamespace(data={"game": "epic", "unit": []}, notes=[note]),
            "Silent": SimpleNamespace(data={"game": "epic", "unit": []}, notes=[])}

    def read(xml, name):
        if name == "Veterans":
            raise InputError("file", name, "no unit of Epic Armageddon that oddscalc can model")
        if name == "Broken":
            raise ZeroDivisionError("boom")
        if name in fake:
            return fake[name]
        imported = real_xml(xml, name)
        if name == "Free":
            imported.data["unit"] = [{**unit, "points": 0} for unit in imported.data["unit"]]
        return imported

    monkeypatch.setattr(sweep, "build_entry", build)
    monkeypatch.setattr(sweep, "read_xml", read)
    calls = []
    entries, apart = balance.catalogue_entries(MINI, games.game("epic"), balance.Store(),
                                               lambda done, total: calls.append((done, total)))
    assert [(entry.army, entry.name, entry.notes) for entry in entries] == [("mini", "Tactical", 0)]
    assert apart == [balance.Apart("mini", "Veterans", "no unit of Epic Armageddon that oddscalc can model"),
                     balance.Apart("mini", "Ghost", "not built: hidden by every root option"),
                     balance.Apart("mini", "Empty", "Empty: the list gives no unit profile (left out)"),
                     balance.Apart("mini", "Silent", "no unit profile oddscalc models"),
                     balance.Apart("mini", "Free", "no points"),
                     balance.Apart("mini", "Broken", "the import failed: ZeroDivisionError: boom")]  # never a crash
    assert calls == [(1, 1)]  # one catalogue done of one


def test_the_notes_name_the_outliers_and_count_the_rest():
    def row(entry, index, outlier, value=1.0):
        return {"entry": entry, "army": "A", "index": index, "outlier": outlier, "value": value}

    rows = (row("s1", 9.0, "high"), row("s2", 8.0, "high"), row("s3", 7.0, "high"), row("m", 1.0, ""),
            row("w1", 0.3, "low"), row("w2", 0.2, "low"))
    apart = (balance.Apart("A", "X", "X: structures only (left out)"), balance.Apart("A", "Y", "Y: structures only "
             "(left out)"), balance.Apart("B", "v", "not built: hidden"),
             balance.Apart("B", "c1", "the same entry as A: s1 (its points and figures): ranked there"),
             balance.Apart("C", "c2", "the same entry as A: m (its points and figures): ranked there"))
    found = balance.Balance(games.game("epic"), (), rows, apart, "exact", None, None, 2.0, refused=3)
    assert found.notes(top=2) == [
        "outliers, strong for their points (index over 2× or under 1/2 of their kind's median): s1 (A, 9.00), "
        "s2 (A, 8.00) and 1 more",
        "outliers, weak for their points (index over 2× or under 1/2 of their kind's median): w2 (A, 0.20), w1 (A, 0.30)",
        "3 cells too costly to answer exactly (an engagement of many units, most often) are left out of their rows: "
        "sample them (leave out --exact)",
        "5 entries not ranked (the JSON lists each with its reason), most: 2 × structures only (left out); "
        "2 × the same entry as another entry (its points and figures): ranked there; 1 × not built: hidden"]
    assert [row["entry"] for row in found.outliers()] == ["s1", "s2", "s3", "w1", "w2"]
    assert found.json()["apart"][2] == {"army": "B", "entry": "v", "reason": "not built: hidden"}
    assert found.json()["refused"] == 3 and found.json()["notes"] == found.notes()


def test_a_study_checks_its_own_values_and_counts_what_it_left_out(monkeypatch):
    game = games.game("epic")
    entries, apart = balance.catalogue_entries(MINI, game, balance.Store())
    targets = balance.reference(game)
    for kwargs, name in (({"far": 1.0}, "far"), ({}, "folder")):
        with pytest.raises(Exception) as error:
            balance.study(entries if name == "far" else [], targets, options=RunOptions(method="exact"), **kwargs)
        assert error.value.name == name
    calls, store = [], balance.Store()
    monkeypatch.setattr(balance, "BATCH", 2)
    found = balance.study(entries, targets, options=RunOptions(method="exact"), store=store,
                          progress=lambda done, total: calls.append((done, total)))
    assert calls == [(2, 6), (4, 6), (6, 6)] and found.trials is None and found.seed is None
    assert not any("assault" in key for key in store.values)  # no engagement computed unless asked
    assert not any(key.endswith(".P(win)") for key in found.rows[0])


def test_a_formation_of_several_units_adds_its_shares_up_to_the_whole_target():
    epic = games.load_roster("epic")
    company = next(unit for unit in epic.units if unit.name == "Leman Russ Company")
    target = games.parse_roster('game = "epic"\n[[unit]]\nname = "Lone Guardsman"\npoints = 10\nkind = "infantry"\n'
                                'units = 1\narmour = "6+"\n', "lone.toml")
    found = balance.study([balance.Entry("A", "Two companies", (company, company))], target,
                          options=RunOptions(method="exact"))
    row = found.rows[0]
    single = exact_of(row["queries"]["Lone Guardsman"][0])["kills"].mean
    assert single > 0.5 and row["Lone Guardsman.mean"] == pytest.approx(2 * single)  # the means add up,
    assert row["value"] == pytest.approx(100 * 1.0 / (2 * company.points))  # the share stops at the whole target
    ork = next(unit for unit in epic.units if unit.name == "Ork Warband")
    titan = balance.reference(games.game("epic"))
    harmless = balance.study([balance.Entry("A", "Orks", (ork,))], titan, options=RunOptions(method="exact")).rows[0]
    empty = [target.name for target in titan.units if not harmless["queries"][target.name]]
    assert empty and all(harmless[f"{name}.P(kill or break)"] == 0.0 and harmless[f"{name}.mean"] == 0
                         for name in empty)


def test_a_game_without_catalogues_is_refused(capsys):
    assert_refused(capsys, "balance", str(MINI), "--game", "dust", "--exact", mentions=("--game", "dust", "epic"))


def test_a_formation_fires_its_weapons_together_where_the_game_combines_them():
    epic = games.load_roster("epic")
    company = next(unit for unit in epic.units if unit.name == "Leman Russ Company")  # battle cannons, lascannons
    found = balance.study([balance.Entry("A", "Company", (company,))], balance.reference(games.game("epic")),
                          options=RunOptions(method="exact"))
    queries = found.rows[0]["queries"]["Leman Russ Company"]
    assert len(queries) == 1 and "--volley" in queries[0]  # one attack of both weapons, not the better one


def test_a_sampled_study_s_store_keeps_each_seed_s_cells_apart(tmp_path):
    game = games.game("epic")
    entries, apart = balance.catalogue_entries(MINI, game, balance.Store())
    targets, path = balance.reference(game), tmp_path / "kept.jsonl"
    first = balance.study(entries, targets, apart, options=RunOptions(trials=5000, seed=1), store=balance.Store(path))
    other = balance.study(entries, targets, apart, options=RunOptions(trials=5000, seed=2), store=balance.Store(path))
    fresh = balance.study(entries, targets, apart, options=RunOptions(trials=5000, seed=2))
    assert other.rows == fresh.rows and other.rows != first.rows  # seed 2 drew its own cells, not seed 1's


def test_the_refusals_of_a_study_say_what_is_allowed():
    from oddscalc.errors import InputError

    game = games.game("epic")
    entries = balance.catalogue_entries(MINI, game, balance.Store())[0]
    for call, line in ((lambda: balance.study(entries, balance.reference(game), options=RunOptions(), far=1.0),
                        "--far 1.0: expected a factor above 1, like 2"),
                       (lambda: balance.study([], balance.reference(game), options=RunOptions()),
                        "--folder the catalogues: hold no entry oddscalc can model"),
                       (lambda: balance.reference(games.game("dust")),
                        "--targets dust: has no reference targets: give a roster with --targets"),
                       (lambda: balance.catalogue_entries(MINI, games.game("dust"), balance.Store()),
                        "--game dust: has no BattleScribe catalogues"),
                       (lambda: balance.catalogue_entries(MINI / "none", game, balance.Store()),
                        f"--folder {MINI / 'none'}: expected a folder of Epic Armageddon catalogues (.cat), like a "
                        "checkout of its BSData repository")):
        with pytest.raises(InputError) as error:
            call()
        assert f"--{error.value.name} {error.value.value}: {error.value.allowed}" == line


def test_the_plot_of_a_long_study_keeps_to_the_rows_it_can_show():
    from oddscalc.output import plots
    from oddscalc.query.balancing import _figure

    rows = tuple({"rank": i, "entry": f"e{i}", "army": "A", "kind": "infantry", "index": 3 / i, "points": 100,
                  "value": 3 / i} for i in range(1, 301))
    found = balance.Balance(games.game("epic"), (), rows, (), "exact", None, None, 2.0)
    ax = _figure(plots, found, 150)  # 300 rows asked for: the first and last 100
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert len(labels) == plots.MAX_HEATMAP and labels[0] == "1. e1 (A)" and labels[-1] == "300. e300 (A)"
    assert "top and bottom 100 entries" in ax.get_title(loc="left")


def test_a_folder_with_a_file_that_is_not_a_catalogue_is_one_line(capsys, tmp_path):
    shutil.copytree(MINI, tmp_path / "catalogues")
    (tmp_path / "catalogues" / "broken.cat").write_text("<catalogue unclosed", encoding="utf-8")
    assert_refused(capsys, "balance", tmp_path / "catalogues", "--game", "epic", "--exact",
                   mentions=("FOLDER", "broken.cat", "not a BattleScribe catalogue"))


def test_a_refused_study_leaves_no_store_and_a_store_cut_short_is_read(capsys, tmp_path):
    store = tmp_path / "study.jsonl"
    assert_refused(capsys, "balance", tmp_path / "nothing", "--game", "epic", "--exact", "--store", store)
    assert not store.exists()
    whole = run(capsys, "balance", str(MINI), "--exact", "--store", store, "--format", "json").out
    lines = store.read_text().splitlines()
    store.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])  # its last line cut short, as by a power cut
    again = run(capsys, "balance", str(MINI), "--exact", "--store", store, "--format", "json")
    assert again.code == 0 and again.out == whole


def test_a_study_is_per_point():
    epic = games.load_roster("epic")
    free = dataclasses.replace(epic.units[0], points=0)
    with pytest.raises(Exception) as error:
        balance.study([balance.Entry("A", "Gift", (free,))], balance.reference(epic.game),
                      options=RunOptions(method="exact"))
    assert (error.value.name, error.value.value) == ("points", "Gift")


@pytest.mark.skipif(not os.environ.get("ODDSCALC_BSDATA"), reason="set ODDSCALC_BSDATA to a folder holding checkouts "
                    "of BSData/wh40k-epic-armageddon and BSData/The-9th-Age (their catalogues carry no licence to copy)")
@pytest.mark.parametrize("folder, main", [("wh40k-epic-armageddon", "kills"), ("The-9th-Age", "health_lost")])
def test_every_public_catalogue_is_studied_and_its_rows_are_their_queries(capsys, folder, main):
    """The real catalogues, as BSData's editors save them: every entry studied or apart with a reason, none
    crashed, and a sample of rows reproduced by their queries."""
    import random

    data = study_json(capsys, str(Path(os.environ["ODDSCALC_BSDATA"]) / folder), "--exact")
    assert len(data["rows"]) > 100 and not any(entry["reason"].startswith("the import failed")
                                               for entry in data["apart"])
    checked = 0
    fought = 0
    for row in random.Random(3).sample(data["rows"], 25):
        means: dict[str, float] = {}
        for line in row["queries"].splitlines():  # one query per unit of the entry and target: their means add up
            target, query = line.split(": ", 1)
            if query.startswith(("oddscalc epic assault ", "oddscalc t9a combat ")):  # its engagement (the default)
                assert row[f"{target}.P(win)"] == pytest.approx(exact_of(query)["win"].at_least(1), abs=1e-12)
                fought += 1
                continue
            means[target] = means.get(target, 0.0) + exact_of(query)[main].mean
        for target, mean in means.items():
            assert mean == pytest.approx(row[f"{target}.mean"], abs=1e-12)
            checked += 1
    assert checked >= 25 and fought >= 10


def test_a_catalogue_without_its_game_system_is_one_line(capsys, tmp_path):
    """A folder holding a .cat and no .gst: said in one line (it was an internal BuildError)."""
    shutil.copy(next(MINI.glob("*.cat")), tmp_path)
    result = run(capsys, "balance", str(tmp_path), "--exact")
    assert result.code == 2 and result.err.count("\n") == 1
    assert result.err.startswith(f"error: FOLDER {tmp_path}: holds ") and "but not its game system (.gst)" in result.err


def test_the_help_of_balance_offers_only_what_it_takes(capsys):
    help_text = run(capsys, "balance", "--help").out
    assert "--at-least" not in help_text and "--engage" in help_text and "--trials" in help_text


def test_an_engagement_that_cannot_be_fought_says_why_and_each_row_says_what_drives_it():
    """--engage: a Tactical Detachment fights each Epic reference target (its P(win) the assault's exact answer);
    an aircraft formation fights none, and says so once; the driver names the target it takes most of and its
    attack in a few words."""
    epic = games.load_roster("epic")
    tactical = next(unit for unit in epic.units if unit.name == "Tactical Detachment")
    flyers = games.parse_roster('game = "epic"\n[[unit]]\nname = "Thunderbolts"\npoints = 150\nkind = "aircraft"\n'
                                'units = 2\narmour = "6+"\ncc = "6+"\nff = "5+"\n[[unit.weapon]]\nname = "Cannons"\n'
                                'shots = 4\nap = "4+"\nat = "6+"\n', "air.toml").units[0]
    targets = balance.reference(games.game("epic"))
    found = balance.study([balance.Entry("A", "Tactical", (tactical,)), balance.Entry("A", "Air", (flyers,))],
                          targets, options=RunOptions(method="exact"), engage=True)
    rows = {row["entry"]: row for row in found.rows}
    fought = rows["Tactical"]
    for target in targets.units:
        query = next(q for q in fought["queries"][target.name] if "assault" in q)
        assert fought[f"{target.name}.P(win)"] == pytest.approx(exact_of(query)["win"].at_least(1), abs=1e-12)
    assert fought["engage_why"] == "" and fought["engage_value"] == pytest.approx(
        100 * sum(fought[f"{t.name}.P(win)"] for t in targets.units) / 3 / tactical.points)
    assert rows["Air"]["engage_why"] == "this entry cannot fight (an aircraft: no ground assault)"
    assert rows["Air"]["engage_value"] is None and rows["Air"]["index"] == rows["Air"]["shoot_index"]
    assert fought["driver"].startswith("Tactical Detachment: ") and "shots at" in fought["driver"]


@pytest.mark.skipif(not os.environ.get("ODDSCALC_BSDATA"), reason="set ODDSCALC_BSDATA to a folder holding checkouts "
                    "of BSData/wh40k-epic-armageddon (its catalogues carry no licence to copy)")
def test_the_real_epic_study_ranks_each_entry_once_within_its_kind(capsys):
    """The issue's complaints, on every public Epic catalogue: the Eldar spacecraft sold by a dozen craftworlds is one
    row (also_in names the others), spacecraft are judged among spacecraft, nothing of value 0 is ranked."""
    data = study_json(capsys, str(Path(os.environ["ODDSCALC_BSDATA"]) / "wh40k-epic-armageddon"), "--exact")
    rows = data["rows"]
    spacecraft = [row for row in rows if row["entry"] == "Spacecraft" and row["army"].startswith("Eldar")]
    assert len({(row["points"], row["queries"]) for row in spacecraft}) == len(spacecraft)  # each once
    assert any(row["also_in"].count("Eldar") >= 5 for row in spacecraft)
    assert all(row["value"] > 0 or (row["engage_value"] or 0) > 0 for row in rows)  # each hurts or wins something
    kinds = {row["kind"] for row in rows}
    for kind in kinds:  # each kind's middle is 1 for what it shoots and for what it wins (of those that do)
        mine = [row for row in rows if row["kind"] == kind]
        for name in ("shoot_index", "engage_index"):
            indexes = [row[name] for row in mine if row[name]]
            assert not indexes or statistics.median(indexes) == pytest.approx(1.0, abs=1e-9)
        middle = statistics.median(row["index"] for row in mine)  # the index's own middle, which the outliers use
        assert all(row["kind_median"] == pytest.approx(middle, abs=1e-12) for row in mine)
    assert any(entry["reason"].startswith("the same entry as ") for entry in data["apart"])


def test_a_release_is_compared_with_an_old_one_a_folder_or_a_git_revision(capsys, tmp_path):
    """The mini catalogue with its Veterans re-priced 175 → 200: each row says its old points and index and how
    far each moved; the same from a git checkout's older revision (FOLDER@REVISION)."""
    new = tmp_path / "new"
    shutil.copytree(MINI, new)
    cat = new / "mini.cat"
    cat.write_text(cat.read_text(encoding="utf-8").replace('value="175.0"', 'value="200.0"'), encoding="utf-8")
    data = study_json(capsys, str(new), "--exact", "--compare", str(MINI))
    veterans = next(row for row in data["rows"] if row["entry"] == "Veterans")
    assert (veterans["points"], veterans["old_points"], veterans["points_moved"]) == (200, 175, 25)
    assert veterans["index_moved"] == pytest.approx(veterans["index"] - veterans["old_index"])
    assert data["compared"]["points_moved"] == [{"army": "mini", "entry": "Veterans", "old_points": 175,
                                                 "points": 200}]
    assert "against the old release, 1 moved in points: Veterans (mini, 175 → 200)" in data["notes"]
    repo = tmp_path / "repo"
    shutil.copytree(MINI, repo)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "old"], check=True)
    shutil.copy(cat, repo / "mini.cat")
    subprocess.run(git + ["commit", "-qam", "new"], check=True)
    again = study_json(capsys, str(repo), "--exact", "--compare", f"{repo}@HEAD~1")
    assert again["compared"] == data["compared"]
    assert_refused(capsys, "balance", str(repo), "--exact", "--compare", f"{repo}@nosuch",
                   mentions=("--compare", "no such revision"))
    written = tmp_path / "written.tar"
    assert_refused(capsys, "balance", str(repo), "--exact", "--compare", f"{repo}@--output={written}",
                   mentions=("--compare", "does not start with '-'"))
    assert not written.exists()  # never handed to git as an option


def test_the_table_shows_each_rows_suggested_points_and_band_as_a_player_reads_them(capsys):
    """The text table's "suggested points" cell is the row's figures, `POINTS (LOW–HIGH)`, under its header."""
    rows = {row["entry"]: row for row in study_json(capsys, str(MINI), "--exact")["rows"]}
    text = run(capsys, "balance", str(MINI), "--exact")
    assert text.code == 0, text.err
    lines = text.out.splitlines()
    header = next(line for line in lines if line.startswith("rank"))
    start = header.index("suggested points")
    for entry, row in rows.items():
        line = next(line for line in lines[lines.index(header) + 2:] if f" {entry} " in line)
        cell = re.split(r"\s{2,}", line[start:])[0]  # text: it starts where its header starts
        band = f"{row['suggested_points']} ({row['suggested_points_low']}–{row['suggested_points_high']})"
        assert cell == band and row["suggested_points_low"] < row["suggested_points"] < row["suggested_points_high"]


def test_engagements_are_in_a_study_by_default_and_no_engage_leaves_them_out(capsys):
    """Shooting and engagement both in each row unless --no-engage: the default is --engage's bytes (less the
    command it records), and --no-engage has no P(win) column and an index of shooting alone."""
    default = run(capsys, "balance", str(MINI), "--exact", "--format", "csv")
    engaged = run(capsys, "balance", str(MINI), "--exact", "--engage", "--format", "csv")
    alone = run(capsys, "balance", str(MINI), "--exact", "--no-engage", "--format", "csv")
    assert default.code == engaged.code == alone.code == 0 and default.out == engaged.out
    header, shooting = default.out.splitlines()[0].split(","), alone.out.splitlines()[0].split(",")
    assert "Tactical Detachment.P(win)" in header and "engage_why" in header
    assert not [name for name in shooting if "P(win)" in name or name.startswith("engage")]
