"""Army lists written by hand for the importer's tests: a roster's XML as BattleScribe saves it,
built from selections and profiles (tests/battlescribe/)."""

from __future__ import annotations

from pathlib import Path

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" '
        'name="x" gameSystemName="{system}" gameSystemRevision="{revision}"><forces><force name="f">'
        "<selections>{selections}</selections></force></forces></roster>")
T9A_SYSTEM = {"system": "The 9th Age: Fantasy Battles 2nd Edition 2024", "revision": "56"}


def ros(tmp_path: Path, selections: str, system: str = "Epic Armageddon", revision: str = "38",
        name: str = "list.ros") -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(system=system, revision=revision, selections=selections), encoding="utf-8")
    return path


def profile(name: str, type_name: str, **characteristics: str) -> str:
    cells_xml = "".join(f'<characteristic name="{key.replace("_", " ")}">{value}</characteristic>'
                        for key, value in characteristics.items())
    return f'<profile name="{name}" typeName="{type_name}"><characteristics>{cells_xml}</characteristics></profile>'


def selection(name: str, *profiles: str, number: int = 1, kind: str = "unit", points: float = 0,
              children: str = "", rules: str = "") -> str:
    return (f'<selection name="{name}" number="{number}" type="{kind}">{rules}<profiles>{"".join(profiles)}'
            f'</profiles><costs><cost name="pts" value="{points}"/></costs><selections>{children}</selections>'
            "</selection>")


def model(name: str, number: int, *, height: str = "Standard", defensive: dict, offensive: list[dict],
          extra: str = "", children: str = "") -> str:
    parts = [profile(f"{name} Size", "0 Size", Height=height),
             profile(f"{name} Defensive", "2 Defensive", **defensive)]
    parts += [profile(part.pop("name", f"{name} Offensive"), "3 Offensive", **part) for part in offensive]
    return selection(name, *parts, extra, number=number, kind="model", children=children)


def rules(*names: str) -> str:
    """A selection's rules, by name."""
    return "<rules>" + "".join(f'<rule name="{name}"/>' for name in names) + "</rules>"
