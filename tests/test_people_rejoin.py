"""A guest at a larger table whose link to the host breaks while the host's mille lives (docs/people.md "Drops").

As at two seats, the guest is told at once and chooses: ``W`` tries the
host's game again every half second (any key, or RETURN in lines, brings
the choice back) and takes their seat again, their hand in it, as soon as
it answers; ``L`` leaves with the line that says how to join again.  The
host and the guest are real users (``useradd``, as root; skipped with the
reason otherwise) on ptys of their own (:class:`test_people.Player`).  The
guest joins ``alice@here`` through a stand-in for ``ssh`` that runs the far
side's ``mille --join-stdio`` on this machine (no sshd needed); killing that
relay is ssh killed under the guest, the host's mille untouched, and while a
file exists the stand-in fails as ssh does when the machine is unreachable.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import ptyreplay
from terminal_helpers import _children, _cmdline
from test_people import SRC, Player, _answer, _readable_by, people, readable_directory
from test_people_tables import _asked, _hand, _last, _plain_turn, _said, _turn, _until

#: As ssh would be called (-T -- MACHINE COMMAND): the command run on this machine instead (``exec``: the
#: relay is the guest's own child, as ssh is); while ``{down}`` exists, it fails as ssh does (a try counted).
SSH = """#!/bin/sh
if [ -e "{down}" ]; then echo >> "{tries}"; exit 255; fi
shift 3
exec sh -c "exec $1"
"""


class Relay:
    """The stand-in for ssh a guest joins through, and the switch that makes the host's machine unreachable."""

    def __init__(self, place: str, uid: int, gid: int) -> None:
        self.down = os.path.join(place, "down")
        self.ssh = os.path.join(place, "ssh")
        self.tries = os.path.join(place, "tries")
        with open(self.ssh, "w") as f:
            f.write(SSH.format(down=self.down, tries=self.tries))
        os.chmod(self.ssh, 0o755)
        with open(self.tries, "w"):
            pass
        os.chown(self.tries, uid, gid)  # the guest's user counts the tries that failed

    def env(self, python: str) -> dict[str, str]:
        return {"MILLE_SSH": self.ssh, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}

    def cut(self, guest: Player, unreachable: bool = False) -> None:
        """The guest's relay (its ``mille --join-stdio``) killed; ``unreachable``: no new one gets through."""
        if unreachable:
            with open(self.down, "w"):
                pass
        end = time.monotonic() + 10
        while True:
            relays = [pid for pid in _children(guest.pid) if "--join-stdio" in _cmdline(pid)]
            if relays:
                break
            assert time.monotonic() < end, "the guest has no relay"
            guest.pump(0.05)
        for pid in relays:
            os.kill(pid, signal.SIGKILL)

    def failed(self) -> int:
        """How many tries failed while the machine was unreachable."""
        with open(self.tries) as f:
            return len(f.read())

    def failing(self, guest: Player, more: int) -> None:
        """Wait until ``more`` tries more have failed (the guest's screen read meanwhile)."""
        wanted, end = self.failed() + more, time.monotonic() + 20
        while self.failed() < wanted:
            assert time.monotonic() < end, guest.text()
            guest.pump(0.05)

    def restore(self) -> None:
        os.unlink(self.down)


