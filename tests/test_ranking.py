"""A balance study's rows ranked (docs/balance.md; oddscalc/studies/ranking.py): what is set apart, each entry's index
within its kind, outliers, ranks and suggested points; figures worked by hand."""

from __future__ import annotations

import pytest

from oddscalc.studies import ranking


def row(army, entry, kind, value, points=100, queries=None, **more):
    return {"army": army, "entry": entry, "kind": kind, "points": points, "notes": 0, "value": value,
            "queries": queries if queries is not None else {"T": [f"{army} {entry}"]}, **more}


def ranked(rows, far=2.0):
    found, apart = ranking.rank(rows, far)
    return {row["entry"]: row for row in found}, found, apart


def test_each_index_is_within_its_kind_and_the_ranks_read_it():
    """Infantry values 1, 3, 0.5, 0.9 (median 0.95); one war engine 0.2 (its own median): each index its value over
    its kind's median; a war engine of 0.2 is its kind's middle (1), never compared with infantry's 3."""
    rows = [row("A", "a1", "infantry", 1.0), row("A", "a2", "infantry", 3.0), row("B", "b1", "infantry", 0.5),
            row("B", "b2", "war-engine", 0.2), row("A", "a3", "infantry", 0.9)]
    by, found, apart = ranked(rows)
    assert apart == []
    assert {entry: r["index"] for entry, r in by.items()} == pytest.approx(
        {"a1": 1 / 0.95, "a2": 3 / 0.95, "b1": 0.5 / 0.95, "b2": 1.0, "a3": 0.9 / 0.95})
    assert [r["entry"] for r in found] == ["a2", "a1", "b2", "a3", "b1"]
    assert [(r["rank"], r["kind_rank"], r["army_rank"]) for r in found] == [(1, 1, 1), (2, 2, 2), (3, 1, 1),
                                                                            (4, 3, 3), (5, 4, 2)]
    assert by["a2"]["outlier"] == "high" and by["a2"]["far_out"] == "3.2× its kind's median"  # 3/0.95 over 1
    assert {r["entry"] for r in found if r["outlier"]} == {"a2"}  # 0.5/0.95 = 0.53: not under 1/2


def test_an_outlier_is_strictly_beyond_the_factor():
    by, _, _ = ranked([row("A", entry, "infantry", value) for entry, value in (("a", 1.0), ("b", 2.0), ("c", 4.0))])
    assert [(by[e]["index"], by[e]["outlier"]) for e in "abc"] == [(0.5, ""), (1.0, ""), (2.0, "")]
    low, _, _ = ranked([row("A", entry, "infantry", value) for entry, value in (("a", 1.0), ("b", 2.0), ("c", 4.0))],
                       far=1.5)
    assert (low["a"]["outlier"], low["c"]["outlier"]) == ("low", "high")


def test_an_entry_that_hurts_nothing_or_copies_another_is_apart_and_said():
    """The copy (same points, kind and queries) of A's entry in B and C is ranked once, in A (first by army), its
    row naming where else it appears; an entry of value 0 (and no engagement) is apart."""
    same = {"T": ["oddscalc epic shoot --shots 4"]}
    rows = [row("C", "Spacecraft", "spacecraft", 2.0, queries=same), row("A", "Spacecraft", "spacecraft", 2.0,
                                                                          queries=same),
            row("B", "Orbit", "spacecraft", 2.0, queries=same), row("B", "Spacecraft", "spacecraft", 2.0, points=150,
                                                                     queries=same),
            row("A", "Bunker", "infantry", 0.0)]
    by, found, apart = ranked(rows)
    assert [r["entry"] + "/" + r["army"] for r in found] == ["Spacecraft/A", "Spacecraft/B"]  # 150 points: not a copy
    assert [r["also_in"] for r in found] == ["B: Orbit; C: Spacecraft", ""]
    assert [(a.army, a.name, a.reason) for a in apart] == [
        ("A", "Bunker", "hurts no reference target (no weapon oddscalc models that can, and no engagement won): "
                        "not ranked"),
        ("B", "Orbit", "the same entry as A: Spacecraft (its points and figures): ranked there"),
        ("C", "Spacecraft", "the same entry as A: Spacecraft (its points and figures): ranked there")]
    assert ranked([row("A", "Brawlers", "infantry", 0.0, engage_value=0.3)])[1]  # an engagement won is ranked


