"""Dask distributed executors for ``--cluster`` (``mille.match`` and ``mille.tournament``).

Dask is an optional extra (``pip install 'bsd-mille[cluster]'``): this
module imports it only inside :func:`cluster_executor`, and nothing on the
game's or the match tool's start-up path imports this module unless
``--cluster`` is given.

Whoever can talk to a Dask scheduler can run code on its workers, as the
workers' user, and the client unpickles what the scheduler sends it: a
cluster is only as safe as who can reach it.  So ``ADDRESS`` is one of

* ``local:N``: a :class:`distributed.LocalCluster` of N single-threaded
  worker processes on this machine, secured by Dask itself
  (``security=True``: TLS with credentials made for the run and held in
  memory, so that another user of the machine, who can reach its ports on
  127.0.0.1, is refused), its web pages off, its scratch space a private
  directory of the run's own (:func:`_private_scratch`);
* ``tls://HOST:PORT``: a scheduler that speaks TLS and knows its clients
  by certificate; this client's are ``--tls-ca``, ``--tls-cert`` and
  ``--tls-key`` (:class:`TLSFiles`), else Dask's configuration
  (``distributed.comm.tls.*``), as :class:`distributed.Security` reads it;
* ``tcp://HOST:PORT``: plain text, unauthenticated: only with
  ``insecure`` (``--insecure``), and then with a warning; otherwise
  refused with what to do.

A scheduler that does not answer is given up after ``connect_timeout``
seconds (:data:`CONNECT_TIMEOUT`).  Before any work is submitted every
worker is asked (``Client.run``) to import :mod:`mille` at this version
and to make each player: a plug-in that a worker cannot import fails the
run at once with the worker and the module named, rather than forfeiting
every game it would have played there.  Dask itself re-runs the work of a
worker that dies: a pair's result depends on its seed alone, so the report
does not change.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from .. import __version__

#: What to install for ``--cluster``.
INSTALL = "pip install 'bsd-mille[cluster]'"

#: How long to wait for a remote scheduler to answer (``--connect-timeout``), and for its first worker.
CONNECT_TIMEOUT = 5.0
WORKER_TIMEOUT = 60.0

#: What an unencrypted, unauthenticated cluster lets others do, for the refusal and the warning.
PLAIN_TEXT = (
    "plain text, with no authentication: whoever reaches the scheduler can run code on the workers, "
    "and whoever answers at that address can run code here"
)


@dataclass(frozen=True, slots=True)
class TLSFiles:
    """This client's TLS credentials for a ``tls://`` scheduler: PEM files (None: from Dask's configuration)."""

    ca: str | None = None  # the cluster's certificate authority
    cert: str | None = None  # this client's certificate (its key may follow it in the same file)
    key: str | None = None  # this client's private key


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


def address_scheme(address: str) -> str:
    """``local``, ``tls``, ``tcp`` (a bare ``HOST:PORT`` too: Dask's default), or the scheme given."""
    if address.startswith("local:"):
        return "local"
    scheme, found, _ = address.partition("://")
    return scheme.lower() if found else "tcp"


def check_address(address: str, *, insecure: bool = False) -> str:
    """The scheme of ``address`` (:func:`address_scheme`) if it may be used; :class:`ClusterError` otherwise.

    ``tcp`` only with ``insecure``; ``local:N`` with a good N; ``tls``.
    """
    scheme = address_scheme(address)
    if scheme == "local":
        parse_local(address)
    elif scheme == "tcp" and not insecure:
        raise ClusterError(
            f"--cluster {address} is {PLAIN_TEXT}; use a scheduler at tls://HOST:PORT with certificates "
            "(docs/tournaments.md, Security), or add --insecure on a network where only you can reach it"
        )
    elif scheme not in ("tls", "tcp"):
        raise ClusterError(
            f"--cluster {address}: the address is local:N, tls://HOST:PORT or (with --insecure) tcp://HOST:PORT"
        )
    return scheme


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
    address: str,
    *,
    players: Sequence[str],
    uploads: Sequence[str] = (),
    tls: TLSFiles | None = None,
    insecure: bool = False,
    connect_timeout: float | None = None,
    warn: Callable[[str], None] | None = None,
) -> Iterator[tuple[Executor, int]]:
    """A ``concurrent.futures`` executor on the cluster at ``address``, and its number of worker threads.

    ``address`` as the module docstring says (``insecure`` lets a
    ``tcp://`` address through, after ``warn`` is told what it means);
    ``tls`` is this client's credentials for a ``tls://`` scheduler;
    ``connect_timeout`` (default :data:`CONNECT_TIMEOUT`) how long a
    remote scheduler has to answer.
    ``uploads`` are plug-in modules (``.py``, ``.zip``, ``.egg``) sent to
    every worker, present and future (``Client.upload_file``).  The
    workers are checked as the module docstring says.  On leaving, the
    client is closed, and a ``local:N`` cluster shut down.
    """
    scheme = check_address(address, insecure=insecure)
    if connect_timeout is None:
        connect_timeout = CONNECT_TIMEOUT
    workers_wanted = parse_local(address)
    for path in uploads:
        if not os.path.isfile(path):
            raise ClusterError(f"--upload {path}: no such file")
    files = tls or TLSFiles()
    for option, given in (("--tls-ca", files.ca), ("--tls-cert", files.cert), ("--tls-key", files.key)):
        if given is not None and not os.path.isfile(given):
            raise ClusterError(f"{option} {given}: {'not a regular file' if os.path.exists(given) else 'no such file'}")
    if scheme == "tcp" and warn is not None:
        warn(f"--cluster {address} is {PLAIN_TEXT} (--insecure)")
    try:
        # Typed as Any: the type checker runs with or without the extra installed.
        distributed: Any = importlib.import_module("distributed")
        dask: Any = importlib.import_module("dask")
    except ImportError as exc:
        raise ClusterError(f"--cluster needs Dask's distributed scheduler ({exc}); install it: {INSTALL}") from None
    with contextlib.ExitStack() as stack:
        if workers_wanted is not None:
            scratch = _private_scratch(stack)
            # Dask's scratch space, for the run: the scheduler (in this process) takes it from the configuration.
            stack.enter_context(dask.config.set({"temporary-directory": scratch}))
            # No web pages (they would show the workers' logs and call stacks to anyone on this machine).
            quiet: dict[str, object] = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}
            try:
                with dask.config.set(quiet):
                    cluster = distributed.LocalCluster(
                        n_workers=workers_wanted,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",  # this machine only, on any free ports
                        security=True,  # TLS, with credentials made for this cluster and kept in memory
                        dashboard_address="127.0.0.1:0",
                        scheduler_kwargs={"dashboard": False},
                        silence_logs=logging.ERROR,
                        local_directory=scratch,  # the nannies' and the workers'
                    )
            except ImportError as exc:  # Security.temporary() makes the credentials with cryptography
                raise ClusterError(
                    f"--cluster local:N secures its cluster with TLS, which needs {exc}: {INSTALL}"
                ) from None
            stack.callback(cluster.close)
            client = distributed.Client(cluster)
        else:
            security = _client_security(distributed, address, tls) if scheme == "tls" else None
            try:
                client = distributed.Client(address, security=security, timeout=connect_timeout)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                if isinstance(exc, TimeoutError) or str(exc).startswith("Timed out"):
                    raise ClusterError(
                        f"no Dask scheduler answered at {address} within {connect_timeout:g} s: is it running, "
                        "and is the address right? (--connect-timeout S waits longer)"
                    ) from None
                hint = (
                    "are --tls-ca, --tls-cert and --tls-key this cluster's?"
                    if scheme == "tls"
                    else "a scheduler that speaks TLS is reached at tls://"
                )
                raise ClusterError(f"cannot connect to the Dask scheduler at {address} ({exc}): {hint}") from None
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


