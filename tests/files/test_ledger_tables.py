"""The record of games per table: a 3-, 4- or 6-seat game's events name the table; --stats counts tables apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from mille.engine import driver, rules
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.files import ledger, tally
from mille.files.recorder import Recorder, position_key
from mille.players.bsd import BsdPlayer


def _whole_game(path: str, seats: int, seed: int) -> Game:
    """A game to 1000 points at ``seats``, every hand told to a recorder, as the interactive game tells it."""
    recorder = Recorder(path)
    game = Game(table=table(seats, game_points=1000), rng=GlibcRandom(seed))
    players = [BsdPlayer() for _ in range(seats)]
    dice = [GlibcRandom(seed + k) for k in range(seats)]
    while True:
        rules.start_hand(game)
        driver.play_hand(game, players, dice)
        recorder.moved()
        recorder.hand_over(game, "bsd")
        if rules.game_over(game):
            return game


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_game_at_a_table_is_recorded_under_its_table(tmp_path: Path, seats: int) -> None:
    path = str(tmp_path / "stats.jsonl")
    game = _whole_game(path, seats, 30 + seats)
    events = ledger.read_events(path)
    assert events and all(e["seats"] == seats for e in events)
    mine = game.players[0].total
    best_other = max(p.total for p in game.players[1 : game.table.sides])
    summary = tally.summarize(events)
    assert list(summary) == [f"bsd ({seats} seats)"]
    row = summary[f"bsd ({seats} seats)"]
    result = "won" if mine > best_other else "lost" if mine < best_other else "tied"
    assert row["games_played"] == 1 and row[f"games_{result}"] == 1
    assert row["best_margin"] == mine - best_other


def test_tables_are_separate_columns_two_seats_first(tmp_path: Path) -> None:
    path = str(tmp_path / "stats.jsonl")
    _whole_game(path, 4, 2)
    _whole_game(path, 2, 3)
    summary = tally.summarize(ledger.read_events(path))
    assert list(summary) == ["bsd", "bsd (4 seats)"]
    text = tally.format_table(summary, path)
    assert text.splitlines()[0].split() == ["computer", "bsd", "bsd", "(4", "seats)"]


def test_a_bad_table_in_an_event_is_a_damaged_line(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_bytes(ledger.HEADER + b'{"t":"hand","game":"a","n":1,"computer":"bsd","for":1,"against":2,"seats":5}\n')
    with pytest.raises(ledger.DamagedLedger, match='line 2: "hand" event with a bad "seats"'):
        ledger.read_events(str(path))


def test_the_position_key_tells_tables_apart_and_keeps_two_seats() -> None:
    two = Game(rng=GlibcRandom(8))
    rules.start_hand(two)
    # the key main gave this position before tables were recorded: a two-seat save made then is still found
    assert position_key(two) == "3a381ff876a103be8ac0dc3671643e7a"
    four = Game(table=table(4), rng=GlibcRandom(8))
    rules.start_hand(four)
    shorter = Game(table=table(4, game_points=2000), rng=GlibcRandom(8))
    rules.start_hand(shorter)
    assert position_key(four) != position_key(shorter)
