"""An engagement's sides filled from a roster: the page's presets (the Assault and Combat forms).

Each unit of the game's bundled example roster, or of a list the player uploads, is offered for each side of the
form. A preset is the side's own words, as the grid fights the unit (`Game.assault`: `epic.roster.assault`,
`t9a.roster.combat`), the same options a player would type: the charger's `--models 10 --width 5 ...`, the charged
unit's `--enemy-models 25 ...`. The words travel in the form itself (nothing of an upload is kept on the server) and
are read like any typed value when the fight is asked: a preset only fills fields (in the browser, from its
option's `data-fields`; without a script, by the server's /fill).
"""

from __future__ import annotations

import functools
import shlex
from typing import Any, Mapping, Optional, Sequence

from . import forms
from ..core.record import record


@record
class Preset:
    """A unit offered for a side: its name (and where it comes from) and the words that fill that side."""

    label: str
    words: str
    fields: tuple[tuple[str, str], ...] = ()  # the side's form values (`--models`: "10"; a switch "on")

    @property
    def values(self) -> dict[str, str]:
        return dict(self.fields)


def side_names(path: str) -> tuple[set[str], set[str]]:
    """The form's options of the first side and of the second (an `--enemy-` option and its twin)."""
    own, theirs = forms.fieldsets(path, forms.fields(path))[:2]
    return {field.name for field in own.fields}, {field.name for field in theirs.fields}


def presets(path: str, roster: Any, source: str) -> tuple[list[Preset], list[Preset]]:
    """The presets of each side of `path`'s form from a roster's units: those that can take part in its
    engagement, each side's words as the grid fights the unit (its attack's command line, that side's part)."""
    engage = roster.game.assault
    if engage is None or forms.SIDES.get(path) is None:
        return [], []
    sides: tuple[list[Preset], list[Preset]] = ([], [])
    names = side_names(path)
    for unit in roster.units:
        attack = engage(unit, unit)
        if attack is None or attack.COMMAND != path:
            continue
        values = forms.values_of(path, shlex.split(attack.query())[1:])
        for index, found in enumerate(sides):
            mine = tuple((name, value) for name, value in values.items() if name in names[index])
            words = [word for name, value in mine for word in ([name] if value == "on" else [name, value])]
            found.append(Preset(f"{unit.name} ({source})", shlex.join(words), mine))
    return sides


@functools.cache
def bundled(path: str) -> tuple[list[Preset], list[Preset]]:
    """The presets from the game's bundled example roster (read once)."""
    from ..lists.games import load_roster

    game = path.split()[0]
    return presets(path, load_roster(None, game), f"bundled {game} example")


def filled(path: str, form: Mapping[str, str], side: int, words: str) -> list[str]:
    """The words of a form with one side filled from a preset: that side's fields are the preset's (a field of the
    other side, or of the fight, in the preset's words is not taken), the rest as the form has them."""
    names = side_names(path)[side]
    kept = {name: value for name, value in form.items() if name not in names}
    taken = forms.values_of(path, [*path.split(), *split(words)])
    return forms.words_of_form(path, {**kept, **{name: value for name, value in taken.items() if name in names}})


def split(words: str) -> list[str]:
    """A preset's words (they came back with the form, so as typed: a bad one is only not taken)."""
    try:
        return shlex.split(words)
    except ValueError:
        return []


def side_of(value: Optional[str], sides: Sequence[Any]) -> Optional[int]:
    """The side a Fill button names (1 or 2), or None."""
    return int(value) - 1 if value in ("1", "2") and len(sides) >= int(value) else None
