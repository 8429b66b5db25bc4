"""What the tests share: one package, ``helpers.NAME``, for the tests of every folder and the scripts in ``bench/``.

No test file imports another: what two of them use lives here (tests/README.md
lists the modules).  Every path the tests and scripts build starts from
these constants, never from the depth of the file that builds it, so a
test moves between folders unchanged.  The tests' folder is on the path
for pytest (``pythonpath`` in pyproject.toml); a script run by its path
puts it there itself before it imports ``helpers``.
"""

from __future__ import annotations

import os
import sys

#: The tests' folder (``tests/``), the checkout above it, and this checkout's package sources.
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SRC = os.path.join(REPO, "src")
DOCS = os.path.join(REPO, "docs")
#: The programs the tests run by their path (bots over pipes, players served by ``python -m mille.bot``).
BOTS = os.path.join(TESTS, "helpers", "bots")

# This checkout's mille, for the scripts and helpers run by path (pytest has it already).
if SRC not in sys.path:
    sys.path.insert(0, SRC)


def compiled(*sources: str) -> None:
    """Each source tree byte-compiled (``__pycache__``), for benchmarks that time new processes of it.

    The environment may say ``PYTHONDONTWRITEBYTECODE``: a tree that has no
    bytecode, or stale bytecode, then compiles itself in every process it
    starts (a bot for each game of a match), and a comparison of two trees
    times that compiling, not the code.
    """
    import compileall

    for source in sources:
        compileall.compile_dir(source, quiet=1)
