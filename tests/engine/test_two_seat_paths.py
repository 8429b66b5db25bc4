"""The engine's two-seat fast paths equal its general path at two seats.

``observe``, ``Observation.public_game`` and ``Game.copy`` write two seats out
by hand (every decision of a bot and every rollout of the expert goes through
them); the people link and the guests' views use the general forms at every
table.  Where the two drift, a guest at two seats would see another game than
a bot: these tests hold them together, over positions reached by real play.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.engine import position_after
from mille.engine import cards
from mille.engine.observation import Observation, _observe_table, observe
from mille.engine.state import Game


def _fields(obs: Observation) -> dict[str, object]:
    """An observation's fields, its hands' sizes said by the property (the fast path keeps none)."""
    shown: dict[str, object] = {name: getattr(obs, name) for name in obs.__slots__ if name != "_hand_sizes"}
    shown["hand_sizes"] = obs.hand_sizes
    return shown


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 180), seat=st.sampled_from([0, 1]))
def test_observe_at_two_seats_is_the_table_s_observation(seed: int, moves: int, seat: int) -> None:
    game = position_after(seed, moves)
    fast = observe(game, seat)
    general = _observe_table(game, seat, game.players, None)
    assert _fields(fast) == _fields(general)
    assert fast.legal_moves() == general.legal_moves()
    assert fast.unseen() == general.unseen()


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 180), seat=st.sampled_from([0, 1]))
def test_public_game_at_two_seats_is_the_general_one(seed: int, moves: int, seat: int) -> None:
    obs = observe(game := position_after(seed, moves), seat)
    public = obs.public_game()
    general = _observe_table(game, seat, game.players, None).public_game()
    assert public == general
    # What the general path promises: the observation's tableaus, copied; nothing else known.
    assert public.players == list(obs.players)
    assert all(p is not q for p, q in zip(public.players, obs.players, strict=True))
    assert public.deck == [] and public.deck_count == obs.deck_count
    assert all(m.num_seen == [0] * len(m.num_seen) for m in public.memory)
    public.players[seat].hand[0] = -7
    assert obs.hand[0] != -7


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(1, 2**31 - 1), moves=st.integers(0, 180))
def test_game_copy_at_two_seats_is_an_equal_independent_game(seed: int, moves: int) -> None:
    game = position_after(seed, moves)
    copy = game.copy()
    assert copy == game
    shared = game.copy(share_rng=True)
    assert shared == game and shared.rng is game.rng
    # Independent as the general path's copy is: every list and tableau its own.
    for mine, theirs in zip(copy.players, game.players, strict=True):
        assert mine is not theirs and mine.hand is not theirs.hand
    for mine_memory, their_memory in zip(copy.memory, game.memory, strict=True):
        assert mine_memory is not their_memory and mine_memory.num_seen is not their_memory.num_seen
    assert copy.deck is not game.deck and copy.rng is not game.rng
    before = Game.copy(game)
    copy.players[0].hand[0] = cards.EMPTY if game.players[0].hand[0] != cards.EMPTY else 0
    copy.memory[1].num_seen[0] += 1
    copy.deck.append(0)
    copy.rng.random()
    assert game == before
