"""``canasta.env.mask.legal_ids``: the ids ``mask.nonzero()[0]`` gives, for every mask the
env hands out and for masks of other dtypes and layouts."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from canasta.env.mask import legal_ids  # noqa: E402
from canasta.env.pettingzoo import env as make_env  # noqa: E402


@given(st.lists(st.booleans(), min_size=0, max_size=300),
       st.sampled_from(["int8", "uint8", "bool", "float32", "int64"]))
def test_legal_ids_equal_nonzero(bits: list[bool], dtype: str) -> None:
    mask = np.array(bits, dtype=dtype)
    ids = legal_ids(mask)
    assert ids.tolist() == mask.nonzero()[0].tolist()


def test_a_strided_mask_is_read_as_it_is() -> None:
    mask = np.array([1, 0, 0, 1, 1, 0, 1, 1], dtype=np.int8)[::2]  # not contiguous
    assert legal_ids(mask).tolist() == [0, 2, 3]


def test_a_mask_of_two_dimensions_is_refused() -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        legal_ids(np.zeros((2, 3), dtype=np.int8))


def test_the_env_masks_give_the_ids_of_the_legal_actions() -> None:
    e = make_env("international", 4)
    e.reset(seed=3)
    rng = random.Random(3)
    for _agent in e.agent_iter(400):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        ids = legal_ids(obs["action_mask"])
        assert ids.tolist() == obs["action_mask"].nonzero()[0].tolist() and len(ids) > 0
        e.step(int(rng.choice(ids)))
