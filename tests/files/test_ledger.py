"""The record of games (mille.ledger): the file, the counting rules, two writers, ``mille --stats``.

Whole games played through the interactive front end (save and resume,
hangups) are in ``test_player_games.py``; here the file and the sums.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import SRC
from helpers.faults import as_other_user, full_disk, other_user, run_python, shared_directory
from helpers.players import run_mille
from mille.engine import driver, rules
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.files import ledger, tally
from mille.files.recorder import Recorder, position_key
from mille.players.bsd import BsdPlayer

posix = pytest.mark.skipif(os.name != "posix", reason="POSIX files and limits")


def hand(game: str, n: int, mine: int, theirs: int, computer: str = "bsd") -> dict[str, object]:
    return {"t": "hand", "game": game, "n": n, "computer": computer, "for": mine, "against": theirs}


def ended(game: str, result: str, mine: int, theirs: int, computer: str = "bsd", hints: int = 0) -> dict[str, object]:
    return {
        "t": "game",
        "game": game,
        "computer": computer,
        "result": result,
        "for": mine,
        "against": theirs,
        "hands": 3,
        "hints": hints,
    }


def write(path: Path, *events: dict[str, object]) -> None:
    for event in events:
        ledger.append(str(path), event)


# --------------------------------------------------------------------------
# The file


def test_the_file_starts_with_its_header_and_holds_one_event_a_line(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "mille" / "stats.jsonl"
    write(path, hand("g1", 1, 700, 300))
    lines = path.read_bytes().splitlines()
    assert json.loads(lines[0]) == {"format": "mille-stats", "version": 1}
    assert json.loads(lines[1])["t"] == "hand" and len(lines) == 2
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    assert [e["n"] for e in ledger.read_events(str(path))] == [1]
    assert not [name for name in os.listdir(path.parent) if name != "stats.jsonl"]  # no temporary file left


def test_no_file_is_no_games(tmp_path: Path) -> None:
    assert ledger.read_events(str(tmp_path / "none.jsonl")) == []
    assert "No games recorded yet" in tally.format_table({}, "x")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty"),
        (b'{"format": "something-else", "version": 1}\n', "not a mille statistics file (line 1)"),
        (b"hello\nworld\n", "not a mille statistics file (line 1)"),
        (b'{"format": "mille-stats", "version": 9}\n', "line 1: statistics of version 9"),
        (b'{"format": "mille-stats", "version": 1}\n{"t": "hand", "game": "g"', "line 2: cut short"),
        (b'{"format": "mille-stats", "version": 1}\n[1, 2]\n', "line 2: not a JSON object"),
        (b'{"format": "mille-stats", "version": 1}\n{"t": "hand", "game": "g", "n": 0}\n', "line 2:"),
        (b'{"format": "mille-stats", "version": 1}\n\xff\xfe\n', "line 2: not a JSON line"),
        (
            b'{"format": "mille-stats", "version": 1}\n'
            b'{"t": "game", "game": "g", "computer": "bsd", "result": "draw", "for": 1, "against": 2,'
            b' "hands": 1, "hints": 0}\n',
            'line 2: "game" event with a bad "result"',
        ),
    ],
)
def test_a_damaged_or_foreign_file_is_reported_and_kept_aside(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_bytes(content)
    with pytest.raises(ledger.DamagedLedger) as caught:
        ledger.read_events(str(path))
    message = str(caught.value)
    assert problem in message and str(path) in message and "\n" not in message
    kept = caught.value.kept
    assert kept is not None and kept.startswith(f"{path}.damaged-") and f"kept as {kept}" in message
    assert Path(kept).read_bytes() == content  # nothing lost
    assert not path.exists()
    # A new record starts beside it.
    write(path, hand("g", 1, 10, 20))
    assert len(ledger.read_events(str(path))) == 1 and Path(kept).exists()


def test_two_damaged_files_in_one_second_are_both_kept(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    kept = []
    for content in (b"one\n", b"two\n"):
        path.write_bytes(content)
        with pytest.raises(ledger.DamagedLedger) as caught:
            ledger.read_events(str(path))
        kept.append(caught.value.kept)
    assert kept[0] != kept[1]
    assert sorted(Path(k).read_bytes() for k in kept if k) == [b"one\n", b"two\n"]


def test_events_of_a_later_mille_are_kept_but_not_summed(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    write(path, {"t": "badge", "what": "first win"}, hand("g", 1, 500, 100))
    events = ledger.read_events(str(path))
    assert len(events) == 2
    assert tally.summarize(events)["bsd"]["hands_played"] == 1


def test_an_unwritable_record_is_reported_once_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    recorder = Recorder(str(blocker / "mille" / "stats.jsonl"))
    game = finished_game(1200, 300, 400, 500)
    recorder.hand_over(game, "bsd")
    recorder.hand_over(game, "bsd")
    recorder.leaving(game, "bsd")
    assert len(recorder.problems) == 1
    assert recorder.problems[0].startswith("statistics not recorded: ") and str(blocker) in recorder.problems[0]


# --------------------------------------------------------------------------
# Counting


def test_sums_per_computer() -> None:
    events = [
        hand("a", 1, 800, 300),
        hand("a", 2, 1200, 1300),
        ended("a", "won", 5100, 4000),
        hand("b", 1, 100, 900, "expert"),
        ended("b", "lost", 2000, 5050, "expert", hints=3),
        hand("c", 1, 50, 50),
        ended("c", "abandoned", 50, 50),
    ]
    table = tally.summarize(events)
    assert list(table) == ["bsd", "expert"]
    bsd, expert = table["bsd"], table["expert"]
    assert (bsd["games_played"], bsd["games_won"], bsd["games_lost"], bsd["games_abandoned"]) == (2, 1, 0, 1)
    assert (bsd["hands_played"], bsd["hands_won"]) == (3, 1)  # a hand tied at 50 is not won
    assert (bsd["points_for"], bsd["points_against"]) == (2050, 1650)
    assert bsd["best_margin"] == 1100
    assert (expert["games_played"], expert["games_lost"], expert["best_margin"]) == (1, 1, -3050)
    assert (expert["hints"], expert["games_with_hints"]) == (3, 1)


def test_streaks_run_in_the_order_games_ended_and_anything_but_a_win_ends_one() -> None:
    results = ["won", "won", "lost", "won", "won", "won", "abandoned", "won", "tied", "won", "won"]
    events = [ended(f"g{i}", r, 5000 + 10 * i, 4000) for i, r in enumerate(results)]
    row = tally.summarize(events)["bsd"]
    assert (row["longest_streak"], row["current_streak"]) == (3, 2)
    assert (row["games_won"], row["games_lost"], row["games_tied"], row["games_abandoned"]) == (8, 1, 1, 1)
    assert row["games_played"] == len(results)
    table = tally.format_table(tally.summarize(events), "p")
    assert "  tied" in table  # shown once there is one


def test_a_game_counts_once_the_first_finish_wins_and_a_finish_beats_an_abandonment() -> None:
    events = [
        hand("g", 1, 700, 0),
        hand("g", 2, 900, 100),
        ended("g", "abandoned", 1600, 100),  # quit after playing past a save ...
        hand("g", 2, 300, 800),  # ... resumed from the save: hand 2 again, not counted again
        hand("g", 3, 4000, 100),
        ended("g", "won", 5000, 900),  # ... and finished: counted as finished
        hand("g", 3, 0, 4000),  # resumed once more from the same save
        ended("g", "lost", 1000, 5000),  # not counted: the game ended already
    ]
    row = tally.summarize(events)["bsd"]
    assert (row["games_played"], row["games_won"], row["games_lost"], row["games_abandoned"]) == (1, 1, 0, 0)
    assert row["hands_played"] == 3 and row["points_for"] == 700 + 900 + 4000
    assert row["current_streak"] == 1 and row["best_margin"] == 4100


def test_a_game_saved_and_not_resumed_is_not_yet_played() -> None:
    save_event = {"t": "save", "game": "s", "key": "k", "hands": 1, "hints": 0, "computer": "expert"}
    row = tally.summarize([hand("s", 1, 100, 200, "expert"), save_event])["expert"]
    assert (row["games_played"], row["saved_unfinished"], row["hands_played"]) == (0, 1, 1)


def test_position_key_ignores_whose_move_and_the_generator_only() -> None:
    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    key = position_key(game)
    other = game.copy()
    other.to_move = 1 - other.to_move
    other.rng.seed(99)
    assert position_key(other) == key
    other.deck_count -= 1
    assert position_key(other) != key
    moved = game.copy()
    hand = moved.players[0].hand
    j = next(j for j in range(2, len(hand)) if hand[j] != hand[1])
    hand[1], hand[j] = hand[j], hand[1]
    assert position_key(moved) != key


# --------------------------------------------------------------------------
# The recorder


def finished_game(mine_total: int, theirs_total: int, mine_hand: int, theirs_hand: int) -> Game:
    game = Game()
    game.players[0].total, game.players[1].total = mine_total, theirs_total
    game.players[0].hand_total, game.players[1].hand_total = mine_hand, theirs_hand
    return game


def test_recorder_hands_then_the_game_then_a_new_game(tmp_path: Path) -> None:
    path = str(tmp_path / "stats.jsonl")
    recorder = Recorder(path)
    recorder.moved()
    recorder.hint_used()
    recorder.hand_over(finished_game(2000, 1000, 2000, 1000), "bsd")
    first = recorder.game_id
    recorder.hand_over(finished_game(5100, 1500, 3100, 500), "bsd")
    assert recorder.game_id != first and recorder.hands == 0 and recorder.hints == 0 and not recorder.dirty
    recorder.leaving(Game(), "bsd")  # nothing played in the new game: nothing to record
    events = ledger.read_events(path)
    assert [(e["t"], e.get("n"), e.get("result")) for e in events] == [
        ("hand", 1, None),
        ("hand", 2, None),
        ("game", None, "won"),
    ]
    assert events[2]["hints"] == 1 and events[2]["hands"] == 2 and events[2]["game"] == first


def test_recorder_a_restored_game_goes_on_under_its_name(tmp_path: Path) -> None:
    path = str(tmp_path / "stats.jsonl")
    game = Game(rng=GlibcRandom(3))
    rules.start_hand(game)
    first = Recorder(path)
    first.moved()
    first.hint_used()
    first.saved(game, "bsd")
    first.leaving(game, "bsd")  # saved: not abandoned
    restored = game.copy()
    restored.to_move = 0
    again = Recorder(path, restored=restored)
    again.hint_used()
    again.moved()
    again.leaving(restored, "bsd")
    events = ledger.read_events(path)
    assert [e["t"] for e in events] == ["save", "game"]
    assert events[1]["game"] == first.game_id and events[1]["result"] == "abandoned" and events[1]["hints"] == 2
    # A position the record never saw is a new game.
    stranger = Recorder(path, restored=Game())
    stranger.moved()
    stranger.leaving(Game(), "bsd")
    assert ledger.read_events(path)[-1]["game"] not in (first.game_id, None)


def test_recorder_keeps_a_damaged_file_aside_when_it_looks_up_a_restored_game(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_text("not mine\n")
    recorder = Recorder(str(path), restored=Game())
    recorder.moved()
    recorder.leaving(Game(), "bsd")
    assert len(recorder.problems) == 1 and "kept as" in recorder.problems[0]
    assert [e["result"] for e in ledger.read_events(str(path))] == ["abandoned"]
    [aside] = [p for p in tmp_path.iterdir() if p.name.startswith("stats.jsonl.damaged-")]
    assert aside.read_text() == "not mine\n"


def test_recorder_never_writes_into_a_damaged_or_foreign_file(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    path.write_text("somebody else's notes\n")
    recorder = Recorder(str(path))
    recorder.moved()
    recorder.hand_over(finished_game(900, 100, 900, 100), "bsd")
    recorder.leaving(Game(), "bsd")
    [aside] = [p for p in tmp_path.iterdir() if p.name.startswith("stats.jsonl.damaged-")]
    assert aside.read_text() == "somebody else's notes\n"
    assert len(recorder.problems) == 1 and "not a mille statistics file" in recorder.problems[0]
    assert [e["t"] for e in ledger.read_events(str(path))] == ["hand", "game"]


# --------------------------------------------------------------------------
# Two games at once: two real processes


WRITER = textwrap.dedent(
    """
    import os, sys, time
    from mille.engine import driver, rules
    from mille.files import ledger
    from mille.files.recorder import Recorder
    from mille.players.bsd import BsdPlayer
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game

    path, seed, me, other, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
    recorder = Recorder(path)
    game = Game(rng=GlibcRandom(seed))
    players, dice = (BsdPlayer(), BsdPlayer()), (GlibcRandom(seed + 1), game.rng)
    while True:
        rules.start_hand(game)
        driver.play_hand(game, players, dice)
        recorder.moved()
        if rules.game_over(game):
            break
        recorder.hand_over(game, "bsd")
    for i in range(extra):  # many small events, interleaved with the other writer's
        ledger.append(path, {"t": "hand", "game": me + "-x", "n": i + 1, "computer": "x", "for": 1, "against": 0})
    # Both games end at the same moment: wait until the other is ready too.
    open(me, "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(other) and time.monotonic() < deadline:
        time.sleep(0.001)
    recorder.hand_over(game, "bsd")
    """
)


def test_two_games_ending_at_once_are_both_counted(tmp_path: Path) -> None:
    path = str(tmp_path / "state" / "mille" / "stats.jsonl")  # neither finds the file: both create it
    env = {**os.environ, "PYTHONPATH": SRC}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, path, str(seed), me, other, "300"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed, me, other in ((11, "a", "b"), (12, "b", "a"))
    ]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    events = ledger.read_events(path)  # every line whole: the file is not damaged
    table = tally.summarize(events)
    assert table["bsd"]["games_played"] == 2
    assert table["bsd"]["games_won"] + table["bsd"]["games_lost"] + table["bsd"]["games_tied"] == 2
    assert table["x"]["hands_played"] == 600
    # The two games' hands are all there, each once.
    games = {e["game"] for e in events if e["t"] == "game"}
    hands = [e for e in events if e["t"] == "hand" and e["game"] in games]
    assert len(hands) == table["bsd"]["hands_played"] == sum(e["hands"] for e in events if e["t"] == "game")


def test_concurrent_creation_leaves_one_header(tmp_path: Path) -> None:
    """Many processes creating the file at once: one header, every event kept.

    The same barrier as the two games above: each writer says it is ready
    (a file of its own) and waits until every writer is, however loaded
    the machine, so that they all race for the missing file together.
    """
    path = str(tmp_path / "mille" / "stats.jsonl")
    script = textwrap.dedent(
        """
        import os, sys, time
        from mille.files import ledger
        me, writers = sys.argv[3], int(sys.argv[4])
        open(f"ready-{me}", "w").close()
        deadline = time.monotonic() + 120
        while sum(os.path.exists(f"ready-g{i}") for i in range(writers)) < writers:
            if time.monotonic() > deadline:
                sys.exit("the other writers never came")
            time.sleep(0.0005)
        ledger.append(sys.argv[1], {"t": "hand", "game": me, "n": 1, "computer": "c", "for": 1, "against": 0})
        """
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    procs = [
        subprocess.Popen([sys.executable, "-c", script, path, "", f"g{i}", "6"], cwd=tmp_path, env=env)
        for i in range(6)
    ]
    assert [p.wait(timeout=300) for p in procs] == [0] * 6
    lines = Path(path).read_bytes().splitlines()
    assert sum(b'"format"' in line for line in lines) == 1 and b'"format"' in lines[0]
    assert sorted(e["game"] for e in ledger.read_events(path)) == [f"g{i}" for i in range(6)]


def test_a_simulated_game_is_recorded_hand_by_hand(tmp_path: Path) -> None:
    path = str(tmp_path / "stats.jsonl")
    recorder = Recorder(path)
    game = Game(rng=GlibcRandom(21))
    players, dice = (BsdPlayer(), BsdPlayer()), (GlibcRandom(22), game.rng)
    hand_points = []
    while True:
        rules.start_hand(game)
        driver.play_hand(game, players, dice)
        recorder.moved()
        hand_points.append((game.players[0].hand_total, game.players[1].hand_total))
        recorder.hand_over(game, "bsd")
        if rules.game_over(game):
            break
    row = tally.summarize(ledger.read_events(path))["bsd"]
    mine, theirs = game.players[0].total, game.players[1].total
    assert row["games_played"] == 1 and row["games_won"] == (mine > theirs)
    assert row["hands_played"] == len(hand_points)
    assert row["hands_won"] == sum(a > b for a, b in hand_points)
    assert (row["points_for"], row["points_against"]) == (mine, theirs)
    assert row["best_margin"] == mine - theirs


# --------------------------------------------------------------------------
# mille --stats


def test_stats_prints_the_table_and_json(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "stats.jsonl"
    write(path, hand("a", 1, 900, 100), ended("a", "won", 5200, 3000, hints=2), ended("b", "lost", 10, 5000, "expert"))
    shown = run_mille("--stats", state=tmp_path)
    assert shown.returncode == 0 and shown.stderr == ""
    rows = {line[:20].strip(): line[20:].split() for line in shown.stdout.splitlines() if line[:20].strip()}
    assert rows["computer"] == ["bsd", "expert"]
    assert rows["games played"] == ["1", "1"] and rows["best game margin"] == ["+2200", "-4990"]
    assert rows["hints used"] == ["2", "0"]
    assert str(path) in shown.stdout
    as_json = run_mille("--stats", "--json", state=tmp_path)
    data = json.loads(as_json.stdout)
    assert data["file"] == str(path)
    assert data["computers"]["bsd"]["games_won"] == 1 and data["computers"]["expert"]["games_lost"] == 1
    assert data["computers"] == tally.summarize(ledger.read_events(str(path)))


def test_stats_on_a_damaged_file_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "stats.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "mille-stats", "version": 1}\n{"t": "hand"}\n')
    shown = run_mille("--stats", state=tmp_path)
    assert shown.returncode == 1 and shown.stdout == ""
    assert shown.stderr.count("\n") == 1 and "Traceback" not in shown.stderr
    assert shown.stderr.startswith(f"mille: {path}: line 2: ") and "kept as" in shown.stderr
    assert not path.exists() and len(list(path.parent.iterdir())) == 1
    assert "No games recorded yet" in run_mille("--stats", state=tmp_path).stdout


def test_json_without_stats_is_a_usage_error(tmp_path: Path) -> None:
    shown = run_mille("--json", state=tmp_path)
    assert shown.returncode == 1 and "--json goes with --stats" in shown.stderr
    for extra in (["game.json"], ["--seed", "3"], ["--hints"]):
        shown = run_mille("--stats", *extra, state=tmp_path)
        assert shown.returncode == 1 and "take no other arguments" in shown.stderr and shown.stdout == ""


@pytest.mark.parametrize(
    "event",
    [
        hand("0123456789abcdef", 3, 700, -25),
        ended("g", "abandoned", 0, 0, "expert", hints=2),
        {"t": "save", "game": "g", "key": "ab" * 16, "hands": 0, "hints": 0, "computer": "my_bot:Player", "at": 17.5},
        {"t": "hand", "game": 'quote " and \\ and é', "n": 1, "computer": "x\ny", "for": 1, "against": 2},
        {"t": "x", "flag": True, "none": None, "list": [1]},
        {"t": "x", "odd key": 1, 'k"ey': 2, "at": 1795502132.995},
    ],
)
def test_events_are_written_as_json_would_write_them(event: dict[str, object]) -> None:
    line = ledger._dumps(event)
    assert line == json.dumps(event, separators=(",", ":"))
    assert json.loads(line) == event


def test_a_quit_imports_neither_json_nor_secrets(tmp_path: Path) -> None:
    """A quit is the moment the record is written most often: it must be quick."""
    probe = textwrap.dedent(
        f"""
        import sys
        from mille.files.recorder import Recorder
        from mille.engine.state import Game
        r = Recorder({str(tmp_path / "stats.jsonl")!r})
        r.moved()
        r.leaving(Game(), "bsd")
        r = Recorder({str(tmp_path / "stats.jsonl")!r})
        r.moved()
        r.leaving(Game(), "bsd")
        print(sorted(m for m in ("json", "secrets", "re", "random") if m in sys.modules))
        """
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, text=True, timeout=60
    )
    assert shown.stdout == "[]\n", shown.stderr
    assert [e["result"] for e in ledger.read_events(str(tmp_path / "stats.jsonl"))] == ["abandoned"] * 2


# --------------------------------------------------------------------------
# Real faults: a full disk, a FIFO, a device, a huge file, deep nesting, another user


def game_events(path: Path, games: int) -> None:
    for g in range(games):
        write(path, hand(f"g{g}", 1, 900, 100), ended(f"g{g}", "won", 5100, 300))


QUIT_ON_A_FULL_DISK = textwrap.dedent(
    """
    import os, sys
    from mille.files.recorder import Recorder
    from mille.engine.state import Game
    path = sys.argv[1]
    {full_disk}
    recorder = Recorder(path)
    recorder.moved()
    recorder.leaving(Game(), "bsd")  # a quit: the game is abandoned, and the line is cut short
    print("\\n".join(recorder.problems))
    """
)


@posix
def test_a_full_disk_cuts_a_line_short_and_the_history_is_kept(tmp_path: Path) -> None:
    """RLIMIT_FSIZE in a child: its one write is cut short; the next run keeps every game and skips the piece."""
    path = tmp_path / "mille" / "stats.jsonl"
    game_events(path, 3)
    size = path.stat().st_size
    code = QUIT_ON_A_FULL_DISK.replace("{full_disk}", full_disk(size + 20))
    shown = run_python(code, str(path))
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr
    [problem] = shown.stdout.splitlines()
    assert problem.startswith(f"statistics not recorded: {path}: write cut short (20 of ")
    torn = path.read_bytes()[size:]
    assert torn.startswith(b'{"t":"game","game":"') and len(torn) == 20  # what a full disk leaves
    # The next run: the three games are still the record, and the piece is skipped, not summed.
    record = ledger.read_record(str(path))
    assert tally.summarize(record.events)["bsd"]["games_won"] == 3 and record.cut_short == 1
    assert not list(tmp_path.glob("mille/*.damaged-*"))
    # The next event goes on a line of its own, after the piece.
    write(path, ended("g9", "lost", 10, 5000))
    record = ledger.read_record(str(path))
    table = tally.summarize(record.events)["bsd"]
    assert (table["games_won"], table["games_lost"], record.cut_short) == (3, 1, 1)
    listed = run_mille("--stats", state=tmp_path)
    assert listed.returncode == 0 and "1 line cut short by a failed write" in listed.stdout


def test_a_piece_and_a_whole_event_on_one_line_keep_the_event(tmp_path: Path) -> None:
    """Two writers: one cut short, the other's line written just after it, before anyone saw the tear."""
    path = tmp_path / "stats.jsonl"
    write(path, hand("a", 1, 900, 100))
    with open(path, "ab") as f:
        f.write(b'{"t":"hand","ga' + ledger._dumps(hand("b", 1, 800, 200)).encode() + b"\n")
    record = ledger.read_record(str(path))
    assert [e["game"] for e in record.events] == ["a", "b"] and record.cut_short == 1


@posix
def test_a_fifo_is_refused_never_waited_on(tmp_path: Path) -> None:
    """A FIFO at the record's name: --stats and a game's quit each say so in one line, at once."""
    path = tmp_path / "mille" / "stats.jsonl"
    path.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(path)
    shown = run_mille("--stats", state=tmp_path)  # the timeout is only against a hang
    assert shown.returncode == 1 and shown.stdout == ""
    assert shown.stderr == f"mille: {path}: not a regular file (a FIFO); not read\n"
    quit_code = QUIT_ON_A_FULL_DISK.replace("{full_disk}", "")
    quit_run = run_python(quit_code, str(path))
    assert quit_run.returncode == 0, quit_run.stderr
    assert quit_run.stdout.startswith(f"statistics not recorded: {path}: not a regular file (a FIFO); the record is")
    assert stat.S_ISFIFO(os.lstat(path).st_mode)  # left as it is


@posix
def test_a_link_to_a_device_is_refused_in_one_line(tmp_path: Path) -> None:
    """A link to /dev/zero: never read without end (it took all the memory there was)."""
    path = tmp_path / "mille" / "stats.jsonl"
    path.parent.mkdir(parents=True, mode=0o700)
    os.symlink("/dev/zero", path)
    shown = run_mille("--stats", state=tmp_path)
    assert shown.returncode == 1
    assert shown.stderr == f"mille: {path}: not a regular file (a character device); not read\n"
    recorder = Recorder(str(path))
    recorder.moved()
    recorder.leaving(Game(), "bsd")
    assert len(recorder.problems) == 1 and "a character device" in recorder.problems[0]
    assert os.readlink(path) == "/dev/zero"


@posix
def test_a_file_past_the_limit_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "stats.jsonl"
    game_events(path, 1)
    before = path.read_bytes()
    with open(path, "ab") as f:
        f.truncate(ledger.MAX_SIZE + 1)  # sparse: no disk used
    shown = run_mille("--stats", state=tmp_path)
    assert shown.returncode == 1 and shown.stdout == ""
    assert shown.stderr == (
        f"mille: {path}: too large ({ledger.MAX_SIZE + 1} bytes or more; the limit is {ledger.MAX_SIZE}); not read\n"
    )
    recorder = Recorder(str(path))
    recorder.moved()
    recorder.leaving(Game(), "bsd")
    assert len(recorder.problems) == 1 and "too large" in recorder.problems[0]
    assert path.stat().st_size == ledger.MAX_SIZE + 1 and path.read_bytes()[: len(before)] == before
    assert not list(tmp_path.glob("mille/*.damaged-*"))


def deeply_nested(path: Path) -> bytes:
    game_events(path, 1)
    with open(path, "ab") as f:
        f.write(b'{"t":"hand","game":' + b"[" * 200_000 + b"]" * 200_000 + b"}\n")
    return path.read_bytes()


def test_deep_nesting_is_one_line_for_stats(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "stats.jsonl"
    content = deeply_nested(path)
    shown = run_mille("--stats", state=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr and shown.stderr.count("\n") == 1
    assert shown.stderr.startswith(f"mille: {path}: line 4: not a JSON line (nested too deeply); kept as ")
    [aside] = list(tmp_path.glob("mille/stats.jsonl.damaged-*"))
    assert aside.read_bytes() == content


def test_deep_nesting_never_stops_a_game(tmp_path: Path) -> None:
    """A restored game's quit looks the record up: a deeply nested line was an internal error there."""
    path = tmp_path / "stats.jsonl"
    deeply_nested(path)
    recorder = Recorder(str(path), restored=Game())
    recorder.moved()
    recorder.leaving(Game(), "bsd")
    assert len(recorder.problems) == 1 and "nested too deeply" in recorder.problems[0]
    assert [e["result"] for e in ledger.read_events(str(path))] == ["abandoned"]  # a new record


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_numbers_past_the_digit_limit_are_a_damaged_line_not_a_traceback(
    tmp_path: Path, json_flag: tuple[str, ...]
) -> None:
    """Each number below Python's 4300-digit limit, their sum past it: --stats printed a traceback (str, json)."""
    path = tmp_path / "mille" / "stats.jsonl"
    big = 10**4299
    write(path, hand("g1", 1, big, 0), hand("g2", 1, big, 0), ended("g1", "won", big, 0), ended("g2", "won", big, 0))
    content = path.read_bytes()
    shown = run_mille("--stats", *json_flag, state=tmp_path)
    assert shown.returncode == 1 and shown.stdout == "" and "Traceback" not in shown.stderr
    assert shown.stderr.startswith(f'mille: {path}: line 2: "hand" event with a bad "for"; kept as ')
    assert shown.stderr.count("\n") == 1
    [aside] = list(tmp_path.glob("mille/stats.jsonl.damaged-*"))
    assert aside.read_bytes() == content
    assert run_mille("--stats", *json_flag, state=tmp_path).returncode == 0  # a new record, empty


@posix
def test_a_damaged_record_that_cannot_be_set_aside_is_not_written_into(tmp_path: Path) -> None:
    """The player's own directory, read-only: the file stays as it was, and the message says the record is not kept."""
    with shared_directory() as shared:
        state = shared / "mille"
        state.mkdir(mode=0o700)
        path = state / "stats.jsonl"
        path.write_bytes(b"somebody's notes\n")
        uid, gid = other_user()
        os.chown(path, uid, gid)
        os.chown(state, uid, gid)
        os.chmod(state, 0o500)  # nobody may not rename in it, but may append to the file

        def quit_game() -> str:
            recorder = Recorder(str(path))
            recorder.moved()
            recorder.leaving(Game(), "bsd")
            return "\n".join(recorder.problems)

        problems = as_other_user(quit_game)
        assert path.read_bytes() == b"somebody's notes\n"  # nothing appended
        assert problems == (
            f"statistics not recorded: {path}: not a mille statistics file (line 1); left as it is "
            "(it could not be set aside: Permission denied); the record is not kept for the rest of this run"
        )
        assert os.listdir(state) == ["stats.jsonl"]


@posix
def test_a_state_directory_of_another_user_is_not_used(tmp_path: Path) -> None:
    with shared_directory() as shared:
        state = shared / "mille"
        as_other_user(lambda: os.mkdir(state, 0o755))
        recorder = Recorder(str(state / "stats.jsonl"))
        recorder.moved()
        recorder.leaving(Game(), "bsd")
        uid = other_user()[0]
        assert recorder.problems == [
            f"statistics not recorded: {state}: belongs to another user (uid {uid}), not used; "
            "the record is not kept for the rest of this run"
        ]
        assert os.listdir(state) == []
        shown = run_mille("--stats", state=shared)
        assert (
            shown.returncode == 1 and shown.stderr == f"mille: {state}: belongs to another user (uid {uid}), not used\n"
        )


@posix
def test_a_state_directory_open_to_others_is_not_used(tmp_path: Path) -> None:
    state = tmp_path / "mille"
    state.mkdir()
    os.chmod(state, 0o777)
    recorder = Recorder(str(state / "stats.jsonl"))
    recorder.moved()
    recorder.leaving(Game(), "bsd")
    assert len(recorder.problems) == 1 and "writable by others (mode 0777)" in recorder.problems[0]
    assert os.listdir(state) == []


def test_names_from_outside_are_escaped_on_the_terminal(tmp_path: Path) -> None:
    state = tmp_path / "a\x1b]0;owned\x07b"
    shown = run_mille("--stats", state=state)
    assert shown.returncode == 0 and "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "a\\x1b]0;owned\\x07b" in shown.stdout


def test_a_state_home_under_a_regular_file_is_no_record_yet(tmp_path: Path) -> None:
    """ENOTDIR (XDG_STATE_HOME a regular file) is a missing record, as git takes it: --stats said 'Not a directory'."""
    home = tmp_path / "home"
    home.write_text("a file, not a directory\n")
    shown = run_mille("--stats", state=home)
    assert shown.returncode == 0 and shown.stderr == ""
    assert shown.stdout == f"No games recorded yet ({home}/mille/stats.jsonl).\n"
    ledger.inspect(f"{home}/mille/stats.jsonl")  # nothing to look at, nothing said
