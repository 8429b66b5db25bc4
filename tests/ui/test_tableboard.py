"""The board for 3, 4 and 6 seats (``mille --players N``): drawn on the in-memory terminal and in a real pty.

The two-seat board is the original's and its golden tests guard it; these
check the larger tables' board: every side's box, the table and the turn,
your hand, inside 80x24; the keys (``P``, ``D`` and a slot, ``U`` and a
slot and a side); a real terminal at 80x24, and the too-small message below.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from helpers import ui as H
from mille.engine import cards, rules, scoring
from mille.engine.driver import Event, play_hand
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.players import wire
from mille.players.bsd import BsdPlayer
from mille.players.expert import ExpertPlayer, Level
from mille.ui import layout
from mille.ui.flow import COUP_PROMPT, GameExit, GameFlow, Setup
from mille.ui.hints import Adviser
from mille.ui.layout import ScoreView
from mille.ui.people import link as people_link
from mille.ui.people import messages
from mille.ui.people.guest import GuestRun, board_face
from mille.ui.people.link import Link
from mille.ui.surface import INTERRUPT, VirtualTerminal
from mille.ui.tableboard import TableBoardFace, key_line, key_list, move_line, score_lines, side_box, table_flow


def _dealt(seats: int, seed: int = 6) -> Game:
    game = Game(table=table(seats), rng=GlibcRandom(seed))
    rules.start_hand(game)
    return game


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_every_side_the_table_and_your_hand_fit_80x24(seats: int) -> None:
    game = _dealt(seats)
    term = VirtualTerminal()
    face = TableBoardFace(term, game)
    face.draw()
    lines = term.lines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    text = "\n".join(lines)
    sides = game.table.sides
    for side in range(sides):
        assert f"Side {'ABC'[side]}" in text
        for line in side_box(game, side):
            assert len(line) <= 39
    assert f"Mille Bornes, {seats} seats" in text and "Turn: you (side A)" in text
    assert f"Trip {game.trip_length}" in text and "Deck " in text
    assert lines[17].startswith("Your hand  P: -  1: ")
    assert all(f"{slot}: " in lines[17] + lines[18] for slot in range(1, 7))
    cards_lines = [line for line in lines if " Cards: " in line]
    held = [m for line in cards_lines for m in re.findall(r"(you|seat \d) (\d)", line)]
    assert len(held) == seats and all(n == "6" for _, n in held)  # every seat's six cards, in its side's box


def test_keys_pick_discard_and_a_hazard_on_a_chosen_side() -> None:
    """At three seats: ``P``, ``D 1``, and a hazard played with ``U``, its slot and a side's letter."""
    game = _dealt(3, seed=2)
    # a Stop in your slot 1, and both other sides rolling: either can take it
    for side in (1, 2):
        game.players[side].battle = cards.GO
        game.players[side].can_go = True
    game.players[0].hand[1] = cards.STOP
    term = VirtualTerminal(keys=[ord(c) for c in "pu1\rc\r"])
    setup = Setup(BsdPlayer(), "bsd", GlibcRandom(1), others=((BsdPlayer(), GlibcRandom(2)),))
    flow = table_flow(term, game, setup)
    face = flow.face
    assert isinstance(face, TableBoardFace)
    face.draw()
    assert flow.read_move() == rules.DRAW
    rules.push(game, rules.DRAW)
    move = flow.read_move()
    assert (move.kind, move.slot, move.target) == (rules.MoveType.PLAY, 1, 2)
    assert "side B/C?" in term.lines()[22]


