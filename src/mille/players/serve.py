"""The bot's side of the protocol: any player served over standard input and output.

:func:`serve` is what ``python -m mille.bot NAME`` runs: it answers the
host's greeting, makes the player ``NAME`` names (a built-in or
``module:attribute``, :func:`mille.players.make_player`), and from then on
turns each message into what an in-process player is told (``decide``
into ``decide``/``choose`` with the seat's
:class:`~mille.engine.observation.Observation`, ``event`` into
``inform``, ``hand_over`` into ``hand_over``) and each answer into a
``move`` message.  So a built-in player over the pipe plays exactly as it
does in the match's own process, which is how the protocol is tested: it
must carry everything a seat may know.

The dice: a ``game`` message with a seed gives the player a
:class:`~mille.engine.rng.GlibcRandom` of that seed, as the match hands an
in-process player its own fresh generator; one without (the player
declared ``dice = "game"``: the original's procedure, rolling the game's
own generator on the board) gives it :class:`HostDice`, whose every
``random()`` asks the host for a roll.

Speed (docs/protocol-speed.md): the hello asks for the ``compact``
encoding, whose ``decide`` lines are read straight into the
:class:`~mille.engine.observation.Observation` (one call of the C JSON
scanner on the array, no message dictionary), and
each ``move`` is written from a table of ready lines, one write; an
``event`` or ``hand_over`` is parsed only if the player has a hook to hear
it.  It asks for every decision (forced moves too) unless the player
declares ``every_decision = False``: a player whose forced moves change
nothing in it (the BSD procedure draws without rolling or counting).

Protocol 2 (docs/protocol.md, "Protocols 1 and 2"): the hello says
``"protocols": [1, 2]``, so the host speaks protocol 1 at the two-seat
table (compact, as above) and protocol 2 at the larger ones, as each
``game`` message says; a game of protocol 2 reads the observation of any
table (:func:`~mille.players.wire.observation_from_json_2`) and answers a
hazard with the side it goes to, so that ``mille.bot bsd`` plays any table
exactly as ``bsd`` in process (``tests/players/test_protocol_2.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, BinaryIO, cast

from ..engine.driver import Event
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.scoring import HandResult
from ..engine.state import Table
from ..engine.state import table as make_table
from . import make_player, wire
from .base import EXEC_PREFIX, Decision, Player, PlayerSpecError, decision

#: A player declaring this (an attribute ``dice``) rolls the game's own generator on the board.
GAME_DICE = "game"


class ProtocolError(Exception):
    """The host said something this side cannot follow (it is told on standard error, and the bot leaves)."""


class HostDice(GlibcRandom):
    """Dice rolled by the host: every ``random()`` is a ``roll`` message and its ``rolled`` answer.

    The generator itself is the host's (on the board, the game's own, whose
    state would reveal the deck), so it cannot be copied or read.
    """

    __slots__ = ("_channel",)

    def __init__(self, channel: _Channel) -> None:  # no state of its own: not seeded
        self._channel = channel

    def random(self) -> int:
        return self._channel.roll()

    def seed(self, seed: int) -> None:
        raise TypeError("the host's dice cannot be seeded")

    def getstate(self) -> tuple[tuple[int, ...], int, int]:
        raise TypeError("the host's dice have no state to read (the player declared dice = 'game')")

    def setstate(self, state: tuple[tuple[int, ...], int, int]) -> None:
        raise TypeError("the host's dice cannot be set")

    def copy(self) -> GlibcRandom:
        raise TypeError("the host's dice cannot be copied")

    def untouched(self) -> bool:
        return False

    @property
    def seeded_with(self) -> int | None:
        return None


class _Channel:
    """The pipe to the host: a line in, a line out."""

    def __init__(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def read(self) -> dict[str, object] | None:
        """The host's next message (None: it has gone)."""
        return self.parse(self.stdin.readline(wire.MAX_LINE + 1))

    def parse(self, line: bytes) -> dict[str, object] | None:
        """The message ``line`` holds (None: the host has gone, the line is empty)."""
        if not line:
            return None
        if not line.endswith(b"\n"):
            raise ProtocolError("a line from the host longer than the protocol allows, or cut short")
        try:
            return wire.read_message(line)
        except wire.WireError as exc:
            raise ProtocolError(str(exc)) from None

    def write(self, message: dict[str, object]) -> None:
        self.send(wire.encode(message))

    def send(self, line: bytes) -> None:
        """One line to the host, in one write."""
        self.stdout.write(line)
        self.stdout.flush()

    def roll(self) -> int:
        self.write({"type": "roll"})
        answer = self.read()
        if answer is None:
            raise ProtocolError("the host went away while rolling")
        value = answer.get("value")
        if answer["type"] != "rolled" or type(value) is not int:
            raise ProtocolError(f"asked to roll, the host answered {wire.excerpt(wire.encode(answer))}")
        return value


