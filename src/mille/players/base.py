"""The players' vocabulary: what a player module imports (the registry is :mod:`mille.players`).

A player is anything with ``choose(observation, rng)``
(:class:`mille.engine.driver.Player`, re-exported here); :class:`Decision`
and :func:`decision` say whether a move was weighed (the board announces
those, §8.6); :class:`PlayerSpecError` is a name that names no player;
``exec:`` names a program.  The modules that define players (``bsd``,
``external``, ``serve``...) import these names from here, never from the
registry above them, so the registry alone imports the players.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.cards import SAFETY_BASE
from ..engine.record import FrozenRecord
from ..engine.rules import MoveType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.driver import Player
    from ..engine.observation import Observation
    from ..engine.rng import GlibcRandom
    from ..engine.rules import Move
else:
    Player = object  # the protocol is structural; only the type checker needs it (mille.engine.driver)


class Decision(FrozenRecord):
    """A move, and whether the player weighed its hand to choose it.

    ``considered`` is true for a move chosen by weighing the hand (for the
    BSD procedure, its valuation, step 8 of §6.3) and false for the moves
    made on the spot (a draw, a safety played at once, an answer to
    ``Extension?``).  The original's board announces the considered ones
    (``PLAY`` or ``DISCARD`` with the card, §8.6); what the screen shows is
    the front end's business, this is only the fact it needs.
    """

    __slots__ = ("move", "considered")
    move: Move
    considered: bool

    def __init__(self, move: Move, considered: bool = False) -> None:
        object.__setattr__(self, "move", move)
        object.__setattr__(self, "considered", considered)


def decision(player: Player, observation: Observation, rng: GlibcRandom) -> Decision:
    """``player``'s move as a :class:`Decision`: its own ``decide`` if it has one.

    A player that only chooses is taken to have weighed every discard and
    every play of a card that is not a safety (a safety is the move made on
    the spot).
    """
    decide: Callable[[Observation, GlibcRandom], Decision] | None = getattr(player, "decide", None)
    if decide is not None:
        return decide(observation, rng)
    move = player.choose(observation, rng)
    return Decision(move, weighed(move, observation))


def weighed(move: Move, observation: Observation) -> bool:
    """Whether a player that does not say weighed its hand for ``move``: a discard, or a play of a card not a safety."""
    kind = move.kind
    return kind is MoveType.DISCARD or (kind is MoveType.PLAY and observation.hand[move.slot] < SAFETY_BASE)


class FirstPlayer:
    """Plays the first legal move (a draw when it may, else the lowest slot)."""

    name = "first"

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return observation.legal_moves()[0]


class RandomPlayer:
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return rng.choice(observation.legal_moves())


class PlayerSpecError(ValueError):
    """A player name that names no player."""


#: How a player spec names a program (:mod:`mille.players.external`).
EXEC_PREFIX = "exec:"
#: The longest ``exec:`` spec a save file may name.
MAX_EXEC_SPEC = 1000


def is_exec_spec(spec: object) -> bool:
    """``spec`` names a program: ``exec:`` and a command, printable, at most :data:`MAX_EXEC_SPEC` characters."""
    return (
        isinstance(spec, str)
        and spec.startswith(EXEC_PREFIX)
        and bool(spec[len(EXEC_PREFIX) :].strip())
        and len(spec) <= MAX_EXEC_SPEC
        and spec.isprintable()
    )


#: How a save and the record of games name a person in the computer's seat (``person:bob``, docs/people.md).
PERSON_PREFIX = "person:"


def is_person_spec(spec: object) -> bool:
    """``spec`` names a person: ``person:`` and a login name (printable, no blanks, at most 64 characters)."""
    if not isinstance(spec, str) or not spec.startswith(PERSON_PREFIX):
        return False
    name = spec[len(PERSON_PREFIX) :]
    return 0 < len(name) <= 64 and name.isprintable() and not any(ch.isspace() for ch in name)


__all__ = [
    "PERSON_PREFIX",
    "is_person_spec",
    "EXEC_PREFIX",
    "MAX_EXEC_SPEC",
    "Decision",
    "FirstPlayer",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "decision",
    "is_exec_spec",
    "weighed",
]
