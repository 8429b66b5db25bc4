"""python -m mille.match at every table: duplicate deals, sets of rotations, forfeits, the arithmetic, parallel runs.

The tests that hold at any table run at each (``seats``): at two seats a
set is a duplicate pair; the larger tables' own (their report per player,
their refusals, their records) follow in a section of their own.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import math
import re
import statistics
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from helpers import REPO, SRC
from helpers.protocol import PROTOCOL_BOT, TINY_BOT
from mille.engine import cards
from mille.engine.state import Game, table
from mille.lab import match, stats
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.play import deal_hand, deal_seed, dice_seed, play_game, play_pair
from mille.lab.records import Fault, GameRecord, MatchConfig, PairResult, side_of
from mille.lab.report import TIMING_FIELDS, format_report, format_table_report, summarize
from mille.lab.runner import MAX_PAIRS_PER_TASK, Batch, run_batches
from mille.lab.sprt import SprtSettings

#: Plug-in players for the tests, importable as ``match_testbots:NAME`` from the current directory.
BOTS = textwrap.dedent(
    """
    import time

    from mille.engine.rules import Move, MoveType

    SEATS_SEEN = []


    class Spy:
        def choose(self, observation, rng):
            SEATS_SEEN.append(observation.seat)
            return observation.legal_moves()[0]


    class RaisesInSeat1:
        '''Fine in the first game of a pair (seat 0), raises in the second.'''

        def choose(self, observation, rng):
            if observation.seat == 1:
                raise RuntimeError("boom")
            return observation.legal_moves()[0]


    class Orders:
        '''Answers the Order toggle, which is never a player's move.'''

        def choose(self, observation, rng):
            return Move(MoveType.ORDER)


    class DrawsTwice:
        '''Draws, then tries to draw again: refused ("already picked").'''

        def choose(self, observation, rng):
            return Move(MoveType.DRAW)


    class NotAMove:
        def choose(self, observation, rng):
            return "P"


    class Sleeper:
        def choose(self, observation, rng):
            time.sleep(0.3)
            return observation.legal_moves()[0]


    class Slow:
        '''The first legal move, after 5 ms: a pair lasts about a second.'''

        def choose(self, observation, rng):
            time.sleep(0.005)
            return observation.legal_moves()[0]


    class CtrlC:
        '''Ctrl-C in the middle of the first game (as a KeyboardInterrupt arrives).'''

        def choose(self, observation, rng):
            raise KeyboardInterrupt


    def broken_factory():
        raise ValueError("no player today")
    """
)

FAST = 1000  # game points in most tests: a game is a hand or two


@pytest.fixture(scope="session")
def bots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bots")
    (path / "match_testbots.py").write_text(BOTS)
    return path


@pytest.fixture
def bots(bots_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The plug-in module, importable from the current directory (as for the command line)."""
    monkeypatch.chdir(bots_dir)
    monkeypatch.syspath_prepend(str(bots_dir))
    import match_testbots

    match_testbots.SEATS_SEEN.clear()
    yield match_testbots


SPIES = textwrap.dedent(
    """
    DEALT = []


    class DealSpy:
        '''Takes down the hand seat 0 holds at its first decision of a game, then plays the first legal move.'''

        def __init__(self):
            self.seen = False

        def choose(self, observation, rng):
            if not self.seen and observation.seat == 0:
                DEALT.append(tuple(sorted(observation.players[0].hand)))
            self.seen = True
            return observation.legal_moves()[0]


    MADE = []


    class CtrlCInTheSecondSet:
        '''Ctrl-C (as a KeyboardInterrupt arrives) in the second set (made once to check it, then twice a game).'''

        def __init__(self):
            MADE.append(self)

        def choose(self, observation, rng):
            if len(MADE) > 5:
                raise KeyboardInterrupt
            return observation.legal_moves()[0]


    class Raises:
        def choose(self, observation, rng):
            raise RuntimeError("boom")
    """
)


@pytest.fixture
def spies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    (tmp_path / "table_spies.py").write_text(SPIES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    import table_spies

    table_spies.DEALT.clear()
    table_spies.MADE.clear()
    yield table_spies
    sys.modules.pop("table_spies", None)


#: A table of each size and its players, one per side.
TABLES = [
    (2, ("bsd", "random")),
    (3, ("bsd", "random", "first")),
    (4, ("bsd", "random")),
    (6, ("bsd", "random", "first")),
]


def config_of(players: tuple[str, ...], seats: int, **kw: Any) -> MatchConfig:
    """The match of ``players`` (one per side) at the table of ``seats``."""
    return MatchConfig(players[0], players[1], seats=seats, c=players[2] if len(players) > 2 else None, **kw)


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING_FIELDS}


# --------------------------------------------------------------------------
# Interval arithmetic on known data


