"""The 9th Age: a combat sampled from its exact joint law (docs/architecture.md, "A combat's two samplers").

Where the exact answer is quick (`exact_cost` at most `JOINT_SECONDS`), a combat is worked once exactly, each way
it can end kept whole (`fight_exact.combat_pmfs`' rows: every outcome's value and its chance), and each trial draws
one of those ends (`core/drawn.py`): one uniform number and a look-up, where the dice sampler
(`fight_sampled.combat_sample`) rolls every blow, Break Test and pursuit. Both draw from the same law; the tests
check each of them against the exact pmfs, so the dice sampler still checks the exact twin on its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.drawn import JointLaw
from .exact_cost import exact_cost
from .fight import Fight
from .fight_exact import Rows, combat_pmfs

JOINT_SECONDS = 0.05  # the exact work a sample may spend first to draw from the joint law (measured: 3-13 ms for
# one round of 5 knights against 20 spearmen, whose dice take 0.27 s a million)


def combat_law(fight: Fight, rounds: int) -> JointLaw:
    """The combat's exact joint law: each way it ends, every outcome's value, and its chance."""
    rows: Rows = []
    combat_pmfs(fight, rounds, float, rows=rows)
    names = tuple(rows[0][0])
    table = np.concatenate([np.stack([values[name] for name in names], axis=1) for values, _ in rows])
    return JointLaw.of(names, table, np.concatenate([chance for _, chance in rows]))


def joint_law(fight: Fight, rounds: int, rounds_view: bool) -> JointLaw | None:
    """The joint law to sample a combat from, where its exact answer is quick; None: roll its dice (per-round
    outcomes, a long exact answer)."""
    if rounds_view or exact_cost(fight, rounds) > JOINT_SECONDS:
        return None
    return combat_law(fight, rounds)
