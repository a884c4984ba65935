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
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Literal, get_args, get_origin

from canasta.core.frozen import FrozenMap
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
    """``value`` as plain JSON data: mappings (a :class:`FrozenMap`) as dicts with text keys,
    tuples as lists."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _show(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error message never grows with the value
    (a document may hold a huge one)."""
    if isinstance(value, (list, tuple, Mapping)) and len(value) > limit:
        return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: Most entries in a list or mapping value, checked before its entries are converted.
MAX_ENTRIES = 32


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
            raise RulesError(f"{where}: expected true or false, got {_show(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected a whole number, got {_show(value)}")
        if value < 0:
            raise RulesError(f"{where}: must not be negative, got {value}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected text, got {_show(value)}")
        return value
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices:
            raise RulesError(f"{where}: expected one of {', '.join(choices)}; got {_show(value)}")
        return value
    if origin in (types.UnionType, typing.Union):
        args = get_args(hint)
        if value is None and type(None) in args:
            return None
        return coerce(value, next(a for a in args if a is not type(None)), where)
    if origin is FrozenMap:
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected a mapping like {{\"4\": 11}}, got {_show(value)}")
        if len(value) > MAX_ENTRIES:
            raise RulesError(f"{where}: at most {MAX_ENTRIES} entries, got {len(value)}")
        kt, vt = get_args(hint)
        out = {}
        for k, v in value.items():
            try:
                key = int(k) if kt is int else k
            except (TypeError, ValueError):
                raise RulesError(f"{where}: key {_show(k)} is not a whole number") from None
            out[key] = coerce(v, vt, f"{where}[{k}]")
        return FrozenMap(out)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"{where}: expected a list, got {_show(value)}")
        if len(value) > MAX_ENTRIES:
            raise RulesError(f"{where}: at most {MAX_ENTRIES} entries, got {len(value)}")
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
    if get_origin(_hints(section_class(section))[name]) is not FrozenMap:
        return None
    return section, name, entry


#: Rule names that documents may still hold but that no longer change anything, with why.
#: Read and dropped (an old record still loads); never written.
RETIRED: dict[str, str] = {
    "canasta_de_3": (
        "seed 004's \"canasta de 3 (fara valori) 3,000\" can never be melded: \"3-arii nu "
        "se pot folosi in terte\", red threes are laid out and replaced (\"iti da dreptul sa "
        "schimbi o piesa\"), black threes leave play in fours or are melded three or four when "
        "going out, and a canasta is \"minimum 7 carti\" of the eight threes of 108 cards "
        "(docs/rules.md)"),
}
RETIRED["scoring.threes_canasta"] = RETIRED["threes_canasta"] = RETIRED["canasta_de_3"]


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
        if key in RETIRED and key not in names:
            continue
        entry = _dict_entry_key(key) if key not in names else None
        if entry is not None:
            section, name, sub = entry
            kt, vt = get_args(_hints(section_class(section))[name])
            current = changes.get(section, {}).get(name, getattr(getattr(rules, section), name))
            merged = dict(current)
            try:
                k = int(sub) if kt is int else sub
            except ValueError:
                raise RulesError(
                    f"{section}.{name}: key {_show(sub)} is not a whole number") from None
            merged[k] = coerce(raw, vt, f"{section}.{name}[{sub}]")
            changes.setdefault(section, {})[name] = FrozenMap(merged)
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


#: The largest number of points any field may hold (scores, bonuses, penalties, targets,
#: opening minimums; equal to ``CANASTA_ONLY``, the minimum no count of card points reaches).
POINTS_MAX = 1_000_000

