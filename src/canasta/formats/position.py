"""Positions: a complete game state as JSON, like FEN for chess (docs/formats.md).

A position holds everything :class:`~canasta.core.state.State` holds: the rules (variant,
options and every field), seats and teams, the match scores, every hand, each team's melds and
red threes, the discard pile in order with its frozen state, the stock in order, the surprise
cards, whose turn it is and at which step (with the turn's provisional opening, the pile waiting
for it and the partner's answer), the end of the hand and its events (the history; positions
written before events hold the actions as ``history`` and English ``log`` lines: they load).

``save → load`` gives an equal state (:func:`same_state`) that plays on identically. A document
that describes a position which cannot occur is refused with what is wrong and where: a card
more times than the deck holds or missing, a meld that breaks the rules, a red three in a hand,
an empty hand in a hand still being played, a turn step that does not fit.

>>> from canasta import load_preset, State
>>> s = State.deal(load_preset("international"), players=4, seed=3)
>>> same_state(state_from_json(position_to_json(s)), s)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from canasta.core.actions import Action, ActionParseError, parse_action
from canasta.core.cards import (
    NUM_CODES,
    RED_THREES,
    WILD_RANK,
    card_text,
    cards_of,
    is_wild,
    rank_of,
    rank_text,
)
from canasta.core.data import HandData
from canasta.core.events import Dealt, Played, action_of
from canasta.core.layout import TABLE, build
from canasta.core.legality import IllegalActionError
from canasta.core.melds import SEQUENCE_KEY, is_sequence
from canasta.core.rules import Rules, RulesError
from canasta.core.state import MisdealError, Phase, State
from canasta.formats.eventjson import event_from_json, event_to_json
from canasta.formats.jsondoc import (
    MAX_DECK,
    MAX_SCORE,
    FormatError,
    Reader,
    check_card_counts,
    count_text,
    deck_counts,
    loads,
    rules_header,
    sub,
)
from canasta.formats.position_checks import END_REASONS as END_REASONS
from canasta.formats.position_checks import (
    check_events,
    check_numbers,
    check_pile_freeze,
    check_table,
)

FORMAT = "canasta-position"
VERSION = 1

#: Where each field of the state lies in a document (the field table's ``position``):
#: top-level keys, and the keys of the ``turn`` and ``result`` objects.
_PATHS = [f.position.split(".") for f in TABLE if f.position]
_TOP_KEYS = frozenset({"format", "version", "variant", "options", "history", "log", "hand"}
                      | {p[0] for p in _PATHS})
_TURN_KEYS = frozenset(p[1] for p in _PATHS if p[0] == "turn")
_RESULT_KEYS = frozenset(p[1] for p in _PATHS if p[0] == "result")
#: Fields a position writes outside :func:`_body`: the rules as the header, the history as
#: the top level's ``events``.
_WRITTEN_APART = frozenset({"rules", "event_log"})


class PositionError(FormatError):
    """A position document is malformed or describes a position that cannot occur."""


# -- writing ----------------------------------------------------------------------------------

def _texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]


def position_to_dict(state: State) -> dict[str, Any]:
    """The position of ``state`` as JSON data (docs/formats.md, "Position")."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    out.update(rules_header(state.rules))
    out.update(_body(state))
    out["events"] = [event_to_json(e) for e in state.events]
    out["history"] = [[seat, action.text()] for seat, action in state.actions]
    return out


def _before_opening(state: HandData) -> dict[str, Any] | None:
    snap = state.snapshot if state.provisional else None
    return _body(snap) if snap is not None else None


