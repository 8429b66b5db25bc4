"""What the expert knows of the hand beyond its observation, and what the opponent's turns say of its hand.

The expert reads only its :class:`~mille.engine.observation.Observation`
and what it remembers of its earlier observations of the same hand
(:class:`HandMemory`), never the game.  What it remembers is built from
its own successive observations and its own moves: how many cards each
side has drawn this hand, the table just after its own last move
(:class:`After`), and, per safety, how many cards the opponent has drawn
since it was last known not to hold it.  The sampler
(:mod:`mille.players.expert.sampler`) deals from that.

The opponent is modelled as the BSD player (§6.3 of the behaviour
reference), whose procedure gives some of its hand away:

* it never discards a safety (step 8) and plays one at once against the
  hazard it faces (step 1), so after a turn spent facing a hazard it held
  no safety against it; from then on it holds it only if it drew it since
  (:meth:`HandMemory.observe`, :func:`infer_now`);
* it plays a safety from its hand, before anything else is valued, when
  every copy of its hazard has been seen, and plays them all when we
  could finish the trip with one card (step 4, a and b): after such a
  turn it holds none (:func:`infer_turn`, ``Level(safety_rules=True)``,
  the default since the ninth round);
* it bumps its never-reset ``num_need`` table twice at each decision it
  makes while stopped (steps 5 and 7; §6.1), which weighs its attacks and
  remedies in every rollout: the expert keeps an estimate of it.

Scored against the true hands, the first read alone is overconfident
where step 4 has played the safety; the second takes the log loss of
the belief from 0.406 to 0.369 (a constant rate: 0.439).  Knowing which
safeties the opponent holds is two thirds of what knowing its whole hand
would be worth (``docs/notebook/expert.md``, the ninth round).  Three
other readings of its moves, which did not pay, were removed: a particle
filter over its whole hand, a replay of its last move, and a read of the
attacks it did not make (``docs/notebook/expert.md``, "2026-11-25: the
filters removed from the code").
"""

from __future__ import annotations

from ...engine import cards
from ...engine.cards import COPIES, OPPOSITE, OUT_OF_GAS, RIGHT_OF_WAY, SAFETY_BASE, SAFETY_FOR, SPEED_LIMIT, STOP
from ...engine.observation import Observation
from ...engine.rules import Move, MoveType, push
from ...engine.state import Tableau
from ..bsd import one_card
from .levels import Level

_NUM_SAFETIES = cards.NUM_SAFETIES
_ROW = RIGHT_OF_WAY - SAFETY_BASE
_PLAYED = 2


class After:
    """The table just after one of our moves that passed the turn: what the opponent's turn began from."""

    __slots__ = ("me", "op", "trip")

    def __init__(self, me: Tableau, op: Tableau, trip: int) -> None:
        self.me = me
        self.op = op
        self.trip = trip


