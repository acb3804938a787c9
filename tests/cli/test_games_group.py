"""A game of one query keeps its group (issue 35): `oddscalc toy shoot`, not `oddscalc toy`."""

from __future__ import annotations

from oddscalc.cli import commands


def test_a_game_of_one_query_keeps_its_group(monkeypatch, capsys):
    real = commands.lazy_module
    monkeypatch.setattr(commands, "lazy_module", lambda name: "toy_commands" if name == "toy" else real(name))
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    group = commands.LazyGroup(name="oddscalc")
    toy = group.get_command(None, "toy")
    assert toy.name == "toy" and list(toy.commands) == ["shoot"]
    toy.main(["shoot", "--dice", "3"], prog_name="oddscalc toy", standalone_mode=False)
    assert capsys.readouterr().out == "toy shoot 3\n"
