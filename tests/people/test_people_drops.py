"""Drops, at every table: a person's terminal closed, their mille killed, the host's own drop, a guest's link broken
while the host lives (docs/people.md "Drops"), as real users on ptys.

Real users made for the test (``useradd``, as root; skipped with the reason
otherwise) on ptys of their own (:mod:`helpers.people`).  The faults are
real: a pty's master closed under ``bash -i`` (a window closed), a process
killed, a relay in ssh's place killed (its far side's ``mille --join-stdio``
run on this machine; while a file exists the stand-in fails as ssh does
when the machine is unreachable).  Each of the host's choices at a drop
(wait, the computer, adjourn) and each of the guest's (wait, leave) is
made, at two and at four seats.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from helpers.people import (
    RELAY,
    SRC,
    Lines,
    Player,
    in_shell,
    kept_file,
    one_play_from_the_end,
    partner_asked_coup_fourre,
    people,
    players,
    python_for,
    readable_directory,
    state_home,
    the_choice_after_a_wait,
    until,
)
from helpers.terminal import _children, _cmdline
from mille.engine.state import Game


def _invite(seats: int, bob: str) -> list[str]:
    """The host's arguments for bob at ``seats``: at four, seat 2 (the seat after hers: his turn after her move)."""
    return ["--invite", bob] if seats == 2 else ["--players", "4", "--invite", f"{bob}:2"]


@pytest.mark.parametrize("seats", [2, 4])
def test_the_hosts_terminal_closed_keeps_the_game_for_everyone_and_all_resume_it(seats: int) -> None:
    """alice's terminal closed at bob's move: her game kept as any is on a hangup, bob told; ``--invite bob FILE``
    (``bob:2`` at four seats) and bob's ``--join`` again resume it: his seat, his hand, his move."""
    from mille.files import save

    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        state = state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        host = Player(a_uid, a_gid, [*_invite(seats, bob), "--no-stats"], env=env, seats=seats)
        started.append(host)
        host.wait_said(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(guest)
        host.wait_asked()
        host.move()
        guest.wait_asked()
        hand = guest.hand()

        host.close_terminal()  # the host's terminal goes away under it
        assert host.reap() == 1
        assert guest.reap() == 0
        assert f"{alice} left the game" in guest.text()
        kept = kept_file(state)
        # The save names the person at two seats; at more, the computers (the people are seated by --invite again).
        assert save.read_game(kept).computer == (f"person:{bob}" if seats == 2 else "bsd")

        again = Player(a_uid, a_gid, [*_invite(seats, bob)[-2:], "--no-stats", kept], env=env, seats=seats)
        started.append(again)
        again.wait_said(f"mille --join {alice}")
        back = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(back)
        back.wait_asked()
        assert "plays, not" not in again.text()
        assert back.hand() == hand
        again.wait_for(f"{bob} is thinking...")


@pytest.mark.parametrize("seats", [2, 4])
def test_drops_under_a_shell_and_each_choice_the_host_makes(seats: int) -> None:
    """bob's terminal closed under ``bash -i`` at his move prompt, then while alice thinks, then his mille killed:
    alice is told at once each time and chooses: wait (his seat retaken at the same move), the computer (which
    stands in without asking again), adjourn (the game kept, resumed by both)."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        state = state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        host = Player(a_uid, a_gid, [*_invite(seats, bob), "--no-stats"], env=env, seats=seats)
        started.append(host)
        host.wait_said(f"mille --join {alice}")
        guest = in_shell(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(guest)
        host.wait_asked()
        host.move()
        guest.wait_asked()

        # At his move prompt: his terminal closed under the shell.  Alice chooses to wait.
        guest.close_terminal()
        the_choice_after_a_wait(host, bob)
        host.send("w")
        host.wait_for("Waiting...")
        back = in_shell(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(back)
        back.wait_asked()  # the seat retaken, at the same move
        host.wait_for(f"{bob} joined")
        back.move()
        host.wait_asked()

        # While alice thinks: his terminal closed again; she is told at once, and chooses the computer.
        back.close_terminal()
        host.wait_for(f"{bob} is gone")
        host.move()
        host.wait_for("Wait/Comp/Adjourn?")
        host.send("c")
        host.wait_asked()
        deck = host.deck()
        host.move()
        # The computer stands in without asking again: her prompt again, a card drawn for each (two or more:
        # a safety played gives another turn, and the deal is one nobody can choose).
        host.wait_asked()
        assert "Adjourn?" not in host.text(), host.text()
        assert host.deck() <= deck - 2, host.text()

        # He comes back, his mille is killed at his prompt, and alice adjourns.
        again = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(again)
        again.wait_for(f"{alice} is thinking...")
        host.move()
        again.wait_asked()
        hand = again.hand()
        again.kill()
        host.wait_for("Wait/Comp/Adjourn?")
        host.send("a")
        assert host.reap() == 0
        said = host.left()
        seated = bob if seats == 2 else f"{bob}:2"
        assert f"resume it with: mille --invite {seated} " in said, host.text()
        assert f"{bob} takes their seat again with: mille --join {alice}" in said, host.text()

        # Both resume it: his seat, his hand, his move.
        resumed = Player(a_uid, a_gid, ["--invite", seated, "--no-stats", kept_file(state)], env=env, seats=seats)
        started.append(resumed)
        resumed.wait_said(f"mille --join {alice}")
        last = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(last)
        last.wait_asked()
        assert last.hand() == hand
        resumed.wait_for(f"{bob} is thinking...")


def test_a_drop_at_another_hand_is_told_at_once_and_the_seat_retaken_in_the_next_hand() -> None:
    """The guest's terminal closed under bash while the host is asked ``Another hand?``: she is told at once,
    answers, and at his first move of the next hand waits for him: his seat again."""
    from mille.files.save import SavedGame, write_game

    game, key = one_play_from_the_end()
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        kept = os.path.join(place, "near-the-end.json")
        write_game(kept, SavedGame(game, 0, f"person:{bob}"))
        os.chown(kept, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = in_shell(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            host.wait_asked()
            host.send(f"u{key}\r")
            deadline = time.monotonic() + 10
            while "Another hand?" not in host.text():
                assert time.monotonic() < deadline, host.text()
                if "Extension?" in host.text():
                    host.send("n")
                    host.wait_for("Another hand?")
                host.pump(0.02)
            guest.wait_for(f"{alice}: Another hand?")
            guest.close_terminal()
            host.wait_for(f"{bob} is gone")  # at the question, at once
            host.send("y")
            deadline = time.monotonic() + 10
            while "Adjourn?" not in host.text():
                assert time.monotonic() < deadline, host.text()
                if any(line[20:40].rstrip() == ">>:Move:" for line in host.screen.display):
                    host.move()  # she starts the hand: his turn comes after hers
                host.pump(0.02)
            host.send("w")
            host.wait_for("Waiting...")
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            back.wait_asked()
            host.wait_for(f"{bob} joined")
        finally:
            for p in players:
                p.kill()


def test_a_partner_killed_at_a_coup_fourre_asked_out_of_turn_keeps_his_secret_and_the_game_goes_on() -> None:
    """bob (seat 3) asked ``Coup fourre?`` out of turn (a game saved there), his mille killed at the question.

    His question is his secret (R10): alice is not asked what to do there,
    which would tell her that he holds the safety (she was, on the code
    before); the computer answers it, she is told he is gone at her
    prompt, and chooses at his own move.
    """
    from mille.files.save import SavedGame, write_game

    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        kept = os.path.join(place, "at-the-coup-fourre.json")
        write_game(kept, SavedGame(partner_asked_coup_fourre(), 0, "bsd"))
        os.chown(kept, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", f"{bob}:3", "--no-stats", kept], seats=4)
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice], seats=4)
            players.append(guest)
            guest.wait_for("Coup fourre?")
            assert "Turn: you (side A) (coup fourre?)" in guest.text()
            host.wait_for(f"Side A (yours): you, {bob}")
            guest.kill()
            # Not asked of alice there: her question would tell that he holds the safety.  The computer answers
            # his question, and she chooses at his own move (the coup fourré made, his turn at once).
            until([host], lambda: "Wait/Comp/Adjourn?" in host.prompt(), deadline=30)
            assert f"Turn: {bob} (side A)" in host.text()
            assert f"{bob} is gone" in host.text()
            host.send("c")
            until([host], lambda: host.wait_asked(), deadline=30)
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0, host.text()
        finally:
            for p in players:
                p.kill()


def _deals() -> Iterator[tuple[Game, Callable[[], None]]]:
    """New hands at two seats, each with the step that pushes the next move of the original's computer there."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import Phase
    from mille.players.bsd import BsdPlayer

    for seed in range(1, 200):
        game = Game(rng=GlibcRandom(seed))
        rules.start_hand(game)
        players, dice = [BsdPlayer(), BsdPlayer()], [GlibcRandom(1), GlibcRandom(2)]

        def step(game: Game = game, players: list[BsdPlayer] = players, dice: list[GlibcRandom] = dice) -> None:
            seat = game.to_move
            empty = rules.phase(game) is Phase.EMPTY_HAND
            rules.push(game, rules.PASS if empty else players[seat].choose(observe(game, seat), dice[seat]))

        yield game, step


def _at_extension(seat: int) -> Game:
    """A game of two original computers stopped where ``seat`` has reached 700 miles and is asked ``Extension?``."""
    from mille.engine import rules
    from mille.engine.rules import Phase

    for game, step in _deals():
        while (phase := rules.phase(game)) not in (Phase.HAND_OVER, Phase.EXTENSION):
            step()
        if phase is Phase.EXTENSION and game.to_move == seat:
            return game
    raise AssertionError(f"no deal asks seat {seat} Extension?")


def _one_pick_from_extension() -> tuple[Game, str]:
    """A game where the guest's seat is to move, and a pick then a play of theirs reaches 700 (``Extension?``).

    The position the question is reached from: a game cannot be saved
    while the computer's seat is asked ``Extension?`` (files/save.py), nor
    kept there (the last snapshot before stands in, ui/keeping.py).
    """
    from mille.engine import rules
    from mille.engine.rules import MoveType, Phase

    for game, step in _deals():
        while rules.phase(game) is not Phase.HAND_OVER:
            if rules.phase(game) is Phase.MOVE and game.to_move == 1 and rules.draw_refusal(game, 1) is None:
                picked = game.copy()
                rules.push(picked, rules.DRAW)
                for move in rules.legal_moves(picked):
                    trial = picked.copy()
                    rules.push(trial, move)
                    if move.kind is MoveType.PLAY and trial.pending_extension is not None:
                        return game, "p" if move.slot == 0 else str(move.slot)
            if rules.phase(game) is Phase.EXTENSION:
                break
            step()
    raise AssertionError("no deal brings the second seat to 700 miles")


def _kept(place: str, game: Game, guest: str, uid: int, gid: int) -> str:
    """``game`` saved with ``guest`` in the second seat, a file of the host's (``uid``)."""
    from mille.files.save import SavedGame, write_game

    kept = os.path.join(place, "near-the-extension.json")
    write_game(kept, SavedGame(game, 0, f"person:{guest}"))
    os.chown(kept, uid, gid)
    return kept


def _going_on(host: Player, deadline: float = 10.0) -> str:
    """Wait until the game has gone on to the host: her move prompt or ``Another hand?``; which."""
    end = time.monotonic() + deadline
    while True:
        if "Another hand?" in host.text():
            return "Another hand?"
        if any(line[20:40].rstrip() == ">>:Move:" for line in host.screen.display):
            return ">>:Move:"
        assert time.monotonic() < end, host.text()
        host.pump(0.02)


def test_the_guests_terminal_closed_at_their_extension_question_the_host_chooses_and_the_game_goes_on() -> None:
    """bob reaches 700 miles (a game saved at his ``Extension?``): his terminal closed under his shell there.

    alice is told at once and chooses the computer, which answers the
    question for his seat; the game goes on to her, and bob joins again.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        game, key = _one_pick_from_extension()
        kept = _kept(place, game, bob, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = in_shell(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_asked()
            guest.send(f"pu{key}\r")  # his pick, and the play that reaches 700 (a slot is ended by RETURN)
            guest.wait_for("Extension?")
            host.wait_for(f"{bob} is thinking...")
            guest.close_terminal()
            host.wait_for(f"{bob} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            # The computer answered for his seat: the hand ended at 700, or goes on to 1000 and to alice.
            # He joins again while she is asked (Another hand?, or her move): his board at once.
            going_on = _going_on(host)
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            host.wait_for(f"{bob} joined")
            back.wait_for(f"{alice} is thinking...")
            if going_on == "Another hand?":
                host.send("n")
                host.wait_for("Save game?")
                host.send("n")
            else:
                host.send("q")
                host.wait_for("Really?")
                host.send("y")
            assert host.reap() == 0, host.text()
            assert back.reap() == 0 and f"{alice} left the game" in back.text()
        finally:
            for p in players:
                p.kill()


def test_the_guest_killed_while_the_host_is_asked_her_extension_is_told_at_once_and_his_seat_waits() -> None:
    """alice at her ``Extension?`` (a saved game), bob's mille killed meanwhile: she is told at the question.

    She answers it; at bob's move she waits for him, and he joins again and has his seat, his move.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        kept = _kept(place, _at_extension(0), bob, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            host.wait_for("Extension?")
            guest.wait_for(f"{alice} is thinking...")
            assert "Extension?" not in guest.text()  # her question is hers
            guest.kill()
            host.wait_for(f"{bob} is gone")  # at the question, at once
            assert "Extension?" in host.text()
            host.send("y")
            host.wait_for("Wait/Comp/Adjourn?")  # his move: she chooses
            host.send("w")
            host.wait_for("Waiting...")
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            back.wait_asked()  # his seat, his move
            host.wait_for(f"{bob} joined, thinking...")  # and whose turn it is, on her board
            assert "Waiting..." not in host.text() and "Extension?" not in host.text()
            back.move()
            host.wait_asked()  # his move made: hers again, the game goes on
        finally:
            for p in players:
                p.kill()


# ----------------------------------------------------------------------
# A guest's link broken while the host's mille lives: Wait/Leave?


class Relay:
    """The stand-in for ssh a guest joins through, and the switch that makes the host's machine unreachable."""

    def __init__(self, place: str, uid: int, gid: int) -> None:
        self.down = os.path.join(place, "down")
        self.ssh = os.path.join(place, "ssh")
        self.tries = os.path.join(place, "tries")
        with open(self.ssh, "w") as f:
            f.write(RELAY.format(down=self.down, tries=self.tries))
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
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        python = python_for(b_uid, b_gid)
        yield alice, a_uid, a_gid, bob, b_uid, b_gid, Relay(place, b_uid, b_gid), python


def _host(seats: int, bob: str) -> list[str]:
    return ["--players", str(seats), "--invite", bob, "--no-stats"]


@pytest.mark.parametrize("seats", [2, 4])
def test_a_guest_on_the_board_waits_for_the_hosts_game_and_is_back_with_his_hand(seats: int) -> None:
    """bob's ssh killed at his prompt, alice's machine unreachable for now: both told at once; bob waits through
    tries that fail (a key brings the choice back), and W takes his seat back, his hand in it, as soon as her game
    answers; cut again, L leaves with the line he typed to join."""
    with _table() as (alice, a_uid, a_gid, bob, b_uid, b_gid, relay, python), players() as started:
        host = Player(a_uid, a_gid, _host(seats, bob), seats=seats)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", f"{alice}@here"], env=relay.env(python), seats=seats)
        started.append(guest)
        guest.wait_for(f"{alice} is thinking...", deadline=20)
        until([host], guest.asked)
        hand = guest.hand()

        # ssh killed under him at his prompt, alice's machine unreachable for now: both told at once.
        relay.cut(guest, unreachable=True)
        guest.wait_for(f"the link to {alice} is gone")
        guest.wait_for("Wait/Leave?")
        host.wait_for(f"{bob} is gone")
        host.wait_for("Wait/Comp/Adjourn?")
        host.send("w")
        host.wait_for("Waiting...")
        guest.send("x")
        guest.wait_for(f"W: wait for {alice}  L: leave")
        guest.send("w")
        guest.wait_for("Waiting...")
        guest.wait_for(f"waiting for {alice}")
        relay.failing(guest, 2)  # ssh failing again and again meanwhile: still waiting, nothing else asked
        guest.pump(0.1)
        assert "Waiting..." in guest.text() and "Wait/Leave?" not in guest.text(), guest.text()
        guest.send(" ")  # any key brings the choice back
        guest.wait_for("Wait/Leave?")

        # Her machine answers again: W takes his seat back, his hand in it, at the move he left.
        relay.restore()
        guest.send("w")
        host.wait_for(f"{bob} joined", deadline=20)
        guest.until(lambda: guest.asked() and guest.hand() == hand, deadline=20)
        assert "Wait/Leave?" not in guest.text() and "Waiting..." not in guest.text()
        guest.step()  # and his keys are his moves again
        until([host, guest], host.asked, deadline=30)

        # Cut again: L leaves, with the line that says how to join again (as he joined); alice keeps the game.
        relay.cut(guest)
        guest.wait_for("Wait/Leave?")
        guest.send("l")
        assert guest.reap() == 1
        assert guest.said(f"{alice} keeps it (join again with: mille --join {alice}@here)"), guest.text()
        host.wait_for(f"{bob} is gone")


@pytest.mark.parametrize("seats", [2, 4])
def test_a_guest_in_lines_waits_for_the_hosts_game_and_is_back_with_his_hand(seats: int) -> None:
    """The same in lines: the choice a line (``w`` or ``l``), RETURN brings it back."""
    with _table() as (alice, a_uid, a_gid, bob, b_uid, b_gid, relay, python), players() as started:
        host = Player(a_uid, a_gid, _host(seats, bob), seats=seats)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Lines(b_uid, b_gid, ["--plain", "--join", f"{alice}@here"], env=relay.env(python))
        started.append(guest)
        guest.said_line(f"Mille Bornes at {seats} seats" if seats > 2 else f"Mille Bornes against {alice}", 20)
        end = time.monotonic() + 60
        while guest.last() != "Your move:":
            assert time.monotonic() < end, guest.text()
            host.step()
            guest.pump(0.01)
            if guest.last() == "Coup fourre?":
                guest.answered("n", "let the coup fourre pass")
        hand = guest.hand_said()

        relay.cut(guest, unreachable=True)
        guest.said_line(f"the link to {alice} is gone")
        guest.said_line(f"w waits for {alice}'s game to take you back, l leaves")
        host.wait_for("Wait/Comp/Adjourn?")
        host.send("w")
        host.wait_for("Waiting...")
        guest.answered("x", "Answer w or l.")
        guest.answered("w", f"Waiting for {alice}; RETURN brings the choice back.")
        relay.failing(guest, 2)  # ssh failing again and again meanwhile: still waiting
        guest.pump(0.1)
        assert not guest.last().startswith("w waits for"), guest.lines()[-5:]
        guest.answered("", f"w waits for {alice}'s game to take you back")  # RETURN: the choice again

        relay.restore()
        guest.answered("w", "Your move:", deadline=20)
        host.wait_for(f"{bob} joined", deadline=20)
        assert guest.hand_said() == hand
        guest.move()

        mark = len(guest.lines())
        relay.cut(guest)
        guest.said_line(f"w waits for {alice}'s game to take you back", since=mark)
        guest.answer("l")
        assert guest.reap() == 1
        assert guest.said(f"{alice} keeps it (join again with: mille --join {alice}@here)"), guest.text()


def test_a_guest_joined_on_this_machine_waits_for_a_new_game_at_his_seat_and_leaves_one_at_another_table() -> None:
    """The host's mille killed under a guest joined locally: W tries her socket until a game of hers answers.

    Her next game at the same table seats him again (the local way back);
    one at another table is not his seat: he is told how to join it, and
    his mille ends.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, _host(4, bob), seats=4)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", alice], seats=4)
        started.append(guest)
        guest.wait_for(f"Side A (yours): {alice}, you")
        host.kill()
        guest.wait_for("Wait/Leave?")
        guest.send("w")
        guest.wait_for("Waiting...")  # her socket refuses meanwhile
        host = Player(a_uid, a_gid, _host(4, bob), seats=4)
        started.append(host)
        host.wait_for(f"Side A (yours): you, {bob}", deadline=20)
        guest.wait_for(f"{alice} is thinking...", deadline=20)
        assert "Waiting..." not in guest.text() and "Wait/Leave?" not in guest.text(), guest.text()
        until([host], guest.asked)

        host.kill()
        guest.wait_for("Wait/Leave?")
        guest.send("w")
        guest.wait_for("Waiting...")
        host = Player(a_uid, a_gid, _host(3, bob), seats=3)
        started.append(host)
        assert guest.reap(deadline=20) == 1
        assert guest.said(f"{alice}'s game is another table now; join it with: mille --join {alice}"), guest.text()