def test_the_board_in_a_real_terminal_and_refused_when_small() -> None:
    with H.Pty([*H.mille_argv("--players", "4", "--seed", "7"), "--no-stats"]) as p:
        assert p.wait_for(lambda q: "Mille Bornes, 4 seats" in q.text() and ">>:Move:" in q.text(), timeout=30), (
            p.text()
        )
        text = p.text()
        assert "Side A (yours): you, seat 3" in text and "Side B: seat 2, seat 4" in text
        assert "Deck  82 cards" in text  # 106 less six to each of four
        p.send("p")
        assert p.wait_for(lambda q: "Deck  81 cards" in q.text(), timeout=10), p.text()
        p.send("q")
        assert p.wait_for(lambda q: "Really?" in q.text(), timeout=10), p.text()
        p.send("y")
        assert p.wait_exit() == 0, p.text()
    with H.Pty([*H.mille_argv("--players", "6", "--seed", "7"), "--no-stats"], rows=20, cols=60) as p:
        assert p.wait_for(lambda q: "at least 80x23" in "\n".join(q.lines()), timeout=30), p.text()
        p.resize(24, 80)
        assert p.wait_for(lambda q: "Mille Bornes, 6 seats" in q.text(), timeout=10), p.text()
        p.send("q")
        assert p.wait_for(lambda q: "Really?" in q.text(), timeout=10), p.text()
        p.send("y")
        assert p.wait_exit() == 0, p.text()


def test_a_question_answered_leaves_the_prompt_line_asking_nothing() -> None:
    """``Coup fourre?`` answered out of turn is gone from the prompt line (else it reads as still asked meanwhile).

    ``Really?`` asked at the move prompt gives the move prompt back.
    """
    game = _dealt(4)
    term = VirtualTerminal(keys=[ord("n"), INTERRUPT, ord("n"), ord("p")])
    setup = Setup(BsdPlayer(), "bsd", GlibcRandom(1), others=((BsdPlayer(), GlibcRandom(2)),) * 3)
    flow = table_flow(term, game, setup)
    face = flow.face
    assert isinstance(face, TableBoardFace)
    face.draw()
    assert face.ask(COUP_PROMPT) is False
    assert "Coup fourre?" not in term.lines()[22]
    assert flow.read_move() == rules.DRAW  # ^C, Really? n, then P at the move prompt again
    assert term.lines()[22].rstrip() == ">>:Move: P"


# --------------------------------------------------------------------------
# The original's keys and dialogs, the score window, the moves since your last turn (issue 44)

ERASE, KILL = "\x7f", "\x15"  # the in-memory terminal's erase and kill characters
DISCARD, PLAY = rules.MoveType.DISCARD, rules.MoveType.PLAY


class _Noting(VirtualTerminal):
    """The in-memory terminal, its screen noted at each key read (what the person saw as they typed the key)."""

    def __init__(self, keys: str) -> None:
        super().__init__(keys=[ord(c) for c in keys])
        self.noted: list[list[str]] = []

    def read_byte(self) -> int:
        self.noted.append(self.lines())
        return super().read_byte()


def _flow(
    seats: int, keys: str, seed: int = 6, hints: Adviser | None = None, game: Game | None = None
) -> tuple[Game, _Noting, GameFlow, TableBoardFace]:
    """A larger table's flow on the in-memory terminal typing ``keys``, computers in the other seats, drawn."""
    game = game if game is not None else _dealt(seats, seed)
    term = _Noting(keys)
    others = tuple((BsdPlayer(), GlibcRandom(k)) for k in range(2, seats))
    flow = table_flow(term, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1), hints=hints, others=others))
    face = flow.face
    assert isinstance(face, TableBoardFace)
    face.draw()
    return game, term, flow, face


def _right(lines: list[str]) -> list[str]:
    """The right window's lines (the top 17 rows, from column 40)."""
    return [line[40:].rstrip() for line in lines[:17]]


