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

SECTION_TITLES = {
    "deal": "Cards and the deal", "turn": "The turn", "pile": "The discard pile",
    "melds": "Melds and canastas", "opening": "The opening (initial meld)",
    "going_out": "Going out", "red_threes": "Red threes", "scoring": "Scoring",
    "end": "The end of the hand and of the match",
}

#: Plain-English name of each rule; the setting column says its value.
LABELS: dict[str, str] = {
    "deal.packs": "Packs of 52 cards",
    "deal.jokers_per_pack": "Jokers per pack (jokers and deuces are wild)",
    "deal.player_counts": "Players",
    "deal.cards_dealt": "Cards dealt to each player, one at a time",
    "deal.packs_by_players": "Packs for some player counts",
    "deal.red_threes_replaced_before_upcard": "Red threes dealt are laid out and replaced",
    "deal.upcard_seeds_pile_by_rank": "Cards put under the upcard by its rank (ace 14)",
    "deal.special_upcard": "A wild card or red three turned up as the upcard",
    "deal.black_three_upcard_special": "A black three turned up is treated the same way",
    "deal.special_upcard_freezes": "A special card turned up freezes the pile",
    "deal.red_three_upcard_freezes": "... a red three turned up too",
    "deal.redeal_after_wild_upcards": "Redeal after this many wild cards turned up",
    "deal.surprise_cards": "Face-down surprise cards under the pile, for the first taker",
    "deal.first_player": "First to play",
    "deal.direction": "Play goes",
    "turn.draw_count": "Cards drawn from the stock",
    "turn.draw_with_pile": "Stock cards also drawn when taking the pile",
    "turn.first_round_no_meld": "No melding and no taking the pile in the first round",
    "pile.unfrozen_naturals": "Naturals from hand that take an unfrozen pile (new meld)",
    "pile.unfrozen_wild_may_substitute": "... one of them may be a wild card",
    "pile.layoff_takes_unfrozen_pile": "An unfrozen pile is taken by laying its top card on "
                                       "an own meld",
    "pile.layoff_take_max_meld_size": "... only onto a meld of at most (cards)",
    "pile.frozen_naturals": "Naturals from hand that take a frozen pile",
    "pile.frozen_requires_canasta": "A frozen pile is taken only to complete a canasta",
    "pile.wild_discard_freezes": "A discarded wild card freezes the pile",
    "pile.black_three_discard_freezes": "A discarded black three freezes the pile",
    "pile.always_frozen": "The pile is always frozen",
    "pile.frozen_for_unopened_side": "The pile is frozen for a side that has not opened",
    "pile.black_three_stops": "A discarded black three stops the next player taking the pile",
    "pile.black_three_stops_going_out": "... and from going out",
    "pile.canasta_rank_discard_stops": "A discard matching the receiver's canasta stops him",
    "pile.take_single_card_pile_to_go_out": "A one-card pile may be taken to go out",
    "pile.opening_take_top_card_only": "Opening with the discard takes only its top card",
    "melds.min_cards": "Cards in a meld, at least",
    "melds.min_naturals": "Natural cards in a meld, at least",
    "melds.max_wilds": "Wild cards in a meld, at most",
    "melds.wild_ratio": "Wild cards against natural cards",
    "melds.wild_melds": "Melds (and canastas) of wild cards only",
    "melds.unfinished_wild_meld_restricts": "While a wild-card canasta is unfinished: no going "
                                            "out, no wild cards elsewhere, none discarded",
    "melds.wilds_on_completed_canasta": "Wild cards may go on a completed canasta",
    "melds.black_three_meld_going_out": "Black threes (3 or 4) may be melded to go out",
    "melds.black_three_meld_wilds": "... with wild cards in that meld",
    "melds.black_threes_out_of_play": "Black threes put out of play as a group of",
    "melds.canasta_size": "Cards in a canasta",
    "melds.real_canasta": "A seven-card run of one suit is a canasta (Canastra Real)",
    "opening.minimums": "Opening minimum by the side's score",
    "opening.naturals_only_at": "Natural cards only in an opening of",
    "opening.capture_cards_count": "The top card and the cards taking it count toward it",
    "opening.canasta_always_opens": "A canasta opens whatever the minimum",
    "opening.negative_minimum": "Minimum with a negative score",
    "opening.canasta_required_from": "Only a canasta opens from the score",
    "opening.joker_meld_blocks_mattoni": "A joker melded stops the opponents for a round from "
                                         "opening with jokers while taking the pile",
    "opening.retract_penalty": "An opening short of the minimum is taken back; the minimum "
                               "rises by",
    "going_out.canastas_required": "Canastas needed to go out",
    "going_out.canastas_required_by_players": "... by player count, where it differs",
    "going_out.natural_and_mixed_required": "... a natural and a mixed one",
    "going_out.natural_canastas_required": "Natural canastas needed to go out",
    "going_out.discard_required": "Going out needs a final discard",
    "going_out.final_discard_may_be_wild": "The final discard may be a wild card",
    "going_out.final_discard_may_be_black_three": "The final discard may be a black three",
    "going_out.bonus": "Going-out bonus",
    "going_out.concealed_bonus": "Concealed going-out bonus (replacing it)",
    "going_out.concealed_means": "Concealed means",
    "going_out.concealed_waives_minimum": "A concealed going out needs no opening minimum",
    "going_out.ask_partner": "A player may ask the partner \"may I go out?\" (binding)",
    "going_out.ask_partner_per_hand": "Questions per player and hand",
    "red_threes.value": "Each red three",
    "red_threes.totals": "Red threes held together",
    "red_threes.sign": "Red threes count against the side",
    "red_threes.in_hand_penalty": "Penalty per red three left in hand",
    "red_threes.last_stock_red_three_ends_hand": "A red three as the last stock card ends "
                                                 "the hand",
    "red_threes.meld_after_last_red_three": "... its drawer may still meld",
    "red_threes.may_keep_as_stop": "Red threes may be kept as stop cards",
    "scoring.natural_canasta": "Natural (clean) canasta",
    "scoring.mixed_canasta": "Mixed (dirty) canasta",
    "scoring.natural_aces_canasta": "Natural canasta of aces",
    "scoring.mixed_aces_canasta": "Mixed canasta of aces",
    "scoring.wild_canasta_mixed": "Canasta of jokers and deuces",
    "scoring.wild_canasta_deuces": "Canasta of seven deuces",
    "scoring.wild_canasta_six_jokers": "Canasta of six jokers and a deuce",
    "scoring.five_canastas": "Five canastas, natural and mixed among them",
    "scoring.five_natural_canastas": "Five natural canastas and a mixed one",
    "scoring.five_canastas_mode": "The two five-canasta bonuses",
    "scoring.unopened_hand_multiplier": "Hand cards of a side that never opened count times",
    "scoring.melds_count_negative_without_canasta": "A side without a canasta loses its melded "
                                                    "cards",
    "scoring.black_three_in_hand": "Penalty per black three left in hand",
    "scoring.all_black_threes_in_hand": "Penalty for all four black threes in a side's hands",
    "scoring.real_canasta": "Canastra Real",
    "end.target": "Points to win",
    "end.target_by_players": "Points to win for some player counts",
    "end.must_go_out_to_win": "The side over the target must go out to win",
    "end.exact_target": "The target must be reached exactly",
    "end.overshoot": "A hand carrying a side past the exact target",
    "end.must_take_matching_discard": "Stock gone: taking a discard that fits a meld is "
                                      "compulsory",
    "going_out.ask_yes_unable_penalty": "Told \"yes\", the player did not go out",
    "melds.wild_canasta_kinds": "A wild canasta counts as pure (deuces) or impure (a joker)",
    "end.must_take_any_discard": "Stock gone: the hand ends only when the discard cannot be "
                                 "taken",
}

