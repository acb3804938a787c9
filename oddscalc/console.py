"""The console script (`oddscalc`) and `python -m oddscalc`: a Ctrl-C, SIGTERM or hang-up ends in one
line and its conventional exit code (130, 143, 129) whenever it comes: while the command line is
still loading and until the run sets its own handler (the stop is kept, then said once the load is
whole or taken by the run's handler: `held_stop`), while it runs (`cli/main.py:run_app`; a second
one while the first is handled says nothing more), or once the output is complete. Before this
module runs (Python's own start-up, some 20 ms) a signal has Python's default effect: no code of
ours can run yet."""

import gc
import os
import signal
import sys
from typing import Any

NUMBERS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
WHAT: dict[int, str] = {signal.SIGINT: "interrupted (Ctrl-C)", signal.SIGTERM: "terminated (SIGTERM)"}
DONE = [False]  # the command line has answered: a signal now ends the process at once
# While the command line loads, a stop is kept (its signal's number) and said once the load is whole: an import
# broken off halfway leaves half-made modules and, now and then, Python's own "_get_module_lock" message.
LOADING: list[int | None] = [None]
HELD = -1  # loading, no stop yet
PAUSED = [False]  # the cyclic garbage collector, paused by `run` while the command line loads


def _stop(signal_number: int, frame: object) -> None:
    stop = _stopped()
    if DONE[0]:
        os._exit(_say(signal_number))
    if LOADING[0] is not None:
        if LOADING[0] == HELD:
            LOADING[0] = signal_number
        return
    if stop is not None and stop["number"] is not None:  # a stop under way says its line once
        return
    raise KeyboardInterrupt(signal_number)


def _stopped() -> dict[str, Any] | None:
    """The command line's record of a stop (cli/errors.py), once it is loaded (a module still loading, as a
    Ctrl-C in its first moments finds it, has none yet)."""
    errors = sys.modules.get("oddscalc.cli.errors")
    return getattr(errors, "STOP", None)


def _say(number: int) -> int:
    """One line for a stop nobody has said yet (nothing when one was); its exit code."""
    stop = _stopped()
    if stop is not None and stop["said"] is not None:
        return int(stop["said"])
    sys.stderr.write(f"error: {WHAT.get(number, 'hung up (SIGHUP)')}; nothing more was written\n")
    sys.stderr.flush()
    return 130 if number == signal.SIGINT else 128 + number


def _number(error: KeyboardInterrupt) -> int:
    return error.args[0] if error.args and isinstance(error.args[0], int) else signal.SIGINT


def run() -> None:
    """Load the command line, then run it; exit with its code. A stop that came before this module ran, from the
    package's first lines (`oddscalc.STOPS_WHILE_STARTING`), is kept too. Python's cyclic garbage collector is
    paused while the command line and its command's modules load (`resume_collector`)."""
    if gc.isenabled():
        gc.disable()
        PAUSED[0] = True
    try:
        _load_and_run()
    finally:  # (a run ends in os._exit; this is for an exit before it, and a program that calls run itself)
        resume_collector()


def resume_collector() -> None:
    """Run Python's cyclic garbage collector again, if `run` paused it: the command line calls this once its
    command's modules are loaded, before any work of the command's own. Loading makes tens of thousands of objects
    and next to no garbage, and the collections it set off were some 5 ms of a first answer."""
    if PAUSED[0]:
        PAUSED[0] = False
        gc.freeze()  # what loading made lives as long as the process: no collection need look at it again
        gc.enable()


def _load_and_run() -> None:
    from . import STOPS_WHILE_STARTING

    LOADING[0] = HELD
    for number in NUMBERS:
        signal.signal(number, _stop)
    if STOPS_WHILE_STARTING and LOADING[0] == HELD:  # (read once ours handle them: none is lost in between)
        LOADING[0] = STOPS_WHILE_STARTING[0]
    STOPS_WHILE_STARTING.clear()
    try:
        from .cli import main
    except KeyboardInterrupt as error:  # a Ctrl-C before the handler was set (Python's own, at start-up)
        held_stop()
        sys.exit(_say(_number(error)))
    held = LOADING[0]
    if held not in (None, HELD):  # (a stop while it loaded)
        held_stop()
        sys.exit(_say(held))
    try:  # (stops are still held until the run's own handler takes over: `held_stop`)
        code = main()
        held = held_stop()  # (a run that ended before it set its handler)
        code = code if held is None else _say(held)
        DONE[0] = True
    except KeyboardInterrupt as error:  # between the run's own handling and this line
        code = _say(_number(error))
        DONE[0] = True
    _leave(code)


def held_stop() -> int | None:
    """The stop held since the command line began to load (its signal's number; None if none came), taken: from
    now on a stop is raised where it lands. The run calls it once its own handler is set, so that no stop falls
    in between, where an exception raised in an import's callback is dropped by Python and the run went on."""
    held, LOADING[0] = LOADING[0], None
    return None if held in (None, HELD) else held


def _leave(code: int) -> None:
    """Exit with `code` now that all is written: out at once (os._exit), since Python's own way out
    gives the signals back their default handling for its last moments, and a signal then would end
    the process without its line or its code."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe: what was to be read of it was read
            pass
    os._exit(code)
