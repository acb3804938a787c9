"""Property tests over every query's options (issue 47): any value typed for any option is either read or
refused in one line that names that option; a value written with digits of another script is always refused."""

from __future__ import annotations

import re
import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddscalc.query.asking import ask
from oddscalc.query.common import COMMON_OPTIONS
from oddscalc.web.forms import command_of
from oddscalc.query.registry import ABOUT, QUERIES
from oddscalc.query.words import every_query
from oddscalc.errors import Refusal
from oddscalc.query.refusals import OptionError
from oddscalc.query.words import parse_query

OTHER_DIGITS = [str.maketrans("0123456789", digits) for digits in ("٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "०१२३४५६७८९")]


def pairs() -> list[tuple[str, list[str], str, str]]:
    """(query, its first example's words, an option of it, the value the example gives it or a typical one): sampled,
    so that an exact answer's cost is never what refuses it."""
    every_query()
    found = []
    for path in sorted(QUERIES):
        words = [word for word in shlex.split(ABOUT[path].examples[0])[1:] if word != "--exact"]  # no cost refusal
        for opt in command_of(path).words_options():
            if opt.argument or opt.kind == "switch" or opt.flag in COMMON_OPTIONS:
                continue  # an argument, a switch (no value), or an option every query shares (tested apart)
            option = opt.flag
            value = words[words.index(option) + 1] if option in words[:-1] else "3"
            found.append((path, words, option, value))
    return found


PAIRS = pairs()
TYPED = st.one_of(
    st.sampled_from(["", " ", "0", "-1", "+", "4+", "7+", "1e3", "99999999999999999999", "none", "true", "x",
                     "3 3", "4+ 4+", "½", "²", "3.5"]),
    st.text(alphabet="0123456789+-./dDxz abcfn", max_size=10),
)


def asked(words: list[str]):
    try:
        ask([*words, "--trials", "1000", "--seed", "1"])
    except Refusal as refusal:
        return refusal.line
    return None


TRICKY = ["", " ", "0", "-1", "+", "4+", "7+", "0+", "1e3", "99999999999999999999", "none", "true", "x", "3 3", "4+ 4+",
          "½", "²", "3.5", "1", "2", "5", "8", "11", "61", "d6", "2d6", "d3+1", "-", "."]


@pytest.mark.parametrize("path, words, option, typical", PAIRS, ids=[f"{pair[0]} {pair[2]}" for pair in PAIRS])
def test_every_option_of_every_query_reads_or_refuses_each_tricky_value_naming_itself(path, words, option, typical):
    """Every option of every query, every value of a list of the tricky ones (bounds and past them, empty, a
    repeat, another script's digits, dice where a number goes): read, or refused in one line naming the option
    (a refusal that names another option says how it is given here: 'for --mw-shots 2', '(--models 1)')."""
    words = [word for index, word in enumerate(words) if word != option and (index == 0 or words[index - 1] != option)]
    for value in TRICKY:
        line = asked([*words, option, value])
        assert line is None or (line.startswith("error: ") and "\n" not in line and option in line), (value, line)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PAIRS), TYPED)
def test_any_value_is_read_or_refused_naming_its_option(pair, value):
    path, words, option, _ = pair
    words = [word for index, word in enumerate(words) if word != option and (index == 0 or words[index - 1] != option)]
    line = asked([*words, option, value])
    assert line is None or (line.startswith("error: ") and "\n" not in line and option in line), (path, value, line)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([pair for pair in PAIRS if re.search("[0-9]", pair[3])]), st.sampled_from(OTHER_DIGITS))
def test_a_value_in_another_scripts_digits_is_refused_naming_it(pair, digits):
    path, words, option, value = pair
    words = [word for index, word in enumerate(words) if word != option and (index == 0 or words[index - 1] != option)]
    changed = value.translate(digits)
    line = asked([*words, option, changed])
    assert line is not None and line.startswith(f"error: {option} {changed}"), (path, changed, line)


def read(path: str, words: list[str]):
    """A quoted query's attack, or its refusal's line."""
    try:
        return parse_query(shlex.join([*path.split(), *words])).attack
    except OptionError as error:
        return error.allowed


def without(words: list[str], option: str) -> list[str]:
    return [word for index, word in enumerate(words) if word != option and (index == 0 or words[index - 1] != option)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PAIRS), st.one_of(st.sampled_from(TRICKY), TYPED))
def test_every_spelling_of_a_value_reads_as_the_canonical_one(pair, value):
    """`--option value`, `--option=value` and the option given twice with the same value are one query: the same
    attack, or the same refusal."""
    path, words, option, _ = pair
    rest = without(words[len(path.split()):], option)
    canonical = read(path, [*rest, option, value])
    assert read(path, [*rest, f"{option}={value}"]) == canonical, (path, option, value)
    assert read(path, [*rest, option, value, option, value]) == canonical, (path, option, value)


def test_a_choice_reads_whatever_its_case():
    every_query()
    checked = 0
    for path in sorted(QUERIES):
        command = command_of(path)
        words = [word for word in shlex.split(ABOUT[path].examples[0])[1 + len(path.split()):] if word != "--exact"]
        for opt in command.words_options():
            if opt.choices is None or opt.flag in COMMON_OPTIONS:
                continue
            rest = without(words, opt.flag)
            for member in opt.choices:
                canonical = read(path, [*rest, opt.flag, str(member.value)])
                assert read(path, [*rest, opt.flag, str(member.value).upper()]) == canonical, (path, opt.flag)
                checked += 1
    assert checked > 50


def test_another_games_options_are_refused_naming_them():
    """Every option of every other game's queries, given to a query that lacks it: one line naming it (and, where
    the other game has it, whose it is)."""
    every_query()
    for path in sorted(QUERIES):
        own = {opt.flag for opt in command_of(path).options}
        game = path.split()[0]
        others = sorted({opt.flag for other in QUERIES if other.split()[0] != game
                         for opt in command_of(other).options if not opt.argument} - own)
        words = [word for word in shlex.split(ABOUT[path].examples[0])[1:] if word != "--exact"]
        for flag in others:
            line = asked([*words, flag, "3"])
            assert line is not None and line.startswith(f"error: {flag}: no such option of {path}"), (path, flag, line)
            assert "it is an option of" in line or "is --" in line, (path, flag, line)
