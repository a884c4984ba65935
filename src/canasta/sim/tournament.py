"""Round-robin duplicate tournaments between bots, with confidence intervals and ratings.

Every pairing of the bots plays the same ``deals`` deal pairs (:mod:`canasta.sim.duplicate`:
the same deck orders with the bots' sides swapped), so no pairing gets luckier cards than
another. Per pairing it reports the deal pairs won by each bot and tied, *a*'s **win rate**
``(a_wins + ties / 2) / deal_pairs`` (a tie counts half a win for each), and a 95% Wilson score
interval of that rate (:func:`wilson`; with ties counted as half wins the interval is a little
conservative, as a tie has less variance than a coin flip).

Ratings: openskill's Plackett-Luce model (the ``tournament`` extra), starting at its defaults
(μ 25, σ 25/3), updated once per deal pair (a win ranks the winner first, a tie ranks both
equal) in a fixed order, deal by deal and within a deal pairing by pairing, so the same
results give the same ratings whatever order the workers finished in. Bots are ranked by
μ − 3σ (openskill's ordinal).

Where the games run: in this process (``workers=1``), in local worker processes
(``workers=N``, :class:`concurrent.futures.ProcessPoolExecutor`) or on Ray (``ray="local"``
starts a local Ray instance, ``"auto"`` joins the running cluster as Ray defines it, or a Ray
address; an already initialised Ray is used as it is; the ``ray`` extra). Every deal pair is
seeded by the run's seed and its deal number only, so all three give the same results.

The JSON document (:meth:`TournamentResult.to_json`, schema ``tournament`` in
:mod:`canasta.formats.jsondoc`) is exactly::

    {"pairings": [{"a", "b", "deal_pairs", "a_wins", "b_wins", "ties", "a_win_rate",
                   "ci95": [lo, hi]}],
     "ratings": [{"bot", "mu", "sigma"}]}

with the ratings ranked by μ − 3σ, best first.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, islice
from typing import Any

from canasta.bots import make_bot
from canasta.bots.registry import split_specs as split_bot_specs
from canasta.sim.duplicate import DuplicateSetup, PairResult, play_deal_pair, seatings

__all__ = [
    "PairingResult", "BotRating", "TournamentResult", "wilson", "rate_bots", "run_tournament",
    "split_bot_specs", "Z95",
]

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054

#: (pairing number, deal number, bot a, bot b): one deal pair to play.
Task = tuple[int, int, str, str]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``successes`` may hold
    halves for ties), clipped to [0, 1].

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]

    Raises:
        ValueError: ``n`` < 1 or ``successes`` outside [0, n].
    """
    if n < 1:
        raise ValueError(f"wilson: need at least one trial, not {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson: successes {successes} outside [0, {n}]")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PairingResult:
    """The deal pairs of one pairing, ``a`` against ``b``.

    Attributes:
        a, b: the bot specs.
        deal_pairs / a_wins / b_wins / ties: counts of deal pairs.
        mean_diff: *a*'s mean score difference per deal pair (points; see
            :mod:`canasta.sim.duplicate`), not in the JSON document.
        hands: hands played in this pairing.
    """

    a: str
    b: str
    deal_pairs: int
    a_wins: int
    b_wins: int
    ties: int
    mean_diff: float = 0.0
    hands: int = 0

    @property
    def a_win_rate(self) -> float:
        """``(a_wins + ties / 2) / deal_pairs``."""
        return (self.a_wins + self.ties / 2) / self.deal_pairs

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`a_win_rate`."""
        return wilson(self.a_wins + self.ties / 2, self.deal_pairs)

    @classmethod
    def of(cls, a: str, b: str, pairs: Sequence[PairResult]) -> PairingResult:
        """The pairing's counts from its deal pairs (``a`` is each pair's bot *a*).

        Raises:
            ValueError: no deal pair.
        """
        if not pairs:
            raise ValueError(f"{a} vs {b}: no deal pair played")
        diff = sum((p.diff for p in pairs), Fraction(0))
        return cls(a, b, len(pairs), sum(p.winner == "a" for p in pairs),
                   sum(p.winner == "b" for p in pairs), sum(p.winner is None for p in pairs),
                   float(diff / len(pairs)), sum(p.hands for p in pairs))

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {"a": self.a, "b": self.b, "deal_pairs": self.deal_pairs,
                "a_wins": self.a_wins, "b_wins": self.b_wins, "ties": self.ties,
                "a_win_rate": self.a_win_rate, "ci95": [lo, hi]}


@dataclass(frozen=True)
class BotRating:
    """A bot's openskill rating: mean ``mu`` and uncertainty ``sigma`` (openskill units)."""

    bot: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ: what the ranking sorts by."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "mu": self.mu, "sigma": self.sigma}


