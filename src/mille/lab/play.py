"""Playing a match's unit, a set: one game per rotation of the players over the sides, all dealt alike.

A match is played in **sets**: the games of a set are dealt the same hands
(hand *k* of every game of set *u* from :func:`deal_seed` ``(seed, u, k)``,
:func:`deal_hand`, the same seat starting it), one game per rotation of
the players over the table's sides (:func:`~mille.lab.records.side_of`),
so whatever cards and tempo one player had in one game, each other has
from the same seats in another.  At two seats a set is a **duplicate
pair**: the second game replays the first with the seats swapped.  With
two sides (2 and 4 seats) the two rotations are the sides exchanged; with
three sides (3 and 6 seats) every player sits once in each side's seats.
Every seat of a side is a player of its own (partners are two instances,
each seeing its own seat only).  The deals come from generators of the
match (seeded from the match seed, the set and the hand), never from the
players' dice, so hand *k* is the same in every game of a set whatever
happened in the hands before.  Each player rolls its own dice, and is
built afresh for every game: a player in this process, dice from
:func:`dice_seed` (the match seed, the set and the player, and at the
larger tables the partner, the same in every game of a set, so that
reports are reproducible); a bot program (``exec:``), which is handed its
dice's seed and must not derive the deals from it (issue 36), dice from
``os.urandom`` for every game, unless the person running the match said
that bots may read the deck (``bots_read_deck``).  No bot process plays
two games of one set (they share the deals: the key of
:func:`~mille.players.botprocess.acquire` is the set's first deal).

A player that answers an illegal move, raises, or thinks longer than the
limit (``max_think_ms``) loses that game: the game's record says which and
why (:class:`~mille.lab.records.Fault`), and the other games of the set
are played all the same.  A set depends on its
:class:`~mille.lab.records.MatchConfig` and its index alone, so sets can
be played anywhere, in any order (:mod:`mille.lab.runner`).  Bots that
offer games in flight (issue 39) play them here at two seats
(:func:`play_in_flight`).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable
from typing import Any, cast

from ..engine import rules
from ..engine.driver import EndlessHand, Pending, PlayerError, hand_steps
from ..engine.observation import Observation
from ..engine.rng import WIDE_SEED, GlibcRandom, derived_seed, secret_seed
from ..engine.rules import Move
from ..engine.state import Game, table
from ..players import Player, is_exec_spec, make_player
from ..players.botprocess import Bot, games_at_once
from ..players.external import Awaited, InFlightPlayer, exchange
from .gamelog import MoveRecorder
from .records import MAX_HANDS_PER_GAME, Fault, GameRecord, MatchConfig, SetResult
from .stats import ThinkStats


class MatchError(RuntimeError):
    """The match itself went wrong (not a player: an engine bug or bad arguments)."""


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
    """Seed of the shuffle of hand ``hand`` (0-based) of every game of set (at two seats, pair) ``pair``."""
    return derive_seed("deal", seed, pair, hand)


def dice_seed(seed: int, pair: int, player: int, partner: int = 0, seats: int = 2) -> int:
    """Seed of the dice of ``player`` (0 is A, 1 B, 2 C) in every game of set ``pair`` at the table of ``seats``.

    At the larger tables each of a side's seats rolls dice of its own:
    ``partner`` is the seat's rank in its side (0 at three seats).  Each
    table derives them as it always has.
    """
    if seats == 2:
        return derive_seed("dice", seed, pair, player)
    return derive_seed("table-dice", seed, pair, player, partner)


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
    unit: int,
    rotation: int,
    think: tuple[ThinkStats, ...] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
    recorder: MoveRecorder | None = None,
) -> GameRecord:
    """Play game ``rotation`` of set ``unit`` (at two seats, 1 or True: the pair's seat-swapped game):
    :func:`game_steps` run to its end.

    ``think`` (one per player) collects think times; ``on_deal(hand,
    game)`` is called after every deal (for tests and analysis; it must not
    change the game); ``recorder`` takes down every move (``--record``).
    """
    steps = game_steps(config, unit, rotation, think, on_deal=on_deal, recorder=recorder)
    try:
        next(steps)
    except StopIteration as done:
        record: GameRecord = done.value
        return record
    steps.close()
    raise MatchError("a player in this process answered later (only games in flight may)")


def game_steps(
    config: MatchConfig,
    unit: int,
    rotation: int,
    think: tuple[ThinkStats, ...] | None = None,
    *,
    on_deal: Callable[[int, Game], None] | None = None,
    recorder: MoveRecorder | None = None,
    in_flight: frozenset[str] = frozenset(),
    made: list[Any] | None = None,
) -> Generator[Pending, Move, GameRecord]:
    """One game of a set as a generator: it yields a bot's answer awaited, and is sent the move.

    Each hand is played by the engine's hand driver
    (:func:`mille.engine.driver.hand_steps`), which referees the players.
    The ``exec:`` specs in ``in_flight`` are played as games in flight
    (:class:`~mille.players.external.InFlightPlayer`): the generator yields
    their decisions to :func:`play_in_flight`; any other player answers at
    once, and :func:`play_game` runs the generator through.
    """
    rotation = int(rotation)
    tab = table(config.seats, game_points=config.game_points)
    seats, sides = tab.seats, tab.sides
    if think is None:
        think = tuple(ThinkStats() for _ in range(sides))
    owner = [(side - rotation) % sides for side in range(sides)]  # owner[side]: the player on that side
    of_seat = [owner[tab.side(seat)] for seat in range(seats)]
    specs = config.players
    margins: list[int] = []  # at two seats: A's in every hand (the seat A plays is its side, the rotation)
    points = [0] * sides

    def forfeit(player: int, kind: str, message: str, hand: int) -> GameRecord:
        winners = tuple(p for p in range(sides) if p != player)
        return GameRecord(
            unit, rotation, hand, tuple(points), winners, Fault(player, kind, message, hand), tuple(margins)
        )

    players: list[Player] = []
    key = deal_seed(config.seed, unit, 0)  # the set's deal as its key: no bot process plays two games of a set
    for seat in range(seats):
        player = of_seat[seat]
        try:
            spec = specs[player]
            players.append(InFlightPlayer(spec, key) if spec in in_flight else make_player(spec, key))
            if made is not None:  # closed by the caller when the game ends (its bot's tag free at once)
                made.append(players[-1])
        except Exception as exc:
            return forfeit(player, "exception", f"cannot make the player: {exc}", 0)
    dice: list[GlibcRandom] = []
    for seat in range(seats):
        player = of_seat[seat]
        seed = dice_seed(config.seed, unit, player, seat // sides, seats)
        if is_exec_spec(specs[player]):
            dice.append(_BotDice(seed if config.bots_read_deck else secret_seed()))
        else:
            dice.append(GlibcRandom(seed))
    game = Game(table=tab)
    unit_name = "pair" if seats == 2 else "set"
    # Games in flight are interleaved: no alarm of their own (its handler would be restored out of turn).
    limit = None if config.max_think_ms is None or in_flight else config.max_think_ms / 1000.0
    with _Alarm(limit) as alarm:
        timed = [_Timed(players[seat], seat, think[of_seat[seat]], alarm, config.max_think_ms) for seat in range(seats)]
        for hand in range(MAX_HANDS_PER_GAME):
            seed = deal_seed(config.seed, unit, hand)
            deal_hand(game, seed, hand % seats)
            if on_deal is not None:
                on_deal(hand, game)
            if recorder is not None:
                recorder.start_hand(hand % seats, seed)
            try:
                result = (yield from hand_steps(game, timed, dice, observer=recorder)).result
            except PlayerError as exc:
                return forfeit(of_seat[exc.seat], exc.kind, exc.message, hand)
            except EndlessHand as exc:
                raise MatchError(f"{unit_name} {unit + 1}, hand {hand + 1}: {exc}") from None
            if recorder is not None:
                recorder.end_hand(result)
            if seats == 2:
                margins.append(result.margin(rotation))
            for side in range(sides):
                points[owner[side]] += result.hand_totals[side]
            if result.game_over:
                totals = result.totals
                best = max(totals)
                winners = tuple(sorted(owner[s] for s in range(sides) if totals[s] == best))
                return GameRecord(unit, rotation, hand + 1, tuple(points), winners, None, tuple(margins))
    raise MatchError(f"{unit_name} {unit + 1}: no game end after {MAX_HANDS_PER_GAME} hands")


def play_set(config: MatchConfig, unit: int, *, moves: bool = False) -> SetResult:
    """Every game of set ``unit`` (0-based), one per rotation; with ``moves``, every move taken down."""
    sides = config.sides
    think = tuple(ThinkStats() for _ in range(sides))
    if not moves:
        return SetResult(unit, tuple(play_game(config, unit, r, think) for r in range(sides)), think)
    recorders = tuple(MoveRecorder() for _ in range(sides))
    games = tuple(play_game(config, unit, r, think, recorder=recorders[r]) for r in range(sides))
    return SetResult(unit, games, think, tuple(r.hands for r in recorders))


#: A set at two seats is a duplicate pair: both its games.
play_pair = play_set


class _Flight:
    """A set in flight: its games' generators, what each waits for, and their records."""

    __slots__ = ("config", "unit", "think", "recorders", "records", "left")

    def __init__(self, config: MatchConfig, unit: int, moves: bool) -> None:
        sides = config.sides
        self.config = config
        self.unit = unit
        self.think = tuple(ThinkStats() for _ in range(sides))
        self.recorders = tuple(MoveRecorder() for _ in range(sides)) if moves else None
        self.records: list[GameRecord | None] = [None] * sides
        self.left = sides

    def result(self) -> SetResult:
        games = tuple(g for g in self.records if g is not None)
        assert len(games) == len(self.records)
        if self.recorders is None:
            return SetResult(self.unit, games, self.think)
        return SetResult(self.unit, games, self.think, tuple(r.hands for r in self.recorders))


def in_flight_specs(config: MatchConfig) -> frozenset[str]:
    """The ``exec:`` specs of ``config`` whose bots play games in flight (their hello offered ``games`` > 1).

    At two seats only: the larger tables speak protocol 2, whose games are
    played one at a time (docs/protocol.md).
    """
    if config.seats != 2:
        return frozenset()
    return frozenset(spec for spec in {config.a, config.b} if is_exec_spec(spec) and games_at_once(spec) > 1)


def play_in_flight(
    sets: Iterable[tuple[MatchConfig, int]], games: int, *, moves: bool = False
) -> Generator[SetResult, None, None]:
    """Play ``sets`` (match, set index) with up to ``games`` games at once; the results in the sets' order.

    Issue 39: the host and the bots then work at the same time (on two
    cores), and one write or read carries several games' messages.  Each
    game is a :func:`game_steps` generator, advanced until it waits for a
    bot (an :class:`~mille.players.external.Awaited`); every bot's answers
    are collected at once (:func:`~mille.players.external.exchange`) and
    the games they answer advanced.  The games of a set (both games of a
    pair) are in flight together, on different processes (the pool keys
    each process on the deals it has seen:
    :func:`~mille.players.botprocess.acquire_tag`), so that no process
    plays two (issue 36).  The records are the ones :func:`play_sets`
    makes, set for set.  The think-time limit is
    measured (from the write of the decision to the read of its answer);
    a player in this process is not interrupted by an alarm here.
    """
    source = iter(sets)
    order: list[_Flight] = []  # sets begun, in order, not yet handed out
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
            while not exhausted and running + 2 <= max(2, games):  # a set of two games: in flight at two seats only
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                config, unit = item
                if config not in specs_of:
                    specs_of[config] = in_flight_specs(config)
                flight = _Flight(config, unit, moves)
                order.append(flight)
                for index in range(len(flight.records)):
                    recorder = None if flight.recorders is None else flight.recorders[index]
                    made: list[Any] = []
                    gen = game_steps(
                        config, unit, index, flight.think, recorder=recorder, in_flight=specs_of[config], made=made
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


def play_sets(config: MatchConfig, start: int, stop: int, *, moves: bool = False) -> list[SetResult]:
    """Sets ``start`` .. ``stop - 1``: the work of a task handed to an executor (``moves``: see :func:`play_set`)."""
    return [play_set(config, unit, moves=moves) for unit in range(start, stop)]


#: At two seats, the sets are pairs.
play_pairs = play_sets


__all__ = [
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
    "play_set",
    "play_sets",
]
