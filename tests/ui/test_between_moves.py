"""The front end between moves (GameFlow.between_moves), on the in-memory terminal.

Signals are turned into terminal events that a key read hands over; a game
that moves without reading keys must still act on them, so between moves
the app asks the terminal (``poll()``) and acts: a hangup keeps the game and
leaves with status 1, an interrupt opens ``Really?`` (as the original's
handler did at once, §9.5), a request to leave from the too-small message
keeps the game and leaves with status 0.  The app also notes the game
between moves and at every key read, for a crash save: the game as it was
before the move that failed.

The computer here is a player stuck on a refused move (a discard before
drawing), the original's theoretical loop (§12.12): the game is busy and
reads no key, whatever the engine does about empty hands.  The events are
put in :attr:`VirtualTerminal.pending`, as a signal would arrive, from
inside the stuck player after a number of its moves.
"""

from __future__ import annotations

import pytest

from helpers.ui import make_app
from mille.engine import rules
from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.engine.rules import DRAW, Move, MoveType, Phase
from mille.engine.state import Game
from mille.files import save
from mille.ui.flow import GameFlow
from mille.ui.keeping import Keeper
from mille.ui.layout import COMPUTER
from mille.ui.surface import HANGUP, INTERRUPT, LEAVE, VirtualTerminal

STUCK = Move(MoveType.DISCARD, 0)  # refused before drawing: the computer keeps the turn


class Stuck:
    """A computer that repeats a refused move; on its ``at``-th move an event arrives."""

    def __init__(self, vt: VirtualTerminal, event: int | None, at: int = 50) -> None:
        self.vt = vt
        self.event = event
        self.at = at
        self.calls = 0

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        self.calls += 1
        if self.calls == self.at and self.event is not None:
            self.vt.pending.append(self.event)
        if self.calls > 300:
            raise AssertionError("the event was not acted on")
        return STUCK


def started(seed: int = 11) -> Game:
    game = rules.new_game(seed)
    rules.start_hand(game)
    return game


def run(keys: bytes, event: int | None, **kw: object) -> tuple[int, GameFlow, list[Game], Stuck]:
    vt = VirtualTerminal(list(keys))
    saved: list[Game] = []
    stuck = Stuck(vt, event)
    app = make_app(
        vt,
        started(),
        keeper=Keeper(store=lambda what: saved.append(what.game)),
        computer=stuck,
        computer_name="bsd",
        **kw,  # type: ignore[arg-type]
    )
    return app.run(restore=True), app, saved, stuck


def after_your_move() -> Game:
    game = started()
    rules.push(game, DRAW)
    rules.push(game, Move(MoveType.DISCARD, 1))
    assert game.to_move == COMPUTER
    return game


def test_a_hangup_while_the_computer_is_busy_keeps_the_game_and_exits_1():
    status, app, saved, stuck = run(b"pd1\r", HANGUP)
    assert status == 1
    assert stuck.calls == stuck.at  # acted on before the next move
    [game] = saved
    assert game is not app.game

    assert save.to_dict(game) == save.to_dict(after_your_move())


def test_an_interrupt_while_busy_opens_really_and_y_quits():
    vt_keys = b"pd1\ry"
    status, app, saved, stuck = run(vt_keys, INTERRUPT)
    assert status == 0 and saved == []
    assert stuck.calls == stuck.at
    assert app.face.term.board.chars[10][20:28] == list("Really? ")  # type: ignore[attr-defined]


def test_an_interrupt_answered_no_goes_back_to_the_game():
    vt = VirtualTerminal(list(b"pd1\rn"))
    saved: list[Game] = []

    class Then(Stuck):
        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            if self.calls == self.at:  # after Really? n, stop it with a hangup
                self.vt.pending.append(HANGUP)
            return super().choose(observation, rng)

    stuck = Then(vt, INTERRUPT, at=20)
    app = make_app(vt, started(), keeper=Keeper(store=lambda what: saved.append(what.game)), computer=stuck)
    assert app.run(restore=True) == 1
    assert len(saved) == 1 and stuck.calls == 21


def test_a_request_to_leave_keeps_the_game_and_exits_0():
    status, _app, saved, _stuck = run(b"pd1\r", LEAVE)
    assert status == 0
    assert len(saved) == 1


def test_no_event_no_effect():
    """The poll costs nothing when nothing happened: the stuck computer is asked until the guard."""
    with pytest.raises(AssertionError, match="not acted on"):
        run(b"pd1\r", None)


class Boom(Exception):
    pass


def test_a_failing_move_leaves_the_game_as_it_was_before_it():
    class Failing:
        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            raise Boom

    vt = VirtualTerminal(list(b"pd1\r"))
    app = make_app(vt, started(), computer=Failing())
    with pytest.raises(Boom):
        app.run(restore=True)

    assert app.last_good is not None and app.last_good is not app.game
    assert save.to_dict(app.last_good) == save.to_dict(after_your_move())


def test_the_snapshot_is_taken_at_key_reads_too():
    """At the end-of-hand questions (no move since the last), the game noted is the finished hand."""
    from helpers.saves import extension_position, move_keys

    game, move = extension_position()
    vt = VirtualTerminal(list(move_keys(move) + b"n"))  # Extension? no: the hand ends, Another hand? waits
    app = make_app(vt, game)
    assert app.run(restore=True) == 1  # end of input at Another hand?
    assert app.last_good is not None and app.last_good.finished
    assert save.to_dict(app.last_good) == save.to_dict(app.game)


def test_the_computers_open_question_is_never_noted():
    """A save never holds the computer's Extension? (mille.save refuses it): the earlier note stays."""
    from helpers.saves import computer_at_extension

    game = computer_at_extension()
    assert rules.phase(game) is Phase.EXTENSION and game.to_move == COMPUTER
    app = make_app(VirtualTerminal(), game)
    earlier = started()
    app.keeper.last_good = earlier
    app.keep_snapshot()
    assert app.last_good is earlier
