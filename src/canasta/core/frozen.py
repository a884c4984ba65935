"""An immutable, hashable mapping: the value of the rules' per-player-count fields.

The rules record (:class:`canasta.core.rules.Rules`) is a value: equal rules hash equal and
nothing changes one after it is built and checked. Its mappings (``deal.cards_dealt``,
``turn.draw_count``...) are therefore :class:`FrozenMap`, not ``dict``: item assignment and
deletion and attribute assignment raise ``TypeError``, and there is no ``update``, ``pop`` or
``clear``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only mapping that compares equal to a ``dict`` of the same items and hashes by
    its items.

    ``FrozenMap({2: 15, 4: 11})`` or ``FrozenMap([(2, 15), (4, 11)])``; reads as a dict
    (``m[4]``, ``m.get(5, 11)``, ``4 in m``, ``m.items()``, ``dict(m)``); ``m[4] = 3`` raises
    ``TypeError``. Pickles and copies as a value.
    """

    __slots__ = ("_data", "_hash")

    _data: dict[K, V]
    _hash: int

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        data = dict(items)
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_hash", hash(frozenset(data.items())))

    # -- reading (the dict's own methods, for speed: the engine asks these every draw) -----
    def __getitem__(self, key: K) -> V:
        return self._data[key]

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self._data),))

    # -- no writing ------------------------------------------------------------------------
    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError("a FrozenMap is immutable: build a new one")

    def __delattr__(self, name: str) -> None:
        raise TypeError("a FrozenMap is immutable: build a new one")

    def __setitem__(self, key: K, value: V) -> None:
        raise TypeError(f"a FrozenMap is immutable: cannot set [{key!r}]; rules change only "
                        "through Rules.with_options, which checks them")

    def __delitem__(self, key: K) -> None:
        raise TypeError(f"a FrozenMap is immutable: cannot delete [{key!r}]")