def test_wilson_interval_known_values() -> None:
    # 8 successes in 10: the textbook Wilson interval.
    low, high = stats.wilson_interval(0.8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    # 0 in 20: the upper bound is z^2 / (n + z^2).
    low, high = stats.wilson_interval(0.0, 20)
    assert low == 0.0
    assert high == pytest.approx(stats.Z95**2 / (20 + stats.Z95**2))
    # Symmetric about 1/2.
    low, high = stats.wilson_interval(0.5, 100)
    assert low + high == pytest.approx(1.0)
    assert stats.wilson_interval(0.3, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("df", "quantile"),
    [(1, 12.706205), (2, 4.302653), (5, 2.570582), (10, 2.228139), (30, 2.042272), (1000, 1.962339)],
)
def test_t_quantile_table(df: int, quantile: float) -> None:
    assert stats.t_quantile(0.975, df) == pytest.approx(quantile, abs=2e-6)
    assert stats.t_quantile(0.025, df) == pytest.approx(-quantile, abs=2e-6)


def test_t_quantile_normal_limit() -> None:
    assert stats.t_quantile(0.975, math.inf) == pytest.approx(stats.Z95)
    assert stats.t_cdf(0.0, 7) == pytest.approx(0.5)
    # df = 1 is the Cauchy distribution.
    assert stats.t_cdf(1.0, 1) == pytest.approx(0.75)


def test_ratio_interval_by_hand() -> None:
    # Three pairs: margins 10, -4, 6 over 2, 2, 1 hands.
    r = stats.ratio_interval([10, -4, 6], [2, 2, 1])
    assert r.estimate == pytest.approx(2.4)
    # residuals 10 - 4.8, -4 - 4.8, 6 - 2.4; var = 3/2 * sum(d^2) / 5^2
    se = math.sqrt(1.5 * (5.2**2 + 8.8**2 + 3.6**2)) / 5
    assert r.se == pytest.approx(se)
    assert se == pytest.approx(2.654506, abs=1e-6)
    assert r.low == pytest.approx(2.4 - 4.302653 * se, abs=1e-5)
    assert r.high == pytest.approx(2.4 + 4.302653 * se, abs=1e-5)


def test_ratio_interval_with_unit_sizes_is_the_t_interval() -> None:
    data = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, 6.0]
    r = stats.ratio_interval(data, [1] * len(data))
    mean = statistics.fmean(data)
    se = statistics.stdev(data) / math.sqrt(len(data))
    assert r.estimate == pytest.approx(mean)
    assert r.se == pytest.approx(se)
    t = stats.t_quantile(0.975, len(data) - 1)
    assert (r.low, r.high) == pytest.approx((mean - t * se, mean + t * se))


def test_ratio_interval_degenerate() -> None:
    assert stats.ratio_interval([], []).estimate is None
    assert stats.ratio_interval([5], [0]).estimate is None
    one = stats.ratio_interval([6], [3])
    assert one.estimate == 2.0
    assert one.low is None and one.high is None and one.se is None


def test_game_score_interval() -> None:
    # Few pairs: the plain Wilson interval over games (the design effect is not trusted below 1).
    p, (low, high), deff = stats.game_score_interval([1, 1, 1, 1, 2])
    assert p == pytest.approx(0.6)
    assert deff == 1.0  # estimated 0.42
    assert (low, high) == pytest.approx(stats.wilson_interval(0.6, 10))
    # ... but a design effect over 1 (pairs won or lost whole) always widens it: 10 games count as 4.
    p, (low, high), deff = stats.game_score_interval([2, 2, 0, 0, 2])
    assert deff == pytest.approx(2.5)
    assert (low, high) == pytest.approx(stats.wilson_interval(0.6, 4))
    # Many pairs, every one split 1-1: no variance between pairs at all.
    p, (low, high), deff = stats.game_score_interval([1.0] * 40)
    assert (p, low, high, deff) == (0.5, 0.5, 0.5, 0.0)
    # Many pairs with a known design effect: pair means 1, 0.5, 0.5, 0 repeated.
    scores = [2.0, 1.0, 1.0, 0.0] * 10
    p, (low, high), deff = stats.game_score_interval(scores)
    means = [s / 2 for s in scores]
    clustered = statistics.variance(means) / len(means)
    assert deff == pytest.approx(clustered / (0.25 / 80))
    assert (low, high) == pytest.approx(stats.wilson_interval(0.5, 80 / deff))
    # Everybody lost: the interval still has width (no information on the spread).
    p, (low, high), deff = stats.game_score_interval([0.0] * 40)
    assert p == 0.0 and low == 0.0 and high == pytest.approx(stats.wilson_interval(0.0, 80)[1])


def test_think_stats_quantiles() -> None:
    think = stats.ThinkStats()
    for ms in range(1, 101):  # 1 .. 100 ms
        think.add(ms / 1000)
    assert think.count == 100
    assert think.quantile_ms(0.5) == pytest.approx(50.5, rel=0.03)
    assert think.quantile_ms(0.95) == pytest.approx(95, rel=0.03)
    assert think.summary()["max"] == 100.0
    other = stats.ThinkStats()
    other.add(0.5)
    think.merge(other)
    assert think.count == 101 and think.summary()["max"] == 500.0
    assert stats.ThinkStats().summary() == {"median": 0.0, "p95": 0.0, "max": 0.0}


# --------------------------------------------------------------------------
# Duplicate deals


def test_seeds_are_stable_and_distinct() -> None:
    assert deal_seed(1, 0, 0) == deal_seed(1, 0, 0)
    seeds = {deal_seed(s, p, h) for s in (1, 2) for p in range(5) for h in range(5)}
    assert len(seeds) == 50
    assert dice_seed(1, 0, 0) != dice_seed(1, 0, 1)
    assert all(0 <= s < 2**32 for s in seeds)


def test_deal_depends_only_on_its_seed() -> None:
    fresh = Game()
    deal_hand(fresh, 1234, 0)
    played = Game()
    deal_hand(played, 99, 1)
    played.players[0].total = 3000  # totals carry over, the deck does not
    deal_hand(played, 1234, 0)
    assert played.deck == fresh.deck
    assert sorted(played.deck) == sorted(cards.INITIAL_DECK)
    assert played.deck_count == fresh.deck_count == cards.DECK_SIZE - 12
    assert [p.hand for p in played.players] == [p.hand for p in fresh.players]
    assert played.to_move == played.hand_starter == 0
    assert played.players[0].total == 3000


