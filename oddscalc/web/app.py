"""The page's routes (Starlette): the query pages, the studies, the API.

- `/` lists the games and their queries; `/?query=epic shoot` is a query's form;
  `/?q=<what follows oddscalc on a command line>` is the permalink page of that query (or
  study): computed and rendered on the server, so it reads without JavaScript.
- `/run?query=...&--shots=...` turns a filled form into its permalink (a redirect).
- `/grid` (an uploaded or bundled roster), `/compare` and `/sweep`: the studies.
- `/api/query?q=...` answers exactly the JSON `oddscalc <q> --format json` prints;
  `/api/grid` (POST, a roster file and optionally `against`) the JSON of `oddscalc grid`;
  `/api/stream?q=...` the same run as server-sent events (progress, then the answer's HTML).
  A refused request is HTTP 400 with `{"error": "<the command line's one line>"}`; a busy
  server 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path
from typing import Any, Awaitable, Callable

from .. import __version__
from ..cli.errors import input_error, one_line
from ..errors import InputError
from ..options import Cancelled
from . import forms
from .render import ANSWERS, figure, fixed_words, link, shown
from .runs import Busy, Limits, Refused, Runner, words_of

HERE = Path(__file__).parent
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
RETRY_AFTER = "5"
PLOTS = {"svg": "image/svg+xml", "png": "image/png"}  # /plot.svg, /plot.png
GONE = 499  # the client closed the connection (nginx's code): nobody reads this answer


def create_app(limits: Limits = Limits()) -> Any:
    """The ASGI app of the page (see the module's docstring); `limits` cap each request."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.responses import StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from ..cli import root_command

    root = root_command()
    for name in root.list_commands(None):  # every command built now, not by two requests at once
        root.get_command(None, name)
    runner = Runner(limits)
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))

    def page(name: str, status: int = 200, **context: Any) -> Any:
        body = templates.get_template(name).render(version=__version__, games=games(), limits=limits, **context)
        return HTMLResponse(body, status_code=status)

    def retry(status: int) -> dict[str, str] | None:
        return {"Retry-After": RETRY_AFTER} if status == 503 else None

    def refused(error: Refused, status: int = 400) -> Any:
        return JSONResponse({"error": error.line}, status_code=status, headers=retry(status))

    def json_answer(answer: Any) -> Any:
        return Response(answer.text + "\n", media_type="application/json")

    async def answered(run: Callable[[], Awaitable[Any]], respond: Callable[[Any], Any],
                       failed: Callable[[Refused, int], Any]) -> Any:
        """`respond(answer)` to the run's answer; `failed(refusal, status)` when it is refused (400) or the
        server is busy (503); a bare 499 when the client went away (nobody reads it)."""
        try:
            answer = await run()
        except Refused as error:
            return failed(error, 400)
        except Busy:
            return failed(Refused(busy_line()), 503)
        except Cancelled:
            return Response(status_code=GONE)
        return respond(answer)

    def busy_line() -> str:
        return (f"error: the server is busy ({limits.runs} runs at once, {limits.waiting} waiting): try again in a "
                "few seconds")

    async def home(request: Any) -> Any:
        query = request.query_params.get("q")
        if query is None:
            path = request.query_params.get("query")
            if path and forms.query_of(path.split()) == path:
                return page("query.html", path=path, fields=forms.fields(path), values={}, answer=None, error=None)
            return page("home.html")
        try:
            words = words_of(query, limits.query)
        except Refused as error:
            return page("home.html", status=400, error=error)
        path = forms.query_of(words)
        context = {"path": path, "fields": forms.fields(path) if path else [],
                   "values": forms.values_of(path, words) if path else {}, "query": shlex.join(words)}
        async def run() -> Any:
            answer = await runner.run(words, gone=request.is_disconnected)
            return await asyncio.to_thread(shown, answer, words)  # a study's plot is drawn into the page
        return await answered(
            run, lambda view: page("query.html", answer=view, error=None, **context),
            lambda error, status: page("query.html", status=status, answer=None, error=error, **context))

    async def run_form(request: Any) -> Any:
        path = request.query_params.get("query", "")
        if forms.query_of(path.split()) != path:
            return page("home.html", status=400, error=Refused(f"error: QUERY {path[:60]}: not a query of the page"))
        words = forms.words_of_form(path, request.query_params)
        return RedirectResponse(link(words), status_code=303)

    async def api_query(request: Any) -> Any:
        async def run() -> Any:
            words = words_of(request.query_params.get("q", ""), limits.query)
            return await runner.run([*words, "--format", "json"], shown=words, gone=request.is_disconnected)
        return await answered(run, json_answer, refused)

    async def api_stream(request: Any) -> Any:
        query = request.query_params.get("q")
        if query is None:
            path = request.query_params.get("query", "")
            query = shlex.join(forms.words_of_form(path, request.query_params)) if forms.query_of(
                path.split()) == path else ""

        async def events() -> Any:
            try:
                words = words_of(query, limits.query)
            except Refused as error:
                yield event("refused", {"error": error.line, "option": error.option})
                return
            progress: list[tuple[int, int]] = []

            async def listen(run: Any) -> None:
                progress.append((run.done, run.total))

            task = asyncio.ensure_future(runner.run(words, gone=request.is_disconnected, listen=listen))
            while not task.done():
                await asyncio.wait({task}, timeout=0.5)
                if progress:
                    done, total = progress[-1]
                    progress.clear()
                    yield event("progress", {"done": done, "total": total})
            try:
                answer = task.result()
            except Cancelled:
                return
            except Refused as error:
                yield event("refused", {"error": error.line, "option": error.option})
                return
            except Busy:
                yield event("refused", {"error": busy_line(), "option": None})
                return
            view = await asyncio.to_thread(shown, answer, words)
            html = templates.get_template("answer.html").render(answer=view, limits=limits)
            yield event("answer", {"html": html, "permalink": view.permalink})

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def plot(request: Any) -> Any:
        fmt = request.url.path.rsplit(".", 1)[1]

        async def run() -> Any:
            words = words_of(request.query_params.get("q", ""), limits.query)
            answer = ANSWERS.get(tuple(words)) or await runner.run(words, gone=request.is_disconnected)
            return await asyncio.to_thread(figure, answer.plot, fmt, fixed_words(answer, words))
        headers = {"Content-Disposition": 'attachment; filename="oddscalc.png"'} if fmt == "png" else {}
        return await answered(
            run, lambda drawn: Response(drawn, media_type=PLOTS[fmt], headers=headers),
            lambda error, status: PlainTextResponse(error.line, status_code=status, headers=retry(status)))

    async def grid(request: Any) -> Any:
        if request.method == "GET":
            return page("grid.html", answer=None, error=None, form={})
        parts: dict[str, Any] = {}

        async def run() -> Any:
            parts.update(await uploaded(request, limits))
            words, rosters, names = grid_words(parts)
            answer = await runner.run(words, shown=names, rosters=rosters, gone=request.is_disconnected)
            return await asyncio.to_thread(shown, answer, names, rosters is not None)
        return await answered(
            run, lambda view: page("grid.html", answer=view, error=None, form=plain(parts)),
            lambda error, status: page("grid.html", status=status, answer=None, error=error, form=plain(parts)))

    async def api_grid(request: Any) -> Any:
        async def run() -> Any:
            words, rosters, names = grid_words(await uploaded(request, limits))
            return await runner.run([*words, "--format", "json"], shown=names, rosters=rosters,
                                    gone=request.is_disconnected)
        return await answered(run, json_answer, refused)

    async def study(request: Any) -> Any:
        kind = request.url.path.strip("/")
        params = request.query_params
        if not any(params.values()):
            return page("study.html", kind=kind, error=None, form={})
        try:
            words = study_words(kind, params)
        except Refused as error:
            return page("study.html", status=400, kind=kind, error=error, form=dict(params))
        return RedirectResponse(link(words), status_code=303)

    async def security(request: Any, call_next: Any) -> Any:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    from starlette.middleware.base import BaseHTTPMiddleware

    routes = [
        Route("/", home), Route("/run", run_form), Route("/plot.svg", plot), Route("/plot.png", plot),
        Route("/grid", grid, methods=["GET", "POST"]), Route("/compare", study), Route("/sweep", study),
        Route("/api/query", api_query), Route("/api/stream", api_stream), Route("/api/grid", api_grid, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(BaseHTTPMiddleware, dispatch=security)])


