"""The 9th Age: a combat sampled (docs/rules.md §3.11): step by step, round by round, for all trials at once, each
blow's Health Points drawn from its attack's pmf (t9a melee's and t9a hits' own samplers roll every die and are
checked against those pmfs apart), every Break Test, Flee and Pursuit rolled; each trial's state is the charger's side's code (`troop.Line`: each of its units' Health Points
lost, its character's, whether it fled) and the charged unit's (`troop.Troop`). The exact twin is
`fight_exact.py`'s; the rules both read are `fight.Fight`'s."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.keyed import indexed
from .fight import OUTCOMES, SLAIN, Blow, Fight, by_round
from .readings import Pursuit
from .fighter import lost_pmf
from .troop import CAUGHT, FLED, OVERKILL, Troop


def _two_d6(rng: np.random.Generator, maximised: Any, trials: int) -> np.ndarray:
    """Each trial's 2D6, Maximised where `maximised` (three dice, the lowest dropped)."""
    if not np.any(maximised):
        dice = rng.integers(1, 7, size=(2, trials), dtype=np.int8)
        return np.asarray(dice[0] + dice[1])
    dice = rng.integers(1, 7, size=(trials, 3), dtype=np.int8)
    return np.asarray(np.where(maximised, dice.sum(axis=1) - dice.min(axis=1), dice[:, 0] + dice[:, 1]))


def _cdf(fight: Fight, blow: Blow, count: int, struck: tuple[int, int]) -> np.ndarray:
    """The cdf of the Health Points a blow of `count` attacks takes from the pool `struck` (t9a melee's or t9a
    hits' pmf, whose sampler rolls every die and is checked against the same pmf in its own agreement tests), its
    last entry 1.0 exactly; no attacks: none taken. Kept by blow, count and pool: a later round meets the same."""
    cdfs: dict[tuple[Blow, int, tuple[int, int]], np.ndarray] = fight.__dict__.setdefault("_cdfs", {})
    if (blow, count, struck) not in cdfs:
        if not count:
            cdfs[blow, count, struck] = np.ones(1)
        else:
            cdf = np.cumsum(lost_pmf(fight.attack(blow, count, struck, 0), float))
            cdfs[blow, count, struck] = cdf / cdf[-1]  # its last 1.0 exactly: every draw below it
    return cdfs[blow, count, struck]


def _drawn(rng: np.random.Generator, fight: Fight, blow: Blow, keys: np.ndarray, rows: np.ndarray | None,
           pools: int, trials: int) -> tuple[np.ndarray, np.ndarray]:
    """(each trial's Health Points a blow takes, the pool it strikes: unit * 2 + 0 or 1), drawn from the cdf of
    its row's attacks: one uniform a trial, not a die an attack. `keys` are the blow's distinct rows (count *
    pools + pool struck), `rows` each trial's row (None: one row). The rows' cdfs stand end to end, row r's
    shifted by r, so that one search finds every trial's draw in its own row."""
    counts, wheres = np.divmod(keys, pools)
    cdfs = [_cdf(fight, blow, int(count), divmod(int(where), 2)) for count, where in zip(counts, wheres)]
    if rows is None:
        return np.searchsorted(cdfs[0], rng.random(trials), side="right"), wheres
    starts = np.cumsum([0] + [len(cdf) for cdf in cdfs])
    flat = np.concatenate([row + cdf for row, cdf in enumerate(cdfs)])
    found = np.searchsorted(flat, rows + rng.random(len(rows)), side="right")
    return np.minimum(found, starts[1:][rows] - 1) - starts[:-1][rows], wheres  # (a sum rounded up to r + 1)


