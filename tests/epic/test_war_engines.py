"""War engines as targets (docs/rules.md §2.8): the exact twin against a brute-force walk of every
die, worked examples by hand, and the refusals.

The brute force below is written from the rules, apart from the code under test: it walks
every die of a small attack (each face 1/6), hit by hit, and keeps every war engine's state.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import ceil

import pytest
from clirun import assert_refused, exact_json

from oddscalc.epic import Barrage, EpicShoot
from oddscalc.epic.saves import Ability
from oddscalc.errors import InputError

SIXTH = F(1, 6)


def faces():
    return range(1, 7)


def walk(shots: int, to_hit: int, *, count: int, capacity: int, shields: int, armour: int | None,
         reinforced: bool = False, invulnerable: bool = False, weapon: str = "normal", critical: str = "none",
         tk: int = 1, mw_shots: int = 0, mw_to_hit: int = 2, tk_allocation: str = "hit", others: int = 0,
         other_armour: int | None = None, other_reinforced: bool = False, reach: str = "engines",
         front: str = "engines", tk_save: str = "point", behind: tuple[dict, ...] = ()) -> dict[tuple, F]:
    """{(hits, kills, damage, shields down, other units killed): P} by walking every die (to-hit values 2+
    to 6+ only). The other units of the formation are reached as `reach` says; each unit takes one hit a
    round, each war engine its damage capacity, in the order `front` says. A titan killer's hit gets an
    invulnerable save for each point of damage, or with `tk_save="hit"` one for the whole hit. `behind`
    gives war engines of other profiles behind the first `count` (each a dict: count, capacity, shields,
    armour, reinforced, invulnerable, critical), each taking its own capacity in hits a round."""
    results: dict[tuple, F] = {}
    plain = dict(shields=0, armour=None, reinforced=False, invulnerable=False, critical="none")
    profile = [dict(capacity=capacity, shields=shields, armour=armour, reinforced=reinforced,
                    invulnerable=invulnerable, critical=critical)] * count
    profile += [{**plain, **more} for more in behind for _ in range(more["count"])]  # each war engine's own
    engines_in_all = len(profile)

    def rolled(face: int) -> int:
        """A titan killer's points on its die: `tk` 3 is a D3, 6 a D6, any other a constant."""
        return ceil(face / 2) if tk == 3 else face if tk == 6 else tk

    def hits_of(n: int, need: int):
        """{hits: P} of n shots."""
        table = {0: F(1)}
        for _ in range(n):
            after: dict[int, F] = {}
            for h, p in table.items():
                for face in faces():
                    key = h + (face >= need and face != 1)
                    after[key] = after.get(key, 0) + p * SIXTH
            table = after
        return table

    def damage_point(state, engine, p, then):
        """One point of damage with its critical hit roll (3.2.3)."""
        capacity, critical = profile[engine]["capacity"], profile[engine]["critical"]
        up, lost = state[engine]
        if lost >= capacity:
            return then(state, p)
        lost += 1
        for face in faces():
            new = list(state)
            if face == 6 and critical == "destroyed":
                new[engine] = (up, capacity)
                then(tuple(new), p * SIXTH)
            elif face == 6 and critical == "damage" and lost < capacity:
                new[engine] = (up, lost)
                damage_point(tuple(new), engine, p * SIXTH, then)
            elif face == 6 and critical == "damage-once":  # one more point, with no roll of its own
                new[engine] = (up, min(lost + 1, capacity))
                then(tuple(new), p * SIXTH)
            elif face == 6 and critical == "wounded":  # its own D6: 1 nothing, 2-5 a point (rolling), 6 killed
                for table in faces():
                    if table == 6:
                        new[engine] = (up, capacity)
                        then(tuple(new), p * SIXTH * SIXTH)
                    elif table >= 2 and lost < capacity:
                        new[engine] = (up, lost)
                        damage_point(tuple(new), engine, p * SIXTH * SIXTH, then)
                    else:
                        new[engine] = (up, lost)
                        then(tuple(new), p * SIXTH * SIXTH)
            else:
                new[engine] = (up, min(lost, capacity))
                then(tuple(new), p * SIXTH)

    def saves(macro: bool, armour=armour, reinforced=reinforced, invulnerable=invulnerable) -> list[tuple[F, bool]]:
        """[(P, saved)] of one hit's saves (§2.2), every die walked."""
        outcomes = []
        first = None if weapon == "titan-killer" or (macro and not reinforced) else armour
        for a in faces():
            if first is not None and a >= first:
                outcomes.append((SIXTH, True))
                continue
            for b in (faces() if reinforced and not macro and first is not None else [None]):
                weight = SIXTH * (SIXTH if b is not None else 1) if first is not None else F(1)
                if b is not None and b >= armour:
                    outcomes.append((weight, True))
                    continue
                if invulnerable:
                    outcomes += [(weight * SIXTH, c == 6) for c in faces()]
                else:
                    outcomes.append((weight, False))
            if first is None:
                break
        return outcomes

    def resolve(state, queue, p, finish):
        """Resolve the queued hits (engine, macro) in order."""
        if not queue:
            return finish(state, p)
        if queue[0][0] == "other":  # a unit that fails any save is destroyed
            (_, unit, macro), rest = queue[0], queue[1:]
            for weight, saved in saves(macro, other_armour, other_reinforced, False):
                new = list(state)
                new[engines_in_all + unit] = (None, state[engines_in_all + unit][1] or int(not saved))
                resolve(tuple(new), rest, p * weight, finish)
            return None
        (engine, macro, one_point), rest = queue[0], queue[1:]
        up, lost = state[engine]
        own = profile[engine]
        if lost >= own["capacity"]:
            return resolve(state, rest, p, finish)
        if one_point:  # a point already rolled, allocated as a hit of its own
            return points(state, engine, 1, p, lambda s, q: resolve(s, rest, q, finish))
        if weapon == "titan-killer" and not macro:
            for face in faces():
                n = rolled(face)
                if tk_save == "hit" and own["invulnerable"]:  # one save die for the whole hit
                    for save in faces():
                        points(state, engine, n, p * SIXTH * SIXTH, lambda s, q: resolve(s, rest, q, finish),
                               each="saved" if save == 6 else "none")
                else:
                    points(state, engine, n, p * SIXTH, lambda s, q: resolve(s, rest, q, finish))
            return None
        if up:
            new = list(state)
            new[engine] = (up - 1, lost)
            return resolve(tuple(new), rest, p, finish)
        for weight, saved in saves(macro, own["armour"], own["reinforced"], own["invulnerable"]):
            if saved:
                resolve(state, rest, p * weight, finish)
            else:
                damage_point(state, engine, p * weight, lambda s, q: resolve(s, rest, q, finish))
        return None

    def points(state, engine, n, p, then, each=None):
        """A titan killer's points: shields first, then each point an invulnerable save or damage (`each`:
        "save" rolls one for each point, "none" has none, "saved" is a hit already saved: no damage)."""
        each = each or ("save" if profile[engine]["invulnerable"] else "none")
        if n == 0:
            return then(state, p)
        up, lost = state[engine]
        if up:
            new = list(state)
            new[engine] = (up - 1, lost)
            return points(tuple(new), engine, n - 1, p, then, each)
        if each == "saved":
            return points(state, engine, n - 1, p, then, each)
        if each == "save":
            points(state, engine, n - 1, p * SIXTH, then, each)
            return damage_point(state, engine, p * 5 * SIXTH, lambda s, q: points(s, engine, n - 1, q, then, each))
        return damage_point(state, engine, p, lambda s, q: points(s, engine, n - 1, q, then, each))

    def record(state, p, total):
        engines, units = state[:engines_in_all], state[engines_in_all:]
        tops = [own["capacity"] for own in profile]
        kills = sum(lost >= top for (_, lost), top in zip(engines, tops))
        key = (total, kills, sum(top if lost >= top else lost for (_, lost), top in zip(engines, tops)),
               sum(own["shields"] - up for (up, _), own in zip(engines, profile)), sum(dead for _, dead in units))
        results[key] = results.get(key, 0) + p

    def slots_of(hits: int) -> dict[int, F]:
        """{slots allocated: P}: the hits, or with tk_allocation="damage" their titan killer points rolled."""
        if weapon != "titan-killer" or tk_allocation == "hit":
            return {hits: F(1)}
        table = {0: F(1)}
        for _ in range(hits):
            after: dict[int, F] = {}
            for n, p in table.items():
                for face in faces():
                    key = n + rolled(face)
                    after[key] = after.get(key, 0) + p * SIXTH
            table = after
        return table

    def order(slots: int, macro: bool, one_point: bool) -> list[tuple]:
        """The first `slots` places of the allocation, round after round, front to back."""
        engines = ([(i, macro, one_point) for i in range(engines_in_all) for _ in range(profile[i]["capacity"])]
                   if reach != "others" else [])
        units = [("other", i, macro) for i in range(others)] if reach != "engines" else []
        one_round = engines + units if front == "engines" else units + engines
        return [one_round[j % len(one_round)] for j in range(slots)]

    start = tuple((own["shields"], 0) for own in profile) + ((None, 0),) * others
    one_point = weapon == "titan-killer" and tk_allocation == "damage"
    after = hits_of(mw_shots, mw_to_hit)
    for first_hits, p_hits in hits_of(shots, to_hit).items():
        for slots, p_slots in slots_of(first_hits).items():
            queue = order(slots, weapon == "macro", one_point)

            def after_normal(state, p, first_hits=first_hits):
                standing = [i for i in range(count) if state[i][1] < capacity]
                for more, p2 in after.items():
                    second = ([(standing[(j // capacity) % len(standing)], True, False) for j in range(more)]
                              if standing else [])
                    resolve(state, second, p * p2, lambda s, q, total=first_hits + more: record(s, q, total))

            resolve(start, queue, p_hits * p_slots, after_normal)
    return results


def marginal(joint: dict[tuple, F], index: int) -> list[F]:
    table: dict[int, F] = {}
    for key, p in joint.items():
        table[key[index]] = table.get(key[index], 0) + p
    return [table.get(k, F(0)) for k in range(max(table) + 1)]


def trimmed(values) -> list[F]:
    values = [F(v) for v in values]
    while len(values) > 1 and values[-1] == 0:
        values.pop()
    return values


CASES = [  # (EpicShoot fields, walk arguments)
    (dict(shots=3, to_hit=4, war_engines=1, damage_capacity=2, shields=1, armour=4),
     dict(shots=3, to_hit=4, count=1, capacity=2, shields=1, armour=4)),
    (dict(shots=3, to_hit=3, war_engines=2, damage_capacity=1, armour=5, reinforced=True, critical="destroyed"),
     dict(shots=3, to_hit=3, count=2, capacity=1, shields=0, armour=5, reinforced=True, critical="destroyed")),
    (dict(shots=2, to_hit=3, war_engines=1, damage_capacity=3, armour=6, invulnerable=True, critical="damage"),
     dict(shots=2, to_hit=3, count=1, capacity=3, shields=0, armour=6, invulnerable=True, critical="damage")),
    (dict(shots=2, to_hit=4, weapon=Ability.TITAN_KILLER, tk_damage="d3", war_engines=2, damage_capacity=2,
          shields=1, armour=4, invulnerable=True),
     dict(shots=2, to_hit=4, count=2, capacity=2, shields=1, armour=4, invulnerable=True, weapon="titan-killer",
          tk=3)),
    (dict(shots=2, to_hit=4, mw_shots=2, mw_to_hit=3, war_engines=2, damage_capacity=1, armour=4, reinforced=True),
     dict(shots=2, to_hit=4, count=2, capacity=1, shields=0, armour=4, reinforced=True, mw_shots=2, mw_to_hit=3)),
    (dict(shots=3, to_hit=2, weapon=Ability.MACRO, war_engines=1, damage_capacity=2, shields=1, armour=4,
          reinforced=True, critical="damage"),
     dict(shots=3, to_hit=2, count=1, capacity=2, shields=1, armour=4, reinforced=True, weapon="macro",
          critical="damage")),
    (dict(shots=2, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d3", tk_allocation="damage", war_engines=2,
          damage_capacity=2, shields=1, armour=4, invulnerable=True, critical="damage"),
     dict(shots=2, to_hit=3, count=2, capacity=2, shields=1, armour=4, invulnerable=True, weapon="titan-killer",
          tk=3, tk_allocation="damage", critical="damage")),
    (dict(shots=4, to_hit=3, war_engines=1, damage_capacity=2, shields=1, armour=5, units=2, other_armour=4,
          other_reinforced=True, critical="damage"),
     dict(shots=4, to_hit=3, count=1, capacity=2, shields=1, armour=5, others=2, other_armour=4,
          other_reinforced=True, reach="both", critical="damage")),
    (dict(shots=4, to_hit=2, weapon=Ability.MACRO, war_engines=2, damage_capacity=1, shields=1, armour=4,
          reinforced=True, units=1, other_armour=5, front="others"),
     dict(shots=4, to_hit=2, count=2, capacity=1, shields=1, armour=4, reinforced=True, weapon="macro", others=1,
          other_armour=5, reach="both", front="others")),
    (dict(shots=3, to_hit=4, weapon=Ability.TITAN_KILLER, tk_damage="d3", war_engines=1, damage_capacity=2,
          armour=4, units=2, other_armour=3),
     dict(shots=3, to_hit=4, count=1, capacity=2, shields=0, armour=4, weapon="titan-killer", tk=3, others=2,
          other_armour=3, reach="both")),
    (dict(shots=3, to_hit=4, war_engines=1, damage_capacity=3, armour=4, units=2, other_armour=6, reach="others"),
     dict(shots=3, to_hit=4, count=1, capacity=3, shields=0, armour=4, others=2, other_armour=6, reach="others")),
    (dict(shots=3, to_hit=3, war_engines=1, damage_capacity=4, shields=1, armour=6, invulnerable=True,
          critical="damage-once"),
     dict(shots=3, to_hit=3, count=1, capacity=4, shields=1, armour=6, invulnerable=True, critical="damage-once")),
    (dict(shots=3, to_hit=3, war_engines=2, damage_capacity=3, armour=6, critical="wounded"),
     dict(shots=3, to_hit=3, count=2, capacity=3, shields=0, armour=6, critical="wounded")),
    (dict(shots=2, to_hit=4, weapon=Ability.TITAN_KILLER, tk_damage="d3", war_engines=1, damage_capacity=4,
          armour=5, critical="wounded"),
     dict(shots=2, to_hit=4, count=1, capacity=4, shields=0, armour=5, weapon="titan-killer", tk=3,
          critical="wounded")),
    (dict(shots=2, to_hit=4, weapon=Ability.TITAN_KILLER, tk_damage="d3", war_engines=2, damage_capacity=2,
          shields=1, armour=4, invulnerable=True, tk_save="hit"),
     dict(shots=2, to_hit=4, count=2, capacity=2, shields=1, armour=4, invulnerable=True, weapon="titan-killer",
          tk=3, tk_save="hit")),
    (dict(shots=2, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d6", war_engines=1, damage_capacity=4,
          shields=2, armour=5, invulnerable=True, critical="damage", tk_save="hit"),
     dict(shots=2, to_hit=3, count=1, capacity=4, shields=2, armour=5, invulnerable=True, weapon="titan-killer",
          tk=6, critical="damage", tk_save="hit")),
    # a Squat Land Train: an engine (armour 4+ reinforced, DC 2), then battle cars (no armour, DC 1, a shield)
    (dict(shots=4, to_hit=3, war_engines=1, damage_capacity=2, armour=4, reinforced=True,
          engine=("2 DC1 armour none shields 1",)),
     dict(shots=4, to_hit=3, count=1, capacity=2, shields=0, armour=4, reinforced=True,
          behind=(dict(count=2, capacity=1, shields=1),))),
    # a bio-titan (5+, invulnerable, wounded; DC 1 so that the second hit goes on) with a Hierodule (DC 3,
    # 5+ reinforced, destroyed)
    (dict(shots=2, to_hit=4, war_engines=1, damage_capacity=1, armour=5, invulnerable=True,
          critical="wounded", engine=("1 DC3 armour 5+ reinforced critical destroyed",)),
     dict(shots=2, to_hit=4, count=1, capacity=1, shields=0, armour=5, invulnerable=True,
          critical="wounded", behind=(dict(count=1, capacity=3, armour=5, reinforced=True, critical="destroyed"),))),
    # titan killers at mixed profiles, their points allocated as hits (NetEA) and saved on each one's own
    (dict(shots=2, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d3", tk_allocation="damage", war_engines=1,
          damage_capacity=1, armour=4, shields=1, engine=("1 DC2 armour 6+ invulnerable critical damage",)),
     dict(shots=2, to_hit=3, count=1, capacity=1, shields=1, armour=4, weapon="titan-killer", tk=3,
          tk_allocation="damage", behind=(dict(count=1, capacity=2, armour=6, invulnerable=True,
                                                critical="damage"),))),
    (dict(shots=3, to_hit=2, weapon=Ability.MACRO, war_engines=2, damage_capacity=1, armour=3, reinforced=True,
          engine=("1 DC2 armour 4+ shields 1",)),
     dict(shots=3, to_hit=2, count=2, capacity=1, shields=0, armour=3, reinforced=True, weapon="macro",
          behind=(dict(count=1, capacity=2, armour=4, shields=1),))),
]


@pytest.mark.parametrize("fields, walked", CASES, ids=[str(i) for i in range(len(CASES))])
def test_the_exact_twin_is_the_walk_of_every_die(fields, walked):
    attack = EpicShoot(**fields)
    joint = walk(**walked)
    exact = attack.exact(fractions=True)
    names = ("hits", "kills", "damage", "shields", "other_kills")
    if "other_kills" in attack.outcomes:  # kills are then every unit destroyed, engine_kills the war engines
        names = ("hits", "engine_kills", "damage", "shields", "other_kills")
    for index, name in enumerate(names if "other_kills" in attack.outcomes else names[:4]):
        assert trimmed(exact[name]) == trimmed(marginal(joint, index)), name


def test_the_warhound_worked_example():
    """Four Plasma Blastgun shots at MW2+ at a Warhound (DC 3, two void shields, armour 5+ reinforced):
    the shields stop the first two hits; each later hit is saved on a 5+, without the re-roll."""
    exact = EpicShoot(shots=4, to_hit=2, weapon="macro", war_engines=1, damage_capacity=3, shields=2, armour=5,
                      reinforced=True).exact(fractions=True)
    hit = F(5, 6)
    assert list(exact["kills"]) == [1]  # two hits past the shields cannot reach DC 3
    assert exact["damage"][2] == hit**4 * F(2, 3) ** 2
    assert exact["damage"][1] == hit**3 * (1 - hit) * 4 * F(2, 3) + hit**4 * 2 * F(2, 3) * F(1, 3)
    assert exact["shields"][2] == 1 - (1 - hit) ** 4 - 4 * hit * (1 - hit) ** 3
    # blast markers: 1 for coming under fire + 1 per point of damage; broken at 3 (DC 3, no other units)
    assert exact["broken"][1] == exact["damage"][2]


@pytest.mark.parametrize("attack", [
    EpicShoot(shots=7, to_hit=5, war_engines=1, damage_capacity=8, shields=6, armour=4, reinforced=True),
    EpicShoot(shots=13, to_hit=2, weapon="macro", war_engines=1, damage_capacity=8, shields=6, armour=4),
    Barrage(bp=6, war_engines=1, damage_capacity=8, shields=6, armour=4),  # 4 attacks under the centre
])
def test_fire_that_cannot_reach_the_capacity_past_the_shields_never_destroys(attack):
    assert list(attack.exact(fractions=True)["kills"]) == [1]


def test_a_titan_killers_invulnerable_save_for_each_point_or_for_the_hit():
    """One TK(2) shot at 2+ at a DC 3 war engine with an invulnerable save: for each point, damage 2 needs both
    points unsaved, (5/6)·(5/6)²; for the hit, one save decides both points, (5/6)·(5/6)."""
    fields = dict(shots=1, to_hit=2, weapon="titan-killer", tk_damage=2, war_engines=1, damage_capacity=3, armour=4,
                  invulnerable=True)
    point = EpicShoot(**fields).exact(fractions=True)["damage"]
    hit = EpicShoot(**fields, tk_save="hit").exact(fractions=True)["damage"]
    assert list(point) == [F(1, 6) + F(5, 6) * F(1, 36), F(5, 6) * 2 * F(5, 36), F(5, 6) * F(25, 36)]
    assert list(hit) == [F(1, 6) + F(5, 6) * F(1, 6), 0, F(5, 6) * F(5, 6)]
    # with a void shield up, the first point takes it down whether the hit is saved or not
    shielded = EpicShoot(**fields, shields=1, tk_save="hit").exact(fractions=True)
    assert list(shielded["shields"]) == [F(1, 6), F(5, 6)]
    assert list(shielded["damage"]) == [F(1, 6) + F(5, 6) * F(1, 6), F(5, 6) * F(5, 6)]


def test_a_formation_of_two_profiles_breaks_on_the_capacity_still_standing():
    """A DC 1 war engine in front of a DC 3 one, no saves: one shot at 2+ destroys the first (5/6). Markers:
    1 under fire + 1 point of damage = 2, against the DC still standing, 3: never broken (it would be, at
    the first profile's DC for every war engine left)."""
    exact = EpicShoot(shots=1, to_hit=2, war_engines=1, damage_capacity=1, armour=None,
                      engine=("1 DC3 armour none",)).exact(fractions=True)
    assert exact["kills"] == (F(1, 6), F(5, 6)) and exact["broken"] == (1, 0)
    assert exact["blast_markers"] == (0, F(1, 6), F(5, 6))
    # two more shots: the next hits go to the DC 3 war engine, in a block of three
    three = EpicShoot(shots=4, to_hit=2, war_engines=1, damage_capacity=1, armour=None,
                      engine=("1 DC3 armour none",)).exact(fractions=True)
    assert three["kills"][2] == F(5, 6) ** 4 and three["damage"][4] == F(5, 6) ** 4


def test_a_barrage_attacks_each_war_engine_under_it_half_its_own_capacity():
    """3 BP (AT 5+, one template) centred on a DC 1 war engine and, with --engines-under 2, on the DC 4 one
    behind it: ⌈1/2⌉ = 1 attack and ⌈4/2⌉ = 2 attacks, no saves: damage is Binomial(3, 1/3), kills the
    first war engine's one hit."""
    fields = dict(bp=3, war_engines=1, damage_capacity=1, armour=None, engine=("1 DC4 armour none",))
    two = Barrage(**fields, engines_under=2).exact(fractions=True)
    third = F(1, 3)
    assert two["damage"] == (F(8, 27), F(12, 27), F(6, 27), F(1, 27))
    assert two["kills"] == (1 - third, third)
    assert Barrage(**fields).exact(fractions=True)["damage"] == (1 - third, third)  # the first one only
    assert "Epic barrage: 3 BP on 2 war engines, 2 war engines under the templates" in Barrage(
        **fields, engines_under=2).describe()


def test_fourteen_macro_hits_can_destroy_a_warlord():
    exact = EpicShoot(shots=14, to_hit=2, weapon="macro", war_engines=1, damage_capacity=8, shields=6,
                      armour=4).exact(fractions=True)
    assert exact["kills"][1] == F(5, 6) ** 14  # every shot must hit: 6 shields, then 8 unsaved hits


def test_critical_hits_follow_the_datasheet():
    """One failed save on a DC 3 war engine: a 6 on the critical roll destroys it, or does one more
    point which rolls again, or (the rulebook's default) changes nothing now."""
    fields = dict(shots=1, to_hit=2, weapon="titan-killer", war_engines=1, damage_capacity=3, armour=4)
    hit = F(5, 6)
    destroyed = EpicShoot(critical="destroyed", **fields).exact(fractions=True)
    assert destroyed["kills"][1] == hit * SIXTH
    assert destroyed["damage"][3] == hit * SIXTH and destroyed["blast_markers"][1 + 3] == hit * SIXTH
    damage = EpicShoot(critical="damage", **fields).exact(fractions=True)
    assert damage["kills"][1] == hit * SIXTH**2 and damage["damage"][2] == hit * SIXTH * 5 * SIXTH
    once = EpicShoot(critical="damage-once", **fields).exact(fractions=True)  # the extra point rolls no critical
    assert list(once["kills"]) == [1] and (once["damage"][1], once["damage"][2]) == (hit * 5 * SIXTH, hit * SIXTH)
    none = EpicShoot(**fields).exact(fractions=True)
    assert list(none["kills"]) == [1] and none["damage"][1] == hit
    # Wounded (a bio-titan): a 6, then its own D6: 6 kills it, 2-5 a second point that rolls a critical again
    wounded = EpicShoot(critical="wounded", **fields).exact(fractions=True)
    second = hit * SIXTH * F(4, 6)  # a second point
    assert wounded["kills"][1] == hit * SIXTH * SIXTH + second * SIXTH * (SIXTH + F(4, 6))  # 6, or 2-5 at DC 3
    assert wounded["damage"][1] == hit * (5 * SIXTH + SIXTH * SIXTH)  # no critical, or a critical and a 1
    assert wounded["damage"][2] == second * (5 * SIXTH + SIXTH * SIXTH)


def test_a_barrage_attacks_a_war_engine_under_the_centre_half_its_capacity_times():
    """3 BP: one template, on one of two Baneblades (DC 3): ⌈3/2⌉ = 2 attacks on the AT column (5+)."""
    attack = Barrage(bp=3, war_engines=2, damage_capacity=3, armour=4)
    assert (attack.centred, attack.attacks_each) == (1, 2)
    exact = attack.exact(fractions=True)
    unsaved = F(1, 3) * F(1, 2)
    assert exact["damage"][2] == unsaved**2 and list(exact["kills"]) == [1]
    # 8 BP: three templates (1 + 2 extra) on three war engines; one extra blast marker (§2.5)
    big = Barrage(bp=8, war_engines=3, damage_capacity=1, armour=4).exact(fractions=True)
    assert big["kills"][3] == (F(1, 3) * F(1, 2)) ** 3  # each: hit on 5+, then the 4+ save fails
    assert big["blast_markers"][1 + 1] == (1 - F(1, 6)) ** 3  # under fire + the table's extra one, no damage


def test_a_barrage_attacks_the_war_engines_the_player_says_are_under_it():
    """--engines-under: the other reading of a barrage on war engines (a template's edge on a second war
    engine, or several templates on one): each of those under it is attacked ⌈DC/2⌉ times."""
    one = Barrage(bp=3, war_engines=2, damage_capacity=1, armour=4)
    both = Barrage(bp=3, war_engines=2, damage_capacity=1, armour=4, engines_under=2)
    assert (one.centred, both.centred) == (1, 2)
    unsaved = F(1, 3) * F(1, 2)  # a hit on the AT column's 5+, then the 4+ save fails
    assert list(one.exact(fractions=True)["kills"]) == [1 - unsaved, unsaved]
    assert list(both.exact(fractions=True)["kills"]) == [(1 - unsaved) ** 2, 2 * unsaved * (1 - unsaved),
                                                             unsaved**2]
    fewer = Barrage(bp=8, war_engines=3, damage_capacity=1, armour=4, engines_under=1)  # three templates, one
    assert list(fewer.exact(fractions=True)["kills"]) == [1 - unsaved, unsaved]
    assert "2 war engines under the templates" in both.describe()


def test_a_titan_killers_points_as_hits_spill_onto_the_next_war_engine():
    """Two TK(D3) shots at 2+ on two war engines of DC 3 (no save against a titan killer). The rulebook: each
    hit is one hit, so both go to the first war engine, which can lose at most its 3 points. The NetEA
    reading (--tk-allocation damage): D1 + D2 points are allocated as hits, the first 3 to the first war
    engine and the rest to the second."""
    fields = dict(shots=2, to_hit=2, weapon="titan-killer", tk_damage="d3", war_engines=2, damage_capacity=3,
                  armour=4)
    both, one = F(5, 6) ** 2, 2 * F(5, 6) * SIXTH
    rulebook = EpicShoot(**fields).exact(fractions=True)
    assert len(trimmed(rulebook["damage"])) == 4 and len(trimmed(rulebook["kills"])) == 2  # at most 3 points
    assert rulebook["kills"][1] == both * F(8, 9) + one * F(1, 3)  # D1 + D2 >= 3, or one hit rolling 3
    netea = EpicShoot(tk_allocation="damage", **fields).exact(fractions=True)
    # D1 + D2 = 4 (1+3, 2+2, 3+1): the first destroyed, one point on the second
    assert netea["damage"][4] == both * F(3, 9) and netea["kills"][1] == both * F(8 - 1, 9) + one * F(1, 3)
    assert netea["kills"][2] == both * F(1, 9)  # 3 + 3: six points, both destroyed
    assert list(netea["hits"]) == list(rulebook["hits"])  # hits are still hits
    single = dict(fields, war_engines=1)  # one war engine: the two readings are the same
    assert (EpicShoot(tk_allocation="damage", **single).exact(fractions=True)["damage"]
            == EpicShoot(**single).exact(fractions=True)["damage"])


def test_hits_go_front_to_back_over_war_engines_and_other_units():
    """Three shots at 2+ on a war engine of DC 1 and two other units, none with a save: each hit destroys
    what it falls on. War engines in front: hit 1 the war engine, hits 2 and 3 the others; others in front:
    hits 1 and 2 the others, hit 3 the war engine. AP fire (--reach others): only the others."""
    fields = dict(shots=3, to_hit=2, war_engines=1, damage_capacity=1, armour=None, units=2, other_armour=None)
    hit, miss = F(5, 6), SIXTH
    h = [miss**3, 3 * hit * miss**2, 3 * hit**2 * miss, hit**3]  # P(0..3 hits)
    first = EpicShoot(**fields).exact(fractions=True)
    assert list(first["engine_kills"]) == [h[0], h[1] + h[2] + h[3]]
    assert list(first["other_kills"]) == [h[0] + h[1], h[2], h[3]]
    assert list(first["kills"]) == h  # every unit destroyed: one per hit
    assert list(first["blast_markers"]) == [0] + h  # 1 under fire + 1 per unit destroyed
    assert list(first["broken"]) == [h[0], 1 - h[0]]  # 2 markers reach the 2 units left after one hit
    behind = EpicShoot(front="others", **fields).exact(fractions=True)
    assert list(behind["engine_kills"]) == [1 - h[3], h[3]] and list(behind["kills"]) == h
    assert list(behind["other_kills"]) == [h[0], h[1], h[2] + h[3]]
    infantry = EpicShoot(reach="others", **fields).exact(fractions=True)
    assert list(infantry["engine_kills"]) == [1]
    assert list(infantry["other_kills"]) == list(infantry["kills"]) == [h[0], h[1], h[2] + h[3]]
    assert "kills" in EpicShoot(**fields).outcomes and "other_kills" not in EpicShoot(
        **{**fields, "other_armour": 0}).outcomes  # without their armour the fire does not reach them


def test_a_barrage_rolls_once_for_each_other_unit_under_it():
    """8 BP: three templates, one on the war engine (DC 2: one attack on AT 5+), the two others on its
    infantry, 3 each: all 4 of them under (no armour, AP 4+). --others-under 2 --at: two, on AT 5+ and
    their 5+ save."""
    fields = dict(bp=8, war_engines=1, damage_capacity=2, armour=4, units=4)
    infantry = Barrage(other_armour=None, **fields)
    assert infantry.others_reached == 4
    exact = infantry.exact(fractions=True)
    assert list(exact["other_kills"]) == [F(1, 16), F(4, 16), F(6, 16), F(4, 16), F(1, 16)]
    assert list(exact["engine_kills"]) == [1] and list(exact["kills"]) == list(exact["other_kills"])
    vehicles = Barrage(other_armour=5, others_under=2, at=True, **fields).exact(fractions=True)
    lost = F(1, 3) * F(2, 3)
    assert list(vehicles["other_kills"]) == [(1 - lost) ** 2, 2 * lost * (1 - lost), lost**2]
    alone = Barrage(bp=3, war_engines=1, damage_capacity=2, armour=4, units=4, other_armour=None)
    assert alone.others_reached == 0  # the one template is on the war engine
    assert "other_kills" not in Barrage(**fields).outcomes  # without their armour the barrage does not reach them


def test_the_other_units_take_crossfire_and_sniper_on_their_own_save():
    """One shot at 2+ on a war engine's infantry (armour 4+, --reach others): saved on 4+; in a crossfire on
    5+; a sniper's too on 6+. The war engine's own armour plays no part."""
    fields = dict(shots=1, to_hit=2, war_engines=1, damage_capacity=2, armour=2, units=1, other_armour=4,
                  reach="others")
    hit = F(5, 6)
    for extra, saved in ((dict(), F(1, 2)), (dict(crossfire=True), F(1, 3)), (dict(crossfire=True, sniper=True),
                                                                               F(1, 6))):
        assert EpicShoot(**fields, **extra).exact(fractions=True)["other_kills"][1] == hit * (1 - saved), extra
    assert EpicShoot(**fields, thick_rear_armour=True, crossfire=True).exact(
        fractions=True)["other_kills"][1] == hit * F(1, 2)  # thick rear armour ignores crossfire's -1


def test_blast_markers_and_the_break_point_with_the_other_units():
    """Hand-worked: disrupt gives a marker per hit that a shield did not stop; a crossfire's extra marker comes
    with the first unit destroyed, war engine or not; the break point counts the other units left."""
    hit = F(5, 6)
    disrupt = EpicShoot(shots=3, to_hit=2, war_engines=1, damage_capacity=3, shields=2, armour=2,
                        disrupt=True).exact(fractions=True)
    assert list(disrupt["blast_markers"]) == [0, 1 - hit**3, hit**3]  # 1 under fire, + hits past 2 shields
    others = dict(war_engines=1, damage_capacity=2, armour=4, units=2, other_armour=None, reach="others")
    crossfire = EpicShoot(shots=1, to_hit=2, crossfire=True, **others).exact(fractions=True)
    assert list(crossfire["blast_markers"]) == [0, 1 - hit, 0, hit]  # under fire; a kill: +1 and +1 crossfire
    two = EpicShoot(shots=2, to_hit=2, **others).exact(fractions=True)
    # h Kasrkin-like units destroyed: 1 + h markers against DC 2 + (2 - h) left: broken only when h = 2
    assert list(two["broken"]) == [1 - hit**2, hit**2]
    alone = EpicShoot(shots=1, to_hit=2, weapon="titan-killer", tk_damage=2, war_engines=1, damage_capacity=2,
                      armour=4).exact(fractions=True)
    assert list(alone["broken"]) == [1 - hit, hit]  # nothing left: broken (the markers reach 0)


def test_the_break_point_is_the_capacity_left_plus_the_other_units():
    """2 war engines of DC 2 and 3 other units: broken at 2 × standing + 3 markers (3.2.4)."""
    exact = EpicShoot(shots=1, to_hit=2, weapon="titan-killer", tk_damage=2, war_engines=2, damage_capacity=2,
                      armour=4, units=3).exact(fractions=True)
    # a hit destroys one war engine: 1 + 2 markers against 2 + 3 left: not broken
    assert exact["broken"][1] == 0
    alone = EpicShoot(shots=1, to_hit=2, weapon="titan-killer", tk_damage=2, war_engines=1, damage_capacity=2,
                      armour=4, blast_markers=1).exact(fractions=True)
    assert alone["broken"][1] == 1  # 2 markers reach DC 2; destroyed, it is gone


@pytest.mark.parametrize("fields, name, words", [
    (dict(damage_capacity=3), "damage_capacity", "only applies with --war-engines"),
    (dict(shields=2), "shields", "only applies with --war-engines"),
    (dict(critical="damage"), "critical", "only applies with --war-engines"),
    (dict(war_engines=1), "damage_capacity", "is needed with --war-engines"),
    (dict(war_engines=1, damage_capacity=21), "damage_capacity", "1 to 20"),
    (dict(war_engines=21, damage_capacity=2), "war_engines", "0 to 20"),
    (dict(war_engines=1, damage_capacity=2, cover_save=4), "cover_save", "no infantry cover save"),
    (dict(war_engines=1, damage_capacity=2, vehicles=1, vehicle_armour=4), "vehicles",
     "give its other units as --units, their armour as --other-armour"),
    (dict(units=2, other_armour=4), "other_armour", "only applies with --war-engines W"),
    (dict(units=2, other_reinforced=True), "other_reinforced", "only applies with --war-engines W"),
    (dict(units=2, reach="both"), "reach", "only applies with --war-engines W"),
    (dict(war_engines=1, damage_capacity=2, units=2, front="others"), "front", "only applies with --reach both"),
    (dict(war_engines=1, damage_capacity=2, units=2, reach="others"), "reach", "needs the other units' armour"),
    (dict(war_engines=1, damage_capacity=2, other_armour=4), "reach", "needs the formation's other units"),
    (dict(war_engines=1, damage_capacity=2, units=2, other_armour=4, reach="engines"), "other_armour",
     "only applies when the fire reaches the other units"),
    (dict(war_engines=1, damage_capacity=2, units=2, other_armour=7), "other_armour", "2+ to 6+, or none"),
    (dict(war_engines=1, damage_capacity=2, units=2, other_armour=None, other_reinforced=True), "other_reinforced",
     "reinforced armour needs the other units' armour value"),
    (dict(war_engines=1, damage_capacity=2, units=2, other_armour=4, mw_shots=1, mw_to_hit=2), "mw_shots",
     "macro-weapon hits after normal hits on war engines and other units"),
    (dict(war_engines=2, damage_capacity=2, units=2, other_armour=4, weapon="titan-killer", tk_allocation="damage"),
     "tk_allocation", "only when the fire reaches the war engines alone"),
    (dict(war_engines=1, damage_capacity=2, units=2, other_armour=4, reach="front"), "reach",
     "expected one of engines, others, both"),
    (dict(war_engines=1, damage_capacity=2, critical="maybe"), "critical", "none, damage, damage-once, destroyed"),
    (dict(tk_damage="d3"), "tk_damage", "only applies with --weapon titan-killer"),
    (dict(weapon="titan-killer", tk_damage="5d6"), "tk_damage", "at most 3 dice"),
    (dict(weapon="titan-killer", tk_damage="2d10"), "tk_damage", "in D6s and D3s"),
    (dict(weapon="titan-killer", tk_damage="d4+1"), "tk_damage", "Epic rolls no other dice"),
    (dict(war_engines=1, damage_capacity=2, invulnerable=True, tk_save="hit"), "tk_save",
     "only applies to a titan killer"),
    (dict(weapon="titan-killer", war_engines=1, damage_capacity=2, tk_save="hit"), "tk_save", "with --invulnerable"),
    (dict(weapon="titan-killer", invulnerable=True, tk_save="hit"), "tk_save", "at war engines"),
    (dict(weapon="titan-killer", war_engines=2, damage_capacity=2, invulnerable=True, tk_save="hit",
          tk_allocation="damage"), "tk_save", "each point is a hit of its own"),
    (dict(weapon="titan-killer", war_engines=1, damage_capacity=2, invulnerable=True, tk_save="once"), "tk_save",
     "expected one of point, hit"),
    (dict(war_engines=2, damage_capacity=2, tk_allocation="damage"), "tk_allocation",
     "only applies with --weapon titan-killer at --war-engines W"),
    (dict(weapon="titan-killer", tk_allocation="damage"), "tk_allocation", "only applies with --weapon titan-killer"),
    (dict(weapon="titan-killer", war_engines=2, damage_capacity=2, tk_allocation="points"), "tk_allocation",
     "expected one of hit, damage"),
    (dict(war_engines=7, damage_capacity=1, mw_shots=1, mw_to_hit=2), "war_engines", "at most 6 war engines"),
    (dict(engine=("2 DC1",)), "engine", "only applies with --war-engines W"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 D1",)), "engine", "N DC<d> [armour A+|none]"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 DC1 armour 7+",)), "engine", "expected armour 2+ to 6+"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 DC1 critical maybe",)), "engine", "destroyed or wounded"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 DC30",)), "engine", "damage capacity: expected 1 to 20"),
    (dict(war_engines=10, damage_capacity=2, engine=("11 DC1",)), "engine", "at most 20 war engines in all"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 DC1",), units=2, other_armour=4), "engine",
     "with other units the fire reaches are not modelled"),
    (dict(war_engines=1, damage_capacity=2, engine=("2 DC1",), mw_shots=1, mw_to_hit=2), "mw_shots",
     "at war engines of several profiles"),
])
def test_war_engine_refusals(fields, name, words):
    base = dict(shots=2, to_hit=4, armour=4)
    base.setdefault("units", None if "war_engines" in fields else 2)
    with pytest.raises(InputError) as error:
        EpicShoot(**{**base, **fields})
    assert error.value.name == name and words in error.value.allowed


