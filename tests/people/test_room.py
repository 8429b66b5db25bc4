"""The room around the table (issue 45), without users: the public view, the room's messages, the story, the talk's
limits, and what a watcher's link carries (docs/people.md, "The room").

The room is driven in this process (its door one end of a socket pair
nobody knocks at; the watchers' links socket pairs, their far ends read
as a watcher's process would read them), the game by the engine's driver
with the room's public hook, as the host's flow drives it.  The real users
and terminals are tests/people/test_people_room.py's.
"""

from __future__ import annotations

import json
import os
import random
import socket
import time

import pytest

from mille.engine import cards, rules
from mille.engine.driver import Event, play_hand
from mille.engine.observation import public_view
from mille.engine.rng import GlibcRandom
from mille.engine.rules import MoveType, Phase
from mille.engine.state import Game, table
from mille.players import wire
from mille.players.bsd import BsdPlayer
from mille.ui.people import messages
from mille.ui.people.link import Link, LinkClosed, pair
from mille.ui.people.messages import Entry, Knock, Listing, MessageError, Place
from mille.ui.people.narration import Story, move_text
from mille.ui.people.room import Pace, Room, clean_talk

# ----------------------------------------------------------------------
# The public view: what every seat sees, and nothing more


def _scrambled(game: Game, rng: random.Random) -> Game:
    """``game`` with every hidden card dealt otherwise: the hands' cards and the undrawn deck shuffled together, each
    hand keeping its size and its holes (what no seat can tell apart from the game)."""
    other = game.copy()
    hidden = [c for p in other.players for c in p.hand if c != cards.EMPTY] + other.deck[: other.deck_count]
    rng.shuffle(hidden)
    for p in other.players:
        p.hand = [cards.EMPTY if c == cards.EMPTY else hidden.pop() for c in p.hand]
    other.deck[: other.deck_count] = hidden
    return other


class _Watched:
    """The driver's observer as the host's flow is: the room told every move the table sees, then the table."""

    def __init__(self, room: Room, check: object) -> None:
        self.room = room
        self.inform = room.moved
        self.check = check

    def before_move(self, game: Game) -> None:
        pass

    def after_move(self, game: Game, seat: int, move: rules.Move, outcome: rules.Outcome) -> None:
        self.room.update()
        self.check(game)  # type: ignore[operator]


def _room(game: Game, **options: bool) -> Room:
    door, spare = socket.socketpair()
    room = Room(door, game, "alice", os.getuid(), [], {0: "alice"}, "bsd", delay=None, **options)
    room._spare = spare  # type: ignore[attr-defined]  # (kept open while the room is)
    return room


def _watcher(room: Room, since: int | None = None) -> Link:
    """A watcher let in: the room's end given to the room, the watcher's end returned (as its process reads it)."""
    theirs, mine = pair()
    room.answer_watch(theirs, os.getuid(), Knock("watch", since))
    return mine


def _read_all(link: Link) -> list[dict[str, object]]:
    """What has come on ``link`` (up to its end, if the other side closed it)."""
    got = []
    try:
        while (message := link.poll_message()) is not None:
            got.append(message)
    except LinkClosed:
        pass
    return got


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_watchers_bytes_hold_no_hidden_card_every_hidden_card_dealt_otherwise_gives_the_same_bytes(
    seats: int,
) -> None:
    """A logging watcher through whole hands: after every move the table it is sent is byte for byte the table of the
    same game with every hidden card dealt otherwise, and nothing it receives names a card of any hand."""
    shuffle = random.Random(seats)
    for seed in range(2):
        game = Game(rng=GlibcRandom(100 + seed), table=table(seats))
        rules.start_hand(game)
        room = _room(game)
        room.dealt = True
        watcher = _watcher(room)
        sent = [wire.encode(message) for message in _read_all(watcher)]

        def check(game: Game, watcher: Link = watcher, sent: list[bytes] = sent) -> None:
            for message in _read_all(watcher):
                sent.append(wire.encode(message))
                if message["type"] == "table":
                    for _ in range(3):
                        other = public_view(_scrambled(game, shuffle))
                        assert wire.encode(messages.table_view(wire.public_json(other))) == wire.encode(message)

        players = [BsdPlayer() for _ in range(seats)]
        dice = [GlibcRandom(seed * 10 + s) for s in range(seats)]
        play_hand(game, players, dice, observer=_Watched(room, check), strict=False)
        assert game.finished and len(sent) > 50
        kinds = {json.loads(line)["type"] for line in sent}
        assert kinds <= {"watching", "table", "moved", "news"}, kinds
        for line in sent:  # no hand in any message, and a move's card only once it is on the table or discarded
            message = json.loads(line)
            assert "hand" not in message and "hand" not in json.dumps(message.get("view", {})).replace("hand_", "")
            if message["type"] == "moved":
                assert message["kind"] in ("play", "discard", "draw", "extend", "no_extension", "pass")
                assert message["kind"] in ("play", "discard") or message["card"] == cards.EMPTY
        room.close("over")


