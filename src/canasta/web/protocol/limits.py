"""The server's limits on what clients send: sizes, nesting, and rates.

A seat may send :attr:`ServerLimits.seat_burst` messages at once (WebSocket messages and
HTTP requests that act on a table, counted together), then :attr:`ServerLimits.seat_rate`
a second; a client address may create :attr:`ServerLimits.create_burst` tables and
scorepads at once, then :attr:`ServerLimits.create_rate` a second; and so on for work and
table views (:mod:`canasta.web.protocol.ratelimit`). The defaults are far above
what people at a real table do (a turn is a few actions in some seconds) and stop a flood.
Each is set by an environment variable (``CANASTA_SEAT_BURST`` …, read by
:meth:`ServerLimits.from_env`), so that every worker process of a server has the same ones,
or by ``canasta serve --seat-rate …``.

Behind a reverse proxy every request comes from the proxy's address: run uvicorn with
``--proxy-headers`` (and ``--forwarded-allow-ips``) so that the client's own address counts.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class ServerLimits:
    """Attributes:
        seat_burst: messages a seat may send at once (the bucket's size).
        seat_rate: messages a second a seat may send after the burst.
        create_burst: tables and scorepads one client address may create at once.
        create_rate: tables and scorepads a second after that (0.1: one each 10 s).
        max_body: bytes of a table request's body or of a WebSocket message.
        max_pad_body: bytes of a scorepad request's body (a tally may list cards).
        max_depth: nesting of objects and arrays in a body or message (the deepest real
            one, a scorepad tally's penalty, is 5).
        work_burst: requests that make the server compute (scorepad hands and previews,
            records, hints) one client address may send at once (canasta.web.protocol.ratelimit).
        work_rate: such requests a second after that.
        view_burst: table views (``GET /api/tables/{id}``, a seat's or a spectator's state
            built and serialised) one client address may ask for at once; a page has its
            views over its WebSocket and asks for none this way. 300: an API client that
            plays whole hands as fast as it can (the suite's: up to some 270 views in a few
            seconds) stays within it however fast the machine.
        view_rate: table views a second after that.
        sockets_per_address: WebSocket connections one client address may hold open.
        spectators_per_table: spectators' connections one table takes (per process).
    """

    seat_burst: int = 200
    seat_rate: float = 50.0
    create_burst: int = 30
    create_rate: float = 0.1
    max_body: int = 16_384
    max_pad_body: int = 32_768
    max_depth: int = 16
    work_burst: int = 20
    work_rate: float = 4.0
    view_burst: int = 300
    view_rate: float = 20.0
    sockets_per_address: int = 32
    spectators_per_table: int = 50

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    math.isfinite(value) and value > 0):
                raise ValueError(f"limit {f.name} must be a positive number, not {value!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerLimits:
        """The defaults, with each ``CANASTA_<NAME>`` variable of ``env`` (the process's
        environment by default) in place of its limit.

        Raises:
            ValueError: a variable that is not a positive number (the message names it).
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"CANASTA_{f.name.upper()}")
            if raw is None or raw == "":
                continue
            kind = int if f.type in ("int", int) else float
            try:
                values[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"CANASTA_{f.name.upper()} must be a number, not {raw!r}") \
                    from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The variables that give these limits to :meth:`from_env` (in another process)."""
        return {f"CANASTA_{f.name.upper()}": str(getattr(self, f.name)) for f in fields(self)}


def exempt_addresses(env: Mapping[str, str] | None = None) -> frozenset[str]:
    """Client addresses that no per-address limit applies to: ``CANASTA_LIMITS_EXEMPT``, a
    comma-separated list (a health checker, or the load benchmark's own driver, which sends
    every table's requests from one address); empty by default."""
    env = os.environ if env is None else env
    return frozenset(a.strip() for a in env.get("CANASTA_LIMITS_EXEMPT", "").split(",")
                     if a.strip())


class Buckets:
    """Token buckets by key: each key may spend ``burst`` at once, refilled at ``rate`` a
    second. Keys whose bucket is full again are forgotten once there are more than
    ``max_keys``, so forged keys cannot grow the memory without bound."""

    def __init__(self, burst: int, rate: float, *, max_keys: int = 50_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = float(burst)
        self.rate = float(rate)
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: dict[object, tuple[float, float]] = {}

    def take(self, key: object) -> float:
        """Spend one from ``key``'s bucket: 0.0 when allowed, else the seconds until one is
        there again (nothing is spent)."""
        now = self.clock()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_keys:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [k for k, (tokens, last) in self._buckets.items()
                if tokens + (now - last) * self.rate >= self.burst]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) > self.max_keys:  # a flood of keys all at once: start again
            self._buckets.clear()
