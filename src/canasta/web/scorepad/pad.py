"""The scorepad of a real table: ``/scorepad`` in the browser, kept on the server.

A scorekeeper picks the variant, the house rules and the player count, then types each hand
as a tally (:mod:`canasta.formats.tally`: canastas by kind, red threes, cards by point class or
as cards, who went out and how, penalties). The tally becomes a hand result document and is
scored by :func:`canasta.core.scoring.score_hand`, the code of ``canasta score``; each hand's
document can be downloaded and given to ``canasta score`` as it is. The match is stored in the
server's database (table ``canasta_scorepads``) under a random id. The scorepad belongs to
its keeper: creating it answers a secret ``key`` (only its SHA-256 is stored), and only a
request carrying the key (header ``X-Scorepad-Key``) adds, previews or removes hands. The
keeper's link ``/scorepad/<id>#key=<key>`` reopens it for keeping on any device (the key is in
the fragment, which no request and no Referer carries); the share link ``/scorepad/<id>``
shows the match read-only and follows it as hands are added. A scorepad stored before keys
existed has none, and its link changes it as before.

HTTP API (JSON)::

    POST   /api/scorepads                    {"variant", "options", "players", "team_size",
                                              "names"} -> the pad with its "key" (201)
    GET    /api/scorepads/{id}               the pad: setup, hands with their sheets, totals,
                                              "version" (changes with every change),
                                              "editable" (the request's key is the keeper's)
    POST   /api/scorepads/{id}/hands   (key) {"tally", "preview": bool} -> the pad (or, with
                                              preview, {"sheets"} without storing)
    DELETE /api/scorepads/{id}/hands/{n} (key) remove the last hand (n = its index) -> the pad
    GET    /api/scorepads/{id}/hands/{n}/result   the hand result document (download)

Errors are ``{"type": "error", "code", "message"}``, and for a tally that no table can match
also ``"key"``, ``"values"`` and ``"team"`` (an i18n key of ``scorepad.err.*``), from which the
page writes the message in its own language.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from typing import Any

from sqlalchemy.orm import Session

from canasta.core.match import decide_winner
from canasta.core.rules import Rules, RulesError, load_preset
from canasta.formats.handresult import (
    HandResultError,
    hand_result_from_dict,
    penalty_catalogue,
)
from canasta.formats.meldlayout import BLACK3, canasta_kinds
from canasta.formats.tally import CLASSES, RED3, TallyError, hand_result_of_tally
from canasta.web.dispatch import Context, Dispatcher
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.messages import (
    AddHand,
    CreatePad,
    GetPad,
    HandResult,
    RemoveHand,
)
from canasta.web.storage.store import ScorepadRow, Store, _now

MAX_HANDS = 200
#: scorepads whose answer is kept scored (a read-only page asks again every few seconds)
CACHED_PADS = 128


def hash_key(key: str) -> str:
    """The stored form of a keeper's key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def may_edit(row: ScorepadRow, key: Any) -> bool:
    """Whether ``key`` (the request's ``X-Scorepad-Key``, None without one) keeps ``row``: its
    keeper's key, or any request for a scorepad stored before keys existed."""
    if row.owner_hash is None:
        return True
    return isinstance(key, str) and 0 < len(key) <= 200 and \
        hmac.compare_digest(row.owner_hash, hash_key(key))


