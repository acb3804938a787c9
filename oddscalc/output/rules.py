"""The rules reference (`docs/rules.md`, shipped as package data): read whole or by section."""

from __future__ import annotations

import re
from importlib import resources

from ..errors import InputError

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", re.MULTILINE)


def text() -> str:
    """The whole rules reference."""
    return resources.files("oddscalc.data").joinpath("rules.md").read_text(encoding="utf-8")


def sections() -> dict[str, str]:
    """Every numbered section ("1", "1.2", ...) and its text, up to the next heading of its level or above."""
    reference = text()
    headings = list(_HEADING.finditer(reference))
    found = {}
    for i, heading in enumerate(headings):
        level = len(heading.group(1))
        end = next((h.start() for h in headings[i + 1:] if len(h.group(1)) <= level), len(reference))
        found[heading.group(2)] = reference[heading.start():end].rstrip().removesuffix("---").rstrip()
    return found


def section(number: str) -> str:
    """The section `number` ("2.5", "§2.5" or "3"), or the one-line error listing them."""
    key = str(number).strip().lstrip("§").rstrip(".")
    found = sections()
    if key not in found:
        raise InputError("section", number, f"expected a section of the rules: {', '.join(found)}")
    return found[key]