def _deals(config: MatchConfig, pair: int, rotation: int) -> tuple[GameRecord, list[Any]]:
    seen: list[Any] = []

    def on_deal(hand: int, game: Game) -> None:
        seen.append((hand, game.deck[:], game.deck_count, [p.hand[:] for p in game.players], game.to_move))

    return play_game(config, pair, rotation, on_deal=on_deal), seen


@pytest.mark.parametrize(("seats", "players"), TABLES)
def test_every_game_of_a_set_sees_the_same_deals(seats: int, players: tuple[str, ...]) -> None:
    """At two seats both games of a pair; at the larger tables every rotation of a set."""
    config = config_of(players, seats, seed=3, game_points=3000)
    for pair in range(3):
        _, deals1 = _deals(config, pair, 0)
        for rotation in range(1, len(players)):
            _, deals2 = _deals(config, pair, rotation)
            common = min(len(deals1), len(deals2))
            assert common >= 1
            # The same deck order, the same cards in each seat, the same seat starting, hand by hand,
            # although the games went differently (B is random, A the BSD computer).
            assert deals1[:common] == deals2[:common]
        assert [d[4] for d in deals1] == [h % seats for h in range(len(deals1))]
        # ... and the sets differ from each other.
        _, deals_other = _deals(config, pair + 10, 0)
        assert deals_other[0][1] != deals1[0][1]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_rotations_of_a_set_are_dealt_the_same_hands(seats: int, spies: Any) -> None:
    sides = table(seats).sides
    run_match(
        *["table_spies:DealSpy"] * sides,
        seats=seats,
        games=2 * sides,
        options=RunOptions(seed=3, game_points=FAST, jobs=1),
    )
    dealt = spies.DEALT
    assert len(dealt) == 2 * sides
    first, second = dealt[:sides], dealt[sides:]
    assert len(set(first)) == 1 and len(set(second)) == 1  # every rotation of a set: the same deal
    assert first[0] != second[0]  # and the sets differ


def test_every_player_sits_once_on_every_side() -> None:
    for sides in (2, 3):
        for player in range(sides):
            assert sorted(side_of(player, r, sides) for r in range(sides)) == list(range(sides))
        for r in range(sides):
            assert sorted(side_of(p, r, sides) for p in range(sides)) == list(range(sides))


def test_seat_swapping_really_swaps(bots: Any) -> None:
    config = MatchConfig("match_testbots:Spy", "bsd", seed=5, game_points=FAST)
    first = play_game(config, 0, False)
    assert first.a_seat == 0
    assert bots.SEATS_SEEN and set(bots.SEATS_SEEN) == {0}
    bots.SEATS_SEEN.clear()
    second = play_game(config, 0, True)
    assert second.a_seat == 1
    assert bots.SEATS_SEEN and set(bots.SEATS_SEEN) == {1}


def test_a_deterministic_player_against_itself_mirrors_exactly() -> None:
    # `first` uses no dice: in the seat-swapped game it meets exactly the
    # positions of the first game from the other side, so every hand's
    # margin comes back negated and each pair is split 1-1.
    config = MatchConfig("first", "first", seed=8, game_points=2000)
    for pair in range(2):
        result = play_pair(config, pair)
        g1, g2 = result.games
        assert g1.margins == tuple(-m for m in g2.margins)
        assert g1.margins and any(g1.margins)
        assert {g1.winner, g2.winner} == {0, 1}
        assert (g1.a_points, g1.b_points) == (g2.b_points, g2.a_points)
        assert result.margin == 0 and result.a_score == 1.0


# --------------------------------------------------------------------------
# Misbehaving players


def test_exception_forfeits_that_game_only(bots: Any) -> None:
    report = run_match(
        "match_testbots:RaisesInSeat1", "bsd", games=4, options=RunOptions(seed=2, jobs=1, game_points=FAST)
    )
    assert report["games"] == 4
    errors = report["errors"]
    # Every second game (A in seat 1) is forfeited at once; the first games are played out.
    assert [e["game"] for e in errors] == [2, 4]
    for e in errors:
        assert e["player"] == "a" and e["name"] == "match_testbots:RaisesInSeat1" and e["seat"] == 1
        assert e["kind"] == "exception" and e["hand"] == 1
        assert "RuntimeError: boom" in e["message"] and "match_testbots.py" in e["message"]
    assert report["b_game_wins"] >= 2
    assert report["hands"] >= 2  # the first games were played


@pytest.mark.parametrize(
    ("bot", "needle"),
    [
        ("Orders", "chose O, which is never a player's decision"),
        ("DrawsTwice", "refused: already picked"),
        ("NotAMove", "answered 'P', not a Move"),
    ],
)
def test_illegal_moves_forfeit(bots: Any, bot: str, needle: str) -> None:
    report = run_match("bsd", f"match_testbots:{bot}", games=2, options=RunOptions(seed=1, jobs=1, game_points=FAST))
    assert report["a_game_wins"] == 2 and report["b_game_wins"] == 0
    assert [(e["game"], e["player"], e["kind"]) for e in report["errors"]] == [(1, "b", "illegal"), (2, "b", "illegal")]
    assert needle in report["errors"][0]["message"]
    assert "legal:" in report["errors"][0]["message"] or "refused" in report["errors"][0]["message"]


