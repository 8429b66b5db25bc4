"""The one home of durable writes and untrusted reads (mille.files.safeio), under real faults.

A real FIFO, real links to a device and to another file, a real full disk
(``RLIMIT_FSIZE`` in a child process, ``SIGXFSZ`` ignored: the write is cut
short, the next fails with ``EFBIG``), directories of another user (a
forked child that becomes ``nobody``).  What each file of the game does
with them is in its own tests (``test_ledger.py``, ``test_settings.py``,
``test_save.py``, ``test_rescue.py``).
"""

from __future__ import annotations

import errno
import os
import stat
import textwrap
from pathlib import Path

import pytest

from helpers.faults import as_other_user, full_disk, posix_only, run_python, shared_directory
from mille.files import safeio

pytestmark = posix_only


def test_read_regular_reads_a_file_and_says_what_it_read(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    data, st = safeio.read_regular(str(path), 3)
    assert data == b"abc" and stat.S_ISREG(st.st_mode) and st.st_size == 3


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")  # nobody writes to it: an open without O_NONBLOCK would wait for ever
    with pytest.raises(safeio.NotRegularFile) as caught:
        safeio.read_regular(str(tmp_path / "fifo"), 100)
    assert caught.value.strerror == "not a regular file (a FIFO)"


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    os.symlink("/dev/zero", tmp_path / "zero")
    with pytest.raises(safeio.NotRegularFile, match="a character device"):
        safeio.read_regular(str(tmp_path / "zero"), 100)


def test_a_directory_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        safeio.read_regular(str(tmp_path), 100)


def test_no_more_than_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    with pytest.raises(safeio.TooLarge) as caught:
        safeio.read_regular(str(path), 100)
    assert (caught.value.size, caught.value.limit) == (101, 100)
    assert caught.value.strerror == "too large (101 bytes or more; the limit is 100)"


def test_a_link_is_refused_where_links_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("x")
    os.symlink("real", tmp_path / "link")
    assert safeio.read_regular(str(tmp_path / "link"), 10)[0] == b"x"
    with pytest.raises(OSError) as caught:
        safeio.read_regular(str(tmp_path / "link"), 10, follow=False)
    assert caught.value.errno == errno.ELOOP and caught.value.strerror == "a symbolic link (not followed here)"


def test_a_nul_in_a_name_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="invalid file name"):
        safeio.read_regular(str(tmp_path / "a\x00b"), 10)


# --------------------------------------------------------------------------
# Whole files


