"""The README's commands run as written: every `oddscalc ...` line of its code blocks, in a
scratch folder that holds the README's `army.toml`."""

import re
import shlex
import shutil
from pathlib import Path

import pytest
from clirun import run

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, re.S)
TOML = next(body for kind, body in BLOCKS if kind == "toml")
HERE = Path(__file__).resolve().parent
LISTS = {"my_list.rosz": HERE / "data" / "battlescribe" / "bsdata" / "space_marines.rosz",
         "their_list.rosz": HERE / "data" / "battlescribe" / "bsdata" / "ork_war_horde.rosz"}
FOLDERS = {"my_catalogues": HERE / "data" / "battlescribe" / "mini"}  # what the README's `cp -r` line makes


def test_the_readme_copies_the_test_lists():
    assert all(f"tests/data/battlescribe/bsdata/{path.name} {name}" in README for name, path in LISTS.items())
    assert all(f"cp -r tests/data/battlescribe/{path.name} {name}" in README for name, path in FOLDERS.items())


def test_the_readme_quotes_a_note_the_import_prints(capsys):
    quoted = re.search(r"`(note: Gargant: [^`]*)`", " ".join(README.split())).group(1)
    result = run(capsys, "import", str(LISTS["their_list.rosz"]))
    assert result.code == 0 and quoted in result.err.splitlines()


def commands() -> list[str]:
    found = []
    for kind, body in BLOCKS:
        if kind != "sh":
            continue
        for line in body.splitlines():
            line = line.strip()
            if line.startswith("oddscalc ") and "--scheduler" not in line:  # a cluster is not here to ask
                found.append(line)
    return found


COMMANDS = commands()


def test_the_readme_has_commands():
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("line", COMMANDS)
def test_a_readme_command_runs_as_written(capsys, tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "army.toml").write_text(TOML, encoding="utf-8")
    for name, test_list in LISTS.items():  # what the README's `cp` line makes
        shutil.copy(test_list, tmp_path / name)
    for name, folder in FOLDERS.items():
        shutil.copytree(folder, tmp_path / name)
    words = shlex.split(line, comments=True)
    if ">" in words:  # a shell redirection: the command is what comes before it
        words = words[:words.index(">")]
    result = run(capsys, *words[1:])
    assert result.code == 0, (line, result.err)
    assert result.out.strip(), line
    for word in words:
        if word.endswith((".png", ".svg", ".pdf")):
            assert (tmp_path / word).stat().st_size > 0, word


ERRORS = [(prompt[2:], answer) for kind, body in BLOCKS if not kind
          for prompt, answer in zip(body.splitlines(), body.splitlines()[1:]) if prompt.startswith("$ oddscalc ")]


def test_the_readme_shows_errors():
    assert len(ERRORS) >= 2


@pytest.mark.parametrize("line, message", ERRORS)
def test_a_readme_error_is_the_one_printed(capsys, line, message):
    result = run(capsys, *shlex.split(line)[1:])
    assert result.code == 2 and result.err.strip() == message


def test_no_package_registry_is_named_in_the_repository():
    """Projects are linked at their own repositories or docs; the hosts are spelled in pieces here."""
    import subprocess

    root = HERE.parent
    hosts = ["pypi" + ".org", "pythonhosted" + ".org", "npmjs" + ".com", "crates" + ".io"]
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    named = [(name, host) for name in tracked if (root / name).is_file()
             for host in hosts if host in (root / name).read_bytes().decode("utf-8", "replace")]
    assert named == []
