"""Tallies: a hand as a scorekeeper counts it at a real table, turned into a hand result.

At the table nobody writes down every card. Per team one counts the canastas by kind, the red
threes, the melded cards by point class (jokers 50, aces and deuces 20, K to 8 10, 7 to 4 5)
and, per player, the cards left in hand the same way; one notes who went out and how, and the
irregularities charged. This module turns such a tally into a hand result document
(:mod:`canasta.formats.handresult`, docs/formats.md "Hand result") made of cards that add up to
the same canastas and the same points, so the scorepad is scored by the one implementation
``canasta score`` uses (:func:`canasta.core.scoring.score_hand`) and its document can be fed
to ``canasta score`` as it is.

A tally, per hand (JSON)::

    {"teams": [{"canastas": {"natural": 1, "mixed": 1},
                "melded": {"50": 1, "20": 2, "10": 14, "5": 6, "b3": 0},
                "melds": null,                # or ["Ks Kh Kd ...", ...]: the melds as cards
                "red_threes": 1,
                "hands": [{"10": 2, "5": 1}, "Qs 7h"],   # per player: counts or cards
                "penalties": [{"name": "miscount", "difference": 30}]}, ...],
     "went_out": {"team": 0, "player": 1},   # or null
     "concealed": false}

Melded counts include the cards of the canastas. Hand counts may also give ``b3`` (black threes)
and ``r3`` (red threes kept in hand). Standard library only.

The cards are found by :mod:`canasta.formats.meldlayout`. Raises :class:`TallyError` (with a
message key of the ``scorepad.err.*`` catalogue family and its values) when the counts cannot
describe a table; the hand result reader checks the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from canasta.core.cards import (
    BLACK_THREES,
    JOKER,
    RED_THREES,
    CardParseError,
    card_text,
    parse_cards,
)
from canasta.core.rules import Rules
from canasta.formats.handresult import FORMAT, VERSION, penalty_catalogue
from canasta.formats.jsondoc import deck_counts, sub
from canasta.formats.meldlayout import (
    ACE,
    BLACK3,
    DEUCE,
    FIVES,
    TENS,
    NoFit,
    Pool,
    all_melds,
    canasta_kinds,
)

#: Point classes of the cards, as counted at the table (seed 004 "Sistemul de punctaj").
CLASSES = ("50", "20", "10", "5")
#: Extra classes: black threes (``BLACK3``, melded or in hand), red threes kept in hand.
RED3 = "r3"


class TallyError(ValueError):
    """A tally that no table can match; ``key`` is an i18n key (``scorepad.err.*``) and
    ``values`` its placeholders; ``where`` says which team (0-based) or None; ``path`` is
    the JSON path of the value at fault in the tally (``$.teams[0].penalties[1]``, as
    :class:`canasta.formats.jsondoc.FormatError` writes paths; ``$.teams[0]`` when the
    team's counts as a whole cannot make a table)."""

    def __init__(self, key: str, message: str, where: int | None = None,
                 path: str | None = None, **values: Any) -> None:
        self.path = path or ("$" if where is None else f"$.teams[{where}]")
        super().__init__(f"{self.path}: {message}" if where is None
                         else f"team {where + 1}: {self.path}: {message}")
        self.key = key
        self.values = values
        self.where = where


def class_of(card: int) -> str:
    """The point class of a card: ``50``, ``20``, ``10``, ``5``, ``b3`` or ``r3``."""
    if card == JOKER:
        return "50"
    if card in RED_THREES:
        return RED3
    if card in BLACK_THREES:
        return BLACK3
    rank = card // 4 + 1
    if rank in (ACE, DEUCE):
        return "20"
    return "10" if rank >= 8 else "5"


def _counts(raw: Any, where: int, path: str, keys: Sequence[str]) -> dict[str, int]:
    """Counts by class at ``path`` (``{"10": 3, ...}``; null: none)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TallyError("scorepad.err.bad", "expected counts by class", where, path)
    out: dict[str, int] = {}
    for k, v in raw.items():
        if k not in keys:
            raise TallyError("scorepad.err.bad", f"unknown class; expected one of "
                                                 f"{', '.join(keys)}", where, sub(path, k))
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 200:
            raise TallyError("scorepad.err.bad", "expected a count 0..200", where,
                             sub(path, k))
        out[k] = v
    return out


def _cards(raw: str, where: int, path: str) -> list[int]:
    try:
        return parse_cards(raw)
    except CardParseError as exc:
        raise TallyError("scorepad.err.cards", str(exc), where, path, msg=str(exc)) from None


def _take(pool: Pool, cards: list[int], where: int, path: str) -> None:
    """Take typed cards out of the deck (a card more often than the deck holds is refused)."""
    try:
        for c in cards:
            pool.take_card(c)
    except NoFit as exc:
        raise TallyError(exc.key, str(exc), where, path, **exc.values) from None


def _penalties(raw: Any, where: int, path: str, catalogue: Any) -> list[Any]:
    """The penalties of a team: each a name of the variant's penalty table, or an object
    ``{"name", ...}`` (its counts and points are checked by the hand result reader)."""
    if not isinstance(raw, list):
        raise TallyError("scorepad.err.bad", "expected a list of penalties", where, path)
    for k, pen in enumerate(raw):
        at = sub(path, k)
        if isinstance(pen, dict):
            name, at = pen.get("name"), sub(at, "name")
        elif isinstance(pen, str):
            name = pen
        else:
            raise TallyError("scorepad.err.bad", "expected a penalty name or an object "
                                                 "{\"name\", ...}", where, at)
        if not isinstance(name, str):
            raise TallyError("scorepad.err.bad", "expected a penalty name", where, at)
        if name != "custom" and name not in catalogue:
            raise TallyError("scorepad.err.penalty", f"unknown penalty '{name}'", where, at,
                             name=name)
    return raw


def _hand_cards(pool: Pool, counts: dict[str, int], where: int, path: str) -> list[int]:
    out: list[int] = []
    for cls, ranks in (("10", TENS), ("5", FIVES), ("20", (ACE, DEUCE))):
        k = counts.get(cls, 0)
        for r in sorted(ranks, key=pool.rank_left, reverse=True):
            got = min(k, pool.rank_left(r))
            out += pool.take_rank(r, got)
            k -= got
        if k:
            raise TallyError("scorepad.err.deck", "more cards left in hand than the deck holds",
                             where, path)
    if pool.counts[JOKER] < counts.get("50", 0):
        raise TallyError("scorepad.err.deck", "more jokers than the deck holds", where, path)
    out += pool.take_jokers(counts.get("50", 0))
    for cls, cards in ((BLACK3, BLACK_THREES), (RED3, RED_THREES)):
        k = counts.get(cls, 0)
        for c in cards:
            while k and pool.counts[c]:
                pool.take_card(c)
                out.append(c)
                k -= 1
        if k:
            raise TallyError("scorepad.err.deck", "more threes than the deck holds", where,
                             path)
    return out


def hand_result_of_tally(rules: Rules, players: int, tally: dict[str, Any],
                         scores_before: Sequence[int], names: Sequence[str] | None = None,
                         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hand result document of a tally (see the module docstring).

    ``rules`` are the variant with its house rules (``options`` as chosen, written into the
    document); ``scores_before`` the match score of each team before the hand.

    Raises:
        TallyError: the tally is malformed, or its counts cannot make a table (too few cards
            for a canasta, cards that fit no meld, more cards than the deck holds).
    """
    if not isinstance(tally, dict):
        raise TallyError("scorepad.err.bad", "expected {\"teams\": [...]}")
    if not isinstance(tally.get("teams"), list):
        raise TallyError("scorepad.err.bad", "expected a list of teams", path="$.teams")
    teams_in = tally["teams"]
    if len(teams_in) != len(scores_before):
        raise TallyError("scorepad.err.bad", f"expected {len(scores_before)} teams",
                         path="$.teams")
    team_size = players // len(teams_in)
    out_team, out_player = None, None
    went = tally.get("went_out")
    if went is not None:
        if not isinstance(went, dict) or not isinstance(went.get("team"), int) or \
                not 0 <= went["team"] < len(teams_in) or \
                not isinstance(went.get("player", 0), int) or \
                not 0 <= went.get("player", 0) < team_size:
            raise TallyError("scorepad.err.bad", "expected {team, player} or null",
                             path="$.went_out")
        out_team, out_player = went["team"], went.get("player", 0)
    pool = Pool(deck_counts(rules, players))
    kinds_ok = canasta_kinds(rules)
    catalogue = penalty_catalogue(rules)
    melds_by_team: list[list[list[int]]] = []
    # Melds typed as cards take their cards from the deck before any counted ones.
    for i, t in enumerate(teams_in):
        if not isinstance(t, dict):
            raise TallyError("scorepad.err.bad", "expected an object", i)
        if t.get("melds") is not None:
            at = f"$.teams[{i}].melds"
            if not isinstance(t["melds"], list) or not all(isinstance(m, str)
                                                           for m in t["melds"]):
                raise TallyError("scorepad.err.bad", "expected a list of card texts", i, at)
            melds = []
            for j, text in enumerate(t["melds"]):
                if text.strip():
                    melds.append(_cards(text, i, sub(at, j)))
                    _take(pool, melds[-1], i, sub(at, j))
            melds_by_team.append(melds)
        else:
            melds_by_team.append([])
    todo = [(i, _counts(t.get("canastas"), i, f"$.teams[{i}].canastas", kinds_ok),
             _counts(t.get("melded"), i, f"$.teams[{i}].melded", (*CLASSES, BLACK3)))
            for i, t in enumerate(teams_in) if t.get("melds") is None]
    errors: list[tuple[int, NoFit]] = []
    found = all_melds(rules, pool, todo, [3000], errors)
    if found is None:
        where, first = errors[0] if errors else (todo[0][0], NoFit("scorepad.err.bad", "?"))
        raise TallyError(first.key, f"{first} (check the counts)", where, **first.values)
    for i, melds in found[0].items():
        melds_by_team[i] = melds
    pool = found[1]
    teams_out = []
    for i, t in enumerate(teams_in):
        hands_in = t.get("hands", [])
        at = f"$.teams[{i}].hands"
        if not isinstance(hands_in, list) or len(hands_in) > team_size:
            raise TallyError("scorepad.err.bad", f"expected a list of up to {team_size} "
                                                 "hands", i, at)
        hands: list[list[int]] = []
        for p in range(team_size):
            raw = hands_in[p] if p < len(hands_in) else None
            if i == out_team and p == out_player:
                hands.append([])
            elif isinstance(raw, str):
                cards = _cards(raw, i, sub(at, p))
                _take(pool, cards, i, sub(at, p))
                hands.append(cards)
            else:
                counts = _counts(raw, i, sub(at, p), (*CLASSES, BLACK3, RED3))
                hands.append(_hand_cards(pool, counts, i, sub(at, p)))
        reds = t.get("red_threes", 0)
        if isinstance(reds, bool) or not isinstance(reds, int) or not 0 <= reds <= 12:
            raise TallyError("scorepad.err.bad", "expected a count 0..12", i,
                             f"$.teams[{i}].red_threes")
        penalties = _penalties(t.get("penalties", []), i, f"$.teams[{i}].penalties",
                               catalogue)
        teams_out.append({
            "name": names[i] if names else f"team {i + 1}",
            "score_before": int(scores_before[i]),
            "melds": [[card_text(c) for c in m] for m in melds_by_team[i]],
            "red_threes": reds,
            "hands": [[card_text(c) for c in h] for h in hands],
            "went_out": i == out_team,
            "concealed": bool(tally.get("concealed")) and i == out_team,
            "penalties": penalties,
        })
    return {"format": FORMAT, "version": VERSION, "variant": rules.name,
            "options": dict(options or {}), "players": players, "teams": teams_out}


def tally_of_hand_result(doc: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The tally a scorekeeper would write for a hand result: canastas by kind and cards by
    class (the inverse of :func:`hand_result_of_tally` up to the choice of cards; tests)."""
    from canasta.core.melds import classify_meld

    label_kind = {
        "natural canasta": "natural", "mixed canasta": "mixed",
        "natural canasta of aces": "natural_aces" if rules.scoring.natural_aces_canasta
        else "natural",
        "mixed canasta of aces": "mixed_aces" if rules.scoring.mixed_aces_canasta else "mixed",
        "wild canasta": "wild_mixed", "wild canasta of deuces": "wild_deuces"
        if rules.scoring.wild_canasta_deuces else "wild_mixed",
        "wild canasta of six jokers and a deuce": "wild_six_jokers"
        if rules.scoring.wild_canasta_six_jokers else "wild_mixed",
        "sequence canasta (canastra real)": "sequence",
    }
    teams = []
    out = None
    for i, t in enumerate(doc["teams"]):
        kinds: dict[str, int] = {}
        melded: dict[str, int] = {}
        for m in t["melds"]:
            cards = parse_cards(m)
            kind = classify_meld(cards, rules)
            if kind is not None:
                k = label_kind[kind.label]
                kinds[k] = kinds.get(k, 0) + 1
            for c in cards:
                melded[class_of(c)] = melded.get(class_of(c), 0) + 1
        hands = []
        for p, h in enumerate(t["hands"]):
            counts: dict[str, int] = {}
            for c in parse_cards(h):
                counts[class_of(c)] = counts.get(class_of(c), 0) + 1
            hands.append(counts)
            if t["went_out"] and not h and out is None:
                out = {"team": i, "player": p}
        reds = t["red_threes"]
        teams.append({"canastas": kinds, "melded": melded, "hands": hands,
                      "red_threes": reds if isinstance(reds, int) else len(reds),
                      "penalties": t.get("penalties", [])})
    concealed = any(t["went_out"] and t.get("concealed") for t in doc["teams"])
    return {"teams": teams, "went_out": out, "concealed": concealed}
