"""The searching computer player: ``expert`` (see ``docs/expert.md``).

Its own policy is the BSD procedure with its "too close" quirk repaired,
attacking first (:mod:`mille.players.plus`).  At each decision that matters
it samples worlds consistent with what its seat has seen, the hidden cards
dealt with inference about the opponent's hand, rolls every candidate move
out to the end of the hand (its own seat with its policy, the opponent's
with the BSD procedure), and picks the move with the best mean game value.
The moves are compared on common random numbers: every candidate is
played out in the same sampled worlds with the same dice, so the
comparison sees the difference the move makes, not the luck of the deal.
It leaves its policy's choice only when the paired evidence says so.

Inference (the opponent is modelled as the BSD player):

* it never discards a safety and plays one at once against the hazard it
  faces, so an unseen safety is in its hand with the chance that it drew
  it since it was last seen facing that hazard without playing it, or
  since a turn in which the procedure would have played it (its hazards
  all on the table, or we one card from the end: :func:`_infer_turn`,
  the default since the ninth round);
* (an option, ``Level(hazard_rules=True)``, off) a hazard it could have
  played on us and did not is one it held none of (:func:`_infer_attacks`):
  true to 98%, and it did not pay in the screen (``docs/expert.md``, the
  ninth round);
* (an option, ``Level(replay=True)``, off) its last decision is replayed in
  each sampled world (its hand before that move is the sampled hand plus
  the card it played or discarded), and worlds in which the BSD procedure
  would have done something else are mostly rejected;
* (an option, ``Level(particles=N)``, off) a particle filter over its
  hand through the whole hand, its particles rejuvenated by replaying
  their histories (:class:`_Particles`); it replaces the safety inference
  above where it is on.  Better calibrated than the safety inference,
  it was measured on a held-out seed and not adopted: the same margin at
  twice the work (``docs/expert.md``, the seventh round).

It reads only its :class:`~mille.engine.observation.Observation` and what it
remembers of its earlier observations of the same hand, never the game.
"""

from __future__ import annotations

import math
import time