def test_units_are_needed_without_war_engines():
    with pytest.raises(InputError) as error:
        EpicShoot(shots=2, to_hit=4, armour=4)
    assert (error.value.name, error.value.allowed) == ("units", "is required: the units the attack can reach, 1 to "
                                                                "100 (or --war-engines W)")
    with pytest.raises(InputError, match="does not apply to war engines: give how many are under the templates"):
        Barrage(bp=3, war_engines=1, damage_capacity=2, armour=4, per_template=2)
    for fields, name, words in (
            (dict(war_engines=1, damage_capacity=2, units=2, at=True), "at", "the other units' column"),
            (dict(war_engines=1, damage_capacity=2, units=2, others_under=1), "others_under",
             "only applies with --other-armour A"),
            (dict(war_engines=1, damage_capacity=2, other_armour=4), "other_armour", "needs the formation's other units"),
            (dict(war_engines=1, damage_capacity=2, units=2, other_armour=4, others_under=3), "others_under",
             "expected 0 to 2 other units under the templates")):
        with pytest.raises(InputError) as error:
            Barrage(bp=3, armour=4, **fields)
        assert error.value.name == name and words in error.value.allowed
    under = "expected 1 to 2 war engines under the templates (--war-engines)"
    for fields, words in ((dict(units=3, engines_under=1), "only applies with --war-engines W"),
                          (dict(war_engines=2, damage_capacity=2, engines_under=0), under),
                          (dict(war_engines=2, damage_capacity=2, engines_under=3), under)):
        with pytest.raises(InputError) as error:
            Barrage(bp=3, armour=4, **fields)
        assert (error.value.name, error.value.allowed) == ("engines_under", words)