def _hazard_for_b_or_c() -> Game:
    """Three seats, your pick made: a Stop in your slot 1, and sides B and C both rolling (either can take it)."""
    game = _dealt(3, seed=2)
    for side in (1, 2):
        game.players[side].battle = cards.GO
        game.players[side].can_go = True
    game.players[0].hand[1] = cards.STOP
    assert game.to_move == 0
    rules.push(game, rules.DRAW)
    return game


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("d1\r", rules.Move(DISCARD, 1)),
        ("  d 1 ", rules.Move(DISCARD, 1)),  # spaces skipped before the slot, one after confirms it
        (f"d1{ERASE}2\r", rules.Move(DISCARD, 2)),  # the erase key takes the 1 back
        ("dx3\n", rules.Move(DISCARD, 3)),  # a key that is no slot rings and is written over
        ("d1x\r", rules.Move(DISCARD, 1)),  # anything but a confirmation after the slot rings
        (f"d1{KILL}p", rules.DRAW),  # the kill key cancels the discard: the move prompt again
        (f"u{ERASE}p", rules.DRAW),  # the erase key before a slot cancels too
    ],
)
def test_a_slot_is_confirmed_with_return_or_space_erased_or_killed(typed: str, expected: rules.Move) -> None:
    _, term, flow, _ = _flow(4, typed)
    assert flow.read_move() == expected
    assert term.bells == ("x" in typed) * 1


def test_u_and_a_slot_wait_for_return() -> None:
    """``U 3`` is not played at once (the issue): the keys run out (the end of input, kept as a hangup) first."""
    _, term, flow, _ = _flow(4, "d1")
    with pytest.raises(GameExit):
        flow.read_move()
    assert term.noted[-1][22].rstrip() == ">>:Move: D1"  # waiting, the slot echoed
    game = _hazard_for_b_or_c()
    _, term, flow, _ = _flow(3, "u1\rc", game=game)
    with pytest.raises(GameExit):
        flow.read_move()
    assert term.noted[-1][22].rstrip() == ">>:Move: U1 side B/C? C"


@pytest.mark.parametrize(
    ("typed", "target"),
    [
        ("u1\rc\r", 2),
        ("u1 B ", 1),
        (f"u1\rb{ERASE}c\r", 2),  # the side's letter erased, another typed
        ("u1\rxb\r", 1),  # a letter of no side rings
        (f"u1\r{KILL}p", None),  # the kill key at the side's question cancels the play: P then
        (f"u1\rb{KILL}p", None),
    ],
)
def test_a_hazards_side_is_asked_after_its_slot_and_confirmed_the_same_way(typed: str, target: int | None) -> None:
    game = _hazard_for_b_or_c()
    _, term, flow, _ = _flow(3, typed, game=game)
    move = flow.read_move()
    if target is None:
        assert move == rules.DRAW
    else:
        assert (move.kind, move.slot, move.target) == (PLAY, 1, target)
    assert any("side B/C?" in lines[22] for lines in term.noted)


def test_a_return_typed_anyway_is_nothing_and_an_unknown_key_is_said_as_the_original_says_it() -> None:
    """The RETURN typed after a move does nothing at the next prompt (it came back as ``'\\r': ...``, a Python
    repr); an unknown key is ``unknown command: X`` or ``^A``, with the bell, as on the original's board."""
    _, term, flow, _ = _flow(4, "d1\r\r\x01xp")
    assert flow.read_move() == rules.Move(DISCARD, 1)
    assert flow.read_move() == rules.DRAW
    messages = [lines[21].rstrip() for lines in term.noted]
    assert messages[4] == ""  # at the ^A: the RETURN said nothing
    assert messages[5:7] == ["unknown command: ^A", "unknown command: X"]
    assert term.bells == 2
    assert not any("'" in lines[21] or "'" in lines[22] for lines in term.noted)


@pytest.mark.parametrize("key", ["?", "h"])
def test_question_mark_lists_the_keys_until_the_next_key(key: str) -> None:
    _, term, flow, face = _flow(3, key + "p")
    assert term.lines()[23].rstrip() == key_line(False)  # the keys in short, always on the bottom line
    assert flow.read_move() == rules.DRAW
    shown = _right(term.noted[1])  # as P was typed
    assert shown[: len(key_list())] == key_list()
    assert "p      pick a card" in shown and "w      the score window (again: back)" in shown
    assert not any("Keys" in line for line in _right(term.lines()))  # gone with the next key
    assert term.bells == 0 and not face.keys_shown


