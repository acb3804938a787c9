"""The registry of commands (query/registry.py): an entry registered to be made later is in its place at once,
made when first read, and every one of them made when they are all gone over; a game's query imports its own
attack's module alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from oddscalc.query.registry import Registered


def test_a_later_entry_keeps_its_place_and_is_made_when_first_read():
    made: list[str] = []
    table: Registered[int] = Registered()

    def maker(key: str, value: int):
        def make() -> None:
            made.append(key)
            table[key] = value
        return make

    table["first"] = 1
    table.later("second", maker("second", 2))
    table.later("third", maker("third", 3))
    assert "second" in table and len(table) == 3 and made == []  # known, not made
    assert table["third"] == 3 and made == ["third"]
    assert table.get("second") == 2 and made == ["third", "second"]
    assert list(table) == ["first", "second", "third"]  # the order registered, whatever the order made
    assert table.get("fourth", 0) == 0 and table.get("fourth") is None  # none registered: the default


def test_going_over_every_entry_makes_them_all():
    made: list[str] = []
    table: Registered[str] = Registered()
    for key in ("a", "b"):
        table.later(key, lambda key=key: (made.append(key), table.__setitem__(key, key * 2)))
    assert list(table.values()) == ["aa", "bb"] and made == ["a", "b"]
    assert dict(table.items()) == {"a": "aa", "b": "bb"} and table.makers == {}


def test_a_game_s_query_imports_its_own_attack_s_module_alone():
    code = ("import json, sys\nimport oddscalc.t9a.commands\nfrom oddscalc.query.registry import COMMANDS\n"
            "before = sorted(m for m in sys.modules if m.startswith('oddscalc.t9a.'))\n"
            "options = [opt.name for opt in COMMANDS['t9a melee'].options][:3]\n"
            "after = sorted(m for m in sys.modules if m.startswith('oddscalc.t9a.'))\n"
            "paths = [path for path in COMMANDS if path.startswith('t9a ')]\n"
            "print(json.dumps([before, options, after, paths, 'oddscalc.t9a.combat' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, options, after, paths, combat = json.loads(out.splitlines()[-1])
    assert "oddscalc.t9a.combat" not in before and "oddscalc.t9a.combat" not in after
    assert options == ["attacks", "offensive", "defensive"] and "oddscalc.t9a.attacks" in after
    assert paths[:4] == ["t9a melee", "t9a shoot", "t9a hits", "t9a combat"] and combat  # all made, in their order


def test_threads_reading_an_entry_being_made_wait_for_it_and_a_failed_one_is_tried_again():
    import threading
    import time

    table: Registered[int] = Registered()
    tries: list[int] = []

    def slow() -> None:
        tries.append(1)
        time.sleep(0.05)
        table["slow"] = 7

    table.later("slow", slow)
    seen: list[int] = []
    threads = [threading.Thread(target=lambda: seen.append(table["slow"])) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [7, 7, 7, 7] and tries == [1]

    def broken() -> None:
        raise ImportError("not yet")

    table.later("broken", broken)
    for _ in range(2):  # tried each time it is asked for
        with pytest.raises(ImportError):
            table["broken"]
    assert "broken" in table.makers
