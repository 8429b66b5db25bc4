"""The expert's third round (issue 46): the frozen ``expert-2026-11``, and what the expert learned since."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from helpers.engine import fingerprint
from mille.engine import rules
from mille.engine.driver import play_hand
from mille.engine.observation import Observation, observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Move, Phase
from mille.engine.state import Game, table
from mille.players import Player, make_player
from mille.players.bsd import BsdPlayer
from mille.players.expert import ExpertPlayer, Level


def table_fingerprint(make: Callable[[], Player], seats: int, hands: int) -> tuple[str, int]:
    """Hands at ``seats``, ``make()`` on side 0 and ``bsd`` on the others, fixed deals and dice: side 0's moves hashed.

    Every move is checked legal on the way; the questions out of turn (the
    coup fourré, R10) and ``Extension?`` are asked of the player too.
    """
    moves: list[str] = []
    for hand in range(hands):
        game = Game(rng=GlibcRandom(300 + hand), table=table(seats))
        rules.start_hand(game)
        sides = game.table.sides
        players: list[Player] = [make() if seat % sides == 0 else BsdPlayer() for seat in range(seats)]
        dice = [GlibcRandom(1100 + 10 * hand + seat) for seat in range(seats)]
        while rules.phase(game) is not Phase.HAND_OVER:
            now = rules.phase(game)
            seat = game.to_move  # (asked out of turn at REACTION: the holder)
            if now is Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            obs = observe(game, seat)
            move = players[seat].choose(obs, dice[seat])
            if seat % sides == 0:
                assert move in obs.legal_moves()
                moves.append(f"{seat}:{move}")
            rules.push(game, move)
    return hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16], len(moves)


def frozen_2026_11(level: int = 4) -> Player:
    """``expert-2026-11`` at ``level`` (its default 4), its safety nets lifted: its moves a function of the seed."""
    from mille.players import expert_2026_11

    frozen = expert_2026_11.LEVELS[level]
    settings = expert_2026_11.Level(frozen.budget, safety_rules=frozen.safety_rules, deadline=600.0)
    return expert_2026_11.Expert202611Player(level, settings=settings)


def test_expert_2026_11_is_a_built_in_player() -> None:
    from mille.players import expert_2026_11

    player = make_player("expert-2026-11")
    assert isinstance(player, expert_2026_11.Expert202611Player)
    assert player.name == "expert-2026-11" and player.level == expert_2026_11.DEFAULT_LEVEL == 4
    assert player.settings is expert_2026_11.LEVELS[4]
    assert player.settings.repaired and player.settings.safety_rules and player.settings.budget == 60000


def test_expert_2026_11_plays_as_it_always_has() -> None:
    """Its default level, the safety nets lifted, keeps the moves recorded when it was frozen (commit ebaf851).

    Two hands against ``bsd`` at two seats; at three and four seats a hand
    of its level 1 (the larger tables' searches are slower), it and its
    partner against ``bsd``.  If this fails the frozen player has changed:
    restore its play; never re-record it.
    """
    assert fingerprint(frozen_2026_11, 2) == ("226e9acf61062a8a", 105, 4)
    assert table_fingerprint(lambda: frozen_2026_11(1), 4, 1) == ("c1c88f3441c11553", 66)
    assert table_fingerprint(lambda: frozen_2026_11(1), 3, 1) == ("f9f95397234c0dc7", 46)


# ---------------------------------------------------------------------------
# The reading of the table (Level.read)


def _reading_hands(seats: int, hands: int, opponents: Callable[[], Player]) -> list[tuple[ExpertPlayer, list[str]]]:
    """Hands through the driver, a reading expert (level 0) on side 0, its mirror checked at each observation."""
    found: list[tuple[ExpertPlayer, list[str]]] = []

    class Checked(ExpertPlayer):
        def think(self, obs: Observation, rng: GlibcRandom) -> Move:
            reader = self.reader
            assert reader is not None
            if reader.mirror is not None and reader.seat == obs.seat:
                wrong.extend(reader.agrees(obs))
            return super().think(obs, rng)

    for hand in range(hands):
        wrong: list[str] = []
        game = Game(rng=GlibcRandom(300 + hand), table=table(seats))
        rules.start_hand(game)
        sides = game.table.sides
        players: list[Player] = [
            Checked(settings=Level(0, read=4)) if s % sides == 0 else opponents() for s in range(seats)
        ]
        play_hand(game, players, [GlibcRandom(9 + s + hand) for s in range(seats)])
        first = players[0]
        assert isinstance(first, ExpertPlayer)
        found.append((first, wrong))
    return found


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_reader_follows_the_table_between_observations(seats: int) -> None:
    """The mirror, each event made on it, is the next observation's table.

    The deck, the hands' sizes, every side's tableau, the cards shown.
    """
    for _expert, wrong in _reading_hands(seats, 4, BsdPlayer):
        assert wrong == []


def test_the_reader_learns_how_each_seat_plays() -> None:
    """A seat of the BSD procedure is read as a procedure; a random player as ``other`` (its safety reads then off)."""
    from mille.players.base import RandomPlayer
    from mille.players.expert.reader import BSD, OTHER, PLUS

    for expert, _wrong in _reading_hands(2, 3, BsdPlayer):
        assert expert.reader is not None
        weights = expert.reader.seats[1].weights
        assert weights[BSD] + weights[PLUS] > 0.95 and weights[BSD] > weights[PLUS]
    for expert, _wrong in _reading_hands(4, 2, RandomPlayer):
        assert expert.reader is not None
        for seat in (1, 3):
            read = expert.reader.seats[seat]
            assert read.weights[OTHER] > 0.9 and read.trust() < 0.5


def test_worlds_dealt_with_the_reads_are_worlds_the_seat_could_be_in() -> None:
    from collections import Counter

    from mille.players.expert.sampler import Worlds

    for seats in (2, 4):
        expert = _reading_hands(seats, 1, BsdPlayer)[0][0]
        game = Game(rng=GlibcRandom(77), table=table(seats))
        rules.start_hand(game)
        players: list[Player] = [BsdPlayer() for _ in range(seats)]
        dice = GlibcRandom(5)
        for step in range(40):
            if rules.phase(game) is not Phase.MOVE:
                break
            seat = game.to_move
            obs = observe(game, seat)
            assert expert.reader is not None
            expert.reader.observe(obs)
            worlds = Worlds(obs, expert.reader, True)
            world = worlds.sample(GlibcRandom(step + 1))
            assert observe(world, seat) == obs
            assert Counter(world.hidden_cards(seat)) == Counter(game.hidden_cards(seat))
            rules.push(game, players[seat].choose(obs, dice))


def test_a_hint_is_the_expert_that_has_read_the_table() -> None:
    """The hints' adviser keeps one reading of the table, told every move and the person's observations.

    At four seats through the driver (the person's seat playing bsd's
    moves), the adviser's reader follows the table as the computer's own
    expert does, has learned a model of the partner and the opponents, and
    each hint's expert holds that reader.  On the board, the person's seat
    hears the table for the adviser.
    """
    from mille.ui import hints
    from mille.ui.flow import Setup, _PersonSeat
    from mille.ui.surface import VirtualTerminal
    from mille.ui.tableboard import table_flow

    adviser = hints.Adviser(lambda: ExpertPlayer(settings=Level(600, batch=4, read=4)))
    wrong: list[str] = []

    class Person:
        def __init__(self) -> None:
            self.inform = adviser.inform
            self.policy = BsdPlayer()

        def hand_over(self, result: object) -> None:
            adviser.hand_over()

        def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
            reader = adviser.reader
            if reader is not None and reader.mirror is not None:
                wrong.extend(reader.agrees(obs))
            adviser.observe(obs)
            return self.policy.choose(obs, rng)

    for hand in range(2):
        game = Game(rng=GlibcRandom(40 + hand), table=table(4))
        rules.start_hand(game)
        players: list[Player] = [Person(), BsdPlayer(), BsdPlayer(), BsdPlayer()]
        play_hand(game, players, [GlibcRandom(k + hand) for k in range(4)])
    assert wrong == []
    reader = adviser.reader
    assert reader is not None and reader.seat == 0 and reader.informed
    assert all(read.trust() > 0.9 for read in reader.seats[1:])
    player = adviser._player()
    assert isinstance(player, ExpertPlayer) and player.reader is reader

    game = Game(rng=GlibcRandom(8), table=table(4))
    rules.start_hand(game)
    others = tuple((BsdPlayer(), GlibcRandom(k)) for k in (2, 3))
    flow = table_flow(
        VirtualTerminal(keys=[]), game, Setup(BsdPlayer(), "bsd", GlibcRandom(1), hints=adviser, others=others)
    )
    # The seat's inform tells the adviser every move, and the face too when it asked (the larger tables' list of
    # moves): both, once each, in that order.
    heard: list[str] = []
    adviser.inform = lambda event: heard.append(f"adviser {event}")  # type: ignore[method-assign,assignment]
    flow.told = lambda event: heard.append(f"face {event}")  # type: ignore[assignment,arg-type]
    _PersonSeat(flow).inform("a move")  # type: ignore[attr-defined]
    flow.told = None
    _PersonSeat(flow).inform("another")  # type: ignore[attr-defined]
    assert heard == ["face a move", "adviser a move", "adviser another"]
    unhinted = table_flow(VirtualTerminal(keys=[]), game, Setup(BsdPlayer(), "bsd", GlibcRandom(1)))
    assert unhinted.told is not None and _PersonSeat(unhinted).inform == unhinted.told  # type: ignore[attr-defined]


def test_a_side_of_the_expert_and_bsd() -> None:
    """``mille.lab.partners``: the player of its side's first seat, the partner on the other, each told the moves."""
    from mille.lab.partners import Partnered
    from mille.players.plus import PlusPlayer

    game = Game(rng=GlibcRandom(3), table=table(4))
    rules.start_hand(game)
    seated = [Partnered(PlusPlayer, BsdPlayer), BsdPlayer(), Partnered(PlusPlayer, BsdPlayer), BsdPlayer()]
    play_hand(game, seated, [GlibcRandom(k) for k in range(4)])
    first, second = seated[0], seated[2]
    assert isinstance(first, Partnered) and isinstance(second, Partnered)
    assert type(first._player) is PlusPlayer and type(second._player) is BsdPlayer
