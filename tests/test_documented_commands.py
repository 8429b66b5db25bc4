"""The commands the README and docs/ show work as written after the README's own install.

A newcomer who ran the README's install line and then pasted
``python -m mille.match ...`` got "No module named mille": the install made a
virtualenv and did not activate it.  The install and test lines now
activate it, and every ``python -m mille...`` module a page names starts
(its ``--help``), run by the interpreter the tests run under (the one the
install made, in CI).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from player_helpers import SRC

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "docs" / "mille.6"]


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks of a Markdown page."""
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)


def documented_modules() -> list[str]:
    """Every ``python -m mille[.X]`` the pages name (``python3`` and a line break inside included)."""
    found: set[str] = set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8").replace("\\-", "-")
        found.update(re.findall(r"\bpython3? +-m +(mille(?:\.[a-z_]+)*)", re.sub(r"\s+", " ", text)))
    return sorted(found)


def test_the_install_lines_activate_the_virtualenv_they_make() -> None:
    """Each README line that makes .venv and then runs a command makes that command the virtualenv's."""
    blocks = [b for b in shell_blocks((ROOT / "README.md").read_text(encoding="utf-8")) if "-m venv .venv" in b]
    assert len(blocks) >= 2  # install and play; run the tests
    for block in blocks:
        steps = [step.strip() for step in block.strip().split("&&")]
        made = steps.index("python3 -m venv .venv")
        assert steps[made + 1] == ". .venv/bin/activate", block
        for step in steps[made + 2 :]:
            assert step.split()[0] in ("pip", "mille", "python"), step


def test_the_pages_name_the_programs() -> None:
    assert {"mille", "mille.match", "mille.tournament", "mille.replay", "mille.sim", "mille.bot"} <= set(
        documented_modules()
    )


@pytest.mark.parametrize("module", documented_modules())
def test_every_documented_module_starts(module: str) -> None:
    res = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    assert "usage:" in res.stdout.lower(), res.stdout
