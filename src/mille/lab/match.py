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
import functools
import hashlib
import io
import itertools
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from ..engine import cards, rules
from ..engine.driver import EndlessHand, PlayerError, play_hand
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.rules import Move
from ..engine.scoring import GAME_POINTS
from ..engine.state import Game
from ..players import BUILTIN, Player, PlayerSpecError, make_player
from .stats import ThinkStats, game_score_interval, ratio_interval, think_from_json, think_to_json

#: Report fields that depend on the machine and the moment, not on the seed.
TIMING_FIELDS = ("think_ms", "seconds", "games_per_second")

#: Guards against an engine bug looping forever (no real game comes near;
#: the driver guards each hand, :data:`mille.engine.driver.MAX_MOVES_PER_HAND`).
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
    :func:`mille.engine.rules.start_hand`.
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

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (the results file of :mod:`mille.lab.tournament`); :meth:`from_json` inverts it."""
        fault = self.fault
        return {
            "second": self.second,
            "a_seat": self.a_seat,
            "margins": list(self.margins),
            "a_points": self.a_points,
            "b_points": self.b_points,
            "winner": self.winner,
            "fault": None
            if fault is None
            else {"player": fault.player, "kind": fault.kind, "message": fault.message, "hand": fault.hand},
        }

    @classmethod
    def from_json(cls, pair: int, data: object) -> GameRecord:
        """The record :meth:`to_json` gave (of pair ``pair``); ValueError for anything else."""
        fields = {"second", "a_seat", "margins", "a_points", "b_points", "winner", "fault"}
        if not isinstance(data, dict) or set(data) != fields:
            raise ValueError(f"a game must have exactly the fields {', '.join(sorted(fields))}")
        margins = data["margins"]
        if not isinstance(margins, list) or not all(type(m) is int for m in margins):
            raise ValueError("a game's margins must be a list of integers")
        if type(data["second"]) is not bool or data["a_seat"] not in (0, 1) or type(data["a_seat"]) is not int:
            raise ValueError("bad second or a_seat in a game")
        if type(data["a_points"]) is not int or type(data["b_points"]) is not int:
            raise ValueError("a game's points must be integers")
        if data["winner"] not in (0, 1, None) or type(data["winner"]) is bool:
            raise ValueError("a game's winner must be 0, 1 or null")
        fault: Fault | None = None
        raw = data["fault"]
        if raw is not None:
            if (
                not isinstance(raw, dict)
                or set(raw) != {"player", "kind", "message", "hand"}
                or raw["player"] not in (0, 1)
                or type(raw["player"]) is not int
                or not isinstance(raw["kind"], str)
                or not isinstance(raw["message"], str)
                or type(raw["hand"]) is not int
            ):
                raise ValueError("bad fault in a game")
            fault = Fault(raw["player"], raw["kind"], raw["message"], raw["hand"])
        return cls(
            pair,
            data["second"],
            data["a_seat"],
            tuple(margins),
            data["a_points"],
            data["b_points"],
            data["winner"],
            fault,
        )


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

    def to_json(self) -> dict[str, Any]:
        """The pair as JSON: :meth:`from_json` gives back an equal result, think-time histograms included."""
        return {
            "pair": self.pair,
            "games": [g.to_json() for g in self.games],
            "think": [think_to_json(t) for t in self.think],
        }

    @classmethod
    def from_json(cls, data: object) -> PairResult:
        """The result :meth:`to_json` gave; ValueError (with what is wrong) for anything else."""
        if not isinstance(data, dict) or set(data) != {"pair", "games", "think"}:
            raise ValueError("a pair must have exactly the fields games, pair and think")
        pair, games, think = data["pair"], data["games"], data["think"]
        if type(pair) is not int or pair < 0:
            raise ValueError("a pair's index must be a non-negative integer")
        if not isinstance(games, list) or len(games) != 2 or not isinstance(think, list) or len(think) != 2:
            raise ValueError("a pair has two games and two think-time histograms")
        first, second = GameRecord.from_json(pair, games[0]), GameRecord.from_json(pair, games[1])
        if first.second or not second.second:
            raise ValueError("a pair's games are the first and the seat-swapped one, in that order")
        return cls(pair, (first, second), (think_from_json(think[0]), think_from_json(think[1])))


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


def think_summary(think: ThinkStats) -> dict[str, float] | None:
    """Median, p95 and max in milliseconds; None for a player that made no decision."""
    return think.summary() if think.count else None


def summarize(
    config: MatchConfig,
    pairs: Sequence[PairResult],
    *,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> dict[str, Any]:
    """The report of a match over these pairs (any order: they are sorted by index).

    With no pairs there is no result: the score, its interval, the design
    effect and the think times are None (null in JSON), not zeros.
    """
    pairs = sorted(pairs, key=lambda p: p.pair)
    games = [g for p in pairs for g in p.games]
    hands = sum(p.hands for p in pairs)
    a_wins = sum(1 for g in games if g.winner == 0)
    b_wins = sum(1 for g in games if g.winner == 1)
    ties = sum(1 for g in games if g.winner is None)
    rate: float | None = None
    rate_ci: tuple[float | None, float | None] = (None, None)
    deff: float | None = None
    if pairs:
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
        "a_game_win_rate": _r(rate, 6),
        "a_game_win_rate_ci95": [_r(rate_ci[0], 6), _r(rate_ci[1], 6)],
        "design_effect": _r(deff, 4),
        "a_points_per_hand": _r(sum(g.a_points for g in games) / hands if hands else None, 3),
        "b_points_per_hand": _r(sum(g.b_points for g in games) / hands if hands else None, 3),
        "margin_per_hand": _r(margin.estimate, 3),
        "margin_ci95": [_r(margin.low, 3), _r(margin.high, 3)],
        "margin_se": _r(margin.se, 3),
        "margin_se_unpaired": _r(unpaired, 3),
        "think_ms": {"a": think_summary(think[0]), "b": think_summary(think[1])},
        "errors": errors,
        # Pair by pair (same seed, same deals and dice: two runs with one
        # player changed can be compared pair against pair).
        "by_pair": [{"pair": p.pair + 1, "a_score": p.a_score, "margin": p.margin, "hands": p.hands} for p in pairs],
        "interrupted": interrupted,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(games) / seconds, 4) if seconds > 0 else 0.0,
    }


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.1f}"


def plural(n: int, word: str) -> str:
    """``1 pair``, ``2 pairs``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def format_rate(x: float) -> str:
    """A rate that stays readable when slow: 173, 61.9, 5.0, 0.0445 (three figures below 1)."""
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if x >= 1 or x == 0 else f"{x:.3g}"


