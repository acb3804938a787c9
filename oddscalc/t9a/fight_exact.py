"""The 9th Age: a combat's exact twin (docs/rules.md §3.11): pmfs round by round over both sides' states (the
charger's units', `troop.Line`'s codes: each unit's Health Points lost, its character's and whether it fled; the
charged unit's, `troop.Troop`'s), step by step within a round; the scores, Steadfast, the Break Tests and the
pursuits worked on each round's end states at once, as arrays. The sampler is `fight_sampled.py`'s; the rules
both read are `fight.Fight`'s."""

from __future__ import annotations

from functools import reduce

import numpy as np

from .. import pmf as pmfs
from .fight import (
    CHARGE_BONUS,
    EVENTS,
    OUTCOMES,
    REAR_BONUS,
    SLAIN,
    Blow,
    Chase,
    Fight,
    Pursuit,
    by_round,
    caught_chance,
)
from .fighter import MAX_RANK_BONUS, break_chance, capped, lost_pmf, two_d6
from .troop import CAUGHT, FLED, OVERKILL

PER_STATE = {False: 5e-4, True: 2.5e-3}  # seconds a state's step takes in a later round, floats / fractions: the
#                                         most measured here (knights with mounts and stomps, 5 to 60 a side)
FIRST_ROUND = 0.1  # the first round's share of a later round's cost (it starts from one state)
ALLIED_ROUND = 0.4  # a later round's share of every state of the charger's units (--with-unit), measured


def _zeros(number, *shape: int) -> np.ndarray:
    return np.zeros(shape) if number is float else np.full(shape, number(0), dtype=object)


def round_joint(fight: Fight, charger_code: int, charged_code: int, first_round: bool, number,
                dealt: dict | None = None) -> np.ndarray:
    """joint[the charger's side's code, the charged unit's] after one round's Initiative Steps from this state:
    what strikes at one step strikes at once, from the models standing when it begins, each pool at most what it
    has left. `dealt` keeps each step's pmfs by state, for the next call (every later round's are alike)."""
    line, theirs = fight.line, fight.troops[1]
    dims = (*line.dims, theirs.unit.total + 1, theirs.span)
    dist = _zeros(number, *dims)
    mine = len(line.dims)
    dist[(*np.unravel_index(charger_code, line.dims), *theirs.pools(charged_code))] = number(1)
    dealt = {} if dealt is None else dealt
    fight = fight.in_round(first_round)
    for step, blows in fight.schedule(first_round):
        after = dist * 0
        for index in zip(*np.nonzero(dist != 0)):
            c = int(np.ravel_multi_index(index[:mine], line.dims))
            e = int(theirs.code(index[mine], index[mine + 1]))
            key = (first_round, step, c, e)
            if key not in dealt:
                axes = _step_dealt(fight, blows, c, e, number)
                dealt[key] = reduce(np.multiply.outer, axes)
            block = dealt[key]
            after[tuple(slice(at, at + size) for at, size in zip(index, block.shape))] += dist[index] * block
        dist = after
    return dist.reshape(line.states, theirs.states)


def _step_dealt(fight: Fight, blows: tuple[Blow, ...], c: int, e: int, number) -> list[np.ndarray]:
    """The pmfs of the Health Points each pool loses at a step from this state, one per axis of the state (a
    fled flag's: none), each at most what the pool has left (a Duel's Overkill too)."""
    duel = bool(fight.duelling(c, e))
    line, theirs = fight.line, fight.troops[1]
    parts = line.split(c)
    own = [code for _, code in parts] + [e]
    struck: dict[tuple[int, int, int], np.ndarray] = {}
    for blow in blows:
        target = fight.target(blow, c, e)
        if target is None:
            continue
        unit, pool = target
        side = 1 - blow.side
        code = e if side else own[unit]
        if not fight.room(side, unit, pool, code, duel):
            continue
        count = fight.count(blow, c, e)
        if count:
            troop = theirs if side else line.troops[unit]
            lost = troop.pools(code)
            attack = fight.attack(blow, count, target, min(lost[1], troop.health) if pool else lost[0])
            key = (side, unit, pool)
            struck[key] = pmfs.convolve(struck.get(key, pmfs.point(0, number(1))), lost_pmf(attack, number))
    axes = []
    one = pmfs.point(0, number(1))
    for side, unit, troop, code in [*((0, unit, troop, code) for unit, (troop, code) in
                                      enumerate(zip(line.troops, own))), (1, 0, theirs, e)]:
        if side == 0 and line.flagged:
            axes.append(one)
        axes.append(capped(struck.get((side, unit, 0), one), fight.room(side, unit, 0, code, duel), number))
        hero = struck.get((side, unit, 1), one)
        axes.append(capped(hero, fight.room(side, unit, 1, code, duel), number) if troop.hero is not None else one)
    return axes


