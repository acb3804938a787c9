"""An Epic Armageddon engagement round after round (docs/rules.md §2.9; rulebook 1.12.5-1.12.8): both sides'
attacks on each other's state (`engagement.Side`), the result roll with every modifier of 1.12.7, another round
on a tie, the loser's extra hits; exactly (pmfs over both sides' state codes) and sampled (trials in the same
state rolling together). The query that asks it is `assault.Assault`."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.totals import keep_pmf
from ..core.keyed import groups
from .engagement import Side

ENGAGED = ("win", "draw", "kills", "losses", "margin", "destroyed", "blast_markers", "enemy_blast_markers")
EVENTS = ("win", "draw", "destroyed")


@lru_cache(maxsize=8)
def result_gaps(keep_highest: bool) -> tuple[tuple[int, Fraction], ...]:
    """(this side's roll − the enemy's, its chance) of the result roll's dice, before modifiers."""
    roll = keep_pmf(1, 6, 1) if keep_highest else keep_pmf(2, 6, 0)  # its highest die, or 2D6 added
    gaps: dict[int, Fraction] = {}
    for mine, p in enumerate(roll):
        for theirs, q in enumerate(roll):
            if p and q:
                gaps[mine - theirs] = gaps.get(mine - theirs, Fraction(0)) + p * q
    return tuple(sorted(gaps.items()))


def modifiers(mine: Side, theirs: Side, kills: Any, my_left: Any, their_left: Any, inspiring: Any = 0) -> Any:
    """This side's result modifiers (1.12.7), for whole numbers or arrays of them: its kills, outnumbering, no
    blast markers, fewer than the enemy's, its Inspiring units left (2.1.5) and its --bonus."""
    markers, their_markers = mine.markers(my_left), theirs.markers(their_left)
    return (kills + (my_left > their_left) * 1 + (my_left > 2 * their_left) * 1 + mine.unmarked(my_left) * 1
            + (their_markers > markers) * 1 + inspiring + mine.bonus)


# What an exact engagement costs (measured on this machine, floats / fractions): each pair of states a round
# starts from, and each cell of the pairs of states it reaches.
PER_STATE = {False: 2.5e-4, True: 1e-3}
EXACT_RATE = {False: 5e7, True: 2e5}


def exact_seconds(mine: Side, theirs: Side, rounds: int, rational: bool) -> float:
    """About how long the exact engagement takes, on the safe side: each round after the first from every pair
    of states through every pair of states, and the result dice's gaps on each."""
    pairs = mine.size * theirs.size
    rounds_after = max(rounds - 1, 0)
    return (pairs * 21 / EXACT_RATE[rational]
            + rounds_after * pairs * (PER_STATE[rational] + (pairs + 21) / EXACT_RATE[rational]))


def markers_after(side: Side, held: Any, code: Any) -> Any:
    """A formation's blast markers after the assault (1.12.8, 1.12.9; a point of damage on a war engine one,
    3.2.4): where it held (won or drew), those it had and one per unit it lost, none removed (a broken one stays
    broken: one per unit left); lost, it is broken: one per unit left."""
    kept = side.left[code] if side.broken else side.blast_markers + side.casualties[code]
    return np.where(held, kept, side.left[code])


class _Tally:
    """The outcomes' pmfs, gathered from weighted cells (weights, and both sides' codes as arrays) and added up
    once."""

    def __init__(self, zero: Any, mine: Side, theirs: Side) -> None:
        self.zero, self.mine, self.theirs = zero, mine, theirs
        self.parts: list[tuple[np.ndarray, dict[str, Any]]] = []

    def add(self, weights: np.ndarray, theirs: Any, mine: Any, **values: Any) -> None:
        if not np.size(weights):
            return
        theirs, mine = np.asarray(theirs), np.asarray(mine)
        values.update(kills=self.theirs.casualties[theirs], losses=self.mine.casualties[mine],
                      destroyed=(self.theirs.left[theirs] == 0) * 1)
        win, draw = np.asarray(values["win"]), np.asarray(values["draw"])
        values["blast_markers"] = markers_after(self.mine, (win == 1) | (draw == 1), mine)
        values["enemy_blast_markers"] = markers_after(self.theirs, (win == 0) | (draw == 1), theirs)
        self.parts.append((weights, {name: np.broadcast_to(value, np.shape(weights))
                                     for name, value in values.items()}))

    def arrays(self) -> dict[str, np.ndarray]:
        weights = np.concatenate([part[0] for part in self.parts])
        summed = {name: _summed(np.concatenate([part[1][name] for part in self.parts]).astype(np.int64), weights,
                                self.zero) for name in ENGAGED}
        return {name: (pmfs.array([*pmf, *[self.zero] * (2 - len(pmf))]) if name in EVENTS else pmfs.trim(pmf))
                for name, pmf in summed.items()}


