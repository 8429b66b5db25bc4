"""Scoring: points during play, the end-of-hand bonuses, the 5000-point game.

Points for mileage, safeties and coups fourrés are added as cards are played
(see :mod:`mille.engine.rules`); this module holds the amounts and the bonuses that
are added once when a hand ends.  The bonuses are a function of the final
position, so the score window can show them without remembering anything.
"""

from __future__ import annotations

from .cards import MILES_200, NUM_SAFETIES
from .record import FrozenRecord, set_field
from .state import EXTENDED_TRIP, Game
from .state import GAME_POINTS as GAME_POINTS  # the name readers know; it lives on the table

SAFETY_POINTS = 100
ALL_SAFETIES_BONUS = 300
COUP_BONUS = 300
TRIP_BONUS = 400
SAFE_TRIP_BONUS = 300
DELAYED_ACTION_BONUS = 300
EXTENSION_BONUS = 200
SHUT_OUT_BONUS = 500


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
        # Field by field: a rollout of the expert ends with one of these.
        set_field(self, "trip", trip)
        set_field(self, "safe_trip", safe_trip)
        set_field(self, "delayed_action", delayed_action)
        set_field(self, "extension", extension)
        set_field(self, "shut_out", shut_out)

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
    """Bonuses side ``player`` earns if the hand ends in this position (R13).

    Only the side whose mileage equals the trip length qualifies; the
    extension bonus goes to whoever completes 1000, whoever chose to extend
    (the original's rule, R15's default), and the shut-out only when every
    other side has no miles.  With Parker's bonus (the table's ``parker``,
    R15) it goes to the side that called the Extension if it completes the
    trip, and otherwise to each other side, whatever its miles.
    """
    players = game.players
    pp = players[player]
    trip = game.trip_length
    if pp.mileage != trip:
        if (
            game.extender is not None  # (only ever set with Parker's bonus)
            and trip == EXTENDED_TRIP
            and player != game.extender
            and players[game.extender].mileage != trip
        ):
            return _PARKER_CONSOLATION
        return NO_BONUSES
    sides = game.table.sides
    if sides == 2:
        shut_out = players[1 - player].mileage == 0
    else:
        shut_out = all(players[s].mileage == 0 for s in range(sides) if s != player)
    return Bonuses(
        trip=True,
        safe_trip=pp.nummiles[MILES_200] == 0,
        delayed_action=game.deck_count <= 0,
        extension=game.trip_length == EXTENDED_TRIP,  # the caller's side, or (Parker) another side when it failed
        shut_out=shut_out,
    )


#: Parker's Extension bonus for a side other than the caller's, when the caller fails (R15).
_PARKER_CONSOLATION = Bonuses(extension=True)


def apply_end_of_hand_bonuses(game: Game) -> None:
    """Add the bonuses to hand and overall totals; called once as a hand ends."""
    for player in range(game.table.sides):
        points = end_of_hand_bonuses(game, player).points
        if points:
            pp = game.players[player]
            pp.total += points
            pp.hand_total += points


class HandResult(FrozenRecord):
    """How a hand ended: what the score window shows at its end, as a value.

    Made once, by :func:`hand_result`, for everyone who asks how a hand
    went (the simulator's summary, the match's records, a searching
    player's valuation of a rollout).  Tuples are indexed by side (at two
    seats, by seat).
    ``game_over``: a total reached the table's ``game_points`` with this hand (the
    game is settled after it); ``game_winner`` is then the seat with the
    higher total, or None for a tie (and always None while the game goes on).
    """

    __slots__ = (
        "hand_totals",
        "totals",
        "mileage",
        "bonuses",
        "trip_length",
        "starter",
        "deck_left",
        "game_over",
        "game_winner",
    )
    hand_totals: tuple[int, ...]
    totals: tuple[int, ...]
    mileage: tuple[int, ...]
    bonuses: tuple[Bonuses, ...]
    trip_length: int
    starter: int
    deck_left: int
    game_over: bool
    game_winner: int | None

    def __init__(
        self,
        hand_totals: tuple[int, ...],
        totals: tuple[int, ...],
        mileage: tuple[int, ...],
        bonuses: tuple[Bonuses, ...],
        trip_length: int,
        starter: int,
        deck_left: int,
        game_over: bool,
        game_winner: int | None,
    ) -> None:
        # Field by field: every rollout of the expert makes one.
        set_field(self, "hand_totals", hand_totals)
        set_field(self, "totals", totals)
        set_field(self, "mileage", mileage)
        set_field(self, "bonuses", bonuses)
        set_field(self, "trip_length", trip_length)
        set_field(self, "starter", starter)
        set_field(self, "deck_left", deck_left)
        set_field(self, "game_over", game_over)
        set_field(self, "game_winner", game_winner)

    def margin(self, seat: int) -> int:
        """Side ``seat``'s hand total less the best other side's (two sides: the other's)."""
        totals = self.hand_totals
        return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)

    @property
    def winner(self) -> int | None:
        """The side that scored most this hand (None: a tie for the most)."""
        return _top(self.hand_totals)

    @property
    def trip_completed(self) -> tuple[bool, ...]:
        """Per side: reached the end of the trip (700, or 1000 if extended)."""
        return tuple(m == self.trip_length for m in self.mileage)


def _top(values: tuple[int, ...]) -> int | None:
    """The index of the one highest value, None if it is shared."""
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def hand_result(game: Game) -> HandResult:
    """The result of the hand ``game`` has just finished (before the game is settled).

    The game ends at its table's ``game_points`` (the original: 5000; a
    match may shorten it).
    """
    table = game.table
    game_points = table.game_points
    if table.sides == 2:
        players = game.players
        first = players[0]
        second = players[1]
        totals: tuple[int, ...] = (first.total, second.total)
        over = totals[0] >= game_points or totals[1] >= game_points
        winner = None if not over or totals[0] == totals[1] else 0 if totals[0] > totals[1] else 1
        hand_totals: tuple[int, ...] = (first.hand_total, second.hand_total)
        mileage: tuple[int, ...] = (first.mileage, second.mileage)
        bonuses: tuple[Bonuses, ...] = (end_of_hand_bonuses(game, 0), end_of_hand_bonuses(game, 1))
    else:
        sides = game.players[: table.sides]
        totals = tuple(p.total for p in sides)
        over = max(totals) >= game_points  # R14: the highest total wins, a tie for it none
        winner = _top(totals) if over else None
        hand_totals = tuple(p.hand_total for p in sides)
        mileage = tuple(p.mileage for p in sides)
        bonuses = tuple(end_of_hand_bonuses(game, s) for s in range(table.sides))
    return HandResult(
        hand_totals,
        totals,
        mileage,
        bonuses,
        game.trip_length,
        game.hand_starter,
        game.deck_count,
        over,
        winner,
    )


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