def test_w_toggles_the_score_window_during_play_and_it_is_kept_with_the_game() -> None:
    game, term, flow, _ = _flow(4, "wpw\r")
    assert flow.window == ScoreView.SMALL
    assert flow.read_move() == rules.DRAW
    assert _right(term.noted[1]) == score_lines(game)  # as P was typed
    assert flow.window == ScoreView.FULL and _right(term.lines())[0].startswith("Score, this hand: side A yours")
    rules.push(game, rules.DRAW)
    with pytest.raises(GameExit):  # W again, RETURN (nothing), then the keys ran out
        flow.read_move()
    assert flow.window == ScoreView.SMALL and _right(term.lines())[0].startswith("Moves")
    full = table_flow(VirtualTerminal(), _dealt(4), Setup(BsdPlayer(), "bsd", GlibcRandom(1), window=ScoreView.FULL))
    assert full.window == ScoreView.FULL  # a game saved with the window up restores with it up


#: The score window's rows, by label, as the original's window names them.
SCORE_ROWS = (
    "Milestones Played",
    "Each Safety",
    "All 4 Safeties",
    "Each Coup Fourre",
    "Trip Completed",
    "Safe Trip",
    "Delayed Action",
    "Extension",
    "Shut-Out",
    "Hand Total",
    "Overall Total",
    "Games",
)


def _score_window(lines: list[str], sides: int) -> dict[str, list[int]]:
    """The score window's figures read off the screen: label -> one figure a side (columns of five after the label)."""
    rows = {}
    for right in _right(lines):
        label = right[:17].strip()
        if label in SCORE_ROWS:
            rows[label] = [int(right[17 + 5 * side : 22 + 5 * side]) for side in range(sides)]
    return rows


@pytest.mark.parametrize(("seats", "seed"), [(3, 3), (4, 4), (6, 5)])
def test_the_score_window_at_the_end_of_a_hand_breaks_each_side_down_as_hand_result(seats: int, seed: int) -> None:
    """A whole hand played by computers at every seat: the board at its end shows the score window by itself (the
    original's full layout), each side's figures those of ``scoring.hand_result``, adding up to the hand's total."""
    game = _dealt(seats, seed)
    played = play_hand(game, [BsdPlayer() for _ in range(seats)], [GlibcRandom(seed + k) for k in range(seats)])
    result = scoring.hand_result(game)
    assert result == played.result and game.finished
    term = VirtualTerminal()
    TableBoardFace(term, game).draw()
    sides = game.table.sides
    rows = _score_window(term.lines(), sides)
    assert set(rows) == set(SCORE_ROWS), "\n".join(term.lines())
    worth = dict(zip(SCORE_ROWS[4:9], layout.BONUS_POINTS, strict=True))
    for side in range(sides):
        pp = game.players[side]
        assert rows["Milestones Played"][side] == pp.mileage
        assert rows["Each Safety"][side] == pp.safety_score
        assert rows["All 4 Safeties"][side] == (scoring.ALL_SAFETIES_BONUS if pp.safety_score == 400 else 0)
        assert rows["Each Coup Fourre"][side] == pp.coup_score
        earned = result.bonuses[side].rows()
        assert [rows[label][side] for label in SCORE_ROWS[4:9]] == [
            worth[label] if got else 0 for label, got in zip(SCORE_ROWS[4:9], earned, strict=True)
        ]
        assert rows["Hand Total"][side] == result.hand_totals[side]
        assert sum(rows[label][side] for label in SCORE_ROWS[:9]) == result.hand_totals[side]
        assert rows["Overall Total"][side] == result.totals[side]
        assert rows["Games"][side] == pp.games
    assert any(any(b.rows()) for b in result.bonuses)  # a bonus shown, not only zeroes
    assert all(len(line) <= 39 for line in score_lines(game)) and len(score_lines(game)) <= 17


def _seed_where_you_start(seats: int) -> int:
    return next(seed for seed in range(1, 100) if _dealt(seats, seed).to_move == 0)


