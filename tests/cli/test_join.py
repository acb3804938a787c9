"""`import LIST --join CHARACTER=UNIT`: an imported 9th Age list's character joined to one of its units, as a
real list gives it (tests/data/battlescribe/bsdata/sonnstahl.rosz: a Marshal on a horse, Knightly Orders)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import assert_refused, run
from oddscalc.lists import games
from oddscalc.t9a.profiles import read_character, read_part
from oddscalc.t9a.roster import combat

LISTS = Path(__file__).resolve().parent.parent / "data" / "battlescribe" / "bsdata"
SONNSTAHL, ORKS = LISTS / "sonnstahl.rosz", LISTS / "ork_war_horde.rosz"


def test_a_joined_character_is_written_and_read_back_into_the_unit_s_combat(capsys, tmp_path):
    plain = run(capsys, "import", SONNSTAHL, "--write", tmp_path / "plain.toml")
    joined = run(capsys, "import", SONNSTAHL, "--join", "Marshal=Knightly Orders", "--write", tmp_path / "j.toml")
    assert plain.code == joined.code == 0, joined.err
    assert "note: Marshal joins Knightly Orders (its points 453 together); not carried: its charge bonus (a Lance)" \
        in joined.err.splitlines()
    before = games.load_roster(str(tmp_path / "plain.toml"))
    after = games.load_roster(str(tmp_path / "j.toml"))
    assert [unit.name for unit in after.units] == [unit.name for unit in before.units if unit.name != "Marshal"]
    knights, marshal = after.unit("Knightly Orders"), before.unit("Marshal")
    assert knights.points == before.unit("Knightly Orders").points + marshal.points == 453
    hero = read_character(knights["character"], "character").fighter
    assert (hero.attacks, hero.offensive, hero.strength, hero.ap, hero.health, hero.discipline, hero.armour) == (
        marshal["attack_value"], marshal["offensive"], marshal["strength"], 1, marshal["health"],
        marshal["discipline"], marshal["armour"])
    assert read_part(knights["character_mount"], "mount") == read_part(marshal["mount"], "mount")
    target = before.unit("Imperial Guard")
    fight = combat(knights, target)
    assert fight is not None and fight.hero("") is not None and fight.hero("").fighter.mount is not None
    assert fight.character_mount == read_part(knights["character_mount"], "mount")


@pytest.mark.parametrize("join, says", [
    ("Marshal", "expected CHARACTER=UNIT"),
    ("Nobody=Knightly Orders", "no unit named 'Nobody'"),
    ("Knightly Orders=Imperial Guard", "has 6 models: a character is one"),
    ("Marshal=Marshal", "joins another unit"),
])
def test_a_join_that_cannot_be_made_is_refused_in_one_line(capsys, tmp_path, join, says):
    assert_refused(capsys, "import", SONNSTAHL, "--join", join, "--write", tmp_path / "x.toml",
                   mentions=("--join", says))
    assert not (tmp_path / "x.toml").exists()


def test_only_a_9th_age_list_joins(capsys):
    assert_refused(capsys, "import", ORKS, "--join", "Warlord=Boyz", mentions=("--join", "9th Age"))


def test_a_grid_row_of_a_joined_character_is_asked_again_by_its_query(capsys, tmp_path):
    """grid --combat on the joined list: the Knightly Orders' row (their Marshal in front) is the combat its query
    asks, character, mount and all."""
    import shlex

    from oddscalc.query.asking import ask
    from oddscalc.output.style import clean

    assert run(capsys, "import", SONNSTAHL, "--join", "Marshal=Knightly Orders", "--write", tmp_path / "j.toml").code == 0
    data = run(capsys, "grid", tmp_path / "j.toml", "--against", SONNSTAHL, "--combat", "--exact", "--format",
               "json").json()
    row = next(row for row in data["rows"] if row["attacker"] == "Knightly Orders" and row["target"] == "Imperial Guard")
    assert "--character " in row["query"] and "--character-mount " in row["query"]
    again = ask(shlex.split(row["query"])[1:]).answer.content.result["win"]
    assert clean(again.mean) == row["probability"] and again.exact