def test_think_limit(bots: Any) -> None:
    report = run_match("match_testbots:Sleeper", "bsd", games=2, options=RunOptions(seed=1, jobs=1, max_think_ms=20))
    assert [(e["player"], e["kind"]) for e in report["errors"]] == [("a", "timeout"), ("a", "timeout")]
    assert report["max_think_ms"] == 20
    assert report["seconds"] < 0.6 * 2  # the alarm cut the 0.3 s sleeps short (Unix)


def test_a_factory_that_fails_in_a_game_forfeits(bots: Any) -> None:
    config = MatchConfig("bsd", "match_testbots:broken_factory", seed=1)
    record = play_game(config, 0, False)
    assert record.winner == 0 and record.fault is not None
    assert record.fault.kind == "exception" and "no player today" in record.fault.message


def test_misbehaving_plugin_in_worker_processes(bots: Any) -> None:
    report = run_match(
        "match_testbots:RaisesInSeat1", "bsd", games=6, options=RunOptions(seed=4, jobs=2, game_points=FAST)
    )
    assert report["games"] == 6
    assert [(e["game"], e["player"], e["kind"]) for e in report["errors"]] == [
        (2, "a", "exception"),
        (4, "a", "exception"),
        (6, "a", "exception"),
    ]
    assert report["hands"] >= 3  # the first game of every pair was played out
    serial = run_match(
        "match_testbots:RaisesInSeat1", "bsd", games=6, options=RunOptions(seed=4, jobs=1, game_points=FAST)
    )
    assert without_timing(serial) == without_timing(report)


# --------------------------------------------------------------------------
# Runs, parallelism, the command line


@pytest.mark.parametrize(("seats", "players"), TABLES[:3])
def test_results_do_not_depend_on_jobs_or_executor(seats: int, players: tuple[str, ...]) -> None:
    options = RunOptions(seed=21, game_points=2000)
    one = run_match(*players, seats=seats, games=12, options=replace(options, jobs=1))
    two = run_match(*players, seats=seats, games=12, options=replace(options, jobs=2))
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        where = replace(options, executor=pool, pairs_per_task=2, max_in_flight=2)
        threads = run_match(*players, seats=seats, games=12, options=where)
        assert without_timing(run_match(*players, seats=seats, games=12, options=where.where(workers=3))) == (
            without_timing(one)
        )
    assert without_timing(one) == without_timing(two) == without_timing(threads)
    units = "pairs" if seats == 2 else "sets"
    assert one["games"] == 12 and one[units] == 12 // len(players)
    other = run_match(*players, seats=seats, games=12, options=replace(options, jobs=1, seed=22))
    assert without_timing(other) != without_timing(one)


@pytest.mark.parametrize(
    ("seats", "players"), [(2, ("bsd", "bsd")), (4, ("bsd", "random")), (3, ("bsd", "random", "first"))]
)
def test_hands_takes_the_sets_in_order_until_that_many_hands(seats: int, players: tuple[str, ...]) -> None:
    """``--hands N``: the fewest sets (pairs), in order, that play N hands, wherever they are played."""
    options = RunOptions(seed=3, game_points=2000 if seats == 2 else FAST)
    one = run_match(*players, seats=seats, hands=25, options=replace(options, jobs=1))
    two = run_match(*players, seats=seats, hands=25, options=replace(options, jobs=2))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        parallel = run_match(*players, seats=seats, hands=25, options=replace(options, executor=pool, max_in_flight=6))
    assert without_timing(one) == without_timing(parallel) == without_timing(two)
    assert one["hands"] >= 25
    # The last set is the one that reached the target: without it, fewer hands.
    sides = len(players)
    units = one["pairs"] if seats == 2 else one["sets"]
    fewer = run_match(*players, seats=seats, games=sides * (units - 1), options=replace(options, jobs=1))
    assert fewer["hands"] < 25
    done = _match("--players", str(seats), *players, "--hands", "25", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] >= 25


def test_games_round_up_to_pairs() -> None:
    report = run_match("bsd", "bsd", games=3, options=RunOptions(seed=1, jobs=1, game_points=FAST))
    assert report["games"] == 4 and report["pairs"] == 2
    assert report["a_game_wins"] + report["b_game_wins"] + report["ties"] == 4


def test_report_keys_and_consistency() -> None:
    report = run_match("bsd", "random", games=8, options=RunOptions(seed=6, jobs=1, game_points=2000))
    for key in (
        "a",
        "b",
        "seed",
        "games",
        "hands",
        "a_game_wins",
        "b_game_wins",
        "ties",
        "a_game_win_rate",
        "a_game_win_rate_ci95",
        "margin_per_hand",
        "margin_ci95",
        "think_ms",
        "errors",
        "seconds",
    ):
        assert key in report
    assert set(report["think_ms"]) == {"a", "b"}
    assert set(report["think_ms"]["a"]) == {"median", "p95", "max"}
    low, high = report["a_game_win_rate_ci95"]
    assert low <= report["a_game_win_rate"] <= high
    m_low, m_high = report["margin_ci95"]
    assert m_low <= report["margin_per_hand"] <= m_high
    assert report["margin_per_hand"] == pytest.approx(
        report["a_points_per_hand"] - report["b_points_per_hand"], abs=0.01
    )
    assert report["errors"] == [] and report["interrupted"] is False
    json.dumps(report)  # serialisable as it is