def _summed(values: np.ndarray, weights: np.ndarray, zero: Any) -> np.ndarray:
    """The pmf of `values` weighted by `weights`: floats by bincount, exact numbers added one by one."""
    if weights.dtype != object:
        return np.bincount(values, weights=weights)
    pmf = [zero] * (int(values.max()) + 1)
    for value, weight in zip(values.tolist(), weights):
        pmf[value] += weight
    return pmfs.array(pmf)


def _round_joint(mine: Side, theirs: Side, their_code: int, my_code: int, number: NumberType) -> np.ndarray:
    """joint[their code, my code] after one round: both sides at once (an outer product), or the side with
    First Strike first, the other with the units it has left (2.2.4)."""
    if mine.first_strike == theirs.first_strike:
        return np.asarray(np.multiply.outer(theirs.attacked(their_code, mine.attacks(my_code), number),
                                            mine.attacked(my_code, theirs.attacks(their_code), number)))
    if mine.first_strike:
        first = theirs.attacked(their_code, mine.attacks(my_code), number)
        joint = np.multiply.outer(first, pmfs.zeros(mine.size, number(0)))
        for code in np.flatnonzero(first != 0):
            joint[code] = first[code] * mine.attacked(my_code, theirs.attacks(int(code)), number)
        return np.asarray(joint)
    return _round_joint(theirs, mine, my_code, their_code, number).T


def _round_joints(mine: Side, theirs: Side, keys: np.ndarray, chances: np.ndarray, number: NumberType) -> np.ndarray:
    """joint[their code, my code] after a round from each pair of states `keys` (their code × my size + my code)
    weighed by `chances`: when both strike at once, each side's pmfs after the round stacked and multiplied in
    one product of matrices."""
    pairs = [divmod(key, mine.size) for key in keys.tolist()]
    if mine.first_strike != theirs.first_strike:
        return sum((_round_joint(mine, theirs, their_code, my_code, number) * weight
                    for (their_code, my_code), weight in zip(pairs, chances)), pmfs.zeros(1, number(0)))
    theirs_after = np.stack([theirs.attacked(their_code, mine.attacks(my_code), number) for their_code, my_code
                             in pairs])
    mine_after = np.stack([mine.attacked(my_code, theirs.attacks(their_code), number) for their_code, my_code
                           in pairs])
    return np.asarray((theirs_after * chances[:, None]).T @ mine_after)


