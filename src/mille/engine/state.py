"""Game state: plain data, cheap to copy, trivially serialisable.

The fields mirror what 4.4BSD mille keeps (and saves), minus its display
caches and the score-window setting, which belong to the front end, and minus
the computer's private "cards needed" estimates, which belong to the
computer player (:mod:`mille.players.bsd`).  Cards are plain ints (see
:mod:`mille.engine.cards`); per-player and per-card tables are plain lists so that
``copy()`` is a handful of list slices, which matters to a searching player
that clones a position thousands of times per move.

A :class:`Tableau` holds only what lies on the table for everyone to see
(piles, safeties played, mileage, scores) plus the player's hand; what one
seat may know is cut out of a game by :func:`mille.engine.observation.observe`.
Each seat has its own card-counting :class:`Memory` (the original kept one,
for the computer), updated by the rules as cards come into view.
"""

from __future__ import annotations

from . import cards
from .record import FrozenRecord, Record
from .rng import GlibcRandom

#: A seat at the table, 0 or 1.  The engine presumes nothing about who sits
#: where: seat 0 moves first in the first hand of a run (the original's
#: ``PLAYER``), seat 1 second (its ``COMP``).  The interactive game seats
#: the person at 0 and the computer at 1 (:mod:`mille.ui.layout`); a match
#: seats either player anywhere.
Seat = int
#: A hand slot: 0 is the ``P`` slot (the card just picked), 1-6 the others.
Slot = int

SEATS: tuple[Seat, Seat] = (0, 1)

#: The trip length each hand starts with, and the extended one (§3.7).
TRIP = 700
EXTENDED_TRIP = 1000


#: The points that end a game (§5.4); a table may shorten it (tests, matches).
GAME_POINTS = 5000


def other(seat: Seat) -> Seat:
    return 1 - seat


class Table(FrozenRecord):
    """The game's own parameters: who sits how, with which deck, to where.

    OpenSpiel's game parameters, held by the :class:`Game` itself, so that
    every rule reads them from the game it applies to (``rules.game_over``,
    ``scoring.hand_result``) and no caller threads them through.  The
    configurations are those of ``table-rules.md`` R1-R15 (see
    :func:`table`): ``seats`` in turn order, ``sides`` of them (a seat's
    side is ``seat % sides``, R2), the deck's ``copies`` of each card (R3),
    the ``trip`` and whether it may be ``extension``-ed to
    :data:`EXTENDED_TRIP` (R7), the ``game_points`` that end a game (R14),
    and ``parker``: Parker's own Extension bonus (R15), an option.  The
    two-seat table is the original's: :data:`TWO`.
    """

    __slots__ = (
        "seats",
        "sides",
        "copies",
        "deck",
        "trip",
        "extension",
        "game_points",
        "parker",
        "deck_size",
        "after",
    )
    seats: int
    sides: int
    copies: tuple[int, ...]
    deck: tuple[int, ...]
    deck_size: int
    trip: int
    extension: bool
    game_points: int
    parker: bool
    #: Derived: ``after[seat]``, the seat whose turn follows (its left), read at the end of every move.
    after: tuple[int, ...]

    def __init__(
        self,
        seats: int = 2,
        sides: int = 2,
        copies: tuple[int, ...] = cards.COPIES,
        trip: int = 700,
        extension: bool = True,
        game_points: int = GAME_POINTS,
        parker: bool = False,
    ) -> None:
        deck = cards.INITIAL_DECK if copies == cards.COPIES else cards.initial_deck(copies)
        self._init(
            seats=seats,
            sides=sides,
            copies=copies,
            deck=deck,
            trip=trip,
            extension=extension,
            game_points=game_points,
            parker=parker,
            deck_size=len(deck),
            after=tuple((seat + 1) % seats for seat in range(seats)),
        )

    def side(self, seat: Seat) -> int:
        """The side ``seat`` plays for (R2: partners alternate with the other sides)."""
        return seat % self.sides

    def partners(self, side: int) -> range:
        """The seats of ``side``, in turn order."""
        return range(side, self.seats, self.sides)


