"""Headless screen tests of the curses front end (GameFlow on a VirtualTerminal).

Expected screens come from the real program or from the behaviour reference
(docs: bsd-mille.md §7-§13), never from this program's own output:

* ``test_same_screens_as_real_program`` replays every key script of
  ``helpers.ui.SCENARIOS`` and compares each screen (text, cursor, standout)
  with the real 4.4BSD mille's, recorded in ``ui_fixtures/bsd_screens.json.gz``
  by ``python3 tests/helpers/ui.py record``.
* The other tests spell out the reference's rules (§8.5 late messages, §9.1
  keys, §9.2 card entry, §9.3 yes/no prompts, §9.5/§11.37 interrupts, §11.23
  Order, §11.24 new hands, §11.27 the full window, §13 Extension?) and check
  them on both the real program's recorded screens and ours, so a rule that
  the real program does not follow would fail here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers import ui as H
from mille.engine import cards
from mille.files import save
from mille.ui.keeping import Keeper
from mille.ui.layout import COMPUTER, YOU
from mille.ui.surface import END_OF_INPUT, HANGUP, INTERRUPT, RESIZED, VirtualTerminal, VirtualWindow

FIXTURES = H.load_fixtures()["scenarios"]


# ---------------------------------------------------------------------------
# screen accessors (layout: reference §8)


def row(s: dict[str, Any], y: int) -> str:
    return s["screen"][y].ljust(80)


def prompt(s: dict[str, Any]) -> str:
    return row(s, 10)[20:40].rstrip()


def err(s: dict[str, Any]) -> str:
    return row(s, 15)[45:80].rstrip()


def hand(s: dict[str, Any]) -> list[str]:
    return [row(s, 6 + i)[2:20].rstrip() for i in range(7)]


def deck(s: dict[str, Any]) -> int:
    return int(row(s, 6)[20:24])


def discard(s: dict[str, Any]) -> str:
    return row(s, 8)[22:40].rstrip()


def comp_action(s: dict[str, Any]) -> tuple[str, str]:
    return row(s, 11)[20:40].rstrip(), row(s, 12)[20:40].rstrip()


def score_cell(s: dict[str, Any], y: int, player: int) -> str:
    x = 61 + 6 * player
    return row(s, y)[x : x + 4]


CODE = dict(cards.BY_NAME)


# ---------------------------------------------------------------------------
# replays, cached per module


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> Any:
    cache: dict[str, list[dict[str, Any]]] = {}

    def get(name: str) -> list[dict[str, Any]]:
        if name not in cache:
            work = tmp_path_factory.mktemp(name)
            cache[name] = H.replay_fixture(FIXTURES[name], str(work))
        return cache[name]

    return get


def real(name: str) -> list[dict[str, Any]]:
    return FIXTURES[name]["steps"]


@pytest.fixture
def both(ours: Any) -> Any:
    """both(name) -> [("real", steps), ("ours", snaps)]: check a rule on each."""

    def get(name: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        yield "real", real(name)
        yield "ours", ours(name)

    return get


def step_of(steps: list[dict[str, Any]], pred: Any, start: int = 0) -> int:
    for i in range(start, len(steps)):
        if pred(steps[i]):
            return i
    raise AssertionError("no such step")


# ---------------------------------------------------------------------------
# 1. every recorded screen of the real program


#: The listed differences from the original (README, the manual) that a recorded scenario shows:
#: (scenario, step) -> (row, the step of the real program whose row we show there).  A failed save
#: says why at once, where the original showed the same text only after the next move (§8.5).
LISTED = {("save_error", 2): (15, 4), ("save_error", 3): (15, 4)}


def as_listed(name: str, want: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The real program's screens with the listed differences made: what ours must show."""
    want = [dict(w) for w in want]
    for (scenario, step), (at, source) in LISTED.items():
        if scenario == name:
            screen = list(want[step]["screen"])
            screen[at] = want[source]["screen"][at]
            want[step]["screen"] = screen
    return want


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_same_screens_as_real_program(name: str, ours: Any) -> None:
    want = as_listed(name, real(name))
    got = ours(name)
    assert len(got) == len(want), f"{name}: {len(got)} screens, the real program showed {len(want)}"
    for i, (w, g) in enumerate(zip(want, got)):
        # After the program exits the cursor is wherever endwin() left it.
        d = H.diff_snaps(w, g, cursor=not w["exited"])
        if d:
            pytest.fail(
                f"{name} step {i} (keys {w['keys']!r}) differs from the real program:\n{d}\n"
                f"real screen:\n{H.screen_text(w)}\nours:\n{H.screen_text(g)}"
            )
        if w["exited"]:
            assert g["rc"] == w["rc"], f"{name}: exit status {g['rc']}, real {w['rc']}"


def test_fixture_scenarios_are_the_committed_scripts() -> None:
    """The stored keys are the recorder's scripts (nobody edited the file by hand)."""
    for name, spec in H.SCENARIOS.items():
        sc = FIXTURES[name]
        assert sc["seed"] == spec["seed"]
        if "steps" in spec and "base" not in spec:
            phase1 = [st["keys"] for st in sc["steps"] if st.get("phase", 1) == 1][1:]
            assert phase1 == spec["steps"][: len(phase1)], name
        if "restore" in spec:
            phase2 = [st["keys"] for st in sc["steps"] if st.get("phase") == 2][1:]
            assert phase2 == spec["restore"]["steps"], name


# ---------------------------------------------------------------------------
# 2. the first board (§8.9)