def test_a_coup_fourre_asked_out_of_turn_is_hidden_from_the_watcher_as_from_the_other_seats() -> None:
    """Being asked says the seat holds the safety (R10): the watcher's table shows the turn going on, its phase a
    move; a coup fourré let pass is never told it (the driver tells the pass to the seat alone)."""
    game = Game(table=table(4), rng=GlibcRandom(4))
    rules.start_hand(game)
    game.to_move = 3
    rules.push(game, rules.DRAW)
    game.players[3].hand[1] = cards.STOP
    game.players[0].battle, game.players[0].can_go = cards.GO, True
    for seat in (0, 1, 3):
        game.players[seat].hand = [cards.GO if c == cards.RIGHT_OF_WAY else c for c in game.players[seat].hand]
    game.players[2].hand[3] = cards.RIGHT_OF_WAY
    rules.push(game, rules.Move(MoveType.PLAY, 1))
    assert rules.phase(game) is Phase.REACTION
    view = public_view(game)
    assert view.phase is Phase.MOVE and view.to_move == rules.seen_turn(game) != game.to_move
    assert public_view(_scrambled(game, random.Random(1))) == view

    room = _room(game)
    room.dealt = True
    watcher = _watcher(room)
    _read_all(watcher)
    told: list[Event] = []

    class Seat(BsdPlayer):
        def inform(self, event: Event) -> None:
            told.append(event)

    class Passes(Seat):
        def choose(self, obs: object, rng: GlibcRandom) -> rules.Move:
            return rules.PASS if rules.phase(game) is Phase.REACTION else super().choose(obs, rng)  # type: ignore[arg-type]

    players = [Seat(), Seat(), Passes(), Seat()]
    play_hand(game, players, [GlibcRandom(s) for s in range(4)], observer=_Watched(room, lambda g: None), strict=False)
    passes = [e for e in told if e.kind is MoveType.PASS and e.seat == 2]
    sent = _read_all(watcher)
    heard = [m for m in sent if m["type"] == "moved"]
    assert passes and not (heard[0]["kind"] == "pass" and heard[0]["seat"] == 2)
    for before, after in zip([{"type": "joined"}, *sent], sent):  # a table comes with its move, never alone: the pass
        assert after["type"] != "table" or before["type"] == "moved", sent  # changed nothing the table sees
    room.close("over")


def test_the_public_view_travels_checked() -> None:
    """Every number of a watcher's view is checked as a seat's is: one out of range is a one-line error."""
    game = Game(rng=GlibcRandom(2), table=table(3))
    rules.start_hand(game)
    data = json.loads(json.dumps(wire.public_json(public_view(game))))
    assert wire.public_from_json(data) == public_view(game)
    for field, value in (("deck_count", -4), ("to_move", 7), ("discard", 99), ("hand_sizes", [8, 6, 6])):
        with pytest.raises(wire.WireError):
            wire.public_from_json({**data, field: value})
    with pytest.raises(wire.WireError):
        wire.public_from_json({**data, "phase": "reaction"})  # (never the table's: R10)
    with pytest.raises(MessageError):
        messages.read({"type": "table", "view": data}, 4)  # a view of another table than the welcome's


# ----------------------------------------------------------------------
# The room's messages


