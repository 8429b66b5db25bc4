"""Plain mode (``mille --plain``, issues 32, 38, 44) at every table: the sentences, the commands, the reader.

* every kind of event and question, said as a transcript (the speaker's
  sentences alone against the computer, :mod:`mille.ui.plain.speaker`, on
  positions the engine made, and whole exchanges with the program);
* whole games in this process at 2, 3, 4 and 6 seats in both levels of
  detail: every move of the other seats said, the totals ``w`` reads
  equal to the engine's at that moment, never an escape byte;
* the larger tables as a program on a pipe: whole games, the coup fourré
  asked out of turn, a game kept and resumed, a bot of protocol 2 at
  every computer seat;
* the reading keys, the bad commands (one line each), the end of input
  (the game kept), the interrupt;
* the reader of lines: bounded, binary, and escaped on the way out.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from helpers import plain as P
from helpers.players import run_mille
from helpers.protocol import PROTOCOL_BOT
from helpers.ui import APPENDIX_A
from mille import cli
from mille.engine import cards, rules
from mille.engine.cards import (
    ACCIDENT,
    DRIVING_ACE,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    GO,
    MILES_25,
    MILES_75,
    MILES_100,
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    REPAIRS,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
)
from mille.engine.rules import Move, MoveType
from mille.engine.state import Game, SafetyStatus, table
from mille.files import save
from mille.files.settings import Settings
from mille.ui.flow import Setup
from mille.ui.keeping import Keeper
from mille.ui.plain.app import FILE_LINE, MOVE_LINE
from mille.ui.plain.commands import Command, parse, parse_slot
from mille.ui.plain.lines import MAX_LINE, TOO_LONG, LineTerminal
from mille.ui.plain.speaker import Naming, Speaker, moved_sentence, score_values
from mille.ui.rows import fitted
from mille.ui.surface import END_OF_INPUT, HANGUP, INTERRUPT

YOU, COMPUTER = 0, 1
#: Plain mode's sentences alone against the computer at two seats.
ALONE = Speaker(Naming.at(table()))


# --------------------------------------------------------------------------
# Positions made by the engine, and the sentence for each kind of event


def dealt(seed: int = 5) -> Game:
    game = P.new_game(seed)
    rules.start_hand(game)
    return game


def play(game: Game, seat: int, card: int, *, picked: bool = True) -> str:
    """``seat`` plays ``card`` (put in its slot 1) through the engine; the sentence said for it."""
    pp = game.players[seat]
    pp.hand[1] = card
    pp.hand[0] = MILES_25 if picked else cards.EMPTY
    game.to_move = seat
    before = pp.copy()
    outcome = rules.push(game, Move(MoveType.PLAY, 1))
    assert outcome.error is None, outcome.error
    return ALONE.play_sentence(game, seat, card, before)


def rolling(game: Game, seat: int, mileage: int = 0) -> None:
    pp = game.players[seat]
    pp.battle, pp.can_go, pp.mileage = GO, True, mileage


def picked(seat: int, new: list[int], deck_count: int, full: bool) -> str:
    """The sentence for ``seat``'s pick of ``new`` that leaves ``deck_count`` cards in the deck."""
    return ALONE.draw_sentence(Game(deck=[], deck_count=deck_count), seat, new, full)


def test_picks() -> None:
    assert picked(YOU, [GO], 50, full=False) == "You pick Go."
    assert picked(YOU, [GO], 50, full=True) == "You pick Go; 50 cards left."
    assert picked(YOU, [GO, MILES_75], 49, full=False) == "You pick Go and 75 miles."
    assert picked(YOU, [MILES_100], 0, full=False) == "You pick 100 miles, the last of the deck."
    assert picked(COMPUTER, [], 1, full=True) == "The computer picks a card; 1 card left."
    assert picked(COMPUTER, [], 0, full=False) == "The computer picks a card, the last of the deck."


