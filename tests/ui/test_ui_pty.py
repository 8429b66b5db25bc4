"""The real curses backend on a pseudo-terminal: ``python -m mille`` under a pty + pyte.

* the first board equals the VirtualTerminal's (text, cursor, standout);
* the same text under TERM=xterm, xterm-256color, vt100, vt220, screen,
  tmux-256color and linux;
* recorded real-program scenarios (^C, control characters in a save message)
  replayed key for key;
* a terminal smaller than 80x24 gets a message, then the board once resized;
* ^Z stops the program with the terminal restored, SIGCONT repaints;
* end of input keeps the game (as a hangup does), exits with status 1 and
  restores the terminal; the terminal closed under the shell that runs the
  game (an ssh drop) and SIGTERM keep the game;
* the command line: usage errors, --help, --version.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from typing import Any

import pytest

from helpers import terminal as T
from helpers import ui as H
from helpers.saves import EXIT_AFTER_SIGNAL_S
from mille import __version__
from mille.files import save

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux ptys, job control and /proc")

FIXTURES = H.load_fixtures()["scenarios"]
TERMS = ["xterm", "xterm-256color", "vt100", "vt220", "screen", "tmux-256color", "linux"]


def vt_steps(seed: int, keys: list[str]) -> list[dict[str, Any]]:
    snaps, _app, _vt = H.vt_replay(seed, keys)
    return snaps


def same(want: dict[str, Any], *, cursor: bool = True) -> Callable[[H.Pty], bool]:
    def pred(p: H.Pty) -> bool:
        got = p.snap()
        return got["screen"] == want["screen"] and (not cursor or got["cursor"] == want["cursor"])

    return pred


def expect(p: H.Pty, want: dict[str, Any], what: str, *, attrs: bool = True, timeout: float = 10.0) -> None:
    p.wait_for(same(want), timeout=timeout)
    d = H.diff_snaps(want, p.snap(), attrs=attrs)
    assert not d, f"{what}:\n{d}\nscreen:\n{p.text()}"


def spawn(seed: int, **kw: Any) -> H.Pty:
    return H.Pty(H.mille_argv("--seed", str(seed)), **kw)


def quit_cleanly(p: H.Pty) -> None:
    p.send("q")
    assert p.wait_for(lambda s: s.lines()[10][20:27] == "Really?", timeout=5)
    p.send("y")
    assert p.wait_exit() == 0


def raw_modes_off(lflag: int) -> bool:
    return not lflag & termios.ICANON and not lflag & termios.ECHO


def cooked(lflag: int) -> bool:
    return bool(lflag & termios.ICANON and lflag & termios.ECHO)


# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [5, 42, 5814])
def test_first_board_matches_the_virtual_terminal(seed: int) -> None:
    want = vt_steps(seed, [])[0]
    with spawn(seed) as p:
        expect(p, want, f"first board, seed {seed}")
        assert raw_modes_off(p.termios_lflag()), "cbreak, no echo while playing"
        quit_cleanly(p)
        assert cooked(p.termios_lflag()), "the terminal is restored after a normal exit"


#: Put on the game's PYTHONPATH as sitecustomize.py: when curses starts the
#: screen, the modules imported so far are written to $MILLE_TEST_MODULES.
MODULES_AT_INITSCR = """
import os, sys
import curses

_initscr = curses.initscr


def initscr():
    with open(os.environ["MILLE_TEST_MODULES"], "w") as f:
        f.write("\\n".join(sorted(sys.modules)))
    return _initscr()


