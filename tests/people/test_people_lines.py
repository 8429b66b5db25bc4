"""People in lines, at every table (``mille --plain --invite``, ``mille --plain --join``; docs/people.md): either side
in lines and the other on the board, or both in lines, as real users on ptys.

Every line names the people where a game against the computers names a
seat, the other side's news is said at once, whose turn when it passes to a
person, a drop asked in a line; a guest in lines says each move from what
every seat saw of it and the view after it, and its process is handed only
its own seat's view (the bytes recorded on their way in).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import time

import pytest

from helpers.people import (
    RECORDER,
    SRC,
    Lines,
    Player,
    people,
    players,
    python_for,
    readable_directory,
    state_home,
    tails,
    until,
)


@pytest.mark.parametrize("seats", [2, 3])
def test_a_host_in_lines_hears_a_guest_on_the_board_named_where_a_seat_is(seats: int) -> None:
    """``mille --plain --players N --invite bob``: bob named where a game against the computer names its seat (with
    his seat and side at 3); his turn said; a move refused on his board in the original's words; his mille killed
    at his prompt: alice asked in a line, and the computer plays his seat."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Lines(a_uid, a_gid, ["--plain", "--players", str(seats), "--invite", bob, "--no-stats"])
        started.append(host)
        host.said_line(f"waiting for {bob}")
        guest = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(guest)
        if seats == 2:
            host.said_line(f"Mille Bornes against {bob}, in lines")
            guest.wait_for(f"{alice} is thinking...")
            assert alice[:6] in guest.screen.display[0][60:80]  # her name heads his Comp column
        else:
            host.said_line("Mille Bornes at 3 seats, each for themselves, in lines")
            guest.wait_for(f"Side A: {alice}")
        host.said_line("Your move:")
        board = host.answered("r", "Your hand")
        if seats == 3:
            assert f"{bob} (seat 2, side B) 6" in board and "seat 3 (side C) 6" in board, board
            assert f"Side B, {bob} (seat 2):" in board, board
        else:
            assert bob in board and "computer" not in board.lower(), board
        host.move()
        host.said_line(f"{bob} is thinking...")
        until([], guest.asked)
        if seats == 2:
            # A move the rules refuse: the original's own reason, on his board.  (Not a safety: a safety
            # counts as picked, and its discard is refused as "discard a safety?", bsd-mille.md §3.3, §3.4.)
            guest.send(guest.discard_keys())
            guest.wait_for("must pick first")
        guest.move()
        host.said_line(f"{bob} discards" if seats == 2 else f"{bob} (seat 2, side B) discards")
        if seats == 3:
            guest.wait_for(f"Turn: {alice} (side A)", deadline=30)  # seat 3, the computer, moved: her turn again
        host.said_line("Your move:")
        # His mille killed at his prompt: she is told and asked in a line; c lets the computer play his seat.
        host.move()
        guest.wait_asked()
        guest.kill()
        host.said_line(f"{bob} is gone.")
        host.said_line(f"w waits for {bob} to join again, c lets the computer play the seat until then")
        host.answered("x", "Answer w, c or a.")
        host.answered("w", f"Waiting for {bob}")
        host.answered("", "c lets the computer play the seat")  # RETURN: the choice again
        host.answered("c", f"The computer plays for {bob}.")
        host.said_line("Your move:")
        host.answer("q")
        host.said_line("Really?")
        host.answer("y")
        assert host.reap() == 0


