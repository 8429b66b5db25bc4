"""Plain mode: the game's flow, said and asked in lines (``mille --plain``, issue 32).

:class:`PlainFace` is the face (:class:`mille.ui.flow.Face`) that the
game's flow (:class:`mille.ui.flow.GameFlow`: the loop, the seats, the
questions, the record of games, the keeping on a hangup) holds to show the
game in lines instead of the board (:func:`plain_flow` makes the two): the same engine,
rules, messages, computer and questions, in the same order, for screen
readers, braille displays, dumb terminals and scripts.  Events are said
as they happen, one sentence each, by the face's
:class:`~mille.ui.plain.speaker.Speaker` (the same sentences at every
table, from the face's seat ``me``, the seats named by its
:class:`~mille.ui.plain.speaker.Naming`: "you" and "the computer" alone
at two seats, seats and sides at the larger tables, people by name); the board
is read on request (:mod:`mille.ui.plain.commands`: ``r``, ``w``, ``c``,
``m``, ``?``), never redrawn; each wait prints its prompt once, as a line;
input is a line at a time (:mod:`mille.ui.plain.lines`).  Nothing waits on
time: a coup fourré is the original's, the next move before drawing
(§3.7).

Two levels of detail (``--detail``, the ``detail`` setting, the ``v`` key):
*brief* says your picks, the computer's plays and discards, the
refusals, the questions and the end of each hand; *full* adds the
computer's picks with the deck's count, the running totals at the start of
your turn, and what you may play at each move prompt.
"""

from __future__ import annotations

from collections import deque

from ...engine import cards, rules
from ...engine.cards import EMPTY, OUT_OF_GAS, SPEED_LIMIT, STOP
from ...engine.rules import DRAW, ORDER, Move, MoveType
from ...engine.state import Game, Tableau
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, PROMPTS, Flow, GameFlow, Request, Setup, as_seen, wait_polling
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT
from . import BRIEF, DETAILS, FULL
from .commands import HELP, Command, Parsed, parse, parse_slot
from .lines import MAX_LINE, TOO_LONG
from .speaker import Naming, Speaker, moved_sentence, side_letter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...engine.observation import Observation
    from ...engine.rules import Outcome
    from ...players import Decision
    from ..flow import Choice
    from .lines import LineTerminal

__all__ = ["BRIEF", "DETAILS", "FILE_LINE", "FULL", "HISTORY", "MOVE_LINE", "PlainFace", "plain_flow"]

#: Messages kept for ``m``, and how many it reads unless told.
HISTORY = 200
HISTORY_SHOWN = 20
#: The move prompt, as a line (the board's is ``>>:Move:`` in standout).
MOVE_LINE = "Your move:"
#: The file-name prompt: the original's word, and what RETURN alone does.
FILE_LINE = "file: (a name and RETURN; RETURN alone cancels)"


def plain_flow(term: LineTerminal, game: Game, setup: Setup, *, detail: str = BRIEF) -> GameFlow:
    """One program run in lines: the game's flow holding a :class:`PlainFace` on ``term``.

    The arguments are :func:`mille.ui.app.board_flow`'s, plus ``detail``
    (:data:`BRIEF` or :data:`FULL`).
    """
    return GameFlow(PlainFace(term, game, setup.window, detail=detail), game, setup)


