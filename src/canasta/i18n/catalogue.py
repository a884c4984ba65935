"""The catalogues and the lookup ``t()`` (see the package docstring)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from canasta.core.scoring import penalty_code_of_text

DEFAULT = "en"
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@cache
def languages() -> tuple[str, ...]:
    """The languages with a catalogue: every ``<lang>.json`` here but ``quotes.json``,
    English first."""
    names = sorted(
        p.name[:-5] for p in resources.files("canasta.i18n").iterdir()
        if p.name.endswith(".json") and p.name != "quotes.json"
    )
    return tuple(sorted(names, key=lambda n: n != DEFAULT))


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` as a dict (cached; do not change it).

    Raises:
        KeyError: ``lang`` has no catalogue (see :func:`languages`).
    """
    if lang not in languages():
        raise KeyError(f"no catalogue for language '{lang}'; have {', '.join(languages())}")
    text = resources.files("canasta.i18n").joinpath(f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def resolve_lang(lang: str | None) -> str:
    """The catalogue language for a tag such as ``it``, ``it-IT`` or ``pt_BR``; English when
    there is none."""
    if not lang:
        return DEFAULT
    tag = lang.replace("_", "-").lower()
    for cand in (tag, tag.split("-")[0]):
        if cand in languages():
            return cand
    return DEFAULT


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a catalogue text."""
    return set(_PLACEHOLDER.findall(text))


def fill(text: str, values: dict[str, Any]) -> str:
    """Replace each ``{name}`` of ``text`` by ``values[name]``; unknown names stay as written
    (the same rule as the page's ``t()``)."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values
                            else m.group(0), text)


def has(key: str, lang: str = DEFAULT) -> bool:
    """Does ``key`` exist in ``lang``'s catalogue or in the English one?"""
    return key in catalogue(resolve_lang(lang)) or key in catalogue(DEFAULT)


def t(key: str, lang: str = DEFAULT, /, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (falling back to English, then to the key itself) with
    its placeholders filled from ``values``.

    >>> t("ui.hand_n", "it", n=3)
    'Mano 3'
    """
    text = catalogue(resolve_lang(lang)).get(key)
    if text is None:
        text = catalogue(DEFAULT).get(key, key)
    return fill(text, values)


def variant_name(variant: str, lang: str = DEFAULT) -> str:
    """A preset's name for people (``classic_italian`` -> "Classic Italian Canasta")."""
    key = f"variant.{variant}"
    return t(key, lang) if has(key) else variant.replace("_", " ")


def section_label(section: str, lang: str = DEFAULT) -> str:
    """The label of a ``Rules`` section (``going_out`` -> "Going out")."""
    return t(f"section.{section}", lang)


def option_label(option: str, lang: str = DEFAULT) -> str:
    """A house rule's short name (``wild_ratio`` -> "Wild cards against naturals")."""
    key = f"option.{option}"
    return t(key, lang) if has(key) else option.replace("_", " ")


def option_description(variant: str, option: str, lang: str = DEFAULT,
                        default: str = "") -> str:
    """A house rule's description in ``variant`` (``default`` when it has none)."""
    key = f"option.{variant}.{option}.description"
    return t(key, lang) if has(key) else default


def choice_label(value: str, lang: str = DEFAULT) -> str:
    """An option value for people (``lt`` -> "fewer wilds than naturals", ``true`` -> "yes");
    numbers and unknown values are shown as they are."""
    key = f"choice.{value}"
    return t(key, lang) if has(key) else value


def score_item_text(code: str, values: dict[str, Any], lang: str = DEFAULT,
                    player_name: str | None = None) -> str:
    """A score-sheet item (:attr:`canasta.core.scoring.ScoreSheet.codes`) for people;
    ``player_name`` replaces "player N" in a cards-left-in-hand row.

    >>> score_item_text("red_threes", {"count": 2}, "it")
    'Tre rossi (2)'
    """
    vals = dict(values)
    if "player" in vals:
        vals["player"] = player_name or t("score.player_n", lang, n=vals["player"])
    if code == "penalty":
        vals["name"] = _penalty_name(vals, lang)
    return t(f"score.{code}", lang, **vals)


def _penalty_name(values: dict[str, Any], lang: str) -> str:
    """The name of a penalty row: by its code (``values["penalty"]``, with ``count``,
    ``difference`` and a custom ``label``); a row stored before penalties kept their code
    holds English words (``name``), read back as a code where they are the engine's own."""
    code = values.get("penalty")
    if not isinstance(code, str):
        words = str(values.get("name", ""))
        code = penalty_code_of_text(words)
        if code is None:
            return words
    count = values.get("count", 1)
    extra = values.get("label") if code == "custom" else values.get("difference")
    return penalty_text(code, lang, count if isinstance(count, int) else 1,
                        extra if isinstance(extra, (int, str)) else None)



def penalty_text(name: str, lang: str = DEFAULT, count: int = 1,
                 extra: int | str | None = None) -> str:
    """A penalty of a variant's table (canasta.formats.handresult) for people: its name in
    ``lang`` (``penalty.<name>``), the difference it multiplies, and how many times; a
    ``custom`` penalty is its own label (``extra``)."""
    if name == "custom":
        text = str(extra) if extra else t("penalty.custom", lang)
    else:
        key = f"penalty.{name}"
        text = t(key, lang) if has(key) else name.replace("_", " ")
        if isinstance(extra, int):
            text += f" ({t('scorepad.difference', lang)} {extra})"
    return text + (f" ×{count}" if count > 1 else "")
