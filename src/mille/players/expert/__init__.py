"""The searching computer player: ``expert`` (``docs/expert.md``).

Its own policy is the BSD procedure with its "too close" quirk repaired,
attacking first (:mod:`mille.players.plus`).  At each decision that matters
it samples worlds consistent with what its seat has seen, the hidden cards
dealt with inference about the opponent's hand, rolls every candidate move
out to the end of the hand (its own seat with its policy, the opponent's
with the BSD procedure), and picks the move with the best mean game value.
The moves are compared on common random numbers: every candidate is
played out in the same sampled worlds with the same dice, so the
comparison sees the difference the move makes, not the luck of the deal.
It leaves its policy's choice only when the paired evidence says so.

The package, one job a module, each importing only those above it here:

* :mod:`~mille.players.expert.levels`: the settings (:class:`Level`) and
  the levels it ships with;
* :mod:`~mille.players.expert.search`: the search over the candidates,
  the rollouts, and what a finished hand is worth;
* :mod:`~mille.players.expert.belief`: what it remembers of the hand, and
  what the opponent's turns say of its hand;
* :mod:`~mille.players.expert.sampler`: the hidden cards dealt into
  worlds, with that inference;
* :mod:`~mille.players.expert.player`: :class:`ExpertPlayer`, which asks
  its policy, keeps its memory and runs the search.

It reads only its :class:`~mille.engine.observation.Observation` and what it
remembers of its earlier observations of the same hand, never the game.
"""

from __future__ import annotations

from .levels import DEFAULT_LEVEL, LEVELS, Level
from .player import ExpertPlayer
from .search import rollout, rollout_reference, utility, win_probability

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "ExpertPlayer",
    "Level",
    "rollout",
    "rollout_reference",
    "utility",
    "win_probability",
]
