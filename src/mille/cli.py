"""Command line: ``mille [--seed N] [--computer NAME] [--[no-]hints] [--[no-]color] [--[no-]plain] [file]``.

Wires the engine, saves, the settings, the record of games and the screen.
Start-up time is part of the game's feel (and a measured target), so modules
that the first board does not need (argparse, the save code, the fault
handling of :mod:`mille.files.rescue`, the settings reader when there is no
settings file, the hints and the colours when they are off) are imported
only when they are needed.

Nothing is lost and nothing hangs: a hangup keeps the game in a file named
for it (the first of the state directory, the current directory and the
temporary directory that works) and says where once the board is gone; an
unexpected exception in the game loop keeps the game as it was before the
move that failed, with a report of the failure beside it; a ``TERM`` with no
terminfo entry falls back to a compatible one or is refused in one line.
"""

from __future__ import annotations

import os
import sys

from . import __version__
from .engine.record import Record
from .engine.rng import SEED_RANGE, SEED_RULE, GlibcRandom, parse_seed
from .engine.state import TABLE_SEATS, Game, table
from .files.places import settings_file
from .players import OPPONENTS, is_exec_spec, is_person_spec
from .ui.layout import YOU, ScoreView
from .ui.plain import DETAILS
from .ui.session import DEFAULT_COMPUTER, Choices, play_board, play_plain, say

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from .files.settings import Settings

#: Switches that turn a player's option on or off: (setting, value).  They
#: are taken out of the arguments before the rest is parsed, so the quick
#: path needs no argparse with them either.
SWITCHES = {
    "--hints": ("hints", True),
    "--no-hints": ("hints", False),
    "--color": ("color", True),
    "--colour": ("color", True),
    "--no-color": ("color", False),
    "--no-colour": ("color", False),
    "--no-stats": ("stats", False),
    "--plain": ("plain", True),
    "--no-plain": ("plain", False),
}


def _guides_line() -> str:
    """Where the guides the options name (``docs/people.md``, ...) are on this machine, for ``--help``."""
    from .files.places import guides

    where = guides()
    if where is None:
        return "  The guides named docs/*.md are not installed here."
    return f"  The guides named docs/*.md: {where}"


