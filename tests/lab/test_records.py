"""--record FILE and python -m mille.replay: every move written, every game replayed to its recorded scores."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import DOCS, SRC
from mille.lab import gamelog, replay
from mille.lab.gamelog import RecordedGame, RecordError, parse_game, read_record
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.replay import Forfeit, check_game
from mille.lab.sprt import SprtSettings
from mille.lab.tournament import run_tournament

FAST = 1000  # game points: a game is a hand or two
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}

BOTS = textwrap.dedent(
    """
    from mille.engine.rules import Move, MoveType


    class DrawsTwice:
        '''Draws, then tries to draw again: refused ("already picked").'''

        def choose(self, observation, rng):
            return Move(MoveType.DRAW)


    class RaisesInHand2:
        def choose(self, observation, rng):
            if any(p.total > p.hand_total for p in observation.players):  # a hand has been scored
                raise RuntimeError("boom")
            return observation.legal_moves()[0]


    MADE = [0]


    def fails_in_games():
        # Makes a player when the match first checks it, then never again.
        MADE[0] += 1
        if MADE[0] > 1:
            raise ValueError("no player today")
        return DrawsTwice()
    """
)


@pytest.fixture
def bots(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    path = tmp_path_factory.mktemp("recbots")
    (path / "record_testbots.py").write_text(BOTS)
    monkeypatch.chdir(path)
    monkeypatch.syspath_prepend(str(path))
    yield


def games_of(path: Path) -> list[RecordedGame]:
    _, games, notes = read_record(path)
    found = list(games)
    assert notes == []
    return found


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = replay.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


# --------------------------------------------------------------------------
# Matches


def test_a_match_record_replays_to_the_report(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    report = run_match("bsd", "random", games=12, options=RunOptions(seed=3, jobs=1, game_points=FAST, record=path))
    header = lines_of(path)[0]
    assert header == {
        "format": "mille game record",
        "version": 1,
        "mille": header["mille"],
        "tool": "mille.match",
        "a": "bsd",
        "b": "random",
        "seed": 3,
        "game_points": FAST,
        "max_think_ms": None,
    }
    games = games_of(path)
    assert [(g.pair, g.game, g.second) for g in games] == [
        (p, 2 * p - 1 + s, bool(s)) for p in range(1, 7) for s in (0, 1)
    ]
    for g in games:
        check_game(g)  # every move legal, every hand's result and the final scores as recorded
        assert g.seats[g.a_seat] == "bsd" and g.seats[1 - g.a_seat] == "random" and g.a_seat == int(g.second)
    # The record's winners are the report's, pair by pair, and so are its hands.
    for pair in report["by_pair"]:
        first, second = games[2 * pair["pair"] - 2 : 2 * pair["pair"]]
        points = sum(1.0 if g.winner == "a" else 0.5 if g.winner is None else 0.0 for g in (first, second))
        assert points == pair["a_score"] and len(first.hands) + len(second.hands) == pair["hands"]
    # A move of every kind turns up, each hand's moves from both seats.
    kinds = {m[1] for g in games for h in g.hands for m in h["moves"]}
    assert {"draw", "play", "discard"} <= kinds


def test_the_record_does_not_depend_on_jobs(tmp_path: Path) -> None:
    """In pair order, whatever finished first: two processes on tasks of one pair write the same bytes."""
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = run_match("bsd", "bsd", games=16, options=RunOptions(seed=5, jobs=1, game_points=FAST, record=one))
    b = run_match(
        "bsd", "bsd", games=16, options=RunOptions(seed=5, jobs=2, pairs_per_task=1, game_points=FAST, record=two)
    )
    assert a["by_pair"] == b["by_pair"]
    assert one.read_bytes() == two.read_bytes()


def test_an_sprt_record_holds_the_report_games_only(tmp_path: Path) -> None:
    """Pairs played past the stop by other processes are in neither the report nor the record."""
    path = tmp_path / "s.jsonl"
    report = run_match(
        "bsd",
        "first",
        games=1000,
        sprt=SprtSettings(),
        options=RunOptions(seed=1, jobs=2, pairs_per_task=7, record=path),
    )
    assert report["sprt"]["accepted"] == "H1"
    games = games_of(path)
    assert len(games) == report["games"] == 2 * report["sprt"]["pairs"]
    for g in games[:4] + games[-2:]:
        check_game(g)


def test_a_real_match_of_5000_point_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    run_match("bsd", "bsd", games=2, options=RunOptions(seed=1, jobs=1, record=path))
    status, out, err = run_main([str(path), "--check"], capsys)
    assert (status, err) == (0, "") and out == "2 games replayed: every move legal, every score as recorded\n"
    status, out, _ = run_main([str(path), "--game", "2"], capsys)
    assert status == 0
    assert "game 2, the seat-swapped game of pair 1; 5000-point game" in out
    assert "Hand 1: seat 0 starts" in out and "Game over: " in out
    assert out.rstrip().endswith("Replayed: every move legal; the hands' results and final scores as recorded.")
    assert all(len(line) <= 79 for line in out.splitlines()[1:])  # (the first names the file)
    # Whose move, what, and each side's miles, battle and speed after it.
    move_line = next(line for line in out.splitlines() if line.startswith("   1 0 draws "))
    assert move_line.split("|")[1].split() == ["0", "-"]
    status, one_hand, _ = run_main([str(path), "--game", "2", "--hand", "2"], capsys)
    assert status == 0 and "Hand 2: seat 1 starts" in one_hand and "Hand 1:" not in one_hand


def test_forfeits_are_recorded_and_replayed(tmp_path: Path, bots: None, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.jsonl"
    report = run_match(
        "record_testbots:DrawsTwice", "bsd", games=2, options=RunOptions(seed=1, jobs=1, game_points=FAST, record=path)
    )
    assert len(report["errors"]) == 2
    for g, error in zip(games_of(path), report["errors"]):
        assert g.forfeit is not None and g.winner == "b"
        assert g.forfeit["kind"] == "illegal" and g.forfeit["message"] == error["message"]
        assert g.forfeit["hand"] == error["hand"] == len(g.hands) and g.hands[-1]["result"] is None
        events = list(replay.replay(g))
        assert isinstance(events[-1], Forfeit)
    status, out, _ = run_main([str(path), "--game", "1"], capsys)
    assert status == 0 and "Forfeit in hand 1: record_testbots:DrawsTwice (A), seat 0: illegal: chose P" in out
    status, out, _ = run_main([str(path)], capsys)
    assert "A forfeits in hand 1 (illegal)" in out
    # A player that cannot be made forfeits before any hand; one that raises in hand 2 after hand 1.
    path = tmp_path / "g.jsonl"
    run_match(
        "record_testbots:fails_in_games",
        "bsd",
        games=2,
        options=RunOptions(seed=1, jobs=1, game_points=FAST, record=path),
    )
    path2 = tmp_path / "h.jsonl"
    run_match(
        "record_testbots:RaisesInHand2",
        "bsd",
        games=2,
        options=RunOptions(seed=2, jobs=1, game_points=3000, record=path2),
    )
    for g in games_of(path) + games_of(path2):
        check_game(g)
    assert [len(g.hands) for g in games_of(path)] == [0, 0]
    assert any(g.forfeit is not None and g.forfeit["hand"] == 2 for g in games_of(path2))


# --------------------------------------------------------------------------
# Tournaments


def test_a_tournament_record_on_two_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    players = ["bsd", "first", "random"]
    report = run_tournament(
        players,
        games=6,
        resamples=20,
        options=RunOptions(seed=2, jobs=2, pairs_per_task=1, game_points=FAST, record=path),
    )
    header = lines_of(path)[0]
    assert header["tool"] == "mille.tournament" and header["players"] == players and header["pairs_per_pairing"] == 3
    games = games_of(path)
    assert sorted((g.a, g.b, g.game) for g in games) == sorted(
        (p["a"], p["b"], k) for p in report["pairings"] for k in range(1, 7)
    )
    by_game = {(g.a, g.b, g.game): g for g in games}
    for pairing in report["pairings"]:
        for pair in pairing["by_pair"]:
            two = [by_game[(pairing["a"], pairing["b"], 2 * pair["pair"] - 1 + s)] for s in (0, 1)]
            assert all(g.seed == pairing["seed"] for g in two)
            assert sum(1.0 if g.winner == "a" else 0.5 if g.winner is None else 0.0 for g in two) == pair["a_score"]
    status, out, err = run_main([str(path), "--check"], capsys)
    assert (status, err) == (0, "") and out.startswith("18 games replayed")
    status, _, err = run_main([str(path), "--game", "3"], capsys)
    assert status == 1 and "game 3 of several matches: name one with --pairing A B" in err
    status, out, _ = run_main([str(path), "--game", "3", "--pairing", "first", "random"], capsys)
    assert status == 0 and "first (A) against random (B)" in out
    status, out, _ = run_main([str(path), "--pairing", "bsd", "first"], capsys)
    assert status == 0 and out.splitlines()[0].endswith("6 games")


def test_a_resumed_tournament_records_what_it_plays(tmp_path: Path) -> None:
    out, first, second = tmp_path / "t.jsonl", tmp_path / "r1.jsonl", tmp_path / "r2.jsonl"
    players = ["bsd", "first"]
    run_tournament(
        players, games=4, out=out, resamples=0, options=RunOptions(seed=2, jobs=1, game_points=FAST, record=first)
    )
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]))  # one pair of two kept
    report = run_tournament(
        players, games=4, resume=out, resamples=0, options=RunOptions(seed=2, jobs=1, game_points=FAST, record=second)
    )
    assert report["resumed_pairs"] == 1
    assert [(g.pair, g.game) for g in games_of(second)] == [(2, 3), (2, 4)]
    assert lines_of(second)[1:] == lines_of(first)[3:]  # the same games, move for move


def test_record_refuses_an_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mille.lab import match, tournament

    path = tmp_path / "there.jsonl"
    path.write_text("keep me\n")
    for main in (match.main, tournament.main):
        with pytest.raises(SystemExit) as exc:
            main(["bsd", "first", "--games", "2", "--record", str(path)])
        assert exc.value.code == 2
        assert "--record" in capsys.readouterr().err
    with pytest.raises(RecordError, match="the file exists"):
        run_match("bsd", "first", games=2, options=RunOptions(jobs=1, record=path))
    assert path.read_text() == "keep me\n"


# --------------------------------------------------------------------------
# Damaged and hostile records


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    path = tmp_path_factory.mktemp("good") / "g.jsonl"
    run_match("bsd", "random", games=4, options=RunOptions(seed=7, jobs=1, game_points=FAST, record=path))
    return path.read_bytes().splitlines(keepends=True)


def damage(lines: list[bytes], number: int, change: Any) -> bytes:
    """The record with line ``number`` (1-based) changed by ``change`` (on its JSON, or the bytes themselves)."""
    out = list(lines)
    if isinstance(change, bytes):
        out[number - 1] = change
    else:
        data = json.loads(lines[number - 1])
        change(data)
        out[number - 1] = (json.dumps(data) + "\n").encode()
    return b"".join(out)


def _first_play(data: dict[str, Any]) -> list[Any]:
    return next(m for m in data["hands"][0]["moves"] if m[1] == "play")


def _swap_card(data: dict[str, Any]) -> None:
    move = _first_play(data)
    move[3] = (move[3] + 1) % 19


def _bump_total(data: dict[str, Any]) -> None:
    data["hands"][0]["result"]["totals"][0] += 25


def _drop_last_move(data: dict[str, Any]) -> None:
    data["hands"][-1]["moves"].pop()


def _illegal_discard_of_nothing(data: dict[str, Any]) -> None:
    data["hands"][0]["moves"].insert(1, [data["hands"][0]["starter"], "draw", 3])


def _wrong_seat(data: dict[str, Any]) -> None:
    data["hands"][0]["moves"][0][0] = 1 - data["hands"][0]["moves"][0][0]


def _winner(data: dict[str, Any]) -> None:
    data["winner"] = "b" if data["winner"] == "a" else "a"


def _deal_seed(data: dict[str, Any]) -> None:
    data["hands"][0]["deal_seed"] += 1


def _bool_seat(data: dict[str, Any]) -> None:
    data["a_seat"] = True


def _kind_list(data: dict[str, Any]) -> None:
    data["hands"][0]["moves"][0][1] = ["draw"]


@pytest.mark.parametrize(
    ("number", "change", "needle"),
    [
        (3, _swap_card, "line 3: hand 1, move "),
        (2, _bump_total, "line 2: hand 1: the replay ends the hand with "),
        (4, _drop_last_move, "line 4: hand "),
        (2, _illegal_discard_of_nothing, "line 2: hand 1, move 2: "),
        (2, _wrong_seat, "line 2: hand 1, move 1: seat "),
        (5, _winner, "line 5: the replay's winner is"),
        (2, _deal_seed, "line 2: hand 1: deal seed"),
        (3, _bool_seat, "line 3: a_seat is 0 or 1"),
        (3, _kind_list, "line 3: hand 1: a move is [seat, kind, ...]"),
        (3, b'{"a": 1}\n', "line 3: a game has exactly the fields"),
        (4, b"not json at all\n", "line 4: not JSON"),
        (2, b"[" * 100_000 + b"]" * 100_000 + b"\n", "line 2: nested too deeply"),
        (2, b'{"x": ' + b"9" * 5000 + b"}\n", "line 2: not JSON"),
        (2, b"\xff\xfe\n", "line 2: not JSON"),
        (1, b'{"format": "mille.tournament results", "version": 1}\n', "line 1: not a mille game record"),
        (1, b'{"format": "mille game record", "version": 99}\n', "line 1: a game record of format version 99"),
    ],
)
def test_a_damaged_record_is_refused_with_its_line(
    good: list[bytes], tmp_path: Path, number: int, change: Any, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(damage(good, number, change))
    for argv in ([str(path), "--check"], [str(path), "--game", str(max(1, number - 1))]):
        status, out, err = run_main(argv, capsys)
        assert status == 1 and out == ""
        assert err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith(f"mille.replay: {path}, ") and needle in err


def test_a_line_cut_short_at_the_end_is_left_out(
    good: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(good[:-1]) + good[-1][: len(good[-1]) // 2])
    status, out, err = run_main([str(path), "--check"], capsys)
    assert status == 0 and out.startswith("3 games replayed")
    assert "line 5 is cut short (no newline at the end of the file): left out" in err


def test_files_that_are_not_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    for path, needle in (
        (fifo, "not a regular file (a FIFO)"),
        (tmp_path, "Is a directory"),
        (tmp_path / "missing", "No such file or directory"),
        (empty, "is empty: not a mille game record"),
    ):
        status, out, err = run_main([str(path)], capsys)
        assert status == 1 and out == "" and needle in err and err.count("\n") == 1


def test_strings_from_a_record_reach_the_terminal_escaped(
    good: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = "bsd\x1b]0;owned\x07"

    def rename(data: dict[str, Any]) -> None:
        data["a"] = evil
        data["seats"][data["a_seat"]] = evil

    lines = [damage(good, k, rename).splitlines(keepends=True)[k - 1] if k > 1 else good[0] for k in range(1, 6)]
    path = tmp_path / "evil.jsonl"
    path.write_bytes(b"".join(lines))
    for argv in ([str(path)], [str(path), "--game", "1"], [str(path), "--game", "9", "--pairing", evil, "x"]):
        _, out, err = run_main(argv, capsys)
        assert "\x1b" not in out + err and "\x07" not in out + err
    _, out, _ = run_main([str(path), "--game", "1"], capsys)
    assert "bsd\\x1b]0;owned\\x07 (A)" in out


def test_random_damage_is_refused_in_one_line_or_replayed(good: list[bytes]) -> None:
    """Values anywhere in a game's JSON replaced by values of any type: a RecordError or a clean replay, never else."""
    rng = random.Random(31)
    values: list[Any] = [None, True, -1, 0, 1, 2, 6, 7, 19, 2**40, 1.5, "draw", "x\x1b", [], {}, [0, "pass"]]

    def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        yield prefix
        if isinstance(value, dict):
            for k, v in value.items():
                yield from paths(v, (*prefix, k))
        elif isinstance(value, list):
            for k, v in enumerate(value):
                yield from paths(v, (*prefix, k))

    base = json.loads(good[2])
    spots = list(paths(base))[1:]
    refused = 0
    for _ in range(400):
        data = json.loads(good[2])
        for _ in range(rng.choice((1, 1, 2))):
            spot = rng.choice(spots)
            target = data
            try:
                for key in spot[:-1]:
                    target = target[key]
                target[spot[-1]] = rng.choice(values)
            except (KeyError, IndexError, TypeError):
                continue
        try:
            check_game(parse_game(3, data))
        except RecordError as exc:
            assert str(exc).startswith("line 3: ") and "\n" not in str(exc)
            refused += 1
    assert refused > 300


