"""Hangups at every prompt, through the real front end on a pseudo-terminal.

Issue "Seats and decisions", item 9: a hangup or SIGTERM at any prompt (the
move prompt, a card number after ``u``/``d``, a file name half typed,
``Same file?``, ``Overwrite file?``, ``Really?``, ``Extension?``,
``Another hand?``, ``Another game?``, ``Save game?``) leaves a save that
restores the same game.

Each case runs ``python3 -m mille`` on an 80x24 pty (tests/helpers/ptyreplay.py),
usually from a file written here, so that the position before the prompt is
known exactly; drives the keys to the prompt; and then, for a hangup, closes
the terminal under the interactive shell that runs the game, as an ssh drop
does (issue 30: nobody signals the game itself; its reads fail at once and
the shell passes SIGHUP on a moment later), or sends SIGTERM; and checks

* exit status 1 and exactly one ``hangup-*.json`` under ``$XDG_STATE_HOME/mille``
  (and nothing else written: no half-typed file, the restored file untouched);
* the hangup file loads and holds the game as it was at the prompt, compared
  with an independent expectation built with the engine's rules from the
  starting position (field for field through ``save.to_dict``), and with
  what the board showed at the prompt (hand, deck, discard, piles, scores);
* ``mille HANGUP-FILE --seed N`` shows the same board and the right next
  prompt: the move prompt on the same position for a mid-hand save,
  ``Extension?`` again for a save at that question, a new deal (computed
  here with the rules from the saved game) for the end-of-hand questions.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from helpers import REPO, SRC
from helpers import terminal as T
from helpers.engine import after
from helpers.ptyreplay import PtySession, Snapshot
from helpers.saves import EXIT_AFTER_SIGNAL_S, MOVE, extension_position, move_keys, simulate
from mille.engine import cards, rules
from mille.engine.rules import DRAW, NO_EXTENSION, Move
from mille.engine.state import Game
from mille.files import ledger, save
from mille.ui.flow import as_seen
from mille.ui.layout import COMPUTER, YOU, ScoreView

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")

SEED = 11  # the dealer's seed for every run (restores and fresh games)
#: SIGHUP: the terminal goes away (closed under a shell); SIGTERM: sent to the game.
SIGNALS = [pytest.param(signal.SIGHUP, id="terminal-closed"), pytest.param(signal.SIGTERM, id="SIGTERM")]
HANGUP_NAME = re.compile(r"hangup-\d{8}-\d{6}(-\d+)?\.json\Z")


def mille(*args: str, env: dict[str, str] | None = None, cwd: str = REPO, shell: bool = False) -> PtySession:
    """The game on a pty; with ``shell``, run by an interactive shell (``T.ShellSession``: ``hang_up()``)."""
    argv, full_env = [sys.executable, "-m", "mille", *args], {"PYTHONPATH": SRC, **(env or {})}
    if shell:
        return T.ShellSession(argv, env=full_env, cwd=cwd)
    return PtySession(argv, env=full_env, cwd=cwd)


# --------------------------------------------------------------------------
# Positions


def _mid_hand_game() -> Game:
    """A turn start (the P slot empty, nothing drawn) well into a hand, totals far from 5000."""
    for seed in range(40):
        for point in simulate(seed, hands=1, mix=1.0):
            g = point.game
            if (
                point.kind == MOVE
                and g.to_move == YOU
                and g.players[YOU].hand[0] == cards.EMPTY
                and min(p.mileage for p in g.players) >= 200
                and g.deck_count >= 10
                and g.discard != cards.EMPTY
            ):
                return g
    raise RuntimeError("no mid-hand position")  # pragma: no cover


_CACHE: dict[str, object] = {}


def mid_hand_game() -> Game:
    if "mid" not in _CACHE:
        _CACHE["mid"] = _mid_hand_game()
    return _CACHE["mid"].copy()  # type: ignore[union-attr]


def extension_game(game_points: bool = False) -> tuple[Game, Move]:
    """A move prompt where the human's play reaches exactly 700 (``Extension?`` next).

    Declined, the hand ends; with ``game_points`` the human's total is raised
    by 4000 first, so that it then passes 5000 (``Another game?``) although
    it is still under 5000 at the question.
    """
    if "ext" not in _CACHE:
        _CACHE["ext"] = extension_position()
    game, move = _CACHE["ext"]  # type: ignore[misc]
    game = game.copy()
    if game_points:
        game.players[YOU].total += 4000
        trial = game.copy()
        rules.push(trial, move)
        assert trial.players[YOU].total < trial.table.game_points
        rules.push(trial, NO_EXTENSION)
        assert trial.finished and rules.game_over(trial)
    return game, move


def fresh_game(seed: int) -> Game:
    """The first position of ``mille --seed N``, as the main loop makes it."""
    game = rules.new_game(seed)
    rules.start_hand(game)
    assert game.to_move == YOU  # the human starts: no computer move to replay
    return game


def next_deal(saved: Game, seed: int) -> Game:
    """What ``mille FILE --seed N`` deals from an end-of-hand save (docs/save-format.md, Restoring)."""
    game = saved.copy()
    game.to_move = YOU
    game.rng.seed(seed)
    if rules.game_over(game):
        rules.settle_game(game)
    rules.start_hand(game, resumed=True)
    return game


# --------------------------------------------------------------------------
# The cases: where the program starts, the keys to the prompt, what it shows,
# the game it must save, and what a restore of that save must show.


@dataclass
class Case:
    start: Game | None  # None: a fresh game (``mille --seed N``)
    keys: list[str]  # one step each
    prompt: str  # row 10 from column 20 at the prompt (then the cursor follows it)
    expected: Game  # the game at the prompt
    end_of_hand: bool = False
    setup: Callable[[str], None] | None = None  # prepares the working directory
    shown: Game | None = None  # what the board shows at the prompt, if not ``expected``


def _case(name: str) -> Case:
    if name in ("move", "card", "card-digit", "same-file", "really", "file-after-same-file"):
        start = mid_hand_game()
        drawn = after(start, DRAW)  # the pick is the engine's, no dice: known exactly
        keys, prompt = {
            "move": (["p"], ">>:Move: "),
            "card": (["p", "u"], ">>:Move: U"),
            "card-digit": (["p", "d", "3"], ">>:Move: D3"),
            "same-file": (["p", "s"], "Same file? "),
            "really": (["p", "q"], "Really? "),
            "file-after-same-file": (["p", "s", "n", "half"], "file: half"),
        }[name]
        return Case(start, keys, prompt, drawn)
    if name in ("file", "overwrite"):
        drawn = after(fresh_game(SEED), DRAW)
        if name == "file":
            return Case(None, ["p", "s", "unfin"], "file: unfin", drawn)

        def make_existing(cwd: str) -> None:
            with open(os.path.join(cwd, "taken"), "w") as f:
                f.write("keep me\n")

        return Case(None, ["p", "s", "taken\r"], "Overwrite file? ", drawn, setup=make_existing)
    if name == "extension":
        start, move = extension_game()
        # The board is not redrawn before the question (as in the original's
        # check_ext): it shows the position before the card, still in the hand.
        return Case(start, [move_keys(move).decode()], "Extension? ", after(start, move), shown=start)
    if name in ("another-hand", "save-game"):
        start, move = extension_game()
        ended = after(start, move, NO_EXTENSION)
        assert ended.finished and not rules.game_over(ended)
        keys = [move_keys(move).decode(), "n"]
        if name == "another-hand":
            return Case(start, keys, "Another hand? ", ended, end_of_hand=True)
        return Case(start, [*keys, "n"], "Save game? ", ended, end_of_hand=True)
    if name in ("another-game", "save-game-after-game"):
        start, move = extension_game(game_points=True)
        ended = after(start, move, NO_EXTENSION)
        keys = [move_keys(move).decode(), "n"]
        if name == "another-game":
            return Case(start, keys, "Another game? ", ended, end_of_hand=True)
        settled = ended.copy()
        rules.settle_game(settled)  # a declined game is settled before Save game?
        assert settled.players[YOU].games == ended.players[YOU].games + 1
        # The settled totals are not drawn before Save game? (as in the original's check_more).
        return Case(start, [*keys, "n"], "Save game? ", settled, end_of_hand=True, shown=ended)
    raise KeyError(name)


PROMPTS = [
    "move",
    "card",
    "card-digit",
    "file",
    "file-after-same-file",
    "same-file",
    "overwrite",
    "really",
    "extension",
    "another-hand",
    "another-game",
    "save-game",
    "save-game-after-game",
]


# --------------------------------------------------------------------------
# Screen checks


def assert_position_shown(lines: list[str], game: Game) -> None:
    """The board shows this game: the hand, deck, discard, piles, mileage and scores."""
    human = game.players[YOU]
    for slot in range(cards.HAND_SIZE):
        assert lines[6 + slot][2:20].rstrip() == cards.name(human.hand[slot]), slot
    assert lines[6][22:24] == f"{game.deck_count:2d}"
    if game.discard != cards.EMPTY:  # an empty pile may still show the previous hand's card
        assert lines[8][22:40].rstrip() == cards.name(game.discard)
    full = game.finished  # the small window here: no W pressed
    for who, col in ((YOU, 2), (COMPUTER, 22)):
        p = game.players[who]
        assert lines[14][col : col + 18].rstrip() == cards.name(p.battle), who
        assert lines[16][col : col + 18].rstrip() == cards.name(p.speed), who
        x = 40 + 21 + 6 * who
        assert lines[1][x : x + 4] == f"{p.mileage:4d}", who
        hand_row, total_row, games_row = (11, 13, 14) if full else (6, 8, 9)
        assert lines[hand_row][x : x + 4] == f"{p.hand_total:4d}", who
        assert lines[total_row][x : x + 4] == f"{p.total:4d}", who
        assert lines[games_row][x : x + 4] == f"{p.games:4d}", who


def board_rows(lines: list[str]) -> list[str]:
    """The screen less the prompt line, the message line and the computer's PLAY/DISCARD text."""
    out = []
    for y, line in enumerate(lines):
        if y == 10:
            line = line[:20]
        elif y == 15:
            line = line[:40]
        elif y in (11, 12):
            line = line[:20] + " " * 20 + line[40:]
        out.append(line)
    return out