def test_the_command_line_shoots_a_titan_and_its_escort(capsys):
    data = exact_json(capsys, "epic", "shoot", "--shots", "3", "--to-hit", "2+", "--war-engines", "1",
                      "--damage-capacity", "1", "--armour", "none", "--units", "2", "--other-armour", "none",
                      "--front", "others")
    assert list(data["outcomes"]) == ["kills", "engine_kills", "other_kills", "damage", "shields", "hits",
                                      "blast_markers", "broken"]
    assert data["outcomes"]["engine_kills"]["pmf"][1] == pytest.approx(float(F(5, 6) ** 3), abs=1e-12)
    assert_refused(capsys, "epic", "shoot", "--shots", "3", "--to-hit", "2+", "--war-engines", "1",
                   "--damage-capacity", "1", "--armour", "none", "--units", "2", "--front", "others",
                   mentions=("error: --front others: only applies with --reach both",))


def test_the_command_line_shoots_a_titan(capsys):
    data = exact_json(capsys, "epic", "shoot", "--shots", "4", "--to-hit", "2+", "--weapon", "macro",
                      "--war-engines", "1", "--damage-capacity", "3", "--shields", "2", "--armour", "5+",
                      "--reinforced")
    assert list(data["outcomes"]) == ["kills", "damage", "shields", "hits", "blast_markers", "broken"]
    assert data["outcomes"]["damage"]["pmf"][2] == pytest.approx(625 / 2916, abs=1e-12)
    assert_refused(capsys, "epic", "shoot", "--shots", "4", "--to-hit", "2+", "--armour", "5+",
                   "--damage-capacity", "3", "--units", "1", mentions=("--damage-capacity", "--war-engines W"))
    assert_refused(capsys, "epic", "shoot", "--shots", "4", "--to-hit", "2+", "--armour", "5+", "--units", "1",
                   "--critical", "damage-once",  # the choice echoed as typed
                   mentions=("error: --critical damage-once: only applies with --war-engines W",))
    assert_refused(capsys, "epic", "barrage", "--bp", "3", "--armour", "4+", "--war-engines", "1",
                   "--damage-capacity", "3", "--critical", "boom",
                   mentions=("--critical", "boom", "none, damage, damage-once, destroyed"))