def _sample_step(rng: np.random.Generator, fight: Fight, blows: tuple[Blow, ...], codes: list[np.ndarray],
                 playing: np.ndarray | slice) -> None:
    """One Initiative Step of the trials still `playing`: its blows, each trial's from the models standing as it
    begins, on the pool each strikes (`Fight.struck`), each pool at most what it has left (a Duel's Overkill)."""
    lines = fight.lines
    now = [codes[0][playing], codes[1][playing]]  # (every trial, in the first round: views, read before written)
    size = len(now[0])
    keys = now[0] * lines[1].states + now[1]
    if len(keys) and keys.min() == keys.max():  # one state (the first step): no sort
        distinct, inverse = keys[:1], np.zeros(len(keys), dtype=np.int64)
    else:
        distinct, inverse = indexed(keys)
    pools = 2 * max(len(line.troops) for line in lines)  # a blow's key: count * pools + the pool struck (unit * 2
    #                                                       + 0 or 1)
    c, e = np.divmod(distinct, lines[1].states)  # every distinct state's blows at once
    struck = np.stack([np.where((pool := fight.struck(blow, c, e)) >= 0, fight.count(blow, c, e) * pools + pool, 0)
                       for blow in blows], axis=1).reshape(-1, len(blows))
    dealt: dict[tuple[int, int, int], np.ndarray] = {}  # (side struck, unit, pool) -> each trial's Health Points
    for blow, each in zip(blows, struck.T):
        keys, rows = np.unique(each, return_inverse=True)  # the blow's rows, by the distinct states
        if not (keys // pools).any():
            continue
        trial_rows = rows.ravel()[inverse.ravel()] if len(keys) > 1 else None
        lost, wheres = _drawn(rng, fight, blow, keys, trial_rows, pools, size)
        aimed = sorted({int(where) for key, where in zip(keys, wheres) if key // pools})
        for where in aimed:
            unit, pool = divmod(where, 2)
            into = dealt.setdefault((1 - blow.side, unit, pool), np.zeros(size, dtype=np.int64))
            if len(aimed) == 1:  # rows of no attacks take none: every draw is this pool's
                into += lost
            else:
                into += np.where(wheres[trial_rows] == where, lost, 0)
    duel = fight.duelling(now[0], now[1]) if any(pool for _, _, pool in dealt) else False
    for side, line in enumerate(lines):
        if not any(struck == side for struck, _, _ in dealt):
            continue  # nothing struck this side: its codes stay
        parts = line.split(now[side])
        for unit, (troop, (flag, own)) in enumerate(zip(line.troops, parts)):
            at_file, at_hero = dealt.get((side, unit, 0)), dealt.get((side, unit, 1))
            if at_file is None and at_hero is None:
                continue
            lost, hero = troop.pools(own)
            if at_file is not None:
                lost = lost + np.minimum(at_file, troop.unit.total - lost)
            if at_hero is not None:
                room = np.maximum(troop.health - hero, 0) + np.where(duel & troop.duel & (hero < troop.health),
                                                                     OVERKILL, 0)
                hero = hero + np.minimum(at_hero, room)
            parts[unit] = (flag, troop.code(lost, hero))
        codes[side][playing] = line.join(parts, line.faced(now[side]))


def _break_test(rng: np.random.Generator, troop: Troop, code: np.ndarray, penalty: np.ndarray,
                reform: bool = False) -> np.ndarray:
    """Whether each of a unit's Break Tests fails: 2D6 above its Discipline less the penalty (none when Stubborn),
    its character's Discipline and Stubborn while it stands, a Battle Standard's re-roll; never when Unbreakable
    (`reform`: its Combat Reform's Discipline test, Unbreakable or not)."""
    active = troop.active(code)
    penalty = np.where(troop.stubborn(active), 0, penalty)
    discipline = troop.discipline(active)
    failed = _two_d6(rng, False, len(code)) > discipline - penalty
    rally = troop.rally(active) & np.ones(len(code), dtype=bool)
    if np.any(rally):  # Rally Around the Flag: a failed test re-rolled
        failed &= ~rally | (_two_d6(rng, False, len(code)) > discipline - penalty)
    return np.asarray(failed & (reform or not troop.unit.unbreakable))


def _pursues(rng: np.random.Generator, fight: Fight, troop: Troop, code: np.ndarray) -> np.ndarray:
    """Whether a winner pursues: always, or when its Restrain Pursuit test (its Discipline) fails."""
    if fight.pursuit is not Pursuit.RESTRAIN:
        return np.ones(len(code), dtype=bool)
    return np.asarray(_two_d6(rng, False, len(code)) > troop.discipline(troop.active(code)))


def _tests(rng: np.random.Generator, fight: Fight, loser: int, codes: list[np.ndarray], tests: np.ndarray,
           margin: np.ndarray, steadfast: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The side `loser` lost, in the trials `tests`: (one of its units broke, one was caught, its codes after).
    Each of its units standing takes its Break Test (no penalty when Steadfast); each broken one flees (2D6,
    Maximised with Swiftstride); each of the winner's units standing pursues one broken unit in base contact with
    it (by `chase`: the main one first, or the allies first), after a failed Restrain Pursuit test when it
    restrains; a fleeing unit is caught when any of its pursuers' rolls equals or beats its Flee roll."""
    line, theirs, winner = fight.lines[loser], fight.lines[1 - loser], 1 - loser
    parts, lefts = line.split(codes[loser][tests]), line.left(codes[loser][tests])
    broke = [(left > 0) & _break_test(rng, troop, own, np.where(sure, 0, margin))
             for troop, left, (_, own), sure in zip(line.troops, lefts, parts, steadfast)]
    flee = [_two_d6(rng, troop.unit.swiftstride, len(tests)) for troop in line.troops]
    caught = [np.zeros(len(tests), dtype=bool) for _ in line.troops]
    order = fight.chase_order(len(line.troops))
    for unit, (troop, left, (_, own)) in enumerate(zip(theirs.troops, theirs.left(codes[winner][tests]),
                                                       theirs.split(codes[winner][tests]))):
        reach = [index for index in order if index in fight.foes(winner, unit)]
        chosen = np.full(len(tests), -1)
        for index in reversed(reach):  # the last written wins: the first of `reach` that broke
            chosen = np.where(broke[index], index, chosen)
        pursuing = (left > 0) & _pursues(rng, fight, troop, own)
        roll = _two_d6(rng, troop.unit.swiftstride, len(tests))
        for index in reach:
            caught[index] |= (chosen == index) & pursuing & (roll >= flee[index])
    any_broke, any_caught = np.logical_or.reduce(broke), np.logical_or.reduce(caught)
    if not line.flagged:
        return any_broke, any_caught, codes[loser][tests]
    flagged = [(np.where(gone, np.where(taken, CAUGHT, FLED), flag), own)
               for gone, taken, (flag, own) in zip(broke, caught, parts)]
    return any_broke, any_caught, line.join(flagged, line.faced(codes[loser][tests]))


def _reform(rng: np.random.Generator, fight: Fight, codes: list[np.ndarray], at: np.ndarray, lost_0: np.ndarray,
            lost_1: np.ndarray, margin: np.ndarray, steadfast: list[np.ndarray]) -> None:
    """The Combat Reforms of the fights going on, `at`: a main unit that may (`Fight.reforming`) turns to face its
    enemy, after a lost round (`lost_0`, `lost_1`: each side's) only when its Discipline test passes (the Break
    Test's penalty, none when Steadfast)."""
    for side, (line, lost) in enumerate(zip(fight.lines, (lost_0, lost_1))):
        if not line.reforms:
            continue
        now = (codes[0][at], codes[1][at])
        may = fight.reforming(side, now)
        if not may.any():
            continue
        own = line.split(now[side])[0][1]
        failed = lost & _break_test(rng, line.troops[0], own, np.where(steadfast[side], 0, margin), reform=True)
        turned = at[may & ~failed]
        codes[side][turned] = line.face(codes[side][turned])


def combat_sample(rng: np.random.Generator, fight: Fight, rounds: int, trials: int,
                  rounds_view: bool = False) -> dict[str, np.ndarray]:
    """Each trial's combat: each blow's Health Points drawn from its attack's pmf (`_drawn`), step by step, then
    the dice of the Break Tests, the Flees and the Pursuits; with `rounds_view`, the per-round outcomes too
    (`fight.by_round`)."""
    lines = fight.lines
    heroes = fight.troops[0].hero is not None or fight.troops[1].hero is not None
    codes = [np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)]
    names = OUTCOMES + SLAIN * heroes + (by_round(rounds) if rounds_view else ())
    out = {name: np.zeros(trials, dtype=np.int64) for name in names}
    broke = [np.zeros(trials, dtype=bool), np.zeros(trials, dtype=bool)]  # each side's: one of its units broke
    caught = [np.zeros(trials, dtype=bool), np.zeros(trials, dtype=bool)]
    going = np.ones(trials, dtype=bool)

    for round_ in range(rounds):
        first = round_ == 0
        # the fights going on: each figure of the round worked for them alone (the first round: every one, in place)
        index = np.flatnonzero(going)
        playing: np.ndarray | slice = slice(None) if first else index
        before = [0, 0] if first else [codes[0][playing], codes[1][playing]]
        out["rounds"][playing] = round_ + 1
        now_fight = fight.in_round(first)
        for _, blows in now_fight.schedule(first):
            _sample_step(rng, now_fight, blows, codes, playing)
        now = [codes[0][playing], codes[1][playing]]
        won, tied, margin = fight.result(now[0], now[1], before[0], before[1], first)
        out["win"][playing] = won
        out["draw"][playing] = tied
        out["score"][playing] = margin
        steadfast = fight.steadfast(now[0], now[1])
        for loser, losing in ((1, won & ~tied & fight.standing(now[1], 1)), (0, ~won & ~tied & fight.standing(now[0]))):
            at = index[losing]
            gone, taken, after = _tests(rng, fight, loser, codes, at, margin[losing],
                                        [np.broadcast_to(sure, losing.shape)[losing] for sure in steadfast[loser]])
            broke[loser][at] |= gone
            caught[loser][at] |= taken
            codes[loser][at] = after
        decided = ~fight.standing(codes[0][playing]) | ~fight.standing(codes[1][playing], 1)
        for side, line in enumerate(lines):
            if not line.flagged:  # a lone unit that breaks ends the fight
                decided |= broke[side][playing]
        if rounds_view:
            out["decided"][index[decided]] = 1
            out[f"health_lost_by_round_{round_ + 1}"] = lines[0].lost(codes[0])
            out[f"enemy_health_lost_by_round_{round_ + 1}"] = lines[1].lost(codes[1])
        going[index[decided]] = False
        _reform(rng, fight, codes, index[~decided], (~won & ~tied)[~decided], (won & ~tied)[~decided],
                margin[~decided], [np.broadcast_to(sure[0], decided.shape)[~decided] for sure in steadfast])
    out["enemy_break"], out["enemy_caught"] = broke[1] * 1, caught[1] * 1
    out["break"] = (broke[0] | broke[1]) * 1
    out["caught"] = (caught[0] | caught[1]) * 1
    out["health_lost"], out["enemy_health_lost"] = lines[0].lost(codes[0]), lines[1].lost(codes[1])
    if heroes:  # a character falls in the fight, or flees with its unit and is caught
        for side, name in enumerate(SLAIN):
            line = lines[side]
            main, (flag, own) = line.troops[0], line.split(codes[side])[0]
            taken = (flag == CAUGHT) if line.flagged else caught[side]
            out[name] = ((main.alive(own) == 0) | taken) * (main.hero is not None)
    return out
