"""The terminal goes away under the game, as it does over ssh: the game is kept, every time.

Issue 30 (the board).  A person plays in a terminal; the window is closed
or the ssh link drops: the emulator (or sshd) closes the pty's master.
Nothing signals the game directly unless it is the session leader; every
read of the terminal fails at once.  Tried as it happens
(:mod:`helpers.terminal`): an interactive ``bash`` with job control in a
real pty runs the game, a card is drawn (so that leaving unsaved would
abandon the game), the master is closed, and the game must leave with the
game kept in one hangup file, a line saying where, and the record of games
showing it saved, not abandoned.  The race between the failing reads and
the shell's SIGHUP must never lose a game: the trial runs
:data:`TRIALS` times in a row.  The game as the terminal's own program
(``ssh -t host mille``), under a shell without job control and in a
session of its own (``setsid``: only the end of input, never a signal)
too; with standard input closed or not a terminal, the game does not start
and says why in one line.

Also here: ``^\\`` (SIGQUIT) keeps the game as a hangup does; a computer
player that never returns does not hang the game (a hangup, the end of
input and SIGTERM keep it as it stood before the computer's move, ``^C``
opens ``Really?``); a hint leaves the message line once acted on; the
usage line names every switch.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from helpers import terminal as T
from helpers import ui as H
from helpers.engine import after
from mille.engine import cards, rules
from mille.engine.rules import DRAW, Move, MoveType
from mille.engine.state import Game
from mille.files import ledger, save
from mille.ui import hints
from mille.ui.keeping import Keeper
from mille.ui.layout import COMPUTER, YOU
from mille.ui.surface import END_OF_INPUT, HANGUP, INTERRUPT, VirtualTerminal

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "pidfd_open"), reason="needs Linux ptys and pidfds"
)

#: Terminals closed under a shell in a row, in one test: the race must never lose one.
TRIALS = int(os.environ.get("MILLE_GONE_TRIALS", "20"))
HANGUP_NAME = re.compile(r"hangup-\d{8}-\d{6}(-\d+)?\.json\Z")


def fresh_game(seed: int) -> Game:
    """The first position of ``mille --seed N``."""
    game = rules.new_game(seed)
    rules.start_hand(game)
    return game


def kept_game(state: str, err_file: str | None) -> save.Loaded:
    """The one hangup file in ``state``, checked: the record has it saved, nothing abandoned; the line says where."""
    directory = os.path.join(state, "mille")
    names = sorted(n for n in os.listdir(directory) if n != ledger.FILE_NAME) if os.path.isdir(directory) else []
    assert len(names) == 1 and HANGUP_NAME.match(names[0]), f"no game kept: {names}"
    path = os.path.join(directory, names[0])
    events = ledger.read_events(os.path.join(directory, ledger.FILE_NAME))
    assert events and events[-1]["t"] == "save", events
    assert not [e for e in events if e.get("result") == "abandoned"], events
    if err_file is not None:
        with open(err_file, encoding="utf-8") as f:
            said = f.read()
        assert f"mille: the game is saved in {path}; resume it with: mille {path}" in said, said
        assert "Traceback" not in said, said
    return save.read_game(path)


def trial(tmp_path: Any, setup: str, n: int) -> None:
    """Start the game in ``setup``, draw a card, close the terminal; the game must be kept and leave."""
    root = tmp_path / f"{setup}-{n}"
    work = root / "work"
    work.mkdir(parents=True)
    state, err = str(root / "state"), str(root / "err.txt")
    seed = 5 + n
    with T.GoneTerminal(setup, ["--seed", str(seed)], cwd=str(work), state=state, err_file=err) as term:
        term.start()
        term.pick()
        term.close_terminal()
        term.wait_game_exit()
        if setup == "direct":  # the game is our child: its status too
            assert term.wait_exit() == 1
    loaded = kept_game(state, err)
    assert save.to_dict(loaded.game) == save.to_dict(after(fresh_game(seed), DRAW)), f"trial {n}"
    assert os.listdir(work) == []  # nothing else written


def test_a_terminal_closed_under_a_shell_keeps_the_game_every_time(tmp_path):
    """bash -i runs the game; the terminal is closed; TRIALS times in a row, each game kept and not abandoned."""
    for n in range(TRIALS):
        trial(tmp_path, "shell", n)


@pytest.mark.parametrize("setup", ["direct", "sh-c", "setsid"])
def test_a_terminal_closed_under_the_game_keeps_it_in_every_setup(tmp_path, setup):
    """The game as the terminal's program, under sh -c (no job control), and in a session of its own."""
    for n in range(max(TRIALS // 2, 1)):
        trial(tmp_path, setup, n)


@pytest.mark.parametrize("redirect", ["<&-", "</dev/null"])
def test_standard_input_closed_or_not_a_terminal_is_refused_in_one_line(tmp_path, redirect):
    """``mille <&-`` or ``mille </dev/null`` typed in a terminal: one line, status 1, nothing written."""
    master, slave = os.openpty()
    try:
        proc = subprocess.run(
            ["sh", "-c", f'exec "$@" {redirect}', "sh", sys.executable, "-m", "mille", "--seed", "5"],
            stdout=slave,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": H.MILLE_PATH, "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm"},
            cwd=str(tmp_path),
            timeout=T.WAIT_S,
        )
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 1
    said = proc.stderr.decode()
    assert said.startswith("mille: standard input and output must be a terminal") and said.count("\n") == 1, said
    assert not (tmp_path / "state").exists()


# --------------------------------------------------------------------------
# ^\ (SIGQUIT)


def test_ctrl_backslash_keeps_the_game_and_says_where(tmp_path):
    """``^\\`` is SIGQUIT through the terminal: the game is kept as on a hangup, a line says where, status 1."""
    state = tmp_path / "state"
    with H.Pty(H.mille_argv("--seed", "5"), env={"XDG_STATE_HOME": str(state)}) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=T.WAIT_S), p.text()
        p.send("p")
        assert p.wait_for(lambda q: q.at_move_prompt() and q.lines()[6][2:20] != "", timeout=T.WAIT_S), p.text()
        p.send(b"\x1c")
        assert p.wait_exit(T.WAIT_S) == 1
        text = "\n".join(p.lines())
    loaded = kept_game(str(state), None)
    assert save.to_dict(loaded.game) == save.to_dict(after(fresh_game(5), DRAW))
    [name] = [n for n in os.listdir(state / "mille") if n != ledger.FILE_NAME]
    assert f"mille: the game is saved in {state / 'mille' / name}" in text.replace("\n", ""), text


# --------------------------------------------------------------------------
# A computer that never returns


class Never:
    """A computer player that never returns (until the test lets it go); when asked, ``events`` arrive."""

    def __init__(self, vt: VirtualTerminal, events: list[int]) -> None:
        self.vt = vt
        self.events = events
        self.asked = threading.Event()
        self.release = threading.Event()

    def choose(self, observation: Any, rng: Any) -> Move:
        self.asked.set()
        self.vt.pending.extend(self.events)
        # Let go at the end of the test; the bound only keeps a game that
        # waits for its computer (the fault under test) from hanging the suite.
        self.release.wait(T.WAIT_S)
        raise RuntimeError("the computer was let go")


def your_move_then_the_computers(seed: int = 11) -> tuple[bytes, Game]:
    """The keys of a draw and a discard (the computer to move next), and the game they leave."""
    game = after(fresh_game(seed), DRAW, Move(MoveType.DISCARD, 1))
    assert game.to_move == COMPUTER
    return b"pd1\r", game


@pytest.mark.parametrize("event", [HANGUP, END_OF_INPUT], ids=["hangup", "end-of-input"])
def test_a_hangup_while_the_computer_never_returns_keeps_the_game_before_its_move(event):
    keys, expected = your_move_then_the_computers()
    vt = VirtualTerminal(list(keys))
    never = Never(vt, [event])
    saved: list[Game] = []
    app = H.make_app(vt, fresh_game(11), computer=never, keeper=Keeper(store=lambda what: saved.append(what.game)))
    try:
        assert app.run(restore=True) == 1
    finally:
        never.release.set()
    assert never.asked.is_set()
    [game] = saved
    assert save.to_dict(game) == save.to_dict(expected)


def test_ctrl_c_while_the_computer_never_returns_opens_really():
    """^C opens ``Really?`` while the computer thinks; ``n`` goes back to waiting, a hangup then keeps the game."""
    keys, expected = your_move_then_the_computers()

    class Answered(VirtualTerminal):
        def read_byte(self) -> int:
            byte = super().read_byte()
            if byte == ord("n"):  # Really? n: then the terminal goes away
                self.pending.append(HANGUP)
            return byte

    vt = Answered(list(keys + b"n"))
    never = Never(vt, [INTERRUPT])
    saved: list[Game] = []
    app = H.make_app(vt, fresh_game(11), computer=never, keeper=Keeper(store=lambda what: saved.append(what.game)))
    try:
        assert app.run(restore=True) == 1
    finally:
        never.release.set()
    assert vt.lines()[10][20:29] == "Really? N"
    [game] = saved
    assert save.to_dict(game) == save.to_dict(expected)


def test_ctrl_c_y_while_the_computer_never_returns_quits():
    keys, _ = your_move_then_the_computers()
    vt = VirtualTerminal(list(keys + b"y"))
    never = Never(vt, [INTERRUPT])
    app = H.make_app(vt, fresh_game(11), computer=never)
    try:
        assert app.run(restore=True) == 0
    finally:
        never.release.set()


#: A sitecustomize for the child: the computer (the original's player) never returns.
NEVER = """
import threading
import time
from mille.players import bsd as _bsd

def _never(self, *args, **kwargs):
    threading.Event().wait()

_bsd.BsdPlayer.decide = _never
_bsd.BsdPlayer.choose = _never
"""


@pytest.fixture
def never_returns(tmp_path):
    """PYTHONPATH for a child whose computer never returns (a test-only sitecustomize, no seam in the game)."""
    directory = tmp_path / "never"
    directory.mkdir()
    (directory / "sitecustomize.py").write_text(NEVER)
    return str(directory) + os.pathsep + H.MILLE_PATH


def thinking_forever(p: H.Pty) -> None:
    """Draw, discard: the computer's turn, which never ends (the prompt is not shown again)."""
    assert p.wait_for(lambda q: q.at_move_prompt(), timeout=T.WAIT_S), p.text()
    p.send("p")
    assert p.wait_for(lambda q: q.at_move_prompt() and q.lines()[6][2:20] != "", timeout=T.WAIT_S), p.text()
    p.send("d1\r")
    assert p.pid is not None
    computer_thinks(p, p.pid)


def computer_thinks(p: H.Pty, game_pid: int) -> None:
    """Wait for the computer's turn: the game's main thread is blocked, and not reading or writing the terminal.

    (Three samples in a row of ``/proc/PID/syscall``: neither running nor
    in read(2) or write(2), x86_64's 0 and 1.)
    """
    deadline = time.monotonic() + T.WAIT_S
    seen = 0
    while seen < 3:
        assert time.monotonic() < deadline, "the game never got to the computer's turn"
        p.pump(0.01)
        try:
            with open(f"/proc/{game_pid}/syscall") as f:
                call = f.read().split()[0]
        except (OSError, IndexError):
            call = "running"
        seen = seen + 1 if call not in ("running", "0", "1") else 0


def test_a_terminal_closed_while_the_computer_never_returns_keeps_the_game(tmp_path, never_returns):
    """Through a real pty under an interactive shell: the game is kept as it was before the computer's move."""
    _, expected = your_move_then_the_computers()
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state), "PYTHONPATH": never_returns}
    argv = T.in_a_shell(H.mille_argv("--seed", "11"))
    with H.Pty(argv, env=env) as p:
        game_pid = T.game_under(p.pid)
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=T.WAIT_S), p.text()
        p.send("p")
        assert p.wait_for(lambda q: q.at_move_prompt() and q.lines()[6][2:20] != "", timeout=T.WAIT_S)
        p.send("d1\r")
        computer_thinks(p, game_pid)
        p.close_master()
        T.wait_gone(game_pid)
    loaded = kept_game(str(state), None)
    assert save.to_dict(loaded.game) == save.to_dict(expected)


