"""``python -m mille.bot NAME``: a player served over the bot protocol (docs/protocol.md).

NAME is a built-in player (``bsd``, ``expert``, ...) or ``module:attribute``,
as for ``python -m mille.match``; the bot reads the host's messages on its
standard input and answers on its standard output
(:mod:`mille.players.serve`).  So ``python -m mille.match 'exec:python -m
mille.bot expert' bsd`` plays the expert in a process of its own, and
``mille --computer 'exec:python -m mille.bot bsd'`` the original's
computer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from .players import BUILTIN, PlayerSpecError
    from .players.serve import ProtocolError, serve

    parser = argparse.ArgumentParser(
        prog="python -m mille.bot",
        description="Serve a player over the bot protocol on standard input and output (docs/protocol.md).",
        epilog=f"Players: {', '.join(BUILTIN)}, or module:attribute.",
    )
    parser.add_argument("player", metavar="NAME", help="the player to serve")
    parser.add_argument("--name", help="the name the bot gives in its hello (default: the player's)")
    args = parser.parse_args(argv)
    try:
        return serve(args.player, name=args.name)
    except PlayerSpecError as exc:
        print(f"mille.bot: {exc}", file=sys.stderr)
        return 2
    except ProtocolError as exc:
        print(f"mille.bot: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the host has gone
        return 0


if __name__ == "__main__":
    sys.exit(main())
