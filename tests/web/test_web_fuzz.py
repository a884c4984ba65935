"""Fuzz tests of the table server's edges: schemathesis drives every operation of
the served OpenAPI schema (valid and invalid requests), Hypothesis drives the WebSocket
(random and malformed frames, messages of the right shape with wrong values, legal moves at
wrong versions). Both hold to: no server error (no 5xx, no dropped connection, no
``server-error`` message), every refusal in the error shape with the status of its code, and
no state change from a refused request: the version and every state message of a real table
(each seat's and the spectator's) are the same after it.

Bounded for the suite (``CANASTA_FUZZ_EXAMPLES`` examples each, 100 by default, on SQLite
and on PostgreSQL); a longer run prints figures:
``python tests/web/test_web_fuzz.py --examples 2000``.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

schemathesis = pytest.importorskip("schemathesis")

from canasta.core.cards import NUM_CODES, card_text  # noqa: E402
from canasta.web.protocol.errors import ERROR_STATUS  # noqa: E402
from canasta.web.protocol.fields import ACTION_TYPES  # noqa: E402
from canasta.web.protocol.limits import ServerLimits  # noqa: E402
from canasta.web.protocol.messages import MESSAGE_TYPES  # noqa: E402
from canasta.web.storage.store import Store  # noqa: E402
from conftest import BACKENDS, make_store, steady  # noqa: E402

EXAMPLES = int(os.environ.get("CANASTA_FUZZ_EXAMPLES", "100"))
UNLIMITED = ServerLimits(seat_burst=10**9, seat_rate=10**9, create_burst=10**9,
                         create_rate=10**9, work_burst=10**9,
                         work_rate=10**9)


class Fuzzed:
    """An app (bots and clocks that never move on their own), one all-human table and one
    scorepad that requests may hit, and the tally of what came back."""

    def __init__(self, store: Store) -> None:
        from starlette.testclient import TestClient

        from canasta.web.app import create_app

        self.store = store
        self.app = create_app(store=self.store, bot_delay=3600, away_after=3600,
                              limits=UNLIMITED)
        self.client = TestClient(self.app, raise_server_exceptions=False)
        self.client.__enter__()
        self.manager = self.app.state.manager
        self.manager.hint_budget = 0.01
        r = self.client.post("/api/tables", json={
            "players": 4, "seats": [{"type": "human", "name": f"P{i}"} for i in range(4)],
            "undo": True})
        assert r.status_code == 201, r.text
        self.table = r.json()["table"]
        self.tokens = [s["token"] for s in r.json()["seats"]]
        r = self.client.post("/api/scorepads", json={"variant": "international",
                                                     "players": 4})
        assert r.status_code == 201, r.text
        self.pad = r.json()["id"]
        self.statuses: collections.Counter[tuple[str, int]] = collections.Counter()
        self.before = self.snapshot()

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def snapshot(self) -> tuple[Any, ...]:
        """The real table's version and every state message of it (read between requests,
        while the server's loop is idle)."""
        table = self.manager.tables[self.table]
        pad = self.client.get(f"/api/scorepads/{self.pad}").json()
        return table.version, [steady(table.payload(s)) for s in (None, 0, 1, 2, 3)], pad

    def sender(self) -> int:
        """The seat to act (seat 0 once the hand is over)."""
        state = self.manager.tables[self.table].game.state
        return 0 if state.is_over else int(state.actor)

    @property
    def version(self) -> int:
        return int(self.manager.tables[self.table].version)

    def check_error(self, body: Any, status: int | None = None) -> None:
        assert isinstance(body, dict) and body.get("type") == "error", body
        assert body["code"] != "server-error", body
        assert body["code"] in ERROR_STATUS and body["message"], body
        if status is not None:
            assert ERROR_STATUS[body["code"]] == status, (status, body)

    def after(self, refused: bool, what: Any) -> None:
        """A refused request changed nothing; an accepted one is the new starting point."""
        now = self.snapshot()
        if refused:
            assert now == self.before, f"a refused request changed the table: {what!r}"
        self.before = now


@pytest.fixture(params=BACKENDS)
def fuzzed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Fuzzed]:
    """On SQLite and on PostgreSQL (which refuses some strings SQLite keeps)."""
    store = make_store(request.param, tmp_path)
    f = Fuzzed(store)
    yield f
    f.close()
    if request.param == "sqlite":
        store.dispose()
    else:
        store.drop_schema()


# -- HTTP: the OpenAPI schema, by schemathesis -----------------------------------------------
def http_cases(f: Fuzzed) -> st.SearchStrategy[Any]:
    schema = schemathesis.openapi.from_asgi("/openapi.json", f.app)
    return st.one_of(schema.as_strategy(schemathesis.GenerationMode.POSITIVE),
                     schema.as_strategy(schemathesis.GenerationMode.NEGATIVE))


