"""Protocol 2's messages (players/wire.py): any table's observation and moves, and nothing a seat may not see."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import sys
from typing import Any

import pytest

from helpers import BOTS
from helpers.protocol import SAME, TESTS, bots_fixture, served  # noqa: F401 (the fixture)
from mille.engine import cards, rules
from mille.engine.observation import observe
from mille.engine.rules import Move, MoveType, Phase
from mille.engine.state import Game, table
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.play import deal_hand
from mille.players import PlayerSpecError, botprocess, external, make_player, wire
from mille.players.wire import (
    WireError,
    move_from_json_2,
    move_json,
    move_json_2,
    observation_from_json_2,
    observation_json_2,
    tableau_json,
)


def _decisions(seats: int, seed: int):  # type: ignore[no-untyped-def]
    """Every decision of a hand played by random legal moves: (game, the seat to move), before the move."""
    game = Game(table=table(seats))
    deal_hand(game, seed, 0)
    choice = random.Random(seed)
    while rules.phase(game) is not Phase.HAND_OVER:
        yield game, game.to_move
        rules.push(game, choice.choice(rules.legal_moves(game)))


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_an_observation_crosses_the_pipe_whole_at_every_table(seats: int) -> None:
    phases = set()
    targets = 0
    for game, seat in _decisions(seats, 5):
        obs = observe(game, seat)
        data = json.loads(json.dumps(observation_json_2(obs)))
        back = observation_from_json_2(data)
        assert [tableau_json(t) for t in back.players] == [tableau_json(t) for t in obs.players]
        assert back.hand_sizes == obs.hand_sizes and back.table == obs.table and back.phase is obs.phase
        assert (back.seat, back.to_move, back.deck_count, back.pending_extension) == (
            obs.seat,
            obs.to_move,
            obs.deck_count,
            obs.pending_extension,
        )
        assert data["side"] == seat % obs.table.sides and seat not in data["partners"]
        assert sorted([seat, *data["partners"]]) == list(obs.table.partners(seat % obs.table.sides))
        # Nothing a seat may not see: no hand but its own, a partner's included.
        assert all("hand" not in side for side in data["sides"]) and data["hand"] == game.players[seat].hand
        phases.add(obs.phase)
        for move in rules.legal_moves(game):
            wire = json.loads(json.dumps(move_json_2(move)))
            assert move_from_json_2(wire, obs.table.sides) == move
            targets += move.target is not None
            if move.target is None:
                assert wire == move_json(move)  # protocol 1's form wherever no side is named
    assert Phase.MOVE in phases
    if seats in (3, 6):
        assert targets > 0  # three sides: hazards name their side


def test_a_reaction_is_named_on_the_wire() -> None:
    from mille.players.wire import PHASE_NAMES_2

    assert PHASE_NAMES_2[Phase.REACTION] == "reaction"


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ({"kind": "draw", "target": 1}, "only a play names a target"),
        ({"kind": "play", "slot": 0, "target": 3}, "a target is a side, 0 to 2"),
        ({"kind": "play", "slot": 0, "target": "1"}, "a target is a side"),
    ],
)
def test_a_bad_target_is_refused(answer: dict[str, object], says: str) -> None:
    with pytest.raises(WireError, match=says):
        move_from_json_2(answer, 3)
    assert move_from_json_2({"kind": "play", "slot": 2, "target": 1}, 3) == Move(MoveType.PLAY, 2, 1)


def test_a_bad_observation_is_one_wire_error() -> None:
    game = Game(table=table(4))
    deal_hand(game, 1, 0)
    good = observation_json_2(observe(game, 0))
    for broken in ({**good, "table": {**good["table"], "seats": 5}}, {**good, "seat": 7}, {**good, "hand": [1]}):  # type: ignore[dict-item]
        with pytest.raises(WireError):
            observation_from_json_2(broken)
    assert len(good["hand"]) == cards.HAND_SIZE  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Protocol 2 spoken: bots through real pipes at every table (docs/protocol.md, "Protocols 1 and 2")

TINY_2 = os.path.join(BOTS, "tiny_bot_2.py")
TINY_1 = os.path.join(BOTS, "tiny_bot.py")
DOCS = os.path.join(os.path.dirname(TESTS), "docs")
#: Every key a protocol-2 observation may hold, and a side's tableau (no hand: a hand is its holder's alone).
OBSERVATION_KEYS = {
    "seat", "side", "partners", "table", "phase", "to_move", "hand", "hand_sizes", "sides", "discard",
    "deck_count", "trip_length", "hand_starter", "order", "pending_extension", "memory",
}  # fmt: skip
SIDE_KEYS = set(tableau_json(Game().players[0])) - {"hand"}


def tiny_2(name: str, heard: object, *more: str) -> str:
    return " ".join([f"exec:{sys.executable}", TINY_2, name, str(heard), *more])


def heard_lines(path: Any) -> list[dict[str, object]]:
    """Every message the tiny bots told to write to ``path`` heard, process after process (``path.PID``)."""
    lines = []
    for one in [path] if path.exists() else sorted(path.parent.glob(path.name + ".*")):
        lines += [json.loads(line) for line in one.read_text().splitlines()]
    return lines


def unnamed(report: dict[str, Any]) -> dict[str, Any]:
    """A table match's report without the names and the time (what the same games share)."""
    rows = [{k: v for k, v in row.items() if k != "player"} for row in report["per_player"]]
    return {**{k: v for k, v in report.items() if k not in ("players", "seconds")}, "per_player": rows}


