"""The 4.4BSD computer player, decision for decision: the player ``bsd``.

A faithful port of the original's ``calcmove`` (§6.3): the card counting,
the safety timing (whose dice roll consumes a generator, so in the
interactive game the human's choices change later deals), the valuation of
every card with its running variables, and the quirks of the compiled
binary that change its play:

* ``cango`` is a boolean, so the first "too close" 25/50 flips the whole
  valuation into discard mode;
* the "cards needed" table (:attr:`BsdPlayer.num_need`) is never reset and
  is bumped twice per decision while the player is stopped by a hazard;
* ``one_card`` reads the seen-count of the 100 card where Right of Way was
  meant.

The procedure reads only what its seat may know: its own hand and tableau,
what lies on the other tableau, its own counting memory, the deck count and
the trip length.  It can therefore sit in either seat.  The original's crash
when no card can be chosen for discarding is not reproduced: the
lowest-valued card is chosen anyway (§12.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import cards, driver
from ..engine.cards import (
    COPIES,
    EMPTY,
    END_OF_LIMIT,
    GASOLINE,
    GO,
    MILES,
    MILES_25,
    MILES_50,
    MILES_75,
    MILES_100,
    MILES_200,
    OPPOSITE,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
    is_repair_or_empty,
)
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.rules import (
    DISCARDS,
    DRAW,
    EXTEND,
    NO_EXTENSION,
    PASS,
    PLAYS,
    Move,
    MoveType,
    Phase,
    answer_extension,
    coup_slot,
    discard_card,
    draw_card,
    pass_turn,
    play_card,
)
from ..engine.scoring import hand_result
from ..engine.state import EXTENDED_TRIP, TRIP, Game, Memory, SafetyStatus, Tableau
from .base import Decision

_ROW = RIGHT_OF_WAY - SAFETY_BASE
_HAND_SIZE = cards.HAND_SIZE
_NUM_TABLE = cards.NUM_TABLE
_QUARTER_DECK = cards.DECK_SIZE // 4
# Plain ints for the hot paths (IntEnum comparisons are slower).
_UNKNOWN: int = SafetyStatus.UNKNOWN
_IN_HAND: int = SafetyStatus.IN_HAND
_PLAYED: int = SafetyStatus.PLAYED

#: Value of a card that would finish the trip (the original's V_VALUABLE).
_VALUABLE = 40

#: The starting "cards needed" estimates, by card code (§6.1).  The original
#: keeps this table for the whole program run and never resets it.
INITIAL_NUM_NEED: tuple[int, ...] = (0, 0, 0, 0, 0, 2, 2, 2, 4, 3, 2, 2, 2, 10, 3, 1, 1, 1, 1, 0)


# Decisions are values: every one the procedure can make, made once.
_DRAW_DECISION = Decision(DRAW)
_SILENT_PLAY = tuple(Decision(m) for m in PLAYS)
_CONSIDERED_PLAY = tuple(Decision(m, considered=True) for m in PLAYS)
_CONSIDERED_DISCARD = tuple(Decision(m, considered=True) for m in DISCARDS)
_EXTEND_DECISION = Decision(EXTEND)
_NO_EXTENSION_DECISION = Decision(NO_EXTENSION)
_PASS_DECISION = Decision(PASS)


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncates toward zero); a zero divisor leaves ``a``."""
    if b == 0:
        return a
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def own_safeties(pp: Tableau) -> list[int]:
    """The player's view of its own safeties: played, in hand, or unknown.

    The original marked a safety "in hand" as the computer drew it; a safety
    cannot be discarded, so that is exactly "in the hand now".
    """
    own = [_PLAYED if s == _PLAYED else _UNKNOWN for s in pp.safety]
    for card in pp.hand:
        if card >= SAFETY_BASE and own[card - SAFETY_BASE] != _PLAYED:
            own[card - SAFETY_BASE] = _IN_HAND
    return own


