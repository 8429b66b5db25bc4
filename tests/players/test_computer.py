"""The BSD computer player, reference §6, and its quirks (§11.5-§11.10, §12.1)."""

from __future__ import annotations

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
    discard,
    new_game,
    play,
    position,
    rules,
    tableau,
)
from mille.engine.observation import observe
from mille.engine.state import Memory, Tableau
from mille.players import bsd as computer
from mille.players.bsd import BsdPlayer

#: The BSD player sitting in each test position's computer seat, by game
#: (its never-reset ``num_need`` table lives in the player, not the game).
_PLAYERS: dict[int, tuple[Game, BsdPlayer]] = {}


def player_of(game: Game) -> BsdPlayer:
    held = _PLAYERS.get(id(game))
    if held is None or held[0] is not game:
        held = _PLAYERS[id(game)] = (game, BsdPlayer())
    return held[1]


def decide(game: Game) -> computer.Decision:
    """The computer seat's decision, shown only its observation, dice from the game."""
    return player_of(game).decide(observe(game, 1), game.rng)


def would_extend(game: Game) -> bool:
    pp, op = game.players[1], game.players[0]
    return computer.would_extend(pp, op, game.memory[1], game.trip_length, game.deck_count)


def one_card(game: Game, pp: Tableau) -> bool:
    return computer.one_card(game.memory[1].num_seen, game.trip_length, pp)


def seen_by_computer(game: Game) -> list[int]:
    return game.memory[1].num_seen


def comp_game(hand: list[int], *, human: dict[str, object] | None = None, deck_count: int = 30, **kw: object) -> Game:
    """The computer to move with this hand; the human is stopped unless told otherwise."""
    human_kw: dict[str, object] = {"battle": STOP, "mileage": 300}
    human_kw.update(human or {})
    return position(
        tableau([P25] * 7, **human_kw),  # type: ignore[arg-type]
        tableau(hand, **kw),  # type: ignore[arg-type]
        to_move=1,
        deck_count=deck_count,
    )


# --------------------------------------------------------------------------
# one_card (§6.2, §11.8)


def test_one_card_reads_the_seen_count_of_the_100() -> None:
    # The human cannot go (empty battle pile), 100 miles from the end.
    game = position(tableau(mileage=600))
    assert not one_card(game, game.players[0])
    seen_by_computer(game)[ROW] = 1  # what the original meant to read: ignored
    assert not one_card(game, game.players[0])
    seen_by_computer(game)[P100] = 1  # what it really reads
    assert one_card(game, game.players[0])


def test_one_card_when_limited_also_reads_the_100() -> None:
    game = position(tableau(mileage=600, can_go=True, speed=LIMIT))
    assert one_card(game, game.players[0])  # Numseen[3] == 0
    seen_by_computer(game)[P100] = 1
    assert not one_card(game, game.players[0])
    seen_by_computer(game)[ROW] = 1
    assert not one_card(game, game.players[0])


@pytest.mark.parametrize(
    ("mileage", "end", "seen", "expected"),
    [
        (650, 700, {}, True),
        (650, 700, {P50: 10}, False),  # every 50 already seen
        (675, 700, {P25: 9}, True),
        (675, 700, {P25: 10}, False),
        (625, 700, {P75: 10}, False),
        (500, 700, {}, True),
        (500, 700, {P200: 4}, False),
        (575, 700, {}, False),  # 125 left: no single card
        (900, 1000, {P100: 11}, True),
        (900, 1000, {P100: 12}, False),
    ],
)
def test_one_card_distances(mileage: int, end: int, seen: dict[int, int], expected: bool) -> None:
    game = position(tableau(mileage=mileage, can_go=True), trip_length=end)
    for c, n in seen.items():
        seen_by_computer(game)[c] = n
    assert one_card(game, game.players[0]) is expected


def test_one_card_two_200s_played() -> None:
    game = position(tableau(mileage=500, can_go=True, nummiles=[0, 0, 0, 3, 2]))
    assert not one_card(game, game.players[0])


def test_one_card_stopped_by_a_hazard_needs_its_safety_seen() -> None:
    game = position(tableau(mileage=650, battle=FLAT))
    assert not one_card(game, game.players[0])
    seen_by_computer(game)[PROOF] = 1
    assert one_card(game, game.players[0])


