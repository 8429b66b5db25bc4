"""Helpers for the engine tests: positions built by hand, and a key driver.

``position()`` builds a :class:`~mille.state.Game` from a few keyword
arguments (anything not given is as right after a deal), so a test states
only what matters to the rule it checks.

:class:`KeyDriver` plays the engine the way the curses front end does
(``MilleApp._main_loop`` / ``domove`` / ``check_more``) but headless: the
human's moves come from the keys the real program was sent, the computer
moves with :func:`mille.computer.decide`.  It understands the keys the
harness policies ``first`` and ``keys`` send (``p``, ``u``/``d`` + slot +
Return/space, ``o``, ``y``/``n`` at prompts, ``q``); screen-only keys (``w``,
``r``, ``^L``) are ignored.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

try:
    import mille  # noqa: F401
except ImportError:  # a checkout that is not installed
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from mille import cards, rules
from mille.cards import BY_NAME, EMPTY
from mille.computer import decide, would_extend
from mille.rng import GlibcRandom
from mille.rules import DRAW, ORDER, Move, MoveType
from mille.state import COMPUTER, HUMAN, Game, SafetyStatus, Tableau

C = cards  # short alias for card codes in tests
P25, P50, P75, P100, P200 = C.MILES_25, C.MILES_50, C.MILES_75, C.MILES_100, C.MILES_200
GAS, SPARE, REP, GO, EOL = C.GASOLINE, C.SPARE_TIRE, C.REPAIRS, C.GO, C.END_OF_LIMIT
OOG, FLAT, ACC, STOP, LIMIT = C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.STOP, C.SPEED_LIMIT
TANK, PROOF, ACE, ROW = C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE, C.RIGHT_OF_WAY


def card(name: str) -> int:
    """Card code from its display name ("" is the empty card)."""
    return EMPTY if name == "" else BY_NAME[name]


def hand_of(*codes: int) -> list[int]:
    """A 7-slot hand; missing slots are empty."""
    hand = list(codes) + [EMPTY] * (cards.HAND_SIZE - len(codes))
    assert len(hand) == cards.HAND_SIZE
    return hand


def tableau(
    hand: Sequence[int] = (),
    *,
    battle: int = EMPTY,
    speed: int = EMPTY,
    can_go: bool = False,
    mileage: int = 0,
    played: Iterable[int] = (),
    in_hand_status: bool = False,
    nummiles: Sequence[int] | None = None,
    new_battle: bool = False,
    new_speed: bool = False,
) -> Tableau:
    """A tableau; ``played`` lists safeties (codes) already played.

    With ``in_hand_status`` the safeties in the hand are marked "in hand",
    as the original does for the computer's own cards.
    """
    pp = Tableau()
    pp.hand = hand_of(*hand) if len(hand) < cards.HAND_SIZE else list(hand)
    pp.battle = battle
    pp.speed = speed
    pp.can_go = can_go
    pp.mileage = mileage
    pp.new_battle = new_battle
    pp.new_speed = new_speed
    for s in played:
        pp.safety[s - cards.SAFETY_BASE] = SafetyStatus.PLAYED
        pp.safety_score += 100
    if in_hand_status:
        for c in pp.hand:
            if c >= cards.SAFETY_BASE and pp.safety[c - cards.SAFETY_BASE] == SafetyStatus.UNKNOWN:
                pp.safety[c - cards.SAFETY_BASE] = SafetyStatus.IN_HAND
    if nummiles is not None:
        pp.nummiles = list(nummiles)
    pp.hand_total = pp.total = pp.mileage + pp.safety_score
    return pp


def position(
    human: Tableau | None = None,
    computer: Tableau | None = None,
    *,
    play: int = HUMAN,
    deck_count: int = 50,
    end: int = 700,
    seed: int = 1,
) -> Game:
    """A game in the middle of a hand (the deck array is the initial order)."""
    game = Game()
    game.rng = GlibcRandom(seed)
    game.players = [human or tableau(), computer or tableau(in_hand_status=True)]
    game.play = play
    game.deck_count = deck_count
    game.end = end
    return game


def play(slot: int) -> Move:
    return Move(MoveType.PLAY, slot)


def discard(slot: int) -> Move:
    return Move(MoveType.DISCARD, slot)


def new_game(seed: int) -> Game:
    """A program run's game before its first hand."""
    game = Game()
    game.rng = GlibcRandom(seed)
    return game


