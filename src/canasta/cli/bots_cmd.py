"""`canasta bots`: the registered bots, each with its parameters (type, allowed values,
default) and a description from the message catalogues (``bot.<name>``,
``bot.param.<name>.<param>``, and ``bot.param.seed`` for the parameter every bot has).
``--json`` prints the same as data. The registry (:mod:`canasta.bots.registry`) is the only
source of the list; no bot is named here."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from canasta.bots import BotInfo, Param, bot_info, bot_names
from canasta.cli.options import check_lang
from canasta.i18n import has, languages, resolve_lang, t


def bot_description(info: BotInfo, lang: str) -> str:
    """The bot's description in ``lang``: its catalogue text, or the plain text a bot
    registered from outside gave instead of a key."""
    return t(info.description, lang) if has(info.description) else info.description


def param_description(bot: str, param: Param, lang: str) -> str:
    """The catalogue text of ``bot``'s parameter (``bot.param.seed`` for ``seed``); empty for
    a parameter of an outside bot the catalogues do not know."""
    key = "bot.param.seed" if param.name == "seed" else f"bot.param.{bot}.{param.name}"
    return t(key, lang) if has(key) else ""


def default_text(param: Param, lang: str) -> str:
    """A parameter's default for people: the value, or "none" (``bots.no_default``)."""
    if param.default is None or param.default == "":
        return t("bots.no_default", lang)
    return f"{param.default:g}" if isinstance(param.default, float) else str(param.default)


def bots_json(lang: str) -> list[dict[str, Any]]:
    """Every registered bot as data: name, description, parameters (name, type, low, high,
    choices, default, description)."""
    out = []
    for name in bot_names():
        info = bot_info(name)
        out.append({
            "name": name,
            "description": bot_description(info, lang),
            "params": [{"name": p.name, "type": p.kind.__name__, "low": p.low, "high": p.high,
                        "choices": list(p.choices), "default": p.default,
                        "description": param_description(name, p, lang)}
                       for p in info.all_params()],
        })
    return out


def bots_table(lang: str) -> Table:
    """One row per bot (its description), then one per parameter but ``seed``, which the
    caption names once."""
    tab = Table(title=t("bots.title", lang), title_justify="left",
                caption=t("bots.caption", lang) + " " + t("bots.seed_note", lang),
                caption_justify="left")
    tab.add_column(t("bots.col.bot", lang), no_wrap=True)
    for key in ("type", "allowed", "default"):
        tab.add_column(t(f"bots.col.{key}", lang), no_wrap=True)
    tab.add_column(t("bots.col.description", lang), ratio=1)
    for name in bot_names():
        info = bot_info(name)
        # ``seed``, which every bot takes, is said once under the table.
        params = info.params
        tab.add_row(f"[bold]{name}[/]", "", "", "", bot_description(info, lang),
                    end_section=not params)
        for i, p in enumerate(params):
            tab.add_row(f"  {p.name}", p.kind.__name__, p.range_text(), default_text(p, lang),
                        param_description(name, p, lang), end_section=i == len(params) - 1)
    return tab


def register(app: typer.Typer) -> None:
    """Add ``bots`` to ``app``."""

    @app.command("bots")
    def bots_cmd(
        as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the descriptions: " + ", ".join(languages()) + ".")] = "en",
    ) -> None:
        """List the bots and their parameters (name them as name:key=value,...)."""
        code = resolve_lang(lang)
        if as_json:
            print(json.dumps(bots_json(code), indent=1, ensure_ascii=False))
            return
        Console(highlight=False).print(bots_table(code))
