"""Settings (``$XDG_CONFIG_HOME/mille/config.toml``): values, bad values, precedence, and the real program.

* the reader: each setting, and every kind of mistake a one-line message
  naming the file and the line;
* precedence (``cli.choose_options``): the command line, then a restored
  game's computer, then the file, then the defaults; NO_COLOR;
* the program: a bad file stops it before the game starts; the settings
  turn hints, colour, the record and the computer on and off as the flags
  do; a file spelling out every default sends exactly the bytes of no file.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import SRC
from helpers import ui as H
from helpers.faults import as_other_user, other_user, posix_only, shared_directory
from helpers.players import run_mille
from mille import cli
from mille.files import save
from mille.files.settings import Settings, SettingsError, cache_path, config_path, load, load_cached, parse


def test_every_setting() -> None:
    text = 'computer = "expert"\nhints = true\n# a comment\ncolor = false\nstats = false\n'
    assert parse(text, "f") == Settings(computer="expert", hints=True, color=False, stats=False)
    assert parse("", "f") == Settings()
    assert parse('"hints" = true', "f") == Settings(hints=True)
    assert parse('plain = true\ndetail = "full"\n', "f") == Settings(plain=True, detail="full")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('hints = "yes"\n', 'cfg: line 1: hints must be true or false, not "yes"'),
        ("\n\ncolor = 1\n", "cfg: line 3: color must be true or false, not 1"),
        ('stats = true\ncomputer = "deep"\n', 'cfg: line 2: computer must be "bsd" or "expert", not "deep"'),
        ("computer = true\n", 'cfg: line 1: computer must be "bsd" or "expert", not true'),
        ("hints = true\ncolour = true\n", "cfg: line 2: unknown setting 'colour' (did you mean 'color'?)"),
        (
            "speed = 3\n",
            "cfg: line 1: unknown setting 'speed' (known: computer, hints, color, stats, plain, detail, watchers)",
        ),
        ('detail = "loud"\n', 'cfg: line 1: detail must be "brief" or "full", not "loud"'),
        ("plain = 1\n", "cfg: line 1: plain must be true or false, not 1"),
        ("detail = \n", 'cfg: line 1: Invalid value in "detail ="; expected detail = "brief" or "full"'),
        ("# settings\n[game]\nhints = true\n", "cfg: line 2: unknown setting 'game'"),
        ("hints = [true]\n", "cfg: line 1: hints must be true or false, not a list"),
        ("hints = true\nhints = false\n", "cfg: line 2: Cannot overwrite a value"),
        ("hints = \n", "cfg: line 1: Invalid value"),
        ("hints = true\nstats = tru\n", "cfg: line 2: Invalid value"),
        ('computer = "bsd', "cfg: line 1: "),
    ],
)
def test_bad_settings_name_the_file_and_the_line(text: str, message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse(text, "cfg")
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_unreadable_or_not_text(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_bytes(b"hints = true\n# caf\xe9\n")
    with pytest.raises(SettingsError, match=r"config.toml: line 2: not UTF-8 text$"):
        load(str(bad))
    with pytest.raises(SettingsError, match="Is a directory"):
        load(str(tmp_path))


def test_config_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_path() == str(tmp_path / "mille" / "config.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")  # ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config_path() == str(tmp_path / "home" / ".config" / "mille" / "config.toml")


def test_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    choose = cli.choose_options
    nothing = Settings()
    everything = Settings(computer="expert", hints=True, color=True, stats=False)
    # The defaults: the original's computer, no hints, no colour, a record.
    assert choose(None, {}, None, None) == ("bsd", False, False, True)
    assert choose(None, {}, None, nothing) == ("bsd", False, False, True)
    # The settings make them the defaults ...
    assert choose(None, {}, None, everything) == ("expert", True, True, False)
    # ... the command line wins ...
    off = {"hints": False, "color": False}
    assert choose("bsd", off, None, everything) == ("bsd", False, False, False)
    assert choose(None, {"hints": True, "color": True, "stats": False}, None, nothing) == ("bsd", True, True, False)
    # ... and a restored game keeps its computer over the settings, not over --computer.
    assert choose(None, {}, "bsd", everything)[0] == "bsd"
    assert choose("expert", {}, "bsd", nothing)[0] == "expert"
    assert choose(None, {}, "expert", None)[0] == "expert"
    # NO_COLOR turns off the settings' colour, not --color.
    monkeypatch.setenv("NO_COLOR", "1")
    assert choose(None, {}, None, everything)[2] is False
    assert choose(None, {"color": True}, None, everything)[2] is True


def test_switches_are_taken_out_and_the_last_wins() -> None:
    switches, rest = cli._take_switches(["--hints", "g.json", "--no-hints", "--color", "--seed", "3", "--no-stats"])
    assert switches == {"hints": False, "color": True, "stats": False}
    assert rest == ["g.json", "--seed", "3"]
    assert cli._take_switches(["--", "--hints"]) == ({}, ["--", "--hints"])


# ---------------------------------------------------------------------------
# The cache: a good file read once is not parsed again while it is unchanged


def test_an_unchanged_file_is_not_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = write_config(tmp_path / "config", 'computer = "expert"\nhints = true\n')
    first = load_cached(str(path))
    assert first == Settings(computer="expert", hints=True)
    assert Path(cache_path()).exists()
    probe = (
        "import sys; from mille.files.settings import load_cached; "
        f"print(load_cached({str(path)!r}), 'tomllib' in sys.modules, 'tomli' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": SRC, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    shown = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert shown.stdout == f"{first!r} False False\n", shown.stderr
    # Changed to the same length, with the same modification time: read again (the change time says so).
    before = path.stat()
    changed = 'computer = "bsd"  \nhints = false\n'
    assert len(changed) == before.st_size
    path.write_text(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    assert load_cached(str(path)) == Settings(computer="bsd", hints=False)


def test_a_cache_that_does_not_read_back_is_not_believed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = write_config(tmp_path / "config", "color = true\n")
    assert load_cached(str(path)) == Settings(color=True)
    cache = Path(cache_path())
    good = cache.read_text()
    for damaged in ("", "garbage", good.replace("color=1", "color=2"), good.replace("color=1", "colour=1"), good + "x"):
        cache.write_text(damaged)
        assert load_cached(str(path)) == Settings(color=True)
        assert cache.read_text() == good  # written back whole
    cache.write_bytes(b"\xff\xfe")
    assert load_cached(str(path)) == Settings(color=True)


def test_a_bad_file_is_never_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = write_config(tmp_path / "config", "hints = 3\n")
    for _ in range(2):
        with pytest.raises(SettingsError, match="line 1: hints must be true or false"):
            load_cached(str(path))
    assert not Path(cache_path()).exists()


# ---------------------------------------------------------------------------
# The program


def write_config(home: Path, text: str) -> Path:
    path = home / "mille" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_config_path_option(tmp_path: Path) -> None:
    shown = run_mille("--config-path", config=tmp_path)
    assert shown.returncode == 0 and shown.stdout == f"{tmp_path}/mille/config.toml\n"


def test_a_bad_setting_stops_the_program_with_one_line(tmp_path: Path) -> None:
    path = write_config(tmp_path, 'computer = "expert"\nhints = maybe\n')
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1 and shown.stdout == ""
    assert shown.stderr == f'mille: {path}: line 2: Invalid value in "hints = maybe"; expected hints = true or false\n'


@pytest.mark.parametrize(
    "way",
    [
        ("--seed", "3"),
        ("--plain", "--seed", "3"),
        ("--join", "alice"),
        ("--plain", "--join", "alice"),
        ("--invite", "bob"),
    ],
    ids=["board", "lines", "join", "join in lines", "invite"],
)
def test_every_way_in_says_a_bad_setting_in_one_line(tmp_path: Path, way: tuple[str, ...]) -> None:
    """Issue 44: ``mille --join`` with a bad settings file ended in a SettingsError traceback; every way in says it."""
    path = write_config(tmp_path, "hints = maybe\n")
    shown = run_mille(*way, config=tmp_path)
    assert shown.returncode == 1 and shown.stdout == "" and "Traceback" not in shown.stderr
    assert shown.stderr == f'mille: {path}: line 1: Invalid value in "hints = maybe"; expected hints = true or false\n'


@pytest.mark.parametrize("extra", [("--players", "4"), ("--seed", "3"), ("--computer", "expert"), ("--hints",)])
def test_join_refuses_what_a_guest_cannot_use_and_takes_no_stats(tmp_path: Path, extra: tuple[str, ...]) -> None:
    """A guest sits at the host's game: its table, seed, computer and hints are the host's; ``--no-stats`` is theirs."""
    shown = run_mille("--join", "alice", *extra, config=tmp_path)
    assert shown.returncode == 1
    assert (
        shown.stderr.splitlines()[-1] == "mille: --join takes no other arguments but --plain, --detail and --no-stats"
    )
    taken = run_mille("--join", "alice", "--no-stats", config=tmp_path)
    assert "takes no other arguments" not in taken.stderr


pty_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux ptys")


def spawn(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> H.Pty:
    return H.Pty(
        H.mille_argv("--seed", "5", *args),
        env={"XDG_CONFIG_HOME": str(tmp_path / "config"), **(env or {})},
        term="xterm-256color",
    )


def message(p: H.Pty) -> str:
    return p.lines()[15][45:].rstrip()


def quit_game(p: H.Pty) -> bytes:
    p.send("q")
    assert p.wait_for(lambda s: s.lines()[10][20:27] == "Really?", timeout=10)
    p.send("y")
    assert p.wait_exit(15) == 0
    return bytes(p.raw)


@pty_only
def test_a_bad_setting_on_a_terminal_never_shows_the_board(tmp_path: Path) -> None:
    path = write_config(tmp_path / "config", "hints = 2\n")
    with spawn(tmp_path) as p:
        assert p.wait_exit(15) == 1
        text = "".join(p.lines())
        assert f"mille: {path}: line 1: hints must be true or false, not 2" in text
        assert "--HAND--" not in text


@pty_only
@pytest.mark.parametrize(("setting", "args", "hinted"), [("true", [], True), ("true", ["--no-hints"], False)])
def test_hints_from_the_settings_and_the_flag_that_wins(
    tmp_path: Path, setting: str, args: list[str], hinted: bool
) -> None:
    write_config(tmp_path / "config", f"hints = {setting}\n")
    with spawn(tmp_path, *args) as p:
        assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15)
        p.send("h")
        if hinted:
            assert p.wait_for(lambda s: message(s) == "hint: pick", timeout=15), p.text()
        else:
            p.send("o")  # the unknown command's message shows at the next refresh, as in the original
            assert p.wait_for(lambda s: message(s) == "unknown command: H", timeout=15), p.text()
        quit_game(p)


@pty_only
@pytest.mark.parametrize("how", ["setting", "flag"])
def test_no_record_from_the_settings_or_the_flag(tmp_path: Path, how: str) -> None:
    write_config(tmp_path / "config", "stats = false\n" if how == "setting" else "")
    with spawn(tmp_path, *(["--no-stats"] if how == "flag" else [])) as p:
        assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15)
        p.send("p")  # a move: quitting now would abandon a game
        assert p.wait_for(lambda s: s.lines()[6][2:4] != "  ", timeout=15)
        quit_game(p)
        state = Path(p.env["XDG_STATE_HOME"])
        assert not (state / "mille" / "stats.jsonl").exists()
    # ... and with nothing said, the abandoned game is recorded.
    write_config(tmp_path / "config", "")
    with spawn(tmp_path) as p:
        assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15)
        p.send("p")
        assert p.wait_for(lambda s: s.lines()[6][2:4] != "  ", timeout=15)
        quit_game(p)
        lines = (Path(p.env["XDG_STATE_HOME"]) / "mille" / "stats.jsonl").read_text().splitlines()
        assert json.loads(lines[-1])["result"] == "abandoned"


@pty_only
def test_the_computer_from_the_settings_is_saved_with_the_game(tmp_path: Path) -> None:
    write_config(tmp_path / "config", 'computer = "expert"\n')
    for args, want in (([], "expert"), (["--computer", "bsd"], "bsd")):
        with spawn(tmp_path, *args) as p:
            assert p.wait_for(lambda s: s.at_move_prompt(), timeout=15)
            name = f"g-{want}.json"
            p.send(f"s{name}\r")
            assert p.wait_for(lambda s, n=name: message(s).startswith(n), timeout=15), p.text()  # type: ignore[misc]
            assert save.read_game(os.path.join(p.cwd, name)).computer == want
            quit_game(p)


def plain_run(tmp_path: Path, config: str | None, *args: str, env: dict[str, str] | None = None) -> bytes:
    """The bytes of: first board, p, u1, q, y."""
    if config is not None:
        write_config(tmp_path / "config", config)
    else:
        cfg = tmp_path / "config" / "mille" / "config.toml"
        if cfg.exists():
            cfg.unlink()
    want = H.vt_replay(5, ["p", "u1 "])[0]
    with spawn(tmp_path, *args, env=env) as p:
        for i, keys in enumerate(["", "p", "u1 "]):
            if keys:
                p.send(keys)
            assert p.wait_for(lambda s, w=want[i]: s.snap()["screen"] == w["screen"], timeout=15), p.text()  # type: ignore[misc]
        return quit_game(p)


def colours(raw: bytes) -> bool:
    return b"\x1b[31m" in raw or b"\x1b[32m" in raw


@pty_only
def test_defaults_spelled_out_or_overridden_send_the_original_bytes(tmp_path: Path) -> None:
    original = plain_run(tmp_path, None)
    assert not colours(original)
    every_default = 'computer = "bsd"\nhints = false\ncolor = false\nstats = true\n'
    assert plain_run(tmp_path, every_default) == original
    assert plain_run(tmp_path, "color = true\nhints = true\n", "--no-color", "--no-hints") == original
    assert plain_run(tmp_path, "color = true\n", env={"NO_COLOR": "1"}) == original
    coloured = plain_run(tmp_path, "color = true\n")
    assert colours(coloured)
    assert colours(plain_run(tmp_path, "", "--color", env={"NO_COLOR": "1"}))


# ---------------------------------------------------------------------------
# Files from outside: too large, not a file, a loop, another user, escape sequences


def test_a_setting_past_the_size_limit_is_never_dropped_silently(tmp_path: Path) -> None:
    """2 MiB of comments, then stats = false: the whole file is refused in one line (it was cut at 1 MiB)."""
    text = ("# " + "x" * 97 + "\n") * (2 * 1024 * 1024 // 100) + "stats = false\n"
    path = write_config(tmp_path, text)
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1 and shown.stdout == ""
    size = len(text)
    assert shown.stderr == (
        f"mille: {path}: too large for a settings file ({size} bytes or more; the limit is 1048576), not read\n"
    )


@posix_only
def test_a_config_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "config.toml"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    shown = run_mille("--seed", "3", config=tmp_path)  # the timeout only against a hang
    assert shown.returncode == 1 and shown.stderr == f"mille: {path}: not a regular file (a FIFO)\n"


@posix_only
def test_a_looping_config_path_is_said_not_skipped(tmp_path: Path) -> None:
    path = tmp_path / "mille" / "config.toml"
    path.parent.mkdir(parents=True)
    os.symlink("config.toml", path)  # a link to itself
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1 and shown.stderr == f"mille: {path}: Too many levels of symbolic links\n"
    path.unlink()
    os.symlink("elsewhere.toml", path)  # a dangling link: the settings the player meant are missing
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.stderr == f"mille: {path}: a symbolic link to a file that does not exist\n"


@posix_only
def test_a_config_directory_that_may_not_be_searched_is_said(tmp_path: Path) -> None:
    """As nobody, with its own settings directory closed to itself (mode 0): one line, not silence."""
    with shared_directory() as shared:
        directory = shared / "mille"
        path = directory / "config.toml"

        def start() -> str:
            directory.mkdir(mode=0o700)
            path.write_text("stats = false\n")
            os.chmod(directory, 0)
            try:
                cli._settings()
            except SettingsError as exc:
                return str(exc)
            return "no error"

        os.environ["XDG_CONFIG_HOME"] = str(shared)
        try:
            said = as_other_user(start)
        finally:
            del os.environ["XDG_CONFIG_HOME"]
        assert said == f"{path}: Permission denied"


@posix_only
def test_settings_in_a_directory_of_another_user_are_not_read(tmp_path: Path) -> None:
    with shared_directory() as shared:
        directory = shared / "mille"

        def plant() -> None:
            directory.mkdir(mode=0o755)
            (directory / "config.toml").write_text("stats = false\n")

        as_other_user(plant)
        shown = run_mille("--seed", "3", config=shared)
        uid = other_user()[0]
        assert shown.returncode == 1
        assert shown.stderr == (
            f"mille: {directory}: belongs to another user (uid {uid}), not used (the settings in it are not read)\n"
        )


@posix_only
def test_settings_open_to_others_are_not_read(tmp_path: Path) -> None:
    path = write_config(tmp_path, "hints = true\n")
    os.chmod(path, 0o666)
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1
    assert shown.stderr == f"mille: {path}: writable by others (mode 0666), not used: chmod go-w it\n"
    os.chmod(path, 0o644)
    os.chmod(path.parent, 0o777)
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.stderr == (
        f"mille: {path.parent}: writable by others (mode 0777), not used: chmod go-w it "
        "(the settings in it are not read)\n"
    )


@posix_only
def test_another_users_planted_cache_file_is_never_written_through(tmp_path: Path, monkeypatch) -> None:
    """A shared cache directory (like /tmp): the other user makes mille's cache directory and plants links there.

    The temporary file used to be ``settings.PID.tmp``, opened following
    links: the victim's own file was overwritten.  Now the directory is
    not the player's and is not used at all (and the temporary name could
    not be guessed, nor a link there followed, anyway).
    """
    victim = tmp_path / "precious.txt"
    victim.write_text("the player's own file\n")
    os.chmod(tmp_path, 0o755)  # the other user can reach the file to aim a link at it
    with shared_directory() as shared:
        cache = shared / "mille"
        me = os.getpid()

        def plant() -> None:
            cache.mkdir(mode=0o777)
            os.chmod(cache, 0o777)
            for name in (f"settings.{me}.tmp", "settings"):
                os.symlink(victim, cache / name)

        as_other_user(plant)
        monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
        config = write_config(tmp_path / "config", "hints = true\n")
        assert load_cached(str(config)) == Settings(hints=True)
        assert victim.read_text() == "the player's own file\n"
        assert sorted(os.listdir(cache)) == ["settings", f"settings.{me}.tmp"]


@posix_only
def test_the_cache_is_written_whole_under_a_name_nobody_can_guess(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    config = write_config(tmp_path / "config", "hints = true\n")
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path, flags, *args):  # type: ignore[no-untyped-def]
        opened.append((str(path), flags))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", spy)
    load_cached(str(config))
    monkeypatch.undo()
    [(tmp, flags)] = [(p, f) for p, f in opened if p.endswith(".tmp")]
    assert os.path.basename(tmp).startswith(".settings.") and len(os.path.basename(tmp)) == len(".settings..tmp") + 16
    assert flags & os.O_EXCL and flags & os.O_NOFOLLOW and flags & os.O_CREAT
    assert stat.S_IMODE(os.stat(cache_path()).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(cache_path())).st_mode) == 0o700


def test_an_escape_sequence_in_a_setting_never_reaches_the_terminal(tmp_path: Path) -> None:
    write_config(tmp_path, 'computer = "\\u001b]0;owned\\u0007"\n')
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1
    assert "\x1b" not in shown.stderr and "\x07" not in shown.stderr
    assert shown.stderr.endswith('computer must be "bsd" or "expert", not "\\u001b]0;owned\\u0007"\n')
    write_config(tmp_path, '"\\u001b[2J" = true\n')
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1 and "\x1b" not in shown.stderr and "unknown setting '\\x1b[2J'" in shown.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hints = maybe\n", 'line 1: Invalid value in "hints = maybe"; expected hints = true or false'),
        ('computer = "bsd\n', 'in "computer = \\"bsd"; expected computer = "bsd" or "expert" (in double quotes)'),
        (
            "hints\n",
            "line 1: Expected '=' after a key in a key/value pair in \"hints\"; expected hints = true or false",
        ),
        ("just words here\n", 'in "just words here"; expected a setting on each line, as NAME = VALUE'),
        ("hints = true\nhints = false\n", 'line 2: Cannot overwrite a value in "hints = false"; expected each setting'),
    ],
)
def test_a_syntax_error_quotes_the_line_and_says_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse(text, "cfg")
    assert message in str(caught.value), str(caught.value)


def test_deeply_nested_settings_are_one_line_not_a_traceback(tmp_path: Path) -> None:
    """tomllib recurses into nested arrays: a RecursionError at every start, before; now one line, as any bad file."""
    path = write_config(tmp_path, "hints = " + "[" * 100_000 + "]" * 100_000 + "\n")
    shown = run_mille("--seed", "3", config=tmp_path)
    assert shown.returncode == 1 and shown.stdout == "" and "Traceback" not in shown.stderr
    assert shown.stderr == (
        f"mille: {path}: nested too deeply (arrays or tables inside each other); not a settings file\n"
    )


def test_a_config_home_under_a_regular_file_is_no_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOTDIR (a HOME or XDG_CONFIG_HOME under a regular file) is a missing file, as git takes it: the game starts."""
    home = tmp_path / "home"
    home.write_text("a file, not a directory\n")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    assert config_path() == f"{home}/.config/mille/config.toml"
    assert cli._settings() == Settings()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    assert load_cached(config_path()) == Settings()
    shown = run_mille("--plain", config=home, state=tmp_path / "state")  # no input: the game starts and is left at once
    assert "Not a directory" not in shown.stderr and "Traceback" not in shown.stderr
    assert "Your hand:" in shown.stdout
