"""Limits per client address and per table, so that one client cannot load the server down.

* **Work** (:attr:`ServerLimits.work_burst`, ``work_rate``): every request that makes the
  server compute (a scorepad's hand, previewed or stored, or its result document; a game
  record, which replays the hands; a hint, which searches) spends from its client
  address's token bucket, whatever table or scorepad it names; past it the answer is 429
  ``rate-limited`` with ``Retry-After``.
* **Views** (``view_burst``, ``view_rate``): a table's state asked for over HTTP (``GET
  /api/tables/{id}``, built and serialised for the asker) spends from its client address's
  own bucket, whatever table it names; past it, 429 ``rate-limited`` with ``Retry-After``. A
  page has its views over its WebSocket (one message per change, serialised once for every
  spectator) and asks for none this way; the budget stops one address polling without end.
* **WebSockets** (``sockets_per_address``): the open connections of one address are
  counted (:class:`SocketCount`); one more is refused (close code 4429).
* **Spectators** (``spectators_per_table``): a table takes that many spectators' sockets
  per process; each state message is serialized once for all of them, and a slow reader's
  waiting one is replaced by the next (canasta.web.play.connections), so a table's fan-out is
  bounded in count and in what waits.
* **Chat** (:class:`ChatBudget`): a seat may send 5 chat messages at once, then one each
  2 seconds, besides its budget for all messages.
* **Tables nobody attends** (:func:`people_present`): bots play only while a person seated
  at the table is connected or has made a request in the last ``idle_after`` seconds
  (``TableService.idle_after``); a table left to its bots stops until someone comes back
  (a connection, or a request with a seat's token, wakes it).

Behind a reverse proxy, run uvicorn with ``--proxy-headers`` so that the address is the
client's (canasta.web.protocol.limits).
"""

from __future__ import annotations

import time

from canasta.web.play.seats import Table
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.limits import Buckets

__all__ = ["ChatBudget", "SocketCount", "check_spectators", "people_present"]


class SocketCount:
    """The open WebSocket connections per client address, at most ``cap`` each."""

    def __init__(self, cap: int, exempt: frozenset[str] = frozenset()) -> None:
        self.cap = cap
        self.exempt = exempt  # addresses never counted (canasta.web.protocol.limits)
        self.open: dict[str, int] = {}

    def acquire(self, client: str) -> bool:
        """Count one more connection of ``client``: False (nothing counted) when it has
        ``cap`` open already."""
        if client in self.exempt:
            return True
        n = self.open.get(client, 0)
        if n >= self.cap:
            return False
        self.open[client] = n + 1
        return True

    def release(self, client: str) -> None:
        if client in self.exempt:
            return
        n = self.open.get(client, 0) - 1
        if n > 0:
            self.open[client] = n
        else:
            self.open.pop(client, None)

    def refusal(self) -> WebError:
        return WebError("rate-limited", f"at most {self.cap} connections from one address: "
                                        "close another tab first", retry_after=5.0)


def check_spectators(table: Table, cap: int) -> None:
    """Refuse one more spectator at ``table`` when ``cap`` watch it in this process.

    Raises:
        WebError: ``rate-limited``.
    """
    watching = sum(1 for c in table.conns if c.seat is None)
    if watching >= cap:
        raise WebError("rate-limited", f"this table has {cap} spectators already: try "
                                       "again later", retry_after=30.0)


def people_present(table: Table, idle_after: float, now: float | None = None) -> bool:
    """Whether a person seated at ``table`` is connected (here or in another process) or
    made a request in the last ``idle_after`` seconds (``table.last_person``)."""
    if any(table.connected(s.seat) > 0 for s in table.seats if s.kind == "human"):
        return True
    return (time.monotonic() if now is None else now) - table.last_person < idle_after


class ChatBudget:
    """The chat's own rate, per seat of a table (canasta.web.play.chat): ``burst`` messages
    at once, then one each ``1 / rate`` seconds, on top of the seat's budget for all its
    messages (a person types a few lines a minute; a flood is refused, 429-style)."""

    def __init__(self, burst: int = 5, rate: float = 0.5) -> None:
        self.buckets = Buckets(burst, rate)

    def spend(self, table_id: str, seat: int) -> None:
        """Spend one chat message of ``seat``.

        Raises:
            WebError: ``rate-limited``, with the seconds to wait.
        """
        wait = self.buckets.take((table_id, seat))
        if wait:
            raise WebError("rate-limited", f"too many chat messages: wait {wait:.1f} s",
                           retry_after=wait)