#: The tables of R1, by number of seats.
TABLE_SEATS: tuple[int, ...] = (2, 3, 4, 6)


def table(seats: int = 2, *, game_points: int = GAME_POINTS, parker: bool = False) -> Table:
    """The table of ``seats`` players (R1, R3, R7): 2 and 3 each for themselves,
    4 in two partnerships and 6 in three.

    2 and 3 seats: BSD's 101-card deck, 700 miles with the Extension; 4: the
    106-card deck, 1000 miles, no Extension; 6: 106 cards, 700 with the
    Extension.

    >>> table(4).sides, table(4).deck_size, table(4).trip, table(4).extension
    (2, 106, 1000, False)
    >>> table(2) == TWO
    True
    """
    if seats not in TABLE_SEATS:
        raise ValueError(f"a table has 2, 3, 4 or 6 seats, not {seats}")
    sides = 2 if seats == 4 else 3 if seats in (3, 6) else 2
    copies = cards.FULL_COPIES if seats >= 4 else cards.COPIES
    return Table(seats, sides, copies, 1000 if seats == 4 else 700, seats != 4, game_points, parker)


#: The original's table: two seats, each its own side, BSD's deck and trip.
TWO = Table()


class SafetyStatus:
    """What a player knows of one safety (the original's ``S_`` values).

    On a :class:`Tableau` only ``UNKNOWN`` and ``PLAYED`` occur (the table
    shows a safety once it is played); ``IN_HAND`` is what the computer
    player's procedure derives for the safeties in its own hand.  Plain
    ints in a namespace (an Enum class costs start-up time).
    """

    UNKNOWN = 0
    IN_HAND = 1
    PLAYED = 2


class Memory(Record):
    """One seat's card counting (the original's ``Numseen`` and ``Numgos``, §6.1).

    ``num_seen[code]`` counts the cards of each kind this seat has seen this
    hand: the cards dealt to it and drawn by it, and the cards the other seat
    played or discarded.  So ``COPIES[code] - num_seen[code]`` is exactly how
    many of that card are hidden from it (in the other hand or the deck).
    ``num_gos`` is the original's running estimate of the Go cards it will
    want; it moves only while this seat is the one to move.
    """

    __slots__ = ("num_seen", "num_gos")

    def __init__(self, num_seen: list[int] | None = None, num_gos: int = 0) -> None:
        self.num_seen: list[int] = [0] * cards.NUM_TABLE if num_seen is None else num_seen
        self.num_gos = num_gos

    def copy(self) -> Memory:
        return Memory(self.num_seen[:], self.num_gos)

    def count(self, card: int, own_turn: bool, copies: tuple[int, ...] = cards.COPIES) -> None:
        """Note a card now seen (the original's ``account``, §6.1).

        ``copies``: the table's deck (``Table.copies``), whose counts the
        unseen copies of a safety's hazard are taken from: the original's
        101 cards by default, 106 at four and six seats (where the 101-card
        counts once made ``num_gos`` run below zero).
        """
        if card == cards.EMPTY:
            return
        self.num_seen[card] += 1
        if own_turn and MOVES_NUM_GOS[card]:
            if card >= cards.SAFETY_BASE:  # a safety but Right of Way: its hazard's unseen copies
                hazard = cards.OPPOSITE[card]
                self.num_gos += copies[hazard] - self.num_seen[hazard]
            else:  # a hazard
                self.num_gos += 1


#: Per card: counting it on the counter's own turn moves ``num_gos``
#: (:meth:`Memory.count`: the safeties but Right of Way, and the hazards);
#: for every other card only ``num_seen`` moves, which the draw, the hot
#: path of every rollout, and the other seat's count of a card played or
#: discarded do without the call.
MOVES_NUM_GOS: tuple[bool, ...] = tuple(
    cards.EXTRA_TANK <= c < cards.RIGHT_OF_WAY or cards.OUT_OF_GAS <= c <= cards.STOP for c in range(cards.NUM_CODES)
)


