"""A fair table (issue 36): a bot in a seat learns its seat's view, whatever it reads from the messages or /proc.

Each attack is a real ``exec:`` program (written to the test's directory,
in Python, using mille's own generator and shuffle as an attacker would)
that writes its predictions to a file; the test counts the hits, which
must fall to chance (the old code gave 100%, or every prediction it could
make):

* (a) dice inversion, on the board: the bot's ``dice`` was the game's seed
  XORed with a constant, and without ``--seed`` the seed was its parent's
  process ID: it predicts its own first hand (and so the whole deck order)
  from either;
* (b) roll cracking, on the board: a bot that declares ``"dice": "game"``
  without ``--bot-reads-deck`` rolls 300 times, recovers the generator's
  state (the low bits by linear algebra over GF(2)), runs it back to its
  ``srandom`` seed and names it: the game's seed only if it rolled the
  game's generator;
* (c) seed search over /proc, in ``python -m mille.match``: the bot reads
  its ancestors' command lines and environment, searches the match seeds
  0..2000 (and any number it read) for the one whose dice it was handed,
  and predicts every hand of the game;
* (d) memory across games, in ``python -m mille.match``: the bot
  remembers its hands and predicts that the opponent holds them in the
  next game it plays (the seat-swapped game of a duplicate pair, when one
  process plays both); every game must be a new process, told ``fresh``;
* a bot run as another user (``runuser``, as docs/protocol.md says; a
  throwaway user made and removed, as root) plays, and reads neither the
  0600 results file, nor the host's environment, nor the seed on its
  command line; a bot in bubblewrap (docs/protocol.md's line) plays and sees neither
  the results file nor the host's processes.

The board is reached as the command line seats it
(:func:`mille.ui.session.computer_player`, the bot handed its dice by the
host), a hand played by the engine's driver; the seeding without
``--seed`` on a real pty.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.protocol import BOT_PATH, children
from mille.engine.driver import play_hand
from mille.engine.rng import GlibcRandom
from mille.engine.rules import start_hand
from mille.engine.state import Game
from mille.lab.play import deal_hand
from mille.players import botprocess, make_player
from mille.ui import session as run

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux (/proc, ptys)")

ATTACK_BOT = r'''
import json, os, re, sys
from mille.engine.rng import GlibcRandom
from mille.engine.rules import start_hand
from mille.engine.state import Game
from mille.lab.play import deal_hand, deal_seed, dice_seed

MODE, OUT = sys.argv[1], sys.argv[2]
SALT = 0x6D696C6C  # the old board's dice: the game's seed ^ SALT
MASK = 0xFFFFFFFF


def note(**record):
    with open(OUT, "a") as f:
        f.write(json.dumps(record) + "\n")


def cards(hand):
    return sorted(c for c in hand if c >= 0)


def inside(small, big):
    big = list(big)
    for c in small:
        if c not in big:
            return False
        big.remove(c)
    return True


def board_hand(seed, seat):
    game = Game(rng=GlibcRandom(seed))
    start_hand(game)
    return cards(game.players[seat].hand)


def match_hand(seed, pair, hand, seat):
    game = Game()
    deal_hand(game, deal_seed(seed, pair, hand), hand % 2)
    return cards(game.players[seat].hand)


def public_numbers():
    """Every number on the command lines and in the environments of this bot's ancestors."""
    found, pid = set(), os.getppid()
    for _ in range(4):
        for name in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as f:
                    found |= {int(n) for n in re.findall(rb"\d{1,10}", f.read())}
            except OSError:
                pass
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return found


def search_match(dice):
    """The match seed, pair and player whose dice these are, among small seeds and the numbers read."""
    numbers = public_numbers()
    note(event="read", numbers=sorted(numbers))
    for seed in sorted(numbers | set(range(2001))):
        for pair in range(64):
            for player in (0, 1):
                if dice_seed(seed, pair, player) == dice:
                    return seed, pair
    return None


def lcg(word):
    word = word - (1 << 32) if word >= 1 << 31 else word
    hi = int(word / 127773)
    word = 16807 * (word - hi * 127773) - 2836 * hi
    return (word + 2147483647 if word < 0 else word) & MASK


