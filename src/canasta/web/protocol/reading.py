"""The reading of raw bytes into the table server's messages, and the one message of a
validation failure.

Before a model sees a body or a message, :func:`read_json` refuses one that is too large, not
UTF-8, not JSON (``NaN``, a lone surrogate) or nested deeper than a few levels. A refusal is a
:class:`canasta.web.protocol.errors.WebError` ``malformed`` whose message names the field
(:func:`describe`), and the table is unchanged.
"""

from __future__ import annotations

from typing import Any

import pydantic_core
from pydantic import TypeAdapter, ValidationError

from canasta.web.protocol.errors import WebError, bad
from canasta.web.protocol.fields import ACTION_TYPES
from canasta.web.protocol.messages import MESSAGE_TYPES, ClientMessage, Hello, Request

_MESSAGE = TypeAdapter(ClientMessage)
_HELLO = TypeAdapter(Hello)


# -- reading bytes ---------------------------------------------------------------------------
def _depth(value: Any, limit: int) -> bool:
    """Whether ``value`` nests objects and arrays no deeper than ``limit``."""
    level = [value]
    for _ in range(limit + 1):
        nxt: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nxt.extend(item.values())
            elif isinstance(item, list):
                nxt.extend(item)
        if not nxt:
            return True
        level = nxt
    return False


def read_json(raw: bytes | str, max_bytes: int, max_depth: int, what: str = "request") -> Any:
    """The JSON value of a body or message.

    Raises:
        WebError: ``malformed``: larger than ``max_bytes``, not UTF-8, not JSON (``NaN`` and
            lone surrogates are not JSON), or nested deeper than ``max_depth``.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise bad(f"the {what} is too large (at most {max_bytes} bytes)")
    try:
        # pydantic's parser: no recursion in Python, no NaN, no lone surrogates
        value = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError as exc:
        reason = str(exc)
        if "recursion" in reason:
            raise bad(f"the {what} is nested too deep (at most {max_depth} levels)") from None
        raise bad(f"the {what} is not JSON: {reason}") from None
    if not _depth(value, max_depth):
        raise bad(f"the {what} is nested too deep (at most {max_depth} levels)")
    return value


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        elif i and loc[i - 1] == "action" and part in ACTION_TYPES:
            continue  # the tag of the action's union, not a field
        else:
            out += f".{part}" if out else str(part)
    return out


def describe(errors: list[Any], *, skip: int = 0) -> str:
    """One message for a validation failure: the first error's field and reason
    (``'seats[0].type': Input should be 'human', 'bot' or 'open'``). ``skip``: leading
    parts of each location to leave out (FastAPI's ``body``, a message's tag)."""
    if not errors:
        return "the request is not valid"
    unknown = [_loc(tuple(e.get("loc", ()))[skip:]) for e in errors
               if e.get("type") == "extra_forbidden"]
    if len(unknown) > 1:
        return "unknown fields " + ", ".join(f"'{u}'" for u in unknown)
    err = errors[0]
    loc = tuple(err.get("loc", ()))[skip:]
    kind = err.get("type", "")
    msg = str(err.get("msg", "not valid"))
    if kind == "extra_forbidden":
        msg = "unknown field"
    elif kind == "missing":
        msg = "required"
    elif kind in ("value_error", "assertion_error"):
        msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if not loc:
        return msg
    return f"'{_loc(loc)}': {msg}"


#: The pydantic error types of the models' checks that no JSON Schema can say, and the codes
#: of their refusals: a request refused with one of them fits the published schema.
BEYOND_SCHEMA = {"bad_bot": "bad-bot", "table": "table"}


def refusal(errors: list[Any], *, skip: int = 0) -> WebError:
    """The refusal of a validation failure: ``malformed`` when the request breaks the
    published schema, else the code of the check it failed (:data:`BEYOND_SCHEMA`), with
    :func:`describe`'s message (``skip`` as there)."""
    breaks = [e for e in errors if e.get("type") not in BEYOND_SCHEMA]
    if breaks or not errors:
        return bad(describe(breaks, skip=skip))
    return WebError(BEYOND_SCHEMA[errors[0]["type"]], describe(errors, skip=skip))


def invalid(exc: ValidationError, skip: int = 0) -> WebError:
    return refusal(exc.errors(include_url=False), skip=skip)


def read_hello(value: Any) -> Hello:
    """The first WebSocket message.

    Raises:
        WebError: ``malformed``, naming the bad field.
    """
    if not isinstance(value, dict) or value.get("type") != "hello":
        raise bad('first send {"type": "hello", "token": ...}')
    try:
        return _HELLO.validate_python(value)
    except ValidationError as exc:
        raise invalid(exc) from None


def read_message(value: Any) -> Request:
    """A WebSocket message after the hello (one of :data:`MESSAGE_TYPES`).

    Raises:
        WebError: ``malformed``: not an object, an unknown type, or a bad field (named).
    """
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise bad('expected {"type": ...}')
    kind = value["type"]
    if kind not in MESSAGE_TYPES:
        raise bad(f"unknown message type {kind[:40]!r}; the types are "
                  f"{', '.join(MESSAGE_TYPES)}")
    try:
        message: Request = _MESSAGE.validate_python(value)
    except ValidationError as exc:
        raise invalid(exc, skip=1) from None
    return message
