"""The table's secrets kept, and a silent network noticed (issue 43's people parts; the ssh side of issue 45), each
attacked the way it was attacked and failing on the code before.

Real users made for the test (``useradd``, as root; skipped with the reason
otherwise): players on ptys (:mod:`helpers.people`), and scripted guests, a
forked child that becomes the guest's user, connects to the host's socket
as ``mille --join`` would, and logs every byte it is sent.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import socket
import time
from collections.abc import Callable

import pytest

from helpers.faults import child_as, child_read
from helpers.people import (
    RELAY,
    SRC,
    Lines,
    Player,
    descendants,
    kept_for,
    partner_asked_coup_fourre,
    people,
    players,
    python_for,
    readable_directory,
    recorded,
    recording_relay,
    until,
)
from mille.engine.state import Game

Script = Callable[[dict[str, object], Callable[[dict[str, object]], None]], bool]


def _scripted_guest(uid: int, gid: int, path: str, script: Script) -> tuple[int, int]:
    """A guest's process, scripted: as ``uid`` connect to ``path`` and hand each message of the host's to
    ``script(message, send)``, until it returns True or the host ends the link; every line received logged.

    (pid, the pipe its log comes back on: :func:`_log`)."""

    def guest(out: int) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        sock.settimeout(30)
        stream = sock.makefile("rb")

        def send(message: dict[str, object]) -> None:
            sock.sendall(json.dumps(message).encode() + b"\n")

        send({"type": "knock", "version": 2, "want": "join"})  # (the door's first word)
        for line in stream:
            os.write(out, line)
            if script(json.loads(line), send):
                break

    return child_as(uid, gid, guest)


def _log(pid: int, fd: int) -> list[dict[str, object]]:
    """The scripted guest's log, once it is done (however it ended)."""
    return [json.loads(line) for line in child_read(pid, fd, ended_well=False).splitlines() if line.strip()]


def test_a_coup_fourre_let_pass_out_of_turn_is_told_to_no_other_person() -> None:
    """bob (seat 3) lets a coup fourré pass, out of turn: carol's process (seat 2, a logging guest) got an extra
    ``view`` at once (its only change: side A's fresh hazard), and so learnt that someone of side A held the safety.
    A pass told to no one now changes no one's view: every view carol is sent after her first comes with the move
    it follows."""
    from mille.files.save import SavedGame, write_game

    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid)], readable_directory() as dir_:
        kept = os.path.join(dir_, "at-the-coup-fourre.json")
        game = partner_asked_coup_fourre()
        write_game(kept, SavedGame(game, 0, "bsd"))  # type: ignore[arg-type]
        os.chown(kept, a_uid, a_gid)
        with players() as started:
            host = Player(a_uid, a_gid, ["--invite", f"{bob}:3,{carol}:2", "--no-stats", kept], seats=4)
            started.append(host)
            host.wait_for(f"waiting for {carol}")
            path = _socket_of(a_uid, carol)

            def carol_plays(message: dict[str, object], send: Callable[[dict[str, object]], None]) -> bool:
                if message.get("type") == "decide":
                    legal = message["legal"]
                    assert isinstance(legal, list)
                    send({"type": "move", "ask": message.get("ask"), "move": legal[0]})
                return message.get("type") == "moved" and message.get("seat") == 0  # alice moved after the pass

            pid, log = _scripted_guest(c_uid, c_gid, path, carol_plays)
            guest = Player(b_uid, b_gid, ["--join", alice], seats=4)
            started.append(guest)
            guest.wait_for("Coup fourre?")
            guest.send("n")  # the pass, out of turn: his secret
            host.wait_asked(deadline=30)
            host.step()  # alice's pick, after it: carol's logger is done once it is told of it
            received = _log(pid, log)
    received = [m for m in received if m["type"] not in ("news", "talk", "missed")]  # (the room's, not the game's)
    kinds = [m["type"] for m in received]
    # Her view when she joined and at the deal, then nothing until alice's move after the pass: no view of her own.
    assert kinds[: kinds.index("moved")] == ["hello", "view", "view"], kinds
    for before, after in itertools.pairwise(received[3:]):
        if after["type"] == "view":
            assert before["type"] == "moved", kinds  # a view comes with the move it follows, never alone
    assert not any(m["type"] == "moved" and m.get("kind") == "pass" for m in received), kinds


