"""``python -m mille.match A B``: two players in duplicate-deal matches (docs/bots.md).

The command's entry point; the match itself is :mod:`mille.lab.match`, whose
public names (``run_match``, ``format_report``, ``run_batches``,
``play_batch``, ...) are importable from here as they always were.
"""

import sys

from .lab.match import *  # noqa: F403 (the names docs/bots.md documents)
from .lab.match import main

if __name__ == "__main__":
    sys.exit(main())
