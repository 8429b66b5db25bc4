"""The record of games summed: the counting rules, and ``mille --stats``.

:func:`summarize` turns the events of the record file
(:mod:`mille.files.ledger`, whose documentation says what each event is)
into each computer's table: games played, won, lost, tied and abandoned,
hands, points, the best margin, the streaks and the hints.  The rules that
count a game once: for each game the first ``won``/``lost``/``tied`` event
(else an ``abandoned`` one: a game quit without saving and later resumed
from an earlier save and finished counts as finished), and for each hand
the first event of its number.  Games at each table are counted apart: a
column per computer and table, ``bsd`` for the original's two seats and
``bsd (4 seats)`` for a game of ``mille --players 4`` (its events hold
``seats``).  :func:`print_stats` is ``mille --stats`` (``--json``).
"""

from __future__ import annotations

import os

from .ledger import LedgerError, read_record, stats_path
from .safeio import check_private, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

#: The built-in opponents first in the table, then any other name.
_COLUMN_ORDER = ("bsd", "expert")


def _blank() -> dict[str, Any]:
    return {
        "games_played": 0,
        "games_won": 0,
        "games_lost": 0,
        "games_tied": 0,
        "games_abandoned": 0,
        "hands_played": 0,
        "hands_won": 0,
        "points_for": 0,
        "points_against": 0,
        "best_margin": None,
        "current_streak": 0,
        "longest_streak": 0,
        "hints": 0,
        "games_with_hints": 0,
        "saved_unfinished": 0,
    }


def summarize(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The record per computer, from the events (see the module documentation for the rules).

    Keys of each computer's entry: ``games_played`` (won + lost + tied +
    abandoned), ``games_won``, ``games_lost``, ``games_tied``,
    ``games_abandoned``, ``hands_played``, ``hands_won`` (scored more than
    the computer in the hand), ``points_for``, ``points_against`` (the hands'
    points), ``best_margin`` (the best final margin of a finished game, None
    before one), ``current_streak`` and ``longest_streak`` (games won in a
    row, in the order they ended; a game lost, tied or abandoned ends a
    streak), ``hints``, ``games_with_hints``, and ``saved_unfinished``
    (games saved and not yet finished or abandoned).
    """
    hands: dict[tuple[str, int], dict[str, Any]] = {}
    outcome: dict[str, tuple[int, dict[str, Any]]] = {}
    saved: dict[str, list[str]] = {}
    for index, event in enumerate(events):
        kind = event.get("t")
        if kind == "hand":
            hands.setdefault((event["game"], event["n"]), event)
        elif kind == "game":
            game = event["game"]
            known = outcome.get(game)
            if known is None or (known[1]["result"] == "abandoned" and event["result"] != "abandoned"):
                outcome[game] = (index, event)
        elif kind == "save":
            saved[event["game"]] = _columns_of(event)
    table: dict[str, dict[str, Any]] = {}

    def entry(computer: str) -> dict[str, Any]:
        if computer not in table:
            table[computer] = _blank()
        return table[computer]

    for event in hands.values():
        for column in _columns_of(event):
            row = entry(column)
            row["hands_played"] += 1
            row["hands_won"] += event["for"] > event["against"]
            row["points_for"] += event["for"]
            row["points_against"] += event["against"]
    for _, event in sorted(outcome.values(), key=lambda item: item[0]):
        for column in _columns_of(event):
            _count_game(entry(column), event)
    for game, columns in saved.items():
        if game not in outcome:
            for column in columns:
                entry(column)["saved_unfinished"] += 1
    return {name: table[name] for name in _columns(table)}


def _count_game(row: dict[str, Any], event: dict[str, Any]) -> None:
    """A game's end counted in one column's row."""
    result = event["result"]
    row["games_played"] += 1
    row[f"games_{result}"] += 1
    row["hints"] += event["hints"]
    row["games_with_hints"] += event["hints"] > 0
    if result == "won":
        row["current_streak"] += 1
        row["longest_streak"] = max(row["longest_streak"], row["current_streak"])
    else:
        row["current_streak"] = 0
    if result != "abandoned":
        margin = event["for"] - event["against"]
        if row["best_margin"] is None or margin > row["best_margin"]:
            row["best_margin"] = margin


def _columns_of(event: dict[str, Any]) -> list[str]:
    """The columns an event counts in: its computer's, or, in a game with people, each other person's (``person:bob``
    against, ``partner:bob`` with; docs/mille.6, STATISTICS), the table's seats beside each."""
    people = event.get("people")
    if not isinstance(people, dict) or not people:
        return [_column(event)]
    seats = event.get("seats")
    where = "" if seats is None else f" ({seats} seats)"
    return [("partner:" if relation == "partner" else "person:") + name + where for name, relation in people.items()]


