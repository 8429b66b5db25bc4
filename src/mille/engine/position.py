"""Is this a position the rules can reach?  The engine's own check of a game.

As python-chess's ``Board.status()`` says whether a board is one chess can
have, :func:`check` says whether a :class:`~mille.engine.state.Game` is one mille
can have: every card is somewhere exactly once, every card on the table or
in a hand came from the dealt part of the deck, each seat's card counting
agrees with what it can have seen, the scores add up, the piles fit the
safeties played, the ``Extension?`` question is open only where it can be,
the hands are as full as the deck allows (a hand that could never be
refilled would make the seats pass to each other forever), a hand the
end-of-hand test would have ended is over, and so on.  A position that
passes can be played on: the engine's moves keep it valid (the property
tests check that over thousands of hands).

A problem is reported as an :class:`InvalidPosition` naming the field at
fault in the engine's own terms (``players[0].hand_total``,
``memory[1].num_seen["Go"]``, ``deck``, ...), which are also the names of
the version-2 save format; :mod:`mille.files.save` asks this module about every
game it loads and translates the names of older formats.

>>> from mille.engine import rules
>>> from mille.engine.rng import GlibcRandom
>>> from mille.engine.state import Game
>>> game = Game(rng=GlibcRandom(7))
>>> rules.start_hand(game)
>>> is_valid(game)
True
>>> game.players[0].mileage = 75
>>> check(game)
Traceback (most recent call last):
    ...
mille.engine.position.InvalidPosition: players[0].mileage: 75, but the distance cards played add up to 0
"""

from __future__ import annotations

from collections import Counter

from . import cards
from .cards import EMPTY, NAMES
from .rules import can_anyone_play
from .scoring import COUP_BONUS, SAFETY_POINTS, recompute_hand_total
from .state import EXTENDED_TRIP, TRIP, Game, SafetyStatus, Tableau

_ROW = cards.RIGHT_OF_WAY - cards.SAFETY_BASE
_PLAYED = SafetyStatus.PLAYED
#: The fewest cards a hand holds while the deck lasts (:func:`_check_hands`).
_LEAST_HELD_TO_MOVE = cards.HAND_SIZE - 3
_LEAST_HELD_WAITING = cards.HAND_SIZE - 2


class InvalidPosition(ValueError):
    """A game the rules cannot reach: ``field`` (engine terms; "" for the whole game) and what is wrong."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def is_valid(game: Game) -> bool:
    """True if :func:`check` finds nothing wrong."""
    try:
        check(game)
    except InvalidPosition:
        return False
    return True


def _quoted(name: str) -> str:
    return f'"{name}"'


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _sub(path: str, card: int) -> str:
    """``path["Card name"]``: a per-card table's entry, as the save format keys it."""
    return f'{path}["{NAMES[card]}"]'


