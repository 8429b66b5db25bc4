"""Four people at one table, both sides in lines at a larger table, and a drop at ``Extension?`` (issues 37, 38).

Real users made for the test (``useradd``, as root; skipped with the
reason otherwise), each running mille on a pseudo-terminal of its own
(:class:`test_people.Player`), their moves scripted (a pick, then a
discard: always legal).

* Four seats, four people and no computer: every board names the people
  and the sides from its own seat, a whole hand is played to its end and
  the scores are the same on every board; the next hand is dealt; one
  guest's mille killed at their move is played for by the computer until
  they join again, another is waited for and has their move back.
* Four seats, four people racing (Go and the longest mileage card that
  fits, read off their boards): a whole partnership game to 5000, hand
  after hand, the scores the same on every board.
* Four seats, two partners against two computers: a whole game to 5000
  (the people only discard, so the computers win it in a few hands).
* Three seats, the host and the guest both in lines: a hand and into the
  next, every line naming the people with seat and side, "is thinking"
  said once a turn, and the bytes the guest's process received holding
  only its own seat's view.
* Two seats, ``Extension?``: the guest's terminal closed under his shell
  at his own question (the host lets the computer answer it), and the
  guest killed while the host is asked hers (she is told at once).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import shutil
import signal
import time
from collections.abc import Callable, Iterator

import pytest

from mille.engine.state import Game
from test_people import (
    SRC,
    Player,
    _move,
    _readable_by,
    _state_home,
    close_terminal,
    in_shell,
    people,
    readable_directory,
)
from test_people import _asked as _asked_two
from test_people_tables import RECORDER, SAFETIES, _asked, _deck, _hand, _prompt, _turn, _until

#: The lines of the side boxes that hold a side's scores (ui/tableboard.py's side_box).
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
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", f"{bob},{carol},{dave}", "--no-stats"])
        players = [host]
        try:
            host.wait_for(f"waiting for {dave} (seat 4)")
            assert f"waiting for {bob} (seat 3)" in host.text() and f"waiting for {carol} (seat 2)" in host.text()
            guests = {}
            for name, uid, gid in ((bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)):
                guests[name] = Player(uid, gid, ["--join", alice])
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
                _until(players, lambda player=player: _asked(player))
                name = [carol, bob, dave][i - 1]
                side = "B" if name != bob else "A"
                for other in order:
                    if other is not player:
                        other.wait_for(f"Turn: {name} (side {side})")
                host.wait_for(f"{name} is thinking...")

            # The whole hand, to its end: the deck out, every hand emptied (a safety played when nothing else is left).
            _quickly(players, _discard, lambda: "Another hand?" in _prompt(host))
            for guest in guests.values():
                guest.wait_for(f"{alice}: Another hand?")
            scores = _all_agree(players)
            assert scores[0] == "Side A" and scores[2] == "Side B", scores
            assert _deck(host) == 0

            # The next hand: dealt on every board.
            host.send("y")
            for player in players:
                player.wait_for("Miles    0 of 1000")
            end = time.monotonic() + 10
            while not all(_deck(p) >= 81 for p in players):
                assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
                for p in players:
                    p.pump(0.01)

            # carol's mille killed at her move: alice is told and lets the computer play her seat.
            _until(players, lambda: _asked(guests[carol]), deadline=30)
            guests[carol].kill()
            host.wait_for(f"{carol} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            left = [host, guests[bob], guests[dave]]
            # The computer played her move: the turn came round to bob's, then alice's.
            _until(left, lambda: _asked(host), deadline=30)
            # She joins again while alice thinks: her board at once, her seat hers at her next turn.
            back = Player(c_uid, c_gid, ["--join", alice])
            players.append(back)
            back.wait_for(f"Side B (yours): you, {dave}")
            host.wait_for(f"{carol} joined")
            _until([*left, back], lambda: _asked(back), deadline=30)
            host.wait_for(f"{carol} is thinking...")
            _until([*left, back], lambda: _asked(host), deadline=30)

            # dave's mille killed at his move: alice waits for him; he joins again, his move at once.
            _until([host, guests[bob], back], lambda: _asked(guests[dave]), deadline=30)
            guests[dave].kill()
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("w")
            host.wait_for("Waiting...")
            again = Player(d_uid, d_gid, ["--join", alice])
            players.append(again)
            host.wait_for(f"{dave} joined; {dave} is thinking...")  # whose turn it is, on her board
            again.wait_for(">>:Move:")  # his seat, his move
            assert "Waiting..." not in host.text()
            _until([host, guests[bob], back, again], lambda: _asked(host), deadline=30)

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


#: What a mileage card is worth, by its name on the board.
MILES = {"25": 25, "50": 50, "75": 75, "100": 100, "200": 200}


def _race(player: Player) -> bool:
    """One scripted step of a person racing for 1000 miles (nobody plays a hazard): pick; Go when stopped; the
    longest mileage card that fits the trip (two 200s a side); else a discard, a safety when nothing else is left.

    What is legal is read off the board: the side's box says whether it can go, its miles and its 200s.
    False if nothing was asked of ``player``.
    """
    _read(player)
    if _prompt(player) != ">>:Move:" or "Turn: you " not in player.text():
        return _prompt(player) in ("Coup fourre?", "Extension?") and _turn(player)  # (never asked: nobody attacks)
    hand = _hand(player)
    if hand.get("P") == "-" and _deck(player) > 0:
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
    """One scripted step, as :func:`test_people_tables._turn` (pick, then discard, a safety if that is all; no to
    the questions) reading the terminal as its news comes.  False if nothing was asked of ``player``."""
    _read(player)
    if _prompt(player) in ("Coup fourre?", "Extension?"):
        return _turn(player)
    if _prompt(player) != ">>:Move:" or "Turn: you " not in player.text():
        return False
    hand = _hand(player)
    if hand.get("P") == "-" and _deck(player) > 0:
        _keys(player, "p", hand)
        return True
    cards = {slot: name for slot, name in hand.items() if name != "-"}
    discards = [slot for slot, name in cards.items() if name not in SAFETIES]
    _keys(player, f"d{discards[0]}\r" if discards else f"u{next(iter(cards))}\r", hand)
    return True


def _read(player: Player) -> None:
    """What ``player``'s terminal has said so far, without waiting for more (:meth:`Player.pump` waits a little)."""
    while player.fd >= 0 and select.select([player.fd], [], [], 0)[0]:
        try:
            data = os.read(player.fd, 65536)
        except OSError:
            return
        if not data:
            return
        player.stream.feed(data)


