"""What the importers share (`oddscalc.lists.battlescribe.report`): a cell split as BattleScribe writes it,
counts in a name, and the lines of the report."""

from __future__ import annotations

from oddscalc.lists.battlescribe.report import Mapped, Note, cells, counted, items, lines


def test_cells_lines_items_and_counts_split_as_battlescribe_writes_them():
    assert cells("Bolters<BR><BR>Missile Launcher") == ["Bolters", "Missile Launcher"]
    assert cells("30cm<br/>and (15cm)") == ["30cm", "and (15cm)"]
    assert lines("A<BR><BR>B<br>or C") == ["A", "", "B", "or C"]
    assert items("Multiple Wounds (D3, Clipped), Poison Attacks, -") == ["Multiple Wounds (D3, Clipped)",
                                                                       "Poison Attacks"]
    assert counted("8x Skitarii Vanguard, 4x Skorpius Dunerider") == {"skitarii vanguard": 8,
                                                                       "skorpius dunerider": 4}
    assert counted("Pair of Land Raiders") == {"land raiders": 2} and counted("Trenches, Barricades") == {}
    assert Note("U", "W", "text", "counted as 3").line(False) == "U, W: text (counted as 3)"
    assert cells(None) == [""] and lines(None) == [""] and items(None) == []
    assert counted("2X Lascannon") == {"lascannon": 2}  # the apps write x or X
    mapped = Mapped({})
    mapped.note("a line before the unit has a name")
    assert mapped.notes == [Note("?", None, "a line before the unit has a name", "imported without it")]
    assert mapped.leave_out("why").table == {} and mapped.notes[-1] == Note("?", None, "why", "left out")
