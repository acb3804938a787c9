"""Running the command line: a query's or study's own options of the command line
(`options.Shell`) taken, the rest of its words asked of the library (`oddscalc.ask`, with this
machine's files), the answer shown, and the exit codes (bad input 2 with one line, Ctrl-C 130,
SIGTERM 143, no traceback)."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
from contextlib import contextmanager
from typing import Any, Iterator, Optional, Sequence

from .. import contract
from ..errors import InputError, Refusal
from ..core.given import GIVEN, Given, LocalFiles
from ..query import words
from ..query.grammar import HELP, Command, parse, without_shell
from ..query.help import help_text
from ..query.refusals import READING, OptionError, cut, no_such_option, one_line
from ..query.registry import COMMANDS
from ..query.words import queries_having
from .errors import RUNNING, STOP, Terminated, on_signal, stopped
from .options import OWN, RUN, Shell
from .output import echo, show


def answer_on_terminal(command: Command, words: Sequence[str], argv: Sequence[str]) -> int:
    """Answer a query or study run from the command line (`argv`; `words`, those after its path): its --help,
    or its words less the command line's own options asked with this machine's files, the answer shown
    in the format asked, its plot saved where --plot says; the exit code."""
    from ..query.asking import ask
    from ..core.given import Given, LocalFiles

    if asks_help(words):
        echo(help_text(command))
        return 0
    shell = Shell.take(parse(command, words, shell=True, owners=queries_having).values)
    shell.check()
    given = Given(files=LocalFiles(), cancel=RUNNING["cancel"], threads=shell.threads, scheduler=shell.cluster,
                  shown=tuple(argv), terminal=True)
    answered = ask([*command.path.split(), *without_shell(command, words)], given)
    answer = answered.answer
    plot = answer.plot if answer.plot is None else dataclasses.replace(answer.plot, path=shell.plot)
    return show(dataclasses.replace(answer, fmt=shell.output_format, plot=plot,
                                    notes=answer.notes + (shell.notes(answered.options) if answered.options else ())))


def library_path(args: Sequence[str]) -> Optional[Command]:
    """The library's command that a command line asks for (`epic shoot`), if any."""
    if not args or words.module_of(str(args[0])) is None:
        return None
    words.load(str(args[0]))
    path = words.path_in(args, COMMANDS)
    return None if path is None else COMMANDS[path]


def started() -> Any:
    """`oddscalc.console` when the process was started as the command line (it holds a stop that came while the
    command line loaded, and pauses the garbage collector meanwhile); None when a program runs `main` itself. Read
    from sys.modules: the console imports this module."""
    return sys.modules.get("oddscalc.console")


STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def terminate_like_interrupt() -> Iterator[None]:
    """While a command runs, Ctrl-C, SIGTERM and SIGHUP stop it alike, once (only in the main thread)."""
    try:
        previous = {number: signal.signal(number, on_signal) for number in STOPPING}
    except ValueError:  # not the main thread (a program's own thread running the command line): Python's handlers
        yield
        return
    try:
        console = started()
        held = console.held_stop() if console is not None else None  # a stop it held while loading: the run's now
        if held is not None:
            on_signal(held, None)
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


_ASCII = {"±": "+/-", "·": "-", "≥": ">=", "≤": "<=", "─": "-", "×": "x", "→": "->", "…": "...", "–": "-",
          "—": "-", "≈": "~", "⁶": "^6", "⁹": "^9", "‘": "'", "’": "'", "“": '"', "”": '"'}


def _plain(error: UnicodeError) -> tuple[str, int]:
    """Write what a console's encoding lacks in ASCII (`±` as `+/-`), else as `?`."""
    if not isinstance(error, UnicodeEncodeError):  # registered for writing only
        raise error
    text = error.object[error.start:error.end]
    return "".join(_ASCII.get(char, "?") for char in text), error.end


def _console() -> str | None:
    """Make the standard streams fit the console; the reason output cannot be written, if any."""
    import codecs

    if sys.stdout is None:
        return "standard output is closed"
    codecs.register_error("oddscalc-plain", _plain)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="oddscalc-plain")  # a console that is not UTF-8 still reads the answer
    return None