def test_the_moves_since_your_last_turn_at_four_seats() -> None:
    """Your pick and discard, then the three computers' turns: at your next move all three are listed, in order,
    after yours (who, what, on which side), not only the last of them."""
    seed = _seed_where_you_start(4)
    game, term, flow, face = _flow(4, "pd1\r", seed=seed)
    with pytest.raises(GameExit):  # the keys ran out at your next move
        flow.play_hand()
    asked = term.noted[-1]
    assert asked[22].rstrip() == ">>:Move:" and "Turn: you (side A)" in asked[20]
    listed = _right(asked)
    assert listed[0] == "Moves this hand"
    lines = [line for line in listed[1:] if line]
    assert [line.split(" (")[0] for line in lines] == ["you", "seat 2", "seat 3", "seat 4"], "\n".join(asked)
    assert lines[0].startswith("you (A) discarded ")
    assert [e.seat for e in face.moves] == [0, 1, 2, 3]
    assert lines == [move_line(e, game) for e in face.moves]
    sides = {1: "B", 2: "A", 3: "B"}
    assert all(line.startswith(f"seat {seat + 1} ({sides[seat]}) ") for seat, line in zip((1, 2, 3), lines[1:]))


def test_m_pages_back_through_the_earlier_moves() -> None:
    game, term, flow, face = _flow(3, "mmmp")
    for k in range(20):
        face.moved(Event(k % 3, DISCARD, cards.GO))
    face.moved(Event(1, rules.MoveType.DRAW))  # a draw is not listed
    face.draw()
    assert _right(term.lines())[9] == "Moves this hand, last 7 (m: earlier)"
    assert flow.read_move() == rules.DRAW
    heads = [_right(lines)[9] for lines in term.noted[1:]]
    assert heads == ["Moves 7-13 of 20 (m: earlier)", "Moves 1-7 of 20 (m: latest)", heads[-1]]
    assert heads[-1] == "Moves this hand, last 7 (m: earlier)"
    assert _right(term.lines())[10:17] == [move_line(Event(k % 3, DISCARD, cards.GO), game) for k in range(13, 20)]


@pytest.mark.parametrize(("seats", "key"), [(3, "?"), (6, "H"), (6, "?")])
def test_a_hint_at_three_and_six_seats(seats: int, key: str) -> None:
    """With ``--hints``, ``?`` and ``H`` ask the expert from your seat (not the keys), as on the two-seat board."""
    game = _dealt(seats, 8)
    game.to_move = 0
    rules.push(game, rules.DRAW)
    adviser = Adviser(lambda: ExpertPlayer(settings=Level(budget=3000, batch=4, deadline=600.0)))
    _, term, flow, _ = _flow(seats, key + "d1\r", hints=adviser, game=game)
    assert term.lines()[23].rstrip() == key_line(True)
    assert flow.read_move() == rules.Move(DISCARD, 1)
    assert adviser.given == 1
    said = term.noted[1][21]  # as D was typed
    assert said.startswith("hint: "), "\n".join(term.noted[1])
    assert not any("Keys" in line for lines in term.noted for line in _right(lines))


def _guest(keys: str, seat: int, seats: int) -> tuple[GuestRun, _Noting, Link, Callable[[], None]]:
    """A guest's run on the board at ``seat`` of ``seats`` (alice hosting), its terminal typing ``keys``."""
    from mille.engine.state import table

    term = _Noting(keys)
    host_end, guest_end = people_link.pair()
    hello = messages.read_hello(messages.hello("alice", "bob", seat, table(seats), {0: "alice"}))
    guest = GuestRun(term, guest_end, hello, "mille --join alice", None, board_face(term))

    def close() -> None:
        host_end.close()
        guest_end.close()

    return guest, term, host_end, close


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_guests_board_shows_the_keys_for_question_mark_and_h_without_an_adviser(seats: int) -> None:
    """A guest's flow has no adviser: ``?`` and ``h`` on its board list the keys (they killed the guest's mille
    with ``'_TableGuestFlow' object has no attribute 'hints'``), and the move typed after them is sent."""
    game = _dealt(seats, 4)
    game.to_move = 1
    rules.push(game, rules.DRAW)
    obs = observe(game, 1)
    guest, term, host_end, close = _guest("?hd2\r", 1, seats)
    try:
        legal = [wire.move_json_2(m) for m in obs.legal_moves()]
        guest.handle({"type": "decide", "ask": 1, "obs": wire.observation_json_2(obs), "legal": legal})
        answer = host_end.wait_message(timeout=5)
    finally:
        close()
    assert answer is not None and wire.move_from_json_2(answer["move"], seats) == rules.Move(DISCARD, 2)
    assert _right(term.noted[1])[: len(key_list())] == key_list()  # as h was typed
    assert term.lines()[23].rstrip() == key_line(False)


