"""An attack reads its own option text: from Python, the command line, sweep --vary and grid --set alike."""

from __future__ import annotations

import dataclasses

import pytest
from clirun import run

from oddscalc.core import attack as attacks
from oddscalc.core.attack import Attack, ordered_fields, side, text, unset_roll
from oddscalc.core.sided import Sided
from oddscalc.query.registry import COMMANDS, QUERIES
from oddscalc.query.words import every_query
from oddscalc.query.words import parse_query
from oddscalc.core.dice import DiceExpression
from oddscalc.dust import ArmourPiercingIncendiary, CoverSave, Incendiary, Phaser, Salvo, WeaponLine
from oddscalc.epic import Ability, Barrage, EpicShoot
from oddscalc.errors import InputError
from oddscalc.core.roll import Roll
from oddscalc.t9a import Melee, Reroll


def refusal(make) -> tuple:
    with pytest.raises(InputError) as error:
        make()
    return error.value.name, error.value.value, error.value.allowed


def every_query_attack() -> list[type]:
    every_query()  # registers every game's queries
    return [QUERIES[path].attack for path in QUERIES if path in COMMANDS]


def test_the_notations_of_the_arguments_read_in_python_as_on_the_command_line():
    assert Salvo("3/2-5/2-7/2") == Salvo(((3, 2), (5, 2), (7, 2))) == Salvo.parse("3/2 – 5/2 – 7/2")
    assert Phaser("2z3") == Phaser(2, 3) == Phaser.parse("2Z3") and Phaser("2z3").blast == 3
    assert Roll("3d6+1") == Roll(DiceExpression.parse("3d6+1"))
    assert Incendiary("1/+", 3) == Incendiary(1, 3) and ArmourPiercingIncendiary("2/skull") == ArmourPiercingIncendiary(2)
    assert refusal(lambda: Phaser("2x3")) == ("phaser", "2x3", "expected XzY with whole numbers X, Y ≥ 1, like 2z3")
    assert refusal(lambda: Phaser("2z3", 4)) == ("phaser", "2z3, 4", "expected XzY with whole numbers X, Y ≥ 1, "
                                                                    "like 2z3")
    assert refusal(lambda: Salvo("3/2-x")) == ("salvo", "3/2-x", "expected entries N/D joined by '-', one per "
                                                                 "charge, like 3/2-5/2-7/2")
    assert refusal(lambda: Roll("2x6"))[:2] == ("dice", "2x6")
    assert refusal(lambda: Incendiary("1/-"))[:2] == ("dice", "1/-")


def test_every_field_reads_the_text_of_its_option():
    shoot = EpicShoot(shots="12", to_hit="4+", units="6", armour="4+", crossfire="true", weapon="macro",
                      modifier="-1")
    assert shoot == EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True, weapon=Ability.MACRO,
                              modifier=-1)
    assert WeaponLine(dice="4", save="HIT").save is CoverSave.HIT
    assert Melee(attacks="d6+1", offensive="4", defensive="4", strength="4", resilience="3", armour="5+",
                 reroll_hits="failed").reroll_hits is Reroll.FAILED


@pytest.mark.parametrize("kind, name, given, read", [
    (EpicShoot, "to_hit", "4+", 4), (EpicShoot, "to-hit", " 5 ", 5), (EpicShoot, "--armour", "none", None),
    (EpicShoot, "crossfire", "yes", True), (EpicShoot, "crossfire", "Off", False), (EpicShoot, "shots", "-0", 0), (EpicShoot, "other_armour", "None", None),
    (EpicShoot, "weapon", "Macro", Ability.MACRO), (WeaponLine, "health", "7", 7),
    (Barrage, "tk_damage", "d3", DiceExpression.parse("d3")), (Melee, "armour", "5+", 2), (Melee, "attacks", "2d6", DiceExpression.parse("2d6")),
    (Salvo, "entries", "3/2-5/1", ((3, 2), (5, 1))), (Roll, "dice", "d3", DiceExpression.parse("d3")),
])
def test_read_gives_a_fields_value_from_its_text(kind, name, given, read):
    assert kind.read(name, given) == read


@pytest.mark.parametrize("kind, name, given, refused", [
    (EpicShoot, "to_hit", "four", ("to_hit", "four", "expected a roll like 4+ (or 4)")),
    (EpicShoot, "armour", "x", ("armour", "x", "expected a roll like 4+ (or 4), or none")),
    (EpicShoot, "crossfire", "maybe", ("crossfire", "maybe", "is a switch: true or false")),
    (EpicShoot, "shots", "1_0", ("shots", "1_0", "expected a whole number")),
    (WeaponLine, "health", "None", ("health", "None", "expected a whole number")),  # its help offers no "none"
    (EpicShoot, "cover_save", "none", ("cover_save", "none", "expected a roll like 4+ (or 4)")),
    (EpicShoot, "shots", "1" * 13, ("shots", "1" * 13, "expected a whole number")),
    (EpicShoot, "weapon", "laser", ("weapon", "laser", "expected one of normal, macro, titan-killer, lance")),
    (EpicShoot, "luck", "1", ("luck", "luck", "is not an option of epic shoot; it has ")),
    (EpicShoot, "crosfire", "1", ("crosfire", "crosfire", "is not an option of epic shoot (did you mean crossfire?)")),
])
def test_read_refuses_a_text_naming_the_field(kind, name, given, refused):
    name_, value, allowed = refusal(lambda: kind.read(name, given))
    assert (name_, value) == refused[:2] and allowed.startswith(refused[2])


