"""The bot protocol (docs/protocol.md): the wire, bots through real pipes, every misbehaviour, the match.

* the JSON forms of observations, moves, events and results read back as
  they were, and a bot's answer is read trusting nothing;
* a bot written from the protocol page alone (``tests/helpers/bots/protocol_bot.py``,
  no mille import) plays a match through a real pipe, the same as the
  in-process player it imitates;
* ``exec:`` the built-in players (``python -m mille.bot``) give the same
  report, pair for pair, as in process: ``bsd`` (its dice rolled by the
  host) and a quick expert (its dice from the seed handed over, read with
  ``getstate``);
* each misbehaviour, for real: the bot sleeps, exits, answers garbage or
  an illegal move, floods its output or its standard error, answers twice,
  leaves a child holding its pipe, never says hello: the game is lost with
  the reason and the log in the report, the bot is killed and started
  again, the match goes on, no zombie is left;
* the bots quit at the end (a process for each game: tests/players/test_fair_table.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers.protocol import BOT_PATH, SAME, SRC, bots_fixture, children, protocol_bot, running, served  # noqa: F401 (the fixture)
from mille.engine import cards, driver
from mille.engine.observation import Observation, observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import DISCARDS, DRAW, EXTEND, NO_EXTENSION, PASS, PLAYS
from mille.engine.scoring import HandResult
from mille.engine.state import Game
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.play import deal_hand
from mille.players import PlayerSpecError, botprocess, external, make_player, wire
from mille.players.bsd import BsdPlayer

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux (/proc, process groups)")


def read(path: str) -> str:
    with open(path) as f:
        return f.read()


def same_report(a: dict, b: dict) -> None:
    a = {k: v for k, v in a.items() if k not in SAME}
    b = {k: v for k, v in b.items() if k not in SAME}
    assert a == b


# --------------------------------------------------------------------------
# The wire


class _Recorder:
    """The BSD player, noting every observation it is shown, every event and every result."""

    def __init__(self, seen: list) -> None:
        self.player = BsdPlayer()
        self.seen = seen

    def choose(self, observation: Observation, rng: GlibcRandom):
        self.seen.append(observation)
        return self.player.choose(observation, rng)

    def inform(self, event: driver.Event) -> None:
        self.seen.append(event)

    def hand_over(self, result: HandResult) -> None:
        self.seen.append(result)


def test_what_crosses_the_wire_reads_back_as_it_was() -> None:
    seen: list = []
    game = Game()
    dice = [GlibcRandom(1), GlibcRandom(2)]
    for hand in range(6):
        deal_hand(game, 100 + hand, hand % 2)
        driver.play_hand(game, [_Recorder(seen), _Recorder(seen)], dice)
    kinds = {type(x) for x in seen}
    assert kinds == {Observation, driver.Event, HandResult}
    for thing in seen:
        if isinstance(thing, Observation):
            line = wire.encode({"type": "decide", "observation": wire.observation_json(thing)})
            back = wire.observation_from_json(wire.read_message(line)["observation"])
            assert back == thing and back.legal_moves() == thing.legal_moves()
        elif isinstance(thing, driver.Event):
            assert wire.event_from_json(wire.read_message(wire.event_line(thing))) == thing
        else:
            line = wire.encode({"type": "hand_over", "result": wire.result_json(thing)})
            assert wire.result_from_json(wire.read_message(line)["result"]) == thing


def test_an_observation_is_what_the_seat_may_see() -> None:
    """The other hand is not on the wire: seven empty cards, whatever it holds."""
    game = Game(rng=GlibcRandom(7))
    deal_hand(game, 7, 0)
    data = wire.observation_json(observe(game, 1))
    assert data["players"][0]["hand"] == [cards.EMPTY] * 7
    assert data["players"][1]["hand"] == game.players[1].hand
    assert "deck" not in json.dumps(data).replace("deck_count", "")


def test_every_move_reads_back() -> None:
    for move in [DRAW, EXTEND, NO_EXTENSION, PASS, *PLAYS, *DISCARDS]:
        assert wire.move_from_json(json.loads(json.dumps(wire.move_json(move)))) is move


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "draw",
        {},
        {"kind": "jump"},
        {"kind": "play"},
        {"kind": "play", "slot": 7},
        {"kind": "discard", "slot": -1},
        {"kind": "discard", "slot": True},
        {"kind": "discard", "slot": 1.0},
        {"kind": "draw", "slot": 0},
        {"kind": ["draw"]},
    ],
)
def test_a_move_that_is_none_is_refused(data: object) -> None:
    with pytest.raises(wire.WireError):
        wire.move_from_json(data)


@pytest.mark.parametrize("line", [b"", b"hello", b"[1, 2]", b'{"move": 1}', b'{"type": 3}', b"\xff\xfe", b"[" * 100000])
def test_a_line_that_is_no_message_is_refused(line: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.read_message(line)


def test_the_greeting_names_the_cards_by_code() -> None:
    greeting = wire.greeting()
    assert greeting["protocol"] == wire.PROTOCOL and greeting["cards"][cards.RIGHT_OF_WAY] == "Right of Way"


def test_an_excerpt_of_a_bot_is_safe_to_print() -> None:
    text = wire.excerpt(b"\x1b[2J\x07" + b"x" * 100)
    assert text.isprintable() and "\x1b" not in text and text.endswith("...")


# --------------------------------------------------------------------------
# Bots through real pipes


def test_a_bot_written_from_the_protocol_plays_a_match() -> None:
    """The test bot plays the first legal move: exactly the in-process ``first``."""
    exec_report = run_match(protocol_bot(), "bsd", games=4, options=RunOptions(jobs=1, game_points=2000))
    same_report(exec_report, run_match("first", "bsd", games=4, options=RunOptions(jobs=1, game_points=2000)))
    assert exec_report["errors"] == []


def test_the_bot_may_ask_the_host_to_roll(bots: str) -> None:
    report = run_match(protocol_bot("roll"), "bsd", games=2, options=RunOptions(jobs=1, game_points=1000))
    assert report["errors"] == []
    said = [read(os.path.join(bots, log)) for log in os.listdir(bots)]
    assert sum("rolls 1\n" in text for text in said) == 2  # a process for each game, each saying what it rolled


def test_exec_bsd_is_bsd() -> None:
    """The original's procedure over the pipe, its dice rolled by the host: the same match, pair for pair.

    With ``--bot-reads-deck`` (``bots_read_deck``): the bot's dice are then the in-process player's.
    """
    exec_report = run_match(served("bsd"), "bsd", games=6, options=RunOptions(jobs=1, seed=3, bots_read_deck=True))
    same_report(exec_report, run_match("bsd", "bsd", games=6, options=RunOptions(jobs=1, seed=3)))
    assert exec_report["errors"] == [] and exec_report["hands"] > 20


def test_exec_expert_is_the_expert() -> None:
    """A searching player handed its seed (allowed the in-process dice) reads them (``getstate``): the same report."""
    expert = "helpers.protocol:quick_expert"
    exec_report = run_match(
        served(expert), "bsd", games=2, options=RunOptions(jobs=1, seed=5, game_points=2000, bots_read_deck=True)
    )
    same_report(exec_report, run_match(expert, "bsd", games=2, options=RunOptions(jobs=1, seed=5, game_points=2000)))
    assert exec_report["errors"] == []


@pytest.mark.slow
def test_exec_expert_is_the_expert_at_its_full_strength() -> None:
    """The measured expert's budget (its safety-net deadline lifted, for a loaded machine): one pair, the same."""
    expert = "helpers.protocol:full_expert"
    exec_report = run_match(
        served(expert), "bsd", games=2, options=RunOptions(jobs=1, seed=1, game_points=2000, bots_read_deck=True)
    )
    same_report(exec_report, run_match(expert, "bsd", games=2, options=RunOptions(jobs=1, seed=1, game_points=2000)))
    assert exec_report["errors"] == []


