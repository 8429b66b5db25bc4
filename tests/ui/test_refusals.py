"""What must be refused, or accepted, and said clearly: saves that could trap the game, limits,
foreign files, seeds, names, links and plug-ins.

* A save that passes validation must be playable: hands that can never be
  refilled (the seats would pass to each other forever), a hand the end
  test would have ended, the computer's own ``Extension?`` left open, and
  hands with holes are refused (the invariants are the engine's,
  :mod:`mille.engine.position`, except the last of the save format's).
* What the writer can produce the reader accepts (the games count).
* A save file of the original program is named as such.
* ``--seed`` outside the original's range is refused with the range.
* Names from the command line are printed escaped.
* A dangling symbolic link at a save name is asked about like any existing
  name; a link into another user's files is refused.
* A plug-in's directory is on ``sys.path`` for its own import only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import REPO, SRC, TESTS
from helpers import ui as H
from helpers.ptyreplay import PtySession
from helpers.saves import SAVES, computer_at_extension
from mille.engine import cards, position, rules
from mille.engine.observation import observe
from mille.engine.rules import PASS, Phase
from mille.engine.state import Game
from mille.files import save
from mille.players import make_player
from mille.players.bsd import BsdPlayer
from mille.ui.layout import COMPUTER, YOU

#: A save file written by the real /usr/games/mille (Debian bsdgames 2.17,
#: amd64), seed 7, saved at the first move prompt: ``s``, ``g1``, RETURN.
ORIGINAL_SAVE = os.path.join(TESTS, "saves_bsd", "seed7-first-move.sav")


def sample(name: str = "mid-hand") -> dict:
    with open(os.path.join(SAVES, f"{name}.json"), encoding="utf-8") as f:
        return json.load(f)


def refusal(data: dict) -> str:
    with pytest.raises(save.SaveError) as info:
        save.loads(json.dumps(data))
    return str(info.value)


def run_mille(*args: str, cwd: str = REPO) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run(
        [sys.executable, "-m", "mille", *args],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


# --------------------------------------------------------------------------
# Saves that would trap the game


def test_both_hands_empty_with_cards_left_is_refused():
    """The issue's trap: both seats pass to each other forever (90% CPU, signals ignored)."""
    data = sample()
    assert data["deck_count"] > 0
    for p in data["players"]:
        p["hand"] = [None] * cards.HAND_SIZE
    assert refusal(data) == "players[0].hand: 0 cards with cards left to draw (the player to move holds at least 4)"


def test_a_hand_too_small_for_the_deck_is_refused():
    data = sample()
    data["players"][1]["hand"] = [None, None, None, None, "Go", "100", "100"]  # three cards, not to move
    assert refusal(data) == (
        "players[1].hand: 3 cards with cards left to draw (the player not to move holds at least 5)"
    )


def test_a_hand_with_a_hole_is_refused():
    data = sample()
    hand = data["players"][1]["hand"]
    hand[0], hand[3] = hand[3], None  # the tidy-up never leaves a card before an empty slot
    assert refusal(data) == "players[1].hand: an empty slot after a card (the tidy-up leaves the empty slots first)"


def test_an_empty_deck_with_nothing_playable_must_be_finished():
    """The end test runs after every move with the deck empty (§3.8); such a hand cannot go on."""
    ended = None
    for seed in range(200):  # a real hand that ended because nothing could be played
        g = Game()
        g.rng.seed(seed)
        rules.start_hand(g)
        players = (BsdPlayer(), BsdPlayer())
        while rules.phase(g) is not Phase.HAND_OVER:
            if rules.phase(g) is Phase.EMPTY_HAND:
                rules.push(g, PASS)
            else:
                rules.push(g, players[g.to_move].choose(observe(g, g.to_move), g.rng))
        if g.deck_count == 0 and all(p.mileage < g.trip_length for p in g.players):
            ended = g
            break
    assert ended is not None
    game = ended.copy()
    game.finished = False  # edited: the hand "goes on" with nothing left to play
    game.to_move = YOU
    with pytest.raises(position.InvalidPosition) as info:
        position.check(game)
    assert info.value.field == "finished"
    assert refusal(save.to_dict(game)).startswith(
        "finished: false, but the deck is empty and nobody holds a safety or a card"
    )


