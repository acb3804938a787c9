"""What a study reads off a distribution, and what it seeks: `Statistic` (`mean`, `at_least_3`,
`broken.at_least_1` ...) and `Goal` (`at_least_3>=0.8`), and the summary row of one result
(`summary_row`, `run_details`) that sweeps, comparisons and grids all write.
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable, Sequence

from ..core import engine
from ..output import style
from ..errors import InputError
from ..core.options import Method
from ..core.record import record

_STAT = re.compile(r"^(?:(?P<outcome>[a-z_]+)\.)?(?P<stat>mean|sd|median|p10|p90|at_least_[0-9]+|at_most_[0-9]+|"
                   r"exactly_[0-9]+)$")
_GOAL = re.compile(r"^\s*(?P<stat>[a-z_.0-9]+)\s*(?P<op>>=|<=)\s*(?P<target>-?[0-9.]+(?:e[+-]?[0-9]+)?)\s*(?P<percent>%?)\s*$")
STAT_HELP = "mean, sd, median, p10, p90, at_least_K, at_most_K or exactly_K, optionally OUTCOME.STAT"


@record
class Statistic:
    """A number read off one outcome's distribution: `mean`, `at_least_3`, `broken.at_least_1`..."""

    outcome: str | None
    name: str

    @classmethod
    def parse(cls, text: str, option: str = "stat") -> Statistic:
        match = _STAT.match(text.strip())
        if not match:
            raise InputError(option, text, f"expected {STAT_HELP}")
        return cls(match.group("outcome"), match.group("stat"))

    def __str__(self) -> str:
        return f"{self.outcome}.{self.name}" if self.outcome else self.name

    def label(self, result: engine.Result | str) -> str:
        """The statistic in words for the outcomes of `result` (or its main outcome's name): P(kills ≥ 3)."""
        main = result if isinstance(result, str) else result.main
        events = () if isinstance(result, str) else result.events
        outcome = self.outcome or main
        kind, _, k = self.name.rpartition("_")
        if outcome in events and (self.name == "mean" or self.name == "at_least_1" or self.name == "exactly_1"):
            return f"P({outcome})"
        if kind == "at_least":
            return f"P({outcome} ≥ {k})"
        if kind == "at_most":
            return f"P({outcome} ≤ {k})"
        if kind == "exactly":
            return f"P({outcome} = {k})"
        return f"{self.name} {outcome}"

    def is_probability(self, result: engine.Result) -> bool:
        """Whether the statistic is a probability (drawn on a % axis)."""
        outcome = self.outcome or result.main
        return self.name.startswith(("at_least_", "at_most_", "exactly_")) or \
            (self.name == "mean" and outcome in result.events)

    @classmethod
    def chosen(cls, stat: str | None, goal: Goal | None, outcome: str | None, outcomes: Sequence[str]) -> Statistic:
        """The statistic a study draws: `stat`, else the goal's, else the mean of `outcome` (the
        main outcome's when None), refused unless the attack has its outcome."""
        statistic = cls.parse(stat) if stat else goal.statistic if goal else cls(outcome, "mean")
        statistic.check(outcomes, "stat")
        return statistic

    def check(self, outcomes: Sequence[str], option: str = "stat") -> None:
        """Refuse, before any work, a statistic of an outcome that the attacks do not have."""
        if self.outcome is not None and self.outcome not in outcomes:
            raise InputError(option, str(self), f"the query has no outcome {self.outcome}; it has {', '.join(outcomes)}")

    def value(self, result: engine.Result) -> tuple[float, float]:
        """The statistic and its standard error (0 when exact)."""
        outcome = self.outcome or result.main
        self.check(tuple(result.outcomes), "stat")
        dist = result[outcome]
        kind, _, k = self.name.rpartition("_")
        if kind in ("at_least", "at_most", "exactly"):
            p = {"at_least": dist.at_least, "at_most": dist.at_most, "exactly": dist.probability}[kind](int(k))
            return p, dist.stderr(p)
        if self.name == "mean":
            return dist.mean, dist.mean_stderr
        if self.name == "sd":
            return dist.sd, 0.0
        q = {"median": 0.5, "p10": 0.1, "p90": 0.9}[self.name]
        return float(dist.quantile(q)), 0.0


@record
class Goal:
    """`STAT>=P` or `STAT<=P`: the condition a swept value must reach."""

    statistic: Statistic
    at_least: bool
    target: float

    @classmethod
    def parse(cls, text: str) -> Goal:
        match = _GOAL.match(text)
        if not match:
            raise InputError("goal", text, f"expected STAT>=P or STAT<=P, with STAT one of {STAT_HELP}, and P a "
                                           "number (a probability as a fraction, 0.5, or a percentage, 50%)")
        try:
            target = float(match.group("target")) / (100 if match.group("percent") else 1)
        except ValueError:
            raise InputError("goal", text, "expected a number after >= or <=") from None
        if not math.isfinite(target):
            raise InputError("goal", text, "expected a finite number after >= or <=")
        return cls(Statistic.parse(match.group("stat"), "goal"), match.group("op") == ">=", target)

    def __str__(self) -> str:
        return f"{self.statistic}{'>=' if self.at_least else '<='}{self.target:g}"

    def reached(self, value: float) -> bool:
        return value >= self.target if self.at_least else value <= self.target

    def words(self, result: engine.Result) -> str:
        """The goal as a player reads it: `P(broken) ≥ 50%`, `mean kills ≥ 3`."""
        probability = self.statistic.is_probability(result)
        target = style.percent(self.target) if probability else style.number(self.target)
        return f"{self.statistic.label(result)} {'≥' if self.at_least else '≤'} {target}"

    def shown(self, value: float, error: float, result: engine.Result) -> str:
        """A value of the goal's statistic in the style of the table: a percentage for a probability."""
        if self.statistic.is_probability(result):
            return style.percent(value, error or None)
        return style.number(value, error or None)


def figure(result: engine.Result, value: float) -> float:
    """A figure of a row as the query's JSON gives it: an exact one without its float noise (`style.clean`), so a
    row and its query agree to the last digit."""
    return style.clean(value) if result.method == Method.EXACT else value


def summary_row(result: engine.Result, outcome: str, at_least: Iterable[int] = ()) -> dict[str, Any]:
    """The statistics of one outcome as a flat row (for tidy tables); a yes/no outcome's is its probability."""
    dist = result[outcome]
    if outcome in result.events:  # its mean is its probability: both kept (CLI.md, fifth round)
        p = dist.at_least(1)
        return {"outcome": outcome, "mean": figure(result, dist.mean), "mean_stderr": dist.mean_stderr,
                "probability": figure(result, p), "probability_stderr": dist.stderr(p)}
    row: dict[str, Any] = {
        "outcome": outcome,
        "mean": figure(result, dist.mean),
        "mean_stderr": dist.mean_stderr,
        "sd": figure(result, dist.sd),
        "median": dist.median,
        "p10": dist.quantile(0.1),
        "p90": dist.quantile(0.9),
    }
    for k in at_least:
        row[f"at_least_{k}"] = figure(result, dist.at_least(k))
        row[f"at_least_{k}_stderr"] = dist.at_least_stderr(k)
    return row


def run_details(result: engine.Result) -> dict[str, Any]:
    """What a row says about how its cell ran: trials used, and the verification when asked for."""
    row: dict[str, Any] = {}
    if result.precision_reached is not None:
        row["trials"] = result.trials
        row["precision_reached"] = result.precision_reached
    if result.verification:
        check = result.verification[result.main]
        row["cdf_gap"], row["dkw_bound"] = check.gap, check.bound
        row["verified"] = result.verified
    return row
