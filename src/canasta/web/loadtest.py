"""The load benchmark of the table server: bot-only tables and one spectator each, on loopback.

``python -m canasta.web.loadtest --tables N --processes P [--seconds S] [--db URL]
[--redis URL]`` starts P server processes (``python -m canasta.web``; several need
PostgreSQL and Redis), creates N four-player tables spread over them, gives every seat to a
bot, opens one spectator WebSocket per table on the process that created it, and for S
seconds (after a warm-up) measures:

- the latency of each move: from the moment the server accepted it (``"at"`` of the state
  message, the server's clock) to its arrival at the spectator (this process's clock, the
  same machine), as p50, p95 and p99 in milliseconds;
- the bot moves per second (from the versions the spectators see), against the most the
  tables could make (N / bot delay);
- the CPU seconds each server process used per second of the run.

When a hand ends the benchmark deals the next (as a seated person would, through the API),
and a table whose match ended is replaced by a new one. It then stops the servers and
removes what it made: the SQLite file, or the PostgreSQL database it created next to
``--db`` (a fresh one per run, dropped at the end), and nothing stays in Redis (pub/sub
keeps nothing).

``--rated K`` makes the first K tables rated matches (canasta.web.accounts): each is created
by an account of its own (registered at the start, signed in with its cookies), its person's
seat then given to a bot like the others'; when such a match ends, the benchmark asks for its
standing, which settles it (the ratings move once, whichever process is asked), and the
account starts the next rated match. The figures add the rated matches settled, the
milliseconds of each settling request, and of reading the leaderboard at the end.
``--tournament`` plays one duplicate tournament of N tables instead, every seat a bot, to its
standings (:mod:`canasta.web.tournaments.load`: the seconds to make its tables and to play
each round, the moves per second, the latency of reading its results).

``--hostile`` measures the same tables again for as long beside one hostile client
(:mod:`canasta.web.hostile`: six threads sending the requests that cost real work as fast
as they can, and 64 WebSockets, from an address of their own) and prints both phases'
latencies, their ratio and how the hostile requests were answered (served or ``429``).

The bots are ``greedy`` by default (``--level``): the cheapest bot that plays real canasta,
so that the figures measure the server (storing, broadcasting, the views) rather than a
search; a level that searches costs its thinking on top (in the server's bot threads).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.web.hostile import ADDRESS

_VERSION = re.compile(r'"version": (\d+), "at": ([0-9.]+)')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(base: str, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


class Server:
    """One ``python -m canasta.web`` process."""

    def __init__(self, db: str, redis: str | None, prefix: str, bot_delay: float,
                 log: Path, extra: list[str] | None = None) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cluster = ["--redis", redis, "--prefix", prefix] if redis else []
        # every table of the load comes from this one address: no per-address limit
        # applies to it (canasta.web.protocol.limits), while any other address (the hostile
        # client's) meets the server's real limits
        env = {**os.environ, "CANASTA_LIMITS_EXEMPT": "127.0.0.1"}
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canasta.web", "--port", str(self.port), "--db", db,
             "--bot-delay", str(bot_delay), "--log-level", "warning", *cluster,
             *(extra or [])],
            stdout=open(log, "ab"), stderr=subprocess.STDOUT, env=env)  # noqa: SIM115

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see "
                                   f"{self.log}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/api/variants", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def cpu(self) -> float:
        """CPU seconds (user + system) the process has used."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Account:
    """A signed-in account of the load (its cookies; every POST with the CSRF token)."""

    def __init__(self, server: Server) -> None:
        import http.cookiejar

        self.base = server.base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = self.call("GET", "/api/accounts/me")[1]["csrf"]
        status, data = self.call("POST", "/api/accounts/register",
                                 {"name": f"load {secrets.token_hex(6)}",
                                  "password": secrets.token_urlsafe(12)})
        if status != 201:
            raise RuntimeError(f"could not register: {status} {data}")

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if method == "POST":
            req.add_header("X-CSRF-Token", self.csrf)
        try:
            with self.opener.open(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")


@dataclass
class Watch:
    """One table and its spectator (and, at a rated table, its account)."""

    server: Server
    table: str
    token: str
    version: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    dealing: bool = False
    account: Account | None = None
    settled: list[float] = field(default_factory=list)


@contextlib.contextmanager
def _database(db: str | None, processes: int, work: Path) -> Iterator[str]:
    """The database of the run: a SQLite file in ``work``, or a new PostgreSQL database
    beside ``db`` (dropped afterwards)."""
    if not db or db.startswith("sqlite"):
        if processes > 1:
            raise SystemExit("several processes need --db postgresql://... and --redis")
        yield db or f"sqlite:///{work / 'load.sqlite3'}"
        return
    import psycopg

    from canasta.web.storage.store import normalise_url

    url = normalise_url(db)
    admin = url.replace("postgresql+psycopg://", "postgresql://")
    name = f"canasta_load_{secrets.token_hex(5)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _new_table(server: Server, level: str,
               account: Account | None = None) -> tuple[str, str]:
    """A four-player table whose seats bots play (the person's seat given to a bot); with
    ``account``, a rated match of that account."""
    if account is None:
        status, data = _request(server.base, "POST", "/api/tables", {
            "variant": "international", "players": 4,
            "seats": [{"type": "human", "name": "Load"}] + [{"type": "bot", "level": level}]
            * 3})
    else:
        status, data = account.call("POST", "/api/accounts/tables", {
            "variant": "international", "players": 4,
            "seats": [{"type": "human"}] + [{"type": "bot", "level": level}] * 3})
    if status != 201:
        raise RuntimeError(f"could not create a table: {status} {data}")
    table, token = data["table"], data["seats"][0]["token"]
    status, answer = _request(server.base, "POST", f"/api/tables/{table}/seats/0/bot",
                              {"token": token, "level": level})
    if status != 200:
        raise RuntimeError(f"could not give the seat to a bot: {status} {answer}")
    return table, token


