"""``python -m mille.sim --hands N --seed S``: headless hands, between two players or at any table (``--players``).

The command's entry point; the simulator itself is :mod:`mille.lab.sim`.
"""

import sys

from .lab.sim import *  # noqa: F403
from .lab.sim import main

if __name__ == "__main__":
    sys.exit(main())
