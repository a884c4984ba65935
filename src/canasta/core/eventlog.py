"""The history of a hand as a persistent chain of events (:class:`EventLog`), and a seat's
copy of it (:func:`seen_by`).

Apart from :mod:`canasta.core.events` (the event values, plain frozen dataclasses that pickle
as they are) so that the chain, pushed on every move and copied for a seat on every view,
is compiled with the rest of the core. ``canasta.core.events`` re-exports every name here.
An event is anything with ``visible_to(seat)`` (the events module's values); this module
does not import them, so that the events module may import it.
"""

from __future__ import annotations

from typing import Any

#: ``visible_to`` for a seat that sees no hand (an onlooker): every hidden card is hidden.
PUBLIC = -1

#: ``EventLog.seat`` of a hand's whole history (every card, hidden ones included).
WHOLE = -2


class EventLog:
    """A persistent (immutable, shared) chain of events: ``push`` returns a longer log and
    leaves this one as it was, so copies of a state share their history.

    ``len(log)`` is the number of events; ``log.events()`` the tuple, oldest first (cached).
    ``log.seat`` is :data:`WHOLE` for a state's own history, else the seat (or
    :data:`PUBLIC`) whose copy of a history this is (:func:`seen_by`): its events are
    ``visible_to(seat)``, and nothing reachable from it holds a card that seat did not see.
    Pickled as its events (a long chain pickles without deep recursion).
    """

    __slots__ = ("event", "prev", "size", "_tuple", "seat", "_seen")

    def __init__(self, event: Any, prev: EventLog | None, seat: int = WHOLE) -> None:
        #: The newest event (a :mod:`canasta.core.events` value).
        self.event: Any = event
        self.prev = prev
        self.size: int = 1 + (prev.size if prev is not None else 0)
        self._tuple: tuple[Any, ...] | None = None
        self.seat = seat
        # This point's copy per seat that saw it (seen_by); never reachable from a copy.
        self._seen: dict[int, EventLog] | None = None

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        """Equal logs hold equal events (the same object, or a replay of the same hand)."""
        if self is other:
            return True
        if not isinstance(other, EventLog):
            return NotImplemented
        return self.size == other.size and self.events() == other.events()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, ...]:
        return (_log_of, (self.events(), self.seat))

    def events(self) -> tuple[Any, ...]:
        """The events, oldest first (cached on this point)."""
        got = self._tuple
        if got is None:
            out: list[Any] = []
            node: EventLog | None = self
            while node is not None:
                done = node._tuple
                if done is not None:
                    out.extend(reversed(done))
                    break
                out.append(node.event)
                node = node.prev
            out.reverse()
            got = self._tuple = tuple(out)
        return got


def _log_of(events: tuple[Any, ...], seat: int) -> EventLog | None:
    """The log of ``events`` (what :meth:`EventLog.__reduce__` gives pickle)."""
    log: EventLog | None = None
    for event in events:
        log = EventLog(event, log, seat)
    if log is not None:
        log._tuple = events
    return log


def push(log: EventLog | None, event: Any) -> EventLog:
    """``log`` with ``event`` appended (``log`` itself is unchanged); the new point is a
    whole history's (:data:`WHOLE`), whatever ``log`` is (a state played on from a seat's
    copy, as :meth:`View.sample_state <canasta.core.view.View.sample_state>` gives, has a
    whole history of its own from there)."""
    return EventLog(event, log)


def seen_by(log: EventLog | None, seat: int) -> EventLog | None:
    """The history ``log`` as ``seat`` saw it (:data:`PUBLIC`: an onlooker): a chain of its
    own, each event ``visible_to(seat)``, holding no reference to ``log``. Each point's copy
    is kept on that point, so a seat's copies of one history share their common part and
    the cost is the number of events not copied yet for that seat."""
    todo: list[EventLog] = []
    node = log
    base: EventLog | None = None
    while node is not None:
        if node.seat == seat:
            base = node
            break
        seen = node._seen
        if seen is not None:
            got = seen.get(seat)
            if got is not None:
                base = got
                break
        todo.append(node)
        node = node.prev
    i = len(todo) - 1
    while i >= 0:
        node = todo[i]
        base = EventLog(node.event.visible_to(seat), base, seat)
        copies = node._seen
        if copies is None:
            node._seen = {seat: base}
        else:
            copies[seat] = base
        i -= 1
    return base


def events_of(log: EventLog | None) -> tuple[Any, ...]:
    """The events of ``log``, oldest first (``()`` for no log)."""
    return log.events() if log is not None else ()
