#!/usr/bin/env python3
"""Helpers for the curses front end's tests (tests/ui/).

Three parts:

* **Headless replays.**  :func:`vt_replay` plays a list of key steps through
  :class:`mille.ui.flow.GameFlow` holding a :class:`mille.ui.app.BoardFace` on a
  :class:`~mille.ui.surface.VirtualTerminal`
  and snapshots the screen each time the program waits for a key with nothing
  left to read, exactly where the bsdref harness snapshots a real program (it
  waits until the child has read every key and sleeps in ``read(0)``).  ``\\x03``
  in a step is the interrupt key: the tty turns it into SIGINT for a real
  program, the virtual terminal into :data:`~mille.ui.surface.INTERRUPT`.

* **Real-program fixtures.**  ``tests/ui_fixtures/bsd_screens.json.gz`` holds
  screens of the real 4.4BSD mille (Debian bsdgames 2.17) for the key scripts
  in :data:`SCENARIOS`, recorded by this file::

      python3 tests/helpers/ui.py record            # all scenarios
      python3 tests/helpers/ui.py record NAME ...   # re-record some
      python3 tests/helpers/ui.py show NAME         # print a recorded scenario

  Recording needs ``/usr/games/mille`` and the bsdref harness
  (``<repo>/../shared/bsdref``, or ``$BSDREF``) with its seed shim built; the
  tests only read the stored file.  Nothing in it is edited by hand: screens
  are stored as drive.py snapshots them, with trailing blanks removed and the
  clock time of a save message replaced by ``[DATE]`` (the tests mask our
  program's screens the same way).  The file is written deterministically
  (sorted keys, gzip mtime 0), so re-recording gives identical bytes.

* **A pty session** (:class:`Pty`) that runs ``python -m mille`` with the real
  curses backend on a pseudo-terminal of any size, feeding its output into a
  pyte screen that also understands REP (``CSI Ps b``), which ncurses uses with
  TERM=xterm and stock pyte drops.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import io
import json
import os
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

if __name__ == "__main__":  # run by its path: the tests' folder on the path, for ``helpers``
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from helpers import REPO, TESTS
from helpers.procs import processes

FIXTURE_DIR = os.path.join(TESTS, "ui_fixtures")
FIXTURE_FILE = os.path.join(FIXTURE_DIR, "bsd_screens.json.gz")
BSDREF = os.environ.get("BSDREF") or os.path.normpath(os.path.join(REPO, "..", "shared", "bsdref"))
REAL_MILLE = "/usr/games/mille"

import mille as _mille  # noqa: E402
from mille.engine import rules  # noqa: E402
from mille.engine.rng import GlibcRandom  # noqa: E402
from mille.engine.state import Game  # noqa: E402
from mille.ui.app import board_flow  # noqa: E402
from mille.ui.flow import GameFlow, Setup  # noqa: E402
from mille.ui.session import DEFAULT_COMPUTER, computer_player  # noqa: E402
from mille.ui.surface import HANGUP, INTERRUPT, VirtualTerminal  # noqa: E402

#: Where the imported package lives: child processes run the same code.
MILLE_PATH = os.path.dirname(os.path.dirname(os.path.abspath(_mille.__file__)))

ROWS, COLS = 24, 80
#: The interrupt key in a step: SIGINT through a real tty, INTERRUPT here.
INTR = "\x03"
#: A hangup in a step (virtual terminal only): HANGUP.
HUP = "\x00HUP\x00"

_DATE = re.compile(r"\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]")


def mask_dates(line: str) -> str:
    """Replace the ctime() text of a save/restore message by ``[DATE]``, keeping the width."""
    return _DATE.sub(lambda m: "[DATE]".ljust(len(m.group(0))), line)


def norm_screen(lines: Iterable[str]) -> list[str]:
    """24 lines, trailing blanks removed, dates masked."""
    out = [mask_dates(line).rstrip(" ") for line in lines]
    out += [""] * (ROWS - len(out))
    return out[:ROWS]


def keys_to_codes(keys: str) -> list[int]:
    """A step's keys as the virtual terminal's input codes."""
    codes: list[int] = []
    rest = keys
    while rest:
        if rest.startswith(HUP):
            codes.append(HANGUP)
            rest = rest[len(HUP) :]
            continue
        ch = rest[0]
        codes.append(INTERRUPT if ch == INTR else ord(ch))
        rest = rest[1:]
    return codes


# ---------------------------------------------------------------------------
# Headless replays
# ---------------------------------------------------------------------------


class EndOfScript(Exception):
    """Raised from read_byte when the script has no more steps."""


def vt_snapshot(vt: VirtualTerminal, *, keys: str = "", exited: bool = False, rc: int | None = None) -> dict[str, Any]:
    return {
        "keys": keys,
        "screen": norm_screen(vt.lines()),
        "cursor": list(vt.cursor),
        "attrs": [list(r) for r in vt.attr_runs()],
        "exited": exited,
        "rc": rc,
    }


class ScriptTerminal(VirtualTerminal):
    """A virtual terminal that hands out one step of keys at a time.

    Each time the program wants a key and the current step is used up, the
    screen is snapshotted (the program is "waiting for input") and the next
    step's keys are queued.  After the last step :class:`EndOfScript` ends the
    run (``GameFlow.run`` lets it through: it only catches its own exit).
    """

    def __init__(self, steps: Sequence[str]) -> None:
        super().__init__()
        self.steps = list(steps)
        self.snaps: list[dict[str, Any]] = []
        self.on_wait: Callable[[ScriptTerminal], None] | None = None
        #: The keys of the step being played.
        self.step_keys = ""

    def read_byte(self) -> int:
        while not self.keys:
            self.snaps.append(vt_snapshot(self, keys=self.step_keys))
            if self.on_wait is not None:
                self.on_wait(self)
            if not self.steps:
                raise EndOfScript
            self.step_keys = self.steps.pop(0)
            self.keys.extend(keys_to_codes(self.step_keys))
        return self.keys.pop(0)


new_game = rules.new_game


def make_app(term: VirtualTerminal, game: Game, **kwargs: Any) -> GameFlow:
    """The game's flow (:class:`mille.ui.flow.GameFlow`) on ``term``, with the computer ``mille`` seats by default
    unless ``kwargs`` choose one.

    The default is the original's computer, ``bsd``, rolling the game's own
    generator (:func:`mille.ui.session.computer_player`); a ``computer`` given
    without a name or dice is called ``bsd`` and rolls the game's generator.
    """
    if "computer" not in kwargs:
        player, dice = computer_player(DEFAULT_COMPUTER, 1, game)
        kwargs["computer"] = player
        kwargs.setdefault("computer_dice", dice)
    kwargs.setdefault("computer_name", DEFAULT_COMPUTER)
    kwargs.setdefault("computer_dice", game.rng)
    return board_flow(term, game, setup(**kwargs))


def setup(computer: Any, computer_name: str, computer_dice: GlibcRandom, **kwargs: Any) -> Setup:
    """A run's :class:`~mille.ui.flow.Setup` from keywords (tests name what they set)."""
    return Setup(computer, computer_name, computer_dice, **kwargs)