def at_prompt(snap: Snapshot, text: str) -> None:
    assert not snap.exited, "\n".join(snap.screen)
    assert snap.screen[10][20:40].rstrip() == text.rstrip(), "\n".join(snap.screen)
    assert snap.cursor == [10, 20 + len(text)], snap.cursor


# --------------------------------------------------------------------------
# The run


def hang_up(tmp_path, case: Case, sig: int) -> tuple[Snapshot, str, dict[str, str]]:
    """Start, drive to the prompt, close the terminal (SIGHUP) or send ``sig``; the screen, the hangup file, the env."""
    state = tmp_path / "state"
    work = tmp_path / "work"
    work.mkdir()
    env = {"XDG_STATE_HOME": str(state)}
    args = ["--seed", str(SEED)]
    start_file = None
    if case.start is not None:
        start_file = str(work / "start.json")
        save.write_game(start_file, case.start)
        args.insert(0, "start.json")
    if case.setup is not None:
        case.setup(str(work))
    before_files = {p.name: p.read_bytes() for p in work.iterdir()}
    closed = sig == signal.SIGHUP
    with mille(*args, env=env, cwd=str(work), shell=closed) as s:
        snap = s.start()
        assert not snap.exited, "\n".join(snap.screen)
        for keys in case.keys:
            snap = s.step(keys)
        at_prompt(snap, case.prompt)
        if closed:
            s.hang_up()  # type: ignore[attr-defined]  # the terminal goes away; the game must leave
        else:
            os.kill(s.pid, sig)
            end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
            assert end.exited and end.rc == 1, (end.exited, end.rc, end.screen)
    # Exactly one file, the hangup save, beside the record of games; nothing else written or changed.
    found = [name for name in os.listdir(state / "mille") if name != ledger.FILE_NAME]
    assert len(found) == 1 and HANGUP_NAME.match(found[0]), found
    # The record has the game as saved, not abandoned: it counts when it is resumed and finished.
    events = ledger.read_events(str(state / "mille" / ledger.FILE_NAME))
    assert events[-1]["t"] == "save" and not [e for e in events if e.get("result") == "abandoned"], events
    after_files = {p.name: p.read_bytes() for p in work.iterdir()}
    assert after_files == before_files
    if start_file is not None:
        assert save.to_dict(save.read_game(start_file).game) == save.to_dict(case.start)
    return snap, str(state / "mille" / found[0]), env


