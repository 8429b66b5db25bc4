"""Plain mode (``mille --plain``, issue 32) as a program: pipes, pseudo-terminals, signals, saves, tdsr.

* whole games through a pipe and through a pty, in both levels of detail:
  the transcript is exactly the one the game makes in this process (whose
  every computer move and every total is checked in test_plain.py), and
  not one escape byte;
* no terminal at all (``</dev/null``), ``TERM=dumb``, no ``TERM``, and
  curses never imported;
* the end of input, a hangup and SIGTERM keep the game, which resumes in
  plain mode as it was; ``^C`` asks ``Really?``;
* a plain save resumed on the board shows the board the board game shows at
  that point (pty), and a board save resumed in plain mode reads as the
  plain game does;
* a few turns under tdsr, a screen reader, when it is installed.

Every wait here is for what is checked (a prompt, an exit, a file).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import plain as P
from helpers import ui as H
from mille.engine import rules
from mille.engine.rules import DRAW, Move, MoveType
from mille.engine.state import Game, table
from mille.files import save
from mille.ui.keeping import Keeper
from mille.ui.plain.speaker import Naming, Speaker

#: Plain mode's sentences alone against the computer.
ALONE = Speaker(Naming.at(table()))
SEED = 4242
#: How far into a game the saves across the front ends are made (move prompts).
MOVES = 150


def plain_lines(seed: int, moves: int, detail: str = "brief") -> list[str]:
    """The lines the listener types in its first ``moves`` move prompts of a game (this process)."""
    listener = P.Listener(plan={moves + 1: [P.EOF_ANSWER]})
    P.play_here(seed, listener, detail=detail)
    return listener.typed[:-1]


def board_keys(lines: list[str]) -> list[str]:
    """Plain mode's lines as the board's key steps: ``u 3`` is ``u3`` and a space."""
    return [line.replace(" ", "") + " " if line[:2] in ("u ", "d ") else line for line in lines]


def kept_file(err: str) -> str:
    """The file a hangup kept the game in, from the line on standard error."""
    line = next(line for line in err.splitlines() if "is saved in" in line)
    assert "resume it with: mille --plain " in line, line
    return line.split("resume it with: mille --plain ", 1)[1]


# --------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize("transport", ["pipe", "pty"])
def test_a_whole_game_through_a_pipe_and_a_pty(transport: str, detail: str) -> None:
    here = P.play_here(SEED, P.Listener(), detail=detail)[2].out
    run = P.play_process(["--plain", "--seed", str(SEED), "--detail", detail], P.Listener(), transport=transport)
    assert run.status == 0, run.err
    assert b"\x1b" not in run.raw
    assert run.err == ""
    assert run.lines == here
    assert run.lines[-1] == "Save game?" and "The game is over" in "\n".join(run.lines)


def test_the_record_of_games_and_the_settings(tmp_path: Path) -> None:
    """A game played in plain mode is in the record; ``plain = true`` and ``detail`` make it the default."""
    env = P.mille_env(str(tmp_path / "state"))
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    run = P.play_process(["--plain", "--seed", "5814"], P.Listener(), cwd=str(tmp_path), env=env)
    assert run.status == 0
    stats = subprocess.run([sys.executable, "-m", "mille", "--stats", "--json"], capture_output=True, env=env)
    record = json.loads(stats.stdout)
    assert record["computers"]["bsd"]["games_played"] == 1, record
    (tmp_path / "config" / "mille").mkdir(parents=True)
    (tmp_path / "config" / "mille" / "config.toml").write_text('plain = true\ndetail = "full"\n')
    run = P.play_process(["--seed", "5814"], P.Listener(plan={1: [P.EOF_ANSWER]}), cwd=str(tmp_path), env=env)
    assert run.lines[3:6] == [
        "Your turn. Miles: you 0, computer 0. Overall: you 0, computer 0. 89 cards left.",
        "Pick a card (p).",
        "Your move:",
    ]
    res = subprocess.run(
        [sys.executable, "-m", "mille", "--detail", "full", "--no-plain"], capture_output=True, env=env
    )
    assert res.returncode == 1 and res.stderr.endswith(
        b"mille: --detail goes with --plain (or plain = true in the settings)\n"
    )


def test_no_terminal_no_term_no_curses(tmp_path: Path) -> None:
    """``</dev/null``: the opening said, the game kept at the end of input; curses is never imported."""
    blocker = tmp_path / "blocker"
    (blocker / "curses").mkdir(parents=True)
    (blocker / "curses" / "__init__.py").write_text("raise ImportError('plain mode must not import curses')\n")
    for term in ("dumb", None):
        env = P.mille_env(str(tmp_path / "state"))
        env["PYTHONPATH"] = str(blocker) + os.pathsep + env["PYTHONPATH"]
        env.pop("TERM", None)
        if term is not None:
            env["TERM"] = term
        res = subprocess.run(
            [sys.executable, "-m", "mille", "--plain", "--seed", "5814"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert res.returncode == 1, res.stderr
        assert res.stdout.decode().splitlines()[1:] == [
            "New hand: the trip is 700 miles, and you start.",
            "Your hand: P: empty; 1: 100 miles; 2: 100 miles; 3: Repairs; 4: Go; 5: 50 miles; 6: 100 miles.",
            "Your move:",
        ]
        kept = save.read_game(kept_file(res.stderr.decode())).game
        assert kept.deck_count == 89 and kept.players[0].hand[1:] == [3, 3, 12, 13, 1, 3]


# --------------------------------------------------------------------------
# Keeping the game


@pytest.mark.parametrize(("transport", "how"), [("pipe", "end of input"), ("pty", "SIGHUP"), ("pipe", "SIGTERM")])
def test_the_end_of_input_a_hangup_and_sigterm_keep_the_game(tmp_path: Path, transport: str, how: str) -> None:
    moves = 25
    stop = {"end of input": P.EOF_ANSWER, "SIGHUP": P.HUP_ANSWER, "SIGTERM": "TERM"}[how]
    kept_here: list[object] = []
    P.play_here(
        SEED, P.Listener(plan={moves: [P.EOF_ANSWER]}), keeper=Keeper(store=lambda what: kept_here.append(what.game))
    )

    def on_prompt(pid: int, lines: list[str]) -> bool:
        if stop == "TERM" and listener.moves == moves - 1 and lines[-1] == "Your move:":
            os.kill(pid, signal.SIGTERM)  # while it waits: the read is broken, the game kept
            return True
        return False

    listener = P.Listener(plan={moves: [stop]} if stop != "TERM" else {})
    run = P.play_process(
        ["--plain", "--seed", str(SEED)], listener, transport=transport, cwd=str(tmp_path), on_prompt=on_prompt
    )
    assert run.status == 1, run.err
    path = kept_file(run.err)
    assert os.path.dirname(path) == str(tmp_path / "state" / "mille")
    assert save.to_dict(save.read_game(path).game) == save.to_dict(kept_here[0])  # type: ignore[arg-type]
    # Resumed in plain mode, it reads as it was left.
    resumed = P.play_process(["--plain", path], P.Listener(plan={1: ["r", "q"]}), cwd=str(tmp_path))
    assert resumed.status == 0
    board = ALONE.board_lines(save.read_game(path).game)
    at = resumed.lines.index("Your move:")
    assert resumed.lines[at + 1 : at + 5] == board


#: Put on a child's PYTHONPATH as sitecustomize.py: the computer's move raises.
CRASH = """
from mille.players import bsd as _bsd