def event(kind: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def games() -> list[tuple[str, str, list[str]]]:
    """Each game of the registry: its name, its title and its queries; then the game-free ones."""
    from ..cli.options import QUERIES
    from ..games import GAMES

    listed = [(name, game.title, [path for path in QUERIES if path.split()[0] == name]) for name, game in GAMES.items()]
    return [*listed, ("", "Dice", [path for path in QUERIES if path.split()[0] not in GAMES])]


def plain(parts: dict) -> dict:
    """The text fields of an uploaded form (to fill it again)."""
    return {name: value for name, value in parts.items() if isinstance(value, str)}


async def uploaded(request: Any, limits: Limits) -> dict[str, Any]:
    """A multipart form read whole in memory (never written to disk), at most `limits.upload`
    bytes: text fields as str, files as (name, bytes)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        raise Refused("error: FILE: expected a form with a roster file (multipart/form-data)")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limits.upload):
        raise Refused(f"error: FILE: at most {limits.upload:,} bytes in all")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.upload:
            raise Refused(f"error: FILE: at most {limits.upload:,} bytes in all")
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {kind}\r\n\r\n".encode() + bytes(body))
    if not message.is_multipart():
        if body.strip(b"-\r\n ").removeprefix(kind.partition("boundary=")[2].encode()).strip(b"-\r\n "):
            raise Refused("error: FILE: a form that does not parse")
        return {}  # an empty form
    parts: dict[str, Any] = {}
    for part in list(message.iter_parts())[:20]:
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        data = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None:
            if data:
                parts[name] = (Path(filename).name or "upload", data)
        else:
            parts[name] = data.decode("utf-8", "replace")
    return parts


def grid_words(parts: dict[str, Any]) -> tuple[list[str], Any, list[str]]:
    """A grid's command line from an uploaded form: the words run, the rosters read (or None for a
    bundled one, --game), and the words its JSON names (`grid army.rosz --against theirs.rosz`)."""
    from ..games import load_roster, roster_of

    try:
        options = shlex.split(str(parts.get("options", "")))
    except ValueError as error:
        raise Refused(f"error: --options: the options do not parse ({error})") from None
    for name in ("sort", "trials", "seed"):
        value = str(parts.get(name, "")).strip()
        options += [f"--{name}", value] if value else []
    options += ["--exact"] if str(parts.get("exact", "")).lower() in forms.TRUE else []
    game = str(parts.get("game", "")).strip() or None
    roster, against = parts.get("roster"), parts.get("against")
    uploaded, targets = isinstance(roster, tuple), isinstance(against, tuple)
    if not uploaded and game is None:
        raise Refused("error: FILE: upload a roster (.toml, .ros or .rosz), or choose a bundled one")
    if not uploaded and not targets:  # a bundled roster against itself: the command line names it all
        return ["grid", "--game", game, *options], None, ["grid", "--game", game, *options]
    try:
        mine = roster_of(roster[1], roster[0], game, option="file") if uploaded else load_roster(None, game)
        theirs = roster_of(against[1], against[0], mine.game.name, "against") if targets else mine
    except InputError as error:
        raise Refused(one_line(input_error(error))) from None
    names = ["grid", *([roster[0]] if uploaded else ["--game", game]), *(["--against", against[0]] if targets else []),
             *options]
    return ["grid", *options], (mine, theirs), names


def study_words(kind: str, params: Any) -> list[str]:
    """A comparison's or a sweep's command line from its form."""
    if kind == "compare":
        queries = [params.get(name, "").strip() for name in ("first", "second", "third")]
        queries = [query for query in queries if query]
        if len(queries) < 2:
            raise Refused("error: QUERY: give two queries to compare")
        words = ["compare", *queries]
    else:
        query, vary = params.get("query", "").strip(), [params.get(name, "").strip() for name in ("vary", "vary2")]
        if not query or not vary[0]:
            raise Refused("error: --vary: give a query and an option to vary, like bp=1..18")
        words = ["sweep", query, *(word for spec in vary if spec for word in ("--vary", spec))]
        for name in ("goal", "seek", "stat"):
            value = params.get(name, "").strip()
            words += [f"--{name}", value] if value else []
    for name in ("trials", "seed"):
        value = params.get(name, "").strip()
        words += [f"--{name}", value] if value else []
    words += ["--exact"] if params.get("exact", "").lower() in forms.TRUE else []
    return words
