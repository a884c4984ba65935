"""The message catalogues (canasta.i18n): every language has every key with the same
placeholders, every rule id the engine can refuse with has a text, refusals quote the seed of
the variant in play, and house rules, variants and score items have their names."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import i18n
from canasta.core.actions import Discard, Draw, LayOff, Meld, TakePile
from canasta.core.legality import IllegalActionError
from canasta.core.rules import PRESETS, load_preset, preset_options
from canasta.core.state import MisdealError, State
from canasta.i18n import catalogue, languages, placeholders, t
from canasta.i18n.refusals import quotes, refusal_key, refusal_parts, refusal_text, refusal_values

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "canasta" / "core"
RULE_RE = re.compile(r'(?:fail|IllegalActionError)\(\s*"([^"]+)"')
#: The seed text of each preset (classic_italian extends canastone: 000 where 001 is silent).
SEEDS_OF = {"international": {"002"}, "canastone": {"000"}, "classic_italian": {"001", "000"},
            "brazilian": {"003"}, "romanian": {"004"}}


def seeds_dir() -> Path | None:
    for cand in (ROOT.parent / "shared" / "seeds", ROOT.parents[1] / "shared" / "seeds",
                 Path("/work/shared/seeds")):
        if cand.is_dir():
            return cand
    return None


CASE_RE = re.compile(r'"case": "([a-z_]+)"')


def raised_cases() -> set[str]:
    """Every situation legality names in an error's values (``{"case": ...}``)."""
    out: set[str] = set()
    for path in CORE.rglob("*.py"):
        out.update(CASE_RE.findall(path.read_text("utf-8")))
    return out


def raised_rule_ids() -> set[str]:
    """Every rule id written in a refusal anywhere in canasta/core."""
    out: set[str] = set()
    for path in CORE.rglob("*.py"):
        out.update(RULE_RE.findall(path.read_text("utf-8")))
    return out


# -- the catalogues agree --------------------------------------------------------------------