def one_card(seen: list[int], trip: int, pp: Tableau, copies: tuple[int, ...] = COPIES) -> bool:
    """Could ``pp`` finish the trip with one more card?

    Reads ``seen[3]`` (the 100 card) where the original meant "has Right
    of Way been seen"; the binary does exactly that.
    """
    bat = pp.battle
    spd = pp.speed
    if not (
        pp.can_go
        or ((is_repair_or_empty(bat) or bat == STOP or spd == SPEED_LIMIT) and seen[MILES_100] != 0)
        or (bat >= 0 and seen[max(SAFETY_FOR[bat], 0)] != 0)
    ):
        return False
    left = trip - pp.mileage
    if left == 200:
        if pp.nummiles[MILES_200] == 2:
            return False
        card = MILES_200
    elif left == 100:
        card = MILES_100
    elif left == 75:
        card = MILES_75
    elif left == 50:
        card = MILES_50
    elif left == 25:
        card = MILES_25
    else:
        return False
    if card >= MILES_75 and spd == SPEED_LIMIT:
        return seen[MILES_100] == 0
    return seen[card] != copies[card]


def would_extend(
    pp: Tableau, op: Tableau, memory: Memory, trip: int, deck_count: int, copies: tuple[int, ...] = COPIES
) -> bool:
    """The choice at exactly 700 (§6.6): extend the trip to 1000?

    Evaluated with the finishing card still in the player's hand.  At a
    table of more sides the player asks it of each opponent side and
    extends only if every answer is yes (:meth:`BsdPlayer.decide`).
    """
    if trip != TRIP:
        return False
    if max(pp.hand) < SAFETY_BASE and pp.safety.count(_PLAYED) < 2:
        return False  # fewer than two safeties known (the common case, decided cheaply)
    own = own_safeties(pp)
    known = sum(1 for s in own if s != _UNKNOWN)
    if known < 2:
        return False
    if op.mileage == 0 or one_card(memory.num_seen, trip, op, copies) or (op.can_go and op.mileage >= 500):
        return False
    unknown = sum(1 for i in range(cards.NUM_SAFETIES) if op.safety[i] != _PLAYED and own[i] == _UNKNOWN)
    if unknown + known == cards.NUM_SAFETIES:
        return True
    # An empty slot is worth 0 miles in the binary.
    miles = sum(MILES[c] for c in pp.hand if 0 <= c <= MILES_200)
    return miles + deck_count * 3 > EXTENDED_TRIP


