"""Files that must last and files that cannot be trusted: every file mille touches goes through here.

Three rules, kept in one place so that every file the game reads or writes
keeps them (saves, hangup and crash files, the record of games, the
settings and their cache; the tournament's results file is meant to come
here too, see :class:`AppendOnly`):

**Writing whole files.**  A file is never written in place: the data go to
a new temporary file beside the target (:func:`write_temporary`: a name
nobody can guess, created with ``O_CREAT | O_EXCL | O_NOFOLLOW``, so a file
or a link planted there first is never opened), written to the end (a
short write is continued, and the error that stops it is the one raised),
synced, then renamed over the target (:func:`replace_file`) or linked to a
name that did not exist (:func:`write_new`), and the directory synced.
Any failure leaves the previous file as it was and no temporary file.

**Appending records.**  A record is added in one ``write`` at the end of a
file opened with ``O_APPEND`` (:class:`AppendOnly`), so records of two
writers never mix; a write the system takes only in part (a full disk, a
file-size limit) is :class:`ShortWrite`, never continued (the rest could
land after another writer's record).  What is done with the torn piece is
the caller's to say: a file of one writer cuts it off (``shared=False``),
a file of many leaves it for its reader to skip.

**Reading from outside.**  Any file named by the player, the environment or
another program may be anything: :func:`read_regular` opens without
blocking (``O_NONBLOCK``: a FIFO or a device cannot hang the game), looks
at what it opened (``fstat``), refuses whatever is not a regular file, and
never reads more than a limit (a link to ``/dev/zero``, a 200 MB file).
Directories the game keeps its own files in must be the player's own
and closed to others (:func:`private_directory`, the rule of OpenSSH's
``StrictModes``).  Every string from outside reaches the terminal through
:func:`shown`, with control characters escaped.

Only :mod:`os` is imported (the settings are read through here before the
first board).  Windows has no ``O_NOFOLLOW``, ``O_NONBLOCK``, ``fsync`` of a
directory or owners in the POSIX sense: there those steps are skipped.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)
#: ``O_NOFOLLOW`` where the system has it (0 on Windows, which then follows).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_READ = os.O_RDONLY | _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | _CLOEXEC | _BINARY


# --------------------------------------------------------------------------
# What a terminal is shown


def shown(text: str) -> str:
    """``text`` as it can be printed on a terminal: control and undecodable characters escaped.

    Names and values come from the command line, the environment or a file
    and may hold anything; printed raw, an escape sequence in one would act
    on the terminal (retitle it, move the cursor, ...).  Printable text is
    shown as it is; a backslash is left alone, so showing twice is showing
    once.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x100:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}"))
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


# --------------------------------------------------------------------------
# Refusals: each an OSError whose strerror is the one line to show


class NotRegularFile(OSError):
    """A FIFO, a device, a socket, ...: not a file to read or write records in."""


class TooLarge(OSError):
    """A file larger than the caller's limit; ``size`` (at least) and ``limit``."""

    def __init__(self, size: int, limit: int, path: str | None = None) -> None:
        import errno

        super().__init__(errno.EFBIG, f"too large ({size} bytes or more; the limit is {limit})", path)
        self.size = size
        self.limit = limit


class ShortWrite(OSError):
    """The system took only ``written`` of ``wanted`` bytes of a record (a full disk, a size limit)."""

    def __init__(self, written: int, wanted: int, path: str | None = None) -> None:
        import errno

        why = f"write cut short ({written} of {wanted} bytes written: is the disk full?)"
        super().__init__(errno.ENOSPC, why, path)
        self.written = written
        self.wanted = wanted


class NotPrivate(OSError):
    """A directory that belongs to someone else, or that others may write in."""


def _kind(mode: int) -> str:
    import stat

    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def check_regular(st: os.stat_result, path: str | None = None) -> None:
    """Raise :class:`IsADirectoryError` or :class:`NotRegularFile` unless ``st`` is a regular file's."""
    import errno
    import stat

    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    kind = _kind(st.st_mode)
    raise NotRegularFile(errno.EINVAL, "not a regular file" + ("" if kind.startswith("not") else f" ({kind})"), path)


