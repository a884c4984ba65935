"""How often a hand counted as a scorekeeper counts it rebuilds the hand's own score sheet.

Plays hands with greedy bots (every preset, every player count of 2, 3, 4 and 6, seeds
0..N-1), writes each as a hand result, turns it into a tally (canastas by kind, cards by point
class: canasta.formats.tally.tally_of_hand_result), rebuilds a hand result from the tally and
scores both. Prints each hand that is refused or scores differently, then
``hands refused-or-different seconds``.

    python tools/tally_roundtrip.py 16      # 272 hands; 265 rebuilt (docs/web.md)
"""

from __future__ import annotations

import json
import sys
import time

from canasta.bots import make_bot
from canasta.core.match import Match
from canasta.core.rules import load_preset
from canasta.formats.handresult import HandResultError, hand_result_from_dict, hand_result_of_state
from canasta.formats.tally import TallyError, hand_result_of_tally, tally_of_hand_result


def main(seeds: int) -> None:
    bad = total = 0
    start = time.perf_counter()
    for variant in ("international", "classic_italian", "canastone", "brazilian", "romanian"):
        rules = load_preset(variant)
        for players in sorted(set(rules.deal.player_counts) & {2, 3, 4, 6}):
            for seed in range(seeds):
                state = Match(rules, players, seed=seed).state
                bots = [make_bot("greedy", seed + i) for i in range(players)]
                while not state.is_over:
                    state.apply(bots[state.current].choose(state.view(state.current)))
                doc = hand_result_of_state(state)
                expected = [s.hand_total for s in hand_result_from_dict(doc).score()]
                tally = json.loads(json.dumps(tally_of_hand_result(doc, rules)))
                total += 1
                try:
                    rebuilt = hand_result_of_tally(rules, players, tally,
                                                   [t["score_before"] for t in doc["teams"]])
                    got = [s.hand_total for s in hand_result_from_dict(rebuilt).score()]
                except (TallyError, HandResultError) as exc:
                    bad += 1
                    print(variant, players, seed, "refused:", exc)
                    continue
                if got != expected:
                    bad += 1
                    print(variant, players, seed, "differs:", expected, got)
    print(total, bad, round(time.perf_counter() - start, 1))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
