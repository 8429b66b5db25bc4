#!/usr/bin/env python3
"""record_golden.py - (re-)record the golden transcripts of the REAL BSD mille.

    python3 tests/bench/record_golden.py              # record all, rewrite manifest
    python3 tests/bench/record_golden.py --only chaos-007 first-103
    python3 tests/bench/record_golden.py --check      # re-analyse the stored files,
                                                # rewrite the manifest only

Each transcript is recorded by the measurement harness
``<repo>/../shared/bsdref/drive.py`` (override with --bsdref or $BSDREF)
against ``/usr/games/mille`` (bsdgames 2.17) with the seed fixed by the
harness's LD_PRELOAD shim, then stored exactly as drive.py wrote it,
gzip-compressed deterministically (no file name, mtime 0, level 9).  Nothing
in a transcript is ever edited.

The set (see SPECS):
  * chaos-001 .. chaos-030: seed N, ``--policy chaos --policy-seed N
    --max-steps 420`` (drive.py then adds the quitting steps);
  * first-101 .. first-110: seed N, ``--policy first --max-hands 2`` (two
    whole hands, then "Another hand?" n, "Save game?" n).

The real binary has bugs a correct clone deliberately does not reproduce
(docs: reference section 12): "phantom cards" once a hand has been played out
completely, and a segfault when the computer cannot choose a discard.
``find_invalid_step`` looks for their visible traces in the screens; the
manifest's ``compare_until`` is the number of leading steps (step 0 ..
compare_until-1) that a correct clone must reproduce exactly, normally all.

manifest.json lists for every file: seed, policy, the drive.py options,
steps (number of step records), compare_until and why it is shorter, the
stop reason, hands/games completed, and the SHA-256 of the uncompressed
transcript.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers import REPO, TESTS

GOLDEN = os.path.join(TESTS, "golden")
MANIFEST = os.path.join(GOLDEN, "manifest.json")
DEFAULT_BSDREF = os.path.normpath(os.path.join(REPO, "..", "shared", "bsdref"))
PROGRAM = "/usr/games/mille"
PROGRAM_VERSION = "bsdgames 2.17 (Debian package), 4.4BSD mille"

CHAOS_SEEDS = list(range(1, 31))
CHAOS_MAX_STEPS = 420
FIRST_SEEDS = list(range(101, 111))
FIRST_MAX_HANDS = 2


def _specs() -> list[dict]:
    out = []
    for s in CHAOS_SEEDS:
        out.append(
            {
                "name": "chaos-%03d" % s,
                "seed": s,
                "policy": "chaos",
                "policy_seed": s,
                "args": ["--policy", "chaos", "--policy-seed", str(s), "--max-steps", str(CHAOS_MAX_STEPS)],
            }
        )
    for s in FIRST_SEEDS:
        out.append(
            {
                "name": "first-%03d" % s,
                "seed": s,
                "policy": "first",
                "policy_seed": None,
                "args": ["--policy", "first", "--max-hands", str(FIRST_MAX_HANDS), "--max-steps", "2000"],
            }
        )
    return out


SPECS = _specs()


# ---------------------------------------------------------------------------
# Validity: visible traces of the binary's bugs (reference section 12)
# ---------------------------------------------------------------------------


def _field(lines, row, c0, c1) -> str:
    return lines[row].ljust(80)[c0:c1].strip()


def _deck(lines) -> int | None:
    s = _field(lines, 6, 20, 27)
    return int(s) if re.fullmatch(r"\d+", s) else None


def _hand(lines) -> list[str]:
    """Slots P,1..6 (rows 6-12, card at cols 2-19); "" = empty."""
    out = []
    for i, lab in enumerate("P123456"):
        row = lines[6 + i].ljust(80)
        out.append(row[2:20].strip() if row[0] == lab else "")
    return out


def _board_signature(lines) -> tuple:
    """Everything a successful move changes and no key toggle (W, O) does:
    safety rows and Extension banner (rows 0-4, board window), discard pile,
    the computer's last move, battle/speed piles, the mileage window."""
    rows = [line.ljust(80) for line in lines]
    return (
        tuple(r[:40] for r in rows[0:5]),
        rows[8][20:40],
        rows[11][20:40],
        rows[12][20:40],
        tuple(r[:40] for r in rows[13:17]),
        tuple(rows[17:24]),
    )


def _piles(lines) -> list[str]:
    # your battle, computer battle, your speed, computer speed
    return [_field(lines, 14, 2, 20), _field(lines, 14, 22, 40), _field(lines, 16, 2, 20), _field(lines, 16, 22, 40)]


def _milestones(lines) -> list[int | None]:
    out = []
    for c0, c1 in ((61, 65), (67, 71)):
        s = _field(lines, 1, c0, c1)
        out.append(int(s) if re.fullmatch(r"-?\d+", s) else None)
    return out


def _safeties(lines, col) -> set:
    """Safety names shown on rows 0-3 at col (2 = yours, 22 = computer's)."""
    return {_field(lines, r, col, col + 18) for r in range(4)} - {""}


