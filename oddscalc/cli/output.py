"""Showing an answer on the terminal: its text on stdout, its notes on stderr, its plot saved where --plot
says, and the exit code."""

from __future__ import annotations

import sys

from ..query.answer import VERIFY_FAILED, Answer, save_plot


def echo(text: str, err: bool = False) -> None:
    """Write a line to stdout (or stderr), flushed, as Click's echo does: a query's answer needs no Click, so the
    command line's first answer imports none."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{text}\n")
    stream.flush()


def show(answer: Answer) -> int:
    """Print the answer, save its plot when --plot asked, and say on stderr what did not go as
    asked; return the exit code. The answer is printed even when the plot cannot be written
    (then exit 2) or a verification failed (exit 1)."""
    plot_error = save_plot(answer.plot) if answer.plot is not None and answer.plot.path is not None else None
    echo(answer.text)
    for note in answer.notes:
        echo(note, err=True)
    if plot_error:
        echo(plot_error, err=True)
        return 2
    if answer.failed:
        echo(answer.failed, err=True)
        return VERIFY_FAILED
    return 0
