"""The bot protocol's speed (docs/protocol-speed.md), and what it must not change.

* a forced move (one legal move) is not asked of a bot unless its hello
  says ``"every_decision": true``; a bot of the first protocol 1, written
  from the page alone (``tests/helpers/bots/tiny_bot.py``), still plays, and plays the
  games of the in-process player it imitates;
* the compact encoding reads back as the observation and the legal moves
  it was made from, and is a valid JSON line; a ``move`` as mille's own
  bots write it is known whole;
* a hello with a bad opt-in is refused in one line; a bot that cannot
  start is one line on the command line, without the usage block;
* the hello's name is in the reports, escaped and cut.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import BOTS
from helpers.protocol import BOT_PATH, SAME, SRC, TESTS, bots_fixture, children, positions  # noqa: F401 (the fixture)
from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rules import DISCARDS, DRAW, EXTEND, NO_EXTENSION, PLAYS
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.report import NAME_WIDTH, format_report
from mille.lab.standings import format_report as format_standings
from mille.lab.tournament import run_tournament
from mille.players import PlayerSpecError, botprocess, make_player, wire

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux (/proc, process groups)")

TINY = os.path.join(BOTS, "tiny_bot.py")


def tiny(name: str, counts: object, *more: str) -> str:
    return " ".join([f"exec:{sys.executable}", TINY, name, str(counts), *more])


def counted(path: object) -> list[list[int]]:
    with open(str(path)) as f:
        return [[int(x) for x in line.split()] for line in f]


def without(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in SAME}


# --------------------------------------------------------------------------
# Forced moves


def test_a_forced_move_is_not_asked_and_the_games_are_the_same(tmp_path) -> None:
    """The tiny bot (first legal move) against bsd: the games of ``first``; asked only real choices, told every move."""
    counts = tmp_path / "counts"
    report = run_match(tiny("tiny", counts), "bsd", games=4, options=RunOptions(jobs=1, game_points=1000))
    botprocess.shutdown()  # quit: the bot writes its counts
    assert report["errors"] == []
    assert without(report) == without(run_match("first", "bsd", games=4, options=RunOptions(jobs=1, game_points=1000)))
    games = counted(counts)
    assert len(games) == 4
    for decides, own_moves, forced in games:
        assert forced == 0, "a question with one legal move"
        assert 0 < decides < own_moves, "every move of its seat is told as an event, the forced ones not asked"


def test_a_bot_that_asks_for_every_decision_is_asked_every_one(tmp_path) -> None:
    counts = tmp_path / "counts"
    report = run_match(tiny("tiny", counts, "--every"), "bsd", games=2, options=RunOptions(jobs=1, game_points=1000))
    botprocess.shutdown()
    assert report["errors"] == []
    games = counted(counts)
    assert len(games) == 2
    for decides, own_moves, forced in games:
        assert decides == own_moves and forced > 0


# --------------------------------------------------------------------------
# The compact encoding


def test_the_compact_decide_reads_back_as_the_observation_and_its_legal_moves() -> None:
    seen_phases = set()
    for game in positions():
        for seat in (0, 1):
            obs = observe(game, seat)
            legal = obs.legal_moves()
            line = wire.compact_decide_line(obs, legal)
            assert line.endswith(b"\n") and line.count(b"\n") == 1
            message = json.loads(line)  # a valid JSON line
            assert message["type"] == "decide" and len(message["obs"]) == wire.COMPACT_SIZE
            assert wire.observation_from_compact(message["obs"]) == obs
            values = wire.compact_values(line)
            assert values == message["obs"]
            assert wire.observation_from_ints(values) == obs
            assert wire.moves_from_mask(message["legal"]) == legal
            seen_phases.add(obs.phase)
    assert rules.Phase.EXTENSION in seen_phases or rules.Phase.MOVE in seen_phases


@pytest.mark.parametrize("values", [[0] * 91, [0] * 93, [0.5] * 92, "0" * 92, [2] + [0] * 91, [0, 9] + [0] * 90])
def test_a_compact_observation_that_is_none_is_refused(values: object) -> None:
    with pytest.raises(wire.WireError):
        wire.observation_from_compact(values)


def test_a_move_line_is_known_whole_and_reads_as_json() -> None:
    for move in (DRAW, EXTEND, NO_EXTENSION, *PLAYS, *DISCARDS):
        for considered in (True, False, None):
            line = wire.move_line(move, considered)
            message = json.loads(line)
            assert wire.move_from_json(message["move"]) == move and message.get("considered") == considered
            assert wire.known_answer(line[:-1]) == (move, considered)
    assert wire.known_answer(b'{"type": "move", "move": {"kind": "draw"}}') is None  # read as JSON instead


# --------------------------------------------------------------------------
# Hellos, refusals, names


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ('"every_decision": "yes"', "said every_decision"),
        ('"encoding": "msgpack"', "asked for the encoding"),
    ],
)
def test_a_hello_with_a_bad_opt_in_is_refused_in_one_line(extra: str, why: str) -> None:
    script = (
        "import sys; sys.stdin.readline(); "
        f'print(\'{{"type": "hello", "protocol": 1, "name": "x", {extra}}}\', flush=True); sys.stdin.read()'
    )
    with pytest.raises(PlayerSpecError) as caught:
        make_player(f"exec:{sys.executable} -c {json.dumps(script)}")
    assert why in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("command", ["mille.match", "mille.tournament"])
def test_a_bot_that_cannot_start_is_one_line_on_the_command_line(command: str) -> None:
    env = {**os.environ, "PYTHONPATH": BOT_PATH}
    argv = [sys.executable, "-m", command, "--games", "2", "--jobs", "1", "exec:/nonexistent/bot", "bsd"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("No such file or directory\n"), done.stderr
    assert done.stderr.startswith(f"python -m {command}: error: 'exec:/nonexistent/bot'")
    assert SRC


def test_the_hello_name_tells_two_bots_of_one_command_apart(tmp_path) -> None:
    """Two bots of one program, told apart by their hello names in the match's and the tournament's reports."""
    counts = tmp_path / "counts"
    odd = "odd\x1b]0;title\x07" + "x" * 60
    report = run_match(tiny("alpha", counts), tiny(odd, counts), games=2, options=RunOptions(jobs=1, game_points=500))
    assert report["bot_names"]["a"] == "alpha"
    text = format_report(report)
    header = text.splitlines()[0]
    assert "(alpha)" in header and "\x1b" not in text and "\x07" not in text
    said = header.rsplit(" (", 1)[1]
    assert said.startswith('"odd\\u001b') and said.endswith("~)") and len(said) == NAME_WIDTH + 1, "escaped and cut"
    standings = run_tournament(
        [tiny("alpha", counts), tiny("beta", counts), "bsd"], games=2, options=RunOptions(jobs=1, game_points=500)
    )
    lines = format_standings(standings).splitlines()
    assert any(line.startswith("  bot exec:") and line.endswith("(alpha)") for line in lines)
    assert any(line.endswith("(beta)") for line in lines)
    assert "bot_names" not in run_match("bsd", "first", games=2, options=RunOptions(jobs=1, game_points=500))


def test_the_forced_draw_shortcut_agrees_with_the_rules() -> None:
    """Where the host's shortcut says the draw is the only move, ``legal_moves`` says so too (and it often says so)."""
    from mille.players.external import _draws_by_force

    said = 0
    for game in positions(seed=11, hands=6):
        for seat in (0, 1):
            obs = observe(game, seat)
            if _draws_by_force(obs):
                said += 1
                assert obs.legal_moves() == [DRAW]
    assert said > 50


def test_a_compact_line_with_anything_but_integers_is_not_taken_for_one() -> None:
    assert wire.compact_values(b'{"type":"decide","obs":[1,2.5,3],"legal":1}\n') is None
    assert wire.compact_values(b'{"type":"decide","obs":[1,"x",3],"legal":1}\n') is None
    assert wire.compact_values(b'{"type":"decide","obs":[1,--2],"legal":1}\n') is None
    assert wire.compact_values(b'{"type":"decide","obs":[1,-2,3],"legal":1}\n') == [1, -2, 3]
