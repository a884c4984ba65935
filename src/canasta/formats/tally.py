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

Raises :class:`TallyError` (with a message key of the ``scorepad.err.*`` catalogue family and
its values) when the counts cannot describe a table; the hand result reader checks the rest.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from typing import Any

from canasta.core.cards import (
    BLACK_THREES,
    JOKER,
    RED_THREES,
    CardParseError,
    card_text,
    make_card,
    parse_cards,
)
from canasta.core.rules import Rules
from canasta.formats.handresult import FORMAT, VERSION, penalty_catalogue
from canasta.formats.jsondoc import deck_counts

#: Point classes of the cards, as counted at the table (seed 004 "Sistemul de punctaj").
CLASSES = ("50", "20", "10", "5")
#: Extra classes: black threes (melded or in hand), red threes kept in hand.
BLACK3, RED3 = "b3", "r3"
_TENS = (13, 12, 11, 10, 9, 8)
_FIVES = (7, 6, 5, 4)
_DEUCE = 2
_ACE = 1
#: Runs of a sequence canasta (canastra real) from ace down to 4, with their classes.
_RUNS = tuple(tuple(r) for r in ((1, 13, 12, 11, 10, 9, 8), (13, 12, 11, 10, 9, 8, 7),
                                 (12, 11, 10, 9, 8, 7, 6), (11, 10, 9, 8, 7, 6, 5),
                                 (10, 9, 8, 7, 6, 5, 4)))


class TallyError(ValueError):
    """A tally that no table can match; ``key`` is an i18n key (``scorepad.err.*``) and
    ``values`` its placeholders; ``where`` says which team (0-based) or None."""

    def __init__(self, key: str, message: str, where: int | None = None,
                 **values: Any) -> None:
        super().__init__(message if where is None else f"team {where + 1}: {message}")
        self.key = key
        self.values = values
        self.where = where


def canasta_kinds(rules: Rules) -> list[str]:
    """The canasta kinds a scorekeeper counts separately under ``rules``, in the order of the
    sheet: ``natural``, ``mixed``, then those with a bonus of their own (``natural_aces``,
    ``mixed_aces``, ``wild_deuces``, ``wild_mixed``, ``wild_six_jokers``, ``sequence``)."""
    s, m = rules.scoring, rules.melds
    kinds = ["natural", "mixed"]
    if s.natural_aces_canasta:
        kinds.append("natural_aces")
    if s.mixed_aces_canasta:
        kinds.append("mixed_aces")
    if m.wild_melds:
        kinds.append("wild_mixed")
        if s.wild_canasta_deuces:
            kinds.append("wild_deuces")
        if s.wild_canasta_six_jokers and rules.deal.jokers_per_pack:
            kinds.append("wild_six_jokers")
    if m.real_canasta:
        kinds.append("sequence")
    return kinds


def class_of(card: int) -> str:
    """The point class of a card: ``50``, ``20``, ``10``, ``5``, ``b3`` or ``r3``."""
    if card == JOKER:
        return "50"
    if card in RED_THREES:
        return RED3
    if card in BLACK_THREES:
        return BLACK3
    rank = card // 4 + 1
    if rank in (_ACE, _DEUCE):
        return "20"
    return "10" if rank >= 8 else "5"


class _Pool:
    """The cards of the deck not yet placed (copies per card code)."""

    def __init__(self, counts: list[int]) -> None:
        self.counts = list(counts)

    def rank_left(self, rank: int) -> int:
        return sum(self.counts[make_card(rank, s)] for s in range(4))

    def take_rank(self, rank: int, n: int, suits: Sequence[int] = (0, 1, 2, 3)) -> list[int]:
        out: list[int] = []
        while len(out) < n:
            before = len(out)
            for s in suits:
                c = make_card(rank, s)
                if self.counts[c] and len(out) < n:
                    self.counts[c] -= 1
                    out.append(c)
            if len(out) == before:
                raise TallyError("scorepad.err.deck", "more cards than the deck holds")
        return out

    def take_jokers(self, n: int) -> list[int]:
        if self.counts[JOKER] < n:
            raise TallyError("scorepad.err.deck", "more jokers than the deck holds")
        self.counts[JOKER] -= n
        return [JOKER] * n

    def take_card(self, card: int) -> None:
        if not self.counts[card]:
            raise TallyError("scorepad.err.deck", f"more {card_text(card)} than the deck holds")
        self.counts[card] -= 1


