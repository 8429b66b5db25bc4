"""Helpers for plain mode's tests (tests/ui/test_plain*.py): a player that only hears the lines.

:class:`Listener` plays a whole game from the text alone, as a person who
cannot see the board would: at ``Your move:`` it picks (``p``), then tries
what the lines say it may play (``You can play: ...`` at full detail) or,
at brief detail, the slots in turn, learning from the refusals; it
answers the questions, reads the score with ``w`` at the end of each hand,
and may save, quit or stop at planned moments.  The same listener drives

* the game in this process (:func:`play_here`, over :class:`HereLines`, a
  terminal of lines in memory), where what is said can be checked against
  the engine at the moment it is said; and
* ``python -m mille --plain`` through a pipe or a pseudo-terminal
  (:func:`play_process`), whose transcript must be exactly the same.

Nothing here waits for a fixed time or for quiet: a prompt is the last line
the program writes before it reads, so a prompt seen is the program waiting.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from helpers import SRC
from mille.engine import rules
from mille.engine.driver import Event
from mille.engine.rng import GlibcRandom
from mille.engine.rules import MoveType
from mille.engine.state import Game, table
from mille.files.safeio import shown
from mille.players.bsd import BsdPlayer
from mille.ui.flow import (
    PROMPTS,
    GameFlow,
    Setup,
)
from mille.ui.plain.app import FILE_LINE, MOVE_LINE, plain_flow
from mille.ui.surface import END_OF_INPUT, HANGUP

#: Every line that is a prompt (the program waits after it).
PROMPT_LINES = frozenset([MOVE_LINE, FILE_LINE, *PROMPTS[1:6], *PROMPTS[7:]])
#: The original's refusals (§4), as lines.
_REFUSAL = re.compile(
    r"^(must pick first|no card there|only two 200's per hand|limit of 50|puts you over \d+|cannot move now"
    r'|can\'t play ".*"|cannot play "Go" on a ".*"|not limited|opponent cannot go|opponent is protected'
    r"|opponent has limit|discard a safety\?|no more cards|already picked)$"
)
#: Lines after which it is a new turn of yours: pick first (another seat moved, at every table).
_NEW_TURN = (
    "New hand",
    "It is ",
    "Resumed",
    "The computer",
    "Coup fourre! The computer",
    "You extend",
    "Seat ",
    "Coup fourre! Seat ",
    "Your partner ",
    "Coup fourre! Your partner ",
)
#: The end of the question that asks which side a hazard goes to (at 3 and 6 seats).
WHICH_SIDE = "? (RETURN alone: not now)"
EOF_ANSWER = "\x00EOF"
HUP_ANSWER = "\x00HUP"


def is_refusal(line: str) -> bool:
    return bool(_REFUSAL.match(line))


class Listener:
    """Answers each prompt from the lines heard since the last one (see the module documentation).

    ``games``: games to play before answering ``Another game?`` no;
    ``extend``: the answer to ``Extension?``; ``plan``: the number of a
    ``Your move:`` prompt (from 1) -> a list of lines to type there first
    (``EOF_ANSWER`` ends the input, ``HUP_ANSWER`` is a hangup); ``name``:
    the file name typed at ``file:``.
    """

    def __init__(
        self,
        *,
        games: int = 1,
        extend: bool = True,
        plan: dict[int, list[str]] | None = None,
        name: str = "game.json",
        max_prompts: int = 200_000,
    ) -> None:
        self.games = games
        self.extend = extend
        self.plan = {k: list(v) for k, v in (plan or {}).items()}
        self.name = name
        self.max_prompts = max_prompts
        self.phase = "pick"
        self.candidates: list[str] = []
        self.last = ""
        self.moves = 0
        self.prompts = 0
        self.finished_games = 0
        self.scored = False
        #: Every line typed, in order.
        self.typed: list[str] = []

    def respond(self, prompt: str, heard: list[str]) -> str:
        self.prompts += 1
        assert self.prompts < self.max_prompts, "the game does not end"
        answer = self._answer(prompt, heard)
        self.last = answer
        self.typed.append(answer)
        return answer

    def _answer(self, prompt: str, heard: list[str]) -> str:
        if prompt == MOVE_LINE:
            return self._move(heard)
        if prompt == "Extension?":
            return "y" if self.extend else "n"
        if prompt == "Coup fourre?":
            self.phase = "pick"  # the coup fourré's turn again, or the others' turns: a pick next
            return "y"
        if prompt.endswith(WHICH_SIDE):  # "Stop on which side, b or c? ...": the first offered
            return prompt[: -len(WHICH_SIDE)].split(", ")[-1].split(" or ")[0]
        if prompt in ("Another hand?", "Another game?"):
            if not self.scored:
                self.scored = True
                return "w"
            self.scored = False
            self.phase = "pick"
            if prompt == "Another game?":
                self.finished_games += 1
                return "y" if self.finished_games < self.games else "n"
            return "y"
        if prompt == FILE_LINE:
            return self.name
        if prompt in ("Save game?", "Same file?"):
            return "n" if prompt == "Save game?" else "y"
        if prompt in ("Overwrite file?", "Really?"):
            return "y"
        raise AssertionError(f"unexpected prompt {prompt!r}")

    def _move(self, heard: list[str]) -> str:
        self.moves += 1
        if any(line.startswith(_NEW_TURN) for line in heard) or "must pick first" in heard:
            self.phase = "pick"
        last = self.last
        if last == "p" and any(
            line.startswith("You pick") or line in ("already picked", "no more cards") for line in heard
        ):
            self.phase = "play"
            self.candidates = self._plays(heard) + [f"d {s}" for s in "p123456"]
        elif last.startswith(("u ", "d ")) and any(
            line.startswith(("You play", "You discard", "Coup fourre! You")) for line in heard
        ):
            self.phase = "pick"
        planned = self.plan.get(self.moves)
        if planned:
            answer = planned.pop(0)
            if planned:
                self.moves -= 1  # the rest of the plan at the next prompt
            return answer
        if self.phase == "pick":
            for line in heard:  # full detail: a counter safety may be played before picking
                if line.startswith("Pick a card (p), or play now: "):
                    return " ".join(line.split(": ", 1)[1].split()[:2])
            return "p"
        if not self.candidates:  # every slot refused: try them all again
            self.candidates = [f"u {s}" for s in "p654321"] + [f"d {s}" for s in "p123456"]
        return self.candidates.pop(0)

    @staticmethod
    def _plays(heard: list[str]) -> list[str]:
        for line in heard:
            if line.startswith("You can play: "):
                items = line[len("You can play: ") : -1].split("; ")
                return [" ".join(item.split()[:2]) for item in items]
            if line.startswith("You can play nothing"):
                return []
        return [f"u {s}" for s in "p654321"]


class Script(Listener):
    """Types the lines given, in order, whatever the prompt; notes each prompt it was asked at."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = list(lines)
        self.asked: list[str] = []

    def respond(self, prompt: str, heard: list[str]) -> str:
        self.asked.append(prompt)
        assert self.lines, f"nothing left to type at {prompt!r}"
        answer = self.lines.pop(0)
        self.typed.append(answer)
        return answer


