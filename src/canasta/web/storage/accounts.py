"""The database tables of the optional accounts and their ratings (canasta.web.accounts).

* ``canasta_accounts``: a name (shown as typed; unique by ``name_key``, its case-folded
  form), the argon2 hash of the password, the preferences (``{"lang", "four_colour",
  "sort"}``).
* ``canasta_sessions``: a signed-in browser: the SHA-256 of its cookie's secret, until when.
* ``canasta_ratings``: per account and variant, the Glicko-2 rating, RD and volatility, and
  the rated games won, lost and drawn.
* ``canasta_rated_tables``: a rated match (its table's id, variant) and whether it is still
  ``playing``, ``settled`` (ratings moved) or ``void`` (a human seat had no account).
* ``canasta_account_matches``: the matches an account sat at (rated or not), with its seat
  and, once a rated one is settled, its result and rating before and after.

Deleting an account deletes its rows in every one of these (the foreign keys cascade, and
:meth:`canasta.web.accounts.store.AccountStore.delete` deletes them explicitly too).
A rated match's row outlives its table (expired tables are deleted; the history keeps the
result, and the link to the record answers "no such table" once it is gone).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from canasta.web.storage.models import Base, now

__all__ = ["AccountMatchRow", "AccountRow", "RatedTableRow", "RatingRow", "SessionRow"]



def _account() -> ForeignKey:
    return ForeignKey("canasta_accounts.id", ondelete="CASCADE")


class AccountRow(Base):
    __tablename__ = "canasta_accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    prefs: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class SessionRow(Base):
    __tablename__ = "canasta_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(_account(), index=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    expires_at: Mapped[_dt.datetime] = mapped_column(DateTime, index=True)


class RatingRow(Base):
    __tablename__ = "canasta_ratings"

    account_id: Mapped[str] = mapped_column(_account(), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class RatedTableRow(Base):
    __tablename__ = "canasta_rated_tables"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    reason: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    settled_at: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)


class AccountMatchRow(Base):
    __tablename__ = "canasta_account_matches"

    account_id: Mapped[str] = mapped_column(_account(), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)
    #: "win", "loss", "draw" once a rated match is settled; "" before or when unrated
    result: Mapped[str] = mapped_column(String(8), default="")
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now, index=True)