def test_every_default_reads_back_from_the_text_it_is_written_as():
    """The text an attack writes for a field (its query, its key) is read back as the same value."""
    checked = 0
    for kind in every_query_attack():
        for field in ordered_fields(kind):
            if field.default is dataclasses.MISSING or field.metadata.get("many"):
                continue
            if field.default is None and not field.metadata.get("none"):  # never written: the option is left out,
                with pytest.raises(InputError):  # and "none" is not read where the help does not offer it
                    kind.read(field.name, "none")
                continue
            if unset_roll(field):  # 0: the option left out (Epic's NOT_GIVEN), never written; a typed 0+ refused
                with pytest.raises(InputError):
                    kind.read(field.name, text(field.default, field))
                continue
            written = text(field.default, field)
            assert kind.read(field.name, written) == field.default, (kind.__name__, field.name, written)
            checked += 1
    assert checked > 100


def test_an_attack_from_its_options_is_the_attack_its_query_builds():
    typed = {"--shots": "12", "to-hit": "4+", "units": 6, "armour": "4+", "crossfire": "true"}
    built = EpicShoot.from_options(typed)
    assert built == parse_query("epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ "
                                                "--crossfire").attack
    assert refusal(lambda: EpicShoot.from_options({"shots": 1, "--shots": 2}))[0] == "shots"
    assert refusal(lambda: EpicShoot.from_options({"--luck": 1}))[0] == "luck"
    for kind in every_query_attack():  # the query written by an attack builds it again
        assert issubclass(kind, Attack)


def test_the_command_line_reads_an_option_as_the_attack_does(capsys):
    for option, value in (("--to-hit", "four"), ("--shots", "1_0"), ("--armour", "x")):
        args = {"--shots": "6", "--to-hit": "4+", "--units": "3", "--armour": "4+", option: value}
        result = run(capsys, "epic", "shoot", *[word for pair in args.items() for word in pair])
        field = option.removeprefix("--").replace("-", "_")
        expected = refusal(lambda: EpicShoot.read(field, value))[2]
        assert result.code == 2 and result.err.strip() == f"error: {option} {value}: {expected}"


def test_an_attack_in_words_is_its_query_less_the_program():
    from oddscalc.core.attack import option
    from oddscalc.core.hits import HitAndSave

    @dataclasses.dataclass(frozen=True)
    class Plain(Attack):  # an attack that does not put itself in words of its own
        COMMAND = "plain roll"
        dice: int = option("Dice.", 1)
        outcomes = ("sum",)

    assert Plain(dice=3).query() == "oddscalc plain roll --dice 3"
    assert Plain(dice=3).describe() == "plain roll --dice 3"
    assert HitAndSave(10, 4, 5).key() == "HitAndSave dice=10 save=5 to_hit=4"  # no command: its class names it
    assert HitAndSave(10, 4, 5).query() == HitAndSave(10, 4, 5).describe() == "HitAndSave(dice=10, to_hit=4, save=5)"


def test_a_field_listed_first_is_written_only_off_its_default():
    """`units` has a default (none) but is listed with the required options when given."""
    given = EpicShoot(shots=3, to_hit="4+", armour="4+", units=6, crossfire=True)
    assert list(given.options()) == ["shots", "to_hit", "units", "armour", "crossfire"]
    titans = EpicShoot(shots=3, to_hit="4+", armour="4+", war_engines=1, damage_capacity=3)  # units: 0 others
    assert titans.options()["units"] == "0" and list(titans.options())[:4] == ["shots", "to_hit", "units", "armour"]
    assert list(Barrage(bp=3, units=2, armour="4+").options()) == ["bp", "armour", "units"]  # not first: last


def test_an_option_that_is_not_one_is_refused_with_the_options_there_are():
    from oddscalc.core.attack import field_named

    name, value, allowed = refusal(lambda: field_named(EpicShoot, "--to-hti"))
    assert (name, value) == ("to_hti", "--to-hti")
    assert allowed.startswith("is not an option of epic shoot (did you mean to-hit?); it has units, armour, ")
    assert allowed.endswith(", volley, firing-units, suppressed, reach, front, tk-allocation") and "to_hit" not in allowed
    assert refusal(lambda: field_named(EpicShoot, "--"))[:2] == ("option", "--")
    assert field_named(EpicShoot, " --to-hit ").name == field_named(EpicShoot, "to_hit").name == "to_hit"


