"""The page served by uvicorn in a thread of the test's process (its app's state in reach)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def in_thread(app: Any) -> Iterator[int]:
    """Serve `app` on a free port of 127.0.0.1 until the block ends; yields the port."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert served.started
    try:
        yield port
    finally:
        served.should_exit = True
        thread.join(10)