_WORDS: dict[str, dict[Any, str]] = {
    "deal.special_upcard": {"cover": "is covered by the next card and stays in the pile",
                            "bury_in_stock": "is buried back in the stock"},
    "deal.red_threes_replaced_before_upcard": {True: "before the upcard is turned",
                                               False: "after the pile is formed"},
    "deal.first_player": {"next": "the player after the dealer",
                          "previous": "the player before the dealer"},
    "melds.wild_ratio": {"any": "any number within the limits",
                         "le": "never more wild cards than naturals",
                         "lt": "always fewer wild cards than naturals"},
    "going_out.concealed_means": {
        "side_opens_this_turn": "the side opens and goes out in one turn",
        "player_first_meld": "the player had put no card down before"},
    "red_threes.sign": {
        "no_meld": "when the side melded nothing",
        "canasta_matrix": "by canastas: plus with natural and mixed, 0 with natural only, minus "
                          "with mixed only, twice minus with none",
        "no_canasta": "when the side has no canasta", "never": "never"},
    "scoring.five_canastas_mode": {"tiered": "the 2000 replaces the 1000",
                                   "cumulative": "both are scored"},
    "end.overshoot": {"stands": "stands (wait for an exact hit)",
                      "reverts": "is cancelled (back to the score before it)"},
}

