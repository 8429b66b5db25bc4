"""Test-wide settings: the programs the tests run keep their files in a scratch directory, removed at the end.

mille records every game in ``$XDG_STATE_HOME/mille/stats.jsonl``, reads
``$XDG_CONFIG_HOME/mille/config.toml`` and caches it in ``$XDG_CACHE_HOME``.  A test run must neither add games
to the record of the person running it nor play with that person's
settings (colour or hints in their file would change every screen), so
all three point into a fresh directory for the whole session; tests that look
at these files set their own.

A test run leaves nothing in ``$TMPDIR`` either.  The session's temporary
directory (``TMPDIR`` for every program the tests start, and
:data:`tempfile.tempdir` for the tests themselves; pytest's ``tmp_path``
stays in pytest's place) is ``tmp`` inside that scratch directory, which
is removed when the session ends.  Before that, whatever a test or a
program it ran left in the temporary directory is named and fails the
run: a helper that forgets to clean up is found the first time it runs,
not by a person whose ``/tmp`` fills up.  Only the
session's own directory is looked at, so other programs using ``/tmp`` at
the same time (another test run included) cannot make it fail.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

_SCRATCH = tempfile.mkdtemp(prefix="mille-tests-")
atexit.register(shutil.rmtree, _SCRATCH, True)  # also when the session is cut short
os.environ["XDG_STATE_HOME"] = os.path.join(_SCRATCH, "state")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SCRATCH, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(_SCRATCH, "cache")
os.environ.pop("NO_COLOR", None)

#: The session's temporary directory: like /tmp (sticky, open to all, so that a test's program running as
#: another user can make its files there too), inside the scratch directory (others may pass, not list).
TMP = os.path.join(_SCRATCH, "tmp")
os.mkdir(TMP)
os.chmod(TMP, 0o1777)
os.chmod(_SCRATCH, 0o711)
# pytest's own tmp_path tree stays where pytest keeps it (the system's temporary directory, its last few runs
# kept for a look after a failure): its paths, which some screens show, keep their length.
os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
os.environ["TMPDIR"] = TMP
tempfile.tempdir = TMP


#: Names that may be left and are only said, not failed: none now (Dask's default scratch
#: directory was, until every cluster of the tests had a private one, issue 36).
KNOWN: set[str] = set()


def left_behind() -> list[str]:
    """The names in the session's temporary directory that a test or its programs did not remove."""
    try:
        names = os.listdir(TMP)
    except FileNotFoundError:
        return []
    return sorted(names)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    left = left_behind()
    shutil.rmtree(_SCRATCH, ignore_errors=True)
    if not left:
        return
    failing = [name for name in left if name not in KNOWN]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"the tests left {len(left)} entries in $TMPDIR (removed now): {', '.join(left[:10])}"
    line = f"ERROR: {message}" if failing else f"note: {message} (known: conftest.KNOWN)"
    if reporter is not None:
        reporter.write("\n")
        reporter.write_line(line, red=bool(failing), bold=bool(failing))
    else:
        print(line)
    if failing and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
