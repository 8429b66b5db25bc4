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
import subprocess
import sys
from pathlib import Path

import pytest

import ui_helpers as H
from mille import cli
from mille.files import save
from mille.files.settings import Settings, SettingsError, cache_path, config_path, load, load_cached, parse
from player_helpers import run_mille

SRC = str(Path(__file__).resolve().parent.parent / "src")


def test_every_setting() -> None:
    text = 'computer = "expert"\nhints = true\n# a comment\ncolor = false\nstats = false\n'
    assert parse(text, "f") == Settings(computer="expert", hints=True, color=False, stats=False)
    assert parse("", "f") == Settings()
    assert parse('"hints" = true', "f") == Settings(hints=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('hints = "yes"\n', 'cfg: line 1: hints must be true or false, not "yes"'),
        ("\n\ncolor = 1\n", "cfg: line 3: color must be true or false, not 1"),
        ('stats = true\ncomputer = "deep"\n', 'cfg: line 2: computer must be "bsd" or "expert", not "deep"'),
        ("computer = true\n", 'cfg: line 1: computer must be "bsd" or "expert", not true'),
        ("hints = true\ncolour = true\n", "cfg: line 2: unknown setting 'colour' (did you mean 'color'?)"),
        ("speed = 3\n", "cfg: line 1: unknown setting 'speed' (known: computer, hints, color, stats)"),
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
    # Changed (even to the same length): read again.
    os.utime(path, ns=(1, 1))
    path.write_text('computer = "bsd"\nhints = false\n\n')
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
