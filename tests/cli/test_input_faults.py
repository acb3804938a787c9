"""The input faults of issue 47, each refused in one line naming its option and its value (or read as its
canonical spelling is), on every query where it can occur."""

from __future__ import annotations

import re
import shlex

import pytest
from clirun import assert_refused, run

from oddscalc.query.asking import ask
from oddscalc.query.registry import ABOUT
from oddscalc.query.words import every_query
from oddscalc.errors import Refusal

ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")  # Arabic-Indic digits: Nd, as `\d` and int() read them


def digit_values() -> list[tuple[str, list[str], int]]:
    """(query, an example's words, the index of one of its values that holds a digit) over every query."""
    every_query()
    found = []
    for path, about in sorted(ABOUT.items()):
        for example in about.examples:
            words = shlex.split(example)[1:]
            try:
                ask(words)
            except Refusal:  # an example that reads a player's file (a map, a roster): not a query alone
                continue
            found += [(path, words, index) for index, word in enumerate(words)
                      if re.search("[0-9]", word) and not word.startswith("-")]
    return found


VALUES = digit_values()


@pytest.mark.parametrize("path, words, index", VALUES, ids=[f"{p}: {w[i]}" for p, w, i in VALUES])
def test_a_value_in_other_digits_is_refused_naming_it(path, words, index):
    """`--cc '４+'`, `--aegis '٣+'`, `DICE '٢d٦'`: only ASCII digits are numbers (Python's `\\d` and `int` read
    any script's digits); the refusal names the value as typed."""
    changed = words[index].translate(ARABIC)
    with pytest.raises(Refusal) as refused:
        ask([*words[:index], changed, *words[index + 1:]])
    assert refused.value.line.startswith("error: ") and changed in refused.value.line, refused.value.line


def test_the_examples_reach_every_kind_of_value():
    """The walk above meets numbers, rolls, dice and profiles of every game (not a handful of options)."""
    values = {words[index] for _, words, index in VALUES}
    games = {path.split()[0] for path, _, _ in VALUES}
    assert games >= {"dust", "epic", "t9a", "roll"}
    assert any(re.fullmatch(r"[0-9]+\+", value) for value in values)  # a roll
    assert any(re.fullmatch(r"[0-9]*d[0-9]+.*", value) for value in values)  # dice
    assert any(" " in value for value in values)  # a profile


@pytest.mark.parametrize("args, option", [
    (["roll", "2d6", "--trials", "٣"], "--trials"),
    (["roll", "2d6", "--precision", "٠.١"], "--precision"),
    (["roll", "2d6", "--seed", "٤٢"], "--seed"),
    (["balance", "--top", "١٠"], "--top"),
    (["serve", "--port", "٨٠٠٠"], "--port"),
])
def test_common_numbers_in_other_digits_are_refused(capsys, args, option):
    assert assert_refused(capsys, *args).err.startswith(f"error: {option} {args[-1]}:")


def test_choices_read_in_any_case(capsys):
    """`--format JSON` is `--format json` (a choice is a word, not a spelling)."""
    upper = run(capsys, "roll", "2d6", "--exact", "--format", "JSON")
    lower = run(capsys, "roll", "2d6", "--exact", "--format", "json")
    assert upper.code == 0 and upper.out == lower.out and upper.out.startswith("{")


@pytest.mark.parametrize("path, option, value, line", [
    ("epic assault", "--other", "2 cc 4+ cc 5+ ff 5+ armour 5+",
     "error: --other 2 cc 4+ cc 5+ ff 5+ armour 5+: cc is given twice: each key once"),
    ("epic shoot", "--engine", "1 DC2 armour 5+ armour 4+",
     "error: --engine 1 DC2 armour 5+ armour 4+: armour is given twice: each key once"),
])
def test_a_key_given_twice_in_a_profile_is_refused(path, option, value, line):
    """'cc 4+ cc 5+' took the last silently: a profile says each key once."""
    every_query()
    words = shlex.split(ABOUT[path].examples[0])[1:]
    with pytest.raises(Refusal) as refused:
        ask([*words, option, value])
    assert refused.value.line == line


def test_a_mount_key_given_twice_is_refused(capsys):
    every_query()
    words = shlex.split(next(example for example in ABOUT["t9a combat"].examples if "--mount" in example))[1:]
    at = words.index("--mount") + 1
    first = words[at].split()[0]
    words[at] = f"{words[at]} {first}"
    with pytest.raises(Refusal) as refused:
        ask(words)
    assert refused.value.line.startswith("error: --mount ") and "given twice" in refused.value.line


