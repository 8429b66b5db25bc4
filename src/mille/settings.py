"""The player's settings: ``$XDG_CONFIG_HOME/mille/config.toml``.

A few lines of TOML make an option the default without typing it every
time::

    computer = "expert"   # the computer to play against (a restored game keeps its own)
    hints = true          # the hint key, h or ?
    color = true          # cards and piles in colour, on a terminal that has colours
    stats = false         # keep no record of games

Flags on the command line win over the file.  A setting that is not one of
these, or a value of the wrong kind, is an error naming the file and the
line, and the game does not start: a setting silently ignored would look
like a program that does not listen.

The file is read only if it exists (the caller looks first, with a
``stat``, so that a player without one pays nothing at start-up), with
the standard library's :mod:`tomllib` (Python 3.11 and later) or the
``tomli`` backport (3.10, installed with the package).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from .players import OPPONENTS

#: The settings and what each may be.
KEYS = ("computer", "hints", "color", "stats")


class SettingsError(ValueError):
    """A settings file that cannot be used: one line, ``FILE: line N: what``."""


class Settings:
    """The settings read (None: not set, the program's default applies)."""

    __slots__ = KEYS

    def __init__(
        self,
        computer: str | None = None,
        hints: bool | None = None,
        color: bool | None = None,
        stats: bool | None = None,
    ) -> None:
        self.computer = computer
        self.hints = hints
        self.color = color
        self.stats = stats

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and all(getattr(self, k) == getattr(other, k) for k in KEYS)

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in KEYS) + ")"


def config_path() -> str:
    """``$XDG_CONFIG_HOME/mille/config.toml``; ``~/.config`` when it is unset or relative (as XDG says)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "mille", "config.toml")


def _line_of(text: str, key: str) -> int:
    """The line where ``key`` is set (or opens a table); 1 if it cannot be found."""
    name = re.escape(key)
    pattern = re.compile(rf"""^\s*(\[+\s*)?(?:{name}|"{name}"|'{name}')\s*[=.\]]""")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return 1


def _toml() -> Any:
    """:mod:`tomllib`, or on Python 3.10 the ``tomli`` backport (installed with the package there)."""
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    import importlib

    return importlib.import_module("tomli")


def parse(text: str, path: str) -> Settings:
    """The settings in ``text`` (read from ``path``, which the messages name)."""
    toml = _toml()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
        if found:
            raise SettingsError(f"{path}: line {found.group(1)}: {message[: found.start()]}") from None
        found = re.search(r"\s*\(at end of document\)$", message)
        if found:
            last = max(1, len(text.splitlines()))
            raise SettingsError(f"{path}: line {last}: {message[: found.start()]}") from None
        raise SettingsError(f"{path}: {message}") from None
    settings = Settings()
    for key, value in data.items():
        where = f"{path}: line {_line_of(text, key)}"
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(key.lower(), KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(KEYS)})"
            raise SettingsError(f"{where}: unknown setting {key!r}{hint}")
        if key == "computer":
            if not isinstance(value, str) or value not in OPPONENTS:
                names = " or ".join(f'"{name}"' for name in OPPONENTS)
                raise SettingsError(f"{where}: computer must be {names}, not {_show(value)}")
        elif type(value) is not bool:
            raise SettingsError(f"{where}: {key} must be true or false, not {_show(value)}")
        setattr(settings, key, value)
    return settings


def _show(value: object) -> str:
    """A value as TOML would spell it, for a message (short)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list):
        text = "a list"
    else:
        text = str(value)
    return text if len(text) <= 30 else text[:27] + "..."


def load(path: str) -> Settings:
    """Read and check the settings file at ``path``; :class:`SettingsError` for anything wrong."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError as exc:
        raise SettingsError(f"{path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SettingsError(f"{path}: line {line}: not UTF-8 text") from None
    return parse(text, path)


__all__ = ["KEYS", "Settings", "SettingsError", "config_path", "load", "parse"]