def vt_replay(
    seed: int | None,
    steps: Sequence[str],
    *,
    game: Game | None = None,
    run_kwargs: dict[str, Any] | None = None,
    **app_kwargs: Any,
) -> tuple[list[dict[str, Any]], GameFlow, ScriptTerminal]:
    """Play ``steps`` headless; one snapshot per step plus the initial screen.

    Returns (snapshots, app, terminal).  A program exit (``GameExit``) ends the
    run early: its last snapshot has ``exited`` True and the exit status.
    """
    if game is None:
        assert seed is not None
        game = new_game(seed)
    vt = ScriptTerminal(steps)
    app = make_app(vt, game, **app_kwargs)
    try:
        status = app.run(**(run_kwargs or {}))
    except EndOfScript:
        return vt.snaps, app, vt
    vt.snaps.append(vt_snapshot(vt, keys=vt.step_keys, exited=True, rc=status))
    return vt.snaps, app, vt


def screen_text(snap: dict[str, Any]) -> str:
    return "\n".join(f"{i:2d}|{line}" for i, line in enumerate(snap["screen"]))


def diff_snaps(want: dict[str, Any], got: dict[str, Any], *, cursor: bool = True, attrs: bool = True) -> str:
    """'' when equal; else a readable report of the differing rows."""
    out: list[str] = []
    for i, (a, b) in enumerate(zip(want["screen"], got["screen"])):
        if a != b:
            out.append(f"row {i:2d} want |{a}|")
            out.append(f"       got  |{b}|")
    if cursor and list(want["cursor"]) != list(got["cursor"]):
        out.append(f"cursor want {want['cursor']} got {got['cursor']}")
    if attrs and [list(r) for r in want["attrs"]] != [list(r) for r in got["attrs"]]:
        out.append(f"attrs want {want['attrs']} got {got['attrs']}")
    if bool(want.get("exited")) != bool(got.get("exited")):
        out.append(f"exited want {want.get('exited')} got {got.get('exited')}")
    return "\n".join(out)


