"""The headless simulator, and the engine end to end against the real program.

The second half replays transcripts of the real BSD mille
(``tests/golden_engine/``, see ``record.py`` there) through the engine alone
-- no curses, no screen code: the human's keys go to a headless game loop,
the computer decides with :func:`mille.computer.decide` -- and checks every
screen's cards and numbers: the human's hand, the deck count, the discard,
both battle and speed piles, the safeties and coups, the miles played,
every score-window number and the end-of-hand bonuses.
"""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

import pytest

from helpers import SRC, TESTS
from helpers.engine import EMPTY, C, Game, KeyDriver, SafetyStatus, rules
from mille.engine.observation import Observation, observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, MoveType
from mille.lab import sim
from mille.lab.sim import Simulator, Step
from mille.players import BUILTIN
from mille.players.bsd import BsdPlayer

GOLDEN = os.path.join(TESTS, "golden_engine")

# --------------------------------------------------------------------------
# The simulator


def test_same_seed_same_json_except_timing() -> None:
    a = sim.simulate(40, 11).as_dict()
    b = sim.simulate(40, 11).as_dict()
    for key in sim.TIMING_FIELDS:
        a.pop(key)
        b.pop(key)
    assert a == b
    c = sim.simulate(40, 12).as_dict()
    assert {k: v for k, v in c.items() if k not in sim.TIMING_FIELDS} != a


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim.main(["--hands", "12", "--seed", "3", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    data = json.loads(out)
    for key in ("hands", "games", "points", "games_won", "seconds", "hands_per_second"):
        assert key in data
    assert data["hands"] == 12
    assert set(data["points"]) == {"human", "computer"}
    assert set(data["games_won"]) == {"human", "computer"}
    assert data["seed"] == 3


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim.main(["--hands", "3", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 hands, seed 3" in out
    assert "hands/s" in out


def test_json_runs_identical_from_the_command_line() -> None:
    import subprocess
    import sys

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH", "")) if p)
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-m", "mille.sim", "--hands", "25", "--seed", "9", "--json"],
                check=True,
                capture_output=True,
                text=True,
                env=env,
            ).stdout
        )
        for _ in range(2)
    ]
    for run in runs:
        for key in sim.TIMING_FIELDS:
            run.pop(key)
    assert runs[0] == runs[1]


def test_games_run_on_across_hands() -> None:
    s = Simulator(21)
    starters = []
    games_seen = 0
    for _ in range(40):
        before = (s.game.players[0].total, s.game.players[1].total)
        result = s.play_hand().result
        starters.append(result.starter)
        game = s.game
        if result.game_over:
            games_seen += 1
            # Settled at once: totals back to 0.
            assert (game.players[0].total, game.players[1].total) == (0, 0)
            final = (before[0] + result.hand_totals[0], before[1] + result.hand_totals[1])
            assert max(final) >= 5000
            if final[0] != final[1]:
                assert result.game_winner == (0 if final[0] > final[1] else 1)
        else:
            assert game.players[0].total == before[0] + result.hand_totals[0]
            assert max(game.players[0].total, game.players[1].total) < 5000
    # Starters alternate across hands and games.
    assert starters == [0, 1] * 20
    assert games_seen == s.summary.games >= 3
    assert sum(s.summary.games_won) <= s.summary.games
    assert s.summary.games_won == [s.game.players[0].games, s.game.players[1].games]


def test_summary_adds_up() -> None:
    s = Simulator(8)
    played = [s.play_hand() for _ in range(30)]
    results = [p.result for p in played]
    summary = s.summary
    assert summary.hands == 30
    assert summary.points == [sum(r.hand_totals[0] for r in results), sum(r.hand_totals[1] for r in results)]
    assert summary.moves == sum(p.moves for p in played)
    assert sum(summary.hands_won) == sum(r.hand_totals[0] != r.hand_totals[1] for r in results)
    assert summary.trips == [
        sum(r.mileage[0] == r.trip_length for r in results),
        sum(r.mileage[1] == r.trip_length for r in results),
    ]


@pytest.mark.parametrize("seed", [1, 6, 23])
def test_the_fast_loop_plays_the_same_games_as_the_protocol(seed: int) -> None:
    """Two BSD seats: play_out gives, hand for hand, what observations and push give."""
    fast = Simulator(seed)
    slow = Simulator(seed)
    slow.fast = False
    for _ in range(60):  # a dozen games or so, extensions included
        assert fast.play_hand() == slow.play_hand()
        assert _state(fast.game) == _state(slow.game)
        assert fast.game.rng == slow.game.rng and fast.dice[0] == slow.dice[0]
        assert [p.num_need for p in fast.players] == [p.num_need for p in slow.players]  # type: ignore[attr-defined]
    for key in sim.TIMING_FIELDS:
        assert key in fast.summary.as_dict()
    a = {k: v for k, v in fast.summary.as_dict().items() if k not in sim.TIMING_FIELDS}
    b = {k: v for k, v in slow.summary.as_dict().items() if k not in sim.TIMING_FIELDS}
    assert a == b and a["extensions"] > 0


def test_a_subclass_of_the_bsd_player_is_asked() -> None:
    class Counting(BsdPlayer):
        asked = 0

        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            Counting.asked += 1
            return super().choose(observation, rng)

    Simulator(1, players=(Counting(), BsdPlayer())).play_hand()
    assert Counting.asked > 10  # a subclass may change the play: not the fast loop


def _state(game: Game) -> tuple[Any, ...]:
    return (
        game.deck[:],
        game.deck_count,
        game.discard,
        [(pp.hand[:], pp.battle, pp.speed, pp.can_go, pp.fresh_hazard, pp.fresh_limit, pp.safety[:], pp.coups[:],
          pp.nummiles[:], pp.mileage, pp.hand_total, pp.total) for pp in game.players],
        game.trip_length,
        game.finished,
        game.to_move,
        game.hand_starter,
        game.memory[0].num_seen[:],
        game.memory[0].num_gos,
        game.memory[1].num_seen[:],
        game.memory[1].num_gos,
    )  # fmt: skip


def _human_to_move(seed: int) -> Simulator:
    """A simulator at a human decision with some history."""
    s = Simulator(seed)
    s.play_hand()
    s.play_hand()
    game = s.game
    rules.start_hand(game)
    while game.to_move != 0 or rules.phase(game) is not rules.Phase.MOVE:
        seat = game.to_move
        if rules.phase(game) is rules.Phase.EMPTY_HAND:
            rules.push(game, rules.PASS)
        else:
            rules.push(game, s.players[seat].choose(observe(game, seat), s.dice[seat]))
    return s


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_bsd_decides_for_either_seat_from_that_seats_memory(seed: int) -> None:
    # The same procedure from the human seat: with the two seats swapped
    # (tableaus and memories), the computer seat sees what the human seat saw
    # and, with the same dice and num_need, decides the same.
    s = _human_to_move(seed)
    game = s.game
    swapped = game.copy()
    swapped.players.reverse()
    swapped.memory.reverse()
    swapped.to_move = 1
    swapped.hand_starter = 1 - game.hand_starter
    a, b = BsdPlayer(), BsdPlayer()
    dice_a, dice_b = GlibcRandom(seed), GlibcRandom(seed)
    before = game.copy()
    assert a.decide(observe(game, 0), dice_a) == b.decide(observe(swapped, 1), dice_b)
    assert a.num_need == b.num_need and dice_a == dice_b
    assert game == before  # deciding changed nothing in the game


def test_a_protocol_player_sits_in_either_seat() -> None:
    # A player written against the protocol alone: it sees an Observation
    # and answers one of its legal moves.
    class Greedy:
        def __init__(self) -> None:
            self.asked = 0
            self.extensions = 0

        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            self.asked += 1
            assert observation.to_move == observation.seat
            assert observation.opponent.hand == [EMPTY] * 7
            moves = observation.legal_moves()
            if observation.phase is rules.Phase.EXTENSION:
                self.extensions += 1
                return rules.NO_EXTENSION
            plays = [m for m in moves if m.kind is MoveType.PLAY]
            return plays[-1] if plays else moves[-1]

    for seats in ((Greedy(), BsdPlayer()), (BsdPlayer(), Greedy())):
        s = Simulator(5, players=seats)  # type: ignore[arg-type]
        s.run(30)
        greedy = next(p for p in seats if isinstance(p, Greedy))
        assert greedy.asked > 300
        assert s.summary.hands == 30


def test_an_illegal_move_is_reported() -> None:
    class Cheat:
        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            return rules.Move(MoveType.PLAY, 3) if observation.phase is rules.Phase.MOVE else rules.EXTEND

    s = Simulator(3, players=(Cheat(), BsdPlayer()))  # type: ignore[arg-type]
    with pytest.raises(sim.SimulationError, match="human"):
        s.run(5)


def test_human_seat_does_not_consume_the_games_generator() -> None:
    # Replaying a simulated hand's human moves through the engine, with the
    # computer deciding as usual, gives the same game: the game's generator
    # saw only the shuffle and the computer's rolls.
    keys: list[str] = []

    def watch(game: Game, step: Step) -> None:
        if step.player != 0:
            return
        move = step.move
        if move.kind is MoveType.DRAW:
            keys.append("p")
        elif move.kind is MoveType.EXTEND or move.kind is MoveType.NO_EXTENSION:
            keys.append("y" if move.kind is MoveType.EXTEND else "n")
        else:
            keys.append(("u" if move.kind is MoveType.PLAY else "d") + str(move.slot) + " ")

    s = Simulator(77, observer=watch)
    for hand in range(8):
        if hand:
            keys.append("y")  # Another hand? / Another game?
        s.play_hand()
    driver = KeyDriver(77)
    for k in keys:
        driver.send(k)
    if driver.state == KeyDriver.ANOTHER_GAME:  # the simulator settles at once
        rules.settle_game(driver.game)
    assert _state(driver.game) == _state(s.game)
    assert driver.game.rng.getstate() == s.game.rng.getstate()
    assert driver.computer.num_need == s.players[1].num_need  # type: ignore[attr-defined]
    assert driver.hands_done == 8


def test_extension_decisions_are_asked_of_both_seats() -> None:
    calls: list[tuple[int, bool]] = []

    def watch(game: Game, step: Step) -> None:
        if step.move.kind is MoveType.EXTEND or step.move.kind is MoveType.NO_EXTENSION:
            calls.append((step.player, step.move.kind is MoveType.EXTEND))

    s = Simulator(2, observer=watch)
    for _ in range(60):
        s.play_hand()
    assert {who for who, _ in calls} == {0, 1}
    assert s.summary.extensions == sum(answer for _, answer in calls)
    assert any(answer for _, answer in calls)


# --------------------------------------------------------------------------
# The engine against the real program's screens

HAND_ROWS = range(6, 13)
MILE_ROWS = range(18, 23)


def _num(text: str) -> int:
    return int(text.strip() or 0)


def read_screen(screen: list[str]) -> dict[str, Any]:
    """The cards and numbers a BSD mille screen shows (layout: reference §8)."""
    full = screen[5][45:59] == "Trip Completed"
    rows = (11, 13, 14) if full else (6, 8, 9)
    shown: dict[str, Any] = {
        "hand": [screen[r][2:20].rstrip() for r in HAND_ROWS],
        "deck": _num(screen[6][22:24]),
        "extension": screen[4][9:18] == "Extension",
    }
    for who, col, left, score_col in (("you", 2, 0, 61), ("comp", 22, 20, 67)):
        shown[who] = {
            "battle": screen[14][col : col + 18].rstrip(),
            "speed": screen[16][col : col + 18].rstrip(),
            "safeties": [screen[s][col : col + 18].rstrip() for s in range(4)],
            "coups": [screen[s][left] == "*" for s in range(4)],
            "miles": [len(screen[r][40 * (who == "comp") : 40 * (who == "comp") + 40].split()) for r in MILE_ROWS],
            "mileage": _num(screen[1][score_col : score_col + 4]),
            "safety_score": _num(screen[2][score_col : score_col + 4]),
            "all4": _num(screen[3][score_col + 1 : score_col + 4]),
            "coup_score": _num(screen[4][score_col : score_col + 4]),
            "hand_total": _num(screen[rows[0]][score_col : score_col + 4]),
            "overall": _num(screen[rows[1]][score_col : score_col + 4]),
            "games": _num(screen[rows[2]][score_col : score_col + 4]),
        }
        if full:
            shown[who]["bonuses"] = [_num(screen[r][score_col + 1 : score_col + 4]) for r in range(5, 10)]
    return shown


def engine_screen(game: Game, *, finished: bool) -> dict[str, Any]:
    """The same, from the engine's state."""
    from mille.engine.scoring import end_of_hand_bonuses

    shown: dict[str, Any] = {
        "hand": [C.name(c) for c in game.players[0].hand],
        "deck": game.deck_count,
        "extension": game.trip_length == 1000,
    }
    for who, pp in (("you", game.players[0]), ("comp", game.players[1])):
        shown[who] = {
            "battle": C.name(pp.battle),
            "speed": C.name(pp.speed),
            "safeties": [C.name(C.SAFETY_BASE + s) if pp.safety[s] == SafetyStatus.PLAYED else "" for s in range(4)],
            "coups": list(pp.coups),
            "miles": list(pp.nummiles),
            "mileage": pp.mileage,
            "safety_score": pp.safety_score,
            "all4": 300 if pp.safety_score == 400 else 0,
            "coup_score": pp.coup_score,
            "hand_total": pp.hand_total,
            "overall": pp.total,
            "games": pp.games,
        }
        if finished:
            b = end_of_hand_bonuses(game, 0 if who == "you" else 1)
            shown[who]["bonuses"] = [
                400 * b.trip,
                300 * b.safe_trip,
                300 * b.delayed_action,
                200 * b.extension,
                500 * b.shut_out,
            ]
    return shown


def load_transcript(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The meta record (with the end record's fields under "end") and the steps."""
    with gzip.open(os.path.join(GOLDEN, name), "rt") as f:
        records = [json.loads(line) for line in f]
    meta = dict(records[0]["meta"])
    meta["end"] = next((r["end"] for r in records if "end" in r), {})
    steps = [r for r in records if "step" in r]
    return meta, steps


TRANSCRIPTS = sorted(f for f in os.listdir(GOLDEN) if f.endswith(".jsonl.gz")) if os.path.isdir(GOLDEN) else []


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_engine_reproduces_the_real_program(name: str) -> None:
    meta, steps = load_transcript(name)
    driver = KeyDriver(int(meta["seed"]))
    compared = {"move": 0, "end": 0, "extension": 0}
    for step in steps:
        driver.send(step["keys"])
        if step.get("exited"):
            break
        assert not driver.emptied, f"step {step['step']}: a hand was played out (reference §12.2)"
        screen = step["screen"]
        prompt = screen[10][20:40]
        where = f"{name} step {step['step']} keys {step['keys']!r}"
        if prompt.startswith(">>:Move:"):
            assert driver.state == KeyDriver.MOVE, where
            assert read_screen(screen) == engine_screen(driver.game, finished=False), where
            if driver.game.discard != EMPTY:  # the old hand's discard may stay on screen (§11.24)
                assert screen[8][22:40].rstrip() == C.name(driver.game.discard), where
            compared["move"] += 1
        elif prompt.startswith(("Another hand?", "Another game?")):
            expected = KeyDriver.ANOTHER_GAME if prompt.startswith("Another game?") else KeyDriver.ANOTHER_HAND
            assert driver.state == expected, where
            assert read_screen(screen) == engine_screen(driver.game, finished=True), where
            compared["end"] += 1
        elif prompt.startswith("Extension?"):
            assert driver.state == KeyDriver.EXTENSION, where
            compared["extension"] += 1
    assert not driver.errors  # neither policy makes illegal moves
    hands = meta["end"]["hands_done"]
    assert hands >= 2 and driver.hands_done == hands
    assert compared["end"] == hands
    assert compared["move"] >= 10 * hands


def test_golden_transcripts_are_present() -> None:
    assert len([t for t in TRANSCRIPTS if t.startswith("first")]) >= 3
    assert len([t for t in TRANSCRIPTS if t.startswith("sim")]) >= 3


def test_appendix_a_vector() -> None:
    # Reference Appendix A: seed 42, these keys, real binary's numbers.
    driver = KeyDriver(42)
    driver.send("pu0 pd0 pu4 pu0 pu0 pu5 pu1 pu0 pu0 pu4 pu6 pu5 pu0 pd0 pd0 pd0 pd0 pu0 pu0 pd0 pd0 pd0 pd0 pu0 n")
    game = driver.game
    assert driver.state == KeyDriver.ANOTHER_HAND and not driver.errors
    assert (game.players[0].mileage, game.players[1].mileage) == (700, 600)
    assert (game.players[0].safety_score, game.players[1].safety_score) == (100, 0)
    assert game.players[0].safety[C.DRIVING_ACE - C.SAFETY_BASE] == SafetyStatus.PLAYED
    assert (game.players[0].hand_total, game.players[1].hand_total) == (1500, 600)
    assert (game.players[0].total, game.players[1].total) == (1500, 600)
    assert game.deck_count == 43
    assert game.discard == C.MILES_75
    driver.send("y")
    assert game.hand_starter == 1
    assert game.discard == C.MILES_25  # the computer drew and discarded a 25
    assert [C.name(c) for c in game.players[0].hand] == ["", "Repairs", "Go", "Out of Gas", "25", "Go", "End of Limit"]
    assert sorted(C.name(c) for c in game.players[1].hand if c != EMPTY) == sorted(
        ["50", "25", "Repairs", "Spare Tire", "Accident", "200"]
    )
    assert game.players[1].hand[0] == EMPTY
    assert game.deck_count == 88


# --------------------------------------------------------------------------
# The command line, as a new user meets it: plug-ins that misbehave, --help, --version

SIM_BOTS = """
class Raises:
    def choose(self, observation, rng):
        raise ValueError("no idea what to do")


class NotAMove:
    def choose(self, observation, rng):
        return "P"
"""


def _run_sim(args: list[str], cwd: str) -> Any:
    import subprocess
    import sys

    env = dict(os.environ)
    env["PYTHONPATH"] = SRC
    return subprocess.run(
        [sys.executable, "-m", "mille.sim", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120
    )


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        ("Raises", "raised ValueError: no idea what to do (at sim_bots.py:"),
        ("NotAMove", "answered 'P', not a Move"),
    ],
)
def test_a_plug_in_that_misbehaves_is_one_line_not_a_traceback(tmp_path: Any, bot: str, expected: str) -> None:
    (tmp_path / "sim_bots.py").write_text(SIM_BOTS)
    res = _run_sim(["--hands", "2", "--human", f"sim_bots:{bot}"], str(tmp_path))
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"mille.sim: seed 1, hand 1: the human seat (sim_bots:{bot}) ")
    assert expected in lines[0]


def test_help_names_the_players_and_version_is_there(tmp_path: Any) -> None:
    help_text = _run_sim(["--help"], str(tmp_path)).stdout
    assert f"Players: {', '.join(BUILTIN)}, or module:attribute" in " ".join(help_text.split())
    assert "bsd" in BUILTIN and "expert" in BUILTIN
    version = _run_sim(["--version"], str(tmp_path))
    assert version.returncode == 0 and version.stdout.startswith("mille.sim (bsd-mille) ")
