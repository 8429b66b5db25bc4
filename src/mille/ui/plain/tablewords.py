"""Plain mode's sentences at a table of 3, 4 or 6 seats (``mille --plain --players N``, issue 38).

The same house rules as :mod:`mille.ui.plain.words` (each event names who
acted and the state it leaves, running totals, ASCII), with every seat and
side named: you are seat 1 and your side is A; the others are ``seat 2``,
``seat 3``, ... (in turn order: seat 2 plays after you), and a partner is
``your partner (seat 3)``.  A seat plays for side ``(seat - 1) mod sides``
(R2 of ``table-rules.md``): at 4 seats sides A and B, at 3 and 6 sides A,
B and C.  An event names the player and the side: ``Seat 2 (side B) plays
Stop on side A: it is stopped and needs Go.``  The board is read side by
side, with every seat's number of cards and whose turn it is.

Only what the person may see is said: their own hand, every side's
tableau, the number of cards in each hand, the deck's count and the
discard pile.  The two-seat game never comes here: its sentences are the
ones :mod:`mille.ui.plain.words` has always said.
"""

from __future__ import annotations

import re

from ...engine import cards, rules
from ...engine.cards import EMPTY, END_OF_LIMIT, GO, OUT_OF_GAS, SAFETY_BASE, SPEED_LIMIT, STOP
from ...engine.state import Game, Tableau
from ..layout import YOU
from . import words

__all__ = [
    "board_lines",
    "coup_line",
    "discard_sentence",
    "draw_sentence",
    "extension_sentence",
    "hand_over_lines",
    "named",
    "pass_sentence",
    "play_sentence",
    "playable_line",
    "score_lines",
    "side_letter",
    "target_of",
    "turn_line",
    "who",
]

_LETTERS = "ABC"


def side_letter(side: int) -> str:
    return _LETTERS[side]


def side_of(game: Game, seat: int) -> int:
    return game.table.side(seat)


def who(game: Game, seat: int, capital: bool = False) -> str:
    """A seat named with its side: ``you``, ``your partner (seat 3)``, ``seat 2 (side B)``."""
    if seat == YOU:
        name = "you"
    elif side_of(game, seat) == side_of(game, YOU):
        name = f"your partner (seat {seat + 1})"
    else:
        name = f"seat {seat + 1} (side {side_letter(side_of(game, seat))})"
    return name[0].upper() + name[1:] if capital else name


def side_name(game: Game, side: int) -> str:
    """``side A (yours)``, ``side B``."""
    return f"side {side_letter(side)}" + (" (yours)" if side == side_of(game, YOU) else "")


def _members(game: Game, side: int) -> str:
    """Who plays on ``side``: ``you and your partner (seat 3)``, ``seat 2 and seat 4``."""
    names = [
        who(game, seat) if side == side_of(game, YOU) else f"seat {seat + 1}" for seat in game.table.partners(side)
    ]
    return words._listing(names)


def _state(game: Game, side: int) -> str:
    """Whether ``side`` can move, and what it needs: ``side B can move``, ``side A (yours) is stopped and needs Go``."""
    clause = words.state_clause(1, game.players[side])  # "it can move", "it is stopped and ..."
    return side_name(game, side) + clause[2:]


def table_line(game: Game) -> str:
    """The trip (extended only where the table may extend it), the deck and the discard pile."""
    line = words.table_line(game)
    if not game.table.extension:
        line = line.replace(", extended.", ".", 1)
    return line


def _verb(game: Game, seat: int, plain: str) -> str:
    return words.verb(seat, plain)  # "you play", any other seat "plays"


def target_of(game: Game, seat: int, move_target: int | None) -> int:
    """The side a hazard went to: the one named, or the next side after the mover's (``rules``' rule)."""
    if move_target is not None:
        return move_target
    return (side_of(game, seat) + 1) % game.table.sides


def side_line(game: Game, side: int) -> str:
    """One side of the board in one line: who plays on it, miles, piles, safeties, and what it needs."""
    pp = game.players[side]
    miles = f"{pp.mileage} miles of {game.trip_length}"
    played = words._miles_played(pp)
    if played:
        miles += f" ({played})"
    battle = cards.name(pp.battle) or "empty"
    speed = cards.name(pp.speed) or "empty"
    state = words.state_clause(1, pp)  # "it can move": the side, whoever plays on it
    label = side_name(game, side)
    return (
        f"{label[0].upper()}{label[1:]}, {_members(game, side)}: {miles}. Battle pile: {battle}. "
        f"Speed pile: {speed}. Safeties: {words._safeties(pp)}. It{state[2:]}."
    )