@pytest.mark.parametrize("attack, words", [
    (Barrage(bp=6, units=3, armour=4), "Epic barrage: 6 BP on 3 units, armour 4+"),
    (Barrage(bp=8, formation=10, armour=None, per_template=4, at=True),
     "Epic barrage: 8 BP (AT) on 10 units (4 per template), no armour, formation of 10"),
    (Barrage(bp=3, war_engines=2, damage_capacity=3, armour=4, units=2),
     "Epic barrage: 3 BP on 2 war engines (and 2 other units), 1 war engine under the templates, armour 4+, DC 3, "
     "0 void shields"),
    (Barrage(bp=8, war_engines=1, damage_capacity=4, shields=2, armour=4, reinforced=True, units=8, other_armour=5,
             critical="destroyed"),
     "Epic barrage: 8 BP on 1 war engine and 8 other units (armour 5+; 6 under the templates, AP column), 1 war "
     "engine under the templates, armour 4+, reinforced, DC 4, 2 void shields, critical hit: destroyed"),
    (Barrage(bp=4, war_engines=2, damage_capacity=2, armour=5, units=3, other_armour=None, other_reinforced=False,
             others_under=2, at=True, engines_under=2),
     "Epic barrage: 4 BP on 2 war engines and 3 other units (no armour; 2 under the templates, AT column), 2 war "
     "engines under the templates, armour 5+, DC 2, 0 void shields"),
    (Barrage(bp=4, war_engines=1, damage_capacity=2, armour=5, units=3, other_armour=3, other_reinforced=True),
     "Epic barrage: 4 BP on 1 war engine and 3 other units (armour 3+, reinforced; 3 under the templates, AP "
     "column), 1 war engine under the templates, armour 5+, DC 2, 0 void shields"),
    (EpicShoot(shots=3, to_hit=5, war_engines=1, damage_capacity=4, shields=2, armour=4, units=8, other_armour=5,
               reach="others"),
     "Epic shooting: 3 shots at 5+ on 1 war engine and 8 other units (armour 5+), the fire reaching only the other "
     "units, armour 4+, DC 4, 2 void shields"),
    (EpicShoot(shots=3, to_hit=2, weapon="titan-killer", tk_damage="d3", tk_allocation="damage", war_engines=2,
               damage_capacity=3, armour=4),
     "Epic shooting: 3 shots at 2+ on 2 war engines, armour 4+, titan-killer weapon, DC 3, 0 void shields, TK(1d3), "
     "each TK point allocated as a hit"),
    (EpicShoot(shots=6, to_hit=4, war_engines=1, damage_capacity=3, armour=4, units=2, other_armour=None,
               front="others"),
     "Epic shooting: 6 shots at 4+ on 1 war engine and 2 other units (no armour), others in front, armour 4+, DC 3, "
     "0 void shields"),
    (EpicShoot(shots=6, to_hit=4, war_engines=1, damage_capacity=3, armour=4, units=2, other_armour=4,
               other_reinforced=True),
     "Epic shooting: 6 shots at 4+ on 1 war engine and 2 other units (armour 4+, reinforced), engines in front, "
     "armour 4+, DC 3, 0 void shields"),
])
def test_an_attack_at_war_engines_says_what_it_computes(attack, words):
    """The words over an answer (and a plot's title) name every figure of the target."""
    assert attack.describe() == words


