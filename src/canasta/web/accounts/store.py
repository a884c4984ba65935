"""The accounts' transactions (synchronous, each one transaction; the routes call them from
worker threads), on the server's database (:class:`canasta.web.storage.store.Store`'s
engine; the rows are :mod:`canasta.web.storage.accounts`)."""

from __future__ import annotations

import datetime as _dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from canasta.web.accounts.glicko import Rating
from canasta.web.storage.accounts import (
    AccountMatchRow,
    AccountRow,
    RatedTableRow,
    RatingRow,
    SessionRow,
)
from canasta.web.storage.models import SeatRow, TableRow, now
from canasta.web.storage.store import Store

__all__ = ["Account", "AccountStore", "NameTaken", "hash_secret", "name_key"]

#: What settles a rated match from its accounts' ratings: (status, reason, results).
Compute = Callable[[dict[str, Rating]],
                   tuple[str, str, dict[str, tuple[str, Rating, Rating]]]]
#: How long a sign-in lasts.
SESSION_DAYS = 30


def hash_secret(secret: str) -> str:
    """The SHA-256 (hex) a session's secret is stored as."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def name_key(name: str) -> str:
    """The form of a name that must be unique: case-folded, spaces collapsed."""
    return " ".join(name.split()).casefold()[:40]


class NameTaken(ValueError):
    """Another account has this name (by :func:`name_key`)."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    password_hash: str
    prefs: dict[str, Any]


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.password_hash, dict(row.prefs or {}))