def _pursuers(fight: Fight, number):
    """For each pursuer (each of the charger's units, the charged unit): its pursuit's at_least pmf and how
    likely it pursues, by its character standing (0, 1): a Restrain Pursuit test failed, when it restrains."""
    def chase(troop):
        at_least = np.cumsum(two_d6(troop.unit.swiftstride, number)[::-1])[::-1]
        pursues = [break_chance(int(troop.discipline(active)), 0, number) if fight.pursuit is Pursuit.RESTRAIN
                   else number(1) for active in (0, 1)]
        return at_least, pursues
    return [chase(troop) for troop in fight.line.troops], chase(fight.troops[1])


def _caught_tables(fight: Fight, number) -> tuple[np.ndarray, list[np.ndarray]]:
    """(P(the charged unit, broken, is caught) by the mask of the charger's units that pursue and the main one's
    character standing; P(the charger's unit i, broken, is caught by the charged unit) by its character standing).
    Caught when any pursuit roll equals or beats the Flee roll (each pursuer rolls its own)."""
    zero = number(0)
    ours, theirs = _pursuers(fight, number)
    dtype = float if number is float else object
    units = len(fight.line.troops)
    flee = two_d6(fight.charged.swiftstride, number)
    table = np.full((1 << units, 2), zero, dtype=dtype)
    for mask in range(1 << units):
        for active in (0, 1):
            chance = zero
            for value, p in enumerate(flee):
                if not p:
                    continue
                escapes = number(1)
                for index, (at_least, pursues) in enumerate(ours):
                    if mask >> index & 1:
                        escapes = escapes * (1 - pursues[active if index == 0 else 0] * at_least[value])
                chance = chance + p * (1 - escapes)
            table[mask, active] = chance
    _, pursues = theirs
    each = [np.array([caught_chance(troop.unit, fight.charged, number) * pursues[active] for active in (0, 1)],
                     dtype=dtype) for troop in fight.line.troops]
    return table, each


def _fails(troop, most: int, number) -> np.ndarray:
    """P(a unit's Break Test fails) by its character standing (0, 1) and by its penalty."""
    return np.array([[troop.break_fails(active, penalty, number) for penalty in range(most + 1)]
                     for active in (0, 1)], dtype=float if number is float else object)


def combat_pmfs(fight: Fight, rounds: int, number, rounds_view: bool = False) -> dict[str, np.ndarray]:
    """The exact pmfs of a combat's outcomes, round by round from every pair of states: each round's end states
    at once, as arrays (the scores, Steadfast, the Break Tests and the pursuits), each way the Break Tests go a
    branch that ends the fight or goes on to the next round; with `rounds_view`, the per-round outcomes too
    (`fight.by_round`)."""
    zero = number(0)
    line, theirs = fight.line, fight.troops[1]
    tally, events, most = _tallies(fight, rounds, number, rounds_view)
    fails = [_fails(troop, most, number) for troop in line.troops]
    their_fails = _fails(theirs, most, number)
    catch_them, catch_us = _caught_tables(fight, number)
    states = _zeros(number, line.states, theirs.states)
    states[0, 0] = number(1)
    dealt: dict = {}  # each step's pmfs by round kind and state, shared by the rounds' starting states
    for round_ in range(rounds):
        first, last = round_ == 0, round_ + 1 == rounds
        following = states * 0
        for c0, e0 in zip(*np.nonzero(states != 0)):
            joint = round_joint(fight, int(c0), int(e0), first, number, dealt) * states[c0, e0]
            cs, es = np.nonzero(joint != 0)
            p = joint[cs, es]
            won, tied, margin = fight.result(cs, es, int(c0), int(e0), first)
            ends = _tests(fight, cs, es, won, tied, margin, p, fails, their_fails, catch_them, catch_us, zero)
            ended: list[tuple] = []  # each way the tests go, its fights that end here and those that go on
            going: list[tuple] = []
            for weight, codes, broke, caught, we_broke, we_caught in ends:
                if not weight.any():  # a way the tests cannot go from these states (the other side lost)
                    continue
                decided = (broke | (theirs.left(es) == 0) | ~fight.standing(codes)
                           | (we_broke & (not line.flagged)))
                over = np.full(len(p), last) | decided
                at = np.flatnonzero(over & (weight != 0))
                ended.append((codes[at], es[at], won[at], tied[at], margin[at], weight[at], broke[at], caught[at],
                              we_broke[at], we_caught[at], decided[at]))
                at = np.flatnonzero(~over)
                going.append((line.settled(codes[at]), theirs.settled(es[at]), weight[at]))
            if ended:
                columns = [np.concatenate(column) for column in zip(*ended)]
                _tally(tally, fight, *columns)
                tally["rounds"][round_ + 1] += columns[5].sum()  # the combats this round ends
            if going:
                codes, ends_, weights = (np.concatenate(column) for column in zip(*going))
                np.add.at(following, (codes, ends_), weights)
        if rounds_view:  # Health Points lost by this round's end: the fights ended so far, and those going on
            for name, lost, mass in (("health_lost", _line_lost(line), following.sum(axis=1)),
                                     ("enemy_health_lost", theirs.lost(np.arange(theirs.states)),
                                      following.sum(axis=0))):
                now = tally[name].copy()
                np.add.at(now, lost, mass)
                tally[f"{name}_by_round_{round_ + 1}"] = now
        states = following
    if number is float:  # a certain outcome is certain (the branches' float sum can fall 1e-16 short: no spread)
        for pmf in tally.values():
            if np.count_nonzero(pmf) == 1:
                pmf[np.flatnonzero(pmf)] = 1.0
    heroes = line.troops[0].hero is not None or theirs.hero is not None
    names = OUTCOMES + SLAIN * heroes + (by_round(rounds) if rounds_view else ())
    return {name: tally[name] if name in events else pmfs.trim(tally[name]) for name in names}