class _Meld:
    __slots__ = ("cards", "cls", "canasta")

    def __init__(self, cards: list[int], cls: str | None, canasta: bool) -> None:
        self.cards = cards
        self.cls = cls        # class of its naturals ("10", "5", "A"), None for wild/run/b3
        self.canasta = canasta

    @property
    def rank(self) -> int:
        return next((c // 4 + 1 for c in self.cards if c != JOKER and c // 4 + 1 != _DEUCE), 0)

    def wilds(self) -> int:
        return sum(1 for c in self.cards if c == JOKER or c // 4 + 1 == _DEUCE)


class _NoFit(Exception):
    """One way of laying out a team's counts did not work; the next one is tried."""

    def __init__(self, key: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


_RANKS = {"10": _TENS, "5": _FIVES, "A": (_ACE,)}
_ORDER = ("wild_six_jokers", "wild_deuces", "wild_mixed", "natural_aces", "mixed_aces",
          "sequence", "natural", "mixed")


class _Layout:
    """One attempt at a team's melds: the twenties split into ``aces`` and deuces, and the
    class of the naturals of each natural and mixed canasta fixed."""

    def __init__(self, rules: Rules, pool: _Pool, counts: dict[str, int], aces: int,
                 fill: bool = True, spread: bool = False, rev: bool = False) -> None:
        self.rules = rules
        self.spread = spread  # new melds leave a place for a wild card
        self.rev = rev
        self.fill = fill  # leftover naturals go onto the canastas first
        self.pool = pool
        self.nat = {"10": counts.get("10", 0), "5": counts.get("5", 0), "A": aces}
        self.jokers = counts.get("50", 0)
        self.deuces = counts.get("20", 0) - aces
        self.melds: list[_Meld] = []
        self.mixed_wilds: list[int] = []

    # -- cards from the counts ------------------------------------------------------------------
    def naturals(self, cls: str, rank: int, k: int) -> list[int]:
        if self.nat[cls] < k or self.pool.rank_left(rank) < k:
            raise _NoFit("scorepad.err.too_few", f"{k} natural cards of {cls} points needed",
                         cls="20" if cls == "A" else cls, n=k)
        self.nat[cls] -= k
        return self.pool.take_rank(rank, k)

    def wild(self, k: int) -> list[int]:
        """``k`` wild cards: jokers first (they can only be wild), then deuces."""
        j = min(k, self.jokers)
        if k - j > self.deuces or self.pool.counts[JOKER] < j \
                or self.pool.rank_left(_DEUCE) < k - j:
            raise _NoFit("scorepad.err.no_wild", "not enough wild cards among the melded cards")
        self.jokers -= j
        self.deuces -= k - j
        return self.pool.take_jokers(j) + self.pool.take_rank(_DEUCE, k - j)

    def fresh_rank(self, cls: str, k: int) -> int:
        used = {m.rank for m in self.melds if m.cls is not None}
        free = [r for r in _RANKS[cls] if r not in used and self.pool.rank_left(r) >= k]
        if not free:
            raise _NoFit("scorepad.err.too_few", f"no rank of {cls} points left for a meld",
                         cls="20" if cls == "A" else cls, n=k)
        return max(free, key=self.pool.rank_left)

    def wild_cap(self, naturals: int, canasta: bool) -> int:
        """Most wild cards a meld of ``naturals`` natural cards may hold."""
        mr = self.rules.melds
        if naturals < mr.min_naturals:
            return 0
        cap = mr.max_wilds
        if mr.wild_ratio == "lt":
            cap = min(cap, naturals - 1)
        elif mr.wild_ratio == "le":
            cap = min(cap, naturals)
        if not canasta:
            cap = min(cap, mr.canasta_size - 1 - naturals)
        return max(cap, 0)

    # -- canastas ---------------------------------------------------------------------------------
    def canasta(self, kind: str, cls: str) -> None:
        size = self.rules.melds.canasta_size
        p = self.pool
        if kind == "wild_deuces":
            if self.deuces < size:
                raise _NoFit("scorepad.err.too_few", "seven deuces needed", cls="20", n=size)
            self.deuces -= size
            self.melds.append(_Meld(p.take_rank(_DEUCE, size), None, True))
        elif kind == "wild_six_jokers":
            if self.jokers < size - 1 or self.deuces < 1:
                raise _NoFit("scorepad.err.too_few", "six jokers and a deuce needed",
                             cls="50", n=size - 1)
            self.jokers -= size - 1
            self.deuces -= 1
            self.melds.append(_Meld(p.take_jokers(size - 1) + p.take_rank(_DEUCE, 1), None,
                                    True))
        elif kind == "wild_mixed":
            top = min(self.jokers, size - 2 if "wild_six_jokers" in canasta_kinds(self.rules)
                      else size - 1)
            j = next((j for j in range(top, 0, -1) if self.deuces >= size - j), 0)
            if not j:
                raise _NoFit("scorepad.err.too_few", "jokers and deuces needed", cls="50", n=1)
            self.jokers -= j
            self.deuces -= size - j
            self.melds.append(_Meld(p.take_jokers(j) + p.take_rank(_DEUCE, size - j), None,
                                    True))
        elif kind == "sequence":
            for run in _RUNS:
                need = {"A": 0, "10": 0, "5": 0}
                for r in run:
                    need["A" if r == _ACE else _rank_cls(r)] += 1
                suits = [s for s in range(4) if all(p.counts[make_card(r, s)] for r in run)]
                if suits and all(self.nat[c] >= k for c, k in need.items()):
                    for c, k in need.items():
                        self.nat[c] -= k
                    self.melds.append(_Meld([p.take_rank(r, 1, (suits[0],))[0] for r in run],
                                            None, True))
                    return
            raise _NoFit("scorepad.err.too_few", "a run of seven cards needed", cls="10", n=size)
        else:  # natural, mixed, natural_aces, mixed_aces
            w = self.mixed_wilds.pop() if kind.startswith("mixed") else 0
            rank = self.fresh_rank(cls, size - w)
            cards = self.naturals(cls, rank, size - w)
            if w:
                cards += self.wild(w)
            self.melds.append(_Meld(cards, cls, True))

    # -- the rest of the melded cards -----------------------------------------------------------
    def onto_canastas(self, cls: str, leave_a_meld: bool = False) -> None:
        """Canastas take any number of their rank; ``leave_a_meld``: never leave one or two
        naturals that could then form no meld of their own."""
        least = self.rules.melds.min_cards
        for m in self.melds:
            if self.nat[cls] and m.cls == cls and m.canasta:
                k = self.nat[cls]
                x = min(k, self.pool.rank_left(m.rank))
                if leave_a_meld and 0 < k - x < least:
                    x = max(0, k - least)
                if x:
                    m.cards += self.naturals(cls, m.rank, x)

    def place_naturals(self, cls: str) -> None:
        mr = self.rules.melds
        size, least = mr.canasta_size, mr.min_cards
        if self.fill:
            self.onto_canastas(cls, leave_a_meld=True)
        while self.nat[cls] >= least:
            k = self.nat[cls]
            part = min(k, size - 2 if self.spread and size - 2 >= least else size - 1)
            if 0 < k - part < least:
                part = k - least
            try:
                rank = self.fresh_rank(cls, part)
            except _NoFit:
                break
            self.melds.append(_Meld(self.naturals(cls, rank, part), cls, False))
        for m in self.melds:  # one or two left: onto a meld of the class short of a canasta
            if self.nat[cls] and m.cls == cls and not m.canasta:
                room = min(size - 1 - len(m.cards), self.pool.rank_left(m.rank))
                m.cards += self.naturals(cls, m.rank, min(self.nat[cls], room))
        k = self.nat[cls]
        if k and k >= mr.min_naturals and self.jokers + self.deuces >= least - k:
            rank = self.fresh_rank(cls, k)
            self.melds.append(_Meld(self.naturals(cls, rank, k) + self.wild(least - k), cls,
                                    False))
        self.onto_canastas(cls)
        if self.nat[cls]:
            raise _NoFit("scorepad.err.leftover", f"{self.nat[cls]} melded card(s) of "
                         f"{cls} points fit no meld", n=self.nat[cls],
                         cls="20" if cls == "A" else cls)

    def place_wilds(self) -> None:
        for m in self.melds:
            if m.cls is None or (m.canasta and not m.wilds()):
                continue
            room = self.wild_cap(len(m.cards) - m.wilds(), m.canasta) - m.wilds()
            k = min(max(room, 0), self.jokers + self.deuces)
            if k:
                m.cards += self.wild(k)
        if self.jokers + self.deuces:
            raise _NoFit("scorepad.err.wilds", f"{self.jokers + self.deuces} melded wild "
                         "card(s) fit no meld", n=self.jokers + self.deuces)

    def share_wilds(self, mixed: int) -> list[int]:
        """The wild cards of each of ``mixed`` mixed canastas: the jokers and deuces left
        shared out as evenly as the meld limits allow (each takes at least one)."""
        size = self.rules.melds.canasta_size
        cap = max((w for w in range(1, size) if w <= self.wild_cap(size - w, True)), default=0)
        left = self.jokers + self.deuces
        if left < mixed or not cap:
            raise _NoFit("scorepad.err.no_wild", "each mixed canasta needs a wild card among "
                         "the melded cards")
        shares = [1] * mixed
        left -= mixed
        while left:
            grew = False
            for i in range(mixed):
                if left and shares[i] < cap:
                    shares[i] += 1
                    left -= 1
                    grew = True
            if not grew:
                break
        return shares

    def build(self, plan: list[tuple[str, str]], black_threes: int) -> list[list[int]]:
        for i, (kind, cls) in enumerate(plan):
            if kind.startswith("mixed") and not self.mixed_wilds:
                self.mixed_wilds = self.share_wilds(sum(1 for k, _ in plan[i:]
                                                        if k.startswith("mixed")))
                if self.rev:  # pop() takes from the end: the last share goes first
                    self.mixed_wilds.reverse()
            self.canasta(kind, cls)
        if black_threes:
            blacks = [c for c in BLACK_THREES for _ in range(self.pool.counts[c])]
            if len(blacks) < black_threes:
                raise _NoFit("scorepad.err.deck", "more black threes than the deck holds")
            for c in blacks[:black_threes]:
                self.pool.take_card(c)
            self.melds.append(_Meld(blacks[:black_threes], None, False))
        for cls in ("A", "10", "5"):
            if self.nat[cls]:
                self.place_naturals(cls)
        self.place_wilds()
        return [m.cards for m in self.melds]


def _plans(kinds: dict[str, int], classes: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way of giving the natural and mixed canastas a class of naturals."""
    fixed = [(k, "A" if k.endswith("aces") else "") for k in sorted(kinds, key=_ORDER.index)
             for _ in range(kinds[k]) if k not in ("natural", "mixed")]
    n_nat, n_mix = kinds.get("natural", 0), kinds.get("mixed", 0)
    for nat in combinations_with_replacement(classes, n_nat):
        for mix in combinations_with_replacement(classes, n_mix):
            yield fixed + [("natural", c) for c in nat] + [("mixed", c) for c in mix]


def _layouts(rules: Rules, pool: _Pool, kinds: dict[str, int], counts: dict[str, int],
             budget: list[int], errors: list[_NoFit]) -> Iterator[tuple[list[list[int]], _Pool]]:
    """The ways of laying out one team's counts on the table (its melds and the pool left),
    most likely first; ``budget`` caps the attempts of the whole tally."""
    classes = ["10", "5"] + ([] if rules.scoring.natural_aces_canasta
                             or rules.scoring.mixed_aces_canasta else ["A"])
    twenties = counts.get("20", 0)
    mixed = kinds.get("mixed", 0) + kinds.get("mixed_aces", 0)
    guess = twenties - max(2 * mixed - counts.get("50", 0), 0)  # about two wilds a canasta
    for aces in sorted(range(twenties + 1), key=lambda a: (0 < a < rules.melds.min_cards,
                                                         abs(a - guess))):
        # the mixed canastas get uneven shares of the wild cards: the larger ones go to the
        # first canastas of the plan, or (rev) to the last
        for fill, spread, rev in ((True, False, False), (True, False, True),
                                  (False, False, False), (True, True, False)):
            for plan in _plans(kinds, classes):
                if budget[0] <= 0:
                    return
                budget[0] -= 1
                trial = _Pool(pool.counts)
                layout = _Layout(rules, trial, counts, aces, fill, spread, rev)
                try:
                    melds = layout.build(plan, counts.get(BLACK3, 0))
                except _NoFit as exc:
                    errors.append(exc)
                    continue
                yield melds, trial


def _all_melds(rules: Rules, pool: _Pool, todo: list[tuple[int, dict[str, int], dict[str, int]]],
               budget: list[int], errors: list[tuple[int, _NoFit]]
               ) -> tuple[dict[int, list[list[int]]], _Pool] | None:
    """Lay out every team in ``todo`` (index, canastas, counts) from ``pool``, trying another
    layout of an earlier team when a later one cannot fit in what is left."""
    if not todo:
        return {}, pool
    index, kinds, counts = todo[0]
    errs: list[_NoFit] = []
    for melds, rest in _layouts(rules, pool, kinds, counts, budget, errs):
        found = _all_melds(rules, rest, todo[1:], budget, errors)
        if found is not None:
            found[0][index] = melds
            return found
    errors.extend((index, e) for e in errs[:1])
    return None


def _rank_cls(rank: int) -> str:
    return "20" if rank == _ACE else ("10" if rank >= 8 else "5")


def _counts(raw: Any, where: int, what: str, keys: Sequence[str]) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TallyError("scorepad.err.bad", f"{what}: expected counts by class", where)
    out: dict[str, int] = {}
    for k, v in raw.items():
        if k not in keys:
            raise TallyError("scorepad.err.bad", f"{what}: unknown class '{k}'", where)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 200:
            raise TallyError("scorepad.err.bad", f"{what}: '{k}' must be a count 0..200", where)
        out[k] = v
    return out


def _cards(raw: str, where: int) -> list[int]:
    try:
        return parse_cards(raw)
    except CardParseError as exc:
        raise TallyError("scorepad.err.cards", str(exc), where, msg=str(exc)) from None


def _hand_cards(pool: _Pool, counts: dict[str, int], where: int) -> list[int]:
    out: list[int] = []
    for cls, ranks in (("10", _TENS), ("5", _FIVES), ("20", (_ACE, _DEUCE))):
        k = counts.get(cls, 0)
        for r in sorted(ranks, key=pool.rank_left, reverse=True):
            got = min(k, pool.rank_left(r))
            out += pool.take_rank(r, got)
            k -= got
        if k:
            raise TallyError("scorepad.err.deck", "more cards left in hand than the deck holds",
                             where)
    out += pool.take_jokers(counts.get("50", 0))
    for cls, cards in ((BLACK3, BLACK_THREES), (RED3, RED_THREES)):
        k = counts.get(cls, 0)
        for c in cards:
            while k and pool.counts[c]:
                pool.take_card(c)
                out.append(c)
                k -= 1
        if k:
            raise TallyError("scorepad.err.deck", "more threes than the deck holds", where)
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
    if not isinstance(tally, dict) or not isinstance(tally.get("teams"), list):
        raise TallyError("scorepad.err.bad", "expected {\"teams\": [...]}")
    teams_in = tally["teams"]
    if len(teams_in) != len(scores_before):
        raise TallyError("scorepad.err.bad", f"expected {len(scores_before)} teams")
    team_size = players // len(teams_in)
    out_team, out_player = None, None
    went = tally.get("went_out")
    if went is not None:
        if not isinstance(went, dict) or not isinstance(went.get("team"), int) or \
                not 0 <= went["team"] < len(teams_in) or \
                not isinstance(went.get("player", 0), int) or \
                not 0 <= went.get("player", 0) < team_size:
            raise TallyError("scorepad.err.bad", "went_out: expected {team, player}")
        out_team, out_player = went["team"], went.get("player", 0)
    pool = _Pool(deck_counts(rules, players))
    kinds_ok = canasta_kinds(rules)
    catalogue = penalty_catalogue(rules)
    melds_by_team: list[list[list[int]]] = []
    # Melds typed as cards take their cards from the deck before any counted ones.
    for i, t in enumerate(teams_in):
        if not isinstance(t, dict):
            raise TallyError("scorepad.err.bad", "expected an object", i)
        if t.get("melds") is not None:
            if not isinstance(t["melds"], list) or not all(isinstance(m, str)
                                                           for m in t["melds"]):
                raise TallyError("scorepad.err.bad", "melds: expected a list of card texts", i)
            melds = [_cards(m, i) for m in t["melds"] if m.strip()]
            for m in melds:
                for c in m:
                    pool.take_card(c)
            melds_by_team.append(melds)
        else:
            melds_by_team.append([])
    todo = [(i, _counts(t.get("canastas"), i, "canastas", kinds_ok),
             _counts(t.get("melded"), i, "melded", (*CLASSES, BLACK3)))
            for i, t in enumerate(teams_in) if t.get("melds") is None]
    errors: list[tuple[int, _NoFit]] = []
    found = _all_melds(rules, pool, todo, [3000], errors)
    if found is None:
        where, first = errors[0] if errors else (todo[0][0], _NoFit("scorepad.err.bad", "?"))
        raise TallyError(first.key, f"{first} (check the counts)", where, **first.values)
    for i, melds in found[0].items():
        melds_by_team[i] = melds
    pool = found[1]
    teams_out = []
    for i, t in enumerate(teams_in):
        hands_in = t.get("hands", [])
        if not isinstance(hands_in, list) or len(hands_in) > team_size:
            raise TallyError("scorepad.err.bad", f"hands: expected up to {team_size}", i)
        hands: list[list[int]] = []
        for p in range(team_size):
            raw = hands_in[p] if p < len(hands_in) else None
            if i == out_team and p == out_player:
                hands.append([])
            elif isinstance(raw, str):
                cards = _cards(raw, i)
                for c in cards:
                    pool.take_card(c)
                hands.append(cards)
            else:
                hands.append(_hand_cards(pool, _counts(raw, i, "hands",
                                                       (*CLASSES, BLACK3, RED3)), i))
        reds = t.get("red_threes", 0)
        if isinstance(reds, bool) or not isinstance(reds, int) or not 0 <= reds <= 12:
            raise TallyError("scorepad.err.bad", "red_threes: expected a count", i)
        penalties = t.get("penalties", [])
        if not isinstance(penalties, list):
            raise TallyError("scorepad.err.bad", "penalties: expected a list", i)
        for pen in penalties:
            name = pen.get("name") if isinstance(pen, dict) else pen
            if name != "custom" and name not in catalogue:
                raise TallyError("scorepad.err.penalty", f"unknown penalty '{name}'", i,
                                 name=str(name))
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
