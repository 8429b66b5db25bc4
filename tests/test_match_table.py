"""The lab at the larger tables: ``mille.match --players 3|4|6``, each deal played in every rotation of the sides."""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from mille.engine.state import table
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.records import side_of
from mille.lab.report import format_table_report
from mille.lab.sprt import SprtSettings
from mille.lab.tabletournament import format_table_tournament, run_table_tournament

FAST = 1000  # game points: a game is a hand or two

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


def test_every_player_sits_once_on_every_side() -> None:
    for sides in (2, 3):
        for player in range(sides):
            assert sorted(side_of(player, r, sides) for r in range(sides)) == list(range(sides))
        for r in range(sides):
            assert sorted(side_of(p, r, sides) for p in range(sides)) == list(range(sides))


@pytest.mark.parametrize("seats", [3, 4, 6])
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
            ["--players", "4", "bsd", f"exec:{sys.executable} {Path(__file__).with_name('protocol_bot.py')}"],
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


def test_a_tournament_at_three_seats_plays_every_group_of_three() -> None:
    players = ["bsd", "random", "first", "mille.players:RandomPlayer"]
    report = run_table_tournament(players, seats=3, games=3, options=RunOptions(seed=4, game_points=FAST, jobs=1))
    groups = [tuple(t["players"]) for t in report["tables"]]
    assert sorted(groups) == sorted(itertools.combinations(players, 3))
    assert len({t["seed"] for t in report["tables"]}) == 4  # each group its own deals
    for t in report["tables"]:
        assert sum(r["game_score"] for r in t["per_player"]) == pytest.approx(1.0)
    assert {r["player"]: r["tables"] for r in report["standings"]} == dict.fromkeys(players, 3)
    assert report["standings"][0]["player"] == "bsd"
    again = run_table_tournament(players, seats=3, games=3, options=RunOptions(seed=4, game_points=FAST, jobs=1))
    assert [t["per_player"] for t in again["tables"]] == [t["per_player"] for t in report["tables"]]
    assert "Tournament at the table of 3" in format_table_tournament(report)


def test_the_tournament_command_line_at_three_seats() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mille.tournament", "--players", "3", "bsd", "random", "first", "--games", "3"]
        + ["--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["seats"] == 3 and len(report["tables"]) == 1 and len(report["standings"]) == 3
    refused = subprocess.run(
        [sys.executable, "-m", "mille.tournament", "--players", "3", "bsd", "random", "first"]
        + ["--pairs-per-task", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert (
        refused.returncode == 2 and "--pairs-per-task is not played at --players 3" in refused.stderr.splitlines()[-1]
    )


def test_the_report_does_not_depend_on_where_the_sets_are_played() -> None:
    options = RunOptions(seed=9, game_points=FAST)
    timing = ("seconds",)

    def report(where: RunOptions, **kw: Any) -> dict[str, Any]:
        r = run_match("bsd", "random", "first", seats=3, games=9, options=where, **kw)
        return {k: v for k, v in r.items() if k not in timing}

    one = report(replace(options, jobs=1))
    assert report(replace(options, jobs=2)) == one
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        assert report(replace(options, executor=pool, workers=3)) == one
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
    tiny = str(Path(__file__).with_name("tiny_bot.py"))
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


@pytest.mark.parametrize(("seats", "players"), [(4, ["bsd", "random"]), (3, ["bsd", "random", "first"])])
def test_hands_takes_the_sets_in_order_until_that_many_hands(seats: int, players: list[str]) -> None:
    """``--hands N`` at the larger tables: the fewest sets, in order, that play N hands, wherever they are played."""
    options = RunOptions(seed=4, game_points=FAST)
    one = run_match(*players, seats=seats, hands=25, options=replace(options, jobs=1))
    two = run_match(*players, seats=seats, hands=25, options=replace(options, jobs=2))
    assert {**one, "seconds": 0} == {**two, "seconds": 0}
    sides = table(seats).sides
    fewer = run_match(*players, seats=seats, games=(one["sets"] - 1) * sides, options=replace(options, jobs=1))
    assert fewer["hands"] < 25 <= one["hands"]
    done = _match("--players", str(seats), *players, "--hands", "25", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] >= 25
