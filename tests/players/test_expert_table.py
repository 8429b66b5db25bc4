"""The expert at any table (issue 38): its worlds, its counting, its search from its own seat's view only."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from helpers import plain as P
from helpers.plain import Scripted
from mille.engine import cards, rules
from mille.engine.driver import play_hand
from mille.engine.observation import observe, sample_world
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, MoveType, Phase
from mille.engine.state import Game, Memory, table
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.players.bsd import BsdPlayer
from mille.players.expert import ExpertPlayer, Level
from mille.players.expert.search import candidates, table_play_out
from mille.players.plus import PlusPlayer
from mille.ui import hints
from mille.ui.flow import Setup
from mille.ui.surface import VirtualTerminal
from mille.ui.tableboard import TableBoardFace, table_flow


def table_positions(seats: int, seed: int, every: int = 7) -> list[Game]:
    """Positions along a hand of BSD players at ``seats`` (every ``every``-th move, and every question)."""
    game = Game(rng=GlibcRandom(seed), table=table(seats))
    rules.start_hand(game)
    players = [BsdPlayer() for _ in range(seats)]
    dice = GlibcRandom(seed + 1)
    found: list[Game] = []
    step = 0
    while rules.phase(game) is not Phase.HAND_OVER:
        now = rules.phase(game)
        if step % every == 0 or now is Phase.REACTION or now is Phase.EXTENSION:
            found.append(game.copy())
        seat = game.to_move
        move = rules.PASS if now is Phase.EMPTY_HAND else players[seat].choose(observe(game, seat), dice)
        rules.push(game, move)
        step += 1
    return found


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_world_of_any_table_looks_the_same_to_the_seat(seats: int) -> None:
    checked = 0
    for seed in (5, 17):
        for game in table_positions(seats, seed):
            for seat in range(seats):
                obs = observe(game, seat)
                world = sample_world(obs, GlibcRandom(seed * 131 + checked))
                checked += 1
                assert observe(world, seat) == obs
                # A whole game: the table's deck, the same hidden multiset,
                # every other seat's counting exactly what it sees there.
                assert sorted(world.deck) == sorted(game.table.deck)
                assert Counter(world.hidden_cards(seat)) == Counter(game.hidden_cards(seat))
                for other in range(seats):
                    hidden = Counter(world.hidden_cards(other))
                    seen = world.memory[other].num_seen
                    assert [seen[c] for c in range(cards.NUM_CODES)] == [
                        game.table.copies[c] - hidden[c] for c in range(cards.NUM_CODES)
                    ]
                if obs.to_move == seat:
                    assert rules.legal_moves(world) == obs.legal_moves()
    assert checked > 100


def test_the_partners_hand_is_dealt_from_the_unseen_cards_not_read() -> None:
    game = table_positions(4, 9)[3]
    obs = observe(game, 0)
    partner_hands = {tuple(sample_world(obs, GlibcRandom(s)).players[2].hand) for s in range(1, 30)}
    assert len(partner_hands) > 20  # dealt anew in each world
    # The same observation, whatever the hidden cards really are: the same worlds.
    other = sample_world(obs, GlibcRandom(99))
    assert observe(other, 0) == obs
    for s in (3, 4):
        assert sample_world(observe(other, 0), GlibcRandom(s)) == sample_world(obs, GlibcRandom(s))


def test_num_gos_counts_a_safety_with_the_tables_deck() -> None:
    """A safety drawn at four seats adds its hazard's unseen copies of the 106-card deck (three Out of Gas, not two)."""
    game = Game(rng=GlibcRandom(3), table=table(4))
    rules.start_hand(game)
    seat = game.to_move
    hand = game.players[seat].hand
    top = game.deck_count - 1
    game.deck[top] = cards.EXTRA_TANK
    memory = game.memory[seat]
    before, seen = memory.num_gos, memory.num_seen[cards.OUT_OF_GAS]
    rules.push(game, rules.DRAW)
    assert hand[0] == cards.EXTRA_TANK
    assert memory.num_gos - before == cards.FULL_COPIES[cards.OUT_OF_GAS] - seen == 3 - seen
    # The original's table counts as it always did.
    two = Memory()
    two.count(cards.EXTRA_TANK, True)
    assert two.num_gos == cards.COPIES[cards.OUT_OF_GAS] == 2


@pytest.mark.parametrize("seats", [4, 6])
def test_num_gos_never_runs_below_zero_at_the_106_card_tables(seats: int) -> None:
    for seed in range(1, 15):
        for game in table_positions(seats, seed, every=1):
            assert min(m.num_gos for m in game.memory) >= 0