curses.initscr = initscr
"""


def test_the_start_up_imports_neither_locale_nor_re(tmp_path) -> None:
    """3 ms of the time to the first board (tests/bench/bench_startup.py) was ``locale``, which imports ``re``."""
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(MODULES_AT_INITSCR)
    listing = tmp_path / "modules.txt"
    env = {"PYTHONPATH": f"{inject}{os.pathsep}{H.MILLE_PATH}", "MILLE_TEST_MODULES": str(listing)}
    with H.Pty(H.mille_argv("--seed", "1", "--no-stats"), env=env, cwd=str(tmp_path)) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=30), p.text()
        quit_cleanly(p)
    modules = listing.read_text().split("\n")
    assert "mille.ui.cursesterm" in modules and "mille.cli" in modules
    assert "locale" not in modules and "re" not in modules


@pytest.mark.parametrize("term", TERMS)
def test_every_term_shows_the_same_text(term: str) -> None:
    if not H.have_terminfo(term):
        pytest.skip(f"no terminfo entry for {term}")
    keys = ["p", "w", "u1 ", "w", "o", "x", "d2 "]
    want = vt_steps(5, keys)
    with spawn(5, term=term) as p:
        expect(p, want[0], f"TERM={term} first board", attrs=False)
        assert any(r[:3] == [10, 20, 8] for r in p.attrs()), f"TERM={term}: >>:Move: not in standout"
        for i, k in enumerate(keys, 1):
            p.send(k)
            expect(p, want[i], f"TERM={term} after {k!r}", attrs=False)
        quit_cleanly(p)


def pty_replay(name: str) -> None:
    sc = FIXTURES[name]
    steps = sc["steps"]
    with spawn(sc["seed"]) as p:
        for f in sc.get("files", ()):
            open(os.path.join(p.cwd, f), "w").close()
        for i, want in enumerate(steps):
            if i:
                p.send(want["keys"])
            if want["exited"]:
                assert p.wait_exit() == want["rc"], f"{name} step {i}: exit status"
            p.wait_for(same(want, cursor=not want["exited"]), timeout=5)
            d = H.diff_snaps(want, p.snap(), cursor=not want["exited"])
            assert not d, f"{name} step {i} (keys {want['keys']!r}) differs from the real program:\n{d}"


def test_interrupts_through_the_tty_match_the_real_program() -> None:
    """^C typed on the terminal is SIGINT: Really?, `Really? N`, resumed reads (§9.5)."""
    pty_replay("interrupt")


def test_control_characters_in_a_save_message_match_the_real_program() -> None:
    """curses shows a file name's ^A as `^A` and expands TAB (the VirtualTerminal does not)."""
    pty_replay("filename")


def test_card_entry_matches_the_real_program() -> None:
    pty_replay("cardentry")


def test_a_message_as_wide_as_the_error_line_matches_the_real_program() -> None:
    """35 columns: the cursor wraps onto the last row and the border stays."""
    pty_replay("message35")


def test_long_save_names_do_not_damage_the_border() -> None:
    """§12.4/§12.9 fixed on purpose: the name scrolls in the prompt line, the message is shortened."""
    want = vt_steps(5, [])[0]
    name = "a-rather-long-save-file-name-for-mille.json"
    with spawn(5) as p:
        expect(p, want, "first board")
        p.send("s" + name)
        assert p.wait_for(lambda s: s.lines()[10][26:40].rstrip() == name[-13:], timeout=5), p.text()
        assert p.lines()[11:17] == want["screen"][11:17]
        p.send("\r")
        assert p.wait_for(lambda s: "..." in s.lines()[15] and s.cursor == (10, 29), timeout=5), p.text()
        lines = p.lines()
        assert lines[16] == want["screen"][16], "the border under the score box"
        assert lines[15].startswith(want["screen"][15][:40]) and len(lines[15]) <= 80
        assert os.path.exists(os.path.join(p.cwd, name))
        quit_cleanly(p)


def test_a_larger_terminal_shows_the_board_top_left() -> None:
    want = vt_steps(5, ["p"])
    with spawn(5, rows=40, cols=120) as p:
        expect(p, want[0], "first board on 120x40")
        p.send("p")
        expect(p, want[1], "after p")
        p.resize(50, 132)
        p.send("\x0c")
        expect(p, want[1], "^L after growing")
        quit_cleanly(p)


# ---------------------------------------------------------------------------
# terminal size


