"""Command line: ``mille [--seed N] [file]``.  Wires the engine, saves and the screen.

Start-up time is part of the game's feel (and a measured target), so modules
that the first board does not need (argparse, the save code, traceback) are
imported only when they are needed.
"""

from __future__ import annotations

import os
import sys

from . import __version__
from .state import HUMAN, Game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    import argparse


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
    parser.add_argument("--version", action="version", version=f"mille (bsd-mille) {__version__}")
    return parser


def _quick_parse(argv: list[str]) -> tuple[str | None, int | None] | None:
    """``[FILE] [--seed N]`` in any order, without argparse; None for anything else."""
    file: str | None = None
    seed: int | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--seed" or arg.startswith("--seed="):
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
    return file, seed


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parsed = _quick_parse(argv)
    if parsed is None:
        args = build_parser().parse_args(argv)
        parsed = (args.file, args.seed)
    file, seed = parsed

    game = Game()
    banner: str | None = None
    pending = False
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
        game.play = HUMAN
        pending = loaded.pending_extension
        banner = f"{file} [{save.mtime_text(file)}]"
    game.rng.seed(seed if seed is not None else os.getpid())

    if not (os.isatty(0) and os.isatty(1)):
        print("mille: standard input and output must be a terminal", file=sys.stderr)
        return 1

    from .ui.app import MilleApp
    from .ui.cursesterm import CursesTerminal

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
            pending_extension=pending,
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


def _write_game(name: str, snapshot: Game, pending_extension: bool) -> None:
    from . import save

    save.write_game(name, snapshot, pending_extension)


def _save_on_hangup(snapshot: Game, pending_extension: bool) -> None:
    from . import save

    save.write_game(str(save.hangup_path()), snapshot, pending_extension)
