"""What the lab's command lines share: their options and checks, and the run with its failures.

``python -m mille.match`` and ``python -m mille.tournament`` take the same
options of a run (:func:`add_run_arguments`: ``--seed``, ``--jobs``,
``--json``, ``--max-think-ms``, ``--bot-logs``, and ``--cluster`` with its own, ``--upload`` among them), check them
alike, and run alike (:func:`run`): on local processes or a Dask
cluster, a progress line on a terminal, the report as text or JSON, and
one line on standard error for what went wrong, with the exit status
(1 for a failure, 130 for Ctrl-C, 141 for a reader gone).  What reaches
the terminal from outside (a player's name, a file's, a message from a
worker or a file) goes through :func:`~mille.files.safeio.shown`, the
errors of the command line included (:class:`ArgumentParser`).
``python -m mille.sim`` shares their help's list of players and
``--version``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from ..files.safeio import shown
from ..players import BUILTIN, PlayerSpecError, check_table, make_player
from .console import StatusLine, write_out

#: The range of ``--max-think-ms``: a finite, positive number of milliseconds, at most a day
#: (a limit past that is no limit, and one like ``1e308`` or ``inf`` overflows the interval timer).
MAX_THINK_MS = 86_400_000.0


class ArgumentParser(argparse.ArgumentParser):
    """The lab's command lines: an error is shown escaped, as it may quote the command line (a player's name)."""

    def error(self, message: str) -> NoReturn:
        super().error(shown(message))


def version_text(prog: str) -> str:
    """What ``--version`` prints."""
    from .. import __version__

    return f"{prog} (bsd-mille) {__version__}"


def players_epilog() -> str:
    """The end of a command's help: the players it can be given."""
    return (
        f"Players: {', '.join(BUILTIN)}, or module:attribute (a class or factory importable from "
        "the current directory; see docs/bots.md); or exec:COMMAND, a program in any language speaking "
        "the bot protocol (docs/protocol.md)."
    )


def add_deck_argument(parser: argparse.ArgumentParser) -> None:
    """``--bot-reads-deck``: bot programs roll the dice in-process players roll (docs/protocol.md, "Dice")."""
    parser.add_argument(
        "--bot-reads-deck",
        action="store_true",
        help="these bots can read the deck: an exec: bot rolls the dice an in-process player would (derived "
        "from the seed, so with a known seed it can work out every deal); without it, its own from os.urandom",
    )


def add_run_arguments(parser: argparse.ArgumentParser, seed_help: str, json_help: str) -> None:
    """The options of a run, shared by ``mille.match`` and ``mille.tournament``.

    ``--seed``, ``--jobs``, ``--json``, ``--max-think-ms``, and where the
    pairs are played: ``--cluster`` and ``--upload``.
    """
    from .runner import default_jobs  # here, not at the top: mille.sim reads this module and runs no pool

    parser.add_argument("--seed", type=int, default=1, help=seed_help)
    parser.add_argument(
        "--jobs", type=int, metavar="J", help=f"worker processes (default: the cores, here {default_jobs()})"
    )
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--max-think-ms",
        type=float,
        metavar="MS",
        help="a player that thinks longer than MS milliseconds over one decision loses the game (more than 0, "
        f"at most {MAX_THINK_MS:.0f}, a day; default: no limit)",
    )
    parser.add_argument(
        "--bot-logs",
        metavar="DIR",
        help="keep the standard error of exec: bots in DIR (default: a temporary directory, kept and named "
        "in the report when a bot failed)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run the pairs on a Dask distributed scheduler (tls://host:8786, with --tls-*; tcp://host:8786 "
        "only with --insecure), or on a LocalCluster of N worker processes here (local:N, secured by TLS); "
        "needs Dask, the cluster extra (docs/tournaments.md)",
    )
    parser.add_argument(
        "--upload",
        metavar="FILE.py",
        action="append",
        default=[],
        help="with --cluster: send this plug-in module to every worker (repeatable); it is kept there and "
        "run as the workers' user",
    )
    parser.add_argument("--tls-ca", metavar="FILE", help="with --cluster tls://...: the cluster's CA certificate")
    parser.add_argument("--tls-cert", metavar="FILE", help="with --cluster tls://...: this client's certificate")
    parser.add_argument("--tls-key", metavar="FILE", help="with --cluster tls://...: this client's private key")
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="allow --cluster tcp://...: plain text, unauthenticated (anyone who reaches the scheduler can run "
        "code on the workers, and it here)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        metavar="S",
        help="with --cluster: give up on a scheduler that does not answer within S seconds (default 5)",
    )


