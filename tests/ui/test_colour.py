"""Colour (``--color``): the same text in the same places, with attributes added; nothing without colours.

* headless: whole games drawn through :class:`mille.ui.palette.PaletteTerminal`
  show, screen for screen, the text and cursor of the plain terminal, and
  the roles (hazard, remedy, safety, heading, score) are asked for;
* where each role goes (unit tests of the role functions);
* on a pseudo-terminal: ``--color`` shows the text of the original board
  at every step, cards by kind in red, green and magenta, headings bold,
  the terminal's own background everywhere; on a terminal without colours
  the bytes sent are exactly those sent without ``--color``.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from helpers import ui as H
from helpers.players import Bot, new_game
from mille.engine import cards
from mille.ui import palette
from mille.ui.layout import ERR_X, ERR_Y

ATTRS = [1 << (8 + role) for role in range(len(palette.STYLES))]
ROLE_OF = {attr: role for role, attr in enumerate(ATTRS)}


def play_headless(seed: int, *, colour: bool) -> tuple[Bot, list[tuple[str, int, int, int]]]:
    """A whole game by the bot; with ``colour``, through the palette, noting every attribute asked for."""
    bot = Bot(seed, screens=True, games=1)
    asked: list[tuple[str, int, int, int]] = []
    term: Any = bot
    if colour:
        for name in ("board", "score", "miles"):
            win = getattr(bot, name)

            def attron(attr: int, win: Any = win, name: str = name) -> None:
                y, x = win.getyx()
                asked.append((name, y, x, ROLE_OF[attr]))

            win.attron = attron
            win.attroff = lambda attr: None
        term = palette.PaletteTerminal(bot, ATTRS)  # type: ignore[arg-type]
    app = H.make_app(term, new_game(seed))
    bot.app = app
    assert app.run() == 0
    return bot, asked


@pytest.mark.parametrize("seed", [31, 32])
def test_whole_games_show_the_same_text_with_colour(seed: int) -> None:
    plain, _ = play_headless(seed, colour=False)
    coloured, asked = play_headless(seed, colour=True)
    assert plain.screens and coloured.screens == plain.screens
    roles = {role for *_, role in asked}
    assert {palette.HAZARD, palette.REMEDY, palette.HEADING, palette.SCORE} <= roles
    # Every card role is asked for where a card is drawn, never elsewhere.
    for name, y, x, role in asked:
        if role in (palette.HAZARD, palette.REMEDY):
            assert name == "board" and (y, x) in palette.CARD_FIELDS


def test_roles() -> None:
    board = palette.board_role
    assert board(7, 2, f"{'Stop':<18}") == palette.HAZARD
    assert board(14, 22, f"{'Go':<18}") == palette.REMEDY
    assert board(16, 2, f"{'End of Limit':<18}") == palette.REMEDY
    assert board(16, 22, f"{'Speed Limit':<18}") == palette.HAZARD
    assert board(0, 2, "Extra Tank") == board(3, 22, "Right of Way") == palette.SAFETY
    assert board(2, 0, "*") == board(1, 20, "*") == palette.SAFETY
    assert board(8, 22, f"{'Accident':<18}") == palette.HAZARD  # the discard pile
    assert board(12, 20, f"{'Flat Tire':>16}") == palette.HAZARD  # the computer's last play
    assert board(9, 2, f"{'200':<18}") is None  # distance: the terminal's own colour
    assert board(6, 22, "25") is None  # the deck count is not a card
    assert board(10, 20, ">>:Move:") is None and board(10, 29, "H") is None
    assert board(5, 0, "--HAND--") == board(13, 20, "--BATTLE--") == palette.HEADING
    assert board(4, 9, "Extension") is None  # standout already
    assert palette.miles_role(0, 41, "--MILEAGE--") == palette.HEADING
    assert palette.miles_role(1, 0, "25") is None
    score = palette.score_role
    assert score(ERR_Y, ERR_X, "hint: use 3 (Go)") == palette.MESSAGE
    assert score(0, 22, "You   Comp   Value") == palette.SCORE
    assert score(8, 21, "1200") == score(13, 27, "  50") == palette.SCORE  # overall totals, both layouts
    assert score(13, 21, "s: save") is None  # the small layout's help in the same cell
    assert score(9, 21, "   0") is None
    assert {palette.CARD_ROLES[cards.NAMES[c]] for c in range(cards.SAFETY_BASE, cards.NUM_CODES)} == {palette.SAFETY}


def test_the_palette_keeps_to_three_colours_on_the_default_background() -> None:
    colours = {colour for colour, _ in palette.STYLES}
    assert colours <= {palette.DEFAULT, palette.RED, palette.GREEN, palette.MAGENTA}


# ---------------------------------------------------------------------------
# On a real terminal

pty_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux ptys")

KEYS = ["p", "w", "u1 ", "w", "o", "x", "p", "d2 "]
SEED = 5


def vt_steps(seed: int, keys: list[str]) -> list[dict[str, Any]]:
    snaps, _app, _vt = H.vt_replay(seed, keys)
    return snaps


def same_text(want: dict[str, Any]) -> Any:
    return lambda p: p.snap()["screen"] == want["screen"] and p.snap()["cursor"] == want["cursor"]


def expect_text(p: H.Pty, want: dict[str, Any], what: str) -> None:
    p.wait_for(same_text(want), timeout=15)
    d = H.diff_snaps(want, p.snap(), attrs=False)
    assert not d, f"{what}:\n{d}\nscreen:\n{p.text()}"


def cell(p: H.Pty, y: int, x: int) -> Any:
    return p.screen.buffer[y][x]


def colours_of(p: H.Pty) -> set[str]:
    return {ch.fg for row in p.screen.buffer.values() for ch in row.values()}


@pty_only
def test_colour_on_a_real_terminal_keeps_the_text_and_adds_colours() -> None:
    want = vt_steps(SEED, KEYS)
    with H.Pty(H.mille_argv("--seed", str(SEED), "--color"), term="xterm-256color") as p:
        expect_text(p, want[0], "first board")
        # Cards by kind in the hand (rows 7-12, names from column 2), headings bold.
        for y in range(7, 13):
            name = p.lines()[y][2:20].strip()
            kind = cards.KIND[cards.BY_NAME[name]]
            colour = {cards.Kind.HAZARD: "red", cards.Kind.REMEDY: "green", cards.Kind.SAFETY: "magenta"}.get(
                kind, "default"
            )
            assert cell(p, y, 2).fg == colour, (y, name, cell(p, y, 2))
            assert cell(p, y, 0).fg == "default" and not cell(p, y, 0).bold  # the slot number is plain
        assert cell(p, 5, 0).bold and cell(p, 13, 20).bold  # --HAND--, --BATTLE--
        assert cell(p, 0, 62).bold  # the score header
        assert cell(p, 10, 20).reverse  # >>:Move: as ever
        for i, k in enumerate(KEYS, 1):
            p.send(k)
            expect_text(p, want[i], f"after {k!r}")
        assert colours_of(p) >= {"default", "red", "green"}
        backgrounds = {ch.bg for row in p.screen.buffer.values() for ch in row.values()}
        assert backgrounds == {"default"}  # the terminal's own background, everywhere
        p.send("q")
        assert p.wait_for(lambda s: s.lines()[10][20:27] == "Really?", timeout=10)
        p.send("y")
        assert p.wait_exit(15) == 0


def run_keys(args: list[str], term: str, keys: list[str], want: list[dict[str, Any]]) -> bytes:
    """All the bytes the program sent for ``keys``, each sent once the screen has settled."""
    with H.Pty(H.mille_argv("--seed", str(SEED), *args), term=term) as p:
        expect_text(p, want[0], f"{args} first board")
        for i, k in enumerate(keys, 1):
            p.send(k)
            expect_text(p, want[i], f"{args} after {k!r}")
        p.send("q")
        assert p.wait_for(lambda s: s.lines()[10][20:27] == "Really?", timeout=10)
        p.send("y")
        assert p.wait_exit(15) == 0
        return bytes(p.raw)


def terminal_colours(term: str) -> int | None:
    probe = f"import curses, sys; curses.setupterm({term!r}, sys.stdout.fileno()); print(curses.tigetnum('colors'))"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
    return int(res.stdout) if res.returncode == 0 else None


@pty_only
@pytest.mark.parametrize("term", ["vt100", "vt220"])
def test_without_colours_the_bytes_are_the_originals(term: str) -> None:
    if terminal_colours(term) is None or (terminal_colours(term) or 0) > 0:
        pytest.skip(f"no colourless terminfo entry for {term}")
    want = vt_steps(SEED, KEYS)
    plain = run_keys([], term, KEYS, want)
    coloured = run_keys(["--color"], term, KEYS, want)
    assert coloured == plain