def format_think(t: dict[str, float] | None) -> str:
    return "no decisions" if t is None else f"median {t['median']:.3f} ms, p95 {t['p95']:.3f} ms, max {t['max']:.3f} ms"


def format_report(report: dict[str, Any], *, jobs: int | None = None, cluster: str | None = None) -> str:
    """The report as text, in lines of at most 79 columns (apart from long player names and error messages)."""
    a, b = report["a"], report["b"]
    jobs_text = ""
    if cluster is not None:
        jobs_text = f", cluster {cluster}"
    elif jobs is not None:
        jobs_text = f", {plural(jobs, 'job')}"
    timing = f"  {report['seconds']:.2f} s, {format_rate(report['games_per_second'])} games/s{jobs_text}"
    points = f"; {report['game_points']}-point games" if report["game_points"] != GAME_POINTS else ""
    rows = [f"mille.match: A = {a}, B = {b}"]
    if report["pairs"] == 0:
        why = "interrupted before any pair finished" if report["interrupted"] else "no pair played"
        rows += [f"  seed {report['seed']}{points}: {why}, so no result", timing]
        return "\n".join(rows)
    low, high = report["a_game_win_rate_ci95"]
    m_low, m_high = report["margin_ci95"]
    rows += [
        f"  seed {report['seed']}; {plural(report['games'], 'game')} "
        f"({plural(report['pairs'], 'duplicate pair')}), {plural(report['hands'], 'hand')}{points}",
    ]
    if report["interrupted"]:
        rows.append("  INTERRUPTED: a partial result, over the pairs finished")
    rows += [
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
                f"({report['margin_se_unpaired']:.1f} for independent hands)"
            )
        rows.append(f"  points per hand  A {report['a_points_per_hand']:.1f}, B {report['b_points_per_hand']:.1f}")
    for key in PLAYER_KEYS:
        rows.append(f"  think time {key.upper()}     {format_think(report['think_ms'][key])}")
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
    rows.append(timing)
    return "\n".join(rows)


# --------------------------------------------------------------------------
# Running: one driver for the match and the tournament


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


@dataclass(frozen=True, slots=True)
class Batch:
    """A unit of work: pairs ``start`` .. ``stop - 1`` of one match (``config``)."""

    config: MatchConfig
    start: int
    stop: int


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