def decide(
    pp: Tableau,
    op: Tableau,
    memory: Memory,
    trip: int,
    deck_count: int,
    num_need: list[int],
    dice: GlibcRandom,
    repaired: bool = False,
    copies: tuple[int, ...] = COPIES,
    quarter_deck: int = _QUARTER_DECK,
) -> Decision:
    """Choose a move in the ``MOVE`` phase for the owner of ``pp``.

    ``copies`` and ``quarter_deck``: the table's deck (the original's by
    default; 106 cards at four and six seats).

    ``op`` is read only for what lies on the table.  Consumes a die roll
    from ``dice`` when timing a safety, and bumps ``num_need``.

    ``repaired``: the expert's policy (:mod:`mille.players.plus`), the
    procedure step for step (the same dice, the same ``num_need`` bumps)
    but for its "too close" quirk: a 25 or 50 that would leave the player
    too close to the end is declined (valued -1, never the play chosen)
    instead of switching the whole valuation to discard mode, which happens
    only if nothing is then worth playing (the best value is 0 or less);
    and it attacks first: a hazard's value is doubled when it is choosing
    a play.

    This is the hot path of every rollout: the legality test of step 1
    (:func:`mille.engine.rules.can_play`) and :func:`own_safeties` are written out
    inline, with the tableaus' fields read once; the decisions are exactly
    those of the procedure as §6.3 states it (``tests/players/test_computer.py``
    and the recorded engine games check them).
    """
    hand = pp.hand
    battle = pp.battle
    limited = pp.speed == SPEED_LIMIT
    if hand[0] == EMPTY and deck_count > 0:
        # Steps 1 and 2 when the player has yet to draw: a safety that
        # answers the hazard showing is played at once, else it draws (the
        # rest of step 1's scan decides nothing here).
        for i in range(_HAND_SIZE):
            card = hand[i]
            if card >= SAFETY_BASE and (battle == OPPOSITE[card] or (limited and card == RIGHT_OF_WAY)):
                return _SILENT_PLAY[i]
        return _DRAW_DECISION
    seen = memory.num_seen
    can_go = pp.can_go
    mileage = pp.mileage
    played = pp.safety
    # own_safeties(pp), the hand's safeties marked in the scan below.
    own = [
        _PLAYED if played[0] == _PLAYED else _UNKNOWN,
        _PLAYED if played[1] == _PLAYED else _UNKNOWN,
        _PLAYED if played[2] == _PLAYED else _UNKNOWN,
        _PLAYED if played[3] == _PLAYED else _UNKNOWN,
    ]
    safe = 0
    cango = False
    canstop = False
    foundend = False
    count = [0] * _NUM_TABLE
    playit = [False] * _HAND_SIZE

    # Step 1: scan the hand; a safety that answers the hazard showing is
    # played at once (a coup fourré if the hazard is new).  can_play inline.
    for i in range(_HAND_SIZE):
        card = hand[i]
        if card < 0:
            continue
        count[card] += 1
        if card <= MILES_200:
            if (
                can_go
                and not (card >= MILES_75 and (limited or (card == MILES_200 and pp.nummiles[MILES_200] == 2)))
                and not (card >= MILES_50 and mileage + MILES[card] > trip)
            ):
                playit[i] = cango = True
                if mileage + MILES[card] == trip:
                    foundend = True
        elif card <= STOP:
            if op.can_go and op.safety[SAFETY_FOR[card] - SAFETY_BASE] != _PLAYED:
                playit[i] = cango = canstop = True
        elif card == SPEED_LIMIT:
            if op.speed != SPEED_LIMIT and op.safety[_ROW] != _PLAYED and op.mileage + 50 < trip:
                playit[i] = cango = True
                if seen[MILES_25] == copies[MILES_25] and seen[MILES_50] == copies[MILES_50]:
                    canstop = True
        elif card <= REPAIRS:
            if battle == OPPOSITE[card]:
                playit[i] = cango = True
        elif card == GO:
            if not can_go and (battle == EMPTY or battle == STOP or GASOLINE <= battle <= REPAIRS):
                playit[i] = cango = True
        elif card == END_OF_LIMIT:
            if limited:
                playit[i] = cango = True
        else:  # a safety
            if battle == OPPOSITE[card] or (limited and card == RIGHT_OF_WAY):
                return _SILENT_PLAY[i]
            safe += 1
            playit[i] = True
            if own[card - SAFETY_BASE] != _PLAYED:
                own[card - SAFETY_BASE] = _IN_HAND

    # Step 2 (draw first) was taken above, before the scan.

    # Step 3: a finishing card only counts if the player would not extend.
    if foundend:
        foundend = not would_extend(pp, op, memory, trip, deck_count)

    # Step 4: when to play a safety instead of holding it for a coup.
    # ``one_card`` of the opponent is computed once, when first needed (it
    # reads nothing this step or step 6 changes).
    oc: bool | None = None
    i = 0
    while safe and i < _HAND_SIZE:
        card = hand[i]
        if card >= SAFETY_BASE:
            if oc is None:
                oc = one_card(seen, trip, op, copies)
            if oc or (foundend and cango and not canstop):
                return _SILENT_PLAY[i]
            hazard = OPPOSITE[card]
            if seen[hazard] == copies[hazard] and not (
                card == RIGHT_OF_WAY and seen[SPEED_LIMIT] != copies[SPEED_LIMIT]
            ):
                return _SILENT_PLAY[i]
            if not cango and (op.can_go or not can_go):
                x = deck_count - dice.roll(10)
                if (mileage == 0) != (op.mileage == 0):
                    x -= 7
                if x < quarter_deck:
                    return _SILENT_PLAY[i]
            safe -= 1
            playit[i] = cango
        i += 1

    # Step 5: the first of two bumps of the never-reset "needed" table.
    stopped = not can_go and battle != EMPTY and not (GASOLINE <= battle <= REPAIRS)
    if stopped:
        num_need[OPPOSITE[battle]] += 1

    # Step 6: value every card; restarts in discard mode if a small
    # distance card would bring the player "too close" to the end (or, the
    # quirk repaired, if nothing but such a card is worth playing).  The
    # remedy and attack formulas are written out inline, and ``one_card``
    # of the opponent is computed once (``oc``, from step 4).
    num_gos = memory.num_gos
    need = num_need
    end = trip
    row_status = own[_ROW]
    op_safety = op.safety
    op_mileage = op.mileage
    op_limited = op.speed == SPEED_LIMIT
    op_can_go = op.can_go
    while True:
        restart = False
        foundlow = (
            cango or count[END_OF_LIMIT] != 0 or seen[SPEED_LIMIT] == copies[SPEED_LIMIT] or row_status != _UNKNOWN
        )
        foundend = False
        count200 = pp.nummiles[MILES_200]
        badcount = 0
        curmax = -1
        curmin = 101
        nummax = -1
        nummin = -1
        values = [0] * _HAND_SIZE
        for i in range(_HAND_SIZE):
            card = hand[i]
            if card < 0:
                continue  # an empty slot: 0, never chosen
            if card >= SAFETY_BASE:
                value = 0 if cango else 101
            elif playit[i] != cango:
                value = 0 if cango else 101
            elif card <= MILES_200:
                if card <= MILES_50:
                    diff = end - mileage
                    if (
                        deck_count > 0
                        and cango
                        and diff <= 100
                        and diff // MILES[card] > count[card]
                        and (card == MILES_25 or diff % 50 == 0)
                        and not (card == MILES_50 and diff == 75 and count[MILES_25] > 0)
                    ):
                        if repaired:
                            # Too close: not this card (the original gives up playing).
                            values[i] = -1
                            if curmax <= -1:
                                nummax = i
                                curmax = -1
                            if curmin >= -1:
                                nummin = i
                                curmin = -1
                            continue
                        # Too close: switch to discard mode and start over.
                        cango = False
                        restart = True
                        break
                    value = MILES[card] >> 3
                    value += 1 if limited else -1
                    if not foundlow and (card == MILES_50 or count[MILES_50] == 0):
                        value = 10 if mileage else 20
                        foundlow = True
                    miles = True
                else:
                    if card == MILES_200:
                        count200 += 1
                    miles = card != MILES_200 or count200 <= 2
                    value = (MILES[card] >> 3) + (-1 if limited else 1) if miles else 0
                if miles:
                    reach = mileage + MILES[card]
                    if reach > end:
                        value = card if end == TRIP else 0
                    elif reach == end:
                        value = card if foundend else _VALUABLE
                        foundend = True
            elif card == END_OF_LIMIT:
                if row_status != _UNKNOWN:
                    value = -1 if row_status == _PLAYED else 1
                elif limited and end - mileage <= 50:
                    value = 1
                elif limited or seen[SPEED_LIMIT] != copies[SPEED_LIMIT]:
                    value = copies[SPEED_LIMIT] * 6 + seen[card] - seen[SPEED_LIMIT]
                    if not cango:
                        square = count[card] * count[card]
                        value = value // square if value >= 0 and square > 0 else _cdiv(value, square)
                    count[card] -= 1
                else:
                    value = 0
                    count[END_OF_LIMIT] -= 1
            elif GASOLINE <= card <= REPAIRS:
                status = own[SAFETY_FOR[card] - SAFETY_BASE]
                hazard = OPPOSITE[card]
                if status != _UNKNOWN:
                    value = -1 if status == _PLAYED else 1
                elif pp.battle != hazard and (
                    seen[hazard] == copies[hazard] or seen[hazard] + count[card] > copies[hazard]
                ):
                    value = 0
                    count[card] -= 1
                else:
                    value = copies[hazard] * 6 + seen[card] - seen[hazard]
                    if not cango:
                        square = count[card] * count[card]
                        value = value // square if value >= 0 and square > 0 else _cdiv(value, square)
                    count[card] -= 1
            elif card == GO:
                if row_status != _UNKNOWN:
                    value = -1 if row_status == _PLAYED else 2
                elif pp.can_go and num_gos + count[GO] == need[GO]:
                    value = 0
                    count[GO] -= 1
                else:
                    value = need[GO] * 3 + (seen[GO] - num_gos)
                    square = count[GO] * count[GO]
                    value = value // square if value >= 0 and square > 0 else _cdiv(value, square)
                    count[GO] -= 1
            elif card == STOP:
                if op_safety[_ROW] == _PLAYED:
                    value = -1
                else:
                    value = (3 if row_status != _UNKNOWN else 4) * (copies[STOP] + seen[GO])
                    if oc is None:
                        oc = one_card(seen, end, op, copies)
                    if not mileage or foundend or oc:
                        value += 5
                    if not cango:
                        badcount += 1
                        value = value // badcount if value >= 0 else _cdiv(value, badcount)
                    if op_mileage == 0:
                        value += 5
                    if not op_can_go:
                        value -= 5
                    if cango and row_status != _UNKNOWN:
                        value += 5
            else:
                # A hazard (Out of Gas, Flat Tire, Accident) or Speed Limit:
                # the original's ``normbad`` formula.
                if card == SPEED_LIMIT:
                    if op_mileage + 50 >= end:
                        value = 1 if (end == TRIP and not cango) else 0
                        sidx = -1
                    elif canstop or (cango and not op_can_go):
                        value = 1
                        sidx = -1
                    else:
                        value = 2 if row_status != _UNKNOWN else 3
                        sidx = _ROW
                        remedy = END_OF_LIMIT
                else:
                    sidx = SAFETY_FOR[card] - SAFETY_BASE
                    value = 3 if own[sidx] != _UNKNOWN else 4
                    remedy = OPPOSITE[card]
                if sidx >= 0:
                    if op_safety[sidx] == _PLAYED:
                        value = -1
                    else:
                        value *= need[remedy] + seen[remedy] + 2
                        if oc is None:
                            oc = one_card(seen, end, op, copies)
                        if not mileage or foundend or oc:
                            value += 5
                        if op_mileage == 0 or oc:
                            value += 5
                        if op_limited:
                            value -= 3
                        if cango and own[sidx] != _UNKNOWN:
                            value += 3
                        if not cango:
                            badcount += 1
                            value = value // badcount if value >= 0 else _cdiv(value, badcount)
                        elif repaired and card != SPEED_LIMIT:
                            # The repaired policy attacks first: a hazard's
                            # value (never below 3 here) is doubled against
                            # the plays it competes with (+12 a hand against
                            # BSD; docs/notebook/expert.md, "Experiments of the
                            # fourth round").
                            value *= 2
            values[i] = value
            if value >= curmax:
                nummax = i
                curmax = value
            if value <= curmin:
                nummin = i
                curmin = value
        if repaired and cango and curmax <= 0:
            # Nothing worth playing: discard mode, from the start.
            cango = False
            restart = True
        if not restart:
            break

    # Step 7: the second bump.
    if stopped:
        num_need[OPPOSITE[battle]] += 1

    # Step 8: choose.
    if cango:
        if nummax < 0:  # cannot happen with a non-empty hand; be safe
            nummax = _extreme(values, hand, lowest=False)
        return _CONSIDERED_PLAY[nummax]
    if nummin < 0:
        # The original crashes here (every card valued above 101).
        nummin = _extreme(values, hand, lowest=True)
    if hand[nummin] >= SAFETY_BASE:  # never discard a safety
        return _CONSIDERED_PLAY[nummin]
    return _CONSIDERED_DISCARD[nummin]