def test_miles() -> None:
    game = dealt()
    rolling(game, COMPUTER, 250)
    assert play(game, COMPUTER, MILES_75) == "The computer plays 75 miles and is at 325 miles."
    rolling(game, YOU, 600)
    assert play(game, YOU, MILES_100) == "You play 100 miles and are at 700 miles, the end of the trip."


@pytest.mark.parametrize(
    ("card", "said"),
    [
        (OUT_OF_GAS, "The computer plays Out of Gas on you: you are out of gas and need Gasoline, then Go."),
        (FLAT_TIRE, "The computer plays Flat Tire on you: you have a flat tire and need Spare Tire, then Go."),
        (ACCIDENT, "The computer plays Accident on you: you have had an accident and need Repairs, then Go."),
        (STOP, "The computer plays Stop on you: you are stopped and need Go."),
        (
            SPEED_LIMIT,
            "The computer plays Speed Limit on you: you may play 50 miles a card at most, until you play End of Limit.",
        ),
    ],
)
def test_hazards_on_you(card: int, said: str) -> None:
    game = dealt()
    rolling(game, YOU, 100)
    assert play(game, COMPUTER, card) == said


def test_hazards_on_the_computer_and_right_of_way() -> None:
    game = dealt()
    rolling(game, COMPUTER)
    assert play(game, YOU, ACCIDENT) == (
        "You play Accident on the computer: it has had an accident and needs Repairs, then Go."
    )
    game = dealt()
    rolling(game, COMPUTER)
    game.players[COMPUTER].safety[RIGHT_OF_WAY - cards.SAFETY_BASE] = SafetyStatus.PLAYED
    game.players[COMPUTER].speed = SPEED_LIMIT
    assert play(game, YOU, OUT_OF_GAS) == (
        "You play Out of Gas on the computer: it is out of gas and needs Gasoline; limited to 50 miles a card."
    )
    assert play(game, COMPUTER, GASOLINE) == "The computer plays Gasoline: it can move, 50 miles a card at most."


def test_remedies() -> None:
    game = dealt()
    game.players[YOU].battle = REPAIRS - 5  # Accident
    assert play(game, YOU, REPAIRS) == "You play Repairs: you still need Go."
    assert play(game, YOU, GO) == "You play Go: you can move."
    game.players[YOU].speed = SPEED_LIMIT
    assert play(game, YOU, END_OF_LIMIT) == "You play End of Limit: your speed limit is over."


def test_safeties_and_coups() -> None:
    game = dealt()
    assert play(game, YOU, EXTRA_TANK) == (
        "You play Extra Tank: you are safe from Out of Gas for the rest of the hand; 100 points. You play again."
    )
    game = dealt()
    game.players[COMPUTER].battle = ACCIDENT  # an old hazard: a counter, not a coup
    assert play(game, COMPUTER, DRIVING_ACE, picked=False) == (
        "The computer plays Driving Ace: it is safe from Accident for the rest of the hand and can move; "
        "100 points. The computer plays again."
    )
    game = dealt()
    rolling(game, YOU)
    play(game, COMPUTER, STOP)
    assert play(game, YOU, RIGHT_OF_WAY, picked=False) == (
        "Coup fourre! You play Right of Way: you are safe from Stop and Speed Limit for the rest of the hand "
        "and can move; 400 points. You play again."
    )
    game = dealt()
    for safety in (EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE):
        game.players[COMPUTER].safety[safety - cards.SAFETY_BASE] = SafetyStatus.PLAYED
    game.players[COMPUTER].safety_score = 300
    game.players[COMPUTER].speed = SPEED_LIMIT
    assert play(game, COMPUTER, RIGHT_OF_WAY) == (
        "The computer plays Right of Way: it is safe from Stop and Speed Limit for the rest of the hand "
        "and can move; all four safeties; 400 points. The computer plays again."
    )