def find_invalid_step(steps: list[dict], hidden_risk: bool = True, stats: dict | None = None) -> tuple:
    """Return (index, reason) of the first step a correct clone may not be
    able to reproduce, or (None, "") if every step is valid.

    Visible traces (the step shows something a correct clone would not):
      * crash: the program exited with a signal / status >= 128 (the
        discard segfault, rc 139 or -11);
      * human phantom card: with the deck at 0 the human's hand held one
        card, a move succeeded (the board changed) and the hand still shows
        the same single card (the binary puts the played card back in
        slot 6);
      * pile phantom: with the deck at 0 a battle or speed pile goes blank
        within a hand although that side did not just play Right of Way
        (which legitimately empties its speed pile, and a Stop battle pile);
      * a garbage mileage (> 1000, e.g. 65535).
    Hidden risk (conservative): the computer's hand is not shown.  It holds
    6 cards when the deck runs out (5 if the step where the deck ran out
    shows a new computer safety: a safety before a two-card draw that got
    one card).  Count an upper bound of its moves at deck 0 in the current
    hand - the turn passes to it only when the human's hand shrinks by a
    non-safety card, plus one extra move per safety it plays - and stop
    comparing at the step where the bound reaches its card count (it might
    have emptied its hand and picked up a phantom card that shows only
    later), or where the human's hand is empty at deck 0 (the computer then
    moves any number of times).

    stats, if given, receives "deck0_steps" (steps played with the deck at
    0) and "max_comp_moves_deck0" (the largest bound reached in a hand).
    """
    if stats is None:
        stats = {}
    stats.update(deck0_steps=0, max_comp_moves_deck0=0)
    prev = None
    comp_moves = 0
    comp_cards = 6
    for i, st in enumerate(steps):
        lines = st["screen"]
        if st.get("exited") and st.get("rc") not in (0, 1, None):
            return i, "program exited rc=%s (crash)" % st.get("rc")
        miles = _milestones(lines)
        if any(m is not None and m > 1000 for m in miles):
            return i, "mileage %s out of range (phantom card)" % miles
        if prev is None:
            prev = lines
            continue
        pd, cd = _deck(prev), _deck(lines)
        if pd is not None and cd is not None and cd > pd:
            comp_moves, comp_cards = 0, 6  # a new hand was dealt
        ph, ch = _hand(prev), _hand(lines)
        nph, nch = sum(1 for c in ph if c), sum(1 for c in ch if c)
        if cd == 0 and pd is not None and pd > 0:
            # the deck ran out in this step, by the human's pick (then the
            # human's later passes in this step reach a deck-0 computer) or
            # by the computer's draw (the human's first pass went to it)
            new_you = _safeties(lines, 2) - _safeties(prev, 2)
            new_comp = _safeties(lines, 22) - _safeties(prev, 22)
            if new_comp:
                comp_cards = 5  # maybe a safety before a 2-card draw
            k = st.get("keys", "").lower()
            if ("p" in k and not ph[0]) or k.count("p") > 1:  # maybe picked
                passes = nph + 1 - nch - len(new_you)
            else:
                passes = nph - nch - len(new_you) - 1
            comp_moves += max(0, passes) + len(new_comp)
        if pd == 0 and cd == 0:
            stats["deck0_steps"] += 1
            if nph == 1 and ph == ch and _board_signature(prev) != _board_signature(lines):
                return i, ("human hand emptied: phantom %r stays in the hand (deck 0)" % next(c for c in ch if c))
            new_you = _safeties(lines, 2) - _safeties(prev, 2)
            new_comp = _safeties(lines, 22) - _safeties(prev, 22)
            pp, cp = _piles(prev), _piles(lines)
            names = ["your battle", "computer battle", "your speed", "computer speed"]
            for k, (n, a, b) in enumerate(zip(names, pp, cp)):
                row_of_way = "Right of Way" in (new_comp if k % 2 else new_you)
                if a and not b and not row_of_way:
                    return i, ("%s pile %r went blank at deck 0 (phantom card)" % (n, a))
            comp_moves += max(0, nph - nch - len(new_you)) + len(new_comp)
            if nch == 0 and hidden_risk:
                return i, ("human hand empty at deck 0: the computer may play its hand out (phantom risk)")
        stats["max_comp_moves_deck0"] = max(stats["max_comp_moves_deck0"], comp_moves)
        if hidden_risk and comp_moves >= comp_cards:
            return i, ("computer may have emptied its hand: up to %d moves at deck 0 (phantom risk)" % comp_moves)
        prev = lines
    return None, ""


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def load_text(path: str):
    """(meta, steps, end) of a transcript (.jsonl or .jsonl.gz): the replayer's reader."""
    from helpers import ptyreplay

    return ptyreplay.load_transcript(path)


