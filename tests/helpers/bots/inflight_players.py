"""Players for the tests of games in flight (test_protocol_inflight.py), served by ``python -m mille.bot``.

``Stall`` is the BSD procedure that, once in the whole test (a file in
``MILLE_TEST_STALL`` marks the time spent), thinks for two seconds at the
first decision of the third game a bot process begins: one game of the
several the process has in flight misses its deadline.
"""

from __future__ import annotations

import os
import time

from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.players.base import Decision
from mille.players.bsd import BsdPlayer

_made = 0


class Stall(BsdPlayer):
    def __init__(self) -> None:
        global _made
        super().__init__()
        _made += 1
        self.stall = _made == 3

    def decide(self, observation: Observation, rng: GlibcRandom) -> Decision:
        if self.stall:
            self.stall = False
            mark = os.environ["MILLE_TEST_STALL"]
            try:
                os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                time.sleep(2.0)
        return super().decide(observation, rng)