class AccountStore:
    """Accounts, sessions, ratings and matches in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # -- accounts --------------------------------------------------------------------------
    def create(self, name: str, password_hash: str, prefs: dict[str, Any]) -> Account:
        """A new account.

        Raises:
            NameTaken: the name (by :func:`name_key`) is another account's.
        """
        row = AccountRow(id=secrets.token_hex(12), name=name, name_key=name_key(name),
                         password_hash=password_hash, prefs=prefs, created_at=now())
        try:
            with Session(self.engine, expire_on_commit=False) as s, s.begin():
                if s.scalar(select(AccountRow.id).where(AccountRow.name_key == row.name_key)):
                    raise NameTaken(name)
                s.add(row)
        except IntegrityError:
            raise NameTaken(name) from None
        return _account(row)

    def by_name(self, name: str) -> Account | None:
        with Session(self.engine) as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            return None if row is None else _account(row)

    def by_id(self, account_id: str) -> Account | None:
        with Session(self.engine) as s:
            row = s.get(AccountRow, account_id)
            return None if row is None else _account(row)

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=password_hash))

    def set_prefs(self, account_id: str, prefs: dict[str, Any]) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(prefs=prefs))

    def delete(self, account_id: str) -> None:
        """Delete the account and everything of it: sessions, ratings, matches."""
        with Session(self.engine) as s, s.begin():
            for row in (SessionRow, RatingRow, AccountMatchRow):
                s.execute(delete(row).where(row.account_id == account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == account_id))

    # -- sessions --------------------------------------------------------------------------
    def new_session(self, account_id: str) -> str:
        """A new sign-in of the account: its secret (only its hash is stored)."""
        secret = secrets.token_urlsafe(32)
        at = now()
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.expires_at < at))
            s.add(SessionRow(id_hash=hash_secret(secret), account_id=account_id,
                             created_at=at, expires_at=at + _dt.timedelta(days=SESSION_DAYS)))
        return secret

    def session_account(self, secret: str) -> Account | None:
        """The account signed in with ``secret`` (None: no such session, or it expired)."""
        with Session(self.engine) as s:
            row = s.execute(
                select(AccountRow).join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.id_hash == hash_secret(secret),
                       SessionRow.expires_at > now())).scalar_one_or_none()
            return None if row is None else _account(row)

    def change_password(self, account_id: str, password_hash: str) -> str:
        """Set the account's password hash and sign it out everywhere, in one transaction:
        every sign-in of the account is deleted and a new one made; its secret is returned
        (the browser that changed the password stays signed in with it)."""
        secret = secrets.token_urlsafe(32)
        at = now()
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=password_hash))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.add(SessionRow(id_hash=hash_secret(secret), account_id=account_id,
                             created_at=at, expires_at=at + _dt.timedelta(days=SESSION_DAYS)))
        return secret

    def end_session(self, secret: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == hash_secret(secret)))

    # -- ratings ---------------------------------------------------------------------------
    def ratings(self, account_ids: list[str], variant: str) -> dict[str, Rating]:
        """The ratings on ``variant`` of those accounts that have one."""
        with Session(self.engine) as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.account_id.in_(account_ids),
                                                     RatingRow.variant == variant))
            return {r.account_id: Rating(r.rating, r.rd, r.volatility) for r in rows}

    def ratings_of(self, account_id: str) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)
                             .order_by(RatingRow.variant))
            return [{"variant": r.variant, "rating": r.rating, "rd": r.rd, "wins": r.wins,
                     "losses": r.losses, "draws": r.draws} for r in rows]

    def leaderboard(self, variant: str, limit: int = 100) -> list[dict[str, Any]]:
        """The rated accounts of ``variant``, highest rating first."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(RatingRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.variant == variant)
                .order_by(RatingRow.rating.desc(), AccountRow.name_key).limit(limit)).all()
            return [{"name": name, "rating": r.rating, "rd": r.rd, "wins": r.wins,
                     "losses": r.losses, "draws": r.draws} for r, name in rows]

    def rated_variants(self) -> list[str]:
        with Session(self.engine) as s:
            return sorted(set(s.scalars(select(RatingRow.variant).distinct())))

    # -- matches ---------------------------------------------------------------------------
    def add_rated_table(self, table_id: str, variant: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(RatedTableRow(table_id=table_id, variant=variant, status="playing",
                                reason="", created_at=now()))

    def rated_table(self, table_id: str) -> RatedTableRow | None:
        with Session(self.engine, expire_on_commit=False) as s:
            return s.get(RatedTableRow, table_id)

    def claim(self, account_id: str, table_id: str, seat: int, variant: str,
              rated: bool, name: str | None = None) -> bool:
        """Note that the account sits at ``seat`` of the table; with ``name``, the seat
        takes that name (the account's, at a rated table) in the same transaction. False
        (nothing stored): the account already sits at another seat there, or (``rated``)
        another account holds this seat."""
        with Session(self.engine) as s, s.begin():
            mine = s.get(AccountMatchRow, (account_id, table_id))
            if mine is not None:
                return mine.seat == seat
            if rated and s.scalar(select(AccountMatchRow.account_id).where(
                    AccountMatchRow.table_id == table_id, AccountMatchRow.seat == seat)):
                return False
            s.add(AccountMatchRow(account_id=account_id, table_id=table_id, seat=seat,
                                  variant=variant, rated=rated, abandoned=False, result="",
                                  created_at=now()))
            if name is not None:
                s.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                                SeatRow.seat == seat).values(name=name))
            return True

    def seats_of(self, table_id: str) -> dict[int, tuple[str, str, bool]]:
        """Seat -> (account id, name, abandoned) of the accounts at the table."""
        with Session(self.engine) as s:
            rows = s.execute(select(AccountMatchRow, AccountRow.name)
                             .join(AccountRow, AccountRow.id == AccountMatchRow.account_id)
                             .where(AccountMatchRow.table_id == table_id)).all()
            return {m.seat: (m.account_id, name, m.abandoned) for m, name in rows}

    def mark_abandoned(self, account_id: str, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountMatchRow).where(
                AccountMatchRow.account_id == account_id,
                AccountMatchRow.table_id == table_id).values(abandoned=True))

    def history(self, account_id: str, limit: int = 100) -> list[dict[str, Any]]:
        """The account's matches, newest first."""
        with Session(self.engine) as s:
            rows = s.scalars(select(AccountMatchRow)
                             .where(AccountMatchRow.account_id == account_id)
                             .order_by(AccountMatchRow.created_at.desc()).limit(limit))
            return [{"table": m.table_id, "seat": m.seat, "variant": m.variant,
                     "rated": m.rated, "abandoned": m.abandoned, "result": m.result,
                     "rating_before": m.rating_before, "rating_after": m.rating_after,
                     "at": m.created_at.isoformat() + "Z"} for m in rows]

    def unsettled_over(self) -> list[str]:
        """Rated matches still ``playing`` whose table's match is over (to settle)."""
        with Session(self.engine) as s:
            return list(s.scalars(
                select(RatedTableRow.table_id)
                .join(TableRow, TableRow.id == RatedTableRow.table_id)
                .where(RatedTableRow.status == "playing", TableRow.status == "over")))

    def unsettled_stale(self, idle: float) -> list[str]:
        """Rated matches still ``playing`` whose table has not moved for ``idle`` seconds."""
        before = now() - _dt.timedelta(seconds=idle)
        with Session(self.engine) as s:
            return list(s.scalars(
                select(RatedTableRow.table_id)
                .join(TableRow, TableRow.id == RatedTableRow.table_id)
                .where(RatedTableRow.status == "playing", TableRow.status != "over",
                       TableRow.updated_at < before)))

    def settle(self, table_id: str, compute: Compute) -> dict[str, Any] | None:
        """Close the rated match once. In one transaction: mark it closed (another process
        that tries too finds it closed and writes nothing: None), read the ratings of its
        accounts, and write what ``compute(ratings)`` gives: ``(status, reason, results)``,
        status "settled" or "void", results account id -> (result, rating before, rating
        after), each rating row written or created. Returns ``{"status", "reason",
        "results"}``."""
        at = now()
        with Session(self.engine) as s, s.begin():
            done = s.execute(update(RatedTableRow).where(
                RatedTableRow.table_id == table_id, RatedTableRow.status == "playing")
                .values(status="settling", settled_at=at))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return None
            rated = s.get(RatedTableRow, table_id)
            assert rated is not None
            variant = rated.variant
            ids = list(s.scalars(select(AccountMatchRow.account_id)
                                 .where(AccountMatchRow.table_id == table_id)))
            rows = {r.account_id: r for r in s.scalars(
                select(RatingRow).where(RatingRow.account_id.in_(ids),
                                        RatingRow.variant == variant).with_for_update())}
            status, reason, results = compute(
                {k: Rating(r.rating, r.rd, r.volatility) for k, r in rows.items()})
            rated.status, rated.reason = status, reason[:200]
            for account_id, (result, before, after) in results.items():
                row = rows.get(account_id)
                if row is None:
                    row = RatingRow(account_id=account_id, variant=variant, wins=0,
                                    losses=0, draws=0)
                    s.add(row)
                row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
                row.updated_at = at
                if result == "win":
                    row.wins = (row.wins or 0) + 1
                elif result == "loss":
                    row.losses = (row.losses or 0) + 1
                else:
                    row.draws = (row.draws or 0) + 1
                s.execute(update(AccountMatchRow).where(
                    AccountMatchRow.account_id == account_id,
                    AccountMatchRow.table_id == table_id).values(
                    result=result, rating_before=before.rating, rating_after=after.rating))
            return {"status": status, "reason": reason, "results": {
                k: {"result": r, "before": b.rating, "after": a.rating}
                for k, (r, b, a) in results.items()}}
