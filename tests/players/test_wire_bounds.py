"""Every number from a peer is checked against its range before it is used (issue 43).

A hostile host's card out of range crashed a guest with a traceback, and a
mileage of 10^15 spun it at 98% CPU, deaf to ^C, SIGTERM and SIGHUP.  Here
each decoder of :mod:`mille.players.wire` (observations, events, results
and moves, protocols 1 and 2, the JSON and the compact forms) is fed real
messages, made from real games, with every number in turn replaced by
hostile values, and by Hypothesis with any JSON at any field: each decodes
to a :class:`~mille.players.wire.WireError` naming the field, never another
exception, and quickly.  Then a real guest process, on the board and in
lines, is fed a hostile host (a socket in alice's meeting place, alice's
own process): it ends promptly in one line, without a traceback.
"""

from __future__ import annotations

import copy
import json
import os
import re
import time
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mille.engine import cards, driver, rules
from mille.engine.observation import observe
from mille.engine.rng import GlibcRandom
from mille.engine.state import Game, table
from mille.players import wire

#: Numbers protocol 2 sends that no decoder reads (each is the table's, derived from ``seats`` and the seat).
UNREAD = {
    ("side",),
    ("partners",),
    ("table", "sides"),
    ("table", "trip"),
    ("table", "extension"),
    ("table", "deck_size"),
}
#: Values no field may hold: out of every range, of the wrong type, or big enough to spin a loop
#: (a value out of one field's range alone, a card of 99, is :func:`test_a_wire_error_names_the_field_and_its_range`'s).
HOSTILE: list[object] = [10**15, -(10**15), 10**9 + 1, -(10**9 + 1), 2.5, "7", None, [], {}, True]


def _games() -> Iterator[tuple[Game, int]]:
    """Games part way through a hand at each table (tableaus and counts not all empty)."""
    for seats in (2, 3, 4, 6):
        game = Game(rng=GlibcRandom(11 + seats), table=table(seats))
        rules.start_hand(game)
        for _ in range(10 * seats):
            if rules.phase(game) is rules.Phase.HAND_OVER:
                break
            moves = rules.legal_moves(game)
            plays = [m for m in moves if m.kind is rules.MoveType.PLAY]
            rules.push(game, plays[0] if plays else moves[-1])
        yield game, seats


GAMES = list(_games())


def _paths(value: object, at: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The path of every number and boolean in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))
    elif isinstance(value, (int, float)):
        yield at


def _read_paths(message: object) -> list[tuple[object, ...]]:
    """The paths of the numbers a decoder reads (not those of :data:`UNREAD`)."""
    return [p for p in _paths(message) if p[:1] not in UNREAD and p[:2] not in UNREAD]


def _at(value: object, path: tuple[object, ...]) -> object:
    for key in path:
        value = value[key]  # type: ignore[index]
    return value


def _replaced(value: object, path: tuple[object, ...], new: object) -> object:
    value = copy.deepcopy(value)
    node = value
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = new  # type: ignore[index]
    return value


def _decoders() -> Iterator[tuple[str, object, Callable[[object], object]]]:
    """(name, a real message, its decoder) for every form a peer's numbers arrive in."""
    for game, seats in GAMES:
        obs = observe(game, 1)
        if seats == 2:
            yield "observation 1", wire.observation_json(obs), wire.observation_from_json
            values = wire.compact_values(wire.compact_decide_line(obs, []))
            assert values is not None
            yield "compact", values, wire.observation_from_compact
            event = json.loads(wire.event_line(driver.Event(0, rules.MoveType.PLAY, cards.STOP, 1)))
            yield "event 1", event, wire.event_from_json  # type: ignore[misc]
            yield "result 1", _result_2(game), wire.result_from_json
        yield f"observation 2 at {seats}", wire.observation_json_2(obs), wire.observation_from_json_2
        line = wire.event_line_2(driver.Event(1, rules.MoveType.PLAY, cards.STOP, 0), game.table.sides)
        yield f"event 2 at {seats}", json.loads(line), lambda m, s=seats: wire.event_from_json_2(m, s)
        yield f"result 2 at {seats}", _result_2(game), lambda d, t=game.table: wire.result_from_json_2(d, t)
        yield (
            "move 2",
            {"kind": "play", "slot": 3, "target": 1},
            lambda d, n=game.table.sides: wire.move_from_json_2(d, n),
        )
    yield "move 1", {"kind": "discard", "slot": 2}, wire.move_from_json


