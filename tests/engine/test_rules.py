"""The rules of reference §2-§4: dealing, drawing, discarding, playing, tidying.

Every message is checked as the exact string, and where several checks
could fire, the one the original reports first.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers.engine import (
    ACC,
    ACE,
    DRAW,
    EMPTY,
    EOL,
    FLAT,
    GAS,
    GO,
    LIMIT,
    OOG,
    ORDER,
    P25,
    P50,
    P75,
    P100,
    P200,
    PROOF,
    REP,
    ROW,
    SPARE,
    STOP,
    TANK,
    C,
    Game,
    SafetyStatus,
    card,
    discard,
    draw_error,
    hand_of,
    new_game,
    play,
    play_error,
    position,
    rules,
    tableau,
)


def names(hand: list[int]) -> list[str]:
    return [C.name(c) for c in hand]


def error_of(game: Game, slot: int) -> str | None:
    """The message a play of ``slot`` by the player to move gets from push()."""
    return rules.push(game, play(slot)).error


# --------------------------------------------------------------------------
# §2.3-§2.5 shuffle and deal

DEALS = {
    1: (
        ["Out of Gas", "25", "75", "Spare Tire", "75", "Repairs"],
        ["Puncture Proof", "100", "Go", "End of Limit", "25", "End of Limit"],
        ["Speed Limit", "100", "Repairs"],
    ),
    42: (
        ["100", "End of Limit", "Gasoline", "Stop", "100", "50"],
        ["Gasoline", "75", "50", "Gasoline", "Spare Tire", "Go"],
        ["Driving Ace", "25", "Go"],
    ),
    4242: (
        ["25", "Accident", "Speed Limit", "End of Limit", "100", "100"],
        ["End of Limit", "Driving Ace", "75", "100", "50", "200"],
        ["75", "Speed Limit", "Go"],
    ),
    5814: (
        ["100", "100", "Repairs", "Go", "50", "100"],
        ["Stop", "50", "100", "100", "Gasoline", "Gasoline"],
        ["25", "End of Limit", "Gasoline"],
    ),
}

#: §2.4: the whole deck array after the first shuffle with seed 42, index 0 to 100.
SEED_42_DECK = [
    2, 12, 13, 13, 0, 0, 6, 1, 11, 7, 9, 8, 3, 1, 9, 3, 0, 18, 1, 13, 15, 11, 5, 1, 14, 3,
    2, 3, 4, 13, 13, 2, 1, 8, 12, 1, 0, 16, 0, 11, 9, 13, 12, 0, 2, 4, 12, 10, 2, 13, 12, 14,
    6, 8, 2, 0, 10, 3, 14, 14, 3, 10, 12, 4, 11, 2, 13, 11, 3, 14, 2, 13, 0, 3, 3, 3, 13, 13,
    7, 1, 0, 5, 1, 13, 4, 2, 13, 0, 17, 13, 11, 10, 1, 2, 10, 1, 3, 8, 10, 14, 3,
]  # fmt: skip


@pytest.mark.parametrize("seed", sorted(DEALS))
def test_first_deal_table(seed: int) -> None:
    human, comp, draws = DEALS[seed]
    game = new_game(seed)
    rules.start_hand(game)
    assert game.players[0].hand[0] == EMPTY and game.players[1].hand[0] == EMPTY
    assert names(game.players[0].hand[1:]) == human
    assert names(game.players[1].hand[1:]) == comp
    assert game.deck_count == 89
    assert [C.name(game.deck[88 - i]) for i in range(3)] == draws
    # The human gets the top six cards, slots 1..6 from deck[100] down.
    assert game.players[0].hand[1:] == [game.deck[100 - i] for i in range(6)]
    assert game.players[1].hand[1:] == [game.deck[94 - i] for i in range(6)]


def test_seed_42_deck_array() -> None:
    game = new_game(42)
    rules.shuffle(game)
    assert game.deck == SEED_42_DECK
    assert game.deck_count == 101


def test_shuffle_permutes_the_previous_array() -> None:
    # §2.3: the array is never reset; each hand shuffles the last one's order.
    game = new_game(42)
    rules.shuffle(game)
    first = game.deck[:]
    rng = game.rng.copy()
    expected = first[:]
    for i in range(101):
        r = rng.random() % 101
        expected[i], expected[r] = expected[r], expected[i]
    game.deck_count = 17  # drawing only moves the count
    rules.shuffle(game)
    assert game.deck == expected
    assert game.deck_count == 101
    assert Counter(game.deck) == Counter(C.INITIAL_DECK)


def test_shuffle_consumes_101_numbers() -> None:
    game = new_game(9)
    twin = game.rng.copy()
    rules.shuffle(game)
    for _ in range(101):
        twin.random()
    assert game.rng.random() == twin.random()


def test_starters_alternate_from_the_human() -> None:
    # §2.5 / §11.1: the human starts the first hand, then starters alternate.
    game = new_game(3)
    starters = []
    for _ in range(5):
        rules.start_hand(game)
        starters.append(game.to_move)
        assert game.hand_starter == game.to_move
    assert starters == [0, 1, 0, 1, 0]


def test_resumed_start_keeps_player_to_move() -> None:
    game = new_game(3)
    game.hand_starter, game.to_move = 0, 1
    rules.start_hand(game, resumed=True)
    assert (game.hand_starter, game.to_move) == (0, 1)
    assert game.deck_count == 89


def test_deal_resets_per_hand_state_only() -> None:
    game = new_game(5)
    rules.start_hand(game)
    for pp in game.players:
        pp.mileage, pp.hand_total, pp.safety_score, pp.coup_score = 700, 1500, 400, 300
        pp.total, pp.games = 2345, 3
        pp.can_go = pp.fresh_hazard = pp.fresh_limit = True
        pp.battle, pp.speed = GO, LIMIT
        pp.safety = [SafetyStatus.PLAYED] * 4
        pp.coups = [True] * 4
        pp.nummiles = [1, 2, 3, 4, 2]
    game.discard, game.finished, game.trip_length = P75, True, 1000
    game.memory[1].num_seen[P25] = 5
    game.memory[1].num_gos = 9
    rules.start_hand(game)
    for pp in game.players:
        assert (pp.mileage, pp.hand_total, pp.safety_score, pp.coup_score) == (0, 0, 0, 0)
        assert (pp.total, pp.games) == (2345, 3)  # untouched
        assert not (pp.can_go or pp.fresh_hazard or pp.fresh_limit)
        assert (pp.battle, pp.speed) == (EMPTY, EMPTY)
        assert pp.coups == [False] * 4
        assert pp.nummiles == [0] * 5
        assert pp.hand[0] == EMPTY
    assert game.players[0].safety == [SafetyStatus.UNKNOWN] * 4
    assert (game.discard, game.finished, game.trip_length) == (EMPTY, False, 700)
    # Each seat's num_seen was zeroed and then counts its own six dealt cards only.
    for seat in (0, 1):
        seen = game.memory[seat].num_seen
        assert sum(seen) == 6
        assert Counter(c for c in game.players[seat].hand if c != EMPTY) == Counter(
            {c: n for c, n in enumerate(seen) if n}
        )


def test_deal_shows_no_safety_on_the_table() -> None:
    # Seed 4242 deals the computer a Driving Ace: the table shows nothing
    # (the computer's "in hand" knowledge is derived from its hand).
    game = new_game(4242)
    rules.start_hand(game)
    assert ACE in game.players[1].hand
    assert game.players[1].safety == [0, 0, 0, 0]
    assert game.players[0].safety == [0, 0, 0, 0]


def test_deal_sorts_the_human_hand_with_order_on() -> None:
    game = new_game(42)
    game.order = True
    rules.start_hand(game)
    assert game.players[0].hand == sorted(game.players[0].hand)
    assert game.players[0].hand[0] == EMPTY
    assert sorted(names(game.players[0].hand[1:])) == sorted(DEALS[42][0])
    assert names(game.players[1].hand[1:]) == DEALS[42][1]  # never sorted


# --------------------------------------------------------------------------
# §3.3 drawing


def test_draw_takes_the_top_card_into_p() -> None:
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO]), deck_count=40)
    top = game.deck[39]
    out = rules.push(game, DRAW)
    assert out.error is None and not out.passed
    assert game.players[0].hand[0] == top
    assert game.deck_count == 39
    assert game.to_move == 0


def test_draw_errors_in_order() -> None:
    # Deck empty comes first, even with P full; then "already picked".
    game = position(tableau([P25, P25, P50, P75, P100, P200, GO]), deck_count=0)
    assert rules.push(game, DRAW).error == "no more cards"
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO]), deck_count=0)
    assert rules.push(game, DRAW).error == "no more cards"
    game = position(tableau([P25, P25, P50, P75, P100, P200, GO]), deck_count=30)
    assert rules.push(game, DRAW).error == "already picked"
    assert game.deck_count == 30


def test_already_picked_with_a_safety_in_p_looks_at_slot_1() -> None:
    game = position(tableau([TANK, P25, P50, P75, P100, P200, GO]), deck_count=30)
    assert draw_error(game, 0) == "already picked"


def test_draw_after_a_safety_fills_p_and_slot_1() -> None:
    # §3.3 / §11.13: a safety played before drawing leaves slots 0 and 1
    # empty; the next draw takes two cards.
    game = position(tableau([EMPTY, EMPTY, P50, P75, P100, P200, GO]), deck_count=30)
    out = rules.push(game, DRAW)
    assert out.error is None
    assert game.deck_count == 28
    assert game.players[0].hand[:2] == [game.deck[29], game.deck[28]]


def test_two_card_draw_stops_at_an_empty_deck() -> None:
    game = position(tableau([EMPTY, EMPTY, P50, P75, P100, P200, GO]), deck_count=1)
    rules.push(game, DRAW)
    assert game.deck_count == 0
    # The drawn card went into P; tidy-up then moved it to the hole in slot 1.
    assert game.players[0].hand[:2] == [EMPTY, game.deck[0]]


def test_draw_clears_the_coup_flags_only_on_success() -> None:
    game = position(tableau([P25] * 7, battle=STOP, fresh_hazard=True, fresh_limit=True), deck_count=30)
    assert rules.push(game, DRAW).error == "already picked"
    assert game.players[0].fresh_hazard and game.players[0].fresh_limit
    game.players[0].hand[0] = EMPTY
    rules.push(game, DRAW)
    assert not game.players[0].fresh_hazard and not game.players[0].fresh_limit


def test_a_draw_is_counted_by_the_drawer_only() -> None:
    game = position(computer=tableau([EMPTY, P25, P50, P75, P100, P200, GO]), to_move=1, deck_count=101)
    # The initial deck array ends with the four safeties: the top is Right of Way.
    assert game.deck[100] == ROW
    rules.push(game, DRAW)
    assert game.players[1].hand[0] == ROW
    assert game.memory[1].num_seen[ROW] == 1
    assert sum(game.memory[0].num_seen) == 0
    assert game.players[1].safety[ROW - C.SAFETY_BASE] == SafetyStatus.UNKNOWN  # not on the table


def test_human_draw_is_not_counted_by_the_computer() -> None:
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO]), deck_count=101)
    rules.push(game, DRAW)
    assert game.players[0].hand[0] == ROW
    assert sum(game.memory[1].num_seen) == 0
    assert game.memory[0].num_seen[ROW] == 1
    assert game.players[0].safety == [0, 0, 0, 0]


# --------------------------------------------------------------------------
# §3.4 discarding


def test_discard_must_pick_first() -> None:
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO]), deck_count=30)
    out = rules.push(game, discard(3))
    assert out.error == "must pick first" and not out.passed
    assert game.discard == EMPTY


def test_discard_a_safety_before_drawing_must_pick_first() -> None:
    # For a safety, "picked" looks at slot 1.
    game = position(tableau([EMPTY, EMPTY, TANK, P75, P100, P200, GO]), deck_count=30)
    assert rules.push(game, discard(2)).error == "must pick first"


def test_discard_a_safety() -> None:
    game = position(tableau([P25, P25, TANK, P75, P100, P200, GO]), deck_count=30)
    out = rules.push(game, discard(2))
    assert out.error == "discard a safety?" and not out.passed
    assert game.players[0].hand[2] == TANK


def test_discard_no_card_there_once_the_deck_is_gone() -> None:
    game = position(tableau([EMPTY, EMPTY, P50, P75, P100, P200, GO]), deck_count=0)
    assert rules.push(game, discard(1)).error == "no card there"
    assert not game.finished


def test_discard_of_empty_slot_6_ends_the_hand() -> None:
    # The dead branch of §3.4, kept: a hole in slot 6 only exists by hand.
    game = position(tableau([P25, P50, P75, P100, P200, GO, EMPTY]), deck_count=0)
    out = rules.push(game, discard(6))
    assert out.error is None
    assert game.finished


def test_discard_success() -> None:
    game = position(tableau([P200, P25, P50, P75, P100, P200, GO]), deck_count=30)
    out = rules.push(game, discard(4))
    assert out.error is None and out.passed
    assert game.discard == P100
    assert game.to_move == 1
    # The drawn card moves from P into the hole.
    assert game.players[0].hand == [EMPTY, P25, P50, P75, P200, P200, GO]
    assert game.memory[1].num_seen[P100] == 1  # a human discard is counted by the computer
    assert sum(game.memory[0].num_seen) == 0  # not again by the human (counted when drawn)


def test_computer_discard_is_counted_by_the_human_seat_only() -> None:
    game = position(computer=tableau([P200, P25, P50, P75, P100, P200, GO]), to_move=1)
    rules.push(game, discard(0))
    assert game.discard == P200
    assert sum(game.memory[1].num_seen) == 0
    assert game.memory[0].num_seen[P200] == 1
    assert game.players[1].hand == [EMPTY, P25, P50, P75, P100, P200, GO]


# --------------------------------------------------------------------------
# §4.0-§4.1 preliminary check and distance cards


def test_must_pick_first_for_any_non_safety() -> None:
    for c in (P25, P200, GAS, GO, EOL, OOG, STOP, LIMIT):
        game = position(tableau([EMPTY, c, P50, P75, P100, P200, GO], can_go=True), deck_count=30)
        assert error_of(game, 1) == "must pick first", C.name(c)
    # The empty P slot itself, before the deck is exhausted.
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO]), deck_count=30)
    assert error_of(game, 0) == "must pick first"


def test_nothing_needs_picking_once_the_deck_is_gone() -> None:
    game = position(tableau([EMPTY, P25, P50, P75, P100, P200, GO], can_go=True), deck_count=0)
    assert error_of(game, 1) is None


def _picked(*cards_: int, **kw: object) -> Game:
    """The human, having drawn (P full), with the given cards from slot 0."""
    hand = list(cards_) + [P25] * (7 - len(cards_))
    deck_count = kw.pop("deck_count", 30)
    end = kw.pop("end", 700)
    comp = kw.pop("computer", None)
    return position(tableau(hand, **kw), comp, deck_count=deck_count, trip_length=end)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("c", "kw", "message"),
    [
        (P200, {"nummiles": [0, 0, 0, 0, 2], "can_go": True}, "only two 200's per hand"),
        (P200, {"nummiles": [0, 0, 0, 0, 2], "speed": LIMIT}, "only two 200's per hand"),
        (P200, {"speed": LIMIT, "can_go": True}, "limit of 50"),
        (P100, {"speed": LIMIT, "can_go": True}, "limit of 50"),
        (P75, {"speed": LIMIT, "can_go": True}, "limit of 50"),
        # §11.18: stopped and limited -> the limit is reported first.
        (P100, {"speed": LIMIT, "battle": STOP}, "limit of 50"),
        (P100, {"mileage": 650, "can_go": True}, "puts you over 700"),
        (P50, {"mileage": 675, "can_go": True}, "puts you over 700"),
        (P200, {"mileage": 525, "can_go": True}, "puts you over 700"),
        # Overshooting while stopped reports the overshoot.
        (P75, {"mileage": 650, "battle": STOP}, "puts you over 700"),
        (P25, {"battle": STOP}, "cannot move now"),
        (P50, {"battle": STOP}, "cannot move now"),
        (P50, {"speed": LIMIT, "battle": ACC}, "cannot move now"),
        (P100, {}, "cannot move now"),
    ],
)
def test_distance_messages(c: int, kw: dict[str, object], message: str) -> None:
    game = _picked(c, **kw)
    assert error_of(game, 0) == message


def test_puts_you_over_1000_after_an_extension() -> None:
    game = _picked(P200, mileage=850, can_go=True, end=1000)
    assert error_of(game, 0) == "puts you over 1000"


@pytest.mark.parametrize("c", [P25, P50])
def test_small_distance_ignores_the_limit(c: int) -> None:
    game = _picked(c, speed=LIMIT, can_go=True)
    assert error_of(game, 0) is None
    assert game.players[0].mileage == C.MILES[c]


def test_distance_success() -> None:
    game = _picked(P75, can_go=True, mileage=100)
    game.players[0].total = 1000
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    pp = game.players[0]
    assert (pp.mileage, pp.hand_total, pp.total) == (175, 175, 1075)
    assert pp.nummiles == [0, 0, 1, 0, 0]
    assert pp.hand[0] == EMPTY
    assert game.memory[1].num_seen[P75] == 1  # a human play is counted by the computer
    assert game.to_move == 1


def test_reaching_700_asks_about_the_extension_with_the_card_in_hand() -> None:
    game = _picked(P100, P25, can_go=True, mileage=600)
    out = rules.push(game, play(0))
    assert out.error is None and not out.passed
    # Waiting for the answer: the card counted and still in the hand.
    assert rules.phase(game) is rules.Phase.EXTENSION and game.pending_extension == 0
    assert (game.players[0].hand[0], game.players[0].mileage, game.trip_length) == (P100, 700, 700)
    assert rules.legal_moves(game) == [rules.EXTEND, rules.NO_EXTENSION]
    assert game.memory[1].num_seen[P100] == 0  # counted by the other seat once it leaves the hand
    with pytest.raises(rules.IllegalPhase):
        rules.push(game, DRAW)
    out = rules.push(game, rules.EXTEND)
    assert game.trip_length == 1000 and not game.finished and out.passed
    assert game.players[0].hand[0] == EMPTY and game.memory[1].num_seen[P100] == 1
    assert game.to_move == 1 and game.pending_extension is None


def test_an_answer_needs_a_question() -> None:
    game = _picked(P100, P25, can_go=True, mileage=100)
    with pytest.raises(rules.IllegalPhase):
        rules.push(game, rules.EXTEND)


def test_declining_the_extension_ends_the_hand() -> None:
    game = _picked(P100, can_go=True, mileage=600)
    rules.push(game, play(0))
    rules.push(game, rules.NO_EXTENSION)
    assert game.finished and game.trip_length == 700
    # Trip 400 + Safe Trip 300 (no 200) + Shut-Out 500 (computer at 0).
    assert game.players[0].hand_total == 700 + 400 + 300 + 500


def test_reaching_1000_ends_the_hand_without_asking() -> None:
    game = _picked(P100, can_go=True, mileage=900, end=1000)
    rules.push(game, play(0))
    assert game.pending_extension is None
    assert game.finished


# --------------------------------------------------------------------------
# §4.2-§4.4 remedies, Go, End of Limit


@pytest.mark.parametrize(("remedy", "hazard"), [(GAS, OOG), (SPARE, FLAT), (REP, ACC)])
def test_remedy_message_and_effect(remedy: int, hazard: int) -> None:
    for battle in (EMPTY, GO, STOP, OOG, FLAT, ACC, GAS, SPARE, REP):
        if battle == hazard:
            continue
        game = _picked(remedy, battle=battle)
        assert error_of(game, 0) == f'can\'t play "{C.name(remedy)}"'
    game = _picked(remedy, battle=hazard)
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    assert game.players[0].battle == remedy
    assert not game.players[0].can_go  # a Go is still needed


def test_remedy_messages_exact() -> None:
    assert error_of(_picked(GAS), 0) == 'can\'t play "Gasoline"'
    assert error_of(_picked(SPARE), 0) == 'can\'t play "Spare Tire"'
    assert error_of(_picked(REP), 0) == 'can\'t play "Repairs"'


def test_remedy_after_right_of_way_lets_you_go() -> None:
    # §4.2 / §11.17: no Go needed once Right of Way is played.
    game = _picked(GAS, P100, battle=OOG, played=[ROW])
    rules.push(game, play(0))
    assert game.players[0].battle == GAS and game.players[0].can_go
    assert game.players[0].hand[:2] == [EMPTY, P100]
    game.to_move = 0
    game.players[0].hand[0] = P25  # as if drawn on the next turn
    assert error_of(game, 1) is None
    assert game.players[0].mileage == 100


def test_remedy_without_right_of_way_still_needs_go() -> None:
    game = _picked(P100, GAS, battle=OOG)
    rules.push(game, play(1))
    game.to_move = 0
    game.players[0].hand[0] = P100
    assert error_of(game, 0) == "cannot move now"


@pytest.mark.parametrize("top", [OOG, FLAT, ACC, GO])
def test_go_refused_on(top: int) -> None:
    game = _picked(GO, battle=top, can_go=top == GO)
    assert error_of(game, 0) == f'cannot play "Go" on a "{C.name(top)}"'


def test_go_on_a_go_message() -> None:
    assert error_of(_picked(GO, battle=GO, can_go=True), 0) == 'cannot play "Go" on a "Go"'


@pytest.mark.parametrize("top", [EMPTY, STOP, GAS, SPARE, REP])
def test_go_accepted_on(top: int) -> None:
    game = _picked(GO, battle=top)
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    assert game.players[0].battle == GO and game.players[0].can_go


def test_go_over_a_remedy_after_right_of_way() -> None:
    # Accepted although it achieves nothing (§4.3).
    game = _picked(GO, battle=REP, can_go=True, played=[ROW])
    assert error_of(game, 0) is None
    assert game.players[0].battle == GO


def test_end_of_limit() -> None:
    for speed in (EMPTY, EOL):
        assert error_of(_picked(EOL, speed=speed), 0) == "not limited"
    game = _picked(EOL, speed=LIMIT)
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    assert game.players[0].speed == EOL


# --------------------------------------------------------------------------
# §4.5 hazards


@pytest.mark.parametrize(("hazard", "safety"), [(OOG, TANK), (FLAT, PROOF), (ACC, ACE), (STOP, ROW)])
def test_hazard_messages_in_order(hazard: int, safety: int) -> None:
    # §11.19: "opponent cannot go" comes before "opponent is protected".
    game = _picked(hazard, computer=tableau(battle=STOP, played=[safety]))
    assert error_of(game, 0) == "opponent cannot go"
    game = _picked(hazard, computer=tableau(battle=GO, can_go=True, played=[safety]))
    assert error_of(game, 0) == "opponent is protected"
    game = _picked(hazard, computer=tableau(battle=GO, can_go=True, fresh_hazard=False))
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    comp = game.players[1]
    assert (comp.battle, comp.fresh_hazard, comp.can_go) == (hazard, True, False)
    assert game.to_move == 1


def test_hazard_needs_the_opponent_rolling_not_a_hazard_on_top() -> None:
    # Hazards cannot be stacked: an opponent who has not played Go cannot be hit.
    game = _picked(FLAT, computer=tableau(battle=EMPTY))
    assert error_of(game, 0) == "opponent cannot go"


def test_hazard_on_a_remedy_of_a_right_of_way_player() -> None:
    # Right of Way keeps can_go, so a hazard lands on top of a remedy.
    game = _picked(ACC, computer=tableau(battle=GAS, can_go=True, played=[ROW]))
    assert error_of(game, 0) is None
    assert game.players[1].battle == ACC and not game.players[1].can_go


def test_speed_limit_messages_in_order() -> None:
    game = _picked(LIMIT, computer=tableau(speed=LIMIT, played=[ROW]))
    assert error_of(game, 0) == "opponent has limit"
    game = _picked(LIMIT, computer=tableau(speed=EOL, played=[ROW]))
    assert error_of(game, 0) == "opponent is protected"


def test_speed_limit_has_no_can_go_or_mileage_check() -> None:
    # §11.19: a stopped opponent at 675 can still be limited by the human.
    game = _picked(LIMIT, computer=tableau(battle=STOP, mileage=675))
    out = rules.push(game, play(0))
    assert out.error is None and out.passed
    comp = game.players[1]
    assert (comp.speed, comp.fresh_limit, comp.battle) == (LIMIT, True, STOP)
    # ... although the computer's own test would not play it there.
    assert not rules.can_play(game, game.players[0], game.players[1], LIMIT)


# --------------------------------------------------------------------------
# §4.6 safeties


def test_safety_before_drawing_only_as_a_counter() -> None:
    # §11.12: not a counter, P empty, deck left -> "must pick first".
    game = position(tableau([EMPTY, TANK, P50, P75, P100, P200, GO]), deck_count=30)
    assert error_of(game, 1) == "must pick first"
    game = position(tableau([EMPTY, ROW, P50, P75, P100, P200, GO], battle=OOG), deck_count=30)
    assert error_of(game, 1) == "must pick first"  # Right of Way does not counter Out of Gas
    # As a counter it may be played before drawing.
    game = position(tableau([EMPTY, TANK, P50, P75, P100, P200, GO], battle=OOG), deck_count=30)
    assert error_of(game, 1) is None
    game = position(tableau([EMPTY, ROW, P50, P75, P100, P200, GO], speed=LIMIT, can_go=True), deck_count=30)
    assert error_of(game, 1) is None


def test_any_safety_after_drawing_or_with_an_empty_deck() -> None:
    game = position(tableau([P25, TANK, P50, P75, P100, P200, GO]), deck_count=30)
    assert error_of(game, 1) is None
    game = position(tableau([EMPTY, TANK, P50, P75, P100, P200, GO]), deck_count=0)
    assert error_of(game, 1) is None


def test_safety_before_drawing_leaves_slots_0_and_1_empty() -> None:
    # §3.6: the card from slot 1 moves into the safety's slot.
    game = position(tableau([EMPTY, P25, P50, ACE, P100, P200, GO], battle=ACC, fresh_hazard=True), deck_count=30)
    out = rules.push(game, play(3))
    assert out.error is None and not out.passed
    assert game.players[0].hand == [EMPTY, EMPTY, P50, P25, P100, P200, GO]
    assert game.to_move == 0  # the same player moves again
    out = rules.push(game, DRAW)
    assert game.deck_count == 28  # two cards drawn (§11.13)
    assert EMPTY not in game.players[0].hand


@pytest.mark.parametrize(("safety", "hazard"), [(TANK, OOG), (PROOF, FLAT), (ACE, ACC)])
def test_counter_safety_effects(safety: int, hazard: int) -> None:
    game = _picked(P25, safety, battle=hazard, fresh_hazard=True)
    pp = game.players[0]
    pp.total = 1000
    out = rules.push(game, play(1))
    assert out.error is None and not out.passed
    idx = safety - C.SAFETY_BASE
    assert pp.battle == GO and pp.can_go
    assert pp.coups[idx]
    assert pp.safety[idx] == SafetyStatus.PLAYED
    assert (pp.safety_score, pp.coup_score, pp.hand_total, pp.total) == (100, 300, 400, 1400)


def test_counter_to_an_old_hazard_is_no_coup() -> None:
    # §11.10: the counter still works, but without new_battle no coup.
    game = _picked(P25, TANK, battle=OOG, fresh_hazard=False)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == GO and pp.can_go
    assert not any(pp.coups)
    assert (pp.safety_score, pp.coup_score, pp.hand_total) == (100, 0, 100)


def test_non_counter_safety() -> None:
    game = _picked(P25, PROOF, battle=OOG, fresh_hazard=True)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == OOG and not pp.can_go
    assert not any(pp.coups)
    assert pp.safety == [0, SafetyStatus.PLAYED, 0, 0]
    assert pp.hand_total == 100


def test_fourth_safety_bonus() -> None:
    game = _picked(P25, ROW, played=[TANK, PROOF, ACE])
    pp = game.players[0]
    before = pp.hand_total
    rules.push(game, play(1))
    assert pp.safety_score == 400
    assert pp.hand_total == before + 100 + 300


def test_right_of_way_on_a_stop_empties_the_battle_pile() -> None:
    # §11.16: Right of Way on a Stop leaves nothing showing, not Go.
    game = _picked(P25, ROW, battle=STOP, fresh_hazard=True)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == EMPTY and pp.can_go
    assert pp.coups[3] and pp.coup_score == 300


def test_right_of_way_on_an_empty_pile() -> None:
    game = _picked(P25, ROW)
    rules.push(game, play(1))
    assert game.players[0].battle == EMPTY and game.players[0].can_go
    assert game.players[0].coup_score == 0


@pytest.mark.parametrize("top", [EMPTY, GAS, SPARE, REP])
def test_right_of_way_against_a_limit_over_a_remedy_shows_go(top: int) -> None:
    # §11.16: the counter puts Go on the battle pile, the limit goes.
    game = _picked(P25, ROW, battle=top, speed=LIMIT, fresh_limit=True)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == GO and pp.can_go and pp.speed == EMPTY
    assert pp.coups[3]


def test_right_of_way_against_a_limit_under_a_real_hazard() -> None:
    # The limit goes, the Flat Tire stays, and the player still cannot go.
    game = _picked(P25, ROW, battle=FLAT, speed=LIMIT)
    rules.push(game, play(1))
    pp = game.players[0]
    assert (pp.battle, pp.speed, pp.can_go) == (FLAT, EMPTY, False)
    assert not any(pp.coups)


def test_right_of_way_limit_coup_on_any_new_battle_hazard() -> None:
    # §11.15: a pending new Flat Tire makes Right of Way vs a limit a coup.
    game = _picked(P25, ROW, battle=FLAT, speed=LIMIT, fresh_hazard=True)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.coups[3] and pp.coup_score == 300
    assert pp.battle == FLAT and pp.speed == EMPTY


def test_right_of_way_coup_needs_a_counter() -> None:
    # new_speed is set but the limit is gone (End of Limit on top): no counter, no coup.
    game = _picked(P25, ROW, battle=GO, can_go=True, speed=EOL, fresh_limit=True)
    rules.push(game, play(1))
    assert not any(game.players[0].coups)


def test_right_of_way_over_a_remedy_lets_you_go() -> None:
    game = _picked(P25, ROW, battle=REP)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == REP and pp.can_go


def test_right_of_way_under_a_hazard_does_not_let_you_go() -> None:
    game = _picked(P25, ROW, battle=ACC)
    rules.push(game, play(1))
    pp = game.players[0]
    assert pp.battle == ACC and not pp.can_go


def test_coup_stays_possible_with_an_empty_deck() -> None:
    # §11.14: new_battle is only cleared by a successful draw.
    game = _picked(P25, PROOF, battle=FLAT, fresh_hazard=True, deck_count=0)
    assert rules.push(game, DRAW).error == "no more cards"
    rules.push(game, play(1))
    assert game.players[0].coups[1]


def test_a_safety_play_is_counted_by_the_other_seat() -> None:
    game = _picked(P25, TANK)
    rules.push(game, play(1))
    assert game.memory[1].num_seen[TANK] == 1
    assert game.memory[0].num_seen[TANK] == 0
    game = position(computer=tableau([P25, TANK, P50, P75, P100, P200, GO]), to_move=1)
    rules.push(game, play(1))
    assert game.memory[1].num_seen[TANK] == 0
    assert game.memory[0].num_seen[TANK] == 1


# --------------------------------------------------------------------------
# §4.7 the empty slot


def test_play_of_an_empty_slot() -> None:
    game = position(tableau([EMPTY, EMPTY, P50, P75, P100, P200, GO]), deck_count=0)
    out = rules.push(game, play(1))
    assert out.error == "no card there" and not out.passed
    assert game.to_move == 0


def test_player_with_no_cards_is_skipped() -> None:
    game = position(tableau([EMPTY] * 7), tableau([P25] * 7), deck_count=0)
    assert rules.phase(game) is rules.Phase.EMPTY_HAND
    assert rules.legal_moves(game) == [rules.PASS]
    with pytest.raises(rules.IllegalPhase):
        rules.push(game, DRAW)
    out = rules.push(game, rules.PASS)
    assert out.skipped and out.passed and out.error is None
    assert game.to_move == 1
    assert rules.phase(game) is rules.Phase.MOVE
    with pytest.raises(rules.IllegalPhase):
        rules.push(game, rules.PASS)  # the computer has cards


def test_both_hands_empty_ends_the_hand_even_with_cards_in_the_deck() -> None:
    """Nobody can ever move again: the engine ends the hand instead of passing for ever."""
    game = position(tableau([EMPTY] * 7), tableau([EMPTY] * 7), deck_count=40)
    assert rules.phase(game) is rules.Phase.EMPTY_HAND
    out = rules.push(game, rules.PASS)
    assert out.skipped and game.finished
    assert rules.phase(game) is rules.Phase.HAND_OVER
    assert game.deck_count == 40  # the cards left stay in the deck


# --------------------------------------------------------------------------
# §3.6 / §11.22-§11.23 hand tidy-up


def test_compaction_example() -> None:
    a, b, c, d, e = P25, P50, P75, P100, P200
    pp = tableau([EMPTY, a, b, EMPTY, c, d, e])
    rules.tidy_hand(pp, sort=False)
    assert pp.hand == [EMPTY, EMPTY, b, a, c, d, e]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # drawn card in P moves into the hole left by the play
        ([GO, P25, P50, EMPTY, P100, P200, STOP], [EMPTY, P25, P50, GO, P100, P200, STOP]),
        # playing P itself leaves slots 1-6 alone
        ([EMPTY, P25, P50, P75, P100, P200, STOP], [EMPTY, P25, P50, P75, P100, P200, STOP]),
        # holes gathered low, late in a hand
        ([EMPTY, EMPTY, EMPTY, P75, EMPTY, P200, STOP], [EMPTY, EMPTY, EMPTY, EMPTY, P75, P200, STOP]),
        ([P25, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, P25]),
        ([EMPTY, P25, EMPTY, P50, EMPTY, EMPTY, P75], [EMPTY, EMPTY, EMPTY, EMPTY, P25, P50, P75]),
        # an empty hand is left alone (no phantom cards, §12.2)
        ([EMPTY] * 7, [EMPTY] * 7),
    ],
)
def test_compaction_cases(before: list[int], after: list[int]) -> None:
    pp = tableau(before)
    rules.tidy_hand(pp, sort=False)
    assert pp.hand == after


def test_sort_branch_puts_empties_first() -> None:
    pp = tableau([GO, ROW, P25, EMPTY, LIMIT, P200, EOL])
    rules.tidy_hand(pp, sort=True)
    assert pp.hand == [EMPTY, P25, P200, LIMIT, GO, EOL, ROW]


def _ordered(hand: list[int], **kw: object) -> Game:
    deck_count = kw.pop("deck_count", 30)
    game = position(tableau(hand, **kw), deck_count=deck_count)  # type: ignore[arg-type]
    game.order = True
    return game


UNSORTED = [P200, GO, P25, STOP, P100, P50, P75]


def test_order_sorts_after_a_successful_play() -> None:
    game = _ordered(UNSORTED[:], can_go=True)
    rules.push(game, play(4))
    assert game.players[0].hand == [EMPTY, P25, P50, P75, P200, STOP, GO]


def test_order_sorts_after_a_discard() -> None:
    game = _ordered(UNSORTED[:])
    rules.push(game, discard(0))
    assert game.players[0].hand == sorted([EMPTY, GO, P25, STOP, P100, P50, P75])


def test_order_does_not_sort_after_a_draw() -> None:
    # §11.23: after P the new card stays in P.
    hand = [EMPTY, GO, P25, STOP, P100, P50, P75]
    game = _ordered(hand[:])
    rules.push(game, DRAW)
    assert game.players[0].hand[1:] == hand[1:]
    assert game.players[0].hand[0] == game.deck[29]


def test_order_does_not_sort_after_a_failed_play() -> None:
    game = _ordered(UNSORTED[:])  # cannot go: the 100 fails
    assert rules.push(game, play(4)).error == "cannot move now"
    assert game.players[0].hand == UNSORTED


def test_order_does_not_sort_after_discard_a_safety() -> None:
    hand = [P200, ROW, P25, STOP, P100, P50, P75]
    game = _ordered(hand[:])
    assert rules.push(game, discard(1)).error == "discard a safety?"
    assert game.players[0].hand == hand


def test_order_sorts_after_discard_must_pick_first() -> None:
    hand = [EMPTY, GO, P25, STOP, P100, P50, P75]
    game = _ordered(hand[:])
    assert rules.push(game, discard(3)).error == "must pick first"
    assert game.players[0].hand == sorted(hand)


def test_order_sorts_after_discard_no_card_there() -> None:
    hand = [P50, EMPTY, P25, STOP, P100, P50, P75]
    game = _ordered(hand[:], deck_count=0)
    assert rules.push(game, discard(1)).error == "no card there"
    assert game.players[0].hand == sorted(hand)


def test_order_sorts_after_use_of_an_empty_slot() -> None:
    hand = [P50, EMPTY, P25, STOP, P100, P50, P75]
    game = _ordered(hand[:], deck_count=0)
    assert rules.push(game, play(1)).error == "no card there"
    assert game.players[0].hand == sorted(hand)


def test_turning_order_on_sorts_at_once() -> None:
    game = position(tableau(UNSORTED[:]), deck_count=30)
    out = rules.push(game, ORDER)
    assert game.order and out.error is None and not out.passed
    assert game.players[0].hand == sorted(UNSORTED)
    # Turning it off compacts instead (nothing to move here).
    rules.push(game, ORDER)
    assert not game.order


def test_computer_hand_is_never_sorted() -> None:
    hand = [P200, GO, P25, STOP, P100, P50, P75]
    game = position(computer=tableau(hand[:], can_go=True), to_move=1)
    game.order = True
    rules.push(game, play(4))
    assert game.players[1].hand == [EMPTY, GO, P25, STOP, P200, P50, P75]


# --------------------------------------------------------------------------
# §3.8 / §11.21 end of a hand with an empty deck


def _endgame(human_hand: list[int], comp_hand: list[int], **kw: object) -> Game:
    human_kw = {k[2:]: v for k, v in kw.items() if k.startswith("h_")}
    comp_kw = {k[2:]: v for k, v in kw.items() if k.startswith("c_")}
    return position(tableau(human_hand, **human_kw), tableau(comp_hand, **comp_kw), deck_count=0)  # type: ignore[arg-type]


def test_hand_ends_when_nobody_can_play() -> None:
    game = _endgame([EMPTY, P25, P50, EMPTY, EMPTY, EMPTY, GAS], [EMPTY] * 6 + [REP])
    rules.check_go(game)
    assert game.finished


def test_a_safety_keeps_the_hand_alive() -> None:
    game = _endgame([EMPTY] * 6 + [P25], [EMPTY] * 6 + [ACE])
    rules.check_go(game)
    assert not game.finished


def test_a_playable_card_keeps_the_hand_alive() -> None:
    game = _endgame([EMPTY] * 6 + [P25], [EMPTY] * 6 + [P50], h_can_go=True)
    rules.check_go(game)
    assert not game.finished


def test_check_go_speed_limit_is_stricter() -> None:
    # §11.21: a Speed Limit the human may legally play does not keep the hand
    # alive when the opponent is within 50 of the end.
    game = _endgame([EMPTY] * 6 + [LIMIT], [EMPTY] * 6 + [P100], c_mileage=650, c_battle=STOP)
    assert play_error(game, 0, 6) is None  # legal for the human
    rules.check_go(game)
    assert game.finished
    game = _endgame([EMPTY] * 6 + [LIMIT], [EMPTY] * 6 + [P100], c_mileage=625, c_battle=STOP)
    rules.check_go(game)
    assert not game.finished


def test_check_go_go_is_stricter() -> None:
    # Go keeps the hand alive only for a player who cannot go.
    game = _endgame([EMPTY] * 6 + [GO], [EMPTY] * 6 + [P200], h_battle=REP, h_can_go=True, h_played=[ROW])
    assert play_error(game, 0, 6) is None  # legal, pointless
    rules.check_go(game)
    assert game.finished


def test_discards_do_not_keep_the_hand_alive() -> None:
    # The push of a discard runs the test after the move.
    game = _endgame([P25, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, P50], [EMPTY] * 6 + [P75], h_battle=STOP)
    out = rules.push(game, discard(0))
    assert out.error is None
    assert game.finished
    # Nobody completed the trip: no bonuses.
    assert game.players[0].hand_total == 0 and game.players[1].hand_total == 0


def test_end_test_runs_after_failed_moves_too() -> None:
    game = _endgame([P25, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, P50], [EMPTY] * 6 + [P75], h_battle=STOP)
    assert rules.push(game, DRAW).error == "no more cards"
    assert game.finished


def test_end_test_not_run_while_cards_remain() -> None:
    game = position(tableau([P25, P50, P50, P50, P50, P50, P50]), tableau([P75] * 7), deck_count=1)
    rules.push(game, discard(0))
    assert not game.finished


# --------------------------------------------------------------------------
# legal_moves agrees with the messages


def test_legal_moves_agree_with_errors() -> None:
    game = _picked(P25, GO, ROW, LIMIT, P200, GAS, STOP, battle=STOP, computer=tableau(battle=GO, can_go=True))
    moves = {str(m) for m in rules.legal_moves(game)}
    assert moves == {"DP", "U1", "D1", "U2", "U3", "D3", "D4", "D5", "U6", "D6"}
    for m in rules.legal_moves(game):
        assert rules.push(game.copy(), m).error is None


def test_legal_moves_before_drawing() -> None:
    game = position(tableau([EMPTY, TANK, P50, P75, P100, P200, GO], battle=OOG), deck_count=30)
    assert [str(m) for m in rules.legal_moves(game)] == ["P", "U1"]


def test_card_lookup_helper() -> None:
    assert card("Right of Way") == ROW and card("") == EMPTY
    assert hand_of(P25) == [P25] + [EMPTY] * 6
