"""One run of the interactive game, on the board or in lines: the computer seated, the files kept, the last word said.

What the command line (:mod:`mille.cli`) has decided (the game, new or
read from a file; the computer; the options) becomes a run here, whichever
front end shows it: :func:`play_board` (the original's screen, curses) or
:func:`play_plain` (``--plain``, lines; curses is never imported).  Both
seat the computer (:func:`computer_player`), make the hint's adviser and
the record of games (at its first event, after the first board: start-up
time), keep the game in a file when the terminal goes away or the game
fails (:mod:`mille.files.rescue`), put the terminal back on every way out,
and only then say what needs saying (where the game went, a crash report,
the TERM used instead of the person's, a problem with the record of games,
a bot that failed), on standard error, escaped.
"""

from __future__ import annotations

import os

from ..engine.record import Record
from ..engine.rng import GlibcRandom, secret_seed
from ..engine.state import Game
from ..players import OPPONENTS, is_exec_spec, make_player
from .flow import Setup
from .layout import ScoreView

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..files.kept import Resumed
    from ..files.recorder import Recorder
    from ..players import Player
    from .flow import GameFlow
    from .surface import Terminal

#: The original's computer, the default.
DEFAULT_COMPUTER = OPPONENTS[0]
#: What resumes a game kept in plain mode.
PLAIN_COMMAND = "mille --plain"
#: Mixed into the seed for a computer player that is not the original's:
#: its dice are its own, so the deals stay those of the seed.
_DICE_SALT = 0x6D696C6C

__all__ = ["DEFAULT_COMPUTER", "PLAIN_COMMAND", "Choices", "computer_player", "play_board", "play_plain", "say"]


def computer_player(name: str, seed: int, game: Game, reads_deck: bool = False) -> tuple[Player, GlibcRandom]:
    """The computer's player for ``name`` (:func:`mille.players.make_player`) and the dice it rolls.

    A built-in player that declares ``dice = "game"``, the original's
    procedure (``bsd``), rolls the game's own generator, as the original
    did, so that every deal and every screen stays the original's; other
    built-in players roll dice of their own, seeded from the game's seed, so
    that the deals of a seed stay the same whoever sits in the computer's
    seat.  A bot program (``exec:``) is handed the game's generator only
    when the person said it may read the deck (``reads_deck``,
    ``--bot-reads-deck``: rolls of the deal's generator give the deal away,
    issue 36); otherwise, whatever its hello asked for, it rolls dice of its
    own from :func:`~mille.engine.rng.secret_seed`, independent of the deal
    (docs/protocol.md, "Dice").  ``PlayerSpecError`` (a ValueError) if
    ``name`` names no player or a bot that cannot be started.
    """
    player = make_player(name)
    if is_exec_spec(name):
        if reads_deck and getattr(player, "dice", None) == "game":
            return player, game.rng
        return player, GlibcRandom(secret_seed())
    if getattr(player, "dice", None) == "game":
        return player, game.rng
    return player, _own_dice(seed)


def _own_dice(seed: int) -> GlibcRandom:
    """The dice of a built-in computer player that does not roll the game's generator, from the run's seed."""
    return GlibcRandom((seed ^ _DICE_SALT) & 0xFFFFFFFF)


class Choices(Record):
    """What the command line chose for a run (:mod:`mille.cli`): the game and the person's options.

    ``game`` is new or read from ``file`` (whose first board says
    ``banner``; ``window`` is the score window layout it was saved with);
    ``computer_name`` names the computer (:func:`computer_player`), dealt
    with ``seed``; ``hints``, ``color`` (the board only), ``record`` (the
    record of games) and ``detail`` (plain mode only) are the person's
    options; ``reads_deck``: a bot computer may roll the game's own
    generator (``--bot-reads-deck``, :func:`computer_player`).
    """

    __slots__ = (
        "game", "file", "banner", "window", "computer_name", "seed", "hints", "color", "record", "detail", "reads_deck",
    )  # fmt: skip

    def __init__(
        self,
        game: Game,
        *,
        file: str | None = None,
        banner: str | None = None,
        window: int = ScoreView.SMALL,
        computer_name: str = DEFAULT_COMPUTER,
        seed: int = 1,
        hints: bool = False,
        color: bool = False,
        record: bool = False,
        detail: str | None = None,
        reads_deck: bool = False,
    ) -> None:
        self.game = game
        self.file = file
        self.banner = banner
        self.window = window
        self.computer_name = computer_name
        self.seed = seed
        self.hints = hints
        self.color = color
        self.record = record
        self.detail = detail
        self.reads_deck = reads_deck


