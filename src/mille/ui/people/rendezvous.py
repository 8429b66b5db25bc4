"""Where people meet: a Unix socket, the peer's user from the kernel, the invitation.

No network port: the host listens on one Unix socket, the table's door
(``table.sock``, mode 0666 so that anyone on the machine may knock), in a
directory of its own, ``$TMPDIR``-independent ``/tmp/mille-UID`` (mode
0711: others may pass through it, only the host may write in it, nobody
can list it).  Who connected is asked of the kernel (``SO_PEERCRED`` on
Linux, ``getpeereid`` on the BSDs and macOS) before a byte is read; what
the host lets them do (join their seat or an open one, watch, see the
listing, nothing) is the room's business (:mod:`mille.ui.people.room`).
Whoever connects checks the host the same way before they send a byte
(:func:`connect`): the directory and the socket are the host's, and so is
the process that answers (issue 43: anyone may make ``/tmp/mille-UID``
first); :func:`tables` finds every door on the machine that passes those
checks (``mille --list``).  One door per host: a second game of the same
host's is refused while the first one answers.

The invitation reaches the guest's terminals through the system's
``write(1)``: one line on each terminal the guest is logged in on (from
utmp: :data:`UTMP` on Linux, ``who`` elsewhere), but not on one whose owner
said ``mesg n`` (not writable by the group); where none can be reached,
the host is told why and shown the line to pass on.
"""

from __future__ import annotations

import os
import pwd
import socket
import stat
import struct
import sys

#: Where each host's sockets live: /tmp/mille-UID.
BASE = "/tmp"


class RendezvousError(Exception):
    """A meeting that cannot be set up; the message is one line."""


def user(name: str) -> pwd.struct_passwd:
    """The user ``name`` (a login name or a number); :class:`RendezvousError` if there is none."""
    try:
        if name.isdigit():
            return pwd.getpwuid(int(name))
        return pwd.getpwnam(name)
    except (KeyError, OverflowError, ValueError):
        from ...files.safeio import shown

        raise RendezvousError(f"no user {shown(name)!r} on this machine") from None


def user_name(uid: int) -> str:
    """The login name of ``uid`` (its number if it has none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def directory(host_uid: int) -> str:
    """The host's meeting directory (``/tmp/mille-UID``)."""
    return os.path.join(BASE, f"mille-{host_uid}")


#: The table's door in the host's directory.
TABLE_SOCKET = "table.sock"


def table_path(host_uid: int) -> str:
    """Where the host's table waits for whoever knocks."""
    return os.path.join(directory(host_uid), TABLE_SOCKET)


def make_directory() -> str:
    """The host's meeting directory, made (0711) or checked: its own, and no one else may write in it."""
    uid = os.getuid()
    path = directory(uid)
    try:
        os.mkdir(path, 0o711)
    except FileExistsError:
        pass
    except OSError as exc:
        raise RendezvousError(f"cannot make {path}: {exc.strerror}") from None
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
        from ...files.safeio import shown

        owner = shown(user_name(info.st_uid))
        if info.st_uid == uid:
            raise RendezvousError(f"cannot host: {path} is {_kind(info)}, not a directory; remove it (rm {path})")
        raise RendezvousError(
            f"cannot host: {path} is {_kind(info)} of {owner}'s, made before you first hosted, not yours; "
            f"only {owner} or the administrator may remove it (rm -r {path}): ask them to"
        )
    if info.st_mode & 0o022:
        raise RendezvousError(
            f"cannot host: {path} may be written by others (mode {stat.S_IMODE(info.st_mode):04o}), "
            f"so anyone may have left a socket there; remove it (rm -r {path})"
        )
    os.chmod(path, 0o711)  # ours: others pass through to the socket, and list nothing
    return path


def _kind(info: os.stat_result) -> str:
    """What a file is, for a line that says why it is refused: "a directory", "a symbolic link", ..."""
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link"
    if stat.S_ISDIR(info.st_mode):
        return "a directory"
    if stat.S_ISSOCK(info.st_mode):
        return "a socket"
    return "a file" if stat.S_ISREG(info.st_mode) else "a special file"


