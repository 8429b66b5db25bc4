"""Any program as a player: ``exec:COMMAND``, a bot in its own process, spoken to over a pipe.

:class:`ExternalPlayer` is the host's side of the bot protocol
(``docs/protocol.md``; the messages are :mod:`mille.players.wire`'s, the
process, its pipes, logs and pool :mod:`mille.players.botprocess`'s).  The
bot sees nothing but the messages: its seat's observation at each
decision, the moves made at the table, the hands' results.

A bot that crashes, answers garbage or an illegal move, or does not answer
within the time allowed raises :class:`~mille.engine.driver.PlayerError`
(``exception``, ``illegal``, ``timeout``) with the reason and its log's
name; it is then killed with its whole process group and reaped, and the
next game starts a new one.  Every exchange has a deadline
(:data:`DEFAULT_DEADLINE` per decision, or the think-time limit a match
sets with :meth:`ExternalPlayer.limit_think`).

Protocol 2 (docs/protocol.md, "Protocols 1 and 2") is chosen for each
game, at its first message: at a table of more than two seats, or for a
bot whose hello offers protocol 2 alone.  Its ``game`` names the table,
its ``decide`` carries :func:`~mille.players.wire.observation_json_2` (a
coup fourré asked out of turn included), its events the mover's side; a
bot of protocol 1 alone never sits at a larger table (:func:`check_table`,
which the commands call before any game).
"""

from __future__ import annotations

import select
import time
import weakref
from typing import cast

from ..engine.cards import EMPTY, SAFETY_BASE
from ..engine.driver import Event, Pending, PlayerError
from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.rules import DRAW, Move, MoveType, Phase
from ..engine.scoring import HandResult
from ..engine.state import Game
from . import wire
from .base import EXEC_PREFIX, Decision, PlayerSpecError, weighed
from .botprocess import (
    ABANDONED,
    HANDSHAKE_DEADLINE,
    LOGS_VARIABLE,
    MAX_LOG,
    Bot,
    BotFailure,
    acquire,
    acquire_tag,
    release,
    release_tag,
    set_log_directory,
    shutdown,
    split_command,
)

#: Seconds a bot has for one decision when no think-time limit is set.
DEFAULT_DEADLINE = 30.0
#: Bytes of ``rolled`` answers a bot may leave unread (it asks for rolls and does not read them):
#: past this it forfeits, so that a bot cannot grow the host's memory without bound.
MAX_UNREAD_ROLLS = 1 << 20
PREFIX = EXEC_PREFIX


