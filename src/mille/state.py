"""Game state: plain data, cheap to copy, trivially serialisable.

The fields mirror what 4.4BSD mille keeps (and saves), minus its display
caches, which belong to the front end.  Cards are plain ints (see
:mod:`mille.cards`); per-player and per-card tables are plain lists so that
``copy()`` is a handful of list slices, which matters to a searching
computer player that clones a position thousands of times per move.

What one player may see is separated from the hidden rest by
:meth:`Game.hidden_cards`: the other player's hand and the undrawn part of
the deck.
"""

from __future__ import annotations

from enum import IntEnum

from . import cards
from .record import Record
from .rng import GlibcRandom

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

HUMAN = 0
COMPUTER = 1


if TYPE_CHECKING:  # typing costs start-up time; only the type checker needs this
    from typing import Protocol

    class Shuffler(Protocol):
        """Anything with ``random.Random.shuffle``'s signature."""

        def shuffle(self, x: list[int]) -> None: ...


def other(player: int) -> int:
    return 1 - player


class SafetyStatus(IntEnum):
    """What a player knows of one safety (the computer's card counting)."""

    UNKNOWN = 0
    IN_HAND = 1
    PLAYED = 2


class Window(IntEnum):
    """Which score window layout the human asked for (saved with the game)."""

    SMALL = 0
    FULL = 1


#: The computer's starting "cards needed" estimates, by card code.  The
#: original keeps this table for the whole program run and never resets it.
INITIAL_NUM_NEED: tuple[int, ...] = (0, 0, 0, 0, 0, 2, 2, 2, 4, 3, 2, 2, 2, 10, 3, 1, 1, 1, 1, 0)


class Tableau(Record):
    """One player's hand and the cards in front of them."""

    __slots__ = (
        "hand",
        "battle",
        "speed",
        "can_go",
        "new_battle",
        "new_speed",
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
        new_battle: bool = False,
        new_speed: bool = False,
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
        #: The opponent put a hazard (limit) on this player since this player
        #: last drew: a matching safety played now is a coup fourré.
        self.new_battle = new_battle
        self.new_speed = new_speed
        #: Per safety: SafetyStatus (the human's are only ever 0 or PLAYED).
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
        return Tableau(
            self.hand[:],
            self.battle,
            self.speed,
            self.can_go,
            self.new_battle,
            self.new_speed,
            self.safety[:],
            self.coups[:],
            self.nummiles[:],
            self.mileage,
            self.hand_total,
            self.safety_score,
            self.coup_score,
            self.total,
            self.games,
        )

    def has_played(self, safety_card: int) -> bool:
        return self.safety[safety_card - cards.SAFETY_BASE] == SafetyStatus.PLAYED

    def knows(self, safety_card: int) -> bool:
        """In hand or played: the computer's ``!= S_UNKNOWN`` test."""
        return self.safety[safety_card - cards.SAFETY_BASE] != SafetyStatus.UNKNOWN



class Game(Record):
    """Everything about a game in progress.

    ``deck`` is the whole 101-card array in its current order; the undrawn
    cards are ``deck[:deck_count]`` and the next card drawn is
    ``deck[deck_count - 1]`` (the original deals from the high end).
    """

    __slots__ = (
        "deck",
        "deck_count",
        "discard",
        "players",
        "end",
        "finished",
        "play",
        "hand_start",
        "order",
        "window",
        "on_exit",
        "num_seen",
        "num_gos",
        "num_need",
        "rng",
    )

    def __init__(
        self,
        deck: list[int] | None = None,
        deck_count: int = 0,
        discard: int = cards.EMPTY,
        players: list[Tableau] | None = None,
        end: int = 700,
        finished: bool = False,
        play: int = HUMAN,
        hand_start: int = COMPUTER,
        order: bool = False,
        window: int = Window.SMALL,
        on_exit: bool = False,
        num_seen: list[int] | None = None,
        num_gos: int = 0,
        num_need: list[int] | None = None,
        rng: GlibcRandom | None = None,
    ) -> None:
        self.deck: list[int] = list(cards.INITIAL_DECK) if deck is None else deck
        self.deck_count = deck_count
        self.discard = discard
        self.players: list[Tableau] = [Tableau(), Tableau()] if players is None else players
        self.end = end
        self.finished = finished
        #: Whose move it is.
        self.play = play
        #: Who started the current hand; flips before each new hand, so the
        #: human starts the first hand of a run.
        self.hand_start = hand_start
        self.order = order
        self.window = window
        #: The game reached the end-of-hand prompts (a restore then deals anew).
        self.on_exit = on_exit
        #: The computer's card counting: cards seen this hand, by code.
        self.num_seen: list[int] = [0] * cards.NUM_TABLE if num_seen is None else num_seen
        self.num_gos = num_gos
        #: The computer's "cards needed" estimates; never reset, never saved.
        self.num_need: list[int] = list(INITIAL_NUM_NEED) if num_need is None else num_need
        self.rng = GlibcRandom() if rng is None else rng

    def copy(self, share_rng: bool = False) -> Game:
        """An independent copy (the generator is cloned unless shared)."""
        return Game(
            self.deck[:],
            self.deck_count,
            self.discard,
            [self.players[0].copy(), self.players[1].copy()],
            self.end,
            self.finished,
            self.play,
            self.hand_start,
            self.order,
            self.window,
            self.on_exit,
            self.num_seen[:],
            self.num_gos,
            self.num_need[:],
            self.rng if share_rng else self.rng.copy(),
        )

    @property
    def human(self) -> Tableau:
        return self.players[HUMAN]

    @property
    def computer(self) -> Tableau:
        return self.players[COMPUTER]

    def hidden_cards(self, viewer: int) -> list[int]:
        """Cards ``viewer`` cannot see: the other hand and the undrawn deck."""
        hidden = [c for c in self.players[other(viewer)].hand if c != cards.EMPTY]
        hidden.extend(self.deck[: self.deck_count])
        return hidden

    def determinized(self, viewer: int, shuffler: Shuffler) -> Game:
        """A copy in which what ``viewer`` cannot see is dealt again at random.

        The other player's hand and the undrawn deck trade cards at random;
        everything ``viewer`` can see (or has counted) stays.  The deck array
        stays a permutation of the 101 cards: a card that moves from the
        undrawn part into the hand takes the place, in the drawn part of the
        array, of the card it replaced.  A searching computer player samples
        positions this way (the original's player never looks ahead).
        """
        game = self.copy()
        hand = game.players[other(viewer)].hand
        deck = game.deck
        count = game.deck_count
        slots = [i for i, c in enumerate(hand) if c != cards.EMPTY]
        pool = [hand[i] for i in slots] + deck[:count]
        shuffler.shuffle(pool)
        for i, card in zip(slots, pool, strict=False):
            old = hand[i]
            if card != old:
                # ``old`` is now undrawn and ``card`` drawn: swap their codes
                # in the drawn part of the array to keep the multiset.
                j = deck.index(old, count)
                deck[j] = card
                hand[i] = card
        deck[:count] = pool[len(slots) :]
        return game