SHOT = ("epic", "shoot", "--shots", "2", "--to-hit", "4+", "--armour", "4+")
BARRAGE = ("epic", "barrage", "--bp", "3", "--armour", "4+")
ONE = ("--war-engines", "1", "--damage-capacity", "2")


@pytest.mark.parametrize("args, line", [
    (SHOT + ("--units", "2", "--reach", "both"), "--reach both: only applies with --war-engines W"),
    (SHOT + ONE + ("--units", "2", "--other-armour", "4+", "--reach", "engines"),
     "--other-armour 4+: only applies when the fire reaches the other units: --reach others or both"),
    (SHOT + ONE + ("--units", "2", "--other-armour", "none", "--reach", "engines"),
     "--other-armour none: only applies when the fire reaches the other units: --reach others or both"),
    (SHOT + ONE + ("--units", "2", "--reach", "others"),
     "--reach others: needs the other units' armour save: --other-armour A+ (or none)"),
    (SHOT + ONE + ("--other-armour", "5+"), "--reach both: needs the formation's other units: --units U"),
    (SHOT + ONE + ("--units", "2", "--other-armour", "4+", "--mw-shots", "1", "--mw-to-hit", "2+"),
     "--mw-shots 1: macro-weapon hits after normal hits on war engines and other units: give them as separate "
     "queries"),
    (SHOT + ("--weapon", "titan-killer", "--war-engines", "2", "--damage-capacity", "2", "--units", "2",
             "--other-armour", "4+", "--tk-allocation", "damage"),
     "--tk-allocation damage: a titan killer's points as hits: only when the fire reaches the war engines alone "
     "(--reach engines)"),
    (SHOT + ("--units", "2", "--other-reinforced"), "--other-reinforced true: only applies with --war-engines W"),
    (SHOT + ONE + ("--units", "2", "--other-armour", "none", "--other-reinforced"),
     "--other-reinforced true: reinforced armour needs the other units' armour value: --other-armour 2+ to 6+"),
    (BARRAGE + ONE + ("--units", "2", "--at"), "--at true: with --war-engines: the other units' column, which needs "
                                               "their armour (--other-armour); war engines always roll on AT"),
    (BARRAGE + ONE + ("--units", "2", "--other-armour", "4+", "--others-under", "3"),
     "--others-under 3: expected 0 to 2 other units under the templates (--units)"),
    (BARRAGE + ONE + ("--other-armour", "4+"), "--other-armour 4+: needs the formation's other units: --units U"),
    (BARRAGE + ONE + ("--units", "2", "--others-under", "1"),
     "--others-under 1: only applies with --other-armour A (the other units' armour save)"),
    (BARRAGE + ("--units", "2", "--engines-under", "1"), "--engines-under 1: only applies with --war-engines W"),
    (BARRAGE + ONE + ("--engines-under", "2"),
     "--engines-under 2: expected 1: the formation has one war engine (--war-engines 1)"),
    (BARRAGE + ("--war-engines", "3", "--damage-capacity", "2", "--engines-under", "0"),
     "--engines-under 0: expected 1 to 3 war engines under the templates (--war-engines)"),
])
def test_a_refused_war_engine_option_reads_as_one_line(capsys, args, line):
    assert_refused(capsys, *args, "--exact", mentions=("error: " + line,))


