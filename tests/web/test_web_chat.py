"""The chat at a table (canasta.web.play.chat): preset phrases always, free text where the
host allows it, mute, block and report, over the WebSocket of one test client."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from test_web_api import play_human_turns

from canasta.formats.records import check_record
from canasta.web.play.chat import chat_mode, hears
from canasta.web.protocol.chatmessages import MAX_CHAT, PRESETS
from conftest import create


def tokens(created: dict[str, Any]) -> list[str]:
    return [s["token"] for s in created["seats"]]


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello; the chat's welcome (seated people only), after the first state."""
    ws.send_json({"type": "hello", "token": token, "chat": True})
    return next_of(ws, "chat-welcome") if token else {}


def next_of(ws: Any, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (state messages in between are skipped)."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") in kinds:
            return message
    raise AssertionError(f"no {kinds} message")


def test_a_preset_reaches_the_seated_people_and_free_text_needs_the_host(client: Any) -> None:
    created = create(client, ["human", "human", "bot", "bot"])
    table, (ann, bob, *_) = created["table"], tokens(created)
    assert created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b:
        welcome = hello(a, ann)
        assert welcome["mode"] == "presets" and welcome["presets"] == list(PRESETS)
        assert welcome["max"] == MAX_CHAT and welcome["messages"] == []
        hello(b, bob)
        a.send_json({"type": "chat", "preset": "good_luck"})
        heard = next_of(b, "chat")
        assert (heard["seat"], heard["preset"], heard["name"]) == (0, "good_luck", "human 0")
        assert "text" not in heard and next_of(a, "chat")["id"] == heard["id"]
        # the host chose presets (the default): free text is refused, to the sender only
        a.send_json({"type": "chat", "text": "hi"})
        refused = next_of(a, "error")
        assert refused["code"] == "not-allowed" and "preset phrases only" in refused["message"]
        a.send_json({"type": "chat", "preset": "shout"})
        assert next_of(a, "error")["code"] == "malformed"
    # a new connection is welcomed with what was said
    with client.websocket_connect(f"/ws/{table}") as b:
        assert [m["preset"] for m in hello(b, bob)["messages"]] == ["good_luck"]


def test_free_text_is_cleaned_and_length_limited_and_spectators_hear_nothing(
        client: Any) -> None:
    created = create(client, ["human", "human", "bot", "bot"], chat="free")
    table, (ann, bob, *_) = created["table"], tokens(created)
    assert client.get(f"/api/tables/{table}").json()["settings"]["chat"] == "free"
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b, \
            client.websocket_connect(f"/ws/{table}") as plain, \
            client.websocket_connect(f"/ws/{table}") as watcher:
        assert hello(a, ann)["mode"] == "free"
        hello(b, bob)
        plain.send_json({"type": "hello", "token": bob})  # no "chat": a client of the API
        hello(watcher, None)
        a.send_json({"type": "chat", "text": "  <b>nice</b>\u202e meld\u200b  "})
        heard = next_of(b, "chat")
        # markup stays text (the page never makes it HTML); bidi and zero-width go
        assert heard["text"] == "<b>nice</b> meld"
        a.send_json({"type": "chat", "text": "x" * (MAX_CHAT + 1)})
        refused = next_of(a, "error")
        assert refused["code"] == "malformed" and str(MAX_CHAT) in refused["message"]
        watcher.send_json({"type": "chat", "preset": "hello"})
        assert next_of(watcher, "error")["code"] == "spectator"
        # the spectator's stream, and the one that did not ask for the chat, had state
        # messages only: a ping's answer comes next
        for ws in (watcher, plain):
            ws.send_json({"type": "ping"})
            assert next_of(ws, "pong", "chat", "chat-welcome")["type"] == "pong"
    r = client.post("/api/tables", json={"chat": "loud"})
    assert r.status_code == 400 and "'chat'" in r.json()["message"]