def aim(case: Any, f: Fuzzed, data: st.DataObject) -> None:
    """Point some cases at the real table and scorepad, with a real token and version."""
    params = case.path_parameters
    if isinstance(params, dict):
        if "table_id" in params and data.draw(st.booleans()):
            params["table_id"] = f.table
        if "pad_id" in params and data.draw(st.booleans()):
            params["pad_id"] = f.pad
    if isinstance(case.body, dict):
        if data.draw(st.booleans()):
            case.body["token"] = data.draw(st.sampled_from(f.tokens))
        if "version" in case.body and data.draw(st.booleans()):
            case.body["version"] = f.version
    if case.method.upper() == "GET" and isinstance(case.headers, dict) and data.draw(
            st.booleans()):
        case.headers["Authorization"] = f"Bearer {data.draw(st.sampled_from(f.tokens))}"


def http_call(f: Fuzzed, case: Any) -> None:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    send: dict[str, Any] = {"headers": kwargs.get("headers"), "params": kwargs.get("params")}
    if "json" in kwargs:
        send["json"] = kwargs["json"]
    elif "data" in kwargs or "content" in kwargs:
        send["content"] = kwargs.get("data", kwargs.get("content"))
    try:
        r = f.client.request(kwargs["method"], kwargs["url"], **send)
    except (UnicodeError, ValueError, TypeError) as exc:  # the client cannot send it
        assume(False)
        raise AssertionError from exc  # pragma: no cover
    label = case.operation.label
    f.statuses[(label, r.status_code)] += 1
    assert r.status_code < 500, (label, kwargs, r.text)
    if r.status_code >= 400:
        f.check_error(r.json(), r.status_code)
    f.after(r.status_code >= 400, (label, kwargs))


def run_http(f: Fuzzed, examples: int) -> None:
    strategy = http_cases(f)

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy, data=st.data())
    def fuzz(case: Any, data: st.DataObject) -> None:
        aim(case, f, data)
        http_call(f, case)

    fuzz()


def test_the_openapi_schema_is_served_with_the_websocket_messages(client: Any) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    ops = {(m.upper(), path) for path, item in doc["paths"].items() for m in item}
    assert ("POST", "/api/tables/{table_id}/actions") in ops
    assert ("DELETE", "/api/scorepads/{pad_id}/hands/{n}") in ops
    # 22 of the tables and scorepads, 12 of the accounts, 5 of the tournaments
    assert len(ops) == 39
    schemas = doc["components"]["schemas"]
    assert {"Hello", "ClientMessage", "ServerMessage", "ErrorMessage", "MoveBody"} <= set(schemas)
    # validation failures are 400 malformed here, never FastAPI's 422
    assert "HTTPValidationError" not in json.dumps(doc)


def test_schemathesis_finds_no_server_error_and_refusals_change_nothing(
        fuzzed: Fuzzed) -> None:
    run_http(fuzzed, EXAMPLES)
    codes = {status for (_, status) in fuzzed.statuses}
    assert any(s < 300 for s in codes) and 400 in codes  # both kinds were reached


# -- the WebSocket, by Hypothesis ------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10)
INTS = st.integers(-3, 12) | st.integers(-(2**70), 2**70) | st.sampled_from([2**31, 2**63])
CARDS = st.sampled_from([card_text(c) for c in range(NUM_CODES)] + ["Zz", "10x", "", "JKK"])
ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from((*ACTION_TYPES, "fly", ""))},
    optional={"cards": st.lists(CARDS, max_size=4) | JSON, "card": CARDS | JSON,
              "rank": st.sampled_from(["9", "K", "10", "X", ""]) | JSON,
              "yes": st.booleans() | JSON, "text": st.text(max_size=8), "why": JSON})
SHAPED = st.fixed_dictionaries(
    {"type": st.sampled_from((*MESSAGE_TYPES, "hello", "dance", "", "PING"))},
    optional={"version": INTS | JSON, "action": ACTION | JSON,
              "text": st.sampled_from(["draw", "discard 5h", "meld 9s 9d JK", "take-pile",
                                       "fly away", "retract", "answer yes"]) | st.text(),
              "seat": INTS | JSON, "level": st.sampled_from(["easy", "genius", "hard:depth=3",
                                                            ""]) | JSON,
              "token": st.text(max_size=30) | JSON, "colour": JSON})


