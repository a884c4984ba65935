"""Game records: metadata, rules, and per hand the deck order, every action and the score sheet.

A record is JSON (docs/formats.md)::

    {"format": "canasta-record", "version": 1, "engine": "0.1.0", "date": "...",
     "variant": "international", "options": {"wild_ratio": "any"}, "players": 4,
     "team_size": null, "names": ["you", "bot", ...], "seed": 7,
     "hands": [{"dealer": 0, "deck": ["Kh", ...], "scores_before": [0, 0],
                "actions": [[1, "draw"], [1, "discard 5c"], ...],
                "end_reason": "went_out", "sheets": [ScoreSheet.to_dict(), ...]}],
     "scores": [1230, 340], "winner": null}

The deck order is stored, not only a seed (DESIGN.md: a record outlives a change of RNG and a
real game can be transcribed). Loading replays every action through the engine, so a record
that breaks a rule is refused with the hand and action where it fails.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

from .actions import ActionParseError, parse_action
from .cards import CardParseError, card_text, parse_card
from .engine import IllegalActionError
from .match import Match
from .rules import RulesError, load_preset

FORMAT = "canasta-record"
VERSION = 1


class RecordError(ValueError):
    """A record is malformed or does not replay; the message names the file and the place."""


def match_to_record(match: Match, names: list[str] | None = None) -> dict[str, Any]:
    """The JSON record of a match (finished hands and the one in progress)."""
    from . import __version__

    rules = match.rules
    hands = []
    for rec in match.hands:
        hands.append({
            "dealer": rec.dealer,
            "deck": [card_text(c) for c in rec.deck],
            "scores_before": list(rec.scores_before),
            "actions": [[seat, text] for seat, text in rec.actions],
            "end_reason": rec.end_reason,
            "sheets": [s.to_dict() for s in rec.sheets],
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "engine": __version__,
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "variant": rules.name,
        "options": dict(rules.options),
        "players": match.players,
        "team_size": match.team_size,
        "names": names or [f"seat {i}" for i in range(match.players)],
        "seed": match.seed,
        "hands": hands,
        "scores": list(match.scores),
        "winner": match.winner,
    }


def _get(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise RecordError(f"{where}: missing key '{key}'")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, "
                          f"got {type(value).__name__}")
    return value


def record_to_match(data: Any, source: str = "record") -> Match:
    """Rebuild a match by replaying a record; the current hand is left where the record stops.

    Raises:
        RecordError: naming ``source``, the JSON path and what was expected, or the hand and
        action that does not replay.
    """
    if not isinstance(data, dict):
        raise RecordError(f"{source}: expected a JSON object at the top")
    if data.get("format") != FORMAT:
        raise RecordError(f"{source}: $.format must be '{FORMAT}'")
    version = _get(data, "version", int, f"{source}: $")
    if version > VERSION:
        raise RecordError(f"{source}: $.version {version} is newer than this engine reads "
                          f"({VERSION})")
    variant = _get(data, "variant", str, f"{source}: $")
    options = _get(data, "options", dict, f"{source}: $")
    players = _get(data, "players", int, f"{source}: $")
    team_size = data.get("team_size")
    try:
        rules = load_preset(variant, options)
    except RulesError as exc:
        raise RecordError(f"{source}: $.options: {exc}") from None
    hands = _get(data, "hands", list, f"{source}: $")
    if not hands:
        raise RecordError(f"{source}: $.hands: a record has at least one hand")
    first = hands[0]
    try:
        match = Match(rules, players, seed=data.get("seed"), team_size=team_size,
                      first_dealer=_get(first, "dealer", int, f"{source}: $.hands[0]"))
    except ValueError as exc:
        raise RecordError(f"{source}: $: {exc}") from None
    match.hands.clear()
    for i, hand in enumerate(hands):
        where = f"{source}: $.hands[{i}]"
        deck_text = _get(hand, "deck", list, where)
        try:
            deck = [parse_card(str(t), j + 1) for j, t in enumerate(deck_text)]
        except CardParseError as exc:
            raise RecordError(f"{where}.deck: {exc}") from None
        if i > 0:
            if not match.state.is_over:
                raise RecordError(f"{where}: the previous hand did not end")
            match.finish_hand()
            if match.is_over:
                raise RecordError(f"{where}: the match was already over")
            match.dealer = _get(hand, "dealer", int, where)
        try:
            match.state = match._deal(deck)
        except ValueError as exc:
            raise RecordError(f"{where}.deck: {exc}") from None
        actions = _get(hand, "actions", list, where)
        for k, item in enumerate(actions):
            awhere = f"{where}.actions[{k}]"
            if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                    or not isinstance(item[1], str)):
                raise RecordError(f"{awhere}: expected [seat, \"action text\"]")
            seat, text = item
            if seat != match.state.actor:
                raise RecordError(f"{awhere}: seat {seat} acts, but it is seat "
                                  f"{match.state.actor}'s turn")
            try:
                match.apply(parse_action(text))
            except (ActionParseError, IllegalActionError) as exc:
                raise RecordError(f"{awhere}: '{text}': {exc}") from None
    if match.state.is_over:
        match.finish_hand()
    return match


def check_record(data: Any, source: str = "record") -> list[str]:
    """Replay a record and compare every recorded score sheet with the engine's.

    Returns a list of mismatches (empty when the record checks).
    """
    match = record_to_match(data, source)
    problems = []
    for i, (rec, hand) in enumerate(zip(match.hands, data["hands"], strict=True)):
        recorded = hand.get("sheets") or []
        replayed = [s.to_dict() for s in rec.sheets]
        if recorded and recorded != replayed:
            for r_sheet, p_sheet in zip(recorded, replayed, strict=False):
                if r_sheet != p_sheet:
                    problems.append(
                        f"hand {i + 1}, team {p_sheet['team']}: recorded "
                        f"{r_sheet.get('hand_total')} (total {r_sheet.get('score_after')}), "
                        f"replayed {p_sheet['hand_total']} (total {p_sheet['score_after']})"
                    )
    return problems


def save_record(match: Match, path: str | Path, names: list[str] | None = None) -> None:
    """Write the match record to ``path`` (JSON, UTF-8)."""
    Path(path).write_text(json.dumps(match_to_record(match, names), indent=1) + "\n", "utf-8")


def load_record(path: str | Path) -> tuple[Match, dict[str, Any]]:
    """Read and replay a record file.

    Raises:
        RecordError: unreadable file, bad JSON (with line and column) or a bad record.
    """
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as exc:
        raise RecordError(f"{p}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    return record_to_match(data, str(p)), data
