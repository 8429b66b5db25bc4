"""The engine: the rules of mille, and nothing else (no I/O, no terminal, no player).

Cards, the glibc generator that deals them, the game's state, the rules of
a move (``rules``: what comes next, legality with the original's messages,
the parts of a move), points (``scoring``), whether a position is one the
rules can reach (``position``), what one seat may see (``observation``)
and the hand driver that plays a hand at any table (``driver``).
It imports nothing of the layers above (docs/architecture.md).
"""
