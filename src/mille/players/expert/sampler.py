"""The expert's worlds: the cards hidden from its seat dealt into whole games to roll out.

A world is the game as the seat sees it, with the cards it has not seen
dealt into the opponent's hand and the undrawn deck.  Most of them are
dealt uniformly; the unseen safeties are not.  The BSD player never
discards a safety (§6.3 step 8 of the behaviour reference), so an unseen
safety lies in its hand if it drew it at any time it could have: since it
was last known not to hold it (:mod:`mille.players.expert.belief`), or
since the deal.  Each is dealt to its hand with the chance
``d / (d + deck)``, ``d`` the cards it has drawn since; a uniform deal
would give ``hand / (hand + deck)``, a third or less of that in mid-hand.

A world holds only what a rollout reads, and keeps the contract of
:func:`mille.engine.observation.sample_world`: the seat observes the same
in every world (but for the Order toggle, off in rollouts), and the cards
dealt are exactly the ones it has not seen (``tests/players/test_expert.py``).
"""

from __future__ import annotations

from ...engine import cards
from ...engine.cards import COPIES, EMPTY, SAFETY_BASE
from ...engine.observation import Observation
from ...engine.rng import GlibcRandom
from ...engine.state import Game, Memory
from .belief import HandMemory

_HAND_SIZE = cards.HAND_SIZE


class Sampler:
    """Deals the cards hidden from a seat, with inference about the opponent's hand (``infer``; else uniformly)."""

    def __init__(self, obs: Observation, hm: HandMemory, infer: bool) -> None:
        self.obs = obs
        seat = obs.seat
        unseen = obs.unseen()
        self.n = obs.opponent_hand_size
        deck_count = obs.deck_count
        pool: list[int] = []
        safeties: list[int] = []
        for c in range(cards.NUM_CODES):
            if c >= SAFETY_BASE:
                safeties.extend([c] * unseen[c])
            else:
                pool.extend([c] * unseen[c])
        self.pool = pool
        #: The unseen safeties, each with its chance to be in the opponent's
        #: hand (dealt one by one; uniformly with the rest if not ``infer``).
        self.safeties: list[tuple[int, float]] = []
        for s in safeties:
            if not infer:
                total = self.n + deck_count
                self.safeties.append((s, self.n / total if total else 1.0))
                continue
            since = hm.since[s - SAFETY_BASE]
            drawn = max(0, hm.opp_received if since is None else since)
            p = drawn / (drawn + deck_count) if deck_count > 0 else 1.0
            self.safeties.append((s, p))
        self.uniform_safeties = not infer
        self.me = obs.players[seat].copy()
        self.op = obs.players[1 - seat].copy()
        self.my_counts = [0] * cards.NUM_TABLE
        for c in self.me.hand:
            if c >= 0:
                self.my_counts[c] += 1

    def _deal(self, rng: GlibcRandom) -> tuple[list[int], list[int]]:
        """The opponent's hand and the undrawn deck (in draw order from the end)."""
        n = self.n
        pool = self.pool[:]
        hand_cards: list[int] = []
        deck_extra: list[int] = []
        if self.uniform_safeties:
            pool.extend(s for s, _ in self.safeties)
        else:
            for s, p in self.safeties:
                if len(hand_cards) < n and rng.uniform() < p:
                    hand_cards.append(s)
                else:
                    deck_extra.append(s)
        need = min(n - len(hand_cards), len(pool))
        size = len(pool)
        for i in range(need):
            j = i + rng.random() % (size - i)
            pool[i], pool[j] = pool[j], pool[i]
        hand_cards.extend(pool[:need])
        undrawn = pool[need:] + deck_extra
        while len(hand_cards) < n and undrawn:  # only if the deck is nearly empty
            hand_cards.append(undrawn.pop())
        rng.shuffle(undrawn)
        return hand_cards, undrawn

    def _opp_seen(self, undrawn: list[int]) -> list[int]:
        """The opponent's count of seen cards in the world: everything but our hand and the deck."""
        seen = [COPIES[c] - self.my_counts[c] for c in range(cards.NUM_TABLE)]
        for c in undrawn:
            seen[c] -= 1
        seen[cards.NUM_TABLE - 1] = 0
        return seen

    def sample(self, rng: GlibcRandom) -> Game:
        """A world consistent with the observation, weighted by the inference."""
        hand_cards, undrawn = self._deal(rng)
        hand = [EMPTY] * _HAND_SIZE
        n = len(hand_cards)
        first = 1 if n < _HAND_SIZE else 0
        hand[first : first + n] = hand_cards
        return self._world(hand, undrawn)

    def _world(self, hand: list[int], undrawn: list[int]) -> Game:
        obs = self.obs
        seat = obs.seat
        op = self.op.copy()
        op.hand = hand
        me = self.me.copy()
        op_memory = Memory(self._opp_seen(undrawn), obs.memory.num_gos)
        players = [me, op] if seat == 0 else [op, me]
        memory = [obs.memory.copy(), op_memory]
        if seat != 0:
            memory.reverse()
        return Game(
            deck=undrawn,
            deck_count=len(undrawn),
            discard=obs.discard,
            players=players,
            trip_length=obs.trip_length,
            finished=False,
            to_move=obs.to_move,
            hand_starter=obs.hand_starter,
            order=False,
            pending_extension=obs.pending_extension,
            memory=memory,
            rng=_SHARED_RNG,
        )


#: The generator every world carries, shared: only the shuffle of a new hand
#: draws on a game's generator, and a rollout ends with its hand.
_SHARED_RNG = GlibcRandom(1)

__all__ = ["Sampler"]