#: Reference §8.9, "Start of a program run" (seed 5814), trailing blanks removed.
REFERENCE_5814 = """\
                                        |                     You   Comp   Value
                                        | Milestones Played     0     0
                                        |       Each Safety     0     0      100
                                        |    All 4 Safeties     0     0      300
                                        |  Each Coup Fourre     0     0      300
--HAND--            --DECK--            |                    ----   ----   -----
P                     89                |        Hand Total     0     0
1 100               --DISCARD--         |                   -----  -----
2 100                                   |     Overall Total     0     0
3 Repairs                               |              Games    0     0
4 Go                >>:Move:            |
5 50                                    | p: pick            q: quit
6 100                                   | u: use #           o: order hand
--BATTLE--          --BATTLE--          | d: discard #       s: save
                                        | w: toggle window   r: reprint
--SPEED--           --SPEED--           |
                                        |_______________________________________
--MILEAGE--                              --MILEAGE--""".splitlines()


def test_initial_board_5814_is_the_reference_capture() -> None:
    vt = VirtualTerminal()
    game = H.new_game(5814)
    assert H.make_app(vt, game).run() == 1  # no keys: end of input
    lines = H.norm_screen(vt.lines())
    assert lines[:18] == REFERENCE_5814
    assert lines[18:] == [""] * 6
    assert vt.cursor == (10, 29)  # §8.7: input echo starts at column 29
    assert vt.attr_runs() == [[10, 20, 8, "r"]]  # ">>:Move:" in standout
    first = real("start5814")[0]
    assert first["screen"][:18] == REFERENCE_5814
    assert first["cursor"] == [10, 29]


def test_initial_board_draws_nothing_but_the_layout() -> None:
    """§8.1: labels once; §8.2 deck `%2d`; §8.4 mileage titles at (17,0), (17,41)."""
    vt = VirtualTerminal()
    H.make_app(vt, H.new_game(1)).run()
    lines = [line.ljust(80) for line in vt.lines()]
    assert lines[17][0:11] == "--MILEAGE--"
    assert lines[17][41:52] == "--MILEAGE--"
    assert all(lines[y][40] == "|" for y in range(17))
    assert lines[16][41:80] == "_" * 39


# ---------------------------------------------------------------------------
# 3. keys at the move prompt (§9.1) and late messages (§8.5, §11.25)


def fresh(seed: int, keys: list[str]) -> list[dict[str, Any]]:
    snaps, _app, _vt = H.vt_replay(seed, keys)
    return snaps


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("x", "X"),  # upper-cased
        ("X", "X"),
        ("z", "Z"),
        ("\x01", "^A"),  # §9.1: ^A for Control-A
        ("\t", "^I"),  # ^I for TAB
        ("1", "1"),  # a digit
        ("9", "9"),
        ("~", "~"),
        ("!", "!"),
        ("\x1b", "^["),
        ("\x1f", "^_"),
        ("\x80", "~@"),  # curses' form of bytes 128-159
        ("\x9b", "~["),
    ],
)
def test_unknown_command_message_shows_at_next_score_refresh(key: str, shown: str) -> None:
    before, after_key, after_o = fresh(5, [key, "o"])
    assert after_key["screen"] == before["screen"], "nothing visible until the score window is refreshed"
    assert after_key["cursor"] == [10, 29]
    assert err(after_o) == f"unknown command: {shown}"


def test_unknown_command_forms_match_real_program(both: Any) -> None:
    expected = {"x": "X", "X": "X", "\x01": "^A", "\t": "^I", "1": "1", "~": "~", "\x1b": "^[", "\x1b[A": "A"}
    expected |= {"\x80": "~@", "\x9b": "~["}
    for who, steps in both("movekeys"):
        seen = {}
        for i in range(1, len(steps) - 1):
            if steps[i + 1]["keys"] in ("o", "O") and steps[i]["keys"] not in ("o", "O"):
                # the key's own screen shows nothing new; the O move reveals it
                assert err(steps[i]) == err(steps[i - 1]), (who, steps[i]["keys"])
                seen[steps[i]["keys"]] = err(steps[i + 1])
        for key, form in expected.items():
            assert seen[key] == f"unknown command: {form}", (who, key)


def test_e_is_not_implemented_and_shown_late(both: Any) -> None:
    for who, steps in both("movekeys"):
        i = step_of(steps, lambda s: s["keys"] == "e")
        assert err(steps[i]) != "E: command not implemented", who
        assert err(steps[i + 1]) == "E: command not implemented", who
        assert steps[i + 2]["keys"] == "E" and steps[i + 3]["keys"] == "O"
        assert err(steps[i + 3]) == "E: command not implemented", who


def test_w_in_between_erases_the_pending_message(both: Any) -> None:
    for who, steps in both("movekeys"):
        keys = [s["keys"] for s in steps]
        i = next(j for j in range(len(keys)) if keys[j : j + 4] == ["x", "w", "w", "o"])
        assert err(steps[i - 1]) == "E: command not implemented"
        assert err(steps[i + 1]) == "", who  # the layout switch cleared the line
        assert err(steps[i + 3]) == "", who  # and the pending X message with it


def test_w_erases_message_fresh_board() -> None:
    snaps = fresh(5, ["x", "w", "w", "o"])
    assert err(snaps[4]) == ""
    snaps = fresh(5, ["e", "w", "w", "o"])
    assert err(snaps[4]) == ""


def test_r_and_ctrl_l_repaint_without_showing_the_message(both: Any) -> None:
    for who, steps in both("movekeys"):
        i = step_of(steps, lambda s: s["keys"] == "z")
        assert [s["keys"] for s in steps[i : i + 4]] == ["z", "r", "\x0c", "o"]
        assert steps[i + 1]["screen"] == steps[i]["screen"] == steps[i + 2]["screen"], who
        assert err(steps[i + 3]) == "unknown command: Z", who


