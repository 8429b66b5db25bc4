"""Restores through the real front end on a pseudo-terminal (80x24, TERM=xterm).

``python3 -m mille FILE --seed N`` runs under curses on a pty whose output
feeds a pyte screen (tests/helpers/ptyreplay.py).  Checked: the restore banner, the
restored board, and the SIGHUP save that a later ``mille FILE`` resumes.
"""

from __future__ import annotations

import glob
import os
import signal
import sys
import time

import pytest

from helpers import REPO, SRC
from helpers import terminal as T
from helpers.ptyreplay import PtySession
from helpers.saves import EXIT_AFTER_SIGNAL_S, SAVES
from mille.engine import cards
from mille.engine.state import Game
from mille.files import save
from mille.ui.board import fit_message
from mille.ui.layout import COMPUTER, YOU

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")


def mille(*args: str, env: dict[str, str] | None = None, cwd: str = REPO, shell: bool = False) -> PtySession:
    """The game on a pty; with ``shell``, run by an interactive shell (``T.ShellSession``: ``hang_up()``)."""
    argv, full_env = [sys.executable, "-m", "mille", *args], {"PYTHONPATH": SRC, **(env or {})}
    if shell:
        return T.ShellSession(argv, env=full_env, cwd=cwd)
    return PtySession(argv, env=full_env, cwd=cwd)


def board_rows(lines: list[str]) -> list[str]:
    """The screen without the message line and the computer's PLAY/DISCARD text."""
    out = []
    for y, line in enumerate(lines):
        if y == 15:
            line = line[:40]
        elif y in (11, 12):
            line = line[:20] + " " * 20 + line[40:]
        out.append(line)
    return out


def assert_board_shows(lines: list[str], game: Game) -> None:
    human = game.players[YOU]
    for slot in range(cards.HAND_SIZE):
        assert lines[6 + slot][2:20].rstrip() == cards.name(human.hand[slot]), slot
    assert lines[6][22:24] == f"{game.deck_count:2d}"
    assert lines[8][22:40].rstrip() == cards.name(game.discard)
    for who, col in ((YOU, 2), (COMPUTER, 22)):
        p = game.players[who]
        assert lines[14][col : col + 18].rstrip() == cards.name(p.battle)
        assert lines[16][col : col + 18].rstrip() == cards.name(p.speed)
        score_col = 40 + 21 + 6 * who
        assert lines[1][score_col : score_col + 4] == f"{p.mileage:4d}"
        assert lines[8][score_col : score_col + 4] == f"{p.total:4d}"
    assert lines[10][20:29] == ">>:Move: "


def test_restore_mid_hand_sample_shows_banner_and_board():
    path = os.path.join("saves", "mid-hand.json")
    game = save.read_game(os.path.join(REPO, path)).game
    banner = f"{path} [{time.ctime(os.stat(os.path.join(REPO, path)).st_mtime)}]"
    with mille(path, "--seed", "1") as s:
        snap = s.start()
        assert not snap.exited, snap.screen
        lines = snap.screen
    # The banner is 47 characters; the message line has room for 35, so the
    # front end drops the directory and shortens the date.
    shown = fit_message(banner)
    assert shown.startswith("mid-hand.json [") and len(shown) <= 35
    assert shown[len("mid-hand.json [") :] == banner[len(path) + 2 + 4 : len(path) + 2 + 16] + "]"
    assert lines[15][45:].rstrip() == shown
    assert lines[15][40:45] == "|    "
    assert_board_shows(lines, game)
    assert snap.cursor == [10, 29]


def test_restore_extension_sample_shows_the_extension_banner():
    game = save.read_game(os.path.join(SAVES, "extension.json")).game
    with mille(os.path.join("saves", "extension.json"), "--seed", "1") as s:
        snap = s.start()
    assert snap.screen[4][9:18] == "Extension"
    assert [4, 9, 9, "r"] in snap.attrs
    assert_board_shows(snap.screen, game)


def test_restore_end_of_hand_sample_deals_a_new_hand(tmp_path):
    game = save.read_game(os.path.join(SAVES, "end-of-hand.json")).game
    with mille(os.path.join(SAVES, "end-of-hand.json"), "--seed", "1") as s:
        snap = s.start()
    lines = snap.screen
    assert not snap.exited
    assert lines[10][20:29] == ">>:Move: "
    # A new hand: no miles, a fresh battle area, the totals carried over.
    assert lines[1][61:65] == "   0" and lines[1][67:71] == "   0"
    assert int(lines[8][61:65]) == game.players[YOU].total
    assert int(lines[6][22:24]) <= 89