# --------------------------------------------------------------------------
# would_extend (§6.6)


def _ext_game(**kw: object) -> Game:
    comp_hand = kw.pop("hand", [P100, TANK, PROOF, GAS, SPARE, REP, EOL])
    human = kw.pop("human", {})
    deck_count = kw.pop("deck_count", 30)
    game = position(
        tableau([P25] * 7, **{"mileage": 300, "battle": STOP, **human}),  # type: ignore[arg-type]
        tableau(comp_hand, mileage=600, can_go=True, **kw),  # type: ignore[arg-type]
        to_move=1,
        deck_count=deck_count,  # type: ignore[arg-type]
    )
    return game


def test_would_extend_when_the_human_has_played_no_safety() -> None:
    assert would_extend(_ext_game())


def test_would_not_extend_with_fewer_than_two_safeties() -> None:
    assert not would_extend(_ext_game(hand=[P100, TANK, GAS, GAS, SPARE, REP, EOL]))


def test_would_not_extend_at_1000() -> None:
    game = _ext_game()
    game.trip_length = 1000
    assert not would_extend(game)


@pytest.mark.parametrize(
    "human",
    [
        {"mileage": 0},
        {"mileage": 500, "can_go": True, "battle": GO},
        {"mileage": 650, "can_go": True, "battle": GO},  # one_card(human) too
    ],
)
def test_would_not_extend_when_the_human_is_close(human: dict[str, object]) -> None:
    assert not would_extend(_ext_game(human=human))


def test_would_extend_on_miles_in_hand_and_deck() -> None:
    # The human has played a safety the computer does not hold: u + k = 3.
    hand = [P100, TANK, PROOF, P200, P200, P200, P100]
    human = {"played": [ACE]}
    assert would_extend(_ext_game(hand=hand, human=human, deck_count=67))  # 800 + 201 > 1000
    assert not would_extend(_ext_game(hand=hand, human=human, deck_count=66))  # 800 + 198
    # Empty slots count 0 (the card being played is still in the hand).
    hand = [P100, TANK, PROOF, EMPTY, P200, P200, P200]
    assert would_extend(_ext_game(hand=hand, human=human, deck_count=101))  # 700 + 303
    assert not would_extend(_ext_game(hand=hand, human=human, deck_count=100))  # 700 + 300


def test_computer_extension_is_applied_when_it_reaches_700() -> None:
    game = _ext_game()
    out = rules.push(game, play(0))
    assert out.error is None
    assert rules.phase(game) is rules.Phase.EXTENSION and game.to_move == 1
    assert decide(game).move == rules.EXTEND
    rules.push(game, rules.EXTEND)
    assert game.trip_length == 1000 and not game.finished


# --------------------------------------------------------------------------
# Step 1-2: immediate safety, draw


def test_draws_first() -> None:
    game = comp_game([EMPTY, P25, P50, GO, GAS, SPARE, REP], can_go=True)
    assert decide(game) == computer.Decision(DRAW)


def test_no_draw_with_an_empty_deck() -> None:
    game = comp_game([EMPTY, P25, P50, GO, GAS, SPARE, REP], can_go=True, deck_count=0)
    assert decide(game).move.kind is not rules.MoveType.DRAW


def test_counter_safety_before_drawing_even_for_an_old_hazard() -> None:
    # §11.10: played at once, silently; a coup only if new_battle is set.
    game = comp_game([EMPTY, P25, TANK, GO, GAS, SPARE, REP], battle=OOG, fresh_hazard=False)
    decision = decide(game)
    assert decision == computer.Decision(play(2))  # no announcement
    rules.push(game, decision.move)
    assert game.players[1].battle == GO and not any(game.players[1].coups)
    game = comp_game([EMPTY, P25, TANK, GO, GAS, SPARE, REP], battle=OOG, fresh_hazard=True)
    rules.push(game, decide(game).move)
    assert game.players[1].coups[0] and game.players[1].coup_score == 300


def test_right_of_way_against_a_limit_at_once() -> None:
    game = comp_game([EMPTY, P25, P50, ROW, GAS, SPARE, REP], battle=GO, can_go=True, speed=LIMIT)
    assert decide(game) == computer.Decision(play(3))