def check_at_least(parser: argparse.ArgumentParser, *checks: tuple[str, int | None, int]) -> None:
    """``OPTION must be at least LEAST`` for the first ``(option, value, least)`` given a smaller value."""
    for option, value, least in checks:
        if value is not None and value < least:
            parser.error(f"{option} must be at least {least}")


def check_run_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The errors of :func:`add_run_arguments`' options that go together badly (one line each)."""
    if args.jobs is not None and args.cluster is not None:
        parser.error("--jobs and --cluster do not go together (the cluster's workers are the jobs)")
    if args.upload and args.cluster is None:
        parser.error("--upload goes with --cluster")
    scheme = None
    if args.cluster is not None:
        from .cluster import address_scheme  # no Dask: the address's scheme only

        scheme = address_scheme(args.cluster)
    if (args.tls_ca or args.tls_cert or args.tls_key) and scheme != "tls":
        parser.error("--tls-ca, --tls-cert and --tls-key go with --cluster tls://HOST:PORT")
    if args.insecure and scheme != "tcp":
        parser.error("--insecure goes with --cluster tcp://HOST:PORT (local:N and tls:// are secured)")
    if args.connect_timeout is not None and scheme not in ("tls", "tcp"):
        parser.error("--connect-timeout goes with --cluster tls://HOST:PORT or tcp://HOST:PORT")
    if args.connect_timeout is not None and not args.connect_timeout > 0:
        parser.error("--connect-timeout must be positive")
    if args.max_think_ms is not None and not 0 < args.max_think_ms <= MAX_THINK_MS:  # nan fails both
        parser.error(f"--max-think-ms must be a number of milliseconds more than 0 and at most {MAX_THINK_MS:.0f}")
    check_bot_logs(parser, args.bot_logs)


