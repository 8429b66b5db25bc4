"""Plain mode's sentences: the game said in words, one line at a time, at every table, to one listener.

A :class:`Speaker` says everything plain mode says of the game (each
event, the board for ``r``, the score for ``w``, the hand, the turn line
and what may be played at full detail, the end of a hand, the welcome) at
any table, from the seat it speaks for (``me``), through a
:class:`Naming`: the policy that says who each seat is and how a side is
said.  It follows the house rules of the games blind players use (the
reference ``accessible-play.md`` §1, §4): each event names who acted and
gives the state it leaves ("The computer plays 75 miles and is at 325
miles."), running totals rather than changes, scoring explained row by
row.  Card names and the messages are the original's (reference §1.1,
§4), the score rows keep their labels (§8.3); everything is ASCII, with
nothing carried by layout alone: what the board shows by where it is
drawn is said here in words.

Only what the listener may see is said: their own hand, every side's
tableau, how many cards each hand holds (at the larger tables), the
deck's count and the discard pile; another seat's hand never, nor a card
it draws.

**The naming policies** (:meth:`Naming.at` makes each from the table and
the people's names):

* alone against the computer at two seats, ``Naming.at(table(2))``: "you"
  and "the computer", "it" for the computer's side, the score as ``you
  700, computer 600``: the sentences plain mode has always said;
* alone at 3, 4 or 6 seats, ``Naming.at(table(n))``: every seat by its
  number and its side by letter (``seat 2 (side B)``, ``your partner (seat
  3)``), the sides as ``side A (yours)``, ``side B``, the board side by side
  with every hand's size and whose turn it is;
* with people, ``Naming.at(table, {1: "bob"})``: each person by name
  (escaped with :func:`mille.files.safeio.shown` and cut by whoever builds
  the policy: the speaker says a name as it is given), ``bob`` at two seats,
  ``bob (seat 2, side B)`` and ``your partner bob (seat 3)`` at the larger
  tables; the computers as above.  A pronoun never stands for a person:
  ``bob needs Go to start``, never ``it``.

Seats and sides keep the host's numbering for every listener: seat 1 is
the host's seat (seat 0 in the code) and side A its side.  A guest at seat
``k`` is spoken to by ``Speaker(naming, me=k)`` on a game whose seats are
the host's (its own hand there, the others' counted), never on a table
turned to it.

**What a face is given**: a :class:`Naming` and the seat ``me``
(:class:`mille.ui.plain.app.PlainFace`'s ``naming`` and ``me``; without
a naming the face uses ``Naming.at(game.table)``, alone at its table).
The face asks its :class:`Speaker` for every sentence; it never looks at
the table's size.  So:

* alone at two seats or at N: ``PlainFace(term, game, window)``;
* a host with people: ``PlainFace(term, game, window,
  naming=Naming.at(game.table, {seat: shown(name)[:width], ...}))``;
* a guest at seat ``k``: ``PlainFace(term, view, window, naming=Naming.at(
  view.table, {0: host, ...}), me=k)``, where ``view`` is the game as that
  seat sees it, in the host's numbering.

The sentences are the same at every table; the policy decides the
two-seat words where a sentence must stay what plain mode said alone
against the computer (a side said as its one seat, "and is at 325 miles",
"It is the computer's move.") and the larger tables' (a side by its
letter, ": side B is at 325 miles", every hand's size on the board).
"""

from __future__ import annotations

from ...engine import cards, rules, scoring
from ...engine.cards import (
    EMPTY,
    END_OF_LIMIT,
    GO,
    HAND_SIZE,
    MILES,
    OPPOSITE,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SPEED_LIMIT,
    STOP,
)
from ...engine.record import FrozenRecord
from ...engine.state import EXTENDED_TRIP, Game, SafetyStatus, Table, Tableau

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "SCORE_ROWS",
    "Naming",
    "Speaker",
    "card_words",
    "moved_sentence",
    "needs",
    "score_values",
    "side_letter",
]

