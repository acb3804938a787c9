"""A balance study's rows ranked (docs/balance.md): what is not ranked set apart (entries that hurt nothing, copies
of another entry), each ranked entry's index within its kind, its ranks, whether it is an outlier and how far, and
the points at which it would sit in its kind's middle.

The rows come from `balance.study`, one per entry: its `value` (the targets' worth it destroys per 100 points) and,
with engagements, its `engage_value` (its mean P(win) over the targets, per 100 points). Each is judged against
the entries of its own kind only (an Epic spacecraft against spacecraft: a bombardment of one turn is never set
beside a formation firing every turn):

- `shoot_index` = value / the kind's median value (of its entries that hurt a target), `engage_index` likewise;
- `index` = the mean of the two where the entry fights an engagement, else `shoot_index`; 1 is its kind's middle;
- `outlier`: "high" over `far`, "low" under 1/`far` (strictly), `far_out` saying how far ("3.1× its kind");
- `suggested_points` = points × index / the kind's median index: value is per point, so at those points the entry
  would sit at its kind's median; `suggested_points_low` and `_high`: the points that would put it at its kind's
  third and first quartile of index (a fair band, not one number), widened by two standard errors of its index
  when sampled; each rounded to 5 points.
"""

from __future__ import annotations

import json
import statistics
from typing import Any, Sequence

from ..core.record import record

ROUND = 5  # suggested points are a band: rounded to 5 points, as army books price


@record
class Apart:
    """An entry that is not ranked, and why (one the catalogues cannot model, one that hurts nothing, a copy)."""

    army: str
    name: str
    reason: str


KEYS = ["rank", "kind_rank", "army_rank", "army", "entry", "kind", "points", "notes", "value", "index", "outlier",
        "far_out", "suggested_points", "suggested_points_low", "suggested_points_high", "kind_median", "also_in"]


def rank(rows: Sequence[dict[str, Any]], far: float) -> tuple[list[dict[str, Any]], list[Apart]]:
    """The rows that are ranked, ranked and judged within their kind; and the entries set apart, with why."""
    ranked, apart = _fielded(rows)
    engaged = any("engage_value" in row for row in ranked)  # a study without engagements has no column of them
    for key, name in (("value", "shoot_index"), ("engage_value", "engage_index"))[:2 if engaged else 1]:
        middle = _middles(ranked, key)
        for row in ranked:
            figure, kind = row.get(key), row["kind"]
            row[name] = None if figure is None or kind not in middle else figure / middle[kind]
            row[f"{name}_stderr"] = None if row[name] is None else row.get(f"{key}_stderr", 0.0) / middle[kind]
    for row in ranked:
        both = [name for name in ("shoot_index", "engage_index") if row.get(name) is not None]
        row["index"] = sum(row[name] for name in both) / len(both) if both else 0.0
        row["index_stderr"] = (sum(row[f"{name}_stderr"] ** 2 for name in both) ** 0.5 / len(both)) if both else 0.0
    quartiles = _quartiles(ranked)
    for row in ranked:
        q1, median, q3 = quartiles[row["kind"]]
        index = row["index"]
        row["kind_median"] = median
        row["outlier"] = "high" if index > far * median else "low" if index < median / far else ""
        row["far_out"] = f"{index / median:.2g}× its kind's median" if median else ""
        error = 2 * row["index_stderr"]
        row["suggested_points"] = _rounded(row["points"] * index / median) if median else None
        row["suggested_points_low"] = _rounded(row["points"] * max(index - error, 0.0) / q3) if q3 else None
        row["suggested_points_high"] = _rounded(row["points"] * (index + error) / q1) if q1 else None
    ordered = sorted(ranked, key=lambda row: (-row["index"], row["army"].casefold(), row["entry"].casefold()))
    in_army: dict[str, int] = {}
    in_kind: dict[str, int] = {}
    for position, row in enumerate(ordered, 1):
        in_army[row["army"]] = in_army.get(row["army"], 0) + 1
        in_kind[row["kind"]] = in_kind.get(row["kind"], 0) + 1
        row["rank"], row["army_rank"], row["kind_rank"] = position, in_army[row["army"]], in_kind[row["kind"]]
    return [{**{key: row.get(key) for key in KEYS}, **{k: v for k, v in row.items() if k not in KEYS}}
            for row in ordered], apart


