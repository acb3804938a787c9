"""An answer in one sentence, in a player's words: what the page says before its tables.

"Kills 2.83 of 6 units on average; 59.2% to break the formation." (after its title, "Epic
shooting: 12 shots at 4+ on 6 units, armour 4+", which the attack says itself with
`Attack.describe`). Each outcome has its clause (`CLAUSES`, yes/no outcomes `EVENTS`); a study says what its rows found. Figures are
rounded to three significant digits (the tables carry every digit and the error bars); a
sampled answer says "about".
"""

from __future__ import annotations

from typing import Any

from ..core.options import Method

# An outcome's clause: {mean} its mean, {any} P(≥ 1), {median} its median, {of} " of N units"
# where the attack has units.
CLAUSES = {
    "sum": "totals {mean} on average ({median} or more half the time)",
    "damage": "deals {mean} damage on average ({any} to deal any)",
    "hits": "scores {mean} hits on average ({any} to score any)",
    "kills": "kills {mean}{of} units on average",
    "engine_kills": "destroys {mean} war engines on average",
    "other_kills": "kills {mean} of the other units on average",
    "blast_markers": "places {mean} blast markers on average",
    "health_lost": "costs the target {mean} health points on average ({any} to cost any)",
    "wounds": "wounds {mean} times on average",
    "unsaved": "gets {mean} wounds past the saves on average",
    "margin": "wins by {mean} on average",
    "losses": "loses {mean} of its own units on average",
    "rounds": "fights {mean} rounds on average",
}
EVENTS = {  # a yes/no outcome's clause: {p} its probability
    "broken": "{p} to break the formation",
    "destroyed": "{p} to destroy the target",
    "success": "{p} to succeed",
    "win": "{p} to win",
    "draw": "{p} to draw",
    "hit": "{p} to hit",
    "within": "{p} to land within the radius",
    "break": "{p} that the loser breaks",
    "caught": "{p} that it is caught as it flees",
    "enemy_break": "{p} to break the charged unit",
    "enemy_caught": "{p} to catch it",
    "character_slain": "{p} that the charger's character falls",
    "enemy_character_slain": "{p} to slay the charged unit's character",
    "decided": "{p} that the fight is decided before the rounds run out",
}

WORDS = {  # an outcome as a player names it (the page's labels); the others: their name, spaced
    "health_lost": "Health Points lost",
    "enemy_health_lost": "enemy Health Points lost",
    "blast_markers": "Blast markers",
    "enemy_blast_markers": "enemy Blast markers",
    "engine_kills": "war engines destroyed",
    "other_kills": "other units killed",
    "break": "a side breaks",
    "caught": "a side is caught",
    "enemy_break": "the charged unit breaks",
    "enemy_caught": "the charged unit is caught",
    "score": "score difference",
    "character_slain": "the charger's character falls",
    "enemy_character_slain": "the charged unit's character falls",
}


def words(outcome: str) -> str:
    """An outcome in words: `enemy_health_lost` is "enemy Health Points lost", `kills` "kills"."""
    return WORDS.get(outcome, outcome.replace("_", " "))


CHARGER = {  # a combat's: the charger's own Break Test and flight (its `break` less the charged unit's)
    "break": "{p} that the charger breaks",
    "caught": "{p} that the charger is caught",
}


def short(value: float) -> str:
    """A figure in a sentence: three significant digits, no trailing zeros (`3.75`, `0.333`, `12`), a
    whole number from 100 up (`1235`), never in scientific notation."""
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:.0f}"
    text = f"{value:.3g}"
    if "e" in text:  # below 0.0001: six decimals at most
        text = f"{value:.6f}".rstrip("0").rstrip(".") or "0"
    return text


def chance(p: float) -> str:
    """A probability in a sentence: `94.5%`, `0.0123%`, `100%`, `0%`."""
    if p >= 1 - 5e-6:
        return "100%"
    if p <= 0:
        return "0%"
    return f"{short(100 * p)}%"


def of_query(attack: Any, result: Any, outcome: str, subject: bool = False) -> str:
    """A query's answer in a sentence: its main outcome's (or `outcome`'s) clause and the yes/no
    outcomes' chances ("Kills 2.83 of 6 units on average; 59.2% to break the formation."); with
    `subject`, the attack first ("Epic shooting: 12 shots at 4+ ...: kills 2.83 ...")."""
    clauses = []
    about = "" if result.method == Method.EXACT else "about "
    events = [name for name in result.outcomes if name in result.events]
    if outcome not in result.events:
        distribution = result[outcome]
        units = getattr(attack, "target_units", getattr(attack, "units", None))  # the units its kills are counted of
        template = CLAUSES.get(outcome, f"{outcome.replace('_', ' ')}: {{mean}} on average")
        engines = getattr(attack, "war_engines", 0)
        if outcome == "kills" and isinstance(engines, int) and engines > 0:  # war engines, and maybe units beside
            units = engines + (units or 0)
            template = "destroys {mean}{of} (war engines and the units beside them) on average" if attack.units \
                else "destroys {mean}{of} war engines on average"
        said = [outcome, *(["damage"] if engines and outcome == "kills" and "damage" in result.outcomes else [])]
        for name in said:
            distribution = result[name]
            clauses.append((template if name == outcome else CLAUSES[name]).format(
                mean=about + short(distribution.mean), any=chance(distribution.at_least(1)),
                median=short(distribution.quantile(0.5)),
                of=f" of {units}" if isinstance(units, int) and units > 0 else ""))
    chances = {name: result[name].at_least(1) for name in events}
    if {"break", "enemy_break"} <= set(chances):  # a combat: who breaks, by name (only the loser tests)
        chances["break"] -= chances["enemy_break"]
        chances["caught"] = chances.get("caught", 0.0) - chances.get("enemy_caught", 0.0)
        events = [*(name for name in events if name not in ("break", "caught")), "break", "caught"]
    for name in sorted(events, key=lambda name: name != outcome):
        wording = CHARGER.get(name) if "enemy_break" in chances else None
        clauses.append((wording or EVENTS.get(name, f"{{p}} {name.replace('_', ' ')}")).format(
            p=about + chance(max(chances[name], 0.0))))
    sentence = "; ".join(clauses)
    return f"{attack.describe()}: {sentence}." if subject else f"{sentence[:1].upper()}{sentence[1:]}."


def of_study(content: Any) -> str:
    """A study's answer in a sentence: what its rows found (a goal reached, who beats whom, the best cell)."""
    rows, header = content.rows, content.header
    about = "" if header.get("method") == "exact" else "about "
    command = header.get("command", "").split()
    kind = command[1] if len(command) > 1 else ""
    if kind == "sweep":
        goal = (content.extra or {}).get("goal")
        if goal:
            return content.notes[0][:1].upper() + content.notes[0][1:] + "." if content.notes else ""
        varied = [name for name in rows[0] if name not in ("outcome", "mean", "mean_stderr")][:1]
        main = [row for row in rows if row["outcome"] == rows[0]["outcome"]]  # a row per outcome per value
        return (f"{len(main)} values of {varied[0] if varied else 'the option'}: the mean {rows[0]['outcome']} "
                f"goes from {about}{short(main[0]['mean'])} to {short(main[-1]['mean'])}.")
    if kind == "compare":
        first, second = rows[0], rows[1]
        beats = first.get("P(> #2)")
        said = f"#1 ({first['query']}) beats #2 ({second['query']}) {about}{chance(beats)} of the time" \
            if beats is not None else f"#1 ({first['query']}) against #2 ({second['query']})"
        return f"{said}; mean {first['outcome']} {short(first['mean'])} against {short(second['mean'])}."
    if kind == "grid" and rows:
        best = rows[0]
        ranked = content.notes[0].removeprefix("ranked by ") if content.notes else "mean"
        value = best.get(ranked)
        shown = chance(value) if ranked.startswith(("p_", "at_least", "at_most", "exactly")) else \
            short(value) if isinstance(value, (int, float)) else str(value)
        return (f"{len(rows)} cells; first by {ranked}: {best['attacker']}'s {best['weapon']} against "
                f"{best['target']}, {ranked.replace('_', ' ')} {about}{shown}.")
    return ""
