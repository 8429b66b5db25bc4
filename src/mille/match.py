"""``python -m mille.match A B``: two players in duplicate-deal matches (docs/bots.md).

The command's entry point; the match itself is :mod:`mille.lab.match`, and
what it is made of lives beside it in :mod:`mille.lab` (pairs, records,
report, runner, console, options).  Their public names (``run_match``,
``format_report``, ``run_batches``, ``play_batch``, ``play_pair``,
``MatchConfig``, ``RunOptions``, ``TIMING_FIELDS``, ...) are importable from here as they
always were.
"""

import sys

# The names docs/bots.md documents, from the modules whose job they are.
from .lab.console import *  # noqa: F403
from .lab.match import *  # noqa: F403
from .lab.match import main
from .lab.options import *  # noqa: F403
from .lab.play import *  # noqa: F403
from .lab.records import *  # noqa: F403
from .lab.report import *  # noqa: F403
from .lab.runner import *  # noqa: F403

if __name__ == "__main__":
    sys.exit(main())
