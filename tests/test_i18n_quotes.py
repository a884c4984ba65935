"""The seed sentences a refusal quotes carry a literal English rendering (``quotes.json``,
``"english"``): an English reader reads the sentence word for word beside the original, on
the page and at `why`; the other languages' tables speak only their own language."""

from __future__ import annotations

import re

import pytest

from canasta.core.rules import load_preset
from canasta.i18n.catalogue import languages
from canasta.i18n.refusals import SEED_LANGUAGE, quotes, refusal_parts, refusal_text


def entries() -> list[tuple[str, str, dict[str, str]]]:
    return [(rule, variant, q) for rule, entry in quotes().items()
            for variant, q in entry.items()]


def test_every_quote_has_a_literal_english_rendering() -> None:
    assert len(entries()) > 100
    for rule, variant, q in entries():
        english = q.get("english", "")
        assert english.strip() and english != q["quote"], (rule, variant)


def test_a_literal_rendering_keeps_every_number_and_every_cut() -> None:
    """Literal: the numbers of the sentence (points, cards, scores) and its cuts ("...",
    where the quote leaves words of the seed out) are all in the English."""
    for rule, variant, q in entries():
        assert sorted(re.findall(r"\d+", q["quote"])) == \
            sorted(re.findall(r"\d+", q["english"])), (rule, variant)
        assert q["quote"].count("...") == q["english"].count("..."), (rule, variant)


def test_one_sentence_has_one_rendering() -> None:
    seen: dict[str, str] = {}
    for rule, variant, q in entries():
        assert seen.setdefault(q["quote"], q["english"]) == q["english"], (rule, variant)


def test_the_renderings_use_the_field_terms_with_the_seeds_word_beside() -> None:
    """Where a seed word has a Canasta term in English, the rendering says the term and keeps
    the seed's word in brackets (docs/i18n.md's glossary): the stock, not "the heel"."""
    words = {"tallone": "stock [tallone]", "pozzo": "[pozzo, well]", "pinell": "deuce",
             "matte": "wild cards [matte]", "valori": "[valori, values]"}
    for rule, variant, q in entries():
        for seed_word, english in words.items():
            if re.search(rf"\b{seed_word}", q["quote"], re.IGNORECASE):
                assert english in q["english"], (rule, variant, seed_word)


class _Refused:
    rule = "melds.min_naturals"


@pytest.mark.parametrize("lang", languages())
def test_a_refusal_shows_the_literal_to_an_english_reader(lang: str) -> None:
    for variant, seed in (("international", "002"), ("romanian", "004")):
        parts = refusal_parts(_Refused(), load_preset(variant))
        assert parts["seed"] == seed and parts["literal"], variant
        text = refusal_text(_Refused(), load_preset(variant), lang)
        assert parts["quote"] in text
        assert (parts["literal"] in text) == (lang == "en" != SEED_LANGUAGE[seed]), \
            (variant, lang)
