"""`oddscalc balance`: every entry of a game's army books against the same reference targets, ranked by
points, with the outliers named (the study is `oddscalc.studies.balance`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

from ..errors import InputError
from ..lists.games import listed
from .answer import Answer, command_line, progress_bar, sooner
from .common import Common, Study
from .grammar import argument, option
from .numbers import parse_number, whole
from .refusals import OptionError
from .registry import command

if TYPE_CHECKING:
    from ..studies.balance import Balance

GAME = "The game of the catalogues (default: the one whose catalogues the folders hold)."
COMPARE = ("Another release to set beside this one: a folder, or FOLDER@REVISION of a git checkout (a tag, a "
           "commit); repeat for several folders. Rows add its points and index, and how far each moved; notes and "
           "JSON say what moved in points, which outliers came or went.")
WHERE = ("--format", "--store", "--scheduler", "--scheduler-timeout", "--threads")  # where and how it ran, never
# what: left out of the answer's command, so a study gives the same bytes in process, on a cluster, from a store
SHOWN = ("rank", "kind_rank", "entry", "army", "kind", "points", "index", "outlier")  # and the suggested points,
# each target's P(kill or break)


def _check(top: int, store: Optional[str], far: float) -> None:
    """Refuse a value of balance's own options that no study can use."""
    if top < 1:
        raise InputError("top", top, "expected 1 or more rows")
    if store is not None and not store.strip():
        raise InputError("store", store, "expected a file to keep the study in, like study.jsonl")
    if not far > 1:
        raise InputError("far", far, "expected a factor above 1, like 2")


def balance(
    folders: Annotated[Optional[list[str]], argument(
        "FOLDER...", "Folders of BattleScribe catalogues (.cat, and the game system's .gst), like a checkout of the "
                     "game's BSData repository.")] = None,
    game: Annotated[Optional[str], option("--game", metavar="G", help=GAME)] = None,
    targets: Annotated[Optional[str], option(
        "--targets", metavar="FILE", help="A roster of the targets to measure against (default: the game's "
                                          "reference targets, docs/balance.md).")] = None,
    engage: Annotated[bool, option(
        "--engage/--no-engage", help="Each entry's engagement of each target too (the default): P(win) of an Epic "
                                     "assault, of a 9th Age charge, a column per target; --no-engage: what "
                                     "entries shoot only.")] = True,
    far: Annotated[float, option(
        "--far", metavar="F", parser=parse_number,
        help="An outlier's index is over F times, or under 1/F of, its kind's median (default 2).")] = 2.0,
    top: Annotated[int, option(
        "--top", metavar="N", parser=whole("a whole number like 10"),
        help="A text table shows the top and bottom N entries (every format but text has them all; default 10).")] = 10,
    store: Annotated[Optional[str], option(
        "--store", metavar="FILE", help="Keep each built entry and each cell in FILE: a study stopped and run "
                                        "again computes only what is missing (same bytes).")] = None,
    compare: Annotated[Optional[list[str]], option("--compare", metavar="OLD", help=COMPARE)] = None,
    *,
    study: Study,
    common: Common,
) -> Answer:
    """Every entry of every catalogue against the same reference targets, by points: a balance study.

    Each entry: what it does to each target and per 100 points; its index, its value over its kind's
    median, averaged with its engagements' unless --no-engage (each 1 at its kind's middle); its ranks; whether
    it is an outlier and what drives it; the points that would put it at its kind's median (a band).
    Copies are ranked once (also_in); what cannot be modelled or hurts nothing is apart, with why
    (JSON). Rows carry their queries. --exact: under a minute for every public Epic catalogue, shooting
    and assaults (half a minute with --no-engage); sampled cells draw from the study's seed
    (docs/balance.md).
    """
    from ..studies import balance as study_of
    from ..core.given import current

    options = common.check()
    common.one_query("balance")
    _refuse_what_it_does_not_show(common)
    folders = _folders(folders, game)
    _check(top, store, far)
    files = current().files
    if not files.local:  # a folder, a roster and a store are this machine's files: never a request's
        raise InputError("folder", folders[0], files.why)
    chosen = _game(folders, game)
    reference = study_of.reference(chosen) if targets is None else _targets(targets, chosen.name)
    kept = study_of.Store(Path(store) if store else None)
    result = _studied([Path(folder) for folder in folders], "", chosen, reference, kept, options, engage, far, study)
    if compare:  # the old release, each cell it shares with the new one computed once (the store)
        with study_of.releases(compare) as olds:
            before = _studied(olds, "old release's ", chosen, reference, kept, options, engage, far, study)
            result = study_of.compared(result, before)
    return _answer(result, common, top)


def _studied(folders: list[Path], release: str, game: Any, reference: Any, kept: Any, options: Any, engage: bool,
             far: float, study: Study) -> Balance:
    """One release's study: its folders' entries, every cell (the store's kept, the others run)."""
    from ..studies import balance as study_of

    entries: list[Any] = []
    apart: list[Any] = []
    with progress_bar(release + "catalogues", "--store FILE keeps the built entries for the next run") as progress:
        for folder in folders:
            found, left = study_of.catalogue_entries(folder, game, kept, progress)
            entries, apart = entries + found, apart + left
    with progress_bar(release + "cells", sooner(options)) as progress:
        return study_of.study(entries, reference, apart, options=options, engage=engage, far=far, store=kept,
                              scheduler=study.cluster, progress=progress)


