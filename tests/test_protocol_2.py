"""Protocol 2's messages (players/wire.py): any table's observation and moves, and nothing a seat may not see."""

from __future__ import annotations

import json
import random

import pytest

from mille.engine import cards, rules
from mille.engine.observation import observe
from mille.engine.rules import Move, MoveType, Phase
from mille.engine.state import Game, table
from mille.lab.pairs import deal_hand
from mille.players.wire import (
    WireError,
    move_from_json_2,
    move_json,
    move_json_2,
    observation_from_json_2,
    observation_json_2,
    tableau_json,
)


def _decisions(seats: int, seed: int):  # type: ignore[no-untyped-def]
    """Every decision of a hand played by random legal moves: (game, the seat to move), before the move."""
    game = Game(table=table(seats))
    deal_hand(game, seed, 0)
    choice = random.Random(seed)
    while rules.phase(game) is not Phase.HAND_OVER:
        yield game, game.to_move
        rules.push(game, choice.choice(rules.legal_moves(game)))


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_an_observation_crosses_the_pipe_whole_at_every_table(seats: int) -> None:
    phases = set()
    targets = 0
    for game, seat in _decisions(seats, 5):
        obs = observe(game, seat)
        data = json.loads(json.dumps(observation_json_2(obs)))
        back = observation_from_json_2(data)
        assert [tableau_json(t) for t in back.players] == [tableau_json(t) for t in obs.players]
        assert back.hand_sizes == obs.hand_sizes and back.table == obs.table and back.phase is obs.phase
        assert (back.seat, back.to_move, back.deck_count, back.pending_extension) == (
            obs.seat,
            obs.to_move,
            obs.deck_count,
            obs.pending_extension,
        )
        assert data["side"] == seat % obs.table.sides and seat not in data["partners"]
        assert sorted([seat, *data["partners"]]) == list(obs.table.partners(seat % obs.table.sides))
        # Nothing a seat may not see: no hand but its own, a partner's included.
        assert all("hand" not in side for side in data["sides"]) and data["hand"] == game.players[seat].hand
        phases.add(obs.phase)
        for move in rules.legal_moves(game):
            wire = json.loads(json.dumps(move_json_2(move)))
            assert move_from_json_2(wire, obs.table.sides) == move
            targets += move.target is not None
            if move.target is None:
                assert wire == move_json(move)  # protocol 1's form wherever no side is named
    assert Phase.MOVE in phases
    if seats in (3, 6):
        assert targets > 0  # three sides: hazards name their side


def test_a_reaction_is_named_on_the_wire() -> None:
    from mille.players.wire import PHASE_NAMES_2

    assert PHASE_NAMES_2[Phase.REACTION] == "reaction"


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ({"kind": "draw", "target": 1}, "only a play names a target"),
        ({"kind": "play", "slot": 0, "target": 3}, "a target is a side, 0 to 2"),
        ({"kind": "play", "slot": 0, "target": "1"}, "a target is a side"),
    ],
)
def test_a_bad_target_is_refused(answer: dict[str, object], says: str) -> None:
    with pytest.raises(WireError, match=says):
        move_from_json_2(answer, 3)
    assert move_from_json_2({"kind": "play", "slot": 2, "target": 1}, 3) == Move(MoveType.PLAY, 2, 1)


def test_a_bad_observation_is_one_wire_error() -> None:
    game = Game(table=table(4))
    deal_hand(game, 1, 0)
    good = observation_json_2(observe(game, 0))
    for broken in ({**good, "table": {**good["table"], "seats": 5}}, {**good, "seat": 7}, {**good, "hand": [1]}):  # type: ignore[dict-item]
        with pytest.raises(WireError):
            observation_from_json_2(broken)
    assert len(good["hand"]) == cards.HAND_SIZE  # type: ignore[arg-type]
