"""Plain mode's one speaker (``mille.ui.plain.speaker``) at every table, for every seat, under every naming policy.

* the speaker at every seat (``me``) of the tables of 3, 4 and 6: every
  seat and side in the host's numbering, the listener "you", partners and
  the others named with their seats and sides, the board, the score and
  the welcome from that seat;
* people named where a pronoun was ("bob needs Go to start", never "It
  needs ..."), at two seats and at the larger tables, whatever a name
  holds (a name is never read as a pattern or a seat);
* the host in lines at two seats, naming the guest, and the computer's
  own words while it stands in for them;
* a guest in lines at seat 3 of 4 (and at seat 2 of 3) hearing the host's
  numbering, as every board counts the seats, and the hazard they aim
  sent to the side they named.
"""

from __future__ import annotations

import os
import types

import pytest

from mille.engine import rules
from mille.engine.cards import (
    ACCIDENT,
    EMPTY,
    END_OF_LIMIT,
    EXTRA_TANK,
    GO,
    HAND_SIZE,
    MILES_75,
    SPEED_LIMIT,
    STOP,
)
from mille.engine.driver import Event
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, MoveType
from mille.engine.state import Game, table
from mille.files.safeio import shown
from mille.players import wire
from mille.players.bsd import BsdPlayer
from mille.ui.people.guest import GuestRun
from mille.ui.people.link import Link, pair
from mille.ui.plain.app import PlainFace
from mille.ui.plain.commands import parse
from mille.ui.plain.lines import LineTerminal
from mille.ui.plain.speaker import Naming, Speaker

LETTERS = "ABC"


def dealt(seats: int, seed: int = 7) -> Game:
    game = rules.new_game(seed, table(seats))
    rules.start_hand(game)
    return game


def rolling(game: Game, side: int, mileage: int = 0) -> None:
    pp = game.players[side]
    pp.battle, pp.can_go, pp.mileage = GO, True, mileage


def played(speaker: Speaker, game: Game, seat: int, card: int, target: int | None = None) -> str:
    """``seat`` plays ``card`` (put in its slot 1, a card picked) through the engine; the sentence said for it."""
    hand = game.players[seat].hand
    hand[1], hand[0] = card, MILES_75
    game.to_move, game.reaction = seat, None
    side = game.table.side(seat)
    before = game.players[side].copy()
    outcome = rules.push(game, Move(MoveType.PLAY, 1, target))
    assert outcome.error is None, outcome.error
    return speaker.play_sentence(game, seat, card, before, target)


class Heard(LineTerminal):
    """A terminal of lines whose lines are kept (escaped, as a terminal gets them); input from ``fd_in``."""

    def __init__(self, fd_in: int) -> None:
        super().__init__(fd_in, -1)
        self.out: list[str] = []

    def write_line(self, text: str) -> None:
        self.out.append(shown(text))


# --------------------------------------------------------------------------
# The speaker at every seat of the larger tables


def expected_who(game: Game, me: int, seat: int) -> str:
    tab = game.table
    if seat == me:
        return "you"
    if tab.side(seat) == tab.side(me):
        return f"your partner (seat {seat + 1})"
    return f"seat {seat + 1} (side {LETTERS[tab.side(seat)]})"


@pytest.mark.parametrize(("seats", "me"), [(n, me) for n in (3, 4, 6) for me in range(n)])
def test_the_speaker_at_every_seat_of_the_larger_tables_keeps_the_hosts_numbering(seats: int, me: int) -> None:
    game = dealt(seats)
    tab = game.table
    speaker = Speaker(Naming.at(tab), me)
    mine = tab.side(me)
    for seat in range(seats):
        assert speaker.who(game, seat) == expected_who(game, me, seat)
    # The welcome: this seat and its side, and a hazard aimed at another side.
    aim = LETTERS[(mine + 1) % tab.sides]
    assert f"in lines: you are seat {me + 1}, on side {LETTERS[mine]}. " in speaker.welcome(game, "brief")
    assert f"; u 3 {aim.lower()} plays a hazard on side {aim};" in speaker.welcome(game, "brief")
    # The board: the sides yours first, each with its seats in the host's numbering; every hand; your hand.
    board = speaker.board_lines(game)
    assert len(board) == 1 + tab.sides + 2
    order = [(mine + k) % tab.sides for k in range(tab.sides)]
    for line, side in zip(board[1:], order):
        members = list(tab.partners(side))
        if side == mine:
            named = ["you"] + [f"your partner (seat {s + 1})" for s in members if s != me]
            assert line.startswith(f"Side {LETTERS[side]} (yours), {' and '.join(named)}: 0 miles of {tab.trip}.")
        else:
            named = [f"seat {s + 1}" for s in members]
            assert line.startswith(f"Side {LETTERS[side]}, {' and '.join(named)}: 0 miles of {tab.trip}.")
    hands = board[-2]
    counted = [f"{expected_who(game, me, (me + k) % seats)} " for k in range(seats)]
    assert hands.startswith("Cards in hand: " + counted[0]) and all(c in hands for c in counted), hands
    mover = expected_who(game, me, game.to_move)
    turn = "It is your turn." if game.to_move == me else f"{mover[0].upper()}{mover[1:]} moves next."
    assert hands.endswith(". " + turn), hands
    assert board[-1] == speaker.hand_line(game) and board[-1].startswith("Your hand: ")
    assert speaker.hand_line(game).count(": ") == HAND_SIZE + 1
    # The score and the turn line: the sides' figures, yours first.
    columns = ", ".join(f"side {LETTERS[side]} 0" for side in order)
    assert speaker.score_lines(game)[0] == f"Milestones Played: {columns}."
    assert speaker.turn_line(game).startswith(f"Your turn. Miles: {columns}. Overall: {columns}.")


