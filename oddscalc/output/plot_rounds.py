"""The picture of a fight of rounds (`t9a combat --rounds N --by-round`, `--plot FILE --outcome rounds`): in
which round the fight is decided, and what each side has lost by the end of each round; the figures come from
the per-round outcomes (`t9a.fight.by_round`), drawn by `plots`' house style."""

from __future__ import annotations

from typing import Any

from .plot_axes import Z95, axes, title
from .style import number, percent
from ..core.record import record

CHARGER, CHARGED = "#4C72B0", "#DD8452"


@record
class RoundsData:
    """What the rounds picture shows, whoever draws it: each round, P(the fight is decided in it) in % with its
    95 % half-width (sampled), P(still going when the rounds ran out), and each side's mean Health Points lost
    by the end of each round with their 95 % half-widths."""

    rounds: list[int]
    decided: list[float]
    decided_errors: list[float]
    undecided: float
    lost: list[tuple[str, list[float], list[float]]]


def rounds_data(result: Any) -> RoundsData:
    """The picture's figures, from a result with the per-round outcomes."""
    count = sum(name.startswith("health_lost_by_round_") for name in result.outcomes)
    fought = result["rounds"]
    pmf = list(fought.probabilities) + [0.0] * (count + 1 - len(fought.probabilities))
    decided_at_all = result["decided"].at_least(1)
    shares = [pmf[k] for k in range(1, count)] + [decided_at_all - sum(pmf[1:count])]
    shares = [max(share, 0.0) for share in shares]
    errors = [Z95 * fought.stderr(share) * 100 for share in shares]
    lost = []
    for label, prefix in (("the charger's side", "health_lost"), ("the charged unit", "enemy_health_lost")):
        series = [result[f"{prefix}_by_round_{k}"] for k in range(1, count + 1)]
        lost.append((label, [dist.mean for dist in series], [Z95 * (dist.mean_stderr or 0) for dist in series]))
    return RoundsData(list(range(1, count + 1)), [share * 100 for share in shares], errors,
                      (1 - decided_at_all) * 100, lost)


def rounds(result: Any, heading: str | None = None) -> Any:
    """Draw the rounds picture: bars of P(decided in round k) over the rounds, and under them each side's Health
    Points lost by the end of each round; return the upper axes."""
    data = rounds_data(result)
    first = axes(None, (8, 6.4))
    figure = first.figure
    first.remove()
    top, bottom = figure.subplots(2, 1, sharex=True)
    errors = data.decided_errors if any(data.decided_errors) else None  # exact: no error bars
    bars = top.bar(data.rounds, data.decided, color=CHARGER, yerr=errors, capsize=3)
    for bar, value in zip(bars, data.decided):
        top.annotate(percent(value / 100), (bar.get_x() + bar.get_width() / 2, value), textcoords="offset points",
                     xytext=(0, 4), ha="center", fontsize=8)
    top.set_ylabel("decided in this round, %")
    top.set_ylim(0, max([*data.decided, 1.0]) * 1.25)
    for (label, means, errors), color in zip(data.lost, (CHARGER, CHARGED)):
        bottom.errorbar(data.rounds, means, yerr=errors if any(errors) else None, marker="o", color=color,
                        capsize=3, label=label)
    bottom.set_ylim(bottom=0)
    bottom.set_xlabel("round")
    bottom.set_ylabel("Health Points lost by its end")
    bottom.set_xticks(data.rounds)
    bottom.legend(frameon=False, fontsize=9)
    going = f"; still fighting after round {data.rounds[-1]}: {percent(data.undecided / 100)}" \
        if data.undecided > 0.005 else ""
    title(top, heading, f"in which round the fight is decided, and what each side has lost{going}")
    return top


def describe(data: RoundsData) -> str:
    """The picture in words (its caption's alternative for a reader without it)."""
    parts = [f"round {k}: {percent(share / 100)} decided" for k, share in zip(data.rounds, data.decided)]
    lost = "; ".join(f"{label} {number(means[-1])} Health Points by the end" for label, means, _ in data.lost)
    return ", ".join(parts) + "; " + lost
