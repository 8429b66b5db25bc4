"""mille: a faithful re-creation of the 4.4BSD Mille Bornes game.

The package is in layers (``docs/architecture.md``): ``engine`` (the rules,
no I/O), ``players``, ``files`` (what touches the person's disk), ``lab``
(headless play and measurement), ``ui`` (the faces), and at the top the
commands: ``cli`` (``mille``), ``match``, ``tournament`` and ``sim``.

The engine's modules were once top-level (``mille.rules``, ``mille.cards``,
...), and bots written against those names (docs/bots.md) still import
them: such a name is the engine module itself, found by :class:`_OldNames`
only when the usual finders have not found it (so it costs nothing
otherwise).
"""

from __future__ import annotations

__version__ = "0.1.0"

import sys as _sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: Engine modules by the top-level names they had before the layers.
_ENGINE = ("cards", "rng", "record", "state", "rules", "scoring", "position", "observation", "driver")


class _OldNames:
    """``import mille.rules`` gives :mod:`mille.engine.rules` (a finder on ``sys.meta_path``)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None, /
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in _ENGINE:
            return None
        from importlib import import_module
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, _Alias(import_module(f"{__name__}.engine.{name}")))  # type: ignore[arg-type]


class _Alias:
    """A loader whose module is one already imported under its own name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass


if not any(type(finder) is _OldNames for finder in _sys.meta_path):
    _sys.meta_path.append(_OldNames())