def check(game: Game) -> None:
    """Raise :class:`InvalidPosition` unless ``game`` is a position the rules can reach.

    The checks run in a fixed order (the deck, the cards placed, each
    seat's counting, each tableau, the trip and the question, the scores),
    so a damaged game always reports the same first problem.
    """
    tab = game.table
    seats = len(game.players)
    if seats != tab.seats or len(game.memory) != seats:
        raise InvalidPosition("players", f"{seats} players and {len(game.memory)} memories at a table of {tab.seats}")
    sides = tab.sides
    # The deck array is always a permutation of the table's deck (101 cards, or 106).
    copies = tab.copies
    if len(game.deck) != tab.deck_size:
        raise InvalidPosition("deck", f"has {_plural(len(game.deck), 'card')}, the deck has {tab.deck_size}")
    in_deck = Counter(game.deck)
    for code in range(cards.NUM_CODES):
        if in_deck[code] != copies[code]:
            name = _quoted(NAMES[code]) + " card"
            raise InvalidPosition("deck", f"has {_plural(in_deck[code], name)}, the deck has {copies[code]}")
    if game.reaction is not None and not (0 <= game.reaction < seats and game.reaction != game.to_move):
        raise InvalidPosition("reaction", f"{game.reaction} is not another seat of the table")
    if game.extender is not None and not (tab.parker and 0 <= game.extender < sides):
        raise InvalidPosition("extender", f"{game.extender}, but no side of this table can have called it")

    # Every card in a hand or on the table came from the dealt part of the
    # array, deck[deck_count:]; each seat has seen every one of them except
    # those in the other hand (and it cannot have seen more).
    dealt = Counter(game.deck[game.deck_count :])
    table: Counter[int] = Counter()
    if game.discard != EMPTY:
        table[game.discard] += 1
    for p in game.players:
        for i in range(cards.NUM_MILES):
            table[i] += p.nummiles[i]
        for i, status in enumerate(p.safety):
            if status == _PLAYED:
                table[cards.SAFETY_BASE + i] += 1
        if p.speed != EMPTY:
            table[p.speed] += 1
        if p.battle != EMPTY and p.battle != cards.GO:  # a safety can show Go with no Go card
            table[p.battle] += 1
    hands = [Counter(c for c in p.hand if c != EMPTY) for p in game.players]
    pending = game.pending_extension
    pending_card = EMPTY
    if pending is not None and pending >= 0:
        # At Extension? the card is counted on the table but still in the
        # hand, and the other seat counts it only once it leaves the hand.
        pending_card = game.players[game.to_move].hand[pending]
        if pending_card != EMPTY:
            hands[game.to_move][pending_card] -= 1
    held: Counter[int] = Counter()
    for hand in hands:
        held.update(hand)
    for code in range(cards.NUM_CODES):
        placed = table[code] + held[code]
        if placed > dealt[code]:
            raise InvalidPosition(
                "",
                f"{placed} {_quoted(NAMES[code])} in the hands and on the table, but only {dealt[code]} dealt "
                f"(deck[deck_count:] with deck_count {game.deck_count})",
            )
    for seat in range(seats):
        field = f"memory[{seat}].num_seen"
        for code in range(cards.NUM_CODES):
            seen = game.memory[seat].num_seen[code]
            most = dealt[code] - (held[code] - hands[seat][code])
            least = table[code] + hands[seat][code] - (code == pending_card and seat != game.to_move)
            if seen > most:
                raise InvalidPosition(_sub(field, code), f"{seen}, but only {most} can have been seen")
            if seen < least:
                raise InvalidPosition(_sub(field, code), f"{seen}, but at least {least} have been seen")

    for seat, p in enumerate(game.players):
        if seat < sides:
            _check_tableau(game, f"players[{seat}]", p)
        else:
            _check_unused(f"players[{seat}]", p)

    _check_hands(game)

    trip = game.trip_length
    side_tableaus = game.players[:sides]
    if not tab.extension:
        if trip != tab.trip:
            raise InvalidPosition("trip_length", f"{trip}, but this table plays {tab.trip} without the Extension")
    elif trip == EXTENDED_TRIP and max(p.mileage for p in side_tableaus) < TRIP:
        raise InvalidPosition("trip_length", "1000, but nobody reached 700 to extend the trip")
    if game.finished:
        if all(p.mileage != trip for p in side_tableaus) and game.deck_count > 0:
            raise InvalidPosition("finished", "true, but nobody completed the trip and cards are left to draw")
    if not game.finished and pending is None and game.deck_count == 0 and not can_anyone_play(game):
        # After every move made with the deck empty the end test runs (§3.8);
        # a hand it would have ended cannot still be going on.  Were it, no
        # move could change anything: the seats would pass forever.
        raise InvalidPosition(
            "finished",
            "false, but the deck is empty and nobody holds a safety or a card that can be played (the hand is over)",
        )
    if pending is not None:
        mover = game.players[game.to_move % sides]
        if game.finished or not tab.extension or trip != TRIP or mover.mileage != TRIP:
            raise InvalidPosition(
                "pending_extension", "set, but the player to move is not at the Extension? question (at 700 of 700)"
            )
        if pending >= 0 and not 0 <= game.players[game.to_move].hand[pending] <= cards.MILES_200:
            raise InvalidPosition("pending_extension", f"{pending}, but there is no distance card in that slot")
    for seat, p in enumerate(side_tableaus):
        path = f"players[{seat}]"
        if p.mileage == trip and not game.finished and not (pending is not None and seat == game.to_move % sides):
            raise InvalidPosition(f"{path}.mileage", f"{p.mileage} completes the trip, but the hand is not finished")
        expected = recompute_hand_total(game, seat)
        if p.hand_total != expected:
            raise InvalidPosition(f"{path}.hand_total", f"{p.hand_total}, but the cards played score {expected}")
        previous = p.total - p.hand_total
        points = game.table.game_points
        if not (game.finished and p.total == 0) and not 0 <= previous < points:
            raise InvalidPosition(
                f"{path}.total",
                f"{p.total} with {p.hand_total} from this hand leaves {previous} from earlier hands"
                f" (must be 0..{points - 1})",
            )


