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

import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any, cast

from ..engine import rules
from ..engine.driver import EndlessHand, Pending, PlayerError, hand_steps
from ..engine.observation import Observation
from ..engine.rng import WIDE_SEED, GlibcRandom, derived_seed, secret_seed
from ..engine.rules import Move
from ..engine.scoring import GAME_POINTS
from ..engine.state import Game, Table
from ..players import Player, is_exec_spec, make_player
from ..players.botprocess import Bot, games_at_once
from ..players.external import Awaited, InFlightPlayer, exchange
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
    match and tournament deals as it always has.  A run on a wide seed (one
    drawn at random) derives wide seeds (:func:`~mille.engine.rng.derived_seed`).
    """
    text = "mille.match/" + "/".join(str(p) for p in parts)
    return derived_seed(text, wide=any(type(p) is int and p >= WIDE_SEED for p in parts))


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
        forced = getattr(player, "forced_draw", None)
        if forced is not None:  # the driver makes its forced draws (timed as decisions made at once)
            add = stats.add

            def forced_draw() -> None:  # a closure, not a method bound to this seat: no cycle keeps it
                add(0.0)
                forced()

            self.forced_draw = forced_draw
        unobserved = getattr(player, "choose_unobserved", None)
        if unobserved is not None:  # a bot in flight asked straight from the game (timed by the exchange)

            def choose_unobserved(game: Game, at: int, rng: GlibcRandom) -> Move:
                awaited = cast(Awaited, unobserved(game, at, rng))
                awaited.stats = stats
                awaited.seat = seat
                return cast(Move, awaited)

            self.choose_unobserved = choose_unobserved

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        alarm = self.alarm
        perf = time.perf_counter
        try:
            alarm.arm()
            start = perf()
            move = self.choose_move(observation, rng)
            elapsed = perf() - start
            if isinstance(move, Pending):  # a game in flight: timed by the exchange that answers it
                awaited = cast(Awaited, move)
                awaited.stats = self.stats
                awaited.seat = self.seat
                return move
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


class _BotDice(GlibcRandom):
    """An ``exec:`` seat's dice, seeded at their first use (the same numbers as ``GlibcRandom(seed)``).

    A bot is handed its dice's seed (docs/protocol.md, "Dice"), and then
    nothing here ever rolls them: seeding (``srandom``'s 310 discards) and
    checking them untouched cost the host a tenth of its time in a match
    of games in flight (issue 39).
    """

    __slots__ = ("_ready",)

    def __init__(self, seed: int) -> None:  # no srandom yet
        self._ready = False
        self._seed = (seed & 0xFFFFFFFF) or 1
        self._front = self._rear = 0

    def _seeded(self) -> None:
        if not self._ready:
            self._ready = True
            GlibcRandom.seed(self, self._seed or 1)

    def seed(self, seed: int) -> None:
        self._ready = True
        GlibcRandom.seed(self, seed)

    def random(self) -> int:
        if not self._ready:
            self._seeded()
        return GlibcRandom.random(self)

    def untouched(self) -> bool:
        return not self._ready or GlibcRandom.untouched(self)

    def getstate(self) -> tuple[tuple[int, ...], int, int]:
        self._seeded()
        return GlibcRandom.getstate(self)

    def setstate(self, state: tuple[tuple[int, ...], int, int]) -> None:
        self._ready = True
        GlibcRandom.setstate(self, state)

    def copy(self) -> GlibcRandom:
        self._seeded()
        return GlibcRandom.copy(self)


def play_game(
    config: MatchConfig,
    pair: int,
    second: bool,
    think: tuple[ThinkStats, ThinkStats] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
    recorder: MoveRecorder | None = None,
) -> GameRecord:
    """Play one game of a duplicate pair (``second``: the seat-swapped one): :func:`game_steps` run to its end.

    ``think`` (A's and B's) collects think times; ``on_deal(hand, game)``
    is called after every deal (for tests and analysis; it must not change
    the game); ``recorder`` takes down every move (``--record``).
    """
    steps = game_steps(config, pair, second, think, on_deal=on_deal, recorder=recorder)
    try:
        next(steps)
    except StopIteration as done:
        record: GameRecord = done.value
        return record
    steps.close()
    raise MatchError("a player in this process answered later (only games in flight may)")


def game_steps(
    config: MatchConfig,
    pair: int,
    second: bool,
    think: tuple[ThinkStats, ThinkStats] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
    recorder: MoveRecorder | None = None,
    in_flight: frozenset[str] = frozenset(),
    made: list[Any] | None = None,
) -> Generator[Pending, Move, GameRecord]:
    """One game of a duplicate pair as a generator: it yields a bot's answer awaited, and is sent the move.

    Each hand is played by the engine's hand driver
    (:func:`mille.engine.driver.hand_steps`), which referees the players.
    The ``exec:`` specs in ``in_flight`` are played as games in flight
    (:class:`~mille.players.external.InFlightPlayer`): the generator yields
    their decisions to :func:`play_in_flight`; any other player answers at
    once, and :func:`play_game` runs the generator through.
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
            key = deal_seed(config.seed, pair, 0)
            spec = specs[player]
            players.append(InFlightPlayer(spec, key) if spec in in_flight else make_player(spec, key))
            if made is not None:  # closed by the caller when the game ends (its bot's tag free at once)
                made.append(players[-1])
        except Exception as exc:
            return forfeit(player, "exception", f"cannot make the player: {exc}", 0)
    dice_of = [
        _BotDice(secret_seed() if not config.bots_read_deck else dice_seed(config.seed, pair, player))
        if is_exec_spec(specs[player])
        else GlibcRandom(dice_seed(config.seed, pair, player))
        for player in (0, 1)
    ]
    dice = (dice_of[who[0]], dice_of[who[1]])
    game = Game(table=Table(game_points=config.game_points))
    # Games in flight are interleaved: no alarm of their own (its handler would be restored out of turn).
    limit = None if config.max_think_ms is None or in_flight else config.max_think_ms / 1000.0
    with _Alarm(limit) as alarm:
        seats = [_Timed(players[seat], seat, think[who[seat]], alarm, config.max_think_ms) for seat in (0, 1)]
        for hand in range(MAX_HANDS_PER_GAME):
            seed = deal_seed(config.seed, pair, hand)
            deal_hand(game, seed, hand % 2)
            if on_deal is not None:
                on_deal(hand, game)
            if recorder is not None:
                recorder.start_hand(hand % 2, seed)
            try:
                result = (yield from hand_steps(game, seats, dice, observer=recorder)).result
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


class _Flight:
    """A pair in flight: its two games' generators, what each waits for, and their records."""

    __slots__ = ("config", "pair", "think", "recorders", "records", "left")

    def __init__(self, config: MatchConfig, pair: int, moves: bool) -> None:
        self.config = config
        self.pair = pair
        self.think = (ThinkStats(), ThinkStats())
        self.recorders = (MoveRecorder(), MoveRecorder()) if moves else None
        self.records: list[GameRecord | None] = [None, None]
        self.left = 2

    def result(self) -> PairResult:
        first, second = self.records
        assert first is not None and second is not None
        if self.recorders is None:
            return PairResult(self.pair, (first, second), self.think)
        return PairResult(self.pair, (first, second), self.think, (self.recorders[0].hands, self.recorders[1].hands))


def in_flight_specs(config: MatchConfig) -> frozenset[str]:
    """The ``exec:`` specs of ``config`` whose bots play games in flight (their hello offered ``games`` > 1)."""
    return frozenset(spec for spec in {config.a, config.b} if is_exec_spec(spec) and games_at_once(spec) > 1)


def play_in_flight(
    pairs: Iterable[tuple[MatchConfig, int]], games: int, *, moves: bool = False
) -> Generator[PairResult, None, None]:
    """Play ``pairs`` (match, pair index) with up to ``games`` games at once; the results in the pairs' order.

    Issue 39: the host and the bots then work at the same time (on two
    cores), and one write or read carries several games' messages.  Each
    game is a :func:`game_steps` generator, advanced until it waits for a
    bot (an :class:`~mille.players.external.Awaited`); every bot's answers
    are collected at once (:func:`~mille.players.external.exchange`) and
    the games they answer advanced.  Both games of a pair are in flight
    together, on different processes (the pool keys each process on the
    deals it has seen: :func:`~mille.players.botprocess.acquire_tag`), so
    that no process plays both (issue 36).  The records are the ones
    :func:`play_pairs` makes, pair for pair.  The think-time limit is
    measured (from the write of the decision to the read of its answer);
    a player in this process is not interrupted by an alarm here.
    """
    source = iter(pairs)
    order: list[_Flight] = []  # pairs begun, in order, not yet handed out
    running = 0
    exhausted = False
    specs_of: dict[MatchConfig, frozenset[str]] = {}
    bots: set[Bot] = set()
    steps: dict[Generator[Pending, Move, GameRecord], list[Any]] = {}

    def close(gen: Generator[Pending, Move, GameRecord]) -> None:
        """The game is over: its players closed (a bot's tag is free for the next game at once)."""
        for player in steps.pop(gen, ()):
            closing = getattr(player, "close", None)
            if closing is not None:
                closing()

    def advance(gen: Generator[Pending, Move, GameRecord], flight: _Flight, index: int, answer: Awaited | None) -> bool:
        """Run a game until it waits for a bot (True) or ends (False: its record kept)."""
        try:
            if answer is None:
                pending = next(gen)
            elif answer.error is not None:
                pending = gen.throw(answer.error)
            else:
                assert answer.move is not None
                pending = gen.send(answer.move)
        except StopIteration as done:
            flight.records[index] = done.value
            flight.left -= 1
            close(gen)
            return False
        awaited = pending
        assert isinstance(awaited, Awaited)
        awaited.owner = (gen, flight, index)
        bots.add(awaited.bot)
        return True

    try:
        while True:
            while not exhausted and running + 2 <= max(2, games):
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                config, pair = item
                if config not in specs_of:
                    specs_of[config] = in_flight_specs(config)
                flight = _Flight(config, pair, moves)
                order.append(flight)
                for index, second in enumerate((False, True)):
                    recorder = None if flight.recorders is None else flight.recorders[index]
                    made: list[Any] = []
                    gen = game_steps(
                        config, pair, second, flight.think, recorder=recorder, in_flight=specs_of[config], made=made
                    )
                    steps[gen] = made
                    running += 1
                    if not advance(gen, flight, index, None):
                        running -= 1
            while order and order[0].left == 0:
                yield order.pop(0).result()
            if running == 0:
                if exhausted and not order:
                    return
                continue
            live = [bot for bot in bots if bot.alive and (bot.waiting or bot.out)]
            bots.clear()
            bots.update(live)
            for answer in exchange(live):
                gen, flight, index = answer.owner  # type: ignore[misc]
                if not advance(gen, flight, index, answer):
                    running -= 1
    finally:
        for bot in list(bots):
            if bot.waiting and bot.alive:
                bot.fail()  # mid-answer (Ctrl-C, an engine bug): of no use now
        for gen in list(steps):
            gen.close()
            close(gen)


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
    "game_steps",
    "in_flight_specs",
    "play_game",
    "play_in_flight",
    "play_pair",
    "play_pairs",
]
