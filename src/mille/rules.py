"""Rules of 4.4BSD mille: dealing, legality (with the exact messages), moves.

The API follows python-chess / OpenSpiel in spirit: :func:`legal_moves`
lists what the player to move may do, :func:`push` applies a move.  Every
check runs in the original's order, because the order decides which message
a player sees (``limit of 50`` beats ``cannot move now``, and so on).

Moves mutate the :class:`~mille.state.Game` in place; callers that search
copy the game first (``game.copy()`` is cheap).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from . import cards
from .cards import (
    EMPTY,
    END_OF_LIMIT,
    EXTRA_TANK,
    GASOLINE,
    GO,
    MILES,
    MILES_50,
    MILES_75,
    MILES_200,
    OPPOSITE,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SAFETY_FOR,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
    is_repair_or_empty,
)
from .record import FrozenRecord, Record
from .scoring import ALL_SAFETIES_BONUS, COUP_BONUS, GAME_POINTS, SAFETY_POINTS, apply_end_of_hand_bonuses
from .state import COMPUTER, HUMAN, Game, SafetyStatus, Tableau

_RIGHT_OF_WAY_INDEX = RIGHT_OF_WAY - SAFETY_BASE


class MoveType(IntEnum):
    """The original's move types (values as in its source)."""

    DISCARD = 0
    DRAW = 1
    PLAY = 2
    ORDER = 3


class Move(FrozenRecord):
    """A move: draw, play or discard a slot (0 is the P slot), or toggle Order."""

    __slots__ = ("kind", "slot")
    kind: MoveType
    slot: int

    def __init__(self, kind: MoveType, slot: int = 0) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "slot", slot)

    def __str__(self) -> str:
        if self.kind is MoveType.DRAW:
            return "P"
        if self.kind is MoveType.ORDER:
            return "O"
        letter = "U" if self.kind is MoveType.PLAY else "D"
        return f"{letter}{'P' if self.slot == 0 else self.slot}"


DRAW = Move(MoveType.DRAW)
ORDER = Move(MoveType.ORDER)

#: Asked when a mileage card lands exactly on 700: should the trip be
#: extended to 1000?  Called with the game and the slot of the card, with the
#: card still in the mover's hand and the miles already counted, exactly when
#: the original asks.
ExtensionDecider = Callable[[Game, int], bool]


# --------------------------------------------------------------------------
# Shuffling and dealing


def shuffle(game: Game) -> None:
    """Permute the deck array as left by the previous hand (never reset)."""
    deck = game.deck
    rng = game.rng
    for i in range(cards.DECK_SIZE):
        r = rng.random() % cards.DECK_SIZE
        deck[i], deck[r] = deck[r], deck[i]
    game.deck_count = cards.DECK_SIZE


def account(game: Game, card: int) -> None:
    """The computer's card counting: note a card it has now seen.

    ``num_gos`` (its estimate of the Go cards it will need) only moves while
    the computer is the player to move, which is why the computer's dealt
    cards do not count when the human starts the hand.
    """
    if card == EMPTY:
        return
    game.num_seen[card] += 1
    if game.play == COMPUTER:
        if EXTRA_TANK <= card < RIGHT_OF_WAY:
            hazard = OPPOSITE[card]
            game.num_gos += cards.COPIES[hazard] - game.num_seen[hazard]
        elif OUT_OF_GAS <= card <= STOP:
            game.num_gos += 1


def _draw_card(game: Game) -> int:
    game.deck_count -= 1
    return game.deck[game.deck_count]


def deal(game: Game) -> None:
    """Deal a new hand from the top (high end) of the deck array."""
    game.num_seen = [0] * cards.NUM_TABLE
    game.num_gos = 0
    for who in (HUMAN, COMPUTER):
        pp = game.players[who]
        pp.hand[0] = EMPTY
        pp.safety = [SafetyStatus.UNKNOWN] * cards.NUM_SAFETIES
        pp.coups = [False] * cards.NUM_SAFETIES
        for slot in range(1, cards.HAND_SIZE):
            card = _draw_card(game)
            pp.hand[slot] = card
            if who == COMPUTER:
                account(game, card)
                if card >= SAFETY_BASE:
                    pp.safety[card - SAFETY_BASE] = SafetyStatus.IN_HAND
        pp.mileage = 0
        pp.hand_total = 0
        pp.safety_score = 0
        pp.coup_score = 0
        pp.can_go = False
        pp.speed = EMPTY
        pp.battle = EMPTY
        pp.new_speed = False
        pp.new_battle = False
        pp.nummiles = [0] * cards.NUM_MILES
    if game.order:
        game.players[HUMAN].hand.sort()
    game.discard = EMPTY
    game.finished = False
    game.end = 700


