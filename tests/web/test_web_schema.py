"""The published OpenAPI schema and the models are one: schemathesis sends the main operations
requests drawn from ``/openapi.json``, valid ones (the positive phase) and ones that break it
(the negative phase).

- No request gets a server error (5xx).
- A request the schema admits is never refused as ``malformed`` (the code of a request that
  breaks the schema); what the schema cannot say is refused with a code of its own that names
  the field: ``bad-rules`` (the variant's rules refuse it), ``bad-bot`` (a bot parameter out of
  its range), ``table`` (the seats of a new table do not fit each other), ``not-found`` (a seat
  the table does not have), ``illegal``, ``stale`` and the others of a real table.
- A request that breaks the schema is refused with a 4xx.

Some requests are aimed at a real table and scorepad, with a real token and version, so that
the valid ones get past "no such table". ``CANASTA_SCHEMA_EXAMPLES`` examples per operation and
phase (15 by default, about 20 s in all).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

schemathesis = pytest.importorskip("schemathesis")

from schemathesis import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import negative_data_rejection  # noqa: E402

from canasta.web.protocol.errors import ERROR_STATUS  # noqa: E402
from canasta.web.protocol.limits import ServerLimits  # noqa: E402
from canasta.web.storage.store import Store  # noqa: E402

EXAMPLES = int(os.environ.get("CANASTA_SCHEMA_EXAMPLES", "15"))
UNLIMITED = ServerLimits(seat_burst=10**9, seat_rate=10**9, create_burst=10**9,
                         create_rate=10**9)
#: A hand of the scorepad, as a tally.
HAND = {"teams": [
    {"canastas": {"natural": 1}, "melded": {"10": 9, "20": 1}, "red_threes": 1,
     "hands": [{}, "7h"], "penalties": []},
    {"melded": {"5": 3}, "hands": [{"50": 1}, {"10": 2}], "red_threes": 0, "penalties": []},
], "went_out": {"team": 0, "player": 0}, "concealed": False}
#: The main operations: creating tables, scorepads and tournaments, and every request of a
#: table, a pad and a tournament.
OPERATIONS = [
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{table_id}"),
    ("POST", "/api/tables/{table_id}/actions"),
    ("POST", "/api/tables/{table_id}/go-out"),
    ("POST", "/api/tables/{table_id}/next-hand"),
    ("POST", "/api/tables/{table_id}/undo"),
    ("POST", "/api/tables/{table_id}/seats/{seat}/bot"),
    ("POST", "/api/tables/{table_id}/seats/{seat}/join"),
    ("POST", "/api/tables/{table_id}/hint"),
    ("POST", "/api/tables/{table_id}/rematch"),
    ("GET", "/api/tables/{table_id}/hands/{hand}/record"),
    ("POST", "/api/scorepads"),
    ("POST", "/api/scorepads/{pad_id}/hands"),
    ("DELETE", "/api/scorepads/{pad_id}/hands/{n}"),
    # the accounts (canasta.web.accounts): without the CSRF cookie every POST is refused as
    # ``csrf`` once its body is read, so these check the bodies and that nothing fails
    ("POST", "/api/accounts/register"),
    ("POST", "/api/accounts/login"),
    ("POST", "/api/accounts/prefs"),
    ("POST", "/api/accounts/password"),
    ("POST", "/api/accounts/tables"),
    ("POST", "/api/accounts/tables/{table_id}/abandon"),
    ("GET", "/api/accounts/tables/{table_id}"),
    ("GET", "/api/leaderboard/{variant}"),
    ("POST", "/api/tournaments"),
    ("GET", "/api/tournaments/{tournament_id}"),
    ("POST", "/api/tournaments/{tournament_id}/join"),
    ("POST", "/api/tournaments/{tournament_id}/start"),
]


class Target:
    """The app, one table of four people (undo and a public seat) and one scorepad."""

    def __init__(self, store: Store) -> None:
        from starlette.testclient import TestClient

        from canasta.web.app import create_app

        self.app = create_app(store=store, bot_delay=3600, away_after=3600, limits=UNLIMITED)
        self.client = TestClient(self.app, raise_server_exceptions=False)
        self.client.__enter__()
        self.app.state.manager.hint_budget = 0.01
        # tournaments drawn with a start time already past are not started here: making
        # 128 tables of each would cost the run minutes
        self.app.state.tournaments.tick = 3600
        r = self.client.post("/api/tables", json={
            "players": 4, "public": True, "undo": True,
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "human"},
                      {"type": "open"}]})
        assert r.status_code == 201, r.text
        self.table = r.json()["table"]
        self.tokens = [s["token"] for s in r.json()["seats"] if s.get("token")]
        r = self.client.post("/api/scorepads", json={"variant": "international", "players": 4})
        assert r.status_code == 201, r.text
        self.pad, self.pad_key = r.json()["id"], r.json()["key"]
        for _ in range(3):  # hands that a DELETE of the last one can remove
            r = self.client.post(f"/api/scorepads/{self.pad}/hands", json={"tally": HAND},
                                 headers={"X-Scorepad-Key": self.pad_key})
            assert r.status_code == 200, r.text
        # the published document, read once (from_asgi would run the app's lifespan again,
        # and its end stops the table manager)
        self.schema = schemathesis.openapi.from_dict(self.client.get("/openapi.json").json())

    @property
    def version(self) -> int:
        return int(self.app.state.manager.tables[self.table].version)

    def aim(self, case: Any, data: st.DataObject) -> None:
        """Point the case at the real table and pad, with a real token and version, and now
        and then a legal move of the seat to act (all of them valid values, so a valid case
        stays valid)."""
        params = case.path_parameters
        if isinstance(params, dict):
            if "table_id" in params and data.draw(st.booleans()):
                params["table_id"] = self.table
            if "pad_id" in params and data.draw(st.booleans()):
                params["pad_id"] = self.pad
                if data.draw(st.booleans()):  # the keeper's key (else read-only)
                    case.headers = {**(case.headers or {}), "X-Scorepad-Key": self.pad_key}
            for key in ("n", "hand"):  # a hand that may exist
                if key in params and data.draw(st.booleans()):
                    params[key] = data.draw(st.integers(0, 3))
        if not isinstance(case.body, dict) or "/api/tables/{table_id}/" not in case.path \
                or case.path.endswith("/join"):
            return
        table = self.app.state.manager.tables[self.table]
        state = table.game.state
        actor = 0 if state.is_over else int(state.actor)
        if data.draw(st.booleans()):
            case.body["token"] = data.draw(st.sampled_from(
                [self.tokens[actor]] * 3 + self.tokens) if actor < len(self.tokens)
                else st.sampled_from(self.tokens))
        if "version" in case.body and data.draw(st.booleans()):
            case.body["version"] = self.version
        if case.path.endswith("/actions") and data.draw(st.booleans()):
            legal = table.payload(actor)["view"].get("legal") or []
            if legal and actor < len(self.tokens):
                case.body.clear()
                case.body.update(token=self.tokens[actor], version=self.version,
                                 action=legal[data.draw(st.integers(0, 999)) % len(legal)])

    def send(self, case: Any) -> Any:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        send: dict[str, Any] = {"headers": kwargs.get("headers"), "params": kwargs.get("params")}
        if "json" in kwargs:
            send["json"] = kwargs["json"]
        elif "data" in kwargs or "content" in kwargs:
            send["content"] = kwargs.get("data", kwargs.get("content"))
        r = self.client.request(kwargs["method"], kwargs["url"], **send)
        what = (case.operation.label, case.path_parameters, case.body)
        assert r.status_code < 500, (what, r.text)
        if r.status_code >= 400:
            body = r.json()
            assert body.get("type") == "error" and body.get("code") in ERROR_STATUS, (what, body)
            assert body["message"], (what, body)
        return r


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """One app for all the operations (the real table moves on as valid moves are played)."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('schema') / 'tables.sqlite3'}")
    t = Target(store)
    yield t
    t.client.__exit__(None, None, None)
    store.dispose()