#: What :class:`Scripted` tries after ``p``, in order, each after the one before is refused
#: (once the deck is out a hand may hold only safeties, which are played, never discarded).
_TRIES = [f"d {slot}" for slot in "123456p"] + [f"u {slot}" for slot in "123456p"]


class Scripted(Listener):
    """``p`` then ``d 1`` at every move prompt, a refused move the next of :data:`_TRIES`; yes to a coup fourré.

    A whole game at any table without reading what may be played: for the
    larger tables' runs on a pipe (tests/ui/test_plain.py, tests/players/test_expert_table.py).
    """

    def __init__(self) -> None:
        super().__init__(games=1)
        self.coups = 0
        self.tried = -1

    def _answer(self, prompt: str, heard: list[str]) -> str:
        if prompt == MOVE_LINE:
            refused = any(is_refusal(line) for line in heard)
            if self.last == "p" or (self.tried >= 0 and refused):
                self.tried = (self.tried + 1) % len(_TRIES)
                return _TRIES[self.tried]
            self.tried = -1
            return "p"
        if prompt == "Coup fourre?":
            self.coups += 1
            return "y"
        return super()._answer(prompt, heard)


# --------------------------------------------------------------------------
# In this process


class HereLines:
    """A terminal of lines in memory: what the program writes, and the listener's answers."""

    def __init__(self, listener: Listener, check: Callable[[HereLines], None] | None = None) -> None:
        self.listener = listener
        self.check = check
        self.out: list[str] = []
        self.pending: list[int] = []
        self.gone = False
        self.mark = 0
        self.app: GameFlow | None = None

    def write_line(self, text: str) -> None:
        self.out.append(shown(text))

    def poll(self) -> int | None:
        return self.pending.pop(0) if self.pending else None

    def read_line(self) -> str | int:
        if self.pending:
            return self.pending.pop(0)
        if self.check is not None:
            self.check(self)
        prompt = self.out[-1]
        heard = self.out[self.mark : -1]
        self.mark = len(self.out)
        answer = self.listener.respond(prompt, heard)
        if answer == EOF_ANSWER:
            return END_OF_INPUT
        if answer == HUP_ANSWER:
            return HANGUP
        return answer


class Counting:
    """The original's computer, counting the moves the other seats make at the table (its ``inform``).

    At a larger table it hears every seat's moves; a coup fourré it let
    pass out of turn (a pass with cards in hand, said to no one) is not
    counted.  ``game`` is the game played (set by :func:`play_here`).
    """

    def __init__(self) -> None:
        self.player = BsdPlayer()
        self.events: list[Event] = []
        self.game: Game | None = None

    def choose(self, observation: Any, rng: Any) -> Any:
        return self.player.choose(observation, rng)

    def decide(self, observation: Any, rng: Any) -> Any:
        return self.player.decide(observation, rng)

    def inform(self, event: Event) -> None:
        if event.seat == 0:
            return
        if (
            event.kind is MoveType.PASS
            and self.game is not None
            and any(c >= 0 for c in self.game.players[event.seat].hand)
        ):
            return  # a coup fourré let pass: the seat's secret
        self.events.append(event)

    def count(self, kind: MoveType) -> int:
        return sum(1 for e in self.events if e.kind is kind)