@pytest.mark.parametrize("key", ["\r", "\n", " ", "\x00", "\x7f", "\x15"])
def test_ignored_keys_at_the_move_prompt(key: str) -> None:
    """RETURN, LF, space, NUL, erase and kill: no echo, no message (§9.1)."""
    before, after, revealed = fresh(5, [key, "o"])
    assert after["screen"] == before["screen"]
    assert after["cursor"] == [10, 29]
    assert err(revealed) == ""


def test_ignored_keys_on_the_real_program(both: Any) -> None:
    for who, steps in both("movekeys"):
        i = step_of(steps, lambda s: s["keys"] == "\r")
        for j in range(i, i + 6):
            assert steps[j]["keys"] in ("\r", "\n", " ", "\x00", "\x7f", "\x15")
            assert steps[j]["screen"] == steps[i - 1]["screen"], (who, steps[j]["keys"])
            assert steps[j]["cursor"] == [10, 29]


@pytest.mark.parametrize("key", ["p", "P"])
def test_p_draws(key: str) -> None:
    before, after = fresh(5, [key])
    assert deck(after) == deck(before) - 1
    assert hand(before)[0] == "" and hand(after)[0] != ""
    assert hand(after)[1:] == hand(before)[1:]


def test_p_twice_is_already_picked(both: Any) -> None:
    for who, steps in both("movekeys"):
        i = step_of(steps, lambda s: s["keys"] == "P")
        assert err(steps[i]) == "already picked", who  # a move: shown at once


@pytest.mark.parametrize("key", ["q", "Q"])
def test_q_asks_really(key: str) -> None:
    snaps = fresh(5, [key, "n", key, "N", key, "y"])
    assert prompt(snaps[1]) == "Really?" and snaps[1]["cursor"] == [10, 28]
    assert prompt(snaps[2]) == ">>:Move:" and snaps[2]["cursor"] == [10, 29]
    assert prompt(snaps[3]) == "Really?"
    assert prompt(snaps[4]) == ">>:Move:"
    assert snaps[-1]["exited"] and snaps[-1]["rc"] == 0
    assert prompt(snaps[-1]) == "Really? Y"


@pytest.mark.parametrize("key", ["s", "S"])
def test_s_opens_the_file_prompt(key: str) -> None:
    snaps = fresh(5, [key, "\r"])
    assert prompt(snaps[1]) == "file:" and snaps[1]["cursor"] == [10, 26]
    assert prompt(snaps[2]) == ">>:Move:" and snaps[2]["cursor"] == [10, 29]  # empty name: nothing saved
    assert err(snaps[2]) == ""


@pytest.mark.parametrize("key", ["w", "W"])
def test_w_toggles_the_score_window(key: str) -> None:
    s0, s1, s2 = fresh(5, [key, key])
    assert row(s0, 11)[40:].startswith("| p: pick")
    assert row(s1, 5)[40:].startswith("|    Trip Completed")
    assert row(s1, 11)[40:].startswith("|        Hand Total")
    assert s2["screen"] == s0["screen"]


@pytest.mark.parametrize("key", ["r", "R", "\x0c"])
def test_redraw_keys_change_nothing(key: str) -> None:
    s0, s1 = fresh(5, [key])
    assert s1["screen"] == s0["screen"] and s1["cursor"] == [10, 29]


@pytest.mark.parametrize("key", ["o", "O"])
def test_o_toggles_order_and_its_help_text(key: str) -> None:
    s0, s1, s2 = fresh(2, [key, key])
    assert row(s0, 12)[61:].rstrip() == "o: order hand"
    assert row(s1, 12)[61:].rstrip() == "o: stop ordering"
    assert row(s2, 12)[61:].rstrip() == "o: order hand"


def test_failed_save_message_is_shown_at_once_the_original_showed_it_late(both: Any) -> None:
    """§8.5: the original's error text from a failed save waited for a score refresh; ours shows it at once."""
    for who, steps in both("save_error"):
        assert [s["keys"] for s in steps[1:4]] == ["s", "nodir/g\r", "r"]
        late = "" if who == "real" else "No such file or directory"
        assert err(steps[2]) == late and err(steps[3]) == late, who
        assert err(steps[4]) == "No such file or directory", who


# ---------------------------------------------------------------------------
# 4. card entry (§9.2, §11.35)


def test_card_entry_echo_and_cursor(both: Any) -> None:
    want = [
        ("u", "U", 30),
        ("x", "UX", 30),  # a bad key is echoed, the cursor goes back over it
        ("\x01", "U^A", 30),  # two columns back for a control character
        ("7", "U7", 30),  # 7 is no slot
        ("\x7f", "", 29),  # erase before a slot: the command is cancelled
        ("U", "U", 30),
        ("\x15", "", 29),  # kill: cancelled
        ("u", "U", 30),
        ("3", "U3", 31),  # a slot: waits for RETURN/LF/space
        ("x", "U3", 31),  # junk after the slot is ignored
        ("\x01", "U3", 31),
        ("\x7f", "U", 30),  # erase after the slot: retype the number
        ("5", "U5", 31),
        ("\x15", "", 29),  # kill after the slot: cancelled
        ("u", "U", 30),
        (" ", "U", 30),  # leading blanks are skipped
        ("\r", "U", 30),
        ("\n", "U", 30),
        ("6", "U6", 31),
        ("\r", "", 29),  # RETURN confirms: the move is made
    ]
    for who, steps in both("cardentry"):
        assert steps[1]["keys"] == "p"
        for j, (key, typed, col) in enumerate(want, start=2):
            s = steps[j]
            assert s["keys"] == key
            assert row(s, 10)[20:28] == ">>:Move:", (who, j)
            assert row(s, 10)[29:40].rstrip() == typed, (who, j, key)
            assert s["cursor"] == [10, col], (who, j, key)
        # nothing was played or discarded before the confirmed U6
        assert hand(steps[20]) == hand(steps[1])
        assert err(steps[21]) != err(steps[20])  # the U6 move happened (an error here)


