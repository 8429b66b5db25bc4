"""Saves of every table (format version 3): round trips, damage refused in one line, old versions still read.

A hand is played at each table of ``table-rules.md`` R1 by the BSD
procedure, and the game is saved and loaded before every decision a save
can be made at; every loaded game must write the same text again.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mille.engine import position, rules
from mille.engine.driver import play_hand
from mille.engine.rng import GlibcRandom
from mille.engine.state import TWO, Game, table
from mille.files import save
from mille.players.bsd import BsdPlayer


def _played(seats: int, seed: int) -> tuple[Game, list[str]]:
    """A hand played at ``seats``, and the save text at each decision a save can be made at."""
    game = Game(table=table(seats), rng=GlibcRandom(seed))
    rules.start_hand(game)
    texts: list[str] = []

    class Saver:
        def before_move(self, g: Game) -> None:
            if (g.pending_extension is None or g.to_move == 0) and (g.reaction is None or g.to_move != 0):
                texts.append(save.dumps(g))

        def after_move(self, *args: object) -> None:
            pass

    play_hand(
        game, [BsdPlayer() for _ in range(seats)], [GlibcRandom(seed + k) for k in range(seats)], observer=Saver()
    )
    texts.append(save.dumps(game))
    return game, texts


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_every_position_of_a_hand_round_trips(seats: int) -> None:
    game, texts = _played(seats, 11)
    assert len(texts) > 20
    for text in texts:
        loaded = save.loads(text)
        assert loaded.version == save.TABLE_VERSION
        assert loaded.game.table == game.table
        assert len(loaded.game.players) == seats
        assert save.dumps(loaded.game) == text
    assert any('"reaction": null' in t for t in texts)


def test_two_seats_still_written_as_version_2() -> None:
    game, texts = _played(2, 3)
    assert game.table == TWO
    assert all(json.loads(t)["version"] == 2 and "table" not in json.loads(t) for t in texts)
    assert save.loads(texts[5]).version == 2


def test_a_two_seat_table_with_other_game_points_keeps_them() -> None:
    game = Game(table=table(2, game_points=1000), rng=GlibcRandom(4))
    rules.start_hand(game)
    loaded = save.loads(save.dumps(game))
    assert loaded.version == 3 and loaded.game.table.game_points == 1000


def _damaged(seats: int, change: Any) -> str:
    _game, texts = _played(seats, 7)
    data = json.loads(texts[len(texts) // 2])
    change(data)
    return json.dumps(data)


def _swap_hands(d: dict[str, Any]) -> None:
    # a card of a partner's hand replaced by a copy of one from the deck's dealt part: too many of one card
    hand = d["players"][3]["hand"]
    slot = next(i for i, c in enumerate(hand) if c is not None)
    hand[slot] = "Right of Way" if hand[slot] != "Right of Way" else "Extra Tank"


@pytest.mark.parametrize(
    ("seats", "change", "message"),
    [
        (4, lambda d: d["table"].update(seats=5), "table.seats: must be 2 or 3 or 4 or 6, not 5"),
        (4, lambda d: d["players"].pop(), "players: must have 4 entries, not 3"),
        (6, lambda d: d["memory"].pop(), "memory: must have 6 entries, not 5"),
        (4, lambda d: d.update(trip_length=700), "trip_length: 700, but this table plays 1000 without the Extension"),
        (4, lambda d: d["players"][3].update(mileage=25), "players[3].mileage: set, but this seat plays on"),
        (6, lambda d: d.update(to_move=6), "to_move: must be 0 or 1 or 2 or 3 or 4 or 5, not 6"),
        (3, lambda d: d.update(reaction=0, to_move=0), "reaction: set with you asked for a coup fourré"),
        (4, lambda d: d.update(extender=1), "extender: 1, but no side of this table can have called it"),
        (4, lambda d: d["table"].update(unknown=1), 'table: unknown field "unknown"'),
        (4, _swap_hands, ""),
    ],
)
def test_damaged_table_saves_are_refused_in_one_line(seats: int, change: Any, message: str) -> None:
    with pytest.raises(save.SaveError) as caught:
        save.loads(_damaged(seats, change))
    text = str(caught.value)
    assert "\n" not in text and text.startswith(message)


def test_the_engine_check_sees_every_seat() -> None:
    """position.check at four seats: a card twice in a partner's hand, a partner's counting beyond the cards."""
    game, _ = _played(4, 9)
    rules.start_hand(game)
    position.check(game)
    broken = game.copy()
    broken.players[3].hand[1] = broken.players[2].hand[1]
    with pytest.raises(position.InvalidPosition):
        position.check(broken)
    broken = game.copy()
    broken.memory[2].num_seen[broken.players[3].hand[2]] += 5
    with pytest.raises(position.InvalidPosition, match=r"memory\[2\]\.num_seen"):
        position.check(broken)


def test_written_and_read_through_a_file(tmp_path: Any) -> None:
    game, _ = _played(6, 2)
    path = str(tmp_path / "six.json")
    save.write_game(path, save.SavedGame(game, 1, "bsd"))
    loaded = save.read_game(path)
    assert (loaded.version, loaded.window, loaded.computer) == (3, 1, "bsd")
    assert save.dumps(loaded) == save.dumps(save.SavedGame(game, 1))