def test_the_rooms_messages_round_trip_and_refuse_what_they_are_not() -> None:
    assert messages.read_knock(messages.knock("watch", 12)) == Knock("watch", 12)
    bad_knocks: list[dict[str, object]] = [
        {"type": "knock"},
        {"type": "knock", "version": 2, "want": "own"},
        {"type": "move", "version": 2},
        {"type": "knock", "version": 2, "want": "join", "since": -3},
        {**messages.knock("list"), "version": 1},
    ]
    for bad in bad_knocks:
        with pytest.raises(MessageError):
            messages.read_knock(bad)
    entry = Listing("alice", table(4), [Place(1, "host", "alice"), Place(2, "open")], 3, [1200, 800], 95, ["carol"],
                    True, False)  # fmt: skip
    assert messages.read_listing(json.loads(json.dumps(messages.listing(entry)))) == entry
    good = messages.listing(entry)
    for field, value in (("scores", [1, 2, 3]), ("places", [{"seat": 9, "kind": "host", "name": "x"}]), ("join", 1),
                         ("table", {"seats": 5}), ("running", -1), ("hand", "2"), ("resumed", 1)):  # fmt: skip
        with pytest.raises(MessageError):
            messages.read_listing({**good, field: value})
    earlier = {k: v for k, v in good.items() if k != "resumed"}  # (an earlier mille's listing: no "resumed")
    assert messages.read_listing(earlier) == entry and not entry.resumed
    event = Event(1, MoveType.PLAY, cards.STOP, 0)
    missed = messages.read(
        json.loads(json.dumps(messages.missed([Entry(4, "x", event), Entry(5, "y")], 2, True, 3))), 2
    )
    assert isinstance(missed, messages.Missed) and missed.entries == [Entry(4, "x", event), Entry(5, "y")]
    assert missed.complete and missed.hand == 3
    with pytest.raises(MessageError):
        messages.read({"type": "talk", "from": "bob", "text": "hi"}, 2)  # without its number
    assert messages.read_peer(messages.talk_line("x" * 1000)) == "x" * messages.MAX_TALK
    assert messages.read_peer(messages.leave()) == "" and messages.read_peer({"type": "talk", "text": 3}) is None


# ----------------------------------------------------------------------
# The story


def test_the_story_numbers_its_lines_and_tells_who_comes_back_what_they_missed() -> None:
    story = Story()
    for text in ("a", "b"):
        story.tell(text)
    story.new_hand()
    for text in ("c", "d", "e"):
        story.tell(text)
    assert [e.text for e in story.since(None)[0]] == ["c", "d", "e"]  # a watcher arriving: the hand so far
    assert [e.text for e in story.since(1)[0]] == ["b", "c", "d", "e"] and story.since(1)[1]
    assert story.since(5) == ([], True) and story.since(99)[0] == story.since(None)[0]  # (another run's number)
    story.new_hand()
    story.tell("f")
    entries, complete = story.since(1)  # the hand before the last is dropped: said so
    assert [e.text for e in entries] == ["c", "d", "e", "f"] and not complete


def test_a_move_is_told_in_words_nobodys_seat_colours() -> None:
    game = Game(rng=GlibcRandom(1), table=table(4))
    names = {0: "alice", 2: "bob"}
    assert (
        move_text(Event(2, MoveType.PLAY, cards.STOP, 1), game, names) == "bob (seat 3, side A) plays Stop on side B."
    )
    assert move_text(Event(1, MoveType.DISCARD, cards.GO), game, names) == "seat 2 (side B) discards Go."
    assert move_text(Event(1, MoveType.DRAW), game, names) is None
    two = Game(rng=GlibcRandom(1))
    assert move_text(Event(1, MoveType.PLAY, cards.MILES_75), two, {0: "alice"}) == "the computer plays 75 miles."


# ----------------------------------------------------------------------
# Talk: escaped, cut, limited in rate


def test_talk_is_escaped_and_cut_before_anyone_sees_it() -> None:
    assert clean_talk("\x1b]0;owned\x07 hi\x1b[2J  there\n") == "\\x1b]0;owned\\x07 hi\\x1b[2J there\\n"
    assert clean_talk("x" * 100_000) == "x" * messages.MAX_TALK
    assert clean_talk("   ") == ""
    assert "\x1b" not in clean_talk("".join(map(chr, range(32))) + "\u202e\x9b")


def test_talk_is_limited_in_rate_per_sender() -> None:
    pace = Pace()
    assert [pace.allow("bob", 100.0) for _ in range(5)] == [True, True, True, False, False]
    assert pace.allow("carol", 100.0)  # each sender their own
    assert not pace.allow("bob", 100.5) and pace.allow("bob", 101.1) and not pace.allow("bob", 101.2)
    assert pace.allow("bob", 200.0) and pace.allow("bob", 200.0)