def test_card_entry_variants(both: Any) -> None:
    """`UP` + LF, `D0` + space, `u3⏎`, `UP `, `d0⏎`, `u 3 ` are all complete commands."""
    for who, steps in both("cardentry"):
        i = step_of(steps, lambda s: s["keys"] == "\n", 22)
        assert [s["keys"] for s in steps[i - 2 : i + 1]] == ["U", "p", "\n"]
        assert row(steps[i - 1], 10)[29:31] == "UP"
        assert prompt(steps[i]) == ">>:Move:" and steps[i]["cursor"] == [10, 29], who
        assert err(steps[i]) != err(steps[i - 1]), who  # UP was played (and refused)
        j = step_of(steps, lambda s: s["keys"] == " ", i)
        assert [s["keys"] for s in steps[j - 3 : j + 1]] == ["p", "d", "0", " "]
        assert hand(steps[j - 3])[0] != "" and hand(steps[j])[0] == "", who  # D0 discarded slot P
        assert discard(steps[j]) != "" or comp_action(steps[j])[0] == "DISCARD"
    for who, steps in both("cardentry2"):
        for i, s in enumerate(steps):
            if s["keys"] in ("u3\r", "UP ", "d0\r", "u 3 ", "d6\n"):
                assert prompt(s) == ">>:Move:" and s["cursor"] == [10, 29], (who, s["keys"])
                # the command completed: the error line or the hand changed
                assert (err(s), hand(s)) != (err(steps[i - 1]), hand(steps[i - 1])), (who, s["keys"])
        k = step_of(steps, lambda s: s["keys"] == "u9")
        assert row(steps[k], 10)[29:31] == "U9" and steps[k]["cursor"] == [10, 30]


# ---------------------------------------------------------------------------
# 5. yes/no prompts (§9.3)

ANSWER_COLUMN = {
    "Really?": 28,
    "Extension?": 31,
    "Another hand?": 34,
    "Another game?": 34,
    "Save game?": 31,
    "Same file?": 31,
    "Overwrite file?": 36,
}


def yn_prompt(s: dict[str, Any]) -> str | None:
    text = prompt(s)
    if text in ANSWER_COLUMN and s["cursor"] == [10, ANSWER_COLUMN[text]]:
        return text
    return None


def test_yes_no_prompts_cover_every_question_and_answer() -> None:
    """Across the recorded scripts every question gets y and n, bad keys, and mostly ^L."""
    answered: dict[str, set[str]] = {p: set() for p in ANSWER_COLUMN}
    for name in FIXTURES:
        steps = real(name)
        for i in range(1, len(steps)):
            p = yn_prompt(steps[i - 1])
            k = steps[i]["keys"]
            if p and len(k) == 1:
                answered[p].add(k.lower() if k in "yYnN" else ("^L" if k == "\x0c" else "bad"))
    for p, keys in answered.items():
        assert {"y", "n", "bad"} <= keys, (p, keys)
    assert sum("^L" in keys for keys in answered.values()) >= 6


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_bad_keys_and_ctrl_l_at_yes_no_prompts_change_nothing(name: str, both: Any) -> None:
    """Any other key is echoed, rings, and is erased at once; ^L repaints (§9.3)."""
    for who, steps in both(name):
        for i in range(1, len(steps)):
            p = yn_prompt(steps[i - 1])
            k = steps[i]["keys"]
            if p and len(k) == 1 and k not in "yYnNsS" and k != H.INTR:
                assert steps[i]["screen"] == steps[i - 1]["screen"], (who, name, i, p, k)
                assert steps[i]["cursor"] == steps[i - 1]["cursor"], (who, name, i, p, k)


def test_really_yes_exits_0_and_no_returns(both: Any) -> None:
    for who, steps in both("movekeys"):
        i = step_of(steps, lambda s: s["keys"] == "q")
        assert prompt(steps[i]) == "Really?"
        j = step_of(steps, lambda s: s["keys"] == "n", i)
        assert prompt(steps[j]) == ">>:Move:" and steps[j]["cursor"] == [10, 29], who
        assert steps[-1]["exited"] and steps[-1]["rc"] == 0
        assert prompt(steps[-1]) == "Really? Y", who


def test_extension_no_ends_the_hand_with_bonuses(both: Any) -> None:
    """Appendix A: exactly 700, no 200s: Trip 400 + Safe Trip 300, full window, Another hand?."""
    for who, steps in both("appendix_a"):
        i = step_of(steps, lambda s: s["keys"] == "n")
        assert yn_prompt(steps[i - 1]) == "Extension?"
        s = steps[i]
        assert yn_prompt(s) == "Another hand?", who
        assert row(s, 5)[40:].rstrip() == "|    Trip Completed   400     0      400"
        assert row(s, 6)[40:].rstrip() == "|         Safe Trip   300     0      300"
        for y, label in ((7, "Delayed Action"), (8, "Extension"), (9, "Shut-Out")):
            assert label in row(s, y) and score_cell(s, y, YOU) == "   0" and score_cell(s, y, COMPUTER) == "   0"
        assert (score_cell(s, 1, YOU), score_cell(s, 1, COMPUTER)) == (" 700", " 600")
        assert (score_cell(s, 2, YOU), score_cell(s, 2, COMPUTER)) == (" 100", "   0")
        assert (score_cell(s, 11, YOU), score_cell(s, 11, COMPUTER)) == ("1500", " 600")
        assert (score_cell(s, 13, YOU), score_cell(s, 13, COMPUTER)) == ("1500", " 600")
        assert deck(s) == 43 and discard(s) == "75"
        assert comp_action(s) == ("DISCARD", "              75")