@pytest.mark.parametrize("args", [
    SHOT + ("--war-engines", "20", "--damage-capacity", "20", "--shields", "20", "--units", "100", "--other-armour",
            "4+"),
    SHOT + ("--weapon", "titan-killer", "--tk-damage", "3d6", "--tk-allocation", "damage", "--war-engines", "20",
            "--damage-capacity", "20", "--shields", "20"),
    SHOT + ("--mw-shots", "200", "--mw-to-hit", "2+", "--war-engines", "6", "--damage-capacity", "20", "--shields",
            "20"),
    BARRAGE[:3] + ("18", "--armour", "4+", "--war-engines", "20", "--damage-capacity", "20", "--shields", "20",
                   "--units", "100", "--other-armour", "4+", "--others-under", "100"),
])
def test_an_exact_war_engine_answer_too_big_to_compute_is_refused_at_once(capsys, args):
    """Memory or time past the exact answer's limits (EXACT_SECONDS): one line, no internal error."""
    assert_refused(capsys, *args, "--exact", mentions=("error: --exact Epic ", "sample instead (leave out --exact)"))




@pytest.mark.parametrize("fields", [
    dict(war_engines=20, damage_capacity=20, shields=20), dict(war_engines=1, damage_capacity=1, shields=0),
    dict(war_engines=2, damage_capacity=2, weapon="titan-killer", tk_damage="3d6"),
    dict(war_engines=2, damage_capacity=2, weapon="titan-killer", tk_damage="20"),
    dict(war_engines=2, damage_capacity=2, weapon="titan-killer", tk_damage="1"),
    dict(war_engines=1, damage_capacity=2, units=1, other_armour=2),
    dict(war_engines=1, damage_capacity=2, units=1, other_armour=6),
])
def test_war_engine_figures_at_their_limits_are_taken(fields):
    assert EpicShoot(shots=1, to_hit=4, armour=4, **fields).war_engines == fields["war_engines"]