_CITE = re.compile(r"\s\(?(S00\d|seed \d|pagat|Britannica|Tranca)")


def _setting(key: str, value: Any, rules: Rules) -> str:
    """The value of field ``key`` in words."""
    words = _WORDS.get(key)
    if words is not None and value in words:
        return words[value]
    if key == "opening.minimums":
        parts = []
        for bound, minimum in value:
            where = "negative" if bound is None else f"from {bound}"
            parts.append(f"{where}: {minimum}")
        return "; ".join(parts)
    if key == "opening.canasta_required_from":
        return "never" if not value else f"{value} (the minimum then reads {CANASTA_ONLY})"
    if key in ("deal.cards_dealt", "turn.draw_count", "deal.packs_by_players",
               "end.target_by_players"):
        if not value:
            return "-"
        return "; ".join(f"{n} players: {v}" for n, v in sorted(value.items()))
    if key == "red_threes.totals":
        return "; ".join(f"{n}: {v}" for n, v in sorted(value.items())) or "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "- (the table)"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "-"
    return str(value)


@dataclass(frozen=True)
class SheetRow:
    section: str
    key: str
    rule: str
    setting: str
    value: Any
    source: str


def rule_sheet(rules: Rules) -> list[SheetRow]:
    """Every rule of ``rules`` in English with its setting and the seed sentence it rests on
    (the preset's ``sources``, the option that set it, or the field's own citation)."""
    info = preset_info(rules.name)
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
            doc = field_doc(section, f.name)
            m = _CITE.search(doc)
            source = (by_option.get(key) or by_option.get(f.name)
                      or info["sources"].get(key)
                      or (doc[m.start():].strip(" ()") if m else "engine default"))
            rows.append(SheetRow(section, key, LABELS.get(key, f.name.replace("_", " ")),
                                 _setting(key, value, rules), data[section][f.name], source))
    assert all(r.key in names for r in rows)
    return rows


def _option_table(name: str, chosen: dict[str, str] | None = None) -> Table:
    table = Table(show_lines=False, expand=True, pad_edge=False)
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("choices (default first)")
    table.add_column("what it does, and its seed sentence")
    for opt in preset_options(name).values():
        choices = [opt.default] + [c for c in opt.choices if c != opt.default]
        shown = []
        for c in choices:
            if chosen is not None and chosen.get(opt.name) == c:
                shown.append(f"[reverse]{c}[/reverse]")
            else:
                shown.append(c)
        table.add_row(opt.name, " | ".join(shown),
                      Text.assemble(opt.description, "\n", (opt.source, "dim")))
    return table


def load_rules_or_exit(variant: str, rule_args: list[str] | None,
                       console: Console | None = None) -> Rules:
    """The rules of ``variant`` with ``--rule name=value`` settings; on an unknown variant,
    option or field, or a bad value, print why with the valid choices and exit with code 2."""
    console = console or Console(stderr=True, highlight=False)
    try:
        return load_preset(variant, parse_rule_args(rule_args))
    except RulesError as exc:
        console.print(Text(f"Error: {exc}", style="bold red"))
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
    ) -> None:
        """Print a variant's complete rule sheet, each rule with its seed."""
        console = Console(highlight=False)
        rules = load_rules_or_exit(variant, rule)
        rows = rule_sheet(rules)
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
        console.print(Text(f"{info['title']} ({rules.name})", style="bold"))
        console.print(f"Seed: shared/seeds/{info['seed']}"
                      + (f"; written as differences from {info['extends']}"
                         if info["extends"] else ""))
        console.print(info["description"])
        for section in SECTIONS:
            table = Table(title=SECTION_TITLES[section], title_justify="left", expand=True,
                          pad_edge=False)
            table.add_column("rule", ratio=3)
            table.add_column("setting", ratio=2)
            table.add_column("source", ratio=5, style="dim")
            for r in rows:
                if r.section == section:
                    table.add_row(r.rule, r.setting, r.source)
            console.print(table)
        console.print(Text("House rules (set with --rule name=value)", style="bold"))
        console.print(_option_table(rules.name, dict(rules.options)))

    @app.command("variants")
    def variants_command(
        as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
    ) -> None:
        """List the variants and their house rules (defaults and choices)."""
        console = Console(highlight=False)
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
            console.print(Text(f"{name}: {info['title']}", style="bold"))
            console.print(f"  seed {info['seed']}"
                          + (f", extends {info['extends']}" if info["extends"] else "")
                          + f"; players {players}; target {rules.end.target}")
            console.print(_option_table(name))
