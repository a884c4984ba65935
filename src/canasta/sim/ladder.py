"""The bots' ladder: each level against the one below it on duplicate deals, with the time
each bot takes per decision. A benchmark that prints figures, never a test.

    nice -n 10 python -m canasta.sim.ladder --variants international,classic_italian \\
        --deals 200 --expert-deals 100 --json ladder.json

A *rung* is a pairing ``A/B`` with its target: ``easy/random``, ``medium/easy``,
``hard/medium`` and ``expert:time=1/hard`` (``--expert`` sets the expert's spec), each at least
60% of deal pairs with the 95% interval's lower bound above 50%; ``hard/greedy`` at least 60%.
A variant may name its player count, ``international:2`` (else ``--players``). Every rung
is played on each variant with :func:`canasta.sim.duplicate.run_deal_pairs` (the deals of
``canasta tournament`` for the same seed: ``--seed``, 1 by default), one deal pair at a time
in this process, the rungs interleaved deal by deal, so a long run shows its standing after
every deal pair (``--progress``), rewrites ``--json`` after each round, and can be stopped with
what it has (Ctrl-C prints the table so far, each rung with the deal pairs it reached).

Printed per rung and variant: deal pairs, won–lost–tied, A's win rate (a tie is half a win),
its 95% Wilson interval (:func:`canasta.sim.tournament.wilson`), whether the target is met,
and the median milliseconds per decision of A and of B. A decision is timed only when it
has a choice (more than one legal action), so the medians are not flattered by forced moves;
the times are wall-clock on this machine and vary with its load.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.core.rules import load_preset
from canasta.sim.duplicate import DuplicateSetup, PairResult, run_deal_pairs
from canasta.sim.tournament import PairingResult

__all__ = ["Rung", "RungResult", "RUNGS", "play_rung", "play_ladder", "main"]


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


#: The ladder's rungs and their targets (the expert's spec is replaced by ``--expert``): each
#: level wins at least 60% of deal pairs against the one below, with the 95% lower bound
#: above 50%; ``hard/greedy`` is the older check against the greedy bot (60%).
RUNGS = (Rung("easy", "random", 0.6, 0.5), Rung("medium", "easy", 0.6, 0.5),
         Rung("hard", "medium", 0.6, 0.5), Rung("expert:time=1", "hard", 0.6, 0.5),
         Rung("hard", "greedy"))


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
    """Play ``deals`` deal pairs of ``rung`` on ``variant``, timing the decisions (see
    :func:`play_ladder`, which plays several rungs deal by deal).

    Raises:
        ValueError: an unknown variant or bot, a bad player count, ``deals`` < 1.
    """
    [out] = play_ladder([(rung, variant, deals)], players=players, seed=seed,
                        progress=progress)
    return out


def play_ladder(plan: list[tuple[Rung, str, int]], *, players: int = 4, seed: int = 1,
                progress: bool = False,
                after: Callable[[list[RungResult]], None] | None = None,
                luck: bool = False) -> list[RungResult]:
    """Play each ``(rung, variant, deal pairs)`` of ``plan``, interleaved: deal pair 0 of
    every rung, then deal pair 1, ..., so that a run stopped early (Ctrl-C) has played every
    rung about as often; ``after`` is called with the results after each round of deal pairs.
    A KeyboardInterrupt ends the run with the deal pairs played so far (those rungs are
    marked ``stopped``). ``luck`` measures the luck of the draws of every play
    (:mod:`canasta.sim.luck`).

    Raises:
        ValueError: an unknown variant or bot, a bad player count, deal pairs < 1.
    """
    setups = {}
    for rung, variant, deals in plan:
        if deals < 1:
            raise ValueError(f"{rung.a} vs {rung.b}: play at least one deal pair, not {deals}")
        if variant not in setups:
            name, count = _variant(variant, players)
            setups[variant] = DuplicateSetup(load_preset(name), count, seed=seed,
                                             clock=True, luck=luck)
            setups[variant].check()
    results = [RungResult(rung, variant) for rung, variant, _ in plan]
    try:
        for d in range(max(deals for _, _, deals in plan)):
            for (rung, variant, deals), out in zip(plan, results, strict=True):
                if d >= deals:
                    continue
                started = time.perf_counter()
                out.pairs.extend(run_deal_pairs(setups[variant], rung.a, rung.b, 1, first=d))
                out.seconds += time.perf_counter() - started
                if progress:
                    print(f"  {variant} {rung.a} vs {rung.b}: {_line(out)}", file=sys.stderr,
                          flush=True)
            if after is not None:
                after(results)
    except KeyboardInterrupt:
        for (_, _, deals), out in zip(plan, results, strict=True):
            out.stopped = len(out.pairs) < deals
        results = [r for r in results if r.pairs]
        if not results:
            raise
    return results


def _variant(variant: str, players: int) -> tuple[str, int]:
    """``"international:2"`` as ``("international", 2)``; a name alone plays ``players``.

    Raises:
        ValueError: the player count is not a whole number.
    """
    name, _, count = variant.partition(":")
    if not count:
        return name, players
    try:
        return name, int(count)
    except ValueError:
        raise ValueError(f"variant {variant!r}: the player count after ':' must be a whole "
                         f"number, not {count!r}") from None


def _ms(m: float | None) -> str:
    """Milliseconds for the table: two decimals below 10 ms (the heuristics take tenths)."""
    return "-" if m is None else f"{m:.2f}" if m < 10 else f"{m:.0f}"


def _line(r: RungResult) -> str:
    p = r.pairing
    lo, hi = p.ci95
    times = "/".join(_ms(r.median_ms(k)) for k in ("a", "b"))
    return (f"{p.deal_pairs} deal pairs {p.a_wins}-{p.b_wins}-{p.ties} "
            f"{100 * p.a_win_rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
            f"{p.mean_diff:+.0f} points/pair, median ms a/b {times}, {r.seconds:.0f} s")


def luck_table(results: list[RungResult]) -> str:
    """Each rung's win rate with and without the luck of the draws subtracted, and the deal
    pairs each needs to tell its rate from 50% (:func:`canasta.sim.luck.control_variate`)."""
    from canasta.sim.luck import control_variate

    rows = ["| pairing (A vs B) | variant | deal pairs | A's win rate | with the luck "
            "subtracted | beta | variance left | deal pairs needed, raw / with the luck "
            "subtracted |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        if len(r.pairs) < 2:
            continue
        cv = control_variate(r.pairs)
        rows.append(f"| {r.rung.a} vs {r.rung.b} | {r.variant} | {cv.deal_pairs} | "
                    f"{100 * cv.rate:.1f}% | {100 * cv.adjusted_rate:.1f}% | {cv.beta:.2f} | "
                    f"{100 * cv.variance_ratio:.0f}% | {cv.needed:.0f} / "
                    f"{cv.adjusted_needed:.0f} |")
    return "\n".join(rows)


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
        ms = " / ".join(_ms(r.median_ms(k)) for k in ("a", "b"))
        rows.append(f"| {p.a} vs {p.b} | {r.variant} | {p.deal_pairs} | "
                    f"{p.a_wins}–{p.b_wins}–{p.ties} | {100 * p.a_win_rate:.1f}% | "
                    f"{100 * lo:.1f}–{100 * hi:.1f}% | {target} | "
                    f"{'yes' if r.met else 'no'} | {ms} |")
    return "\n".join(rows)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m canasta.sim.ladder",
                                 description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--variants", default="international,classic_italian",
                    help="comma-separated presets, each optionally with its player count "
                         "(international:2; default: %(default)s)")
    ap.add_argument("--deals", type=int, default=200,
                    help="deal pairs of each heuristic rung (default: %(default)s)")
    ap.add_argument("--expert-deals", type=int, default=100,
                    help="deal pairs of the expert's rung (default: %(default)s)")
    ap.add_argument("--expert", default="expert:time=1",
                    help="the expert's spec (default: %(default)s)")
    ap.add_argument("--rungs", default="easy/random,medium/easy,hard/medium,expert/hard",
                    help="rungs to play, A/B comma-separated ('expert' is --expert)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write the rungs' results to this file")
    ap.add_argument("--luck", action="store_true",
                    help="also print each rung with the luck of the draws subtracted (a "
                         "control variate from the learned value; canasta.sim.luck)")
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
    plan = [(rung, variant, args.expert_deals if rung.a.startswith("expert") else args.deals)
            for variant in (v.strip() for v in args.variants.split(",") if v.strip())
            for rung in rungs]
    command = "python -m canasta.sim.ladder " + " ".join(sys.argv[1:] if argv is None else argv)

    def write(results: list[RungResult]) -> None:
        if args.json:
            doc = {"command": command, "seed": args.seed, "players": args.players,
                   "rungs": [r.to_json() for r in results]}
            args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")

    # A run in the background ignores Ctrl-C: SIGTERM (``kill PID``) stops it the same way.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        results = play_ladder(plan, players=args.players, seed=args.seed,
                              progress=args.progress, after=write, luck=args.luck)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped before any deal pair", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGTERM, previous)
    write(results)
    stopped = [r for r in results if r.stopped]
    counts = {_variant(v, args.players)[1] for _, v, _ in plan}
    print(f"seed {args.seed}, {'/'.join(map(str, sorted(counts)))} players; command: {command}")
    if stopped:
        print("stopped early: " + ", ".join(f"{r.rung.a} vs {r.rung.b} on {r.variant} after "
                                            f"{len(r.pairs)} deal pairs" for r in stopped))
    print(table(results))
    if args.luck:
        print()
        print(luck_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
