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

Importing the TOML reader (with :mod:`re`, :mod:`typing`, :mod:`datetime`
and :mod:`string`) costs more than everything else before the first board
together, so a file that has been read and found good is remembered in a
small cache (:func:`cache_path`), keyed by everything ``stat`` says about
the file; while the file is unchanged, a start reads the cache and never
imports the reader.  Any change to the file (its time, size or inode), a
new version of mille, or a cache that does not read back exactly, and the
file is parsed again.  A file with a mistake is never cached: it is
reported at every start until it is mended.
"""

from __future__ import annotations

import os
import sys

from .. import __version__
from ..players import OPPONENTS
from .places import cache_directory, settings_file

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

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
    """Where the settings are read: ``$XDG_CONFIG_HOME/mille/config.toml`` (:func:`.places.settings_file`)."""
    return settings_file()


def _line_of(text: str, key: str) -> int:
    """The line where ``key`` is set (or opens a table); 1 if it cannot be found."""
    import re

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
        import re

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


def cache_path() -> str:
    """``$XDG_CACHE_HOME/mille/settings`` (:func:`mille.files.places.cache_directory`)."""
    return os.path.join(cache_directory(), "settings")


def _cache_key(path: str, st: os.stat_result) -> str:
    """Everything that says the file, and the rules it was checked by, are the same as when it was cached."""
    parts = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)
    return " ".join(["mille-settings", __version__, ",".join(OPPONENTS), *map(str, parts), os.path.abspath(path)])


def _cache_text(key: str, settings: Settings) -> str:
    values = []
    for name in KEYS:
        value = getattr(settings, name)
        values.append(f"{name}={'' if value is None else value if isinstance(value, str) else int(value)}")
    return "\n".join([key, *values]) + "\n"


def _from_cache(text: str, key: str) -> Settings | None:
    """The settings a cache holds for ``key``, or None (a stale, foreign or damaged cache)."""
    lines = text.split("\n")
    if len(lines) != len(KEYS) + 2 or lines[0] != key or lines[-1] != "":
        return None
    settings = Settings()
    for name, line in zip(KEYS, lines[1:]):
        field, sep, value = line.partition("=")
        if field != name or not sep:
            return None
        if not value:
            continue
        if name == "computer":
            if value not in OPPONENTS:
                return None
            settings.computer = value
        elif value in ("0", "1"):
            setattr(settings, name, value == "1")
        else:
            return None
    # Only what this very function would write back is believed.
    return settings if _cache_text(key, settings) == text else None


def load_cached(path: str, st: os.stat_result | None = None) -> Settings:
    """The settings in ``path``: from the cache while the file is unchanged, else read (and cached).

    Raises :class:`SettingsError` as :func:`load` does; a cache that cannot
    be read or written is only a slower start.
    """
    try:
        st = os.stat(path) if st is None else st
    except OSError as exc:
        raise SettingsError(f"{path}: {exc.strerror or exc}") from None
    key = _cache_key(path, st)
    cache = cache_path()
    try:
        with open(cache, encoding="utf-8") as f:
            cached = _from_cache(f.read(4096), key)
    except (OSError, ValueError):
        cached = None
    if cached is not None:
        return cached
    settings = load(path)
    try:
        os.makedirs(os.path.dirname(cache), mode=0o700, exist_ok=True)
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(_cache_text(key, settings))
        os.replace(tmp, cache)
    except OSError:
        pass
    return settings


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


__all__ = ["KEYS", "Settings", "SettingsError", "cache_path", "config_path", "load", "load_cached", "parse"]