def _socket_of(uid: int, guest: str) -> str:
    """The host's door (``guest`` comes in by it as anyone does: a knock, the kernel naming them)."""
    from mille.ui.people.rendezvous import table_path

    return table_path(uid)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_frozen_network_is_told_to_both_sides_within_the_bound(seats: int) -> None:
    """The relay between bob and alice stops forwarding (a proxy frozen: ``SIGSTOP``) while bob thinks: neither side
    was told anything after 42 s.  Each says a word after some seconds of silence, and a side that hears nothing for
    the bound (``MILLE_LINK_SILENCE``, 2 s here) drops the link: alice chooses at ``Wait/Comp/Adjourn?``, bob at
    ``Wait/Leave?``, both within the bound (and a little: the relay's own buffers, a tick)."""
    bound = 2.0
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        record, relay = recording_relay(place, b_uid, b_gid)
        quick = {"MILLE_LINK_SILENCE": str(bound)}
        host = Player(a_uid, a_gid, ["--players", str(seats), "--invite", bob, "--no-stats"], env=quick, seats=seats)
        started.append(host)
        host.wait_for(f"waiting for {bob}")
        env = {**quick, **relay}
        guest = Player(b_uid, b_gid, ["--join", f"{alice}@here", "--no-stats"], env=env, seats=seats)
        started.append(guest)
        guest.wait_for(f"{alice} is thinking...", deadline=20)
        until([host], guest.asked)

        def beats() -> int:
            return sum(message.get("type") == "beat" for message in recorded(record))

        # A quiet spell as long as the bound, the link alive: the host's words keep it so (two of them heard).
        guest.until(lambda: beats() >= 2, deadline=5 * bound)
        assert f"{bob} is gone" not in host.text() and "Wait/Leave?" not in guest.text()
        relays = descendants(guest.pid)
        assert relays, guest.text()
        frozen = time.monotonic()
        try:
            for pid in relays:
                os.kill(pid, signal.SIGSTOP)
            host.wait_for(f"{bob} is gone", deadline=10)
            host.wait_for("Wait/Comp/Adjourn?", deadline=10)
            guest.wait_for("Wait/Leave?", deadline=10)
            told = time.monotonic() - frozen
            assert told < 2 * bound + 2, told
            assert guest.saw(f"the link to {alice} is gone"), guest.text()
            if seats > 2:  # (the original's board keeps its message line short: the reasons go)
                assert guest.saw("nothing heard from") and host.saw("nothing heard for"), (host.text(), guest.text())
        finally:
            for pid in relays:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _freeze(pids: list[int]) -> None:
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_frozen_watchers_link_is_told_to_both_sides_within_the_bound() -> None:
    """carol watches over a relay (ssh's stand-in) that stops forwarding (``SIGSTOP``): neither side was told, for a
    watcher's link had no words and no bound of silence (the host dropped her only once her buffer filled, which a
    quiet game never does).  Now it has the people's: each side says a word after some seconds of silence, so a
    quiet spell as long as the bound keeps it, and a side that hears nothing for the bound (``MILLE_LINK_SILENCE``,
    2 s here) drops it: alice's table is told carol stopped watching, and carol's mille says so in one line, both
    within the bound (and a little)."""
    bound = 2.0
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid)], \
            readable_directory() as place, players() as started:  # fmt: skip
        record, relay = recording_relay(place, c_uid, c_gid)
        quick = {"MILLE_LINK_SILENCE": str(bound)}
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], env=quick)
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice, "--no-stats"], env=quick)
        started.append(guest)
        host.wait_asked()
        watcher = Lines(c_uid, c_gid, ["--plain", "--watch", f"{alice}@here"], env={**quick, **relay})
        started.append(watcher)
        watcher.said_line("You are watching", deadline=20)
        host.wait_for(f"{carol} is watching", deadline=20)

        def beats() -> int:
            return sum(message.get("type") == "beat" for message in recorded(record))

        # A quiet spell (alice thinks) longer than the bound, the link alive: the host's words keep it so.
        watcher.until(lambda: beats() >= 4, deadline=5 * bound)
        assert watcher.alive() and f"{carol} stopped watching" not in host.text(), watcher.lines()
        relays = descendants(watcher.pid)
        assert relays, watcher.lines()
        frozen = time.monotonic()
        try:
            _freeze(relays)
            host.wait_for(f"{carol} stopped watching", deadline=10)
            assert watcher.reap(deadline=10) == 1
            told = time.monotonic() - frozen
            assert told < 2 * bound + 2, told
        finally:
            _kill(relays)
        said = [line for line in watcher.lines() if line.startswith("mille:")]
        assert len(said) == 1 and f"nothing heard from {alice} for 2 s" in said[0], watcher.lines()
        assert f"watch again with: mille --watch {alice}@here" in said[0], said


