"""Nothing lost, nothing hung: real processes on pseudo-terminals, with real faults.

* Games hung up together in one state directory (two, and five) each keep
  their own file, and each file restores its own game.
* A state directory that cannot be made: the game goes to the current
  directory and the line after the board says so; when no place works, the
  exit status is 2 and the line names every place tried.
* An exception inside the game loop: the game as it was before the failing
  move is saved, the terminal restored, three short lines say what happened
  and where the game and the full report are, and ``mille FILE`` resumes.
* A game busy without reading keys (a computer player stuck on a refused
  move, whatever the engine does about it) still hears SIGHUP, SIGTERM and ^C.
* SIGKILL at any moment of a save never leaves a file that does not load.
* Unknown, empty, unset and ``dumb`` TERM: one line, status 1, no
  traceback; an xterm-compatible emulator's missing entry falls back.
* The too-small message: q then y, ^C and ^D leave it, keeping the game,
  with the terminal clean; 80x23 plays as the original does.

Faults inside the program are injected by a ``sitecustomize`` module put on
the child's PYTHONPATH (the real ``python -m mille`` runs; only the
computer's decision is replaced).  Every wait is for what is checked (a
screen, an exit, a file), bounded only so that a broken build fails
instead of hanging.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from helpers import SRC
from helpers import terminal as T
from helpers import ui as H
from helpers.engine import after
from helpers.saves import EXIT_AFTER_SIGNAL_S, SAVES
from mille.engine import cards, rules
from mille.engine.rules import DRAW, Move, MoveType
from mille.engine.state import Game
from mille.files import ledger, save
from mille.ui.layout import COMPUTER, YOU

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux ptys and /proc")

HANGUP_NAME = re.compile(r"hangup-\d{8}-\d{6}(-\d+)?\.json\Z")
CRASH_NAME = re.compile(r"crash-\d{8}-\d{6}(-\d+)?\.json\Z")
WAIT = EXIT_AFTER_SIGNAL_S  # generous: the machine may be loaded

#: Put on a child's PYTHONPATH as sitecustomize.py: MILLE_TEST_FAULT=crash
#: makes the computer's decision raise, =stuck makes it a discard before
#: drawing (refused, so the computer is asked again, forever: the original's
#: theoretical loop, §12.12), and MILLE_TEST_TMP replaces the temporary
#: directory.
INJECT = """
import os

if os.environ.get("MILLE_TEST_TMP"):
    import tempfile

    tempfile.tempdir = os.environ["MILLE_TEST_TMP"]
_fault = os.environ.get("MILLE_TEST_FAULT")
if _fault:
    from mille.players import bsd as _bsd
    from mille.engine.rules import Move, MoveType

    def _move():
        if _fault == "crash":
            raise RuntimeError("injected fault in the computer's move")
        return Move(MoveType.DISCARD, 0)

    _bsd.BsdPlayer.decide = lambda self, *args, **kwargs: _bsd.Decision(_move(), "DISCARD")
    _bsd.BsdPlayer.choose = lambda self, *args, **kwargs: _move()
