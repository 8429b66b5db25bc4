"""Find a game: ``mille --list`` (and ``mille --list @host``, over ssh), the games you may join or watch.

Every host's table on this machine that passes the checks a guest makes
(:func:`mille.ui.people.rendezvous.tables`: a directory and a socket of
the host's, nobody else may write there, and the process answering is
the host's user, named by the kernel) is asked for its listing with a
knock (``list``), within :data:`ASK_WAIT` seconds each; a host answers only
someone who may join or watch there, so a game that is nothing to you
does not appear.  The listing is said in lines a screen reader reads well
(a game a paragraph: who hosts, the table, who sits where, the hand and
the scores, how long it has run, who watches, and the exact command that
joins or watches it), every string from a host escaped; ``--json`` gives
the same for scripts.  ``--list @host`` runs ``mille --list --json`` on
the far side through ssh and reads its answer as it reads a host's: every
field checked, every string escaped.
"""

from __future__ import annotations

import json
import os
import sys

from ...files.safeio import shown
from . import messages
from .link import Link, LinkClosed
from .messages import Listing, MessageError
from .rendezvous import RendezvousError, connect_uid, tables
from .view import name as shown_name

__all__ = ["ASK_WAIT", "ask", "describe", "list_games", "listing_json"]

#: Seconds a host has to answer (a host that does not is passed over).
ASK_WAIT = 1.0
#: The largest answer read from the far side of ssh.
MAX_REMOTE = 1 << 20

_LETTERS = "ABC"


def ask(uid: int, host: str) -> Listing | None:
    """``host``'s listing for us, or None (no answer in time, nothing for us there, not a game of this mille's)."""
    try:
        sock = connect_uid(uid, host, timeout=ASK_WAIT, verb="list")
    except RendezvousError:
        return None
    link = Link(sock)
    try:
        link.send(messages.knock("list"))
        message = link.wait_message(timeout=ASK_WAIT)
        return None if message is None else messages.read_listing(message)
    except (LinkClosed, MessageError):
        return None
    finally:
        link.close()


def listing_json(entry: Listing) -> dict[str, object]:
    """A listing as ``--json`` gives it (the link's own form: read back with :func:`messages.read_listing`)."""
    return messages.listing(entry)


def _minutes(seconds: int) -> str:
    minutes = seconds // 60
    if minutes < 1:
        return "started less than a minute ago"
    if minutes < 120:
        return f"running {minutes} minute{'s' if minutes != 1 else ''}"
    return f"running {minutes // 60} hours"


def describe(entry: Listing, where: str = "") -> list[str]:
    """One game in lines (escaped): who hosts and the table, who sits where, the scores, the watchers, the commands.

    ``where``: ``@machine`` for a game listed over ssh (the commands then say it).
    """
    host = shown_name(entry.host)
    tab = entry.table
    hand = "waiting to start" if entry.hand == 0 else f"hand {entry.hand}"
    lines = [f"{host}'s game: {tab.seats} seats, {hand}, {_minutes(entry.running)}."]
    seats = []
    for place in entry.places:
        who = shown_name(place.name)
        if place.kind == "host":
            words = f"{who}, hosting"
        elif place.kind == "person":
            words = who
        elif place.kind == "away":
            words = f"{who}, away (the seat is kept for them)"
        elif place.kind == "invited":
            words = f"kept for {who}"
        elif place.kind == "computer":
            words = f"the computer ({who})" if who else "the computer"
        else:
            words = "open"
        seats.append(f"Seat {place.seat}: {words}.")
    lines.append("  " + " ".join(seats))
    if entry.hand:
        if tab.seats == 2:
            names = [shown_name(p.name) if p.kind != "computer" else "the computer" for p in entry.places]
            scores = [f"{names[side] if side < len(names) else side + 1} {entry.scores[side]}" for side in range(2)]
        else:
            scores = [f"side {_LETTERS[side]} {score}" for side, score in enumerate(entry.scores)]
        lines.append("  Scores: " + ", ".join(scores) + ".")
    if entry.watchers:
        lines.append("  Watching: " + ", ".join(shown_name(w) for w in entry.watchers) + ".")
    target = f"{host}{where}"
    if entry.join:
        lines.append(f"  To join: mille --join {target}")
    if entry.watch:
        lines.append(f"  To watch: mille --watch {target}")
    return lines


def _here() -> list[Listing]:
    found = []
    me = os.getuid()
    for uid, host in tables():
        if uid == me:
            continue  # (one's own game is one's own terminal's)
        entry = ask(uid, host)
        if entry is not None and (entry.join or entry.watch):
            entry.host = host  # the directory's owner, whom the kernel named: never a name the listing claims
            found.append(entry)
    return found


def _over_ssh(machine: str) -> list[Listing] | str:
    """The listings ``mille --list --json`` gives on ``machine`` (through ssh), or one line saying why none came."""
    import shlex
    import subprocess

    from .guest import SSH, remote_command

    if not machine or machine.startswith("-"):
        return "--list @MACHINE: name a machine"
    ssh = shlex.split(os.environ.get("MILLE_SSH", SSH))
    try:
        done = subprocess.run(
            [*ssh, "-T", "--", machine, remote_command("", machine, "--list --json")],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot reach {shown(machine)}: {shown(str(exc))[:120]}"
    if done.returncode != 0:
        said = shown(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0] if done.stderr.strip() else "")
        return f"cannot list the games on {shown(machine)}: {said[:160] or f'status {done.returncode}'}"
    try:
        data = json.loads(done.stdout[:MAX_REMOTE])
        if isinstance(data, dict) and data.get("type") == "bye" and isinstance(data.get("text"), str):
            return shown(data["text"])[:200]  # (no mille of ours there: what the far side said)
        games = data["games"] if isinstance(data, dict) else None
        if not isinstance(games, list):
            raise ValueError("no games")
        return [messages.read_listing(game) for game in games if isinstance(game, dict)]
    except (ValueError, KeyError, MessageError):
        return f"the mille on {shown(machine)} answered something that is not a listing"


def list_games(target: str | None = None, as_json: bool = False) -> int:
    """``mille --list [@MACHINE] [--json]``: the games you may join or watch; the exit status."""
    where = ""
    if target:
        if not target.startswith("@"):
            print(f"mille: --list {shown(target)}: give @MACHINE, or nothing for this machine", file=sys.stderr)
            return 1
        where = target
        found = _over_ssh(target[1:])
        if isinstance(found, str):
            print(f"mille: {found}", file=sys.stderr)
            return 1
    else:
        found = _here()
    if as_json:
        sys.stdout.write(json.dumps({"games": [listing_json(entry) for entry in found]}, indent=2) + "\n")
        return 0
    if not found:
        on = f"on {shown(target[1:])}" if target else "on this machine"
        print(f"No game {on} that you may join or watch.")
        return 0
    for number, entry in enumerate(found):
        if number:
            print()
        for line in describe(entry, where):
            print(line)
    return 0
