"""Army lists built from BattleScribe data files (a game system `.gst` and a catalogue `.cat`)
the way BattleScribe and New Recruit save them: the test corpus of real lists and the
catalogue sweep are made with it (`python -m oddscalc.battlescribe.sweep`).

What a saved roster holds, and so what this writes (learnt from rosters the apps saved):
- a selection for each chosen entry, reached through `entryLink`s, shared entries and
  selection entry groups; every entry a `min` constraint requires is chosen (a group's
  default entry for a group that requires one);
- each selection's `number` is the total, not the number per parent copy: three copies of
  a model that has a weapon each hold `number="3"`, and so does the weapon;
- a selection's cost is its cost per item times its number (a unit's cost is the sum over
  it and everything in it; costs can be negative);
- profiles and rules are copied into each selection (from `infoLink`s too), after every
  modifier whose conditions hold on the finished roster: characteristics set, appended,
  incremented; names; costs; constraints; categories.

Conditions count selections (`field="selections"`) of an entry, link, group or category in
a scope (`parent`, `force`, `roster`, `self`, an ancestor's entry id), or compare with the
roster's cost limit (`limit::<cost type>`); `instanceOf` asks what a scope's selection is.
"""

from __future__ import annotations

import hashlib
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

CATALOGUE = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM = "http://www.battlescribe.net/schema/gameSystemSchema"
ROSTER = "http://www.battlescribe.net/schema/rosterSchema"
INDEXED = {"selectionEntry", "selectionEntryGroup", "entryLink", "profile", "rule", "infoGroup", "categoryEntry",
           "forceEntry", "profileType", "costType"}
SPECIAL = {"model", "unit", "upgrade"}  # a condition's childId may name a selection type


class BuildError(ValueError):
    """A list that cannot be built from the data as asked (an unknown or hidden entry)."""


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


def _kids(element: ET.Element, group: str, tag: str | None = None) -> list[ET.Element]:
    """The children of `element`'s `<group>` (of one tag when given), in document order."""
    found = [child for child in element if _tag(child) == group]
    return [item for holder in found for item in holder if tag is None or _tag(item) == tag]


def _number(text: str | None, default: float = 0.0) -> float:
    try:
        return float(text) if text not in (None, "") else default
    except ValueError:
        return default


class Data:
    """A game system and one catalogue, with every element that has an id indexed by it."""

    def __init__(self, system: Path, catalogue: Path) -> None:
        from defusedxml.ElementTree import parse

        self.system_path, self.catalogue_path = system, catalogue
        self.system = parse(system).getroot()
        self.catalogue = parse(catalogue).getroot()
        self.by_id: dict[str, ET.Element] = {}
        for root in (self.system, self.catalogue):  # the catalogue's own element wins a shared id
            for element in root.iter():
                if _tag(element) in INDEXED and element.get("id"):
                    self.by_id[element.get("id")] = element
        self.cost_types = {cost.get("id"): cost.get("name", "") for cost in _kids(self.system, "costTypes")}

    @classmethod
    def open(cls, catalogue: str | Path) -> Data:
        """A catalogue and the game system beside it that it names (by `gameSystemId`)."""
        from defusedxml.ElementTree import parse

        catalogue = Path(catalogue)
        wanted = parse(catalogue).getroot().get("gameSystemId")
        for candidate in sorted(catalogue.parent.glob("*.gst")):
            if parse(candidate).getroot().get("id") == wanted:
                return cls(candidate, catalogue)
        raise BuildError(f"{catalogue.name}: no game system {wanted} beside it")

    def target(self, link: ET.Element) -> ET.Element:
        found = self.by_id.get(link.get("targetId", ""))
        if found is None:
            raise BuildError(f"link {link.get('name') or link.get('id')!r}: no target {link.get('targetId')}")
        return found

    def roots(self) -> list[Option]:
        """What a force can select: the root entries and links of the catalogue and the system."""
        options: list[Option] = []
        for root in (self.catalogue, self.system):
            options += _options(self, [root], ())
        return options


