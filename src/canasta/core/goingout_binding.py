"""The partner's binding "yes": after which melds and lay-offs can the player still go out?

Seed 002: "è obbligatorio obbedire alla risposta del compagno": once the partner said yes and
a way out exists, every meld and lay-off must leave one (``legality.check_meld``). A huge
hand has thousands of candidate melds; searching a way out after each one
(:func:`canasta.core.goingout.can_go_out` on a copy) cost up to a second in pure Python.
:class:`BindingCheck` decides them all from ONE search of the position instead, wherever
that is exact, and bounds the rest.

**The shared search** (a side already open, one natural rank, at least two cards left after
the meld, no sequence canastas, no wild-card canasta kinds with a wild-card meld). Melding
``k`` naturals and ``w`` wild cards of rank R changes, for the going-out model
(:mod:`canasta.core.goingout_model`), only meld R (``w`` more wild cards on it, ``k`` more
cards) and the wild cards left to place (``w`` fewer): an open side's figures (canastas and
kinds, the final discards but the cards melded) do not depend on which cards are already
down. So the spreads that work after the meld are exactly the spreads of the position before
it that give meld R at least ``w`` wild cards (exactly ``w`` when the meld is a canasta
after it and ``melds.wilds_on_completed_canasta`` is off: no wild card may follow), with a
final discard the meld leaves in hand. :meth:`Model.wild_counts` lists, per final discard,
the wild-card counts each meld takes in some working spread; each candidate is then a lookup.
``tests/test_goingout_binding.py`` checks the lookup against a search after each candidate.

**Everything else** (the side not open yet: a meld moves points into the opening and may
complete it; the wild-card meld; black threes; a meld that leaves one card or none) is
searched after the candidate on a copy. The melds of one rank or of wild cards are searched
together (:meth:`BindingCheck._grids`): every count of naturals, jokers and deuces, in one
fixed order, within one work budget per position (:data:`FALLBACK_BUDGET`: states evaluated,
models built and copies made, about 15 ms of pure Python); any other (a sequence canasta)
on its own copy.

**The caps.** Every model stops after :data:`~canasta.core.goingout_model.NODE_CAP` states
(never in play: the largest hands need a few hundred), and the fallback after its budget.
A candidate whose search ran out is "not shown" (:data:`UNSHOWN`): it is refused (rule
``going_out.ask_partner``, case ``meld_unverified``) unless it is the first move of the
engine's own way out (:func:`canasta.core.goingout.going_out_plan`, compared by rank and
counts: suits do not matter), which always leaves one. So a "legal" is never wrong (no
accepted meld stops the going out), a refusal at the cap may be (a meld that would have
left a way out, beyond what the budget could show: the conservative side), the player always
has a legal way on, and ``can``, ``verify`` and ``legal_actions`` agree: each verdict depends
on the position and the candidate alone, never on what was asked before. Where the question
"can the player go out at all" itself runs out, the answer is no: the "yes" does not bind.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.core import goingout, transitions
from canasta.core.actions import Action, LayOff, Meld
from canasta.core.cards import JOKER, NATURAL_RANKS, WILD_RANK
from canasta.core.data import HandData
from canasta.core.goingout_model import COUNTS, Model, SearchOverrun
from canasta.core.melds import DEUCES, IS_WILD, RANK

#: The meld keys whose candidates the fallback decides together (:meth:`BindingCheck._grids`),
#: in the fast generator's order: the natural ranks, the wild-card meld, the black threes.
GRID_KEYS = (*NATURAL_RANKS, WILD_RANK, 3)
#: The fallback's work budget for one position, in units (a state evaluated is one unit, a
#: model built :data:`MODEL_UNITS`, a copy :data:`PROBE_UNITS`): about 15 ms of pure Python
#: on a free core, 40 searches on copies or so.
FALLBACK_BUDGET = 4000
PROBE_UNITS = 20
MODEL_UNITS = 40

#: A candidate's verdicts.
KEEPS = 1  # going out stays possible after it
STOPS = 0  # no way out after it
UNSHOWN = -1  # the search spent its budget (module docstring: the cap)
OTHER = -2  # not decided by counts (BindingCheck.by_counts): search it on a copy


class BindingCheck:
    """The binding-"yes" verdicts of one position (the player to act of ``s``, whose partner
    said yes and who can go out): built lazily, shared by every check of the position."""

    __slots__ = ("s", "known", "shared", "lasts", "models", "tables", "grids", "plan_sig",
                 "searches")

    def __init__(self, s: HandData) -> None:
        self.s = s
        self.known = -1  # can the player go out at all: -1 not searched, 0 no, 1 yes
        self.shared = -1  # the shared search: -1 not built, 1 built
        # Per final discard: the last card (-1: none), its model and, once asked for, its
        # {meld key: wild-count bit mask} (Model.wild_counts; built per discard on demand).
        self.lasts: list[int] = []
        self.models: list[Model] = []
        self.tables: dict[tuple[int, int], dict[int, int]] = {}  # (discard, deuces left)
        # The fallback's verdicts, by (meld key, naturals, jokers, deuces) (:meth:`_grids`).
        self.grids: dict[tuple[int, int, int, int], int] = {}
        self.plan_sig: tuple[int, int, int, int] | None = None
        self.searches = 0  # searches made on a copy (the fallback)

    def can_go_out(self) -> bool:
        """Can the player to act go out now (:func:`canasta.core.goingout.can_go_out`,
        searched once)? Only then does the "yes" bind."""
        if self.known < 0:
            # goingout.way_out over the models kept for the shared search (their memos too).
            if self.shared < 0:
                self._build()
            self.known = 0
            for model in self.models:
                try:
                    if model.possible():
                        self.known = 1
                        break
                except SearchOverrun:
                    break  # not shown: the "yes" does not bind (goingout.can_go_out)
        return self.known == 1

    def verdict(self, cards: Sequence[int], key: int, target: int | None) -> int:
        """:data:`KEEPS`, :data:`STOPS` or :data:`UNSHOWN` for melding ``cards`` on the
        side's meld ``key`` (``target``: the lay-off's meld, None for a new meld)."""
        if all(IS_WILD[c] or RANK[c] == key for c in cards):
            j = sum(1 for c in cards if c == JOKER)
            d = sum(1 for c in cards if c in DEUCES)
            v = self.by_counts(key, len(cards) - j - d, j, d)
            if v != OTHER:
                return v
        return self._probe(cards, key, target)

    def by_counts(self, key: int, k: int, j: int, d: int) -> int:
        """The verdict on melding ``k`` naturals of ``key`` (or none: ``key`` the wild-card
        meld), ``j`` jokers and ``d`` deuces in canonical suits: the shared search's, else
        the fallback's (:meth:`_grids`), else :data:`OTHER` (a candidate of neither: search
        it on a copy)."""
        v = self.counted(key, k, j, d)
        if v != UNSHOWN or key not in GRID_KEYS:
            return v if v != UNSHOWN else OTHER
        if not self.grids:
            self._grids()
        got = self.grids.get((key, k, j, d))
        return OTHER if got is None else got

    def allows(self, key: int, k: int, j: int, d: int) -> int:
        """:meth:`by_counts` resolved for the checks: True (legal under the "yes"), False,
        or :data:`OTHER` (ask the full check)."""
        v = self.by_counts(key, k, j, d)
        if v == OTHER:
            return OTHER
        if v == UNSHOWN:
            return int(self._plan_first() == (key, k, j, d))
        return int(v == KEEPS)

    def counted(self, key: int, k: int, j: int, d: int) -> int:
        """The shared search's verdict on melding ``k`` naturals of ``key``, ``j`` jokers
        and ``d`` deuces (:data:`KEEPS` or :data:`STOPS`), or :data:`UNSHOWN` where it does
        not apply (the module docstring) and a search on a copy must decide."""
        s = self.s
        seat = s.actor
        mr = s.rules.melds
        if not self._applies(key, k + j + d):
            return UNSHOWN
        if self.shared < 0:
            self._build()
        if self.shared != 1:
            return UNSHOWN
        hand = s.hands[seat]
        w = j + d
        base = (key - 1) * 4
        naturals_left = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3] - k
        jokers_left = hand[JOKER] - j
        deuces_left = hand[4] + hand[5] + hand[6] + hand[7] - d
        # A wild-card canasta's kind depends on the deuces left for it: tables per deuces
        # melded (``melds.wild_canasta_kinds``).
        kinds = mr.wild_melds and mr.wild_canasta_kinds
        meld = s.melds[s.team_of[seat]].get(key)
        exact = not mr.wilds_on_completed_canasta and (
            (len(meld) if meld is not None else 0) + k + w >= mr.canasta_size)
        for i, last in enumerate(self.lasts):
            if last >= 0:
                if IS_WILD[last]:
                    if (jokers_left if last == JOKER else deuces_left) < 1:
                        continue
                elif RANK[last] == key and naturals_left < 1:
                    continue
            masks = self._table(i, d if kinds else 0)
            if masks is None:
                return UNSHOWN  # that model spent its budget
            mask = masks.get(key, 0)
            if ((mask >> w) & 1) if exact else (mask >> w):
                return KEEPS
        return STOPS

    # -- the shared search -------------------------------------------------------------------

    def _applies(self, key: int, cards: int) -> bool:
        """Does the shared search decide a meld of ``cards`` cards on meld ``key``?"""
        s = self.s
        seat = s.actor
        return (key in NATURAL_RANKS and s.hand_size[seat] - cards >= 2
                and s.opened[s.team_of[seat]] and not s.rules.melds.real_canasta
                and not s.pending_pile)

    def _build(self) -> None:
        """The models of the position's final discards (their spreads come on demand)."""
        for model, _, last in goingout.models(self.s):
            self.lasts.append(-1 if last is None else last)
            self.models.append(model)
        self.shared = 1

    def _table(self, i: int, melded_deuces: int) -> dict[int, int] | None:
        """The wild-count masks of final discard ``i`` with ``melded_deuces`` of the hand's
        deuces in the candidate, or None when its model spends its budget (then every
        candidate whose lookup comes to it is :data:`UNSHOWN`: a verdict depends on the
        position and the candidate alone, never on what was asked before). The deuces left
        matter only to a wild-card meld of deuces alone, up to the most it may take: tables
        that differ in nothing else are one."""
        model = self.models[i]
        wt = model.wild_target
        deuces = len(model.deuces)
        if wt is not None and model.wck and model.deuces_only and (
                deuces - melded_deuces < wt.hi):
            deuces -= melded_deuces
        masks = self.tables.get((i, deuces))
        if masks is not None:
            return masks
        if model.deuces_left != deuces or model.budget < 0:
            model.reset(deuces)
        try:
            counts = model.wild_counts()
        except SearchOverrun:
            return None
        masks = {t.key: m for t, m in zip(model.targets, counts, strict=True)}
        self.tables[(i, deuces)] = masks
        return masks

    # -- the fallback ------------------------------------------------------------------------

    def _grids(self) -> None:
        """The verdicts of every meld of one rank (or of wild cards) that the shared search
        does not decide, searched on copies in a fixed order (the meld keys in
        :data:`GRID_KEYS` order, then naturals, jokers and deuces, fewer first) within one
        budget of :data:`FALLBACK_BUDGET` work units for the position (a state evaluated is
        one unit, a model :data:`MODEL_UNITS`, a copy :data:`PROBE_UNITS`). Past it the rest are
        :data:`UNSHOWN`. The verdicts depend on the position alone, whichever is asked first,
        so ``can`` and ``legal_actions`` agree."""
        s = self.s
        seat = s.actor
        hand = s.hands[seat]
        mr = s.rules.melds
        melds = s.melds[s.team_of[seat]]
        jokers = hand[JOKER]
        deuces = hand[4] + hand[5] + hand[6] + hand[7]
        first = [c for c in DEUCES for _ in range(hand[c])]
        units = 0
        self.grids[(0, 0, 0, 0)] = UNSHOWN  # built (no real meld has this key)
        for key in GRID_KEYS:
            if key == WILD_RANK:
                if not mr.wild_melds:
                    continue
                codes: list[int] = []
                meld = melds.get(key)
                room = mr.canasta_size - (len(meld) if meld is not None else 0)
                lo = 0
            else:
                base = (key - 1) * 4
                group = (8, 11) if key == 3 else tuple(range(base, base + 4))
                codes = [c for c in group for _ in range(hand[c])]
                if not codes and key not in melds:
                    continue
                room = mr.max_wilds
                lo = 0 if key in melds else min(mr.min_naturals, len(codes))
            target = key if key in melds else None
            for k in range(lo, len(codes) + 1):
                for j in range(min(jokers, room) + 1):
                    for d in range(min(deuces, room - j) + 1):
                        if not (k or j or d) or self._applies(key, k + j + d):
                            continue
                        if units >= FALLBACK_BUDGET:
                            self.grids[(key, k, j, d)] = UNSHOWN
                            continue
                        cards = codes[:k] + [JOKER] * j + first[:d]
                        nodes, models = COUNTS["nodes"], COUNTS["models"]
                        got = self._probe(cards, key, target)
                        units += (PROBE_UNITS + COUNTS["nodes"] - nodes
                                  + MODEL_UNITS * (COUNTS["models"] - models))
                        self.grids[(key, k, j, d)] = got

    def _probe(self, cards: Sequence[int], key: int, target: int | None) -> int:
        """The verdict of a search on a copy after the meld."""
        s = self.s
        probe = s.clone()
        probe.lookahead = False
        action: Action = Meld(tuple(cards)) if target is None else LayOff(target, tuple(cards))
        transitions.meld(probe, s.actor, action, tuple(cards), key)
        self.searches += 1
        if probe.is_over:
            return KEEPS
        got = goingout.way_out(probe)
        return KEEPS if got == 1 else STOPS if got == 0 else UNSHOWN

    def plan_starts_with(self, cards: Sequence[int], key: int) -> bool:
        """Is melding ``cards`` on meld ``key`` the first move of the engine's own way out
        (:func:`canasta.core.goingout.going_out_plan`, compared by rank and counts: suits do
        not matter)? Such a meld always leaves a way out, the rest of that plan: it is
        allowed when its verdict is :data:`UNSHOWN` (the module docstring: the cap)."""
        return self._plan_first() == _signature(cards, key)

    def _plan_first(self) -> tuple[int, int, int, int]:
        if self.plan_sig is None:
            plan = goingout.going_out_plan(self.s)
            first = plan[0] if plan else None
            if isinstance(first, LayOff):
                self.plan_sig = _signature(first.cards, first.rank)
            elif isinstance(first, Meld):
                cards = first.cards
                naturals = [c for c in cards if not IS_WILD[c]]
                self.plan_sig = _signature(cards, RANK[naturals[0]] if naturals else WILD_RANK)
            else:
                self.plan_sig = (-1, 0, 0, 0)
        return self.plan_sig


def _signature(cards: Sequence[int], key: int) -> tuple[int, int, int, int]:
    """What the rules see of a one-rank meld: its key, naturals, jokers and deuces."""
    j = sum(1 for c in cards if c == JOKER)
    d = sum(1 for c in cards if c in DEUCES)
    return key, len(cards) - j - d, j, d


class GoingOutMemo:
    """Can the player to act go out (:func:`canasta.core.goingout.going_out_plan`)? Searched
    at most once, so that the checks of one position share the answer: the checks of a
    binding "yes" ask it for every meld, lay-off and discard, and share one
    :class:`BindingCheck` for the melds."""

    __slots__ = ("binding",)

    def __init__(self) -> None:
        self.binding: BindingCheck | None = None

    def can_go_out(self, s: HandData) -> bool:
        return self.binding_check(s).can_go_out()

    def binding_check(self, s: HandData) -> BindingCheck:
        if self.binding is None:
            self.binding = BindingCheck(s)
        return self.binding