def test_progress_and_interrupt() -> None:
    calls: list[match.Progress] = []

    def progress(p: match.Progress) -> None:
        calls.append(p)
        if p.games == 4:
            raise KeyboardInterrupt

    report = run_match("bsd", "bsd", games=20, progress=progress, options=RunOptions(seed=1, jobs=1, game_points=FAST))
    assert report["interrupted"] is True
    assert report["games"] == 4 and report["pairs"] == 2
    assert [c.games for c in calls] == [2, 4] and calls[-1].target_games == 20
    text = format_report(report)
    assert "INTERRUPTED" in text


def test_progress_bar_line() -> None:
    stream = io.StringIO()
    bar = match.ProgressBar(stream, "bsd", "random")
    bar(match.Progress(10, 20, 40, None, 2.0, 0.75, 812.0))
    line = stream.getvalue()
    assert line.startswith("\r[##########..........] 10/20 games, 5.0 games/s")
    assert "bsd scores 75.0%" in line and "+812/hand" in line
    bar.clear()
    assert stream.getvalue().endswith("\r")


def test_progress_rate_falls_while_a_slow_pair_runs() -> None:
    """The rate is over the time elapsed, not frozen at the last pair's news."""
    bar = match.ProgressBar(io.StringIO(), "expert", "bsd", target_games=20)
    bar.latest = match.Progress(2, 20, 8, None, 2.0, 0.5, 0.0)
    assert ", 1.0 games/s, 0:02;" in bar.render(2.0)
    assert ", 0.1 games/s, 0:20;" in bar.render(20.0)


def test_main_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["bsd", "random", "--games", "2", "--seed", "9", "--jobs", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and err == ""  # no progress bar on a pipe
    data = json.loads(out)
    assert (data["a"], data["b"], data["seed"], data["games"]) == ("bsd", "random", 9, 2)


def test_main_json_by_pair_adds_up_and_repeats_on_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """``by_pair`` is every pair in order, its sums are the report's figures, and a second run repeats it."""
    runs = []
    for _ in range(2):
        assert match.main(["bsd", "random", "--games", "6", "--seed", "4", "--jobs", "1", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    data = runs[0]
    by_pair = data["by_pair"]
    assert [p["pair"] for p in by_pair] == [1, 2, 3]
    assert sum(p["hands"] for p in by_pair) == data["hands"]
    assert sum(p["margin"] for p in by_pair) / data["hands"] == pytest.approx(data["margin_per_hand"], abs=1e-3)
    assert sum(p["a_score"] for p in by_pair) / data["games"] == pytest.approx(data["a_game_win_rate"], abs=1e-6)
    assert runs[1]["by_pair"] == by_pair


def test_main_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["bsd", "bsd", "--games", "2", "--jobs", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "mille.match: A = bsd, B = bsd\n  seed 1; 2 games (1 duplicate pair), " in out
    assert "A's game score" in out and "errors           none" in out
    assert "replay" not in out  # a seed given: the report as it always was


def test_without_a_seed_the_match_draws_one_and_says_it_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    """No --seed: an unpredictable seed (not 1, the old default a bot could search), said last, for a replay."""
    seeds = []
    for _ in range(2):
        assert match.main(["bsd", "bsd", "--games", "2", "--jobs", "1"]) == 0
        out = capsys.readouterr().out
        found = re.search(r"\n  seed (\d+); 2 games", out)
        assert found is not None, out
        assert out.endswith(f"\n  seed drawn at random: replay with --seed {found[1]}\n"), out
        seeds.append(int(found[1]))
        assert 2**127 <= seeds[-1] < 2**128  # 128 bits: no hand of it can be searched (issue 43)
    assert seeds[0] != seeds[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["nobody", "bsd"],
        ["bsd", "nomodule_xyz:Bot"],
        ["bsd", "bsd", "--games", "0"],
        ["bsd", "bsd", "--games", "2", "--hands", "3"],
        ["bsd", "bsd", "--jobs", "0"],
        ["bsd", "bsd", "--max-think-ms", "-1"],
    ],
)
def test_main_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        match.main(argv)
    assert exc.value.code == 2


def test_run_match_arguments() -> None:
    with pytest.raises(ValueError):
        run_match("bsd", "bsd")
    with pytest.raises(ValueError):
        run_match("bsd", "bsd", games=2, hands=2)
    from mille.players import PlayerSpecError

    with pytest.raises(PlayerSpecError):
        run_match("bsd", "no such player", games=2)


def test_python_dash_m(tmp_path: Path) -> None:
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "mille.match", "bsd", "bsd", "--games", "4", "--jobs", "2", "--json"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout)["games"] == 4


# --------------------------------------------------------------------------
# docs/bots.md


DOCS = Path(REPO) / "docs"


def test_docs_example_is_the_example_file() -> None:
    text = (DOCS / "bots.md").read_text()
    source = (DOCS / "examples" / "greedy_bot.py").read_text()
    assert f"`docs/examples/greedy_bot.py`:\n\n```python\n{source}```" in text


def test_docs_example_bot_plays_legally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS / "examples")
    monkeypatch.syspath_prepend(str(DOCS / "examples"))
    report = run_match("greedy_bot:GreedyBot", "bsd", games=4, options=RunOptions(seed=1, jobs=1, game_points=2000))
    assert report["errors"] == [] and report["hands"] >= 4


# --------------------------------------------------------------------------
# A pair's JSON form (the tournament's results file)


def test_pair_result_json_round_trips_exactly(bots: Any) -> None:
    config = MatchConfig("match_testbots:RaisesInSeat1", "random", seed=3, game_points=2000)
    faulty = play_pair(config, 4)
    plain = play_pair(MatchConfig("bsd", "random", seed=3, game_points=2000), 7)
    assert faulty.games[1].fault is not None and plain.think[0].count > 0
    for result in (faulty, plain):
        text = json.dumps(result.to_json())
        back = PairResult.from_json(json.loads(text))
        assert back == result  # games, faults, think-time buckets, counts and the exact max
        assert back.think[0].max_seconds == result.think[0].max_seconds
        assert summarize_both(back) == summarize_both(result)


def summarize_both(result: PairResult) -> dict[str, Any]:
    return summarize(MatchConfig("x", "y", 1), [result])


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("think"),
        lambda d: d.update(pair=-1),
        lambda d: d["games"].reverse(),
        lambda d: d["games"][0].update(winner=2),
        lambda d: d["games"][0].update(margins=[1, "2"]),
        lambda d: d["think"][0].update(count=d["think"][0]["count"] + 1),
        lambda d: d["games"][1].update(fault={"player": 0}),
    ],
)
def test_pair_result_json_rejects_damage(damage: Any) -> None:
    data = play_pair(MatchConfig("bsd", "random", seed=3, game_points=FAST), 0).to_json()
    damage(data)
    with pytest.raises(ValueError):
        PairResult.from_json(data)


