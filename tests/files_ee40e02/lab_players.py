"""Players that forfeit, for the runs of ``make.py`` and ``tests/lab/test_files_ee40e02.py``."""


class Raises:
    """Raises at its first decision: a forfeit in the first hand."""

    def choose(self, observation, rng):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom \x1b[2J")


class RaisesLate:
    """Plays the first legal move, and raises once a hand has been scored: a forfeit in the second hand."""

    def choose(self, observation, rng):  # type: ignore[no-untyped-def]
        if any(p.total > p.hand_total for p in observation.players):
            raise ValueError("late")
        return observation.legal_moves()[0]
