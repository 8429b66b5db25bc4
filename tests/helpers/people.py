"""The one pty driver of the people tests: real users, each running mille on a pseudo-terminal of their own.

:func:`people` makes real users for a test (``useradd``, as root; skipped
with the reason otherwise); :class:`Player` runs ``mille ARGV`` as one of
them on a pty (forked from this interpreter, then ``setuid``), reads what
it says into an 80x24 screen (and keeps every byte), and reads that
screen as the board it shows: the original's at two seats, the larger
tables' at 3, 4 and 6 (``seats``), so that one test plays any table.
:class:`Lines` is a player in plain mode on a terminal so wide that every
line is said whole.  Every wait is for what the test checks (a screen, a
line, an exit), never a fixed time; the bounds only guard against a hang.
"""

from __future__ import annotations

# The users made for the test may not read this interpreter's library (it
# may live under root's home): what the game imports after ``setuid`` is
# imported here first, before the fork.
import curses  # noqa: F401
import fcntl
import json
import os
import pty
import re
import secrets  # noqa: F401
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
import traceback  # noqa: F401
import weakref
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

import pytest

import mille.cli
import mille.engine.driver
import mille.files.recorder
import mille.files.rescue
import mille.files.save
import mille.ui.cursesterm
import mille.ui.people.guest
import mille.ui.people.host
import mille.ui.people.inlines  # noqa: F401
from helpers import SRC, ptyreplay
from helpers.faults import child_as, child_read, local_user
from mille.ui.people.rendezvous import directory

SAFETIES = ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")
#: As ssh is called (its options, ``-T``, ``--``, the machine, the command): the arguments up to the command skipped.
_TO_THE_COMMAND = 'while [ "$1" != "--" ]; do shift; done; shift 2\n'
#: A stand-in for ssh: the command run on this machine, what it sends the guest recorded in ``{record}``.
RECORDER = "#!/bin/sh\n" + _TO_THE_COMMAND + 'sh -c "$1" | tee -a "{record}"\n'
#: A stand-in for ssh: the command run on this machine (``exec``: the relay is the guest's own child, as ssh is);
#: while ``{down}`` exists, it fails as ssh does when the machine is unreachable (a try counted in ``{tries}``).
RELAY = (
    '#!/bin/sh\nif [ -e "{down}" ]; then echo >> "{tries}"; exit 255; fi\n' + _TO_THE_COMMAND + 'exec sh -c "exec $1"\n'
)
#: The rows of the larger tables' board (ui/tableboard.py: the miles window is the bottom seven lines).
HAND_ROWS, MESSAGE_ROW, PROMPT_ROW = (17, 18), 21, 22


