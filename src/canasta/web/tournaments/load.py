"""The duplicate tournament of the load benchmark (``python -m canasta.web.loadtest
--tournament``): one tournament of N four-player tables, every seat a bot, played on the
benchmark's server processes to its final standings, while a client reads the results page's
API as the tournament's players would.

It measures: the seconds from the start to every table of round 1 existing (the server deals
and stores N tables), each round's seconds, the bot moves per second over the run (the stored
actions) against the most the tables could make (N / bot delay), the latency of reading the
tournament (``GET /api/tournaments/{id}``: schedule, standings and every deal's comparison;
p50 and p95 in milliseconds, and its size), and the CPU the servers used; and it checks that
every deal pair of every match was scored.
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any, Protocol


class _Server(Protocol):
    base: str

    def cpu(self) -> float: ...


def _request(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any, int]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            raw = resp.read()
            return resp.status, json.loads(raw), len(raw)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), 0


def _pct(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)


def run(servers: Sequence[_Server], tables: int, *, rounds: int = 1, deals: int = 1,
        level: str = "greedy", bot_delay: float = 0.6, poll: float = 0.5,
        timeout: float = 3600.0) -> dict[str, Any]:
    """Play one tournament of ``tables`` tables on ``servers`` (read in turn by the
    polling client) and return the figures (see the module docstring).

    Raises:
        RuntimeError: the tournament could not be made or started, or did not end within
            ``timeout`` seconds.
    """
    base = servers[0].base
    status, made, _ = _request(base, "POST", "/api/tournaments", {
        "name": "load", "players": 4, "tables": tables, "rounds": rounds, "deals": deals,
        "clock": 0, "level": level, "deal_pause": 0})
    if status != 201:
        raise RuntimeError(f"could not create the tournament: {status} {made}")
    tid = made["tournament"]
    cpu0 = [s.cpu() for s in servers]
    started = time.monotonic()
    status, answer, _ = _request(base, "POST", f"/api/tournaments/{tid}/start",
                                 {"token": made["host_token"]})
    if status != 200:
        raise RuntimeError(f"could not start the tournament: {status} {answer}")
    latencies: list[float] = []
    sizes: list[int] = []
    created_s = None
    round_at = {1: started}
    view: dict[str, Any] = answer
    n = 0
    while view.get("status") != "over":
        if time.monotonic() - started > timeout:
            raise RuntimeError(f"the tournament did not end in {timeout} s")
        time.sleep(poll)
        server = servers[n % len(servers)]
        n += 1
        t0 = time.perf_counter()
        status, got, size = _request(server.base, "GET", f"/api/tournaments/{tid}")
        if status != 200:
            continue  # counted as nothing: a server busy past the timeout says so in the log
        latencies.append((time.perf_counter() - t0) * 1000)
        sizes.append(size)
        view = got
        now = time.monotonic()
        first = [tb for m in view["schedule"][0]["matches"] for tb in m["tables"]]
        if created_s is None and all(tb["table"] for tb in first):
            created_s = now - started
        round_at.setdefault(int(view["round"]), now)
    elapsed = time.monotonic() - started
    cpu = [(s.cpu() - c) / elapsed for s, c in zip(servers, cpu0, strict=True)]
    marks = [round_at[r] for r in sorted(round_at)] + [started + elapsed]
    expected = tables // 2 * deals * rounds
    return {
        "tournament": tid, "tables": tables, "processes": len(servers), "rounds": rounds,
        "deals": deals, "level": level, "bot_delay": bot_delay,
        "seconds": round(elapsed, 1),
        "tables_created_s": None if created_s is None else round(created_s, 2),
        "round_s": [round(b - a, 1) for a, b in zip(marks, marks[1:], strict=False)],
        "most_moves_per_s": round(tables / bot_delay, 1),
        "view_p50_ms": _pct(latencies, 50), "view_p95_ms": _pct(latencies, 95),
        "view_bytes": max(sizes) if sizes else 0, "view_samples": len(latencies),
        "deal_pairs": len(view["results"]), "deal_pairs_expected": expected,
        "standings": len(view["standings"]),
        "server_cpu": [round(c, 2) for c in cpu],
        "table_ids": [tb["table"] for r in view["schedule"] for m in r["matches"]
                      for tb in m["tables"] if tb["table"]],
    }