"""


@pytest.fixture
def inject(tmp_path):
    """PYTHONPATH for a child with the fault injector (the environment picks the fault)."""
    directory = tmp_path / "inject"
    directory.mkdir()
    (directory / "sitecustomize.py").write_text(INJECT)
    return str(directory) + os.pathsep + SRC


def fresh_game(seed: int) -> Game:
    """The first position of ``mille --seed N`` (as in test_hangup_pty)."""
    game = rules.new_game(seed)
    rules.start_hand(game)
    assert game.to_move == YOU
    return game


def cooked(lflag: int) -> bool:
    return bool(lflag & termios.ICANON and lflag & termios.ECHO)


def text(p: H.Pty) -> str:
    """The screen as one string (lines longer than the screen wrap)."""
    return "".join(p.screen.display)


def spawn(*args: str, **kw: object) -> H.Pty:
    return H.Pty(H.mille_argv(*args), **kw)  # type: ignore[arg-type]


def spawn_in_a_shell(*args: str, **kw: object) -> tuple[H.Pty, int]:
    """The game run by an interactive shell in the terminal, as typed at a prompt; (session, the game's pid)."""
    p = H.Pty(T.in_a_shell(H.mille_argv(*args)), **kw)  # type: ignore[arg-type]
    return p, T.game_under(p.pid or 0)


def at_prompt(p: H.Pty) -> bool:
    return p.at_move_prompt()


def files(directory) -> list[str]:
    """The files in ``directory`` but the record of games, which lives beside the hangup files."""
    names = os.listdir(directory) if os.path.isdir(directory) else []
    return sorted(n for n in names if n != ledger.FILE_NAME)


# --------------------------------------------------------------------------
# Games hung up together


@pytest.mark.parametrize("count", [2, 5])
def test_games_hung_up_together_each_keep_their_own_file(tmp_path, count):
    """Two ssh sessions dropped by one network blip: one state directory, every terminal closed at once.

    Each game is run by an interactive shell, as typed at its prompt: the
    terminals go away under the shells, which pass SIGHUP on a moment
    later, while the games' reads already fail.
    """
    state = tmp_path / "state"
    seeds = [21 + i for i in range(count)]
    started = [spawn_in_a_shell("--seed", str(seed), env={"XDG_STATE_HOME": str(state)}) for seed in seeds]
    sessions = [p for p, _ in started]
    try:
        for p in sessions:
            assert p.wait_for(at_prompt, timeout=WAIT), p.text()
        # Early in a second, so that all the saves fall in the same one (the
        # names then collide) on all but a very slow machine; the checks
        # below hold whatever the timing.
        while time.time() % 1 > 0.2:
            time.sleep(0.005)
        for p in sessions:
            p.close_master()  # the terminal goes away under the shell
        for _, game_pid in started:
            T.wait_gone(game_pid)
    finally:
        for p in sessions:
            p.close()
    names = files(state / "mille")
    assert len(names) == count and all(HANGUP_NAME.match(n) for n in names), names
    hands = {}
    for name in names:
        game = save.read_game(str(state / "mille" / name)).game
        hands[tuple(game.players[YOU].hand)] = name
    expected = {tuple(fresh_game(seed).players[YOU].hand): seed for seed in seeds}
    assert set(hands) == set(expected), "each game is kept once, none lost or overwritten"
    if count == 2:  # and each file restores its own game on the board
        for hand, name in hands.items():
            with spawn(str(state / "mille" / name), "--seed", "1") as p:
                assert p.wait_for(at_prompt, timeout=WAIT), p.text()
                shown = [line[2:20].rstrip() for line in p.lines()[6:13]]
                assert shown == [cards.name(c) for c in hand]


# --------------------------------------------------------------------------
# Places


def test_a_state_directory_that_cannot_be_made_keeps_the_game_in_the_current_directory(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the state directory should be")
    work = tmp_path / "work"
    work.mkdir()
    p, game_pid = spawn_in_a_shell("--seed", "11", env={"XDG_STATE_HOME": str(blocker / "state")}, cwd=str(work))
    with p:
        assert p.wait_for(at_prompt, timeout=WAIT)
        p.close_master()  # the terminal goes away under the shell that runs the game
        T.wait_gone(game_pid)
    [name] = files(work)
    assert HANGUP_NAME.match(name)
    assert save.to_dict(save.read_game(str(work / name)).game) == save.to_dict(fresh_game(11))


def test_after_sigterm_the_line_says_where_the_game_went(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    work = tmp_path / "work"
    work.mkdir()
    with spawn("--seed", "11", env={"XDG_STATE_HOME": str(blocker)}, cwd=str(work)) as p:
        assert p.wait_for(at_prompt, timeout=WAIT)
        os.kill(p.pid, signal.SIGTERM)  # shutdown: the terminal is still there
        assert p.wait_exit(WAIT) == 1
        [name] = files(work)
        path = str(work / name)
        assert (
            f"mille: the game is saved in {path}; resume it with: mille {path} "
            f"(not saved in {blocker}/mille: Not a directory)"
        ) in text(p)
        assert cooked(p.termios_lflag())


def test_when_no_place_works_the_status_is_2_and_the_line_names_them(tmp_path, inject):
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    work = tmp_path / "work"
    work.mkdir()
    env = {"XDG_STATE_HOME": str(blocker), "PYTHONPATH": inject, "MILLE_TEST_TMP": str(blocker / "tmp")}
    with spawn("--seed", "11", env=env, cwd=str(work)) as p:
        assert p.wait_for(at_prompt, timeout=WAIT)
        os.rmdir(work)  # the working directory is deleted under the game
        os.kill(p.pid, signal.SIGTERM)
        assert p.wait_exit(WAIT) == 2
        assert (
            f"mille: the game could not be saved anywhere ({blocker}/mille: Not a directory; "
            f"the current directory: No such file or directory; {blocker}/tmp: Not a directory)"
        ) in text(p)


# --------------------------------------------------------------------------
# A crash in the game loop


def test_a_crash_keeps_the_game_and_says_where(tmp_path, inject):
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state), "PYTHONPATH": inject, "MILLE_TEST_FAULT": "crash"}
    with spawn("--seed", "11", env=env) as p:
        assert p.wait_for(at_prompt, timeout=WAIT)
        p.send("p")
        assert p.wait_for(lambda q: at_prompt(q) and q.lines()[6][22:24] == "88", timeout=WAIT)
        p.send("d1\r")  # the computer's move follows, and fails
        assert p.wait_exit(WAIT) == 1
        screen = text(p)
        assert cooked(p.termios_lflag()), "the terminal is restored"
    names = files(state / "mille")
    [json_name] = [n for n in names if n.endswith(".json")]
    assert CRASH_NAME.match(json_name) and names == [json_name, json_name[: -len(".json")] + ".txt"]
    path = str(state / "mille" / json_name)
    report = path[: -len(".json")] + ".txt"
    assert "Traceback" not in screen, "no raw traceback over the board"
    assert "mille: internal error: RuntimeError: injected fault in the computer's move" in screen
    assert (
        f"mille: the game, as it was before the move that failed, is saved in {path}; resume it with: mille {path}"
    ) in screen
    assert f"mille: the full report is in {report}" in screen
    written = Path(report).read_text()
    assert "Traceback (most recent call last)" in written and "injected fault" in written
    # The game before the failed move: yours made, the computer's to come.
    expected = after(fresh_game(11), DRAW, Move(MoveType.DISCARD, 1))
    assert expected.to_move == COMPUTER
    saved = save.read_game(path).game
    assert save.to_dict(saved) == save.to_dict(expected)
    # And it resumes: the computer makes its move, then it is yours.
    with spawn(path, "--seed", "11", env={"XDG_STATE_HOME": str(state)}) as p:
        assert p.wait_for(at_prompt, timeout=WAIT), p.text()
        assert [line[2:20].rstrip() for line in p.lines()[6:13]] == [cards.name(c) for c in expected.players[YOU].hand]
        assert int(p.lines()[6][22:24]) < expected.deck_count  # the computer has drawn
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=WAIT)
        p.send("y")
        assert p.wait_exit(WAIT) == 0


