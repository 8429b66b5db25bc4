"""Games in flight (issue 39; docs/protocol-speed.md, "Games in flight"): several games at once on one bot process.

* a match in one process whose bots offer ``games`` plays its pairs with
  several games in flight, and every pair's records are those of the
  in-process players on the same seeds;
* the bot's side answers each game by its tag, with a player and dice of
  the game's own;
* a bot process that misses its deadline in one game is killed: that game
  is lost for ``timeout``, the others it had in flight say why in one line,
  the rest of the match is played;
* SIGTERM stops such a match and leaves no bot behind;
* a hello with a bad ``games`` is refused in one line.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from helpers.procs import processes
from helpers.protocol import BOT_PATH, children, running, served
from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.lab import play
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.play import play_in_flight, play_pairs
from mille.lab.records import MatchConfig
from mille.players import PlayerSpecError, botprocess, make_player, wire
from mille.players.bsd import BsdPlayer
from mille.players.serve import serve

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux (/proc, process groups)")


@pytest.fixture(autouse=True)
def bots(monkeypatch: pytest.MonkeyPatch, tmp_path) -> Iterator[str]:
    """Bots find this tree's mille; their logs go to a directory of the test; none is left running after it."""
    monkeypatch.setenv("PYTHONPATH", BOT_PATH)
    logs = str(tmp_path / "logs")
    monkeypatch.setenv(botprocess.LOGS_VARIABLE, logs)
    before = {pid for pid, _ in children()}
    yield logs
    botprocess.shutdown()
    assert not [c for c in children() if c[0] not in before], "a bot outlived its test (or is a zombie)"


