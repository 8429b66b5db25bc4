"""People at their own terminals, at every table (``mille --invite``, ``mille --players N --invite``, ``mille --join``;
docs/people.md), as real users on ptys: meeting and playing.

Real users made for the test (``useradd``, as root; skipped with the reason
otherwise), each running mille on a pseudo-terminal of its own
(:mod:`helpers.people`, which reads the original's board at two seats and the
larger tables' board at more).  A stranger who connects is refused before a
byte is read and the host told; each move shows on the other boards, whose
turn on every board; a guest killed at their move is stood in for by the
computer and takes the seat again; four people play whole hands and whole
games; at three seats the bytes a guest received hold its own hand and no
other seat's, nor the deck; and a guest joins over a real sshd on loopback.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.people import (
    SAFETIES,
    Player,
    connect_as,
    loopback_sshd,
    people,
    players,
    quickly,
    readable_directory,
    recording_relay,
    state_home,
    until,
)
from helpers.terminal import _children
from mille.engine import cards
from mille.ui.people.rendezvous import directory, table_path


def _agree(host: Player, guest: Player) -> None:
    """The two boards of two seats, drawn from one game, agree on everything public (each seat's side swapped)."""
    deadline = time.monotonic() + 10
    while host.screen.display[6][20:40] != guest.screen.display[6][20:40]:  # the deck's count, once both are drawn
        assert time.monotonic() < deadline, (host.text(), guest.text())
        host.pump(0.01)
        guest.pump(0.01)
    h, g = host.screen.display, guest.screen.display
    assert h[8][20:40] == g[8][20:40]  # the discard pile
    for row in (14, 16):  # battle and speed piles: mine on the left, the other's on the right
        assert h[row][:20].strip() == g[row][20:40].strip()
        assert h[row][20:40].strip() == g[row][:20].strip()
    for row in (1, 2, 3, 4, 6, 8, 9):  # the score window's figures: You and Comp swapped
        hy, hc = h[row][61:66].strip(), h[row][67:73].strip()
        gy, gc = g[row][61:66].strip(), g[row][67:73].strip()
        assert (hy, hc) == (gc, gy), (row, h[row], g[row])
    assert h[18:24] != [] and [r[:40].strip() for r in h[18:24]] == [r[40:].strip() for r in g[18:24]]


@pytest.mark.parametrize("seats", [2, 4])
def test_people_play_a_stranger_is_refused_and_a_dropped_guest_is_played_for_and_comes_back(seats: int) -> None:
    """bob invited (at 4 seats, alice's partner, seat 3; the computers at 2 and 4); eve connects to the table's door
    with a move instead of a knock and is refused, the host told; moves show on both boards; alice's ^C while bob
    thinks leaves his move his; bob killed at his prompt is played for by the computer, and joins again while alice
    thinks, told what he missed.  At two seats the boards agree on everything public, his terminal closed while she
    thinks is told at once, and her quit ends the game for both; at four seats the hand is played to its end."""
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (eve, e_uid, e_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--players", str(seats), "--invite", bob, "--no-stats"], seats=seats)
        started.append(host)
        host.wait_said(f"mille --join {alice}")
        sock_path = table_path(a_uid)
        assert os.stat(directory(a_uid)).st_mode & 0o777 == 0o711

        # Eve connects and writes a move, no knock: refused, nothing sent back, the host told.
        refused = connect_as(e_uid, e_gid, sock_path)
        assert refused == b"", refused
        host.wait_for(f"{eve} knocked and was turned away")  # (her move, no knock: what she wants never read)

        guest = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(guest)
        if seats == 4:
            # Each board from its own seat: bob is alice's partner (seat 3), the computers seats 2 and 4.
            host.wait_for(f"Side A (yours): you, {bob}")
            guest.wait_for(f"Side A (yours): {alice}, you")
            assert "Side B: seat 2, seat 4" in host.text() and "Side B: seat 2, seat 4" in guest.text()
        guest.wait_for(f"{alice} is thinking...")
        if seats == 4:
            assert "Turn: you (side A)" in host.text() and f"Turn: {alice} (side A)" in guest.text()
            assert f"you 6, {bob} 6" in host.text() and f"{alice} 6, you 6" in guest.text()

        # Turns go round (at 4 seats: alice, a computer, bob, a computer); bob's prompt is his, whose turn on hers.
        until([host], guest.asked)
        host.wait_for(f"{bob} is thinking...")
        if seats == 2:
            assert f"{alice} is thinking" not in guest.text()
            guest.move()
            host.wait_for("DISCARD")
            host.wait_asked()
            guest.wait_for(f"{alice} is thinking...")
            _agree(host, guest)
            host.move()
            guest.wait_asked()
        else:
            assert "Turn: you (side A)" in guest.text()

        # alice's ^C while bob thinks: Really? on her board; his move, made meanwhile, is his once she answers
        # (her prompt read his link too, took his move away, and the game hung).
        host.send("\x03")
        host.wait_for("Really?")
        before = guest.hand()
        guest.step()  # his pick
        host.pump(0.3)
        assert "Really?" in host.text(), host.text()  # taken once she answers
        if seats == 4:
            assert f"Turn: {bob}" in host.text()
        host.send("n")
        guest.until(lambda: guest.hand() != before)
        until([host, guest], host.asked, deadline=30)  # past bob
        until([host], guest.asked)

        # bob's mille killed at his prompt: alice is told and lets the computer play his seat.
        guest.kill()
        host.wait_for(f"{bob} is gone")
        host.wait_for("Wait/Comp/Adjourn?")
        if seats == 2:
            assert bob[:6] in host.screen.display[0][60:80], host.text()  # his name heads the Comp column
        host.send("c")
        if seats == 2:
            host.wait_asked()  # the computer played his seat
        else:
            until([host], host.asked)

        # bob joins again while alice thinks: his board at once, told what he missed, his seat at his next move.
        back = Player(b_uid, b_gid, ["--join", alice], seats=seats)
        started.append(back)
        back.wait_for(f"{alice} is thinking..." if seats == 2 else f"Side A (yours): {alice}, you")
        if seats == 2:
            back.wait_for("missed; M reads")  # the computer's moves for him: on the prompt line, nothing asked
        host.wait_for(f"{bob} joined")
        if seats == 2:
            # His terminal closed under him while alice thinks: she is told at once, without moving.
            back.kill()
            host.wait_for(f"{bob} is gone")
            again = Player(b_uid, b_gid, ["--join", alice])
            started.append(again)
            again.wait_for(f"{alice} is thinking...")
            host.move()
            again.wait_asked()
            host.wait_for(f"{bob} is thinking...")
            # The host quits: the guest is told and leaves.
            again.move()
            host.wait_asked()
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0
            assert again.reap() == 0 and f"{alice} left the game" in again.text()
        else:
            # The rest of the hand, to the end.
            until([host, back], lambda: "Another hand?" in host.prompt(), deadline=150)
            back.wait_for(f"{alice}: Another hand?")
            host.send("n")
            host.wait_for("Save game?")
            host.send("n")
            assert host.reap() == 0, host.text()
            assert back.reap() == 0, back.text()
            assert f"{alice} left the game" in back.text()
        assert not os.path.exists(sock_path)


SCORES = re.compile(r"Side [AB][^\n]*|Hand +-?\d+ Total +-?\d+ Games \d+")


def _scores(player: Player) -> list[str]:
    """The score lines of both side boxes (the left 40 columns: side A's box, then side B's), their heads first."""
    left = "\n".join(row[:40].rstrip() for row in player.screen.display[:17])
    return [
        line.split(": ")[0].replace(" (yours)", "") if line.startswith("Side") else line
        for line in SCORES.findall(left)
    ]


def _dealt(player: Player) -> bool:
    """A hand was just dealt on ``player``'s board: both sides' points for the hand are 0."""
    return [line.startswith("Hand     0 ") for line in _scores(player)].count(True) == 2


def _all_agree(players: list[Player], deadline: float = 10.0) -> list[str]:
    """Wait until every board shows the same scores for both sides; those scores."""
    end = time.monotonic() + deadline
    while len({tuple(_scores(p)) for p in players}) != 1:
        assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
        for p in players:
            p.pump(0.01)
    return _scores(players[0])


def test_four_people_play_a_whole_hand_and_a_dropped_guest_is_played_for_and_comes_back() -> None:
    """``mille --players 4 --invite bob,carol,dave``: bob the partner (seat 3), carol and dave seats 2 and 4."""
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)]:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", f"{bob},{carol},{dave}", "--no-stats"], seats=4)
        players = [host]
        try:
            host.wait_for(f"waiting for {dave} (seat 4)")
            assert f"waiting for {bob} (seat 3)" in host.text() and f"waiting for {carol} (seat 2)" in host.text()
            guests = {}
            for name, uid, gid in ((bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)):
                guests[name] = Player(uid, gid, ["--join", alice], seats=4)
                players.append(guests[name])
            # Every board names the people and the sides, each from its own seat.
            seen = {
                host: (f"Side A (yours): you, {bob}", f"Side B: {carol}, {dave}"),
                guests[bob]: (f"Side A (yours): {alice}, you", f"Side B: {carol}, {dave}"),
                guests[carol]: (f"Side A: {alice}, {bob}", f"Side B (yours): you, {dave}"),
                guests[dave]: (f"Side A: {alice}, {bob}", f"Side B (yours): {carol}, you"),
            }
            for player, (a, b) in seen.items():
                player.wait_for(a)
                player.wait_for(b)
            host.wait_for("Turn: you (side A)")
            for guest in guests.values():
                guest.wait_for(f"Turn: {alice} (side A)")
                guest.wait_for(f"{alice} is thinking...")
            assert f"you 6, {bob} 6" in host.text() and f"{carol} 6, {dave} 6" in host.text()
            assert f"{carol} 6, you 6" in guests[dave].text()

            # Turns go round alice, carol, bob, dave: each prompt on its own board, whose turn on every board.
            order = [host, guests[carol], guests[bob], guests[dave]]
            for i, player in enumerate(order[1:], 1):
                until(players, lambda player=player: player.asked())
                name = [carol, bob, dave][i - 1]
                side = "B" if name != bob else "A"
                for other in order:
                    if other is not player:
                        other.wait_for(f"Turn: {name} (side {side})")
                host.wait_for(f"{name} is thinking...")

            # The whole hand, to its end: the deck out, every hand emptied (a safety played when nothing else is left).
            quickly(players, _discard, lambda: "Another hand?" in host.prompt())
            for guest in guests.values():
                guest.wait_for(f"{alice}: Another hand?")
            scores = _all_agree(players)
            assert scores[0] == "Side A" and scores[2] == "Side B", scores
            assert host.deck() == 0

            # The next hand: dealt on every board.
            host.send("y")
            for player in players:
                player.wait_for("Miles    0 of 1000")
            end = time.monotonic() + 10
            while not all(p.deck() >= 81 for p in players):
                assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
                for p in players:
                    p.pump(0.01)

            # carol's mille killed at her move: alice is told and lets the computer play her seat.
            until(players, lambda: guests[carol].asked(), deadline=30)
            guests[carol].kill()
            host.wait_for(f"{carol} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            left = [host, guests[bob], guests[dave]]
            # The computer played her move: the turn came round to bob's, then alice's.
            until(left, lambda: host.asked(), deadline=30)
            # She joins again while alice thinks: her board at once, her seat hers at her next turn.
            back = Player(c_uid, c_gid, ["--join", alice], seats=4)
            players.append(back)
            back.wait_for(f"Side B (yours): you, {dave}")
            host.wait_for(f"{carol} joined")
            until([*left, back], lambda: back.asked(), deadline=30)
            host.wait_for(f"{carol} is thinking...")
            until([*left, back], lambda: host.asked(), deadline=30)

            # dave's mille killed at his move: alice waits for him; he joins again, his move at once.
            until([host, guests[bob], back], lambda: guests[dave].asked(), deadline=30)
            guests[dave].kill()
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("w")
            host.wait_for("Waiting...")
            again = Player(d_uid, d_gid, ["--join", alice], seats=4)
            players.append(again)
            host.wait_for(f"{dave} joined, thinking...")  # whose turn it is, on her board
            again.wait_for(">>:Move:")  # his seat, his move
            assert "Waiting..." not in host.text()
            until([host, guests[bob], back, again], lambda: host.asked(), deadline=30)

            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0, host.text()
            for guest in (guests[bob], back, again):
                assert guest.reap() == 0, guest.text()
                assert f"{alice} left the game" in guest.text()
        finally:
            for p in players:
                p.kill()


MILES = {"25": 25, "50": 50, "75": 75, "100": 100, "200": 200}


def _race(player: Player) -> bool:
    """One scripted step of a person racing for 1000 miles (nobody plays a hazard): pick; Go when stopped; the
    longest mileage card that fits the trip (two 200s a side); else a discard, a safety when nothing else is left.

    What is legal is read off the board: the side's box says whether it can go, its miles and its 200s.
    False if nothing was asked of ``player``.
    """
    player.read()
    if player.prompt() != ">>:Move:" or "Turn: you " not in player.text():
        return player.prompt() in ("Coup fourre?", "Extension?") and player.step()  # (never asked: nobody attacks)
    hand = player.hand()
    if hand.get("P") == "-" and player.deck() > 0:
        _keys(player, "p", hand)
        return True
    rows = [row[:40] for row in player.screen.display[:17]]
    box = next(i for i, row in enumerate(rows) if row.startswith("Side ") and "(yours)" in row)
    miles = re.search(r"Miles +(\d+) of (\d+) +(can go|stopped)", rows[box + 1])
    played = re.search(r"Played: (.*)", "".join(rows[box + 4 : box + 6]))
    assert miles and played, player.text()
    mileage, trip, going = int(miles.group(1)), int(miles.group(2)), miles.group(3) == "can go"
    twos = re.search(r"\b200(?:x(\d))?\b", played.group(1))
    two_hundreds = 0 if twos is None else int(twos.group(1) or 1)
    cards = {slot: name for slot, name in hand.items() if name != "-"}
    go = [slot for slot, name in cards.items() if name == "Go"]
    fits = [
        (MILES[name], slot)
        for slot, name in cards.items()
        if name in MILES and mileage + MILES[name] <= trip and (name != "200" or two_hundreds < 2)
    ]
    if not going and go:
        _keys(player, f"u{go[0]}\r", hand)
    elif going and fits:
        _keys(player, f"u{max(fits)[1]}\r", hand)
    else:
        return _discard(player)
    return True


def _discard(player: Player) -> bool:
    """One scripted step, as :meth:`helpers.people.Player.step` (pick, then discard, a safety if that is all; no to
    the questions) reading the terminal as its news comes.  False if nothing was asked of ``player``."""
    player.read()
    if player.prompt() in ("Coup fourre?", "Extension?"):
        return player.step()
    if player.prompt() != ">>:Move:" or "Turn: you " not in player.text():
        return False
    hand = player.hand()
    if hand.get("P") == "-" and player.deck() > 0:
        _keys(player, "p", hand)
        return True
    cards = {slot: name for slot, name in hand.items() if name != "-"}
    discards = [slot for slot, name in cards.items() if name not in SAFETIES]
    _keys(player, f"d{discards[0]}\r" if discards else f"u{next(iter(cards))}\r", hand)
    return True


def _keys(player: Player, keys: str, hand: dict[str, str]) -> None:
    """Type ``keys`` at the move prompt; back once they are taken (the hand changed), reading as the news comes."""
    player.send(keys)
    end = time.monotonic() + 10
    while player.hand() == hand:
        assert time.monotonic() < end, player.text()
        select.select([player.fd], [], [], 0.05)
        player.read()


def _to_the_games_end(
    players: list[Player], alice: str, step: Callable[[Player], bool], each_hand: Callable[[], bool]
) -> None:
    """Every hand played with ``step`` to the game's end: each hand's end asked of the host (``players[0]``, ``alice``)
    and told to the others, the totals the same on every board (``each_hand()`` true too), the game not over before
    5000; at the last ``Another game?``, no ends it for everyone."""
    host = players[0]
    hands, end = 0, time.monotonic() + 120
    while True:
        quickly(players, step, lambda: host.prompt() in ("Another hand?", "Another game?"))
        hands += 1
        asked = host.prompt()
        for guest in players[1:]:
            guest.wait_for(f"{alice}: {asked}")
        totals = [int(t) for t in re.findall(r"Total +(-?\d+)", "\n".join(_all_agree(players)))]
        assert each_hand(), host.text()
        assert time.monotonic() < end and hands < 10, (hands, totals)
        if asked == "Another game?":
            break
        assert max(totals) < 5000, totals
        host.send("y")
        until(players, lambda: host.prompt() != "Another hand?" and _dealt(host))
    assert hands >= 2 and max(totals) >= 5000, (hands, totals)
    host.send("n")
    host.wait_for("Save game?")
    host.send("n")
    assert host.reap() == 0, host.text()
    for guest in players[1:]:
        assert guest.reap() == 0 and f"{alice} left the game" in guest.text()


def test_four_people_race_a_whole_game_to_5000() -> None:
    """Four people, two partnerships, every move typed on their own boards, hand after hand to the game's end.

    Each plays Go and the longest mileage card that fits (nobody attacks),
    so each hand ends with a trip made (or, on a deal that leaves no side
    the cards that fit, the deck run out); the scores agree on every board
    after each hand, every hand's end is asked of alice and told to the
    others, and at 5000 the last ``Another game?`` is hers.
    """
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)]:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", f"{bob},{carol},{dave}", "--no-stats"], seats=4)
        players = [host]
        try:
            host.wait_for(f"waiting for {dave}")
            for uid, gid in ((b_uid, b_gid), (c_uid, c_gid), (d_uid, d_gid)):
                players.append(Player(uid, gid, ["--join", alice], seats=4))
            for guest in players[1:]:
                guest.wait_for(f"Turn: {alice} (side A)")
            # Each hand ends with a trip made (a race), or with the deck run out where the deal left every side
            # short of the cards that fit (the deal is one nobody can choose: both sides stuck at 975, no 25 left).
            _to_the_games_end(
                players,
                alice,
                _race,
                lambda: "Miles 1000 of 1000" in host.text() or re.search(r"Deck +0 cards", host.text()) is not None,
            )
        finally:
            for p in players:
                p.kill()