def run(target: Target, method: str, path: str, mode: Any) -> list[tuple[int, str]]:
    operation = target.schema[path][method]
    seen: list[tuple[int, str]] = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def check(case: Any, data: st.DataObject) -> None:
        if mode == GenerationMode.POSITIVE:
            target.aim(case, data)
        r = target.send(case)
        code = r.json().get("code", "") if r.status_code >= 400 else ""
        seen.append((r.status_code, code))
        if mode == GenerationMode.POSITIVE:
            assert code != "malformed", (
                f"{method} {path}: the schema admits what the server refuses as malformed: "
                f"{case.path_parameters} {case.body!r}: {r.json()['message']}")
        elif r.status_code < 400:
            # an invalid request accepted: schemathesis says whether it really was invalid
            case.validate_response(r, checks=[negative_data_rejection])

    check()
    return seen


@pytest.mark.parametrize("method, path", OPERATIONS)
def test_what_the_schema_admits_is_never_malformed(target: Target, method: str,
                                                   path: str) -> None:
    seen = run(target, method, path, GenerationMode.POSITIVE)
    assert seen


@pytest.mark.parametrize("method, path", OPERATIONS)
def test_what_breaks_the_schema_is_refused(target: Target, method: str, path: str) -> None:
    seen = run(target, method, path, GenerationMode.NEGATIVE)
    assert seen and all(400 <= s < 500 or s < 300 for s, _ in seen)