def test_discards_extension_pass_order() -> None:
    game = dealt()
    assert ALONE.discard_sentence(game, COMPUTER, GO) == "The computer discards Go."
    assert ALONE.discard_sentence(game, YOU, MILES_25) == "You discard 25 miles."
    assert ALONE.extension_sentence(game, YOU, True) == "You extend the trip to 1000 miles."
    assert ALONE.extension_sentence(game, COMPUTER, False) == "The computer does not extend the trip."
    assert ALONE.pass_sentence(game, COMPUTER) == "The computer has no cards; the turn passes to you."
    game = dealt(5814)
    game.order = True
    rules.tidy_hand(game.players[YOU], sort=True)
    assert ALONE.order_sentence(game) == (
        "Your hand is now kept in order: P: empty; 1: 50 miles; 2: 100 miles; 3: 100 miles; "
        "4: 100 miles; 5: Repairs; 6: Go."
    )


def test_the_board_and_the_score_read_in_lines() -> None:
    game = dealt(5814)
    you, it = game.players
    you.mileage, you.nummiles = 150, [0, 1, 0, 1, 0]
    you.battle, you.can_go, you.speed = GO, True, SPEED_LIMIT
    you.safety[0], you.coups[0] = SafetyStatus.PLAYED, True
    it.battle, it.can_go = STOP, False
    game.discard = MILES_75
    assert ALONE.board_lines(game) == [
        "Trip: 700 miles. Deck: 89 cards left. Discard pile: 75 miles.",
        "You: 150 miles of 700 (50 and 100). Battle pile: Go. Speed pile: Speed Limit. "
        "Safeties: Extra Tank (coup fourre). You can move, 50 miles a card at most.",
        "The computer: 0 miles of 700. Battle pile: Stop. Speed pile: empty. Safeties: none. "
        "It is stopped and needs Go.",
        "Your hand: P: empty; 1: 100 miles; 2: 100 miles; 3: Repairs; 4: Go; 5: 50 miles; 6: 100 miles.",
    ]
    you.hand_total = you.total = 550
    assert ALONE.score_lines(game)[0] == "Milestones Played: you 150, computer 0."
    assert ALONE.score_lines(game)[-2:] == ["Overall Total: you 550, computer 0.", "Games: you 0, computer 0."]
    assert len(ALONE.score_lines(game)) == 7  # the bonus rows only once the hand is over


# --------------------------------------------------------------------------
# Whole exchanges with the program


def appendix_lines() -> list[str]:
    """Appendix A's keys (seed 42) as lines: ``pu0`` is ``p`` then ``u 0``."""
    lines = []
    for keys in APPENDIX_A:
        lines += [keys[0], f"{keys[1]} {keys[2]}"]
    return lines


def test_appendix_a_the_end_of_a_hand_and_its_questions(tmp_path: os.PathLike[str]) -> None:
    name = os.path.join(tmp_path, "g1")
    script = P.Script([*appendix_lines(), "n", "w", "s", name, "n"])
    status, _, term, _ = P.play_here(42, script, save_writer=save.write_game)
    assert status == 0
    tail = term.out[term.out.index("Extension?") - 1 :]
    saved = next(line for line in tail if line.startswith("The game is saved in "))
    assert re.fullmatch(re.escape(f"The game is saved in {name} [") + r"[A-Z][a-z]{2} .*\d{4}\]\.", saved)
    tail[tail.index(saved)] = "SAVED"
    assert tail == [
        "You play 25 miles and are at 700 miles, the end of the trip.",
        "Extension?",
        "You do not extend the trip.",
        "The hand is over: you completed the trip of 700 miles.",
        "Milestones Played: you 700, computer 600.",
        "Each Safety: you 100, computer 0 (you played 1 safety).",
        "Trip Completed: you 400, computer 0 (you completed the trip of 700 miles).",
        "Safe Trip: you 300, computer 0 (you completed it without a 200).",
        "Hand Total: you 1500, computer 600.",
        "Overall Total: you 1500, computer 600.",
        "Games: you 0, computer 0.",
        "Another hand?",
        "Milestones Played: you 700, computer 600.",
        "Each Safety: you 100, computer 0.",
        "All 4 Safeties: you 0, computer 0.",
        "Each Coup Fourre: you 0, computer 0.",
        "Trip Completed: you 400, computer 0.",
        "Safe Trip: you 300, computer 0.",
        "Delayed Action: you 0, computer 0.",
        "Extension: you 0, computer 0.",
        "Shut-Out: you 0, computer 0.",
        "Hand Total: you 1500, computer 600.",
        "Overall Total: you 1500, computer 600.",
        "Games: you 0, computer 0.",
        "Another hand?",
        "file: (a name and RETURN; RETURN alone cancels)",
        "SAVED",
        "Another hand?",  # saved at the question: Save game? is not asked (§5.5)
    ]
    assert save.read_game(name).game.players[YOU].total == 1500