def _fail(self, *args, **kwargs):
    raise RuntimeError("injected fault in the computer's move")


_bsd.BsdPlayer.decide = _fail
_bsd.BsdPlayer.choose = _fail
"""


def test_a_crash_keeps_the_game_before_the_move_that_failed(tmp_path: Path) -> None:
    """The computer's move raises: three lines say what and where, no traceback, and the game resumes."""
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(CRASH)
    env = P.mille_env(str(tmp_path / "state"))
    env["PYTHONPATH"] = str(inject) + os.pathsep + env["PYTHONPATH"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mille", "--plain", "--seed", "5814"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        # Standard input stays open: the crash ends the game, not the end of input.
        proc.stdin.write(b"p\nd 1\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 1
        out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert "Traceback" not in out + err
    said = err.splitlines()
    assert said[0] == "mille: internal error: RuntimeError: injected fault in the computer's move"
    prefix = "mille: the game, as it was before the move that failed, is saved in "
    assert said[1].startswith(prefix), said
    path = said[1][len(prefix) :].split("; resume it with: mille --plain ", 1)[1]
    assert os.path.dirname(path) == str(tmp_path / "state" / "mille")
    assert os.path.basename(path).startswith("crash-") and path.endswith(".json")
    report = path[: -len(".json")] + ".txt"
    assert said[2] == f"mille: the full report is in {report}"
    assert "injected fault" in Path(report).read_text()
    # The game as it was before the computer's move: the person's draw and discard made.
    expected = Game()
    expected.rng.seed(5814)
    rules.settle_game(expected)
    rules.start_hand(expected)
    rules.push(expected, DRAW)
    rules.push(expected, Move(MoveType.DISCARD, 1))
    assert save.to_dict(save.read_game(path).game) == save.to_dict(expected)
    # Resumed in plain mode (without the fault), the computer moves and it is the person's turn.
    resumed = P.play_process(["--plain", path], P.Script(["q", "y"]), cwd=str(tmp_path))
    assert resumed.status == 0, resumed.err
    assert any(line.startswith("The computer ") for line in resumed.lines), resumed.lines
    assert "Your move:" in resumed.lines


def test_the_interrupt_key_asks_really_on_a_pty(tmp_path: Path) -> None:
    with H.Pty([*H.mille_argv("--plain", "--seed", "5"), "--no-stats"], cwd=str(tmp_path)) as p:
        assert p.wait_for(lambda q: bytes(q.raw).endswith(b"Your move:\r\n"), timeout=30)
        p.send("\x03")
        assert p.wait_for(lambda q: bytes(q.raw).endswith(b"Really?\r\n"), timeout=30)
        # The terminal's echo of ^C, then Really? on a line of its own (they shared one, issue 36).
        assert bytes(p.raw).endswith(b"Your move:\r\n^C\r\nReally?\r\n"), bytes(p.raw)[-60:]
        p.send("n\r")
        assert p.wait_for(lambda q: bytes(q.raw).endswith(b"Your move:\r\n"), timeout=30)
        p.send("p\r")
        assert p.wait_for(lambda q: b"You pick Go." in bytes(q.raw), timeout=30)
        p.send("q\r")
        assert p.wait_for(lambda q: bytes(q.raw).endswith(b"Really?\r\n"), timeout=30)
        p.send("y\r")
        assert p.wait_exit(30) == 0
        assert b"\x1b" not in bytes(p.raw)


def test_ctrl_backslash_keeps_the_game_as_on_the_board(tmp_path: Path) -> None:
    """``^\\`` (SIGQUIT through the terminal) keeps the game as the board does: a file, status 1, resumable.

    It killed the game and kept nothing before (issue 36): plain mode heard
    SIGINT, SIGHUP and SIGTERM, the board SIGQUIT too.
    """
    state = tmp_path / "state"
    argv = [*H.mille_argv("--plain", "--seed", "5"), "--no-stats"]
    with H.Pty(argv, env={"XDG_STATE_HOME": str(state)}, cwd=str(tmp_path)) as p:
        assert p.wait_for(lambda q: bytes(q.raw).endswith(b"Your move:\r\n"), timeout=30)
        p.send("p\r")
        assert p.wait_for(lambda q: b"You pick Go." in bytes(q.raw), timeout=30)
        p.send(b"\x1c")
        assert p.wait_exit(30) == 1  # the board's status after ^\\ (test_terminal_gone.py)
        said = bytes(p.raw).decode("utf-8", "replace").replace("\r\n", "\n")
    [name] = os.listdir(state / "mille")
    path = str(state / "mille" / name)
    assert path in said.replace("\n", ""), said
    # The line on standard error is broken into rows as the game's lines are, none as wide as the terminal.
    rows = said[said.index("mille: the game is saved in") :].splitlines()
    assert len(rows) > 1 and all(len(row) < 80 for row in rows), rows
    expected = Game()
    expected.rng.seed(5)
    rules.settle_game(expected)
    rules.start_hand(expected)
    rules.push(expected, DRAW)
    assert save.to_dict(save.read_game(path).game) == save.to_dict(expected)
    resumed = P.play_process(["--plain", path], P.Script(["q", "y"]), cwd=str(tmp_path))
    assert resumed.status == 0, resumed.err
    assert "Your move:" in resumed.lines


# --------------------------------------------------------------------------
# Saves across the two front ends


def _masked(screen: list[str]) -> list[str]:
    """Without what tells a live board from a restored one: the prompt's echo, the
    computer's last action (not saved, §8.6) and the message line (§8.5)."""
    out = []
    for y, line in enumerate(screen):
        line = line.ljust(80)
        if y in (10, 11, 12):
            line = line[:20] + " " * 20 + line[40:]
        if y == 15:
            line = line[:40]
        out.append(line.rstrip())
    return out


def test_a_plain_save_resumed_on_the_board_shows_the_board_games_board(tmp_path: Path) -> None:
    lines = plain_lines(5814, MOVES)
    name = str(tmp_path / "plain.json")
    run = P.play_process(["--plain", "--seed", "5814"], P.Script(lines + ["s", name, "q", "y"]), cwd=str(tmp_path))
    assert run.status == 0 and os.path.exists(name), run.lines[-5:]
    live = H.vt_replay(5814, board_keys(lines))[0][-1]
    with H.Pty(H.mille_argv("--no-stats", name), cwd=str(tmp_path)) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=30), p.text()
        assert _masked(p.lines()) == _masked(live["screen"])
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=30)
        p.send("y")
        assert p.wait_exit(30) == 0


