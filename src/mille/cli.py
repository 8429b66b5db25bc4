"""Command line: ``mille [--seed N] [--computer NAME] [--hints] [--color] [--no-stats] [file]``.

Wires the engine, saves, the settings, the record of games and the screen.
Start-up time is part of the game's feel (and a measured target), so modules
that the first board does not need (argparse, the save code, traceback, the
settings reader when there is no settings file, the hints and the colours
when they are off) are imported only when they are needed.
"""

from __future__ import annotations

import os
import sys

from . import __version__
from .players import OPPONENTS
from .state import Game
from .ui.layout import YOU, ScoreView

DEFAULT_COMPUTER = OPPONENTS[0]
#: Mixed into the seed for a computer player that is not the original's:
#: its dice are its own, so the deals stay those of the seed.
_DICE_SALT = 0x6D696C6C

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    import argparse

    from .ledger import Recorder
    from .players import Player
    from .rng import GlibcRandom
    from .settings import Settings
    from .ui.surface import Terminal

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
}


def build_parser() -> argparse.ArgumentParser:
    """The full parser: help, version and usage errors (exit status 1, as the original)."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.print_usage(sys.stderr)
            self.exit(1, f"{self.prog}: {message}\n")

    parser = Parser(
        prog="mille",
        description="Mille Bornes against the computer: a faithful re-creation of 4.4BSD mille.",
        epilog="Keys: P pick, U use, D discard, O order hand, W score window, S save, Q quit, R or ^L redraw; "
        "H or ? a hint (with --hints).  Settings: the file --config-path prints.",
    )
    parser.add_argument("file", nargs="?", help="resume the game saved in FILE")
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed the dealer with N: deals exactly as 4.4BSD mille run with process id N",
    )
    parser.add_argument(
        "--computer",
        choices=OPPONENTS,
        metavar="NAME",
        help="the computer player: bsd (the original's, the default) or expert (stronger); "
        "a restored game keeps its own unless this is given",
    )
    parser.add_argument(
        "--hints",
        action="store_true",
        help="h or ? at the move prompt and at Extension? asks the expert what it would do (--no-hints: off)",
    )
    parser.add_argument(
        "--color",
        "--colour",
        action="store_true",
        help="cards and piles in colour, on a terminal that has colours (--no-color: off)",
    )
    parser.add_argument("--no-stats", action="store_true", help="keep no record of this run's games")
    parser.add_argument("--stats", action="store_true", help="print the record of your games and exit")
    parser.add_argument("--json", action="store_true", help="with --stats: print the record as JSON")
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
    """The settings file's settings, or None when there is none (one stat: nothing imported)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".config")
    path = os.path.join(base, "mille", "config.toml")
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    from .settings import load_cached

    return load_cached(path, st)


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
            try:
                number = int(value, 10)
            except ValueError:
                return None
            if seed is not None:
                return None
            seed = number
        elif arg.startswith("-") or file is not None:
            return None
        else:
            file = arg
    return file, seed, computer


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    switches, argv = _take_switches(argv)
    parsed = _quick_parse(argv)
    if parsed is None:
        parser = build_parser()
        args = parser.parse_args(argv)
        if (args.stats or args.config_path) and (args.file or args.seed is not None or args.computer or switches):
            parser.error("--stats and --config-path take no other arguments")
        if args.config_path:
            from .settings import config_path

            print(config_path())
            return 0
        if args.stats:
            from .ledger import print_stats

            return print_stats(as_json=args.json)
        if args.json:
            parser.error("--json goes with --stats")
        parsed = (args.file, args.seed, args.computer)
    file, seed, computer_name = parsed
    try:
        settings = _settings()
    except ValueError as exc:  # settings.SettingsError: one line naming the file and the line
        print(f"mille: {exc}", file=sys.stderr)
        return 1

    game = Game()
    banner: str | None = None
    window: int = ScoreView.SMALL
    saved_computer: str | None = None
    if file is not None:
        from . import save

        try:
            loaded = save.read_game(file)
        except save.SaveError as exc:
            print(f"mille: {file}: {exc}", file=sys.stderr)
            return 1
        game = loaded.game
        # As the original's main(): the player to move is set to the human
        # after the file is read, so a restored game always goes on (or deals
        # its next hand) with the human to move, whatever the file says.
        game.to_move = YOU
        window = loaded.window
        saved_computer = loaded.computer
        banner = f"{file} [{save.mtime_text(file)}]"
    seed_value = seed if seed is not None else os.getpid()
    game.rng.seed(seed_value)
    computer_name, hints, color, record = choose_options(computer_name, switches, saved_computer, settings)

    if not (os.isatty(0) and os.isatty(1)):
        print("mille: standard input and output must be a terminal", file=sys.stderr)
        return 1

    from .ui.app import MilleApp
    from .ui.cursesterm import CursesTerminal

    computer, dice = computer_player(computer_name, seed_value)
    recorder: list[Recorder] = []  # made at its first event, after the first board
    restored = game.copy() if file is not None and record else None

    def make_recorder() -> Recorder:
        from .ledger import Recorder

        recorder.append(Recorder(restored=restored))
        return recorder[0]

    adviser = None
    if hints:
        from .hints import Adviser

        adviser = Adviser()

    term = CursesTerminal()
    try:
        term.start()
        screen: Terminal = term
        if color:
            from .ui.palette import colour_terminal

            screen = colour_terminal(term)
        app = MilleApp(
            screen,
            game,
            save_writer=_write_game,
            hangup_saver=_save_on_hangup,
            from_file=file,
            restore_banner=banner,
            window=window,
            computer=computer,
            computer_name=computer_name,
            computer_dice=dice,
            stats=make_recorder if record else None,
            hints=adviser,
        )
        status = app.run(restore=file is not None)
    except KeyboardInterrupt:
        term.stop()
        _report(recorder)
        return 1
    except Exception:
        term.stop()
        import traceback

        traceback.print_exc()
        _report(recorder)
        return 1
    term.stop()
    _report(recorder)
    return status


def _report(recorder: list[Recorder]) -> None:
    """What went wrong with the record of games, once the terminal is back (never on the game screen)."""
    for made in recorder:
        for problem in made.problems:
            print(f"mille: {problem}", file=sys.stderr)


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


def computer_player(name: str, seed: int) -> tuple[Player | None, GlibcRandom | None]:
    """The computer's player and dice for ``name``; (None, None) for ``bsd``.

    ``bsd`` is played by the front end's own path, on the game's generator,
    so that every deal and every screen stays the original's.  Any other
    player rolls dice of its own, seeded from the game's seed, so that the
    deals of a seed stay the same whoever sits in the computer's seat.
    """
    if name == DEFAULT_COMPUTER:
        return None, None
    from .players import make_player
    from .rng import GlibcRandom

    return make_player(name), GlibcRandom((seed ^ _DICE_SALT) & 0xFFFFFFFF)


def _write_game(name: str, game: Game, window: int, computer: str) -> None:
    from . import save

    save.write_game(name, game, window, computer)


def _save_on_hangup(game: Game, window: int, computer: str) -> None:
    from . import save

    save.write_game(str(save.hangup_path()), game, window, computer)
