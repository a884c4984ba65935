"""Hand results: one finished hand as a scorekeeper sees it, the input of ``canasta score``.

A hand result (docs/formats.md, "Hand result") names the rules and, per team, the score before
the hand, the melds on the table, the red threes laid out, the cards left in each player's hand,
whether the team went out (and concealed) and the irregularities to charge, by name::

    {"format": "canasta-hand-result", "version": 1,
     "variant": "international", "options": {},
     "teams": [
       {"score_before": 0, "melds": [["Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "2c"], "9s 9d JK"],
        "red_threes": 1, "hands": [[], ["5c", "7d"]], "went_out": true, "concealed": false,
        "penalties": []},
       {"score_before": 0, "melds": [], "red_threes": 0, "hands": [["Qs"], ["4h", "4d"]],
        "went_out": false, "concealed": false, "penalties": ["draw_out_of_turn"]}]}

It is converted to :class:`~canasta.scoring.TeamHand` records and scored by
:func:`canasta.scoring.score_hand`, the one scoring implementation the engine uses too.

The irregularities are the tables of seed 000 (Canastone, "IRREGOLARITÀ") and seed 004
(Romanian, "Greseli si penalizari"); :func:`penalty_catalogue` lists those of a variant, each
with its points and the seed's phrase.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from canasta.core import meldshape
from canasta.core.cards import (
    BLACK_THREES,
    RED_THREES,
    WILD_RANK,
    card_text,
    is_wild,
    rank_of,
    rank_text,
)
from canasta.core.meldkey import MeldKey, is_run_key, run_key
from canasta.core.melds import classify_meld, is_sequence, purity
from canasta.core.rules import Rules, RulesError
from canasta.core.scoring import (
    ANSWER_PENALTY,
    ANSWER_PENALTY_TEXT,
    CUSTOM_PENALTY,
    Penalty,
    ScoreSheet,
    TeamHand,
    penalty_code_of_text,
    score_hand,
)
from canasta.core.state import State
from canasta.formats.jsondoc import (
    FormatError,
    Reader,
    check_card_counts,
    deck_counts,
    loads,
    rules_header,
    sub,
)

FORMAT = "canasta-hand-result"
VERSION = 1

_TOP_KEYS = frozenset({"format", "version", "variant", "options", "rules", "players", "teams",
                       "note"})
_TEAM_KEYS = frozenset({"name", "score_before", "melds", "red_threes", "hands", "went_out",
                        "concealed", "penalties"})
_PENALTY_KEYS = frozenset({"name", "count", "difference", "points", "label"})


class HandResultError(FormatError):
    """A hand result is malformed or describes a table that cannot occur under its rules."""


# -- the penalty catalogue --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PenaltyRule:
    """One named irregularity a scorekeeper may charge.

    Attributes:
        name: the name used in hand results (``draw_out_of_turn``).
        points: points charged each time (negative); for ``kind == "difference"`` the factor
            applied to the declared difference.
        description: what happened, in English.
        source: the seed file and its phrase.
        kind: ``fixed`` (``points`` x ``count``), ``difference`` (``points`` x the declared
            difference) or ``red_three`` (a red three kept in hand: the rules'
            ``red_threes.in_hand_penalty``, scored with the red threes).
        label: the row's words on a score sheet, in English, where they differ from the
            description (a penalty the engine charges itself keeps the engine's words, so
            the engine's sheet and a hand result's agree).
    """

    name: str
    points: int
    description: str
    source: str
    kind: Literal["fixed", "difference", "red_three"] = "fixed"
    label: str = ""

    @property
    def row(self) -> str:
        """The row's words on a score sheet (English)."""
        return self.label or self.description


_S000 = "seed 000 (IRREGOLARITÀ)"
_S004 = "seed 004 (Greseli si penalizari)"

