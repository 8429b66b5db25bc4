"""Playing a duplicate pair: its seeds and deals, the think-time limit, its two games.

A match is played in **duplicate pairs** of 5000-point games: the second
game of a pair replays the first with the seats swapped.  Hand *k* of both
games is dealt from the same deck order (:func:`deal_seed`,
:func:`deal_hand`), with the same seat starting it, so whatever cards and
tempo one player had in the first game, the other has in the second.  The
deals come from generators of the match (seeded from the match seed, the
pair and the hand), never from the players' dice, so hand *k* is the same
in both games whatever happened in the hands before.  Each player rolls
its own dice, and is built afresh for every game: a player in this
process, dice from :func:`dice_seed` (the match seed, the pair and the
player, the same in both games of a pair, so that reports are
reproducible); a bot program (``exec:``), which is handed its dice's seed
and must not derive the deals from it (issue 36), dice from
``os.urandom`` for every game, unless the person running the match said
that bots may read the deck (``bots_read_deck``).

A player that answers an illegal move, raises, or thinks longer than the
limit (``max_think_ms``) loses that game: the game's record says which and
why (:class:`~mille.lab.records.Fault`), and the other game of the pair is
played all the same.  A pair depends on its :class:`MatchConfig` and its
index alone, so pairs can be played anywhere, in any order
(:mod:`mille.lab.runner`).
"""

from __future__ import annotations

import hashlib
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import rules
from ..engine.driver import EndlessHand, PlayerError, play_hand
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom, secret_seed
from ..engine.rules import Move
from ..engine.scoring import GAME_POINTS
from ..engine.state import Game, Table
from ..players import Player, is_exec_spec, make_player
from .gamelog import MoveRecorder
from .records import Fault, GameRecord, PairResult
from .stats import ThinkStats

#: Guards against an engine bug looping forever (no real game comes near;
#: the driver guards each hand, :data:`mille.engine.driver.MAX_MOVES_PER_HAND`).
MAX_HANDS_PER_GAME = 1000


class MatchError(RuntimeError):
    """The match itself went wrong (not a player: an engine bug or bad arguments)."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What a worker needs to play a pair (picklable)."""

    a: str
    b: str
    seed: int
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS
    #: ``--bot-reads-deck``: a bot program (``exec:``) rolls the dice an
    #: in-process player would (:func:`dice_seed`, public for a public seed);
    #: otherwise its dice are drawn from ``os.urandom`` for every game.
    bots_read_deck: bool = False


# --------------------------------------------------------------------------
# Seeds


def derive_seed(*parts: object) -> int:
    """A 32-bit seed from the parts' text (stable across processes and Python versions).

    The prefix names the module the match once was: it stays, so that every
    match and tournament deals as it always has.
    """
    text = "mille.match/" + "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")


def deal_seed(seed: int, pair: int, hand: int) -> int:
    """Seed of the shuffle of hand ``hand`` (0-based) of both games of pair ``pair``."""
    return derive_seed("deal", seed, pair, hand)


def dice_seed(seed: int, pair: int, player: int) -> int:
    """Seed of player A's (0) or B's (1) dice in both games of pair ``pair``."""
    return derive_seed("dice", seed, pair, player)


def deal_hand(game: Game, seed: int, starter: int) -> None:
    """Deal a hand of ``game`` from a fresh deck shuffled by ``GlibcRandom(seed)``.

    The deck is the original's initial order shuffled with the original's
    shuffle, so the deck order depends on ``seed`` only, not on the hands
    before; ``starter`` (a seat) moves first.  Totals carry over, as in
    :func:`mille.engine.rules.start_hand`.
    """
    game.deck = list(game.table.deck)
    game.rng = GlibcRandom(seed)
    rules.shuffle(game)
    game.hand_starter = starter
    game.to_move = starter
    rules.deal(game)


# --------------------------------------------------------------------------
# The think-time limit


class _ThinkTimeout(BaseException):
    """Raised by the alarm in a player's choose(); a BaseException so that players cannot swallow it."""