def test_two_partners_play_a_whole_game_to_5000_against_two_computers_on_their_boards() -> None:
    """``mille --players 4 --invite bob``: alice and bob, partners, play every hand to the game's end at 5000.

    The people only discard (a safety when nothing else is left), so the
    computers' side wins, in a few hands: every hand's end asked of alice
    and told to bob, the totals the same on both boards after each, and
    the last ``Another game?`` hers; no ends it for both.
    """
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"], seats=4)
        players = [host]
        try:
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice], seats=4)
            players.append(guest)
            guest.wait_for(f"Side A (yours): {alice}, you")
            _to_the_games_end(players, alice, _discard, lambda: True)
        finally:
            for p in players:
                p.kill()


def _messages(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def test_three_seats_two_guests_move_and_a_guest_receives_only_its_own_seats_view() -> None:
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid)], readable_directory() as dir_:
        place = dir_
        record, relay = recording_relay(place, c_uid, c_gid)
        state = state_home(place, a_uid, a_gid)
        argv = ["--players", "3", "--invite", f"{carol}:3,{bob}", "--no-stats"]
        host = Player(a_uid, a_gid, argv, env={"XDG_STATE_HOME": state}, seats=3)
        players = [host]
        try:
            host.wait_for(f"waiting for {bob}")
            first = Player(b_uid, b_gid, ["--join", alice], seats=3)
            players.append(first)
            second = Player(c_uid, c_gid, ["--join", f"{alice}@here"], env=relay, seats=3)
            players.append(second)
            host.wait_for(f"Side B: {bob}")
            first.wait_for("Side B (yours): you")
            second.wait_for("Side C (yours): you")
            assert f"Side C: {carol}" in host.text() and f"Side A: {alice}" in second.text()

            # The first moves: alice, then bob, then carol, each at their own prompt; whose turn on every board.
            host.step()
            until([host], lambda: host.asked() and host.hand().get("P") != "-")
            host.step()
            first.wait_for(">>:Move:")
            second.wait_for(f"{bob} is thinking...")
            host.wait_for(f"{bob} is thinking...")
            until([first], lambda: second.asked())
            assert "Turn: you (side C)" in second.text()
            host.wait_for(f"Turn: {carol} (side C)")
            first.wait_for(f"{carol} is thinking...")
            until([second], lambda: host.asked())
            host.wait_for("Turn: you (side A)")

            # alice's terminal hangs up at her prompt: her game is kept (the true game at this moment, to compare
            # with what carol received), and both guests are told and leave.
            os.kill(host.pid, signal.SIGHUP)
            assert host.reap() == 1
            for guest in (first, second):
                assert guest.reap() == 0
                assert f"{alice} left the game" in guest.text()
            [name] = os.listdir(os.path.join(state, "mille"))
            kept = os.path.join(state, "mille", name)
            with open(kept) as f:
                game = json.load(f)
            # The line after the hangup says what resumes it, every person in their seat; and it does.
            people_again = f"{bob}:2,{carol}:3"
            assert f"mille --invite {people_again}" in "".join(host.screen.display), host.text()
            again = Player(
                a_uid, a_gid, ["--invite", people_again, "--no-stats", kept], env={"XDG_STATE_HOME": state}, seats=3
            )
            players.append(again)
            again.wait_for(f"waiting for {bob}")
            for uid, gid in ((b_uid, b_gid), (c_uid, c_gid)):
                players.append(Player(uid, gid, ["--join", alice], seats=3))
            back = players[-1]
            back.wait_for("Side C (yours): you")
            back.wait_for(f"{alice} is thinking...")
            assert back.hand() == {
                "P" if i == 0 else str(i): card or "-" for i, card in enumerate(game["players"][2]["hand"])
            }
            again.wait_for(">>:Move:")
            again.send("q")
            again.wait_for("Really?")
            again.send("y")
            assert again.reap() == 0
            assert back.reap() == 0 and players[-2].reap() == 0
            with open(record, "rb") as raw:
                received = raw.read()
        finally:
            for p in players:
                p.kill()
    assert game["version"] == 3 and game["table"]["seats"] == 3
    messages = _messages(received)
    views = [m for m in messages if m.get("type") in ("view", "decide")]
    assert views and messages[0]["type"] == "hello" and messages[0]["seat"] == 2
    for m in views:
        obs = m["obs"]
        assert isinstance(obs, dict) and obs["seat"] == 2
        assert "deck" not in obs and all("hand" not in side for side in obs["sides"])
    # The last view is the game as saved, from carol's seat: her own hand, and the public table.
    last = views[-1]["obs"]
    assert isinstance(last, dict)

    def codes(names: list[str | None]) -> list[int]:
        return [cards.EMPTY if n is None else cards.NAMES.index(n) for n in names]

    assert last["hand"] == codes(game["players"][2]["hand"])
    assert last["deck_count"] == game["deck_count"]
    # No other seat's hand, nor the deck's next cards, in anything carol's process was handed.
    text = received.decode()
    for seat in (0, 1):
        other = codes(game["players"][seat]["hand"])
        assert json.dumps(other, separators=(",", ":")) not in text
        assert json.dumps(other) not in text
    deck = codes(game["deck"])[: game["deck_count"]]
    upcoming = json.dumps(deck[-5:], separators=(",", ":"))[1:-1]
    assert upcoming not in text


