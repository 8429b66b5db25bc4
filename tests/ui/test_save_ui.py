"""The save dialogs on screen, through the headless VirtualTerminal.

Each test builds a :class:`~mille.ui.flow.GameFlow` (a :class:`~mille.ui.app.BoardFace`) on an in-memory terminal
with the real writer (``save.write_game``), feeds it keys and reads the
80x24 screen.  The app returns when the keys run out (status 1) or when the
player leaves (status 0).  Reference: bsd-mille.md §9.3, §9.4, §10, §11
items 30-34.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from helpers.saves import extension_position, move_keys
from helpers.ui import make_app
from mille.engine import cards, rules
from mille.engine.state import Game
from mille.files import rescue, save
from mille.ui.flow import GameFlow
from mille.ui.keeping import Keeper
from mille.ui.layout import YOU
from mille.ui.surface import HANGUP, VirtualTerminal

DATE = r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}"
KILL = b"\x15"


def new_game(seed: int = 7) -> Game:
    return rules.new_game(seed)


def play(
    keys: bytes, game: Game | None = None, *, restore: bool = False, from_file: str | None = None, **kw: object
) -> tuple[VirtualTerminal, GameFlow, int]:
    vt = VirtualTerminal()
    vt.feed(keys)
    app = make_app(vt, game or new_game(), save_writer=save.write_game, from_file=from_file, **kw)  # type: ignore[arg-type]
    status = app.run(restore=restore)
    return vt, app, status


def error_line(vt: VirtualTerminal) -> str:
    return vt.lines()[15][45:].rstrip()


def prompt_line(vt: VirtualTerminal) -> str:
    return vt.lines()[10][20:40].rstrip()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_save_at_the_move_prompt_writes_the_file_and_shows_name_and_date():
    vt, app, status = play(b"sg1\r")
    assert status == 1  # the keys ran out
    assert re.fullmatch(rf"g1 \[{DATE}\]", error_line(vt)), error_line(vt)
    assert vt.lines()[10][20:29] == ">>:Move: "  # the move prompt is back
    assert vt.cursor == (10, 29)
    loaded = save.read_game("g1")
    assert loaded.game.pending_extension is None
    assert save.to_dict(loaded.game) == save.to_dict(app.game)
    assert oct(os.stat("g1").st_mode & 0o777) == oct(0o600)  # the saver's alone, whatever the umask (issue 43)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_existing_file_asks_overwrite_and_no_keeps_it():
    Path("g1").write_text("precious\n")
    vt, _, _ = play(b"sg1\r")
    assert prompt_line(vt) == "Overwrite file?"
    assert vt.cursor == (10, 36)
    vt, _, _ = play(b"sg1\rn")
    assert prompt_line(vt) == ">>:Move:"
    assert error_line(vt) == ""
    assert Path("g1").read_text() == "precious\n"
    vt, app, _ = play(b"sg1\ry")
    assert re.fullmatch(rf"g1 \[{DATE}\]", error_line(vt))
    assert save.to_dict(save.read_game("g1").game) == save.to_dict(app.game)


def test_empty_name_cancels_silently():
    vt, _, _ = play(b"s\r")
    assert prompt_line(vt) == ">>:Move:"
    assert error_line(vt) == ""
    assert os.listdir(".") == []


def test_kill_restarts_the_name():
    vt, _, _ = play(b"sjunk" + KILL + b"g2\r")
    assert re.fullmatch(rf"g2 \[{DATE}\]", error_line(vt))
    assert os.path.exists("g2") and not os.path.exists("junkg2")


def test_restored_game_asks_same_file_and_yes_overwrites_without_asking():
    save.write_game("r1", new_game_dealt())
    before = os.stat("r1").st_mtime_ns
    game = save.read_game("r1").game
    vt, _, _ = play(b"s", game, restore=True, from_file="r1")
    assert prompt_line(vt) == "Same file?"
    assert vt.cursor == (10, 31)
    game = save.read_game("r1").game
    vt, app, _ = play(b"sy", game, restore=True, from_file="r1")
    assert "Overwrite" not in "".join(vt.lines())
    assert re.fullmatch(rf"r1 \[{DATE}\]", error_line(vt))
    assert os.stat("r1").st_mtime_ns >= before
    assert save.to_dict(save.read_game("r1").game) == save.to_dict(app.game)


def test_restored_game_other_existing_name_is_overwritten_without_asking():
    """§11.33: Same file? no, then an existing name: no Overwrite question."""
    save.write_game("r1", new_game_dealt())
    Path("other").write_text("old\n")
    game = save.read_game("r1").game
    vt, app, _ = play(b"snother\r", game, restore=True, from_file="r1")
    assert "Overwrite" not in "".join(vt.lines())
    assert re.fullmatch(rf"other \[{DATE}\]", error_line(vt))
    assert save.to_dict(save.read_game("other").game) == save.to_dict(app.game)


def new_game_dealt(seed: int = 7) -> Game:
    game = new_game(seed)
    rules.start_hand(game)
    return game


def test_failed_save_shows_the_system_error_and_play_continues():
    vt, app, status = play(b"snodir/x.json\r")
    assert status == 1
    # Said at once, with the bell (the original showed it only after the next move, §8.5: a listed difference).
    assert error_line(vt) == "No such file or directory"
    assert prompt_line(vt) == ">>:Move:"
    assert vt.cursor[0] == 10  # back at the prompt
    vt, app, status = play(b"snodir/x.json\rp")
    assert error_line(vt) == "No such file or directory"
    assert app.game.players[YOU].hand[0] != cards.EMPTY  # the draw happened
    assert vt.lines()[6][22:24] == "88"
    assert not os.path.exists("nodir")


@pytest.mark.parametrize(
    ("keys", "prompt"),
    [(b"s/nonexistent/x.json\r", ">>:Move:"), (b"qs/nonexistent/x.json\r", "Really?")],
    ids=["move-prompt", "really-prompt"],
)
def test_a_failed_save_says_why_at_once_on_the_message_line(keys: bytes, prompt: str) -> None:
    """The bell and nothing else, before (the original's silence, §8.5): now the reason too, before any move."""
    vt, _, status = play(keys)
    assert status == 1  # the keys ran out at the prompt the save was asked from
    assert error_line(vt) == "No such file or directory"
    assert vt.bells == 1
    assert prompt_line(vt) == prompt
    assert not os.path.exists("/nonexistent")


@pytest.mark.skipif(os.name != "posix", reason="POSIX error text")
def test_a_directory_in_the_way_is_reported_and_left_alone():
    os.mkdir("d")
    Path("d/keep").write_text("x")
    vt, _, _ = play(b"sd\ryp")
    assert error_line(vt) == "Is a directory"
    assert os.listdir("d") == ["keep"]


def test_a_failed_save_keeps_the_previous_file(monkeypatch):
    save.write_game("g1", new_game_dealt(3))
    before = Path("g1").read_bytes()

    def full_disk(fd: int) -> None:
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(save.os, "fsync", full_disk)
    vt, _, _ = play(b"sg1\ryp")
    assert error_line(vt) == "No space left on device"
    assert Path("g1").read_bytes() == before
    assert os.listdir(".") == ["g1"]  # no temporary file left behind


def _finish_keys() -> tuple[Game, bytes]:
    game, move = extension_position()
    return game, move_keys(move)


def test_save_at_another_hand_then_no_exits_without_asking_save_game():
    """§11.32: a successful S at Another hand? skips the Save game? question."""
    game, keys = _finish_keys()
    vt, _, status = play(keys + b"n" + b"se1\r" + b"n", game, restore=True)
    assert status == 0
    assert prompt_line(vt) == "Another hand? N"
    assert "Save game?" not in "".join(vt.lines())
    loaded = save.read_game("e1")
    assert loaded.game.finished
    assert loaded.game.pending_extension is None


def test_save_game_yes_with_an_empty_name_goes_on_with_another_hand():
    """§11.31: a failed save at Save game? carries on with another hand."""
    game, keys = _finish_keys()
    hands_before = game.deck_count
    vt, app, status = play(keys + b"n" + b"n" + b"y" + b"\r", game, restore=True)
    assert status == 1  # still playing when the keys ran out
    assert not app.game.finished
    assert app.game.deck_count >= 88 - 1 and app.game.deck_count != hands_before
    assert prompt_line(vt).startswith(">>:Move:")
    assert app.game.players[YOU].mileage == 0


def test_save_game_yes_with_a_name_saves_and_exits():
    game, keys = _finish_keys()
    vt, _, status = play(keys + b"n" + b"n" + b"y" + b"e2\r", game, restore=True)
    assert status == 0
    assert re.fullmatch(rf"e2 \[{DATE}\]", error_line(vt))
    loaded = save.read_game("e2").game
    assert loaded.finished


def test_save_at_extension_holds_the_completed_move_and_asks_again_on_restore():
    """§12.3: our Extension? save is consistent (the game holds the question); the restore asks again."""
    game, keys = _finish_keys()
    slot = int(keys[1:2])
    card = game.players[YOU].hand[slot]
    mileage = game.players[YOU].mileage
    vt, app, _ = play(keys + b"sx1\r", game, restore=True)
    assert prompt_line(vt) == "Extension?"
    assert re.fullmatch(rf"x1 \[{DATE}\]", error_line(vt))
    loaded = save.read_game("x1")
    saved = loaded.game
    assert saved.pending_extension == slot
    human = saved.players[YOU]
    assert human.mileage == mileage + cards.MILES[card] == 700
    assert saved.trip_length == 700 and not saved.finished and saved.to_move == YOU
    assert human.hand[slot] == card  # counted, still in the hand, as the original has it

    # Restored: the question comes back; yes extends the trip to 1000.
    vt, app, _ = play(
        b"y",
        loaded.game,
        restore=True,
        from_file="x1",
        restore_banner="x1 [then]",
    )
    assert app.game.trip_length == 1000
    assert vt.lines()[4][9:18] == "Extension"
    assert app.game.players[YOU].mileage >= 700

    # Restored again and answered no: the hand ends with the trip bonus.
    vt, app, _ = play(b"n", save.read_game("x1").game, restore=True, from_file="x1")
    assert app.game.finished and app.game.trip_length == 700
    assert prompt_line(vt) == "Another hand?"
    assert vt.lines()[5][62:64] == "40"  # Trip Completed, your column


def test_save_from_really_in_a_restored_end_of_hand_game_keeps_the_hand():
    """The original left On_exit set through the restored hand: a save made
    there from Really? dealt a new hand on restore.  Ours keeps the hand."""
    game, keys = _finish_keys()
    play(keys + b"n" + b"se1\r" + b"n", game, restore=True)
    restored = save.read_game("e1").game
    _, app, _ = play(b"qsy", restored, restore=True, from_file="e1")
    again = save.read_game("e1").game
    assert not again.finished
    assert save.to_dict(again)["deck"] == save.to_dict(app.game)["deck"]


def test_hangup_saves_to_the_state_directory_and_exits_1(tmp_path):
    game = new_game_dealt(11)
    saved: list[tuple[str, Game]] = []

    def hangup_saver(kept: save.SavedGame) -> None:
        path = rescue.keep_game(kept).path
        assert path is not None
        saved.append((path, kept.game))

    vt = VirtualTerminal([ord("p"), HANGUP])
    app = make_app(vt, game, save_writer=save.write_game, keeper=Keeper(store=hangup_saver))
    assert app.run(restore=True) == 1
    [(path, snapshot)] = saved
    assert re.search(r"/state/mille/hangup-\d{8}-\d{6}\.json$", path)
    loaded = save.read_game(path)
    assert save.to_dict(loaded.game) == save.to_dict(app.game)
    assert loaded.game.players[YOU].hand[0] != cards.EMPTY  # after the draw
    assert snapshot.pending_extension is None


def test_hangup_at_extension_saves_the_pending_question():
    game, keys = _finish_keys()
    saved: list[str] = []

    def hangup_saver(kept: save.SavedGame) -> None:
        path = rescue.keep_game(kept).path
        assert path is not None
        saved.append(path)

    vt = VirtualTerminal(list(keys) + [HANGUP])
    app = make_app(vt, game, save_writer=save.write_game, keeper=Keeper(store=hangup_saver))
    assert app.run(restore=True) == 1
    loaded = save.read_game(saved[0])
    assert loaded.game.pending_extension is not None
    assert loaded.game.players[YOU].mileage == 700


def test_long_name_is_shortened_on_the_error_line():
    name = "a-rather-long-file-name-for-a-save.json"
    vt, _, _ = play(b"s" + name.encode() + b"\r")
    shown = error_line(vt)
    # Too long even without the date: the name keeps its ends.
    assert shown == name[:16] + "..." + name[-16:], shown
    assert os.path.exists(name)


def test_a_nul_in_the_name_ends_it_as_in_the_original():
    vt, _, status = play(b"sa\x00b\rp")
    assert status == 1
    assert re.fullmatch(rf"a \[{DATE}\]", error_line(vt)), error_line(vt)
    assert os.listdir(".") == ["a"]