def crack(outputs):
    """The srandom seed of the generator whose consecutive outputs these are, or None."""
    n = len(outputs)
    carries = [None] * n
    for i in range(31, n):
        c = (outputs[i] - outputs[i - 3] - outputs[i - 31]) % (1 << 31)
        if c not in (0, 1):
            return None  # not consecutive outputs of one generator
        carries[i] = c
    masks = [1 << i for i in range(31)] + [0] * (n - 31)
    for i in range(31, n):
        masks[i] = masks[i - 3] ^ masks[i - 31]
    rows = {}  # pivot bit -> (mask, value): low bit i is 1 where a carry says both addends' are
    def add(mask, value):
        while mask:
            top = mask.bit_length() - 1
            if top not in rows:
                rows[top] = (mask, value)
                return
            m, v = rows[top]
            mask, value = mask ^ m, value ^ v
    for i in range(31, n):
        if carries[i]:
            add(masks[i - 3], 1)
            add(masks[i - 31], 1)
    if len(rows) < 31:
        return None
    bits = 0
    for top in sorted(rows):
        mask, value = rows[top]
        rest = mask & ~(1 << top)
        value ^= bin(rest & bits).count("1") & 1
        if value:
            bits |= 1 << top
    values = [(2 * outputs[i] + (bin(masks[i] & bits).count("1") & 1)) & MASK for i in range(n)]
    state, front, rear = [0] * 31, 3, 0
    for k in range(31):  # the last 31 values, the newest just before front
        state[(front - 1 - k) % 31] = values[n - 1 - k]
    for _ in range(20000):  # back, output by output, to the fill srandom made
        front, rear = (front - 1) % 31, (rear - 1) % 31
        state[front] = (state[front] - state[rear]) & MASK
        w = state[rear]
        if state[(rear + 1) % 31] == lcg(w) and state[(rear + 2) % 31] == lcg(lcg(w)):
            return w
    return None


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    sys.stdin.readline()
    send({"type": "hello", "protocol": 1, "name": f"attack-{MODE}", "dice": "game" if MODE == "roll" else "own"})
    memory = {}  # (mode memory) hand index -> my first hand there, in the game before
    seat = dice = None
    hand = 0
    first = True
    found = None
    mine = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "quit":
            return
        if kind == "game":
            seat, dice, hand, first = message["seat"], message["dice"], 0, True
            note(event="game", pid=os.getpid(), fresh=message["fresh"], dice=dice)
            found = search_match(dice) if MODE == "search" and dice is not None else None
            if MODE == "memory" and mine:
                memory, mine = mine, {}
        elif kind == "hand_over":
            hand, first = hand + 1, True
        elif kind == "decide":
            obs = message["observation"]
            actual = cards(obs["players"][seat]["hand"])
            if first:
                first = False
                if MODE == "invert" and hand == 0:
                    for name, seed in (("dice", dice ^ SALT), ("parent", os.getppid())):
                        note(attack=name, hit=inside(board_hand(seed, seat), actual))
                elif MODE == "search":
                    guess = match_hand(found[0], found[1], hand, seat) if found else match_hand(1, 0, hand, seat)
                    note(attack="search", hit=inside(guess, actual))
                elif MODE == "memory":
                    mine[hand] = actual
                    note(attack="memory", mine=actual, hand=hand, seat=seat, opponent=memory.get(hand))
                elif MODE == "roll" and hand == 0:
                    outputs = []
                    for _ in range(300):
                        send({"type": "roll"})
                        outputs.append(json.loads(sys.stdin.readline())["value"])
                    note(attack="roll", seed=crack(outputs), dice=dice)
            send({"type": "move", "move": message["legal"][0]})