def test_those_who_came_early_are_kept_while_the_host_waits_for_the_others() -> None:
    """bob (over a recording relay) joins and dave watches while alice waits for carol: nothing was said on their
    links before the board, so after the bound (``MILLE_LINK_SILENCE``, 2 s here) bob's mille took alice for gone
    and asked ``Wait/Leave?``.  Now the host's words and silence are heard before the board as at the table: bob
    and dave stay while carol takes her time, and the game begins with all of them."""
    bound = 2.0
    with people(4) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid), (dave, d_uid, d_gid)], \
            readable_directory() as place, players() as started:  # fmt: skip
        record, relay = recording_relay(place, b_uid, b_gid)
        quick = {"MILLE_LINK_SILENCE": str(bound)}
        argv = ["--plain", "--players", "3", "--invite", f"{bob},{carol}", "--no-stats"]
        host = Lines(a_uid, a_gid, argv, env=quick)
        started.append(host)
        host.said_line(f"waiting for {carol}")
        early = Lines(b_uid, b_gid, ["--plain", "--join", f"{alice}@here", "--no-stats"], env={**quick, **relay})
        started.append(early)
        host.said_line(f"{bob} joined", deadline=20)
        watcher = Lines(d_uid, d_gid, ["--plain", "--watch", alice], env=quick)
        started.append(watcher)
        watcher.said_line("You are watching")
        host.said_line(f"{dave} is watching")

        def beats() -> int:
            return sum(message.get("type") == "beat" for message in recorded(record))

        # Three bounds' worth of the host's words to bob while carol has not come: bob and dave still there.
        def gone(said: list[str]) -> bool:
            return any("nothing heard" in line or "is gone" in line for line in said)

        early.until(lambda: beats() >= 9 or gone(early.lines()), deadline=10 * bound)
        for said in (early.lines(), watcher.lines(), host.lines()):
            assert not gone(said), said
        assert early.alive() and watcher.alive(), early.lines()
        late = Lines(c_uid, c_gid, ["--plain", "--join", alice, "--no-stats"], env=quick)
        started.append(late)
        early.said_line("Mille Bornes at 3 seats", deadline=20)
        watcher.said_line("The hand in play:", deadline=20)


def test_refused_connections_are_told_as_one_line_with_a_count() -> None:
    """eve knocks at alice's door again and again (33,846 lines in 3 s): alice is told in one line a second at most,
    with the count, and every knock counted."""
    knocks = 300
    with people(3) as [(alice, a_uid, a_gid), (bob, _, _), (eve, e_uid, e_gid)], players() as started:
        host = Lines(a_uid, a_gid, ["--plain", "--invite", bob, "--no-watchers", "--no-stats"])
        started.append(host)
        host.said_line(f"mille --join {alice}")
        path = _socket_of(a_uid, bob)  # (nothing there is for eve: she is turned away unread)
        pid = os.fork()
        if pid == 0:  # eve, knocking
            code = 1
            try:
                os.setgroups([])
                os.setgid(e_gid)
                os.setuid(e_uid)
                for _ in range(knocks):
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as knock:
                        knock.connect(path)
                        knock.recv(1)  # the host closes it, unread
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        # (eve's lines only: another test's mille --list, run beside this one, knocks at every door here too)
        counted = re.compile(rf"{eve} knocked (?:(\d+) times )?and was turned away")
        end = time.monotonic() + 20
        while True:
            told = [line for line in host.lines() if counted.search(line)]
            total = sum(int(counted.search(line).group(1) or 1) for line in told)  # type: ignore[union-attr]
            if total >= knocks:
                break
            assert time.monotonic() < end, (total, told)
            host.pump(0.1)
        assert total == knocks and len(told) <= 5, told


