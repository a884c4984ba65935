"""Refusals for people: "Not allowed: …" in the player's language, with the sentence of the
variant's own seed text that carries the broken rule.

An :class:`~canasta.core.legality.IllegalActionError` names its rule (``.rule``: a ``Rules``
field path such as ``melds.min_naturals``, or a rule of the game such as ``turn order``) and,
once the engine provides them, the values that broke it (``.values``). The catalogue holds
one text per rule id (``refusal.<rule id>``, spaces as ``_``); its placeholders are filled
from the rules in play (:func:`refusal_values`) and from ``.values``.

The quotes are data (``quotes.json``: rule id -> variant -> ``{"seed", "quote", "english"}``),
copied exactly from the seed texts (``../shared/seeds/``): international cites seed 002,
canastone 000, classic_italian 001 (or 000 where 001 is silent, since it extends Canastone:
the text then says so), brazilian 003, romanian 004. A quote stays in the seed's language; the
text says which seed it is, and an English reader gets ``english`` beside it: a literal
rendering, word for word (the seed's own game words in brackets where the field's
English term replaces them: "stock [tallone]", "wild cards [valori, values]"), every number
and every cut ("...") kept. The engine's own English reasons
(``IllegalActionError.reason``) quote no seed, since they are the same for every variant.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from canasta.core.rules import CANASTA_ONLY, Rules, preset_info
from canasta.i18n.catalogue import DEFAULT, has, t

if TYPE_CHECKING:
    from canasta.core.data import HandData


#: The language each seed text is written in (``../shared/seeds/README.md``).
SEED_LANGUAGE = {"000": "it", "001": "it", "002": "it", "003": "it", "004": "ro"}

#: Situations of a rule id that its seed sentence does not describe: the sentences on
#: ``melds`` say that melds are of one rank (no sequences), nothing of laying off onto a meld
#: the side lacks or of cards of another rank than the meld's. Those refusals quote nothing.
UNQUOTED_CASES: dict[str, frozenset[str]] = {
    "melds": frozenset({"wrong_meld", "no_such_meld"}),
}


class Refusal(Protocol):
    """What a refusal needs: the rule id (``IllegalActionError`` has it)."""

    rule: str


@cache
def quotes() -> dict[str, dict[str, dict[str, str]]]:
    """``quotes.json``: rule id -> variant -> ``{"seed": "002", "quote": "..."}``."""
    text = resources.files("canasta.i18n").joinpath("quotes.json").read_text("utf-8")
    data: dict[str, dict[str, dict[str, str]]] = json.loads(text)
    return data


def seed_quote(rule: str, variant: str) -> tuple[str, str] | None:
    """``(seed number, sentence)`` of ``variant``'s seed text for ``rule``, or None where that
    text says nothing on it (an engine rule or one taken from another source)."""
    entry = quotes().get(rule, {}).get(variant)
    return None if entry is None else (entry["seed"], entry["quote"])


def seed_literal(rule: str, variant: str) -> str | None:
    """The literal English rendering of :func:`seed_quote`'s sentence, or None."""
    entry = quotes().get(rule, {}).get(variant)
    return None if entry is None else entry.get("english")


def inherited_from(variant: str, seed: str) -> str | None:
    """The preset whose seed text ``variant`` quotes where it is not its own (classic Italian
    quoting seed 000 quotes Canastone, which it extends), or None for its own seed."""
    info = preset_info(variant)
    parent = info["extends"]
    while parent and not info["seed"].startswith(seed):
        info = preset_info(parent)
        if info["seed"].startswith(seed):
            return str(info["name"])
        parent = info["extends"]
    return None


def refusal_values(rules: Rules, state: HandData | None = None) -> dict[str, Any]:
    """The values the refusal texts may show (placeholder name -> value): the rules', and
    with the ``state`` the move was refused in, those of the seat to act (``minimum``: its
    side's opening minimum; ``canastas_required``: canastas its side needs to go out)."""
    m, p, g = rules.melds, rules.pile, rules.going_out
    out: dict[str, Any] = {
        "min_cards": m.min_cards, "min_naturals": m.min_naturals, "max_wilds": m.max_wilds,
        "canasta_size": m.canasta_size, "unfrozen_naturals": p.unfrozen_naturals,
        "frozen_naturals": p.frozen_naturals,
        "natural_canastas_required": g.natural_canastas_required,
        "ask_partner_per_hand": g.ask_partner_per_hand,
    }
    if state is not None:
        out["minimum"] = state.opening_minimum(state.team_of[state.actor])
        out["canastas_required"] = rules.canastas_required(state.players)
    return out