def _column(event: dict[str, Any]) -> str:
    """The column an event counts in: its computer, and its table's seats when not the original's two."""
    seats = event.get("seats")
    return event["computer"] if seats is None else f"{event['computer']} ({seats} seats)"


def _columns(table: dict[str, Any]) -> list[str]:
    return sorted(table, key=_column_key)


def _column_key(name: str) -> tuple[int, str, str]:
    """The built-in opponents first, then any other name; a computer's tables together, two seats first."""
    computer, _, rest = name.partition(" (")
    rank = _COLUMN_ORDER.index(computer) if computer in _COLUMN_ORDER else len(_COLUMN_ORDER)
    return rank, computer, rest


#: The table's rows: (label, key); "" is a blank line.
_ROWS = (
    ("games played", "games_played"),
    ("  won", "games_won"),
    ("  lost", "games_lost"),
    ("  tied", "games_tied"),
    ("  abandoned", "games_abandoned"),
    ("  saved, unfinished", "saved_unfinished"),
    ("", ""),
    ("hands played", "hands_played"),
    ("  won", "hands_won"),
    ("points for", "points_for"),
    ("points against", "points_against"),
    ("best game margin", "best_margin"),
    ("", ""),
    ("winning streak", "current_streak"),
    ("longest streak", "longest_streak"),
    ("hints used", "hints"),
)


def _cut_short_note(cut_short: int) -> str:
    lines = "1 line" if cut_short == 1 else f"{cut_short} lines"
    return f"{lines} cut short by a failed write (a full disk?) not counted.\n" if cut_short else ""


def format_table(summary: dict[str, dict[str, Any]], path: str, cut_short: int = 0) -> str:
    """The record as a table, a column per computer (``mille --stats``); ``cut_short``: lines skipped."""
    if not summary:
        return f"No games recorded yet ({path}).\n" + _cut_short_note(cut_short)
    width = max(9, *(len(name) + 2 for name in summary))
    lines = ["computer".ljust(20) + "".join(name.rjust(width) for name in summary)]
    for label, key in _ROWS:
        if not key:
            lines.append("")
            continue
        if key == "games_tied" and not any(row[key] for row in summary.values()):
            continue  # a tie at 5000 is rare: no row until there is one
        cells = []
        for row in summary.values():
            value = row[key]
            if key == "best_margin":
                cells.append("-" if value is None else f"{value:+d}")
            else:
                cells.append(str(value))
        lines.append(label.ljust(20) + "".join(cell.rjust(width) for cell in cells))
    lines.append("")
    lines.append(f"Recorded in {path}.")
    return "\n".join(lines) + "\n" + _cut_short_note(cut_short)


def format_json(summary: dict[str, dict[str, Any]], path: str, cut_short: int = 0) -> str:
    """The record as JSON (``mille --stats --json``): the file, an entry per computer, the lines cut short."""
    import json

    return json.dumps({"file": path, "computers": summary, "cut_short": cut_short}, indent=2) + "\n"


# --------------------------------------------------------------------------
# The position of a save, known without the save file


def print_stats(as_json: bool = False) -> int:
    """``mille --stats [--json]``: print the record; 1 (and a line on standard error) if it cannot be read."""
    import sys

    path = "the record of games"
    try:
        path = stats_path()
        directory = os.path.dirname(path)
        if os.path.isdir(directory):
            check_private(directory)
        record = read_record(path)
        summary = summarize(record.events)
    except LedgerError as exc:
        print(f"mille: {shown(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"mille: {shown(exc.filename or path)}: {shown(exc.strerror or str(exc))}", file=sys.stderr)
        return 1
    except Exception as exc:  # never a traceback
        print(f"mille: {shown(path)}: cannot be read ({type(exc).__name__})", file=sys.stderr)
        return 1
    if as_json:
        sys.stdout.write(format_json(summary, path, record.cut_short))
    else:
        sys.stdout.write(format_table(summary, shown(path), record.cut_short))
    return 0


__all__ = ["format_json", "format_table", "print_stats", "summarize"]
