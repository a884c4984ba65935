"""`canasta bots`: every registered bot with its parameters and the
catalogues' descriptions, in every language; bot specs accepted by every front end that
names bots."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from canasta.bots import BOTS, bot_info, bot_names, split_specs
from canasta.cli import _register as register_commands
from canasta.cli import app
from canasta.cli.bots_cmd import bots_json
from canasta.i18n import catalogue, languages
from canasta.sim.simulate import parse_bots

register_commands()
runner = CliRunner()


def test_the_list_shows_every_bot_with_its_parameters() -> None:
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for name in bot_names():
        assert name in result.output
        for p in bot_info(name).params:
            assert p.name in result.output
    assert "Every bot also takes seed=N" in result.output
    # expert's time: a float from 0.001 to 3600, no default (1 s when no iterations given).
    assert "0.001..3600" in result.output
    assert "Random: any legal move" in result.output


def test_json_gives_types_bounds_defaults_and_descriptions() -> None:
    result = runner.invoke(app, ["bots", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [b["name"] for b in data] == bot_names()
    easy = next(b for b in data if b["name"] == "easy")
    careless = next(p for p in easy["params"] if p["name"] == "careless")
    assert careless == {"name": "careless", "type": "float", "low": 0.0, "high": 1.0,
                        "choices": [], "default": 0.8,
                        "description": "chance per decision of a careless discard"}
    assert all(b["description"] and all(p["description"] for p in b["params"]) for b in data)


@pytest.mark.parametrize("lang", languages())
def test_every_bot_and_parameter_has_a_text_in_every_catalogue(lang: str) -> None:
    texts = catalogue(lang)
    for name in BOTS:
        info = bot_info(name)
        assert info.description in texts, (lang, info.description)
        for p in info.params:
            assert f"bot.param.{name}.{p.name}" in texts, (lang, name, p.name)
    assert "bot.param.seed" in texts
    assert all(b["description"] not in ("", None) for b in bots_json(lang))


def test_the_list_speaks_italian() -> None:
    result = runner.invoke(app, ["bots", "--lang", "it"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Casuale" in result.output and "Predefinito" in result.output


def test_one_splitter_for_every_bot_list() -> None:
    assert split_specs("expert:time=0.5,width=4,hard:seed=3,greedy") == [
        "expert:time=0.5,width=4", "hard:seed=3", "greedy"]
    # A parameter after a bare name starts that bot's parameters.
    assert split_specs("greedy,seed=3,random") == ["greedy:seed=3", "random"]
    with pytest.raises(ValueError, match="no bot comes before it"):
        split_specs("seed=3,greedy")
    assert parse_bots("expert:iterations=1,width=2,greedy", 2) == [
        "expert:iterations=1,width=2", "greedy"]


def test_simulate_takes_bot_specs() -> None:
    result = runner.invoke(app, ["simulate", "-n", "1", "--players", "2", "--seed", "3",
                                 "--bots", "easy:careless=0.9,miss=0.5,hard:seed=4", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["easy:careless=0.9,miss=0.5", "hard:seed=4"]
    bad = runner.invoke(app, ["simulate", "-n", "1", "--bots", "easy:careless=2"])
    assert bad.exit_code == 2 and "out of range" in bad.output


@pytest.mark.parametrize("lang", languages())
def test_the_web_lobby_can_name_every_level(lang: str) -> None:
    """The lobby labels each bot of the registry with ``ui.level_<name>``."""
    texts = catalogue(lang)
    assert all(f"ui.level_{name}" in texts for name in BOTS)