@pytest.mark.parametrize(("seats", "me"), [(n, me) for n in (3, 4, 6) for me in range(n)])
def test_every_seats_move_said_to_every_seat_in_the_hosts_numbering(seats: int, me: int) -> None:
    speaker = Speaker(Naming.at(table(seats)), me)
    for seat in range(seats):
        game = dealt(seats)
        tab = game.table
        side = tab.side(seat)
        target = (side + 1) % tab.sides
        for other in range(tab.sides):
            rolling(game, other)
        who = expected_who(game, me, seat)
        mover = who[0].upper() + who[1:]
        plays = "play" if seat == me else "plays"
        letter = LETTERS[side]
        assert played(speaker, game, seat, MILES_75) == f"{mover} {plays} 75 miles: side {letter} is at 75 miles."
        aimed = target if tab.sides > 2 else None
        on = f"side {LETTERS[target]}" + (" (yours)" if target == tab.side(me) else "")
        assert played(speaker, game, seat, STOP, aimed) == f"{mover} {plays} Stop on {on}: it is stopped and needs Go."
        assert played(speaker, game, seat, SPEED_LIMIT, aimed) == (
            f"{mover} {plays} Speed Limit on {on}: it may play 50 miles a card at most, until it plays End of Limit."
        )
        game.players[side].speed = SPEED_LIMIT
        assert played(speaker, game, seat, END_OF_LIMIT) == (
            f"{mover} {plays} End of Limit: side {letter}'s speed limit is over."
        )
        assert played(speaker, game, seat, EXTRA_TANK) == (
            f"{mover} {plays} Extra Tank: side {letter} is safe from Out of Gas for the rest of the hand; "
            f"100 points. {mover} {plays} again."
        )
        assert speaker.discard_sentence(game, seat, GO) == f"{mover} {'discard' if seat == me else 'discards'} Go."
        after = expected_who(game, me, (seat + 1) % seats)
        has = "have" if seat == me else "has"
        assert speaker.pass_sentence(game, seat) == f"{mover} {has} no cards; the turn passes to {after}."


def test_the_end_of_a_hand_at_the_larger_tables_gives_reasons_and_the_winner() -> None:
    game = dealt(4)
    speaker = Speaker(Naming.at(game.table), 1)  # seat 2, side B
    game.players[1].mileage, game.players[1].safety_score, game.players[1].total = 1000, 100, 5200
    game.players[0].total = 3000
    game.finished = True
    lines = speaker.hand_over_lines(game, brief=True)
    assert lines[0] == "The hand is over: side B (yours) completed the trip of 1000 miles."
    assert "Each Safety: side B 100, side A 0 (side B played 1 safety)." in lines
    assert "Shut-Out: side B 500, side A 0 (side A had no miles)." in lines
    assert lines[-1] == "The game is over: side B (yours) wins it, 5200 to 3000."


# --------------------------------------------------------------------------
# People by name, never a pronoun


