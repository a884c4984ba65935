"""The offline table's engine side (canasta.offline): the match against bots that the page
runs in Pyodide, and the bundle of pure-Python sources it loads. Here on CPython; the page
itself and the golden transcripts in Pyodide are in tests/web/test_web_offline.py."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

from canasta.core.cards import card_text
from canasta.core.rules import PRESETS
from canasta.offline.bundle import bundle, bundle_hash
from canasta.offline.table import MAX_TURN_ACTIONS, LocalTable, OfflineError, variants


def play_hand(table: LocalTable, pick: int = -1, limit: int = 3000) -> dict:
    """Play the current hand to its end: the person takes the move at ``pick``."""
    snap = table.snapshot()
    for _ in range(limit):
        if snap["hand_over"]:
            return snap
        if snap["your_turn"]:
            discards = [m for m in snap["moves"] if m["kind"] == "Discard"]
            move = discards[0] if discards else snap["moves"][pick]
            snap = table.play(move["text"])
            assert not snap["error"], snap["error"]
        else:
            snap = table.step()
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant", PRESETS)
def test_a_hand_against_bots_ends_scored_in_every_variant(variant: str) -> None:
    table = LocalTable(variant, 4, "easy", seed=5)
    snap = play_hand(table)
    assert snap["hand_over"] and snap["moves"] == [] and snap["actor"] is None
    sheets = snap["sheets"]
    assert [s["team"] for s in sheets] == list(range(len(snap["teams"])))
    for sheet in sheets:
        assert sum(i["points"] for i in sheet["items"]) == sheet["hand_total"]
    assert snap["scores"] == [s["score_after"] for s in sheets]
    assert json.loads(table.snapshot_json())["scores"] == snap["scores"]


def test_the_next_hand_is_dealt_and_the_match_goes_on() -> None:
    table = LocalTable("international", 2, "easy", seed=9)
    first = play_hand(table)
    with pytest.raises(OfflineError, match="the hand is over"):
        table.play("draw")
    snap = table.next_hand()
    assert snap["hand_number"] == 2 and not snap["hand_over"]
    assert snap["scores"] == first["scores"]
    with pytest.raises(OfflineError, match="not over"):
        table.next_hand()


class _OnlyTheView:
    """A hand that answers nothing but seat 0's view and whether it is over."""

    def __init__(self, state: object) -> None:
        self._state = state

    @property
    def is_over(self) -> bool:
        return self._state.is_over  # type: ignore[attr-defined]

    def view(self, seat: int) -> object:
        assert seat == 0, f"the snapshot read seat {seat}'s view"
        return self._state.view(0)  # type: ignore[attr-defined]


class _MatchWithOnlyTheView:
    """The table's match, but its hand is :class:`_OnlyTheView` (a stand-in object, which the
    compiled core would not take as a Match's state)."""

    def __init__(self, match: object) -> None:
        self._match = match
        self.state = _OnlyTheView(match.state)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._match, name)


def test_a_snapshot_reads_the_hand_only_through_seat_0s_view() -> None:
    table = LocalTable("canastone", 3, "medium", seed=3)
    for _ in range(7):
        table.step() if not table.snapshot()["your_turn"] else table.play("draw")
    expected = table.snapshot()
    view = table.match.state.view(0)
    assert expected["hand"] == [card_text(c) for c in view.hand]
    table.match = _MatchWithOnlyTheView(table.match)  # type: ignore[assignment]
    assert table.snapshot() == expected


def test_a_refused_move_names_the_rule_and_changes_nothing() -> None:
    table = LocalTable("international", 4, "easy", seed=1, lang="it")
    while not table.snapshot()["your_turn"]:
        table.step()
    before = table.snapshot()
    card = before["hand"][0]
    after = table.play(f"discard {card}")  # a discard before drawing
    assert after["error"].startswith("Non consentito")
    assert {k: v for k, v in after.items() if k != "error"} == \
        {k: v for k, v in before.items() if k != "error"}
    assert table.play("no such move")["error"]