#: With a pool or a cluster, a task is made about this long once the time of a pair is known:
#: submitting one costs a millisecond or so, a bsd pair lasts about ten.
TASK_SECONDS = 0.25
#: ... and no longer than this many pairs (what Ctrl-C or a lost worker can waste).
MAX_PAIRS_PER_TASK = 64


def play_batch(config: MatchConfig, start: int, stop: int) -> tuple[list[PairResult], float]:
    """:func:`play_pairs`, and how long it took where it ran (to size the next tasks): the task of a pool."""
    began = time.perf_counter()
    results = play_pairs(config, start, stop)
    return results, time.perf_counter() - began


class _Batcher:
    """Groups the pairs to play, in order, into batches of consecutive pairs of one match.

    ``size`` None sizes them from the time the pairs take (about
    :data:`TASK_SECONDS` a batch, one pair until a time is known).
    """

    def __init__(self, pairs: Iterable[tuple[MatchConfig, int]], size: int | None) -> None:
        self.pairs = iter(pairs)
        self.fixed = size
        self.held: tuple[MatchConfig, int] | None = None
        self.played = 0
        self.seconds = 0.0

    def observe(self, pairs: int, seconds: float) -> None:
        self.played += pairs
        self.seconds += seconds

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.played == 0 or self.seconds <= 0.0:
            return 1
        return max(1, min(MAX_PAIRS_PER_TASK, round(TASK_SECONDS * self.played / self.seconds)))

    def next(self) -> Batch | None:
        first = self.held if self.held is not None else next(self.pairs, None)
        self.held = None
        if first is None:
            return None
        config, start = first
        stop = start + 1
        limit = self.size()
        while stop - start < limit:
            following = next(self.pairs, None)
            if following is None:
                break
            if following[0] != config or following[1] != stop:
                self.held = following
                break
            stop += 1
        return Batch(config, start, stop)


def run_batches(
    pairs: Iterable[tuple[MatchConfig, int]],
    record: Callable[[Batch, list[PairResult]], bool],
    *,
    jobs: int = 1,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    max_in_flight: int | None = None,
    pairs_per_task: int | None = None,
) -> bool:
    """Play ``pairs`` (match, pair index) and hand each batch's results to ``record`` as it finishes.

    Returns True if Ctrl-C stopped the run.  This is the one runner of
    :func:`run_match` and of :mod:`mille.lab.tournament`.  With ``executor``
    None, ``jobs`` 1 plays in this process, in order, and more in a
    :class:`~concurrent.futures.ProcessPoolExecutor` of ``jobs`` workers
    that is stopped at once on Ctrl-C; any other executor is used as given
    and not shut down.  Consecutive pairs of one match go to a task
    together: ``pairs_per_task`` of them, or (None) one at a time in
    process and, in a pool, as many as take about :data:`TASK_SECONDS`
    (at most :data:`MAX_PAIRS_PER_TASK`), measured as the run goes.  At
    most ``max_in_flight`` tasks (default four per worker; ``workers`` says
    how many an executor has) are submitted and not finished at once, so a
    run of a million pairs holds a few futures, not a million, and an
    interrupted run wastes little.  ``pairs`` is consumed lazily.  Batches
    finish in any order; ``record`` returns True once it has all it needs,
    and the rest is cancelled.  Ctrl-C (KeyboardInterrupt, in the wait or
    raised by ``record``) stops the run; what was recorded stays recorded.
    Any other exception (an engine bug, a lost cluster) propagates after
    the work in flight is cancelled.
    """
    try:
        if executor is None and jobs == 1:
            batcher = _Batcher(pairs, pairs_per_task or 1)
            while (batch := batcher.next()) is not None:
                if record(batch, play_pairs(batch.config, batch.start, batch.stop)):
                    break
            return False
        own = executor is None
        pool: concurrent.futures.Executor = (
            concurrent.futures.ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)
            if executor is None
            else executor
        )
        if workers is None:
            workers = jobs if own else int(getattr(executor, "_max_workers", 0) or 16)
        window = max(1, max_in_flight if max_in_flight is not None else 4 * workers)
        try:
            _run_pool(pool, _Batcher(pairs, pairs_per_task), window, record, cancel=not own)
        except BaseException:
            if own:
                _stop_pool(pool)
            raise
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        return True
    return False