def others(seats: int) -> list[str]:
    """The other sides' players at the table of ``seats``: bsd, and ``first`` at three sides."""
    return ["bsd"] if table(seats).sides == 2 else ["bsd", "first"]


def check_fair(heard: list[dict[str, object]]) -> None:
    """Nothing a seat may not see: no hand but its own, no deck, no card drawn, no other seat's pass."""
    seat = None
    seats = 2
    for message in heard:
        kind = message["type"]
        if kind == "game":
            assert message["protocol"] == 2
            seats = message["table"]["seats"]  # type: ignore[index]
            seat = message["seat"]
        elif kind == "decide":
            obs = message["observation"]
            assert isinstance(obs, dict) and set(obs) == OBSERVATION_KEYS
            assert obs["seat"] == seat == obs["to_move"] and len(obs["hand"]) == cards.HAND_SIZE
            assert all(set(side) == SIDE_KEYS for side in obs["sides"])
            assert set(obs["memory"]) == {"num_seen", "num_gos"}
            hand = [c for c in obs["hand"] if c != cards.EMPTY]
            assert len(hand) == obs["hand_sizes"][seat]
        elif kind == "event":
            sides = table(seats).sides
            hazard = message["kind"] == "play" and message["card"] in cards.HAZARDS | {cards.SPEED_LIMIT}
            assert set(message) == {"type", "seat", "side", "kind", "card"} | ({"target"} if hazard else set())
            assert message["side"] == message["seat"] % sides  # type: ignore[operator]
            if hazard:  # the side it went to: an opponent's
                assert message["target"] in range(sides) and message["target"] != message["side"]
            if message["kind"] == "draw":
                assert message["card"] == cards.EMPTY  # a card drawn is its drawer's alone
            if message["kind"] == "pass":
                assert message["seat"] == seat  # another seat's pass (a coup fourré declined) is not told


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_protocol_2_bot_plays_whole_games_at_every_table(tmp_path, seats: int) -> None:
    """The tiny bot of protocol 2 through real pipes: whole games, no fault, the reaction asked, told nothing unfair.

    It plays the first legal move, so its games are those of ``first`` in process, move for move.
    """
    heard = tmp_path / "heard"
    options = RunOptions(jobs=1, seed=11, game_points=2000)
    bot = run_match(tiny_2("tiny-2", heard), *others(seats), seats=seats, games=6, options=options)
    assert bot["errors"] == [] and bot["hands"] > 0
    botprocess.shutdown()
    lines = heard_lines(heard)
    check_fair(lines)
    games = [m for m in lines if m["type"] == "game"]
    assert len(games) == bot["games"] * seats // table(seats).sides  # every seat of the bot's side, every game
    same = run_match("first", *others(seats), seats=seats, games=6, options=options)
    assert unnamed(bot) == unnamed(same)
    if seats in (3, 6):  # three sides: hazards name their side
        assert any("target" in move for m in lines if m["type"] == "decide" for move in m["legal"])  # type: ignore[attr-defined]


