"""The BattleScribe data a list is built from (battlescribe/builder.py): a game system and a catalogue
with their elements indexed by id, and the options an entry offers through its links and groups."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from ...core.record import record

CATALOGUE = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM = "http://www.battlescribe.net/schema/gameSystemSchema"
ROSTER = "http://www.battlescribe.net/schema/rosterSchema"
INDEXED = {"selectionEntry", "selectionEntryGroup", "entryLink", "profile", "rule", "infoGroup", "categoryEntry",
           "forceEntry", "profileType", "costType"}


class BuildError(ValueError):
    """A list that cannot be built from the data as asked (an unknown or hidden entry)."""


def tag_of(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


@lru_cache(maxsize=1 << 16)
def kids(element: ET.Element, group: str, tag: str | None = None) -> tuple[ET.Element, ...]:
    """The children of `element`'s `<group>` (of one tag when given), in document order (asked many times of
    the same element while a list is built: worked once; the data is never changed)."""
    found = [child for child in element if tag_of(child) == group]
    return tuple(item for holder in found for item in holder if tag is None or tag_of(item) == tag)


@lru_cache(maxsize=8)
def _system(path: Path, stamp: tuple[int, int, int]) -> ET.Element:
    """A game system's parsed root, read once while its file is unchanged (`stamp`: its time and size): every
    catalogue of a folder names the same one; nothing changes the tree."""
    from defusedxml.ElementTree import parse

    root: ET.Element = parse(path).getroot()
    return root


def _root_of(path: Path) -> ET.Element:
    status = path.stat()
    return _system(path, (status.st_mtime_ns, status.st_size, status.st_ino))


def to_number(text: str | None, default: float = 0.0) -> float:
    try:
        return float(text) if text not in (None, "") else default
    except ValueError:
        return default


class Data:
    """A game system and one catalogue, with every element that has an id indexed by it."""

    def __init__(self, system: Path, catalogue: Path, root: ET.Element | None = None) -> None:
        from defusedxml.ElementTree import parse

        self.system_path, self.catalogue_path = system, catalogue
        self.system: ET.Element = _root_of(Path(system))
        self.catalogue: ET.Element = parse(catalogue).getroot() if root is None else root
        self.by_id: dict[str, ET.Element] = {}
        for root in (self.system, self.catalogue):  # the catalogue's own element wins a shared id
            for element in root.iter():
                if tag_of(element) in INDEXED and (element_id := element.get("id")):
                    self.by_id[element_id] = element
        self.cost_types = {type_id: cost.get("name", "") for cost in kids(self.system, "costTypes")
                           if (type_id := cost.get("id"))}  # id: name; a cost type has an id (the schema's rule)

    @classmethod
    def open(cls, catalogue: str | Path) -> Data:
        """A catalogue and the game system beside it that it names (by `gameSystemId`)."""
        from defusedxml.ElementTree import parse

        catalogue = Path(catalogue)
        root = parse(catalogue).getroot()
        wanted = root.get("gameSystemId")
        for candidate in sorted(catalogue.parent.glob("*.gst")):
            if _root_of(candidate).get("id") == wanted:
                return cls(candidate, catalogue, root)
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
            options += options_of(self, [root], ())
        return options


@record
class Option:
    """A selection entry as reached from its parent: the links and groups on the way, then the entry."""

    via: tuple[ET.Element, ...]
    entry: ET.Element

    @property
    def chain(self) -> tuple[ET.Element, ...]:
        """The elements whose modifiers, constraints and contents make the selection: links, then the entry."""
        return tuple(item for item in self.via if tag_of(item) == "entryLink") + (self.entry,)

    @property
    def name(self) -> str:
        return self.entry.get("name", "")

    @property
    def groups(self) -> tuple[ET.Element, ...]:
        """The selection entry groups on the way (a linked group's link stands for it)."""
        return tuple(item for item in self.via if tag_of(item) == "selectionEntryGroup")

    def ids(self) -> set[str]:
        return {item.get("id", "") for item in self.via + (self.entry,)}


def options_of(data: Data, holders: list[ET.Element], via: tuple[ET.Element, ...]) -> list[Option]:
    """The entries `holders` offer: their selection entries, entry links and groups, through groups."""
    found: list[Option] = []
    for holder in holders:
        for entry in kids(holder, "selectionEntries", "selectionEntry"):
            found.append(Option(via, entry))
        for link in kids(holder, "entryLinks", "entryLink"):
            target = data.target(link)
            if tag_of(target) == "selectionEntryGroup":
                found += options_of(data, [link, target], via + (link, target))
            else:
                found.append(Option(via + (link,), target))
        for group in kids(holder, "selectionEntryGroups", "selectionEntryGroup"):
            found += options_of(data, [group], via + (group,))
    return found