def check_bot_logs(parser: argparse.ArgumentParser, chosen: str | None) -> None:
    """``--bot-logs DIR`` (or, without it, ``MILLE_BOT_LOGS``) made now, or one line saying why it cannot be.

    Checked before any bot starts (:func:`check_players` starts them), so
    that a directory that cannot be made is the command's one line, not a
    failure in every game.
    """
    import os

    from ..players.external import LOGS_VARIABLE, set_log_directory

    if chosen is not None:
        option = "--bot-logs"
    else:
        chosen = os.environ.get(LOGS_VARIABLE) or None
        option = LOGS_VARIABLE
    if chosen is None:
        return
    try:
        os.makedirs(chosen, exist_ok=True)
        if not os.access(chosen, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        parser.error(f"{option} {chosen}: cannot make the bots' log directory there ({why})")
    set_log_directory(chosen)


def check_players(parser: argparse.ArgumentParser, specs: Sequence[str], seats: int = 2) -> None:
    """Make each player once, so that a bad name is one line now rather than a forfeit in every game.

    At a table of more than two ``seats``, a bot program that speaks
    protocol 1 alone is refused here too (:func:`mille.players.check_table`).

    The line alone, without the usage block: the command line was well
    formed, and the player (a bot that cannot start) is what failed
    (docs/protocol.md).
    """
    for spec in specs:
        try:
            check_table(make_player(spec), spec, seats)
        except PlayerSpecError as exc:
            parser.exit(2, f"{parser.prog}: error: {shown(str(exc))}\n")


class RunFailure(Exception):
    """The cluster could not be used, or lost the work (the message says which, in one line)."""

    def __init__(self, message: str, *, lost: bool) -> None:
        super().__init__(message)
        #: The work was under way (what finished may be kept), not refused at the start.
        self.lost = lost


def execute(
    run: Callable[..., dict[str, Any]],
    args: argparse.Namespace,
    jobs: int,
    players: Sequence[str],
    bar: StatusLine | None,
    own_errors: tuple[type[Exception], ...],
    warn: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``run`` on ``jobs`` local processes or on ``args.cluster``, the progress bar started once the work can start.

    The tool's ``own_errors`` go through as they are; anything else the
    cluster raises is a :class:`RunFailure`.  ``warn`` is told of a
    cluster used with ``--insecure``.
    """
    if args.cluster is None:
        if bar is not None:
            bar.start()
        return run(jobs=jobs)
    from .cluster import ClusterError, TLSFiles, cluster_executor

    try:
        with cluster_executor(
            args.cluster,
            players=players,
            uploads=args.upload,
            tls=TLSFiles(args.tls_ca, args.tls_cert, args.tls_key),
            insecure=args.insecure,
            connect_timeout=args.connect_timeout,
            warn=warn,
        ) as (pool, workers):
            if bar is not None:
                bar.start()
            return run(executor=pool, workers=workers)
    except own_errors:
        raise
    except ClusterError as exc:
        raise RunFailure(str(exc), lost=False) from exc
    except Exception as exc:  # the cluster lost the work: a task's workers kept dying, the scheduler went
        raise RunFailure(f"the cluster failed ({type(exc).__name__}: {exc})", lost=True) from exc


class ReportText(Protocol):
    """A report as text, saying where it ran: on ``jobs`` local processes, or on ``cluster``."""

    def __call__(self, report: dict[str, Any], *, jobs: int | None, cluster: str | None) -> str: ...


def run(
    prog: str,
    work: Callable[..., dict[str, Any]],
    args: argparse.Namespace,
    *,
    players: Sequence[str],
    bar: StatusLine | None,
    own_errors: tuple[type[Exception], ...],
    text: ReportText,
    kept: str = "",
) -> int:
    """Run ``work`` as :func:`execute` does, print its report, and return the command's exit status.

    The report is one JSON line with ``--json``, else ``text``.  A failure
    (a :class:`RunFailure`, or one of the tool's ``own_errors``) is one
    line on standard error, ``prog: why``, status 1; ``kept`` is added to
    it when the cluster lost the work under way (where what finished is
    kept).  Ctrl-C before the run started is status 130, and so is a run
    that Ctrl-C cut short (its report is printed, marked ``interrupted``);
    a reader that has gone is 141 (:func:`~mille.lab.console.write_out`).
    """
    from .runner import default_jobs

    jobs = default_jobs() if args.jobs is None else args.jobs

    def fail(message: str, status: int = 1) -> int:
        if bar is not None:
            bar.clear()
        print(f"{prog}: {shown(message)}", file=sys.stderr)
        return status

    def warn(message: str) -> None:
        print(f"{prog}: warning: {shown(message)}", file=sys.stderr)

    terminated = _Terminated()
    try:
        with terminated:
            report = execute(work, args, jobs, players, bar, own_errors, warn)
    except RunFailure as exc:
        return fail(f"{exc}{kept if exc.lost else ''}")
    except own_errors as exc:
        return fail(str(exc))
    except PlayerSpecError as exc:  # a factory that worked for check_players and failed on the run's own try
        return fail(str(exc))
    except KeyboardInterrupt:  # before the run started (say, while a cluster started)
        return fail("interrupted before the run started", terminated.status)
    if bar is not None:
        bar.clear()
    if args.json:
        status = write_out(json.dumps(report))
    else:
        status = write_out(text(report, jobs=None if args.cluster else jobs, cluster=args.cluster))
    if status:
        return status
    return terminated.status if report["interrupted"] else 0


class _Terminated:
    """While the run lasts, SIGTERM stops it as Ctrl-C does (what ``timeout``, ``kill`` and service managers send).

    The signal raises :class:`KeyboardInterrupt` in the main thread, once
    (a second SIGTERM while the run winds down is ignored, so it cannot cut
    the winding down short): the runner stops its workers, which kill their
    bots (:func:`mille.lab.runner._worker_init`), keeps what finished
    (a tournament's results file stays resumable) and reports.  ``status``:
    130 after Ctrl-C, 143 (128 + SIGTERM) after SIGTERM.
    """

    def __init__(self) -> None:
        self.status = 130
        self._previous: Any = None
        self._set = False

    def _handle(self, signum: int, frame: object) -> None:
        import signal

        if self.status == 130:
            self.status = 128 + signum
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            raise KeyboardInterrupt

    def __enter__(self) -> _Terminated:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._handle)
            self._set = True
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._set:
            signal.signal(signal.SIGTERM, self._previous if self._previous is not None else signal.SIG_DFL)


__all__ = [
    "ArgumentParser",
    "add_deck_argument",
    "ReportText",
    "RunFailure",
    "add_run_arguments",
    "check_at_least",
    "check_run_arguments",
    "check_players",
    "execute",
    "players_epilog",
    "run",
    "version_text",
]
