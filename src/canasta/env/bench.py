"""``python -m canasta.env.bench``: environment steps per second against the raw engine.

Prints, as medians of interleaved rounds (the same hands and the same decisions in each
loop, so the ratio compares like with like):

* the raw engine's decisions per second on random play-outs (:func:`playout_run`, the loop
  of ``python -m canasta.bench``: ``legal_actions()``, ``random.choice``, ``apply()``);
* PettingZoo steps per second through :func:`canasta.env.pettingzoo.env` (the wrapped
  environment a user gets): ``last()`` (the observation and the mask), a choice
  among the mask's legal ids (:func:`canasta.env.mask.legal_ids`, as docs/env.md's
  example; a second loop reads them with ``mask.nonzero()[0]``, numpy's slow path for an
  ``int8`` mask, to show what that costs), ``step()``.
  A step is one decision; the dead steps at the end of a hand (``step(None)``) are not
  counted, their time is. The agent takes the id at the index of the engine loop's own
  uniform choice (:func:`engine_plan`, worked out untimed beforehand): a uniform legal id
  all the same, but the env plays exactly the engine's games. With ``--independent`` it
  draws its own uniform index instead, and plays other games than the engine: random hands
  differ so much in cost (a hand where a player holds most of the pack costs several times
  more per decision) that rounds of such runs gave ratios from 0.2 to over 4;
* the same engine loop calling ``state.view(actor)`` once per decision: what making the
  view on every step would cost (the env no longer does: it reads what the seat may see from
  the state, ``ObservationWriter.encode_state``);
* the unwrapped environment's own work, without PettingZoo's agent loop:
  ``raw_env.observe()`` (observation vector, mask), the same uniform choice from the
  mask, ``raw_env.step()``;
* the ratio env / engine per round and its median (the issue's target is at least 0.5).

Every loop deals the hands ``env.reset(seed)`` deals (:func:`deal`).
* with ``--performance-benchmark``, PettingZoo's own ``performance_benchmark`` (5 s).

Loops are timed by the wall clock, or with ``--cpu`` by this process's CPU time
(``time.process_time``; the loops run on one thread), which a shared, loaded machine disturbs
less: time spent waiting for a core is not counted.

To compare with an older commit, run a copy of this file with the older tree's own
environment: ``cp src/canasta/env/bench.py /tmp/envbench.py``, then in each tree
``.venv/bin/python /tmp/envbench.py --cpu`` (a copy outside the package: run from
``canasta/env/`` itself, this folder's ``pettingzoo.py`` would hide the library). Not a test:
nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from canasta.core.codec import ActionCodec
from canasta.core.match import Match
from canasta.core.rules import Rules, load_preset
from canasta.core.state import State
from canasta.env.mask import legal_ids
from canasta.env.pettingzoo import env as make_env
from canasta.env.pettingzoo import raw_env
from canasta.sim.bench import core_kind


def deal(rules: Rules, players: int, seed: int) -> State:
    """The hand ``env.reset(seed=seed)`` deals: the first hand of ``Match(seed=seed)``, so
    that every loop plays the same deals (``State.deal(seed=seed)`` shuffles otherwise, and
    the cost of a decision depends much on the hand: rounds of different deals differed by
    up to 4x)."""
    return Match(rules, players, seed=seed).state


def playout_run(variant: str, hands: int, players: int, seed: int,
                clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
    """The raw engine's loop, :func:`canasta.sim.bench.playout_run`'s (written out here so
    that a copy of this file runs against an older package, which may lack its ``clock``):
    ``hands`` random hands, (decisions, seconds)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for h in range(hands):
        state = deal(rules, players, seed * 100_003 + h)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, clock() - start


