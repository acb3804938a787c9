"""The frame every query command shares: its common options, running the attack,
rendering the answer, the plot, and the one-line error contract."""

import contextvars
import functools
import inspect
import os
import re
import shlex
import sys
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

import typer

from .. import engine
from ..errors import InputError
from ..tables import Format, render_result

try:  # recent Typer carries its own copy of Click
    from typer._click import exceptions as click_errors
    from typer._click.globals import get_current_context
except ImportError:  # pragma: no cover - older Typer uses Click itself
    from click import exceptions as click_errors
    from click import get_current_context

PROGRESS_AFTER = 2.0  # seconds before a progress bar appears


class OptionError(click_errors.BadParameter):
    """A refused option value: shown as `error: --option value: what is allowed`."""

    def __init__(self, value: Any, allowed: str, param: Any = None, hint: Optional[str] = None) -> None:
        super().__init__(allowed, param=param, param_hint=hint)
        self.value = value
        self.allowed = allowed


# --- parsers for the tabletop spellings ---------------------------------------------


def parse_count(text: str) -> int:
    """Read a count written `1000000`, `1e6` or `2_000_000`."""
    cleaned = str(text).strip().replace("_", "").replace(",", "")
    try:
        value = float(cleaned)
    except ValueError:
        raise OptionError(text, "expected a whole number like 1000000, 1e6 or 2_000_000") from None
    if not value.is_integer():
        raise OptionError(text, "expected a whole number like 1000000, 1e6 or 2_000_000")
    return int(value)


def parse_needed(text: str) -> int:
    """Read a needed roll written `4` or `4+`."""
    cleaned = str(text).strip()
    if cleaned.endswith("+"):
        cleaned = cleaned[:-1]
    try:
        return int(cleaned)
    except ValueError:
        raise OptionError(text, "expected a roll like 4+ (or 4)") from None


