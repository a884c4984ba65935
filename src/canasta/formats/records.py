"""Game records: metadata, rules, and per hand the deck order, every action and the score sheet.

A record is JSON (docs/formats.md, "Game record")::

    {"format": "canasta-record", "version": 2, "engine": "0.1.0", "date": "...",
     "variant": "international", "options": {"wild_ratio": "any"}, "rules": {...},
     "players": 4, "team_size": null, "names": ["you", "bot", ...], "seed": 7,
     "hands": [{"dealer": 0, "deck": ["Kh", ...], "scores_before": [0, 0],
                "actions": [[1, "draw"], [1, "discard 5c"], ...],
                "end_reason": "went_out", "sheets": [ScoreSheet.to_dict(), ...]}],
     "scores": [1230, 340], "winner": null}

Version 2 adds the complete ``rules`` (so a record outlives a change of its preset) and hands
that start from a position (``"start": {position}`` instead of ``deck``, written for games begun
with ``canasta play --from``). Version 1 records (no ``rules``, no ``start``) read as before.

The deck order is stored, not only a seed (DESIGN.md: a record outlives a change of RNG and a
real game can be transcribed). Loading replays every action through the engine, so a record
that breaks a rule is refused with the hand and action where it fails.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.core.actions import ActionParseError, parse_action
from canasta.core.cards import card_text
from canasta.core.match import HandRecord, Match
from canasta.core.state import IllegalActionError, MisdealError, State
from canasta.formats.jsondoc import FormatError, Reader, loads, rules_header
from canasta.formats.position import (
    PositionError,
    position_to_dict,
    read_document,
    same_state,
    state_from_dict,
)

FORMAT = "canasta-record"
VERSION = 2
READS = (1, 2)

_TOP_KEYS = frozenset({
    "format", "version", "engine", "date", "variant", "options", "rules", "players",
    "team_size", "names", "seed", "hands", "scores", "winner", "event", "notes", "reports",
})
_HAND_KEYS = frozenset({
    "dealer", "deck", "start", "scores_before", "actions", "end_reason", "sheets", "deal",
    "stand_ins",
})


class RecordError(FormatError):
    """A record is malformed or does not replay; the message names the file and the place
    (the JSON path, or the hand and action that fails)."""

    def __init__(self, source: str, path: str = "", expected: str = "",
                 line: int | None = None) -> None:
        super().__init__(source, path, expected, line)


def _default_team_size(players: int) -> int:
    return {2: 1, 3: 1, 4: 2, 6: 3}.get(players, 1)


# -- writing ----------------------------------------------------------------------------------

def hand_to_json(rec: HandRecord) -> dict[str, Any]:
    """One hand of a record: how it began (deck or start position), its actions (read from
    the hand's events, :attr:`HandRecord.actions`) and sheets."""
    out: dict[str, Any] = {"dealer": rec.dealer}
    if rec.start is not None:
        out["start"] = rec.start
    else:
        out["deck"] = [card_text(c) for c in rec.deck]
    out.update({
        "scores_before": list(rec.scores_before),
        "actions": [[seat, text] for seat, text in rec.actions],
        "end_reason": rec.end_reason,
        "sheets": [s.to_dict() for s in rec.sheets],
    })
    return out


def match_to_record(match: Match, names: list[str] | None = None) -> dict[str, Any]:
    """The JSON record of a match (finished hands and the one in progress).

    A current hand that is over but was not scored yet (played to its end on
    ``match.state``) is scored first (:meth:`Match.finish_hand`), as its replay will be, so
    the record checks.
    """
    from canasta import __version__

    if match.state.is_over and not match.record.sheets:
        match.finish_hand()
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "engine": __version__,
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
    out.update(rules_header(match.rules))
    out.update({
        "players": match.players,
        "team_size": match.team_size,
        "names": names or [f"seat {i}" for i in range(match.players)],
        "seed": match.seed,
        "hands": [hand_to_json(rec) for rec in match.hands],
        "scores": list(match.scores),
        "winner": match.winner,
    })
    return out


def save_record(match: Match, path: str | Path, names: list[str] | None = None) -> None:
    """Write the match record to ``path`` (JSON, UTF-8)."""
    text = json.dumps(match_to_record(match, names), indent=1, ensure_ascii=False) + "\n"
    Path(path).write_text(text, "utf-8")


def match_from_state(state: State, seed: int | None = None) -> Match:
    """A match whose current hand is ``state`` (its scores are the match scores so far).

    When the state holds its deal order and its history replays from it to exactly this
    position, the hand is recorded as dealt (``deck`` and every action); otherwise it is
    recorded as starting from this position (``start``). Later hands are dealt from ``seed``.
    """
    team_size = len(state.teams[0])
    match = Match(state.rules, state.players, seed=seed,
                  team_size=None if team_size == _default_team_size(state.players) else team_size,
                  first_dealer=state.dealer)
    match.hands.clear()
    match.scores = list(state.scores)
    # the hand's actions are the state's (all of them, replayed from the deck; or those played
    # after the position it starts from)
    if _replays_from_deck(state):
        rec = HandRecord(state.dealer, state.deck, tuple(state.scores), state=state)
    else:
        rec = HandRecord(state.dealer, state.deck, tuple(state.scores),
                         start=position_to_dict(state), state=state,
                         first=len(state.actions))
    match.hands.append(rec)
    match.state = state
    match.dealer = state.dealer
    if state.is_over:
        match.finish_hand()
    return match


def _replays_from_deck(state: State) -> bool:
    if not state.deck:
        return False
    try:
        replay = State.deal(state.rules, state.players, deck=state.deck, dealer=state.dealer,
                            scores=state.scores, team_size=len(state.teams[0]))
        for _, action in state.actions:
            replay.apply(action)
    except (ValueError, MisdealError):
        return False
    return same_state(replay, state)


# -- reading ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Step:
    """One point of a replay: after the deal (``action`` -1) or after an action.

    ``match`` is the match being replayed; its ``state`` is the position at this step and
    changes as the replay goes on (copy it with ``state.clone()`` to keep it).
    """

    hand: int
    action: int
    seat: int | None
    text: str
    match: Match


def replay_steps(data: Any, source: str = "record") -> Iterator[Step]:
    """Replay a record step by step: the deal of each hand, then each action.

    Raises:
        RecordError: naming ``source``, the JSON path and what was expected, or the hand and
        action that does not replay; raised when the replay reaches the bad place.
    """
    r = Reader(source, RecordError)
    doc = r.obj(data, "$")
    r.only_keys(doc, _TOP_KEYS, "$")
    if doc.get("format") != FORMAT:
        r.fail("$.format", f"expected \"{FORMAT}\"")
    version = r.int_(r.key(doc, "version", "$"), "$.version", 1)
    if version not in READS:
        r.fail("$.version", f"expected one of {', '.join(map(str, READS))} (this engine reads "
                            f"up to {VERSION}), got {version}")
    rules = r.rules(doc)
    players = r.int_(r.key(doc, "players", "$"), "$.players", 2, 6)
    if players not in rules.deal.player_counts:
        r.fail("$.players", f"{rules.name} is played by "
                            f"{', '.join(map(str, rules.deal.player_counts))} players")
    team_size = doc.get("team_size")
    if team_size is not None:
        team_size = r.int_(team_size, "$.team_size", 1, players)
        if players % team_size:
            r.fail("$.team_size", f"expected a number of players per team that divides "
                                  f"{players}")
    names = doc.get("names")
    if names is not None:
        for i, name in enumerate(r.list_(names, "$.names", length=players)):
            r.str_(name, f"$.names[{i}]")
    seed = doc.get("seed")
    if seed is not None:
        seed = r.int_(seed, "$.seed")
    hands = r.list_(r.key(doc, "hands", "$"), "$.hands")
    if not hands:
        r.fail("$.hands", "expected at least one hand")
    for key in ("scores",):
        if doc.get(key) is not None:
            for i, v in enumerate(r.list_(doc[key], f"$.{key}")):
                r.int_(v, f"$.{key}[{i}]")
    if doc.get("winner") is not None:
        r.int_(doc["winner"], "$.winner", 0)
    first = r.obj(hands[0], "$.hands[0]")
    first_dealer = r.int_(first.get("dealer", 0), "$.hands[0].dealer", 0, players - 1)
    try:
        match = Match(rules, players, seed=seed, team_size=team_size, first_dealer=first_dealer)
    except ValueError as exc:
        r.fail("$", str(exc))
    match.hands.clear()
    for i, raw in enumerate(hands):
        where = f"$.hands[{i}]"
        hand = r.obj(raw, where)
        r.only_keys(hand, _HAND_KEYS, where)
        dealer = r.int_(r.key(hand, "dealer", where), f"{where}.dealer", 0, players - 1)
        for key in ("scores_before",):
            if hand.get(key) is not None:
                for k, v in enumerate(r.list_(hand[key], f"{where}.{key}",
                                              length=len(match.teams))):
                    r.int_(v, f"{where}.{key}[{k}]")
        r.str_(hand.get("end_reason", ""), f"{where}.end_reason")
        for k, sheet in enumerate(r.list_(hand.get("sheets", []), f"{where}.sheets")):
            r.obj(sheet, f"{where}.sheets[{k}]")
        if "deal" in hand:  # the deal's commitment and secrets (canasta.formats.dealcheck)
            deal = r.obj(hand["deal"], f"{where}.deal")
            r.only_keys(deal, frozenset({"commitment", "seed", "nonce"}), f"{where}.deal")
            for key in ("commitment", "seed", "nonce"):
                r.str_(r.key(deal, key, f"{where}.deal"), f"{where}.deal.{key}")
        for k, seat in enumerate(r.list_(hand.get("stand_ins", []), f"{where}.stand_ins")):
            # the seats a bot played for their person in this hand (a server's record)
            r.int_(seat, f"{where}.stand_ins[{k}]", 0, players - 1)
        actions = r.list_(r.key(hand, "actions", where), f"{where}.actions")
        if i > 0:
            if not match.state.is_over:
                r.fail(where, f"hand {i} did not end, yet another hand follows")
            match.finish_hand()
            if match.is_over:
                r.fail(where, f"the match was already over after hand {i}")
        match.dealer = dealer
        if i == 0 and hand.get("scores_before") is not None:
            # A record may begin in the middle of a match (match_from_state).
            match.scores = list(hand["scores_before"])
        if "start" in hand and "deck" in hand:
            r.fail(where, "expected either a deck or a start position, not both")
        if "start" in hand:
            _start_from_position(r, match, hand["start"], f"{where}.start", dealer,
                                 hand.get("scores_before") is not None)
        else:
            deck = r.cards(r.key(hand, "deck", where), f"{where}.deck")
            try:
                match.state = match._deal(deck)
            except ValueError as exc:
                r.fail(f"{where}.deck", str(exc))
            except MisdealError as exc:
                r.fail(f"{where}.deck", f"this deck order is a misdeal: {exc}")
        yield Step(i, -1, None, "", match)
        for k, item in enumerate(actions):
            awhere = f"{where}.actions[{k}]"
            if (not isinstance(item, list) or len(item) != 2 or isinstance(item[0], bool)
                    or not isinstance(item[0], int) or not isinstance(item[1], str)):
                r.fail(awhere, "expected [seat, \"action text\"]")
            seat, text = item
            state = match.state
            if state.is_over:
                r.fail(awhere, "the hand is already over")
            if seat != state.actor:
                r.fail(awhere, f"seat {seat} acts, but it is seat {state.actor}'s turn")
            try:
                match.apply(parse_action(text))
            except (ActionParseError, IllegalActionError) as exc:
                r.fail(awhere, f"'{text[:60]}': {exc}")
            yield Step(i, k, seat, text, match)
    if match.state.is_over:
        match.finish_hand()


def _start_from_position(r: Reader, match: Match, data: Any, where: str, dealer: int,
                         before_given: bool) -> None:
    try:
        state = state_from_dict(data, r.source, where)
    except PositionError as exc:
        raise RecordError(exc.source, exc.path, exc.expected) from None
    if state.rules != match.rules:
        r.fail(f"{where}.rules", "expected the record's rules")
    if state.players != match.players or state.teams != match.teams:
        r.fail(f"{where}.teams", "expected the record's players and teams")
    if state.dealer != dealer:
        r.fail(f"{where}.dealer", f"expected the hand's dealer {dealer}")
    if match.hands and state.scores != match.scores:
        r.fail(f"{where}.scores", f"expected the match scores {match.scores}")
    if not match.hands and state.scores != match.scores and before_given:
        r.fail(f"{where}.scores", f"expected the hand's scores_before {match.scores}")
    match.scores = list(state.scores)
    match.hands.append(HandRecord(state.dealer, state.deck, tuple(state.scores), start=data,
                                  state=state, first=len(state.actions)))
    match.state = state


def record_to_match(data: Any, source: str = "record") -> Match:
    """Rebuild a match by replaying a record; the current hand is left where the record stops.

    Raises:
        RecordError: naming ``source``, the JSON path and what was expected, or the hand and
        action that does not replay. Nothing is returned on an error.
    """
    match: Match | None = None
    for step in replay_steps(data, source):
        match = step.match
    assert match is not None  # replay_steps yields at least the first deal
    return match


def check_record(data: Any, source: str = "record") -> list[str]:
    """Replay a record and compare every recorded score sheet (and the recorded scores before
    each hand, the final scores and the winner) with the engine's.

    Returns:
        The mismatches, one line each (empty when the record checks).

    Raises:
        RecordError: the record is malformed or does not replay.
    """
    match = record_to_match(data, source)
    problems = []
    for i, (rec, hand) in enumerate(zip(match.hands, data["hands"], strict=True)):
        before = hand.get("scores_before")
        if before is not None and list(before) != list(rec.scores_before):
            problems.append(f"hand {i + 1}: recorded scores before {before}, replayed "
                            f"{list(rec.scores_before)}")
        recorded = hand.get("sheets") or []
        replayed = [s.to_dict() for s in rec.sheets]
        if recorded and not rec.sheets:
            problems.append(f"hand {i + 1}: score sheets recorded, but the hand is not over")
            continue
        if recorded and len(recorded) != len(replayed):
            problems.append(f"hand {i + 1}: {len(recorded)} score sheets recorded, "
                            f"{len(replayed)} replayed")
            continue
        for r_sheet, p_sheet in zip(recorded, replayed, strict=False):
            if r_sheet != p_sheet:
                problems.append(
                    f"hand {i + 1}, team {p_sheet['team']}: recorded "
                    f"{r_sheet.get('hand_total')} (total {r_sheet.get('score_after')}), "
                    f"replayed {p_sheet['hand_total']} (total {p_sheet['score_after']})"
                    + _first_difference(r_sheet, p_sheet)
                )
        end = hand.get("end_reason")
        if end and rec.end_reason and end != rec.end_reason:
            problems.append(f"hand {i + 1}: recorded end '{end}', replayed '{rec.end_reason}'")
    scores = data.get("scores")
    if scores is not None and list(scores) != match.scores:
        problems.append(f"final scores: recorded {scores}, replayed {match.scores}")
    if "winner" in data and data.get("scores") is not None and data["winner"] != match.winner:
        problems.append(f"winner: recorded {data['winner']}, replayed {match.winner}")
    return problems


def _first_difference(recorded: dict[str, Any], replayed: dict[str, Any]) -> str:
    r_items = recorded.get("items")
    p_items = replayed.get("items", [])
    if not isinstance(r_items, list):
        return ""
    for k, p in enumerate(p_items):
        if k >= len(r_items) or r_items[k] != p:
            got = r_items[k] if k < len(r_items) else "nothing"
            return f"; first difference at item {k + 1}: recorded {got}, replayed {p}"
    if len(r_items) > len(p_items):
        return f"; recorded extra item {r_items[len(p_items)]}"
    return ""


def read_record(path: str | Path) -> tuple[Any, str]:
    """Read a record file (``-`` for standard input) as JSON data, with the name errors use.

    Raises:
        RecordError: unreadable file or bad JSON (with line and column).
    """
    import sys

    name = str(path)
    if name == "-":
        return loads(sys.stdin.read(), "<stdin>", RecordError), "<stdin>"
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise RecordError(name, "$", f"cannot read the file: {why}") from None
    return loads(text, name, RecordError), name


def load_record(path: str | Path) -> tuple[Match, dict[str, Any]]:
    """Read and replay a record file.

    Raises:
        RecordError: unreadable file, bad JSON (with line and column) or a bad record.
    """
    data, name = read_record(path)
    return record_to_match(data, name), data


def record_state_at(data: Any, source: str, hand: int | None = None,
                    action: int | None = None) -> State:
    """The position of a record after action ``action`` (0-based; -1: just after the deal;
    None: the last) of hand ``hand`` (0-based; None: the last hand).

    Raises:
        RecordError: a bad record, or no such hand or action.
    """
    n_hands = len(data["hands"]) if isinstance(data, dict) and isinstance(
        data.get("hands"), list) else 0
    if hand is not None and not 0 <= hand < n_hands:
        raise RecordError(source, "$.hands", f"no hand {hand + 1}: the record has {n_hands}")
    last: State | None = None
    target_hand = n_hands - 1 if hand is None else hand
    for step in replay_steps(data, source):
        if step.hand > target_hand:
            break
        if step.hand == target_hand:
            last = step.match.state  # one object per hand, changed in place by each action
            if action is not None and step.action == action:
                return last.clone()
    if last is None:
        raise RecordError(source, "$.hands", f"no hand {target_hand + 1}")
    if action is not None:
        raise RecordError(source, f"$.hands[{target_hand}].actions",
                          f"no action {action + 1} in hand {target_hand + 1}")
    return last.clone()


def load_position(path: str | Path) -> State:
    """The state saved in ``path``: a position file, or a game record (then the position where
    the record stops: the current hand, or the last one when it is over).

    This is what ``canasta play --from FILE`` starts from.

    Raises:
        FormatError: a :class:`PositionError` or :class:`RecordError` that names the file,
        the JSON path and what was expected.
    """
    data, name = read_document(path)
    return state_from_document(data, name)


def state_from_document(data: Any, source: str) -> State:
    """A position document's state, or the current state of a game record."""
    if isinstance(data, dict) and data.get("format") == "canasta-record":
        return record_to_match(data, source).state
    return state_from_dict(data, source)
