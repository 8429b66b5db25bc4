"""The expert with a game value that knows it is the stronger player, for one screen only.

The expert values a hand by its chance to win the 5000-point game,
``Φ(diff / (sd·√h))`` with ``h`` the hands left
(:func:`mille.players.expert.search.win_probability`): both players
equal, a lead the only edge it sees.  Against `bsd` it gains some +370
a hand (the held-out runs since the fourth round), and with that drift
the chance is ``Φ((diff + μ·h) / (sd·√h))``: behind by 500 with three
hands to go it is still the favourite and should not seek variance.

This module replaces the search's ``win_probability`` in the process
that imports it (the match's workers import it through ``drift:Strong``)
with the drifted one, ``μ`` from ``DRIFT_MU`` (default 370).  Nothing
else changes: the expert of main at 89956ca, its policy, search, budget
and reader.

    PYTHONPATH=docs/notebook/twelfth-round python -m mille.match drift:Strong bsd --hands 400 --seed S --json
"""

from __future__ import annotations

import math
import os

import mille.players.expert.search as search
from mille.engine.scoring import GAME_POINTS
from mille.players.expert import ExpertPlayer

MU = float(os.environ.get("DRIFT_MU", "370"))


def drifted(
    mine: int, theirs: int, points: float = search._HAND_POINTS, sd: float = search._HAND_SD, game: int = GAME_POINTS
) -> float:
    """:func:`search.win_probability` with a drift of ``MU`` a hand in our favour over the hands left."""
    if mine >= game or theirs >= game:
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0
    left = max(1.0, (game - 0.5 * (mine + theirs)) / points)
    return search._phi((mine - theirs + MU * left) / (sd * math.sqrt(left)))


search.win_probability = drifted


class Strong(ExpertPlayer):
    """The expert, its game value drifted by ``MU`` a hand (set in this module's process)."""

    name = "expert-drift"
