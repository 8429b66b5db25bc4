"""The searching player itself: :class:`ExpertPlayer`, the ``expert``.

At each decision it first computes its policy's choice (the repaired BSD
procedure, :mod:`mille.players.plus`), then, where more than one distinct
move is open, searches (:mod:`mille.players.expert.search`) in worlds
dealt from what its seat has seen (:mod:`mille.players.expert.sampler`,
:mod:`mille.players.expert.belief`).  Between decisions it remembers the
hand (:class:`~mille.players.expert.belief.HandMemory`, built anew when a
hand starts) and, for as long as it lives (a game, in a match), its own
``num_need`` table and its estimate of the opponent's, which the BSD
procedure never resets (§6.1 of the behaviour reference).

Its dice: the policy's choice rolls the dice it is handed exactly as the
policy player would, and the search draws on a generator derived from
them without rolling them (:meth:`ExpertPlayer._search_rng`), so a game
in which the expert agrees with its policy stays the policy's game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from ...engine.driver import Event
from ...engine.observation import Observation, sample_world
from ...engine.rng import GlibcRandom
from ...engine.rules import DRAW, EXTEND, NO_EXTENSION, PASS, Move, Phase
from ...engine.scoring import HandResult
from ..bsd import INITIAL_NUM_NEED, BsdPlayer, decide, would_extend
from ..plus import PlusPlayer
from .belief import HandMemory, is_new_hand
from .levels import DEFAULT_LEVEL, LEVELS, Level
from .reader import TableReader
from .sampler import Sampler, Worlds
from .search import candidates, read_roller, search, table_roller

if TYPE_CHECKING:
    from ...engine.state import Game


class ExpertPlayer:
    """The searching player: ``expert``.

    ``level`` trades strength for speed (0: the policy's choice, no search;
    :data:`~mille.players.expert.levels.DEFAULT_LEVEL` is the measured
    default).  ``infer`` turns the inference about the opponent's hand off
    (uniform worlds), for experiments.
    """

    name = "expert"

    def __init__(self, level: int = DEFAULT_LEVEL, *, infer: bool = True, settings: Level | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}")
        self.level = level
        #: The level's settings (or ``settings``, for experiments and tests).
        self.settings = LEVELS[level] if settings is None else settings
        self.infer = infer
        #: Our own policy's table (for its choice and our rollouts), and our
        #: estimate of the opponent's (bumped while it is stopped).
        self.num_need: list[int] = list(INITIAL_NUM_NEED)
        self.opp_need: list[int] = list(INITIAL_NUM_NEED)
        self._hand: HandMemory | None = None
        self._calls = 0
        self._need_after: list[int] | None = None
        #: The reading of the table (``Level.read``), told every move made.
        self.reader: TableReader | None = TableReader(self.settings.read) if self.settings.read > 0 else None
        #: Counters for benchmarks.
        self.rollouts = 0
        self.simulated_moves = 0
        self.searches = 0

    # ------------------------------------------------------------------
    def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
        """A legal move for ``obs.seat`` (the player protocol), at any table."""
        move = self.think(obs, rng)
        self.remember(obs, move)
        return move

    def inform(self, event: Event) -> None:
        """A move made at the table (the driver's hook): read by the reader, if the level reads the table."""
        reader = self.reader
        if reader is not None:
            reader.inform(event)

    def hand_over(self, result: HandResult) -> None:
        """The hand is over (the driver's hook)."""
        reader = self.reader
        if reader is not None:
            reader.hand_over()

    def think(self, obs: Observation, rng: GlibcRandom) -> Move:
        """The move to make (without noting it as made: see :meth:`remember`)."""
        phase = obs.phase
        if phase is Phase.EMPTY_HAND:
            return PASS
        reader = self.reader
        if reader is not None:
            reader.seed(rng)
            reader.observe(obs)
            return self._think_table(obs, rng, reader)
        if len(obs.players) != 2:
            return self._think_table(obs, rng)
        hm = self._track(obs)
        me = obs.players[obs.seat]
        op = obs.players[1 - obs.seat]
        if phase is Phase.EXTENSION:
            extend = would_extend(me, op, obs.memory, obs.trip_length, obs.deck_count)
            base = EXTEND if extend else NO_EXTENSION
            return self._search(obs, [base, NO_EXTENSION if extend else EXTEND], hm, rng)
        # The policy's choice, on its own copy of the table (rolled on our
        # dice exactly as the policy alone would roll them).
        need = self.num_need[:]
        repaired = self.settings.repaired
        base = decide(me, op, obs.memory, obs.trip_length, obs.deck_count, need, rng, repaired).move
        self._need_after = need
        if base is DRAW or self.settings.budget == 0:
            return base
        moves = candidates(obs, base)
        if len(moves) <= 1:
            return base
        return self._search(obs, moves, hm, rng)

    def _think_table(self, obs: Observation, rng: GlibcRandom, reader: TableReader | None = None) -> Move:
        """At any table with a reader, and at three, four and six seats without one: the policy's choice, then a
        search from this seat's view only.

        The policy is the procedure as extended to the table (at two seats
        the procedure itself; :meth:`mille.players.bsd.BsdPlayer.decide`),
        repaired as at two seats (:class:`mille.players.plus.PlusPlayer`),
        which also answers ``Extension?`` and the coup fourré asked out of
        turn (R10).  Where more than one distinct move is open (a hazard
        aimed at each side it may go to counts as one move per side; the
        coup fourré or letting it pass; extending or not), every candidate
        is rolled out with the same race, budget and time limits as at two
        seats, in worlds dealt from the seat's observation alone:

        * reading the table (``Level.read``), the worlds
          (:class:`~mille.players.expert.sampler.Worlds`) deal the other
          hands with what the reader has read and give every other seat a
          model drawn from its posterior, its ``num_need`` table the
          reader's estimate (:func:`~mille.players.expert.search.read_roller`);
        * without a reader, uniform worlds (:func:`sample_world`: every
          other hand, the partner's included, from the cards it has not
          seen), the others' ``num_need`` tables the initial ones.
        """
        need = self.num_need[:]
        policy = PlusPlayer(need) if self.settings.repaired else BsdPlayer(need)
        base = policy.decide(obs, rng).move
        if obs.phase is Phase.MOVE:
            self._need_after = need
        if base is DRAW or self.settings.budget <= 0:
            return base
        moves = candidates(obs, base)
        if len(moves) <= 1:
            return base
        search_rng = self._search_rng(rng)
        self.searches += 1
        seat = obs.seat
        deal: Callable[[GlibcRandom], Game]
        if reader is None:
            roller = table_roller(seat, obs.table.sides, self.num_need, self.opp_need, self.settings)
            deal = partial(sample_world, obs)
        else:
            worlds = Worlds(obs, reader, self.settings.repaired)
            reads = reader.seats
            needs = [self.num_need if k == seat or k >= len(reads) else reads[k].need for k in range(len(obs.players))]
            roller = read_roller(seat, obs.table.sides, needs, worlds.flags, self.settings)
            deal = worlds.sample
        move, rollouts, simulated = search(
            moves, deal, seat, self.num_need, self.opp_need, self.settings, search_rng, roller
        )
        self.rollouts += rollouts
        self.simulated_moves += simulated
        return move

    def remember(self, obs: Observation, move: Move) -> None:
        """Note ``move`` as made from ``obs`` (what happens after it is inferred later)."""
        if obs.phase is Phase.EMPTY_HAND:
            return
        if len(obs.players) != 2 or self.reader is not None:
            need = self._need_after
            if need is not None:
                self.num_need = need
                self._need_after = None
            return
        hm = self._hand
        if hm is None:
            return
        if obs.phase is Phase.MOVE:
            need = self._need_after
            if need is not None:
                self.num_need = need
                self._need_after = None
        hm.note(obs, move)

    def _track(self, obs: Observation) -> HandMemory:
        """Update what we know of this hand with a new observation."""
        hm = self._hand
        if hm is None or is_new_hand(obs, hm):
            hm = self._hand = HandMemory(obs)
        else:
            hm.observe(obs, self.opp_need, self.settings)
        return hm

    def _search(self, obs: Observation, moves: list[Move], hm: HandMemory, dice: GlibcRandom) -> Move:
        """The search's choice among ``moves`` (``moves[0]``, the policy's choice, unless the search finds better)."""
        settings = self.settings
        if settings.budget <= 0 or len(moves) <= 1:
            return moves[0]
        rng = self._search_rng(dice)
        self.searches += 1
        sampler = Sampler(obs, hm, self.infer)
        move, rollouts, simulated = search(moves, sampler.sample, obs.seat, self.num_need, self.opp_need, settings, rng)
        self.rollouts += rollouts
        self.simulated_moves += simulated
        return move

    # ------------------------------------------------------------------
    def _search_rng(self, rng: GlibcRandom) -> GlibcRandom:
        """The search's own generator, derived from ``rng``'s state (and a count of searches) without advancing it.

        The dice the player is handed are then rolled exactly as the policy
        rolls them, so a game where the expert agrees with its policy stays
        the policy's game.
        """
        self._calls += 1
        words, front, rear = rng.getstate()
        mix = (self._calls * 0x9E3779B1) & 0xFFFFFFFF
        state = tuple((((w ^ mix) * 0x85EBCA6B) + i * 0xC2B2AE35) & 0xFFFFFFFF for i, w in enumerate(words))
        derived = GlibcRandom.__new__(GlibcRandom)
        derived.setstate((state, front, rear))
        for _ in range(40):
            derived.random()
        return derived


__all__ = ["ExpertPlayer"]
