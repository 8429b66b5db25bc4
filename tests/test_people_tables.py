"""People at the larger tables (``mille --players 3|4|6 --invite bob,carol``; docs/people.md), as real users on ptys.

The host and the guests are real users made for the test (``useradd``, as
root; skipped with the reason otherwise), each running mille on a
pseudo-terminal of its own (:class:`test_people.Player`).  A whole hand at
four seats (the host and a guest partners, two computers) is played
through to ``Another hand?`` with scripted keys, the guest killed on the
way and the computer standing in until they join again; at three seats
two guests make their first moves, and the bytes one guest's process
received (recorded on their way in) hold its own hand and no other seat's,
nor the deck, compared with the host's game saved at that moment.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator

import pytest

from mille.engine import cards
from mille.engine.observation import Observation
from mille.ui.surface import VirtualTerminal
from test_people import (
    SRC,
    Player,
    _answer,
    _child_read,
    _connect_in_child,
    _readable_by,
    _state_home,
    people,
    readable_directory,
    the_choice_after_a_wait,
)

#: The rows of the larger tables' board (ui/tableboard.py: the miles window is the bottom seven lines).
HAND_ROWS, MESSAGE_ROW, PROMPT_ROW = (17, 18), 21, 22
SAFETIES = {"Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way"}


def _prompt(player: Player) -> str:
    return player.screen.display[PROMPT_ROW].rstrip()


def _hand(player: Player) -> dict[str, str]:
    """The slots of the hand on ``player``'s board: ``P``, ``1``..``6`` -> the card's name (``-`` for none)."""
    text = "  ".join(player.screen.display[row] for row in HAND_ROWS).replace("Your hand", "")
    return {slot: name.strip() for slot, name in re.findall(r"([P1-6]): (.+?)(?=\s{2,}[P1-6]: |\s*$)", text)}


def _deck(player: Player) -> int:
    found = re.search(r"Deck +(\d+) cards", player.text())
    assert found, player.text()
    return int(found.group(1))


def _typed(player: Player, keys: str, deadline: float = 10.0) -> None:
    """Type ``keys`` at the empty move prompt and wait until they are taken (echoed, or the hand changed)."""
    before = _hand(player)
    player.send(keys)
    end = time.monotonic() + deadline
    while _prompt(player) == ">>:Move:" and _hand(player) == before:
        assert time.monotonic() < end, player.text()
        player.pump(0.01)


def _turn(player: Player) -> bool:
    """One scripted step where ``player`` is asked something: pick, then discard (or play) a card; no to questions.

    False if nothing was asked of them.
    """
    player.pump(0.01)
    prompt = _prompt(player)
    if prompt in ("Coup fourre?", "Extension?"):
        player.send("n")
        end = time.monotonic() + 10
        while _prompt(player) == prompt:
            assert time.monotonic() < end, player.text()
            player.pump(0.01)
        return True
    if prompt != ">>:Move:" or "Turn: you " not in player.text():
        return False
    hand = _hand(player)
    if hand.get("P") == "-" and _deck(player) > 0:
        _typed(player, "p")
        return True
    for slot, name in hand.items():
        if name not in SAFETIES and name != "-":
            _typed(player, f"d{slot}\r")
            return True
    slot = next(s for s, name in hand.items() if name != "-")
    _typed(player, f"u{slot}\r")  # only safeties left: play one (a slot is ended by RETURN)
    return True


def _asked(player: Player) -> bool:
    """``player``'s move prompt is open, on their turn (read what has come first)."""
    player.pump(0.01)
    return _prompt(player) == ">>:Move:" and "Turn: you " in player.text()


def _until(players: list[Player], done: object, deadline: float = 90.0) -> None:
    """Play the scripted people's turns until ``done()`` is true."""
    end = time.monotonic() + deadline
    while not done():  # type: ignore[operator]
        assert time.monotonic() < end, "\n----\n".join(p.text() for p in players)
        for p in players:
            _turn(p)


