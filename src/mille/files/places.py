"""Where mille keeps its files, by the XDG base directory rules (:mod:`.safeio` makes and checks them).

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


def guides() -> str | None:
    """Where the guides that ``--help`` and the manual name (``docs/people.md``, ...) can be read; None if nowhere.

    An install puts them beside the manual page under the environment's
    data directory (``share/doc/bsd-mille``: a virtualenv, ``pipx install
    --global``, a venv under ``/opt``, ``pip install --user``); a checkout
    run in place has them in its own ``docs``.
    """
    import sys

    candidates = [os.path.join(sys.prefix, "share", "doc", "bsd-mille", "docs")]
    try:
        import site

        candidates.append(os.path.join(site.getuserbase(), "share", "doc", "bsd-mille", "docs"))
    except (AttributeError, OSError):  # pragma: no cover - a site module without user bases
        pass
    here = os.path.dirname(os.path.abspath(__file__))  # src/mille/files in a checkout
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(here))), "docs"))
    for path in candidates:
        if os.path.isfile(os.path.join(path, "people.md")):
            return path
    return None


__all__ = [
    "cache_directory",
    "config_directory",
    "guides",
    "settings_file",
    "state_directory",
]