def test_a_board_save_resumed_in_plain_mode_reads_as_the_plain_game(tmp_path: Path) -> None:
    lines = plain_lines(5814, MOVES)
    name = str(tmp_path / "board.json")
    H.vt_replay(5814, [*board_keys(lines), "s", name + "\r"], save_writer=save.write_game)
    _, app, term, _ = P.play_here(5814, P.Script([*lines, "r", "w", "q", "y"]))
    reading = [*ALONE.board_lines(app.game), "Your move:", *ALONE.score_lines(app.game)]
    at = term.out.index(reading[0])
    assert term.out[at : at + len(reading)] == reading  # what r and w read in the plain game
    assert app.game.players[1].mileage > 0 and app.game.players[0].mileage > 0
    run = P.play_process(["--plain", name], P.Script(["r", "w", "q", "y"]), cwd=str(tmp_path))
    assert run.status == 0
    at = run.lines.index("Your move:")
    assert run.lines[at + 1 : at + 1 + len(reading)] == reading
    assert json.loads(Path(name).read_text())["computer"] == "bsd"


# --------------------------------------------------------------------------
# Heard through a screen reader


def _tdsr() -> str | None:
    """A working tdsr (``$MILLE_TDSR``, or ``tdsr`` on the PATH), or None."""
    found = os.environ.get("MILLE_TDSR") or shutil.which("tdsr")
    if not found or not os.access(found, os.X_OK):
        return None
    with open(found, "rb") as f:
        first = f.readline()
    interpreter = first[2:].decode().strip() if first.startswith(b"#!") else sys.executable
    probe = subprocess.run([interpreter, "-c", "import tdsr, pyte"], capture_output=True, timeout=60)
    return found if probe.returncode == 0 else None


