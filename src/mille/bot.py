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

#: Games the bot offers to play at once (its hello's ``games``): a match in one process then plays
#: that many on it, every message tagged; a host that plays one game at a time is served as before.
GAMES = 64


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
    parser.add_argument(
        "--games",
        type=int,
        default=GAMES,
        metavar="K",
        help=f"games offered at once, each message tagged (docs/protocol-speed.md, 'Games in flight'; default {GAMES})",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        return serve(args.player, name=args.name, games=args.games)
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
