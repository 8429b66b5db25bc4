"""The player's settings: ``$XDG_CONFIG_HOME/mille/config.toml``.

A few lines of TOML make an option the default without typing it every
time::

    computer = "expert"   # the computer to play against (a restored game keeps its own)
    hints = true          # the hint key, h or ?
    color = true          # cards and piles in colour, on a terminal that has colours
    stats = false         # keep no record of games
    plain = true          # play in lines of text (mille --plain), for screen readers and pipes
    detail = "full"       # plain mode's detail: "brief" (the default) or "full"
    watchers = false      # a game you host with people takes no watchers (mille --no-watchers)

Flags on the command line win over the file.  A setting that is not one of
these, or a value of the wrong kind, is an error naming the file and the
line, and the game does not start: a setting silently ignored would look
like a program that does not listen.

Nothing from outside is trusted (:mod:`mille.files.safeio`): a file
larger than :data:`MAX_SIZE` is refused whole (never read in part), a FIFO
or a device is refused without waiting, a file others may write or a
directory that is another user's or open to others is refused, and values
are escaped in the messages.

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
file is parsed again.  The cache is written whole under a name nobody can
guess (never through a link), and a cache directory that is not the
player's alone is not used at all.  A file with a mistake is never cached: it is
reported at every start until it is mended.
"""

from __future__ import annotations

import os
import sys

from .. import __version__
from ..players import OPPONENTS
from .places import cache_directory, settings_file
from .safeio import (
    NotPrivate,
    TooLarge,
    check_owned,
    check_private,
    private_directory,
    read_regular,
    replace_file,
    shown,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

#: The settings and what each may be.
KEYS = ("computer", "hints", "color", "stats", "plain", "detail", "watchers")
#: The settings whose value is a word, and the words each may be.
WORDS: dict[str, tuple[str, ...]] = {"computer": OPPONENTS, "detail": ("brief", "full")}


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
        plain: bool | None = None,
        detail: str | None = None,
        watchers: bool | None = None,
    ) -> None:
        self.computer = computer
        self.hints = hints
        self.color = color
        self.stats = stats
        self.plain = plain
        self.detail = detail
        self.watchers = watchers

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
    except RecursionError:  # the reader recurses into each nested array or table
        raise SettingsError(
            f"{path}: nested too deeply (arrays or tables inside each other); not a settings file"
        ) from None
    except toml.TOMLDecodeError as exc:
        import re

        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
        if found:
            number = int(found.group(1))
        else:
            found = re.search(r"\s*\(at end of document\)$", message)
            number = max(1, len(text.splitlines()))
        if found is None:
            raise SettingsError(f"{path}: {message}") from None
        raise SettingsError(_syntax_error(text, path, number, message[: found.start()])) from None
    settings = Settings()
    for key, value in data.items():
        where = f"{path}: line {_line_of(text, key)}"
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(key.lower(), KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(KEYS)})"
            raise SettingsError(f"{where}: unknown setting {shown(repr(key))}{hint}")
        if key in WORDS:
            if not isinstance(value, str) or value not in WORDS[key]:
                names = " or ".join(f'"{name}"' for name in WORDS[key])
                raise SettingsError(f"{where}: {key} must be {names}, not {_show(value)}")
        elif type(value) is not bool:
            raise SettingsError(f"{where}: {key} must be true or false, not {_show(value)}")
        setattr(settings, key, value)
    return settings


#: What each setting takes, for the messages.
_EXPECTED = {
    "computer": " or ".join(f'"{name}"' for name in OPPONENTS) + " (in double quotes)",
    "hints": "true or false",
    "color": "true or false",
    "stats": "true or false",
    "plain": "true or false",
    "detail": '"brief" or "full" (in double quotes)',
    "watchers": "true or false",
}


def _syntax_error(text: str, path: str, number: int, message: str) -> str:
    """``FILE: line N: WHAT in 'THE LINE'; expected ...``: the line quoted, and what it should hold."""
    lines = text.splitlines()
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    quoted = _show(line if len(line) <= 60 else line[:57] + "...")
    words = line.split("=", 1)[0].split()
    key = words[0].strip("\"'") if words else ""
    if message.startswith(("Cannot overwrite", "Cannot declare")):
        expected = "each setting once"
    elif key in _EXPECTED:
        expected = f"{key} = {_EXPECTED[key]}"
    else:
        expected = 'a setting on each line, as NAME = VALUE (hints = true, computer = "expert")'
    where = f" in {quoted}" if line else ""
    return f"{path}: line {number}: {message}{where}; expected {expected}"


