"""One call from a query's words to its answer, for both shells: the command line and the page.

`ask(words, given)` reads the words of a query or a study (what follows `oddscalc` on a
command line) as the command line declares them, makes the attack and the run options, and
answers: an `Asked` holds the attack (a study's is None), the `RunOptions` and the `Answer`
(content to render in any format, the plot to draw, the notes). A refused word raises a
`Refusal` naming the option and the value as the player typed them.

The words say what to compute, never where it goes: how the answer is shown (`--format`),
where its plot is saved (`--plot`), threads and Dask clusters are the command line's own
options (`query.common`, marked `shell`), and the page decides them itself. A word that names a file
(a grid's roster, a Dust map) is opened only through `Given.files`: the command line gives
`LocalFiles` (this machine's files); by default, and on the page, nothing but what oddscalc
ships and what was uploaded with the request (`given.Files`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..errors import InputError, Refusal
from ..core.given import GIVEN, Given
from ..core.options import Method
from ..core.record import record

if TYPE_CHECKING:  # pragma: no cover
    from ..core.options import RunOptions
    from .answer import Answer
    from .grammar import Parsed


@record
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
    from .grammar import parse
    from .refusals import READING, OptionError, refused
    from .words import language, queries_having
    from ..output.style import listed

    words = [str(word) for word in words]
    if words[:1] == ["oddscalc"]:
        words = words[1:]
    given = dataclasses.replace(given or Given(), shown=tuple((given and given.shown) or words))
    token = GIVEN.set(given)
    try:
        command, rest = language(words)
        parsed = parse(command, rest, owners=queries_having)
        reading = READING.set(command)
        try:
            answered = command.answer(**parsed.values)
        finally:
            READING.reset(reading)
        unused = unused_by_exact(parsed, given)
    except (InputError, OptionError) as error:
        raise refused(error) from None
    finally:
        GIVEN.reset(token)
    if unused and answered.options is not None and answered.options.method == Method.EXACT:
        answered = dataclasses.replace(answered, notes=answered.notes + (
            f"note: --exact rolls no dice: {listed(unused)} {'is' if len(unused) == 1 else 'are'} not used",))
    return Asked(tuple(words), answered.attack, answered.options, answered)


def unused_by_exact(parsed: Parsed, given: Given) -> tuple[str, ...]:
    """The options of sampling given beside --exact (checked, then unused: said once in a note)."""
    if not parsed.values.get("exact"):
        return ()
    named = [f"--{name}" for name in ("trials", "seed") if name in parsed.given]
    return tuple(named) + (("--threads",) if given.terminal and given.threads is not None else ())


def method_of(words: Sequence[str]) -> str:
    """How the words ask to run: "exact", "verify" or "monte-carlo", read without running anything
    (words that do not read as a query: "exact", for they are refused at once)."""
    from .grammar import parse
    from .refusals import OptionError
    from .words import language

    try:
        command, rest = language([str(word) for word in words])
        values = parse(command, rest).values
    except (InputError, OptionError, Refusal):
        return "exact"
    if "exact" not in values:  # a command that samples nothing (a line of sight)
        return "exact"
    return "verify" if values.get("verify") else "exact" if values.get("exact") else "monte-carlo"