@dataclass(frozen=True)
class Option:
    """A selection entry as reached from its parent: the links and groups on the way, then the entry."""

    via: tuple[ET.Element, ...]
    entry: ET.Element

    @property
    def chain(self) -> tuple[ET.Element, ...]:
        """The elements whose modifiers, constraints and contents make the selection: links, then the entry."""
        return tuple(item for item in self.via if _tag(item) == "entryLink") + (self.entry,)

    @property
    def name(self) -> str:
        return self.entry.get("name", "")

    @property
    def groups(self) -> tuple[ET.Element, ...]:
        """The selection entry groups on the way (a linked group's link stands for it)."""
        return tuple(item for item in self.via if _tag(item) == "selectionEntryGroup")

    def ids(self) -> set[str]:
        return {item.get("id", "") for item in self.via + (self.entry,)}


def _options(data: Data, holders: list[ET.Element], via: tuple[ET.Element, ...]) -> list[Option]:
    """The entries `holders` offer: their selection entries, entry links and groups, through groups."""
    found: list[Option] = []
    for holder in holders:
        for entry in _kids(holder, "selectionEntries", "selectionEntry"):
            found.append(Option(via, entry))
        for link in _kids(holder, "entryLinks", "entryLink"):
            target = data.target(link)
            if _tag(target) == "selectionEntryGroup":
                found += _options(data, [link, target], via + (link, target))
            else:
                found.append(Option(via + (link,), target))
        for group in _kids(holder, "selectionEntryGroups", "selectionEntryGroup"):
            found += _options(data, [group], via + (group,))
    return found


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
        node = self
        while node is not None:
            yield node
            node = node.parent


@dataclass(eq=False)
class Force:
    roster: Builder
    entry: ET.Element
    selections: list[Selection] = field(default_factory=list)

    @property
    def children(self) -> list[Selection]:
        return self.selections

    def walk(self) -> Iterator[Selection]:
        for selection in self.selections:
            yield from selection.walk()


@dataclass(frozen=True)
class Pick:
    """What to select: an entry by name (through groups), how many per parent copy, and inside it."""

    name: str
    number: int = 1
    picks: tuple[Pick, ...] = ()

    @classmethod
    def of(cls, spec) -> Pick:
        """A pick from a name, or a table `{entry, number, select}` (a list spec in TOML)."""
        if isinstance(spec, str):
            return cls(spec)
        return cls(spec["entry"], int(spec.get("number", 1)), tuple(cls.of(item) for item in spec.get("select", ())))


