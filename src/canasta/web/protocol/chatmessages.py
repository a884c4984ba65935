"""The WebSocket messages of a table's chat (:mod:`canasta.web.play.chat` runs them).

* ``{"type": "chat", "preset": "well_played"}``: a preset phrase, named by its key (each
  reader sees it in their own language, ``chat.preset.<key>`` of the catalogues); always
  allowed to a seated person.
* ``{"type": "chat", "text": "..."}``: free text, at a table whose host allowed it; at most
  :data:`MAX_CHAT` characters once control and bidi characters are gone.
* ``{"type": "chat-mute", "seat": s, "mode": "mute" | "block" | "none"}``: how the sender
  hears seat ``s`` from now on.
* ``{"type": "chat-report", "id": n}``: report message ``n`` (it is stored with the table's
  record).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field, model_validator

from canasta.web.protocol.base import Request
from canasta.web.protocol.fields import SeatNumber, clean_name

#: Characters of a free-text message, once cleaned.
MAX_CHAT = 200
#: The preset phrases, by key (``chat.preset.<key>`` in every catalogue).
PRESETS = ("hello", "good_luck", "well_played", "nice_meld", "thanks", "sorry", "oops",
           "think", "hurry", "good_game", "rematch", "bye")
CHAT_TYPES = ("chat", "chat-mute", "chat-report")


def _clean_text(value: str) -> str:
    text = clean_name(value)
    if not text:
        raise ValueError("the message is empty")
    if len(text) > MAX_CHAT:
        raise ValueError(f"at most {MAX_CHAT} characters, not {len(text)}")
    return text


ChatText = Annotated[str, Field(max_length=MAX_CHAT * 4, description=(
    f"free text, at most {MAX_CHAT} characters (control and bidi characters are dropped)")),
    AfterValidator(_clean_text)]


class _ChatRequest(Request):
    """A chat message from a seat: spends the seat's budget (and the chat's own,
    canasta.web.protocol.ratelimit.ChatBudget)."""

    limit: ClassVar[str | None] = "seat"


class ChatSay(_ChatRequest):
    """Say a preset phrase (``preset``) or free text (``text``), one of them."""

    type: Literal["chat"]
    preset: Literal[PRESETS] | None = None  # type: ignore[valid-type]
    text: ChatText | None = None

    @model_validator(mode="after")
    def _one_form(self) -> ChatSay:
        if (self.preset is None) == (self.text is None):
            raise ValueError("a chat message needs 'preset' (a phrase's key) or 'text', one "
                             "of them")
        return self


class ChatMute(_ChatRequest):
    """How the sender hears seat ``seat``: ``mute`` (I no longer see their messages),
    ``block`` (nor they mine), ``none`` (both again)."""

    type: Literal["chat-mute"]
    seat: SeatNumber
    mode: Literal["none", "mute", "block"]


class ChatReport(_ChatRequest):
    """Report message ``id`` of this table's chat."""

    reply: ClassVar[bool] = True
    type: Literal["chat-report"]
    id: Annotated[int, Field(ge=1, le=2**62)]