def start_hand(game: Game, *, resumed: bool = False) -> None:
    """Begin a hand: the starter alternates, then shuffle and deal.

    A game restored from a save made at the end-of-hand prompts deals at
    once with the saved player to move and no alternation (``resumed``).
    """
    if not resumed:
        game.hand_start = 1 - game.hand_start
        game.play = game.hand_start
    shuffle(game)
    deal(game)


def settle_game(game: Game) -> None:
    """Game accounting at 5000: the higher total wins a game; a tie wins none."""
    human, comp = game.players
    if comp.total < human.total:
        human.games += 1
    elif comp.total > human.total:
        comp.games += 1
    human.total = 0
    comp.total = 0


def game_over(game: Game) -> bool:
    """Either total reached 5000 (only looked at between hands)."""
    return game.players[HUMAN].total >= GAME_POINTS or game.players[COMPUTER].total >= GAME_POINTS


# --------------------------------------------------------------------------
# Legality


def has_picked(game: Game, pp: Tableau, slot: int) -> bool:
    """The original's ``haspicked``: has this player drawn this turn?

    Always true once the deck is empty.  For a safety the test looks at slot
    1 (a safety played before drawing leaves slots 0 and 1 empty), otherwise
    at the P slot.
    """
    if game.deck_count <= 0:
        return True
    look = 1 if pp.hand[slot] >= SAFETY_BASE else 0
    return pp.hand[look] != EMPTY


def can_play(game: Game, pp: Tableau, op: Tableau, card: int) -> bool:
    """The computer's "could this card be played now" test (``canplay``).

    It also decides when a hand with an empty deck is over, so it is part of
    the rules, not only of the computer's strategy.  It is stricter than the
    human's legality for Speed Limit and Go.
    """
    if card <= MILES_200:
        if card < 0:
            return False
        if card == MILES_200 and pp.nummiles[MILES_200] == 2:
            return False
        if card >= MILES_75 and pp.speed == SPEED_LIMIT:
            return False
        if card >= MILES_50 and pp.mileage + MILES[card] > game.end:
            return False
        return pp.can_go
    if card <= STOP:
        return op.can_go and op.safety[SAFETY_FOR[card] - SAFETY_BASE] != SafetyStatus.PLAYED
    if card == SPEED_LIMIT:
        return (
            op.speed != SPEED_LIMIT
            and op.safety[_RIGHT_OF_WAY_INDEX] != SafetyStatus.PLAYED
            and op.mileage + 50 < game.end
        )
    if card <= REPAIRS:
        return pp.battle == OPPOSITE[card]
    if card == GO:
        return not pp.can_go and (is_repair_or_empty(pp.battle) or pp.battle == STOP)
    if card == END_OF_LIMIT:
        return pp.speed == SPEED_LIMIT
    return False


def play_error(game: Game, player: int, slot: int) -> str | None:
    """Why playing ``slot`` would fail (the exact message), or None if it is legal.

    ``no card there`` is returned for an empty slot, although the original
    treats that as a (turn-keeping) move rather than a failed one.
    """
    pp = game.players[player]
    card = pp.hand[slot]
    if card < SAFETY_BASE and not has_picked(game, pp, slot):
        return "must pick first"
    if card == EMPTY:
        return "no card there"
    if card <= MILES_200:
        if card == MILES_200 and pp.nummiles[MILES_200] == 2:
            return "only two 200's per hand"
        if card >= MILES_75 and pp.speed == SPEED_LIMIT:
            return "limit of 50"
        if card >= MILES_50 and pp.mileage + MILES[card] > game.end:
            return f"puts you over {game.end}"
        if not pp.can_go:
            return "cannot move now"
        return None
    if card == GASOLINE or card == SPARE_TIRE or card == REPAIRS:
        if pp.battle != OPPOSITE[card]:
            return f'can\'t play "{cards.NAMES[card]}"'
        return None
    if card == GO:
        if pp.battle != EMPTY and pp.battle != STOP and not is_repair_or_empty(pp.battle):
            return f'cannot play "Go" on a "{cards.NAMES[pp.battle]}"'
        return None
    if card == END_OF_LIMIT:
        return None if pp.speed == SPEED_LIMIT else "not limited"
    op = game.players[1 - player]
    if card <= STOP:
        if not op.can_go:
            return "opponent cannot go"
        if op.safety[SAFETY_FOR[card] - SAFETY_BASE] == SafetyStatus.PLAYED:
            return "opponent is protected"
        return None
    if card == SPEED_LIMIT:
        if op.speed == SPEED_LIMIT:
            return "opponent has limit"
        if op.safety[_RIGHT_OF_WAY_INDEX] == SafetyStatus.PLAYED:
            return "opponent is protected"
        return None
    # A safety: before drawing, only as a counter to the hazard showing.
    if not _is_counter(pp, card) and pp.hand[0] == EMPTY and game.deck_count > 0:
        return "must pick first"
    return None