class ExternalPlayer:
    """The player ``exec:COMMAND``: a bot program spoken to over the protocol.

    Made, it has a running bot that has said hello (:class:`PlayerSpecError`
    if none can be started): ``name`` is the name the bot gave, ``dice`` is
    ``"game"`` if the bot declared itself the original's procedure, which
    rolls the game's own generator (:func:`mille.ui.session.computer_player` then
    hands it that), else None.

    The bot's process is its own until :meth:`close` (or until the player
    is dropped), then idle for the next player: one that has never seen
    ``deal`` (:func:`~mille.players.botprocess.acquire`; a match passes
    the pair's, so that no process plays both games of a pair).  A
    process's first game says ``fresh``; every game after it on the same
    process (the board's next game, a match's next pair) does not.  A
    player's first game says ``new`` (a match makes a player for every
    game; the board keeps its computer for the next).  Whether the ``dice`` it is
    handed are the game's is the seat's business (:func:`mille.ui.session.computer_player`,
    :func:`mille.lab.play.play_game`): a bot's own dice unless the person
    running mille said that this bot can read the deck.
    """

    def __init__(self, spec: str, deal: int | None = None) -> None:
        if not spec.startswith(PREFIX):
            spec = PREFIX + spec
        self.spec = spec
        self._bot: Bot | None = acquire(spec, deal)
        self.name = self._bot.name
        self.dice = self._bot.dice
        #: The protocols the bot speaks (its hello): a table of more than two seats needs 2 (:func:`table_refusal`).
        self.protocols = self._bot.protocols
        self._limit: float | None = None
        #: Games begun by this player (its first says ``new``: a new player on the host).
        self._games = 0
        self._open = False
        #: Messages of the game before its first decision (sent after the ``game`` message; an event is
        #: written then, in the game's protocol).
        self._early: list[bytes | Event] = []
        #: This game is spoken in protocol 2 (any table), at ``_seat`` of a table of ``_sides`` sides.
        self._v2 = False
        self._seat = 0
        self._sides = 2
        self._finalizer = weakref.finalize(self, release, self._bot)

    def limit_think(self, seconds: float | None) -> None:
        """Allow ``seconds`` per decision (a match's ``--max-think-ms``); None: :data:`DEFAULT_DEADLINE`."""
        self._limit = seconds

    # -- the player protocol ---------------------------------------------------
    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return self.decide(observation, rng).move

    def decide(self, observation: Observation, rng: GlibcRandom) -> Decision:
        """The bot's move, and whether it weighed its hand for it (see :class:`~mille.players.Decision`).

        A forced move (one legal move: the draw when no safety can be
        played) is made here without asking, unless the bot's hello asked
        for every decision; the bot learns it from its ``event``, as every
        move (docs/protocol-speed.md).
        """
        seat = observation.seat
        bot = self._bot
        if bot is None or not bot.alive:
            raise PlayerError(seat, "exception", "the bot is not running (it failed earlier)")
        if not bot.every_decision and _draws_by_force(observation):  # half the decisions: no legal moves computed
            if not self._open:
                self._begin(bot, observation, rng)
            return _FORCED_DRAW
        legal = observation.legal_moves()
        if len(legal) == 1 and not bot.every_decision:
            if not self._open:
                self._begin(bot, observation, rng)
            move = legal[0]
            return Decision(move, weighed(move, observation))
        limit = DEFAULT_DEADLINE if self._limit is None else self._limit
        deadline = time.monotonic() + limit
        try:
            bot.check_quiet()
            if not self._open:
                self._begin(bot, observation, rng)
            if self._v2:
                bot.send(
                    wire.encode(
                        {
                            "type": "decide",
                            "observation": wire.observation_json_2(observation),
                            "legal": [wire.move_json_2(m) for m in legal],
                        }
                    )
                )
            elif bot.compact:
                bot.send(wire.compact_decide_line(observation, legal))
            else:
                bot.send(
                    wire.encode(
                        {
                            "type": "decide",
                            "observation": wire.observation_json(observation),
                            "legal": [wire.move_json(m) for m in legal],
                        }
                    )
                )
            considered: bool | None
            while True:
                line = bot.exchange(deadline, f"did not answer within {limit * 1000:g} ms", "before its move")
                known = wire.known_answer(line)
                if known is not None:
                    move, considered = known
                    break
                answer = wire.read_message(line)
                kind = answer["type"]
                if kind == "roll":
                    if len(bot.out) > MAX_UNREAD_ROLLS:
                        raise BotFailure(
                            "illegal",
                            f"asked for rolls without reading them ({MAX_UNREAD_ROLLS} bytes of answers unread)",
                        )
                    bot.send(b'{"type":"rolled","value":%d}\n' % rng.random())
                    continue
                if kind != "move":
                    raise BotFailure("illegal", f"answered a {wire.excerpt(str(kind))} message, not a move")
                if self._v2:
                    move = wire.move_from_json_2(answer.get("move"), self._sides)
                else:
                    move = wire.move_from_json(answer.get("move"))
                said = answer.get("considered")
                if said is not None and type(said) is not bool:
                    raise BotFailure("illegal", "answered 'considered' that is not true or false")
                considered = said
                break
            if not any(m is move for m in legal) and move not in legal:  # the engine's own moves, by identity first
                text = " ".join(str(m) for m in legal)
                raise BotFailure("illegal", f"chose {move}, which is not a legal move (legal: {text})")
            if bot.buf:
                raise BotFailure("illegal", f"wrote more after its move: {wire.excerpt(bytes(bot.buf))}")
            if considered is None:
                considered = weighed(move, observation)
        except BotFailure as exc:
            message = bot.describe(exc)
            bot.fail()
            raise PlayerError(seat, exc.kind, message) from None
        except wire.WireError as exc:
            message = bot.describe(BotFailure("illegal", f"answered garbage: {exc}"))
            bot.fail()
            raise PlayerError(seat, "illegal", message) from None
        except BaseException:  # an alarm, Ctrl-C: the bot is mid-answer, and of no use now
            bot.fail()
            raise
        return Decision(move, considered)

    def inform(self, event: Event) -> None:
        bot = self._bot
        if not self._open:
            if bot is not None and bot.alive:
                self._early.append(event)  # written at the game's start, in its protocol
        elif self._v2:
            line = self._event_line_2(event)
            if line is not None and bot is not None and bot.alive:
                bot.send(line)
        elif bot is not None and bot.alive:  # _tell, written out: two events for every move
            bot.send(wire.event_line(event))

    def hand_over(self, result: HandResult) -> None:
        self._tell(wire.encode({"type": "hand_over", "result": wire.result_json(result)}))
        if result.game_over:
            over = {"type": "game_over", "finished": True, "totals": list(result.totals), "winner": result.game_winner}
            self._tell(wire.encode(over))
            bot = self._bot
            if self._open and bot is not None:
                bot.game_open = False
            self._open = False
            self._early.clear()

    def close(self) -> None:
        """Done with the bot: its process is told to quit (a game not finished is ended as abandoned first)."""
        self._finalizer()
        self._bot = None

    # -- inside --------------------------------------------------------------
    def _begin(self, bot: Bot, observation: Observation, rng: GlibcRandom) -> None:
        """Send the ``game`` message (and what the game said before it): the seat, the dice, fresh or not."""
        if bot.game_open:  # another player's game, never finished on this process
            bot.send(ABANDONED)
        table = observation.table
        self._seat = observation.seat
        self._sides = table.sides
        self._v2 = table.seats != 2 or wire.PROTOCOL not in self.protocols
        if self._v2 and wire.PROTOCOL_2 not in self.protocols:
            raise PlayerError(observation.seat, "exception", table_refusal(self.spec, table.seats))
        if self.dice == "game":
            dice = None
        elif rng.untouched():
            dice = rng.seeded_with
        else:
            dice = rng.random()
        if self._v2:
            bot.send(
                wire.encode(
                    {
                        "type": "game",
                        "protocol": wire.PROTOCOL_2,
                        "seat": observation.seat,
                        "side": observation.seat % table.sides,
                        "table": wire.table_json(table),
                        "dice": dice,
                        "fresh": bot.games == 0,
                        "new": self._games == 0,
                    }
                )
            )
        else:
            bot.send(
                wire.encode(
                    {
                        "type": "game",
                        "seat": observation.seat,
                        "dice": dice,
                        "fresh": bot.games == 0,
                        "new": self._games == 0,
                    }
                )
            )
        for early in self._early:
            if isinstance(early, Event):
                line = self._event_line_2(early) if self._v2 else wire.event_line(early)
                if line is None:
                    continue
                bot.send(line)
            else:
                bot.send(early)
        self._early.clear()
        bot.games += 1
        self._games += 1
        self._open = True
        bot.game_open = True

    def _event_line_2(self, event: Event) -> bytes | None:
        """An event in protocol 2; None for another seat's pass, which is not told.

        A seat passes when it holds no cards, which ``hand_sizes`` shows,
        or when it declines a coup fourré it was asked for out of turn
        (``Phase.REACTION``): being asked tells that it holds the safety,
        which is its own secret (``table-rules.md`` R6, R10).
        """
        if event.kind is MoveType.PASS and event.seat != self._seat:
            return None
        return wire.event_line_2(event, self._sides)

    def _tell(self, line: bytes) -> None:
        bot = self._bot
        if bot is None or not bot.alive:
            return
        if self._open:
            bot.send(line)
        else:
            self._early.append(line)


