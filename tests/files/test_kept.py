"""Kept games do not pile up (issue 36): a resumed hangup file is spent once its game is safe elsewhere.

Real files and real programs (``mille --plain`` through pipes): a game kept
on a hangup (here the end of input, which is one), resumed and dropped
again before anything changed, stays in its file (no second file of the
same position); resumed and played on, then dropped, it goes to a new file
and the old one is removed; saved with ``s`` elsewhere, the kept file is
removed; quit without saving, it stays; a save the person named is never
touched; a kept file changed since it was resumed is never removed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import plain as P
from mille.engine import rules
from mille.engine.state import Game
from mille.files import kept, rescue, save

SEED = 4242


def kept_line(err: str) -> str:
    """The file named by the line on standard error that says where the game was kept."""
    [line] = [line for line in err.splitlines() if "is saved in" in line]
    return line.split("resume it with: mille --plain ", 1)[1]


def state_files(tmp_path: Path) -> list[str]:
    place = tmp_path / "state" / "mille"
    return sorted(n for n in os.listdir(place) if n.endswith(".json")) if place.exists() else []


def run(tmp_path: Path, args: list[str], lines: list[str]) -> P.Transcript:
    env = P.mille_env(str(tmp_path / "state"))
    return P.play_process(["--plain", "--no-stats", *args], P.Script(lines), cwd=str(tmp_path), env=env, timeout=60)


def first_kept(tmp_path: Path) -> str:
    """A new game, two moves, then the end of input: the game kept in a hangup file."""
    first = run(tmp_path, ["--seed", str(SEED)], ["p", "d 1", "p", P.EOF_ANSWER])
    assert first.status == 1, first.err
    path = kept_line(first.err)
    assert kept.is_kept_name(path) and os.path.isfile(path)
    return path


def test_a_resumed_game_dropped_at_once_stays_in_its_file(tmp_path: Path) -> None:
    path = first_kept(tmp_path)
    before = Path(path).read_bytes()
    again = run(tmp_path, [path], [P.EOF_ANSWER])
    assert again.status == 1, again.err
    assert kept_line(again.err) == path  # the same file: no second file of the same position
    assert state_files(tmp_path) == [os.path.basename(path)]
    assert Path(path).read_bytes() == before


def test_a_resumed_game_played_on_and_dropped_moves_to_a_new_file(tmp_path: Path) -> None:
    path = first_kept(tmp_path)
    again = run(tmp_path, [path], ["d 2", P.EOF_ANSWER])
    assert again.status == 1, again.err
    new = kept_line(again.err)
    assert new != path and os.path.isfile(new)
    assert not os.path.exists(path)  # spent: its game is in the new file
    assert state_files(tmp_path) == [os.path.basename(new)]
    # The new file is the game played on; resumed and quit without saving, it stays.
    assert save.read_game(new).game.players[0].mileage >= 0  # a whole save
    third = run(tmp_path, [new], ["q", "y"])
    assert third.status == 0, third.err
    assert os.path.isfile(new)  # quit without saving: the file still holds the game


def test_a_resumed_game_saved_elsewhere_spends_the_kept_file(tmp_path: Path) -> None:
    path = first_kept(tmp_path)
    mine = tmp_path / "mine.json"
    again = run(tmp_path, [path], ["s", "n", str(mine), "q", "y"])  # Same file? n
    assert again.status == 0, again.err
    assert f"The game is saved in {mine}" in "\n".join(again.lines)
    assert mine.is_file() and not os.path.exists(path)
    # A save the person named is never spent: resumed, played on, dropped.
    last = run(tmp_path, [str(mine)], ["d 2", P.EOF_ANSWER])
    assert last.status == 1, last.err
    assert mine.is_file() and os.path.isfile(kept_line(last.err))


def test_a_save_to_the_kept_file_itself_keeps_it(tmp_path: Path) -> None:
    path = first_kept(tmp_path)
    again = run(tmp_path, [path], ["d 2", "s", "y", "q", "y"])  # Same file? y
    assert again.status == 0, again.err
    assert os.path.isfile(path)
    assert state_files(tmp_path) == [os.path.basename(path)]


def test_a_kept_file_changed_since_the_resume_is_not_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    game = Game()
    game.rng.seed(5)
    rules.settle_game(game)
    rules.start_hand(game)
    made = rescue.keep_game(save.SavedGame(game)).path
    assert made is not None
    loaded = save.read_game(made).game
    resumed = kept.Resumed.note(made, loaded)
    assert resumed is not None and resumed.holds(loaded)
    Path(made).write_bytes(Path(made).read_bytes() + b" ")  # another run wrote it since
    assert not resumed.holds(loaded)
    assert not resumed.spend() and os.path.isfile(made)
    # Unchanged, it is spent once.
    again = kept.Resumed.note(made, save.read_game(made).game)
    assert again is not None and again.spend() and not os.path.exists(made)
    assert not again.spend()


@pytest.mark.parametrize(
    ("name", "is_kept"),
    [
        ("hangup-20261127-051500.json", True),
        ("/a/b/crash-20261127-051500-3.json", True),
        ("mille-hangup-20261127-051500-0123456789ab.json", True),
        ("mille-crash-20261127-051500-0123456789ab-2.json", True),
        ("hangup-20261127-051500.txt", False),
        ("hangup-2026112-051500.json", False),
        ("mygame.json", False),
        ("hangup-20261127-051500-x.json", False),
        ("save-20261127-051500.json", False),
    ],
)
def test_only_the_names_mille_gives_kept_games_count(name: str, is_kept: bool) -> None:
    assert kept.is_kept_name(name) is is_kept
    assert kept.Resumed.note(name, Game()) is None  # none of them exists here


def test_a_resumed_game_that_ends_spends_its_kept_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game over (5000 points reached), the kept file it was resumed from is removed; before, it is not."""
    from helpers.saves import extension_position
    from mille.engine.cards import is_distance

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    game, move = extension_position()
    assert is_distance(game.players[0].hand[move.slot])
    game.players[0].total += 4900  # the trip's points will take you past 5000
    made = rescue.keep_game(save.SavedGame(game)).path
    assert made is not None
    loaded = save.read_game(made).game
    resumed = kept.Resumed.note(made, loaded)
    slot = "p" if move.slot == 0 else str(move.slot)
    present: dict[str, bool] = {}

    class Watching(P.Script):
        def respond(self, prompt: str, heard: list[str]) -> str:
            present[prompt] = os.path.exists(made)
            return super().respond(prompt, heard)

    script = Watching([f"u {slot}", "n", "n", "n"])  # Extension? n; Another game? n; Save game? n
    status, *_ = P.play_here(0, script, game=loaded, restore=True, resumed=resumed)
    assert status == 0
    assert script.asked == ["Your move:", "Extension?", "Another game?", "Save game?"]
    assert present == {"Your move:": True, "Extension?": True, "Another game?": False, "Save game?": False}


