"""A match and its records: what decides its games, each game, a set of them, a forfeit, and their JSON.

A match is played in **sets**: one game per rotation of its players over
the table's sides, every game of a set dealt the same hands
(:mod:`mille.lab.play`); at two seats a set is a **duplicate pair**, its
second game the first with the seats swapped.  A :class:`MatchConfig` is
what decides a match's games (the players, the table, the seed, the
limits).  A :class:`GameRecord` is one game, by player (player 0 is A, 1
is B, 2 is C, as the match names them): its hands, each player's points,
the winners, and the :class:`Fault` that ended it, if a player forfeited;
a :class:`SetResult` holds a set's games and each player's think times
over them (:data:`PairResult`, its name at two seats).  They are what the
match plays, what the runner hands back from a worker
(:mod:`mille.lab.runner`: they pickle), what the reports summarize
(:mod:`mille.lab.report`) and, as JSON, a line of a tournament's results
file (:mod:`mille.lab.results`), read back by the ``from_`` methods, which
refuse anything they did not write.  The JSON is the one each table has
always written: a pair's at two seats (:meth:`SetResult.to_json`, with
A's margin in every hand and the think times), a set's game at the larger
tables (:meth:`GameRecord.to_table_json`: its hands, points and winners).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.scoring import GAME_POINTS
from ..engine.state import table
from .stats import ThinkStats, think_from_json, think_to_json

#: A hand as a game record writes it (:mod:`mille.lab.gamelog`): {"starter", "deal_seed", "moves", "result"}.
HandLog = dict[str, Any]

#: Guards against an engine bug looping forever (no real game comes near; the driver guards each hand,
#: :data:`mille.engine.driver.MAX_MOVES_PER_HAND`): a game has at most this many hands.
MAX_HANDS_PER_GAME = 1000

#: More than any player scores in one hand (the most is 4,600: 1,000 miles, four safeties and
#: their bonus, four coups fourrés, and every end-of-hand bonus at once).
MOST_HAND_POINTS = 10_000

#: The longest forfeit message a larger table's results file keeps (a player's exception, cut).
MOST_MESSAGE = 2000


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What decides a match's games, and what a worker needs to play its sets (picklable).

    ``a``, ``b`` and, at three sides (3 and 6 seats), ``c``: the players,
    one per side; ``seats``: the table (:func:`mille.engine.state.table`),
    two by default, the original's.
    """

    a: str
    b: str
    seed: int
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS
    #: ``--bot-reads-deck``: a bot program (``exec:``) rolls the dice an
    #: in-process player would (:func:`~mille.lab.play.dice_seed`, public for a public seed);
    #: otherwise its dice are drawn from ``os.urandom`` for every game.
    bots_read_deck: bool = False
    seats: int = 2
    c: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """The players in the order named: one per side."""
        return (self.a, self.b) if self.c is None else (self.a, self.b, self.c)

    @property
    def sides(self) -> int:
        """The table's sides: the games of a set (its rotations)."""
        return table(self.seats).sides


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a player lost a game by forfeit."""

    player: int  # 0: A, 1: B, 2: C
    kind: str  # "illegal", "exception" or "timeout"
    message: str
    hand: int  # 0-based hand of the game in which it happened: the number of hands finished


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a set, by player: rotation ``rotation`` of set ``unit`` (both 0-based)."""

    unit: int
    rotation: int
    #: The hands finished (a forfeited hand is not counted).
    hands: int
    #: Each player's points over the finished hands.
    points: tuple[int, ...]
    #: The players who won: one, or those tied for the most points, or every player but one who forfeited.
    winners: tuple[int, ...]
    fault: Fault | None = None
    #: At two seats, A's hand total less B's in every hand finished (the larger tables' results files keep none).
    margins: tuple[int, ...] = ()

    def score(self, player: int) -> float:
        """``player``'s game points: 1 a win, a tie shared among the winners, 0 a loss."""
        return 1.0 / len(self.winners) if player in self.winners else 0.0

    # The two-seat game's names: a duplicate pair's game, from A's side.

    @property
    def pair(self) -> int:
        return self.unit

    @property
    def second(self) -> bool:
        """The seat-swapped game of a pair (rotation 1)."""
        return self.rotation == 1

    @property
    def a_seat(self) -> int:
        """A's side (at two seats, its seat): a rotation moves every player as many sides on."""
        return self.rotation

    @property
    def a_points(self) -> int:
        return self.points[0]

    @property
    def b_points(self) -> int:
        return self.points[1]

    @property
    def winner(self) -> int | None:
        """The one winner, or None for a tie."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def index(self) -> int:
        """The game's 0-based number in the match."""
        return len(self.points) * self.unit + self.rotation

    def to_json(self) -> dict[str, Any]:
        """A two-seat game as JSON (in a results file, :mod:`mille.lab.results`); :meth:`from_json` inverts it."""
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
        """The two-seat game :meth:`to_json` gave (of pair ``pair``); ValueError for anything else."""
        fields = {"second", "a_seat", "margins", "a_points", "b_points", "winner", "fault"}
        if not isinstance(data, dict) or set(data) != fields:
            raise ValueError(f"a game must have exactly the fields {', '.join(sorted(fields))}")
        margins = data["margins"]
        if not isinstance(margins, list) or not all(type(m) is int for m in margins):
            raise ValueError("a game's margins must be a list of integers")
        if type(data["second"]) is not bool or data["a_seat"] not in (0, 1) or type(data["a_seat"]) is not int:
            raise ValueError("bad second or a_seat in a game")
        if data["a_seat"] != int(data["second"]):
            which = "the second game" if data["second"] else "the first game"
            raise ValueError(f"{which}: player A in seat {data['a_seat']}, where it never sits in that game")
        if type(data["a_points"]) is not int or type(data["b_points"]) is not int:
            raise ValueError("a game's points must be integers")
        winner = data["winner"]
        if winner not in (0, 1, None) or type(winner) is bool:
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
            int(data["second"]),
            len(margins),
            (data["a_points"], data["b_points"]),
            (0, 1) if winner is None else (winner,),
            fault,
            tuple(margins),
        )

    def to_table_json(self) -> dict[str, Any]:
        """A game of a larger table as its results file keeps it (no moves: those go to ``--record``)."""
        fault = self.fault
        return {
            "rotation": self.rotation,
            "hands": self.hands,
            "points": list(self.points),
            "winners": list(self.winners),
            "fault": None if fault is None else [fault.player, fault.kind, fault.message[:MOST_MESSAGE]],
        }

    @classmethod
    def from_table_json(cls, unit: int, data: object, sides: int) -> GameRecord:
        """A game of set ``unit`` at a table of ``sides`` read back: ValueError for anything of the wrong shape."""
        if not isinstance(data, dict) or set(data) != {"rotation", "hands", "points", "winners", "fault"}:
            raise ValueError("a game has exactly the fields rotation, hands, points, winners and fault")
        rotation = whole(data["rotation"], "a rotation", 0, sides - 1)
        hands = whole(data["hands"], "a game's hands", 0, MAX_HANDS_PER_GAME)
        points, winners, fault = data["points"], data["winners"], data["fault"]
        if not isinstance(points, list) or len(points) != sides:
            raise ValueError(f"a game's points are not {sides} numbers")
        if not isinstance(winners, list) or not 1 <= len(winners) <= sides:
            raise ValueError("a game's winners are not a list of players")
        made = None
        if fault is not None:
            if not (
                isinstance(fault, list) and len(fault) == 3 and isinstance(fault[1], str) and isinstance(fault[2], str)
            ):
                raise ValueError("a forfeit is not [player, kind, message]")
            player = whole(fault[0], "a forfeiting player", 0, sides - 1)
            made = Fault(player, fault[1][:100], fault[2][:MOST_MESSAGE], hands)
        return cls(
            unit,
            rotation,
            hands,
            tuple(whole(p, "a game's points", 0, max(hands, 1) * MOST_HAND_POINTS) for p in points),
            tuple(whole(w, "a winner", 0, sides - 1) for w in winners),
            made,
        )


