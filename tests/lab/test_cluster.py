"""--cluster: real Dask clusters on loopback, secured; a worker killed in the middle; who is refused.

The shared cluster is a ``LocalCluster`` of two worker processes speaking
TLS with certificates the tests make by docs/tournaments.md's own openssl
block (or with the ``cryptography`` package where there is no openssl), as
a cluster of several machines would: the command line reaches it with
``--tls-ca``, ``--tls-cert`` and ``--tls-key``, and is refused without them
or with another authority's.  ``--cluster local:N`` is checked to refuse
every client but its own, another user's raw socket included.

Skipped, with the reason, where the ``cluster`` extra (Dask distributed) is
not installed; ``.ci/run`` installs it, so CI runs these.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import REPO, SRC
from helpers.faults import as_other_user

distributed = pytest.importorskip(
    "distributed", reason="the cluster extra is not installed: pip install -e '.[cluster]'"
)

from mille.lab import match, tournament  # noqa: E402
from mille.lab.cluster import cluster_executor  # noqa: E402
from mille.lab.options import RunOptions  # noqa: E402
from mille.lab.report import TIMING_FIELDS  # noqa: E402
from mille.lab.standings import without_timing  # noqa: E402
from mille.lab.tournament import run_tournament  # noqa: E402

pytestmark = pytest.mark.cluster

FAST = 1000
PLAYERS = ["bsd", "first", "random"]
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}


DOCS = Path(REPO) / "docs" / "tournaments.md"
ROLES = ("scheduler", "worker", "client")


def make_certificates(directory: Path) -> Path:
    """In ``directory``: ``ca.pem``, and ``ROLE.pem`` and ``ROLE-key.pem`` signed by it for each of :data:`ROLES`.

    With openssl, by running docs/tournaments.md's block as it is written
    there (so that the documented steps are tested); else with the
    ``cryptography`` package; skipped without either.
    """
    directory.mkdir(parents=True, exist_ok=True)
    if shutil.which("openssl"):
        text = DOCS.read_text()
        block = text[text.index("**1. Certificates**") :].split("```sh\n", 1)[1].split("```", 1)[0]
        done = subprocess.run(["sh", "-e", "-c", block], cwd=directory, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return directory
    try:
        import datetime

        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        pytest.skip("neither openssl nor the cryptography package to make the test certificates")

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    def write(stem: str, key: ec.EllipticCurvePrivateKey, cert: x509.Certificate) -> None:
        (directory / f"{stem}.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        (directory / f"{stem}-key.pem").write_bytes(pem)

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("mille cluster CA"))
        .issuer_name(name("mille cluster CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    write("ca", ca_key, ca)
    for role in ROLES:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            x509.CertificateBuilder()
            .subject_name(name(f"mille {role}"))
            .issuer_name(ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .sign(ca_key, hashes.SHA256())
        )
        write(role, key, cert)
    return directory


def tls_options(directory: Path) -> list[str]:
    """The command line's options for the client certificate in ``directory`` (:func:`make_certificates`)."""
    return [
        "--tls-ca",
        str(directory / "ca.pem"),
        "--tls-cert",
        str(directory / "client.pem"),
        "--tls-key",
        str(directory / "client-key.pem"),
    ]


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_certificates(tmp_path_factory.mktemp("certificates"))