@pytest.mark.parametrize("args, option", [
    (["dust", "attack", "--dice", "0"], "--dice"),
    (["dust", "reactive", "--dice", "0"], "--dice"),
    (["dust", "reactive", "--dice", "3", "--enemy-dice", "0", "--health", "3"], "--enemy-dice"),
])
def test_no_dice_is_refused(capsys, args, option):
    """`--dice 0` answered with no dice: a weapon line rolls at least one."""
    err = assert_refused(capsys, *args).err
    assert err.startswith(f"error: {option} 0: expected 1 to ")


@pytest.mark.parametrize("option", ["--other-armour", "--cc"])
def test_a_typed_0_plus_is_refused_where_leaving_it_out_is_a_value(capsys, option):
    """Epic's `--other-armour 0+` read as "not given": a roll is 2+ to 6+ (or left out)."""
    every_query()
    path = "epic barrage" if option == "--other-armour" else "epic assault"
    words = shlex.split(ABOUT[path].examples[0])[1:]
    present = option in words
    if present:
        words[words.index(option) + 1] = "0+"
    else:
        words += [option, "0+"]
    with pytest.raises(Refusal) as refused:
        ask(words)
    assert refused.value.line.startswith(f"error: {option} 0+:"), refused.value.line


def test_leaving_other_armour_out_still_answers_as_before(capsys):
    """The refusal above costs nothing to a query that leaves the option out: its exact answer is the
    library's with the field's default."""
    from oddscalc.epic.attacks import Barrage

    every_query()
    words = shlex.split(ABOUT["epic barrage"].examples[0])[1:]
    assert "--other-armour" not in words
    asked = ask([*words, "--exact"])
    default = Barrage.__dataclass_fields__["other_armour"].default
    assert getattr(asked.attack, "other_armour") == default


@pytest.mark.parametrize("args, line", [
    (["balance", "tests/data/battlescribe/mini", "--store", ""], "error: --store '': expected a file to keep the study in, like study.jsonl"),
    (["grid", "--targets", "", "--game", "epic"], "error: --targets '':"),
    (["grid", "--attackers", " , ", "--game", "epic"], "error: --attackers ' , ':"),
])
def test_an_empty_value_is_refused_and_shown_as_empty(capsys, args, line):
    assert assert_refused(capsys, *args).err.startswith(line)


@pytest.mark.parametrize("args, said", [
    (["t9a", "melee", "--toughness", "4"], "(Toughness is --resilience here)"),
    (["t9a", "melee", "--leadership", "8"], "(Leadership is --discipline"),
    (["t9a", "combat", "--lance"], "(a Lance is --charge-strength or --charge-ap here)"),
    (["t9a", "melee", "--weapon-skill", "4"], "(Weapon Skill is --offensive or --defensive here)"),
    (["epic", "assault", "--tsknf"], "(They Shall Know No Fear is --know-no-fear here)"),
])
def test_another_games_word_is_named_in_this_game(capsys, args, said):
    err = assert_refused(capsys, *args).err
    assert f"error: {args[2]}: no such option of {' '.join(args[:2])} {said}" in err, err


def test_an_enemy_option_is_matched_on_what_follows_enemy():
    """`--enemy-units` in t9a combat suggested `--enemy-mount` (alike letters, not alike meaning)."""
    from oddscalc.query.refusals import no_such_option

    own = ("--enemy-mount", "--enemy-models", "--models", "--mount", "--enemy-health")
    assert "--enemy-mount" not in no_such_option("--enemy-units", "t9a combat", own)
    assert "(did you mean --enemy-models?)" in no_such_option("--enemy-model", "t9a combat", own)
    assert "(did you mean --enemy-mount?)" in no_such_option("--enemy-mont", "t9a combat", own)


@pytest.mark.parametrize("word, shown", [("", "''"), (" x", "' x'"), ("extra", "extra")])
def test_a_word_no_option_takes_is_shown_as_typed(capsys, word, shown):
    """Click showed an empty extra word as "()": the line quotes it."""
    err = assert_refused(capsys, "roll", "2d6", word).err
    assert err.startswith(f"error: {shown}: no option takes it"), err
