"""Property tests over thousands of whole hands (hypothesis picks the seeds).

Every move of every hand is checked:

* the deck array is always a permutation of the 101-card deck;
* every card is somewhere exactly once: the cards in both hands, the cards
  played (counted as they are played), the cards discarded and the undrawn
  cards add up to the 101-card deck, card for card;
* the scores always recompute from the tableaus
  (:func:`mille.engine.scoring.recompute_hand_total`), and overall totals move in
  step with hand totals;
* the computer's card counting matches a recount of what it has seen;
* no illegal move is ever applied: every move chosen is one of
  :func:`mille.engine.rules.legal_moves` and push() accepts it;
* every hand ends (the simulator's move cap raises otherwise).

Two kinds of games: the BSD computer in both seats (the simulator), and the
computer against a random legal human, whose odd moves (coups fourrés,
pointless Go cards, discarding good cards) reach positions the computer
would never create for itself.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.engine import EMPTY, C, Game, SafetyStatus, rules
from mille.engine import position
from mille.engine.driver import MAX_MOVES_PER_HAND
from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, MoveType
from mille.engine.scoring import recompute_hand_total
from mille.lab.sim import SimulationError, Simulator, Step
from mille.players.bsd import BsdPlayer

SORTED_DECK = sorted(C.INITIAL_DECK)
COPIES = list(C.COPIES[: C.NUM_CODES])


def counts(cards_: list[int]) -> list[int]:
    """Cards by code (empties ignored); plain lists are much faster than Counter."""
    n = [0] * C.NUM_CODES
    for c in cards_:
        if c >= 0:
            n[c] += 1
    return n


SEEDS = st.integers(min_value=1, max_value=2**31 - 1)


class RandomHuman:
    """A random legal human (any legal move, either answer to Extension?)."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return self.rnd.choice(observation.legal_moves())


class Checked:
    """Wraps a player: every move it chooses must be one of the legal moves."""

    def __init__(self, sim: CheckedSimulator, inner: object) -> None:
        self.sim = sim
        self.inner = inner

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        game = self.sim.game
        legal = rules.legal_moves(game)
        assert observation.legal_moves() == legal
        move: Move = self.inner.choose(observation, rng)  # type: ignore[attr-defined]
        assert move in legal, f"illegal move {move} for {observation.seat}: {observation.hand}"
        assert move.kind is not MoveType.ORDER
        return move


class CheckedSimulator(Simulator):
    """A simulator that checks every invariant around every move."""

    def __init__(self, seed: int, *, random_human: random.Random | None = None) -> None:
        super().__init__(seed, observer=self._after)
        human = RandomHuman(random_human) if random_human is not None else BsdPlayer()
        self.computer = BsdPlayer()
        self.players = (Checked(self, human), Checked(self, self.computer))  # type: ignore[assignment]
        self.random_human = random_human
        self.moves_checked = 0
        self.hands_checked = 0
        self._played = [0] * C.NUM_CODES
        self._discarded = [0] * C.NUM_CODES
        self._seen = [0] * C.NUM_CODES
        self._mirror_seen = [0] * C.NUM_CODES
        self._pending_card = EMPTY
        self._totals_before = (0, 0)
        self.skips = 0
        self._base_totals = (0, 0)
        self._played_safeties: list[set[int]] = [set(), set()]

    # -- hand bookkeeping ---------------------------------------------

    def play_hand(self):  # type: ignore[no-untyped-def]
        game = self.game
        self._totals_before = (game.players[0].total, game.players[1].total)
        played = super().play_hand()
        result = played.result
        self.hands_checked += 1
        assert game.finished
        assert played.moves <= MAX_MOVES_PER_HAND
        # The hand ended for one of the two real reasons.
        trip = [pp.mileage == game.trip_length for pp in game.players]
        assert sum(trip) <= 1
        if not any(trip):
            assert game.deck_count == 0
            for who in (0, 1):
                pp, op = game.players[who], game.players[1 - who]
                assert not any(c >= C.SAFETY_BASE or rules.can_play(game.trip_length, pp, op, c) for c in pp.hand)
        if result.game_over:
            assert game.players[0].total == 0 and game.players[1].total == 0
        return played

    def dealt(self) -> None:
        """Record the deal, before the hand's first move."""
        game = self.game
        self._played = [0] * C.NUM_CODES
        self._discarded = [0] * C.NUM_CODES
        self._played_safeties = [set(), set()]
        # The deal: each seat counts its own six cards.
        self._seen = counts(game.players[1].hand)
        self._mirror_seen = counts(game.players[0].hand)
        self._base_totals = self._totals_before

    # -- after every move ---------------------------------------------

    def _after(self, game: Game, step: Step) -> None:
        kind = step.move.kind
        if kind is MoveType.PASS:  # an empty hand: nothing moves
            self.skips += 1
            check_position(game)
            return
        self.moves_checked += 1
        if kind is MoveType.EXTEND or kind is MoveType.NO_EXTENSION:
            # The answer completes a play: the card leaves the hand now.
            assert len(step.cards) == 0
            self.moves_checked -= 1  # part of the play it answers, one move
            kind = MoveType.PLAY
            step = Step(step.player, step.move, step.outcome, (self._pending_card,))
        elif game.pending_extension is not None:
            # A play stopped at Extension?: counted, still in the hand.
            self._pending_card = step.cards[0]
            assert game.players[step.player].hand[game.pending_extension] == step.cards[0]
            check_position(game)
            return
        if kind is MoveType.DRAW:
            bump(self._seen if step.player == 1 else self._mirror_seen, step.cards)
            assert 1 <= len(step.cards) <= 2
            assert step.cards[0] in game.players[step.player].hand
        else:
            bump(self._played if kind is MoveType.PLAY else self._discarded, step.cards)
            bump(self._mirror_seen if step.player == 1 else self._seen, step.cards)
            if kind is MoveType.PLAY and step.cards[0] >= C.SAFETY_BASE:
                self._played_safeties[step.player].add(step.cards[0])
        check_position(game)
        # Card conservation, card for card: hands + played + discarded + undrawn.
        in_hands = counts(game.players[0].hand + game.players[1].hand)
        undrawn = counts(game.deck[: game.deck_count])
        played, discarded = self._played, self._discarded
        for c in range(C.NUM_CODES):
            assert in_hands[c] + played[c] + discarded[c] + undrawn[c] == COPIES[c], C.name(c)
        assert game.discard == EMPTY or discarded[game.discard] > 0
        # Overall totals move with hand totals.
        for who in (0, 1):
            pp = game.players[who]
            assert pp.total == self._base_totals[who] + pp.hand_total
            assert recompute_hand_total(game, who) == pp.hand_total
            played = {C.SAFETY_BASE + i for i, s in enumerate(pp.safety) if s == SafetyStatus.PLAYED}
            assert played == self._played_safeties[who]
        # Each seat's counting is a recount of what it has seen.
        assert game.memory[1].num_seen[: C.NUM_CODES] == self._seen
        assert game.memory[0].num_seen[: C.NUM_CODES] == self._mirror_seen


