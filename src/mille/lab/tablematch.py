"""Matches at the larger tables (3, 4 and 6 seats): each deal played in every rotation of the sides.

    python -m mille.match --players 4 A B        (A's partnership against B's)
    python -m mille.match --players 3 A B C      (each for themselves)
    python -m mille.match --players 6 A B C      (three partnerships)

The duplicate design of :mod:`mille.lab.pairs` carried to any number of
sides (``table-rules.md`` R1-R2): a **set** of games, one per rotation of
the players over the sides, all dealt the same hands (hand *k* of every
game of set *u* from :func:`~mille.lab.pairs.deal_seed` ``(seed, u, k)``,
the same seat starting it).  With two sides (4 seats) the two rotations
are the sides exchanged, as in a two-seat pair; with three sides (3 and 6
seats) every player sits once in each side's seats.  Every seat of a side
is a player of its own (partners are two instances, each seeing its own
seat only), built afresh for every game, rolling dice of its own
(:func:`~mille.lab.pairs.dice_seed` of the set and the seat's player and
partner index).

A player's score in a set is its average over the set's rotations: the
game score (1 for a game won, the winners sharing a tie, 0 for a game
lost) and the points it scored minus the average of the other sides'.
The sets are independent, so the report's 95% intervals are Student's t
intervals over the sets (the rotations' variance reduction counts).  A
player that raises, answers an illegal move or thinks past the limit
loses that game (the others share it).  Bot programs (``exec:``) play
here in protocol 2 (docs/protocol.md); one that speaks protocol 1 alone
is refused in one line.  As in a pair, no bot process plays two games of
one set (they share the deals: the key of :func:`~mille.players.botprocess.acquire`
is the set's first deal), and a bot rolls dice of its own from
``os.urandom`` unless ``bots_read_deck``.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine import rules
from ..engine.driver import EndlessHand, PlayerError, play_hand
from ..engine.rng import GlibcRandom, secret_seed
from ..engine.rules import Move, MoveType, Phase
from ..engine.scoring import hand_result
from ..engine.state import Game, table
from ..files.safeio import shown
from ..players import Player, check_table, is_exec_spec, make_player
from . import gamelog
from .gamelog import HandLog, MoveRecorder, RecordError, RecordWriter, check_header, hand_result_json
from .options import DEFAULTS, RunOptions
from .pairs import MAX_HANDS_PER_GAME, MatchError, _Alarm, _Timed, deal_hand, deal_seed, derive_seed
from .report import format_sprt, plural
from .runner import _worker_init, default_jobs
from .sprt import Sprt, SprtSettings
from .stats import ThinkStats, mean, t_interval


@dataclass(frozen=True, slots=True)
class TableGame:
    """One game of a set: its rotation, each player's points (by player, not side), the winners, a fault."""

    rotation: int
    hands: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    #: (player, kind, message) of a forfeit.
    fault: tuple[int, str, str] | None = None
    #: Every move, hand by hand, as a game record writes them (``--record``), else None.
    moves: list[HandLog] | None = None


def side_of(player: int, rotation: int, sides: int) -> int:
    """The side ``player`` plays in ``rotation``: rotation *r* moves every player *r* sides on."""
    return (player + rotation) % sides