def build_parser() -> argparse.ArgumentParser:
    """The full parser: help, version and usage errors (exit status 1, as the original)."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            from .files.safeio import shown  # arguments are echoed: no raw escape sequences

            self.print_usage(sys.stderr)
            self.exit(1, f"{self.prog}: {shown(message)}\n")

    parser = Parser(
        prog="mille",
        description="Mille Bornes against the computer: a faithful re-creation of 4.4BSD mille.",
        epilog="Keys: P pick, U use, D discard, O order hand, W score window, S save, Q quit, R or ^L redraw; "
        "H or ? a hint (with --hints).  Settings: the file --config-path prints.  The manual: man mille."
        + _guides_line(),
    )
    parser.add_argument("file", nargs="?", help="resume the game saved in FILE")
    parser.add_argument(
        "--seed",
        type=_seed_argument,
        metavar="N",
        help="seed the dealer with N (%d to %d): deals exactly as 4.4BSD mille run with process id N" % SEED_RANGE,
    )
    parser.add_argument(
        "--computer",
        type=_computer_argument,
        metavar="NAME",
        help="the computer player: bsd (the original's, the default), expert (stronger), or "
        "exec:COMMAND, a bot program of your own (docs/protocol.md); "
        "a restored game keeps its own unless this is given (a bot only when named again)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=TABLE_SEATS,
        metavar="N",
        help="the table: 2 (the original's, the default), 3 each for themselves, 4 in two partnerships, "
        "6 in three (you and computers; see TABLES in the manual)",
    )
    parser.add_argument(
        "--bot-reads-deck",
        action="store_true",
        help="this bot can read the deck: an exec: computer that asks for the game's dice rolls the deal's own "
        "generator (as the original's computer; exec:python -m mille.bot bsd then plays exactly as bsd); "
        "without it, a bot rolls dice of its own (docs/protocol.md)",
    )
    # The on/off switches are taken out before parsing (SWITCHES); they are
    # here for the usage line and the help.
    hints = parser.add_mutually_exclusive_group()
    hints.add_argument(
        "--hints",
        action="store_true",
        help="h or ? at the move prompt and at Extension? asks the expert what it would do",
    )
    hints.add_argument("--no-hints", action="store_true", help="no hints, whatever the settings say")
    color = parser.add_mutually_exclusive_group()
    color.add_argument(
        "--color",
        "--colour",
        action="store_true",
        help="cards and piles in colour, on a terminal that has colours",
    )
    color.add_argument("--no-color", "--no-colour", action="store_true", help="no colour, whatever the settings say")
    parser.add_argument("--no-stats", action="store_true", help="keep no record of this run's games")
    plain = parser.add_mutually_exclusive_group()
    plain.add_argument(
        "--plain",
        action="store_true",
        help="play in lines of text, for screen readers, braille, dumb terminals and pipes",
    )
    plain.add_argument("--no-plain", action="store_true", help="the board, whatever the settings say")
    parser.add_argument(
        "--detail", choices=DETAILS, help="with --plain: brief (the default) or full (totals, and what you may play)"
    )
    people = parser.add_mutually_exclusive_group()
    people.add_argument(
        "--invite",
        metavar="USER",
        action="append",
        help="host a game for USER, a person on this machine, who joins with mille --join YOU (docs/people.md); "
        "with FILE, resume a game adjourned with them; with --players 3|4|6, USER,USER or USER:SEAT "
        "(or --invite again) seats more people",
    )
    people.add_argument(
        "--join",
        metavar="HOST",
        help="take the seat HOST invited you to; HOST@MACHINE joins over ssh MACHINE",
    )
    people.add_argument("--join-stdio", metavar="HOST", help=argparse.SUPPRESS)
    people.add_argument(
        "--watch",
        metavar="HOST",
        help="watch HOST's game: the table as everyone sees it, and its talk (T talks, Q leaves); "
        "HOST@MACHINE watches over ssh MACHINE",
    )
    people.add_argument(
        "--list",
        nargs="?",
        const="",
        metavar="@MACHINE",
        help="list the games on this machine (or @MACHINE, over ssh) that you may join or watch, and exit",
    )
    parser.add_argument(
        "--open",
        nargs="?",
        const="all",
        metavar="N",
        help="host a game with seats open to anyone on this machine (N of them; every seat not invited without N), "
        "beside --invite or alone; whoever takes one is named by the system (docs/people.md)",
    )
    parser.add_argument(
        "--no-watchers", action="store_true", help="with --invite or --open: nobody may watch the game you host"
    )
    parser.add_argument(
        "--quiet-watchers",
        action="store_true",
        help="with --invite or --open: the watchers' talk is heard by the watchers alone",
    )
    parser.add_argument("--stats", action="store_true", help="print the record of your games and exit")
    parser.add_argument("--json", action="store_true", help="with --stats or --list: print it as JSON")
    parser.add_argument(
        "--kept", action="store_true", help="list the games kept on hangups and crashes, and which are spent, and exit"
    )
    parser.add_argument(
        "--config-path", action="store_true", help="print where the settings file is read from and exit"
    )
    parser.add_argument("--version", action="version", version=f"mille (bsd-mille) {__version__}")
    return parser


def _take_switches(argv: list[str]) -> tuple[dict[str, bool], list[str]]:
    """The on/off switches given (the last of each wins) and the other arguments (up to ``--``)."""
    switches: dict[str, bool] = {}
    rest: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            rest.extend(argv[i:])
            break
        switch = SWITCHES.get(arg)
        if switch is None:
            rest.append(arg)
        else:
            switches[switch[0]] = switch[1]
    return switches, rest


def _settings() -> Settings | None:
    """The settings file's settings, or None when there is none (one stat: the reader is not imported).

    Only a file that is not there at all (nor a link by its name) is no
    settings: one that cannot be looked at (a loop of links, a directory
    that may not be searched) is said in one line, as a bad setting is.
    """
    try:
        path = settings_file()
    except OSError:  # no home directory: no settings
        return None
    st: os.stat_result | None = None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if not os.path.islink(path):
            return None
    except (OSError, ValueError):
        pass
    from .files.settings import load_cached

    return load_cached(path, st)


def _seed_argument(text: str) -> int:
    """argparse's ``type`` for ``--seed``: the refusal names the range and why."""
    value = parse_seed(text)
    if value is None:
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r} is not a seed: {SEED_RULE}")
    return value


