"""Laying counted cards out as melds: the search behind :mod:`canasta.formats.tally`.

Given a team's canastas by kind and its melded cards by point class, find cards in the deck
that make exactly those canastas and those points, as legal melds (one meld per rank and side,
the wild-card limits of the rules), sharing the deck with the other teams. The twenties may be
aces or deuces, the naturals of a canasta may be tens or fives, the mixed canastas share the
wild cards unevenly: each way is tried in turn, most likely first, within a budget of tries.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from typing import Any

from canasta.core.cards import BLACK_THREES, JOKER, card_text, make_card
from canasta.core.rules import Rules
from canasta.core.wildlimit import ratio_code, wild_cap

BLACK3 = "b3"
TENS = (13, 12, 11, 10, 9, 8)
FIVES = (7, 6, 5, 4)
DEUCE = 2
ACE = 1
#: Runs of a sequence canasta (canastra real) from ace down to 4, with their classes.
RUNS = tuple(tuple(r) for r in ((1, 13, 12, 11, 10, 9, 8), (13, 12, 11, 10, 9, 8, 7),
                                 (12, 11, 10, 9, 8, 7, 6), (11, 10, 9, 8, 7, 6, 5),
                                 (10, 9, 8, 7, 6, 5, 4)))


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


class Pool:
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
                raise NoFit("scorepad.err.deck", "more cards than the deck holds")
        return out

    def take_jokers(self, n: int) -> list[int]:
        if self.counts[JOKER] < n:
            raise NoFit("scorepad.err.deck", "more jokers than the deck holds")
        self.counts[JOKER] -= n
        return [JOKER] * n

    def take_card(self, card: int) -> None:
        if not self.counts[card]:
            raise NoFit("scorepad.err.deck", f"more {card_text(card)} than the deck holds")
        self.counts[card] -= 1


class _Meld:
    __slots__ = ("cards", "cls", "canasta")

    def __init__(self, cards: list[int], cls: str | None, canasta: bool) -> None:
        self.cards = cards
        self.cls = cls        # class of its naturals ("10", "5", "A"), None for wild/run/b3
        self.canasta = canasta

    @property
    def rank(self) -> int:
        return next((c // 4 + 1 for c in self.cards if c != JOKER and c // 4 + 1 != DEUCE), 0)

    def wilds(self) -> int:
        return sum(1 for c in self.cards if c == JOKER or c // 4 + 1 == DEUCE)


class NoFit(Exception):
    """One way of laying out a team's counts did not work (or the deck ran out); ``key``
    is an i18n key of ``scorepad.err.*`` with its ``values``."""

    def __init__(self, key: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


RANKS = {"10": TENS, "5": FIVES, "A": (ACE,)}
ORDER = ("wild_six_jokers", "wild_deuces", "wild_mixed", "natural_aces", "mixed_aces",
          "sequence", "natural", "mixed")


class _Layout:
    """One attempt at a team's melds: the twenties split into ``aces`` and deuces, and the
    class of the naturals of each natural and mixed canasta fixed."""

    def __init__(self, rules: Rules, pool: Pool, counts: dict[str, int], aces: int,
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
            raise NoFit("scorepad.err.too_few", f"{k} natural cards of {cls} points needed",
                         cls="20" if cls == "A" else cls, n=k)
        self.nat[cls] -= k
        return self.pool.take_rank(rank, k)

    def wild(self, k: int) -> list[int]:
        """``k`` wild cards: jokers first (they can only be wild), then deuces."""
        j = min(k, self.jokers)
        if k - j > self.deuces or self.pool.counts[JOKER] < j \
                or self.pool.rank_left(DEUCE) < k - j:
            raise NoFit("scorepad.err.no_wild", "not enough wild cards among the melded cards")
        self.jokers -= j
        self.deuces -= k - j
        return self.pool.take_jokers(j) + self.pool.take_rank(DEUCE, k - j)

    def fresh_rank(self, cls: str, k: int) -> int:
        used = {m.rank for m in self.melds if m.cls is not None}
        free = [r for r in RANKS[cls] if r not in used and self.pool.rank_left(r) >= k]
        if not free:
            raise NoFit("scorepad.err.too_few", f"no rank of {cls} points left for a meld",
                         cls="20" if cls == "A" else cls, n=k)
        return max(free, key=self.pool.rank_left)

    def wild_cap(self, naturals: int, canasta: bool) -> int:
        """Most wild cards a meld of ``naturals`` natural cards may hold."""
        mr = self.rules.melds
        if naturals < mr.min_naturals:
            return 0
        cap = wild_cap(mr.max_wilds, ratio_code(mr.wild_ratio), naturals)
        if not canasta:
            cap = min(cap, mr.canasta_size - 1 - naturals)
        return max(cap, 0)

    # -- canastas ---------------------------------------------------------------------------------
    def canasta(self, kind: str, cls: str) -> None:
        size = self.rules.melds.canasta_size
        p = self.pool
        if kind == "wild_deuces":
            if self.deuces < size:
                raise NoFit("scorepad.err.too_few", "seven deuces needed", cls="20", n=size)
            self.deuces -= size
            self.melds.append(_Meld(p.take_rank(DEUCE, size), None, True))
        elif kind == "wild_six_jokers":
            if self.jokers < size - 1 or self.deuces < 1:
                raise NoFit("scorepad.err.too_few", "six jokers and a deuce needed",
                             cls="50", n=size - 1)
            self.jokers -= size - 1
            self.deuces -= 1
            self.melds.append(_Meld(p.take_jokers(size - 1) + p.take_rank(DEUCE, 1), None,
                                    True))
        elif kind == "wild_mixed":
            top = min(self.jokers, size - 2 if "wild_six_jokers" in canasta_kinds(self.rules)
                      else size - 1)
            j = next((j for j in range(top, 0, -1) if self.deuces >= size - j), 0)
            if not j:
                raise NoFit("scorepad.err.too_few", "jokers and deuces needed", cls="50", n=1)
            self.jokers -= j
            self.deuces -= size - j
            self.melds.append(_Meld(p.take_jokers(j) + p.take_rank(DEUCE, size - j), None,
                                    True))
        elif kind == "sequence":
            for run in RUNS:
                need = {"A": 0, "10": 0, "5": 0}
                for r in run:
                    need["A" if r == ACE else rank_cls(r)] += 1
                suits = [s for s in range(4) if all(p.counts[make_card(r, s)] for r in run)]
                if suits and all(self.nat[c] >= k for c, k in need.items()):
                    for c, k in need.items():
                        self.nat[c] -= k
                    self.melds.append(_Meld([p.take_rank(r, 1, (suits[0],))[0] for r in run],
                                            None, True))
                    return
            raise NoFit("scorepad.err.too_few", "a run of seven cards needed", cls="10", n=size)
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
            except NoFit:
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
            raise NoFit("scorepad.err.leftover", f"{self.nat[cls]} melded card(s) of "
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
            raise NoFit("scorepad.err.wilds", f"{self.jokers + self.deuces} melded wild "
                         "card(s) fit no meld", n=self.jokers + self.deuces)

    def share_wilds(self, mixed: int) -> list[int]:
        """The wild cards of each of ``mixed`` mixed canastas: the jokers and deuces left
        shared out as evenly as the meld limits allow (each takes at least one)."""
        size = self.rules.melds.canasta_size
        cap = max((w for w in range(1, size) if w <= self.wild_cap(size - w, True)), default=0)
        left = self.jokers + self.deuces
        if left < mixed or not cap:
            raise NoFit("scorepad.err.no_wild", "each mixed canasta needs a wild card among "
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
                raise NoFit("scorepad.err.deck", "more black threes than the deck holds")
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
    fixed = [(k, "A" if k.endswith("aces") else "") for k in sorted(kinds, key=ORDER.index)
             for _ in range(kinds[k]) if k not in ("natural", "mixed")]
    n_nat, n_mix = kinds.get("natural", 0), kinds.get("mixed", 0)
    for nat in combinations_with_replacement(classes, n_nat):
        for mix in combinations_with_replacement(classes, n_mix):
            yield fixed + [("natural", c) for c in nat] + [("mixed", c) for c in mix]


def _layouts(rules: Rules, pool: Pool, kinds: dict[str, int], counts: dict[str, int],
             budget: list[int], errors: list[NoFit]) -> Iterator[tuple[list[list[int]], Pool]]:
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
                trial = Pool(pool.counts)
                layout = _Layout(rules, trial, counts, aces, fill, spread, rev)
                try:
                    melds = layout.build(plan, counts.get(BLACK3, 0))
                except NoFit as exc:
                    errors.append(exc)
                    continue
                yield melds, trial


def all_melds(rules: Rules, pool: Pool, todo: list[tuple[int, dict[str, int], dict[str, int]]],
               budget: list[int], errors: list[tuple[int, NoFit]]
               ) -> tuple[dict[int, list[list[int]]], Pool] | None:
    """Lay out every team in ``todo`` (index, canastas, counts) from ``pool``, trying another
    layout of an earlier team when a later one cannot fit in what is left."""
    if not todo:
        return {}, pool
    index, kinds, counts = todo[0]
    errs: list[NoFit] = []
    for melds, rest in _layouts(rules, pool, kinds, counts, budget, errs):
        found = all_melds(rules, rest, todo[1:], budget, errors)
        if found is not None:
            found[0][index] = melds
            return found
    errors.extend((index, e) for e in errs[:1])
    return None


def rank_cls(rank: int) -> str:
    return "20" if rank == ACE else ("10" if rank >= 8 else "5")