#: Per field of the state (the field table, :data:`canasta.core.layout.TABLE`), its value in
#: a position, at the table's ``position`` path.
_WRITE: dict[str, Callable[[HandData], Any]] = {
    "players": lambda s: s.players,
    "teams": lambda s: [list(t) for t in s.teams],
    "dealer": lambda s: s.dealer,
    "scores": lambda s: list(s.scores),
    "hands": lambda s: [_texts(cards_of(h)) for h in s.hands],
    "melds": lambda s: [[_texts(m) for m in team.values() if m] for team in s.melds],
    "red_threes": lambda s: [_texts(r) for r in s.red_threes],
    "opened": lambda s: list(s.opened),
    "min_extra": lambda s: list(s.min_extra),
    "pile": lambda s: _texts(s.pile),
    "pile_frozen": lambda s: s.pile_frozen,
    "stock": lambda s: _texts(list(reversed(s.stock))),
    "surprise": lambda s: _texts(s.surprise),
    "deck": lambda s: _texts(s.deck),
    "turn": lambda s: s.turn,
    "current": lambda s: s.current,
    "actor": lambda s: s.actor,
    "phase": lambda s: s.phase.value,
    "took_pile": lambda s: s.took_pile,
    "melded_this_turn": lambda s: s.melded_this_turn,
    "opening_points": lambda s: s.opening_points,
    "provisional": lambda s: s.provisional,
    "pending_pile": lambda s: _texts(s.pending_pile),
    "asked": lambda s: s.asked,
    "answer": lambda s: s.answer,
    "opened_at_turn_start": lambda s: s.opened_at_turn_start,
    "stopped_turn": lambda s: s.stopped_turn,
    "no_discard": lambda s: s.no_discard,
    "snapshot": _before_opening,
    "asks": lambda s: list(s.asks),
    "player_melded": lambda s: list(s.player_melded),
    "joker_turn": lambda s: list(s.joker_turn),
    "known": lambda s: [_texts(cards_of(list(k))) for k in s.known],
    "pile_hidden": lambda s: s.pile_hidden,
    "end_reason": lambda s: s.end_reason,
    "went_out": lambda s: s.went_out,
    "concealed": lambda s: s.concealed,
}


def _body(state: HandData) -> dict[str, Any]:
    """Every field the field table places in a position but the rules and the history, each
    at its path (``turn.took_pile``: key ``took_pile`` of the ``turn`` object)."""
    out: dict[str, Any] = {}
    for f in TABLE:
        if not f.position or f.name in _WRITTEN_APART:
            continue
        *parents, key = f.position.split(".")
        where = out
        for parent in parents:
            where = where.setdefault(parent, {})
        where[key] = _WRITE[f.name](state)  # KeyError: a new field needs its writer here
    return out


def position_to_json(state: State, indent: int | None = 1) -> str:
    """The position of ``state`` as JSON text."""
    return json.dumps(position_to_dict(state), indent=indent, ensure_ascii=False)


def save_position(state: State, path: str | Path) -> None:
    """Write the position of ``state`` to ``path`` (JSON, UTF-8)."""
    text = position_to_json(state) + "\n"
    Path(path).write_text(text, "utf-8")


def same_state(a: State, b: State) -> bool:
    """True when two states are the same position (everything a position holds, history and
    log included)."""
    return position_to_dict(a) == position_to_dict(b)


# -- reading ----------------------------------------------------------------------------------

def state_from_dict(data: Any, source: str = "position", path: str = "$") -> State:
    """Build the state a position document describes.

    Args:
        data: the parsed JSON document.
        source: the file name (or label) errors name.
        path: the JSON path of ``data`` inside a larger document (a record's hand ``start``).

    Raises:
        PositionError: naming ``source``, the JSON path and what was expected, or what makes the
        position impossible and where.
    """
    r = Reader(source, PositionError)
    doc = r.obj(data, path)
    r.only_keys(doc, _TOP_KEYS, path)
    fmt = r.key(doc, "format", path)
    if fmt != FORMAT:
        r.fail(sub(path, "format"), f"expected \"{FORMAT}\", got {json.dumps(fmt)[:40]}")
    version = r.int_(r.key(doc, "version", path), sub(path, "version"), lo=1)
    if version > VERSION:
        r.fail(sub(path, "version"), f"version {version} is newer than this engine reads "
                                     f"({VERSION})")
    rules = r.rules(doc, path)
    state = _read_body(r, doc, path, rules, top=True)
    history: list[tuple[int, Action]] = []
    hpath = sub(path, "history")
    epath = sub(path, "events")
    for i, item in enumerate(r.list_(doc.get("history", []), hpath)):
        ipath = sub(hpath, i)
        if (not isinstance(item, list) or len(item) != 2 or isinstance(item[0], bool)
                or not isinstance(item[0], int) or not isinstance(item[1], str)):
            r.fail(ipath, "expected [seat, \"action text\"]")
        seat = r.int_(item[0], sub(ipath, 0), 0, state.players - 1)
        try:
            history.append((seat, parse_action(item[1])))
        except ActionParseError as exc:
            r.fail(sub(ipath, 1), str(exc))
    if "events" in doc:
        for i, item in enumerate(r.list_(doc["events"], epath)):
            state.record(event_from_json(r, item, sub(epath, i)))
        if "history" in doc and history != state.actions:
            r.fail(hpath, "expected the actions of `events`")
    else:
        # A position written before events: its actions, without what they did.
        for seat, action in history:
            state.record(Played(seat, action))
    # "log" (English lines, written before events) is accepted and not read.
    r.list_(doc.get("log", []), sub(path, "log"))
    check_events(r, state, path)
    check_pile_freeze(r, state, path)
    events = state.events
    if (state.deck and events and isinstance(events[0], Dealt)
            and all(h is not None for h in events[0].hands)):
        _replay(r, state, path)
    return state