def test_another_hand_no_then_save_game(tmp_path: os.PathLike[str]) -> None:
    name = os.path.join(tmp_path, "g2")
    script = P.Script([*appendix_lines(), "n", "n", "y", name])
    status, _, term, _ = P.play_here(42, script, save_writer=save.write_game)
    assert status == 0
    assert script.asked[-4:] == ["Extension?", "Another hand?", "Save game?", FILE_LINE]
    assert term.out[-4:-1] == ["Another hand?", "Save game?", FILE_LINE]
    assert term.out[-1].startswith(f"The game is saved in {name} [")


def test_save_questions_cancel_failure_and_quit(tmp_path: os.PathLike[str]) -> None:
    existing = os.path.join(tmp_path, "there")
    with open(existing, "w") as f:
        f.write("x")
    lines = ["s", "", "s", os.path.join(tmp_path, "no", "such"), "s", existing, "n", "s", existing, "y"]
    script = P.Script([*lines, "q", "n", "q", "y"])
    status, _, term, _ = P.play_here(5, script, save_writer=save.write_game)
    assert status == 0
    said = [line for line in term.out if not line.startswith(("Your hand", "New hand", "mille,"))]
    said = [re.sub(r" \[.*\]\.$", " [DATE].", line) for line in said]
    assert said == [
        "Your move:",
        "file: (a name and RETURN; RETURN alone cancels)",
        "The game is not saved.",
        "Your move:",
        "file: (a name and RETURN; RETURN alone cancels)",
        "The game is not saved: No such file or directory.",
        "Your move:",
        "file: (a name and RETURN; RETURN alone cancels)",
        "Overwrite file?",
        "The game is not saved.",
        "Your move:",
        "file: (a name and RETURN; RETURN alone cancels)",
        "Overwrite file?",
        f"The game is saved in {existing} [DATE].",
        "Your move:",
        "Really?",
        "Your move:",
        "Really?",
    ]
    # A restored game offers its own file first.
    script = P.Script(["s", "y", "q", "y"])
    game = save.read_game(existing).game
    P.play_here(5, script, game=game, save_writer=save.write_game, from_file=existing, restore=True)
    assert script.asked[:2] == ["Your move:", "Same file?"]


def test_bad_commands_get_one_line_each() -> None:
    script = P.Script(["xyzzy", "u", "u 9", "d", "\x1b[2J", "e", "h", "p", "Y", "q", "maybe", "y"])
    _, _, term, _ = P.play_here(5, script)
    start = term.out.index("Your move:")
    assert term.out[start:] == [
        "Your move:",
        "unknown command: xyzzy; type ? for help.",
        "Your move:",
        "u needs a card: 1 to 6, or p for the card just picked, as in u 3.",
        "Your move:",
        "u needs a card: 1 to 6, or p for the card just picked, as in u 3.",
        "Your move:",
        "d needs a card: 1 to 6, or p for the card just picked, as in d 3.",
        "Your move:",
        "unknown command: \\x1b[2J; type ? for help.",
        "Your move:",
        "E: command not implemented",
        "Your move:",
        "h gives a hint only when mille is started with --hints.",
        "Your move:",
        "You pick Go.",
        "Your move:",
        "unknown command: Y; type ? for help.",
        "Your move:",
        "Really?",
        "Really? Answer y or n; s saves first, ? is help.",
        "Really?",
    ]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_sides_letter_after_the_slot_only_where_sides_have_letters(seats: int) -> None:
    """``u 3 b`` names a hazard's side at 3, 4 and 6 seats; alone at two (one other side, no letters) no card."""
    script = P.Script(["u 9", "u 1 x", "d 1 b", "q", "y"])
    status, _, term, _ = P.play_here(5, script, game=P.new_game(5, seats), others=P.others(seats))
    assert status == 0
    said = [line for line in term.out if line != "Your move:"]
    said = said[said.index("Really?") - 3 : said.index("Really?")]
    if seats == 2:
        assert said == [
            f"{word} needs a card: 1 to 6, or p for the card just picked, as in {word} 3." for word in "uud"
        ]
        return
    others = " or ".join("abc"[1 : 3 if seats != 4 else 2])
    assert said[0] == "u needs a card: 1 to 6, or p for the card just picked, as in u 3 b."
    assert said[1] in (f"u 1 x: a hazard goes to side {others}.", "u 1 x: only a hazard is played on another side.")
    assert said[2] == "d needs a card: 1 to 6, or p for the card just picked, as in d 3."