def test_a_person_is_named_where_a_pronoun_stood_at_two_seats() -> None:
    game = dealt(2)
    bob = Speaker(Naming.at(game.table, {1: "bob"}))
    game.players[1].battle, game.players[1].can_go = EMPTY, False
    assert bob.side_line(game, 1).endswith("Safeties: none. bob needs Go to start.")
    assert bob.side_line(game, 1).startswith("bob: 0 miles of 700.")
    rolling(game, 1)
    assert (
        played(bob, game, 0, ACCIDENT)
        == "You play Accident on bob: bob has had an accident and needs Repairs, then Go."
    )
    assert played(bob, game, 0, SPEED_LIMIT) == (
        "You play Speed Limit on bob: bob may play 50 miles a card at most, until bob plays End of Limit."
    )
    assert played(bob, game, 1, END_OF_LIMIT) == "bob plays End of Limit: bob's speed limit is over."
    assert played(bob, game, 1, EXTRA_TANK) == (
        "bob plays Extra Tank: bob is safe from Out of Gas for the rest of the hand; 100 points. bob plays again."
    )
    rolling(game, 1)
    assert played(bob, game, 1, MILES_75) == "bob plays 75 miles and is at 75 miles."
    assert bob.score_lines(game)[0] == "Milestones Played: you 0, bob 75."
    game.to_move = 1
    assert bob.whose_move(game) == "It is bob's move."
    assert bob.new_hand_line(game) == "New hand: the trip is 700 miles, and bob starts."
    assert bob.welcome(game, "brief").startswith("mille, Mille Bornes against bob, in lines. ")
    assert bob.new_game_line(game) == "A new game: the totals start again at 0. Games won: you 0, bob 0."
    # A name is said as it is given: never a pattern, never taken for "the computer" or a seat.
    for odd in (shown("e\x1b[2Jve\\1"), "the computer", "seat 4", "It"):
        named = Speaker(Naming.at(game.table, {1: odd}))
        assert named.discard_sentence(game, 1, GO) == f"{odd} discards Go."
        assert named.whose_move(game) == f"It is {odd}'s move."


def test_people_named_with_their_seats_and_sides_at_the_larger_tables() -> None:
    game = dealt(4)
    for side in (0, 1):
        rolling(game, side)
    host = Speaker(Naming.at(game.table, {1: "bob", 2: "carol"}))
    assert (
        played(host, game, 1, STOP) == "bob (seat 2, side B) plays Stop on side A (yours): it is stopped and needs Go."
    )
    rolling(game, 0)
    assert played(host, game, 2, MILES_75) == "Your partner carol (seat 3) plays 75 miles: side A is at 75 miles."
    board = host.board_lines(game)
    assert board[1].startswith("Side A (yours), you and your partner carol (seat 3): ")
    assert board[2].startswith("Side B, bob (seat 2) and seat 4: ")
    assert board[3].startswith("Cards in hand: you ") and ", bob (seat 2, side B) " in board[3]
    assert host.welcome(game, "brief").startswith(
        "mille, Mille Bornes at 4 seats, 2 sides of 2, in lines: you are seat 1, on side A. "
    )
    # A name that looks like a seat is never taken for one.
    odd = Speaker(Naming.at(game.table, {1: "bob", 2: "seat 4"}))
    assert odd.discard_sentence(game, 2, GO) == "Your partner seat 4 (seat 3) discards Go."
    assert odd.board_lines(game)[2].startswith("Side B, bob (seat 2) and seat 4: ")
    # bob's own lines (seat 2): alice by name as seat 1, carol as seat 3 of side A; his partner the computer at 4.
    guest = Speaker(Naming.at(game.table, {0: "alice", 2: "carol"}), 1)
    assert guest.who(game, 0) == "alice (seat 1, side A)" and guest.who(game, 3) == "your partner (seat 4)"
    assert guest.board_lines(game)[1].startswith("Side B (yours), you and your partner (seat 4): ")
    assert guest.board_lines(game)[2].startswith("Side A, alice (seat 1) and carol (seat 3): ")


def test_the_host_in_lines_names_the_guest_and_the_computer_standing_in_by_its_own_words() -> None:
    from mille.ui.people.inlines import PeoplePlain, naming

    game = dealt(2)
    game.players[1].battle, game.players[1].can_go = EMPTY, False
    r, w = os.pipe()
    try:
        term = Heard(r)
        remote = types.SimpleNamespace(name="bob\x1b", seat=1, standing_in=False)
        people = types.SimpleNamespace(persons=[remote])
        face = PeoplePlain(term, game, 0, "brief", naming(people, game.table))  # type: ignore[arg-type]
        face._query(parse("r"))
        assert term.out[2] == (
            "bob\\x1b: 0 miles of 700. Battle pile: empty. Speed pile: empty. Safeties: none. "
            "bob\\x1b needs Go to start."
        )
        remote.standing_in = True
        face._query(parse("w"))
        assert term.out[-7] == "Milestones Played: you 0, computer 0."
    finally:
        os.close(r)
        os.close(w)


# --------------------------------------------------------------------------
# A guest in lines hears the host's numbering


def _moved(game: Game, seat: int, move: Move) -> dict[str, object]:
    """The host's ``moved`` message for ``move`` (about to be made by ``seat``): what every seat sees of it."""
    kind = move.kind
    card = game.players[seat].hand[move.slot] if kind in (MoveType.PLAY, MoveType.DISCARD) else EMPTY
    target = None
    if kind is MoveType.PLAY and (ACCIDENT - 2 <= card <= STOP or card == SPEED_LIMIT):
        target = move.target if move.target is not None else (game.table.side(seat) + 1) % game.table.sides
    event = Event(seat, kind, card, target)
    return {**wire.read_message(wire.event_line_2(event, game.table.sides)), "type": "moved"}


