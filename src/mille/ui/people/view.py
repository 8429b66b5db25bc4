"""A seat's view, as a guest draws and speaks it: the public game its observation holds, and a move's refusal.

A guest's process holds no game: what it draws (the original's board at two
seats, the larger tables' board at more) and what it says in lines come from
its seat's observation alone (:func:`public_view`: its own hand, every
side's tableau, the discard and the counts; every other hand empty, its size
in ``obs.hand_sizes``).  Seats and sides are counted as the host counts them
on every face (the host at seat 1, side A); only the original's two-seat
board puts the person in its left column, and turns the game for it.

A move is refused by one rule at every table (:func:`refusal`): the guest
checks it against its own view and says the engine's words at once; the host
checks it again on the game, and a move it refuses is answered with the same
words (a guest's view and the host's game agree on everything a refusal reads:
the seat's own hand, its side's tableau, the deck's count).
"""

from __future__ import annotations

from ...engine import rules
from ...engine.observation import Observation
from ...engine.rules import Move, MoveType, Phase
from ...engine.state import Game
from ...files.safeio import shown

__all__ = ["NAME_WIDTH", "fitted", "name", "public_view", "refusal"]

#: The longest a person's name is shown (a larger table's side box, the message lines).
NAME_WIDTH = 12


def name(text: str) -> str:
    """A person's name from the other side, as a face shows it: escaped, cut to :data:`NAME_WIDTH`."""
    return shown(text)[:NAME_WIDTH]


def fitted(text: str) -> str:
    """``text`` for the original's message line (35 columns): a reason in parentheses left out when it does not fit
    (the line after the game says it whole)."""
    from ..layout import ERR_WIDTH

    while len(text) > ERR_WIDTH and text.endswith(")") and " (" in text:
        text = text[: text.rindex(" (")]
    return text


def public_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it: every hand but its own empty (their sizes are ``obs.hand_sizes``), no deck.

    ``finished``: the hand is over (the host says so with the view).
    """
    game = obs.public_game()
    game.finished = finished or obs.phase is Phase.HAND_OVER
    return game


def refusal(game: Game, seat: int, move: Move | None, host: str) -> str:
    """Why ``seat`` may not make ``move`` in ``game`` now, in the engine's words (the original's where it has them).

    ``host`` alone keeps an Order (the toggle sorts the host's hand, seat 1).
    ``move`` None: a move that could not be read (refused as not legal).
    """
    if move is None:
        return "That move is not legal now."
    if move.kind is MoveType.ORDER:
        return f"O (Order) sorts {host}'s hand only"
    refused: int | None = None
    if game.to_move == seat and rules.phase(game) is Phase.MOVE:
        if move.kind is MoveType.DRAW:
            refused = rules.draw_refusal(game, seat)
        elif move.kind is MoveType.PLAY and 0 <= move.slot < len(game.players[seat].hand):
            refused = rules.play_refusal(game, seat, move.slot, move.target)
        elif move.kind is MoveType.DISCARD and 0 <= move.slot < len(game.players[seat].hand):
            refused = rules.discard_refusal(game, seat, move.slot)
    if refused is None:
        return "That move is not legal now."
    return rules.refusal_message(refused, game, seat, move.slot)
