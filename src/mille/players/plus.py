"""The expert's own policy: the BSD procedure with its "too close" quirk repaired.

The BSD procedure (:mod:`mille.players.bsd`) values a 25 or 50 that would
leave the player "too close" to the end of the trip by giving up on playing
anything at all: its ``cango`` is a boolean, so the first such card flips
the whole valuation into discard mode, and the player discards a card even
when it holds the 100 that finishes the trip (§6.3 "too close").  This
policy only declines the small card itself (it is valued -1, below any
play) and discards only when no other play is worth anything.  That one
change, with the rest of the procedure as it is (its counting, its safety
timing, its never-reset "cards needed" table, its extension rule), wins
about two games in three against the original with no search at all
(``docs/expert.md``).

The expert plays this policy for its own seat, as the move it keeps unless
the search finds a better one and in its rollouts, and models the
opponent with the BSD procedure itself.  A player that plays it alone is
:class:`PlusPlayer` (``python -m mille.match mille.players.plus:PlusPlayer
bsd``).
"""

from __future__ import annotations

from .. import cards
from ..cards import (
    COPIES,
    EMPTY,
    END_OF_LIMIT,
    GASOLINE,
    GO,
    MILES,
    MILES_25,
    MILES_50,
    MILES_75,
    MILES_200,
    OPPOSITE,
    REPAIRS,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from ..observation import Observation
from ..rng import GlibcRandom
from ..rules import Move, Phase
from ..state import TRIP, Memory, Tableau
from .bsd import (
    _ANNOUNCED_DISCARD,
    _ANNOUNCED_PLAY,
    _DRAW_DECISION,
    _EXTEND_DECISION,
    _IN_HAND,
    _NO_EXTENSION_DECISION,
    _PASS_DECISION,
    _PLAYED,
    _ROW,
    _SILENT_PLAY,
    _UNKNOWN,
    _VALUABLE,
    INITIAL_NUM_NEED,
    Decision,
    _cdiv,
    _extreme,
    one_card,
    would_extend,
)

_HAND_SIZE = cards.HAND_SIZE
_NUM_TABLE = cards.NUM_TABLE
_QUARTER_DECK = cards.DECK_SIZE // 4


def decide(
    pp: Tableau, op: Tableau, memory: Memory, trip: int, deck_count: int, num_need: list[int], dice: GlibcRandom
) -> Decision:
    """Choose a move in the ``MOVE`` phase for the owner of ``pp``.

    :func:`mille.players.bsd.decide` step for step (same arguments, same
    dice, same ``num_need`` bumps) but for the valuation, which declines a
    "too close" card instead of switching to discard mode.
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
                if seen[MILES_25] == COPIES[MILES_25] and seen[MILES_50] == COPIES[MILES_50]:
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
    i = 0
    while safe and i < _HAND_SIZE:
        card = hand[i]
        if card >= SAFETY_BASE:
            if one_card(seen, trip, op) or (foundend and cango and not canstop):
                return _SILENT_PLAY[i]
            hazard = OPPOSITE[card]
            if seen[hazard] == COPIES[hazard] and not (
                card == RIGHT_OF_WAY and seen[SPEED_LIMIT] != COPIES[SPEED_LIMIT]
            ):
                return _SILENT_PLAY[i]
            if not cango and (op.can_go or not can_go):
                x = deck_count - dice.roll(10)
                if (mileage == 0) != (op.mileage == 0):
                    x -= 7
                if x < _QUARTER_DECK:
                    return _SILENT_PLAY[i]
            safe -= 1
            playit[i] = cango
        i += 1

    # Step 5: the first of two bumps of the never-reset "needed" table.
    stopped = not can_go and battle != EMPTY and not (GASOLINE <= battle <= REPAIRS)
    if stopped:
        num_need[OPPOSITE[battle]] += 1

    # Step 6: value every card (the original's valuation pass, written out
    # here: this is half of every rollout).  A "too close" 25 or 50 is
    # declined (valued -1, never the play chosen); only if no card is then
    # worth playing (the best value is 0 or less) does the pass start over
    # in discard mode, as the original's does at the first such card.
    num_gos = memory.num_gos
    need = num_need
    end = trip
    row_status = own[_ROW]
    op_safety = op.safety
    op_mileage = op.mileage
    op_limited = op.speed == SPEED_LIMIT
    op_can_go = op.can_go
    oc: bool | None = None  # one_card(seen, end, op), once needed
    while True:
        restart = False
        foundlow = (
            cango or count[END_OF_LIMIT] != 0 or seen[SPEED_LIMIT] == COPIES[SPEED_LIMIT] or row_status != _UNKNOWN
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
                        # Too close: not this card (the original gives up playing).
                        values[i] = -1
                        if curmax <= -1:
                            nummax = i
                            curmax = -1
                        if curmin >= -1:
                            nummin = i
                            curmin = -1
                        continue
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
                elif limited or seen[SPEED_LIMIT] != COPIES[SPEED_LIMIT]:
                    value = COPIES[SPEED_LIMIT] * 6 + seen[card] - seen[SPEED_LIMIT]
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
                    seen[hazard] == COPIES[hazard] or seen[hazard] + count[card] > COPIES[hazard]
                ):
                    value = 0
                    count[card] -= 1
                else:
                    value = COPIES[hazard] * 6 + seen[card] - seen[hazard]
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
                    value = (3 if row_status != _UNKNOWN else 4) * (COPIES[STOP] + seen[GO])
                    if oc is None:
                        oc = one_card(seen, end, op)
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
                            oc = one_card(seen, end, op)
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
            values[i] = value
            if value >= curmax:
                nummax = i
                curmax = value
            if value <= curmin:
                nummin = i
                curmin = value
        if cango and curmax <= 0:
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
        return _ANNOUNCED_PLAY[nummax]
    if nummin < 0:
        # The original crashes here (every card valued above 101).
        nummin = _extreme(values, hand, lowest=True)
    if hand[nummin] >= SAFETY_BASE:  # never discard a safety
        return _ANNOUNCED_PLAY[nummin]
    return _ANNOUNCED_DISCARD[nummin]


class PlusPlayer:
    """The policy alone, as a player (no search): for matches and tests."""

    name = "bsd-plus"

    def __init__(self) -> None:
        self.num_need: list[int] = list(INITIAL_NUM_NEED)

    def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
        phase = obs.phase
        me = obs.players[obs.seat]
        op = obs.players[1 - obs.seat]
        if phase is Phase.MOVE:
            return decide(me, op, obs.memory, obs.trip_length, obs.deck_count, self.num_need, rng).move
        if phase is Phase.EXTENSION:
            extend = would_extend(me, op, obs.memory, obs.trip_length, obs.deck_count)
            return (_EXTEND_DECISION if extend else _NO_EXTENSION_DECISION).move
        return _PASS_DECISION.move


__all__ = ["PlusPlayer", "decide"]