def test_a_flooding_watcher_is_heard_three_lines_then_a_line_a_second_and_told_so_alone() -> None:
    """A watcher's flood of 200 lines of talk: the table hears three; the watcher alone is told why the rest was not
    sent; the room reads a round at a time (the game goes on between)."""
    game = Game(rng=GlibcRandom(3))
    room = _room(game)
    flooder, quiet = _watcher(room), _watcher(room)
    _read_all(flooder), _read_all(quiet)
    for n in range(200):
        flooder.send(messages.talk_line(f"line {n}"))
    flooder.flush()
    for _ in range(10):
        for watcher in list(room.watchers):
            room.from_watcher(watcher)
    heard = [m for m in _read_all(quiet) if m["type"] == "talk"]
    assert [m["text"] for m in heard] == ["line 0", "line 1", "line 2"]
    told = _read_all(flooder)
    assert sum(m["type"] == "say" and "too fast" in str(m["text"]) for m in told) >= 100
    assert [m["text"] for m in told if m["type"] == "talk"] == ["line 0", "line 1", "line 2"]
    assert room.take_notices()[-1].endswith("line 2")
    room.close("over")


def test_quiet_watchers_talk_among_themselves() -> None:
    from mille.players.bsd import BsdPlayer as Standin
    from mille.ui.people.seat import PersonSeat

    game = Game(rng=GlibcRandom(3))
    bob = PersonSeat(1, os.getuid(), game, "alice", {0: "alice"}, Standin())
    host_end, bob_end = pair()
    bob.link = host_end
    door, spare = socket.socketpair()
    room = Room(door, game, "alice", os.getuid(), [bob], {0: "alice", 1: bob.name}, "bsd", quiet=True, delay=None)
    one, two = _watcher(room), _watcher(room)
    room.talk(("watcher", 1), "carol", "psst", True, lambda why: None)
    room.talk("host", "alice", "hello all", False, lambda why: None)
    assert [m["text"] for m in _read_all(bob_end) if m["type"] == "talk"] == ["hello all"]
    for watcher in (one, two):
        assert [m["text"] for m in _read_all(watcher) if m["type"] == "talk"] == ["psst", "hello all"]
    assert room.take_notices()[-1:] == ["alice: hello all"]  # (the host hears no watcher's talk either)
    room.close("over")
    bob.close()
    spare.close()


# ----------------------------------------------------------------------
# A watcher never slows the table


def test_a_watcher_that_stops_reading_is_dropped_and_never_blocks_the_table() -> None:
    game = Game(rng=GlibcRandom(5), table=table(6))
    rules.start_hand(game)
    room = _room(game)
    room.dealt = True
    stuck, reading = _watcher(room), _watcher(room)
    start = time.monotonic()
    heard = []
    while len(room.watchers) == 2:
        room.say("x" * 1000)  # (the host's questions, a kilobyte each here): the stuck watcher's buffer fills
        room.woken()  # (the host's terminal hears the room's pipe: a watcher found gone)
        heard += _read_all(reading)
        assert time.monotonic() - start < 10
    assert len(room.watchers) == 1 and room.watchers[0].link is not None
    heard += _read_all(reading)
    assert any(m["type"] == "news" and "stopped watching" in str(m["text"]) for m in heard)
    with pytest.raises(LinkClosed):
        while True:
            stuck.wait_message(timeout=1)
    room.close("over")


# ----------------------------------------------------------------------
# A record of games against people