def too_small_shown(p: H.Pty) -> bool:
    text = "\n".join(p.lines())
    return "at least 80x23" in text and f"{p.cols}x{p.rows}" in text


def test_small_terminal_waits_for_a_resize() -> None:
    want = vt_steps(5, ["p"])
    with spawn(5, rows=20, cols=60) as p:
        assert p.wait_for(too_small_shown, timeout=10), p.text()
        p.send("pu1 w")  # ignored while nothing can be seen (q, ^C and ^D would quit)
        p.settle(0.3)
        assert p.poll() is None and too_small_shown(p)
        p.resize(24, 80)  # the kernel sends SIGWINCH
        expect(p, want[0], "board after growing to 80x24")
        p.send("p")
        expect(p, want[1], "a key after the resize")
        quit_cleanly(p)


def test_shrinking_and_growing_back_repaints() -> None:
    want = vt_steps(5, ["p", "w"])
    with spawn(5) as p:
        expect(p, want[0], "first board")
        p.send("p")
        expect(p, want[1], "after p")
        p.resize(20, 60)
        assert p.wait_for(too_small_shown, timeout=10), p.text()
        p.send("w")  # ignored
        p.settle(0.2)
        p.resize(24, 80)
        expect(p, want[1], "repainted after growing back (the W typed while small was ignored)")
        p.send("w")
        expect(p, want[2], "W after the resize")
        quit_cleanly(p)


@pytest.mark.parametrize(
    "keys",
    [["s", "ab"], ["p", "u"], ["p", "u3"], [H.INTR], [H.INTR, "n"]],
    ids=["file-prompt", "card", "card-slot", "really", "really-n"],
)
def test_resize_repaints_every_input_state(keys: list[str]) -> None:
    """A shrink and grow while a prompt waits repaints the screen, cursor included.

    After ^C and `n` the program goes back to the interrupted read with the
    board in leave-cursor mode (as the original did), so a repaint that does
    not put the cursor back leaves it where the last update ended."""
    want = vt_steps(5, keys)[-1]
    with spawn(5) as p:
        assert p.wait_for(lambda s: s.at_move_prompt())
        for k in keys:
            p.send(k)
            p.settle(0.05)
        expect(p, want, f"before the resize, keys {keys!r}")
        p.resize(20, 60)
        assert p.wait_for(too_small_shown, timeout=10), p.text()
        p.resize(24, 80)
        expect(p, want, f"after the resize, keys {keys!r}", timeout=5)


# ---------------------------------------------------------------------------
# job control


def test_ctrl_z_restores_the_terminal_and_sigcont_repaints() -> None:
    want = vt_steps(5, ["p"])
    with H.Pty(H.mille_argv("--seed", "5"), job_control=True) as p:
        expect(p, want[0], "first board")
        job = H.job_pid(p.pid)
        assert p.foreground_pgrp() == os.getpgid(job)
        p.send(b"\x1a")  # ^Z: the tty sends SIGTSTP to the foreground job
        deadline = time.monotonic() + 5
        while H.proc_state(job) != "T" and time.monotonic() < deadline:
            p.pump(0.01)
        assert H.proc_state(job) == "T", "^Z did not stop the program"
        assert cooked(p.termios_lflag()), "while stopped, the terminal is back in its normal modes"
        # the shell draws on the screen meanwhile
        p.stream.feed(b"\x1b[H\x1b[2J[1]+  Stopped    mille\r\n$ fg\r\n")
        os.killpg(os.getpgid(job), signal.SIGCONT)
        expect(p, want[0], "repainted after SIGCONT")
        assert raw_modes_off(p.termios_lflag())
        p.send("p")
        expect(p, want[1], "playing on after ^Z")
        quit_cleanly(p)


# ---------------------------------------------------------------------------
# end of input, hangup, SIGTERM


