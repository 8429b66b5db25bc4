"""The hint key (``--hints``): the expert's move from the person's seat, and nothing else.

The expert here has a small budget and a long deadline, so that its answer
is a function of the observation and its dice alone (at its default level
the safety nets, the thread's CPU time and as a last resort the wall
clock, could still cut a search short on a very busy machine and change
the answer between two asks).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from helpers.saves import EXTENSION, MOVE, extension_position, move_keys, simulate
from helpers.ui import make_app
from mille.engine.observation import Observation, observe, sample_world
from mille.engine.rng import GlibcRandom
from mille.engine.rules import DRAW, Move, MoveType, Phase
from mille.engine.state import Game
from mille.files import ledger
from mille.files.recorder import Recorder
from mille.players.bsd import BsdPlayer
from mille.players.expert import ExpertPlayer, Level
from mille.ui import hints
from mille.ui.flow import EXTENSION_PROMPT
from mille.ui.layout import COMPUTER, YOU
from mille.ui.surface import VirtualTerminal

SETTINGS = Level(3000, deadline=60.0)


def small_expert() -> ExpertPlayer:
    return ExpertPlayer(settings=SETTINGS)


def positions(seeds: range) -> list[Game]:
    """Positions where the person is asked to move or to answer ``Extension?``, from simulated hands."""
    found = []
    for seed in seeds:
        points = simulate(seed, hands=1)
        found += [p.game for p in points if p.kind == MOVE][::9]
        found += [p.game for p in points if p.kind == EXTENSION]
    return found


def message_line(vt: VirtualTerminal) -> str:
    return vt.lines()[15][45:].rstrip()


def test_the_hint_is_legal_and_is_the_experts_move_from_that_seat() -> None:
    games = positions(range(1, 5))
    assert any(g.pending_extension is not None for g in games)
    kinds = set()
    for game in games:
        obs = observe(game, YOU)
        hint = hints.hint_move(obs, small_expert())
        assert hint in obs.legal_moves()
        assert hint == small_expert().think(obs, hints.hint_dice(obs))
        kinds.add(hint.kind)
    assert {MoveType.DRAW, MoveType.PLAY, MoveType.DISCARD} <= kinds


def test_the_hint_never_uses_the_hidden_cards() -> None:
    """The same observation, the hidden cards dealt otherwise: the same hint."""
    for game in positions(range(5, 8))[::2]:
        obs = observe(game, YOU)
        hint = hints.hint_move(obs, small_expert())
        for k in range(3):
            world = sample_world(obs, GlibcRandom(1000 + k))
            assert world.players[COMPUTER].hand != game.players[COMPUTER].hand or world.deck != game.deck
            assert observe(world, YOU) == obs
            assert hints.hint_move(observe(world, YOU), small_expert()) == hint


def test_the_hint_on_the_screen_is_the_same_whatever_the_hidden_cards(tmp_path: Any) -> None:
    """Through the front end: two games that look the same from the person's seat show the same hint."""
    game = next(g for g in positions(range(9, 10)) if g.players[YOU].hand[0] != -1)
    obs = observe(game, YOU)
    shown = []
    for world in (game, sample_world(obs, GlibcRandom(77)), sample_world(obs, GlibcRandom(78))):
        vt = VirtualTerminal(list(b"h"))
        app = make_app(vt, world.copy(), hints=hints.Adviser(small_expert))
        app.run(restore=True)
        shown.append(message_line(vt))
    expected = hints.describe(small_expert().think(obs, hints.hint_dice(obs)), obs)
    assert shown == [expected] * 3
    assert expected.startswith(("hint: use ", "hint: discard ")), expected


@pytest.mark.parametrize("computer", ["bsd", "expert"])
def test_asking_changes_nothing_in_the_game(computer: str) -> None:
    """Hints before every move: the same game, deals and computer's dice as without them."""
    steps = []
    for point in simulate(3, hands=1, mix=1.0)[:40]:
        if point.kind == MOVE:
            move = observe(point.game, YOU).legal_moves()
            steps.append(move_keys(DRAW if DRAW in move else move[0]))
    keys = b"".join(steps[:25])
    with_hints = b"".join(b"h" + step for step in steps[:25])
    ends = []
    for typed, adviser in ((keys, None), (with_hints, hints.Adviser(small_expert))):
        game = Game(rng=GlibcRandom(3))
        vt = VirtualTerminal(list(typed))
        if computer == "expert":
            player, dice = ExpertPlayer(settings=Level(500, deadline=60.0)), GlibcRandom(33)
        else:
            player, dice = BsdPlayer(), game.rng  # the original's: the game's own generator
        app = make_app(vt, game, hints=adviser, computer=player, computer_name=computer, computer_dice=dice)
        app.run()
        assert adviser is None or adviser.given == 25
        ends.append((game, game.rng.getstate(), dice.getstate(), vt.lines()[:15]))
    assert ends[0][0] == ends[1][0]  # the game, hands and deck order and all
    assert ends[0][1:] == ends[1][1:]  # the dealer's and the computer's generators, the board


def test_without_hints_the_keys_are_the_originals() -> None:
    vt = VirtualTerminal(list(b"ho?o"))
    make_app(vt, Game(rng=GlibcRandom(5))).run()
    assert message_line(vt) == "unknown command: ?"
    vt = VirtualTerminal(list(b"ho"))
    make_app(vt, Game(rng=GlibcRandom(5))).run()
    assert message_line(vt) == "unknown command: H" and vt.bells == 1


