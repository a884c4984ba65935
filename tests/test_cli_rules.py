"""`canasta rules VARIANT` and `canasta variants` (src/canasta/cli/rules_cmd.py) through
Typer's CliRunner, on an app holding only these two commands."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from canasta import PRESETS, preset_options
from canasta.cli import rules_cmd

app = typer.Typer()
rules_cmd.register(app)
runner = CliRunner()

SEED_VARIANTS = ("canastone", "classic_italian", "brazilian", "romanian")


def sheet(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["rules", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


@pytest.mark.parametrize("variant", PRESETS)
def test_rule_sheet_prints_every_rule(variant: str) -> None:
    result = runner.invoke(app, ["rules", variant], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "Packs of 52 cards" in result.output and "House rules" in result.output
    data = sheet(variant)
    rows = data["rules"]
    assert isinstance(rows, list) and len(rows) > 90
    assert all(row["source"] for row in rows)


@pytest.mark.parametrize("variant", SEED_VARIANTS)
def test_each_rule_cites_its_seed(variant: str) -> None:
    """Every rule of the four seed presets names the seed sentence (or option) it rests on."""
    data = sheet(variant)
    seed_no = {"canastone": "000", "classic_italian": "00", "brazilian": "003",
               "romanian": "004"}[variant]
    for row in data["rules"]:  # type: ignore[union-attr]
        assert f"seed {seed_no}" in row["source"] or row["source"].startswith("option"), row


def test_rule_option_changes_the_sheet() -> None:
    base = {r["key"]: r for r in sheet("brazilian")["rules"]}  # type: ignore[union-attr]
    real = {r["key"]: r for r in sheet("brazilian", "--rule", "canastra_real=true")["rules"]}  # type: ignore[union-attr]
    assert base["melds.real_canasta"]["value"] is False
    assert real["melds.real_canasta"]["value"] is True
    assert real["melds.real_canasta"]["source"].startswith("option canastra_real=true")
    entry = sheet("classic_italian", "--rule", "cards_13=true")
    rows = {r["key"]: r for r in entry["rules"]}  # type: ignore[union-attr]
    assert rows["deal.cards_dealt"]["value"]["4"] == 13


def test_unknown_option_is_refused_with_the_valid_ones() -> None:
    result = runner.invoke(app, ["rules", "canastone", "--rule", "no_such_rule=1"])
    assert result.exit_code == 2
    for name in preset_options("canastone"):
        assert name in result.output


def test_bad_value_is_refused_with_the_choices() -> None:
    result = runner.invoke(app, ["rules", "brazilian", "--rule", "sujo=maybe"])
    assert result.exit_code == 2
    assert "off, stands, reverts" in " ".join(result.output.split())


def test_unknown_variant_is_refused() -> None:
    result = runner.invoke(app, ["rules", "samba"])
    assert result.exit_code == 2 and "romanian" in result.output


def test_variants_lists_presets_and_options() -> None:
    result = runner.invoke(app, ["variants"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output
    data = json.loads(runner.invoke(app, ["variants", "--json"]).output)
    by_name = {v["variant"]: v for v in data}
    assert by_name["classic_italian"]["extends"] == "canastone"
    assert by_name["brazilian"]["options"]["sujo"]["choices"] == ["off", "stands", "reverts"]
    assert by_name["canastone"]["players"] == [2, 3, 4, 5, 6]
    assert by_name["classic_italian"]["players"] == [2, 3, 4, 6]


def test_the_rule_sheet_and_the_variants_in_italian() -> None:
    """`--lang it`: rule names, values, sections and house-rule descriptions in Italian, from
    the shared catalogues; option names and values stay what --rule takes."""
    result = runner.invoke(app, ["rules", "canastone", "--lang", "it"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Combinazioni e canaste" in text and "Carte in una canasta" in text
    assert "Regole della casa" in text and "clean_opening" in text
    assert "Melds and canastas" not in text
    result = runner.invoke(app, ["variants", "--lang", "it"])
    assert result.exit_code == 0, result.output
    assert "Canasta internazionale" in result.output


#: Alternative readings that had only raw field paths: option -> field.
NAMED_READINGS = {
    "international": {"concealed": "going_out.concealed_means",
                      "concealed_minimum": "going_out.concealed_waives_minimum",
                      "frozen_for_unopened": "pile.frozen_for_unopened_side",
                      "melds_negative_without_canasta":
                          "scoring.melds_count_negative_without_canasta"},
    "brazilian": {"concealed": "going_out.concealed_means",
                  "concealed_minimum": "going_out.concealed_waives_minimum",
                  "frozen_for_unopened": "pile.frozen_for_unopened_side",
                  "melds_negative_without_canasta":
                      "scoring.melds_count_negative_without_canasta"},
    "canastone": {"frozen_for_unopened": "pile.frozen_for_unopened_side",
                  "wild_canasta_kinds": "melds.wild_canasta_kinds",
                  "end_of_stock": "end.must_take_any_discard"},
    "classic_italian": {"concealed": "going_out.concealed_means",
                        "frozen_for_unopened": "pile.frozen_for_unopened_side",
                        "wild_canasta_kinds": "melds.wild_canasta_kinds",
                        "end_of_stock": "end.must_take_any_discard"},
    "romanian": {"concealed": "going_out.concealed_means",
                 "frozen_for_unopened": "pile.frozen_for_unopened_side",
                 "melds_negative_without_canasta":
                     "scoring.melds_count_negative_without_canasta",
                 "red_three_sign": "red_threes.sign"},
}


@pytest.mark.parametrize("variant", sorted(NAMED_READINGS))
def test_every_alternative_reading_is_a_named_option(variant: str) -> None:
    """What "concealed" means (seed 002 "riesce ad aprire e a chiudere in uno
    stesso turno", seed 001 "senza aver precedentemente messo in tavola alcuna carta"), whether
    the pile is frozen against an unopened side (seed 004 "atunci cand echipa nu a etalat"),
    melded points negative without a canasta (seed 004 "i se scad toate punctele etalate")
    and the other readings are named options, each with a one-line description, listed by
    `canasta variants` and `canasta rules`, and each choice changes its field."""
    from canasta import load_preset
    from canasta.core.rules import field_names

    listed = {v["variant"]: v for v in json.loads(
        runner.invoke(app, ["variants", "--json"]).output)}[variant]["options"]
    applied = sheet(variant)["options"]
    for name, field in NAMED_READINGS[variant].items():
        assert name in listed and name in applied, name  # type: ignore[operator]
        assert listed[name]["description"] and "\n" not in listed[name]["description"]
        section, attr = field.split(".")
        values = set()
        for choice in listed[name]["choices"]:
            rules = load_preset(variant, {name: choice})
            values.add(repr(getattr(getattr(rules, section), attr)))
        assert len(values) == len(listed[name]["choices"]) >= 2, (name, values)
        assert field in field_names()


def test_the_rule_sheet_does_not_point_at_files_a_clone_lacks() -> None:
    """It printed "Seed: shared/seeds/004_….txt", a folder a clone does not have (the README
    had the same)."""
    result = runner.invoke(app, ["rules", "romanian"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    assert "shared/seeds" not in result.output
    assert "004_de631c4ee768aa1b.txt (not part of this repository" in " ".join(
        result.output.split())
