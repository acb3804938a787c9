"""Army lists built from BattleScribe data files (a game system `.gst` and a catalogue `.cat`)
the way BattleScribe and New Recruit save them: the test corpus of real lists and the
catalogue sweep are made with it (`python -m oddscalc.lists.battlescribe.sweep`).

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

The data are read by `builder_catalogue`, the modifiers' conditions evaluated by
`builder_conditions`, and the `.ros` written by `builder_writing`.
"""

from __future__ import annotations

from typing import Any

import xml.etree.ElementTree as ET
from pathlib import Path

from .builder_catalogue import BuildError as BuildError
from .builder_catalogue import Data as Data
from .builder_catalogue import Option, kids, to_number, tag_of
from .builder_catalogue import options_of as options_of
from .builder_conditions import Force, Selection
from .builder_writing import RosterWriting
from ...core.record import record


@record
class Pick:
    """What to select: an entry by name (through groups), how many per parent copy, and inside it."""

    name: str
    number: int = 1
    picks: tuple[Pick, ...] = ()

    @classmethod
    def of(cls, spec: Any) -> Pick:
        """A pick from a name, or a table `{entry, number, select}` (a list spec in TOML)."""
        if isinstance(spec, str):
            return cls(spec)
        return cls(spec["entry"], int(spec.get("number", 1)), tuple(cls.of(item) for item in spec.get("select", ())))


class Builder(RosterWriting):
    """A roster of forces built from one catalogue, written as the apps write a `.ros`."""

    # --- choosing -------------------------------------------------------------------------
    def force(self, name: str | None = None) -> Force:
        """A new force of the named force entry (the first one that is not hidden by default)."""
        entries = [entry for root in (self.data.catalogue, self.data.system)
                   for entry in kids(root, "forceEntries", "forceEntry")]
        chosen = [entry for entry in entries if (name is None and entry.get("hidden") != "true")
                  or (name is not None and entry.get("name", "").casefold() == name.casefold())]
        if not chosen:
            raise BuildError(f"no force entry {name!r}: {', '.join(entry.get('name', '') for entry in entries)}")
        force = Force(self, chosen[0])
        self.forces.append(force)
        return force

    def select(self, parent: Force | Selection, pick: Pick) -> Selection:
        """Add the picked entry (and what it requires) under `parent`; return its selection."""
        options = (self.data.roots() if isinstance(parent, Force)
                   else options_of(self.data, list(parent.option.chain), ()))
        force = parent if isinstance(parent, Force) else parent.force
        holder = None if isinstance(parent, Force) else parent
        matches = [option for option in options if pick.name.casefold() in
                   {option.name.casefold(), *(item.get("name", "").casefold() for item in option.via
                                              if tag_of(item) == "entryLink")}]
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
        options = options_of(self.data, list(selection.option.chain), ())
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
                for constraint in kids(element, "constraints", "constraint"):
                    if (constraint.get("type") == "min" and constraint.get("field") == "selections"
                            and constraint.get("scope") in ("force", "roster")):
                        need = max(need, int(to_number(constraint.get("value"))))
            have = sum(item.number for item in force.selections if item.option.entry is option.entry)
            if need > have:
                selection = Selection(option, need - have, None, force)
                force.selections.insert(0, selection)
                self.complete(selection)

    def _limits(self, chain: tuple[ET.Element, ...], context: Selection, kind: str) -> list[int]:
        """The `kind` ("min"/"max") selections per parent copy that the elements' constraints set,
        after modifiers (a negative max: no limit)."""
        return [int(self._modified(chain, constraint.get("id", ""), to_number(constraint.get("value")), context,
                                   context))
                for element in chain for constraint in kids(element, "constraints", "constraint")
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

def build(catalogue: str | Path, name: str, picks: Any, force: str | None = None,
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


def from_spec(spec: dict[str, Any], folders: list[Path]) -> bytes:
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

    parser = argparse.ArgumentParser(prog="python -m oddscalc.lists.battlescribe.builder", description=main.__doc__)
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