def test_another_hand_yes_deals_hand_two(both: Any) -> None:
    """Appendix A: hand 2 is started by the computer, which draws and discards a 25."""
    for who, steps in both("appendix_a"):
        i = step_of(steps, lambda s: s["keys"] == "Y")
        assert yn_prompt(steps[i - 1]) == "Another hand?"
        s = steps[i]
        assert hand(s) == ["", "Repairs", "Go", "Out of Gas", "25", "Go", "End of Limit"], who
        assert deck(s) == 88 and discard(s) == "25"
        assert comp_action(s) == ("DISCARD", "              25")
        assert row(s, 11)[40:].startswith("| p: pick"), "small window again"
        assert (score_cell(s, 8, YOU), score_cell(s, 8, COMPUTER)) == ("1500", " 600")


def test_extension_question_comes_before_the_board_update(both: Any) -> None:
    """§13: at Extension? the card is still in the hand and the mileage is the old one."""
    for who, steps in both("extension_yes"):
        i = step_of(steps, lambda s: yn_prompt(s) == "Extension?")
        before, at = steps[i - 1], steps[i]
        assert at["keys"] == "u0 "
        assert hand(at) == hand(before), who
        assert row(at, 1)[40:] == row(before, 1)[40:], who  # Milestones Played
        assert at["screen"][17:] == before["screen"][17:], who  # mileage window
        assert "Extension" not in row(at, 4)[:40]
        # yes: the Extension marker (standout, §8.2) on the next repaint
        j = step_of(steps, lambda s: s["keys"] == "y", i)
        assert row(steps[j], 4)[9:18] == "Extension", who
        assert [4, 9, 9, "r"] in steps[j]["attrs"], who
        assert score_cell(steps[j], 1, YOU) == " 700"
        assert hand(steps[j])[0] == ""  # the card left the hand


def test_full_window_during_play_shows_zero_bonus_cells(both: Any) -> None:
    """§11.27: the W full layout during play shows `  0` in every bonus cell, even after 700."""
    for who, steps in both("extension_yes"):
        i = step_of(steps, lambda s: s["keys"] == "w")
        s = steps[i]
        for y in range(5, 10):
            assert row(s, y)[62:65] == "  0" and row(s, y)[68:71] == "  0", (who, y)
        assert row(s, 11)[49:59] == "Hand Total"
        assert score_cell(s, 1, YOU) == " 700"
    for who, steps in both("order"):
        i = step_of(steps, lambda s: s["keys"] == "w")
        for y in range(5, 10):
            assert row(steps[i], y)[62:65] == "  0", who


def test_another_game(both: Any) -> None:
    """A total past 5000 at the end of a hand asks Another game?; y starts a new game (§8.9)."""
    for who, steps in both("game_again"):
        i = step_of(steps, lambda s: yn_prompt(s) == "Another game?")
        assert int(score_cell(steps[i], 13, COMPUTER)) >= 5000 or int(score_cell(steps[i], 13, YOU)) >= 5000
        j = step_of(steps, lambda s: s["keys"] == "y", i)
        s = steps[j]
        assert (score_cell(s, 8, YOU), score_cell(s, 8, COMPUTER)) == ("   0", "   0"), who
        assert (score_cell(s, 9, YOU), score_cell(s, 9, COMPUTER)) == ("   0", "   1"), who
        assert row(s, 11)[40:].startswith("| p: pick"), who
        assert comp_action(s)[0] in ("PLAY", "DISCARD"), "the computer made the first move"
    for who, steps in both("game"):
        i = step_of(steps, lambda s: yn_prompt(s) == "Another game?")
        assert steps[i + 1]["keys"] == "n" and yn_prompt(steps[i + 1]) == "Save game?", who
        assert steps[-1]["exited"] and steps[-1]["rc"] == 0


def test_another_game_no_settles_the_game_before_save_game() -> None:
    """§11.30: answered no, games and totals are updated before Save game? (what a save holds)."""
    sc = FIXTURES["game"]
    keys = [s["keys"] for s in sc["steps"][1:]]
    seen: list[tuple[str, int, int, int, int]] = []
    vt = H.ScriptTerminal(keys)
    app = H.make_app(vt, H.new_game(sc["seed"]))

    def watch(term: H.ScriptTerminal) -> None:
        g = app.game
        human, comp = g.players
        seen.append((prompt(term.snaps[-1]), human.games, comp.games, human.total, comp.total))

    vt.on_wait = watch
    assert app.run() == 0
    (p1, *at_game), (p2, *at_save) = seen[-2], seen[-1]
    assert p1 == "Another game?" and p2 == "Save game?"
    assert at_game[0:2] == [0, 0]
    assert at_save[0:2] == [0, 1] and at_save[2:] == [0, 0]


