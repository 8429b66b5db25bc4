#!/usr/bin/env python3
"""Simulated games for the save tests, and the generator of ``saves/*.json``.

:func:`simulate` drives the engine the way :class:`mille.ui.flow.GameFlow`'s
main loop does (``rules.start_hand``, ``rules.phase``, ``rules.push``, the BSD
player for the computer, the end-of-hand accounting) with a scripted player
in the human's seat, and records a snapshot at every point where the real
program can save: the move prompt, the ``Extension?`` question (the game
holds it: the card counted and still in the hand), ``Another hand?`` /
``Another game?``, and ``Save game?`` after a declined game (totals settled).

The human's moves come from the BSD player in the human's seat (shown that
seat's observation, rolling its own dice), mixed, unless
``mix=1.0``, with random legal and illegal moves and Order toggles, so
that the snapshots cover more positions than two careful players reach.

    python3 tests/helpers/saves.py --write-samples   # regenerate saves/*.json
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

if __name__ == "__main__":  # run by its path: the tests' folder on the path, for ``helpers``
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from helpers import REPO
from mille.engine import cards, rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import EXTEND, NO_EXTENSION, ORDER, PASS, Move, MoveType, Phase
from mille.engine.state import Game
from mille.files import save
from mille.players.bsd import BsdPlayer
from mille.ui.layout import COMPUTER, YOU

SAVES = os.path.join(REPO, "saves")

MOVE = "move"
EXTENSION = "extension"
ANOTHER = "another"
SAVE_GAME = "save-game"


@dataclass
class SavePoint:
    """A position the real program could save, with how it got there."""

    kind: str
    game: Game
    seed: int
    hand: int
    index: int

    @property
    def pending(self) -> bool:
        """Saved at the Extension? question."""
        return self.game.pending_extension is not None


class Seats:
    """The BSD player in both seats; the human seat rolls its own dice."""

    def __init__(self, seed: int) -> None:
        self.players = (BsdPlayer(), BsdPlayer())
        self.human_dice = GlibcRandom(seed)

    def decide(self, game: Game) -> Move:
        seat = game.to_move
        dice = self.human_dice if seat == YOU else game.rng
        return self.players[seat].choose(observe(game, seat), dice)


def human_move(game: Game, seats: Seats, rnd: random.Random, mix: float) -> Move:
    """The scripted human: mostly the BSD player in the human seat, sometimes anything."""
    r = rnd.random()
    if mix < 1.0:
        if r < 0.03:
            return ORDER
        if r < 0.08:  # any attempt at all, legal or not
            return Move(rnd.choice((MoveType.PLAY, MoveType.DISCARD)), rnd.randrange(cards.HAND_SIZE))
    if r < mix or mix >= 1.0:
        return seats.decide(game)
    legal = rules.legal_moves(game)
    miles = [m for m in legal if m.kind is MoveType.PLAY and cards.is_distance(game.players[YOU].hand[m.slot])]
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

    ``mix`` is the share of the human's moves taken from the BSD player in
    the human's seat (1.0: all of them, and no deliberate mistakes);
    ``extend`` the chance that the human extends at 700.
    """
    rnd = random.Random(seed)
    if game is None:
        game = rules.new_game(seed)
    seats = Seats(seed)
    points: list[SavePoint] = []
    hand_no = 0

    def emit(kind: str, snap: Game) -> None:
        point = SavePoint(kind, snap, seed, hand_no, len(points))
        points.append(point)
        if on_point is not None:
            on_point(point)

    while hand_no < hands:
        rules.settle_game(game)
        while hand_no < hands:
            rules.start_hand(game)
            moves = 0
            while True:
                phase = rules.phase(game)
                if phase is Phase.HAND_OVER:
                    break
                moves += 1
                if moves > 5000:
                    raise RuntimeError(f"seed {seed}: hand {hand_no} does not end")
                if phase is Phase.EMPTY_HAND:
                    rules.push(game, PASS)
                elif phase is Phase.EXTENSION:
                    if game.to_move == YOU:
                        emit(EXTENSION, game.copy())
                        rules.push(game, EXTEND if rnd.random() < extend else NO_EXTENSION)
                    else:
                        rules.push(game, seats.decide(game))
                elif game.to_move == YOU:
                    emit(MOVE, game.copy())
                    rules.push(game, human_move(game, seats, rnd, mix))
                else:
                    rules.push(game, seats.decide(game))
            emit(ANOTHER, game.copy())
            if rules.game_over(game):
                settled = game.copy()
                rules.settle_game(settled)
                emit(SAVE_GAME, settled)
            hand_no += 1
            if rules.game_over(game):
                break
    return points


def continue_play(game: Game, seed: int, moves: int) -> list[dict[str, object]]:
    """Play on from a restored position with BSD players in both seats.

    Returns the saved form of the position after every move, so that two
    copies of a position can be compared move for move.  ``game`` is
    changed; its generator is seeded with ``seed`` first.  An open
    ``Extension?`` is answered yes.
    """
    game.rng.seed(seed)
    seats = Seats(seed)
    states: list[dict[str, object]] = []
    restore = True
    for _ in range(moves):
        phase = rules.phase(game)
        if phase is Phase.HAND_OVER:
            if rules.game_over(game):
                rules.settle_game(game)
            rules.start_hand(game, resumed=restore)
        elif phase is Phase.EMPTY_HAND:
            rules.push(game, PASS)
        elif phase is Phase.EXTENSION and game.to_move == YOU:
            rules.push(game, EXTEND)
        else:
            rules.push(game, seats.decide(game))
        restore = False
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
                if move.kind is not MoveType.PLAY or not cards.is_distance(game.players[YOU].hand[move.slot]):
                    continue
                trial = game.copy()
                rules.push(trial, move)
                if trial.pending_extension is None:
                    continue
                rules.push(trial, NO_EXTENSION)
                if trial.finished and not rules.game_over(trial):
                    return point.game, move
    raise RuntimeError("no position found")


def computer_at_extension() -> Game:
    """A real position: the computer's card has just reached 700 and its Extension? is open."""
    for seed in range(300):
        g = Game()
        g.rng.seed(seed)
        rules.start_hand(g)
        players = (BsdPlayer(), BsdPlayer())
        while rules.phase(g) is not Phase.HAND_OVER:
            if rules.phase(g) is Phase.EXTENSION and g.to_move == COMPUTER:
                return g
            if rules.phase(g) is Phase.EMPTY_HAND:
                rules.push(g, PASS)
            else:
                rules.push(g, players[g.to_move].choose(observe(g, g.to_move), g.rng))
    raise AssertionError("no computer extension found")  # pragma: no cover


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
        return p.kind == MOVE and p.game.players[YOU].hand[0] == cards.EMPTY

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
        after = [p for p in points if turn_start(p) and p.game.trip_length == 1000 and p.game.deck_count >= 10]
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
        save.write_game(path, point.game)
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
                loaded = save.loads(save.dumps(point.game))
                assert save.to_dict(loaded.game) == save.to_dict(point.game)
                count += 1
        print(f"{args.check} games, {count} save points, {time.perf_counter() - start:.1f} s: all load")
    return 0


if __name__ == "__main__":
    sys.exit(main())


#: How long a test waits for the program to save and exit after SIGHUP or
#: SIGTERM (``PtySession.wait_exit``): a generous bound, since the save is
#: fsync'ed and CI runs the suite under four CPythons at once.
EXIT_AFTER_SIGNAL_S = 60