def _private_scratch(stack: contextlib.ExitStack) -> str:
    """A directory of this run's own (0700, :func:`tempfile.mkdtemp`) for Dask's scratch space, removed at exit.

    Dask's default, ``$TMPDIR/dask-scratch-space``, is shared by every
    user of the machine: Dask takes it when it exists and is writable, and
    puts it (and the scheduler's and each worker's directory in it) first
    on ``sys.path`` of the scheduler, which runs in this process, and of the
    nannies and workers.  Another user who made it first, with a
    ``typing.py`` in it, had that file imported as the person running the
    match.  In a directory of the run's own nobody else can put a file.  On
    leaving (after the cluster has shut down: ``stack`` unwinds in the
    reverse order) its entries on this process's ``sys.path`` are dropped,
    as a name that no longer exists could be made again by anyone, and the
    directory removed.
    """
    import shutil
    import sys
    import tempfile

    scratch = tempfile.mkdtemp(prefix="mille-dask-")

    def remove() -> None:
        inside = scratch + os.sep
        sys.path[:] = [entry for entry in sys.path if entry != scratch and not entry.startswith(inside)]
        shutil.rmtree(scratch, ignore_errors=True)

    stack.callback(remove)
    return scratch


def _client_security(distributed: Any, address: str, tls: TLSFiles | None) -> Any:
    """This client's :class:`distributed.Security` for ``address``: the files given, else Dask's configuration.

    Loaded at once, so that a missing or bad file is one line now, not a
    failure to connect later.
    """
    given = (
        {}
        if tls is None
        else {
            name: value
            for name, value in (("tls_ca_file", tls.ca), ("tls_client_cert", tls.cert), ("tls_client_key", tls.key))
            if value is not None
        }
    )
    security = distributed.Security(require_encryption=True, **given)
    if not security.tls_ca_file or not security.tls_client_cert:
        raise ClusterError(
            f"--cluster {address}: this client needs the cluster's CA certificate and its own certificate and key: "
            "--tls-ca FILE --tls-cert FILE --tls-key FILE, or Dask's configuration (distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .key); see docs/tournaments.md"
        )
    try:
        security.get_connection_args("client")
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
        raise ClusterError(
            f"--cluster {address}: cannot load this client's TLS credentials ({exc}); check --tls-ca, --tls-cert "
            "and --tls-key (PEM files: the key must be the certificate's)"
        ) from None
    return security


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


__all__ = [
    "CONNECT_TIMEOUT",
    "INSTALL",
    "ClusterError",
    "TLSFiles",
    "address_scheme",
    "check_address",
    "check_worker",
    "cluster_executor",
    "parse_local",
]
