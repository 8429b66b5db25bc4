"""The package's layers (docs/architecture.md): who may import whom, and no circles; and the lab's own layers.

The engine knows nothing of the players; the players know nothing of the
person's files, the lab or the faces; and so up.  This reads every
``import`` in ``src/mille`` (at the top, inside functions and under
``TYPE_CHECKING`` alike: a type-only import is still a dependency a reader
has to follow) and fails on any that runs up the layers, or on two modules
that import each other, however far round.

The packages with many modules have layers of their own (:data:`INNER`:
``ui/``, ``ui/plain/``, ``ui/people/``, ``lab/``), held to the same two
rules inside: no import running up their layers, and no circle between
their parts (a sub-package counting as one part: ``ui/plain/`` may not
import anything that imports it back, however far round).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from helpers import SRC

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

#: Inside a package: its own layers from the ground up, each naming its parts (a module, or a sub-package as a
#: whole; ``__init__`` is the package's face).  A part may import its own layer and those below, never one above.
INNER: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "mille.ui": (
        ("the pieces", ("__init__", "layout", "keys", "surface", "termname", "rows", "hints", "recording")),
        ("the terminal, the drawing, the keeping", ("cursesterm", "palette", "board", "keeping")),
        ("the flow", ("flow",)),
        ("the faces", ("app", "dialogs", "tableboard", "plain")),
        ("the run", ("session",)),
        ("people", ("people",)),
    ),
    "mille.ui.plain": (
        ("the levels of detail", ("__init__",)),
        ("the parts", ("commands", "lines", "speaker")),
        ("the face", ("app",)),
    ),
    "mille.ui.people": (
        ("the meeting", ("__init__", "link", "rendezvous")),
        ("the link's messages, a seat's view, the table's story, talk", ("messages", "view", "narration", "talk")),
        ("the host's side of one person", ("seat",)),
        ("the room around the table", ("room",)),
        ("what a guest's run and a watcher's share", ("visit",)),
        ("the runs: the host's, a guest's", ("host", "guest")),
        ("a watcher's run, the listing", ("watch", "lobby")),
        ("in lines", ("inlines",)),
    ),
    "mille.lab": (
        ("arithmetic, the console, the cluster", ("__init__", "stats", "bradley_terry", "sprt", "console", "cluster")),
        ("players a match seats", ("partners",)),
        ("what a match is and gives", ("records",)),
        ("game records", ("gamelog",)),
        ("play: a set of rotations", ("play",)),
        ("the runner and its pool", ("runner",)),
        ("what runs share", ("options", "command", "report", "schedule")),
        ("a tournament's file and report", ("results", "standings")),
        ("the tools", ("match", "tournament", "replay", "sim")),
    ),
}


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


def test_the_package_face_imports_nothing_of_its_own_at_start_up() -> None:
    """``mille/__init__`` is imported by everything: it imports none of the package's modules."""
    targets = graph()["mille"]
    assert not targets, targets


def circles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Every circle found in ``edges`` (each as the names round it, the first again at its end).

    A package's __init__ and its modules form a circle whenever the face
    re-exports a module's names: that is how a package shows its public
    names, not a tangle, so a module's import of its own package's face
    is not an edge here unless the face imports nothing back.
    """
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in edges.get(node, {}):
            if _is_face_of(target, node):
                continue
            if state.get(target) == 1:
                found.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_no_two_modules_import_each_other() -> None:
    found = circles(graph())
    assert not found, "\n".join(" -> ".join(c) for c in found)


def _is_face_of(package: str, module: str) -> bool:
    """``package`` is ``module``'s own package (a module taking a name its package's face holds)."""
    return module.startswith(package + ".")


# ----------------------------------------------------------------------
# Inside the packages with layers of their own


def part_of(package: str, name: str) -> str | None:
    """The part of ``package`` that module ``name`` is in (``__init__``: the package's face); None: not inside it."""
    if name == package:
        return "__init__"
    if not name.startswith(package + "."):
        return None
    return name[len(package) + 1 :].split(".", 1)[0]


def inner_layer(package: str, part: str) -> int:
    for rank, (_, parts) in enumerate(INNER[package]):
        if part in parts:
            return rank
    raise AssertionError(f"{package}.{part} is in no layer of {package}: add it to INNER (and to docs/architecture.md)")


def parts_graph(package: str, edges: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``edges`` between the parts of ``package`` (a part's own imports of itself left out), each with one line."""
    parts: dict[str, dict[str, int]] = {}
    for name, targets in edges.items():
        mine = part_of(package, name)
        if mine is None:
            continue
        parts.setdefault(mine, {})
        for target, line in targets.items():
            theirs = part_of(package, target)
            if theirs is not None and theirs != mine:
                parts[mine].setdefault(theirs, line)
    return parts


def wrong_inside(package: str, edges: dict[str, dict[str, int]]) -> list[str]:
    """The imports inside ``package`` that run up its layers (:data:`INNER`), each said in one line."""
    wrong = []
    layers = INNER[package]
    for name, targets in edges.items():
        mine = part_of(package, name)
        if mine is None:
            continue
        for target, line in targets.items():
            theirs = part_of(package, target)
            if theirs is None or theirs == mine:
                continue
            low, high = inner_layer(package, mine), inner_layer(package, theirs)
            if high > low:
                wrong.append(f"{name}:{line} imports {target} ({layers[low][0]} -> {layers[high][0]})")
    return wrong


@pytest.mark.parametrize("package", sorted(INNER))
def test_every_module_is_in_a_layer_of_its_package(package: str) -> None:
    for name in modules():
        part = part_of(package, name)
        if part is not None:
            inner_layer(package, part)


@pytest.mark.parametrize("package", sorted(INNER))
def test_no_import_runs_up_the_layers_inside(package: str) -> None:
    wrong = wrong_inside(package, graph())
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("package", sorted(INNER))
def test_no_circle_between_the_parts_of_a_package(package: str) -> None:
    found = circles(parts_graph(package, graph()))
    assert not found, "\n".join(" -> ".join(f"{package}.{part}" for part in c) for c in found)


def test_the_checks_inside_can_fail() -> None:
    """An import running up inside ``ui/`` (the keeper reaching for plain mode's lines, as it did) and a circle
    between two parts are seen."""
    edges = {"mille.ui.keeping": {"mille.ui.plain.lines": 199}, "mille.ui.plain.lines": {"mille.ui.surface": 33}}
    assert wrong_inside("mille.ui", edges) == [
        "mille.ui.keeping:199 imports mille.ui.plain.lines (the terminal, the drawing, the keeping -> the faces)"
    ]
    looped = {"mille.ui.plain.app": {"mille.ui.session": 1}, "mille.ui.session": {"mille.ui.plain.lines": 2}}
    assert circles(parts_graph("mille.ui", looped)) == [["plain", "session", "plain"]]


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
