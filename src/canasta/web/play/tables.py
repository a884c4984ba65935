"""Live tables: creating them, moves checked and stored before they are sent, new hands, the
public lobby of tables with a free seat, and rematches.

:class:`TableManager` is the server's one object per process. The path every change takes,
the connections and the bots are in :mod:`canasta.web.play.service`; hints, undo and seats handed
to bots in :mod:`canasta.web.play.assist`; the turn clock and the takeover of a silent seat in
:mod:`canasta.web.play.clock`; the seats and the state message in :mod:`canasta.web.play.seats`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from canasta.bots import make_bot
from canasta.core.actions import Action
from canasta.core.dealproof import DealProof
from canasta.core.rules import PRESETS, RulesError, load_preset, preset_options
from canasta.core.state import IllegalActionError
from canasta.i18n.catalogue import DEFAULT, t
from canasta.web.play.assist import AssistedService
from canasta.web.play.connections import Connection
from canasta.web.play.game import Game, record_of, rules_json
from canasta.web.play.seats import MAX_NAME, UNCLAIMED, Seat, Table, hash_token
from canasta.web.play.settings import (
    LEVELS,
    BotSpecError,
    SettingsError,
    TableSettings,
    check_level,
    default_level,
    parse_settings,
)
from canasta.web.protocol.errors import ERROR_STATUS, WebError, bad, illegal_error, parse_move
from canasta.web.storage.models import TableData

__all__ = ["ERROR_STATUS", "Connection", "TableManager", "WebError", "bot_levels",
           "default_level", "hash_token", "parse_move", "variants"]

log = logging.getLogger("canasta.web")


def bot_levels() -> list[str]:
    """The bot levels the lobby offers (any registered bot is accepted by the API)."""
    from canasta.bots import BOTS

    return [name for name in LEVELS if name in BOTS]


def _name(value: Any, where: str, fallback: str) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise bad(f"{where} must be a string")
    return " ".join(value.split())[:MAX_NAME] or fallback


def _player_n(n: int, lang: Any) -> str:
    """The default name of a person's seat, "Player 2", in ``lang`` (English if unknown)."""
    return t("ui.player_n", lang if isinstance(lang, str) else DEFAULT, n=n)


def _seats(seat_specs: Any, players: int, public: bool, lang: Any = DEFAULT) -> list[Seat]:
    """The seats of a creation request (tokens are added by the caller); unnamed people
    are "Player N" in ``lang``."""
    if seat_specs is None:
        seat_specs = [{"type": "human"}] + [{"type": "bot"}] * (players - 1)
    if not isinstance(seat_specs, list) or len(seat_specs) != players:
        raise WebError("table", f"'seats': {players} players need {players} seats")
    seats: list[Seat] = []
    for i, item in enumerate(seat_specs):
        if not isinstance(item, dict):
            raise bad(f"seats[{i}] must be an object")
        kind = item.get("type", "human")
        if kind not in ("human", "bot", "open"):
            raise bad(f"seats[{i}].type must be 'human', 'bot' or 'open'")
        if kind == "open" and not public:
            raise WebError("table", f"'seats[{i}]': a free seat ('open') needs a public "
                                    "table")
        try:
            level = check_level(item.get("level"), f"'seats[{i}].level'")
        except SettingsError as exc:
            raise WebError("bad-bot", str(exc)) from None
        fallback = f"Bot {i + 1}" if kind == "bot" else _player_n(i + 1, lang)
        name = _name(item.get("name"), f"seats[{i}].name", fallback)
        # a free seat is played by a bot until a person takes it from the lobby
        controller = "human" if kind == "human" else "bot"
        seats.append(Seat(i, kind, controller, level, name, None))
    if not any(s.kind == "human" for s in seats):
        raise WebError("table", "'seats': a table needs at least one person: make one "
                                "seat human")
    return seats