@pytest.mark.parametrize("sig", SIGNALS)
@pytest.mark.parametrize("name", PROMPTS)
def test_hangup_at_prompt_saves_the_game_and_restores_it(tmp_path, name, sig):
    case = _case(name)
    shown, path, env = hang_up(tmp_path, case, sig)
    loaded = save.read_game(path)
    saved = loaded.game
    assert loaded.window == ScoreView.SMALL and loaded.computer == "bsd"

    # The save is the game at the prompt, field for field ...
    assert save.to_dict(saved) == save.to_dict(case.expected)
    # ... which is what the board showed.
    assert_position_shown(shown.screen, saved if case.shown is None else case.shown)
    if name == "extension":
        slot = saved.pending_extension
        assert slot is not None and not saved.finished
        assert saved.players[YOU].mileage == 700 and saved.trip_length == 700
        assert cards.is_distance(saved.players[YOU].hand[slot])  # the card is still in the hand
    elif case.end_of_hand:
        assert saved.finished and saved.pending_extension is None
    else:
        assert not saved.finished and saved.pending_extension is None and saved.to_move == YOU

    # The restore: the same board and the right next prompt.
    with mille(path, "--seed", str(SEED), env=env, cwd=str(tmp_path)) as s:
        restored = s.start()
        assert not restored.exited, "\n".join(restored.screen)
        assert restored.screen[15][45:].rstrip() == s_banner(path)
        if name == "extension":
            at_prompt(restored, "Extension? ")
            assert [r[:20] for r in restored.screen[6:13]] == [r[:20] for r in shown.screen[6:13]]  # the hand
            # The board seen at the question before the hangup (the original's, §13): the card
            # still in the hand, the mileage before it; the game holds it counted (700).
            assert board_rows(restored.screen) == board_rows(shown.screen)
            assert_position_shown(restored.screen, as_seen(saved))
            answered = s.step("n")  # and the question is answered as it would have been
            at_prompt(answered, "Another hand? ")
            assert_position_shown(answered.screen, after(saved, NO_EXTENSION))
            quit_keys = ["n", "n"]  # Another hand? no, Save game? no
        elif case.end_of_hand:
            at_prompt(restored, ">>:Move: ")
            dealt = next_deal(saved, SEED)
            assert all(p.mileage == 0 for p in dealt.players) and dealt.deck_count == 89
            assert_position_shown(restored.screen, dealt)
            quit_keys = ["q", "y"]
        else:
            at_prompt(restored, ">>:Move: ")
            assert board_rows(restored.screen) == board_rows(shown.screen)
            assert_position_shown(restored.screen, saved)
            quit_keys = ["q", "y"]
        for keys in quit_keys:  # leave cleanly: closing the session would hang it up
            s.step(keys)
        end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
        assert end.exited and end.rc == 0, end.screen
    kept = [name for name in os.listdir(os.path.dirname(path)) if name != ledger.FILE_NAME]
    assert kept == [os.path.basename(path)]  # the restore saved nothing