def side_of(player: int, rotation: int, sides: int) -> int:
    """The side ``player`` plays in ``rotation``: rotation *r* moves every player *r* sides on.

    >>> [side_of(0, r, 2) for r in range(2)], [side_of(2, r, 3) for r in range(3)]
    ([0, 1], [2, 0, 1])
    """
    return (player + rotation) % sides


def whole(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else ValueError saying ``what`` it is not."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} is not a whole number from {low} to {high}")
    return value


@dataclass(slots=True)
class SetResult:
    """A set: its games, one per rotation, and each player's think times over them.

    ``moves``: with ``--record``, each game's hands move by move as a game
    record writes them (:mod:`mille.lab.gamelog`); not part of the JSON of
    a results file.
    """

    unit: int
    games: tuple[GameRecord, ...]
    think: tuple[ThinkStats, ...]
    moves: tuple[list[HandLog], ...] | None = None

    @property
    def pair(self) -> int:
        """The set's index: at two seats, the pair's."""
        return self.unit

    @property
    def hands(self) -> int:
        return sum(g.hands for g in self.games)

    @property
    def margin(self) -> int:
        """At two seats, A's margin over the pair's hands."""
        return sum(sum(g.margins) for g in self.games)

    def score(self, player: int) -> float:
        """``player``'s game points in the set (0 .. the games)."""
        return sum(g.score(player) for g in self.games)

    @property
    def a_score(self) -> float:
        """A's game points in the set: at two seats, 1 a win, 1/2 a tie (0, 0.5, ... 2)."""
        return self.score(0)

    def to_json(self) -> dict[str, Any]:
        """A two-seat pair as JSON: :meth:`from_json` gives back an equal result, think-time histograms included."""
        return {
            "pair": self.unit,
            "games": [g.to_json() for g in self.games],
            "think": [think_to_json(t) for t in self.think],
        }

    @classmethod
    def from_json(cls, data: object) -> SetResult:
        """The two-seat pair :meth:`to_json` gave; ValueError (with what is wrong) for anything else."""
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


#: A set at two seats: a duplicate pair.
PairResult = SetResult


__all__ = [
    "MAX_HANDS_PER_GAME",
    "MOST_HAND_POINTS",
    "MOST_MESSAGE",
    "Fault",
    "GameRecord",
    "HandLog",
    "MatchConfig",
    "PairResult",
    "SetResult",
    "side_of",
]