def test_suggested_points_put_an_entry_at_its_kinds_median_within_its_quartiles():
    """Five infantry entries of 100 points, values 1 to 5 (median 3: indexes 1/3 to 5/3; quartiles 2/3 and 4/3).
    The entry of value 5 (index 5/3) at its kind's median would cost 100 × 5/3 ≈ 165 (rounded to 5); between its
    kind's third and first quartile: 100 × (5/3)/(4/3) = 125 to 100 × (5/3)/(2/3) = 250."""
    by, _, _ = ranked([row("A", str(value), "infantry", float(value)) for value in (1, 2, 3, 4, 5)])
    top = by["5"]
    assert (top["suggested_points"], top["suggested_points_low"], top["suggested_points_high"]) == (165, 125, 250)
    assert by["3"]["suggested_points"] == 100  # the median entry is priced right
    assert (by["1"]["suggested_points_low"], by["1"]["suggested_points_high"]) == (25, 50)


def test_a_sampled_index_widens_the_suggested_band_by_two_standard_errors():
    rows = [row("A", str(value), "infantry", float(value), value_stderr=0.0) for value in (1, 2, 3, 4)]
    rows.append(row("A", "5", "infantry", 5.0, value_stderr=0.3))  # its index's error: 0.3 / 3 = 0.1
    by, _, _ = ranked(rows)
    assert by["5"]["index_stderr"] == pytest.approx(0.1)
    assert by["5"]["suggested_points_low"] == 5 * round(100 * (5 / 3 - 0.2) / (4 / 3) / 5)  # 110
    assert by["5"]["suggested_points_high"] == 5 * round(100 * (5 / 3 + 0.2) / (2 / 3) / 5)  # 280


def test_an_engagement_adds_its_own_index_and_the_index_is_their_mean():
    """Shooting values 1, 2, 3 (median 2), engagement values 0.2, 0.4 and none (median 0.3): the index of an entry
    that fights is the mean of its two indexes, of one that cannot its shooting index."""
    rows = [row("A", "a", "infantry", 1.0, engage_value=0.2), row("A", "b", "infantry", 2.0, engage_value=0.4),
            row("A", "c", "infantry", 3.0, engage_value=None)]
    by, _, _ = ranked(rows)
    assert by["a"]["engage_index"] == pytest.approx(2 / 3) and by["b"]["engage_index"] == pytest.approx(4 / 3)
    assert by["a"]["index"] == pytest.approx((0.5 + 2 / 3) / 2) and by["c"]["index"] == pytest.approx(1.5)
    assert by["c"]["engage_index"] is None


def test_two_releases_side_by_side_say_what_moved():
    """The new release re-prices a1 (100 → 150) and makes a2 an outlier no more, b1 is new, c1 gone; a copy is
    matched through the entry it copies (also_in)."""
    def judged(army, entry, points, index, outlier, also_in=""):
        return {"army": army, "entry": entry, "points": points, "index": index, "outlier": outlier,
                "also_in": also_in}

    old = [judged("A", "a1", 100, 1.0, ""), judged("A", "a2", 100, 3.0, "high", also_in="B: a2"),
           judged("C", "c1", 50, 1.0, "")]
    new = [judged("A", "a1", 150, 0.7, ""), judged("B", "a2", 100, 1.5, ""), judged("B", "b1", 80, 0.2, "low")]
    rows, moved = ranking.compare(new, old)
    by = {row["entry"]: row for row in rows}
    assert (by["a1"]["old_points"], by["a1"]["points_moved"], by["a1"]["old_index"]) == (100, 50, 1.0)
    assert by["a1"]["index_moved"] == pytest.approx(-0.3)
    assert (by["a2"]["old_outlier"], by["a2"]["points_moved"]) == ("high", 0)  # B's copy of A's a2, then
    assert all(by["b1"][key] is None for key in ranking.COMPARED)
    assert moved == {"points_moved": [{"army": "A", "entry": "a1", "old_points": 100, "points": 150}],
                     "outliers_come": [{"army": "B", "entry": "b1", "outlier": "low"}],
                     "outliers_gone": [{"army": "A", "entry": "a2", "old_outlier": "high"}],
                     "new": [{"army": "B", "entry": "b1"}],
                     "gone": [{"army": "A", "entry": "a2"}, {"army": "C", "entry": "c1"}]}  # A sells a2 no more
    assert ranking.compare_notes(moved)[0] == "against the old release, 1 moved in points: a1 (A, 100 → 150)"