def discard_error(game: Game, player: int, slot: int) -> str | None:
    """Why discarding ``slot`` would fail, or None."""
    pp = game.players[player]
    if not has_picked(game, pp, slot):
        return "must pick first"
    card = pp.hand[slot]
    if card == EMPTY:
        return None if slot == 6 else "no card there"
    if card >= SAFETY_BASE:
        return "discard a safety?"
    return None


def draw_error(game: Game, player: int) -> str | None:
    if game.deck_count <= 0:
        return "no more cards"
    if has_picked(game, game.players[player], 0):
        return "already picked"
    return None


def _is_counter(pp: Tableau, safety_card: int) -> bool:
    """Does this safety answer the hazard (or limit) now showing?"""
    return pp.battle == OPPOSITE[safety_card] or (safety_card == RIGHT_OF_WAY and pp.speed == SPEED_LIMIT)


def legal_moves(game: Game) -> list[Move]:
    """Moves that would succeed for the player to move.

    Order toggling is a human convenience, not a game move, and is left
    out; so are plays of empty slots.
    """
    player = game.play
    hand = game.players[player].hand
    moves: list[Move] = []
    if draw_error(game, player) is None:
        moves.append(DRAW)
    for slot in range(cards.HAND_SIZE):
        if hand[slot] == EMPTY:
            continue
        if play_error(game, player, slot) is None:
            moves.append(Move(MoveType.PLAY, slot))
        if discard_error(game, player, slot) is None:
            moves.append(Move(MoveType.DISCARD, slot))
    return moves


# --------------------------------------------------------------------------
# Applying moves


class Outcome(Record):
    """What a move did, for the front end."""

    __slots__ = ("error", "passed", "skipped")

    def __init__(self, error: str | None = None, passed: bool = False, skipped: bool = False) -> None:
        self.error = error  # the message to show on the error line
        self.passed = passed  # the turn passed to the other player
        self.skipped = skipped  # the mover had no cards, so play simply passed


def _extension_default(game: Game, slot: int) -> bool:
    return False


def push(game: Game, move: Move, decide_extension: ExtensionDecider = _extension_default) -> Outcome:
    """Apply ``move`` for the player to move, exactly as the original's ``domove``.

    Failed moves still run the hand tidy-up (and may sort the hand), and the
    end-of-hand test runs after every move once the deck is empty.
    """
    player = game.play
    pp = game.players[player]
    if all(c == EMPTY for c in pp.hand):
        game.play = 1 - player
        return Outcome(passed=True, skipped=True)
    was_finished = game.finished
    outcome = Outcome()
    good = True
    kind = move.kind
    slot = move.slot
    if kind is MoveType.DISCARD:
        outcome.error = discard_error(game, player, slot)
        if outcome.error is None:
            if pp.hand[slot] == EMPTY:  # unreachable in practice (slot 6)
                game.finished = True
            else:
                card = pp.hand[slot]
                game.discard = card
                pp.hand[slot] = EMPTY
                outcome.passed = True
                if player == HUMAN:
                    account(game, card)
        elif outcome.error == "discard a safety?":
            good = False
    elif kind is MoveType.PLAY:
        good = _play(game, player, slot, decide_extension, outcome)
    elif kind is MoveType.DRAW:
        outcome.error = draw_error(game, player)
        if outcome.error is None:
            target = 0
            while True:
                card = _draw_card(game)
                pp.hand[target] = card
                if player == COMPUTER:
                    account(game, card)
                    if card >= SAFETY_BASE:
                        pp.safety[card - SAFETY_BASE] = SafetyStatus.IN_HAND
                if target == 0 and pp.hand[1] == EMPTY and game.deck_count > 0:
                    target = 1
                    continue
                break
            pp.new_battle = False
            pp.new_speed = False
    else:
        game.order = not game.order
    tidy_hand(pp, sort=game.order and kind is not MoveType.DRAW and good and player == HUMAN)
    if game.deck_count <= 0:
        check_go(game)
    if outcome.passed:
        game.play = 1 - player
    if game.finished and not was_finished:
        apply_end_of_hand_bonuses(game)
    return outcome