def test_the_record_counts_each_person_as_it_counts_each_computer_partners_as_partners(tmp_path: object) -> None:
    """A game at four seats with bob (partner) and carol (opponent): its hands and its end count in bob's column as a
    partner's and in carol's as an opponent's; a game at two seats against bob in his; an event whose ``people`` is
    not what it says makes the line damaged, as any bad field does."""
    from mille.files.ledger import _problem
    from mille.files.tally import format_table, summarize

    def event(kind: str, game: str, people: dict[str, str] | None, seats: int | None, **fields: object) -> dict:
        made: dict[str, object] = {"t": kind, "game": game, "computer": "person:x", **fields}
        if people is not None:
            made["people"] = people
        if seats is not None:
            made["seats"] = seats
        assert _problem(made) is None, made
        return made

    four = {"bob": "partner", "carol": "opponent"}
    events = [
        event("hand", "g1", four, 4, n=1, **{"for": 700, "against": 300}),
        event("hand", "g1", four, 4, n=2, **{"for": 100, "against": 900}),
        event("game", "g1", four, 4, result="won", hands=2, hints=0, **{"for": 5100, "against": 4200}),
        event("hand", "g2", {"bob": "opponent"}, None, n=1, **{"for": 400, "against": 500}),
        event("save", "g2", {"bob": "opponent"}, None, key="k", hands=1, hints=0),
        event("hand", "g3", None, None, n=1, computer="bsd", **{"for": 50, "against": 20}),
    ]
    summary = summarize(events)
    assert set(summary) == {"bsd", "person:bob", "partner:bob (4 seats)", "person:carol (4 seats)"}
    with_bob, carol = summary["partner:bob (4 seats)"], summary["person:carol (4 seats)"]
    assert with_bob["games_won"] == carol["games_won"] == 1 and with_bob["hands_played"] == carol["hands_played"] == 2
    assert carol["points_for"] == 800 and carol["points_against"] == 1200 and carol["best_margin"] == 900
    assert summary["person:bob"]["hands_played"] == 1 and summary["person:bob"]["saved_unfinished"] == 1
    assert "partner:bob (4 seats)" in format_table(summary, "stats.jsonl")
    for bad in ({"bob": "rival"}, ["bob"], {"\x1b[2J": "opponent"}, {f"p{n}": "opponent" for n in range(6)}):
        assert _problem({**events[0], "people": bad}) == '"hand" event with a bad "people"'


# ----------------------------------------------------------------------
# Alone against the computer, nothing of the room


def test_alone_t_and_m_are_the_originals_unknown_commands_on_both_boards() -> None:
    """The original's keymap leaves ``T`` and ``M`` free: alone they say ``unknown command``, as it did; with people
    (the flow's ``talks``) they are a line of talk and the table's story."""
    from helpers.ui import setup, vt_replay
    from mille.ui.flow import Request
    from mille.ui.tableboard import TableBoardFace, table_flow

    unknown, _, _ = vt_replay(7, ["z", "p"])  # any unknown key: its message shows at the next refresh (§8.5)
    for key in ("t", "m"):
        snaps, flow, _ = vt_replay(7, [key, "p"])
        assert "\n".join(snaps[-1]["screen"]) == "\n".join(unknown[-1]["screen"]).replace("Z", key.upper())
        assert f"unknown command: {key.upper()}" in "\n".join(snaps[-1]["screen"])
        assert not flow.talks
    from mille.ui.surface import VirtualTerminal

    game = Game(rng=GlibcRandom(7), table=table(4))
    rules.start_hand(game)
    term = VirtualTerminal(keys=[ord("t")])
    flow = table_flow(term, game, setup(BsdPlayer(), "bsd", GlibcRandom(1)))
    board = flow.face
    assert isinstance(board, TableBoardFace)
    board.draw()
    with pytest.raises(Exception):  # noqa: B017  (the keys run out after T: the error said first)
        board.read_move()
    assert "unknown command: T" in "\n".join(term.lines())
    flow.talks = True
    term.keys[:] = [ord("t")]
    assert board.read_move() is Request.TALK


# ----------------------------------------------------------------------
# Open seats


