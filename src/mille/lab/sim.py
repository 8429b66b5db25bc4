"""Headless games at any table (two players by default): the BSD computer against itself unless told.

    python -m mille.sim --hands 1000 --seed 7 [--json] [--human NAME] [--computer NAME]
    python -m mille.sim --players 4 [--seat NAME ...] ...

At ``--players 3``, ``4`` or ``6`` (the tables of ``table-rules.md`` R1)
the seats are named by ``--seat`` in turn order (unnamed seats play
``bsd``), seat 1 rolls the game's own generator as the computer seat does
at two, every other seat dice of its own; the summary is per side
(A, B and C; seat ``k`` plays for side ``k`` mod the number of sides).

plays whole hands with no screen, games running on across hands with the
5000-point rule exactly as in the interactive program (the starter
alternates every hand, across games too; a game is settled after the hand
in which a total reaches 5000, and a tie wins nobody the game).

Hands are played by the engine's hand driver (:func:`mille.engine.driver.play_hand`):
each seat is a :class:`~mille.players.Player`, shown its seat's
:func:`~mille.engine.observation.observe` and answering with a move, ``Extension?``
included; a seat with no cards passes.  Each seat's card counting is its
own, kept by the rules (:class:`~mille.engine.state.Memory`).  Dice:

* the **computer seat** rolls on the game's own generator, which also
  shuffles, exactly as in the real program;
* the **human seat** rolls on a generator of its own, seeded from the run's
  seed (:func:`human_seat_seed`).

So with the BSD player in the computer seat, a simulated game is one the
real binary plays identically when the human seat's moves are typed into it
with the same seed.  Two plain BSD seats with nobody watching play the
BSD procedure's fast loop (:func:`mille.players.bsd.play_hand`;
``tests/lab/test_sim.py`` checks that it plays the same games as the
observations do).

A player that answers something other than a legal move or raises, and a
hand that does not end (:data:`mille.engine.driver.MAX_MOVES_PER_HAND`), stop the
run with a :class:`SimulationError` (on the command line: one line, status 1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from ..engine import rules
from ..engine.driver import EndlessHand, HandPlay, PlayerError, play_hand
from ..engine.rng import SEED_RULE, GlibcRandom, parse_seed, secret_seed, wide_seed
from ..engine.rules import Move, MoveType, Outcome
from ..engine.state import EXTENDED_TRIP, TABLE_SEATS, Game, table
from ..files.safeio import shown
from ..players import Player, PlayerSpecError, bsd, check_table, is_exec_spec, make_player
from ..players.bsd import BsdPlayer
from .command import ArgumentParser, players_epilog, version_text

#: How the summary names the seats: as in the interactive program, whose
#: computer sits at seat 1 (the ``--human`` and ``--computer`` options).
SEAT_LABELS = ("human", "computer")

_DRAW = MoveType.DRAW
_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD
_EXTEND = MoveType.EXTEND


class SimulationError(RuntimeError):
    """The simulated game went wrong: a player broke the protocol, or a hand did not end."""


def human_seat_seed(seed: int) -> int:
    """Seed of the human seat's own dice, derived from the run's seed."""
    return (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF


def seat_seed(seed: int, seat: int) -> int:
    """Seed of seat ``seat``'s own dice at a larger table (seat 0's is the human seat's)."""
    return human_seat_seed(seed) if seat == 0 else (human_seat_seed(seed) + seat * 0x6A09E667) & 0xFFFFFFFF


def side_labels(seats: int) -> tuple[str, ...]:
    """How the summary names the sides: the two seats of the interactive program, or A, B (and C)."""
    return SEAT_LABELS if seats == 2 else tuple(f"side {'ABC'[s]}" for s in range(table(seats).sides))


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


class StepRecorder:
    """The driver's observer that tells a callback each move as a :class:`Step`."""

    def __init__(self, callback: Callable[[Game, Step], None]) -> None:
        self.callback = callback
        self._deck_count = 0
        self._hand: list[int] = []

    def before_move(self, game: Game) -> None:
        self._deck_count = game.deck_count
        self._hand = game.players[game.to_move].hand[:]

    def after_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        kind = move.kind
        if kind is _DRAW:
            moved = tuple(game.deck[i] for i in range(self._deck_count - 1, game.deck_count - 1, -1))
        elif kind is _PLAY or kind is _DISCARD:
            moved = (self._hand[move.slot],)
        else:
            moved = ()
        self.callback(game, Step(seat, move, outcome, moved))