def test_the_reaction_is_asked_of_a_bot_out_of_turn(tmp_path) -> None:
    """At six seats the coup fourré is asked out of turn (``"phase": "reaction"``, the safety or a pass)."""
    heard = tmp_path / "heard"
    options = RunOptions(jobs=1, seed=2, game_points=3000)
    report = run_match(tiny_2("tiny-2", heard), "bsd", "bsd", seats=6, games=9, options=options)
    assert report["errors"] == []
    botprocess.shutdown()
    asked = [m for m in heard_lines(heard) if m["type"] == "decide" and m["observation"]["phase"] == "reaction"]  # type: ignore[index]
    assert asked, "no reaction asked in nine games at six seats"
    for m in asked:
        legal = m["legal"]
        obs = m["observation"]
        assert isinstance(legal, list) and len(legal) == 2 and legal[1] == {"kind": "pass"}
        assert obs["hand"][legal[0]["slot"]] >= cards.SAFETY_BASE  # type: ignore[index]


def test_a_protocol_2_bot_plays_the_two_seat_table_in_protocol_2(tmp_path) -> None:
    heard = tmp_path / "heard"
    report = run_match(tiny_2("tiny-2", heard), "bsd", games=2, options=RunOptions(jobs=1, seed=4, game_points=1000))
    assert report["errors"] == []
    botprocess.shutdown()
    lines = heard_lines(heard)
    check_fair(lines)
    same = run_match("first", "bsd", games=2, options=RunOptions(jobs=1, seed=4, game_points=1000))
    assert {k: v for k, v in report.items() if k not in SAME} == {k: v for k, v in same.items() if k not in SAME}


def test_a_bot_of_both_protocols_hears_protocol_1_at_two_seats_byte_for_byte(tmp_path) -> None:
    """``"protocols": [1, 2]`` at two seats: exactly the bytes a bot of protocol 1 alone hears."""
    options = RunOptions(jobs=1, seed=9, game_points=1000, bots_read_deck=True)  # the same dice for both
    both, one = tmp_path / "both", tmp_path / "one"
    assert run_match(tiny_2("tiny", both, "--both"), "bsd", games=2, options=options)["errors"] == []
    assert run_match(tiny_2("tiny", one, "--one"), "bsd", games=2, options=options)["errors"] == []
    botprocess.shutdown()
    heard = [sorted(f.read_bytes() for f in tmp_path.glob(name + ".*")) for name in ("both", "one")]
    assert heard[0] == heard[1] and len(heard[0]) == 2  # one process a game of the pair
    assert all(b'"protocol":2' not in h and b'"type":"decide"' in h for h in heard[0])


def test_a_bot_of_protocol_2_alone_that_offers_games_hears_protocol_2_at_two_seats(tmp_path) -> None:
    """Games in flight are protocol 1's: a bot of protocol 2 alone offering ``games`` is played one game at a time,
    in its own protocol (it was flown, and spoken protocol 1 with tags, which it does not speak)."""
    heard = tmp_path / "heard"
    options = RunOptions(jobs=1, seed=9, game_points=1000)
    report = run_match(tiny_2("tiny", heard, "--games"), "bsd", games=4, options=options)
    botprocess.shutdown()
    assert report["errors"] == []
    games = [m for m in heard_lines(heard) if m["type"] == "game"]
    assert len(games) == 4 and all(m["protocol"] == 2 and "tag" not in m for m in games)
    check_fair(heard_lines(heard))


