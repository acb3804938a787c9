"""The commands that take a roster (`oddscalc.cli.rosters`): `grid` ranks every weapon against every
target, `profiles` lists the units, and a bad roster, option or file gets one line."""

import csv
import io
import shlex

import pytest
from clirun import assert_refused, run
from epic_rosters import MARINES

from oddscalc.query import asking
from oddscalc.output import sentence
from oddscalc.core.given import Given, LocalFiles
from oddscalc.contract import names


ROSTER = MARINES + '''ap = "5+"
at = "6+"

[[unit]]
name = "Tanks"
points = 250
kind = "armoured-vehicle"
units = 4
armour = "4+"

[[unit.weapon]]
name = "Cannons"
shots = 4
at = "4+"

[[unit]]
name = "Artillery"
points = 200
kind = "armoured-vehicle"
units = 3
armour = "5+"

[[unit.weapon]]
name = "Barrage"
bp = 3
'''


def written(path, text: str):
    path.write_text(text)
    return path


@pytest.fixture
def roster(tmp_path):
    return written(tmp_path / "army.toml", ROSTER)


def test_grid_ranks_every_weapon_against_every_target(capsys, roster):
    data = run(capsys, "grid", roster, "--exact", "--format", "json").json()
    rows = data["rows"]
    assert len(rows) + len(data["cannot_hurt"]) == 9  # 3 weapons x 3 targets
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(a["per_100_points"] >= b["per_100_points"] for a, b in zip(rows, rows[1:]))
    # AT only: the cannons cannot shoot infantry, so that pair is listed apart, not ranked
    assert {"attacker": "Tanks", "weapon": "Cannons", "target": "Marines"} in data["cannot_hurt"]
    missiles_on_tanks = next(r for r in rows if r["weapon"] == "Missiles" and r["target"] == "Tanks")
    # 6 shots at AT 6+, armour 4+: each shot kills with 1/6 · 1/2, at most one kill per unit hit first
    assert missiles_on_tanks["per_100_points"] == pytest.approx(missiles_on_tanks["mean"] / 3)


def test_grid_selection_sort_and_settings(capsys, roster):
    data = run(capsys, "grid", roster, "--attackers", "Marines", "--targets", "Tanks,Artillery", "--sort", "p_kill",
               "--exact", "--format", "json").json()
    assert {(r["attacker"], r["target"]) for r in data["rows"]} == {("Marines", "Tanks"), ("Marines", "Artillery")}
    plain = {r["target"]: r["mean"] for r in data["rows"]}
    crossfire = run(capsys, "grid", roster, "--attackers", "Marines", "--targets", "Tanks,Artillery", "--set",
                    "crossfire=true", "--exact", "--format", "json").json()
    assert all(r["mean"] > plain[r["target"]] for r in crossfire["rows"])


def test_grid_all_outcomes_csv_and_heatmap(capsys, roster, tmp_path):
    plot = tmp_path / "grid.png"
    out = run(capsys, "grid", roster, "--all-outcomes", "--trials", "5000", "--seed", "3", "--format", "csv",
              "--plot", plot).out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"kills", "hits", "blast_markers", "broken"} <= {r["outcome"] for r in rows}
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_grid_markdown_for_forums(capsys, roster):
    out = run(capsys, "grid", roster, "--exact", "--format", "markdown").out
    said, rest = out.split("\n\n", 1)  # the page's one sentence first, then the command and the table
    page = asking.ask(["grid", str(roster), "--exact"], Given(files=LocalFiles())).answer.content
    assert said == sentence.of_study(page) and said.endswith(".") and "cells; first by" in said
    assert rest.startswith("`oddscalc grid ") and "| rank | attacker | weapon | target |" in out
    header = out.splitlines().index(next(line for line in out.splitlines() if line.startswith("| rank |")))
    assert out.splitlines()[header + 1].startswith("|---:|:---|:---|:---|---:|")  # names left, figures right


def test_grid_on_a_dask_cluster_equals_in_process(capsys, roster, cluster):
    local = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--format", "json").json()
    remote = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--format", "json", "--scheduler",
                 cluster.scheduler_address).json()
    assert local["rows"] == remote["rows"]


def test_grid_in_series_equals_in_parallel(capsys, roster):
    one = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--threads", "1", "--format", "json").json()
    two = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--threads", "2", "--format", "json").json()
    assert one["rows"] == two["rows"]


