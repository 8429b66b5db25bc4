"""Replaying a recorded game move by move: where did the bot go wrong?

    python -m mille.replay FILE                      # the games in a record
    python -m mille.replay FILE --game N [--hand H]  # one game, move by move
    python -m mille.replay FILE --check              # replay every game

A game record (``--record FILE`` of ``mille.match`` and
``mille.tournament``, :mod:`mille.lab.gamelog`) holds every move of every
game.  :func:`replay` deals each hand again from the match seed
(:func:`mille.lab.play.deal_hand`) and makes the recorded moves on it,
checking as it goes that each is the move of the seat whose turn it is,
legal (:func:`mille.engine.rules.legal_moves`), with the card the record
names, that each hand ends where the record's moves end with the recorded
result, and that the game ends with the recorded scores and winner (or
the recorded forfeit).  A record that does not is refused with its line
number.  :func:`format_game` shows the replay as text: whose move, what,
and after it each side's miles, battle pile and speed limit; the scores
at each hand's end.

A record is untrusted input: every line is checked before it is used
(:func:`mille.lab.gamelog.read_record`), a bad one is one line on standard
error (status 1), never a traceback, and every string from it reaches the
terminal through :func:`mille.files.safeio.shown`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import cards, rules
from ..engine.rules import Move, MoveType, Phase
from ..engine.scoring import HandResult, hand_result
from ..engine.state import Game, Table
from ..engine.state import table as table_of
from ..files.safeio import shown
from .command import version_text
from .console import write_out
from .gamelog import (
    KINDS,
    MAX_HANDS,
    MAX_MOVES,
    RecordedGame,
    RecordError,
    hand_result_json,
    read_record,
    read_table_record,
)
from .play import deal_hand, deal_seed

# --------------------------------------------------------------------------
# The replay: events, checked


@dataclass(frozen=True, slots=True)
class Dealt:
    """Hand ``hand`` (0-based) has been dealt."""

    hand: int
    game: Game


@dataclass(frozen=True, slots=True)
class Moved:
    """Move ``number`` (1-based) of hand ``hand`` was made: ``entry`` as recorded, ``coup`` a coup fourré."""

    hand: int
    number: int
    entry: list[Any]
    coup: bool
    game: Game


@dataclass(frozen=True, slots=True)
class HandOver:
    """Hand ``hand`` ended with ``result``, as recorded."""

    hand: int
    result: HandResult


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The game ended in a forfeit (as recorded) in hand ``hand`` (0-based; -1 before any deal)."""

    hand: int
    forfeit: dict[str, Any]


Event = Dealt | Moved | HandOver | Forfeit


def _move(entry: list[Any]) -> Move:
    kind = KINDS[entry[1]]
    if kind is MoveType.PLAY or kind is MoveType.DISCARD:
        slot: int = entry[2]
        if len(entry) > 4:  # a hazard aimed at a side (three sides)
            return Move(kind, slot, entry[4])
        return rules.PLAYS[slot] if kind is MoveType.PLAY else rules.DISCARDS[slot]
    return {
        MoveType.DRAW: rules.DRAW,
        MoveType.EXTEND: rules.EXTEND,
        MoveType.NO_EXTENSION: rules.NO_EXTENSION,
        MoveType.PASS: rules.PASS,
    }[kind]


def describe(entry: list[Any]) -> str:
    """A recorded move in words: ``draws 25``, ``plays Go (3)``, ``discards Stop (P)`` (the slot), ``extends``."""
    kind = KINDS[entry[1]]
    if kind is MoveType.DRAW:
        return "draws " + ", ".join(_card(c) for c in entry[2:])
    if kind is MoveType.PLAY or kind is MoveType.DISCARD:
        slot = "P" if entry[2] == 0 else str(entry[2])
        verb = "plays" if kind is MoveType.PLAY else "discards"
        aimed = f" on side {entry[4]}" if len(entry) > 4 else ""  # a hazard aimed at a side (three sides)
        return f"{verb} {_card(entry[3])} ({slot}){aimed}"
    return {MoveType.EXTEND: "extends", MoveType.NO_EXTENSION: "does not extend", MoveType.PASS: "passes"}[kind]