def test_first_matching_safety_in_slot_order() -> None:
    game = comp_game([P25, P25, ROW, GO, TANK, SPARE, REP], battle=OOG, speed=LIMIT)
    assert decide(game).move == play(2)


def test_immediate_safety_uses_no_random_numbers() -> None:
    game = comp_game([EMPTY, P25, TANK, GO, GAS, SPARE, REP], battle=OOG)
    twin = game.rng.copy()
    decide(game)
    assert game.rng.random() == twin.random()


# --------------------------------------------------------------------------
# Step 4: when to play a held safety


def test_safety_timing_roll_consumes_random_numbers() -> None:
    # Two safeties reach step 4c: two random() calls, no play (deck 80).
    game = comp_game([P25, TANK, PROOF, GAS, SPARE, REP, EOL], human={"mileage": 0}, deck_count=80)
    twin = game.rng.copy()
    decision = decide(game)
    assert decision.move.kind is rules.MoveType.DISCARD
    twin.random()
    twin.random()
    assert game.rng.random() == twin.random()


def test_safety_timing_roll_can_play_the_safety() -> None:
    # x = deck - roll(1,10) < 25 plays the safety; with deck 30 that is a roll of 6+.
    outcomes = set()
    for seed in range(1, 40):
        game = comp_game([P25, TANK, GAS, GAS, SPARE, REP, EOL], human={"mileage": 0}, deck_count=30)
        game.rng = new_game(seed).rng
        roll = game.rng.copy().roll(10)
        decision = decide(game)
        if 30 - roll < 25:
            assert decision == computer.Decision(play(1))
        else:
            assert decision.move.kind is rules.MoveType.DISCARD
        outcomes.add(decision.move.kind)
    assert len(outcomes) == 2  # both branches seen


def test_safety_timing_minus_7_when_one_player_has_no_miles() -> None:
    # The computer has miles, the human none: x -= 7, so deck 38 behaves like 31.
    outcomes = set()
    for seed in range(1, 40):
        game = comp_game([P25, TANK, GAS, GAS, SPARE, REP, EOL], human={"mileage": 0}, mileage=100, deck_count=38)
        game.rng = new_game(seed).rng
        roll = game.rng.copy().roll(10)
        expected_play = 38 - roll - 7 < 25
        assert (decide(game).move == play(1)) is expected_play
        outcomes.add(expected_play)
    assert outcomes == {True, False}


def test_safety_played_when_all_its_hazards_are_seen() -> None:
    game = comp_game([P25, TANK, GAS, GAS, SPARE, REP, EOL], human={"mileage": 0}, deck_count=80)
    seen_by_computer(game)[OOG] = 2
    twin = game.rng.copy()
    assert decide(game) == computer.Decision(play(1))
    assert game.rng.random() == twin.random()  # no roll needed


def test_right_of_way_waits_for_the_speed_limits_too() -> None:
    game = comp_game([P25, ROW, GAS, GAS, SPARE, REP, EOL], human={"mileage": 0}, deck_count=80)
    seen_by_computer(game)[STOP] = 4
    assert decide(game).move != play(1)
    game = comp_game([P25, ROW, GAS, GAS, SPARE, REP, EOL], human={"mileage": 0}, deck_count=80)
    seen_by_computer(game)[STOP] = 4
    seen_by_computer(game)[LIMIT] = 3
    assert decide(game) == computer.Decision(play(1))


def test_safety_played_when_the_human_could_finish() -> None:
    game = comp_game(
        [P25, TANK, GAS, GAS, SPARE, REP, EOL],
        human={"mileage": 650, "can_go": True, "battle": GO},
        deck_count=80,
    )
    assert decide(game) == computer.Decision(play(1))


def test_safety_played_before_finishing_the_trip() -> None:
    # Step 3: a finishing card and no wish to extend (one safety only).
    game = comp_game([P100, TANK, GAS, GAS, SPARE, REP, EOL], mileage=600, can_go=True, battle=GO)
    assert decide(game) == computer.Decision(play(1))
    # With two safeties and a human who has played none it would extend, so
    # the finishing card does not count and the 100 is played (valued 40).
    game = comp_game([P100, TANK, PROOF, GAS, SPARE, REP, EOL], mileage=600, can_go=True, battle=GO)
    assert decide(game) == computer.Decision(play(0), considered=True)


