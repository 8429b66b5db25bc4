#!/usr/bin/env python3
"""Simulated games for the save tests, and the generator of ``saves/*.json``.

:func:`simulate` drives the engine the way :class:`mille.ui.app.MilleApp`'s
main loop does (``rules.start_hand``, ``rules.push``, ``computer.decide`` for
the computer, the end-of-hand accounting) with a scripted player in the
human's seat, and records a snapshot at every point where the real program
can save: the move prompt, the ``Extension?`` question (as the front end
saves it, :func:`mille.rules.extension_snapshot`), ``Another hand?`` /
``Another game?``, and ``Save game?`` after a declined game (totals settled).

The human's moves come from the BSD computer player looking at the table
from the human's side (:func:`human_decision`), mixed, unless
``mix=1.0``, with random legal and illegal moves and Order toggles, so
that the snapshots cover more positions than two careful players reach.

    python3 tests/save_helpers.py --write-samples   # regenerate saves/*.json
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
SRC = os.path.join(REPO, "src")
SAVES = os.path.join(REPO, "saves")
if SRC not in sys.path:
    sys.path.insert(0, SRC)

from mille import cards, computer, rules, save  # noqa: E402
from mille.rules import DRAW, ORDER, Move, MoveType  # noqa: E402
from mille.state import COMPUTER, HUMAN, Game, SafetyStatus  # noqa: E402

MOVE = "move"
EXTENSION = "extension"
ANOTHER = "another"
SAVE_GAME = "save-game"


@dataclass
class SavePoint:
    """A position the real program could save, with how it got there."""

    kind: str
    game: Game
    pending: bool
    seed: int
    hand: int
    index: int


def human_decision(game: Game) -> Move:
    """What the BSD computer player would do in the human's seat.

    The table is mirrored (the human's tableau goes to the computer's seat)
    and the card counting is rebuilt from what the human can see: their own
    hand and the cards on the table.  The generator and the "cards needed"
    table of the copy are thrown away, so the real game is not disturbed.
    """
    g = game.copy()
    me, them = g.players[HUMAN], g.players[COMPUTER]
    g.players = [them, me]
    g.play = COMPUTER
    for i in range(cards.NUM_SAFETIES):
        if them.safety[i] == SafetyStatus.IN_HAND:
            them.safety[i] = SafetyStatus.UNKNOWN
        if me.safety[i] != SafetyStatus.PLAYED and cards.SAFETY_BASE + i in me.hand:
            me.safety[i] = SafetyStatus.IN_HAND
    seen = [0] * cards.NUM_TABLE
    for c in me.hand:
        if c != cards.EMPTY:
            seen[c] += 1
    for p in (me, them):
        for i, n in enumerate(p.nummiles):
            seen[i] += n
        for i, s in enumerate(p.safety):
            if s == SafetyStatus.PLAYED:
                seen[cards.SAFETY_BASE + i] += 1
        for c in (p.battle, p.speed):
            if c != cards.EMPTY:
                seen[c] += 1
    if g.discard != cards.EMPTY:
        seen[g.discard] += 1
    g.num_seen = [min(n, cards.COPIES[c]) for c, n in enumerate(seen)]
    g.num_gos = 0
    return computer.decide(g).move


def human_move(game: Game, rnd: random.Random, mix: float) -> Move:
    """The scripted human: mostly the mirrored computer, sometimes anything."""
    r = rnd.random()
    if mix < 1.0:
        if r < 0.03:
            return ORDER
        if r < 0.08:  # any attempt at all, legal or not
            return Move(rnd.choice((MoveType.PLAY, MoveType.DISCARD)), rnd.randrange(cards.HAND_SIZE))
    legal = rules.legal_moves(game)
    if r < mix or mix >= 1.0:
        move = human_decision(game)
        if move in legal:
            return move
    if not legal:
        return Move(MoveType.PLAY, rnd.randrange(cards.HAND_SIZE))
    miles = [m for m in legal if m.kind is MoveType.PLAY and cards.is_distance(game.players[HUMAN].hand[m.slot])]
    if miles and rnd.random() < 0.5:
        return rnd.choice(miles)
    return rnd.choice(legal)


def simulate(
    seed: int,
    hands: int = 1,
    *,
    mix: float = 0.6,
    extend: float = 0.6,
    on_point: Callable[[SavePoint], None] | None = None,
    game: Game | None = None,
) -> list[SavePoint]:
    """Play ``hands`` hands from seed ``seed``; the save points, in order.

    ``mix`` is the share of the human's moves taken from the mirrored
    computer player (1.0: all of them, and no deliberate mistakes);
    ``extend`` the chance that the human extends at 700.
    """
    rnd = random.Random(seed)
    if game is None:
        game = Game()
        game.rng.seed(seed)
    points: list[SavePoint] = []
    hand_no = 0

    def emit(kind: str, snap: Game, pending: bool) -> None:
        point = SavePoint(kind, snap, pending, seed, hand_no, len(points))
        points.append(point)
        if on_point is not None:
            on_point(point)

    def decide_extension(g: Game, slot: int) -> bool:
        if g.play != HUMAN:
            return computer.would_extend(g)
        emit(EXTENSION, rules.extension_snapshot(g, slot), True)
        return rnd.random() < extend

    while hand_no < hands:
        rules.settle_game(game)
        while hand_no < hands:
            rules.start_hand(game)
            moves = 0
            while not game.finished:
                if all(c == cards.EMPTY for c in game.players[game.play].hand):
                    game.play = 1 - game.play
                    moves += 1
                    if moves > 5000:
                        raise RuntimeError(f"seed {seed}: hand {hand_no} does not end")
                    continue
                if game.play == HUMAN:
                    emit(MOVE, game.copy(), False)
                    move = human_move(game, rnd, mix)
                else:
                    move = computer.decide(game).move
                rules.push(game, move, decide_extension)
                moves += 1
                if moves > 5000:
                    raise RuntimeError(f"seed {seed}: hand {hand_no} does not end")
            game.on_exit = True
            emit(ANOTHER, game.copy(), False)
            if rules.game_over(game):
                settled = game.copy()
                rules.settle_game(settled)
                emit(SAVE_GAME, settled, False)
            hand_no += 1
            game.on_exit = False
            if rules.game_over(game):
                break
    return points


def continue_play(game: Game, pending: bool, seed: int, moves: int) -> list[dict[str, object]]:
    """Play on from a restored position with computer moves in both seats.

    Returns the saved form of the position after every move, so that two
    copies of a position can be compared move for move.  ``game`` is
    changed; its generator is seeded with ``seed`` first.
    """
    game.rng.seed(seed)
    states: list[dict[str, object]] = []

    def decide_extension(g: Game, slot: int) -> bool:
        return computer.would_extend(g) if g.play != HUMAN else True

    if pending:
        rules.resolve_extension(game, True)
        states.append(save.to_dict(game))
    restore = True
    for _ in range(moves):
        if game.finished or (restore and game.on_exit):
            if rules.game_over(game):
                rules.settle_game(game)
            rules.start_hand(game, resumed=restore and game.on_exit)
            game.on_exit = False
        restore = False
        if all(c == cards.EMPTY for c in game.players[game.play].hand):
            game.play = 1 - game.play
        elif game.play == HUMAN:
            move = human_decision(game)
            if move not in rules.legal_moves(game):
                legal = rules.legal_moves(game)
                move = legal[0] if legal else DRAW
            rules.push(game, move, decide_extension)
        else:
            rules.push(game, computer.decide(game).move, decide_extension)
        states.append(save.to_dict(game))
    return states


def extension_position(seeds: range = range(500)) -> tuple[Game, Move]:
    """A move prompt where the human's play reaches exactly 700.

    ``Extension?`` is asked after that move; answered no, the hand ends
    with both totals under 5000 (so the next question is ``Another hand?``).
    """
    for seed in seeds:
        for point in simulate(seed, hands=1):
            if point.kind != MOVE:
                continue
            game = point.game
            for move in rules.legal_moves(game):
                if move.kind is not MoveType.PLAY or not cards.is_distance(game.players[HUMAN].hand[move.slot]):
                    continue
                trial = game.copy()
                asked: list[int] = []

                def decline(g: Game, slot: int, asked: list[int] = asked) -> bool:
                    asked.append(slot)
                    return False

                rules.push(trial, move, decline)
                if asked and trial.finished and not rules.game_over(trial):
                    return point.game, move
    raise RuntimeError("no position found")


def move_keys(move: Move) -> bytes:
    """The keys that make a move at the move prompt."""
    if move.kind is MoveType.DRAW:
        return b"p"
    if move.kind is MoveType.ORDER:
        return b"o"
    return b"%s%d\r" % (b"u" if move.kind is MoveType.PLAY else b"d", move.slot)


# --------------------------------------------------------------------------
# The sample saves in saves/


def _first(points: list[SavePoint], test: Callable[[SavePoint], bool], skip: int = 0) -> SavePoint:
    found = [p for p in points if test(p)]
    return found[min(skip, len(found) - 1)]


def sample_games() -> dict[str, SavePoint]:
    """The positions of ``saves/*.json``, from fixed seeds, human = computer player."""
    samples: dict[str, SavePoint] = {}

    def turn_start(p: SavePoint) -> bool:
        return p.kind == MOVE and p.game.players[HUMAN].hand[0] == cards.EMPTY

    # mid-hand: the second hand of a game (totals from the first), both moving.
    for seed in range(100, 300):
        points = simulate(seed, hands=2, mix=1.0, extend=1.0)
        mid = [p for p in points if turn_start(p) and p.hand == 1 and min(q.mileage for q in p.game.players) >= 200]
        if mid:
            samples["mid-hand"] = mid[0]
            # end-of-hand: saved at "Another hand?" after the first hand.
            samples["end-of-hand"] = _first(points, lambda p: p.kind == ANOTHER and p.hand == 0)
            break
    else:  # pragma: no cover
        raise RuntimeError("no mid-hand position found")
    # extension: End is 1000 (the human said yes) and cards are left to draw.
    for seed in range(200, 400):
        points = simulate(seed, hands=1, mix=1.0, extend=1.0)
        after = [p for p in points if turn_start(p) and p.game.end == 1000 and p.game.deck_count >= 10]
        if after:
            samples["extension"] = after[0]
            break
    else:  # pragma: no cover - the seeds above contain extensions
        raise RuntimeError("no extended hand found")
    return samples


def write_samples(directory: str = SAVES) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    written = []
    for name, point in sample_games().items():
        path = os.path.join(directory, f"{name}.json")
        save.write_game(path, point.game, point.pending)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write-samples", action="store_true", help="regenerate saves/*.json")
    parser.add_argument("--check", type=int, metavar="GAMES", help="validate every save point of GAMES games")
    args = parser.parse_args(argv)
    if args.write_samples:
        for path in write_samples():
            print(path)
    if args.check:
        import time

        start = time.perf_counter()
        count = 0
        for seed in range(args.check):
            for point in simulate(seed, hands=6):
                loaded = save.loads(save.dumps(point.game, point.pending))
                assert save.to_dict(loaded.game, loaded.pending_extension) == save.to_dict(point.game, point.pending)
                count += 1
        print(f"{args.check} games, {count} save points, {time.perf_counter() - start:.1f} s: all load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