class PadError(WebError):
    """A scorepad request refused; nothing stored changes."""

    def __init__(self, code: str, message: str, status: int | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(code, message, status=status, extra=extra)


# -- the match ------------------------------------------------------------------------------
def _rules(variant: Any, options: Any) -> Rules:
    if not isinstance(variant, str):
        raise PadError("malformed", "variant: expected a preset name")
    if options is not None and not isinstance(options, dict):
        raise PadError("malformed", "options: expected an object")
    try:
        return load_preset(variant, {str(k): str(v) for k, v in (options or {}).items()})
    except (RulesError, KeyError, ValueError) as exc:
        raise PadError("bad-rules", str(exc)) from None


def _teams(rules: Rules, players: Any, team_size: Any) -> tuple[tuple[int, ...], ...]:
    if isinstance(players, bool) or not isinstance(players, int) \
            or players not in rules.deal.player_counts:
        counts = ", ".join(map(str, rules.deal.player_counts))
        raise PadError("bad-rules", f"players: {rules.name} is played by {counts}")
    if team_size is not None and (isinstance(team_size, bool) or not isinstance(team_size, int)):
        raise PadError("malformed", "team_size: expected a number")
    try:
        return rules.teams(players, team_size)
    except RulesError as exc:
        raise PadError("bad-rules", str(exc)) from None


def setup(rules: Rules, players: int, team_size: int | None) -> dict[str, Any]:
    """What the page needs to ask for a hand under these rules: the canasta kinds counted
    apart, the point classes, the named penalties (red threes in hand are typed per player),
    the teams (seats) and the target."""
    penalties = [{"name": p.name, "points": p.points, "kind": p.kind}
                 for p in penalty_catalogue(rules).values() if p.kind != "red_three"]
    hand_classes = [*CLASSES]
    if rules.scoring.black_three_in_hand:
        hand_classes.append(BLACK3)
    if rules.red_threes.in_hand_penalty:
        hand_classes.append(RED3)
    melded_classes = [*CLASSES]
    if rules.melds.black_three_meld_going_out or rules.melds.black_threes_out_of_play:
        melded_classes.append(BLACK3)
    return {
        "kinds": canasta_kinds(rules),
        "melded_classes": melded_classes,
        "hand_classes": hand_classes,
        "penalties": penalties,
        "teams": [list(t) for t in rules.teams(players, team_size)],
        "target": rules.target(players),
        "concealed_bonus": bool(rules.going_out.concealed_bonus),
    }


def _sheets(result: dict[str, Any], tally: dict[str, Any]) -> list[dict[str, Any]]:
    """The itemized sheets of a stored hand: scored again from its hand result document, each
    penalty row named by the penalty the scorekeeper chose (``values.penalty``)."""
    hand = hand_result_from_dict(result, "scorepad hand")
    out = []
    for sheet in hand.score():
        chosen = [p if isinstance(p, dict) else {"name": p}
                  for p in tally["teams"][sheet.team].get("penalties", [])]
        items = []
        for item in sheet.coded_items():
            values = dict(item["values"])  # type: ignore[call-overload]
            if item["code"] == "penalty" and chosen:
                p = chosen.pop(0)
                values["penalty"] = p.get("name")
                values["count"] = p.get("count", 1)
                if "difference" in p:
                    values["difference"] = p["difference"]
                if p.get("name") == "custom":
                    values["label"] = str(p.get("label", ""))
            items.append({"code": item["code"], "values": values, "label": item["label"],
                          "points": item["points"]})
        out.append({"team": sheet.team, "items": items, "hand_total": sheet.hand_total,
                    "score_before": sheet.score_before, "score_after": sheet.score_after})
    return out


def _pad_json(row: ScorepadRow) -> dict[str, Any]:
    rules = _rules(row.variant, row.options)
    hands = []
    scores = [0] * len(row.names)
    winner = None
    for n, h in enumerate(row.hands):
        sheets = _sheets(h["result"], h["tally"])
        scores = [s["score_after"] for s in sheets]
        went = h["tally"].get("went_out")
        hands.append({"hand": n, "tally": h["tally"], "sheets": sheets})
        winner = decide_winner(rules, row.players, scores, went["team"] if went else None)
    return {
        "id": row.id, "version": _version(row), "variant": row.variant,
        "options": dict(row.options),
        "players": row.players, "team_size": row.team_size, "names": list(row.names),
        "setup": setup(rules, row.players, row.team_size),
        "hands": hands, "scores": scores, "winner": winner,
    }


def _version(row: ScorepadRow) -> str:
    """What changes with every change of the pad: its hand count and time of change."""
    at = row.updated_at.isoformat() if row.updated_at is not None else ""
    return f"{len(row.hands)}@{at}"


def score_tally(row: ScorepadRow, tally: Any) -> dict[str, Any]:
    """The hand result document of ``tally`` as the next hand of the pad.

    Raises:
        PadError: the tally cannot describe a table (``code`` ``tally``, with the i18n key),
            or the hand result reader refuses it (``code`` ``table``, its message).
    """
    rules = _rules(row.variant, row.options)
    before = _pad_json(row)["scores"] if row.hands else [0] * len(row.names)
    try:
        doc = hand_result_of_tally(rules, row.players, tally, before, row.names, row.options)
        hand_result_from_dict(doc, "scorepad hand")
    except TallyError as exc:
        raise PadError("tally", str(exc), extra={"key": exc.key, "values": exc.values,
                                                 "team": exc.where,
                                                 "path": "$.tally" + exc.path[1:]}) from None
    except HandResultError as exc:
        raise PadError("table", exc.message if hasattr(exc, "message") else str(exc),
                       extra={"detail": str(exc), "path": _tally_path(exc.path)}) from None
    return doc


def _tally_path(path: str) -> str:
    """The place in the request's tally of a fault the hand result reader found at ``path``
    of the document made from it: a penalty is copied as it is (same path); melds and hands
    are cards chosen for the team's counts, so the team is named."""
    team = re.match(r"^\$\.teams\[\d+\]", path)
    if team is None:
        return "$.tally"
    if path.startswith(team.group(0) + ".penalties"):
        return "$.tally" + path[1:]
    return "$.tally" + team.group(0)[1:]


# -- storage --------------------------------------------------------------------------------
class PadStore:
    """Scorepads in the server's database (synchronous; called from a worker thread)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, row: ScorepadRow) -> None:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            s.add(row)
        # the row stays readable after the commit (it is sent back to the page)

    def load(self, pad_id: str) -> ScorepadRow:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(ScorepadRow, pad_id)
            if row is None:
                raise PadError("not-found", "there is no such scorepad", 404)
            s.expunge(row)
            return row

    def set_hands(self, pad_id: str, hands: list[dict[str, Any]], seen: int) -> _dt.datetime:
        """Replace the hands, if the pad still has ``seen`` of them (two phones at once);
        returns the time of the change."""
        with Session(self.engine) as s, s.begin():
            row = s.get(ScorepadRow, pad_id, with_for_update=True)
            if row is None:
                raise PadError("not-found", "there is no such scorepad", 404)
            if len(row.hands) != seen:
                raise PadError("stale", "another device changed this scorepad: reload it", 409)
            row.hands = hands
            row.updated_at = at = _now()
        return at


# -- requests -------------------------------------------------------------------------------
class PadService:
    """The scorepad's requests (:mod:`canasta.web.protocol.messages`), run by the dispatcher."""

    def __init__(self, store: Store) -> None:
        self.pads = PadStore(store)
        # id -> (version, the pad's answer): scored once per change, not per reader
        self._scored: OrderedDict[str, tuple[str, dict[str, Any]]] = OrderedDict()

    def _answer(self, row: ScorepadRow, key: Any) -> dict[str, Any]:
        version = _version(row)
        hit = self._scored.get(row.id)
        if hit is None or hit[0] != version:
            hit = (version, _pad_json(row))
            self._scored[row.id] = hit
            while len(self._scored) > CACHED_PADS:
                self._scored.popitem(last=False)
        self._scored.move_to_end(row.id)
        return {**hit[1], "editable": may_edit(row, key)}

    @staticmethod
    def _keeper(row: ScorepadRow, ctx: Context) -> None:
        if not may_edit(row, ctx.token):
            raise PadError("bad-token", "this link shows the scorepad read-only: only its "
                                        "keeper's link (with the key) changes it")

    def register(self, dispatcher: Dispatcher) -> None:
        dispatcher.register(CreatePad, self.create)
        dispatcher.register(GetPad, self.get)
        dispatcher.register(AddHand, self.add_hand)
        dispatcher.register(RemoveHand, self.remove_hand)
        dispatcher.register(HandResult, self.hand_result)

    async def _load(self, ctx: Context) -> ScorepadRow:
        if ctx.pad_id is None:  # pragma: no cover - a wiring bug
            raise PadError("not-found", "there is no such scorepad", 404)
        return await asyncio.to_thread(self.pads.load, ctx.pad_id)

    async def create(self, req: CreatePad, ctx: Context) -> dict[str, Any]:
        rules = _rules(req.variant, req.options)
        teams = _teams(rules, req.players, req.team_size)
        given = list(req.names or [])  # already without control and bidi characters
        names = [(given[i][:40].strip() if i < len(given) else "") or f"team {i + 1}"
                 for i in range(len(teams))]
        options = {str(k): str(v) for k, v in (req.options or {}).items()}
        key = secrets.token_urlsafe(18)
        row = ScorepadRow(id=secrets.token_urlsafe(12), variant=rules.name,
                          options=options, players=req.players, team_size=req.team_size,
                          names=names, hands=[], created_at=_now(), updated_at=_now(),
                          owner_hash=hash_key(key))
        await asyncio.to_thread(self.pads.create, row)
        return {**self._answer(row, key), "key": key}

    async def get(self, req: GetPad, ctx: Context) -> dict[str, Any]:
        row = await self._load(ctx)
        return self._answer(row, ctx.token)

    async def add_hand(self, req: AddHand, ctx: Context) -> dict[str, Any]:
        row = await self._load(ctx)
        self._keeper(row, ctx)
        if len(row.hands) >= MAX_HANDS:
            raise PadError("not-allowed", f"a scorepad holds at most {MAX_HANDS} hands")
        tally = req.tally
        doc = await asyncio.to_thread(score_tally, row, tally)
        if req.preview:
            return {"sheets": _sheets(doc, tally)}
        seen = len(row.hands)
        row.hands = [*row.hands, {"tally": tally, "result": doc}]
        row.updated_at = await asyncio.to_thread(self.pads.set_hands, row.id, row.hands, seen)
        return self._answer(row, ctx.token)

    def _hand_no(self, n: int, row: ScorepadRow) -> int:
        if not 0 <= n < len(row.hands):
            raise PadError("not-found", "there is no such hand", 404)
        return n

    async def remove_hand(self, req: RemoveHand, ctx: Context) -> dict[str, Any]:
        row = await self._load(ctx)
        self._keeper(row, ctx)
        n = self._hand_no(req.hand, row)
        if n != len(row.hands) - 1:
            raise PadError("not-allowed", "'n': only the last hand can be removed")
        row.updated_at = await asyncio.to_thread(self.pads.set_hands, row.id, row.hands[:-1],
                                                 len(row.hands))
        row.hands = row.hands[:-1]
        return self._answer(row, ctx.token)

    async def hand_result(self, req: HandResult, ctx: Context) -> dict[str, Any]:
        row = await self._load(ctx)
        result: dict[str, Any] = row.hands[self._hand_no(req.hand, row)]["result"]
        return result
