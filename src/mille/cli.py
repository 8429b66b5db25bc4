"""Command line: ``mille [--seed N] [file]``.  Wires the engine, saves and the screen."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from typing import NoReturn

from . import __version__
from .state import HUMAN, Game


class _Parser(argparse.ArgumentParser):
    """Usage errors exit with status 1, as the original's do."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from . import save

    game = Game()
    banner: str | None = None
    pending = False
    if args.file is not None:
        try:
            loaded = save.read_game(args.file)
        except save.SaveError as exc:
            print(f"mille: {args.file}: {exc}", file=sys.stderr)
            return 1
        game = loaded.game
        # As the original's main(): the player to move is set to the human
        # after the file is read, so a restored game always goes on (or deals
        # its next hand) with the human to move, whatever the file says.
        game.play = HUMAN
        pending = loaded.pending_extension
        banner = f"{args.file} [{save.mtime_text(args.file)}]"
    game.rng.seed(args.seed if args.seed is not None else os.getpid())

    from .ui.app import MilleApp
    from .ui.cursesterm import CursesTerminal

    if not (os.isatty(0) and os.isatty(1)):
        print("mille: standard input and output must be a terminal", file=sys.stderr)
        return 1

    def save_on_hangup(snapshot: Game, pending_extension: bool) -> None:
        save.write_game(str(save.hangup_path()), snapshot, pending_extension)

    term = CursesTerminal()
    try:
        term.start()
        app = MilleApp(
            term,
            game,
            save_writer=save.write_game,
            hangup_saver=save_on_hangup,
            from_file=args.file,
            restore_banner=banner,
            pending_extension=pending,
        )
        status = app.run(restore=args.file is not None)
    except KeyboardInterrupt:
        term.stop()
        return 1
    except Exception:
        term.stop()
        traceback.print_exc()
        return 1
    term.stop()
    return status