def _run_pool(
    pool: concurrent.futures.Executor,
    batcher: _Batcher,
    window: int,
    record: Callable[[Batch, list[PairResult]], bool],
    *,
    cancel: bool,
) -> None:
    """Keep ``window`` tasks in flight until the batches run out or ``record`` has enough.

    ``cancel``: on the way out, cancel the tasks not started (an executor
    handed in); an own pool is shut down by the caller instead.
    """
    pending: dict[concurrent.futures.Future[tuple[list[PairResult], float]], Batch] = {}
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window:
                batch = batcher.next()
                if batch is None:
                    exhausted = True
                    break
                pending[pool.submit(play_batch, batch.config, batch.start, batch.stop)] = batch
            if not pending:
                return
            finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                batch = pending.pop(future)
                results, seconds = future.result()
                batcher.observe(len(results), seconds)
                if record(batch, results):
                    return
    finally:
        if cancel:
            for future in pending:
                future.cancel()


def _stop_pool(pool: concurrent.futures.Executor) -> None:
    """Stop an own process pool at once (Ctrl-C, or an error): its workers are terminated.

    Nothing is cancelled first: on Python 3.10 and 3.11 the pool's manager
    thread, finding its workers gone, sets an exception on every pending
    future and fails with a traceback on one already cancelled.  The
    manager thread is then waited for (it only reaps the dead workers and
    closes its pipes): left running, it races the interpreter's exit
    handler, which on Python 3.10 writes to the thread's wake-up pipe as
    the thread closes it, and the process printed a traceback or, once in
    some tens of runs under load, hung at exit after its report (seen in
    CI, ``tests/test_tournament.py``'s Ctrl-C test).
    """
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=True)


