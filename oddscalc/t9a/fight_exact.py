"""The 9th Age: a combat's exact twin (docs/rules.md §3.11): pmfs round by round over both sides' states, each a
unit's Health Points lost and its character's (`troop.Troop`'s codes), step by step within a round; the scores,
Steadfast, the Break Test and the pursuit worked on each round's end states at once, as arrays. The sampler is
`fight_sampled.py`'s; the rules both read are `fight.Fight`'s."""

from __future__ import annotations

import numpy as np

from .. import pmf as pmfs
from .fight import CHARGE_BONUS, EVENTS, OUTCOMES, REAR_BONUS, SLAIN, Blow, Fight, Pursuit, caught_chance
from .fighter import MAX_RANK_BONUS, break_chance, capped, lost_pmf
from .troop import OVERKILL


def _zeros(number, *shape: int) -> np.ndarray:
    return np.zeros(shape) if number is float else np.full(shape, number(0), dtype=object)


def round_joint(fight: Fight, charger_code: int, charged_code: int, first_round: bool, number,
                dealt: dict | None = None) -> np.ndarray:
    """joint[charger's code, the charged unit's] after one round's Initiative Steps from this state: what strikes
    at one step strikes at once, from the models standing when it begins, each pool at most what it has left.
    `dealt` keeps each step's pmfs by state, for the next call (every later round's are alike)."""
    mine, theirs = fight.troops
    dist = _zeros(number, mine.unit.total + 1, mine.span, theirs.unit.total + 1, theirs.span)
    dist[(*mine.pools(charger_code), *theirs.pools(charged_code))] = number(1)
    dealt = {} if dealt is None else dealt
    fight = fight.in_round(first_round)
    for step, blows in fight.schedule(first_round):
        after = dist * 0
        for cr, ch, er, eh in zip(*np.nonzero(dist != 0)):
            c, e = int(mine.code(cr, ch)), int(theirs.code(er, eh))
            key = (first_round, step, c, e)
            if key not in dealt:
                dealt[key] = _step_dealt(fight, blows, c, e, number)
            to_charged, to_charger = dealt[key]
            (a, b), (x, y) = to_charger.shape, to_charged.shape
            after[cr:cr + a, ch:ch + b, er:er + x, eh:eh + y] += dist[cr, ch, er, eh] * np.multiply.outer(
                to_charger, to_charged)
        dist = after
    return dist.reshape(mine.states, theirs.states)


def _step_dealt(fight: Fight, blows: tuple[Blow, ...], c: int, e: int, number) -> list[np.ndarray]:
    """The joint pmfs of the Health Points each side deals at a step from this state, over the other side's two
    pools (its rank and file's, its character's): (to the charged unit, to the charger), each pool at most what
    it has left (a Duel's Overkill too)."""
    duel = bool(fight.duelling(c, e))
    dealt = []
    for side in (0, 1):
        enemy = fight.troops[1 - side]
        code = (c, e)[1 - side]
        rooms = [fight.room(1 - side, pool, code, duel) for pool in (0, 1)]
        lost = [int(value) for value in enemy.pools(code)]
        pools = [pmfs.point(0, number(1)), pmfs.point(0, number(1))]
        for blow in blows:
            pool = fight.target(blow, c, e) if blow.side == side else None
            if pool is None or not rooms[pool]:
                continue
            count = fight.count(blow, c, e)
            if count:
                attack = fight.attack(blow, count, pool, min(lost[pool], enemy.health) if pool else lost[0])
                pools[pool] = pmfs.convolve(pools[pool], lost_pmf(attack, number))
        second = capped(pools[1], rooms[1], number) if enemy.hero is not None else pools[1][:1]
        dealt.append(np.multiply.outer(capped(pools[0], rooms[0], number), second))
    return dealt


def _fails(fight: Fight, most: int, number) -> list[np.ndarray]:
    """P(a side's Break Test fails) by its character standing (0, 1) and by its penalty."""
    dtype = float if number is float else object
    return [np.array([[troop.break_fails(active, penalty, number) for penalty in range(most + 1)]
                      for active in (0, 1)], dtype=dtype) for troop in fight.troops]