class HandMemory:
    """What we know of the hand beyond the current observation."""

    __slots__ = ("received", "opp_received", "deck_count", "seen_total", "since", "drew", "after")

    def __init__(self, obs: Observation) -> None:
        drawn = cards.DECK_SIZE - obs.deck_count
        # At the start of a hand each seat was dealt six; later, guess halves.
        self.received = 6 if obs.deck_count >= cards.DECK_SIZE - 14 else drawn - drawn // 2
        self.opp_received = drawn - self.received
        self.deck_count = obs.deck_count
        self.seen_total = sum(obs.memory.num_seen)
        #: Per safety: cards the opponent has drawn since it was last known
        #: not to hold it (None: nothing known this hand).
        self.since: list[int | None] = [None] * _NUM_SAFETIES
        #: Our last move was a draw (the turn goes on).
        self.drew = False
        #: The table after our last move, if it passed the turn.
        self.after: After | None = None
        infer_now(obs, self)

    def note(self, obs: Observation, move: Move) -> None:
        """Our ``move`` from ``obs``: keep the table after it, if it passed the turn, for :meth:`observe`."""
        self.drew = move.kind is MoveType.DRAW
        self.after = None
        if self.drew:
            return
        game = obs.public_game()
        push(game, move)
        seat = obs.seat
        if game.to_move == seat or game.finished:
            return  # a safety (the turn goes on), or the hand is over
        self.after = After(game.players[seat], game.players[1 - seat], game.trip_length)

    def observe(self, obs: Observation, opp_need: list[int], settings: Level) -> None:
        """A new observation of the same hand: what the opponent's turn since our last move says.

        ``opp_need``, the estimate of the opponent's ``num_need`` table, is
        bumped in place.
        """
        drawn = cards.DECK_SIZE - obs.deck_count
        if self.drew:
            self.received = drawn - self.opp_received
        after = self.after
        if after is not None:
            # The opponent has moved since our last move.
            opp_received = drawn - self.received
            got = max(0, opp_received - self.opp_received)
            self.opp_received = opp_received
            since = self.since
            for i in range(_NUM_SAFETIES):
                s = since[i]
                if s is not None:
                    since[i] = s + got
            op = obs.players[1 - obs.seat]
            battle = after.op.battle
            # It faced this all its turn: the BSD player would have played
            # the safety at once (step 1), so it held none at the end of its turn.
            if OUT_OF_GAS <= battle <= STOP:
                k = SAFETY_FOR[battle] - SAFETY_BASE
                if op.safety[k] != _PLAYED:
                    since[k] = 0
                elif after.op.safety[k] != _PLAYED:
                    since[k] = None  # played it: nothing more to know
                # Stopped as its turn began: the BSD procedure bumps the table
                # twice at its decision (steps 5 and 7), unless it played that
                # safety (a coup fourré, or at the start of its decision),
                # which it does before the bumps.
                played = (op if settings.exact_need else after.op).safety[k] == _PLAYED
                if not after.op.can_go and not played:
                    opp_need[OPPOSITE[battle]] += 2
            if after.op.speed == SPEED_LIMIT and op.safety[_ROW] != _PLAYED:
                since[_ROW] = 0
            if settings.safety_rules:
                infer_turn(obs, after, since)
        self.deck_count = obs.deck_count
        self.seen_total = sum(obs.memory.num_seen)
        infer_now(obs, self)
        self.after = None


def is_new_hand(obs: Observation, hm: HandMemory) -> bool:
    """Whether ``obs`` is of another hand than the one ``hm`` remembers (the deck grew, or fewer cards were seen)."""
    return obs.deck_count > hm.deck_count or sum(obs.memory.num_seen) < hm.seen_total


def infer_now(obs: Observation, hm: HandMemory) -> None:
    """A hazard showing on the opponent now: it holds no safety against it (step 1 would have played it)."""
    op = obs.players[1 - obs.seat]
    battle = op.battle
    if OUT_OF_GAS <= battle <= STOP:
        k = SAFETY_FOR[battle] - SAFETY_BASE
        if op.safety[k] != _PLAYED:
            hm.since[k] = 0
    if op.speed == SPEED_LIMIT and op.safety[_ROW] != _PLAYED:
        hm.since[_ROW] = 0


def infer_turn(obs: Observation, after: After, since: list[int | None]) -> None:
    """What the opponent's turn since ``after`` says of its safeties, by step 4 of the BSD procedure.

    Step 4 of the procedure (§6.3 of the behaviour reference) plays a
    safety from the hand, before anything else is valued, when every copy
    of its hazard has been seen (for Right of Way: every Stop and every
    Speed Limit), and plays any safety when its opponent could finish the
    trip with one more card (``one_card``, §6.2).  A safety played keeps the
    turn (§3.5), so the procedure plays them one after another: at the end
    of a turn in which either held, it holds no such safety.  The
    procedure's count of seen cards is the table and the discards plus its
    own hand (§6.1), so a hazard all of whose copies are on the table or
    the discard pile is one it has seen to the last copy; ``one_card`` is
    read with the same public count, on our table as it was when its turn
    began.  Scored along 4,000 hands of the policy against ``bsd``, the
    opponent held such a safety at 5 in 1,000 of our decisions (hazards
    all seen) and never (one card from the end), where the safety
    inference before these rules gave it some 20%
    (``docs/notebook/expert.md``, the ninth round).
    """
    seen = obs.memory.num_seen
    mine = obs.players[obs.seat].hand
    public = [seen[c] - mine.count(c) for c in range(len(seen))]
    played = obs.players[1 - obs.seat].safety
    every = one_card(public, after.trip, after.me)
    for k in range(_NUM_SAFETIES):
        if played[k] == _PLAYED:
            continue
        hazard = OPPOSITE[SAFETY_BASE + k]
        if every or (public[hazard] == COPIES[hazard] and (k != _ROW or public[SPEED_LIMIT] == COPIES[SPEED_LIMIT])):
            since[k] = 0


__all__ = ["After", "HandMemory", "infer_now", "infer_turn", "is_new_hand"]
