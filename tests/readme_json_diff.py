"""Compare the JSON of every README example at two revisions, byte for byte (a refactoring check).

    python tests/readme_json_diff.py OLD_REV NEW_REV

Each `oddscalc ...` line of the old README's sh blocks runs at both revisions (git
worktrees in a scratch folder, this checkout's Python), with `--format json` and a fixed
`--seed` where the command takes them, in a folder holding the README's `army.toml`.
Plots are dropped. Prints one line per command: same, DIFFERENT, or skipped (with why),
and exits 1 if any differ; where only numbers differ, it says by how much at most (relative:
a change of the order a sum's rounding makes is about 1e-16). Not a test: it needs git history.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands(readme: str) -> list[list[str]]:
    found = []
    for kind, body in re.findall(r"```(\w*)\n(.*?)```", readme, re.S):
        if kind != "sh":
            continue
        for line in body.splitlines():
            words = shlex.split(line.strip(), comments=True) if line.strip().startswith("oddscalc ") else []
            if words and "--scheduler" not in words and ">" not in words:
                found.append(words[1:])
    return found


def variants(words: list[str]) -> list[list[str]]:
    """The command with JSON and a fixed seed; without the seed; as written (for commands that take neither)."""
    bare = as_json(words)[:-4]
    return [[*bare, "--format", "json", "--seed", "7"], [*bare, "--format", "json"], bare]


def as_json(words: list[str]) -> list[str]:
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("--plot", "--format", "--seed"):
            skip = True
            continue
        out.append(word)
    return [*out, "--format", "json", "--seed", "7"]


def gaps(old: object, new: object) -> float | None:
    """The largest relative gap between the numbers of two JSON values, or None when anything but
    a number differs (a key, a string, a length)."""
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and not isinstance(old, bool):
        return abs(old - new) / max(abs(old), abs(new)) if old != new else 0.0
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        found = [gaps(old[key], new[key]) for key in old]
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        found = [gaps(a, b) for a, b in zip(old, new)]
    else:
        return 0.0 if old == new else None
    return None if None in found else max(found, default=0.0)


def how_different(old: bytes, new: bytes) -> str:
    try:
        gap = gaps(json.loads(old), json.loads(new))
    except ValueError:
        return ""
    return "" if gap is None else f" (numbers only: largest relative gap {gap:.1e})"


def run(tree: Path, folder: Path, words: list[str]) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "oddscalc", *words], cwd=folder, env=env, capture_output=True,
                          timeout=600)
    return done.returncode, done.stdout


def main(old: str, new: str) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="readme-json-"))
    trees = {}
    for rev in (old, new):
        trees[rev] = scratch / rev
        subprocess.run(["git", "worktree", "add", "--detach", str(trees[rev]), rev], cwd=ROOT, check=True,
                       capture_output=True)
    readme = (trees[old] / "README.md").read_text(encoding="utf-8")
    toml = next(body for kind, body in re.findall(r"```(\w*)\n(.*?)```", readme, re.S) if kind == "toml")
    differ = 0
    try:
        for written in readme_commands(readme):
            for words in variants(written):
                answers = {}
                for rev, tree in trees.items():
                    folder = scratch / f"run-{rev}"
                    folder.mkdir(exist_ok=True)
                    (folder / "army.toml").write_text(toml, encoding="utf-8")
                    answers[rev] = run(tree, folder, words)
                if answers[old][0] != 2:  # a usage error: try the next variant
                    break
            (code_old, out_old), (code_new, out_new) = answers[old], answers[new]
            line = "oddscalc " + shlex.join(words)
            if code_old != 0:
                print(f"skipped (exit {code_old} at {old}): {line}")
            elif (code_old, out_old) == (code_new, out_new):
                print(f"same: {line}")
            else:
                differ += 1
                print(f"DIFFERENT (exit {code_new}){how_different(out_old, out_new)}: {line}")
    finally:
        for tree in trees.values():
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
