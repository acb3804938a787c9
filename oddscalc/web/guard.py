"""What every request passes before a route sees it (pure ASGI, so that a client's going away
reaches the route: Starlette's `BaseHTTPMiddleware` hides it): the Host header checked against
the names this server answers to (a page elsewhere cannot drive it by DNS rebinding), and the
headers that keep every answer in its place (Content-Security-Policy and the rest)."""

from __future__ import annotations

import ipaddress
from typing import Any, Sequence

from ..core.record import record

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
LOCAL = ("localhost", "127.0.0.1", "::1")  # this machine's own names
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def host_name(header: str) -> str:
    """The name of a Host header, without its port: `[::1]:8000` is `::1`, `Example.org.` `example.org`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@record
class Hosts:
    """The Host names a server answers to: this machine's own names, the address it listens on,
    and the names added with `--allowed-host`; listening on every address (0.0.0.0), any IP
    address too (a page elsewhere can only reach it by a name: DNS rebinding needs one)."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def serving(cls, host: str = "127.0.0.1", allowed: Sequence[str] = ()) -> Hosts:
        every = host in EVERY_ADDRESS
        names = {*LOCAL, *(host_name(name) for name in allowed), *(() if every else (host_name(host),))}
        return cls(frozenset(names), every)

    def allows(self, header: str) -> bool:
        name = host_name(header)
        return name in self.names or (self.any_address and is_address(name))

    def said(self) -> str:
        """The names, in words (for a refusal and for `oddscalc serve`'s note)."""
        names = ", ".join(sorted(self.names))
        return names + (", or any of this machine's addresses" if self.any_address else "")


class Guard:
    """The ASGI middleware: Host checked (400 in one line otherwise), safety headers on every answer."""

    def __init__(self, app: Any, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            line = (f"error: Host {host[:80] or chr(39) * 2}: not a name this server answers to ({self.hosts.said()}; "
                    "oddscalc serve --allowed-host NAME adds one)\n").encode()
            await headed({"type": "http.response.start", "status": 400,
                          "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                      (b"content-length", str(len(line)).encode())]})
            await headed({"type": "http.response.body", "body": line})
            return
        await self.app(scope, receive, headed)