@pytest.mark.parametrize("seats", [2, 4])
def test_a_guest_in_lines_plays_turns_with_the_host_on_the_board(seats: int) -> None:
    """``mille --plain --join alice``: the host named where the computer is (at 4 seats, the table counted from his
    seat, each event naming seat and side); her moves said; his refused ones told in the engine's words."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--players", str(seats), "--invite", bob, "--no-stats"], seats=seats)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        guest = Lines(b_uid, b_gid, ["--plain", "--join", alice])
        started.append(guest)
        if seats == 2:
            guest.said_line(f"Mille Bornes against {alice}, in lines")
        else:
            guest.said_line("Mille Bornes at 4 seats, 2 sides of 2, in lines: you are seat 3, on side A")
            # The host's numbering: alice, his partner, seat 1; the computers seats 2 and 4, side B.
            host.wait_for(f"Side A (yours): you, {bob}")
        guest.said_line("New hand: the trip is")
        guest.said_line(f"{alice} is thinking...")
        turns, end = 0, time.monotonic() + 120
        while turns < 3:
            assert time.monotonic() < end, tails(guest)
            host.step()
            guest.pump(0.01)
            last = guest.last()
            if last == "Your move:":
                if turns == 0:
                    board = guest.answered("r", "Your hand")
                    if seats == 4:
                        assert f"Side A (yours), you and your partner {alice} (seat 1):" in board, board
                        assert "Side B, seat 2 and seat 4:" in board and "you 6," in board, board
                    else:
                        assert alice in board and "computer" not in board.lower(), board
                    guest.answered("d 9", "d needs a card")
                    guest.answered(guest.discard_line(), "must pick first")  # the engine's words, from his view
                    guest.answered("p", "You pick")
                    guest.answered("p", "already picked")  # a second pick: the engine's own refusal
                    guest.answered(guest.discard_line(), "You discard")
                else:
                    guest.move()
                turns += 1
            elif last == "Coup fourre?":
                guest.answered("n", "let the coup fourre pass")
        said = "\n".join(guest.lines())
        if seats == 4:
            assert "Seat 2 (side B) " in said or "Seat 4 (side B) " in said, said
            assert f"Your partner {alice} (seat 1) " in said or f"{alice} is thinking..." in said, said
            assert "you are seat 1" not in said and "Seat 3 (" not in said, said
        else:
            assert f"{alice} discards" in said or f"{alice} plays" in said, said
        host.send("q")
        host.wait_for("Really?")
        host.send("y")
        assert host.reap() == 0
        assert guest.reap() == 0
        assert f"{alice} left the game" in guest.text()


def test_a_guest_in_lines_whose_host_was_killed_waits_and_her_next_game_takes_him_back() -> None:
    """alice's mille killed under bob in lines: he is told in a line, waits, and her next game seats him again."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Lines(b_uid, b_gid, ["--plain", "--join", alice])
        started.append(guest)
        host.wait_asked()
        guest.said_line(f"{alice} is thinking...")
        host.kill()
        guest.said_line(f"the link to {alice} is gone")
        guest.said_line(f"w waits for {alice}'s game")
        guest.answered("w", f"Waiting for {alice}")
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_asked()
        host.move()
        guest.said_line(f"{alice} discards")
        guest.said_line("Your move:")


