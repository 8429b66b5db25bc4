"""The expert at any table (issue 38): its worlds, its counting, its search from its own seat's view only."""

from __future__ import annotations

from collections import Counter

import pytest

from mille.engine import cards, rules
from mille.engine.observation import observe, sample_world
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Phase
from mille.engine.state import Game, Memory, table
from mille.players.bsd import BsdPlayer


def table_positions(seats: int, seed: int, every: int = 7) -> list[Game]:
    """Positions along a hand of BSD players at ``seats`` (every ``every``-th move, and every question)."""
    game = Game(rng=GlibcRandom(seed), table=table(seats))
    rules.start_hand(game)
    players = [BsdPlayer() for _ in range(seats)]
    dice = GlibcRandom(seed + 1)
    found: list[Game] = []
    step = 0
    while rules.phase(game) is not Phase.HAND_OVER:
        now = rules.phase(game)
        if step % every == 0 or now is Phase.REACTION or now is Phase.EXTENSION:
            found.append(game.copy())
        seat = game.to_move
        move = rules.PASS if now is Phase.EMPTY_HAND else players[seat].choose(observe(game, seat), dice)
        rules.push(game, move)
        step += 1
    return found


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_world_of_any_table_looks_the_same_to_the_seat(seats: int) -> None:
    checked = 0
    for seed in (5, 17):
        for game in table_positions(seats, seed):
            for seat in range(seats):
                obs = observe(game, seat)
                world = sample_world(obs, GlibcRandom(seed * 131 + checked))
                checked += 1
                assert observe(world, seat) == obs
                # A whole game: the table's deck, the same hidden multiset,
                # every other seat's counting exactly what it sees there.
                assert sorted(world.deck) == sorted(game.table.deck)
                assert Counter(world.hidden_cards(seat)) == Counter(game.hidden_cards(seat))
                for other in range(seats):
                    hidden = Counter(world.hidden_cards(other))
                    seen = world.memory[other].num_seen
                    assert [seen[c] for c in range(cards.NUM_CODES)] == [
                        game.table.copies[c] - hidden[c] for c in range(cards.NUM_CODES)
                    ]
                if obs.to_move == seat:
                    assert rules.legal_moves(world) == obs.legal_moves()
    assert checked > 100


def test_the_partners_hand_is_dealt_from_the_unseen_cards_not_read() -> None:
    game = table_positions(4, 9)[3]
    obs = observe(game, 0)
    partner_hands = {tuple(sample_world(obs, GlibcRandom(s)).players[2].hand) for s in range(1, 30)}
    assert len(partner_hands) > 20  # dealt anew in each world
    # The same observation, whatever the hidden cards really are: the same worlds.
    other = sample_world(obs, GlibcRandom(99))
    assert observe(other, 0) == obs
    for s in (3, 4):
        assert sample_world(observe(other, 0), GlibcRandom(s)) == sample_world(obs, GlibcRandom(s))


def test_num_gos_counts_a_safety_with_the_tables_deck() -> None:
    """A safety drawn at four seats adds its hazard's unseen copies of the 106-card deck (three Out of Gas, not two)."""
    game = Game(rng=GlibcRandom(3), table=table(4))
    rules.start_hand(game)
    seat = game.to_move
    hand = game.players[seat].hand
    top = game.deck_count - 1
    game.deck[top] = cards.EXTRA_TANK
    memory = game.memory[seat]
    before, seen = memory.num_gos, memory.num_seen[cards.OUT_OF_GAS]
    rules.push(game, rules.DRAW)
    assert hand[0] == cards.EXTRA_TANK
    assert memory.num_gos - before == cards.FULL_COPIES[cards.OUT_OF_GAS] - seen == 3 - seen
    # The original's table counts as it always did.
    two = Memory()
    two.count(cards.EXTRA_TANK, True)
    assert two.num_gos == cards.COPIES[cards.OUT_OF_GAS] == 2


@pytest.mark.parametrize("seats", [4, 6])
def test_num_gos_never_runs_below_zero_at_the_106_card_tables(seats: int) -> None:
    for seed in range(1, 15):
        for game in table_positions(seats, seed, every=1):
            assert min(m.num_gos for m in game.memory) >= 0