def test_refusals_are_the_originals_alone_on_a_line() -> None:
    script = P.Script(["u 1", "p", "p", "u 4", "q", "y"])
    _, _, term, _ = P.play_here(5, script)
    said = [line for line in term.out if line != "Your move:"][3:]
    assert said[:4] == ["must pick first", "You pick Go.", "already picked", "cannot move now"]


def test_the_reading_keys_cost_nothing_and_answer_in_full() -> None:
    reads = ["r", "r", "w", "c", "m", "m 2", "m all", "m x", "v", "v", "v full", "v loud", "?"]
    script = P.Script(["p", *reads, "q", "y"])
    _, app, term, computer = P.play_here(5, script)
    assert not computer.events and app.game.players[YOU].hand[0] != cards.EMPTY
    out = term.out
    board = ALONE.board_lines(app.game)
    first = out.index(board[0])
    assert out[first : first + 4] == board and out[first + 5 : first + 9] == board  # the same, in full, twice
    assert "The last 2 messages, oldest first:" in out
    assert out[out.index("The last 2 messages, oldest first:") + 1 :][:2] == [
        "New hand: the trip is 700 miles, and you start.",
        "You pick Go.",
    ]
    assert "m takes a number or all, as in m 5; up to 200 messages are kept." in out
    assert (
        out.count("Detail: full. The computer's picks, the totals at your turn and what you may play are said too.")
        == 2
    )
    assert "Detail: brief. Your picks, the computer's moves, refusals and questions are said." in out
    assert "v switches the detail; v brief or v full chooses one." in out
    assert "Detail is full." in out and app.face.detail == "full"


def test_the_end_of_input_and_a_hangup_keep_the_game() -> None:
    for answer in (P.EOF_ANSWER, P.HUP_ANSWER):
        kept: list[Game] = []
        script = P.Script(["p", "u 4", answer])
        status, app, _, _ = P.play_here(
            5814, script, keeper=Keeper(store=lambda what, kept=kept: kept.append(what.game))
        )
        assert status == 1
        assert len(kept) == 1 and save.to_dict(kept[0]) == save.to_dict(app.game)
        assert kept[0].players[YOU].battle == STOP  # the computer's answer to the Go is in it


def test_the_interrupt_asks_really_and_the_prompt_comes_back() -> None:
    class Interrupting(P.Script):
        def respond(self, prompt: str, heard: list[str]) -> str:
            if not self.asked:  # the interrupt key, pressed at the next wait
                term.pending.append(INTERRUPT)
            return super().respond(prompt, heard)

    script = Interrupting(["p", "n", "p", "q", "y"])
    term = P.HereLines(script)
    game = P.new_game(5)
    from mille.ui.plain.app import plain_flow

    app = plain_flow(term, game, Setup(P.Counting(), "bsd", game.rng))  # type: ignore[arg-type]
    assert app.run() == 0
    assert script.asked == ["Your move:", "Really?", "Your move:", "Your move:", "Really?"]


# --------------------------------------------------------------------------
# Whole games, at every table

