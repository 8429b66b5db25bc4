"""A game kept or saved at ``Extension?`` resumes with the board the person saw (issue 36).

The original asked ``Extension?`` after counting the card's miles and
before the card left the hand or the board was repainted (bsd-mille.md
§13; seen on /usr/games/mille at seed 42, Appendix A's keys: the 25 still
in slot P, Milestones Played 675).  A restore drew the board from the
game, which counts the card: 700 on the board with the card still in the
hand, a board the person never saw.  Here the board a restored game shows
at the question is compared with the live board at the question before it
was kept, and plain mode's reading of the board likewise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import plain as P
from helpers.saves import extension_position, move_keys
from helpers.ui import make_app
from mille.engine.state import Game, table
from mille.files import rescue, save
from mille.ui.flow import as_seen
from mille.ui.keeping import Keeper
from mille.ui.layout import YOU
from mille.ui.plain.speaker import Naming, Speaker
from mille.ui.surface import VirtualTerminal

#: Plain mode's sentences alone against the computer.
ALONE = Speaker(Naming.at(table()))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def masked(screen: list[str]) -> list[str]:
    """Without what a restore may show differently: the prompt line's echo and the computer's
    last action (not saved, §8.6), and the message line (the restore banner, §8.5)."""
    out = []
    for y, line in enumerate(screen):
        line = line.ljust(80)
        if y in (10, 11, 12):
            line = line[:20] + " " * 20 + line[40:]
        if y == 15:
            line = line[:40]
        out.append(line.rstrip())
    return out


def kept_at_the_question(
    keys: bytes, game: Game, *, restore: bool, from_file: str | None = None
) -> tuple[str, list[str]]:
    """Play ``keys``; the input ends at ``Extension?`` (a hangup): (the file kept, the screen then)."""
    vt = VirtualTerminal()
    vt.feed(keys)
    seen: list[tuple[str, list[str]]] = []

    def hangup_saver(kept: save.SavedGame) -> None:
        path = rescue.keep_game(kept).path
        assert path is not None
        seen.append((path, vt.lines()))

    app = make_app(vt, game, save_writer=save.write_game, keeper=Keeper(store=hangup_saver), from_file=from_file)
    assert app.run(restore=restore) == 1
    [(path, screen)] = seen
    assert screen[10][20:40].rstrip().startswith("Extension?"), screen[10]
    return path, screen


def test_the_board_restored_at_extension_is_the_board_seen_at_the_question() -> None:
    game, move = extension_position()
    card = game.players[YOU].hand[move.slot]
    path, live = kept_at_the_question(move_keys(move), game.copy(), restore=True)
    kept = save.read_game(path).game
    assert kept.pending_extension == move.slot and kept.players[YOU].mileage == 700  # the position is right
    assert kept.players[YOU].hand[move.slot] == card
    _, restored = kept_at_the_question(b"", kept, restore=True, from_file=path)
    assert masked(restored) == masked(live)
    # What the live board showed, and the restored one now: the mileage before the card (§13).
    mileage = f"Milestones Played {game.players[YOU].mileage:>5}"
    assert mileage in live[1] and mileage in restored[1], (live[1], restored[1])


def test_plain_reads_the_board_seen_at_the_question_live_and_restored() -> None:
    game, move = extension_position()
    slot = "p" if move.slot == 0 else str(move.slot)
    live = P.Script([f"u {slot}", "r", P.EOF_ANSWER])
    kept: list[Game] = []
    _, _, term, _ = P.play_here(
        0, live, game=game.copy(), restore=True, keeper=Keeper(store=lambda what: kept.append(what.game))
    )
    assert live.asked == ["Your move:", "Extension?", "Extension?"]
    [at_question] = kept
    board = ALONE.board_lines(as_seen(at_question))
    assert board[1] != ALONE.board_lines(at_question)[1]  # your side at the mileage before the card, not 700
    asked = [n for n, line in enumerate(term.out) if line == "Extension?"]
    played = term.out[asked[0] - 1]
    assert played.endswith("miles, the end of the trip."), played
    assert term.out[asked[0] + 1 : asked[1]] == board  # r at the question, live
    # Resumed: the same board, the play said again, then the question; r reads the same.
    again = P.Script(["r", P.EOF_ANSWER])
    _, _, term, _ = P.play_here(0, again, game=at_question, restore=True)
    assert again.asked == ["Extension?", "Extension?"]
    first = term.out.index("Extension?")
    assert term.out[first - 1 - len(board) : first] == [*board, played]
    assert term.out[first + 1 : first + 1 + len(board)] == board
