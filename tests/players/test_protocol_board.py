"""A bot program as the computer on the board: ``mille --computer 'exec:COMMAND'``.

* ``exec:python -m mille.bot bsd`` is the original's computer, screen for
  screen: a whole game on the virtual terminal, and a hand on a real pty
  beside ``--computer bsd`` (the bot declares ``dice: game`` and, given
  ``--bot-reads-deck``, rolls the game's own generator through the host;
  without it, its own dice);
* a save records the bot; resuming it runs the bot only when the command
  line names it again, else ``bsd`` plays and the first board says so;
* a bot that cannot start is one line before the board; one that fails in
  the middle of the game leaves it kept, with one line saying why;
* a save file's ``computer`` may be ``exec:`` and a command (printable,
  bounded), and the record of games keeps a long one cut short;
* the C example bot (docs/examples/greedy_bot.c) plays at the board.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import ui as H
from helpers.players import Bot
from helpers.protocol import BOT_PATH, SRC, TESTS, children, protocol_bot, served
from helpers.ptyreplay import PtySession
from helpers.saves import EXIT_AFTER_SIGNAL_S
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.files import ledger, save
from mille.files.recorder import Recorder
from mille.lab.options import RunOptions
from mille.players import botprocess, make_player
from mille.ui import flow as ui
from mille.ui import session as run
from mille.ui.app import board_flow
from mille.ui.flow import Setup
from mille.ui.keeping import Keeper

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux (ptys, /proc)")

SEED = 5
EXAMPLE_C = os.path.join(os.path.dirname(TESTS), "docs", "examples", "greedy_bot.c")


@pytest.fixture(autouse=True)
def bots(monkeypatch: pytest.MonkeyPatch, tmp_path) -> Iterator[None]:
    monkeypatch.setenv("PYTHONPATH", BOT_PATH)
    monkeypatch.setenv(botprocess.LOGS_VARIABLE, str(tmp_path / "logs"))
    before = {pid for pid, _ in children()}
    yield
    botprocess.shutdown()
    assert not [c for c in children() if c[0] not in before], "a bot outlived its test (or is a zombie)"


class _Logged(Bot):
    """The test players' bot at the virtual terminal, noting the keys it types at each prompt."""

    def __init__(self, seed: int, games: int = 1) -> None:
        super().__init__(seed, screens=True, games=games)
        self.typed: list[tuple[int, bytes]] = []

    def _next(self) -> list[int]:
        keys = super()._next()
        assert self.app is not None
        self.typed.append((self.app.face.dialogs.last_prompt, bytes(keys)))
        return keys


def vt_game(seed: int, computer: str) -> _Logged:
    """A whole game at the virtual terminal against ``computer``, as ``mille --computer --bot-reads-deck`` seats it."""
    game = Game(rng=GlibcRandom(seed))
    bot = _Logged(seed)
    player, dice = run.computer_player(computer, seed, game, reads_deck=True)
    bot.app = board_flow(bot, game, Setup(player, computer, dice))
    assert bot.app.run() == 0
    return bot


def test_the_original_computer_over_the_pipe_shows_the_same_game() -> None:
    """A whole game, every screen the same as against the computer in process."""
    mine = vt_game(SEED, "bsd")
    theirs = vt_game(SEED, served("bsd"))
    assert theirs.typed == mine.typed
    assert theirs.screens == mine.screens
    assert len(mine.finished_games) == 1 and len(mine.screens) > 100


def test_a_bot_that_declares_the_game_dice_rolls_the_game_generator_only_when_it_may_read_the_deck() -> None:
    game = Game(rng=GlibcRandom(SEED))
    _, dice = run.computer_player(served("bsd"), SEED, game, reads_deck=True)
    assert dice is game.rng
    seeds = set()
    for reads_deck in (False, False, True):
        name = served("bsd") if not reads_deck else served("expert")
        _, dice = run.computer_player(name, SEED, game, reads_deck=reads_deck)
        assert dice is not game.rng and dice.untouched()
        assert dice.seeded_with is not None and 1 <= dice.seeded_with < 2**31
        seeds.add(dice.seeded_with)
    assert len(seeds) == 3  # its own, from os.urandom: not the seed's, nor another game's


def test_a_bot_that_cannot_start_is_one_line(capfd: pytest.CaptureFixture[str]) -> None:
    status = run.play_board(run.Choices(Game(rng=GlibcRandom(1)), computer_name="exec:/nonexistent/bot"))
    err = capfd.readouterr().err
    assert status == 1 and err.count("\n") == 1
    assert "cannot run '/nonexistent/bot': No such file or directory" in err