def _tallies(fight: Fight, rounds: int, number, rounds_view: bool) -> tuple[dict[str, np.ndarray], tuple, int]:
    """(each outcome's pmf, zero to fill; the yes/no outcomes; the highest combat score difference)."""
    line, theirs = fight.line, fight.troops[1]
    mine = line.troops[0]
    heroes = mine.hero is not None or theirs.hero is not None
    events = EVENTS + SLAIN * heroes + ("decided",) * rounds_view
    total = sum(troop.unit.total + troop.health for troop in line.troops)
    most = (total + theirs.unit.total + theirs.health + 2 * OVERKILL + CHARGE_BONUS
            + 2 * MAX_RANK_BONUS + 2 + 2 * len(line.troops) + 2 * REAR_BONUS + 2)
    tally = {name: _zeros(number, 2) for name in events}
    tally.update(health_lost=_zeros(number, total + 1),
                 enemy_health_lost=_zeros(number, theirs.unit.total + theirs.health + 1),
                 score=_zeros(number, most + 1), rounds=_zeros(number, rounds + 1))
    return tally, events, most


def _line_lost(line) -> np.ndarray:
    """The Health Points the charger's units lost, by their side's code."""
    codes = np.arange(line.states)
    return sum(troop.lost(own) for troop, (_, own) in zip(line.troops, line.split(codes)))


def _tests(fight: Fight, cs, es, won, tied, margin, p, fails, their_fails, catch_them, catch_us, zero):
    """Each way a round's Break Tests and pursuits go from its end states: (weight, the charger's codes after it,
    the charged unit broke, was caught, one of the charger's units broke, one was caught). The loser's units that
    stand each test (no penalty when Steadfast); a broken charged unit is caught by any of the charger's units
    standing; of the charger's broken units the charged unit pursues the first (the main one before its allies)."""
    line, theirs = fight.line, fight.troops[1]
    steadfast, their_steadfast = fight.steadfast(cs, es)
    parts = line.split(cs)
    lefts = line.left(cs)
    their_active = theirs.active(es)
    their_fail = np.where(won & ~tied & (theirs.left(es) > 0),
                          their_fails[their_active, np.where(their_steadfast, 0, margin)], zero)
    pursuers = sum((left > 0) * (1 << index) for index, left in enumerate(lefts))
    main_active = line.troops[0].active(parts[0][1]) * (parts[0][0] == 0)
    their_caught = catch_them[pursuers, main_active]
    losing = ~won & ~tied
    unit_fail = [np.where(losing & (left > 0), table[troop.active(code), np.where(sure, 0, margin)], zero)
                 for troop, table, (_, code), left, sure in zip(line.troops, fails, parts, lefts, steadfast)]
    none = np.zeros(len(p), dtype=bool)
    hold = p * (1 - their_fail)
    for chance in unit_fail:
        hold = hold * (1 - chance)
    branches = [(hold, cs, none, none, none, none),
                (p * their_fail * their_caught, cs, ~none, ~none, none, none),
                (p * their_fail * (1 - their_caught), cs, ~none, none, none, none)]
    for subset in range(1, 1 << len(line.troops)):
        weight = p
        for index, chance in enumerate(unit_fail):
            weight = weight * (chance if subset >> index & 1 else 1 - chance)
        chased = ((subset & -subset) if fight.chase is Chase.MAIN else subset).bit_length() - 1  # by `chase`
        taken = catch_us[chased][their_active]
        for caught, share in ((True, taken), (False, 1 - taken)):
            flagged = [(np.where(subset >> index & 1, CAUGHT if caught and index == chased else FLED, fled), code)
                       for index, (fled, code) in enumerate(parts)] if line.flagged else parts
            codes = line.join(flagged) if line.flagged else cs
            branches.append((weight * share, codes, none, none, ~none, np.full(len(p), caught)))
    return branches