class Builder:
    """A roster of forces built from one catalogue, written as the apps write a `.ros`."""

    def __init__(self, data: Data, name: str, cost_limit: float | None = None) -> None:
        self.data = data
        self.name = name
        self.cost_limit = cost_limit
        self.forces: list[Force] = []

    # --- choosing -------------------------------------------------------------------------
    def force(self, name: str | None = None) -> Force:
        """A new force of the named force entry (the first one that is not hidden by default)."""
        entries = [entry for root in (self.data.catalogue, self.data.system)
                   for entry in _kids(root, "forceEntries", "forceEntry")]
        chosen = [entry for entry in entries if (name is None and entry.get("hidden") != "true")
                  or (name is not None and entry.get("name", "").casefold() == name.casefold())]
        if not chosen:
            raise BuildError(f"no force entry {name!r}: {', '.join(entry.get('name', '') for entry in entries)}")
        force = Force(self, chosen[0])
        self.forces.append(force)
        return force

    def select(self, parent: Force | Selection, pick: Pick) -> Selection:
        """Add the picked entry (and what it requires) under `parent`; return its selection."""
        options = self.data.roots() if isinstance(parent, Force) else _options(self.data, list(parent.option.chain), ())
        force = parent if isinstance(parent, Force) else parent.force
        holder = None if isinstance(parent, Force) else parent
        matches = [option for option in options if pick.name.casefold() in
                   {option.name.casefold(), *(item.get("name", "").casefold() for item in option.via
                                              if _tag(item) == "entryLink")}]
        visible = [option for option in matches if not self._hidden(option, holder, force)]
        if not visible:
            offered = sorted({option.name for option in options if not self._hidden(option, holder, force)})
            state = "hidden here" if matches else "not offered here"
            raise BuildError(f"{pick.name!r} is {state}; offered: {', '.join(offered)}")
        option = visible[0]
        copies = holder.number if holder is not None else 1
        selection = Selection(option, pick.number * copies, holder, force)
        (holder.children if holder is not None else force.selections).append(selection)
        for inner in pick.picks:
            self.select(selection, inner)
        self.complete(selection)
        return selection

    def complete(self, selection: Selection) -> None:
        """Add what the selection's entry requires (`min` constraints, groups' defaults) and is missing."""
        options = _options(self.data, list(selection.option.chain), ())
        for option in options:
            if self._hidden(option, selection, selection.force):
                continue
            need = self._minimum(option.chain, selection) * selection.number
            have = sum(child.number for child in selection.children if child.option.entry is option.entry)
            if need > have:
                child = Selection(option, need - have, selection, selection.force)
                selection.children.append(child)
                self.complete(child)
        groups = {id(group): group for option in options for group in option.groups}
        for group in groups.values():
            need = self._minimum((group,), selection) * selection.number
            members = [option for option in options if group in option.groups]
            have = sum(child.number for child in selection.children
                       if any(child.option.entry is option.entry for option in members))
            if need > have and not self._hidden_group(group, selection):
                default = group.get("defaultSelectionEntryId")
                visible = [option for option in members if not self._hidden(option, selection, selection.force)]
                visible.sort(key=lambda option: default not in option.ids())  # the default first, then in order
                for option in visible:  # each up to its own maximum, as the app fills a group
                    room = self._maximum(option.chain, selection)
                    taken = sum(child.number for child in selection.children if child.option.entry is option.entry)
                    number = min(need - have, need if room is None else room * selection.number - taken)
                    if number > 0:
                        child = Selection(option, number, selection, selection.force)
                        selection.children.append(child)
                        self.complete(child)
                        have += number
                    if have >= need:
                        break

    def complete_force(self, force: Force) -> None:
        """Add the root entries a force requires (`min` in the force or roster) that are missing."""
        for option in self.data.roots():
            if self._hidden(option, None, force):
                continue
            need = 0
            for element in option.chain:
                for constraint in _kids(element, "constraints", "constraint"):
                    if (constraint.get("type") == "min" and constraint.get("field") == "selections"
                            and constraint.get("scope") in ("force", "roster")):
                        need = max(need, int(_number(constraint.get("value"))))
            have = sum(item.number for item in force.selections if item.option.entry is option.entry)
            if need > have:
                selection = Selection(option, need - have, None, force)
                force.selections.insert(0, selection)
                self.complete(selection)

    def _limits(self, chain: tuple[ET.Element, ...], context: Selection, kind: str) -> list[int]:
        """The `kind` ("min"/"max") selections per parent copy that the elements' constraints set,
        after modifiers (a negative max: no limit)."""
        return [int(self._modified(chain, constraint.get("id", ""), _number(constraint.get("value")), context,
                                   context))
                for element in chain for constraint in _kids(element, "constraints", "constraint")
                if (constraint.get("type"), constraint.get("field"), constraint.get("scope"))
                == (kind, "selections", "parent")]

    def _minimum(self, chain: tuple[ET.Element, ...], context: Selection) -> int:
        """The `min` selections per parent copy that the elements' constraints ask, after modifiers."""
        return max(self._limits(chain, context, "min"), default=0)

    def _maximum(self, chain: tuple[ET.Element, ...], context: Selection) -> int | None:
        """The `max` selections per parent copy that the elements' constraints allow (None: no limit)."""
        return min((value for value in self._limits(chain, context, "max") if value >= 0), default=None)

    def _hidden(self, option: Option, parent: Selection | None, force: Force) -> bool:
        probe = Selection(option, 0, parent, force)
        hidden = any(item.get("hidden") == "true" for item in option.chain)
        return bool(self._modified(option.chain, "hidden", hidden, probe, parent)) or any(
            self._hidden_group(group, parent) for group in option.groups)

    def _hidden_group(self, group: ET.Element, parent: Selection | None) -> bool:
        if parent is None:
            return group.get("hidden") == "true"
        return bool(self._modified((group,), "hidden", group.get("hidden") == "true", parent, parent))

    # --- modifiers and conditions ---------------------------------------------------------
    def _modified(self, elements, field_name: str, value, owner: Selection | Force | None,
                  parent: Selection | Force | None):
        """`value` after the modifiers of `elements` on `field_name`, evaluated for `owner`
        (the selection the elements make; `parent` is where a `parent` scope points)."""
        for element in elements:
            for modifier in _kids(element, "modifiers", "modifier"):
                if modifier.get("field") != field_name:
                    continue
                times = self._times(modifier, owner, parent)
                if times:
                    value = _apply(modifier.get("type", ""), value, modifier.get("value", ""), times)
        return value

    def _times(self, modifier: ET.Element, owner, parent) -> int:
        """How many times a modifier applies: 0 when its conditions fail, else its repeats (or 1)."""
        conditions = _kids(modifier, "conditions", "condition")
        groups = _kids(modifier, "conditionGroups", "conditionGroup")
        if not all(self._holds(condition, owner, parent) for condition in conditions):
            return 0
        if not all(self._group_holds(group, owner, parent) for group in groups):
            return 0
        repeats = _kids(modifier, "repeats", "repeat")
        if not repeats:
            return 1
        total = 0
        for repeat in repeats:
            count = self._count(repeat, owner, parent)
            step = _number(repeat.get("value"), 1.0) or 1.0
            rounded = math.ceil(count / step) if repeat.get("roundUp") == "true" else math.floor(count / step)
            total += int(rounded) * int(_number(repeat.get("repeats"), 1.0))
        return total

    def _group_holds(self, group: ET.Element, owner, parent) -> bool:
        results = [self._holds(condition, owner, parent) for condition in _kids(group, "conditions", "condition")]
        results += [self._group_holds(inner, owner, parent) for inner in _kids(group, "conditionGroups",
                                                                               "conditionGroup")]
        return any(results) if group.get("type") == "or" else all(results)

    def _holds(self, condition: ET.Element, owner, parent) -> bool:
        kind, value = condition.get("type", ""), _number(condition.get("value"))
        if kind in ("instanceOf", "notInstanceOf"):
            scope = self._scope(condition.get("scope", ""), owner, parent)
            found = scope is not None and not isinstance(scope, (Force, Builder)) and _is(scope, condition.get(
                "childId", ""), self)
            if condition.get("scope") == "ancestor" and owner is not None and not isinstance(owner, Force):
                found = any(_is(item, condition.get("childId", ""), self) for item in owner.ancestors()
                            if item is not owner)
            return found if kind == "instanceOf" else not found
        count = self._count(condition, owner, parent)
        return {"equalTo": count == value, "notEqualTo": count != value, "atLeast": count >= value,
                "atMost": count <= value, "greaterThan": count > value, "lessThan": count < value}.get(kind, False)

    def _scope(self, scope: str, owner, parent):
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

    def _count(self, condition: ET.Element, owner, parent) -> float:
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
        if isinstance(scope, Builder):
            pool = [item for force in self.forces for item in (force.walk() if deep else force.selections)]
        elif isinstance(scope, Force):
            pool = list(scope.walk()) if deep else list(scope.selections)
        else:
            pool = [item for inner in scope.children for item in (inner.walk() if deep else [inner])]
        return float(sum(item.number for item in pool if child == "any" or _is(item, child, self)))

    # --- writing --------------------------------------------------------------------------
    def xml(self) -> bytes:
        """The roster as the apps save a `.ros`: UTF-8 XML in the roster schema."""
        ET.register_namespace("", ROSTER)
        system = self.data.system
        root = ET.Element(f"{{{ROSTER}}}roster", {
            "id": _id("roster", self.name), "name": self.name, "battleScribeVersion": "2.03",
            "gameSystemId": system.get("id", ""), "gameSystemName": system.get("name", ""),
            "gameSystemRevision": system.get("revision", "")})
        totals = self._totals([item for force in self.forces for item in force.selections])
        self._costs(root, totals)
        if self.cost_limit is not None:
            limits = ET.SubElement(root, f"{{{ROSTER}}}costLimits")
            for type_id, name in self.data.cost_types.items():
                ET.SubElement(limits, f"{{{ROSTER}}}costLimit", {"name": name, "typeId": type_id,
                                                                  "value": _text(self.cost_limit)})
        forces = ET.SubElement(root, f"{{{ROSTER}}}forces")
        catalogue = self.data.catalogue
        for index, force in enumerate(self.forces):
            element = ET.SubElement(forces, f"{{{ROSTER}}}force", {
                "id": _id("force", str(index)), "name": force.entry.get("name", ""),
                "entryId": force.entry.get("id", ""), "catalogueId": catalogue.get("id", ""),
                "catalogueRevision": catalogue.get("revision", ""), "catalogueName": catalogue.get("name", "")})
            holder = ET.SubElement(element, f"{{{ROSTER}}}selections")
            for number, selection in enumerate(force.selections):
                self._write(holder, selection, f"{index}/{number}")
        ET.indent(root, "  ")
        return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(root, encoding="utf-8",
                                                                                            xml_declaration=False)

    def _write(self, holder: ET.Element, selection: Selection, path: str) -> None:
        option, chain = selection.option, selection.option.chain
        name = self._modified(chain, "name", option.name, selection, selection.parent)
        attributes = {"id": _id("selection", path), "name": name,
                      "entryId": "::".join(item.get("id", "") for item in chain)}
        if option.groups:
            attributes["entryGroupId"] = option.groups[-1].get("id", "")
        attributes.update(number=str(selection.number), type=option.entry.get("type", "upgrade"))
        element = ET.SubElement(holder, f"{{{ROSTER}}}selection", attributes)
        rules, profiles = self._infos(selection)
        if rules:
            container = ET.SubElement(element, f"{{{ROSTER}}}rules")
            for rule, rule_name in rules:
                written = ET.SubElement(container, f"{{{ROSTER}}}rule", {"id": rule.get("id", ""), "name": rule_name,
                                                                         "hidden": "false"})
                descriptions = [child for child in rule if _tag(child) == "description"]
                if descriptions:
                    ET.SubElement(written, f"{{{ROSTER}}}description").text = descriptions[0].text or ""
        if profiles:
            container = ET.SubElement(element, f"{{{ROSTER}}}profiles")
            for profile, profile_name, cells in profiles:
                written = ET.SubElement(container, f"{{{ROSTER}}}profile", {
                    "id": profile.get("id", ""), "name": profile_name, "hidden": "false",
                    "typeId": profile.get("typeId", ""), "typeName": profile.get("typeName", "")})
                characteristics = ET.SubElement(written, f"{{{ROSTER}}}characteristics")
                for cell_name, type_id, text in cells:
                    ET.SubElement(characteristics, f"{{{ROSTER}}}characteristic",
                                  {"name": cell_name, "typeId": type_id}).text = text
        if selection.children:
            container = ET.SubElement(element, f"{{{ROSTER}}}selections")
            for number, child in enumerate(selection.children):
                self._write(container, child, f"{path}/{number}")
        self._costs(element, self._own_costs(selection))
        categories = self._categories(selection)
        if categories:
            container = ET.SubElement(element, f"{{{ROSTER}}}categories")
            for category, primary in categories:
                ET.SubElement(container, f"{{{ROSTER}}}category", {
                    "id": _id("category", f"{path}/{category.get('id')}"), "name": category.get("name", ""),
                    "entryId": category.get("id", ""), "primary": "true" if primary else "false"})

    def _costs(self, element: ET.Element, costs: dict[str, float]) -> None:
        container = ET.SubElement(element, f"{{{ROSTER}}}costs")
        for type_id, name in self.data.cost_types.items():
            ET.SubElement(container, f"{{{ROSTER}}}cost", {"name": name, "typeId": type_id,
                                                            "value": _text(costs.get(type_id, 0.0))})

    def _own_costs(self, selection: Selection) -> dict[str, float]:
        """The selection's costs: per item (a link's cost replaces its target's), modified, times its number."""
        costs: dict[str, float] = {}
        for element in reversed(selection.option.chain):  # the entry first, then links over it
            for cost in _kids(element, "costs", "cost"):
                costs[cost.get("typeId", "")] = _number(cost.get("value"))
        for type_id in list(costs) + [key for key in self.data.cost_types if key not in costs]:
            base = costs.get(type_id, 0.0)
            costs[type_id] = float(self._modified(selection.option.chain, type_id, base, selection,
                                                  selection.parent)) * selection.number
        return costs

    def _totals(self, selections: list[Selection]) -> dict[str, float]:
        totals: dict[str, float] = {}
        for selection in selections:
            for item in selection.walk():
                for type_id, value in self._own_costs(item).items():
                    totals[type_id] = totals.get(type_id, 0.0) + value
        return totals

    def _infos(self, selection: Selection):
        """The selection's rules (element, name) and profiles (element, name, cells), modified."""
        rules, profiles = [], []

        def shown(chain: tuple[ET.Element, ...]) -> bool:
            hidden = any(item.get("hidden") == "true" for item in chain)
            return not self._modified(chain, "hidden", hidden, selection, selection.parent)

        def rule_of(chain: tuple[ET.Element, ...]) -> None:
            if shown(chain):
                rules.append((chain[-1], self._modified(chain, "name", chain[-1].get("name", ""), selection,
                                                        selection.parent)))

        def collect(holder: ET.Element, links: tuple[ET.Element, ...]) -> None:
            for rule in _kids(holder, "rules", "rule"):
                rule_of(links + (rule,))
            for profile in _kids(holder, "profiles", "profile"):
                profiles.append(self._profile(profile, links, selection))
            for group in _kids(holder, "infoGroups", "infoGroup"):
                collect(group, links)
            for link in _kids(holder, "infoLinks", "infoLink"):
                target = self.data.target(link)
                if _tag(target) == "rule":
                    rule_of(links + (link, target))
                elif _tag(target) == "profile":
                    profiles.append(self._profile(target, links + (link,), selection))
                elif _tag(target) == "infoGroup":
                    collect(target, links + (link,))

        for element in selection.option.chain:
            collect(element, ())
        return rules, [item for item in profiles if item is not None]

    def _profile(self, profile: ET.Element, links: tuple[ET.Element, ...], selection: Selection):
        chain = links + (profile,)
        if self._modified(chain, "hidden", profile.get("hidden") == "true", selection, selection.parent):
            return None
        cells = []
        for characteristic in _kids(profile, "characteristics", "characteristic"):
            type_id = characteristic.get("typeId", "")
            text = self._modified(chain, type_id, characteristic.text or "", selection, selection.parent)
            cells.append((characteristic.get("name", ""), type_id, text))
        name = self._modified(chain, "name", profile.get("name", ""), selection, selection.parent)
        return profile, name, cells

    def _categories(self, selection: Selection) -> list[tuple[ET.Element, bool]]:
        found: dict[str, tuple[ET.Element, bool]] = {}
        for element in selection.option.chain:
            for link in _kids(element, "categoryLinks", "categoryLink"):
                target = self.data.by_id.get(link.get("targetId", ""))
                if target is not None:
                    found.setdefault(target.get("id"), (target, link.get("primary") == "true"))
            for modifier in _kids(element, "modifiers", "modifier"):
                if modifier.get("field") == "category" and self._times(modifier, selection, selection.parent):
                    target = self.data.by_id.get(modifier.get("value", ""))
                    if target is None:
                        continue
                    if modifier.get("type") == "add":
                        found.setdefault(target.get("id"), (target, False))
                    elif modifier.get("type") == "remove":
                        found.pop(target.get("id"), None)
        return list(found.values())


