"""Leases (which process plays a table's bots and runs its clock) and the expiry of tables:
the part of :class:`canasta.web.storage.store.Store` that the processes of one database use to
share the work (:mod:`canasta.web.cluster.cluster`).

Every statement here that updates several tables' rows locks them first in the order of
their ids (PostgreSQL ``SELECT ... ORDER BY id FOR UPDATE``), as the group commit of moves
does: two statements locking rows in different orders could wait for each other (a
deadlock, which PostgreSQL breaks by failing one of them: seen under load before this).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import Any, cast

from sqlalchemy import Table, and_, delete, or_, select, update
from sqlalchemy.engine import Connection, Engine

from canasta.web.storage.models import ActionRow, HandRow, SeatRow, TableRow, now

_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_H = cast(Table, HandRow.__table__)
_A = cast(Table, ActionRow.__table__)


class Leases:
    """Lease and expiry statements (mixed into :class:`canasta.web.storage.store.Store`)."""

    engine: Engine
    dialect: str

    def _locked(self, c: Connection, cond: Any) -> list[str]:
        """The ids of the tables matching ``cond``, their rows locked in the order of their
        ids (PostgreSQL): every statement that updates several tables' rows locks them in
        that one order, so that two of them never wait for each other (a deadlock)."""
        q = select(_T.c.id).where(cond).order_by(_T.c.id)
        if self.dialect == "postgresql":
            q = q.with_for_update()
        return list(c.scalars(q))

    def claim(self, owner: str, table_ids: Iterable[str], seconds: float) -> list[str]:
        """Take the lease of each table that is free, run out or already ``owner``'s, for
        ``seconds``; returns the ids now held by ``owner``."""
        ids = list(table_ids)
        if not ids:
            return []
        stamp = now()
        with self.engine.begin() as c:
            free = self._locked(c, and_(
                _T.c.id.in_(ids),
                or_(_T.c.owner.is_(None), _T.c.owner == owner, _T.c.lease_until < stamp)))
            if free:
                c.execute(update(_T).where(_T.c.id.in_(free)).values(
                    owner=owner, lease_until=stamp + _dt.timedelta(seconds=seconds)))
            return free

    def renew(self, owner: str, seconds: float) -> set[str]:
        """Extend every lease ``owner`` holds; returns the ids it holds (one it lost to
        another process after running out is not among them)."""
        with self.engine.begin() as c:
            held = self._locked(c, _T.c.owner == owner)
            if held:
                c.execute(update(_T).where(_T.c.id.in_(held))
                          .values(lease_until=now() + _dt.timedelta(seconds=seconds)))
            return set(held)

    def release(self, owner: str | None, table_ids: Iterable[str] | None = None) -> None:
        """Give up ``owner``'s leases (all of them, or of ``table_ids``); ``owner`` None:
        every process's (one process alone on the database at start-up)."""
        cond = _T.c.owner == owner if owner is not None else _T.c.owner.is_not(None)
        if table_ids is not None:
            cond = and_(cond, _T.c.id.in_(list(table_ids)))
        with self.engine.begin() as c:
            held = self._locked(c, cond)
            if held:
                c.execute(update(_T).where(_T.c.id.in_(held))
                          .values(owner=None, lease_until=None))

    def orphans(self, limit: int = 50) -> list[str]:
        """Tables in play whose bots are to move and that no process plays (no lease, or one
        that ran out), oldest change first."""
        with self.engine.connect() as c:
            return list(c.scalars(
                select(_T.c.id).where(
                    _T.c.status == "playing", _T.c.turn == "bot",
                    or_(_T.c.owner.is_(None), _T.c.lease_until < now()))
                .order_by(_T.c.updated_at).limit(limit)))

    def expire(self, finished_before: _dt.datetime,
               abandoned_before: _dt.datetime) -> list[str]:
        """Delete the tables whose match ended before ``finished_before`` and those in play
        with no change since ``abandoned_before`` (with their seats, hands and actions);
        returns their ids."""
        cond = or_(and_(_T.c.status == "over", _T.c.updated_at < finished_before),
                   and_(_T.c.status != "over", _T.c.updated_at < abandoned_before))
        with self.engine.begin() as c:
            ids = list(c.scalars(select(_T.c.id).where(cond)))
            for chunk in range(0, len(ids), 500):
                part = ids[chunk:chunk + 500]
                # children first: SQLite enforces the cascade only with foreign_keys on
                c.execute(delete(_A).where(_A.c.table_id.in_(part)))
                c.execute(delete(_H).where(_H.c.table_id.in_(part)))
                c.execute(delete(_S).where(_S.c.table_id.in_(part)))
                c.execute(delete(_T).where(_T.c.id.in_(part)))
            return ids

