"""The 9th Age: a combat's exact twin (docs/rules.md §3.11): pmfs round by round over both sides' states (each
side's `troop.Line` code: each of its units' Health Points lost, its character's and whether it fled), step by step
within a round; the scores, Steadfast, the Break Tests and the pursuits worked on each round's end states at once,
as arrays. The sampler is `fight_sampled.py`'s; the rules both read are `fight.Fight`'s."""

from __future__ import annotations

from functools import reduce
from itertools import combinations
from typing import Any, NamedTuple, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core import pmf as pmfs
from ..core.pmf import NumberType as Number
from .fight import CHARGE_BONUS, EVENTS, FLANK_BONUS, OUTCOMES, REAR_BONUS, SLAIN, Blow, Fight, by_round
from .readings import Pursuit
from .fighter import MAX_RANK_BONUS, break_chance, capped, lost_pmf, two_d6
from .troop import CAUGHT, FLED, OVERKILL, Troop

class Chances(NamedTuple):
    """The tests' tables of a combat: P(each unit's Break Test fails) by side and unit, P(each main unit's Combat
    Reform test fails) by side (each by its character standing and the penalty: `_fails`), and each unit's chance
    to be caught (`_caught_tables`)."""

    breaks: list[list[np.ndarray]]
    reforms: list[np.ndarray]
    catch: list[list[np.ndarray]]


Dealt = dict[tuple[bool, int, int, int], tuple["np.ndarray", "np.ndarray"]]  # a step's cells and chances by state
Tally = dict[str, "np.ndarray"]  # each outcome's pmf
Rows = list[tuple[dict[str, "np.ndarray"], "np.ndarray"]]  # the fights that end: each one's outcomes and its chance

BATCH = 1 << 12  # starting states stepped at once, at most


def _zeros(number: Number, *shape: int) -> np.ndarray:
    return np.zeros(shape) if number is float else np.full(shape, number(0), dtype=object)


def _add_at(target: np.ndarray, index: np.ndarray, weights: np.ndarray) -> None:
    """target.flat[index] += weights, repeats summed (`np.add.at`; floats by one `np.bincount`, far faster)."""
    if target.dtype == object:
        np.add.at(target.reshape(-1), index, weights)
    else:
        counts = np.bincount(index, weights=weights, minlength=target.size)
        assert len(counts) == target.size, "an index past the target"  # as np.add.at would refuse it
        target.reshape(-1)[:] += counts


def round_joint(fight: Fight, charger_code: int, charged_code: int, first_round: bool, number: Number,
                dealt: Dealt | None = None) -> np.ndarray:
    """joint[the charger's side's code, the charged side's] after one round's Initiative Steps from this state
    (`round_joints` of one starting state)."""
    ours, theirs = fight.lines
    joint = _zeros(number, ours.states, theirs.states)
    cs, es, p, _, _ = round_joints(fight, np.array([charger_code]), np.array([charged_code]),
                                   np.array([number(1)], dtype=float if number is float else object), first_round,
                                   number, {} if dealt is None else dealt)
    joint[cs, es] = p
    return joint


