"""Matches between any two players: duplicate deals, honest confidence intervals.

    python -m mille.match A B [--games N | --hands N] [--seed S] [--jobs J] [--json] [--max-think-ms MS]

A and B are player names (``bsd``, ``first``, ``random``, ``expert``) or
``module:attribute`` plug-ins (see ``docs/bots.md``).  The match is played
in **duplicate pairs** of 5000-point games: the second game of a pair
replays the first with the seats swapped.  Hand *k* of both games is dealt
from the same deck order, with the same seat starting it, so whatever
cards and tempo one player had in the first game, the other has in the
second.  The deals come from generators of the match (seeded from the
match seed, the pair and the hand), never from the players' dice, so
hand *k* is the same in both games whatever happened in the hands before.
Each player rolls its own dice, seeded from the match seed, the pair and
the player (the same in both games of a pair), and is built afresh for
every game.

A player that answers an illegal move, raises, or thinks longer than
``--max-think-ms`` loses that game (the report says which and why); the
other game of the pair and the run go on.

The report (text, or one JSON line) gives A's game score with a Wilson
interval, the mean score margin per hand with an interval computed over
the duplicate pairs (so that the pairing's variance reduction counts),
think times and errors; ``docs/bots.md`` explains the arithmetic.  The
same seed and players give the same report apart from the timing fields
(:data:`TIMING_FIELDS`), whatever ``--jobs`` and whatever executor ran it.

Pairs are independent units of work: :func:`run_match` runs them in
process (``jobs=1``), in a :class:`~concurrent.futures.ProcessPoolExecutor`
of its own, or in any :class:`~concurrent.futures.Executor` it is handed.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import io
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from . import cards, rules
from .driver import EndlessHand, PlayerError, play_hand
from .observation import Observation
from .players import Player, PlayerSpecError, make_player
from .rng import GlibcRandom
from .rules import Move
from .scoring import GAME_POINTS
from .state import Game
from .stats import ThinkStats, game_score_interval, ratio_interval

#: Report fields that depend on the machine and the moment, not on the seed.
TIMING_FIELDS = ("think_ms", "seconds", "games_per_second")

#: Guards against an engine bug looping forever (no real game comes near;
#: the driver guards each hand, :data:`mille.driver.MAX_MOVES_PER_HAND`).
MAX_HANDS_PER_GAME = 1000


PLAYER_KEYS = ("a", "b")


class MatchError(RuntimeError):
    """The match itself went wrong (not a player: an engine bug or bad arguments)."""


# --------------------------------------------------------------------------
# Seeds


def derive_seed(*parts: object) -> int:
    """A 32-bit seed from the parts' text (stable across processes and Python versions)."""
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
    :func:`mille.rules.start_hand`.
    """
    game.deck = list(cards.INITIAL_DECK)
    game.rng = GlibcRandom(seed)
    rules.shuffle(game)
    game.hand_starter = starter
    game.to_move = starter
    rules.deal(game)


# --------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a player lost a game by forfeit."""

    player: int  # 0: A, 1: B
    kind: str  # "illegal", "exception" or "timeout"
    message: str
    hand: int  # 0-based hand of the game in which it happened


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a pair, from A's side."""

    pair: int
    second: bool  # the seat-swapped game of the pair
    a_seat: int
    #: A's hand total minus B's, for every hand finished (a forfeited hand is not counted).
    margins: tuple[int, ...]
    a_points: int  # A's points over the finished hands
    b_points: int
    #: 0 (A won), 1 (B won) or None (a tie: equal totals at the end).
    winner: int | None
    fault: Fault | None = None

    @property
    def index(self) -> int:
        """The game's 0-based number in the match."""
        return 2 * self.pair + int(self.second)


