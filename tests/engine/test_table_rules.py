"""The rules at 3, 4 and 6 seats (table-rules.md R1-R15), on constructed positions and whole hands.

The two-seat game is the table of two and is checked by the original's
tests (test_rules, test_sim, the goldens); these check what only a larger
table has: partnerships sharing a tableau, the coup fourré out of turn and
the turns it skips, hazards aimed at a side, the end of the deck with
several hands, scoring and the game's end per side.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from helpers.engine import EMPTY, WAITING, C, at_table, hand_of, play, push_ok, waiting
from mille.engine import cards, rules, scoring
from mille.engine.driver import play_hand
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import DRAW, PASS, PLAYS, Move, MoveType, Phase, Refusal
from mille.engine.state import EXTENDED_TRIP, Game, Table, table
from mille.lab.sim import Simulator, main
from mille.players import make_player
from mille.players.bsd import BsdPlayer

P25, P50, P100, P200 = C.MILES_25, C.MILES_50, C.MILES_100, C.MILES_200
OOG, STOP, LIMIT, GO, TANK, ROW = C.OUT_OF_GAS, C.STOP, C.SPEED_LIMIT, C.GO, C.EXTRA_TANK, C.RIGHT_OF_WAY


def drawn(*codes: int) -> list[int]:
    """A hand of seven just drawn (padded with 25s)."""
    return [*codes, *(P25,) * (cards.HAND_SIZE - len(codes))]


def slot_of(game: Game, seat: int, card: int) -> int:
    return game.players[seat].hand.index(card)


def take_turn(game: Game) -> None:
    """The seat to move draws and discards its first card (a turn that changes no tableau)."""
    push_ok(game, DRAW)
    push_ok(game, Move(MoveType.DISCARD, 1))


# --------------------------------------------------------------------------
# R1-R4: the tables, the deck, the deal, the starter


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_deal_and_the_starter(seats: int) -> None:
    game = Game(table=table(seats), rng=GlibcRandom(5))
    starters = []
    for _ in range(seats + 1):
        rules.start_hand(game)
        starters.append(game.to_move)
        assert game.deck_count == game.table.deck_size - 6 * seats
        assert all(p.hand.count(EMPTY) == 1 and p.hand[0] == EMPTY for p in game.players)
        assert sorted(game.deck) == sorted(game.table.deck)
        assert game.trip_length == game.table.trip
    assert starters == [*range(seats), 0]  # R4: the deal passes left


# --------------------------------------------------------------------------
# R5, R8: one tableau per side; the 200s per side


def test_partners_play_on_one_tableau_and_share_the_two_200s() -> None:
    game = at_table(4, {2: drawn(P200, P200)}, to_move=2, rolling=(0,))
    game.players[0].nummiles[4] = 1  # seat 0 has played one 200 for side 0
    push_ok(game, play(0))
    side = game.players[0]
    assert (side.mileage, side.nummiles[4], side.hand_total) == (200, 2, 200)
    assert game.players[2].mileage == 0  # seat 2's own record holds only its hand
    assert game.to_move == 3
    game.to_move = 2
    game.deck_count = 0  # (so that it needs no draw first)
    assert rules.play_refusal(game, 2, slot_of(game, 2, P200)) == Refusal.TWO_200S  # its second 200 is the side's third


def test_a_hazard_goes_to_the_side_chosen_and_only_to_an_opponent() -> None:
    game = at_table(3, {0: [OOG, *WAITING]}, to_move=0, rolling=(1, 2))
    moves = rules.legal_moves(game)
    assert Move(MoveType.PLAY, 0, 1) in moves and Move(MoveType.PLAY, 0, 2) in moves
    assert PLAYS[0] not in moves  # at three sides a hazard names its side
    assert rules.play_refusal(game, 0, 0, 0) == Refusal.NO_SUCH_TARGET
    assert rules.push(game, Move(MoveType.PLAY, 0, 0)).error == "no such opponent"
    push_ok(game, Move(MoveType.PLAY, 0, 2))
    assert (game.players[2].battle, game.players[2].can_go, game.players[1].battle) == (OOG, False, GO)


def test_four_seats_drive_1000_without_an_extension() -> None:
    game = at_table(4, {0: [P100, *WAITING]}, to_move=0, rolling=(0,))
    game.players[0].mileage = 600
    push_ok(game, play(0))
    assert rules.phase(game) is Phase.MOVE and game.to_move == 1 and game.trip_length == 1000


# --------------------------------------------------------------------------
# R10: the coup fourré out of turn and the turns it skips


def test_four_seats_the_holder_moves_next_the_originals_model() -> None:
    """B1 attacks A; A2 holds the safety and moves next: no question, its safety before drawing is the coup."""
    game = at_table(4, {1: [OOG, *WAITING], 2: waiting(TANK)}, to_move=1, rolling=(0, 1))
    push_ok(game, play(0))
    assert rules.phase(game) is Phase.MOVE and game.to_move == 2
    push_ok(game, play(1))
    assert game.players[0].coups[0] and game.players[0].coup_score == 300
    take_turn(game)
    assert game.to_move == 3  # nobody skipped


@pytest.mark.parametrize(
    ("seats", "holder", "target", "after"),
    [
        (4, 0, None, 1),  # A0 B1 A2 B3: A0's coup skips seats 2 and 3
        (6, 3, 0, 4),  # A0 B1 C2 A3 B4 C5: A3's coup skips C2
        (6, 0, 0, 1),  # A0's coup skips seats 2 to 5
    ],
)
def test_the_coup_out_of_turn_skips_the_seats_between(seats: int, holder: int, target: int | None, after: int) -> None:
    game = at_table(seats, {1: [OOG, *WAITING], holder: waiting(TANK)}, to_move=1, rolling=tuple(range(seats)))
    push_ok(game, Move(MoveType.PLAY, 0, target))
    assert rules.phase(game) is Phase.REACTION and game.to_move == holder
    assert rules.legal_moves(game) == [PLAYS[1], PASS]
    assert rules.push(game, DRAW).refusal == Refusal.NOT_A_COUP
    push_ok(game, play(1))
    side = game.players[0]
    assert side.coups[0] and side.battle == GO and side.can_go and side.safety_score == 100
    assert rules.phase(game) is Phase.MOVE and game.to_move == holder
    take_turn(game)  # the coup fourré's turn: draw back, then play or discard
    assert game.to_move == after


def test_a_declined_coup_is_gone_and_play_resumes() -> None:
    game = at_table(4, {1: [OOG, *WAITING], 0: waiting(TANK)}, to_move=1, rolling=(0, 1))
    push_ok(game, play(0))
    assert game.to_move == 0
    push_ok(game, PASS)
    assert rules.phase(game) is Phase.MOVE and game.to_move == 2
    take_turn(game)
    take_turn(game)
    assert game.to_move == 0
    push_ok(game, play(1))  # the Extra Tank on its own turn: a safety, no coup
    assert game.players[0].safety_score == 100 and not game.players[0].coups[0]


def test_no_question_for_a_safety_against_an_older_hazard() -> None:
    """A Speed Limit on a side already Out of Gas: the Extra Tank held is no coup (only the limit is fresh)."""
    game = at_table(4, {1: [LIMIT, *WAITING], 0: waiting(TANK)}, to_move=1, rolling=(1,))
    game.players[0].battle = OOG
    push_ok(game, play(0))
    assert rules.phase(game) is Phase.MOVE and game.to_move == 2  # seat 0 not asked: it could only pass


def test_no_question_when_nobody_else_holds_it() -> None:
    game = at_table(6, {1: [STOP, *WAITING]}, to_move=1, rolling=range(3))
    push_ok(game, Move(MoveType.PLAY, 0, 0))
    assert rules.phase(game) is Phase.MOVE and game.to_move == 2


# --------------------------------------------------------------------------
# R12: the deck run out


def test_the_deck_run_out_with_cards_in_several_hands() -> None:
    """Each plays or discards in turn, an empty hand passes, and the hand ends when nobody can play."""
    hands = {0: hand_of(P25, P25), 1: hand_of(), 2: hand_of(P25), 3: hand_of(P25)}
    game = at_table(4, hands, to_move=0, rolling=(0,), deck_count=0)
    game.players[1].battle = STOP  # side 1 cannot move: seat 3's 25 is unplayable
    push_ok(game, play(0))
    assert rules.phase(game) is Phase.EMPTY_HAND and game.to_move == 1
    push_ok(game, PASS)
    push_ok(game, play(slot_of(game, 2, P25)))
    assert game.to_move == 3 and rules.legal_moves(game) == [Move(MoveType.DISCARD, 0)]
    push_ok(game, Move(MoveType.DISCARD, 0))
    assert not game.finished
    push_ok(game, play(slot_of(game, 0, P25)))
    assert game.finished
    result = scoring.hand_result(game)
    assert result.mileage == (75, 0) and result.hand_totals == (75, 0)


# --------------------------------------------------------------------------
# R13-R15: scoring per side, the game's end


def _complete_700(seats: int, others: Sequence[int], the_table: Table | None = None) -> Game:
    game = at_table(seats, {0: [P100, *WAITING]}, to_move=0, rolling=(0,), the_table=the_table)
    game.players[0].mileage = 600
    for side, miles in enumerate(others, start=1):
        game.players[side].mileage = miles
    rules.push(game, play(0))
    return game


@pytest.mark.parametrize(("others", "shut_out"), [((0, 0), True), ((0, 25), False), ((25, 0), False)])
def test_a_shut_out_needs_every_other_side_at_nothing(others: tuple[int, int], shut_out: bool) -> None:
    game = _complete_700(3, others)
    push_ok(game, rules.NO_EXTENSION)
    assert game.finished
    bonuses = scoring.hand_result(game).bonuses
    assert bonuses[0].trip and bonuses[0].shut_out is shut_out
    assert bonuses[1] == bonuses[2] == scoring.NO_BONUSES


@pytest.mark.parametrize("parker", [False, True])
def test_a_failed_extension(parker: bool) -> None:
    """R15: by default nobody gets the 200; with Parker's bonus each other side does."""
    game = _complete_700(3, (100, 0), table(3, parker=parker))
    push_ok(game, rules.EXTEND)
    assert game.trip_length == EXTENDED_TRIP
    game.finished = True  # the deck ran out before anyone reached 1000
    rows = [b.extension for b in scoring.hand_result(game).bonuses]
    assert rows == ([False, True, True] if parker else [False, False, False])