def test_with_hints_h_and_question_mark_answer_at_once_without_a_bell() -> None:
    for key in (b"h", b"H", b"?"):
        vt = VirtualTerminal(list(key))
        app = make_app(vt, Game(rng=GlibcRandom(5)), hints=hints.Adviser(small_expert))
        app.run()
        assert message_line(vt) == "hint: pick" and vt.bells == 0
        assert vt.lines()[10][20:40].rstrip() == ">>:Move:"  # the prompt as it was


def test_a_hint_at_extension() -> None:
    game, move = extension_position()
    vt = VirtualTerminal(list(move_keys(move) + b"h"))
    app = make_app(vt, game.copy(), hints=hints.Adviser(small_expert))
    app.run(restore=True)
    assert app.face.dialogs.last_prompt == EXTENSION_PROMPT and vt.bells == 0
    obs = observe(app.game, YOU)
    assert obs.phase is Phase.EXTENSION
    want = small_expert().think(obs, hints.hint_dice(obs))
    assert message_line(vt) == hints.describe(want, obs)
    assert message_line(vt) in ("hint: y (extend)", "hint: n (do not extend)")
    # Without hints, h at Extension? is what it always was: a bell, and the question again.
    vt = VirtualTerminal(list(move_keys(move) + b"h"))
    app = make_app(vt, game.copy())
    app.run(restore=True)
    assert app.face.dialogs.last_prompt == EXTENSION_PROMPT and vt.bells == 1 and message_line(vt) == ""


def test_describe() -> None:
    obs = observe(positions(range(1, 2))[0], YOU)
    hand = obs.hand
    slot = next(i for i in range(1, 7) if hand[i] >= 0)
    assert hints.describe(DRAW, obs) == "hint: pick"
    from mille.engine.cards import name

    assert hints.describe(Move(MoveType.PLAY, slot), obs) == f"hint: use {slot} ({name(hand[slot])})"
    assert hints.describe(Move(MoveType.DISCARD, 0), obs).startswith("hint: discard P (")


class SlowPlayer:
    """Takes its time, and looks at the screen while it thinks."""

    def __init__(self, vt: VirtualTerminal, seconds: float) -> None:
        self.vt = vt
        self.seconds = seconds
        self.seen = ""

    def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
        time.sleep(self.seconds)
        self.seen = message_line(self.vt)
        return obs.legal_moves()[0]


def test_thinking_is_shown_while_a_slow_hint_is_worked_out() -> None:
    vt = VirtualTerminal(list(b"h"))
    slow = SlowPlayer(vt, 1.0)
    app = make_app(vt, Game(rng=GlibcRandom(5)), hints=hints.Adviser(lambda: slow))
    app.run()
    assert slow.seen == "thinking..."
    assert message_line(vt) == "hint: pick"
    assert not [t for t in threading.enumerate() if t.name == "mille-hint"]  # the thinking thread is gone


def test_a_quick_hint_says_nothing_about_thinking() -> None:
    called = []
    obs = observe(positions(range(1, 2))[0], YOU)
    adviser = hints.Adviser(lambda: SlowPlayer(VirtualTerminal(), 0.0), blink=5.0)
    assert adviser.advise(obs, lambda: called.append(1)).startswith("hint: ")
    assert called == []


def test_a_broken_player_is_a_message_not_a_crash() -> None:
    class Broken:
        def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
            raise ValueError("oops")

    obs = observe(positions(range(1, 2))[0], YOU)
    assert hints.Adviser(Broken).advise(obs, lambda: None) == "hint: none (ValueError)"


def test_the_default_expert_answers() -> None:
    # How long it may think is its settings' business (the next test); the
    # time it takes on this machine is a benchmark's, not a test's.
    adviser = hints.Adviser()
    for game in positions(range(11, 13))[:6]:
        obs = observe(game, YOU)
        text = adviser.advise(obs, lambda: None)
        assert text.startswith("hint: ") and "none" not in text


def test_the_hint_expert_is_held_to_about_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    from mille.players import expert as expert_module

    slow_default = Level(30000, deadline=5.0)
    monkeypatch.setitem(expert_module.LEVELS, expert_module.DEFAULT_LEVEL, slow_default)
    player = hints.expert()
    assert isinstance(player, ExpertPlayer)
    assert player.settings.deadline == hints.MAX_THINK and player.settings.budget == 30000
    assert slow_default.deadline == 5.0  # the shared level itself is untouched
    monkeypatch.undo()
    assert hints.expert().settings.deadline == expert_module.LEVELS[expert_module.DEFAULT_LEVEL].deadline  # type: ignore[attr-defined]


def test_hints_used_are_in_the_record(tmp_path: Any) -> None:
    path = str(tmp_path / "stats.jsonl")
    vt = VirtualTerminal(list(b"hp?hqy"))
    app = make_app(vt, Game(rng=GlibcRandom(5)), hints=hints.Adviser(small_expert), stats=lambda: Recorder(path))
    assert app.run() == 0
    [event] = ledger.read_events(path)
    assert event["result"] == "abandoned" and event["hints"] == 3