_CANASTONE: tuple[PenaltyRule, ...] = (
    PenaltyRule("draw_out_of_turn", -100,
                "cards taken from the stock out of turn, put right",
                f"{_S000}: \"prendere carte dal tallone fuori turno costa 100 punti negativi se "
                "l'irregolarità può essere sanata\""),
    PenaltyRule("draw_out_of_turn_uncorrectable", -200,
                "cards taken from the stock out of turn, not put right",
                f"{_S000}: \"... altrimenti 200 punti\""),
    PenaltyRule("extra_stock_cards", -50,
                "more cards taken from the stock than due, in turn",
                f"{_S000}: \"prendere carte in più dal tallone al proprio turno: 50 punti\""),
    PenaltyRule("pile_taken_without_right", -200,
                "the discard pile taken without the right to it",
                f"{_S000}: \"prendere il «pozzo» senza averne diritto: 200 punti\""),
    PenaltyRule("meld_out_of_turn_opponent", -100,
                "cards melded or laid off during an opponent's turn",
                f"{_S000}: \"mettere in tavola combinazioni ... fuori turno: 100 punti se fatto "
                "quanto il turno è ad un avversario\""),
    PenaltyRule("meld_out_of_turn_partner", -200,
                "cards melded or laid off during the partner's turn",
                f"{_S000}: \"200 punti nel corso del turno del partner\""),
    PenaltyRule("red_three_in_hand", 0,
                "a red three kept in hand when the hand ends",
                f"{_S000}: \"un Tre rosso trattenuto in mano al momento della chiusura costa 500 "
                "punti negativi\"", "red_three"),
)

_ROMANIAN: tuple[PenaltyRule, ...] = (
    PenaltyRule("extra_stock_cards_repeated", -300,
                "two or more stock cards taken into hand, a second time",
                f"{_S004}: \"Jucătorul A trage şi ia în mână două sau mai multe cărți din teancul "
                "stoc ... La repetarea greşelii idem, plus o penalizare de 300 de puncte\""),
    PenaltyRule("opening_card_replaced", -200,
                "a card of a short opening replaced (a deuce by a joker, say)",
                f"{_S004}: \"Dacă înlocuieşte o carte din formație, ex. un doi cu un Joker, "
                "echipa este penalizată cu 200 de puncte\""),
    PenaltyRule("wrong_meld_card_kept", -200,
                "a wrongly melded card kept in hand",
                f"{_S004}: \"Formații etalate incorect ... Dacă vrea să o păstreze în mână, "
                "echipa sa este penalizată cu 200 de puncte\""),
    PenaltyRule("red_three_in_hand", 0,
                "a red three not declared, still in hand at the end",
                f"{_S004}: \"La sfârşitul jocului, un trei roşu în mână (nedeclarat) Echipa este "
                "penalizată cu 300 de puncte\"", "red_three"),
    PenaltyRule("partner_answer_disobeyed", -500,
                "told \"yes\" and unable to go out, or told \"no\" and went out",
                f"{_S004}: \"A întreabă “pot să închid?”, B răspunde “Da”, A fiind obligat să "
                "închidă, se dovedeşte că nu poate; sau B raspunde “Nu” dar A totusi inchide. "
                "Echipa este penalizată cu 500 de puncte\"", label=ANSWER_PENALTY_TEXT),
    PenaltyRule("miscount", -10,
                "a count more than 20 points wrong in the team's favour (give the difference)",
                f"{_S004}: \"o echipă “greşeşte” cu mai mult de 20 de puncte în favoarea sa ... "
                "Echipa e penalizată cu de 10 ori diferența\"", "difference"),
)

_RED_THREE_ONLY: tuple[PenaltyRule, ...] = (
    PenaltyRule("red_three_in_hand", 0,
                "a red three kept in hand when the hand ends",
                "Hoyle's laws (shared/rules/variants.md: \"Red 3 left in hand ... −500\")",
                "red_three"),
)

#: Irregularity tables by variant name; classic_italian keeps Canastone's (seed 001 is written
#: as differences from seed 000 and states none of its own).
PENALTY_TABLES: dict[str, tuple[PenaltyRule, ...]] = {
    "canastone": _CANASTONE,
    "classic_italian": _CANASTONE,
    "romanian": _ROMANIAN,
    "international": _RED_THREE_ONLY,
    "brazilian": (),
}

CUSTOM = CUSTOM_PENALTY