def test_the_game_end_at_three_sides_and_a_tie_for_the_most() -> None:
    game = Game(table=table(3))
    for side, total in enumerate((5100, 5100, 5000)):
        game.players[side].total = total
    assert rules.game_over(game)
    result = scoring.hand_result(game)
    assert result.game_over and result.game_winner is None
    rules.settle_game(game)
    assert [p.games for p in game.players] == [0, 0, 0] and [p.total for p in game.players] == [0, 0, 0]
    for side, total in enumerate((4900, 5050, 5200)):
        game.players[side].total = total
    assert scoring.hand_result(game).game_winner == 2
    rules.settle_game(game)
    assert [p.games for p in game.players] == [0, 0, 1]


# --------------------------------------------------------------------------
# R6: what a seat sees


def test_a_partners_hand_is_hidden() -> None:
    game = Game(table=table(4), rng=GlibcRandom(3))
    rules.start_hand(game)
    obs = observe(game, 2)
    assert obs.hand == game.players[2].hand
    assert all(obs.players[k].hand == [EMPTY] * cards.HAND_SIZE for k in (0, 1, 3))
    assert obs.hand_sizes == (6, 6, 6, 6) and obs.side == 0
    assert obs.players[2].mileage == obs.players[0].mileage  # seat 2 plays on side 0's tableau