def test_mute_hides_them_from_me_and_block_cuts_both_ways(client: Any) -> None:
    created = create(client, ["human", "human", "human", "bot"])
    table, (ann, bob, cy) = created["table"], tokens(created)[:3]
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b, \
            client.websocket_connect(f"/ws/{table}") as c:
        hello(a, ann), hello(b, bob), hello(c, cy)

        seat_of = {id(a): 0, id(b): 1, id(c): 2}
        seen: dict[int, list[dict[str, Any]]] = {id(a): [], id(b): [], id(c): []}

        def say(ws: Any, preset: str) -> int:
            """Send; wait for the sender's own echo (by then every reader has it queued)
            and keep what came before it for the checks."""
            ws.send_json({"type": "chat", "preset": preset})
            while True:
                m = next_of(ws, "chat")
                if m["seat"] == seat_of[id(ws)] and m["preset"] == preset:
                    return int(m["id"])
                seen[id(ws)].append(m)

        def heard(ws: Any) -> dict[str, Any]:
            return seen[id(ws)].pop(0) if seen[id(ws)] else next_of(ws, "chat")

        b.send_json({"type": "chat-mute", "seat": 0, "mode": "mute"})
        assert next_of(b, "chat-modes")["modes"] == {"0": "mute"}
        say(a, "hello")                      # Bob muted Ann: not for him
        later = say(c, "thanks")
        assert heard(b)["id"] == later
        assert heard(c)["preset"] == "hello"  # Cy hears Ann
        # Ann is not told and still hears Bob
        say(b, "sorry")
        assert [heard(a)["preset"] for _ in range(2)] == ["thanks", "sorry"]
        assert heard(c)["preset"] == "sorry"
        # Ann blocks Cy: neither hears the other
        a.send_json({"type": "chat-mute", "seat": 2, "mode": "block"})
        assert next_of(a, "chat-modes")["modes"] == {"2": "block"}
        say(c, "oops")
        say(a, "bye")
        last = say(b, "good_game")
        assert heard(a)["id"] == last  # not Cy's "oops"
        assert heard(c)["preset"] == "good_game"  # not Ann's "bye"
        a.send_json({"type": "chat-mute", "seat": 0, "mode": "mute"})
        assert next_of(a, "error")["code"] == "malformed"
    # both hold after a reconnection: the welcome's history is filtered the same way
    with client.websocket_connect(f"/ws/{table}") as b:
        welcome = hello(b, bob)
        assert welcome["modes"] == {"0": "mute"}
        assert "hello" not in [m["preset"] for m in welcome["messages"]]
    with client.websocket_connect(f"/ws/{table}") as c:
        assert "bye" not in [m["preset"] for m in hello(c, cy)["messages"]]


def test_the_chat_has_its_own_rate(client: Any) -> None:
    created = create(client, ["human", "bot", "bot", "bot"])
    table, ann = created["table"], tokens(created)[0]
    with client.websocket_connect(f"/ws/{table}") as a:
        hello(a, ann)
        for _ in range(5):
            a.send_json({"type": "chat", "preset": "hurry"})
            assert next_of(a, "chat", "error")["type"] == "chat"
        a.send_json({"type": "chat", "preset": "hurry"})
        refused = next_of(a, "chat", "error")
        assert refused["code"] == "rate-limited" and "chat" in refused["message"]


def test_a_report_is_stored_and_the_record_download_carries_it(client: Any) -> None:
    created = create(client, ["human", "human", "bot", "bot"], chat="free")
    table, (ann, bob, *_) = created["table"], tokens(created)
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b:
        hello(a, ann), hello(b, bob)
        a.send_json({"type": "chat", "text": "you cheat"})
        said = next_of(b, "chat")
        b.send_json({"type": "chat-report", "id": said["id"]})
        assert next_of(b, "chat-reported") == {"type": "chat-reported", "id": said["id"],
                                               "new": True}
        b.send_json({"type": "chat-report", "id": said["id"]})
        assert next_of(b, "chat-reported")["new"] is False
        b.send_json({"type": "chat-report", "id": said["id"] + 99})
        assert next_of(b, "error")["code"] == "not-found"
    # the hand is played out by the API (Bob's seat too), then the record is downloaded
    end = play_human_turns(client, created)
    assert end["match"]["hands"]
    record = client.get(f"/api/tables/{table}/record").json()
    assert check_record(record) == []
    assert [(r["by"], r["message"]["text"], r["message"]["seat"])
            for r in record["reports"]] == [(1, "you cheat", 0)]


def test_rated_and_tournament_tables_take_presets_only() -> None:
    def table(**settings: Any) -> Any:
        return SimpleNamespace(settings=SimpleNamespace(**settings))

    assert chat_mode(table(chat="free")) == "free"
    assert chat_mode(table(chat="presets")) == "presets"
    assert chat_mode(table(chat="free", rated=True)) == "presets"
    assert chat_mode(table(chat="free", tournament="t1")) == "presets"


_SEATS = st.integers(0, 3)


@given(st.dictionaries(_SEATS, st.dictionaries(_SEATS, st.sampled_from(["mute", "block"]))),
       _SEATS, _SEATS)
def test_nobody_hears_whom_they_mute_or_block_and_a_block_stops_mine(
        modes: dict[int, dict[int, str]], sender: int, reader: int) -> None:
    heard = hears(modes, sender, reader)
    if sender == reader:
        assert heard
    elif sender in modes.get(reader, {}) or modes.get(sender, {}).get(reader) == "block":
        assert not heard
    else:
        assert heard
    assert not hears(modes, sender, None)
