"""What the other seats' moves say, at any table: the expert's reading of the table (issue 46).

Every other seat, the partner's included, is read from its own moves, as
the table hears them (the driver's events, :class:`mille.engine.driver.Event`:
who moved, the card shown, the side a hazard went to), between the
expert's own observations.  For each seat it keeps:

* **a model of how that seat plays**, learned from its moves in this game:
  a posterior over three models, the BSD procedure (``bsd``), the
  expert's repaired policy (``plus``: what ``bsd-plus`` and the searching
  experts play, but for their searches' few departures) and ``other``
  (anything else: a person, a bot of another kind).  At each of the
  seat's decisions (a card played or discarded), each procedure is run on
  hands the seat could have held then (the card it played and cards it
  could have held beside it, dealt from those the expert has not seen),
  and the chance that it makes the move the seat made is the evidence for
  it; ``other`` gives every move the same small chance.  The posterior,
  updated by Bayes' rule move after move and game-long, decides how each
  world plays that seat out (:class:`Worlds`: each world draws its model)
  and how far its moves are read as the procedure's;
* **which safeties it was seen not to hold**, as the two-seat reads do
  (:mod:`mille.players.expert.belief`), for a seat whose model is a
  procedure: the BSD procedure never discards a safety, makes every coup
  fourré it is offered and plays a safety at once against the hazard its
  side faces (§6.3, step 1), plays one whose hazards have all been seen,
  and all of them when its opponent could finish the trip with one card
  (step 4).  So after a hazard on its side that no coup fourré answered,
  no seat of that side held its safety; after a decision of its own while
  its side faced a hazard, it did not hold that hazard's safety; after a
  decision in which step 4 held, it held no such safety.  From then on it
  holds the safety only if it drew it since (``received`` less ``mark``);
* **its ``num_need`` table**, which the BSD procedure never resets and
  bumps twice at each decision it makes while its side is stopped (§6.1),
  estimated game-long.

The table between two observations is followed on a *mirror*: the public
game of the last observation (:meth:`Observation.public_game`, the other
hands blank), each event made on it with the engine's own parts of a
move, the hands' sizes and the expert's count of seen cards kept beside
it.  Each observation replaces the mirror: what the events cannot say is
never carried further than one turn of the table.

A player that is told nothing (no events: a hint of a fresh expert, a
driver without ``inform``) reads nothing: every seat's hand is a uniform
deal of the unseen cards and its model the prior.
"""

from __future__ import annotations

