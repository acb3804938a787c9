"""Epic Armageddon: what a formation's units save with and carry, declared once (`Defences`; `Covered` adds the
infantry cover save where it stands). Every Epic attack on a formation reads it as a side (`core/attack.py:side`):
the target of `epic shoot` and `epic barrage` (`target.py`), and both sides of an assault (`formation.py`)."""

from __future__ import annotations


from ..core.attack import side_option
from ..errors import require
from .war_engines import Critical
from ..core.record import record

NOT_GIVEN = 0  # an armour save left out ("none" is a value): required where the attack needs it
MAX_BLAST_MARKERS = 100


@record(kw_only=True)
class Defences:
    """A formation's saves, its blast markers and what its war engines' critical hits do (docs/rules.md §2.2, §2.8):
    the parts a shooting attack's target and an assault's sides share."""

    armour: int | None = side_option("{who}: its armour save, 2+ to 6+, or none.", NOT_GIVEN, metavar="A+", roll=True,
                                     none=True,
                                     first=True)
    reinforced: bool = side_option("{who}: its units have reinforced armour: re-roll a failed save (a failed cover "
                                   "save with the armour value); not against macro-weapons, titan killers or "
                                   "lances.", False)
    invulnerable: bool = side_option("{who}: its units have an invulnerable save: an unmodified 6+ after every other "
                                     "save failed or was not allowed.", False)
    blast_markers: int = side_option(f"{{who}}: blast markers already on it (0 to {MAX_BLAST_MARKERS}).", 0,
                                     metavar="B")
    critical: Critical = side_option("{who}: what its war engines' critical hit (a 6 for each point of damage) does "
                                     "now: none (its effect comes later, the rulebook's default), damage (one more "
                                     "point, which rolls again), damage-once (one more point, which does not), "
                                     "destroyed or wounded (a D6 at once: 2-5 one more point, 6 destroyed).",
                                     Critical.NONE)

    def check_defences(self, prefix: str, armour_required: bool = False) -> None:
        """Refuse a value no formation can have, in the name of this side's option (`prefix` + its name); an armour
        left out only where the attack may leave it out (not `armour_required`: a shot's target must have one)."""
        left_out = self.armour == NOT_GIVEN and not armour_required
        require(self.armour is None or left_out or 2 <= self.armour <= 6, prefix + "armour",
                f"{self.armour}+", "expected an armour save from 2+ to 6+, or none")
        require(not self.reinforced or self.armour is not None, prefix + "armour", "none",
                "reinforced armour needs an armour value, 2+ to 6+")
        require(0 <= self.blast_markers <= MAX_BLAST_MARKERS, prefix + "blast_markers", self.blast_markers,
                f"expected 0 to {MAX_BLAST_MARKERS} blast markers already on the formation")


@record(kw_only=True)
class Covered(Defences):
    """A formation that may take the infantry cover save where it stands: a shooting attack's target, the defender
    of an assault (the assaulting side may not, 1.12.5)."""

    cover_save: int | None = side_option("{who}: its infantry's cover save where it stands, 2+ to 6+ (4+ buildings, "
                                         "jungle, ruins; 5+ woods; 6+ scrub, marsh, river; 3+ fortifications), used "
                                         "instead of armour when better; macro-weapons and titan killers negate it.",
                                         None, roll=True)

    def check_defences(self, prefix: str, armour_required: bool = False) -> None:
        super().check_defences(prefix, armour_required)
        require(self.cover_save is None or 2 <= self.cover_save <= 6, prefix + "cover_save", f"{self.cover_save}+",
                "expected a cover save from 2+ to 6+")