def round_joints(fight: Fight, charger_codes: np.ndarray, charged_codes: np.ndarray, weights: np.ndarray,
                 first_round: bool, number: Number, dealt: Dealt) -> tuple[np.ndarray, ...]:
    """(the charger's side's codes, the charged side's, their chances, the codes each round began in) of one round's
    Initiative Steps from each of these starting states, with their `weights`: what strikes at one step strikes at
    once, from the models standing when it begins, each pool at most what it has left. Every starting state's
    distribution is stepped at once, state by state of those any of them holds (a step's pmfs from a state are
    the same whatever state the round began in); `dealt` keeps them by state, for the next call."""
    ours, theirs = fight.lines
    dims = (*ours.dims, *theirs.dims)
    size = ours.states * theirs.states
    held, flat, mass = np.arange(len(charger_codes)), charger_codes * theirs.states + charged_codes, weights
    fight = fight.in_round(first_round)
    for step, blows in fight.schedule(first_round):  # (a starting state, a state it holds, its chance) triples
        occupied, position = np.unique(flat, return_inverse=True)
        position = position.ravel()
        cs, es = np.divmod(occupied, theirs.states)
        keys = [(first_round, step, c, e) for c, e in zip(cs.tolist(), es.tolist())]
        new = [at for at, key in enumerate(keys) if key not in dealt]
        if new:  # each new state's blows: whom they strike and how many, worked for all of them at once
            struck = [(fight.struck(blow, cs[new], es[new]).tolist(), fight.count(blow, cs[new], es[new]).tolist(),
                       fight.duelling(cs[new], es[new]).tolist()) for blow in blows]
            for row, at in enumerate(new):
                c, e = int(cs[at]), int(es[at])
                aims = [(pools[row], counts[row]) for pools, counts, _ in struck]
                block = reduce(np.multiply.outer, _step_dealt(fight, blows, c, e, number, aims, bool(struck[0][2][row])))
                nonzero = np.nonzero(block != 0)
                origin = np.unravel_index(occupied[at], dims)
                dealt[keys[at]] = (np.ravel_multi_index(tuple(cell + at_ for cell, at_ in zip(nonzero, origin)), dims),
                                   block[nonzero])
        # every triple's block at once: each its state's cells (a ragged range of the states' cells, end to end)
        pieces = [dealt[key] for key in keys]
        lengths = np.array([len(cells) for cells, _ in pieces])
        cells, values = np.concatenate([cells for cells, _ in pieces]), np.concatenate([value for _, value in pieces])
        each = lengths[position]
        ends = np.cumsum(each)
        taken = np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - each, each) + np.repeat(
            (np.cumsum(lengths) - lengths)[position], each)
        found, where = np.unique(np.repeat(held, each) * size + cells[taken], return_inverse=True)
        spread = values[taken] * np.repeat(mass, each)
        if number is float:
            mass = np.bincount(where.ravel(), weights=spread, minlength=len(found))
        else:
            mass = _zeros(number, len(found))
            np.add.at(mass, where.ravel(), spread)
        held, flat = np.divmod(found, size)
    return flat // theirs.states, flat % theirs.states, mass, charger_codes[held], charged_codes[held]


def _step_dealt(fight: Fight, blows: tuple[Blow, ...], c: int, e: int, number: Number,
                aims: list[tuple[int, int]] | None = None, duel: bool | None = None) -> list[np.ndarray]:
    """The pmfs of the Health Points each pool loses at a step from this state (each blow's pool struck, `2 *
    unit + pool` or -1, and its count: `Fight.struck`, `Fight.count`, worked here when not given), one per axis
    of the state (a fled flag's: none), each at most what the pool has left (a Duel's Overkill too)."""
    if aims is None:
        aims = [(int(fight.struck(blow, c, e)), int(fight.count(blow, c, e))) for blow in blows]
    duel = bool(fight.duelling(c, e)) if duel is None else duel
    own = [[code for _, code in line.split(code)] for line, code in zip(fight.lines, (c, e))]
    struck: dict[tuple[int, int, int], np.ndarray] = {}
    for blow, (aim, count) in zip(blows, aims):
        if aim < 0:
            continue
        target = unit, pool = divmod(aim, 2)
        side = 1 - blow.side
        code = own[side][unit]
        if not fight.room(side, unit, pool, code, duel):
            continue
        if count:
            troop = fight.lines[side].troops[unit]
            lost = troop.pools(code)
            taken = _taken(fight, blow, count, target, int(min(lost[1], troop.health) if pool else lost[0]), number)
            key = (side, unit, pool)
            struck[key] = pmfs.convolve(struck.get(key, pmfs.point(0, number(1))), taken)
    axes = []
    one = pmfs.point(0, number(1))
    for side, line in enumerate(fight.lines):
        if line.reforms:  # its Combat Reform: none within a round
            axes.append(one)
        for unit, (troop, code) in enumerate(zip(line.troops, own[side])):
            if line.flagged:
                axes.append(one)
            axes.append(capped(struck.get((side, unit, 0), one), fight.room(side, unit, 0, code, duel), number))
            hero = struck.get((side, unit, 1), one)
            axes.append(capped(hero, fight.room(side, unit, 1, code, duel), number) if troop.hero is not None
                        else one)
    return axes


