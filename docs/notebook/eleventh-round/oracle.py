"""A cheating expert, for one measurement only: how far could better beliefs take the search?

Not a player of the product, and not importable from it: it finds the
true game by walking up the interpreter's frames from its ``choose`` to
the driver's (the attack ``tests/engine/test_secrets.py`` and its kin
keep every real seat from), and deals its search's worlds from the
truth.  Two instruments (`python -m mille.match`'s ``module:attribute``):

* ``oracle:Hand``: every world holds the other seats' true hands; the
  undrawn deck's true cards, shuffled (the sixth round's "the opponent's
  true hand, the deck shuffled", now a whole player in a match);
* ``oracle:Everything``: the true hands and the deck in its true order
  (only the dice, and the other seats' ``num_need`` tables, which the
  reader estimates, are left unknown).

Everything else is the expert of the tenth round at its default level:
the same policy, search, race, budget and models of the other seats.

    PYTHONPATH=docs/notebook/eleventh-round python -m mille.match oracle:Hand bsd --hands 800 --seed S --json
"""

from __future__ import annotations

import os
import sys
from functools import partial

import mille.players.expert.player as expert_player
from mille.engine.cards import EMPTY
from mille.engine.observation import Observation, sample_world
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.players.expert import ExpertPlayer
from mille.players.expert.reader import BSD, TableReader
from mille.players.expert.sampler import Worlds

#: How often a world could not be dealt from the truth (and was dealt as the expert deals it).
fallbacks = 0


def _true_game() -> Game | None:
    """The driver's game: the first frame above us with a local ``game`` that is a :class:`Game`."""
    frame = sys._getframe(1)
    while frame is not None:
        game = frame.f_locals.get("game")
        if isinstance(game, Game):
            return game
        frame = frame.f_back
    return None


class TrueWorlds(Worlds):
    """Worlds with the other hands as they are, and the deck's cards shuffled (or as they lie, ``order``)."""

    def __init__(self, obs: Observation, reader: TableReader, own: bool, *, game: Game | None, order: bool) -> None:
        super().__init__(obs, reader, own)
        self.dealt: list[int] | None = None
        self.order = order
        if game is None:
            return
        dealt: list[int] = []
        for k in self.others:
            dealt.extend(c for c in game.players[k].hand if c != EMPTY)
        hands = len(dealt)
        dealt.extend(game.deck[: game.deck_count])
        unseen = obs.unseen()
        have = [0] * len(unseen)
        for c in dealt:
            have[c] += 1
        if have == list(unseen) and hands == sum(obs.hand_sizes[k] for k in self.others):
            self.dealt = dealt
            self.hands = hands

    def sample(self, rng: GlibcRandom) -> Game:
        global fallbacks
        dealt = self.dealt
        if dealt is None:
            fallbacks += 1
            if os.environ.get("ORACLE_STRICT"):
                raise RuntimeError("a world not dealt from the truth")
            return super().sample(rng)
        models = self.models
        for k in self.others:
            self.flags[k] = models is not None and rng.uniform() >= models[k][BSD]
        if self.order:
            return sample_world(self.obs, rng, dealt)
        deck = dealt[self.hands :]
        rng.shuffle(deck)
        return sample_world(self.obs, rng, dealt[: self.hands] + deck)


class _Oracle(ExpertPlayer):
    order = False

    def _think_table(self, obs: Observation, rng: GlibcRandom, reader: TableReader | None = None) -> object:  # type: ignore[override]
        saved = expert_player.Worlds
        expert_player.Worlds = partial(TrueWorlds, game=_true_game(), order=self.order)  # type: ignore[misc]
        try:
            return super()._think_table(obs, rng, reader)
        finally:
            expert_player.Worlds = saved  # type: ignore[misc]


class Hand(_Oracle):
    """The other seats' true hands in every world; the deck's cards shuffled."""

    name = "oracle-hand"


class Everything(_Oracle):
    """The other seats' true hands and the deck in its true order in every world."""

    name = "oracle-everything"
    order = True