def test_end_of_input_keeps_the_game_exits_1_and_restores_the_terminal() -> None:
    """End of input is a hangup (issue 30): the game is kept; the original exited after ~100 failed reads."""
    want = vt_steps(5, [])
    with spawn(5) as p:
        expect(p, want[0], "first board")
        # Keep a descriptor on the terminal so that its modes can be read after the exit.
        slave = os.open(p.slave_name, os.O_RDWR | os.O_NOCTTY)
        try:
            assert raw_modes_off(p.termios_lflag())
            # Non-canonical reads with VMIN=0, VTIME=0 return 0 bytes when
            # nothing is typed: standard input is at end of file from now on.
            attrs = termios.tcgetattr(p.fd)
            attrs[6][termios.VMIN] = 0
            attrs[6][termios.VTIME] = 0
            termios.tcsetattr(p.fd, termios.TCSANOW, attrs)
            p.send(" ")  # wakes the read that is already waiting (a blank is ignored)
            deadline = time.monotonic() + 10
            while p.poll() is None and time.monotonic() < deadline:
                p.pump(0.01)
            assert p.rc == 1
            assert cooked(termios.tcgetattr(slave)[3]), "the terminal modes were not restored"
            [kept] = hangup_files(p)
            assert save.read_game(kept).game.deck_count == 89
            assert f"mille: the game is saved in {kept}" in "".join(p.lines())
        finally:
            os.close(slave)


def hangup_files(p: H.Pty) -> list[str]:
    d = os.path.join(p.env["XDG_STATE_HOME"], "mille")
    names = os.listdir(d) if os.path.isdir(d) else []
    return sorted(os.path.join(d, f) for f in names if f.startswith("hangup-"))


def test_a_terminal_closed_under_a_shell_keeps_the_game() -> None:
    """The terminal goes away under the interactive shell that runs the game (an ssh drop), a few times over.

    Nobody signals the game: its reads fail at once, and the shell passes
    SIGHUP on a moment later.  (tests/ui/test_terminal_gone.py has more trials
    and setups.)
    """
    want = vt_steps(5, ["p"])
    for _ in range(5):
        with H.Pty(T.in_a_shell(H.mille_argv("--seed", "5"))) as p:
            game_pid = T.game_under(p.pid)
            expect(p, want[0], "first board")
            p.send("p")
            expect(p, want[1], "after p")
            p.close_master()
            T.wait_gone(game_pid)
            files = hangup_files(p)
            assert len(files) == 1 and os.path.basename(files[0]).startswith("hangup-")
            game = save.read_game(files[0]).game
            assert game.deck_count == 88 and game.players[0].hand[0] != -1


def test_sigterm_saves_the_game_and_exits_1() -> None:
    want = vt_steps(7, [])
    with spawn(7) as p:
        expect(p, want[0], "first board")
        os.kill(p.pid, signal.SIGTERM)
        assert p.wait_exit(EXIT_AFTER_SIGNAL_S) == 1
        files = hangup_files(p)
        assert len(files) == 1
        assert save.read_game(files[0]).game.deck_count == 89
        assert cooked(p.termios_lflag())


# ---------------------------------------------------------------------------
# the command line


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=H.MILLE_PATH + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        H.mille_argv(*args), stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=30
    )


def test_too_many_arguments_is_a_usage_error() -> None:
    res = run_cli("a", "b")
    assert res.returncode == 1
    assert "usage" in (res.stdout + res.stderr).lower()


def test_help_mentions_the_seed() -> None:
    res = run_cli("--help")
    assert res.returncode == 0
    assert "--seed" in res.stdout and "usage" in res.stdout.lower()


def test_version() -> None:
    res = run_cli("--version")
    assert res.returncode == 0
    assert __version__ in res.stdout and "mille" in res.stdout


def test_missing_save_file_is_reported() -> None:
    """§10.4: `mille: FILE: <system error text>` on standard error, status 1."""
    res = run_cli("no-such-file")
    assert res.returncode == 1
    assert "mille: no-such-file: No such file or directory" in res.stderr


def test_not_a_terminal() -> None:
    res = run_cli("--seed", "3")
    assert res.returncode == 1
    assert "terminal" in res.stderr
