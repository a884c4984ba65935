"""The Review of a finished hand for the browser: :mod:`canasta.sim.review` over the hand's
stored record, run in the background and asked for again until it is ready.

``GET /api/tables/{id}/hands/{n}/review?seat=S`` starts the review of seat ``S``'s decisions
in hand ``n`` (a finished hand: its record is public, as ``/hands/{n}/record`` is) and answers
``{"type": "review", "status": "running", "done", "total"}`` (decisions searched so far, of
how many; ``total`` null while the record is replayed) until it answers ``{"status": "done",
"review": {...}}``: the JSON of :func:`canasta.sim.review.review_to_json`, each marked
decision with the ``position`` before it (a position document, docs/formats.md, to play on
from with ``canasta play --from``). A review that fails answers ``{"status": "failed",
"message"}``.

Reviews run one at a time per process, in a worker thread (not the engine's pool: a review
takes :attr:`ReviewDesk.budget` seconds per decision, far past the engine's budget per call,
and it reads a stored record, never a live table). Each answer is kept per table, hand and
seat (the :data:`KEEP` most recent); starting one spends the client's ``create`` budget
(:mod:`canasta.web.limits`), asking again is free. Several server processes each review for
the requests they receive.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from canasta.formats.jsondoc import FormatError
from canasta.formats.position import position_to_dict
from canasta.web.protocol.errors import bad

log = logging.getLogger("canasta.web")

__all__ = ["KEEP", "ReviewDesk", "WEB_BUDGET"]

#: Seconds of search per decision of a browser's review (``CANASTA_REVIEW_BUDGET``): a hand of
#: 4 players has about 15 decisions with a choice per seat, of 2 players about 35.
WEB_BUDGET = 0.3
#: Reviews kept (finished or running) per process.
KEEP = 64


@dataclass
class _Job:
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def message(self) -> dict[str, Any]:
        if self.error is not None:
            return {"type": "review", "status": "failed", "message": self.error}
        if self.result is not None:
            return {"type": "review", "status": "done", "review": self.result}
        return {"type": "review", "status": "running", "done": self.done, "total": self.total}


def _budget_from_env() -> float:
    text = os.environ.get("CANASTA_REVIEW_BUDGET")
    if not text:
        return WEB_BUDGET
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"CANASTA_REVIEW_BUDGET must be a number of seconds, not {text!r}"
                         ) from None
    if not value > 0:
        raise ValueError(f"CANASTA_REVIEW_BUDGET must be positive, not {text!r}")
    return value


class ReviewDesk:
    """The reviews of one server process (module docstring).

    Attributes:
        budget: seconds of search per decision.
        iterations: sampled deals per decision instead (tests set it: reproducible).
    """

    def __init__(self, budget: float | None = None, iterations: int | None = None) -> None:
        self.budget = budget if budget is not None else _budget_from_env()
        self.iterations = iterations
        self._jobs: OrderedDict[tuple[str, int, int], _Job] = OrderedDict()
        self._one = asyncio.Semaphore(1)

    def known(self, table_id: str, hand: int, seat: int) -> bool:
        """Is this review started (or done) here?"""
        return (table_id, hand, seat) in self._jobs

    def ask(self, table_id: str, hand: int, seat: int, record: dict[str, Any] | None
            ) -> dict[str, Any]:
        """The review's state; ``record`` (the hand's stored record) starts it when it is
        not known yet.

        Raises:
            WebError: ``malformed``: ``seat`` is not a seat of the record.
        """
        key = (table_id, hand, seat)
        job = self._jobs.get(key)
        if job is None:
            assert record is not None
            players = record.get("players")
            if not isinstance(players, int) or not 0 <= seat < players:
                last = players - 1 if isinstance(players, int) else "?"
                raise bad(f"seat {seat} is not a seat of this table (0 to {last})")
            job = _Job()
            self._jobs[key] = job
            job.task = asyncio.create_task(self._run(job, record, table_id, hand, seat))
            while len(self._jobs) > KEEP:
                old_key, old = next(iter(self._jobs.items()))
                if old.task is not None and not old.task.done():
                    break  # never drop a running review (KEEP bounds the finished ones)
                del self._jobs[old_key]
        else:
            self._jobs.move_to_end(key)
        return job.message()

    async def _run(self, job: _Job, record: dict[str, Any], table_id: str, hand: int,
                   seat: int) -> None:
        async with self._one:
            try:
                job.result = await asyncio.to_thread(self._review, job, record, table_id,
                                                     hand, seat)
            except (FormatError, ValueError) as exc:
                job.error = str(exc)
            except Exception as exc:  # a bug: said, logged, and the server goes on
                log.exception("review of table %s hand %s seat %s", table_id, hand, seat)
                job.error = f"the review failed: {type(exc).__name__}"

    def _review(self, job: _Job, record: dict[str, Any], table_id: str, hand: int,
                seat: int) -> dict[str, Any]:
        from canasta.sim.review import review_record, review_to_json

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        review = review_record(record, f"table {table_id}", seat, hands=[hand],
                               budget=self.budget, iterations=self.iterations, seed=0,
                               progress=progress)
        doc = review_to_json(review)
        for h, raw in zip(review.hands, doc["hands"], strict=True):
            for d, entry in zip(h.decisions, raw["decisions"], strict=True):
                if d.mark is None:
                    entry["position"] = None
                    continue
                position = position_to_dict(d.state)
                position["hand"] = d.hand + 1
                entry["position"] = position
        return doc