def hands_line(game: Game) -> str:
    """Every seat's number of cards, and whose turn it is."""
    counts = [
        f"{who(game, seat)} {cards.HAND_SIZE - game.players[seat].hand.count(EMPTY)}"
        for seat in range(game.table.seats)
    ]
    seen = rules.seen_turn(game, YOU)  # a coup fourré asked of another seat is its secret (R10)
    mover = who(game, seen, True)
    turn = "It is your turn." if seen == YOU else f"{mover} {_verb(game, seen, 'move')} next."
    return "Cards in hand: " + ", ".join(counts) + ". " + turn


def board_lines(game: Game) -> list[str]:
    """The whole board in lines (the ``r`` key): the table, each side, the hands' sizes and the turn, your hand."""
    lines = [table_line(game)]
    lines.extend(side_line(game, side) for side in range(game.table.sides))
    lines.append(hands_line(game))
    lines.append(words.hand_line(game))
    return lines


def _row(game: Game, label: str, values: list[dict[str, int]]) -> str:
    cells = ", ".join(f"side {side_letter(side)} {row[label]}" for side, row in enumerate(values))
    return f"{label}: {cells}."


def score_lines(game: Game) -> list[str]:
    """The score, a row a line, every side's figure, yours (A) first (the ``w`` key)."""
    values = [words.score_values(game, side) for side in range(game.table.sides)]
    rows = words.SCORE_ROWS if game.finished else words.SCORE_ROWS[:4] + words.SCORE_ROWS[9:]
    return [_row(game, label, values) for label in rows]


def hand_over_lines(game: Game, brief: bool) -> list[str]:
    """The end of a hand: how it ended, the score rows (``brief``: those someone scored in), the game's end."""
    sides = range(game.table.sides)
    finishers = [side for side in sides if game.players[side].mileage == game.trip_length]
    if finishers:
        how = f"{side_name(game, finishers[0])} completed the trip of {game.trip_length} miles"
    elif game.deck_count <= 0:
        how = "the deck is out and no one can play any more"
    else:
        how = "no one can play any more"
    lines = [f"The hand is over: {how}."]
    values = [words.score_values(game, side) for side in sides]
    for label in words.SCORE_ROWS:
        if brief and label in words.SCORE_ROWS[:9] and not any(row[label] for row in values):
            continue
        lines.append(_row(game, label, values))
    if rules.game_over(game):
        totals = [game.players[side].total for side in sides]
        best = max(totals)
        leaders = [side for side in sides if totals[side] == best]
        if len(leaders) > 1:
            tied = words._listing([f"side {side_letter(s)}" for s in leaders])
            lines.append(f"The game is over: {tied} tie at {best}, so no one wins it.")
        else:
            winner = (
                "your side, A, wins" if leaders[0] == side_of(game, YOU) else f"side {side_letter(leaders[0])} wins"
            )
            lines.append(f"The game is over: {winner} it with {best}.")
    return lines


def draw_sentence(game: Game, seat: int, new: list[int], full: bool) -> str:
    """A pick: the cards you drew (another seat's stay hidden)."""
    if seat == YOU:
        return words.draw_sentence(YOU, new, game.deck_count, full)
    text = f"{who(game, seat, True)} picks a card"
    if game.deck_count <= 0:
        text += ", the last of the deck"
    elif full:
        text += f"; {words._plural(game.deck_count, 'card')} left"
    return text + "."


def play_sentence(game: Game, seat: int, card: int, before: Tableau, target: int) -> str:
    """A card played, naming the player and the side, with the state it leaves (a hazard: on side ``target``)."""
    mover = who(game, seat, True)
    plays = _verb(game, seat, "play")
    side = side_of(game, seat)
    pp = game.players[side]
    mine = f"side {side_letter(side)}"
    if cards.is_distance(card):
        text = f"{mover} {plays} {words.card_words(card)}: {mine} is at {pp.mileage} miles"
        if pp.mileage == game.trip_length:
            text += ", the end of the trip"
        return text + "."
    if OUT_OF_GAS <= card <= STOP or card == SPEED_LIMIT:
        on = side_name(game, target)
        if card == SPEED_LIMIT:
            return f"{mover} {plays} Speed Limit on {on}: it may play 50 miles a card at most."
        return f"{mover} {plays} {cards.name(card)} on {on}: {_state(game, target)}."
    if card == END_OF_LIMIT:
        return f"{mover} {plays} End of Limit: the speed limit of {mine} is over."
    if card < SAFETY_BASE:
        if card == GO or pp.can_go:
            return f"{mover} {plays} {cards.name(card)}: {_state(game, side)}."
        return f"{mover} {plays} {cards.name(card)}: {mine} still needs {words._listing(words.needs(pp))}."
    index = card - SAFETY_BASE
    coup = pp.coups[index]
    text = f"{mover} {plays} {cards.name(card)}: {mine} is safe from {words._SAFE_FROM[card]} for the rest of the hand"
    if coup:
        text = "Coup fourre! " + text
    if pp.can_go and not before.can_go:
        text += " and can move"
    points = 100 + (300 if coup else 0)
    again = "You play again" if seat == YOU else f"{mover} plays again"
    return text + f"; {points} points. {again}."