from ...engine import cards
from ...engine.cards import (
    COPIES,
    EMPTY,
    OPPOSITE,
    OUT_OF_GAS,
    RIGHT_OF_WAY,
    SAFETY_BASE,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from ...engine.driver import HandPlay, play_hand
from ...engine.observation import Observation
from ...engine.rng import GlibcRandom
from ...engine.rules import (
    DRAW,
    EXTEND,
    NO_EXTENSION,
    PASS,
    Move,
    MoveType,
    Phase,
    can_play,
    push,
    tidy_hand,
)
from ...engine.scoring import GAME_POINTS
from ...engine.state import Game, Memory, Tableau
from .. import bsd
from ..bsd import INITIAL_NUM_NEED, BsdPlayer, decide, one_card, would_extend
from ..plus import PlusPlayer

_NUM_SAFETIES = cards.NUM_SAFETIES
_HAND_SIZE = cards.HAND_SIZE
_ROW = RIGHT_OF_WAY - SAFETY_BASE
_NUM_HAZARDS = SPEED_LIMIT - OUT_OF_GAS + 1
_PLAYED = 2
_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD

#: A player scores about this many points a hand, and one hand's margin has
#: about this standard deviation (BSD against BSD, 3000 hands).
_HAND_POINTS = 1100.0
_HAND_SD = 1140.0


class Level:
    """One strength setting of the expert."""

    __slots__ = (
        "budget",
        "z",
        "batch",
        "tries",
        "epsilon",
        "race",
        "min_worlds",
        "game",
        "deadline",
        "replay",
        "particles",
        "miss",
        "sweeps",
        "repaired",
        "exact_need",
        "stretch",
        "safety_rules",
        "hazard_rules",
    )

    def __init__(
        self,
        budget: int,
        z: float = 2.0,
        batch: int = 8,
        tries: int = 4,
        epsilon: float = 0.1,
        race: float = 2.0,
        min_worlds: int = 16,
        game: bool = True,
        deadline: float = 0.8,
        replay: bool = False,
        particles: int = 0,
        miss: float = 0.05,
        sweeps: int = 4,
        repaired: bool = True,
        exact_need: bool = True,
        stretch: float = 1.0,
        safety_rules: bool = False,
        hazard_rules: bool = False,
    ) -> None:
        #: Moves simulated per decision (rollouts to the end of the hand).
        self.budget = budget
        #: Paired z-score a move needs over the policy's choice to be played instead.
        self.z = z
        #: Worlds added to every remaining move per round of the race.
        self.batch = batch
        #: Candidate worlds drawn per world kept by the inference filter.
        self.tries = tries
        #: Chance of keeping a world in which the opponent's last move is not the BSD move.
        self.epsilon = epsilon
        #: Racing: drop a move this many paired standard errors behind the
        #: leader (0: successive halving instead).
        self.race = race
        #: Worlds every move sees before any is dropped.
        self.min_worlds = min_worlds
        #: Value a hand by the chance to win the game (else by its margin).
        self.game = game
        #: A safety net, in seconds: the search stops early past it (the
        #: budget alone keeps it far below on an unloaded machine, and the
        #: decision is then a function of the seed alone).
        self.deadline = deadline
        #: Replay the opponent's last decision in each sampled world and
        #: mostly reject the worlds where the BSD procedure would have done
        #: otherwise (``tries`` and ``epsilon``); off in the measured default.
        self.replay = replay
        #: Particles of the filter over the opponent's hand (0: the safety
        #: inference alone).
        self.particles = particles
        #: The filter's chance of an opponent's move that BSD would not make.
        self.miss = miss
        #: Rejuvenation moves per particle after each plain turn of the
        #: opponent (0: the filter without rejuvenation, as it was in 2026).
        self.sweeps = sweeps
        #: Our own policy: the repaired BSD procedure (:mod:`mille.players.plus`),
        #: or the BSD procedure itself (``False``: ``expert-2026``).
        self.repaired = repaired
        #: The estimate of the opponent's ``num_need`` table is not bumped
        #: for a turn in which it played the safety against the hazard it
        #: faced: the BSD procedure plays that safety before its bumps
        #: (``False``, the 2026 estimate, bumped it all the same).
        self.exact_need = exact_need
        #: A close call may spend up to this many times the budget: once
        #: the budget is spent, the search goes on while the best rival's
        #: paired z-score over the policy's choice is within 1 of ``z``
        #: (1: never).
        self.stretch = stretch
        #: Read back two more of the BSD procedure's safety rules from each
        #: of the opponent's turns (:func:`_infer_turn`): a safety whose
        #: hazards are all on the table, and every safety when we are one
        #: card from the end, would have been played.
        self.safety_rules = safety_rules
        #: Read back its attacks (:func:`_infer_attacks`): a hazard it could
        #: have played on us and did not is one it did not hold.
        self.hazard_rules = hazard_rules


#: The settings by level: 0 is the policy's choice (no search).
LEVELS: dict[int, Level] = {
    0: Level(0),
    1: Level(8000, safety_rules=True),
    2: Level(16000, safety_rules=True),
    3: Level(30000, safety_rules=True),
    4: Level(60000, safety_rules=True),
}
DEFAULT_LEVEL = 4


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def win_probability(mine: int, theirs: int) -> float:
    """Chance to win the 5000-point game from these totals at the end of a hand."""
    if mine >= GAME_POINTS or theirs >= GAME_POINTS:
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0
    left = max(1.0, (GAME_POINTS - 0.5 * (mine + theirs)) / _HAND_POINTS)
    return _phi((mine - theirs) / (_HAND_SD * math.sqrt(left)))


def utility(mine: int, theirs: int, margin: int) -> float:
    """What a finished hand is worth: the game-win chance, the margin breaking ties."""
    return win_probability(mine, theirs) + margin * 1e-5


# --------------------------------------------------------------------------
# Rollouts


def rollout(game: Game, seat: int, needs: list[list[int]], dice: GlibcRandom, repaired: bool = True) -> HandPlay:
    """Play ``game`` out to the end of the hand: ``seat`` with the expert's policy, the other with BSD's.

    ``seat`` plays the expert's policy (:mod:`mille.players.plus`; the BSD
    procedure itself if not ``repaired``), the other seat the BSD
    procedure, each with its ``needs[seat]`` table (bumped in place); both
    roll ``dice``; both answer ``Extension?`` with the BSD rule.  Returns
    the hand driver's account of it: the hand's result
    (:func:`mille.engine.scoring.hand_result`) and the moves and answers made.

    This is the search's hot loop: the BSD procedure's fast loop for two
    seats (:func:`mille.players.bsd.play_hand`), whose game is exactly the
    one the hand driver gives by asking the players
    (:func:`rollout_reference`; a test checks it).
    """
    return bsd.play_hand(game, _seats(seat, needs, repaired), (dice, dice))


def rollout_reference(
    game: Game, seat: int, needs: list[list[int]], dice: GlibcRandom, repaired: bool = True
) -> HandPlay:
    """:func:`rollout` through the hand driver: each seat shown its observation and asked."""
    return play_hand(game, _seats(seat, needs, repaired), (dice, dice))


def _seats(seat: int, needs: list[list[int]], repaired: bool) -> tuple[BsdPlayer, BsdPlayer]:
    own = PlusPlayer if repaired else BsdPlayer
    if seat == 0:
        return own(needs[0]), BsdPlayer(needs[1])
    return BsdPlayer(needs[0]), own(needs[1])


# --------------------------------------------------------------------------
# What the player remembers of the hand


class _After:
    """The table just after one of our moves that passed the turn."""

    __slots__ = ("me", "op", "deck_count", "seen", "trip")

    def __init__(self, me: Tableau, op: Tableau, deck_count: int, seen: list[int], trip: int) -> None:
        self.me = me
        self.op = op
        self.deck_count = deck_count
        self.seen = seen
        self.trip = trip


class _LastMove:
    """The opponent's last decision, as seen: the card, and played or discarded."""

    __slots__ = ("before", "card", "kind", "deck_count", "drew")

    def __init__(self, before: _After, card: int, kind: MoveType, deck_count: int, drew: bool) -> None:
        self.before = before
        self.card = card
        self.kind = kind
        self.deck_count = deck_count
        self.drew = drew


class _HandMemory:
    """What we know of the hand beyond the current observation."""

    __slots__ = (
        "received",
        "opp_received",
        "deck_count",
        "seen_total",
        "seen",
        "since",
        "absent",
        "drew",
        "after",
        "last",
        "particles",
    )

    def __init__(self, obs: Observation) -> None:
        drawn = cards.DECK_SIZE - obs.deck_count
        # At the start of a hand each seat was dealt six; later, guess halves.
        self.received = 6 if obs.deck_count >= cards.DECK_SIZE - 14 else drawn - drawn // 2
        self.opp_received = drawn - self.received
        self.deck_count = obs.deck_count
        self.seen_total = sum(obs.memory.num_seen)
        #: Our count at the last observation.
        self.seen = obs.memory.num_seen[:]
        #: Per safety: cards the opponent has drawn since it was last known
        #: not to hold it (None: nothing known this hand).
        self.since: list[int | None] = [None] * _NUM_SAFETIES
        #: Per hazard (Out of Gas to Speed Limit): cards the opponent has
        #: drawn since it was last known to hold none (None: nothing known).
        self.absent: list[int | None] = [None] * _NUM_HAZARDS
        #: Our last move was a draw (the turn goes on).
        self.drew = False
        #: The table after our last move, if it passed the turn.
        self.after: _After | None = None
        #: The opponent's last decision, if it was a plain draw-and-play.
        self.last: _LastMove | None = None
        #: The filter over the opponent's hand (if the level has one).
        self.particles: _Particles | None = None


def _is_new_hand(obs: Observation, hm: _HandMemory | None) -> bool:
    if hm is None:
        return True
    return obs.deck_count > hm.deck_count or sum(obs.memory.num_seen) < hm.seen_total


# --------------------------------------------------------------------------
# The player


class ExpertPlayer:
    """The searching player: ``expert``.

    ``level`` trades strength for speed (0: the policy's choice, no search;
    :data:`DEFAULT_LEVEL` is the measured default).  ``infer`` turns the
    inference about the opponent's hand off (uniform worlds), for experiments.
    """

    name = "expert"

    def __init__(self, level: int = DEFAULT_LEVEL, *, infer: bool = True, settings: Level | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}")
        self.level = level
        #: The level's settings (or ``settings``, for experiments and tests).
        self.settings = LEVELS[level] if settings is None else settings
        self.infer = infer
        #: Our own policy's table (for its choice and our rollouts), and our
        #: estimate of the opponent's (bumped while it is stopped).
        self.num_need: list[int] = list(INITIAL_NUM_NEED)
        self.opp_need: list[int] = list(INITIAL_NUM_NEED)
        self._hand: _HandMemory | None = None
        self._calls = 0
        self._need_after: list[int] | None = None
        #: Counters for benchmarks.
        self.rollouts = 0
        self.simulated_moves = 0
        self.searches = 0

    # ------------------------------------------------------------------
    def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
        """A legal move for ``obs.seat`` (the player protocol)."""
        move = self.think(obs, rng)
        self.remember(obs, move)
        return move

    def think(self, obs: Observation, rng: GlibcRandom) -> Move:
        """The move to make (without noting it as made: see :meth:`remember`)."""
        phase = obs.phase
        if phase is Phase.EMPTY_HAND:
            return PASS
        hm = self._track(obs, rng)
        me = obs.players[obs.seat]
        op = obs.players[1 - obs.seat]
        if phase is Phase.EXTENSION:
            extend = would_extend(me, op, obs.memory, obs.trip_length, obs.deck_count)
            base = EXTEND if extend else NO_EXTENSION
            return self._search(obs, [base, NO_EXTENSION if extend else EXTEND], hm, rng)
        # The policy's choice, on its own copy of the table (rolled on our
        # dice exactly as the policy alone would roll them).
        need = self.num_need[:]
        repaired = self.settings.repaired
        base = decide(me, op, obs.memory, obs.trip_length, obs.deck_count, need, rng, repaired).move
        self._need_after = need
        if base is DRAW or self.settings.budget == 0:
            return base
        candidates = _candidates(obs, base)
        if len(candidates) <= 1:
            return base
        return self._search(obs, candidates, hm, rng)

    def remember(self, obs: Observation, move: Move) -> None:
        """Note ``move`` as made from ``obs`` (what happens after it is inferred later)."""
        if obs.phase is Phase.EMPTY_HAND:
            return
        hm = self._hand
        if hm is None:
            return
        if obs.phase is Phase.MOVE:
            need = self._need_after
            if need is not None:
                self.num_need = need
                self._need_after = None
        hm.drew = move.kind is MoveType.DRAW
        hm.after = None
        if hm.drew:
            return
        game = obs.public_game()
        push(game, move)
        seat = obs.seat
        if game.to_move == seat or game.finished:
            return  # a safety (the turn goes on), or the hand is over
        seen = obs.memory.num_seen[:]
        hm.after = _After(game.players[seat], game.players[1 - seat], game.deck_count, seen, game.trip_length)

    def _search_rng(self, rng: GlibcRandom) -> GlibcRandom:
        """The search's own generator, derived from ``rng`` without advancing it.

        The dice the player is handed are then rolled exactly as the policy
        rolls them, so a game where the expert agrees with its policy stays
        the policy's game.
        """
        self._calls += 1
        return self._derived_rng(rng, self._calls * 0x9E3779B1)

    @staticmethod
    def _derived_rng(rng: GlibcRandom, salt: int) -> GlibcRandom:
        """A generator derived from ``rng``'s state and ``salt``, without advancing ``rng``."""
        words, front, rear = rng.getstate()
        mix = salt & 0xFFFFFFFF
        state = tuple((((w ^ mix) * 0x85EBCA6B) + i * 0xC2B2AE35) & 0xFFFFFFFF for i, w in enumerate(words))
        derived = GlibcRandom.__new__(GlibcRandom)
        derived.setstate((state, front, rear))
        for _ in range(40):
            derived.random()
        return derived

    # ------------------------------------------------------------------
    def _track(self, obs: Observation, rng: GlibcRandom) -> _HandMemory:
        """Update what we know of this hand with a new observation."""
        hm = self._hand
        if _is_new_hand(obs, hm):
            hm = self._hand = _HandMemory(obs)
            _infer_now(obs, hm)
            count = self.settings.particles
            if count:
                unseen = obs.unseen()
                rng = self._derived_rng(rng, 0x7F4A7C15)
                hm.particles = _Particles(
                    unseen, obs.opponent_hand_size, count, rng, self.settings.miss, self.settings.sweeps
                )
            return hm
        assert hm is not None
        drawn = cards.DECK_SIZE - obs.deck_count
        particles = hm.particles
        if hm.drew:
            hm.received = drawn - hm.opp_received
            if particles is not None:
                mine = [c for c in range(cards.NUM_CODES) for _ in range(obs.memory.num_seen[c] - hm.seen[c])]
                unseen = [COPIES[c] - hm.seen[c] for c in range(cards.NUM_CODES)]
                particles.our_draw(unseen, hm.deck_count, mine)
        after = hm.after
        if after is not None and particles is not None:
            self._filter(obs, after, particles)
        if particles is not None and particles.lost:
            count = len(particles.hands)
            hm.particles = _Particles(
                obs.unseen(), obs.opponent_hand_size, count, particles.rng, self.settings.miss, self.settings.sweeps
            )
        if after is not None:
            # The opponent has moved since our last move.
            opp_received = drawn - hm.received
            got = max(0, opp_received - hm.opp_received)
            hm.opp_received = opp_received
            since = hm.since
            for i in range(_NUM_SAFETIES):
                s = since[i]
                if s is not None:
                    since[i] = s + got
            op = obs.players[1 - obs.seat]
            battle = after.op.battle
            # It faced this all its turn: the BSD player would have played
            # the safety at once, so it held none at the end of its turn.
            if OUT_OF_GAS <= battle <= STOP:
                k = SAFETY_FOR[battle] - SAFETY_BASE
                if op.safety[k] != _PLAYED:
                    since[k] = 0
                elif after.op.safety[k] != _PLAYED:
                    since[k] = None  # played it: nothing more to know
                # Stopped as its turn began: the BSD procedure bumps the table
                # twice at its decision, unless it played that safety (a
                # coup fourré, or at the start of its decision), which it
                # does before the bumps.
                played = (op if self.settings.exact_need else after.op).safety[k] == _PLAYED
                if not after.op.can_go and not played:
                    self.opp_need[OPPOSITE[battle]] += 2
            if after.op.speed == SPEED_LIMIT and op.safety[_ROW] != _PLAYED:
                since[_ROW] = 0
            if self.settings.safety_rules:
                _infer_turn(obs, after, since)
            if self.settings.hazard_rules:
                _infer_attacks(obs, after, hm.absent, got)
            hm.last = _last_move(obs, after, got)
        hm.deck_count = obs.deck_count
        hm.seen_total = sum(obs.memory.num_seen)
        hm.seen = obs.memory.num_seen[:]
        _infer_now(obs, hm)
        hm.after = None
        return hm

    def _filter(self, obs: Observation, after: _After, particles: _Particles) -> None:
        """The opponent's turn since ``after``, seen through the particle filter."""
        seen = obs.memory.num_seen
        shown = [c for c in range(cards.NUM_CODES) for _ in range(seen[c] - after.seen[c])]
        drew = after.deck_count - obs.deck_count
        op = obs.players[1 - obs.seat]
        plain = (
            len(shown) == 1
            and shown[0] < SAFETY_BASE
            and drew == (1 if after.deck_count > 0 else 0)
            and obs.trip_length == after.trip
            and op.safety == after.op.safety
        )
        if plain:
            card = shown[0]
            kind = _PLAY if _table_changed(obs, after) else _DISCARD
            particles.plain_turn(after, drew == 1, card, kind, obs.memory.num_gos, self.opp_need)
        else:
            particles.other_turn(after, drew, shown, obs.opponent_hand_size)

    # ------------------------------------------------------------------
    def _search(self, obs: Observation, candidates: list[Move], hm: _HandMemory, dice: GlibcRandom) -> Move:
        """Roll every candidate out in common sampled worlds; the best by paired evidence.

        ``candidates[0]`` is the policy's choice.
        """
        settings = self.settings
        budget = settings.budget
        base = candidates[0]
        if budget <= 0 or len(candidates) <= 1:
            return base
        rng = self._search_rng(dice)
        self.searches += 1
        epsilon = settings.epsilon if self.infer and settings.replay else 1.0
        sampler = _Sampler(obs, hm, self.opp_need, epsilon, settings.tries, self.infer)
        seat = obs.seat
        n = len(candidates)
        alive = list(range(n))
        sums = [0.0] * n
        values: list[list[float]] = [[] for _ in range(n)]
        spent = 0
        my_need = self.num_need
        opp_need = self.opp_need
        race = settings.race
        by_game = settings.game
        repaired = settings.repaired
        clock = time.perf_counter
        give_up = clock() + settings.deadline
        late = False
        cap = budget * settings.stretch
        while not late:
            if spent >= budget and (spent >= cap or not _close(values, sums, alive, settings.z)):
                break
            for _ in range(settings.batch):
                if clock() >= give_up:
                    # The safety net, looked at before every world: a
                    # batch of eight is tens of milliseconds on a loaded
                    # machine, a world a few.
                    late = True
                    break
                world = sampler.sample(rng)
                dice_state = _dice_state(rng)
                for c in alive:
                    g = world.copy(share_rng=True)
                    push(g, candidates[c])
                    roll = GlibcRandom.__new__(GlibcRandom)
                    roll.setstate(dice_state)
                    needs = [my_need[:], opp_need[:]] if seat == 0 else [opp_need[:], my_need[:]]
                    played = rollout(g, seat, needs, roll, repaired)
                    m = played.moves + played.answers + 1
                    spent += m
                    result = played.result
                    margin = result.margin(seat)
                    u = utility(result.totals[seat], result.totals[1 - seat], margin) if by_game else float(margin)
                    values[c].append(u)
                    sums[c] += u
                    self.rollouts += 1
                    self.simulated_moves += m
            if len(alive) <= 1:
                break
            if race > 0:
                # Racing: drop what is clearly worse than the leader (paired,
                # on the worlds both saw); stop once the policy's choice is alone
                # or clearly beaten by a lone rival.
                if len(values[0]) < settings.min_worlds:
                    continue
                leader = max(alive, key=lambda c: sums[c])
                keep = [c for c in alive if c == leader or c == 0 or _paired_z(values[leader], values[c]) < race]
                alive = keep
                if len(alive) == 1:
                    break
                if len(alive) == 2 and abs(_paired_z(values[alive[1]], values[0])) >= race + 1.0:
                    break
            elif len(alive) > 2:
                # Successive halving: keep the better half (and the policy's choice).
                alive.sort(key=lambda c: -sums[c])
                keep = alive[: max(2, (len(alive) + 1) // 2)]
                if 0 not in keep:
                    keep.append(0)
                alive = keep
        best = max(alive, key=lambda c: sums[c])
        if best == 0:
            return base
        return candidates[best] if _paired_z(values[best], values[0]) >= settings.z else base


def _close(values: list[list[float]], sums: list[float], alive: list[int], z: float) -> bool:
    """Whether the best rival of the policy's choice (index 0) is within one standard error of being played."""
    if len(alive) < 2:
        return False
    leader = max(alive, key=lambda c: sums[c])
    return leader != 0 and z - 1.0 <= _paired_z(values[leader], values[0]) < z


def _paired_z(a: list[float], b: list[float]) -> float:
    """How far the mean of ``a - b`` (on their common worlds) is above 0, in standard errors."""
    k = min(len(a), len(b))
    if k < 2:
        return 0.0
    diffs = [a[i] - b[i] for i in range(k)]
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    if var <= 0.0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / math.sqrt(var / k)


def _infer_now(obs: Observation, hm: _HandMemory) -> None:
    """A hazard showing on the opponent now: it holds no safety against it."""
    op = obs.players[1 - obs.seat]
    battle = op.battle
    if OUT_OF_GAS <= battle <= STOP:
        k = SAFETY_FOR[battle] - SAFETY_BASE
        if op.safety[k] != _PLAYED:
            hm.since[k] = 0
    if op.speed == SPEED_LIMIT and op.safety[_ROW] != _PLAYED:
        hm.since[_ROW] = 0


def _infer_turn(obs: Observation, after: _After, since: list[int | None]) -> None:
    """What the opponent's turn since ``after`` says of its safeties, by step 4 of the BSD procedure.

    Step 4 of the procedure (§6.3 of the behaviour reference) plays a
    safety from the hand, before anything else is valued, when every copy
    of its hazard has been seen (for Right of Way: every Stop and every
    Speed Limit), and plays any safety when its opponent could finish the
    trip with one more card (``one_card``).  A safety played keeps the
    turn, so the procedure plays them one after another: at the end of a
    turn in which either held, it holds no such safety.  The procedure's
    count of seen cards is the table and the discards plus its own hand,
    so a hazard all of whose copies are on the table or the discard pile
    is one it has seen to the last copy; ``one_card`` is read with the
    same public count, on our table as it was when its turn began.
    Scored along 4,000 hands of the policy against ``bsd``, the opponent
    held such a safety at 5 in 1,000 of our decisions (hazards all seen)
    and never (one card from the end), where the safety inference before
    these rules gave it some 20% (docs/expert.md, the ninth round).
    """
    seen = obs.memory.num_seen
    mine = obs.players[obs.seat].hand
    public = [seen[c] - mine.count(c) for c in range(len(seen))]
    played = obs.players[1 - obs.seat].safety
    every = one_card(public, after.trip, after.me)
    for k in range(_NUM_SAFETIES):
        if played[k] == _PLAYED:
            continue
        hazard = OPPOSITE[SAFETY_BASE + k]
        if every or (public[hazard] == COPIES[hazard] and (k != _ROW or public[SPEED_LIMIT] == COPIES[SPEED_LIMIT])):
            since[k] = 0


def _infer_attacks(obs: Observation, after: _After, absent: list[int | None], got: int) -> None:
    """What the opponent's turn since ``after`` says of its hazards: the BSD procedure attacks when it can.

    Step 1 of the procedure marks a hazard playable when it would stop us
    (:func:`mille.engine.rules.can_play`: we were rolling and lack its safety; a
    Speed Limit: we were not limited, lack Right of Way and were more than
    50 miles from the end),
    and its valuation puts such an attack above nearly everything else.
    Along 3,000 hands of the policy against ``bsd``, after a turn in which
    it could have played a hazard on us and played none, it held that
    hazard at 2% of our decisions, against 13% when it could not have
    played it (docs/expert.md, the ninth round).  So such a turn is read
    as "it holds none"; the cards it draws later may bring one.
    """
    for i in range(_NUM_HAZARDS):
        a = absent[i]
        if a is not None:
            absent[i] = a + got
    me = obs.players[obs.seat]
    was = after.me
    if me.battle != was.battle or me.speed != was.speed:
        return  # it attacked: it may hold another
    for i in range(_NUM_HAZARDS):
        if can_play(after.trip, after.op, was, OUT_OF_GAS + i):
            absent[i] = 0


def _last_move(obs: Observation, after: _After, got: int) -> _LastMove | None:
    """The opponent's single play or discard since ``after``, if its turn was just that."""
    seen = obs.memory.num_seen
    shown = [c for c in range(cards.NUM_CODES) for _ in range(seen[c] - after.seen[c])]
    if len(shown) != 1 or got > 2:
        return None
    card = shown[0]
    if card >= SAFETY_BASE:
        return None
    if obs.players[1 - obs.seat].safety != after.op.safety:
        return None
    played = _table_changed(obs, after)
    if not played and obs.discard != card:
        return None
    return _LastMove(after, card, _PLAY if played else _DISCARD, obs.deck_count, got > 0)


def _table_changed(obs: Observation, after: _After) -> bool:
    """Whether the opponent's one card since ``after`` went on the table (played), not on the discard pile.

    A play changes its mileage, battle or speed pile, or ours (an attack).
    """
    me = obs.players[obs.seat]
    op = obs.players[1 - obs.seat]
    return (
        op.mileage != after.op.mileage
        or op.battle != after.op.battle
        or op.speed != after.op.speed
        or me.battle != after.me.battle
        or me.speed != after.me.speed
    )


def _dice_state(rng: GlibcRandom) -> tuple[tuple[int, ...], int, int]:
    words = tuple(((rng.random() << 1) | (rng.random() & 1)) for _ in range(31))
    return words, 3, 0


def _candidates(obs: Observation, base: Move) -> list[Move]:
    """Legal moves, one per distinct (kind, card), the policy's choice ``base`` first."""
    hand = obs.players[obs.seat].hand

    def key(move: Move) -> tuple[MoveType, int]:
        card = hand[move.slot] if move.kind is _PLAY or move.kind is _DISCARD else -2
        return (move.kind, card)

    seen: set[tuple[MoveType, int]] = {key(base)}
    out: list[Move] = [base]
    for move in obs.legal_moves():
        k = key(move)
        if k in seen:
            continue
        seen.add(k)
        out.append(move)
    return out


# --------------------------------------------------------------------------
# Inference: a particle filter over the opponent's hand


class _Turn:
    """One plain turn of the opponent, as the filter replays it: the table as it was, and what it did."""

    __slots__ = ("op", "me", "base", "gos", "trip", "decide_at", "need", "drew", "card", "kind")

    def __init__(
        self, before: _After, unseen: list[int], drew: bool, card: int, kind: MoveType, gos: int, need: list[int]
    ) -> None:
        mine = before.me.hand
        #: The opponent's tableau (its hand is set to each trial hand in turn).
        self.op = before.op.copy()
        self.me = before.me
        #: Its count of seen cards, but for its own hand.
        self.base = [COPIES[c] - mine.count(c) - unseen[c] for c in range(cards.NUM_TABLE - 1)] + [0]
        self.gos = gos
        self.trip = before.trip
        self.decide_at = before.deck_count - 1 if drew else before.deck_count
        self.need = need[:]
        self.drew = drew
        self.card = card
        self.kind = kind


class _Particles:
    """Weighted guesses of the opponent's hand, slot by slot: a particle filter with rejuvenation.

    Each particle is a whole hand in slot order, as the engine's tidy-up
    leaves it at our turn, together with the history that explains it:
    the hand it started from (at the deal, or at the last turn the filter
    does not replay) and the card it drew at every turn since.  They start
    as uniform deals from the cards we have not seen, and every move we
    see reweights them:

    * our own draw of a card ``c``: by the chance that ``c`` was in the deck
      rather than in that hand (a hand holding every unseen copy of ``c``
      is now impossible);
    * the opponent's plain turn (one draw, or none from an empty deck, and
      one play or discard): for every card it could have drawn, the BSD
      procedure is run on the hand with that card, with the table as it
      was; the particle is weighted by the chance of the observed move
      (``1`` when BSD makes it, ``epsilon`` when not, summed over the draws
      by their chances) and its drawn card is sampled in proportion, so
      the hand it keeps is the hand BSD would have kept;
    * any other turn (safeties, two draws, the answer to ``Extension?``):
      the cards shown leave the hand where it holds them, and the hand is
      filled up to its size with cards from the deck; a particle that
      cannot have played them from its hand and its draws is weighted by
      ``epsilon``; the histories start again from there.

    When the weights grow uneven (an effective sample size under half)
    the particles are resampled.  Resampling alone soon leaves a few
    copies of a few hands: the cards BSD never gives up stay as they were
    first dealt, and nothing tests them again.  So after every plain turn
    each particle is *rejuvenated* (resample-move): ``sweeps`` times, one
    card of its history (a card of the starting hand, or one draw) is
    swapped for an unseen card, and the swap is kept with the
    Metropolis-Hastings chance ``epsilon ** (new misses - old misses)``,
    the whole history replayed through the BSD procedure (a history in
    which the opponent could not have played what it played is refused).
    Every assignment of unseen copies is equally likely a priori and the
    swap is (nearly: the copies free to swap in are counted on the hand
    as it ends) its own reverse, so the chain keeps the filter's posterior
    while it spreads the particles over the hands that explain what was
    seen.
    (The chance of our own draws is not replayed: a small approximation.)
    Scored against true hands, this is what made the filter better
    calibrated than a uniform deal or the safety inference
    (``docs/expert.md``, the seventh round).

    A world for the search is a particle drawn by weight, with the rest of
    the unseen cards shuffled into the deck.
    """

    __slots__ = ("hands", "weights", "rng", "epsilon", "lost", "sweeps", "starts", "draws", "misses", "turns")

    def __init__(
        self, unseen: list[int], size: int, count: int, rng: GlibcRandom, epsilon: float, sweeps: int = 0
    ) -> None:
        self.rng = rng
        self.epsilon = epsilon
        self.sweeps = sweeps
        #: Every particle has become impossible (a move no hand explains).
        self.lost = False
        pool = [c for c in range(cards.NUM_CODES) for _ in range(unseen[c])]
        size = min(size, len(pool))
        first = 1 if size < _HAND_SIZE else 0
        hands: list[list[int]] = []
        for _ in range(count):
            _partial_shuffle(pool, size, rng)
            hand = [EMPTY] * _HAND_SIZE
            hand[first : first + size] = pool[:size]
            hands.append(hand)
        self.hands = hands
        self.weights = [1.0] * count
        self.starts: list[list[int]] = []
        self.draws: list[list[int]] = []
        self.misses: list[int] = []
        self.turns: list[_Turn] = []
        self._restart()

    def _restart(self) -> None:
        """The histories start again from the hands as they are."""
        self.starts = [hand[:] for hand in self.hands]
        self.draws = [[] for _ in self.hands]
        self.misses = [0] * len(self.hands)
        self.turns = []

    def our_draw(self, unseen: list[int], deck_count: int, drawn: list[int]) -> None:
        """We drew ``drawn`` from a deck of ``deck_count`` (``unseen`` before the draw)."""
        weights = self.weights
        for k, hand in enumerate(self.hands):
            w = weights[k]
            for i, c in enumerate(drawn):
                in_deck = unseen[c] - hand.count(c) - drawn[:i].count(c)
                w *= max(0, in_deck) / max(1, deck_count - i)
            weights[k] = w
        self._normalize()

    def _bsd_slot(self, turn: _Turn, trial: list[int]) -> int:
        """The slot BSD plays the observed card from, holding ``trial``; -1 if it would do otherwise."""
        seen = turn.base[:]
        for c in trial:
            if c >= 0:
                seen[c] += 1
        op = turn.op
        op.hand = trial
        move = decide(op, turn.me, Memory(seen, turn.gos), turn.trip, turn.decide_at, turn.need[:], self.rng).move
        if move.kind is turn.kind and trial[move.slot] == turn.card:
            return move.slot
        return -1

    def _leave(self, turn: _Turn, hand: list[int], slot: int) -> None:
        """The card leaves ``hand`` (from BSD's slot, or the last that holds it) and the hand closes up."""
        if slot < 0:
            slot = _HAND_SIZE - 1 - hand[::-1].index(turn.card)
        hand[slot] = EMPTY
        op = turn.op
        op.hand = hand
        tidy_hand(op, sort=False)

    def plain_turn(
        self,
        before: _After,
        drew: bool,
        card: int,
        kind: MoveType,
        memory_gos: int,
        need: list[int],
    ) -> None:
        """The opponent drew one card (or none, ``drew`` False) and played or discarded ``card``."""
        unseen = [COPIES[c] - before.seen[c] for c in range(cards.NUM_CODES)]
        deck_count = before.deck_count
        turn = _Turn(before, unseen, drew, card, kind, memory_gos, need)
        self.turns.append(turn)
        epsilon = self.epsilon
        rng = self.rng
        weights = self.weights
        for k, hand in enumerate(self.hands):
            draws = self.draws[k]
            if drew:
                options = (
                    [card] if card not in hand else [c for c in range(cards.NUM_CODES) if unseen[c] > hand.count(c)]
                )
            elif card in hand:
                options = [-1]
            else:  # no draw (an empty deck), and a card this hand does not hold
                weights[k] = 0.0
                draws.append(-1)
                continue
            total = 0.0
            chances: list[float] = []
            slots: list[int] = []
            for d in options:
                trial = hand[:]
                if d >= 0:
                    p = (unseen[d] - hand.count(d)) / deck_count
                    if p <= 0.0:
                        chances.append(0.0)
                        slots.append(-1)
                        continue
                    trial[0] = d
                else:
                    p = 1.0
                slot = self._bsd_slot(turn, trial)
                chance = p if slot >= 0 else p * epsilon
                chances.append(chance)
                slots.append(slot)
                total += chance
            if total <= 0.0:
                weights[k] = 0.0
                draws.append(-1)
                continue
            weights[k] *= total
            # The card drawn, in proportion to its chance; then the move.
            x = rng.uniform() * total
            pick = -1
            for j, chance in enumerate(chances):
                if chance > 0.0:
                    pick = j  # the last possible draw, should rounding leave x at or above 0
                    x -= chance
                    if x < 0.0:
                        break
            d = options[pick]
            draws.append(d)
            if d >= 0:
                hand[0] = d
            if slots[pick] < 0:
                self.misses[k] += 1
            self._leave(turn, hand, slots[pick])
        unseen[card] -= 1
        self._normalize()
        if not self.lost:
            for _ in range(self.sweeps):
                self._rejuvenate(unseen)

    def other_turn(self, before: _After, drew: int, shown: list[int], size: int) -> None:
        """A turn that was not a plain draw and play: only what the cards shown and drawn allow."""
        unseen = [COPIES[c] - before.seen[c] for c in range(cards.NUM_CODES)]
        rng = self.rng
        weights = self.weights
        for k, hand in enumerate(self.hands):
            from_deck = 0
            for c in shown:
                if c in hand:
                    hand[hand.index(c)] = EMPTY
                else:
                    from_deck += 1
            held = [c for c in hand if c >= 0]
            pool = [c for c in range(cards.NUM_CODES) for _ in range(unseen[c] - hand.count(c) - shown.count(c))]
            missing = min(max(0, size - len(held)), len(pool))
            _partial_shuffle(pool, missing, rng)
            held.extend(pool[:missing])
            if from_deck + missing != drew:
                weights[k] *= self.epsilon
            first = 1 if len(held) < _HAND_SIZE else 0
            hand[:] = [EMPTY] * _HAND_SIZE
            hand[first : first + len(held)] = held
        self._normalize()
        self._restart()

    def _replay(self, start: list[int], draws: list[int], allowed: int) -> tuple[list[int], int] | None:
        """The hand a history ends in, and its misses; None if impossible or missing more than ``allowed``."""
        hand = start[:]
        misses = 0
        for turn, d in zip(self.turns, draws):
            if turn.drew:
                hand[0] = d
            if turn.card not in hand:
                return None
            slot = self._bsd_slot(turn, hand)
            if slot < 0:
                misses += 1
                if misses > allowed:
                    return None
            self._leave(turn, hand, slot)
        return hand, misses

    def _rejuvenate(self, unseen: list[int]) -> None:
        """One Metropolis-Hastings move for every particle: a card of its history swapped for one of ``unseen``."""
        rng = self.rng
        log_epsilon = math.log(self.epsilon) if self.epsilon > 0.0 else 0.0
        for k, hand in enumerate(self.hands):
            if self.weights[k] <= 0.0:
                continue  # impossible already: resampling drops it
            start = self.starts[k]
            draws = self.draws[k]
            places = [i for i in range(_HAND_SIZE) if start[i] >= 0]
            places.extend(-1 - t for t, d in enumerate(draws) if d >= 0)
            if not places:
                continue
            place = places[rng.random() % len(places)]
            old = start[place] if place >= 0 else draws[-1 - place]
            # Any unseen copy that this hand does not hold, each copy alike.
            free = [max(0, unseen[c] - hand.count(c)) for c in range(cards.NUM_CODES)]
            total = sum(free)
            if total <= 0:
                continue
            r = rng.random() % total
            new = 0
            while r >= free[new]:
                r -= free[new]
                new += 1
            if new == old:
                continue
            # Accept with chance epsilon ** (extra misses): at most this many extra.
            u = rng.uniform()
            if log_epsilon < 0.0:
                allowed = self.misses[k] + int(math.log(max(u, 1e-300)) / log_epsilon)
            else:
                allowed = self.misses[k] if self.epsilon <= 0.0 else len(draws)
            new_start = start[:]
            new_draws = draws[:]
            if place >= 0:
                new_start[place] = new
            else:
                new_draws[-1 - place] = new
            replayed = self._replay(new_start, new_draws, allowed)
            if replayed is None:
                continue
            end, misses = replayed
            if any(end.count(c) > unseen[c] for c in end if c >= 0):
                continue
            self.starts[k] = new_start
            self.draws[k] = new_draws
            self.hands[k] = end
            self.misses[k] = misses

    def _normalize(self) -> None:
        """Rescale the weights; resample when they are uneven (an impossible hand keeps weight 0)."""
        weights = self.weights
        total = sum(weights)
        count = len(weights)
        if total <= 0.0:
            self.lost = True  # no hand explains what was seen: the player deals afresh
            return
        scale = count / total
        square = 0.0
        for k in range(count):
            w = weights[k] * scale
            weights[k] = w
            square += w * w
        if square * 2.0 <= count * count:
            return  # effective sample size count**2 / square at least half
        # Systematic resampling, histories and all.
        u = self.rng.uniform()
        chosen: list[int] = []
        acc = 0.0
        j = 0
        for k in range(count):
            target = u + k
            while j < count - 1 and acc + weights[j] <= target:
                acc += weights[j]
                j += 1
            chosen.append(j)
        self.hands = [self.hands[j][:] for j in chosen]
        self.starts = [self.starts[j][:] for j in chosen]
        self.draws = [self.draws[j][:] for j in chosen]
        self.misses = [self.misses[j] for j in chosen]
        self.weights = [1.0] * count

    def draw(self, rng: GlibcRandom) -> list[int]:
        """One particle's hand, drawn by weight (a copy)."""
        weights = self.weights
        x = rng.uniform() * sum(weights)
        for k, w in enumerate(weights):
            x -= w
            if x < 0.0:
                return self.hands[k][:]
        return self.hands[-1][:]


def _partial_shuffle(pool: list[int], n: int, rng: GlibcRandom) -> None:
    """Put ``n`` random cards of ``pool`` at its front (the rest in no particular order)."""
    size = len(pool)
    for i in range(n):
        j = i + rng.random() % (size - i)
        pool[i], pool[j] = pool[j], pool[i]


# --------------------------------------------------------------------------
# Sampling worlds


class _Sampler:
    """Deals the cards hidden from a seat, with inference about the opponent's hand."""

    def __init__(
        self, obs: Observation, hm: _HandMemory, opp_need: list[int], epsilon: float, tries: int, infer: bool
    ) -> None:
        self.obs = obs
        seat = obs.seat
        unseen = obs.unseen()
        self.unseen = unseen
        self.n = obs.opponent_hand_size
        deck_count = obs.deck_count
        pool: list[int] = []
        safeties: list[int] = []
        for c in range(cards.NUM_CODES):
            if c >= SAFETY_BASE:
                safeties.extend([c] * unseen[c])
            else:
                pool.extend([c] * unseen[c])
        # A hazard it is known to have held none of (``_infer_attacks``)
        # is dealt like a safety: each unseen copy is in its hand only if
        # it drew it since.
        held: list[tuple[int, float]] = []
        absent = hm.absent
        if infer and absent.count(None) != _NUM_HAZARDS:
            rest: list[int] = []
            for c in pool:
                a = absent[c - OUT_OF_GAS] if OUT_OF_GAS <= c <= SPEED_LIMIT else None
                if a is None:
                    rest.append(c)
                else:
                    held.append((c, a / (a + deck_count) if deck_count > 0 else 1.0))
            pool = rest
        self.pool = pool
        self.infer = infer
        # The BSD player never discards a safety: an unseen safety lies in
        # its hand if it drew it at any time it could have.
        probs: list[tuple[int, float]] = []
        for s in safeties:
            if not self.infer:
                total = self.n + deck_count
                probs.append((s, self.n / total if total else 1.0))
                continue
            since = hm.since[s - SAFETY_BASE]
            drawn = max(0, hm.opp_received if since is None else since)
            p = drawn / (drawn + deck_count) if deck_count > 0 else 1.0
            probs.append((s, p))
        #: The cards dealt one by one, each with its chance to be in the
        #: opponent's hand: the unseen safeties, and the hazards above.
        self.safeties = probs + held
        self.uniform_safeties = not self.infer
        self.me = obs.players[seat].copy()
        self.op = obs.players[1 - seat].copy()
        self.my_counts = [0] * cards.NUM_TABLE
        for c in self.me.hand:
            if c >= 0:
                self.my_counts[c] += 1
        self.last = hm.last if epsilon < 1.0 else None
        self.particles = hm.particles
        self.epsilon = epsilon
        self.tries = tries
        self.opp_need = opp_need
        self.accepted = 0
        self.tried = 0

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
        seen = [COPIES[c] - self.my_counts[c] for c in range(cards.NUM_TABLE)]
        for c in undrawn:
            seen[c] -= 1
        seen[cards.NUM_TABLE - 1] = 0
        return seen

    def _plausible(self, hand_cards: list[int], undrawn: list[int], rng: GlibcRandom) -> bool:
        """Would the BSD player have made its last move with this hand?"""
        last = self.last
        if last is None:
            return True
        before = last.before
        op = before.op.copy()
        hand = [EMPTY] * _HAND_SIZE
        if last.drew:
            hand[0] = last.card
            hand[1 : 1 + len(hand_cards)] = hand_cards
        else:
            hand[1 : 1 + len(hand_cards)] = hand_cards
            for i in range(_HAND_SIZE):
                if hand[i] == EMPTY:
                    hand[i] = last.card
                    break
        op.hand = hand
        seen = self._opp_seen(undrawn)
        memory = Memory(seen, self.obs.memory.num_gos)
        roll = GlibcRandom.__new__(GlibcRandom)
        roll.setstate(_dice_state(rng))
        move = decide(op, before.me, memory, before.trip, last.deck_count, self.opp_need[:], roll).move
        kind = move.kind
        if kind is last.kind and hand[move.slot] == last.card:
            return True
        return rng.uniform() < self.epsilon

    def sample(self, rng: GlibcRandom) -> Game:
        """A world consistent with the observation, weighted by the inference."""
        if self.particles is not None:
            return self._from_particle(rng)
        hand_cards, undrawn = self._deal(rng)
        if self.last is not None:
            for _ in range(self.tries - 1):
                self.tried += 1
                if self._plausible(hand_cards, undrawn, rng):
                    self.accepted += 1
                    break
                hand_cards, undrawn = self._deal(rng)
        hand = [EMPTY] * _HAND_SIZE
        n = len(hand_cards)
        first = 1 if n < _HAND_SIZE else 0
        hand[first : first + n] = hand_cards
        return self._world(hand, undrawn)

    def _from_particle(self, rng: GlibcRandom) -> Game:
        """A world whose opponent's hand is a particle of the filter, the rest of the unseen cards the deck."""
        assert self.particles is not None
        hand = self.particles.draw(rng)
        left = self.unseen[:]
        for c in hand:
            if c >= 0:
                left[c] -= 1
        undrawn = [c for c in range(cards.NUM_CODES) for _ in range(left[c])]
        rng.shuffle(undrawn)
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


_SHARED_RNG = GlibcRandom(1)

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "ExpertPlayer",
    "Level",
    "rollout",
    "rollout_reference",
    "utility",
    "win_probability",
]