def test_profiles_lists_units(capsys, roster):
    data = run(capsys, "profiles", "--file", roster, "--format", "json").json()
    assert [unit["name"] for unit in data["units"]] == ["Marines", "Tanks", "Artillery"]
    assert data["units"][2]["weapons"][0]["bp"] == 3 and data["units"][0]["armour"] == 4  # the fields, not words
    text = run(capsys, "profiles", "--file", roster).out
    assert "BP 3" in text and "Marines" in text


@pytest.mark.parametrize(
    "change, mentions",
    [
        (('units = 6', 'units = = 6'), ("FILE", "TOML syntax error")),
        (('armour = "5+"', 'armour = "9+"'), ("FILE", "unit 'Artillery'", "armour")),
        (('bp = 3', 'bp = 3\nspecial = ["lucky"]'), ("FILE", "lucky")),
        (('kind = "infantry"\n', ''), ("FILE", "kind", "missing")),
    ],
)
def test_bad_roster_files(capsys, tmp_path, change, mentions):
    path = tmp_path / "bad.toml"
    path.write_text(ROSTER.replace(*change))
    plot = tmp_path / "never.png"
    assert_refused(capsys, "grid", path, "--exact", "--plot", plot, mentions=mentions)
    assert not plot.exists()
    assert_refused(capsys, "profiles", "--file", path, mentions=("--file",) + mentions[1:])


BAD_GRID = [
    (["grid", "--game", "chess"], ("--game", "chess")),
    (["grid", "/no/such.toml"], ("FILE", "no such file")),
    (["grid", "--game", "epic", "--targets", "Marinez"], ("--targets", "Marinez")),
    (["grid", "--game", "epic", "--sort", "luck", "--exact"], ("--sort", "luck")),
    (["grid", "--game", "epic", "--set", "luck=3", "--exact"], ("--set", "luck")),
    (["grid", "--game", "epic", "--set", "crossfire", "--exact"], ("--set",)),
]