def _check_host_place(host: str, host_uid: int, path: str, verb: str = "join") -> None:
    """Before a guest connects: the meeting directory and the socket are the host's, and no one else may write there.

    As :func:`make_directory` checks on the host's side: a directory (not a
    link) owned by the host and written by nobody else, and in it a socket
    owned by the host.  Anything else was put there by someone else (``/tmp``
    is open to all): :class:`RendezvousError`, before any connection is made,
    so that an impostor learns nothing of the guest (a connection hands the
    listener the guest's process ID and user).  Missing: no game is waiting.
    """
    from ...files.safeio import shown

    name = shown(host)
    place = os.path.dirname(path)
    for item, want in ((place, stat.S_ISDIR), (path, stat.S_ISSOCK)):
        try:
            info = os.lstat(item)
        except FileNotFoundError:
            raise RendezvousError(f"cannot {verb} {name}: no game of {name}'s is waiting ({path})") from None
        except OSError as exc:
            raise RendezvousError(f"cannot {verb} {name}: {item}: {exc.strerror}") from None
        if not want(info.st_mode) or info.st_uid != host_uid:
            owner = shown(user_name(info.st_uid))
            raise RendezvousError(
                f"cannot {verb} {name}: {item} is {_kind(info)} of {owner}'s, not {name}'s game; "
                "nothing was sent (tell them, or the administrator)"
            )
        if item == place and info.st_mode & 0o022:
            raise RendezvousError(
                f"cannot {verb} {name}: {item} may be written by others "
                f"(mode {stat.S_IMODE(info.st_mode):04o}), so the socket in it may be anyone's; nothing was sent"
            )


def listen() -> tuple[socket.socket, str]:
    """The table's door, listening, in the host's directory, and its path.

    A socket left there by a game that is gone (nobody answers on it) is
    replaced; one a game of ours still listens on is not (it would be taken
    from under it, its people sent to this one): :class:`RendezvousError`.
    """
    make_directory()
    path = table_path(os.getuid())
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISSOCK(info.st_mode):
            raise RendezvousError(f"{path} is not a socket; remove it")
        if _answers(path):
            raise RendezvousError(f"a game of yours is already waiting or running ({path}); end it first")
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)
        os.chmod(path, 0o666)
        sock.listen(16)
    except OSError as exc:
        sock.close()
        raise RendezvousError(f"cannot listen on {path}: {exc.strerror}") from None
    return sock, path


def _answers(path: str) -> bool:
    """Whether a process listens on the socket at ``path`` (a connection is made, and closed at once).

    Refused or gone: a socket left by a game that ended without removing
    it.  A connection that does not complete in time (a listener whose
    queue is full) is someone there all the same.
    """
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(2.0)
    try:
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        return False
    except OSError:
        return True
    finally:
        probe.close()
    return True


def connect(host: str, verb: str = "join") -> socket.socket:
    """Connect to ``host``'s table on this machine, checked to be ``host``'s before a byte is sent.

    The guest checks what the host checks (issue 43: another user could make
    ``/tmp/mille-UID``, or a link there, before the host first hosted, and
    answer the guest in the host's name): the place is the host's
    (:func:`_check_host_place`), and the process that answers is the host's
    user, asked of the kernel as the host asks who connected
    (:func:`peer_uid`).  :class:`RendezvousError`, one line, otherwise.
    """
    return connect_uid(user(host).pw_uid, host, verb=verb)


def connect_uid(host_uid: int, host: str, timeout: float | None = None, verb: str = "join") -> socket.socket:
    """:func:`connect` to the table of ``host_uid`` (named ``host`` in the words), within ``timeout`` seconds;
    ``verb`` says what the one line of a refusal says could not be done (``join``, ``watch``)."""
    from ...files.safeio import shown

    path = table_path(host_uid)
    _check_host_place(host, host_uid, path, verb)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
        sock.settimeout(None)
        peer = peer_uid(sock)
    except OSError as exc:
        sock.close()
        why = f"no game of {shown(host)}'s is waiting" if exc.errno in (2, 111) else exc.strerror or "no answer"
        raise RendezvousError(f"cannot {verb} {shown(host)}: {why} ({path})") from None
    if peer != host_uid:
        sock.close()
        raise RendezvousError(
            f"cannot {verb} {shown(host)}: the game at {path} is {shown(user_name(peer))}'s, "
            f"not {shown(host)}'s; nothing was sent (tell them, or the administrator)"
        )
    return sock


