"""The people link and what runs without users: the link's bounds, the message set, who sits where, a guest's board
and lines on the in-memory terminal, the one rule of refusals, what the host's questions tell (docs/people.md).

The link is a socket pair; the guest's boards are drawn on the in-memory
terminal from views the test makes; the admission of a peer by its kernel
uid and the invitation on a pty use real users (``useradd``, as root;
skipped otherwise).
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time

import pytest

from helpers.faults import child_read
from helpers.people import SRC, connect_in_child, people, readable_directory
from mille.engine import cards
from mille.engine.observation import Observation
from mille.engine.state import Game
from mille.players import wire
from mille.ui.people import link as people_link
from mille.ui.surface import VirtualTerminal

# ----------------------------------------------------------------------
# The link's bounds: a hostile or broken peer cannot crash, hang or exhaust the other


def test_a_line_that_never_ends_ends_the_link_not_the_memory() -> None:
    mine, theirs = people_link.pair()
    try:
        chunk = b"x" * 4096
        sent = 0
        while sent <= people_link.MAX_LINE + len(chunk):
            theirs.sock.setblocking(True)
            theirs.sock.sendall(chunk)
            sent += len(chunk)
        with pytest.raises(people_link.LinkClosed, match="too long"):
            while mine.poll_message() is None:
                select.select([mine.sock], [], [], 1)
        assert len(mine._in) <= people_link.MAX_LINE + 65536
    finally:
        mine.close()
        theirs.close()


def test_garbage_ends_the_link_in_one_line() -> None:
    mine, theirs = people_link.pair()
    try:
        theirs.sock.setblocking(True)
        theirs.sock.sendall(b"\x1b]0;owned\x07 not json\n")
        with pytest.raises(people_link.LinkClosed, match="garbage"):
            mine.wait_message(timeout=5)
    finally:
        mine.close()
        theirs.close()


def test_a_peer_that_stops_reading_is_dropped_without_blocking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people_link, "WRITE_DEADLINE", 0.2)
    mine, theirs = people_link.pair()
    try:
        message = {"type": "say", "text": "y" * 1000}
        start = time.monotonic()
        with pytest.raises(people_link.LinkClosed, match="stopped reading"):
            while True:
                mine.send(message)  # never blocks: the buffer is bounded, the stall timed
                if time.monotonic() - start > 0.25:
                    mine.flush()
        assert time.monotonic() - start < 10
    finally:
        mine.close()
        theirs.close()


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_every_message_is_read_back_as_it_was_made_at_every_table(seats: int) -> None:
    """One message set at every table (two seats too): each constructor's message, through the link, read back by
    its reader; the event of ``moved`` encoded once, protocol 2's fields in a message of the link's own."""
    from mille.engine import rules
    from mille.engine.driver import Event
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import table
    from mille.ui.people import messages

    game = Game(table=table(seats), rng=GlibcRandom(seats))
    rules.start_hand(game)
    seat = seats - 1
    obs = observe(game, seat)
    legal = [rules.DRAW, rules.Move(rules.MoveType.DISCARD, 3)]
    event = Event(0, rules.MoveType.PLAY, cards.STOP, 1)
    mine, theirs = people_link.pair()
    try:
        sent = [
            messages.hello("alice", "bob", seat, table(seats), {0: "alice", seat: "bob"}),
            messages.view(obs, False),
            messages.decide(obs, legal, 7),
            messages.withdrawn(7),
            messages.beat(),
            messages.moved(event, table(seats).sides),
            messages.say("alice: Another hand?"),
            messages.error("must pick first"),
            messages.bye("alice left the game"),
            {"type": "watch", "what": "a message a later mille may send"},
        ]
        for message in sent:
            mine.send(message)
        got = [theirs.wait_message(timeout=5) for _ in sent]
        assert all(message is not None for message in got)
        hello = messages.read_hello(got[0])  # type: ignore[arg-type]
        assert (hello.host, hello.you, hello.seat, hello.table) == ("alice", "bob", seat, table(seats))
        assert hello.names == {0: "alice", seat: "bob"}
        read = [messages.read(message, seats) for message in got[1:]]  # type: ignore[arg-type]
        assert read[0] == messages.View(obs, False)
        assert read[1] == messages.Decide(obs, legal, 7)
        assert read[2] == messages.Withdrawn(7)
        assert read[3] is None  # a beat: the peer is there
        assert read[4] == messages.Moved(event)
        assert read[5:8] == [
            messages.Said("alice: Another hand?"),
            messages.Refused("must pick first"),
            messages.Bye("alice left the game"),
        ]
        assert read[8] is None  # a form this guest does not know is left, not an error
        assert got[5] == {"type": "moved", "seat": 0, "side": 0, "kind": "play", "card": cards.STOP, "target": 1}
        theirs.send(messages.move(legal[1], 7))
        answer = mine.wait_message(timeout=5)
        assert answer is not None and messages.read_move(answer, table(seats).sides, 7) == legal[1]
        assert messages.read_move(answer, table(seats).sides, 8) is None  # the answer to another question
    finally:
        mine.close()
        theirs.close()


def test_a_hello_of_another_version_or_table_is_refused_in_one_line() -> None:
    """A guest of one mille and a host of another part in one line, as does a hello that seats no one."""
    from mille.engine.state import table
    from mille.ui.people import messages

    good = messages.hello("alice", "bob", 1, table(2), {})
    for bad, words in [
        ({**good, "version": None}, "another version"),
        ({k: v for k, v in good.items() if k != "version"}, "another version"),
        ({**good, "seat": 0}, "a seat that is not"),
        ({**good, "seat": 2}, "a seat that is not"),
        ({**good, "table": {**good["table"], "seats": 5}}, "a table that is not one"),  # type: ignore[dict-item]
        ({**good, "table": {**good["table"], "game_points": 10**12}}, "a table that is not one"),  # type: ignore[dict-item]
        ({**good, "table": [2]}, "fields are not what they should be"),
        ({"type": "view"}, "is not its hello"),
    ]:
        with pytest.raises(messages.MessageError, match=words) as caught:
            messages.read_hello(bad)
        assert "\n" not in str(caught.value)


def test_a_seed_typed_with_invite_is_refused_in_one_line() -> None:
    """A command line is seen by every user of the machine: a seed on it would make the deal public."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run(
        [sys.executable, "-m", "mille", "--invite", "nobody", "--seed", "5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "would make the deal public" in done.stderr and "Traceback" not in done.stderr


def _utmp_record(user: str, line: str, kind: int = 7) -> bytes:
    """One Linux ``struct utmp`` record (the layout the code reads: ``rendezvous.UTMP_RECORD``)."""
    from mille.ui.people.rendezvous import UTMP_RECORD

    return UTMP_RECORD.pack(kind, os.getpid(), line.encode(), b"ts/0", user.encode(), b"", 0, 0, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the utmp layout written here is Linux's")
def test_the_invitation_reaches_the_guests_pty_as_write_does_and_not_after_mesg_n(tmp_path: object) -> None:
    """A real pty owned by the guest, listed in a utmp file the test writes: one line there; none after ``mesg n``."""
    from mille.ui.people import rendezvous

    with people(1) as [(bob, b_uid, b_gid)]:
        master, slave = os.openpty()
        try:
            tty = os.ttyname(slave)
            utmp = os.path.join(str(tmp_path), "utmp")
            with open(utmp, "wb") as f:
                f.write(_utmp_record("someone", tty[len("/dev/") :]))  # another user's login on that tty
                f.write(_utmp_record(bob, tty[len("/dev/") :], kind=8))  # a dead process: not a login
                f.write(_utmp_record(bob, tty[len("/dev/") :]))
            os.chown(tty, b_uid, b_gid)
            assert rendezvous.terminals(bob, utmp) == [tty]

            os.chmod(tty, 0o620)  # mesg y
            assert rendezvous.invite(bob, "mille: alice invites you", utmp=utmp) == [tty]
            got = b""
            while b"invites you" not in got:
                assert select.select([master], [], [], 5)[0], got
                got += os.read(master, 4096)
            assert b"mille: alice invites you" in got

            os.chmod(tty, 0o600)  # mesg n: the group may not write
            assert rendezvous.invite(bob, "mille: alice invites you again", utmp=utmp) == []
            assert not select.select([master], [], [], 0.2)[0]
        finally:
            os.close(slave)
            os.close(master)


# ----------------------------------------------------------------------
# Who sits where, and what is refused


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
    from mille.ui.people.seat import seat_people

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
    from mille.ui.people.seat import SeatingError, seat_people

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


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_line_of_a_kept_game_hosts_the_same_table_again_its_open_seats_open(seats: int) -> None:
    """The options a kept or adjourned game's line gives (``mille --invite bob:3 --open 1 FILE``), read back by the
    command line, seat every person where they sat and open the same seats, whoever took one: for every table, every
    seating of the people invited, every count of open seats and every choice of those taken (the save keeps no
    seats: the line is the one place they are said)."""
    import itertools

    import mille.cli
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import table
    from mille.players.bsd import BsdPlayer
    from mille.ui.people.host import _seated
    from mille.ui.people.seat import PersonSeat, open_seats, seat_people

    tab = table(seats)
    game = Game(rng=GlibcRandom(1), table=tab)
    others = range(1, seats)
    tried = 0
    for count in range(seats):
        for invited in itertools.combinations(others, count):
            placed = {seat: f"p{seat}" for seat in invited}
            left = seats - 1 - count
            for opened in [None, *range(1, left + 1)] if left else [0]:
                if seats == 2 and invited and opened != 0:
                    continue  # (the one other seat is invited)
                at = [] if opened == 0 else open_seats(placed, tab, opened)
                for taken in itertools.chain.from_iterable(itertools.combinations(at, k) for k in range(len(at) + 1)):
                    names = {0: "alice", **placed}
                    persons = [PersonSeat(s, 1000 + s, game, "alice", names, BsdPlayer()) for s in placed]
                    persons += [PersonSeat(s, None, game, "alice", names, BsdPlayer(), opened=True) for s in at]
                    for person in persons:
                        if person.seat in taken:
                            names[person.seat] = f"taker{person.seat}"  # (as PersonSeat.claim names its taker)
                    line = _seated(names, persons, seats)
                    parser = mille.cli.build_parser()
                    wanted = mille.cli._wanted(parser, parser.parse_args([*line.split(), "kept.json"]))
                    assert wanted.invited is not None, line
                    again = seat_people(wanted.invited, tab, "alice")
                    assert again == placed, (line, placed, taken)
                    reopened = [] if wanted.opened == 0 else open_seats(again, tab, wanted.opened)
                    assert sorted(reopened) == sorted(at), (line, at, taken)
                    tried += 1
                    for person in persons:
                        person.close()
    assert tried >= seats - 1


# ----------------------------------------------------------------------
# A guest's board and keys, on the in-memory terminal


def _guest(term: VirtualTerminal, obs: Observation, seats: int, names: dict[str, str] | None = None) -> object:
    """A guest's run on the board at ``obs``'s seat of ``seats`` (a link's far end the test holds): (run, host end)."""
    from mille.engine.state import table
    from mille.ui.people import link as people_link
    from mille.ui.people import messages
    from mille.ui.people.guest import GuestRun, board_face

    host_end, guest_end = people_link.pair()
    hello = messages.read_hello(
        messages.hello(
            "alice", "bob", obs.seat, table(seats), {0: "alice", **{int(k): v for k, v in (names or {}).items()}}
        )
    )
    return GuestRun(term, guest_end, hello, "mille --join alice", None, board_face(term)), host_end


class _Noting(VirtualTerminal):
    """The in-memory terminal, the screen noted at each key read (the question is on it then)."""

    def __init__(self, keys: list[int]) -> None:
        super().__init__(keys=keys)
        self.noted: list[str] = []

    def read_byte(self) -> int:
        self.noted.append("\n".join(self.lines()))
        return super().read_byte()


def _asked_on_the_board(
    obs: Observation, key: str, seats: int, names: dict[str, str] | None = None
) -> tuple[dict[str, object] | None, _Noting]:
    """A guest on the board at ``obs``'s seat of ``seats`` is asked (the host's ``decide``) and types ``key``.

    What reached the host, and the terminal (its screens noted at each key read).
    """
    from mille.ui.people import messages

    term = _Noting(keys=[ord(c) for c in key])
    run, host_end = _guest(term, obs, seats, names)
    try:
        run.handle(messages.decide(obs, obs.legal_moves(), 1))  # type: ignore[attr-defined]
        return host_end.wait_message(timeout=5), term  # type: ignore[attr-defined]
    finally:
        host_end.close()  # type: ignore[attr-defined]
        run.link.close()  # type: ignore[attr-defined]


def test_a_guest_is_told_a_refused_move_in_the_engines_words_and_aims_a_hazard_at_a_side() -> None:
    """bob at seat 2 of 3: ``D 2`` on a safety is refused from his own view; ``U 1 C`` sends the Stop to side C."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players import wire

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
    answer, term = _asked_on_the_board(obs, "d2\ru1\rc\r", 3, {"2": "carol"})
    assert answer is not None and answer["type"] == "move"
    assert wire.move_from_json_2(answer["move"], 3) == rules.Move(rules.MoveType.PLAY, 1, 2)
    text = "\n".join(term.lines())
    assert "Side B (yours): you" in text and "Side A: alice" in text and "Side C: carol" in text
    refused = rules.refusal_message(rules.discard_refusal(game, 1, 2) or 0, game, 1, 2)
    assert refused and any(refused in screen for screen in term.noted)
    assert any("side A/C?" in screen.splitlines()[22] for screen in term.noted)


def test_a_guest_on_the_original_board_is_told_a_refused_move_at_once_in_the_originals_words() -> None:
    """bob at seat 2 of 2: ``D 1`` before his pick says the original's ``must pick first`` on his board at once (not
    at the next score refresh, §8.5), and ``P`` is sent."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.players import wire

    game = Game(rng=GlibcRandom(4))
    rules.start_hand(game)
    game.to_move = 1
    obs = observe(game, 1)
    answer, term = _asked_on_the_board(obs, "d1\rp", 2)
    assert answer is not None and wire.move_from_json_2(answer["move"], 2) == rules.DRAW
    assert any("must pick first" in screen for screen in term.noted), term.noted[-1]


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


def _messages(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def room_for(game: Game, persons: list[object], host: str = "alice", **options: bool) -> object:
    """A room around ``game`` for unit tests: its door one end of a socket pair (nobody ever knocks there)."""
    from mille.ui.people.room import Room

    door, _spare = socket.socketpair()
    names = {0: host, **{p.seat: p.name for p in persons if getattr(p, "name", "")}}  # type: ignore[attr-defined]
    room = Room(door, game, host, os.getuid(), persons, names, "bsd", **options)  # type: ignore[arg-type]
    room._spare = _spare  # type: ignore[attr-defined]  # (kept open with the room)
    return room


@pytest.mark.parametrize(("seats", "seat"), [(2, 1), (4, 2)])
def test_only_the_invited_person_takes_their_seat_and_is_handed_only_its_view(seats: int, seat: int) -> None:
    """At the table's door: another user is refused before a byte is read when nothing there is for them (no seat
    open, no watchers), the host told; let in to watch, their knock for a seat is refused in one line; bob, named
    by the kernel, is seated and handed his seat's view alone."""
    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game, table
    from mille.players.bsd import BsdPlayer
    from mille.ui.people.room import Room
    from mille.ui.people.seat import PersonSeat

    with people(2) as [(bob, b_uid, b_gid), (eve, e_uid, e_gid)], readable_directory() as place:
        game = Game(table=table(seats), rng=GlibcRandom(9))
        rules.start_hand(game)
        path = os.path.join(place, "table.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        os.chmod(path, 0o666)
        listener.listen(4)
        names = {0: "alice", seat: bob}
        person = PersonSeat(seat, b_uid, game, "alice", names, BsdPlayer())
        room = Room(listener, game, "alice", os.getuid(), [person], names, "bsd", watchers=False)

        def serve(until: object) -> None:
            deadline = time.monotonic() + 10
            while not until():  # type: ignore[operator]
                assert time.monotonic() < deadline
                room.serve(0.1)

        def told() -> list[str]:
            room._refused_told = -1.0  # (a second gone by: refusals are told once a second at most)
            return room.take_notices()

        try:
            pid, fd = connect_in_child(e_uid, e_gid, path)
            serve(lambda: room._refused)
            assert person.link is None and child_read(pid, fd) == b""
            # (turned away unread: she may have wanted a listing, so she knocked, not tried to join)
            assert told() == [f"{eve} knocked and was turned away (only {bob} is invited there)"]

            room.allow_watchers = True  # eve may knock now: her knock for a seat is refused in one line
            pid, fd = connect_in_child(e_uid, e_gid, path, b'{"type":"knock","version":2,"want":"join"}\n')
            serve(lambda: room._refused)
            assert _messages(child_read(pid, fd)) == [
                {"type": "bye", "text": "no seat at alice's table is kept for you, and none is open"}
            ]
            assert told() == [f"{eve} tried to join and was refused (only {bob} is invited there)"]

            room.allow_watchers = False  # bob, who may knock, asks to watch a game that takes no watchers
            pid, fd = connect_in_child(b_uid, b_gid, path, b'{"type":"knock","version":2,"want":"watch"}\n')
            serve(lambda: room._refused)
            assert _messages(child_read(pid, fd)) == [{"type": "bye", "text": "alice takes no watchers at this game"}]
            assert told() == [f"{bob} tried to watch and was refused (no watchers at this game)"]

            pid, fd = connect_in_child(b_uid, b_gid, path, b'{"type":"knock","version":2,"want":"join"}\n')
            serve(lambda: person.link is not None)
            person.bye("the test is over")
            received = child_read(pid, fd)
        finally:
            room.close("over")
            listener.close()
    hello, view, bye = _messages(received)
    assert hello["type"] == "hello" and hello["seat"] == seat and hello["table"]["seats"] == seats  # type: ignore[index]
    assert hello["names"] == {"0": "alice", str(seat): bob}
    obs = view["obs"]
    assert view["type"] == "view" and isinstance(obs, dict) and obs["hand"] == game.players[seat].hand
    assert bye == {"type": "bye", "text": "the test is over"}
    text = received.decode()
    for other in range(seats):  # the others' hands, a partner's (seat 0 at 4 seats) included
        if other != seat:
            assert json.dumps(game.players[other].hand, separators=(",", ":")) not in text


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


@pytest.mark.parametrize("seats", [2, 4])
def test_a_move_the_host_refuses_is_answered_with_the_engines_words_and_asked_again(seats: int) -> None:
    """One rule at every table: the guest's refused move (a guest of another mille, or one that did not check) is
    answered ``error`` with the engine's words, the same the guest's own view gives, and asked again."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import table
    from mille.players.bsd import BsdPlayer
    from mille.ui.people import messages
    from mille.ui.people.seat import PersonSeat
    from mille.ui.people.view import public_view, refusal

    game = Game(table=table(seats), rng=GlibcRandom(3))
    rules.start_hand(game)
    game.to_move = 1
    obs = observe(game, 1)
    host_end, guest_end = people_link.pair()
    person = PersonSeat(1, os.getuid(), game, "alice", {0: "alice", 1: "bob"}, BsdPlayer())
    person.link = host_end
    try:
        guest_end.send(messages.move(rules.Move(rules.MoveType.DISCARD, 1), 1))  # before his pick: refused
        guest_end.send(messages.move(rules.DRAW, 2))  # the answer to the question asked again
        assert person.choose(obs, GlibcRandom(1)) == rules.DRAW
        said = [guest_end.wait_message(timeout=5) for _ in range(3)]
        words = rules.refusal_message(rules.Refusal.MUST_PICK, game, 1, 1)
        assert [m["type"] for m in said if m] == ["decide", "error", "decide"]
        assert said[1] == messages.error(words)
        assert refusal(public_view(obs, False), 1, rules.Move(rules.MoveType.DISCARD, 1), "alice") == words
    finally:
        person.close()
        guest_end.close()


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


def test_the_hosts_coup_fourre_question_is_never_told_to_the_others() -> None:
    """Being asked ``Coup fourre?`` out of turn says the host holds the safety (R10): the others hear nothing of it.

    ``Another hand?`` is told, as what they wait for; ``Extension?`` and ``Really?`` are not, as at two seats.
    """
    from mille.ui.flow import ANOTHER_HAND_PROMPT, COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT
    from mille.ui.people.host import People

    class Someone:
        def __init__(self) -> None:
            self.said: list[str] = []
            self.name, self.seat = "bob", 2

        def say(self, text: str) -> None:
            self.said.append(text)

    class Room:
        said: list[str] = []

        def say(self, text: str) -> None:
            self.said.append(text)

    bob = Someone()
    people = People([bob], "alice", Room())  # type: ignore[list-item, arg-type]
    for prompt in (COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT):
        people.relay(prompt)
    assert bob.said == []
    people.relay(ANOTHER_HAND_PROMPT)
    assert len(bob.said) == 1 and bob.said[0].startswith("alice: Another hand?")


def test_the_hosts_prompt_leaves_the_link_of_a_guest_who_decides_to_the_thread_that_asks_them(tmp_path: object) -> None:
    """The host's key loop (``Really?`` after ^C while the guest thinks) never reads a deciding guest's link.

    The guest's seat asks on the flow's worker, which alone reads their
    link while they decide; read by the host's prompt, their move was lost
    and the game hung (the race the larger tables had, ``link.heard_idle``).
    Here the move is on the link before the key: deterministic.
    """
    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.players.bsd import BsdPlayer
    from mille.ui.app import BoardFace
    from mille.ui.flow import GameFlow, Setup
    from mille.ui.people.host import HostBoardFace, People
    from mille.ui.people.seat import PersonSeat
    from mille.ui.surface import VirtualTerminal

    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    host_end, guest_end = people_link.pair()
    person = PersonSeat(1, os.getuid(), game, "alice", {0: "alice"}, BsdPlayer())
    try:
        term = VirtualTerminal(keys=[ord("n")])
        face = HostBoardFace(BoardFace(term, game, 0), People([person], "alice", room_for(game, [person])))  # type: ignore[arg-type]
        person.link = host_end
        person.deciding = True  # as PersonSeat.choose, on the worker, while it waits for the move
        GameFlow(face, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1)))
        move = {"type": "move", "move": wire.move_json_2(rules.DRAW)}
        guest_end.send(move)
        select.select([host_end], [], [], 5)
        assert face.inner.dialogs.readch() == ord("n")
        assert host_end.wait_message(timeout=5) == move  # still the worker's to read
        assert person.link is host_end and not person.take_notices()
    finally:
        person.close()
        host_end.close()
        guest_end.close()


def test_the_hosts_line_in_plain_mode_leaves_the_link_of_a_guest_who_decides_alone(tmp_path: object) -> None:
    """The same in lines: a line awaited by a plain host (``Really?`` after ^C) leaves a deciding guest's link."""
    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.players.bsd import BsdPlayer
    from mille.ui.flow import GameFlow, Setup
    from mille.ui.people.host import People
    from mille.ui.people.inlines import HostLinesFace, PeoplePlain
    from mille.ui.people.seat import PersonSeat
    from mille.ui.plain.lines import LineTerminal
    from mille.ui.plain.speaker import Naming

    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    host_end, guest_end = people_link.pair()
    lines, typed = os.pipe()
    said = os.open(os.devnull, os.O_WRONLY)
    person = PersonSeat(1, os.getuid(), game, "alice", {0: "alice"}, BsdPlayer())
    try:
        term = LineTerminal(lines, said)
        inner = PeoplePlain(term, game, 0, "brief", lambda: Naming.at(game.table, {1: "bob"}))
        face = HostLinesFace(inner, term, People([person], "alice", room_for(game, [person])))  # type: ignore[arg-type]
        person.link = host_end
        person.deciding = True  # as PersonSeat.choose, on the worker, while it waits for the move
        GameFlow(face, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1)))
        move = {"type": "move", "move": wire.move_json_2(rules.DRAW)}
        guest_end.send(move)
        select.select([host_end], [], [], 5)
        os.write(typed, b"n\n")
        assert term.read_line() == "n"
        assert host_end.wait_message(timeout=5) == move  # still the worker's to read
        assert person.link is host_end
    finally:
        person.close()
        host_end.close()
        guest_end.close()
        for fd in (lines, typed, said):
            os.close(fd)