def _play(game: Game, player: int, slot: int, decide_extension: ExtensionDecider, outcome: Outcome) -> bool:
    """Play ``slot``; returns the original's "good play" flag."""
    pp = game.players[player]
    card = pp.hand[slot]
    error = play_error(game, player, slot)
    if card == EMPTY and error == "no card there":
        # Counts as a (turn-keeping) move, so the hand may still be sorted.
        outcome.error = error
        return True
    if error is not None:
        outcome.error = error
        return False
    passes = True
    if card <= MILES_200:
        pp.nummiles[card] += 1
        value = MILES[card]
        pp.total += value
        pp.hand_total += value
        pp.mileage += value
        if pp.mileage == game.end:
            if game.end == 700 and decide_extension(game, slot):
                game.end = 1000
            else:
                game.finished = True
    elif card <= STOP:
        op = game.players[1 - player]
        op.battle = card
        op.new_battle = True
        op.can_go = False
    elif card == SPEED_LIMIT:
        op = game.players[1 - player]
        op.speed = SPEED_LIMIT
        op.new_speed = True
    elif card <= REPAIRS:
        pp.battle = card
        if pp.safety[_RIGHT_OF_WAY_INDEX] == SafetyStatus.PLAYED:
            pp.can_go = True
    elif card == GO:
        pp.battle = GO
        pp.can_go = True
    elif card == END_OF_LIMIT:
        pp.speed = END_OF_LIMIT
    else:
        _play_safety(pp, card)
        passes = False
    if player == HUMAN:
        account(game, card)
    pp.hand[slot] = EMPTY
    outcome.passed = passes
    return True


def _play_safety(pp: Tableau, card: int) -> None:
    if _is_counter(pp, card):
        if not (card == RIGHT_OF_WAY and not is_repair_or_empty(pp.battle)):
            pp.battle = GO
            pp.can_go = True
        if card == RIGHT_OF_WAY and pp.speed == SPEED_LIMIT:
            pp.speed = EMPTY
        if pp.new_battle or (pp.new_speed and card == RIGHT_OF_WAY):
            pp.coups[card - SAFETY_BASE] = True
            pp.total += COUP_BONUS
            pp.hand_total += COUP_BONUS
            pp.coup_score += COUP_BONUS
    pp.safety[card - SAFETY_BASE] = SafetyStatus.PLAYED
    pp.total += SAFETY_POINTS
    pp.hand_total += SAFETY_POINTS
    pp.safety_score += SAFETY_POINTS
    if pp.safety_score == cards.NUM_SAFETIES * SAFETY_POINTS:
        pp.total += ALL_SAFETIES_BONUS
        pp.hand_total += ALL_SAFETIES_BONUS
    if card == RIGHT_OF_WAY:
        if pp.speed == SPEED_LIMIT:
            pp.speed = EMPTY
        if pp.battle == STOP or pp.battle == EMPTY:
            pp.can_go = True
            pp.battle = EMPTY
        if not pp.can_go and is_repair_or_empty(pp.battle):
            pp.can_go = True


def extension_snapshot(game: Game, slot: int) -> Game:
    """A consistent copy of the game while the human is asked ``Extension?``.

    The move is completed as far as it goes before the answer: the card
    leaves the hand (and is counted), the hand is tidied; the trip length,
    the end of the hand and the turn wait for :func:`resolve_extension`.
    The original saved the half-made move instead (card counted but still in
    the hand), which could be played again after a restore.
    """
    snap = game.copy()
    if slot < 0:
        return snap
    pp = snap.players[snap.play]
    card = pp.hand[slot]
    if snap.play == HUMAN:
        account(snap, card)
    pp.hand[slot] = EMPTY
    tidy_hand(pp, sort=snap.order and snap.play == HUMAN)
    return snap


def resolve_extension(game: Game, extend: bool) -> None:
    """Finish a move saved at ``Extension?`` (see :func:`extension_snapshot`)."""
    if extend:
        game.end = 1000
    else:
        game.finished = True
    if game.deck_count <= 0 and not game.finished:
        check_go(game)
    game.play = 1 - game.play
    if game.finished:
        apply_end_of_hand_bonuses(game)


def tidy_hand(pp: Tableau, *, sort: bool) -> None:
    """After every move: sort (human with Order on) or close up the holes.

    The compaction fills each hole in slots 1..6 from the lowest non-empty
    slot, wherever it is, which reorders late-hand cards in the original's
    peculiar way.  An empty hand is left alone (the original's loop ran off
    the end of the hand here and pulled in "phantom" cards).
    """
    hand = pp.hand
    if sort:
        hand.sort()
        return
    for i in range(1, cards.HAND_SIZE):
        if hand[i] == EMPTY:
            for j in range(cards.HAND_SIZE):
                if hand[j] != EMPTY:
                    hand[i] = hand[j]
                    hand[j] = EMPTY
                    break
            else:
                return


def check_go(game: Game) -> None:
    """With the deck empty, the hand ends when nobody holds a playable card."""
    for who in (HUMAN, COMPUTER):
        pp = game.players[who]
        op = game.players[1 - who]
        for card in pp.hand:
            if card >= SAFETY_BASE or can_play(game, pp, op, card):
                return
    game.finished = True