def _is(selection: Selection, child_id: str, builder: Builder) -> bool:
    """Whether a selection is of an entry, link, group or category id, or of a selection type."""
    if child_id in SPECIAL:
        return selection.option.entry.get("type") == child_id
    if child_id in selection.option.ids():
        return True
    return any(link.get("targetId") == child_id for element in selection.option.chain
               for link in _kids(element, "categoryLinks", "categoryLink"))


def _apply(kind: str, value, text: str, times: int):
    """One modifier on a value: set, increment, decrement, append (numbers stay numbers)."""
    if kind == "set":
        if isinstance(value, bool):
            return text.strip().casefold() == "true"
        if isinstance(value, (int, float)):
            return _number(text, value)
        return text
    if kind in ("increment", "decrement"):
        step = _number(text) * times * (1 if kind == "increment" else -1)
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


def _text(value: float) -> str:
    return f"{float(value):.1f}" if float(value).is_integer() else repr(float(value))


def _id(kind: str, key: str) -> str:
    """A stable id in the apps' shape (four groups of four hex digits)."""
    digest = hashlib.sha1(f"{kind}:{key}".encode()).hexdigest()
    return "-".join(digest[index:index + 4] for index in range(0, 16, 4))


def build(catalogue: str | Path, name: str, picks, force: str | None = None,
          cost_limit: float | None = None) -> bytes:
    """The `.ros` XML of a list: one force of `catalogue` holding `picks` (names or `Pick`s)."""
    builder = Builder(Data.open(catalogue), name, cost_limit)
    holder = builder.force(force)
    for pick in picks:
        builder.select(holder, Pick.of(pick) if not isinstance(pick, Pick) else pick)
    builder.complete_force(holder)
    return builder.xml()


