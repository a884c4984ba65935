"""The rules record: every parameter that the five seed texts vary, as one immutable value.

A variant is data. The engine never asks which variant it plays; it asks this record
(``rules.pile.frozen_naturals``, ``rules.going_out.discard_required``...). Presets are JSON
files in ``canasta/core/presets/``; a preset may ``extend`` another (seed 001, the classic Italian
game, is written as its differences from Canastone) and declares named house rules
(``options``), each a set of field values.

Field names are addressed as ``section.field`` (``pile.frozen_naturals``); a field name that is
unique across sections may be given alone. Every field's comment cites the seed sentence it
comes from; where a seed is silent the value follows ``shared/rules/variants.md`` and
``docs/rules.md`` says so.

The record is split in three modules: :mod:`canasta.core.rule_sections` (the section
dataclasses), :mod:`canasta.core.rule_values` (names, conversion, bounds and validation) and
this one (the :class:`Rules` record and the presets); every public name is importable from here.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from canasta.core.rule_sections import (
    CANASTA_ONLY,
    SECTIONS,
    DealRules,
    EndRules,
    GoingOutRules,
    MeldRules,
    OpeningRules,
    PileRules,
    RedThreeRules,
    RulesError,
    ScoringRules,
    TurnRules,
)
from canasta.core.rule_values import (
    RETIRED,
    changes_for,
    field_doc,
    field_names,
    is_rule_key,
    jsonable,
    validate,
)

__all__ = [
    "ALIASES", "CANASTA_ONLY", "PRESETS", "SECTIONS", "DealRules", "EndRules", "GoingOutRules",
    "MeldRules", "OpeningRules", "Option", "PileRules", "RedThreeRules", "Rules", "RulesError",
    "ScoringRules", "TurnRules", "field_doc", "field_names", "is_rule_key", "load_preset",
    "parse_rule_args", "preset_info", "preset_name", "preset_options",
]


@dataclass(frozen=True, slots=True)
class Rules:
    """The complete rule set of one variant with its options applied.

    Build one with :func:`load_preset` (``load_preset("international", {"pile.frozen_naturals":
    3})``) or :meth:`with_options`. A record is a value: it is checked once, when it is built
    (:func:`canasta.core.rule_values.validate`; a bad value raises :class:`RulesError` naming
    the field, so no deal ever meets one), it never changes (its sections are frozen, their
    mappings :class:`~canasta.core.frozen.FrozenMap` and their lists tuples: ``rules.deal.packs
    = 3`` raises ``FrozenInstanceError``, ``rules.deal.cards_dealt[4] = 3`` ``TypeError``), and
    equal records hash equal (a cache or a set may hold them). Change one through
    :meth:`with_options`, which builds and checks a new record.

    Raises:
        RulesError: a value out of its bounds, values that contradict each other, or a deal
            that some player count cannot make.
    """

    name: str = "international"
    deal: DealRules = field(default_factory=DealRules)
    turn: TurnRules = field(default_factory=TurnRules)
    pile: PileRules = field(default_factory=PileRules)
    melds: MeldRules = field(default_factory=MeldRules)
    opening: OpeningRules = field(default_factory=OpeningRules)
    going_out: GoingOutRules = field(default_factory=GoingOutRules)
    red_threes: RedThreeRules = field(default_factory=RedThreeRules)
    scoring: ScoringRules = field(default_factory=ScoringRules)
    end: EndRules = field(default_factory=EndRules)
    #: The named options applied to the preset, for records and rule sheets.
    options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # Options may come as a list of pairs (JSON); the record keeps them as a tuple.
        if type(self.options) is not tuple or any(type(o) is not tuple for o in self.options):
            object.__setattr__(self, "options", tuple((str(k), str(v)) for k, v in self.options))
        validate(self)

    # -- derived values the engine asks often ------------------------------------------------
    def opening_minimum(self, score: int) -> int:
        """Opening minimum for a side with ``score`` points (see ``OpeningRules.minimums``;
        :data:`CANASTA_ONLY` when the side may open only with a canasta)."""
        o = self.opening
        if o.canasta_required_from and score >= o.canasta_required_from:
            return CANASTA_ONLY
        if score < 0 and o.negative_minimum is not None:
            return o.negative_minimum
        need = self.opening.minimums[0][1]
        for bound, minimum in self.opening.minimums:
            if bound is None:
                if score < 0:
                    need = minimum
            elif score >= bound:
                need = minimum
        return need

    def cards_dealt(self, players: int) -> int:
        return self.deal.cards_dealt.get(players, self.deal.cards_dealt.get(4, 11))

    def draw_count(self, players: int) -> int:
        return self.turn.draw_count.get(players, 1)

    def packs(self, players: int) -> int:
        return self.deal.packs_by_players.get(players, self.deal.packs)

    def canastas_required(self, players: int) -> int:
        """Canastas a side needs to go out with ``players`` players
        (``GoingOutRules.canastas_required_by_players``)."""
        g = self.going_out
        return g.canastas_required_by_players.get(players, g.canastas_required)

    def target(self, players: int) -> int:
        """Points to win a match of ``players`` players (``EndRules.target_by_players``)."""
        return self.end.target_by_players.get(players, self.end.target)

    def teams(self, players: int, team_size: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Seats of each team, seated alternately: 4 players → ``((0, 2), (1, 3))``; 3 and 5 →
        each alone (S000 "da 2 a 6 persone"; S001 "a tre giocatori (ognuno per sé)"); 6 → two
        teams of three or, with ``team_size=2``, three pairs (S000 "ognuna di tre giocatori
        oppure da tre coppie ... siedono sempre al tavolo alternati")."""
        if team_size is None:
            team_size = {2: 1, 3: 1, 4: 2, 6: 3}.get(players, 1)
        if players % team_size:
            raise RulesError(f"{players} players cannot sit in teams of {team_size}")
        n_teams = players // team_size
        return tuple(tuple(range(t, players, n_teams)) for t in range(n_teams))

    def with_options(self, options: dict[str, Any]) -> Rules:
        """A copy with fields changed by name (``"pile.frozen_naturals"`` or a unique field
        name). Raises :class:`RulesError` naming the field for an unknown name or bad value."""
        return _apply_fields(self, options)

    def to_dict(self) -> dict[str, Any]:
        """All fields as plain JSON data (dict keys as strings)."""
        # Field by field rather than dataclasses.asdict (which deep-copies every value): the
        # same data at a tenth of the cost, since every position written carries the rules.
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if dataclasses.is_dataclass(value):
                value = {g.name: getattr(value, g.name) for g in dataclasses.fields(value)}
            out[f.name] = jsonable(value)
        return out


