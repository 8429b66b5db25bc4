"""The card table: the one place that says what each card is.

Everything else (deck order, legality, scoring, the computer's counting)
derives from the rows below.  Cards are small integers, as in 4.4BSD mille,
because the computer player indexes per-card tables with them and the
simulator copies hands thousands of times a second; :class:`Card` gives the
codes names a reader of the rules recognises.
"""

from __future__ import annotations

from .record import FrozenRecord

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from typing import Final


class Card:
    """Card codes, in the original's order (the save format and sort use it).

    Plain ints in a namespace, not an IntEnum: creating an Enum class costs
    more start-up time than the rest of this module, and the time to the
    first board is measured.
    """

    EMPTY = -1
    MILES_25 = 0
    MILES_50 = 1
    MILES_75 = 2
    MILES_100 = 3
    MILES_200 = 4
    OUT_OF_GAS = 5
    FLAT_TIRE = 6
    ACCIDENT = 7
    STOP = 8
    SPEED_LIMIT = 9
    GASOLINE = 10
    SPARE_TIRE = 11
    REPAIRS = 12
    GO = 13
    END_OF_LIMIT = 14
    EXTRA_TANK = 15
    PUNCTURE_PROOF = 16
    DRIVING_ACE = 17
    RIGHT_OF_WAY = 18


class Kind:
    """What a card does when played (plain ints, as :class:`Card`)."""

    DISTANCE = 0
    HAZARD = 1
    REMEDY = 2
    SAFETY = 3


class CardInfo(FrozenRecord):
    """One row of the card table."""

    __slots__ = ("card", "name", "kind", "copies", "miles", "opposite", "safety")
    card: int  # a Card code
    name: str  # exactly as the original prints it
    kind: int  # a Kind
    copies: int  # in the 101-card deck
    miles: int  # distance cards only
    opposite: int  # remedy of a hazard, hazard of a remedy/safety, itself for miles
    safety: int  # the safety that goes with this hazard/remedy/safety (-1: none)

    def __init__(self, card: int, name: str, kind: int, copies: int, miles: int, opposite: int, safety: int) -> None:
        self._init(card=card, name=name, kind=kind, copies=copies, miles=miles, opposite=opposite, safety=safety)


_C = Card
_D, _H, _R, _S = Kind.DISTANCE, Kind.HAZARD, Kind.REMEDY, Kind.SAFETY

#: The card table.  ``opposite`` follows the original's single lookup table:
#: hazard -> remedy, remedy -> hazard, safety -> the battle hazard it cancels
#: (Right of Way -> Stop; its Speed Limit half is special-cased by the rules).
TABLE: Final[tuple[CardInfo, ...]] = (
    CardInfo(_C.MILES_25, "25", _D, 10, 25, _C.MILES_25, -1),
    CardInfo(_C.MILES_50, "50", _D, 10, 50, _C.MILES_50, -1),
    CardInfo(_C.MILES_75, "75", _D, 10, 75, _C.MILES_75, -1),
    CardInfo(_C.MILES_100, "100", _D, 12, 100, _C.MILES_100, -1),
    CardInfo(_C.MILES_200, "200", _D, 4, 200, _C.MILES_200, -1),
    CardInfo(_C.OUT_OF_GAS, "Out of Gas", _H, 2, 0, _C.GASOLINE, _C.EXTRA_TANK),
    CardInfo(_C.FLAT_TIRE, "Flat Tire", _H, 2, 0, _C.SPARE_TIRE, _C.PUNCTURE_PROOF),
    CardInfo(_C.ACCIDENT, "Accident", _H, 2, 0, _C.REPAIRS, _C.DRIVING_ACE),
    CardInfo(_C.STOP, "Stop", _H, 4, 0, _C.GO, _C.RIGHT_OF_WAY),
    CardInfo(_C.SPEED_LIMIT, "Speed Limit", _H, 3, 0, _C.END_OF_LIMIT, _C.RIGHT_OF_WAY),
    CardInfo(_C.GASOLINE, "Gasoline", _R, 6, 0, _C.OUT_OF_GAS, _C.EXTRA_TANK),
    CardInfo(_C.SPARE_TIRE, "Spare Tire", _R, 6, 0, _C.FLAT_TIRE, _C.PUNCTURE_PROOF),
    CardInfo(_C.REPAIRS, "Repairs", _R, 6, 0, _C.ACCIDENT, _C.DRIVING_ACE),
    CardInfo(_C.GO, "Go", _R, 14, 0, _C.STOP, _C.RIGHT_OF_WAY),
    CardInfo(_C.END_OF_LIMIT, "End of Limit", _R, 6, 0, _C.SPEED_LIMIT, _C.RIGHT_OF_WAY),
    CardInfo(_C.EXTRA_TANK, "Extra Tank", _S, 1, 0, _C.OUT_OF_GAS, _C.EXTRA_TANK),
    CardInfo(_C.PUNCTURE_PROOF, "Puncture Proof", _S, 1, 0, _C.FLAT_TIRE, _C.PUNCTURE_PROOF),
    CardInfo(_C.DRIVING_ACE, "Driving Ace", _S, 1, 0, _C.ACCIDENT, _C.DRIVING_ACE),
    CardInfo(_C.RIGHT_OF_WAY, "Right of Way", _S, 1, 0, _C.STOP, _C.RIGHT_OF_WAY),
)