def test_the_bots_of_a_pool_of_workers_quit_with_them(tmp_path, bots: str) -> None:
    """``--jobs 2``: the workers' bots leave when the workers do; nothing is left running."""
    once = tmp_path / "once"
    report = run_match(
        protocol_bot("exit", "--once", str(once)), "bsd", games=6, options=RunOptions(jobs=2, game_points=1000)
    )
    assert len(report["errors"]) == 1
    logs = [os.path.join(bots, name) for name in os.listdir(bots)]
    assert len(logs) >= 2
    # Each log is named for the process that started the bot; those workers are gone, and their bots with them.
    listing = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        assert "protocol_bot.py exit --once " + str(once) not in line, line


# --------------------------------------------------------------------------
# Misbehaviour


MISBEHAVIOUR = [
    ("exit", None, "exception", "exited with status 3 before its move", "protocol_bot: giving up"),
    ("garbage", None, "illegal", 'answered garbage: not a JSON line: "I play the Go card!"', None),
    ("illegal", None, "illegal", "which is not a legal move (legal: DP ", None),  # asked after its draw (forced)
    ("flood", None, "illegal", "wrote a line longer than 1048576 bytes", None),
    ("twice", None, "illegal", "after its move", None),
    ("fork", None, "exception", "exited with status 0 before its move", None),
    ("sleep", 300.0, "timeout", "did not answer within 300 ms", None),
]