def test_a_guest_joins_over_a_real_sshd_on_loopback() -> None:
    """``mille --join alice@127.0.0.1`` through ssh (a real sshd, a throwaway host key and user key); the far side's
    mille found as this program (``python3 -m mille``) where bsdgames' ``mille`` is on the PATH first."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, \
            loopback_sshd(place, bob, b_uid, b_gid, found=True) as env:  # fmt: skip
        host = guest = None
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", f"{alice}@127.0.0.1"], env=env)
            try:
                host.wait_asked(deadline=20)
            except AssertionError:
                guest.pump(0.5)
                raise AssertionError(guest.text()) from None
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            host.move()
            guest.asked()
            guest.move()
            host.wait_for("DISCARD")
            # ssh killed under the guest: the host is told, the computer plays the seat.
            host.asked()
            host.move()
            for child in _children(guest.pid):  # the guest's own ssh, by its process id
                os.kill(child, signal.SIGKILL)
            host.wait_for(f"{bob} is gone", deadline=20)
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            host.asked()  # the computer played his seat
            # Bob, whose link broke under him, is told too, and chooses to wait: ssh again, his seat back.
            guest.wait_for(f"{alice} is gone")
            guest.wait_for("Wait/Leave?")
            guest.send("w")
            host.wait_for(f"{bob} joined", deadline=20)
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            host.move()
            guest.wait_asked(deadline=20)
        finally:
            if guest is not None and guest.status is None:
                for child in _children(guest.pid):
                    os.kill(child, signal.SIGKILL)
            for p in (host, guest):
                if p is not None:
                    p.kill()


def test_who_is_run_by_its_full_path_never_from_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43: ``who`` from ``PATH`` runs whatever comes first on it; the system's is named by its full path."""
    from mille.ui.people import rendezvous

    ran = tmp_path / "ran"
    fake = tmp_path / "who"
    fake.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(ran))}\necho 'bob pts/99 2026-01-01 00:00'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    lines = rendezvous._who_lines("bob")
    assert not ran.exists() and "pts/99" not in lines
    assert rendezvous._system_program(rendezvous.WHO) in (None, *rendezvous.WHO)
