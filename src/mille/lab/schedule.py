"""A tournament's schedule: its matches, their seeds, and the order its sets are played in.

A :class:`TournamentConfig` is what decides a tournament's results: every
group of as many players as the table has sides (in name order; at two
seats every pairing, the earlier-named as A) is a match of its own
(:meth:`TournamentConfig.match_config`), whose seed is derived from the
tournament seed and the names (:func:`pairing_seed`, :func:`table_seed`),
so that a cell of the crosstable is the report ``mille.match A B --seed
<pairing seed>`` would give, and a table's the report of ``mille.match
--players N``.  :func:`pairs_to_play` lists the sets a run still has to
play.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine.scoring import GAME_POINTS
from ..engine.state import table
from .play import derive_seed
from .records import MatchConfig, SetResult


def pairing_seed(seed: int, a: str, b: str) -> int:
    """The match seed of the pairing of ``a`` (player A) and ``b`` in the two-seat tournament of seed ``seed``."""
    return derive_seed("tournament", seed, a, b)


def table_seed(seed: int, seats: int, group: Sequence[str]) -> int:
    """The match seed of a group of players (one per side) in the tournament of seed ``seed`` at a larger table."""
    return derive_seed("table-tournament", seed, seats, *group)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What decides a tournament's results (and so must match in a file to resume)."""

    players: tuple[str, ...]
    pairs: int  # sets per match: at two seats, duplicate pairs per pairing
    seed: int = 1
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS
    #: ``--bot-reads-deck`` (:attr:`MatchConfig.bots_read_deck`); not in a results file's header.
    bots_read_deck: bool = False
    seats: int = 2

    @property
    def sides(self) -> int:
        return table(self.seats).sides

    @property
    def pairings(self) -> list[tuple[int, ...]]:
        """Every match: each group of as many players as there are sides, in name order (at two seats ``(i, j)``,
        ``i < j``: player ``i`` is A)."""
        return list(itertools.combinations(range(len(self.players)), self.sides))

    @property
    def anchor(self) -> int:
        """The player whose rating is fixed (:data:`mille.lab.standings.ANCHOR_RATING`): ``bsd``, else the first."""
        return self.players.index("bsd") if "bsd" in self.players else 0

    def match_config(self, *group: int) -> MatchConfig:
        """The match of the players ``group`` (by index: at two seats, A's and B's)."""
        names = [self.players[i] for i in group]
        if self.seats == 2:
            seed = pairing_seed(self.seed, names[0], names[1])
        else:
            seed = table_seed(self.seed, self.seats, names)
        c = names[2] if len(names) > 2 else None
        return MatchConfig(
            names[0], names[1], seed, self.max_think_ms, self.game_points, self.bots_read_deck, self.seats, c
        )


#: Sets are played in chunks of this many of each match in turn, so that a run cut short has
#: played the matches about equally, and a task may still take many consecutive sets of one.
CHUNK = 32


def pairs_to_play(
    config: TournamentConfig, done: dict[tuple[int, int], SetResult]
) -> Iterator[tuple[MatchConfig, int]]:
    """The sets not yet ``done`` (by match index and set): a chunk of each match in turn."""
    configs = [config.match_config(*group) for group in config.pairings]
    for start in range(0, config.pairs, CHUNK):
        for k, match in enumerate(configs):
            for unit in range(start, min(start + CHUNK, config.pairs)):
                if (k, unit) not in done:
                    yield (match, unit)


__all__ = ["CHUNK", "TournamentConfig", "pairing_seed", "pairs_to_play", "table_seed"]
