"""The stored chat of a table (canasta.web.play.chat): its messages, each person's mutes and
blocks, and the reports, each a row that names the message it reports. Deleting a table
deletes them (``ON DELETE CASCADE``). The functions are synchronous, one transaction each;
the server calls them from its database threads (``TableService.db``).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, cast

from sqlalchemy import DateTime, ForeignKey, Integer, String, Table, Text, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from canasta.web.storage.models import Base, now


class ChatRow(Base):
    """One chat message: a preset phrase's key or free text, from a seat."""

    __tablename__ = "canasta_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))  # the sender's name when it was said
    preset: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class ChatMuteRow(Base):
    """How seat ``seat`` hears seat ``target``: ``mute`` or ``block`` (no row: both ways)."""

    __tablename__ = "canasta_chat_mutes"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    target: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(8))


class ChatReportRow(Base):
    """Seat ``seat`` reported message ``message_id`` (once per person and message)."""

    __tablename__ = "canasta_chat_reports"

    message_id: Mapped[int] = mapped_column(
        ForeignKey("canasta_chat.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


_CHAT = cast(Table, ChatRow.__table__)
_MUTES = cast(Table, ChatMuteRow.__table__)
_REPORTS = cast(Table, ChatReportRow.__table__)


def _epoch(stamp: _dt.datetime) -> float:
    return round(stamp.replace(tzinfo=_dt.UTC).timestamp(), 3)


def message_json(row: Any) -> dict[str, Any]:
    """A stored message as the chat sends it: ``{"type": "chat", "id", "seat", "name",
    "preset" | "text", "at"}`` (``at``: seconds since the epoch, the server's clock)."""
    out: dict[str, Any] = {"type": "chat", "id": row.id, "seat": row.seat, "name": row.name,
                           "at": _epoch(row.created_at)}
    if row.preset is not None:
        out["preset"] = row.preset
    else:
        out["text"] = row.text
    return out


def add_message(engine: Any, table_id: str, seat: int, name: str, preset: str | None,
                text: str | None) -> dict[str, Any]:
    """Store a message; returns it (:func:`message_json`) with its new id."""
    stamp = now()
    with engine.begin() as c:
        result = c.execute(insert(_CHAT).values(table_id=table_id, seat=seat, name=name,
                                                preset=preset, text=text, created_at=stamp))
        new_id = int(result.inserted_primary_key[0])
    return message_json(ChatRow(id=new_id, seat=seat, name=name, preset=preset, text=text,
                                created_at=stamp))


def recent(engine: Any, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The last ``limit`` messages of a table, oldest first."""
    with engine.connect() as c:
        rows = c.execute(select(_CHAT).where(_CHAT.c.table_id == table_id)
                         .order_by(_CHAT.c.id.desc()).limit(limit)).all()
    return [message_json(r) for r in reversed(rows)]


def set_mode(engine: Any, table_id: str, seat: int, target: int, mode: str) -> None:
    """Store how ``seat`` hears ``target`` (``none`` removes the row)."""
    with engine.begin() as c:
        c.execute(delete(_MUTES).where(_MUTES.c.table_id == table_id, _MUTES.c.seat == seat,
                                       _MUTES.c.target == target))
        if mode != "none":
            c.execute(insert(_MUTES).values(table_id=table_id, seat=seat, target=target,
                                            mode=mode))


def modes(engine: Any, table_id: str) -> dict[int, dict[int, str]]:
    """Every stored mute and block of a table: ``{seat: {target: mode}}``."""
    out: dict[int, dict[int, str]] = {}
    with engine.connect() as c:
        for r in c.execute(select(_MUTES).where(_MUTES.c.table_id == table_id)).all():
            out.setdefault(r.seat, {})[r.target] = r.mode
    return out


def add_report(engine: Any, table_id: str, message_id: int, seat: int) -> bool | None:
    """Seat ``seat`` reports message ``message_id``: True when stored, False when that
    person had reported it already, None when the table has no such message."""
    with engine.begin() as c:
        found = c.execute(select(_CHAT.c.id).where(_CHAT.c.id == message_id,
                                                   _CHAT.c.table_id == table_id)).first()
        if found is None:
            return None
        again = c.execute(select(_REPORTS.c.seat).where(_REPORTS.c.message_id == message_id,
                                                        _REPORTS.c.seat == seat)).first()
        if again is not None:
            return False
        c.execute(insert(_REPORTS).values(message_id=message_id, seat=seat,
                                          table_id=table_id, created_at=now()))
    return True


def reports(engine: Any, table_id: str) -> list[dict[str, Any]]:
    """The reports of a table, oldest first: ``{"by": seat, "at", "message": {...}}``."""
    with engine.connect() as c:
        rows = c.execute(
            select(_REPORTS.c.seat.label("by"), _REPORTS.c.created_at.label("reported"),
                   _CHAT).join(_CHAT, _CHAT.c.id == _REPORTS.c.message_id)
            .where(_REPORTS.c.table_id == table_id)
            .order_by(_REPORTS.c.created_at, _REPORTS.c.message_id)).all()
    out = []
    for r in rows:
        message = message_json(r)
        del message["type"]
        out.append({"by": r.by, "at": _epoch(r.reported), "message": message})
    return out
