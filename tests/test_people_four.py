"""Four people at one table, both sides in lines at a larger table, and a drop at ``Extension?`` (issues 37, 38).

Real users made for the test (``useradd``, as root; skipped with the
reason otherwise), each running mille on a pseudo-terminal of its own
(:class:`test_people.Player`).  At four seats four people (the host and
three guests, no computer) play a whole hand with scripted keys, every
board naming the people and sides from its own seat and showing the same
scores; the next hand starts, one guest's mille is killed at their move,
the host lets the computer play the seat, and the guest joins again and
has it back.  At three seats the host and a guest both play in lines.
At two seats the guest drops at their own ``Extension?`` (a saved game
loaded at that question), and while the host is asked hers.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator

from mille.engine.state import Game
from test_people import Player, _move, close_terminal, in_shell, people, readable_directory
from test_people import _asked as _asked_two
from test_people_tables import _asked, _deck, _prompt, _until

#: The lines of the side boxes that hold a side's scores (ui/tableboard.py's side_box).
SCORES = re.compile(r"Side [AB][^\n]*|Hand +-?\d+ Total +-?\d+ Games \d+")


def _scores(player: Player) -> list[str]:
    """The score lines of both side boxes (the left 40 columns: side A's box, then side B's), their heads first."""
    left = "\n".join(row[:40].rstrip() for row in player.screen.display[:17])
    return [
        line.split(": ")[0].replace(" (yours)", "") if line.startswith("Side") else line
        for line in SCORES.findall(left)
    ]


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
            _until(players, lambda: "Another hand?" in _prompt(host), deadline=120)
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

            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0, host.text()
            for guest in (guests[bob], guests[dave], back):
                assert guest.reap() == 0, guest.text()
                assert f"{alice} left the game" in guest.text()
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
            guest.send(f"pu{key}\r")  # his pick, and the play that reaches 700
            guest.wait_for("Extension?")
            host.wait_for(f"{bob} is thinking...")
            close_terminal(guest)
            host.wait_for(f"{bob} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            # The computer answered for his seat: the hand ended at 700, or goes on to 1000 and to alice.
            if _going_on(host) == "Another hand?":
                host.send("y")
                _going_on(host)
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            back.wait_for(f"{alice} is thinking...")
            host.wait_for(f"{bob} joined")
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
            host.wait_for(f"{bob} joined")
            assert "Waiting..." not in host.text() and "Extension?" not in host.text()
            _move(back)
            _asked_two(host)  # his move made: hers again, the game goes on
        finally:
            for p in players:
                p.kill()
