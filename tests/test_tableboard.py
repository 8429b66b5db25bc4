"""The board for 3, 4 and 6 seats (``mille --players N``): drawn on the in-memory terminal and in a real pty.

The two-seat board is the original's and its golden tests guard it; these
check the larger tables' board: every side's box, the table and the turn,
your hand, inside 80x24; the keys (``P``, ``D`` and a slot, ``U`` and a
slot and a side); a real terminal at 80x24, and the too-small message below.
"""

from __future__ import annotations

import re

import pytest

import ui_helpers as H
from mille.engine import cards, rules
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.players.bsd import BsdPlayer
from mille.ui.flow import COUP_PROMPT, Setup
from mille.ui.surface import INTERRUPT, VirtualTerminal
from mille.ui.tableboard import TableBoardFace, side_box, table_flow


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
    term = VirtualTerminal(keys=[ord(c) for c in "pu1c"])
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