def test_mille_kept_lists_where_the_kept_games_are_and_which_are_spent(tmp_path: Path) -> None:
    """``mille --kept``: each kept game, when, where it stands, and spent or not by the record of games."""
    import shutil
    import subprocess
    import sys

    env = P.mille_env(str(tmp_path / "state"))
    env["TMPDIR"] = str(tmp_path / "tmp")  # the temporary directory is a place kept games go: this test's own
    (tmp_path / "tmp").mkdir()

    def kept_listing() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "mille", "--kept"], capture_output=True, env=env, cwd=tmp_path, timeout=60
        )
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        return done.stdout.decode().splitlines()

    assert kept_listing()[0].startswith("No kept games (hangup or crash files) in ")
    first = P.play_process(
        ["--plain", "--seed", str(SEED)], P.Script(["p", "d 1", P.EOF_ANSWER]), cwd=str(tmp_path), env=env
    )
    path = kept_line(first.err)
    # Two copies as an older mille left them: the same position, kept again on each drop.
    place = Path(path).parent
    old, older = place / "hangup-20200101-000001.json", place / "hangup-20200101-000000.json"
    shutil.copy(path, old)
    shutil.copy(path, older)
    os.utime(old, (1577880001, 1577880001))  # 2020-01-01 12:00 UTC: that day in every zone
    os.utime(older, (1577880000, 1577880000))
    again = P.play_process(["--plain", path], P.Script(["p", P.EOF_ANSWER]), cwd=str(tmp_path), env=env)
    new = kept_line(again.err)
    assert not os.path.exists(path)  # spent and removed as it was spent
    lines = kept_listing()
    assert lines[0] == "3 kept games, newest first:"
    assert lines[1] == new and lines[4] == str(old) and lines[7] == str(older)
    assert lines[2].startswith("  kept ") and "in a hand of 700 miles (you 0, computer 0)" in lines[2]
    assert lines[3] == "  not resumed"
    assert lines[5].startswith("  kept 2020-01-01 ")  # local time: the day, whatever the zone's hour
    assert lines[6] == "  spent: resumed, and its game was kept or saved again since"
    assert lines[9] == f"  spent: the same position as {old}"
