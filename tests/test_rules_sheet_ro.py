"""The Romanian rule sheet (`canasta rules romanian --lang ro`) speaks Romanian: the notes
around the seed's sentences in its source column were English; the preset's ``sources_ro``
(and each house rule's ``source_ro``) carry them translated, the seed's sentences as they
are. A note is read without its quotes (a seed sentence, or an English book quoted as it
is) for English words."""

from __future__ import annotations

import re

from canasta.cli.rules_cmd import rule_sheet
from canasta.core.rules import load_preset, preset_info, preset_options

#: English words that no Romanian note uses
ENGLISH = re.compile(r"\b(the|is|of|and|with|only|when|from|which|does|not|one|by|"
                     r"any|has|no|for|as|default|engine|option|set)\b")


def unquoted(text: str) -> str:
    """``text`` without its quotes ("...", “...”, «...») and file and option names."""
    text = re.sub(r'"[^"]*"|“[^”]*”|«[^»]*»|„[^”]*”', " ", text)
    return re.sub(r"\b[\w.]+\.md\b|\b[a-z]+_[a-z_]+\b|seed \d{3}", " ", text)


def test_every_note_of_the_romanian_sheet_is_romanian() -> None:
    rows = rule_sheet(load_preset("romanian"), "ro")
    english = [(r.key, r.source) for r in rows if ENGLISH.search(unquoted(r.source))]
    assert english == []
    for opt in preset_options("romanian").values():
        shown = opt.sources_by_lang.get("ro", opt.source)
        assert not ENGLISH.search(unquoted(shown)), (opt.name, shown)


def test_the_translated_notes_keep_the_seeds_sentences_and_cover_the_english_ones() -> None:
    info = preset_info("romanian")
    ro = info["sources_by_lang"]["ro"]
    for key, source in info["sources"].items():
        if ENGLISH.search(unquoted(source)):
            assert key in ro, key  # every English note has its Romanian one
        if key in ro:
            for quote in re.findall(r'"[^"]*"', source):
                assert quote in ro[key], (key, quote)
    # the other languages keep the preset's own notes
    assert rule_sheet(load_preset("romanian"), "en")[0].source == \
        info["sources"][rule_sheet(load_preset("romanian"), "en")[0].key]
