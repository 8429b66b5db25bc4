"""The hand driver: the one loop that plays a hand, at any table (two seats, 3, 4 or 6).

Given a game with a hand dealt and a player per seat, :func:`play_hand`
asks :func:`mille.engine.rules.phase` what comes next, shows the seat to move its
:func:`~mille.engine.observation.observe` view, pushes the move it answers, and
stops when the hand is over, returning how it ended as a value
(:class:`~mille.engine.scoring.HandResult`).  Everything that plays hands plays
them here: the simulator (:mod:`mille.lab.sim`), the match tool's
sets (:mod:`mille.lab.play`), the interactive game (:mod:`mille.ui.app`, whose
person's seat reads keys and whose observer draws the screen), and a
searching player's reference rollout.

Two ways of refereeing:

* ``strict`` (the tools): a player must answer one of
  ``observation.legal_moves()``.  Anything else (a refused move, the
  Order toggle, a pass, something that is not a :class:`~mille.engine.rules.Move`)
  and any exception raised while choosing become a :class:`PlayerError`
  naming the seat; a hand that runs past :data:`MAX_MOVES_PER_HAND` moves
  (an engine bug) is an :class:`EndlessHand`.
* not strict (the interactive game): a refused move is made as the
  original made it, an error message and the same player to move (§4), the
  Order toggle is a move, and exceptions (the person quitting) pass through.

An observer sees every move, before it is chosen and after it is made;
it may look at the game but must not change it.

The driver knows the player protocol and nothing else of the players
(:class:`Player`, which :mod:`mille.players` re-exports).  Besides
``choose``, a player may define ``inform(event)``: it is then told every
move made at the table as both seats see it (an :class:`Event`: who, what
kind, the card played or discarded; never a card drawn or the other seat's
slot), its own moves included, as OpenSpiel tells each player every public
action; and ``hand_over(result)``: told the :class:`~mille.engine.scoring.HandResult`
when the hand ends; and ``forced_draw()``: then a draw that is its only
legal move is made for it without observing or asking it, and this is
called instead (a bot in another process, which learns the move as an
event; issue 39).  A bot in another process learns the table this way
(:mod:`mille.players`).  Playing two BSD procedures against each other
faster than through observations is the BSD player's business
(:func:`mille.players.bsd.play_hand`), not the driver's.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from . import cards, rules
from .observation import observe
from .record import FrozenRecord, set_field
from .rng import GlibcRandom
from .rules import Move, MoveType, Outcome, Phase
from .scoring import HandResult, hand_result
from .state import Game, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator
    from typing import Any, Protocol

    from .observation import Observation

    class Player(Protocol):
        """The player protocol: shown one seat's observation, it answers a move."""

        def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
            """A legal move for ``observation.seat`` (one of ``observation.legal_moves()``)."""
            ...

    class Observer(Protocol):
        """Watches a hand being played (the screen, a recorder, a checker)."""

        def before_move(self, game: Game) -> None:
            """A decision (or a pass) is about to be made in ``game``."""

        def after_move(self, game: Game, seat: Seat, move: Move, outcome: Outcome) -> None:
            """``seat``'s ``move`` was pushed and had ``outcome``.

            An observer may also define ``inform(event)``: it is then told
            every move as the table sees it (as a player's ``inform``, before
            any seat's, and never a coup fourré let pass out of turn, which
            only its seat hears): what a watcher is shown (docs/people.md).
            """

else:
    Player = object  # the protocol is structural; only the type checker needs it


#: No real hand comes near this (the longest in 5000 simulated hands had 190
#: moves): every move but a draw or a safety passes the turn or removes a card.
MAX_MOVES_PER_HAND = 1000

_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD
_ORDER = MoveType.ORDER
_PASS = MoveType.PASS
_REACTION = Phase.REACTION
_HAZARDS = cards.HAZARDS | {cards.SPEED_LIMIT}
_EMPTY = cards.EMPTY
_SAFETY_BASE = cards.SAFETY_BASE
_HAND_SIZE = cards.HAND_SIZE


