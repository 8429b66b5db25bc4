"""The records of a match: each game of a duplicate pair, the pair, a forfeit, and their JSON.

A :class:`GameRecord` is one game seen from player A's side: the margin of
every hand finished, the points, the winner, and the :class:`Fault` that
ended it, if a player forfeited.  A :class:`PairResult` holds a pair's two
games and both players' think times over them.  They are what the match
plays (:mod:`mille.lab.pairs`), what the runner hands back from a worker
(:mod:`mille.lab.runner`: they pickle), what the reports summarize
(:mod:`mille.lab.report`), and, as JSON (:meth:`PairResult.to_json`), a
line of a tournament's results file (:mod:`mille.lab.results`), read back
by ``from_json``, which refuses anything it did not write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .stats import ThinkStats, think_from_json, think_to_json


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a player lost a game by forfeit."""

    player: int  # 0: A, 1: B
    kind: str  # "illegal", "exception" or "timeout"
    message: str
    hand: int  # 0-based hand of the game in which it happened


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a pair, from A's side."""

    pair: int
    second: bool  # the seat-swapped game of the pair
    a_seat: int
    #: A's hand total minus B's, for every hand finished (a forfeited hand is not counted).
    margins: tuple[int, ...]
    a_points: int  # A's points over the finished hands
    b_points: int
    #: 0 (A won), 1 (B won) or None (a tie: equal totals at the end).
    winner: int | None
    fault: Fault | None = None

    @property
    def index(self) -> int:
        """The game's 0-based number in the match."""
        return 2 * self.pair + int(self.second)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (a results file's, :mod:`mille.lab.results`); :meth:`from_json` inverts it."""
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
        """The record :meth:`to_json` gave (of pair ``pair``); ValueError for anything else."""
        fields = {"second", "a_seat", "margins", "a_points", "b_points", "winner", "fault"}
        if not isinstance(data, dict) or set(data) != fields:
            raise ValueError(f"a game must have exactly the fields {', '.join(sorted(fields))}")
        margins = data["margins"]
        if not isinstance(margins, list) or not all(type(m) is int for m in margins):
            raise ValueError("a game's margins must be a list of integers")
        if type(data["second"]) is not bool or data["a_seat"] not in (0, 1) or type(data["a_seat"]) is not int:
            raise ValueError("bad second or a_seat in a game")
        if type(data["a_points"]) is not int or type(data["b_points"]) is not int:
            raise ValueError("a game's points must be integers")
        if data["winner"] not in (0, 1, None) or type(data["winner"]) is bool:
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
            data["second"],
            data["a_seat"],
            tuple(margins),
            data["a_points"],
            data["b_points"],
            data["winner"],
            fault,
        )


@dataclass(slots=True)
class PairResult:
    """A duplicate pair: both games, and both players' think times over them.

    ``moves``: with ``--record``, each game's hands move by move as a game
    record writes them (:mod:`mille.lab.gamelog`); not part of the JSON of
    a results file.
    """

    pair: int
    games: tuple[GameRecord, GameRecord]
    think: tuple[ThinkStats, ThinkStats]
    moves: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None

    @property
    def hands(self) -> int:
        return len(self.games[0].margins) + len(self.games[1].margins)

    @property
    def margin(self) -> int:
        return sum(self.games[0].margins) + sum(self.games[1].margins)

    @property
    def a_score(self) -> float:
        """A's game points in the pair: 1 a win, 1/2 a tie (0, 0.5, ... 2)."""
        return sum(1.0 if g.winner == 0 else 0.5 if g.winner is None else 0.0 for g in self.games)

    def to_json(self) -> dict[str, Any]:
        """The pair as JSON: :meth:`from_json` gives back an equal result, think-time histograms included."""
        return {
            "pair": self.pair,
            "games": [g.to_json() for g in self.games],
            "think": [think_to_json(t) for t in self.think],
        }

    @classmethod
    def from_json(cls, data: object) -> PairResult:
        """The result :meth:`to_json` gave; ValueError (with what is wrong) for anything else."""
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


__all__ = ["Fault", "GameRecord", "PairResult"]