_PLAYED: int = SafetyStatus.PLAYED
_ROW_INDEX = RIGHT_OF_WAY - SAFETY_BASE
#: The hazards a safety keeps away, in words (Right of Way keeps two, §1.2).
_SAFE_FROM = {
    cards.EXTRA_TANK: "Out of Gas",
    cards.PUNCTURE_PROOF: "Flat Tire",
    cards.DRIVING_ACE: "Accident",
    RIGHT_OF_WAY: "Stop and Speed Limit",
}
_LETTERS = "ABC"


def side_letter(side: int) -> str:
    """A side's letter: side 0 is A (the host's), 1 is B, 2 is C."""
    return _LETTERS[side]


class Naming(FrozenRecord):
    """How plain mode names the seats: each seat's person or computer, and how a side is said.

    ``names`` holds, by seat (the host's numbering), a person's name,
    already escaped and cut, or None for a computer; the listener's own
    seat is "you" whatever it holds.  ``lettered``: a side is said by its
    letter and a seat by its number (``side B``, ``seat 2 (side B)``), as at
    the larger tables; False: each side is said as its one seat (``you``,
    ``the computer``, ``bob``), the two-seat words.  Made by :meth:`at`.
    """

    __slots__ = ("names", "lettered")
    names: tuple[str | None, ...]
    lettered: bool

    def __init__(self, names: tuple[str | None, ...], lettered: bool) -> None:
        self._init(names=tuple(names), lettered=lettered)

    @classmethod
    def at(cls, table: Table, people: Mapping[int, str] | None = None) -> Naming:
        """The policy at ``table`` with ``people`` (seat -> name, escaped and cut) and computers in the other seats.

        At two seats a side is its one player and is said as them ("you",
        "the computer", "bob"); at 3, 4 and 6 seats sides have letters and
        seats numbers.
        """
        people = people or {}
        return cls(tuple(people.get(seat) for seat in range(table.seats)), table.seats > 2)


def card_words(card: int) -> str:
    """A card in words: a distance card as ``75 miles`` (a bare ``75`` is easily misheard), else its name."""
    if cards.is_distance(card):
        return f"{MILES[card]} miles"
    return cards.name(card) or "nothing"


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def _listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _agree(plain: str, you: bool) -> str:
    """``plain`` agreeing with its subject: ``you play``, ``it plays`` (``be``, ``have``, ``do`` too)."""
    if you:
        return {"be": "are"}.get(plain, plain)
    irregular = {"be": "is", "have": "has", "do": "does"}
    if plain in irregular:
        return irregular[plain]
    return plain + ("es" if plain.endswith(("s", "sh", "ch")) else "s")


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


# --------------------------------------------------------------------------
# A side's state (§1.3, §4): can it move, and if not what does it need


def needs(pp: Tableau) -> list[str]:
    """The cards ``pp`` needs before it can play mileage, in order (empty: it can move).

    A battle hazard needs its remedy and then Go, unless Right of Way is
    played (it counts as Go for the remedies, §4.6); Stop, a remedy or an
    empty pile need Go (§4.3).
    """
    if pp.can_go:
        return []
    battle = pp.battle
    row = pp.safety[_ROW_INDEX] == _PLAYED
    if cards.OUT_OF_GAS <= battle <= cards.ACCIDENT:
        return [cards.name(OPPOSITE[battle])] + ([] if row else ["Go"])
    return ["Go"]


#: A battle hazard's effect in words: the verb and what follows it.
_STOPPED = {
    cards.OUT_OF_GAS: ("be", "out of gas"),
    cards.FLAT_TIRE: ("have", "a flat tire"),
    cards.ACCIDENT: ("have", "had an accident"),
    STOP: ("be", "stopped"),
}


def _state(pp: Tableau, subject: str, you: bool) -> str:
    """Whether the side can move, and what it needs if not: ``you have had an accident and need Repairs, then Go``."""
    limited = pp.speed == SPEED_LIMIT
    if pp.can_go:
        text = f"{subject} can move"
        if limited:
            text += ", 50 miles a card at most"
        return text
    wanted = ", then ".join(needs(pp))
    battle = pp.battle
    if cards.OUT_OF_GAS <= battle <= STOP:
        be, what = _STOPPED[battle]
        text = f"{subject} {_agree(be, you)} {what} and {_agree('need', you)} {wanted}"
    elif battle == EMPTY:
        text = f"{subject} {_agree('need', you)} {wanted} to start"
    else:
        text = f"{subject} {_agree('need', you)} {wanted}"
    if limited:
        text += "; limited to 50 miles a card"
    return text


