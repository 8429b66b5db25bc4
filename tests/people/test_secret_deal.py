"""A secret deal cannot be worked out from what one seat receives (issue 43, "The deal can be worked out").

The attack: a seat is sent its six dealt cards in slot order, which are
fixed positions of the shuffled deck, and each card it draws at a deck
count it is told.  A deal made by ``srandom(seed)`` with a seed of 31 bits
can then be searched: a small C program (compiled here with ``cc``; a
Python search over a narrower window where there is none) tries every
seed of a window and keeps those whose shuffle puts the seat's cards where
it saw them.  The window is centred on every number the host's process
seeded a generator with (recorded by a hook put on
:meth:`GlibcRandom.seed` in that process alone, the oracle an attacker does
not have) and on its process ID (the original's seed): on the code before
the fix the seed is found, and with it the host's hand and the host's
next draw, which the test checks against the host's own screen; now the
seat's cards fit no seed of any window, as no seed made the deal.

Both doors are attacked as they are in use: a real ``mille --invite`` /
``mille --join alice@here`` pair of real users on ptys, the bytes the
guest received recorded on their way in by the relay that stands in for
ssh (as ``tests/people/test_people.py`` does), and a real
``mille --plain --computer exec:BOT`` whose bot records its standard input.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from helpers.people import SRC, Player, people, readable_by, readable_directory
from mille.engine import cards, rules
from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.players import wire

#: How far either side of each centre the search looks (the C program tries about two million seeds a second).
WINDOW = 50_000
#: The window of the Python search, where there is no C compiler.
PY_WINDOW = 2_000
DECK = list(cards.INITIAL_DECK)

SEARCH_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
/* argv: LOW HIGH DECK(c,c,...) POS:CARD ... ; prints every seed in [LOW, HIGH] whose glibc
   srandom()/random() shuffle (mille's: for i, swap deck[i] with deck[random() % size]) puts each CARD at POS. */
int main(int argc, char **argv) {
    long low = atol(argv[1]), high = atol(argv[2]);
    int deck[256], size = 0, pos[64], card[64], n = 0;
    for (char *p = argv[3]; *p; ) { deck[size++] = (int)strtol(p, &p, 10); if (*p == ',') p++; }
    for (int i = 4; i < argc && n < 64; i++, n++) sscanf(argv[i], "%d:%d", &pos[n], &card[n]);
    static uint32_t r[344 + 256];
    int d[256];
    for (long seed = low; seed <= high; seed++) {
        if (seed < 1) continue;
        int32_t word = (int32_t)(uint32_t)seed;
        r[0] = (uint32_t)word;
        for (int i = 1; i < 31; i++) {
            int32_t hi = word / 127773, lo = word % 127773;
            word = 16807 * lo - 2836 * hi;
            if (word < 0) word += 2147483647;
            r[i] = (uint32_t)word;
        }
        for (int i = 31; i < 34; i++) r[i] = r[i - 31];
        for (int i = 34; i < 344 + size; i++) r[i] = r[i - 31] + r[i - 3];
        for (int i = 0; i < size; i++) d[i] = deck[i];
        for (int i = 0; i < size; i++) {
            int j = (int)((r[344 + i] >> 1) % (uint32_t)size), t = d[i];
            d[i] = d[j]; d[j] = t;
        }
        int ok = 1;
        for (int k = 0; k < n && ok; k++) ok = d[pos[k]] == card[k];
        if (ok) printf("%ld\n", seed);
    }
    return 0;
}
"""


def shuffled(seed: int) -> list[int]:
    """The first hand's deck as ``srandom(seed)`` shuffles it (mille's shuffle of the initial deck)."""
    game = Game(rng=GlibcRandom(seed))
    rules.shuffle(game)
    return game.deck


class Search:
    """The seed search: C where there is a compiler, else Python over :data:`PY_WINDOW`."""

    def __init__(self, place: Path) -> None:
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        self.program: str | None = None
        self.window = PY_WINDOW
        if cc is not None:
            source = place / "search.c"
            source.write_text(SEARCH_C)
            program = place / "search"
            done = subprocess.run([cc, "-O2", "-o", str(program), str(source)], capture_output=True, text=True)
            if done.returncode == 0:
                self.program, self.window = str(program), WINDOW

    def seeds(self, fits: dict[int, int], centres: Iterable[int]) -> list[int]:
        """Every seed within the window of a centre whose first shuffle puts card ``fits[pos]`` at ``pos``."""
        found: set[int] = set()
        for centre in set(centres):
            low, high = max(1, centre - self.window), min(2**31 - 1, centre + self.window)
            if self.program is not None:
                args = [self.program, str(low), str(high), ",".join(map(str, DECK))]
                args += [f"{p}:{c}" for p, c in sorted(fits.items())]
                done = subprocess.run(args, capture_output=True, text=True, check=True, timeout=60)
                found.update(int(line) for line in done.stdout.split())
            else:
                for seed in range(low, high + 1):
                    deck = shuffled(seed)
                    if all(deck[p] == c for p, c in fits.items()):
                        found.add(seed)
        return sorted(found)


