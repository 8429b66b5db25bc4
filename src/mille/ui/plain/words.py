"""Plain mode's sentences: the game said in words, one line at a time.

Pure functions from the game (or the tableaus before and after a move) to
lines of text, for :class:`mille.ui.plain.app.PlainFace`.  They follow the
house rules of the games blind players use (the reference
``accessible-play.md`` §1, §4): each event names who acted and gives the
state it leaves ("The computer plays 75 miles and is at 325 miles."), "you"
for the person and "the computer" for the other seat, running totals
rather than changes, scoring explained row by row.  Card names and the
messages are the original's (reference §1.1, §4), the score rows keep their
labels (§8.3); everything is ASCII, with nothing carried by layout alone:
what the board shows by where it is drawn is said here in words.

Only what the person may see is said: their own hand, both tableaus, the
deck's count and the discard pile (the computer's hand never, nor a card it
draws).
"""

from __future__ import annotations

from ...engine import cards, rules, scoring
from ...engine.cards import (
    EMPTY,
    END_OF_LIMIT,
    GO,
    MILES,
    OPPOSITE,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SPEED_LIMIT,
    STOP,
)
from ...engine.state import EXTENDED_TRIP, Game, SafetyStatus, Tableau
from ..layout import YOU

__all__ = [
    "SCORE_ROWS",
    "board_lines",
    "card_words",
    "discard_sentence",
    "draw_sentence",
    "extension_sentence",
    "hand_line",
    "hand_over_lines",
    "pass_sentence",
    "play_sentence",
    "playable_line",
    "score_lines",
    "turn_line",
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


# --------------------------------------------------------------------------
# Who: "you" and "the computer", with their verbs


def who(seat: int, capital: bool = False) -> str:
    """The seat's name as a subject or object: ``you``, ``the computer``."""
    name = "you" if seat == YOU else "the computer"
    return name[0].upper() + name[1:] if capital else name


def pronoun(seat: int) -> str:
    """The seat as a pronoun: ``you``, ``it``."""
    return "you" if seat == YOU else "it"


def possessive(seat: int) -> str:
    return "your" if seat == YOU else "its"


def verb(seat: int, plain: str) -> str:
    """``plain`` agreeing with the seat: ``you play``, ``the computer plays`` (``be``, ``have``, ``do`` too)."""
    if seat == YOU:
        return {"be": "are"}.get(plain, plain)
    irregular = {"be": "is", "have": "has", "do": "does"}
    if plain in irregular:
        return irregular[plain]
    return plain + ("es" if plain.endswith(("s", "sh", "ch")) else "s")


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


def state_clause(seat: int, pp: Tableau) -> str:
    """Whether the side can move, and what it needs if not: ``you have had an accident and need Repairs, then Go``."""
    subject = pronoun(seat)
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
        text = f"{subject} {verb(seat, be)} {what} and {verb(seat, 'need')} {wanted}"
    elif battle == EMPTY:
        text = f"{subject} {verb(seat, 'need')} {wanted} to start"
    else:
        text = f"{subject} {verb(seat, 'need')} {wanted}"
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


def side_line(game: Game, seat: int) -> str:
    """One side of the board in one line: miles, piles, safeties, and what it needs (§8.2)."""
    pp = game.players[seat]
    miles = f"{pp.mileage} miles of {game.trip_length}"
    played = _miles_played(pp)
    if played:
        miles += f" ({played})"
    battle = cards.name(pp.battle) or "empty"
    speed = cards.name(pp.speed) or "empty"
    state = state_clause(seat, pp)
    return (
        f"{who(seat, True)}: {miles}. Battle pile: {battle}. Speed pile: {speed}. "
        f"Safeties: {_safeties(pp)}. {state[0].upper()}{state[1:]}."
    )


def table_line(game: Game) -> str:
    """The trip, the deck and the discard pile."""
    trip = f"Trip: {game.trip_length} miles" + (", extended" if game.trip_length == EXTENDED_TRIP else "")
    deck = "the deck is out" if game.deck_count <= 0 else f"Deck: {_plural(game.deck_count, 'card')} left"
    discard = card_words(game.discard) if game.discard != EMPTY else "empty"
    return f"{trip}. {deck[0].upper()}{deck[1:]}. Discard pile: {discard}."


def hand_line(game: Game, label: str = "") -> str:
    """The person's hand with its slot numbers: ``Your hand: P: empty; 1: 100 miles; 2: Go; ...`` (§8.2)."""
    parts = []
    for slot, card in enumerate(game.players[YOU].hand):
        key = "P" if slot == 0 else str(slot)
        parts.append(f"{key}: {card_words(card) if card != EMPTY else 'empty'}")
    if not label:
        label = "Your hand (kept in order)" if game.order else "Your hand"
    return f"{label}: " + "; ".join(parts) + "."


def board_lines(game: Game) -> list[str]:
    """The whole board in lines (the ``r`` key): the table, each side, your hand."""
    return [table_line(game), side_line(game, YOU), side_line(game, 1 - YOU), hand_line(game)]


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


def score_values(game: Game, seat: int) -> dict[str, int]:
    """Each row's figure for ``seat``, as the full score window shows it (bonuses only once the hand is over)."""
    pp = game.players[seat]
    values = {
        "Milestones Played": pp.mileage,
        "Each Safety": pp.safety_score,
        "All 4 Safeties": scoring.ALL_SAFETIES_BONUS
        if pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS
        else 0,
        "Each Coup Fourre": pp.coup_score,
    }
    earned = scoring.end_of_hand_bonuses(game, seat).rows() if game.finished else (False,) * 5
    for label, got, points in zip(_BONUS_ROWS, earned, _BONUS_POINTS):
        values[label] = points if got else 0
    values["Hand Total"] = pp.hand_total
    values["Overall Total"] = pp.total
    values["Games"] = pp.games
    return values


def _row(label: str, mine: int, its: int, why: str = "") -> str:
    return f"{label}: you {mine}, computer {its}{f' ({why})' if why else ''}."


def score_lines(game: Game) -> list[str]:
    """The score window, a row a line, your figure first (the ``w`` key).

    During a hand the bonus rows are left out (they are 0 until it ends,
    §8.3); once it is over every row is read.
    """
    you, it = score_values(game, YOU), score_values(game, 1 - YOU)
    rows = SCORE_ROWS if game.finished else SCORE_ROWS[:4] + SCORE_ROWS[9:]
    return [_row(label, you[label], it[label]) for label in rows]


def _reasons(game: Game, label: str) -> str:
    """Why a row of the end-of-hand score has points (§5.1, §5.2), for the sides that have them."""
    parts = []
    for seat in (YOU, 1 - YOU):
        pp = game.players[seat]
        name = who(seat)
        if label == "Each Safety" and pp.safety_score:
            parts.append(f"{name} played {_plural(pp.safety_score // scoring.SAFETY_POINTS, 'safety', 'safeties')}")
        elif label == "All 4 Safeties" and pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS:
            parts.append(f"{name} played all four")
        elif label == "Each Coup Fourre" and pp.coup_score:
            parts.append(f"{name}: {_plural(pp.coup_score // scoring.COUP_BONUS, 'coup fourre', 'coups fourres')}")
        elif label in _BONUS_ROWS:
            bonuses = scoring.end_of_hand_bonuses(game, seat)
            earned = dict(zip(_BONUS_ROWS, bonuses.rows()))
            if earned[label]:
                parts.append(_BONUS_REASONS[label].format(who=name, other=who(1 - seat), trip=game.trip_length))
    return "; ".join(parts)


_BONUS_REASONS = {
    "Trip Completed": "{who} completed the trip of {trip} miles",
    "Safe Trip": "{who} completed it without a 200",
    "Delayed Action": "{who} completed it after the deck ran out",
    "Extension": "{who} completed the extended trip",
    "Shut-Out": "{other} had no miles",
}


def hand_over_lines(game: Game, brief: bool) -> list[str]:
    """The end of a hand (§5.2, §5.5): how it ended, each score row with its reason, then the totals.

    ``brief`` leaves out the rows where neither side scored.  When a total
    has reached 5000 the last line says who won the game (§5.4).
    """
    finishers = [seat for seat in (YOU, 1 - YOU) if game.players[seat].mileage == game.trip_length]
    if finishers:
        how = f"{who(finishers[0])} completed the trip of {game.trip_length} miles"
    elif game.deck_count <= 0:
        how = "the deck is out and no one can play any more"
    else:
        how = "no one can play any more"
    lines = [f"The hand is over: {how}."]
    you, it = score_values(game, YOU), score_values(game, 1 - YOU)
    for label in SCORE_ROWS:
        mine, its = you[label], it[label]
        if label in SCORE_ROWS[:9]:
            if brief and not (mine or its):
                continue
            lines.append(_row(label, mine, its, _reasons(game, label)))
        else:
            lines.append(_row(label, mine, its))
    first, second = game.players[YOU].total, game.players[1 - YOU].total
    if rules.game_over(game):
        if first == second:
            lines.append(f"The game is over: a tie at {first}, so no one wins it.")
        else:
            winner = "you win" if first > second else "the computer wins"
            lines.append(f"The game is over: {winner} it, {max(first, second)} to {min(first, second)}.")
    return lines


# --------------------------------------------------------------------------
# The events (§3, §4)


def draw_sentence(seat: int, new: list[int], deck_count: int, full: bool) -> str:
    """A pick: the cards the person drew (the computer's stay hidden); the deck at full detail or when it runs out."""
    if seat == YOU:
        text = f"You pick {_listing([card_words(c) for c in new])}"
    else:
        text = "The computer picks a card"
    if deck_count <= 0:
        text += ", the last of the deck"
    elif full:
        text += f"; {_plural(deck_count, 'card')} left"
    return text + "."


def play_sentence(seat: int, card: int, before: Tableau, game: Game) -> str:
    """A card played, with the state it leaves (§4): who played what, on whom, and where that leaves them.

    ``before`` is the player's tableau before the play (a coup fourré and a
    counter are told from it).
    """
    mover = who(seat, True)
    plays = verb(seat, "play")
    target = 1 - seat
    pp = game.players[seat]
    op = game.players[target]
    if cards.is_distance(card):
        text = f"{mover} {plays} {card_words(card)} and {verb(seat, 'be')} at {pp.mileage} miles"
        if pp.mileage == game.trip_length:
            text += ", the end of the trip"
        return text + "."
    if cards.OUT_OF_GAS <= card <= STOP:
        return f"{mover} {plays} {cards.name(card)} on {who(target)}: {state_clause(target, op)}."
    if card == SPEED_LIMIT:
        return (
            f"{mover} {plays} Speed Limit on {who(target)}: {pronoun(target)} may play 50 miles a card at most, "
            f"until {pronoun(target)} {verb(target, 'play')} End of Limit."
        )
    if card == END_OF_LIMIT:
        return f"{mover} {plays} End of Limit: {possessive(seat)} speed limit is over."
    if card < SAFETY_BASE:  # Gasoline, Spare Tire, Repairs, Go
        clause = state_clause(seat, pp)
        if card == GO or pp.can_go:
            return f"{mover} {plays} {cards.name(card)}: {clause}."
        return f"{mover} {plays} {cards.name(card)}: {pronoun(seat)} still {verb(seat, 'need')} {_listing(needs(pp))}."
    return _safety_sentence(seat, card, before, game)


def _safety_sentence(seat: int, card: int, before: Tableau, game: Game) -> str:
    """A safety (§4.6): a coup fourré (§3.7) or not, what it keeps away, the points, and the extra turn (§3.5)."""
    pp = game.players[seat]
    index = card - SAFETY_BASE
    coup = pp.coups[index]
    subject = pronoun(seat)
    text = f"{who(seat, True)} {verb(seat, 'play')} {cards.name(card)}"
    if coup:
        text = "Coup fourre! " + text
    text += f": {subject} {verb(seat, 'be')} safe from {_SAFE_FROM[card]} for the rest of the hand"
    if pp.can_go and not before.can_go:
        text += " and can move"
    elif before.speed == SPEED_LIMIT and pp.speed != SPEED_LIMIT:
        text += ", and the speed limit is gone"
    points = scoring.SAFETY_POINTS + (scoring.COUP_BONUS if coup else 0)
    if pp.safety_score == cards.NUM_SAFETIES * scoring.SAFETY_POINTS:
        points += scoring.ALL_SAFETIES_BONUS
        text += "; all four safeties"
    text += f"; {points} points. {who(seat, True)} {verb(seat, 'play')} again."
    return text


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


def discard_sentence(seat: int, card: int) -> str:
    return f"{who(seat, True)} {verb(seat, 'discard')} {card_words(card)}."


def extension_sentence(seat: int, extend: bool) -> str:
    """The answer to ``Extension?`` (§3.8, §13): the computer's is silent on the board, said here."""
    if extend:
        return f"{who(seat, True)} {verb(seat, 'extend')} the trip to {EXTENDED_TRIP} miles."
    return f"{who(seat, True)} {verb(seat, 'do')} not extend the trip."


def pass_sentence(seat: int) -> str:
    """A seat with no cards lets the turn pass (§3.2)."""
    return f"{who(seat, True)} {verb(seat, 'have')} no cards; the turn passes to {who(1 - seat)}."


def order_sentence(game: Game) -> str:
    """The ``O`` key's answer: the setting, then the hand as it now lies."""
    if game.order:
        return hand_line(game, "Your hand is now kept in order")
    return hand_line(game, "Your hand is no longer kept in order; it is")


# --------------------------------------------------------------------------
# Your turn, at full detail


def turn_line(game: Game) -> str:
    """The running totals at the start of your turn (full detail)."""
    you, it = game.players[YOU], game.players[1 - YOU]
    deck = "the deck is out" if game.deck_count <= 0 else f"{_plural(game.deck_count, 'card')} left"
    return (
        f"Your turn. Miles: you {you.mileage}, computer {it.mileage}. "
        f"Overall: you {you.total}, computer {it.total}. {deck[0].upper()}{deck[1:]}."
    )


def playable_line(game: Game, plays: list[int], may_pick: bool) -> str:
    """What you may do now (full detail): pick, the cards you may play as the commands that play them, or discard."""
    hand = game.players[YOU].hand
    named = [f"u {'p' if s == 0 else s} {card_words(hand[s])}" for s in plays]
    if may_pick:
        if named:
            return "Pick a card (p), or play now: " + "; ".join(named) + "."
        return "Pick a card (p)."
    if named:
        return "You can play: " + "; ".join(named) + "."
    if any(card != EMPTY and card < SAFETY_BASE for card in hand):
        return "You can play nothing: discard a card."
    return "You can play nothing."