def _miles_played(pp: Tableau) -> str:
    """The distance cards played, as the Miles window lists them (§8.4): ``25, 25, 100 and 200``."""
    played = [cards.NAMES[i] for i in range(cards.NUM_MILES) for _ in range(pp.nummiles[i])]
    return _listing(played)


def _safeties(pp: Tableau) -> str:
    named = []
    for i in range(cards.NUM_SAFETIES):
        if pp.safety[i] == _PLAYED:
            name = cards.NAMES[SAFETY_BASE + i]
            named.append(name + " (coup fourre)" if pp.coups[i] else name)
    return ", ".join(named) if named else "none"


# --------------------------------------------------------------------------
# The score window (§8.3, §5)

#: The rows of the score window, in its order, by their labels.
SCORE_ROWS = (
    "Milestones Played",
    "Each Safety",
    "All 4 Safeties",
    "Each Coup Fourre",
    "Trip Completed",
    "Safe Trip",
    "Delayed Action",
    "Extension",
    "Shut-Out",
    "Hand Total",
    "Overall Total",
    "Games",
)
_BONUS_ROWS = SCORE_ROWS[4:9]
_BONUS_POINTS = (
    scoring.TRIP_BONUS,
    scoring.SAFE_TRIP_BONUS,
    scoring.DELAYED_ACTION_BONUS,
    scoring.EXTENSION_BONUS,
    scoring.SHUT_OUT_BONUS,
)
_BONUS_REASONS = {
    "Trip Completed": "{who} completed the trip of {trip} miles",
    "Safe Trip": "{who} completed it without a 200",
    "Delayed Action": "{who} completed it after the deck ran out",
    "Extension": "{who} completed the extended trip",
    "Shut-Out": "{other} had no miles",
}


def score_values(game: Game, side: int) -> dict[str, int]:
    """Each row's figure for ``side``, as the full score window shows it (bonuses only once the hand is over)."""
    pp = game.players[side]
    values = {
        "Milestones Played": pp.mileage,
        "Each Safety": pp.safety_score,
        "All 4 Safeties": scoring.ALL_SAFETIES_BONUS
        if pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS
        else 0,
        "Each Coup Fourre": pp.coup_score,
    }
    earned = scoring.end_of_hand_bonuses(game, side).rows() if game.finished else (False,) * 5
    for label, got, points in zip(_BONUS_ROWS, earned, _BONUS_POINTS):
        values[label] = points if got else 0
    values["Hand Total"] = pp.hand_total
    values["Overall Total"] = pp.total
    values["Games"] = pp.games
    return values


def moved_sentence(before: list[int], played: int, after: list[int]) -> str:
    """Where the hand's cards went after a play or discard from slot ``played`` ('' if none moved).

    The original closes the hole a card leaves with the lowest card in the
    hand, usually the one just picked in the P slot (§3.6): on the board it
    is seen to move; a player who remembers the slots hears it here
    (``75 miles moves to slot 3.``).  A sorted hand (``o``) is not followed.
    """
    left = before[:]
    left[played] = EMPTY
    moved = [
        f"{card_words(after[slot])} moves to slot {slot}"
        for slot in range(1, len(after))
        if after[slot] != EMPTY and after[slot] != left[slot]
    ]
    return _listing(moved) + "." if moved else ""