#: Bounds ``(low, high)`` of the whole-number fields that count things (cards, packs, players,
#: draws, canastas); every other whole number is a number of points, 0 to :data:`POINTS_MAX`.
#: For a mapping field the bounds are those of its values; its keys are player counts (2 to 6)
#: unless :data:`KEY_BOUNDS` says otherwise. The bounds keep every deal finite and small (at most
#: 4 packs of 52 cards and 4 jokers) and every turn able to draw a card.
COUNT_BOUNDS: dict[str, tuple[int, int]] = {
    "deal.packs": (1, 4),
    "deal.jokers_per_pack": (0, 4),
    "deal.player_counts": (2, 6),
    "deal.cards_dealt": (1, 30),
    "deal.packs_by_players": (1, 4),
    "deal.redeal_after_wild_upcards": (0, 24),
    "deal.surprise_cards": (0, 20),
    "turn.draw_count": (1, 5),
    "turn.draw_with_pile": (0, 5),
    "pile.unfrozen_naturals": (1, 7),
    "pile.frozen_naturals": (1, 7),
    "pile.layoff_take_max_meld_size": (0, 30),
    "melds.min_cards": (2, 15),
    "melds.min_naturals": (1, 15),
    "melds.max_wilds": (0, 99),  # 99: no limit (Brazilian, seed 003)
    "melds.black_threes_out_of_play": (0, 16),
    "melds.canasta_size": (3, 15),
    "going_out.canastas_required": (0, 12),
    "going_out.canastas_required_by_players": (0, 12),
    "going_out.natural_canastas_required": (0, 12),
    "going_out.ask_partner_per_hand": (0, 100),
    "scoring.unopened_hand_multiplier": (0, 10),
    "end.target": (1, POINTS_MAX),
    "end.target_by_players": (1, POINTS_MAX),
}

#: Bounds of the keys of mapping fields whose keys are not player counts.
KEY_BOUNDS: dict[str, tuple[int, int]] = {"red_threes.totals": (1, 24)}

#: Most entries in a list field (``opening.minimums``, ``opening.naturals_only_at``...).
MAX_ITEMS = 20


def _in_bounds(value: int, low: int, high: int, where: str) -> None:
    if not low <= value <= high:
        raise RulesError(f"{where}: must be {low} to {high}, got {value}")


def check_bounds(rules: RuleSections, sections: tuple[str, ...] = SECTIONS) -> None:
    """Check every whole number of ``rules`` (of the named ``sections``) against its bounds
    (:data:`COUNT_BOUNDS`, :data:`KEY_BOUNDS`, :data:`POINTS_MAX`) and every list against
    :data:`MAX_ITEMS`.

    Raises:
        RulesError: ``"deal.jokers_per_pack: must be 0 to 4, got 200"``; a mapping entry is
        named ``deal.cards_dealt[4]``.
    """
    for section in sections:
        part = getattr(rules, section)
        for f in fields(part):
            where = f"{section}.{f.name}"
            low, high = COUNT_BOUNDS.get(where, (0, POINTS_MAX))
            value = getattr(part, f.name)
            if isinstance(value, bool) or value is None or isinstance(value, str):
                continue
            if isinstance(value, int):
                _in_bounds(value, low, high, where)
            elif isinstance(value, Mapping):
                klow, khigh = KEY_BOUNDS.get(where, (2, 6))
                for k, v in value.items():
                    _in_bounds(k, klow, khigh, f"{where}: key")
                    _in_bounds(v, low, high, f"{where}[{k}]")
            elif isinstance(value, tuple):
                if len(value) > MAX_ITEMS:
                    raise RulesError(f"{where}: at most {MAX_ITEMS} entries, got {len(value)}")
                for i, item in enumerate(value):
                    for x in item if isinstance(item, tuple) else (item,):
                        if x is not None:
                            _in_bounds(x, low, high, f"{where}[{i}]")


