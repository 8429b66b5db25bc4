"""The expert's search: every candidate rolled out in common sampled worlds, the best by paired evidence.

Which decisions are searched, and over what (:func:`candidates`): a draw
is forced, and a position with one distinct move (plays or discards of
identical cards count once) is answered at once; ``Extension?`` is
searched, extend or stop.

How (:func:`search`): each world (from the sampler the player hands in,
:mod:`mille.players.expert.sampler`) is rolled out once per candidate
still in the race, to the end of the hand (:func:`rollout`: our seat with
the expert's policy, the opponent's with the BSD procedure), with the
same dice for every candidate.  On these common random numbers a
comparison sees the difference the move makes, not the luck of the deal,
so the search compares moves pair by pair on the worlds both saw
(:func:`_paired_z`).  Racing drops a move clearly behind the leader; the
policy's choice is left only when the best move is ``z`` paired
standard errors above it (``z`` = 2: with a loose test the best of five
or six rivals beats a sound heuristic by chance, and a random change to
its move is a loss; ``docs/notebook/expert.md``, "The 2026 experiments").

What a finished hand is worth (:func:`utility`): the chance to win the
5000-point game from the totals it ends with (:func:`win_probability`),
the margin breaking ties.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ...engine.cards import OUT_OF_GAS, SPEED_LIMIT
from ...engine.driver import HandPlay, play_hand
from ...engine.observation import Observation
from ...engine.rng import GlibcRandom
from ...engine.rules import (
    Move,
    MoveType,
    Phase,
    answer_extension,
    coup_slot,
    decline_coup,
    discard_card,
    draw_card,
    pass_turn,
    phase,
    play_card,
    push,
)
from ...engine.scoring import GAME_POINTS, hand_result
from ...engine.state import Game, Tableau
from .. import bsd
from ..bsd import BsdPlayer, decide, would_extend
from ..plus import PlusPlayer
from .levels import Level

_PLAY = MoveType.PLAY
_DISCARD = MoveType.DISCARD
_DRAW_KIND = MoveType.DRAW
_HAND_OVER = Phase.HAND_OVER
_EXTENSION = Phase.EXTENSION
_EMPTY = Phase.EMPTY_HAND
_REACTION = Phase.REACTION

#: A player scores about this many points a hand, and one hand's margin has
#: about this standard deviation (BSD against BSD, 3000 hands).
_HAND_POINTS = 1100.0
_HAND_SD = 1140.0


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def win_probability(
    mine: int, theirs: int, points: float = _HAND_POINTS, sd: float = _HAND_SD, game: int = GAME_POINTS
) -> float:
    """Chance to win the 5000-point game from these totals at the end of a hand.

    1 or 0 once the game is over (a tie 1/2); else ``Φ(diff / (1140·√h))``,
    ``h`` the hands left at about 1,100 points a hand.  Early in a game
    this is nearly linear in the margin; near 5000 it is not (a lead that
    is enough is not risked, a deficit calls for variance).  ``points``,
    ``sd`` and ``game``: a table's own (:data:`TABLE_HANDS`, the table's
    game points), for the expert that reads the table.
    """
    if mine >= game or theirs >= game:
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0
    left = max(1.0, (game - 0.5 * (mine + theirs)) / points)
    return _phi((mine - theirs) / (sd * math.sqrt(left)))


def utility(mine: int, theirs: int, margin: int) -> float:
    """What a finished hand is worth: the game-win chance, the margin breaking ties."""
    return win_probability(mine, theirs) + margin * 1e-5


#: By seats: a side's points in a hand, and the standard deviation of its
#: margin over the best other side's (the BSD procedure in every seat,
#: 3,000 hands each; docs/notebook/expert.md, the tenth round).
TABLE_HANDS: dict[int, tuple[float, float]] = {
    2: (1140.0, 1130.0),
    3: (910.0, 880.0),
    4: (1510.0, 1590.0),
    6: (940.0, 1080.0),
}


# --------------------------------------------------------------------------
# Rollouts


def rollout(game: Game, seat: int, needs: list[list[int]], dice: GlibcRandom, repaired: bool = True) -> HandPlay:
    """Play ``game`` out to the end of the hand: ``seat`` with the expert's policy, the other with BSD's.

    ``seat`` plays the expert's policy (:mod:`mille.players.plus`; the BSD
    procedure itself if not ``repaired``), the other seat the BSD
    procedure, each with its ``needs[seat]`` table (bumped in place); both
    roll ``dice``; both answer ``Extension?`` with the BSD rule.  Returns
    the hand driver's account of it: the hand's result
    (:func:`mille.engine.scoring.hand_result`) and the moves and answers made.

    This is the search's hot loop: the BSD procedure's fast loop for two
    seats (:func:`mille.players.bsd.play_hand`), whose game is exactly the
    one the hand driver gives by asking the players
    (:func:`rollout_reference`; a test checks it).
    """
    return bsd.play_hand(game, _seats(seat, needs, repaired), (dice, dice))


def rollout_reference(
    game: Game, seat: int, needs: list[list[int]], dice: GlibcRandom, repaired: bool = True
) -> HandPlay:
    """:func:`rollout` through the hand driver: each seat shown its observation and asked."""
    return play_hand(game, _seats(seat, needs, repaired), (dice, dice))


def _seats(seat: int, needs: list[list[int]], repaired: bool) -> tuple[BsdPlayer, BsdPlayer]:
    own = PlusPlayer if repaired else BsdPlayer
    if seat == 0:
        return own(needs[0]), BsdPlayer(needs[1])
    return BsdPlayer(needs[0]), own(needs[1])


#: Plays a world out from a candidate's move and values it: (the value, the moves simulated).
Roller = Callable[[Game, GlibcRandom], tuple[float, int]]


def table_roller(seat: int, sides: int, my_need: list[int], opp_need: list[int], settings: Level) -> Roller:
    """The rollout of a larger table (three, four or six seats), from ``seat``'s side.

    Every seat of its side (``seat`` and a partner) plays the expert's
    policy (:mod:`mille.players.plus`; the partner on a copy of the
    estimate ``opp_need``, as its hand, dealt in the world, is as unknown
    as an opponent's), every other seat the BSD procedure as extended to
    the table (:meth:`mille.players.bsd.BsdPlayer.decide`: at three sides
    it attacks the leader); all roll the same dice, through the hand
    driver, to the end of the hand.  Valued as at two seats, the side's
    total against the best other side's (:func:`utility`).
    """
    own = PlusPlayer if settings.repaired else BsdPlayer
    side = seat % sides
    by_game = settings.game

    repaired = [k % sides == side and own is PlusPlayer for k in range(len(_TABLE_SEATS))]

    def roll(game: Game, dice: GlibcRandom) -> tuple[float, int]:
        seats = len(game.players)
        needs = [my_need[:] if k == seat else opp_need[:] for k in range(seats)]
        moves, answers = table_play_out(game, needs, dice, repaired)
        result = hand_result(game)
        totals = result.totals
        margin = result.margin(side)
        theirs = max(t for s, t in enumerate(totals) if s != side)
        value = utility(totals[side], theirs, margin) if by_game else float(margin)
        return value, moves + answers + 1

    return roll


_TABLE_SEATS = range(6)


def read_roller(seat: int, sides: int, needs: list[list[int]], flags: list[bool], settings: Level) -> Roller:
    """The rollout at any table with a model for every seat: ``flags[k]``, seat ``k`` plays the repaired policy.

    ``flags`` is read at every rollout (the worlds' sampler sets it for
    each world it deals: :class:`mille.players.expert.sampler.Worlds`);
    ``needs[k]`` is seat ``k``'s ``num_need`` table (ours, or our estimate
    of another's), copied for every rollout.  At two seats the BSD
    procedure's fast loop (:func:`mille.players.bsd.play_out`, the game
    :func:`rollout` plays), at the larger tables :func:`table_play_out`;
    valued as :func:`rollout` and :func:`table_roller` value theirs, but
    with the table's own hands (:data:`TABLE_HANDS`) and game points.
    """
    by_game = settings.game
    side = seat % sides
    play_out = bsd.play_out
    points, sd = TABLE_HANDS.get(len(needs), (_HAND_POINTS, _HAND_SD))

    def roll(game: Game, dice: GlibcRandom) -> tuple[float, int]:
        if len(game.players) == 2:
            moves, answers = play_out(game, (needs[0][:], needs[1][:]), (dice, dice), (flags[0], flags[1]))
        else:
            moves, answers = table_play_out(game, [n[:] for n in needs], dice, flags)
        result = hand_result(game)
        totals = result.totals
        margin = result.margin(side)
        theirs = max(t for s, t in enumerate(totals) if s != side)
        if by_game:
            value = win_probability(totals[side], theirs, points, sd, game.table.game_points) + margin * 1e-5
        else:
            value = float(margin)
        return value, moves + answers + 1

    return roll


def table_play_out(game: Game, needs: list[list[int]], dice: GlibcRandom, repaired: list[bool]) -> tuple[int, int]:
    """Play a larger table's hand to its end, every seat the extended BSD procedure (``repaired[seat]``: the policy).

    The game the hand driver gives with a
    :class:`~mille.players.bsd.BsdPlayer` (or
    :class:`~mille.players.plus.PlusPlayer`) in every seat, all rolling
    ``dice`` (``tests/players/test_expert_table.py`` plays both ways), without an
    observation per move or the referee: the procedure (:func:`mille.players.bsd.decide`)
    is handed the seat's view, its side's tableau with its own hand, and the
    opponent side's tableau as it lies (at three sides the leader's,
    :func:`mille.players.bsd.leader`'s rule), and its moves are made by the
    engine's parts of a move.  Returns ``(moves, answers)`` as
    :func:`play_hand` counts them.
    """
    players = game.players
    memory = game.memory
    table = game.table
    sides = table.sides
    copies = table.copies
    quarter = table.deck_size >> 2
    moves = answers = 0
    while True:
        now = phase(game)
        if now is _HAND_OVER:
            return moves, answers
        seat = game.to_move
        own = seat % sides
        if now is _EXTENSION:
            answers += 1
            me = _view(players, seat, own)
            extend = all(
                would_extend(me, players[s], memory[seat], game.trip_length, game.deck_count, copies)
                for s in range(sides)
                if s != own
            )
            answer_extension(game, extend)
            continue
        moves += 1
        if now is _EMPTY:
            pass_turn(game, seat)
            continue
        if now is _REACTION:
            slot = coup_slot(game)
            if slot is None:
                decline_coup(game)
            else:
                game.reaction = None
                play_card(game, seat, slot)
            continue
        if sides == 2:
            target = None
            op = players[1 - own]
        else:
            target = own + 1 if own + 1 < sides else 0
            best = -1
            for step in range(1, sides):
                s = (own + step) % sides
                if players[s].mileage > best:
                    best = players[s].mileage
                    target = s
            op = players[target]
        move = decide(
            _view(players, seat, own),
            op,
            memory[seat],
            game.trip_length,
            game.deck_count,
            needs[seat],
            dice,
            repaired[seat],
            copies,
            quarter,
        ).move
        kind = move.kind
        if kind is _DRAW_KIND:
            draw_card(game, seat)
        elif kind is _DISCARD:
            discard_card(game, seat, move.slot)
        elif target is not None and OUT_OF_GAS <= players[seat].hand[move.slot] <= SPEED_LIMIT:
            play_card(game, seat, move.slot, target)
        else:
            play_card(game, seat, move.slot)


def _view(players: list[Tableau], seat: int, own: int) -> Tableau:
    """What the procedure reads of its own seat: its side's tableau holding its own hand."""
    if seat == own:
        return players[seat]
    view = players[own].copy()
    view.hand = players[seat].hand
    return view


