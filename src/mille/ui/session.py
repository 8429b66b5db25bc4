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

from ..engine.record import Record
from ..engine.rng import GlibcRandom, secret_seed
from ..engine.state import Game
from ..players import OPPONENTS, check_table, is_exec_spec, make_player
from .flow import Setup
from .keeping import Keeper, say
from .layout import ScoreView

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..files.recorder import Recorder
    from ..files.save import SavedGame
    from ..players import Player
    from .flow import GameFlow
    from .plain.lines import LineTerminal
    from .surface import Terminal

#: The original's computer, the default.
DEFAULT_COMPUTER = OPPONENTS[0]
#: What resumes a game kept in plain mode.
PLAIN_COMMAND = "mille --plain"
#: Mixed into the seed for a computer player that is not the original's:
#: its dice are its own, so the deals stay those of the seed.
_DICE_SALT = 0x6D696C6C

__all__ = [
    "DEFAULT_COMPUTER", "PLAIN_COMMAND", "Choices", "computer_player", "play_board", "play_plain", "say", "secret_dice",
]  # fmt: skip


def computer_player(name: str, seed: int | None, game: Game, reads_deck: bool = False) -> tuple[Player, GlibcRandom]:
    """The computer's player for ``name`` (:func:`mille.players.make_player`) and the dice it rolls.

    A built-in player that declares ``dice = "game"``, the original's
    procedure (``bsd``), rolls the game's own generator, as the original
    did, so that every deal and every screen stays the original's; other
    built-in players roll dice of their own, seeded from the game's seed, so
    that the deals of a seed stay the same whoever sits in the computer's
    seat (a secret deal, ``seed`` None, has none: their dice are drawn from
    ``os.urandom`` whole, :meth:`~mille.engine.rng.GlibcRandom.from_urandom`).
    A bot program (``exec:``) is handed the game's generator only
    when the person said it may read the deck (``reads_deck``,
    ``--bot-reads-deck``: rolls of the deal's generator give the deal away,
    issue 36); otherwise, whatever its hello asked for, it rolls dice of its
    own from :func:`~mille.engine.rng.secret_seed`, independent of the deal
    (docs/protocol.md, "Dice": the bot is handed that seed, so its dice are
    a seed of 31 bits whatever they are drawn from, and tell it nothing of
    the deal).  ``PlayerSpecError`` (a ValueError) if
    ``name`` names no player or a bot that cannot be started.
    """
    player = make_player(name)
    if is_exec_spec(name):
        if reads_deck and getattr(player, "dice", None) == "game":
            return player, game.rng
        return player, secret_dice(name)
    if getattr(player, "dice", None) == "game":
        return player, game.rng
    return player, _own_dice(seed)


def secret_dice(name: str) -> GlibcRandom:
    """Dice no one else may derive, for the player ``name`` names (a secret deal's computers, a person's stand-in).

    A bot program (``exec:``) is handed its dice as a seed (docs/protocol.md,
    "Dice": its ``roll`` answers are then ``srandom(seed)``'s), so it gets a
    seed from :func:`~mille.engine.rng.secret_seed`, its own and nobody
    else's; any other player's dice are drawn whole from ``os.urandom``
    (:meth:`~mille.engine.rng.GlibcRandom.from_urandom`: a seed of 31 bits
    can be searched from what the dice did).
    """
    if is_exec_spec(name):
        return GlibcRandom(secret_seed())
    return GlibcRandom.from_urandom()


def _seat_dice(seed: int | None, seat: int) -> GlibcRandom:
    """The dice of the computer at ``seat`` (2 and on, ``mille --players``): its own, from the seed and the seat.

    A secret deal (``seed`` None) derives nothing: the dice are drawn whole from ``os.urandom``.
    """
    if seed is None:
        return GlibcRandom.from_urandom()
    return GlibcRandom(((seed ^ _DICE_SALT) + seat * 0x6A09E667) & 0xFFFFFFFF)


