"""Helpers for the engine tests: positions built by hand, and a key driver.

``position()`` builds a :class:`~mille.engine.state.Game` from a few keyword
arguments (anything not given is as right after a deal), so a test states
only what matters to the rule it checks.

:class:`KeyDriver` plays the engine the way the curses front end does
(``GameFlow._main_loop`` / ``domove`` / ``check_more``) but headless: the
human's moves come from the keys the real program was sent, the computer
moves with :func:`mille.computer.decide`.  It understands the keys the
harness policies ``first`` and ``keys`` send (``p``, ``u``/``d`` + slot +
Return/space, ``o``, ``y``/``n`` at prompts, ``q``); screen-only keys (``w``,
``r``, ``^L``) are ignored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

from mille.engine import cards, rules
from mille.engine.cards import BY_NAME, EMPTY
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import DRAW, EXTEND, NO_EXTENSION, ORDER, PASS, Move, MoveType, Outcome, Phase
from mille.engine.state import Game, SafetyStatus, Table, Tableau, table
from mille.players import Player
from mille.players.bsd import INITIAL_NUM_NEED, BsdPlayer, Decision

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
    nummiles: Sequence[int] | None = None,
    fresh_hazard: bool = False,
    fresh_limit: bool = False,
) -> Tableau:
    """A tableau; ``played`` lists safeties (codes) already played."""
    pp = Tableau()
    pp.hand = hand_of(*hand) if len(hand) < cards.HAND_SIZE else list(hand)
    pp.battle = battle
    pp.speed = speed
    pp.can_go = can_go
    pp.mileage = mileage
    pp.fresh_hazard = fresh_hazard
    pp.fresh_limit = fresh_limit
    for s in played:
        pp.safety[s - cards.SAFETY_BASE] = SafetyStatus.PLAYED
        pp.safety_score += 100
    if nummiles is not None:
        pp.nummiles = list(nummiles)
    pp.hand_total = pp.total = pp.mileage + pp.safety_score
    return pp


def position(
    human: Tableau | None = None,
    computer: Tableau | None = None,
    *,
    to_move: int = 0,
    deck_count: int = 50,
    trip_length: int = 700,
    seed: int = 1,
) -> Game:
    """A game in the middle of a hand (the deck array is the initial order)."""
    game = Game()
    game.rng = GlibcRandom(seed)
    game.players = [human or tableau(), computer or tableau()]
    game.to_move = to_move
    game.deck_count = deck_count
    game.trip_length = trip_length
    game.finished = False
    return game


def play_error(game: Game, seat: int, slot: int) -> str | None:
    """The message a play would be refused with (None: legal)."""
    refusal = rules.play_refusal(game, seat, slot)
    return None if refusal is None else rules.refusal_message(refusal, game, seat, slot)


def discard_error(game: Game, seat: int, slot: int) -> str | None:
    refusal = rules.discard_refusal(game, seat, slot)
    return None if refusal is None else rules.refusal_message(refusal, game, seat, slot)


def draw_error(game: Game, seat: int) -> str | None:
    refusal = rules.draw_refusal(game, seat)
    return None if refusal is None else rules.refusal_message(refusal, game, seat, 0)


def push_answering(game: Game, move: Move, extend: bool = False) -> Outcome:
    """Push ``move``; if it stops at ``Extension?``, answer ``extend``."""
    outcome = rules.push(game, move)
    if game.pending_extension is not None:
        rules.push(game, EXTEND if extend else NO_EXTENSION)
    return outcome


def bsd_decide(game: Game, seat: int = 1, player: BsdPlayer | None = None) -> Decision:
    """The BSD player's decision for ``seat`` in ``game`` (dice: the game's generator).

    A fresh player (the original's starting ``num_need``) unless one is given.
    """
    player = BsdPlayer() if player is None else player
    return player.decide(observe(game, seat), game.rng)


def bsd_would_extend(game: Game, seat: int = 1) -> bool:
    """The BSD player's answer at 700 for ``seat`` (the card still in its hand)."""
    from mille.players.bsd import would_extend

    pp, op = game.players[seat], game.players[1 - seat]
    return would_extend(pp, op, game.memory[seat], game.trip_length, game.deck_count)


def play(slot: int) -> Move:
    return Move(MoveType.PLAY, slot)


def discard(slot: int) -> Move:
    return Move(MoveType.DISCARD, slot)


def after(game: Game, *moves: Move) -> Game:
    """A copy of ``game`` with ``moves`` made on it (the game itself untouched)."""
    game = game.copy()
    for move in moves:
        rules.push(game, move)
    return game


new_game = rules.new_game  # a program run's game before its first hand


def position_after(seed: int, moves: int) -> Game:
    """A mid-hand position reached by BSD-vs-last-legal-move play (no Extension? left open)."""
    game = Game()
    game.rng.seed(seed)
    rules.start_hand(game)
    computer = BsdPlayer()
    for _ in range(moves):
        phase = rules.phase(game)
        if phase is rules.Phase.HAND_OVER:
            break
        if phase is rules.Phase.EMPTY_HAND:
            rules.push(game, rules.PASS)
            continue
        if game.to_move == 1:
            move = bsd_decide(game, 1, computer).move
        else:
            move = rules.legal_moves(game)[-1]
        rules.push(game, move)
    if game.pending_extension is not None:
        rules.push(game, rules.NO_EXTENSION)
    return game


# --------------------------------------------------------------------------
# Positions at the larger tables (3, 4 and 6 seats)

WAITING = (P25,) * 6  # a hand of six, waiting for its turn (the P slot empty)


def waiting(*codes: int) -> list[int]:
    """A hand of six between turns: slots 1-6 (padded with 25s), the P slot empty."""
    return [EMPTY, *codes, *(P25,) * (6 - len(codes))]


def at_table(
    seats: int,
    hands: dict[int, Sequence[int]],
    *,
    to_move: int,
    rolling: Sequence[int] = (),
    deck_count: int = 50,
    the_table: Table | None = None,
) -> Game:
    """A hand in progress at ``seats``: each seat's hand (default: six 25s), the sides in ``rolling`` can go."""
    t = the_table or table(seats)
    game = Game(table=t, rng=GlibcRandom(1))
    game.players = [Tableau() for _ in range(seats)]
    for seat in range(seats):
        game.players[seat].hand = list(hands.get(seat, waiting()))
    for side in rolling:
        game.players[side].battle = GO
        game.players[side].can_go = True
    game.to_move = to_move
    game.deck_count = deck_count
    game.finished = False
    return game


def push_ok(game: Game, move: Move) -> None:
    outcome = rules.push(game, move)
    assert outcome.refusal is None, outcome.error


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
        self.computer = BsdPlayer()
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
        """Computer moves (and skips) until the human must type something (the turn driver)."""
        game = self.game
        while True:
            phase = rules.phase(game)
            if phase is Phase.HAND_OVER:
                self._hand_over()
                return
            if phase is Phase.EMPTY_HAND:
                self.emptied = True
                rules.push(game, PASS)
                continue
            if game.to_move == 0:
                self.state = self.EXTENSION if phase is Phase.EXTENSION else self.MOVE
                return
            outcome = rules.push(game, self.computer.decide(observe(game, 1), game.rng).move)
            if outcome.error is not None:
                raise AssertionError(f"the computer's move was refused: {outcome.error}")

    def _hand_over(self) -> None:
        game = self.game
        self.hands_done += 1
        self.hand_results.append((game.players[0].hand_total, game.players[1].hand_total))
        self.state = self.ANOTHER_GAME if rules.game_over(game) else self.ANOTHER_HAND

    def _human(self, move: Move) -> None:
        game = self.game
        outcome = rules.push(game, move)
        if outcome.error is not None:
            self.errors.append(outcome.error)
        self.state = self.MOVE
        self._advance()

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
            self._human(play(slot) if letter == "U" else discard(slot))
            return
        if up not in ("Y", "N"):
            return
        yes = up == "Y"
        if state == self.EXTENSION:
            self._human(EXTEND if yes else NO_EXTENSION)
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


def fingerprint(make: Callable[[], Player], hands: int) -> tuple[str, int, int]:
    """Hands of ``make()`` against ``bsd`` from fixed deals and dice: a hash of its moves.

    Returns (the hash, its moves, how many of them were not the BSD choice).
    Every move is checked legal on the way.
    """
    moves: list[str] = []
    differ = 0
    for hand in range(hands):
        game = Game(rng=GlibcRandom(500 + hand))
        rules.start_hand(game)
        seat = hand % 2
        player, bsd = make(), BsdPlayer()
        shadow = BsdPlayer()  # the BSD choice in the player's seat, on a copy of its dice
        dice = (GlibcRandom(700 + hand), GlibcRandom(900 + hand))
        while not game.finished:
            who = game.to_move
            if rules.phase(game) is Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            obs = observe(game, who)
            if who == seat:
                shadow.num_need = list(getattr(player, "num_need", INITIAL_NUM_NEED))
                base = shadow.choose(obs, dice[who].copy())
                move = player.choose(obs, dice[who])
                assert move in obs.legal_moves()
                moves.append(str(move))
                differ += move != base
            else:
                move = bsd.choose(obs, dice[who])
            rules.push(game, move)
    return hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16], len(moves), differ