def penalty_catalogue(rules: Rules) -> dict[str, PenaltyRule]:
    """The named penalties of a variant (``custom`` is always accepted besides: any points
    with a label).

    ``red_three_in_hand`` is listed where the rules charge a red three kept in hand
    (``red_threes.in_hand_penalty``), with that amount, and ``partner_answer_disobeyed``
    where they charge a "yes" not followed by going out (``going_out.ask_yes_unable_penalty``,
    the engine's own penalty), with that amount.
    """
    table = PENALTY_TABLES.get(rules.name, _RED_THREE_ONLY)
    out: dict[str, PenaltyRule] = {}
    for p in table:
        if p.kind == "red_three":
            if not rules.red_threes.in_hand_penalty:
                continue
            p = PenaltyRule(p.name, -rules.red_threes.in_hand_penalty, p.description, p.source,
                            p.kind)
        out[p.name] = p
    if "red_three_in_hand" not in out and rules.red_threes.in_hand_penalty:
        base = _RED_THREE_ONLY[0]
        out[base.name] = PenaltyRule(base.name, -rules.red_threes.in_hand_penalty,
                                     base.description, "rules: red_threes.in_hand_penalty",
                                     base.kind)
    answer = rules.going_out.ask_yes_unable_penalty
    if answer:
        base = next(p for p in _ROMANIAN if p.name == ANSWER_PENALTY)
        out[ANSWER_PENALTY] = PenaltyRule(base.name, -answer, base.description,
                                          base.source if base.name in out else
                                          "rules: going_out.ask_yes_unable_penalty",
                                          label=base.label)
    return out


# -- the hand result --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HandResult:
    """A parsed hand result: the rules, the team names and each team's table (its penalties
    by code: :class:`~canasta.core.scoring.Penalty`, named for people by the catalogues)."""

    rules: Rules
    players: int
    teams: tuple[TeamHand, ...]
    names: tuple[str, ...]

    def score(self) -> list[ScoreSheet]:
        """The itemized score sheet of every team (:func:`canasta.scoring.score_hand`)."""
        return score_hand(self.teams, self.rules)


