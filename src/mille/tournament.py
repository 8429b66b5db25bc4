"""``python -m mille.tournament A B C ...``: round robins with ratings (docs/tournaments.md).

The command's entry point; the tournament itself is :mod:`mille.lab.tournament`,
its schedule, results file and report :mod:`mille.lab.schedule`,
:mod:`mille.lab.results` and :mod:`mille.lab.standings`.  Their public names
(``run_tournament``, ``pairing_seed``, ``load_results``, ``TIMING_FIELDS``,
``format_report``, ...) are importable from here as they always were.
"""

import sys

# The names docs/tournaments.md documents, from the modules whose job they are.
from .lab.results import *  # noqa: F403
from .lab.schedule import *  # noqa: F403
from .lab.standings import *  # noqa: F403
from .lab.tournament import *  # noqa: F403
from .lab.tournament import main

if __name__ == "__main__":
    sys.exit(main())