def test_the_python_bot_of_protocol_2_on_the_page_plays_at_four_seats(tmp_path) -> None:
    """The few lines under "A bot of protocol 2 in a few lines", as they are: the games of ``first``."""
    with open(os.path.join(DOCS, "protocol.md")) as f:
        page = f.read()
    code = page.split("### A bot of protocol 2 in a few lines", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    bot = tmp_path / "first2.py"
    bot.write_text(code)
    options = RunOptions(jobs=1, seed=6, game_points=2000)
    report = run_match(f"exec:{sys.executable} {bot}", "bsd", seats=4, games=2, options=options)
    same = run_match("first", "bsd", seats=4, games=2, options=options)
    assert report["errors"] == [] and unnamed(report) == unnamed(same)


@pytest.mark.parametrize("seats", [3, 4])
def test_mille_bot_bsd_plays_any_table_as_bsd_in_process(tmp_path, seats: int) -> None:
    """``exec:python -m mille.bot bsd --bot-reads-deck`` against in-process ``bsd``: the same games, move for move."""
    players = ["random"] if seats == 4 else ["random", "first"]
    over = RunOptions(jobs=1, seed=5, game_points=3000, bots_read_deck=True, record=tmp_path / "exec.jsonl")
    here = RunOptions(jobs=1, seed=5, game_points=3000, record=tmp_path / "here.jsonl")
    a = run_match(served("bsd"), *players, seats=seats, games=4, options=over)
    b = run_match("bsd", *players, seats=seats, games=4, options=here)
    assert a["errors"] == [] and unnamed(a) == unnamed(b)
    games = [
        [json.loads(line)["hands"] for line in (tmp_path / f).read_text().splitlines()[1:]]
        for f in ("exec.jsonl", "here.jsonl")
    ]
    assert games[0] == games[1] and len(games[0]) == a["games"]


def test_forced_draws_are_known_at_every_table() -> None:
    """The host's shortcut for a forced draw (external._draws_by_force) agrees with the rules at every table."""
    for seats in (3, 4, 6):
        for game, seat in _decisions(seats, 13):
            obs = observe(game, seat)
            if external._draws_by_force(obs):
                assert rules.legal_moves(game) == [rules.DRAW]


def run_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


def test_a_bot_of_protocol_1_is_refused_at_the_larger_tables_in_one_line(tmp_path) -> None:
    """mille.match, mille.tournament and mille.sim: status 2, one line naming the bot and why, nothing left running."""
    old = " ".join([f"exec:{sys.executable}", TINY_1, "tiny", str(tmp_path / "counts")])
    for argv in (
        ("mille.match", "--players", "4", old, "bsd", "--games", "2"),
        ("mille.tournament", "--players", "3", old, "bsd", "first", "--games", "3"),
        ("mille.sim", "--players", "6", "--seat", old, "--hands", "1"),
    ):
        done = run_cli(*argv)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        last = done.stderr.strip().splitlines()[-1]
        assert f"{old}: its hello says protocol 1 alone" in last and "needs a bot that speaks protocol 2" in last


def test_a_protocol_2_bot_sits_at_the_table_from_every_command(tmp_path) -> None:
    """mille.match, mille.tournament and mille.sim with a bot of protocol 2 at 4 and 3 seats: whole games."""
    bot = tiny_2("tiny-2", tmp_path / "heard")
    match = run_cli("mille.match", "--players", "4", bot, "bsd", "--games", "2", "--seed", "3", "--jobs", "1")
    assert match.returncode == 0 and "tiny-2" not in match.stderr and "forfeit" not in match.stdout, match.stderr
    tour = run_cli(
        "mille.tournament", "--players", "3", bot, "bsd", "first", "--games", "3", "--seed", "3", "--jobs", "1"
    )
    assert tour.returncode == 0 and "forfeit" not in tour.stdout, tour.stderr
    sim = run_cli("mille.sim", "--players", "6", "--seat", bot, "--seat", "bsd", "--seat", "first", "--hands", "2")
    assert sim.returncode == 0 and "2 hands" in sim.stdout, sim.stderr
    lines = heard_lines(tmp_path / "heard")
    check_fair(lines)
    tables = {m["table"]["seats"] for m in lines if m["type"] == "game"}  # type: ignore[index]
    assert tables == {3, 4, 6}


@pytest.mark.parametrize(
    ("hello", "says"),
    [
        ({"protocol": 3}, 'speaks protocol "3", not 1 or 2'),
        ({"protocol": 1, "protocols": [2]}, 'said protocols "[2]" (a list of 1 or 2, its protocol among them)'),
        ({"protocol": 2, "protocols": "12"}, "said protocols"),
        ({"protocol": 1, "protocols": [1, 5]}, "said protocols"),
    ],
)
def test_a_hello_with_protocols_no_host_speaks_is_refused(tmp_path, hello: dict[str, object], says: str) -> None:
    bot = tmp_path / "hello.py"
    said = json.dumps({"type": "hello", "name": "x", **hello})
    bot.write_text(f"import sys\nsys.stdin.readline()\nprint({said!r}, flush=True)\nsys.stdin.read()\n")
    with pytest.raises(PlayerSpecError, match=re.escape(says)):
        make_player(f"exec:{sys.executable} {shlex.quote(str(bot))}")


EXAMPLES = os.path.join(DOCS, "examples")


def test_the_c_example_plays_every_table(tmp_path) -> None:
    """docs/examples/greedy_bot.c (both protocols), built with the C compiler there is: whole games at 3, 4 and 6."""
    import shutil

    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build docs/examples/greedy_bot.c")
    binary = str(tmp_path / "greedy_bot")
    source = os.path.join(EXAMPLES, "greedy_bot.c")
    done = subprocess.run([cc, "-std=c99", "-O2", "-Wall", "-o", binary, source], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    for seats in (3, 4, 6):
        options = RunOptions(jobs=1, seed=2, game_points=2000, bots_read_deck=True)
        report = run_match(f"exec:{binary}", *others(seats), seats=seats, games=6, options=options)
        assert report["errors"] == [] and report["hands"] > 6
        again = run_match(f"exec:{binary}", *others(seats), seats=seats, games=6, options=options)
        assert unnamed(again) == unnamed(report)  # its dice the seed's: the same games


def test_the_javascript_example_of_protocol_2_plays_at_four_seats() -> None:
    """docs/examples/first_bot_2.js under node (skipped without it): the games of ``first``."""
    import shutil

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node to run docs/examples/first_bot_2.js")
    bot = f"exec:{node} {os.path.join(EXAMPLES, 'first_bot_2.js')}"
    options = RunOptions(jobs=1, seed=8, game_points=2000)
    report = run_match(bot, "bsd", seats=4, games=4, options=options)
    assert report["errors"] == [] and unnamed(report) == unnamed(
        run_match("first", "bsd", seats=4, games=4, options=options)
    )


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_hidden_cards_changed_change_no_byte_a_seat_is_sent(seats: int) -> None:
    """The attack on the observation: deal the cards a seat cannot see otherwise (the other hands, a partner's
    included, and the deck) and what protocol 2 sends it at that decision, its observation and legal moves, is
    the same, byte for byte."""
    shuffle = random.Random(seats)
    checked = 0
    for game, seat in _decisions(seats, 21):
        other = game.copy()
        places = [(k, slot) for k in range(seats) if k != seat for slot in range(cards.HAND_SIZE)]
        places = [(k, slot) for k, slot in places if other.players[k].hand[slot] != cards.EMPTY]
        hidden = [other.players[k].hand[slot] for k, slot in places] + other.deck[: other.deck_count]
        shuffle.shuffle(hidden)
        for (k, slot), card in zip(places, hidden):
            other.players[k].hand[slot] = card
        other.deck[: other.deck_count] = hidden[len(places) :]
        sent = [
            wire.encode(
                {
                    "observation": wire.observation_json_2(observe(g, seat)),
                    "legal": [wire.move_json_2(m) for m in rules.legal_moves(g)],
                }
            )
            for g in (game, other)
        ]
        assert sent[0] == sent[1]
        checked += len(places) > 0
    assert checked > 20


def test_at_a_table_no_bot_process_plays_two_games_of_a_set_and_its_dice_are_its_own(tmp_path) -> None:
    """Four seats, two sets: the games of a set share its deals, so each is another process's (partners too: 4
    processes), kept for the next set; the dice handed are drawn afresh unless the bot may read the deck."""
    runs = []
    for read, name in ((False, "a"), (False, "b"), (True, "c"), (True, "d")):
        heard = tmp_path / name
        options = RunOptions(jobs=1, seed=17, game_points=1000, bots_read_deck=read)
        assert run_match(tiny_2("tiny", heard), "bsd", seats=4, games=4, options=options)["errors"] == []
        botprocess.shutdown()
        per_process = [heard_lines(one) for one in sorted(tmp_path.glob(name + ".*"))]
        assert len(per_process) == 4  # 2 rotations x 2 seats of the bot's side, each set
        assert all(len([m for m in lines if m["type"] == "game"]) == 2 for lines in per_process)
        runs.append(sorted(m["dice"] for lines in per_process for m in lines if m["type"] == "game"))  # type: ignore[type-var]
    assert runs[0] != runs[1] and runs[2] == runs[3]