def _taken(fight: Fight, blow: Blow, count: int, target: tuple[int, int], lost: int, number: Number) -> np.ndarray:
    """The pmf of the Health Points a blow of `count` attacks takes from its target's pool, which has lost `lost`
    (`Fight.attack`'s pmf), kept by the fight: many states meet the same."""
    kept: dict[tuple[Any, ...], np.ndarray] = fight.__dict__.setdefault("_taken", {})
    key = (blow, count, target, lost, number)
    if key not in kept:
        kept[key] = lost_pmf(fight.attack(blow, count, target, lost), number)
    return kept[key]


def _caught_tables(fight: Fight, number: Number) -> list[list[np.ndarray]]:
    """tables[loser][unit][pursuers, characters]: P(that unit of the side `loser`, broken, is caught) by the mask
    of the winner's units that pursue it and the mask of those whose character stands (a Restrain Pursuit test
    on its Discipline, when they restrain). Caught when any pursuit roll equals or beats the Flee roll (each
    pursuer rolls its own)."""
    zero = number(0)
    dtype = float if number is float else object
    tables = []
    for loser, line in enumerate(fight.lines):
        chasers = []
        for troop in fight.lines[1 - loser].troops:
            at_least = np.cumsum(two_d6(troop.unit.swiftstride, number)[::-1])[::-1]  # at_least[v] = P(roll >= v)
            pursues = [break_chance(int(troop.discipline(active)), 0, number) if fight.pursuit is Pursuit.RESTRAIN
                       else number(1) for active in (0, 1)]
            chasers.append((at_least, pursues))
        size = 1 << len(chasers)
        per_unit = []
        for troop in line.troops:
            flee = two_d6(troop.unit.swiftstride, number)
            table = np.full((size, size), zero, dtype=dtype)
            for mask in range(1, size):
                for active in range(size):
                    chance = zero
                    for value, p in enumerate(flee):
                        if p:
                            escapes = number(1)
                            for index, (at_least, pursues) in enumerate(chasers):
                                if mask >> index & 1:
                                    escapes = escapes * (1 - pursues[active >> index & 1] * at_least[value])
                            chance = chance + p * (1 - escapes)
                    table[mask, active] = chance
            per_unit.append(table)
        tables.append(per_unit)
    return tables


def _fails(troop: Troop, most: int, number: Number, reform: bool = False) -> np.ndarray:
    """P(a unit's Break Test fails) by its character standing (0, 1) and by its penalty (`reform`: its Combat
    Reform's Discipline test)."""
    return np.array([[troop.break_fails(active, penalty, number, reform) for penalty in range(most + 1)]
                     for active in (0, 1)], dtype=float if number is float else object)


def combat_pmfs(fight: Fight, rounds: int, number: Number, rounds_view: bool = False,
                rows: Rows | None = None) -> dict[str, np.ndarray]:
    """The exact pmfs of a combat's outcomes, round by round from every pair of states: each round's end states
    at once, as arrays (the scores, Steadfast, the Break Tests and the pursuits), each way the Break Tests go a
    branch that ends the fight or goes on to the next round; with `rounds_view`, the per-round outcomes too
    (`fight.by_round`); given `rows`, each way the fight ends is added to it whole (its joint law)."""
    zero = number(0)
    lines = fight.lines
    tally, events, most = _tallies(fight, rounds, number, rounds_view)
    chances = Chances([[_fails(troop, most, number) for troop in line.troops] for line in lines],
                      [_fails(line.troops[0], most, number, True) for line in lines], _caught_tables(fight, number))
    states = _zeros(number, lines[0].states, lines[1].states)
    states[0, 0] = number(1)
    dealt: Dealt = {}  # each step's pmfs by round kind and state, shared by the rounds' starting states
    for round_ in range(rounds):
        first, last = round_ == 0, round_ + 1 == rounds
        following = states * 0
        c0, e0 = np.nonzero(states != 0)  # every starting state, stepped and ended together (in batches)
        for at in range(0, len(c0), BATCH):
            cs, es = c0[at:at + BATCH], e0[at:at + BATCH]
            ends = round_joints(fight, cs, es, states[cs, es], first, number, dealt)
            _end_round(fight, ends, first, last, round_, tally, following, chances, zero, rows)
        if rounds_view:  # Health Points lost by this round's end: the fights ended so far, and those going on
            for name, side in (("health_lost", 0), ("enemy_health_lost", 1)):
                now = tally[name].copy()
                np.add.at(now, lines[side].lost(np.arange(lines[side].states)), following.sum(axis=1 - side))
                tally[f"{name}_by_round_{round_ + 1}"] = now
        states = following
    if number is float:  # a certain outcome is certain (the branches' float sum can fall 1e-16 short: no spread)
        for pmf in tally.values():
            if np.count_nonzero(pmf) == 1:
                pmf[np.flatnonzero(pmf)] = 1.0
    heroes = fight.troops[0].hero is not None or fight.troops[1].hero is not None
    names = OUTCOMES + SLAIN * heroes + (by_round(rounds) if rounds_view else ())
    return {name: tally[name] if name in events else pmfs.trim(tally[name]) for name in names}


