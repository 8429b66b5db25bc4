"""Where mille keeps its files, by the XDG base directory rules, and how it makes them.

Everything the game writes on its own goes under the player's XDG
directories: hangup and crash saves and the record of games in the state
directory (``$XDG_STATE_HOME/mille``), the settings in the config directory
(``$XDG_CONFIG_HOME/mille``), the parsed settings in the cache directory
(``$XDG_CACHE_HOME/mille``).  A variable that is unset, empty or not an
absolute path is ignored, as the specification says, and the default
under the home directory is used.  Only :mod:`os` is imported: the command
line asks for the settings file before the first board.
"""

from __future__ import annotations

import errno
import os

#: (variable, default below the home directory) of the three directories.
_STATE = ("XDG_STATE_HOME", (".local", "state"))
_CONFIG = ("XDG_CONFIG_HOME", (".config",))
_CACHE = ("XDG_CACHE_HOME", (".cache",))


def _xdg(which: tuple[str, tuple[str, ...]]) -> str:
    variable, default = which
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            raise OSError(errno.ENOENT, "no home directory (HOME is unset or not absolute)")
        base = os.path.join(home, *default)
    return os.path.join(base, "mille")


def state_directory() -> str:
    """``$XDG_STATE_HOME/mille`` (``~/.local/state/mille``); :class:`OSError` without a home."""
    return _xdg(_STATE)


def config_directory() -> str:
    """``$XDG_CONFIG_HOME/mille`` (``~/.config/mille``); :class:`OSError` without a home."""
    return _xdg(_CONFIG)


def settings_file() -> str:
    """``$XDG_CONFIG_HOME/mille/config.toml``, the player's settings (:mod:`mille.files.settings`)."""
    return os.path.join(config_directory(), "config.toml")


def cache_directory() -> str:
    """``$XDG_CACHE_HOME/mille`` (``~/.cache/mille``); :class:`OSError` without a home."""
    return _xdg(_CACHE)


def make_private_dirs(directory: str) -> None:
    """Create ``directory`` and any missing parents with mode 0700 (what is kept there is the player's).

    A file in the way is a :class:`NotADirectoryError`.
    """
    if os.path.isdir(directory):
        return
    parent = os.path.dirname(directory)
    if parent and parent != directory:
        make_private_dirs(parent)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        if not os.path.isdir(directory):
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), directory) from None


def sync_directory(directory: str) -> None:
    """Make a new or renamed name in ``directory`` durable (best effort: not every system can)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(directory, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = [
    "cache_directory",
    "config_directory",
    "make_private_dirs",
    "settings_file",
    "state_directory",
    "sync_directory",
]
