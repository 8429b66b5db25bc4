"""What a new player met, tried as a new user would (issue 44): each a place where two ways of writing a table drifted
apart, each failing on the code before (ee40e02).

Real users made for the test (``useradd``, as root; skipped with the reason
otherwise) on ptys of their own (:mod:`helpers.people`).
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from helpers.people import (
    RELAY,
    SRC,
    Lines,
    Player,
    kept_file,
    kept_for,
    one_play_from_the_end,
    people,
    players,
    python_for,
    readable_directory,
    state_home,
    until,
)


def test_the_help_keys_on_a_guests_larger_board_keep_his_mille_alive() -> None:
    """``?`` and ``h`` at a guest's move prompt at 4 seats: his mille went down with a traceback (``'_TableGuestFlow'
    object has no attribute 'hints'``); now his prompt stays his, and ``p`` picks."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"], seats=4)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", alice], seats=4)
        started.append(guest)
        until([host], guest.asked)
        hand = guest.hand()
        guest.send("?")
        guest.send("h")
        guest.send("p")
        guest.until(lambda: guest.hand().get("P") not in (None, "-") and guest.prompt() == ">>:Move:")
        assert guest.alive() and "Traceback" not in guest.text(), guest.text()
        assert guest.hand() != hand


def test_a_two_seat_guest_sees_his_hand_at_once_the_hosts_moves_said_and_his_save_key_answered() -> None:
    """At two seats the guest saw his hand only after the host's first move, never a line for the host's moves, and
    ``S`` did nothing while his board lists ``s: save``."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()
        guest.wait_for(f"{alice} is thinking...")
        # His hand, before alice has moved: six cards dealt.
        guest.until(lambda: sum(name != "-" for slot, name in guest.hand().items() if slot != "P") == 6)
        host.move()
        guest.wait_asked()
        assert "DISCARD" in guest.text(), guest.text()  # alice's discard said, as the original says its computer's
        guest.send("s")
        guest.wait_for(f"only {alice} may save")


def test_keys_typed_while_the_other_thinks_are_answered_at_once_not_kept_for_a_later_prompt() -> None:
    """alice's ``q`` while bob thinks asked ``Really?`` only minutes later, when bob moved (her ``y`` then ended the
    game); keys typed by either while the other thinks are answered at once and never taken later as moves."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()
        guest.wait_for(f"{alice} is thinking...")
        guest.send("x")  # his key while she thinks: told at once
        guest.wait_for("not your turn")
        host.move()
        guest.wait_asked()
        host.send("q")  # hers while he thinks: Really? at once
        host.wait_for("Really?")
        host.send("n")
        host.send("x")
        host.wait_for(f"{bob[:12]}'s turn (C: computer)")
        guest.move()
        host.wait_asked()
        host.pump(0.3)
        assert "unknown command" not in host.text(), host.text()  # the x was never kept for her prompt


def test_a_guest_whose_own_link_broke_is_not_told_that_the_host_left() -> None:
    """bob's ssh killed under him (the host's mille alive): he read ``alice is gone (the other side left)``."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        python = python_for(b_uid, b_gid)
        relay = os.path.join(place, "ssh")
        with open(relay, "w") as f:
            f.write(RELAY.format(down=os.path.join(place, "down"), tries=os.path.join(place, "tries")))
        os.chmod(relay, 0o755)
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        env = {"MILLE_SSH": relay, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}
        guest = Player(b_uid, b_gid, ["--join", f"{alice}@here"], env=env)
        started.append(guest)
        guest.wait_for(f"{alice} is thinking...", deadline=20)
        from helpers.terminal import _children, _cmdline

        end = time.monotonic() + 10
        while not (relays := [pid for pid in _children(guest.pid) if "--join-stdio" in _cmdline(pid)]):
            assert time.monotonic() < end
            guest.pump(0.05)
        for pid in relays:
            os.kill(pid, signal.SIGKILL)
        guest.wait_for("Wait/Leave?")
        assert "the other side left" not in guest.text() and f"the link to {alice}" in guest.text(), guest.text()


@pytest.mark.parametrize("seats", [2, 4])
def test_a_host_who_quits_without_saving_does_not_say_she_keeps_the_game(seats: int) -> None:
    """alice quits (``Q``, ``Really? y``) and nothing is kept: her partner read ``alice keeps it and may invite you
    again`` at 4 seats."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--players", str(seats), "--invite", bob, "--no-stats"], seats=seats)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(guest)
        host.wait_asked()
        host.send("q")
        host.wait_for("Really?")
        host.send("y")
        assert host.reap() == 0 and guest.reap() == 0
        assert f"{alice} left the game" in guest.text() and "keeps it" not in guest.text(), guest.text()


def test_kept_names_the_person_and_knows_a_game_resumed_and_played_on_by_them() -> None:
    """``mille --kept`` called bob "computer", and said "not resumed" of a file resumed with him: at the resume his
    move came first, and his moves were not counted as play."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        state = state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        host = Player(a_uid, a_gid, ["--invite", bob], env=env)
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()
        host.move()
        guest.wait_asked()
        host.close_terminal()  # her terminal closed at his move: the game kept as it stands
        assert host.reap() == 1 and guest.reap() == 0
        kept = kept_file(state)
        again = Player(a_uid, a_gid, ["--invite", bob, kept], env=env)
        started.append(again)
        again.wait_for(f"mille --join {alice}")
        back = Player(b_uid, b_gid, ["--join", alice])
        started.append(back)
        back.wait_asked()
        back.move()  # his move, hers not yet: she quits
        again.wait_asked()
        again.send("q")
        again.wait_for("Really?")
        again.send("y")
        assert again.reap() == 0
        listing = Player(a_uid, a_gid, ["--kept"], env=env)
        started.append(listing)
        assert listing.reap() == 0, listing.raw.decode(errors="replace")
        said = listing.left()
        assert f"{bob} 0" in said and "computer" not in said, said
        assert "not resumed" not in said and "resumed and played on" in said, said


def _events(state: str) -> list[dict[str, object]]:
    with open(os.path.join(state, "mille", "stats.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()][1:]


def test_a_guests_games_are_in_their_record_and_a_hosts_game_with_people_under_their_names() -> None:
    """A guest's games were in no record (``--stats``: "No games recorded yet"); a host's game at 4 seats with a
    person was filed under ``bsd (4 seats)``."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        game, key = one_play_from_the_end()
        kept = kept_for(place, game, f"person:{bob}", a_uid, a_gid)
        a_state, b_state = state_home(place, a_uid, a_gid), state_home(place, b_uid, b_gid)
        host = Player(a_uid, a_gid, ["--invite", bob, kept], env={"XDG_STATE_HOME": a_state})
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice], env={"XDG_STATE_HOME": b_state})
        started.append(guest)
        host.wait_asked()
        host.send(f"u{key}\r")  # the play that ends the hand (or asks Extension?, answered no)
        end = time.monotonic() + 10
        while "Another hand?" not in host.text():
            assert time.monotonic() < end, host.text()
            if "Extension?" in host.text():
                host.send("n")
                host.wait_for("Another hand?")
            host.pump(0.02)
        host.send("n")
        host.wait_for("Save game?")
        host.send("n")
        assert host.reap() == 0 and guest.reap() == 0
        hands = [e for e in _events(b_state) if e["t"] == "hand"]
        assert hands and all(e["computer"] == f"person:{alice}" for e in hands), _events(b_state)
        stats = Player(b_uid, b_gid, ["--stats"], env={"XDG_STATE_HOME": b_state})
        started.append(stats)
        assert stats.reap() == 0 and f"person:{alice}"[:12] in stats.text(), stats.text()

        # At four seats with bob, alice's game goes under his name (and the table), not the computers'.
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob], env={"XDG_STATE_HOME": a_state}, seats=4)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", alice], env={"XDG_STATE_HOME": b_state}, seats=4)
        started.append(guest)
        host.wait_asked()
        host.step()
        host.step()  # her pick and her discard: a game played, then left
        host.until(lambda: not host.asked())
        host.send("\x03")
        host.wait_for("Really?")
        host.send("y")
        assert host.reap() == 0
        games = [e for e in _events(a_state) if e["t"] == "game" and e.get("seats") == 4]
        assert games and games[-1]["computer"] == f"person:{bob}", _events(a_state)


@pytest.mark.parametrize("side", ["guest", "host"])
def test_a_terminal_hung_up_under_runuser_while_the_other_thinks_is_heard_at_once(side: str) -> None:
    """In lines, under ``runuser`` (which keeps the SIGHUP from its child): bob's terminal closed while alice thinks
    left his mille waiting for her next message, and alice was told only at her next move; and the same for hers."""
    runuser = "/usr/sbin/runuser"
    if not os.path.exists(runuser):
        pytest.skip("no runuser")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        python = python_for(b_uid, b_gid)
        state = state_home(place, a_uid, a_gid)

        def under_runuser(user: str, argv: list[str]) -> Player:
            program = [runuser, "-u", user, "--", "env", f"PYTHONPATH={SRC}", python, "-m", "mille", *argv]
            return Player(0, 0, [], env={"XDG_STATE_HOME": state}, program=program)

        if side == "guest":
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            started.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = under_runuser(bob, ["--plain", "--join", alice])
            started.append(guest)
            host.wait_asked(deadline=20)
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            guest.close_terminal()  # while she thinks
            host.wait_for(f"{bob} is gone")
        else:
            host = under_runuser(alice, ["--plain", "--invite", bob, "--no-stats"])
            started.append(host)
            host.wait_for(f"mille --join {alice}", deadline=20)
            lines = Lines(b_uid, b_gid, ["--plain", "--join", alice])
            started.append(lines)
            host.wait_for("Your move:", deadline=20)
            host.send("p\r")
            host.wait_for("You pick")
            host.send("d 1\r")  # her discard (the card in slot 1 is no safety in a fresh hand often enough: or refused)
            end = time.monotonic() + 10
            while not lines.last().endswith("Your move:"):
                assert time.monotonic() < end, host.text()
                host.pump(0.05)
                lines.pump(0.05)
                if "discard a safety" in host.text():
                    host.send("d 2\r")
            host.close_terminal()  # while he thinks
            lines.said_line(f"{alice} left the game")
