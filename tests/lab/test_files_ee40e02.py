"""The lab's promise to the files of ee40e02 (issue 44): its reports, results files and records, read by this code.

``tests/files_ee40e02/`` holds what a checkout of ee40e02 printed on fixed
seeds (match and tournament reports at 2, 3, 4 and 6 seats, as text and as
JSON), the results files it wrote (cut short as a kill leaves them) with the
report and file its ``--resume`` gave, and the game records it wrote with
what ``python -m mille.replay`` said of them (``make.py`` made them; its
``manifest.json`` lists every command).  Each command runs again here: the
same report (the times masked), the same file after ``--resume`` (the think
times apart), the same replay, byte for byte.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import SRC, TESTS
from helpers.reports import lines_without_think, masked, without_timing

FILES = Path(TESTS) / "files_ee40e02"
MANIFEST: list[dict[str, Any]] = json.loads((FILES / "manifest.json").read_text())


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_what_ee40e02_printed_and_wrote_reads_the_same_here(entry: dict[str, Any], tmp_path: Path) -> None:
    shutil.copy(FILES / "lab_players.py", tmp_path)
    if "given" in entry:
        source, name = entry["given"]
        shutil.copy(FILES / source, tmp_path / name)
    done = subprocess.run(
        [sys.executable, "-m", entry["tool"], *entry["args"]],
        env={**os.environ, "PYTHONPATH": SRC},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    expected = (FILES / f"{entry['name']}.out").read_text()
    printed = done.stdout + done.stderr
    assert done.returncode == entry["status"], printed
    if entry["compare"] == "json":
        assert json.dumps(without_timing(json.loads(printed))) == json.dumps(without_timing(json.loads(expected)))
    elif entry["compare"] == "text":
        assert masked(printed) == masked(expected)
    else:
        assert printed == expected
    if "after" in entry:
        written, kept = entry["after"]
        assert lines_without_think(str(tmp_path / written)) == lines_without_think(str(FILES / kept))