# --------------------------------------------------------------------------
# The players at any table


@pytest.mark.parametrize(("miles", "target"), [((300, 500), 2), ((500, 300), 1), ((400, 400), 1)])
def test_bsd_attacks_the_side_closest_to_finishing(miles: tuple[int, int], target: int) -> None:
    game = at_table(3, {0: [OOG, *WAITING]}, to_move=0, rolling=(1, 2))
    game.players[0].battle = STOP
    for side, m in zip((1, 2), miles, strict=True):
        game.players[side].mileage = m
    decision = BsdPlayer().decide(observe(game, 0), GlibcRandom(1))
    assert decision.move == Move(MoveType.PLAY, 0, target)


def _check_step(game: Game) -> None:
    """Every card somewhere exactly once that can be counted, and the scores add up (per side)."""
    t = game.table
    assert sorted(game.deck) == sorted(t.deck)
    held = [0] * cards.NUM_TABLE
    for p in game.players:
        for c in p.hand:
            if c != EMPTY:
                held[c] += 1
    for c in game.deck[: game.deck_count]:
        held[c] += 1
    assert all(held[c] <= t.copies[c] for c in range(cards.NUM_CODES))
    for side in range(t.sides):
        assert game.players[side].hand_total == scoring.recompute_hand_total(game, side)
        assert game.players[side].nummiles[4] <= 2


