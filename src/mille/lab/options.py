"""One set of run options for the lab's runs, and the one path that writes their games to a record.

:func:`mille.lab.match.run_match` and
:func:`mille.lab.tournament.run_tournament` took the same dozen keyword
arguments and wrote their games to a record each in its own way (issue 37's
reshaping paragraph): both now take a :class:`RunOptions` (what decides
the games — the seed, the think-time limit, the game's length, whether
bots read the deck —, the game record to write, and where the sets are
played) and hand the sets to :meth:`RunOptions.run`, which plays them on
:func:`~mille.lab.runner.run_batches` and writes the games to the record
(:class:`GameRecorder`) when asked, at every table.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine.scoring import GAME_POINTS
from . import gamelog
from .gamelog import RecordWriter
from .records import MatchConfig, SetResult
from .runner import Batch, default_jobs, run_batches


@dataclass(frozen=True, slots=True)
class RunOptions:
    """The options a match and a tournament share (``docs/bots.md``, ``docs/tournaments.md``).

    ``seed``, ``max_think_ms``, ``game_points`` (the original: 5000; shorter
    for tests) and ``bots_read_deck``
    (:attr:`~mille.lab.records.MatchConfig.bots_read_deck`) decide the games;
    ``record``, a new file, receives every game move by move
    (:mod:`mille.lab.gamelog`); ``jobs`` (default: the machine's cores),
    ``executor``, ``workers``, ``max_in_flight`` and ``pairs_per_task``
    say where they are played (:func:`~mille.lab.runner.run_batches`).
    """

    seed: int = 1
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS
    bots_read_deck: bool = False
    record: Path | None = None
    jobs: int | None = None
    executor: concurrent.futures.Executor | None = None
    workers: int | None = None
    max_in_flight: int | None = None
    pairs_per_task: int | None = None

    def check(self) -> None:
        """ValueError for options no run can take (the command lines say it in their own words first)."""
        if self.pairs_per_task is not None and self.pairs_per_task < 1:
            raise ValueError("pairs_per_task must be at least 1")
        if self.game_points < 1:
            raise ValueError("game_points must be at least 1")

    def where(self, **placement: Any) -> RunOptions:
        """These options played elsewhere: ``jobs``, or ``executor`` and ``workers`` (as
        :func:`mille.lab.command.execute` says)."""
        return replace(self, **placement)

    def recorder(
        self, tool: str, players: Sequence[str], seats: int = 2, per_match: tuple[str, int] | None = None
    ) -> GameRecorder | None:
        """The writer of the run's games (``record`` given), its first line naming ``tool`` and what decides its games.

        That is the table (at the larger tables), the ``players`` (a
        match at two seats names A and B), these options' seed, a
        tournament's sets a match (``per_match``: its name and number), the
        game's points and the think-time limit, in the order each tool has
        always written them.
        """
        if self.record is None:
            return None
        arguments: dict[str, Any] = {} if seats == 2 else {"seats": seats}
        if seats == 2 and per_match is None:
            arguments.update(a=players[0], b=players[1])
        else:
            arguments["players"] = list(players)
        arguments["seed"] = self.seed
        if per_match is not None:
            arguments[per_match[0]] = per_match[1]
        arguments.update(game_points=self.game_points, max_think_ms=self.max_think_ms)
        return GameRecorder(RecordWriter(self.record, gamelog.header(tool, **arguments)))

    def run(
        self,
        pairs: Iterable[tuple[MatchConfig, int]],
        record: Callable[[Batch, list[SetResult]], bool],
        recorder: GameRecorder | None,
    ) -> bool:
        """:func:`~mille.lab.runner.run_batches` where these options say; True if Ctrl-C stopped it.

        The games' moves are sent back only when they are written (``recorder``).
        """
        return run_batches(
            pairs,
            record,
            jobs=default_jobs() if self.jobs is None else max(1, self.jobs),
            executor=self.executor,
            workers=self.workers,
            max_in_flight=self.max_in_flight,
            pairs_per_task=self.pairs_per_task,
            moves=recorder is not None,
        )


#: The options of a run given none (frozen, so one shared default is safe).
DEFAULTS = RunOptions()


class GameRecorder:
    """The one path by which a run's games reach its record, at every table: a set's games, then its moves let go."""

    def __init__(self, writer: RecordWriter) -> None:
        self.writer = writer

    def write(self, match: MatchConfig, result: SetResult) -> None:
        """``result``'s games, played in ``match``, as record lines; the moves are then dropped (memory)."""
        if result.moves is None:
            return
        for game, hands in zip(result.games, result.moves):
            self.writer.write(gamelog.game_line(match, game, hands))
        result.moves = None

    def close(self) -> None:
        self.writer.close()


__all__ = ["DEFAULTS", "GameRecorder", "RunOptions"]
