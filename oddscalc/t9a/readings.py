"""The 9th Age: the open readings of a combat (docs/rules.md §3.11), each a switch of `t9a combat`: where the
rulebook leaves a choice to the table or its words allow two readings, the default and the other."""

from __future__ import annotations

from enum import Enum


class FacingBonus(str, Enum):
    """The charger's bonus in the enemy's flank or rear (rulebook, Combat Score: "+1 or +2"; an open reading)."""

    RANKED = "ranked"  # flank +1, rear +2, one more when the charger has 2 Full Ranks or more
    FLAT = "flat"  # flank +1, rear +2


class ChargeBonus(str, Enum):
    """Who gets the Charge +1 to its combat score (rulebook, Combat Score: "each side with one or more Charging
    models"; an open reading): the side that charged, whatever is left of it, or only while one of its models
    stands (it matters when both units are wiped out at the same Initiative Step: the scores then decide)."""

    SIDE = "side"
    MODELS = "models"


class Pursuit(str, Enum):
    """Whether the winner pursues a broken unit (an open reading): always, or it tries to Restrain Pursuit, a
    Discipline Test, and pursues only when it fails."""

    ALWAYS = "always"
    RESTRAIN = "restrain"


class Chase(str, Enum):
    """Which of the charger's broken units the charged unit pursues (rulebook, Pursuits: the winner names one; an
    open reading of what a player picks): its main unit before its allies, or its allies first."""

    MAIN = "main"
    ALLY = "ally"


class HighAgility(str, Enum):
    """Where an Agility above 10 strikes (the Initiative Steps run from 10 down; an open reading)."""

    STEP_TEN = "step-10"  # at step 10, with the others there
    FIRST = "first"  # before step 10, the higher first


class MountMomentum(str, Enum):
    """Whether a charging mount has Charging Momentum's +1 Agility too (an open reading: the army books' texts that
    name it speak of models, not of parts)."""

    ALL = "all"  # every model part of a charging model
    RIDER = "rider"  # the model's own part only


class FlankModels(str, Enum):
    """How many models of a unit charged in its flank or rear fight back (an open reading: the rulebook says
    those in base contact, and the table decides how many touch)."""

    MATCHED = "matched"  # as many as the charger's front rank, at most its own front rank
    EDGE = "edge"  # those on the engaged edge: one a rank in the flank, its last rank's in the rear; at most the
    #                charger's front rank


class FrontShare(str, Enum):
    """How two units on one enemy front share its front rank and its supports (an open reading: the rulebook's
    Which Models Can Attack counts the models in base contact, and the table decides how many touch each)."""

    BESIDE = "beside"  # the unit beside faces as many as its own front rank; the main one the rest, at least one
    EVEN = "even"  # half each (the main one the larger half), the unit beside at most its own front rank


class CombatReform(str, Enum):
    """Whether a unit engaged by one enemy unit alone, in its flank or rear, turns to face it between rounds
    (rulebook, Combat Reforms: a free choice after a won or drawn round, after a passed Discipline test at the Break
    Test's penalty after a lost one; never for a unit engaged on two facings or more)."""

    FACE = "face"  # it does, whenever it may: the enemy's Flank or Rear bonus and Disrupted Ranks end, it strikes
    #                with its front rank and supports
    KEEP = "keep"  # it keeps its formation, round after round