def _result_2(game: Game) -> dict[str, object]:
    sides = game.table.sides
    return {
        "hand_totals": [100] * sides,
        "totals": [1200] * sides,
        "mileage": [300] * sides,
        "bonuses": [dict.fromkeys(("trip", "safe_trip", "delayed_action", "extension", "shut_out"), False)] * sides,
        "trip_length": game.trip_length,
        "starter": 0,
        "deck_left": 20,
        "game_over": False,
        "game_winner": None,
    }


DECODERS = list(_decoders())


def _decodes_or_refuses(decode: Callable[[object], object], message: object) -> bool:
    """``decode(message)`` returns (True), or raises WireError (False); nothing else, and in well under a second."""
    start = time.monotonic()
    try:
        decode(message)
    except wire.WireError:
        return False
    finally:
        assert time.monotonic() - start < 0.5
    return True


@pytest.mark.parametrize(("name", "message", "decode"), DECODERS, ids=[d[0] for d in DECODERS])
def test_every_number_of_a_real_message_replaced_by_a_hostile_value_is_a_wire_error(
    name: str, message: object, decode: Callable[[object], object]
) -> None:
    decode(copy.deepcopy(message))  # the real message decodes
    paths = _read_paths(message)
    assert paths
    for path in paths:
        original = _at(message, path)
        for bad in HOSTILE:
            if isinstance(bad, bool) and isinstance(original, bool):
                continue  # a boolean where a boolean belongs
            if bad is None and path[-1] in ("pending_extension", "target"):
                continue  # none pending, no target: None is a value of theirs
            hostile = _replaced(message, path, bad)
            start = time.monotonic()
            try:
                decode(hostile)
            except wire.WireError:
                pass
            else:
                pytest.fail(f"{name}: {path} = {bad!r} was decoded")
            assert time.monotonic() - start < 0.5, (path, bad)


@pytest.mark.parametrize(
    ("field", "bad", "named"),
    [
        (("players", 1, "mileage"), 10**15, "players[1].mileage"),
        (("players", 1, "hand", 3), 99, "players[1].hand"),
        (("deck_count",), -5, "deck_count"),
        (("players", 0, "total"), 10**15, "players[0].total"),
        (("opponent_hand_size",), 8, "opponent_hand_size"),
        (("players", 1, "battle"), 19, "players[1].battle"),
        (("discard",), -2, "discard"),
        (("trip_length",), 1025, "trip_length"),
        (("players", 0, "safety", 1), 3, "players[0].safety"),
        (("pending_extension",), 7, "pending_extension"),
        (("memory", "num_seen", 4), 10**12, "memory.num_seen"),
    ],
)
def test_a_wire_error_names_the_field_and_its_range(field: tuple[object, ...], bad: int, named: str) -> None:
    game, _ = GAMES[0]
    message = _replaced(wire.observation_json(observe(game, 1)), field, bad)
    with pytest.raises(wire.WireError, match=re.escape(named) + r".* from -?\d+ to \d+"):
        wire.observation_from_json(message)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**18), 10**18) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(DECODERS) - 1), at=st.integers(0, 10**6), junk=_JSON)
def test_any_json_at_any_field_decodes_to_a_message_in_range_or_a_wire_error(which: int, at: int, junk: object) -> None:
    _name, message, decode = DECODERS[which]
    paths = _read_paths(message)
    hostile = _replaced(message, paths[at % len(paths)], junk)
    if _decodes_or_refuses(decode, hostile):  # taken: a number (or a boolean, or None) some field may hold
        assert junk is None or type(junk) is bool or (type(junk) is int and -200 <= junk <= wire.MAX_SCORE), junk


@settings(max_examples=200, deadline=None)
@given(which=st.integers(0, len(DECODERS) - 1), junk=_JSON)
def test_any_json_at_all_decodes_or_is_a_wire_error(which: int, junk: object) -> None:
    _decodes_or_refuses(DECODERS[which][2], junk)


def _compact_ints(seat: int = 1) -> list[int]:
    game, _ = GAMES[0]
    values = wire.compact_values(wire.compact_decide_line(observe(game, seat), rules.legal_moves(game)))
    assert values is not None
    return values