def _apply_fields(rules: Rules, values: dict[str, Any],
                  options: tuple[tuple[str, str], ...] | None = None) -> Rules:
    """A new record with ``values`` set (and ``options`` when given), built and so checked
    once with all its sections changed (checked one section at a time, two fields that
    depend on each other could not change together)."""
    sections: dict[str, Any] = {
        section: replace(getattr(rules, section), **vals)
        for section, vals in changes_for(rules, values).items()
    }
    if options is not None:
        sections["options"] = options
    return replace(rules, **sections) if sections else rules


# -- presets ------------------------------------------------------------------------------------

PRESETS = ("international", "canastone", "classic_italian", "brazilian", "romanian")


@dataclass(frozen=True, slots=True)
class Option:
    """A named house rule of a preset: its default, its choices and the fields each sets."""

    name: str
    description: str
    source: str
    default: str
    choices: dict[str, dict[str, Any]]
    #: ``source`` with its notes in another language (``"source_ro"`` in the preset file:
    #: the seed's sentences as they are, the words around them translated), by language
    sources_by_lang: dict[str, str] = field(default_factory=dict)


#: Other names accepted for the presets.
ALIASES = {"classic": "classic_italian", "italian": "classic_italian", "canastra": "brazilian"}


def preset_name(name: str) -> str:
    """The packaged preset that ``name`` names: one of :data:`PRESETS` or an alias of one
    (:data:`ALIASES`), in any case, with ``-`` for ``_`` (``"Classic-Italian"`` →
    ``"classic_italian"``). Only these names are read: a path is never opened.

    Raises:
        RulesError: any other name; the message lists the presets.
    """
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else ""
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        raise RulesError(
            f"unknown variant {str(name)[:40]!r}; choose one of {', '.join(PRESETS)} "
            f"(or {', '.join(sorted(ALIASES))})"
        )
    return key


def _read_preset(name: str) -> dict[str, Any]:
    name = preset_name(name)
    text = resources.files("canasta.core.presets").joinpath(f"{name}.json").read_text("utf-8")
    try:
        data: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as exc:  # pragma: no cover - shipped files are tested
        raise RulesError(f"preset {name}.json line {exc.lineno}: {exc.msg}") from None
    return data


