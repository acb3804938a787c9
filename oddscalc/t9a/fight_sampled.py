"""The 9th Age: a combat sampled (docs/rules.md §3.11): every die rolled, step by step, round by round, for all
trials at once; each trial's state is each side's code (`troop.Troop`: its unit's Health Points lost and its
character's). The exact twin is `fight_exact.py`'s; the rules both read are `fight.Fight`'s."""

from __future__ import annotations

import numpy as np

from .fight import OUTCOMES, SLAIN, Blow, Fight, Pursuit
from .troop import OVERKILL


def _states(keys: np.ndarray):
    """(key, the trials holding it) for each distinct key (one key: every trial, no sort)."""
    if len(keys) and keys.min() == keys.max():
        yield int(keys[0]), slice(None)
        return
    order = np.argsort(keys, kind="stable")
    starts = np.flatnonzero(np.diff(keys[order])) + 1
    for chunk in np.split(order, starts) if len(order) else []:
        yield int(keys[chunk[0]]), chunk


def _two_d6(rng: np.random.Generator, maximised, trials: int) -> np.ndarray:
    """Each trial's 2D6, Maximised where `maximised` (three dice, the lowest dropped)."""
    if not np.any(maximised):
        dice = rng.integers(1, 7, size=(2, trials), dtype=np.int8)
        return dice[0] + dice[1]
    dice = rng.integers(1, 7, size=(trials, 3), dtype=np.int8)
    return np.where(maximised, dice.sum(axis=1) - dice.min(axis=1), dice[:, 0] + dice[:, 1])


def _sample_step(rng: np.random.Generator, fight: Fight, blows: tuple[Blow, ...], codes: list[np.ndarray],
                 playing: np.ndarray) -> None:
    """One Initiative Step of the trials still `playing`: its blows, each trial's from the models standing as it
    begins, on the pool each strikes (`Fight.target`), each pool at most what it has left (a Duel's Overkill)."""
    mine, theirs = fight.troops
    now = [codes[0][playing], codes[1][playing]]
    keys = now[0].astype(np.int64) * theirs.states + now[1]
    if len(keys) and keys.min() == keys.max():  # one state (the first step): no sort
        distinct, inverse = keys[:1], np.zeros(len(keys), dtype=np.int64)
    else:
        distinct, inverse = np.unique(keys, return_inverse=True)
    table = []  # each state's blows as count * 2 + the pool struck (no target: no count)
    known = fight.__dict__.setdefault("_struck", {})  # by blow and state: a later round meets the same states
    for key in distinct.tolist():
        row = []
        for blow in blows:
            if (blow, key) not in known:
                c, e = divmod(key, theirs.states)
                pool = fight.target(blow, c, e)
                known[blow, key] = 0 if pool is None else fight.count(blow, c, e) * 2 + pool
            row.append(known[blow, key])
        table.append(row)
    struck = np.array(table, dtype=np.int64).reshape(-1, len(blows))[inverse.ravel()].T
    dealt = [[np.zeros(len(playing), dtype=np.int64) for _ in (0, 1)] for _ in (0, 1)]  # to each side, each pool
    for blow, each in zip(blows, struck):
        for key, at in _states(each):
            count, pool = divmod(key, 2)
            if count:
                size = len(playing) if isinstance(at, slice) else len(at)
                rolled = fight.attack(blow, count, pool, 0).sample(rng, size)["health_lost"]
                dealt[1 - blow.side][pool][at] += np.asarray(rolled, dtype=np.int64)
    duel = fight.duelling(now[0], now[1])
    for side, troop in enumerate(fight.troops):
        lost, hero = troop.pools(now[side])
        lost = lost + np.minimum(dealt[side][0], troop.unit.total - lost)
        if troop.hero is not None:
            room = np.maximum(troop.health - hero, 0) + np.where(duel & (hero < troop.health), OVERKILL, 0)
            hero = hero + np.minimum(dealt[side][1], room)
        codes[side][playing] = troop.code(lost, hero)