def test_the_computers_open_extension_is_refused():
    """The game saves only at your prompts: a file holding the computer's question is damaged or edited.

    Loaded, it corrupted the game (your card vanished, the computer's
    counted card was played twice, and the next save was refused).
    """
    game = computer_at_extension()
    position.check(game)  # a position the rules reach ...
    assert refusal(save.to_dict(game)) == (
        "pending_extension: set with the computer to move (only your own Extension? can be saved)"
    )  # ... but never one a save holds


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_mille_refuses_the_trapped_save_instead_of_hanging(tmp_path):
    data = sample()
    for p in data["players"]:
        p["hand"] = [None] * cards.HAND_SIZE
    (tmp_path / "trap.json").write_text(json.dumps(data))
    with PtySession([sys.executable, "-m", "mille", "trap.json"], env={"PYTHONPATH": SRC}, cwd=str(tmp_path)) as s:
        s.start()
        end = s.wait_exit(30)
    assert end.exited and end.rc == 1, end.screen
    assert "".join(end.screen).strip() == "mille: trap.json: " + refusal(data)


# --------------------------------------------------------------------------
# Write and read agree


def test_a_games_count_past_9999_is_written_and_read():
    game = save.read_game(os.path.join(SAVES, "end-of-hand.json")).game
    you = game.players[YOU]
    you.games = 9999
    you.total = you.hand_total + 4999  # this hand takes you past 5000: the game is won
    assert rules.game_over(game) and you.total > game.players[COMPUTER].total
    rules.settle_game(game)
    assert you.games == 10000
    assert save.loads(save.dumps(game)).game.players[YOU].games == 10000


def test_the_writer_never_records_more_games_than_the_reader_accepts():
    game = save.read_game(os.path.join(SAVES, "end-of-hand.json")).game
    game.players[YOU].games = save.MAX_GAMES + 5  # beyond the original's int
    assert save.loads(save.dumps(game)).game.players[YOU].games == save.MAX_GAMES
    data = save.to_dict(game)
    data["players"][0]["games"] = save.MAX_GAMES + 1
    assert refusal(data) == f"players[0].games: {save.MAX_GAMES + 1} is out of range (0..{save.MAX_GAMES})"


# --------------------------------------------------------------------------
# A save file of the original program