def test_a_bot_that_fails_mid_game_leaves_the_game_kept() -> None:
    """The flow keeps the game as a hangup does and leaves with status 1, saying why."""
    kept: list[tuple[Game, str]] = []
    game = Game(rng=GlibcRandom(SEED))
    spec = protocol_bot("exit")
    bot = _Logged(SEED)
    bot.app = board_flow(
        bot,
        game,
        Setup(
            make_player(spec),
            spec,
            GlibcRandom(1),
            keeper=Keeper(store=lambda what: kept.append((what.game, what.computer))),
        ),
    )
    assert bot.app.run() == 1
    assert bot.app.computer_failure is not None and "exited with status 3 before its move" in bot.app.computer_failure
    ((saved, computer),) = kept
    assert computer == spec and saved.to_move == 1  # the computer's turn, after your first move


# --------------------------------------------------------------------------
# Files


@pytest.mark.parametrize(
    ("computer", "ok"),
    [
        ("exec:./mybot --level 3", True),
        ("exec:python -m mille.bot 'a b'", True),
        ("exec:", False),
        ("exec:   ", False),
        ("exec:./bot\x1b[2J", False),
        ("exec:" + "x" * 1000, False),
        ("mille.players.bsd:BsdPlayer", False),
    ],
)
def test_a_save_may_name_a_bot(computer: str, ok: bool) -> None:
    text = save.dumps(save.SavedGame(Game(rng=GlibcRandom(1)), 0, computer))
    if ok:
        assert save.loads(text).computer == computer
    else:
        with pytest.raises(save.SaveError, match="computer"):
            save.loads(text)


def test_the_record_of_games_cuts_a_long_bot_name_short(tmp_path) -> None:
    path = str(tmp_path / "stats.jsonl")
    recorder = Recorder(path)
    game = Game(rng=GlibcRandom(1))
    recorder.hand_over(game, "exec:" + "b" * 200)
    assert not recorder.problems
    (event,) = ledger.read_events(path)
    assert len(event["computer"]) == 64 and event["computer"].endswith("...")


# --------------------------------------------------------------------------
# On a real terminal


def session(*args: str, cwd: str, state: str) -> PtySession:
    env = {"PYTHONPATH": BOT_PATH, "XDG_STATE_HOME": state, botprocess.LOGS_VARIABLE: os.path.join(cwd, "logs")}
    return PtySession([sys.executable, "-m", "mille", *args], env=env, cwd=cwd)


def one_hand(seed: int) -> tuple[list[tuple[list[str], tuple[int, int]]], list[bytes]]:
    """The screens and the keys of the first hand at the virtual terminal, then no more hands, no save."""
    bot = vt_game(seed, "bsd")
    keys: list[bytes] = []
    for prompt, typed in bot.typed:
        if prompt == ui.ANOTHER_HAND_PROMPT:
            break
        keys.append(typed)
    return bot.screens[: len(keys) + 1], keys + [b"n", b"n"]


def test_on_a_terminal_the_bot_shows_the_screens_of_the_original_computer(tmp_path) -> None:
    """A hand on real ptys: ``--computer 'exec:python -m mille.bot bsd'`` beside the default, key for key."""
    screens, keys = one_hand(SEED)
    runs: dict[str, list[Any]] = {}
    for name, args in (("default", []), ("exec", ["--bot-reads-deck", "--computer", served("bsd")])):
        cwd = tmp_path / name
        cwd.mkdir()
        shown = []
        with session("--seed", str(SEED), *args, cwd=str(cwd), state=str(cwd / "state")) as s:
            snap = s.start()
            for i, typed in enumerate(keys):
                want = {"screen": screens[i][0], "cursor": list(screens[i][1])} if i < len(screens) else None
                if want is not None:
                    assert [line.rstrip() for line in snap.screen] == [line.rstrip() for line in want["screen"]], i
                shown.append((snap.screen, snap.cursor))
                snap = s.step(typed.decode("latin-1"), expect=_expect(screens, i + 1))
            end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
            assert end.exited and end.rc == 0, end.screen
        runs[name] = shown
    assert runs["exec"] == runs["default"]
    assert len(runs["default"]) > 30


def _expect(screens: list[tuple[list[str], tuple[int, int]]], i: int) -> dict[str, Any] | None:
    if i >= len(screens):
        return None
    lines, cursor = screens[i]
    return {"screen": [line.ljust(80) for line in lines], "cursor": list(cursor)}