def _computer_argument(text: str) -> str:
    """argparse's ``type`` for ``--computer``: a built-in opponent or ``exec:COMMAND``."""
    if text in OPPONENTS or is_exec_spec(text):
        return text
    import argparse

    names = ", ".join(OPPONENTS)
    raise argparse.ArgumentTypeError(f"{text!r} is not a computer: give {names}, or exec:COMMAND (docs/protocol.md)")


def _quick_parse(argv: list[str]) -> tuple[str | None, int | None, str | None] | None:
    """``[FILE] [--seed N] [--computer NAME]`` in any order, without argparse; None for anything else."""
    file: str | None = None
    seed: int | None = None
    computer: str | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--computer" or arg.startswith("--computer="):
            value = arg[len("--computer=") :] if "=" in arg else next(args, "")
            if value not in OPPONENTS or computer is not None:
                return None
            computer = value
        elif arg == "--seed" or arg.startswith("--seed="):
            value = arg[len("--seed=") :] if "=" in arg else next(args, "")
            number = parse_seed(value)
            if number is None or seed is not None:
                return None  # argparse says what is wrong
            seed = number
        elif arg.startswith("-") or file is not None:
            return None
        else:
            file = arg
    return file, seed, computer


class _Stop(Exception):
    """A way in that cannot go on: the line has been said; ``status`` is the exit status."""

    def __init__(self, status: int) -> None:
        self.status = status


def _settings_or_stop() -> Settings | None:
    """:func:`_settings`, or one line saying what is wrong with them (every way in: playing, hosting, joining)."""
    try:
        return _settings()
    except ValueError as exc:  # settings.SettingsError: one line naming the file and the line
        from .files.safeio import shown

        print(f"mille: {shown(str(exc))}", file=sys.stderr)
        raise _Stop(1) from None


