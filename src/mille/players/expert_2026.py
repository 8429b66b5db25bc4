"""The expert as it was in 2026: the player ``expert-2026``.

The searching player as measured in ``docs/notebook/expert.md`` ("The 2026
measurement", commit 23e2f67 and its speed-ups up to b281007): inferred
worlds, BSD-policy rollouts on common random numbers, racing, and a paired
z >= 2 to leave the BSD choice.  It is kept so that later experts can be
matched against it (``python -m mille.match expert expert-2026``), now and
later.

It is today's :class:`~mille.players.expert.ExpertPlayer` with its own
policy set back to the BSD procedure itself (``Level(repaired=False)``):
the BSD choice is the move it keeps unless the search finds better, and
its own seat rolls out with BSD's procedure; its estimate of the
opponent's ``num_need`` table is the 2026 one (``exact_need=False``), and
it does not read the safety rules (``safety_rules=False``).  The replay
filter it had as an option, off, and the particle filter the expert
gained later are gone from the code (``docs/notebook/expert.md``,
"2026-11-25"); they were off in it, and its fingerprint is unchanged.

**It must keep playing exactly as it did**: the same moves for the same
observations and dice, for as long as this code lives.
``tests/players/test_expert.py`` checks a fingerprint of its moves recorded when it
was frozen (commit 027295c); a change to the expert that moves it is a
change to the expert's shared code that must be undone or made a setting.
"""

from __future__ import annotations

from .expert import ExpertPlayer, Level

#: The settings by level, as they were frozen (written out here, so that
#: tuning today's expert cannot move them): the budget of moves simulated
#: per decision, every other setting as ``Level``'s defaults were then,
#: and the BSD procedure as the player's own policy.
LEVELS: dict[int, Level] = {
    n: Level(
        budget,
        z=2.0,
        batch=8,
        race=2.0,
        min_worlds=16,
        game=True,
        deadline=0.8,
        repaired=False,
        exact_need=False,
        stretch=1.0,
        safety_rules=False,
    )
    for n, budget in ((0, 0), (1, 8000), (2, 16000), (3, 30000), (4, 60000))
}
DEFAULT_LEVEL = 3


class Expert2026Player(ExpertPlayer):
    """The searching player of 2026: ``expert-2026``."""

    name = "expert-2026"

    def __init__(self, level: int = DEFAULT_LEVEL, *, infer: bool = True, settings: Level | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}")
        super().__init__(level, infer=infer, settings=LEVELS[level] if settings is None else settings)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Expert2026Player", "Level"]