def test_the_command_line(tmp_path: Path) -> None:
    """python -m mille.match --record, then python -m mille.replay on it, as a person would."""
    path = tmp_path / "cli.jsonl"
    made = subprocess.run(
        [sys.executable, "-m", "mille.match", "bsd", "first", "--games", "2", "--seed", "1", "--jobs", "1"]
        + ["--record", str(path)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    shown = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(path), "--game", "1"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0 and shown.stderr == ""
    assert shown.stdout.startswith(f"mille.replay: {path}, line 2: bsd (A) against first (B), seed 1\n")
    assert gamelog.FORMAT in path.read_text().splitlines()[0]


def test_the_documented_replay_is_what_the_program_prints(tmp_path: Path) -> None:
    """docs/bots.md's replay is game 3 of ``mille.match bsd bsd --seed 1 --record``."""
    from mille.lab.replay import format_game

    text = (Path(DOCS) / "bots.md").read_text()
    marker = "or the forfeit:\n\n```\n"
    block = text[text.index(marker) + len(marker) :].split("```", 1)[0].splitlines()
    head, tail = block[: block.index("...")], block[block.index("...") + 1 :]
    path = tmp_path / "doc.jsonl"
    run_match("bsd", "bsd", games=4, options=RunOptions(seed=1, jobs=1, record=path))
    game = next(g for g in games_of(path) if g.game == 3)
    printed = list(format_game(game, path=str(path)))
    start = printed.index(head[0])
    assert printed[start : start + len(head)] == head
    assert printed[-len(tail) :] == tail