def _config_path(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    from .files.safeio import shown
    from .files.settings import config_path

    try:
        print(shown(config_path()))
    except OSError as exc:  # no home directory
        print(f"mille: {exc.strerror}", file=sys.stderr)
        return 1
    return 0


def _kept(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    if args.json or args.stats:
        parser.error("--kept takes no other arguments")
    from .files.kept import print_kept

    return print_kept()


def _stats(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    from .files.tally import print_stats

    return print_stats(as_json=args.json)


def _join_stdio(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    from .ui.people.guest import join_stdio

    return join_stdio(args.join_stdio)


def _list(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    """``--list [@MACHINE] [--json]``: the games here (or there) you may join or watch."""
    from .ui.people.lobby import list_games

    return list_games(args.list or None, as_json=args.json)


def _watch(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    """``--watch HOST[@MACHINE]``: the table as everyone sees it, on the board or in lines."""
    from .ui.people.watch import watch

    settings = _settings_or_stop()
    plain, _ = choose_plain(switches, args.detail, settings)
    if args.detail is not None and not plain:
        parser.error("--detail goes with --plain (or plain = true in the settings)")
    return watch(args.watch, plain)


def _join(parser: argparse.ArgumentParser, args: argparse.Namespace, switches: dict[str, bool]) -> int:
    """``--join HOST[@MACHINE]``: a guest's seat, on the board or in lines, recorded unless ``--no-stats``."""
    from .ui.people.guest import join

    settings = _settings_or_stop()
    plain, detail = choose_plain(switches, args.detail, settings)
    if args.detail is not None and not plain:
        parser.error("--detail goes with --plain (or plain = true in the settings)")
    record = switches.get("stats", settings is None or settings.stats is not False)
    if not plain:
        return join(args.join, record=record)
    from .ui.people.inlines import guest_in_lines

    return join(args.join, lines=guest_in_lines(detail), record=record)


#: What each way in takes besides itself: anything else typed with it is a usage error, in one line.
_ALONE = "--stats, --kept and --config-path take no other arguments"
_JOIN_TAKES = ("plain", "stats")

#: The ways in that do not play a game here, in the order they are looked for: (the option, what runs it, what may
#: come with it: a usage error names the rest).  Anything else plays: alone, or hosting (:func:`_play`).
WAYS: tuple[tuple[str, Callable[[argparse.ArgumentParser, argparse.Namespace, dict[str, bool]], int], str], ...] = (
    ("config_path", _config_path, "alone"),
    ("kept", _kept, "alone"),
    ("stats", _stats, "alone"),
    ("join_stdio", _join_stdio, "join"),
    ("join", _join, "join"),
    ("watch", _watch, "join"),
    ("list", _list, "list"),
)


def main(argv: list[str] | None = None) -> int:
    """``mille ...``: the way in the arguments name (:data:`WAYS`), or a game played or hosted; the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    switches, argv = _take_switches(argv)
    try:
        parsed = _quick_parse(argv)  # the quick path: [FILE] [--seed N] [--computer NAME], without argparse
        if parsed is not None:
            file, seed, computer = parsed
            return _play(Wanted(file=file, seed=seed, computer=computer), switches)
        parser = build_parser()
        args = parser.parse_args(argv)
        hosting = args.open is not None or args.no_watchers or args.quiet_watchers
        game_options = (
            bool(args.file or args.seed is not None or args.computer or args.detail or args.bot_reads_deck)
            or args.players is not None
            or hosting
        )
        for option, run, takes in WAYS:
            if getattr(args, option) is None or getattr(args, option) is False:
                continue
            if takes == "alone" and (game_options or switches):
                parser.error(_ALONE)
            if takes == "list" and (game_options or switches or args.invite is not None):
                parser.error("--list takes no other arguments but @MACHINE and --json")
            if takes == "join" and args.json:
                parser.error("--json goes with --stats or --list")
            if takes == "join" and (
                args.file or args.seed is not None or args.computer or args.bot_reads_deck or args.players is not None
                or args.invite is not None or hosting or set(switches) - set(_JOIN_TAKES)
            ):  # fmt: skip
                parser.error(
                    f"--{option.replace('_', '-')} takes no other arguments but --plain, --detail and --no-stats"
                )
            return run(parser, args, switches)
        if args.json:
            parser.error("--json goes with --stats or --list")
        return _play(_wanted(parser, args), switches)
    except _Stop as stop:
        return stop.status


class Wanted(Record):
    """What the command line asks to play: a saved game or a new one, its seed, the computer, the table, the people."""

    __slots__ = (
        "file",
        "seed",
        "computer",
        "detail",
        "reads_deck",
        "players",
        "invited",
        "opened",
        "watchers",
        "quiet",
    )

    def __init__(
        self,
        *,
        file: str | None = None,
        seed: int | None = None,
        computer: str | None = None,
        detail: str | None = None,
        reads_deck: bool = False,
        players: int | None = None,
        invited: str | None = None,
        opened: int | None = 0,
        watchers: bool | None = None,
        quiet: bool = False,
    ) -> None:
        self.file = file
        self.seed = seed
        self.computer = computer
        self.detail = detail
        self.reads_deck = reads_deck
        self.players = players
        #: The people ``--invite`` names ("" with ``--open`` alone; None: nobody is hosted).
        self.invited = invited
        #: ``--open``: how many seats are open to anyone (None: every seat not invited; 0: none).
        self.opened = opened
        #: ``--no-watchers`` (False; None: as the settings say), ``--quiet-watchers``.
        self.watchers = watchers
        self.quiet = quiet


def _wanted(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Wanted:
    """The game the full command line asks for; usage errors (status 1) for what does not go together."""
    invited = None
    opened = _open_argument(parser, args.open)
    if (args.no_watchers or args.quiet_watchers) and args.invite is None and args.open is None:
        parser.error("--no-watchers and --quiet-watchers go with --invite or --open")
    if args.open is not None and args.invite is None:
        args.invite = []  # seats open to anyone, and nobody invited by name
    if args.invite is not None:
        if args.seed is not None:
            parser.error("--seed with --invite would make the deal public (a command line is seen by all): refused")
        invited = ",".join(args.invite)
        if invited and args.open is not None and (args.players or 2) == 2 and not args.file:
            parser.error("--open: at two seats the one other seat is invited already")
        larger = (args.players or 2) > 2
        if args.computer is not None and not larger:
            parser.error("--invite plays a person: --computer only with --players 3|4|6")
        if not larger and not args.file and ("," in invited or ":" in invited):
            parser.error("--invite: one person at two seats; more with --players 3, 4 or 6")
    if args.players is not None and args.file:
        parser.error("--players starts a new game (a saved game keeps its own table)")
    return Wanted(
        file=args.file,
        seed=args.seed,
        computer=args.computer,
        detail=args.detail,
        reads_deck=args.bot_reads_deck,
        players=args.players,
        invited=invited,
        opened=opened,
        watchers=False if args.no_watchers else None,
        quiet=args.quiet_watchers,
    )


def _open_argument(parser: argparse.ArgumentParser, value: str | None) -> int | None:
    """``--open``'s count: 0 when not given, None for every seat not invited, else how many (a usage error if none)."""
    if value is None:
        return 0
    if value == "all":
        return None
    if not value.isdigit() or not 1 <= int(value) <= 5:
        parser.error(f"--open {value}: say how many seats to open, 1 to 5 (or --open alone: every seat not invited)")
    return int(value)


def _play(wanted: Wanted, switches: dict[str, bool]) -> int:
    """Play or host the game ``wanted`` names: the game read or made, the options chosen, then one of the four runs
    (:data:`RUNS`: on the board or in lines, alone or hosting people) at any table."""
    settings = _settings_or_stop()
    file, invited = wanted.file, wanted.invited
    computer_name = wanted.computer
    game: Game | None = None
    banner: str | None = None
    window: int = ScoreView.SMALL
    saved_computer: str | None = None
    if file is not None:
        from .files import save

        try:
            loaded = save.read_game(file)
        except save.SaveError as exc:
            from .files.safeio import shown

            print(f"mille: {shown(file)}: {shown(str(exc))}", file=sys.stderr)
            return 1
        game = loaded.game
        if game.finished:
            # As the original's main(): the player to move is set to the
            # human after the file is read, so a game saved at the end of a
            # hand deals its next hand with the human to move.  (Every save
            # made at a prompt is made on the human's move; a hangup or crash
            # save made between moves may be the computer's, and goes on so.)
            game.to_move = YOU
        window = loaded.window
        saved_computer = loaded.computer
        banner = f"{file} [{save.mtime_text(file)}]"
    not_run = None
    if saved_computer is not None and is_person_spec(saved_computer) and invited is None:
        # A game adjourned with a person: played on against the original's computer unless --invite.
        saved_computer = DEFAULT_COMPUTER
    if invited is None and computer_name is None and saved_computer is not None and saved_computer not in OPPONENTS:
        # A save never runs a program by itself: only a --computer typed
        # again does (docs/protocol.md, "On the board").
        not_run, saved_computer = saved_computer, DEFAULT_COMPUTER
        banner = f"{DEFAULT_COMPUTER} plays, not {not_run}"
    # Seats for people beyond two (issue 38): the computers keep their own name; people are seated by people.seat.
    at_table = invited is not None and (game.table.seats if game is not None else wanted.players or 2) > 2
    if invited is not None and not at_table:
        if "," in invited or ":" in invited:
            print("mille: --invite: one person at two seats; more with --players 3, 4 or 6", file=sys.stderr)
            return 1
        from .players import PERSON_PREFIX

        if invited:  # (an open seat alone: the computer keeps it until someone takes it)
            computer_name = PERSON_PREFIX + invited
        saved_computer = None
    computer_name, hints, color, record = choose_options(computer_name, switches, saved_computer, settings)
    seed_value: int | None
    if invited is not None:
        seed_value = None  # a secret deal: neither person can learn it (docs/people.md)
    elif wanted.seed is not None:
        seed_value = wanted.seed  # typed on the command line, so public (docs/protocol.md, "Dice")
    elif is_exec_spec(computer_name):
        seed_value = None  # a secret deal: a bot knows its parent's process ID (issue 36)
    else:
        seed_value = os.getpid()  # the original's srandom(getpid()), §2.1
    # A secret deal has no seed at all: the generator's whole state from os.urandom (a seed of 31 bits
    # can be searched from the cards one seat is dealt, issue 43); so do the computers' dice (Choices).
    rng = GlibcRandom.from_urandom() if seed_value is None else GlibcRandom(seed_value)
    if game is None:
        game = Game(rng=rng, table=table(wanted.players or 2))
    else:
        game.rng = rng  # a save keeps no generator: a restored game is dealt on as a new one

    plain, detail = choose_plain(switches, wanted.detail, settings)
    if game.table.seats > 2:
        # The larger tables (issue 38): you and computers, which are built-in players.
        if computer_name not in OPPONENTS and not is_exec_spec(computer_name):
            print(
                f"mille: at {game.table.seats} seats the computers are built-in players ({', '.join(OPPONENTS)}) "
                "or bot programs of protocol 2 (exec:COMMAND)",
                file=sys.stderr,
            )
            return 1
    choices = Choices(
        game, file=file, banner=banner, window=window, computer_name=computer_name, seed=seed_value,
        hints=hints, color=color, record=record, detail=detail, reads_deck=wanted.reads_deck,
    )  # fmt: skip
    if not plain:
        if detail is not None:
            build_parser().error("--detail goes with --plain (or plain = true in the settings)")
        if not (os.isatty(0) and os.isatty(1)):
            print("mille: standard input and output must be a terminal (mille --plain plays in lines)", file=sys.stderr)
            return 1
        if invited is None and not_run is not None and file is not None:  # only a file names a program not run
            from .files.rescue import not_run_line

            say(not_run_line(file, not_run, DEFAULT_COMPUTER))
    if wanted.watchers is None:
        wanted.watchers = not (settings is not None and settings.watchers is False)
    return RUNS[plain, invited is not None](choices, wanted)


def _host_board(choices: Choices, wanted: Wanted) -> int:
    from .ui.people.host import play_host

    assert wanted.invited is not None
    return play_host(choices, wanted.invited, None, wanted.opened, bool(wanted.watchers), wanted.quiet)


def _host_lines(choices: Choices, wanted: Wanted) -> int:
    from .ui.people.host import play_host
    from .ui.people.inlines import host_in_lines

    assert wanted.invited is not None
    play = host_in_lines(choices)
    return play_host(choices, wanted.invited, play, wanted.opened, bool(wanted.watchers), wanted.quiet)


#: The four runs of a game played here, by (in lines, hosting people): at any table, two seats one case of it.
RUNS: dict[tuple[bool, bool], Callable[[Choices, Wanted], int]] = {
    (False, False): lambda choices, _: play_board(choices),
    (True, False): lambda choices, _: play_plain(choices),
    (False, True): _host_board,
    (True, True): _host_lines,
}


def choose_plain(switches: dict[str, bool], detail: str | None, settings: Settings | None) -> tuple[bool, str | None]:
    """(plain mode, its detail) from the command line and the settings (``plain``, ``detail``).

    The command line wins.  The detail is None when the board is played
    and no ``--detail`` was typed (one typed without plain mode is an
    error: it would be silently ignored).
    """
    plain = switches.get("plain", bool(settings and settings.plain))
    if plain:
        detail = detail or (settings.detail if settings else None) or DETAILS[0]
    return plain, detail


def choose_options(
    computer: str | None, switches: dict[str, bool], saved_computer: str | None, settings: Settings | None
) -> tuple[str, bool, bool, bool]:
    """(computer, hints, colour, record) from the command line, the game restored and the settings.

    The command line wins; then, for the computer, the one a restored game
    was saved with; then the settings file; then the defaults (the
    original's computer, no hints, no colour, a record of games).
    ``NO_COLOR`` (no-color.org) turns off the settings' colour, not a
    ``--color`` typed on the command line.
    """
    if computer is None:
        computer = saved_computer or (settings.computer if settings else None) or DEFAULT_COMPUTER
    hints = switches.get("hints", bool(settings and settings.hints))
    color = switches.get("color")
    if color is None:
        color = bool(settings and settings.color) and not os.environ.get("NO_COLOR")
    record = switches.get("stats", settings is None or settings.stats is not False)
    return computer, hints, color, record