def test_a_kind_whose_median_index_is_not_one_judges_and_prices_by_it():
    """With engagements the index is a mean of two indexes, so a kind's median index need not be 1: shooting values
    1, 2, 4 (median 2), engagement values 0.5, 0.1, 0.4 (median 0.4): indexes (0.5 + 1.25)/2 = 0.875, (1 + 0.25)/2
    = 0.625, (2 + 1)/2 = 1.5; median 0.875. The outlier lines, how far out and the suggested points read that
    median, not 1."""
    rows = [row("A", "a", "infantry", 1.0, engage_value=0.5), row("A", "b", "infantry", 2.0, engage_value=0.1),
            row("A", "c", "infantry", 4.0, engage_value=0.4)]
    by, _, _ = ranked(rows, far=1.6)
    assert {e: by[e]["index"] for e in "abc"} == pytest.approx({"a": 0.875, "b": 0.625, "c": 1.5})
    assert all(by[e]["kind_median"] == pytest.approx(0.875) for e in "abc")
    assert by["c"]["outlier"] == "high"  # 1.5 > 1.6 × 0.875 = 1.4 (not 1.6 / 0.875 = 1.83)
    assert by["b"]["outlier"] == ""  # 0.625 is over 0.875 / 1.6 = 0.547
    assert by["c"]["far_out"] == "1.7× its kind's median"
    assert by["c"]["suggested_points"] == 170  # 100 × 1.5 / 0.875 = 171.4


def test_what_moved_is_said_in_words():
    """Outliers that came (a row no outlier before, or another one) and went (one no longer that outlier), entries
    new and gone, and more than `shown` said as "and N more"; an entry's name may hold ": "."""
    def judged(army, entry, points, outlier, also_in=""):
        return {"army": army, "entry": entry, "points": points, "index": 1.0, "outlier": outlier, "also_in": also_in}

    old = [judged("A", "x", 100, "low"), judged("A", "y", 100, "high"), judged("A", "z", 100, ""),
           judged("A", "w", 100, "low"), judged("A", "Lord: Mounted", 100, "", also_in="C: v; B: Lord: Mounted")]
    new = [judged("A", "x", 100, "high"), judged("A", "y", 100, ""), judged("A", "z", 100, "low"),
           judged("A", "w", 100, "low"), judged("B", "Lord: Mounted", 100, ""), judged("A", "n1", 50, ""),
           judged("A", "n2", 50, "")]  # w stays low: neither come nor gone
    rows, moved = ranking.compare(new, old)
    assert [item["entry"] for item in moved["outliers_come"]] == ["x", "z"]
    assert [(item["entry"], item["old_outlier"]) for item in moved["outliers_gone"]] == [("x", "low"), ("y", "high")]
    assert moved["new"] == [{"army": "A", "entry": "n1"}, {"army": "A", "entry": "n2"}]
    assert moved["gone"] == [{"army": "A", "entry": "Lord: Mounted"}, {"army": "C", "entry": "v"}]
    assert next(r for r in rows if r["entry"] == "Lord: Mounted")["old_points"] == 100  # matched as B's copy
    assert ranking.compare_notes(moved, shown=1) == [
        "against the old release, 2 outliers that came: x (A, high) and 1 more",
        "against the old release, 2 outliers that went: x (A, low) and 1 more",
        "against the old release, 2 new entries: n1 (A) and 1 more",
        "against the old release, 2 entries gone: Lord: Mounted (A) and 1 more"]
    assert ranking.compare_notes(moved, shown=2)[2] == "against the old release, 2 new entries: n1 (A), n2 (A)"


def test_a_sampled_index_of_two_parts_has_their_errors_combined():
    """An index that is the mean of a shooting and an engagement index: its error is the root of the sum of their
    squared errors, halved. Values 1, 2, 3 (median 2), the last ± 0.4; engagements 0.1, 0.2, 0.3 (median 0.2), the
    last ± 0.06: errors 0.2 and 0.3, so 0.5 × √(0.04 + 0.09)."""
    rows = [row("A", "a", "infantry", 1.0, engage_value=0.1, value_stderr=0.0, engage_value_stderr=0.0),
            row("A", "b", "infantry", 2.0, engage_value=0.2, value_stderr=0.0, engage_value_stderr=0.0),
            row("A", "c", "infantry", 3.0, engage_value=0.3, value_stderr=0.4, engage_value_stderr=0.06)]
    by, _, _ = ranked(rows)
    assert by["c"]["index_stderr"] == pytest.approx(0.5 * (0.04 + 0.09) ** 0.5)