@pytest.mark.parametrize("args, mentions", BAD_GRID, ids=[" ".join(a) for a, _ in BAD_GRID])
def test_bad_grid_input(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


def test_an_empty_roster(capsys, tmp_path):
    path = tmp_path / "empty.toml"
    path.write_text('game = "epic"\n')
    assert_refused(capsys, "grid", path, mentions=("FILE", "empty"))


@pytest.mark.parametrize("game", names())  # every registered game
def test_every_game_has_a_bundled_grid(capsys, game):
    data = run(capsys, "grid", "--game", game, "--trials", "2000", "--seed", "1", "--format", "json").json()
    ranked = [row for row in data["rows"] if row["mean"] is not None]
    assert ranked and all(0 <= row["p_kill"] <= 1 for row in ranked)
    assert all(a["per_100_points"] >= b["per_100_points"] for a, b in zip(ranked, ranked[1:]))


def test_exact_grids_stay_in_process(capsys, roster):
    result = run(capsys, "grid", roster, "--exact", "--scheduler", "tcp://127.0.0.1:1", "--format", "json")
    data = result.json()
    assert data["method"] == "exact" and data["rows"][0]["mean"] is not None
    # the address is not used, and the player is told so rather than left to think the cluster ran it
    assert result.err.splitlines() == ["note: --scheduler: exact cells are computed here, in process (a cluster "
                                       "only samples)"]
    sampled = run(capsys, "compare", "roll 2d6", "roll d6", "--exact", "--scheduler", "tcp://127.0.0.1:1")
    assert sampled.code == 0 and "note: --scheduler: exact cells are computed here" in sampled.err


def test_grid_verify_gives_every_cell_its_gap_and_bound(capsys):
    data = run(capsys, "grid", "--game", "epic", "--verify", "--trials", "2e4", "--seed", "3", "--format",
               "json").json()
    assert data["rows"] and all(row["cdf_gap"] <= row["dkw_bound"] and row["verified"] for row in data["rows"]
                                if row.get("mean") is not None)


def test_a_verification_that_fails_names_the_cells_and_keeps_the_table(capsys, monkeypatch):
    from oddscalc.epic import Barrage

    def wrong(self, number):  # a planted bug: the barrage's exact twin says it never kills
        right = Barrage.__dict__["_right"](self, number)
        kills = right["kills"] * 0
        kills[0] = number(1)
        return {**right, "kills": kills}

    monkeypatch.setattr(Barrage, "_right", Barrage.pmfs, raising=False)
    monkeypatch.setattr(Barrage, "pmfs", wrong)
    result = run(capsys, "grid", "--game", "epic", "--verify", "--trials", "2e4", "--seed", "3")
    assert result.code == 1
    assert "cdf_gap" in result.out and "dkw_bound" in result.out and "Whirlwind barrage" in result.out
    (line,) = result.err.strip().splitlines()
    assert line.startswith("verify: ") and "outside the DKW bound" in line and "Whirlwind barrage" in line


def test_identical_attacks_in_a_grid_are_said_to_share_a_stream(capsys, tmp_path):
    roster = tmp_path / "twins.toml"
    roster.write_text('game = "epic"\n\n[[unit]]\nname = "A"\nkind = "infantry"\nunits = 2\narmour = "4+"\n\n'
                      '[[unit.weapon]]\nname = "Gun"\nshots = 3\nap = "4+"\n\n'
                      '[[unit]]\nname = "B"\nkind = "infantry"\nunits = 2\narmour = "4+"\n\n'
                      '[[unit.weapon]]\nname = "Gun"\nshots = 3\nap = "4+"\n')
    sampled = run(capsys, "grid", roster, "--trials", "1e4", "--seed", "1").out
    # the two units are alike as attackers and as targets: all four cells are one attack
    assert ("the same attack, so one random stream and the very same figures: A: Gun → A = A: Gun → B = "
            "B: Gun → A = B: Gun → B") in sampled
    assert "same random stream" not in run(capsys, "grid", roster, "--exact").out  # exact figures have no stream


def test_a_missing_file_reads_the_same_from_import_and_from_grid(capsys):
    """One refusal, one line, whichever command reads the file."""
    imported = run(capsys, "import", "/no/such.rosz")
    gridded = run(capsys, "grid", "/no/such.rosz")
    assert imported.code == gridded.code == 2 and imported.err == gridded.err == "error: FILE /no/such.rosz: no such file\n"


T9A_CLUB = """game = "t9a"

[[unit]]
name = "Ogres"
points = 100
models = 3
health = 3
offensive = 4
defensive = 4
strength = 4
resilience = 4

[[unit.weapon]]
name = "Club"
attacks = 3
multiple_wounds = "MW"

[[unit]]
name = "Men"
models = 10
offensive = 3
defensive = 3
strength = 3
resilience = {resilience}
"""


@pytest.mark.parametrize("multiple, resilience, mentions", [
    ("4d6", 3, ("error: FILE", "unit 'Ogres', weapon 'Club', field 'multiple_wounds': 4d6: expected Multiple Wounds")),
])
def test_a_value_the_attack_refuses_is_named_in_the_roster_not_as_an_option(capsys, tmp_path, multiple, resilience,
                                                                            mentions):
    """A roster's value is refused by file, unit, weapon and field (it read '--multiple-wounds 4d6', an option
    the player never typed)."""
    path = tmp_path / "ogres.toml"
    path.write_text(T9A_CLUB.replace("MW", multiple).format(resilience=resilience))
    result = assert_refused(capsys, "grid", path, "--exact", mentions=(str(path), *mentions))
    assert "--multiple-wounds" not in result.err and "--resilience" not in result.err


ASSAULTS = '''
game = "epic"

[[unit]]
name = "Marines"
kind = "infantry"
cc = "4+"
ff = "3+"
units = 6
points = 300
armour = "4+"

[[unit]]
name = "Boyz"
points = 200
kind = "infantry"
units = 8
armour = "6+"
cover_save = "5+"
cc = "4+"
ff = "6+"
fearless = true

[[unit]]
name = "Titan"
points = 700
kind = "war-engine"
units = 1
armour = "4+"
damage_capacity = 6
cc = "3+"
ff = "3+"

[[unit]]
name = "Mounted"
points = 350
kind = "infantry"
units = 4
armour = "4+"
vehicles = 2
vehicle_armour = "5+"
cc = "4+"
ff = "4+"
'''


@pytest.fixture
def assaults(tmp_path):
    return written(tmp_path / "assaults.toml", ASSAULTS)


def test_grid_assault_ranks_each_formation_s_assault_by_its_chance_to_win(capsys, assaults):
    """Each cell is the formation's assault on the target (its query the same assault, exactly); ranked by
    P(win); a war engine fights as one (3.3); a mixed formation without its assault kinds is listed apart."""
    from oddscalc.epic.assault import Assault

    data = run(capsys, "grid", assaults, "--assault", "--exact", "--format", "json").json()
    rows = data["rows"]
    fought = ("Marines", "Boyz", "Titan")
    assert {(row["attacker"], row["target"]) for row in rows} == {(a, t) for a in fought for t in fought}
    assert all(row["weapon"] == "assault" and row["outcome"] == "win" for row in rows)
    assert [row["probability"] for row in rows] == sorted((row["probability"] for row in rows), reverse=True)
    marines_on_boyz = next(r for r in rows if r["attacker"] == "Marines" and r["target"] == "Boyz")
    attack = Assault(units=6, cc=4, ff=3, armour=4, enemy_units=8, enemy_cc=4, enemy_ff=6, enemy_armour=6,
                     enemy_cover_save=5, enemy_fearless=True)
    exact = attack.exact()
    assert marines_on_boyz["probability"] == pytest.approx(exact["win"][1], abs=1e-15)
    assert marines_on_boyz["p_kill"] == pytest.approx(exact["kills"][8], abs=1e-15)  # all 8 destroyed
    assert marines_on_boyz["query"] == attack.query() + " --exact"
    marines_on_titan = next(r for r in rows if r["attacker"] == "Marines" and r["target"] == "Titan")
    attack = Assault(units=6, cc=4, ff=3, armour=4, enemy_units=1, enemy_damage_capacity=6, enemy_cc=3, enemy_ff=3,
                     enemy_armour=4)
    exact = attack.exact()
    assert marines_on_titan["probability"] == pytest.approx(exact["win"][1], abs=1e-15)
    assert marines_on_titan["p_kill"] == pytest.approx(exact["destroyed"][1], abs=1e-15)  # all 6 points of damage
    assert marines_on_titan["query"] == attack.query() + " --exact"
    mixed = "Mounted: a mixed formation without its assault kinds (assault = [...])"  # each cell says which and why
    assert {"attacker": "Mounted", "weapon": "assault", "target": "Boyz", "why": mixed} in data["cannot_hurt"]
    assert {"attacker": "Titan", "weapon": "assault", "target": "Mounted", "why": mixed} in data["cannot_hurt"]
    text = run(capsys, "grid", assaults, "--assault", "--exact").out
    assert "ranked by probability" in text and f"cannot assault (not ranked): Marines: assault → Mounted ({mixed})" \
        in text


def test_grid_assault_fights_a_mixed_formation_kind_by_kind(capsys, tmp_path):
    """With its `assault` kinds a mixed formation is fought: its infantry and its vehicles each with their own
    values, the cell the same query as the command line's."""
    from oddscalc.epic.assault import Assault
    from oddscalc.epic.kinds import Kind

    path = written(tmp_path / "mixed.toml", ASSAULTS + 'assault = ["4 cc 4+ ff 4+ armour 4+", '
                                                       '"2 cc 6+ ff 5+ armour 5+ in-contact 0"]\n')
    data = run(capsys, "grid", path, "--assault", "--exact", "--attackers", "Mounted", "--targets", "Boyz",
               "--format", "json").json()
    [row] = data["rows"]
    attack = Assault(units=4, cc=4, ff=4, armour=4, other=(Kind.parse("2 cc 6+ ff 5+ armour 5+ in-contact 0"),),
                     enemy_units=8, enemy_cc=4, enemy_ff=6, enemy_armour=6, enemy_cover_save=5, enemy_fearless=True)
    assert row["probability"] == pytest.approx(attack.exact()["win"][1], abs=1e-15)
    assert row["query"] == attack.query() + " --exact" and "--other '2 cc 6+ ff 5+ armour 5+ in-contact 0'" in row["query"]


@pytest.mark.parametrize("extra, mentions", [
    (("--together",), ("--together", "--assault")),
    (("--attackers", "Mounted", "--targets", "Mounted"), ("no unit here can assault",)),
])
def test_grid_assault_refusals(capsys, assaults, extra, mentions):
    assert_refused(capsys, "grid", assaults, "--assault", "--exact", *extra, mentions=mentions)


def test_grid_assault_names_the_roster_field_an_assault_refuses(capsys, tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(ASSAULTS.replace("units = 8", "units = 70"))
    assert_refused(capsys, "grid", path, "--assault", "--exact",
                   mentions=("unit 'Boyz', field 'units': 70: expected 1 to 60 units",))


def test_grid_assault_is_for_epic_rosters(capsys):
    assert_refused(capsys, "grid", "--game", "dust", "--assault", "--exact", mentions=("--assault",))


def test_grid_combat_ranks_each_unit_s_charge_by_its_chance_to_win(capsys):
    """The 9th Age: grid --combat charges each unit of the bundled example into each target (docs/rules.md
    §3.11); each cell the very combat its query asks, p_kill the target's every Health Point lost in the fight;
    a unit without its Attack Value, Agility or Discipline is listed apart."""
    from oddscalc.query.asking import ask
    from oddscalc.t9a.combat import Combat

    data = run(capsys, "grid", "--game", "t9a", "--combat", "--exact", "--format", "json").json()
    rows = data["rows"]
    assert rows and all(row["weapon"] == "combat" and row["outcome"] == "win" for row in rows)
    assert [row["probability"] for row in rows] == sorted((row["probability"] for row in rows), reverse=True)
    knights = next(row for row in rows if (row["attacker"], row["target"]) == ("Knights", "Greybeards"))
    attack = Combat(models=6, width=3, attacks=1, offensive=4, defensive=4, strength=6, resilience=3, agility=3,
                    discipline=8, armour=5, ap=3, swiftstride=True, enemy_models=20, enemy_width=5, enemy_attacks=1,
                    enemy_offensive=5, enemy_defensive=5, enemy_strength=6, enemy_resilience=4, enemy_agility=2,
                    enemy_discipline=9, enemy_armour=2, enemy_ap=3)
    exact = attack.exact()
    assert knights["probability"] == pytest.approx(exact["win"][1], abs=1e-15)
    assert knights["p_kill"] == pytest.approx(sum(exact["enemy_health_lost"][20:]), abs=1e-15)
    # p_break: the charged unit broke (the charger won, the loser broke), not the loser whoever it is
    assert knights["p_break"] == pytest.approx(exact["enemy_break"][1], abs=1e-15)
    assert exact["enemy_break"][1] < exact["break"][1]
    assert knights["query"] == attack.query() + " --exact"
    from oddscalc.output.style import clean  # a JSON's exact figure: 15 significant digits, its float noise off

    assert clean(ask(shlex.split(knights["query"])[1:]).answer.content.result["win"].mean) == knights["probability"]
    greybeards = next(row for row in rows if (row["attacker"], row["target"]) == ("Greybeards", "Knights"))
    from oddscalc.query.words import parse_query

    wiped = sum(parse_query(greybeards["query"].removesuffix(" --exact")).attack.exact()["enemy_health_lost"][6:])  # 6 knights, 1 HP each
    assert greybeards["p_kill"] == pytest.approx(wiped, abs=1e-15) and wiped > 0.05
    missing = "no attack_value, agility and discipline (the list gives none a round of combat can read)"
    assert {"attacker": "Wood Archers", "weapon": "combat", "target": "Knights", "why": f"Wood Archers: {missing}"} \
        in data["cannot_hurt"]
    assert {"attacker": "Knights", "weapon": "combat", "target": "Giant", "why": f"Giant: {missing}"} \
        in data["cannot_hurt"]


@pytest.mark.parametrize("words, line", [
    (("--game", "t9a", "--assault"), "error: --assault on: The 9th Age rosters have no assault here: theirs is grid "
                                     "--combat"),
    (("--game", "epic", "--combat"), "error: --combat on: Epic Armageddon rosters have no combat here: theirs is grid "
                                     "--assault"),
    (("--game", "dust", "--combat"), "error: --combat on: Dust Tactics rosters have no combat here: grid --assault is "
                                     "for Epic Armageddon rosters, --combat for The 9th Age's"),
    (("--game", "t9a", "--combat", "--assault"), "error: --combat on: --assault fights Epic formations, --combat The "
                                                 "9th Age's units: give one of them"),
])
def test_grid_engagements_are_refused_where_the_game_has_none(capsys, words, line):
    result = run(capsys, "grid", *words, "--exact")
    assert (result.code, result.out, result.err.strip()) == (2, "", line)