def _end_round(fight: Fight, ends: tuple[np.ndarray, ...], first: bool, last: bool, round_: int, tally: Tally,
               following: np.ndarray, chances: Chances, zero: Any, rows: Rows | None = None) -> None:
    """A round's end states (`round_joints`: each with its chance and the state its round began in): the result,
    each way the Break Tests and pursuits go (`_tests`), the fights that end here tallied, those that go on added
    to `following`."""
    lines = fight.lines
    cs, es, p, c0, e0 = ends
    won, tied, margin = fight.result(cs, es, c0, e0, first)
    # what follows reads only the end state and the result: the same from any start, summed once
    top = int(margin.max(initial=0)) + 1
    key = ((cs * lines[1].states + es) * 4 + won * 2 + tied) * top + margin
    found, where = np.unique(key, return_inverse=True)
    summed = _zeros(float if p.dtype != object else type(zero), len(found))
    _add_at(summed, where.ravel(), p)
    rest, margin = np.divmod(found, top)
    rest, result = np.divmod(rest, 4)
    cs, es = np.divmod(rest, lines[1].states)
    won, tied, p = result >= 2, (result & 1) == 1, summed
    steadfast = fight.steadfast(cs, es)
    ended: list[tuple[np.ndarray, ...]] = []  # each way the tests go, its fights that end here and those that go on
    going: list[tuple[np.ndarray, ...]] = []
    for weight, ours, theirs, broke, caught in _tests(fight, cs, es, won, tied, margin, p, chances.breaks,
                                                      chances.catch, zero, steadfast):
        if not weight.any():  # a way the tests cannot go from these states (the other side lost)
            continue
        decided = ~fight.standing(ours) | ~fight.standing(theirs, 1)
        for side, line in enumerate(lines):
            if not line.flagged:  # a lone unit that breaks ends the fight
                decided = decided | broke[side]
        over = np.full(len(p), last) | decided
        at = np.flatnonzero(over & (weight != 0))
        ended.append((ours[at], theirs[at], won[at], tied[at], margin[at], weight[at], broke[0][at], caught[0][at],
                      broke[1][at], caught[1][at], decided[at]))
        at = np.flatnonzero(~over)
        going.append(_reformed(fight, (lines[0].settled(ours[at]), lines[1].settled(theirs[at])), weight[at],
                               (~won[at] & ~tied[at], won[at] & ~tied[at]), margin[at],
                               [np.broadcast_to(sure[0], len(p))[at] for sure in steadfast], chances.reforms))
    if ended:
        columns = [np.concatenate(column) for column in zip(*ended)]
        values = _tally(tally, fight, *columns)
        if rows is not None:
            rows.append(({**values, "rounds": np.full(len(columns[5]), round_ + 1)}, columns[5]))
        tally["rounds"][round_ + 1] += columns[5].sum()  # the combats this round ends
    if going:
        codes, ends_, weights = (np.concatenate(column) for column in zip(*going))
        _add_at(following, codes * following.shape[1] + ends_, weights)


def _tallies(fight: Fight, rounds: int, number: Number, rounds_view: bool) -> tuple[Tally, tuple[str, ...], int]:
    """(each outcome's pmf, zero to fill; the yes/no outcomes; the highest combat score difference)."""
    heroes = fight.troops[0].hero is not None or fight.troops[1].hero is not None
    events = EVENTS + SLAIN * heroes + ("decided",) * rounds_view
    totals = [sum(troop.unit.total + troop.health for troop in line.troops) for line in fight.lines]
    units = sum(len(line.troops) for line in fight.lines)
    most = (sum(totals) + 2 * OVERKILL + CHARGE_BONUS + 2 * MAX_RANK_BONUS + 2 * units
            + 2 * (FLANK_BONUS + 1) + 2 * (REAR_BONUS + 1))
    tally = {name: _zeros(number, 2) for name in events}
    tally.update(health_lost=_zeros(number, totals[0] + 1), enemy_health_lost=_zeros(number, totals[1] + 1),
                 score=_zeros(number, most + 1), rounds=_zeros(number, rounds + 1))
    return tally, events, most