# --------------------------------------------------------------------------
# A game busy without reading keys


def wait_during_output(p: H.Pty, pred, timeout: float = WAIT) -> bool:  # type: ignore[no-untyped-def]
    """Read output until ``pred`` holds: H.Pty.wait_for waits for a quiet moment, which a busy game never gives."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        p.pump(0.01)
        if pred(p):
            return True
    return False


def stuck_game(env: dict[str, str], shell: bool = False) -> tuple[H.Pty, int]:
    """A game whose computer is stuck repeating a refused move (no key is read any more); (session, game's pid).

    With ``shell`` the game is run by an interactive shell in the terminal.
    """
    env = {**env, "MILLE_TEST_FAULT": "stuck"}
    if shell:
        p, pid = spawn_in_a_shell("--seed", "11", env=env)
    else:
        p = spawn("--seed", "11", env=env)
        pid = p.pid or 0
    assert p.wait_for(at_prompt, timeout=WAIT)
    p.send("p")
    assert p.wait_for(lambda q: at_prompt(q) and q.lines()[6][22:24] == "88", timeout=WAIT)
    p.send("d1\r")
    assert wait_during_output(p, lambda q: "must pick first" in q.lines()[15]), p.text()
    assert H.proc_state(pid) in "RS"  # alive, and not waiting for us: it is the loop
    return p, pid


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["terminal-closed", "SIGTERM"])
def test_a_busy_game_still_saves_on_a_hangup(tmp_path, inject, sig):
    """The terminal closed under the shell that runs the busy game (an ssh drop), or SIGTERM: kept."""
    state = tmp_path / "state"
    closed = sig == signal.SIGHUP
    p, game_pid = stuck_game({"XDG_STATE_HOME": str(state), "PYTHONPATH": inject}, shell=closed)
    with p:
        if closed:
            p.close_master()
            T.wait_gone(game_pid)
        else:
            os.kill(game_pid, sig)
            assert p.wait_exit(WAIT) == 1
            assert cooked(p.termios_lflag())
    [name] = files(state / "mille")
    assert HANGUP_NAME.match(name)
    expected = after(fresh_game(11), DRAW, Move(MoveType.DISCARD, 1))
    assert save.to_dict(save.read_game(str(state / "mille" / name)).game) == save.to_dict(expected)


def test_a_busy_game_hears_the_interrupt_key(tmp_path, inject):
    p, _ = stuck_game({"XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": inject})
    with p:
        p.send(H.INTR)
        assert wait_during_output(p, lambda q: q.lines()[10][20:28] == "Really? "), p.text()
        p.send("y")
        assert p.wait_exit(WAIT) == 0
        assert cooked(p.termios_lflag())
    assert files(tmp_path / "state" / "mille") == []  # quitting saves nothing, as in the original


# --------------------------------------------------------------------------
# SIGKILL in the middle of saving


WRITER = """
import sys
from mille.files import rescue, save
games = [save.read_game(path).game for path in sys.argv[2:4]]
save.write_game(sys.argv[1], games[0])
print("ready", flush=True)
i = 1
while True:
    save.write_game(sys.argv[1], games[i % 2])
    rescue.keep_game(save.SavedGame(games[i % 2]))
    i += 1
"""


def test_sigkill_at_any_moment_of_a_save_leaves_files_that_load(tmp_path):
    import random

    samples = [os.path.join(SAVES, f"{name}.json") for name in ("mid-hand", "extension")]
    wanted = [save.to_dict(save.read_game(path).game) for path in samples]
    target = tmp_path / "game.json"
    state = tmp_path / "state"
    env = dict(os.environ, PYTHONPATH=SRC, XDG_STATE_HOME=str(state))
    rnd = random.Random(7)
    for _ in range(20):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), *samples], stdout=subprocess.PIPE, env=env, cwd=tmp_path
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
            time.sleep(rnd.uniform(0, 0.05))  # a random moment, most likely in the middle of a save
        finally:
            proc.kill()
            proc.wait()
        assert save.to_dict(save.read_game(str(target)).game) in wanted
        for name in files(state / "mille"):
            if name.endswith(".json"):  # only temporary .tmp files may be left half-written
                assert save.to_dict(save.read_game(str(state / "mille" / name)).game) in wanted
    assert [n for n in files(tmp_path) if not n.startswith(".")] == ["game.json", "state"]


# --------------------------------------------------------------------------
# TERM


@pytest.mark.parametrize(
    ("term", "line"),
    [
        ("foo-unknown", "mille: unknown terminal type TERM=foo-unknown (no terminfo entry); try TERM=xterm-256color"),
        ("", "mille: TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color"),
        (None, "mille: TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color"),
        (
            "dumb",
            "mille: TERM=dumb cannot move the cursor; mille needs a full-screen terminal,"
            " or mille --plain plays in lines",
        ),
    ],
    ids=["unknown", "empty", "unset", "dumb"],
)
def test_an_unusable_term_gets_one_line_and_status_1(term, line):
    if term and term != "dumb" and H.have_terminfo(term):
        pytest.skip(f"this machine has a terminfo entry named {term}")
    argv = H.mille_argv("--seed", "5")
    if term is None:
        argv = ["env", "-u", "TERM", *argv]
    with H.Pty(argv, term=term or "") as p:
        assert p.wait_exit(WAIT) == 1
        assert bytes(p.raw) == line.encode() + b"\r\n"  # that line and nothing else
        assert cooked(p.termios_lflag())


@pytest.mark.parametrize("term", ["xterm-kitty", "alacritty", "xterm-ghostty", "foot", "wezterm", "tmux-unknown"])
def test_an_emulator_without_its_terminfo_entry_plays_on_a_base_entry(term):
    """An emulator's name the machine has no entry for: the name itself where it has none, else one of its family
    that no terminfo has (ncurses-term, which openssh-server pulls in, has alacritty's, foot's, kitty's...)."""
    if H.have_terminfo(term):
        term += "-nonesuch-mille-test"
    assert not H.have_terminfo(term)
    want = H.vt_replay(5, [])[0][0]
    with H.Pty(H.mille_argv("--seed", "5"), term=term) as p:
        assert p.wait_for(lambda q: q.snap()["screen"] == want["screen"], timeout=WAIT), p.text()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=WAIT)
        p.send("y")
        assert p.wait_exit(WAIT) == 0
        base = "tmux" if term.startswith("tmux") else "xterm-256color"
        shown = text(p)
        assert f"mille: TERM={term} has no terminfo entry here; played as {base}" in shown or (
            base == "tmux" and f"mille: TERM={term} has no terminfo entry here; played as " in shown
        )


# --------------------------------------------------------------------------
# The too-small message


def too_small(p: H.Pty) -> bool:
    return "at least 80x23" in text(p)


@pytest.mark.parametrize("keys", [["q", "y"], [H.INTR], ["\x04"]], ids=["q-y", "ctrl-c", "ctrl-d"])
def test_every_key_out_of_the_too_small_message_keeps_the_game(keys):
    with spawn("--seed", "11", rows=20, cols=60) as p:
        assert p.wait_for(too_small, timeout=WAIT), p.text()
        for key in keys[:-1]:
            p.send(key)
            assert p.wait_for(lambda q: "Quit (your game is kept)? y or n" in text(q), timeout=WAIT), p.text()
        p.send(keys[-1])
        assert p.wait_exit(WAIT) == 0
        assert cooked(p.termios_lflag()), "the terminal is restored (no staircase)"
        [name] = files(os.path.join(p.env["XDG_STATE_HOME"], "mille"))
        path = os.path.join(p.env["XDG_STATE_HOME"], "mille", name)
        shown = text(p)
        assert "at least 80x23" not in shown, "the message is not left on the screen"
        assert f"mille: the game is saved in {path}; resume it with: mille {path}" in shown
        assert save.to_dict(save.read_game(path).game) == save.to_dict(fresh_game(11))


def test_the_message_is_not_left_on_the_shells_screen():
    """It goes to curses' screen (the alternate screen), not to the shell's, before the game starts."""
    with spawn("--seed", "5", rows=20, cols=60) as p:
        assert p.wait_for(too_small, timeout=WAIT)
        p.resize(24, 80)
        assert p.wait_for(at_prompt, timeout=WAIT)
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=WAIT)
        p.send("y")
        assert p.wait_exit(WAIT) == 0
        raw = bytes(p.raw)
    enter = raw.find(b"\x1b[?1049h")
    assert 0 <= enter < raw.find(b"mille needs a terminal"), "the message is written after smcup"


