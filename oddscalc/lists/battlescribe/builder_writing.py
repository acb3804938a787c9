"""A built list written as BattleScribe and New Recruit save a `.ros` (battlescribe/builder.py): each selection
with its rules, profiles and categories after their modifiers, and its costs; the roster's totals and limit."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET

from .builder_catalogue import ROSTER, kids, to_number, tag_of
from .builder_conditions import Conditions, Selection

Rule = tuple[ET.Element, str]  # a rule and its name as shown
Cell = tuple[str, str, str]  # a characteristic's name, type id and text
Profiled = tuple[ET.Element, str, list[Cell]]  # a profile, its name as shown, its characteristics


class RosterWriting(Conditions):
    """The `.ros` of a roster being built; a part of the builder (`builder.Builder`)."""

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
        return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + bytes(ET.tostring(
            root, encoding="utf-8", xml_declaration=False))

    def _write(self, holder: ET.Element, selection: Selection, path: str) -> None:
        option, chain = selection.option, selection.option.chain
        name = self._modified_text(chain, "name", option.name, selection)
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
                descriptions = [child for child in rule if tag_of(child) == "description"]
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
            for cost in kids(element, "costs", "cost"):
                costs[cost.get("typeId", "")] = to_number(cost.get("value"))
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

    def _modified_text(self, chain: tuple[ET.Element, ...], field_name: str, text: str, selection: Selection) -> str:
        """A name or a characteristic's text after the modifiers of `chain` on it (text stays text: `_apply`)."""
        return str(self._modified(chain, field_name, text, selection, selection.parent))

    def _infos(self, selection: Selection) -> tuple[list[Rule], list[Profiled]]:
        """The selection's rules (element, name) and profiles (element, name, cells), modified."""
        rules: list[Rule] = []
        profiles: list[Profiled | None] = []

        def shown(chain: tuple[ET.Element, ...]) -> bool:
            hidden = any(item.get("hidden") == "true" for item in chain)
            return not self._modified(chain, "hidden", hidden, selection, selection.parent)

        def rule_of(chain: tuple[ET.Element, ...]) -> None:
            if shown(chain):
                rules.append((chain[-1], self._modified_text(chain, "name", chain[-1].get("name", ""), selection)))

        def collect(holder: ET.Element, links: tuple[ET.Element, ...]) -> None:
            for rule in kids(holder, "rules", "rule"):
                rule_of(links + (rule,))
            for profile in kids(holder, "profiles", "profile"):
                profiles.append(self._profile(profile, links, selection))
            for group in kids(holder, "infoGroups", "infoGroup"):
                collect(group, links)
            for link in kids(holder, "infoLinks", "infoLink"):
                target = self.data.target(link)
                if tag_of(target) == "rule":
                    rule_of(links + (link, target))
                elif tag_of(target) == "profile":
                    profiles.append(self._profile(target, links + (link,), selection))
                elif tag_of(target) == "infoGroup":
                    collect(target, links + (link,))

        for element in selection.option.chain:
            collect(element, ())
        return rules, [item for item in profiles if item is not None]

    def _profile(self, profile: ET.Element, links: tuple[ET.Element, ...], selection: Selection) -> Profiled | None:
        chain = links + (profile,)
        if self._modified(chain, "hidden", profile.get("hidden") == "true", selection, selection.parent):
            return None
        cells: list[Cell] = []
        for characteristic in kids(profile, "characteristics", "characteristic"):
            type_id = characteristic.get("typeId", "")
            text = self._modified_text(chain, type_id, characteristic.text or "", selection)
            cells.append((characteristic.get("name", ""), type_id, text))
        name = self._modified_text(chain, "name", profile.get("name", ""), selection)
        return profile, name, cells

    def _categories(self, selection: Selection) -> list[tuple[ET.Element, bool]]:
        found: dict[str, tuple[ET.Element, bool]] = {}
        for element in selection.option.chain:
            for link in kids(element, "categoryLinks", "categoryLink"):  # by id: the id of the category found
                target_id = link.get("targetId", "")
                target = self.data.by_id.get(target_id)
                if target is not None:
                    found.setdefault(target_id, (target, link.get("primary") == "true"))
            for modifier in kids(element, "modifiers", "modifier"):
                if modifier.get("field") == "category" and self._times(modifier, selection, selection.parent):
                    target_id = modifier.get("value", "")
                    target = self.data.by_id.get(target_id)
                    if target is None:
                        continue
                    if modifier.get("type") == "add":
                        found.setdefault(target_id, (target, False))
                    elif modifier.get("type") == "remove":
                        found.pop(target_id, None)
        return list(found.values())


def _text(value: float) -> str:
    return f"{float(value):.1f}" if float(value).is_integer() else repr(float(value))


def _id(kind: str, key: str) -> str:
    """A stable id in the apps' shape (four groups of four hex digits)."""
    digest = hashlib.sha1(f"{kind}:{key}".encode()).hexdigest()
    return "-".join(digest[index:index + 4] for index in range(0, 16, 4))