def what_the_seat_saw(observations: list[Observation], seat: int, most: int = 8) -> dict[int, int]:
    """The deck positions of the first hand the seat's own cards were at: its six dealt cards, its draws (``most``
    of them at the most).

    Slot ``j`` of the seat ``k`` dealt from the top of the deck array is
    position ``size - 1 - (6k + j - 1)``; a card drawn into the pick slot
    was at the deck's count after the draw.
    """
    size = len(DECK)
    fits: dict[int, int] = {}
    picked = cards.EMPTY
    count = size
    for obs in observations:
        hand = obs.players[seat].hand
        if not fits and cards.EMPTY in hand[1:]:
            continue  # not dealt yet (a guest is sent a view when it joins, before the deal)
        if obs.deck_count > count:
            break  # the next hand: another deal
        count = obs.deck_count
        if not fits:
            for slot in range(1, cards.HAND_SIZE):
                fits[size - 1 - (6 * seat + slot - 1)] = hand[slot]
        if hand[0] != cards.EMPTY and picked == cards.EMPTY:
            fits[obs.deck_count] = hand[0]
        picked = hand[0]
        if len(fits) >= most:
            break
    return fits


def observations_in(received: bytes) -> list[Observation]:
    """The observations in a recording of a guest's ``view`` and ``decide`` lines (protocol 2's observation, the people
    link's at every table), or a bot's (protocol 1's, JSON or compact)."""
    found = []
    for line in received.splitlines():
        if not line.strip():
            continue
        message = json.loads(line)
        obs = message.get("obs")
        if isinstance(obs, dict) and "sides" in obs:
            found.append(wire.observation_from_json_2(obs))
        elif isinstance(obs, dict):
            found.append(wire.observation_from_json(obs))
        elif isinstance(obs, list):
            found.append(wire.observation_from_compact(obs))
    return found


def seeds_logged(path: str) -> list[int]:
    try:
        with open(path) as f:
            return [int(line) for line in f.read().split()]
    except FileNotFoundError:
        return []


#: The oracle: in the host's process alone, every seed a generator is given is written to ``LOG`` (a hook).
HOOK = """
import os as _os
import mille.engine.rng as _rng
_seed = _rng.GlibcRandom.seed
def _logged(self, seed, _seed=_seed, _log=LOG):
    try:  # bytes alone: the host's user may not read the library's encodings
        fd = _os.open(_log, _os.O_WRONLY | _os.O_APPEND | _os.O_CREAT, 0o600)
        _os.write(fd, b"%d\\n" % seed)
        _os.close(fd)
    except OSError:
        pass
    _seed(self, seed)
_rng.GlibcRandom.seed = _logged
"""


