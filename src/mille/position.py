"""Is this a position the rules can reach?  The engine's own check of a game.

As python-chess's ``Board.status()`` says whether a board is one chess can
have, :func:`check` says whether a :class:`~mille.state.Game` is one mille
can have: every card is somewhere exactly once, every card on the table or
in a hand came from the dealt part of the deck, each seat's card counting
agrees with what it can have seen, the scores add up, the piles fit the
safeties played, the ``Extension?`` question is open only where it can be,
and so on.  A position that passes can be played on: the engine's moves
keep it valid (the property tests check that over thousands of hands).

A problem is reported as an :class:`InvalidPosition` naming the field at
fault in the engine's own terms (``players[0].hand_total``,
``memory[1].num_seen["Go"]``, ``deck``, ...), which are also the names of
the version-2 save format; :mod:`mille.save` asks this module about every
game it loads and translates the names of older formats.

>>> from mille import rules
>>> from mille.rng import GlibcRandom
>>> from mille.state import Game
>>> game = Game(rng=GlibcRandom(7))
>>> rules.start_hand(game)
>>> is_valid(game)
True
>>> game.players[0].mileage = 75
>>> check(game)
Traceback (most recent call last):
    ...
mille.position.InvalidPosition: players[0].mileage: 75, but the distance cards played add up to 0
"""

from __future__ import annotations

from collections import Counter

from . import cards
from .cards import EMPTY, NAMES
from .scoring import COUP_BONUS, GAME_POINTS, SAFETY_POINTS, recompute_hand_total
from .state import EXTENDED_TRIP, SEATS, TRIP, Game, SafetyStatus, Tableau

_ROW = cards.RIGHT_OF_WAY - cards.SAFETY_BASE
_PLAYED = SafetyStatus.PLAYED


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
    # The deck array is always a permutation of the 101 cards.
    in_deck = Counter(game.deck)
    for code in range(cards.NUM_CODES):
        if in_deck[code] != cards.COPIES[code]:
            name = _quoted(NAMES[code]) + " card"
            raise InvalidPosition("deck", f"has {_plural(in_deck[code], name)}, the deck has {cards.COPIES[code]}")

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
    for code in range(cards.NUM_CODES):
        placed = table[code] + hands[0][code] + hands[1][code]
        if placed > dealt[code]:
            raise InvalidPosition(
                "",
                f"{placed} {_quoted(NAMES[code])} in the hands and on the table, but only {dealt[code]} dealt "
                f"(deck[deck_count:] with deck_count {game.deck_count})",
            )
    for seat in SEATS:
        field = f"memory[{seat}].num_seen"
        for code in range(cards.NUM_CODES):
            seen = game.memory[seat].num_seen[code]
            most = dealt[code] - hands[1 - seat][code]
            least = table[code] + hands[seat][code] - (code == pending_card and seat != game.to_move)
            if seen > most:
                raise InvalidPosition(_sub(field, code), f"{seen}, but only {most} can have been seen")
            if seen < least:
                raise InvalidPosition(_sub(field, code), f"{seen}, but at least {least} have been seen")

    for seat, p in enumerate(game.players):
        _check_tableau(game, f"players[{seat}]", p)

    trip = game.trip_length
    if trip == EXTENDED_TRIP and max(p.mileage for p in game.players) < TRIP:
        raise InvalidPosition("trip_length", "1000, but nobody reached 700 to extend the trip")
    if game.finished:
        if all(p.mileage != trip for p in game.players) and game.deck_count > 0:
            raise InvalidPosition("finished", "true, but nobody completed the trip and cards are left to draw")
    if pending is not None:
        mover = game.players[game.to_move]
        if game.finished or trip != TRIP or mover.mileage != TRIP:
            raise InvalidPosition(
                "pending_extension", "set, but the player to move is not at the Extension? question (at 700 of 700)"
            )
        if pending >= 0 and not 0 <= mover.hand[pending] <= cards.MILES_200:
            raise InvalidPosition("pending_extension", f"{pending}, but there is no distance card in that slot")
    for seat, p in enumerate(game.players):
        path = f"players[{seat}]"
        if p.mileage == trip and not game.finished and not (pending is not None and seat == game.to_move):
            raise InvalidPosition(f"{path}.mileage", f"{p.mileage} completes the trip, but the hand is not finished")
        expected = recompute_hand_total(game, seat)
        if p.hand_total != expected:
            raise InvalidPosition(f"{path}.hand_total", f"{p.hand_total}, but the cards played score {expected}")
        previous = p.total - p.hand_total
        if not (game.finished and p.total == 0) and not 0 <= previous < GAME_POINTS:
            raise InvalidPosition(
                f"{path}.total",
                f"{p.total} with {p.hand_total} from this hand leaves {previous} from earlier hands (must be 0..4999)",
            )


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
