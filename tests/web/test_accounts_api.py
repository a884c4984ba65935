"""Optional accounts over the HTTP API (canasta.web.accounts): register, sign in and out,
preferences, a password change, delete with everything of the account; cookies and CSRF;
sign-in attempts limited; rated tables against bots, their settlement, the leaderboard and
the history."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from canasta.web.accounts.anchors import anchor_of
from canasta.web.accounts.service import LOGIN_BURST
from canasta.web.storage.accounts import (
    AccountMatchRow,
    AccountRow,
    RatingRow,
    SessionRow,
)

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id at a test's cost (one pass over 64 KiB): the server's own cost takes a
    second per hash on a loaded 2-core machine, and these tests hash dozens."""
    from argon2 import PasswordHasher

    import canasta.web.accounts.service as service

    monkeypatch.setattr(service, "HASHER", PasswordHasher(time_cost=1, memory_cost=64,
                                                          parallelism=1))


def https(client: Any) -> Any:
    """The client over https: the cookies are Secure, and a browser (and httpx) sends them
    only there."""
    client.base_url = "https://testserver"
    return client


def csrf(client: Any) -> dict[str, str]:
    r = client.get("/api/accounts/me")
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def register(client: Any, name: str = "Ann", password: str = PASSWORD,
             **extra: Any) -> dict[str, Any]:
    r = client.post("/api/accounts/register", json={"name": name, "password": password,
                                                     **extra}, headers=csrf(client))
    assert r.status_code == 201, r.text
    return r.json()["account"]


def rated_vs_bots(client: Any, players: int = 2, level: str = "easy") -> dict[str, Any]:
    seats = [{"type": "human"}] + [{"type": "bot", "level": level}] * (players - 1)
    r = client.post("/api/accounts/tables", json={"players": players, "seats": seats},
                    headers=csrf(client))
    assert r.status_code == 201, r.text
    return r.json()


def count(client: Any, row: Any) -> int:
    with Session(client.store.engine) as s:
        return int(s.scalar(select(func.count()).select_from(row)) or 0)


def end_match(client: Any, table_id: str, winner: int) -> None:
    """The end of the match, set directly (a whole match takes minutes): the team
    ``winner`` has won, and the database says the match is over."""
    table = client.manager.tables[table_id]
    table.game.match.winner = winner
    table.status = "over"
    with client.store.engine.begin() as c:
        c.execute(text("UPDATE canasta_tables SET status = 'over' WHERE id = :t"),
                  {"t": table_id})


# -- accounts ------------------------------------------------------------------------------
def test_register_signs_in_with_secure_httponly_cookies(client: Any) -> None:
    https(client)
    assert client.get("/api/accounts/me").json()["account"] is None
    headers = csrf(client)
    r = client.post("/api/accounts/register", json={"name": "Ann", "password": PASSWORD},
                    headers=headers)
    assert r.status_code == 201
    cookie = r.headers["set-cookie"].lower()
    assert "canasta_session=" in cookie and "httponly" in cookie and "secure" in cookie
    assert "samesite=lax" in cookie
    me = client.get("/api/accounts/me")
    assert me.json()["account"]["name"] == "Ann"
    csrf_cookie = [v for v in me.headers.get_list("set-cookie") if "canasta_csrf" in v][0]
    assert "httponly" not in csrf_cookie.lower() and "samesite=strict" in csrf_cookie.lower()
    # only an argon2id hash of the password is stored
    with Session(client.store.engine) as s:
        stored = s.scalar(select(AccountRow.password_hash))
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_plain_http_to_a_loopback_host_drops_only_the_secure_flag(client: Any) -> None:
    client.base_url = "http://127.0.0.1"
    r = client.get("/api/accounts/me")
    assert "secure" not in r.headers["set-cookie"].lower()
    client.base_url = "http://example.org"
    assert "secure" in client.get("/api/accounts/me").headers["set-cookie"].lower()