@dataclass(slots=True)
class PairResult:
    """A duplicate pair: both games, and both players' think times over them."""

    pair: int
    games: tuple[GameRecord, GameRecord]
    think: tuple[ThinkStats, ThinkStats]

    @property
    def hands(self) -> int:
        return len(self.games[0].margins) + len(self.games[1].margins)

    @property
    def margin(self) -> int:
        return sum(self.games[0].margins) + sum(self.games[1].margins)

    @property
    def a_score(self) -> float:
        """A's game points in the pair: 1 a win, 1/2 a tie (0, 0.5, ... 2)."""
        return sum(1.0 if g.winner == 0 else 0.5 if g.winner is None else 0.0 for g in self.games)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What a worker needs to play a pair (picklable)."""

    a: str
    b: str
    seed: int
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS


# --------------------------------------------------------------------------
# Playing


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


def play_game(
    config: MatchConfig,
    pair: int,
    second: bool,
    think: tuple[ThinkStats, ThinkStats] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
) -> GameRecord:
    """Play one game of a duplicate pair (``second``: the seat-swapped one).

    ``think`` (A's and B's) collects think times; ``on_deal(hand, game)``
    is called after every deal (for tests and analysis; it must not change
    the game).  Each hand is played by the engine's hand driver
    (:func:`mille.driver.play_hand`), which referees the players.
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
            players.append(make_player(specs[player]))
        except Exception as exc:
            return forfeit(player, "exception", f"cannot make the player: {exc}", 0)
    dice_of = [GlibcRandom(dice_seed(config.seed, pair, player)) for player in (0, 1)]
    dice = (dice_of[who[0]], dice_of[who[1]])
    game = Game()
    with _Alarm(None if config.max_think_ms is None else config.max_think_ms / 1000.0) as alarm:
        seats = [_Timed(players[seat], seat, think[who[seat]], alarm, config.max_think_ms) for seat in (0, 1)]
        for hand in range(MAX_HANDS_PER_GAME):
            deal_hand(game, deal_seed(config.seed, pair, hand), hand % 2)
            if on_deal is not None:
                on_deal(hand, game)
            try:
                result = play_hand(game, seats, dice, game_points=config.game_points).result
            except PlayerError as exc:
                return forfeit(who[exc.seat], exc.kind, exc.message, hand)
            except EndlessHand as exc:
                raise MatchError(f"pair {pair + 1}, hand {hand + 1}: {exc}") from None
            margins.append(result.margin(a_seat))
            points[0] += result.hand_totals[a_seat]
            points[1] += result.hand_totals[1 - a_seat]
            if result.game_over:
                winner = None if result.game_winner is None else who[result.game_winner]
                return GameRecord(pair, second, a_seat, tuple(margins), points[0], points[1], winner)
    raise MatchError(f"pair {pair + 1}: no game end after {MAX_HANDS_PER_GAME} hands")


def play_pair(config: MatchConfig, pair: int) -> PairResult:
    """Both games of duplicate pair ``pair`` (0-based)."""
    think = (ThinkStats(), ThinkStats())
    first = play_game(config, pair, False, think)
    second = play_game(config, pair, True, think)
    return PairResult(pair, (first, second), think)


def play_pairs(config: MatchConfig, start: int, stop: int) -> list[PairResult]:
    """Pairs ``start`` .. ``stop - 1``: the unit of work handed to an executor."""
    return [play_pair(config, pair) for pair in range(start, stop)]


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the run and reports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --------------------------------------------------------------------------
# The report


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def summarize(
    config: MatchConfig,
    pairs: Sequence[PairResult],
    *,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> dict[str, Any]:
    """The report of a match over these pairs (any order: they are sorted by index)."""
    pairs = sorted(pairs, key=lambda p: p.pair)
    games = [g for p in pairs for g in p.games]
    hands = sum(p.hands for p in pairs)
    a_wins = sum(1 for g in games if g.winner == 0)
    b_wins = sum(1 for g in games if g.winner == 1)
    ties = sum(1 for g in games if g.winner is None)
    rate, rate_ci, deff = game_score_interval([p.a_score for p in pairs])
    margin = ratio_interval([p.margin for p in pairs], [p.hands for p in pairs])
    hand_margins = [m for g in games for m in g.margins]
    unpaired: float | None = None
    if len(hand_margins) >= 2:
        mean = math.fsum(hand_margins) / len(hand_margins)
        variance = math.fsum((m - mean) ** 2 for m in hand_margins) / (len(hand_margins) - 1)
        unpaired = math.sqrt(variance / len(hand_margins))
    think = (ThinkStats(), ThinkStats())
    for p in pairs:
        think[0].merge(p.think[0])
        think[1].merge(p.think[1])
    errors = [
        {
            "game": g.index + 1,
            "pair": g.pair + 1,
            "hand": g.fault.hand + 1,
            "player": PLAYER_KEYS[g.fault.player],
            "name": (config.a, config.b)[g.fault.player],
            "seat": g.a_seat if g.fault.player == 0 else 1 - g.a_seat,
            "kind": g.fault.kind,
            "message": g.fault.message,
        }
        for g in games
        if g.fault is not None
    ]
    return {
        "a": config.a,
        "b": config.b,
        "seed": config.seed,
        "games": len(games),
        "pairs": len(pairs),
        "hands": hands,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "a_game_wins": a_wins,
        "b_game_wins": b_wins,
        "ties": ties,
        "a_game_win_rate": round(rate, 6),
        "a_game_win_rate_ci95": [round(rate_ci[0], 6), round(rate_ci[1], 6)],
        "design_effect": round(deff, 4),
        "a_points_per_hand": _r(sum(g.a_points for g in games) / hands if hands else None, 3),
        "b_points_per_hand": _r(sum(g.b_points for g in games) / hands if hands else None, 3),
        "margin_per_hand": _r(margin.estimate, 3),
        "margin_ci95": [_r(margin.low, 3), _r(margin.high, 3)],
        "margin_se": _r(margin.se, 3),
        "margin_se_unpaired": _r(unpaired, 3),
        "think_ms": {"a": think[0].summary(), "b": think[1].summary()},
        "errors": errors,
        "interrupted": interrupted,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(games) / seconds, 2) if seconds > 0 else 0.0,
    }


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.1f}"


