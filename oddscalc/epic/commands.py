"""`oddscalc epic …`: shooting, barrages and the assault-result dice (docs/rules.md §2).

Each query's options are its attack's fields (see `query.registry.field_options`); each attack's module is
imported when its query is first asked for (`lambda: epic.EpicShoot`)."""

from .. import epic
from ..query.registry import group, query

HELP = "Epic Armageddon: shooting, barrages, war engines, assaults."
group("epic", HELP)

query("epic shoot", lambda: epic.EpicShoot, title="Shooting",
      about="AP, AT and macro-weapon fire at a formation: kills, blast markers, breaking, crossfire; titans and void shields",
      examples=[
    "oddscalc epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --crossfire",
    "oddscalc epic shoot --shots 6 --to-hit 5+ --units 4 --armour 6+ --cover-save 4+ --modifier -1 --exact",
    "oddscalc epic shoot --shots 2 --to-hit 2+ --units 1 --armour 4+ --reinforced --weapon macro --exact",
    "oddscalc epic shoot --shots 8 --to-hit 4+ --units 5 --armour none --disrupt --blast-markers 2 --formation 8",
    "oddscalc epic shoot --shots 4 --to-hit 2+ --weapon macro --war-engines 1 --damage-capacity 3 --shields 2 "
    "--armour 5+ --reinforced --exact",
    "oddscalc epic shoot --shots 3 --to-hit 5+ --war-engines 1 --damage-capacity 4 --shields 2 --armour 4+ "
    "--units 8 --other-armour 5+ --reach others --exact",
    "oddscalc epic shoot --shots 6 --to-hit 4+ --war-engines 3 --damage-capacity 1 --shields 1 --armour none "
    "--engine '1 DC2 armour 4+ reinforced' --exact",
])

query("epic barrage", lambda: epic.Barrage, title="Barrage",
      about="Artillery by barrage points: templates on a formation, war engines under them",
      examples=[
    "oddscalc epic barrage --bp 6 --units 3 --armour 4+ --exact",
    "oddscalc epic barrage --bp 8 --units 5 --armour 4+ --formation 8 --crossfire",
    "oddscalc epic barrage --bp 3 --units 2 --armour 5+ --at --modifier 1",
    "oddscalc epic barrage --bp 8 --formation 10 --armour 4+ --per-template 4",
    "oddscalc epic barrage --bp 8 --war-engines 1 --damage-capacity 4 --shields 2 --armour 4+ --reinforced "
    "--units 8 --other-armour 5+ --exact",
])

query("epic assault", lambda: epic.Assault, title="Assault",
      about="Will my Engage win? Both sides' close combat and firefight, the result roll, extra hits",
      examples=[
    "oddscalc epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ --other '2 cc 6+ ff 6+ armour 5+ in-contact 0' "
    "--enemy-units 12 --enemy-cc 4+ --enemy-ff 6+ --enemy-armour 6+ --enemy-blast-markers 3 --exact",
    "oddscalc epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ --enemy-units 1 --enemy-damage-capacity 3 "
    "--enemy-cc 4+ --enemy-ff 4+ --enemy-armour 4+ --enemy-reinforced --enemy-critical damage --exact",
    "oddscalc epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ --in-contact 3 --enemy-units 12 --enemy-cc 4+ "
    "--enemy-ff 6+ --enemy-armour 6+ --enemy-blast-markers 3 --support 4 --support-ff 4+ --exact",
    "oddscalc epic assault --units 4 --cc 3+ --ff 5+ --armour 4+ --reinforced --fearless --enemy-units 5 "
    "--enemy-cc 5+ --enemy-ff 4+ --enemy-armour 5+ --enemy-cover-save 4+ --enemy-broken --keep-highest",
    "oddscalc epic assault --exact",
    "oddscalc epic assault --bonus 2 --enemy-bonus 1 --format markdown",
    "oddscalc epic assault --bonus 2 --keep-highest --exact",
])