# --------------------------------------------------------------------------
# Rough edges of the command line


def test_help_says_95_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        match.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "95% confidence" in out.replace("\n", " ") and "%%" not in out
    assert "--cluster ADDRESS" in out and "--version" in out
    # Every built-in player is named (expert-2026 was once left out).
    assert "Players: bsd, expert, expert-2026, expert-2026-11, first, random, or module:attribute" in " ".join(
        out.split()
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from mille import __version__

    with pytest.raises(SystemExit) as exc:
        match.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"mille.match (bsd-mille) {__version__}\n"


def test_a_closed_pipe_is_no_traceback(tmp_path: Path) -> None:
    """``... | head -1``: the reader is gone before the report is written."""
    import os
    import subprocess

    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as after head has exited
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mille.match", "bsd", "bsd", "--games", "2", "--jobs", "1"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
            cwd=tmp_path,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    assert done.stderr == "" and done.returncode == 141


def test_interrupted_before_any_pair_says_no_result(bots: Any) -> None:
    report = run_match("match_testbots:CtrlC", "bsd", games=4, options=RunOptions(seed=1, jobs=1, game_points=FAST))
    assert report["interrupted"] is True and report["pairs"] == 0
    assert report["a_game_win_rate"] is None and report["a_game_win_rate_ci95"] == [None, None]
    assert report["think_ms"] == {"a": None, "b": None}
    text = format_report(report, jobs=1)
    assert "interrupted before any pair finished, so no result" in text
    assert "%" not in text and "0 ms" not in text and "think" not in text


def test_report_lines_fit_80_columns() -> None:
    report = run_match("bsd", "random", games=8, options=RunOptions(seed=6, jobs=1, game_points=2000))
    report["margin_se_unpaired"] = 1234.5  # the widest the figures get
    report["margin_se"] = 123.4
    for line in format_report(report, jobs=2).splitlines():
        assert len(line) <= 79, line


def test_progress_line_at_once_and_on_a_timer(bots: Any) -> None:
    """A slow pair (expert's last about 20 s) must not leave the terminal blank or frozen."""
    stream = io.StringIO()
    bar = match.ProgressBar(stream, "match_testbots:Slow", "bsd", target_games=2, interval=0.02)
    bar.start()
    first = stream.getvalue()
    assert first.startswith("\r[....................] 0/2 games, 0:00; the first pair is under way")
    draws_before_the_pair: list[int] = []

    def progress(p: match.Progress) -> None:
        draws_before_the_pair.append(stream.getvalue().count("\r"))
        bar(p)

    try:
        run_match(
            "match_testbots:Slow",
            "bsd",
            games=2,
            progress=progress,
            options=RunOptions(seed=1, jobs=1, game_points=FAST),
        )
    finally:
        bar.clear()
    # Redrawn by the timer while the first pair was being played (it lasts hundreds of milliseconds).
    assert draws_before_the_pair[0] >= 3
    assert "2/2 games" in stream.getvalue() and stream.getvalue().endswith("\r")


def test_progress_line_on_a_terminal_before_the_first_pair(bots_dir: Path) -> None:
    """The command line shows the line as soon as the run starts, on a real terminal."""
    import os
    import pty
    import select
    import subprocess

    main_fd, sub_fd = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "mille.match", "match_testbots:Slow", "bsd", "--games", "2", "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=sub_fd,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        cwd=bots_dir,
    )
    os.close(sub_fd)
    seen = b""
    try:
        while b"under way" not in seen:
            ready, _, _ = select.select([main_fd], [], [], 60)
            assert ready, f"no progress line in 60 s: {seen!r}"
            seen += os.read(main_fd, 4096)
        out, _ = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
        os.close(main_fd)
    assert b"0/2 games" in seen
    assert process.returncode == 0 and b"2 games (1 duplicate pair)" in out