@pytest.mark.parametrize(("mode", "limit", "kind", "why", "last"), MISBEHAVIOUR, ids=[m[0] for m in MISBEHAVIOUR])
def test_a_bot_that_misbehaves_loses_the_game_and_the_match_goes_on(
    tmp_path, bots: str, mode: str, limit: float | None, kind: str, why: str, last: str | None
) -> None:
    once = tmp_path / "once"
    spec = protocol_bot(mode, "--once", str(once))
    before = {pid for pid, _ in children()}
    report = run_match(spec, "bsd", games=4, options=RunOptions(jobs=1, max_think_ms=limit, game_points=1000))
    (error,) = report["errors"]
    assert (error["game"], error["hand"], error["player"], error["kind"]) == (1, 1, "a", kind)
    assert why in error["message"], error["message"]
    logs = sorted(os.listdir(bots))  # the failed bot's is kept; a bot that left without a word leaves none
    assert sum(os.path.join(bots, log) in error["message"] for log in logs) == 1, (logs, error["message"])
    if last is not None:
        assert f"its last words: {json.dumps(last)}" in error["message"]
    assert error["message"].isprintable()
    assert [p["hands"] > 0 for p in report["by_pair"]] == [True, True], "the other games were played"
    assert not [c for c in children() if c[1] == "Z" and c[0] not in before], "a zombie"
    if mode == "fork":
        child = int(read(f"{once}.child"))
        assert not running(child), "the child holding the pipe was killed with its group"


def test_a_bot_that_never_answers_is_stopped_without_a_limit(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --max-think-ms: the generous default (here shortened) still ends the wait."""
    monkeypatch.setattr(external, "DEFAULT_DEADLINE", 0.5)
    report = run_match(
        protocol_bot("sleep", "--once", str(tmp_path / "once")), "bsd", games=2, options=RunOptions(jobs=1)
    )
    (error,) = report["errors"]
    assert error["kind"] == "timeout" and "did not answer within 500 ms" in error["message"]


def test_a_bot_that_floods_its_standard_error_is_cut_short(tmp_path, bots: str, monkeypatch) -> None:
    """8 MiB of standard error: the log keeps its last part (where a failure's cause is), under a line saying so."""
    monkeypatch.setattr(botprocess, "MAX_LOG", 1 << 16)
    report = run_match(
        protocol_bot("stderr", "--once", str(tmp_path / "once")), "bsd", games=2, options=RunOptions(jobs=1)
    )
    assert report["errors"] == []
    botprocess.shutdown()
    (text,) = [t for t in (read(os.path.join(bots, log)) for log in os.listdir(bots)) if t]  # the flood's
    first, rest = text.split("\n", 1)
    assert len(text) <= (1 << 16) + 200 and rest.endswith("e" * 1023 + "\n")
    dropped = int(first.removeprefix("[mille: the first ").split()[0])
    assert first.endswith(" bytes of this bot's standard error were dropped]") and dropped + len(rest) == 8 << 20


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        (protocol_bot("badhello"), 'not a JSON line: "good day to you"'),
        ("exec:/nonexistent/bot --level 3", "cannot run '/nonexistent/bot': No such file or directory"),
        ("exec:./bot 'unclosed", "No closing quotation"),
        ("exec:   ", "names no program"),
        (served("nosuch"), "exited with status 2 before saying hello"),
        (f"exec:{sys.executable} -c pass", "exited with status 0 before saying hello"),
    ],
)
def test_a_bot_that_cannot_start_is_one_line(spec: str, why: str) -> None:
    with pytest.raises(PlayerSpecError) as caught:
        make_player(spec)
    assert why in str(caught.value) and "\n" not in str(caught.value)


