"""The page's uploads (web/uploads.py): a multipart form read whole in memory within its caps, a few at a time and
one a client, within a deadline and never silent for long; its parts as text fields and files."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.testclient import TestClient

from oddscalc.web.app import create_app
from oddscalc.web.runs import Limits, Refused
from oddscalc.web.uploads import grid_words, parse_form
from web.uploading import multipart


def test_an_upload_too_large_or_not_a_form_is_refused_before_it_is_read(client):
    app = create_app(Limits(upload=1000))
    with TestClient(app, base_url="http://localhost") as small:
        body, kind = multipart({}, {"roster": ("x.toml", b"#" * 5000)})
        response = small.post("/api/grid", content=body, headers={"content-type": kind})
        assert response.status_code == 400 and response.json() == {"error": "error: FILE: at most 1,000 bytes in all"}
        said = small.post("/api/grid", content=body[:500], headers={"content-type": kind, "content-length": "5x"})
        assert said.status_code == 400 and said.json() == {"error": "error: FILE: at most 1,000 bytes in all"}
    not_a_form = {"error": "error: FILE: expected a form with a roster file (multipart/form-data)"}
    for headers in ({"content-type": "text/plain"}, {}):
        response = client.post("/api/grid", content=b"x", headers=headers)
        assert response.status_code == 400 and response.json() == not_a_form


UPLOAD = multipart({"game": "epic", "options": "--exact --attackers 'Whirlwind Battery'"}, {})


def _uploads_while_one_is_slow(limits: Limits, others: list[str], late: float = 0.0) -> tuple:
    """A first upload from 10.0.0.1 sends 10 bytes, then waits (`late` seconds, or until the others are answered);
    meanwhile an upload from each of `others` (addresses); then one more from 10.0.0.1. Every answer, in order."""
    import httpx2 as httpx

    body, kind = UPLOAD

    async def main() -> tuple:
        app = create_app(limits)
        sent, release = asyncio.Event(), asyncio.Event()

        async def slowly():
            yield body[:10]
            sent.set()
            if late:
                await asyncio.sleep(late)
            await release.wait()
            yield body[10:]

        def client(address: str) -> Any:
            return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 1)),
                                     base_url="http://localhost")

        async with client("10.0.0.1") as slow:
            first = asyncio.ensure_future(slow.post("/api/grid", content=slowly(), headers={"content-type": kind}))
            await sent.wait()
            await asyncio.sleep(0.05)
            answers = []
            for address in others:
                async with client(address) as other:
                    answers.append(await other.post("/api/grid", content=body, headers={"content-type": kind}))
            release.set()
            return (await first, *answers, await slow.post("/api/grid", content=body, headers={"content-type": kind}))

    return asyncio.run(main())


def test_uploads_are_read_a_few_at_a_time():
    """While `uploads` forms are being read (held in memory), another is told to come back: 150 uploads
    at once no longer hold 150 bodies."""
    first, second, third = _uploads_while_one_is_slow(Limits(uploads=1), ["10.0.0.2"])
    assert second.status_code == 503 and second.headers["retry-after"] == "5"
    assert second.json() == {"error": "error: the server is busy (1 upload read at once): try again in a few seconds"}
    assert first.status_code == 200 and third.status_code == 200  # read in turn


def test_a_client_has_one_upload_read_at_a_time_and_the_others_theirs():
    """Four slow uploads from one client held every upload slot: now its second waits its turn (429), and
    another client's is read meanwhile."""
    first, own, other, after = _uploads_while_one_is_slow(Limits(uploads=2), ["10.0.0.1", "10.0.0.2"])
    assert own.status_code == 429 and own.headers["retry-after"] == "2"
    assert own.json() == {"error": "error: an upload of yours is being read here (one at a time): wait for its answer"}
    assert other.status_code == 200 and first.status_code == 200 and after.status_code == 200


def test_an_upload_that_arrives_too_slowly_is_refused_and_frees_its_place():
    first, after = _uploads_while_one_is_slow(Limits(uploads=1, upload_seconds=0.3), [], late=5)
    assert first.status_code == 400 and first.json() == {
        "error": "error: FILE: the upload took more than 0.3 s to arrive: try again on a faster connection, or with a "
                 "smaller file"}
    assert after.status_code == 200  # its place is free again