# --------------------------------------------------------------------------
# Steps 5-7: Numneed (§11.5)


@pytest.mark.parametrize(("hazard", "remedy"), [(STOP, GO), (OOG, GAS), (FLAT, SPARE), (ACC, REP)])
def test_num_need_bumped_twice_per_stopped_decision(hazard: int, remedy: int) -> None:
    game = comp_game([P25, P50, P75, P100, EOL, EOL, P200], battle=hazard)
    before = player_of(game).num_need[:]
    for n in range(1, 4):
        decide(game)
        expected = before[:]
        expected[remedy] += 2 * n
        assert player_of(game).num_need == expected


def test_num_need_not_bumped_for_a_draw_or_a_remedy_on_top() -> None:
    game = comp_game([EMPTY, P50, P75, P100, EOL, EOL, P200], battle=STOP)
    before = player_of(game).num_need[:]
    assert decide(game).move == DRAW
    assert player_of(game).num_need == before
    game = comp_game([P25, P50, P75, P100, EOL, EOL, P200], battle=GAS)  # a Go is needed, not bumped
    decide(game)
    assert player_of(game).num_need == before


def test_num_need_survives_deals() -> None:
    game = new_game(7)
    player_of(game).num_need[GO] = 55
    rules.start_hand(game)
    decide(game)
    rules.start_hand(game)
    assert player_of(game).num_need[GO] == 55


# --------------------------------------------------------------------------
# Numgos and the deal (§6.1, §11.9)


def _expected_num_gos(hand: list[int]) -> int:
    seen = [0] * 20
    gos = 0
    for c in hand:
        seen[c] += 1
        if c in (TANK, PROOF, ACE):
            hazard = C.OPPOSITE[c]
            gos += C.COPIES[hazard] - seen[hazard]
        elif c in (OOG, FLAT, ACC, STOP):
            gos += 1
    return gos


@pytest.mark.parametrize("seed", [4242, 5814, 1, 42])
def test_num_gos_ignores_the_dealt_cards_when_the_human_starts(seed: int) -> None:
    game = new_game(seed)
    rules.start_hand(game)  # the human starts the first hand
    assert game.to_move == 0
    assert game.memory[1].num_gos == 0
    game = new_game(seed)
    game.hand_starter = 0  # so that the computer starts
    rules.start_hand(game)
    assert game.to_move == 1
    assert game.memory[1].num_gos == _expected_num_gos(game.players[1].hand[1:])


def test_num_gos_examples() -> None:
    # Seed 4242 deals the computer a Driving Ace (2 Accidents unseen): +2.
    game = new_game(4242)
    game.hand_starter = 0
    rules.start_hand(game)
    assert game.memory[1].num_gos == 2
    # Seed 5814 deals it a Stop: +1.
    game = new_game(5814)
    game.hand_starter = 0
    rules.start_hand(game)
    assert game.memory[1].num_gos == 1


def test_account_moves_num_gos_only_on_the_owners_turn() -> None:
    memory = Memory()
    for c in (OOG, TANK, STOP, ROW, LIMIT):
        memory.count(c, own_turn=False)
    assert memory.num_gos == 0
    memory = Memory()
    memory.count(OOG, True)  # +1
    memory.count(TANK, True)  # + (2 - 1)
    memory.count(ROW, True)  # nothing
    memory.count(LIMIT, True)  # nothing
    memory.count(PROOF, True)  # + 2
    memory.count(EMPTY, True)  # not counted at all
    assert memory.num_gos == 4
    assert sum(memory.num_seen) == 5


# --------------------------------------------------------------------------
# Step 6-8: valuation quirks


def test_boolean_cango_too_close_switches_to_discarding() -> None:
    # §11.6: at 600 of 700 with two 25s the first "too close" 25 sends the
    # whole valuation into discard mode.  The remedies are worth 12 each and
    # End of Limit 18; ties go to the last slot (§11.7): Repairs in slot 5.
    hand = [GAS, P25, P25, P50, SPARE, REP, EOL]
    game = comp_game(hand, mileage=600, can_go=True, battle=GO)
    assert decide(game) == computer.Decision(discard(5), considered=True)


