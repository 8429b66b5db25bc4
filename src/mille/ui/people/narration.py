"""The table's story: what everyone at the table has seen, told in numbered lines, kept for who comes back to it.

The host tells each move every seat saw, each line of talk and each piece
of news (who came, who went, who took a seat, who watches) as one line of
the table's story (:class:`Story`), numbered from 1 for the whole run, in
words nobody's seat colours (:func:`move_text`: ``bob (seat 2, side B)
plays Stop on side A.``; never "you": the line is the same for every
listener).  A person who takes their seat again after a drop, and a
watcher who arrives, are sent the lines they missed: those after the last
number they heard (their knock's ``since``), or the hand's from its start
(docs/people.md, "Come back to what you missed").  The story of the hand
in play and of the last one finished is kept; older lines are dropped, and
a catch-up that reaches past them says so.
"""

from __future__ import annotations

from ...engine import cards
from ...engine.rules import MoveType
from ...engine.state import EXTENDED_TRIP, Game
from .messages import Entry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...engine.driver import Event

__all__ = ["MAX_KEPT", "Story", "move_text", "seat_words"]

#: The most lines kept (a hand is some 200 moves; talk is limited in rate): older ones are dropped first.
MAX_KEPT = 2000

_LETTERS = "ABC"


def seat_words(seat: int, game: Game, names: dict[int, str]) -> str:
    """A seat as the story names it: a person by name (``bob``; ``bob (seat 2, side B)`` at a larger table), a
    computer as ``the computer`` (``seat 2 (side B)``)."""
    if game.table.seats == 2:
        return names.get(seat, "the computer")
    where = f"seat {seat + 1}, side {_LETTERS[game.table.side(seat)]}"
    if seat in names:
        return f"{names[seat]} ({where})"
    return f"seat {seat + 1} (side {_LETTERS[game.table.side(seat)]})"


def _side_words(side: int, game: Game, names: dict[int, str]) -> str:
    if game.table.seats == 2:
        return names.get(side, "the computer")
    return f"side {_LETTERS[side]}"


def move_text(event: Event, game: Game, names: dict[int, str]) -> str | None:
    """One move as the story tells it (``game``: the table after it); None for a move it leaves out (a draw, a pass:
    the deck's count and the turn tell them)."""
    kind, card = event.kind, event.card
    who = seat_words(event.seat, game, names)
    name = cards.name(card)
    if kind is MoveType.PLAY:
        side = game.table.side(event.seat)
        if cards.is_distance(card):
            return f"{who} plays {name} miles."
        if event.target is not None:
            return f"{who} plays {name} on {_side_words(event.target, game, names)}."
        if cards.is_safety(card) and game.players[side].coups[card - cards.SAFETY_BASE]:
            return f"{who} plays {name}: coup fourre."
        return f"{who} plays {name}."
    if kind is MoveType.DISCARD:
        return f"{who} discards {name}{' miles' if cards.is_distance(card) else ''}."
    if kind is MoveType.EXTEND:
        return f"{who} extends the trip to {EXTENDED_TRIP} miles."
    if kind is MoveType.NO_EXTENSION:
        return f"{who} does not extend the trip."
    return None


class Story:
    """The numbered lines of the table's story, this hand's and the last finished one's (at most :data:`MAX_KEPT`)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        #: The number the next line gets.
        self.next = 1
        #: The number of the first line of the hand in play, and of the hand before it.
        self.hand_from = 1
        self._last_from = 1

    @property
    def last(self) -> int:
        """The number of the last line told (0: none yet)."""
        return self.next - 1

    def tell(self, text: str, event: Event | None = None) -> Entry:
        """A line added to the story (its number the next); the oldest dropped past :data:`MAX_KEPT`."""
        entry = Entry(self.next, text, event)
        self.next += 1
        self.entries.append(entry)
        if len(self.entries) > MAX_KEPT:
            del self.entries[: len(self.entries) - MAX_KEPT]
        return entry

    def new_hand(self) -> None:
        """A hand is dealt: the story of the hand before the last is dropped."""
        self._last_from, self.hand_from = self.hand_from, self.next
        self.entries = [e for e in self.entries if e.n >= self._last_from]

    def since(self, heard: int | None) -> tuple[list[Entry], bool]:
        """The lines after ``heard`` (None: this hand's from its start), and whether none of them was dropped.

        A number this story has not reached (heard of another run of the
        host's, before an adjournment) counts as none.
        """
        if heard is not None and heard >= self.next:
            heard = None
        start = self.hand_from if heard is None else heard + 1
        first = self.entries[0].n if self.entries else self.next
        return [e for e in self.entries if e.n >= start], start >= first