# --------------------------------------------------------------------------
# Games in flight (docs/protocol-speed.md, "Games in flight")


class Awaited(Pending):
    """A decision asked of a bot that plays games in flight: answered by :func:`exchange`.

    Made by :meth:`InFlightPlayer.choose`; the match's timing of the seat
    (:class:`mille.lab.play._Timed`) fills ``stats``; :func:`exchange`
    fills ``move`` or ``error`` (a :class:`PlayerError` for the game).
    """

    __slots__ = ("bot", "tag", "seat", "legal", "rng", "limit", "sent", "deadline", "stats", "move", "error", "owner")

    def __init__(
        self, bot: Bot, tag: int, seat: int, legal: list[Move] | None, rng: GlibcRandom, limit: float | None
    ) -> None:
        self.bot = bot
        self.tag = tag
        self.seat = seat
        self.legal = legal
        self.rng = rng
        self.limit = limit  # the match's think-time limit (None: DEFAULT_DEADLINE, unmeasured)
        self.sent = 0.0
        self.deadline = 0.0
        self.stats: object = None
        self.move: Move | None = None
        self.error: PlayerError | None = None
        self.owner: object = None  # the game waiting for it (the scheduler's)


class InFlightPlayer:
    """The player ``exec:COMMAND`` for a bot whose hello offered ``games`` > 1: one game of several on one process.

    As :class:`ExternalPlayer`, but every message carries the game's tag,
    and :meth:`choose` does not wait: it queues the ``decide`` and returns
    an :class:`Awaited`, which the hand driver yields
    (:func:`mille.engine.driver.hand_steps`) and :func:`exchange` answers,
    for all the games in flight at once (one write and one read carry
    several games' messages).  Forced moves are made here without asking,
    unless the bot asked for every decision.
    """

    def __init__(self, spec: str, deal: int | None = None) -> None:
        if not spec.startswith(PREFIX):
            spec = PREFIX + spec
        self.spec = spec
        self._bot, self._tag = acquire_tag(spec, deal)
        self.name = self._bot.name
        self.dice = self._bot.dice
        self._limit: float | None = None
        self._open = False
        self._early: list[bytes] = []
        self._finalizer = weakref.finalize(self, release_tag, self._bot, self._tag)
        if self._bot.events:  # else the driver, finding no ear, tells it nothing
            self.inform = self._inform
        if not self._bot.every_decision:  # the driver makes its forced draws, without even observing
            self.forced_draw = self._forced_draw
            if not self._bot.legal and self._bot.compact:  # and asks the rest without an observation
                self.choose_unobserved = self._choose_unobserved

    def _choose_unobserved(self, game: Game, seat: int, rng: GlibcRandom) -> Move:
        """:meth:`choose`'s question for a compact bot that finds its legal moves, written from the game.

        Only with ``forced_draw`` (the driver has made the forced draws):
        what is left is always asked.  The line is the one :meth:`choose`
        writes (:func:`~mille.players.wire.compact_game_line`), without the
        observation's copies: the most frequent work of the host in a match
        of such bots (issue 39).
        """
        bot = self._bot
        if not bot.alive:
            raise PlayerError(seat, "exception", bot.failure or "the bot is not running (it failed earlier)")
        if not self._open:
            self._begin(bot, seat, rng)
        bot.send(wire.compact_game_line(game, seat, self._tag))
        awaited = Awaited(bot, self._tag, seat, None, rng, self._limit)
        bot.waiting[self._tag] = awaited
        bot.unsent.append(awaited)
        return cast(Move, awaited)

    def _forced_draw(self) -> None:
        """A forced draw made by the driver: told as an event, if at all; the game begins at the first question."""

    def limit_think(self, seconds: float | None) -> None:
        self._limit = seconds

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        """The move if forced, else an :class:`Awaited` (typed as the move it stands for: the driver yields it)."""
        seat = observation.seat
        bot = self._bot
        if not bot.alive:
            raise PlayerError(seat, "exception", bot.failure or "the bot is not running (it failed earlier)")
        if not bot.every_decision and _draws_by_force(observation):
            if not self._open:
                self._begin(bot, observation.seat, rng)
            return DRAW
        if not bot.legal and bot.compact:  # the bot finds the legal moves itself; the rules referee its answer
            if not self._open:
                self._begin(bot, observation.seat, rng)
            bot.send(wire.tagged(wire.without_legal(wire.compact_decide_line(observation, _NONE)), self._tag))
            awaited = Awaited(bot, self._tag, seat, None, rng, self._limit)
            bot.waiting[self._tag] = awaited
            bot.unsent.append(awaited)
            return cast(Move, awaited)
        legal = observation.legal_moves()
        if len(legal) == 1 and not bot.every_decision:
            if not self._open:
                self._begin(bot, observation.seat, rng)
            return legal[0]
        if not self._open:
            self._begin(bot, observation.seat, rng)
        if bot.compact:
            line = wire.compact_decide_line(observation, legal)
        else:
            line = wire.encode(
                {
                    "type": "decide",
                    "observation": wire.observation_json(observation),
                    "legal": [wire.move_json(m) for m in legal],
                }
            )
        bot.send(wire.tagged(line, self._tag))
        awaited = Awaited(bot, self._tag, seat, legal, rng, self._limit)
        bot.waiting[self._tag] = awaited
        bot.unsent.append(awaited)
        return cast(Move, awaited)

    def _inform(self, event: Event) -> None:
        self._tell(wire.event_line(event))

    def hand_over(self, result: HandResult) -> None:
        self._tell(wire.encode({"type": "hand_over", "result": wire.result_json(result)}))
        if result.game_over:
            over = {"type": "game_over", "finished": True, "totals": list(result.totals), "winner": result.game_winner}
            self._tell(wire.encode(over))
            if self._open:
                self._bot.open_tags.discard(self._tag)
            self._open = False
            self._early.clear()

    def close(self) -> None:
        self._finalizer()

    def _begin(self, bot: Bot, seat: int, rng: GlibcRandom) -> None:
        tag = self._tag
        if tag in bot.open_tags:  # an earlier game on this tag, never finished (its other player failed)
            bot.send(wire.tagged(ABANDONED, tag))
        # A match's seat rolls dice of its own, never the game's generator (mille.lab.play): so a bot
        # that declared dice "game" is handed their seed like any other, and rolls them without asking
        # (the same numbers the host would roll for it, with no round trip that stalls its other games).
        if rng.untouched():
            dice = rng.seeded_with
        else:
            dice = rng.random()
        game = {"type": "game", "seat": seat, "dice": dice, "fresh": bot.games == 0, "new": True}
        bot.send(wire.tagged(wire.encode(game), tag))
        for line in self._early:
            bot.send(line)
        self._early.clear()
        bot.games += 1
        self._open = True
        bot.open_tags.add(tag)

    def _tell(self, line: bytes) -> None:
        bot = self._bot
        if not bot.alive:
            return
        line = wire.tagged(line, self._tag)
        if self._open:
            bot.send(line)
        else:
            self._early.append(line)


