"""A list being built, as the modifiers of its data see it (battlescribe/builder.py): its selections and
forces, and each modifier's conditions, condition groups and repeats evaluated on them.

Conditions count selections (`field="selections"`) of an entry, link, group or category in
a scope (`parent`, `force`, `roster`, `self`, an ancestor's entry id), or compare with the
roster's cost limit (`limit::<cost type>`); `instanceOf` asks what a scope's selection is.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field

from .builder_catalogue import Data, Option, kids, to_number

SPECIAL = {"model", "unit", "upgrade"}  # a condition's childId may name a selection type
Value = bool | float | str  # what a modifier changes: hidden; a cost or a constraint's value; a name or a text


@dataclass(eq=False)
class Selection:
    """A selection being built: its option, total number, parent and children."""

    option: Option
    number: int
    parent: Selection | None
    force: Force
    children: list[Selection] = field(default_factory=list)

    @property
    def copies(self) -> int:
        """How many copies the parent stands for (a child's number is per copy times this)."""
        return self.parent.number if self.parent is not None else 1

    def walk(self) -> Iterator[Selection]:
        yield self
        for child in self.children:
            yield from child.walk()

    def ancestors(self) -> Iterator[Selection]:
        node: Selection | None = self
        while node is not None:
            yield node
            node = node.parent


@dataclass(eq=False)
class Force:
    roster: Conditions
    entry: ET.Element
    selections: list[Selection] = field(default_factory=list)

    @property
    def children(self) -> list[Selection]:
        return self.selections

    def walk(self) -> Iterator[Selection]:
        for selection in self.selections:
            yield from selection.walk()


Owner = Selection | Force | None  # what a modifier is evaluated for, and its parent


class Conditions:
    """A roster of forces being built from one catalogue, and what its modifiers make of a value."""

    def __init__(self, data: Data, name: str, cost_limit: float | None = None) -> None:
        self.data = data
        self.name = name
        self.cost_limit = cost_limit
        self.forces: list[Force] = []

    def _modified(self, elements: tuple[ET.Element, ...], field_name: str, value: Value, owner: Owner,
                  parent: Owner) -> Value:
        """`value` after the modifiers of `elements` on `field_name`, evaluated for `owner`
        (the selection the elements make; `parent` is where a `parent` scope points)."""
        for element in elements:
            for modifier in kids(element, "modifiers", "modifier"):
                if modifier.get("field") != field_name:
                    continue
                times = self._times(modifier, owner, parent)
                if times:
                    value = _apply(modifier.get("type", ""), value, modifier.get("value", ""), times)
        return value

    def _times(self, modifier: ET.Element, owner: Owner, parent: Owner) -> int:
        """How many times a modifier applies: 0 when its conditions fail, else its repeats (or 1)."""
        conditions = kids(modifier, "conditions", "condition")
        groups = kids(modifier, "conditionGroups", "conditionGroup")
        if not all(self._holds(condition, owner, parent) for condition in conditions):
            return 0
        if not all(self._group_holds(group, owner, parent) for group in groups):
            return 0
        repeats = kids(modifier, "repeats", "repeat")
        if not repeats:
            return 1
        total = 0
        for repeat in repeats:
            count = self._count(repeat, owner, parent)
            step = to_number(repeat.get("value"), 1.0) or 1.0
            rounded = math.ceil(count / step) if repeat.get("roundUp") == "true" else math.floor(count / step)
            total += int(rounded) * int(to_number(repeat.get("repeats"), 1.0))
        return total

    def _group_holds(self, group: ET.Element, owner: Owner, parent: Owner) -> bool:
        results = [self._holds(condition, owner, parent) for condition in kids(group, "conditions", "condition")]
        results += [self._group_holds(inner, owner, parent) for inner in kids(group, "conditionGroups",
                                                                               "conditionGroup")]
        return any(results) if group.get("type") == "or" else all(results)

    def _holds(self, condition: ET.Element, owner: Owner, parent: Owner) -> bool:
        kind, value = condition.get("type", ""), to_number(condition.get("value"))
        if kind in ("instanceOf", "notInstanceOf"):
            scope = self._scope(condition.get("scope", ""), owner, parent)
            found = scope is not None and not isinstance(scope, (Force, Conditions)) and _is(scope, condition.get(
                "childId", ""), self)
            if condition.get("scope") == "ancestor" and owner is not None and not isinstance(owner, Force):
                found = any(_is(item, condition.get("childId", ""), self) for item in owner.ancestors()
                            if item is not owner)
            return found if kind == "instanceOf" else not found
        count = self._count(condition, owner, parent)
        return {"equalTo": count == value, "notEqualTo": count != value, "atLeast": count >= value,
                "atMost": count <= value, "greaterThan": count > value, "lessThan": count < value}.get(kind, False)

    def _scope(self, scope: str, owner: Owner, parent: Owner) -> Selection | Force | Conditions | None:
        """What a condition's scope names for `owner`: a selection, a force, the roster, or nothing."""
        if scope == "self":
            return owner
        if scope == "parent":
            return parent if parent is not None else (owner.force if isinstance(owner, Selection) else owner)
        if scope in ("force", "primary-catalogue"):
            return owner.force if isinstance(owner, Selection) else (owner or parent)
        if scope == "roster":
            return self
        if scope == "ancestor":
            return parent
        if isinstance(owner, Selection):  # an entry's id: the nearest selection of that entry, this one included
            return next((item for item in owner.ancestors() if scope in item.option.ids()), None)
        return None

    def _count(self, condition: ET.Element, owner: Owner, parent: Owner) -> float:
        field_name = condition.get("field", "")
        if field_name.startswith("limit::"):
            return self.cost_limit if self.cost_limit is not None else -1.0
        if field_name != "selections":
            return 0.0
        scope = self._scope(condition.get("scope", ""), owner, parent)
        if scope is None:
            return 0.0
        deep = condition.get("includeChildSelections") == "true"
        child = condition.get("childId", "")
        pool: list[Selection]
        if isinstance(scope, Conditions):
            pool = [item for force in self.forces for item in (force.walk() if deep else force.selections)]
        elif isinstance(scope, Force):
            pool = list(scope.walk()) if deep else list(scope.selections)
        else:
            pool = [item for inner in scope.children for item in (inner.walk() if deep else [inner])]
        return float(sum(item.number for item in pool if child == "any" or _is(item, child, self)))


def _is(selection: Selection, child_id: str, builder: Conditions) -> bool:
    """Whether a selection is of an entry, link, group or category id, or of a selection type."""
    if child_id in SPECIAL:
        return selection.option.entry.get("type") == child_id
    if child_id in selection.option.ids():
        return True
    return any(link.get("targetId") == child_id for element in selection.option.chain
               for link in kids(element, "categoryLinks", "categoryLink"))


def _apply(kind: str, value: Value, text: str, times: int) -> Value:
    """One modifier on a value: set, increment, decrement, append (numbers stay numbers)."""
    if kind == "set":
        if isinstance(value, bool):
            return text.strip().casefold() == "true"
        if isinstance(value, (int, float)):
            return to_number(text, value)
        return text
    if kind in ("increment", "decrement"):
        step = to_number(text) * times * (1 if kind == "increment" else -1)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value + step
        match = re.fullmatch(r"\s*(-?\d+)(.*)", str(value), re.DOTALL)
        if match:
            result = int(match.group(1)) + step
            return f"{int(result) if float(result).is_integer() else result}{match.group(2)}"
        return value
    if kind == "append":
        for _ in range(times):
            value = f"{value}{text}"  # the apps join as written: data give " (D6)", ", +2 Sh"
        return value
    return value