async def _spectate(watch: Watch, measuring: list[bool], stop: asyncio.Event,
                    level: str) -> None:
    from websockets.asyncio.client import connect

    while not stop.is_set():
        current = watch.table
        url = f"ws://127.0.0.1:{watch.server.port}/ws/{current}"
        async with connect(url, max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            while not stop.is_set() and watch.table == current:
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                now = time.time()
                if not isinstance(text, str):
                    continue
                head = _VERSION.search(text, 0, 200)
                if head is None:
                    continue
                version, at = int(head.group(1)), float(head.group(2))
                if version > watch.version:
                    if measuring[0]:
                        watch.moves += version - watch.version
                        watch.latencies.append(now - at)
                    watch.version = version
                if '"phase": "over"' in text and not watch.dealing:
                    watch.dealing = True
                    asyncio.get_running_loop().create_task(_next(watch, text, level))
        await asyncio.sleep(0)  # the match ended: the new table is spectated


async def _next(watch: Watch, text: str, level: str) -> None:
    """Deal the next hand of a table whose hand ended (a new table once its match is over)."""
    try:
        msg = json.loads(text)
        if msg["match"]["over"]:
            if watch.account is not None:  # the standing settles the rated match
                began = time.monotonic()
                status, info = await asyncio.to_thread(
                    watch.account.call, "GET", f"/api/accounts/tables/{watch.table}")
                if status == 200 and info.get("status") == "settled":
                    watch.settled.append(time.monotonic() - began)
            table, token = await asyncio.to_thread(_new_table, watch.server, level,
                                                   watch.account)
            watch.table, watch.token, watch.version = table, token, 0
            return
        await asyncio.to_thread(_request, watch.server.base, "POST",
                                f"/api/tables/{watch.table}/next-hand",
                                {"token": watch.token, "version": msg["version"]})
    finally:
        watch.dealing = False


def verify(db: str) -> tuple[int, list[str]]:
    """Replay every stored table through the engine (each hand from its deck, its actions
    in version order): (tables checked, those whose history does not replay, or whose
    versions have a gap or a fork)."""
    from canasta.core.match import Match
    from canasta.web.play.game import hand_record_of, rules_of
    from canasta.web.storage.store import Store

    store = Store(db)
    broken = []
    try:
        ids = store.table_ids()
        for table_id in ids:
            data = store.load(table_id)
            rows = store.actions(table_id)
            try:
                assert data is not None
                # versions follow each other; a new hand takes one version of its own
                for (seq, hand, *_), (nxt, nhand, *_) in zip(rows, rows[1:], strict=False):
                    assert nxt - seq == 1 + (nhand - hand), f"versions {seq} -> {nxt}"
                rules = rules_of(data)
                for n in range(len(data.hands)):
                    # each hand replays from its deck; the finished ones end as stored
                    match = Match.resume(rules, data.players,
                                         [hand_record_of(h) for h in data.hands[:n + 1]],
                                         seed=0, team_size=data.team_size)
                    assert match.state.is_over == data.hands[n].finished, f"hand {n}"
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                broken.append(f"{table_id}: {exc}")
    finally:
        store.dispose()
    return len(ids), broken


def _stored_actions(db: str, table_ids: list[str]) -> int:
    """Actions stored at these tables (the moves of a tournament's run)."""
    from canasta.web.storage.store import Store

    store = Store(db)
    try:
        return sum(len(store.actions(t)) for t in table_ids)
    finally:
        store.dispose()


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


async def _run(servers: list[Server], tables: int, seconds: float, warmup: float,
               level: str, bot_delay: float, rated: int = 0,
               hostile: bool = False) -> dict[str, Any]:
    accounts = await asyncio.gather(*[asyncio.to_thread(Account, servers[i % len(servers)])
                                      for i in range(min(rated, tables))])
    made = await asyncio.gather(*[
        asyncio.to_thread(_new_table, servers[i % len(servers)], level,
                          accounts[i] if i < len(accounts) else None)
        for i in range(tables)])
    watches = [Watch(servers[i % len(servers)], t, tok,
                     account=accounts[i] if i < len(accounts) else None)
               for i, (t, tok) in enumerate(made)]
    measuring = [False]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_spectate(w, measuring, stop, level)) for w in watches]
    await asyncio.sleep(warmup)
    cpu0 = [s.cpu() for s in servers]
    mine0 = time.process_time()
    started = time.monotonic()
    measuring[0] = True
    await asyncio.sleep(seconds)
    measuring[0] = False
    elapsed = time.monotonic() - started
    cpu = [(s.cpu() - c) / elapsed for s, c in zip(servers, cpu0, strict=True)]
    mine = (time.process_time() - mine0) / elapsed
    load = os.getloadavg()[0]
    against = await _against_a_hostile_client(servers[0], watches, measuring, seconds) \
        if hostile else {}
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(x * 1000 for w in watches for x in w.latencies)
    moves = sum(w.moves for w in watches)
    settled = sorted(x * 1000 for w in watches for x in w.settled)
    board_ms = float("nan")
    if accounts:
        began = time.monotonic()
        await asyncio.to_thread(accounts[0].call, "GET", "/api/leaderboard/international")
        board_ms = (time.monotonic() - began) * 1000
    return {
        "tables": tables, "processes": len(servers), "seconds": round(elapsed, 1),
        "level": level, "bot_delay": bot_delay, "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "most_moves_per_s": round(tables / bot_delay, 1),
        "p50_ms": round(_quantile(lat, 0.50), 1), "p95_ms": round(_quantile(lat, 0.95), 1),
        "p99_ms": round(_quantile(lat, 0.99), 1), "samples": len(lat),
        "server_cpu": [round(c, 2) for c in cpu], "client_cpu": round(mine, 2),
        "load_average": round(load, 1),
        "rated": len(accounts), "rated_settled": len(settled),
        "settle_p50_ms": round(_quantile(settled, 0.50), 1),
        "leaderboard_ms": round(board_ms, 1),
        **against,
    }


