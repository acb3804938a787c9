"""The 9th Age: how long a combat's exact twin (`fight_exact.py`) takes, told before any work, so that a query too
costly is refused in one line that says to sample (docs/rules.md §3.11, the state space). Calibrated on this
machine: the constants say what was measured."""

from __future__ import annotations

from .fight import Fight

PER_STATE = {False: 2.2e-4, True: 2.5e-3}  # seconds a state's step takes in a later round, floats / fractions: the
#                                         most measured here (knights with mounts and stomps, 5 to 60 a side; a Duel of
#                                         20 a side in floats, since every starting state steps at once)
FIRST_ROUND = 0.1  # the first round's share of a later round's cost (it starts from one state)
ALLIED_ROUND = 0.4  # a later round's share of every state of a side of several units (--with-unit), measured
ENEMY_LINE = {False: 2, True: 2}  # more, when the charged side has several units (--enemy-with-unit), measured
BOTH_LINES_FRACTIONS = 4  # more still, in fractions, when both sides have (their sums grow fastest), measured
REFORMS = 2.0  # a later round's more, when a main unit may Combat Reform (its bit): measured 1.0 to 2.1 times
#               --combat-reform keep's (knights in the flank of 10 to 60, fought to the end)


def exact_cost(fight: Fight, rounds: int, fractions: bool = False) -> float:
    """About how long the exact answer takes, in seconds, before any work: each Initiative Step walks the pairs of
    Health Points lost a round can reach, and a later round does so from each pair the first one reached; with
    several units a side, the states of every one of them (and whether it fled) in each later round. A Combat
    Reform's bit doubles a later round of one unit a side (`REFORMS`); with several, its states are counted whole
    already. Measured in fractions with several units: 5 to 40 times over on the agreement cases, 1.4 to 3.7 times
    for 8 to 15 models a side with one other unit, and one case under (two other units of 5 beside 10 against 10,
    two rounds: 70 s told, 97 s taken on a loaded machine): a refusal at the 2 s cap is safe, a figure far past it
    is a rough one."""
    charged, charger = fight.reach()
    duel = 1.0
    for troop in fight.troops:  # a character struck from the first step (a Duel): the root of its states, as
        if troop.duel and troop.hero is not None:  # measured; else it is whole until its unit is gone
            duel *= (troop.health + 1) ** 0.5
    steps = PER_STATE[fractions] * len(fight.schedule(True))
    pairs = (charged + 1) * (charger + 1) * duel
    if not fight.allies and not fight.enemy_allies:
        later = REFORMS if any(line.reforms for line in fight.lines) else 1.0
        return steps * pairs * ((rounds - 1) * later + FIRST_ROUND)
    states = duel ** 2  # (with several units, a Duel's states counted whole: measured)
    for line, most in zip(fight.lines, (charger, charged)):
        if not line.flagged:
            states *= most + 1
            continue
        for troop in line.troops:
            states *= (min(troop.unit.total, most) + 1) * 2
        for troop in line.troops[1:]:  # an ally's character: its states, whole, twice beside a Duel (fractions'
            if troop.hero is not None and fractions:  # sums grow with them; floats' are within the Duel's
                states *= (troop.health + 1) ** (2 if duel > 1 else 1)  # overcount: measured)
    if fight.enemy_line.flagged:  # the charged side's units too: every pair of both sides' states (measured)
        states *= ENEMY_LINE[fractions] * (BOTH_LINES_FRACTIONS if fractions and fight.line.flagged else 1)
    return steps * (pairs * FIRST_ROUND + states * (rounds - 1) * ALLIED_ROUND)
