"""Checking the deals of a game record: each hand that carries a ``deal`` (the commitment
published before it, and the seed and nonce revealed after it, canasta.core.dealproof) is
confirmed to hash to its commitment and to shuffle to the deck the hand was played from.
``canasta replay RECORD --verify-deal`` prints what this finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta.core.dealproof import verify_deal
from canasta.formats.records import record_to_match

__all__ = ["DealCheck", "check_deals"]


@dataclass(frozen=True)
class DealCheck:
    """One hand's deal: ``hand`` (0 = the first), ``commitment`` (None: the hand carries no
    committed deal, so there is nothing to verify) and what is wrong (``problems``, empty
    when the deal verifies)."""

    hand: int
    commitment: str | None
    problems: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        return self.commitment is not None and not self.problems


def check_deals(data: Any, source: str = "record") -> list[DealCheck]:
    """The deal of every hand of a record, checked.

    Raises:
        canasta.formats.records.RecordError: the record is malformed or does not replay.
    """
    match = record_to_match(data, source)
    out = []
    for i, (rec, hand) in enumerate(zip(match.hands, data["hands"], strict=False)):
        deal = hand.get("deal")
        if not isinstance(deal, dict):
            out.append(DealCheck(i, None))
            continue
        if rec.start is not None:
            out.append(DealCheck(i, deal["commitment"],
                                 ("the hand starts from a position, not from a deal",)))
            continue
        problems = verify_deal(match.rules, match.players, rec.deck,
                               commitment=deal["commitment"], seed=deal["seed"],
                               nonce=deal["nonce"], dealer=rec.dealer,
                               scores=rec.scores_before, team_size=match.team_size)
        out.append(DealCheck(i, deal["commitment"], tuple(problems)))
    return out
