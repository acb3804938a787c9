"""The console script (`oddscalc`) and `python -m oddscalc`: a Ctrl-C, SIGTERM or hang-up while
the command line is still loading (numpy, Typer: about 0.2 s) ends in one line too, like one
while it runs (`cli/output.py:run_app`), never in a traceback."""

import signal
import sys


def _stop(signal_number: int, frame: object) -> None:
    raise KeyboardInterrupt(signal_number)


def run() -> None:
    """Load the command line, then run it; exit with its code."""
    stopping = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {number: signal.signal(number, _stop) for number in stopping}
    try:
        from .cli import main
    except KeyboardInterrupt as error:
        number = error.args[0] if error.args and isinstance(error.args[0], int) else signal.SIGINT
        what = {signal.SIGINT: "interrupted (Ctrl-C)", signal.SIGTERM: "terminated (SIGTERM)"}.get(
            number, "hung up (SIGHUP)")
        sys.stderr.write(f"error: {what}; nothing more was written\n")
        sys.exit(130 if number == signal.SIGINT else 128 + number)
    for number, handler in previous.items():
        signal.signal(number, handler)
    sys.exit(main())
