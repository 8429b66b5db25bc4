"""The expert's strength settings: :class:`Level`, and the levels it ships with.

A level is a bundle of knobs, most of them the search's (its budget, the
evidence it needs to leave its policy's choice, the racing); the rest say
which policy is its own and which inference it draws about the
opponent's hand.  ``expert-2026`` (:mod:`mille.players.expert_2026`) is
the same player with the settings it had in 2026, written out, so every
knob a frozen player passes must keep its meaning.  What each default was
measured against is in ``docs/expert.md`` ("Levels") and the notebook
(``docs/notebook/expert.md``).
"""

from __future__ import annotations


class Level:
    """One strength setting of the expert."""

    __slots__ = (
        "budget",
        "z",
        "batch",
        "race",
        "min_worlds",
        "game",
        "deadline",
        "patience",
        "repaired",
        "exact_need",
        "stretch",
        "safety_rules",
        "read",
    )

    def __init__(
        self,
        budget: int,
        *,
        z: float = 2.0,
        batch: int = 8,
        race: float = 2.0,
        min_worlds: int = 16,
        game: bool = True,
        deadline: float = 0.8,
        patience: float | None = None,
        repaired: bool = True,
        exact_need: bool = True,
        stretch: float = 1.0,
        safety_rules: bool = False,
        read: int = 0,
    ) -> None:
        #: Moves simulated per decision (rollouts to the end of the hand).
        self.budget = budget
        #: Paired z-score a move needs over the policy's choice to be played instead.
        self.z = z
        #: Worlds added to every remaining move per round of the race.
        self.batch = batch
        #: Racing: drop a move this many paired standard errors behind the
        #: leader (0: successive halving instead).
        self.race = race
        #: Worlds every move sees before any is dropped.
        self.min_worlds = min_worlds
        #: Value a hand by the chance to win the game (else by its margin).
        self.game = game
        #: A safety net, in seconds of the thinking thread's own CPU time
        #: (:func:`time.thread_time`): the search stops early past it.  The
        #: budget alone keeps it far below (a searched decision of level 4
        #: is about a quarter of a second of CPU, its worst seen 0.3 s), so
        #: the decision is a function of the seed alone, on a quiet machine
        #: and on a loaded one alike: other programs' load slows the thread's
        #: clock with it, where a wall clock cut the search short and changed
        #: the move (it bound on half the searches with two busy loops on
        #: two cores; ``docs/expert.md``, "Levels", Think time).
        self.deadline = deadline
        #: The last resort, in seconds of wall-clock time (2.5 times the
        #: deadline unless given: 2 s): the search stops past it whatever
        #: CPU it had, so that on a machine so loaded that the thread gets
        #: under about an eighth of a core the person still has an answer
        #: within 2 s (the decision then depends on the load).  A deadline
        #: lifted (``deadline=600``) lifts it too.
        self.patience = 2.5 * deadline if patience is None else patience
        #: Our own policy: the repaired BSD procedure (:mod:`mille.players.plus`),
        #: or the BSD procedure itself (``False``: ``expert-2026``).
        self.repaired = repaired
        #: The estimate of the opponent's ``num_need`` table is not bumped
        #: for a turn in which it played the safety against the hazard it
        #: faced: the BSD procedure plays that safety before its bumps
        #: (``False``, the 2026 estimate, bumped it all the same).
        self.exact_need = exact_need
        #: A close call may spend up to this many times the budget: once
        #: the budget is spent, the search goes on while the best rival's
        #: paired z-score over the policy's choice is within 1 of ``z``
        #: (1: never).
        self.stretch = stretch
        #: Read back two more of the BSD procedure's safety rules from each
        #: of the opponent's turns (:func:`mille.players.expert.belief.infer_turn`):
        #: a safety whose hazards are all on the table, and every safety when
        #: we are one card from the end, would have been played.
        self.safety_rules = safety_rules
        #: Read the table (:mod:`mille.players.expert.reader`), at any table,
        #: from the moves every other seat makes (its safeties, its
        #: ``num_need`` table, a model of its play learned in the game), and
        #: deal and play out the worlds with it (:class:`~mille.players.expert.sampler.Worlds`):
        #: the number of hands tried per decision of another seat to weigh
        #: its models (0: off, the reading of ``expert-2026-11``, and the
        #: two-seat reads of :mod:`~mille.players.expert.belief` instead).
        self.read = read


#: The settings by level: 0 is the policy's choice (no search).  Level 4
#: has been the default since the eighth round, the safety reads on since
#: the ninth, the reading of the table (twelve hands tried a decision of
#: another seat) since the tenth (``docs/expert.md``, "Levels").
LEVELS: dict[int, Level] = {
    0: Level(0),
    1: Level(8000, safety_rules=True, read=12),
    2: Level(16000, safety_rules=True, read=12),
    3: Level(30000, safety_rules=True, read=12),
    4: Level(60000, safety_rules=True, read=12),
}
DEFAULT_LEVEL = 4

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level"]
