"""The errors of the table server: a refused request leaves the table unchanged and is
answered ``{"type": "error", "code", "message", ...}`` with a code (its HTTP status in
:data:`ERROR_STATUS`); and the reading of a move message, which refuses anything that is not
an action."""

from __future__ import annotations

from typing import Any

from canasta.core.actions import Action, ActionParseError, action_from_json, parse_action
from canasta.core.rules import Rules
from canasta.core.state import IllegalActionError, State
from canasta.i18n.refusals import refusal_parts

#: HTTP status of each error code (a WebSocket client gets the code and the message).
ERROR_STATUS = {
    "malformed": 400,
    "bad-token": 403,
    "spectator": 403,
    "unknown-table": 404,
    "not-found": 404,
    "not-your-turn": 409,
    "stale": 409,
    "not-allowed": 409,
    "illegal": 422,
    "bad-rules": 400,
    "bad-bot": 400,
    "tally": 400,
    "table": 400,
    "rate-limited": 429,
    "not-signed-in": 401,
    "bad-login": 401,
    "csrf": 403,
    "name-taken": 409,
    "method-not-allowed": 405,
    "storage": 503,
    "paused": 503,
    "server-error": 500,
}


class WebError(Exception):
    """A request the server refuses; the table is unchanged. ``code`` is one of
    :data:`ERROR_STATUS` (``status`` overrides its HTTP status); ``rule`` and ``refusal``
    explain an illegal move; ``extra`` adds fields to the error message (the scorepad's
    i18n ``key`` and ``values``)."""

    def __init__(self, code: str, message: str, rule: str | None = None,
                 refusal: dict[str, Any] | None = None, *, status: int | None = None,
                 extra: dict[str, Any] | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.refusal = refusal
        self._status = status
        self.extra = extra or {}
        #: seconds until a ``rate-limited`` request may be sent again
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        return self._status or ERROR_STATUS.get(self.code, 400)

    def to_json(self, version: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.refusal:
            out["refusal"] = self.refusal
        out.update(self.extra)
        if version is not None:
            out["version"] = version
        return out


def illegal_error(exc: IllegalActionError, rules: Rules, state: State) -> WebError:
    """The error of an illegal move: the engine's reason (English, for API clients) and the
    refusal as data (with the values of the seat to act), which the page writes in its own
    language."""
    return WebError("illegal", exc.reason, exc.rule, refusal_parts(exc, rules, state))


def paused_error(budget: float) -> WebError:
    """A table paused because an engine call for it ran longer than ``budget`` seconds (the
    page writes ``ui.err_paused`` in its language)."""
    return WebError("paused", f"this table is paused: the engine worked on it for longer "
                              f"than {budget:g} s; it goes on when that work is done",
                    extra={"key": "ui.err_paused", "values": {"seconds": budget}})


def bad(message: str) -> WebError:
    """A ``malformed`` request: the message names the field and what is expected."""
    return WebError("malformed", message)


def parse_move(data: Any) -> Action:
    """The action of a move message: ``{"action": {JSON form}}`` or ``{"text": "..."}``."""
    if "action" in data:
        try:
            return action_from_json(data["action"])
        except ActionParseError as exc:
            raise bad(str(exc)) from None
    if "text" in data:
        if not isinstance(data["text"], str) or len(data["text"]) > 400:
            raise bad("'text' must be an action's text form")
        try:
            return parse_action(data["text"])
        except ActionParseError as exc:
            raise bad(str(exc)) from None
    raise bad("a move needs 'action' (the JSON form) or 'text' (the text form)")

