"""Shell completion from the grammar's declarations (`oddscalc.query.complete`), and the script a shell reads."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run

from oddscalc.query.complete import candidates


@pytest.mark.parametrize("words, expected", [
    ([""], ["roll", "sweep", "grid", "balance", "compare", "dust", "epic", "t9a"]),
    (["e"], ["epic"]),
    (["epic", ""], ["shoot", "barrage", "assault"]),
    (["t9a", "c"], ["combat", "charge"]),
    (["epic", "shoot", "--to"], ["--to-hit"]),
    (["epic", "shoot", "--weapon", ""], ["normal", "macro", "titan-killer", "lance"]),
    (["epic", "shoot", "--weapon", "m"], ["macro"]),
    (["roll", "2d6", "--format", "j"], ["json"]),
    (["roll", "2d6", "--maximised", ""], []),  # a number: nothing to choose from
    (["nothing", ""], []),
    (["balance", "--no-e"], ["--no-engage"]),
])
def test_what_may_follow_the_words(words, expected):
    assert candidates(words) == expected


def test_an_option_given_once_is_not_offered_again_unless_it_is_given_once_per_value():
    offered = candidates(["epic", "shoot", "--shots", "6", "--to-hit=4+", "--"])
    assert "--shots" not in offered and "--to-hit" not in offered and "--units" in offered
    assert "--other" in candidates(["epic", "assault", "--other", "2 cc 6+ ff 6+ armour 5+", "--oth"])


def test_the_command_line_completes_its_own_commands_too(capsys):
    assert run(capsys, "complete", "--", "").out.split() == [
        "roll", "sweep", "grid", "balance", "compare", "profiles", "import", "rules", "completion", "serve", "dust",
        "epic", "t9a"]  # the command line's own in --help's order (complete, its helper, is not offered)
    assert run(capsys, "complete", "--", "profiles", "--format", "m").out == "markdown\n"
    assert run(capsys, "complete", "--", "serve", "--o").out == "--open\n"
    script = run(capsys, "completion").out
    assert "complete -F _oddscalc oddscalc" in script and "oddscalc complete --" in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_reads_the_script_and_completes(tmp_path):
    """The script as bash runs it, with this interpreter's oddscalc first on the PATH."""
    launcher = tmp_path / "oddscalc"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m oddscalc \"$@\"\n")
    launcher.chmod(0o755)
    script = ('eval "$(oddscalc completion)"; COMP_WORDS=(oddscalc epic shoot --wea); COMP_CWORD=3; _oddscalc; '
              'echo "${COMPREPLY[@]}"; COMP_WORDS=(oddscalc t9a); COMP_CWORD=1; _oddscalc; echo "${COMPREPLY[@]}"')
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120,
                         cwd=Path(__file__).parent).stdout
    assert out.splitlines() == ["--weapon", "t9a"]

