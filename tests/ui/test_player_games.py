"""Whole games through the interactive front end, and what the record of games counts.

A bot (``helpers.players.Bot``) sits at the virtual terminal and plays,
saves, quits or hangs up; it notes the points of every hand it sees
finished on the screen, independently of the record, and the tests
compare the record (:func:`mille.files.tally.summarize`) with what was played:
a game finished in one sitting, saved in the middle and resumed, hung up
and resumed, resumed twice from the same save, quit without saving.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from helpers.players import Bot, Table, new_game, resume
from helpers.ui import make_app
from mille.files import ledger


def expect(row: dict[str, Any], hands: list[tuple[int, int]], games: list[tuple[int, int]], abandoned: int = 0) -> None:
    """The record matches the hands and games the bot saw finish."""
    won = sum(a > b for a, b in games)
    lost = sum(a < b for a, b in games)
    assert row["games_played"] == len(games) + abandoned, row
    assert (row["games_won"], row["games_lost"], row["games_abandoned"]) == (won, lost, abandoned), row
    assert row["hands_played"] == len(hands), row
    assert row["hands_won"] == sum(a > b for a, b in hands), row
    assert (row["points_for"], row["points_against"]) == (sum(a for a, _ in hands), sum(b for _, b in hands)), row
    if games:
        assert row["best_margin"] == max(a - b for a, b in games), row


def test_a_game_played_to_the_end_in_one_sitting(tmp_path: Path) -> None:
    table = Table(tmp_path)
    bot = Bot(1)
    assert table.play(new_game(101), bot) == 0
    assert len(bot.finished_games) == 1 and len(bot.hands) >= 2
    expect(table.summary(), bot.hands, bot.finished_games)
    # Each hand's total adds up to the game's (the record sums hands, the game shows totals).
    assert sum(a for a, _ in bot.hands) == bot.finished_games[0][0]


def test_two_games_in_one_sitting_and_the_streak(tmp_path: Path) -> None:
    table = Table(tmp_path)
    bot = Bot(2, games=2)
    assert table.play(new_game(202), bot) == 0
    assert len(bot.finished_games) == 2
    row = table.summary()
    expect(row, bot.hands, bot.finished_games)
    results = [a > b for a, b in bot.finished_games]
    streak = 0
    longest = 0
    for won in results:
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    assert (row["current_streak"], row["longest_streak"]) == (streak, longest)
    events = ledger.read_events(table.path)
    assert len({e["game"] for e in events}) == 2


def test_saved_in_the_middle_and_resumed_counts_once(tmp_path: Path) -> None:
    table = Table(tmp_path)
    saved = str(tmp_path / "middle.json")
    first = Bot(3, plan={150: f"save:{saved}", 151: "quit"})
    assert table.play(new_game(303), first) == 0
    assert first.finished_games == [] and os.path.exists(saved)
    # Saved and left: not abandoned, not yet played.
    row = table.summary()
    assert row["games_played"] == 0 and row["saved_unfinished"] == 1
    second = Bot(4)
    assert table.play(resume(saved, 404), second, from_file=saved) == 0
    assert len(second.finished_games) == 1
    hands = first.hands + second.hands
    expect(table.summary(), hands, second.finished_games)
    assert table.summary()["saved_unfinished"] == 0
    # One game under one name, its hands numbered 1.. without a gap or a repeat.
    events = ledger.read_events(table.path)
    assert len({e["game"] for e in events}) == 1
    assert [e["n"] for e in events if e["t"] == "hand"] == list(range(1, len(hands) + 1))


def test_hung_up_and_resumed_counts_once(tmp_path: Path) -> None:
    table = Table(tmp_path)
    first = Bot(5, plan={120: "hangup"})
    assert table.play(new_game(505), first) == 1
    assert os.path.exists(table.hangup_file)
    assert table.summary()["games_played"] == 0
    second = Bot(6)
    assert table.play(resume(table.hangup_file, 606), second, from_file=table.hangup_file) == 0
    expect(table.summary(), first.hands + second.hands, second.finished_games)


def test_resumed_twice_from_one_save_counts_once(tmp_path: Path) -> None:
    """Playing on again from a save already played past does not count again."""
    table = Table(tmp_path)
    saved = str(tmp_path / "s.json")
    first = Bot(7, plan={100: f"save:{saved}"})
    assert table.play(new_game(707), first) == 0  # saved, played on to the end
    assert len(first.finished_games) == 1
    before = table.summary()
    expect(before, first.hands, first.finished_games)
    again = Bot(8)
    assert table.play(resume(saved, 808), again, from_file=saved) == 0
    assert len(again.finished_games) == 1
    assert table.summary() == before


def test_quit_without_saving_is_abandoned_and_a_save_played_past_then_finished_is_not(tmp_path: Path) -> None:
    table = Table(tmp_path)
    saved = str(tmp_path / "s.json")
    first = Bot(9, plan={80: f"save:{saved}", 200: "quit"})
    assert table.play(new_game(909), first) == 0
    row = table.summary()
    assert (row["games_played"], row["games_abandoned"]) == (1, 1)
    expect(row, first.hands, [], abandoned=1)
    # Resumed from the save made before the quit, and finished: one game, finished.
    second = Bot(10)
    assert table.play(resume(saved, 1010), second, from_file=saved) == 0
    row = table.summary()
    assert (row["games_played"], row["games_abandoned"]) == (1, 0)
    assert row["games_won"] + row["games_lost"] == 1


def test_quitting_before_playing_records_nothing_and_a_restore_left_at_once_is_still_saved(tmp_path: Path) -> None:
    table = Table(tmp_path)
    assert table.play(new_game(11), Bot(11, plan={1: "quit"})) == 0
    assert not os.path.exists(table.path)
    saved = str(tmp_path / "s.json")
    assert table.play(new_game(12), Bot(12, plan={30: f"save:{saved}", 31: "quit"})) == 0
    assert table.play(resume(saved, 13), Bot(13, plan={1: "quit"}), from_file=saved) == 0
    row = table.summary()
    assert (row["games_played"], row["saved_unfinished"]) == (0, 1)


def test_without_a_record_nothing_is_written(tmp_path: Path) -> None:
    bot = Bot(14, plan={60: "quit"})
    app = make_app(bot, new_game(14))
    bot.app = app
    assert app.run() == 0 and app.stats is None
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# The real program: the command line wires the record, the saves and restores


def test_the_real_program_counts_a_saved_and_restored_game_once(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from helpers import terminal as T
    from helpers import ui as H

    state = tmp_path / "state"
    work = tmp_path / "work"
    work.mkdir()
    env = {"XDG_STATE_HOME": str(state)}

    def session(*args: str, keys: list[str], hangup: bool = False) -> int | None:
        """Play ``keys``; the status, or None with ``hangup``: run by a shell whose terminal then goes away."""
        argv = T.in_a_shell(H.mille_argv(*args)) if hangup else H.mille_argv(*args)
        with H.Pty(argv, env=env, cwd=str(work)) as p:
            assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15), p.text()
            for k in keys:
                p.send(k)
                if k == "q":
                    assert p.wait_for(lambda s: s.lines()[10][20:27] == "Really?", timeout=15), p.text()
                elif k != "y":
                    assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15), p.text()
            if hangup:
                game_pid = T.game_under(p.pid or 0)
                p.close_master()  # an ssh drop: the terminal goes away under the shell
                T.wait_gone(game_pid)
                return None
            return p.wait_exit(60)

    def stats() -> dict[str, Any]:
        shown = subprocess.run(
            [sys.executable, "-m", "mille", "--stats", "--json"],
            env={**os.environ, "PYTHONPATH": H.MILLE_PATH, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert shown.returncode == 0, shown.stderr
        return dict(json.loads(shown.stdout)["computers"].get("bsd", {}))

    # Play a move, save, quit: saved, not abandoned.
    assert session("--seed", "5", keys=["p", "sg.json\r", "q", "y"]) == 0
    assert (stats()["games_played"], stats()["saved_unfinished"]) == (0, 1)
    # Restore, quit at once: still only saved.
    assert session("g.json", "--seed", "6", keys=["q", "y"]) == 0
    assert (stats()["games_played"], stats()["saved_unfinished"]) == (0, 1)
    # Restore, play, hang up: saved again (the hangup file), under the same game.
    assert session("g.json", "--seed", "6", keys=["d1 "], hangup=True) is None
    [hangup] = [name for name in os.listdir(state / "mille") if name.startswith("hangup-")]
    assert (stats()["games_played"], stats()["saved_unfinished"]) == (0, 1)
    # Restore the hangup file, play, quit without saving: one game, abandoned.
    assert session(str(state / "mille" / hangup), "--seed", "7", keys=["p", "q", "y"]) == 0
    row = stats()
    assert (row["games_played"], row["games_abandoned"], row["saved_unfinished"]) == (1, 1, 0)
    events = ledger.read_events(str(state / "mille" / "stats.jsonl"))
    assert len({e["game"] for e in events}) == 1