def test_save_game_answers(both: Any) -> None:
    for who, steps in both("save_game"):
        i = step_of(steps, lambda s: yn_prompt(s) == "Save game?")
        assert steps[-1]["keys"] == "N" and steps[-1]["exited"] and steps[-1]["rc"] == 0, who
        assert prompt(steps[-1]) == "Save game? N"
        assert i < len(steps) - 1
    for who, steps in both("save_game_yes"):
        assert prompt(steps[-2]) == "file:"
        assert steps[-1]["exited"] and steps[-1]["rc"] == 0, who
        assert err(steps[-1]) == "newfile [DATE]".ljust(len("newfile [Sat Nov 21 14:32:29 2026]")).rstrip()


def test_failed_save_at_save_game_continues_with_another_hand(both: Any) -> None:
    """§11.31: an empty name or a declined overwrite at Save game? deals another hand."""
    for name in ("save_game_empty", "save_game_overwrite_no"):
        for who, steps in both(name):
            i = step_of(steps, lambda s: yn_prompt(s) == "Save game?")
            j = step_of(steps, lambda s: prompt(s) == ">>:Move:", i)
            assert deck(steps[j]) == 88, (who, name)  # a new hand, the computer moved first
            assert row(steps[j], 11)[40:].startswith("| p: pick")


def test_save_at_yes_no_prompts(both: Any) -> None:
    """§9.3/§11.32: S at Extension? and Another hand?; a save there skips Save game?."""
    for who, steps in both("save_at_prompts"):
        i = step_of(steps, lambda s: s["keys"] == "s")
        assert yn_prompt(steps[i - 1]) == "Extension?" and prompt(steps[i]) == "file:"
        assert yn_prompt(steps[i + 1]) == "Extension?", who  # empty name: asked again
        j = step_of(steps, lambda s: s["keys"] == "S")
        assert err(steps[j + 1]).startswith("saved [DATE]"), who
        assert yn_prompt(steps[j + 1]) == "Another hand?"
        assert steps[-1]["keys"] == "n" and steps[-1]["exited"] and steps[-1]["rc"] == 0, who
        assert prompt(steps[-1]) == "Another hand? N"


def test_overwrite_file_question(both: Any) -> None:
    for who, steps in both("overwrite"):
        i = step_of(steps, lambda s: yn_prompt(s) == "Overwrite file?")
        j = step_of(steps, lambda s: s["keys"] == "n", i)
        assert prompt(steps[j]) == ">>:Move:" and err(steps[j]) == "", who
        k = step_of(steps, lambda s: s["keys"] == "y", j)
        assert err(steps[k]).startswith("exists [DATE]"), who  # shown at once (§10.1)


def test_same_file_question(both: Any) -> None:
    for who, steps in both("restore"):
        i = step_of(steps, lambda s: s.get("phase") == 2)
        assert err(steps[i]).startswith("g1 [DATE]"), who  # the restore banner (§10.4)
        j = step_of(steps, lambda s: yn_prompt(s) == "Same file?", i)
        k = step_of(steps, lambda s: s["keys"] == "y", j)
        assert prompt(steps[k]) == ">>:Move:", who  # saved under the same name, no file: prompt
        m = step_of(steps, lambda s: s["keys"] == "n", k)
        assert prompt(steps[m]) == "file:", who
        assert prompt(steps[m + 1]) == ">>:Move:", who  # g1 exists: overwritten without asking (§11.33)
        n = step_of(steps, lambda s: s["keys"] == "N", m)
        assert prompt(steps[n]) == "file:" and prompt(steps[n + 1]) == ">>:Move:"


def test_restore_round_trip_files(tmp_path: Any) -> None:
    sc = FIXTURES["restore"]
    H.replay_fixture(sc, str(tmp_path))
    assert (tmp_path / "g1").exists()
    assert save.read_game(str(tmp_path / "g1")).game.deck_count == 86


# ---------------------------------------------------------------------------
# 6. the interrupt key (§9.5, §11.37)


def test_interrupt_then_no_leaves_really_n(both: Any) -> None:
    for who, steps in both("interrupt"):
        assert steps[1]["keys"] == H.INTR
        assert prompt(steps[1]) == "Really?" and steps[1]["cursor"] == [10, 28], who
        assert steps[2]["screen"] == steps[1]["screen"], "a bad key changes nothing"
        assert prompt(steps[3]) == "Really? N" and steps[3]["cursor"] == [10, 29], who
        assert deck(steps[4]) == deck(steps[3]) - 1, "P after Really? N draws"


def test_interrupt_in_card_entry_goes_back_to_the_slot(both: Any) -> None:
    for who, steps in both("interrupt"):
        i = step_of(steps, lambda s: s["keys"] == "u")
        assert steps[i + 1]["keys"] == H.INTR and prompt(steps[i + 1]) == "Really?"
        assert prompt(steps[i + 2]) == "Really? N"
        assert row(steps[i + 3], 10)[20:30] == "Really? N1" and steps[i + 3]["cursor"] == [10, 30], who
        assert prompt(steps[i + 5]) == ">>:Move:" and err(steps[i + 5]) != "", who  # U2 was played


def test_interrupt_while_really_is_up_is_ignored(both: Any) -> None:
    for who, steps in both("interrupt"):
        i = step_of(steps, lambda s: s["keys"] == "q")
        assert steps[i + 1]["keys"] == H.INTR
        assert steps[i + 1]["screen"] == steps[i]["screen"], who
        assert prompt(steps[i + 2]) == ">>:Move:"  # Q's Really? n redraws the move prompt


def test_save_from_interrupt_prompt(both: Any) -> None:
    for who, steps in both("interrupt"):
        i = step_of(steps, lambda s: s["keys"] == "s")
        assert yn_prompt(steps[i - 1]) == "Really?" and prompt(steps[i]) == "file:", who
        assert yn_prompt(steps[i + 1]) == "Really?", who