class Speaker:
    """Plain mode's sentences for the listener at seat ``me``, the seats named by ``naming`` (see the module)."""

    __slots__ = ("naming", "me")

    def __init__(self, naming: Naming, me: int = 0) -> None:
        self.naming = naming
        self.me = me

    @property
    def lettered(self) -> bool:
        """Sides are said (and typed, ``u 3 b``) by their letters."""
        return self.naming.lettered

    # ----------------------------------------------------------------------
    # Who: the seats, and the sides

    def _person(self, seat: int) -> str | None:
        names = self.naming.names
        return names[seat] if seat < len(names) else None

    def who(self, game: Game, seat: int, capital: bool = False) -> str:
        """The seat as a subject or object: ``you``, ``the computer``, ``bob``; ``seat 2 (side B)``,
        ``your partner bob (seat 3)``, ``bob (seat 2, side B)`` where sides have letters.  A name is never capitalised.
        """
        if seat == self.me:
            text = "you"
        else:
            person = self._person(seat)
            if not self.lettered:
                if person is not None:
                    return person
                text = "the computer"
            else:
                tab = game.table
                number, side = seat + 1, tab.side(seat)
                if side == tab.side(self.me):
                    text = f"your partner {person} (seat {number})" if person else f"your partner (seat {number})"
                elif person is not None:
                    return f"{person} (seat {number}, side {side_letter(side)})"
                else:
                    text = f"seat {number} (side {side_letter(side)})"
        return _capital(text) if capital else text

    def _pronoun(self, seat: int, capital: bool = False) -> str:
        """The seat said again: ``you``, ``it`` for a computer, a person by their name (never a pronoun)."""
        if seat == self.me:
            text = "you"
        else:
            person = self._person(seat)
            if person is not None:
                return person
            text = "it"
        return _capital(text) if capital else text

    def _possessive(self, seat: int) -> str:
        if seat == self.me:
            return "your"
        person = self._person(seat)
        return f"{person}'s" if person is not None else "its"

    def side_name(self, game: Game, side: int) -> str:
        """A side named the first time: ``side A (yours)``, ``side B``; a side of one seat as that seat (``you``)."""
        if not self.lettered:
            return self.who(game, side)
        mine = side == game.table.side(self.me)
        return f"side {side_letter(side)}" + (" (yours)" if mine else "")

    def _side_label(self, game: Game, side: int) -> str:
        """A side said short: ``side A``; a side of one seat as that seat."""
        return f"side {side_letter(side)}" if self.lettered else self.who(game, side)

    def _side_again(self, side: int) -> tuple[str, bool]:
        """A side just named, said again (a hazard's target): ``it``, ``you``, a person's name; and whether it is
        you."""
        if self.lettered:
            return "it", False
        return self._pronoun(side), side == self.me

    def _own_side(self, game: Game, side: int) -> tuple[str, bool]:
        """The mover's side, after the mover: ``side B`` where sides have letters, else the mover again."""
        if self.lettered:
            return f"side {side_letter(side)}", False
        return self._pronoun(side), side == self.me

    def _column(self, side: int) -> str:
        """A side as a figure's label (the score, the totals): ``you``, ``computer``, ``bob``, ``side B``."""
        if self.lettered:
            return f"side {side_letter(side)}"
        if side == self.me:
            return "you"
        person = self._person(side)
        return person if person is not None else "computer"

    def _sides(self, game: Game) -> list[int]:
        """Every side, yours first, the others in turn order after it."""
        sides = game.table.sides
        mine = game.table.side(self.me)
        return [(mine + k) % sides for k in range(sides)]

    def _seats(self, game: Game) -> list[int]:
        """Every seat, yours first, the others in turn order after it."""
        seats = game.table.seats
        return [(self.me + k) % seats for k in range(seats)]

    def _figures(self, game: Game, values: list[int]) -> str:
        """``you 150, computer 325``; ``side A 150, side B 325, side C 0`` (``values`` in :meth:`_sides`' order)."""
        return ", ".join(f"{self._column(side)} {value}" for side, value in zip(self._sides(game), values))

    # ----------------------------------------------------------------------
    # The board (the ``r`` key) and the hand

    def side_line(self, game: Game, side: int) -> str:
        """One side of the board in one line: who, miles, piles, safeties, and what it needs (§8.2)."""
        pp = game.players[side]
        miles = f"{pp.mileage} miles of {game.trip_length}"
        played = _miles_played(pp)
        if played:
            miles += f" ({played})"
        battle = cards.name(pp.battle) or "empty"
        speed = cards.name(pp.speed) or "empty"
        if self.lettered:
            head = f"{_capital(self.side_name(game, side))}, {self._members(game, side)}"
            state = _state(pp, "It", False)
        else:
            head = self.who(game, side, True)
            state = _state(pp, self._pronoun(side, True), side == self.me)
        return f"{head}: {miles}. Battle pile: {battle}. Speed pile: {speed}. Safeties: {_safeties(pp)}. {state}."

    def _members(self, game: Game, side: int) -> str:
        """Who plays on ``side``: ``you and your partner bob (seat 3)``, ``seat 2 and seat 4``, ``bob (seat 2)``."""
        tab = game.table
        partners = list(tab.partners(side))
        if side == tab.side(self.me):
            return _listing(["you"] + [self.who(game, seat) for seat in partners if seat != self.me])
        named = []
        for seat in partners:
            person = self._person(seat)
            named.append(f"{person} (seat {seat + 1})" if person is not None else f"seat {seat + 1}")
        return _listing(named)

    def table_line(self, game: Game) -> str:
        """The trip (extended only where the table may extend it), the deck and the discard pile."""
        extended = game.trip_length == EXTENDED_TRIP and game.table.extension
        trip = f"Trip: {game.trip_length} miles" + (", extended" if extended else "")
        deck = "the deck is out" if game.deck_count <= 0 else f"Deck: {_plural(game.deck_count, 'card')} left"
        discard = card_words(game.discard) if game.discard != EMPTY else "empty"
        return f"{trip}. {_capital(deck)}. Discard pile: {discard}."

    def hands_line(self, game: Game) -> str:
        """Every seat's number of cards, and whose turn it is (a coup fourré asked of another seat is its secret)."""
        counts = [
            f"{self.who(game, seat)} {HAND_SIZE - game.players[seat].hand.count(EMPTY)}" for seat in self._seats(game)
        ]
        seen = rules.seen_turn(game, self.me)
        turn = "It is your turn." if seen == self.me else f"{self.who(game, seen, True)} moves next."
        return "Cards in hand: " + ", ".join(counts) + ". " + turn

    def hand_line(self, game: Game, label: str = "") -> str:
        """The listener's hand with its slot numbers: ``Your hand: P: empty; 1: 100 miles; 2: Go; ...`` (§8.2)."""
        parts = []
        for slot, card in enumerate(game.players[self.me].hand):
            key = "P" if slot == 0 else str(slot)
            parts.append(f"{key}: {card_words(card) if card != EMPTY else 'empty'}")
        if not label:
            label = "Your hand (kept in order)" if game.order else "Your hand"
        return f"{label}: " + "; ".join(parts) + "."

    def board_lines(self, game: Game) -> list[str]:
        """The whole board in lines (the ``r`` key): the table, each side (yours first), the hands, your hand.

        Where sides have letters, a line of every hand's size and whose turn
        it is comes before your hand.
        """
        lines = [self.table_line(game)]
        lines.extend(self.side_line(game, side) for side in self._sides(game))
        if self.lettered:
            lines.append(self.hands_line(game))
        lines.append(self.hand_line(game))
        return lines

    def whose_move(self, game: Game) -> str:
        """``It is your move.``, ``It is the computer's move.``; '' where the board's last lines have said it."""
        if self.lettered:
            return ""
        mover = game.to_move
        return "It is your move." if mover == self.me else f"It is {self.who(game, mover)}'s move."

    def order_sentence(self, game: Game) -> str:
        """The ``O`` key's answer: the setting, then the hand as it now lies."""
        if game.order:
            return self.hand_line(game, "Your hand is now kept in order")
        return self.hand_line(game, "Your hand is no longer kept in order; it is")

    # ----------------------------------------------------------------------
    # The score (the ``w`` key) and the end of a hand (§8.3, §5)

    def score_lines(self, game: Game) -> list[str]:
        """The score, a row a line, your figure first (the ``w`` key).

        During a hand the bonus rows are left out (they are 0 until it ends,
        §8.3); once it is over every row is read.
        """
        values = [score_values(game, side) for side in self._sides(game)]
        rows = SCORE_ROWS if game.finished else SCORE_ROWS[:4] + SCORE_ROWS[9:]
        return [f"{label}: {self._figures(game, [row[label] for row in values])}." for label in rows]

    def _reasons(self, game: Game, label: str) -> str:
        """Why a row of the end-of-hand score has points (§5.1, §5.2), for the sides that have them."""
        parts = []
        order = self._sides(game)
        for side in order:
            pp = game.players[side]
            name = self._side_label(game, side)
            if label == "Each Safety" and pp.safety_score:
                count = pp.safety_score // scoring.SAFETY_POINTS
                parts.append(f"{name} played {_plural(count, 'safety', 'safeties')}")
            elif label == "All 4 Safeties" and pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS:
                parts.append(f"{name} played all four")
            elif label == "Each Coup Fourre" and pp.coup_score:
                parts.append(f"{name}: {_plural(pp.coup_score // scoring.COUP_BONUS, 'coup fourre', 'coups fourres')}")
            elif label in _BONUS_ROWS:
                earned = dict(zip(_BONUS_ROWS, scoring.end_of_hand_bonuses(game, side).rows()))
                if earned[label]:
                    others = _listing([self._side_label(game, other) for other in order if other != side])
                    parts.append(_BONUS_REASONS[label].format(who=name, other=others, trip=game.trip_length))
        return "; ".join(parts)

    def hand_over_lines(self, game: Game, brief: bool) -> list[str]:
        """The end of a hand (§5.2, §5.5): how it ended, each score row with its reason, then the totals.

        ``brief`` leaves out the rows where no side scored.  When a total
        has reached the game's points the last line says who won the game
        (§5.4).
        """
        order = self._sides(game)
        finishers = [side for side in order if game.players[side].mileage == game.trip_length]
        if finishers:
            how = f"{self.side_name(game, finishers[0])} completed the trip of {game.trip_length} miles"
        elif game.deck_count <= 0:
            how = "the deck is out and no one can play any more"
        else:
            how = "no one can play any more"
        lines = [f"The hand is over: {how}."]
        values = [score_values(game, side) for side in order]
        for label in SCORE_ROWS:
            figures = [row[label] for row in values]
            why = ""
            if label in SCORE_ROWS[:9]:
                if brief and not any(figures):
                    continue
                why = self._reasons(game, label)
            lines.append(f"{label}: {self._figures(game, figures)}{f' ({why})' if why else ''}.")
        if rules.game_over(game):
            lines.append(self._game_over(game))
        return lines

    def _game_over(self, game: Game) -> str:
        order = self._sides(game)
        totals = [game.players[side].total for side in order]
        best = max(totals)
        leaders = [side for side, total in zip(order, totals) if total == best]
        if len(leaders) == len(order):
            return f"The game is over: a tie at {best}, so no one wins it."
        if len(leaders) > 1:
            tied = _listing([self._side_label(game, side) for side in leaders])
            return f"The game is over: {tied} tie at {best}, so no one wins it."
        winner = leaders[0]
        wins = f"{self.side_name(game, winner)} {_agree('win', not self.lettered and winner == self.me)} it"
        if len(order) == 2:
            return f"The game is over: {wins}, {best} to {min(totals)}."
        return f"The game is over: {wins} with {best}."

    # ----------------------------------------------------------------------
    # The events (§3, §4)

    def _verb(self, seat: int, plain: str) -> str:
        return _agree(plain, seat == self.me)

    def draw_sentence(self, game: Game, seat: int, new: list[int], full: bool) -> str:
        """A pick: the cards the listener drew (another seat's stay hidden); the deck at full detail or when out."""
        if seat == self.me:
            text = f"You pick {_listing([card_words(c) for c in new])}"
        else:
            text = f"{self.who(game, seat, True)} picks a card"
        if game.deck_count <= 0:
            text += ", the last of the deck"
        elif full:
            text += f"; {_plural(game.deck_count, 'card')} left"
        return text + "."

    def target_of(self, game: Game, seat: int, target: int | None) -> int:
        """The side a hazard went to: the one named, or the next side after the mover's (``rules``' rule)."""
        if target is not None:
            return target
        return (game.table.side(seat) + 1) % game.table.sides

    def play_sentence(self, game: Game, seat: int, card: int, before: Tableau, target: int | None = None) -> str:
        """A card played, with the state it leaves (§4): who played what, on whom, and where that leaves them.

        ``before`` is the mover's side's tableau before the play (a coup
        fourré and a counter are told from it); ``target`` the side a hazard
        was played on (None: the next side after the mover's).
        """
        mover = self.who(game, seat, True)
        plays = self._verb(seat, "play")
        side = game.table.side(seat)
        pp = game.players[side]
        own, own_you = self._own_side(game, side)
        if cards.is_distance(card):
            if self.lettered:
                text = f"{mover} {plays} {card_words(card)}: {own} is at {pp.mileage} miles"
            else:
                text = f"{mover} {plays} {card_words(card)} and {self._verb(seat, 'be')} at {pp.mileage} miles"
            if pp.mileage == game.trip_length:
                text += ", the end of the trip"
            return text + "."
        if cards.OUT_OF_GAS <= card <= STOP or card == SPEED_LIMIT:
            hit = self.target_of(game, seat, target)
            on = self.side_name(game, hit)
            again, you = self._side_again(hit)
            if card == SPEED_LIMIT:
                return (
                    f"{mover} {plays} Speed Limit on {on}: {again} may play 50 miles a card at most, "
                    f"until {again} {_agree('play', you)} End of Limit."
                )
            return f"{mover} {plays} {cards.name(card)} on {on}: {_state(game.players[hit], again, you)}."
        if card == END_OF_LIMIT:
            whose = f"side {side_letter(side)}'s" if self.lettered else self._possessive(seat)
            return f"{mover} {plays} End of Limit: {whose} speed limit is over."
        if card < SAFETY_BASE:  # Gasoline, Spare Tire, Repairs, Go
            if card == GO or pp.can_go:
                return f"{mover} {plays} {cards.name(card)}: {_state(pp, own, own_you)}."
            still = f"{own} still {_agree('need', own_you)} {_listing(needs(pp))}"
            return f"{mover} {plays} {cards.name(card)}: {still}."
        return self._safety_sentence(game, seat, card, before)

    def _safety_sentence(self, game: Game, seat: int, card: int, before: Tableau) -> str:
        """A safety (§4.6): a coup fourré (§3.7) or not, what it keeps away, the points, and the extra turn (§3.5)."""
        side = game.table.side(seat)
        pp = game.players[side]
        coup = pp.coups[card - SAFETY_BASE]
        own, you = self._own_side(game, side)
        mover = self.who(game, seat, True)
        text = f"{mover} {self._verb(seat, 'play')} {cards.name(card)}"
        if coup:
            text = "Coup fourre! " + text
        text += f": {own} {_agree('be', you)} safe from {_SAFE_FROM[card]} for the rest of the hand"
        if pp.can_go and not before.can_go:
            text += " and can move"
        elif before.speed == SPEED_LIMIT and pp.speed != SPEED_LIMIT:
            text += ", and the speed limit is gone"
        points = scoring.SAFETY_POINTS + (scoring.COUP_BONUS if coup else 0)
        if pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS:
            points += scoring.ALL_SAFETIES_BONUS
            text += "; all four safeties"
        return text + f"; {points} points. {mover} {self._verb(seat, 'play')} again."

    def discard_sentence(self, game: Game, seat: int, card: int) -> str:
        return f"{self.who(game, seat, True)} {self._verb(seat, 'discard')} {card_words(card)}."

    def extension_sentence(self, game: Game, seat: int, extend: bool) -> str:
        """The answer to ``Extension?`` (§3.8, §13): the computer's is silent on the board, said here."""
        if extend:
            return f"{self.who(game, seat, True)} {self._verb(seat, 'extend')} the trip to {EXTENDED_TRIP} miles."
        return f"{self.who(game, seat, True)} {self._verb(seat, 'do')} not extend the trip."

    def pass_sentence(self, game: Game, seat: int) -> str:
        """A seat with no cards lets the turn pass (§3.2), to the next seat."""
        after = self.who(game, game.table.after[seat])
        return f"{self.who(game, seat, True)} {self._verb(seat, 'have')} no cards; the turn passes to {after}."

    def declined_sentence(self, game: Game, seat: int) -> str:
        """The seat asked for a coup fourré out of turn lets it pass (R10)."""
        return f"{self.who(game, seat, True)} {self._verb(seat, 'let')} the coup fourre pass."

    def refused_sentence(self, game: Game, seat: int, error: str) -> str:
        """Another seat's move refused (never seen from the original's computer), named as theirs."""
        return f"{self.who(game, seat, True)}'s move is refused: {error}"

    def coup_line(self, game: Game) -> str:
        """Before ``Coup fourre?``: the hazard on your side, and the safety you hold against it."""
        slot = rules.coup_slot(game)
        safety = cards.name(game.players[self.me].hand[slot]) if slot is not None else "its safety"
        pp = game.players[game.table.side(self.me)]
        hazard = cards.name(pp.battle) if pp.fresh_hazard else "Speed Limit"
        return (
            f"Out of turn: {hazard} was just put on your side, and you hold {safety}. "
            "A coup fourre plays it now (300 points more), and you play again; y or n."
        )

    # ----------------------------------------------------------------------
    # The beginnings, and your turn at full detail

    def welcome(self, game: Game, detail: str) -> str:
        """The first line of a run: the game, the table and your seat, and how to ask for the commands."""
        tab = game.table
        if not self.lettered:
            other = self.who(game, tab.after[self.me])
            return (
                f"mille, Mille Bornes against {other}, in lines. "
                f"Type ? and RETURN for the commands; detail is {detail}."
            )
        partners = "each for themselves" if tab.seats == tab.sides else f"{tab.sides} sides of {tab.seats // tab.sides}"
        mine = side_letter(tab.side(self.me))
        aim = side_letter(self._sides(game)[1])
        return (
            f"mille, Mille Bornes at {tab.seats} seats, {partners}, in lines: "
            f"you are seat {self.me + 1}, on side {mine}. Type ? and RETURN for the commands; "
            f"u 3 {aim.lower()} plays a hazard on side {aim}; detail is {detail}."
        )

    def help_lines(self, game: Game) -> list[str]:
        """What the help adds at this table: where sides have letters, how a hazard names one, and ``Coup fourre?``."""
        if not self.lettered:
            return []
        aim = side_letter(self._sides(game)[1])
        return [
            f"At this table: u 3 {aim.lower()} plays the hazard in slot 3 on side {aim} (asked when two sides could "
            "take it); Coup fourre? asks, out of turn, whether to play the safety against a hazard just put on your "
            "side."
        ]

    def aim_example(self, game: Game) -> str:
        """A letter a hazard may be aimed with, for the examples (``b``); '' where sides have no letters."""
        return side_letter(self._sides(game)[1]).lower() if self.lettered else ""

    def new_game_line(self, game: Game) -> str:
        games = [game.players[side].games for side in self._sides(game)]
        return f"A new game: the totals start again at 0. Games won: {self._figures(game, games)}."

    def new_hand_line(self, game: Game) -> str:
        starter = game.to_move
        starts = f"{self.who(game, starter)} {self._verb(starter, 'start')}"
        return f"New hand: the trip is {game.trip_length} miles, and {starts}."

    def turn_line(self, game: Game) -> str:
        """The running totals at the start of your turn (full detail), your side's first."""
        order = self._sides(game)
        miles = self._figures(game, [game.players[side].mileage for side in order])
        totals = self._figures(game, [game.players[side].total for side in order])
        deck = "the deck is out" if game.deck_count <= 0 else f"{_plural(game.deck_count, 'card')} left"
        return f"Your turn. Miles: {miles}. Overall: {totals}. {_capital(deck)}."

    def playable_line(self, game: Game, plays: list[tuple[int, int | None]], may_pick: bool) -> str:
        """What you may do now (full detail): pick, the plays as the commands that make them (a hazard aimed at a
        side where it names one), or discard."""
        hand = game.players[self.me].hand
        named: list[str] = []
        for slot, target in dict.fromkeys(plays):
            key = "p" if slot == 0 else str(slot)
            aim = "" if target is None else f" {side_letter(target).lower()}"
            named.append(f"u {key}{aim} {card_words(hand[slot])}")
        if may_pick:
            return "Pick a card (p), or play now: " + "; ".join(named) + "." if named else "Pick a card (p)."
        if named:
            return "You can play: " + "; ".join(named) + "."
        if any(card != EMPTY and card < SAFETY_BASE for card in hand):
            return "You can play nothing: discard a card."
        return "You can play nothing."
