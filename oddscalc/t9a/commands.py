"""`oddscalc t9a …`: melee and shooting with the attack attributes, charges, Discipline
tests and the direction die (docs/rules.md §3).

Each query's options are its attack's fields (see `query.registry.field_options`); each attack's module is
imported when its query is first asked for (`lambda: t9a.Melee`)."""

from .. import t9a
from .attacks import HITS_READINGS, READINGS
from ..query.registry import group, query

HELP = "The 9th Age: melee, shooting, attributes, charges, tests."
group("t9a", HELP)

query("t9a melee", lambda: t9a.Melee, title="Melee attacks",
      about="Close combat: to hit, to wound, armour and special saves, attack attributes, Multiple Wounds",
      notes=READINGS, examples=[
    "oddscalc t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 4 --resilience 3 --armour 2 --aegis 5 "
    "--exact",
    "oddscalc t9a melee --attacks 20 --offensive 5 --defensive 3 --strength 5 --resilience 4 --armour 5+ "
    "--battle-focus --poison --reroll-hits failed",
    "oddscalc t9a melee --attacks d6+1 --offensive 4 --defensive 4 --strength 6 --resilience 5 --armour 3 "
    "--multiple-wounds d3 --health 3 --models 4 --lethal-strike",
])

query("t9a shoot", lambda: t9a.T9AShoot, title="Shooting",
      about="Shots at Aim X+ (long range, cover, hopeless 7+ shots), then wounds and saves",
      notes=READINGS, examples=[
    "oddscalc t9a shoot --shots 10 --aim 4+ --modifier -1 --strength 3 --resilience 3 --armour 1",
    "oddscalc t9a shoot --shots 10 --aim 4+ --strength 4 --resilience 4 --flaming --flammable --exact",
    "oddscalc t9a shoot --shots d6 --aim 3+ --strength 4 --resilience 3 --reroll-hits ones --reroll-armour ones "
    "--armour 2",
    "oddscalc t9a shoot --shots 5 --aim 5+ --modifier -2 --strength 4 --resilience 3 --poison --battle-focus",
    "oddscalc t9a shoot --shots 10 --aim 4+ --long-range --cover soft --strength 3 --resilience 3",
])

query("t9a hits", lambda: t9a.T9AHits, title="Automatic hits",
      about="Hits that need no roll to hit: Breath Attack, Impact Hits, Stomp, spells",
      notes=HITS_READINGS, examples=[
    "oddscalc t9a hits --hits 2d6 --strength 4 --ap 1 --flaming --resilience 4 --armour 2 --exact",
    "oddscalc t9a hits --hits d6+1 --strength 5 --ap 2 --resilience 3 --health 1 --models 10 --exact",
    "oddscalc t9a hits --hits d3 --strength 6 --resilience 4 --reroll-wounds ones",
])

query("t9a combat", lambda: t9a.Combat, title="A round of combat",
      about="Will my charge break them? Both units strike in Initiative Order, combat score, Break Test, pursuit",
      examples=[
    "oddscalc t9a combat --models 5 --width 5 --attacks 1 --offensive 4 --defensive 4 --strength 5 --resilience 3 "
    "--agility 3 --discipline 7 --armour 5 --swiftstride --mount 'A1 O3 S3 I3 harnessed' --charge-strength 2 "
    "--charge-ap 2 --enemy-models 20 --enemy-width 5 --enemy-attacks 1 --enemy-offensive 3 --enemy-defensive 3 "
    "--enemy-strength 3 --enemy-resilience 3 --enemy-agility 3 --enemy-discipline 7 --enemy-armour 1 "
    "--enemy-standard --flank --exact",
    "oddscalc t9a combat --models 10 --width 5 --attacks 2 --offensive 5 --defensive 4 --strength 4 --resilience 4 "
    "--agility 5 --discipline 8 --armour 3 --enemy-models 15 --enemy-width 5 --enemy-attacks 1 --enemy-offensive 3 "
    "--enemy-defensive 3 --enemy-strength 3 --enemy-resilience 3 --enemy-agility 3 --enemy-discipline 7 --rounds 2",
    "oddscalc t9a combat --models 1 --width 1 --health 5 --attacks 5 --offensive 5 --defensive 4 --strength 6 "
    "--resilience 6 --agility 3 --discipline 7 --armour 2 --ap 3 --height gigantic --stomp d6 --unbreakable "
    "--enemy-models 25 --enemy-width 5 --enemy-attacks 1 --enemy-offensive 3 --enemy-defensive 3 --enemy-strength 3 "
    "--enemy-resilience 3 --enemy-agility 3 --enemy-discipline 7 --enemy-spear --enemy-stubborn --rounds 2",
])

query("t9a charge", lambda: t9a.Charge, title="Charge",
      about="The 2D6 charge roll, maximised or minimised, against the distance",
      examples=[
    "oddscalc t9a charge --distance 9 --maximised 1 --exact",
    "oddscalc t9a charge --distance 7 --minimised 1",
])

query("t9a test", lambda: t9a.DisciplineTest, title="Discipline test",
      about="Break Test, Combat Reform, Steadfast: 2D6 against the Discipline",
      examples=[
    "oddscalc t9a test --discipline 7 --exact",
    "oddscalc t9a test --discipline 8 --minimised 1 --exact",
    "oddscalc t9a test --discipline 8 --penalty 3 --exact",
    "oddscalc t9a test --discipline 8 --combat-reform --penalty 3 --steadfast --exact",
])

query("t9a direction", lambda: t9a.Direction, title="Direction and scatter",
      about="The direction die and a scatter distance: does it land within the radius?",
      examples=[
    "oddscalc t9a direction --exact",
    "oddscalc t9a direction --scatter 2d6 --radius 3 --exact",
    "oddscalc t9a direction --scatter d6 --radius 2 --outcome within",
])