#: Another seat, as plain mode names it alone at each table (the computer; a seat and its side, a partner).
OTHER = r"(?:The computer|Seat \d \(side [ABC]\)|Your partner \(seat \d\))"


def columns(seats: int) -> list[str]:
    """The score's columns alone at ``seats``: yours first."""
    return ["you", "computer"] if seats == 2 else [f"side {letter}" for letter in "ABC"[: 3 if seats != 4 else 2]]


def totals_checked(term: P.HereLines) -> None:
    """After ``w``: the totals read are the engine's, now."""
    app = term.app
    assert app is not None
    if term.listener.last != "w":
        return
    game = app.game
    names = columns(game.table.seats)
    rows = dict(line[:-1].split(": ", 1) for line in term.out[term.mark :] if f": {names[0]} " in line)
    for label in ("Milestones Played", "Hand Total", "Overall Total", "Games"):
        figures = [score_values(game, side)[label] for side in range(game.table.sides)]
        assert rows[label] == ", ".join(f"{name} {figure}" for name, figure in zip(names, figures)), label


@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize(("seats", "seed"), [(2, 4242), (2, 5814), (3, 4242), (4, 5814), (6, 4242)])
def test_whole_games_every_other_seats_move_said_and_the_totals_right(seats: int, seed: int, detail: str) -> None:
    """Alone against the computers at every table: each of their moves said once, ``w``'s totals the engine's."""
    games = 2 if seats == 2 else 1
    listener = P.Listener(games=games, extend=seed % 2 == 0)
    game = P.new_game(seed, seats)
    status, _, term, computer = P.play_here(
        seed, listener, detail=detail, check=totals_checked, game=game, others=P.others(seats)
    )
    assert status == 0 and listener.finished_games == games
    out = term.out
    assert not any("\x1b" in line for line in out)

    def said(what: str) -> int:
        return sum(bool(re.match(f"^(Coup fourre! )?{OTHER} {what}", line)) for line in out)

    counted = {
        MoveType.PLAY: said("plays"),
        MoveType.DISCARD: said("discards"),
        MoveType.EXTEND: said("extends"),
        MoveType.NO_EXTENSION: said("does not extend"),
        MoveType.PASS: said("has no cards"),
    }
    for kind, count in counted.items():
        assert count == computer.count(kind), kind
    picks = said("picks")
    if detail == "full":
        assert picks == computer.count(MoveType.DRAW)
    else:
        assert picks == said("picks a card, the last")
    assert sum(line.startswith("The hand is over") for line in out) == out.count("Another hand?") // 2 + games
    assert sum(line.startswith("The game is over") for line in out) == games
    if games > 1:
        assert "A new game: the totals start again at 0. Games won: you " in "\n".join(out)


# --------------------------------------------------------------------------
# The larger tables as a program on a pipe (``mille --plain --players N``, issue 38): a scripted person
# (``p``, ``d 1``, ...; yes to ``Coup fourre?``, another hand until the game ends) against the computers

#: An event of another seat names it and its side (or says it is your partner).
_OTHER = re.compile(r"^(Coup fourre! )?(Seat \d \(side [ABC]\)|Your partner \(seat \d\)) ")


@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (4, 12), (6, 13)])
def test_whole_games_through_a_pipe(tmp_path: Path, seats: int, seed: int) -> None:
    person = P.Scripted()
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
    person = P.Scripted()
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
                f"exec:{sys.executable} {PROTOCOL_BOT}",
            ],
            "its hello says protocol 1 alone, the two-seat table's; the table of 3 needs a bot that speaks protocol 2",
        ),
    ]:
        done = P.play_process(args, P.Script([]), cwd=str(tmp_path))
        assert done.status in (1, 2) and message in done.err and "Traceback" not in done.err, done.err


@pytest.mark.parametrize("answer", ["y", "n"])
def test_the_coup_fourre_is_offered_out_of_turn(tmp_path: Path, answer: str) -> None:
    """At four seats (seed 3) seat 2 limits side A, your partner moves next and you hold Right of Way: asked now."""

    class Answering(P.Scripted):
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


