"""A tournament's results file: its format, writing it as the sets finish, reading it back for ``--resume``.

The file is JSON lines.  The first line, the header (:func:`header`), says
it is a results file and of which format, and records what decides the
results (:class:`~mille.lab.schedule.TournamentConfig`); every other line
is one finished set.  Each table keeps the format it has always had:

* at two seats (:data:`FORMAT`), a line is a pair, ``{"pairing": [A, B],
  "result": ...}`` (:meth:`mille.lab.records.SetResult.to_json`, A's
  margin in every hand and the think times included);
* at the larger tables (:data:`TABLE_FORMAT`), a line is a set,
  ``{"table": [names], "set": u, "games": [...]}``
  (:meth:`mille.lab.records.GameRecord.to_table_json`: each game's hands,
  points and winners, by the player's place in ``table``).

With ``--out FILE`` every finished set is appended, written, flushed and
fsynced by a writer thread as soon as it is in (:class:`ResultsWriter`,
:func:`results_line`); ``--resume FILE`` reads it back
(:func:`open_results`), so that only the sets missing are played, and goes
on appending.  The writing goes through :class:`mille.files.safeio.AppendOnly`
(the header written whole before the file has its name; each record in one
write at the end).

A results file comes from outside: it may have been edited, damaged or
made by someone else, so it is read by the one reader, :func:`read_lines`,
with a size limit (:data:`MAX_FILE`), and every record is cross-checked
(:func:`check_pair`, :func:`check_set`) before it counts: a record that
does not add up is refused with its line number, never summed into a
rating.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.driver import MAX_MOVES_PER_HAND
from ..files.safeio import AppendOnly, open_regular, read_fd, shown
from .records import MAX_HANDS_PER_GAME, MOST_HAND_POINTS, GameRecord, SetResult, whole
from .schedule import TournamentConfig
from .stats import ThinkStats

#: The first line of a results file says it is one, and of which format: at two seats ...
FORMAT = "mille.tournament results"
FORMAT_VERSION = 1
#: ... and at the larger tables.
TABLE_FORMAT = "mille.tournament table results"
TABLE_FORMAT_VERSION = 1


class TournamentError(RuntimeError):
    """A tournament that cannot run as asked (a results file, say): one line saying why."""


def header(config: TournamentConfig) -> dict[str, Any]:
    """The first line of a results file (its format the table's)."""
    if config.seats != 2:
        return {
            "format": TABLE_FORMAT,
            "version": TABLE_FORMAT_VERSION,
            "mille": __version__,
            "seats": config.seats,
            "players": list(config.players),
            "sets_per_table": config.pairs,
            "seed": config.seed,
            "max_think_ms": config.max_think_ms,
            "game_points": config.game_points,
        }
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
_TABLE_OPTION_OF = {
    "seats": "--players",
    "sets_per_table": "--games (sets per table)",
    "seed": "--seed",
    "max_think_ms": "--max-think-ms",
    "game_points": "game points",
    "mille": "mille version",
}


#: The largest results file read back (about a million pairs of cheap players, at a kilobyte a pair).
MAX_FILE = 1 << 30

#: Longer than any decision is timed (four months): a think time beyond it is not one.
MOST_THINK_SECONDS = 1e7

#: More decisions than a player can make in the two games of a pair.
MOST_DECISIONS = 2 * MAX_HANDS_PER_GAME * MAX_MOVES_PER_HAND


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


#: JSON as the writer writes it: no NaN or Infinity.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def parse_line(line: bytes) -> object:
    """One line's JSON; ValueError for anything else (invalid UTF-8, NaN, nesting past Python's limit)."""
    try:
        return _DECODER.decode(line.decode("utf-8"))
    except RecursionError:  # a line of ten thousand "[": no line of a results file nests so deep
        raise ValueError("nested deeper than any line of a results file") from None


def same_value(there: object, here: object) -> bool:
    """A header's value is the one expected: equal, and a boolean only where a boolean is meant."""
    if isinstance(there, bool) or isinstance(here, bool):
        return type(there) is type(here) and there == here
    if isinstance(here, list):
        return isinstance(there, list) and len(there) == len(here) and all(map(same_value, there, here))
    return there == here


def shown_value(value: object, most: int = 200) -> str:
    """A header's value as the refusal shows it: escaped (:func:`shown`) and cut to ``most`` characters."""

    def one(v: object) -> str:
        if v is None:
            return "none"
        if isinstance(v, (str, int, float)):
            return str(v)
        return "a list" if isinstance(v, list) else "an object"

    text = shown(" ".join(one(v) for v in value[:100]) if isinstance(value, list) else one(value))
    return text if len(text) <= most else text[: most - 3] + "..."


def check_arguments(first: dict[str, Any], expected: dict[str, Any], path: Path, option_of: dict[str, str]) -> None:
    """A :class:`TournamentError` unless the header ``first`` holds the arguments ``expected``, and nothing more.

    Each argument that differs is named as its option (``option_of``, else
    its field), for the two-seat results file and the larger tables' alike.
    """
    differences = [
        f"{option_of.get(key, key)} {shown_value(first.get(key))} there, {shown_value(value)} here"
        for key, value in expected.items()
        if not same_value(first.get(key), value)
    ]
    if differences:
        raise TournamentError(
            f"{path} holds a tournament of other arguments ({'; '.join(differences)}): "
            "resume it with the arguments it was started with"
        )
    if len(first) != len(expected):
        raise TournamentError(f"{path}, line 1: a damaged header (fields a results file's header does not have)")


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back while a finished set is written to the file and counted: both, or neither.

    A stop (Ctrl-C, or SIGTERM, which the command line turns into it)
    that arrives meanwhile is delivered as the block ends, so that every
    set the report counts is in the file, and no other (Unix, the main
    thread; elsewhere nothing is held).
    """
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _check_header(first: object, config: TournamentConfig, path: Path) -> None:
    """A :class:`TournamentError` unless ``first`` is the header of ``config``'s results file."""
    if config.seats != 2:
        if not isinstance(first, dict) or first.get("format") != TABLE_FORMAT:
            if isinstance(first, dict) and first.get("format") == FORMAT:
                raise TournamentError(
                    f"{path} is the results file of a two-seat tournament, not of the table of {config.seats}"
                )
            raise TournamentError(f"{path} is not a mille.tournament table results file")
        if not same_value(first.get("version"), TABLE_FORMAT_VERSION):
            version = shown_value(first.get("version"))
            raise TournamentError(
                f"{path} is a table results file of format version {version}, not {TABLE_FORMAT_VERSION}"
            )
        check_arguments(first, header(config), path, _TABLE_OPTION_OF)
        return
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise TournamentError(f"{path} is not a mille.tournament results file")
    if not same_value(first.get("version"), FORMAT_VERSION):
        raise TournamentError(
            f"{path} is a results file of format version {shown_value(first.get('version'))}, not {FORMAT_VERSION}"
        )
    expected = header(config)
    check_arguments(first, expected, path, _OPTION_OF)


def _check_game(game: GameRecord, config: TournamentConfig) -> None:
    """ValueError unless the game's record adds up: its seat, hands, points, margins, winner and forfeit."""
    which = "the second game" if game.second else "the first game"
    hands = len(game.margins)
    a, b = game.a_points, game.b_points
    if game.a_seat != int(game.second):
        raise ValueError(f"{which}: player A in seat {game.a_seat}, where it never sits in that game")
    if hands > MAX_HANDS_PER_GAME:
        raise ValueError(f"{which}: {hands} hands, more than a game has")
    if any(abs(m) > MOST_HAND_POINTS for m in game.margins):
        raise ValueError(f"{which}: a hand's margin beyond what a hand can score")
    if not (0 <= a <= hands * MOST_HAND_POINTS and 0 <= b <= hands * MOST_HAND_POINTS):
        raise ValueError(f"{which}: points that its hands cannot have scored")
    if sum(game.margins) != a - b:
        raise ValueError(f"{which}: the hands' margins do not add up to the points ({a} to {b})")
    fault = game.fault
    if fault is None:
        if max(a, b) < config.game_points:
            raise ValueError(f"{which}: it ends before either player has {config.game_points} points")
        winner = None if a == b else 0 if a > b else 1
        if game.winner != winner:
            raise ValueError(f"{which}: the winner is not the player with more points ({a} to {b})")
        return
    if fault.hand != hands:
        raise ValueError(f"{which}: a forfeit in hand {fault.hand + 1} after {hands} hands finished")
    if game.winner != 1 - fault.player:
        raise ValueError(f"{which}: the winner is the player who forfeited")
    if max(a, b) >= config.game_points:
        raise ValueError(f"{which}: a forfeit after the game was over")


def _check_think(think: ThinkStats, who: str) -> None:
    """ValueError unless the histogram is one of the two games of a pair: sizes and times that can be."""
    if not (math.isfinite(think.max_seconds) and 0.0 <= think.max_seconds <= MOST_THINK_SECONDS):
        raise ValueError(f"{who}'s longest think time is not a time a decision took")
    if think.count > MOST_DECISIONS:
        raise ValueError(f"{who}: more decisions than two games have")
    longest = ThinkStats()
    longest.add(think.max_seconds)
    top = next(iter(longest.buckets))
    if any(not 0 <= bucket <= top for bucket in think.buckets):
        raise ValueError(f"{who}: think times beyond the longest")


def check_pair(result: SetResult, config: TournamentConfig) -> None:
    """ValueError (saying what) unless ``result`` can be a pair of ``config``'s tournament.

    The pair is within the pairing's; each game's winner agrees with its
    points (or its forfeit), its margins add up to the points, and no
    number is beyond what a game can give; the think-time histograms have
    sizes and times that can be.  What cannot be checked without playing
    the pair again is a record made up whole and consistent.
    """
    if result.pair >= config.pairs:
        raise ValueError(f"pair {result.pair + 1} is beyond the {config.pairs} of a pairing")
    for game in result.games:
        _check_game(game, config)
    for who, think in zip(("player A", "player B"), result.think):
        _check_think(think, who)


def read_lines(
    data: bytes,
    path: Path,
    kind: str,
    check_first: Callable[[object], None],
    read: Callable[[object], tuple[tuple[int, int], SetResult, str]],
) -> tuple[dict[tuple[int, int], SetResult], int]:
    """The records of a results file's bytes ``data`` by their key, and its good part's length: the one reader.

    Empty ``data`` is a tournament not started.  Anything else must begin
    with a whole header line, which ``check_first`` accepts (or raises
    :class:`TournamentError`), and every other whole line must be a record
    that ``read`` turns into its key (the match's index and the unit's),
    the record, and the unit's name for the refusal of one recorded twice
    (``read`` raises ValueError, saying what, for a record that does not
    add up).  A last line without its newline is a record cut short by a
    kill in mid-write: it is left out (that unit is played again).
    Anything else is a :class:`TournamentError`, with the line's number
    (``kind``: the file's kind, for the refusal of a file without even a
    header).
    """
    done: dict[tuple[int, int], SetResult] = {}
    if not data:
        return done, 0
    if len(data) > MAX_FILE:
        raise TournamentError(f"{path} is larger than any results file")
    good = data.rfind(b"\n") + 1  # the cut-short line, if any, starts here
    if good == 0:  # not even a header: somebody else's file, never a new one to write over
        raise TournamentError(f"{path} is not a {kind} file")
    lines = data[:good].split(b"\n")[:-1]
    try:
        first = parse_line(lines[0])
    except ValueError:
        first = None
    check_first(first)
    for number, line in enumerate(lines[1:], start=2):
        try:
            key, record, unit = read(parse_line(line))
            if key in done:
                raise ValueError(f"{unit} is recorded twice")
        except (ValueError, KeyError, TypeError, OverflowError) as exc:
            raise TournamentError(f"{path}, line {number}: a damaged record ({exc})") from None
        done[key] = record
    return done, good


def check_set(games: Sequence[GameRecord], config: TournamentConfig) -> None:
    """ValueError (saying what) unless ``games`` can be a set of ``config``'s tournament.

    One game per rotation, in order; each game's winners are those with the
    most points, at least ``game_points`` of them, or, after a forfeit, every
    player but the one who forfeited, before anyone reached the end.  What
    cannot be checked without playing the set again is a line made up
    whole and consistent.
    """
    sides = config.sides
    if [g.rotation for g in games] != list(range(sides)):
        raise ValueError(f"a set is {sides} games, one per rotation, in order")
    for g in games:
        which = f"rotation {g.rotation + 1}"
        if list(g.winners) != sorted(set(g.winners)):
            raise ValueError(f"{which}: its winners are not each named once, in order")
        best = max(g.points)
        if g.fault is None:
            if best < config.game_points:
                raise ValueError(f"{which}: it ends before any side has {config.game_points} points")
            if g.winners != tuple(p for p in range(sides) if g.points[p] == best):
                raise ValueError(f"{which}: the winners are not the players with the most points")
            if g.hands < 1:
                raise ValueError(f"{which}: a game over without a hand played")
        else:
            if g.winners != tuple(p for p in range(sides) if p != g.fault.player):
                raise ValueError(f"{which}: the winners are not every player but the one who forfeited")
            if best >= config.game_points:
                raise ValueError(f"{which}: a forfeit after the game was over")


def parse_results(data: bytes, config: TournamentConfig, path: Path) -> tuple[dict[tuple[int, int], SetResult], int]:
    """The sets recorded in ``data`` (a results file's bytes) by match index and set, and its good part's length.

    As :func:`read_lines` reads a file: the header of ``config``'s
    tournament, then records that add up (:func:`check_pair`,
    :func:`check_set`), each of a match of the tournament, no set twice.
    """
    index = {tuple(config.players[i] for i in group): k for k, group in enumerate(config.pairings)}
    if config.seats != 2:
        return _parse_sets(data, config, path, index)

    def read(record: object) -> tuple[tuple[int, int], SetResult, str]:
        if not isinstance(record, dict) or set(record) != {"pairing", "result"}:
            raise ValueError("a record has exactly the fields pairing and result")
        names = record["pairing"]
        key = tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
        if key is None or key not in index:
            raise ValueError(f"{shown_value(names)} is not a pairing of this tournament")
        result = SetResult.from_json(record["result"])
        check_pair(result, config)
        return (index[key], result.pair), result, f"pair {result.pair + 1} of {shown_value(names)}"

    return read_lines(data, path, "mille.tournament results", lambda first: _check_header(first, config, path), read)


def _parse_sets(
    data: bytes, config: TournamentConfig, path: Path, index: dict[tuple[str, ...], int]
) -> tuple[dict[tuple[int, int], SetResult], int]:
    """:func:`parse_results` at the larger tables."""

    def read(record: object) -> tuple[tuple[int, int], SetResult, str]:
        if not isinstance(record, dict) or set(record) != {"table", "set", "games"}:
            raise ValueError("a record has exactly the fields table, set and games")
        names = record["table"]
        key = tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
        if key is None or key not in index:
            raise ValueError(f"{shown_value(names)} is not a table of this tournament")
        unit = whole(record["set"], "a set", 0, config.pairs - 1)
        games = record["games"]
        if not isinstance(games, list):
            raise ValueError("a set's games are not a list")
        played = tuple(GameRecord.from_table_json(unit, g, config.sides) for g in games)
        check_set(played, config)
        think = tuple(ThinkStats() for _ in range(config.sides))  # a larger table's results file keeps none
        return (index[key], unit), SetResult(unit, played, think), f"set {unit + 1} of {shown_value(names)}"

    return read_lines(
        data, path, "mille.tournament table results", lambda first: _check_header(first, config, path), read
    )


def results_line(config: TournamentConfig, match: int, result: SetResult) -> dict[str, Any]:
    """A finished set of match ``match`` (its index in :attr:`~mille.lab.schedule.TournamentConfig.pairings`) as
    a line of the results file, in the table's format."""
    names = [config.players[i] for i in config.pairings[match]]
    if config.seats != 2:
        return {"table": names, "set": result.unit, "games": [g.to_table_json() for g in result.games]}
    return {"pairing": names, "result": result.to_json()}


def load_results(path: Path, config: TournamentConfig) -> tuple[dict[tuple[int, int], SetResult], int]:
    """The pairs recorded in the file ``path`` (:func:`parse_results`), read with a size limit; nothing is written."""
    from ..files.safeio import read_regular

    try:
        data, _ = read_regular(str(path), MAX_FILE)
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {_why(exc)}") from None
    return parse_results(data, config, path)


def _why(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


#: The least time between two fsyncs of a results file: records that come faster share one.
SYNC_INTERVAL = 0.1


class ResultsWriter:
    """Appends records to a results file: each written at once, fsynced soon after by a thread.

    :meth:`append` writes the record's line (one ``write`` at the end of
    the file, :meth:`mille.files.safeio.AppendOnly.append`) before it
    returns, so a process that is killed loses nothing handed in.  A
    thread fsyncs the file as soon as there is something new, but not
    twice within :data:`SYNC_INTERVAL` (group commit: a ``bsd`` pair lasts
    about 13 ms and an fsync costs a fifth of a millisecond of the
    kernel's time, so one fsync a pair would cost such a tournament a few
    percent; an ``expert`` pair lasts half a minute and gets its own).  A
    machine that goes down loses at most the last tenth of a second of
    records, which ``--resume`` plays again.  :meth:`close` fsyncs what is
    left.

    The file: ``file`` (already open, say for ``--resume``: cut back to
    ``truncate_to``); else a new file at ``path`` (``truncate_to`` None:
    made with its header whole, :meth:`~mille.files.safeio.AppendOnly.create`)
    or the existing one (cut back to ``truncate_to``).  ``header``, if
    given, is written first and synced.
    """

    def __init__(
        self,
        path: Path,
        *,
        truncate_to: int | None,
        header: dict[str, Any] | None,
        file: AppendOnly | None = None,
    ) -> None:
        self.path = path
        self._error: Exception | None = None
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self.syncs = 0
        try:
            if file is None and truncate_to is None:
                file = AppendOnly.create(str(path), b"" if header is None else self._line(header))
                self.syncs += header is not None  # the header is synced with the file's creation
                header = None
            elif file is None:
                file = AppendOnly.open(str(path), truncate_to=truncate_to)
            elif truncate_to is not None:
                file.cut_back(truncate_to)
        except OSError as exc:
            if file is not None:
                file.close(sync=False)
            raise TournamentError(f"cannot write {path}: {_why(exc)}") from None
        self._file = file
        if header is not None:
            self._write(self._line(header))
            self._sync()
            self._check()
        self._thread = threading.Thread(target=self._run, name="mille-results", daemon=True)
        self._thread.start()

    @staticmethod
    def _line(record: dict[str, Any]) -> bytes:
        return (json.dumps(record, separators=(",", ":")) + "\n").encode()

    def append(self, record: dict[str, Any]) -> None:
        """Write one record; it is fsynced within :data:`SYNC_INTERVAL`."""
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
            self._file.append(line, sync=False)  # a write cut short is cut off again: ShortWrite
        except OSError as exc:
            self._error = exc

    def _sync(self) -> None:
        if self._error is not None:
            return
        try:
            self._file.sync()  # the GIL is released meanwhile
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
        self._file.close(sync=False)
        self._check()


def _private(file: AppendOnly) -> None:
    """A results file taken over (``--resume``, an empty ``--out``) is made 0600, as a new one is made.

    Its header holds the tournament seed, which derives every deal: while
    the run lasts no other user (a bot run as one, docs/protocol.md) may
    read it.
    """
    try:
        os.fchmod(file.fd, 0o600)
    except OSError:  # not ours to change (the owner's own rules then apply)
        pass


def results_seed(path: Path) -> int | None:
    """The seed in the header of the results file ``path`` (``--resume`` without ``--seed``); None if it has none.

    :class:`TournamentError` if the file cannot be read; whether the file is
    whole is :func:`open_results`'s to check, with the seed found here.
    """
    try:
        fd, _ = open_regular(str(path))
    except OSError as exc:
        raise TournamentError(f"cannot open {path}: {_why(exc)}") from None
    try:
        first = os.read(fd, 1 << 16).split(b"\n", 1)[0]  # a header is a few hundred bytes
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {_why(exc)}") from None
    finally:
        os.close(fd)
    try:
        data = parse_line(first)
    except ValueError:
        return None
    seed = data.get("seed") if isinstance(data, dict) else None
    return seed if type(seed) is int else None


def _resume(path: Path, config: TournamentConfig) -> tuple[dict[tuple[int, int], SetResult], ResultsWriter]:
    """``--resume``: the file opened once, read and checked through that descriptor, then cut and appended to.

    The file's bytes are read as :func:`parse_results` says; ``config``'s
    header is written to a file not started.

    Nothing is written to a file refused; what is checked is what is
    written to, whatever happens to the name meanwhile.  A symbolic link is
    followed only to a results file of this user's that has been started
    (not empty): a header is never written through a link (as ``--out``
    never follows one), so a link planted where a results file is expected
    cannot make a tournament write into another file.
    """
    try:
        file = AppendOnly.open(str(path), follow=True)
    except OSError as exc:
        raise TournamentError(f"cannot open {path}: {_why(exc)}") from None
    _private(file)
    try:
        if os.path.islink(path):
            st = os.fstat(file.fd)
            if st.st_size == 0:
                raise TournamentError(
                    f"--resume {path} is a symbolic link to an empty file: start a tournament with --out on the "
                    "file itself, not through a link"
                )
            if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
                raise TournamentError(f"--resume {path} is a symbolic link to a file of another user: not followed")
        try:
            data = read_fd(file.fd, MAX_FILE, file.size(), str(path))
        except OSError as exc:
            raise TournamentError(f"cannot read {path}: {_why(exc)}") from None
        done, good = parse_results(data, config, path)
    except BaseException:
        file.close(sync=False)
        raise
    return done, ResultsWriter(path, truncate_to=good, header=header(config) if good == 0 else None, file=file)


def _start(path: Path, first: dict[str, Any]) -> ResultsWriter:
    """``--out``: a new file, made with its header ``first`` whole; an existing empty file is taken, anything else
    refused."""
    try:
        file = AppendOnly.create(str(path), ResultsWriter._line(first))
    except FileExistsError:
        try:
            file = AppendOnly.open(str(path))  # a link is not followed: a file started here is this name's own
        except OSError as exc:
            raise TournamentError(f"cannot write {path}: {_why(exc)}") from None
        if file.size() > 0:
            file.close(sync=False)
            raise TournamentError(f"{path} exists: --resume {path} goes on with it (or remove it)") from None
        _private(file)
        return ResultsWriter(path, truncate_to=None, header=first, file=file)
    except OSError as exc:
        raise TournamentError(f"cannot write {path}: {_why(exc)}") from None
    return ResultsWriter(path, truncate_to=None, header=None, file=file)


def open_results(
    config: TournamentConfig, *, out: Path | None = None, resume: Path | None = None
) -> tuple[dict[tuple[int, int], SetResult], ResultsWriter | None]:
    """The sets already recorded (by match index and set), and the writer that records the others.

    ``resume``: a results file of the same ``config`` (:func:`parse_results`),
    cut back to its good part and appended to (an empty file is a
    tournament not started); ``out``: a new file (or an empty one), the
    header written first.  Neither: nothing recorded, no writer.  Only a
    missing or empty file starts a tournament: a file that is anything else
    is refused, untouched.
    """
    if resume is not None:
        return _resume(resume, config)
    if out is not None:
        return {}, _start(out, header(config))
    return {}, None


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE",
    "MOST_DECISIONS",
    "MOST_HAND_POINTS",
    "MOST_THINK_SECONDS",
    "SYNC_INTERVAL",
    "ResultsWriter",
    "TABLE_FORMAT",
    "TABLE_FORMAT_VERSION",
    "TournamentError",
    "check_pair",
    "check_set",
    "header",
    "load_results",
    "open_results",
    "parse_line",
    "parse_results",
    "read_lines",
    "same_value",
    "shown_value",
    "stops_held",
    "results_line",
    "results_seed",
]