def test_a_few_turns_heard_through_tdsr(tmp_path: Path) -> None:
    tdsr = _tdsr()
    if tdsr is None:
        pytest.skip("tdsr is not installed (pip install tdsr2, in a virtualenv of its own; or set MILLE_TDSR)")
    home = tmp_path / "home"
    (home / ".config" / "tdsr").mkdir(parents=True)
    said_log = tmp_path / "said.log"
    said_log.touch()
    program = [sys.executable, "-m", "mille", "--plain", "--seed", "5814", "--no-stats"]
    argv = [tdsr, "-s", f"sh -c 'cat >> {said_log}'", "--", *program]

    def said() -> list[str]:
        return [line[1:] for line in said_log.read_text().splitlines() if line.startswith("s")]

    def heard(count: int) -> bool:
        return sum(line == "Your move:" for line in said()) >= count

    with H.Pty(argv, env={"HOME": str(home), "PYTHONPATH": P.SRC}, cwd=str(tmp_path)) as p:
        assert p.wait_for(lambda q: heard(1), timeout=60), said()
        for count, command in enumerate(["p", "u 4", "w"], 2):
            p.send(command + "\r")
            assert p.wait_for(lambda q, c=count: heard(c), timeout=60), said()
        p.send("q\r")
        assert p.wait_for(lambda q: "Really?" in said(), timeout=60)
        p.send("y\r")
        p.wait_exit(30)
    spoken = " ".join(said())  # a long line is spoken a row at a time
    assert "You pick 25 miles." in spoken
    assert "You play Go: you can move." in spoken
    assert "The computer plays Stop on you: you are stopped and need Go." in spoken
    assert "Overall Total: you 0, computer 0." in spoken
    assert "\x1b" not in spoken and "--HAND--" not in spoken
