"""Command line: ``mille [--seed N] [--computer NAME] [file]``.  Wires the engine, saves and the screen.

Start-up time is part of the game's feel (and a measured target), so modules
that the first board does not need (argparse, the save code, traceback) are
imported only when they are needed.
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

    from .players import Player
    from .rng import GlibcRandom


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
        epilog="Keys: P pick, U use, D discard, O order hand, W score window, S save, Q quit, R or ^L redraw.",
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
    parser.add_argument("--version", action="version", version=f"mille (bsd-mille) {__version__}")
    return parser


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
    parsed = _quick_parse(argv)
    if parsed is None:
        args = build_parser().parse_args(argv)
        parsed = (args.file, args.seed, args.computer)
    file, seed, computer_name = parsed

    game = Game()
    banner: str | None = None
    window: int = ScoreView.SMALL
    saved_computer = DEFAULT_COMPUTER
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
    if computer_name is None:
        computer_name = saved_computer

    if not (os.isatty(0) and os.isatty(1)):
        print("mille: standard input and output must be a terminal", file=sys.stderr)
        return 1

    from .ui.app import MilleApp
    from .ui.cursesterm import CursesTerminal

    computer, dice = computer_player(computer_name, seed_value)

    term = CursesTerminal()
    try:
        term.start()
        app = MilleApp(
            term,
            game,
            save_writer=_write_game,
            hangup_saver=_save_on_hangup,
            from_file=file,
            restore_banner=banner,
            window=window,
            computer=computer,
            computer_name=computer_name,
            computer_dice=dice,
        )
        status = app.run(restore=file is not None)
    except KeyboardInterrupt:
        term.stop()
        return 1
    except Exception:
        term.stop()
        import traceback

        traceback.print_exc()
        return 1
    term.stop()
    return status


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
