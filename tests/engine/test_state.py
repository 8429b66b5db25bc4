"""State: copies are independent; each seat's counting matches what it can see."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.engine import position_after
from mille.engine import cards


def test_copy_is_independent() -> None:
    game = position_after(5, 20)
    clone = game.copy()
    assert clone == game
    assert clone.players == game.players
    assert clone.deck == game.deck and clone.memory == game.memory
    assert clone.rng is not game.rng
    before_hand = game.players[0].hand[:]
    clone.players[0].hand[1] = -5
    clone.players[1].safety[0] = 2
    clone.deck[0] = -5
    clone.memory[1].num_seen[cards.GO] += 3
    assert game.players[0].hand == before_hand
    assert game.players[1].safety is not clone.players[1].safety
    assert game.deck[0] != -5
    assert game.memory[1].num_seen[cards.GO] == clone.memory[1].num_seen[cards.GO] - 3
    # the generator is cloned: both continue with the same numbers
    assert [game.rng.random() for _ in range(5)] == [clone.rng.random() for _ in range(5)]
    shared = game.copy(share_rng=True)
    assert shared.rng is game.rng


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 160), seat=st.sampled_from([0, 1]))
def test_each_seat_has_seen_every_card_not_hidden_from_it(seed: int, moves: int, seat: int) -> None:
    # num_seen is kept incrementally, as the original's account(); it always
    # equals "all copies but those in the other hand and the undrawn deck".
    game = position_after(seed, moves)
    hidden = Counter(game.hidden_cards(seat))
    seen = game.memory[seat].num_seen
    assert [seen[c] for c in range(cards.NUM_CODES)] == [cards.COPIES[c] - hidden[c] for c in range(cards.NUM_CODES)]