def row(snap: dict[str, Any], y: int) -> str:
    return snap["screen"][y].ljust(COLS)


# ---------------------------------------------------------------------------
# Real-program fixtures
# ---------------------------------------------------------------------------

#: Appendix A of the reference: seed 42, the human completes exactly 700 and
#: declines the extension (the last step).
APPENDIX_A = """pu0 pd0 pu4 pu0 pu0 pu5 pu1 pu0 pu0 pu4 pu6 pu5
pu0 pd0 pd0 pd0 pd0 pu0 pu0 pd0 pd0 pd0 pd0 pu0""".replace("\n", " ").split(" ")


def _split_moves(moves: Sequence[str]) -> list[str]:
    """'pu0' -> 'p', 'u0 ' (one step per command, a space after the slot)."""
    steps: list[str] = []
    for m in moves:
        steps.append(m[0])
        steps.append(m[1:] + " ")
    return steps


_A = _split_moves(APPENDIX_A)

#: name -> spec.  "seed"; "steps" (key strings, "\x03" = ^C) or "policy"
#: ("first" + "max_hands"/"max_games"/"max_steps": the bsdref policy picks the
#: keys from the real screens; the keys are stored with the screens);
#: "files": names created (empty) in the program's directory first.
SCENARIOS: dict[str, dict[str, Any]] = {
    # §8.9: the first board of seed 5814, then quit.
    "start5814": {"seed": 5814, "steps": ["q", "y"]},
    # §9.1 keys at the move prompt, both cases; messages of the command
    # reader show at the next score refresh (here: O, a move) - §8.5/§11.25.
    "movekeys": {
        "seed": 5,
        "steps": [
            "x",
            "o",  # unknown command: X, shown by the O move
            "X",
            "O",
            "\x01",
            "o",  # ^A
            "\t",
            "o",  # ^I
            "1",
            "o",  # a digit
            "~",
            "o",
            "\x1b",
            "o",  # ^[
            "\x1b[A",
            "o",  # an arrow key: three unknown commands, the last shows
            "\x80",
            "o",  # bytes 128-159: ~@ .. ~_
            "\x9b",
            "o",
            "e",
            "o",  # E: command not implemented
            "E",
            "O",
            "x",
            "w",
            "w",
            "o",  # W erases the pending message
            "z",
            "r",
            "\x0c",
            "o",  # R and ^L repaint; the message is still pending
            "\r",
            "\n",
            " ",
            "\x00",
            "\x7f",
            "\x15",  # ignored
            "p",
            "P",  # already picked (a move: shows at once)
            "q",
            "x",
            "\r",
            "\x0c",
            "n",  # Really? from Q: bad keys, ^L, no
            "Q",
            "N",
            "s",
            "\r",  # save dialog, empty name: nothing
            "S",
            "ab",
            "\x7f",
            "\x15",
            "\r",
            "d1 ",
            "q",
            "Y",
        ],
    },
    # Bytes 160-255: the real program shows the raw byte (one column) in
    # the message and in the card-number echo (the recording terminal
    # decodes UTF-8, so a lone Latin-1 byte shows as U+FFFD).
    "highbytes": {
        "seed": 5,
        "steps": ["\xe9", "o", "\xff", "o", "\xa0", "o", "p", "u", "\xe9", "\x80", "\xff", "3", " ", "q", "y"],
    },
    # ...and each such key echoed as a card number moves the cursor one
    # column left (one column of echo, two back), over the prompt line.
    "highbytes_walk": {
        "seed": 5,
        "steps": ["p", "u", "\xe9" * 12, "\xe9" * 12, "3", " ", "q", "y"],
    },
    # §9.2 card entry.
    "cardentry": {
        "seed": 7,
        "steps": [
            "p",
            "u",
            "x",
            "\x01",
            "7",
            "\x7f",  # bad keys echo, cursor back; erase cancels
            "U",
            "\x15",  # kill cancels
            "u",
            "3",
            "x",
            "\x01",
            "\x7f",  # junk after the slot ignored; erase retypes
            "5",
            "\x15",  # kill cancels the whole command
            "u",
            " ",
            "\r",
            "\n",
            "6",
            "\r",  # leading blanks skipped; RETURN confirms
            "p",
            "U",
            "p",
            "\n",  # UP, LF confirms
            "p",
            "d",
            "0",
            " ",  # D0
            "p",
            "u3 ",
            "q",
            "y",
        ],
    },
    "cardentry2": {
        "seed": 11,
        "steps": ["p", "u3\r", "p", "UP ", "p", "d0\r", "p", "u 3 ", "p", "u9", "\x7f", "d6\n", "q", "y"],
    },
    # ^C at the move prompt, in card entry, at yes/no prompts; §9.5, §11.37.
    "interrupt": {
        "seed": 5,
        "steps": [
            INTR,
            "x",
            "n",  # Really? N stays
            "p",  # the key is echoed after the N
            "u",
            INTR,
            "n",
            "1",
            "\x7f",
            "2 ",
            INTR,
            "s",
            "\r",
            "n",  # S at Really?: save dialog, then asked again
            "q",
            INTR,
            "n",  # ^C while Really? is up is ignored
            "w",
            INTR,
            "y",
        ],
    },
    # Order (§11.23) and the W toggle (§11.27).
    "order": {
        "seed": 2,
        "steps": ["o", "w", "o", "w", "O", "p", "d6 ", "p", "u1 ", "w", "q", "y"],
    },
    # Appendix A: a whole hand to Extension? n, the end-of-hand screen and
    # Another hand? (bad keys, ^L, yes), then hand 2, started by the computer.
    "appendix_a": {
        "seed": 42,
        "steps": _A[:-1] + ["u0", "x", " ", "x", "\r", "\x0c", "n", "\x0c", "q", "\r", "Y", "p", "u1 ", "q", "y"],
    },
    # The same hand, extension taken; the full window during play.
    "extension_yes": {
        "seed": 42,
        "steps": _A + ["x", "\x0c", "\x01", "y", "p", "w", "d1 ", "w", "q", "y"],
    },
    # Another hand? n, Save game? (bad keys, ^L) n: exit 0.
    "save_game": {
        "seed": 42,
        "steps": _A + ["n", "x", "n", "x", "\x0c", "\r", "N"],
    },
    # Save game? y with an empty name: the save failed, so another hand
    # starts (§11.31).
    "save_game_empty": {
        "seed": 42,
        "steps": _A + ["n", "n", "y", "\r", "p", "q", "y"],
    },
    # Save game? y, an existing file, Overwrite file? n: another hand.
    "save_game_overwrite_no": {
        "seed": 42,
        "steps": _A + ["n", "n", "y", "exists\r", "x", "n", "q", "y"],
        "files": ["exists"],
    },
    # S at Extension? (empty name: asked again), S at Another hand? saves;
    # then Another hand? n leaves at once, no Save game? (§11.32).
    "save_at_prompts": {
        "seed": 42,
        "steps": _A + ["s", "\r", "n", "S", "saved\r", "n"],
    },
    # Save game? y, a new file: saved, exit 0.
    "save_game_yes": {
        "seed": 42,
        "steps": _A + ["n", "n", "Y", "newfile\r"],
    },
    # Overwrite file? during play.
    "overwrite": {
        "seed": 9,
        "steps": ["s", "exists\r", "x", "\x0c", "\r", "n", "s", "exists\r", "y", "p", "q", "y"],
        "files": ["exists"],
    },
    # The file: prompt: control characters echo as ^X, erase takes two
    # columns for them, kill restarts; names with control characters.
    "filename": {
        "seed": 9,
        "steps": ["s", "a\x01b", "\x7f", "\x7f", "\x15", "g\x01h\r", "o", "s", "t\tu\r", "o", "q", "y"],
    },
    # A message exactly as wide as the error line (35 columns): curses
    # wraps the cursor onto the last row, where clrtoeol() then does
    # nothing, so the border under the score box stays.
    "message35": {
        "seed": 5,
        "steps": ["s", "abcdefgh\r", "o", "q", "y"],
    },
    # A failed save: the system's error text, shown late (§8.5).
    "save_error": {
        "seed": 9,
        "steps": ["s", "nodir/g\r", "r", "o", "q", "y"],
    },
    # Save during play, then restore it (a second run, `mille g1`): the
    # banner, Same file? (bad key, yes), Same file? no + an existing name
    # overwrites without asking (§11.33).
    "restore": {
        "seed": 9,
        "steps": ["p", "d1 ", "s", "g1\r", "q", "y"],
        "restore": {
            "file": "g1",
            "steps": ["p", "s", "x", "\x0c", "y", "S", "n", "g1\r", "s", "N", "\r", "d2 ", "q", "y"],
        },
    },
    # Hands 1-3 with the harness's `first` policy: a new hand started by the
    # human shows the previous hand's discard (§11.24) and blank PLAY lines.
    "hands": {"seed": 1, "policy": "first", "max_hands": 3, "stop_after_hand": 2, "extra_steps": 3},
    # A whole game to Another game? (totals past 5000): n, then Save game? n.
    "game": {"seed": 4, "policy": "first", "max_games": 1, "max_steps": 900},
    # The same game, Another game? (bad key, ^L) y: a new game.
    "game_again": {
        "seed": 4,
        "base": "game",
        "until": "Another game?",
        "then": ["x", "\x0c", "y", "p", "q", "y"],
    },
}