def hand_result_from_dict(data: Any, source: str = "hand result") -> HandResult:
    """Read a hand result document.

    Raises:
        HandResultError: naming ``source``, the JSON path (``$.teams[1].melds[0][2]``) and what
        was expected, or what on the table cannot occur under the rules.
    """
    r = Reader(source, HandResultError)
    doc = r.obj(data, "$")
    r.only_keys(doc, _TOP_KEYS, "$")
    if "format" in doc and doc["format"] != FORMAT:
        r.fail("$.format", f"expected \"{FORMAT}\"")
    if "version" in doc:
        version = r.int_(doc["version"], "$.version", 1)
        if version > VERSION:
            r.fail("$.version", f"version {version} is newer than this engine reads ({VERSION})")
    rules = r.rules(doc)
    raw_teams = r.list_(r.key(doc, "teams", "$"), "$.teams", max_len=6)
    if len(raw_teams) < 2:
        r.fail("$.teams", f"expected a list of 2 or more teams, got {len(raw_teams)}")
    teams = [r.obj(t, f"$.teams[{i}]") for i, t in enumerate(raw_teams)]
    for i, t in enumerate(teams):
        r.only_keys(t, _TEAM_KEYS, f"$.teams[{i}]")
    sizes = [len(r.list_(r.key(t, "hands", f"$.teams[{i}]"), f"$.teams[{i}].hands", max_len=3))
             for i, t in enumerate(teams)]
    if sizes[0] < 1 or any(n != sizes[0] for n in sizes):
        r.fail("$.teams", "expected the same number of hands (one per player, [] for a player "
                          f"with no card) in every team, got {sizes}")
    players = len(teams) * sizes[0]
    if "players" in doc:
        declared = r.int_(doc["players"], "$.players", 2, 6)
        if declared != players:
            r.fail("$.players", f"the teams hold {players} hands, not {declared}")
    if players not in rules.deal.player_counts:
        r.fail("$.teams", f"{players} players ({len(teams)} teams of {sizes[0]}); "
                          f"{rules.name} is played by "
                          f"{', '.join(map(str, rules.deal.player_counts))}")
    try:
        rules.teams(players, sizes[0])
    except RulesError as exc:
        r.fail("$.teams", str(exc))

    catalogue = penalty_catalogue(rules)
    probe = _meld_probe(rules, len(teams))
    full = deck_counts(rules, players)
    places: list[tuple[str, list[int]]] = []
    hands_out: list[TeamHand] = []
    names: list[str] = []
    went_out_teams = []
    counted_reds: list[tuple[str, int]] = []  # red threes given as a number
    for i, t in enumerate(teams):
        tp = f"$.teams[{i}]"
        names.append(r.str_(t.get("name", f"team {i + 1}"), f"{tp}.name"))
        score_before = r.int_(t.get("score_before", 0), f"{tp}.score_before")
        melds: list[tuple[int, ...]] = []
        keys: dict[int, str] = {}
        for m, raw in enumerate(r.list_(t.get("melds", []), f"{tp}.melds", max_len=20)):
            mp = f"{tp}.melds[{m}]"
            cards = r.cards(raw, mp)
            key = _check_meld(r, rules, probe, cards, mp, i, len(melds))
            if key in keys:
                r.fail(mp, f"the team already has a meld of {rank_text(key)} ({keys[key]}): one "
                           "meld per rank and side")
            if not is_run_key(key):
                keys[key] = mp
            places.append((mp, cards))
            melds.append(tuple(cards))
        red = t.get("red_threes", 0)
        rp = f"{tp}.red_threes"
        if isinstance(red, list):
            reds = r.cards(red, rp)
            for k, c in enumerate(reds):
                if c not in RED_THREES:
                    r.fail(sub(rp, k), f"expected a red three (3h or 3d), got {card_text(c)}")
            places.append((rp, reds))
            n_red = len(reds)
        else:
            n_red = r.int_(red, rp, 0, full[RED_THREES[0]] + full[RED_THREES[1]])
            counted_reds.append((rp, n_red))
        hands: list[tuple[int, ...]] = []
        reds_in_hands = 0
        for k, raw in enumerate(t["hands"]):
            hp = f"{tp}.hands[{k}]"
            cards = r.cards(raw, hp)
            places.append((hp, cards))
            reds_in_hands += sum(1 for c in cards if c in RED_THREES)
            hands.append(tuple(cards))
        went_out = r.bool_(t.get("went_out", False), f"{tp}.went_out")
        concealed = r.bool_(t.get("concealed", False), f"{tp}.concealed")
        if concealed and not went_out:
            r.fail(f"{tp}.concealed", "expected false: only the team that went out goes out "
                                      "concealed")
        if went_out:
            went_out_teams.append(i)
            if all(hands):
                r.fail(f"{tp}.hands", "expected an empty hand ([]) for the player who went out")
            _check_going_out(r, rules, players, melds, f"{tp}.went_out")
        penalties, red_named = _read_penalties(r, t.get("penalties", []), f"{tp}.penalties",
                                               catalogue, rules)
        if red_named and reds_in_hands:
            r.fail(f"{tp}.penalties", "red_three_in_hand is charged for the red threes listed in "
                                      "the hands already: name it only for a red three not "
                                      "listed")
        hands_out.append(TeamHand(
            melds=tuple(melds), red_threes=n_red, hands=tuple(hands), went_out=went_out,
            concealed=concealed, score_before=score_before, penalties=tuple(penalties),
            red_threes_in_hand=red_named,
        ))
    if len(went_out_teams) > 1:
        r.fail(f"$.teams[{went_out_teams[1]}].went_out",
               f"expected false: team {went_out_teams[0] + 1} went out")
    check_card_counts(r, places, full, "$.teams")
    if counted_reds:
        listed = sum(1 for _, cards in places for c in cards if c in RED_THREES)
        deck_reds = full[RED_THREES[0]] + full[RED_THREES[1]]
        if listed + sum(n for _, n in counted_reds) > deck_reds:
            r.fail(counted_reds[-1][0], f"more red threes on the table than the deck's "
                                        f"{deck_reds}")
    return HandResult(rules, players, tuple(hands_out), tuple(names))


def _meld_probe(rules: Rules, n_teams: int) -> State:
    """A bare engine state that only answers the engine's meld check for ``rules``."""
    probe = State.__new__(State)
    probe.rules = rules
    probe.melds = [{} for _ in range(n_teams)]
    return probe


