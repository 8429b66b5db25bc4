"""A tournament's results file: its format, writing it as the pairs finish, reading it back for ``--resume``.

The file is JSON lines.  The first line, the header (:func:`header`), says
it is a results file (:data:`FORMAT`, :data:`FORMAT_VERSION`) and records
what decides the results (:class:`~mille.lab.schedule.TournamentConfig`);
every other line is one finished pair, ``{"pairing": [A, B], "result":
...}`` (:meth:`mille.lab.records.PairResult.to_json`).  With ``--out FILE``
every finished pair is appended, written, flushed and fsynced by a writer
thread as soon as it is in (:class:`ResultsWriter`); ``--resume FILE``
reads it back (:func:`load_results`), so that only the pairs missing are
played, and goes on appending (:func:`open_results`).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, BinaryIO

from .. import __version__
from .records import PairResult
from .schedule import TournamentConfig

#: The first line of a results file says it is one, and of which format.
FORMAT = "mille.tournament results"
FORMAT_VERSION = 1


class TournamentError(RuntimeError):
    """A tournament that cannot run as asked (a results file, say): one line saying why."""


def header(config: TournamentConfig) -> dict[str, Any]:
    """The first line of a results file."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "mille": __version__,
        "players": list(config.players),
        "pairs_per_pairing": config.pairs,
        "seed": config.seed,
        "max_think_ms": config.max_think_ms,
        "game_points": config.game_points,
    }


#: What the header's fields are called on the command line, for the refusal message.
_OPTION_OF = {
    "players": "players",
    "pairs_per_pairing": "--games (pairs per pairing)",
    "seed": "--seed",
    "max_think_ms": "--max-think-ms",
    "game_points": "game points",
    "mille": "mille version",
}


