"""Mixed partnerships for matches at four and six seats: a side of one player and a partner of another kind.

    python -m mille.match --players 4 mille.lab.partners:ExpertAndBsd bsd

At the larger tables a match seats two instances of the same player on a
side (docs/bots.md, "The larger tables").  A player named here sits on
both seats of its side and plays, on each, the player its seat gives it:
the first seat of the side (seat 0 or 1 at four seats, 0 to 2 at six)
plays ``first``, the other one ``second``.  So ``--players 4
mille.lab.partners:ExpertAndBsd bsd`` puts a side of ``expert`` and ``bsd``
against a side of two ``bsd``: whether the expert is a better partner for
a person who asks for a computer partner (issue 46) than ``bsd`` is.

Each seat's player is told the table's moves (``inform``, ``hand_over``)
if it listens; before its first decision a seat does not know which it
is, so the moves it hears then go to both.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.driver import Event
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.rules import Move
from ..engine.scoring import HandResult
from ..players import Player, make_player


class Partnered:
    """Plays ``first`` on the first seat of its side and ``second`` on the other."""

    def __init__(self, first: Callable[[], Player], second: Callable[[], Player]) -> None:
        self._first = first()
        self._second = second()
        self._player: Player | None = None
        self.name = f"{getattr(self._first, 'name', 'first')}+{getattr(self._second, 'name', 'second')}"

    def _which(self, obs: Observation) -> Player:
        player = self._player
        if player is None:
            player = self._player = self._first if obs.seat < obs.table.sides else self._second
        return player

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return self._which(observation).choose(observation, rng)

    def inform(self, event: Event) -> None:
        for player in (self._first, self._second) if self._player is None else (self._player,):
            hook = getattr(player, "inform", None)
            if hook is not None:
                hook(event)

    def hand_over(self, result: HandResult) -> None:
        for player in (self._first, self._second) if self._player is None else (self._player,):
            hook = getattr(player, "hand_over", None)
            if hook is not None:
                hook(result)


def ExpertAndBsd() -> Partnered:
    """A side of ``expert`` (its first seat) and ``bsd``."""
    return Partnered(lambda: make_player("expert"), lambda: make_player("bsd"))


def Expert202611AndBsd() -> Partnered:
    """A side of ``expert-2026-11`` (its first seat) and ``bsd``: the partner the expert was before issue 46."""
    return Partnered(lambda: make_player("expert-2026-11"), lambda: make_player("bsd"))


def PlusAndBsd() -> Partnered:
    """A side of the expert's policy alone (``bsd-plus``) and ``bsd``."""
    from ..players.plus import PlusPlayer

    return Partnered(PlusPlayer, lambda: make_player("bsd"))


__all__ = ["Expert202611AndBsd", "ExpertAndBsd", "Partnered", "PlusAndBsd"]
