"""Headless games between two players; by default the BSD computer against itself.

    python -m mille.sim --hands 1000 --seed 7 [--json] [--human NAME] [--computer NAME]

plays whole hands with no screen, games running on across hands with the
5000-point rule exactly as in the interactive program (the starter
alternates every hand, across games too; a game is settled after the hand
in which a total reaches 5000, and a tie wins nobody the game).

Each seat is a :class:`~mille.players.Player`: it is shown its seat's
:func:`~mille.observation.observe` and answers with a move, ``Extension?``
included; a seat with no cards passes.  Each seat's card counting is its
own, kept by the rules (:class:`~mille.state.Memory`).  Dice:

* the **computer seat** rolls on the game's own generator, which also
  shuffles, exactly as in the real program;
* the **human seat** rolls on a generator of its own, seeded from the run's
  seed (:func:`human_seat_seed`).

So with the BSD player in the computer seat, a simulated game is one the
real binary plays identically when the human seat's moves are typed into it
with the same seed.

When both seats are plain :class:`~mille.players.bsd.BsdPlayer` and nobody
watches the moves, a hand is played by :func:`~mille.players.bsd.play_out`,
the engine's fast loop for the BSD procedure (the one searching players
roll out with): the same moves, the same dice, the same game, without an
observation built for every decision (``tests/test_sim.py`` checks that the
two paths play identical games).

Guards: an illegal move and a hand that runs past
:data:`MAX_MOVES_PER_HAND` moves both raise :class:`SimulationError`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import cards, rules
from .observation import observe
from .players import Player, PlayerSpecError, make_player
from .players.bsd import BsdPlayer, play_out
from .rng import GlibcRandom
from .rules import Move, MoveType, Outcome
from .state import EXTENDED_TRIP, SEATS, Game

#: No real hand comes near this (the longest in 5000 simulated hands had 190
#: moves): every move but a draw or a safety passes the turn or removes a card.
MAX_MOVES_PER_HAND = 1000

#: How the summary names the seats: as in the interactive program, whose
#: computer sits at seat 1 (the ``--human`` and ``--computer`` options).
SEAT_LABELS = ("human", "computer")

_DRAW = MoveType.DRAW
_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD
_EXTEND = MoveType.EXTEND


class SimulationError(RuntimeError):
    """The simulated game went wrong: an illegal move, or an endless hand."""


def human_seat_seed(seed: int) -> int:
    """Seed of the human seat's own dice, derived from the run's seed."""
    return (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a simulated hand, for observers (the property tests).

    ``cards`` are the cards the move took out of the deck (a draw: one or
    two) or out of the mover's hand (a successful play or discard).
    """

    player: int
    move: Move
    outcome: Outcome
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended."""

    hand_totals: tuple[int, int]
    mileage: tuple[int, int]
    moves: int
    starter: int
    end: int
    deck_left: int
    game_over: bool
    #: Index of the player who won the game settled after this hand (None:
    #: no game ended, or the game was a tie).
    game_winner: int | None


@dataclass(slots=True)
class Summary:
    seed: int
    hands: int = 0
    games: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    games_won: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    trips: list[int] = field(default_factory=lambda: [0, 0])
    extensions: int = 0
    moves: int = 0
    seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "hands": self.hands,
            "games": self.games,
            "points": {SEAT_LABELS[0]: self.points[0], SEAT_LABELS[1]: self.points[1]},
            "games_won": {SEAT_LABELS[0]: self.games_won[0], SEAT_LABELS[1]: self.games_won[1]},
            "hands_won": {SEAT_LABELS[0]: self.hands_won[0], SEAT_LABELS[1]: self.hands_won[1]},
            "trips": {SEAT_LABELS[0]: self.trips[0], SEAT_LABELS[1]: self.trips[1]},
            "extensions": self.extensions,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }


#: Fields of :meth:`Summary.as_dict` that depend on the machine, not the seed.
TIMING_FIELDS = ("seconds", "hands_per_second")


class Simulator:
    """A run of games between two players (the BSD computer in both seats by default).

    ``observer`` (if given) is called after every move with the game and the
    :class:`Step`; it may inspect but must not change the game.
    """

    def __init__(
        self,
        seed: int,
        *,
        players: tuple[Player, Player] | None = None,
        observer: Callable[[Game, Step], None] | None = None,
    ) -> None:
        self.seed = seed
        game = Game()
        game.rng = GlibcRandom(seed)
        self.game = game
        self.players: tuple[Player, Player] = players if players is not None else (BsdPlayer(), BsdPlayer())
        #: Each seat's dice: the human seat's own, the computer seat the game's.
        self.dice = (GlibcRandom(human_seat_seed(seed)), game.rng)
        self.observer = observer
        self.summary = Summary(seed)
        self._extended = False
        #: Play hands with the fast loop (see the module documentation);
        #: set it to False to drive every decision through observations.
        self.direct = all(type(p) is BsdPlayer for p in self.players)

    def step(self) -> Step | None:
        """Make the next move of the current hand; None when a player with no cards passes.

        Without an observer, the move is made but no :class:`Step` is built
        (the hot path of every benchmark and search).
        """
        game = self.game
        seat = game.to_move
        if game.pending_extension is None and game.players[seat].hand.count(cards.EMPTY) == cards.HAND_SIZE:
            rules.push(game, rules.PASS)
            return None
        move = self.players[seat].choose(observe(game, seat), self.dice[seat])
        kind = move.kind
        if kind is MoveType.ORDER or kind is MoveType.PASS:
            raise SimulationError(f"{self._where(seat)} chose {move}, which is not a legal move")
        observer = self.observer
        before = game.deck_count
        card = game.players[seat].hand[move.slot] if kind is _PLAY or kind is _DISCARD else cards.EMPTY
        try:
            outcome = rules.push(game, move)
        except rules.IllegalPhase as exc:
            raise SimulationError(f"{self._where(seat)}: {exc}") from None
        if outcome.refusal is not None:
            raise SimulationError(f"{self._where(seat)} chose {move} ({cards.name(card)!r}), refused: {outcome.error}")
        if kind is _EXTEND:
            self._extended = True
        if observer is None:
            return None
        if kind is _DRAW:
            moved = tuple(game.deck[i] for i in range(before - 1, game.deck_count - 1, -1))
        elif card != cards.EMPTY:
            moved = (card,)
        else:
            moved = ()
        result = Step(seat, move, outcome, moved)
        observer(game, result)
        return result

    def _where(self, seat: int) -> str:
        return f"seed {self.seed}, hand {self.summary.hands + 1}: {SEAT_LABELS[seat]}"

    def play_hand(self) -> HandResult:
        """Deal and play one whole hand; settle the game if it is over."""
        game = self.game
        summary = self.summary
        if rules.game_over(game):  # cannot happen: settled after each hand
            rules.settle_game(game)
        rules.start_hand(game)
        starter = game.to_move
        self._extended = False
        moves = 0
        step = self.step
        if self.direct and self.observer is None:
            first, second = self.players
            assert isinstance(first, BsdPlayer) and isinstance(second, BsdPlayer)
            moves, _answers = play_out(game, (first.num_need, second.num_need), self.dice)
            self._extended = game.trip_length == EXTENDED_TRIP
        while not game.finished:
            # An answer to Extension? completes the play it belongs to: one move.
            if game.pending_extension is None:
                moves += 1
            step()
            if moves > MAX_MOVES_PER_HAND:
                human, comp = game.players
                raise SimulationError(
                    f"seed {self.seed}, hand {summary.hands + 1}: no end after {MAX_MOVES_PER_HAND} moves "
                    f"(deck {game.deck_count}, mileage {human.mileage}/{comp.mileage}, "
                    f"hands {human.hand}/{comp.hand})"
                )
        human, comp = game.players
        totals = (human.hand_total, comp.hand_total)
        summary.hands += 1
        summary.moves += moves
        summary.points[0] += totals[0]
        summary.points[1] += totals[1]
        if totals[0] != totals[1]:
            summary.hands_won[0 if totals[0] > totals[1] else 1] += 1
        for who in SEATS:
            if game.players[who].mileage == game.trip_length:
                summary.trips[who] += 1
        if self._extended:
            summary.extensions += 1
        over = rules.game_over(game)
        winner: int | None = None
        if over:
            if human.total != comp.total:
                winner = 0 if human.total > comp.total else 1
            rules.settle_game(game)
            summary.games += 1
            summary.games_won[0] = human.games
            summary.games_won[1] = comp.games
        return HandResult(
            totals,
            (human.mileage, comp.mileage),
            moves,
            starter,
            game.trip_length,
            game.deck_count,
            over,
            winner,
        )

    def run(self, hands: int) -> Summary:
        start = time.perf_counter()
        for _ in range(hands):
            self.play_hand()
        self.summary.seconds += time.perf_counter() - start
        return self.summary


def simulate(hands: int, seed: int, players: tuple[Player, Player] | None = None) -> Summary:
    """Play ``hands`` hands from a fresh program run with this seed."""
    return Simulator(seed, players=players).run(hands)


def format_summary(summary: Summary, names: tuple[str, str] = ("bsd", "bsd")) -> str:
    rows = [
        f"mille.sim: {summary.hands} hands, seed {summary.seed}, {names[0]} (human seat) against {names[1]}",
        f"{'':22}{'human':>10}{'computer':>10}",
        f"{'points':22}{summary.points[0]:>10}{summary.points[1]:>10}",
        f"{'hands won':22}{summary.hands_won[0]:>10}{summary.hands_won[1]:>10}",
        f"{'trips completed':22}{summary.trips[0]:>10}{summary.trips[1]:>10}",
        f"{'games won':22}{summary.games_won[0]:>10}{summary.games_won[1]:>10}",
        f"games completed: {summary.games}; extensions: {summary.extensions}; moves: {summary.moves}",
        f"{summary.seconds:.2f} s, {summary.hands_per_second:.1f} hands/s",
    ]
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.sim",
        description="Play whole hands of mille headless between two players "
        "(the BSD computer in both seats by default).",
    )
    parser.add_argument("--hands", type=int, default=100, help="number of hands to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the program run's seed, as the real getpid() (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the summary")
    parser.add_argument("--human", default="bsd", metavar="NAME", help="the human seat's player (default bsd)")
    parser.add_argument("--computer", default="bsd", metavar="NAME", help="the computer seat's player (default bsd)")
    args = parser.parse_args(argv)
    if args.hands < 0:
        parser.error("--hands must not be negative")
    try:
        players = (make_player(args.human), make_player(args.computer))
    except PlayerSpecError as exc:
        parser.error(str(exc))
    try:
        summary = simulate(args.hands, args.seed, players)
    except SimulationError as exc:
        print(f"mille.sim: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        print(format_summary(summary, (args.human, args.computer)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