def _show(value: object) -> str:
    """A value as TOML would spell it, for a message (short, control characters escaped)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        import json

        text = shown(json.dumps(value, ensure_ascii=False))  # \u001b, not the raw byte
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
        if name in WORDS:
            if value not in WORDS[name]:
                return None
            setattr(settings, name, value)
        elif value in ("0", "1"):
            setattr(settings, name, value == "1")
        else:
            return None
    # Only what this very function would write back is believed.
    return settings if _cache_text(key, settings) == text else None


#: The largest settings file read (a real one is a few lines).
MAX_SIZE = 1 << 20
#: The largest cache read (a real one is about 200 bytes).
_MAX_CACHE = 4096


def _check_directory(path: str) -> None:
    """Refuse the settings unless their directory is the player's own and closed to others."""
    try:
        check_private(os.path.dirname(path) or os.curdir)
    except NotPrivate as exc:
        raise SettingsError(f"{exc.filename}: {exc.strerror} (the settings in it are not read)") from None
    except OSError:
        pass  # no directory: the file cannot be opened either, and load says why


def _private_cache(make: bool) -> str | None:
    """The cache file's path if its directory is private (made if ``make``), else None: no cache is used.

    A cache directory that belongs to someone else or is open to others
    is neither read nor written, and nothing is said: the settings are
    read from their file at every start instead, which is only slower.
    """
    try:
        cache = cache_path()
        directory = os.path.dirname(cache)
        if make:
            private_directory(directory)
        else:
            check_private(directory)
    except OSError:
        return None
    return cache


def load_cached(path: str, st: os.stat_result | None = None) -> Settings:
    """The settings in ``path``: from the cache while the file is unchanged, else read (and cached).

    Raises :class:`SettingsError` as :func:`load` does; a cache that cannot
    be read or written, or whose directory is not private, is only a
    slower start.  A path through a regular file (``ENOTDIR``: a HOME
    under a file) is no file, as a missing one is: the defaults apply.
    """
    if st is None:
        try:
            st = os.stat(path)
        except NotADirectoryError:  # ENOTDIR (HOME under a regular file): no file there, as git takes it
            return Settings()
        except OSError as exc:
            why = exc.strerror or str(exc)
            if isinstance(exc, FileNotFoundError) and os.path.islink(path):
                why = "a symbolic link to a file that does not exist"
            raise SettingsError(f"{path}: {why}") from None
    _check_directory(path)
    key = _cache_key(path, st)
    cache = _private_cache(make=False)
    if cache is not None:
        try:
            data, _ = read_regular(cache, _MAX_CACHE, follow=False)
            cached = _from_cache(data.decode("utf-8"), key)
        except (OSError, ValueError):
            cached = None
        if cached is not None:
            return cached
    settings, st = _load(path)
    cache = _private_cache(make=True)
    if cache is not None:
        try:
            replace_file(cache, _cache_text(_cache_key(path, st), settings).encode("utf-8"), 0o600)
        except OSError:
            pass
    return settings


def load(path: str) -> Settings:
    """Read and check the settings file at ``path``; :class:`SettingsError` for anything wrong.

    Never blocks (a FIFO or a device is refused), never reads past
    :data:`MAX_SIZE` (a larger file is refused whole: a setting past the
    limit would otherwise be ignored without a word), and reads nothing
    from a directory that is another user's or open to others.
    """
    _check_directory(path)
    return _load(path)[0]


def _load(path: str) -> tuple[Settings, os.stat_result]:
    try:
        data, st = read_regular(path, MAX_SIZE)
    except TooLarge as exc:
        raise SettingsError(
            f"{path}: too large for a settings file ({exc.size} bytes or more; the limit is {MAX_SIZE}), not read"
        ) from None
    except OSError as exc:
        raise SettingsError(f"{path}: {exc.strerror or exc}") from None
    try:
        check_owned(st, path)  # as the directory: nobody else's hand in the settings
    except NotPrivate as exc:
        raise SettingsError(f"{path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SettingsError(f"{path}: line {line}: not UTF-8 text") from None
    return parse(text, path), st


__all__ = ["KEYS", "MAX_SIZE", "Settings", "SettingsError", "cache_path", "config_path", "load", "load_cached", "parse"]