def test_the_search_finds_a_seed_of_its_window_from_one_seats_cards(tmp_path: Path) -> None:
    """The attack works on a deal made from a seed: the six cards and a draw of seat 2 name it, and the rest follows."""
    search = Search(tmp_path)
    seed = 1_234_567
    deck = shuffled(seed)
    fits = {p: deck[p] for p in (94, 93, 92, 91, 90, 89, 87)}
    assert seed in search.seeds(fits, [seed + search.window // 2])


def _fail_if_worked_out(found: list[int], host_hand: list[str], host_draw: str, draw_at: int, who: str) -> None:
    """Fail if a seed found gives the host's true hand and next draw: the deal was worked out.

    A seed that fits the seven cards the seat saw but gives another hand is
    a chance fit, not a break: seven cards of 19 kinds are matched by about
    one seed in ten million, and the windows hold some hundred thousand.
    """
    predictions = []
    for seed in found:
        deck = shuffled(seed)
        hand = sorted(cards.NAMES[c] for c in deck[95:101])
        predictions.append((seed, hand, cards.NAMES[deck[draw_at]]))
    right = [p for p in predictions if p[1] == sorted(host_hand) and p[2] == host_draw]
    if not right:
        return
    seed, hand, draw = right[0]
    pytest.fail(
        f"the deal was worked out from the bytes {who} received: seed {seed}, the hand of the person at seat 1 "
        f"{hand} and their next draw {draw}, as their own screen shows them"
    )


def test_a_guest_cannot_work_out_the_hosts_hand_from_the_bytes_it_receives(tmp_path: Path) -> None:
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")  # the test's own may be root's alone
    if python is None:
        pytest.skip("no system python3 for the recording relay")
    search = Search(tmp_path)
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        if not readable_by(b_uid, b_gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
            pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
        record = os.path.join(place, "received")
        relay = os.path.join(place, "ssh")
        with open(relay, "w") as f:
            f.write("#!/bin/sh\n# As ssh is called ([OPTIONS] -- MACHINE COMMAND): what the guest receives recorded.\n")
            f.write(f'while [ "$1" != "--" ]; do shift; done; shift 2\nsh -c "$1" | tee -a "{record}"\n')
        os.chmod(relay, 0o755)
        with open(record, "wb"):
            pass
        os.chown(record, b_uid, b_gid)
        log = os.path.join(place, "seeds")
        with open(log, "w"):
            pass
        os.chown(log, a_uid, a_gid)
        saved = GlibcRandom.seed
        namespace: dict[str, object] = {"LOG": log}
        exec(HOOK, namespace)  # the hook on the class, inherited by the host's fork
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        finally:
            GlibcRandom.seed = saved  # type: ignore[method-assign]
        players = [host]
        try:
            host.wait_for(f"mille --join {alice}")
            env = {"MILLE_SSH": relay, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"}
            guest = Player(b_uid, b_gid, ["--join", f"{alice}@here"], env=env)
            players.append(guest)
            host.wait_asked()
            guest.wait_for(f"{alice} is thinking...")
            # alice's hand as her board shows it, then her move; bob's pick; then alice's next draw.
            hand = [row[2:20].strip() for row in host.screen.display[7:13]]
            deck_before = int(host.screen.display[6][20:40])
            host.send("p")
            end = time.monotonic() + 10
            while host.hand().get("P", "-") in ("", "-"):
                assert time.monotonic() < end, host.text()
                host.pump(0.01)
            host.send(host.discard_keys())
            guest.wait_asked()
            guest.send("p")
            end = time.monotonic() + 10
            while guest.hand().get("P", "-") in ("", "-"):
                assert time.monotonic() < end, guest.text()
                guest.pump(0.01)
            guest.send(guest.discard_keys())
            # Her second draw: the deck's 15th card from the top (12 dealt, her pick and bob's before it).
            draw_at = len(DECK) - 15
            host.wait_asked()
            host.send("p")
            end = time.monotonic() + 10
            while host.hand().get("P", "-") in ("", "-") or int(host.screen.display[6][20:40]) != draw_at:
                assert time.monotonic() < end, host.text()
                host.pump(0.01)
            next_draw = host.hand()["P"]
            assert deck_before == len(DECK) - 12
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            host.reap()
            guest.reap()
            with open(record, "rb") as f:
                received = f.read()
        finally:
            for p in players:
                p.kill()
        fits = what_the_seat_saw(observations_in(received), 1)
        assert len(fits) >= 7, fits  # six dealt cards and a draw
        centres = [*seeds_logged(log), host.pid]
        found = search.seeds(fits, centres)
    _fail_if_worked_out(found, hand, next_draw, draw_at, "bob's mille --join")
    # Nothing fits: the deal came from no seed near anything the host seeded or its process ID.


def test_a_bot_cannot_work_out_the_persons_hand_from_what_it_is_sent(tmp_path: Path) -> None:
    search = Search(tmp_path)
    record = tmp_path / "received"
    log = tmp_path / "seeds"
    bot = f"sh -c {shlex.quote(f'tee -a {shlex.quote(str(record))} | {shlex.quote(sys.executable)} -m mille.bot bsd')}"
    code = f"LOG = {str(log)!r}\n" + HOOK + "import sys\nfrom mille.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    with subprocess.Popen(
        [sys.executable, "-c", code, "--plain", "--no-stats", "--computer", f"exec:{bot}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": SRC},
        text=True,
    ) as run:
        # Discard the first of slots 1 to 5 that is not a safety (a safety's discard is refused, "discard a
        # safety?", and the hand holds at most four): the d's after it meet the next turn's "must pick first".
        out, err = run.communicate("p\nd1\nd2\nd3\nd4\nd5\np\nq\ny\n", timeout=60)
    lines = out.splitlines()
    dealt = next(line for line in lines if line.startswith("Your hand: "))
    named = [part.split(": ", 1)[1].rstrip(".") for part in dealt[len("Your hand: ") :].split("; ")[1:]]
    hand = [name.removesuffix(" miles") for name in named]  # plain mode's "75 miles" is the card 75
    picks = [line[len("You pick ") : -1].removesuffix(" miles") for line in lines if line.startswith("You pick ")]
    assert len(hand) == 6 and len(picks) == 2, out + err
    observations = observations_in(record.read_bytes())
    fits = what_the_seat_saw(observations, 1)
    assert len(fits) >= 7, fits
    draw_at = observations[0].deck_count - 1  # the person's next draw, after the bot's first move
    found = search.seeds(fits, [*seeds_logged(str(log)), run.pid])
    _fail_if_worked_out(found, hand, picks[1], draw_at, "the bot")


def test_a_secret_deals_generator_and_its_computers_dice_come_from_no_seed() -> None:
    """The whole state from os.urandom: no seed to search or to hand on, a new one each time; so the dice."""
    from mille.ui.session import _own_dice, _seat_dice, computer_player, secret_dice

    one, two = GlibcRandom.from_urandom(), GlibcRandom.from_urandom()
    assert one.seeded_with is None and not one.untouched()
    assert [one.random() for _ in range(40)] != [two.random() for _ in range(40)]
    assert all(0 <= one.random() < 2**31 for _ in range(1000))
    game = Game(rng=GlibcRandom.from_urandom())
    for dice in (_own_dice(None), _seat_dice(None, 2), computer_player("expert", None, game)[1], secret_dice("bsd")):
        assert dice.seeded_with is None and dice is not game.rng
    # A bot is handed its dice as a seed (docs/protocol.md, "Dice"): its own, drawn afresh.
    assert secret_dice("exec:true").untouched()
    # A typed seed keeps the original's dice, derived as before.
    assert _own_dice(7) == _own_dice(7) and _seat_dice(7, 2) == _seat_dice(7, 2)


# ----------------------------------------------------------------------
# A match drawn at random (the lab)


def _match(args: list[str], bot: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "mille.match", bot, "bsd", "--games", "2", "--jobs", "1", "--json", *args],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_a_match_drawn_at_random_replays_from_its_seed_and_no_hand_of_it_can_be_searched(tmp_path: Path) -> None:
    """Issue 43: a match without --seed drew 31 bits, and dealt each hand from srandom() of a 32-bit hash of it:
    a bot's six cards name a hand's deal (and, the hash being public, the match seed and every deal).  Now the seed
    is 128 bits, said so that --seed replays the match, and each hand's generator is filled whole from a hash."""
    from mille.engine.rng import WIDE_SEED, derived_seed
    from mille.lab.play import deal_seed

    search = Search(tmp_path)
    recorder = f"tee -a {shlex.quote(str(tmp_path))}/received.$$ | {shlex.quote(sys.executable)} -m mille.bot bsd"
    bot = f"exec:sh -c {shlex.quote(recorder)}"
    record = tmp_path / "record.jsonl"
    report = _match(["--bot-reads-deck", "--record", str(record)], bot)  # its dice from the seed: all replays
    seed = report["seed"]
    assert type(seed) is int
    # What a bot was sent: its game's seat, its dealt cards and draws in the pair's first hand.
    [first, *_] = sorted(tmp_path.glob("received.*"))
    lines = [json.loads(line) for line in first.read_bytes().splitlines() if line.strip()]
    seat = next(m["seat"] for m in lines if m.get("type") == "game")
    assert isinstance(seat, int)
    # Every card of the seat's first hand it saw, up to 14 (seven at the least: the six dealt and a draw; the bot's
    # recording may turn to the pair's other game after that): the more, the less a seed fits them all by chance
    # (seven cards are fitted by about one seed in ten million).
    fits = what_the_seat_saw(observations_in(first.read_bytes()), seat, most=14)
    assert len(fits) >= 7, fits
    # Centred on what srandom would have been fed: the lab's own derivation of hand 1 of pair 1, and the old one's.
    centres = [deal_seed(seed, 0, 0) & 0xFFFFFFFF, derived_seed(f"mille.match/deal/{seed}/0/0", wide=False)]
    found = search.seeds(fits, centres)
    assert not found, f"hand 1 of match seed {seed} was worked out from the bot's cards: srandom({found[0]})"
    assert seed >= 2**127 > WIDE_SEED, f"the match seed {seed} can be searched (31 bits)"

    again = _match(["--seed", str(seed), "--bot-reads-deck"], bot)  # replayed from the seed said: the same games
    for key in ("seed", "hands", "a_game_wins", "b_game_wins", "by_pair", "a_points_per_hand", "b_points_per_hand"):
        assert again[key] == report[key], key
    # The record of the match (its hands' wide deal seeds) replays, every move checked.
    checked = subprocess.run(
        [sys.executable, "-m", "mille.replay", "--check", str(record)],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