def exchange(bots: list[Bot]) -> list[Awaited]:
    """Write what is queued for ``bots``, wait for answers, and return the decisions answered (at least one).

    Each bot's queued messages go in one write; each read takes whatever
    answers are there, for any of its games.  A bot that fails (exits,
    answers garbage, an illegal move or a game it was not asked about,
    misses a deadline) is killed with its group; every decision it still
    owed comes back with ``error`` set: the game that caused it with the
    failure's kind, the others as an ``exception`` that says so.  An answer
    measured past the match's limit comes back as a ``timeout`` for its
    game alone (the bot answered: it goes on with its other games).
    """
    answered: list[Awaited] = []
    now = time.monotonic()
    poller = select.poll()
    by_fd: dict[int, Bot] = {}
    settled = False
    for bot in bots:
        if not bot.alive:
            continue
        for awaited in bot.unsent:
            assert isinstance(awaited, Awaited)
            awaited.sent = now
            awaited.deadline = now + (DEFAULT_DEADLINE if awaited.limit is None else awaited.limit)
        bot.unsent.clear()
        if bot.out:
            try:
                bot.write()
            except BotFailure as exc:
                _failed(bot, exc, None, answered)
                settled = True
                continue
        by_fd[bot.stdout] = bot
        poller.register(bot.stdout, select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR)
        if bot.stderr is not None:
            by_fd[bot.stderr] = bot
            poller.register(bot.stderr, select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR)
        if bot.out:
            by_fd[bot.stdin] = bot
            poller.register(bot.stdin, select.POLLOUT | select.POLLHUP | select.POLLERR)
    # Until one bot has answered all it was asked (or failed): its games then go on while the others
    # think, and the next write to it carries all their next questions (fewer writes, fewer switches).
    while by_fd and not (answered and settled):
        first = min(
            (cast(Awaited, a).deadline for b in bots if b.alive for a in b.waiting.values()), default=now + 0.25
        )
        ready = poller.poll(max(0.0, min(first - time.monotonic(), 0.25)) * 1000.0)
        now = time.monotonic()
        for fd, _ in ready:
            found = by_fd.get(fd)
            if found is None or not found.alive:
                continue
            bot = found
            try:
                if fd == bot.stdout:
                    data = bot.read(fd)
                    if data is None:
                        continue
                    if not data:
                        raise BotFailure("exception", f"{bot.ended(bot.settle())} before its move")
                    bot.buf += data
                    _answers(bot, now, answered)
                    settled = settled or not bot.waiting
                elif fd == bot.stdin:
                    bot.write()
                    if not bot.out:
                        poller.unregister(fd)
                        del by_fd[fd]
                else:
                    bot.log(bot.read(fd))
                    if bot.stderr is None:
                        poller.unregister(fd)
                        del by_fd[fd]
            except BotFailure as exc:
                _failed(bot, exc, getattr(exc, "tag", None), answered)
                settled = True
            except wire.WireError as exc:
                _failed(bot, BotFailure("illegal", f"answered garbage: {exc}"), None, answered)
                settled = True
            if not bot.alive:
                for key in [k for k, b in by_fd.items() if b is bot]:
                    poller.unregister(key)
                    del by_fd[key]
        for bot in bots:  # the deadlines
            if bot.alive and any(cast(Awaited, a).deadline <= now for a in bot.waiting.values()):
                late = min(bot.waiting.values(), key=lambda a: cast(Awaited, a).deadline)
                limit = cast(Awaited, late).limit
                ms = (DEFAULT_DEADLINE if limit is None else limit) * 1000
                _failed(
                    bot, BotFailure("timeout", f"did not answer within {ms:g} ms"), cast(Awaited, late).tag, answered
                )
                settled = True
                for key in [k for k, b in by_fd.items() if b is bot]:
                    poller.unregister(key)
                    del by_fd[key]
    return answered


