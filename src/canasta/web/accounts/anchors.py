"""The bots' fixed ratings (the anchors of the ratings): computed from bot-vs-bot duplicate
play, shipped as ``anchors.json`` beside this module. A command that prints figures, never
run by the tests or the server:

    nice -n 10 python -m canasta.web.accounts.anchors --variant international --deals 200 \\
        --expert-deals 30 --seed 1 --write

Each rung of :data:`RUNGS` (``medium`` against ``easy``, ``hard`` against ``medium``, the
expert against ``hard``) is played on the same duplicate deals as ``canasta tournament`` and
``canasta.sim.ladder`` (:func:`canasta.sim.ladder.play_ladder`), and its win rate of deal
pairs ``p`` (a tie is half) becomes a rating difference by the logistic curve the Glicko
scale is built on: ``400 * log10(p / (1 - p))``, ``p`` kept within 2%..98% so that a rung
won every time stays finite. ``medium`` (the default bot) is fixed at 1500 and the others
are chained from it. Each anchor's RD is the half-width of the difference's 95% interval
(Wilson, :func:`canasta.sim.tournament.wilson`), at least :data:`MIN_RD`: how well the
duplicate play pins it down. Anchors are never updated by games with people.

The ratings are per variant in the JSON (``"variants"``); a variant without its own uses
``"default"`` (the first variant computed).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

__all__ = ["ANCHORS", "MIN_RD", "RUNGS", "anchor_of", "anchors", "difference", "main"]

ANCHORS = Path(__file__).with_name("anchors.json")
#: The rungs, stronger bot first: each anchor is chained from the one below it.
RUNGS = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
BASE = ("medium", 1500.0)
MIN_RD = 40.0
#: The win rates a rung's rate is kept within (a rung won every time stays finite).
CLAMP = (0.02, 0.98)


def difference(p: float) -> float:
    """The rating difference of a win rate ``p`` (0..1) on the Glicko scale."""
    p = min(max(p, CLAMP[0]), CLAMP[1])
    return 400 * math.log10(p / (1 - p))


def anchors(rates: dict[tuple[str, str], tuple[float, float, float]]) -> dict[str, Any]:
    """The anchors from each rung's ``(win rate, low, high)`` of its 95% interval: level ->
    ``{"rating", "rd"}``, chained from :data:`BASE`.

    Raises:
        KeyError: a rung of :data:`RUNGS` missing from ``rates``.
    """
    out: dict[str, Any] = {BASE[0]: {"rating": BASE[1], "rd": MIN_RD}}
    for strong, weak in RUNGS:
        p, low, high = rates[(strong, weak)]
        d = difference(p)
        rd = max(MIN_RD, (difference(high) - difference(low)) / 4)
        if weak in out:
            out[strong] = {"rating": round(out[weak]["rating"] + d, 1), "rd": round(rd, 1)}
        elif strong in out:
            out[weak] = {"rating": round(out[strong]["rating"] - d, 1), "rd": round(rd, 1)}
    return out


_loaded: dict[str, Any] | None = None


def anchor_of(level: str, variant: str) -> tuple[float, float]:
    """The fixed ``(rating, rd)`` of bot ``level`` (a level name or a spec such as
    ``hard:seed=3``: its level counts) on ``variant``, from the shipped ``anchors.json``;
    an unknown level: the weakest anchor's."""
    global _loaded
    if _loaded is None:
        _loaded = json.loads(ANCHORS.read_text(encoding="utf-8"))
    table = _loaded["variants"].get(variant) or _loaded["variants"][_loaded["default"]]
    name = level.split(":", 1)[0]
    entry = table.get(name) or min(table.values(), key=lambda e: e["rating"])
    return float(entry["rating"]), float(entry["rd"])


def main(argv: list[str] | None = None) -> int:
    """Play the rungs and print (and with ``--write``, store) the anchors."""
    from canasta.sim.ladder import Rung, play_ladder

    ap = argparse.ArgumentParser(prog="python -m canasta.web.accounts.anchors",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", action="append", help="a preset (repeat; international)")
    ap.add_argument("--deals", type=int, default=200, help="deal pairs per rung (200)")
    ap.add_argument("--expert-deals", type=int, default=None,
                    help="deal pairs of the expert's rung (--deals)")
    ap.add_argument("--expert", default="",
                    help="the expert's options, as in a bot spec (none: as tables play it, "
                         "1 s a decision)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help=f"write {ANCHORS.name}")
    ap.add_argument("--out", type=Path, default=ANCHORS)
    args = ap.parse_args(argv)
    variants = args.variant or ["international"]

    def spec(level: str) -> str:
        return f"expert:{args.expert}" if level == "expert" and args.expert else level

    plan = [(Rung(spec(s), spec(w)), v,
             args.expert_deals or args.deals if s == "expert" else args.deals)
            for v in variants for s, w in RUNGS]
    results = play_ladder(plan, players=args.players, seed=args.seed, progress=True)
    doc: dict[str, Any] = {
        "method": "duplicate deal pairs, canasta.sim.ladder.play_ladder; "
                  "rating difference 400*log10(p/(1-p)); medium fixed at 1500",
        "seed": args.seed, "deals": args.deals,
        "expert_deals": args.expert_deals or args.deals, "players": args.players,
        "expert": spec("expert"), "default": variants[0], "variants": {}, "rungs": []}
    for v in variants:
        rates = {}
        for r in results:
            if r.variant != v:
                continue
            pair = r.pairing
            low, high = pair.ci95
            key = (r.rung.a.split(":")[0], r.rung.b.split(":")[0])
            rates[key] = (pair.a_win_rate, low, high)
            doc["rungs"].append({"variant": v, "a": r.rung.a, "b": r.rung.b,
                                 "deal_pairs": pair.deal_pairs, "a_wins": pair.a_wins,
                                 "b_wins": pair.b_wins, "ties": pair.ties,
                                 "a_win_rate": round(pair.a_win_rate, 3)})
        doc["variants"][v] = anchors(rates)
    text = json.dumps(doc, indent=1) + "\n"
    print(text)
    if args.write:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
