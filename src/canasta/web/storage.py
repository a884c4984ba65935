"""Storage of tables: SQLAlchemy 2 models and the transactions the server needs.

The database is the truth; the server's memory is a cache rebuilt from it. A table is its
rules and seats, every hand's deck order and every accepted action, numbered by the table's
``version``. Each accepted action is inserted in the same transaction that advances the
version (``UPDATE ... WHERE version = :seen``), so two writers can never both advance it and a
server killed at any point restarts with every acknowledged move.

Migrations are Alembic scripts shipped in ``canasta/web/migrations`` and applied by
:meth:`Store.migrate` at start-up. The tables are prefixed ``canasta_`` and Alembic's
bookkeeping table is ``canasta_alembic_version``, so a shared database is safe to use.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

MIGRATIONS = Path(__file__).with_name("migrations")
VERSION_TABLE = "canasta_alembic_version"


class StorageError(RuntimeError):
    """The database refused a write (another writer advanced the table, or it is gone)."""


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "canasta_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    team_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # 0003
    public: Mapped[bool] = mapped_column(Boolean, default=False, index=True)


class SeatRow(Base):
    __tablename__ = "canasta_seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))          # "human", "bot", "open" (free)
    controller: Mapped[str] = mapped_column(String(8))    # who plays it now
    away: Mapped[bool] = mapped_column(Boolean, default=False)  # a bot plays for the absent
    level: Mapped[str] = mapped_column(String(32))        # the bot's level when a bot plays
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class HandRow(Base):
    __tablename__ = "canasta_hands"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    deck: Mapped[list[str]] = mapped_column(JSON)          # card texts, top card first
    scores_before: Mapped[list[int]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    end_reason: Mapped[str] = mapped_column(String(40), default="")
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    __tablename__ = "canasta_actions"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)   # the version it made
    hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)  # taken back (house rule)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)


class ScorepadRow(Base):
    """A scorepad of a real table (canasta.web.scorepad): its rules and typed hands."""

    __tablename__ = "canasta_scorepads"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    team_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    names: Mapped[list[str]] = mapped_column(JSON)
    # per hand: {"tally": what was typed, "result": its hand result document}
    hands: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


# -- plain data handed to and from the server ------------------------------------------------
@dataclass
class SeatData:
    seat: int
    kind: str
    controller: str
    level: str
    name: str
    token_hash: str | None
    away: bool = False


@dataclass
class HandData:
    number: int
    dealer: int
    deck: list[str]
    scores_before: list[int]
    finished: bool = False
    end_reason: str = ""
    actions: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class TableData:
    id: str
    variant: str
    options: dict[str, Any]
    players: int
    team_size: int | None
    version: int
    status: str
    seats: list[SeatData]
    hands: list[HandData]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class FinishedHand:
    """What is written when an action ends a hand."""

    number: int
    end_reason: str
    record: dict[str, Any]
    match_over: bool


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


class Store:
    """The database of tables. Methods are synchronous, each one transaction; the server calls
    them from a worker thread.

    Args:
        url: a SQLAlchemy URL (``sqlite:///tables.sqlite3``,
            ``postgresql+psycopg://user@host/db``); see :func:`normalise_url`.
        schema: PostgreSQL only: keep the tables in this schema (created when missing).
    """

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = normalise_url(url)
        u = make_url(self.url)
        self.dialect = u.get_backend_name()
        kwargs: dict[str, Any] = {}
        if self.dialect == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if u.database and u.database != ":memory:":
                Path(u.database).expanduser().resolve().parent.mkdir(parents=True,
                                                                     exist_ok=True)
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

    # -- schema ----------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as conn:
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
    def create_table(self, data: TableData) -> None:
        """Insert a new table with its seats and its first hand (version 0)."""
        with Session(self.engine) as s, s.begin():
            s.add(TableRow(id=data.id, variant=data.variant, options=data.options,
                           players=data.players, team_size=data.team_size,
                           version=data.version, status=data.status,
                           settings=data.settings,
                           public=bool(data.settings.get("public"))))
            s.flush()
            for seat in data.seats:
                s.add(SeatRow(table_id=data.id, seat=seat.seat, kind=seat.kind,
                              controller=seat.controller, level=seat.level, name=seat.name,
                              token_hash=seat.token_hash, away=seat.away))
            for hand in data.hands:
                s.add(HandRow(table_id=data.id, number=hand.number, dealer=hand.dealer,
                              deck=hand.deck, scores_before=hand.scores_before))

    def _advance(self, s: Session, table_id: str, seen: int, by: int,
                 status: str | None = None) -> None:
        values: dict[str, Any] = {"version": seen + by}
        if status is not None:
            values["status"] = status
        result = s.execute(
            update(TableRow).where(TableRow.id == table_id, TableRow.version == seen)
            .values(**values)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise StorageError(f"table {table_id} is no longer at version {seen}")

    def append_actions(self, table_id: str, seen: int, hand: int,
                       actions: list[tuple[int, str]],
                       finished: FinishedHand | None = None) -> None:
        """Store ``actions`` (seat, text) as versions ``seen + 1 ...`` of the table, and the
        end of the hand when they finished it, in one transaction.

        Raises:
            StorageError: the table is not at version ``seen``.
        """
        with Session(self.engine) as s, s.begin():
            status = "over" if finished is not None and finished.match_over else None
            self._advance(s, table_id, seen, len(actions), status)
            for i, (seat, text) in enumerate(actions):
                s.add(ActionRow(table_id=table_id, seq=seen + 1 + i, hand=hand, seat=seat,
                                action=text))
            if finished is not None:
                s.execute(
                    update(HandRow)
                    .where(HandRow.table_id == table_id, HandRow.number == finished.number)
                    .values(finished=True, end_reason=finished.end_reason,
                            record=finished.record)
                )

    def append_hand(self, table_id: str, seen: int, hand: HandData) -> None:
        """Store a newly dealt hand as version ``seen + 1``.

        Raises:
            StorageError: the table is not at version ``seen``.
        """
        with Session(self.engine) as s, s.begin():
            self._advance(s, table_id, seen, 1)
            s.add(HandRow(table_id=table_id, number=hand.number, dealer=hand.dealer,
                          deck=hand.deck, scores_before=hand.scores_before))

    def set_controller(self, table_id: str, seat: int, controller: str, level: str,
                       away: bool = False) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(controller=controller, level=level, away=away)
            )

    def undo_actions(self, table_id: str, seen: int, count: int) -> None:
        """Mark the table's last ``count`` actions undone (house rule undo) and advance the
        version by one, in one transaction; undone actions stay stored but are not replayed.

        Raises:
            StorageError: the table is not at version ``seen``, or has fewer actions.
        """
        with Session(self.engine) as s, s.begin():
            self._advance(s, table_id, seen, 1)
            rows = list(s.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id,
                                        ActionRow.undone.is_(False))
                .order_by(ActionRow.seq.desc()).limit(count)))
            if len(rows) != count:
                raise StorageError(f"table {table_id} has fewer than {count} actions")
            for row in rows:
                row.undone = True

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """A person takes the free seat ``seat`` of a public table.

        Raises:
            StorageError: the seat is not free (someone else took it first).
        """
        with Session(self.engine) as s, s.begin():
            result = s.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                      SeatRow.kind == "open")
                .values(kind="human", controller="human", away=False, name=name,
                        token_hash=token_hash))
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise StorageError(f"seat {seat} of table {table_id} is not free")

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id == table_id)
                      .values(settings=settings, public=bool(settings.get("public"))))

    # -- reads -----------------------------------------------------------------------------
    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables in play with a free seat, newest first: ``{"table", "variant",
        "options", "players", "created", "seats": [{"seat", "name", "kind"}]}``."""
        with Session(self.engine) as s:
            free = select(SeatRow.table_id).where(SeatRow.kind == "open")
            rows = list(s.scalars(
                select(TableRow).where(TableRow.public.is_(True),
                                       TableRow.status == "playing",
                                       TableRow.id.in_(free))
                .order_by(TableRow.created_at.desc()).limit(limit)))
            out = []
            for row in rows:
                seats = s.scalars(select(SeatRow).where(SeatRow.table_id == row.id)
                                  .order_by(SeatRow.seat))
                out.append({
                    "table": row.id, "variant": row.variant, "options": dict(row.options),
                    "players": row.players, "created": row.created_at.isoformat() + "Z",
                    "seats": [{"seat": r.seat, "name": r.name, "kind": r.kind}
                              for r in seats],
                })
            return out

    def table_ids(self, status: str | None = None) -> list[str]:
        with Session(self.engine) as s:
            q = select(TableRow.id).order_by(TableRow.created_at)
            if status is not None:
                q = q.where(TableRow.status == status)
            return list(s.scalars(q))

    def load(self, table_id: str) -> TableData | None:
        """Everything stored about a table, or None when there is no such table."""
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            seats = [
                SeatData(r.seat, r.kind, r.controller, r.level, r.name, r.token_hash, r.away)
                for r in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                   .order_by(SeatRow.seat))
            ]
            hands = [
                HandData(h.number, h.dealer, list(h.deck), list(h.scores_before), h.finished,
                         h.end_reason)
                for h in s.scalars(select(HandRow).where(HandRow.table_id == table_id)
                                   .order_by(HandRow.number))
            ]
            for a in s.scalars(select(ActionRow).where(ActionRow.table_id == table_id,
                                                       ActionRow.undone.is_(False))
                               .order_by(ActionRow.seq)):
                hands[a.hand].actions.append((a.seat, a.action))
            return TableData(row.id, row.variant, dict(row.options), row.players,
                             row.team_size, row.version, row.status, seats, hands,
                             dict(row.settings or {}))

    def actions(self, table_id: str) -> list[tuple[int, int, int, str]]:
        """Every stored action as (seq, hand, seat, text), in order (tests, audits)."""
        with Session(self.engine) as s:
            return [
                (a.seq, a.hand, a.seat, a.action)
                for a in s.scalars(select(ActionRow).where(ActionRow.table_id == table_id)
                                   .order_by(ActionRow.seq))
            ]

    def hand_record(self, table_id: str, number: int) -> dict[str, Any] | None:
        """The game record stored when hand ``number`` finished (None if it has not)."""
        with Session(self.engine) as s:
            row = s.get(HandRow, (table_id, number))
            if row is None or row.record is None:
                return None
            return dict(row.record)

    def finished_hands(self, table_id: str) -> list[int]:
        with Session(self.engine) as s:
            return list(s.scalars(
                select(HandRow.number).where(HandRow.table_id == table_id,
                                             HandRow.finished.is_(True))
                .order_by(HandRow.number)
            ))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