def _break_tests(rng: np.random.Generator, fight: Fight, codes: list[np.ndarray], tests: np.ndarray,
                 won: np.ndarray, margin: np.ndarray) -> np.ndarray:
    """Whether each loser of `tests` broke: 2D6 above its Discipline less the penalty (none when Steadfast or
    Stubborn), its character's Discipline and Stubborn while it stands, a Battle Standard's re-roll."""
    mine, theirs = fight.troops
    c, e, won = codes[0][tests], codes[1][tests], won[tests]
    steadfast = fight.steadfast(c, e)
    active = (mine.active(c), theirs.active(e))
    penalty = np.where(np.where(won, steadfast[1], steadfast[0]), 0, margin[tests])
    penalty = np.where(np.where(won, theirs.stubborn(active[1]), mine.stubborn(active[0])), 0, penalty)
    discipline = np.where(won, theirs.discipline(active[1]), mine.discipline(active[0]))
    failed = _two_d6(rng, False, len(tests)) > discipline - penalty
    rally = np.where(won, theirs.rally(active[1]), mine.rally(active[0]))
    if np.any(rally):  # Rally Around the Flag: a failed test re-rolled
        failed &= ~rally | (_two_d6(rng, False, len(tests)) > discipline - penalty)
    return failed & ~np.where(won, fight.charged.unbreakable, fight.charger.unbreakable)


def combat_sample(rng: np.random.Generator, fight: Fight, rounds: int, trials: int) -> dict[str, np.ndarray]:
    """Each trial's combat: every attack rolled by t9a melee's stages, step by step, then the dice of the
    Break Test, the Flee and the Pursuit."""
    mine, theirs = fight.troops
    heroes = mine.hero is not None or theirs.hero is not None
    codes = [np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)]
    out = {name: np.zeros(trials, dtype=np.int64) for name in OUTCOMES + SLAIN * heroes}
    going = np.ones(trials, dtype=bool)
    for round_ in range(rounds):
        first = round_ == 0
        before = [0, 0] if first else [codes[0].copy(), codes[1].copy()]
        playing = np.flatnonzero(going)
        out["rounds"][playing] = round_ + 1
        now_fight = fight.in_round(first)
        for _, blows in now_fight.schedule(first):
            _sample_step(rng, now_fight, blows, codes, playing)
        won, tied, margin = fight.result(codes[0], codes[1], before[0], before[1], first)
        np.copyto(out["win"], won, where=going)
        np.copyto(out["draw"], tied, where=going)
        np.copyto(out["score"], margin, where=going)
        # the losers' Break Tests, worked out only where one is taken
        tests = np.flatnonzero(going & ~tied)
        tests = tests[np.where(won[tests], theirs.left(codes[1][tests]), mine.left(codes[0][tests])) > 0]
        broke = np.zeros(trials, dtype=bool)
        broke[tests] = _break_tests(rng, fight, codes, tests, won, margin)
        fled = np.flatnonzero(broke)
        won_f = won[fled]
        caught = (_two_d6(rng, np.where(won_f, fight.charger.swiftstride, fight.charged.swiftstride), len(fled))
                  >= _two_d6(rng, np.where(won_f, fight.charged.swiftstride, fight.charger.swiftstride), len(fled)))
        if fight.pursuit is Pursuit.RESTRAIN:  # the winner pursues only when its Restrain Pursuit test fails
            discipline = np.where(won_f, mine.discipline(mine.active(codes[0][fled])),
                                  theirs.discipline(theirs.active(codes[1][fled])))
            caught &= _two_d6(rng, False, len(fled)) > discipline
        out["break"][fled] = 1
        out["caught"][fled[caught]] = 1
        out["enemy_break"][fled[won_f]] = 1  # the charged unit broke (the charger won)
        out["enemy_caught"][fled[won_f & caught]] = 1
        gone = (mine.left(codes[0]) == 0) | (theirs.left(codes[1]) == 0)
        going = going & ~broke & ~gone
    out["health_lost"], out["enemy_health_lost"] = mine.lost(codes[0]), theirs.lost(codes[1])
    if heroes:  # a character falls in the fight, or flees with its unit and is caught
        charger_caught = (out["caught"] == 1) & (out["enemy_caught"] == 0)
        for name, troop, code, taken in (("character_slain", mine, codes[0], charger_caught),
                                         ("enemy_character_slain", theirs, codes[1], out["enemy_caught"] == 1)):
            out[name] = ((troop.alive(code) == 0) | taken) * (troop.hero is not None)
    return out
