"""Help at the table: hints (the best moves with reasons, :func:`canasta.bots.suggest`), the
casual house rule undo (:class:`canasta.core.undo.TurnMark`, the mechanism of ``canasta play
--undo``), and giving a seat to a bot.

Hints are searched in a worker thread, outside the table's lock, against the version the
person asked at; they are sent to that person only, never stored.
"""

from __future__ import annotations

import time
from typing import Any

from canasta.bots import DEFAULT_BUDGET, Suggestion
from canasta.core.actions import action_to_json
from canasta.web.play.service import TableService
from canasta.web.play.settings import SettingsError, check_level
from canasta.web.play.standin import check_absent
from canasta.web.protocol.errors import WebError, bad

#: Seconds of search per hint: the same as `canasta hint` and `canasta play`.
HINT_BUDGET = DEFAULT_BUDGET
HINT_COUNT = 3


def suggestions_json(items: list[Suggestion]) -> list[dict[str, Any]]:
    """Suggestions as data: the action (JSON form and text), the value and the reasons by
    catalogue key (``hint.reason.<key>``) with their values, for the page to write."""
    out = []
    for s in items:
        action = action_to_json(s.action)
        action["text"] = s.action.text()
        out.append({"action": action, "value": round(s.value, 1),
                    "reasons": [{"key": f"hint.reason.{r.key}", "values": dict(r.params)}
                                for r in s.reasons]})
    return out


class AssistedService(TableService):
    """The table service with hints, undo and seats handed to bots."""

    hint_budget = HINT_BUDGET

    async def hint(self, table_id: str, token: Any) -> dict[str, Any]:
        """``{"type": "hint", "version", "items": [...]}`` for the seat of ``token``, which
        must be the one to act at a table that offers hints.

        Raises:
            WebError: ``not-allowed`` (hints are off at this table, or a bot plays the seat),
                ``not-your-turn``.
        """
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            if not table.settings.hints:
                raise WebError("not-allowed", "hints are switched off at this table")
            self._check_turn(table, seat)
            view = await self.engine(table, table.game.view, seat)
            version = table.version
        from canasta.bots import suggest  # looked up when asked: tests put their own

        items = await self.engine(table, suggest, view, HINT_COUNT, self.hint_budget,
                                  bot=True)
        return {"type": "hint", "version": version, "items": suggestions_json(list(items))}

    async def undo(self, table_id: str, token: Any, version: Any) -> dict[str, Any]:
        """Take back the melds and lay-offs of the current turn of the seat of ``token``
        (house rule undo): the match goes back to just after its draw, and the actions are
        kept in the database marked undone.

        Raises:
            WebError: ``not-allowed`` (the rule is off, or there is nothing to undo),
                ``stale``, ``not-your-turn``, ``storage``.
        """
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            if not table.settings.undo:
                raise WebError("not-allowed", "undo is not a house rule of this table")
            await self.fresh(table, version)
            self._check_version(table, version)
            self._check_turn(table, seat)
            mark = table.undo_mark
            since = mark.taken_back(table.game.match) if mark and mark.seat == seat else None
            if not since:
                raise WebError("not-allowed",
                               "nothing to undo: only your melds and lay-offs of this turn, "
                               "before the discard")
            seen = table.version
            at = time.time()
            try:
                await self.db(self.store.undo_actions, table.id, seen, len(since), at)
            except Exception:
                await self.refresh(table, rebuild=True)
                if table.version != seen:
                    self._changed(table)
                    raise WebError("stale", "the table has moved on: look again") from None
                raise WebError("storage", "the undo could not be stored; try again") from None
            assert mark is not None
            taken = mark.undo(table.game.match)
            table.game.note_taken_back(seat, mark.events, taken)
            table.version = seen + 1
            table.changed_at = at
            self.bus.publish({"k": "changed", "t": table.id, "v": table.version})
            self._changed(table)
            return await self.state_of(table, seat)

    async def give_to_bot(self, table_id: str, token: Any, seat: Any,
                          level: Any) -> dict[str, Any]:
        """Let a bot play ``seat``: your own at any time and at any ``level``; another
        person's only once nobody has been connected to it for the grace period
        (``away_after``), and then at the table's level (``settings.level``) only, as when
        the away time runs out on its turn (canasta.web.play.clock).

        Raises:
            WebError: ``malformed`` (a bad seat or level), ``not-allowed`` (a bot plays it
                already, its person is at the table or left less than the grace period ago,
                or a level was asked for another person's seat).
        """
        table = await self.get(table_id)
        async with table.lock:
            me = table.seat_of(token)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise bad("'seat' must be a seat number")
            if not 0 <= seat < table.players:
                raise WebError("not-found", f"'seat': this table has no seat {seat} (its seats "
                                            f"are 0 to {table.players - 1})")
            try:
                level = check_level(level or table.settings.level, "'level'")
            except SettingsError as exc:
                raise WebError("bad-bot", str(exc)) from None
            target = table.seats[seat]
            if target.controller == "bot":
                raise WebError("not-allowed", f"a bot already plays {target.name}'s seat")
            away = seat != me
            if away:
                check_absent(table, target, level, self.clocks.away_after)
            await self._set_controller(table, target, "bot", level, away=away)
            if seat == table.game.state.actor:
                table.undo_mark = None
            self._changed(table)
            return await self.state_of(table, me)
