"""Reports without their timing: what two runs of the same games share (bench/same_reports.py, test_files_ee40e02).

Two runs of the same games (two checkouts, or a checkout and the files an
older one wrote) must agree once the timing is left out of the ``--json``
reports and the results files, and the times and rates are masked in the
text reports.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Fields that depend on the machine and the moment (both tools' TIMING_FIELDS, at any depth).
TIMING = {"think_ms", "seconds", "games_per_second", "pairs_per_second"}


def without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def masked(text: str) -> str:
    """A text report with what depends on the machine and the moment masked: seconds, rates, think times."""
    text = re.sub(r"\d[\d.e+-]* ms\b", "T ms", text)
    text = re.sub(r"\d[\d.]* s, ", "T s, ", text)
    return re.sub(r"\d[\d.e+-]* (games|pairs)/s", r"R \1/s", text)


def lines_without_think(path: str) -> list[Any]:
    """A results file's lines as JSON, the think-time histograms (timing) left out."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        if isinstance(row.get("result"), dict):
            row["result"].pop("think", None)
    return rows