def format_report(report: dict[str, Any], *, jobs: int | None = None) -> str:
    """The report as text."""
    a, b = report["a"], report["b"]
    low, high = report["a_game_win_rate_ci95"]
    m_low, m_high = report["margin_ci95"]
    rows = [
        f"mille.match: A = {a}, B = {b}; seed {report['seed']}; {report['games']} games "
        f"({report['pairs']} duplicate pairs), {report['hands']} hands"
        + (f", {report['game_points']}-point games" if report["game_points"] != GAME_POINTS else "")
        + (" -- INTERRUPTED, partial result" if report["interrupted"] else ""),
        f"  games won        A {report['a_game_wins']}, B {report['b_game_wins']}, ties {report['ties']}",
        f"  A's game score   {_pct(report['a_game_win_rate'])}  "
        f"(95% CI {_pct(low)} to {_pct(high)}; a tie counts half)",
    ]
    if report["margin_per_hand"] is not None:
        interval = "" if m_low is None else f"  (95% CI {_signed(m_low)} to {_signed(m_high)})"
        rows.append(f"  margin per hand  A {_signed(report['margin_per_hand'])} points{interval}")
        if report["margin_se"] is not None and report["margin_se_unpaired"] is not None:
            rows.append(
                f"  standard error   {report['margin_se']:.1f} over duplicate pairs "
                f"({report['margin_se_unpaired']:.1f} if the hands were independent)"
            )
        rows.append(f"  points per hand  A {report['a_points_per_hand']:.1f}, B {report['b_points_per_hand']:.1f}")
    for key, name in zip(PLAYER_KEYS, (a, b)):
        t = report["think_ms"][key]
        rows.append(
            f"  think time {key.upper()}     median {t['median']:.3f} ms, p95 {t['p95']:.3f} ms, "
            f"max {t['max']:.3f} ms ({name})"
        )
    errors = report["errors"]
    if errors:
        rows.append(f"  errors           {len(errors)} game(s) forfeited:")
        for e in errors[:10]:
            rows.append(
                f"    game {e['game']} (pair {e['pair']}), hand {e['hand']}: "
                f"{e['player'].upper()} ({e['name']}) {e['kind']}: {e['message']}"
            )
        if len(errors) > 10:
            rows.append(f"    ... and {len(errors) - 10} more (--json lists them all)")
    else:
        rows.append("  errors           none")
    jobs_text = "" if jobs is None else f", {jobs} job{'s' if jobs != 1 else ''}"
    rows.append(f"  {report['seconds']:.2f} s, {report['games_per_second']:.1f} games/s{jobs_text}")
    return "\n".join(rows)


# --------------------------------------------------------------------------
# Running


@dataclass(slots=True)
class Progress:
    """What a progress callback is told after every finished unit of work."""

    games: int
    target_games: int | None
    hands: int
    target_hands: int | None
    seconds: float
    a_score: float
    margin_per_hand: float | None


@dataclass(slots=True)
class _Tally:
    games: int = 0
    hands: int = 0
    score: float = 0.0
    margin: int = 0
    #: Pairs 0 .. prefix_pairs - 1 are done, with prefix_hands hands between them.
    prefix_pairs: int = 0
    prefix_hands: int = 0


