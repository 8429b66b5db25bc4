"""The package's layers (docs/architecture.md): who may import whom, and no circles; and the lab's own layers.

The engine knows nothing of the players; the players know nothing of the
person's files, the lab or the faces; and so up.  This reads every
``import`` in ``src/mille`` (at the top, inside functions and under
``TYPE_CHECKING`` alike: a type-only import is still a dependency a reader
has to follow) and fails on any that runs up the layers, or on two modules
that import each other, however far round.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
PACKAGE = os.path.join(SRC, "mille")

#: The layers from the ground up; a module may import its own layer and those below.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the package's face", ("mille",)),
    ("engine", ("mille.engine",)),
    ("players", ("mille.players",)),
    ("files", ("mille.files",)),
    ("lab", ("mille.lab",)),
    ("faces", ("mille.ui",)),
    (
        "commands",
        ("mille.cli", "mille.match", "mille.tournament", "mille.sim", "mille.replay", "mille.bot", "mille.__main__"),
    ),
)
#: Commands may not import one another either (each is a door of its own; ``__main__`` runs ``cli``).
COMMANDS_MAY_IMPORT = {"mille.__main__": {"mille.cli"}}

#: Inside the lab, its modules' own layers from the ground up (docs/architecture.md, "Lab"): a lab
#: module imports only lab modules of the layers below its own, never one of its own layer or above.
LAB_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("arithmetic, the console, the cluster", ("stats", "bradley_terry", "sprt", "console", "cluster")),
    ("what a match is and gives", ("records",)),
    ("game records", ("gamelog",)),
    ("play: a set of rotations", ("play",)),
    ("the runner and its pool", ("runner",)),
    ("what runs share", ("options", "command", "report", "schedule")),
    ("a tournament's file and report", ("results", "standings")),
    ("the tools", ("match", "tournament", "replay", "sim")),
)


def modules() -> dict[str, str]:
    """Every module of the package by its dotted name, with its path."""
    found: dict[str, str] = {}
    for directory, _, files in os.walk(PACKAGE):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            dotted = os.path.relpath(path, SRC)[:-3].replace(os.sep, ".")
            if dotted.endswith(".__init__"):
                dotted = dotted[: -len(".__init__")]
            found[dotted] = path
    return found


def imports(name: str, path: str, known: dict[str, str]) -> Iterator[tuple[str, int]]:
    """The package's modules that ``name`` imports, with the line of each import."""
    is_package = os.path.basename(path) == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "mille" or alias.name.startswith("mille."):
                    yield _nearest(alias.name, known), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
                if not (target == "mille" or target.startswith("mille.")):
                    continue
            for alias in node.names:
                # "from . import rules" imports the module rules; "from .rules import X" the module.
                sub = f"{target}.{alias.name}"
                yield (sub if sub in known else _nearest(target, known)), node.lineno


def _nearest(dotted: str, known: dict[str, str]) -> str:
    while dotted not in known and "." in dotted:
        dotted = dotted.rpartition(".")[0]
    return dotted