def new_game(seed: int, seats: int = 2) -> Game:
    return rules.new_game(seed, table(seats))


def others(seats: int) -> tuple[tuple[BsdPlayer, GlibcRandom], ...]:
    """The players of seats 2 and on at a larger table (``Setup``'s ``others``): the original's, each on its dice."""
    return tuple((BsdPlayer(), GlibcRandom(seat)) for seat in range(2, seats))


def play_here(
    seed: int,
    listener: Listener,
    *,
    detail: str = "brief",
    game: Game | None = None,
    check: Callable[[HereLines], None] | None = None,
    **kwargs: Any,
) -> tuple[int, GameFlow, HereLines, Counting]:
    """Play in this process until the program leaves: (status, app, terminal, computer)."""
    game = new_game(seed) if game is None else game
    term = HereLines(listener, check)
    computer = Counting()
    computer.game = game
    restore = kwargs.pop("restore", False)
    app = plain_flow(
        term,  # type: ignore[arg-type]
        game,
        Setup(computer, "bsd", game.rng, **kwargs),
        detail=detail,
    )
    term.app = app
    status = app.run(restore=restore)
    return status, app, term, computer


# --------------------------------------------------------------------------
# Through a pipe or a pseudo-terminal


def mille_env(state: str) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("LINES", "COLUMNS", "TERMCAP", "LD_PRELOAD"):
        env.pop(key, None)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env["XDG_STATE_HOME"] = state
    return env


class Transcript:
    """What a program run said (``lines``), what it typed on standard error, and its status."""

    def __init__(self, lines: list[str], raw: bytes, err: str, status: int | None) -> None:
        self.lines = lines
        self.raw = raw
        self.err = err
        self.status = status


def play_process(
    args: list[str],
    listener: Listener,
    *,
    transport: str = "pipe",
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120.0,
    on_prompt: Callable[[int, list[str]], bool] | None = None,
) -> Transcript:
    """Run ``python -m mille ARGS`` with the listener at the other end of a pipe or a pty.

    On a pty the terminal echoes what is typed: that line is taken out of
    the transcript, so that it reads as the pipe's.  ``on_prompt(pid,
    lines)`` may act at each prompt before it is answered (send a signal);
    if it returns True the prompt is not answered.
    """
    scratch = None if cwd else tempfile.mkdtemp(prefix="plain-")  # removed below: a run leaves nothing
    work = cwd or scratch
    assert work is not None
    env = env or mille_env(os.path.join(work, "state"))
    argv = [sys.executable, "-m", "mille", *args]
    err_file = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    if transport == "pipe":
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_file, cwd=work, env=env)
        assert proc.stdin is not None and proc.stdout is not None
        read_fd, write_fd, pid = proc.stdout.fileno(), proc.stdin.fileno(), proc.pid
        master = None
    else:
        master, slave = os.openpty()
        proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=err_file, cwd=work, env=env, start_new_session=True
        )
        os.close(slave)
        read_fd = write_fd = master
        pid = proc.pid
    raw = bytearray()
    lines: list[str] = []
    partial = b""
    consumed = 0
    echo: str | None = None
    deadline = time.monotonic() + timeout
    try:
        while True:
            assert time.monotonic() < deadline, "the program did not finish in time:\n" + "\n".join(lines[-30:])
            ready, _, _ = select.select([read_fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                continue
            try:
                data = os.read(read_fd, 65536)
            except OSError:  # a pty's master reads EIO once the other side is closed
                data = b""
            if not data:
                break
            raw += data
            partial += data
            *complete, partial = partial.split(b"\n")
            for chunk in complete:
                line = chunk.decode("utf-8", "replace").rstrip("\r")
                if echo is not None and line == echo:
                    echo = None
                    continue
                lines.append(line)
            if partial or not lines or lines[-1] not in PROMPT_LINES or len(lines) <= consumed:
                continue
            if on_prompt is not None and on_prompt(pid, lines):
                consumed = len(lines)
                continue
            heard = lines[consumed:-1]
            consumed = len(lines)
            answer = listener.respond(lines[-1], heard)
            if answer == EOF_ANSWER:
                if master is None:
                    assert proc.stdin is not None
                    proc.stdin.close()
                else:
                    os.write(write_fd, b"\x04")
                continue
            if answer == HUP_ANSWER:
                os.kill(pid, 1)
                continue
            if master is not None:
                echo = answer
            try:
                os.write(write_fd, answer.encode() + b"\n")
            except OSError:  # it has gone: what it said is still to be read
                pass
    finally:
        status = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        if master is not None:
            os.close(master)
        elif proc.stdin is not None and not proc.stdin.closed:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
        err_file.seek(0)
        err = err_file.read().decode("utf-8", "replace")
        err_file.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if partial:
        lines.append(partial.decode("utf-8", "replace").rstrip("\r"))
    return Transcript(lines, bytes(raw), err, status)
