"""The loader against thousands of damaged files.

Every input must end in :class:`mille.files.save.SaveError` (one line) or in a
game that satisfies the invariants below and can be played on; never in
any other exception, a hang, or a game the engine chokes on.
"""

from __future__ import annotations

import json
import os
import random
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import TESTS
from helpers.saves import SAVES, continue_play
from mille.engine import cards
from mille.engine.state import Game
from mille.files import save

#: The version-2 samples in saves/ and the version-1 files they replaced.
SAMPLES = ("mid-hand", "extension", "end-of-hand", "v1/mid-hand", "v1/extension", "v1/end-of-hand")
SAVES_V1 = os.path.join(TESTS, "saves_v1")
TOP_FIELDS = {
    2: ["computer", "finished", "order", "trip_length", "pending_extension", "hand_starter", "to_move", "window",
        "deck_count", "discard", "memory"],
    1: ["finished", "order", "end", "on_exit", "pending_extension", "handstart", "numgos", "play", "window",
        "deck_count", "discard"],
}  # fmt: skip


def sample_bytes(name: str) -> bytes:
    if name.startswith("v1/"):
        path = os.path.join(SAVES_V1, f"{name[3:]}.json")
    else:
        path = os.path.join(SAVES, f"{name}.json")
    with open(path, "rb") as f:
        return f.read()


def assert_sane(game: Game) -> None:
    """Invariants checked independently of the loader's own checks."""
    assert sorted(game.deck) == sorted(cards.INITIAL_DECK)
    assert all(type(c) is int for c in game.deck)
    assert type(game.deck_count) is int and 0 <= game.deck_count <= cards.DECK_SIZE - 12
    assert game.trip_length in (700, 1000) and type(game.trip_length) is int
    assert game.to_move in (0, 1) and game.hand_starter in (0, 1)
    assert type(game.to_move) is int and type(game.hand_starter) is int
    for flag in (game.finished, game.order):
        assert type(flag) is bool
    assert game.pending_extension is None or type(game.pending_extension) is int
    for memory in game.memory:
        assert len(memory.num_seen) == cards.NUM_TABLE and memory.num_seen[-1] == 0
        assert all(0 <= n <= cards.COPIES[c] for c, n in enumerate(memory.num_seen[: cards.NUM_CODES]))
    assert cards.EMPTY <= game.discard < cards.NUM_CODES
    undrawn = sorted(game.deck[: game.deck_count])
    assert len(undrawn) == game.deck_count
    for p in game.players:
        assert len(p.hand) == cards.HAND_SIZE
        assert all(type(c) is int and cards.EMPTY <= c < cards.NUM_CODES for c in p.hand)
        assert p.battle in (cards.EMPTY, 5, 6, 7, 8, 10, 11, 12, 13)
        assert p.speed in (cards.EMPTY, cards.SPEED_LIMIT, cards.END_OF_LIMIT)
        assert len(p.safety) == 4 and all(s in (0, 1, 2) for s in p.safety)
        assert len(p.coups) == 4 and all(type(c) is bool for c in p.coups)
        assert len(p.nummiles) == 5 and p.nummiles[4] <= 2
        assert p.mileage == sum(n * cards.MILES[i] for i, n in enumerate(p.nummiles)) <= game.trip_length
        assert p.mileage % 25 == 0 and p.total % 25 == 0 and p.hand_total % 25 == 0
        for v in (p.can_go, p.fresh_hazard, p.fresh_limit):
            assert type(v) is bool
    # Every card is somewhere: undrawn, or dealt (hands and table).
    in_hands = sum(1 for p in game.players for c in p.hand if c != cards.EMPTY)
    assert in_hands <= cards.DECK_SIZE - game.deck_count


def load_or_error(data: bytes | str) -> save.SavedGame | None:
    try:
        loaded = save.loads(data)
    except save.SaveError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 200, message
        return None
    assert_sane(loaded.game)
    return loaded


def test_every_truncation_of_every_sample():
    loaded = 0
    for name in SAMPLES:
        data = sample_bytes(name)
        for n in range(len(data)):
            if load_or_error(data[:n]) is not None:
                loaded += 1
    # Only cutting trailing white space leaves a whole file.
    assert loaded == sum(len(sample_bytes(n)) - len(sample_bytes(n).rstrip()) for n in SAMPLES)


WEIRD = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    25,
    700,
    1000,
    10**30,
    -(10**30),
    0.5,
    1.0,
    1e308,
    "",
    "25",
    "Go",
    "Right of Way",
    "right of way",
    "\x00",
    "\u202e",
    "x" * 1000,
    [],
    [None],
    {},
    {"a": 1},
    [0] * 20,
    [None] * 7,
]


def _nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