class _Run:
    """What both front ends do around the game: the setup, the record of games, the keeper, the last word."""

    def __init__(self, choices: Choices, computer: Player, dice: GlibcRandom, command: str) -> None:
        self.file = choices.file
        self.computer_name = choices.computer_name
        self.recorder: list[Recorder] = []  # made at its first event, after the first board
        restored = choices.game.copy() if choices.file is not None and choices.record else None

        def make_recorder() -> Recorder:
            from ..files.recorder import Recorder

            self.recorder.append(Recorder(restored=restored))
            return self.recorder[0]

        adviser = None
        if choices.hints:
            from .hints import Adviser

            adviser = Adviser()
        resumed = None
        if choices.file is not None:
            from ..files.kept import Resumed

            resumed = Resumed.note(choices.file, choices.game)
        self.keeper = _Keeper(command, resumed)
        self.setup = Setup(
            computer,
            choices.computer_name,
            dice,
            save_writer=_write_game,
            hangup_saver=self.keeper.keep,
            from_file=choices.file,
            restore_banner=choices.banner,
            window=choices.window,
            stats=make_recorder if choices.record else None,
            hints=adviser,
            resumed=resumed,
        )

    @classmethod
    def seated(cls, choices: Choices, command: str) -> _Run | None:
        """The run with the computer :func:`computer_player` seats; None after one line saying why it cannot play."""
        try:
            computer, dice = computer_player(choices.computer_name, choices.seed, choices.game, choices.reads_deck)
        except ValueError as exc:  # PlayerSpecError: a bot that cannot be started
            say(f"mille: {exc}")
            return None
        return cls(choices, computer, dice, command)

    def crashed(self, exc: Exception, app: GameFlow | None) -> int:
        return _crashed(exc, app, self.file, self.keeper.command)

    def end(self, status: int, app: GameFlow | None) -> int:
        """Say what needs saying now that the terminal is back; the exit status."""
        failure = getattr(app, "computer_failure", None)
        if failure is not None:
            say(f"mille: the computer {self.computer_name} failed: {failure}")
        for made in self.recorder:
            for problem in made.problems:
                say(f"mille: {problem}")
        return self.keeper.report(status)


def play_board(choices: Choices, computer: Player | None = None) -> int:
    """Play the game chosen on the board until it ends; the exit status.

    ``computer`` overrides the player ``choices.computer_name`` names (the
    name is still what a save records; it then rolls dice of its own).
    Whatever happens, the terminal is put back before anything is said.
    """
    from .app import MilleApp
    from .cursesterm import CursesTerminal
    from .surface import TerminalError

    if computer is None:
        run = _Run.seated(choices, "mille")
    else:
        run = _Run(choices, computer, _own_dice(choices.seed), "mille")
    if run is None:
        return 1
    term = CursesTerminal()
    app: MilleApp | None = None
    try:
        term.start()
        screen: Terminal = term
        if choices.color:
            from .palette import colour_terminal

            screen = colour_terminal(term)
        app = MilleApp(screen, choices.game, run.setup)
        status = app.run(restore=choices.file is not None)
    except TerminalError as exc:
        term.stop()
        say(f"mille: {exc}")
        return 1
    except KeyboardInterrupt:
        term.stop()
        status = 1
    except Exception as exc:
        term.stop()
        status = run.crashed(exc, app)
    else:
        term.stop()
    if term.note is not None:
        say(term.note)
    return run.end(status, app)


def play_plain(choices: Choices) -> int:
    """Play the game chosen in lines (``--plain``, :mod:`mille.ui.plain`) until it ends; the exit status.

    As :func:`play_board`, without the board: no terminal is needed (a
    pipe, a file, ``/dev/null``, ``TERM=dumb``), and curses is never
    imported.  A hangup, the end of input and a crash keep the game as on
    the board; where it went is said on standard error once the game has
    stopped.
    """
    from .plain import DETAILS
    from .plain.app import PlainApp
    from .plain.lines import LineTerminal

    run = _Run.seated(choices, PLAIN_COMMAND)
    if run is None:
        return 1
    term = LineTerminal()
    app: PlainApp | None = None
    try:
        term.start()
        app = PlainApp(term, choices.game, run.setup, detail=choices.detail or DETAILS[0])
        status = app.run(restore=choices.file is not None)
    except KeyboardInterrupt:
        status = 1
    except Exception as exc:
        status = run.crashed(exc, app)
    finally:
        term.stop()
    return run.end(status, app)


