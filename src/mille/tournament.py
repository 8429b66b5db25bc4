"""``python -m mille.tournament A B C ...``: round robins with ratings (docs/tournaments.md).

The command's entry point; the tournament itself is :mod:`mille.lab.tournament`,
whose public names (``run_tournament``, ``pairing_seed``, ...) are importable
from here as they always were.
"""

import sys

from .lab.tournament import *  # noqa: F403 (the names docs/tournaments.md documents)
from .lab.tournament import main

if __name__ == "__main__":
    sys.exit(main())
