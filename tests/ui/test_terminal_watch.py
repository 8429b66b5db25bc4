"""The two seams people need of a terminal and a face: other descriptors heard while a key or a line is awaited
(``watch``), and one question answered with a letter (``choose``), on the board, the larger tables' board and in lines.

Real descriptors (pipes, a pty) on each terminal: the curses terminal's
key reads and waits (no curses started: only its reading), the in-memory
terminal's, and plain mode's lines.
"""

from __future__ import annotations

import os
import pty

import pytest

from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.players.bsd import BsdPlayer
from mille.ui.app import BoardFace
from mille.ui.cursesterm import CursesTerminal
from mille.ui.flow import Choice, GameFlow, Request, Setup
from mille.ui.plain.lines import LineTerminal
from mille.ui.surface import END_OF_INPUT, HANGUP, Heard, VirtualTerminal
from mille.ui.tableboard import TableBoardFace

DROP = Choice(
    "Wait/Comp/Adjourn?", "w waits, c lets the computer play, a adjourns:", "wca", ("wait", "computer", "adjourn")
)


@pytest.fixture
def pipes() -> list[int]:
    made: list[int] = []
    yield made
    for fd in made:
        try:
            os.close(fd)
        except OSError:
            pass


def _pipe(made: list[int]) -> tuple[int, int]:
    r, w = os.pipe()
    made += [r, w]
    return r, w


@pytest.mark.parametrize("kind", ["curses", "lines"])
def test_a_watched_descriptor_is_heard_while_a_key_or_a_line_is_awaited(kind: str, pipes: list[int]) -> None:
    """The news on the watched pipe is heard (its callback run) before the key or line that came after it."""
    keys_r, keys_w = _pipe(pipes)
    news_r, news_w = _pipe(pipes)
    term: CursesTerminal | LineTerminal = CursesTerminal(keys_r) if kind == "curses" else LineTerminal(keys_r, 1)
    heard: list[bytes] = []
    term.watch(news_r, lambda: heard.append(os.read(news_r, 100)))
    os.write(news_w, b"news")
    os.write(keys_w, b"x\n")
    got = term.read_byte() if isinstance(term, CursesTerminal) else term.read_line()
    assert heard == [b"news"] and got in (ord("x"), "x")
    term.unwatch(news_r)
    os.write(news_w, b"more")
    os.write(keys_w, b"y\n")
    got = term.read_byte() if isinstance(term, CursesTerminal) else term.read_line()
    assert heard == [b"news"] and got in (ord("\n"), "y")  # unwatched: not heard


@pytest.mark.parametrize("kind", ["curses", "lines", "memory"])
def test_a_callback_that_raises_heard_ends_the_key_read_and_the_wait(kind: str, pipes: list[int]) -> None:
    keys_r, _keys_w = _pipe(pipes)
    news_r, news_w = _pipe(pipes)
    ready_r, ready_w = _pipe(pipes)
    term: CursesTerminal | LineTerminal | VirtualTerminal
    if kind == "curses":
        term = CursesTerminal(keys_r)
    elif kind == "lines":
        term = LineTerminal(keys_r, 1)
    else:
        term = VirtualTerminal(keys=[ord("k")])

    def back() -> None:
        os.read(news_r, 100)
        raise Heard

    term.watch(news_r, back)
    os.write(news_w, b"!")
    with pytest.raises(Heard):
        if isinstance(term, LineTerminal):
            term.read_line()
        else:
            term.read_byte()
    os.write(news_w, b"!")
    with pytest.raises(Heard):
        term.wait(ready_r)
    os.write(ready_w, b".")
    assert term.wait(ready_r) is None


@pytest.mark.parametrize("kind", ["curses", "lines"])
def test_a_terminal_hung_up_while_another_thread_thinks_is_heard_at_once_without_a_signal(kind: str) -> None:
    """The pty's master closed (a terminal gone under ``su`` or ``runuser``, which keep the SIGHUP): the wait ends."""
    master, slave = pty.openpty()
    ready_r, ready_w = os.pipe()
    try:
        term: CursesTerminal | LineTerminal = CursesTerminal(slave) if kind == "curses" else LineTerminal(slave, slave)
        os.close(master)
        assert term.wait(ready_r) in (END_OF_INPUT, HANGUP)
    finally:
        for fd in (slave, ready_r, ready_w):
            os.close(fd)


def test_a_pipes_end_is_no_hangup_for_lines_while_another_thread_thinks(pipes: list[int]) -> None:
    """Scripted lines on a pipe closed at once are all still to be read: the pipe's end waits for the next read."""
    keys_r, keys_w = _pipe(pipes)
    ready_r, ready_w = _pipe(pipes)
    os.write(keys_w, b"p\n")
    os.close(keys_w)
    pipes.remove(keys_w)
    term = LineTerminal(keys_r, 1)
    os.write(ready_w, b".")
    assert term.wait(ready_r) is None
    assert term.read_line() == "p" and term.read_line() == END_OF_INPUT


def _flow(face: object, game: Game) -> GameFlow:
    return GameFlow(face, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1)))  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 4])
def test_a_choice_on_the_boards_says_the_keys_at_another_and_answers_a_letter_or_a_request(seats: int) -> None:
    game = Game(rng=GlibcRandom(3), table=table(seats))
    term = VirtualTerminal(keys=[ord(c) for c in "xCsq"])
    face = BoardFace(term, game, 0) if seats == 2 else TableBoardFace(term, game)
    _flow(face, game)
    assert face.choose(DROP) == "c"
    text = "\n".join(term.lines())
    assert "W: wait  C: computer  A: adjourn" in text and term.bells == 1
    assert "Wait/Comp/Adjourn?" not in text  # answered: the prompt line emptied
    assert face.choose(DROP) is Request.SAVE
    assert face.choose(DROP) is Request.QUIT
    term.keys = [ord(" ")]
    assert face.choose(Choice("Waiting...", "Waiting: RETURN brings the choice back.")) == " "


def test_a_choice_in_lines_answers_the_first_letter_and_reads_the_board_meanwhile(pipes: list[int]) -> None:
    from mille.engine import rules
    from mille.ui.plain.app import PlainFace

    keys_r, keys_w = _pipe(pipes)
    out_r, out_w = _pipe(pipes)
    game = Game(rng=GlibcRandom(3))
    rules.start_hand(game)
    face = PlainFace(LineTerminal(keys_r, out_w), game, 0)
    _flow(face, game)
    os.write(keys_w, b"x\nr\nAdjourn\n\n")
    assert face.choose(DROP) == "a"
    assert face.choose(Choice("Waiting...", "Waiting: RETURN brings the choice back.")) == ""
    said = os.read(out_r, 65536).decode()
    assert "Answer w, c or a." in said and "Discard pile" in said and said.count("w waits") == 3, said
