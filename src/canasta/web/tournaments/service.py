"""Duplicate tournaments, run by the server: created with a schedule, joined by link, started
by the host or at their start time, and advanced round by round.

What a tournament is lives in the database (:mod:`canasta.web.tournaments.store`), never in a
process's memory: every process answers about it, and every process looks at the tournaments
in play every :attr:`TournamentService.tick` seconds (:meth:`TournamentService.step`): it
starts one whose time has come (bots take the seats nobody took), creates a round's tables
that are missing, deals the next deal at a table whose hand has been scored for
``deal_pause`` seconds, and once every table of the round is over moves to the next round
(or ends the tournament). Each of these is safe when two processes do it at once: the round
moves by one ``UPDATE ... WHERE round = :seen``, a table's id is fixed by the schedule (a
second insert fails) and a deal is stored against the table's version.

The tables are ordinary tables of the server (:mod:`canasta.web.play`): a person's seat token
is their tournament token, hands are dealt from the tournament's deals (committed before the
tournament starts: :mod:`canasta.core.dealproof`) through ``TableManager.deal_source``, a
table stops after the round's deals (``TableSettings.hands``), and its bots play whether or
not a person is watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from typing import Any

from canasta.core.dealproof import DealProof
from canasta.core.rules import Rules, RulesError, load_preset
from canasta.formats.jsondoc import Reader
from canasta.formats.records import RecordError
from canasta.i18n.catalogue import t as text
from canasta.web.dispatch import Context, Dispatcher
from canasta.web.play.game import rules_json
from canasta.web.play.seats import Seat, Table, hash_token
from canasta.web.play.settings import TableSettings, default_level
from canasta.web.play.tables import TableManager
from canasta.web.protocol.errors import WebError
from canasta.web.storage.store import Store
from canasta.web.tournaments.messages import (
    CreateTournament,
    JoinTournament,
    StartTournament,
    TournamentRecord,
    ViewTournament,
)
from canasta.web.tournaments.schedule import TablePlan, pairings, placements, tables_of_round
from canasta.web.tournaments.scoring import DealPair, compare_deal, hand_totals, standings
from canasta.web.tournaments.store import Entrant, TableEntry, Tournament, TournamentStore

log = logging.getLogger("canasta.web")
RECORD_FORMAT = "canasta-tournament"


def table_id_of(tournament_id: str, round_: int, number: int) -> str:
    """The id of table ``number`` of round ``round_`` (fixed by the schedule, so that two
    processes creating it make one table)."""
    return f"{tournament_id}r{round_}t{number}"


def _unknown() -> WebError:
    return WebError("not-found", "there is no such tournament")


class TournamentService:
    """The tournaments' requests and their upkeep, in one process.

    Args:
        manager: the process's tables.
        store: the database.
    """

    #: Seconds between looks at the tournaments in play.
    tick = 1.0

    def __init__(self, manager: TableManager, store: Store) -> None:
        self.manager = manager
        self.rows = TournamentStore(store)
        self._task: asyncio.Task[None] | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        manager.deal_source = self.deal_for

    def register(self, dispatcher: Dispatcher) -> None:
        dispatcher.register(CreateTournament, self.create)
        dispatcher.register(JoinTournament, self.join)
        dispatcher.register(StartTournament, self.start)
        dispatcher.register(ViewTournament, self.view)
        dispatcher.register(TournamentRecord, self.record)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.manager.db(fn, *args)

    async def _load(self, tournament_id: str) -> Tournament:
        t: Tournament | None = await self._db(self.rows.load, tournament_id)
        if t is None:
            raise _unknown()
        return t

    # -- life ------------------------------------------------------------------------------
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def begin(self) -> None:
        """Start looking at the tournaments in play (once per process)."""
        if not self.running():
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def end(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            try:
                ids = await self._db(self.rows.running)
            except Exception:  # noqa: BLE001 - the database may come back
                log.exception("tournaments: could not list those in play")
                continue
            for tid in ids:
                try:
                    await self.step(tid)
                except Exception:  # noqa: BLE001 - one tournament must not stop the others
                    log.exception("tournament %s: the step failed", tid)

    # -- requests --------------------------------------------------------------------------
    async def create(self, req: CreateTournament, ctx: Context) -> dict[str, Any]:
        """A new tournament; its host's token comes back once."""
        self.begin()
        options = dict(req.options or {})
        try:
            rules = load_preset(req.variant, options)
        except RulesError as exc:
            raise WebError("bad-rules", f"'options': {exc}") from None
        if req.players not in rules.deal.player_counts:
            counts = ", ".join(map(str, rules.deal.player_counts))
            raise WebError("bad-rules", f"'players': {rules.name} is played by {counts} "
                                        f"players, not {req.players}")
        try:
            sides = rules.teams(req.players, req.team_size)
        except RulesError as exc:
            raise WebError("bad-rules", f"'team_size': {exc}") from None
        if len(sides) != 2:
            raise WebError("bad-rules", f"'players': a duplicate tournament needs two sides, "
                                        f"and {req.players} players make {len(sides)}")
        tid = secrets.token_urlsafe(9)
        host = secrets.token_urlsafe(18)
        settings = {"tables": req.tables, "rounds": req.rounds, "deals": req.deals,
                    "clock": req.clock, "level": req.level or default_level(),
                    "deal_pause": req.deal_pause, "side_seats": len(sides[0])}
        name = (req.name or "").strip()[:80] or text("tourney.default_name", req.lang)
        t = Tournament(tid, name, rules.name, options, req.players, req.team_size,
                       rules_json(rules), settings, "open", 0, req.starts_at,
                       hash_token(host), time.time())
        deals = []
        for r in range(1, req.rounds + 1):
            for n in range(req.deals):
                proof = DealProof.fresh()
                deals.append((r, n, proof.seed, proof.nonce))
        await self._db(self.rows.create, t, deals)
        return {"tournament": tid, "host_token": host,
                "path": f"/tournaments/{tid}#host={host}", "join_path": f"/tournaments/{tid}"}

    async def join(self, req: JoinTournament, ctx: Context) -> dict[str, Any]:
        """A seat of a team for a person; their token is their seat's at every table."""
        self.begin()
        for _attempt in range(5):
            t = await self._load(req.tournament)
            if t.status != "open":
                raise WebError("not-allowed", "the tournament has started: entries are closed")
            team, slot = self._free_slot(t, req.team)
            people = sum(e.kind == "human" for e in t.entrants)
            name = " ".join((req.name or "").split())[:40] or text("ui.player_n", req.lang,
                                                                   n=people + 1)
            token = secrets.token_urlsafe(18)
            entrant = Entrant(team, slot, name, "human", t.settings["level"],
                              hash_token(token), req.account)
            if await self._db(self.rows.join, t.id, entrant):
                return {"tournament": t.id, "team": team, "slot": slot, "name": name,
                        "token": token, "path": f"/tournaments/{t.id}#entrant={token}"}
        raise WebError("not-allowed", "this seat was just taken: try again")

    @staticmethod
    def _free_slot(t: Tournament, team: int | None) -> tuple[int, int]:
        tables = int(t.settings["tables"])
        size = 2 * int(t.settings["side_seats"])
        taken = {(e.team, e.slot) for e in t.entrants}
        if team is not None:
            if team >= tables:
                raise WebError("not-found", f"'team': this tournament has teams 0 to "
                                            f"{tables - 1}")
            free = [s for s in range(size) if (team, s) not in taken]
            if not free:
                raise WebError("not-allowed", f"team {team + 1} is full")
            return team, free[0]
        for n in range(tables):  # a team of its own, while there is one
            if not any(e.team == n for e in t.entrants):
                return n, 0
        for n in range(tables):
            for s in range(size):
                if (n, s) not in taken:
                    return n, s
        raise WebError("not-allowed", "the tournament is full")

    async def start(self, req: StartTournament, ctx: Context) -> dict[str, Any]:
        """The host starts the tournament now: bots take the free seats."""
        self.begin()
        t = await self._load(req.tournament)
        if not hmac.compare_digest(t.host_hash, hash_token(req.token)):
            raise WebError("bad-token", "this is not the host's token")
        if t.status != "open":
            raise WebError("not-allowed", "the tournament has already started")
        async with self._lock(t.id):
            await self._start(t)
        return await self._view(await self._load(t.id), req.token)

    async def view(self, req: ViewTournament, ctx: Context) -> dict[str, Any]:
        self.begin()
        return await self._view(await self._load(req.tournament), req.token)

    async def record(self, req: TournamentRecord, ctx: Context) -> dict[str, Any]:
        """The record: settings, teams, every table with its record's link, each deal's
        comparison, the standings and the deals (their secrets once their round is over)."""
        t = await self._load(req.tournament)
        doc = await self._view(t, None)
        doc.pop("you", None)
        doc.pop("host", None)
        return {"format": RECORD_FORMAT, "version": 1, **doc}

    # -- the deals of a tournament's tables ------------------------------------------------
    async def deal_for(self, table: Table, number: int) -> DealProof | None:
        """The secrets of hand ``number`` of a tournament's table (``deal_source``)."""
        if not table.settings.tournament:
            return None
        found = await self._db(self.rows.deal, table.id, number)
        return None if found is None else DealProof(*found)

    # -- upkeep ----------------------------------------------------------------------------
    def _lock(self, tid: str) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    async def step(self, tid: str) -> None:
        """Move tournament ``tid`` on as far as it can go now (see the module docstring)."""
        async with self._lock(tid):
            t = await self._load(tid)
            if t.status == "open":
                if t.starts_at is not None and t.starts_at <= time.time():
                    await self._start(t)
                return
            if t.status != "playing":
                return
            current = [e for e in t.tables if e.round == t.round]
            if any(e.status is None for e in current):
                await self._create_tables(t, current)
                return
            if current and all(e.status == "over" for e in current):
                await self._next_round(t)
                return
            pause = float(t.settings.get("deal_pause", 0))
            for e in current:
                if e.turn == "deal" and time.time() - e.at >= pause:
                    with contextlib.suppress(WebError):
                        await self.manager.deal_next(e.table_id)

    async def _start(self, t: Tournament) -> None:
        size = 2 * int(t.settings["side_seats"])
        taken = {(e.team, e.slot) for e in t.entrants}
        level = str(t.settings["level"])
        bots = [Entrant(n, s, f"Bot {n + 1}.{s + 1}", "bot", level)
                for n in range(int(t.settings["tables"])) for s in range(size)
                if (n, s) not in taken]
        tables = self._plan(t, 1)
        if await self._db(self.rows.advance, t.id, 0, 1, "playing", bots, tables):
            t = await self._load(t.id)
            await self._create_tables(t, [e for e in t.tables if e.round == 1])

    def _plan(self, t: Tournament, round_: int) -> list[TableEntry]:
        return [TableEntry(round_, p.number, table_id_of(t.id, round_, p.number), p.side0,
                           p.side1) for p in tables_of_round(int(t.settings["tables"]), round_)]

    async def _next_round(self, t: Tournament) -> None:
        nxt = t.round + 1
        if nxt > int(t.settings["rounds"]):
            await self._db(self.rows.advance, t.id, t.round, t.round, "over", [], [])
            return
        if await self._db(self.rows.advance, t.id, t.round, nxt, "playing", [],
                          self._plan(t, nxt)):
            t = await self._load(t.id)
            await self._create_tables(t, [e for e in t.tables if e.round == nxt])

    async def _create_tables(self, t: Tournament, entries: list[TableEntry]) -> None:
        rules = _rules_of(t)
        deals = {n: DealProof(seed, nonce)
                 for _r, n, seed, nonce in await self._db(self.rows.deals, t.id, t.round)}
        sides = rules.teams(t.players, t.team_size)
        who = {(e.team, e.slot): e for e in t.entrants}
        settings = TableSettings(clock=float(t.settings["clock"]),
                                 level=str(t.settings["level"]), hints=False, undo=False,
                                 public=False, hands=int(t.settings["deals"]),
                                 tournament=t.id)

        async def make(e: TableEntry) -> None:
            seats = []
            for p in placements(TablePlan(e.number, e.side0, e.side1), sides):
                person = who[(p.team, p.slot)]
                seats.append(Seat(p.seat, person.kind, person.kind, person.level,
                                  person.name, person.token_hash))
            try:
                await self.manager.new_table(rules, t.variant, dict(t.options), t.players,
                                             t.team_size, seats, settings, e.table_id,
                                             deals.get(0))
            except WebError:
                raise
            except Exception as exc:  # noqa: BLE001 - another process made it first
                log.info("tournament %s: table %s not created here (%s)", t.id, e.table_id,
                         type(exc).__name__)

        await asyncio.gather(*(make(e) for e in entries if e.status is None))

    # -- what the page shows ---------------------------------------------------------------
    async def _view(self, t: Tournament, token: str | None) -> dict[str, Any]:
        tables = int(t.settings["tables"])
        rounds = int(t.settings["rounds"])
        size = 2 * int(t.settings["side_seats"])
        ids = [e.table_id for e in t.tables]
        sheets = await self._db(self.rows.sheets, ids)
        pairs = _deal_pairs(t, sheets)
        by_round: dict[int, list[TableEntry]] = {}
        for e in t.tables:
            by_round.setdefault(e.round, []).append(e)
        schedule = []
        for r in range(1, rounds + 1):
            made = {e.number: e for e in by_round.get(r, [])}
            matches = []
            for k, (a, b) in enumerate(pairings(tables, r)):
                matches.append({"match": k, "a": a, "b": b, "tables": [
                    _table_json(made.get(n), n, sheets) for n in (2 * k, 2 * k + 1)]})
            schedule.append({"round": r, "matches": matches})
        teams = []
        for n in range(tables):
            members = [{"slot": e.slot, "squad": e.slot // (size // 2), "name": e.name,
                        "kind": e.kind} for e in t.entrants if e.team == n]
            teams.append({"team": n, "members": members, "free": size - len(members)})
        finished = t.round if t.status == "over" else t.round - 1
        deals = []
        for r, n, seed, nonce in await self._db(self.rows.deals, t.id):
            proof = DealProof(seed, nonce)
            item: dict[str, Any] = {"round": r, "deal": n, "commitment": proof.commitment}
            if r <= finished:
                item.update(seed=seed, nonce=nonce)
            deals.append(item)
        return {
            "type": "tournament", "tournament": t.id, "name": t.name, "variant": t.variant,
            "options": t.options, "players": t.players, "team_size": t.team_size,
            "status": t.status, "round": t.round, "rounds": rounds, "tables": tables,
            "deals_per_round": int(t.settings["deals"]), "clock": t.settings["clock"],
            "level": t.settings["level"], "deal_pause": t.settings.get("deal_pause", 0),
            "starts_at": t.starts_at, "created_at": t.created_at, "seats_per_team": size,
            "teams": teams, "schedule": schedule,
            "results": [p.to_json() for p in pairs],
            "standings": [s.to_json() for s in standings(tables, pairs)],
            "deals": deals, "you": _you(t, token),
            "host": bool(token) and hmac.compare_digest(t.host_hash, hash_token(token or "")),
        }