class Player:
    """mille run by a real user on a pty of its own, read into an 80x24 screen, at a table of ``seats``."""

    #: The players started and not yet gone: a wait for one player's move answers the questions of all
    #: (:meth:`wait_asked`).
    running: weakref.WeakSet[Player] = weakref.WeakSet()

    def __init__(
        self,
        uid: int,
        gid: int,
        argv: list[str],
        env: dict[str, str] | None = None,
        program: list[str] | None = None,
        columns: int = 80,
        seats: int = 2,
        before: Callable[[], None] | None = None,
    ) -> None:
        """``mille ARGV`` forked from this interpreter; or, given ``program``, that program run (``bash -i``).

        ``before`` is called in the child, still root, before it becomes the user (a mount namespace of its own).

        The terminal is 24 rows of ``columns`` (the screen read is 80x24 whatever it is: a very wide one is for
        plain mode, every line said whole); every byte read is kept too (:attr:`raw`).
        """
        self.seats = seats
        self.raw = b""
        Player.running.add(self)
        self.screen = ptyreplay.Terminal(80, 24)
        self.stream = ptyreplay._Stream(self.screen)
        pid, fd = pty.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 3
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
                os.closerange(3, 4096)  # the other players' terminals (their masters) are not this one's
                if before is not None:
                    before()
                if uid:
                    os.setgroups([])
                    os.setgid(gid)
                    os.setuid(uid)
                os.chdir("/")
                sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # the pty's, not pytest's capture
                os.environ.update(
                    {"HOME": "/nonexistent", "TERM": "xterm", "XDG_STATE_HOME": "/nonexistent", **(env or {})}
                )
                if program is not None:
                    os.execvp(program[0], program)
                from mille.cli import main

                code = main(argv)
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                os._exit(code)
        self.pid, self.fd = pid, fd
        self.status: int | None = None

    # ------------------------------------------------------------------
    # The terminal

    def pump(self, timeout: float = 0.05) -> None:
        """What the terminal says within ``timeout`` seconds, and while it goes on saying more."""
        if self.fd < 0:
            time.sleep(timeout)
            return
        while select.select([self.fd], [], [], timeout)[0] and self._take():
            timeout = 0.01

    def read(self) -> None:
        """What the terminal has said so far, without waiting for more (:meth:`pump` waits a little)."""
        while self.fd >= 0 and select.select([self.fd], [], [], 0)[0] and self._take():
            pass

    def _take(self) -> bool:
        """One read of the terminal, kept and put on the screen; False at its end."""
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        self.raw += data
        self.stream.feed(data)
        return bool(data)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, wanted: str, deadline: float = 10.0) -> float:
        """Read until ``wanted`` is on the screen; the seconds it took (fails after ``deadline``)."""
        start = time.monotonic()
        while wanted not in self.text():
            if time.monotonic() - start > deadline:
                raise AssertionError(f"{wanted!r} never showed:\n{self.text()}")
            self.pump(0.02)
        return time.monotonic() - start

    def wait_said(self, wanted: str, deadline: float = 10.0) -> None:
        """Read until ``wanted`` is on the screen, however it wrapped (:meth:`said`)."""
        self.until(lambda: self.said(wanted), deadline)

    def until(self, shown: Callable[[], bool], deadline: float = 10.0) -> None:
        end = time.monotonic() + deadline
        while not shown():
            assert time.monotonic() < end, self.text()
            self.pump(0.01)

    def forget(self) -> None:
        """Only what comes from now on looked at (the screen read afresh)."""
        self.pump(0.02)
        self.screen = ptyreplay.Terminal(80, 24)
        self.stream = ptyreplay._Stream(self.screen)

    def left(self) -> str:
        """The screen's rows as one text, a row that fills the width run on into the next (a long line wrapped)."""
        return "".join(row.rstrip() if len(row.rstrip()) < 80 else row for row in self.screen.display)

    def said(self, wanted: str) -> bool:
        """``wanted`` is on the screen, however it wrapped (blanks left out)."""
        return squeezed(wanted) in squeezed(self.text().replace("\n", ""))

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close_terminal(self) -> None:
        """The terminal goes away (the pty's master closed), as a window closed or a line dropped."""
        os.close(self.fd)
        self.fd = -1

    def alive(self) -> bool:
        """The program still runs."""
        return self.status is None and os.waitpid(self.pid, os.WNOHANG) == (0, 0)

    def saw(self, text: str) -> bool:
        """``text`` was written to the terminal at some point (every byte kept: a line since overwritten too)."""
        self.read()
        return text.encode() in self.raw

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.reap()

    def reap(self, deadline: float = 10.0) -> int:
        end = time.monotonic() + deadline
        while self.status is None:
            self.pump(0.02)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > end:
                os.kill(self.pid, signal.SIGKILL)
        self.pump(0)  # what it said last
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        return self.status

    # ------------------------------------------------------------------
    # The board, read off the screen: the original's at two seats, the larger tables' at more

    @property
    def table(self) -> bool:
        return self.seats > 2

    def prompt(self) -> str:
        """What the prompt line asks (the move prompt ``>>:Move:``, a question), '' for nothing."""
        if self.table:
            return self.screen.display[PROMPT_ROW].rstrip()
        for line in self.screen.display:
            if line[20:40].rstrip() == ">>:Move:":
                return ">>:Move:"
        return ""

    def asked(self) -> bool:
        """The move prompt is open on this player's turn, empty (what has come read first)."""
        self.read()
        if self.table:
            return self.prompt() == ">>:Move:" and "Turn: you " in self.text()
        return any(line[20:40].rstrip() == ">>:Move:" for line in self.screen.display)

    def answer_question(self) -> bool:
        """No to the question open out of turn (:meth:`question`), once it is taken; False if none was open."""
        if self.fd < 0 or not self.question():
            return False
        self.send("n")
        self.until(lambda: not self.question())
        return True

    def question(self) -> str:
        """The yes/no question open on this player's screen out of turn (``Coup fourre?``), '' for none: only the
        larger tables ask out of turn (R10); at two seats the original's coup fourré is a play on one's own turn."""
        return "Coup fourre?" if self.table and self.prompt() == "Coup fourre?" else ""

    def wait_asked(self, deadline: float = 10.0) -> float:
        """Wait until :meth:`asked`; the seconds it took.

        A ``Coup fourre?`` on the way, on this player's terminal or on
        another's still running, is answered no: a table with people deals
        as nobody can choose, so a wait for a move may meet one (a hazard
        played on a side while one of its people holds the safety, the game
        waiting for that person's answer); a test about the question waits
        for it by name instead.
        """
        start = time.monotonic()
        while not self.asked():
            if time.monotonic() - start > deadline:
                raise AssertionError(f"no move prompt:\n{self.text()}")
            for player in list(Player.running):
                if player.fd >= 0 and player.status is None:
                    player.read()
                    player.answer_question()
            self.pump(0.01)
        return time.monotonic() - start

    def hand(self) -> dict[str, str]:
        """The slots of the hand on the board: ``P``, ``1``..``6`` -> the card's name (``-`` for none)."""
        if self.table:
            text = "  ".join(self.screen.display[row] for row in HAND_ROWS).replace("Your hand", "")
            return {slot: name.strip() for slot, name in re.findall(r"([P1-6]): (.+?)(?=\s{2,}[P1-6]: |\s*$)", text)}
        rows = self.screen.display[6:13]
        return {row[:1]: row[2:20].strip() or "-" for row in rows}

    def deck(self) -> int:
        if self.table:
            found = re.search(r"Deck +(\d+) cards", self.text())
            assert found, self.text()
            return int(found.group(1))
        return int(self.screen.display[6][20:40])

    def discard_keys(self) -> str:
        """The keys that discard the first card of the hand that is not a safety (always legal once picked)."""
        for slot, name in self.hand().items():
            if slot != "P" and name not in SAFETIES and name != "-":
                return f"d{slot}\r"
        raise AssertionError(self.text())

    def move(self, made: bool = True) -> None:
        """Pick, then discard a card that is not a safety (the keys typed at once); back once the move is made.

        The move is made when the deck has one card fewer and the ``P`` slot
        is empty again: what the move changed on the screen is waited for,
        never the prompt going away.  ``made=False``: the keys typed, not
        waited for (the host's worker takes the move later).
        """
        deck = self.deck()
        self.send("p" + self.discard_keys())
        if made:
            self.until(lambda: self.deck() < deck and self.hand().get("P") in ("", "-"))

    def typed(self, keys: str, deadline: float = 10.0) -> None:
        """Type ``keys`` at the empty move prompt; back once they are taken (the hand changed, or the prompt went)."""
        before = self.hand()
        self.send(keys)
        end = time.monotonic() + deadline
        while self.prompt() == ">>:Move:" and self.hand() == before:
            assert time.monotonic() < end, self.text()
            self.pump(0.01)

    def step(self) -> bool:
        """One scripted step where this player is asked something: pick, then discard (or play a safety, if that is
        all); no to questions.  False if nothing was asked of them."""
        self.read()
        prompt = self.prompt()
        if prompt in ("Coup fourre?", "Extension?"):
            self.send("n")
            end = time.monotonic() + 10
            while self.prompt() == prompt:
                assert time.monotonic() < end, self.text()
                self.pump(0.01)
            return True
        if not self.asked():
            return False
        hand = self.hand()
        cards = {slot: name for slot, name in hand.items() if name not in ("-", "")}
        if "P" not in cards and self.deck() > 0:
            self.typed("p")
            return True
        discards = [slot for slot, name in cards.items() if name not in SAFETIES]
        self.typed((f"d{discards[0]}" if discards else f"u{next(iter(cards))}") + "\r")  # a slot ended by RETURN
        return True


