"""Every rule id the engine refuses with, in every preset: the refusal is triggered in a position
laid out by hand (``tests/tablekit.py``), and what a person is told quotes that preset's own
seed text (or names the preset it inherits the sentence from: classic Italian, seed 001, is
written as Canastone plus its differences), never another preset's; and every number in the
message is a number in force (the rules as loaded, the side's own minimum), never a stand-in
such as the "1000000" of a side that opens only with a canasta.

A rule that a preset does not use is switched on by its field (any field may be set:
``--rule section.field=value``), so that each preset's quote for it is checked too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from canasta import (
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
    load_preset,
    parse_cards,
)
from canasta.core.actions import Action
from canasta.core.cards import WILD_RANK
from canasta.core.data import Phase
from canasta.core.legality import IllegalActionError
from canasta.core.melds import SEQUENCE_KEY
from canasta.core.rules import PRESETS, Rules, preset_info
from canasta.core.state import State
from canasta.i18n import t
from canasta.i18n.refusals import refusal_parts, refusal_text
from tablekit import table
from test_i18n import raised_rule_ids

PURE = "Ks Kh Kd Kc Ks Kh Kd"
IMPURE = "Qs Qh Qd Qc Qs Qh JK"
BOTH = [PURE, IMPURE]


@dataclass
class Case:
    """A refused move: ``state`` (seat 0 to act) and ``action``, the rules it was laid out
    under, and the numbers its message may show."""

    rules: Rules
    state: State
    action: Action
    numbers: tuple[int, ...] = ()


def c(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def rules_of(variant: str, **fields: Any) -> Rules:
    return load_preset(variant, {k.replace("__", "."): v for k, v in fields.items()})


def play(s: State) -> State:
    s.phase = Phase.PLAY
    return s


def _cards(v: str) -> Case:
    r = rules_of(v)
    return Case(r, play(table(r, "Ah Ad Jc")), Discard(c("Qs")[0]))


def _end_of_stock(v: str) -> Case:
    r = rules_of(v)
    return Case(r, table(r, "Ah Ad Jc", melds={0: [PURE]}, pile="Js", stock=0), Draw())


def _must_take_any(v: str) -> Case:
    r = rules_of(v, end__must_take_any_discard=True, pile__always_frozen=False,
                 pile__frozen_requires_canasta=False, pile__unfrozen_naturals=2)
    return Case(r, table(r, "Jh Jd As", melds={0: [PURE]}, pile="Ac Jc", stock=0), EndHand())


def _must_take_matching(v: str) -> Case:
    r = rules_of(v, end__must_take_any_discard=False, end__must_take_matching_discard=True,
                 pile__layoff_takes_unfrozen_pile=True, pile__layoff_take_max_meld_size=0,
                 pile__always_frozen=False)
    s = table(r, "Ah Ad Jc", melds={0: [PURE, "Qs Qh Qd"]}, pile="Ac Qc", stock=0)
    return Case(r, s, EndHand())


def _going_out(v: str) -> Case:
    r = rules_of(v, going_out__discard_required=True, turn__draw_with_pile=0,
                 pile__take_single_card_pile_to_go_out=True, pile__unfrozen_naturals=2,
                 pile__always_frozen=False)
    return Case(r, table(r, "Ah Ad", melds={0: BOTH}, pile="Ac"), TakePile(c("Ah Ad")))


def _ask_partner(v: str) -> Case:
    r = rules_of(v, going_out__ask_partner=False)
    return Case(r, play(table(r, "Ah Ad Jc", melds={0: [PURE]})), AskPartner())


def _ask_per_hand(v: str) -> Case:
    r = rules_of(v, going_out__ask_partner=True, going_out__ask_partner_per_hand=2)
    s = play(table(r, "Ah Ad Jc", melds={0: [PURE]}))
    s.asks[0] = 2
    return Case(r, s, AskPartner(), (2,))


def _canastas_required(v: str) -> Case:
    r = rules_of(v, going_out__canastas_required=2, going_out__canastas_required_by_players={})
    return Case(r, play(table(r, "Jh", melds={0: [PURE]})), Discard(c("Jh")[0]), (2,))


def _discard_required(v: str) -> Case:
    r = rules_of(v, going_out__discard_required=True)
    return Case(r, play(table(r, "Ah Ad As", melds={0: BOTH})), Meld(c("Ah Ad As")))


def _final_black_three(v: str) -> Case:
    r = rules_of(v, going_out__final_discard_may_be_black_three=False)
    return Case(r, play(table(r, "3s", melds={0: BOTH})), Discard(c("3s")[0]))


def _final_wild(v: str) -> Case:
    r = rules_of(v, going_out__final_discard_may_be_wild=False)
    return Case(r, play(table(r, "2c", melds={0: BOTH})), Discard(c("2c")[0]))


def _natural_and_mixed(v: str) -> Case:
    r = rules_of(v, going_out__natural_and_mixed_required=True, going_out__canastas_required=1,
                 going_out__canastas_required_by_players={})
    return Case(r, play(table(r, "Jh", melds={0: [PURE]})), Discard(c("Jh")[0]))


def _natural_canastas(v: str) -> Case:
    r = rules_of(v, going_out__natural_canastas_required=2, going_out__canastas_required=1,
                 going_out__canastas_required_by_players={},
                 going_out__natural_and_mixed_required=False)
    return Case(r, play(table(r, "Jh", melds={0: BOTH})), Discard(c("Jh")[0]), (2,))


def _hand_over(v: str) -> Case:
    r = rules_of(v)
    s = table(r, "Ah Ad Jc")
    s.phase = Phase.OVER
    return Case(r, s, Draw())


def _melds(v: str) -> Case:
    r = rules_of(v, melds__real_canasta=False)
    return Case(r, play(table(r, "Ah Jd Qs", melds={0: [PURE]})), Meld(c("Ah Jd Qs")))


def _black_three_meld(v: str) -> Case:
    r = rules_of(v, melds__black_three_meld_going_out=False, melds__black_threes_out_of_play=0)
    s = play(table(r, "3s 3c 3s Ah", melds={0: [PURE]}))
    return Case(r, s, Meld(c("3s 3c 3s")))


def _black_three_wilds(v: str) -> Case:
    r = rules_of(v, melds__black_three_meld_going_out=True, melds__black_three_meld_wilds=True,
                 melds__black_threes_out_of_play=0)
    s = play(table(r, "3s 3c 3s 3c JK 2h 2d", melds={0: BOTH}))
    return Case(r, s, Meld(c("3s 3c 3s 3c JK 2h 2d")))


def _max_wilds(v: str) -> Case:
    r = rules_of(v, melds__max_wilds=2, melds__wild_ratio="any", melds__min_naturals=2,
                 melds__unfinished_wild_meld_restricts=False)
    s = play(table(r, "As Ah JK 2h 2d Jc", melds={0: [PURE]}))
    return Case(r, s, Meld(c("As Ah JK 2h 2d")), (2,))


def _min_cards(v: str) -> Case:
    r = rules_of(v, melds__min_cards=4)
    return Case(r, play(table(r, "As Ah Ad Jc", melds={0: [PURE]})), Meld(c("As Ah Ad")), (4,))


def _min_naturals(v: str) -> Case:
    r = rules_of(v, melds__min_naturals=3, melds__max_wilds=3, melds__wild_ratio="any",
                 melds__unfinished_wild_meld_restricts=False)
    s = play(table(r, "As Ah JK 2h Jc", melds={0: [PURE]}))
    return Case(r, s, Meld(c("As Ah JK 2h")), (3,))


def _real_canasta(v: str) -> Case:
    r = rules_of(v, melds__real_canasta=True)
    s = play(table(r, "7c Jh", melds={0: [PURE]}))
    s.melds[0][SEQUENCE_KEY] = list(c("Ac Kc Qc Jc 10c 9c 8c"))
    return Case(r, s, LayOff(SEQUENCE_KEY, c("7c")), (r.melds.canasta_size,))


def _unfinished_wild(v: str) -> Case:
    r = rules_of(v, melds__wild_melds=True, melds__unfinished_wild_meld_restricts=True)
    s = play(table(r, "2c Ah Jd", melds={0: [PURE]}))
    s.melds[0][WILD_RANK] = list(c("JK 2h 2d"))
    return Case(r, s, Discard(c("2c")[0]))


def _wild_melds(v: str) -> Case:
    r = rules_of(v, melds__wild_melds=False, opening__wild_meld_opens=False)
    s = play(table(r, "JK 2h 2d Jc", melds={0: [PURE]}))
    return Case(r, s, Meld(c("JK 2h 2d")), (r.melds.canasta_size,))


def _wild_ratio(v: str) -> Case:
    r = rules_of(v, melds__wild_ratio="lt", melds__max_wilds=3, melds__min_naturals=2,
                 melds__unfinished_wild_meld_restricts=False)
    s = play(table(r, "As Ah JK 2h Jc", melds={0: [PURE]}))
    return Case(r, s, Meld(c("As Ah JK 2h")))


def _wilds_on_canasta(v: str) -> Case:
    r = rules_of(v, melds__wilds_on_completed_canasta=False, melds__max_wilds=3,
                 melds__unfinished_wild_meld_restricts=False)
    s = play(table(r, "2c Ah Jd", melds={0: [PURE]}))
    return Case(r, s, LayOff(13, c("2c")))


def _one_meld_per_rank(v: str) -> Case:
    r = rules_of(v)
    s = play(table(r, "Qc Qs Qh Jd", melds={0: [PURE, "Qs Qh Qd"]}))
    return Case(r, s, Meld(c("Qc Qs Qh")))


def _mattoni(v: str) -> Case:
    r = rules_of(v, opening__joker_meld_blocks_mattoni=True, melds__wild_melds=True,
                 opening__naturals_only_at=[])
    s = play(table(r, "JK JK 2h Ah Ad As"))
    s.took_pile = True
    s.joker_turn[1] = s.turn - 1
    return Case(r, s, Meld(c("JK JK 2h")))


def _opening_minimums(v: str) -> Case:
    r = rules_of(v)
    s = play(table(r, "Ah Ad Jc", scores=[3000, 0]))
    s.provisional, s.opening_points = True, 30
    return Case(r, s, Discard(c("Jc")[0]), (30, s.opening_minimum(0)))


def _opening_canasta_only(v: str) -> Case:
    r = rules_of(v, opening__canasta_required_from=5000, opening__canasta_always_opens=True)
    s = play(table(r, "Ah Ad Jc", scores=[6000, 0]))
    s.provisional, s.opening_points = True, 30
    return Case(r, s, Discard(c("Jc")[0]), (30,))


def _naturals_only(v: str) -> Case:
    r = rules_of(v, opening__naturals_only_at=[50], opening__negative_minimum=None,
                 going_out__concealed_waives_minimum=False, opening__canasta_required_from=0)
    s = play(table(r, "As Ah JK Jc"))
    return Case(r, s, Meld(c("As Ah JK")), (50,))


def _retract(v: str) -> Case:
    r = rules_of(v)
    return Case(r, play(table(r, "Ah Ad Jc", melds={0: [PURE]})), Retract())


def _pile(v: str) -> Case:
    r = rules_of(v)
    return Case(r, table(r, "Ah Ad Jh", melds={0: [PURE]}, pile="Jc"), TakePile(c("Ah Ad")))


def _black_three_stops(v: str) -> Case:
    r = rules_of(v, pile__black_three_stops=True)
    return Case(r, table(r, "Ah Ad Jh", melds={0: [PURE]}, pile="Jc 3s"), TakePile(()))


def _black_three_stops_going_out(v: str) -> Case:
    r = rules_of(v, pile__black_three_stops_going_out=True, pile__black_three_stops=True)
    s = play(table(r, "Jh", melds={0: BOTH}, pile="Jc 3s"))
    s.stopped_turn = True
    return Case(r, s, Discard(c("Jh")[0]))


def _canasta_rank_stops(v: str) -> Case:
    r = rules_of(v, pile__canasta_rank_discard_stops=True)
    s = table(r, "Ah Ad Jh", melds={0: [PURE]}, pile="Kc")
    s.stopped_turn = True
    return Case(r, s, TakePile(()))


def _frozen_naturals(v: str) -> Case:
    r = rules_of(v, pile__frozen_naturals=3, pile__frozen_requires_canasta=False,
                 pile__unfrozen_naturals=2, pile__opening_take_top_card_only=False)
    s = table(r, "Jh Jd Ah", melds={0: [PURE]}, pile="Jc", frozen=True)
    return Case(r, s, TakePile(c("Jh Jd")), (3,))


def _frozen_for_unopened(v: str) -> Case:
    r = rules_of(v, pile__frozen_naturals=3, pile__frozen_requires_canasta=False,
                 pile__frozen_for_unopened_side=True, pile__unfrozen_naturals=2,
                 pile__opening_take_top_card_only=False, pile__always_frozen=False)
    s = table(r, "Jh Jd Ah Ad As", pile="Jc")
    return Case(r, s, TakePile(c("Jh Jd")), (3,))


def _frozen_always_opened(v: str) -> Case:
    """An opened side told the pile is frozen, not "frozen for a side that has not opened"
    (the Brazilian ``frozen_pile=always`` house rule)."""
    r = rules_of(v, pile__frozen_naturals=3, pile__frozen_requires_canasta=False,
                 pile__always_frozen=True, pile__unfrozen_naturals=2)
    s = table(r, "Jh Jd Ah", melds={0: [PURE]}, pile="Jc")
    return Case(r, s, TakePile(c("Jh Jd")), (3,))


def _frozen_requires_canasta(v: str) -> Case:
    r = rules_of(v, pile__frozen_requires_canasta=True, pile__unfrozen_naturals=2)
    s = table(r, "Jh Jd Ah", melds={0: [PURE]}, pile="Jc", frozen=True)
    return Case(r, s, TakePile(c("Jh Jd")), (r.melds.canasta_size,))


def _layoff_take_max(v: str) -> Case:
    r = rules_of(v, pile__layoff_takes_unfrozen_pile=True, pile__layoff_take_max_meld_size=6,
                 pile__always_frozen=False)
    return Case(r, table(r, "Ah Ad Jh", melds={0: [PURE]}, pile="Kc"), TakePile(()))


def _top_card_only(v: str) -> Case:
    r = rules_of(v, pile__opening_take_top_card_only=True, pile__unfrozen_naturals=2,
                 pile__unfrozen_wild_may_substitute=False)
    return Case(r, table(r, "Jh Ah Ad As", pile="Jc"), TakePile(c("Jh")), (2,))


def _take_to_go_out(v: str) -> Case:
    r = rules_of(v, pile__take_single_card_pile_to_go_out=False, pile__unfrozen_naturals=2,
                 pile__always_frozen=False, turn__draw_with_pile=0)
    return Case(r, table(r, "Jh Jd", melds={0: BOTH}, pile="Jc"), TakePile(c("Jh Jd")))


def _unfrozen_naturals(v: str) -> Case:
    r = rules_of(v, pile__unfrozen_naturals=2, pile__unfrozen_wild_may_substitute=False,
                 pile__always_frozen=False, pile__frozen_for_unopened_side=False)
    s = table(r, "Jh JK Ah", melds={0: [PURE]}, pile="Jc")
    return Case(r, s, TakePile(c("Jh JK")), (2,))


def _red_threes(v: str) -> Case:
    r = rules_of(v, red_threes__may_keep_as_stop=False)
    return Case(r, play(table(r, "3h 3d Jh", melds={0: [PURE]})), Meld(c("3h 3d")))


def _last_red_three(v: str) -> Case:
    r = rules_of(v)
    s = play(table(r, "Ah Ad Jh", melds={0: [PURE]}, stock=0))
    s.no_discard = True
    return Case(r, s, Discard(c("Jh")[0]))


def _keep_as_stop(v: str) -> Case:
    r = rules_of(v, red_threes__may_keep_as_stop=True)
    return Case(r, play(table(r, "3h", melds={0: [PURE]}, stock=0)), Meld(c("3h")))


def _retract_after_take(v: str) -> Case:
    r = rules_of(v)
    s = play(table(r, "Ah Ad As Jh Jd Js Qh", scores=[0, 0]))
    s.provisional, s.took_pile, s.opening_points = True, True, 0
    return Case(r, s, Retract())


def _turn_order(v: str) -> Case:
    r = rules_of(v)
    return Case(r, table(r, "Ah Ad Jh", melds={0: [PURE]}), Discard(c("Jh")[0]))


def _first_round(v: str) -> Case:
    r = rules_of(v, turn__first_round_no_meld=True)
    return Case(r, play(table(r, "Ah Ad As Jh", turn=0)), Meld(c("Ah Ad As")))


#: Rule id -> the positions that refuse with it (a rule id with situations worth telling
#: apart has more than one).
SCENARIOS: dict[str, list[Callable[[str], Case]]] = {
    "cards": [_cards],
    "end of stock": [_end_of_stock],
    "end.must_take_any_discard": [_must_take_any],
    "end.must_take_matching_discard": [_must_take_matching],
    "going out": [_going_out],
    "going_out.ask_partner": [_ask_partner],
    "going_out.ask_partner_per_hand": [_ask_per_hand],
    "going_out.canastas_required": [_canastas_required],
    "going_out.discard_required": [_discard_required],
    "going_out.final_discard_may_be_black_three": [_final_black_three],
    "going_out.final_discard_may_be_wild": [_final_wild],
    "going_out.natural_and_mixed_required": [_natural_and_mixed],
    "going_out.natural_canastas_required": [_natural_canastas],
    "hand over": [_hand_over],
    "melds": [_melds],
    "melds.black_three_meld_going_out": [_black_three_meld],
    "melds.black_three_meld_wilds": [_black_three_wilds],
    "melds.max_wilds": [_max_wilds],
    "melds.min_cards": [_min_cards],
    "melds.min_naturals": [_min_naturals],
    "melds.real_canasta": [_real_canasta],
    "melds.unfinished_wild_meld_restricts": [_unfinished_wild],
    "melds.wild_melds": [_wild_melds],
    "melds.wild_ratio": [_wild_ratio],
    "melds.wilds_on_completed_canasta": [_wilds_on_canasta],
    "one meld per rank": [_one_meld_per_rank],
    "opening.joker_meld_blocks_mattoni": [_mattoni],
    "opening.minimums": [_opening_minimums, _opening_canasta_only],
    "opening.naturals_only_at": [_naturals_only],
    "opening.retract_penalty": [_retract],
    "pile": [_pile],
    "pile.black_three_stops": [_black_three_stops],
    "pile.black_three_stops_going_out": [_black_three_stops_going_out],
    "pile.canasta_rank_discard_stops": [_canasta_rank_stops],
    "pile.frozen_naturals": [_frozen_naturals, _frozen_for_unopened, _frozen_always_opened],
    "pile.frozen_requires_canasta": [_frozen_requires_canasta],
    "pile.layoff_take_max_meld_size": [_layoff_take_max],
    "pile.opening_take_top_card_only": [_top_card_only],
    "pile.take_single_card_pile_to_go_out": [_take_to_go_out],
    "pile.unfrozen_naturals": [_unfrozen_naturals],
    "red threes": [_red_threes],
    "red_threes.last_stock_red_three_ends_hand": [_last_red_three],
    "red_threes.may_keep_as_stop": [_keep_as_stop],
    "retract after a take": [_retract_after_take],
    "turn order": [_turn_order],
    "turn.first_round_no_meld": [_first_round],
}

CASES = [(rule, make, variant) for rule, makes in SCENARIOS.items() for make in makes
         for variant in PRESETS]
NUMBER = re.compile(r"\d+")


def test_every_rule_id_the_engine_refuses_with_is_walked() -> None:
    assert sorted(SCENARIOS) == sorted(raised_rule_ids())


def _own_seed(variant: str) -> str:
    return str(preset_info(variant)["seed"])[:3]


@pytest.mark.parametrize(("rule", "make", "variant"), CASES,
                         ids=[f"{v}-{m.__name__.strip('_')}" for _, m, v in CASES])
def test_each_refusal_quotes_its_own_seed_with_the_numbers_in_force(
        rule: str, make: Callable[[str], Case], variant: str) -> None:
    case = make(variant)
    with pytest.raises(IllegalActionError) as info:
        case.state.verify(case.action)
    err = info.value
    assert err.rule == rule, (err.rule, str(err))
    parts = refusal_parts(err, case.rules, case.state)
    text = refusal_text(err, case.rules, "en", case.state)
    if parts["seed"] is not None:
        if parts["seed"] != _own_seed(variant):
            parent = parts["inherited"]
            assert parent is not None, (variant, rule, parts["seed"])
            assert _own_seed(parent) == parts["seed"]
            assert preset_info(variant)["extends"] == parent
            assert t(f"variant.{parent}", "en") in text and "extends" in text
        else:
            assert parts["inherited"] is None
        assert f"seed {parts['seed']}: " in text or "extends" in text
    reason = t(parts["key"], "en", **parts["values"])
    allowed = set(case.numbers)
    assert {int(n) for n in NUMBER.findall(reason)} <= allowed, (reason, allowed)
    assert {int(n) for n in NUMBER.findall(err.reason)} <= allowed, (err.reason, allowed)
    # No engine reason names a seed: each preset's own sentence comes from quotes.json.
    assert "seed 0" not in err.reason


def test_a_side_that_opens_only_with_a_canasta_is_told_so() -> None:
    """Seed 004: "canasta – peste 5000 de puncte, dar se agreaza intre parteneri daca se
    aplica" -- the message names the canasta, not "120 of the 1000000 points"."""
    case = _opening_canasta_only("romanian")
    err = pytest.raises(IllegalActionError, case.state.verify, case.action).value
    text = refusal_text(err, case.rules, "en", case.state)
    assert "only with a canasta" in text and "1000000" not in text + err.reason


def test_an_opened_side_under_an_always_frozen_pile_is_not_told_it_has_not_opened() -> None:
    """Seed 003: "alcuni gruppi trattano tutti gli scarti come congelati" (option
    ``frozen_pile=always``): the pile is frozen for everyone."""
    r = load_preset("brazilian", {"frozen_pile": "always"})
    s = table(r, "Jh JK Ah", melds={0: [PURE]}, pile="Jc")
    err = pytest.raises(IllegalActionError, s.verify, TakePile(c("Jh JK"))).value
    assert "not opened" not in err.reason + refusal_text(err, r, "en", s)
    s = table(load_preset("brazilian", {"frozen_for_unopened": "true"}), "Jh JK Ah", pile="Jc")
    err = pytest.raises(IllegalActionError, s.verify, TakePile(c("Jh JK"))).value
    assert "not opened" in refusal_text(err, s.rules, "en", s)
