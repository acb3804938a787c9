"""The README's API examples (a curl line whose comment names an oddscalc command line) answer
what their comments say."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlparse

import pytest

from clirun import run
from web.test_app import DATA
from web.uploading import multipart

README = (Path(__file__).parent.parent.parent / "README.md").read_text(encoding="utf-8")
CURLS = re.findall(r"^curl -s (.+?)\s+#[^`\n]*`oddscalc ([^`]+)`$", README, re.M)


def test_the_readme_shows_the_api():
    assert {urlparse(shlex.split(line)[-1]).path for line, _ in CURLS} == {"/api/query", "/api/grid"}


@pytest.mark.parametrize("line, command", CURLS)
def test_the_readmes_api_example_answers_what_its_comment_says(client, capsys, tmp_path, monkeypatch, line, command):
    monkeypatch.chdir(tmp_path)
    for name, path in (("my_list.rosz", "space_marines.rosz"), ("their_list.rosz", "ork_war_horde.rosz")):
        (tmp_path / name).write_bytes((DATA / "battlescribe" / "bsdata" / path).read_bytes())  # the README's cp
    words = shlex.split(line)
    url = urlparse(words[-1])
    fields, files = {}, {}
    for flag, value in zip(words, words[1:]):
        if flag == "-F":
            name, value = value.split("=", 1)
            if value.startswith("@"):
                files[name] = (value[1:], (tmp_path / value[1:]).read_bytes())
            else:
                fields[name] = value
    if files:
        body, kind = multipart(fields, files)
        response = client.post(url.path, content=body, headers={"content-type": kind})
    else:
        response = client.get(f"{url.path}?{url.query}")
    assert response.status_code == 200, response.text
    assert response.text == run(capsys, *shlex.split(command)).out
