"""The searching player ``expert``: legal, blind to hidden cards, deterministic, decides Extension?."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from helpers.engine import fingerprint
from helpers.faults import run_python
from mille.engine import cards, rules
from mille.engine.driver import play_hand
from mille.engine.observation import Observation, observe, sample_world
from mille.engine.rng import GlibcRandom
from mille.engine.rules import EXTEND, NO_EXTENSION, Move, MoveType, Phase
from mille.engine.state import Game
from mille.lab.sim import Simulator
from mille.players import Player, make_player
from mille.players.bsd import INITIAL_NUM_NEED, BsdPlayer
from mille.players.expert import DEFAULT_LEVEL, LEVELS, ExpertPlayer, Level, rollout, rollout_reference, win_probability
from mille.players.plus import PlusPlayer

#: A quick setting for tests: few rollouts, but every code path of the search.
QUICK = Level(budget=600, batch=4)


def quick(level: int = 1) -> ExpertPlayer:
    return ExpertPlayer(level, settings=QUICK)


def positions(seed: int, count: int, seat: int) -> list[tuple[Game, Observation]]:
    """Positions of a BSD-against-BSD hand where ``seat`` must decide (after drawing)."""
    game = Game(rng=GlibcRandom(seed))
    rules.start_hand(game)
    bsd = (BsdPlayer(), BsdPlayer())
    dice = (GlibcRandom(seed + 1), GlibcRandom(seed + 2))
    found: list[tuple[Game, Observation]] = []
    while not game.finished and len(found) < count:
        who = game.to_move
        if rules.phase(game) is Phase.EMPTY_HAND:
            rules.push(game, rules.PASS)
            continue
        obs = observe(game, who)
        if who == seat and len({m.kind for m in obs.legal_moves()}) > 1:
            found.append((game.copy(), obs))
        rules.push(game, bsd[who].choose(obs, dice[who]))
    return found


def test_every_decision_is_legal_over_many_hands() -> None:
    for seed, seats in ((3, (quick(), BsdPlayer())), (4, (BsdPlayer(), quick())), (5, (quick(), quick()))):
        # The simulator raises on any illegal move, and asks at Extension? too.
        summary = Simulator(seed, players=seats).run(5)
        assert summary.hands == 5


def test_the_fast_rollout_is_the_engine_s_own_play() -> None:
    """The rollout applies draws and discards itself: exactly as ``rules.push`` would."""
    for seed in range(40, 52):
        for game, _obs in positions(seed, 4, seed % 2):
            for seat, dice_seed, repaired in ((0, 1, True), (1, 2, True), (0, 3, False), (1, 4, False)):
                fast, slow = game.copy(), game.copy()
                needs_fast = [list(INITIAL_NUM_NEED), list(INITIAL_NUM_NEED)]
                needs_slow = [list(INITIAL_NUM_NEED), list(INITIAL_NUM_NEED)]
                played = rollout(fast, seat, needs_fast, GlibcRandom(dice_seed), repaired)
                assert played == rollout_reference(slow, seat, needs_slow, GlibcRandom(dice_seed), repaired)
                assert fast == slow and needs_fast == needs_slow
                assert fast.finished


def test_the_level_knob() -> None:
    assert set(LEVELS) >= {0, 1, 2, 3}
    with pytest.raises(ValueError):
        ExpertPlayer(level=99)
    # Level 0 is the policy's choice itself.
    for _game, obs in positions(11, 8, 1):
        assert ExpertPlayer(0).choose(obs, GlibcRandom(2)) == PlusPlayer().choose(obs, GlibcRandom(2))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_decision_does_not_depend_on_the_hidden_cards(seat: int) -> None:
    """The same observation with the hidden cards dealt differently: the same move."""
    for game, obs in positions(21 + seat, 6, seat):
        moves = set()
        for deal in range(3):
            world = game if deal == 0 else sample_world(obs, GlibcRandom(100 + deal))
            seen = observe(world, seat)
            assert seen == obs
            if deal:
                assert world.players[1 - seat].hand != game.players[1 - seat].hand or world.deck != game.deck
            moves.add(quick().choose(seen, GlibcRandom(77)))
        assert len(moves) == 1


def test_the_same_seed_gives_the_same_game() -> None:
    def run() -> list[int]:
        sim = Simulator(8, players=(quick(), BsdPlayer()))
        return [sim.play_hand().result.hand_totals[0] for _ in range(3)]

    assert run() == run()


def test_the_search_changes_some_decisions() -> None:
    player = ExpertPlayer(1, settings=Level(budget=6000, z=1.0))
    policy = PlusPlayer()
    differ = 0
    for _game, obs in positions(31, 16, 0):
        move = player.think(obs, GlibcRandom(5))
        differ += move != policy.choose(obs, GlibcRandom(5))
    assert player.searches > 0
    assert differ > 0


def test_a_close_call_may_spend_more_than_the_budget() -> None:
    """``stretch`` goes on past the budget only while a rival is within a standard error of being played.

    The same seeds, with and without it: the stretched search is the plain
    one until the budget is spent, so it never spends less; it spends more
    on some decisions (the close calls) and never past its cap by more than
    the batch that crossed it.
    """
    budget, stretch, batch = 1500, 3.0, 4
    plain = ExpertPlayer(1, settings=Level(budget=budget, batch=batch))
    stretched = ExpertPlayer(1, settings=Level(budget=budget, batch=batch, stretch=stretch))
    longer = 0
    for _game, obs in positions(31, 24, 0) + positions(32, 24, 1):
        spent = []
        for player in (plain, stretched):
            before = (player.searches, player.simulated_moves)
            player.think(obs, GlibcRandom(5))
            spent.append(player.simulated_moves - before[1] if player.searches > before[0] else None)
        if spent[0] is None:
            assert spent[1] is None
            continue
        assert spent[1] is not None and spent[1] >= spent[0]
        assert spent[1] < budget * stretch + batch * len(obs.legal_moves()) * 200
        longer += spent[1] > spent[0]
    assert longer > 0


@pytest.mark.parametrize("clock_name", ["thread_time", "perf_counter"])
def test_the_safety_net_is_looked_at_before_every_world(monkeypatch: pytest.MonkeyPatch, clock_name: str) -> None:
    """Past a net the search stops at the next world, not at the end of a batch.

    A clock that moves 0.1 s at every look: the net (0.35 s) passes after
    three worlds, inside the first batch of eight.  The deadline is on the
    thread's CPU clock (``thread_time``), the patience on the wall clock.
    """
    from mille.players.expert import search
    from mille.players.expert.sampler import Sampler

    now = [0.0]

    def clock() -> float:
        now[0] += 0.1
        return now[0]

    monkeypatch.setattr(search.time, clock_name, clock)
    worlds = [0]
    sample = Sampler.sample

    def counted(self: Sampler, rng: GlibcRandom) -> Game:
        worlds[0] += 1
        return sample(self, rng)

    monkeypatch.setattr(Sampler, "sample", counted)
    nets = (
        {"deadline": 0.35, "patience": 10**6} if clock_name == "thread_time" else {"deadline": 10**6, "patience": 0.35}
    )
    player = ExpertPlayer(1, settings=Level(budget=10**9, batch=8, **nets))
    searched = 0
    for _game, obs in positions(31, 16, 0):
        before = (player.searches, worlds[0])
        player.choose(obs, GlibcRandom(5))
        if player.searches > before[0]:
            searched += 1
            assert worlds[0] - before[1] == 3
    assert searched > 0


def need_error(exact_need: bool, seed: int, hands: int) -> int:
    """The largest gap between the opponent's ``num_need`` table and the expert's estimate of it.

    The expert at level 0 (the policy; its memory of the hand is kept all
    the same) against ``bsd``, ``hands`` hands of one simulated run, the
    table never reset (as in a game and in the original).
    """
    expert = ExpertPlayer(0, settings=Level(0, exact_need=exact_need))
    bsd = BsdPlayer()
    sim = Simulator(seed, players=(expert, bsd) if seed % 2 else (bsd, expert))
    worst = 0
    for _ in range(hands):
        sim.play_hand()
        worst = max(worst, *(abs(t - e) for t, e in zip(bsd.num_need, expert.opp_need)))
    return worst


def test_the_estimate_of_the_opponent_s_needs_follows_the_bsd_player() -> None:
    """Bumped twice for each turn it spent stopped, but not for a turn in which it answered the hazard.

    Not exact: a decision that ends in playing a safety from the hand keeps
    the turn, and a second decision bumps the table again (the estimate
    cannot tell it from a safety played before the bumps).  The 2026
    estimate (``exact_need=False``) also bumped it after a coup fourré.
    """
    assert max(need_error(True, seed, 30) for seed in (5, 6, 7)) <= 2
    assert max(need_error(False, seed, 30) for seed in (5, 6, 7)) > 2


def extension_position() -> Observation:
    """The computer has just reached 700 with a 200: Extension?"""
    game = Game(rng=GlibcRandom(1))
    rules.start_hand(game)
    comp = game.players[1]
    comp.mileage = 500
    comp.nummiles = [0, 0, 0, 2, 1]
    comp.battle = cards.GO
    comp.can_go = True
    comp.hand[0] = cards.MILES_200
    game.to_move = 1
    rules.push(game, Move(MoveType.PLAY, 0))
    assert rules.phase(game) is Phase.EXTENSION
    return observe(game, 1)


def test_the_extension_question_is_searched_and_answered() -> None:
    obs = extension_position()
    player = quick()
    answer = player.choose(obs, GlibcRandom(3))
    assert answer in (EXTEND, NO_EXTENSION)
    assert player.searches == 1 and player.rollouts > 0


def test_win_probability() -> None:
    assert win_probability(5200, 4900) == 1.0
    assert win_probability(4900, 5200) == 0.0
    assert win_probability(5000, 5000) == 0.5
    assert win_probability(0, 0) == pytest.approx(0.5)
    assert 0.5 < win_probability(3000, 2500) < win_probability(4500, 4000) < 1.0


def test_the_command_line_seats_the_chosen_computer() -> None:
    from mille.ui.session import computer_player

    game = Game(rng=GlibcRandom(5))
    player, dice = computer_player("bsd", 5, game)
    assert isinstance(player, BsdPlayer) and dice is game.rng  # the original's dice: the game's generator
    player, dice = computer_player("expert", 5, game)
    assert isinstance(player, ExpertPlayer) and player.level == DEFAULT_LEVEL
    assert dice is not None and dice != GlibcRandom(5)  # its own dice: the deals stay the seed's


def test_expert_2026_is_a_built_in_player() -> None:
    from mille.players import expert_2026

    player = make_player("expert-2026")
    assert isinstance(player, expert_2026.Expert2026Player)
    assert player.name == "expert-2026" and player.level == expert_2026.DEFAULT_LEVEL == 3
    assert player.settings is expert_2026.LEVELS[3] and not player.settings.repaired
    _game, obs = positions(11, 1, 1)[0]
    assert player.choose(obs, GlibcRandom(2)) in obs.legal_moves()


@pytest.mark.slow  # long: once in the suite, not again under the other CPythons (.ci/run)
def test_expert_2026_plays_as_it_always_has() -> None:
    """Its default level, the safety net lifted, keeps the moves recorded when it was frozen.

    The recorded hash is of the moves today's expert made at commit 027295c
    (122 moves over two hands, 7 of them not the BSD choice).  If this fails
    the frozen player has changed: restore its play; never re-record it.
    """
    from mille.players import expert_2026

    level = expert_2026.LEVELS[expert_2026.DEFAULT_LEVEL]
    settings = expert_2026.Level(level.budget, z=level.z, race=level.race, deadline=60.0, repaired=False)

    def make() -> Player:
        return expert_2026.Expert2026Player(settings=settings)

    assert fingerprint(make, 2) == ("3896c1a684517baf", 122, 7)


def _rolling(hand: list[int], mileage: int, opponent_mileage: int | None = None) -> Observation:
    """Seat 1 to move, rolling at ``mileage`` with ``hand``; seat 0 rolling too at ``opponent_mileage``, if given."""
    game = Game(rng=GlibcRandom(1))
    rules.start_hand(game)
    rolling = [(game.players[1], mileage)]
    if opponent_mileage is not None:
        rolling.append((game.players[0], opponent_mileage))
    for player, miles in rolling:
        player.mileage = miles
        player.battle = cards.GO
        player.can_go = True
    game.players[1].hand = hand
    game.to_move = 1
    return observe(game, 1)


def test_the_policy_declines_a_too_close_card_but_still_finishes_the_trip() -> None:
    """BSD discards when a 25 leaves it "too close", even holding the 100 that finishes; the policy plays the 100."""
    hand = [cards.MILES_25, cards.MILES_100, cards.GASOLINE, cards.GASOLINE, cards.SPARE_TIRE, cards.REPAIRS, cards.GO]
    obs = _rolling(hand, 600)
    assert BsdPlayer().choose(obs, GlibcRandom(1)).kind is MoveType.DISCARD
    assert PlusPlayer().choose(obs, GlibcRandom(1)) == Move(MoveType.PLAY, 1)


def test_the_policy_attacks_first_where_bsd_runs() -> None:
    """Both rolling at 300 miles: BSD plays its 200 (valued 26, above the Accident's 16); the policy attacks.

    The policy doubles a hazard's value when it chooses a play (docs/notebook/expert.md,
    "Experiments of the fourth round").
    """
    hand = [
        cards.MILES_200,
        cards.ACCIDENT,
        cards.GASOLINE,
        cards.SPARE_TIRE,
        cards.REPAIRS,
        cards.GASOLINE,
        cards.SPARE_TIRE,
    ]
    obs = _rolling(hand, 300, opponent_mileage=300)
    assert BsdPlayer().choose(obs, GlibcRandom(1)) == Move(MoveType.PLAY, 0)
    assert PlusPlayer().choose(obs, GlibcRandom(1)) == Move(MoveType.PLAY, 1)


def _expert_along(
    deals: tuple[int, ...], settings: Level, look: Callable[[Observation, Move, ExpertPlayer, Game], None]
) -> None:
    """Play the expert (``settings``) against BSD on ``deals``, both seats; ``look`` at each of its moves."""

    class Watched:
        """The expert, looked at after each of its choices."""

        def __init__(self, game: Game) -> None:
            self.game = game
            self.expert = ExpertPlayer(settings=settings)

        def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
            move = self.expert.choose(obs, rng)
            look(obs, move, self.expert, self.game)
            return move

    for deal in deals:
        for seat in (0, 1):
            game = Game(rng=GlibcRandom(deal))
            game.hand_starter = deal % 2
            rules.start_hand(game)
            players: list[Player] = [BsdPlayer(), BsdPlayer()]
            players[seat] = Watched(game)
            play_hand(game, players, (GlibcRandom(deal * 7 + 1), GlibcRandom(deal * 7 + 2)))


@pytest.mark.parametrize("infer", [True, False])
def test_the_expert_s_worlds_are_worlds_the_seat_could_be_in(infer: bool) -> None:
    """Its own sampler keeps ``sample_world``'s contract where a rollout reads it.

    The seat observes the same in every world (but for the Order toggle,
    which only sorts seat 0's hand on the screen: rollouts leave it off),
    and the cards dealt to the other hand and the undrawn deck are exactly
    the ones the seat has not seen.
    """
    from mille.players.expert.sampler import Sampler

    checked = 0
    for seat in (0, 1):
        for _game, obs in positions(31 + seat, 8, seat):
            player = ExpertPlayer(settings=QUICK, infer=infer)
            dice = GlibcRandom(5)
            hm = player._track(obs)
            sampler = Sampler(obs, hm, infer)
            unseen = obs.unseen()
            for _ in range(6):
                world = sampler.sample(dice)
                hidden = [c for c in world.players[1 - seat].hand if c != cards.EMPTY]
                hidden += world.deck[: world.deck_count]
                assert sorted(hidden) == sorted(c for c in range(cards.NUM_CODES) for _ in range(unseen[c]))
                seen = observe(world, seat)
                assert seen.order is False
                assert all(getattr(seen, f) == getattr(obs, f) for f in Observation.__slots__ if f != "order")
                checked += 1
    assert checked == 2 * 8 * 6


def _safety_log_loss(settings: Level, deals: tuple[int, ...]) -> tuple[float, int]:
    """Log loss of the expert's chance that the opponent holds each unseen safety, against its true hand.

    The chance is the one the expert's sampler deals each unseen safety
    with (``d / (d + deck)``, ``d`` the cards the opponent drew since it
    was last known not to hold it), at each of the expert's moves while
    the opponent holds cards.
    """
    import math

    from mille.players.expert.sampler import Sampler

    total = [0.0, 0]

    def look(obs: Observation, move: Move, player: ExpertPlayer, game: Game) -> None:
        hm = player._hand
        if obs.phase is not Phase.MOVE or hm is None or obs.opponent_hand_size == 0:
            return
        truth = game.players[1 - obs.seat].hand
        for safety, chance in Sampler(obs, hm, True).safeties:
            p = min(max(chance, 1e-3), 1 - 1e-3)
            total[0] -= math.log(p if safety in truth else 1 - p)
            total[1] += 1

    _expert_along(deals, settings, look)
    return total[0] / total[1], total[1]


def test_reading_the_bsd_procedure_s_safety_rules_sharpens_the_safety_inference() -> None:
    """``Level(safety_rules=True)``: a turn in which the BSD player would have played a safety says it held none.

    Along 4,000 hands the log loss fell from 0.406 to 0.369
    (``docs/notebook/expert.md``, the ninth round); here 40 hands.
    """
    deals = tuple(range(780000, 780020))
    without, n = _safety_log_loss(Level(0), deals)
    with_rules, m = _safety_log_loss(Level(0, safety_rules=True), deals)
    assert n == m > 1000
    assert with_rules < 0.95 * without


#: A child: the expert (a small budget) against bsd on one CPU until ``limit`` searches; per search the moves
#: simulated, its CPU time and its wall time, as JSON.
LOADED_CHILD = """
import json, os, sys, time
from mille.engine import rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game
from mille.players.bsd import BsdPlayer
from mille.players.expert import ExpertPlayer, Level
from mille.players.expert import player as expert_module

os.sched_setaffinity(0, {int(sys.argv[1])})
deadline, limit = float(sys.argv[2]), int(sys.argv[3])
costs = []
search = expert_module.search

def timed(*args, **kwargs):
    cpu, wall = time.thread_time(), time.perf_counter()
    move, rollouts, simulated = search(*args, **kwargs)
    costs.append((simulated, time.thread_time() - cpu, time.perf_counter() - wall))
    return move, rollouts, simulated

expert_module.search = timed
expert, bsd = ExpertPlayer(settings=Level(4000, safety_rules=True, deadline=deadline, patience=600)), BsdPlayer()
game = Game(rng=GlibcRandom(7))
rules.start_hand(game)
dice = (GlibcRandom(21), GlibcRandom(35))
while not game.finished and len(costs) < limit:
    if rules.phase(game) is rules.Phase.EMPTY_HAND:
        rules.push(game, rules.PASS)
        continue
    who = game.to_move
    rules.push(game, (expert if who == 0 else bsd).choose(observe(game, who), dice[who]))
print(json.dumps(costs))
"""


def busy_on(cpu: int) -> subprocess.Popen[bytes]:
    """A busy loop on CPU ``cpu`` (started; the caller ends it)."""
    code = f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True:\n    pass\n"
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL)


def cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or not os.path.isdir("/proc/self"), reason="needs Linux")
def test_a_loaded_machine_does_not_change_the_search() -> None:
    """Three busy loops on the expert's CPU: its thread gets a quarter of it, and the search does as much as alone.

    The safety net, on the wall clock, cut a search short as soon as the load
    stretched it (the move then depended on the machine); on the thread's CPU
    clock it binds at the same point, loaded or not.  The net here (the
    wall-clock one lifted) is set at 2.5 times the costliest search's CPU
    time alone, where a quarter of a core stretches the wall time about four
    times.
    """
    cpu = min(os.sched_getaffinity(0))
    alone = json.loads(run_python(LOADED_CHILD, str(cpu), "600", "8").stdout)
    assert len(alone) == 8
    net = max(2.5 * max(c for _, c, _ in alone), 0.02)
    loops = [busy_on(cpu) for _ in range(3)]
    try:
        deadline = time.monotonic() + 30
        while not all(p.poll() is None and cpu_ticks(p.pid) > 0 for p in loops):  # each is running
            assert time.monotonic() < deadline, "the busy loops did not start"
            time.sleep(0.01)
        loaded = json.loads(run_python(LOADED_CHILD, str(cpu), str(net), "8").stdout)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    assert sum(w for _, _, w in loaded) > 2 * sum(c for _, c, _ in loaded), "the load was real"
    assert [s for s, _, _ in loaded] == [s for s, _, _ in alone]