def _unwritable(problem: str | None) -> int:
    """Say in one line why the output could not be written (None: say nothing); drop what is
    still buffered."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # the buffer left goes nowhere at exit, instead of a second error
    except (OSError, ValueError):
        pass
    if problem is not None and sys.stderr is not None:
        echo(f"error: cannot write the output ({problem})", err=True)
    return 1


def run_app(root: Any, argv: Optional[list[str]] = None) -> int:
    """Run the command line (`root`, or the function that builds it); bad input gives one line on
    stderr and exit code 2.

    Ctrl-C exits 130 and SIGTERM 143, each with one line, no traceback and no file left.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    from ..core.options import Cancel

    STOP.update(number=None, said=None)  # (a program may run the command line more than once)
    RUNNING["cancel"] = Cancel()
    problem = _console()
    if problem is not None:
        return _unwritable(problem)
    try:
        with terminate_like_interrupt():
            returned = _run(root, args)
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        if STOP["number"] is not None:  # a stop that Typer caught and made its own silent exit code 130 of
            return stopped(Terminated(STOP["number"]) if STOP["number"] != 2 else KeyboardInterrupt())
        return returned if isinstance(returned, int) else 0
    except (InputError, Refusal, OptionError) as error:
        echo(one_line(error), err=True)
        return 2
    except KeyboardInterrupt as error:
        return stopped(error)
    except BrokenPipeError:  # `| head`: the reader has what it wanted; nothing to say
        return _unwritable(None)
    except OSError as error:  # files are read and written as InputErrors: this is the output
        return _unwritable(error.strerror or str(error))
    except Exception as error:  # a bug, not bad input: say so in one line
        if STOP["number"] is not None:  # a stop that broke an import midway: a module half loaded fails after it
            return stopped(Terminated(STOP["number"]) if STOP["number"] != 2 else KeyboardInterrupt())
        if os.environ.get("ODDSCALC_DEBUG"):
            raise
        echo(f"internal error: {type(error).__name__}: {error} (set ODDSCALC_DEBUG=1 for the traceback)",
                   err=True)
        return 1


def _run(root: Any, args: list[str]) -> Any:
    """A command line's exit code: a library command or one of the command line's own, each read by the query
    grammar; else the root's and a group's help and the version, Click's (`root`), a word it does not know refused
    first."""
    command = library_path(args)
    console = started()
    if console is not None:
        console.resume_collector()  # the command's modules are loaded: its work runs with the collector
    if command is not None:
        return answer_on_terminal(command, args[len(command.path.split()):], args)
    from .commands import own_command  # (Click, and the command line's own commands: not a query's)

    if args and own_command(args[0]) is not None:
        return run_own(OWN[args[0]], args[1:], args)
    refuse_unknown(args)
    root = root() if callable(root) and not hasattr(root, "main") else root
    bare = not args or (len(args) == 1 and args[0] in contract.names())  # no command: its help, and code 2
    returned = root.main(args=[*args, "--help"] if bare else args, prog_name="oddscalc", standalone_mode=False)
    return 2 if bare else returned


def run_own(command: Command, words: Sequence[str], argv: Sequence[str]) -> int:
    """Run one of the command line's own commands (`rules`, `profiles`, `import`, `serve`): its --help, or its
    words read by the grammar and its function called; its exit code."""
    if asks_help(words):
        echo(help_text(command))
        return 0
    parsed = parse(command, words, shell=True)
    given = GIVEN.set(Given(files=LocalFiles(), shown=tuple(argv), terminal=True))
    reading = READING.set(command)
    try:
        returned = command.answer(**parsed.values)
    finally:
        READING.reset(reading)
        GIVEN.reset(given)
    return returned if isinstance(returned, int) else 0


def asks_help(words: Sequence[str]) -> bool:
    """Whether a command's words ask for its --help (before any `--`)."""
    return any(word in HELP for word in words[:list(words).index("--") if "--" in words else len(words)])


def refuse_unknown(args: Sequence[str]) -> None:
    """Refuse a first word, or a game's second, that names no command, and an option the root or a group has not."""
    from .commands import LazyGroup

    names = LazyGroup.list_commands(LazyGroup(), None)
    first = str(args[0]) if args else "--help"
    if first.startswith("-"):
        if first not in (*HELP, "--version"):
            raise Refusal(no_such_option(first, "", ["--help", "--version"]), first)
        return
    if first not in names:
        raise Refusal(no_such_command(first, "", names), first)
    if first in contract.names() and len(args) > 1 and str(args[1]) not in HELP:
        second = str(args[1])
        if second.startswith("-"):
            raise Refusal(no_such_option(second, first, ["--help"]), second)
        words.load(first)
        raise Refusal(no_such_command(second, first, [path.split()[1] for path in COMMANDS
                                                     if path.split()[0] == first]), second)


def no_such_command(word: str, group: str, names: Sequence[str]) -> str:
    """The line for a word that names no command (of `group`, or of oddscalc): a close one, and the commands."""
    import difflib

    close = difflib.get_close_matches(word, list(names), 1)
    return (f"error: No such command {cut(word)}{f' of {group}' if group else ''}"
            f"{f' (did you mean {close[0]}?)' if close else ''}; expected one of: {', '.join(names)}; see --help")


def main(argv: Optional[list[str]] = None) -> int:
    """Run the command line and return its exit code."""
    def root() -> Any:
        from .commands import root_command  # (Click: only for the command line's own commands and the help)

        return root_command()

    return run_app(root, argv)  # built inside: a Ctrl-C while it is built is one line too


def run() -> None:
    """The console script: exit with the command line's code."""
    sys.exit(main())


RUN["words"] = lambda words: run_app(lambda: None, words)  # a listed command invoked through Click runs its words