def _keys(player: Player, keys: str, hand: dict[str, str]) -> None:
    """Type ``keys`` at the move prompt; back once they are taken (the hand changed), reading as the news comes."""
    player.send(keys)
    end = time.monotonic() + 10
    while _hand(player) == hand:
        assert time.monotonic() < end, player.text()
        select.select([player.fd], [], [], 0.05)
        _read(player)


def _quickly(players: list[Player], step: Callable[[Player], bool], done: Callable[[], bool]) -> None:
    """Play ``step`` for each player whose terminal has news, until ``done()`` (what :func:`_until` does, without
    its turn of waits round every terminal: a move's news is acted on at once)."""
    end = time.monotonic() + 60
    by_fd = {p.fd: p for p in players}
    acting = list(players)  # those who may have something to do without news: all at first, then who just acted
    while not done():
        assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
        ready = select.select(list(by_fd), [], [], 0 if acting else 0.2)[0]
        news = [by_fd[fd] for fd in ready]
        acting = [p for p in players if (p in news or p in acting) and step(p)]


def _to_the_games_end(
    players: list[Player], alice: str, step: Callable[[Player], bool], each_hand: Callable[[], bool]
) -> None:
    """Every hand played with ``step`` to the game's end: each hand's end asked of the host (``players[0]``, ``alice``)
    and told to the others, the totals the same on every board (``each_hand()`` true too), the game not over before
    5000; at the last ``Another game?``, no ends it for everyone."""
    host = players[0]
    hands, end = 0, time.monotonic() + 120
    while True:
        _quickly(players, step, lambda: _prompt(host) in ("Another hand?", "Another game?"))
        hands += 1
        asked = _prompt(host)
        for guest in players[1:]:
            guest.wait_for(f"{alice}: {asked}")
        totals = [int(t) for t in re.findall(r"Total +(-?\d+)", "\n".join(_all_agree(players)))]
        assert each_hand(), host.text()
        assert time.monotonic() < end and hands < 10, (hands, totals)
        if asked == "Another game?":
            break
        assert max(totals) < 5000, totals
        host.send("y")
        _until(players, lambda: _prompt(host) != "Another hand?" and _dealt(host))
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
    so each hand ends with a trip made; the scores agree on every board
    after each hand, every hand's end is asked of alice and told to the
    others, and at 5000 the last ``Another game?`` is hers.
    """
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)]:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", f"{bob},{carol},{dave}", "--no-stats"])
        players = [host]
        try:
            host.wait_for(f"waiting for {dave}")
            for uid, gid in ((b_uid, b_gid), (c_uid, c_gid), (d_uid, d_gid)):
                players.append(Player(uid, gid, ["--join", alice]))
            for guest in players[1:]:
                guest.wait_for(f"Turn: {alice} (side A)")
            # Each hand ends with a trip made: a race, not a deck run out.
            _to_the_games_end(players, alice, _race, lambda: "Miles 1000 of 1000" in host.text())
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
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
        players = [host]
        try:
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_for(f"Side A (yours): {alice}, you")
            _to_the_games_end(players, alice, _discard, lambda: True)
        finally:
            for p in players:
                p.kill()


def _partner_asked_coup_fourre() -> Game:
    """A hand at four seats of the original's computers, stopped where seat 3 (alice's partner) is asked, out
    of turn, for the coup fourré (R10: seat 4 attacked side A, and seat 3, not seat 1 who plays next, holds the
    safety)."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import Phase
    from mille.engine.state import table
    from mille.players.bsd import BsdPlayer

    for seed in range(1, 400):
        game = Game(table=table(4), rng=GlibcRandom(seed))
        rules.start_hand(game)
        players, dice = [BsdPlayer() for _ in range(4)], [GlibcRandom(seed * 7 + s) for s in range(4)]
        while (phase := rules.phase(game)) is not Phase.HAND_OVER:
            seat = game.to_move
            if phase is Phase.REACTION and seat == 2:
                return game
            move = rules.PASS if phase is Phase.EMPTY_HAND else players[seat].choose(observe(game, seat), dice[seat])
            rules.push(game, move)
    raise AssertionError("no deal asks seat 3 for a coup fourré")


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
        write_game(kept, SavedGame(_partner_asked_coup_fourre(), 0, "bsd"))
        os.chown(kept, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", f"{bob}:3", "--no-stats", kept])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_for("Coup fourre?")
            assert "Turn: you (side A) (coup fourre?)" in guest.text()
            host.wait_for(f"Side A (yours): you, {bob}")
            guest.kill()
            # Not asked of alice there: her question would tell that he holds the safety.  The computer answers
            # his question, and she chooses at his own move (the coup fourré made, his turn at once).
            _until([host], lambda: "Wait/Comp/Adjourn?" in _prompt(host), deadline=30)
            assert f"Turn: {bob} (side A)" in host.text()
            assert f"{bob} is gone" in host.text()
            host.send("c")
            _until([host], lambda: _asked(host), deadline=30)
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0, host.text()
        finally:
            for p in players:
                p.kill()


# ----------------------------------------------------------------------
# A drop at Extension? at two seats


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
            _asked_two(guest)
            guest.send(f"pu{key}\r")  # his pick, and the play that reaches 700 (a slot is ended by RETURN)
            guest.wait_for("Extension?")
            host.wait_for(f"{bob} is thinking...")
            close_terminal(guest)
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
            _asked_two(back)  # his seat, his move
            host.wait_for(f"{bob} joined, thinking...")  # and whose turn it is, on her board
            assert "Waiting..." not in host.text() and "Extension?" not in host.text()
            _move(back)
            _asked_two(host)  # his move made: hers again, the game goes on
        finally:
            for p in players:
                p.kill()


# ----------------------------------------------------------------------
# Both sides in lines at a larger table


class Lines(Player):
    """A player in lines (``--plain``) on a pty: everything it was told kept, its prompts answered in turn.

    A prompt is the last line the program writes before it reads
    (tests/plain_helpers.py), so the last line heard being a prompt is the
    program waiting for it; :attr:`heard` counts the lines already acted on.
    """

    def __init__(self, uid: int, gid: int, argv: list[str], env: dict[str, str] | None = None) -> None:
        """As :class:`test_people.Player`, on a terminal so wide that every line is said whole (never in rows)."""
        super().__init__(uid, gid, argv, env, columns=4000)
        self.heard = 0
        self.state = "turn"

    def lines(self) -> list[str]:
        """Every line said (and typed: the terminal echoes), blank ones left out."""
        said = self.raw.decode(errors="replace").replace("\r", "").split("\n")
        return [line.strip() for line in said if line.strip()]

    def said(self, wanted: str, deadline: float = 10.0) -> None:
        end = time.monotonic() + deadline
        while not any(wanted in line for line in self.lines()):
            assert time.monotonic() < end, f"{wanted!r} never said:\n{self.raw.decode(errors='replace')}"
            self.pump(0.02)

    def asked(self) -> str | None:
        """The prompt waiting for an answer (the last line, not yet answered), if any."""
        self.pump(0.01)
        lines = self.lines()
        if len(lines) <= self.heard or lines[-1] not in ("Your move:", "Coup fourre?", "Extension?", "Another hand?"):
            return None
        return lines[-1]

    def answer(self, line: str) -> None:
        self.heard = len(self.lines())
        self.send(line + "\r")

    def step(self) -> bool:
        """One scripted answer in lines: at a turn pick, say the hand, discard (a safety played if that is all); no
        to the questions.  False if nothing is asked (or only ``Another hand?``, the host's to answer)."""
        asked = self.asked()
        if asked in (None, "Another hand?"):
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


def _tails(*players: Lines) -> str:
    """The last lines each player heard (for a failure's message)."""
    return "\n----\n".join("\n".join(p.lines()[-40:]) for p in players)


def test_both_sides_in_lines_at_three_seats_play_a_hand_and_into_the_next_and_the_guest_hears_only_its_seat() -> None:
    """``mille --plain --players 3 --invite bob`` and ``mille --plain --join alice``, a computer at seat 3.

    Every line names the people with their seats and sides (the host's
    numbering on both sides, as on every board: docs/people.md); the bytes the guest's
    process received (recorded on their way in) hold his hand and no other
    seat's, nor the deck, nor a card another seat picked, compared with the
    host's game kept when her terminal hangs up.
    """
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")  # the test's own may be root's alone
    if python is None:
        pytest.skip("no system python3 for the recording relay")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        if not _readable_by(b_uid, b_gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
            pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
        record, recorder = os.path.join(place, "received"), os.path.join(place, "ssh")
        with open(recorder, "w") as f:
            f.write(RECORDER.format(record=record))
        os.chmod(recorder, 0o755)
        with open(record, "wb"):
            pass
        os.chown(record, b_uid, b_gid)
        state = _state_home(place, a_uid, a_gid)
        players: list[Player] = []
        try:
            argv = ["--plain", "--players", "3", "--invite", bob, "--no-stats"]
            host = Lines(a_uid, a_gid, argv, env={"XDG_STATE_HOME": state})
            players.append(host)
            host.said(f"waiting for {bob}")
            relay = {"MILLE_SSH": recorder, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}
            guest = Lines(b_uid, b_gid, ["--plain", "--join", f"{alice}@here"], env=relay)
            players.append(guest)
            host.said("Mille Bornes at 3 seats, each for themselves, in lines")
            guest.said("Mille Bornes at 3 seats, each for themselves, in lines: you are seat 2, on side B")
            # Turns in lines on both sides to the end of the hand (the deck out, or the trip made).
            end = time.monotonic() + 60
            while host.asked() != "Another hand?":
                assert time.monotonic() < end, _tails(host, guest)
                for p in (host, guest):
                    p.step()
            guest.said(f"{alice}: Another hand?")
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
            while turns < 6 or host.asked() != "Your move:" or host.state != "turn":
                assert time.monotonic() < end, _tails(host, guest)
                turns += guest.step()
                if turns < 6 or host.state != "turn":
                    turns += host.step()
            assert sum(line.startswith("New hand") for line in guest.lines()) == 2, _tails(guest)
            # alice's terminal hangs up at her prompt: her game kept (the true game, to compare), bob told.
            os.kill(host.pid, signal.SIGHUP)
            assert host.reap() == 1
            assert guest.reap() == 0
            guest.said(f"{alice} left the game")
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