@dataclass(slots=True)
class Summary:
    """The run's counts, per side (at two seats, per seat: ``labels``)."""

    seed: int
    labels: tuple[str, ...] = SEAT_LABELS
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

    def __post_init__(self) -> None:
        sides = len(self.labels)
        for name in ("points", "games_won", "hands_won", "trips"):
            counts = getattr(self, name)
            counts.extend([0] * (sides - len(counts)))

    def as_dict(self) -> dict[str, object]:
        label = self.labels

        def per_side(counts: list[int]) -> dict[str, int]:
            return {label[s]: counts[s] for s in range(len(label))}

        return {
            "seed": self.seed,
            "hands": self.hands,
            "games": self.games,
            "points": per_side(self.points),
            "games_won": per_side(self.games_won),
            "hands_won": per_side(self.hands_won),
            "trips": per_side(self.trips),
            "extensions": self.extensions,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }


#: Fields of :meth:`Summary.as_dict` that depend on the machine, not the seed.
TIMING_FIELDS = ("seconds", "hands_per_second")


class Simulator:
    """A run of games between two players (the BSD computer in both seats by default), or at any table.

    ``players``: one per seat; their number is the table's (2, 3, 4 or 6).
    ``observer`` (if given) is called after every move with the game and
    the :class:`Step`; it may inspect but must not change the game.
    """

    def __init__(
        self,
        seed: int,
        *,
        players: Sequence[Player] | None = None,
        observer: Callable[[Game, Step], None] | None = None,
        names: Sequence[str] | None = None,
        secret_dice: Collection[int] = (),
    ) -> None:
        self.seed = seed
        seated: tuple[Player, ...] = tuple(players) if players is not None else (BsdPlayer(), BsdPlayer())
        game = Game(table=table(len(seated)))
        game.rng = GlibcRandom(seed)
        self.game = game
        self.players = seated
        #: The players' names, for messages.
        self.names = names
        #: Each seat's dice: the human seat's own, the computer seat (1) the game's; a seat in
        #: ``secret_dice`` (a bot program's, docs/protocol.md) its own drawn from os.urandom, so that
        #: neither the seed nor its rolls give the deck away (issue 36).
        self.dice = tuple(
            GlibcRandom(secret_seed()) if k in secret_dice else game.rng if k == 1 else GlibcRandom(seat_seed(seed, k))
            for k in range(len(seated))
        )
        self.observer = observer
        self.summary = Summary(seed, side_labels(len(seated)))
        #: Two plain BSD seats play their fast loop (:func:`mille.players.bsd.play_hand`,
        #: see the module documentation); False drives every decision
        #: through observations.
        self.fast = True

    def _where(self, seat: int) -> str:
        name = f" ({self.names[seat]})" if self.names is not None else ""
        where = f"the {SEAT_LABELS[seat]} seat" if len(self.players) == 2 else f"seat {seat}"
        return f"seed {self.seed}, hand {self.summary.hands + 1}: {where}{name}"

    def play_hand(self) -> HandPlay:
        """Deal and play one whole hand; settle the game if it is over."""
        game = self.game
        summary = self.summary
        rules.start_hand(game)
        self.dealt()
        recorder = StepRecorder(self.observer) if self.observer is not None else None
        try:
            if self.fast and recorder is None:
                played = bsd.play_hand(game, self.players, self.dice)
            else:
                played = play_hand(game, self.players, self.dice, observer=recorder)
        except PlayerError as exc:
            verb = "raised " if exc.kind == "exception" else ""
            raise SimulationError(f"{self._where(exc.seat)} {verb}{exc.message}") from None
        except EndlessHand as exc:
            raise SimulationError(f"seed {self.seed}, hand {summary.hands + 1}: {exc}") from None
        result = played.result
        summary.hands += 1
        summary.moves += played.moves
        completed = result.trip_completed
        for side in range(len(result.hand_totals)):
            summary.points[side] += result.hand_totals[side]
            summary.trips[side] += completed[side]
        if result.winner is not None:
            summary.hands_won[result.winner] += 1
        if result.trip_length == EXTENDED_TRIP and game.table.extension:
            summary.extensions += 1
        if result.game_over:
            rules.settle_game(game)
            summary.games += 1
            for side in range(game.table.sides):
                summary.games_won[side] = game.players[side].games
        return played

    def dealt(self) -> None:
        """Called after each deal, before the hand's first move (for recorders and checkers); does nothing."""

    def run(self, hands: int) -> Summary:
        start = time.perf_counter()
        for _ in range(hands):
            self.play_hand()
        self.summary.seconds += time.perf_counter() - start
        return self.summary


def simulate(
    hands: int,
    seed: int,
    players: Sequence[Player] | None = None,
    names: Sequence[str] | None = None,
    secret_dice: Collection[int] = (),
) -> Summary:
    """Play ``hands`` hands from a fresh program run with this seed."""
    return Simulator(seed, players=players, names=names, secret_dice=secret_dice).run(hands)