def _folders(folders: Optional[list[str]], game: Optional[str]) -> list[str]:
    """The folders given, each one that is there; none given: what the study needs, in one line."""
    from ..lists.games import game as named

    if not folders:
        title = named(game).title if game is not None else "a game's"
        raise OptionError(None, f"is needed: a folder of {title} BattleScribe catalogues (.cat, with the game "
                                "system's .gst), like a checkout of its BSData repository", "FOLDER")
    for folder in folders:
        if not Path(folder).is_dir():
            raise InputError("folder", folder, "no such folder: expected a folder of BattleScribe catalogues (.cat, "
                                               "with the game system's .gst)")
    return folders


def _refuse_what_it_does_not_show(common: Common) -> None:
    """The options a balance study would take and not use, refused: its rows are each game's main outcome's mean
    and P(kill or break), each cell exact or sampled at --trials (--at-least it has not: its help does not offer
    it)."""
    unused = {"--outcome": (common.outcome, "a study reads each game's main outcome"),
              "--verify": (True if common.verify else None, "a study shows figures, not distributions: verify a row's "
                                                            "query"),
              "--precision": (common.precision, "a study samples every cell at --trials")}
    for name, (given, why) in unused.items():
        if given is not None:
            raise OptionError(None if given is True else given, f"not an option of balance: {why}", name)


def _game(folders: list[str], name: Optional[str]) -> Any:
    """The game studied: --game, or the one whose catalogues the first folder holds."""
    from .. import contract
    from ..lists.battlescribe.sweep import catalogues
    from ..lists.games import game

    if name is not None:
        chosen = game(name)
        if contract.importer(chosen.name) is None:
            raise InputError("game", name, "has no BattleScribe catalogues: expected "
                                           + listed(tuple(n for n in contract.names() if contract.importer(n))))
        return chosen
    folder = Path(folders[0])
    held = [other for other in contract.names() if contract.importer(other) is not None and folder.is_dir()
            and catalogues(folder, other)]
    if len(held) != 1:
        raise InputError("game", None, f"name the game of {folders[0]} ({listed()}): "
                                       + ("it holds no catalogue of one" if not held else "it holds several games'"))
    return game(held[0])


def _targets(name: str, game: str) -> Any:
    from ..lists.games import load_roster

    roster = load_roster(name)
    if roster.game.name != game:
        raise InputError("targets", name, f"holds {roster.game.name} units, not {game}")
    return roster


def _answer(result: Balance, common: Common, top: int) -> Answer:
    """The study as an answer: every row in JSON and CSV; the top and bottom `top` in a text table."""
    from ..output.tables import StudyAnswer
    from .answer import Plot, caption

    rows = [_flat(row) for row in result.rows]
    ends = rows[:top] + rows[max(top, len(rows) - top):]
    targets = [f"{target.name}.P(kill or break){error}" for target in result.targets
               for error in ("", "_stderr") if error == "" or result.seed is not None]  # (sampled: ± its error)
    shown = [{**{key: row[key] for key in SHOWN}, "suggested points": _band(row),
              **{key: row[key] for key in targets}} for row in ends]
    header = {"command": command_line(WHERE), "method": result.method, "trials": result.trials, "seed": result.seed}
    content = StudyAnswer(tuple(rows), header, tuple(result.notes()), result.json(), tuple(shown), result.trials)
    plot = Plot(lambda plots: _figure(plots, result, top), caption(result.method, result.trials, result.seed, True, WHERE),
                common.plot)
    return Answer(content, common.output_format, plot, (), None, options=common.run)


def _band(row: dict[str, Any]) -> str:
    """An entry's suggested points as a player reads them: `160 (115–220)`."""
    if row["suggested_points"] is None:
        return ""
    return f"{row['suggested_points']} ({row['suggested_points_low']}–{row['suggested_points_high']})"


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    """A row as every format writes it: its queries one per line ("TARGET: QUERY")."""
    queries = row["queries"]
    return {**{k: v for k, v in row.items() if k != "queries"},
            "queries": "\n".join(f"{target}: {query}" for target, each in queries.items() for query in each)}


def _figure(plots: Any, result: Balance, top: int) -> Any:
    """The study as a committee reads it: the top and bottom `top` ranked entries' indexes (every ranked entry is
    worth something: those that hurt nothing are apart), and every ranked entry's value against its points, per
    kind. Returns the first panel."""
    from ..studies import balance as study_of

    top = min(top, plots.MAX_HEATMAP // 2)
    shown = study_of.ends(result, top)
    rows = len(shown)
    left, right = plots.panels(2, (16, max(5, 0.32 * rows + 2)))
    kinds = sorted({row["kind"] for row in result.rows})  # one colour per kind, the same in both panels
    plots.ranking([f"{row['rank']}. {row['entry']} ({row['army']})" for row in shown], [row["index"] for row in shown],
                  [row["kind"] for row in shown], result.far, ax=left, order=kinds,
                  title=f"{result.game.title}: the top and bottom {top} entries, each by its index within its kind")
    plots.value_points([row["points"] for row in result.rows], [row["value"] for row in result.rows],
                       [row["kind"] for row in result.rows], ax=right, order=kinds,
                       title="Every ranked entry: its value against its points, by kind (lines: each kind's median)")
    return left


command("balance", balance, study=True, without=("at_least",), examples=[
    "oddscalc balance ../wh40k-epic-armageddon --exact",
    "oddscalc balance ../The-9th-Age --exact --engage --format csv",
    "oddscalc balance ../wh40k-epic-armageddon --exact --store study.jsonl --plot outliers.png",
])
