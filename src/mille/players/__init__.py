"""Players: anything that is shown what one seat may see and answers with a move.

A player follows the protocol of the hand driver
(:class:`mille.engine.driver.Player`, re-exported here):
``choose(observation, rng)`` is handed an
:class:`~mille.engine.observation.Observation` (never the game) and a
generator of its own, and returns one of ``observation.legal_moves()``.  It
is asked in every phase that needs a decision: ``MOVE`` (draw, play or
discard) and ``EXTENSION`` (answer ``EXTEND`` or ``NO_EXTENSION``).  Seats
with no cards pass without being asked.  Three methods are optional; a
player defines the ones it wants, and whatever drives it (the driver, the
board) asks for them by name, never by the player's kind:

* ``inform(event)``: told every move made at the table, as both seats see
  it (:class:`mille.engine.driver.Event`), and ``hand_over(result)``: told
  the hand's :class:`~mille.engine.scoring.HandResult` (the hand driver
  calls both);
* ``decide(observation, rng)``: the move as a :class:`Decision`, which
  also says whether the player weighed its hand to choose it.  The board
  announces such a move (``PLAY`` or ``DISCARD`` with the card, §8.6), as
  the original announced its computer's; for a player without ``decide``,
  :func:`decision` announces every discard and every play of a card that
  is not a safety.

Built in, by name (:func:`make_player`):

* ``bsd``: the original's computer (:mod:`mille.players.bsd`);
* ``expert``: the searching player (:mod:`mille.players.expert`);
* ``expert-2026``: the searching player as first measured, frozen
  (:mod:`mille.players.expert_2026`), to match later experts against;
* ``expert-2026-11``: the searching player as it was after its ninth
  round, frozen (:mod:`mille.players.expert_2026_11`), likewise;
* ``first``: the first legal move;
* ``random``: a uniformly random legal move.

Any other name of the form ``module:attribute`` names a class or factory
that makes a player: the module is imported with the current directory
first on ``sys.path`` for that import only.  ``exec:COMMAND`` names a
program, a bot in a process of its own spoken to over a pipe
(:mod:`mille.players.external`, ``docs/protocol.md``): the isolated way.

A player may declare ``dice = "game"``: it is the original's procedure,
which on the board rolls the game's own generator (so that its rolls
change the later deals, as in the original); any other rolls dice of its
own (:func:`mille.ui.session.computer_player`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable

from .base import (
    EXEC_PREFIX,
    MAX_EXEC_SPEC,
    PERSON_PREFIX,
    Decision,
    FirstPlayer,
    PlayerSpecError,
    RandomPlayer,
    decision,
    is_exec_spec,
    is_person_spec,
    weighed,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.driver import Player
else:
    from .base import Player


def _bsd() -> Player:
    from .bsd import BsdPlayer

    return BsdPlayer()


def _expert() -> Player:
    from .expert import ExpertPlayer

    return ExpertPlayer()


def _expert_2026() -> Player:
    from .expert_2026 import Expert2026Player

    return Expert2026Player()


def _expert_2026_11() -> Player:
    from .expert_2026_11 import Expert202611Player

    return Expert202611Player()


#: Players known by name.
BUILTIN: dict[str, Callable[[], Player]] = {
    "bsd": _bsd,
    "expert": _expert,
    "expert-2026": _expert_2026,
    "expert-2026-11": _expert_2026_11,
    "first": FirstPlayer,
    "random": RandomPlayer,
}
#: The built-in players a person can choose to face (``mille --computer``),
#: the original's first (the default); a save records one of these names.
#: Names only, never ``module:attribute``: loading a file must not import code.
OPPONENTS: tuple[str, ...] = ("bsd", "expert")
assert set(OPPONENTS) <= set(BUILTIN)


def make_player(spec: str, deal: int | None = None) -> Player:
    """A new player from a name (``bsd``, ``first``, ...), ``module:attribute`` or ``exec:COMMAND``.

    ``exec:COMMAND`` takes an idle process of the same command that has
    never seen ``deal`` (a key of the game's deal; None: any), or starts
    the program and has it say hello, before returning.
    """
    factory = BUILTIN.get(spec)
    if factory is not None:
        return factory()
    if spec.startswith(EXEC_PREFIX):
        from .external import ExternalPlayer

        return ExternalPlayer(spec, deal)
    if ":" not in spec:
        known = ", ".join(sorted(BUILTIN))
        raise PlayerSpecError(f"unknown player {spec!r} (known: {known}; module:attribute; or exec:COMMAND)")
    module_name, _, attribute = spec.partition(":")
    if "/" in module_name or os.sep in module_name or (module_name.endswith(".py") and os.path.isfile(module_name)):
        directory, _, file = module_name.rpartition(os.sep if os.sep in module_name else "/")
        stem = file[:-3] if file.endswith(".py") else file
        raise PlayerSpecError(
            f"{spec!r} is a file, not a module: name it {stem}:{attribute} and run from "
            f"{directory or 'its directory'} (or put that directory on PYTHONPATH), "
            f"or run it in a process of its own: 'exec:python -m mille.bot {stem}:{attribute}' from there"
        )
    # The current directory goes first on the path for the plug-in's own
    # import (and the imports that runs), and only then: left there, a stray
    # heapq.py beside the bot would shadow the standard library for the rest
    # of the run (docs/bots.md, "How plug-ins are found").
    directory = os.getcwd()
    added = directory not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, directory)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # an import error, or the module raised
        raise PlayerSpecError(f"cannot import {module_name!r} for player {spec!r}: {exc}") from exc
    finally:
        if added and directory in sys.path:
            sys.path.remove(directory)
    target = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise PlayerSpecError(f"{module_name!r} has no attribute {attribute!r}") from None
    if not callable(target):
        raise PlayerSpecError(f"{spec!r} is not a class or factory")
    try:
        player: Player = target()
    except Exception as exc:
        raise PlayerSpecError(f"{spec!r} failed to make a player: {exc}") from exc
    if not callable(getattr(player, "choose", None)):
        raise PlayerSpecError(f"{spec!r} made {type(player).__name__!r}, which has no choose(observation, rng) method")
    return player


def check_table(player: Player, spec: str, seats: int) -> None:
    """:class:`PlayerSpecError` if ``player`` cannot sit at the table of ``seats``: a bot that speaks protocol 1 alone.

    Only a bot program (``exec:``) has protocols; any other player sits at any table.
    """
    if seats != 2 and getattr(player, "protocols", None) is not None:
        from .external import check_table as check_bot

        check_bot(player, spec, seats)


__all__ = [
    "BUILTIN",
    "EXEC_PREFIX",
    "MAX_EXEC_SPEC",
    "OPPONENTS",
    "PERSON_PREFIX",
    "Decision",
    "FirstPlayer",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "check_table",
    "decision",
    "is_exec_spec",
    "is_person_spec",
    "make_player",
    "weighed",
]