def test_the_host_gives_a_silent_persons_move_to_the_computer() -> None:
    """bob sits there, connected, and does not move: only a dropped person's seat could go to the computer.  Now
    alice's ``C`` while he thinks gives his move to the computer; his question is withdrawn on his board, and his
    next move is his again."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], players() as started:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        guest = Player(b_uid, b_gid, ["--join", alice, "--no-stats"])
        started.append(guest)
        host.wait_asked()
        host.move()
        guest.wait_asked()
        host.wait_for(f"{bob} is thinking...")
        host.send("c")
        host.wait_for(f"The computer plays for {bob}")
        host.wait_asked()  # the computer moved for him: her turn
        guest.until(lambda: guest.saw(f"{alice} let the computer move"))
        assert ">>:Move:" not in guest.text(), guest.text()
        host.move()
        guest.wait_asked()  # his seat, his next move
        guest.move()
        host.wait_asked()


def test_a_move_sent_out_of_turn_is_no_answer_to_a_later_question() -> None:
    """bob's process answers his pick and sends a play of his safety after it, before it is asked (a key typed ahead,
    a line sent twice): the play was taken as his answer to the next question.  Each question is numbered and a move
    answers only the question it names: the play sent out of turn is left, and the discard he sends as his answer to
    the next question is made."""
    game, slot = _a_safety_at_seat_2s_turn()
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        kept = kept_for(place, game, f"person:{bob}", a_uid, a_gid)
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        asked: list[object] = []

        def bob_plays(message: dict[str, object], send: Callable[[dict[str, object]], None]) -> bool:
            if message.get("type") == "decide":
                ask = message.get("ask")
                if not asked:  # his pick, and a play of the safety after it, sent before it is asked
                    send({"type": "move", "ask": ask, "move": {"kind": "draw"}})
                    send({"type": "move", "ask": ask, "move": {"kind": "play", "slot": slot}})
                else:  # his answer to the next question: a discard
                    legal = message["legal"]
                    assert isinstance(legal, list)
                    discard = next(m for m in legal if m["kind"] == "discard" and m["slot"] != slot)
                    send({"type": "move", "ask": ask, "move": discard})
                asked.append(ask)
            moved = [m for m in [message] if m.get("type") == "moved" and m.get("seat") == 1]
            if moved:
                asked.append(moved[0]["kind"])
            return asked.count("draw") + asked.count("play") + asked.count("discard") >= 2

        pid, log = _scripted_guest(b_uid, b_gid, _socket_of(a_uid, bob), bob_plays)
        received = _log(pid, log)
    made = [m["kind"] for m in received if m["type"] == "moved" and m.get("seat") == 1]
    assert made == ["draw", "discard"], made


def _a_safety_at_seat_2s_turn() -> tuple[Game, int]:
    """A two-seat game at seat 2's move (the guest's), before his pick, with a safety in his hand (its play legal
    before the pick and after it); its slot."""
    from mille.engine import cards, rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.players.bsd import BsdPlayer

    for seed in range(1, 200):
        game = Game(rng=GlibcRandom(seed))
        rules.start_hand(game)
        computer = BsdPlayer()
        while game.to_move == 0:
            rules.push(game, computer.choose(observe(game, 0), GlibcRandom(seed)))
        hand = game.players[1].hand
        safe = [slot for slot in range(1, cards.HAND_SIZE) if hand[slot] >= cards.SAFETY_BASE]
        if safe and rules.phase(game) is rules.Phase.MOVE:
            return game, safe[0]
    raise AssertionError("no deal gives seat 2 a safety")


@pytest.mark.parametrize("installed", [False, True])
def test_join_over_ssh_finds_this_program_on_the_far_side_not_a_namesake(installed: bool) -> None:
    """``mille --join alice@host`` ran bsdgames' ``mille`` on the far side (``/usr/games`` is on a non-interactive
    ssh's PATH) and failed with garbage.  The far side runs the first mille whose ``--version`` is this program's (a
    ``mille`` on the PATH, then ``python3 -m mille``); with none, one line says so."""
    if not os.path.exists("/usr/games/mille"):
        pytest.skip("no bsdgames' mille on this machine to stand in the way")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place, players() as started:
        python_for(b_uid, b_gid)
        far = "export PATH=/usr/local/bin:/usr/bin:/bin:/usr/games\n"
        if installed:
            far += f"export PYTHONPATH={SRC}\n"  # python3 -m mille is this program there; mille is bsdgames'
        relay = os.path.join(place, "ssh")
        with open(relay, "w") as f:
            f.write(RELAY.format(down=os.path.join(place, "down"), tries=os.path.join(place, "tries")))
        with open(relay) as f:
            script = f.read().replace("#!/bin/sh\n", "#!/bin/sh\n" + far, 1)
        with open(relay, "w") as f:
            f.write(script)
        os.chmod(relay, 0o755)
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        started.append(host)
        host.wait_for(f"mille --join {alice}")
        env = {"MILLE_SSH": relay, "PATH": "/usr/bin:/bin"}
        guest = Player(b_uid, b_gid, ["--join", f"{alice}@here", "--no-stats"], env=env)
        started.append(guest)
        if installed:
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            host.wait_asked()
        else:
            assert guest.reap(deadline=20) == 1
            said = guest.left()
            assert "there is no bsd-mille on here" in said and "garbage" not in said, said
            assert said.count("mille:") == 1, said
