"""The expert as it was in November 2026: the player ``expert-2026-11``.

The searching player as measured after the ninth round
(``docs/notebook/expert.md``, "The ninth round's measurement", held-out
seed 57721566: 80.1% of 5000-point games against ``bsd``) and, at the
larger tables, as issue 38 left it (``docs/expert.md``, "At the larger
tables": uniform worlds, the other seats modelled as the BSD procedure).
It is kept, as ``expert-2026`` is, so that later experts can be matched
against it (``python -m mille.match expert expert-2026-11``), now and
later.

It is today's :class:`~mille.players.expert.ExpertPlayer` with the
settings it had, written out here: the repaired policy (attacking
first), the exact ``num_need`` estimate, the safety reads at levels 1 to
4, the budget of each level, and every setting added since at the value
that leaves the player as it was.  Every later setting of
:class:`~mille.players.expert.Level` must default to what this player did.

**It must keep playing exactly as it did**: the same moves for the same
observations and dice, for as long as this code lives.
``tests/players/test_expert_3.py`` checks fingerprints of its moves at two and
at four seats, recorded when it was frozen (commit ebaf851); a change to
the expert that moves it is a change to the expert's shared code that
must be undone or made a setting.
"""

from __future__ import annotations

from .expert import ExpertPlayer, Level

#: The settings by level, as they were frozen (written out here, so that
#: tuning today's expert cannot move them).
LEVELS: dict[int, Level] = {
    n: Level(
        budget,
        z=2.0,
        batch=8,
        race=2.0,
        min_worlds=16,
        game=True,
        deadline=0.8,
        repaired=True,
        exact_need=True,
        stretch=1.0,
        safety_rules=n > 0,
    )
    for n, budget in ((0, 0), (1, 8000), (2, 16000), (3, 30000), (4, 60000))
}
DEFAULT_LEVEL = 4


class Expert202611Player(ExpertPlayer):
    """The searching player of November 2026: ``expert-2026-11``."""

    name = "expert-2026-11"

    def __init__(self, level: int = DEFAULT_LEVEL, *, infer: bool = True, settings: Level | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}")
        super().__init__(level, infer=infer, settings=LEVELS[level] if settings is None else settings)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Expert202611Player", "Level"]