def format_summary(summary: Summary, names: Sequence[str] = ("bsd", "bsd")) -> str:
    if len(summary.labels) == 2 and len(names) == 2:
        head = (
            f"mille.sim: {summary.hands} hands, seed {summary.seed}, {shown(names[0])} (human seat) "
            f"against {shown(names[1])}"
        )
    else:
        seats = ", ".join(f"{shown(name)} ({summary.labels[k % len(summary.labels)]})" for k, name in enumerate(names))
        head = f"mille.sim: {summary.hands} hands, seed {summary.seed}, {len(names)} seats: {seats}"

    def row(title: str, counts: list[int]) -> str:
        return f"{title:22}" + "".join(f"{c:>10}" for c in counts)

    labels = [label.split()[-1] if len(summary.labels) == 2 else label for label in summary.labels]
    rows = [
        head,
        f"{'':22}" + "".join(f"{label:>10}" for label in labels),
        row("points", summary.points),
        row("hands won", summary.hands_won),
        row("trips completed", summary.trips),
        row("games won", summary.games_won),
        f"games completed: {summary.games}; extensions: {summary.extensions}; moves: {summary.moves}",
        f"{summary.seconds:.2f} s, {summary.hands_per_second:.1f} hands/s",
    ]
    return "\n".join(rows)


def _seed_argument(text: str) -> int:
    """argparse's ``type`` for ``--seed``: the rule of ``mille --seed`` (:data:`~mille.engine.rng.SEED_RANGE`).

    The seed stands for the original's process ID, as ``mille``'s does, so
    the two commands take the same seeds: 0 would deal seed 1's cards.
    """
    value = parse_seed(text, wide=True)  # a seed drawn at random, given again, too
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed: {SEED_RULE}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(
        prog="python -m mille.sim",
        description="Play whole hands of mille headless between two players "
        "(the BSD computer in both seats by default).",
        epilog=players_epilog(),
    )
    parser.add_argument("--version", action="version", version=version_text("mille.sim"))
    parser.add_argument("--hands", type=int, default=100, help="number of hands to play (default 100)")
    parser.add_argument(
        "--seed",
        type=_seed_argument,
        default=None,
        help="the program run's seed, as the real getpid() (default 1; with a bot program in a seat, drawn at "
        "random and said at the end: a typed seed is public, docs/protocol.md)",
    )
    parser.add_argument(
        "--bot-reads-deck",
        action="store_true",
        help="this bot can read the deck: exec: bots roll the dice an in-process player would (the computer "
        "seat's, the game's own generator) instead of dice of their own",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the summary")
    parser.add_argument("--human", default="bsd", metavar="NAME", help="the human seat's player (default bsd)")
    parser.add_argument("--computer", default="bsd", metavar="NAME", help="the computer seat's player (default bsd)")
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        choices=TABLE_SEATS,
        help="the table: 2 (the original), 3 each for themselves, 4 or 6 in partnerships (default 2)",
    )
    parser.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="NAME",
        help="at --players 3, 4 or 6: the next seat's player, in turn order (unnamed seats: bsd)",
    )
    args = parser.parse_args(argv)
    if args.hands < 0:
        parser.error("--hands must not be negative")
    if args.players == 2:
        if args.seat:
            parser.error("--seat is for --players 3, 4 or 6 (two seats: --human and --computer)")
        names = [args.human, args.computer]
    else:
        if len(args.seat) > args.players:
            parser.error(f"--seat given {len(args.seat)} times for {args.players} seats")
        names = args.seat + ["bsd"] * (args.players - len(args.seat))
    try:
        players = [make_player(name) for name in names]
        for name, player in zip(names, players):  # a bot of protocol 1 alone: one line, not a failure at its move
            check_table(player, name, args.players)
    except PlayerSpecError as exc:
        parser.error(str(exc))
    secret = () if args.bot_reads_deck else [k for k, name in enumerate(names) if is_exec_spec(name)]
    drawn = args.seed is None and bool(secret)
    seed = wide_seed() if drawn else 1 if args.seed is None else args.seed
    try:
        summary = simulate(args.hands, seed, players, names, secret)
    except SimulationError as exc:
        print(f"mille.sim: {shown(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        print(format_summary(summary, names))
        if drawn:
            from .report import replay_line  # the match's line (only then: the report's imports are a match's)

            print(replay_line(seed).strip())
    return 0


__all__ = [
    "SimulationError",
    "Simulator",
    "Step",
    "StepRecorder",
    "Summary",
    "format_summary",
    "human_seat_seed",
    "main",
    "seat_seed",
    "side_labels",
    "simulate",
]
