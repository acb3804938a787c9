"""Other games' words for our options (vocabulary.py): `--toughness` on a 9th Age query is refused saying what
this game calls it, with the enemy's twin, here or in the queries that have it; every hint points at options
that exist."""

from __future__ import annotations

from oddscalc.query.words import every_query
from oddscalc.query.vocabulary import OTHER_WORDS, hint


def test_every_other_word_points_at_options_that_exist():
    """Each hint names options of its game's queries: a renamed option would leave the hint pointing nowhere."""
    every_query()
    from oddscalc.query.registry import QUERIES

    for game, words in OTHER_WORDS.items():
        options = {"--" + name.replace("_", "-") for path, query in QUERIES.items() if path.split()[0] == game
                   for name in query.names}
        options |= {"--" + name for path, query in QUERIES.items() for name in ("enemy-" + n for n in query.names)}
        for word, (_, ours) in words.items():
            assert {f"--{name}" for name in ours} <= options, (game, word, ours)
            assert hint(f"--{word}", game, [], lambda option: []) is not None
    assert hint("--toughness", "epic", [], lambda option: []) is None  # a word is only another game's


def test_a_hint_names_this_querys_options_or_the_queries_that_have_them():
    combat = ["--resilience", "--enemy-resilience", "--offensive", "--defensive"]
    assert hint("--toughness", "t9a combat", combat, lambda option: []) == "Toughness is --resilience here"
    assert hint("--enemy-toughness", "t9a combat", combat, lambda option: []) == \
        "Toughness is --enemy-resilience here"
    assert hint("--WS", "t9a combat", combat, lambda option: []) == "Weapon Skill is --offensive or --defensive here"
    owners = {"--aim": ["t9a shoot"]}
    assert hint("--bs", "t9a melee", [], lambda option: owners.get(option, [])) == \
        "Ballistic Skill is --aim (in t9a shoot)"
    assert hint("--tsknf", "epic shoot", [], lambda option: []) == "They Shall Know No Fear is --know-no-fear"
    assert hint("--nonsense", "t9a combat", combat, lambda option: []) is None
    assert hint("--toughness", "", combat, lambda option: []) is None  # no query: no game