def _check_hands(game: Game) -> None:
    """Each hand is tidy, and while cards are left to draw, as full as the play allows.

    The tidy-up after every move leaves a hand's empty slots first (the
    compaction loop and the Order sort alike, §3.6).  Slots 1-6 are dealt
    (§2.4) and each turn the player to move draws before playing or
    discarding one card (§3.2-§3.4); a safety played before drawing leaves
    the P slot and slot 1 empty, and the next draw takes two cards (§3.3,
    §3.5).  At most two safeties can be played before one draw (one against
    the battle hazard, Right of Way against the limit), so while the deck
    lasts the player to move holds at least four cards and the other player
    at least five (six but for the turn after such a pair).  A hand emptied
    with cards left in the deck could never be refilled: a seat with no
    cards passes (§3.2) and the end test waits for the deck to run out
    (§3.8), so the seats would pass to each other forever.
    """
    for seat, p in enumerate(game.players):
        hand = p.hand
        held = cards.HAND_SIZE - hand.count(EMPTY)
        if held and EMPTY in hand[cards.HAND_SIZE - held :]:
            raise InvalidPosition(
                f"players[{seat}].hand", "an empty slot after a card (the tidy-up leaves the empty slots first)"
            )
        if game.deck_count > 0:
            least = _LEAST_HELD_TO_MOVE if seat == game.to_move else _LEAST_HELD_WAITING
            if held < least:
                who = "the player to move" if seat == game.to_move else "the player not to move"
                raise InvalidPosition(
                    f"players[{seat}].hand",
                    f"{_plural(held, 'card')} with cards left to draw ({who} holds at least {least})",
                )


def _check_unused(path: str, p: Tableau) -> None:
    """A seat past the sides (a partner's, at 4 and 6 seats) holds only its hand: its tableau fields stay as dealt."""
    blank = Tableau()
    for name in Tableau.__slots__:
        if name != "hand" and getattr(p, name) != getattr(blank, name):
            raise InvalidPosition(f"{path}.{name}", "set, but this seat plays on its partner's tableau")


def _check_tableau(game: Game, path: str, p: Tableau) -> None:
    """One player's piles, safeties, coups and mileage agree with each other."""
    for i, status in enumerate(p.safety):
        if p.coups[i] and status != _PLAYED:
            raise InvalidPosition(_sub(f"{path}.coups", cards.SAFETY_BASE + i), "true, but the safety was not played")
    played = sum(1 for s in p.safety if s == _PLAYED)
    if p.safety_score != SAFETY_POINTS * played:
        what = _plural(played, "safety", "safeties")
        raise InvalidPosition(f"{path}.safety_score", f"{p.safety_score}, but {what} played")
    coups = sum(p.coups)
    if p.coup_score != COUP_BONUS * coups:
        what = _plural(coups, "coup fourré", "coups fourrés")
        raise InvalidPosition(f"{path}.coup_score", f"{p.coup_score}, but {what}")
    if p.nummiles[cards.MILES_200] > 2:
        raise InvalidPosition(
            _sub(f"{path}.nummiles", cards.MILES_200), f"{p.nummiles[cards.MILES_200]}, but only two 200s may be played"
        )
    miles = sum(n * cards.MILES[i] for i, n in enumerate(p.nummiles))
    if p.mileage != miles:
        raise InvalidPosition(f"{path}.mileage", f"{p.mileage}, but the distance cards played add up to {miles}")
    if p.mileage > game.trip_length:
        raise InvalidPosition(f"{path}.mileage", f"{p.mileage} is past the end of the trip ({game.trip_length})")
    right_of_way = p.safety[_ROW] == _PLAYED
    if p.speed == cards.SPEED_LIMIT and right_of_way:
        raise InvalidPosition(f"{path}.speed", '"Speed Limit", but Right of Way was played')
    if p.battle in cards.HAZARDS and p.safety[cards.SAFETY_FOR[p.battle] - cards.SAFETY_BASE] == _PLAYED:
        raise InvalidPosition(
            f"{path}.battle", f"{_quoted(NAMES[p.battle])}, but {NAMES[cards.SAFETY_FOR[p.battle]]} was played"
        )
    can_go = p.battle == cards.GO or (right_of_way and cards.is_repair_or_empty(p.battle))
    if p.can_go != can_go:
        pile = "null" if p.battle == EMPTY else _quoted(NAMES[p.battle])
        shown = "true" if p.can_go else "false"
        raise InvalidPosition(f"{path}.can_go", f"{shown} does not fit the battle pile ({pile})")


__all__ = ["InvalidPosition", "check", "is_valid"]