def default_jobs() -> int:
    """The machine's cores available to this process."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        n = counter()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)


def _batches(pairs: int | None, size: int) -> Iterator[tuple[int, int]]:
    start = 0
    while pairs is None or start < pairs:
        stop = start + size if pairs is None else min(start + size, pairs)
        yield (start, stop)
        start = stop


def run_match(
    a: str,
    b: str,
    *,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 1,
    jobs: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    max_think_ms: float | None = None,
    game_points: int = GAME_POINTS,
    pairs_per_task: int = 1,
    max_in_flight: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> dict[str, Any]:
    """Play a match and return its report (:func:`summarize`).

    ``games``: that many games, rounded up to whole pairs; ``hands``: pairs
    are taken in index order until at least that many hands are played
    (pairs a parallel run started beyond that are discarded, so the result
    does not depend on the parallelism).  With ``executor`` None, ``jobs``
    (default: the machine's cores) 1 plays in this process and more in a
    :class:`~concurrent.futures.ProcessPoolExecutor` of ``jobs`` workers;
    any other :class:`~concurrent.futures.Executor` is used as given (and
    not shut down): its workers must be able to import :mod:`mille` and
    the players.  ``pairs_per_task`` pairs go to a task, at most
    ``max_in_flight`` tasks are queued at once (default four per worker).
    Ctrl-C (KeyboardInterrupt) stops the run: the report then covers the
    pairs finished, with ``interrupted`` true.

    ``game_points`` shortens games for tests (the original: 5000).
    """
    if (games is None) == (hands is None):
        raise ValueError("give exactly one of games and hands")
    if (games is not None and games < 1) or (hands is not None and hands < 1):
        raise ValueError("games and hands must be at least 1")
    if pairs_per_task < 1:
        raise ValueError("pairs_per_task must be at least 1")
    if game_points < 1:
        raise ValueError("game_points must be at least 1")
    for spec in (a, b):
        make_player(spec)  # fail now, with PlayerSpecError, not in every game
    config = MatchConfig(a, b, seed, max_think_ms, game_points)
    total_pairs = None if games is None else (games + 1) // 2
    jobs = default_jobs() if jobs is None else max(1, jobs)
    start_time = time.perf_counter()
    done: dict[int, PairResult] = {}
    tally = _Tally()

    def record(results: list[PairResult]) -> None:
        for result in results:
            done[result.pair] = result
            tally.games += 2
            tally.hands += result.hands
            tally.score += result.a_score
            tally.margin += result.margin
        if progress is not None:
            progress(
                Progress(
                    tally.games,
                    None if total_pairs is None else 2 * total_pairs,
                    tally.hands,
                    hands,
                    time.perf_counter() - start_time,
                    tally.score / tally.games if tally.games else 0.0,
                    tally.margin / tally.hands if tally.hands else None,
                )
            )

    def chosen() -> list[PairResult] | None:
        """The pairs of the result once complete: all of them, or the prefix reaching ``hands``."""
        if total_pairs is not None:
            return [done[i] for i in range(total_pairs)] if len(done) >= total_pairs else None
        assert hands is not None
        # Extend the run of consecutive pairs from 0 (each pair is looked at once).
        while tally.prefix_hands < hands and tally.prefix_pairs in done:
            tally.prefix_hands += done[tally.prefix_pairs].hands
            tally.prefix_pairs += 1
        if tally.prefix_hands >= hands:
            return [done[i] for i in range(tally.prefix_pairs)]
        return None

    interrupted = False
    result: list[PairResult] | None = None
    try:
        if executor is None and jobs == 1:
            for start, stop in _batches(total_pairs, pairs_per_task):
                record(play_pairs(config, start, stop))
                result = chosen()
                if result is not None:
                    break
        else:
            own = executor is None
            pool: concurrent.futures.Executor = (
                concurrent.futures.ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)
                if executor is None
                else executor
            )
            workers = jobs if own else int(getattr(executor, "_max_workers", 0) or 16)
            window = max_in_flight if max_in_flight is not None else 4 * workers
            try:
                result = _run_pool(pool, config, total_pairs, pairs_per_task, max(1, window), record, chosen)
            except BaseException:
                _stop_pool(pool, own)
                raise
            if own:
                pool.shutdown(wait=True)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start_time
    if result is None:
        result = list(done.values())
    return summarize(config, result, seconds=seconds, interrupted=interrupted)


def _run_pool(
    pool: concurrent.futures.Executor,
    config: MatchConfig,
    total_pairs: int | None,
    size: int,
    window: int,
    record: Callable[[list[PairResult]], None],
    chosen: Callable[[], list[PairResult] | None],
) -> list[PairResult] | None:
    batches = _batches(total_pairs, size)
    pending: set[concurrent.futures.Future[list[PairResult]]] = set()
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                pending.add(pool.submit(play_pairs, config, batch[0], batch[1]))
            if not pending:
                return chosen()
            finished, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                record(future.result())
            result = chosen()
            if result is not None:
                return result
    finally:
        for future in pending:
            future.cancel()


def _stop_pool(pool: concurrent.futures.Executor, own: bool) -> None:
    """Cancel what has not started; an own pool's workers are stopped at once."""
    if not own:
        return
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = getattr(pool, "_processes", None) or {}
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        process.terminate()


# --------------------------------------------------------------------------
# Command line


class ProgressBar:
    """One line on a terminal: games done, rate, the current estimate."""

    def __init__(self, stream: TextIO, a: str, b: str) -> None:
        self.stream = stream
        self.names = (a, b)
        self.last = 0.0
        self.width = 0

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self.last < 0.2 and not (p.target_games is not None and p.games >= p.target_games):
            return
        self.last = now
        if p.target_games is not None:
            fraction = p.games / p.target_games
            done = f"{p.games}/{p.target_games} games"
        else:
            assert p.target_hands is not None
            fraction = min(1.0, p.hands / p.target_hands)
            done = f"{p.hands}/{p.target_hands} hands, {p.games} games"
        filled = int(20 * fraction)
        rate = p.games / p.seconds if p.seconds > 0 else 0.0
        margin = "" if p.margin_per_hand is None else f", margin {p.margin_per_hand:+.0f}/hand"
        line = (
            f"[{'#' * filled}{'.' * (20 - filled)}] {done}, {rate:.1f} games/s; "
            f"{self.names[0]} scores {_pct(p.a_score)}{margin}"
        )
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            columns = 100
        line = line[: max(20, columns - 1)]
        self.stream.write("\r" + line + " " * max(0, self.width - len(line)))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.match",
        description="Play duplicate pairs of 5000-point games between two players and report "
        "A's game score and score margin per hand with 95%% confidence intervals.",
        epilog="Players: bsd, first, random, expert, or module:attribute (a class or factory "
        "importable from the current directory; see docs/bots.md).",
    )
    parser.add_argument("a", metavar="A", help="player A")
    parser.add_argument("b", metavar="B", help="player B")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, metavar="N", help="play N games, rounded up to pairs (default 200)")
    size.add_argument("--hands", type=int, metavar="N", help="play pairs until at least N hands are played")
    parser.add_argument("--seed", type=int, default=1, help="the match seed: deals and dice (default 1)")
    parser.add_argument(
        "--jobs", type=int, metavar="J", help=f"worker processes (default: the cores, here {default_jobs()})"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the text report")
    parser.add_argument(
        "--max-think-ms",
        type=float,
        metavar="MS",
        help="a player that thinks longer than MS milliseconds over one decision loses the game (default: no limit)",
    )
    args = parser.parse_args(argv)
    if args.games is None and args.hands is None:
        args.games = 200
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.max_think_ms is not None and args.max_think_ms <= 0:
        parser.error("--max-think-ms must be positive")
    try:
        make_player(args.a)
        make_player(args.b)
    except PlayerSpecError as exc:
        parser.error(str(exc))
    jobs = default_jobs() if args.jobs is None else args.jobs
    bar = ProgressBar(sys.stderr, args.a, args.b) if sys.stderr.isatty() else None
    try:
        report = run_match(
            args.a,
            args.b,
            games=args.games,
            hands=args.hands,
            seed=args.seed,
            jobs=jobs,
            max_think_ms=args.max_think_ms,
            progress=bar,
        )
    except MatchError as exc:
        if bar is not None:
            bar.clear()
        print(f"mille.match: {exc}", file=sys.stderr)
        return 1
    if bar is not None:
        bar.clear()
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report, jobs=jobs))
    return 130 if report["interrupted"] else 0


__all__ = [
    "MAX_HANDS_PER_GAME",
    "TIMING_FIELDS",
    "Fault",
    "GameRecord",
    "MatchConfig",
    "MatchError",
    "PairResult",
    "Progress",
    "deal_hand",
    "deal_seed",
    "derive_seed",
    "dice_seed",
    "format_report",
    "main",
    "play_game",
    "play_pair",
    "play_pairs",
    "run_match",
    "summarize",
]


if __name__ == "__main__":
    # Run as the module's real name, so that what a worker process unpickles
    # (the task function, the configuration, the results) is `mille.match`'s.
    from mille.match import main as _main

    sys.exit(_main())