def test_interrupt_yes_exits_0() -> None:
    snaps = fresh(5, [H.INTR, "y"])
    assert snaps[-1]["exited"] and snaps[-1]["rc"] == 0


def test_interrupt_at_a_yes_no_prompt_resumes_that_prompt() -> None:
    """^C at Extension? then n: `Really? N` stays and the next key answers Extension?."""
    steps = FIXTURES["appendix_a"]["steps"]
    keys = [s["keys"] for s in steps[1:49]] + [" ", H.INTR, "n", "n"]
    snaps = fresh(42, keys)
    assert yn_prompt(snaps[49]) == "Extension?"
    assert prompt(snaps[50]) == "Really?"
    assert prompt(snaps[51]) == "Really? N"
    assert yn_prompt(snaps[52]) == "Another hand?"  # the n answered Extension?


# ---------------------------------------------------------------------------
# 7. Order (§11.23) and new hands (§11.24)


def is_sorted(h: list[str]) -> bool:
    codes = [CODE.get(c, -1) for c in h]
    return codes == sorted(codes)


def test_order_sorts_at_once_and_after_moves_but_not_after_draws(both: Any) -> None:
    for who, steps in both("order"):
        assert not is_sorted(hand(steps[0]))
        assert is_sorted(hand(steps[1])) and sorted(hand(steps[1])) == sorted(hand(steps[0])), who
        assert row(steps[1], 12)[61:].rstrip() == "o: stop ordering"
        # O in the full window toggles without writing the help text
        assert steps[3]["keys"] == "o" and steps[3]["screen"] == steps[2]["screen"], who
        assert row(steps[4], 12)[61:].rstrip() == "o: order hand"
        assert row(steps[5], 12)[61:].rstrip() == "o: stop ordering"
        # P: the new card stays in slot P
        assert steps[6]["keys"] == "p" and not is_sorted(hand(steps[6])), who
        assert hand(steps[6])[0] == "Go" and hand(steps[6])[1:] == hand(steps[5])[1:]
        # a discard: sorted, empty slot first
        assert steps[7]["keys"] == "d6 " and is_sorted(hand(steps[7])) and hand(steps[7])[0] == "", who
        # a failed play is not followed by a sort
        assert steps[9]["keys"] == "u1 " and err(steps[9]) and hand(steps[9]) == hand(steps[8]), who
        assert not is_sorted(hand(steps[9]))


def test_new_hand_started_by_the_human_keeps_the_old_discard(both: Any) -> None:
    """§11.24 and §8.2: the discard pile is not blanked; PLAY/DISCARD lines are."""
    for who, steps in both("hands"):
        asked = [i for i, s in enumerate(steps) if yn_prompt(s) == "Another hand?"]
        assert len(asked) >= 2
        end2 = asked[1]
        new3 = end2 + 1
        assert steps[new3]["keys"] == "y"
        old_discard = discard(steps[end2])
        assert old_discard != ""
        s = steps[new3]
        assert deck(s) == 89, "the human starts hand 3: nothing drawn yet"
        assert discard(s) == old_discard, who
        assert comp_action(s) == ("", ""), who
        assert comp_action(steps[end2])[0] in ("PLAY", "DISCARD")
        assert all(row(s, y)[:40].strip() == "" for y in range(5)), "safeties and Extension cleared"
        assert all(line == "" for line in s["screen"][18:]), "mileage window cleared"


# ---------------------------------------------------------------------------
# 8. bugs found against the real program (see the report)


def test_unknown_byte_above_159_is_shown_raw() -> None:
    """The real program shows bytes 160-255 as themselves (one column), not `M-x`.

    Recorded (scenario "highbytes"): `unknown command: é`; after `u`, é is
    echoed in one column and the cursor goes back two, onto the `U`.
    """
    snaps = fresh(5, ["\xe9", "o", "p", "u", "\xe9"])
    assert err(snaps[2]) == "unknown command: \xe9"
    assert row(snaps[5], 10)[29:31] == "U\xe9"
    assert snaps[5]["cursor"] == [10, 29]


def test_virtual_window_renders_control_characters_like_curses() -> None:
    """waddstr() shows a control character as ^X and expands TAB to the next stop of 8.

    The real program's save message for the name "g^Ah" reads `g^Ah [date]`
    and for "t<TAB>u" `t  u [date]` (scenario "filename"); so does the curses
    backend, but the VirtualTerminal stores the raw characters.
    """
    vt = VirtualTerminal()
    win = vt.score
    win.move(15, 5)
    win.addstr("g\x01h \x7f|")
    win.move(14, 5)
    win.addstr("t\tu")
    win.refresh()
    lines = vt.lines()
    assert lines[15][45:52] == "g^Ah ^?"
    assert lines[14][45:49] == "t  u"


def test_high_bytes_in_card_entry_do_not_spill_into_the_hand() -> None:
    """Each byte above 159 typed as a card number is echoed in one column and the
    cursor backs up two (scenario "highbytes_walk"): the echo walks left along the
    prompt line.  It must never run right and wrap over hand rows 5 and 6."""
    snaps = fresh(5, ["p", "u", "\xe9" * 12])
    before, after = snaps[2], snaps[3]
    assert after["screen"][11:17] == before["screen"][11:17]
    assert after["cursor"] == [10, 18]