main()
'''


@pytest.fixture(autouse=True)
def bots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("PYTHONPATH", BOT_PATH)
    monkeypatch.setenv(botprocess.LOGS_VARIABLE, str(tmp_path / "logs"))
    before = {pid for pid, _ in children()}
    yield
    botprocess.shutdown()
    assert not [c for c in children() if c[0] not in before], "a bot outlived its test"


def attack(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """``exec:`` for the attack bot in ``mode``, and the file it writes its predictions to."""
    bot = tmp_path / "attack_bot.py"
    bot.write_text(ATTACK_BOT)
    out = tmp_path / f"{mode}.jsonl"
    return f"exec:{sys.executable} {bot} {mode} {out}", out


def within(small: object, big: object) -> bool:
    """Every card of ``small`` is in ``big`` (as many times)."""
    assert isinstance(small, list) and isinstance(big, list)
    rest = list(big)
    for card in small:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def notes(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def board_hand(spec: str, seed: int, reads_deck: bool = False) -> None:
    """The first hand on the board against ``spec``, seated as ``mille --seed SEED --computer SPEC`` seats it."""
    game = Game(rng=GlibcRandom(seed))
    start_hand(game)
    computer, dice = run.computer_player(spec, seed, game, reads_deck)
    you = make_player("first")
    try:
        play_hand(game, [you, computer], (GlibcRandom(seed + 1), dice))
    finally:
        computer.close()  # type: ignore[attr-defined]


def test_dice_inversion_on_the_board_learns_nothing(tmp_path: Path) -> None:
    """The dice a bot is handed are its own: inverting them (or taking its parent's ID) names no hand."""
    spec, out = attack(tmp_path, "invert")
    for seed in range(100, 124):
        board_hand(spec, seed)
    made = [n for n in notes(out) if n.get("attack") == "dice"]
    assert len(made) == 24
    hits = sum(bool(n["hit"]) for n in made)
    assert hits <= 3, f"{hits} of {len(made)} first hands predicted from the dice"
    dice = [n["dice"] for n in notes(out) if n.get("event") == "game"]
    assert len(set(dice)) == len(dice) and all(isinstance(d, int) and 1 <= d < 2**31 for d in dice)


def test_roll_cracking_without_permission_cracks_only_the_bots_own_dice(tmp_path: Path) -> None:
    """A "dice": "game" bot cracks its 300 rolls back to their seed: its own dice's, never the game's."""
    spec, out = attack(tmp_path, "roll")
    seeds = list(range(200, 212))
    for seed in seeds:
        board_hand(spec, seed)
    made = [n for n in notes(out) if n.get("attack") == "roll"]
    assert len(made) == len(seeds)
    assert all(n["seed"] is not None for n in made), "the cracker works (on the dice it rolled)"
    assert sum(n["seed"] == seed for n, seed in zip(made, seeds, strict=True)) == 0
    # With the person's permission, the same bot rolls the game's generator: it can read the deck.
    out.unlink()
    board_hand(spec, 300, reads_deck=True)
    (allowed,) = [n for n in notes(out) if n.get("attack") == "roll"]
    assert allowed["seed"] == 300 and allowed["dice"] is None


def test_without_a_seed_an_exec_computer_is_not_dealt_from_the_process_id(tmp_path: Path) -> None:
    """``mille --plain --computer exec:BOT``, no --seed: the deal is not GlibcRandom(the bot's parent's process ID)."""
    import subprocess
    import time

    spec, out = attack(tmp_path, "invert")
    env = {**os.environ, "PYTHONPATH": BOT_PATH, "XDG_STATE_HOME": str(tmp_path / "state")}
    for game in range(3):
        with subprocess.Popen(
            [sys.executable, "-m", "mille", "--plain", "--no-stats", "--computer", spec],
            stdin=subprocess.PIPE,
            stdout=(tmp_path / f"said-{game}").open("wb"),
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env=env,
        ) as mille:
            assert mille.stdin is not None
            # You start: pick, discard the first card that is not a safety ("discard a safety?" refuses a
            # safety, bsd-mille.md §3.4; the slots after the one discarded are then refused "must pick
            # first"); then the computer decides.  Typed again every two seconds until the bot has decided.
            deadline = time.monotonic() + 60
            typed = 0.0
            while len([n for n in notes(out) if n.get("attack") == "parent"]) <= game and time.monotonic() < deadline:
                if time.monotonic() - typed > 2:
                    mille.stdin.write(b"p\nd1\nd2\nd3\nd4\nd5\n")
                    mille.stdin.flush()
                    typed = time.monotonic()
                time.sleep(0.05)
            mille.stdin.write(b"q\ny\n")
            mille.stdin.close()
            assert mille.wait(timeout=30) == 0, mille.stderr.read() if mille.stderr else ""
        said = (tmp_path / f"said-{game}").read_text(errors="replace")[-1500:]
        assert len([n for n in notes(out) if n.get("attack") == "parent"]) == game + 1, said
    assert not any(n["hit"] for n in notes(out) if n.get("attack") == "parent")


def match_run(tmp_path: Path, spec: str, games: int = 8, jobs: int = 1) -> tuple[Path, int]:
    """``python -m mille.match SPEC bsd`` as a person runs it (no --seed: a fair match): its record and seed."""
    import subprocess

    record = tmp_path / "record.jsonl"
    argv = [sys.executable, "-m", "mille.match", spec, "bsd", "--games", str(games), "--jobs", str(jobs)]
    env = {**os.environ, "PYTHONPATH": BOT_PATH}
    done = subprocess.run(
        [*argv, "--record", str(record)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    seed = int(done.stdout.rsplit("replay with --seed ", 1)[1])  # said at the end, once the deals are played
    assert record.stat().st_mode & 0o777 == 0o600
    return record, seed


def test_seed_search_over_proc_in_a_match_learns_nothing(tmp_path: Path) -> None:
    """The bot reads its ancestors' command lines and environments and searches seeds 0..2000: no hand named."""
    spec, out = attack(tmp_path, "search")
    _, seed = match_run(tmp_path, spec, jobs=2)  # the workers get the seed through the pool's pipe
    read = [n for n in notes(out) if n.get("event") == "read"]
    assert len(read) == 8 and not any(seed in n["numbers"] for n in read)  # type: ignore[operator]
    made = [n for n in notes(out) if n.get("attack") == "search"]
    assert len(made) >= 16
    hits = sum(bool(n["hit"]) for n in made)
    assert hits <= len(made) // 8, f"{hits} of {len(made)} hands predicted"


def test_memory_across_games_in_a_match_learns_nothing(tmp_path: Path) -> None:
    """No process plays both games of a pair (``fresh`` true on its first game only): no bot remembers the other."""
    spec, out = attack(tmp_path, "memory")
    record, _ = match_run(tmp_path, spec)
    games = [n for n in notes(out) if n.get("event") == "game"]
    assert len(games) == 8  # in pair order (--jobs 1): games 2k and 2k+1 are pair k's
    for pair in range(4):
        assert games[2 * pair]["pid"] != games[2 * pair + 1]["pid"], f"one process played both games of pair {pair}"
    seen: set[int] = set()
    for n in games:
        assert n["fresh"] is (n["pid"] not in seen)
        seen.add(n["pid"])
    assert len(seen) < 8, "processes are kept across pairs"
    # The truth, from the record: each game's dealt hands, by hand.
    dealt: list[list[list[list[int]]]] = []
    for line in record.read_text().splitlines()[1:]:
        game = json.loads(line)
        hands = []
        for number, h in enumerate(game["hands"]):
            g = Game()
            deal_hand(g, h["deal_seed"], number % 2)
            hands.append([sorted(c for c in p.hand if c >= 0) for p in g.players])
        dealt.append(hands)
    predicted = [n for n in notes(out) if n.get("attack") == "memory" and n["opponent"] is not None]
    hits = 0
    for n in predicted:  # the games where the bot held "mine": did the opponent hold what it named?
        h, seat = int(n["hand"]), int(n["seat"])
        held = [hands[h] for hands in dealt if h < len(hands) and within(hands[h][seat], n["mine"])]
        hits += any(within(hand[1 - seat], n["opponent"]) for hand in held)
    assert hits == 0, f"{hits} of {len(predicted)} opponent hands named from memory"


SPY_BOT = r"""
import json, os, sys
results = sys.argv[1]
def tried(path):
    try:
        with open(path, "rb") as f:
            return "read " + repr(f.read(200))
    except OSError as exc:
        return "denied " + type(exc).__name__
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": 1, "name": "spy"}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] == "game":
        parent = os.getppid()
        print("uid", os.getuid(), file=sys.stderr)
        print("results", tried(results), file=sys.stderr)
        print("environ", tried("/proc/%d/environ" % parent), file=sys.stderr)
        print("cmdline", tried("/proc/%d/cmdline" % parent), file=sys.stderr, flush=True)
    if message["type"] == "decide":
        print(json.dumps({"type": "move", "move": message["legal"][0]}), flush=True)
"""


@pytest.fixture
def other_user() -> Iterator[str]:
    """A throwaway local user (removed after), for a bot run as another user; skipped where that cannot be."""
    import shutil
    import subprocess
    import uuid

    if os.geteuid() != 0:
        pytest.skip("making a user needs root")
    if not (shutil.which("runuser") and shutil.which("useradd") and shutil.which("userdel")):
        pytest.skip("runuser, useradd or userdel is missing")
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("no /usr/bin/python3 for the other user to run")
    name = "millebot" + uuid.uuid4().hex[:8]
    made = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"useradd failed: {made.stderr.decode(errors='replace').strip()}")
    try:
        yield name
    finally:
        subprocess.run(["userdel", name], capture_output=True, check=True)  # fails if a process of it is left


def spy_tournament(tmp_path: Path, wrapper: list[str]) -> tuple[str, Path, str]:
    """A real tournament of :data:`SPY_BOT`, run under ``wrapper`` (another user, a sandbox), against ``bsd``.

    Returns the tournament's standard output once it has played (no
    forfeit), its 0600 results file, and what the bot said in its logs.
    """
    import shlex
    import subprocess

    results = tmp_path / "results.jsonl"
    logs = tmp_path / "logs"
    spec = "exec:" + shlex.join([*wrapper, "/usr/bin/python3", "-c", SPY_BOT, str(results)])
    env = {**os.environ, "PYTHONPATH": BOT_PATH, botprocess.LOGS_VARIABLE: str(logs)}
    done = subprocess.run(
        [sys.executable, "-m", "mille.tournament", spec, "bsd", "--games", "2", "--jobs", "1", "--out", str(results)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Forfeits: none" in done.stdout, done.stdout  # it played
    return done.stdout, results, "".join(p.read_text() for p in logs.iterdir())


def test_a_bot_run_as_another_user_plays_and_reads_neither_the_results_nor_the_seed(
    tmp_path: Path, other_user: str
) -> None:
    """docs/protocol.md's way: ``exec:runuser -u USER -- python3 bot.py``; the 0600 results file, the host's
    environment and the seed stay out of its reach while the tournament runs."""
    out, results, said = spy_tournament(tmp_path, ["runuser", "-u", other_user, "--"])
    seed = json.loads(results.read_text().splitlines()[0])["seed"]
    assert out.endswith(f"replay with --seed {seed}\n")
    assert results.stat().st_mode & 0o777 == 0o600
    assert said.count("results denied PermissionError") == 2, said
    assert said.count("environ denied PermissionError") == 2, said
    assert f"uid {os.geteuid()}" not in said
    cmdlines = [line for line in said.splitlines() if line.startswith("cmdline read")]
    assert len(cmdlines) == 2 and not any(str(seed) in line for line in cmdlines), said


def test_a_bot_in_bubblewrap_plays_and_sees_none_of_the_hosts_files(tmp_path: Path) -> None:
    """docs/protocol.md's bubblewrap line: the bot plays; the results file and the host's processes are out of sight."""
    import shutil
    import subprocess

    bwrap = shutil.which("bwrap")
    if bwrap is None or not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("bubblewrap or /usr/bin/python3 is missing")
    box = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64"]
    box += ["--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--unshare-all", "--die-with-parent"]
    probe = subprocess.run([bwrap, *box, "/usr/bin/python3", "-c", "pass"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip(f"bubblewrap cannot make a sandbox here: {probe.stderr.decode(errors='replace').strip()}")
    _, _, said = spy_tournament(tmp_path, [bwrap, *box])
    assert said.count("results denied FileNotFoundError") == 2, said
    # Its /proc holds the sandbox's processes only: its parent is bubblewrap's, not the tournament.
    assert "mille.tournament" not in said, said


ROLLS_BOT = r"""
import json, sys
out = open(sys.argv[1], "a")
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": 1, "name": "rolls", "dice": "game"}), flush=True)
rolled = False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] == "decide":
        if not rolled:
            rolled = True
            values = []
            for _ in range(40):
                print(json.dumps({"type": "roll"}), flush=True)
                values.append(json.loads(sys.stdin.readline())["value"])
            out.write(json.dumps(values) + "\n")
            out.flush()
        print(json.dumps({"type": "move", "move": message["legal"][0]}), flush=True)
"""


def test_a_bot_in_the_simulator_rolls_its_own_dice(tmp_path: Path) -> None:
    """``python -m mille.sim``: a bot in the computer seat (the game's generator in process) rolls its own dice.

    Its rolls are a run of the game's generator (seeded with the run's seed)
    only with ``--bot-reads-deck``; without, they appear nowhere in the
    stream of the run's seed (drawn at random and said at the end).
    """
    bot = tmp_path / "rolls_bot.py"
    bot.write_text(ROLLS_BOT)
    out = tmp_path / "rolls.jsonl"
    spec = f"exec:{sys.executable} {bot} {out}"
    runs = []
    for extra in (["--seed", "77", "--bot-reads-deck"], []):
        done = subprocess.run(
            [sys.executable, "-m", "mille.sim", "--hands", "1", "--computer", spec, *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout)
    allowed, own = (json.loads(line) for line in out.read_text().splitlines())
    drawn = int(runs[1].rsplit("replay with --seed ", 1)[1])
    assert "replay with" not in runs[0]

    def stream(seed: int) -> list[int]:
        rng = GlibcRandom(seed)
        return [rng.random() for _ in range(3000)]

    def within_stream(values: list[int], seed: int) -> bool:
        s = stream(seed)
        return any(s[i : i + len(values)] == values for i in range(len(s) - len(values)))

    assert within_stream(allowed, 77)  # the check can tell: with permission, the game's own generator
    assert not within_stream(own, drawn) and not within_stream(own, 1)
