"""Scoring, reference §5: points in play, end-of-hand bonuses, game accounting."""

from __future__ import annotations

import pytest

from helpers.engine import EMPTY, C, Game, play, position, push_answering, rules, tableau
from mille.engine import scoring
from mille.engine.scoring import Bonuses, end_of_hand_bonuses, recompute_hand_total


def test_amounts() -> None:
    assert (scoring.SAFETY_POINTS, scoring.ALL_SAFETIES_BONUS, scoring.COUP_BONUS) == (100, 300, 300)
    assert (scoring.TRIP_BONUS, scoring.SAFE_TRIP_BONUS, scoring.DELAYED_ACTION_BONUS) == (400, 300, 300)
    assert (scoring.EXTENSION_BONUS, scoring.SHUT_OUT_BONUS, scoring.GAME_POINTS) == (200, 500, 5000)


def _finish(game: Game, slot: int = 0, extend: bool = False) -> None:
    out = push_answering(game, play(slot), extend)
    assert out.error is None


def _at(mileage: int, *, end: int = 700, deck_count: int = 30, nummiles: list[int] | None = None,
        opp_mileage: int = 100, mover: int = 0) -> Game:  # fmt: skip
    hand = [C.MILES_100, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25, C.MILES_25]
    me = tableau(hand, can_go=True, mileage=mileage, nummiles=nummiles or [0, 0, 0, mileage // 100, 0])
    other = tableau([C.MILES_25] * 7, mileage=opp_mileage)
    players = (me, other) if mover == 0 else (other, me)
    return position(*players, to_move=mover, deck_count=deck_count, trip_length=end)


@pytest.mark.parametrize(
    ("kw", "rows", "points"),
    [
        ({}, (True, True, False, False, False), 700),  # Trip + Safe Trip
        ({"nummiles": [0, 0, 0, 4, 1]}, (True, False, False, False, False), 400),  # a 200 played
        ({"deck_count": 0}, (True, True, True, False, False), 1000),  # Delayed Action
        ({"opp_mileage": 0}, (True, True, False, False, True), 1200),  # Shut-Out
        ({"end": 1000, "mileage": 900}, (True, True, False, True, False), 900),  # Extension
        (
            {"end": 1000, "mileage": 900, "deck_count": 0, "opp_mileage": 0, "nummiles": [0, 0, 0, 7, 1]},
            (True, False, True, True, True),
            1400,
        ),
    ],
)
def test_end_of_hand_bonuses(kw: dict[str, object], rows: tuple[bool, ...], points: int) -> None:
    mileage = kw.pop("mileage", 600)
    game = _at(mileage, **kw)  # type: ignore[arg-type]
    before = game.players[0].hand_total
    _finish(game)
    assert game.finished
    bonuses = end_of_hand_bonuses(game, 0)
    assert bonuses.rows() == rows
    assert bonuses.points == points
    assert game.players[0].hand_total == before + 100 + points
    assert end_of_hand_bonuses(game, 1) == Bonuses()
    assert game.players[1].hand_total == game.players[1].mileage  # only its mileage


def test_bonuses_are_applied_once() -> None:
    game = _at(600)
    _finish(game)
    total = game.players[0].total
    # No move is taken after the end, so nothing can be added twice.
    assert rules.phase(game) is rules.Phase.HAND_OVER and rules.legal_moves(game) == []
    with pytest.raises(rules.IllegalPhase):
        rules.push(game, play(0))
    assert game.players[0].total == total


def test_no_bonus_without_completing_the_trip() -> None:
    game = position(
        tableau([EMPTY] * 6 + [C.STOP], mileage=650, battle=C.STOP),
        tableau([EMPTY] * 6 + [C.MILES_25], mileage=300),
        deck_count=0,
    )
    rules.check_go(game)
    assert game.finished
    for who in (0, 1):
        assert end_of_hand_bonuses(game, who) == Bonuses()
        assert recompute_hand_total(game, who) == game.players[who].hand_total


def test_extension_bonus_goes_to_whoever_completes_1000() -> None:
    # §11.28: the computer extended, the human completes 1000 and gets the
    # extension bonus; the extender gets nothing.
    game = _at(900, end=1000, opp_mileage=700)
    _finish(game)
    assert end_of_hand_bonuses(game, 0).extension
    assert end_of_hand_bonuses(game, 1) == Bonuses()  # 700 is not the end any more


def test_declined_extension_scores_at_700() -> None:
    game = _at(600, mover=1)
    _finish(game, extend=False)
    assert end_of_hand_bonuses(game, 1).trip
    assert not end_of_hand_bonuses(game, 1).extension


def test_recompute_hand_total_with_safeties_and_coups() -> None:
    pp = tableau([C.MILES_25] * 7, mileage=350, played=[C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE])
    pp.coup_score = 600
    pp.hand_total = 350 + 300 + 600
    game = position(pp)
    assert recompute_hand_total(game, 0) == pp.hand_total
    pp.safety_score = 400
    pp.hand_total += 100 + 300
    assert recompute_hand_total(game, 0) == pp.hand_total


@pytest.mark.parametrize(
    ("human", "comp", "games"),
    [
        (5100, 4000, (1, 0)),
        (3000, 5000, (0, 1)),
        (6000, 6000, (0, 0)),  # §11.29: a tie wins nobody the game
        (0, 0, (0, 0)),
    ],
)
def test_settle_game(human: int, comp: int, games: tuple[int, int]) -> None:
    game = position()
    game.players[0].total, game.players[1].total = human, comp
    game.players[0].games, game.players[1].games = 2, 3
    rules.settle_game(game)
    assert (game.players[0].games - 2, game.players[1].games - 3) == games
    assert (game.players[0].total, game.players[1].total) == (0, 0)


@pytest.mark.parametrize(
    ("human", "comp", "over"),
    [(4999, 4999, False), (5000, 0, True), (0, 5000, True), (7000, 7000, True), (4975, 4900, False)],
)
def test_game_over_at_5000(human: int, comp: int, over: bool) -> None:
    game = position()
    game.players[0].total, game.players[1].total = human, comp
    assert rules.game_over(game) is over


def test_totals_may_pass_5000_in_a_hand() -> None:
    # §11.29: nothing happens until the hand ends.
    game = _at(300)
    game.players[0].total = 4950
    _finish(game)  # 100 miles -> 5050, the hand goes on
    assert game.players[0].total == 5050
    assert not game.finished
    assert game.players[0].games == 0