def _check_meld(r: Reader, rules: Rules, probe: State, cards: list[int], path: str,
                team: int, index: int) -> MeldKey:
    """The meld's key (:mod:`canasta.core.meldkey`), after the engine's checks."""
    if not cards:
        r.fail(path, "expected the cards of a meld, got none")
    for k, c in enumerate(cards):
        if c in RED_THREES:
            r.fail(sub(path, k), "red threes are never melded: give them under red_threes")
    naturals = {rank_of(c) for c in cards if not is_wild(c)}
    if len(naturals) > 1:
        if rules.melds.real_canasta and is_sequence(cards, rules.melds.canasta_size):
            return run_key(index)
        r.fail(path, "a meld is of one rank only, got "
                     + " and ".join(rank_text(k) for k in sorted(naturals)))
    key = naturals.pop() if naturals else WILD_RANK
    if key == 3:
        if any(c not in BLACK_THREES and not is_wild(c) for c in cards):
            r.fail(path, "expected black threes")
        if not (rules.melds.black_three_meld_going_out or rules.melds.black_threes_out_of_play):
            r.fail(path, "black threes are never melded [melds.black_three_meld_going_out]")
    err = meldshape.meld_error(probe, key, cards, (), team)
    if err is not None:
        r.fail(path, f"{err.reason} [{err.rule}]")
    return key


def _check_going_out(r: Reader, rules: Rules, players: int,
                     melds: Sequence[tuple[int, ...]], path: str) -> None:
    g = rules.going_out
    kinds = [classify_meld(m, rules) for m in melds]
    canastas = [k for k in kinds if k is not None]
    needed = rules.canastas_required(players)
    if len(canastas) < needed:
        r.fail(path, f"a side needs {needed} canasta"
                     f"{'s' if needed > 1 else ''} to go out, this one has "
                     f"{len(canastas)} [going_out.canastas_required]")
    # How each canasta counts as pure or impure (melds.wild_canasta_kinds: wild ones too).
    pure = [purity(m, rules) for m, k in zip(melds, kinds, strict=True) if k is not None]
    if g.natural_and_mixed_required and not (True in pure and False in pure):
        r.fail(path, "a side needs a natural and a mixed canasta to go out (seed 000: \"almeno "
                     "una canasta pura ed una impura\") [going_out.natural_and_mixed_required]")
    natural = pure.count(True)
    if g.natural_canastas_required and natural < g.natural_canastas_required:
        r.fail(path, f"a side needs {g.natural_canastas_required} natural canastas to go out "
                     "[going_out.natural_canastas_required]")
    if rules.melds.unfinished_wild_meld_restricts:
        for m in melds:
            if m and all(is_wild(c) for c in m) and len(m) < rules.melds.canasta_size:
                r.fail(path, "a side with an unfinished wild-card canasta may not go out "
                             "[melds.unfinished_wild_meld_restricts]")


def _read_penalties(r: Reader, raw: Any, path: str, catalogue: dict[str, PenaltyRule],
                    rules: Rules) -> tuple[list[Penalty], int]:
    """The penalties charged, and the number of red threes charged as kept in hand."""
    rows: list[Penalty] = []
    reds = 0
    known = ", ".join([*catalogue, CUSTOM])
    for k, item in enumerate(r.list_(raw, path, max_len=50)):
        pp = sub(path, k)
        if isinstance(item, str):
            item = {"name": item}
        entry = r.obj(item, pp)
        r.only_keys(entry, _PENALTY_KEYS, pp)
        name = r.str_(r.key(entry, "name", pp), f"{pp}.name")
        count = r.int_(entry.get("count", 1), f"{pp}.count", 1, 20)
        if name == CUSTOM:
            points = r.int_(r.key(entry, "points", pp), f"{pp}.points", -100_000, 100_000)
            label = r.str_(entry.get("label", "custom penalty"), f"{pp}.label")
            # Hand results written before penalties kept their code wrote the engine's own
            # as a custom row in English words: read its code back from them.
            code = penalty_code_of_text(label) or CUSTOM
            rows.append(Penalty(code, points * count, label, count))
            continue
        if name not in catalogue:
            r.fail(f"{pp}.name", f"unknown penalty {json.dumps(name)[:40]} for {rules.name}; "
                                 f"expected one of {known}")
        rule = catalogue[name]
        for extra in ("points", "label"):
            if extra in entry:
                r.fail(f"{pp}.{extra}", f"only a custom penalty takes '{extra}'")
        if rule.kind == "red_three":
            reds += count
        elif rule.kind == "difference":
            diff = r.int_(r.key(entry, "difference", pp), f"{pp}.difference", 21, 100_000)
            rows.append(Penalty(name, rule.points * diff * count, rule.row, count, diff))
        else:
            if "difference" in entry:
                r.fail(f"{pp}.difference", f"{name} takes no difference")
            rows.append(Penalty(name, rule.points * count, rule.row, count))
    return rows, reds