def test_a_bot_that_never_says_hello(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(botprocess, "HANDSHAKE_DEADLINE", 0.5)
    with pytest.raises(PlayerSpecError, match=r"did not say hello within 0\.5 s"):
        make_player(protocol_bot("nohello"))


def test_the_match_command_says_what_went_wrong(tmp_path) -> None:
    """The report names the forfeit, its reason and the log; a bot that cannot start is one line, status 2."""
    logs = tmp_path / "logs"
    env = {**os.environ, "PYTHONPATH": BOT_PATH}
    argv = [sys.executable, "-m", "mille.match", "--games", "2", "--jobs", "1", "--bot-logs", str(logs)]
    once = str(tmp_path / "once")
    done = subprocess.run(
        [*argv, protocol_bot("garbage", "--once", once), "bsd"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "A (exec:" in done.stdout and "illegal: answered garbage" in done.stdout and str(logs) in done.stdout
    done = subprocess.run([*argv, "exec:/nonexistent/bot", "bsd"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.splitlines()[-1].endswith("No such file or directory"), done.stderr
    assert SRC  # the command ran this tree (PYTHONPATH)


# --------------------------------------------------------------------------
# The page's own bots

DOCS = os.path.join(os.path.dirname(SRC), "docs")


def test_the_python_bot_on_the_protocol_page_plays(tmp_path) -> None:
    """The few lines of Python in docs/protocol.md, as they are: the first legal move, like ``first``."""
    with open(os.path.join(DOCS, "protocol.md")) as f:
        page = f.read()
    code = page.split("## A bot in a few lines", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    bot = tmp_path / "page_bot.py"
    bot.write_text(code)
    report = run_match(f"exec:{sys.executable} {bot}", "bsd", games=2, options=RunOptions(jobs=1, game_points=1000))
    same_report(report, run_match("first", "bsd", games=2, options=RunOptions(jobs=1, game_points=1000)))
    assert report["errors"] == []


def test_the_javascript_bot_plays() -> None:
    """docs/examples/first_bot.js under node (skipped without it)."""
    import shutil

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node to run docs/examples/first_bot.js")
    bot = os.path.join(DOCS, "examples", "first_bot.js")
    report = run_match(f"exec:{node} {bot}", "bsd", games=2, options=RunOptions(jobs=1, game_points=1000))
    same_report(report, run_match("first", "bsd", games=2, options=RunOptions(jobs=1, game_points=1000)))
    assert report["errors"] == []


def test_a_plug_in_named_by_its_file_says_how_to_name_it(tmp_path) -> None:
    path = tmp_path / "mybot.py"
    path.write_text("class MyBot:\n    def choose(self, obs, rng):\n        return obs.legal_moves()[0]\n")
    with pytest.raises(PlayerSpecError) as caught:
        make_player(f"{path}:MyBot")
    text = str(caught.value)
    assert "name it mybot:MyBot" in text and str(tmp_path) in text and "exec:python -m mille.bot mybot:MyBot" in text