def s_banner(path: str) -> str:
    from mille.ui.board import fit_message

    return fit_message(f"{path} [{save.mtime_text(path)}]")


def test_hangup_at_really_after_an_interrupt_at_extension(tmp_path):
    """^C opens ``Really?`` too (at a yes/no question); a hangup there keeps the open question."""
    start, move = extension_game()
    case = Case(start, [move_keys(move).decode(), "\x03"], "Really? ", after(start, move))
    _, path, env = hang_up(tmp_path, case, signal.SIGHUP)
    saved = save.read_game(path).game
    assert save.to_dict(saved) == save.to_dict(case.expected)
    assert saved.pending_extension is not None
    with mille(path, "--seed", str(SEED), env=env, cwd=str(tmp_path)) as s:
        at_prompt(s.start(), "Extension? ")
        for keys in "nnn":  # Extension? no, Another hand? no, Save game? no
            s.step(keys)
        end = s.wait_exit(EXIT_AFTER_SIGNAL_S)
        assert end.exited and end.rc == 0


def test_hangup_mid_hand_past_5000_restores_the_same_totals(tmp_path):
    """Totals may pass 5000 during a hand; a game saved then must go on with them.

    The game starts from such a save (4900 from earlier hands, 200 this
    hand), so its restore is the one under test: the board at the prompt,
    the hangup file made there, and that file's own restore.
    """
    start = mid_hand_game()
    human = start.players[YOU]
    assert human.hand_total >= 100
    human.total = 4900 + human.hand_total  # 4900 from earlier hands: past 5000 during this one
    assert rules.game_over(start)
    case = Case(start, ["p"], ">>:Move: ", after(start, DRAW))
    shown, path, env = hang_up(tmp_path, case, signal.SIGHUP)
    saved = save.read_game(path).game  # fails today: the restore zeroed the totals mid-hand
    assert save.to_dict(saved) == save.to_dict(case.expected)
    assert_position_shown(shown.screen, saved)
    with mille(path, "--seed", str(SEED), env=env, cwd=str(tmp_path)) as s:
        restored = s.start()
        at_prompt(restored, ">>:Move: ")
        assert_position_shown(restored.screen, saved)
