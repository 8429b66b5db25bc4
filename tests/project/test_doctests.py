"""The examples in the engine's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mille


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(mille.__path__, "mille."):
        if info.name in ("mille.__main__", "mille.ui.cursesterm"):
            continue  # runs the game; imports curses, which a machine may lack
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_some_modules_have_examples() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(n)).attempted
        for n in ("mille.engine.position", "mille.engine.observation")
    )
    assert attempted >= 8