class _Alarm:
    """Interrupts a choose() that runs past the think limit (Unix, main thread only).

    Elsewhere the limit is still enforced, after the fact, by measuring.
    The handler raises only while armed, that is inside the ``try`` around
    the call, however late the signal is delivered.
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.active = (
            limit is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        self.armed = False
        self._previous: Any = None

    def __enter__(self) -> _Alarm:
        if self.active:
            self._previous = signal.signal(signal.SIGALRM, self._fire)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active:
            self.disarm()
            signal.signal(signal.SIGALRM, self._previous)

    def _fire(self, signum: int, frame: object) -> None:
        if self.armed:
            self.armed = False
            raise _ThinkTimeout

    def arm(self) -> None:
        if self.active:
            assert self.limit is not None
            self.armed = True
            # A little grace: the limit proper is checked by measuring.
            signal.setitimer(signal.ITIMER_REAL, self.limit * 1.05 + 0.002)

    def disarm(self) -> None:
        if self.active:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)


class _Timed:
    """A seat as the match sees it: the player's think time measured and limited.

    Every answer is timed into ``stats``; one past the limit (interrupted
    by the alarm, or measured after the fact) is a :class:`PlayerError` of
    kind ``timeout``, which the match turns into a forfeit like any other.
    """

    def __init__(self, player: Player, seat: int, stats: ThinkStats, alarm: _Alarm, max_think_ms: float | None) -> None:
        self.choose_move = player.choose
        self.seat = seat
        self.stats = stats
        self.alarm = alarm
        self.max_think_ms = max_think_ms
        self.limit = None if max_think_ms is None else max_think_ms / 1000.0
        # A bot in another process waits for its answer this long, then is killed (exec:).
        limit_think = getattr(player, "limit_think", None)
        if limit_think is not None:
            limit_think(self.limit)
        # The driver's optional hooks are the player's own (a bot in another process is told the table).
        for hook in ("inform", "hand_over"):
            method = getattr(player, hook, None)
            if method is not None:
                setattr(self, hook, method)

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        alarm = self.alarm
        perf = time.perf_counter
        try:
            alarm.arm()
            start = perf()
            move = self.choose_move(observation, rng)
            elapsed = perf() - start
        except _ThinkTimeout:
            raise PlayerError(self.seat, "timeout", f"still thinking after {self.max_think_ms:g} ms") from None
        finally:
            alarm.disarm()
        self.stats.add(elapsed)
        if self.limit is not None and elapsed > self.limit:
            message = f"took {elapsed * 1000:.1f} ms (limit {self.max_think_ms:g} ms)"
            raise PlayerError(self.seat, "timeout", message)
        return move


# --------------------------------------------------------------------------
# Playing


def play_game(
    config: MatchConfig,
    pair: int,
    second: bool,
    think: tuple[ThinkStats, ThinkStats] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
    recorder: MoveRecorder | None = None,
) -> GameRecord:
    """Play one game of a duplicate pair (``second``: the seat-swapped one).

    ``think`` (A's and B's) collects think times; ``on_deal(hand, game)``
    is called after every deal (for tests and analysis; it must not change
    the game); ``recorder`` takes down every move (``--record``).  Each
    hand is played by the engine's hand driver
    (:func:`mille.engine.driver.play_hand`), which referees the players.
    """
    if think is None:
        think = (ThinkStats(), ThinkStats())
    a_seat = 1 if second else 0
    who = (0, 1) if a_seat == 0 else (1, 0)  # who[seat]: 0 for A, 1 for B
    specs = (config.a, config.b)
    margins: list[int] = []
    points = [0, 0]

    def forfeit(player: int, kind: str, message: str, hand: int) -> GameRecord:
        return GameRecord(
            pair, second, a_seat, tuple(margins), points[0], points[1], 1 - player, Fault(player, kind, message, hand)
        )

    players: list[Player] = []
    for seat in (0, 1):
        player = who[seat]
        try:
            # The pair's deal as its key: no bot process plays both games of a pair (issue 36).
            players.append(make_player(specs[player], deal_seed(config.seed, pair, 0)))
        except Exception as exc:
            return forfeit(player, "exception", f"cannot make the player: {exc}", 0)
    dice_of = [
        GlibcRandom(secret_seed())
        if is_exec_spec(specs[player]) and not config.bots_read_deck
        else GlibcRandom(dice_seed(config.seed, pair, player))
        for player in (0, 1)
    ]
    dice = (dice_of[who[0]], dice_of[who[1]])
    game = Game(table=Table(game_points=config.game_points))
    with _Alarm(None if config.max_think_ms is None else config.max_think_ms / 1000.0) as alarm:
        seats = [_Timed(players[seat], seat, think[who[seat]], alarm, config.max_think_ms) for seat in (0, 1)]
        for hand in range(MAX_HANDS_PER_GAME):
            seed = deal_seed(config.seed, pair, hand)
            deal_hand(game, seed, hand % 2)
            if on_deal is not None:
                on_deal(hand, game)
            if recorder is not None:
                recorder.start_hand(hand % 2, seed)
            try:
                result = play_hand(game, seats, dice, observer=recorder).result
            except PlayerError as exc:
                return forfeit(who[exc.seat], exc.kind, exc.message, hand)
            except EndlessHand as exc:
                raise MatchError(f"pair {pair + 1}, hand {hand + 1}: {exc}") from None
            if recorder is not None:
                recorder.end_hand(result)
            margins.append(result.margin(a_seat))
            points[0] += result.hand_totals[a_seat]
            points[1] += result.hand_totals[1 - a_seat]
            if result.game_over:
                winner = None if result.game_winner is None else who[result.game_winner]
                return GameRecord(pair, second, a_seat, tuple(margins), points[0], points[1], winner)
    raise MatchError(f"pair {pair + 1}: no game end after {MAX_HANDS_PER_GAME} hands")


def play_pair(config: MatchConfig, pair: int, *, moves: bool = False) -> PairResult:
    """Both games of duplicate pair ``pair`` (0-based); with ``moves``, every move of both taken down."""
    think = (ThinkStats(), ThinkStats())
    if not moves:
        first = play_game(config, pair, False, think)
        second = play_game(config, pair, True, think)
        return PairResult(pair, (first, second), think)
    recorders = (MoveRecorder(), MoveRecorder())
    first = play_game(config, pair, False, think, recorder=recorders[0])
    second = play_game(config, pair, True, think, recorder=recorders[1])
    return PairResult(pair, (first, second), think, (recorders[0].hands, recorders[1].hands))


def play_pairs(config: MatchConfig, start: int, stop: int, *, moves: bool = False) -> list[PairResult]:
    """Pairs ``start`` .. ``stop - 1``: the unit of work handed to an executor (``moves``: see :func:`play_pair`)."""
    return [play_pair(config, pair, moves=moves) for pair in range(start, stop)]


__all__ = [
    "MAX_HANDS_PER_GAME",
    "MatchConfig",
    "MatchError",
    "deal_hand",
    "deal_seed",
    "derive_seed",
    "dice_seed",
    "play_game",
    "play_pair",
    "play_pairs",
]