def test_posts_without_the_csrf_token_are_refused(client: Any) -> None:
    https(client)
    body = {"name": "Ann", "password": PASSWORD}
    assert client.post("/api/accounts/register", json=body).json()["code"] == "csrf"
    csrf(client)  # the cookie is there, but no header
    r = client.post("/api/accounts/register", json=body, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    assert count(client, AccountRow) == 0


def test_a_name_is_one_account_whatever_its_case(client: Any) -> None:
    https(client)
    register(client, "Ann Lee")
    r = client.post("/api/accounts/register", json={"name": "ann lee", "password": PASSWORD},
                    headers=csrf(client))
    assert r.status_code == 409 and r.json()["code"] == "name-taken"


@pytest.mark.parametrize("body, field", [
    ({"name": " Ann", "password": PASSWORD}, "name"),
    ({"name": "Ann", "password": "short"}, "password"),
    ({"name": "A<script>", "password": PASSWORD}, "name"),
    ({"name": "Ann", "password": PASSWORD, "admin": True}, "admin"),
    ({"name": "x" * 41, "password": PASSWORD}, "name"),
])
def test_malformed_registrations_name_the_field(client: Any, body: dict[str, Any],
                                                field: str) -> None:
    https(client)
    r = client.post("/api/accounts/register", json=body, headers=csrf(client))
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    assert field in r.json()["message"]


def test_sign_out_and_in_again_and_a_wrong_password_says_nothing_more(client: Any) -> None:
    https(client)
    register(client)
    old = client.cookies.get("canasta_session")
    assert client.post("/api/accounts/logout", headers=csrf(client)).status_code == 200
    assert client.get("/api/accounts/me").json()["account"] is None
    assert count(client, SessionRow) == 0  # the sign-in is gone on the server too
    client.cookies.set("canasta_session", old, domain="testserver.local")
    wrong = client.post("/api/accounts/login", json={"name": "Ann", "password": "x" * 9},
                        headers=csrf(client))
    nobody = client.post("/api/accounts/login", json={"name": "Nobody", "password": "x" * 9},
                         headers=csrf(client))
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()
    r = client.post("/api/accounts/login", json={"name": "ANN", "password": PASSWORD},
                    headers=csrf(client))
    assert r.status_code == 200 and r.json()["account"]["name"] == "Ann"


def test_sign_in_attempts_are_rate_limited_per_name(client: Any) -> None:
    https(client)
    register(client)
    headers = csrf(client)
    codes = [client.post("/api/accounts/login", json={"name": "Ann", "password": "guess" * 2},
                         headers=headers).status_code for _ in range(LOGIN_BURST + 1)]
    assert codes[:LOGIN_BURST] == [401] * LOGIN_BURST and codes[-1] == 429
    r = client.post("/api/accounts/login", json={"name": "Ann", "password": PASSWORD},
                    headers=headers)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1  # even the right one


NEW_PASSWORD = "another long secret"


def change_password(client: Any, password: str = PASSWORD,
                    new_password: str = NEW_PASSWORD, **headers: str) -> Any:
    return client.post("/api/accounts/password", json={
        "password": password, "new_password": new_password},
        headers=headers or csrf(client))


def stored_hash(client: Any) -> str:
    with Session(client.store.engine) as s:
        return str(s.scalar(select(AccountRow.password_hash)))


def test_a_password_change_rehashes_and_signs_out_every_other_sign_in(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from argon2 import PasswordHasher

    import canasta.web.accounts.service as service

    https(client)
    register(client)
    phone = client.cookies.get("canasta_session")  # a sign-in on another device
    client.post("/api/accounts/login", json={"name": "Ann", "password": PASSWORD},
                headers=csrf(client))
    laptop = client.cookies.get("canasta_session")
    assert phone != laptop and count(client, SessionRow) == 2
    before = stored_hash(client)
    # the server's cost has risen since Ann registered: the new hash is at the new cost
    monkeypatch.setattr(service, "HASHER", PasswordHasher(time_cost=2, memory_cost=128,
                                                          parallelism=1))
    assert service.HASHER.check_needs_rehash(before)
    r = change_password(client)
    assert r.status_code == 200 and r.json()["account"]["name"] == "Ann"
    cookie = r.headers["set-cookie"].lower()
    assert "canasta_session=" in cookie and "httponly" in cookie and "secure" in cookie
    now = client.cookies.get("canasta_session")
    assert now not in (phone, laptop)
    after = stored_hash(client)
    assert after.startswith("$argon2id$") and after != before
    assert NEW_PASSWORD not in after and not service.HASHER.check_needs_rehash(after)
    # this browser stays signed in with its new sign-in; both old ones are ended
    assert client.get("/api/accounts/me").json()["account"]["name"] == "Ann"
    assert count(client, SessionRow) == 1
    for old in (phone, laptop):
        client.cookies.set("canasta_session", old, domain="testserver.local")
        assert client.get("/api/accounts/me").json()["account"] is None
    # the old password opens nothing; the new one does
    wrong = client.post("/api/accounts/login", json={"name": "Ann", "password": PASSWORD},
                        headers=csrf(client))
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad-login"
    right = client.post("/api/accounts/login", json={"name": "Ann",
                                                     "password": NEW_PASSWORD},
                        headers=csrf(client))
    assert right.status_code == 200


def test_a_password_change_needs_the_current_password_a_session_and_the_csrf_token(
        client: Any) -> None:
    https(client)
    register(client)
    before, sessions = stored_hash(client), count(client, SessionRow)
    r = change_password(client, **{"X-CSRF-Token": "forged"})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = change_password(client, password="not the password")
    assert r.status_code == 401 and r.json()["code"] == "bad-login"
    assert "set-cookie" not in r.headers or "canasta_session" not in r.headers["set-cookie"]
    r = change_password(client, new_password="short")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    assert "new_password" in r.json()["message"]
    r = client.post("/api/accounts/password", json={"new_password": NEW_PASSWORD},
                    headers=csrf(client))
    assert r.status_code == 400 and "password" in r.json()["message"]
    assert stored_hash(client) == before and count(client, SessionRow) == sessions
    assert client.get("/api/accounts/me").json()["account"]["name"] == "Ann"
    client.post("/api/accounts/logout", headers=csrf(client))
    r = change_password(client)
    assert r.status_code == 401 and r.json()["code"] == "not-signed-in"
    assert stored_hash(client) == before


def test_guesses_at_the_current_password_are_rate_limited_like_sign_ins(client: Any) -> None:
    https(client)
    register(client)
    headers = csrf(client)
    codes = [change_password(client, password="guess" * 2, **headers).status_code
             for _ in range(LOGIN_BURST + 1)]
    assert codes[:LOGIN_BURST] == [401] * LOGIN_BURST and codes[-1] == 429
    r = change_password(client, **headers)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1  # even the right one


def test_preferences_are_kept(client: Any) -> None:
    https(client)
    register(client, prefs={"lang": "it"})
    assert client.get("/api/accounts/me").json()["account"]["prefs"]["lang"] == "it"
    r = client.post("/api/accounts/prefs", json={"lang": "pt", "four_colour": True,
                                                 "sort": "suit"}, headers=csrf(client))
    assert r.json()["account"]["prefs"] == {"lang": "pt", "four_colour": True, "sort": "suit"}
    bad = client.post("/api/accounts/prefs", json={"sort": "colour"}, headers=csrf(client))
    assert bad.status_code == 400 and "sort" in bad.json()["message"]


def test_signed_out_requests_are_refused(client: Any) -> None:
    https(client)
    r = client.post("/api/accounts/prefs", json={}, headers=csrf(client))
    assert r.status_code == 401 and r.json()["code"] == "not-signed-in"
    r = client.post("/api/accounts/tables", json={}, headers=csrf(client))
    assert r.status_code == 401


# -- rated tables --------------------------------------------------------------------------
def test_abandoning_a_rated_match_is_a_loss_on_the_leaderboard(any_client: Any) -> None:
    client = https(any_client)
    register(client)
    created = rated_vs_bots(client)
    table, token = created["table"], created["seats"][0]["token"]
    assert created["rated"] and created["seats"][0]["name"] == "Ann"
    info = client.get(f"/api/accounts/tables/{table}").json()
    assert info["status"] == "playing" and info["seats"][0]["account"] == "Ann"
    r = client.post(f"/api/accounts/tables/{table}/abandon", json={"token": token},
                    headers=csrf(client))
    assert r.status_code == 200 and r.json()["status"] == "settled"
    # nobody else plays on: no bot takes the seat to play a table of bots to its end
    assert client.manager.tables[table].seats[0].controller == "human"
    board = client.get("/api/leaderboard/international").json()
    [ann] = board["players"]
    assert ann["name"] == "Ann" and ann["losses"] == 1 and ann["rating"] < 1500
    assert ann["provisional"]
    assert {b["level"] for b in board["bots"]} == {"easy", "medium", "hard", "expert"}
    [match] = client.get("/api/accounts/me").json()["account"]["history"]
    assert match["result"] == "loss" and match["abandoned"] and match["rated"]
    assert match["record"] == f"/api/tables/{table}/record"
    # once settled, a second abandon changes nothing
    again = client.post(f"/api/accounts/tables/{table}/abandon", json={"token": token},
                        headers=csrf(client))
    assert again.status_code == 409


def test_beating_an_anchor_raises_the_rating_and_the_bot_stays_put(client: Any) -> None:
    https(client)
    register(client)
    table = rated_vs_bots(client, level="easy")["table"]
    end_match(client, table, winner=0)
    before_anchor = anchor_of("easy", "international")
    info = client.get(f"/api/accounts/tables/{table}").json()
    assert info["status"] == "settled" and info["reason"] == "match over"
    [ann] = client.get("/api/leaderboard/international").json()["players"]
    assert ann["wins"] == 1 and ann["rating"] > 1500
    assert anchor_of("easy", "international") == before_anchor
    # settled once: reading again moves nothing
    assert client.get("/api/leaderboard/international").json()["players"] == [ann]


def test_a_person_without_an_account_voids_the_rated_match(client: Any) -> None:
    https(client)
    register(client)
    r = client.post("/api/accounts/tables", json={
        "players": 4, "seats": [{"type": "human"}, {"type": "bot"}, {"type": "human"},
                                {"type": "bot"}]}, headers=csrf(client))
    table = r.json()["table"]
    end_match(client, table, winner=0)
    info = client.get(f"/api/accounts/tables/{table}").json()
    assert info["status"] == "void" and "seat 2" in info["reason"]
    assert count(client, RatingRow) == 0


def test_a_second_person_claims_their_seat_with_their_link(client: Any) -> None:
    https(client)
    register(client)
    r = client.post("/api/accounts/tables", json={
        "players": 4, "seats": [{"type": "human"}, {"type": "bot"}, {"type": "human"},
                                {"type": "bot"}]}, headers=csrf(client))
    created = r.json()
    table, theirs = created["table"], created["seats"][2]["token"]
    # Ann cannot take a second seat; Bea can take hers, and only once
    r = client.post(f"/api/accounts/tables/{table}/claim", json={"token": theirs},
                    headers=csrf(client))
    assert r.status_code == 409
    client.post("/api/accounts/logout", headers=csrf(client))
    register(client, "Bea")
    r = client.post(f"/api/accounts/tables/{table}/claim", json={"token": theirs},
                    headers=csrf(client))
    assert r.status_code == 200
    assert [s["account"] for s in r.json()["seats"]] == ["Ann", None, "Bea", None]
    # her seat takes her account's name, for every view and in the database
    names = [s["name"] for s in client.get(f"/api/tables/{table}").json()["seats"]]
    assert names[0] == "Ann" and names[2] == "Bea"
    assert [s.name for s in client.store.load(table).seats][2] == "Bea"
    bad = client.post(f"/api/accounts/tables/{table}/claim", json={"token": "nope"},
                      headers=csrf(client))
    assert bad.status_code == 403 and bad.json()["code"] == "bad-token"
    end_match(client, table, winner=1)
    assert client.get(f"/api/accounts/tables/{table}").json()["status"] == "settled"
    board = client.get("/api/leaderboard/international").json()["players"]
    assert {p["name"]: p["losses"] for p in board} == {"Ann": 1, "Bea": 1}


def test_a_rated_table_takes_no_house_rules_and_needs_a_person(client: Any) -> None:
    https(client)
    register(client)
    r = client.post("/api/accounts/tables", json={"options": {"end.target": 50}},
                    headers=csrf(client))
    assert r.status_code == 400 and "options" in r.json()["message"]
    r = client.post("/api/accounts/tables", json={"players": 2, "seats": [
        {"type": "bot"}, {"type": "bot"}]}, headers=csrf(client))
    assert r.status_code == 400 and r.json()["code"] == "table"
    made = rated_vs_bots(client)
    settings = client.get(f"/api/tables/{made['table']}").json()["settings"]
    assert settings["hints"] is False and settings["undo"] is False


def test_an_unrated_table_joins_the_history_when_its_person_signs_in(client: Any) -> None:
    https(client)
    register(client)
    r = client.post("/api/tables", json={"players": 2, "seats": [{"type": "human"},
                                                                  {"type": "bot"}]})
    table, token = r.json()["table"], r.json()["seats"][0]["token"]
    r = client.post(f"/api/accounts/tables/{table}/claim", json={"token": token},
                    headers=csrf(client))
    assert r.status_code == 200 and r.json()["rated"] is False
    [match] = client.get("/api/accounts/me").json()["account"]["history"]
    assert match["table"] == table and not match["rated"]


def test_deleting_an_account_deletes_its_data(any_client: Any) -> None:
    client = https(any_client)
    register(client)
    created = rated_vs_bots(client)
    client.post(f"/api/accounts/tables/{created['table']}/abandon",
                json={"token": created["seats"][0]["token"]}, headers=csrf(client))
    assert count(client, RatingRow) == 1
    wrong = client.post("/api/accounts/delete", json={"password": "not it at all"},
                        headers=csrf(client))
    assert wrong.status_code == 401 and count(client, AccountRow) == 1
    r = client.post("/api/accounts/delete", json={"password": PASSWORD},
                    headers=csrf(client))
    assert r.status_code == 200
    for row in (AccountRow, SessionRow, RatingRow, AccountMatchRow):
        assert count(client, row) == 0, row.__tablename__
    assert client.get("/api/accounts/me").json()["account"] is None
    assert client.get("/api/leaderboard/international").json()["players"] == []
    register(client)  # the name is free again


def test_the_leaderboard_of_an_unknown_variant_is_not_found(client: Any) -> None:
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["code"] == "not-found"
    assert client.get("/leaderboard/international").status_code == 200
    assert client.get("/account").status_code == 200


def test_two_processes_settle_a_rated_match_once(store: Any) -> None:
    """Two servers on one database (two engines here) that both see the match end: the
    ratings move once, whichever gets there first."""
    import threading

    from canasta.web.accounts.glicko import Rating, update
    from canasta.web.accounts.store import AccountStore
    from canasta.web.storage.store import Store

    other = Store(store.url, schema=store.schema)
    mine, theirs = AccountStore(store), AccountStore(other)
    ann = mine.create("Ann", "not a real hash", {})
    mine.add_rated_table("tbl1", "international")
    assert mine.claim(ann.id, "tbl1", 0, "international", True)
    bot = Rating(1500, 40)

    def compute(people: dict[str, Rating]) -> Any:
        before = people.get(ann.id, Rating())
        return "settled", "match over", {ann.id: ("win", before, update(before, [(bot, 1)]))}

    start = threading.Barrier(2)
    done: list[Any] = []

    def settle(accounts: AccountStore) -> None:
        start.wait()
        done.append(accounts.settle("tbl1", compute))

    threads = [threading.Thread(target=settle, args=(s,)) for s in (mine, theirs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    other.dispose()
    assert sorted(d is None for d in done) == [False, True]
    [row] = mine.leaderboard("international")
    assert row["wins"] == 1 and row["rating"] > 1500
    assert mine.rated_table("tbl1").status == "settled"  # type: ignore[union-attr]


def test_a_rated_match_left_for_a_day_is_a_loss_for_whoever_left(client: Any) -> None:
    from conftest import view, wait_for

    https(client)
    register(client)
    created = rated_vs_bots(client)
    table, token = created["table"], created["seats"][0]["token"]
    # the bot has played up to Ann's turn; then nothing moves (nobody is connected)
    wait_for(lambda: view(client, table, token)["view"]["actor"] == 0, what="Ann's turn")
    assert client.get("/api/leaderboard/international").json()["players"] == []
    with client.store.engine.begin() as c:  # a day and a minute later
        c.execute(text("UPDATE canasta_tables SET updated_at = :t WHERE id = :id"),
                  {"t": "2000-01-01 00:00:00", "id": table})
    [ann] = client.get("/api/leaderboard/international").json()["players"]
    assert ann["losses"] == 1
    info = client.get(f"/api/accounts/tables/{table}").json()
    assert info["status"] == "settled" and info["reason"] == "abandoned at seat 0"
