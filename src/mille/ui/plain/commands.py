"""Plain mode's commands: what a typed line means, and the help that lists them.

A command is a line: a letter (or its word) and RETURN.  The original's
letters keep their meaning (§9.1): ``p`` picks, ``u N`` uses and ``d N``
discards the card in slot N (1 to 6, or ``p`` or ``0`` for the card just
picked, §9.2), ``o`` toggles the order, ``s`` saves, ``q`` quits, ``e`` is
still not implemented; at a question ``y``, ``n`` and ``s`` (§9.3).  The
reading keys are new, and take no letter the original uses for something
else: ``r`` (the original's redraw, and ``^L``) reads the board, ``w`` the
score window, ``c`` your cards, ``m`` the last messages, ``v`` switches the
detail, ``?`` is the help and ``h`` the hint (with ``--hints``, as on the
board).  None of them costs a turn.
"""

from __future__ import annotations

from ...engine.cards import HAND_SIZE

__all__ = ["HELP", "Command", "Parsed", "parse", "parse_slot"]


class Command:
    """What a line means (names, as :class:`mille.ui.keys.Command`)."""

    PICK = "pick"
    USE = "use"
    DISCARD = "discard"
    ORDER = "order"
    SAVE = "save"
    QUIT = "quit"
    EXTRAPOLATE = "extrapolate"
    YES = "yes"
    NO = "no"
    BOARD = "board"
    SCORE = "score"
    CARDS = "cards"
    MESSAGES = "messages"
    DETAIL = "detail"
    HELP = "help"
    HINT = "hint"
    EMPTY = "empty"
    UNKNOWN = "unknown"


#: Every word a line may start with, in either case.
WORDS = {
    "p": Command.PICK,
    "pick": Command.PICK,
    "u": Command.USE,
    "use": Command.USE,
    "play": Command.USE,
    "d": Command.DISCARD,
    "discard": Command.DISCARD,
    "o": Command.ORDER,
    "order": Command.ORDER,
    "s": Command.SAVE,
    "save": Command.SAVE,
    "q": Command.QUIT,
    "quit": Command.QUIT,
    "e": Command.EXTRAPOLATE,
    "y": Command.YES,
    "yes": Command.YES,
    "n": Command.NO,
    "no": Command.NO,
    "r": Command.BOARD,
    "\x0c": Command.BOARD,  # ^L, the original's other redraw key
    "board": Command.BOARD,
    "w": Command.SCORE,
    "score": Command.SCORE,
    "c": Command.CARDS,
    "cards": Command.CARDS,
    "hand": Command.CARDS,
    "m": Command.MESSAGES,
    "messages": Command.MESSAGES,
    "v": Command.DETAIL,
    "detail": Command.DETAIL,
    "?": Command.HELP,
    "help": Command.HELP,
    "h": Command.HINT,
    "hint": Command.HINT,
}

#: The card keys after ``u`` or ``d`` (§9.2): a slot's digit, ``p`` or ``0`` for the card just picked.
SLOTS = {str(slot): slot for slot in range(1, HAND_SIZE)}
SLOTS["0"] = SLOTS["p"] = 0


class Parsed:
    """A line read: its command, and what follows the first word (``u 3``: ``3``)."""

    __slots__ = ("command", "word", "rest")

    def __init__(self, command: str, word: str, rest: str) -> None:
        self.command = command
        self.word = word
        self.rest = rest


def parse(line: str) -> Parsed:
    """What ``line`` asks for.  ``u3``, ``UP`` and ``d0`` are ``u 3``, ``u p`` and ``d 0`` (the original's keys)."""
    words = line.split()
    if not words:
        # ^L alone: str.split() takes it for a blank, the original for its redraw key.
        return Parsed(Command.BOARD, "\x0c", "") if "\x0c" in line else Parsed(Command.EMPTY, "", "")
    first = words[0].lower()
    rest = " ".join(words[1:])
    word = words[0]
    if first not in WORDS and len(first) == 2 and first[0] in "ud":
        word, first, rest = word[0], first[0], first[1] + (" " + rest if rest else "")
    return Parsed(WORDS.get(first, Command.UNKNOWN), word, rest)


def parse_slot(text: str) -> int | None:
    """The slot a card key names (``1``-``6``, ``p``, ``0``, either case), or None."""
    return SLOTS.get(text.strip().lower())


HELP = (
    "Commands: type one and press RETURN.",
    "p: pick a card from the deck.",
    "u and a slot, as u 3: use (play) the card in that slot; the slots are 1 to 6, and p (or 0) "
    "for the card just picked.",
    "d and a slot, as d p: discard the card in that slot.",
    "o: keep your hand in order, or stop; then your hand is read.",
    "s: save the game in a file.",
    "q: quit; asks Really?",
    "These read, and cost no turn:",
    "r: the board: the trip, the deck, the discard pile, and for each side its miles, battle and speed "
    "piles, safeties and what it needs to move; then your hand.",
    "w: the score, a row a line, your figure first.",
    "c: your cards, with their slots.",
    "m: the last 20 messages; m and a number for that many, m all for all that are kept.",
    "v: switch between brief and full detail; v brief or v full to choose.",
    "h: a hint, what the expert would do (when mille was started with --hints).",
    "?: this help.",
    "At a question (Extension?, Another hand?, Another game?, Save game?, Really?): y or n; s saves first. "
    "r, w, c, m, v and ? work there too.",
)