class PlainFace:
    """The game said on :attr:`term`, in lines, to the person at seat ``me``.

    ``window`` is only kept: the board's score window layout a restored
    game was saved with goes back into its next save unchanged.
    ``naming`` is how the seats are named (None: alone at the game's table,
    ``Naming.at(game.table)``); ``me`` the seat spoken for and read for, in
    the host's numbering (a guest's seat; the flow's person is seat 0).
    Every sentence is the :attr:`speaker`'s: the face never looks at the
    table's size.
    """

    def __init__(
        self,
        term: LineTerminal,
        game: Game,
        window: int,
        *,
        detail: str = BRIEF,
        naming: Naming | None = None,
        me: int = 0,
    ) -> None:
        self.term = term
        self.game = game
        self.me = me
        self._naming = naming
        self.flow: Flow
        self._window = window
        #: The move prompt is open (its opening lines said): a request acted on does not open it again.
        self._move_open = False
        if detail not in DETAILS:
            raise ValueError(f"detail must be one of {DETAILS}, not {detail!r}")
        self.detail = detail
        #: What was said (events, refusals, messages), for ``m``; the answers
        #: to the reading keys and the prompts are not kept.
        self.history: deque[str] = deque(maxlen=HISTORY)
        #: The mover's tableau before the move being made, and the card it chose.
        self._before: Tableau | None = None
        self._hand_before: list[int] = []
        self._card = EMPTY
        #: The slot of the person's card that reached 700, while Extension? is asked.
        self._extension_slot: int | None = None
        self._hands = 0
        #: The last hand ended the game: the next one begins a new game.
        self._game_ended = False
        self._hand_said = False
        self._turn_said = False
        self._saving = 0
        self._save_said = False

    @property
    def window(self) -> int:
        return self._window

    def attach(self, flow: Flow) -> None:
        self.flow = flow

    @property
    def full(self) -> bool:
        return self.detail == FULL

    @property
    def naming(self) -> Naming:
        """How the seats are named now (a face may name them differently while a computer stands in)."""
        return self._naming if self._naming is not None else Naming.at(self.game.table)

    @property
    def speaker(self) -> Speaker:
        """The sentences, for this face's seat and naming."""
        return Speaker(self.naming, self.me)

    # ------------------------------------------------------------------
    # Saying

    def say(self, line: str) -> None:
        """An event or a message: said, and kept for ``m``."""
        self.history.append(line)
        self.term.write_line(line)

    def show(self, line: str) -> None:
        """An answer to a reading key, a prompt or a status line: said, not kept."""
        self.term.write_line(line)

    # ------------------------------------------------------------------
    # The flow's questions, asked in lines

    def _read(self, prompt: str) -> str:
        """Print ``prompt`` (once for this wait) and read a line.

        Before waiting, the game is noted for a crash save and the record
        of games is told what happened, as at the board's key reads.  End
        of input is a hangup (the game is kept, nothing is lost); the
        interrupt key asks ``Really?`` and, answered no, the prompt again.
        """
        flow = self.flow
        flow.keep_snapshot()
        flow.catch_up()
        self.show(prompt)
        while True:
            got = self.term.read_line()
            if isinstance(got, str):
                return got
            if got == END_OF_INPUT or got == HANGUP:
                flow.hangup()
            elif got == INTERRUPT:
                flow.on_event(INTERRUPT)
            elif got == TOO_LONG:
                self.say(f"That line is too long (over {MAX_LINE} characters); it is ignored.")
            self.show(prompt)

    def read_move(self) -> Move | Request:
        """Lines at ``Your move:`` until one makes a move (§9.1) or a request (save, quit, hint); reading keys between.

        On opening, the person's tableau and hand are noted, to say the move
        once it is made; the flow acting on a request opens it no more.
        """
        game = self.game
        if not self._move_open:
            self._move_open = True
            self._before = game.players[game.table.side(self.me)].copy()
            self._hand_before = game.players[self.me].hand[:]
            if self.full:
                if not self._turn_said:
                    self.show(self._turn_line())
                    self._turn_said = True
                self.show(self._playable())
        move = self._read_move()
        if not isinstance(move, Request):
            self._move_open = False
        return move

    def _read_move(self) -> Move | Request:
        while True:
            parsed = parse(self._read(MOVE_LINE))
            command = parsed.command
            if command == Command.PICK:
                return DRAW
            if command == Command.USE or command == Command.DISCARD:
                typed = self._typed_move(parsed, command == Command.USE)
                if typed is not None:
                    return typed
                continue
            if command == Command.ORDER:
                return ORDER
            if command == Command.QUIT:
                return Request.QUIT
            elif command == Command.SAVE:
                return Request.SAVE
            elif command == Command.EXTRAPOLATE:
                self.say("E: command not implemented")
            elif command == Command.HINT:
                if self.flow.hints is not None:
                    return Request.HINT
                self._no_hints()
            elif command == Command.DETAIL:
                was = self.detail
                self._query(parsed)
                if self.full and was != FULL and not self._turn_said:
                    # Full detail from now: its turn line and what may be played, before any pick is said.
                    self.show(self._turn_line())
                    self._turn_said = True
                    self.show(self._playable())
            elif command != Command.EMPTY and not self._query(parsed):
                self.say(f"unknown command: {parsed.word}; type ? for help.")

    def _typed_move(self, parsed: Parsed, use: bool) -> Move | None:
        """``u 3``, ``d 3``, or ``u 3 b`` where sides have letters; a hazard with more than one side to go to asks
        which.

        None after saying what is wrong (the prompt is asked again).  Where
        sides have no letters (alone at two seats: one other side), a letter
        after the slot is refused as any word that names no card.
        """
        game = self.game
        word = parsed.word.lower()
        parts = parsed.rest.split()
        slot = parse_slot(parts[0]) if parts else None
        aim = self.speaker.aim_example(game)
        if slot is None or len(parts) > 2 or (len(parts) == 2 and not (use and aim)):
            example = f"{word} 3 {aim}" if use and aim else f"{word} 3"
            self.say(f"{word} needs a card: 1 to 6, or p for the card just picked, as in {example}.")
            return None
        if not use:
            return Move(MoveType.DISCARD, slot)
        card = game.players[self.me].hand[slot]
        mine = game.table.side(self.me)
        others = [side for side in range(game.table.sides) if side != mine]
        hazard = OUT_OF_GAS <= card <= STOP or card == SPEED_LIMIT
        if len(parts) == 2:
            letter = parts[1].upper()
            sides = [side for side in others if side_letter(side) == letter]
            if not hazard or not sides:
                letters = " or ".join(side_letter(side).lower() for side in others)
                what = f"a hazard goes to side {letters}" if hazard else "only a hazard is played on another side"
                self.say(f"{parsed.word} {parsed.rest}: {what}.")
                return None
            return Move(MoveType.PLAY, slot, sides[0])
        if not hazard or len(others) == 1:
            return Move(MoveType.PLAY, slot)
        open_sides = [side for side in others if rules.play_refusal(game, self.me, slot, side) is None]
        if len(open_sides) <= 1:
            return Move(MoveType.PLAY, slot, open_sides[0] if open_sides else None)
        letters = " or ".join(side_letter(side).lower() for side in open_sides)
        while True:
            answer = self._read(f"{cards.name(card)} on which side, {letters}? (RETURN alone: not now)").strip().upper()
            if not answer:
                return None
            chosen = [side for side in open_sides if side_letter(side) == answer]
            if chosen:
                return Move(MoveType.PLAY, slot, chosen[0])
            self.say(f"Answer {letters}, or RETURN alone to choose another move.")

    def ask(self, prompt_no: int) -> bool | Request:
        """A yes/no question, in the original's words (§9.3); ``s`` asks the flow to save (it then asks again)."""
        text = PROMPTS[prompt_no]
        if prompt_no == COUP_PROMPT:
            self.say(self.speaker.coup_line(self.game))
        if prompt_no == EXTENSION_PROMPT:
            # The card that reached 700 leaves its slot with the answer: noted, to say what moves into it.
            self._hand_before = self.game.players[self.me].hand[:]
            self._extension_slot = self.game.pending_extension
        while True:
            parsed = parse(self._read(text))
            command = parsed.command
            if command == Command.YES:
                return True
            if command == Command.NO:
                return False
            if command == Command.SAVE:
                return Request.SAVE
            elif command == Command.HINT and prompt_no in (EXTENSION_PROMPT, COUP_PROMPT):
                if self.flow.hints is not None:
                    return Request.HINT
                self._no_hints()
            elif not self._query(parsed):
                self.say(f"{text} Answer y or n; s saves first, ? is help.")

    def read_file_name(self) -> str:
        """The name typed at ``file:``; '' cancels.  Only the name: no command is read here (§9.4)."""
        line = self._read(FILE_LINE)
        # The original kept the name in a C string: a NUL ends it.
        return line.split("\0", 1)[0].strip()

    def choose(self, choice: Choice) -> str | Request:
        """``choice``'s sentence, and a line: its first letter (:meth:`mille.ui.flow.Face.choose`); another is told
        the answers, and the reading keys are answered meanwhile."""
        while True:
            parsed = parse(self._read(choice.sentence))
            answer = choice.answer(parsed.word.strip().lower()[:1])
            if answer is not None:
                return answer
            if not self._query(parsed):
                self.say(choice.answers_line())

    def poll(self) -> int | None:
        return self.term.poll()

    def wait(self, ready: int) -> int | None:
        return wait_polling(self.term.poll, ready)

    # ------------------------------------------------------------------
    # The reading keys: no turn, no change

    def _query(self, parsed: Parsed) -> bool:
        """Answer a reading key in full (even when nothing changed since the last); False if it is none."""
        command = parsed.command
        game = as_seen(self.game)  # at Extension?, the board the original showed (§13)
        speaker = self.speaker
        if command == Command.BOARD:
            for line in speaker.board_lines(game):
                self.show(line)
        elif command == Command.SCORE:
            for line in speaker.score_lines(game):
                self.show(line)
        elif command == Command.CARDS:
            self.show(speaker.hand_line(game))
        elif command == Command.MESSAGES:
            self._messages(parsed.rest)
        elif command == Command.DETAIL:
            self._switch_detail(parsed.rest)
        elif command == Command.HELP:
            for line in (*HELP, *speaker.help_lines(game)):
                self.show(line)
            self.show(f"Detail is {self.detail}." + ("" if self.flow.hints is None else " Hints are on."))
        else:
            return False
        return True

    def _messages(self, rest: str) -> None:
        kept = list(self.history)
        wanted = rest.strip().lower()
        if wanted == "all":
            count = len(kept)
        elif wanted.isdigit():
            count = int(wanted)
        elif not wanted:
            count = HISTORY_SHOWN
        else:
            self.say(f"m takes a number or all, as in m 5; up to {HISTORY} messages are kept.")
            return
        chosen = kept[-count:] if count else []
        if not chosen:
            self.show("No messages yet.")
            return
        self.show(f"The last {len(chosen)} messages, oldest first:")
        for line in chosen:
            self.show(line)

    def _switch_detail(self, rest: str) -> None:
        wanted = rest.strip().lower()
        if not wanted:
            wanted = FULL if self.detail == BRIEF else BRIEF
        elif wanted not in DETAILS:
            self.say("v switches the detail; v brief or v full chooses one.")
            return
        self.detail = wanted
        if wanted == FULL:
            self.show("Detail: full. The computer's picks, the totals at your turn and what you may play are said too.")
        else:
            self.show("Detail: brief. Your picks, the computer's moves, refusals and questions are said.")

    def _no_hints(self) -> None:
        self.say("h gives a hint only when mille is started with --hints.")

    def hint(self, text: str) -> None:
        """The hint, as a line."""
        self.say(text)

    def _turn_line(self) -> str:
        return self.speaker.turn_line(self.game)

    def _playable(self) -> str:
        game = self.game
        moves = rules.legal_moves(game) if game.to_move == self.me else []
        plays = [(m.slot, m.target) for m in moves if m.kind is MoveType.PLAY]
        return self.speaker.playable_line(game, plays, DRAW in moves)

    # ------------------------------------------------------------------
    # Saying what happens

    def begin_hand(self, restored: bool) -> None:
        """A hand begins: the welcome on the first, a new game, the restored game read in full, or the new deal."""
        game = self.game
        speaker = self.speaker
        if self._hands == 0:
            self.say(speaker.welcome(game, self.detail))
        elif self._game_ended:
            self.say(speaker.new_game_line(game))
        self._hands += 1
        self._game_ended = False
        self._hand_said = False
        self._turn_said = False
        if restored:
            banner = self.flow.restore_banner
            if banner is not None:
                self.say(f"Resumed: {banner}.")
            seen = as_seen(game)
            for line in speaker.board_lines(seen):
                self.show(line)
            me = self.me
            if seen is not game:
                # Kept at Extension?: the play that reached 700, said again before the question.
                slot = game.pending_extension
                assert slot is not None
                card = game.players[me].hand[slot]
                self.say(speaker.play_sentence(game, me, card, seen.players[game.table.side(me)]))
                return
            mover = speaker.whose_move(game)
            if mover:
                self.say(mover)
            return
        self.say(speaker.new_hand_line(game))
        self.show(speaker.hand_line(game))

    def announce(self, made: Decision, observation: Observation) -> None:
        """Another seat chose a move: remember the card and its side's tableau, to say the move once it is made."""
        move = made.move
        self._before = observation.players[observation.seat]  # the tableau the seat plays on, its side's
        if move.kind is MoveType.PLAY or move.kind is MoveType.DISCARD:
            self._card = observation.hand[move.slot]
        else:
            self._card = EMPTY

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """Say ``seat``'s move and the state it leaves; a refusal in the original's words; the end of a hand."""
        if outcome.error is not None:
            # The person's refusals alone, as the original's message line had them;
            # another seat's (never seen from the original's computer) named as theirs.
            if seat == self.me:
                self.say(outcome.error)
            else:
                self.say(self.speaker.refused_sentence(game, seat, outcome.error))
        else:
            line = self._sentence(game, seat, move)
            moved = self._moved(game, seat, move)
            if moved:
                line = f"{line} {moved}" if line else moved
            if line:
                self.say(line)
            if outcome.passed and game.to_move == self.me:
                self._turn_said = False
        if game.finished and game.pending_extension is None and not self._hand_said:
            self._hand_said = True
            self._game_ended = rules.game_over(game)
            for line in self.speaker.hand_over_lines(game, brief=not self.full):
                self.say(line)

    def _moved(self, game: Game, seat: int, move: Move) -> str:
        """The person's cards that moved into the slot just emptied (:func:`.speaker.moved_sentence`); '' if none."""
        if seat != self.me or game.order:
            return ""
        kind = move.kind
        if kind is MoveType.PLAY or kind is MoveType.DISCARD:
            if game.pending_extension is not None:
                return ""  # the card stays in the hand while Extension? is asked
            played = move.slot
        elif (kind is MoveType.EXTEND or kind is MoveType.NO_EXTENSION) and self._extension_slot is not None:
            played = self._extension_slot
        else:
            return ""
        return moved_sentence(self._hand_before, played, game.players[self.me].hand)

    def _drawn(self, game: Game) -> list[int]:
        """The cards in the person's hand now that were not before, in hand order (a draw may be two, §3.3)."""
        hand = game.players[self.me].hand
        new = hand[:]
        for card in self._hand_before:
            if card in new:
                new.remove(card)
        return sorted((c for c in new if c != EMPTY), key=hand.index)

    def _sentence(self, game: Game, seat: int, move: Move) -> str:
        """The sentence for ``seat``'s move just made ('' for another seat's pick at brief detail)."""
        speaker = self.speaker
        kind = move.kind
        if kind is MoveType.DRAW:
            if seat == self.me:
                return speaker.draw_sentence(game, seat, self._drawn(game), self.full)
            if self.full or game.deck_count <= 0:
                return speaker.draw_sentence(game, seat, [], self.full)
            return ""
        if kind is MoveType.PLAY or kind is MoveType.DISCARD:
            card = self._hand_before[move.slot] if seat == self.me else self._card
            if kind is MoveType.DISCARD:
                return speaker.discard_sentence(game, seat, card)
            before = self._before if self._before is not None else game.players[game.table.side(seat)]
            return speaker.play_sentence(game, seat, card, before, move.target)
        if kind is MoveType.ORDER:
            return speaker.order_sentence(game)
        if kind is MoveType.EXTEND or kind is MoveType.NO_EXTENSION:
            return speaker.extension_sentence(game, seat, kind is MoveType.EXTEND)
        if kind is MoveType.PASS:
            if game.players[seat].hand.count(EMPTY) != len(game.players[seat].hand):
                # A coup fourré let pass (R10); another seat's is its secret (being asked told it held the safety).
                return speaker.declined_sentence(game, seat) if seat == self.me else ""
            return speaker.pass_sentence(game, seat)
        return ""  # pragma: no cover - every kind of move is above

    def tell(self, message: str) -> None:
        """A message (a save's name and date, the hint, ``thinking...``), as a line."""
        if self._saving:
            self._save_said = True
            self.say(f"The game is saved in {message}.")
        else:
            self.say(message)

    def error(self, message: str) -> None:
        """A complaint (a save that failed), as a line of its own."""
        if self._saving:
            self._save_said = True
            self.say(f"The game is not saved: {message}.")
        else:
            self.say(message)

    def save_begins(self) -> None:
        """The save dialog (§10.1) opens: how it ends is said (saved where, not saved and why, or cancelled)."""
        self._saving += 1
        self._save_said = False

    def save_ends(self, done: bool | None) -> None:
        self._saving -= 1
        if done is None:
            return
        if not done and not self._save_said:
            self.say("The game is not saved.")
        self._save_said = False