# --------------------------------------------------------------------------
# The search


def candidates(obs: Observation, base: Move) -> list[Move]:
    """Legal moves, one per distinct (kind, card, target side), the policy's choice ``base`` first.

    At three sides a hazard is one candidate for each side it may go to
    (:func:`mille.engine.rules.legal_moves`): the search chooses the side too.
    """
    hand = obs.players[obs.seat].hand

    def key(move: Move) -> tuple[MoveType, int, int | None]:
        card = hand[move.slot] if move.kind is _PLAY or move.kind is _DISCARD else -2
        return (move.kind, card, move.target)

    seen: set[tuple[MoveType, int, int | None]] = {key(base)}
    out: list[Move] = [base]
    for move in obs.legal_moves():
        k = key(move)
        if k in seen:
            continue
        seen.add(k)
        out.append(move)
    return out


def search(
    moves: list[Move],
    sample: Callable[[GlibcRandom], Game],
    seat: int,
    my_need: list[int],
    opp_need: list[int],
    settings: Level,
    rng: GlibcRandom,
    roller: Roller | None = None,
) -> tuple[Move, int, int]:
    """Roll every candidate out in common sampled worlds; the best by paired evidence.

    ``moves[0]`` is the policy's choice, played unless another move
    is ``settings.z`` paired standard errors better.  ``sample(rng)``
    deals a world the seat could be in; ``my_need`` and ``opp_need`` are
    the two seats' ``num_need`` tables (copied for every rollout); ``rng``
    is the search's own generator (worlds and dice).  Returns the move
    and what it cost: the rollouts made and the moves simulated.

    ``roller``: at the larger tables, what plays a world out and values it
    (:func:`table_roller`; the two-seat rollout, inline, otherwise).
    """
    n = len(moves)
    alive = list(range(n))
    sums = [0.0] * n
    values: list[list[float]] = [[] for _ in range(n)]
    spent = 0
    rollouts = 0
    budget = settings.budget
    race = settings.race
    by_game = settings.game
    repaired = settings.repaired
    # The safety nets (Level.deadline, Level.patience): the thread's CPU
    # time, which other programs' load does not advance, and the wall clock
    # only as a last resort.  Neither binds while the budget decides.
    cpu, wall = time.thread_time, time.perf_counter
    give_up, lose_patience = cpu() + settings.deadline, wall() + settings.patience
    late = False
    cap = budget * settings.stretch
    while not late:
        if spent >= budget and (spent >= cap or not _close(values, sums, alive, settings.z)):
            break
        for _ in range(settings.batch):
            if cpu() >= give_up or wall() >= lose_patience:
                # The safety nets, looked at before every world: a
                # batch of eight is tens of milliseconds on a loaded
                # machine, a world a few.
                late = True
                break
            world = sample(rng)
            dice_state = _dice_state(rng)
            for c in alive:
                g = world.copy(share_rng=True)
                push(g, moves[c])
                roll = GlibcRandom.__new__(GlibcRandom)
                roll.setstate(dice_state)
                if roller is None:
                    needs = [my_need[:], opp_need[:]] if seat == 0 else [opp_need[:], my_need[:]]
                    played = rollout(g, seat, needs, roll, repaired)
                    spent += played.moves + played.answers + 1
                    result = played.result
                    margin = result.margin(seat)
                    u = utility(result.totals[seat], result.totals[1 - seat], margin) if by_game else float(margin)
                else:
                    u, m = roller(g, roll)
                    spent += m
                values[c].append(u)
                sums[c] += u
                rollouts += 1
        if len(alive) <= 1:
            break
        if race > 0:
            # Racing: drop what is clearly worse than the leader (paired,
            # on the worlds both saw); stop once the policy's choice is alone
            # or clearly beaten by a lone rival.
            if len(values[0]) < settings.min_worlds:
                continue
            leader = max(alive, key=lambda c: sums[c])
            keep = [c for c in alive if c == leader or c == 0 or _paired_z(values[leader], values[c]) < race]
            alive = keep
            if len(alive) == 1:
                break
            if len(alive) == 2 and abs(_paired_z(values[alive[1]], values[0])) >= race + 1.0:
                break
        elif len(alive) > 2:
            # Successive halving: keep the better half (and the policy's choice).
            alive.sort(key=lambda c: -sums[c])
            keep = alive[: max(2, (len(alive) + 1) // 2)]
            if 0 not in keep:
                keep.append(0)
            alive = keep
    best = max(alive, key=lambda c: sums[c])
    if best != 0 and _paired_z(values[best], values[0]) >= settings.z:
        return moves[best], rollouts, spent
    return moves[0], rollouts, spent


def _close(values: list[list[float]], sums: list[float], alive: list[int], z: float) -> bool:
    """Whether the best rival of the policy's choice (index 0) is within one standard error of being played."""
    if len(alive) < 2:
        return False
    leader = max(alive, key=lambda c: sums[c])
    return leader != 0 and z - 1.0 <= _paired_z(values[leader], values[0]) < z


def _paired_z(a: list[float], b: list[float]) -> float:
    """How far the mean of ``a - b`` (on their common worlds) is above 0, in standard errors."""
    k = min(len(a), len(b))
    if k < 2:
        return 0.0
    diffs = [a[i] - b[i] for i in range(k)]
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    if var <= 0.0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / math.sqrt(var / k)


def _dice_state(rng: GlibcRandom) -> tuple[tuple[int, ...], int, int]:
    """A fresh generator state drawn from ``rng``: the dice every candidate rolls in one world."""
    words = tuple(((rng.random() << 1) | (rng.random() & 1)) for _ in range(31))
    return words, 3, 0


__all__ = [
    "TABLE_HANDS",
    "Roller",
    "candidates",
    "rollout",
    "read_roller",
    "rollout_reference",
    "search",
    "table_play_out",
    "table_roller",
    "utility",
    "win_probability",
]
