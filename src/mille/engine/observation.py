"""What one seat may see, and worlds consistent with it.

:func:`observe` cuts out of a :class:`~mille.engine.state.Game` exactly what one
seat may know: its own hand, both tableaus as they lie on the table, the
discard pile's top card, how many cards are left in the deck and in the
other hand, the trip length, the scores, and its own card counting.  The
other hand and the order of the deck are not in it: the other player's
tableau is copied with an empty hand, and the deck is only a count.  A
player is handed an :class:`Observation`, never the game, so it cannot
peek; everything in an observation is a copy, so it cannot change the game
either.

:func:`sample_world` goes the other way, for searching players: it deals
the cards hidden from the seat (every other hand, a partner's included,
and the undrawn deck) at random from the cards that seat has not seen, and
returns a whole game that the seat could not tell from the real one
(observing it again gives the same observation), at any table.  It is the
uniform, complete sampler a bot can start from, and the ``expert``'s at 3,
4 and 6 seats; at two the expert deals its worlds with its own sampler
(inference about the opponent's hand, and only what a rollout reads:
:class:`mille.players.expert.sampler.Sampler`), held to the same contract by
``tests/players/test_expert.py``.

>>> from mille.engine import rules
>>> from mille.engine.state import Game
>>> from mille.engine.rng import GlibcRandom
>>> game = Game(rng=GlibcRandom(7))
>>> rules.start_hand(game)
>>> obs = observe(game, 1)
>>> obs.opponent_hand_size, obs.deck_count, obs.phase.name
(6, 89, 'MOVE')
>>> obs.players[0].hand == [-1] * 7          # the other hand is not there
True
>>> world = sample_world(obs, GlibcRandom(3))
>>> observe(world, 1) == obs
True
"""

from __future__ import annotations

from . import cards, rules
from .cards import EMPTY, NUM_TABLE
from .record import Record
from .rng import GlibcRandom
from .rules import Move, Phase
from .state import TWO, Game, Memory, Seat, Table, Tableau, other


