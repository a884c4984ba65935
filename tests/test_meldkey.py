"""Meld keys have names: the wild meld, the ranks and the sequence canastas (seed 003,
Canastra Real: "una sequenza naturale di sette carte tutte dello stesso seme"), asked through
:mod:`canasta.core.meldkey` instead of compared with 0 and 100."""

from __future__ import annotations

import pytest

from canasta.core.cards import WILD_RANK, parse_card, parse_rank, rank_text
from canasta.core.meldkey import (
    RUN_KEY,
    WILD_KEY,
    is_rank_key,
    is_run_key,
    is_wild_key,
    run_key,
    run_number,
)
from canasta.core.melds import SEQUENCE_KEY, meld_key


def test_the_keys_name_their_melds() -> None:
    assert WILD_RANK == WILD_KEY == parse_rank("W") and SEQUENCE_KEY == RUN_KEY
    assert is_wild_key(WILD_KEY) and not is_rank_key(WILD_KEY) and not is_run_key(WILD_KEY)
    assert all(is_rank_key(k) and not is_run_key(k) for k in range(1, 14))
    assert [run_number(run_key(i)) for i in range(3)] == [1, 2, 3]
    assert rank_text(run_key(1)) == "run 2" and rank_text(WILD_KEY) == "W"
    with pytest.raises(ValueError, match="not a sequence"):
        run_number(13)


def test_meld_key_gives_each_sequence_its_own_key() -> None:
    run = [parse_card(t) for t in "Ah Kh Qh Jh 10h 9h 8h".split()]
    first = meld_key({}, run)
    assert is_run_key(first) and run_number(first) == 1
    assert run_number(meld_key({first: run}, run)) == 2
    assert is_wild_key(meld_key({}, [parse_card("JK"), parse_card("2c")]))
    assert meld_key({}, [parse_card("Kc"), parse_card("2c")]) == 13