def test_an_upload_that_stops_arriving_is_refused_at_once():
    first, after = _uploads_while_one_is_slow(Limits(uploads=1, upload_stall=0.2), [], late=5)
    assert first.status_code == 400 and first.json() == {
        "error": "error: FILE: the upload stopped arriving for 0.2 s: try again"}
    assert after.status_code == 200


def test_a_forms_parts_are_text_fields_and_named_files():
    body, kind = multipart({"game": "epic", "options": "--exact"}, {"roster": ("../../etc/army.rosz", b"PK data")})
    assert parse_form(body, kind) == {"game": "epic", "options": "--exact", "roster": ("army.rosz", b"PK data")}
    assert parse_form(b"", kind) == {}  # an empty form
    boundary = kind.partition("boundary=")[2]
    nameless = f'--{boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--{boundary}--\r\n'.encode()
    assert parse_form(nameless, kind) == {}  # a part without a name is no field
    many, _ = multipart({f"field{index}": str(index) for index in range(30)}, {})
    assert len(parse_form(many, kind)) == 20  # the first 20 parts, no more


def test_a_form_of_nothing_is_empty_and_one_that_does_not_parse_is_refused():
    body, kind = multipart({}, {})
    assert body == b"--oddscalcboundary--\r\n" and parse_form(body, kind) == {}
    assert parse_form(b"\r\n--oddscalcboundary--", kind) == {}
    for garbage in (b"hello", b"-- x --", b"--oddscalcboundaryx"):
        with pytest.raises(Refused) as refused:
            parse_form(garbage, kind)
        assert (refused.value.line, refused.value.option) == ("error: FILE: a form that does not parse", "FILE")


@pytest.mark.parametrize("parts, words, uploads", [
    ({"game": "epic"}, ["grid", "--game", "epic"], {}),
    ({"game": " epic ", "options": "--attackers 'Whirlwind Battery'", "sort": "mean", "trials": "2000", "seed": "7",
      "exact": "on", "assault": "on", "combat": "true"},
     ["grid", "--game", "epic", "--attackers", "Whirlwind Battery", "--sort", "mean", "--trials", "2000", "--seed",
      "7", "--exact", "--assault", "--combat"], {}),
    ({"roster": ("army.rosz", b"1"), "against": ("army.rosz", b"2"), "exact": "off"},
     ["grid", "army.rosz", "--against", "targets-army.rosz"], {"army.rosz": b"1", "targets-army.rosz": b"2"}),
    ({"roster": ("army.rosz", b"1"), "against": ("army.rosz", b"1")}, ["grid", "army.rosz", "--against", "army.rosz"],
     {"army.rosz": b"1"}),
])
def test_a_grids_words_are_the_command_lines_and_its_files_the_uploads(parts, words, uploads):
    found, files = grid_words(parts)
    assert found == words and files.uploads == uploads and not files.local


@pytest.mark.parametrize("parts, line, option", [
    ({"game": "epic", "options": "--attackers 'Whirl"}, "error: --options: the options do not parse (No closing "
                                                       "quotation)", "--options"),
    ({}, "error: FILE: upload a roster (.toml, .ros or .rosz), or choose a bundled one", "FILE"),
])
def test_a_grid_form_that_names_nothing_to_grid_is_refused_naming_its_field(parts, line, option):
    with pytest.raises(Refused) as refused:
        grid_words(parts)
    assert (refused.value.line, refused.value.option) == (line, option)


class _Stream:
    """A request whose body arrives in these chunks, then (with `stall`) nothing for that long."""

    def __init__(self, chunks: list[bytes], stall: float = 0.0) -> None:
        self.chunks, self.stall = chunks, stall

    async def stream(self):
        for chunk in self.chunks:
            yield chunk
        if self.stall:
            await asyncio.sleep(self.stall)


def test_a_body_is_read_to_exactly_its_limit_and_its_refusals_name_the_file():
    from oddscalc.web.uploads import _body

    assert asyncio.run(_body(_Stream([b"x" * 600, b"y" * 400]), 1000, 1.0)) == b"x" * 600 + b"y" * 400
    for stream, most, stall, line in (
            (_Stream([b"x" * 600, b"y" * 401]), 1000, 1.0, "error: FILE: at most 1,000 bytes in all"),
            (_Stream([b"x"], stall=5), 1000, 0.05, "error: FILE: the upload stopped arriving for 0.05 s: try again")):
        with pytest.raises(Refused) as refused:
            asyncio.run(_body(stream, most, stall))
        assert (refused.value.line, refused.value.option) == (line, "FILE")
