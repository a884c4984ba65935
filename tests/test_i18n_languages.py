"""Four languages, complete: English, Italian, Romanian and Portuguese (Brazil). Every
catalogue has every key any other has, with the same placeholders; ``python -m
canasta.i18n.check`` lists what one lacks; every text the web page asks for exists; the
Romanian and Brazilian catalogues are translations, in their tables' own words."""

from __future__ import annotations

import re
from itertools import permutations
from pathlib import Path

import pytest

from canasta.i18n import catalogue, languages, placeholders, resolve_lang, t
from canasta.i18n import check as i18n_check

STATIC = Path(__file__).resolve().parents[1] / "src" / "canasta" / "web" / "static"


def test_the_four_languages_have_catalogues() -> None:
    assert {"en", "it", "ro", "pt"} <= set(languages()) and languages()[0] == "en"


@pytest.mark.parametrize(("a", "b"), list(permutations(languages(), 2)))
def test_no_catalogue_lacks_a_key_another_has(a: str, b: str) -> None:
    assert sorted(set(catalogue(b)) - set(catalogue(a))) == [], f"{a} lacks keys of {b}"


@pytest.mark.parametrize(("a", "b"), list(permutations(languages(), 2)))
def test_placeholders_match_across_languages(a: str, b: str) -> None:
    ca, cb = catalogue(a), catalogue(b)
    assert {k: (placeholders(ca[k]), placeholders(cb[k])) for k in ca
            if k in cb and placeholders(ca[k]) != placeholders(cb[k])} == {}


def test_the_check_command_agrees_and_names_a_missing_key(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_check.main([]) == 0
    real = i18n_check.catalogue

    def lacking(lang: str) -> dict[str, str]:
        data = dict(real(lang))
        if lang == "ro":
            del data["ui.stock"]
            data["ui.only_here"] = "x"
        if lang == "pt":
            data["ui.hand_n"] = "Mão {numero}"
        return data

    monkeypatch.setattr(i18n_check, "catalogue", lacking)
    assert i18n_check.main([]) == 1
    out = capsys.readouterr().out
    assert "missing: ui.stock" in out and "extra: ui.only_here" in out
    assert "placeholders: ui.hand_n" in out
    assert i18n_check.main(["--lang", "ro", "--keys"]) == 1
    assert capsys.readouterr().out.startswith("ro\tui.stock\tStock")


def test_browser_tags_pick_the_catalogue() -> None:
    assert resolve_lang("pt-BR") == "pt" and resolve_lang("ro-RO") == "ro"
    assert resolve_lang("pt_BR") == "pt" and resolve_lang("de-DE") == "en"
    assert t("ui.stock", "pt-BR") == "Monte" and t("ui.pile", "ro") == "Teanc decartat"


@pytest.mark.parametrize("lang", ["ro", "pt"])
def test_romanian_and_brazilian_are_translated_not_copied(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    same = [k for k in en if other[k] == en[k]]
    assert len(same) < len(en) // 20, same


def test_the_field_words_of_each_table_are_used() -> None:
    """The seeds' and the glossary's own terms (shared/seeds/README.md)."""
    ro, pt = catalogue("ro"), catalogue("pt")
    assert "rupe" in ro["ui.take_pile"].lower() and ro["ui.stock"] == "Stoc"
    assert "etal" in ro["ui.meld"].lower() and "3 roșu" in ro["score.red_threes"]
    assert "murdar" in ro["score.mixed_canasta"].lower()
    assert pt["ui.take_pile"] == "Pegar o lixo" and pt["ui.go_out"] == "Bater"
    assert "limpa" in pt["score.natural_canasta"] and "suja" in pt["score.mixed_canasta"]
    assert "curinga" in pt["ui.canasta_wild"]


def _page_keys() -> set[str]:
    keys: set[str] = set()
    for path in STATIC.glob("*.js"):
        keys |= set(re.findall(r'\bt\("([a-z_]+\.[a-z0-9_.]+)"\s*[,)]', path.read_text("utf-8")))
    for path in STATIC.glob("*.html"):
        keys |= set(re.findall(r'data-i18n(?:-label)?="([^"]+)"', path.read_text("utf-8")))
    return keys


def test_every_text_the_page_asks_for_by_name_is_in_every_catalogue() -> None:
    keys = _page_keys()
    assert {"ui.copy", "scorepad.add", "ui.your_hand"} <= keys  # the scan sees them
    for lang in languages():
        assert sorted(k for k in keys if k not in catalogue(lang)) == [], lang


def test_penalty_and_scorepad_texts_exist_for_every_named_penalty() -> None:
    from canasta.formats.handresult import PENALTY_TABLES
    from canasta.formats.tally import CLASSES

    names = {p.name for table in PENALTY_TABLES.values() for p in table}
    for lang in languages():
        cat = catalogue(lang)
        assert sorted(n for n in names if f"penalty.{n}" not in cat) == []
        assert all(f"scorepad.class.{c}" in cat for c in (*CLASSES, "b3", "r3"))


def test_english_variant_descriptions_are_the_presets_own() -> None:
    import json
    from importlib import resources

    for name in ("international", "canastone", "classic_italian", "brazilian", "romanian"):
        preset = json.loads(resources.files("canasta.core.presets")
                            .joinpath(f"{name}.json").read_text("utf-8"))
        assert catalogue("en")[f"variant.{name}.description"] == preset["description"]


HAND = {"format": "canasta-hand-result", "version": 1, "variant": "romanian", "options": {},
        "teams": [
            {"melds": [["Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "2c"], "9s 9d JK"], "red_threes": 1,
             "hands": [[], ["5c", "7d"]], "went_out": True,
             "penalties": [{"name": "miscount", "difference": 30}]},
            {"melds": [], "hands": [["Qs"], ["4h", "4d"]],
             "penalties": [{"name": "wrong_meld_card_kept", "count": 2}]}]}


def test_canasta_score_and_rules_speak_the_chosen_language() -> None:
    import json

    from formatkit import cli

    ro = catalogue("ro")
    out = cli(["score", "-", "--lang", "ro"], json.dumps(HAND))
    assert out.exit_code == 0, out.stderr
    text = out.stdout
    for key in ("score.mixed_canasta", "score.going_out", "score.melded", "ui.total",
                "cli.score.match_total", "penalty.miscount", "penalty.wrong_meld_card_kept"):
        assert ro[key] in text, key
    assert ro["variant.romanian"] in text and "Penalty" not in text
    en = cli(["score", "-"], json.dumps(HAND)).stdout
    assert "Mixed canasta" in en and "Hand total" in en   # English as before
    pt = cli(["rules", "brazilian", "--lang", "pt"]).stdout
    assert catalogue("pt")["variant.brazilian.description"][:40] in " ".join(pt.split())


def test_the_interactive_scorepad_asks_in_the_chosen_language() -> None:
    from formatkit import cli

    pt = catalogue("pt")
    lines = ["international", "4", "Ks Kh Kd Kc Ks Kh Kd", "", "1", "talvez", "s", "n", "",
             "5c 7d", "", "Qs Qh Qd", "", "0", "Js", "4h 4d", "", "n"]
    out = cli(["score", "-i", "--lang", "pt"], "\n".join(lines) + "\n")
    assert out.exit_code == 0, out.stdout
    text = out.stdout
    assert pt["cli.pad.went_out"].strip() in text and pt["cli.pad.another"] in text
    assert "'talvez' não é s nem n" in text            # re-asked in Portuguese
    assert pt["score.going_out"] in text and "+760" in text