def test_it_refuses_a_move_out_of_turn_and_unknown_settings() -> None:
    table = LocalTable("international", 4, "easy", seed=2)
    if table.snapshot()["your_turn"]:
        table.play("draw")
        while table.snapshot()["your_turn"]:
            table.play(next(m for m in table.snapshot()["moves"]
                            if m["kind"] == "Discard")["text"])
    with pytest.raises(OfflineError, match="not your turn"):
        table.play("draw")
    with pytest.raises(OfflineError, match="unknown variant"):
        LocalTable("gin_rummy")
    with pytest.raises(OfflineError, match="unknown bot level"):
        LocalTable(level="expert")
    with pytest.raises(OfflineError, match="not 6"):
        LocalTable("romanian", 6)
    with pytest.raises(OfflineError, match="unknown language"):
        LocalTable(lang="xx")


def test_a_turn_of_endless_melds_and_retracts_is_capped(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    table = LocalTable("international", 4, "easy", seed=4)
    while not table.snapshot()["your_turn"]:
        table.step()
    assert table._turn_actions() == 0
    table.play("draw")
    assert table._turn_actions() == 1
    before = table.snapshot()
    monkeypatch.setattr(table, "_turn_actions", lambda: MAX_TURN_ACTIONS)
    move = before["moves"][0]["text"]
    after = table.play(move)
    assert after["error"] == "Not allowed now."
    assert after["hand"] == before["hand"] and after["moves"] == before["moves"]


def test_the_score_rows_name_the_seats() -> None:
    table = LocalTable("international", 4, "easy", seed=5)
    snap = play_hand(table)
    rows = [i["text"] for s in snap["sheets"] for i in s["items"]]
    in_hand = [r for r in rows if r.startswith("Cards left in hand")]
    assert in_hand and all(any(n in r for n in snap["names"]) for r in in_hand)


def test_variants_list_every_preset_with_its_player_counts() -> None:
    listed = variants("it")
    assert [v["name"] for v in listed] == list(PRESETS)
    romanian = next(v for v in listed if v["name"] == "romanian")
    assert romanian["label"] == "Canasta rumena" and romanian["players"] == [2, 3, 4]


def test_the_bundle_holds_sources_only_and_is_deterministic() -> None:
    data = bundle()
    names = zipfile.ZipFile(BytesIO(data)).namelist()
    assert "canasta/offline/table.py" in names and "canasta/core/state.py" in names
    assert "canasta/core/presets/international.json" in names or any(
        n.startswith("canasta/core/presets/") for n in names)
    assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc", ".c"))]
    assert not [n for n in names if n.startswith(("canasta/web/", "canasta/cli/"))]
    assert len(bundle_hash()) == 16


def test_the_bundle_plays_on_its_own_from_the_zip(tmp_path: Path) -> None:
    # the page's situation: nothing but the bundle's sources (zipimport here, Pyodide there)
    path = tmp_path / "canasta.zip"
    path.write_bytes(bundle())
    code = (
        "import os, sys; os.environ['CANASTA_PURE'] = '1'; sys.path.insert(0, sys.argv[1])\n"
        "import canasta, canasta.core\n"
        "assert canasta.__file__.startswith(sys.argv[1]), canasta.__file__\n"
        "assert not canasta.core.COMPILED\n"
        "from canasta.offline.table import LocalTable\n"
        "t = LocalTable('brazilian', 2, 'hard', seed=1)\n"
        "s = t.snapshot()\n"
        "for _ in range(3000):\n"
        "    if s['hand_over']: break\n"
        "    if s['your_turn']:\n"
        "        d = [m for m in s['moves'] if m['kind'] == 'Discard']\n"
        "        s = t.play((d or s['moves'])[0]['text'])\n"
        "    else: s = t.step()\n"
        "print(s['hand_over'], len(s['sheets']))\n")
    out = subprocess.run([sys.executable, "-I", "-c", code, str(path)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "2"]