def serve(
    spec: str,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    name: str | None = None,
    games: int = 1,
) -> int:
    """Serve the player ``spec`` over the protocol until the host says ``quit`` or goes; the exit status.

    A player that raises ends the bot (the traceback on standard error,
    status 1), as any bot that fails: the host scores the game and, in a
    match, starts the bot again for the next.  ``games`` past 1 offers the
    host that many games at once (docs/protocol-speed.md, "Games in flight"): a
    player and dice of their own for each game's tag.
    """
    if spec.startswith(EXEC_PREFIX):
        raise PlayerSpecError(f"{spec!r}: a bot serves a player of its own process, not another program")
    channel = _Channel(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
    player = make_player(spec)  # a bad name fails before the handshake
    played = False  # the player has begun a game
    greeting = channel.read()
    if greeting is None:
        return 0
    if greeting["type"] != "mille" or greeting.get("protocol") != wire.PROTOCOL:
        raise ProtocolError(f"not a greeting this bot understands: {wire.excerpt(wire.encode(greeting))}")
    hello: dict[str, object] = {
        "type": "hello",
        "protocol": wire.PROTOCOL,
        "protocols": list(wire.PROTOCOLS),  # protocol 2 at the larger tables (a host of protocol 1 reads 1)
        "name": name or _name(player, spec),
    }
    if getattr(player, "dice", None) == GAME_DICE:
        hello["dice"] = GAME_DICE
    hello[wire.EVERY_DECISION] = getattr(player, "every_decision", True) is not False
    hello[wire.ENCODING] = wire.COMPACT
    if games > 1:
        hello[wire.GAMES] = min(games, wire.MAX_GAMES)
        hello[wire.LEGAL] = False  # the players find their legal moves themselves
        if not hasattr(player, "inform"):
            hello[wire.EVENTS] = False
    channel.write(hello)
    if games > 1:
        return _InFlight(spec, channel, player).run()
    dice: GlibcRandom = HostDice(channel)
    readline = channel.stdin.readline
    send = channel.send
    move_line = wire.move_line
    deaf = not hasattr(player, "inform")  # events are not parsed for a player that has no ear for them
    table: Table | None = None  # the game's table when the host speaks protocol 2 in it
    while True:
        line = readline(wire.MAX_LINE + 1)
        if deaf and line.startswith(_EVENT):  # most lines
            continue
        values = wire.compact_values(line)
        if values is not None:  # the fast path: the decide line as mille writes it
            made = _decided(player, values, dice)
            send(move_line(made.move, made.considered))
            continue
        if line.startswith(_HAND_OVER) and not hasattr(player, "hand_over"):
            continue
        message = channel.parse(line)
        if message is None:
            return 0
        kind = message["type"]
        if kind == "decide":
            obs = message.get("obs")
            if table is not None:
                observation = _compact(message.get("observation"), wire.observation_from_json_2)
                made = decision(player, observation, dice)
                send(wire.move_line_2(made.move, made.considered))
                continue
            if obs is not None:
                observation = _compact(obs, wire.observation_from_compact)
            else:
                observation = wire.observation_from_json(message.get("observation"))
            made = decision(player, observation, dice)
            send(move_line(made.move, made.considered))
        elif kind == "event":
            inform = getattr(player, "inform", None)
            if inform is not None:
                inform(wire.event_from_json(message) if table is None else _event_2(message, table))
        elif kind == "hand_over":
            hand_over = getattr(player, "hand_over", None)
            if hand_over is not None:
                result = message.get("result")
                hand_over(wire.result_from_json(result) if table is None else _result_2(result, table))
        elif kind == "game":
            # A new player on the host (every game of a match) is a new
            # player here, as the match makes one in process; the board's
            # next game goes on with the same one, as the board keeps its
            # computer.  A host without ``new`` said so by ``fresh``.
            if message.get("new", message.get("fresh")) is not False and played:
                player = make_player(spec)
                deaf = not hasattr(player, "inform")
            played = True
            table = _game_table(message)
            seed = message.get("dice")
            dice = GlibcRandom(seed) if type(seed) is int else HostDice(channel)
        elif kind == "quit":
            return 0
        # Any other message is from a later protocol: not for this bot.


class _Game:
    """One game's tag on the bot's side: its player, its dice, whether the player has begun a game, its table.

    The table is None in a game of protocol 1 (the two-seat table's); a host
    that plays a larger table speaks protocol 2 in it, untagged (games in
    flight are the two-seat match's), and the same bot answers it.
    """

    __slots__ = ("player", "dice", "played", "deaf", "table")

    def __init__(self, player: Player, dice: GlibcRandom) -> None:
        self.player = player
        self.dice = dice
        self.played = False
        self.deaf = not hasattr(player, "inform")
        self.table: Table | None = None


class _TagDice(HostDice):
    """The host's dice for one game in flight: the ``roll`` tagged, the other games' lines kept for later."""

    __slots__ = ("_tag",)

    def __init__(self, flight: _InFlight, tag: int | None) -> None:
        self._channel = flight  # type: ignore[assignment]
        self._tag = tag

    def random(self) -> int:
        flight = cast("_InFlight", self._channel)
        return flight.roll(self._tag)


class _InFlight:
    """The bot's side of games in flight: every line read, each game's answer written, a write per read.

    The host's lines carry a game's ``tag`` (an untagged line is the game
    of a host that plays one at a time); each tag has its own player (a new
    one for every new game, as in :func:`serve`) and its own dice.  The
    answers to all the lines one read brings are written at once.
    """

    def __init__(self, spec: str, channel: _Channel, player: Player) -> None:
        self.spec = spec
        self.channel = channel
        self.first: Player | None = player
        self.games: dict[int | None, _Game] = {}
        self.lines: list[bytes] = []
        self.partial = b""
        self.out: list[bytes] = []
        stdin = channel.stdin
        self.read1 = getattr(stdin, "read1", None) or stdin.read

    def fill(self) -> bool:
        """Read what the host has sent (at least one complete line, unless it has gone: False)."""
        while not self.lines:
            data = self.read1(1 << 16)
            if not data:
                return False
            data = self.partial + data
            cut = data.rfind(b"\n") + 1
            self.partial = data[cut:]
            if len(self.partial) > wire.MAX_LINE:
                raise ProtocolError("a line from the host longer than the protocol allows, or cut short")
            self.lines = data[:cut].splitlines(keepends=True)
            self.lines.reverse()
        return True

    def flush(self) -> None:
        if self.out:
            self.channel.send(b"".join(self.out))
            self.out.clear()

    def game(self, tag: int | None) -> _Game:
        found = self.games.get(tag)
        if found is None:
            player = self.first if self.first is not None else make_player(self.spec)
            self.first = None
            found = self.games[tag] = _Game(player, _TagDice(self, tag))
        return found

    def roll(self, tag: int | None) -> int:
        """A roll for game ``tag``: asked (with the answers so far), its ``rolled`` waited for; other lines kept."""
        ask = b'{"type":"roll"}\n'
        self.out.append(ask if tag is None else wire.tagged(ask, tag))
        self.flush()
        kept: list[bytes] = []
        try:
            while True:
                if not self.fill():
                    raise ProtocolError("the host went away while rolling")
                line = self.lines.pop()
                core, got = wire.untag(line.rstrip(b"\n"))
                if got == tag and core.startswith(b'{"type":"rolled",'):
                    answer = self.channel.parse(core + b"\n")
                    value = None if answer is None else answer.get("value")
                    if type(value) is not int:
                        raise ProtocolError(f"asked to roll, the host answered {wire.excerpt(line)}")
                    return value
                kept.append(line)
        finally:
            self.lines.extend(reversed(kept))

    def run(self) -> int:
        move_line = wire.move_line
        while True:
            if not self.lines:
                self.flush()
                if not self.fill():
                    return 0
            line = self.lines.pop()
            core, tag = wire.untag(line[:-1])
            if line.startswith(_EVENT):
                game = self.game(tag)
                if game.deaf:
                    continue
            values = wire.compact_values(core)  # it reads up to the array's end: no newline needed
            if values is not None:
                game = self.game(tag)
                made = _decided(game.player, values, game.dice)
                answer = move_line(made.move, made.considered)
                self.out.append(answer if tag is None else wire.tagged(answer, tag))
                continue
            message = self.channel.parse(core + b"\n")
            if message is None:
                return 0
            kind = message["type"]
            if kind == "quit":
                self.flush()
                return 0
            game = self.game(tag)
            player = game.player
            table = game.table
            if kind == "decide":
                if table is not None:
                    observation = _compact(message.get("observation"), wire.observation_from_json_2)
                    made = decision(player, observation, game.dice)
                    answer = wire.move_line_2(made.move, made.considered)
                else:
                    obs = message.get("obs")
                    if obs is not None:
                        observation = _compact(obs, wire.observation_from_compact)
                    else:
                        observation = wire.observation_from_json(message.get("observation"))
                    made = decision(player, observation, game.dice)
                    answer = move_line(made.move, made.considered)
                self.out.append(answer if tag is None else wire.tagged(answer, tag))
            elif kind == "event":
                inform = getattr(player, "inform", None)
                if inform is not None:
                    inform(wire.event_from_json(message) if table is None else _event_2(message, table))
            elif kind == "hand_over":
                hand_over = getattr(player, "hand_over", None)
                if hand_over is not None:
                    result = message.get("result")
                    hand_over(wire.result_from_json(result) if table is None else _result_2(result, table))
            elif kind == "game":
                if message.get("new", message.get("fresh")) is not False and game.played:
                    game.player = make_player(self.spec)
                    game.deaf = not hasattr(game.player, "inform")
                game.played = True
                game.table = _game_table(message)
                seed = message.get("dice")
                game.dice = GlibcRandom(seed) if type(seed) is int else _TagDice(self, tag)
            elif kind == "game_over" and tag is not None:
                self.games.pop(tag, None)  # the tag's next game is a new player's
            # Any other message is from a later protocol: not for this bot.


_EVENT = b'{"type":"event",'
_HAND_OVER = b'{"type":"hand_over",'


def _decided(player: Player, values: list[int], dice: GlibcRandom) -> Decision:
    """The player's decision on a compact ``decide``'s integers, checked as a bot of mille checks its host.

    The host that started this bot is checked roughly at every decision
    (:func:`~mille.players.wire.check_ints_roughly`: nothing that could make
    the player loop); a value within its C type but not its field (a card
    of 99) makes the player fail, and then the whole check names the field,
    the host's fault, as :class:`ProtocolError`, not the player's.
    """
    observation = _compact(values, _roughly)
    try:
        return decision(player, observation, dice)
    except Exception:
        _compact(values, wire.observation_from_ints)  # the host's numbers at fault: said so, in one line
        raise


def _roughly(values: list[int]) -> Observation:
    return wire.observation_from_ints(values, wire.check_ints_roughly)


def _compact(values: Any, read: Callable[[Any], Observation]) -> Observation:
    try:
        return read(values)
    except wire.WireError as exc:
        raise ProtocolError(str(exc)) from None


def _game_table(message: dict[str, object]) -> Table | None:
    """The table of a ``game`` message of protocol 2 (None: protocol 1, the two-seat table's)."""
    if message.get("protocol", wire.PROTOCOL) != wire.PROTOCOL_2:
        return None
    shape = message.get("table")
    try:
        if not isinstance(shape, dict):
            raise TypeError("no table")
        seats, points, parker = shape["seats"], shape["game_points"], shape["parker"]
        if type(seats) is not int or type(points) is not int or type(parker) is not bool:
            raise TypeError("a table of the wrong shape")
        return make_table(seats, game_points=points, parker=parker)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"a game of protocol 2 without its table ({exc})") from None


def _event_2(message: dict[str, object], table: Table) -> Event:
    try:
        return wire.event_from_json_2(message, table.seats)
    except wire.WireError as exc:
        raise ProtocolError(str(exc)) from None


def _result_2(result: object, table: Table) -> HandResult:
    try:
        return wire.result_from_json_2(result, table)
    except wire.WireError as exc:
        raise ProtocolError(str(exc)) from None


def _name(player: Player, spec: str) -> str:
    name = getattr(player, "name", None)
    return name if isinstance(name, str) and name else spec


__all__ = ["GAME_DICE", "HostDice", "ProtocolError", "serve"]