def test_four_seats_partners_play_a_whole_hand_a_dropped_partner_is_played_for_and_comes_back() -> None:
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
        players = [host]
        try:
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            # Each board from its own seat: bob is alice's partner (seat 3), the computers seats 2 and 4.
            host.wait_for(f"Side A (yours): you, {bob}")
            guest.wait_for(f"Side A (yours): {alice}, you")
            assert "Side B: seat 2, seat 4" in host.text() and "Side B: seat 2, seat 4" in guest.text()
            guest.wait_for(f"{alice} is thinking...")
            assert "Turn: you (side A)" in host.text() and f"Turn: {alice} (side A)" in guest.text()
            assert f"you 6, {bob} 6" in host.text() and f"{alice} 6, you 6" in guest.text()

            # Turns go round: alice, a computer, bob, a computer; bob's prompt is his.
            _until([host, guest], lambda: _asked(guest))
            host.wait_for(f"{bob} is thinking...")
            assert "Turn: you (side A)" in guest.text()

            # alice's ^C while bob thinks: Really? on her board; bob's move, made meanwhile, is still his.
            host.send("\x03")
            host.wait_for("Really?")
            before = guest.text()
            _turn(guest)
            host.pump(0.3)
            assert "Really?" in _prompt(host) and f"Turn: {bob}" in host.text()  # taken once she answers
            host.send("n")
            _until([host, guest], lambda: guest.text() != before and _asked(host), deadline=30)  # past bob
            _until([host, guest], lambda: _asked(guest))

            # bob's mille killed at his prompt: alice is told and chooses the computer for his seat.
            guest.kill()
            host.wait_for(f"{bob} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            _until([host], lambda: _asked(host))
            _turn(host)
            _until([host], lambda: _asked(host))
            # He joins again while alice thinks: his board at once, his seat at his next turn.
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            back.wait_for(f"Side A (yours): {alice}, you")
            host.wait_for(f"{bob} joined")

            # The rest of the hand, to the end.
            _until([host, back], lambda: "Another hand?" in _prompt(host), deadline=150)
            back.wait_for(f"{alice}: Another hand?")
            host.send("n")
            host.wait_for("Save game?")
            host.send("n")
            assert host.reap() == 0, host.text()
            assert back.reap() == 0, back.text()
            assert f"{alice} left the game" in back.text()
        finally:
            for p in players:
                p.kill()


RECORDER = """#!/bin/sh
# As ssh would be called (-T -- MACHINE COMMAND): the command run here, what it sends the guest recorded.
shift 3
sh -c "$1" | tee -a "{record}"
"""


def _messages(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def test_three_seats_two_guests_move_and_a_guest_receives_only_its_own_seats_view() -> None:
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")  # the test's own may be root's alone
    if python is None:
        pytest.skip("no system python3 for the recording relay")
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (carol, c_uid, c_gid)], readable_directory() as dir_:
        place = dir_
        if not _readable_by(c_uid, c_gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
            pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
        record = os.path.join(place, "received")
        recorder = os.path.join(place, "ssh")
        with open(recorder, "w") as f:
            f.write(RECORDER.format(record=record))
        os.chmod(recorder, 0o755)
        with open(record, "wb"):
            pass
        os.chown(record, c_uid, c_gid)
        state = _state_home(place, a_uid, a_gid)
        argv = ["--players", "3", "--invite", f"{carol}:3,{bob}", "--no-stats"]
        host = Player(a_uid, a_gid, argv, env={"XDG_STATE_HOME": state})
        players = [host]
        try:
            host.wait_for(f"waiting for {bob}")
            first = Player(b_uid, b_gid, ["--join", alice])
            players.append(first)
            second = Player(
                c_uid,
                c_gid,
                ["--join", f"{alice}@here"],
                env={"MILLE_SSH": recorder, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"},
            )
            players.append(second)
            host.wait_for(f"Side B: {bob}")
            first.wait_for("Side B (yours): you")
            second.wait_for("Side C (yours): you")
            assert f"Side C: {carol}" in host.text() and f"Side A: {alice}" in second.text()

            # The first moves: alice, then bob, then carol, each at their own prompt; whose turn on every board.
            _turn(host)
            _until([host], lambda: _asked(host) and _hand(host).get("P") != "-")
            _turn(host)
            first.wait_for(">>:Move:")
            second.wait_for(f"{bob} is thinking...")
            host.wait_for(f"{bob} is thinking...")
            _until([first], lambda: _asked(second))
            assert "Turn: you (side C)" in second.text()
            host.wait_for(f"Turn: {carol} (side C)")
            first.wait_for(f"{carol} is thinking...")
            _until([second], lambda: _asked(host))
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
            again = Player(a_uid, a_gid, ["--invite", people_again, "--no-stats", kept], env={"XDG_STATE_HOME": state})
            players.append(again)
            again.wait_for(f"waiting for {bob}")
            for uid, gid in ((b_uid, b_gid), (c_uid, c_gid)):
                players.append(Player(uid, gid, ["--join", alice]))
            back = players[-1]
            back.wait_for("Side C (yours): you")
            back.wait_for(f"{alice} is thinking...")
            assert _hand(back) == {
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


# ----------------------------------------------------------------------
# Who sits where, and what is refused (no users needed)


@pytest.mark.parametrize(
    ("seats", "spec", "expected"),
    [
        (4, "bob", {2: "bob"}),  # your partner: seat 3
        (4, "bob,carol", {2: "bob", 1: "carol"}),
        (4, "bob:2", {1: "bob"}),  # an opponent, by choice
        (6, "bob,carol,dave", {3: "bob", 1: "carol", 2: "dave"}),
        (3, "carol:3,bob", {2: "carol", 1: "bob"}),
    ],
)
def test_people_take_your_partners_seats_first_or_the_seats_they_are_given(
    seats: int, spec: str, expected: dict[int, str]
) -> None:
    from mille.engine.state import table
    from mille.ui.people.tablehost import seat_people

    assert seat_people(spec, table(seats), "alice") == expected


@pytest.mark.parametrize(
    ("seats", "spec", "words"),
    [
        (3, "bob,carol,dave", "room for 2 people"),
        (4, "bob:1", "a seat is a number from 2 to 4"),
        (4, "bob:5", "a seat is a number from 2 to 4"),
        (4, "bob:3,carol:3", "seat 3 is given twice"),
        (4, "bob,bob", "invited twice"),
        (4, "alice", "you are seat 1"),
        (4, "bob,", "name is missing"),
    ],
)
def test_a_seating_that_cannot_be_is_refused_in_one_line(seats: int, spec: str, words: str) -> None:
    from mille.engine.state import table
    from mille.ui.people.tablehost import SeatingError, seat_people

    with pytest.raises(SeatingError, match=words) as caught:
        seat_people(spec, table(seats), "alice")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--invite", "bob,carol"], "one person at two seats"),
        (["--invite", "bob", "--invite", "carol"], "one person at two seats"),
        (["--invite", "bob", "--computer", "expert"], "--computer only with --players"),
    ],
)
def test_invitations_the_table_cannot_take_are_refused_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import mille.cli

    try:
        code: object = mille.cli.main(argv)
    except SystemExit as stopped:  # argparse's refusals
        code = stopped.code
    assert code == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


# ----------------------------------------------------------------------
# A guest's board and keys, on the in-memory terminal (no users needed)


def test_a_guest_is_told_a_refused_move_in_the_engines_words_and_aims_a_hazard_at_a_side() -> None:
    """bob at seat 2 of 3: ``D 2`` on a safety is refused from his own view; ``U 1 C`` sends the Stop to side C."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players import wire
    from mille.ui.people import link as people_link
    from mille.ui.people.tableguest import TableGuest
    from mille.ui.surface import VirtualTerminal

    game = Game(table=table(3), rng=GlibcRandom(4))
    rules.start_hand(game)
    game.to_move = 1
    rules.push(game, rules.DRAW)
    hand = game.players[1].hand
    hand[1], hand[2] = cards.STOP, cards.EXTRA_TANK
    for side in (0, 2):  # both other sides rolling: either can take the Stop
        game.players[side].battle = cards.GO
        game.players[side].can_go = True
    obs = observe(game, 1)
    term = VirtualTerminal(keys=[ord(c) for c in "d2\ru1\rc\r"])
    ready, always = os.pipe()  # the guest waits for a key on the terminal's descriptor: always readable here
    os.write(always, b".")
    term.fd = ready  # type: ignore[attr-defined]
    host_end, guest_end = people_link.pair()
    try:
        hello = {"type": "hello", "host": "alice", "seat": 1, "seats": 3, "names": {"0": "alice", "2": "carol"}}
        guest = TableGuest(term, guest_end, hello)
        legal = [wire.move_json_2(m) for m in obs.legal_moves()]
        guest.handle({"type": "decide", "obs": wire.observation_json_2(obs), "legal": legal})
        answer = host_end.wait_message(timeout=5)
    finally:
        host_end.close()
        guest_end.close()
        os.close(ready)
        os.close(always)
    assert answer is not None and answer["type"] == "move"
    assert wire.move_from_json_2(answer["move"], 3) == rules.Move(rules.MoveType.PLAY, 1, 2)
    text = "\n".join(term.lines())
    assert "Side B (yours): you" in text and "Side A: alice" in text and "Side C: carol" in text
    refused = rules.refusal_message(rules.discard_refusal(game, 1, 2) or 0, game, 1, 2)
    assert refused and refused in "\n".join(term.lines()[20:24]) + guest.face.message
    assert "side A/C?" in term.lines()[22]


class _Noting(VirtualTerminal):
    """The in-memory terminal, the screen noted at each key read (the question is on it then)."""

    def __init__(self, keys: list[int]) -> None:
        super().__init__(keys=keys)
        self.noted: list[str] = []

    def read_byte(self) -> int:
        self.noted.append("\n".join(self.lines()))
        return super().read_byte()


def _asked_on_the_board(obs: Observation, key: str, seats: int) -> tuple[dict[str, object] | None, _Noting]:
    """A guest on the board at ``obs``'s seat of ``seats`` is asked (protocol 2's ``decide``) and types ``key``.

    What reached the host, and the terminal (its screens noted at each key read).
    """
    from mille.players import wire
    from mille.ui.people import link as people_link
    from mille.ui.people.tableguest import TableGuest

    term = _Noting(keys=[ord(key)])
    ready, always = os.pipe()
    os.write(always, b".")
    term.fd = ready  # type: ignore[attr-defined]
    host_end, guest_end = people_link.pair()
    try:
        guest = TableGuest(term, guest_end, {"type": "hello", "host": "alice", "seat": obs.seat, "seats": seats})
        legal = [wire.move_json_2(m) for m in obs.legal_moves()]
        guest.handle({"type": "decide", "obs": wire.observation_json_2(obs), "legal": legal})
        return host_end.wait_message(timeout=5), term
    finally:
        host_end.close()
        guest_end.close()
        os.close(ready)
        os.close(always)


def test_a_guests_extension_is_asked_on_the_board_it_saw_and_answered_from_its_terminal() -> None:
    """bob's 25 reaches 700: ``Extension?`` on his board shows 675 miles (the card not yet down); his ``n`` is sent."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players import wire

    game = Game(table=table(3), rng=GlibcRandom(4))
    rules.start_hand(game)
    game.to_move = 1
    rules.push(game, rules.DRAW)
    side = game.players[1]
    side.battle, side.can_go, side.mileage = cards.GO, True, 675
    side.hand[1] = cards.MILES_25
    rules.push(game, rules.Move(rules.MoveType.PLAY, 1))
    obs = observe(game, 1)
    assert obs.phase is rules.Phase.EXTENSION
    answer, term = _asked_on_the_board(obs, "n", 3)
    assert answer is not None and wire.move_from_json_2(answer["move"], 3) == rules.NO_EXTENSION
    lines = term.noted[0].splitlines()  # the board as the key was read (an answer clears the question)
    assert "Extension?" in lines[22] and "Extension?" not in term.lines()[22]
    box = lines[9:17]  # side B's box: bob's
    assert box[0].startswith("Side B (yours): you") and "Miles  675 of 700" in box[1], "\n".join(lines)


def test_at_a_larger_table_only_the_invited_person_takes_their_seat_and_is_handed_only_its_view() -> None:
    """Another user who connects to bob's socket is refused before a byte is read, the host told; bob is seated."""
    import socket

    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players.bsd import BsdPlayer
    from mille.ui.people.tablehost import TablePerson

    with people(2) as [(bob, b_uid, b_gid), (eve, e_uid, e_gid)], readable_directory() as place:
        game = Game(table=table(4), rng=GlibcRandom(9))
        rules.start_hand(game)
        path = os.path.join(place, "bob.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        os.chmod(path, 0o666)
        listener.listen(4)
        person = TablePerson(2, listener, b_uid, game, "alice", {0: "alice", 2: bob}, BsdPlayer())
        try:
            pid, fd = _connect_in_child(e_uid, e_gid, path)
            deadline = time.monotonic() + 10
            while not person.notices:
                assert time.monotonic() < deadline
                person.admit(wait=0.1)
            assert person.link is None and _child_read(pid, fd) == b""
            assert person.take_notices() == [f"{eve} tried to join and was refused (only {bob} is invited there)"]

            pid, fd = _connect_in_child(b_uid, b_gid, path)
            while not person.admit(wait=0.1):
                assert time.monotonic() < deadline
            person.bye("the test is over")
            received = _child_read(pid, fd)
        finally:
            listener.close()
    hello, view, bye = _messages(received)
    assert hello["type"] == "hello" and hello["seat"] == 2 and hello["seats"] == 4
    assert hello["names"] == {"0": "alice", "2": bob}
    obs = view["obs"]
    assert view["type"] == "view" and isinstance(obs, dict) and obs["hand"] == game.players[2].hand
    assert bye == {"type": "bye", "text": "the test is over"}
    text = received.decode()
    for seat in (0, 1, 3):  # the others' hands, the partner's (seat 0) included
        assert json.dumps(game.players[seat].hand, separators=(",", ":")) not in text


def test_a_message_looked_at_is_read_again_first() -> None:
    """``Link.peek_message``: the guest looks at the host's hello to choose its board, and the board reads it."""
    from mille.ui.people import link as people_link

    host_end, guest_end = people_link.pair()
    try:
        host_end.send({"type": "hello", "seats": 4})
        host_end.send({"type": "view"})
        assert guest_end.peek_message(timeout=5) == {"type": "hello", "seats": 4}
        assert guest_end.wait_message(timeout=5) == {"type": "hello", "seats": 4}
        assert guest_end.wait_message(timeout=5) == {"type": "view"}
    finally:
        host_end.close()
        guest_end.close()


def test_a_guests_coup_fourre_is_asked_out_of_turn_on_its_own_terminal() -> None:
    """Seat 4 stops side A; bob (seat 3, alice's partner) holds Right of Way: ``Coup fourre?`` on his board."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players import wire

    game = Game(table=table(4), rng=GlibcRandom(4))
    rules.start_hand(game)
    game.to_move = 3
    rules.push(game, rules.DRAW)
    game.players[3].hand[1] = cards.STOP
    game.players[0].battle, game.players[0].can_go = cards.GO, True
    for seat in (0, 1, 3):  # bob alone holds Right of Way
        game.players[seat].hand = [cards.GO if c == cards.RIGHT_OF_WAY else c for c in game.players[seat].hand]
    game.players[2].hand[3] = cards.RIGHT_OF_WAY
    rules.push(game, rules.Move(rules.MoveType.PLAY, 1))
    obs = observe(game, 2)
    assert obs.phase is rules.Phase.REACTION
    answer, term = _asked_on_the_board(obs, "y", 4)
    assert answer is not None and wire.move_from_json_2(answer["move"], 2) == rules.Move(rules.MoveType.PLAY, 3)
    lines = term.noted[0].splitlines()  # the board as the key was read (an answer clears the question)
    assert "Coup fourre?" in lines[22] and "Turn: you (side A) (coup fourre?)" in "\n".join(lines)


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_refused_move_at_a_seat_not_the_hosts_would_change_nothing_so_a_guests_is_never_pushed(seats: int) -> None:
    """The original tidies the mover's hand even after a refused move (bsd-mille.md §3.2 step 4, §3.6, §4).

    A guest's refused move is told and asked again, never pushed on the
    host's game (docs/people.md).  That loses nothing: the tidy-up's sort
    is the Order of seat 1 alone (the host's), and its compaction of a hand
    left tidy by the last move is the hand itself; the end-of-hand test
    finds what it found then.  Every refused move at every seat but the
    host's, in whole hands, pushed on a copy: the game is unchanged.
    """
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players.bsd import BsdPlayer

    moves = [rules.DRAW] + [
        rules.Move(kind, slot) for kind in (rules.MoveType.PLAY, rules.MoveType.DISCARD) for slot in range(7)
    ]
    refused = 0
    for seed in range(4):
        game = Game(table=table(seats), rng=GlibcRandom(seed))
        rules.start_hand(game)
        game.order = True  # the host keeps his hand in order: his refused moves sort it
        players, dice = [BsdPlayer() for _ in range(seats)], [GlibcRandom(seed * 7 + s) for s in range(seats)]
        while (phase := rules.phase(game)) is not rules.Phase.HAND_OVER:
            seat = game.to_move
            if phase is rules.Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            if phase is rules.Phase.MOVE and seat != 0:
                before = (list(game.players[seat].hand), game.finished, game.to_move, game.deck_count)
                for move in moves:
                    tried = game.copy()
                    if rules.push(tried, move).error is None:
                        continue
                    refused += 1
                    after = (tried.players[seat].hand, tried.finished, tried.to_move, tried.deck_count)
                    assert after == before, (seats, seed, move, before, after)
            rules.push(game, players[seat].choose(observe(game, seat), dice[seat]))
    assert refused > 100


def _plain_turn(player: Player, picked: bool = False) -> None:
    """In lines, at ``Your move:``: pick (unless ``picked``), then discard the first card that is not a safety."""
    if not picked:
        _answer(player, "p", "You pick")
    hand = _answer(player, "c", "Your hand: ")
    hand = hand[hand.index("Your hand: ") + len("Your hand: ") :]
    for item in hand[: hand.index(".")].split("; "):
        slot, card = item.split(": ", 1)
        if card not in SAFETIES and card != "empty":
            player.send(f"d {slot.lower()}\r")
            return
    raise AssertionError(hand)


def test_a_host_in_lines_at_three_seats_hears_a_guest_on_the_board_named_with_seat_and_side() -> None:
    """``mille --plain --players 3 --invite bob``: every event names bob with his seat and side; his turn is said."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--plain", "--players", "3", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            host.wait_for("Mille Bornes at 3 seats, each for themselves, in lines")
            guest.wait_for(f"Side A: {alice}")
            host.wait_for("Your move:")
            assert f"{bob} (seat 2, side B) 6" not in host.text()  # the board is read on request only
            board = _answer(host, "r", "Cards in hand:")
            assert f"{bob} (seat 2, side B) 6" in board and "seat 3 (side C) 6" in board, board
            assert f"Side B, {bob} (seat 2):" in board, board
            _plain_turn(host)
            host.wait_for(f"{bob} is thinking...")
            _until([guest], lambda: _asked(guest))
            _turn(guest)  # his pick, on the board
            _turn(guest)  # and his discard
            host.wait_for(f"{bob} (seat 2, side B) discards")
            guest.wait_for(f"Turn: {alice} (side A)", deadline=30)  # seat 3, the computer, moved: her turn again
            host.wait_for("Your move:")
            # His mille killed at his prompt: she is told and asked in a line; c lets the computer play his seat.
            _plain_turn(host)
            _until([guest], lambda: _asked(guest))
            guest.kill()
            _said(host, f"{bob} is gone.")
            _said(host, f"w waits for {bob} to join again, c lets the computer play the seat until then")
            host.send("x\r")
            _said(host, "Answer w, c or a.")
            host.send("c\r")
            _said(host, f"The computer plays for {bob} until they join again.")
            _said(host, "Your move:")
            host.send("q\r")
            host.wait_for("Really?")
            host.send("y\r")
            assert host.reap() == 0
        finally:
            for p in players:
                p.kill()


@contextlib.contextmanager
def bob_thinking_at_four_seats() -> Iterator[tuple[str, tuple[str, int, int], tuple[str, int, int], list[Player]]]:
    """alice hosts 4 seats with bob (a real user) at seat 2, her game kept in a state directory of hers; turns played
    until bob is asked.  (state, alice, bob, players: the host and the guest first), every player killed after."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        state = _state_home(place, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(
                a_uid, a_gid, ["--players", "4", "--invite", f"{bob}:2", "--no-stats"], env={"XDG_STATE_HOME": state}
            )
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            _until([host, guest], lambda: _asked(guest))
            yield state, (alice, a_uid, a_gid), (bob, b_uid, b_gid), players
        finally:
            for p in players:
                p.kill()


def test_a_drop_at_four_seats_asks_the_host_and_an_adjourned_game_is_resumed_by_both() -> None:
    """bob (seat 2) killed at his prompt: alice chooses at Wait/Comp/Adjourn?; A keeps the game; both resume it."""
    with bob_thinking_at_four_seats() as (state, (alice, a_uid, a_gid), (bob, b_uid, b_gid), players):
        host, guest = players
        hand = _hand(guest)
        guest.kill()
        the_choice_after_a_wait(host, bob)
        host.send("a")
        assert host.reap() == 0
        said = "".join(line.rstrip() if len(line.rstrip()) < 80 else line for line in host.screen.display)
        assert f"mille --invite {bob}:2 " in said, host.text()
        assert f"{bob} takes their seat again with: mille --join {alice}" in said, host.text()

        both_resume(state, (alice, a_uid, a_gid), (bob, b_uid, b_gid), hand, players)


def test_the_hosts_terminal_closed_at_four_seats_keeps_the_game_and_both_resume_it() -> None:
    """The host's own drop keeps the game for everyone (issue 37), at a larger table too: her terminal closed while
    bob thinks; her mille keeps the game as on any hangup, bob is told, both resume it."""
    with bob_thinking_at_four_seats() as (state, alice, bob, players):
        host, guest = players
        hand = _hand(guest)
        os.close(host.fd)  # the host's terminal goes away under it
        host.fd = -1
        assert host.reap() == 1
        assert guest.reap() == 0
        assert f"{alice[0]} left the game" in guest.text(), guest.text()
        both_resume(state, alice, bob, hand, players)


def both_resume(
    state: str, host: tuple[str, int, int], guest: tuple[str, int, int], hand: dict[str, str], players: list[Player]
) -> None:
    """The one game kept in ``state`` resumed by the host (``guest`` invited to seat 2 of 4) and the guest: his seat,
    his ``hand``, his move."""
    (alice, a_uid, a_gid), (bob, b_uid, b_gid) = host, guest
    [name] = os.listdir(os.path.join(state, "mille"))
    kept = os.path.join(state, "mille", name)
    resumed = Player(a_uid, a_gid, ["--invite", f"{bob}:2", "--no-stats", kept], env={"XDG_STATE_HOME": state})
    players.append(resumed)
    resumed.wait_for(f"waiting for {bob}")
    back = Player(b_uid, b_gid, ["--join", alice])
    players.append(back)
    end = time.monotonic() + 10
    while not _asked(back):
        assert time.monotonic() < end, back.text()
    assert _hand(back) == hand
    resumed.wait_for(f"{bob} is thinking...")


def _last(player: Player) -> str:
    return " ".join(row.strip() for row in player.screen.display).rstrip()


def _said(player: Player, wanted: str, deadline: float = 10.0) -> None:
    """Read until ``wanted`` is on the screen, lines wrapped or not."""
    end = time.monotonic() + deadline
    while wanted not in _last(player):
        assert time.monotonic() < end, f"{wanted!r} never said:\n{player.text()}"
        player.pump(0.02)


def test_a_guest_in_lines_at_four_seats_plays_turns_with_the_host_on_the_board() -> None:
    """``mille --plain --join alice`` at 4 seats, bob at seat 3: the seats and sides numbered as on every board (alice
    seat 1 and side A), each event naming seat and side."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--plain", "--join", alice])
            players.append(guest)
            _said(guest, "Mille Bornes at 4 seats, 2 sides of 2, in lines: you are seat 3, on side A")
            # The host's numbering: alice, his partner, seat 1; the computers seats 2 and 4, side B.
            _said(guest, "New hand: the trip is 1000 miles")
            host.wait_for(f"Side A (yours): you, {bob}")
            seen: list[str] = []
            turns, end = 0, time.monotonic() + 120
            while turns < 3:
                assert time.monotonic() < end, guest.text()
                _turn(host)
                guest.pump(0.01)
                seen.append(guest.text())
                last = _last(guest)
                if last.endswith("Your move:"):
                    if turns == 0:
                        board = _answer(guest, "r", "Cards in hand:")
                        assert f"Side A (yours), you and your partner {alice} (seat 1):" in board, board
                        assert "Side B, seat 2 and seat 4:" in board and "you 6," in board, board
                        _answer(guest, "d 9", "d needs a card")
                        _answer(guest, "p", "You pick")
                        _answer(guest, "p", "already picked")  # a second pick: the engine's own refusal
                    _plain_turn(guest, picked=turns == 0)
                    guest.wait_for("You discard")
                    seen.append(guest.text())
                    turns += 1
                elif last.endswith("Coup fourre?"):
                    guest.send("n\r")
                    guest.wait_for("let the coup fourre pass")
            said = "\n".join(seen)
            assert "Seat 2 (side B) " in said or "Seat 4 (side B) " in said, said
            assert f"Your partner {alice} (seat 1) " in said or f"{alice} is thinking..." in said, said
            assert "you are seat 1" not in said and "Seat 3 (" not in said, said
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0
            assert guest.reap() == 0
            assert f"{alice} left the game" in guest.text()
        finally:
            for p in players:
                p.kill()


def test_a_table_turned_to_a_guests_seat_keeps_partners_and_turns_moves_back() -> None:
    """``seat_view``: the guest at seat 0 with their own hand, sides turned with it; ``unturned`` undoes it."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import Move, MoveType
    from mille.engine.state import Game, table
    from mille.ui.people.tableguest import seat_view, unturned

    for seats, seat in ((3, 1), (3, 2), (4, 2), (4, 3), (6, 4)):
        game = Game(rng=GlibcRandom(7), table=table(seats))
        rules.deal(game)
        game.players[seat % game.table.sides].mileage = 125  # the guest's side, to find it turned
        turned = seat_view(observe(game, seat), False)
        sides = game.table.sides
        assert turned.players[0].hand == game.players[seat].hand
        assert turned.players[0].mileage == 125 and turned.table.side(0) == 0
        assert turned.to_move == (game.to_move - seat) % seats
        counts = [cards.HAND_SIZE - p.hand.count(cards.EMPTY) for p in turned.players]
        assert counts == [
            cards.HAND_SIZE - game.players[(i + seat) % seats].hand.count(cards.EMPTY) for i in range(seats)
        ]
        for side in range(1, sides):
            move = unturned(Move(MoveType.PLAY, 2, side), seat, sides)
            assert move.target == (side + seat) % sides and move.slot == 2
        assert unturned(Move(MoveType.DISCARD, 3), seat, sides) == Move(MoveType.DISCARD, 3)


def test_the_hosts_coup_fourre_question_is_never_told_to_the_others() -> None:
    """Being asked ``Coup fourre?`` out of turn says the host holds the safety (R10): the others hear nothing of it.

    ``Another hand?`` is told, as what they wait for; ``Extension?`` and ``Really?`` are not, as at two seats.
    """
    from mille.ui.flow import ANOTHER_HAND_PROMPT, COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT
    from mille.ui.people.tablehost import TablePeople

    class Someone:
        def __init__(self) -> None:
            self.said: list[str] = []

        def say(self, text: str) -> None:
            self.said.append(text)

    bob = Someone()
    people = TablePeople([bob], "alice")  # type: ignore[list-item]
    for prompt in (COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT):
        people.relay(prompt)
    assert bob.said == []
    people.relay(ANOTHER_HAND_PROMPT)
    assert len(bob.said) == 1 and bob.said[0].startswith("alice: Another hand?")
