"""The page's uploads: a multipart form read whole in memory within its caps (never written to disk), and a
grid's words from an uploaded form."""

from __future__ import annotations

import asyncio
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..output.style import plural
from . import forms
from .runs import Busy, Limits, Refused


@dataclass
class Uploads:
    """The uploads being read: at most `limits.uploads` at once (a semaphore made in the server's loop), one a
    client."""

    reading: Optional[asyncio.Semaphore] = None
    clients: set[str] = field(default_factory=set)

    async def read(self, request: Any, limits: Limits, client: str) -> dict[str, Any]:
        """A multipart form read whole in memory (never written to disk), at most `limits.upload`
        bytes, at most `limits.uploads` read at once and one a client, its body within
        `limits.upload_seconds`, never silent for `limits.upload_stall`: text fields as str, files as
        (name, bytes)."""
        return await _read(self, request, limits, client)


async def _read(uploads: Uploads, request: Any, limits: Limits, client: str) -> dict[str, Any]:
    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        raise Refused("error: FILE: expected a form with a roster file (multipart/form-data)", "FILE")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limits.upload):
        raise Refused(f"error: FILE: at most {limits.upload:,} bytes in all", "FILE")
    if uploads.reading is None:
        uploads.reading = asyncio.Semaphore(limits.uploads)
    if client in uploads.clients:
        raise Busy("error: an upload of yours is being read here (one at a time): wait for its answer", 429, 2)
    if uploads.reading.locked():
        raise Busy(f"error: the server is busy ({plural(limits.uploads, 'upload')} read at once): try again in a few "
                   "seconds")
    async with uploads.reading:
        uploads.clients.add(client)
        try:
            body = await asyncio.wait_for(_body(request, limits.upload, limits.upload_stall), limits.upload_seconds)
        except (asyncio.TimeoutError, TimeoutError):
            raise Refused(f"error: FILE: the upload took more than {limits.upload_seconds:g} s to arrive: try again "
                          "on a faster connection, or with a smaller file", "FILE") from None
        finally:
            uploads.clients.discard(client)
    return parse_form(body, kind)


async def _body(request: Any, most: int, stall: float) -> bytes:
    """The body, at most `most` bytes, each part within `stall` seconds of the one before."""
    body = bytearray()
    parts = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(parts.__anext__(), stall)
        except StopAsyncIteration:
            return bytes(body)
        except (asyncio.TimeoutError, TimeoutError):
            raise Refused(f"error: FILE: the upload stopped arriving for {stall:g} s: try again", "FILE") from None
        body += chunk
        if len(body) > most:
            raise Refused(f"error: FILE: at most {most:,} bytes in all", "FILE")


def parse_form(body: bytes, kind: str) -> dict[str, Any]:
    """The parts of a multipart form: text fields as str, files as (their name, bytes)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {kind}\r\n\r\n".encode() + body)
    if not message.is_multipart():
        if body.strip(b"-\r\n ").removeprefix(kind.partition("boundary=")[2].encode()).strip(b"-\r\n "):
            raise Refused("error: FILE: a form that does not parse", "FILE")
        return {}  # an empty form
    parts: dict[str, Any] = {}
    for part in list(message.iter_parts())[:20]:
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str) or not name:  # (a parameter in RFC 2231's form is a tuple: not a field's)
            continue
        data = part.get_payload(decode=True) or b""
        assert isinstance(data, bytes)  # decode=True gives a part's bytes
        filename = part.get_filename()
        if filename is not None:
            if data:
                parts[name] = (Path(filename.replace("\\", "/")).name[:100] or "upload", data)
        else:
            parts[name] = data.decode("utf-8", "replace")
    return parts


def grid_words(parts: dict[str, Any]) -> tuple[list[str], Any]:
    """A grid's words from an uploaded form (`grid army.rosz --against theirs.rosz ...`, as the command
    line names the files), and the files they may open: the uploads, and nothing else."""
    from ..core.given import Files
    from .runs import NO_FILE, ROSTER

    try:
        options = shlex.split(str(parts.get("options", "")))
    except ValueError as error:
        raise Refused(f"error: --options: the options do not parse ({error})", "--options") from None
    for name in ("sort", "trials", "seed"):
        value = str(parts.get(name, "")).strip()
        options += [f"--{name}", value] if value else []
    options += ["--exact"] if str(parts.get("exact", "")).lower() in forms.TRUE else []
    options += ["--assault"] if str(parts.get("assault", "")).lower() in forms.TRUE else []
    options += ["--combat"] if str(parts.get("combat", "")).lower() in forms.TRUE else []
    game = str(parts.get("game", "")).strip()
    roster, against = parts.get("roster"), parts.get("against")
    if not isinstance(roster, tuple) and not game:
        raise Refused("error: FILE: upload a roster (.toml, .ros or .rosz), or choose a bundled one", "FILE")
    uploads: dict[str, bytes] = {}
    words = ["grid"]
    if isinstance(roster, tuple):
        uploads[roster[0]] = roster[1]
        words.append(roster[0])
    if game:
        words += ["--game", game]
    if isinstance(against, tuple):
        name = against[0]
        if uploads.get(name, against[1]) != against[1]:  # two files of one name: the targets' renamed
            name = f"targets-{name}"
        uploads[name] = against[1]
        words += ["--against", name]
    return [*words, *options], Files(uploads, NO_FILE, ROSTER)