class Tableau(Record):
    """One player's hand and the cards in front of them."""

    __slots__ = (
        "hand",
        "battle",
        "speed",
        "can_go",
        "fresh_hazard",
        "fresh_limit",
        "safety",
        "coups",
        "nummiles",
        "mileage",
        "hand_total",
        "safety_score",
        "coup_score",
        "total",
        "games",
    )

    def __init__(
        self,
        hand: list[int] | None = None,
        battle: int = cards.EMPTY,
        speed: int = cards.EMPTY,
        can_go: bool = False,
        fresh_hazard: bool = False,
        fresh_limit: bool = False,
        safety: list[int] | None = None,
        coups: list[bool] | None = None,
        nummiles: list[int] | None = None,
        mileage: int = 0,
        hand_total: int = 0,
        safety_score: int = 0,
        coup_score: int = 0,
        total: int = 0,
        games: int = 0,
    ) -> None:
        self.hand: list[int] = [cards.EMPTY] * cards.HAND_SIZE if hand is None else hand
        self.battle = battle
        self.speed = speed
        self.can_go = can_go
        #: The opponent put a hazard (a limit) on this player since this
        #: player last drew: the matching safety played now is a coup fourré
        #: (the original's ``new_battle`` and ``new_speed``).
        self.fresh_hazard = fresh_hazard
        self.fresh_limit = fresh_limit
        #: Per safety: SafetyStatus.PLAYED once played, else UNKNOWN.
        self.safety: list[int] = [0] * cards.NUM_SAFETIES if safety is None else safety
        self.coups: list[bool] = [False] * cards.NUM_SAFETIES if coups is None else coups
        #: Number of 25, 50, 75, 100 and 200 cards played this hand.
        self.nummiles: list[int] = [0] * cards.NUM_MILES if nummiles is None else nummiles
        self.mileage = mileage
        self.hand_total = hand_total
        self.safety_score = safety_score
        self.coup_score = coup_score
        self.total = total
        self.games = games

    def copy(self) -> Tableau:
        # Filled slot by slot: a searching player copies tableaus millions of
        # times, and __init__'s defaults and checks cost a third of the time.
        t = _new_tableau(Tableau)
        t.hand = self.hand[:]
        t.battle = self.battle
        t.speed = self.speed
        t.can_go = self.can_go
        t.fresh_hazard = self.fresh_hazard
        t.fresh_limit = self.fresh_limit
        t.safety = self.safety[:]
        t.coups = self.coups[:]
        t.nummiles = self.nummiles[:]
        t.mileage = self.mileage
        t.hand_total = self.hand_total
        t.safety_score = self.safety_score
        t.coup_score = self.coup_score
        t.total = self.total
        t.games = self.games
        return t


_new_tableau = object.__new__