def _reformed(fight: Fight, codes: tuple[np.ndarray, np.ndarray], weight: np.ndarray,
              losing: tuple[np.ndarray, np.ndarray], margin: np.ndarray, steadfast: list[np.ndarray],
              reforms: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the charger's codes, the charged side's, the weights) of the fights going on after the Combat Reforms: a
    main unit that may (`Fight.reforming`) turns to face its enemy, after a lost round only when its Discipline test
    passes (the Break Test's penalty, none when Steadfast; `reforms[side]`); each state split in two where it may."""
    for side, line in enumerate(fight.lines):
        may = fight.reforming(side, codes)
        if not may.any():
            continue
        troop, own = line.troops[0], line.split(codes[side])[0][1]
        tested = reforms[side][troop.active(own), np.where(steadfast[side], 0, margin)]
        stays = np.where(may, np.where(losing[side], tested, 0 * weight), 1 + 0 * weight) * weight
        turned = weight - stays
        kept = np.flatnonzero(turned != 0)
        ours, theirs = (np.concatenate((both, (line.face(both[kept]) if at == side else both[kept])))
                        for at, both in enumerate(codes))
        codes = ours, theirs
        weight = np.concatenate((stays, turned[kept]))
        margin = np.concatenate((margin, margin[kept]))
        losing = (np.concatenate((losing[0], losing[0][kept])), np.concatenate((losing[1], losing[1][kept])))
        steadfast = [np.concatenate((sure, sure[kept])) for sure in steadfast]
    return codes[0], codes[1], weight


def _unit_fails(fight: Fight, codes: tuple[np.ndarray, np.ndarray], losing: tuple[np.ndarray, np.ndarray],
                margin: np.ndarray, fails: list[list[np.ndarray]], zero: Any,
                steadfast: tuple[list[Any], list[Any]]) -> list[list[Any]]:
    """P(each unit's Break Test fails), side by side: a unit of the side that lost (`losing`) standing tests, at the
    scores' difference (none when Steadfast)."""
    unit_fail = []
    for side, line in enumerate(fight.lines):
        parts, lefts = line.split(codes[side]), line.left(codes[side])
        unit_fail.append([np.where(losing[side] & (left > 0), table[troop.active(code), np.where(sure, 0, margin)],
                                   zero)
                          for troop, table, (_, code), left, sure in zip(line.troops, fails[side], parts, lefts,
                                                                         steadfast[side])])
    return unit_fail


def _tests(fight: Fight, cs: np.ndarray, es: np.ndarray, won: np.ndarray, tied: np.ndarray, margin: np.ndarray,
           p: np.ndarray, fails: list[list[np.ndarray]], catch: list[list[np.ndarray]], zero: Any,
           steadfast: tuple[list[Any], list[Any]] | None = None) -> list[tuple[Any, ...]]:
    """Each way a round's Break Tests and pursuits go from its end states: (weight, the charger's codes after it,
    the charged side's, (one of the charger's units broke, one of the charged side's), (one of the charger's was
    caught, one of the charged side's)). The loser's units that stand each test (no penalty when Steadfast); each
    of the winner's units standing pursues the first broken unit in base contact with it (`Fight.chase_order`),
    and a broken unit is caught by any of its pursuers (`_caught_tables`)."""
    codes = (cs, es)
    none = np.zeros(len(p), dtype=bool)
    unit_fail = _unit_fails(fight, codes, (~won & ~tied, won & ~tied), margin, fails, zero,
                            fight.steadfast(cs, es) if steadfast is None else steadfast)
    hold = p
    for chance in unit_fail[0] + unit_fail[1]:
        hold = hold * (1 - chance)
    branches = [(hold, cs, es, (none, none), (none, none))]
    for loser, line in enumerate(fight.lines):
        winner, theirs = 1 - loser, fight.lines[1 - loser]
        their_parts = theirs.split(codes[winner])
        standing = [(left > 0) * 1 for left in theirs.left(codes[winner])]
        active = sum(troop.active(own) * (fled == 0) * (1 << index)
                     for index, (troop, (fled, own)) in enumerate(zip(theirs.troops, their_parts)))
        parts = line.split(codes[loser])
        units = range(len(line.troops))
        order = fight.chase_order(len(line.troops))
        for size in range(1, len(line.troops) + 1):
            for subset in combinations(units, size):
                weight = p
                for index, chance in enumerate(unit_fail[loser]):
                    weight = weight * (chance if index in subset else 1 - chance)
                pursuers = {index: 0 for index in subset}  # each broken unit's pursuers (a mask, by state)
                for unit in range(len(theirs.troops)):
                    chosen = [index for index in order if index in subset and index in fight.foes(winner, unit)]
                    if chosen:
                        pursuers[chosen[0]] = pursuers[chosen[0]] + standing[unit] * (1 << unit)
                taken = {index: catch[loser][index][np.broadcast_to(mask, len(p)), active] for index, mask in
                         pursuers.items()}
                for many in range(len(subset) + 1):
                    for caught in combinations(subset, many):
                        share = weight
                        for index in subset:
                            share = share * (taken[index] if index in caught else 1 - taken[index])
                        if line.flagged:
                            flagged = [(np.where(index in subset, CAUGHT if index in caught else FLED, fled), code)
                                       for index, (fled, code) in enumerate(parts)]
                            after = line.join(flagged, line.faced(codes[loser]))
                        else:
                            after = codes[loser]
                        ours, theirs_after = (after, es) if loser == 0 else (cs, after)
                        broke = (~none, none) if loser == 0 else (none, ~none)
                        gone = (np.full(len(p), bool(caught)), none) if loser == 0 else (none, np.full(len(p),
                                                                                                      bool(caught)))
                        branches.append((share, ours, theirs_after, broke, gone))
    return branches


def _tally(tally: Tally, fight: Fight, cs: np.ndarray, es: np.ndarray, won: np.ndarray, tied: np.ndarray,
           margin: np.ndarray, done: np.ndarray, we_broke: np.ndarray, we_caught: np.ndarray, broke: np.ndarray,
           caught: np.ndarray, decided: np.ndarray) -> dict[str, np.ndarray]:
    """Add the fights that end here to each outcome's pmf: the last round's result, each side's Health Points
    lost, who broke and who was caught (this round or before: a unit's flag), who of the characters fell; returns
    each fight's values of them."""
    ever_broke, ever_caught, lost = [], [], []
    for line, codes, now_broke, now_caught in zip(fight.lines, (cs, es), (we_broke, broke), (we_caught, caught)):
        parts = line.split(codes)
        if line.flagged:
            now_broke = now_broke | np.logical_or.reduce([flag > 0 for flag, _ in parts])
            now_caught = now_caught | np.logical_or.reduce([flag == CAUGHT for flag, _ in parts])
        ever_broke.append(now_broke)
        ever_caught.append(now_caught)
        lost.append(line.lost(codes))
    weights = [("win", won, done), ("draw", tied, done), ("break", ever_broke[0] | ever_broke[1], done),
               ("caught", ever_caught[0] | ever_caught[1], done), ("health_lost", lost[0], done),
               ("enemy_health_lost", lost[1], done), ("score", margin, done), ("enemy_break", ever_broke[1], done),
               ("enemy_caught", ever_caught[1], done)]
    if "character_slain" in tally:  # a character falls in the fight, or flees with its unit and is caught
        for side, (name, line, codes) in enumerate(zip(SLAIN, fight.lines, (cs, es))):
            main, (flag, code) = line.troops[0], line.split(codes)[0]
            taken = (flag == CAUGHT) if line.flagged else ever_caught[side]
            weights.append((name, (main.hero is not None) & ((main.alive(code) == 0) | taken), done))
    if "decided" in tally:
        weights.append(("decided", decided, done))
    each = {name: np.broadcast_to(np.asarray(values, dtype=np.int64), done.shape) for name, values, _ in weights}
    for name, values, weight in weights:
        _add_at(tally[name], each[name], weight)
    return each
