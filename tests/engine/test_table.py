"""The table: the game's own parameters on the game (table-rules.md R1, R3, R7, R14).

Every rule reads the parameters of the game it applies to: the points that
end a game, the deck, the trip.  The two-seat table is the original's.
"""

from __future__ import annotations

import pytest

from helpers.engine import C, Game, play, position, push_answering, rules, tableau
from mille.engine import cards, scoring
from mille.engine.state import TWO, Table, table


def test_two_seats_are_the_originals() -> None:
    assert Game().table == TWO == table(2)
    assert (TWO.seats, TWO.sides, TWO.deck, TWO.trip, TWO.extension, TWO.game_points, TWO.parker) == (
        2, 2, cards.INITIAL_DECK, 700, True, 5000, False
    )  # fmt: skip
    assert Game().deck == list(cards.INITIAL_DECK)


@pytest.mark.parametrize(
    ("seats", "sides", "size", "trip", "extension"),
    [(2, 2, 101, 700, True), (3, 3, 101, 700, True), (4, 2, 106, 1000, False), (6, 3, 106, 700, True)],
)
def test_the_tables_of_r1(seats: int, sides: int, size: int, trip: int, extension: bool) -> None:
    t = table(seats)
    assert (t.seats, t.sides, t.deck_size, t.trip, t.extension) == (seats, sides, size, trip, extension)
    assert sorted(t.deck) == sorted(c for c in range(cards.NUM_CODES) for _ in range(t.copies[c]))
    # R2: partners alternate with the other sides.
    assert [t.side(s) for s in range(seats)] == [s % sides for s in range(seats)]
    assert all(t.side(p) == side for side in range(sides) for p in t.partners(side))


def test_the_full_deck_adds_one_of_each_hazard() -> None:
    extra = [c for c in range(cards.NUM_CODES) if cards.FULL_COPIES[c] != cards.COPIES[c]]
    assert extra == [C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.STOP, C.SPEED_LIMIT]
    assert [cards.FULL_COPIES[c] for c in extra] == [3, 3, 3, 5, 4]


@pytest.mark.parametrize("seats", [1, 5, 7])
def test_no_other_table(seats: int) -> None:
    with pytest.raises(ValueError, match="2, 3, 4 or 6 seats"):
        table(seats)


def _reaching_700(game_points: int) -> Game:
    """Seat 0 plays a 100 to 700 and declines the Extension: the hand ends with 700 + bonuses."""
    hand = [C.MILES_100, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25]
    me = tableau(hand, can_go=True, mileage=600, nummiles=[0, 0, 0, 6, 0])
    me.total = me.hand_total = 600
    game = position(me, tableau([C.MILES_25] * 7, mileage=100), to_move=0, deck_count=30)
    game.players[1].total = game.players[1].hand_total = 100
    game.table = Table(game_points=game_points)
    assert push_answering(game, play(0), False).error is None
    assert game.finished
    return game


def test_the_game_ends_at_its_own_points() -> None:
    """``rules.game_over`` and ``hand_result`` read the game's table (they once read a constant)."""
    short = _reaching_700(1400)
    assert short.players[0].total == 1400  # 700, the trip, a safe trip
    assert rules.game_over(short)
    result = scoring.hand_result(short)
    assert result.game_over and result.game_winner == 0
    full = _reaching_700(5000)
    assert not rules.game_over(full) and not scoring.hand_result(full).game_over


def test_the_table_survives_a_copy_and_the_deal() -> None:
    game = Game(table=Table(game_points=1234))
    rules.start_hand(game)
    copy = game.copy()
    assert copy.table is game.table and copy == game
    assert game.trip_length == 700