def _caught(fight: Fight, number) -> list[np.ndarray]:
    """P(a side that broke is caught), by the winner's character standing (0, 1): a Restrain Pursuit test with
    the winner's Discipline when it pursues only on a failed one."""
    caught = []
    for loser, winner in (fight.troops, fight.troops[::-1]):
        chance = caught_chance(loser.unit, winner.unit, number)
        chances = [chance * (break_chance(int(winner.discipline(active)), 0, number)
                             if fight.pursuit is Pursuit.RESTRAIN else 1) for active in (0, 1)]
        caught.append(np.array(chances, dtype=float if number is float else object))
    return caught


def combat_pmfs(fight: Fight, rounds: int, number) -> dict[str, np.ndarray]:
    """The exact pmfs of a combat's outcomes, round by round from every pair of states: each round's end states
    at once, as arrays (the scores, Steadfast, the Break Test and the pursuit)."""
    zero = number(0)
    mine, theirs = fight.troops
    heroes = mine.hero is not None or theirs.hero is not None
    events = EVENTS + SLAIN * heroes
    most = (mine.unit.total + theirs.unit.total + mine.health + theirs.health + 2 * OVERKILL + CHARGE_BONUS
            + 2 * MAX_RANK_BONUS + 4 + REAR_BONUS + 1)
    tally = {name: _zeros(number, 2) for name in events}
    tally.update(health_lost=_zeros(number, mine.unit.total + mine.health + 1),
                 enemy_health_lost=_zeros(number, theirs.unit.total + theirs.health + 1),
                 score=_zeros(number, most + 1), rounds=_zeros(number, rounds + 1))
    fails, caught = _fails(fight, most, number), _caught(fight, number)
    states = _zeros(number, mine.states, theirs.states)
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
            steadfast = fight.steadfast(cs, es)
            penalty = np.where(np.where(won, steadfast[1], steadfast[0]), 0, margin)
            # a loser with no model takes no Break Test; one left standing loses only to a unit standing (No More
            # Foes), so whoever pursues it is in base contact
            standing = np.where(won, theirs.left(es), mine.left(cs)) > 0
            active = (mine.active(cs), theirs.active(es))
            fail = np.where(won, fails[1][active[1], penalty], fails[0][active[0], penalty])
            broke = p * np.where(tied | ~standing, zero, fail)
            taken = broke * np.where(won, caught[1][active[0]], caught[0][active[1]])
            ends = np.full(len(p), last) | (mine.left(cs) == 0) | (theirs.left(es) == 0)
            done = np.where(ends, p, broke)  # what ends this round: the broken, and all on the last or when one is gone
            theirs_broke, theirs_taken = np.where(won, broke, zero), np.where(won, taken, zero)  # the charged unit's
            weights = [("win", won, done), ("draw", tied, done), ("break", 1, broke), ("break", 0, done - broke),
                       ("caught", 1, taken), ("caught", 0, done - taken), ("health_lost", mine.lost(cs), done),
                       ("enemy_health_lost", theirs.lost(es), done), ("score", margin, done),
                       ("enemy_break", 1, theirs_broke), ("enemy_break", 0, done - theirs_broke),
                       ("enemy_caught", 1, theirs_taken), ("enemy_caught", 0, done - theirs_taken)]
            if heroes:  # a character falls in the fight, or flees with its unit and is caught
                for name, troop, codes, its_taken in (("character_slain", mine, cs, taken - theirs_taken),
                                                      ("enemy_character_slain", theirs, es, theirs_taken)):
                    fell = np.where(troop.alive(codes) == 0, done, its_taken) if troop.hero is not None else done * 0
                    weights += [(name, 1, fell), (name, 0, done - fell)]
            for name, values, weight in weights:
                np.add.at(tally[name], np.broadcast_to(np.asarray(values, dtype=np.int64), p.shape), weight)
            np.add.at(following, (mine.settled(cs), theirs.settled(es)), np.where(ends, zero, p - broke))
            tally["rounds"][round_ + 1] += done.sum()  # the combats this round ends
        states = following
    return {name: tally[name] if name in events else pmfs.trim(tally[name]) for name in OUTCOMES + SLAIN * heroes}