@contextlib.contextmanager
def chdir(path: str) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def as_utf8_terminal(snap: dict[str, Any]) -> dict[str, Any]:
    """Our screen as the recording terminal would show it.

    The real program writes bytes 160-255 raw; the recording terminal decodes
    UTF-8, where such a lone byte shows as U+FFFD.  The same cell of our
    screen holds the Latin-1 character.
    """
    out = dict(snap)
    out["screen"] = [re.sub("[\xa0-\xff]", "\ufffd", line) for line in snap["screen"]]
    return out


def replay_fixture(sc: dict[str, Any], workdir: str) -> list[dict[str, Any]]:
    """Play a recorded scenario's keys headless, in ``workdir``; snapshots align with ``sc["steps"]``."""
    from mille.files import save

    phase1 = [st["keys"] for st in sc["steps"] if st.get("phase", 1) == 1][1:]
    for name in sc.get("files", ()):
        open(os.path.join(workdir, name), "w").close()
    with chdir(workdir):
        snaps, _app, _vt = vt_replay(sc["seed"], phase1, save_writer=save.write_game)
        if "restore" in sc:
            file = sc["restore"]["file"]
            phase2 = [st["keys"] for st in sc["steps"] if st.get("phase") == 2][1:]
            loaded = save.read_game(file)
            game = loaded.game
            game.rng.seed(sc["seed"])
            more, _app, _vt = vt_replay(
                None,
                phase2,
                game=game,
                save_writer=save.write_game,
                from_file=file,
                restore_banner=f"{file} [{save.mtime_text(file)}]",
                window=loaded.window,
                run_kwargs={"restore": True},
            )
            for snap in more:
                snap["phase"] = 2
            snaps += more
    return [as_utf8_terminal(s) for s in snaps]