def test_a_guests_board_lists_the_moves_the_host_tells_it() -> None:
    """At four seats bob (seat 2) is told each move (the host's ``moved`` message, protocol 2's event): the three
    made since his last are listed with the view that follows; a draw is not; a new hand starts afresh."""
    game = _dealt(4, 4)
    events = [
        Event(1, DISCARD, cards.GASOLINE),  # bob himself
        Event(2, rules.MoveType.DRAW),
        Event(2, PLAY, cards.GO),
        Event(3, PLAY, cards.STOP, 0),
        Event(0, PLAY, cards.MILES_75),
    ]
    guest, term, _, close = _guest("", 1, 4)
    try:
        guest.handle({"type": "view", "obs": wire.observation_json_2(observe(game, 1)), "finished": False})
        for event in events:
            guest.handle({**wire.read_message(wire.event_line_2(event, 2)), "type": "moved"})
        guest.handle({"type": "view", "obs": wire.observation_json_2(observe(game, 1)), "finished": False})
        listed = _right(term.lines())
        over = game.copy()
        over.finished = True
        guest.handle({"type": "view", "obs": wire.observation_json_2(observe(over, 1)), "finished": True})
        guest.handle({"type": "view", "obs": wire.observation_json_2(observe(game, 1)), "finished": False})
        dealt = _right(term.lines())
    finally:
        close()
    assert listed[:5] == [
        "Moves this hand",
        "you (B) discarded Gasoline",
        "seat 3 (A) played Go",
        "seat 4 (B) played Stop on side A",
        "alice (A) played 75 miles",
    ], "\n".join(listed)
    assert dealt[0] == "Moves: none yet this hand"


@pytest.mark.parametrize("seats", [3, 4, 6])
@pytest.mark.parametrize("view", ["moves", "score", "keys"])
def test_every_view_of_the_right_window_fits_80x24(seats: int, view: str) -> None:
    game = _dealt(seats)
    term = VirtualTerminal()
    face = TableBoardFace(term, game)
    for k in range(30):
        face.moved(Event(k % seats, PLAY, sorted(cards.HAZARDS)[k % 4], (k + 1) % game.table.sides))
    face.score_shown = view == "score"
    face.keys_shown = view == "keys"
    face.draw()
    lines = term.lines()
    assert all(len(line) <= 80 for line in lines) and len(lines) == 24
    assert all(len(line) <= 39 for line in _right(lines))  # never the screen's last column
    assert all(lines[row][39] == " " for row in range(17))  # the left window's lines never run into the right's


def test_m_with_the_score_window_up_shows_the_newest_moves_first() -> None:
    _, term, flow, face = _flow(4, "wmmp")
    for k in range(30):
        face.moved(Event(k % 4, DISCARD, cards.GO))
    assert flow.read_move() == rules.DRAW
    heads = [_right(lines)[0] for lines in term.noted[1:]]
    assert heads[0].startswith("Score, this hand")  # as the first M was typed
    assert heads[1:] == ["Moves this hand, last 16 (m: earlier)", "Moves 1-16 of 30 (m: latest)"]
    assert flow.window == ScoreView.SMALL
