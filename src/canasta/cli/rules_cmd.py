"""`canasta rules VARIANT` (the complete rule sheet, each rule with its seed sentence) and
`canasta variants` (the presets and their house rules). No rule of the game lives here: the
sheet is read from the :class:`~canasta.rules.Rules` record, the preset files' ``sources`` and
the options' ``source`` texts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from canasta import i18n
from canasta.cli.options import check_lang
from canasta.core.rules import (
    CANASTA_ONLY,
    PRESETS,
    SECTIONS,
    Rules,
    RulesError,
    field_doc,
    field_names,
    load_preset,
    parse_rule_args,
    preset_info,
    preset_options,
)

#: Each rule's name for people is the catalogue's ``rule.<section.field>`` (canasta.i18n), the
#: section titles ``section.<section>``, and a value in words ``rule.<section.field>.<value>``.

_SEED_QUOTE = re.compile(r'S(\d{3})((?: [a-z]+)*):? ("[^"]+")')
_OUTSIDE = re.compile(r"(pagat|Britannica),? for S(\d{3})(?::\s*([^;)]+))?")
_UNNAMED = re.compile(r"\(([^()]*\b(?:pagat|Britannica)\b[^()]*)\)")


def field_source(doc: str, seed: str) -> str:
    """The source of a field's value for the preset of seed ``seed`` (``"002"``), from the
    field's citation comment ``doc``: only that seed's own quotes (``seed 002 "..."``) and the
    outside sources named for it (``pagat for S002: 500``), never another seed's text; when
    the comment has neither, "not in seed 002" and the engine default."""
    parts = [f"seed {m.group(1)}{m.group(2)} {m.group(3)}" for m in _SEED_QUOTE.finditer(doc)
             if m.group(1) == seed]
    for m in _OUTSIDE.finditer(doc):
        if m.group(2) == seed:
            parts.append(f"{m.group(1)} for seed {seed}" + (f": {m.group(3).strip()}"
                                                           if m.group(3) else ""))
    if not parts:
        outside = [m.group(1).strip() for m in _UNNAMED.finditer(doc)
                   if not _SEED_QUOTE.search(m.group(1)) and " for S" not in m.group(1)]
        note = f"; outside sources: {'; '.join(outside)}" if outside else ""
        return f"not in seed {seed}: engine default{note} (docs/rules.md)"
    return "; ".join(parts)


def _setting(key: str, value: Any, rules: Rules, lang: str = "en") -> str:
    """The value of field ``key`` in words, in ``lang``."""
    if isinstance(value, (bool, str)):
        word = f"rule.{key}.{str(value).lower() if isinstance(value, bool) else value}"
        if i18n.has(word):
            return i18n.t(word, lang)
    if key == "opening.minimums":
        parts = []
        for bound, minimum in value:
            where = (i18n.t("rules.negative", lang) if bound is None
                     else i18n.t("rules.from", lang, bound=bound))
            parts.append(f"{where}: {minimum}")
        return "; ".join(parts)
    if key == "opening.canasta_required_from":
        return (i18n.t("rules.never", lang) if not value
                else i18n.t("rules.canasta_only", lang, value=value, canasta_only=CANASTA_ONLY))
    if key in ("deal.cards_dealt", "turn.draw_count", "deal.packs_by_players",
               "end.target_by_players"):
        if not value:
            return "-"
        return "; ".join(f"{i18n.t('rules.players_n', lang, n=n)}: {v}"
                         for n, v in sorted(value.items()))
    if key == "red_threes.totals":
        return "; ".join(f"{n}: {v}" for n, v in sorted(value.items())) or "-"
    if isinstance(value, bool):
        return i18n.choice_label(str(value).lower(), lang)
    if value is None:
        return i18n.t("rules.the_table", lang)
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "-"
    if isinstance(value, str) and i18n.has(f"choice.{value}"):
        return i18n.choice_label(value, lang)  # a word the house rules' choices translate
    return str(value)


@dataclass(frozen=True)
class SheetRow:
    section: str
    key: str
    rule: str
    setting: str
    value: Any
    source: str


def rule_sheet(rules: Rules, lang: str = "en") -> list[SheetRow]:
    """Every rule of ``rules`` in ``lang`` (canasta.i18n) with its setting and the seed
    sentence it rests on (the preset's ``sources``, the option that set it, or the field's
    own citation; these stay in their own words)."""
    info = preset_info(rules.name)
    seed = str(info["seed"])[:3]
    options = preset_options(rules.name)
    chosen = dict(rules.options)
    by_option: dict[str, str] = {}
    for name, choice in chosen.items():
        opt = options.get(name)
        if opt is not None and choice != opt.default:
            for key in opt.choices.get(choice, {}):
                by_option[key.rsplit(".", 1)[0] if key.count(".") > 1 else key] = (
                    f"option {name}={choice}: {opt.source}")
        elif opt is None:
            by_option[name] = f"set by --rule {name}={choice}"
    names = field_names()
    rows: list[SheetRow] = []
    data = rules.to_dict()
    for section in SECTIONS:
        section_obj = getattr(rules, section)
        for f in fields(section_obj):
            key = f"{section}.{f.name}"
            value = getattr(section_obj, f.name)
            source = (by_option.get(key) or by_option.get(f.name)
                      or info["sources_by_lang"].get(lang, {}).get(key)
                      or info["sources"].get(key)
                      or field_source(field_doc(section, f.name), seed))
            label = (i18n.t(f"rule.{key}", lang) if i18n.has(f"rule.{key}")
                     else f.name.replace("_", " "))
            rows.append(SheetRow(section, key, label, _setting(key, value, rules, lang),
                                 data[section][f.name], source))
    assert all(r.key in names for r in rows)
    return rows


def _option_table(name: str, chosen: dict[str, str] | None = None, lang: str = "en") -> Table:
    table = Table(show_lines=False, expand=True, pad_edge=False)
    table.add_column(i18n.t("rules.col_option", lang), style="bold", no_wrap=True)
    table.add_column(i18n.t("rules.col_choices", lang))
    table.add_column(i18n.t("rules.col_what", lang))
    for opt in preset_options(name).values():
        choices = [opt.default] + [c for c in opt.choices if c != opt.default]
        shown = []
        for c in choices:
            if chosen is not None and chosen.get(opt.name) == c:
                shown.append(f"[reverse]{c}[/reverse]")
            else:
                shown.append(c)
        table.add_row(opt.name, " | ".join(shown),
                      Text.assemble(i18n.option_description(name, opt.name, lang,
                                                            opt.description),
                                    "\n", (opt.sources_by_lang.get(lang, opt.source), "dim")))
    return table


def load_rules_or_exit(variant: str, rule_args: list[str] | None,
                       console: Console | None = None) -> Rules:
    """The rules of ``variant`` with ``--rule name=value`` settings; on an unknown variant,
    option or field, or a bad value, print why with the valid choices and exit with code 2."""
    console = console or Console(stderr=True, highlight=False)
    try:
        return load_preset(variant, parse_rule_args(rule_args))
    except RulesError as exc:
        console.print(Text(f"Error: {exc}", style="bold red"), soft_wrap=True)
        key = variant.strip().lower().replace("-", "_")
        key = {"classic": "classic_italian", "italian": "classic_italian",
               "canastra": "brazilian"}.get(key, key)
        if key in PRESETS:
            console.print(f"Options of {key} (name=value):")
            for opt in preset_options(key).values():
                console.print(f"  {opt.name} = {' | '.join(opt.choices)} "
                              f"(default {opt.default})")
            console.print("Any rule field may also be set as section.field=value; "
                          f"`canasta rules {key}` lists them.")
        else:
            console.print(f"Variants: {', '.join(PRESETS)}")
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    """Add ``rules`` and ``variants`` to ``app``."""

    @app.command("rules")
    def rules_command(
        variant: Annotated[str, typer.Argument(help=f"One of: {', '.join(PRESETS)}.")],
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", help="House rule or field name=value (repeatable).")] = None,
        as_json: Annotated[bool, typer.Option(
            "--json", help="Print the sheet as JSON (rule, setting, value, source).")] = False,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the sheet: " + ", ".join(i18n.languages()) + ".")] = "en",
    ) -> None:
        """Print a variant's complete rule sheet, each rule with its seed."""
        console = Console(highlight=False)
        lang = i18n.resolve_lang(lang)
        rules = load_rules_or_exit(variant, rule)
        rows = rule_sheet(rules, lang)
        info = preset_info(rules.name)
        if as_json:
            typer.echo(json.dumps({
                "variant": rules.name, "title": info["title"], "seed": info["seed"],
                "extends": info["extends"], "options": dict(rules.options),
                "rules": [{"section": r.section, "key": r.key, "rule": r.rule,
                           "setting": r.setting, "value": r.value, "source": r.source}
                          for r in rows],
            }, ensure_ascii=False, indent=2))
            return
        console.print(Text(f"{i18n.variant_name(rules.name, lang)} ({rules.name})",
                           style="bold"))
        console.print(i18n.t("rules.seed", lang, seed=info["seed"])
                      + (i18n.t("rules.extends", lang, extends=info["extends"])
                         if info["extends"] else ""))
        key = f"variant.{rules.name}.description"
        console.print(i18n.t(key, lang) if i18n.has(key) else info["description"])
        cited = False
        for section in SECTIONS:
            table = Table(title=i18n.section_label(section, lang), title_justify="left",
                          expand=True, pad_edge=False)
            table.add_column(i18n.t("rules.col_rule", lang), ratio=3)
            table.add_column(i18n.t("rules.col_setting", lang), ratio=2)
            table.add_column(i18n.t("rules.col_source", lang), ratio=5, style="dim")
            for r in rows:
                if r.section == section:
                    table.add_row(r.rule, r.setting, r.source)
            console.print(table)
            cited = cited or any("variants.md" in r.source for r in rows)
        console.print(Text(i18n.t("rules.house_rules", lang), style="bold"))
        console.print(_option_table(rules.name, dict(rules.options), lang))
        if cited or any("variants.md" in o.source for o in preset_options(rules.name).values()):
            console.print(Text(i18n.t("rules.variants_md", lang), style="dim"))

    @app.command("variants")
    def variants_command(
        as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
        details: Annotated[bool, typer.Option(
            "--details", help="Also list each variant's house rules with their choices.")
        ] = False,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language: " + ", ".join(i18n.languages()) + ".")] = "en",
    ) -> None:
        """List the variants (with --details, their house rules: defaults and choices)."""
        console = Console(highlight=False)
        lang = i18n.resolve_lang(lang)
        if as_json:
            out = []
            for name in PRESETS:
                info = preset_info(name)
                rules = load_preset(name)
                out.append({
                    "variant": name, "title": info["title"], "seed": info["seed"],
                    "extends": info["extends"], "players": list(rules.deal.player_counts),
                    "options": {o.name: {"default": o.default, "choices": list(o.choices),
                                         "description": o.description, "source": o.source}
                                for o in preset_options(name).values()},
                })
            typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
            return
        for name in PRESETS:
            info = preset_info(name)
            rules = load_preset(name)
            players = ", ".join(map(str, rules.deal.player_counts))
            console.print(Text(f"{name}: {i18n.variant_name(name, lang)}", style="bold"))
            console.print(i18n.t("rules.variant_line", lang, seed=info["seed"])
                          + (i18n.t("rules.variant_extends", lang, extends=info["extends"])
                             if info["extends"] else "")
                          + i18n.t("rules.variant_players", lang, players=players,
                                   target=rules.end.target)
                          + "".join(i18n.t("rules.variant_target_by_players", lang,
                                           players=n, target=t)
                                    for n, t in sorted(rules.end.target_by_players.items())))
            if details:
                console.print(_option_table(name, None, lang))
        if not details:
            console.print(Text(i18n.t("rules.variants_more", lang), style="dim"))
        else:  # the house rules' sources cite the project's notes, which are not shipped
            console.print(Text(i18n.t("rules.variants_md", lang), style="dim"))
