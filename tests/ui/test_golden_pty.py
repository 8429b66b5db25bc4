"""Golden pty replays: the clone must draw exactly what BSD mille drew.

Each transcript in tests/golden/ (recorded from the real /usr/games/mille by
tests/bench/record_golden.py; see tests/golden/README.md) is replayed key step by
key step against a program on an 80x24 pty (TERM=xterm), and every settled
screen - 24 lines, cursor, attribute runs, exited or not - must equal the
recorded one, up to the manifest's compare_until.  A transcript stops at its
first mismatch; the failure shows the step, the keys and both screens with
the differing rows marked.

    PYTHONPATH=src python3 -m pytest -q -m golden tests/ui/test_golden_pty.py
    pytest -m golden -k chaos-007 tests/ui/test_golden_pty.py

The program is chosen by $MILLE_REPLAY_CMD (default: the Python clone,
``{python} -m mille --seed {seed}`` with PYTHONPATH=<repo>/src, run in a
fresh temporary directory).  To check the replayer itself against the real
binary (needs bsdgames and the seed shim of ../shared/bsdref):

    MILLE_REPLAY_CMD=bsd pytest -m golden tests/ui/test_golden_pty.py
    MILLE_REPLAY_CMD='env LD_PRELOAD=/path/seedshim.so MILLE_SEED={seed} \\
        /usr/games/mille' pytest -m golden tests/ui/test_golden_pty.py

Templates expand {seed}, {python}, {repo}, {src} and {shim}
($MILLE_SEEDSHIM, default <repo>/../shared/bsdref/seedshim.so).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os

import pytest

from helpers import TESTS, ptyreplay

pytestmark = pytest.mark.golden

GOLDEN = os.path.join(TESTS, "golden")
MANIFEST_PATH = os.path.join(GOLDEN, "manifest.json")


def _manifest() -> dict:
    with open(MANIFEST_PATH) as f:
        return json.load(f)


ENTRIES = _manifest()["files"]
TEMPLATE = os.environ.get("MILLE_REPLAY_CMD", "clone")


def _id(entry: dict) -> str:
    return entry["file"].split(".")[0]


def _check_runnable() -> None:
    if TEMPLATE == "bsd":
        if not os.path.exists("/usr/games/mille"):
            pytest.skip("/usr/games/mille not installed")
        if not os.path.exists(ptyreplay.default_shim()):
            pytest.skip("seed shim %s not found" % ptyreplay.default_shim())


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_golden_replay(entry, tmp_path):
    _check_runnable()
    _, steps, _ = ptyreplay.load_transcript(os.path.join(GOLDEN, entry["file"]))
    until = entry["compare_until"]
    argv = ptyreplay.command_argv(TEMPLATE, entry["seed"])
    res = ptyreplay.replay(argv, steps, until, env=ptyreplay.clone_env(), cwd=str(tmp_path), name=entry["file"])
    print(
        "%s: %d/%d steps identical in %.2fs (%.1f ms/step)"
        % (entry["file"], res.compared, res.until, res.seconds, res.ms_per_step)
    )
    if not res.ok:
        pytest.fail(
            "%s (seed %s, %s): %d/%d steps identical\n%s"
            % (entry["file"], entry["seed"], entry["policy"], res.compared, res.until, res.report),
            pytrace=False,
        )


# -- cheap checks of the data and of the terminal emulation -------------------


def test_manifest_matches_files():
    man = _manifest()
    names = sorted(f for f in os.listdir(GOLDEN) if f.endswith(".jsonl.gz"))
    assert names == sorted(e["file"] for e in man["files"])
    for e in man["files"]:
        with open(os.path.join(GOLDEN, e["file"]), "rb") as f:
            raw = gzip.decompress(f.read())
        assert hashlib.sha256(raw).hexdigest() == e["sha256"], e["file"]
        _, steps, _ = ptyreplay.load_transcript(os.path.join(GOLDEN, e["file"]))
        assert len(steps) == e["steps"]
        assert 0 < e["compare_until"] <= e["steps"]
        assert [s["step"] for s in steps] == list(range(len(steps)))
        assert all(len(s["screen"]) == 24 and all(len(row) == 80 for row in s["screen"]) for s in steps)


def test_terminal_rep_and_attrs():
    t = ptyreplay.Terminal()
    s = ptyreplay._Stream(t)
    # "_" then REP 38 more, as ncurses draws the score box's bottom border
    s.feed(b"\x1b[17;41H_\x1b[38b\x1b[1;1H\x1b[7m>>:Move:\x1b[m x")
    lines = ptyreplay.display(t)
    assert lines[16][40:] == "_" * 39 + " "
    assert lines[0].startswith(">>:Move: x")
    assert ptyreplay.attr_runs(t) == [[0, 0, 8, "r"]]
    assert (t.cursor.y, t.cursor.x) == (0, 10)
    assert lines == t.display


def test_mille_awaiting():
    blank = [" " * 80] * 24
    scr = list(blank)
    scr[10] = " " * 20 + ">>:Move: U".ljust(60)
    assert ptyreplay.mille_awaiting(scr, [10, 30])
    assert not ptyreplay.mille_awaiting(scr, [10, 31])
    scr[10] = " " * 20 + "Really? N".ljust(60)
    assert ptyreplay.mille_awaiting(scr, [10, 29])  # answered ^C
    assert ptyreplay.mille_awaiting(scr, [10, 28])
    assert not ptyreplay.mille_awaiting(blank, [10, 28])