def run_match(
    a: str,
    b: str,
    *,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 1,
    jobs: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    max_think_ms: float | None = None,
    game_points: int = GAME_POINTS,
    pairs_per_task: int | None = None,
    max_in_flight: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> dict[str, Any]:
    """Play a match and return its report (:func:`summarize`).

    ``games``: that many games, rounded up to whole pairs; ``hands``: pairs
    are taken in index order until at least that many hands are played
    (pairs a parallel run started beyond that are discarded, so the result
    does not depend on the parallelism).  ``jobs`` (default: the machine's
    cores), ``executor``, ``workers``, ``max_in_flight`` and
    ``pairs_per_task`` are :func:`run_batches`'; the workers of an executor
    must be able to import :mod:`mille` and the players.  Ctrl-C
    (KeyboardInterrupt) stops the run: the report then covers the pairs
    finished, with ``interrupted`` true.

    ``game_points`` shortens games for tests (the original: 5000).
    """
    if (games is None) == (hands is None):
        raise ValueError("give exactly one of games and hands")
    if (games is not None and games < 1) or (hands is not None and hands < 1):
        raise ValueError("games and hands must be at least 1")
    if pairs_per_task is not None and pairs_per_task < 1:
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
    result: list[PairResult] | None = None

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

    def record(batch: Batch, results: list[PairResult]) -> bool:
        nonlocal result
        for r in results:
            done[r.pair] = r
            tally.games += 2
            tally.hands += r.hands
            tally.score += r.a_score
            tally.margin += r.margin
        result = chosen()
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
        return result is not None

    pairs = ((config, pair) for pair in (range(total_pairs) if total_pairs is not None else itertools.count()))
    interrupted = run_batches(
        pairs,
        record,
        jobs=jobs,
        executor=executor,
        workers=workers,
        max_in_flight=max_in_flight,
        pairs_per_task=pairs_per_task,
    )
    seconds = time.perf_counter() - start_time
    if result is None:
        result = list(done.values())
    return summarize(config, result, seconds=seconds, interrupted=interrupted)


# --------------------------------------------------------------------------
# Command line


def format_elapsed(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class StatusLine:
    """One line on a terminal, redrawn in place: at once, when told, and on a timer.

    The timer (a daemon thread, every ``interval`` seconds) keeps the
    elapsed time moving while a long unit of work runs (an ``expert``
    pair lasts tens of seconds), so the terminal is never blank and never
    looks stuck.  ``render(elapsed)`` gives the text; it is cut to the
    terminal's width.
    """

    def __init__(self, stream: TextIO, interval: float = 0.5) -> None:
        self.stream = stream
        self.interval = interval
        self.width = 0
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def render(self, elapsed: float) -> str:  # pragma: no cover - overridden
        return format_elapsed(elapsed)

    def start(self) -> None:
        """Draw now, and again every ``interval`` seconds until :meth:`clear`."""
        self.started = time.monotonic()
        self.draw()
        self._thread = threading.Thread(target=self._tick, name="mille-status", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()

    def draw(self) -> None:
        with self._lock:
            if self._stop.is_set() and self._thread is not None:
                return
            line = self.render(time.monotonic() - self.started)
            try:
                columns = os.get_terminal_size(self.stream.fileno()).columns or 100  # 0: not set
            except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
                columns = 100
            line = line[: max(20, columns - 1)]
            try:
                self.stream.write("\r" + line + " " * max(0, self.width - len(line)))
                self.stream.flush()
            except (OSError, ValueError):
                return
            self.width = len(line)

    def clear(self) -> None:
        """Stop the timer and erase the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self.width:
                try:
                    self.stream.write("\r" + " " * self.width + "\r")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
                self.width = 0


class ProgressBar(StatusLine):
    """The match's line: games done, rate, elapsed time, the current estimate."""

    def __init__(
        self,
        stream: TextIO,
        a: str,
        b: str,
        *,
        target_games: int | None = None,
        target_hands: int | None = None,
        interval: float = 0.5,
    ) -> None:
        super().__init__(stream, interval)
        self.names = (a, b)
        self.latest: Progress | None = None
        self.targets = (target_games, target_hands)
        self.last = 0.0

    def __call__(self, p: Progress) -> None:
        self.latest = p
        now = time.monotonic()
        if now - self.last < 0.2 and not (p.target_games is not None and p.games >= p.target_games):
            return
        self.last = now
        self.draw()

    def render(self, elapsed: float) -> str:
        p = self.latest
        target_games, target_hands = (p.target_games, p.target_hands) if p is not None else self.targets
        games = p.games if p is not None else 0
        hands = p.hands if p is not None else 0
        if target_games is not None:
            fraction = games / target_games
            done = f"{games}/{target_games} games"
        elif target_hands is not None:
            fraction = min(1.0, hands / target_hands)
            done = f"{hands}/{target_hands} hands, {games} games"
        else:
            fraction, done = 0.0, f"{games} games"
        filled = int(20 * fraction)
        head = f"[{'#' * filled}{'.' * (20 - filled)}] {done}"
        if p is None or p.games == 0:
            return f"{head}, {format_elapsed(elapsed)}; the first pair is under way"
        rate = p.games / p.seconds if p.seconds > 0 else 0.0
        margin = "" if p.margin_per_hand is None else f", margin {p.margin_per_hand:+.0f}/hand"
        return (
            f"{head}, {format_rate(rate)} games/s, {format_elapsed(elapsed)}; "
            f"{self.names[0]} scores {_pct(p.a_score)}{margin}"
        )


def write_out(text: str) -> int:
    """Print ``text`` on standard output; 0, or 141 when the reader has gone (``| head -1``), without a traceback."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes standard output again at exit: point it at /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141  # as a program killed by SIGPIPE
    return 0


def version_text(prog: str) -> str:
    from .. import __version__

    return f"{prog} (bsd-mille) {__version__}"


def add_run_arguments(parser: argparse.ArgumentParser, seed_help: str, json_help: str) -> None:
    """The options of a run, shared by ``mille.match`` and ``mille.tournament``.

    ``--seed``, ``--jobs``, ``--json``, ``--max-think-ms``, and where the
    pairs are played: ``--cluster`` and ``--upload``.
    """
    parser.add_argument("--seed", type=int, default=1, help=seed_help)
    parser.add_argument(
        "--jobs", type=int, metavar="J", help=f"worker processes (default: the cores, here {default_jobs()})"
    )
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--max-think-ms",
        type=float,
        metavar="MS",
        help="a player that thinks longer than MS milliseconds over one decision loses the game (default: no limit)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run the pairs on a Dask distributed scheduler (tcp://host:8786), or on a LocalCluster of "
        "N worker processes here (local:N); needs Dask, the cluster extra (docs/tournaments.md)",
    )
    parser.add_argument(
        "--upload",
        metavar="FILE.py",
        action="append",
        default=[],
        help="with --cluster: send this plug-in module to every worker (repeatable)",
    )


def check_run_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The errors of :func:`add_run_arguments`' options that go together badly (one line each)."""
    if args.jobs is not None and args.cluster is not None:
        parser.error("--jobs and --cluster do not go together (the cluster's workers are the jobs)")
    if args.upload and args.cluster is None:
        parser.error("--upload goes with --cluster")
    if args.max_think_ms is not None and args.max_think_ms <= 0:
        parser.error("--max-think-ms must be positive")


class RunFailure(Exception):
    """The cluster could not be used, or lost the work (the message says which, in one line)."""

    def __init__(self, message: str, *, lost: bool) -> None:
        super().__init__(message)
        #: The work was under way (what finished may be kept), not refused at the start.
        self.lost = lost


class _Bar(Protocol):
    def start(self) -> None: ...


def execute(
    run: Callable[..., dict[str, Any]],
    args: argparse.Namespace,
    jobs: int,
    players: Sequence[str],
    bar: _Bar | None,
    own_errors: tuple[type[Exception], ...],
) -> dict[str, Any]:
    """``run`` on ``jobs`` local processes or on ``args.cluster``, the progress bar started once the work can start.

    Shared by ``mille.match`` and ``mille.tournament``.  The tool's
    ``own_errors`` go through as they are; anything else the cluster raises
    is a :class:`RunFailure`.
    """
    if args.cluster is None:
        if bar is not None:
            bar.start()
        return run(jobs=jobs)
    from .cluster import ClusterError, cluster_executor

    try:
        with cluster_executor(args.cluster, players=players, uploads=args.upload) as (pool, workers):
            if bar is not None:
                bar.start()
            return run(executor=pool, workers=workers)
    except own_errors:
        raise
    except ClusterError as exc:
        raise RunFailure(str(exc), lost=False) from exc
    except Exception as exc:  # the cluster lost the work: a task's workers kept dying, the scheduler went
        raise RunFailure(f"the cluster failed ({type(exc).__name__}: {exc})", lost=True) from exc


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.match",
        description="Play duplicate pairs of 5000-point games between two players and report "
        "A's game score and score margin per hand with 95% confidence intervals.",
        epilog=f"Players: {', '.join(BUILTIN)}, or module:attribute (a class or factory "
        "importable from the current directory; see docs/bots.md).",
    )
    parser.add_argument("a", metavar="A", help="player A")
    parser.add_argument("b", metavar="B", help="player B")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, metavar="N", help="play N games, rounded up to pairs (default 200)")
    size.add_argument("--hands", type=int, metavar="N", help="play pairs until at least N hands are played")
    add_run_arguments(
        parser, "the match seed: deals and dice (default 1)", "print one JSON line instead of the text report"
    )
    parser.add_argument("--version", action="version", version=version_text("mille.match"))
    args = parser.parse_args(argv)
    if args.games is None and args.hands is None:
        args.games = 200
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    check_run_arguments(parser, args)
    try:
        make_player(args.a)
        make_player(args.b)
    except PlayerSpecError as exc:
        parser.error(str(exc))
    jobs = default_jobs() if args.jobs is None else args.jobs
    target_games = None if args.games is None else 2 * ((args.games + 1) // 2)
    bar = (
        ProgressBar(sys.stderr, args.a, args.b, target_games=target_games, target_hands=args.hands)
        if sys.stderr.isatty()
        else None
    )
    run = functools.partial(
        run_match,
        args.a,
        args.b,
        games=args.games,
        hands=args.hands,
        seed=args.seed,
        max_think_ms=args.max_think_ms,
        progress=bar,
    )
    try:
        report = execute(run, args, jobs, (args.a, args.b), bar, (MatchError,))
    except RunFailure as exc:
        if bar is not None:
            bar.clear()
        print(f"mille.match: {exc}", file=sys.stderr)
        return 1
    except MatchError as exc:
        if bar is not None:
            bar.clear()
        print(f"mille.match: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # before the run started (say, while a cluster started)
        if bar is not None:
            bar.clear()
        print("mille.match: interrupted before the run started", file=sys.stderr)
        return 130
    if bar is not None:
        bar.clear()
    if args.json:
        status = write_out(json.dumps(report))
    else:
        status = write_out(format_report(report, jobs=None if args.cluster else jobs, cluster=args.cluster))
    if status:
        return status
    return 130 if report["interrupted"] else 0


__all__ = [
    "MAX_HANDS_PER_GAME",
    "TIMING_FIELDS",
    "Batch",
    "Fault",
    "GameRecord",
    "MatchConfig",
    "MatchError",
    "PairResult",
    "Progress",
    "ProgressBar",
    "StatusLine",
    "deal_hand",
    "deal_seed",
    "derive_seed",
    "dice_seed",
    "format_report",
    "main",
    "play_game",
    "play_pair",
    "play_pairs",
    "play_batch",
    "run_batches",
    "run_match",
    "summarize",
]