def test_there_are_english_and_italian_catalogues() -> None:
    assert languages()[0] == "en" and "it" in languages()


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    en, other = set(catalogue("en")), set(catalogue(lang))
    assert sorted(en - other) == [], f"{lang} lacks these keys"
    assert sorted(other - en) == [], f"{lang} has stray keys"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_text_has_the_same_placeholders_in_every_language(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    wrong = {k: (placeholders(en[k]), placeholders(other[k])) for k in en
             if k in other and placeholders(en[k]) != placeholders(other[k])}
    assert wrong == {}


@pytest.mark.parametrize("lang", languages())
def test_no_text_is_empty_or_untranslated_english_markup(lang: str) -> None:
    assert [k for k, v in catalogue(lang).items() if not v.strip()] == []


def test_lookup_falls_back_to_english_then_to_the_key() -> None:
    assert t("ui.stock", "it") == "Tallone"
    assert t("ui.stock", "xx") == "Stock"            # no such language: English
    assert t("ui.stock", "it-IT") == "Tallone"       # a browser tag
    assert t("no.such.key", "it") == "no.such.key"
    assert t("ui.hand_n", "it", n=2) == "Mano 2"
    assert t("ui.hand_n", "en") == "Hand {n}"        # a missing value stays visible


# -- refusals ---------------------------------------------------------------------------------


def test_every_rule_id_the_engine_refuses_with_has_a_text() -> None:
    ids = raised_rule_ids()
    assert "melds.min_naturals" in ids and "turn order" in ids  # the scan sees them
    missing = []
    for rule in sorted(ids):
        for variant in PRESETS:
            for ratio in ("le", "lt"):
                rules = load_preset(variant, {"melds.wild_ratio": ratio})
                if refusal_key(rule, rules) not in catalogue("en"):
                    missing.append(refusal_key(rule, rules))
    assert sorted(set(missing)) == []


def test_no_refusal_text_is_left_without_a_rule_raising_it() -> None:
    # every preset: the pile's texts depend on whether a wild card may stand for a natural
    rules = [load_preset(p, {"melds.wild_ratio": x}) for p in PRESETS for x in ("le", "lt")]
    state_values = refusal_values(rules[0], State.deal(rules[0], 4, seed=1))
    keys = {refusal_key(r, rs, v) for r in raised_rule_ids() for rs in rules
            for v in ({}, state_values)}
    cases = raised_cases()
    texts = {k for k in catalogue("en") if k.startswith("refusal.")
             and k.rsplit(".", 1)[-1] not in cases}
    assert texts - keys == {"refusal.not_allowed", "refusal.quote", "refusal.quote.inherited"}


def test_refusal_texts_need_only_values_the_rules_give() -> None:
    rules = load_preset("international")
    # A situation's text may also show what legality puts in its values (a card, a rank).
    given_values = set(refusal_values(rules, State.deal(rules, 4, seed=1))) | {
        "card", "top", "rank"}
    for key, text in catalogue("en").items():
        if key.startswith("refusal.") and key not in ("refusal.not_allowed", "refusal.quote",
                                                      "refusal.quote.inherited"):
            assert placeholders(text) <= given_values, key


def _refusal(state: State, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        state.clone().apply(action)  # type: ignore[arg-type]
    return info.value


def test_a_canastone_refusal_quotes_seed_000_and_an_international_one_seed_002() -> None:
    # Discarding before drawing breaks the turn order in both variants.
    for variant, seed, phrase in (("canastone", "000", "pesca due carte dal tallone"),
                                  ("international", "002", "pescare una carte dal tallone")):
        rules = load_preset(variant)
        state = State.deal(rules, 4, seed=3)
        err = _refusal(state, Discard(state.hand_cards(state.actor)[0]))
        assert err.rule == "turn order"
        for lang, prefix, label in (("en", "Not allowed: ", "seed"),
                                    ("it", "Non consentito: ", "testo")):
            text = refusal_text(err, rules, lang)
            assert text.startswith(prefix)
            assert f"{label} {seed}: " in text and phrase in text
    # A meld rule: the Canastone text, never seed 002's.
    err = IllegalActionError("melds.min_cards", "a meld needs at least 3 cards")
    text = refusal_text(err, load_preset("canastone"), "it")
    assert "testo 000" in text and "002" not in text
    assert "testo 002" in refusal_text(err, load_preset("international"), "it")


def test_refusal_parts_carry_rule_key_values_and_quote() -> None:
    err = IllegalActionError("pile.frozen_naturals", "the pile is frozen")
    parts = refusal_parts(err, load_preset("canastone"))
    assert parts["key"] == "refusal.pile.frozen_naturals"
    assert parts["values"]["frozen_naturals"] == 3 and parts["seed"] == "000"
    assert "almeno tre carte «naturali»" in parts["quote"]
    assert "3 carte naturali" in refusal_text(err, load_preset("canastone"), "it")


def test_wild_ratio_refusal_follows_the_reading_in_play() -> None:
    err = IllegalActionError("melds.wild_ratio", "x")
    assert "fewer wild" in refusal_text(err, load_preset("international", {"wild_ratio": "lt"}))
    assert "outnumber" in refusal_text(err, load_preset("international", {"wild_ratio": "le"}))


def test_quotes_name_rule_ids_and_presets_and_each_variant_cites_its_own_seed() -> None:
    ids = raised_rule_ids()
    for rule, entry in quotes().items():
        assert rule in ids, rule
        for variant, q in entry.items():
            assert q["seed"] in SEEDS_OF[variant], (rule, variant)


def test_every_quote_is_copied_exactly_from_its_seed_text() -> None:
    where = seeds_dir()
    if where is None:
        pytest.skip("the seed texts (../shared/seeds) are not here")
    texts = {p.name[:3]: " ".join(p.read_text("utf-8").split()) for p in where.glob("0*.txt")}
    bad = []
    for rule, entry in quotes().items():
        for variant, q in entry.items():
            parts = [" ".join(p.split()) for p in q["quote"].split("...") if p.strip()]
            if not all(p in texts[q["seed"]] for p in parts):
                bad.append((rule, variant, q["quote"]))
    assert bad == []


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_every_refusal_met_in_play_reads_fully_in_every_language(variant: str,
                                                                   seed: int) -> None:
    """Random play with random wrong moves: each refusal renders with no placeholder left."""
    rules = load_preset(variant)
    try:
        state = State.deal(rules, 4, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        hand = state.hand_cards(state.actor)
        tries = [Draw(), TakePile(tuple(rng.sample(hand, min(2, len(hand))))),
                 Meld(tuple(rng.sample(hand, min(rng.randint(1, 4), len(hand))))),
                 LayOff(rng.randint(0, 13), tuple(rng.sample(hand, 1))),
                 Discard(rng.choice(hand))]
        for action in tries:
            if state.can(action):
                continue
            err = _refusal(state, action)
            for lang in languages():
                for where in (None, state):
                    text = refusal_text(err, rules, lang, where)
                    assert "{" not in text and not text.startswith("refusal."), text
        state.apply(rng.choice(state.legal_actions()))


# -- names of variants, sections, house rules and values --------------------------------------


@pytest.mark.parametrize("lang", languages())
def test_every_variant_section_option_and_value_has_a_name(lang: str) -> None:
    cat = catalogue(lang)
    for variant in PRESETS:
        assert f"variant.{variant}" in cat
        for option in preset_options(variant).values():
            assert f"option.{option.name}" in cat
            assert f"option.{variant}.{option.name}.description" in cat
            for choice in option.choices:
                assert choice.isdigit() or f"choice.{choice}" in cat, choice
    for section in ("deal", "turn", "pile", "melds", "opening", "going_out", "red_threes",
                    "scoring", "end"):
        assert f"section.{section}" in cat


def test_english_option_descriptions_are_the_presets_own() -> None:
    for variant in PRESETS:
        for option in preset_options(variant).values():
            assert i18n.option_description(variant, option.name) == option.description


def test_italian_names_of_house_rules_and_values() -> None:
    assert i18n.choice_label("lt", "it") == "meno matte che naturali"
    assert i18n.choice_label("true", "it") == "sì"
    assert i18n.choice_label("3000", "it") == "3000"
    assert i18n.variant_name("classic_italian", "it") == "Canasta classica"
    assert i18n.section_label("going_out", "it") == "La chiusura"
    assert i18n.option_label("ask_partner", "it") == "Chiedere al compagno"


# -- score items -------------------------------------------------------------------------------


def test_every_score_item_code_has_a_text_and_the_english_is_the_sheets_label() -> None:
    from canasta.core.scoring import ITEM_TEXT, Penalty, TeamHand, score_team
    from canasta.i18n import score_item_text

    for lang in languages():
        assert all(f"score.{code}" in catalogue(lang) for code in ITEM_TEXT)
    rules = load_preset("romanian")
    seen = set()
    for seed in range(30):
        try:
            state = State.deal(rules, 4, seed=seed)
        except MisdealError:
            continue
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for sheet in state.score():
            for item in sheet.coded_items():
                seen.add(item["code"])
                assert score_item_text(item["code"], item["values"], "en") == item["label"]
                it_text = score_item_text(item["code"], item["values"], "it")
                assert "{" not in it_text
    hand = TeamHand(melds=((0, 0, 0, 0, 0, 0, 0),), hands=((5, 6),),
                    penalties=(Penalty("custom", -50, "x"),))
    sheet = score_team(0, hand, load_preset("canastone"))
    assert [c for c, _ in sheet.codes][-1] == "penalty"
    assert score_item_text("cards_in_hand", {"player": 1}, "it", "Bea") == \
        "Carte rimaste in mano, Bea"
    assert len(seen) >= 3


def test_with_the_state_a_refusal_names_the_sides_own_minimum_and_canastas() -> None:
    rules = load_preset("international")
    state = State.deal(rules, 2, seed=4)
    err = IllegalActionError("going_out.canastas_required", "x")
    assert "needs 2 canasta(s)" in refusal_text(err, rules, "en", state)  # two-handed game
    err = IllegalActionError("opening.minimums", "x")
    assert "i 50 punti richiesti" in refusal_text(err, rules, "it", state)
    assert "il punteggio minimo richiesto" in refusal_text(err, rules, "it")


def test_english_variant_names_are_the_presets_titles() -> None:
    from canasta.core.rules import preset_info

    for variant in PRESETS:
        assert i18n.variant_name(variant) == preset_info(variant)["title"]


@pytest.mark.parametrize("lang", languages())
def test_every_rules_field_has_a_name_in_the_rule_sheet(lang: str) -> None:
    from canasta.core.rules import field_names

    cat = catalogue(lang)
    keys = {k for k in field_names() if "." in k}
    assert sorted(k for k in keys if f"rule.{k}" not in cat) == []
    assert sorted(k[5:] for k in cat if k.startswith("rule.") and k.count(".") == 2
                  and k[5:] not in keys) == []


def test_a_case_named_by_the_engine_picks_its_own_text_where_the_catalogue_has_one() -> None:
    rules = load_preset("international")
    assert refusal_key("melds.wild_ratio", rules, {"case": "lt"}) == "refusal.melds.wild_ratio.lt"
    assert refusal_key("cards", rules, {"case": "no_such_case"}) == "refusal.cards"


def test_every_situation_legality_names_has_a_text_and_no_text_is_left_without_one() -> None:
    cases = raised_cases()
    assert {"no_partner", "draw_first", "not_matching"} <= cases  # the scan sees them
    case_keys = {k.rsplit(".", 1)[-1] for k in catalogue("en") if k.startswith("refusal.")}
    assert sorted(cases - case_keys) == []


def test_a_refusal_in_one_situation_says_which() -> None:
    rules = load_preset("international")
    state = State.deal(rules, 4, seed=3)
    err = _refusal(state, Discard(state.hand_cards(state.actor)[0]))
    assert err.values["case"] == "draw_first"
    assert refusal_text(err, rules, "it", state).startswith(
        "Non consentito: prima pesca dal tallone o prendi il pozzo.")
    state.apply(Draw())
    err = _refusal(state, Draw())
    assert refusal_text(err, rules, "en", state).startswith(
        "Not allowed: you have already drawn this turn.")
