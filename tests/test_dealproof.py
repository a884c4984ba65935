"""A deal anyone can check (canasta.core.dealproof, canasta.formats.dealcheck and
``canasta replay --verify-deal``): the commitment published before a hand binds its seed,
and the seed binds the deck."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import load_preset
from canasta.core.dealproof import (
    DealProof,
    commitment_of,
    deck_from_seed,
    shuffled_deck,
    verify_deal,
)
from canasta.core.match import HandRecord, Match
from canasta.formats.dealcheck import check_deals
from canasta.formats.records import RecordError, check_record, match_to_record
from formatkit import cli

RULES = load_preset("international")


def committed_record(hands: int = 2, seed: int = 3) -> dict[str, Any]:
    """A record whose hands were each dealt from a committed seed, as the server deals."""
    rng = random.Random(seed)
    proofs = [DealProof(f"{rng.getrandbits(128):032x}", f"{rng.getrandbits(128):032x}")
              for _ in range(hands)]
    deck = deck_from_seed(RULES, 4, proofs[0].seed, scores=(0, 0))
    match = Match.resume(RULES, 4, [HandRecord(0, deck, (0, 0))], seed=1)
    for n in range(hands):
        while not match.state.is_over:
            match.apply(rng.choice(match.state.legal_actions()))
        match.finish_hand()
        if n + 1 < hands:
            match.next_hand(deck_from_seed(RULES, 4, proofs[n + 1].seed,
                                           dealer=(match.dealer + 1) % 4,
                                           scores=match.scores))
    record = match_to_record(match, ["Ann", "Bob", "Cy", "Di"])
    for hand, proof in zip(record["hands"], proofs, strict=True):
        hand["deal"] = {"commitment": proof.commitment, "seed": proof.seed,
                        "nonce": proof.nonce}
    return record


def test_the_commitment_is_sha256_of_the_tagged_seed_and_nonce() -> None:
    import hashlib

    assert commitment_of("ab", "cd") == hashlib.sha256(b"canasta-deal-v1:ab:cd").hexdigest()
    assert commitment_of("ab", "cd") != commitment_of("ab", "ce")
    proof = DealProof.fresh()
    assert len(proof.seed) == len(proof.nonce) == 32 and proof.seed != proof.nonce


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=40), st.integers(0, 3))
def test_a_seed_always_deals_the_same_deck(seed: str, dealer: int) -> None:
    deck = deck_from_seed(RULES, 4, seed, dealer=dealer, scores=(0, 0))
    assert deck == deck_from_seed(RULES, 4, seed, dealer=dealer, scores=(0, 0))
    assert sorted(deck) == sorted(shuffled_deck(RULES, 4, seed))
    assert verify_deal(RULES, 4, deck, commitment=commitment_of(seed, "n"), seed=seed,
                       nonce="n", dealer=dealer, scores=(0, 0)) == []


def test_a_wrong_nonce_seed_or_deck_is_caught() -> None:
    proof = DealProof.fresh()
    deck = deck_from_seed(RULES, 4, proof.seed)
    ok = {"commitment": proof.commitment, "seed": proof.seed, "nonce": proof.nonce}
    assert verify_deal(RULES, 4, deck, **ok) == []
    assert "do not hash" in verify_deal(RULES, 4, deck, **{**ok, "nonce": "x"})[0]
    swapped = list(deck)
    swapped[0], swapped[50] = swapped[50], swapped[0]
    problems = verify_deal(RULES, 4, swapped, **ok)
    assert len(problems) == 1 and "another deck" in problems[0]
    other = DealProof.fresh()
    problems = verify_deal(RULES, 4, deck, commitment=other.commitment, seed=other.seed,
                           nonce=other.nonce)
    assert len(problems) == 1 and "another deck" in problems[0]


def test_a_record_with_committed_deals_verifies_and_a_changed_one_does_not() -> None:
    record = committed_record()
    assert check_record(record) == []
    checks = check_deals(record)
    assert [c.verified for c in checks] == [True, True]
    bad = copy.deepcopy(record)
    bad["hands"][1]["deal"]["seed"] = bad["hands"][0]["deal"]["seed"]
    checks = check_deals(bad)
    assert checks[0].verified and not checks[1].verified and len(checks[1].problems) == 2


def test_replay_verify_deal_exits_1_when_a_deal_does_not_verify(tmp_path: Path) -> None:
    record = committed_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = cli(["replay", str(path), "--verify-deal"])
    assert result.exit_code == 0, result.stdout
    assert "2 of 2 deals verified" in result.stdout
    assert record["hands"][0]["deal"]["commitment"] in result.stdout
    record["hands"][0]["deck"][0], record["hands"][0]["deck"][-1] = \
        record["hands"][0]["deck"][-1], record["hands"][0]["deck"][0]
    path.write_text(json.dumps(record))
    result = cli(["replay", str(path), "--verify-deal"])
    assert result.exit_code in (1, 2)  # a changed deck may no longer replay at all
    # a record without commitments verifies nothing
    plain = committed_record()
    for hand in plain["hands"]:
        del hand["deal"]
    path.write_text(json.dumps(plain))
    result = cli(["replay", str(path), "--verify-deal"])
    assert result.exit_code == 1 and "no committed deal" in result.stdout


def test_a_changed_deal_field_is_refused_with_its_path() -> None:
    record = committed_record(hands=1)
    record["hands"][0]["deal"]["extra"] = 1
    with pytest.raises(RecordError, match=r"\$\.hands\[0\]\.deal\.extra"):
        check_record(record)
    del record["hands"][0]["deal"]["extra"]
    record["hands"][0]["deal"]["seed"] = 7
    with pytest.raises(RecordError, match=r"\$\.hands\[0\]\.deal\.seed"):
        check_record(record)