def test_cluster_without_dask_says_what_to_install(tmp_path: Path) -> None:
    """Dask blocked from importing: one line naming the extra, status 1, no traceback."""
    import subprocess

    code = "import sys; sys.modules['distributed'] = None; from mille.match import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, "bsd", "bsd", "--games", "2", "--cluster", "local:2"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "pip install 'bsd-mille[cluster]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_optional_modules_are_not_imported_without_cluster(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import sys; from mille.match import main; main(['bsd', 'bsd', '--games', '2', '--jobs', '1']); "
        "import mille.cli; "
        "print(sorted(m for m in sys.modules "
        "if m == 'mille.lab.cluster' or m.split('.')[0] in ('dask', 'distributed')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    assert done.stdout.splitlines()[-1] == "[]"
    assert "mille.lab.cluster" not in done.stdout


def test_tasks_grow_to_a_quarter_second_and_never_mix_matches() -> None:
    """With workers, consecutive pairs of one match share a task once the time of a pair is known."""
    configs = [MatchConfig("bsd", "random", 1, game_points=FAST), MatchConfig("first", "random", 2, game_points=FAST)]
    wanted = [(c, p) for c in configs for p in range(40)]
    seen: list[Batch] = []

    def record(batch: Batch, results: list[PairResult]) -> bool:
        assert [r.pair for r in results] == list(range(batch.start, batch.stop))
        seen.append(batch)
        return False

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert run_batches(iter(wanted), record, executor=pool, workers=1, max_in_flight=1) is False
    assert seen[0].stop - seen[0].start == 1  # no time known yet
    assert max(b.stop - b.start for b in seen) > 1  # pairs of a few milliseconds: many to a task
    assert all(b.stop - b.start <= MAX_PAIRS_PER_TASK for b in seen)
    played = sorted((configs.index(b.config), p) for b in seen for p in range(b.start, b.stop))
    assert played == [(k, p) for k in range(2) for p in range(40)]
    # A fixed size, in process: exactly that, cut at the end of a match.
    seen.clear()
    run_batches(iter(wanted), record, jobs=1, pairs_per_task=16)
    assert [(configs.index(b.config), b.start, b.stop) for b in seen] == [
        (0, 0, 16),
        (0, 16, 32),
        (0, 32, 40),
        (1, 0, 16),
        (1, 16, 32),
        (1, 32, 40),
    ]