def _replay(r: Reader, state: State, path: str) -> None:
    """Play the position's actions again from its deal order under its rules: each must be
    legal when it was played, every event as recorded, and the position what they lead to.

    Raises:
        PositionError: (through ``r``) at the first event that could not have happened, or
        the first value of the position that the history does not give.
    """
    epath = sub(path, "events")
    try:
        again = State.deal(state.rules, state.players, deck=state.deck, dealer=state.dealer,
                           scores=state.scores, team_size=len(state.teams[0]))
    except (MisdealError, ValueError) as exc:
        r.fail(sub(path, "deck"), f"this deal order cannot be played: {exc}")
    events = state.events

    def same_so_far() -> None:
        made = again.events
        for j, event in enumerate(made):
            if j >= len(events) or events[j] != event:
                r.fail(sub(epath, j), "expected the event the deal order and the actions "
                                      f"before it give: {json.dumps(event_to_json(event))[:200]}")

    for i, event in enumerate(events):
        played = action_of(event)
        if played is None:
            continue
        same_so_far()
        seat, action = played
        at = sub(epath, i)
        if again.is_over:
            r.fail(at, "the hand was over before this action")
        if seat != again.actor:
            r.fail(sub(at, "seat"), f"seat {seat} acts, but it is seat {again.actor}'s turn")
        try:
            again.verify(action)
        except IllegalActionError as exc:
            r.fail(at, f"'{action.text()}' could not be played then: {exc.reason} "
                       f"[{exc.rule}]")
        again.apply(action)
    same_so_far()
    if len(again.events) != len(events):
        r.fail(sub(epath, len(again.events)), "expected no more events: the actions before it "
                                              "give none")
    diff = _first_difference(_body(again), _body(state), path)
    if diff is not None:
        where, value = diff
        r.fail(where, "expected what the deal order and the history give: "
                      f"{json.dumps(value)[:200]}")