# --------------------------------------------------------------------------
# Reading


def open_regular(path: str, *, follow: bool = True, flags: int = _READ) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at ``path`` (opened without blocking) and its ``fstat``.

    ``follow=False`` refuses a symbolic link at ``path`` (``O_NOFOLLOW``).
    Raises :class:`OSError`: the system's (``FileNotFoundError``, ...),
    :class:`IsADirectoryError`, :class:`NotRegularFile`; an embedded NUL in
    the name is ``EINVAL`` "invalid file name".
    """
    if not follow:
        flags |= NOFOLLOW
    try:
        fd = os.open(path, flags)
    except ValueError:  # an embedded NUL: no system call takes it
        import errno

        raise OSError(errno.EINVAL, "invalid file name", path) from None
    except OSError as exc:
        import errno

        if not follow and exc.errno == errno.ELOOP and os.path.islink(path):
            raise OSError(errno.ELOOP, "a symbolic link (not followed here)", path) from None
        raise
    try:
        st = os.fstat(fd)
        check_regular(st, path)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_fd(fd: int, limit: int, size: int = 0, path: str | None = None) -> bytes:
    """At most ``limit`` bytes from ``fd``; :class:`TooLarge` if there are more (``size``: what fstat said)."""
    if size > limit:
        raise TooLarge(size, limit, path)
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = os.read(fd, min(limit + 1 - total, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > limit:
        raise TooLarge(total, limit, path)
    return b"".join(chunks)


def read_regular(path: str, limit: int, *, follow: bool = True) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (at most ``limit``) and its ``fstat``.

    Never blocks and never reads without end: a FIFO, a device or a socket
    (a link to one included) is :class:`NotRegularFile`, a directory
    :class:`IsADirectoryError`, more than ``limit`` bytes :class:`TooLarge`
    (a file that grows while it is read as well).  ``follow=False`` refuses
    a symbolic link.  Every failure is an :class:`OSError` whose
    ``strerror`` is one line.
    """
    fd, st = open_regular(path, follow=follow)
    try:
        return read_fd(fd, limit, st.st_size, path), st
    finally:
        os.close(fd)


# --------------------------------------------------------------------------
# Directories


