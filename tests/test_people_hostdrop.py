"""The host's own drop at a larger table keeps the game for everyone (issue 37: "The host's own drop keeps the game
for both"; issue 38: people at any seats), as real users on ptys.

At two seats ``tests/test_people.py`` closes the host's terminal under it;
here the same at four seats, while a guest thinks: the host's mille keeps
the game as on any hangup (``$XDG_STATE_HOME/mille``), the guest is told in
one line that the host keeps it, and both resume it later, the guest at
their seat with their hand and their move.
"""

from __future__ import annotations

import os
import time

from test_people import Player, _state_home, people, readable_directory
from test_people_tables import _asked, _hand, _until


def test_the_hosts_terminal_closed_at_four_seats_keeps_the_game_and_both_resume_it() -> None:
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        state = _state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--players", "4", "--invite", f"{bob}:2", "--no-stats"], env=env)
            players.append(host)
            host.wait_for(f"waiting for {bob}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            _until([host, guest], lambda: _asked(guest))
            hand = _hand(guest)

            os.close(host.fd)  # the host's terminal goes away under it, while bob thinks
            host.fd = -1
            assert host.reap() == 1
            assert guest.reap() == 0
            assert f"{alice} left the game" in guest.text(), guest.text()
            [name] = os.listdir(os.path.join(state, "mille"))
            kept = os.path.join(state, "mille", name)

            resumed = Player(a_uid, a_gid, ["--invite", f"{bob}:2", "--no-stats", kept], env=env)
            players.append(resumed)
            resumed.wait_for(f"waiting for {bob}")
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            end = time.monotonic() + 10
            while not _asked(back):  # his seat, his hand, his move
                assert time.monotonic() < end, back.text()
            assert _hand(back) == hand
            resumed.wait_for(f"{bob} is thinking...")
        finally:
            for p in players:
                p.kill()