async def _against_a_hostile_client(server: Server, watches: list[Watch],
                                    measuring: list[bool], seconds: float) -> dict[str, Any]:
    """The same tables for ``seconds`` more with a hostile client beside them
    (:mod:`canasta.web.hostile`): the latency of both phases and how its requests fared."""
    from canasta.web.hostile import Hostile, open_sockets

    calm = [w.latencies for w in watches]
    for w in watches:
        w.latencies = []
    client = await asyncio.to_thread(Hostile, server.port, [w.table for w in watches])
    done = asyncio.Event()
    sockets = asyncio.create_task(open_sockets(server.port, watches[0].table, done))
    client.start()
    measuring[0] = True
    await asyncio.sleep(seconds)
    measuring[0] = False
    answered = await asyncio.to_thread(client.stop)
    done.set()
    held = await sockets
    under = [x for w in watches for x in w.latencies]
    for w, kept in zip(watches, calm, strict=True):
        w.latencies = kept
    calm_ms = sorted(x * 1000 for kept in calm for x in kept)
    under_ms = sorted(x * 1000 for x in under)
    calm_p50, calm_p95 = _quantile(calm_ms, 0.50), _quantile(calm_ms, 0.95)
    p50, p95 = _quantile(under_ms, 0.50), _quantile(under_ms, 0.95)
    sent = sum(n for kinds in answered.values() for n in kinds.values())
    return {"calm_p50_ms": round(calm_p50, 1), "calm_p95_ms": round(calm_p95, 1),
            "hostile_p50_ms": round(p50, 1), "hostile_p95_ms": round(p95, 1),
            "hostile_p95_ratio": round(p95 / calm_p95, 2) if calm_p95 else float("nan"),
            "hostile_samples": len(under), "hostile_requests": sent,
            "hostile_requests_per_s": round(sent / seconds, 1),
            "hostile_answers": answered, "hostile_sockets": held}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m canasta.web.loadtest",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50, help="bot-only tables (50)")
    p.add_argument("--processes", type=int, default=1, help="server processes (1)")
    p.add_argument("--seconds", type=float, default=30, help="measured seconds (30)")
    p.add_argument("--warmup", type=float, default=5, help="seconds before measuring (5)")
    p.add_argument("--db", default=None,
                   help="postgresql://... (a fresh database is made beside it); default a "
                        "temporary SQLite file")
    p.add_argument("--redis", default=None, help="redis://... (needed by several processes)")
    p.add_argument("--bot-delay", type=float, default=0.6, help="seconds per bot move (0.6)")
    p.add_argument("--level", default="greedy", help="the bots' level (greedy)")
    p.add_argument("--rated", type=int, default=0,
                   help="of the tables, this many are rated matches of accounts (0)")
    p.add_argument("--no-ws-deflate", action="store_true",
                   help="servers do not compress WebSocket messages")
    p.add_argument("--tournament", action="store_true",
                   help="one duplicate tournament of --tables tables instead")
    p.add_argument("--rounds", type=int, default=1, help="with --tournament: rounds (1)")
    p.add_argument("--deals", type=int, default=1, help="with --tournament: deals a round (1)")
    p.add_argument("--hostile", action="store_true",
                   help="measure again beside one hostile client (canasta.web.hostile)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    a = p.parse_args(argv)
    if a.processes > 1 and not a.redis:
        p.error("several processes need --redis")
    with tempfile.TemporaryDirectory(prefix="canasta-load-") as tmp:
        work = Path(tmp)
        with _database(a.db, a.processes, work) as db:
            prefix = f"canasta_load_{secrets.token_hex(4)}"
            extra = ["--no-ws-deflate"] if a.no_ws_deflate else []
            servers = [Server(db, a.redis, prefix, a.bot_delay, work / f"server{i}.log",
                              extra) for i in range(a.processes)]
            try:
                for server in servers:
                    server.wait_ready()
                if a.tournament:
                    from canasta.web.tournaments import load

                    result = load.run(servers, a.tables, rounds=a.rounds, deals=a.deals,
                                      level=a.level, bot_delay=a.bot_delay)
                    result["moves"] = _stored_actions(db, result.pop("table_ids"))
                    result["moves_per_s"] = round(result["moves"] / result["seconds"], 1)
                else:
                    result = asyncio.run(_run(servers, a.tables, a.seconds, a.warmup,
                                              a.level, a.bot_delay, a.rated, a.hostile))
            finally:
                for server in servers:
                    server.stop()
                lines = [line for server in servers
                         for line in server.log.read_text(errors="replace").splitlines()]
                errors = [line for line in lines if "ERROR" in line or "Traceback" in line]
                if errors:  # the first error with what follows it, for the report
                    at = lines.index(errors[0])
                    sys.stderr.write("\n".join(lines[at:at + 40]) + "\n")
            checked, broken = verify(db)
    result["server_errors"] = len(errors)
    result["tables_replayed"] = checked
    result["tables_broken"] = broken
    if a.json:
        print(json.dumps(result))
    elif a.tournament:
        print(f"tournament of {a.tables} tables, {a.processes} process(es), {a.rounds} "
              f"round(s) of {a.deals} deal(s), bots {a.level} at {a.bot_delay} s a move: "
              f"{result['seconds']} s in all, tables made in {result['tables_created_s']} s, "
              f"rounds {result['round_s']} s; {result['moves_per_s']} bot moves/s of at most "
              f"{result['most_moves_per_s']}; results read in p50 {result['view_p50_ms']} "
              f"ms, p95 {result['view_p95_ms']} ms ({result['view_bytes']} bytes); "
              f"{result['deal_pairs']} of {result['deal_pairs_expected']} deal pairs scored; "
              f"CPU: servers {result['server_cpu']}; {len(errors)} error lines in the logs; "
              f"{checked} stored tables replayed, {len(broken)} broken")
    else:
        print(f"{a.tables} tables, {a.processes} process(es), {result['seconds']} s "
              f"(bots {a.level}, {a.bot_delay} s per move): {result['moves_per_s']} bot "
              f"moves/s of at most {result['most_moves_per_s']}; move to spectator "
              f"p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, p99 "
              f"{result['p99_ms']} ms ({result['samples']} samples); CPU: servers "
              f"{result['server_cpu']}, this client {result['client_cpu']} cores; load "
              f"average {result['load_average']}; {len(errors)} error lines in the logs; "
              f"{checked} stored tables replayed, {len(broken)} broken")
        if a.hostile:
            print(f"beside one hostile client ({result['hostile_requests_per_s']} requests/s "
                  f"from {ADDRESS}; answers {result['hostile_answers']}; WebSockets "
                  f"{result['hostile_sockets']}): move to spectator p50 "
                  f"{result['hostile_p50_ms']} ms, p95 {result['hostile_p95_ms']} ms "
                  f"({result['hostile_samples']} samples), {result['hostile_p95_ratio']}x "
                  f"the calm p95 of {result['calm_p95_ms']} ms")
        if result["rated"]:
            print(f"rated: {result['rated']} accounts, {result['rated_settled']} matches "
                  f"settled (p50 {result['settle_p50_ms']} ms a settling request), "
                  f"leaderboard read in {result['leaderboard_ms']} ms")
    return result


if __name__ == "__main__":
    main()