def test_no_too_close_test_once_the_deck_is_gone() -> None:
    hand = [GAS, P25, P25, P50, SPARE, REP, EOL]
    game = comp_game(hand, mileage=600, can_go=True, battle=GO, deck_count=0)
    assert decide(game) == computer.Decision(play(3), considered=True)  # the 50 (5) beats a 25 (2)


def test_plays_tie_to_the_last_slot() -> None:
    game = comp_game([P100, P75, P100, GAS, GAS, SPARE, REP], can_go=True, battle=GO)
    assert decide(game) == computer.Decision(play(2), considered=True)


def test_never_discards_a_safety() -> None:
    # Discard mode after "too close": every card scores 101, the last
    # (the safety) is the minimum, and it is played instead.
    game = comp_game([P25, P25, P50, P50, P50, P50, TANK], mileage=600, can_go=True, battle=GO)
    assert decide(game) == computer.Decision(play(6), considered=True)


def test_no_crash_when_every_card_values_above_101(monkeypatch: pytest.MonkeyPatch) -> None:
    # §12.1: the binary crashed here; the port picks the minimum (ties last).
    calls: list[tuple[bool, list[int]]] = []
    original = computer._extreme

    def spy(values: list[int], hand: list[int], *, lowest: bool) -> int:
        calls.append((lowest, values[:]))
        return original(values, hand, lowest=lowest)

    monkeypatch.setattr(computer, "_extreme", spy)
    hand = [GO, FLAT, ACC, OOG, GO, FLAT, GO]
    game = comp_game(hand, battle=OOG, human={"battle": STOP, "mileage": 0})
    player_of(game).num_need[GO] = 400
    player_of(game).num_need[GAS] = player_of(game).num_need[SPARE] = player_of(game).num_need[REP] = 100
    decision = decide(game)
    # The valuation found no card at 101 or below, and the fallback was asked for the lowest.
    assert [lowest for lowest, _ in calls] == [True]
    values = calls[0][1]
    assert min(values) > 101
    lowest = min(values)
    expected = max(i for i, v in enumerate(values) if v == lowest)
    assert decision == computer.Decision(discard(expected), considered=True)
    assert rules.push(game, decision.move).error is None


def test_extreme_ties_and_empties() -> None:
    hand = [EMPTY, P25, P50, P75, EMPTY, P100, P200]
    values = [0, 5, 3, 5, -9, 3, 4]
    assert computer._extreme(values, hand, lowest=True) == 5
    assert computer._extreme(values, hand, lowest=False) == 3


def test_c_division() -> None:
    assert computer._cdiv(7, 2) == 3
    assert computer._cdiv(-7, 2) == -3
    assert computer._cdiv(7, -2) == -3
    assert computer._cdiv(-7, -2) == 3


def test_considered_moves() -> None:
    """The valuation's choices are considered (the board announces them), on-the-spot moves are not."""
    game = comp_game([P100, P75, GAS, GAS, GAS, SPARE, REP], can_go=True, battle=GO)
    decision = decide(game)
    assert decision.considered and decision.move == play(0)
    game = comp_game([GAS, GAS, GAS, SPARE, SPARE, REP, REP])
    decision = decide(game)
    assert decision.considered and decision.move.kind is rules.MoveType.DISCARD


def test_every_decision_is_legal_in_dealt_positions() -> None:
    # A smoke test over many fresh deals: the computer's first decision
    # after drawing is always accepted.
    for seed in range(1, 60):
        game = new_game(seed)
        game.hand_starter = 0
        rules.start_hand(game)
        assert decide(game).move == DRAW
        rules.push(game, DRAW)
        move = decide(game).move
        assert rules.push(game, move).error is None


def test_own_safeties_are_derived_from_the_hand() -> None:
    pp = tableau([TANK, ROW], played=[ACE])
    assert pp.safety == [0, 0, SafetyStatus.PLAYED, 0]  # the table shows only what was played
    assert computer.own_safeties(pp) == [SafetyStatus.IN_HAND, 0, SafetyStatus.PLAYED, SafetyStatus.IN_HAND]