def sync_directory(directory: str) -> None:
    """Make a new or renamed name in ``directory`` durable (best effort: not every system can)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
    try:
        fd = os.open(directory, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_private_dirs(directory: str) -> None:
    """Create ``directory`` and any missing parents with mode 0700 (what is kept there is the player's).

    A file in the way is a :class:`NotADirectoryError`.
    """
    if os.path.isdir(directory):
        return
    parent = os.path.dirname(directory)
    if parent and parent != directory:
        make_private_dirs(parent)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        if not os.path.isdir(directory):
            import errno

            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), directory) from None


def _own_group(st: os.stat_result) -> bool:
    """Is the directory's group the owner's private group (no other member), as Debian's OpenSSH allows?"""
    try:
        import grp
        import pwd

        group = grp.getgrgid(st.st_gid)
        owner = pwd.getpwuid(st.st_uid)
    except (ImportError, KeyError, OSError):
        return False
    if not group.gr_mem:
        return owner.pw_gid == group.gr_gid
    return list(group.gr_mem) == [owner.pw_name]


def check_private(directory: str) -> None:
    """Raise :class:`NotPrivate` unless ``directory`` is the player's own and closed to others.

    The rule of OpenSSH's ``StrictModes``: the directory must belong to the
    user running the game and be writable by nobody else (group-writable
    only where the group is the user's own, with nobody else in it, as on
    systems that give each user a group of their own), and each directory
    above it must belong to the user or to root and be writable by nobody
    else unless it is sticky (``/tmp``: nobody can rename what is not
    theirs there).  Otherwise somebody else could plant a file or a link
    where the game expects its own, or replace what it wrote.  Nothing is
    checked where the system has no owners (Windows).
    """
    if not hasattr(os, "geteuid"):
        return
    import errno

    me = os.geteuid()
    path = os.path.abspath(directory)
    st = os.stat(path)
    if st.st_uid != me:
        raise NotPrivate(errno.EPERM, f"belongs to another user (uid {st.st_uid}), not used", directory)
    if st.st_mode & 0o002 or (st.st_mode & 0o020 and not _own_group(st)):
        who = "others" if st.st_mode & 0o002 else "its group"
        raise NotPrivate(
            errno.EPERM, f"writable by {who} (mode {st.st_mode & 0o7777:04o}), not used: chmod go-w it", directory
        )
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return
        path = parent
        st = os.stat(path)
        if st.st_uid not in (me, 0):
            raise NotPrivate(errno.EPERM, f"inside {path}, which belongs to another user (uid {st.st_uid})", directory)
        if st.st_mode & 0o1000:  # sticky: only an entry's owner may rename or remove it
            continue
        if st.st_mode & 0o002 or (st.st_mode & 0o020 and not (st.st_uid == me and _own_group(st))):
            raise NotPrivate(
                errno.EPERM, f"inside {path}, which others may write in (mode {st.st_mode & 0o7777:04o})", directory
            )


def check_owned(st: os.stat_result, path: str) -> None:
    """Raise :class:`NotPrivate` unless the file ``st`` describes is the user's (or root's) and closed to others."""
    if not hasattr(os, "geteuid"):
        return
    import errno

    if st.st_uid not in (os.geteuid(), 0):
        raise NotPrivate(errno.EPERM, f"belongs to another user (uid {st.st_uid}), not used", path)
    if st.st_mode & 0o002 or (st.st_mode & 0o020 and not _own_group(st)):
        who = "others" if st.st_mode & 0o002 else "its group"
        raise NotPrivate(
            errno.EPERM, f"writable by {who} (mode {st.st_mode & 0o7777:04o}), not used: chmod go-w it", path
        )


def private_directory(directory: str) -> str:
    """``directory``, made (mode 0700, with its parents) if it is missing, and checked (:func:`check_private`).

    What is done with a directory that is not private is refusing it, with
    :class:`NotPrivate` saying why in one line: the game never changes the
    modes of a directory it did not make, and never writes into one that
    somebody else could have prepared.
    """
    make_private_dirs(directory)
    check_private(directory)
    return directory


# --------------------------------------------------------------------------
# Writing whole files


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``: a short write is continued, and the error that stops it raised.

    For a file of its own (a temporary file): never for records appended to
    a shared file (:meth:`AppendOnly.append`).
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # not for a regular file; never loop for ever
            import errno

            raise OSError(errno.EIO, os.strerror(errno.EIO))
        view = view[written:]


def write_temporary(directory: str, base: str, data: bytes, mode: int | None = 0o600) -> str:
    """``data`` in a new file ``.BASE.XXXXXXXXXXXXXXXX.tmp`` of ``directory``, written and synced; its path.

    The name is random (64 bits from ``os.urandom``) and claimed with
    ``O_CREAT | O_EXCL | O_NOFOLLOW``: never an existing file nor a link
    planted at it, whatever another process does meanwhile.  The file gets
    ``mode`` exactly (0600 by default), or with None 0644 less the umask (as
    the original's ``creat(name, 0644)``).  On failure nothing is left
    behind and the :class:`OSError` is raised.
    """
    while True:
        tmp = os.path.join(directory, f".{base[:64]}.{os.urandom(8).hex()}.tmp")
        try:
            fd = os.open(tmp, _EXCLUSIVE, 0o644 if mode is None else 0o600)
        except FileExistsError:
            continue
        break
    try:
        try:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def replace_file(path: str, data: bytes, mode: int | None = 0o600) -> None:
    """Put ``data`` in ``path`` atomically: a temporary file beside it, synced, renamed over it, the directory synced.

    Whatever was at ``path`` (a file, a link) is replaced, never written
    through; on failure it is as it was.  ``mode`` as :func:`write_temporary`.
    """
    directory = os.path.dirname(path) or os.curdir
    tmp = write_temporary(directory, os.path.basename(path), data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    sync_directory(directory)


#: Errors of link(2) that mean the file system has no hard links, not that
#: this name is taken: then the name is claimed with O_EXCL instead.
def _no_links(code: int | None) -> bool:
    import errno

    names = ("EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK")
    return code in {getattr(errno, name) for name in names if hasattr(errno, name)}


def write_new(directory: str, stem: str, data: bytes, suffix: str = ".json", *, mode: int = 0o600) -> str:
    """Write ``data`` to a file of ``directory`` that did not exist before; its path.

    The name is ``STEM.json``, or ``STEM-2.json``, ``STEM-3.json``, ... for
    the first that is free, and it is claimed atomically: the data go to a
    temporary file, written and synced, which is then hard-linked to the
    name (``link(2)`` fails if the name exists, a dangling link included, so
    two programs never take the same one, and the name never shows a
    partial file).  Where the file system has no hard links the name is
    claimed with ``O_EXCL | O_NOFOLLOW`` and the temporary file renamed over
    the claim.  The file gets ``mode``.  Any :class:`OSError` leaves no
    temporary file behind.
    """
    tmp = write_temporary(directory, stem, data, mode)
    try:
        number = 1
        while True:
            name = f"{stem}{suffix}" if number == 1 else f"{stem}-{number}{suffix}"
            path = os.path.join(directory, name)
            number += 1
            try:
                os.link(tmp, path)
            except FileExistsError:
                continue
            except OSError as exc:
                if not _no_links(exc.errno):
                    raise
                try:
                    os.close(os.open(path, _EXCLUSIVE, 0o600))
                except FileExistsError:
                    continue
                try:
                    os.replace(tmp, path)
                except BaseException:
                    _remove(path)
                    raise
                break
            _remove(tmp)
            break
    except BaseException:
        _remove(tmp)
        raise
    sync_directory(directory)
    return path


def create_exclusive(path: str, first: bytes, mode: int = 0o600) -> bool:
    """Create ``path`` holding exactly ``first`` (synced), or do nothing if the name exists; True if made.

    Nobody ever sees the file without its first bytes: they are written to
    a temporary file that is then linked to the name (where links are not
    possible, the name is claimed with ``O_EXCL`` and written at once).
    """
    directory = os.path.dirname(path) or os.curdir
    tmp = write_temporary(directory, os.path.basename(path), first, mode)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError as exc:
            if not _no_links(exc.errno):
                raise
            try:
                fd = os.open(path, _EXCLUSIVE, mode)
            except FileExistsError:
                return False
            try:
                write_all(fd, first)
                os.fsync(fd)
            finally:
                os.close(fd)
    finally:
        _remove(tmp)
    sync_directory(directory)
    return True


# --------------------------------------------------------------------------
# Appending records


class AppendOnly:
    """A file of records, each added whole in one write at its end (``O_APPEND``).

    For the record of games (many writers: ``shared=True``) and for a
    tournament's results file (one writer).  Made with :meth:`create` (a new
    file whose first bytes are ``first``, written whole before anybody sees
    the name) or :meth:`open` (an existing regular file, never a FIFO or a
    device: opened without blocking; a link refused unless ``follow``);
    :meth:`open` with ``truncate_to`` cuts a file of one writer back to its
    last whole record first (a results file resumed).

    :meth:`append` adds one record in one ``write``; a write the system
    takes only in part is :class:`ShortWrite` (never continued: the rest
    could land after another writer's record).  A file of one writer is
    then cut back to where the record began, so it always ends with a whole
    record; a shared file keeps the torn piece (cutting it could cut a
    record another writer added meanwhile), and its reader skips it:
    :meth:`ends_whole` tells a writer whether the file ends with a
    separator, to start its record on a line of its own.  ``sync=True``
    fsyncs each record; a writer that groups its syncs calls :meth:`sync`
    itself (from a thread, say), and :meth:`close` syncs what is left.

    A results file, for instance (:mod:`mille.lab.results`)::

        out = AppendOnly.create(path, header_line, shared=False)        # --out FILE
        out = AppendOnly.open(path, follow=True, shared=False)          # --resume FILE:
        data = read_fd(out.fd, limit, out.size(), path)                 #   read through the same descriptor,
        out.cut_back(good)                                              #   checked, cut to its last whole record
        out.append(line, sync=False); ...; out.sync(); out.close()

    (Reading and cutting through the descriptor that is appended to, the
    file checked is the file written, whatever happens to its name meanwhile.)
    """

    def __init__(self, fd: int, path: str, *, shared: bool) -> None:
        self.fd = fd
        self.path = path
        self.shared = shared

    @classmethod
    def create(cls, path: str, first: bytes = b"", *, shared: bool = False, mode: int = 0o600) -> AppendOnly:
        """A new file holding ``first``; :class:`FileExistsError` if the name is taken (a link included)."""
        import errno

        if not create_exclusive(path, first, mode):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path)
        return cls.open(path, follow=False, shared=shared)

    @classmethod
    def open(
        cls, path: str, *, follow: bool = False, shared: bool = False, truncate_to: int | None = None
    ) -> AppendOnly:
        """The existing regular file at ``path``, for appending (and reading its end); see the class."""
        flags = os.O_RDWR | os.O_APPEND | _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY
        fd, _ = open_regular(path, follow=follow, flags=flags)
        out = cls(fd, path, shared=shared)
        if truncate_to is not None:
            try:
                out.cut_back(truncate_to)
            except BaseException:
                out.close(sync=False)
                raise
        return out

    def cut_back(self, size: int) -> None:
        """Cut a file of one writer back to its first ``size`` bytes (its last whole record), synced.

        Nothing is done to a file no longer than ``size``.
        """
        if self.size() > size:
            os.ftruncate(self.fd, size)
            os.fsync(self.fd)

    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def ends_whole(self, separator: bytes = b"\n") -> bool:
        """Does the file end with ``separator`` (or is it empty)?  A torn record does not."""
        size = self.size()
        if size == 0:
            return True
        if hasattr(os, "pread"):
            last = os.pread(self.fd, 1, size - 1)
        else:  # Windows: no pread; O_APPEND writes go to the end whatever the offset
            os.lseek(self.fd, size - 1, os.SEEK_SET)
            last = os.read(self.fd, 1)
        return last == separator[-1:]

    def append(self, record: bytes, *, sync: bool = True) -> None:
        """Add ``record`` at the end in one write (and fsync it); :class:`ShortWrite` if the system took less."""
        before = None if self.shared else self.size()
        written = os.write(self.fd, record)
        if written != len(record):
            if before is not None:
                try:
                    os.ftruncate(self.fd, before)
                except OSError:
                    pass
            raise ShortWrite(written, len(record), self.path)
        if sync:
            os.fsync(self.fd)

    def sync(self) -> None:
        os.fsync(self.fd)

    def close(self, *, sync: bool = True) -> None:
        """Close the file, fsynced first (unless ``sync=False``)."""
        fd, self.fd = self.fd, -1
        if fd < 0:
            return
        try:
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> AppendOnly:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(sync=exc[0] is None)


__all__ = [
    "NOFOLLOW",
    "AppendOnly",
    "NotPrivate",
    "NotRegularFile",
    "ShortWrite",
    "TooLarge",
    "check_owned",
    "check_private",
    "check_regular",
    "create_exclusive",
    "make_private_dirs",
    "open_regular",
    "private_directory",
    "read_fd",
    "read_regular",
    "replace_file",
    "shown",
    "sync_directory",
    "write_all",
    "write_new",
    "write_temporary",
]
