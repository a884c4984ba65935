"""Reading JSON documents with errors that say where and what: the shared base of the position,
hand-result and game-record readers (docs/formats.md).

Every error names the source (a file name or ``-`` for standard input), the JSON path of the
offending value in the form ``$.teams[1].melds[0][2]`` and what was expected there. Readers
raise only :class:`FormatError` subclasses, never leave a half-built object behind, and never
trust a value they have not checked.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, NoReturn

from canasta.core.cards import JOKER, NUM_CODES, CardParseError, card_text, parse_card
from canasta.core.rules import SECTIONS, Rules, RulesError, load_preset

#: Variant names that may be looked up as preset files (no path tricks, no odd characters).
_VARIANT_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,40}$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Card code by its written text (``card_text``), the fast path of :meth:`Reader.cards`.
_CODE_OF = {card_text(c): c for c in range(NUM_CODES)}
#: Largest deck a document may describe (4 packs of 52 plus generous jokers).
MAX_DECK = 260
#: Largest match score, hand total or score item a document may hold, either sign: a stated
#: bound beyond any match (targets are 5,000 to 15,000 points; one hand of the biggest deck,
#: every card on the table in canastas, brings well under 100,000), within 32 bits.
MAX_SCORE = 10_000_000
#: Rules already built from a document's rule keys (building them is slow; they are immutable).
_RULES_CACHE: dict[str, Rules] = {}


class FormatError(ValueError):
    """A document is malformed or describes something that cannot occur.

    Attributes:
        source: the file name (``-`` for standard input) or a caller's label.
        path: the JSON path of the offending value (``$.teams[1].melds[0][2]``); ``$`` for
            the whole document; ``""`` when the text is not JSON (then ``line`` is set).
        expected: what was expected there.
        line: the line of a JSON syntax error, else None.
    """

    def __init__(self, source: str, path: str, expected: str, line: int | None = None) -> None:
        self.source = source
        self.path = path
        self.expected = expected
        self.line = line
        parts = [source]
        if line is not None:
            parts.append(f"line {line}")
        elif path and path != "$":  # the whole document: the file's name says it
            parts.append(path)
        if expected:
            parts.append(expected)
        super().__init__(": ".join(parts))


def sub(path: str, key: str | int) -> str:
    """The JSON path of ``key`` inside ``path``: ``$.a`` + 0 → ``$.a[0]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _IDENT.match(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def describe(value: Any) -> str:
    """A short description of a JSON value for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "..."
        return f"the text {json.dumps(shown)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class Reader:
    """Checked access to a parsed JSON document; every failure raises ``error`` with the path.

    Args:
        source: the file name (or label) the errors name.
        error: the :class:`FormatError` subclass to raise.
    """

    def __init__(self, source: str, error: type[FormatError] = FormatError) -> None:
        self.source = source
        self.error = error

    def fail(self, path: str, expected: str) -> NoReturn:
        raise self.error(self.source, path, expected)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, got {describe(value)}")
        return value

    def key(self, data: dict[str, Any], key: str, path: str) -> Any:
        if key not in data:
            self.fail(path, f"missing key '{key}'")
        return data[key]

    def only_keys(self, data: dict[str, Any], allowed: set[str] | frozenset[str],
                  path: str) -> None:
        for k in data:
            if k not in allowed:
                self.fail(sub(path, k), f"unknown key; expected one of "
                                        f"{', '.join(sorted(allowed))}")

    def int_(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected a whole number, got {describe(value)}")
        if lo is not None and value < lo:
            self.fail(path, f"expected a number of at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(path, f"expected a number of at most {hi}, got {value}")
        return value

    def bool_(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {describe(value)}")
        return value

    def str_(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            self.fail(path, f"expected text, got {describe(value)}")
        return value

    def list_(self, value: Any, path: str, length: int | None = None,
              max_len: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, got {describe(value)}")
        if length is not None and len(value) != length:
            self.fail(path, f"expected a list of {length}, got {len(value)}")
        if max_len is not None and len(value) > max_len:
            self.fail(path, f"expected at most {max_len} items, got {len(value)}")
        return value

    def card(self, value: Any, path: str) -> int:
        """One card text (``Kh``, ``10s``, ``Td``, ``JK``; any case)."""
        if not isinstance(value, str):
            self.fail(path, f"expected a card text such as \"Kh\", \"10s\" or \"JK\", "
                            f"got {describe(value)}")
        try:
            return parse_card(value)
        except CardParseError as exc:
            self.fail(path, str(exc))

    def cards(self, value: Any, path: str, max_len: int = MAX_DECK) -> list[int]:
        """A list of card texts, or one text of cards separated by spaces or commas (then an
        error names the token's 1-based position)."""
        if isinstance(value, str):
            tokens = value.replace(",", " ").split()
            if len(tokens) > max_len:
                self.fail(path, f"expected at most {max_len} cards, got {len(tokens)}")
            out = []
            for i, tok in enumerate(tokens):
                try:
                    out.append(parse_card(tok, i + 1))
                except CardParseError as exc:
                    self.fail(path, str(exc))
            return out
        items = self.list_(value, path, max_len=max_len)
        out = []
        for i, c in enumerate(items):
            # The written form is looked up directly; anything else goes through parse_card.
            code = _CODE_OF.get(c) if isinstance(c, str) else None
            out.append(self.card(c, sub(path, i)) if code is None else code)
        return out

    def rules(self, data: dict[str, Any], path: str = "$") -> Rules:
        """The rules of a document: ``variant`` and ``options``, and when present the complete
        ``rules`` object (which then wins, so a document outlives a change of its preset)."""
        variant = self.str_(self.key(data, "variant", path), sub(path, "variant"))
        if not _VARIANT_NAME.match(variant):
            self.fail(sub(path, "variant"), f"expected a variant name such as "
                                            f"\"international\", got {describe(variant)}")
        raw_options = data.get("options", {})
        options = self.obj(raw_options, sub(path, "options"))
        for k, v in options.items():
            if not isinstance(v, (str, int, bool, float, list, dict)) or v is None:
                self.fail(sub(sub(path, "options"), k), f"expected an option value, got "
                                                         f"{describe(v)}")
        full = data.get("rules")
        try:
            cache_key = json.dumps([variant, options, full], sort_keys=True)
        except (TypeError, ValueError):
            cache_key = ""
        cached = _RULES_CACHE.get(cache_key) if cache_key else None
        if cached is not None:
            return cached
        rules = self._build_rules(variant, options, full, path)
        if cache_key:
            if len(_RULES_CACHE) >= 64:
                _RULES_CACHE.clear()
            _RULES_CACHE[cache_key] = rules
        return rules

    def _build_rules(self, variant: str, options: dict[str, Any], full: Any,
                     path: str) -> Rules:
        try:
            base = load_preset(variant, options)
        except RulesError as exc:
            if full is None:
                where = "variant" if "unknown variant" in str(exc) else "options"
                self.fail(sub(path, where), str(exc))
            # The complete rules decide; the preset may have changed or gone since.
            applied = tuple(sorted(
                (k, v if isinstance(v, str) else json.dumps(v)) for k, v in options.items()))
            base = replace(Rules(name=variant), options=applied)
        if full is None:
            return base
        rpath = sub(path, "rules")
        full = self.obj(full, rpath)
        flat: dict[str, Any] = {}
        for section, values in full.items():
            if section not in SECTIONS:
                self.fail(sub(rpath, section), f"unknown rules section; expected one of "
                                               f"{', '.join(SECTIONS)}")
            values = self.obj(values, sub(rpath, section))
            for name, value in values.items():
                flat[f"{section}.{name}"] = value
        try:
            rules = base.with_options(flat)
        except RulesError as exc:
            self.fail(rpath, str(exc))
        deck = rules.deal.packs * (52 + rules.deal.jokers_per_pack)
        for n in rules.deal.packs_by_players.values():
            deck = max(deck, n * (52 + rules.deal.jokers_per_pack))
        if deck > MAX_DECK:
            self.fail(sub(sub(rpath, "deal"), "jokers_per_pack"),
                      f"a deck of {deck} cards is more than any variant uses ({MAX_DECK})")
        for n in rules.deal.player_counts:
            size = rules.packs(n) * (52 + rules.deal.jokers_per_pack)
            if rules.cards_dealt(n) * n >= size:
                self.fail(sub(sub(rpath, "deal"), "cards_dealt"),
                          f"{rules.cards_dealt(n)} cards to each of {n} players leave no stock "
                          f"in a deck of {size}")
        return rules


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` by section, as plain JSON data (the ``rules`` key)."""
    data = rules.to_dict()
    return {section: data[section] for section in SECTIONS}


def rules_header(rules: Rules) -> dict[str, Any]:
    """The ``variant``, ``options`` and ``rules`` keys of a document."""
    return {"variant": rules.name, "options": dict(rules.options), "rules": rules_to_json(rules)}


#: The json module's syntax errors (``JSONDecodeError.msg``) as whole sentences.
_JSON_ERRORS = {
    "Expecting value": "a value was expected",
    "Expecting ',' delimiter": "a comma was expected",
    "Expecting ':' delimiter": "a colon was expected",
    "Expecting property name enclosed in double quotes": "a key in double quotes was expected",
    "Unterminated string starting at": "a string is not closed",
    "Invalid control character at": "a string holds a line break or a control character",
    "Invalid \\escape": "a string holds an unknown \\ escape",
    "Invalid \\uXXXX escape": "a string holds a bad \\u escape",
    "Extra data": "more text follows the end of the document",
}


def json_syntax_text(exc: json.JSONDecodeError) -> str:
    """A JSON syntax error as a whole sentence, "column 35: not valid JSON: a string is not
    closed", saying so when the text ends there (a file cut short)."""
    what = _JSON_ERRORS.get(exc.msg, exc.msg.removesuffix(" at").lower())
    text = f"column {exc.colno}: not valid JSON: {what}"
    if not exc.doc[exc.pos:].strip() or exc.msg.startswith("Unterminated") \
            or (exc.msg.startswith("Invalid control") and not exc.doc[exc.pos + 1:].strip()):
        text += " (the text ends there: is the file cut short?)"
    return text


def loads(text: str, source: str, error: type[FormatError] = FormatError) -> Any:
    """Parse JSON text; a syntax error names the line and column, in a whole sentence."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(source, "", json_syntax_text(exc), line=exc.lineno) from None
    except (RecursionError, ValueError) as exc:
        raise error(source, "", f"not readable as JSON ({exc})", line=1) from None


def deck_counts(rules: Rules, players: int) -> list[int]:
    """Copies of each card code in the full deck for ``players`` players."""
    packs = rules.packs(players)
    counts = [packs] * NUM_CODES
    counts[JOKER] = packs * rules.deal.jokers_per_pack
    return counts


def count_text(counts: dict[int, int]) -> str:
    """``Kh x2, JK x1`` for a mapping of card codes to counts."""
    return ", ".join(f"{card_text(c)} x{n}" for c, n in sorted(counts.items()))



#: The JSON Schema files shipped in ``canasta/formats/schemas`` (docs/formats.md).
SCHEMAS = ("card", "action", "position", "hand_result", "record", "tournament")


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of a format: ``card``, ``action``, ``position``, ``hand_result``,
    ``record`` or ``tournament`` (``canasta tournament --json``).

    Raises:
        ValueError: an unknown name.
    """
    from importlib import resources

    if name not in SCHEMAS:
        raise ValueError(f"no schema '{name}'; the schemas are {', '.join(SCHEMAS)}")
    text = resources.files("canasta.formats").joinpath(f"schemas/{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def check_card_counts(r: Reader, places: list[tuple[str, list[int]]], full: list[int],
                      path: str) -> list[int]:
    """Fail at ``path`` when a card is in ``places`` more often than the deck ``full`` (counts
    per code) has it, naming the places; return the counts per code found."""
    total = [0] * NUM_CODES
    for _, cards in places:
        for c in cards:
            total[c] += 1
    for code in range(NUM_CODES):
        if total[code] > full[code]:
            where = [f"{p} x{cards.count(code)}" for p, cards in places if code in cards]
            r.fail(path, f"{card_text(code)} is on the table {total[code]} times, but the deck "
                         f"has {full[code]} (in {', '.join(where)})")
    return total
