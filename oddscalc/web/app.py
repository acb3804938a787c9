"""The page's routes (Starlette): the query pages, the studies, the API.

- `/` lists the games and their queries (`/?search=breath` finds one); `/?query=epic shoot`
  is a query's form; `/?q=<what follows oddscalc on a command line>` is the permalink page of
  that query (or study): computed and rendered on the server, so it reads without JavaScript.
- `/run?query=...&--shots=...` turns a filled form into its permalink (a redirect).
- `/grid` (an uploaded or bundled roster), `/compare` and `/sweep`: the studies.
- `/api/query?q=...` answers exactly the JSON `oddscalc <q> --format json` prints;
  `/api/grid` (POST, a roster file and optionally `against`) the JSON of `oddscalc grid`;
  `/api/stream?q=...` the same run as server-sent events (progress, then the answer's HTML).
  A refused request is HTTP 400 with `{"error": "<the command line's one line>"}`; a busy
  server 503, a client over its share 429, both with Retry-After.

Every route answers through the library's one call (`oddscalc.ask`, in `runs.Runner`): the
page's words never name a file on the server, and the page's own settings (format, plot,
threads) are not words. The app's state (the runner, the templates, the answers kept) is on
`app.state.page`; the routes are plain functions of the request.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

from .. import __version__
from ..output import sentence
from ..core.options import Cancel, Cancelled
from . import forms
from .guard import Guard, Hosts
from .render import Kept, figure, fixed_words, link, shown
from .runs import Busy, Limits, Refused, Runner, words_of
from .uploads import Uploads, grid_words

HERE = Path(__file__).parent
PLOTS = {"svg": "image/svg+xml", "png": "image/png"}  # /plot.svg, /plot.png
GONE = 499  # the client closed the connection (nginx's code): nobody reads this answer


@dataclass
class Page:
    """What the routes share: the caps, the runner, the templates, the answers and drawings kept."""

    limits: Limits
    runner: Runner
    templates: Any
    answers: Kept  # answers under the words that fix their figures (exact, or with their seed)
    drawn: Kept  # plots drawn, under their format and those words
    uploads: Uploads = field(default_factory=Uploads)  # the uploads being read

    def render(self, name: str, status: int = 200, **context: Any) -> Any:
        """A page; an engagement's form offers the bundled example's units for each side (`presets`)."""
        from starlette.responses import HTMLResponse

        from . import presets

        if context.get("path") in forms.SIDES and not context.get("presets"):
            context["presets"] = presets.bundled(context["path"])

        body = self.templates.get_template(name).render(version=__version__, games=forms.games(), limits=self.limits,
                                                        **context)
        return HTMLResponse(body, status_code=status, headers=retry_after(status, context.get("retry")))


def create_app(limits: Limits = Limits(), hosts: Optional[Hosts] = None) -> Any:
    """The ASGI app of the page (see the module's docstring); `limits` cap each request and client,
    `hosts` are the Host names it answers to (default: this machine's own)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from ..query.words import every_command

    every_command()  # every command registered now, not by two requests at once
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
    templates.filters["options_whole"] = options_whole
    templates.filters["words"] = sentence.words  # an outcome as a player names it
    routes = [
        Route("/", home), Route("/run", run_form), Route("/fill", fill, methods=["GET", "POST"]),
        Route("/plot.svg", plot), Route("/plot.png", plot),
        Route("/grid", grid, methods=["GET", "POST"]), Route("/compare", study), Route("/sweep", study),
        Route("/api/query", api_query), Route("/api/stream", api_stream),
        Route("/api/grid", api_grid, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts or Hosts.serving())])
    app.state.page = Page(limits, Runner(limits), templates, Kept(limits.kept), Kept(limits.drawn))
    return app


# --- answering -----------------------------------------------------------------------------


def state(request: Any) -> Page:
    page: Page = request.app.state.page
    return page


def client_of(request: Any) -> str:
    return request.client.host if request.client else ""


def retry_after(status: int, seconds: Optional[int] = None) -> Optional[dict[str, str]]:
    return {"Retry-After": str(seconds or 5)} if status in (429, 503) else None


async def asked(request: Any, words: list[str], **settings: Any) -> Any:
    """The answer of `words` for this request: kept, or run (cancelled when the client goes)."""
    page = state(request)
    kept = page.answers.get(tuple(words))
    if kept is not None:
        return kept
    cancel = Cancel()
    try:
        return await page.runner.run(words, client=client_of(request), cancel=cancel, gone=request.is_disconnected,
                                     **settings)
    finally:
        cancel.cancel()  # whatever became of the request, its run stops (a no-op when it ended)


async def answered(run: Callable[[], Awaitable[Any]], respond: Callable[[Any], Any],
                   failed: Callable[[Refused, int, Optional[int]], Any]) -> Any:
    """`respond(answer)` to the run's answer; `failed(refusal, status, retry)` when it is refused (400), the
    server busy (503) or the client over its share (429); a bare 499 when the client went away."""
    from starlette.responses import Response

    try:
        answer = await run()
    except Refused as error:
        return failed(error, 400, None)
    except Busy as busy:
        return failed(Refused(busy.line), busy.status, busy.retry)
    except Cancelled:
        return Response(status_code=GONE)
    return respond(answer)


def refused_json(error: Refused, status: int = 400, retry: Optional[int] = None) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": error.line}, status_code=status, headers=retry_after(status, retry))


def json_answer(answer: Any) -> Any:
    from starlette.responses import Response

    from ..output.tables import Format

    return Response(answer.answer.content.render(Format.JSON) + "\n", media_type="application/json")


# --- the routes ------------------------------------------------------------------------------


async def home(request: Any) -> Any:
    page = state(request)
    query = request.query_params.get("q")
    if query is None:
        path = request.query_params.get("query")
        if path and forms.query_of(path.split()) == path:
            return page.render("query.html", answer=None, error=None, **forms.context(path, []))
        search = request.query_params.get("search", "")
        return page.render("home.html", search=search, found=forms.search(search))
    try:
        words = words_of(query, page.limits.query)
    except Refused as error:
        return page.render("home.html", status=400, error=error, search="", found=forms.search(""))
    context = forms.context(forms.query_of(words), words)

    async def run() -> Any:
        answer = await asked(request, words)
        return await asyncio.to_thread(shown, answer, words, page.answers)
    return await answered(
        run, lambda view: page.render("query.html", answer=view, error=None, **context),
        lambda error, status, retry: page.render("query.html", status=status, answer=None, error=error, retry=retry,
                                                 **context))


async def run_form(request: Any) -> Any:
    from starlette.responses import RedirectResponse

    path = request.query_params.get("query", "")
    if forms.query_of(path.split()) != path:
        return state(request).render("home.html", status=400, search="", found=forms.search(""),
                                     error=Refused(f"error: QUERY {path[:60]}: not a query of the page", "QUERY"))
    return RedirectResponse(link(forms.words_of_form(path, request.query_params)), status_code=303)


async def fill(request: Any) -> Any:
    """An engagement's form with a side filled from a unit (GET: the form's fields, `fill` the side, 1 or 2, and
    its `preset-N` words), or with an uploaded list's units among the units offered (POST: `query` and a `roster`
    file, read in memory): the form again, nothing run."""
    from ..errors import InputError
    from ..lists.games import roster_of
    from . import presets

    page = state(request)
    parts: Any = request.query_params
    if request.method == "POST":
        try:
            parts = await page.uploads.read(request, page.limits, client_of(request))
        except (Refused, Busy) as refused:  # not a form, too large, too slow; or the uploads' places taken
            status, retry = (400, None) if isinstance(refused, Refused) else (refused.status, refused.retry)
            return page.render("home.html", status=status, retry=retry, search="", found=forms.search(""),
                               error=refused if isinstance(refused, Refused) else Refused(refused.line))
    path = str(parts.get("query", ""))
    if forms.query_of(path.split()) != path or path not in forms.SIDES:
        return page.render("home.html", status=400, search="", found=forms.search(""),
                           error=Refused(f"error: QUERY {path[:60]}: not an engagement of the page (epic assault, "
                                         "t9a combat)", "QUERY"))
    offered = presets.bundled(path)
    if request.method == "GET":
        side = presets.side_of(parts.get("fill"), offered)
        words = presets.filled(path, parts, side, parts.get(f"preset-{side + 1}", "")) if side is not None \
            else forms.words_of_form(path, parts)
        return page.render("query.html", answer=None, error=None, **forms.context(path, words))
    roster = parts.get("roster")
    error = None

    def listed(name: str, data: bytes) -> Any:  # in a worker thread: a list's import is no quick answer's wait
        units = roster_of(data, name, path.split()[0])
        return presets.presets(path, units, units.source)

    try:
        if not isinstance(roster, tuple):
            raise InputError("file", None, "choose a list (.ros, .rosz) or a roster (.toml) to read")
        mine = await asyncio.to_thread(listed, *roster)
        if not mine[0]:
            raise InputError("file", roster[0], f"holds no unit that can fight in a {path}")
        offered = (mine[0] + offered[0], mine[1] + offered[1])
    except InputError as refused:
        error = Refused(f"error: FILE{'' if refused.value is None else ' ' + str(refused.value)}: {refused.allowed}",
                        "FILE")
    return page.render("query.html", status=400 if error else 200, answer=None, error=error,
                       **{**forms.context(path, []), "presets": offered})


async def api_query(request: Any) -> Any:
    async def run() -> Any:
        return await asked(request, words_of(request.query_params.get("q", ""), state(request).limits.query))
    return await answered(run, json_answer, refused_json)


async def api_stream(request: Any) -> Any:
    from starlette.responses import StreamingResponse

    page = state(request)
    query = request.query_params.get("q")
    if query is None:
        path = request.query_params.get("query", "")
        query = shlex.join(forms.words_of_form(path, request.query_params)) if forms.query_of(
            path.split()) == path else ""

    async def events() -> Any:
        try:
            words = words_of(query, page.limits.query)
        except Refused as error:
            yield event("refused", {"error": error.line, "option": error.option})
            return
        progress: list[tuple[int, int]] = []

        async def listen(run: Any) -> None:
            progress.append((run.done, run.total))

        cancel = Cancel()
        task = asyncio.ensure_future(page.runner.run(words, client=client_of(request), cancel=cancel,
                                                     gone=request.is_disconnected, listen=listen))
        try:
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
            except Busy as busy:
                yield event("refused", {"error": busy.line, "option": None})
                return
            view = await asyncio.to_thread(shown, answer, words, page.answers)
            html = page.templates.get_template("answer.html").render(answer=view, limits=page.limits)
            yield event("answer", {"html": html, "permalink": view.permalink, "sentence": view.sentence})
        finally:
            cancel.cancel()  # the page was closed (this generator cancelled): its run stops too

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


async def plot(request: Any) -> Any:
    from starlette.responses import PlainTextResponse, Response

    page = state(request)
    fmt = request.url.path.rsplit(".", 1)[1]

    async def run() -> Any:
        words = words_of(request.query_params.get("q", ""), page.limits.query)
        answer = await asked(request, words)
        return await asyncio.to_thread(figure, answer.answer.plot, fmt, fixed_words(answer, words), page.drawn)
    headers = {"Content-Disposition": 'attachment; filename="oddscalc.png"'} if fmt == "png" else {}
    return await answered(
        run, lambda drawn: Response(drawn, media_type=PLOTS[fmt], headers=headers),
        lambda error, status, retry: PlainTextResponse(error.line, status_code=status,
                                                       headers=retry_after(status, retry)))


async def grid(request: Any) -> Any:
    page = state(request)
    if request.method == "GET":
        return page.render("grid.html", answer=None, error=None, form={})
    parts: dict[str, Any] = {}

    async def run() -> Any:
        parts.update(await page.uploads.read(request, page.limits, client_of(request)))
        words, files = grid_words(parts)
        answer = await asked(request, words, files=files)
        return await asyncio.to_thread(shown, answer, words, page.answers, files.uploads != {})
    return await answered(
        run, lambda view: page.render("grid.html", answer=view, error=None, form=plain(parts)),
        lambda error, status, retry: page.render("grid.html", status=status, answer=None, error=error, retry=retry,
                                                 form=plain(parts)))


async def api_grid(request: Any) -> Any:
    async def run() -> Any:
        page = state(request)
        words, files = grid_words(await page.uploads.read(request, page.limits, client_of(request)))
        return await asked(request, words, files=files)
    return await answered(run, json_answer, refused_json)


async def study(request: Any) -> Any:
    from starlette.responses import RedirectResponse

    page = state(request)
    kind = request.url.path.strip("/")
    params = request.query_params
    if not any(params.values()):
        return page.render("study.html", kind=kind, error=None, form={})
    try:
        words = study_words(kind, params)
    except Refused as error:
        return page.render("study.html", status=400, kind=kind, error=error, form=dict(params))
    return RedirectResponse(link(words), status_code=303)


def options_whole(text: str) -> Any:
    """Help text as HTML, each option it names (`--war-engines`) kept on one line when it wraps."""
    import re

    from markupsafe import Markup, escape

    return Markup(re.sub(r"(--[a-z][a-z0-9-]*)", r'<span class="nw">\1</span>', str(escape(text))))


def event(kind: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def plain(parts: dict[str, Any]) -> dict[str, Any]:
    """The text fields of an uploaded form (to fill it again)."""
    return {name: value for name, value in parts.items() if isinstance(value, str)}


def study_words(kind: str, params: Any) -> list[str]:
    """A comparison's or a sweep's command line from its form."""
    if kind == "compare":
        queries = [params.get(name, "").strip() for name in ("first", "second", "third")]
        queries = [query for query in queries if query]
        if len(queries) < 2:
            raise Refused("error: QUERY: give two queries to compare", "QUERY")
        words = ["compare", *queries]
    else:
        query, vary = params.get("query", "").strip(), [params.get(name, "").strip() for name in ("vary", "vary2")]
        if not query or not vary[0]:
            raise Refused("error: --vary: give a query and an option to vary, like bp=1..18", "--vary")
        words = ["sweep", query, *(word for spec in vary if spec for word in ("--vary", spec))]
        for name in ("goal", "seek", "stat"):
            value = params.get(name, "").strip()
            words += [f"--{name}", value] if value else []
    for name in ("trials", "seed"):
        value = params.get(name, "").strip()
        words += [f"--{name}", value] if value else []
    words += ["--exact"] if params.get("exact", "").lower() in forms.TRUE else []
    return words