def _answers(bot: Bot, now: float, answered: list[Awaited]) -> None:
    """The complete lines ``bot`` has written: each a game's answer (or a roll it asks for)."""
    buf = bot.buf
    while True:
        end = buf.find(b"\n")
        if end < 0:
            if len(buf) > wire.MAX_LINE:
                raise BotFailure("illegal", f"wrote a line longer than {wire.MAX_LINE} bytes")
            return
        line = bytes(buf[:end])
        del buf[: end + 1]
        core, tag = wire.untag(line)
        message: dict[str, object] | None = None
        if tag is None:
            message = wire.read_message(line)
            found = message.get(wire.TAG)
            if type(found) is not int:
                raise BotFailure("illegal", f"answered without a game's tag: {wire.excerpt(line)}")
            tag = found
        awaited = cast("Awaited | None", bot.waiting.get(tag))
        if awaited is None:
            raise _tagged(BotFailure("illegal", f"answered for game tag {tag}, which was not asked to move"), tag)
        known = wire.known_answer(core)
        if known is not None:
            move = known[0]
        else:
            if message is None:
                message = wire.read_message(line)
            kind = message["type"]
            if kind == "roll":
                if len(bot.out) > MAX_UNREAD_ROLLS:
                    raise _tagged(
                        BotFailure(
                            "illegal",
                            f"asked for rolls without reading them ({MAX_UNREAD_ROLLS} bytes of answers unread)",
                        ),
                        tag,
                    )
                bot.send(wire.tagged(b'{"type":"rolled","value":%d}\n' % awaited.rng.random(), tag))
                bot.write()
                continue
            if kind != "move":
                raise _tagged(BotFailure("illegal", f"answered a {wire.excerpt(str(kind))} message, not a move"), tag)
            try:
                move = wire.move_from_json(message.get("move"))
            except wire.WireError as exc:
                raise _tagged(BotFailure("illegal", f"answered garbage: {exc}"), tag) from None
            said = message.get("considered")
            if said is not None and type(said) is not bool:
                raise _tagged(BotFailure("illegal", "answered 'considered' that is not true or false"), tag)
        legal = awaited.legal
        if legal is not None and not any(m is move for m in legal) and move not in legal:
            text = " ".join(str(m) for m in legal)
            raise _tagged(BotFailure("illegal", f"chose {move}, which is not a legal move (legal: {text})"), tag)
        del bot.waiting[tag]
        awaited.move = move
        elapsed = now - awaited.sent
        add = getattr(awaited.stats, "add", None)
        if add is not None:
            add(elapsed)
        limit = awaited.limit
        if limit is not None and elapsed > limit:
            message_ = f"took {elapsed * 1000:.1f} ms (limit {limit * 1000:g} ms)"
            awaited.error = PlayerError(awaited.seat, "timeout", message_)
        answered.append(awaited)