def most_in_flight(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The most decisions awaited from the bots at once, as the match runs (watched at every exchange)."""
    most = [0]
    exchange = play.exchange

    def watched(bots: list[botprocess.Bot]) -> object:
        most[0] = max(most[0], sum(len(bot.waiting) for bot in bots))
        return exchange(bots)

    monkeypatch.setattr(play, "exchange", watched)
    return most


@pytest.mark.parametrize("both", [True, False], ids=["both seats", "one seat"])
def test_games_in_flight_play_the_pairs_of_the_players_in_process(monkeypatch: pytest.MonkeyPatch, both: bool) -> None:
    most = most_in_flight(monkeypatch)
    bot = served("bsd")
    config = MatchConfig(bot, bot if both else "bsd", 5, game_points=2000, bots_read_deck=True)
    flown = list(play_in_flight(((config, pair) for pair in range(8)), 8, moves=True))
    assert most[0] > 2, "several games were in flight at once"
    alone = MatchConfig("bsd", "bsd", 5, game_points=2000)
    for result in flown:
        (expected,) = play_pairs(alone, result.pair, result.pair + 1, moves=True)
        assert result.games == expected.games, f"pair {result.pair}"
        assert result.moves == expected.moves, f"pair {result.pair}: every move (--record)"
        assert result.think[0].count == expected.think[0].count  # every decision timed, asked or forced
    assert [r.pair for r in flown] == list(range(8)), "in the pairs' order"


def test_a_match_in_one_process_keeps_games_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner at --jobs 1 takes the bots at their offer; the report is the in-process players'."""
    most = most_in_flight(monkeypatch)
    bot = served("bsd")
    report = run_match(bot, bot, games=12, options=RunOptions(seed=3, jobs=1, bots_read_deck=True, game_points=2000))
    assert most[0] > 2
    same = run_match("bsd", "bsd", games=12, options=RunOptions(seed=3, jobs=1, game_points=2000))
    assert report["by_pair"] == same["by_pair"] and report["errors"] == []
    spec_bots = [b for b in botprocess._running if b.spec == bot]
    assert spec_bots and all(len(b.deals) == len(set(b.deals)) for b in spec_bots)


def test_no_process_plays_both_games_of_a_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 in flight: the two games of a pair, in flight together, are on different processes."""
    seen: dict[int, set[int]] = {}
    acquire_tag = botprocess.acquire_tag

    def watched(spec: str, deal: int | None) -> tuple[botprocess.Bot, int]:
        bot, tag = acquire_tag(spec, deal)
        assert deal is not None
        seen.setdefault(deal, set()).add(bot.proc.pid)
        return bot, tag

    monkeypatch.setattr("mille.players.external.acquire_tag", watched)
    bot = served("bsd")
    run_match(bot, "bsd", games=8, options=RunOptions(seed=4, jobs=1, game_points=1000))
    assert len(seen) == 4 and all(len(pids) == 2 for pids in seen.values()), seen


def test_the_bot_answers_each_game_by_its_tag() -> None:
    """Two games interleaved on one bot: each answer carries its game's tag and is that game's player's move."""
    games = []
    for seed in (11, 12):
        game = Game()
        game.rng = GlibcRandom(seed)
        rules.shuffle(game)
        rules.deal(game)
        rules.push(game, rules.DRAW)  # now a real choice
        games.append(game)
    lines = [wire.encode(wire.greeting())]
    for tag in (7, 3):
        lines.append(wire.tagged(wire.encode({"type": "game", "seat": 0, "dice": 99, "new": True}), tag))
    for tag, game in ((3, games[1]), (7, games[0])):
        obs = observe(game, game.to_move)
        lines.append(wire.tagged(wire.compact_decide_line(obs, obs.legal_moves()), tag))
    lines.append(wire.encode({"type": "quit"}))
    out = io.BytesIO()
    assert serve("bsd", io.BytesIO(b"".join(lines)), out, games=4) == 0
    hello, *answers = out.getvalue().splitlines()
    assert json.loads(hello)[wire.GAMES] == 4
    got = [(json.loads(line)["tag"], wire.known_answer(wire.untag(line)[0])) for line in answers]
    expected = []
    for tag, game in ((3, games[1]), (7, games[0])):
        made = BsdPlayer().decide(observe(game, game.to_move), GlibcRandom(99))
        expected.append((tag, (made.move, made.considered)))
    assert got == expected


def test_a_bot_late_in_one_game_fails_the_games_it_had_in_flight_and_no_other(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MILLE_TEST_STALL", str(tmp_path / "stalled"))
    staller = served("helpers.bots.inflight_players:Stall")
    report = run_match(staller, "bsd", games=12, options=RunOptions(seed=2, jobs=1, max_think_ms=500))
    assert os.path.exists(tmp_path / "stalled"), "the bot stalled once"
    errors = report["errors"]
    late = [e for e in errors if e["kind"] == "timeout"]
    assert len(late) == 1 and "did not answer within 500 ms" in late[0]["message"], errors
    others = [e for e in errors if e["kind"] != "timeout"]
    assert all(e["kind"] == "exception" and "its process failed in another game" in e["message"] for e in others)
    assert all(e["player"] == "a" and "\n" not in e["message"] for e in errors)
    assert len(errors) < 12, "games on the other processes were played out"
    assert len(report["by_pair"]) == 6


def test_sigterm_stops_a_match_in_flight_and_leaves_no_bot(tmp_path) -> None:
    bot = served("bsd")
    env = {**os.environ, "PYTHONPATH": BOT_PATH}
    argv = [sys.executable, "-m", "mille.match", bot, bot, "--games", "100000", "--jobs", "1"]
    match = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        bots: set[int] = set()
        while len(bots) < 4:  # two processes for each seat (the games of a pair on different ones)
            assert time.monotonic() < deadline, "the bots did not start"
            assert match.poll() is None, match.stderr.read() if match.stderr else ""
            bots = {pid for pid, _, parent in processes() if parent == match.pid}
            time.sleep(0.05)
        match.send_signal(signal.SIGTERM)
        _, err = match.communicate(timeout=30)
    finally:
        if match.poll() is None:
            match.kill()
            match.wait()
    assert match.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in bots):
        assert time.monotonic() < deadline, "a bot outlived the match"
        time.sleep(0.05)


@pytest.mark.parametrize(("extra", "why"), [('"games": 0', "said games"), ('"events": "no"', "said events")])
def test_a_hello_with_a_bad_games_is_refused_in_one_line(extra: str, why: str) -> None:
    script = (
        "import sys; sys.stdin.readline(); "
        f'print(\'{{"type": "hello", "protocol": 1, "name": "x", {extra}}}\', flush=True); sys.stdin.read()'
    )
    with pytest.raises(PlayerSpecError) as caught:
        make_player(f"exec:{sys.executable} -c {json.dumps(script)}")
    assert why in str(caught.value) and "\n" not in str(caught.value)


def test_the_drivers_forced_draw_is_the_hosts_and_the_rules() -> None:
    """The driver makes a forced draw unobserved exactly where the observation's shortcut and the rules say so."""
    from helpers.protocol import positions
    from mille.engine import driver
    from mille.players.external import _draws_by_force

    said = 0
    for game in positions(seed=13, hands=6):
        seat = game.to_move
        obs = observe(game, seat)
        forced = driver._draws_by_force(game, seat) and rules.phase(game) is rules.Phase.MOVE
        assert forced == _draws_by_force(obs)
        if forced:
            said += 1
            assert obs.legal_moves() == [rules.DRAW]
    assert said > 50


def test_a_player_with_forced_draw_is_not_shown_them_and_plays_the_same() -> None:
    """``forced_draw``: the driver draws for the player; the hand is the one a player that draws itself plays."""
    from mille.engine.driver import play_hand

    class Shown(BsdPlayer):
        def __init__(self) -> None:
            super().__init__()
            self.told = self.shown = 0

        def choose(self, observation, rng):  # type: ignore[no-untyped-def]
            self.shown += 1
            return super().choose(observation, rng)

    class Told(Shown):
        def forced_draw(self) -> None:
            self.told += 1

    results = []
    for make in (Shown, Told):
        game = Game()
        game.rng = GlibcRandom(21)
        rules.start_hand(game)
        players = [make(), make()]
        results.append((play_hand(game, players, (GlibcRandom(1), GlibcRandom(2))), players))
    (plain, shown), (told, players) = results
    assert plain == told
    assert all(p.told > 0 for p in players)
    assert [p.told + p.shown for p in players] == [p.shown for p in shown]


def test_a_game_over_frees_its_tag_at_once() -> None:
    """Bots offering two games, four in flight, twelve pairs: a few processes play them all, tags freed at once."""
    bot = served("bsd --games 2")
    config = MatchConfig(bot, bot, 8, game_points=1000, bots_read_deck=True)
    results = list(play_in_flight(((config, pair) for pair in range(12)), 4))
    assert all(r.games[0].fault is None and r.games[1].fault is None for r in results)
    spec_bots = [b for b in botprocess._running if b.spec == bot]
    assert all(not b.busy for b in spec_bots), "every game over, every tag free (not when the collector runs)"
    assert all(b.capacity == 2 for b in spec_bots)
    assert len(spec_bots) <= 8, "at most a process for each seat of the four games in flight"


def test_the_line_written_from_the_game_is_the_observations_byte_for_byte() -> None:
    """``wire.compact_game_line`` (the host's question to a bot in flight, issue 39) shows what ``observe`` shows.

    At every move of whole games of two ``bsd`` players (several hands: totals,
    coups and extensions come by), for both seats, the
    line written straight from the game is the one written from the seat's
    observation: nothing more travels, nothing less.
    """
    from mille.engine import driver
    from mille.engine.state import Table

    checked = set()

    class Compare:
        def before_move(self, game: Game) -> None:
            for seat in (0, 1):
                tag = (seat + game.deck_count) % 64
                want = wire.tagged(wire.without_legal(wire.compact_decide_line(observe(game, seat), [])), tag)
                assert wire.compact_game_line(game, seat, tag) == want
            checked.add(rules.phase(game))

        def after_move(self, *args: object) -> None:
            pass

    for seed in range(1, 5):
        game = Game(table=Table(game_points=5000))
        for hand in range(4):
            play.deal_hand(game, seed * 10 + hand, hand % 2)
            players = [BsdPlayer(), BsdPlayer()]
            played = driver.play_hand(game, players, [GlibcRandom(seed), GlibcRandom(seed + 99)], observer=Compare())
            if played.result.game_over:
                break
    assert {rules.Phase.MOVE, rules.Phase.EXTENSION} <= checked
