"""Events as JSON (docs/formats.md, "Events"): ``{"type": "drew", "seat": 1, ...}``.

Each field of an event (:mod:`canasta.core.events`) keeps its name; card codes are written as
card text (``"7h"``, ``"JK"``), hidden cards as ``null``, an action as its JSON form
(:func:`canasta.core.actions.action_to_json`) and a score sheet as
:meth:`~canasta.core.scoring.ScoreSheet.to_dict`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from canasta.core import events as ev
from canasta.core.actions import ActionParseError, action_from_json, action_to_json
from canasta.core.cards import NUM_CODES, card_text
from canasta.core.scoring import ScoreSheet
from canasta.formats.jsondoc import MAX_DECK, MAX_SCORE, Reader, sub

#: JSON type name of each event class.
EVENT_TYPES: dict[str, type[Any]] = {
    "dealt": ev.Dealt, "red_threes_laid_out": ev.RedThreesLaidOut,
    "upcard_turned": ev.UpcardTurned, "drew": ev.Drew, "took_pile": ev.TookPile,
    "melded": ev.Melded, "red_threes_declared": ev.RedThreesDeclared, "opened": ev.Opened,
    "discarded": ev.Discarded, "asked": ev.Asked, "answered": ev.Answered,
    "retracted": ev.Retracted, "hand_ended": ev.HandEnded, "played": ev.Played,
}
_NAME_OF = {cls: name for name, cls in EVENT_TYPES.items()}
#: Fields holding a tuple of card codes (or None where hidden).
_CARD_LISTS = frozenset(("cards", "drawn", "red_threes", "pile", "surprise", "to_hand",
                         "to_pile", "to_stock", "replaced", "pile_to_hand", "partner_cards"))
#: Fields holding one card code.
_CARDS = frozenset(("top", "card"))


#: Card text by code, so writing a card is one index (events hold many cards).
_TEXT = tuple(card_text(c) for c in range(NUM_CODES))

# How each field is written, per event class, worked out once (events are written by the
# thousand when positions are saved): a kind by field name; _PLAIN fields are copied as they
# are, tuples as lists.
_LIST, _CARD, _HANDS, _ACTION, _SCORES, _PLAIN = range(6)
_KIND_OF = {"hands": _HANDS, "action": _ACTION, "scores": _SCORES,
            **{n: _LIST for n in _CARD_LISTS}, **{n: _CARD for n in _CARDS}}
_FIELDS: dict[type[Any], tuple[dataclasses.Field[Any], ...]] = {
    cls: tuple(dataclasses.fields(cls)) for cls in EVENT_TYPES.values()}
_PLAN: dict[type[Any], tuple[tuple[str, int], ...]] = {
    cls: tuple((f.name, _KIND_OF.get(f.name, _PLAIN)) for f in fields)
    for cls, fields in _FIELDS.items()}


def event_to_json(event: ev.Event) -> dict[str, Any]:
    """JSON form of an event (see the module docstring)."""
    out: dict[str, Any] = {"type": _NAME_OF[type(event)]}
    text = _TEXT
    for name, kind in _PLAN[type(event)]:
        value = getattr(event, name)
        if kind == _LIST:
            out[name] = None if value is None else [text[c] for c in value]
        elif kind == _CARD:
            out[name] = text[value]
        elif kind == _HANDS:
            out[name] = [None if h is None else [text[c] for c in h] for h in value]
        elif kind == _ACTION:
            out[name] = None if value is None else action_to_json(value)
        elif kind == _SCORES:
            out[name] = [_sheet_json(sheet) for sheet in value]
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


def event_from_json(r: Reader, data: Any, path: str) -> ev.Event:
    """Read one event written by :func:`event_to_json`.

    Raises:
        FormatError: (through ``r``) naming the path of the bad value.
    """
    obj = r.obj(data, path)
    kind = obj.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        r.fail(sub(path, "type"), "expected an event type: " + ", ".join(EVENT_TYPES))
    fields = {f.name: f for f in _FIELDS[cls]}
    r.only_keys(obj, {"type", *fields}, path)
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        at = sub(path, name)
        if name not in obj:
            if f.default is dataclasses.MISSING:
                r.fail(at, "expected this key")
            continue
        value = obj[name]
        if name in _CARD_LISTS:
            kwargs[name] = None if value is None else tuple(r.cards(value, at))
        elif name in _CARDS:
            kwargs[name] = r.card(value, at)
        elif name == "hands":
            kwargs[name] = tuple(None if h is None else tuple(r.cards(h, sub(at, i)))
                                 for i, h in enumerate(r.list_(value, at)))
        elif name == "action":
            if value is None:
                kwargs[name] = None
            else:
                try:
                    kwargs[name] = action_from_json(value)
                except ActionParseError as exc:
                    r.fail(at, str(exc))
        elif name == "scores":
            kwargs[name] = tuple(_sheet(r, s, sub(at, i))
                                 for i, s in enumerate(r.list_(value, at)))
        elif name == "hand_sizes":
            kwargs[name] = tuple(r.int_(v, sub(at, i), 0, MAX_DECK)
                                 for i, v in enumerate(r.list_(value, at, max_len=6)))
        elif name.endswith("_count"):
            kwargs[name] = r.int_(value, at, 0, MAX_DECK)
        elif name in ("special", "top_only", "new", "out_of_play", "yes", "concealed"):
            kwargs[name] = r.bool_(value, at)
        elif name == "reason":
            text = r.str_(value, at)
            if text not in set(ev.EndReason):
                r.fail(at, f"expected one of {', '.join(ev.EndReason)}, got {text[:40]!r}")
            kwargs[name] = ev.EndReason(text)
        elif value is None and name in ("went_out", "seat"):
            kwargs[name] = None
        else:
            kwargs[name] = r.int_(value, at, -MAX_SCORE, MAX_SCORE)
    event: ev.Event = cls(**kwargs)
    return event


def _sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    out: dict[str, Any] = dict(sheet.to_dict())
    out["codes"] = [{"code": code, "values": dict(values)} for code, values in sheet.codes]
    return out


def _sheet(r: Reader, data: Any, path: str) -> ScoreSheet:
    obj = r.obj(data, path)
    codes: list[tuple[str, dict[str, int | str]]] = []
    for i, item in enumerate(r.list_(obj.get("codes", []), sub(path, "codes"))):
        cpath = sub(sub(path, "codes"), i)
        it = r.obj(item, cpath)
        values = r.obj(it.get("values", {}), sub(cpath, "values"))
        for k, v in values.items():
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                r.fail(sub(sub(cpath, "values"), k), "expected a number or a text")
            if isinstance(v, int):
                r.int_(v, sub(sub(cpath, "values"), k), -MAX_SCORE, MAX_SCORE)
        codes.append((r.str_(r.key(it, "code", cpath), sub(cpath, "code")), dict(values)))
    items = []
    for i, item in enumerate(r.list_(r.key(obj, "items", path), sub(path, "items"))):
        ipath = sub(sub(path, "items"), i)
        it = r.obj(item, ipath)
        items.append((r.str_(r.key(it, "label", ipath), sub(ipath, "label")),
                      r.int_(r.key(it, "points", ipath), sub(ipath, "points"), -MAX_SCORE,
                             MAX_SCORE)))
    return ScoreSheet(
        team=r.int_(r.key(obj, "team", path), sub(path, "team"), 0, 5),
        items=tuple(items),
        hand_total=r.int_(r.key(obj, "hand_total", path), sub(path, "hand_total"), -MAX_SCORE,
                          MAX_SCORE),
        score_before=r.int_(r.key(obj, "score_before", path), sub(path, "score_before"),
                            -MAX_SCORE, MAX_SCORE),
        codes=tuple(codes),
    )
