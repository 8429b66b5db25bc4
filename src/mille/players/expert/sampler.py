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
from ...engine.observation import Observation, sample_world
from ...engine.rng import GlibcRandom
from ...engine.state import Game, Memory
from .belief import HandMemory
from .reader import BSD, TableReader

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


class Worlds:
    """Worlds at any table dealt with what the table's reader has read, each with a model for every other seat.

    Every unseen safety goes, one after another, to another seat with room
    for it or to the deck, with weights: a seat read as a procedure
    (:class:`~mille.players.expert.reader.TableReader`), whose safeties
    never leave its hand but to be played, holds it if it drew it since it
    was last known not to hold it, so it weighs the cards it has received
    since then (all it received this hand if nothing is known); a seat read
    as playing otherwise weighs its hand's size, as a uniform deal does;
    the deck weighs its count.  (At two seats this is the inference of
    :class:`Sampler`, ``d / (d + deck)``.)  The other cards are dealt
    uniformly.  Each world then draws a model for every other seat from
    its posterior: :attr:`flags` says, seat by seat, whether it plays out
    with the repaired policy (``plus``, and ``other``, which the rollouts
    can only guess at) or the BSD procedure itself; our own seat plays
    ``own`` (the expert's policy).
    """

    def __init__(self, obs: Observation, reader: TableReader, own: bool) -> None:
        self.obs = obs
        seat = obs.seat
        sizes = obs.hand_sizes
        seats = len(sizes)
        self.others = [k for k in range(seats) if k != seat]
        self.sizes = sizes
        unseen = obs.unseen()
        deck = obs.deck_count
        self.rest: list[int] = []
        #: Each unseen safety with the weight of every other seat (by seat; ours 0) and of the deck.
        self.safeties: list[tuple[int, list[float], float]] = []
        reads = reader.seats if len(reader.seats) == seats and reader.seat == seat else None
        for c in range(cards.NUM_CODES):
            if c < SAFETY_BASE:
                self.rest.extend([c] * unseen[c])
                continue
            for _ in range(unseen[c]):
                weights = [0.0] * seats
                for k in self.others:
                    if reads is None:
                        weights[k] = float(sizes[k])
                        continue
                    read = reads[k]
                    trust = read.trust()
                    got = reader.received(k)
                    mark = read.mark[c - SAFETY_BASE]
                    since = got if mark is None else max(0, got - mark)
                    weights[k] = trust * since + (1.0 - trust) * sizes[k]
                self.safeties.append((c, weights, float(deck)))
        self.models = [read.weights[:] for read in reads] if reads is not None else None
        self.own = own
        #: The last world's models: seat by seat, whether it plays the repaired policy.
        self.flags: list[bool] = [k == seat and own for k in range(seats)]

    def sample(self, rng: GlibcRandom) -> Game:
        """A world consistent with the observation, weighted by the reads; :attr:`flags` its models."""
        sizes = self.sizes
        others = self.others
        room = list(sizes)
        hands: list[list[int]] = [[] for _ in sizes]
        deck_extra: list[int] = []
        for card, weights, deck in self.safeties:
            total = deck
            for k in others:
                if room[k] > 0:
                    total += weights[k]
            if total <= 0.0:
                deck_extra.append(card)
                continue
            r = rng.uniform() * total
            chosen = -1
            for k in others:
                if room[k] > 0:
                    r -= weights[k]
                    if r < 0.0:
                        chosen = k
                        break
            if chosen < 0:
                deck_extra.append(card)
            else:
                hands[chosen].append(card)
                room[chosen] -= 1
        rest = self.rest[:]
        size = len(rest)
        at = 0
        for k in others:
            need = min(room[k], size - at)
            for i in range(at, at + need):
                j = i + rng.random() % (size - i)
                rest[i], rest[j] = rest[j], rest[i]
            hands[k].extend(rest[at : at + need])
            at += need
            room[k] -= need
        undrawn = rest[at:] + deck_extra
        for k in others:  # only if the deck is nearly empty
            while room[k] > 0 and undrawn:
                hands[k].append(undrawn.pop())
                room[k] -= 1
        rng.shuffle(undrawn)
        dealt: list[int] = []
        for k in others:
            dealt.extend(hands[k])
        dealt.extend(undrawn)
        models = self.models
        flags = self.flags
        if models is not None:
            for k in others:
                flags[k] = rng.uniform() >= models[k][BSD]
        else:
            for k in others:
                flags[k] = False
        return sample_world(self.obs, rng, dealt)


#: The generator every world carries, shared: only the shuffle of a new hand
#: draws on a game's generator, and a rollout ends with its hand.
_SHARED_RNG = GlibcRandom(1)

__all__ = ["Sampler", "Worlds"]