def test_sigterm_while_the_computer_never_returns_keeps_the_game(tmp_path, never_returns):
    _, expected = your_move_then_the_computers()
    state = tmp_path / "state"
    with H.Pty(H.mille_argv("--seed", "11"), env={"XDG_STATE_HOME": str(state), "PYTHONPATH": never_returns}) as p:
        thinking_forever(p)
        os.kill(p.pid, signal.SIGTERM)
        assert p.wait_exit(T.WAIT_S) == 1
    loaded = kept_game(str(state), None)
    assert save.to_dict(loaded.game) == save.to_dict(expected)


def test_ctrl_c_while_the_computer_never_returns_asks_really(tmp_path, never_returns):
    state = tmp_path / "state"
    with H.Pty(H.mille_argv("--seed", "11"), env={"XDG_STATE_HOME": str(state), "PYTHONPATH": never_returns}) as p:
        thinking_forever(p)
        p.send(b"\x03")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=T.WAIT_S), p.text()
        p.send("y")
        assert p.wait_exit(T.WAIT_S) == 0


# --------------------------------------------------------------------------
# Smaller things


def message_line(vt: VirtualTerminal) -> str:
    return vt.lines()[15][45:].rstrip()


def test_a_hint_leaves_the_message_line_once_the_move_is_made():
    class Drawer:
        def choose(self, observation: Any, rng: Any) -> Move:
            return DRAW

    vt = VirtualTerminal(list(b"h"))
    app = H.make_app(vt, fresh_game(5), hints=hints.Adviser(Drawer))
    app.run(restore=True)
    assert message_line(vt) == "hint: pick"
    vt = VirtualTerminal(list(b"hp"))
    app = H.make_app(vt, fresh_game(5), hints=hints.Adviser(Drawer))
    app.run(restore=True)
    assert message_line(vt) == ""
    assert vt.lines()[6][2:20].strip() == cards.name(after(fresh_game(5), DRAW).players[YOU].hand[0])