def load_fixtures() -> dict[str, Any]:
    with gzip.open(FIXTURE_FILE, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _import_bsdref() -> Any:
    if BSDREF not in sys.path:
        sys.path.insert(0, BSDREF)
    import drive  # type: ignore[import-not-found]

    return drive


def scenario_keys(name: str, data: dict[str, Any]) -> list[str]:
    """The keys of a scripted scenario (a "base" one takes a recorded run's keys)."""
    spec = SCENARIOS[name]
    if "base" not in spec:
        return list(spec["steps"])
    base = data["scenarios"][spec["base"]]["steps"]
    for i, st in enumerate(base):
        if spec["until"] in st["screen"][10]:
            return [b["keys"] for b in base[1 : i + 1]] + list(spec["then"])
    raise ValueError(f"{name}: {spec['until']!r} not in {spec['base']}")


def _record_steps(
    drive: Any, seed: int, steps: Sequence[str], cwd: str, args: Sequence[str] = ()
) -> list[dict[str, Any]]:
    argv = drive.format_cmd(drive.DEFAULT_CMD, seed) + list(args)
    recs: list[dict[str, Any]] = []
    with drive.Session(argv, term="xterm", cwd=cwd, ready=None, fast=True, quiet_ms=150.0) as sess:
        snap = sess.start()
        recs.append(_rec("", snap))
        for keys in steps:
            if snap.exited:
                break
            snap = sess.step(keys)
            recs.append(_rec(keys, snap))
    return recs


def _rec(keys: str, snap: Any) -> dict[str, Any]:
    return {
        "keys": keys,
        "screen": norm_screen(snap.lines),
        "cursor": list(snap.cursor),
        "attrs": snap.attrs,
        "exited": bool(snap.exited),
        "rc": snap.rc,
    }


def _record_policy(drive: Any, name: str, spec: dict[str, Any], cwd: str) -> list[dict[str, Any]]:
    import policies  # type: ignore[import-not-found]

    kw: dict[str, Any] = {"max_steps": spec.get("max_steps", 600)}
    for k in ("max_hands", "max_games"):
        if k in spec:
            kw[k] = spec[k]
    if "stop_after_hand" in spec:
        # First find the step where hand `stop_after_hand`+1 starts, then
        # record again stopping a few steps later.
        probe = drive.run_game(drive.DEFAULT_CMD, spec["seed"], policies.FirstPolicy(), cwd=cwd, **kw)
        seen = 0
        stop = None
        for i in range(1, len(probe.steps)):
            asked = "Another hand?" in probe.steps[i - 1]["screen"][10]
            if asked and probe.steps[i]["keys"] == "y":
                seen += 1
                if seen == spec["stop_after_hand"]:
                    stop = i + spec.get("extra_steps", 3)
                    break
        assert stop is not None, f"{name}: hand {spec['stop_after_hand'] + 1} never started"
        kw["max_steps"] = stop
    res = drive.run_game(drive.DEFAULT_CMD, spec["seed"], policies.FirstPolicy(), cwd=cwd, **kw)
    return [
        {
            "keys": r["keys"],
            "screen": norm_screen(r["screen"]),
            "cursor": r["cursor"],
            "attrs": r["attrs"],
            "exited": r["exited"],
            "rc": r["rc"],
        }
        for r in res.steps
    ]


def record(names: Sequence[str] = ()) -> None:
    drive = _import_bsdref()
    if not os.path.exists(drive.SHIM):
        raise SystemExit(f"seed shim missing: run {BSDREF}/build.sh")
    if not os.path.exists(REAL_MILLE):
        raise SystemExit(f"{REAL_MILLE} missing (apt-get install bsdgames)")
    try:
        data = load_fixtures()
    except FileNotFoundError:
        data = {"scenarios": {}}
    data["meta"] = {
        "program": REAL_MILLE + " (Debian bsdgames 2.17, 4.4BSD mille), seeded through bsdref/seedshim.so",
        "recorded_by": "python3 tests/helpers/ui.py record",
        "harness": "bsdref drive.Session, TERM=xterm, 80x24, one write per step, fast settle probe",
        "notes": "screens: trailing blanks removed, save-message dates replaced by [DATE]",
    }
    todo = list(names) or list(SCENARIOS)
    for name in todo:
        spec = SCENARIOS[name]
        work = tempfile.mkdtemp(prefix="ui-record-")
        try:
            for f in spec.get("files", ()):
                open(os.path.join(work, f), "w").close()
            if "policy" in spec:
                steps = _record_policy(drive, name, spec, work)
            else:
                steps = _record_steps(drive, spec["seed"], scenario_keys(name, data), work)
                if "restore" in spec:
                    more = _record_steps(
                        drive, spec["seed"], spec["restore"]["steps"], work, args=[spec["restore"]["file"]]
                    )
                    for st in more:
                        st["phase"] = 2
                    steps += more
        finally:
            shutil.rmtree(work, ignore_errors=True)
        entry = {k: v for k, v in spec.items() if k != "steps"}
        entry["steps"] = steps
        data["scenarios"][name] = entry
        print(f"{name}: {len(steps)} screens", file=sys.stderr)
    os.makedirs(FIXTURE_DIR, exist_ok=True)
    text = json.dumps(data, sort_keys=True, indent=0, separators=(",", ":")) + "\n"
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    with open(FIXTURE_FILE, "wb") as out:
        out.write(buf.getvalue())


def show(name: str) -> None:
    sc = load_fixtures()["scenarios"][name]
    for i, st in enumerate(sc["steps"]):
        print(f"== step {i} keys={st['keys']!r} cursor={st['cursor']} exited={st['exited']} rc={st['rc']}")
        print(screen_text(st))


# ---------------------------------------------------------------------------
# A pty session for the real curses backend
# ---------------------------------------------------------------------------


def _pyte() -> Any:
    """The golden replayer's pyte stream and screen (with REP and a bell counter)."""
    from helpers import ptyreplay

    return ptyreplay._Stream, ptyreplay.Terminal


def mille_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "mille", *args]