class TableManager(AssistedService):
    """All live tables of one server (see :class:`canasta.web.play.service.TableService`).

    ``deal_source``: where the secrets of a table's next hand come from when they are not
    drawn fresh (a duplicate tournament's tables share their deals,
    :mod:`canasta.web.tournaments`): called with the table and the number of the hand to
    deal, it returns them, or None for fresh ones.
    """

    deal_source: Callable[[Table, int], Awaitable[DealProof | None]] | None = None

    # -- creating a table ------------------------------------------------------------------
    async def create(self, spec: Any) -> tuple[Table, list[str | None]]:
        """Create a table from ``spec`` (see docs in :mod:`canasta.web.app`); returns it and
        one secret token per human seat (None for bot and free seats).

        Raises:
            WebError: ``malformed``, naming the field and what is expected.
        """
        if not isinstance(spec, dict):
            raise bad("expected a JSON object describing the table")
        variant = spec.get("variant", "international")
        if not isinstance(variant, str):
            raise bad("'variant' must be a string")
        options = spec.get("options") or {}
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int, float, bool))
            for k, v in options.items()
        ):
            raise bad("'options' must map option names to values")
        try:
            rules = load_preset(variant, options)
        except RulesError as exc:
            where = "options" if options else "variant"
            raise WebError("bad-rules", f"'{where}': {exc}") from None
        try:
            settings = parse_settings(spec)
        except BotSpecError as exc:
            raise WebError("bad-bot", str(exc)) from None
        except SettingsError as exc:
            raise bad(str(exc)) from None
        variant = rules.name
        players = spec.get("players", len(spec.get("seats") or []) or 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise bad("'players' must be an integer")
        if players not in rules.deal.player_counts:
            counts = ", ".join(map(str, rules.deal.player_counts))
            raise WebError("bad-rules", f"'players': {variant} is played by {counts} "
                                        f"players, not {players}")
        team_size = spec.get("team_size")
        if team_size is not None and (not isinstance(team_size, int)
                                      or isinstance(team_size, bool)):
            raise bad("'team_size' must be an integer or null")
        try:
            rules.teams(players, team_size)
        except RulesError as exc:
            raise WebError("bad-rules", f"'team_size': {exc}") from None
        seats = _seats(spec.get("seats"), players, settings.public, spec.get("lang"))
        tokens: list[str | None] = []
        for seat in seats:
            token = secrets.token_urlsafe(18) if seat.kind == "human" else None
            seat.token_hash = hash_token(token) if token else None
            tokens.append(token)
        table = await self._new_table(rules, variant, dict(options), players, team_size,
                                      seats, settings)
        return table, tokens

    async def _new_table(self, rules: Any, variant: str, options: dict[str, Any],
                         players: int, team_size: int | None, seats: list[Seat],
                         settings: Any, table_id: str | None = None,
                         proof: DealProof | None = None) -> Table:
        """Deal the first hand (in a thread: a deal may be dealt again after misdeals; from
        ``proof`` when given), store the table (under ``table_id``, or a new id) and start
        it."""
        names = [s.name for s in seats]
        try:
            game = await self.think(Game.new, rules, players, team_size, names, proof)
        except WebError:
            raise  # the deal ran past the engine's budget
        except Exception as exc:  # a rule value that cannot deal (refused, not a crash)
            raise WebError("bad-rules", f"these rules cannot deal a hand: {exc}") from None
        data = TableData(table_id or secrets.token_urlsafe(9), variant, options, players,
                         team_size, 0, "playing", [s.to_data() for s in seats],
                         [game.stored_hand(0)], settings.to_json(),
                         rules_json(rules), game.match.seed)
        return await self._open(data, seats, settings, game)

    # -- new tables ------------------------------------------------------------------------
    async def _open(self, data: TableData, seats: list[Seat], settings: TableSettings,
                    game: Game) -> Table:
        """Store a new table and start it here (this process takes its lease)."""
        data.turn = "bot" if seats[game.state.actor].controller == "bot" else "human"
        data.at = time.time()
        await self.db(self.store.create_table, data, self.origin, self.cluster.lease)
        for seat in seats:
            if seat.controller == "bot":
                seat.bot = make_bot(seat.level)
        table = Table(data.id, data.variant, dict(data.options), data.players, data.team_size,
                      0, "playing", seats, game, settings)
        table.changed_at = data.at
        self.tables[table.id] = table
        await self.cluster.loaded(table)
        async with table.lock:
            self._changed(table)
        return table

    # -- moves -----------------------------------------------------------------------------
    async def view(self, table_id: str, token: Any) -> dict[str, Any]:
        """The state message of the seat of ``token`` (None: a spectator's)."""
        table = await self.get(table_id)
        async with table.lock:
            return await self.state_of(table, None if token in (None, "")
                                       else table.seat_of(token))

    async def payload_of(self, table: Table, seat: int | None) -> dict[str, Any]:
        async with table.lock:
            return await self.state_of(table, seat)

    async def act(self, table_id: str, token: Any, version: Any,
                  action: Action) -> dict[str, Any]:
        """Play ``action`` for the seat of ``token``; returns that seat's new state message.

        Raises:
            WebError: ``bad-token``, ``stale``, ``not-your-turn``, ``illegal`` (with the
            rule), ``storage``; the table is unchanged.
        """
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            await self.fresh(table, version)
            self._check_version(table, version)
            self._check_turn(table, seat)
            self._check_cap(table, [action])
            await self._commit(table, seat, [action])  # refused there when illegal
            return await self.state_of(table, seat)

    async def go_out(self, table_id: str, token: Any, version: Any) -> dict[str, Any]:
        """Play the engine's going-out plan for the seat of ``token`` (melds, lay-offs and the
        final discard, stored in one transaction)."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            await self.fresh(table, version)
            self._check_version(table, version)
            self._check_turn(table, seat)
            state = table.game.state
            plan = await self.engine(table, table.game.go_out_plan)
            if not plan:
                raise illegal_error(IllegalActionError("going out", "you cannot go out now"),
                                    table.game.rules, state)
            await self._commit(table, seat, plan)
            return await self.state_of(table, seat)

    async def new_table(self, rules: Any, variant: str, options: dict[str, Any],
                        players: int, team_size: int | None, seats: list[Seat],
                        settings: TableSettings, table_id: str,
                        proof: DealProof | None = None) -> Table:
        """A table made by the server itself (a tournament's): ``seats`` as they are (bots
        only is allowed, tokens already hashed), the first hand dealt from ``proof``.

        Raises:
            WebError: ``bad-rules`` (the rules do not deal), ``paused``; the database's
                error when ``table_id`` is taken.
        """
        return await self._new_table(rules, variant, options, players, team_size, seats,
                                     settings, table_id, proof)

    async def next_hand(self, table_id: str, token: Any, version: Any) -> dict[str, Any]:
        """Deal the next hand (any seated person may, once the hand is scored)."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            await self.fresh(table, version)
            self._check_version(table, version)
            await self._deal_next(table, seat)
            return await self.state_of(table, seat)

    async def deal_next(self, table_id: str) -> bool:
        """Deal the next hand of a table whose hand is scored, for nobody in particular (a
        tournament's tables go on by themselves); returns whether it dealt (False: the hand
        is in play, the match is over, or another process dealt first)."""
        table = await self.get(table_id)
        async with table.lock:
            await self.refresh(table)
            if not table.game.state.is_over or table.match_over or table.status != "playing":
                return False
            try:
                await self._deal_next(table, None)
            except WebError as exc:
                if exc.code in ("stale", "not-allowed"):
                    return False
                raise
            return True

    async def _deal_next(self, table: Table, seat: int | None) -> None:
        """The next hand, dealt and stored (under the table's lock)."""
        game = table.game
        if not game.state.is_over:
            raise WebError("not-allowed", "the hand is still being played")
        if table.match_over:
            raise WebError("not-allowed", "the match is over")
        seen = table.version
        proof = None
        if self.deal_source is not None:
            proof = await self.deal_source(table, game.hand_number + 1)
        try:
            # Match deals (the next dealer, a shuffle from the table's secret seed,
            # misdeals dealt again), in a thread
            hand = await self.engine(table, game.next_hand, proof)
            at = time.time()
            await self.db(self.store.append_hand, table.id, seen, hand, table.turn(), at)
        except WebError:
            raise  # paused
        except Exception as exc:
            log.warning("table %s: new hand not stored (%s)", table.id, exc)
            with contextlib.suppress(Exception):
                await self.refresh(table, rebuild=True)
            if table.version != seen:
                self._changed(table)
                raise WebError("stale", "the table has moved on: look again") from None
            raise WebError("storage", "the new hand could not be stored") from None
        table.version = seen + 1
        table.changed_at = at
        table.undo_mark = None
        self.bus.publish({"k": "changed", "t": table.id, "v": table.version})
        me = None if seat is None else table.seats[seat]
        if me is not None and me.away:  # dealing is a sign of life: the person is back
            await self._set_controller(table, me, "human", me.level)
        self._changed(table)

    # -- the lobby -------------------------------------------------------------------------
    async def open_tables(self) -> list[dict[str, Any]]:
        """Public tables in play with a free seat (from the database: every process's)."""
        tables: list[dict[str, Any]] = await self.db(self.store.open_tables)
        return tables

    async def join(self, table_id: str, seat: Any, name: Any,
                   lang: str = DEFAULT) -> tuple[Table, str]:
        """Take the free seat ``seat`` of a public table; returns its new secret token (no
        ``name``: "Player N" in ``lang``).

        Raises:
            WebError: ``malformed`` (seat, name), ``not-allowed`` (not a free seat, or
                someone took it first), ``unknown-table``.
        """
        table = await self.get(table_id)
        async with table.lock:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise bad("'seat' must be a seat number")
            if not 0 <= seat < table.players:
                raise WebError("not-found", f"'seat': this table has no seat {seat} (its seats "
                                            f"are 0 to {table.players - 1})")
            target = table.seats[seat]
            if target.kind != "open" or table.status != "playing":
                raise WebError("not-allowed", "this seat is not free")
            name = _name(name, "'name'", _player_n(seat + 1, lang))
            token = secrets.token_urlsafe(18)
            try:
                await self.db(self.store.claim_seat, table.id, seat, name,
                                        hash_token(token))
            except Exception:
                raise WebError("not-allowed", "this seat was just taken") from None
            target.kind = target.controller = "human"
            target.name, target.token_hash, target.bot, target.away = name, hash_token(token), \
                None, False
            table.game.names[seat] = name
            await self.db(self.store.set_controller, table.id, seat, "human", target.level,
                          False, table.turn())
            self.bus.publish({"k": "changed", "t": table.id, "v": table.version})
            if seat == table.game.state.actor:
                self.clocks.restart(table)
            self._changed(table)
            return table, token

    async def seats_changed(self, table_id: str) -> None:
        """Another module changed the table's seats in the database (an account's name at a
        rated table): read them again here, tell the other processes, send every view."""
        table = await self.get(table_id)
        async with table.lock:
            await self.refresh(table)
            self.bus.publish({"k": "changed", "t": table.id, "v": table.version})
            self._changed(table)

    async def rematch(self, table_id: str, token: Any) -> tuple[str, str]:
        """A new match with the same seats, settings and rules once this one is over.
        Returns its id (the same one to everyone who asks) and the asking person's new
        token: every human seat of the rematch gets a token of its own, given once, to the
        first request from that seat's old link (an old link opens no seat at the new table,
        and a copy of it cannot take the seat once its player has moved on).

        Raises:
            WebError: ``not-allowed`` (the match is not over, or this seat's new token was
                given already), ``bad-token``/``spectator`` (no seat's token).
        """
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            if table.settings.tournament:
                raise WebError("not-allowed", "a tournament's table has no rematch: the "
                                              "tournament page has the next round")
            if not table.game.match.is_over:
                raise WebError("not-allowed", "the match is not over")
            claimed = table.settings.rematch
            if not claimed:
                claimed = await self._make_rematch(table)
        await self._wait_for_table(str(claimed))  # made by another process, maybe
        return str(claimed), await self._claim_rematch_seat(str(claimed), seat)

    async def _make_rematch(self, table: Table) -> str:
        """The rematch of ``table`` (under its lock): made here unless another process named
        one first; its human seats wait for their new tokens (:data:`UNCLAIMED`)."""
        # The id is claimed in the database before the table is made: two processes
        # asked at once agree on one rematch (the loser waits until it exists).
        new_id = secrets.token_urlsafe(9)
        claimed = await self.db(self.store.claim_rematch, table.id, new_id)
        if claimed == new_id:
            settings = replace(table.settings, rematch=None)
            seats = [Seat(s.seat, s.kind, "human" if s.kind == "human" else "bot",
                          s.level, s.name, UNCLAIMED if s.kind == "human" else None)
                     for s in table.seats]
            try:
                await self._new_table(table.game.rules, table.variant,
                                      dict(table.options), table.players,
                                      table.team_size, seats, settings, new_id)
            except BaseException:
                await self.db(self.store.claim_rematch, table.id, None)
                raise
        table.settings = replace(table.settings, rematch=claimed)
        self.bus.publish({"k": "changed", "t": table.id, "v": table.version})
        self._broadcast(table)
        return str(claimed)

    async def _claim_rematch_seat(self, new_id: str, seat: int) -> str:
        """A new token for ``seat`` of the rematch ``new_id``, if the seat still waits for
        one (the database decides, so two processes cannot both give it)."""
        new = await self.get(new_id)
        token = secrets.token_urlsafe(18)
        async with new.lock:
            if not await self.db(self.store.claim_token, new.id, seat, UNCLAIMED,
                                 hash_token(token)):
                raise WebError("not-allowed", "this seat's link for the rematch was given "
                                              "already: open the rematch on the device that "
                                              "asked for it",
                               extra={"key": "ui.err_rematch_given"})
            new.seats[seat].token_hash = hash_token(token)
            self.bus.publish({"k": "changed", "t": new.id, "v": new.version})
        return token

    async def _wait_for_table(self, table_id: str, seconds: float = 5.0) -> None:
        """Wait until another process has stored the table ``table_id`` it claimed."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                await self.get(table_id)
                return
            except WebError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)

    # -- records ---------------------------------------------------------------------------
    async def record(self, table_id: str, hand: int | None = None) -> dict[str, Any]:
        """The game record of the finished hands (up to hand ``hand``; all of them by
        default), assembled from the stored hands without replaying them.

        Raises:
            WebError: ``not-found`` (no finished hand, or hand ``hand`` is not finished),
                ``unknown-table``.
        """
        table = await self.get(table_id)
        data = await self.db(self.store.load, table.id)
        if data is None:
            raise WebError("unknown-table", "there is no such table")
        done = [h.number for h in data.hands if h.finished]
        if not done:
            raise WebError("not-found", "no hand of this table has finished yet")
        if hand is not None and hand not in done:
            raise WebError("not-found", f"hand {hand} has not finished")
        rec: dict[str, Any] = await self.think(record_of, data, [s.name for s in data.seats],
                                               hand)
        return rec


def variants() -> list[dict[str, Any]]:
    """The presets a table can use, with their player counts and named house rules."""
    out = []
    for name in PRESETS:
        try:
            rules = load_preset(name)
            options = preset_options(name)
        except Exception:  # a preset that does not load is left out of the list
            log.exception("preset %s does not load", name)
            continue
        out.append({
            "name": name,
            "players": list(rules.deal.player_counts),
            "options": [
                {"name": o.name, "description": o.description, "default": o.default,
                 "choices": list(o.choices)}
                for o in options.values()
            ],
        })
    return out