def _tagged(exc: BotFailure, tag: int) -> BotFailure:
    exc.tag = tag  # type: ignore[attr-defined]
    return exc


def _failed(bot: Bot, exc: BotFailure, tag: int | None, answered: list[Awaited]) -> None:
    """``bot`` broke the protocol: killed; each decision it owed answered with the failure."""
    message = bot.describe(exc)
    bot.fail()
    bot.failure = f"its process failed in another game: {message}"
    for key, value in list(bot.waiting.items()):
        awaited = cast(Awaited, value)
        if tag is None or key == tag:
            awaited.error = PlayerError(awaited.seat, exc.kind, message)
        else:
            awaited.error = PlayerError(awaited.seat, "exception", bot.failure)
        answered.append(awaited)
    bot.waiting.clear()
    bot.unsent.clear()


def _draws_by_force(obs: Observation) -> bool:
    """Whether the seat's only legal move is the draw, known without computing every legal move.

    Before drawing (the ``P`` slot empty, cards in the deck) only the draw
    and a safety that answers the hazard showing are accepted
    (:func:`~mille.engine.rules.play_refusal`, ``discard_refusal``:
    ``MUST_PICK``); a hand without a safety has the draw alone.  A
    shortcut, not a rule of its own: ``tests/players/test_protocol_speed.py`` checks
    that it agrees with ``legal_moves`` wherever it says so.
    """
    hand = obs.players[obs.seat].hand
    return (
        obs.phase is Phase.MOVE
        and obs.to_move == obs.seat
        and hand[0] == EMPTY
        and obs.deck_count > 0
        and max(hand) < SAFETY_BASE
    )