def _card(code: object) -> str:
    """A recorded card's name; a code no card has (a damaged record of a larger table) as the number."""
    return cards.name(code) if type(code) is int and 0 <= code < cards.NUM_CODES else f"card {shown(str(code))}"


def replay(recorded: RecordedGame) -> Iterator[Event]:
    """Replay ``recorded`` from its seed, event by event; :class:`RecordError` (``line N: ...``) where it differs."""
    line = recorded.line
    game = Game(table=Table(game_points=recorded.game_points))
    hands = recorded.hands
    forfeit = recorded.forfeit
    if forfeit is not None:
        if hands and forfeit["hand"] != len(hands):
            raise RecordError(f"line {line}: the forfeit is in hand {forfeit['hand']}, the record has {len(hands)}")
        if not hands and forfeit["hand"] != 1:
            raise RecordError(f"line {line}: the forfeit is in hand {forfeit['hand']} of a game with no hand played")
        loser = forfeit["player"]
        if recorded.winner != ("b" if loser == "a" else "a"):
            raise RecordError(f"line {line}: the winner is not the other player than the one who forfeited")
        if forfeit["seat"] != (recorded.a_seat if loser == "a" else 1 - recorded.a_seat):
            raise RecordError(f"line {line}: the forfeit's seat is not its player's")
    elif not hands:
        raise RecordError(f"line {line}: a game with no hands and no forfeit")
    for h, hand in enumerate(hands):
        where = f"line {line}: hand {h + 1}"
        seed = deal_seed(recorded.seed, recorded.pair - 1, h)
        if hand["deal_seed"] != seed:
            raise RecordError(f"{where}: deal seed {hand['deal_seed']}, but seed {recorded.seed} deals it from {seed}")
        if hand["starter"] != h % 2:
            raise RecordError(f"{where}: started by seat {hand['starter']}, but hand {h + 1} is seat {h % 2}'s")
        deal_hand(game, seed, h % 2)
        yield Dealt(h, game)
        for k, entry in enumerate(hand["moves"], start=1):
            coup = make_move(game, entry, f"{where}, move {k}")
            yield Moved(h, k, entry, coup, game)
        last = h == len(hands) - 1
        if hand["result"] is None:
            if not (last and forfeit is not None):
                raise RecordError(f"{where}: no result, and no forfeit ends the game in it")
            break
        if rules.phase(game) is not Phase.HAND_OVER:
            raise RecordError(f"{where}: the recorded moves end before the hand does")
        result = hand_result(game)
        if hand_result_json(result) != hand["result"]:
            raise RecordError(
                f"{where}: the replay ends the hand with {_result_text(hand_result_json(result))}, "
                f"the record says {_result_text(hand['result'])}"
            )
        yield HandOver(h, result)
        if result.game_over and not last:
            raise RecordError(f"{where}: the game is over after this hand, but the record goes on")
        if last and forfeit is None:
            if not result.game_over:
                raise RecordError(f"{where}: the record ends before the game does")
            seat = result.game_winner
            winner = None if seat is None else "a" if seat == recorded.a_seat else "b"
            if winner != recorded.winner:
                raise RecordError(
                    f"line {line}: the replay's winner is {winner or 'nobody'}, the record's "
                    f"{recorded.winner or 'nobody'}"
                )
        if last and forfeit is not None:
            raise RecordError(f"{where}: the hand has a result, but the game's forfeit is in it")
    if forfeit is not None:
        yield Forfeit(len(hands) - 1, forfeit)


def _result_text(result: dict[str, Any]) -> str:
    return (
        f"hand totals {result['hand_totals'][0]} and {result['hand_totals'][1]}, game totals "
        f"{result['totals'][0]} and {result['totals'][1]}, miles {result['mileage'][0]} and "
        f"{result['mileage'][1]} of {result['trip']}"
    )