def hand_result_from_json(text: str, source: str = "hand result") -> HandResult:
    """Parse a hand result from JSON text (see :func:`hand_result_from_dict`)."""
    return hand_result_from_dict(loads(text, source, HandResultError), source)


def load_hand_result(path: str | Path) -> HandResult:
    """Read a hand result file (``-`` for standard input).

    Raises:
        HandResultError: the file cannot be read, is not JSON (with the line) or is not a hand
        result (with the JSON path and what was expected).
    """
    import sys

    name = str(path)
    if name == "-":
        return hand_result_from_json(sys.stdin.read(), "<stdin>")
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise HandResultError(name, "$", f"cannot read the file: {why}") from None
    return hand_result_from_json(text, name)


# -- writing ----------------------------------------------------------------------------------

def _penalty_to_json(p: Penalty) -> dict[str, Any]:
    """A penalty entry of a hand result: by its name (the table's points apply again when it
    is read, so the rules must charge it: the engine's own is in every catalogue that charges
    it), or a ``custom`` row with its points and words."""
    if p.code == CUSTOM:
        per = p.points // p.count if p.points % p.count == 0 else p.points
        count = p.count if p.points % p.count == 0 else 1
        out: dict[str, Any] = {"name": CUSTOM, "points": per, "label": p.text}
        return out if count == 1 else {**out, "count": count}
    out = {"name": p.code}
    if p.count != 1:
        out["count"] = p.count
    if p.difference is not None:
        out["difference"] = p.difference
    return out


def team_hand_to_json(hand: TeamHand, name: str | None = None) -> dict[str, Any]:
    """A team's part of a hand result (penalties by name; ``custom`` ones with their points
    and words)."""
    out: dict[str, Any] = {}
    if name is not None:
        out["name"] = name
    out.update({
        "score_before": hand.score_before,
        "melds": [[card_text(c) for c in m] for m in hand.melds],
        "red_threes": hand.red_threes,
        "hands": [[card_text(c) for c in cards] for cards in hand.hands],
        "went_out": hand.went_out,
        "concealed": hand.concealed,
        "penalties": (
            [_penalty_to_json(p) for p in hand.penalties]
            + ["red_three_in_hand"] * hand.red_threes_in_hand
        ),
    })
    return out


def hand_result_of_state(state: State) -> dict[str, Any]:
    """The finished hand of ``state`` as a hand result document (every player's hand listed,
    the one who went out with ``[]``).

    Raises:
        ValueError: the hand is not over.
    """
    if not state.is_over:
        raise ValueError("the hand is not over yet")
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    out.update(rules_header(state.rules))
    out["players"] = state.players
    teams = []
    # The engine's own tables (every player's hand, the penalties it charged, such as seed
    # 004's 500 for a "yes" not followed by going out), so `canasta score` of the result gives
    # the engine's score sheet.
    for t, hand in enumerate(state.team_hands()):
        team = team_hand_to_json(hand, f"team {t + 1}")
        team["red_threes"] = [card_text(c) for c in state.red_threes[t]]
        teams.append(team)
    out["teams"] = teams
    return out


def sheets_to_json(result: HandResult, sheets: Sequence[ScoreSheet]) -> dict[str, Any]:
    """The ``canasta score --json`` output: per team ``items``, ``hand_total`` and
    ``score_after`` (and the team's name and ``score_before``)."""
    target = result.rules.target(result.players)
    return {
        "variant": result.rules.name,
        "target": target,
        "teams": [
            {"team": s.team, "name": result.names[s.team],
             "items": [{"label": label, "points": pts} for label, pts in s.items],
             "hand_total": s.hand_total, "score_before": s.score_before,
             "score_after": s.score_after}
            for s in sheets
        ],
    }

