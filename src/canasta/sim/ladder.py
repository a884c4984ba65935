"""The bots' ladder: each level against the one below it on duplicate deals, with the time
each bot takes per decision. A benchmark that prints figures, never a test.

    nice -n 10 python -m canasta.sim.ladder --variants international,classic_italian \\
        --deals 200 --expert-deals 100 --json ladder.json

A *rung* is a pairing ``A/B`` with its target (issue 10): ``hard/greedy``, ``medium/easy``
and ``expert:time=1/hard`` (``--expert`` sets the expert's spec), each at least 60% of deal
pairs; the expert's rung also asks for the 95% interval's lower bound above 50%. Every rung
is played on each variant with :func:`canasta.sim.duplicate.run_deal_pairs` (the deals of
``canasta tournament`` for the same seed: ``--seed``, 1 by default), one deal pair at a time
in this process, so a long run shows its standing after every deal pair (``--progress``) and
can be stopped with what it has (Ctrl-C prints the table so far).

Printed per rung and variant: deal pairs, won–lost–tied, A's win rate (a tie is half a win),
its 95% Wilson interval (:func:`canasta.sim.tournament.wilson`), whether the target is met,
and the median milliseconds per decision of A and of B. A decision is timed only when it
has a choice (more than one legal action), so the medians are not flattered by forced moves;
the times are wall-clock on this machine and vary with its load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.core.rules import load_preset
from canasta.sim.duplicate import DuplicateSetup, PairResult, run_deal_pairs
from canasta.sim.tournament import PairingResult

__all__ = ["Rung", "RungResult", "RUNGS", "play_rung", "main"]


@dataclass(frozen=True)
class Rung:
    """A pairing of the ladder and its target.

    Attributes:
        a, b: bot specs (``a`` should beat ``b``).
        target: the win rate ``a`` should reach.
        lower_above: when set, the 95% lower bound must be above this too.
    """

    a: str
    b: str
    target: float = 0.6
    lower_above: float | None = None


#: The ladder of issue 10 (the expert's spec is replaced by ``--expert``).
RUNGS = (Rung("hard", "greedy"), Rung("medium", "easy"),
         Rung("expert:time=1", "hard", 0.6, 0.5))


@dataclass
class RungResult:
    """One rung on one variant: its deal pairs and the decision times of both bots."""

    rung: Rung
    variant: str
    pairs: list[PairResult] = field(default_factory=list)
    seconds: float = 0.0
    #: Ctrl-C ended it before its last deal pair.
    stopped: bool = False

    @property
    def pairing(self) -> PairingResult:
        return PairingResult.of(self.rung.a, self.rung.b, self.pairs)

    def median_ms(self, bot: str) -> float | None:
        """Median milliseconds per decision with a choice of bot ``"a"`` or ``"b"``."""
        times = [x for p in self.pairs for x in p.times("a" if bot == "a" else "b")]
        return 1000 * statistics.median(times) if times else None

    @property
    def met(self) -> bool:
        p = self.pairing
        lower = self.rung.lower_above
        return p.a_win_rate >= self.rung.target and (lower is None or p.ci95[0] > lower)

    def to_json(self) -> dict[str, Any]:
        doc = self.pairing.to_json()
        doc.update(variant=self.variant, mean_diff=self.pairing.mean_diff, met=self.met,
                   target=self.rung.target, lower_above=self.rung.lower_above,
                   a_median_ms=self.median_ms("a"), b_median_ms=self.median_ms("b"),
                   seconds=round(self.seconds, 1))
        return doc


def play_rung(rung: Rung, variant: str, deals: int, *, players: int = 4, seed: int = 1,
              progress: bool = False) -> RungResult:
    """Play ``deals`` deal pairs of ``rung`` on ``variant``, timing the decisions; a
    KeyboardInterrupt ends the rung early with the deal pairs played so far (at least one,
    else it is raised).

    Raises:
        ValueError: an unknown variant or bot, a bad player count, ``deals`` < 1.
    """
    setup = DuplicateSetup(load_preset(variant), players, seed=seed, clock=True)
    out = RungResult(rung, variant)
    started = time.perf_counter()
    try:
        for d in range(deals):
            out.pairs.extend(run_deal_pairs(setup, rung.a, rung.b, 1, first=d))
            out.seconds = time.perf_counter() - started
            if progress:
                print(f"  {variant} {rung.a} vs {rung.b}: {_line(out)}", file=sys.stderr,
                      flush=True)
    except KeyboardInterrupt:
        if not out.pairs:
            raise
        out.stopped = True
    return out


def _line(r: RungResult) -> str:
    p = r.pairing
    lo, hi = p.ci95
    ms = [r.median_ms(k) for k in ("a", "b")]
    times = "/".join("-" if m is None else f"{m:.1f}" for m in ms)
    return (f"{p.deal_pairs} deal pairs {p.a_wins}-{p.b_wins}-{p.ties} "
            f"{100 * p.a_win_rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
            f"{p.mean_diff:+.0f} points/pair, median ms a/b {times}, {r.seconds:.0f} s")


def table(results: list[RungResult]) -> str:
    """The ladder as a Markdown table (the one in docs/bots.md)."""
    rows = ["| pairing (A vs B) | variant | deal pairs | A–B–ties | A's win rate | 95% CI "
            "| target | met | median ms per decision, A / B |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        p = r.pairing
        lo, hi = p.ci95
        target = f"≥ {100 * r.rung.target:.0f}%"
        if r.rung.lower_above is not None:
            target += f", low > {100 * r.rung.lower_above:.0f}%"
        ms = " / ".join("-" if m is None else f"{m:.1f}"
                        for m in (r.median_ms("a"), r.median_ms("b")))
        rows.append(f"| {p.a} vs {p.b} | {r.variant} | {p.deal_pairs} | "
                    f"{p.a_wins}–{p.b_wins}–{p.ties} | {100 * p.a_win_rate:.1f}% | "
                    f"{100 * lo:.1f}–{100 * hi:.1f}% | {target} | "
                    f"{'yes' if r.met else 'no'} | {ms} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m canasta.sim.ladder",
                                 description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--variants", default="international,classic_italian",
                    help="comma-separated presets (default: %(default)s)")
    ap.add_argument("--deals", type=int, default=200,
                    help="deal pairs of each heuristic rung (default: %(default)s)")
    ap.add_argument("--expert-deals", type=int, default=100,
                    help="deal pairs of the expert's rung (default: %(default)s)")
    ap.add_argument("--expert", default="expert:time=1",
                    help="the expert's spec (default: %(default)s)")
    ap.add_argument("--rungs", default="hard/greedy,medium/easy,expert/hard",
                    help="rungs to play, A/B comma-separated ('expert' is --expert)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write the rungs' results to this file")
    ap.add_argument("--progress", action="store_true",
                    help="print each rung's standing after every deal pair (stderr)")
    args = ap.parse_args(argv)
    targets = {(r.a.partition(":")[0], r.b): r for r in RUNGS}
    rungs = []
    for piece in (p.strip() for p in args.rungs.split(",") if p.strip()):
        a, _, b = piece.partition("/")
        base = targets.get((a.partition(":")[0], b), Rung(a, b))
        spec = args.expert if a == "expert" else a
        rungs.append(Rung(spec, b, base.target, base.lower_above))
    results = []
    try:
        for variant in (v.strip() for v in args.variants.split(",") if v.strip()):
            for rung in rungs:
                deals = args.expert_deals if rung.a.startswith("expert") else args.deals
                res = play_rung(rung, variant, deals, players=args.players, seed=args.seed,
                                progress=args.progress)
                results.append(res)
                print(f"{variant} {rung.a} vs {rung.b}: {_line(res)}"
                      + (" (stopped)" if res.stopped else ""), file=sys.stderr, flush=True)
                if res.stopped:
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"seed {args.seed}, {args.players} players; command: python -m canasta.sim.ladder "
          + " ".join(sys.argv[1:] if argv is None else argv))
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps([r.to_json() for r in results], indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
