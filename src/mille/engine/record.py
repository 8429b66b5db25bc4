"""Plain data records: equality and repr from ``__slots__``.

The engine's data classes are written on these small bases instead of
:mod:`dataclasses`: importing ``dataclasses`` (which imports ``inspect``)
and generating each class's methods cost more start-up time than the whole
engine, and the time to the first board is a measured target.  A record
declares its fields in ``__slots__`` and writes its ``__init__``; the bases
supply the rest, as a dataclass would.
"""

from __future__ import annotations

#: Sets one field of a frozen record in its ``__init__``.  A record made on a
#: hot path (one per rollout of the expert) sets its fields with this, one by
#: one, instead of through ``_init``'s keywords: a third less time.
set_field = object.__setattr__


class Record:
    """A mutable record: equal when of the same type with equal fields.

    Defining ``__eq__`` makes instances unhashable, as mutable dataclasses are.
    """

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class FrozenRecord(Record):
    """An immutable, hashable record (set fields in ``__init__`` with ``_init``)."""

    __slots__: tuple[str, ...] = ()

    def _init(self, **values: object) -> None:
        for name, value in values.items():
            set_field(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(getattr(self, name) for name in self.__slots__)))