def test_restore_end_of_hand_lets_you_start_as_the_original_does():
    game = save.read_game(os.path.join(SAVES, "end-of-hand.json")).game
    assert game.to_move == COMPUTER  # the computer would move first if `play` were used
    with mille(os.path.join(SAVES, "end-of-hand.json"), "--seed", "1") as s:
        snap = s.start()
    assert snap.screen[6][22:24] == "89"  # nobody has drawn yet: you move first
    assert snap.screen[11][20:40].strip() == ""  # and the computer has not played


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["terminal-closed", "SIGTERM"])
def test_hangup_saves_and_the_file_restores_the_same_board(tmp_path, sig):
    """The terminal closed under the shell that runs the game (an ssh drop), or SIGTERM: kept, and it restores."""
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state)}
    closed = sig == signal.SIGHUP
    with mille("--seed", "7", env=env, cwd=str(tmp_path), shell=closed) as s:
        s.start()
        s.step("p")  # draw: the P slot fills, still your move
        before = s.step("d1\r")  # discard; the computer moves; your move again
        assert before.screen[10][20:29] == ">>:Move: " and not before.exited
        if closed:
            s.hang_up()  # type: ignore[attr-defined]
        else:
            os.kill(s.pid, sig)
            after = s.wait_exit(EXIT_AFTER_SIGNAL_S)
            assert after.exited and after.rc == 1
    [path] = glob.glob(str(state / "mille" / "hangup-*.json"))
    assert os.path.basename(path).startswith("hangup-")
    assert (os.stat(state / "mille").st_mode & 0o777) == 0o700
    loaded = save.read_game(path)
    assert not loaded.game.finished and loaded.game.to_move == YOU
    with mille(path, "--seed", "7", env=env, cwd=str(tmp_path)) as s:
        restored = s.start()
    assert board_rows(restored.screen) == board_rows(before.screen)
    assert restored.screen[15][45:].rstrip() == fit_message(f"{path} [{save.mtime_text(path)}]")
    assert_board_shows(restored.screen, loaded.game)
    assert restored.cursor == before.cursor == [10, 29]


def test_bad_file_leaves_the_terminal_alone(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "bsd-mille-save", "version": 2, "deck": []}')
    with mille(str(bad), cwd=str(tmp_path)) as s:
        snap = s.start()
    assert snap.exited and snap.rc == 1
    text = "".join(snap.screen).rstrip()  # a long line wraps at column 80
    assert text == f'mille: {bad}: missing field "computer"'
    assert s.total_bytes == len(text) + 2  # the line and its CR LF, nothing else


def test_restore_at_extension_asks_again(tmp_path):
    from helpers.saves import extension_position
    from mille.engine import rules

    game, move = extension_position()
    before = game.players[YOU].mileage
    rules.push(game, move)  # the game now holds the question, as the front end saves it
    assert game.pending_extension == move.slot
    snapshot = game.copy()
    save.write_game(str(tmp_path / "x.json"), snapshot)
    with mille("x.json", "--seed", "3", cwd=str(tmp_path)) as s:
        snap = s.start()
        lines = snap.screen
        assert lines[10][20:31] == "Extension? " and snap.cursor == [10, 31]
        # The board the original showed while asking (§13): the card still in the hand, the
        # mileage before it (the game counts it: the answer's repaint shows 700).
        assert lines[1][61:65] == f"{before:>4}"
        for slot in range(cards.HAND_SIZE):
            assert lines[6 + slot][2:20].rstrip() == cards.name(snapshot.players[YOU].hand[slot])
        snap = s.step("y")
        assert snap.screen[4][9:18] == "Extension"
        assert snap.screen[1][61:65] == " 700"
        assert snap.screen[10][20:29] == ">>:Move: "


def test_the_computer_choice_is_saved_and_a_restore_keeps_it(tmp_path):
    """``--computer expert`` is stored in the save; ``mille FILE`` plays on with expert unless told otherwise."""
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state)}
    with mille("--computer", "expert", "--seed", "7", cwd=str(tmp_path)) as s:
        s.start()
        s.step("p")
        s.step("d1\r")  # the expert answers
        s.step("sgame.json\r")
        # Back at the move prompt (waited for: on a loaded machine a step can
        # settle while the name is still being typed).
        snap = s.wait(timeout=EXIT_AFTER_SIGNAL_S, ready=lambda lines, cursor: lines[10][20:29] == ">>:Move: ")
        assert snap.screen[10][20:29] == ">>:Move: ", snap.screen
        s.step("q")
        s.step("y")
        end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
        assert end.exited and end.rc == 0
    assert save.read_game(str(tmp_path / "game.json")).computer == "expert"

    def hangup_computer(*args: str) -> str:
        with mille("game.json", "--seed", "7", *args, env=env, cwd=str(tmp_path), shell=True) as s:
            s.start()
            s.hang_up()  # type: ignore[attr-defined]  # the terminal goes away under the shell
        [path] = glob.glob(str(state / "mille" / "hangup-*.json"))
        computer = save.read_game(path).computer
        os.unlink(path)
        return computer

    assert hangup_computer() == "expert"
    assert hangup_computer("--computer", "bsd") == "bsd"