def _own_dice(seed: int | None) -> GlibcRandom:
    """The dice of a built-in computer player that does not roll the game's generator, from the run's seed.

    A secret deal (``seed`` None): drawn whole from ``os.urandom`` (a person's seat's stand-in among them).
    """
    if seed is None:
        return GlibcRandom.from_urandom()
    return GlibcRandom((seed ^ _DICE_SALT) & 0xFFFFFFFF)


class Choices(Record):
    """What the command line chose for a run (:mod:`mille.cli`): the game and the person's options.

    ``game`` is new or read from ``file`` (whose first board says
    ``banner``; ``window`` is the score window layout it was saved with);
    ``computer_name`` names the computer (:func:`computer_player`), dealt
    with ``seed`` (None: a secret deal, whose generator's whole state was
    drawn from ``os.urandom``, and from which no dice are derived);
    ``hints``, ``color`` (the board only), ``record`` (the record of
    games) and ``detail`` (plain mode only) are the person's options;
    ``reads_deck``: a bot computer may roll the game's own generator
    (``--bot-reads-deck``, :func:`computer_player`).
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
        seed: int | None = 1,
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

    def __init__(
        self,
        choices: Choices,
        computer: Player,
        dice: GlibcRandom,
        command: str,
        others: tuple[tuple[Player, GlibcRandom], ...] = (),
        record_as: str | None = None,
        people: tuple[int, ...] = (),
        record_people: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self.file = choices.file
        self.computer_name = choices.computer_name
        self.recorder: list[Recorder] = []  # made at its first event, after the first board
        restored = choices.game.copy() if choices.file is not None and choices.record else None

        def make_recorder() -> Recorder:
            from ..files.recorder import Recorder

            self.recorder.append(Recorder(restored=restored, people=record_people))
            return self.recorder[0]

        adviser = None
        if choices.hints:
            from .hints import Adviser

            adviser = Adviser()
        resumed = None
        if choices.file is not None:
            from ..files.kept import Resumed

            resumed = Resumed.note(choices.file, choices.game)
        #: The game kept on a hangup or a crash, and the line that says where (:mod:`mille.ui.keeping`).
        self.keeper = Keeper(command, resumed)
        self.setup = Setup(
            computer,
            choices.computer_name,
            dice,
            save_writer=_write_game,
            keeper=self.keeper,
            from_file=choices.file,
            restore_banner=choices.banner,
            window=choices.window,
            stats=make_recorder if choices.record else None,
            hints=adviser,
            resumed=resumed,
            others=others,
            record_name=record_as,
            people=people,
        )

    @classmethod
    def seated(cls, choices: Choices, command: str) -> _Run | None:
        """The run with the computer :func:`computer_player` seats; None after one line saying why it cannot play."""
        name = choices.computer_name
        seats = choices.game.table.seats
        try:
            computer, dice = computer_player(name, choices.seed, choices.game, choices.reads_deck)
            check_table(computer, name, seats)  # a bot of protocol 1 alone: one line (docs/protocol.md)
            # A bot at another seat rolls dice of its own, as at seat 1, unless it may read the deck.
            secret = is_exec_spec(name) and not choices.reads_deck
            others = tuple(
                (make_player(name), secret_dice(name) if secret else _seat_dice(choices.seed, seat))
                for seat in range(2, seats)
            )
        except ValueError as exc:  # PlayerSpecError: a bot that cannot be started
            say(f"mille: {exc}")
            return None
        return cls(choices, computer, dice, command, others)

    def crashed(self, exc: Exception, app: GameFlow | None) -> int:
        """The game loop raised ``exc``: the keeper keeps the last snapshot and says so; the exit status."""
        if app is None:
            return self.keeper.crashed(exc, 0, None, self.file)
        return self.keeper.crashed(exc, app.window, app.computer_name, self.file)

    def end(self, status: int, app: GameFlow | None) -> int:
        """Say what needs saying now that the terminal is back; the exit status."""
        failure = None if app is None else app.computer_failure
        if failure is not None:
            say(f"mille: the computer {self.computer_name} failed: {failure}")
        for made in self.recorder:
            for problem in made.problems:
                say(f"mille: {problem}")
        return self.keeper.report(status, self.keeper.command.startswith(PLAIN_COMMAND))


def play_board(
    choices: Choices,
    computer: Player | None = None,
    make_flow: Callable[[Terminal, Game, Setup], GameFlow] | None = None,
    command: str = "mille",
    others: tuple[tuple[Player, GlibcRandom], ...] = (),
    record_as: str | None = None,
    people: tuple[int, ...] = (),
    record_people: Callable[[], dict[str, str]] | None = None,
) -> int:
    """Play the game chosen on the board until it ends; the exit status.

    ``computer`` overrides the player ``choices.computer_name`` names (the
    name is still what a save records; it then rolls dice of its own), and
    ``others`` then the players of seats 2 and on with their dice (a larger
    table with people, :mod:`mille.ui.people.host`); ``record_as``, who the
    record of games says the game was against (the people, not the computers),
    and ``people`` the seats they play; ``record_people``, who each other person at the table is to the player
    (a partner, an opponent: the record of games counts each, :mod:`mille.files.tally`).
    ``make_flow`` makes the flow and its face (:func:`mille.ui.app.board_flow`
    unless given: a host of people shows more, :mod:`mille.ui.people.host`);
    ``command`` is what the line after a kept game says resumes it.
    Whatever happens, the terminal is put back before anything is said.
    """
    from .app import board_flow
    from .cursesterm import CursesTerminal
    from .surface import TerminalError

    if make_flow is None:
        make_flow = board_flow
    if computer is None:
        run = _Run.seated(choices, command)
    else:
        run = _Run(choices, computer, _own_dice(choices.seed), command, others, record_as, people, record_people)
    if run is None:
        return 1
    term = CursesTerminal()
    app: GameFlow | None = None
    try:
        term.start()
        screen: Terminal = term
        if choices.color:
            from .palette import colour_terminal

            screen = colour_terminal(term)
        if make_flow is board_flow and choices.game.table.seats > 2:
            from .tableboard import table_flow

            make_flow = table_flow
        app = make_flow(screen, choices.game, run.setup)
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


def play_plain(
    choices: Choices,
    computer: Player | None = None,
    make_flow: Callable[[LineTerminal, Game, Setup], GameFlow] | None = None,
    command: str = PLAIN_COMMAND,
    term: LineTerminal | None = None,
    others: tuple[tuple[Player, GlibcRandom], ...] = (),
    record_as: str | None = None,
    people: tuple[int, ...] = (),
    record_people: Callable[[], dict[str, str]] | None = None,
) -> int:
    """Play the game chosen in lines (``--plain``, :mod:`mille.ui.plain`) until it ends; the exit status.

    As :func:`play_board`, without the board: no terminal is needed (a
    pipe, a file, ``/dev/null``, ``TERM=dumb``), and curses is never
    imported.  A hangup, the end of input and a crash keep the game as on
    the board; where it went is said on standard error once the game has
    stopped.  ``others``: as :func:`play_board`'s (a host in lines at a
    larger table with people).
    """
    from .plain import DETAILS
    from .plain.app import plain_flow
    from .plain.lines import LineTerminal

    if computer is None:
        run = _Run.seated(choices, command)
    else:
        run = _Run(choices, computer, _own_dice(choices.seed), command, others, record_as, people, record_people)
    if run is None:
        return 1
    if term is None:
        term = LineTerminal()
    app: GameFlow | None = None
    try:
        term.start()
        if make_flow is None:
            app = plain_flow(term, choices.game, run.setup, detail=choices.detail or DETAILS[0])
        else:
            app = make_flow(term, choices.game, run.setup)
        status = app.run(restore=choices.file is not None)
    except KeyboardInterrupt:
        status = 1
    except Exception as exc:
        status = run.crashed(exc, app)
    finally:
        term.stop()
    return run.end(status, app)


def _write_game(name: str, saved: SavedGame) -> None:
    from ..files import save

    save.write_game(name, saved)
