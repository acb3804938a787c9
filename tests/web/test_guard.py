"""The page's guard (web/guard.py, pure ASGI middleware): a Host header the server does not answer to is refused
in one line (DNS rebinding), and a Host header's name is read as a browser writes it."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from oddscalc.web.app import create_app
from oddscalc.web.guard import Hosts, host_name


@pytest.mark.parametrize("serving, allowed, host, answered", [
    ("127.0.0.1", (), "localhost:8000", True),
    ("127.0.0.1", (), "127.0.0.1:8000", True),
    ("127.0.0.1", (), "[::1]:8000", True),
    ("127.0.0.1", (), "LOCALHOST.", True),
    ("127.0.0.1", (), "evil.example:8000", False),  # a page elsewhere, its name rebound to this machine
    ("127.0.0.1", (), "evil.localhost.example", False),
    ("127.0.0.1", (), "", False),
    ("127.0.0.1", (), "192.168.1.5:8000", False),  # not the address it listens on
    ("0.0.0.0", (), "192.168.1.5:8000", True),  # every address: any of its addresses (rebinding needs a name)
    ("0.0.0.0", (), "[fe80::1]:8000", True),
    ("0.0.0.0", (), "evil.example", False),
    ("0.0.0.0", ("club.example",), "club.example:8000", True),
    ("192.168.1.5", (), "192.168.1.5", True),
    ("192.168.1.5", (), "10.0.0.1", False),
])
def test_the_host_header_is_one_this_server_answers_to(serving, allowed, host, answered):
    with TestClient(create_app(hosts=Hosts.serving(serving, allowed)), base_url="http://localhost") as client:
        response = client.get("/api/query", params={"q": "roll 2d6 --exact"}, headers={"host": host})
    if answered:
        assert response.status_code == 200, response.text
    else:
        assert response.status_code == 400
        line = response.text.strip()
        assert line.startswith(f"error: Host {host[:80] or chr(39) * 2}: not a name this server answers to")
        assert "--allowed-host" in line and "\n" not in line
        assert response.headers["content-security-policy"].startswith("default-src 'none'")


@pytest.mark.parametrize("header, name", [("localhost:8000", "localhost"), ("[::1]:80", "::1"), ("::1", "::1"),
                                          ("Example.ORG.", "example.org"), ("a.b:1:2", "a.b:1:2")])
def test_a_host_headers_name(header, name):
    assert host_name(header) == name


@pytest.mark.parametrize("path", ["/", "/api/query?q=roll+2d6+--exact", "/static/page.js", "/nothing-here"])
def test_every_answer_carries_the_safety_headers(client, path):
    from oddscalc.web.guard import POLICY

    response = client.get(path)
    assert response.headers["content-security-policy"] == POLICY and "default-src 'none'" in POLICY
    assert (response.headers["x-content-type-options"], response.headers["referrer-policy"],
            response.headers["x-frame-options"]) == ("nosniff", "no-referrer", "DENY")