# --- lists from a spec (the test corpus) -----------------------------------------------------

def write(path: Path, xml: bytes) -> None:
    """Save a roster as the apps do: `.ros` is the XML, `.rosz` the XML zipped as `<name>.ros`."""
    import io
    import zipfile

    if path.suffix.lower() != ".rosz":
        path.write_bytes(xml)
        return
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        member = zipfile.ZipInfo(path.with_suffix(".ros").name, date_time=(2026, 1, 1, 0, 0, 0))
        member.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(member, xml)
    path.write_bytes(buffer.getvalue())


def from_spec(spec: dict, folders: list[Path]) -> bytes:
    """One list of a spec (`[[list]]` in TOML): its catalogue (found in `folders`), name, cost limit, picks."""
    catalogue = next((folder / spec["catalogue"] for folder in folders if (folder / spec["catalogue"]).is_file()),
                     None)
    if catalogue is None:
        raise BuildError(f"{spec['catalogue']}: not in {', '.join(map(str, folders))}")
    builder = Builder(Data.open(catalogue), spec["name"], spec.get("cost_limit"))
    force = builder.force(spec.get("force"))
    for pick in spec.get("select", ()):
        builder.select(force, Pick.of(pick))
    builder.complete_force(force)
    return builder.xml()


def main(argv: list[str] | None = None) -> int:
    """Build the lists of a spec file into a folder (`--check`: compare with the files there instead)."""
    import argparse
    import tomllib

    parser = argparse.ArgumentParser(prog="python -m oddscalc.battlescribe.builder", description=main.__doc__)
    parser.add_argument("spec", type=Path, help="a TOML file of [[list]] tables")
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a folder of BattleScribe data (.gst and .cat); repeat for several")
    parser.add_argument("--out", type=Path, required=True, help="the folder of the lists")
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    arguments = parser.parse_args(argv)
    specs = tomllib.loads(arguments.spec.read_text(encoding="utf-8"))["list"]
    different = []
    for spec in specs:
        xml = from_spec(spec, arguments.data)
        path = arguments.out / spec["file"]
        if arguments.check:
            from .reader import read_bytes

            if not path.is_file() or read_bytes(path) != xml:
                different.append(spec["file"])
        else:
            write(path, xml)
            print(f"wrote {path}")
    for name in different:
        print(f"differs: {name}")
    if arguments.check:
        print(f"{len(specs) - len(different)} of {len(specs)} lists as built")
    return 1 if different else 0


if __name__ == "__main__":
    raise SystemExit(main())