def test_a_save_runs_its_bot_only_when_named_again(tmp_path) -> None:
    started = tmp_path / "started"
    spec = protocol_bot("ok", "--started", str(started))
    save.write_game(str(tmp_path / "g1"), save.SavedGame(one_game_in(), 0, spec))
    with H.Pty(H.mille_argv("g1", "--seed", "5"), cwd=str(tmp_path), env={"PYTHONPATH": BOT_PATH}) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=20), p.text()
        assert p.lines()[15][41:].strip().startswith("bsd plays, not exec:"), p.text()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=10)
        p.send("y")
        assert p.wait_exit() == 0
        said = p.raw.decode("utf-8", "replace")
        assert "g1 was saved against a program, which a save never runs: bsd plays instead;" in said
        assert 'name it yourself with --computer exec:COMMAND (the file names "exec:' in said
        assert f"--computer '{spec}'" not in said and f"--computer {spec}" not in said  # nothing to paste
    assert not started.exists(), "the save ran a program by itself"
    with H.Pty(
        H.mille_argv("g1", "--seed", "5", "--computer", spec), cwd=str(tmp_path), env={"PYTHONPATH": BOT_PATH}
    ) as p:
        assert p.wait_for(lambda q: q.at_move_prompt(), timeout=20), p.text()
        assert "bsd plays" not in p.lines()[15]
        assert started.exists()
        p.send("q")
        assert p.wait_for(lambda q: q.lines()[10][20:27] == "Really?", timeout=10)
        p.send("y")
        assert p.wait_exit() == 0


def one_game_in() -> Game:
    """A game at its first move prompt (seed 5, nothing moved)."""
    from mille.engine import rules

    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    return game


def test_on_a_terminal_a_bot_that_fails_leaves_one_line_and_the_game(tmp_path) -> None:
    spec = protocol_bot("exit")
    _, keys = one_hand(SEED)
    state = tmp_path / "state"
    with session("--seed", str(SEED), "--computer", spec, cwd=str(tmp_path), state=str(state)) as s:
        s.start()
        s.step(keys[0].decode("latin-1"))
        s.send(keys[1].decode("latin-1"))  # your first move made, the computer's turn: the bot leaves
        end = s.wait_exit(EXIT_AFTER_SIGNAL_S + 5)
        assert end.exited and end.rc == 1, end.screen
    text = "".join(line.ljust(80) for line in end.screen)
    assert re.search(r"mille: the computer exec:\S+ \S+ exit failed: exited with status 3 before its move", text), text
    (kept,) = [n for n in os.listdir(state / "mille") if n.startswith("hangup-")]
    loaded = save.read_game(str(state / "mille" / kept))
    assert loaded.computer == spec and loaded.game.to_move == 1


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """docs/examples/greedy_bot.c, built with the C compiler there is (skipped without one)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build docs/examples/greedy_bot.c")
    binary = str(tmp_path_factory.mktemp("c") / "greedy_bot")
    done = subprocess.run([cc, "-std=c99", "-O2", "-Wall", "-o", binary, EXAMPLE_C], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return binary


def test_the_c_bot_plays_matches_and_tournaments(c_bot: str) -> None:
    """A bot from docs/protocol.md alone, in C: no forfeit; allowed the seed's dice, its games are the seed's."""
    from mille.lab.match import run_match
    from mille.lab.tournament import run_tournament

    report = run_match(f"exec:{c_bot}", "bsd", games=10, options=RunOptions(jobs=1, bots_read_deck=True))
    assert report["errors"] == [] and report["hands"] > 30
    again = run_match(f"exec:{c_bot}", "bsd", games=10, options=RunOptions(jobs=1, bots_read_deck=True))
    assert again["by_pair"] == report["by_pair"], "its dice come from the match's seed"
    standings = run_tournament([f"exec:{c_bot}", "bsd", "first"], games=2, options=RunOptions(jobs=1))
    assert standings["interrupted"] is False
    assert SRC


def test_the_c_bot_plays_the_person_at_the_board(tmp_path, c_bot: str) -> None:
    """A whole game at the virtual terminal, and its first moves on a real one, screen for screen."""
    spec = f"exec:{c_bot}"
    bot = vt_game(SEED, spec)
    assert len(bot.finished_games) == 1
    keys = [typed for _, typed in bot.typed[:20]]
    with session("--seed", str(SEED), "--computer", spec, cwd=str(tmp_path), state=str(tmp_path / "s")) as s:
        snap = s.start()
        for i, typed in enumerate(keys):
            assert [line.rstrip() for line in snap.screen] == [line.rstrip() for line in bot.screens[i][0]], i
            snap = s.step(typed.decode("latin-1"), expect=_expect(bot.screens, i + 1))
        s.send("q")
        s.step("y")
        end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
        assert end.exited and end.rc == 0
