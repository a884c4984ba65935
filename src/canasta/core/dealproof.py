"""A deal anyone can check: the shuffle of a hand fixed, and published as a hash, before
anyone plays it.

Each hand is shuffled from a seed of its own, drawn for that hand alone (128 random bits,
as hex): :func:`shuffled_deck` is ``random.Random(f"{seed}:{attempt}").shuffle`` of the
fresh deck (``make_deck``), and :func:`deck_from_seed` deals the first attempt that is no
misdeal (seed 000: the deal is redone when wild cards are turned before a natural). Before
the hand, the server publishes only the *commitment*, ``sha256("canasta-deal-v1:" + seed +
":" + nonce)``, where the nonce is a second secret drawn with the seed; after the hand it
reveals seed and nonce. Anyone then checks (:func:`verify_deal`) that they hash to the
commitment published before the first move, and that the seed shuffles to the deck that was
played: the deal was fixed before anyone played, and nobody, the server included, changed it
afterwards.

A hand's seed says nothing about the next hand's, which is drawn anew (unlike a match's
``seed``, which shuffles every hand of the match and is never revealed).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from canasta.core.cards import make_deck
from canasta.core.rules import Rules
from canasta.core.state import MisdealError, State

__all__ = ["COMMITMENT_TAG", "DealProof", "commitment_of", "deck_from_seed",
           "shuffled_deck", "verify_deal"]

#: What the hashed text begins with: the scheme's name and version.
COMMITMENT_TAG = "canasta-deal-v1"

#: Most deals tried from one seed (canasta.core.match.MAX_REDEALS is the same bound).
MAX_ATTEMPTS = 1000


def commitment_of(seed: str, nonce: str) -> str:
    """The commitment to a hand's deal: ``sha256("canasta-deal-v1:<seed>:<nonce>")`` as 64
    lower-case hex digits."""
    text = f"{COMMITMENT_TAG}:{seed}:{nonce}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class DealProof:
    """The secrets of one hand's deal: ``seed`` (the shuffle) and ``nonce``, each 32 hex
    digits; :attr:`commitment` is what is published before the hand."""

    seed: str
    nonce: str

    @classmethod
    def fresh(cls) -> DealProof:
        """New secrets from the operating system's random source."""
        return cls(secrets.token_hex(16), secrets.token_hex(16))

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed, self.nonce)


def shuffled_deck(rules: Rules, players: int, seed: str, attempt: int = 0) -> list[int]:
    """The deck of ``players`` under ``rules`` shuffled from ``seed`` (top card first);
    ``attempt`` > 0 after that many misdeals."""
    deck = make_deck(rules.packs(players), rules.deal.jokers_per_pack)
    random.Random(f"{seed}:{attempt}").shuffle(deck)
    return deck


def deck_from_seed(rules: Rules, players: int, seed: str, *, dealer: int = 0,
                   scores: Sequence[int] | None = None,
                   team_size: int | None = None) -> tuple[int, ...]:
    """The deck a hand is dealt from with ``seed``: the first attempt that is no misdeal.

    Raises:
        ValueError: a player count the rules do not allow.
        MisdealError: :data:`MAX_ATTEMPTS` misdeals in a row.
    """
    for attempt in range(MAX_ATTEMPTS):
        try:
            state = State.deal(rules, players, deck=shuffled_deck(rules, players, seed, attempt),
                               dealer=dealer, scores=scores, team_size=team_size)
        except MisdealError:
            continue
        return tuple(state.deck)
    raise MisdealError(f"{MAX_ATTEMPTS} misdeals in a row [deal.redeal_after_wild_upcards]")


def verify_deal(rules: Rules, players: int, deck: Sequence[int], *, commitment: str,
                seed: str, nonce: str, dealer: int = 0, scores: Sequence[int] | None = None,
                team_size: int | None = None) -> list[str]:
    """What is wrong with a hand's revealed deal ([] when nothing is): ``seed`` and
    ``nonce`` must hash to ``commitment`` (:func:`commitment_of`) and ``seed`` must shuffle
    to ``deck``, the deck the hand was played from."""
    problems = []
    if commitment_of(seed, nonce) != commitment.lower():
        problems.append("the revealed seed and nonce do not hash to the commitment "
                        "published before the hand")
    try:
        dealt = deck_from_seed(rules, players, seed, dealer=dealer, scores=scores,
                               team_size=team_size)
    except (ValueError, MisdealError) as exc:
        problems.append(f"the revealed seed does not deal: {exc}")
    else:
        if dealt != tuple(deck):
            first = next((i for i, (a, b) in enumerate(zip(dealt, deck, strict=False))
                          if a != b), min(len(dealt), len(deck)))
            problems.append(f"the revealed seed shuffles to another deck (they differ from "
                            f"card {first + 1} on)")
    return problems
