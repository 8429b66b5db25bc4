"""Key decoding (reference §9): what each byte means, apart from what is done.

The original read one byte at a time, in cbreak and no-echo mode, and
compared it with character constants inside each reader.  Here those
comparisons are tables and pure functions, so the readers in
:mod:`mille.ui.dialogs` keep only the reading loops and the echo (whose curses
calls, in the original's order, decide the bytes sent).  The terminal's
erase and kill characters are not here: they are the terminal's settings,
known at run time, and the readers compare them themselves.
"""

from __future__ import annotations

from ..engine.cards import HAND_SIZE

NUL = 0x00
LF = 0x0A
CTRL_L = 0x0C
CR = 0x0D
SPACE = 0x20


class Command:
    """What a key means at the move prompt (§9.1): names, not an Enum.

    A plain class of constants: creating an Enum class costs more start-up
    time than this whole module (the time to the first board is measured).
    """

    PICK = "pick"
    USE = "use"
    DISCARD = "discard"
    ORDER = "order"
    QUIT = "quit"
    WINDOW = "window"
    REPRINT = "reprint"
    SAVE = "save"
    #: ``E``: the original's extrapolation, not compiled into it.
    EXTRAPOLATE = "extrapolate"
    #: RETURN, LF, space and NUL do nothing at the move prompt.
    IGNORE = "ignore"
    UNKNOWN = "unknown"


class Answer:
    """What a key means at a yes/no prompt (§9.3): names, as :class:`Command`."""

    YES = "yes"
    NO = "no"
    SAVE = "save"
    REPRINT = "reprint"
    UNKNOWN = "unknown"


#: The move-prompt keys, upper-cased.  ^L is the only control key with a
#: meaning; the others, and every byte not listed, are unknown commands.
COMMANDS = {
    ord("P"): Command.PICK,
    ord("U"): Command.USE,
    ord("D"): Command.DISCARD,
    ord("O"): Command.ORDER,
    ord("Q"): Command.QUIT,
    ord("W"): Command.WINDOW,
    ord("R"): Command.REPRINT,
    CTRL_L: Command.REPRINT,
    ord("S"): Command.SAVE,
    ord("E"): Command.EXTRAPOLATE,
    CR: Command.IGNORE,
    LF: Command.IGNORE,
    SPACE: Command.IGNORE,
    NUL: Command.IGNORE,
}

#: The hint keys (``--hints`` only; without it they are unknown commands,
#: as in the original): ``H`` at the move prompt (upper-cased there) and
#: ``h`` or ``H`` at ``Extension?``, or ``?`` at either.
HINT_KEYS = (ord("H"), ord("h"), ord("?"))

#: The talk key, upper-cased: with people at the table (docs/people.md) a line of talk; alone, an unknown command as
#: in the original, whose keymap leaves it free (§9.1).
TALK_KEY = ord("T")
#: The table's story on the original's board (the larger tables' ``M`` lists it with the moves), with people only.
STORY_KEY = ord("M")

#: Card keys after ``U`` or ``D`` (§9.2), upper-cased: the digit of a slot,
#: and ``P`` or ``0`` for slot 0, the card just drawn (the ``P`` row).
CARD_KEYS = {ord(str(slot)): slot for slot in range(1, HAND_SIZE)}
CARD_KEYS[ord("0")] = CARD_KEYS[ord("P")] = 0

#: Keys skipped before a card key, and those confirming it after (§9.2).
CONFIRM_KEYS = (CR, LF, SPACE)
#: Keys ending a file name (§9.4).
END_OF_NAME = (LF, CR)

#: Yes/no prompt keys, in either case (§9.3); ^L repaints and asks again.
ANSWERS = {
    ord("n"): Answer.NO,
    ord("N"): Answer.NO,
    ord("y"): Answer.YES,
    ord("Y"): Answer.YES,
    ord("s"): Answer.SAVE,
    ord("S"): Answer.SAVE,
    CTRL_L: Answer.REPRINT,
}
#: What a yes/no prompt echoes for an accepted answer.
ANSWER_ECHO = {Answer.NO: "N", Answer.YES: "Y", Answer.SAVE: "S"}


def upper(byte: int) -> int:
    """Upper-case an ASCII letter (the original's ``islower``/``toupper`` in the C locale)."""
    return byte - 0x20 if 0x61 <= byte <= 0x7A else byte


def isprint(byte: int) -> bool:
    """Printable ASCII, space included (``isprint`` in the C locale)."""
    return 0x20 <= byte < 0x7F


def unctrl(byte: int) -> str:
    """The printable form the original showed for a byte: ``^A``, ``^?``, ``~@``.

    Bytes 160-255 come out as themselves, one column wide: 4.4BSD mille
    (bsdgames 2.17, narrow ncurses) writes them raw, not as ``M-x``.
    """
    byte &= 0xFF
    if byte < 0x20:
        return "^" + chr(byte + 0x40)
    if byte < 0x7F:
        return chr(byte)
    if byte == 0x7F:
        return "^?"
    if byte < 0xA0:
        return "~" + chr(byte - 0x80 + 0x40)
    return chr(byte)


def decode_command(byte: int) -> str:
    """The move-prompt command for a key, either case (§9.1)."""
    return COMMANDS.get(upper(byte), Command.UNKNOWN)


def echoes_command(byte: int) -> bool:
    """Whether the move prompt echoes an (upper-cased) key: printable, not a space (§9.1)."""
    return isprint(byte) and byte != SPACE


def card_slot(byte: int) -> int | None:
    """The hand slot a card key selects, either case; None for any other key (§9.2)."""
    return CARD_KEYS.get(upper(byte))


def answer(byte: int) -> str:
    """A yes/no prompt's reading of a key (§9.3)."""
    return ANSWERS.get(byte, Answer.UNKNOWN)


def name_echo_backs(byte: int) -> int:
    """How many columns the file-name prompt backs up to erase ``byte`` (§9.4).

    Two for a control character or a byte from 128 up (``^X``, ``~X``), one
    otherwise.  DEL counts one and bytes from 160 up count two, although
    their echoes are two and one columns wide: the port has always done so,
    and changing it would change the screens.  Long names are redrawn
    instead (:meth:`mille.ui.dialogs.Dialogs.read_file_name`).
    """
    return 2 if byte < 0x20 or byte >= 0x80 else 1