# --------------------------------------------------------------------------
# Driving the engine with the real program's keys


class KeyDriver:
    """The game loop of the front end, headless, fed with keys."""

    MOVE = "move"
    CARD = "card"
    CONFIRM = "confirm"
    EXTENSION = "extension"
    ANOTHER_HAND = "another_hand"
    ANOTHER_GAME = "another_game"
    REALLY = "really"
    DONE = "done"

    def __init__(self, seed: int) -> None:
        self.game = new_game(seed)
        self.state = self.MOVE
        self.pending: tuple[str, int] | None = None
        self.errors: list[str] = []
        self.hands_done = 0
        self.games_done = 0
        #: Hand totals at the end of every hand (before any game accounting).
        self.hand_results: list[tuple[int, int]] = []
        self.emptied = False  # some hand was played out completely (§12.2)
        rules.settle_game(self.game)
        self._new_hand()

    # -- the loop ---------------------------------------------------------

    def _new_hand(self) -> None:
        rules.start_hand(self.game)
        self.state = self.MOVE
        self._advance()

    def _advance(self) -> None:
        """Computer moves (and skips) until the human must type something."""
        game = self.game
        while not game.finished:
            pp = game.players[game.play]
            if all(c == EMPTY for c in pp.hand):
                self.emptied = True
                game.play = 1 - game.play
                continue
            if game.play == HUMAN:
                return
            outcome = rules.push(game, decide(game).move, self._computer_extension)
            if outcome.error is not None:
                raise AssertionError(f"the computer's move was refused: {outcome.error}")
        self._hand_over()

    @staticmethod
    def _computer_extension(game: Game, slot: int) -> bool:
        assert game.play == COMPUTER
        return would_extend(game)

    def _hand_over(self) -> None:
        game = self.game
        self.hands_done += 1
        self.hand_results.append((game.human.hand_total, game.computer.hand_total))
        self.state = self.ANOTHER_GAME if rules.game_over(game) else self.ANOTHER_HAND

    def _human(self, move: Move, extension: bool | None = None) -> None:
        game = self.game
        outcome = rules.push(game, move, lambda g, s: bool(extension))
        if outcome.error is not None:
            self.errors.append(outcome.error)
        self.state = self.MOVE
        self._advance()

    def _lands_on_700(self, slot: int) -> bool:
        game = self.game
        pp = game.human
        c = pp.hand[slot]
        return (
            game.end == 700
            and 0 <= c <= cards.MILES_200
            and rules.play_error(game, HUMAN, slot) is None
            and pp.mileage + cards.MILES[c] == 700
        )

    # -- keys -------------------------------------------------------------

    def send(self, keys: str) -> None:
        for ch in keys:
            self._key(ch)

    def _key(self, ch: str) -> None:
        state = self.state
        up = ch.upper()
        if state == self.DONE:
            return
        if state == self.MOVE:
            if up == "P":
                self._human(DRAW)
            elif up in ("U", "D"):
                self.pending = (up, -1)
                self.state = self.CARD
            elif up == "O":
                self._human(ORDER)
            elif up == "Q":
                self.state = self.REALLY
            return
        if state == self.CARD:
            if ch in "\r\n ":
                return
            assert self.pending is not None
            if up in "0123456P":
                self.pending = (self.pending[0], 0 if up in "0P" else int(up))
                self.state = self.CONFIRM
            return
        if state == self.CONFIRM:
            if ch not in "\r\n ":
                return
            assert self.pending is not None
            letter, slot = self.pending
            self.pending = None
            if letter == "U" and self._lands_on_700(slot):
                self.pending = ("U", slot)
                self.state = self.EXTENSION
                return
            self._human(play(slot) if letter == "U" else discard(slot))
            return
        if up not in ("Y", "N"):
            return
        yes = up == "Y"
        if state == self.EXTENSION:
            assert self.pending is not None
            slot = self.pending[1]
            self.pending = None
            self._human(play(slot), extension=yes)
        elif state == self.REALLY:
            self.state = self.DONE if yes else self.MOVE
        elif state in (self.ANOTHER_HAND, self.ANOTHER_GAME):
            if not yes:
                self.state = self.DONE
                return
            if state == self.ANOTHER_GAME:
                rules.settle_game(self.game)
                self.games_done += 1
            self._new_hand()
