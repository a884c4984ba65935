"""A duplicate tournament in the database (synchronous; called in the server's database
threads). Every process reads the same rows: the round in play is advanced by an
``UPDATE ... WHERE round = :seen`` that one process wins, in the transaction that writes the
next round's tables (:meth:`TournamentStore.advance`)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from canasta.web.storage.models import HandRow, TableRow, now
from canasta.web.storage.store import Store, epoch_of
from canasta.web.storage.tournament_rows import (
    EntrantRow,
    TournamentDealRow,
    TournamentRow,
    TournamentTableRow,
)

_TO = cast(Table, TournamentRow.__table__)
_EN = cast(Table, EntrantRow.__table__)
_DE = cast(Table, TournamentDealRow.__table__)
_TT = cast(Table, TournamentTableRow.__table__)
_T = cast(Table, TableRow.__table__)
_H = cast(Table, HandRow.__table__)


@dataclass
class Entrant:
    team: int
    slot: int
    name: str
    kind: str
    level: str
    token_hash: str | None = None
    account_id: str | None = None


@dataclass
class TableEntry:
    """A table of a round, with its state from ``canasta_tables`` (``status`` None: not
    created yet)."""

    round: int
    number: int
    table_id: str
    side0: int
    side1: int
    status: str | None = None
    turn: str = ""
    at: float = 0.0


@dataclass
class Tournament:
    id: str
    name: str
    variant: str
    options: dict[str, Any]
    players: int
    team_size: int | None
    rules: dict[str, Any]
    settings: dict[str, Any]
    status: str
    round: int
    starts_at: float | None
    host_hash: str
    created_at: float
    entrants: list[Entrant] = field(default_factory=list)
    tables: list[TableEntry] = field(default_factory=list)


class TournamentStore:
    """The tournaments of one database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, t: Tournament, deals: Sequence[tuple[int, int, str, str]]) -> None:
        """Insert a tournament and the secrets of its deals ``(round, number, seed,
        nonce)``."""
        stamp = now()
        with self.engine.begin() as c:
            c.execute(insert(_TO).values(
                id=t.id, created_at=stamp, updated_at=stamp, name=t.name, variant=t.variant,
                options=t.options, players=t.players, team_size=t.team_size, rules=t.rules,
                settings=t.settings, status=t.status, round=0, host_hash=t.host_hash,
                starts_at=None if t.starts_at is None else _stamp(t.starts_at)))
            c.execute(insert(_DE), [{"tournament_id": t.id, "round": r, "number": n,
                                     "seed": seed, "nonce": nonce}
                                    for r, n, seed, nonce in deals])

    def load(self, tournament_id: str) -> Tournament | None:
        """The tournament with its entrants and every table so far, each with its state."""
        with self.engine.connect() as c:
            row = c.execute(select(_TO).where(_TO.c.id == tournament_id)).first()
            if row is None:
                return None
            t = Tournament(row.id, row.name, row.variant, dict(row.options), row.players,
                           row.team_size, dict(row.rules), dict(row.settings), row.status,
                           row.round, None if row.starts_at is None else epoch_of(row.starts_at),
                           row.host_hash, epoch_of(row.created_at))
            t.entrants = [Entrant(e.team, e.slot, e.name, e.kind, e.level, e.token_hash,
                                  e.account_id)
                          for e in c.execute(select(_EN).where(_EN.c.tournament_id == t.id)
                                             .order_by(_EN.c.team, _EN.c.slot))]
            q = (select(_TT, _T.c.status, _T.c.turn, _T.c.updated_at)
                 .join(_T, _T.c.id == _TT.c.table_id, isouter=True)
                 .where(_TT.c.tournament_id == t.id).order_by(_TT.c.round, _TT.c.number))
            t.tables = [TableEntry(r.round, r.number, r.table_id, r.side0, r.side1, r.status,
                                   r.turn or "", epoch_of(r.updated_at) if r.updated_at else 0)
                        for r in c.execute(q)]
            return t

    def join(self, tournament_id: str, entrant: Entrant) -> bool:
        """Insert an entrant at its (team, slot) while the tournament takes entrants;
        False when the slot was just taken or the tournament has started."""
        try:
            with self.engine.begin() as c:
                status = c.execute(select(_TO.c.status).where(_TO.c.id == tournament_id)
                                   .with_for_update()).scalar()
                if status != "open":
                    return False
                c.execute(insert(_EN).values(tournament_id=tournament_id, **vars(entrant)))
        except IntegrityError:
            return False
        return True

    def advance(self, tournament_id: str, seen: int, new_round: int, status: str,
                bots: Sequence[Entrant], tables: Sequence[TableEntry]) -> bool:
        """Move the tournament from round ``seen`` to ``new_round`` with ``status``, adding
        ``bots`` (the free seats, at the start) and the new round's ``tables``, in one
        transaction; False when another process moved it first."""
        with self.engine.begin() as c:
            done = c.execute(update(_TO).where(_TO.c.id == tournament_id,
                                               _TO.c.round == seen,
                                               _TO.c.status != "over")
                             .values(round=new_round, status=status, updated_at=now()))
            if done.rowcount != 1:
                return False
            if bots:
                c.execute(insert(_EN), [{"tournament_id": tournament_id, **vars(b)}
                                        for b in bots])
            if tables:
                c.execute(insert(_TT), [
                    {"tournament_id": tournament_id, "round": e.round, "number": e.number,
                     "table_id": e.table_id, "side0": e.side0, "side1": e.side1}
                    for e in tables])
        return True

    def deal(self, table_id: str, number: int) -> tuple[str, str] | None:
        """The secrets of hand ``number`` of a tournament's table (None: no such deal)."""
        with self.engine.connect() as c:
            q = (select(_DE.c.seed, _DE.c.nonce)
                 .join(_TT, (_TT.c.tournament_id == _DE.c.tournament_id)
                       & (_TT.c.round == _DE.c.round))
                 .where(_TT.c.table_id == table_id, _DE.c.number == number))
            row = c.execute(q).first()
            return None if row is None else (row.seed, row.nonce)

    def deals(self, tournament_id: str, round_: int | None = None
              ) -> list[tuple[int, int, str, str]]:
        """The secrets of round ``round_``'s deals (None: of every round): ``(round,
        number, seed, nonce)``, in order."""
        with self.engine.connect() as c:
            q = select(_DE).where(_DE.c.tournament_id == tournament_id)
            if round_ is not None:
                q = q.where(_DE.c.round == round_)
            return [(r.round, r.number, r.seed, r.nonce)
                    for r in c.execute(q.order_by(_DE.c.round, _DE.c.number))]

    def sheets(self, table_ids: Sequence[str]) -> dict[str, dict[int, list[dict[str, Any]]]]:
        """The score sheets of every finished hand of these tables: table -> hand -> sheets."""
        out: dict[str, dict[int, list[dict[str, Any]]]] = {t: {} for t in table_ids}
        if not table_ids:
            return out
        with self.engine.connect() as c:
            for r in c.execute(select(_H.c.table_id, _H.c.number, _H.c.sheets)
                               .where(_H.c.table_id.in_(list(table_ids)),
                                      _H.c.finished.is_(True))):
                if r.sheets:
                    out[r.table_id][r.number] = list(r.sheets)
        return out

    def running(self, limit: int = 200) -> list[str]:
        """Tournaments in play, and those taking entrants whose start time has come."""
        with self.engine.connect() as c:
            q = (select(_TO.c.id).where(
                (_TO.c.status == "playing")
                | ((_TO.c.status == "open") & (_TO.c.starts_at <= now())))
                .order_by(_TO.c.created_at).limit(limit))
            return list(c.scalars(q))


def _stamp(at: float) -> _dt.datetime:
    return _dt.datetime.fromtimestamp(at, _dt.UTC).replace(tzinfo=None)
