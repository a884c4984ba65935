"""The accounts' service: passwords, sign-ins, the preferences, rated tables and their
settlement (the routes are :mod:`canasta.web.accounts.routes`).

* **Passwords** are hashed with argon2id (argon2-cffi's ``PasswordHasher``, its default
  cost), checked in a worker thread, and re-hashed when that cost changes.
* **Sign-ins** (:meth:`AccountService.sign_in`): a random secret per browser, stored as its
  SHA-256, for 30 days; a sign-in or a new account never reuses an earlier secret.
* **Attempts to sign in** spend from two token buckets (:class:`Buckets`): the client
  address's (``LOGIN_BURST`` at once, then one each ``1 / LOGIN_RATE`` s) and the name's
  (the same), so neither one address nor many addresses can try passwords fast; so does
  each attempt at the current password to change it.
* **A password change** (:meth:`AccountService.change_password`) needs the current password,
  hashes the new one with argon2id at the server's cost, and ends every sign-in of the
  account in the same transaction; the browser that changed it gets a new sign-in.
* **Settlement** of rated matches (:meth:`AccountService.settle`): when the match is over, or
  at once when someone abandons; exactly once (the database's row of the match is closed in
  the same transaction as the ratings move), whichever process or request gets there first.
  Finished matches not yet settled are settled when the leaderboard or a profile is read,
  and so are matches without a move for a day (:data:`STALE_AFTER`): every person not
  connected to such a table has left it, and that is abandoning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from canasta.web.accounts.anchors import anchor_of
from canasta.web.accounts.glicko import Rating
from canasta.web.accounts.ratings import MatchFacts, SeatFacts, provisional, settle
from canasta.web.accounts.store import Account, AccountStore, NameTaken
from canasta.web.play.seats import Table, hash_token
from canasta.web.play.tables import TableManager
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.limits import Buckets

__all__ = ["AccountService", "LOGIN_BURST", "LOGIN_RATE"]

log = logging.getLogger("canasta.web.accounts")
LOGIN_BURST = 10
LOGIN_RATE = 1 / 30
#: Seconds without a move after which a rated match in play is abandoned by every person
#: not connected to it (a match left by everyone stops: its bots play only while someone
#: attends, canasta.web.protocol.ratelimit).
STALE_AFTER = 24 * 3600.0
#: Accounts one address may create at once, then one each 1 / REGISTER_RATE s.
REGISTER_BURST = 5
REGISTER_RATE = 1 / 60
#: The password hasher: argon2id at argon2-cffi's default cost (RFC 9106's second
#: recommendation: 3 passes over 64 MiB, 4 lanes). The tests swap in a cheap one.
HASHER = PasswordHasher()
_dummies: dict[int, str] = {}


def _dummy() -> str:
    """A hash to check against a name that has no account (the same work either way, so
    the time of the answer does not tell whether a name is taken)."""
    key = id(HASHER)
    if key not in _dummies:
        _dummies[key] = HASHER.hash("no such account")
    return _dummies[key]


def _profile_rating(r: dict[str, Any]) -> dict[str, Any]:
    return {**r, "rating": round(r["rating"], 1), "rd": round(r["rd"], 1),
            "provisional": provisional(r["rd"])}


class AccountService:
    """Accounts on ``manager``'s database; rated tables at ``manager``'s tables."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.store = AccountStore(manager.store)
        self.login_by_address = Buckets(LOGIN_BURST, LOGIN_RATE)
        self.login_by_name = Buckets(LOGIN_BURST, LOGIN_RATE)
        self.register_by_address = Buckets(REGISTER_BURST, REGISTER_RATE)
        self.stale_after = STALE_AFTER

    async def db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- accounts and sign-ins ---------------------------------------------------------------
    async def register(self, name: str, password: str, prefs: dict[str, Any],
                       client: str) -> tuple[Account, str]:
        """A new account, signed in: it and the sign-in's secret.

        Raises:
            WebError: ``name-taken``, ``rate-limited``.
        """
        wait = self.register_by_address.take(client)
        if wait:
            raise WebError("rate-limited", f"too many new accounts from this address: wait "
                                           f"{wait:.0f} s", retry_after=wait)
        hashed = await asyncio.to_thread(HASHER.hash, password)
        try:
            account = await self.db(self.store.create, name, hashed, prefs)
        except NameTaken:
            raise WebError("name-taken", "an account has this name already: choose "
                                         "another") from None
        return account, await self.db(self.store.new_session, account.id)

    async def sign_in(self, name: str, password: str, client: str) -> tuple[Account, str]:
        """Check the password: the account and a new sign-in's secret.

        Raises:
            WebError: ``bad-login`` (no such name, or the wrong password: the same answer),
                ``rate-limited``.
        """
        self._spend_attempt(name, client)
        account = await self.db(self.store.by_name, name)
        ok = await asyncio.to_thread(_verify, account.password_hash if account else _dummy(),
                                     password)
        if account is None or not ok:
            raise WebError("bad-login", "that name and password do not match an account")
        if HASHER.check_needs_rehash(account.password_hash):
            new = await asyncio.to_thread(HASHER.hash, password)
            await self.db(self.store.set_password_hash, account.id, new)
        return account, await self.db(self.store.new_session, account.id)

    def _spend_attempt(self, name: str, client: str) -> None:
        """One attempt at a password, from the address's and the name's buckets.

        Raises:
            WebError: ``rate-limited``.
        """
        for buckets, what in ((self.login_by_address, "from this address"),
                              (self.login_by_name, "for this name")):
            wait = buckets.take(client if what.endswith("address") else name.casefold())
            if wait:
                raise WebError("rate-limited", f"too many attempts to sign in {what}: wait "
                                               f"{wait:.0f} s", retry_after=wait)

    async def change_password(self, account: Account, password: str, new_password: str,
                              client: str) -> str:
        """A new password for ``account``, checked against the current one (an attempt
        like a sign-in's, from the same buckets): hashed anew with :data:`HASHER`
        (argon2id at the server's cost), every sign-in of the account ended, and a new
        one's secret returned for the browser that asked.

        Raises:
            WebError: ``bad-login`` (not the current password), ``rate-limited``.
        """
        self._spend_attempt(account.name, client)
        if not await asyncio.to_thread(_verify, account.password_hash, password):
            raise WebError("bad-login", "the current password is not this account's")
        hashed = await asyncio.to_thread(HASHER.hash, new_password)
        secret: str = await self.db(self.store.change_password, account.id, hashed)
        log.info("account %s: password changed, its other sign-ins ended", account.id)
        return secret

    async def account_of(self, secret: str | None) -> Account | None:
        if not secret or len(secret) > 200:
            return None
        found: Account | None = await self.db(self.store.session_account, secret)
        return found

    async def sign_out(self, secret: str | None) -> None:
        if secret and len(secret) <= 200:
            await self.db(self.store.end_session, secret)

    async def delete(self, account: Account, password: str) -> None:
        """Delete the account and all its data (the password again, for safety).

        Raises:
            WebError: ``bad-login`` (the wrong password).
        """
        if not await asyncio.to_thread(_verify, account.password_hash, password):
            raise WebError("bad-login", "the password is not this account's")
        await self.db(self.store.delete, account.id)

    async def profile(self, account: Account) -> dict[str, Any]:
        """The account as its own pages show it: name, preferences, ratings per variant
        (with ``provisional``), matches newest first (with their record's link)."""
        await self.settle_pending()
        ratings = await self.db(self.store.ratings_of, account.id)
        history = await self.db(self.store.history, account.id)
        for h in history:
            h["path"] = f"/t/{h['table']}"
            h["record"] = f"/api/tables/{h['table']}/record"
        return {"name": account.name, "prefs": account.prefs,
                "ratings": [_profile_rating(r) for r in ratings], "history": history}

    async def leaderboard(self, variant: str) -> dict[str, Any]:
        """The rated accounts of ``variant``, best first, and the bots' fixed ratings."""
        await self.settle_pending()
        rows = await self.db(self.store.leaderboard, variant)
        bots = []
        for level in ("easy", "medium", "hard", "expert"):
            rating, rd = anchor_of(level, variant)
            bots.append({"level": level, "rating": round(rating, 1), "rd": round(rd, 1)})
        return {"variant": variant,
                "players": [{"rank": i + 1, **_profile_rating(r)} for i, r in enumerate(rows)],
                "bots": bots, "variants": await self.db(self.store.rated_variants)}

    # -- tables ------------------------------------------------------------------------------
    async def _seat_of(self, table_id: str, token: str) -> tuple[Table, int]:
        table = await self.manager.get(table_id)
        wanted = hash_token(token)
        for seat in table.seats:
            if seat.token_hash == wanted and seat.kind == "human":
                return table, seat.seat
        raise WebError("bad-token", "this token is not a seat's of this table")

    async def rated_table(self, table_id: str, variant: str, account: Account,
                          seat: int) -> None:
        """Note a new rated table and its creator's seat."""
        await self.db(self.store.add_rated_table, table_id, variant)
        await self.db(self.store.claim, account.id, table_id, seat, variant, True)

    async def claim(self, account: Account, table_id: str, token: str) -> dict[str, Any]:
        """The signed-in account sits at the seat of ``token``: the match joins its history
        and, at a rated table, the seat is its for the rating, under the account's name.

        Raises:
            WebError: ``bad-token``, ``unknown-table``, ``not-allowed`` (another account holds
                the seat, or this one holds another seat there).
        """
        table, seat = await self._seat_of(table_id, token)
        rated = await self.db(self.store.rated_table, table.id)
        # at a rated table the seat takes the account's name: the table, its record and the
        # leaderboard say the same
        name = account.name if rated is not None else None
        if not await self.db(self.store.claim, account.id, table.id, seat, table.variant,
                             rated is not None, name):
            raise WebError("not-allowed", "another account sits at this seat, or you sit at "
                                          "another seat of this table")
        if name is not None and table.seats[seat].name != name:
            await self.manager.seats_changed(table.id)
        return await self.table_info(table.id)

    async def table_info(self, table_id: str) -> dict[str, Any]:
        """Whether a table is rated, how its rated match stands, who sits where (settling
        a finished match first)."""
        rated = await self.db(self.store.rated_table, table_id)
        if rated is not None and rated.status == "playing":
            await self.settle(table_id)
            rated = await self.db(self.store.rated_table, table_id)
        table = await self.manager.get(table_id)
        seats = await self.db(self.store.seats_of, table_id)
        return {"table": table_id, "variant": table.variant, "rated": rated is not None,
                "status": rated.status if rated else None,
                "reason": rated.reason if rated else "",
                "seats": [{"seat": s.seat, "human": s.kind == "human",
                           "account": seats[s.seat][1] if s.seat in seats else None}
                          for s in table.seats]}

    async def abandon(self, account: Account, table_id: str, token: str) -> dict[str, Any]:
        """The account leaves its rated match: a loss now; where other people play on, a bot
        plays the seat (a table of bots alone stops there).

        Raises:
            WebError: ``bad-token``, ``not-allowed`` (not a rated match in play, or not the
                account's seat).
        """
        table, seat = await self._seat_of(table_id, token)
        rated = await self.db(self.store.rated_table, table.id)
        seats = await self.db(self.store.seats_of, table.id)
        if rated is None or rated.status != "playing":
            raise WebError("not-allowed", "this is not a rated match in play")
        if seats.get(seat, ("",))[0] != account.id:
            raise WebError("not-allowed", "this seat is not your account's")
        await self.db(self.store.mark_abandoned, account.id, table.id)
        if any(s.kind == "human" and s.controller == "human" and s.seat != seat
               for s in table.seats):  # people play on: a bot takes the seat
            with contextlib.suppress(WebError):
                await self.manager.give_to_bot(table.id, token, seat, table.settings.level)
        await self.settle(table.id)
        return await self.table_info(table.id)

    # -- settlement --------------------------------------------------------------------------
    async def settle(self, table_id: str, *, stale: bool = False) -> dict[str, Any] | None:
        """Settle the rated match of ``table_id`` if it is over or abandoned (None: not yet,
        or settled already). ``stale``: the table has not moved for :data:`STALE_AFTER`:
        every person not connected to it has left, and abandoned it."""
        try:
            table = await self.manager.get(table_id)
        except WebError:
            return None  # the table is gone: left as it is
        seats = await self.db(self.store.seats_of, table_id)
        async with table.lock:
            match = table.game.match
            over = match.is_over
            info = []
            for s in table.seats:
                account = seats.get(s.seat)
                human = s.kind == "human"
                quit_ = bool(account and account[2]) or (over and human and s.controller
                                                         != "human") or (
                    stale and human and table.connected(s.seat) == 0)
                info.append(SeatFacts(human, account[0] if account else None,
                                      s.level if not human else "", quit_))
            facts = MatchFacts(tuple(match.teams), match.winner if over else None,
                               tuple(match.scores), tuple(info))
        if not over and not any(s.abandoned for s in info):
            return None
        anchors = {i: Rating(*anchor_of(s.level or "medium", table.variant))
                   for i, s in enumerate(info) if not s.human}

        def compute(people: dict[str, Rating]) -> Any:
            return settle(facts, people, anchors)

        done: dict[str, Any] | None = await self.db(self.store.settle, table_id, compute)
        if done:
            log.info("table %s: rated match %s (%s)", table_id, done["status"],
                     done["reason"])
        return done

    async def settle_pending(self) -> None:
        """Settle the finished rated matches nobody has settled yet, and those left without
        a move for :data:`STALE_AFTER` (their absent people abandoned them)."""
        for table_id in await self.db(self.store.unsettled_over):
            with contextlib.suppress(WebError):
                await self.settle(table_id)
        for table_id in await self.db(self.store.unsettled_stale, self.stale_after):
            with contextlib.suppress(WebError):
                await self.settle(table_id, stale=True)


def _verify(hashed: str, password: str) -> bool:
    try:
        return HASHER.verify(hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