def write_gz(path: str, data: bytes) -> None:
    """Deterministic gzip: no file name, mtime 0, level 9."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as g:
        g.write(data)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def record(spec: dict, bsdref: str, timeout: float) -> tuple:
    """Run drive.py for one spec; return (raw transcript bytes, seconds)."""
    drive = os.path.join(bsdref, "drive.py")
    with tempfile.TemporaryDirectory(prefix="golden-") as td:
        out = os.path.join(td, "t.jsonl")
        argv = [sys.executable, drive, "--seed", str(spec["seed"]), *spec["args"], "--out", out]
        t0 = time.monotonic()
        r = subprocess.run(argv, cwd=td, capture_output=True, text=True, timeout=timeout)
        dt = time.monotonic() - t0
        if r.returncode != 0:
            raise RuntimeError("drive.py failed (%d): %s" % (r.returncode, r.stderr))
        sys.stderr.write("  %s: %s" % (spec["name"], r.stderr))
        with open(out, "rb") as f:
            return f.read(), dt


def manifest_entry(spec: dict, path: str) -> dict:
    with open(path, "rb") as f:
        raw = gzip.decompress(f.read())
    meta, steps, end = load_text(path)
    stats: dict = {}
    bad, why = find_invalid_step(steps, stats=stats)
    return {
        "file": os.path.basename(path),
        "seed": spec["seed"],
        "policy": spec["policy"],
        "policy_seed": spec["policy_seed"],
        "drive_args": spec["args"],
        "steps": len(steps),
        "compare_until": len(steps) if bad is None else bad,
        "invalid_reason": why or None,
        "deck0_steps": stats["deck0_steps"],
        "max_comp_moves_deck0": stats["max_comp_moves_deck0"],
        "end_reason": end.get("reason"),
        "hands_done": end.get("hands_done"),
        "games_done": end.get("games_done"),
        "term": meta.get("term"),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "gz_bytes": os.path.getsize(path),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--bsdref",
        default=os.environ.get("BSDREF", DEFAULT_BSDREF),
        help="folder holding drive.py (default: %(default)s)",
    )
    ap.add_argument("--only", nargs="*", default=None, help="record only these names (e.g. chaos-007 first-103)")
    ap.add_argument(
        "--check", action="store_true", help="do not record; re-analyse the stored files and rewrite the manifest"
    )
    ap.add_argument("--timeout", type=float, default=300.0, help="per-recording time limit in seconds")
    a = ap.parse_args(argv)

    os.makedirs(GOLDEN, exist_ok=True)
    old = {}
    if os.path.exists(MANIFEST):
        with open(MANIFEST) as f:
            old = json.load(f)
    old_files = {e["file"]: e for e in old.get("files", [])}
    recorded_on = old.get("recorded_on")
    total_s = 0.0
    n_rec = 0
    if not a.check:
        if not os.path.exists(PROGRAM):
            print("%s not found (apt-get install bsdgames)" % PROGRAM, file=sys.stderr)
            return 2
        if not os.path.exists(os.path.join(a.bsdref, "drive.py")):
            print("drive.py not found in %s" % a.bsdref, file=sys.stderr)
            return 2
        for spec in SPECS:
            if a.only and spec["name"] not in a.only:
                continue
            data, dt = record(spec, a.bsdref, a.timeout)
            total_s += dt
            n_rec += 1
            write_gz(os.path.join(GOLDEN, spec["name"] + ".jsonl.gz"), data)
        recorded_on = datetime.date.today().isoformat()

    files = []
    for spec in SPECS:
        path = os.path.join(GOLDEN, spec["name"] + ".jsonl.gz")
        if not os.path.exists(path):
            print("missing %s" % path, file=sys.stderr)
            continue
        e = manifest_entry(spec, path)
        prev = old_files.get(e["file"])
        if a.only is not None and spec["name"] not in a.only and prev:
            e["recorded_on"] = prev.get("recorded_on", recorded_on)
        elif a.check and prev:
            e["recorded_on"] = prev.get("recorded_on", recorded_on)
        else:
            e["recorded_on"] = recorded_on
        files.append(e)
        flag = (
            ""
            if e["compare_until"] == e["steps"]
            else "  compare_until=%d (%s)" % (e["compare_until"], e["invalid_reason"])
        )
        print("%-16s steps=%4d hands=%s %6d bytes%s" % (e["file"], e["steps"], e["hands_done"], e["gz_bytes"], flag))
    man = {
        "program": PROGRAM,
        "program_version": PROGRAM_VERSION,
        "recorded_on": recorded_on,
        "recorder": "tests/bench/record_golden.py via ../shared/bsdref/drive.py "
        "(LD_PRELOAD seedshim.so: getpid() = seed)",
        "term": "xterm",
        "size": [24, 80],
        "files": files,
    }
    with open(MANIFEST + ".tmp", "w") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    os.replace(MANIFEST + ".tmp", MANIFEST)
    tot = sum(e["gz_bytes"] for e in files)
    print(
        "%d files, %d steps, %.1f kB compressed%s"
        % (
            len(files),
            sum(e["steps"] for e in files),
            tot / 1024.0,
            "; recorded %d in %.1fs" % (n_rec, total_s) if n_rec else "",
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
