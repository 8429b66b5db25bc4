"""Rules of 4.4BSD mille: dealing, whose turn it is, legality (with the exact messages), moves.

The API follows python-chess and OpenSpiel in spirit: :func:`phase` says
what the game is waiting for (a move, the ``Extension?`` answer, a player
with no cards passing, or the end of the hand), :func:`legal_moves` lists
what the player to move may do and :func:`push` applies a move.  Every
decision is a move, ``Extension?`` included.  Every check runs in the
original's order, because the order decides which message a player sees
(``limit of 50`` beats ``cannot move now``, and so on).

Moves mutate the :class:`~mille.engine.state.Game` in place; callers that search
copy the game first (``game.copy()`` is cheap).
"""

from __future__ import annotations

from enum import IntEnum

from . import cards
from .cards import (
    EMPTY,
    END_OF_LIMIT,
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
from .record import FrozenRecord
from .scoring import ALL_SAFETIES_BONUS, COUP_BONUS, SAFETY_POINTS, apply_end_of_hand_bonuses
from .state import EXTENDED_TRIP, MOVES_NUM_GOS, TRIP, TWO, Game, Memory, SafetyStatus, Seat, Slot, Table, Tableau

_RIGHT_OF_WAY_INDEX = RIGHT_OF_WAY - SAFETY_BASE
_PLAYED: int = SafetyStatus.PLAYED


class MoveType(IntEnum):
    """Kinds of move.  The first four are the original's (values as in its source)."""

    DISCARD = 0
    DRAW = 1
    PLAY = 2
    ORDER = 3
    #: Answers to ``Extension?``.
    EXTEND = 4
    NO_EXTENSION = 5
    #: A player with no cards left lets the turn pass.
    PASS = 6


class Move(FrozenRecord):
    """A move: draw, play or discard a slot (0 is the P slot), toggle Order, answer, pass.

    ``target``: the side a hazard or Speed Limit goes to (R9), or None for
    the implied one, the next side after the mover's: the only opponent
    side at two sides (two and four seats), so the original's moves never
    name one.  At three sides a hazard names its target.
    """

    __slots__ = ("kind", "slot", "target")
    kind: MoveType
    slot: Slot
    target: int | None

    def __init__(self, kind: MoveType, slot: Slot = 0, target: int | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "target", target)

    def __str__(self) -> str:
        kind = self.kind
        if kind is MoveType.PLAY or kind is MoveType.DISCARD:
            letter = "U" if kind is MoveType.PLAY else "D"
            at = "" if self.target is None else f">{self.target}"
            return f"{letter}{'P' if self.slot == 0 else self.slot}{at}"
        return _MOVE_TEXT[kind]


_MOVE_TEXT = {
    MoveType.DRAW: "P",
    MoveType.ORDER: "O",
    MoveType.EXTEND: "extend",
    MoveType.NO_EXTENSION: "no-extension",
    MoveType.PASS: "pass",
}

DRAW = Move(MoveType.DRAW)
ORDER = Move(MoveType.ORDER)
EXTEND = Move(MoveType.EXTEND)
NO_EXTENSION = Move(MoveType.NO_EXTENSION)
PASS = Move(MoveType.PASS)
#: Every play and discard, by slot (moves are values: these are shared).
PLAYS: tuple[Move, ...] = tuple(Move(MoveType.PLAY, s) for s in range(cards.HAND_SIZE))
DISCARDS: tuple[Move, ...] = tuple(Move(MoveType.DISCARD, s) for s in range(cards.HAND_SIZE))


class Phase(IntEnum):
    """What the game waits for (OpenSpiel's node types, in mille's terms)."""

    #: The player to move chooses a move (draw, play, discard).
    MOVE = 0
    #: The player to move answers ``Extension?`` (EXTEND or NO_EXTENSION).
    EXTENSION = 1
    #: The player to move has no cards: the turn passes (PASS), nobody decides.
    EMPTY_HAND = 2
    #: The hand is over (or none has been dealt): deal, or settle the game.
    HAND_OVER = 3
    #: The player to move is asked, out of turn, for a coup fourré (R10): the
    #: play of the safety against the hazard just put on its side, or PASS.
    #: Never at two seats, where the attacked player always moves next.
    REACTION = 4


class Refusal:
    """Why a move is refused; :func:`refusal_message` gives the original's words.

    Plain ints in a namespace (an Enum class costs start-up time, and
    these are only compared and looked up).
    """

    MUST_PICK = 0
    NO_CARD = 1
    TWO_200S = 2
    SPEED_LIMITED = 3
    OVER_TRIP = 4
    CANNOT_MOVE = 5
    WRONG_REMEDY = 6
    GO_ON_HAZARD = 7
    NOT_LIMITED = 8
    OPPONENT_CANNOT_GO = 9
    OPPONENT_PROTECTED = 10
    OPPONENT_LIMITED = 11
    DISCARD_SAFETY = 12
    NO_MORE_CARDS = 13
    ALREADY_PICKED = 14
    #: Not the original's (more than two seats): a hazard aimed at the
    #: mover's own side or at no side of the table; a move other than the
    #: coup fourré (or PASS) while one is offered.
    NO_SUCH_TARGET = 15
    NOT_A_COUP = 16


_MESSAGES = {
    Refusal.MUST_PICK: "must pick first",
    Refusal.NO_CARD: "no card there",
    Refusal.TWO_200S: "only two 200's per hand",
    Refusal.SPEED_LIMITED: "limit of 50",
    Refusal.OVER_TRIP: "puts you over {trip}",
    Refusal.CANNOT_MOVE: "cannot move now",
    Refusal.WRONG_REMEDY: 'can\'t play "{card}"',
    Refusal.GO_ON_HAZARD: 'cannot play "Go" on a "{battle}"',
    Refusal.NOT_LIMITED: "not limited",
    Refusal.OPPONENT_CANNOT_GO: "opponent cannot go",
    Refusal.OPPONENT_PROTECTED: "opponent is protected",
    Refusal.OPPONENT_LIMITED: "opponent has limit",
    Refusal.DISCARD_SAFETY: "discard a safety?",
    Refusal.NO_MORE_CARDS: "no more cards",
    Refusal.ALREADY_PICKED: "already picked",
    Refusal.NO_SUCH_TARGET: "no such opponent",
    Refusal.NOT_A_COUP: "coup fourre or pass",
}


def refusal_message(refusal: int, game: Game, seat: Seat, slot: Slot) -> str:
    """The original's message for a refused move, in the position it was tried in."""
    players = game.players
    return _MESSAGES[refusal].format(
        trip=game.trip_length,
        card=cards.name(players[seat].hand[slot]),
        battle=cards.name(players[seat % game.table.sides].battle),
    )


class IllegalPhase(ValueError):
    """A move of a kind the game is not waiting for (a programming error, not a refusal)."""


# --------------------------------------------------------------------------
# Shuffling and dealing


def shuffle(game: Game) -> None:
    """Permute the deck array as left by the previous hand (never reset)."""
    deck = game.deck
    rng = game.rng
    size = len(deck)
    for i in range(size):
        r = rng.random() % size
        deck[i], deck[r] = deck[r], deck[i]
    game.deck_count = size


def deal(game: Game) -> None:
    """Deal a new hand from the top (high end) of the deck array.

    Each seat counts its own six cards as they are dealt (§6.1); the
    ``num_gos`` estimate moves only for the seat that starts the hand.  Six
    cards to each seat in turn, from seat 0, as the original dealt its two.
    """
    deck = game.deck
    copies = game.table.copies
    for who in range(len(game.players)):
        pp = game.players[who]
        memory = game.memory[who] = Memory()
        own_turn = game.to_move == who
        hand = pp.hand
        hand[0] = EMPTY
        for slot in range(1, cards.HAND_SIZE):
            game.deck_count -= 1
            card = deck[game.deck_count]
            hand[slot] = card
            memory.count(card, own_turn, copies)
        pp.safety = [0] * cards.NUM_SAFETIES  # SafetyStatus.UNKNOWN
        pp.coups = [False] * cards.NUM_SAFETIES
        pp.mileage = 0
        pp.hand_total = 0
        pp.safety_score = 0
        pp.coup_score = 0
        pp.can_go = False
        pp.speed = EMPTY
        pp.battle = EMPTY
        pp.fresh_limit = False
        pp.fresh_hazard = False
        pp.nummiles = [0] * cards.NUM_MILES
    if game.order:
        game.players[0].hand.sort()
    game.discard = EMPTY
    game.finished = False
    game.pending_extension = None
    game.reaction = None
    game.extender = None
    game.spent = 0
    game.trip_length = game.table.trip


def start_hand(game: Game, *, resumed: bool = False) -> None:
    """Begin a hand: the starter moves one seat left (two seats: alternates), then shuffle and deal.

    A game restored from a save made at the end-of-hand prompts deals at
    once with the saved player to move and no alternation (``resumed``).
    """
    if not resumed:
        game.hand_starter = (game.hand_starter + 1) % len(game.players)
        game.to_move = game.hand_starter
    shuffle(game)
    deal(game)


def new_game(seed: int, tab: Table = TWO) -> Game:
    """A program run's game before its first hand, on ``tab``: dealt as ``mille --seed SEED`` deals (``srandom(seed)``).

    One home for what the tests, the tools and the examples make again and
    again (``mille --seed N``'s first position is ``new_game(N)`` and
    :func:`start_hand`).

    >>> game = new_game(5814)
    >>> start_hand(game)
    >>> game.deck_count, game.to_move
    (89, 0)
    >>> from mille.engine.state import table
    >>> new_game(7, table(4)).table.seats
    4
    """
    from .rng import GlibcRandom

    return Game(rng=GlibcRandom(seed), table=tab)


def settle_game(game: Game) -> None:
    """Game accounting at 5000: the highest total wins a game; a tie for it wins none (R14)."""
    sides = game.players[: game.table.sides]
    best = max(side.total for side in sides)
    leaders = [side for side in sides if side.total == best]
    if len(leaders) == 1:
        leaders[0].games += 1
    for side in sides:
        side.total = 0


def game_over(game: Game) -> bool:
    """A side's total reached the table's game points, 5000 (only looked at between hands)."""
    points = game.table.game_points
    return any(side.total >= points for side in game.players[: game.table.sides])


# --------------------------------------------------------------------------
# Whose turn, and on what


def phase(game: Game) -> Phase:
    """What the game waits for now; the player concerned is ``game.to_move``."""
    if game.pending_extension is not None:
        return Phase.EXTENSION
    if game.finished:
        return Phase.HAND_OVER
    if game.reaction is not None:
        return Phase.REACTION
    if game.players[game.to_move].hand.count(EMPTY) == cards.HAND_SIZE:
        return Phase.EMPTY_HAND
    return Phase.MOVE


# --------------------------------------------------------------------------
# Legality


def has_picked(game: Game, pp: Tableau, slot: Slot) -> bool:
    """The original's ``haspicked``: has this player drawn this turn?

    Always true once the deck is empty.  For a safety the test looks at slot
    1 (a safety played before drawing leaves slots 0 and 1 empty), otherwise
    at the P slot.
    """
    if game.deck_count <= 0:
        return True
    look = 1 if pp.hand[slot] >= SAFETY_BASE else 0
    return pp.hand[look] != EMPTY


def can_play(trip_length: int, pp: Tableau, op: Tableau, card: int) -> bool:
    """The computer's "could this card be played now" test (``canplay``, §6.2).

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
        if card >= MILES_50 and pp.mileage + MILES[card] > trip_length:
            return False
        return pp.can_go
    if card <= STOP:
        return op.can_go and op.safety[SAFETY_FOR[card] - SAFETY_BASE] != _PLAYED
    if card == SPEED_LIMIT:
        return op.speed != SPEED_LIMIT and op.safety[_RIGHT_OF_WAY_INDEX] != _PLAYED and op.mileage + 50 < trip_length
    if card <= REPAIRS:
        return pp.battle == OPPOSITE[card]
    if card == GO:
        return not pp.can_go and (is_repair_or_empty(pp.battle) or pp.battle == STOP)
    if card == END_OF_LIMIT:
        return pp.speed == SPEED_LIMIT
    return False


def play_refusal(game: Game, seat: Seat, slot: Slot, target: int | None = None) -> int | None:
    """Why playing ``slot`` would be refused, or None if it is legal.

    ``target``: the side a hazard goes to (None: the next side after the
    mover's, the only opponent at two sides).  ``NO_CARD`` is returned for
    an empty slot, although the original treats that as a (turn-keeping)
    move rather than a failed one.
    """
    players = game.players
    pp = players[seat]
    hand = pp.hand
    card = hand[slot]
    if card < SAFETY_BASE and not has_picked(game, pp, slot):
        return Refusal.MUST_PICK
    if seat > 1:  # the side's tableau (seats 0 and 1 are sides 0 and 1 at every table)
        pp = players[seat % game.table.sides]
    if card == EMPTY:
        return Refusal.NO_CARD
    if card <= MILES_200:
        if card == MILES_200 and pp.nummiles[MILES_200] == 2:
            return Refusal.TWO_200S
        if card >= MILES_75 and pp.speed == SPEED_LIMIT:
            return Refusal.SPEED_LIMITED
        if card >= MILES_50 and pp.mileage + MILES[card] > game.trip_length:
            return Refusal.OVER_TRIP
        if not pp.can_go:
            return Refusal.CANNOT_MOVE
        return None
    if card == GASOLINE or card == SPARE_TIRE or card == REPAIRS:
        return None if pp.battle == OPPOSITE[card] else Refusal.WRONG_REMEDY
    if card == GO:
        if pp.battle != EMPTY and pp.battle != STOP and not is_repair_or_empty(pp.battle):
            return Refusal.GO_ON_HAZARD
        return None
    if card == END_OF_LIMIT:
        return None if pp.speed == SPEED_LIMIT else Refusal.NOT_LIMITED
    if card <= SPEED_LIMIT:
        if target is None and len(players) == 2:  # the other seat (the two-seat table's every hazard)
            op = players[1 - seat]
        else:
            sides = game.table.sides
            side = seat % sides
            if target is None:
                target = side + 1 if side + 1 < sides else 0
            elif target == side or not 0 <= target < sides:
                return Refusal.NO_SUCH_TARGET
            op = players[target]
        if card == SPEED_LIMIT:
            if op.speed == SPEED_LIMIT:
                return Refusal.OPPONENT_LIMITED
            if op.safety[_RIGHT_OF_WAY_INDEX] == _PLAYED:
                return Refusal.OPPONENT_PROTECTED
            return None
        if not op.can_go:
            return Refusal.OPPONENT_CANNOT_GO
        if op.safety[SAFETY_FOR[card] - SAFETY_BASE] == _PLAYED:
            return Refusal.OPPONENT_PROTECTED
        return None
    # A safety: before drawing, only as a counter to the hazard showing.
    if not _is_counter(pp, card) and hand[0] == EMPTY and game.deck_count > 0:
        return Refusal.MUST_PICK
    return None


def seen_turn(game: Game, seat: Seat | None = None) -> Seat:
    """Whose turn ``seat`` sees (None: the table, everyone not asked anything).

    While a coup fourré is asked out of turn (R10, the ``REACTION`` phase),
    the question is the asked seat's own: its asking alone would tell that
    it holds the safety.  Every other seat sees the turn go on as if nobody
    had been asked: the seat that moves next if the coup is let pass.
    """
    reaction = game.reaction
    if reaction is not None and game.to_move != seat:
        return reaction
    return game.to_move


def coup_slot(game: Game) -> Slot | None:
    """In the ``REACTION`` phase: the slot of the safety that makes the coup fourré."""
    seat = game.to_move
    pp = game.players[seat % game.table.sides]
    hand = game.players[seat].hand
    for slot in range(cards.HAND_SIZE):
        card = hand[slot]
        fresh = pp.fresh_hazard or (pp.fresh_limit and card == RIGHT_OF_WAY)
        if card >= SAFETY_BASE and fresh and _is_counter(pp, card):
            return slot
    return None


def discard_refusal(game: Game, seat: Seat, slot: Slot) -> int | None:
    """Why discarding ``slot`` would be refused, or None."""
    pp = game.players[seat]
    if not has_picked(game, pp, slot):
        return Refusal.MUST_PICK
    card = pp.hand[slot]
    if card == EMPTY:
        return None if slot == 6 else Refusal.NO_CARD
    if card >= SAFETY_BASE:
        return Refusal.DISCARD_SAFETY
    return None


def draw_refusal(game: Game, seat: Seat) -> int | None:
    if game.deck_count <= 0:
        return Refusal.NO_MORE_CARDS
    if has_picked(game, game.players[seat], 0):
        return Refusal.ALREADY_PICKED
    return None


def _is_counter(pp: Tableau, safety_card: int) -> bool:
    """Does this safety answer the hazard (or limit) now showing?"""
    return pp.battle == OPPOSITE[safety_card] or (safety_card == RIGHT_OF_WAY and pp.speed == SPEED_LIMIT)


def legal_moves(game: Game) -> list[Move]:
    """Moves that would succeed for the player to move, in the current phase.

    In the ``MOVE`` phase: a draw, then plays and discards by slot.  Order
    toggling is a human convenience, not a game move, and is left out; so
    are plays of empty slots.  ``EXTENSION``: EXTEND, NO_EXTENSION.
    ``EMPTY_HAND``: PASS.  ``HAND_OVER``: none.  ``REACTION``: the coup
    fourré, PASS.  A hazard names its target side only where there is more
    than one (three sides), once for each side it may go to.
    """
    now = phase(game)
    if now is Phase.EXTENSION:
        return [EXTEND, NO_EXTENSION]
    if now is Phase.HAND_OVER:
        return []
    if now is Phase.EMPTY_HAND:
        return [PASS]
    if now is Phase.REACTION:
        slot = coup_slot(game)
        return [PASS] if slot is None else [PLAYS[slot], PASS]
    seat = game.to_move
    hand = game.players[seat].hand
    sides = game.table.sides
    moves: list[Move] = []
    if draw_refusal(game, seat) is None:
        moves.append(DRAW)
    if sides == 2:  # every hazard to the one other side (the loop below without its test, for speed)
        for slot in range(cards.HAND_SIZE):
            if hand[slot] == EMPTY:
                continue
            if play_refusal(game, seat, slot) is None:
                moves.append(PLAYS[slot])
            if discard_refusal(game, seat, slot) is None:
                moves.append(DISCARDS[slot])
        return moves
    for slot in range(cards.HAND_SIZE):
        card = hand[slot]
        if card == EMPTY:
            continue
        if OUT_OF_GAS <= card <= SPEED_LIMIT:
            for target in range(sides):
                if target != seat % sides and play_refusal(game, seat, slot, target) is None:
                    moves.append(Move(MoveType.PLAY, slot, target))
        elif play_refusal(game, seat, slot) is None:
            moves.append(PLAYS[slot])
        if discard_refusal(game, seat, slot) is None:
            moves.append(DISCARDS[slot])
    return moves


# --------------------------------------------------------------------------
# Applying moves


class Outcome(FrozenRecord):
    """What a move did, for the front end."""

    __slots__ = ("refusal", "error", "passed", "skipped")
    refusal: int | None  # a Refusal: why the move was refused (None: it was made)
    error: str | None  # the message to show on the error line
    passed: bool  # the turn passed to the other player
    skipped: bool  # the mover had no cards, so play simply passed

    def __init__(
        self, refusal: int | None = None, error: str | None = None, passed: bool = False, skipped: bool = False
    ) -> None:
        self._init(refusal=refusal, error=error, passed=passed, skipped=skipped)


#: The outcomes of every move that is not refused (shared: outcomes are values).
MADE = Outcome()
MADE_PASSED = Outcome(passed=True)
SKIPPED = Outcome(passed=True, skipped=True)


def _refused(game: Game, seat: Seat, slot: Slot, refusal: int) -> Outcome:
    return Outcome(refusal, refusal_message(refusal, game, seat, slot))


def push(game: Game, move: Move) -> Outcome:
    """Apply ``move`` for the player to move, exactly as the original's ``domove``.

    Refused moves still run the hand tidy-up (and may sort the hand), and
    the end-of-hand test runs after every move once the deck is empty.  A
    mileage card that lands on exactly 700 stops half-way, as the original
    does to ask ``Extension?``: the card is counted but still in the hand
    and :func:`phase` is ``EXTENSION`` until the answer is pushed.

    Raises :class:`IllegalPhase` for a move the game is not waiting for (an
    answer with no question open, a move while a question is open or the
    hand is over, PASS with cards in hand, a card move with none).
    """
    kind = move.kind
    seat = game.to_move
    now = phase(game)
    if now is not Phase.MOVE:  # a question, an empty hand, or the hand over (the rarer phases, first tested once)
        return _push_out_of_move(game, move, now)
    if kind is MoveType.PASS:
        raise IllegalPhase(f"{move}: PASS is the move exactly when the hand is empty")
    hand = game.players[seat].hand
    slot = move.slot
    if kind is MoveType.DRAW:
        refusal = draw_refusal(game, seat)
        if refusal is None:
            draw_card(game, seat)
            return MADE
        sort = False
    elif kind is MoveType.PLAY:
        target = move.target
        refusal = play_refusal(game, seat, slot, target)
        if refusal is None:
            return MADE_PASSED if play_card(game, seat, slot, target) else MADE
        # An empty slot counts as a (turn-keeping) move: the hand may still be sorted.
        sort = hand[slot] == EMPTY and refusal == Refusal.NO_CARD
    elif kind is MoveType.DISCARD:
        refusal = discard_refusal(game, seat, slot)
        if refusal is None:
            if hand[slot] != EMPTY:
                discard_card(game, seat, slot)
                return MADE_PASSED
            game.finished = True  # unreachable in practice (slot 6)
        sort = refusal != Refusal.DISCARD_SAFETY
    elif kind is MoveType.ORDER:
        game.order = not game.order
        refusal = None
        sort = True
    else:
        raise IllegalPhase(f"{move}: Extension? has not been asked")
    # A refused move (or the Order toggle) keeps the turn but is still a move.
    _finish_move(game, seat, False, sort)
    return MADE if refusal is None else _refused(game, seat, slot, refusal)


def _push_out_of_move(game: Game, move: Move, now: Phase) -> Outcome:
    """:func:`push` in every phase but ``MOVE``: a coup fourré asked, ``Extension?``, an empty hand, the hand over.

    Apart from :func:`push` so that its common case, a move in the ``MOVE``
    phase, tests the phase once (the protocol path's speed: issue 38).
    """
    kind = move.kind
    seat = game.to_move
    if now is Phase.REACTION:
        if kind is MoveType.PASS:
            decline_coup(game)
            return MADE_PASSED
        if kind is MoveType.PLAY and move.slot == coup_slot(game):
            game.reaction = None  # the turn is the holder's now (R10)
            play_card(game, seat, move.slot)
            return MADE
        return _refused(game, seat, move.slot, Refusal.NOT_A_COUP)
    if now is Phase.EXTENSION:
        if kind is not MoveType.EXTEND and kind is not MoveType.NO_EXTENSION:
            raise IllegalPhase(f"{move}: the game waits for the answer to Extension?")
        answer_extension(game, kind is MoveType.EXTEND)
        return MADE_PASSED
    if now is Phase.HAND_OVER:
        raise IllegalPhase(f"{move}: the hand is over")
    if kind is not MoveType.PASS:  # the hand is empty
        raise IllegalPhase(f"{move}: PASS is the move exactly when the hand is empty")
    pass_turn(game, seat)
    return SKIPPED


# --------------------------------------------------------------------------
# The parts of a move.  Each applies one checked move of the player to move
# and finishes it with _finish_move, the only code that ends a move; fast
# loops that only make legal moves (mille.players.bsd.play_out) call them
# directly instead of push.


def _finish_move(game: Game, seat: Seat, passed: bool, sort: bool, end_test: bool = True) -> None:
    """The tail of every move: tidy the hand, the end test at an empty deck, the turn, the bonuses.

    ``sort``: the move lets an Order-keeping hand (seat 0's, §3.6) be sorted.
    ``end_test``: the end test runs (the original skips it when an empty
    hand passes).  A move is only made while the hand is on, so a hand
    finished now was finished by this move, and its end-of-hand bonuses are
    added here, once.  (Arguments by position: this runs after every move
    of every rollout.)
    """
    pp = game.players[seat]
    hand = pp.hand
    if sort and game.order and seat == 0:
        hand.sort()
    elif EMPTY in hand:  # a hand without a hole needs no tidying
        if hand.count(EMPTY) != 1:
            tidy_hand(pp, sort=False)
        elif hand[0] != EMPTY:
            # The common case (a full hand that has just lost one card),
            # without the call: tidy_hand would move the card in the P slot
            # into the hole.
            hole = hand.index(EMPTY)
            hand[hole] = hand[0]
            hand[0] = EMPTY
        # else the one hole is the P slot, where tidy_hand leaves it.
    if end_test and game.deck_count <= 0:
        check_go(game)
    if passed:
        game.to_move = game.table.after[seat]
    if game.finished:
        apply_end_of_hand_bonuses(game)


def draw_card(game: Game, seat: Seat) -> None:
    """Draw for ``seat``, known to be allowed: into the P slot, and slot 1 too if it is empty.

    The one draw of the engine (§3.3): the drawn cards are counted by the
    drawer, and a draw ends the drawer's side's chance of a coup fourré on
    the hazard put on it.
    """
    pp = game.players[seat]
    hand = pp.hand
    deck = game.deck
    memory = game.memory[seat]
    deck_count = game.deck_count - 1
    card = deck[deck_count]
    hand[0] = card
    if MOVES_NUM_GOS[card]:
        memory.count(card, True, game.table.copies)
    else:  # (most cards: only the count of cards seen moves)
        memory.num_seen[card] += 1
    if hand[1] == EMPTY and deck_count > 0:
        deck_count -= 1
        card = deck[deck_count]
        hand[1] = card
        memory.count(card, True, game.table.copies)
    game.deck_count = deck_count
    if seat > 1:  # (seats 0 and 1 are sides 0 and 1 at every table)
        pp = game.players[seat % game.table.sides]
    pp.fresh_hazard = False
    pp.fresh_limit = False
    if deck_count <= 0 or EMPTY in hand:
        _finish_move(game, seat, False, False)
    # else nothing is left to finish: a full hand needs no tidying, the end
    # test waits for an empty deck, and a draw keeps the turn.


def play_card(game: Game, seat: Seat, slot: Slot, target: int | None = None) -> bool:
    """Play ``seat``'s card in ``slot`` (a hazard on side ``target``), known to be legal; True if the turn passed.

    A mileage card that reaches 700 leaves the move waiting at
    ``Extension?`` (:func:`answer_extension` finishes it).  A hazard on a
    side whose safety a seat other than the next one holds leaves the game
    asking that seat for the coup fourré (R10, the ``REACTION`` phase).
    """
    players = game.players
    if len(players) == 2:  # each seat its own side, no coup fourré out of turn (the hot path of every rollout)
        pp = players[seat]
        passed = _play(game, seat, pp, pp.hand, slot, target)
        if game.pending_extension is None:
            _finish_move(game, seat, passed, True)
        return passed
    target = _target(game, seat, target)
    hand = players[seat].hand
    card = hand[slot]
    passed = _play(game, seat, players[seat % game.table.sides], hand, slot, target)
    if game.pending_extension is None:
        _finish_move(game, seat, passed, True)
        if OUT_OF_GAS <= card <= SPEED_LIMIT:
            _offer_coup(game, target)
    return passed


def _target(game: Game, seat: Seat, target: int | None) -> int:
    """The side a hazard goes to: ``target``, or the next side after ``seat``'s."""
    if target is not None:
        return target
    sides = game.table.sides
    side = seat % sides + 1
    return 0 if side == sides else side


def _offer_coup(game: Game, target: int) -> None:
    """After a hazard on side ``target``: ask its holder of the safety, unless that holder moves next.

    At two seats the attacked player always moves next, and the original's
    model is the rule: the safety played as its next move, before it draws,
    is the coup fourré.  At more, a holder elsewhere at the side is asked
    now, out of turn (R10); if it declines, play resumes at the next seat.
    """
    players = game.players
    seats = len(players)
    nxt = game.to_move
    if (seats == game.table.sides and nxt == target) or game.finished:
        return  # the side's one seat moves next
    pp = players[target]
    hazard, limit = pp.fresh_hazard, pp.fresh_limit
    for holder in range(target, seats, game.table.sides):
        if holder != nxt:
            hand = players[holder].hand
            for card in hand:
                # Only against the hazard just played (as coup_slot reads it): a seat is never
                # asked when it could only pass, which would tell the table it holds a safety.
                if card >= SAFETY_BASE and (hazard or (limit and card == RIGHT_OF_WAY)) and _is_counter(pp, card):
                    game.reaction = nxt
                    game.to_move = holder
                    return


def decline_coup(game: Game) -> None:
    """The seat asked for a coup fourré lets it pass: play resumes where it would have, the chance gone.

    Gone in secret (issue 43): the side's hazard stays as fresh on the
    table as when nobody held the safety, so that no one learns from the
    next view that someone was asked; ``game.spent`` says the chance is
    gone, read where the fresh hazard is (:func:`_play`, a new hazard on
    the side, and :func:`_play_safety`).
    """
    game.spent |= 1 << game.to_move % game.table.sides
    resume = game.reaction
    assert resume is not None
    game.reaction = None
    game.to_move = resume


def _seen_by_others(game: Game, seat: Seat, card: int) -> None:
    """Every seat but ``seat`` sees ``card`` played or discarded (Memory.count, not on the counter's turn)."""
    memory = game.memory
    for other in range(len(memory)):
        if other != seat:
            memory[other].num_seen[card] += 1


def discard_card(game: Game, seat: Seat, slot: Slot) -> None:
    """Discard ``seat``'s card in ``slot``, known to be legal: the other seats see it, the turn passes."""
    hand = game.players[seat].hand
    card = hand[slot]
    game.discard = card
    hand[slot] = EMPTY
    memory = game.memory
    if len(memory) == 2:  # _seen_by_others, inline for two seats (the hot path)
        memory[1 - seat].num_seen[card] += 1
    else:
        _seen_by_others(game, seat, card)
    _finish_move(game, seat, True, True)


def answer_extension(game: Game, extend: bool) -> None:
    """Finish the move held at ``Extension?``: the trip, then the rest of the play."""
    seat = game.to_move
    hand = game.players[seat].hand
    slot = game.pending_extension
    game.pending_extension = None
    if extend:
        game.trip_length = EXTENDED_TRIP
        if game.table.parker:  # only Parker's bonus asks who called it (and saves stay as they were)
            game.extender = seat % game.table.sides
    else:
        game.finished = True
    if slot is not None and slot >= 0:
        card = hand[slot]
        _seen_by_others(game, seat, card)
        hand[slot] = EMPTY
    # else: a version-1 save, whose card had already left the (tidied) hand.
    _finish_move(game, seat, True, True)


def pass_turn(game: Game, seat: Seat) -> None:
    """``seat`` has no cards: the turn passes (nobody decides anything).

    If every other hand is empty too, nobody can ever move again and the
    hand is over.  Play never gets there with cards left in the deck (a hand is
    refilled by drawing, and an empty deck ends the hand once nobody can
    play), but a constructed position can, and the engine must not pass
    the turn back and forth for ever.
    """
    if all(p.hand.count(EMPTY) == cards.HAND_SIZE for p in game.players):
        game.finished = True
    _finish_move(game, seat, True, False, False)


def _play(game: Game, seat: Seat, pp: Tableau, hand: list[int], slot: Slot, target: int | None) -> bool:
    """Play the (legal) card in ``slot`` of ``hand`` on the side's tableau ``pp`` (a hazard on side ``target``,
    at two seats None for the other seat's).

    True if the turn passes (not after a safety).
    """
    card = hand[slot]
    passed = True
    if card <= MILES_200:
        pp.nummiles[card] += 1
        value = MILES[card]
        pp.total += value
        pp.hand_total += value
        pp.mileage += value
        if pp.mileage == game.trip_length:
            if game.trip_length == TRIP and game.table.extension:
                # Ask Extension? now, with the card still in the hand.
                game.pending_extension = slot
                return False
            game.finished = True
    elif card <= STOP:
        op = game.players[1 - seat if target is None else target]
        if game.spent:
            _unspend(game, 1 - seat if target is None else target)
        op.battle = card
        op.fresh_hazard = True
        op.can_go = False
    elif card == SPEED_LIMIT:
        op = game.players[1 - seat if target is None else target]
        if game.spent:
            _unspend(game, 1 - seat if target is None else target)
        op.speed = SPEED_LIMIT
        op.fresh_limit = True
    elif card <= REPAIRS:
        pp.battle = card
        if pp.safety[_RIGHT_OF_WAY_INDEX] == _PLAYED:
            pp.can_go = True
    elif card == GO:
        pp.battle = GO
        pp.can_go = True
    elif card == END_OF_LIMIT:
        pp.speed = END_OF_LIMIT
    else:
        _play_safety(pp, card, bool(game.spent >> seat % game.table.sides & 1))
        passed = False
    memory = game.memory
    if len(memory) == 2:  # _seen_by_others, inline for two seats (the hot path)
        memory[1 - seat].num_seen[card] += 1
    else:
        _seen_by_others(game, seat, card)
    hand[slot] = EMPTY
    return passed


def _unspend(game: Game, side: int) -> None:
    """A new hazard on ``side``: a chance let pass there before is over, its fresh flags cleared (as a pass
    cleared them before issue 43), so that the new hazard's chance is the only one."""
    bit = 1 << side
    if game.spent & bit:
        game.spent &= ~bit
        pp = game.players[side]
        pp.fresh_hazard = False
        pp.fresh_limit = False


def _play_safety(pp: Tableau, card: int, spent: bool = False) -> None:
    if _is_counter(pp, card):
        if not (card == RIGHT_OF_WAY and not is_repair_or_empty(pp.battle)):
            pp.battle = GO
            pp.can_go = True
        if card == RIGHT_OF_WAY and pp.speed == SPEED_LIMIT:
            pp.speed = EMPTY
        if (pp.fresh_hazard or (pp.fresh_limit and card == RIGHT_OF_WAY)) and not spent:
            pp.coups[card - SAFETY_BASE] = True
            pp.total += COUP_BONUS
            pp.hand_total += COUP_BONUS
            pp.coup_score += COUP_BONUS
    pp.safety[card - SAFETY_BASE] = _PLAYED
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


def tidy_hand(pp: Tableau, *, sort: bool) -> None:
    """After every move: sort (seat 0 with Order on) or close up the holes.

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


def can_anyone_play(game: Game) -> bool:
    """The end test's question (§3.8): does any hand hold a safety or a card :func:`can_play` accepts?

    At more than two sides, a card is playable if :func:`can_play` accepts
    it against any opponent side (R12: BSD's early test, generalized).
    """
    trip = game.trip_length
    players = game.players
    if len(players) == 2:  # the loop below for two seats, written out (after every move of a rollout's end)
        first, second = players
        for pp, op in ((first, second), (second, first)):
            for card in pp.hand:
                if card >= SAFETY_BASE or can_play(trip, pp, op, card):
                    return True
        return False
    sides = game.table.sides
    for who in range(len(players)):
        side = who % sides
        pp = players[side]
        for card in players[who].hand:
            if card >= SAFETY_BASE:
                return True
            for target in range(sides):
                if target != side and can_play(trip, pp, players[target], card):
                    return True
    return False


def check_go(game: Game) -> None:
    """With the deck empty, the hand ends when nobody holds a playable card."""
    if not can_anyone_play(game):
        game.finished = True
