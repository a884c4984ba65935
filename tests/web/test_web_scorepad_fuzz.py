"""Fuzz tests of the scorepad's two readers: the tally of a hand sent to the web scorepad
(``POST /api/scorepads/{id}/hands``, canasta.formats.tally) and the match sheet file of
``canasta score -i --sheet FILE`` (canasta.cli.scorepad). Documents are valid ones with one
value replaced, removed or added at a random place, or random JSON. Both hold to: no server
error (no 500), no traceback, and every refusal names the JSON path of what is wrong.

Bounded for the suite (``CANASTA_FUZZ_EXAMPLES`` examples each, 100 by default).
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from formatkit import cli  # noqa: E402

EXAMPLES = int(os.environ.get("CANASTA_FUZZ_EXAMPLES", "100"))

#: A hand of four players as the scorekeeper types it (tests/web/test_web_scorepad.py).
HAND: dict[str, Any] = {"teams": [
    {"canastas": {"natural": 1}, "melded": {"10": 9, "20": 1}, "red_threes": 1,
     "hands": [{}, "7h"], "penalties": [{"name": "miscount", "difference": 30}]},
    {"melded": {"5": 3}, "hands": [{"50": 1}, {"10": 2}], "red_threes": 0,
     "penalties": []},
], "went_out": {"team": 0, "player": 0}, "concealed": False}

#: A match sheet of two players with one hand (as ``canasta score -i --sheet`` saves it).
SHEET: dict[str, Any] = {
    "format": "canasta-match-sheet", "version": 1, "variant": "international",
    "options": {}, "players": 2, "names": ["A", "B"],
    "hands": [{"teams": [
        {"melds": [["Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "Kd"]], "red_threes": 0,
         "hands": [[]], "went_out": True, "concealed": False, "penalties": []},
        {"melds": [["Qs", "Qh", "Qd"]], "red_threes": 0, "hands": [["4h"]],
         "went_out": False, "concealed": False, "penalties": []}]}]}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)  # JSON has no infinity
    | st.text(max_size=12) | st.sampled_from(["custom", "miscount", "Ks", "JK", "10", "b3"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["name", "teams", "hands", "melded", "10", "x"]),
                      inner, max_size=3),
    max_leaves=8)


def _places(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``doc`` (keys and indexes), the document's own first."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _places(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _places(v, (*path, i))


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """``base`` with one value replaced, removed or given a new key, or random JSON."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    doc = copy.deepcopy(base)
    places = list(_places(doc))[1:]
    path = draw(st.sampled_from(places))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["replace", "remove", "add"]))
    if how == "remove":
        del parent[path[-1]]
    elif how == "add" and isinstance(parent[path[-1]], dict):
        parent[path[-1]][draw(st.text(max_size=6))] = draw(JSON)
    elif how == "add" and isinstance(parent[path[-1]], list):
        parent[path[-1]].append(draw(JSON))
    else:
        parent[path[-1]] = draw(JSON)
    return doc


@pytest.fixture(scope="module")
def pad(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    from starlette.testclient import TestClient

    from canasta.web.app import create_app
    from canasta.web.protocol.limits import ServerLimits
    from canasta.web.storage.store import Store

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('pad') / 'pads.sqlite3'}")
    limits = ServerLimits(seat_burst=10**9, seat_rate=10**9, create_burst=10**9,
                          create_rate=10**9, work_burst=10**9,
                          work_rate=10**9)
    with TestClient(create_app(store=store, bot_delay=3600, limits=limits),
                    raise_server_exceptions=False) as client:
        r = client.post("/api/scorepads", json={"variant": "international", "players": 4})
        assert r.status_code == 201, r.text
        client.headers["X-Scorepad-Key"] = r.json()["key"]  # the keeper's requests
        yield client, r.json()["id"]
    store.dispose()


def test_the_repro_tallies_are_refused_with_their_path(pad: tuple[Any, str]) -> None:
    client, pad_id = pad
    for tally, path in (({"teams": [{"penalties": [[]]}, {}]}, "$.tally.teams[0].penalties[0]"),
                        ({"teams": [{"penalties": [{"name": 3}]}, {}]},
                         "$.tally.teams[0].penalties[0].name"),
                        ({"teams": [{"hands": [{"10": -1}]}, {}]},
                         "$.tally.teams[0].hands[0][\"10\"]")):
        r = client.post(f"/api/scorepads/{pad_id}/hands", json={"tally": tally,
                                                                "preview": True})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "tally" and r.json()["path"] == path, r.json()


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(tally=mutated(HAND), preview=st.booleans())
def test_a_fuzzed_tally_is_scored_or_refused_with_a_path(pad: tuple[Any, str], tally: Any,
                                                         preview: bool) -> None:
    client, pad_id = pad
    r = client.post(f"/api/scorepads/{pad_id}/hands", json={"tally": tally,
                                                            "preview": preview})
    assert r.status_code < 500, r.text
    body = r.json()
    if r.status_code >= 400:
        if body["code"] in ("tally", "table"):
            assert body["path"].startswith("$.tally"), body
        else:  # refused by the request's model: the message names the field
            assert body["code"] == "malformed" and "'tally" in body["message"], body
    elif not preview:  # stored: remove it again, so that the pad stays small
        n = len(body["hands"]) - 1
        assert client.delete(f"/api/scorepads/{pad_id}/hands/{n}").status_code == 200


def test_the_repro_sheet_is_refused_with_its_path(tmp_path: Path) -> None:
    repro = {**SHEET, "hands": [{"teams": [{}, {}, {}]}]}  # ../shared/repro's sheet
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(repro))
    result = cli(["score", "-i", "--sheet", str(path)], "")
    assert result.exit_code == 2 and result.exception is None or \
        isinstance(result.exception, SystemExit)
    assert f"{path}: $.hands[0].teams: expected a list of 2, got 3" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sheet=mutated(SHEET))
def test_a_fuzzed_match_sheet_is_read_or_refused_with_a_path(tmp_path: Path,
                                                              sheet: Any) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet))
    before = path.read_bytes()
    result = cli(["score", "-i", "--sheet", str(path)], "")  # no answers: it stops at once
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code == 2:
        assert f"{path}: " in result.stderr, result.stderr
        assert path.read_bytes() == before  # a refused sheet is left as it was
    else:
        assert result.exit_code in (0, 1), (result.exit_code, result.stdout)
