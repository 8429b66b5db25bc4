"""State: copies are independent, and hidden information can be re-dealt."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mille import cards, computer, rules
from mille.state import COMPUTER, HUMAN, Game


def _position(seed: int, moves: int) -> Game:
    """A mid-hand position reached by computer-vs-first-legal-move play."""
    game = Game()
    game.rng.seed(seed)
    rules.start_hand(game)
    for _ in range(moves):
        if game.finished:
            break
        if game.play == COMPUTER:
            move = computer.decide(game).move
        else:
            legal = rules.legal_moves(game)
            if not legal:
                rules.push(game, rules.Move(rules.MoveType.DISCARD, 6))
                continue
            move = legal[-1]
        rules.push(game, move, lambda g, slot: computer.would_extend(g) if g.play == COMPUTER else False)
    return game


def test_copy_is_independent() -> None:
    game = _position(5, 20)
    clone = game.copy()
    assert clone.players == game.players
    assert clone.deck == game.deck and clone.num_seen == game.num_seen and clone.num_need == game.num_need
    assert clone.rng is not game.rng
    before_hand = game.players[HUMAN].hand[:]
    clone.players[HUMAN].hand[1] = -5
    clone.players[COMPUTER].safety[0] = 2
    clone.deck[0] = -5
    clone.num_need[cards.GO] += 7
    clone.num_seen[cards.GO] += 3
    assert game.players[HUMAN].hand == before_hand
    assert game.players[COMPUTER].safety is not clone.players[COMPUTER].safety
    assert game.deck[0] != -5
    assert game.num_need[cards.GO] == clone.num_need[cards.GO] - 7
    assert game.num_seen[cards.GO] == clone.num_seen[cards.GO] - 3
    # the generator is cloned: both continue with the same numbers
    assert [game.rng.random() for _ in range(5)] == [clone.rng.random() for _ in range(5)]
    shared = game.copy(share_rng=True)
    assert shared.rng is game.rng


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 120), viewer=st.sampled_from([HUMAN, COMPUTER]))
def test_determinized_keeps_what_the_viewer_sees(seed: int, moves: int, viewer: int) -> None:
    game = _position(seed, moves)
    sample = game.determinized(viewer, random.Random(seed))
    assert sorted(sample.deck) == sorted(cards.INITIAL_DECK)
    assert sample.players[viewer] == game.players[viewer]
    assert sample.deck_count == game.deck_count
    assert sample.discard == game.discard
    assert sample.num_seen == game.num_seen
    assert sorted(sample.hidden_cards(viewer)) == sorted(game.hidden_cards(viewer))
    hidden_hand = [c for c in sample.players[1 - viewer].hand if c != cards.EMPTY]
    assert len(hidden_hand) == len([c for c in game.players[1 - viewer].hand if c != cards.EMPTY])
    # the drawn part of the array holds exactly the cards no longer undrawn
    drawn = sorted(sample.deck[sample.deck_count :])
    undrawn_removed = sorted(cards.INITIAL_DECK)
    for c in sample.deck[: sample.deck_count]:
        undrawn_removed.remove(c)
    assert drawn == undrawn_removed
