"""The room around the table (issue 45) with real users on real terminals: find a game, take an open seat, watch, talk,
come back to what you missed, another game with the same table; and the new doors attacked.

Real users made for the test (``useradd``, as root; skipped otherwise),
each running mille on a pty of its own (:mod:`helpers.people`); a raw
client, as another user, where a peer that is no mille's is the attack;
a real sshd on loopback for ``--list @host`` and ``--watch alice@host``.
Every wait is for what the test checks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
from collections.abc import Callable

from helpers.faults import child_as, child_read
from helpers.people import (
    Lines,
    Player,
    connect_in_child,
    impostor,
    impostor_heard,
    kept_for,
    loopback_sshd,
    people,
    players,
    quickly,
    readable_directory,
    until,
)
from mille.engine import rules
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.ui.people.rendezvous import directory, table_path


def _listed(uid: int, gid: int, *more: str, env: dict[str, str] | None = None) -> str:
    """What ``mille --list`` says to ``uid`` (its exit status 0)."""
    lister = Lines(uid, gid, ["--list", *more], env=env)
    assert lister.reap(deadline=30) == 0, lister.raw
    return lister.raw.decode("utf-8", "replace").replace("\r", "")


def test_two_strangers_find_a_game_sit_down_watch_talk_and_come_back() -> None:
    """Two seats: alice leaves her table open; bob, who arranged nothing, finds it with ``mille --list`` and takes the
    seat; carol watches in lines and talks; bob talks; a stranger cannot take the seat; bob's mille killed, the
    computer stands in, and bob back is told what he missed (``M`` reads it); alice's quit ends it for all."""
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)], \
            players() as started:  # fmt: skip
        host = Player(a_uid, a_gid, ["--open", "--no-stats"])
        started.append(host)
        host.wait_said("seat 2 is open to anyone here")

        listed = _listed(b_uid, b_gid)
        assert f"{alice}'s game: 2 seats, waiting to start" in listed, listed
        assert "Seat 1: " in listed and "Seat 2: open." in listed
        assert f"To join: mille --join {alice}" in listed and f"To watch: mille --watch {alice}" in listed

        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()  # bob took the seat: the game began
        assert bob[:6] in host.screen.display[0][60:80], host.text()  # his name heads the Comp column

        watcher = Lines(c_uid, c_gid, ["--plain", "--watch", alice])
        started.append(watcher)
        watcher.said_line(f"You are watching {alice}'s game at 2 seats")
        watcher.said_line("Cards in hand: ")
        host.wait_for(f"{carol} is watching")
        guest.wait_for(f"{carol} is watching")

        watcher.answer("say hello both")
        guest.wait_for(f"{carol} (watching): hello both")
        host.wait_for(f"{carol} (watching): hello both")
        host.move()
        watcher.said_line(f"{alice} discards ")
        guest.wait_asked()
        guest.send("t")
        guest.wait_for("Say:")
        guest.send("good luck\r")
        watcher.said_line(f"{bob} says: good luck")
        host.wait_for(f"{bob}: good luck")
        guest.wait_asked()

        # A stranger cannot take bob's seat (nor any: none is open).
        stranger = Lines(d_uid, d_gid, ["--plain", "--join", alice])
        assert stranger.reap() == 1
        assert f"no seat at {alice}'s table is kept for you, and none is open" in stranger.raw.decode()
        host.wait_for(f"{dave} tried to join")

        # bob's mille killed at his move: alice lets the computer play his seat; bob back is told what he missed.
        guest.kill()
        host.wait_for("Wait/Comp/Adjourn?")
        host.send("c")
        host.wait_asked()
        watcher.said_line(f"{bob} is gone")
        back = Player(b_uid, b_gid, ["--join", alice])
        started.append(back)
        back.wait_for("missed; M reads")
        back.wait_for(f"{alice} is thinking...")
        back.send("m")
        back.wait_for("The table, the newest last:")
        assert f"{carol} (watching): hello both" in back.text(), back.text()
        assert re.search(rf"{bob} (plays|discards) ", back.text()), back.text()  # the computer's move for him
        back.send(" ")
        back.wait_for("--HAND--")  # the board again
        assert "The table, the newest last" not in back.text()

        host.send("q")
        host.wait_for("Really?")
        host.send("y")
        assert host.reap() == 0
        assert back.reap() == 0 and f"{alice} left the game" in back.text()
        watcher.said_line(f"{alice}'s game is over")
        assert watcher.reap() == 0
        said = watcher.raw.decode()
        assert "Your hand" not in said and "hand:" not in said.lower().replace("cards in hand:", "")


