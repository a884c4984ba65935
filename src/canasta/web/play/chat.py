"""The chat at a table: preset phrases, free text where the host allows it, mute, block and
report.

Rules:

* Only a person seated at the table (a seat's token) says anything; bots never chat, and
  spectators neither send nor receive the chat, so that blocking someone cannot be undone by
  opening the spectator's link.
* Preset phrases (:data:`canasta.web.protocol.chatmessages.PRESETS`) are always allowed; they
  travel as keys, and each page shows them in its reader's language
  (``chat.preset.<key>``).
* Free text is allowed only where the host chose ``chat: "free"`` when creating the table
  (canasta.web.play.settings); a rated or a tournament table takes preset phrases only,
  whatever the setting (:func:`chat_mode`). Free text is cleaned like a name (control and
  bidi characters dropped) and at most 200 characters; pages show it as text, never as
  markup.
* **Mute** (``chat-mute`` with ``mode: "mute"``): I no longer see that person's messages;
  they are not told. **Block** (``mode: "block"``): as mute, and my messages no longer reach
  them either: the two of us are cut off both ways. ``mode: "none"`` undoes either. Both are
  stored per table and person and hold after a reload or a reconnection.
* **Report** (``chat-report`` with a message's ``id``): the message is stored with the
  table's record as it was sent (who, when, what), and the record download carries it under
  ``"reports"`` (docs/formats.md). Reporting does not hide it; mute does.
* Rate: the seat's budget for all its messages and the chat's own
  (:class:`canasta.web.protocol.ratelimit.ChatBudget`).

A connection takes part when its hello says ``"chat": true`` (the page's does); others (a
bot client of the API) never receive chat messages.

Several processes (canasta.web.cluster): a message is stored, sent to this process's
connections, and published (``{"k": "chat"}``); every process that holds the table sends it
to its own connections, each filtered by the mutes and blocks it holds. A change of mutes is
published too (``{"k": "chat-modes"}``), and a connection's welcome reads them from the
database, the truth.
"""

from __future__ import annotations

import weakref
from typing import Any

from canasta.web.dispatch import Context, Dispatcher
from canasta.web.play.connections import Connection
from canasta.web.play.seats import Table
from canasta.web.play.tables import TableManager
from canasta.web.protocol.chatmessages import MAX_CHAT, PRESETS, ChatMute, ChatReport, ChatSay
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.ratelimit import ChatBudget
from canasta.web.storage import chatrows

#: Messages a connection receives when it arrives (the last ones it may see).
HISTORY = 50

Modes = dict[int, dict[int, str]]


def chat_mode(table: Table) -> str:
    """What ``table``'s chat allows: ``"presets"`` or ``"free"``. A table marked rated or
    tournament (settings ``rated``/``tournament``, where the server has them) has presets
    only; otherwise the host's setting."""
    settings = table.settings
    if getattr(settings, "rated", False) or getattr(settings, "tournament", None):
        return "presets"
    return "free" if settings.chat == "free" else "presets"


def hears(modes: Modes, sender: int, reader: int | None) -> bool:
    """Whether ``reader`` (None: a spectator) sees a message of ``sender``: not a spectator,
    not muting or blocking the sender, not blocked by the sender."""
    if reader is None:
        return False
    if reader == sender:
        return True
    if modes.get(reader, {}).get(sender) in ("mute", "block"):
        return False
    return modes.get(sender, {}).get(reader) != "block"