def _tally(tally, fight: Fight, codes, es, won, tied, margin, done, broke, caught, we_broke, we_caught,
           decided) -> None:
    """Add the fights that end here to each outcome's pmf: the last round's result, each side's Health Points
    lost, who broke and who was caught (this round or before: a unit's flag), who of the characters fell."""
    line, theirs = fight.line, fight.troops[1]
    parts = line.split(codes)
    flags = [fled for fled, _ in parts]
    ever_broke = we_broke | np.logical_or.reduce([flag > 0 for flag in flags]) if line.flagged else we_broke
    ever_caught = we_caught | np.logical_or.reduce([flag == CAUGHT for flag in flags]) if line.flagged else we_caught
    lost = sum(troop.lost(code) for troop, (_, code) in zip(line.troops, parts))
    weights = [("win", won, done), ("draw", tied, done), ("break", broke | ever_broke, done),
               ("caught", caught | ever_caught, done), ("health_lost", lost, done),
               ("enemy_health_lost", theirs.lost(es), done), ("score", margin, done), ("enemy_break", broke, done),
               ("enemy_caught", caught, done)]
    if "character_slain" in tally:  # a character falls in the fight, or flees with its unit and is caught
        main, (flag, code) = line.troops[0], parts[0]
        main_caught = (flag == CAUGHT) | (we_caught & (not line.flagged))
        weights += [("character_slain", (main.hero is not None) & ((main.alive(code) == 0) | main_caught), done),
                    ("enemy_character_slain", (theirs.hero is not None) & ((theirs.alive(es) == 0) | caught), done)]
    if "decided" in tally:
        weights.append(("decided", decided, done))
    for name, values, weight in weights:
        np.add.at(tally[name], np.broadcast_to(np.asarray(values, dtype=np.int64), done.shape), weight)


def exact_cost(fight: Fight, rounds: int, fractions: bool = False) -> float:
    """About how long the exact answer takes, in seconds, before any work: each Initiative Step walks the pairs of
    Health Points lost a round can reach, and a later round does so from each pair the first one reached; with
    several units of the charger's, the states of every one of them (and whether it fled) in each later round."""
    charged, charger = fight.reach()
    duel = 1.0
    for troop in fight.troops:  # a character struck from the first step (a Duel): the root of its states, as
        if troop.duel and troop.hero is not None:  # measured; else it is whole until its unit is gone
            duel *= (troop.health + 1) ** 0.5
    steps = PER_STATE[fractions] * len(fight.schedule(True))
    pairs = (charged + 1) * (charger + 1) * duel
    if not fight.allies:
        return steps * pairs * (rounds - 1 + FIRST_ROUND)
    states = (charged + 1) * duel ** 2  # (with several units, a Duel's states counted whole: measured)
    for troop in fight.line.troops:
        states *= (min(troop.unit.total, charger) + 1) * 2
    for troop in fight.line.troops[1:]:  # an ally's character: its states, whole, twice beside a Duel (fractions'
        if troop.hero is not None and fractions:  # sums grow with them; floats' are within the Duel's overcount:
            states *= (troop.health + 1) ** (2 if duel > 1 else 1)  # measured)
    return steps * (pairs * FIRST_ROUND + states * (rounds - 1) * ALLIED_ROUND)
