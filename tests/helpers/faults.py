"""Real faults for the file tests: another user (a forked child that becomes ``nobody``) and a full disk.

* :func:`as_other_user` runs a function in a forked child that has become
  ``nobody`` (``os.setuid``): the attacker who plants a file or a link, or
  the player whose directory somebody else owns; :func:`child_as` any work
  as any user, what it says read back by :func:`child_read`.  The interpreter is not
  run again (``nobody`` may not be able to read it): what the child needs
  is imported before it changes user.  Skipped with a reason when the
  tests do not run as root or there is no ``nobody``.
* :func:`shared_directory`: a directory under the system's temporary
  directory that the other user can reach (pytest's own are private to
  the user running the tests).
* :data:`FULL_DISK`: Python lines that make the process's disk "full"
  ``LIMIT`` bytes into any file (``RLIMIT_FSIZE``, ``SIGXFSZ`` ignored, so
  that a write past it is cut short and the next one fails with
  ``EFBIG``), for a child process started with ``python -c``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers import SRC

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX owners, modes and limits")


def other_user() -> tuple[int, int]:
    """(uid, gid) of ``nobody``; the test is skipped when that cannot be become."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("becoming another user needs root (run as root to check another user's files)")
    import pwd

    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' to play the other user")
    return entry.pw_uid, entry.pw_gid


def as_other_user(action: Callable[[], object]) -> str:
    """Run ``action`` as ``nobody`` in a forked child (:func:`child_as`); what it returned, as text (the test fails
    with the exception it raised, if it raised one).

    Whatever ``action`` needs must be imported already: after ``setuid``
    the child may not be able to read the standard library.
    """
    uid, gid = other_user()
    import grp  # noqa: F401 - the child's checks ask for groups and users
    import json  # noqa: F401
    import pwd  # noqa: F401

    def work(out: int) -> None:
        try:
            text = str(action())
        except BaseException as exc:
            os.write(out, f"{type(exc).__name__}: {exc}".encode("utf-8", "backslashreplace"))
            raise
        os.write(out, text.encode("utf-8", "backslashreplace"))

    return child_read(*child_as(uid, gid, work)).decode()


def child_as(uid: int, gid: int, work: Callable[[int], None]) -> tuple[int, int]:
    """``work(out)`` run by a forked child that has become ``uid`` (group ``gid``; no other groups): it writes what
    it has to say on the pipe ``out`` and exits, 0 once ``work`` returns, 1 if it raised.  (The child's pid, the
    pipe's read end: :func:`child_read`.)  What the child needs must be imported before: after ``setuid`` it may
    not be able to read the standard library."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            work(write_end)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def child_read(pid: int, fd: int, ended_well: bool = True) -> bytes:
    """All a :func:`child_as` child wrote, once it has ended (waited for: no fixed time); ``ended_well``: its status
    must be 0 (the test fails with what it wrote otherwise)."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    said = b"".join(chunks)
    assert not ended_well or os.waitstatus_to_exitcode(status) == 0, said
    return said


@contextmanager
def local_user() -> Iterator[tuple[str, int, int]]:
    """A second real local user (name, uid, gid), made with ``useradd`` for the test and removed after it.

    Skipped, with the reason, unless running as root with ``useradd`` and
    ``userdel`` (a user of the machine other than the person running the
    tests, as an attacker on a shared machine is).
    """
    import pwd
    import uuid

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("making a second real user needs root")
    if shutil.which("useradd") is None or shutil.which("userdel") is None:
        pytest.skip("making a second real user needs useradd and userdel")
    name = "mt" + uuid.uuid4().hex[:10]
    subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", name], check=True, capture_output=True)
    entry = pwd.getpwnam(name)
    try:
        yield name, entry.pw_uid, entry.pw_gid
    finally:
        # userdel refuses while a process of the user's lives (one of its children not yet gone): those are killed
        # and it is asked again, then forced, so that no user is left behind on the machine.
        deadline = time.monotonic() + 10
        while subprocess.run(["userdel", name], check=False, capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                subprocess.run(["userdel", "--force", name], check=False, capture_output=True)
                break
            subprocess.run(["pkill", "-KILL", "-U", str(entry.pw_uid)], check=False, capture_output=True)
            time.sleep(0.1)


def as_user(uid: int, gid: int, action: Callable[[], object]) -> None:
    """Run ``action`` as the user ``uid`` in a forked child, and wait for it; AssertionError if it failed."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 0
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            action()
        except BaseException:
            status = 1
        os._exit(status)
    _, wait_status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(wait_status) == 0, "the other user's action failed"


@contextmanager
def shared_directory() -> Iterator[Path]:
    """A new directory like /tmp (mode 1777, root's), that ``nobody`` can reach and make names in; removed after."""
    path = Path(tempfile.mkdtemp(prefix="mille-two-users-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        os.chmod(path, 0o1777)  # as /tmp: anyone may make a name, only its owner rename it
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def full_disk(limit: int) -> str:
    """Python lines for a child: from now on no file of this process may grow past ``limit`` bytes."""
    return (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
    )


def run_python(
    code: str, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -c CODE ARGS`` with this tree's sources; waits for its exit (``timeout`` only against a hang)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, "PYTHONPATH": SRC, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def short_then_failing(code: int) -> Callable[[int, bytes], int]:
    """An ``os.write`` for a full disk: the first call takes half the data, every later one fails with ``code``.

    A first call that failed outright would never reach the code that
    carries on after a short write, which is where a full disk starts.
    """
    real = os.write

    def write(fd: int, data: bytes) -> int:
        if not write.calls and len(data) > 1:  # type: ignore[attr-defined]
            write.calls.append(len(data))  # type: ignore[attr-defined]
            return real(fd, bytes(data[: len(data) // 2]))
        write.calls.append(len(data))  # type: ignore[attr-defined]
        raise OSError(code, os.strerror(code))

    write.calls = []  # type: ignore[attr-defined]
    return write