def _fielded(rows: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Apart]]:
    """The rows a player fields and that do something, each once: an entry that hurts no target and wins no
    engagement is apart; an entry with the same points, kind and figures' queries as another (a list's
    "Fortifications" copying one of its formations, one spacecraft sold by fourteen craftworlds) is ranked once,
    the first by army and name, its row saying where else it appears (`also_in`)."""
    kept: dict[str, dict[str, Any]] = {}
    apart: list[Apart] = []
    for row in sorted(rows, key=lambda row: (row["army"].casefold(), row["entry"].casefold())):
        if not row["value"] and not row.get("engage_value"):
            apart.append(Apart(row["army"], row["entry"], "hurts no reference target (no weapon oddscalc models "
                                                          "that can, and no engagement won): not ranked"))
            continue
        key = json.dumps([row["points"], row["kind"], row["queries"]], sort_keys=True)
        first = kept.get(key)
        if first is None:
            kept[key] = {**row, "also_in": ""}
            continue
        first["also_in"] = "; ".join(filter(None, [first["also_in"], f"{row['army']}: {row['entry']}"]))
        apart.append(Apart(row["army"], row["entry"], f"the same entry as {first['army']}: {first['entry']} (its "
                                                      "points and figures): ranked there"))
    return list(kept.values()), apart


def _middles(rows: Sequence[dict[str, Any]], key: str) -> dict[str, float]:
    """Each kind's median of a figure, over its entries whose figure is above 0."""
    kinds: dict[str, list[float]] = {}
    for row in rows:
        if row.get(key):
            kinds.setdefault(row["kind"], []).append(row[key])
    return {kind: statistics.median(values) for kind, values in kinds.items()}


def _quartiles(rows: Sequence[dict[str, Any]]) -> dict[str, tuple[float, float, float]]:
    """Each kind's first quartile, median and third quartile of index (inclusive: a kind of one entry is all
    three)."""
    kinds: dict[str, list[float]] = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row["index"])
    found = {}
    for kind, values in kinds.items():
        if len(values) == 1:
            found[kind] = (values[0],) * 3
        else:
            q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
            found[kind] = (q1, median, q3)
    return found


def _rounded(points: float) -> int:
    return int(ROUND * round(points / ROUND))


# --- two releases side by side --------------------------------------------------------------


COMPARED = ("old_points", "points_moved", "old_index", "index_moved", "old_outlier")


def compare(rows: Sequence[dict[str, Any]], old: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                                    dict[str, Any]]:
    """The new release's rows with the old one's figures beside them (`COMPARED`: its points, index and outlier mark
    there, and how far each moved; None where the entry is new), and what moved: the entries whose points moved,
    the outliers that came and those that went, the entries new and gone. An entry is matched by its army and
    name, a copy by the entry it copies (`also_in`)."""
    before = {key: row for row in old for key in _names(row)}
    after = {key: row for row in rows for key in _names(row)}
    out = []
    for row in rows:
        was = before.get((row["army"], row["entry"]))
        figures = dict.fromkeys(COMPARED) if was is None else {
            "old_points": was["points"], "points_moved": row["points"] - was["points"], "old_index": was["index"],
            "index_moved": row["index"] - was["index"], "old_outlier": was["outlier"]}
        out.append({**row, **figures})
    moved = [_named(row) | {"old_points": row["old_points"], "points": row["points"]}
             for row in out if row["points_moved"]]
    come = [_named(row) | {"outlier": row["outlier"]} for row in out
            if row["outlier"] and (row["old_outlier"] is None or row["old_outlier"] != row["outlier"])]
    gone = [_named(row) | {"old_outlier": row["outlier"]} for row in old if row["outlier"]
            and (after.get((row["army"], row["entry"])) or {}).get("outlier") != row["outlier"]]
    new = [_named(row) for row in out if row["old_points"] is None]
    left = [{"army": army, "entry": entry} for army, entry in before if (army, entry) not in after]
    return out, {"points_moved": moved, "outliers_come": come, "outliers_gone": gone, "new": new, "gone": left}


def compare_notes(found: dict[str, Any], shown: int = 5) -> list[str]:
    """What moved between the releases, in lines."""
    lines = []
    for key, said in (("points_moved", "moved in points"), ("outliers_come", "outliers that came"),
                      ("outliers_gone", "outliers that went"), ("new", "new entries"), ("gone", "entries gone")):
        items = found[key]
        if items:
            names = ", ".join(f"{item['entry']} ({item['army']}" + (
                f", {item['old_points']} → {item['points']}" if key == "points_moved" else
                f", {item.get('outlier') or item.get('old_outlier')}" if key.startswith("outliers") else "") + ")"
                for item in items[:shown])
            more = f" and {len(items) - shown} more" if len(items) > shown else ""
            lines.append(f"against the old release, {len(items)} {said}: {names}{more}")
    return lines


def _names(row: dict[str, Any]) -> list[tuple[str, str]]:
    """(army, entry) of a ranked row and of each copy it stands for (its `also_in`: "ARMY: ENTRY; …")."""
    copies = [tuple(part.split(": ", 1)) for part in (row.get("also_in") or "").split("; ") if ": " in part]
    return [(row["army"], row["entry"]), *((army, entry) for army, entry in copies)]


def _named(row: dict[str, Any]) -> dict[str, Any]:
    return {"army": row["army"], "entry": row["entry"]}