class Lines(Player):
    """A player in lines (``--plain``) on a pty: everything it was told kept, its prompts answered in turn.

    A prompt is the last line the program writes before it reads
    (tests/helpers/plain.py), so the last line heard being a prompt is the
    program waiting for it; :attr:`heard` counts the lines already acted on.
    """

    def __init__(self, uid: int, gid: int, argv: list[str], env: dict[str, str] | None = None) -> None:
        """As :class:`Player`, on a terminal so wide that every line is said whole (never in rows)."""
        super().__init__(uid, gid, argv, env, columns=4000)
        self.heard = 0
        self.state = "turn"

    def lines(self) -> list[str]:
        """Every line said (and typed: the terminal echoes), blank ones left out."""
        said = self.raw.decode(errors="replace").replace("\r", "").split("\n")
        return [line.strip() for line in said if line.strip()]

    def said_line(self, wanted: str, deadline: float = 10.0, since: int = 0) -> None:
        """Read until a line holds ``wanted`` (among those said from line ``since`` on)."""
        end = time.monotonic() + deadline
        while not any(wanted in line for line in self.lines()[since:]):
            assert time.monotonic() < end, f"{wanted!r} never said:\n{self.raw.decode(errors='replace')}"
            self.pump(0.02)

    def last(self) -> str:
        lines = self.lines()
        return lines[-1] if lines else ""

    def question(self) -> str:
        """``Coup fourre?`` when it is the prompt waiting for an answer, '' otherwise."""
        return "Coup fourre?" if self.prompted() == "Coup fourre?" else ""

    def answer_question(self) -> bool:
        if self.fd < 0 or not self.question():
            return False
        self.answer("n")
        self.until(lambda: not self.question())
        return True

    def prompted(self) -> str | None:
        """The prompt waiting for an answer (the last prompt said since the last answer), if any: what the table
        says meanwhile (someone came, talk) may follow it."""
        self.pump(0.01)
        for line in reversed(self.lines()[self.heard :]):
            if line in ("Your move:", "Coup fourre?", "Extension?", "Another hand?", "Another game?"):
                return line
        return None

    def answer(self, line: str) -> None:
        self.heard = len(self.lines())
        self.send(line + "\r")

    def answered(self, line: str, wanted: str, deadline: float = 10.0) -> str:
        """Type ``line``; the lines said after it, once ``wanted`` is among them (joined)."""
        start = len(self.lines())
        self.answer(line)
        end = time.monotonic() + deadline
        while True:
            after = "\n".join(self.lines()[start:])
            if wanted in after:
                return after
            assert time.monotonic() < end, f"{wanted!r} never said after {line!r}:\n{after}"
            self.pump(0.02)

    def hand_said(self) -> str:
        """At ``Your move:``: the hand as ``c`` says it."""
        said = self.answered("c", "Your hand: ")
        said = said[said.index("Your hand: ") + len("Your hand: ") :]
        return said[: said.index("\n")] if "\n" in said else said

    def discard_line(self) -> str:
        """The line that discards the first card of the hand that is not a safety (``c`` says the hand)."""
        for item in self.hand_said().rstrip(".").split("; "):
            slot, card = item.split(": ", 1)
            if card not in SAFETIES and card != "empty":
                return f"d {slot.lower()}"
        raise AssertionError(self.lines()[-5:])

    def move(self, made: bool = True) -> None:
        """Pick, then discard the first card of the hand that is not a safety."""
        self.answered("p", "You pick")
        if made:
            self.answered(self.discard_line(), "You discard")
        else:
            self.answer(self.discard_line())

    def step(self) -> bool:
        """One scripted answer: at a turn pick, say the hand, discard (a safety played if that is all); no to the
        questions.  False if nothing is asked (or only ``Another hand?``, the host's to answer)."""
        asked = self.prompted()
        if asked in (None, "Another hand?", "Another game?"):
            return False
        if asked != "Your move:":
            self.answer("n")
            return True
        if self.state == "turn":
            self.answer("p")  # (refused once the deck is out: no matter)
            self.state = "hand"
            return True
        if self.state == "hand":
            self.answer("c")
            self.state = "discard"
            return True
        hand = next(line for line in reversed(self.lines()[self.heard :]) if line.startswith("Your hand: "))
        items = [item.split(": ", 1) for item in hand[len("Your hand: ") :].rstrip(".").split("; ")]
        cards = [(slot.lower(), card) for slot, card in items if card != "empty"]
        discards = [slot for slot, card in cards if card not in SAFETIES]
        self.answer(f"d {discards[0]}" if discards else f"u {cards[0][0]}")
        self.state = "turn"
        return True