@pytest.mark.parametrize("args", [["--help"], ["--bogus"]])
def test_the_usage_line_names_every_switch(args):
    proc = subprocess.run(
        H.mille_argv(*args),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": H.MILLE_PATH},
        stdin=subprocess.DEVNULL,
        timeout=T.WAIT_S,
    )
    usage = (proc.stdout if args == ["--help"] else proc.stderr).split("\n\n")[0]
    assert usage.startswith("usage: mille")
    switches = ("--hints", "--no-hints", "--color", "--no-color", "--plain", "--no-plain", "--no-stats")
    for switch in (*switches, "--seed", "--computer"):
        assert switch in usage, (switch, usage)


def test_a_terminal_left_non_blocking_is_waited_on_not_taken_for_the_end_of_input(tmp_path):
    """Another program left the terminal non-blocking (O_NONBLOCK on the shared open file): the game waits for keys."""
    state = tmp_path / "state"
    wrapper = "import os, sys; os.set_blocking(0, False); os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    argv = [sys.executable, "-c", wrapper, "-m", "mille", "--seed", "5"]
    with H.Pty(argv, env={"XDG_STATE_HOME": str(state)}) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=T.WAIT_S), p.text()
        assert p.poll() is None, p.text()
        p.send("p")
        assert p.wait_for(lambda q: q.at_move_prompt() and q.lines()[6][2:20] != "", timeout=T.WAIT_S), p.text()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=T.WAIT_S), p.text()
        p.send("y")
        assert p.wait_exit(T.WAIT_S) == 0
    assert not (state / "mille").exists() or [n for n in os.listdir(state / "mille") if n != ledger.FILE_NAME] == []