# --------------------------------------------------------------------------
# The search at the larger tables

#: A small budget with the safety nets lifted: the decision is a function of the observation and the dice alone.
QUICK = Level(budget=3000, batch=4, deadline=600.0)


def decisions(seats: int, seed: int) -> list[tuple[Game, int]]:
    """Positions where a seat has more than one distinct move (after drawing, at Extension?, asked a coup fourré)."""
    found: list[tuple[Game, int]] = []
    for game in table_positions(seats, seed, every=1):
        seat = game.to_move
        now = rules.phase(game)
        if now is Phase.EMPTY_HAND or now is Phase.HAND_OVER:
            continue
        obs = observe(game, seat)
        if now is Phase.MOVE and game.players[seat].hand[0] == cards.EMPTY:
            continue  # before drawing
        if len(obs.legal_moves()) > 1:
            found.append((game, seat))
    return found


def test_the_experts_decisions_at_four_seats_read_only_its_observation() -> None:
    """The other seats' true hands (the partner's too) and the deck, dealt anew consistently: the same move.

    Each world keeps the observation (``observe`` gives the same) and
    changes every hidden card; a fresh expert with the same dice chooses
    the same move in the real game and in each world.  Types do the rest:
    a player is handed an :class:`Observation`, which holds no game.
    """
    positions = decisions(4, 21)[::6][:8]
    assert len(positions) >= 6
    searched = 0
    for k, (game, seat) in enumerate(positions):
        obs = observe(game, seat)
        answers = set()
        for world in [game] + [sample_world(obs, GlibcRandom(1000 * k + s)) for s in (1, 2)]:
            assert observe(world, seat) == obs
            if world is not game:
                assert any(world.players[j].hand != game.players[j].hand for j in range(4) if j != seat)
            expert = ExpertPlayer(settings=QUICK)
            answers.add(expert.choose(observe(world, seat), GlibcRandom(77 + k)))
            searched += expert.searches
        assert len(answers) == 1
    assert searched > 0  # the search ran (not only the policy's choice)


def test_at_three_sides_a_hazard_is_a_candidate_for_each_side_it_may_go_to() -> None:
    game = Game(rng=GlibcRandom(2), table=table(3))
    rules.start_hand(game)
    for side in (1, 2):
        game.players[side].battle = cards.GO
        game.players[side].can_go = True
    hand = game.players[0].hand
    hand[0] = cards.STOP
    obs = observe(game, 0)
    moves = candidates(obs, obs.legal_moves()[0])
    stops = [m for m in moves if m.kind is MoveType.PLAY and m.slot == 0]
    assert sorted(m.target for m in stops if m.target is not None) == [1, 2]
    chosen = ExpertPlayer(settings=QUICK).choose(obs, GlibcRandom(3))
    assert chosen in obs.legal_moves()


def test_the_coup_fourre_out_of_turn_is_searched() -> None:
    """Asked out of turn (R10), the expert weighs the coup fourré against letting it pass, in worlds of its view."""
    asked = []
    for seats in (4, 6):
        for seed in range(1, 60):
            for game in table_positions(seats, seed, every=10_000):
                if rules.phase(game) is Phase.REACTION:
                    asked.append(game)
        if len(asked) >= 3:
            break
    assert asked
    for game in asked[:3]:
        seat = game.to_move
        obs = observe(game, seat)
        expert = ExpertPlayer(settings=QUICK)
        move = expert.choose(obs, GlibcRandom(5))
        assert move in obs.legal_moves() and len(obs.legal_moves()) == 2
        assert expert.searches == 1 and expert.rollouts > 0


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_whole_hands_with_searching_experts_at_every_seat_of_a_side(seats: int) -> None:
    """Legal at every decision (the driver referees), partners both experts, the time limits of its level kept."""
    game = Game(rng=GlibcRandom(seats), table=table(seats))
    rules.start_hand(game)
    sides = game.table.sides
    experts = {k: ExpertPlayer(settings=Level(budget=1500, batch=4)) for k in range(0, seats, sides)}
    players = [experts.get(k) or BsdPlayer() for k in range(seats)]
    played = play_hand(game, players, [GlibcRandom(seats + k) for k in range(seats)])
    assert played.result.hand_totals
    assert sum(e.searches for e in experts.values()) > 0


# --------------------------------------------------------------------------
# Hints at the larger tables