def _merged(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(unique keys, their weights summed): floats by bincount, exact numbers added one by one."""
    unique, inverse = np.unique(keys, return_inverse=True)
    if weights.dtype != object:
        return unique, np.bincount(inverse.ravel(), weights=weights, minlength=len(unique))
    if not len(weights):
        return unique, weights
    summed = [weights[0] * 0] * len(unique)
    for at, weight in zip(inverse.ravel().tolist(), weights):
        summed[at] += weight
    return unique, np.array(summed, dtype=object)


def engagement_pmfs(mine: Side, theirs: Side, rounds: int, keep_highest: bool,
                    number: NumberType) -> dict[str, np.ndarray]:
    """The exact pmfs of an engagement's outcomes: each round's losses on both sides (binomials convolved, hits
    allocated) from every pair of states, then the result roll on every pair of states after it; a tie goes on
    to the next round from its states."""
    tally = _Tally(number(0), mine, theirs)
    gaps = [(gap, number(p)) for gap, p in result_gaps(keep_highest)]
    keys, chances = np.zeros(1, dtype=np.int64), pmfs.array([number(1)])  # their code × my size + my code
    for round_ in range(rounds):
        if not len(keys):
            break
        joint = _round_joints(mine, theirs, keys, chances, number).ravel()
        pairs = np.flatnonzero(joint != 0)
        joint = joint[pairs]
        theirs_at, mine_at = np.divmod(pairs, mine.size)
        kills, losses = theirs.casualties[theirs_at], mine.casualties[mine_at]
        their_left, my_left = theirs.left[theirs_at], mine.left[mine_at]
        stalled = my_left == 0  # every attacker gone: the attack stalled, even with no defender left
        wiped = (their_left == 0) & ~stalled
        for chosen, win in ((stalled, 0), (wiped, 1)):
            tally.add(joint[chosen], theirs_at[chosen], mine_at[chosen], win=win, draw=0, margin=0)
        fight = ~(stalled | wiped)
        theirs_at, mine_at, joint = theirs_at[fight], mine_at[fight], joint[fight]
        ahead = (modifiers(mine, theirs, kills[fight], my_left[fight], their_left[fight], mine.inspiring[mine_at])
                 - modifiers(theirs, mine, losses[fight], their_left[fight], my_left[fight],
                             theirs.inspiring[theirs_at]))
        total = (ahead[:, None] + np.array([gap for gap, _ in gaps])[None, :]).ravel()  # every gap at once
        weights = (joint[:, None] * pmfs.array([p for _, p in gaps])[None, :]).ravel()
        theirs_at, mine_at = np.repeat(theirs_at, len(gaps)), np.repeat(mine_at, len(gaps))
        won, lose, tie = total > 0, total < 0, total == 0
        row, branches, odds = theirs.extra(theirs_at[won], total[won], number)
        tally.add(weights[won][row] * odds, branches, mine_at[won][row], win=1, draw=0, margin=total[won][row])
        row, branches, odds = mine.extra(mine_at[lose], -total[lose], number)
        tally.add(weights[lose][row] * odds, theirs_at[lose][row], branches, win=0, draw=0, margin=-total[lose][row])
        if round_ + 1 == rounds:
            tally.add(weights[tie], theirs_at[tie], mine_at[tie], win=0, draw=1, margin=0)
        else:
            keys, chances = _merged(theirs_at[tie] * mine.size + mine_at[tie], weights[tie])
    return tally.arrays()


# --- sampled ----------------------------------------------------------------------------


def _round_sample(rng: np.random.Generator, mine: Side, theirs: Side, their_code: int, my_code: int,
                  trials: int) -> tuple[np.ndarray, np.ndarray]:
    """(their states, my states) after one round in `trials` from the same codes: at once, or First Strike first
    and the other side with the units it has left, trials in the same state rolling together."""
    if mine.first_strike == theirs.first_strike:
        return (theirs.attacked_sample(rng, their_code, mine.attacks(my_code), trials),
                mine.attacked_sample(rng, my_code, theirs.attacks(their_code), trials))
    if theirs.first_strike:
        after_mine, after_theirs = _round_sample(rng, theirs, mine, my_code, their_code, trials)
        return after_theirs, after_mine
    after_theirs = theirs.attacked_sample(rng, their_code, mine.attacks(my_code), trials)
    after_mine = np.zeros((trials, len(mine.dims)), dtype=np.int64)
    for code, chosen in groups(theirs.code(after_theirs)):
        after_mine[chosen] = mine.attacked_sample(rng, my_code, theirs.attacks(code), len(chosen))
    return after_theirs, after_mine


TABLE_MOST = 1 << 22  # pairs of states whose result modifiers are worked once into a table (else per trial)


@lru_cache(maxsize=4)
def result_faces(keep_highest: bool) -> np.ndarray:
    """The result roll's gap (this side's dice − the enemy's) for each of its equally likely faces: 6^4 of 2D6
    against 2D6, or 6^2 of each side's highest die (`result_gaps`' pmf, face by face): one draw a trial."""
    dice = np.indices((6,) * 4).reshape(4, -1) + 1
    ours = np.maximum(dice[0], dice[1]) if keep_highest else dice[0] + dice[1]
    theirs = np.maximum(dice[2], dice[3]) if keep_highest else dice[2] + dice[3]
    return np.asarray(ours - theirs).astype(np.int8)


def _leads(mine: Side, theirs: Side) -> np.ndarray | None:
    """lead[their code * my size + my code]: my result modifiers less theirs in that pair of states (`modifiers`),
    worked once for every pair (None where the pairs are too many: worked per trial)."""
    if mine.size * theirs.size > TABLE_MOST:
        return None
    yours, ours = (code.ravel() for code in np.indices((theirs.size, mine.size)))
    return _lead(mine, theirs, ours, yours)


def _lead(mine: Side, theirs: Side, ours: np.ndarray, yours: np.ndarray) -> np.ndarray:
    kills, losses = theirs.casualties[yours], mine.casualties[ours]
    their_left, my_left = theirs.left[yours], mine.left[ours]
    return np.asarray(modifiers(mine, theirs, kills, my_left, their_left, mine.inspiring[ours])
                      - modifiers(theirs, mine, losses, their_left, my_left, theirs.inspiring[yours]))


def engagement_sample(rng: np.random.Generator, mine: Side, theirs: Side, rounds: int, keep_highest: bool,
                      trials: int) -> dict[str, np.ndarray]:
    """Each trial's engagement, round after round: trials in the same state (both sides' codes) roll together; the
    result roll one draw of its faces (`result_faces`), its modifiers gathered from a table by the pair of states."""
    their_codes, my_codes = np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)
    out = {name: np.zeros(trials, dtype=np.int64) for name in ENGAGED}
    going = np.ones(trials, dtype=bool)
    faces = result_faces(keep_highest)
    leads = _leads(mine, theirs)
    for round_ in range(rounds):
        full = round_ == 0  # the first round: every trial, read in place; a later round: the drawn trials only
        playing = np.arange(trials) if full else np.flatnonzero(going)
        ours, yours = (my_codes, their_codes) if full else (my_codes[playing], their_codes[playing])
        for pair, at in groups(yours * mine.size + ours):
            their_code, my_code = divmod(pair, mine.size)
            chosen = at if full else playing[at]
            after_theirs, after_mine = _round_sample(rng, mine, theirs, their_code, my_code, len(playing[at]))
            their_codes[chosen], my_codes[chosen] = theirs.code(after_theirs), mine.code(after_mine)
        if not full:
            ours, yours = my_codes[playing], their_codes[playing]
        their_left, my_left = theirs.left[yours], mine.left[ours]
        stalled, wiped = my_left == 0, (their_left == 0) & (my_left > 0)
        out["win"][playing[wiped]] = 1
        fight = ~stalled & ~wiped
        lead = leads[yours * mine.size + ours] if leads is not None else _lead(mine, theirs, ours, yours)
        ahead = faces[rng.integers(0, len(faces), size=len(playing), dtype=np.int16)] + lead
        won, lose = fight & (ahead > 0), fight & (ahead < 0)
        out["win"][playing[won]] = 1
        out["margin"][playing[won | lose]] = np.abs(ahead[won | lose])
        their_codes[playing[won]] = theirs.extra_sample(rng, yours[won], ahead[won])
        my_codes[playing[lose]] = mine.extra_sample(rng, ours[lose], -ahead[lose])
        going[playing] = fight & (ahead == 0)
        if round_ + 1 == rounds:
            out["draw"][going] = 1
    out["kills"], out["losses"] = theirs.casualties[their_codes], mine.casualties[my_codes]
    out["blast_markers"] = markers_after(mine, (out["win"] == 1) | (out["draw"] == 1), my_codes)
    out["enemy_blast_markers"] = markers_after(theirs, (out["win"] == 0) | (out["draw"] == 1), their_codes)
    out["destroyed"] = (theirs.left[their_codes] == 0) * 1
    return out


# --- the query --------------------------------------------------------------------------
