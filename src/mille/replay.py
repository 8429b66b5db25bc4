"""``python -m mille.replay FILE --game N``: a recorded game, move by move (docs/bots.md).

The command's entry point; the replay itself is :mod:`mille.lab.replay`, the
game records :mod:`mille.lab.gamelog`.
"""

import sys

from .lab.replay import *  # noqa: F403
from .lab.replay import main

if __name__ == "__main__":
    sys.exit(main())