# --------------------------------------------------------------------------
# The commands and the settings


def test_parse() -> None:
    assert parse("  U3 ").command == Command.USE and parse("U3").rest == "3"
    assert parse("dp").command == Command.DISCARD and parse_slot(parse("dp").rest) == 0
    assert parse("use 0").command == Command.USE and parse_slot("0") == 0
    assert parse("\x0c").command == Command.BOARD
    assert parse("").command == Command.EMPTY and parse("nope").command == Command.UNKNOWN
    assert parse_slot("7") is None and parse_slot("P") == 0


def test_plain_and_its_detail_from_the_flags_and_the_settings() -> None:
    assert cli.choose_plain({}, None, None) == (False, None)
    assert cli.choose_plain({"plain": True}, None, None) == (True, "brief")
    settings = Settings(plain=True, detail="full")
    assert cli.choose_plain({}, None, settings) == (True, "full")
    assert cli.choose_plain({}, "brief", settings) == (True, "brief")
    assert cli.choose_plain({"plain": False}, None, settings) == (False, None)


# --------------------------------------------------------------------------
# The reader of lines


def test_the_reader_takes_lines_bounded_and_the_writer_escapes() -> None:
    r, w = os.pipe()
    out_r, out_w = os.pipe()
    term = LineTerminal(r, out_w)
    os.write(w, b"p\r\nu 3\n" + b"x" * (3 * MAX_LINE) + b"\n\xff\xfe name\nlast")
    os.close(w)
    assert term.read_line() == "p"
    assert term.read_line() == "u 3"
    assert term.read_line() == TOO_LONG
    assert len(term._buffer) <= MAX_LINE + 4096
    assert term.read_line() == "\udcff\udcfe name"  # any bytes, kept for a file name
    assert term.read_line() == "last"
    assert term.read_line() == END_OF_INPUT
    term.write_line("unknown command: \x1b[2J\x07 \udcff")
    os.close(out_w)
    assert os.read(out_r, 1000) == b"unknown command: \\x1b[2J\\x07 \\xff\n"
    os.close(r)
    os.close(out_r)


def test_a_megabyte_line_is_dropped_without_holding_it() -> None:
    r, w = os.pipe()
    term = LineTerminal(r, os.open(os.devnull, os.O_WRONLY))
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the writer
        os.close(r)
        os.write(w, b"y" * (8 << 20) + b"\nq\n")
        os._exit(0)
    os.close(w)
    assert term.read_line() == TOO_LONG
    assert term.read_line() == "q"
    os.waitpid(pid, 0)
    os.close(r)


def test_a_writer_whose_reader_is_gone_is_a_hangup() -> None:
    r, w = os.pipe()
    os.close(r)
    term = LineTerminal(os.open(os.devnull, os.O_RDONLY), w)
    assert term.poll() is None
    term.write_line("anyone?")  # EPIPE (Python ignores SIGPIPE)
    assert term.poll() == HANGUP
    os.close(w)


def test_the_hint_says_thinking_once_then_the_hint() -> None:
    """``h`` with ``--hints``: ``thinking...`` once, as a line, when the adviser takes more than a blink."""
    import threading

    from mille.players import FirstPlayer
    from mille.ui.hints import Adviser

    said_thinking = threading.Event()

    class Slow(FirstPlayer):
        def choose(self, observation, rng):  # type: ignore[no-untyped-def]
            assert said_thinking.wait(30)  # still thinking when the blink is over
            return super().choose(observation, rng)

    class Lines(P.HereLines):
        def write_line(self, text: str) -> None:
            super().write_line(text)
            if text == "thinking...":
                said_thinking.set()

    script = P.Script(["h", "q", "y"])
    term = Lines(script)
    game = P.new_game(5)
    from mille.ui.plain.app import plain_flow

    app = plain_flow(
        term,  # type: ignore[arg-type]
        game,
        Setup(P.Counting(), "bsd", game.rng, hints=Adviser(make_player=Slow, blink=0)),
    )
    assert app.run() == 0
    at = term.out.index("thinking...")
    assert term.out[at - 1 : at + 3] == ["Your move:", "thinking...", "hint: pick", "Your move:"]
    assert term.out.count("thinking...") == 1