def leader(obs: Observation) -> int:
    """The opponent side closest to finishing: the most miles, a tie to the first after the seat's own side."""
    sides = obs.table.sides
    own = obs.side
    best = -1
    chosen = (own + 1) % sides
    for step in range(1, sides):
        side = (own + step) % sides
        miles = obs.players[side].mileage
        if miles > best:
            best = miles
            chosen = side
    return chosen


class BsdPlayer:
    """The original's computer as a player: ``bsd``.

    It keeps the original's never-reset ``num_need`` table for as long as it
    lives (a program run, in the interactive game; never saved).  Its dice
    are the generator it is handed: in the interactive game that is the
    game's own generator, as in the original.
    """

    name = "bsd"
    #: The original's procedure: on the board it rolls the game's own
    #: generator, as the original did (:func:`mille.ui.session.computer_player`).
    dice = "game"
    #: Served over the protocol, it need not be asked a forced move: its
    #: draw rolls no dice and counts nothing (docs/protocol-speed.md).
    every_decision = False
    #: The procedure with its "too close" quirk repaired (:func:`decide`);
    #: only :class:`mille.players.plus.PlusPlayer` sets it.
    repaired = False

    def __init__(self, num_need: list[int] | None = None) -> None:
        #: The table, bumped in place (``num_need``, if given, is used as it is).
        self.num_need: list[int] = list(INITIAL_NUM_NEED) if num_need is None else num_need

    def decide(self, obs: Observation, rng: GlibcRandom) -> Decision:
        """The move, and whether it was considered (see :class:`Decision`).

        At two sides (two and four seats) the procedure plays as it always
        did against the one opponent side.  At three sides (three and six
        seats) it plays against the opponent side closest to finishing (the
        most miles, a tie to the side that moves first after its own), as
        Mile by Mile's bots attack the leader: every hazard it plays goes
        there, and its valuation reads that side's tableau.  It extends the
        trip only if it would against every opponent side.  A coup fourré
        offered out of turn (R10) is always made, as the original always
        plays a safety that answers the hazard showing.  A partner's
        tableau is its own side's: the procedure plays on it as on its own.
        """
        phase = obs.phase
        players = obs.players
        seat = obs.seat
        me = players[seat]
        table = obs.table
        if phase is Phase.MOVE and len(players) == 2:  # the two-seat move, first (the protocol path's speed)
            return decide(
                me,
                players[1 - seat],
                obs.memory,
                obs.trip_length,
                obs.deck_count,
                self.num_need,
                rng,
                self.repaired,
                table.copies,
                table.deck_size >> 2,
            )
        if len(players) == 2:
            target = None
            op = players[1 - seat]
        elif table.sides == 2:
            target = None
            op = obs.opponent
        else:
            target = leader(obs)
            op = players[target]
        if phase is Phase.MOVE:
            decision = decide(
                me,
                op,
                obs.memory,
                obs.trip_length,
                obs.deck_count,
                self.num_need,
                rng,
                self.repaired,
                table.copies,
                table.deck_size >> 2,
            )
            if target is None:
                return decision
            move = decision.move
            if move.kind is MoveType.PLAY and OUT_OF_GAS <= me.hand[move.slot] <= SPEED_LIMIT:
                return Decision(Move(MoveType.PLAY, move.slot, target), considered=decision.considered)
            return decision
        copies = table.copies
        if phase is Phase.EXTENSION:
            others = [op] if target is None else [obs.players[s] for s in range(table.sides) if s != obs.side]
            extend = all(would_extend(me, o, obs.memory, obs.trip_length, obs.deck_count, copies) for o in others)
            return _EXTEND_DECISION if extend else _NO_EXTENSION_DECISION
        if phase is Phase.EMPTY_HAND:
            return _PASS_DECISION
        if phase is Phase.REACTION:
            slot = coup_slot(obs.public_game())
            return _PASS_DECISION if slot is None else _SILENT_PLAY[slot]
        raise ValueError(f"nothing to decide: {phase.name}")

    def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
        return self.decide(obs, rng).move