def _near_the_end(seats: int) -> Game:
    """A game in a hand's last moves (a few cards left in the deck, seat 1 to move, nothing picked), each side at 4975:
    the hand's end ends the game."""
    from mille.engine.driver import play_hand
    from mille.players.bsd import BsdPlayer

    class Found(Exception):
        pass

    class Stop:
        def before_move(self, game: Game) -> None:
            if game.deck_count < 12 and game.to_move == 0 and rules.draw_refusal(game, 0) is None:
                raise Found(game.copy())

        def after_move(self, *args: object) -> None:
            pass

    for seed in range(1, 50):
        game = Game(rng=GlibcRandom(seed), table=table(seats))
        rules.start_hand(game)
        try:
            dice = [GlibcRandom(s) for s in range(seats)]
            play_hand(game, [BsdPlayer() for _ in range(seats)], dice, observer=Stop())
        except Found as found:
            near: Game = found.args[0]
            for side in range(near.table.sides):
                near.players[side].total = 4975
            return near
    raise AssertionError("no hand reached its last cards with seat 1 to move")


def test_four_seats_in_lines_a_stranger_takes_the_open_seat_talks_comes_back_and_another_game_follows() -> None:
    """Four seats, everyone in lines but the watcher: alice resumes a game near its end with bob invited (seat 3) and
    one seat open, which carol takes; dave watches on the board; bob talks; carol's mille killed, the computer
    plays her seat, and she is back, told what she missed; at the game's end alice's ``Another game?`` starts the
    next with the same table, everyone told."""
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)], \
            readable_directory() as place, players() as started:  # fmt: skip
        saved = kept_for(place, _near_the_end(4), "bsd", a_uid, a_gid)
        host = Lines(a_uid, a_gid, ["--plain", "--invite", f"{bob}:3", "--open", "1", "--no-stats", saved])
        started.append(host)
        host.said_line("seat 2 is open to anyone here")
        taker = Lines(c_uid, c_gid, ["--plain", "--join", alice])
        started.append(taker)
        host.said_line(f"{carol} took seat 2")  # (before the game begins: bob, invited, begins it)
        guest = Lines(b_uid, b_gid, ["--plain", "--join", alice])
        started.append(guest)
        taker.said_line("you are seat 2")
        watcher = Player(d_uid, d_gid, ["--watch", alice], seats=4)
        started.append(watcher)
        watcher.wait_for(f"Side A: {alice}, {bob}")
        assert f"Side B: {carol}, seat 4" in watcher.text() and "Your hand" not in watcher.text()
        host.said_line(f"{dave} is watching")

        guest.answer("say hi all")
        taker.said_line(f"{bob} says: hi all")
        watcher.wait_for(f"{bob}: hi all")

        # carol's mille killed; at her move alice lets the computer play her seat; carol back is told what she missed.
        taker.kill()
        host.said_line(f"{carol} is gone")
        until([host, guest], lambda: any(line.startswith(f"w waits for {carol}") for line in host.lines()))
        host.answer("c")
        back = Lines(c_uid, c_gid, ["--plain", "--join", alice])
        started.append(back)
        back.said_line("While you were away:")
        back.said_line(f"{alice} (seat 1, side A) ")

        # To the game's end: alice's Another game? starts the next with the same table; everyone is told.
        def step(p: Player) -> bool:
            if p is host and host.prompted() == "Another hand?":
                host.answer("y")
                return True
            return p.step()

        def asked(prompt: str) -> Callable[[], bool]:  # (read without pumping: quickly() hears the terminals)
            return lambda: prompt in host.lines()[host.heard :]

        quickly([host, guest, back, watcher], step, asked("Another game?"))  # (the watcher read: never stalled)
        guest.said_line(f"{alice}: Another game?")
        host.answer("y")
        for p in (guest, back):
            p.said_line(f"{alice} starts another game with the same table")
        watcher.until(lambda: re.search(r"Hand +0 Total +0 Games", watcher.text()) is not None)
        assert "Total  4975" not in watcher.text()
        host.answer("q")  # (read at her next prompt, or at once while a person thinks)
        quickly([host, guest, back, watcher], lambda p: p.step() if p is not host else bool(p.read()), asked("Really?"))
        host.answer("y")
        assert host.reap() == 0
        for p in (guest, back):
            assert p.reap() == 0
        watcher.wait_for(f"{alice}'s game is over")