def _first_difference(want: Any, got: Any, path: str) -> tuple[str, Any] | None:
    """The path of the first value of ``got`` that is not ``want``'s, with ``want``'s."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key, value in want.items():
            found = _first_difference(value, got.get(key), sub(path, key))
            if found is not None:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            found = _first_difference(a, b, sub(path, i))
            if found is not None:
                return found
        return None
    return None if want == got else (path, want)


def _read_body(r: Reader, doc: dict[str, Any], path: str, rules: Rules, top: bool) -> State:
    def at(key: str) -> str:
        return sub(path, key)

    players = r.int_(r.key(doc, "players", path), at("players"), 2, 6)
    if players not in rules.deal.player_counts:
        r.fail(at("players"), f"{rules.name} is played by "
                              f"{', '.join(map(str, rules.deal.player_counts))} players")
    teams_raw = r.list_(r.key(doc, "teams", path), at("teams"), max_len=players)
    teams = tuple(
        tuple(r.int_(seat, sub(sub(at("teams"), t), i), 0, players - 1)
              for i, seat in enumerate(r.list_(team, sub(at("teams"), t), max_len=players)))
        for t, team in enumerate(teams_raw)
    )
    if not teams or not teams[0] or players % len(teams[0]):
        r.fail(at("teams"), f"expected the seats 0..{players - 1} in equal teams")
    try:
        expected_teams = rules.teams(players, len(teams[0]))
    except RulesError as exc:
        r.fail(at("teams"), str(exc))
    if teams != expected_teams:
        r.fail(at("teams"), f"expected the teams seated alternately: "
                            f"{json.dumps([list(t) for t in expected_teams])}")
    n_teams = len(teams)

    def per_team(key: str) -> list[Any]:
        return r.list_(r.key(doc, key, path), at(key), length=n_teams)

    def per_seat(key: str) -> list[Any]:
        return r.list_(r.key(doc, key, path), at(key), length=players)

    # The fields' values, by name, set on the state at once by the field table
    # (canasta.core.layout.build: it refuses a field missing or unknown).
    values: dict[str, Any] = {}
    values["rules"] = rules
    values["players"] = players
    values["teams"] = teams
    team_of = [0] * players
    for t, seats in enumerate(teams):
        for seat in seats:
            team_of[seat] = t
    values["team_of"] = tuple(team_of)
    values["dealer"] = r.int_(r.key(doc, "dealer", path), at("dealer"), 0, players - 1)
    values["scores"] = [r.int_(v, sub(at("scores"), i), -MAX_SCORE, MAX_SCORE)
                        for i, v in enumerate(per_team("scores"))]

    # Where every card is, for the conservation check: (place path, cards).
    places: list[tuple[str, list[int]]] = []
    values["hands"] = []
    values["hand_size"] = []
    for seat, raw in enumerate(per_seat("hands")):
        cards = r.cards(raw, sub(at("hands"), seat))
        places.append((sub(at("hands"), seat), cards))
        counts = [0] * NUM_CODES
        for c in cards:
            counts[c] += 1
        values["hands"].append(counts)
        values["hand_size"].append(len(cards))
    values["melds"] = []
    for t, team_melds in enumerate(per_team("melds")):
        tpath = sub(at("melds"), t)
        melds: dict[int, list[int]] = {}
        for m, raw in enumerate(r.list_(team_melds, tpath, max_len=14)):
            mpath = sub(tpath, m)
            cards = r.cards(raw, mpath)
            places.append((mpath, cards))
            rank = _meld_key(r, rules, cards, mpath, melds)
            if rank in melds:
                r.fail(mpath, f"team {t} already has a meld of {rank_text(rank)} (one meld per "
                              "rank and side)")
            melds[rank] = cards
        values["melds"].append(melds)
    values["red_threes"] = []
    for t, raw in enumerate(per_team("red_threes")):
        tpath = sub(at("red_threes"), t)
        cards = r.cards(raw, tpath)
        for i, c in enumerate(cards):
            if c not in RED_THREES:
                r.fail(sub(tpath, i), f"expected a red three (3h or 3d), got {card_text(c)}")
        places.append((tpath, cards))
        values["red_threes"].append(cards)
    values["opened"] = [r.bool_(v, sub(at("opened"), i)) for i, v in enumerate(per_team("opened"))]
    values["min_extra"] = [r.int_(v, sub(at("minimum_raised"), i), 0, MAX_SCORE)
                           for i, v in enumerate(per_team("minimum_raised"))]
    values["pile"] = r.cards(r.key(doc, "pile", path), at("pile"))
    places.append((at("pile"), values["pile"]))
    values["pile_frozen"] = r.bool_(r.key(doc, "pile_frozen", path), at("pile_frozen"))
    stock = r.cards(r.key(doc, "stock", path), at("stock"))
    places.append((at("stock"), stock))
    values["stock"] = list(reversed(stock))
    values["surprise"] = r.cards(doc.get("surprise", []), at("surprise"))
    places.append((at("surprise"), values["surprise"]))
    full = deck_counts(rules, players)
    deck = r.cards(doc.get("deck", []), at("deck"))
    if deck:
        have = [0] * NUM_CODES
        for c in deck:
            have[c] += 1
        if have != full:
            r.fail(at("deck"), f"expected the full deal order of {sum(full)} cards for these "
                               "rules (or an empty list)")
    values["deck"] = tuple(deck)
    asks = r.list_(doc.get("asks", [0] * players), at("asks"), length=players)
    values["asks"] = [r.int_(v, sub(at("asks"), i), 0, 2 * MAX_DECK)
                      for i, v in enumerate(asks)]
    values["player_melded"] = [r.bool_(v, sub(at("player_melded"), i)) for i, v in enumerate(
        r.list_(doc.get("player_melded", [False] * players), at("player_melded"),
                length=players))]
    joker_turns = r.list_(doc.get("joker_turn", [-1] * n_teams), at("joker_turn"),
                          length=n_teams)
    values["joker_turn"] = [r.int_(v, sub(at("joker_turn"), i), -1, 2 * MAX_DECK)
                            for i, v in enumerate(joker_turns)]

    turn = r.obj(r.key(doc, "turn", path), at("turn"))
    tp = at("turn")
    r.only_keys(turn, _TURN_KEYS, tp)

    def tget(key: str, default: Any) -> Any:
        return turn.get(key, default)

    values["turn"] = r.int_(r.key(turn, "number", tp), sub(tp, "number"), 0, 2 * MAX_DECK)
    values["current"] = r.int_(r.key(turn, "current", tp), sub(tp, "current"), 0, players - 1)
    values["actor"] = r.int_(tget("actor", values["current"]), sub(tp, "actor"), 0, players - 1)
    phase = r.str_(r.key(turn, "phase", tp), sub(tp, "phase"))
    phases = {p.value: p for p in Phase}
    if phase not in phases:
        r.fail(sub(tp, "phase"), f"expected one of {', '.join(phases)}, got "
                                 f"{json.dumps(phase)[:40]}")
    values["phase"] = phases[phase]
    values["took_pile"] = r.bool_(tget("took_pile", False), sub(tp, "took_pile"))
    values["melded_this_turn"] = r.bool_(tget("melded", False), sub(tp, "melded"))
    values["opening_points"] = r.int_(tget("opening_points", 0), sub(tp, "opening_points"),
                                      0, MAX_SCORE)
    values["provisional"] = r.bool_(tget("provisional", False), sub(tp, "provisional"))
    values["pending_pile"] = r.cards(tget("pending_pile", []), sub(tp, "pending_pile"))
    places.append((sub(tp, "pending_pile"), values["pending_pile"]))
    values["asked"] = r.bool_(tget("asked", False), sub(tp, "asked"))
    answer = tget("answer", None)
    values["answer"] = None if answer is None else r.bool_(answer, sub(tp, "answer"))
    opened_then = values["opened"][team_of[values["current"]]]
    values["opened_at_turn_start"] = r.bool_(tget("opened_at_turn_start", opened_then),
                                             sub(tp, "opened_at_turn_start"))
    values["stopped_turn"] = r.bool_(tget("stopped", False), sub(tp, "stopped"))
    values["no_discard"] = r.bool_(tget("no_discard", False), sub(tp, "no_discard"))

    result = r.obj(doc.get("result", {}), at("result"))
    r.only_keys(result, _RESULT_KEYS, at("result"))
    rp = at("result")
    values["end_reason"] = r.str_(result.get("end_reason", ""), sub(rp, "end_reason"))
    went_out = result.get("went_out")
    values["went_out"] = None if went_out is None else r.int_(
        went_out, sub(rp, "went_out"), 0, players - 1)
    values["concealed"] = r.bool_(result.get("concealed", False), sub(rp, "concealed"))
    values["event_log"] = None
    values["lookahead"] = True
    values["snapshot"] = None  # read below, once the position it belongs to is checked
    _read_known(r, values, doc, path)
    s: State = build(State, values)

    _check_cards(r, places, full, path)
    check_table(r, s, path)
    check_numbers(r, s, path)
    if not top:  # a position before the opening has no events of its own
        check_pile_freeze(r, s, path)
    before = tget("before_opening", None)
    if s.provisional:
        if not top and before is not None:
            r.fail(sub(tp, "before_opening"), "expected null inside a position before opening")
        if before is None:
            r.fail(sub(tp, "before_opening"), "a provisional opening needs the position before "
                                              "it (to take it back with `retract`)")
        bpath = sub(tp, "before_opening")
        bdoc = r.obj(before, bpath)
        r.only_keys(bdoc, _TOP_KEYS - {"format", "version", "variant", "options", "rules",
                                       "history", "log", "events"}, bpath)
        snap = _read_body(r, bdoc, bpath, rules, top=False)
        if (snap.provisional or snap.phase not in (Phase.DRAW, Phase.PLAY)
                or snap.current != s.current or snap.turn != s.turn):
            r.fail(bpath, "expected the same turn before its first provisional meld")
        s.snapshot = snap
    elif before is not None:
        r.fail(sub(tp, "before_opening"), "expected null: there is no provisional opening")
    return s


def _read_known(r: Reader, values: dict[str, Any], doc: dict[str, Any], path: str) -> None:
    """``known`` (cards known to be in each hand, part of that hand) and ``pile_hidden``
    (face-down cards at the bottom of the pile or of the pending pile), both optional, into
    the field values ``values``."""
    kpath = sub(path, "known")
    values["known"] = []
    raw = r.list_(doc.get("known", [[]] * values["players"]), kpath, length=values["players"])
    for seat, cards_raw in enumerate(raw):
        counts = [0] * NUM_CODES
        for c in r.cards(cards_raw, sub(kpath, seat)):
            counts[c] += 1
            if counts[c] > values["hands"][seat][c]:
                r.fail(sub(kpath, seat), f"{card_text(c)} is known to be in hand {seat} more "
                                         "times than the hand holds it")
        values["known"].append(tuple(counts))
    under = values["pending_pile"] if values["pending_pile"] else values["pile"]
    values["pile_hidden"] = r.int_(doc.get("pile_hidden", 0), sub(path, "pile_hidden"), 0,
                                   len(under))


def _meld_key(r: Reader, rules: Rules, cards: list[int], path: str,
              melds: dict[int, list[int]]) -> int:
    """The engine's key of a meld: its rank, ``WILD_RANK``, or the next free
    ``SEQUENCE_KEY`` for a sequence canasta."""
    naturals = {rank_of(c) for c in cards if not is_wild(c)}
    if len(naturals) > 1:
        if rules.melds.real_canasta and is_sequence(cards, rules.melds.canasta_size):
            key = SEQUENCE_KEY
            while key in melds:
                key += 1
            return key
        r.fail(path, "a meld is of one rank only, got "
                     + " and ".join(rank_text(k) for k in sorted(naturals))
                     + (" (and it is not a sequence canasta)" if rules.melds.real_canasta else ""))
    return naturals.pop() if naturals else WILD_RANK


def _check_cards(r: Reader, places: list[tuple[str, list[int]]], full: list[int],
                 path: str) -> None:
    """Every physical card is in exactly one place."""
    total = check_card_counts(r, places, full, path)
    missing = {c: full[c] - total[c] for c in range(NUM_CODES) if total[c] < full[c]}
    if missing:
        r.fail(path, f"the position holds {sum(total)} cards, the deck {sum(full)}: missing "
                     f"{count_text(missing)} (every card must be in a hand, a meld, the red "
                     "threes, the pile, the stock or the surprise cards)")


def state_from_json(text: str, source: str = "position") -> State:
    """Parse a position from JSON text (see :func:`state_from_dict`)."""
    return state_from_dict(loads(text, source, PositionError), source)


def read_document(path: str | Path) -> tuple[Any, str]:
    """Read a JSON file (``-`` for standard input): its data and the name errors use.

    Raises:
        FormatError: the file cannot be read or is not JSON (with the line).
    """
    import sys

    name = str(path)
    if name == "-":
        text = sys.stdin.read()
        name = "<stdin>"
    else:
        try:
            text = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise FormatError(name, "$", f"cannot read the file: {why}") from None
    return loads(text, name), name
