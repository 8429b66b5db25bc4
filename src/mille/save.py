"""Saved games as JSON (first cut; validation is being hardened)."""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .state import Game, Tableau

FORMAT = "bsd-mille-save"
VERSION = 1


class SaveError(Exception):
    """A save file that cannot be loaded; the message is one line."""


@dataclass
class LoadedGame:
    game: Game
    pending_extension: bool = False


def to_dict(game: Game, pending_extension: bool = False) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "finished": game.finished,
        "order": game.order,
        "end": game.end,
        "on_exit": game.on_exit,
        "handstart": game.hand_start,
        "numgos": game.num_gos,
        "numseen": game.num_seen[:],
        "play": game.play,
        "window": int(game.window),
        "deck": game.deck[:],
        "deck_count": game.deck_count,
        "discard": game.discard,
        "pending_extension": pending_extension,
        "players": [
            {
                "hand": p.hand[:],
                "battle": p.battle,
                "speed": p.speed,
                "can_go": p.can_go,
                "new_battle": p.new_battle,
                "new_speed": p.new_speed,
                "safety": p.safety[:],
                "coups": p.coups[:],
                "nummiles": p.nummiles[:],
                "mileage": p.mileage,
                "hand_tot": p.hand_total,
                "safescore": p.safety_score,
                "coupscore": p.coup_score,
                "total": p.total,
                "games": p.games,
            }
            for p in game.players
        ],
    }


def from_dict(data: Any) -> LoadedGame:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a mille save file")
    try:
        players = [
            Tableau(
                hand=list(p["hand"]),
                battle=p["battle"],
                speed=p["speed"],
                can_go=p["can_go"],
                new_battle=p["new_battle"],
                new_speed=p["new_speed"],
                safety=list(p["safety"]),
                coups=list(p["coups"]),
                nummiles=list(p["nummiles"]),
                mileage=p["mileage"],
                hand_total=p["hand_tot"],
                safety_score=p["safescore"],
                coup_score=p["coupscore"],
                total=p["total"],
                games=p["games"],
            )
            for p in data["players"]
        ]
        game = Game(
            deck=list(data["deck"]),
            deck_count=data["deck_count"],
            discard=data["discard"],
            players=players,
            end=data["end"],
            finished=data["finished"],
            play=data["play"],
            hand_start=data["handstart"],
            order=data["order"],
            window=data["window"],
            on_exit=data["on_exit"],
            num_seen=list(data["numseen"]),
            num_gos=data["numgos"],
        )
    except (KeyError, TypeError) as exc:
        raise SaveError(f"bad save file ({exc})") from None
    return LoadedGame(game, bool(data.get("pending_extension", False)))


def write_game(path: str, game: Game, pending_extension: bool = False) -> None:
    """Write atomically: a temporary file beside the target, fsync, rename."""
    text = json.dumps(to_dict(game, pending_extension), indent=1) + "\n"
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".mille-", dir=directory)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_game(path: str) -> LoadedGame:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise SaveError(exc.strerror or str(exc)) from None
    except ValueError as exc:
        raise SaveError(f"not a mille save file ({exc})") from None
    return from_dict(data)


def mtime_text(path: str) -> str:
    return time.strftime("%a %b %e %H:%M:%S %Y", time.localtime(os.stat(path).st_mtime))


def hangup_path(now: float | None = None) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    directory = Path(base) / "mille"
    directory.mkdir(parents=True, exist_ok=True)
    return directory / time.strftime("hangup-%Y%m%d-%H%M%S.json", time.localtime(now))