def make_move(game: Game, entry: list[Any], where: str) -> bool:
    """Make the recorded move ``entry`` on ``game`` after checking it (at any table); True if it was a coup fourré.

    The move must be the turn's seat's, with the card the record names in
    its slot, legal, and a draw must give the cards the record says; else
    :class:`RecordError` at ``where``.
    """
    seat = entry[0]
    now = rules.phase(game)
    if now is Phase.HAND_OVER:
        raise RecordError(f"{where}: {describe(entry)} after the hand is over")
    if seat != game.to_move:
        raise RecordError(f"{where}: seat {seat} {describe(entry)}, but it is seat {game.to_move}'s turn")
    move = _move(entry)
    pp = game.players[seat]
    if move.kind is MoveType.PLAY or move.kind is MoveType.DISCARD:
        held = pp.hand[move.slot]
        if held != entry[3]:
            what = cards.name(held) if held != cards.EMPTY else "empty"
            raise RecordError(f"{where}: seat {seat} {describe(entry)}, but slot {entry[2]} holds {what}")
    legal = rules.legal_moves(game)
    if move not in legal:
        allowed = " ".join(str(m) for m in legal)
        raise RecordError(f"{where}: seat {seat} {describe(entry)}: not a legal move here (legal: {allowed})")
    deck = game.deck_count
    coups: int = sum(pp.coups)
    rules.push(game, move)
    if move.kind is MoveType.DRAW:
        drawn = list(reversed(game.deck[game.deck_count : deck]))
        if drawn != entry[2:]:
            names = ", ".join(cards.name(c) for c in drawn)
            raise RecordError(f"{where}: seat {seat} {describe(entry)}, but the deck gives {names}")
    return bool(sum(pp.coups) > coups)


def check_game(recorded: RecordedGame) -> None:
    """Replay ``recorded`` to its end, silently; :class:`RecordError` if it is not what the record says."""
    for _ in replay(recorded):
        pass


# --------------------------------------------------------------------------
# As text


def _name(recorded: RecordedGame, seat: int) -> str:
    """``bsd (A)``: the player in ``seat``, escaped for the terminal."""
    letter = "A" if seat == recorded.a_seat else "B"
    return f"{shown(recorded.seats[seat])} ({letter})"


def _side(game: Game, seat: int) -> str:
    """A seat's side of the table after a move: miles, the battle pile's top, ``lim`` under a speed limit."""
    pp = game.players[seat]
    battle = cards.name(pp.battle) if pp.battle != cards.EMPTY else "-"
    limit = "lim" if pp.speed == cards.SPEED_LIMIT else ""
    return f"{pp.mileage:>5} {battle:<10} {limit:<3}"


def _points(n: int) -> str:
    return f"{n:,}"


def format_game(recorded: RecordedGame, *, path: str, only_hand: int | None = None) -> Iterator[str]:
    """The replay as lines of text (``only_hand``, 1-based: the moves of that hand alone); checks as it goes."""
    head = "the seat-swapped game" if recorded.second else "the first game"
    yield (
        f"mille.replay: {shown(path)}, line {recorded.line}: {shown(recorded.a)} (A) against "
        f"{shown(recorded.b)} (B), seed {recorded.seed}"
    )
    yield f"  game {recorded.game}, {head} of pair {recorded.pair}; {recorded.game_points}-point game"
    yield f"  seat 0: {_name(recorded, 0)}; seat 1: {_name(recorded, 1)}"
    columns = f"{'miles':>5} {'battle':<10} {'lim':<3}"
    seats = f"{_short('seat 0: ' + _name(recorded, 0), 19)} | {_short('seat 1: ' + _name(recorded, 1), 19)}"
    showing = False
    for event in replay(recorded):
        if isinstance(event, Dealt):
            showing = only_hand is None or only_hand == event.hand + 1
            if showing:
                yield ""
                yield f"Hand {event.hand + 1}: seat {event.hand % 2} starts"
                yield f"{'':<35} {seats}".rstrip()
                yield f"{'#':>4} {'s':>1} {'action':<28} {columns} | {columns}"
        elif isinstance(event, Moved):
            if showing:
                action = describe(event.entry)
                yield (
                    f"{event.number:>4} {event.entry[0]:>1} {action:<28} "
                    f"{_side(event.game, 0)} | {_side(event.game, 1)}"
                ).rstrip()
                if event.coup:
                    yield f"{'':<7}(a coup fourré)"
        elif isinstance(event, HandOver):
            if showing:
                r = event.result
                yield f"Hand {event.hand + 1} over (a trip of {r.trip_length}):"
                for s in (0, 1):
                    yield (
                        f"  seat {s}: {r.mileage[s]} miles, {_points(r.hand_totals[s])} points, "
                        f"total {_points(r.totals[s])}"
                    )
                if r.game_over:
                    winner = r.game_winner
                    who = "a tie: nobody wins" if winner is None else f"{_name(recorded, winner)} wins"
                    yield f"Game over: {_points(r.totals[0])} to {_points(r.totals[1])}, {who}"
        elif isinstance(event, Forfeit):
            f = event.forfeit
            yield (
                f"Forfeit in hand {f['hand']}: {_name(recorded, f['seat'])}, seat {f['seat']}: "
                f"{shown(f['kind'])}: {shown(f['message'])}"
            )
    if only_hand is not None and not 1 <= only_hand <= len(recorded.hands):
        yield f"(the game has {len(recorded.hands)} hands: there is no hand {only_hand})"
    yield ""
    yield "Replayed: every move legal; the hands' results and final scores as recorded."