def play_table_game(players: Sequence[str], seats: int, options: RunOptions, unit: int, rotation: int) -> TableGame:
    """Game ``rotation`` of set ``unit`` at the table of ``seats``, ``players[i]`` playing side ``side_of(i, ...)``."""
    tab = table(seats, game_points=options.game_points)
    sides = tab.sides
    owner = [0] * sides  # owner[side]: the player of that side this game
    for player in range(sides):
        owner[side_of(player, rotation, sides)] = player
    points = [0] * sides
    seated: list[Player] = []
    deal = deal_seed(options.seed, unit, 0)  # the set's deal: no bot process plays two games of a set
    for seat in range(seats):
        try:
            seated.append(make_player(players[owner[tab.side(seat)]], deal))
        except Exception as exc:
            player = owner[tab.side(seat)]
            return _forfeit(rotation, 0, points, player, sides, "exception", f"cannot make the player: {exc}")
    dice = [
        GlibcRandom(secret_seed())
        if is_exec_spec(players[owner[tab.side(seat)]]) and not options.bots_read_deck
        else GlibcRandom(derive_seed("table-dice", options.seed, unit, owner[tab.side(seat)], seat // sides))
        for seat in range(seats)
    ]
    game = Game(table=tab)
    recorder = MoveRecorder() if options.record is not None else None
    think = ThinkStats()
    with _Alarm(None if options.max_think_ms is None else options.max_think_ms / 1000.0) as alarm:
        timed = [_Timed(seated[seat], seat, think, alarm, options.max_think_ms) for seat in range(seats)]
        for hand in range(MAX_HANDS_PER_GAME):
            seed = deal_seed(options.seed, unit, hand)
            deal_hand(game, seed, hand % seats)
            if recorder is not None:
                recorder.start_hand(hand % seats, seed)
            try:
                result = play_hand(game, timed, dice, observer=recorder).result
            except PlayerError as exc:
                lost = _forfeit(rotation, hand, points, owner[tab.side(exc.seat)], sides, exc.kind, exc.message)
                return replace(lost, moves=None if recorder is None else recorder.hands)
            except EndlessHand as exc:
                raise MatchError(f"set {unit + 1}, hand {hand + 1}: {exc}") from None
            if recorder is not None:
                recorder.end_hand(result)
            for side in range(sides):
                points[owner[side]] += result.hand_totals[side]
            if result.game_over:
                totals = result.totals
                best = max(totals)
                winners = tuple(sorted(owner[s] for s in range(sides) if totals[s] == best))
                return TableGame(
                    rotation, hand + 1, tuple(points), winners, None, None if recorder is None else recorder.hands
                )
    raise MatchError(f"set {unit + 1}: no game end after {MAX_HANDS_PER_GAME} hands")


def _forfeit(rotation: int, hand: int, points: list[int], player: int, sides: int, kind: str, why: str) -> TableGame:
    others = tuple(p for p in range(sides) if p != player)
    return TableGame(rotation, hand, tuple(points), others, (player, kind, why))


def play_set(players: Sequence[str], seats: int, options: RunOptions, unit: int) -> list[TableGame]:
    """Every rotation of set ``unit``: the same deals, each player once on every side."""
    return [play_table_game(players, seats, options, unit, r) for r in range(len(players))]


def _played_sets(
    players: tuple[str, ...],
    seats: int,
    options: RunOptions,
    count: int | None,
    done: Mapping[int, list[TableGame]],
) -> Generator[tuple[int, list[TableGame], bool], None, None]:
    """Sets 0, 1, ... (``count`` of them, or without end) in order, each as ``(unit, games, played now)``.

    A set in ``done`` (read back from a tournament's results file) is
    handed on as it is; the others are played here (``jobs`` 1), in a
    process pool of ``jobs``, or on ``executor`` (a Dask cluster's, say).
    Each set depends on its index alone, so where it is played changes
    nothing in the report.
    """
    units: Iterator[int] = iter(range(count)) if count is not None else itertools.count()
    jobs = default_jobs() if options.jobs is None else max(1, options.jobs)
    here = replace(options, executor=None)  # what a worker is sent (an executor is not)
    if options.executor is None and (jobs == 1 or count == 1):
        for unit in units:
            if unit in done:
                yield unit, done[unit], False
            else:
                yield unit, play_set(players, seats, here, unit), True
        return
    pool = (  # the workers leave Ctrl-C to this process, as a two-seat match's do
        options.executor
        if options.executor is not None
        else concurrent.futures.ProcessPoolExecutor(jobs, initializer=_worker_init)
    )
    window = 4 * (options.workers or jobs)
    pending: deque[tuple[int, concurrent.futures.Future[list[TableGame]] | list[TableGame]]] = deque()
    try:
        more = True
        while more or pending:
            while more and len(pending) < window:
                following = next(units, None)
                if following is None:
                    more = False
                elif following in done:
                    pending.append((following, done[following]))
                else:
                    pending.append((following, pool.submit(play_set, players, seats, here, following)))
            if pending:
                unit, held = pending.popleft()
                if isinstance(held, list):
                    yield unit, held, False
                else:
                    yield unit, held.result(), True
    finally:
        for _, held in pending:
            if not isinstance(held, list):
                held.cancel()
        if pool is not options.executor:
            pool.shutdown(wait=True, cancel_futures=True)


def table_line(players: Sequence[str], seats: int, options: RunOptions, unit: int, g: TableGame) -> dict[str, Any]:
    """A game of a table match as a record's line (docs/bots.md, "Game records"): who played which side, every move."""
    sides = len(players)
    by_side = [""] * sides
    for p in range(sides):
        by_side[side_of(p, g.rotation, sides)] = players[p]
    fault = None
    if g.fault is not None:
        fault = {"player": players[g.fault[0]], "kind": g.fault[1], "message": g.fault[2]}
    return {
        "seats": seats,
        "seed": options.seed,
        "game_points": options.game_points,
        "max_think_ms": options.max_think_ms,
        "set": unit + 1,
        "rotation": g.rotation + 1,
        "sides": by_side,
        "hands": g.moves or [],
        "winners": [players[p] for p in g.winners],
        "forfeit": fault,
    }


def check_table_game(number: int, line: dict[str, Any]) -> int:
    """Replay a recorded table game from its seed through the rules; its hands, or RecordError (``line N: ...``).

    Every move is checked for being the legal move of the seat whose turn
    it is, every draw against the deck, every hand's result against the
    record's.  A line of the wrong shape is refused in one line too.
    """
    try:
        return _check_table_game(number, line)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RecordError(f"line {number}: a damaged table game ({type(exc).__name__})") from None


def _check_table_game(number: int, line: dict[str, Any]) -> int:
    seats, seed, unit = int(line["seats"]), int(line["seed"]), int(line["set"]) - 1
    game = Game(table=table(seats, game_points=int(line["game_points"])))
    hands = line["hands"]
    if not isinstance(hands, list) or len(hands) > gamelog.MAX_HANDS:
        raise RecordError(f"line {number}: a damaged table game (hands)")
    for h, hand in enumerate(hands):
        where = f"line {number}: hand {h + 1}"
        deal = deal_seed(seed, unit, h)
        if hand["deal_seed"] != deal or hand["starter"] != h % seats:
            raise RecordError(f"{where}: not dealt as set {unit + 1} of seed {seed} deals it")
        deal_hand(game, deal, h % seats)
        moves = hand["moves"]
        if not isinstance(moves, list) or len(moves) > gamelog.MAX_MOVES:
            raise RecordError(f"{where}: a damaged hand")
        for k, entry in enumerate(moves, start=1):
            _make_table_move(game, entry, f"{where}, move {k}")
        if hand["result"] is None:
            if h == len(hands) - 1 and line["forfeit"] is not None:
                break
            raise RecordError(f"{where}: no result, and no forfeit ends the game in it")
        if rules.phase(game) is not Phase.HAND_OVER:
            raise RecordError(f"{where}: the recorded moves end before the hand does")
        if hand_result_json(hand_result(game)) != hand["result"]:
            raise RecordError(f"{where}: the replay ends the hand otherwise than the record says")
    return len(hands)


def _make_table_move(game: Game, entry: list[Any], where: str) -> None:
    seat, kind = entry[0], gamelog.KINDS[entry[1]]
    if seat != game.to_move:
        raise RecordError(f"{where}: seat {seat} moves, but it is seat {game.to_move}'s turn")
    if kind is MoveType.PLAY or kind is MoveType.DISCARD:
        target = entry[4] if len(entry) > 4 else None
        move = Move(kind, entry[2], target)
        if game.players[seat].hand[move.slot] != entry[3]:
            raise RecordError(f"{where}: seat {seat} plays or discards a card it does not hold there")
    else:
        move = Move(kind)
    if move not in rules.legal_moves(game):
        raise RecordError(f"{where}: seat {seat}'s {move}: not a legal move here")
    deck = game.deck_count
    rules.push(game, move)
    if kind is MoveType.DRAW and list(reversed(game.deck[game.deck_count : deck])) != entry[2:]:
        raise RecordError(f"{where}: seat {seat} draws what the deck does not give")


def read_table_record(path: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """A table match's record: its header and its game lines (numbered), each as JSON, for :func:`check_table_game`."""
    lines = gamelog._lines(path)
    first = next(lines, None)
    if first is None:
        raise RecordError(f"{shown(str(path))} is empty: not a mille game record")
    head = check_header(gamelog._decode(1, first[1]))
    games = []
    for number, text, ended in lines:
        if not ended:
            break
        data = gamelog._decode(number, text)
        if not isinstance(data, dict):
            raise RecordError(f"line {number}: not a game")
        games.append((number, data))
    return head, games


def run_table_match(
    players: Sequence[str],
    *,
    seats: int,
    games: int | None = None,
    hands: int | None = None,
    options: RunOptions = DEFAULTS,
    sprt: SprtSettings | None = None,
    done: Mapping[int, list[TableGame]] | None = None,
    on_set: Callable[[int, list[TableGame]], None] | None = None,
    writer: RecordWriter | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole sets) at the table of ``seats``; the report per player.

    ``hands`` instead of ``games``: the sets are taken in order until at
    least that many hands are played (as a two-seat match takes its pairs;
    sets a pool started beyond are dropped, so the report does not depend
    on the parallelism).  ``done``: sets already played (by index, read
    back from a tournament's results file), counted and not played again;
    ``on_set`` is told of every set played now, in set order, before it is
    counted (a tournament writes it to its results file then).  ``writer``:
    the record the games played are written to (a tournament's, one for
    all its tables; ``options.record`` then only asks for the moves);
    without it, a new record at ``options.record`` if that is given.

    ``players``: one per side (2 at 4 seats, 3 at 3 and 6).  Played in this
    process (``jobs`` 1), in a process pool of ``options.jobs`` (default: the
    machine's cores) or on ``options.executor``: the report is the same.
    ``sprt`` (two sides only: a set of two rotations is a duplicate pair,
    its score the first player's average): the sets are taken in order
    until the test (:mod:`mille.lab.sprt`) decides, ``games`` the cap.
    """
    tab = table(seats, game_points=options.game_points)
    if len(players) != tab.sides:
        raise ValueError(f"the table of {seats} has {tab.sides} sides: name {tab.sides} players")
    if (games is None) == (hands is None):
        raise ValueError("give exactly one of games and hands")
    if (games is not None and games < 1) or (hands is not None and hands < 1):
        raise ValueError("games and hands must be at least 1")
    options.check()
    for spec in players:
        check_table(make_player(spec), spec, seats)  # PlayerSpecError now, not a forfeit in every game
    sides = tab.sides
    if sprt is not None and sides != 2:
        raise ValueError(f"--sprt takes two sides (2 or 4 seats), not the {sides} of the table of {seats}")
    test = None if sprt is None else Sprt(sprt)
    cap = None if games is None else -(-games // sides)
    start = time.perf_counter()
    scores: list[list[float]] = [[] for _ in players]
    margins: list[list[float]] = [[] for _ in players]
    wins = [0.0] * sides
    hands_played = 0
    errors: list[dict[str, Any]] = []
    sets = 0
    interrupted = False
    own = False  # the record is this match's own (not a tournament's): it closes it
    if writer is None and options.record is not None:
        own = True
        first = gamelog.header(
            "mille.match",
            seats=seats,
            players=list(players),
            seed=options.seed,
            game_points=options.game_points,
            max_think_ms=options.max_think_ms,
        )
        writer = RecordWriter(options.record, first)
    stream = _played_sets(tuple(players), seats, options, cap, {} if done is None else done)
    try:
        for unit, played, fresh in stream:
            if fresh and on_set is not None:
                on_set(unit, played)
            sets += 1
            set_score = [0.0] * sides
            set_margin = [0.0] * sides
            set_hands = 0
            for g in played:
                set_hands += g.hands
                for p in g.winners:
                    set_score[p] += 1.0 / len(g.winners)
                    wins[p] += 1.0 / len(g.winners)
                for p in range(sides):
                    others = [g.points[q] for q in range(sides) if q != p]
                    set_margin[p] += g.points[p] - sum(others) / len(others)
                if g.fault is not None:
                    who, kind, message = g.fault
                    errors.append(
                        {
                            "set": unit + 1,
                            "rotation": g.rotation + 1,
                            "player": players[who],
                            "kind": kind,
                            "message": message,
                        }
                    )
            hands_played += set_hands
            if writer is not None and fresh:
                for g in played:
                    writer.write(table_line(players, seats, options, unit, g))
            for p in range(sides):
                scores[p].append(set_score[p] / len(played))
                margins[p].append(set_margin[p] / set_hands if set_hands else 0.0)
            if test is not None and test.add(set_score[0]):  # the first player's points in the set: a pair's
                break  # the sets a pool started beyond the decision are dropped: the result is the same
            if hands is not None and hands_played >= hands:
                break
    except KeyboardInterrupt:  # Ctrl-C: the report covers the sets finished (a set cut short is dropped)
        interrupted = True
    finally:
        stream.close()
        if own and writer is not None:
            writer.close()
    seconds = time.perf_counter() - start
    report: dict[str, Any] = {
        "seats": seats,
        "sides": sides,
        "players": list(players),
        "seed": options.seed,
        "game_points": options.game_points,
        "max_think_ms": options.max_think_ms,
        "sets": sets,
        "games": sets * sides,
        "hands": hands_played,
        "per_player": [
            {
                "player": players[p],
                "game_score": mean(scores[p], 4),
                "game_score_interval": t_interval(scores[p], 0.0, 1.0),
                "games_won": round(wins[p], 2),
                "margin_per_hand": mean(margins[p], 2),
                "margin_interval": t_interval(margins[p]),
            }
            for p in range(sides)
        ],
        "errors": errors,
        "seconds": round(seconds, 3),
        "interrupted": interrupted,
    }
    if test is not None:
        block = test.to_json(capped=not interrupted)
        block["cap_games"] = None if cap is None else cap * sides
        block["cap_hands"] = hands
        report["sprt"] = block
    return report


def format_table_report(report: dict[str, Any]) -> str:
    """The report as text: one line per player (its side's score over the rotations, with intervals)."""
    kind = "partnerships" if report["seats"] > report["sides"] else "each for themselves"
    lines = [
        f"Table of {report['seats']} ({report['sides']} sides, {kind}), seed {report['seed']}: "
        f"{plural(report['sets'], 'set')} of {report['sides']} rotations, {plural(report['games'], 'game')}, "
        f"{plural(report['hands'], 'hand')}",
    ]

    def span(iv: list[float] | tuple[float, float] | None, fmt: str) -> str:
        return "" if iv is None else f" [{format(iv[0], fmt)}, {format(iv[1], fmt)}]"

    if report["interrupted"]:
        lines.append(f"  interrupted (Ctrl-C): the sets finished, {report['sets']}")
    for row in report["per_player"]:
        if row["game_score"] is None:
            lines.append(f"  {shown(row['player'])}: no set finished")
            continue
        lines.append(
            f"  {shown(row['player'])}: game score {row['game_score']:.3f}{span(row['game_score_interval'], '.3f')}, "
            f"margin {row['margin_per_hand']:+.1f}/hand{span(row['margin_interval'], '+.1f')}"
        )
    if "sprt" in report:
        lines += format_sprt(report["sprt"])
    for e in report["errors"][:10]:
        lines.append(
            f"  forfeit: set {e['set']}, rotation {e['rotation']}: "
            + shown(f"{e['player']} ({e['kind']}: {e['message']})")
        )
    return "\n".join(lines)


__all__ = [
    "TableGame",
    "check_table_game",
    "read_table_record",
    "table_line",
    "format_table_report",
    "play_set",
    "play_table_game",
    "run_table_match",
    "side_of",
]
