"""The runner of matches and tournaments: sets grouped into batches, played in process, in a pool or on any executor.

:func:`run_batches` is the one runner and the one process pool of
:func:`mille.lab.match.run_match` and
:func:`mille.lab.tournament.run_tournament`, at every table: it is handed
the sets to play (a :class:`~mille.lab.records.MatchConfig` and a set
index each; at two seats the sets are duplicate pairs), groups consecutive
sets of one match into a :class:`Batch`, plays them in this process (games
in flight when the bots offer them), in a
:class:`~concurrent.futures.ProcessPoolExecutor` of its own, or in any
:class:`~concurrent.futures.Executor` it is handed (a Dask cluster's,
:mod:`mille.lab.cluster`), and hands each batch's results to the caller as
it finishes.  Ctrl-C stops it with what finished kept.  What a task runs
in a worker is :func:`play_batch`, which an executor finds by its module
path.
"""

from __future__ import annotations

import concurrent.futures
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..players.botprocess import finish_leaving
from .play import in_flight_specs, play_in_flight, play_sets
from .records import MatchConfig, SetResult


def default_jobs() -> int:
    """The machine's cores available to this process."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        n = counter()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)


#: With a pool or a cluster, a task is made about this long once the time of a set is known:
#: submitting one costs a millisecond or so, a bsd pair lasts about ten.
TASK_SECONDS = 0.25
#: ... and no longer than this many sets (what Ctrl-C or a lost worker can waste).
MAX_PAIRS_PER_TASK = 64
#: Games a run in this process keeps in flight when its bots offer them (issue 39; docs/protocol-speed.md,
#: "Games in flight"): the bots and the host work at once, and a write carries this many games' messages.
GAMES_IN_FLIGHT = 64


@dataclass(frozen=True, slots=True)
class Batch:
    """A unit of work: sets (pairs) ``start`` .. ``stop - 1`` of one match (``config``)."""

    config: MatchConfig
    start: int
    stop: int


def play_batch(config: MatchConfig, start: int, stop: int, moves: bool = False) -> tuple[list[SetResult], float]:
    """:func:`~mille.lab.play.play_sets`, and how long it took where it ran (to size the next tasks): a pool's task.

    ``moves``: every move of the games is taken down and sent back (``--record``).
    """
    began = time.perf_counter()
    results = play_sets(config, start, stop, moves=moves)
    return results, time.perf_counter() - began


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the run and reports; SIGTERM ends them and their bots.

    The parent stops its pool with SIGTERM (:func:`_stop_pool`, after
    Ctrl-C or SIGTERM of its own): the worker kills its ``exec:`` bots'
    process groups before it goes, as the bots live in sessions of their
    own and would otherwise outlive it (with PPID 1).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_terminated)


def _worker_terminated(signum: int, frame: object) -> None:
    """A pool worker's SIGTERM: its bots killed, then its exit at once (what the signal's default would do)."""
    from ..players.botprocess import kill_all

    try:
        kill_all()
    finally:
        os._exit(128 + signum)


class _Batcher:
    """Groups the sets to play, in order, into batches of consecutive sets of one match.

    ``size`` None sizes them from the time the sets take (about
    :data:`TASK_SECONDS` a batch, one set until a time is known).
    """

    def __init__(self, pairs: Iterable[tuple[MatchConfig, int]], size: int | None) -> None:
        self.pairs = iter(pairs)
        self.fixed = size
        self.held: tuple[MatchConfig, int] | None = None
        self.played = 0
        self.seconds = 0.0

    def observe(self, pairs: int, seconds: float) -> None:
        self.played += pairs
        self.seconds += seconds

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.played == 0 or self.seconds <= 0.0:
            return 1
        return max(1, min(MAX_PAIRS_PER_TASK, round(TASK_SECONDS * self.played / self.seconds)))

    def next(self) -> Batch | None:
        first = self.held if self.held is not None else next(self.pairs, None)
        self.held = None
        if first is None:
            return None
        config, start = first
        stop = start + 1
        limit = self.size()
        while stop - start < limit:
            following = next(self.pairs, None)
            if following is None:
                break
            if following[0] != config or following[1] != stop:
                self.held = following
                break
            stop += 1
        return Batch(config, start, stop)


def run_batches(
    pairs: Iterable[tuple[MatchConfig, int]],
    record: Callable[[Batch, list[SetResult]], bool],
    *,
    jobs: int = 1,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    max_in_flight: int | None = None,
    pairs_per_task: int | None = None,
    moves: bool = False,
) -> bool:
    """Play ``pairs`` (match, set index: at two seats a duplicate pair's) and hand each batch's results to ``record``.

    Each batch's results are handed over as the batch finishes.

    Returns True if Ctrl-C stopped the run.  This is the one runner of
    :func:`~mille.lab.match.run_match` and of :mod:`mille.lab.tournament`.  With ``executor``
    None, ``jobs`` 1 plays in this process, in order, and more in a
    :class:`~concurrent.futures.ProcessPoolExecutor` of ``jobs`` workers
    that is stopped at once on Ctrl-C; any other executor is used as given
    and not shut down.  Consecutive sets of one match go to a task
    together: ``pairs_per_task`` of them, or (None) one at a time in
    process and, in a pool, as many as take about :data:`TASK_SECONDS`
    (at most :data:`MAX_PAIRS_PER_TASK`), measured as the run goes.  At
    most ``max_in_flight`` tasks (default four per worker; ``workers`` says
    how many an executor has) are submitted and not finished at once, so a
    run of a million sets holds a few futures, not a million, and an
    interrupted run wastes little.  ``pairs`` is consumed lazily.  Batches
    finish in any order; ``record`` returns True once it has all it needs,
    and the rest is cancelled.  Ctrl-C (KeyboardInterrupt, in the wait or
    raised by ``record``) stops the run; what was recorded stays recorded.
    Any other exception (an engine bug, a lost cluster) propagates after
    the work in flight is cancelled.  ``moves``: the results carry every
    move of their games (:attr:`~mille.lab.records.SetResult.moves`).
    """
    try:
        if executor is None and jobs == 1:
            batcher = _Batcher(pairs, pairs_per_task or 1)
            try:
                first = batcher.next()
                if first is not None and in_flight_specs(first.config):
                    _run_in_flight(first, batcher, record, moves)
                    return False
                batch = first
                while batch is not None:
                    if record(batch, play_sets(batch.config, batch.start, batch.stop, moves=moves)):
                        break
                    batch = batcher.next()
                return False
            finally:
                finish_leaving()  # the last games' bots, told to quit, are gone when the run is
        own = executor is None
        pool: concurrent.futures.Executor = (
            concurrent.futures.ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)
            if executor is None
            else executor
        )
        if workers is None:
            workers = jobs if own else int(getattr(executor, "_max_workers", 0) or 16)
        window = max(1, max_in_flight if max_in_flight is not None else 4 * workers)
        try:
            _run_pool(pool, _Batcher(pairs, pairs_per_task), window, record, cancel=not own, moves=moves)
        except BaseException:
            if own:
                _stop_pool(pool)
            raise
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        return True
    return False


def _run_in_flight(
    first: Batch, batcher: _Batcher, record: Callable[[Batch, list[SetResult]], bool], moves: bool
) -> None:
    """The batches played with :data:`GAMES_IN_FLIGHT` games at once (:func:`~mille.lab.play.play_in_flight`).

    Each batch is recorded, in order, once all its sets are played.
    """
    batches: list[Batch] = []

    def feed() -> Iterator[tuple[MatchConfig, int]]:
        batch: Batch | None = first
        while batch is not None:
            batches.append(batch)
            for unit in range(batch.start, batch.stop):
                yield batch.config, unit
            batch = batcher.next()

    done: list[SetResult] = []
    results = play_in_flight(feed(), GAMES_IN_FLIGHT, moves=moves)
    try:
        for result in results:
            done.append(result)
            batch = batches[0]
            if len(done) == batch.stop - batch.start:
                batches.pop(0)
                held, done = done, []
                if record(batch, held):
                    return
    finally:
        results.close()


def _run_pool(
    pool: concurrent.futures.Executor,
    batcher: _Batcher,
    window: int,
    record: Callable[[Batch, list[SetResult]], bool],
    *,
    cancel: bool,
    moves: bool = False,
) -> None:
    """Keep ``window`` tasks in flight until the batches run out or ``record`` has enough.

    ``cancel``: on the way out, cancel the tasks not started (an executor
    handed in); an own pool is shut down by the caller instead.
    """
    pending: dict[concurrent.futures.Future[tuple[list[SetResult], float]], Batch] = {}
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window:
                batch = batcher.next()
                if batch is None:
                    exhausted = True
                    break
                # Without moves, the call the runner has always made (an executor may look at it).
                future = (
                    pool.submit(play_batch, batch.config, batch.start, batch.stop, True)
                    if moves
                    else pool.submit(play_batch, batch.config, batch.start, batch.stop)
                )
                pending[future] = batch
            if not pending:
                return
            finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                batch = pending.pop(future)
                results, seconds = future.result()
                batcher.observe(len(results), seconds)
                if record(batch, results):
                    return
    finally:
        if cancel:
            for future in pending:
                future.cancel()


def _stop_pool(pool: concurrent.futures.Executor) -> None:
    """Stop an own process pool at once (Ctrl-C, or an error): its workers are terminated.

    Nothing is cancelled first: on Python 3.10 and 3.11 the pool's manager
    thread, finding its workers gone, sets an exception on every pending
    future and fails with a traceback on one already cancelled.  The
    manager thread is then waited for (it only reaps the dead workers and
    closes its pipes): left running, it races the interpreter's exit
    handler, which on Python 3.10 writes to the thread's wake-up pipe as
    the thread closes it, and the process printed a traceback or, once in
    some tens of runs under load, hung at exit after its report (seen in
    CI, ``tests/lab/test_tournament.py``'s Ctrl-C test).
    """
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=True)


__all__ = ["MAX_PAIRS_PER_TASK", "TASK_SECONDS", "Batch", "default_jobs", "play_batch", "run_batches"]