def view_run(variant: str, hands: int, players: int, seed: int,
             clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
    """:func:`playout_run` with one ``state.view(actor)`` per decision, the
    choice made from ``view.legal_actions`` (so ``legal_actions()`` runs once, as in the env):
    (decisions, seconds)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for h in range(hands):
        state = deal(rules, players, seed * 100_003 + h)
        while not state.is_over:
            state.apply(rng.choice(state.view(state.actor).legal_actions))
            decisions += 1
    return decisions, clock() - start


def engine_plan(variant: str, hands: int, players: int, seed: int) -> list[list[int]]:
    """The choices :func:`playout_run` makes with the same arguments, per hand: for each
    decision, the index of the chosen action's id among the legal ids in increasing order
    (the order of ``mask.nonzero()[0]``). Untimed; the env loops play them back."""
    rules = load_preset(variant)
    codec = ActionCodec(rules, players)
    rng = random.Random(seed)
    plan: list[list[int]] = []
    for h in range(hands):
        state = deal(rules, players, seed * 100_003 + h)
        picks: list[int] = []
        while not state.is_over:
            actions = state.legal_actions()
            action = rng.choice(actions)
            picks.append(sorted({codec.encode(a) for a in actions}).index(
                codec.encode(action)))
            state.apply(action)
        plan.append(picks)
    return plan


def _picker(plan: list[list[int]] | None, seed: int) -> Callable[[int, int, int], int]:
    """The agent's index among ``n`` legal ids at decision ``k`` of hand ``h``: the plan's,
    or a uniform draw of its own."""
    if plan is None:
        rng = random.Random(seed)
        return lambda h, k, n: rng.randrange(n)
    return lambda h, k, n: plan[h][k]


def _nonzero(mask: np.ndarray) -> np.ndarray:
    return mask.nonzero()[0]


def env_run(variant: str, hands: int, players: int, seed: int,
            clock: Callable[[], float] = time.perf_counter,
            plan: list[list[int]] | None = None,
            ids_of: Callable[[np.ndarray], np.ndarray] = legal_ids) -> tuple[int, float]:
    """Play ``hands`` hands through the wrapped PettingZoo env, choosing from the mask's
    ids (``ids_of``) as ``plan`` says (:func:`engine_plan`) or, without one, uniformly:
    (steps, seconds)."""
    e = make_env(variant, players)
    pick = _picker(plan, seed)
    steps = 0
    start = clock()
    for h in range(hands):
        e.reset(seed=seed * 100_003 + h)
        k = 0
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            ids = ids_of(obs["action_mask"])
            e.step(int(ids[pick(h, k, len(ids))]))
            k += 1
        steps += k
    return steps, clock() - start


def observe_run(variant: str, hands: int, players: int, seed: int,
                clock: Callable[[], float] = time.perf_counter,
                plan: list[list[int]] | None = None) -> tuple[int, float]:
    """The unwrapped env driven directly (``observe``, an id from the mask as in
    :func:`env_run`, ``step``), without ``agent_iter``/``last()`` or the wrapper: (steps,
    seconds)."""
    e = raw_env(variant, players)
    pick = _picker(plan, seed)
    steps = 0
    start = clock()
    for h in range(hands):
        e.reset(seed=seed * 100_003 + h)
        k = 0
        while not e.state.is_over:
            ids = legal_ids(e.observe(e.agent_selection)["action_mask"])
            e.step(int(ids[pick(h, k, len(ids))]))
            k += 1
        steps += k
    return steps, clock() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.env.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=10, help="hands per loop per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--performance-benchmark", action="store_true",
                        help="also run PettingZoo's performance_benchmark (5 s)")
    parser.add_argument("--independent", action="store_true",
                        help="the env loops draw their own uniform choices (other games than "
                             "the engine's) instead of playing the engine loop's")
    parser.add_argument("--cpu", action="store_true",
                        help="time the loops by this process's CPU time (time.process_time) "
                             "instead of the wall clock: steadier on a shared machine")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    engine: list[float] = []
    viewed: list[float] = []
    observed: list[float] = []
    stepped: list[float] = []
    slow: list[float] = []
    ratios: list[float] = []
    for r in range(args.rounds):
        plan = None if args.independent else engine_plan(args.variant, args.hands,
                                                         args.players, seed=r)
        n, secs = playout_run(args.variant, args.hands, args.players, seed=r, clock=clock)
        engine.append(n / secs)
        if plan is not None and n != sum(map(len, plan)):
            raise RuntimeError("the engine loop did not make the planned decisions")
        n, secs = view_run(args.variant, args.hands, args.players, seed=r, clock=clock)
        viewed.append(n / secs)
        n, secs = observe_run(args.variant, args.hands, args.players, seed=r, clock=clock,
                              plan=plan)
        observed.append(n / secs)
        n, secs = env_run(args.variant, args.hands, args.players, seed=r, clock=clock,
                          plan=plan)
        stepped.append(n / secs)
        n, secs = env_run(args.variant, args.hands, args.players, seed=r, clock=clock,
                          plan=plan, ids_of=_nonzero)
        slow.append(n / secs)
        ratios.append(stepped[-1] / engine[-1])
        print(f"  round {r + 1}/{args.rounds}: engine {engine[-1]:,.0f} decisions/s, "
              f"env {stepped[-1]:,.0f} steps/s, ratio {ratios[-1]:.2f}", file=sys.stderr,
              flush=True)
    print(f"canasta.env benchmark ({core_kind()} core, Python {sys.version_info.major}."
          f"{sys.version_info.minor}): {args.variant}, {args.players} players, random play "
          + ("(independent choices), " if args.independent else "(the same games), ")
          + f"median of {args.rounds} interleaved rounds of {args.hands} hands, "
          + ("CPU time" if args.cpu else "wall clock"))
    rates = [("raw engine decisions/s", engine, ""),
             ("engine + one view/decision", viewed, "what a view per step would cost; "
              "the env reads the seat's part of the state instead"),
             ("raw_env observe + step/s", observed, "the env's own work, without "
              "PettingZoo's agent loop"),
             ("PettingZoo env steps/s", stepped, "legal ids by canasta.env.mask.legal_ids"),
             ("the same, mask.nonzero()", slow, "numpy's int8 path: the agent's cost, "
              "not the env's")]
    base = 1e6 / statistics.median(engine)
    for label, values, note in rates:
        rate = statistics.median(values)
        extra = f"   +{1e6 / rate - base:5.1f} µs/decision" if values is not engine else (
            f"   {base:6.1f} µs/decision")
        print(f"  {label:27}{rate:10,.0f}{extra}" + (f"   ({note})" if note else ""))
    print(f"  {'env / engine':27}{statistics.median(ratios):10.2f}   (rounds "
          + " ".join(f"{x:.2f}" for x in ratios) + ")")
    if args.performance_benchmark:
        from pettingzoo.test import performance_benchmark

        performance_benchmark(make_env(args.variant, args.players))


if __name__ == "__main__":
    main()