def test_q_then_another_key_stays(tmp_path):
    want = H.vt_replay(11, [])[0][0]
    with spawn("--seed", "11", rows=20, cols=60) as p:
        assert p.wait_for(too_small, timeout=WAIT)
        p.send("q")
        assert p.wait_for(lambda q: "y or n" in text(q), timeout=WAIT)
        p.send("n")
        assert p.wait_for(lambda q: "q quits, keeping your game." in text(q), timeout=WAIT)
        p.resize(24, 80)
        assert p.wait_for(lambda q: q.snap()["screen"] == want["screen"], timeout=WAIT), p.text()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=WAIT)
        p.send("y")
        assert p.wait_exit(WAIT) == 0
        assert files(os.path.join(p.env["XDG_STATE_HOME"], "mille")) == []


def test_80x23_plays_as_the_original_does():
    """The original starts at 80x23 (row 23 is never used, §8.4); so does this one."""
    steps = ["p", "u1 ", "w", "p", "d2 "]
    want = H.vt_replay(5, steps)[0]
    with spawn("--seed", "5", rows=23, cols=80) as p:
        for i, snap in enumerate(want):
            if i:
                p.send(steps[i - 1])
            assert snap["screen"][23] == ""  # never used
            assert p.wait_for(lambda q, s=snap: q.snap()["screen"][:23] == s["screen"][:23], timeout=WAIT), p.text()
            assert list(p.cursor) == snap["cursor"]
        p.resize(24, 80)  # and on to 24 rows and back
        p.send("\x0c")
        assert p.wait_for(lambda q: q.snap()["screen"] == want[-1]["screen"], timeout=WAIT), p.text()
        p.resize(23, 80)
        p.send("\x0c")
        assert p.wait_for(lambda q: q.snap()["screen"][:23] == want[-1]["screen"][:23], timeout=WAIT), p.text()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=WAIT)
        p.send("y")
        assert p.wait_exit(WAIT) == 0
