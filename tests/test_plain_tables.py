"""Plain mode at 3, 4 and 6 seats (``mille --plain --players N``, issue 38) as a program on a pipe.

A scripted person (``p``, ``d 1``, ``p``, ``d 1``, ...; yes to ``Coup
fourre?``, another hand until the game ends) plays whole games against the
computers; every event names the player and the side, the game ends with
its winner, and nothing but lines come out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import plain_helpers as P
from mille.files import save
from mille.ui.plain.app import MOVE_LINE
from player_helpers import run_mille

#: An event of another seat names it and its side (or says it is your partner).
_OTHER = re.compile(r"^(Coup fourre! )?(Seat \d \(side [ABC]\)|Your partner \(seat \d\)) ")


#: What the person tries after ``p``, in order, each after the one before is refused
#: (once the deck is out a hand may hold only safeties, which are played, never discarded).
_TRIES = [f"d {slot}" for slot in "123456p"] + [f"u {slot}" for slot in "123456p"]


class Scripted(P.Listener):
    """``p`` then ``d 1`` at every move prompt, a refused move the next of :data:`_TRIES`; yes to a coup fourré."""

    def __init__(self) -> None:
        super().__init__(games=1)
        self.coups = 0
        self.tried = -1

    def _answer(self, prompt: str, heard: list[str]) -> str:
        if prompt == MOVE_LINE:
            refused = any(P.is_refusal(line) for line in heard)
            if self.last == "p" or (self.tried >= 0 and refused):
                self.tried = (self.tried + 1) % len(_TRIES)
                return _TRIES[self.tried]
            self.tried = -1
            return "p"
        if prompt == "Coup fourre?":
            self.coups += 1
            return "y"
        return super()._answer(prompt, heard)


@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (4, 12), (6, 13)])
def test_whole_games_through_a_pipe(tmp_path: Path, seats: int, seed: int) -> None:
    person = Scripted()
    run = P.play_process(["--plain", "--players", str(seats), "--seed", str(seed)], person, cwd=str(tmp_path))
    assert run.status == 0, run.err
    assert "Traceback" not in run.err and run.err == ""
    assert b"\x1b" not in run.raw
    lines = run.lines
    assert lines[0].startswith(f"mille, Mille Bornes at {seats} seats")
    assert any(line.startswith("The game is over: ") for line in lines)
    events = [line for line in lines if re.match(r"^(Coup fourre! )?(Seat|Your partner) ", line)]
    assert events and all(_OTHER.match(line) for line in events), [e for e in events if not _OTHER.match(e)][:3]
    sides = "AB" if seats == 4 else "ABC"
    assert {m.group(1) for line in events if (m := re.search(r"\(side ([ABC])\)", line))} <= set(sides)
    # The score per side, every side named.
    totals = [line for line in lines if line.startswith("Overall Total: ")]
    assert totals and all(line.count("side ") == len(sides) for line in totals)


def test_the_hook_line_and_a_kept_game_at_four_seats(tmp_path: Path) -> None:
    """The lines of the hook before stop, then the end of input: the game kept, and it resumes at four seats."""
    script = P.Script(["p", "d 1", "p", "d 1", "r", "w", "p", "d 1", P.EOF_ANSWER])
    run = P.play_process(["--plain", "--players", "4", "--seed", "3"], script, cwd=str(tmp_path))
    assert run.status == 1 and "Traceback" not in run.err
    assert any(line.startswith("Cards in hand: you ") for line in run.lines)
    assert any(line.startswith("Hand Total: side A ") for line in run.lines)
    kept = next(line for line in run.err.splitlines() if "is saved in" in line)
    path = kept.split("resume it with: mille --plain ", 1)[1].strip()
    loaded = save.read_game(path)
    assert loaded.version == 3 and loaded.game.table.seats == 4
    listed = run_mille("--kept", state=tmp_path / "state")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "4 seats, in a hand of 1000 miles (sides A " in listed.stdout
    again = P.play_process(["--plain", path], P.Script(["r", "q", "y"]), cwd=str(tmp_path))
    assert again.status == 0, again.err
    assert any(line.startswith("Side B, seat 2 and seat 4: ") for line in again.lines)


def test_a_bot_of_protocol_2_plays_every_computer_seat_at_four(tmp_path: Path) -> None:
    """``mille --plain --players 4 --computer 'exec:python -m mille.bot bsd'``: a whole game, the bots over pipes."""
    person = Scripted()
    bot = f"exec:{sys.executable} -m mille.bot bsd"
    run = P.play_process(["--plain", "--players", "4", "--seed", "12", "--computer", bot], person, cwd=str(tmp_path))
    assert run.status == 0 and run.err == "", run.err
    assert any(line.startswith("The game is over: ") for line in run.lines)
    assert any(re.match(r"^(Coup fourre! )?Seat \d \(side B\) ", line) for line in run.lines)


def test_players_is_refused_in_one_line_where_it_cannot_play(tmp_path: Path) -> None:
    for args, message in [
        (["--players", "5"], "invalid choice: 5"),
        (["--players", "4"], "standard input and output must be a terminal (mille --plain plays in lines)"),
        (["--players", "4", "game.json"], "--players starts a new game (a saved game keeps its own table)"),
        (
            [
                "--plain",
                "--players",
                "3",
                "--computer",
                f"exec:{sys.executable} {Path(__file__).with_name('protocol_bot.py')}",
            ],
            "its hello says protocol 1 alone, the two-seat table's; the table of 3 needs a bot that speaks protocol 2",
        ),
    ]:
        done = P.play_process(args, P.Script([]), cwd=str(tmp_path))
        assert done.status in (1, 2) and message in done.err and "Traceback" not in done.err, done.err


@pytest.mark.parametrize("answer", ["y", "n"])
def test_the_coup_fourre_is_offered_out_of_turn(tmp_path: Path, answer: str) -> None:
    """At four seats (seed 3) seat 2 limits side A, your partner moves next and you hold Right of Way: asked now."""

    class Answering(Scripted):
        def _answer(self, prompt: str, heard: list[str]) -> str:
            if prompt == "Coup fourre?":
                self.coups += 1
                return answer
            return super()._answer(prompt, heard)

    person = Answering()
    run = P.play_process(["--plain", "--players", "4", "--seed", "3"], person, cwd=str(tmp_path))
    assert run.status == 0, run.err
    assert person.coups >= 1
    lines = run.lines
    at = lines.index("Coup fourre?")
    assert lines[at - 1].startswith("Out of turn: Speed Limit was just put on your side, and you hold Right of Way.")
    assert lines[at - 2].startswith("Seat 2 (side B) plays Speed Limit on side A (yours)")
    if answer == "y":
        assert lines[at + 1].startswith("Coup fourre! You play Right of Way: side A is safe from Stop and Speed Limit")
        assert lines[at + 2] == MOVE_LINE  # your extra turn, at once
    else:
        assert lines[at + 1] == "You let the coup fourre pass."
        assert not lines[at + 2].startswith("Coup fourre! You")
