"""The base models of the table server's messages (:mod:`canasta.web.protocol.messages`,
:mod:`canasta.web.protocol.chatmessages`)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """Strict types, unknown fields refused, values frozen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Request(Strict):
    """A request to the server. ``limit`` names the budget it spends (``seat``: the sender's
    seat's; ``create``, ``work``, ``view``: the client address's; None: free); ``status`` is
    the HTTP status of its answer; ``reply``: over the WebSocket, the answer goes to the
    sender (the others' answers are the state messages that every connection receives)."""

    limit: ClassVar[str | None] = None
    status: ClassVar[int] = 200
    reply: ClassVar[bool] = False