def _rules_of(t: Tournament) -> Rules:
    """The rules pinned when the tournament was made."""
    doc = {"variant": t.variant, "options": dict(t.rules.get("options") or {}),
           "rules": t.rules.get("rules")}
    return Reader(f"tournament {t.id}", RecordError).rules(doc)


def _table_json(e: TableEntry | None, number: int,
                sheets: dict[str, dict[int, list[dict[str, Any]]]]) -> dict[str, Any]:
    if e is None:
        return {"number": number, "table": None, "status": None}
    return {"number": number, "table": e.table_id, "status": e.status, "side0": e.side0,
            "side1": e.side1, "hands_done": len(sheets.get(e.table_id, {})),
            "path": f"/t/{e.table_id}", "record": f"/api/tables/{e.table_id}/record"}


def _deal_pairs(t: Tournament, sheets: dict[str, dict[int, list[dict[str, Any]]]]
                ) -> list[DealPair]:
    """Every deal finished at both tables of its match, by round, match and deal."""
    out = []
    entries = {(e.round, e.number): e for e in t.tables}
    for (r, n), first in sorted(entries.items()):
        second = entries.get((r, n + 1))
        if n % 2 or second is None:
            continue
        a_hands = sheets.get(first.table_id, {})
        b_hands = sheets.get(second.table_id, {})
        for deal in sorted(set(a_hands) & set(b_hands)):
            try:
                out.append(compare_deal(r, n // 2, deal, first.side0, first.side1,
                                        hand_totals(a_hands[deal]), hand_totals(b_hands[deal])))
            except ValueError:
                log.warning("tournament %s: deal %d of table %s has unreadable sheets", t.id,
                            deal, first.table_id)
    return out


def _you(t: Tournament, token: str | None) -> dict[str, Any] | None:
    """The entrant of ``token``: their team, seat of the team, and table in play."""
    if not token:
        return None
    digest = hash_token(token)
    me = next((e for e in t.entrants if e.token_hash
               and hmac.compare_digest(e.token_hash, digest)), None)
    if me is None:
        return None
    squad = me.slot // int(t.settings["side_seats"])
    table = next((e for e in t.tables if e.round == t.round and e.number % 2 == squad
                  and me.team in (e.side0, e.side1)), None)
    return {"team": me.team, "slot": me.slot, "name": me.name, "squad": squad,
            "table": None if table is None else table.table_id,
            "path": None if table is None else f"/t/{table.table_id}#seat={token}"}