def tables() -> list[tuple[int, str]]:
    """Every host on this machine whose table may be knocked at: (their user, their name), by name.

    The directories ``/tmp/mille-UID`` that are real directories of UID's
    that nobody else may write, holding a socket of UID's (the checks
    :func:`connect` makes again, with the process that answers); anything
    else is passed over in silence (another user's leftovers, an
    impostor's directory).  Bounded: at most :data:`MAX_TABLES` looked at.
    """
    found: list[tuple[int, str]] = []
    try:
        names = sorted(os.listdir(BASE))
    except OSError:
        return found
    for entry in names:
        if not entry.startswith("mille-") or not entry[6:].isdigit() or len(found) >= MAX_TABLES:
            continue
        uid = int(entry[6:])
        place = os.path.join(BASE, entry)
        try:
            info = os.lstat(place)
            door = os.lstat(table_path(uid))
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o022:
            continue
        if not stat.S_ISSOCK(door.st_mode) or door.st_uid != uid:
            continue
        found.append((uid, user_name(uid)))
    return sorted(found, key=lambda item: item[1])


#: The most tables ``mille --list`` knocks at.
MAX_TABLES = 256


def peer_uid(sock: socket.socket) -> int:
    """The user at the other end of ``sock``, from the kernel (nothing is read)."""
    if hasattr(socket, "SO_PEERCRED"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        return int(uid)
    return _getpeereid(sock.fileno())  # pragma: no cover - the BSDs and macOS


def _getpeereid(fd: int) -> int:  # pragma: no cover - the BSDs and macOS
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    uid, gid = ctypes.c_uint32(), ctypes.c_uint32()
    if libc.getpeereid(fd, ctypes.byref(uid), ctypes.byref(gid)) != 0:
        raise OSError(ctypes.get_errno(), "getpeereid failed")
    return int(uid.value)


#: The login records on Linux (``struct utmp``); the test points this at a file of its own.
UTMP = "/var/run/utmp"
#: Linux's ``struct utmp`` (``<bits/utmp.h>``): type, pid, line, id, user, host, exit, session, time,
#: address, reserved: 384 bytes on every Linux architecture that Python runs on with 32-bit times.
UTMP_RECORD = struct.Struct("hi32s4s32s256shhiii4i20x")
#: ``ut_type`` of a logged-in user's terminal.
USER_PROCESS = 7


def terminals(name: str, utmp: str | None = None) -> list[str]:
    """The terminals ``name`` is logged in on, as ``/dev/...`` paths: from utmp, as ``write(1)`` finds them.

    On Linux the records are read from :data:`UTMP` (or ``utmp``); where
    that file is not there, or elsewhere, ``who`` is asked.  A line naming
    anything but a terminal under ``/dev`` (a ``/`` outside ``pts/``, ``..``)
    is passed over.
    """
    path = UTMP if utmp is None else utmp
    if sys.platform.startswith("linux") and os.path.exists(path):
        lines = _utmp_lines(name, path)
    else:
        lines = _who_lines(name)
    return ["/dev/" + line for line in lines if ".." not in line and "/" not in line.replace("pts/", "", 1)]


def _utmp_lines(name: str, path: str) -> list[str]:
    try:
        with open(path, "rb") as f:
            data = f.read(UTMP_RECORD.size * 4096)  # bounded: a machine with more logins is not waited on
    except OSError:
        return []
    found = []
    wanted = name.encode("utf-8", "surrogateescape")
    for at in range(0, len(data) - UTMP_RECORD.size + 1, UTMP_RECORD.size):
        record = UTMP_RECORD.unpack_from(data, at)
        kind, line, user = record[0], record[2].split(b"\0", 1)[0], record[4].split(b"\0", 1)[0]
        if kind == USER_PROCESS and user == wanted and line:
            found.append(line.decode("utf-8", "surrogateescape"))
    return found


#: Where ``who`` is looked for, in order: never on ``PATH``, which the person's environment sets (a ``who``
#: of someone else's early on it would be run, and its lines taken for terminals).
WHO = ("/usr/bin/who", "/bin/who")


def _system_program(paths: tuple[str, ...]) -> str | None:
    """The first of ``paths`` that is an executable regular file, or None (the system's program, by its full path)."""
    for path in paths:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _who_lines(name: str) -> list[str]:
    import subprocess

    who = _system_program(WHO)
    if who is None:
        return []
    try:
        done = subprocess.run([who], capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return []
    return [fields[1] for fields in map(str.split, done.stdout.splitlines()) if len(fields) >= 2 and fields[0] == name]


#: Where ``write(1)`` is looked for, in order: never on ``PATH`` (as :data:`WHO`).
WRITE = ("/usr/bin/write", "/bin/write")
#: The package that has ``write(1)``, named where it is missing.
WRITE_PACKAGE = "bsdextrautils on Debian and Ubuntu, util-linux elsewhere"
#: How long ``write(1)`` may take for one terminal (one stopped with ^S would block it).
WRITE_TIMEOUT = 5.0


class Invitation(list[str]):
    """The terminals an invitation reached (a list of ``/dev/...`` paths) and, if none, :attr:`why` not: one line."""

    why: str = ""


def invite(guest: str, line: str, ttys: list[str] | None = None, utmp: str | None = None) -> Invitation:
    """Write ``line`` on each of ``guest``'s terminals that takes messages; the terminals reached, and why none.

    The guest's terminals are theirs (a character device they own) and take
    messages when writable by their group (``mesg y``).  Terminals are group
    ``tty``, and only root or a program of that group may write on another
    user's: the system's ``write(1)``, by its full path (:data:`WRITE`), is
    run for each (``write GUEST TTY``, the line on its standard input,
    within :data:`WRITE_TIMEOUT`), as a person would run it (issue 45: mille
    opened the terminal itself, which only root may do, so an invitation
    never arrived).  As root, or where there is no ``write(1)`` and the
    terminal is writable all the same, the line is written directly (opened
    without becoming our controlling terminal and without blocking).  When
    none is reached, :attr:`Invitation.why` says why in words the host can
    act on (not logged in, ``mesg n``, no ``write(1)`` and the package that
    has it, what ``write(1)`` said).
    """
    from ...files.safeio import shown

    reached = Invitation()
    uid = user(guest).pw_uid
    name = shown(guest)
    found = terminals(guest, utmp) if ttys is None else ttys
    root = os.geteuid() == 0
    write = None if root else _system_program(WRITE)
    reasons: list[str] = []
    for tty in found:
        try:
            info = os.stat(tty)
        except OSError:
            continue
        if not stat.S_ISCHR(info.st_mode) or info.st_uid != uid:
            continue  # not theirs
        if not info.st_mode & stat.S_IWGRP:
            reasons.append(f"{name}'s terminals take no messages (mesg n)")
            continue
        if root or (write is None and os.access(tty, os.W_OK)):
            if _write_directly(tty, line):
                reached.append(tty)
            continue
        if write is None:
            reasons.append(f"write(1), which reaches another user's terminal, is not installed ({WRITE_PACKAGE})")
            continue
        said = _write_through(write, guest, tty, line)
        if said is None:
            reached.append(tty)
        else:
            reasons.append(f"write(1) could not reach {name} on {tty[len('/dev/') :]}: {said}")
    if not reached:
        if not found:
            reached.why = f"{name} is not logged in here (no terminal of theirs in the login records)"
        else:
            reached.why = "; ".join(dict.fromkeys(reasons)) or f"none of {name}'s terminals could be written to"
    return reached


def _write_directly(tty: str, line: str) -> bool:
    """``line`` written on ``tty`` by this process (root's, or a terminal it may write); True if it was."""
    try:
        fd = os.open(tty, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        os.write(fd, ("\r\n\a" + line + "\r\n").encode("utf-8", "backslashreplace"))
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _write_through(write: str, guest: str, tty: str, line: str) -> str | None:
    """``write GUEST TTY`` with ``line`` on its standard input; None if it wrote it, else what went wrong (escaped).

    ``write(1)`` says why it would not (``has messages disabled``, ``is not
    logged in on``, and, where it is not set-group-ID ``tty``, ``effective
    gid does not match group of``: then only root may write there).
    """
    import subprocess

    from ...files.safeio import shown

    try:
        done = subprocess.run(
            [write, guest, tty[len("/dev/") :]],
            input=(line + "\n").encode("utf-8", "backslashreplace"),
            capture_output=True,
            timeout=WRITE_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return f"it took more than {WRITE_TIMEOUT:g} seconds"
    except OSError as exc:
        return exc.strerror or str(exc)
    if done.returncode == 0:
        return None
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    text = shown(said[0] if said else f"it ended with status {done.returncode}")[:120]
    if "effective gid does not match" in text:
        text += " (it is not set-group-ID tty here, so only root may write on another user's terminal)"
    return text


def me() -> str:
    """The login name of the user running mille."""
    return user_name(os.getuid())


__all__ = [
    "TABLE_SOCKET",
    "Invitation",
    "RendezvousError",
    "connect",
    "connect_uid",
    "directory",
    "invite",
    "listen",
    "make_directory",
    "me",
    "peer_uid",
    "table_path",
    "tables",
    "terminals",
    "user",
    "user_name",
]
