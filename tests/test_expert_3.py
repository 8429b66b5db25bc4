"""The expert's third round (issue 46): the frozen ``expert-2026-11``, and what the expert learned since."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.rules import Phase
from mille.engine.state import Game, table
from mille.players import Player, make_player
from mille.players.bsd import BsdPlayer
from test_expert import fingerprint


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