@pytest.mark.parametrize("fields, name, value, words", [
    (dict(war_engines=21, damage_capacity=2), "war_engines", 21, "expected 0 to 20 war engines"),
    (dict(war_engines=1, damage_capacity=21), "damage_capacity", 21, "is needed with --war-engines"),
    (dict(war_engines=1, damage_capacity=0), "damage_capacity", 0, "is needed with --war-engines"),
    (dict(war_engines=1, damage_capacity=2, shields=21), "shields", 21, "expected 0 to 20 void shields"),
    (dict(war_engines=1, damage_capacity=2, weapon="titan-killer", tk_damage="4d6"), "tk_damage", "4d6",
     "at most 3 dice"),
    (dict(war_engines=1, damage_capacity=2, weapon="titan-killer", tk_damage="21"), "tk_damage", "21",
     "at most 20 points"),
    (dict(war_engines=1, damage_capacity=2, weapon="titan-killer", tk_damage="0"), "tk_damage", "0",
     "like 2, d3, d6 or d3+1"),
    (dict(war_engines=1, damage_capacity=2, units=1, other_armour=1), "other_armour", 1, "from 2+ to 6+, or none"),
    (dict(war_engines=1, damage_capacity=2, units=1, other_armour=7), "other_armour", 7, "from 2+ to 6+, or none"),
    (dict(war_engines=1, damage_capacity=2, formation=3), "formation", 3, "give the formation's other units as "
                                                                          "--units"),
    (dict(war_engines=1, damage_capacity=2, cover_save=4), "cover_save", 4, "no infantry cover save"),
    (dict(tk_damage="d3"), "tk_damage", "1d3", "only applies with --weapon titan-killer"),
])
def test_war_engine_figures_past_their_limits_are_refused_by_name_and_value(fields, name, value, words):
    with pytest.raises(InputError) as error:
        EpicShoot(shots=1, to_hit=4, armour=4, units=fields.pop("units", 2 if "war_engines" not in fields else 0),
                  **fields)
    assert (error.value.name, str(error.value.value)) == (name, str(value)) and words in error.value.allowed


def test_fire_at_war_engines_from_a_formation_all_suppressed_hits_nothing_exactly_as_sampled():
    """Every firing unit stopped by a blast marker (§2.4): no shot, exact and sampled alike (the exact twin
    raised a ValueError on the empty fire, found when its types were checked)."""
    from oddscalc import run
    from oddscalc.epic.shooting import EpicShoot

    attack = EpicShoot(shots=4, to_hit="4+", units=0, armour="4+", war_engines=1, damage_capacity=4, firing_units=2,
                       suppressed=2)
    exact = attack.exact()
    assert set(exact) == set(attack.outcomes) and all(pmf[0] == 1.0 and not pmf[1:].any() for pmf in exact.values())
    sampled = run(attack, trials=2000, seed=1)
    assert all(sampled[name].highest == 0 for name in attack.outcomes)