def test_a_message_as_wide_as_the_error_line_keeps_the_border() -> None:
    """A 35-column message wraps the cursor onto the score window's last row, where
    curses' clrtoeol() does nothing (scenario "message35": the real program's border
    stays).  The VirtualTerminal erased row 16."""
    vt = VirtualTerminal()
    app = H.make_app(vt, H.new_game(5))
    app.face.display.newboard()
    app.face.display.prboard()
    border = vt.lines()[16]
    app.face.error("x" * 35)
    vt.score.refresh()
    assert vt.lines()[15][45:80] == "x" * 35
    assert vt.lines()[16] == border


@pytest.mark.parametrize("cmd", ["u", "U", "d", "D"])
def test_use_and_discard_in_both_cases(cmd: str) -> None:
    _s0, s1, s2 = fresh(5, ["p", cmd + "1 "])
    assert s2["cursor"] == [10, 29] and prompt(s2) == ">>:Move:"
    assert (hand(s2), err(s2)) != (hand(s1), err(s1)), "the command was carried out"
    if cmd in "dD":  # seed 5: slot 1 holds Repairs, which goes on the discard pile
        assert hand(s1)[1] == "Repairs" and discard(s2) in ("Repairs", comp_action(s2)[1].strip())


def test_long_file_names_stay_on_the_prompt_line(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """§12.4 fixed on purpose: a long name scrolls within the prompt line, never over the hand."""
    monkeypatch.chdir(tmp_path)
    name = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"
    snaps, _app, _vt = H.vt_replay(5, ["s", name, "\x7f" * 5, "\x01", "\r"], save_writer=save.write_game)
    for s in snaps[1:5]:
        assert prompt(s).startswith("file:")
        assert s["screen"][11:17] == snaps[0]["screen"][11:17], "the echo wrapped over the hand"
        assert s["cursor"][0] == 10
    assert row(snaps[2], 10)[26:40] == name[-13:] + " "
    assert row(snaps[4], 10)[26:40].rstrip().endswith("BCDE^A")
    assert (tmp_path / (name[:-5] + "\x01")).exists()
    assert prompt(snaps[5]) == ">>:Move:"
    assert len(err(snaps[5])) <= 35


# ---------------------------------------------------------------------------
# 9. the terminal events of the virtual terminal


def test_hangup_saves_and_exits_1() -> None:
    saved: list[tuple[Any, int, str]] = []
    vt = VirtualTerminal()
    vt.feed(b"p")
    vt.keys.append(HANGUP)
    app = H.make_app(
        vt, H.new_game(5), keeper=Keeper(store=lambda what: saved.append((what.game, what.window, what.computer)))
    )
    assert app.run() == 1
    assert len(saved) == 1
    game, window, computer = saved[0]
    assert game.pending_extension is None and game.deck_count == 88 and game is not app.game
    assert (window, computer) == (0, "bsd")


def test_hangup_at_extension_saves_a_consistent_game() -> None:
    """§12.3 fixed: the game holds Extension? itself (card counted, still in the hand); a restore asks again."""
    steps = FIXTURES["appendix_a"]["steps"]
    keys = "".join(s["keys"] for s in steps[1:49]) + " "
    saved: list[Any] = []
    vt = VirtualTerminal()
    vt.feed(keys)
    vt.keys.append(HANGUP)
    app = H.make_app(vt, H.new_game(42), keeper=Keeper(store=lambda what: saved.append(what.game)))
    assert app.run() == 1
    (game,) = saved
    assert game.pending_extension == 0  # u0: the card in slot P reached 700
    assert game.players[YOU].mileage == 700 and game.trip_length == 700
    assert game.players[YOU].hand[0] != cards.EMPTY  # counted but still in the hand, as in the original
    assert sorted(game.deck) == sorted(cards.INITIAL_DECK)
    snaps, _app, _vt = H.vt_replay(None, ["x", "n"], game=game, run_kwargs={"restore": True})
    assert yn_prompt(snaps[0]) == "Extension?"
    assert yn_prompt(snaps[2]) == "Another hand?"
    assert row(snaps[2], 5)[40:].rstrip() == "|    Trip Completed   400     0      400"


def test_hangup_without_saver_exits_1() -> None:
    vt = VirtualTerminal([HANGUP])
    assert H.make_app(vt, H.new_game(5)).run() == 1


def test_end_of_input_is_a_hangup_at_the_first_empty_read() -> None:
    """Issue 30: the end of input keeps the game and leaves (status 1); the original gave up after ~100 reads."""
    reads = 0
    saved: list[Any] = []

    class Counting(VirtualTerminal):
        def read_byte(self) -> int:
            nonlocal reads
            reads += 1
            return super().read_byte()

    vt = Counting()
    vt.feed(b"p")
    app = H.make_app(vt, H.new_game(5), keeper=Keeper(store=lambda what: saved.append(what.game)))
    assert app.run() == 1
    assert reads == 2
    [game] = saved
    assert game.deck_count == 88 and game.players[YOU].hand[0] != cards.EMPTY


def test_resize_events_and_interrupts_between_keys() -> None:
    vt = VirtualTerminal([RESIZED, ord("p"), RESIZED, INTERRUPT, ord("n"), ord("q"), ord("y")])
    app = H.make_app(vt, H.new_game(5))
    assert app.run() == 0
    assert app.game.deck_count == 88
    assert END_OF_INPUT == -1


def test_virtual_window_basics() -> None:
    vt = VirtualTerminal()
    win: VirtualWindow = vt.board
    win.move(16, 38)
    win.addstr("abc")  # the bottom-right corner: the cursor sticks there
    assert win.getyx() == (16, 39)
    win.move(0, 0)
    win.standout()
    win.addstr("S")
    win.standend()
    win.refresh()
    assert vt.attr_runs() == [[0, 0, 1, "r"]]