# Plain-int constants for the hot paths (the simulator and the computer's
# valuation touch these millions of times; IntEnum attribute access is slow).
EMPTY: Final = -1
MILES_25: Final = 0
MILES_50: Final = 1
MILES_75: Final = 2
MILES_100: Final = 3
MILES_200: Final = 4
OUT_OF_GAS: Final = 5
FLAT_TIRE: Final = 6
ACCIDENT: Final = 7
STOP: Final = 8
SPEED_LIMIT: Final = 9
GASOLINE: Final = 10
SPARE_TIRE: Final = 11
REPAIRS: Final = 12
GO: Final = 13
END_OF_LIMIT: Final = 14
EXTRA_TANK: Final = 15
PUNCTURE_PROOF: Final = 16
DRIVING_ACE: Final = 17
RIGHT_OF_WAY: Final = 18

#: Number of card codes (the counting tables have 20 entries, as in the
#: original, whose last entry is unused).
NUM_CODES: Final = 19
NUM_TABLE: Final = 20
HAND_SIZE: Final = 7
DECK_SIZE: Final = 101
NUM_SAFETIES: Final = 4
NUM_MILES: Final = 5
SAFETY_BASE: Final = EXTRA_TANK  # safety index = code - SAFETY_BASE

NAMES: Final[tuple[str, ...]] = tuple(row.name for row in TABLE)
COPIES: Final[tuple[int, ...]] = tuple(row.copies for row in TABLE) + (0,)
MILES: Final[tuple[int, ...]] = tuple(row.miles for row in TABLE)
OPPOSITE: Final[tuple[int, ...]] = tuple(row.opposite for row in TABLE)
SAFETY_FOR: Final[tuple[int, ...]] = tuple(row.safety for row in TABLE)
KIND: Final[tuple[int, ...]] = tuple(row.kind for row in TABLE)
BY_NAME: Final[dict[str, int]] = {row.name: row.card for row in TABLE}

#: The cards by kind and by the pile they go on.  Speed Limit is the one
#: hazard, and End of Limit the one remedy, of the speed pile; the rest of
#: each kind goes on the battle pile.
SPEED_PILE: Final = frozenset((SPEED_LIMIT, END_OF_LIMIT))
HAZARDS: Final = frozenset(c for c in range(NUM_CODES) if KIND[c] == Kind.HAZARD) - SPEED_PILE
REMEDIES: Final = frozenset(c for c in range(NUM_CODES) if KIND[c] == Kind.REMEDY) - SPEED_PILE
BATTLE_PILE: Final = HAZARDS | REMEDIES

#: The deck array before the first shuffle.  As in the original's source
#: table, End of Limit comes before Go here, unlike the code order.
INITIAL_DECK: Final[tuple[int, ...]] = tuple(
    code
    for code in (list(range(MILES_25, REPAIRS + 1)) + [END_OF_LIMIT, GO] + list(range(EXTRA_TANK, RIGHT_OF_WAY + 1)))
    for _ in range(COPIES[code])
)


def name(card: int) -> str:
    """Display name of a card; the empty card prints as the empty string."""
    return "" if card < 0 else NAMES[card]


def is_safety(card: int) -> bool:
    """Safeties are the last four codes, exactly as in the original's test."""
    return card >= SAFETY_BASE


def is_distance(card: int) -> bool:
    return 0 <= card <= MILES_200


def is_repair_or_empty(card: int) -> bool:
    """The original's ``is_repair``: Gasoline, Spare Tire, Repairs, or no card.

    Several rules rely on the empty pile counting as "repaired" (Go may be
    played at the start of a hand, Right of Way lets you go at once).
    """
    return card == GASOLINE or card == SPARE_TIRE or card == REPAIRS or card == EMPTY


#: The printed game's full deck for 4 and 6 seats (table-rules.md R3): one
#: more of each hazard and Speed Limit, 106 cards.  BSD's 101-card deck is
#: the printed deck for 2 or 3 players, "remove one each".
FULL_DECK_SIZE: Final = 106
FULL_COPIES: Final[tuple[int, ...]] = tuple(
    n + (OUT_OF_GAS <= code <= SPEED_LIMIT) for code, n in enumerate(COPIES[:NUM_CODES])
) + (0,)


def initial_deck(copies: tuple[int, ...]) -> tuple[int, ...]:
    """The deck array before the first shuffle, for a deck of ``copies``.

    As in the original's source table, End of Limit comes before Go here,
    unlike the code order.
    """
    order = list(range(MILES_25, REPAIRS + 1)) + [END_OF_LIMIT, GO] + list(range(EXTRA_TANK, RIGHT_OF_WAY + 1))
    return tuple(code for code in order for _ in range(copies[code]))


FULL_DECK: Final[tuple[int, ...]] = initial_deck(FULL_COPIES)

assert len(INITIAL_DECK) == DECK_SIZE
assert sum(COPIES) == DECK_SIZE
assert len(FULL_DECK) == sum(FULL_COPIES) == FULL_DECK_SIZE