def test_an_original_save_file_is_named_as_such(tmp_path):
    with open(ORIGINAL_SAVE, "rb") as f:
        data = f.read()
    assert len(data) == save.ORIGINAL_SAVE_SIZE
    with pytest.raises(save.SaveError) as info:
        save.loads(data)
    assert str(info.value) == "a save file of the original program (4.4BSD mille), which this mille cannot read"
    res = run_mille(ORIGINAL_SAVE)
    assert res.returncode == 1
    assert res.stderr.decode() == (
        f"mille: {ORIGINAL_SAVE}: a save file of the original program (4.4BSD mille), which this mille cannot read\n"
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_a_fresh_save_of_the_real_program_is_recognised(tmp_path):
    """Made now by /usr/games/mille at another moment of a game (skipped without it)."""
    if not os.path.exists("/usr/games/mille"):
        pytest.skip("needs /usr/games/mille")
    with PtySession(["/usr/games/mille"], cwd=str(tmp_path)) as s:
        s.start()
        for keys in ("p", "d1\r", "p", "s", "orig\r", "q", "y"):
            s.step(keys)
        s.wait_exit(30)
    data = (tmp_path / "orig").read_bytes()
    assert save.is_original_save(data)
    with pytest.raises(save.SaveError, match="original program"):
        save.loads(data)


def test_other_binary_files_are_not_mistaken_for_original_saves():
    with open(ORIGINAL_SAVE, "rb") as f:
        data = bytearray(f.read())
    assert not save.is_original_save(bytes(data[:-1]))  # the size is part of the shape
    data[3:7] = (701).to_bytes(4, "little")  # End is 700 or 1000
    assert not save.is_original_save(bytes(data))
    data[3:7] = (1000).to_bytes(4, "big")  # a big-endian machine's file
    assert save.is_original_save(bytes(data))
    data[1] = 2  # the flags are 0 or 1
    assert not save.is_original_save(bytes(data))


# --------------------------------------------------------------------------
# The command line: seeds and names


@pytest.mark.parametrize("value", ["-1", "0", "2147483648", "4294967296", "1" * 20, "1_000", "+5", " 5", "x"])
def test_a_seed_outside_the_original_range_is_refused(value):
    res = run_mille("--seed", value)
    assert res.returncode == 1
    err = res.stderr.decode()
    assert "usage: mille" in err
    assert "give a whole number from 1 to 2147483647 (the original seeds its dealer with its process ID" in err
    assert "must be a terminal" not in err  # refused before anything else


@pytest.mark.parametrize("value", ["1", "2147483647"])
def test_seeds_at_the_ends_of_the_range_are_taken(value):
    res = run_mille("--seed", value)
    assert res.stderr.decode() == "mille: standard input and output must be a terminal (mille --plain plays in lines)\n"


def test_a_file_name_is_printed_escaped():
    res = run_mille("\x1b[2J\x1b]0;owned\x07no-such-file")
    assert res.returncode == 1
    assert res.stderr == b"mille: \\x1b[2J\\x1b]0;owned\\x07no-such-file: No such file or directory\n"


def test_usage_errors_print_arguments_escaped():
    res = run_mille("a", "\x1b[31mb")
    assert res.returncode == 1
    assert b"\x1b" not in res.stderr and b"\\x1b[31mb" in res.stderr


# --------------------------------------------------------------------------
# Symbolic links at a save name


def save_dialog(steps: list[str], tmp_path) -> list[list[str]]:
    """The screens after each step of a save dialog in ``tmp_path`` (a fresh game of seed 5)."""
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        snaps, _app, _vt = H.vt_replay(5, steps, save_writer=save.write_game)
    finally:
        os.chdir(cwd)
    return [snap["screen"] for snap in snaps]


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_dangling_link_is_asked_about_like_an_existing_file(tmp_path):
    os.symlink("elsewhere.json", tmp_path / "g")
    screens = save_dialog(["s", "g\r", "n"], tmp_path)
    assert screens[2][10][20:40].rstrip() == "Overwrite file?"
    assert not (tmp_path / "elsewhere.json").exists()
    screens = save_dialog(["s", "g\r", "y"], tmp_path)
    assert screens[3][15][45:48] == "g ["  # saved: "g [date]"
    assert os.path.islink(tmp_path / "g")  # the link stays; the file it names is written
    assert save.read_game(str(tmp_path / "elsewhere.json")).game.deck_count == 89


needs_root = pytest.mark.skipif(
    os.name != "posix" or os.geteuid() != 0, reason="making files of another user needs root"
)
NOBODY = 65534


@needs_root
@pytest.mark.parametrize("what", ["link", "target", "directory"])
def test_a_link_into_another_users_files_is_refused(tmp_path, what):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    target = theirs / "game.json"
    if what != "directory":
        target.write_text("their file")
    os.symlink(target, tmp_path / "g")
    if what == "link":
        os.lchown(tmp_path / "g", NOBODY, NOBODY)
    elif what == "target":
        os.chown(target, NOBODY, NOBODY)
    else:
        os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(PermissionError) as info:
        save.write_game(str(tmp_path / "g"), Game())
    assert info.value.strerror == "Link into another user's files"
    assert sorted(os.listdir(theirs)) == ([] if what == "directory" else ["game.json"])
    if what != "directory":
        assert target.read_text() == "their file"


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_link_to_your_own_file_is_followed(tmp_path):
    os.symlink("real.json", tmp_path / "g")
    save.write_game(str(tmp_path / "g"), save.read_game(os.path.join(SAVES, "mid-hand.json")).game)
    assert os.path.islink(tmp_path / "g") and save.read_game(str(tmp_path / "real.json")).game.deck_count == 47


# --------------------------------------------------------------------------
# Plug-ins


def test_the_plugin_directory_is_on_the_path_for_its_import_only(tmp_path, monkeypatch):
    """A stray module in the current directory must not shadow anything after the plug-in is loaded."""
    (tmp_path / "my_bot_for_path_test.py").write_text(
        "import stray_module_for_path_test as helper\n"
        "class Bot:\n"
        "    def choose(self, observation, rng):\n"
        "        return observation.legal_moves()[helper.INDEX]\n"
    )
    (tmp_path / "stray_module_for_path_test.py").write_text("INDEX = 0\n")
    (tmp_path / "stray_after_import.py").write_text("raise AssertionError('imported from the plug-in directory')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path), os.curdir)])
    before = list(sys.path)
    player = make_player("my_bot_for_path_test:Bot")  # its own imports see its directory
    assert callable(player.choose)
    assert sys.path == before  # ... and nothing after
    with pytest.raises(ModuleNotFoundError):
        __import__("stray_after_import")
