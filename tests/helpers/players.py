"""A bot that plays whole games at the virtual terminal, for the tests of the player's features.

At each prompt the bot reads which prompt the program is asking
(``BoardFace.dialogs.last_prompt``) and types what a player would (the BSD
procedure's move for the person's seat at the move prompt, ``y`` or ``n``
at the questions, a file name at ``file:``), or, at planned moments, saves,
quits or hangs up.  It notes the points of every hand it sees finished on
the screen, independently of the record of games.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from helpers import SRC
from helpers.saves import move_keys
from helpers.ui import make_app
from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import MoveType
from mille.engine.state import Game
from mille.files import ledger, save, tally
from mille.files.recorder import Recorder
from mille.players.bsd import BsdPlayer
from mille.ui import flow as ui
from mille.ui.flow import GameFlow
from mille.ui.keeping import Keeper
from mille.ui.layout import YOU
from mille.ui.surface import HANGUP, VirtualTerminal

#: No game of two BSD players comes near this many decisions of one seat.
MAX_DECISIONS = 5000


class Bot(VirtualTerminal):
    """A player at the virtual terminal (see the module documentation).

    ``plan`` maps the number of a decision at the move prompt (from 1) to
    ``"save:PATH"``, ``"hangup"`` or ``"quit"``; ``games`` is how many games
    to play before answering ``Another game?`` with no.
    """

    def __init__(self, seed: int, plan: dict[int, str] | None = None, games: int = 1, screens: bool = False) -> None:
        super().__init__()
        #: With ``screens``, the screen (text, cursor) each time the program waits for a key.
        self.screens: list[tuple[list[str], tuple[int, int]]] | None = [] if screens else None
        self.app: GameFlow | None = None
        self.player = BsdPlayer()
        self.dice = GlibcRandom(seed)
        self.plan = dict(plan or {})
        self.games = games
        self.decisions = 0
        self.saving: str | None = None
        #: (your points, the computer's) of every hand seen finished, and the totals of every game.
        self.hands: list[tuple[int, int]] = []
        self.finished_games: list[tuple[int, int]] = []
        self._noted = False

    def read_byte(self) -> int:
        if not self.keys:
            if self.screens is not None:
                self.screens.append((self.lines(), self.cursor))
            self.keys.extend(self._next())
        return self.keys.pop(0)

    def _next(self) -> list[int]:
        app = self.app
        assert app is not None
        game = app.game
        prompt = app.face.dialogs.last_prompt
        if prompt == ui.MOVE_PROMPT:
            self._noted = False
            self.decisions += 1
            assert self.decisions < MAX_DECISIONS, "the game does not end"
            action = self.plan.pop(self.decisions, None)
            if action == "hangup":
                return [HANGUP]
            if action == "quit":
                return list(b"q")
            if action is not None:
                self.saving = action.removeprefix("save:")
                return list(b"s")
            move = self.player.choose(observe(game, YOU), self.dice)
            return list(move_keys(move))
        if prompt == ui.EXTENSION_PROMPT:
            move = self.player.choose(observe(game, YOU), self.dice)
            return list(b"y" if move.kind is MoveType.EXTEND else b"n")
        if prompt in (ui.ANOTHER_HAND_PROMPT, ui.ANOTHER_GAME_PROMPT):
            if not self._noted:
                me, them = game.players
                self.hands.append((me.hand_total, them.hand_total))
                if prompt == ui.ANOTHER_GAME_PROMPT:
                    self.finished_games.append((me.total, them.total))
                self._noted = True
            if prompt == ui.ANOTHER_GAME_PROMPT:
                return list(b"y" if len(self.finished_games) < self.games else b"n")
            return list(b"y")
        if prompt == ui.FILE_PROMPT:
            assert self.saving is not None
            return list(self.saving.encode() + b"\r")
        if prompt == ui.SAME_FILE_PROMPT:
            return list(b"y" if self.saving == app.from_file else b"n")
        if prompt in (ui.OVERWRITE_PROMPT, ui.REALLY_PROMPT):
            return list(b"y")
        if prompt == ui.SAVE_GAME_PROMPT:
            return list(b"n")
        raise AssertionError(f"unexpected prompt {prompt}")


class Table:
    """Where one test keeps its record and its saves."""

    def __init__(self, tmp: Path) -> None:
        self.path = str(tmp / "stats.jsonl")
        self.hangup_file = str(tmp / "hangup.json")
        self.recorders: list[Recorder] = []

    def play(self, game: Game, bot: Bot, *, from_file: str | None = None) -> int:
        """Run the program on ``game`` (restored from ``from_file`` if given) until it exits."""
        restored = game.copy() if from_file is not None else None

        def make() -> Recorder:
            recorder = Recorder(self.path, restored=restored)
            self.recorders.append(recorder)
            return recorder

        def hangup_saver(saved: save.SavedGame) -> None:
            save.write_game(self.hangup_file, saved)

        app = make_app(
            bot,
            game,
            save_writer=save.write_game,
            keeper=Keeper(store=hangup_saver),
            from_file=from_file,
            restore_banner=None if from_file is None else from_file,
            stats=make,
        )
        bot.app = app
        status = app.run(restore=from_file is not None)
        assert all(not r.problems for r in self.recorders), [r.problems for r in self.recorders]
        return status

    def summary(self) -> dict[str, Any]:
        return tally.summarize(ledger.read_events(self.path)).get("bsd", {})


new_game = rules.new_game


def resume(path: str, seed: int) -> Game:
    """What ``mille PATH --seed SEED`` does before the game starts."""
    game = save.read_game(path).game
    game.to_move = YOU
    game.rng.seed(seed)
    return game


def run_mille(*args: str, state: Path | None = None, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m mille ARGS`` with no terminal, its state and config directories where given."""
    env = {**os.environ, "PYTHONPATH": SRC}
    if state is not None:
        env["XDG_STATE_HOME"] = str(state)
    if config is not None:
        env["XDG_CONFIG_HOME"] = str(config)
    return subprocess.run(
        [sys.executable, "-m", "mille", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