def parse_integer(text: str) -> int:
    """Read a whole number (negative allowed: `-1` for a modifier)."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise OptionError(text, "expected a whole number") from None


def parse_number(text: str) -> float:
    try:
        return float(str(text).strip())
    except ValueError:
        raise OptionError(text, "expected a number like 0.01") from None


def needed(help: str, *names: str) -> Any:
    """An option for a roll needed, accepting `4+` or `4`."""
    return typer.Option(*names, parser=parse_needed, metavar="X+", help=help)


def whole(help: str, *names: str, metavar: str = "N") -> Any:
    """An option for a whole number (which may be negative)."""
    return typer.Option(*names, parser=parse_integer, metavar=metavar, help=help)


# --- the common options -------------------------------------------------------------


class Method(str, Enum):
    monte_carlo = "monte-carlo"
    exact = "exact"
    verify = "verify"


COMMON = [
    inspect.Parameter(
        "trials", inspect.Parameter.KEYWORD_ONLY, default=1_000_000,
        annotation=Annotated[int, typer.Option("--trials", parser=parse_count, metavar="N",
                                               help="Monte Carlo trials (1e6, 2_000_000).")]),
    inspect.Parameter(
        "seed", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[Optional[int], typer.Option("--seed", parser=parse_count, metavar="S",
                                                         help="Seed of the random stream (default: fresh; the "
                                                              "answer records the seed used).")]),
    inspect.Parameter(
        "exact", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[bool, typer.Option("--exact", help="Compute the exact distribution instead of sampling.")]),
    inspect.Parameter(
        "output_format", inspect.Parameter.KEYWORD_ONLY, default=Format.table,
        annotation=Annotated[Format, typer.Option("--format", metavar="F",
                                                  help="table, json, csv, markdown or bbcode.")]),
    inspect.Parameter(
        "plot", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[Optional[Path], typer.Option("--plot", metavar="PATH",
                                                          help="Also save a plot of the main outcome "
                                                               "(.png, .svg or .pdf).")]),
    inspect.Parameter(
        "precision", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[Optional[float], typer.Option("--precision", parser=parse_number, metavar="E",
                                                           help="Sample until the main mean's standard error is "
                                                                "at most E (--trials is the cap).")]),
    inspect.Parameter(
        "verify", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[bool, typer.Option("--verify", help="Run both ways; report the largest CDF gap "
                                                                  "against the DKW bound.")]),
    inspect.Parameter(
        "threads", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[Optional[int], typer.Option("--threads", parser=parse_count, metavar="T",
                                                         help="Threads to sample with (default: every core).")]),
]
COMMON_NAMES = {parameter.name for parameter in COMMON}
COMMON_OPTIONS = ("--trials", "--seed", "--exact", "--format", "--plot", "--precision", "--verify", "--threads")


def command_line() -> str:
    """The command as typed, without --format (for JSON and plot captions)."""
    args = list(_ARGS) if _ARGS is not None else sys.argv[1:]
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--format":
            skip = True
            continue
        if arg.startswith("--format="):
            continue
        kept.append(arg)
    return "oddscalc " + shlex.join(kept)


_ARGS: Optional[list] = None
_CAPTURE: contextvars.ContextVar = contextvars.ContextVar("capture", default=None)


class TerminalProgress:
    """A Rich progress bar on stderr, shown only for long runs on a terminal."""

    def __init__(self, label: str = "sampling") -> None:
        self.started = time.monotonic()
        self.label = label
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.monotonic() - self.started < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TaskProgressColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(self.label, BarColumn(), TaskProgressColumn(), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def progress_for_terminal(label: str = "sampling") -> Optional[TerminalProgress]:
    return TerminalProgress(label) if sys.stderr.isatty() else None


def method_of(exact: bool, verify: bool, precision: Optional[float]) -> Method:
    if exact and verify:
        raise OptionError(None, "use --exact or --verify, not both (--verify already computes the exact answer)",
                          hint="--verify")
    if exact and precision is not None:
        raise OptionError(precision, "--precision applies to sampling; drop it or drop --exact", hint="--precision")
    return Method.exact if exact else Method.verify if verify else Method.monte_carlo


@dataclass(frozen=True)
class Common:
    """The options every query and study command takes."""

    trials: int
    seed: Optional[int]
    exact: bool
    output_format: Format
    plot: Optional[Path]
    precision: Optional[float]
    verify: bool
    threads: Optional[int]

    @property
    def method(self) -> Method:
        return method_of(self.exact, self.verify, self.precision)

    def check(self) -> None:
        """Refuse bad common options before any work is done."""
        from .. import plots

        self.method
        if self.plot is not None:
            plots.check_path(self.plot)


def answer(attack: Any, common: Common) -> None:
    """Run an attack as the common options say, print the answer, save the plot."""
    common.check()
    progress = progress_for_terminal()
    try:
        result = engine.run(attack, common.trials, common.seed, common.method.value, common.precision,
                            common.threads, progress)
    finally:
        if progress:
            progress.close()
    command = command_line()
    text = render_result(result, common.output_format, command)
    if common.plot is not None:
        save_result_plot(result, common.plot, command)
    typer.echo(text)


def caption_for(method: str, trials: Optional[int], seed: Optional[int], command: str) -> str:
    from .. import __version__

    how = "exact" if method == "exact" else f"Monte Carlo, {trials:,} trials, seed {seed}"
    return f"{command}  ·  {how}  ·  oddscalc {__version__}"


def save_figure(ax: Any, path: Path, caption: str) -> None:
    """Caption a plot and save it atomically."""
    from .. import plots

    plots.caption(ax.figure, caption)
    plots.save(ax.figure, path)


def save_result_plot(result: engine.Result, path: Path, command: str) -> None:
    from .. import plots

    ax = plots.distribution(result[result.main], result.main)
    save_figure(ax, path, caption_for(result.method, result.trials, result.seed, command))


def input_error(error: InputError) -> OptionError:
    """Turn a library `InputError` into an option error naming the command-line option."""
    param = None
    current = get_current_context(silent=True)
    if current is not None:
        param = next((p for p in current.command.params if p.name == error.name), None)
    hint = None if param is not None else "--" + error.name.replace("_", "-")
    return OptionError(error.value, error.allowed, param=param, hint=hint)


def with_common(function: Callable, extra: Sequence[inspect.Parameter] = ()) -> Callable:
    """Make a command taking `function`'s own options, `extra` ones and the common ones.

    It calls `function(**own, **extra, common=Common(...))`; a library `InputError`
    raised inside becomes the one-line error naming the option.
    """
    signature = inspect.signature(function)
    added = {p.name for p in extra} | {"common"}
    own = [p for p in signature.parameters.values() if p.name not in added]

    @functools.wraps(function)
    def command(**options: Any) -> None:
        common = Common(**{key: options.pop(key) for key in list(options) if key in COMMON_NAMES})
        try:
            function(**options, common=common)
        except InputError as error:
            raise input_error(error) from None

    parameters = own + list(extra) + COMMON
    command.__signature__ = signature.replace(parameters=parameters)
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command


def examples_epilog(examples: Sequence[str]) -> str:
    return "Examples:\n\n\b\n" + "\n".join(f"  {example}" for example in examples)


def shared_options(*options: tuple[str, Any, Any]) -> list[inspect.Parameter]:
    """Options several commands take, as (name, Annotated type, default): see `query(shared=...)`."""
    return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
            for name, annotation, default in options]


def query(group: typer.Typer, name: str, *, examples: list, help: Optional[str] = None,
          shared: Sequence[inspect.Parameter] = ()) -> Callable:
    """Register `build(**options) -> attack` as a query command with the common options.

    `shared` options (from `shared_options`) are listed after the builder's own and reach
    it through its `**shared` parameter: commands of one game declare them once.
    """

    def decorate(build: Callable) -> Callable:
        @functools.wraps(build)
        def run(common: Common, **options: Any) -> None:
            attack = build(**options)
            captured = _CAPTURE.get()
            if captured is not None:
                captured.append((attack, common))
                return
            answer(attack, common)

        own = [p for p in inspect.signature(build).parameters.values() if p.kind is not p.VAR_KEYWORD]
        run.__signature__ = inspect.Signature(
            own + list(shared) + [inspect.Parameter("common", inspect.Parameter.KEYWORD_ONLY)])
        command = with_common(run)
        command.is_query = True  # capture_attack runs only these
        group.command(name, help=help or inspect.getdoc(build), epilog=examples_epilog(examples))(command)
        return build

    return decorate


def command_of(app: typer.Typer, args: Sequence[str]) -> Any:
    """The Click command a command line's arguments lead to (a group when they stop short)."""
    command = _root_command(app)
    for arg in args:
        sub = getattr(command, "commands", {}).get(arg)
        if sub is None:
            break
        command = sub
    return command