class Observation(Record):
    """Everything one seat may know at one moment (all fields are copies).

    ``players`` is indexed by seat like ``Game.players``: this seat's own
    tableau with its hand, and the other's with an empty hand (its size is
    ``opponent_hand_size``).  ``memory`` is this seat's own card counting.
    ``pending_extension`` is the slot of this seat's card waiting at
    ``Extension?`` (None otherwise).

    At any table (``table``; R6 of ``table-rules.md``): ``players[k]`` is
    the tableau seat ``k`` plays on, its side's, with a hand only for this
    seat (a partner's hand is as hidden as an opponent's); ``hand_sizes``
    has every seat's number of cards; ``opponent_hand_size`` is the next
    seat's.
    """

    __slots__ = (
        "seat",
        "phase",
        "to_move",
        "players",
        "opponent_hand_size",
        "discard",
        "deck_count",
        "trip_length",
        "hand_starter",
        "order",
        "pending_extension",
        "memory",
        "table",
        "_hand_sizes",
    )

    def __init__(
        self,
        seat: Seat,
        phase: Phase,
        to_move: Seat,
        players: tuple[Tableau, ...],
        opponent_hand_size: int,
        discard: int,
        deck_count: int,
        trip_length: int,
        hand_starter: Seat,
        order: bool,
        pending_extension: int | None,
        memory: Memory,
        table: Table = TWO,
        hand_sizes: tuple[int, ...] | None = None,
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.to_move = to_move
        self.players = players
        self.opponent_hand_size = opponent_hand_size
        self.discard = discard
        self.deck_count = deck_count
        self.trip_length = trip_length
        self.hand_starter = hand_starter
        self.order = order
        self.pending_extension = pending_extension
        self.memory = memory
        self.table = table
        #: None at two seats: :attr:`hand_sizes` says them from the hand and ``opponent_hand_size``.
        self._hand_sizes = hand_sizes if len(players) != 2 else None

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Every seat's number of cards, by seat."""
        if self._hand_sizes is not None:
            return self._hand_sizes
        own = cards.HAND_SIZE - self.players[self.seat].hand.count(EMPTY)
        other = self.opponent_hand_size
        return (own, other) if self.seat == 0 else (other, own)

    @property
    def me(self) -> Tableau:
        return self.players[self.seat]

    @property
    def opponent(self) -> Tableau:
        """The next side's tableau (at two seats, the other's)."""
        seat = self.seat + 1
        return self.players[0 if seat == len(self.players) else seat]

    @property
    def side(self) -> int:
        """The side this seat plays for."""
        return self.seat % self.table.sides

    @property
    def hand(self) -> list[int]:
        """This seat's seven slots (``cards.EMPTY`` where there is no card)."""
        return self.players[self.seat].hand

    def unseen(self) -> list[int]:
        """How many of each card are hidden from this seat (other hand + deck), by code."""
        seen = self.memory.num_seen
        copies = self.table.copies
        return [copies[c] - seen[c] for c in range(NUM_TABLE)]

    def legal_moves(self) -> list[Move]:
        """The moves this seat may make now (empty unless it is this seat's turn)."""
        if self.to_move != self.seat:
            return []
        return rules.legal_moves(self.public_game())

    def public_game(self) -> Game:
        """A game holding only what this observation holds: no deck, the other hand blank.

        Enough to test legality and to push this seat's plays and discards
        (a searching player follows its own move on it); not to draw.  Its
        generator is one inert instance shared by every such game (seeding
        a new one costs more than the rest of the call), which nothing here
        rolls.
        """
        players = self.players
        two = len(players) == 2  # (the lists written out at two seats: every legal_moves() of a bot)
        return Game(
            deck=[],
            deck_count=self.deck_count,
            discard=self.discard,
            players=[players[0].copy(), players[1].copy()] if two else [p.copy() for p in players],
            trip_length=self.trip_length,
            finished=self.phase is Phase.HAND_OVER,
            to_move=self.to_move,
            hand_starter=self.hand_starter,
            order=self.order,
            pending_extension=self.pending_extension,
            memory=[Memory(), Memory()] if two else [Memory() for _ in players],
            rng=_inert_rng(),
            table=self.table,
            reaction=self.to_move if self.phase is Phase.REACTION else None,
        )


_INERT: list[GlibcRandom] = []


def _inert_rng() -> GlibcRandom:
    """The one generator of every public game (made when first needed: seeding costs start-up time)."""
    if not _INERT:
        _INERT.append(GlibcRandom(1))
    return _INERT[0]


def observe(game: Game, seat: Seat, now: Phase | None = None) -> Observation:
    """What ``seat`` may know of ``game`` now (see the module documentation).

    ``now``: the game's :func:`~mille.engine.rules.phase`, when the caller
    has just asked it (the hand driver, at every decision), so that it is
    not asked again.
    """
    players = game.players
    if len(players) != 2:
        return _observe_table(game, seat, players, now)
    # Two seats, written out: every decision of the protocol path (issue 38's speed).
    op = players[1 - seat]
    own = players[seat].copy()
    blind = op.copy()
    blind.hand = [EMPTY] * cards.HAND_SIZE
    memory = game.memory[seat]
    to_move = game.to_move
    pending = game.pending_extension
    obs = _new_observation(Observation)
    obs.seat = seat
    obs.phase = rules.phase(game) if now is None else now
    obs.to_move = to_move
    obs.players = (own, blind) if seat == 0 else (blind, own)
    obs.opponent_hand_size = cards.HAND_SIZE - op.hand.count(EMPTY)
    obs._hand_sizes = None
    obs.table = game.table
    obs.discard = game.discard
    obs.deck_count = game.deck_count
    obs.trip_length = game.trip_length
    obs.hand_starter = game.hand_starter
    obs.order = game.order
    obs.pending_extension = pending if to_move == seat else None
    mine = _new_memory(Memory)
    mine.num_seen = memory.num_seen[:]
    mine.num_gos = memory.num_gos
    obs.memory = mine
    return obs


def _observe_table(game: Game, seat: Seat, players: list[Tableau], now: Phase | None) -> Observation:
    """:func:`observe` at three seats or more: a view for every seat, the hands' sizes."""
    seats = len(players)
    table = game.table
    sides = table.sides
    listed = []
    for k in range(seats):
        view = players[k % sides].copy()
        view.hand = players[seat].hand[:] if k == seat else [EMPTY] * cards.HAND_SIZE
        listed.append(view)
    views = tuple(listed)
    nxt = seat + 1 if seat + 1 < seats else 0
    memory = game.memory[seat]
    to_move = game.to_move
    pending = game.pending_extension
    obs = _new_observation(Observation)
    obs.seat = seat
    obs.phase = rules.phase(game) if now is None else now
    if game.reaction is not None and to_move != seat:  # a coup fourré asked of another seat is its secret (R10)
        obs.phase = Phase.MOVE
        to_move = game.reaction
    obs.to_move = to_move
    obs.players = views
    obs.opponent_hand_size = cards.HAND_SIZE - players[nxt].hand.count(EMPTY)
    obs._hand_sizes = tuple([cards.HAND_SIZE - p.hand.count(EMPTY) for p in players])
    obs.table = table
    obs.discard = game.discard
    obs.deck_count = game.deck_count
    obs.trip_length = game.trip_length
    obs.hand_starter = game.hand_starter
    obs.order = game.order
    obs.pending_extension = pending if to_move == seat else None
    mine = _new_memory(Memory)
    mine.num_seen = memory.num_seen[:]
    mine.num_gos = memory.num_gos
    obs.memory = mine
    return obs


_new_observation = _new_memory = object.__new__


class PublicView(Record):
    """What every seat sees of the table at one moment, and nothing more: what a watcher is shown (docs/people.md).

    The cards on the table (each side's tableau, without a hand), the
    discard pile's top card, how many cards are in the deck and in each
    hand, the trip, the scores (on the tableaus), and whose turn the table
    sees (:func:`~mille.engine.rules.seen_turn`: a coup fourré asked out of
    turn is the asked seat's secret, R10, so the turn shows as going on).
    No hand, not even a count of the cards seen (each seat's counting is
    its own), no slot of a card waiting at ``Extension?``.
    """

    __slots__ = ("phase", "to_move", "players", "hand_sizes", "discard", "deck_count", "trip_length", "hand_starter",
                 "table")  # fmt: skip

    def __init__(
        self,
        phase: Phase,
        to_move: Seat,
        players: tuple[Tableau, ...],
        hand_sizes: tuple[int, ...],
        discard: int,
        deck_count: int,
        trip_length: int,
        hand_starter: Seat,
        table: Table,
    ) -> None:
        self.phase = phase
        self.to_move = to_move
        #: By seat, as :attr:`Observation.players`: each seat's side's tableau, every hand empty.
        self.players = players
        self.hand_sizes = hand_sizes
        self.discard = discard
        self.deck_count = deck_count
        self.trip_length = trip_length
        self.hand_starter = hand_starter
        self.table = table

    def public_game(self) -> Game:
        """A game holding only what this view holds (every hand empty, no deck): what a watcher's board draws."""
        players = self.players
        return Game(
            deck=[],
            deck_count=self.deck_count,
            discard=self.discard,
            players=[p.copy() for p in players],
            trip_length=self.trip_length,
            finished=self.phase is Phase.HAND_OVER,
            to_move=self.to_move,
            hand_starter=self.hand_starter,
            memory=[Memory() for _ in players],
            rng=_inert_rng(),
            table=self.table,
        )


def public_view(game: Game) -> PublicView:
    """What every seat sees of ``game`` now (:class:`PublicView`): what ``observe`` gives any seat, less its own hand
    and counting; asked of a coup fourré out of turn, the table sees the turn go on (R10)."""
    players = game.players
    sides = game.table.sides
    listed = []
    for k in range(len(players)):
        view = players[k % sides].copy()
        view.hand = [EMPTY] * cards.HAND_SIZE
        listed.append(view)
    phase = rules.phase(game)
    if phase is Phase.REACTION:
        phase = Phase.MOVE
    return PublicView(
        phase=phase,
        to_move=rules.seen_turn(game),
        players=tuple(listed),
        hand_sizes=tuple(cards.HAND_SIZE - p.hand.count(EMPTY) for p in players),
        discard=game.discard,
        deck_count=game.deck_count,
        trip_length=game.trip_length,
        hand_starter=game.hand_starter,
        table=game.table,
    )


def sample_world(obs: Observation, rng: GlibcRandom, dealt: list[int] | None = None) -> Game:
    """A whole game consistent with ``obs``, its hidden cards dealt at random (or as ``dealt`` says).

    At any table: the cards hidden from the seat are exactly those it has
    not counted (``obs.unseen()``, from the table's deck); they are
    shuffled with ``rng`` into every other seat's hand (a partner's
    included, each of the size the observation shows, slots 1 onward as
    the hand tidy-up leaves them) and the undrawn deck.  The drawn part of
    the deck array holds the rest of the table's deck in random order, so
    the array stays a permutation of its 101 (or 106) cards.  Each other
    seat's counting is rebuilt from what it can see in this world: its
    ``num_seen`` exactly (every card not hidden from it), its ``num_gos``
    as if it had counted its hand on its own turn and the rest on
    another's (with the table's counts, :meth:`Memory.count`).  The
    world's generator is seeded from ``rng``.

    Asked for a coup fourré out of turn (R10), the seat sees where play
    resumes if it declines only at three and four seats, where it is two
    seats on from it (the attacker sat just after it); at six it is one of
    three seats, drawn with ``rng`` (the observation does not say which).

    ``dealt``: the hidden cards already in the order they are to be dealt
    (every other seat's hand in seat order, then the undrawn deck from its
    bottom), for a caller that deals them with inference of its own; they
    must be exactly the unseen cards.
    """
    seat = obs.seat
    table = obs.table
    players = obs.players
    seats = len(players)
    copies = table.copies
    unseen = obs.unseen()
    pool = [c for c in range(cards.NUM_CODES) for _ in range(unseen[c])]
    sizes = obs.hand_sizes
    others = [k for k in range(seats) if k != seat]
    hidden = sum(sizes[k] for k in others)
    if len(pool) != hidden + obs.deck_count:
        raise ValueError(
            f"the observation is inconsistent: {len(pool)} unseen cards "
            f"for hands of {hidden} and a deck of {obs.deck_count}"
        )
    if dealt is None:
        rng.shuffle(pool)
    else:
        if len(dealt) != len(pool):
            raise ValueError(f"{len(dealt)} cards dealt for {len(pool)} unseen")
        pool = dealt[:]
    pending = obs.pending_extension
    if obs.phase is Phase.EXTENSION and obs.to_move != seat:
        # Another seat is asked Extension? with the card that reached the
        # trip still in its hand: a distance card of the pool goes first.
        # (dealt in seat order: the mover's first card is at its offset)
        first = sum(sizes[k] for k in range(obs.to_move) if k != seat)
        i = next((i for i, c in enumerate(pool) if c <= cards.MILES_200), first)
        pool[first], pool[i] = pool[i], pool[first]
        pending = 1 if sizes[obs.to_move] < cards.HAND_SIZE else 0
    tableaus = [p.copy() for p in players]
    at = 0
    for k in others:
        n = sizes[k]
        hand = [EMPTY] * cards.HAND_SIZE
        first = 1 if n < cards.HAND_SIZE else 0
        hand[first : first + n] = pool[at : at + n]
        tableaus[k].hand = hand
        at += n
    undrawn = pool[at:]
    # The drawn part of the array: every card not undrawn, in random order.
    left = list(copies[: cards.NUM_CODES])
    for c in undrawn:
        left[c] -= 1
    drawn = [c for c in range(cards.NUM_CODES) for _ in range(left[c])]
    rng.shuffle(drawn)
    # Each other seat's counting: all it can see in this world.
    in_deck = [0] * cards.NUM_CODES
    for c in undrawn:
        in_deck[c] += 1
    held = [[0] * cards.NUM_CODES for _ in range(seats)]
    for k in range(seats):
        for c in tableaus[k].hand:
            if c != EMPTY:
                held[k][c] += 1
    memory: list[Memory] = []
    for k in range(seats):
        if k == seat:
            memory.append(obs.memory.copy())
            continue
        mem = Memory()
        hand = tableaus[k].hand
        for c in hand:
            mem.count(c, True, copies)
        for c in range(cards.NUM_CODES):
            visible = copies[c] - in_deck[c] - sum(held[j][c] for j in range(seats) if j != k)
            for _ in range(visible - mem.num_seen[c]):
                mem.count(c, False, copies)
        memory.append(mem)
    reaction = None
    if obs.phase is Phase.REACTION:
        steps = (2,) if seats <= 4 else (2, 3, 5)
        step = steps[0] if len(steps) == 1 else steps[rng.random() % len(steps)]
        reaction = (seat + step) % seats
    return Game(
        deck=undrawn + drawn,
        deck_count=obs.deck_count,
        discard=obs.discard,
        players=tableaus,
        trip_length=obs.trip_length,
        finished=obs.phase is Phase.HAND_OVER,
        to_move=obs.to_move,
        hand_starter=obs.hand_starter,
        order=obs.order,
        pending_extension=pending,
        memory=memory,
        rng=GlibcRandom(rng.random()),
        table=table,
        reaction=reaction,
    )


__all__ = ["Observation", "PublicView", "observe", "other", "public_view", "sample_world"]
