"""The commands the README and docs/ show work as written after the README's own install.

A newcomer who ran the README's install line and then pasted
``python -m mille.match ...`` got "No module named mille": the install made a
virtualenv and did not activate it.  The install and test lines now
activate it, and every ``python -m mille...`` module a page names starts
(its ``--help``), run by the interpreter the tests run under (the one the
install made, in CI).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, SRC

ROOT = Path(REPO)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "docs" / "mille.6"]


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks of a Markdown page."""
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)


def documented_modules() -> list[str]:
    """Every ``python -m mille[.X]`` the pages name (``python3`` and a line break inside included)."""
    found: set[str] = set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8").replace("\\-", "-")
        found.update(re.findall(r"\bpython3? +-m +(mille(?:\.[a-z_]+)*)", re.sub(r"\s+", " ", text)))
    return sorted(found)


def test_the_install_lines_activate_the_virtualenv_they_make() -> None:
    """Each README line that makes .venv and then runs a command makes that command the virtualenv's."""
    blocks = [b for b in shell_blocks((ROOT / "README.md").read_text(encoding="utf-8")) if "-m venv .venv" in b]
    assert len(blocks) >= 2  # install and play; run the tests
    for block in blocks:
        steps = [step.strip() for step in block.strip().split("&&")]
        made = steps.index("python3 -m venv .venv")
        assert steps[made + 1] == ". .venv/bin/activate", block
        for step in steps[made + 2 :]:
            assert step.split()[0] in ("pip", "mille", "python"), step


def test_the_pages_name_the_programs() -> None:
    assert {"mille", "mille.match", "mille.tournament", "mille.replay", "mille.sim", "mille.bot"} <= set(
        documented_modules()
    )


@pytest.mark.parametrize("module", documented_modules())
def test_every_documented_module_starts(module: str) -> None:
    res = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    assert "usage:" in res.stdout.lower(), res.stdout


def _machine_wide_block() -> str:
    """README's install for everyone without pipx: the block that makes a virtualenv under /opt."""
    blocks = [b for b in shell_blocks((ROOT / "README.md").read_text(encoding="utf-8")) if "venv /opt/" in b]
    assert len(blocks) == 1, blocks
    return blocks[0].strip()


@pytest.mark.slow
def test_the_machine_wide_install_gives_every_user_this_mille_and_its_manual(tmp_path: Path) -> None:
    """README's install under /opt, run for real under a scratch root: the command and manual page come first.

    A new user on a shared machine had bsdgames' ``mille`` and manual page
    (``/usr/games``, ``/usr/share/man``) and a system pip that refuses to
    install (PEP 668).  The README's lines are run as written, ``sudo``
    dropped and ``/opt`` and ``/usr/local`` moved under a scratch directory
    (its ``/usr/local/bin`` put first on the ``PATH``, as a login's and an
    ssh session's ``PATH`` have it before ``/usr/games``); then another
    real user (root's tests) runs the linked command, ``man`` finds this
    manual page first, and ``--help`` names the installed guides.
    """
    import shutil
    import tempfile

    # Not under pytest's tmp_path (0700 for root): another user must reach the install.
    base = Path(tempfile.mkdtemp(prefix="mille-install-"))
    try:
        base.chmod(0o755)
        root = base / "root"
        for there in ("opt", "usr/local/bin"):  # what every machine has before the install
            (root / there).mkdir(parents=True)
        block = _machine_wide_block().replace("sudo ", "").replace("/opt/", f"{root}/opt/")
        block = block.replace("/usr/local/", f"{root}/usr/local/")
        assert "/opt/" not in block.replace(f"{root}/opt/", "") and "sudo" not in block
        # sudo's PATH (its secure_path): the system's python3, which every user may run (a python3 under a
        # private home, as a developer's pyenv under /root, would give the others a command they cannot start).
        sudo_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        python = shutil.which("python3", path=sudo_path)
        if python is None or subprocess.run([python, "-c", "import ensurepip, venv"], capture_output=True).returncode:
            pytest.skip("the system's python3 cannot make a virtualenv here (Debian: apt-get install python3-venv)")
        keep = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PATH")}
        done = subprocess.run(
            ["sh", "-c", block],
            cwd=ROOT,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
            env={**keep, "PATH": sudo_path},
        )
        if done.returncode != 0 and "No matching distribution found for hatchling" in done.stderr:
            pytest.skip("pip cannot fetch the build backend (hatchling) here: no index and no wheel of it")
        assert done.returncode == 0, done.stderr[-2000:]
        command = root / "usr/local/bin/mille"
        assert command.is_symlink() and command.exists()
        path = f"{root}/usr/local/bin:/usr/local/bin:/usr/bin:/bin:/usr/games"
        env = {"PATH": path, "HOME": str(base), "LANG": "C.UTF-8"}
        found = subprocess.run(["sh", "-c", "command -v mille"], env=env, capture_output=True, text=True)
        assert found.stdout.strip() == str(command)
        version = subprocess.run(["mille", "--version"], env=env, capture_output=True, text=True, timeout=60)
        assert version.returncode == 0 and "bsd-mille" in version.stdout, version.stderr
        wide = {**env, "COLUMNS": "1000"}  # argparse's lines unbroken (it breaks a path at its hyphens)
        helped = subprocess.run(["mille", "--help"], env=wide, capture_output=True, text=True, timeout=60)
        assert f"docs/*.md: {root}/opt/mille/share/doc/bsd-mille/docs" in helped.stdout
        assert (root / "opt/mille/share/doc/bsd-mille/docs/people.md").is_file()
        if shutil.which("man") is not None:
            manpath = f"{root}/usr/local/share/man:/usr/share/man"
            page = subprocess.run(["man", "-M", manpath, "-w", "mille"], capture_output=True, text=True, timeout=60)
            ours = root / "usr/local/share/man/man6/mille.6"
            assert os.path.realpath(page.stdout.strip()) == os.path.realpath(ours), page.stderr
        if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("runuser") and shutil.which("useradd"):
            from helpers.faults import local_user

            with local_user() as (name, _uid, _gid):
                theirs = subprocess.run(
                    ["runuser", "-u", name, "--", "env", f"PATH={path}", f"HOME={base}", "mille", "--version"],
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                assert theirs.returncode == 0 and "bsd-mille" in theirs.stdout, theirs.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)
