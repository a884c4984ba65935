"""The wild-card limit of a natural meld is one predicate (``canasta.core.wildlimit``): the
legality check, the generator's shape test, the action codec and the opening reach all answer as
it does, for every preset and every ``wild_ratio`` choice."""

from __future__ import annotations

import dataclasses

import pytest

from canasta import State, load_preset
from canasta.core.codec import ActionCodec
from canasta.core.generate import shape_ok
from canasta.core.meldshape import meld_error
from canasta.core.wildlimit import (
    MAX_WILDS,
    MIN_NATURALS,
    WILD_RATIO,
    ratio_code,
    wild_cap,
    wild_limit_broken,
)

PRESETS = ["canastone", "classic_italian", "international", "brazilian", "romanian"]


def _rules(name: str, ratio: str | None = None):  # type: ignore[no-untyped-def]
    rules = load_preset(name)
    if ratio is None:
        return rules
    return dataclasses.replace(rules, melds=dataclasses.replace(rules.melds, wild_ratio=ratio))


def test_the_seed_000_ratio_fewer_wild_cards_than_naturals() -> None:
    """Seed 000 (Canastone): combinations "possono comprendere Joker o pinelle, ma non mai in
    numero pari o superiore a quello delle carte naturali"."""
    mr = load_preset("canastone").melds
    ratio = ratio_code(mr.wild_ratio)
    assert wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio, 3, 2) == ""
    assert wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio, 2, 2) == WILD_RATIO
    assert wild_cap(mr.max_wilds, ratio, 2) == 1


def test_the_seed_002_cap_of_three_wild_cards() -> None:
    """Seed 002 (international): "non si possono mai avere più di tre matte"; and "almeno due
    carte naturali"."""
    mr = load_preset("international").melds
    ratio = ratio_code(mr.wild_ratio)
    assert wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio, 2, 3) == ""
    assert wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio, 4, 4) == MAX_WILDS
    assert wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio, 1, 2) == MIN_NATURALS


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("ratio", [None, "any", "lt", "le"])
def test_every_place_answers_as_the_predicate(name: str, ratio: str | None) -> None:
    rules = _rules(name, ratio)
    mr = rules.melds
    code = ratio_code(mr.wild_ratio)
    s = State.deal(rules, 4, seed=1)
    codec = ActionCodec(rules, 4)
    meld_keys = {(k, j + d) for key in codec.keys if key[0] == "meld" and key[1] == 9
                 for k, j, d in [key[2:5]]}
    for naturals in range(0, 9):
        for wilds in range(0, 6):
            total = naturals + wilds
            if total < mr.min_cards or total >= mr.canasta_size:
                continue
            broken = wild_limit_broken(mr.min_naturals, mr.max_wilds, code, naturals, wilds)
            cards = [4 * 8 + (i % 4) for i in range(naturals)] + [52] * wilds  # nines, jokers
            err = meld_error(s, 9, cards, cards, 0)
            assert (err.rule if err else "") == broken, (naturals, wilds)
            assert shape_ok(mr, 9, total, wilds, wilds, 0, False) == (broken == ""), \
                (naturals, wilds)
            if naturals and wilds <= 4:
                # The codec lists a meld id for every (naturals, wilds) the ratio admits.
                assert ((naturals, wilds) in meld_keys) == (
                    wilds <= wild_cap(mr.max_wilds, code, naturals)), (naturals, wilds)