def _forger(uid: int, gid: int, claimed: str) -> tuple[int, int]:
    """A process of ``uid``'s hosting a table of its own that answers a knock with a listing naming ``claimed`` as
    its host; (its pid, a pipe that says ``asked`` once it answered)."""

    def forge(out: int) -> None:
        os.mkdir(directory(uid), 0o711)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(table_path(uid))
        os.chmod(table_path(uid), 0o666)
        listener.listen(1)
        listener.settimeout(30)
        conn, _ = listener.accept()
        conn.recv(4096)
        forged = {"type": "listing", "version": 2, "host": claimed, "table": {"seats": 2, "game_points": 5000,
                  "parker": False}, "places": [{"seat": 1, "kind": "host", "name": claimed}], "hand": 1,
                  "scores": [0, 0], "running": 5, "watchers": [], "join": True, "watch": True}  # fmt: skip
        conn.sendall(json.dumps(forged).encode() + b"\n")
        conn.close()
        os.write(out, b"asked")

    return child_as(uid, gid, forge)


def test_the_new_doors_attacked_a_forged_listing_a_kept_seat_talk_that_escapes_and_floods() -> None:
    """eve forges a game in her own directory that names alice, and listens as alice's table in alice's directory:
    bob's ``mille --list`` shows neither; eve cannot take the seat kept for bob; her raw client's talk (escape
    sequences, control characters, a line of 100 kB, a flood) reaches nobody's terminal unescaped, floods nobody,
    and the game goes on; with ``--no-watchers`` she is turned away unread and nothing of the game is listed to her."""
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (eve, e_uid, e_gid)], players() as started:
        # eve's own table answers with a listing that names alice: listed as eve's (her directory), never alice's.
        pid, said = _forger(e_uid, e_gid, alice)
        listed = _listed(b_uid, b_gid)
        os.waitpid(pid, 0)
        assert os.read(said, 100) == b"asked"
        os.close(said)
        assert f"{alice}'s game" not in listed and f"{eve}'s game" in listed, listed
        shutil.rmtree(directory(e_uid), ignore_errors=True)

        # eve listens on a socket in alice's own directory (made as root): the kernel names her: nothing is listed.
        place = directory(a_uid)

        def in_alices() -> str:
            os.mkdir(place, 0o711)
            os.chown(place, a_uid, a_gid)
            return table_path(a_uid)

        listening = impostor(e_uid, e_gid, in_alices, become_first=False)
        os.chown(table_path(a_uid), a_uid, a_gid)
        listed = _listed(b_uid, b_gid)
        assert impostor_heard(*listening) == b"connected:"  # connected (the kernel's answer needs it), sent nothing
        # (games that other tests, run beside this one, host may be listed: only alice's and eve's matter)
        assert f"{alice}'s game" not in listed and f"{eve}'s game" not in listed, listed
        shutil.rmtree(place, ignore_errors=True)

        # alice's real game for bob: eve may watch, never take his seat.
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        path = table_path(a_uid)
        refused = child_read(*connect_in_child(e_uid, e_gid, path, b'{"type":"knock","version":2,"want":"join"}\n'))
        assert b"no seat at" in refused and b"hello" not in refused
        host.wait_for(f"{eve} tried to join and was refused")
        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()

        # eve's raw client watches and talks: escapes, control characters, a flood, then a line of 100 kB.
        knock = b'{"type":"knock","version":2,"want":"watch"}\n'
        talk = [b'{"type":"talk","text":"\\u001b]0;owned\\u0007 hi \\u001b[2J\\u0000\\u009b31m"}\n']
        talk += [b'{"type":"talk","text":"flood %d"}\n' % n for n in range(40)]
        flooder = connect_in_child(e_uid, e_gid, path, knock + b"".join(talk))
        host.wait_for(f"{eve} is watching")
        huge = connect_in_child(e_uid, e_gid, path, knock + b'{"type":"talk","text":"' + b"x" * 100_000 + b'"}\n')
        guest.until(lambda: b"stopped watching" in guest.raw)  # her line of 100 kB ended that link
        host.move()
        guest.wait_asked()  # the game goes on
        host.send("q")
        host.wait_for("Really?")
        host.send("y")
        assert host.reap() == 0 and guest.reap() == 0
        heard = child_read(*flooder)
        assert b'"type":"watching"' in heard and b'"hand":[' not in heard
        relayed = [m for m in map(json.loads, heard.splitlines()) if m["type"] == "talk"]
        assert [m["text"] for m in relayed[1:3]] == ["flood 0", "flood 1"]  # three lines, then one a second
        assert relayed[0]["text"] == "\\x1b]0;owned\\x07 hi \\x1b[2J\\x00\\x9b31m"  # escaped by the host
        assert len(relayed) <= 5 and heard.count(b"too fast") >= 30  # the rest told to her alone
        assert b"xxxxxxxxxx" * 10 not in child_read(*huge)
        for player in (host, guest):
            raw = player.raw
            assert b"\x1b]0;owned" not in raw and b"\x9b31m" not in raw and b"\x1b[2J\x00" not in raw
            assert b"flood 3" not in raw and b"xxxxxxxxxx" * 10 not in raw, raw[-2000:]
        assert b"\\x1b]0;" in guest.raw  # told, escaped

        # A host who takes no watchers: eve is turned away unread, and nothing of the game is listed to her.
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-watchers", "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        assert f"{alice}'s game" not in _listed(e_uid, e_gid)
        watcher = Lines(e_uid, e_gid, ["--plain", "--watch", alice])
        assert watcher.reap() == 1
        assert f"mille: {alice}'s game did not let you in" in watcher.raw.decode()
        host.wait_for(f"{eve} knocked and was turned away")
        assert "Seat 2: kept for" in _listed(b_uid, b_gid)  # bob, invited, is shown it


