"""One call from a query's words to its answer, for both shells: the command line and the page.

`ask(words, given)` reads the words of a query or a study (what follows `oddscalc` on a
command line) as the command line declares them, makes the attack and the run options, and
answers: an `Asked` holds the attack (a study's is None), the `RunOptions` and the `Answer`
(content to render in any format, the plot to draw, the notes). A refused word raises a
`Refusal` naming the option and the value as the player typed them.

The words say what to compute, never where it goes: how the answer is shown (`--format`),
where its plot is saved (`--plot`), threads and Dask clusters are the command line's own
options (`cli/options.py:Shell`), and the page decides them itself. A word that names a file
(a grid's roster, a Dust map) is opened only through `Given.files`: the command line gives
`LocalFiles` (this machine's files); by default, and on the page, nothing but what oddscalc
ships and what was uploaded with the request (`given.Files`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from .errors import InputError, Refusal
from .given import GIVEN, Given
from .options import Method

if TYPE_CHECKING:  # pragma: no cover
    from .cli.output import Answer
    from .options import RunOptions


@dataclass(frozen=True)
class Asked:
    """A query answered: its words, its attack (None for a study), its run options and its answer."""

    words: tuple[str, ...]
    attack: Any
    options: RunOptions
    answer: Answer


def ask(words: Sequence[str], given: Optional[Given] = None) -> Asked:
    """Answer a query or a study given as its words (`["epic", "shoot", "--shots", "6", ...]`).

    `given` says what the shell lends it (see `given.Given`); by default no file is opened, no
    progress shown and every core used. A refused word raises `Refusal`; a cancelled run
    raises `options.Cancelled`.
    """
    from .cli.errors import click_errors, refused
    from .cli.words import language, queries_having
    from .style import listed

    given = given or Given()
    words = [str(word) for word in words]
    if words[:1] == ["oddscalc"]:
        words = words[1:]
    token = GIVEN.set(given)
    try:
        path, command, answer, rest = language(words)
        context = command.make_context(path, rest, obj=list(given.shown or words))
        with context:
            answered = answer(**context.params)
            unused = unused_by_exact(context, given)
    except (click_errors.ClickException, InputError) as error:
        raise refused(error, queries_having) from None
    finally:
        GIVEN.reset(token)
    if unused and answered.options is not None and answered.options.method == Method.EXACT:
        answered = dataclasses.replace(answered, notes=answered.notes + (
            f"note: --exact rolls no dice: {listed(unused)} {'is' if len(unused) == 1 else 'are'} not used",))
    return Asked(tuple(words), answered.attack, answered.options, answered)


def unused_by_exact(context: Any, given: Given) -> tuple[str, ...]:
    """The options of sampling given beside --exact (checked, then unused: said once in a note)."""
    if not context.params.get("exact"):
        return ()
    named = [f"--{name}" for name in ("trials", "seed")
             if getattr(context.get_parameter_source(name), "name", None) == "COMMANDLINE"]
    return tuple(named) + (("--threads",) if given.terminal and given.threads is not None else ())


def method_of(words: Sequence[str]) -> str:
    """How the words ask to run: "exact", "verify" or "monte-carlo", read without running anything
    (words that do not read as a query: "exact", for they are refused at once)."""
    from .cli.errors import click_errors
    from .cli.words import language

    try:
        path, command, _, rest = language([str(word) for word in words])
        context = command.make_context(path, rest, resilient_parsing=True)
    except (click_errors.ClickException, InputError, Refusal):
        return "exact"
    params = context.params
    if "exact" not in params:  # a command that samples nothing (a line of sight)
        return "exact"
    return "verify" if params.get("verify") else "exact" if params.get("exact") else "monte-carlo"