@settings(max_examples=300, deadline=None)
@given(at=st.integers(0, 10**6), bad=st.integers(-(10**18), 10**18))
def test_a_bots_rough_check_refuses_what_could_loop_and_the_whole_check_names_the_rest(at: int, bad: int) -> None:
    """``mille.bot`` checks its host's compact decide roughly (each number within its field's C type: a third of the
    cost); what passes that but not its field's range is named by the whole check, which the bot asks when its
    player fails (``serve._decided``)."""
    values = _compact_ints()
    at %= len(values)
    values[at] = bad
    low, high = wire._COMPACT_LOW[at], wire._COMPACT_HIGH[at]
    try:
        wire.observation_from_ints(values, wire.check_ints_roughly)
        rough_took = True
    except wire.WireError:
        rough_took = False
    if low <= bad <= high:
        assert rough_took
    if not -(2**31) <= bad <= 2**32:  # nothing huge gets through: no player loops on a mileage of 10**15
        assert not rough_took
    if not low <= bad <= high:
        with pytest.raises(wire.WireError, match=re.escape(wire.COMPACT_FIELDS[at])):
            wire.observation_from_ints(values)


def test_a_bot_whose_host_sent_a_card_out_of_range_says_so_not_its_players_fault() -> None:
    """A card of 99 in the hand passes the rough check (it fits a byte) and makes the player fail: the bot then says
    the host's number is out of range (a ProtocolError naming the field), not a traceback of its player."""
    from mille.players import serve
    from mille.players.bsd import BsdPlayer

    values = _compact_ints()
    slot = wire.COMPACT_FIELDS.index("players[1].hand[1]")
    values[slot] = 99
    with pytest.raises(serve.ProtocolError, match=re.escape("players[1].hand[1]")):
        serve._decided(BsdPlayer(), values, GlibcRandom(1))
    assert serve._decided(BsdPlayer(), _compact_ints(), GlibcRandom(1)).move is not None


def test_a_decoded_observation_holds_only_numbers_in_their_ranges() -> None:
    """What passes the checks is what the rules can reach: a game played through, every view of every seat."""
    for game, seats in GAMES:
        for seat in range(seats):
            obs = observe(game, seat)
            again = wire.observation_from_json_2(json.loads(json.dumps(wire.observation_json_2(obs))))
            assert again.players[seat].hand == obs.players[seat].hand
            if seats == 2:
                assert wire.observation_from_json(json.loads(json.dumps(wire.observation_json(obs)))) == obs


# ----------------------------------------------------------------------
# A real guest process fed a hostile host


def _hostile_views() -> Iterator[tuple[str, dict[str, object]]]:
    """Views of seat 2 at two seats in the people link's form (protocol 2's observation), each with one number out
    of what the rules can reach."""
    game, _ = GAMES[0]
    good = wire.observation_json_2(observe(game, 1))
    yield "a card out of range", _replaced(good, ("hand", 2), 99)  # type: ignore[misc]
    yield "a mileage of 10^15", _replaced(good, ("sides", 0, "mileage"), 10**15)  # type: ignore[misc]
    yield "a deck count below zero", _replaced(good, ("deck_count",), -40)  # type: ignore[misc]


HOSTILE_VIEWS = list(_hostile_views())


@pytest.mark.parametrize("plain", [False, True], ids=["board", "lines"])
@pytest.mark.parametrize(("what", "obs"), HOSTILE_VIEWS, ids=[v[0] for v in HOSTILE_VIEWS])
def test_a_guest_fed_a_hostile_host_ends_in_one_line_promptly(what: str, obs: dict[str, object], plain: bool) -> None:
    from helpers.people import Player, people
    from mille.engine.state import table
    from mille.ui.people import messages, rendezvous

    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # alice's process: the hostile host, in her own meeting place
            code = 1
            try:
                os.close(read_end)
                os.setgroups([])
                os.setgid(a_gid)
                os.setuid(a_uid)
                listener, _ = rendezvous.listen()
                os.write(write_end, b"ready\n")
                listener.settimeout(30)
                conn, _ = listener.accept()
                hello = messages.hello(alice, bob, 1, table(2), {0: alice, 1: bob})
                view = {**messages.view(observe(GAMES[0][0], 1), False), "obs": obs}
                conn.sendall(wire.encode(hello) + wire.encode(view))
                conn.settimeout(30)
                while conn.recv(4096):  # until the guest leaves
                    pass
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        assert os.read(read_end, 100) == b"ready\n"
        guest = Player(b_uid, b_gid, ["--plain", "--join", alice] if plain else ["--join", alice])
        try:
            start = time.monotonic()
            status = guest.reap(deadline=10)
            took = time.monotonic() - start
            said = guest.raw.decode("utf-8", "replace")
            assert status == 1 and took < 10, (status, said)
            assert "Traceback" not in said and said.count("mille: ") == 1, said
            [line] = [row for row in guest.screen.display if "mille: " in row]
            assert "mille: the host sent garbage (" in line, guest.text()
        finally:
            guest.kill()
            os.close(read_end)
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
