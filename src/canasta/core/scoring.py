"""Scoring: pure functions from a finished hand to an itemized score sheet per team.

The input is a :class:`TeamHand` per team (what a scorekeeper sees on the table: melds, red
threes, the cards left in each player's hand, who went out and how); the rules say what each
thing is worth. Nothing here depends on the engine, so ``canasta score`` and the engine share
one implementation.

Sources: seed 000 (Canastone scoring list), seed 003 ("Punteggio"), seed 004 ("Numararea
punctelor"), and for international Canasta, where seed 002 stops, pagat's Canasta page
(natural canasta 500, mixed 300, going out 100, concealed 200, red threes 100 / 800, negative
for a side that has melded nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from canasta.core.cards import (
    POINTS,
    is_black_three,
    is_red_three,
)
from canasta.core.melds import CanastaKind, classify_meld, purity
from canasta.core.rules import Rules


class ScoreItem(StrEnum):
    """The code of a score-sheet row: what it counts, as data. Front ends name it in the
    reader's language through the catalogues (canasta.i18n, ``score.<code>``, filled from the
    row's values); :data:`ITEM_TEXT` holds the English text. A ``StrEnum``: a code is its
    text (``ScoreItem.GOING_OUT == "going_out"``) in JSON and in stored sheets."""

    NATURAL_CANASTA = "natural_canasta"
    NATURAL_CANASTA_ACES = "natural_canasta_aces"
    NATURAL_CANASTA_BLACK_THREES = "natural_canasta_black_threes"
    MIXED_CANASTA = "mixed_canasta"
    MIXED_CANASTA_ACES = "mixed_canasta_aces"
    MIXED_CANASTA_BLACK_THREES = "mixed_canasta_black_threes"
    WILD_CANASTA = "wild_canasta"
    WILD_CANASTA_DEUCES = "wild_canasta_deuces"
    WILD_CANASTA_SIX_JOKERS = "wild_canasta_six_jokers"
    SEQUENCE_CANASTA = "sequence_canasta"
    BLACK_THREES_OUT_OF_PLAY = "black_threes_out_of_play"
    FIVE_NATURAL_CANASTAS = "five_natural_canastas"
    FIVE_CANASTAS = "five_canastas"
    RED_THREES = "red_threes"
    RED_THREES_IN_HAND = "red_threes_in_hand"
    GOING_OUT_CONCEALED = "going_out_concealed"
    GOING_OUT = "going_out"
    MELDED_NO_CANASTA = "melded_no_canasta"
    MELDED = "melded"
    CARDS_IN_HAND = "cards_in_hand"
    CARDS_IN_HAND_UNOPENED = "cards_in_hand_unopened"
    ALL_BLACK_THREES_IN_HAND = "all_black_threes_in_hand"
    BLACK_THREES_IN_HAND = "black_threes_in_hand"
    PENALTY = "penalty"
    SUJO_REVERTS = "sujo_reverts"


@dataclass(frozen=True, slots=True)
class Penalty:
    """An irregularity charged on a team's sheet.

    Attributes:
        code: what was done wrong, as the penalty tables name it (``draw_out_of_turn``,
            ``partner_answer_disobeyed``; the catalogues' ``penalty.<code>``), or ``custom``.
        points: the points charged in all (negative for a loss).
        text: its English words for the English sheet (a ``custom`` penalty: the scorer's own
            words, shown as written in every language).
        count: times charged.
        difference: the count difference a ``difference`` penalty multiplies (seed 004's
            miscount); None for the others.
    """

    code: str
    points: int
    text: str = ""
    count: int = 1
    difference: int | None = None

    def __reduce__(self) -> tuple[object, ...]:
        # compiled frozen dataclasses do not unpickle by their default (they refuse the
        # attribute set): rebuilt by the constructor, compiled or not
        return (Penalty, (self.code, self.points, self.text, self.count, self.difference))

    def values(self) -> dict[str, int | str]:
        """The row's values (:attr:`ScoreSheet.codes`): ``{"penalty": code, "count": n}``, with
        ``difference`` and, for ``custom``, ``label``."""
        out: dict[str, int | str] = {"penalty": self.code, "count": self.count}
        if self.difference is not None:
            out["difference"] = self.difference
        if self.code == CUSTOM_PENALTY:
            out["label"] = self.text
        return out


#: The code of a penalty the scorer names in his own words.
CUSTOM_PENALTY = "custom"

#: The engine's own penalty: a player told "yes" by the partner who did not go out (seed 004
#: "A întreabă «pot să închid?», B răspunde «Da», A fiind obligat să închidă, se dovedeşte că
#: nu poate ... Echipa este penalizată cu 500 de puncte"; its penalty table's
#: ``partner_answer_disobeyed``).
ANSWER_PENALTY = "partner_answer_disobeyed"
#: Its English words on the sheet (the catalogue's ``penalty.partner_answer_disobeyed``).
ANSWER_PENALTY_TEXT = "The partner's answer not obeyed"

#: Penalty codes read back from the English words that older sheets and hand results stored
#: instead of a code.
_OLD_PENALTY_TEXT = {"Told \"yes\" but did not go out": ANSWER_PENALTY,
                     ANSWER_PENALTY_TEXT: ANSWER_PENALTY}


def penalty_code_of_text(text: str) -> str | None:
    """The penalty code that older stored rows wrote as the English ``text``, if any
    (``'Told "yes" but did not go out'`` → ``partner_answer_disobeyed``)."""
    return _OLD_PENALTY_TEXT.get(text)


@dataclass(frozen=True, slots=True)
class TeamHand:
    """One team's table at the end of a hand.

    Attributes:
        melds: each meld's cards (card codes); a meld of only wild cards is a wild meld.
        red_threes: red threes laid out by the team.
        hands: cards left in each player's hand, one list per player of the team in seat
            order (``()`` for the player who went out, who has no row on the sheet).
        went_out: a player of this team went out.
        concealed: that player went out concealed.
        score_before: the team's match score before the hand.
        penalties: irregularities charged (:class:`Penalty`).
        red_threes_in_hand: red threes left undeclared in hand (scorepad input only).
    """

    melds: tuple[tuple[int, ...], ...] = ()
    red_threes: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    went_out: bool = False
    concealed: bool = False
    score_before: int = 0
    penalties: tuple[Penalty, ...] = ()
    red_threes_in_hand: int = 0

    def __reduce__(self) -> tuple[object, ...]:
        return (TeamHand, (self.melds, self.red_threes, self.hands, self.went_out,
                           self.concealed, self.score_before, self.penalties,
                           self.red_threes_in_hand))


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The itemized score of one team for one hand.

    ``items`` are ``(label, points)`` rows in the order a scorekeeper writes them, the label
    in English; their sum is ``hand_total``; ``score_after = score_before + hand_total``.
    ``codes`` gives each item's code (:class:`ScoreItem`) and values (``("red_threes",
    {"count": 2})``, a penalty's :meth:`Penalty.values`), from which front ends take the text
    in the reader's language (canasta.i18n :func:`~canasta.i18n.score_item_text`).
    """

    team: int
    items: tuple[tuple[str, int], ...]
    hand_total: int
    score_before: int
    score_after: int = field(init=False)
    codes: tuple[tuple[str, dict[str, int | str]], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "score_after", self.score_before + self.hand_total)

    def __reduce__(self) -> tuple[object, ...]:
        return (ScoreSheet, (self.team, self.items, self.hand_total, self.score_before,
                             self.codes))

    def to_dict(self) -> dict[str, object]:
        return {
            "team": self.team,
            "items": [{"label": label, "points": pts} for label, pts in self.items],
            "hand_total": self.hand_total,
            "score_before": self.score_before,
            "score_after": self.score_after,
        }

    def coded_items(self) -> list[dict[str, object]]:
        """The items with their codes: ``[{"code", "values", "label", "points"}, ...]``."""
        return [{"code": code, "values": dict(values), "label": label, "points": pts}
                for (label, pts), (code, values) in zip(self.items, self.codes, strict=True)]


#: The English text of each score item (``{name}`` placeholders, filled from the row's
#: values; a penalty's ``{name}`` is its :attr:`Penalty.text`); the message catalogues
#: (canasta.i18n, ``score.<code>``) hold it in every language.
ITEM_TEXT: dict[ScoreItem, str] = {
    ScoreItem.NATURAL_CANASTA: "Natural canasta",
    ScoreItem.NATURAL_CANASTA_ACES: "Natural canasta of aces",
    ScoreItem.NATURAL_CANASTA_BLACK_THREES: "Natural canasta of black threes",
    ScoreItem.MIXED_CANASTA: "Mixed canasta",
    ScoreItem.MIXED_CANASTA_ACES: "Mixed canasta of aces",
    ScoreItem.MIXED_CANASTA_BLACK_THREES: "Mixed canasta of black threes",
    ScoreItem.WILD_CANASTA: "Wild canasta",
    ScoreItem.WILD_CANASTA_DEUCES: "Wild canasta of deuces",
    ScoreItem.WILD_CANASTA_SIX_JOKERS: "Wild canasta of six jokers and a deuce",
    ScoreItem.SEQUENCE_CANASTA: "Sequence canasta (canastra real)",
    ScoreItem.BLACK_THREES_OUT_OF_PLAY: "Black threes out of play ({count})",
    ScoreItem.FIVE_NATURAL_CANASTAS: "Five natural canastas and a mixed one",
    ScoreItem.FIVE_CANASTAS: "Five canastas, natural and mixed",
    ScoreItem.RED_THREES: "Red threes ({count})",
    ScoreItem.RED_THREES_IN_HAND: "Red threes left in hand ({count})",
    ScoreItem.GOING_OUT_CONCEALED: "Going out concealed",
    ScoreItem.GOING_OUT: "Going out",
    ScoreItem.MELDED_NO_CANASTA: "Melded cards, no canasta (counted against)",
    ScoreItem.MELDED: "Melded cards",
    ScoreItem.CARDS_IN_HAND: "Cards left in hand, player {player}",
    ScoreItem.CARDS_IN_HAND_UNOPENED: "Cards left in hand, player {player} (x{multiplier}, "
                                      "side had not opened)",
    ScoreItem.ALL_BLACK_THREES_IN_HAND: "All four black threes in hand",
    ScoreItem.BLACK_THREES_IN_HAND: "Black threes in hand ({count})",
    ScoreItem.PENALTY: "Penalty: {name}",
    ScoreItem.SUJO_REVERTS: "Past the exact target (Sujo): back to the score before the hand",
}
#: The score item of each canasta kind (the same code: ``CanastaKind.MIXED.value``).
KIND_ITEM: dict[CanastaKind, ScoreItem] = {k: ScoreItem(k.value) for k in CanastaKind}


def canasta_bonus(cards: Sequence[int], rules: Rules) -> int:
    """Bonus of one meld as a canasta (0 when it is not one)."""
    kind = classify_meld(cards, rules)
    if kind is None:
        return 0
    s = rules.scoring
    if kind is CanastaKind.SEQUENCE:
        return s.real_canasta or s.natural_canasta
    if kind is CanastaKind.WILD_DEUCES:
        return s.wild_canasta_deuces or s.wild_canasta_mixed
    if kind is CanastaKind.WILD_SIX_JOKERS:
        return s.wild_canasta_six_jokers or s.wild_canasta_mixed
    if kind is CanastaKind.WILD:
        return s.wild_canasta_mixed
    if kind is CanastaKind.NATURAL_ACES and s.natural_aces_canasta:
        return s.natural_aces_canasta
    if kind is CanastaKind.MIXED_ACES and s.mixed_aces_canasta:
        return s.mixed_aces_canasta
    return s.natural_canasta if kind.natural else s.mixed_canasta


def red_three_value(count: int, rules: Rules) -> int:
    """Value of ``count`` red threes before their sign (seed 000: "se una linea ne possiede
    quattro, cinque o sei segnerà rispettivamente 800, 1000 e 1200")."""
    if count <= 0:
        return 0
    return rules.red_threes.totals.get(count, count * rules.red_threes.value)


def score_team(team: int, hand: TeamHand, rules: Rules) -> ScoreSheet:
    """Itemized score sheet of one team for one hand.

    Rows: one per canasta bonus, five-canasta bonuses, red threes, going out, melded cards,
    cards left in hand (one row per player), black threes in hand, penalties.
    """
    items: list[tuple[str, int]] = []
    codes: list[tuple[str, dict[str, int | str]]] = []

    def add(code: ScoreItem, points: int, **values: int | str) -> None:
        items.append((ITEM_TEXT[code].format(**values), points))
        codes.append((code, values))

    out_of_play = [m for m in hand.melds if m and rules.melds.black_threes_out_of_play
                   and all(is_black_three(c) for c in m)]
    if out_of_play:
        # Seed 004: "3 negru se scoate din joc numai in formatie de 4": they score nothing.
        add(ScoreItem.BLACK_THREES_OUT_OF_PLAY, 0, count=sum(len(m) for m in out_of_play))
        hand = replace(hand, melds=tuple(m for m in hand.melds if m not in out_of_play))
    kinds = [(m, classify_meld(m, rules)) for m in hand.melds]
    canastas = [(m, k) for m, k in kinds if k is not None]
    for m, k in canastas:
        assert k is not None
        add(KIND_ITEM[k], canasta_bonus(m, rules))

    # Five canastas (seed 000): a wild canasta counts by its kind (``purity``) or not at all.
    s = rules.scoring
    plain = [p for p in (purity(m, rules) for m, _ in canastas) if p is not None]
    naturals = sum(1 for p in plain if p)
    mixed = len(plain) - naturals
    has_natural = naturals > 0
    has_mixed = mixed > 0
    if s.five_natural_canastas and naturals >= 5 and mixed >= 1:
        add(ScoreItem.FIVE_NATURAL_CANASTAS, s.five_natural_canastas)
        if s.five_canastas_mode == "cumulative" and s.five_canastas:
            add(ScoreItem.FIVE_CANASTAS, s.five_canastas)
    elif s.five_canastas and len(plain) >= 5 and naturals >= 1 and mixed >= 1:
        add(ScoreItem.FIVE_CANASTAS, s.five_canastas)

    melded_any = any(len(m) for m in hand.melds)
    if hand.red_threes:
        value = red_three_value(hand.red_threes, rules)
        sign = rules.red_threes.sign
        factor = 1
        if sign == "no_meld" and not melded_any:
            factor = -1
        elif sign == "no_canasta" and not canastas:
            factor = -1
        elif sign == "canasta_matrix":
            if has_natural and has_mixed:
                factor = 1
            elif has_natural:
                factor = 0
            elif has_mixed:
                factor = -1
            else:
                factor = -2
        add(ScoreItem.RED_THREES, factor * value, count=hand.red_threes)
    # Red threes still in a hand (kept as stop cards, S000 variant, or not declared) cost the
    # in-hand penalty instead of their card points (S000 "costa 500 punti negativi").
    reds_in_hand = hand.red_threes_in_hand + sum(
        1 for cards in hand.hands for c in cards if is_red_three(c))
    if reds_in_hand:
        add(ScoreItem.RED_THREES_IN_HAND, -rules.red_threes.in_hand_penalty * reds_in_hand,
            count=reds_in_hand)

    if hand.went_out:
        g = rules.going_out
        if hand.concealed and g.concealed_bonus:
            add(ScoreItem.GOING_OUT_CONCEALED, g.concealed_bonus)
        else:
            add(ScoreItem.GOING_OUT, g.bonus)

    melded_points = sum(POINTS[c] for m in hand.melds for c in m)
    if s.melds_count_negative_without_canasta and melded_any and not canastas:
        add(ScoreItem.MELDED_NO_CANASTA, -melded_points)
    else:
        add(ScoreItem.MELDED, melded_points)

    multiplier = s.unopened_hand_multiplier if not melded_any else 1
    side_blacks = 0
    for i, cards in enumerate(hand.hands):
        if hand.went_out and not cards:
            # The player who went out has no row; the partner keeps his own number in the team
            # (not among the players still holding cards: "player 2" stays the second).
            continue
        blacks = [c for c in cards if is_black_three(c)] if s.black_three_in_hand else []
        side_blacks += len(blacks)
        counted = [c for c in cards
                   if not is_red_three(c) and not (blacks and is_black_three(c))]
        pts = sum(POINTS[c] for c in counted)
        if multiplier != 1:
            add(ScoreItem.CARDS_IN_HAND_UNOPENED, -pts * multiplier, player=i + 1,
                multiplier=multiplier)
        else:
            add(ScoreItem.CARDS_IN_HAND, -pts, player=i + 1)
    if side_blacks:
        # Seed 004: "3 de negru in mana -100", "toate 4 cartile de 3 negru -1600".
        if side_blacks == 4 and s.all_black_threes_in_hand:
            add(ScoreItem.ALL_BLACK_THREES_IN_HAND, -s.all_black_threes_in_hand)
        else:
            add(ScoreItem.BLACK_THREES_IN_HAND, -s.black_three_in_hand * side_blacks,
                count=side_blacks)
    for p in hand.penalties:
        items.append((ITEM_TEXT[ScoreItem.PENALTY].format(name=p.text or p.code), p.points))
        codes.append((ScoreItem.PENALTY, p.values()))
    total = sum(p for _, p in items)
    end = rules.end
    if end.exact_target and end.overshoot == "reverts" and hand.score_before + total > end.target:
        # Seed 003, Sujo: "se lo supera, torna alla soglia precedente".
        add(ScoreItem.SUJO_REVERTS, -total)
        total = 0
    return ScoreSheet(team, tuple(items), total, hand.score_before, tuple(codes))


def score_hand(teams: Sequence[TeamHand], rules: Rules) -> list[ScoreSheet]:
    """Score sheets of every team for one finished hand."""
    return [score_team(i, t, rules) for i, t in enumerate(teams)]
