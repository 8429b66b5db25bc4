"""glibc ``srandom()``/``random()`` (the default TYPE_3 generator), bit for bit.

4.4BSD mille seeds once with ``srandom(getpid())`` and then uses ``random()``
for the shuffle and for the computer's safety-timing roll.  Reproducing the
real program's deal for a given seed therefore needs the exact generator,
not Python's :mod:`random`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TypeVar

    T = TypeVar("T")

#: The seeds a bot is handed (``game.dice``, docs/protocol.md "Dice") and
#: :func:`secret_seed` draws: 1 .. 2**31 - 1, so that a bot may read one
#: into a signed 32-bit integer.
SECRET_SEED_RANGE = (1, (1 << 31) - 1)

_DEG = 31
_SEP = 3
_MASK = 0xFFFFFFFF


def secret_seed() -> int:
    """A seed no one can predict (``os.urandom``), in :data:`SECRET_SEED_RANGE`.

    For a seed a player must not be able to derive from public data, where
    a seed is what is wanted: a bot's own dice (handed to it as a seed,
    independent of the deal and of the other seat's), the seed of a match
    or tournament run without ``--seed`` (said at its end, so that it can
    be replayed).  Not the original's process ID: a bot knows its parent's
    (issue 36).  Not a secret deal's: 31 bits can be searched from the
    cards one seat is dealt (issue 43), so a deal no one may learn has no
    seed at all (:meth:`GlibcRandom.from_urandom`).
    """
    import os

    low, high = SECRET_SEED_RANGE
    return low + int.from_bytes(os.urandom(4), "little") % (high - low + 1)


#: The first seed ``srandom`` cannot take (it reads 32 bits): :meth:`GlibcRandom.seed` of this or more fills the
#: whole state by a hash (:func:`_state_of_key`).  A match's seed drawn at random is far above it (:func:`wide_seed`).
WIDE_SEED = 1 << 32
#: How wide a seed drawn at random for a match, a tournament or a simulation is, in bits (:func:`wide_seed`).
WIDE_SEED_BITS = 128


def wide_seed() -> int:
    """A seed for a match, a tournament or a simulation run without ``--seed``: 128 bits from ``os.urandom``.

    Its top bit is set, so it is always a wide seed (:data:`WIDE_SEED` and
    more): every generator derived from it gets its whole state from a hash
    (:meth:`GlibcRandom.seed`, :func:`derived_seed`), and neither it nor a
    hand's deal can be searched from the cards one seat is dealt (issue 43:
    a seed of 31 bits, and a 32-bit hash of it for each hand, could).  Said
    at the run's end, it replays the run with ``--seed``.
    """
    import os

    return int.from_bytes(os.urandom(WIDE_SEED_BITS // 8), "big") | 1 << (WIDE_SEED_BITS - 1)


def derived_seed(text: str, *, wide: bool) -> int:
    """The seed named ``text`` (a run's seed and what it is for, written out) derives: 32 bits, or wide.

    Not wide: BLAKE2b's 4-byte digest, read little-endian (how every match
    and tournament has always derived its deals and dice: a typed ``--seed``
    keeps its reports byte for byte).  Wide (the run's seed is): a 16-byte
    digest with its top bit set, a wide seed in turn (:data:`WIDE_SEED`), so
    that what is derived from it is wide too.
    """
    import hashlib

    if not wide:
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")
    digest = hashlib.blake2b(text.encode(), digest_size=WIDE_SEED_BITS // 8).digest()
    return int.from_bytes(digest, "big") | 1 << (WIDE_SEED_BITS - 1)


def _state_of_key(key: int) -> list[int]:
    """The 31 words a wide seed stands for: SHAKE-256 of its bytes, one word made odd (as :meth:`from_urandom`)."""
    import hashlib

    data = hashlib.shake_256(b"mille.rng/" + key.to_bytes((key.bit_length() + 7) // 8, "big")).digest(4 * _DEG)
    state = [int.from_bytes(data[4 * i : 4 * i + 4], "little") for i in range(_DEG)]
    state[0] |= 1
    return state


#: One turn of the generator's two indices from their seeded positions: (front, rear) at each step.
_TURN = tuple(((_SEP + i) % _DEG, i) for i in range(_DEG))


class GlibcRandom:
    """The additive feedback generator glibc uses for ``random()``.

    Players are handed one of these as their own generator; besides the
    original's ``random()`` and ``roll()`` it offers the few conveniences a
    bot wants (``randrange``, ``choice``, ``shuffle``, ``uniform``).
    """

    __slots__ = ("_state", "_front", "_rear", "_seed")

    def __init__(self, seed: int = 1) -> None:
        self._state: list[int] = [0] * _DEG
        self._front = _SEP
        self._rear = 0
        self._seed: int | None = None
        self.seed(seed)

    @classmethod
    def from_urandom(cls) -> GlibcRandom:
        """A generator whose whole state, the 31 words, is drawn from ``os.urandom``: for a secret deal.

        ``srandom()`` takes one number, and one of 31 or 32 bits can be
        searched: a small C program tries two million seeds a second, and
        the six cards a guest is dealt (fixed positions of the shuffled
        deck) name the seed, and with it every other hand and every later
        draw (issue 43).  So a deal no one may learn (people at a table, a
        bot without ``--seed``) and the dice of a seat whose rolls must not
        be derived are given 992 bits from the system's generator instead:
        as a seeded generator's state is after ``srandom()``'s 310 discarded
        outputs, with nothing to search.  One word is made odd: the low bits
        of this additive generator run as a shift register, which a state of
        even words alone (one in 2**31) would stick at zero.  Such a
        generator has no seed (:attr:`seeded_with` is None), so a bot of
        ours is never handed one as a seed, and it cannot be replayed.
        """
        import os

        raw = os.urandom(4 * _DEG)
        rng = cls.__new__(cls)
        rng._state = [int.from_bytes(raw[4 * i : 4 * i + 4], "little") for i in range(_DEG)]
        rng._state[0] |= 1
        rng._front = _SEP
        rng._rear = 0
        rng._seed = None
        return rng

    def seed(self, seed: int) -> None:
        """``srandom(seed)``: Park-Miller LCG fill, then discard 310 outputs; a wide seed fills the whole state.

        A seed of 32 bits or fewer (or below zero: its low 32 bits) is glibc's,
        bit for bit.  A seed of :data:`WIDE_SEED` or more, which ``srandom``
        cannot take, is a key: the 31 words come from a cryptographic hash of
        it (:func:`_state_of_key`), so that a match drawn at random
        (:func:`wide_seed`) can be replayed from its seed and yet no hand of
        it can be searched (issue 43).  Such a generator is not handed to a
        bot as a seed (:attr:`seeded_with` is None).
        """
        if seed >= WIDE_SEED:
            self._state = _state_of_key(seed)
            self._front = _SEP
            self._rear = 0
            self._seed = None
            return
        s = seed & _MASK
        if s == 0:
            s = 1
        self._seed = s
        # The first word is the seed read as a signed 32-bit int.
        word = s - (1 << 32) if s >= 1 << 31 else s
        r = [word]
        for _ in range(1, _DEG):
            hi = int(word / 127773)  # C division truncates toward zero
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r.append(word)
        state = [w & _MASK for w in r]
        # The 310 outputs discarded, written out (a game deals each hand from a generator seeded
        # afresh: this was a tenth of a match's host over pipes, issue 39).  310 steps are ten
        # turns of the 31 words: front and rear come back where they began.
        for _ in range(10):
            for front, rear in _TURN:
                state[front] = (state[front] + state[rear]) & _MASK
        self._state = state
        self._front = _SEP
        self._rear = 0

    def random(self) -> int:
        """Next value in 0 .. 2**31 - 1."""
        state = self._state
        front = self._front
        value = (state[front] + state[self._rear]) & _MASK
        state[front] = value
        self._front = 0 if front == _DEG - 1 else front + 1
        self._rear = 0 if self._rear == _DEG - 1 else self._rear + 1
        return value >> 1

    def roll(self, sides: int) -> int:
        """The original's ``roll(1, sides)``: one die, 1 .. sides."""
        return self.random() % sides + 1

    def randrange(self, n: int) -> int:
        """A value in 0 .. n - 1 (for players' own choices; slightly biased, as ``%`` is)."""
        return self.random() % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.random() % len(items)]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates with this generator (not the original's deck shuffle)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.random() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def uniform(self) -> float:
        """A float in [0, 1)."""
        return self.random() / 2147483648.0

    @property
    def seeded_with(self) -> int | None:
        """The seed of the last :meth:`seed` (1 to 2**32 - 1), or None after :meth:`setstate`.

        Whether the generator has been rolled since is another matter:
        :meth:`untouched` says.
        """
        return getattr(self, "_seed", None)  # an instance made by __new__ and setstate has none

    def untouched(self) -> bool:
        """True when the generator is exactly as its last :meth:`seed` left it (nothing rolled since).

        A player in another process is then handed the seed instead of the
        generator (docs/protocol.md, "Dice"); this seeds a generator to
        compare with, so it is for once a game, not for every roll.
        """
        seed = self.seeded_with
        return seed is not None and self.getstate() == GlibcRandom(seed).getstate()

    def getstate(self) -> tuple[tuple[int, ...], int, int]:
        return tuple(self._state), self._front, self._rear

    def setstate(self, state: tuple[tuple[int, ...], int, int]) -> None:
        words, front, rear = state
        self._state = list(words)
        self._front = front
        self._rear = rear
        self._seed = None

    def __eq__(self, other: object) -> bool:
        """Generators are equal when they will produce the same numbers."""
        if not isinstance(other, GlibcRandom):
            return NotImplemented
        return self.getstate() == other.getstate()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def copy(self) -> GlibcRandom:
        clone = GlibcRandom.__new__(GlibcRandom)
        clone._state = list(self._state)
        clone._front = self._front
        clone._rear = self._rear
        clone._seed = self._seed
        return clone


#: A seed typed as ``--seed`` (``mille`` and ``python -m mille.sim``) stands for the original's
#: process ID (it seeds ``srandom()`` with ``getpid()``, reference §2.1), a positive ``pid_t``:
#: 1 to 2**31 - 1.  Larger values and 0 would wrap or repeat (``srandom`` takes 32 bits and treats
#: 0 as 1), so they are refused instead of dealing some other seed's cards.
SEED_RANGE = (1, 2**31 - 1)
#: What a refused seed is told (after ``'TEXT' is not a seed: ``).
SEED_RULE = (
    f"give a whole number from {SEED_RANGE[0]} to {SEED_RANGE[1]} "
    "(the original seeds its dealer with its process ID, which is in that range)"
)


def parse_seed(text: str, *, wide: bool = False) -> int | None:
    """The seed ``text`` names (decimal digits only, within :data:`SEED_RANGE`), or None.

    ``wide``: a wide seed is taken too (:data:`WIDE_SEED` to ``2**128 - 1``:
    one a run drew at random, :func:`wide_seed`, given again to replay it).
    """
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text, 10) if len(text) <= (40 if wide else 12) else 0
    low, high = SEED_RANGE
    if wide and WIDE_SEED <= value < 1 << WIDE_SEED_BITS:
        return value
    return value if low <= value <= high else None
