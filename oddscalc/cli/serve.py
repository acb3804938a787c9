"""`oddscalc serve`: the page in the browser (oddscalc/web), on this machine."""

from __future__ import annotations

import errno
import socket
from typing import Annotated

import typer

from .errors import OptionError
from .options import examples_epilog

app = typer.Typer(rich_markup_mode=None, add_completion=False)
LOCAL = ("127.0.0.1", "localhost", "::1")


@app.command("serve", epilog=examples_epilog(["oddscalc serve", "oddscalc serve --port 8080 --open",
                                               "oddscalc serve --host 0.0.0.0   # others on the network too: no login"]))
def serve(
    port: Annotated[int, typer.Option("--port", metavar="N", help="The port to listen on.")] = 8000,
    host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help="The address to listen on (default: this "
                                                                         "machine only).")] = "127.0.0.1",
    open_: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
) -> int:
    """Serve oddscalc as a page in the browser: every query and study as a form, with its
    table, its plot, a permalink and the command line that gives the same figures.

    The page works offline (nothing is fetched from elsewhere). Each run samples at most
    10,000,000 trials in all and runs at most 60 s (the command line has no such cap); two
    run at once, and a few more wait. GET /api/query?q=QUERY answers the JSON that
    `oddscalc QUERY --format json` prints; POST /api/grid takes a roster file. A roster
    uploaded is read in memory, never written to disk.
    """
    if not 1 <= port <= 65535:
        raise OptionError(port, "expected a port from 1 to 65535", hint="--port")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        in_use = error.errno == errno.EADDRINUSE
        raise OptionError(port if in_use else host, f"cannot listen there ({error.strerror or error})",
                          hint="--port" if in_use else "--host") from None
    import uvicorn

    from ..web.app import create_app

    if host not in LOCAL:
        typer.echo(f"note: --host {host}: the page has no login: anyone who can reach this machine on port {port} can "
                   "use it", err=True)
    url = f"http://{'localhost' if host in LOCAL else host}:{port}/"
    typer.echo(f"oddscalc serves at {url} (Ctrl-C stops it)", err=True)
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    return 0