@contextmanager
def _table() -> Iterator[tuple[str, int, int, str, int, int, Relay, str]]:
    """Two real users and a relay for the second, with a python they may run on this checkout."""
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")  # the test's own may be root's alone
    if python is None:
        pytest.skip("no system python3 for the far side of the relay")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        if not _readable_by(b_uid, b_gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
            pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
        yield alice, a_uid, a_gid, bob, b_uid, b_gid, Relay(place, b_uid, b_gid), python


def _squeezed(text: str) -> str:
    """``text`` without its blanks (a long line wrapped where a blank was reads the same)."""
    return "".join(text.split())


def _left(player: Player) -> str:
    """The screen's rows as one text, a row that fills the width run on into the next (a long line wrapped)."""
    return "".join(row.rstrip() if len(row.rstrip()) < 80 else row for row in player.screen.display)


def test_a_guest_on_the_board_at_four_seats_waits_for_the_hosts_game_and_is_back_with_his_hand() -> None:
    with _table() as (alice, a_uid, a_gid, bob, b_uid, b_gid, relay, python):
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", f"{alice}@here"], env=relay.env(python))
            players.append(guest)
            guest.wait_for(f"Side A (yours): {alice}, you", deadline=20)
            _until([host, guest], lambda: _asked(guest))
            hand = _hand(guest)

            # ssh killed under him at his prompt, alice's machine unreachable for now: both told at once.
            relay.cut(guest, unreachable=True)
            guest.wait_for(f"{alice} is gone")
            guest.wait_for("Wait/Leave?")
            host.wait_for(f"{bob} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("w")
            host.wait_for("Waiting...")
            guest.send("x")
            guest.wait_for(f"W: wait for {alice}  L: leave")
            guest.send("w")
            guest.wait_for("Waiting...")
            guest.wait_for(f"waiting for {alice} (a key: the choice)")
            relay.failing(guest, 2)  # ssh failing again and again meanwhile: still waiting, nothing else asked
            guest.pump(0.1)
            assert "Waiting..." in guest.text() and "Wait/Leave?" not in guest.text(), guest.text()
            guest.send(" ")  # any key brings the choice back
            guest.wait_for("Wait/Leave?")

            # Her machine answers again: W takes his seat back, his hand in it, at the move he left.
            relay.restore()
            guest.send("w")
            host.wait_for(f"{bob} joined", deadline=20)
            end = time.monotonic() + 20
            while not (_asked(guest) and _hand(guest) == hand):
                assert time.monotonic() < end, (hand, guest.text())
            assert "Wait/Leave?" not in guest.text() and "Waiting..." not in guest.text()
            _turn(guest)  # and his keys are his moves again
            _until([host, guest], lambda: _asked(host), deadline=30)

            # Cut again: L leaves, with the line that says how to join again; alice keeps the game.
            relay.cut(guest)
            guest.wait_for("Wait/Leave?")
            guest.send("l")
            assert guest.reap() == 1
            assert _squeezed(f"{alice} keeps it (join again with: mille --join {alice}@here)") in _squeezed(
                _left(guest)
            )
            host.wait_for(f"{bob} is gone")
        finally:
            for p in players:
                p.kill()


def test_a_guest_in_lines_at_four_seats_waits_for_the_hosts_game_and_is_back_with_his_hand() -> None:
    with _table() as (alice, a_uid, a_gid, bob, b_uid, b_gid, relay, python):
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--plain", "--join", f"{alice}@here"], env=relay.env(python))
            players.append(guest)
            _said(guest, "Mille Bornes at 4 seats", deadline=20)
            end = time.monotonic() + 60
            while not _last(guest).endswith("Your move:"):
                assert time.monotonic() < end, guest.text()
                _turn(host)
                guest.pump(0.01)
                if _last(guest).endswith("Coup fourre?"):
                    guest.send("n\r")
                    guest.wait_for("let the coup fourre pass")
            hand = _hand_said(guest)

            relay.cut(guest, unreachable=True)
            _said(guest, f"{alice} is gone")
            _said(guest, f"w waits for {alice}'s game to take you back, l leaves")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("w")
            host.wait_for("Waiting...")
            _fresh(guest, "x")
            _said(guest, "Answer w or l.")
            _fresh(guest, "w")
            _said(guest, f"Waiting for {alice}; RETURN brings the choice back.")
            relay.failing(guest, 2)  # ssh failing again and again meanwhile: still waiting
            guest.pump(0.1)
            assert "w waits for" not in _last(guest), guest.text()
            _fresh(guest, "")  # RETURN: the choice again
            _said(guest, f"w waits for {alice}'s game to take you back")

            relay.restore()
            _fresh(guest, "w")
            host.wait_for(f"{bob} joined", deadline=20)
            _said(guest, "Your move:", deadline=20)
            assert _hand_said(guest) == hand
            _plain_turn(guest)
            guest.wait_for("You discard")

            _forget(guest)
            relay.cut(guest)
            _said(guest, f"w waits for {alice}'s game to take you back")
            guest.send("l\r")
            assert guest.reap() == 1
            assert f"{alice} keeps it (join again with: mille --join {alice}@here)" in _last(guest), guest.text()
        finally:
            for p in players:
                p.kill()


def _forget(player: Player) -> None:
    """Only what comes from now on looked at."""
    player.pump(0.02)
    player.screen = ptyreplay.Terminal(80, 24)
    player.stream = ptyreplay._Stream(player.screen)


def _fresh(player: Player, line: str) -> None:
    """``line`` typed, and only what follows it looked at."""
    _forget(player)
    player.send(line + "\r")


def _hand_said(player: Player) -> str:
    """In lines, at ``Your move:``: the hand as ``c`` says it."""
    said = _answer(player, "c", "Your hand: ")
    said = said[said.index("Your hand: ") + len("Your hand: ") :]
    return said[: said.index(".")]


def test_a_guest_joined_on_this_machine_waits_for_a_new_game_at_his_seat_and_leaves_one_at_another_table() -> None:
    """The host's mille killed under a guest joined locally: W tries her socket until a game of hers answers.

    Her next game at the same table seats him again (the local way back);
    one at another table is not his seat: he is told how to join it, and
    his mille ends.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_for(f"Side A (yours): {alice}, you")
            host.kill()
            guest.wait_for("Wait/Leave?")
            guest.send("w")
            guest.wait_for("Waiting...")  # her socket refuses meanwhile
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"Side A (yours): you, {bob}", deadline=20)
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            assert "Waiting..." not in guest.text() and "Wait/Leave?" not in guest.text(), guest.text()
            _until([host, guest], lambda: _asked(guest))

            host.kill()
            guest.wait_for("Wait/Leave?")
            guest.send("w")
            guest.wait_for("Waiting...")
            host = Player(a_uid, a_gid, ["--players", "3", "--invite", bob, "--no-stats"])
            players.append(host)
            assert guest.reap(deadline=20) == 1
            assert f"{alice}'s game is another table now; join it with: mille --join {alice}" in _left(guest)
        finally:
            for p in players:
                p.kill()
