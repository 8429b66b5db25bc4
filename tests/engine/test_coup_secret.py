"""A coup fourré let pass out of turn changes no one's view (issue 43: the table's secrets kept).

At three seats and more the holder of the safety is asked out of turn
(R10).  Its pass was told to no one, but it cleared its side's fresh
hazard at once: the next view every other seat was sent showed that side's
chance gone while it would have stood had nobody held the safety, so they
learnt that someone of that side held it (at three seats, who).  Each test
plays the same position twice, the safety held and let pass, and not held
at all, and compares what every other seat observes after the pass and
after the next player's move; then checks that the chance is gone all the
same (R10: before the next player acts).
"""

from __future__ import annotations

import pytest

from helpers.engine import LIMIT, OOG, TANK, WAITING, at_table, push_ok, waiting
from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rules import DRAW, PASS, Move, MoveType, Phase
from mille.engine.state import Game
from mille.files.save import to_dict

#: (seats, the attacker, the side it attacks, the holder of its safety, the next seat): R10's cases out of turn.
CASES = [
    (3, 0, 2, 2, 1),  # A0 B1 C2: A0 attacks C2, B1 moves next, C2 asked
    (4, 1, 0, 0, 2),  # A0 B1 A2 B3: B1 attacks A, A2 moves next, A0 asked
    (6, 1, 0, 3, 2),  # A0 B1 C2 A3 B4 C5: B1 attacks A, C2 moves next, A3 asked
    (6, 1, 0, 0, 2),  # ... A0 asked
]


def _position(seats: int, attacker: int, target: int, holder: int | None, deck: int) -> Game:
    hands = {attacker: [OOG, *WAITING]}
    if holder is not None:
        hands[holder] = waiting(TANK)
    game = at_table(seats, hands, to_move=attacker, rolling=range(min(seats, 3)), deck_count=deck)
    push_ok(game, Move(MoveType.PLAY, 0, None if seats == 4 else target))
    return game


def _next_move(game: Game, deck: int) -> None:
    """The next player's move: a draw and a discard, or with the deck run out a discard alone."""
    if deck:
        push_ok(game, DRAW)
    push_ok(game, Move(MoveType.DISCARD, 1))


@pytest.mark.parametrize("deck", [50, 0], ids=["deck", "no-deck"])
@pytest.mark.parametrize(("seats", "attacker", "target", "holder", "nxt"), CASES)
def test_a_pass_out_of_turn_changes_no_one_s_view(
    seats: int, attacker: int, target: int, holder: int, nxt: int, deck: int
) -> None:
    held = _position(seats, attacker, target, holder, deck)
    assert rules.phase(held) is Phase.REACTION and held.to_move == holder
    push_ok(held, PASS)
    unheld = _position(seats, attacker, target, None, deck)
    assert rules.phase(unheld) is Phase.MOVE and held.to_move == unheld.to_move == nxt
    others = [seat for seat in range(seats) if seat != holder]
    for seat in others:
        assert observe(held, seat) == observe(unheld, seat), seat
    _next_move(held, deck)
    _next_move(unheld, deck)
    for seat in others:
        assert observe(held, seat) == observe(unheld, seat), seat


@pytest.mark.parametrize("deck", [50, 0], ids=["deck", "no-deck"])
def test_at_three_seats_the_holder_s_safety_after_its_pass_is_no_coup(deck: int) -> None:
    """C2 let the coup pass; at its own turn, before it draws (or with the deck run out), its Extra Tank is a
    safety and no coup, though the hazard still shows as fresh to everyone: the chance was gone with the pass."""
    game = _position(3, 0, 2, 2, deck)
    push_ok(game, PASS)
    _next_move(game, deck)
    assert game.to_move == 2 and game.players[2].fresh_hazard
    push_ok(game, Move(MoveType.PLAY, game.players[2].hand.index(TANK)))
    assert game.players[2].safety_score == 100 and not game.players[2].coups[0]


def test_a_new_hazard_after_a_pass_is_a_chance_of_its_own() -> None:
    """C2 let the coup on Out of Gas pass; B1 then limits C2's speed: C2, holding the Extra Tank, is not asked
    again (the Out of Gas is no longer fresh, as when the pass cleared it), and its Tank is no coup."""
    game = _position(3, 0, 2, 2, 50)
    push_ok(game, PASS)
    game.players[1].hand = [LIMIT, *WAITING]
    push_ok(game, Move(MoveType.PLAY, 0, 2))
    assert rules.phase(game) is Phase.MOVE and game.to_move == 2
    side = game.players[2]
    assert (side.fresh_hazard, side.fresh_limit) == (False, True)
    push_ok(game, Move(MoveType.PLAY, side.hand.index(TANK)))
    assert not side.coups[0]


def test_a_save_made_after_a_pass_keeps_the_chance_gone() -> None:
    """A save holds what the game means: no fresh hazard for the side that let it pass (the game's secret, as its
    deck is), so that a restored game, which knows nothing of the pass, gives no coup either."""
    game = _position(3, 0, 2, 2, 50)
    push_ok(game, PASS)
    _next_move(game, 50)
    assert game.players[2].fresh_hazard and game.spent
    saved = to_dict(game)["players"]
    assert [p["fresh_hazard"] for p in saved] == [False, False, False]
    unheld = _position(3, 0, 2, None, 50)
    _next_move(unheld, 50)
    assert [p["fresh_hazard"] for p in to_dict(unheld)["players"]] == [False, False, True]
