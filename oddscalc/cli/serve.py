"""`oddscalc serve`: the page in the browser (oddscalc/web), on this machine."""

from __future__ import annotations

import errno
import socket
from typing import Annotated, Any, Optional, Sequence

import typer

from ..web.guard import host_name
from ..query.grammar import option
from ..query.numbers import whole
from ..query.refusals import OptionError
from .options import own

LOCAL = ("127.0.0.1", "localhost", "::1")


def serve(
    port: Annotated[int, option("--port", metavar="N", parser=whole("a port number like 8000"),
                                      help="The port to listen on.")] = 8000,
    host: Annotated[str, option("--host", metavar="ADDRESS", help="The address to listen on (default: this "
                                                                         "machine only).")] = "127.0.0.1",
    allowed_host: Annotated[Optional[list[str]], option(
        "--allowed-host", metavar="NAME", help="A name the page is reached by, beside localhost and the address it "
                                               "listens on (repeat for more); others are refused.")] = None,
    open_: Annotated[bool, option("--open", help="Open the page in the browser.")] = False,
) -> int:
    """Serve oddscalc as a page in the browser: every query and study as a form, with its
    table, its plot, a permalink and the command line that gives the same figures.

    The page works offline (nothing is fetched from elsewhere) and reads, writes and connects
    to nothing a request names: a roster is uploaded and read in memory, a map is one that
    oddscalc ships. Each run samples at most 10,000,000 trials in all and runs at most 60 s
    (the command line has no such cap; a run that would take longer is refused once its first
    trials, or an exact study's first cells, show it); exact answers have two runs of their own, exact studies one,
    sampled runs two more, and one client one sampled run and one exact study at a time and
    300 s of sampled runs in 10 minutes. Uploads are read four at once, one a client, each
    within 10 s. A request whose client goes stops its run. It answers only to the Host names it is
    reached by (localhost, the --host address, --allowed-host), so that no page elsewhere can
    use it through your browser. GET /api/query?q=QUERY answers the JSON that
    `oddscalc QUERY --format json` prints; POST /api/grid takes a roster file.
    """
    check_address(host, port, allowed_host or ())
    import uvicorn

    from ..web.app import create_app
    from ..web.guard import Hosts

    hosts = Hosts.serving(host, allowed_host or ())
    if host not in LOCAL:
        typer.echo(f"note: --host {host}: the page has no login: anyone who can reach this machine on port {port} can "
                   f"use it. Guarded: it reads, writes and dials nothing a request names; each run is capped (10^7 "
                   f"trials, 60 s) and each client's share too; it answers only to the names {hosts.said()}. Not "
                   "guarded: who may use it (put it behind a proxy with a login for that) and the traffic itself "
                   "(plain HTTP)", err=True)
    url = f"http://{'localhost' if host in LOCAL else host}:{port}/"
    typer.echo(f"oddscalc serves at {url} (Ctrl-C stops it)", err=True)
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    return served(uvicorn.Server(uvicorn.Config(create_app(hosts=hosts), host=host, port=port, log_level="warning")))


def check_address(host: str, port: int, allowed: Sequence[str]) -> None:
    """Refuse, before anything starts, a host name the page could not be reached by and a port it cannot listen on."""
    for name in allowed:
        if not host_name(name) or any(char in name for char in "/ @?#"):
            raise OptionError(name, "expected a host name like club.example (no scheme, path or port)",
                              "--allowed-host")
    if not 1 <= port <= 65535:
        raise OptionError(port, "expected a port from 1 to 65535", "--port")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        in_use = error.errno == errno.EADDRINUSE
        raise OptionError(port if in_use else host, f"cannot listen there ({error.strerror or error})",
                          "--port" if in_use else "--host") from None


own("serve", serve, examples=[
    "oddscalc serve", "oddscalc serve --port 8080 --open",
    "oddscalc serve --host 0.0.0.0   # others on the network too, by this machine's address: no login",
    "oddscalc serve --host 0.0.0.0 --allowed-host club.example   # and by a name",
])


def served(server: Any) -> int:
    """Run a uvicorn server until a signal stops it (Ctrl-C, SIGTERM, SIGHUP: a graceful shutdown, a
    second one forces it); then one line and the conventional exit code (130, 143, 129)."""
    import contextlib
    import signal
    import threading

    from .errors import Terminated, stopped

    caught: list[int] = []

    def stop(number: int, frame: Any) -> None:
        server.force_exit = server.should_exit  # a second signal: at once
        server.should_exit = True
        caught.append(number)

    numbers = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    main = threading.current_thread() is threading.main_thread()
    previous = {number: signal.signal(number, stop) for number in numbers} if main else {}
    server.capture_signals = contextlib.nullcontext  # these handlers, not uvicorn's (which know no SIGHUP)
    try:
        server.run()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if not caught:
        return 0
    return stopped(KeyboardInterrupt() if caught[0] == signal.SIGINT else Terminated(caught[0]))
