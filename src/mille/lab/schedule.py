"""A tournament's schedule: its pairings, their match seeds, and the order its pairs are played in.

A :class:`TournamentConfig` is what decides a tournament's results: every
pairing of the players (the earlier-named as A) is a match of its own
(:meth:`TournamentConfig.match_config`), whose seed is derived from the
tournament seed and the two names (:func:`pairing_seed`), so that a cell
of the crosstable is the report ``mille.match A B --seed <pairing seed>``
would give.  :func:`pairs_to_play` lists the pairs a run still has to play.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..engine.scoring import GAME_POINTS
from .play import derive_seed
from .records import MatchConfig, SetResult


def pairing_seed(seed: int, a: str, b: str) -> int:
    """The match seed of the pairing of ``a`` (player A) and ``b`` in the tournament of seed ``seed``."""
    return derive_seed("tournament", seed, a, b)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What decides a tournament's results (and so must match in a file to resume)."""

    players: tuple[str, ...]
    pairs: int  # duplicate pairs per pairing
    seed: int = 1
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS
    #: ``--bot-reads-deck`` (:attr:`MatchConfig.bots_read_deck`); not in a results file's header.
    bots_read_deck: bool = False

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pairing ``(i, j)``, ``i < j``: player ``i`` is A."""
        n = len(self.players)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    @property
    def anchor(self) -> int:
        """The player whose rating is fixed (:data:`mille.lab.standings.ANCHOR_RATING`): ``bsd``, else the first."""
        return self.players.index("bsd") if "bsd" in self.players else 0

    def match_config(self, i: int, j: int) -> MatchConfig:
        """The match of the pairing of players ``i`` (A) and ``j``."""
        a, b = self.players[i], self.players[j]
        seed = pairing_seed(self.seed, a, b)
        return MatchConfig(a, b, seed, self.max_think_ms, self.game_points, self.bots_read_deck)


#: Pairs are played in chunks of this many of each pairing in turn, so that a run cut short has
#: played the pairings about equally, and a task may still take many consecutive pairs of one.
CHUNK = 32


def pairs_to_play(
    config: TournamentConfig, done: dict[tuple[int, int], SetResult]
) -> Iterator[tuple[MatchConfig, int]]:
    """The pairs not yet ``done`` (by pairing index and pair): a chunk of each pairing in turn."""
    configs = [config.match_config(i, j) for i, j in config.pairings]
    for start in range(0, config.pairs, CHUNK):
        for k, match in enumerate(configs):
            for pair in range(start, min(start + CHUNK, config.pairs)):
                if (k, pair) not in done:
                    yield (match, pair)


__all__ = ["CHUNK", "TournamentConfig", "pairing_seed", "pairs_to_play"]