def listing_row(recorded: RecordedGame) -> str:
    """One game of a record in one line: where, who, how it ended."""
    a, b = shown(recorded.a), shown(recorded.b)
    hands = recorded.hands
    if recorded.forfeit is not None:
        f = recorded.forfeit
        outcome = f"{f['player'].upper()} forfeits in hand {f['hand']} ({shown(f['kind'])})"
    else:
        totals = hands[-1]["result"]["totals"] if hands and hands[-1]["result"] else [0, 0]
        a_total, b_total = totals[recorded.a_seat], totals[1 - recorded.a_seat]
        won = {"a": "A wins", "b": "B wins", None: "a tie"}[recorded.winner]
        outcome = f"{won}, {_points(a_total)} to {_points(b_total)}"
    return (
        f"  {recorded.line:>6}  {recorded.game:>5}  {recorded.pair:>5}  {_short(a)} {_short(b)} "
        f"{len(hands):>5}  {outcome}"
    )


def _short(name: str, width: int = 14) -> str:
    return f"{name:<{width}}" if len(name) <= width else name[: width - 1] + "~"


# --------------------------------------------------------------------------
# The command


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.replay",
        description="Replay a game of a game record (--record FILE of mille.match and mille.tournament) "
        "move by move, checking every move and the recorded scores.  Without --game, list the games.  "
        "See docs/bots.md.",
    )
    parser.add_argument("file", metavar="FILE", type=Path, help="a game record")
    parser.add_argument("--game", type=int, metavar="N", help="replay game N (as the match's report numbers games)")
    parser.add_argument(
        "--pairing",
        nargs="+",
        metavar="NAME",
        help="the match of players A and B (in a tournament's record; at 3, 4 and 6 seats the table's players)",
    )
    parser.add_argument("--hand", type=int, metavar="H", help="with --game: show the moves of hand H only")
    parser.add_argument(
        "--check", action="store_true", help="replay every game (of --pairing) and say whether all agree"
    )
    parser.add_argument("--version", action="version", version=version_text("mille.replay"))
    args = parser.parse_args(argv)
    if args.game is not None and args.game < 1:
        parser.error("--game must be at least 1")
    if args.hand is not None and (args.game is None or args.hand < 1):
        parser.error("--hand H goes with --game N, and H is at least 1")
    if args.check and args.game is not None:
        parser.error("--check replays every game: no --game with it")
    path = os.fspath(args.file)
    try:
        return _run(args, path)
    except RecordError as exc:
        print(f"mille.replay: {shown(path)}, {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, path: str) -> int:
    head, games, notes = read_record(args.file)
    if head.get("seats", 2) != 2:
        return _run_table(args, path)
    if args.pairing is not None and len(args.pairing) != 2:
        raise RecordError("--pairing names the two players of a match of the two-seat table")
    pairing = tuple(args.pairing) if args.pairing else None

    def wanted(g: RecordedGame) -> bool:
        return pairing is None or (g.a, g.b) == pairing

    if args.game is not None:
        matches: dict[tuple[str, str, int], RecordedGame] = {}
        for g in games:
            if wanted(g) and g.game == args.game:
                matches.setdefault((g.a, g.b, g.seed), g)
        if not matches:
            within = "" if pairing is None else f" of {shown(pairing[0])} against {shown(pairing[1])}"
            raise RecordError(f"no game {args.game}{within} in the record")
        if len(matches) > 1:
            which = ", ".join(f"{shown(a)} {shown(b)}" for a, b, _ in list(matches)[:5])
            raise RecordError(f"game {args.game} of several matches: name one with --pairing A B ({which})")
        (chosen,) = matches.values()
        status = write_out("\n".join(format_game(chosen, path=path, only_hand=args.hand)))
        return status
    if args.check:
        count = 0
        for g in games:
            if wanted(g):
                check_game(g)
                count += 1
        for note in notes:
            print(f"mille.replay: {shown(path)}, {note}", file=sys.stderr)
        return write_out(f"{count} games replayed: every move legal, every score as recorded")
    rows = [row for row in (listing_row(g) for g in games if wanted(g))]
    tool = shown(str(head.get("tool", "?")))
    version = shown(str(head.get("mille", "?")))
    text = [
        f"mille.replay: {shown(path)}: a record of {tool} (bsd-mille {version}), {len(rows)} games",
        f"  {'line':>6}  {'game':>5}  {'pair':>5}  {'A':<14} {'B':<14} {'hands':>5}  result",
        *rows,
    ]
    text += [f"  ({note})" for note in notes]
    return write_out("\n".join(text))


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
    game = Game(table=table_of(seats, game_points=int(line["game_points"])))
    hands = line["hands"]
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise RecordError(f"line {number}: a damaged table game (hands)")
    for h, hand in enumerate(hands):
        where = f"line {number}: hand {h + 1}"
        deal = deal_seed(seed, unit, h)
        if hand["deal_seed"] != deal or hand["starter"] != h % seats:
            raise RecordError(f"{where}: not dealt as set {unit + 1} of seed {seed} deals it")
        deal_hand(game, deal, h % seats)
        moves = hand["moves"]
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise RecordError(f"{where}: a damaged hand")
        for k, entry in enumerate(moves, start=1):
            make_move(game, entry, f"{where}, move {k}")
        if hand["result"] is None:
            if h == len(hands) - 1 and line["forfeit"] is not None:
                break
            raise RecordError(f"{where}: no result, and no forfeit ends the game in it")
        if rules.phase(game) is not Phase.HAND_OVER:
            raise RecordError(f"{where}: the recorded moves end before the hand does")
        if hand_result_json(hand_result(game)) != hand["result"]:
            raise RecordError(f"{where}: the replay ends the hand otherwise than the record says")
    return len(hands)


def _run_table(args: argparse.Namespace, path: str) -> int:
    """A record of ``mille.match`` or ``mille.tournament --players 3|4|6``: every game replayed and checked, listed
    or summed up, or (``--game N``) one game shown move by move (each line names its table's seed and set, so a
    tournament's tables replay alike)."""
    head, games = read_table_record(Path(path))
    group = None if args.pairing is None else sorted(args.pairing)
    rows = []
    chosen: list[tuple[int, dict[str, Any]]] = []
    for number, line in games:
        try:
            sides_named = [str(p) for p in line["sides"]]
            number_in_match = (int(line["set"]) - 1) * len(sides_named) + int(line["rotation"])
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"line {number}: a damaged table game (sides, set, rotation)") from None
        if group is not None and sorted(sides_named) != group:
            continue
        if args.game is not None:
            if number_in_match == args.game:
                chosen.append((number, line))
            continue
        hands = check_table_game(number, line)
        try:
            sides = " | ".join(shown(p) for p in sides_named)
            winners = ", ".join(shown(str(p)) for p in line["winners"])
            where = f"set {int(line['set']):>4}, rotation {int(line['rotation'])}"
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"line {number}: a damaged table game (sides, winners)") from None
        rows.append(f"  {number:>6}  game {number_in_match:>5}, {where}: {sides}; {hands} hands; won by {winners}")
    if args.game is not None:
        if not chosen:
            within = "" if group is None else " of the table " + " ".join(shown(p) for p in args.pairing)
            raise RecordError(f"no game {args.game}{within} in the record")
        if len(chosen) > 1:
            tables = sorted({" ".join(shown(str(p)) for p in sorted(line["sides"])) for _, line in chosen})
            raise RecordError(
                f"game {args.game} of several tables: name one with --pairing NAME... ({'; '.join(tables[:5])})"
            )
        number, line = chosen[0]
        check_table_game(number, line)
        return write_out("\n".join(_format_table_game(number, line, path, args.hand)))
    if args.check:
        return write_out(f"{len(rows)} games replayed: every move legal, every score as recorded")
    seats = shown(str(head.get("seats")))
    text = [
        f"mille.replay: {shown(path)}: a record of {shown(str(head.get('tool', '?')))} at the table of {seats}, "
        f"{len(rows)} games, every one replayed and as recorded",
        *rows,
    ]
    return write_out("\n".join(text))


