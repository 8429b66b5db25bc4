"""The expert's own policy: the BSD procedure with its "too close" quirk repaired, attacking first.

The BSD procedure (:mod:`mille.players.bsd`) values a 25 or 50 that would
leave the player "too close" to the end of the trip by giving up on playing
anything at all: its ``cango`` is a boolean, so the first such card flips
the whole valuation into discard mode, and the player discards a card even
when it holds the 100 that finishes the trip (§6.3 "too close").  This
policy (:func:`mille.players.bsd.decide` with ``repaired``) only declines
the small card itself (it is valued -1, below any play) and discards only
when no other play is worth anything.  That one
change, with the rest of the procedure as it is (its counting, its safety
timing, its never-reset "cards needed" table, its extension rule), wins
about two games in three against the original with no search at all
(``docs/expert.md``, "How it decides").  One more, found by screening weights of the
procedure's valuation on tens of thousands of hands, adds about 12 points
a hand: a hazard's value is doubled when the policy is choosing a play
(against BSD, attack when you can).

The expert plays this policy for its own seat, as the move it keeps unless
the search finds a better one and in its rollouts, and models the
opponent with the BSD procedure itself.  A player that plays it alone is
:class:`PlusPlayer` (``python -m mille.match mille.players.plus:PlusPlayer
bsd``).
"""

from __future__ import annotations

from .bsd import BsdPlayer


class PlusPlayer(BsdPlayer):
    """The policy alone, as a player (no search): for matches, tests and rollouts."""

    name = "bsd-plus"
    #: Not the original's procedure: it rolls dice of its own.
    dice = "own"
    repaired = True


__all__ = ["PlusPlayer"]