class ChatDesk:
    """The chat of every table of one process (see the module docstring)."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.budget = ChatBudget()
        self.modes: dict[str, Modes] = {}
        #: the connections that asked for the chat in their hello (``"chat": true``)
        self.listeners: weakref.WeakSet[Connection] = weakref.WeakSet()
        manager.bus_handlers["chat"] = self._heard_message
        manager.bus_handlers["chat-modes"] = self._heard_modes

    def install(self, dispatcher: Dispatcher) -> None:
        dispatcher.register(ChatSay, self.say)
        dispatcher.register(ChatMute, self.mute)
        dispatcher.register(ChatReport, self.report)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.manager.db(fn, self.manager.store.engine, *args)

    async def _seat(self, ctx: Context) -> tuple[Table, int]:
        if ctx.table_id is None:  # pragma: no cover - a wiring bug
            raise WebError("malformed", "no table")
        table = await self.manager.get(ctx.table_id)
        seat = table.seat_of(ctx.token)
        if table.seats[seat].kind != "human":
            raise WebError("not-allowed", "only a person seated here can chat")
        return table, seat

    async def _modes(self, table: Table, reload: bool = False) -> Modes:
        modes = self.modes.get(table.id)
        if modes is None or reload:
            modes = self.modes[table.id] = await self._db(chatrows.modes, table.id)
        return modes

    # -- requests ------------------------------------------------------------------------
    async def say(self, req: ChatSay, ctx: Context) -> None:
        """Store and send a message of the sender's seat.

        Raises:
            WebError: ``spectator``/``bad-token``; ``not-allowed``, free text where the
                table takes presets only; ``rate-limited``.
        """
        table, seat = await self._seat(ctx)
        if req.text is not None and chat_mode(table) != "free":
            raise WebError("not-allowed", "this table's chat takes preset phrases only "
                                          "(the host's setting, or a rated or tournament "
                                          "table)")
        self.budget.spend(table.id, seat)
        message = await self._db(chatrows.add_message, table.id, seat, table.seats[seat].name,
                                 req.preset, req.text)
        await self._deliver(table, message)
        self.manager.bus.publish({"k": "chat", "t": table.id, "m": message})

    async def mute(self, req: ChatMute, ctx: Context) -> None:
        """Store how the sender hears seat ``req.seat``; the sender's connections are told
        (``{"type": "chat-modes", "modes": {seat: mode}}``).

        Raises:
            WebError: ``malformed``, a seat that is not at the table or is the sender's own.
        """
        table, seat = await self._seat(ctx)
        if req.seat >= len(table.seats) or req.seat == seat:
            raise WebError("malformed", f"'seat': {req.seat} is not another seat of this "
                                        "table")
        await self._db(chatrows.set_mode, table.id, seat, req.seat, req.mode)
        self._set(table.id, seat, req.seat, req.mode)
        self._tell_modes(table, seat)
        self.manager.bus.publish({"k": "chat-modes", "t": table.id, "s": seat,
                                  "target": req.seat, "mode": req.mode})

    async def report(self, req: ChatReport, ctx: Context) -> dict[str, Any]:
        """Report message ``req.id``: stored with the table's record; answered
        ``{"type": "chat-reported", "id", "new"}`` (``new``: false when this person had
        reported it already).

        Raises:
            WebError: ``not-found``, no such message at this table.
        """
        table, seat = await self._seat(ctx)
        stored = await self._db(chatrows.add_report, table.id, req.id, seat)
        if stored is None:
            raise WebError("not-found", f"'id': no chat message {req.id} at this table")
        return {"type": "chat-reported", "id": req.id, "new": stored}

    # -- delivery ------------------------------------------------------------------------
    def _set(self, table_id: str, seat: int, target: int, mode: str) -> None:
        modes = self.modes.setdefault(table_id, {})
        if mode == "none":
            modes.get(seat, {}).pop(target, None)
        else:
            modes.setdefault(seat, {})[target] = mode

    def _tell_modes(self, table: Table, seat: int) -> None:
        mine = self.modes.get(table.id, {}).get(seat, {})
        message = {"type": "chat-modes", "modes": {str(k): v for k, v in mine.items()}}
        for conn in list(table.conns):
            if conn.seat == seat and conn in self.listeners:
                conn.push(message)

    async def _deliver(self, table: Table, message: dict[str, Any]) -> None:
        modes = await self._modes(table)
        sender = int(message["seat"])
        for conn in list(table.conns):
            if conn in self.listeners and hears(modes, sender, conn.seat):
                conn.push(message)

    async def welcome(self, table: Table, conn: Connection) -> None:
        """A connection arrived asking for the chat: a seated person's gets
        ``{"type": "chat-welcome", "mode", "presets", "max", "modes", "messages"}`` (the
        last messages it may see) and the chat from now on; a spectator's gets nothing."""
        seat = conn.seat
        if seat is None or table.seats[seat].kind != "human":
            return
        self.listeners.add(conn)
        modes = await self._modes(table, reload=True)
        history = await self._db(chatrows.recent, table.id, HISTORY)
        conn.push({"type": "chat-welcome", "mode": chat_mode(table), "presets": list(PRESETS),
                   "max": MAX_CHAT,
                   "modes": {str(k): v for k, v in modes.get(seat, {}).items()},
                   "messages": [m for m in history if hears(modes, int(m["seat"]), seat)]})

    async def _heard_message(self, table: Table, message: dict[str, Any]) -> None:
        m = message.get("m")
        if isinstance(m, dict) and isinstance(m.get("seat"), int):
            await self._deliver(table, m)

    async def _heard_modes(self, table: Table, message: dict[str, Any]) -> None:
        seat, target, mode = message.get("s"), message.get("target"), message.get("mode")
        if isinstance(seat, int) and isinstance(target, int) and mode in (
                "none", "mute", "block"):
            await self._modes(table)
            self._set(table.id, seat, target, str(mode))
            self._tell_modes(table, seat)

    async def reports(self, table_id: str) -> list[dict[str, Any]]:
        """The reports of a table's chat (:func:`canasta.web.storage.chatrows.reports`)."""
        out: list[dict[str, Any]] = await self._db(chatrows.reports, table_id)
        return out

    def forget(self, table_id: str) -> None:
        self.modes.pop(table_id, None)
