"""What the tests of the bot protocol share: the bots' commands, a quick expert, the processes left behind."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from helpers import BOTS, SRC, TESTS
from helpers.procs import processes

if TYPE_CHECKING:
    from mille.engine.state import Game

#: The bot written from docs/protocol.md alone, that misbehaves on request.
PROTOCOL_BOT = os.path.join(BOTS, "protocol_bot.py")
#: The bot of protocol 1 written from the page alone, in the fewest lines.
TINY_BOT = os.path.join(BOTS, "tiny_bot.py")
#: What a bot started by the tests finds on its path: this tree's mille, and the tests' modules.
BOT_PATH = SRC + os.pathsep + TESTS


#: Everything in a match's report but the timing and the names (what two runs of the same games share).
SAME = ("think_ms", "seconds", "games_per_second", "a", "b", "bot_names")


@pytest.fixture(autouse=True, name="bots")
def bots_fixture(monkeypatch: pytest.MonkeyPatch, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Bots find this tree's mille; their logs go to a directory of the test; none is left running after it.

    Autouse in every module that imports it (``from helpers.protocol import bots_fixture``); a test
    that takes ``bots`` is given the logs' directory.
    """
    from mille.players import botprocess

    monkeypatch.setenv("PYTHONPATH", BOT_PATH)
    logs = str(tmp_path / "logs")
    monkeypatch.setenv(botprocess.LOGS_VARIABLE, logs)
    before = {pid for pid, _ in children()}
    yield logs
    botprocess.shutdown()
    assert not [c for c in children() if c[0] not in before], "a bot outlived its test (or is a zombie)"


def served(name: str) -> str:
    """``exec:`` for a player of this tree served by ``python -m mille.bot``."""
    return f"exec:{sys.executable} -m mille.bot {name}"


def protocol_bot(mode: str = "ok", *args: str) -> str:
    """``exec:`` for the test bot in ``mode``."""
    return " ".join([f"exec:{sys.executable}", PROTOCOL_BOT, mode, *args])


def quick_expert() -> object:
    """The expert with a small budget and no deadline in practice: quick, and a function of its dice alone."""
    from mille.players.expert import ExpertPlayer, Level

    return ExpertPlayer(settings=Level(600, safety_rules=True, deadline=600.0))


def full_expert() -> object:
    """The measured expert (level 4) without its safety-net deadline, so that a loaded machine cannot change a move."""
    from mille.players.expert import DEFAULT_LEVEL, LEVELS, ExpertPlayer, Level

    settings = Level(LEVELS[DEFAULT_LEVEL].budget, safety_rules=True, deadline=600.0)
    return ExpertPlayer(settings=settings)


def positions(seed: int = 5, hands: int = 2) -> list[Game]:
    """Every position of a few hands of bsd against bsd where a seat decides."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game
    from mille.players.bsd import BsdPlayer

    found = []
    game = Game(rng=GlibcRandom(seed))
    player, dice = BsdPlayer(), GlibcRandom(9)
    for _ in range(hands):
        rules.start_hand(game)
        while rules.phase(game) is not rules.Phase.HAND_OVER:
            if rules.phase(game) is rules.Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            found.append(game.copy())
            rules.push(game, player.choose(observe(game, game.to_move), dice))
        game.finished = False
    return found


def children() -> list[tuple[int, str]]:
    """This process's child processes (pid, state letter: Z for a zombie), from /proc."""
    me = os.getpid()
    return [(pid, state) for pid, state, parent in processes() if parent == me]


def running(pid: int) -> bool:
    """``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            data = f.read()
    except OSError:
        return False
    return data[data.rindex(")") + 2] != "Z"
