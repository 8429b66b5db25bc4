"""The machine's processes as Linux's /proc shows them (for the tests that watch processes come and go)."""

from __future__ import annotations

import os
from collections.abc import Iterator


def processes() -> Iterator[tuple[int, str, int]]:
    """Each process now running: (pid, one-letter state, parent pid); one that ends meanwhile is passed over."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                data = f.read()
        except OSError:
            continue
        # The command's name in parentheses may itself hold spaces and ")".
        fields = data[data.rindex(")") + 2 :].split()
        yield int(name), fields[0], int(fields[1])