def _view(game: Game, seat: int) -> dict[str, object]:
    return {"type": "view", "obs": wire.observation_json_2(observe(game, seat)), "finished": game.finished}


def _guest_in_lines(term: Heard, link: Link, seat: int, seats: int, detail: str) -> GuestRun:
    """A guest's run in lines at ``seat`` of ``seats`` (alice hosting), on ``term``."""
    from mille.engine.state import table
    from mille.ui.people import messages
    from mille.ui.people.inlines import guest_in_lines

    hello = messages.read_hello(messages.hello("alice", "bob", seat, table(seats), {0: "alice", seat: "bob"}))
    return GuestRun(term, link, hello, "mille --join alice", None, guest_in_lines(detail)(term))


def test_a_guest_in_lines_at_seat_3_of_4_hears_the_hosts_numbering() -> None:
    game = dealt(4, seed=12)
    host_end, guest_end = pair()
    r, w = os.pipe()
    try:
        term = Heard(r)
        guest = _guest_in_lines(term, guest_end, 2, 4, "full")
        guest.handle(_view(game, 2))
        said = term.out
        assert said[0].startswith("mille, Mille Bornes at 4 seats, 2 sides of 2, in lines: you are seat 3, on side A.")
        assert any(line.startswith("Side A (yours), you and your partner alice (seat 1): ") for line in said), said
        assert any(line.startswith("Side B, seat 2 and seat 4: ") for line in said), said
        hands = next(line for line in said if line.startswith("Cards in hand: "))
        assert hands.startswith("Cards in hand: you 6, seat 4 (side B) 6, your partner alice (seat 1) ")
        # The others' moves, until it is the guest's turn: each names its seat as the host's game numbers it.
        players, dice = BsdPlayer(), GlibcRandom(3)
        start = len(said)
        while game.to_move != 2:
            seat = game.to_move
            move = players.choose(observe(game, seat), dice)
            message = _moved(game, seat, move)
            assert rules.push(game, move).error is None
            guest.handle(message)
            guest.handle(_view(game, seat))
        events = said[start:]
        assert events and not any("seat 3" in line.lower() or "you are seat 1" in line for line in events), events
        names = ("Your partner alice (seat 1) ", "Seat 2 (side B) ", "Seat 4 (side B) ", "alice is thinking...")
        assert all(line.startswith(names) for line in events), events
        assert any(line.startswith("Seat 2 (side B) ") for line in events), events
    finally:
        for fd in (r, w):
            os.close(fd)
        host_end.close()
        guest_end.close()


def test_a_guest_in_lines_at_seat_2_of_3_aims_a_hazard_at_the_side_they_name() -> None:
    """``u 1 a``: Stop on side A, the host's, sent as the host's game numbers the sides (never turned)."""
    game = dealt(3, seed=5)
    for side in range(3):
        rolling(game, side)
    game.to_move = 1
    hand = game.players[1].hand
    hand[0], hand[1] = MILES_75, STOP  # picked: a Stop in slot 1
    host_end, guest_end = pair()
    r, w = os.pipe()
    try:
        os.write(w, b"u 1 a\n")
        term = Heard(r)
        guest = _guest_in_lines(term, guest_end, 1, 3, "brief")
        guest.handle(_view(game, 1))
        assert "you are seat 2, on side B." in term.out[0]
        obs = observe(game, 1)
        guest.handle(
            {
                "type": "decide",
                "ask": 1,
                "obs": wire.observation_json_2(obs),
                "legal": [wire.move_json_2(m) for m in obs.legal_moves()],
            }
        )
        sent = host_end.wait_message(timeout=5)
        assert sent is not None and sent["type"] == "move"
        assert wire.move_from_json_2(sent["move"], 3) == Move(MoveType.PLAY, 1, 0)
    finally:
        for fd in (r, w):
            os.close(fd)
        host_end.close()
        guest_end.close()


def test_a_plain_face_speaks_for_its_own_seat() -> None:
    """A :class:`PlainFace` with ``me`` reads that seat's hand and says its pick as "You pick"."""
    game = dealt(6)
    r, w = os.pipe()
    try:
        term = Heard(r)
        face = PlainFace(term, game, 0, me=4)
        face._query(parse("c"))
        assert term.out[-1] == Speaker(Naming.at(game.table), 4).hand_line(game)
        cards = [c for c in game.players[4].hand if c != EMPTY]
        assert term.out[-1].count("empty") == HAND_SIZE - len(cards)
    finally:
        os.close(r)
        os.close(w)