def test_a_hint_on_the_four_seat_board() -> None:
    """``h`` at your move on the four-seat board: the expert's move from your seat alone, on the message line."""
    game = Game(rng=GlibcRandom(8), table=table(4))
    rules.start_hand(game)
    assert game.to_move == 0
    rules.push(game, rules.DRAW)
    term = VirtualTerminal(keys=[ord(c) for c in "hd1\r"])
    adviser = hints.Adviser(lambda: ExpertPlayer(settings=QUICK))
    others = tuple((BsdPlayer(), GlibcRandom(k)) for k in (2, 3))
    flow = table_flow(term, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1), hints=adviser, others=others))
    face = flow.face
    assert isinstance(face, TableBoardFace)
    face.draw()
    assert flow.read_move() == Move(MoveType.DISCARD, 1)
    expected = hints.describe(hints.hint_move(observe(game, 0), ExpertPlayer(settings=QUICK)), observe(game, 0))
    assert expected.startswith("hint: ") and "none" not in expected
    assert adviser.given == 1
    assert any(expected in line for line in term.lines())


def quick_expert() -> ExpertPlayer:
    """The expert with a small budget (``test_expert_table:quick_expert``, for the match below)."""
    return ExpertPlayer(settings=Level(budget=1200, batch=4))


def test_the_experts_partnership_through_the_match_at_four_seats() -> None:
    """``mille.match --players 4``: the expert's partnership against bsd's, searching, without a fault."""
    options = RunOptions(seed=2, game_points=1000, jobs=1)
    report = run_match("test_expert_table:quick_expert", "bsd", seats=4, games=2, options=options)
    assert report["errors"] == []
    assert report["hands"] >= 2


def test_a_hint_names_the_hazards_side_and_answers_the_coup_fourre() -> None:
    game = Game(rng=GlibcRandom(2), table=table(3))
    rules.start_hand(game)
    game.players[0].hand[2] = cards.FLAT_TIRE
    obs = observe(game, 0)
    assert hints.describe(Move(MoveType.PLAY, 2, 2), obs) == "hint: use 2 (Flat Tire) on side C"
    assert hints.describe(Move(MoveType.PLAY, 2), obs) == "hint: use 2 (Flat Tire)"
    asked = next(
        g for seed in range(1, 80) for g in table_positions(4, seed, every=10_000) if rules.phase(g) is Phase.REACTION
    )
    seen = observe(asked, asked.to_move)
    coup, let_pass = seen.legal_moves()
    assert hints.describe(coup, seen).startswith("hint: y (coup fourre, ")
    assert hints.describe(let_pass, seen) == "hint: n (let it pass)"


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_table_rollout_is_the_drivers_game(seats: int) -> None:
    """``table_play_out`` plays the driver's game with the procedure in every seat (the policy on one side)."""
    sides = table(seats).sides
    repaired = [k % sides == 0 for k in range(seats)]
    compared = 0
    for seed in (3, 8, 13):
        for start in table_positions(seats, seed, every=9):
            fast, slow = start.copy(), start.copy()
            needs = [[2 * k + c % 3 for c in range(20)] for k in range(seats)]
            slow_needs = [n[:] for n in needs]
            moves, answers = table_play_out(fast, needs, GlibcRandom(seed), repaired)
            players = [(PlusPlayer if repaired[k] else BsdPlayer)(slow_needs[k]) for k in range(seats)]
            played = play_hand(slow, players, [GlibcRandom(seed)] * seats)
            assert fast == slow and needs == slow_needs
            assert (moves, answers) == (played.moves, played.answers)
            compared += 1
    assert compared > 20


def test_a_hint_at_the_coup_fourre_asked_out_of_turn_in_plain_mode(tmp_path: Path) -> None:
    """``mille --plain --players 4 --hints`` on a pipe: ``h`` at ``Coup fourre?`` (seed 3 asks it), then the answer."""

    class Asking(Scripted):
        def __init__(self) -> None:
            super().__init__()
            self.hint_lines: list[str] = []

        def _answer(self, prompt: str, heard: list[str]) -> str:
            if prompt == "Coup fourre?" and not self.hint_lines:
                if self.last == "h":
                    self.hint_lines = [line for line in heard if line.startswith("hint: ")]
                    return "y"
                return "h"
            return super()._answer(prompt, heard)

    person = Asking()
    run = P.play_process(["--plain", "--players", "4", "--seed", "3", "--hints"], person, cwd=str(tmp_path))
    assert run.status == 0 and "Traceback" not in run.err, run.err
    assert person.hint_lines in (["hint: y (coup fourre, Right of Way)"], ["hint: n (let it pass)"])