def discard_sentence(game: Game, seat: int, card: int) -> str:
    return f"{who(game, seat, True)} {_verb(game, seat, 'discard')} {words.card_words(card)}."


def extension_sentence(game: Game, seat: int, extend: bool) -> str:
    if extend:
        return f"{who(game, seat, True)} {_verb(game, seat, 'extend')} the trip to 1000 miles."
    return f"{who(game, seat, True)} {_verb(game, seat, 'do')} not extend the trip."


def pass_sentence(game: Game, seat: int) -> str:
    return f"{who(game, seat, True)} {_verb(game, seat, 'have')} no cards; the turn passes."


def declined_sentence(game: Game, seat: int) -> str:
    """The seat asked for a coup fourré out of turn lets it pass."""
    return f"{who(game, seat, True)} {_verb(game, seat, 'let')} the coup fourre pass."


def coup_line(game: Game) -> str:
    """Before ``Coup fourre?``: the hazard on your side, and the safety you hold against it."""
    slot = rules.coup_slot(game)
    safety = cards.name(game.players[YOU].hand[slot]) if slot is not None else "its safety"
    pp = game.players[side_of(game, YOU)]
    hazard = cards.name(pp.battle) if pp.fresh_hazard else "Speed Limit"
    return (
        f"Out of turn: {hazard} was just put on your side, and you hold {safety}. "
        "A coup fourre plays it now (300 points more), and you play again; y or n."
    )


def turn_line(game: Game) -> str:
    """The running totals at the start of your turn (full detail), every side's."""
    sides = range(game.table.sides)
    miles = ", ".join(f"side {side_letter(s)} {game.players[s].mileage}" for s in sides)
    totals = ", ".join(f"side {side_letter(s)} {game.players[s].total}" for s in sides)
    deck = "the deck is out" if game.deck_count <= 0 else f"{words._plural(game.deck_count, 'card')} left"
    return f"Your turn. Miles: {miles}. Overall: {totals}. {deck[0].upper()}{deck[1:]}."


def playable_line(game: Game, plays: list[tuple[int, int | None]], may_pick: bool) -> str:
    """What you may do now (full detail): the plays as the commands that make them (a hazard with its side)."""
    hand = game.players[YOU].hand
    named = []
    seen: set[tuple[int, int | None]] = set()
    for slot, target in plays:
        if (slot, target) in seen:
            continue
        seen.add((slot, target))
        key = "p" if slot == 0 else str(slot)
        side = "" if target is None or game.table.sides == 2 else f" {side_letter(target).lower()}"
        named.append(f"u {key}{side} {words.card_words(hand[slot])}")
    if may_pick:
        return "Pick a card (p), or play now: " + "; ".join(named) + "." if named else "Pick a card (p)."
    if named:
        return "You can play: " + "; ".join(named) + "."
    return "You can play nothing: discard a card."


_SEATS = re.compile(
    r"(?P<your>[Yy]our) partner \(seat (?P<partner>\d)\)|\b[Ss]eat (?P<seat>\d)(?: \(side (?P<side>[ABC])\))?"
)


def named(line: str, names: dict[int, str]) -> str:
    """``line`` with the people's names (``--invite``, docs/people.md) where a seat is named by its number.

    ``names`` maps a seat (0-based) to a person's name, already escaped:
    ``seat 2 (side B)`` becomes ``bob (seat 2, side B)``, ``your partner
    (seat 3)`` ``your partner bob (seat 3)``; the computers' seats stay as
    they are.  One pass: a name holding ``seat 4`` is never taken for one.
    """

    def name(found: re.Match[str]) -> str:
        number = found.group("partner") or found.group("seat")
        person = names.get(int(number) - 1)
        if person is None:
            return found.group(0)
        if found.group("partner"):
            return f"{found.group('your')} partner {person} (seat {number})"
        side = found.group("side")
        return f"{person} (seat {number}, side {side})" if side else f"{person} (seat {number})"

    return _SEATS.sub(name, line)