def _format_table_game(number: int, line: dict[str, Any], path: str, only_hand: int | None) -> Iterator[str]:
    """A table game already checked (:func:`check_table_game`), move by move, as text.

    Each move with the seat and side that made it, then every side's miles
    and battle pile; each hand's totals by side.
    """
    seats, seed, unit = int(line["seats"]), int(line["seed"]), int(line["set"]) - 1
    tab = table_of(seats, game_points=int(line["game_points"]))
    sides = tab.sides
    names = [shown(str(p)) for p in line["sides"]]
    yield (
        f"mille.replay: {shown(path)}, line {number}: the table of {seats}, seed {seed}, set {unit + 1}, "
        f"rotation {int(line['rotation'])}; {tab.game_points}-point game"
    )
    for side in range(sides):
        yield f"  side {side} (seats {', '.join(str(s) for s in tab.partners(side))}): {names[side]}"
    game = Game(table=tab)
    for h, hand in enumerate(line["hands"]):
        showing = only_hand is None or only_hand == h + 1
        deal_hand(game, deal_seed(seed, unit, h), h % seats)
        if showing:
            yield ""
            yield f"Hand {h + 1}: seat {h % seats} starts"
            columns = " | ".join(f"{'side ' + str(s):<20}" for s in range(sides))
            yield f"{'#':>4} {'seat':>4} {'action':<30} {columns}".rstrip()
        for k, entry in enumerate(hand["moves"], start=1):
            make_move(game, entry, f"line {number}: hand {h + 1}, move {k}")
            if showing:
                state = " | ".join(_side(game, s)[:20] for s in range(sides))
                yield f"{k:>4} {entry[0]:>4} {describe(entry):<30} {state}".rstrip()
        if hand["result"] is not None and showing:
            r = hand_result(game)
            yield f"Hand {h + 1} over (a trip of {r.trip_length}):"
            for s in range(sides):
                yield (
                    f"  side {s}, {names[s]}: {r.mileage[s]} miles, {_points(r.hand_totals[s])} points, "
                    f"total {_points(r.totals[s])}"
                )
    if line["forfeit"] is not None:
        f = line["forfeit"]
        yield shown(f"Forfeit: {f.get('player')} ({f.get('kind')}: {f.get('message')})")
    yield f"Won by {', '.join(shown(str(p)) for p in line['winners'])}"
    yield ""
    yield "Replayed: every move legal; the hands' results as recorded."


__all__ = [
    "Dealt",
    "Event",
    "Forfeit",
    "HandOver",
    "Moved",
    "check_game",
    "check_table_game",
    "describe",
    "format_game",
    "listing_row",
    "main",
    "make_move",
    "replay",
]
