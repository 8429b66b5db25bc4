"""What one seat may see (observe) and worlds consistent with it (sample_world)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.engine import position_after
from mille.engine import cards, rules
from mille.engine.observation import Observation, observe, sample_world
from mille.engine.rng import GlibcRandom


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 160), seat=st.sampled_from([0, 1]))
def test_observation_hides_the_other_hand_and_the_deck(seed: int, moves: int, seat: int) -> None:
    game = position_after(seed, moves)
    obs = observe(game, seat)
    assert obs.hand == game.players[seat].hand
    assert obs.opponent.hand == [cards.EMPTY] * cards.HAND_SIZE
    assert obs.opponent_hand_size == sum(c != cards.EMPTY for c in game.players[1 - seat].hand)
    assert not any(isinstance(v, list) and len(v) == cards.DECK_SIZE for v in (getattr(obs, f) for f in obs.__slots__))
    # Apart from the hand, the other tableau is the table as it lies.
    other = game.players[1 - seat].copy()
    other.hand = [cards.EMPTY] * cards.HAND_SIZE
    assert obs.opponent == other
    assert obs.unseen() == [cards.COPIES[c] - game.memory[seat].num_seen[c] for c in range(cards.NUM_TABLE)]
    assert sum(obs.unseen()) == obs.opponent_hand_size + obs.deck_count
    # Copies: changing the observation changes nothing in the game.
    obs.hand[1] = -7
    obs.memory.num_seen[0] = 99
    assert game.players[seat].hand[1] != -7 and game.memory[seat].num_seen[0] != 99


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(1, 2**31 - 1),
    moves=st.integers(0, 160),
    seat=st.sampled_from([0, 1]),
    sample_seed=st.integers(1, 2**31 - 1),
)
def test_a_sampled_world_looks_the_same_to_the_seat(seed: int, moves: int, seat: int, sample_seed: int) -> None:
    game = position_after(seed, moves)
    obs = observe(game, seat)
    world = sample_world(obs, GlibcRandom(sample_seed))
    assert observe(world, seat) == obs
    # The world is a whole, consistent game: a permutation of the deck, the
    # same hidden multiset, and the other seat's counting exactly what it sees.
    assert sorted(world.deck) == sorted(cards.INITIAL_DECK)
    assert Counter(world.hidden_cards(seat)) == Counter(game.hidden_cards(seat))
    other = 1 - seat
    hidden_from_other = Counter(world.hidden_cards(other))
    seen = world.memory[other].num_seen
    assert [seen[c] for c in range(cards.NUM_CODES)] == [
        cards.COPIES[c] - hidden_from_other[c] for c in range(cards.NUM_CODES)
    ]
    assert rules.legal_moves(world) == (obs.legal_moves() if world.to_move == seat else rules.legal_moves(world))


def test_sampling_is_deterministic_and_varies() -> None:
    game = position_after(11, 30)
    obs = observe(game, 1)
    a = sample_world(obs, GlibcRandom(5))
    b = sample_world(obs, GlibcRandom(5))
    assert a == b or (a.deck == b.deck and a.players == b.players)
    worlds = {tuple(sample_world(obs, GlibcRandom(s)).players[0].hand) for s in range(20)}
    assert len(worlds) > 1


def test_legal_moves_of_an_observation_match_the_game() -> None:
    for seed in range(1, 40):
        game = position_after(seed, seed % 50)
        seat = game.to_move
        assert observe(game, seat).legal_moves() == rules.legal_moves(game)
        assert observe(game, 1 - seat).legal_moves() == []


def test_an_inconsistent_observation_is_refused() -> None:
    obs = observe(position_after(3, 10), 0)
    obs.memory.num_seen[cards.GO] -= 1
    with pytest.raises(ValueError, match="inconsistent"):
        sample_world(obs, GlibcRandom(1))


def test_observation_type_has_no_game() -> None:
    # The information boundary by type: a player is handed an Observation,
    # which holds copies of public fields and the seat's own hand, and no
    # reference to the Game or to the deck array.
    game = position_after(8, 25)
    obs = observe(game, 0)
    assert isinstance(obs, Observation)
    for name in obs.__slots__:
        value = getattr(obs, name)
        assert value is not game and value is not game.deck
        assert value is not game.players[1] and value is not game.players[1].hand