def test_an_open_seat_taken_in_a_hand_is_the_takers_at_the_next_and_open_again_when_they_leave_on_purpose() -> None:
    """Someone who takes an open seat while a hand is in play is told it is theirs at the next deal, and sits then
    (the table told); a seat kept for someone else is never given; the taker who leaves on purpose opens it again."""
    from mille.ui.people.seat import PersonSeat

    game = Game(rng=GlibcRandom(8), table=table(3))
    rules.start_hand(game)
    names = {0: "alice"}
    seat = PersonSeat(2, None, game, "alice", names, BsdPlayer(), opened=True)
    kept = PersonSeat(1, 12345, game, "alice", names, BsdPlayer())  # (a user who is not us: invited, not come)
    door, spare = socket.socketpair()
    room = Room(door, game, "alice", 54321, [kept, seat], names, "bsd", delay=None)
    room.dealt = True
    assert room.free_seat() is seat and room.may_join(os.getuid())

    theirs, taker = pair()
    room.answer_join(theirs, os.getuid(), Knock("join"))
    said = _read_all(taker)
    assert said == [{"type": "say", "text": "seat 3 is yours when the next hand is dealt"}], said
    assert seat.uid is None and room.free_seat() is None  # held for them: nobody else's now
    other, stranger = pair()
    room.answer_join(other, 4242, Knock("join"))
    assert _read_all(stranger)[0]["type"] == "bye"  # neither the kept seat nor the held one

    rules.start_hand(game)
    room.hand_begins()
    got = _read_all(taker)
    assert [m["type"] for m in got[:2]] == ["hello", "view"] and got[0]["seat"] == 2, got
    assert seat.uid == os.getuid() and seat.link is not None and names[2] == seat.name
    assert any("took seat 3" in text for text in room.take_notices())

    taker.send(messages.leave())  # Q, Really? yes: leaving on purpose
    taker.close()
    assert seat.link is not None
    with pytest.raises(LinkClosed):
        for _ in range(100):
            room.idle(seat, seat.link)  # (the host hears the link: the leave, then its end)
    seat.dropped("the connection closed")
    assert seat.uid is None and room.free_seat() is seat and 2 not in names
    assert any("it is open again" in text for text in seat.take_notices())
    room.close("over")
    spare.close()


# ----------------------------------------------------------------------
# The listing


def test_the_listing_says_the_games_own_hand_and_a_resumed_games_hands_since() -> None:
    """``hand N`` is the game's hand: another game with the same table counts from one again (it went on counting
    the sitting's hands); a game resumed from a file, whose earlier hands no save counts, says its hands since."""
    from mille.ui.people.lobby import describe

    def said(room: Room) -> str:
        listed = messages.read_listing(json.loads(json.dumps(messages.listing(room.listing(4242)))))
        return describe(listed)[0]

    for restored in (False, True):
        game = Game(rng=GlibcRandom(9))
        room = _room(game)
        assert "waiting to start" in said(room)
        rules.start_hand(game)
        room.hand_begins(restored)
        game.players[0].total, game.players[1].total = 700, 300  # (the first hand played)
        rules.start_hand(game)
        room.hand_begins()
        first = "hand 2 since it was resumed," if restored else "hand 2,"
        assert f"2 seats, {first}" in said(room), said(room)
        for player in game.players:  # another game: the totals at nothing again
            player.total = 0
        rules.start_hand(game)
        room.hand_begins()
        assert "2 seats, hand 1, " in said(room), said(room)
        assert any("starts another game" in text for text in room.take_notices())
        room.close("over")


# ----------------------------------------------------------------------
# The door


def test_a_line_sent_in_the_same_write_as_the_knock_is_heard_at_once() -> None:
    """bob knocks and says a line in one write (a mille that talks as soon as it is in): the door reads both, and
    the line is told to the table at once, not when bob next sends something (the terminal hears the socket, and the
    line was read from it with the knock)."""
    import tempfile

    from mille.ui.people.seat import PersonSeat

    game = Game(rng=GlibcRandom(4))
    rules.start_hand(game)
    names = {0: "alice"}
    bob = PersonSeat(1, os.getuid(), game, "alice", names, BsdPlayer())
    with tempfile.TemporaryDirectory() as place:
        door = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        door.bind(os.path.join(place, "table.sock"))
        door.listen(4)
        room = Room(door, game, "alice", 54321, [bob], names, "bsd", delay=None)
        room.dealt = True
        knock = messages.knock("join", None)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as guest:
            guest.connect(os.path.join(place, "table.sock"))
            guest.sendall(wire.encode(knock) + wire.encode(messages.talk_line("hello from the door")))
            room.door()
            [fd] = room.knocking
            room.knocked(fd)
            assert bob.link is not None
            assert f"{bob.name}: hello from the door" in room.take_notices()
            got = Link(guest.dup())
            told = []
            while (message := got.wait_message(timeout=5)) is not None and message["type"] != "talk":
                told.append(message["type"])
            assert message is not None and message["text"] == "hello from the door", told
            got.close()
        room.close("over")
        bob.close()
        door.close()