def table_refusal(spec: str, seats: int) -> str:
    """Why a bot of protocol 1 alone cannot sit at the table of ``seats`` (one line, naming it)."""
    return (
        f"{spec}: its hello says protocol 1 alone, the two-seat table's; the table of {seats} needs a bot "
        f"that speaks protocol 2 (docs/protocol.md)"
    )


def check_table(player: object, spec: str, seats: int) -> None:
    """:class:`PlayerSpecError` if ``player`` cannot sit at the table of ``seats``: a bot of protocol 1 alone."""
    protocols = getattr(player, "protocols", None)
    if seats != 2 and protocols is not None and wire.PROTOCOL_2 not in protocols:
        raise PlayerSpecError(table_refusal(spec, seats))


_NONE: list[Move] = []
_FORCED_DRAW = Decision(DRAW, False)  # weighed(DRAW, ...): a draw is never considered

__all__ = [
    "DEFAULT_DEADLINE",
    "MAX_UNREAD_ROLLS",
    "HANDSHAKE_DEADLINE",
    "LOGS_VARIABLE",
    "MAX_LOG",
    "PREFIX",
    "Awaited",
    "ExternalPlayer",
    "check_table",
    "table_refusal",
    "InFlightPlayer",
    "exchange",
    "set_log_directory",
    "shutdown",
    "split_command",
]
