"""The game's flow on the board: the computer's seat and the driver's optional hooks.

The hand driver tells a player every public move (``inform(event)``) and
the hand's result (``hand_over(result)``) when the player defines them
(:mod:`mille.engine.driver`).  On the board the driver's seats are the
flow's wrappers, so the computer's seat passes the hooks through to its
player: exactly when the player has them, as the player's own methods.
"""

from __future__ import annotations

from helpers.players import Bot, new_game
from helpers.ui import make_app
from mille.engine import cards
from mille.engine.driver import Event, play_hand
from mille.engine.observation import Observation
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, MoveType
from mille.engine.scoring import HandResult
from mille.engine.state import Game
from mille.players import FirstPlayer
from mille.players.bsd import BsdPlayer
from mille.ui import flow
from mille.ui.app import BoardFace
from mille.ui.flow import GameFlow, Setup
from mille.ui.layout import COMPUTER, YOU


class Listener:
    """The original's computer, told every move and the hand's result."""

    def __init__(self) -> None:
        self.player = BsdPlayer()
        self.events: list[Event] = []
        self.results: list[HandResult] = []

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return self.player.choose(observation, rng)

    def inform(self, event: Event) -> None:
        self.events.append(event)

    def hand_over(self, result: HandResult) -> None:
        self.results.append(result)


class OneHand(Bot):
    """The bot of the player tests, leaving after the first hand (no, no save)."""

    def _next(self) -> list[int]:
        assert self.app is not None
        prompt = self.app.face.dialogs.last_prompt
        keys = super()._next()  # notes the hand's points at the end
        return list(b"n") if prompt in (flow.ANOTHER_HAND_PROMPT, flow.ANOTHER_GAME_PROMPT) else keys


class Dealt(BoardFace):
    """The board, noting the game as each hand begins (to replay it without the board)."""

    dealt: list[Game]

    def begin_hand(self, restored: bool) -> None:
        self.dealt.append(self.game.copy())
        super().begin_hand(restored)


def test_a_computer_with_inform_is_told_every_move_of_a_whole_hand_on_the_board() -> None:
    seed = 21
    bot = OneHand(seed)
    listener = Listener()
    game = new_game(seed)
    face = Dealt(bot, game, 0)
    face.dealt = []
    app = GameFlow(face, game, Setup(listener, "bsd", game.rng))
    bot.app = app
    assert app.run() == 0
    [start] = face.dealt
    assert game.finished and len(bot.hands) == 1

    # Both seats' moves, as events, and the hand's result once.
    assert all(type(event) is Event for event in listener.events)
    seats = {event.seat for event in listener.events}
    assert seats == {YOU, COMPUTER}
    kinds = {event.kind for event in listener.events}
    assert {MoveType.DRAW, MoveType.PLAY} <= kinds and MoveType.ORDER not in kinds
    assert all(event.card == cards.EMPTY for event in listener.events if event.kind is MoveType.DRAW)
    assert all(event.card != cards.EMPTY for event in listener.events if event.kind is MoveType.PLAY)
    [result] = listener.results
    assert result.hand_totals == bot.hands[0]

    # Exactly the moves of the hand: the same hand replayed by the driver
    # alone, the person's procedure and dice in seat 0, tells the same.
    witness = Listener()
    replay = start.copy()
    played = play_hand(replay, (BsdPlayer(), witness), (GlibcRandom(seed), replay.rng), strict=False)
    assert listener.events == witness.events
    assert played.moves + played.answers == len(witness.events)
    assert listener.results == witness.results
    assert replay.players[YOU].hand_total == game.players[YOU].hand_total
    assert replay.players[COMPUTER].hand_total == game.players[COMPUTER].hand_total


def test_the_computer_seat_has_the_hooks_exactly_when_its_player_does() -> None:
    game = new_game(3)
    listener = Listener()
    seat = flow._ComputerSeat(make_app(Bot(3), game, computer=listener), listener)
    assert seat.inform == listener.inform and seat.hand_over == listener.hand_over  # the player's own, no wrapper

    plain = FirstPlayer()
    seat = flow._ComputerSeat(make_app(Bot(3), game, computer=plain), plain)
    assert not hasattr(seat, "inform") and not hasattr(seat, "hand_over")
