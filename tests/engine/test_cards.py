"""The card table (reference §1) and the initial deck array (§2.3)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers.engine import C
from mille.engine.cards import Card, Kind

NAMES = [
    "25", "50", "75", "100", "200",
    "Out of Gas", "Flat Tire", "Accident", "Stop", "Speed Limit",
    "Gasoline", "Spare Tire", "Repairs", "Go", "End of Limit",
    "Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way",
]  # fmt: skip
COPIES = [10, 10, 10, 12, 4, 2, 2, 2, 4, 3, 6, 6, 6, 14, 6, 1, 1, 1, 1]


def test_codes_and_names() -> None:
    codes = [v for k, v in vars(Card).items() if k.isupper()]
    assert codes == list(range(-1, 19))
    assert [row.card for row in C.TABLE] == list(range(19))
    assert all(getattr(C, k) == getattr(Card, k) for k in vars(Card) if k.isupper())  # the plain-int constants
    assert list(C.NAMES) == NAMES
    assert C.name(C.EMPTY) == ""
    for code, name in enumerate(NAMES):
        assert C.name(code) == name
        assert C.BY_NAME[name] == code


def test_copies_total_101() -> None:
    assert list(C.COPIES[:19]) == COPIES
    assert C.COPIES[19] == 0  # the counting tables' unused 20th entry
    assert sum(COPIES) == C.DECK_SIZE == 101
    distance = sum(COPIES[0:5])
    hazards = sum(COPIES[5:10])
    remedies = sum(COPIES[10:15])
    safeties = sum(COPIES[15:19])
    assert (distance, hazards, remedies, safeties) == (46, 13, 38, 4)


def test_mileage_values() -> None:
    assert list(C.MILES[:5]) == [25, 50, 75, 100, 200]
    assert all(v == 0 for v in C.MILES[5:])


def test_kinds() -> None:
    assert [C.KIND[c] for c in range(19)] == (
        [Kind.DISTANCE] * 5 + [Kind.HAZARD] * 5 + [Kind.REMEDY] * 5 + [Kind.SAFETY] * 4
    )
    assert [c for c in range(-1, 19) if C.is_safety(c)] == [15, 16, 17, 18]
    assert [c for c in range(-1, 19) if C.is_distance(c)] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("hazard", "remedy", "safety"),
    [
        (C.OUT_OF_GAS, C.GASOLINE, C.EXTRA_TANK),
        (C.FLAT_TIRE, C.SPARE_TIRE, C.PUNCTURE_PROOF),
        (C.ACCIDENT, C.REPAIRS, C.DRIVING_ACE),
        (C.STOP, C.GO, C.RIGHT_OF_WAY),
        (C.SPEED_LIMIT, C.END_OF_LIMIT, C.RIGHT_OF_WAY),
    ],
)
def test_opposite_and_safety_for(hazard: int, remedy: int, safety: int) -> None:
    assert C.OPPOSITE[hazard] == remedy
    assert C.OPPOSITE[remedy] == hazard
    for c in (hazard, remedy, safety):
        assert C.SAFETY_FOR[c] == safety


def test_safety_opposites_are_battle_hazards() -> None:
    # §1.2: Right of Way maps to Stop; its Speed Limit half is special-cased.
    assert [C.OPPOSITE[s] for s in (15, 16, 17, 18)] == [C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.STOP]
    assert all(C.OPPOSITE[m] == m for m in range(5))
    assert all(C.SAFETY_FOR[m] == -1 for m in range(5))


def test_repair_or_empty() -> None:
    # §1.2: true for Gasoline, Spare Tire, Repairs and the empty pile.
    assert [c for c in range(-1, 19) if C.is_repair_or_empty(c)] == [C.EMPTY, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS]


def test_initial_deck_order() -> None:
    # §2.3: End of Limit comes before Go in the array, unlike the code order.
    expected: list[int] = []
    for code in [*range(0, 13), C.END_OF_LIMIT, C.GO, *range(15, 19)]:
        expected += [code] * COPIES[code]
    assert list(C.INITIAL_DECK) == expected
    assert Counter(C.INITIAL_DECK) == Counter({c: n for c, n in enumerate(COPIES)})


def test_constants() -> None:
    assert (C.HAND_SIZE, C.NUM_SAFETIES, C.NUM_MILES, C.NUM_TABLE, C.SAFETY_BASE) == (7, 4, 5, 20, 15)


def test_the_code_ranges_of_the_hot_paths_are_the_tables() -> None:
    """The rules and the computer's valuation test kinds with code ranges, as the original did."""
    from mille.engine import cards

    kinds = cards.KIND
    assert {c for c in range(cards.NUM_CODES) if kinds[c] == cards.Kind.DISTANCE} == set(
        range(cards.MILES_25, cards.MILES_200 + 1)
    )
    assert set(range(cards.OUT_OF_GAS, cards.STOP + 1)) == cards.HAZARDS
    assert set(range(cards.GASOLINE, cards.GO + 1)) == cards.REMEDIES
    assert {cards.SPEED_LIMIT, cards.END_OF_LIMIT} == cards.SPEED_PILE
    assert {c for c in range(cards.NUM_CODES) if kinds[c] == cards.Kind.SAFETY} == set(
        range(cards.SAFETY_BASE, cards.RIGHT_OF_WAY + 1)
    )