def test_the_room_over_a_real_sshd_on_loopback() -> None:
    """``mille --list @127.0.0.1`` and ``mille --watch alice@127.0.0.1`` through ssh, and the watcher's talk back."""
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid)], \
            readable_directory() as place, loopback_sshd(place, carol, c_uid, c_gid) as env, \
            players() as started:  # fmt: skip
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        listed = _listed(c_uid, c_gid, "@127.0.0.1", env=env)
        assert f"{alice}'s game: 2 seats" in listed and f"To watch: mille --watch {alice}@127.0.0.1" in listed, listed
        assert "To join" not in listed  # the seat is bob's
        guest = Player(b_uid, b_gid, ["--join", alice])
        started.append(guest)
        host.wait_asked()
        watcher = Player(c_uid, c_gid, ["--watch", f"{alice}@127.0.0.1"], env=env, seats=2)
        started.append(watcher)
        watcher.wait_for(f"Watching {alice}'s game", deadline=20)
        host.wait_for(f"{carol} is watching", deadline=20)
        host.move()
        watcher.wait_for(f"{alice} (A) discarded", deadline=20)
        watcher.send("t")
        watcher.wait_for("Say:")
        watcher.send("from afar\r")
        guest.wait_for(f"{carol} (watching): from afar", deadline=20)
        watcher.send("q")
        assert watcher.reap(deadline=20) == 0
        host.wait_for(f"{carol} stopped watching", deadline=20)
