"""Rule values: field names, their documentation, conversion from JSON or command-line text,
bounds, and the checks that a set of values can make a playable deal.

Every error is a :class:`RulesError` whose message starts with the field it names
(``deal.cards_dealt[4]: ...``). Standard library only.
"""

from __future__ import annotations

import functools
import json
import types
import typing
from dataclasses import fields
from typing import Any, Literal, get_args, get_origin

from canasta.core.rule_sections import SECTIONS, RuleSections, RulesError, section_class


def field_names() -> dict[str, tuple[str, str]]:
    """Map of every accepted rule key (``section.field`` and unique bare names) to its place."""
    out: dict[str, tuple[str, str]] = {}
    counts: dict[str, int] = {}
    for section in SECTIONS:
        cls = section_class(section)
        for f in fields(cls):
            out[f"{section}.{f.name}"] = (section, f.name)
            counts[f.name] = counts.get(f.name, 0) + 1
    for section in SECTIONS:
        for f in fields(section_class(section)):
            if counts[f.name] == 1:
                out[f.name] = (section, f.name)
    return out


def field_doc(section: str, name: str) -> str:
    """The comment above a field in this file: its meaning and its seed source."""
    return _FIELD_DOCS.get(f"{section}.{name}", "")



def _read_field_docs() -> dict[str, str]:
    import inspect

    docs: dict[str, str] = {}
    for section in SECTIONS:
        cls = section_class(section)
        lines = inspect.getsource(cls).splitlines()
        buf: list[str] = []
        for line in lines:
            s = line.strip()
            if s.startswith("#:"):
                buf.append(s[2:].strip())
            elif ":" in s and not s.startswith(("@", "class", "#")) and buf:
                docs[f"{section}.{s.split(':')[0].strip()}"] = " ".join(buf)
                buf = []
            else:
                buf = []
    return docs


try:
    _FIELD_DOCS = _read_field_docs()
except (OSError, TypeError):  # pragma: no cover - source not available (zipped install)
    _FIELD_DOCS = {}


# -- validation and conversion ----------------------------------------------------------------

def jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def coerce(value: Any, hint: Any, where: str) -> Any:
    """Convert JSON or command-line text to ``hint``; raise RulesError naming ``where``."""
    origin = get_origin(hint)
    if isinstance(value, str) and hint is not str and origin is not Literal:
        text = value.strip()
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            if text.lower() in ("true", "yes", "on"):
                value = True
            elif text.lower() in ("false", "no", "off"):
                value = False
            else:
                value = text
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected a whole number, got {value!r}")
        if value < 0:
            raise RulesError(f"{where}: must not be negative, got {value}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected text, got {value!r}")
        return value
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices:
            raise RulesError(f"{where}: expected one of {', '.join(choices)}; got {value!r}")
        return value
    if origin in (types.UnionType, typing.Union):
        args = get_args(hint)
        if value is None and type(None) in args:
            return None
        return coerce(value, next(a for a in args if a is not type(None)), where)
    if origin is dict:
        if not isinstance(value, dict):
            raise RulesError(f"{where}: expected a mapping like {{\"4\": 11}}, got {value!r}")
        kt, vt = get_args(hint)
        out = {}
        for k, v in value.items():
            try:
                key = int(k) if kt is int else k
            except (TypeError, ValueError):
                raise RulesError(f"{where}: key {k!r} is not a whole number") from None
            out[key] = coerce(v, vt, f"{where}[{k}]")
        return out
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"{where}: expected a list, got {value!r}")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(coerce(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise RulesError(f"{where}: expected {len(args)} items, got {len(value)}")
        pairs = enumerate(zip(value, args, strict=True))
        return tuple(coerce(v, a, f"{where}[{i}]") for i, (v, a) in pairs)
    raise RulesError(f"{where}: unsupported type {hint}")  # pragma: no cover


def _dict_entry_key(key: str) -> tuple[str, str, str] | None:
    """``deal.cards_dealt.4`` → ``("deal", "cards_dealt", "4")`` when it names one entry of a
    mapping field (so that two options may each set one entry); None otherwise."""
    if "." not in key:
        return None
    head, entry = key.rsplit(".", 1)
    names = field_names()
    if head not in names:
        return None
    section, name = names[head]
    if get_origin(_hints(section_class(section))[name]) is not dict:
        return None
    return section, name, entry


def is_rule_key(key: str) -> bool:
    """True when ``key`` names a field (``section.field``, a unique bare field name) or one
    entry of a mapping field (``deal.cards_dealt.4``)."""
    return key in field_names() or _dict_entry_key(key) is not None



def changes_for(rules: RuleSections, values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The converted field values of ``values`` (keys as in :func:`field_names` or one mapping
    entry, ``deal.cards_dealt.4``), grouped by section: ``{"deal": {"packs": 3}}``.

    Raises:
        RulesError: an unknown name or a value of the wrong type; the message names the field.
    """
    names = field_names()
    changes: dict[str, dict[str, Any]] = {}
    for key, raw in values.items():
        entry = _dict_entry_key(key) if key not in names else None
        if entry is not None:
            section, name, sub = entry
            kt, vt = get_args(_hints(section_class(section))[name])
            current = changes.get(section, {}).get(name, getattr(getattr(rules, section), name))
            merged = dict(current)
            try:
                k = int(sub) if kt is int else sub
            except ValueError:
                raise RulesError(f"{section}.{name}: key {sub!r} is not a whole number") from None
            merged[k] = coerce(raw, vt, f"{section}.{name}[{sub}]")
            changes.setdefault(section, {})[name] = merged
            continue
        if key not in names:
            raise RulesError(
                f"unknown rule '{key}'; valid names are section.field, e.g. "
                f"pile.frozen_naturals (see `canasta variants`)"
            )
        section, name = names[key]
        hint = _hints(section_class(section))[name]
        changes.setdefault(section, {})[name] = coerce(raw, hint, f"{section}.{name}")
    return changes


def validate(rules: RuleSections) -> None:
    """Cross-field checks; each error names the field."""
    d = rules.deal
    for n in d.player_counts:
        if n not in (2, 3, 4, 6):
            raise RulesError(f"deal.player_counts: {n} players is not a seated form (2, 3, 4, 6)")
        if n not in d.cards_dealt and 4 not in d.cards_dealt:
            raise RulesError(f"deal.cards_dealt: no deal size for {n} players")
    if d.packs < 1 or d.packs > 4:
        raise RulesError(f"deal.packs: must be 1 to 4, got {d.packs}")
    if rules.melds.min_naturals < 1:
        raise RulesError("melds.min_naturals: at least 1 natural card is needed")
    if rules.melds.min_cards < 2:
        raise RulesError("melds.min_cards: a meld has at least 2 cards")
    if rules.melds.canasta_size < rules.melds.min_cards:
        raise RulesError("melds.canasta_size: smaller than melds.min_cards")
    if rules.pile.unfrozen_naturals < 1 or rules.pile.frozen_naturals < 1:
        raise RulesError("pile.unfrozen_naturals / pile.frozen_naturals: at least 1")
    mins = rules.opening.minimums
    bounds = [b for b, _ in mins if b is not None]
    if not mins or bounds != sorted(bounds):
        raise RulesError("opening.minimums: bounds must be ascending, e.g. [[0, 50], [1500, 90]]")
    if rules.end.target < 1 or any(t < 1 for t in rules.end.target_by_players.values()):
        raise RulesError("end.target: must be positive")
    if rules.opening.canasta_required_from and not rules.opening.canasta_always_opens:
        raise RulesError("opening.canasta_required_from: needs opening.canasta_always_opens")
    if rules.melds.black_threes_out_of_play and rules.melds.black_three_meld_going_out:
        raise RulesError("melds.black_threes_out_of_play: black threes leave play only that "
                         "way; set melds.black_three_meld_going_out to false")