def play_out(
    game: Game,
    needs: tuple[list[int], list[int]],
    dice: tuple[GlibcRandom, GlibcRandom],
    repaired: tuple[bool, bool] = (False, False),
) -> tuple[int, int]:
    """Play ``game`` to the end of the hand with the BSD procedure in both seats.

    ``needs[seat]`` and ``dice[seat]`` are each seat's ``num_need`` table and
    dice (they may be the same object); ``repaired[seat]``: that seat plays
    the procedure with its "too close" quirk repaired (:func:`decide`), as
    the expert's own seat does in its rollouts.  Returns ``(moves,
    answers)``: the moves made (draws, plays, discards, passes of an empty
    hand) and the answers to ``Extension?``.

    The game is exactly the one that pushing every decision of the two
    seats through :func:`mille.engine.rules.push` gives (tests check it): each
    move is made by the engine's own part of a move
    (:func:`mille.engine.rules.draw_card`, ``play_card``, ``discard_card``,
    ``answer_extension``, ``pass_turn``), without the legality checks,
    since the procedure only makes legal ones.  This is the hot loop of
    the simulator (:func:`play_hand`) and of every searching
    player's rollouts: it hands the procedure the tableaus themselves, not
    observations, which is sound because the procedure reads of the other
    tableau only what lies on the table (the observation's contract;
    ``tests/lab/test_sim.py`` plays the same games both ways).  It takes the
    procedure's own first steps itself when they are certain: before
    drawing, a safety that answers the hazard showing is played, else the
    player draws, and after a draw that fills the hand the decision follows
    at once.
    """
    players = game.players
    memory = game.memory
    moves = 0
    answers = 0
    while not game.finished:
        seat = game.to_move
        pp = players[seat]
        hand = pp.hand
        if game.pending_extension is not None:
            answers += 1
            answer_extension(game, would_extend(pp, players[1 - seat], memory[seat], game.trip_length, game.deck_count))
            continue
        moves += 1
        if hand[0] == EMPTY:
            if hand[1] == EMPTY and hand.count(EMPTY) == _HAND_SIZE:
                pass_turn(game, seat)
                continue
            if game.deck_count > 0:
                # The procedure before drawing: a safety against the hazard
                # showing is played at once, else it draws.
                if max(hand) >= SAFETY_BASE:
                    battle = pp.battle
                    limited = pp.speed == SPEED_LIMIT
                    counter = -1
                    for i in range(_HAND_SIZE):
                        card = hand[i]
                        if card >= SAFETY_BASE and (battle == OPPOSITE[card] or (limited and card == RIGHT_OF_WAY)):
                            counter = i
                            break
                    if counter >= 0:
                        play_card(game, seat, counter)
                        continue
                draw_card(game, seat)
                if game.deck_count <= 0 or EMPTY in hand:
                    continue  # the end test, or a short hand: the loop looks again
                moves += 1  # a full hand and cards left: the decision follows at once
        move = decide(
            pp,
            players[1 - seat],
            memory[seat],
            game.trip_length,
            game.deck_count,
            needs[seat],
            dice[seat],
            repaired[seat],
        ).move
        if move.kind is _DISCARD:
            discard_card(game, seat, move.slot)
        else:  # after drawing the procedure only plays or discards
            play_card(game, seat, move.slot)
    return moves, answers