def load_results(path: Path, config: TournamentConfig) -> tuple[dict[tuple[int, int], PairResult], int]:
    """The pairs recorded in ``path`` by pairing index and pair, and the length of its good part.

    An empty file is a tournament not started.  A last line without its
    newline is a record cut short by a kill in mid-write: it is left out
    (that pair is played again) and the file is cut back to the good part
    before anything is appended.  A file of other arguments, or damaged
    anywhere else, is a :class:`TournamentError`.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {exc.strerror or exc}") from None
    good = data.rfind(b"\n") + 1  # the cut-short line, if any, starts here
    lines = data[:good].split(b"\n")[:-1]
    results: dict[tuple[int, int], PairResult] = {}
    if not lines:
        return results, 0
    try:
        first = json.loads(lines[0])
    except ValueError:
        first = None
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise TournamentError(f"{path} is not a mille.tournament results file")
    if first.get("version") != FORMAT_VERSION:
        raise TournamentError(
            f"{path} is a results file of format version {first.get('version')!r}, not {FORMAT_VERSION}"
        )
    expected = header(config)
    differences = [
        f"{_OPTION_OF.get(key, key)} {_show(first.get(key))} there, {_show(value)} here"
        for key, value in expected.items()
        if first.get(key) != value
    ]
    if differences:
        raise TournamentError(
            f"{path} holds a tournament of other arguments ({'; '.join(differences)}): "
            "resume it with the arguments it was started with"
        )
    index = {(config.players[i], config.players[j]): k for k, (i, j) in enumerate(config.pairings)}
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or set(record) != {"pairing", "result"}:
                raise ValueError("a record has exactly the fields pairing and result")
            names = record["pairing"]
            key = tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
            if key not in index:
                raise ValueError(f"{names!r} is not a pairing of this tournament")
            assert key is not None
            result = PairResult.from_json(record["result"])
            if result.pair >= config.pairs:
                raise ValueError(f"pair {result.pair + 1} is beyond the {config.pairs} of a pairing")
        except (ValueError, KeyError, TypeError) as exc:
            raise TournamentError(f"{path}, line {number}: a damaged record ({exc})") from None
        results.setdefault((index[key], result.pair), result)
    return results, good


def _show(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "none" if value is None else str(value)


def _why(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


#: The least time between two fsyncs of a results file: records that come faster share one.
SYNC_INTERVAL = 0.1


class ResultsWriter:
    """Appends records to a results file: each written and flushed at once, fsynced soon after by a thread.

    :meth:`append` writes and flushes the record's line before it returns,
    so a process that is killed loses nothing handed in.  A thread fsyncs
    the file as soon as there is something new, but not twice within
    :data:`SYNC_INTERVAL` (group commit: a ``bsd`` pair lasts about 13 ms
    and an fsync costs a fifth of a millisecond of the kernel's time, so
    one fsync a pair would cost such a tournament a few percent; an
    ``expert`` pair lasts half a minute and gets its own).  A machine that
    goes down loses at most the last tenth of a second of records, which
    ``--resume`` plays again.  :meth:`close` fsyncs what is left.
    """

    def __init__(self, path: Path, *, truncate_to: int | None, header: dict[str, Any] | None) -> None:
        self.path = path
        self._file: BinaryIO
        try:
            if truncate_to is None:
                self._file = open(path, "xb")  # noqa: SIM115 - closed by close()
            else:
                self._file = open(path, "r+b")  # noqa: SIM115
                self._file.truncate(truncate_to)
                self._file.seek(truncate_to)
        except OSError as exc:
            raise TournamentError(f"cannot write {path}: {exc.strerror or exc}") from None
        self._error: Exception | None = None
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self.syncs = 0
        if header is not None:
            self._write(self._line(header))
            self._sync()
            self._check()
        self._thread = threading.Thread(target=self._run, name="mille-results", daemon=True)
        self._thread.start()

    @staticmethod
    def _line(record: dict[str, Any]) -> bytes:
        return (json.dumps(record, separators=(",", ":")) + "\n").encode()

    def append_pair(self, pairing: tuple[str, str], result: PairResult) -> None:
        """Record a finished pair of the pairing of players ``pairing`` (A, B)."""
        self.append({"pairing": list(pairing), "result": result.to_json()})

    def append(self, record: dict[str, Any]) -> None:
        """Write and flush one record; it is fsynced within :data:`SYNC_INTERVAL`."""
        self._check()
        self._write(self._line(record))
        self._check()
        self._dirty.set()

    def _run(self) -> None:
        try:
            while True:
                self._dirty.wait()
                if self._stop.is_set():
                    return
                self._dirty.clear()
                self._sync()
                if self._stop.wait(SYNC_INTERVAL):  # the next fsync no sooner than this
                    return
        except Exception as exc:  # never silently: close() and append() report it
            self._error = exc

    def _write(self, line: bytes) -> None:
        try:
            self._file.write(line)
            self._file.flush()
        except OSError as exc:
            self._error = exc

    def _sync(self) -> None:
        if self._error is not None:
            return
        try:
            os.fsync(self._file.fileno())  # the GIL is released meanwhile
            self.syncs += 1
        except OSError as exc:
            self._error = exc

    def _check(self) -> None:
        if self._error is not None:
            raise TournamentError(f"cannot write {self.path}: {_why(self._error)}")

    def close(self) -> None:
        """Fsync what is left, and close."""
        self._stop.set()
        self._dirty.set()
        self._thread.join()
        self._sync()
        self._file.close()
        self._check()


def open_results(
    config: TournamentConfig, *, out: Path | None = None, resume: Path | None = None
) -> tuple[dict[tuple[int, int], PairResult], ResultsWriter | None]:
    """The pairs already recorded (by pairing index and pair), and the writer that records the others.

    ``resume``: a file of the same ``config`` (:func:`load_results`), cut
    back to its good part and appended to; ``out``: a new file (or an
    empty one), the header written first.  Neither: nothing recorded, no
    writer.
    """
    if resume is not None:
        done, good = load_results(resume, config)
        return done, ResultsWriter(resume, truncate_to=good, header=header(config) if good == 0 else None)
    if out is not None:
        if out.exists() and out.stat().st_size > 0:
            raise TournamentError(f"{out} exists: --resume {out} goes on with it (or remove it)")
        return {}, ResultsWriter(out, truncate_to=0 if out.exists() else None, header=header(config))
    return {}, None


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "SYNC_INTERVAL",
    "ResultsWriter",
    "TournamentError",
    "header",
    "load_results",
    "open_results",
]