def check_deal(rules: RuleSections) -> None:
    """Check that every player count of ``rules`` can make a playable deal: the hands, the
    surprise cards and a natural upcard must fit in the deck whatever its order.

    The upcard is turned until a card that is not special comes (a wild card, a red three,
    and a black three with ``deal.black_three_upcard_special``), so the deck needs more such
    natural cards than the hands and the surprise cards can take.

    Raises:
        RulesError: naming ``deal.cards_dealt[N]``, ``deal.packs`` (or
        ``deal.packs_by_players[N]``), ``deal.jokers_per_pack`` and ``deal.surprise_cards``.
    """
    d = rules.deal
    for n in d.player_counts:
        packs = d.packs_by_players.get(n, d.packs)
        dealt = d.cards_dealt.get(n, d.cards_dealt.get(4, 11))
        per_pack_special = 4 + 2 + (2 if d.black_three_upcard_special else 0)  # deuces, threes
        naturals = packs * (52 - per_pack_special)
        need = n * dealt + d.surprise_cards + 1
        if naturals < need:
            packs_name = "deal.packs_by_players" if n in d.packs_by_players else "deal.packs"
            raise RulesError(
                f"deal.cards_dealt[{n}], {packs_name}, deal.jokers_per_pack, "
                f"deal.surprise_cards: {n} players dealt {dealt} cards each"
                f"{f' with {d.surprise_cards} surprise cards' if d.surprise_cards else ''} "
                f"need at least {need} natural cards to leave a natural upcard, but "
                f"{packs} pack{'s' if packs > 1 else ''} hold {naturals} "
                f"({packs * (52 + d.jokers_per_pack)} cards with the jokers)"
            )


def check_types(rules: RuleSections) -> None:
    """Check that every field of ``rules`` holds a value of its declared type (a section built
    directly may be given anything): the value must be what :func:`coerce` makes of it.

    Raises:
        RulesError: ``"deal.packs: expected a whole number, got '3'"``.
    """
    for section in SECTIONS:
        part = getattr(rules, section)
        hints = _hints(section_class(section))
        for f in fields(part):
            where = f"{section}.{f.name}"
            value = getattr(part, f.name)
            hint = hints[f.name]
            if isinstance(value, str) and hint is not str and get_origin(hint) is not Literal:
                raise RulesError(f"{where}: expected {_type_name(hint)}, got {_show(value)}")
            if coerce(value, hint, where) != value:
                raise RulesError(f"{where}: expected {_type_name(hint)}, got {_show(value)}")


def _type_name(hint: Any) -> str:
    origin = get_origin(hint)
    if hint is bool:
        return "true or false"
    if hint is int:
        return "a whole number"
    if origin is FrozenMap:
        return "a mapping of whole numbers"
    if origin is tuple:
        return "a list"
    if origin is Literal:
        return "one of " + ", ".join(map(str, get_args(hint)))
    return str(hint)


def validate(rules: RuleSections) -> None:
    """Check ``rules`` once, when the record is built: the type (:func:`check_types`) and the
    bounds (:func:`check_bounds`) of every field, the fields that depend on each other, and
    that every player count can be dealt (:func:`check_deal`).

    Raises:
        RulesError: the message starts with the field or fields it names.
    """
    check_types(rules)
    check_bounds(rules)
    d = rules.deal
    if len(set(d.player_counts)) != len(d.player_counts) or not d.player_counts:
        raise RulesError(f"deal.player_counts: expected distinct player counts, got "
                         f"{list(d.player_counts)}")
    for n in d.player_counts:
        if n not in (2, 3, 4, 5, 6):
            raise RulesError(f"deal.player_counts: {n} players is not a seated form "
                             "(2 to 6; five each for himself: seed 000 \"da 2 a 6 persone\")")
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
    if rules.opening.wild_meld_opens and not rules.melds.wild_melds:
        raise RulesError("opening.wild_meld_opens: needs melds.wild_melds")
    if rules.melds.black_threes_out_of_play and rules.melds.black_three_meld_going_out:
        raise RulesError("melds.black_threes_out_of_play: black threes leave play only that "
                         "way; set melds.black_three_meld_going_out to false")
    check_deal(rules)