_DISCARD = MoveType.DISCARD


def play_hand(
    game: Game,
    players: Sequence[driver.Player],
    dice: Sequence[GlibcRandom],
) -> driver.HandPlay:
    """The hand driver's :func:`~mille.engine.driver.play_hand` (strict), faster for two BSD procedures.

    When both seats hold the procedure itself (:class:`BsdPlayer`, or a
    subclass that changes nothing but ``repaired``, as
    :class:`~mille.players.plus.PlusPlayer` does), the hand is played by
    :func:`play_out`: the same moves and the same game as through
    observations (``tests/lab/test_sim.py`` plays both ways); otherwise by the
    driver.
    """
    if len(players) != 2:
        return driver.play_hand(game, players, dice)
    first, second = players
    if _is_procedure(first) and _is_procedure(second):
        assert isinstance(first, BsdPlayer) and isinstance(second, BsdPlayer)
        needs = (first.num_need, second.num_need)
        moves, answers = play_out(game, needs, (dice[0], dice[1]), (first.repaired, second.repaired))
        return driver.HandPlay(hand_result(game), moves, answers)
    return driver.play_hand(game, players, dice)


def _is_procedure(player: object) -> bool:
    """Whether ``player`` plays the procedure and nothing more (no method of it overridden, nothing to be told)."""
    kind = type(player)
    return (
        issubclass(kind, BsdPlayer)
        and kind.decide is BsdPlayer.decide
        and kind.choose is BsdPlayer.choose
        and not hasattr(player, "inform")
        and not hasattr(player, "hand_over")
    )


def _extreme(values: list[int], hand: list[int], *, lowest: bool) -> int:
    """Slot of the lowest (highest) value among non-empty slots; ties to the last."""
    best = -1
    for i, card in enumerate(hand):
        if card == EMPTY:
            continue
        if best < 0 or (values[i] <= values[best] if lowest else values[i] >= values[best]):
            best = i
    return max(best, 0)