def refusal_key(rule: str, rules: Rules | None = None, values: dict[str, Any] | None = None
                ) -> str:
    """The catalogue key of a rule id: ``refusal.<rule id>`` (spaces as ``_``);
    ``melds.wild_ratio`` has one text per reading (``.le``/``.lt``, from ``rules``), and a
    few have a more precise form when ``values`` holds what it needs (``.with_minimum``,
    ``.with_count``); the pile's rules where a wild card may stand for a natural have
    ``.or_wild`` (``.or_wild_meld`` where the top card may also go onto a meld); where the
    engine names the situation (``values["case"]``) and the catalogue has
    ``refusal.<rule id>.<case>``, that text."""
    key = "refusal." + rule.replace(" ", "_")
    case = (values or {}).get("case")
    if isinstance(case, str) and has(f"{key}.{case}"):
        return f"{key}.{case}"  # one situation of a rule id with several (values["case"])
    if rule == "melds.wild_ratio":
        key += ".lt" if rules is not None and rules.melds.wild_ratio == "lt" else ".le"
    elif (rule in ("pile.unfrozen_naturals", "pile.opening_take_top_card_only")
          and rules is not None and rules.pile.unfrozen_wild_may_substitute
          and rules.pile.unfrozen_naturals > 1):
        # "one may be a wild card", as the pile's line says: not "needs 2 natural cards"
        key += ".or_wild"
        if rule == "pile.unfrozen_naturals" and rules.pile.layoff_takes_unfrozen_pile:
            key += "_meld"
    elif values and rule == "opening.minimums" and "minimum" in values:
        # A side that opens only with a canasta has no number of points to reach.
        key += ".canasta_only" if values["minimum"] >= CANASTA_ONLY else ".with_minimum"
    elif values and rule == "going_out.canastas_required" and "canastas_required" in values:
        key += ".with_count"
    return key


def refusal_parts(error: Refusal, rules: Rules,
                  state: HandData | None = None) -> dict[str, Any]:
    """A refusal as data (for the web page, which formats it from its catalogue):
    ``{"rule", "key", "values", "variant", "seed", "quote", "literal", "seed_language",
    "inherited"}``; ``seed``, ``quote``, ``literal`` (its English word for word) and
    ``seed_language`` are None where the variant's text is silent on the rule;
    ``inherited`` names the preset whose text is quoted where it is not the variant's own
    (else None). ``state``: the
    state the move was refused in (unchanged by the refusal), for the values of the seat to
    act."""
    values = refusal_values(rules, state)
    extra = getattr(error, "values", None)
    if isinstance(extra, dict):
        values.update({str(k): v for k, v in extra.items()})
    found = seed_quote(error.rule, rules.name)
    if values.get("case") in UNQUOTED_CASES.get(error.rule, ()):
        found = None
    return {
        "rule": error.rule,
        "key": refusal_key(error.rule, rules, values),
        "values": values,
        "variant": rules.name,
        "seed": found[0] if found else None,
        "quote": found[1] if found else None,
        "literal": seed_literal(error.rule, rules.name) if found else None,
        "seed_language": SEED_LANGUAGE.get(found[0]) if found else None,
        "inherited": inherited_from(rules.name, found[0]) if found else None,
    }


def quote_text(parts: dict[str, Any], lang: str = DEFAULT) -> str:
    """The seed sentence of :func:`refusal_parts` as shown: ``seed 002: “...”``, or for an
    inherited rule ``seed 000 (canastone, which this variant extends): “...”``; in English,
    followed by its literal English (:func:`literal_text`)."""
    if parts["inherited"]:
        text = t("refusal.quote.inherited", lang, seed=parts["seed"], quote=parts["quote"],
                 parent=t(f"variant.{parts['inherited']}", lang))
    else:
        text = t("refusal.quote", lang, seed=parts["seed"], quote=parts["quote"])
    literal = literal_text(parts, lang)
    return f"{text} {literal}" if literal else text


def literal_text(parts: dict[str, Any], lang: str = DEFAULT) -> str:
    """``(word for word: “...”)``: the seed sentence's literal English, for an English
    reader; empty in the other languages, whose tables speak only their own (a reader of
    Portuguese gets the rule in Portuguese beside the seed's sentence), and with no quote."""
    if not parts.get("literal") or lang != "en" or parts.get("seed_language") == lang:
        return ""
    return t("seed.literal", lang, literal=parts["literal"])


def refusal_text(error: Refusal, rules: Rules, lang: str = DEFAULT,
                 state: HandData | None = None) -> str:
    """"Not allowed: …" in ``lang``, followed by the seed sentence of the variant in play.

    >>> from canasta.core.rules import load_preset
    >>> class E:
    ...     rule = "melds.min_naturals"
    >>> refusal_text(E(), load_preset("canastone"), "it")[:62]
    'Non consentito: una combinazione richiede almeno 2 carte natur'
    """
    parts = refusal_parts(error, rules, state)
    text = t("refusal.not_allowed", lang, reason=t(parts["key"], lang, **parts["values"]))
    if parts["quote"]:
        text += " — " + quote_text(parts, lang)
    return text