@pytest.fixture(scope="module")
def client(certificates: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Two single-threaded worker processes behind a scheduler on 127.0.0.1, all speaking TLS with our certificates.

    Their scratch space is a directory of the test's own, as ``--cluster
    local:N`` makes one (Dask's default, ``$TMPDIR/dask-scratch-space``, is
    shared with every user of the machine and would be left behind).
    """
    import logging

    import dask

    files = {f"tls_{role}_cert": str(certificates / f"{role}.pem") for role in ROLES}
    files.update({f"tls_{role}_key": str(certificates / f"{role}-key.pem") for role in ROLES})
    security = distributed.Security(require_encryption=True, tls_ca_file=str(certificates / "ca.pem"), **files)
    scratch = str(tmp_path_factory.mktemp("dask"))
    with dask.config.set({"temporary-directory": scratch}):
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
            security=security,
            local_directory=scratch,
        )
        client = distributed.Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()


def test_cluster_run_is_the_jobs_1_run(client: Any) -> None:
    assert client.scheduler.address.startswith("tls://127.0.0.1:")
    assert len(client.nthreads()) == 2
    serial = run_tournament(PLAYERS, games=6, resamples=100, options=RunOptions(seed=5, jobs=1, game_points=FAST))
    clustered = run_tournament(
        PLAYERS,
        games=6,
        resamples=100,
        options=RunOptions(seed=5, executor=client.get_executor(pure=False), workers=2, game_points=FAST),
    )
    assert without_timing(clustered) == without_timing(serial)
    # And a match.
    one = match.run_match("bsd", "random", games=8, options=RunOptions(seed=2, jobs=1, game_points=FAST))
    many = match.run_match(
        "bsd",
        "random",
        games=8,
        options=RunOptions(seed=2, executor=client.get_executor(pure=False), workers=2, game_points=FAST),
    )
    assert match_without_timing(one) == match_without_timing(many)


def match_without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING_FIELDS}


def test_a_worker_killed_in_the_middle_loses_nothing(client: Any) -> None:
    """SIGKILL to a worker process that has pairs in hand: they are run again elsewhere, the report is the same."""
    serial = run_tournament(PLAYERS, games=30, resamples=100, options=RunOptions(seed=9, jobs=1))
    killed: list[tuple[str, int, int]] = []

    def progress(p: tournament.TournamentProgress) -> None:
        if killed or p.pairs < 3:
            return
        processing = client.processing()
        pids = client.run(os.getpid)
        busy = [w for w, keys in processing.items() if keys and w in pids]
        if busy:
            worker = busy[0]
            os.kill(pids[worker], signal.SIGKILL)
            killed.append((worker, pids[worker], len(processing[worker])))

    report = run_tournament(
        PLAYERS,
        games=30,
        resamples=100,
        progress=progress,
        options=RunOptions(seed=9, executor=client.get_executor(pure=False), workers=2),
    )
    assert killed, "no worker had work when looked at"
    assert report["pairs"] == report["pairs_total"] == 45
    assert without_timing(report) == without_timing(serial)
    client.wait_for_workers(2, timeout=60)  # the nanny brought it back


BOT = textwrap.dedent(
    """
    class Bot:
        def choose(self, observation, rng):
            return observation.legal_moves()[0]
    """
)


def test_a_bot_the_workers_cannot_import(
    client: Any,
    certificates: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Importable here (the current directory), not on the workers: one clear line; with --upload it runs."""
    (tmp_path / "cluster_only_here.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    address = client.scheduler.address
    here = ["bsd", "cluster_only_here:Bot", "--games", "2", "--bootstrap", "10", "--seed", "1"]
    argv = [*here, "--cluster", address, *tls_options(certificates)]
    assert tournament.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "cannot import 'cluster_only_here'" in err and "--upload" in err and "worker tls://127.0.0.1:" in err
    assert match.main(["bsd", "cluster_only_here:Bot", "--games", "2", *argv[-8:]]) == 1
    assert "cannot import 'cluster_only_here'" in capsys.readouterr().err
    # Sent to the workers, it plays (and the result is the local one).
    assert tournament.main([*argv, "--upload", str(tmp_path / "cluster_only_here.py"), "--json"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert tournament.main([*here, "--jobs", "1", "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert without_timing(remote) == without_timing(local)
    assert remote["pairings"][0]["errors"] == []


def test_cluster_command_lines(
    client: Any, certificates: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def one_line(status: int, *needles: str, lines: int = 1) -> str:
        out, err = capsys.readouterr()
        assert status == 1 and out == "" and err.count("\n") == lines and "Traceback" not in err, err
        assert all(needle in err for needle in needles), err
        return err

    assert tournament.main(["bsd", "first", "--cluster", "local:0"]) == 1
    assert "local:N needs a number of workers N of at least 1" in capsys.readouterr().err
    # Plain tcp:// is refused at once, saying what to do, unless asked for; then it warns.
    started = time.monotonic()
    one_line(match.main(["bsd", "first", "--cluster", "tcp://127.0.0.1:1", "--games", "2"]), "plain text", "tls://")
    one_line(tournament.main(["bsd", "first", "--cluster", "127.0.0.1:1"]), "--insecure")
    # Nobody listening: given up after --connect-timeout (default 5 s, not Dask's 30), in one line.
    argv = ["bsd", "first", "--games", "2", "--cluster", "tcp://127.0.0.1:1", "--insecure", "--connect-timeout", "1"]
    err = one_line(match.main(argv), lines=2)
    assert err.startswith("mille.match: warning: --cluster tcp://127.0.0.1:1 is plain text") and "(--insecure)" in err
    assert "mille.match: no Dask scheduler answered at tcp://127.0.0.1:1 within 1 s" in err
    assert time.monotonic() - started < 15
    # tls:// without this client's certificates: what it needs, in one line.
    tls = ["bsd", "first", "--games", "2", "--cluster", client.scheduler.address]
    one_line(tournament.main(tls), "needs the cluster's CA certificate", "--tls-ca FILE")
    one_line(tournament.main([*tls, *tls_options(certificates)[:4], "--tls-key", "/no/such.pem"]), "/no/such.pem")
    one_line(tournament.main([*tls, *tls_options(certificates)[:4], "--tls-key", str(certificates / "ca.pem")]))
    assert tournament.main([*tls, *tls_options(certificates), "--upload", "/no/such.py"]) == 1
    assert "--upload /no/such.py: no such file" in capsys.readouterr().err
    one_line(tournament.main(["bsd", "first", "--cluster", "ws://127.0.0.1:1"]), "local:N, tls://HOST:PORT")


def test_a_tls_scheduler_takes_the_clients_of_its_authority_only(
    client: Any, certificates: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the options the run is --jobs 1's; a client of another authority, or in plain text, is refused."""
    address = client.scheduler.address
    argv = ["bsd", "first", "--games", "2", "--bootstrap", "10", "--json", "--seed", "1"]
    assert tournament.main([*argv, "--cluster", address, *tls_options(certificates)]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert tournament.main([*argv, "--jobs", "1"]) == 0
    assert without_timing(remote) == without_timing(json.loads(capsys.readouterr().out))
    # The scheduler refuses a certificate of another authority (this client trusting the cluster's).
    other = make_certificates(tmp_path / "other")
    stranger = ["--tls-ca", str(certificates / "ca.pem"), "--tls-cert", str(other / "client.pem")]
    status = tournament.main([*argv, "--cluster", address, *stranger, "--tls-key", str(other / "client-key.pem")])
    out, err = capsys.readouterr()
    assert status == 1 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"mille.tournament: cannot connect to the Dask scheduler at {address}")
    # And plain text to its port.
    plain = "tcp://" + address.split("://", 1)[1]
    status = tournament.main([*argv, "--cluster", plain, "--insecure"])
    out, err = capsys.readouterr()
    assert status == 1 and out == "" and err.count("\n") == 2, err
    assert f"cannot connect to the Dask scheduler at {plain}" in err.splitlines()[1]


def dask_message(message: dict[str, Any]) -> bytes:
    """``message`` as Dask's tcp comm puts it on the wire: the length, the frames' lengths, the frames."""
    from distributed.protocol import dumps

    frames = [bytes(frame) for frame in dumps(message)]
    prelude = struct.pack(f"Q{len(frames)}Q", len(frames), *(len(frame) for frame in frames))
    return struct.pack("Q", len(prelude) + sum(len(frame) for frame in frames)) + prelude + b"".join(frames)


def test_local_cluster_refuses_everyone_but_its_own_client() -> None:
    """local:N is secured: the report of --jobs 1; a client without its credentials, and another user, are refused."""
    serial = run_tournament(PLAYERS, games=6, resamples=100, options=RunOptions(seed=5, jobs=1, game_points=FAST))
    with cluster_executor("local:2", players=PLAYERS) as (pool, workers):
        report = run_tournament(
            PLAYERS,
            games=6,
            resamples=100,
            options=RunOptions(seed=5, executor=pool, workers=workers, game_points=FAST),
        )
        assert without_timing(report) == without_timing(serial)
        own = pool._client  # type: ignore[attr-defined]  # the executor's client: where the scheduler is
        address = own.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        host, port = address.split("://", 1)[1].rsplit(":", 1)
        # A client of this user without the run's credentials: in plain text, or with TLS of its own.
        with pytest.raises(OSError):
            distributed.Client(f"tcp://{host}:{port}", timeout=10)
        with pytest.raises(OSError):
            distributed.Client(address, security=distributed.Security.temporary(), timeout=10)
        # Another user of the machine, speaking Dask's protocol to the scheduler's port: a handshake, then a
        # request for the scheduler's identity.  An open scheduler answers both; this one answers nothing.
        hello = {"compression": None, "python": tuple(sys.version_info[:3]), "pickle-protocol": 5}
        knock = dask_message(hello) + dask_message({"op": "identity", "reply": True})

        def knocks() -> bytes:
            heard = b""
            with socket.create_connection((host, int(port)), timeout=5) as sock:
                try:
                    sock.sendall(knock)
                    while len(heard) < 100_000 and (chunk := sock.recv(65536)):
                        heard += chunk
                except OSError:  # reset, or nothing within the timeout
                    pass
            return heard

        assert as_other_user(knocks) == repr(b"")
        # No web pages either (an open LocalCluster shows its workers' logs there).
        pages = own.scheduler_info()["services"].get("dashboard")
        if pages is not None:
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"http://{host}:{pages}/info/main/workers.html", timeout=10)
            assert refused.value.code == 404


def test_local_cluster_from_the_command_line(tmp_path: Path) -> None:
    """--cluster local:2 starts and stops its own cluster; the report is --jobs 1's."""
    args = ["bsd", "first", "--games", "6", "--seed", "4", "--bootstrap", "50", "--json"]
    reports = []
    for where in (["--jobs", "1"], ["--cluster", "local:2"]):
        done = subprocess.run(
            [sys.executable, "-m", "mille.tournament", *args, *where],
            capture_output=True,
            text=True,
            env=ENV,
            cwd=tmp_path,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    assert without_timing(reports[0]) == without_timing(reports[1])
    # A match at the table of four there too (refused as "two seats only" before).
    table = ["--players", "4", "bsd", "random", "--hands", "12", "--seed", "4", "--json", "--cluster", "local:1"]
    done = subprocess.run(
        [sys.executable, "-m", "mille.match", *table],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] >= 12


KILLER = textwrap.dedent(
    """
    import os
    import signal


    class Killer:
        '''Plays the first legal move here; on a Dask worker it kills the worker process.'''

        def choose(self, observation, rng):
            try:
                from distributed import get_worker

                get_worker()
            except (ImportError, ValueError):
                return observation.legal_moves()[0]
            os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_a_pair_that_keeps_killing_workers_ends_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask gives up on a task whose workers die (here at once: allowed-failures 0): a message, the file kept."""
    import logging

    import dask

    bot = tmp_path / "worker_killer.py"
    bot.write_text(KILLER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    scratch = str(tmp_path / "dask")
    with dask.config.set({"distributed.scheduler.allowed-failures": 0, "temporary-directory": scratch}):
        cluster = distributed.LocalCluster(  # plain tcp://, run with --insecure
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
            local_directory=scratch,
        )
    try:
        out = tmp_path / "t.jsonl"
        address = cluster.scheduler_address
        argv = ["bsd", "worker_killer:Killer", "--games", "4", "--cluster", address, "--insecure"]
        status = tournament.main([*argv, "--upload", str(bot), "--out", str(out)])
    finally:
        cluster.close()
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    warning, err = captured.err.splitlines()
    assert warning.startswith(f"mille.tournament: warning: --cluster {address} is plain text, with no authentication")
    assert "Traceback" not in err
    assert "the cluster failed (KilledWorker" in err and f"--resume {out} goes on" in err
    assert out.read_text().count("\n") == 1  # the header: the file is there to resume


def test_a_record_on_the_cluster_is_the_jobs_1_record(client: Any, tmp_path: Path) -> None:
    """--record: the workers send every move back with the pairs; the match's record is the same bytes."""
    from mille.lab.gamelog import read_record
    from mille.lab.replay import check_game

    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    match.run_match("bsd", "random", games=8, options=RunOptions(seed=2, jobs=1, game_points=FAST, record=one))
    executor = client.get_executor(pure=False)
    match.run_match(
        "bsd",
        "random",
        games=8,
        options=RunOptions(seed=2, executor=executor, workers=2, game_points=FAST, record=many),
    )
    assert one.read_bytes() == many.read_bytes()
    path = tmp_path / "t.jsonl"
    run_tournament(
        PLAYERS,
        games=4,
        resamples=0,
        options=RunOptions(seed=5, executor=executor, workers=2, game_points=FAST, record=path),
    )
    _, games, _ = read_record(path)
    replayed = 0
    for game in games:
        check_game(game)
        replayed += 1
    assert replayed == 12


#: The attack on Dask's shared scratch space: a module named as one the standard library has, that says it ran.
TROJAN = "import os\nopen(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'imported'), 'a').write('x')\n"

#: A local:2 run that checks what is on each sys.path (:func:`_writable_by_others`, put before it): this
#: process's (the client's and the scheduler's), the nannies' and the workers', and this process's again
#: once the cluster is gone; and its report.
SCRATCH_RUN = textwrap.dedent(
    """
    import json, sys
    from mille.lab.cluster import cluster_executor
    from mille.lab.match import run_match
    from mille.lab.options import RunOptions

    def path():
        import sys
        return list(sys.path)

    def unsafe(paths):  # checked while the directories are there (_writable_by_others, above)
        return {f"{who}: {entry}": why for who, entries in paths.items() for entry in entries
                if (why := _writable_by_others(entry)) is not None}

    with cluster_executor("local:2", players=["bsd", "first"]) as (pool, workers):
        from distributed import default_client
        client = default_client()
        nannies = client.run(path, nanny=True)
        paths = {"here": path(), **client.run(path), **{"nanny " + k: v for k, v in nannies.items()}}
        found = unsafe(paths)
        report = run_match("bsd", "first", games=2, options=RunOptions(executor=pool, workers=workers))
    found.update(unsafe({"here afterwards": path()}))
    print(json.dumps({"who": len(paths) + 1, "unsafe": found, "games": report["games"], "errors": report["errors"]}))
    """
)


def _writable_by_others(path: str) -> str | None:
    """Why another user could put a module at ``path`` (a sys.path entry), or None: it and every directory above it.

    A directory is safe from others if it is root's or this user's and
    nobody else may write in it, or if it is sticky (as /tmp) and the name
    in it below is root's or this user's.
    """
    me = os.geteuid()
    here = os.path.abspath(path or ".")
    entry = True  # others may not make names in the entry itself, sticky or not
    while True:
        try:
            st = os.stat(here)
        except FileNotFoundError:  # a name that does not exist could be made by whoever may write above it
            here = os.path.dirname(here)
            entry = True
            continue
        if st.st_uid not in (0, me):
            return f"{here} is user {st.st_uid}'s"
        if st.st_mode & 0o022 and (entry or not st.st_mode & 0o1000):
            return f"{here} is writable by others ({oct(st.st_mode & 0o7777)})"
        entry = False
        if here == os.path.dirname(here):
            return None
        here = os.path.dirname(here)


def test_local_cluster_scratch_space_is_private(tmp_path: Path) -> None:
    """Another user's $TMPDIR/dask-scratch-space, world-writable with a typing.py in it: a local:2 run never imports it.

    The run succeeds, nothing on the sys.path of this process, the nannies
    or the workers can be written by another user, and the run's own
    scratch directory is gone afterwards.
    """
    from helpers.faults import as_user, local_user, shared_directory

    with local_user() as (_, uid, gid), shared_directory() as shared:
        planted = shared / "dask-scratch-space"

        def plant() -> None:
            planted.mkdir()
            planted.chmod(0o777)
            (planted / "typing.py").write_text(TROJAN)
            (planted / "typing.py").chmod(0o666)

        as_user(uid, gid, plant)
        script = "import os\n" + inspect.getsource(_writable_by_others) + SCRATCH_RUN
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env={**ENV, "TMPDIR": str(shared)},
            cwd=tmp_path,
            timeout=300,
        )
        assert not (planted / "imported").exists(), "the other user's typing.py was imported"
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["games"] == 2 and result["errors"] == []
        assert result["who"] == 1 + 2 + 2 + 1  # here, two workers, two nannies, here afterwards
        assert result["unsafe"] == {}
        assert sorted(p.name for p in shared.iterdir()) == ["dask-scratch-space"]  # the run's own directory is gone


def test_the_larger_tables_on_the_cluster_are_the_jobs_1_runs(client: Any, tmp_path: Path) -> None:
    """``--players 3|4|6`` on the cluster: a table match (by games and by hands) and a resumable table tournament."""
    from mille.lab.match import run_match
    from mille.lab.tournament import run_tournament

    def where(seed: int, cluster: bool) -> RunOptions:
        if cluster:
            return RunOptions(seed=seed, executor=client.get_executor(pure=False), workers=2, game_points=FAST)
        return RunOptions(seed=seed, jobs=1, game_points=FAST)

    for kind in ({"games": 9}, {"hands": 20}):
        serial = run_match("bsd", "random", "first", seats=3, options=where(3, False), **kind)  # type: ignore[arg-type]
        clustered = run_match("bsd", "random", "first", seats=3, options=where(3, True), **kind)  # type: ignore[arg-type]
        assert {**clustered, "seconds": 0} == {**serial, "seconds": 0}
    path = tmp_path / "t.jsonl"
    players = ["bsd", "random", "first"]
    serial_t = run_tournament(players, seats=4, games=6, resamples=50, options=where(5, False))
    remote = run_tournament(players, seats=4, games=6, resamples=50, options=where(5, True), out=path)
    strip = ("seconds", "resumed_sets")
    assert {k: v for k, v in remote.items() if k not in strip} | {"tables": 0} == {
        k: v for k, v in serial_t.items() if k not in strip
    } | {"tables": 0}
    assert [t["per_player"] for t in remote["tables"]] == [t["per_player"] for t in serial_t["tables"]]
    assert path.read_bytes().count(b"\n") == 1 + 3 * 3  # three tables of three sets