def test_on_a_terminal_long_lines_break_between_words() -> None:
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    term = LineTerminal(os.open(os.devnull, os.O_RDONLY), slave)
    term.write_line("The computer plays Stop on you: you are stopped and need Go.")
    data = b""
    while data.count(b"\n") < 2:
        data += os.read(master, 1000)
    assert data == b"The computer plays Stop on you: you are\r\nstopped and need Go.\r\n"
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 5, 0, 0))
    term.write_line("too narrow to break")  # the terminal wraps it itself
    data = b""
    while not data.endswith(b"\n"):
        data += os.read(master, 1000)
    assert data == b"too narrow to break\r\n"
    os.close(master)
    os.close(slave)


def test_a_hand_breaks_at_its_items_not_inside_one() -> None:
    """A hand read out on a narrow terminal is broken at ``"; "``, never inside ``50 miles`` (issue 36)."""
    hand = "Your hand: P: empty; 1: 100 miles; 2: 50 miles; 3: Repairs; 4: Go; 5: 50 miles; 6: 100 miles."
    rows = fitted(hand, 40).split("\n")
    assert rows == [
        "Your hand: P: empty; 1: 100 miles;",
        "2: 50 miles; 3: Repairs; 4: Go;",
        "5: 50 miles; 6: 100 miles.",
    ]
    assert all(len(row) < 40 for row in rows)
    # An item too long for a row: broken between words, as any line.
    long = "Pick a card (p), or play now: u 5 Extra Tank which is a very long item indeed here; u 6 Go."
    assert fitted(long, 40) == "\n".join(
        ["Pick a card (p), or play now: u 5 Extra", "Tank which is a very long item indeed", "here; u 6 Go."]
    )
    assert fitted(hand, 0) == hand  # not a terminal: whole


def test_the_card_that_moves_into_the_slot_just_played_is_said() -> None:
    """After a play or discard, the picked card that fills the slot is named with its new slot (issue 36)."""
    for detail in ("brief", "full"):
        script = P.Script(["p", "d 1", "q", "y"])
        status, _, term, _ = P.play_here(5, script, detail=detail)
        assert status == 0
        [line] = [line for line in term.out if line.startswith("You discard ")]
        assert line.endswith(". Go moves to slot 1."), line
    # The original's tidying (§3.6): the lowest card in the hand fills the hole.
    hand = [GO, MILES_75, MILES_25, STOP, MILES_100, REPAIRS, GASOLINE]
    assert moved_sentence(hand, 4, [cards.EMPTY, MILES_75, MILES_25, STOP, GO, REPAIRS, GASOLINE]) == (
        "Go moves to slot 4."
    )
    late = [cards.EMPTY, MILES_75, MILES_25, STOP, MILES_100, REPAIRS, GASOLINE]  # the deck is out: no pick
    tidied = [cards.EMPTY, cards.EMPTY, MILES_25, STOP, MILES_75, REPAIRS, GASOLINE]
    assert moved_sentence(late, 4, tidied) == "75 miles moves to slot 4."
    assert moved_sentence(late, 6, late[:6] + [cards.EMPTY]) == ""


def test_full_detail_switched_on_says_the_turn_before_the_pick() -> None:
    """``v`` then ``p``: ``Your turn.`` comes before ``You pick ...`` (it came after, issue 36)."""
    script = P.Script(["v", "p", "q", "y"])
    status, _, term, _ = P.play_here(5, script)
    assert status == 0
    turn = next(n for n, line in enumerate(term.out) if line.startswith("Your turn."))
    pick = next(n for n, line in enumerate(term.out) if line.startswith("You pick "))
    assert turn < pick, term.out
    assert term.out[turn + 1].startswith("Pick a card (p)")
    assert sum(line.startswith("Your turn.") for line in term.out[: pick + 1]) == 1