def layer_of(name: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{name} is in no layer: add it to LAYERS (and to docs/architecture.md)"
    return rank


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {
        name: {target: line for target, line in imports(name, path, known) if target != name}
        for name, path in known.items()
    }


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_no_import_runs_up_the_layers() -> None:
    wrong = []
    for name, targets in graph().items():
        mine = layer_of(name)
        for target, line in targets.items():
            theirs = layer_of(target)
            if theirs > mine:
                wrong.append(f"{name}:{line} imports {target} ({LAYERS[mine][0]} -> {LAYERS[theirs][0]})")
            elif theirs == mine == len(LAYERS) - 1 and target not in COMMANDS_MAY_IMPORT.get(name, set()):
                wrong.append(f"{name}:{line} imports {target} (one command importing another)")
    assert not wrong, "\n".join(wrong)


def lab_layer_of(name: str) -> int:
    """The lab layer of ``mille.lab.NAME``."""
    short = name.removeprefix("mille.lab.")
    ranks = [i for i, (_, members) in enumerate(LAB_LAYERS) if short in members]
    assert len(ranks) == 1, f"{name} is in {len(ranks)} of the lab's layers: add it to LAB_LAYERS once"
    return ranks[0]


def lab_imports_not_running_down(edges: dict[str, dict[str, int]]) -> list[str]:
    """Every import of a lab module by a lab module of the same layer or one below it."""
    wrong = []
    for name, targets in edges.items():
        if not name.startswith("mille.lab."):
            continue
        for target, line in targets.items():
            if target.startswith("mille.lab.") and lab_layer_of(target) >= lab_layer_of(name):
                mine, theirs = LAB_LAYERS[lab_layer_of(name)][0], LAB_LAYERS[lab_layer_of(target)][0]
                wrong.append(f"{name}:{line} imports {target} ({mine} -> {theirs})")
    return wrong


def test_the_lab_is_layers_without_circles() -> None:
    """Inside the lab every import runs down its own layers (so no circle), and every module is in one of them."""
    edges = graph()
    for name in edges:
        if name.startswith("mille.lab."):
            lab_layer_of(name)
    wrong = lab_imports_not_running_down(edges)
    assert not wrong, "\n".join(wrong)
    # The check sees an import that runs up (play reaching for the match) or sideways (match for the tournament).
    assert lab_imports_not_running_down({"mille.lab.play": {"mille.lab.match": 3}}) == [
        "mille.lab.play:3 imports mille.lab.match (play: a set of rotations -> the tools)"
    ]
    assert lab_imports_not_running_down({"mille.lab.match": {"mille.lab.tournament": 7}})


def test_the_package_face_imports_nothing_of_its_own_at_start_up() -> None:
    """``mille/__init__`` is imported by everything: it imports none of the package's modules."""
    targets = graph()["mille"]
    assert not targets, targets


def test_no_two_modules_import_each_other() -> None:
    edges = graph()
    # A package's __init__ and its modules form a circle whenever the face
    # re-exports a module's names: that is how a package shows its public
    # names, not a tangle, so a module's import of its own package's face
    # is not an edge here unless the face imports nothing back.
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in edges.get(node, {}):
            if _is_face_of(target, node):
                continue
            if state.get(target) == 1:
                circles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def _is_face_of(package: str, module: str) -> bool:
    """``package`` is ``module``'s own package (a module taking a name its package's face holds)."""
    return module.startswith(package + ".")


def test_a_check_that_can_fail(tmp_path: object) -> None:
    """The layer check sees an import that runs up: the engine reaching for the lab."""
    known = {"mille.engine.rules": "x", "mille.lab.match": "y", "mille.lab": "z", "mille.engine": "w"}
    source = "from ..lab.match import run_match\n"
    path = os.path.join(str(tmp_path), "rules.py")
    with open(path, "w") as f:
        f.write(source)
    found = dict(imports("mille.engine.rules", path, known))
    assert found == {"mille.lab.match": 1}
    assert layer_of("mille.lab.match") > layer_of("mille.engine.rules")


@pytest.mark.parametrize(
    "code",
    [
        "from mille.engine.observation import Observation; from mille.engine.rules import DRAW, Move, MoveType, Phase",
        "from mille.engine.driver import play_hand; from mille.engine.state import Game",
        "from mille.engine.rng import GlibcRandom",
        "from mille.players import Decision, decision, make_player, PlayerSpecError",
        "from mille.match import run_match, format_report, run_batches, play_batch",
        "from mille.tournament import pairing_seed",
        "from mille.players.bsd import BsdPlayer",
    ],
)
def test_the_names_bots_were_written_against_still_import(code: str) -> None:
    """The names docs/bots.md tells bot authors to import keep working."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_importing_the_package_imports_nothing_else() -> None:
    """Importing the package imports no module of its own (start-up time)."""
    code = "import sys, mille; print(sorted(m for m in sys.modules if m.startswith('mille.')))"
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr
