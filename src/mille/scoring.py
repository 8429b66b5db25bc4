"""Scoring: points during play, the end-of-hand bonuses, the 5000-point game.

Points for mileage, safeties and coups fourrés are added as cards are played
(see :mod:`mille.rules`); this module holds the amounts and the bonuses that
are added once when a hand ends.  The bonuses are a function of the final
position, so the score window can show them without remembering anything.
"""

from __future__ import annotations

from .cards import MILES_200, NUM_SAFETIES
from .record import FrozenRecord
from .state import EXTENDED_TRIP, Game

SAFETY_POINTS = 100
ALL_SAFETIES_BONUS = 300
COUP_BONUS = 300
TRIP_BONUS = 400
SAFE_TRIP_BONUS = 300
DELAYED_ACTION_BONUS = 300
EXTENSION_BONUS = 200
SHUT_OUT_BONUS = 500
GAME_POINTS = 5000


class Bonuses(FrozenRecord):
    """The five end-of-hand bonus rows of the score window, for one player."""

    __slots__ = ("trip", "safe_trip", "delayed_action", "extension", "shut_out")
    trip: bool
    safe_trip: bool
    delayed_action: bool
    extension: bool
    shut_out: bool

    def __init__(
        self,
        trip: bool = False,
        safe_trip: bool = False,
        delayed_action: bool = False,
        extension: bool = False,
        shut_out: bool = False,
    ) -> None:
        self._init(
            trip=trip, safe_trip=safe_trip, delayed_action=delayed_action, extension=extension, shut_out=shut_out
        )

    @property
    def points(self) -> int:
        return (
            TRIP_BONUS * self.trip
            + SAFE_TRIP_BONUS * self.safe_trip
            + DELAYED_ACTION_BONUS * self.delayed_action
            + EXTENSION_BONUS * self.extension
            + SHUT_OUT_BONUS * self.shut_out
        )

    def rows(self) -> tuple[bool, bool, bool, bool, bool]:
        return (self.trip, self.safe_trip, self.delayed_action, self.extension, self.shut_out)


NO_BONUSES = Bonuses()


def end_of_hand_bonuses(game: Game, player: int) -> Bonuses:
    """Bonuses ``player`` earns if the hand ends in this position.

    Only the player whose mileage equals the trip length qualifies; the
    extension bonus goes to whoever completes 1000, whoever chose to extend.
    """
    pp = game.players[player]
    if pp.mileage != game.trip_length:
        return NO_BONUSES
    return Bonuses(
        trip=True,
        safe_trip=pp.nummiles[MILES_200] == 0,
        delayed_action=game.deck_count <= 0,
        extension=game.trip_length == EXTENDED_TRIP,
        shut_out=game.players[1 - player].mileage == 0,
    )


def apply_end_of_hand_bonuses(game: Game) -> None:
    """Add the bonuses to hand and overall totals; called once as a hand ends."""
    for player in (0, 1):
        points = end_of_hand_bonuses(game, player).points
        if points:
            pp = game.players[player]
            pp.total += points
            pp.hand_total += points


def recompute_hand_total(game: Game, player: int) -> int:
    """A player's hand total recomputed from the tableau alone.

    Used by the property tests: the running total must always equal this.
    """
    pp = game.players[player]
    points = pp.mileage + pp.safety_score + pp.coup_score
    if pp.safety_score == NUM_SAFETIES * SAFETY_POINTS:
        points += ALL_SAFETIES_BONUS
    if game.finished:
        points += end_of_hand_bonuses(game, player).points
    return points