def check_query(app: typer.Typer, args: Sequence[str]) -> None:
    """Refuse arguments that do not make a query (another command, --help, --version)."""
    if any(arg in ("--help", "-h", "--version") for arg in args):
        raise OptionError(shlex.join(args), "a query, not --help or --version", hint="QUERY")
    if not getattr(command_of(app, args).callback, "is_query", False):
        raise OptionError(shlex.join(args), "expected a query command such as 'roll 2d6' or 'epic barrage --bp 6 "
                          "--units 3 --armour 4+'", hint="QUERY")


def capture_attack(app: typer.Typer, args: Sequence[str]) -> tuple[Any, Common]:
    """Parse a query command line into its attack and common options, without running it.

    Only query commands are parsed (nothing is printed); errors are the one-line errors
    the query itself would give.
    """
    check_query(app, args)
    captured: list = []
    token = _CAPTURE.set(captured)
    try:
        _root_command(app).main(args=list(args), prog_name="oddscalc", standalone_mode=False)
    finally:
        _CAPTURE.reset(token)
    return captured[0]


@functools.lru_cache(maxsize=8)
def _root_command(app: typer.Typer) -> Any:
    return typer.main.get_command(app)


_CHOICE = re.compile(r"^'(.*)' is not one of (.*?)\.?$")


def _hint(param: Any, given: Any = None) -> str:
    """How the user spells a parameter: `--dice` for an option, `DICE` for an argument."""
    if given:
        return given[0] if isinstance(given, (list, tuple)) else str(given)
    if param is None:
        return "value"
    if param.param_type_name == "argument":
        return param.metavar or param.name.upper()
    return param.opts[0]


def one_line(error: Exception) -> str:
    """Format a refused command line as the one line the contract asks for."""
    if isinstance(error, OptionError):
        value = "" if error.value is None else f" {error.value}"
        return f"error: {_hint(error.param, error.param_hint)}{value}: {error.allowed}"
    if isinstance(error, click_errors.NoSuchOption):
        maybe = f" (did you mean {', '.join(sorted(error.possibilities))}?)" if error.possibilities else ""
        return f"error: {error.option_name}: no such option{maybe}; see --help for the options"
    if isinstance(error, click_errors.MissingParameter):
        return f"error: {_hint(error.param)} is required; see --help"
    if isinstance(error, click_errors.BadParameter):
        message = error.message.removeprefix("Value error, ")
        choice = _CHOICE.match(message)
        if choice:  # a refused choice reads like every other refused value
            allowed = ", ".join(part.strip().strip("'") for part in choice.group(2).split(","))
            return f"error: {_hint(error.param, error.param_hint)} {choice.group(1)}: expected one of {allowed}"
        return f"error: {_hint(error.param, error.param_hint)}: {message}"
    message = error.format_message().rstrip(".")
    context = getattr(error, "ctx", None)
    if context is not None and hasattr(context.command, "list_commands"):
        message += f"; expected one of: {', '.join(context.command.list_commands(context))}"
    return f"error: {message}; see --help"


def run_app(app: typer.Typer, argv: Optional[list] = None) -> int:
    """Run the command line; bad input gives one line on stderr and exit code 2."""
    global _ARGS
    args = list(sys.argv[1:] if argv is None else argv)
    _ARGS = args
    command = _root_command(app)
    try:
        returned = command.main(args=args, prog_name="oddscalc", standalone_mode=False)
        return returned if isinstance(returned, int) else 0
    except click_errors.NoArgsIsHelpError as error:
        typer.echo(error.format_message())
        return 2
    except click_errors.ClickException as error:
        typer.echo(one_line(error).replace("\n", " "), err=True)
        return 2
    except InputError as error:
        typer.echo(f"error: --{error.name.replace('_', '-')} {error.value}: {error.allowed}", err=True)
        return 2
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as error:  # a bug, not bad input: say so in one line
        if os.environ.get("ODDSCALC_DEBUG"):
            raise
        typer.echo(f"internal error: {type(error).__name__}: {error} (set ODDSCALC_DEBUG=1 for the traceback)",
                   err=True)
        return 1
    finally:
        _ARGS = None
