"""The database tables of the server (SQLAlchemy 2 models) and the plain data handed between
the storage and the table service.

A table is stored as an event log: its complete rules (so that a changed preset file never
changes how an old table replays), its seats, per hand the deck order, dealer and scores
before it (and, once finished, its score sheets), and one row per accepted action. Nothing
stored grows faster than the actions played: a new hand adds one row, an action one row,
the end of a hand writes that hand's sheets on its own row.

The migrations in ``canasta/web/storage/migrations`` build the same schema
(tests/web/test_web_storage.py compares them).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> _dt.datetime:
    """The current time, UTC, without a zone (as stored)."""
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "canasta_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    team_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # 0003
    public: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    # 0004: the complete rules (canasta.web.play.game.rules_json: the options as applied and
    # every field), the secret seed of the deals to come, the hand in play, who is to act
    # ("bot", "human", "deal" or "over"), the process that plays its bots and until when,
    # and the last change
    rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    hand: Mapped[int] = mapped_column(Integer, default=0)
    turn: Mapped[str] = mapped_column(String(8), default="", index=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)
    updated_at: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True,
                                                             index=True)


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
    # 0004: this hand's score sheets (sheet_to_json), replacing the whole match record
    sheets: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # 0005: the secrets the deck was shuffled from, {"seed", "nonce"} (canasta.core.dealproof)
    deal: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    __tablename__ = "canasta_actions"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)   # the version it made
    hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)  # taken back (house rule)
    # 0009: made by a bot standing in for the seat's person (None: stored before 0009)
    stand_in: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=False)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class ScorepadRow(Base):
    """A scorepad of a real table (canasta.web.scorepad): its rules and typed hands."""

    __tablename__ = "canasta_scorepads"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    team_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    names: Mapped[list[str]] = mapped_column(JSON)
    # per hand: {"tally": what was typed, "result": its hand result document}
    hands: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # 0009: the SHA-256 of the keeper's key (None: made before keys, the link edits)
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)


# -- plain data handed to and from the service -----------------------------------------------
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
    """One stored hand: how it was dealt, its (not undone) actions as (seat, text), and once
    it is finished its end and score sheets (:func:`canasta.web.play.game.sheet_to_json`)."""

    number: int
    dealer: int
    deck: list[str]
    scores_before: list[int]
    finished: bool = False
    end_reason: str = ""
    actions: list[tuple[int, str]] = field(default_factory=list)
    sheets: list[dict[str, Any]] | None = None
    #: {"seed", "nonce"} the deck was shuffled from (None: dealt before deals were committed)
    deal: dict[str, Any] | None = None
    #: the seats a bot played for their person in this hand (one move or more), sorted
    stand_ins: list[int] = field(default_factory=list)


@dataclass
class TableData:
    """A stored table. ``rules`` is the complete rules (``canasta.web.play.game.rules_json``;
    None only for a table that predates it), ``seed`` the secret seed of the next deals,
    ``hands`` the hands loaded (all of them, or the current one with the finished ones'
    sheets)."""

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
    rules: dict[str, Any] | None = None
    seed: int | None = None
    turn: str = ""
    #: when its version last changed (``time.time()``)
    at: float = 0.0


@dataclass
class FinishedHand:
    """What is written when an action ends a hand: its number, end, score sheets and whether
    it ended the match."""

    number: int
    end_reason: str
    sheets: list[dict[str, Any]]
    match_over: bool


@dataclass
class Changes:
    """What a process that holds a table needs to catch up with the database (see
    :meth:`canasta.web.storage.store.Store.changes_since`): the table's row values, its seats,
    and the actions after the version it holds when they continue its hand; ``hands`` is
    filled instead (every hand from the one it holds on, current actions included) when a
    new hand began or an undo rewound the hand."""

    version: int
    status: str
    hand: int
    settings: dict[str, Any]
    seats: list[SeatData]
    actions: list[tuple[int, str]] | None
    hands: list[HandData] | None
    at: float = 0.0