def frames(f: Fuzzed) -> st.SearchStrategy[tuple[str, Any]]:
    """A frame: ("text", str) or ("bytes", bytes)."""

    @st.composite
    def legal(draw: st.DrawFn) -> tuple[str, Any]:
        """A legal action of the seat to act, at the right version or a wrong one."""
        # what is drawn does not depend on the table (Hypothesis replays draws): an index
        # into the legal moves, an offset from the version
        index = draw(st.integers(0, 1000))
        offset = draw(st.sampled_from([0, 0, 1, -1]))
        kind = draw(st.sampled_from(["action", "action", "go-out", "undo", "next-hand"]))
        payload = f.manager.tables[f.table].payload(f.sender())
        moves = payload["view"].get("legal") or [{"type": "draw"}]
        msg: dict[str, Any] = {"type": kind, "version": max(0, payload["version"] + offset)}
        if kind == "action":
            msg["action"] = moves[index % len(moves)]
        return "text", json.dumps(msg)

    nested = st.integers(17, 3000).map(lambda d: ("text", "[" * d + "]" * d))
    return st.one_of(
        SHAPED.map(lambda m: ("text", json.dumps(m))),
        JSON.map(lambda v: ("text", json.dumps(v))),
        st.text(max_size=40).map(lambda t: ("text", t)),
        st.binary(max_size=40).map(lambda b: ("bytes", b)),
        nested,
        st.integers(16_400, 20_000).map(lambda n: ("text", json.dumps({"type": "ping",
                                                                      "pad": "x" * n}))),
        legal(), legal(), legal(),  # more of these: they reach the engine and change the table
    )


def ws_exchange(ws: Any, frame: tuple[str, Any], n: int) -> list[dict[str, Any]]:
    """Send ``frame``, then a marker that the server refuses by name; return what came back
    before the marker's refusal (the connection is alive when the marker comes back)."""
    kind, value = frame
    if kind == "bytes":
        ws.send_bytes(value)
    else:
        ws.send_text(value)
    marker = f"marker-{n}"
    ws.send_text(json.dumps({"type": marker}))
    out = []
    while True:
        msg = ws.receive_json()
        if msg.get("type") == "error" and marker in msg.get("message", ""):
            return out
        out.append(msg)


def run_ws(f: Fuzzed, examples: int, tally: collections.Counter[str] | None = None) -> None:
    """One connection per seat; each frame goes from the seat to act (seat 0 between hands),
    so that legal moves go on being legal as the turn passes."""
    counter = [0]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(f.client.websocket_connect(f"/ws/{f.table}"))
                   for _ in range(4)]
        for seat, ws in enumerate(sockets):
            ws.send_json({"type": "hello", "token": f.tokens[seat]})
            assert ws.receive_json()["type"] == "state"
        f.before = f.snapshot()
        strategy = frames(f)

        @settings(max_examples=examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(frame=strategy)
        def fuzz(frame: tuple[str, Any]) -> None:
            counter[0] += 1
            # the others' state messages wait in their queues; a later exchange reads them
            got = ws_exchange(sockets[f.sender()], frame, counter[0])
            errors = [m for m in got if m.get("type") == "error"]
            for m in errors:
                f.check_error(m)
            if tally is not None:
                tally[errors[0]["code"] if errors else "accepted"] += 1
            f.after(bool(errors), frame)

        fuzz()


def test_hypothesis_on_the_websocket_finds_no_server_error_and_refusals_change_nothing(
        fuzzed: Fuzzed) -> None:
    tally: collections.Counter[str] = collections.Counter()
    run_ws(fuzzed, EXAMPLES, tally)
    assert tally["malformed"] > 0 and sum(tally.values()) > 0


# -- a longer run that prints figures ---------------------------------------------------------
def main(argv: list[str]) -> None:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--examples", type=int, default=2000)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        f = Fuzzed(Store(f"sqlite:///{Path(tmp) / 'fuzz.sqlite3'}"))
        t0 = time.perf_counter()
        run_http(f, args.examples)
        t1 = time.perf_counter()
        tally: collections.Counter[str] = collections.Counter()
        run_ws(f, args.examples, tally)
        t2 = time.perf_counter()
        f.close()
        f.store.dispose()
    print(f"HTTP: {sum(f.statuses.values())} requests in {t1 - t0:.1f} s, "
          f"5xx: {sum(n for (_, s), n in f.statuses.items() if s >= 500)}")
    for (label, status), n in sorted(f.statuses.items()):
        print(f"  {label:50} {status}  {n}")
    print(f"WebSocket: {sum(tally.values())} frames in {t2 - t1:.1f} s, "
          f"server errors: {tally['server-error']}")
    for code, n in tally.most_common():
        print(f"  {code:20} {n}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main(sys.argv[1:])