class Game(Record):
    """Everything about a game in progress.

    ``deck`` is the whole 101-card array in its current order; the undrawn
    cards are ``deck[:deck_count]`` and the next card drawn is
    ``deck[deck_count - 1]`` (the original deals from the high end).

    ``pending_extension`` is set while the player to move is being asked
    ``Extension?``: the slot of the mileage card that reached 700, which is
    counted (mileage, points) but still in the hand, exactly as in the
    original at that moment; :func:`mille.engine.rules.push` with an ``EXTEND`` or
    ``NO_EXTENSION`` move finishes it.  The value ``-1`` means the card has
    already left the hand (a version-1 save made at the question).

    Any table (``table``, R1-R15 of ``table-rules.md``) in one shape, the
    two-seat game being the table of two: ``players`` is indexed by seat,
    and ``players[seat].hand`` is that seat's hand; the tableau of a side
    (the piles, safeties, mileage and scores it shares, R5) is
    ``players[side]``, the side's first seat's, so ``players[seat %
    table.sides]`` is the tableau a seat plays on.  At two and three seats
    every seat is its own side and nothing more is needed; at four and six,
    the tableau fields of the seats past the sides are unused (those seats
    hold only their hands).  ``reaction`` is set while the seat to move is
    asked for a coup fourré out of turn (R10): the seat play resumes at if
    it declines.  ``extender``: with Parker's bonus (R15), the side that
    called the Extension; None before any call, and always without it.
    ``spent``: the sides (a bit each) whose coup fourré was let pass out of
    turn: the chance is gone, but the side's hazard still shows as fresh as
    if nobody had held the safety, since the pass is that seat's secret
    (issue 43); a secret of the game's, as the deck is, and never seen.
    """

    __slots__ = (
        "deck",
        "deck_count",
        "discard",
        "players",
        "trip_length",
        "finished",
        "to_move",
        "hand_starter",
        "order",
        "pending_extension",
        "memory",
        "rng",
        "table",
        "reaction",
        "extender",
        "spent",
    )

    def __init__(
        self,
        deck: list[int] | None = None,
        deck_count: int = 0,
        discard: int = cards.EMPTY,
        players: list[Tableau] | None = None,
        trip_length: int | None = None,
        finished: bool = True,
        to_move: Seat = 0,
        hand_starter: Seat | None = None,
        order: bool = False,
        pending_extension: int | None = None,
        memory: list[Memory] | None = None,
        rng: GlibcRandom | None = None,
        table: Table = TWO,
        reaction: Seat | None = None,
        extender: int | None = None,
        spent: int = 0,
    ) -> None:
        #: The game's parameters (seats, sides, deck, trip, game points).
        self.table = table
        self.deck: list[int] = list(table.deck) if deck is None else deck
        self.deck_count = deck_count
        self.discard = discard
        self.players: list[Tableau] = [Tableau() for _ in range(table.seats)] if players is None else players
        #: 700, or 1000 once the trip has been extended (the original's ``End``).
        self.trip_length = table.trip if trip_length is None else trip_length
        #: The hand is over, or none has been dealt yet.
        self.finished = finished
        self.to_move = to_move
        #: Who started the current hand; moves one seat left before each new
        #: hand (two seats: flips), so seat 0 starts the first hand of a run.
        self.hand_starter = table.seats - 1 if hand_starter is None else hand_starter
        #: Seat 0 keeps its hand sorted (the original's ``O`` command, which
        #: only its human player had).
        self.order = order
        self.pending_extension = pending_extension
        #: Each seat's card counting, indexed by seat.
        self.memory: list[Memory] = [Memory() for _ in range(table.seats)] if memory is None else memory
        #: The game's generator: the shuffle, and in the interactive game the
        #: dice of the original's computer player at seat 1 (§2.2).
        self.rng = GlibcRandom() if rng is None else rng
        self.reaction = reaction
        self.extender = extender
        self.spent = spent

    def copy(self, share_rng: bool = False) -> Game:
        """An independent copy (the generator is cloned unless shared)."""
        players = self.players
        memory = self.memory
        if len(players) == 2:  # (every rollout of the expert starts from a copy)
            m0, m1 = memory
            tableaus = [players[0].copy(), players[1].copy()]
            memories = [Memory(m0.num_seen[:], m0.num_gos), Memory(m1.num_seen[:], m1.num_gos)]
        else:
            tableaus = [p.copy() for p in players]
            memories = [Memory(m.num_seen[:], m.num_gos) for m in memory]
        return Game(
            self.deck[:],
            self.deck_count,
            self.discard,
            tableaus,
            self.trip_length,
            self.finished,
            self.to_move,
            self.hand_starter,
            self.order,
            self.pending_extension,
            memories,
            self.rng if share_rng else self.rng.copy(),
            self.table,
            self.reaction,
            self.extender,
            self.spent,
        )

    def hidden_cards(self, viewer: Seat) -> list[int]:
        """Cards ``viewer`` cannot see: the other hands and the undrawn deck."""
        hidden = [c for k, p in enumerate(self.players) if k != viewer for c in p.hand if c != cards.EMPTY]
        hidden.extend(self.deck[: self.deck_count])
        return hidden
