"""The command line's stops: Ctrl-C, SIGTERM and SIGHUP each stop a run once, with one line and the
conventional exit code (its one-line refusals are the query grammar's: `query/refusals.py`)."""

from __future__ import annotations

from typing import Any, Optional


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (the terminal closed), handled like Ctrl-C: every thread stops,
    temporary files go, one line is printed."""

    def __init__(self, signal_number: int = 15) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


SIGNAL_NAMES = {1: "hung up (SIGHUP)", 2: "interrupted (Ctrl-C)", 15: "terminated (SIGTERM)"}
# The first stop of a run: its signal's number, and its exit code once its one line is said. A second
# signal while the first is handled is let go: the stop under way ends soon and says its line once.
STOP: dict[str, Optional[int]] = {"number": None, "said": None}
# The run under way's cancel token (a `core.options.Cancel`), which a stop cancels too: Python drops an exception
# raised while it runs a weakref's callback or a __del__ (an import's module lock, say), and the run must stop anyway.
RUNNING: dict[str, Any] = {"cancel": None}


def on_signal(number: int, frame: Any) -> None:
    """The handler of Ctrl-C, SIGTERM and SIGHUP while the command line runs: each stops it as Ctrl-C
    does (every thread stops, temporary files go), once; the run's cancel token is set first, so that a stop whose
    exception Python drops still ends the run at its next chunk (`Cancelled`, said as the stop)."""
    if STOP["number"] is not None:
        return
    STOP["number"] = number
    if RUNNING["cancel"] is not None:
        RUNNING["cancel"].cancel()
    raise KeyboardInterrupt(number) if number == 2 else Terminated(number)


def signal_of(error: KeyboardInterrupt) -> int:
    """The signal a stop came by: its number where a handler raised it with one (`KeyboardInterrupt(15)`),
    else Ctrl-C's."""
    return error.args[0] if error.args and type(error.args[0]) is int else 2


def stopped(error: KeyboardInterrupt) -> int:
    """Say in one line that the command was stopped; return its exit code (130 Ctrl-C, 128 + the
    signal's number for SIGTERM and SIGHUP). Said once: a second stop returns the first one's code."""
    import typer

    said = STOP["said"]
    if said is not None:
        return said
    number = error.signal_number if isinstance(error, Terminated) else signal_of(error)
    what = SIGNAL_NAMES.get(number, f"stopped by signal {number}")
    typer.echo(f"error: {what}; nothing more was written", err=True)
    STOP["said"] = code = 128 + number
    return code