def test_replace_file_never_writes_through_a_link(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.write_text("someone's")
    os.symlink(other, tmp_path / "target")
    safeio.replace_file(str(tmp_path / "target"), b"mine")
    assert other.read_text() == "someone's"
    assert not (tmp_path / "target").is_symlink() and (tmp_path / "target").read_bytes() == b"mine"
    assert stat.S_IMODE(os.stat(tmp_path / "target").st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["other", "target"]


REPLACE_ON_A_FULL_DISK = textwrap.dedent(
    """
    import os, sys
    from mille.files import safeio
    {full_disk}
    calls = []
    real_write = os.write
    def write(fd, data):
        calls.append(len(data))
        return real_write(fd, data)
    os.write = write
    try:
        safeio.replace_file(sys.argv[1], b"n" * 5000)
    except OSError as exc:
        print(exc.errno, exc.strerror, calls, sep="|")
    """
)


def test_a_full_disk_in_a_whole_file_write_keeps_the_old_file(tmp_path: Path) -> None:
    """The write is cut short, the rest is tried (and fails with the system's own reason): old file intact."""
    path = tmp_path / "f"
    path.write_bytes(b"old")
    shown = run_python(REPLACE_ON_A_FULL_DISK.replace("{full_disk}", full_disk(1000)), str(path))
    assert shown.stderr == ""
    code, why, calls = shown.stdout.split("|")
    assert int(code) == errno.EFBIG and why == os.strerror(errno.EFBIG) and calls.strip() == "[5000, 4000]"
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["f"]


def test_write_temporary_names_cannot_be_guessed(tmp_path: Path) -> None:
    names = {os.path.basename(safeio.write_temporary(str(tmp_path), "x", b"")) for _ in range(50)}
    assert len(names) == 50 and all(len(n) == len(".x..tmp") + 16 for n in names)


# --------------------------------------------------------------------------
# Appending


APPEND_ON_A_FULL_DISK = textwrap.dedent(
    """
    import sys
    from mille.files import safeio
    shared = sys.argv[2] == "shared"
    out = safeio.AppendOnly.open(sys.argv[1], shared=shared)
    {full_disk}
    try:
        out.append(b"0123456789" * 10 + b"\\n")
    except safeio.ShortWrite as exc:
        print(exc.written, exc.wanted, exc.strerror)
    out.close()
    """
)


@pytest.mark.parametrize("shared", [False, True], ids=["one writer", "shared"])
def test_a_record_cut_short_by_a_full_disk(tmp_path: Path, shared: bool) -> None:
    path = tmp_path / "results.jsonl"
    with safeio.AppendOnly.create(str(path), b"header\n") as out:
        out.append(b"first\n")
    code = APPEND_ON_A_FULL_DISK.replace("{full_disk}", full_disk(len(b"header\nfirst\n") + 30))
    shown = run_python(code, str(path), "shared" if shared else "one")
    assert (
        shown.stderr == "" and shown.stdout == "30 101 write cut short (30 of 101 bytes written: is the disk full?)\n"
    )
    if shared:
        assert path.read_bytes() == b"header\nfirst\n" + b"0123456789" * 3  # for its reader to skip
        with safeio.AppendOnly.open(str(path), shared=True) as out:
            assert not out.ends_whole()
    else:
        assert path.read_bytes() == b"header\nfirst\n"  # cut back: it ends with a whole record
        with safeio.AppendOnly.open(str(path)) as out:
            assert out.ends_whole()


def test_append_only_refuses_a_fifo_and_a_taken_name(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(safeio.NotRegularFile):
        safeio.AppendOnly.open(str(tmp_path / "fifo"))
    os.symlink("nowhere", tmp_path / "link")
    with pytest.raises(FileExistsError):
        safeio.AppendOnly.create(str(tmp_path / "link"), b"h\n")
    assert not (tmp_path / "nowhere").exists()


def test_append_only_resumes_cut_back_to_its_last_whole_record(tmp_path: Path) -> None:
    path = tmp_path / "r"
    path.write_bytes(b"h\nrecord\ntorn")
    with safeio.AppendOnly.open(str(path), truncate_to=9) as out:
        out.append(b"next\n", sync=False)
    assert path.read_bytes() == b"h\nrecord\nnext\n"


# --------------------------------------------------------------------------
# Directories


def test_a_private_directory_is_made_0700_and_passes(tmp_path: Path) -> None:
    made = tmp_path / "a" / "b"
    safeio.private_directory(str(made))
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o700


def test_a_directory_open_to_others_is_refused(tmp_path: Path) -> None:
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)
    with pytest.raises(safeio.NotPrivate) as caught:
        safeio.private_directory(str(open_dir))
    assert caught.value.strerror == "writable by others (mode 0777), not used: chmod go-w it"
    assert stat.S_IMODE(os.stat(open_dir).st_mode) == 0o777  # never changed behind the player's back
    inside = open_dir / "mine"
    inside.mkdir(mode=0o700)
    with pytest.raises(safeio.NotPrivate, match=r"inside .*open, which others may write in \(mode 0777\)"):
        safeio.check_private(str(inside))
    os.chmod(open_dir, 0o1777)  # sticky, as /tmp: nobody can rename what is not theirs
    safeio.check_private(str(inside))


def test_a_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    with shared_directory() as shared:
        theirs = shared / "theirs"
        uid = int(as_other_user(lambda: (os.mkdir(theirs, 0o700), os.getuid())[1]))
        with pytest.raises(safeio.NotPrivate) as caught:
            safeio.check_private(str(theirs))
        assert caught.value.strerror == f"belongs to another user (uid {uid}), not used"
        # ... and, the other way round, the player's directory inside one of theirs.
        mine = theirs / "mine"

        def make_mine() -> None:
            os.chmod(theirs, 0o777)

        as_other_user(make_mine)
        mine.mkdir(mode=0o700)
        with pytest.raises(safeio.NotPrivate, match=f"inside {theirs}, which belongs to another user"):
            safeio.check_private(str(mine))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain-name.json", "plain-name.json"),
        ("été", "été"),
        ("\x1b]0;owned\x07", "\\x1b]0;owned\\x07"),
        ("a\nb\tc", "a\\nb\\tc"),
        ("bad\udcffbyte", "bad\\xffbyte"),
        ("\u202eright-to-left", "\\u202eright-to-left"),
    ],
)
def test_shown_escapes_what_would_act_on_a_terminal(text: str, expected: str) -> None:
    assert safeio.shown(text) == expected
    assert safeio.shown(safeio.shown(text)) == expected  # showing twice is showing once
