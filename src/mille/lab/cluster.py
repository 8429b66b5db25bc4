"""Dask distributed executors for ``--cluster`` (``mille.match`` and ``mille.tournament``).

Dask is an optional extra (``pip install 'bsd-mille[cluster]'``): this
module imports it only inside :func:`cluster_executor`, and nothing on the
game's or the match tool's start-up path imports this module unless
``--cluster`` is given.  ``ADDRESS`` is a scheduler's (``tcp://host:8786``)
or ``local:N``, a :class:`distributed.LocalCluster` of N single-threaded
worker processes on this machine.

Before any work is submitted every worker is asked (``Client.run``) to
import :mod:`mille` at this version and to make each player: a plug-in
that a worker cannot import fails the run at once with the worker and the
module named, rather than forfeiting every game it would have played
there.  Dask itself re-runs the work of a worker that dies: a pair's
result depends on its seed alone, so the report does not change.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from typing import Any

from .. import __version__

#: What to install for ``--cluster``.
INSTALL = "pip install 'bsd-mille[cluster]'"

#: How long to wait for a remote scheduler, and for its first worker.
CONNECT_TIMEOUT = 30.0
WORKER_TIMEOUT = 60.0


class ClusterError(RuntimeError):
    """The cluster cannot run the work: one line saying why and what to do."""


def check_worker(players: Sequence[str]) -> dict[str, Any]:
    """Run on each worker: this :mod:`mille`'s version, and why each player cannot be made there (if so)."""
    from ..players import PlayerSpecError, make_player

    problems = []
    for spec in players:
        try:
            make_player(spec)
        except PlayerSpecError as exc:
            problems.append(str(exc))
    return {"version": __version__, "problems": problems, "cwd": os.getcwd()}


def parse_local(address: str) -> int | None:
    """N for ``local:N`` (None for a scheduler's address); ClusterError for a bad N."""
    if not address.startswith("local:"):
        return None
    text = address[len("local:") :]
    if not text.isdigit() or int(text) < 1:
        raise ClusterError(f"--cluster {address}: local:N needs a number of workers N of at least 1")
    return int(text)


@contextlib.contextmanager
def cluster_executor(
    address: str, *, players: Sequence[str], uploads: Sequence[str] = ()
) -> Iterator[tuple[Executor, int]]:
    """A ``concurrent.futures`` executor on the cluster at ``address``, and its number of worker threads.

    ``uploads`` are plug-in modules (``.py``, ``.zip``, ``.egg``) sent to
    every worker, present and future (``Client.upload_file``).  The
    workers are checked as the module docstring says.  On leaving, the
    client is closed, and a ``local:N`` cluster shut down.
    """
    workers_wanted = parse_local(address)
    for path in uploads:
        if not os.path.isfile(path):
            raise ClusterError(f"--upload {path}: no such file")
    try:
        # Typed as Any: the type checker runs with or without the extra installed.
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ClusterError(f"--cluster needs Dask's distributed scheduler ({exc}); install it: {INSTALL}") from None
    with contextlib.ExitStack() as stack:
        if workers_wanted is not None:
            cluster = distributed.LocalCluster(
                n_workers=workers_wanted,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # this machine only, on any free ports
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
            )
            stack.callback(cluster.close)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(f"cannot reach a Dask scheduler at {address}: {exc}") from None
        stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError:
            raise ClusterError(f"the scheduler at {address} has no workers (waited {WORKER_TIMEOUT:g} s)") from None
        for path in uploads:
            try:
                client.upload_file(path)
            except Exception as exc:
                raise ClusterError(f"--upload {path}: the workers could not load it: {exc}") from None
        _check_workers(client, players)
        threads = sum(client.nthreads().values())
        yield client.get_executor(pure=False), max(1, threads)


def _check_workers(client: Any, players: Sequence[str]) -> None:
    try:
        answers = client.run(check_worker, list(players))
    except ImportError as exc:
        raise ClusterError(f"the workers cannot import mille ({exc}): install bsd-mille on every worker") from None
    for worker, answer in sorted(answers.items()):
        if answer["version"] != __version__:
            raise ClusterError(f"worker {worker} runs mille {answer['version']}, this is {__version__}")
        for problem in answer["problems"]:
            raise ClusterError(
                f"worker {worker}: {problem}; install the module on the workers or send it with --upload FILE.py"
            )


__all__ = ["INSTALL", "ClusterError", "check_worker", "cluster_executor", "parse_local"]