def _preset_chain(name: str) -> list[dict[str, Any]]:
    chain = []
    seen = set()
    name = preset_name(name)
    while name:
        if name in seen:
            raise RulesError(f"preset {name} extends itself")
        seen.add(name)
        data = _read_preset(name)
        chain.append(data)
        name = data.get("extends", "")
    return list(reversed(chain))


def preset_options(name: str) -> dict[str, Option]:
    """The named house rules of a preset (inherited ones included; a preset drops an
    inherited option by setting it to ``null``)."""
    out: dict[str, Option] = {}
    for data in _preset_chain(name):
        for oname, spec in data.get("options", {}).items():
            if spec is None:
                out.pop(oname, None)
                continue
            out[oname] = Option(
                name=oname,
                description=spec["description"],
                source=spec.get("source", ""),
                default=str(spec["default"]),
                choices={str(k): v for k, v in spec["choices"].items()},
                sources_by_lang={k[len("source_"):]: str(v) for k, v in spec.items()
                                 if k.startswith("source_")},
            )
    return out


def preset_info(name: str) -> dict[str, Any]:
    """A preset's title, seed file, description, parent and per-field sources (the seed
    sentence each field value rests on; a child's entries override its parent's), and
    ``sources_by_lang``: language -> field -> the source with its notes in that language
    (the preset file's ``sources_ro``; the seed's sentences stay as they are)."""
    chain = _preset_chain(name)
    sources: dict[str, str] = {}
    by_lang: dict[str, dict[str, str]] = {}
    for data in chain:
        sources.update(data.get("sources", {}))
        for key, entries in data.items():  # "sources_ro": the notes in Romanian
            if key.startswith("sources_"):
                by_lang.setdefault(key[len("sources_"):], {}).update(entries)
    last = chain[-1]
    return {
        "name": last.get("name", name),
        "title": last.get("title", name),
        "seed": last.get("seed", ""),
        "description": last.get("description", ""),
        "extends": last.get("extends", ""),
        "sources": sources,
        "sources_by_lang": by_lang,
    }


def load_preset(name: str, options: dict[str, Any] | None = None) -> Rules:
    """Build the rules of preset ``name`` with ``options`` applied.

    ``options`` keys are the preset's named house rules (``surprise_cards``) or any field
    (``pile.frozen_naturals``); values are JSON values or their text.

    Raises:
        RulesError: unknown variant, option or field, or a bad value; the message lists the
        valid choices.
    """
    name = preset_name(name)
    values: dict[str, Any] = {}

    def put(items: dict[str, Any]) -> None:
        # Later settings win, also over a mapping entry (``deal.cards_dealt.4``) set earlier.
        for k, v in items.items():
            values.pop(k, None)
            values[k] = v

    for data in _preset_chain(name):
        put(data.get("fields", {}))
    named = preset_options(name)
    chosen = {o.name: o.default for o in named.values()}
    raw_fields: dict[str, Any] = {}
    for key, val in (options or {}).items():
        if key in RETIRED and key not in named and not is_rule_key(key):
            continue  # an option of older documents that changes nothing (RETIRED says why)
        if key in named:
            sval = str(val).lower() if isinstance(val, bool) else str(val)
            if sval not in named[key].choices:
                raise RulesError(
                    f"option {key}: '{val}' is not one of {', '.join(named[key].choices)}"
                )
            chosen[key] = sval
        elif is_rule_key(key):
            raw_fields[key] = val
        else:
            raise RulesError(
                f"unknown rule '{key}' for {name}; its options are "
                f"{', '.join(sorted(named)) or '(none)'}, and any field may be set as "
                "section.field (see `canasta rules " + name + "`)"
            )
    for oname, choice in chosen.items():
        put(named[oname].choices[choice])
    put(raw_fields)
    applied = tuple(sorted(chosen.items())) + tuple(
        sorted((k, json.dumps(v) if not isinstance(v, str) else v) for k, v in raw_fields.items())
    )
    return _apply_fields(Rules(name=name), values, applied)


def parse_rule_args(items: list[str] | None) -> dict[str, str]:
    """Parse ``--rule name=value`` strings into a dict; raise RulesError on a missing '='."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise RulesError(f"--rule '{item}': expected name=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out