class _Checker:
    moves = 0

    def before_move(self, game: Game) -> None:
        _check_step(game)

    def after_move(self, game: Game, seat: int, move: Move, outcome: object) -> None:
        self.moves += 1
        _check_step(game)


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
@pytest.mark.parametrize("name", ["bsd", "first", "random"])
def test_whole_hands_at_every_table(seats: int, name: str) -> None:
    for seed in range(4):
        game = Game(table=table(seats), rng=GlibcRandom(seed))
        players = [make_player(name) for _ in range(seats)]
        dice = [GlibcRandom(seed * 7 + k) for k in range(seats)]
        checker = _Checker()
        rules.start_hand(game)
        result = play_hand(game, players, dice, observer=checker).result
        assert game.finished and checker.moves > 0
        assert len(result.hand_totals) == game.table.sides
        if not any(result.trip_completed):  # R12: the deck ran out and nobody could play any more
            assert game.deck_count == 0 and not rules.can_anyone_play(game)


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_whole_games_through_sim(seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    sim = Simulator(11, players=[make_player("bsd") for _ in range(seats)])
    summary = sim.run(40)
    assert summary.games >= 1 and sum(summary.games_won) <= summary.games
    assert sum(summary.points) > 0 and len(summary.points) == table(seats).sides
    assert main(["--players", str(seats), "--hands", "3", "--seat", "random", "--seat", "first"]) == 0
    out = capsys.readouterr().out
    assert f"{seats} seats: random (side A), first (side B)" in out and "side B" in out


def test_sim_refuses_a_table_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--players", "5"])
    assert "invalid choice" in capsys.readouterr().err


class _Decliner:
    """Plays the first legal move but lets every coup fourré asked out of turn pass; hears every event."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.heard: list[tuple[int, MoveType]] = []
        self.declined = 0

    def choose(self, observation: object, rng: GlibcRandom) -> Move:
        legal = observation.legal_moves()  # type: ignore[attr-defined]
        if PASS in legal and len(legal) > 1:  # asked out of turn (R10): declined
            self.declined += 1
            return PASS
        return legal[0]

    def inform(self, event: object) -> None:
        self.heard.append((event.seat, event.kind))  # type: ignore[attr-defined]


@pytest.mark.parametrize("seats", [4, 6])
def test_a_declined_coup_is_told_to_nobody_else(seats: int) -> None:
    """Being asked out of turn says the seat holds the safety (R10): its pass is its own, not the table's."""
    declined = 0
    for seed in range(40):
        game = Game(table=table(seats), rng=GlibcRandom(seed))
        players = [_Decliner(seat) for seat in range(seats)]
        rules.start_hand(game)
        play_hand(game, players, [GlibcRandom(seed * 7 + k) for k in range(seats)])
        for player in players:
            own = [k for s, k in player.heard if s == player.seat and k is MoveType.PASS]
            assert len(own) >= player.declined  # its own pass it hears
            empty = len(own) - player.declined  # its passes with an empty hand at the deck's end (R12)
            for other in players:
                if other is not player:  # the others hear those, never its declines
                    assert sum(1 for s, k in other.heard if s == player.seat and k is MoveType.PASS) == empty
        declined += sum(p.declined for p in players)
        if declined >= 3:
            break
    assert declined >= 3  # the test saw declines to hide


@pytest.mark.parametrize("seats", [4, 6])
def test_a_coup_asked_out_of_turn_is_seen_by_the_asked_seat_alone(seats: int) -> None:
    """Every other seat's view (and board) shows the turn going on: the asking alone would tell the safety held."""
    from mille.ui.tableboard import table_lines

    game = at_table(seats, {1: [OOG, *WAITING], 0: waiting(TANK)}, to_move=1, rolling=tuple(range(seats)))
    push_ok(game, Move(MoveType.PLAY, 0, 0 if seats == 6 else None))
    assert rules.phase(game) is Phase.REACTION and game.to_move == 0
    resume = game.reaction
    assert resume == 2
    mine = observe(game, 0)
    assert mine.phase is Phase.REACTION and mine.to_move == 0 and mine.legal_moves() == [PLAYS[1], PASS]
    assert "(coup fourre?)" in table_lines(game, 0)[-1]  # the turn line
    for seat in range(1, seats):
        seen = observe(game, seat)
        assert seen.phase is Phase.MOVE and seen.to_move == resume
        assert rules.seen_turn(game, seat) == resume
        assert "(coup fourre?)" not in table_lines(game, seat)[-1]
        world = seen.public_game()
        assert world.reaction is None and world.to_move == resume