class PlayerError(Exception):
    """A player broke the protocol (strict refereeing).

    ``kind`` is ``"illegal"`` (an answer that is not a legal move),
    ``"exception"`` (choosing raised) or ``"timeout"`` (raised by a caller
    that times players, such as the match tool).
    """

    def __init__(self, seat: Seat, kind: str, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.kind = kind
        self.message = message


class EndlessHand(RuntimeError):
    """A hand ran past :data:`MAX_MOVES_PER_HAND` moves: an engine bug, not a player's fault."""


class HandPlay(FrozenRecord):
    """A hand played: its result, and how many moves it took.

    ``moves`` counts draws, plays, discards and passes of an empty hand (an
    answer to ``Extension?`` completes the play it belongs to); ``answers``
    the answers to ``Extension?``.
    """

    __slots__ = ("result", "moves", "answers")
    result: HandResult
    moves: int
    answers: int

    def __init__(self, result: HandResult, moves: int, answers: int) -> None:
        # Field by field: every rollout of the expert makes one.
        set_field(self, "result", result)
        set_field(self, "moves", moves)
        set_field(self, "answers", answers)


class Event(FrozenRecord):
    """A move made at the table, as both seats see it: who made it, what kind, and the card shown.

    ``card`` is the card played or discarded (a code of :mod:`mille.engine.cards`);
    :data:`~mille.engine.cards.EMPTY` for a draw (the card drawn is seen by its
    seat alone, in its hand), an answer to ``Extension?`` and a pass.  The
    slot a card came from is the mover's business and is not shown.
    Refused moves and the Order toggle are not moves at the table, so no
    event tells of them.  ``target``: the side a hazard played went to (at
    two sides the one other side; at three the side the mover chose, R7),
    None for every other move: the table sees where a hazard lands.
    """

    __slots__ = ("seat", "kind", "card", "target")
    seat: Seat
    kind: MoveType
    card: int
    target: int | None

    def __init__(self, seat: Seat, kind: MoveType, card: int = _EMPTY, target: int | None = None) -> None:
        set_field(self, "seat", seat)
        set_field(self, "kind", kind)
        set_field(self, "card", card)
        set_field(self, "target", target)

    def __str__(self) -> str:
        shown = f" {cards.name(self.card)}" if self.card != _EMPTY else ""
        return f"seat {self.seat}: {self.kind.name.lower()}{shown}"


class Pending:
    """An answer still to come: what a player's ``choose`` returns when it asked elsewhere and did not wait.

    :func:`hand_steps` yields it to whoever drives the hand, which sends
    the move back when it has it (or throws the :class:`PlayerError` that
    stands for the failure): so one process can play several hands at once
    with players in other processes (a match's games in flight,
    :func:`mille.lab.play.play_in_flight`).  A player in this process
    never returns one, and :func:`play_hand` refuses it.
    """

    __slots__ = ()


def play_hand(
    game: Game,
    players: Sequence[Player],
    dice: Sequence[GlibcRandom],
    *,
    observer: Observer | None = None,
    strict: bool = True,
) -> HandPlay:
    """Play the hand dealt in ``game`` to its end; ``players[seat]`` rolls ``dice[seat]``."""
    steps = hand_steps(game, players, dice, observer=observer, strict=strict)
    try:
        pending = next(steps)
    except StopIteration as done:
        played: HandPlay = done.value
        return played
    steps.close()
    raise TypeError(f"a player answered {pending!r}: an answer to come is for a driver of hands in flight")


def hand_steps(
    game: Game,
    players: Sequence[Player],
    dice: Sequence[GlibcRandom],
    *,
    observer: Observer | None = None,
    strict: bool = True,
) -> Generator[Pending, Move, HandPlay]:
    """:func:`play_hand` as a generator: it yields a player's :class:`Pending` answer and is sent the move.

    The one loop of a hand: :func:`play_hand` runs it to its end (players in
    this process never yield); a driver of several games at once advances
    each until it waits for an answer from elsewhere.
    """
    informed = _hooks(players, "inform")
    public = getattr(observer, "inform", None)
    if public is not None:
        informed.insert(0, (-1, public))  # the table's: told first, and never a seat's own secret (no seat is -1)
    forced: dict[Seat, Any] | None = dict(_hooks(players, "forced_draw")) or None
    # A player that encodes what its seat may see straight from the game (a bot in flight that
    # finds its legal moves itself: mille.players.external) is asked without an observation.
    unobserved: dict[Seat, Any] | None = dict(_hooks(players, "choose_unobserved")) or None
    moves = answers = 0
    push = rules.push
    while True:
        phase = rules.phase(game)
        if phase is Phase.HAND_OVER:
            result = hand_result(game)
            _tell(_hooks(players, "hand_over"), result, strict)
            return HandPlay(result, moves, answers)
        if observer is not None:
            observer.before_move(game)
        seat = game.to_move
        shown = _EMPTY
        if phase is Phase.EMPTY_HAND:
            move: Move = rules.PASS
            outcome = push(game, move)
        elif forced is not None and seat in forced and phase is Phase.MOVE and _draws_by_force(game, seat):
            forced[seat]()  # the draw made for the player, unobserved (a bot told of it as an event)
            choice = rules.DRAW
            outcome = _referee(game, seat, choice) if strict else push(game, choice)
            move = choice
        else:
            if unobserved is not None and seat in unobserved:
                choice = _ask_unobserved(unobserved[seat], game, seat, dice[seat], strict)
            else:
                choice = _ask(players[seat], game, seat, dice[seat], strict, phase)
            if choice.__class__ is not Move and isinstance(choice, Pending):
                choice = yield choice
            if informed:
                shown = _card_shown(game, seat, choice)
            outcome = _referee(game, seat, choice) if strict else push(game, choice)
            move = choice
        if phase is Phase.EXTENSION:
            answers += 1
        else:
            moves += 1
            if strict and moves > MAX_MOVES_PER_HAND:
                raise EndlessHand(f"no end after {MAX_MOVES_PER_HAND} moves ({_context(game)})")
        if informed and outcome.refusal is None and move.kind is not _ORDER:
            if phase is _REACTION:
                # A coup fourré declined out of turn is the seat's own secret: being asked
                # told that it holds the safety (table-rules.md R6, R10); the others hear nothing.
                if move.kind is _PASS:
                    _tell([hook for hook in informed if hook[0] == seat], Event(seat, _PASS, shown), strict)
                else:
                    _tell(informed, Event(seat, move.kind, shown), strict)
            elif move.kind is _PLAY and shown in _HAZARDS:
                sides = game.table.sides
                target = move.target if move.target is not None else (seat + 1) % sides
                _tell(informed, Event(seat, _PLAY, shown, target), strict)
            else:
                _tell(informed, Event(seat, move.kind, shown), strict)
        if observer is not None:
            observer.after_move(game, seat, move, outcome)


def _draws_by_force(game: Game, seat: Seat) -> bool:
    """Whether ``seat``, to move, has the draw as its only legal move, known without listing the legal moves.

    Before drawing (the ``P`` slot empty, cards in the deck) only the draw
    and a safety are accepted (:func:`~mille.engine.rules.play_refusal`,
    ``discard_refusal``: ``MUST_PICK``); a hand without a safety has the
    draw alone.  ``tests/players/test_protocol_speed.py`` checks it against
    ``legal_moves``.
    """
    hand = game.players[seat].hand
    return hand[0] == _EMPTY and game.deck_count > 0 and max(hand) < _SAFETY_BASE


def _hooks(players: Sequence[Player], name: str) -> list[tuple[Seat, Callable[[Any], object]]]:
    """The seats whose players define the optional method ``name``, with it."""
    found = []
    for seat, player in enumerate(players):
        hook = getattr(player, name, None)
        if hook is not None:
            found.append((seat, hook))
    return found


def _tell(hooks: list[tuple[Seat, Callable[[Any], object]]], what: object, strict: bool) -> None:
    """Tell each player ``what``; under strict refereeing one that raises is a :class:`PlayerError`."""
    for seat, hook in hooks:
        if not strict:
            hook(what)
            continue
        try:
            hook(what)
        except PlayerError:
            raise
        except (Exception, SystemExit) as exc:
            raise PlayerError(seat, "exception", describe_exception(exc)) from exc


def _card_shown(game: Game, seat: Seat, move: object) -> int:
    """The card ``move`` would put on the table or the discard pile (EMPTY for any other move)."""
    if isinstance(move, Move) and (move.kind is _PLAY or move.kind is _DISCARD):
        slot = move.slot
        if type(slot) is int and 0 <= slot < _HAND_SIZE:
            return game.players[seat].hand[slot]
    return _EMPTY


def _ask(player: Player, game: Game, seat: Seat, dice: GlibcRandom, strict: bool, now: Phase) -> Move:
    """The player's answer, shown only what its seat may see (``now``: the game's phase, just asked)."""
    if not strict:
        return player.choose(observe(game, seat, now), dice)
    try:
        return player.choose(observe(game, seat, now), dice)
    except PlayerError:
        raise
    except (Exception, SystemExit) as exc:
        raise PlayerError(seat, "exception", describe_exception(exc)) from exc


def _ask_unobserved(
    hook: Callable[[Game, Seat, GlibcRandom], Move], game: Game, seat: Seat, dice: GlibcRandom, strict: bool
) -> Move:
    """As :func:`_ask`, the player's ``choose_unobserved`` hook (it shows the bot what ``observe`` would)."""
    if not strict:
        return hook(game, seat, dice)
    try:
        return hook(game, seat, dice)
    except PlayerError:
        raise
    except (Exception, SystemExit) as exc:
        raise PlayerError(seat, "exception", describe_exception(exc)) from exc


def _referee(game: Game, seat: Seat, move: object) -> Outcome:
    """Make ``move`` for ``seat`` if it is one of the legal moves, else raise :class:`PlayerError`.

    A move is legal exactly when it is one of ``rules.legal_moves(game)``;
    the checks below say the same without listing them on every move.
    """
    if not isinstance(move, Move):
        raise PlayerError(seat, "illegal", f"answered {move!r}, not a Move {_context(game)}")
    kind = move.kind
    slot = move.slot
    card = _EMPTY
    if kind is _PLAY or kind is _DISCARD:
        if type(slot) is not int or not 0 <= slot < _HAND_SIZE or game.players[seat].hand[slot] == _EMPTY:
            raise PlayerError(seat, "illegal", f"chose {move!r} (no card there) {_context(game)}")
        card = game.players[seat].hand[slot]
    elif kind is _ORDER or (kind is _PASS and rules.phase(game) is not Phase.REACTION):
        raise PlayerError(seat, "illegal", f"chose {move}, which is never a player's decision {_context(game)}")
    try:
        outcome = rules.push(game, move)
    except rules.IllegalPhase as exc:  # raised before the game is touched
        raise PlayerError(seat, "illegal", f"chose {move}: {exc} {_context(game)}") from None
    except Exception as exc:  # a malformed move the rules could not even look at
        message = f"chose {move!r}, which the rules cannot apply ({type(exc).__name__}: {exc})"
        raise PlayerError(seat, "illegal", message) from None
    if outcome.refusal is not None:
        what = f"{move} ({cards.name(card)})" if card != _EMPTY else str(move)
        raise PlayerError(seat, "illegal", f"chose {what}, refused: {outcome.error}")
    return outcome


def _context(game: Game) -> str:
    legal = " ".join(str(m) for m in rules.legal_moves(game))
    return f"(phase {rules.phase(game).name}; legal: {legal})"


def describe_exception(exc: BaseException) -> str:
    """One line for an exception a player raised: its type, text and where."""
    import traceback  # only when a player fails (the interactive game's start-up does without it)

    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        where = f" (at {os.path.basename(last.filename)}:{last.lineno})"
    text = str(exc)
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


__all__ = [
    "MAX_MOVES_PER_HAND",
    "EndlessHand",
    "Event",
    "HandPlay",
    "Player",
    "Pending",
    "PlayerError",
    "describe_exception",
    "hand_steps",
    "play_hand",
]