from ...engine import cards
from ...engine.cards import (
    EMPTY,
    GASOLINE,
    OPPOSITE,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from ...engine.driver import Event
from ...engine.observation import Observation
from ...engine.rng import GlibcRandom
from ...engine.rules import MoveType, answer_extension, discard_card, play_card
from ...engine.state import Game, Memory
from ..bsd import INITIAL_NUM_NEED, decide, one_card

_NUM_SAFETIES = cards.NUM_SAFETIES
_ROW = RIGHT_OF_WAY - SAFETY_BASE
_PLAYED = 2
_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD
_DRAW = MoveType.DRAW
_EXTEND = MoveType.EXTEND
_NO_EXTENSION = MoveType.NO_EXTENSION

#: The models of a seat's play, and their prior (a seat is most likely the
#: original's procedure; anything else is possible).
MODELS: tuple[str, ...] = ("bsd", "plus", "other")
BSD, PLUS, OTHER = 0, 1, 2
PRIOR: tuple[float, ...] = (0.6, 0.3, 0.1)
#: The chance ``other`` gives any one move (about one of the eight or so a hand offers).
OTHER_CHANCE = 0.125
#: A procedure's chance to make a move it never makes in the hands tried
#: (the hands are guesses: a move it would make with the true hand may be
#: missing from them).
SLIP = 0.05


class SeatRead:
    """What one other seat's moves have said: its model, its ``num_need``, and this hand's safety reads."""

    __slots__ = ("weights", "need", "out", "mark")

    def __init__(self) -> None:
        #: The posterior over :data:`MODELS` (game-long).
        self.weights: list[float] = list(PRIOR)
        #: The estimate of its ``num_need`` table (game-long, as the procedure keeps its own).
        self.need: list[int] = list(INITIAL_NUM_NEED)
        #: Cards it has played or discarded this hand.
        self.out = 0
        #: Per safety: the cards it had received this hand when it was last
        #: known not to hold it (None: nothing known this hand).
        self.mark: list[int | None] = [None] * _NUM_SAFETIES

    def trust(self) -> float:
        """How far its moves are read as a procedure's (the weight of ``bsd`` and ``plus``)."""
        w = self.weights
        return w[BSD] + w[PLUS]

    def new_hand(self) -> None:
        self.out = 0
        self.mark = [None] * _NUM_SAFETIES


class TableReader:
    """The expert's reading of the other seats at any table (see the module documentation).

    ``samples``: the hands tried per decision of another seat to weigh
    its models (0: the models are not learned, the prior stays).
    """

    def __init__(self, samples: int = 12, rng: GlibcRandom | None = None) -> None:
        self.samples = samples
        self.seat: int | None = None
        self.seats: list[SeatRead] = []
        #: The public game of the last observation, each event since made on it (None: none yet this hand).
        self.mirror: Game | None = None
        #: Every seat's number of cards, on the mirror.
        self.sizes: list[int] = []
        #: Every seat's slot 1 is empty: a card left a hand of six or fewer, whose
        #: tidying empties slot 1, so its next draw takes two cards (the engine's draw).
        self.short: list[bool] = []
        #: Our count of seen cards, on the mirror (the observation's, and every card shown since).
        self.seen: list[int] = []
        #: A hazard just played: (its side, the safety index), until the next event says whether a coup answered it.
        self.pending: tuple[int, int] | None = None
        #: Whether any event was heard (a player told nothing reads nothing).
        self.informed = False
        self._rng: GlibcRandom | None = rng
        self._deck_count = -1
        self._seen_total = -1

    # ------------------------------------------------------------------
    def seed(self, dice: GlibcRandom) -> None:
        """The generator that deals the hands tried, derived once from the player's dice (not rolling them)."""
        if self._rng is None:
            words, front, rear = dice.getstate()
            state = tuple(((w * 0x2545F491) ^ 0x5BD1E995 ^ i) & 0xFFFFFFFF for i, w in enumerate(words))
            rng = GlibcRandom.__new__(GlibcRandom)
            rng.setstate((state, front, rear))
            for _ in range(31):
                rng.random()
            self._rng = rng

    def hand_over(self) -> None:
        """The hand is over: nothing of it is carried into the next but the models and ``num_need`` tables."""
        self.mirror = None
        self.pending = None
        for read in self.seats:
            read.new_hand()

    def observe(self, obs: Observation) -> None:
        """A new observation of our own: the mirror is the observation now."""
        self.seat = obs.seat
        while len(self.seats) < len(obs.players):
            self.seats.append(SeatRead())
        seen_total = sum(obs.memory.num_seen)
        if self.mirror is None or obs.deck_count > self._deck_count or seen_total < self._seen_total:
            if self.mirror is not None:
                self.hand_over()  # a new hand that nobody announced
            # The first observation of a hand: what was played before it is
            # counted from the table (a card shown is a card a seat let go).
            self.pending = None
        self._deck_count = obs.deck_count
        self._seen_total = seen_total
        self.mirror = obs.public_game()
        self.sizes = list(obs.hand_sizes)
        self.short = [n <= 5 for n in self.sizes]
        self.seen = obs.memory.num_seen[:]

    def agrees(self, obs: Observation) -> list[str]:
        """What the mirror says and ``obs`` does not (empty: it followed the table); for tests."""
        game = self.mirror
        if game is None:
            return ["no mirror"]
        wrong: list[str] = []
        if game.deck_count != obs.deck_count:
            wrong.append(f"deck {game.deck_count} != {obs.deck_count}")
        if tuple(self.sizes) != obs.hand_sizes:
            wrong.append(f"sizes {self.sizes} != {list(obs.hand_sizes)}")
        if game.discard != obs.discard:
            wrong.append(f"discard {game.discard} != {obs.discard}")
        if game.trip_length != obs.trip_length:
            wrong.append(f"trip {game.trip_length} != {obs.trip_length}")
        for side in range(obs.table.sides):
            a, b = game.players[side], obs.players[side]
            for field in ("battle", "speed", "can_go", "safety", "nummiles", "mileage"):
                if getattr(a, field) != getattr(b, field):
                    wrong.append(f"side {side} {field} {getattr(a, field)} != {getattr(b, field)}")
        # The cards shown (our count of seen cards less our own hand, which a draw of ours changed unseen).
        shown = self.seen[:]
        for c in game.players[obs.seat].hand:
            if c >= 0:
                shown[c] -= 1
        told = obs.memory.num_seen[:]
        for c in obs.hand:
            if c >= 0:
                told[c] -= 1
        if shown != told:
            wrong.append(f"shown {shown} != {told}")
        return wrong

    def received(self, seat: int) -> int:
        """The cards ``seat`` has received this hand: those it holds and those it let go."""
        return self.sizes[seat] + self.seats[seat].out

    # ------------------------------------------------------------------
    def inform(self, event: Event) -> None:
        """Another move at the table: read it, then make it on the mirror."""
        seat = event.seat
        kind = event.kind
        card = event.card
        self.informed = True
        while len(self.seats) <= seat:
            self.seats.append(SeatRead())
        game = self.mirror
        me = self.seat
        if game is None or me is None:
            # Before our first observation of the hand: only what each seat let go is counted.
            if seat != me and (kind is _PLAY or kind is _DISCARD):
                self.seats[seat].out += 1
            return
        pending = self.pending
        if pending is not None:
            self.pending = None
            side, k = pending
            if not (kind is _PLAY and card == SAFETY_BASE + k and seat % game.table.sides == side):
                # No coup fourré: no seat of that side held the safety (a
                # procedure makes every one it is offered).
                self._unheld(side, k)
        try:
            if seat == me:
                self._own(game, event)
            elif kind is _DRAW:
                self._draw(game, seat)
            elif kind is _PLAY or kind is _DISCARD:
                self._decision(game, event)
            elif kind is _EXTEND or kind is _NO_EXTENSION:
                game.to_move = seat
                if game.pending_extension is not None:
                    answer_extension(game, kind is _EXTEND)
                    self._leaves(seat)
                    self.seats[seat].out += 1
        except (IndexError, ValueError, AssertionError):
            self.mirror = None  # lost: read nothing more until the next observation

    def _own(self, game: Game, event: Event) -> None:
        """Our own move, made on the mirror (the card from our hand there)."""
        seat = event.seat
        kind = event.kind
        game.to_move = seat
        game.reaction = None
        if kind is _DRAW:
            self._draw(game, seat)
            return
        if kind is _EXTEND or kind is _NO_EXTENSION:
            if game.pending_extension is not None:
                answer_extension(game, kind is _EXTEND)
                self._leaves(seat)
            return
        if kind is not _PLAY and kind is not _DISCARD:
            return
        hand = game.players[seat].hand
        if event.card not in hand:
            # Our hand on the mirror has not the card (a draw we could not
            # see): play it from an empty slot.
            hand[hand.index(EMPTY)] = event.card
        slot = hand.index(event.card)
        self._make(game, seat, kind, slot, event.target)
        if game.pending_extension is None:
            self._leaves(seat)

    def _leaves(self, seat: int) -> None:
        """A card has left ``seat``'s hand: one fewer, and slot 1 emptied if it held no card in the P slot."""
        self.short[seat] = self.sizes[seat] < cards.HAND_SIZE
        self.sizes[seat] -= 1

    def _draw(self, game: Game, seat: int) -> None:
        n = 2 if self.short[seat] and game.deck_count >= 2 else 1
        n = min(n, game.deck_count)
        self.short[seat] = False
        self.sizes[seat] += n
        game.deck_count -= n
        pp = game.players[seat % game.table.sides]
        pp.fresh_hazard = False
        pp.fresh_limit = False
        game.to_move = seat

    def _make(self, game: Game, seat: int, kind: MoveType, slot: int, target: int | None) -> None:
        game.to_move = seat
        game.reaction = None
        finished = game.finished
        game.finished = False
        if kind is _PLAY:
            play_card(game, seat, slot, target)
        else:
            discard_card(game, seat, slot)
        game.finished = finished or game.finished

    def _decision(self, game: Game, event: Event) -> None:
        """Another seat's decision: weigh its models, read it, then make it on the mirror."""
        seat = event.seat
        card = event.card
        kind = event.kind
        read = self.seats[seat]
        sides = game.table.sides
        side = seat % sides
        pp = game.players[side]
        if self.samples > 0 and self._rng is not None and self.sizes[seat] > 0:
            self._weigh(game, seat, event)
        procedure = read.trust() >= 0.5
        is_safety = card >= SAFETY_BASE
        if procedure:
            battle = pp.battle
            stopped = not pp.can_go and battle != EMPTY and not (GASOLINE <= battle <= REPAIRS)
            # Steps 5 and 7 bump its table while stopped; a safety (steps 1
            # and 4) is played before them.
            if stopped and not is_safety:
                read.need[OPPOSITE[battle]] += 2
            got = self.received(seat)
            # Step 1: a safety against the hazard its side faces is played at once.
            if OUT_OF_GAS <= battle <= STOP:
                k = SAFETY_FOR[battle] - SAFETY_BASE
                if pp.safety[k] != _PLAYED and card != SAFETY_BASE + k:
                    read.mark[k] = got
            if pp.speed == SPEED_LIMIT and pp.safety[_ROW] != _PLAYED and card != RIGHT_OF_WAY:
                read.mark[_ROW] = got
            if not is_safety:
                # Step 4: the turn ends on a card that is not a safety, so none
                # that step 4 would have played is left in the hand.
                self._step4(game, seat, read, got)
        # Make it on the mirror.
        hand = game.players[seat].hand
        for i in range(cards.HAND_SIZE):
            hand[i] = EMPTY
        hand[1] = card
        target = event.target
        self._make(game, seat, kind, 1, target)
        if game.pending_extension is None:
            hand[1] = EMPTY
            self._leaves(seat)
            read.out += 1
        self.seen[card] += 1
        if kind is _PLAY and OUT_OF_GAS <= card <= SPEED_LIMIT:
            victim = target if target is not None else (side + 1) % sides
            k = (RIGHT_OF_WAY if card == SPEED_LIMIT else SAFETY_FOR[card]) - SAFETY_BASE
            if game.players[victim].safety[k] != _PLAYED:
                self.pending = (victim, k)

    def _step4(self, game: Game, seat: int, read: SeatRead, got: int) -> None:
        """Step 4 of the procedure, read back: the safeties it would have played at this decision."""
        me = self.seat
        assert me is not None
        mine = game.players[me].hand
        public = self.seen[:]
        for c in mine:
            if c >= 0:
                public[c] -= 1
        copies = game.table.copies
        side = seat % game.table.sides
        op = game.players[_opponent_side(game, side)]
        played = game.players[side].safety
        every = one_card(public, game.trip_length, op, copies)
        for k in range(_NUM_SAFETIES):
            if played[k] == _PLAYED:
                continue
            hazard = OPPOSITE[SAFETY_BASE + k]
            if every or (
                public[hazard] == copies[hazard] and (k != _ROW or public[SPEED_LIMIT] == copies[SPEED_LIMIT])
            ):
                read.mark[k] = got

    def _unheld(self, side: int, k: int) -> None:
        """No coup fourré answered a hazard on ``side``: its seats held no such safety (those read as procedures)."""
        game = self.mirror
        if game is None:
            return
        for seat in range(side, len(self.seats), game.table.sides):
            if seat != self.seat and self.seats[seat].trust() >= 0.5:
                self.seats[seat].mark[k] = self.received(seat)

    # ------------------------------------------------------------------
    def _weigh(self, game: Game, seat: int, event: Event) -> None:
        """Bayes' rule on the seat's models: each one's chance to make this move, over hands it could hold."""
        rng = self._rng
        assert rng is not None
        me = self.seat
        assert me is not None
        card = event.card
        kind = event.kind
        table = game.table
        copies = table.copies
        sides = table.sides
        side = seat % sides
        pp = game.players[side]
        op_side = _opponent_side(game, side)
        op = game.players[op_side]
        size = self.sizes[seat]
        # The cards it could hold beside this one: those we have not seen.
        pool: list[int] = []
        seen = self.seen
        for c in range(cards.NUM_CODES):
            pool.extend([c] * (copies[c] - seen[c]))
        if card in pool:
            pool.remove(card)
        public = seen[:]
        for c in game.players[me].hand:
            if c >= 0:
                public[c] -= 1
        read = self.seats[seat]
        hits = [0, 0]
        n = self.samples
        quarter = table.deck_size >> 2
        trip = game.trip_length
        deck_count = game.deck_count
        # A hazard's side, where the procedure would choose it: the leader (three sides).
        aimed = event.target if sides > 2 and kind is _PLAY and OUT_OF_GAS <= card <= SPEED_LIMIT else None
        for _ in range(n):
            others = _pick(pool, size - 1, rng)
            hand = [EMPTY] * cards.HAND_SIZE
            at = rng.random() % size
            others.insert(at, card)
            start = 0 if size == cards.HAND_SIZE else 1
            hand[start : start + size] = others
            view = pp.copy()
            view.hand = hand
            counted = public[:]
            for c in others:
                counted[c] += 1
            memory = Memory(counted, game.memory[me].num_gos)
            for model in (BSD, PLUS):
                move = decide(
                    view, op, memory, trip, deck_count, read.need[:], rng, model == PLUS, copies, quarter
                ).move
                if move.kind is kind and hand[move.slot] == card and (aimed is None or aimed == op_side):
                    hits[model] += 1
        weights = read.weights
        likelihood = (
            SLIP + (1.0 - SLIP) * hits[BSD] / n,
            SLIP + (1.0 - SLIP) * hits[PLUS] / n,
            OTHER_CHANCE,
        )
        total = 0.0
        for m in range(len(MODELS)):
            weights[m] *= likelihood[m]
            total += weights[m]
        for m in range(len(MODELS)):
            weights[m] = max(weights[m] / total, 1e-6)


def _opponent_side(game: Game, side: int) -> int:
    """The side the procedure plays against: the other; at three sides the leader (``bsd.leader``)."""
    sides = game.table.sides
    if sides == 2:
        return 1 - side
    best = -1
    chosen = (side + 1) % sides
    for step in range(1, sides):
        s = (side + step) % sides
        if game.players[s].mileage > best:
            best = game.players[s].mileage
            chosen = s
    return chosen


def _pick(pool: list[int], k: int, rng: GlibcRandom) -> list[int]:
    """``k`` cards of ``pool`` drawn without replacement (the pool left as it was)."""
    k = max(0, min(k, len(pool)))
    chosen = pool[:]
    size = len(chosen)
    for i in range(k):
        j = i + rng.random() % (size - i)
        chosen[i], chosen[j] = chosen[j], chosen[i]
    return chosen[:k]


__all__ = ["BSD", "MODELS", "OTHER", "PLUS", "PRIOR", "SeatRead", "TableReader"]