class _Keeper:
    """Keeps the game on a hangup and remembers where, to say so once the terminal is back.

    ``command`` is what the line says resumes the game.
    """

    def __init__(self, command: str = "mille", resumed: Resumed | None = None) -> None:
        self.line: str | None = None
        self.saved = True
        self.command = command
        self.resumed = resumed

    def keep(self, game: Game, window: int, computer: str) -> None:
        """Keep ``game`` in a new file; a game resumed from a kept file and not played on stays in that file.

        Once the game is in a new file, the kept file it was resumed from is
        spent and removed (:mod:`mille.files.kept`).
        """
        from ..files import rescue

        resumed = self.resumed
        try:
            if resumed is not None and resumed.holds(game):
                kept = rescue.Kept(resumed.path, [])  # the same position, already in that file
            else:
                kept = rescue.keep_game(game, window, computer)
                if kept.path is not None and resumed is not None:
                    resumed.spend()
        except Exception as exc:  # a bug must not cost the exit and the message
            kept = rescue.Kept(None, [("the game", f"{type(exc).__name__}: {exc}")])
        self.saved = kept.path is not None
        self.line = rescue.saved_line(kept, command=self.command, computer=computer)

    def report(self, status: int) -> int:
        if self.line is None:
            return status
        say(self.line, self.command == PLAIN_COMMAND)
        from ..files.rescue import NOT_SAVED_STATUS

        return status if self.saved else NOT_SAVED_STATUS


def say(line: str, fit: bool = False) -> None:
    """A line on standard error, if it is still there (after a hangup it may not be); escaped for the terminal.

    ``fit``: broken into rows as plain mode breaks its lines
    (:func:`mille.ui.plain.lines.fitted`), for the last words of a game
    played in lines (the hangup line), which a screen reader reads by rows.
    """
    from ..files.safeio import shown

    text = shown(line)
    if fit:
        from .plain.lines import fitted, terminal_width

        text = fitted(text, terminal_width(2))
    try:
        os.write(2, (text + "\n").encode("utf-8", "backslashreplace"))
    except OSError:
        pass


def _crashed(exc: Exception, app: GameFlow | None, file: str | None, command: str) -> int:
    """An unexpected exception in the game: keep the game as it was before, report, status 1 (2 if not kept).

    The terminal is already restored.  The game saved is the app's last
    snapshot (taken between moves and at every key read), so a move that
    failed half-way is not in it; the full traceback goes to a file beside
    the game, and three short lines say what happened and where both went.
    """
    try:
        from ..files import rescue

        snapshot = getattr(app, "last_good", None)
        kept = None
        if snapshot is not None:
            window, computer = getattr(app, "window", 0), getattr(app, "computer_name", DEFAULT_COMPUTER)
            try:
                kept = rescue.keep_game(snapshot, window, computer, rescue.CRASH)
            except Exception as inner:
                kept = rescue.Kept(None, [("the game", f"{type(inner).__name__}: {inner}")])
        text = rescue.crash_report(exc, kept)
        if kept is not None and kept.path is not None:
            report = rescue.write_beside(kept.path, text)
            if report.path is None:
                report = rescue.keep(text.encode("utf-8", "backslashreplace"), rescue.CRASH, ".txt")
        else:
            report = rescue.keep(text.encode("utf-8", "backslashreplace"), rescue.CRASH, ".txt")
        what = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        say(f"mille: internal error: {what}")
        if kept is not None:
            computer_name = getattr(app, "computer_name", None)
            say(rescue.saved_line(kept, "the game, as it was before the move that failed,", command, computer_name))
        elif file is not None:
            say(f"mille: no move was made; the game is still in {file}")
        else:
            say("mille: no game was in progress")
        if report.path is not None:
            say(f"mille: the full report is in {report.path}")
        else:
            say(f"mille: the report could not be written ({report.failures()})")
        return rescue.NOT_SAVED_STATUS if kept is not None and kept.path is None else 1
    except BaseException:  # the last word: never a traceback
        say("mille: internal error; the game could not be saved")
        return 2


def _write_game(name: str, game: Game, window: int, computer: str) -> None:
    from ..files import save

    save.write_game(name, game, window, computer)
