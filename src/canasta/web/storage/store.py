"""Storage of tables: the transactions the table service needs, on SQLite or PostgreSQL.

The database is the truth; a process's memory is a cache of it. A table is its complete rules,
its seats, per hand the deck order, and every accepted action in order, numbered by the table's
``version`` (:mod:`canasta.web.storage.models`). Each accepted action is one inserted row, in
the same transaction as the ``UPDATE ... WHERE version = :seen`` that advances the version: two
writers (two processes) can never both advance it (the row lock of the update serializes them;
the second finds the version moved and is refused with :class:`StorageError`), and a server
killed at any point restarts with every acknowledged move.

A table is taken up again (:meth:`Store.load_live`) from its current hand alone: the finished
hands give their score sheets, never their actions, so loading costs the same in the tenth
hand as in the first. A process that learns another one changed a table reads only what
changed since the version it holds (:meth:`Store.changes_since`).

Bots of a table are played by one process at a time: the ``owner`` of the table's lease
(:meth:`Store.claim`), renewed while it lives and taken over by another process once it has
run out (a process killed with SIGKILL renews nothing).

Migrations are Alembic scripts shipped in ``canasta/web/storage/migrations`` and applied by
:meth:`Store.migrate` at start-up. The tables are prefixed ``canasta_`` and Alembic's
bookkeeping table is ``canasta_alembic_version``, so a shared database is safe to use.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    String,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url

import canasta.web.storage.accounts  # noqa: F401 - its tables join Base.metadata
from canasta.web.storage import (
    chatrows,  # noqa: F401 - the chat's tables, on Base
    tournament_rows,  # noqa: F401 - its tables join Base.metadata
)
from canasta.web.storage.leases import Leases
from canasta.web.storage.models import (
    ActionRow,
    Base,
    Changes,
    FinishedHand,
    HandData,
    HandRow,
    ScorepadRow,
    SeatData,
    SeatRow,
    TableData,
    TableRow,
    now,
)

__all__ = ["MIGRATIONS", "VERSION_TABLE", "Append", "Base", "Changes", "FinishedHand", "HandData",
           "ScorepadRow", "SeatData", "StorageError", "Store", "TableData", "normalise_url"]

MIGRATIONS = Path(__file__).with_name("migrations")
VERSION_TABLE = "canasta_alembic_version"
_now = now  # canasta.web.scorepad's name for it

_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_H = cast(Table, HandRow.__table__)
_A = cast(Table, ActionRow.__table__)


#: The version check of many moves at once (executemany): each row advances only from the
#: version its move was made at; a None turn or status keeps the stored one.
_ADVANCE = (
    update(_T)
    .where(_T.c.id == bindparam("tid"), _T.c.version == bindparam("seen"))
    .values(version=bindparam("new"), updated_at=bindparam("at"),
            turn=func.coalesce(bindparam("turn", type_=String), _T.c.turn),
            status=func.coalesce(bindparam("status", type_=String), _T.c.status))
)


class StorageError(RuntimeError):
    """The database refused a write (another writer advanced the table, or it is gone)."""


@dataclass
class Append:
    """Actions to store at a table (:meth:`Store.append_actions` takes the same values)."""

    table_id: str
    seen: int
    hand: int
    actions: list[tuple[int, str]]
    finished: FinishedHand | None = None
    turn: str | None = None
    at: float | None = None


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs for the psycopg 3 driver, and a bare
    file path for SQLite."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if "://" not in url:
        url = "sqlite:///" + url
    return url


def stamp_of(at: float | None) -> _dt.datetime:
    """A ``time.time()`` value as stored (UTC, no zone); None: now."""
    if at is None:
        return now()
    return _dt.datetime.fromtimestamp(at, _dt.UTC).replace(tzinfo=None)


def epoch_of(stamp: _dt.datetime | None) -> float:
    """A stored time as ``time.time()`` would give it (0 for none)."""
    if stamp is None:
        return 0.0
    return stamp.replace(tzinfo=_dt.UTC).timestamp()


def _seat(r: Any) -> SeatData:
    return SeatData(r.seat, r.kind, r.controller, r.level, r.name, r.token_hash, r.away)


def _hand(h: Any) -> HandData:
    return HandData(h.number, h.dealer, list(h.deck), list(h.scores_before), h.finished,
                    h.end_reason, [], None if h.sheets is None else list(h.sheets),
                    None if h.deal is None else dict(h.deal))


class Store(Leases):
    """The database of tables. Methods are synchronous, each one transaction; the server calls
    them from worker threads.

    Args:
        url: a SQLAlchemy URL (``sqlite:///tables.sqlite3``,
            ``postgresql+psycopg://user@host/db``); see :func:`normalise_url`.
        schema: PostgreSQL only: keep the tables in this schema (created when missing).
        pool_size: PostgreSQL connections kept open (the service's worker threads share
            them).
    """

    def __init__(self, url: str, *, schema: str | None = None, pool_size: int = 8) -> None:
        self.url = normalise_url(url)
        u = make_url(self.url)
        self.dialect = u.get_backend_name()
        kwargs: dict[str, Any] = {}
        if self.dialect == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if u.database and u.database != ":memory:":
                Path(u.database).expanduser().resolve().parent.mkdir(parents=True,
                                                                     exist_ok=True)
        else:
            kwargs["pool_size"] = pool_size
            kwargs["max_overflow"] = pool_size
        self.engine: Engine = create_engine(self.url, pool_pre_ping=True, **kwargs)
        self.schema = schema
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        elif schema:
            if not schema.replace("_", "").isalnum():
                raise ValueError(f"schema name '{schema}': letters, digits and _ only")
            with self.engine.begin() as conn:
                conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')

            def _search_path(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute(f'SET search_path TO "{schema}"')
                cur.close()
                dbapi_conn.commit()

            event.listen(self.engine, "connect", _search_path)
            self.engine.dispose()

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A read that sees one moment of the database across its statements (PostgreSQL
        REPEATABLE READ): a table read while another process stores a move is read before
        or after it, never half. (SQLite serves one process, which never reads a table it
        is writing: its writes wait for the table's lock.)"""
        with self.engine.connect() as c:
            if self.dialect == "postgresql":
                c = c.execution_options(isolation_level="REPEATABLE READ")
            with c.begin():
                yield c

    @property
    def shared(self) -> bool:
        """Whether several processes may use this database at once (PostgreSQL)."""
        return self.dialect != "sqlite"

    # -- schema ----------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``). On PostgreSQL
        an advisory lock lets one of several processes starting together migrate at a time."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(724137)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def dispose(self) -> None:
        self.engine.dispose()

    def drop_schema(self) -> None:
        """Drop the PostgreSQL schema given at construction (tests)."""
        if self.schema and self.dialect != "sqlite":
            with self.engine.begin() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        self.engine.dispose()

    # -- writes ----------------------------------------------------------------------------
    def create_table(self, data: TableData, owner: str | None = None,
                     lease: float = 0.0) -> None:
        """Insert a new table with its seats and its first hand (version 0), its lease held
        by ``owner`` for ``lease`` seconds when given."""
        stamp = stamp_of(data.at or None)
        with self.engine.begin() as c:
            c.execute(insert(_T).values(
                id=data.id, created_at=stamp, updated_at=stamp, variant=data.variant,
                options=data.options, players=data.players, team_size=data.team_size,
                version=data.version, status=data.status, settings=data.settings,
                public=bool(data.settings.get("public")), rules=data.rules, seed=data.seed,
                hand=len(data.hands) - 1, turn=data.turn, owner=owner,
                lease_until=now() + _dt.timedelta(seconds=lease) if owner else None))
            c.execute(insert(_S), [
                {"table_id": data.id, "seat": s.seat, "kind": s.kind,
                 "controller": s.controller, "level": s.level, "name": s.name,
                 "token_hash": s.token_hash, "away": s.away} for s in data.seats])
            for hand in data.hands:
                c.execute(insert(_H).values(
                    table_id=data.id, number=hand.number, dealer=hand.dealer, deck=hand.deck,
                    scores_before=hand.scores_before, finished=hand.finished,
                    end_reason=hand.end_reason, sheets=hand.sheets, deal=hand.deal))

    @staticmethod
    def _advance(c: Connection, table_id: str, seen: int, by: int, at: float | None,
                 **values: Any) -> None:
        values = {k: v for k, v in values.items() if v is not None}
        result = c.execute(
            update(_T).where(_T.c.id == table_id, _T.c.version == seen)
            .values(version=seen + by, updated_at=stamp_of(at), **values))
        if result.rowcount != 1:
            raise StorageError(f"table {table_id} is no longer at version {seen}")

    def append_actions(self, table_id: str, seen: int, hand: int,
                       actions: Sequence[tuple[int, str]],
                       finished: FinishedHand | None = None, turn: str | None = None,
                       at: float | None = None) -> None:
        """Store ``actions`` (seat, text) as versions ``seen + 1 ...`` of the table, and the
        end of the hand when they finished it, in one transaction. ``turn`` is who is to act
        after them (``"bot"``, ``"human"``, ``"deal"``, ``"over"``); ``at`` when they were
        made (``time.time()``; default now).

        Raises:
            StorageError: the table is not at version ``seen``.
        """
        with self.engine.begin() as c:
            self._append(c, Append(table_id, seen, hand, list(actions), finished, turn, at))

    def append_many(self, items: Sequence[Append]) -> list[Exception | None]:
        """Store the moves of several tables in one transaction (one commit, one flush to
        disk: a group commit), with one UPDATE and one INSERT for all of them. When one
        is refused (its table is no longer at the version it was made at), the batch is
        rolled back and each move is stored in its own transaction, so that the others are
        stored all the same. Returns, per item, None or the error that refused it."""
        if len(items) > 1 and len({i.table_id for i in items}) == len(items):
            try:
                with self.engine.begin() as c:
                    # rows locked in the order of their ids, as every statement here does
                    self._append_batch(c, sorted(items, key=lambda i: i.table_id))
                return [None] * len(items)
            except Exception:  # noqa: BLE001 - each one alone tells which failed
                pass
        out: list[Exception | None] = []
        for item in items:
            try:
                with self.engine.begin() as c:
                    self._append(c, item)
                out.append(None)
            except Exception as exc:  # noqa: BLE001 - handed to the move's caller
                out.append(exc)
        return out

    def _append_batch(self, c: Connection, items: Sequence[Append]) -> None:
        result = c.execute(_ADVANCE, [
            {"tid": i.table_id, "seen": i.seen, "new": i.seen + len(i.actions),
             "at": stamp_of(i.at), "turn": i.turn,
             "status": "over" if i.finished is not None and i.finished.match_over else None}
            for i in items])
        if result.rowcount != len(items):
            raise StorageError("a table of the batch is no longer at its version")
        stamp = now()
        c.execute(insert(_A), [
            {"table_id": i.table_id, "seq": i.seen + 1 + k, "hand": i.hand, "seat": seat,
             "action": text, "undone": False, "created_at": stamp}
            for i in items for k, (seat, text) in enumerate(i.actions)])
        for i in items:
            if i.finished is not None:
                self._finish(c, i.table_id, i.finished)

    @staticmethod
    def _finish(c: Connection, table_id: str, finished: FinishedHand) -> None:
        c.execute(update(_H).where(_H.c.table_id == table_id, _H.c.number == finished.number)
                  .values(finished=True, end_reason=finished.end_reason,
                          sheets=finished.sheets))

    def _append(self, c: Connection, item: Append) -> None:
        finished = item.finished
        status = "over" if finished is not None and finished.match_over else None
        self._advance(c, item.table_id, item.seen, len(item.actions), item.at, status=status,
                      turn=item.turn)
        stamp = now()
        c.execute(insert(_A), [
            {"table_id": item.table_id, "seq": item.seen + 1 + i, "hand": item.hand,
             "seat": seat, "action": text, "undone": False, "created_at": stamp}
            for i, (seat, text) in enumerate(item.actions)])
        if finished is not None:
            self._finish(c, item.table_id, finished)

    def append_hand(self, table_id: str, seen: int, hand: HandData,
                    turn: str | None = None, at: float | None = None) -> None:
        """Store a newly dealt hand as version ``seen + 1``.

        Raises:
            StorageError: the table is not at version ``seen``.
        """
        with self.engine.begin() as c:
            self._advance(c, table_id, seen, 1, at, hand=hand.number, turn=turn)
            c.execute(insert(_H).values(
                table_id=table_id, number=hand.number, dealer=hand.dealer, deck=hand.deck,
                scores_before=hand.scores_before, finished=False, end_reason="",
                deal=hand.deal))

    def set_controller(self, table_id: str, seat: int, controller: str, level: str,
                       away: bool = False, turn: str | None = None) -> None:
        with self.engine.begin() as c:
            c.execute(update(_S).where(_S.c.table_id == table_id, _S.c.seat == seat)
                      .values(controller=controller, level=level, away=away))
            if turn is not None:
                c.execute(update(_T).where(_T.c.id == table_id).values(turn=turn))

    def undo_actions(self, table_id: str, seen: int, count: int,
                     at: float | None = None) -> None:
        """Mark the table's last ``count`` actions undone (house rule undo) and advance the
        version by one, in one transaction; undone actions stay stored but are not replayed.

        Raises:
            StorageError: the table is not at version ``seen``, or has fewer actions.
        """
        with self.engine.begin() as c:
            self._advance(c, table_id, seen, 1, at)
            seqs = list(c.scalars(
                select(_A.c.seq).where(_A.c.table_id == table_id, _A.c.undone.is_(False))
                .order_by(_A.c.seq.desc()).limit(count)))
            if len(seqs) != count:
                raise StorageError(f"table {table_id} has fewer than {count} actions")
            c.execute(update(_A).where(_A.c.table_id == table_id, _A.c.seq.in_(seqs))
                      .values(undone=True))

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """A person takes the free seat ``seat`` of a public table.

        Raises:
            StorageError: the seat is not free (someone else took it first).
        """
        with self.engine.begin() as c:
            result = c.execute(
                update(_S).where(_S.c.table_id == table_id, _S.c.seat == seat,
                                 _S.c.kind == "open")
                .values(kind="human", controller="human", away=False, name=name,
                        token_hash=token_hash))
            if result.rowcount != 1:
                raise StorageError(f"seat {seat} of table {table_id} is not free")

    def claim_token(self, table_id: str, seat: int, expected: str, token_hash: str) -> bool:
        """Give ``seat`` of ``table_id`` the token hash ``token_hash`` if it still holds
        ``expected`` (a rematch's seat waiting for its player): whether it was given. One
        update decides, so two processes cannot both give it."""
        with self.engine.begin() as c:
            result = c.execute(
                update(_S).where(_S.c.table_id == table_id, _S.c.seat == seat,
                                 _S.c.token_hash == expected)
                .values(token_hash=token_hash))
            return bool(result.rowcount == 1)

    def claim_rematch(self, table_id: str, new_id: str | None) -> str | None:
        """Name ``new_id`` the rematch of ``table_id`` unless a rematch is named already
        (by another process asked at the same moment); returns the rematch's id. ``None``
        as ``new_id`` releases the claim (its table could not be made). The row is locked
        by an update before it is read, so two processes asking at once agree on one id."""
        with self.engine.begin() as c:
            c.execute(update(_T).where(_T.c.id == table_id).values(version=_T.c.version))
            stored = c.execute(select(_T.c.settings).where(_T.c.id == table_id)).scalar()
            settings = dict(stored or {})
            if new_id is not None and settings.get("rematch"):
                return str(settings["rematch"])
            settings["rematch"] = new_id
            c.execute(update(_T).where(_T.c.id == table_id).values(settings=settings))
            return new_id

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(update(_T).where(_T.c.id == table_id)
                      .values(settings=settings, public=bool(settings.get("public"))))

    # -- reads -----------------------------------------------------------------------------
    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables in play with a free seat, newest first: ``{"table", "variant",
        "options", "players", "created", "seats": [{"seat", "name", "kind"}]}``."""
        with self.engine.connect() as c:
            free = select(_S.c.table_id).where(_S.c.kind == "open")
            rows = list(c.execute(
                select(_T.c.id, _T.c.variant, _T.c.options, _T.c.players, _T.c.created_at)
                .where(_T.c.public.is_(True), _T.c.status == "playing", _T.c.id.in_(free))
                .order_by(_T.c.created_at.desc()).limit(limit)))
            out = []
            for row in rows:
                seats = c.execute(select(_S).where(_S.c.table_id == row.id)
                                  .order_by(_S.c.seat))
                out.append({
                    "table": row.id, "variant": row.variant, "options": dict(row.options),
                    "players": row.players, "created": row.created_at.isoformat() + "Z",
                    "seats": [{"seat": r.seat, "name": r.name, "kind": r.kind}
                              for r in seats],
                })
            return out

    def table_ids(self, status: str | None = None) -> list[str]:
        with self.engine.connect() as c:
            q = select(_T.c.id).order_by(_T.c.created_at)
            if status is not None:
                q = q.where(_T.c.status == status)
            return list(c.scalars(q))

    def _table(self, c: Connection, row: Any, hands: list[HandData]) -> TableData:
        seats = [_seat(r) for r in c.execute(select(_S).where(_S.c.table_id == row.id)
                                             .order_by(_S.c.seat))]
        return TableData(row.id, row.variant, dict(row.options), row.players, row.team_size,
                         row.version, row.status, seats, hands, dict(row.settings or {}),
                         None if row.rules is None else dict(row.rules), row.seed,
                         row.turn or "", epoch_of(row.updated_at or row.created_at))

    def load(self, table_id: str) -> TableData | None:
        """Everything stored about a table, every hand with its actions (records, audits,
        tests), or None when there is no such table."""
        with self._snapshot() as c:
            row = c.execute(select(_T).where(_T.c.id == table_id)).first()
            if row is None:
                return None
            hands = [_hand(h) for h in c.execute(
                select(_H).where(_H.c.table_id == table_id).order_by(_H.c.number))]
            by_number = {h.number: h for h in hands}
            for a in c.execute(select(_A.c.hand, _A.c.seat, _A.c.action)
                               .where(_A.c.table_id == table_id, _A.c.undone.is_(False))
                               .order_by(_A.c.seq)):
                by_number[a.hand].actions.append((a.seat, a.action))
            self._fill_stand_ins(c, table_id, hands)
            return self._table(c, row, hands)

    def load_live(self, table_id: str) -> TableData | None:
        """What a process needs to take up a table: every hand, the current one with its
        actions, the finished ones with their sheets only (their actions are not read)."""
        with self._snapshot() as c:
            row = c.execute(select(_T).where(_T.c.id == table_id)).first()
            if row is None:
                return None
            hands = [_hand(h) for h in c.execute(
                select(_H).where(_H.c.table_id == table_id).order_by(_H.c.number))]
            if hands:
                hands[-1].actions = self._hand_actions(c, table_id, hands[-1].number)
            self._fill_stand_ins(c, table_id, hands)
            return self._table(c, row, hands)

    @staticmethod
    def _fill_stand_ins(c: Connection, table_id: str, hands: list[HandData]) -> None:
        """Each hand's :attr:`HandData.stand_ins`: the seats of its moves a bot made for
        their person (rare rows: one query for the whole table)."""
        by_number = {h.number: h for h in hands}
        for a in c.execute(select(_A.c.hand, _A.c.seat).distinct()
                           .where(_A.c.table_id == table_id, _A.c.undone.is_(False),
                                  _A.c.stand_in.is_(True))):
            if a.hand in by_number:
                by_number[a.hand].stand_ins.append(a.seat)
        for h in hands:
            h.stand_ins.sort()

    def mark_stand_in(self, table_id: str, first: int, last: int) -> None:
        """Mark the table's actions of versions ``first`` to ``last`` as made by a bot that
        stands in for the seat's person (the match record says which hands a bot played)."""
        with self.engine.begin() as c:
            c.execute(update(_A).where(_A.c.table_id == table_id, _A.c.seq >= first,
                                       _A.c.seq <= last).values(stand_in=True))

    @staticmethod
    def _hand_actions(c: Connection, table_id: str, hand: int,
                      after: int | None = None) -> list[tuple[int, str]]:
        q = select(_A.c.seat, _A.c.action).where(
            _A.c.table_id == table_id, _A.c.hand == hand, _A.c.undone.is_(False))
        if after is not None:
            q = q.where(_A.c.seq > after)
        return [(a.seat, a.action) for a in c.execute(q.order_by(_A.c.seq))]

    def changes_since(self, table_id: str, version: int, hand: int) -> Changes | None:
        """What changed at a table since ``version`` for a process holding hand ``hand``
        (:class:`canasta.web.storage.models.Changes`); None when the table is gone."""
        with self._snapshot() as c:
            row = c.execute(select(_T.c.version, _T.c.status, _T.c.hand, _T.c.settings,
                                   _T.c.updated_at).where(_T.c.id == table_id)).first()
            if row is None:
                return None
            seats = [_seat(r) for r in c.execute(select(_S).where(_S.c.table_id == table_id)
                                                 .order_by(_S.c.seat))]
            out = Changes(row.version, row.status, row.hand, dict(row.settings or {}), seats,
                          None, None, epoch_of(row.updated_at))
            if row.version == version:
                out.actions = []
                return out
            if row.hand == hand:
                actions = self._hand_actions(c, table_id, hand, after=version)
                if version + len(actions) == row.version:
                    out.actions = actions
                    return out
            # a new hand, or an undo: the hands from the one held on (or from the stored
            # one, when the holder dealt a hand that was not stored), anew
            out.hands = [_hand(h) for h in c.execute(
                select(_H).where(_H.c.table_id == table_id,
                                 _H.c.number >= min(hand, row.hand))
                .order_by(_H.c.number))]
            if out.hands:
                out.hands[-1].actions = self._hand_actions(c, table_id, out.hands[-1].number)
            return out

    def actions(self, table_id: str) -> list[tuple[int, int, int, str]]:
        """Every stored action as (seq, hand, seat, text), in order (tests, audits)."""
        with self.engine.connect() as c:
            return [(a.seq, a.hand, a.seat, a.action) for a in c.execute(
                select(_A.c.seq, _A.c.hand, _A.c.seat, _A.c.action)
                .where(_A.c.table_id == table_id).order_by(_A.c.seq))]

    def finished_hands(self, table_id: str) -> list[int]:
        with self.engine.connect() as c:
            return list(c.scalars(
                select(_H.c.number).where(_H.c.table_id == table_id, _H.c.finished.is_(True))
                .order_by(_H.c.number)))

    def footprint(self, table_id: str) -> tuple[int, int]:
        """(rows, bytes of their stored values) of one table over its four tables: what it
        costs to keep (tests measure that it grows linearly with the actions played)."""
        import json

        rows = 0
        size = 0
        with self.engine.connect() as c:
            for tbl, key in ((_T, _T.c.id), (_S, _S.c.table_id), (_H, _H.c.table_id),
                             (_A, _A.c.table_id)):
                for r in c.execute(select(tbl).where(key == table_id)):
                    rows += 1
                    size += sum(len(json.dumps(v, default=str)) for v in r)
        return rows, size


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
