"""A greedy Mille Bornes bot: python -m mille.match greedy_bot:GreedyBot bsd (from this directory)."""

from mille.engine import cards
from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.engine.rules import EXTEND, NO_EXTENSION, Move, MoveType


class GreedyBot:
    """Draws, then plays the best card it can (remedy, safety, hazard, miles), else drops the least useful."""

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        moves = observation.legal_moves()
        if moves == [EXTEND, NO_EXTENSION]:  # Extension?  Only when the other car is far behind.
            return EXTEND if observation.opponent.mileage < 400 else NO_EXTENSION
        if moves[0].kind is MoveType.DRAW:
            return moves[0]
        hand = observation.hand
        return max(moves, key=lambda move: score(move, hand[move.slot]))


def score(move: Move, card: int) -> int:
    if move.kind is MoveType.PLAY:
        if cards.is_distance(card):
            return 100 + cards.MILES[card]  # 125 .. 300
        if cards.is_safety(card):
            return 350
        return 400 if card >= cards.GASOLINE else 320  # remedies first: they get us moving
    # A discard: keep what is scarce (remedies, long miles), drop the rest.
    return -(cards.MILES[card] if cards.is_distance(card) else 150 if card >= cards.GASOLINE else 50)