def test_a_whole_number_is_read_with_its_sign_and_at_most_twelve_digits():
    from oddscalc.core.attack import read_whole

    assert (read_whole("+3", "x"), read_whole("-12", "x"), read_whole(" 7 ", "x")) == (3, -12, 7)
    assert read_whole("123456789012", "x") == 123456789012
    assert refusal(lambda: read_whole("1234567890123", "x")) == ("x", "1234567890123", "expected a whole number")
    assert refusal(lambda: read_whole("1_0", "x"))[2] == "expected a whole number"


def test_a_roll_without_none_says_so_and_a_switch_is_written_as_typed():
    assert refusal(lambda: EpicShoot(shots=3, to_hit="none", armour="4+", units=2)) == (
        "to_hit", "none", "expected a roll like 4+ (or 4)")
    assert EpicShoot(shots=3, to_hit="4+", armour="none", units=2).armour is None  # armour may be none
    assert (text(True), text(False)) == ("true", "false")
    assert refusal(lambda: EpicShoot.from_options({"--shots": "3", "--to-hit": "4+", "to_hit": "3+", "--armour": "4+",
                                                   "--units": "2"})) == (
        "to_hit", "3+", "is given twice (as to_hit and as another spelling)")


def test_a_repeated_option_reads_one_text_or_many_and_keeps_what_is_read():
    one = EpicShoot(shots=0, to_hit="4+", armour="4+", units=2, volley="6@4+")
    assert one.volley == EpicShoot(shots=0, to_hit="4+", armour="4+", units=2, volley=["6@4+"]).volley
    assert len(one.volley) == 1 and (one.volley[0].shots, one.volley[0].to_hit) == (6, 4)
    assert EpicShoot(shots=0, to_hit="4+", armour="4+", units=2, volley=one.volley).volley == one.volley


def _read_count(name):
    def read(text):
        if not text.isdigit():
            raise InputError(name, text, "expected a count")
        return int(text)
    return read


@dataclasses.dataclass(frozen=True, kw_only=True)
class Band:
    """A side of a made-up engagement."""

    size: int = attacks.side_option("{who}: its size, like --{side}size.", metavar="N", reader=_read_count)
    loud: bool = attacks.option("{who}: loud.", False)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Battle(Attack):
    """A made-up engagement of two sides."""

    rounds: int = attacks.option("Rounds.", 1)
    ours: Band = side("", "Ours")
    theirs: Band = side("enemy_", "Theirs")


def test_a_side_s_fields_are_the_query_s_options_with_its_prefix():
    """`attack.side`: a value declared once whose fields are options twice, prefixed, their help saying whose, a
    reader refusing in its own option's name (worked when first asked, here)."""
    from oddscalc.core.attack import ordered_fields, option_fields

    for kept in (attacks._OPTION_FIELDS, attacks._SIDES):  # worked here, not kept from elsewhere
        kept.pop(Battle, None)
    fields = {field.name: field for field in option_fields(Battle)}
    assert list(fields) == ["rounds", "size", "loud", "enemy_size", "enemy_loud"]
    assert fields["enemy_size"].metadata["help"] == "Theirs: its size, like --enemy-size."
    assert fields["size"].metadata["help"] == "Ours: its size, like --size." and fields["loud"].default is False
    assert fields["enemy_size"].default is dataclasses.MISSING and fields["enemy_loud"].metadata["hint"] is bool
    assert (fields["enemy_size"].metadata["owner"], fields["enemy_size"].metadata["inner"]) == ("theirs", "size")
    with pytest.raises(InputError) as refused:
        fields["enemy_size"].metadata["reader"]("x")
    assert refused.value.name == "enemy_size" and fields["size"].metadata["reader"]("3") == 3
    assert [field.name for field in ordered_fields(Battle)] == ["size", "enemy_size", "rounds", "loud", "enemy_loud"]
    assert option_fields(Battle) is option_fields(Battle)  # worked once


@dataclasses.dataclass(frozen=True, kw_only=True)
class Crowd(Band):
    """A side with options of its own beside a band's."""

    voice: int = attacks.side_option("{who}: its voice.", 0, first=True)
    cheer: bool = attacks.side_option("{who}: it cheers.", False)


@dataclasses.dataclass(frozen=True, kw_only=True, init=False)
class Rally(Sided, Attack):
    """A made-up attack on one side, which needs the side's `loud` given."""

    late: bool = attacks.option("Late.", False)
    crowd: Crowd = side("", "The crowd", required=("loud",))


def test_a_side_lists_its_own_options_before_its_base_s_and_an_attack_may_require_one_the_side_defaults():
    from oddscalc.core.attack import ordered_fields, option_fields

    fields = {field.name: field for field in option_fields(Rally)}
    assert fields["loud"].default is dataclasses.MISSING and Crowd(size=1).loud is False
    assert [field.name for field in ordered_fields(Rally)] == ["voice", "size", "loud", "late", "cheer"]
    with pytest.raises(TypeError, match="Rally needs the option loud"):
        Rally(size=3)
    rally = Rally(size=3, loud=True, cheer=True)
    assert (rally.crowd, rally.loud, rally.late) == (Crowd(size=3, loud=True, cheer=True), True, False)
    assert dataclasses.replace(rally, voice=2).crowd == Crowd(size=3, loud=True, cheer=True, voice=2)