def have_terminfo(term: str) -> bool:
    """Does this machine's curses know ``term``?  Tests look first: which entries a machine has varies
    (Debian's ncurses-term, pulled in by openssh-server, has alacritty, kitty, foot, wezterm...)."""
    import subprocess

    probe = f"import curses, sys; curses.setupterm({term!r}, sys.stdout.fileno())"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=30)
    return res.returncode == 0


def fork_on_pty(master: int, slave: int, argv: Sequence[str], cwd: str, env: dict[str, str]) -> int:
    """Run ``argv`` in ``cwd`` in a session of its own whose controlling terminal is the pty ``slave``.

    Returns the child's pid; this side keeps ``master`` (made non-blocking) and closes ``slave``.
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        try:
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            os.chdir(cwd)
            os.execvpe(argv[0], list(argv), env)
        finally:
            os._exit(127)
    os.close(slave)
    os.set_blocking(master, False)
    return pid


class Pty:
    """``argv`` on a pseudo-terminal of ``rows`` x ``cols``; output goes to a pyte screen.

    The child runs in its own session with the pty as controlling terminal
    (so ^C is SIGINT), in ``cwd`` (a scratch directory by default) with
    PYTHONPATH=src and $XDG_STATE_HOME in the scratch directory.  With
    ``job_control`` a tiny shell-like parent (session leader) runs the
    program as a foreground job in its own process group, so that ^Z really
    stops it (a session leader's group is orphaned, and the kernel drops
    stop signals for orphaned groups).
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        rows: int = ROWS,
        cols: int = COLS,
        term: str = "xterm",
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        job_control: bool = False,
    ) -> None:
        stream_cls, screen_cls = _pyte()
        self.argv = list(argv)
        self.rows, self.cols = rows, cols
        self.screen = screen_cls(cols, rows)
        self.stream = stream_cls(self.screen)
        self.scratch = tempfile.mkdtemp(prefix="ui-pty-")
        self.cwd = cwd or self.scratch
        self.env = dict(os.environ)
        for k in ("LINES", "COLUMNS", "TERMCAP", "LD_PRELOAD", "MILLE_SEED"):
            self.env.pop(k, None)
        self.env["TERM"] = term
        self.env["PYTHONPATH"] = MILLE_PATH + os.pathsep + self.env.get("PYTHONPATH", "")
        self.env["XDG_STATE_HOME"] = os.path.join(self.scratch, "state")
        self.env.update(env or {})
        self.job_control = job_control
        self.pid: int | None = None
        self.fd: int | None = None
        self.rc: int | None = None
        self.raw = bytearray()
        self._spawn()

    def _spawn(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
        self.slave_name = os.ttyname(slave)
        argv = self.argv
        if self.job_control:
            argv = [sys.executable, "-c", _JOB_SHELL, *argv]
        self.pid, self.fd = fork_on_pty(master, slave, argv, self.cwd, self.env), master

    # -- output --------------------------------------------------------------
    def pump(self, timeout: float) -> int:
        """Read what the child wrote within ``timeout``; bytes read, -1 at EOF."""
        if self.fd is None:
            return -1
        try:
            r, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        except InterruptedError:
            return 0
        if not r:
            return 0
        total = 0
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                return total or -1
            if not data:
                return total or -1
            total += len(data)
            self.raw += data
            self.stream.feed(data)
        return total

    def wait_for(self, pred: Callable[[Pty], bool], timeout: float = 10.0, quiet: float = 0.05) -> bool:
        """Pump output until ``pred`` holds and no output came for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < deadline:
            n = self.pump(0.01)
            now = time.monotonic()
            if n > 0:
                last = now
            elif now - last >= quiet and pred(self):
                return True
            if n < 0:
                return pred(self)
        return pred(self)

    def settle(self, quiet: float = 0.15, timeout: float = 5.0) -> None:
        self.wait_for(lambda _s: True, timeout=timeout, quiet=quiet)

    def lines(self) -> list[str]:
        return [line.rstrip(" ") for line in self.screen.display]

    @property
    def cursor(self) -> tuple[int, int]:
        return self.screen.cursor.y, self.screen.cursor.x

    def text(self) -> str:
        return "\n".join(f"{i:2d}|{line}" for i, line in enumerate(self.lines()))

    def attrs(self) -> list[list[Any]]:
        """Runs [row, col, length, flags] of non-default attributes (the harness's format)."""
        flags = (("reverse", "r"), ("bold", "b"), ("underscore", "u"), ("blink", "k"), ("italics", "i"))
        runs: list[list[Any]] = []
        for y in range(self.screen.lines):
            line = self.screen.buffer[y]
            cur, start = "", 0
            for x in range(self.screen.columns + 1):
                f = ""
                if x < self.screen.columns:
                    f = "".join(c for a, c in flags if getattr(line[x], a))
                if f != cur:
                    if cur:
                        runs.append([y, start, x - start, cur])
                    cur, start = f, x
        return runs

    def snap(self) -> dict[str, Any]:
        """The screen as a snapshot dict (like :func:`vt_snapshot`)."""
        return {
            "screen": norm_screen(self.screen.display),
            "cursor": list(self.cursor),
            "attrs": self.attrs(),
            "exited": self.poll() is not None,
            "rc": self.rc,
        }

    def at_move_prompt(self) -> bool:
        lines = self.screen.display
        return len(lines) > 10 and lines[10][20:28] == ">>:Move:" and self.cursor == (10, 29)

    # -- input ---------------------------------------------------------------
    def send(self, data: bytes | str) -> None:
        assert self.fd is not None
        raw = data.encode("latin-1") if isinstance(data, str) else data
        while raw:
            try:
                n = os.write(self.fd, raw)
            except BlockingIOError:
                self.pump(0.01)
                continue
            raw = raw[n:]

    def resize(self, rows: int, cols: int) -> None:
        """Set the pty's size (the kernel sends SIGWINCH to the foreground group)."""
        assert self.fd is not None
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.rows, self.cols = rows, cols
        self.screen.resize(rows, cols)

    def termios_lflag(self) -> int:
        """The slave side's local modes (on Linux the master reports the slave's termios)."""
        assert self.fd is not None
        return int(termios.tcgetattr(self.fd)[3])

    def foreground_pgrp(self) -> int:
        assert self.fd is not None
        return os.tcgetpgrp(self.fd)

    # -- process -------------------------------------------------------------
    def poll(self) -> int | None:
        if self.rc is not None or self.pid is None:
            return self.rc
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid:
            self.rc = os.waitstatus_to_exitcode(status)
        return self.rc

    def wait_exit(self, timeout: float = 10.0) -> int | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump(0.01)
            if self.poll() is not None:
                self.pump(0.02)
                return self.rc
        return self.poll()

    def close_master(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def close(self) -> None:
        if self.pid is not None and self.poll() is None:
            for sig in (signal.SIGHUP, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.pid, sig)
                deadline = time.monotonic() + 1.0
                while time.monotonic() < deadline and self.poll() is None:
                    time.sleep(0.01)
                if self.rc is not None:
                    break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self.pid is not None:
                os.killpg(self.pid, signal.SIGKILL)
        self.close_master()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self) -> Pty:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: The job-control parent: runs argv as the foreground job in its own process
#: group (like an interactive shell), waits for it, exits with its status.
#: It writes the job's pid to fd 3 if that is open (it is not; unused).
_JOB_SHELL = r"""
import os, signal, sys
for s in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP):
    signal.signal(s, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    for s in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP):
        signal.signal(s, signal.SIG_DFL)
    os.execvp(sys.argv[1], sys.argv[1:])
try:
    os.setpgid(pid, pid)
except OSError:
    pass
while True:
    _, status = os.waitpid(pid, os.WUNTRACED | os.WCONTINUED)
    if os.WIFEXITED(status) or os.WIFSIGNALED(status):
        sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
"""


def job_pid(shell_pid: int, timeout: float = 5.0) -> int:
    """The job started by the job-control parent (its only child)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for child, _, parent in processes():
            if parent == shell_pid:
                return child
        time.sleep(0.01)
    raise TimeoutError("job did not start")


def proc_state(pid: int) -> str:
    """The one-letter state from /proc/PID/stat ('T' = stopped)."""
    with open(f"/proc/{pid}/stat") as f:
        data = f.read()
    return data[data.rindex(")") + 2]


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0] not in ("record", "show"):
        print(__doc__)
        return 2
    if argv[0] == "record":
        record(argv[1:])
    else:
        for name in argv[1:]:
            show(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