def squeezed(text: str) -> str:
    """``text`` without its blanks (a long line wrapped where a blank was reads the same)."""
    return "".join(text.split())


def tails(*players: Lines) -> str:
    """The last lines each player heard (for a failure's message)."""
    return "\n----\n".join("\n".join(p.lines()[-40:]) for p in players)


# ----------------------------------------------------------------------
# Users, shells, places


@contextmanager
def people(n: int) -> Iterator[list[tuple[str, int, int]]]:
    """``n`` real users for the test (and their meeting directories removed after)."""
    with ExitStack() as stack:
        users = [stack.enter_context(local_user()) for _ in range(n)]
        try:
            yield users
        finally:
            for _, uid, _ in users:
                shutil.rmtree(directory(uid), ignore_errors=True)


@contextmanager
def players() -> Iterator[list[Player]]:
    """The players a test starts, every one killed after (whatever happened)."""
    started: list[Player] = []
    try:
        yield started
    finally:
        for player in started:
            player.kill()


def python_for(uid: int, gid: int) -> str:
    """The system's python3, which ``uid`` may run on this checkout; the test is skipped otherwise."""
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")  # the test's own may be root's alone
    if python is None:
        pytest.skip("no system python3 for a game run as another program")
    if not readable_by(uid, gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
        pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
    return python


def recording_relay(place: str, uid: int, gid: int, name: str = "ssh") -> tuple[str, dict[str, str]]:
    """A stand-in for ssh (:data:`RECORDER`) in ``place``, named ``name``, for ``uid``: what the far side sends is
    recorded in a file of ``uid``'s.  (The record's path, the environment that has mille use it: ``MILLE_SSH``, and
    ``MILLE_REMOTE`` the system python on this checkout.)  Skipped where ``uid`` may run no python3 on it."""
    python = python_for(uid, gid)
    record, relay = os.path.join(place, f"{name}.received"), os.path.join(place, name)
    with open(relay, "w") as f:
        f.write(RECORDER.format(record=record))
    os.chmod(relay, 0o755)
    with open(record, "wb"):
        pass
    os.chown(record, uid, gid)
    return record, {"MILLE_SSH": relay, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}


def recorded(record: str) -> list[dict[str, object]]:
    """The messages a :func:`recording_relay` recorded so far (a line still on its way left out)."""
    with open(record, "rb") as f:
        data = f.read()
    return [json.loads(line) for line in data.split(b"\n")[:-1] if line.strip()]


def in_shell(uid: int, gid: int, argv: list[str], seats: int = 2) -> Player:
    """``mille ARGV`` typed at an interactive ``bash -i`` on a pty of its own (the system python, this checkout).

    Closing that pty's master is a terminal closed under a shell: bash is
    hung up and passes the hangup on to its job, as a window closed does.
    """
    python = python_for(uid, gid)
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash for a game run from a shell")
    player = Player(uid, gid, [], env={"PS1": "$ "}, program=[bash, "--norc", "--noprofile", "-i"], seats=seats)
    player.wait_for("$")
    command = " ".join(shlex.quote(a) for a in ["env", f"PYTHONPATH={SRC}", python, "-m", "mille", *argv])
    player.send(command + "\r")
    return player


@contextmanager
def readable_directory() -> Iterator[str]:
    """A directory every user may read (the test's own tmp_path is root's alone), removed after."""
    path = tempfile.mkdtemp(prefix="mille-people-test-")
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def state_home(place: str, uid: int, gid: int) -> str:
    """A directory in ``place`` for ``uid``'s ``XDG_STATE_HOME`` (where a host keeps a game), theirs alone."""
    state = os.path.join(place, f"state-{uid}")
    os.mkdir(state, 0o700)
    os.chown(state, uid, gid)
    return state


def kept_file(state: str) -> str:
    """The one game kept in ``state`` (a hangup file)."""
    [name] = [n for n in os.listdir(os.path.join(state, "mille")) if n.endswith(".json")]
    return os.path.join(state, "mille", name)


def readable_by(uid: int, gid: int, paths: list[str]) -> bool:
    """``uid`` may read every one of ``paths``."""

    def check(out: int) -> None:
        os.write(out, b"yes" if all(os.access(p, os.R_OK) for p in paths) else b"no")

    return child_read(*child_as(uid, gid, check), ended_well=False) == b"yes"


def received(sock: socket.socket, within: float) -> bytes:
    """What comes on ``sock`` until its end, or until it is quiet for ``within`` seconds, or breaks."""
    sock.settimeout(within)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except OSError:
        pass
    return got


def connect_in_child(
    uid: int, gid: int, path: str, first: bytes = b'{"type":"move","move":{"kind":"draw"}}\n'
) -> tuple[int, int]:
    """Connect to ``path`` as ``uid`` in a forked child that writes ``first`` first (a move, not a knock: no mille's
    at a table's door), then reads to the end: (pid, pipe) (:func:`child_read`)."""

    def connect(out: int) -> None:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        try:
            s.sendall(first)
        except OSError:
            pass
        os.write(out, received(s, 10))

    return child_as(uid, gid, connect)


def connect_as(uid: int, gid: int, path: str, first: bytes | None = None) -> bytes:
    """Connect to ``path`` as ``uid``, write ``first`` (a move if not given), and return what came back before the
    end (b'' if refused)."""
    if first is None:
        return child_read(*connect_in_child(uid, gid, path))
    return child_read(*connect_in_child(uid, gid, path, first))


# ----------------------------------------------------------------------
# Playing on


def until(players: list[Player], done: Callable[[], bool], deadline: float = 90.0) -> None:
    """Play the scripted people's turns until ``done()`` is true."""
    end = time.monotonic() + deadline
    while not done():
        assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
        for p in players:
            p.step()


def quickly(players: list[Player], step: Callable[[Player], bool], done: Callable[[], bool]) -> None:
    """Play ``step`` for each player whose terminal has news, until ``done()`` (:func:`until` without its turn of
    waits round every terminal: a move's news is acted on at once)."""
    end = time.monotonic() + 60
    by_fd = {p.fd: p for p in players}
    acting = list(players)  # those who may have something to do without news: all at first, then who just acted
    while not done():
        assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
        ready = select.select(list(by_fd), [], [], 0 if acting else 0.2)[0]
        news = [by_fd[fd] for fd in ready]
        acting = [p for p in players if (p in news or p in acting) and step(p)]


def the_choice_after_a_wait(host: Player, name: str) -> None:
    """``name`` dropped: the host is told at once and asked; another key is told the choices; W waits; any key
    brings the choice back (waiting never hangs)."""
    host.wait_for(f"{name} is gone")
    host.wait_for("Wait/Comp/Adjourn?")
    host.send("x")
    host.wait_for("W: wait  C: computer  A: adjourn")
    host.send("w")
    host.wait_for("Waiting...")
    host.send(" ")
    host.wait_for("Wait/Comp/Adjourn?")


# ----------------------------------------------------------------------
# Games found where a test wants them (the original's computers playing every seat), and kept for the host


def kept_for(place: str, game: object, computer: str, uid: int, gid: int, name: str = "kept.json") -> str:
    """``game`` saved as a file of the host's (``uid``), the other seat named ``computer`` (``person:bob``)."""
    from mille.files.save import SavedGame, write_game

    path = os.path.join(place, name)
    write_game(path, SavedGame(game, 0, computer))  # type: ignore[arg-type]
    os.chown(path, uid, gid)
    return path


def one_play_from_the_end() -> tuple[object, str]:
    """A two-seat game where seat 0 (the host) has picked and one play of hers ends the hand (or asks Extension?);
    its key."""
    from mille.engine import driver, rules
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import MoveType, Phase
    from mille.engine.state import Game
    from mille.players.bsd import BsdPlayer

    class Found(Exception):
        pass

    class Watch:
        def before_move(self, game: Game) -> None:
            if game.to_move != 0 or rules.phase(game) is not Phase.MOVE or game.deck_count <= 0:
                return
            if rules.draw_refusal(game, 0) is None:
                return  # not picked yet
            for move in rules.legal_moves(game):
                trial = game.copy()
                rules.push(trial, move)
                if move.kind is MoveType.PLAY and (trial.finished or trial.pending_extension is not None):
                    raise Found(game.copy(), "p" if move.slot == 0 else str(move.slot))

        def after_move(self, *args: object) -> None:
            pass

    for seed in range(1, 100):
        game = Game(rng=GlibcRandom(seed))
        rules.start_hand(game)
        try:
            driver.play_hand(game, [BsdPlayer(), BsdPlayer()], [GlibcRandom(1), GlibcRandom(2)], observer=Watch())
        except Found as found:
            return found.args[0], found.args[1]
    raise AssertionError("no deal ends on a play of seat 0")


# ----------------------------------------------------------------------
# A real sshd on loopback (the room's tests: --list @host, --watch alice@host)

SSHD = "/usr/sbin/sshd"


@contextmanager
def loopback_sshd(place: str, login: str, uid: int, gid: int, found: bool = False) -> Iterator[dict[str, str]]:
    """A real sshd on 127.0.0.1 letting ``login`` in with a throwaway key; the environment that has mille use it
    (``MILLE_SSH``, and ``MILLE_REMOTE``: the system python on this checkout).  Skipped where sshd is missing.

    ``found``: no ``MILLE_REMOTE``; the far side's mille is found as mille finds it (``python3 -m mille``, this
    checkout on the sshd's ``PYTHONPATH``, where bsdgames' ``mille`` may be first on the PATH).  sshd's own words
    are printed at the end (shown with a failure)."""
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if not os.path.exists(SSHD) or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("openssh-server and openssh-client are not installed (.ci/run installs them as root)")
    if python is None or not readable_by(uid, gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
        pytest.skip("no system python3 the test's user may run on this checkout (the far side of ssh)")
    made_run = not os.path.isdir("/run/sshd")
    if made_run:
        os.makedirs("/run/sshd", mode=0o755)
    sshd = None
    try:
        for name in ("host_key", "user_key"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(place, name)],
                           check=True, capture_output=True)  # fmt: skip
        os.chown(os.path.join(place, "user_key"), uid, gid)
        # useradd locks the account ("!"), which sshd refuses; "*" has no password and is not locked.
        subprocess.run(["usermod", "-p", "*", login], check=True, capture_output=True)
        shutil.copy(os.path.join(place, "user_key.pub"), os.path.join(place, "authorized_keys"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = os.path.join(place, "sshd_config")
        with open(config, "w") as f:
            f.write(
                f"Port {port}\nListenAddress 127.0.0.1\nHostKey {place}/host_key\n"
                f"AuthorizedKeysFile {place}/authorized_keys\nStrictModes no\nUsePAM no\n"
                f"PasswordAuthentication no\nKbdInteractiveAuthentication no\nAllowUsers {login}\n"
                f"PidFile {place}/sshd.pid\n" + (f"SetEnv PYTHONPATH={SRC}\n" if found else "")
            )
        log = os.open(os.path.join(place, "log"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", config], stderr=log)
        finally:
            os.close(log)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and sshd.poll() is None, "sshd did not start"
                time.sleep(0.05)
        ssh = (
            f"ssh -p {port} -i {place}/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
            " -o BatchMode=yes -o LogLevel=ERROR"
        )
        env = {"MILLE_SSH": ssh}
        if not found:
            env["MILLE_REMOTE"] = f"env PYTHONPATH={SRC} {python} -m mille"
        yield env
    finally:
        if sshd is not None:
            sshd.kill()
            sshd.wait()
            with open(os.path.join(place, "log")) as f:
                print(f.read())  # sshd's own words, for a failure
        if made_run:
            shutil.rmtree("/run/sshd", ignore_errors=True)


def partner_asked_coup_fourre() -> object:
    """A hand at four seats of the original's computers, stopped where seat 3 (alice's partner) is asked, out of
    turn, for the coup fourré (R10: seat 4 attacked side A, and seat 3, not seat 1 who plays next, holds the
    safety)."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import Phase
    from mille.engine.state import Game, table
    from mille.players.bsd import BsdPlayer

    for seed in range(1, 400):
        game = Game(table=table(4), rng=GlibcRandom(seed))
        rules.start_hand(game)
        computers, dice = [BsdPlayer() for _ in range(4)], [GlibcRandom(seed * 7 + s) for s in range(4)]
        while (phase := rules.phase(game)) is not Phase.HAND_OVER:
            seat = game.to_move
            if phase is Phase.REACTION and seat == 2:
                return game
            move = rules.PASS if phase is Phase.EMPTY_HAND else computers[seat].choose(observe(game, seat), dice[seat])
            rules.push(game, move)
    raise AssertionError("no deal asks seat 3 for a coup fourré")


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (children, their children, ...)."""
    from helpers.terminal import _children

    found, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def impostor(uid: int, gid: int, make: Callable[[], str], become_first: bool = True) -> tuple[int, int, int]:
    """A real process of the user ``uid`` that makes a place (``make()``: the socket's path) and listens there.

    It says ``ready`` on its pipe, then what came: ``none`` (nobody
    connected before it was told to stop) or ``connected:`` and the bytes
    read in the next second.  ``become_first=False``: the socket is made and
    bound before the process becomes ``uid`` (root may make it where ``uid``
    could not), then it listens as ``uid``.  (pid, its pipe, the stop pipe).
    """
    report_r, report_w = os.pipe()
    stop_r, stop_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(report_r)
            os.close(stop_w)
            if become_first:
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
            path = make()
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(path)
            os.chmod(path, 0o666)
            if not become_first:
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
            listener.listen(4)  # the kernel notes who listens now: this user
            os.write(report_w, b"ready\n")
            ready, _, _ = select.select([listener, stop_r], [], [], 60)
            if listener in ready:
                conn, _ = listener.accept()
                os.write(report_w, b"connected:" + received(conn, 1.0))
            else:
                os.write(report_w, b"none")
            code = 0
        finally:
            os._exit(code)
    os.close(report_w)
    os.close(stop_r)
    got = b""
    while not got.startswith(b"ready\n"):
        chunk = os.read(report_r, 4096)
        assert chunk, "the impostor did not start"
        got += chunk
    return pid, report_r, stop_w


def impostor_heard(pid: int, report: int, stop: int) -> bytes:
    """Stop the impostor and return what it heard (``none``, or ``connected:`` and the bytes)."""
    try:
        os.write(stop, b"x")
    except BrokenPipeError:  # it heard someone and is gone already
        pass
    os.close(stop)
    return child_read(pid, report)