def bump(table: list[int], cards_: tuple[int, ...]) -> None:
    for c in cards_:
        table[c] += 1


def check_position(game: Game) -> None:
    """Invariants of any position."""
    assert sorted(game.deck) == SORTED_DECK
    assert 0 <= game.deck_count <= C.DECK_SIZE
    assert game.trip_length in (700, 1000)
    for who in (0, 1):
        pp = game.players[who]
        assert len(pp.hand) == C.HAND_SIZE
        assert all(-1 <= c <= C.RIGHT_OF_WAY for c in pp.hand)
        assert pp.mileage == sum(n * v for n, v in zip(pp.nummiles, C.MILES[:5]))
        assert pp.mileage <= game.trip_length
        assert pp.nummiles[C.MILES_200] <= 2
        assert pp.battle in (EMPTY, C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.STOP) or 10 <= pp.battle <= 13
        assert pp.speed in (EMPTY, C.SPEED_LIMIT, C.END_OF_LIMIT)
        assert pp.safety_score == 100 * sum(s == SafetyStatus.PLAYED for s in pp.safety)
        assert pp.coup_score == 300 * sum(pp.coups)
        for i, coup in enumerate(pp.coups):
            assert not coup or pp.safety[i] == SafetyStatus.PLAYED
        if pp.battle == C.GO:
            assert pp.can_go
        if pp.battle in (C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.STOP):
            assert not pp.can_go
    # The table shows a safety only once played.
    for pp in game.players:
        for i in range(C.NUM_SAFETIES):
            assert pp.safety[i] in (SafetyStatus.UNKNOWN, SafetyStatus.PLAYED)
    # The engine's own check agrees: every position play reaches is valid.
    position.check(game)


HANDS_PER_EXAMPLE = 6


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_bsd_against_bsd(seed: int) -> None:
    sim = CheckedSimulator(seed)
    for _ in range(HANDS_PER_EXAMPLE):
        sim.play_hand()
    assert sim.hands_checked == HANDS_PER_EXAMPLE
    assert sim.summary.hands == HANDS_PER_EXAMPLE
    assert sim.moves_checked == sim.summary.moves - sim.skips > 50 * HANDS_PER_EXAMPLE


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, human_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_bsd_against_a_random_human(seed: int, human_seed: int) -> None:
    sim = CheckedSimulator(seed, random_human=random.Random(human_seed))
    for _ in range(HANDS_PER_EXAMPLE):
        sim.play_hand()


def test_a_long_run_of_games() -> None:
    # One program run long enough for several games and a num_need that has
    # grown large (the regime of the binary's discard crash, §12.1).
    sim = CheckedSimulator(20240601)
    for _ in range(150):
        sim.play_hand()
    assert sim.summary.games >= 10
    assert max(sim.computer.num_need) > 100


def test_move_cap_raises_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hand that never ends (here: a rules engine whose moves keep the turn).
    sim = Simulator(5)
    sim.fast = False  # through the driver's loop, which the guard watches
    monkeypatch.setattr(rules, "push", lambda game, move: rules.MADE)
    try:
        sim.play_hand()
    except SimulationError as exc:
        assert "no end after" in str(exc)
    else:
        raise AssertionError("an endless hand must raise")


def test_order_is_not_a_game_move() -> None:
    class Orderer:
        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            return Move(MoveType.ORDER)

    sim = Simulator(5, players=(Orderer(), BsdPlayer()))  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="never a player's decision"):
        sim.play_hand()


def test_illegal_choice_raises_loudly() -> None:
    class Cheater:
        def __init__(self) -> None:
            self.bsd = BsdPlayer()

        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            if observation.deck_count < 85 and observation.phase is rules.Phase.MOVE:
                return Move(MoveType.PLAY, 3)
            return self.bsd.choose(observation, rng)

    sim = Simulator(11, players=(Cheater(), Cheater()))  # type: ignore[arg-type]
    try:
        sim.play_hand()
    except SimulationError as exc:
        assert "refused" in str(exc)
    else:
        raise AssertionError("a refused move must raise")
