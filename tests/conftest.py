"""Test-wide settings: the programs the tests run keep their files in a scratch directory.

mille records every game in ``$XDG_STATE_HOME/mille/stats.jsonl``, reads
``$XDG_CONFIG_HOME/mille/config.toml`` and caches it in ``$XDG_CACHE_HOME``.  A test run must neither add games
to the record of the person running it nor play with that person's
settings (colour or hints in their file would change every screen), so
all three point into a fresh directory for the whole session; tests that look
at these files set their own.
"""

from __future__ import annotations

import os
import tempfile

_SCRATCH = tempfile.mkdtemp(prefix="mille-tests-")
os.environ["XDG_STATE_HOME"] = os.path.join(_SCRATCH, "state")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SCRATCH, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(_SCRATCH, "cache")
os.environ.pop("NO_COLOR", None)