@dataclass
class TournamentResult:
    """A finished tournament.

    Attributes:
        bots: the bot specs, as given.
        variant / players / deals / seed / match: the settings.
        pairings: one per pair of bots, in the order of ``itertools.combinations(bots, 2)``.
        ratings: ranked by μ − 3σ, best first.
        pairs: every deal pair played, ordered by deal then pairing.
        games: plays (one hand, or one match with ``match``), ``hands``: hands played.
        seconds: wall-clock time; ``where``: ``"this process"``, ``"processes"`` (local
            worker processes, ``processes`` of them) or ``"ray"``.
        interrupted: the run was stopped before every deal pair was played (``pairings``
            and ``ratings`` then count those played).
    """

    bots: list[str]
    variant: str
    players: int
    deals: int
    seed: int
    match: bool
    pairings: list[PairingResult]
    ratings: list[BotRating]
    pairs: list[PairResult] = field(repr=False, default_factory=list)
    games: int = 0
    hands: int = 0
    seconds: float = 0.0
    where: str = ""
    processes: int = 1
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        """The JSON document (see the module docstring)."""
        return {"pairings": [p.to_json() for p in self.pairings],
                "ratings": [r.to_json() for r in self.ratings]}


def rate_bots(bots: Sequence[str], pairs: Sequence[PairResult]) -> list[BotRating]:
    """openskill Plackett-Luce ratings from deal pairs taken in the given order, ranked by
    μ − 3σ (best first; equal ordinals keep the order of ``bots``).

    Raises:
        ImportError: openskill is not installed (``pip install 'canasta[tournament]'``).
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError("ratings need openskill: pip install 'canasta[tournament]'") from exc
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    for pair in pairs:
        winner = pair.winner
        ranks: list[float] = [1, 2] if winner == "a" else [2, 1] if winner == "b" else [1, 1]
        [[ra], [rb]] = model.rate([[ratings[pair.a]], [ratings[pair.b]]], ranks=ranks)
        ratings[pair.a], ratings[pair.b] = ra, rb
    out = [BotRating(b, float(ratings[b].mu), float(ratings[b].sigma)) for b in bots]
    return sorted(out, key=lambda r: -r.ordinal)


def play_tasks(setup: DuplicateSetup, tasks: Sequence[Task]) -> list[tuple[int, PairResult]]:
    """Play deal pairs in this process: ``(pairing number, result)`` per task (the unit of
    work sent to worker processes and Ray tasks).

    Raises:
        RuntimeError: a deal pair failed; the message names the bots, the deal and the error.
    """
    out = []
    for pairing, deal, a, b in tasks:
        try:
            out.append((pairing, play_deal_pair(setup, a, b, deal)))
        except Exception as exc:
            raise RuntimeError(f"{a} vs {b}, deal {deal} (seed {setup.seed}): "
                               f"{type(exc).__name__}: {exc}") from exc
    return out


Progress = Callable[[int, int], None]
#: Asked between deal pairs: True stops the run (Ctrl-C); the pairs played are kept.
Stop = Callable[[], bool]


def _tasks(pairings: Sequence[tuple[str, str]], deals: int) -> Iterator[Task]:
    """The deal pairs to play, deal by deal, made as they are taken: a huge ``deals`` holds
    no list of them in memory."""
    for d in range(deals):
        for i, (a, b) in enumerate(pairings):
            yield (i, d, a, b)


def _batch_size(tasks: int, workers: int) -> int:
    # Several batches per worker keep every worker busy to the end and the progress bar moving;
    # batches of a few deal pairs keep the per-task overhead (pickling the rules) small.
    return max(1, min(8, tasks // (workers * 8)))


def _batches(tasks: Iterator[Task], size: int) -> Iterator[list[Task]]:
    while batch := list(islice(tasks, size)):
        yield batch


def _ignore_sigint() -> None:
    """A worker process leaves Ctrl-C to the parent, which stops the run and ends it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool without waiting for the batches in flight (a stopped run)."""
    pool.shutdown(wait=False, cancel_futures=True)
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


def _run_local(setup: DuplicateSetup, tasks: Iterator[Task], count: int, workers: int,
               tick: Callable[[list[tuple[int, PairResult]]], None], stop: Stop) -> None:
    if workers == 1:
        for task in tasks:
            if stop():
                return
            tick(play_tasks(setup, [task]))
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    batches = _batches(tasks, _batch_size(count, workers))
    try:
        # A few batches per worker in flight, the next submitted as one comes back.
        pending = {pool.submit(play_tasks, setup, b) for b in islice(batches, workers * 3)}
        while pending:
            done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for fut in done:
                tick(fut.result())
            if stop():
                _end_workers(pool)
                return
            for batch in islice(batches, len(done)):
                pending.add(pool.submit(play_tasks, setup, batch))
    except BaseException:
        # A failed deal pair or Ctrl-C: drop the batches not started instead of playing them.
        _end_workers(pool)
        raise
    pool.shutdown()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """For a Ray address ``host:port`` (or ``ray://host:port``), fail fast when nothing
    listens there: Ray itself retries a wrong address for minutes. ``local``, ``auto`` and
    addresses without a port are left to Ray.

    Raises:
        RuntimeError: the port is not reachable within ``timeout`` seconds.
    """
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if address in ("local", "auto") or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RuntimeError(f"ray '{address}': nothing answers there ({exc})") from None


def _run_ray(setup: DuplicateSetup, tasks: Iterator[Task], count: int, address: str,
             workers: int | None, tick: Callable[[list[tuple[int, PairResult]]], None],
             stop: Stop) -> None:
    try:
        import ray
    except ImportError as exc:
        raise ImportError("--ray needs Ray: pip install 'canasta[ray]'") from exc
    started = False
    if not ray.is_initialized():
        check_reachable(address)
        try:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            raise RuntimeError(f"ray '{address}': could not start or join Ray: "
                               f"{type(exc).__name__}: {exc}") from exc
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        remote = ray.remote(play_tasks)
        setup_ref = ray.put(setup)
        batches = _batches(tasks, _batch_size(count, max(1, cpus)))
        pending = [remote.remote(setup_ref, b) for b in islice(batches, max(1, cpus) * 3)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=0.25)
            for ref in done:
                tick(ray.get(ref))
            if stop():
                for ref in pending:
                    ray.cancel(ref, force=True)
                return
            pending += [remote.remote(setup_ref, b) for b in islice(batches, len(done))]
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    setup: DuplicateSetup,
    bots: Sequence[str],
    deals: int,
    *,
    workers: int = 1,
    ray: str | None = None,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> TournamentResult:
    """Play every pairing of ``bots`` on deal pairs ``0 .. deals - 1`` and rate the bots.

    Args:
        setup: rules, players, seed and the other shared settings (``setup.seed`` is the run's
            seed: pass one to reproduce a run).
        bots: two or more distinct ``make_bot`` specs (``"greedy"``, ``"hard:seed=3"``).
        deals: deal pairs per pairing (≥ 1).
        workers: local worker processes (1: play in this process); with ``ray``, the CPUs of a
            local Ray instance (None: all).
        ray: None (no Ray), ``"local"``, ``"auto"`` or a Ray address.
        progress: called with (games done, games in all) as results arrive.
        stop: asked between deal pairs; once it returns True no deal pair is started and the
            result holds those played (``interrupted``; pairings without any are left out).

    Raises:
        ValueError: fewer than two bots, a bot named twice, an unknown bot, ``deals`` < 1,
            ``workers`` < 1, a bad setup (player count, team size).
        RuntimeError: a deal pair failed (a bot's illegal action, a hand that does not end),
            or Ray could not be started or joined.
        ImportError: openskill (or, with ``ray``, Ray) is not installed.
    """
    names = [b.strip() for b in bots if b.strip()]
    if len(names) < 2:
        raise ValueError(f"bots: a tournament needs at least two bots, got {len(names)}")
    twice = sorted({b for b in names if names.count(b) > 1})
    if twice:
        raise ValueError(f"bots: {', '.join(twice)} named more than once")
    for name in names:
        make_bot(name, 0)  # ValueError naming the unknown bot, before any process starts
    if deals < 1:
        raise ValueError(f"deals: play at least one deal pair, not {deals}")
    if workers < 1:
        raise ValueError(f"workers: at least 1, not {workers}")
    setup.check()
    pairing_list = list(combinations(names, 2))
    count = deals * len(pairing_list)
    tasks = _tasks(pairing_list, deals)
    plays_per_pair = len(seatings(setup.sides))
    total = count * plays_per_pair
    asked = stop or (lambda: False)
    results: dict[tuple[int, int], PairResult] = {}

    def tick(batch: list[tuple[int, PairResult]]) -> None:
        for pairing, pair in batch:
            results[(pair.deal, pairing)] = pair
        if progress is not None:
            progress(len(results) * plays_per_pair, total)

    if progress is not None:
        progress(0, total)
    started = time.perf_counter()
    if ray is not None:
        _run_ray(setup, tasks, count, ray, workers if workers > 1 else None, tick, asked)
        where, used = "ray", 0
    else:
        used = min(workers, count)
        _run_local(setup, tasks, count, used, tick, asked)
        where = "this process" if used == 1 else "processes"
    seconds = time.perf_counter() - started
    ordered = [results[key] for key in sorted(results)]
    interrupted = len(results) < count
    by_pairing: dict[int, list[PairResult]] = {}
    for (_, j), p in sorted(results.items()):
        by_pairing.setdefault(j, []).append(p)
    pairings = [PairingResult.of(a, b, by_pairing[i])
                for i, (a, b) in enumerate(pairing_list) if i in by_pairing]
    return TournamentResult(
        bots=names, variant=setup.rules.name, players=setup.players, deals=deals,
        seed=setup.seed, match=setup.match, pairings=pairings,
        ratings=rate_bots(names, ordered), pairs=ordered,
        games=len(results) * plays_per_pair, hands=sum(p.hands for p in ordered),
        seconds=seconds, where=where, processes=used, interrupted=interrupted)


def default_workers() -> int:
    """Local worker processes when none are asked for: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