def _mutate(doc, rnd: random.Random) -> None:
    nodes = list(_nodes(doc))
    path, value = rnd.choice(nodes[1:])
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    r = rnd.random()
    if r < 0.45:
        parent[key] = rnd.choice(WEIRD)
    elif r < 0.6 and type(value) is int:
        parent[key] = value + rnd.choice((-100, -25, -1, 1, 25, 100, 300))
    elif r < 0.7 and isinstance(value, (str, type(None))):
        parent[key] = rnd.choice((None, *cards.NAMES))
    elif r < 0.75 and type(value) is bool:
        parent[key] = not value
    elif r < 0.85 and isinstance(parent, dict):
        del parent[key]
        if rnd.random() < 0.5:
            parent[rnd.choice(("extra", key.upper(), key + " "))] = value
    elif isinstance(parent, list):
        if rnd.random() < 0.5:
            parent.append(value)
        else:
            j = rnd.randrange(len(parent))
            parent[key], parent[j] = parent[j], parent[key]
    else:
        parent[key] = rnd.choice(WEIRD)


def test_thousands_of_mutated_files():
    rnd = random.Random(2024)
    outcomes = {"error": 0, "loaded": 0}
    originals = {name: json.loads(sample_bytes(name)) for name in SAMPLES}
    for i in range(2400):
        doc = json.loads(json.dumps(originals[SAMPLES[i % len(SAMPLES)]]))
        for _ in range(1 + rnd.randrange(3)):
            _mutate(doc, rnd)
        loaded = load_or_error(json.dumps(doc))
        outcomes["error" if loaded is None else "loaded"] += 1
        if loaded is not None and i % 10 == 0:
            continue_play(loaded.game, i, 30)  # it plays on
    assert outcomes["error"] > 1500 and outcomes["loaded"] > 50, outcomes


def test_harmless_edits_still_load_and_play():
    """Flags a player may change at any time, and the card counting, load."""
    for name in ("mid-hand", "v1/mid-hand"):
        doc = json.loads(sample_bytes(name))
        doc["order"] = not doc["order"]
        doc["window"] = 1 - doc["window"]
        if "memory" in doc:
            doc["memory"][1]["num_gos"] = 0
            doc["computer"] = "expert"
        else:
            doc["numgos"] = 0
        loaded = load_or_error(json.dumps(doc))
        assert loaded is not None
        continue_play(loaded.game, 1, 100)


def test_byte_level_damage():
    rnd = random.Random(7)
    data = sample_bytes("mid-hand")
    for _ in range(2000):
        damaged = bytearray(data)
        for _ in range(1 + rnd.randrange(4)):
            op = rnd.random()
            pos = rnd.randrange(len(damaged))
            if op < 0.4:
                damaged[pos] = rnd.randrange(256)
            elif op < 0.7:
                del damaged[pos : pos + rnd.randrange(1, 40)]
            else:
                damaged[pos:pos] = rnd.choice((b"[", b"{", b'"', b"\\", b"\xff", b"\x00", b"1e999", b"-", b"]]"))
        load_or_error(bytes(damaged))


def test_random_foreign_bytes():
    rnd = random.Random(11)
    for n in range(1500):
        length = rnd.choice((0, 1, 2, 5, 50, 500, 5000))
        if n % 3 == 0:
            data = bytes(rnd.randrange(256) for _ in range(length))
        else:
            data = "".join(rnd.choice('{}[]":,0123456789.eE+-truefalsn \n\\') for _ in range(length)).encode()
        load_or_error(data)


def test_pathological_inputs_are_refused_quickly():
    for data in (
        b'"' + b'\\"' * 30_000,  # an unterminated string of escaped quotes
        b'["' + b"\\" * 60_000,
        b'{"' + b'\\"[' * 20_000,
        b"[" * 30_000 + b'"' + b"]" * 30_000,
        b"1" + b"0" * 60_000,
        b"-0." + b"0" * 60_000 + b"1",
    ):
        start = time.perf_counter()
        assert load_or_error(data) is None
        assert time.perf_counter() - start < 1.0, data[:20]


def test_deep_nesting_huge_files_and_long_numbers():
    for opener, closer in (("[", "]"), ('{"a":', "}")):
        for depth in (17, 100, 1000, 10_000, 30_000):
            load_or_error(opener * depth)
            load_or_error(opener * depth + "1" + closer * depth)
    load_or_error(b" " * (save.MAX_SIZE + 1))
    load_or_error(b"[" + b"1," * 30_000 + b"1]")
    load_or_error(b"9" * 60_000)
    load_or_error(b"-" + b"9" * 4000)
    load_or_error(b'"' + b"\\u0000" * 10_000 + b'"')
    doc = json.loads(sample_bytes("mid-hand"))
    doc["deck_count"] = int("9" * 4000)
    load_or_error(json.dumps(doc))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=12), children, max_size=8),
    max_leaves=15,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_arbitrary_json_is_refused_cleanly(value):
    assert load_or_error(json.dumps(value)) is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SAMPLES), pick=st.integers(0, 100), value=json_values)
def test_any_value_in_any_top_level_field(name, pick, value):
    doc = json.loads(sample_bytes(name))
    fields = TOP_FIELDS[doc["version"]]
    doc[fields[pick % len(fields)]] = value
    load_or_error(json.dumps(doc))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(SAMPLES),
    who=st.integers(0, 1),
    pick=st.integers(0, 100),
    value=json_values,
)
def test_any_value_in_any_player_field(name, who, pick, value):
    doc = json.loads(sample_bytes(name))
    fields = list(doc["players"][who])
    doc["players"][who][fields[pick % len(fields)]] = value
    load_or_error(json.dumps(doc))
