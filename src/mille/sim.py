"""Headless games of the BSD computer against itself.

    python -m mille.sim --hands 1000 --seed 7 [--json]

plays whole hands with no screen, games running on across hands with the
5000-point rule exactly as in the interactive program (the starter
alternates every hand, across games too; a game is settled after the hand
in which a total reaches 5000, and a tie wins nobody the game).

What "the BSD strategy in both seats" means
-------------------------------------------

* The **computer seat** is the real program's computer, untouched: it
  decides with :func:`mille.computer.decide` on the game itself, with the
  game's own card-counting tables (``num_seen``, ``num_gos``, ``num_need``),
  which :func:`mille.rules.push` and :func:`mille.rules.deal` keep exactly as
  the original does, and it rolls its safety-timing dice on the game's
  generator.

* The **human seat** runs the same procedure from its own point of view.
  For each of its decisions the simulator shows :func:`decide` a *mirror
  image* of the game: the two tableaus swapped, so that the mover sits in
  the computer's slot, the player to move set to that slot, and the human
  seat's *own* counting tables and generator swapped in.  Everything is put
  back afterwards (the tableaus themselves are never copied or modified,
  except that the human's safety statuses are shown as the computer would
  keep them, see below).  The mirror tables are fed the way the original
  feeds the computer's, from the other side of the table: the human seat's
  dealt and drawn cards and the computer's plays and discards are counted
  with :func:`mille.rules.account`, and ``num_gos`` moves only while the
  human seat is the player to move (its own draws, and its own deal when it
  starts the hand); its ``num_need`` starts from the original's table and is
  never reset, as the computer's isn't.  The original marks only the
  computer's own safeties "in hand"; the mirror shows the human's held,
  unplayed safeties as in hand to :func:`decide`, which is what the
  original's bookkeeping would give a computer holding them.  The rules only
  ever ask whether a safety was *played*, so this view changes no legality.

* The human seat's dice come from a generator of its own (seeded from the
  run's seed), so the game's generator is consumed only by the shuffles and
  the computer seat's rolls, exactly as in the real program.  A simulated
  game is therefore one the real binary plays identically when the human
  seat's moves are typed into it with the same seed.

* Extensions: whoever lands exactly on 700 decides with
  :func:`mille.computer.would_extend`, from their own point of view (the
  human seat through the same mirror).

Guards: a move the rules refuse (the original's computer would then repeat
it forever) and a hand that runs past :data:`MAX_MOVES_PER_HAND` moves both
raise :class:`SimulationError`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import cards, rules
from .computer import Decision, decide, would_extend
from .rng import GlibcRandom
from .rules import MoveType, Outcome
from .state import COMPUTER, HUMAN, INITIAL_NUM_NEED, Game, SafetyStatus, Tableau

#: No real hand comes near this (the longest in 5000 simulated hands had 190
#: moves): every move but a draw or a safety passes the turn or removes a card.
MAX_MOVES_PER_HAND = 1000

SEATS = ("human", "computer")

_EMPTY = cards.EMPTY
_SAFETY_BASE = cards.SAFETY_BASE
_IN_HAND = SafetyStatus.IN_HAND
_UNKNOWN = SafetyStatus.UNKNOWN
_DRAW = MoveType.DRAW


#: What the mirror view replaces: players, play, num_seen, num_gos, num_need,
#: rng, and the human tableau's safety list.
_Saved = tuple[list[Tableau], int, list[int], int, list[int], GlibcRandom, list[int]]


class SimulationError(RuntimeError):
    """The simulated game went wrong: an illegal move, or an endless hand."""


def human_seat_seed(seed: int) -> int:
    """Seed of the human seat's own dice, derived from the run's seed."""
    return (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF


@dataclass(slots=True)
class CountingTables:
    """One seat's card counting, as the original keeps it for the computer."""

    num_seen: list[int] = field(default_factory=lambda: [0] * cards.NUM_TABLE)
    num_gos: int = 0
    num_need: list[int] = field(default_factory=lambda: list(INITIAL_NUM_NEED))


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a simulated hand, for observers (the property tests).

    ``cards`` are the cards the move took out of the deck (a draw: one or
    two) or out of the mover's hand (a successful play or discard).
    """

    player: int
    decision: Decision
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
            "points": {SEATS[0]: self.points[0], SEATS[1]: self.points[1]},
            "games_won": {SEATS[0]: self.games_won[0], SEATS[1]: self.games_won[1]},
            "hands_won": {SEATS[0]: self.hands_won[0], SEATS[1]: self.hands_won[1]},
            "trips": {SEATS[0]: self.trips[0], SEATS[1]: self.trips[1]},
            "extensions": self.extensions,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }


#: Fields of :meth:`Summary.as_dict` that depend on the machine, not the seed.
TIMING_FIELDS = ("seconds", "hands_per_second")


class Simulator:
    """A run of games between two copies of the BSD computer.

    ``observer`` (if given) is called after every move with the game and the
    :class:`Step`; it may inspect but must not change the game.
    """

    def __init__(self, seed: int, *, observer: Callable[[Game, Step], None] | None = None) -> None:
        self.seed = seed
        game = Game()
        game.rng = GlibcRandom(seed)
        self.game = game
        #: The human seat's own counting tables and dice (see the module doc).
        self.mirror = CountingTables()
        self.mirror_rng = GlibcRandom(human_seat_seed(seed))
        self.observer = observer
        self.summary = Summary(seed)
        self._extension_decider: rules.ExtensionDecider = self._decide_extension
        self._extended = False

    # ------------------------------------------------------------------
    # The human seat's point of view

    def _enter_mirror(self) -> _Saved:
        """Put the human seat in the computer's place; returns what to restore."""
        game = self.game
        human, comp = game.players
        saved: _Saved = (game.players, game.play, game.num_seen, game.num_gos, game.num_need, game.rng, human.safety)
        view = human.safety
        for card in human.hand:
            if card >= _SAFETY_BASE and view[card - _SAFETY_BASE] == _UNKNOWN:
                if view is saved[-1]:
                    view = view[:]  # never change the real tableau's list
                view[card - _SAFETY_BASE] = _IN_HAND
        human.safety = view
        mirror = self.mirror
        game.players = [comp, human]
        game.play = COMPUTER
        game.num_seen = mirror.num_seen
        game.num_gos = mirror.num_gos
        game.num_need = mirror.num_need
        game.rng = self.mirror_rng
        return saved

    def _leave_mirror(self, saved: _Saved) -> None:
        game = self.game
        players, play, num_seen, num_gos, num_need, rng, safety = saved
        human = game.players[COMPUTER]
        human.safety = safety
        self.mirror.num_gos = game.num_gos
        game.players = players
        game.play = play
        game.num_seen = num_seen
        game.num_gos = num_gos
        game.num_need = num_need
        game.rng = rng

    def decide_for(self, player: int) -> Decision:
        """The BSD decision for ``player`` (the player to move)."""
        if player == COMPUTER:
            return decide(self.game)
        saved = self._enter_mirror()
        try:
            return decide(self.game)
        finally:
            self._leave_mirror(saved)

    def _decide_extension(self, game: Game, slot: int) -> bool:
        if game.play == COMPUTER:
            extend = would_extend(game)
        else:
            saved = self._enter_mirror()
            try:
                extend = would_extend(game)
            finally:
                self._leave_mirror(saved)
        self._extended = extend
        return extend

    def _mirror_account(self, card: int, owner_to_move: bool) -> None:
        """Count a card in the human seat's tables, with the original's ``account``."""
        game = self.game
        saved = (game.num_seen, game.num_gos, game.play)
        game.num_seen = self.mirror.num_seen
        game.num_gos = self.mirror.num_gos
        game.play = COMPUTER if owner_to_move else HUMAN
        try:
            rules.account(game, card)
        finally:
            self.mirror.num_gos = game.num_gos
            game.num_seen, game.num_gos, game.play = saved

    def _mirror_deal(self) -> None:
        """The human seat's tables at a deal: its six cards, counted in order."""
        mirror = self.mirror
        mirror.num_seen = [0] * cards.NUM_TABLE
        mirror.num_gos = 0
        owner_starts = self.game.play == HUMAN
        for card in self.game.players[HUMAN].hand[1:]:
            self._mirror_account(card, owner_starts)

    # ------------------------------------------------------------------
    # Playing

    def step(self) -> Step | None:
        """Make the next move of the current hand; None when a player is skipped."""
        game = self.game
        player = game.play
        pp = game.players[player]
        hand = pp.hand
        if hand.count(_EMPTY) == cards.HAND_SIZE:
            # Nothing in hand: play passes, and nobody decides anything.
            game.play = 1 - player
            return None
        decision = self.decide_for(player)
        move = decision.move
        kind = move.kind
        before = game.deck_count
        card = hand[move.slot]
        outcome = rules.push(game, move, self._extension_decider)
        if outcome.error is not None:
            raise SimulationError(
                f"seed {self.seed}, hand {self.summary.hands + 1}: {SEATS[player]} chose {move} "
                f"({cards.name(card)!r}), refused: {outcome.error}"
            )
        if kind is _DRAW:
            moved = tuple(game.deck[i] for i in range(before - 1, game.deck_count - 1, -1))
            if player == HUMAN:
                for drawn in moved:
                    self._mirror_account(drawn, True)
        else:
            moved = (card,)
            if player == COMPUTER:
                self._mirror_account(card, False)
        result = Step(player, decision, outcome, moved)
        if self.observer is not None:
            self.observer(game, result)
        return result

    def play_hand(self) -> HandResult:
        """Deal and play one whole hand; settle the game if it is over."""
        game = self.game
        summary = self.summary
        if rules.game_over(game):  # cannot happen: settled after each hand
            rules.settle_game(game)
        rules.start_hand(game)
        starter = game.play
        self._mirror_deal()
        self._extended = False
        moves = 0
        step = self.step
        while not game.finished:
            step()
            moves += 1
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
        for who in (HUMAN, COMPUTER):
            if game.players[who].mileage == game.end:
                summary.trips[who] += 1
        if self._extended:
            summary.extensions += 1
        over = rules.game_over(game)
        winner: int | None = None
        if over:
            if human.total != comp.total:
                winner = HUMAN if human.total > comp.total else COMPUTER
            rules.settle_game(game)
            summary.games += 1
            summary.games_won[0] = human.games
            summary.games_won[1] = comp.games
        return HandResult(
            totals,
            (human.mileage, comp.mileage),
            moves,
            starter,
            game.end,
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


def simulate(hands: int, seed: int) -> Summary:
    """Play ``hands`` hands from a fresh program run with this seed."""
    return Simulator(seed).run(hands)


def format_summary(summary: Summary) -> str:
    rows = [
        f"mille.sim: {summary.hands} hands, seed {summary.seed}, BSD computer strategy in both seats",
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
        description="Play whole hands of mille headless, the BSD computer strategy in both seats.",
    )
    parser.add_argument("--hands", type=int, default=100, help="number of hands to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the program run's seed, as the real getpid() (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the summary")
    args = parser.parse_args(argv)
    if args.hands < 0:
        parser.error("--hands must not be negative")
    try:
        summary = simulate(args.hands, args.seed)
    except SimulationError as exc:
        print(f"mille.sim: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        print(format_summary(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