def test_names_and_messages_are_printed_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's name with control characters (a real plug-in's) and a forfeit's message: escaped, in text and bar."""
    (tmp_path / "evil.py").write_text(
        'from mille.players import FirstPlayer\n\nglobals()["\\x1b]0;x\\x07"] = FirstPlayer\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    evil = "evil:\x1b]0;x\x07"
    assert match.main(["bsd", evil, "--games", "2", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "mille.match: A = bsd, B = evil:\\x1b]0;x\\x07" in out
    assert match.main(["bsd", evil, "--games", "2", "--jobs", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and json.loads(out)["b"] == evil
    stream = io.StringIO()
    bar = match.ProgressBar(stream, evil, "bsd", target_games=2, interval=60)
    bar(match.Progress(2, 2, 7, 7, 1.0, 0.5, 10.0))
    assert "\x1b" not in stream.getvalue() and "evil:\\x1b]0;x\\x07 scores 50.0%" in stream.getvalue()
    # A forfeit's message (a bot's exception text) in the text report.
    config = MatchConfig("bsd", evil, 1)
    fault = Fault(1, "exception", "ValueError: \x1b[2J\x1b]2;pwned\x07", 0)
    game = GameRecord(0, 0, 0, (0, 0), (0,), fault)
    text = format_report(
        summarize(
            config,
            [PairResult(0, (game, GameRecord(0, 1, 0, (0, 0), (0,), fault)), (stats.ThinkStats(), stats.ThinkStats()))],
        )
    )
    assert "\x1b" not in text and "B (evil:\\x1b]0;x\\x07) exception: ValueError: \\x1b[2J\\x1b]2;pwned\\x07" in text


# --------------------------------------------------------------------------
# The larger tables: the report per player, their refusals, their records


@pytest.mark.parametrize(
    ("seats", "players"), [(3, ["bsd", "random", "first"]), (4, ["bsd", "random"]), (6, ["bsd", "random", "first"])]
)
def test_whole_games_at_every_table(seats: int, players: list[str]) -> None:
    """Every game ends; each set's game score is shared out whole; the report reads per player."""
    sides = table(seats).sides
    report = run_match(*players, seats=seats, games=2 * sides, options=RunOptions(seed=7, game_points=FAST, jobs=1))
    assert report["sets"] == 2 and report["games"] == 2 * sides and report["hands"] >= report["games"]
    assert report["errors"] == []
    rows = report["per_player"]
    assert [r["player"] for r in rows] == players
    assert sum(r["game_score"] for r in rows) == pytest.approx(1.0)
    assert sum(r["games_won"] for r in rows) == pytest.approx(report["games"])
    assert sum(r["margin_per_hand"] for r in rows) == pytest.approx(0.0, abs=0.05)
    assert rows[0]["game_score"] > rows[1]["game_score"]  # the original's procedure beats random play
    text = format_table_report(report)
    assert f"Table of {seats}" in text and all(p in text for p in players)


def test_a_player_that_raises_loses_its_games_only(spies: Any) -> None:
    report = run_match(
        "bsd", "table_spies:Raises", seats=4, games=4, options=RunOptions(seed=1, game_points=FAST, jobs=1)
    )
    rows = report["per_player"]
    assert rows[0]["game_score"] == 1.0 and rows[1]["game_score"] == 0.0
    assert report["errors"] and all(
        e["player"] == "table_spies:Raises" and e["kind"] == "exception" for e in report["errors"]
    )


def _match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mille.match", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_the_command_line_at_four_seats() -> None:
    done = _match("--players", "4", "bsd", "random", "--games", "2", "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (
        report["seats"] == 4
        and report["sets"] == 1
        and [r["player"] for r in report["per_player"]] == ["bsd", "random"]
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--players", "4", "bsd", f"exec:{sys.executable} {PROTOCOL_BOT}"],
            "its hello says protocol 1 alone",
        ),
        (["--players", "3", "bsd", "random"], "--players 3 has 3 sides: name 3 players"),
        (["--players", "4", "bsd", "random", "first"], "--players 4 has 2 sides: name 2 players"),
        (["bsd", "random", "first"], "a third player goes with --players 3 or 6"),
        (["--players", "6", "--sprt", "bsd", "random", "first"], "--sprt is not played at --players 6"),
    ],
)
def test_what_the_larger_tables_refuse_is_one_line(args: list[str], says: str) -> None:
    done = _match(*args)
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert says in last and "Traceback" not in done.stderr


def test_sprt_at_four_seats_decides_on_the_sets_as_duplicate_pairs() -> None:
    """A partnership of the original's procedure against random play: H1, well before the cap."""
    report = run_match(
        "bsd",
        "random",
        seats=4,
        games=400,
        options=RunOptions(seed=1, game_points=FAST, jobs=1),
        sprt=SprtSettings(elo1=100),
    )
    block = report["sprt"]
    assert block["accepted"] == "H1" and block["pairs"] == report["sets"] < 200
    assert "H1 accepted" in format_table_report(report)
    with pytest.raises(ValueError, match="two sides"):
        run_match("bsd", "random", "first", seats=3, games=3, sprt=SprtSettings())
    # ... in set order, wherever the sets are played.
    options = RunOptions(seed=9, game_points=FAST)
    duel = {"seats": 4, "games": 200, "sprt": SprtSettings(elo1=100)}
    serial = run_match("bsd", "random", options=replace(options, jobs=1), **duel)  # type: ignore[arg-type]
    pooled = run_match("bsd", "random", options=replace(options, jobs=2), **duel)  # type: ignore[arg-type]
    assert serial["sets"] == pooled["sets"] and serial["sprt"] == pooled["sprt"]


def test_ctrl_c_reports_the_sets_finished(spies: Any) -> None:
    report = run_match(
        "table_spies:CtrlCInTheSecondSet",
        "bsd",
        seats=4,
        games=6,
        options=RunOptions(seed=1, game_points=FAST, jobs=1),
    )
    assert report["interrupted"] and report["sets"] == 1 and report["games"] == 2
    assert "interrupted" in format_table_report(report)
    none = run_match("table_spies:CtrlCInTheSecondSet", "bsd", seats=4, games=6, options=RunOptions(jobs=1))
    assert none["interrupted"] and none["sets"] == 0 and none["per_player"][0]["game_score"] is None
    assert "no set finished" in format_table_report(none)


@pytest.mark.parametrize(("seats", "players"), [(4, ["bsd", "random"]), (3, ["bsd", "random", "first"])])
def test_a_record_of_a_table_match_replays_and_a_changed_move_is_caught(
    seats: int, players: list[str], tmp_path: Path
) -> None:
    record = tmp_path / "games.jsonl"
    done = _match("--players", str(seats), *players, "--games", "4", "--seed", "3", "--record", str(record))
    assert done.returncode == 0, done.stderr
    replayed = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(record), "--check"], capture_output=True, text=True, timeout=120
    )
    assert replayed.returncode == 0, replayed.stderr
    games = 4 if seats == 4 else 6  # whole sets: two rotations at 4 seats, three at 3
    assert replayed.stdout.strip() == f"{games} games replayed: every move legal, every score as recorded"
    listing = subprocess.run([sys.executable, "-m", "mille.replay", str(record)], capture_output=True, text=True)
    assert listing.returncode == 0 and f"at the table of {seats}, {games} games" in listing.stdout
    lines = record.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["seats"] == seats and header["players"] == players
    if seats == 3:  # three sides: a hazard names the side it goes to
        assert any(len(m) == 5 for line in lines[1:] for h in json.loads(line)["hands"] for m in h["moves"])
    game = json.loads(lines[1])
    move = next(m for h in game["hands"] for m in h["moves"] if m[1] == "discard")
    move[3] = 99 if move[3] != 99 else 98  # a card the seat does not hold
    record.write_text("\n".join([lines[0], json.dumps(game), *lines[2:]]) + "\n")
    caught = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(record), "--check"], capture_output=True, text=True, timeout=120
    )
    assert caught.returncode == 1 and "line 2: hand" in caught.stderr and "Traceback" not in caught.stderr
    record.write_text(lines[0] + "\n" + json.dumps({"seats": 4, "hands": 7}) + "\n")
    damaged = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(record), "--check"], capture_output=True, text=True, timeout=120
    )
    assert damaged.returncode == 1 and "line 2: a damaged table game" in damaged.stderr


def test_the_simulator_refuses_a_protocol_1_bot_at_four_seats_in_one_line(tmp_path) -> None:
    """The tiny bot of protocol 1 (its hello says 1 alone): one line naming it, before a hand is played."""
    tiny = TINY_BOT
    bot = f"exec:{sys.executable} {tiny} tiny {tmp_path / 'counts'}"
    done = subprocess.run(
        [sys.executable, "-m", "mille.sim", "--players", "4", "--seat", bot, "--hands", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{bot}: its hello says protocol 1 alone" in done.stderr.strip().splitlines()[-1]
