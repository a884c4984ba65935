"""1,000 seeded bot hands of the ``international`` preset run without error, with the
invariants checked at the end of each hand: every card in exactly one place, no legal action
left, a known end, score sheets that add up. Bots see only their seat's view."""

from __future__ import annotations

from collections import Counter

import pytest

from canasta import State, load_preset
from canasta.bots import BOTS, make_bot
from helpers import RULES, check_conservation, check_score_sheets

HANDS = 1000
MAX_STEPS = 5000
OPTIONS = [
    RULES,
    load_preset("international", {"wild_ratio": "lt"}),
    load_preset("international", {"meld_after_last_red_three": "true",
                                  "last_discard_black_three": "true"}),
    load_preset("international", {"wilds_on_canasta": "false"}),
]


def _lineup(seed: int) -> list[str]:
    kinds = ["random"] + (["greedy"] if "greedy" in BOTS else [])
    if len(kinds) == 1:
        return ["random"] * 4
    pick = seed % 3
    if pick == 0:
        return ["random"] * 4
    if pick == 1:
        return ["greedy"] * 4
    return ["greedy", "random", "greedy", "random"] if seed % 2 else ["random", "greedy"] * 2


@pytest.mark.slow
def test_one_thousand_seeded_bot_hands() -> None:
    """1,000 seeded bot hands run in the suite without error."""
    ends: Counter[str] = Counter()
    for seed in range(HANDS):
        rules = OPTIONS[seed % len(OPTIONS)]
        state = State.deal(rules, 4, seed=seed, dealer=seed % 4,
                           scores=((seed * 37) % 4000 - 500, (seed * 53) % 4000 - 500))
        bots = [make_bot(kind, seed * 4 + i) for i, kind in enumerate(_lineup(seed))]
        steps = 0
        while not state.is_over:
            seat = state.actor
            state.apply(bots[seat].choose(state.view(seat)))
            steps += 1
            assert steps < MAX_STEPS, f"seed {seed}: the hand does not end"
        check_conservation(state)
        check_score_sheets(state)
        assert state.legal_actions() == []
        ends[state.end_reason] += 1
    assert sum(ends.values()) == HANDS
    assert set(ends) <= {"went_out", "stock_exhausted", "last_card_red_three"}
    assert ends["went_out"] > 0