def test_both_sides_in_lines_at_three_seats_play_a_hand_and_into_the_next_and_the_guest_hears_only_its_seat() -> None:
    """``mille --plain --players 3 --invite bob`` and ``mille --plain --join alice``, a computer at seat 3.

    Every line names the people with their seats and sides (the host's
    numbering on both sides, as on every board: docs/people.md); the bytes the guest's
    process received (recorded on their way in) hold his hand and no other
    seat's, nor the deck, nor a card another seat picked, compared with the
    host's game kept when her terminal hangs up.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        python = python_for(b_uid, b_gid)
        record, recorder = os.path.join(place, "received"), os.path.join(place, "ssh")
        with open(recorder, "w") as f:
            f.write(RECORDER.format(record=record))
        os.chmod(recorder, 0o755)
        with open(record, "wb"):
            pass
        os.chown(record, b_uid, b_gid)
        state = state_home(place, a_uid, a_gid)
        players: list[Player] = []
        try:
            argv = ["--plain", "--players", "3", "--invite", bob, "--no-stats"]
            host = Lines(a_uid, a_gid, argv, env={"XDG_STATE_HOME": state})
            players.append(host)
            host.said_line(f"waiting for {bob}")
            relay = {"MILLE_SSH": recorder, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}
            guest = Lines(b_uid, b_gid, ["--plain", "--join", f"{alice}@here"], env=relay)
            players.append(guest)
            host.said_line("Mille Bornes at 3 seats, each for themselves, in lines")
            guest.said_line("Mille Bornes at 3 seats, each for themselves, in lines: you are seat 2, on side B")
            # Turns in lines on both sides to the end of the hand (the deck out, or the trip made).
            end = time.monotonic() + 60
            while host.prompted() != "Another hand?":
                assert time.monotonic() < end, tails(host, guest)
                for p in (host, guest):
                    p.step()
            guest.said_line(f"{alice}: Another hand?")
            heard, told = host.lines(), guest.lines()
            # Each line names the people with seat and side in the host's numbering: bob to alice, alice to bob.
            assert any(line.startswith(f"{bob} (seat 2, side B) discards ") for line in heard), heard
            assert any(line.startswith(f"{alice} (seat 1, side A) discards ") for line in told), told
            assert any(re.match(r"Seat 3 \(side C\) (plays|discards) ", line) for line in heard), heard
            assert any(re.match(r"Seat 3 \(side C\) (plays|discards) ", line) for line in told), told
            assert any(line.startswith("Hand Total: side B ") for line in told), told  # his side's first
            # Whose turn: said once, when the turn passes to a person (not again after their pick).
            for said, other in ((heard, bob), (told, alice)):
                thinking = [i for i, line in enumerate(said) if line == f"{other} is thinking..."]
                bad = [a for a, b in itertools.pairwise(thinking) if b - a <= 1]
                assert len(thinking) > 5 and not bad, "\n".join(said[bad[0] - 30 : bad[0] + 3])
            host.answer("y")
            # The next hand, a few turns into it, to alice's next turn (her pick to come).
            turns, end = 0, time.monotonic() + 30
            while turns < 6 or host.prompted() != "Your move:" or host.state != "turn":
                assert time.monotonic() < end, tails(host, guest)
                turns += guest.step()
                if turns < 6 or host.state != "turn":
                    turns += host.step()
            assert sum(line.startswith("New hand") for line in guest.lines()) == 2, tails(guest)
            # alice's terminal hangs up at her prompt: her game kept (the true game, to compare), bob told.
            os.kill(host.pid, signal.SIGHUP)
            assert host.reap() == 1
            assert guest.reap() == 0
            guest.said_line(f"{alice} left the game")
            [name] = os.listdir(os.path.join(state, "mille"))
            with open(os.path.join(state, "mille", name)) as f:
                game = json.load(f)
            with open(record, "rb") as raw:
                received = raw.read()
        finally:
            for p in players:
                p.kill()
    from mille.engine import cards

    def codes(names: list[str | None]) -> list[int]:
        return [cards.EMPTY if n is None else cards.NAMES.index(n) for n in names]

    messages = [json.loads(line) for line in received.splitlines() if line.strip()]
    assert messages[0]["type"] == "hello" and messages[0]["seat"] == 1
    views = [m["obs"] for m in messages if m.get("type") in ("view", "decide")]
    assert views and all(obs["seat"] == 1 and "deck" not in obs for obs in views)
    assert all("hand" not in side for obs in views for side in obs["sides"])
    assert views[-1]["hand"] == codes(game["players"][1]["hand"])
    moved = [m for m in messages if m.get("type") == "moved"]
    assert moved and all(m["card"] == cards.EMPTY for m in moved if m["kind"] == "draw" and m["seat"] != 1)
    text = received.decode()
    for seat in (0, 2):
        other = codes(game["players"][seat]["hand"])
        assert json.dumps(other, separators=(",", ":")) not in text and json.dumps(other) not in text
    upcoming = json.dumps(codes(game["deck"])[: game["deck_count"]][-5:], separators=(",", ":"))[1:-1]
    assert game["deck_count"] > 0 and upcoming not in text, (
        game["deck_count"],
        game["finished"],
        [p["hand"] for p in game["players"]],
    )