def test_a_terminal_closed_while_a_bot_never_answers_keeps_the_game_at_once(tmp_path):
    """A bot (``--computer 'exec:BOT'``) that never answers: the game leaves with the terminal, not at its deadline."""
    from helpers.protocol import BOT_PATH, protocol_bot
    from mille.players import external

    _, before = your_move_then_the_computers()
    # The computer's draw is its only legal move: mille makes it without asking the bot
    # (docs/protocol-speed.md, "Forced moves"), which is first asked, and sleeps, at its play.
    expected = after(before, DRAW)
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state), "PYTHONPATH": BOT_PATH, external.LOGS_VARIABLE: str(tmp_path / "logs")}
    argv = T.in_a_shell(H.mille_argv("--seed", "11", "--computer", protocol_bot("sleep")))
    with H.Pty(argv, env=env) as p:
        game_pid = T.game_under(p.pid or 0)
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=T.WAIT_S), p.text()
        p.send("p")
        assert p.wait_for(lambda q: q.at_move_prompt() and q.lines()[6][2:20] != "", timeout=T.WAIT_S)
        p.send("d1\r")
        computer_thinks(p, game_pid)
        closed = time.monotonic()
        p.close_master()
        T.wait_gone(game_pid)
        took = time.monotonic() - closed
    assert took < external.DEFAULT_DEADLINE, f"the game waited {took:.1f} s: for the bot's deadline, not the terminal"
    loaded = kept_game(str(state), None)
    assert save.to_dict(loaded.game) == save.to_dict(expected)
