"""The going-out model: for one final discard and one set of sequence canastas, which spreads
of the hand's wild cards over its melds take the player out, found by a memoised search over
the melds (:mod:`canasta.core.goingout` plays the plan it yields on a copy).

The melds a going out can touch (*targets*) are the side's wild-card meld (first), one per
natural rank that is on the table or in hand (in :data:`~canasta.core.cards.NATURAL_RANKS`
order) and the black threes (last). A *spread* gives each target ``k`` of the hand's wild
cards. The plan of a spread is laid in one of two orders (:func:`canasta.core.goingout.
assemble`): *order 0* lays the wild meld, the sequence canastas, each target whole and the
black threes; *order 1* (only for a side not yet open that holds wild cards) lays first what
needs no wild card, then the wild meld and the wild cards.

A spread is accepted in an order when every action of its plan passes the checks of
:mod:`canasta.core.legality` and the last one goes out (:mod:`canasta.core.goingout_rules`).
Those checks depend on the spread only through a few running figures, so the search carries
them in a small *state* from target to target:

* canastas made (up to the number needed), natural and mixed canastas (up to the numbers the
  going-out rules ask), for ``going_out.canastas_required``, ``natural_and_mixed_required``
  and ``natural_canastas_required``;
* the wild meld's size (``melds.unfinished_wild_meld_restricts``, ``opening.wild_meld_opens``,
  ``opening.joker_meld_blocks_mattoni``: deuces go to the wild meld first);
* for ``opening.naturals_only_at`` during a concealed going out (wild cards are allowed only
  while the side has not opened, and the side opens once its natural melds reach the minimum):
  whether a wild card was laid yet (order 0), or the points of the natural melds that order 1
  lays with their wild cards, which therefore do not count before them;
* ``melds.wilds_on_completed_canasta`` in order 1 (the wild cards come after the naturals that
  complete the canasta), ``melds.wild_ratio`` for black threes with wild cards.

``reach(i, left, state)`` says whether the targets from ``i`` on can finish an accepted spread
with ``left`` wild cards still to place; it is memoised, so its cost is at most the number of
targets times the states times the wild cards left times the wild cards one target may take,
whatever the number of cards in hand (a state has at most a few hundred values). Spreads are
listed in the exhaustive search's order (most wild cards first on each target, in target
order) following only branches that ``reach`` keeps: the first one is found in one pass.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.core.cards import BLACK_THREES, JOKER, NATURAL_RANKS, POINTS, WILD_RANK
from canasta.core.data import HandData
from canasta.core.melds import BLACK3, DEUCES, IS_WILD, SEQUENCE_KEY
from canasta.core.rules import CANASTA_ONLY
from canasta.core.wildlimit import ratio_code, wild_cap, wild_limit_broken

# How ``opening.naturals_only_at`` constrains the wild cards of one order of a plan.
FREE = 0  # not in force, or the side cannot open before going out
FIRST = 1  # the first wild card must be laid before the natural melds open the side
NONE = 2  # no wild card may be laid

# The state, packed in one int (fields of a few bits; the mixed points on top).
_CAN = 0  # canastas made, 3 bits
_NAT = 3  # natural canastas, 3 bits
_MIX = 1 << 6  # a mixed canasta
_WL = 1 << 7  # order 0: a wild card was laid
_A0 = 1 << 8  # order 0 still possible
_A1 = 1 << 9  # order 1 still possible
_PANY = 1 << 10  # order 1: something is laid before the wild cards
_WBIG = 1 << 11  # the wild meld holds at least ``melds.min_cards``
_MATT = 1 << 12  # the wild meld's action is a mattoni opening (3 jokers, or 2 and a deuce)
_XC = 1 << 13  # the black threes, out of play with the partners', make a canasta
_M = 14  # order 1: points of the natural cards laid with their wild cards, from bit 14

#: Work counters: ``nodes`` memoised states evaluated, ``tries`` plans played on a copy,
#: ``misses`` accepted plans that the copy refused (the model missing a rule; stays 0).
#: ``models`` models built.
COUNTS: dict[str, int] = {"nodes": 0, "tries": 0, "misses": 0, "models": 0}

#: The most memoised states one model may evaluate (its ``budget``). Far above what the rules
#: allow (targets x states x wild cards: the largest hands of every preset evaluate a few
#: hundred; ``python -m canasta.sim.goingout_sweep`` prints the most), so it is never reached
#: in play; it is the bound that no position can defeat. Past it :meth:`Model.reach` raises
#: :class:`SearchOverrun`, and the callers answer conservatively (see there).
NODE_CAP = 20_000

#: The budget in force (``LIMIT["nodes"]``, :data:`NODE_CAP` unless a test lowers it to
#: show what happens at the cap).
LIMIT: dict[str, int] = {"nodes": NODE_CAP}


class SearchOverrun(Exception):
    """A going-out search spent its node budget (:data:`NODE_CAP`) without an answer."""


class Target:
    """A meld that may receive cards in a going-out plan: its key, whether it exists, the
    cards already on the table, the naturals after the hand's are added, the wild cards on the
    table, the hand's naturals that go on it and the bounds on the wild cards it takes."""

    __slots__ = ("key", "exists", "before", "naturals", "wilds", "cards", "lo", "hi")

    def __init__(self, key: int, exists: bool, before: int, naturals: int, wilds: int,
                 cards: list[int]) -> None:
        self.key = key
        self.exists = exists
        self.before = before
        self.naturals = naturals
        self.wilds = wilds
        self.cards = cards
        self.lo = 0
        self.hi = 0


class Model:
    """The targets of one final discard ``last`` and one set of sequence canastas ``seqs``
    over the rest of the hand ``hand`` (counts per card code), with every constant the checks
    read. ``ok`` is False when no spread can work (a rank too short to meld, black threes that
    cannot go, an opening out of reach); then nothing else is set up."""

    def __init__(self, s: HandData, hand: list[int], seqs: list[tuple[int, ...]],
                 last: int | None) -> None:
        COUNTS["models"] += 1
        self.ok = False
        self.memo: dict[int, bool] = {}
        self.budget = LIMIT["nodes"]  # memoised states this model may still evaluate
        r = s.rules
        mr = r.melds
        g = r.going_out
        self.size = size = mr.canasta_size
        self.min_cards = mr.min_cards
        self.min_naturals = mr.min_naturals
        self.max_wilds = mr.max_wilds
        self.ratio = ratio_code(mr.wild_ratio)
        self.black_wilds = mr.black_three_meld_wilds
        self.woc = mr.wilds_on_completed_canasta
        self.restricts = mr.unfinished_wild_meld_restricts
        self.wck = mr.wild_canasta_kinds
        seat = s.actor
        team = s.team_of[seat]
        melds = s.melds[team]
        # The cheap refusals first (a rank too short to meld, black threes that cannot go):
        # most final discards of a large hand end here.
        for rank in NATURAL_RANKS:
            b = (rank - 1) * 4
            n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
            if n and n < mr.min_naturals and rank not in melds:
                return
        blacks = [c for c in BLACK_THREES for _ in range(hand[c])]
        self.black_target: Target | None = None
        self.black_group = False  # black threes put out of play as a group (not a target)
        self.partners = 0
        if blacks:
            if 3 in melds:
                return  # one meld per rank
            self.partners = sum(s.hands[p][8] + s.hands[p][11]
                                for p in s.teams[team] if p != seat)
            if mr.black_threes_out_of_play and (
                len(blacks) + self.partners >= mr.black_threes_out_of_play
            ):
                self.black_group = True
                if last is not None and last in BLACK3 and not (
                        mr.black_three_meld_going_out and len(blacks) >= mr.min_cards):
                    # The last black three still in hand: the group is not all of them, so
                    # it is melded as a meld of black threes (legality.check_meld).
                    return
            elif not (mr.black_three_meld_going_out and len(blacks) >= (
                    mr.min_naturals if mr.black_three_meld_wilds else mr.min_cards)):
                return
        targets: list[Target] = []
        self.targets = targets
        for rank in NATURAL_RANKS:
            b = (rank - 1) * 4
            nat = [c for c in range(b, b + 4) for _ in range(hand[c])]
            meld = melds.get(rank)
            if meld is None and not nat:
                continue
            before = len(meld) if meld is not None else 0
            w0 = sum(1 for c in meld if IS_WILD[c]) if meld is not None else 0
            targets.append(Target(rank, meld is not None, before, before - w0 + len(nat), w0,
                                  nat))
        if blacks and not self.black_group:
            self.black_target = Target(3, False, 0, len(blacks), 0, blacks)
            targets.append(self.black_target)
        self.blacks = blacks
        wild_meld = melds.get(WILD_RANK)
        self.wild_target: Target | None = None
        if mr.wild_melds:
            w = len(wild_meld) if wild_meld is not None else 0
            self.wild_target = Target(WILD_RANK, wild_meld is not None, w, 0, w, [])
        self.jokers = jokers = hand[JOKER]
        self.deuces = [c for c in DEUCES for _ in range(hand[c])]
        # The deuces a wild-card canasta may be made of (``melds.wild_canasta_kinds``: all
        # deuces is the natural kind): the hand's, or fewer (:meth:`reset`).
        self.deuces_left = len(self.deuces)
        self.wilds = wilds = jokers + len(self.deuces)
        self.deuces_only = wild_meld is None or all(c in DEUCES for c in wild_meld)
        self.opened = opened = s.opened[team]
        need = s.opening_minimum(team)
        self.need = need
        seq_points = sum(POINTS[c] for seq in seqs for c in seq)
        rest_points = sum(POINTS[c] * hand[c] for c in range(len(hand))) + seq_points
        points = s.opening_points + rest_points
        concealed = s.is_concealed(seat) and g.concealed_waives_minimum
        self.opening_ok = points >= need or concealed
        self.concealed = concealed
        self.cao = r.opening.canasta_always_opens
        self.wild_opens = r.opening.wild_meld_opens and need < CANASTA_ONLY
        if not opened and not (self.opening_ok or self.cao or self.wild_opens):
            return
        # The points the last check counts: black threes out of play are no part of an
        # opening (transitions.meld), unless they are the final meld (goingout_rules).
        black_oop = bool(blacks) and mr.black_threes_out_of_play > 0
        self.black_oop_counted = black_oop and last is not None
        self.end_points = points - (sum(POINTS[c] for c in blacks)
                                    if self.black_oop_counted else 0)
        existing_canasta = any(len(m) >= size for m in melds.values())
        self.extra_canasta = 3 in melds and len(melds[3]) >= size
        if self.black_group and self.black_oop_counted:
            self.extra_canasta = self.extra_canasta or len(blacks) + self.partners >= size
        elif self.black_group:
            self.extra_canasta = self.extra_canasta or len(blacks) >= size
        for t in targets:
            if t is self.black_target:
                t.lo, t.hi = 0, (wilds if mr.black_three_meld_wilds else 0)
            else:
                t.lo, t.hi = 0, wilds
            self.bound(t)
        if self.wild_target is not None:
            wt = self.wild_target
            wt.lo, wt.hi = 0, max(size - wt.before, 0)
            targets.insert(0, wt)
        n = len(targets)
        self.slack = slack = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            slack[i] = slack[i + 1] + targets[i].hi
        if slack[0] < wilds:
            return
        self.needed = needed = r.canastas_required(s.players)
        self.cap_can = max(needed, 1)
        self.nm = g.natural_and_mixed_required
        self.nat_req = g.natural_canastas_required
        self.cap_nat = max(self.nat_req, 1 if self.nm else 0)
        self.seq_canastas = len(seqs) + sum(1 for k in melds if k >= SEQUENCE_KEY)
        self.pts = [sum(POINTS[c] for c in t.cards) for t in targets]
        # opening.naturals_only_at (legality.check_meld), its concealed exception and the
        # opening completed by natural melds (transitions.maybe_complete_opening).
        na = r.opening_minimum(s.scores[team]) in r.opening.naturals_only_at
        noc = na and not s.opened_at_turn_start
        cw = g.concealed_waives_minimum and s.is_concealed(seat)
        prewild = any(IS_WILD[c] for m in melds.values() for c in m)
        self.never_opens = na and prewild
        if not noc:
            self.mode0 = self.mode1 = FREE
        elif cw and not opened:
            self.mode0 = FREE if self.never_opens else FIRST
            self.mode1 = FIRST
        else:
            self.mode0 = self.mode1 = NONE
        mattoni = (r.opening.joker_meld_blocks_mattoni and s.took_pile
                   and s.mattoni_blocked(team))
        self.mattoni = mattoni
        # Order 0, FIRST: is the side open before target i (its natural melds, in order)?
        self.opened_before = [False] * n
        pre = s.opening_points + seq_points
        count = len(seqs)
        canasta = self.cao and (existing_canasta or bool(seqs))
        for i, t in enumerate(targets):
            if t is self.wild_target:
                continue
            self.opened_before[i] = count > 0 and (pre >= need or canasta)
            if t is not self.black_target and t.cards:
                pre += self.pts[i]
                count += 1
                canasta = canasta or (self.cao and t.before + len(t.cards) >= size)
        # Order 1: what is laid before the wild cards opens the side when it reaches the
        # minimum (less the points of the melds laid with their wild cards, the state's M),
        # makes a canasta (opening.canasta_always_opens) or finds a wild meld on the table.
        self.order1 = not opened and wilds > 0
        plain_points = s.opening_points + seq_points + sum(
            self.pts[i] for i, t in enumerate(targets)
            if t is not self.wild_target and t is not self.black_target)
        self.fixed_open = (self.cao and (existing_canasta or bool(seqs) or any(
            t.before + len(t.cards) >= size for t in targets
            if t is not self.wild_target and t is not self.black_target and t.cards))) or (
            self.wild_opens and wild_meld is not None and len(wild_meld) >= mr.min_cards)
        self.mcap = max(plain_points - need + 1, 0)
        self.track = self.order1 and (self.mode1 == FIRST or mattoni) and not (
            self.fixed_open or self.never_opens) and self.mcap > 0
        start = _A0 | (_A1 if self.order1 and self.mode1 != NONE else 0)
        start |= min(self.seq_canastas, self.cap_can) << _CAN
        if seqs:
            start |= _PANY
        self.start = start
        self.ok = True

    def bound(self, t: Target) -> None:
        """Narrow ``t.hi`` by the limits on wild cards in one meld."""
        if t.key == 3:
            if self.black_wilds:
                t.hi = min(t.hi, self.max_wilds, self.size - 1 - t.naturals)
            return
        cap = wild_cap(self.max_wilds, self.ratio, t.naturals) - t.wilds
        if not self.woc and t.before >= self.size:
            cap = 0
        t.hi = min(t.hi, max(cap, 0))

    def fits(self, t: Target, k: int) -> bool:
        """Is target ``t`` with ``k`` more wild cards a valid meld (``melds.*``)?"""
        if not t.cards and k == 0:
            return True  # nothing laid on it
        if t is self.wild_target:
            total = t.before + k
            return (t.exists or total >= self.min_cards) and total <= self.size
        n, w = t.naturals, t.wilds + k
        if n + w < self.min_cards or n < self.min_naturals:
            return False
        if t.key == 3:
            if w == 0:
                return True
            if not (self.black_wilds and n + w < self.size):
                return False
            # meldshape.meld_error goes on to the wild-card limit for black threes too.
            return not wild_limit_broken(self.min_naturals, self.max_wilds, self.ratio, n, w)
        if wild_limit_broken(self.min_naturals, self.max_wilds, self.ratio, n, w):
            return False
        return not (k and not self.woc and t.before >= self.size)

    def step(self, i: int, st: int, k: int) -> int:
        """The state after giving target ``i`` ``k`` wild cards, or -1 when no order of the
        plan can work any more."""
        t = self.targets[i]
        if not self.fits(t, k):
            return -1
        can = (st >> _CAN) & 7
        nat = (st >> _NAT) & 7
        n = len(t.cards)
        total = t.before + n + k
        if t is self.wild_target:
            if total >= self.size:
                can += 1
                if self.wck:
                    if self.deuces_only and k <= self.deuces_left:
                        nat += 1
                    else:
                        st |= _MIX
            elif (t.exists or k) and self.restricts:
                return -1
            if total >= self.min_cards and (t.exists or k):
                st |= _WBIG
            if self.mattoni and k == 3 and len(self.deuces) <= 1:
                st |= _MATT
                if not self.opened:
                    st &= ~_A0  # order 0 lays it first: the side is not open yet
            if k:
                if self.mode0 == NONE:
                    st &= ~_A0
                st |= _WL
        else:
            if total >= self.size:
                can += 1
                if t.wilds + k:
                    st |= _MIX
                else:
                    nat += 1
            if k:
                if self.mode0 == NONE or (
                        self.mode0 == FIRST and not st & _WL and self.opened_before[i]):
                    st &= ~_A0
                st |= _WL
            if st & _A1 and t is not self.black_target:
                if k and n and (t.exists or n >= self.min_cards) and (
                        t.before + n >= self.size and not self.woc):
                    st &= ~_A1  # the wild cards would go on a completed canasta
                elif k and not t.exists and n < self.min_cards:
                    if self.track:
                        m = min((st >> _M) + self.pts[i], self.mcap)
                        st = (st & ((1 << _M) - 1)) | (m << _M)
                elif n:
                    st |= _PANY
            if t is self.black_target and self.black_oop_counted and (
                    t.naturals + k + self.partners >= self.size):
                st |= _XC
        if not st & (_A0 | _A1):
            return -1
        can = min(can, self.cap_can)
        nat = min(nat, 7)
        return (st & ~(63 << _CAN)) | (can << _CAN) | (nat << _NAT)

    def accept(self, st: int) -> int:
        """Which orders of the plan work for a finished spread in state ``st``: bit 0 order
        0, bit 1 order 1 (the going-out requirements and the last checks)."""
        can = (st >> _CAN) & 7
        nat = (st >> _NAT) & 7
        if can < self.needed:
            return 0
        if self.nm and not (nat and st & _MIX):
            return 0
        if self.nat_req and nat < self.nat_req:
            return 0
        wbig = bool(st & _WBIG) and self.wild_target is not None
        if not self.opened:
            if not self.opening_ok and not (
                    (self.cao and can > 0) or (self.wild_opens and wbig)):
                return 0
            if not (self.end_points >= self.need or self.concealed
                    or (self.cao and (can > 0 or self.extra_canasta or bool(st & _XC)))
                    or (self.wild_opens and wbig)):
                return 0
        out = 1 if st & _A0 else 0
        if st & _A1:
            opened = bool(st & _PANY) and not self.never_opens and (
                self.fixed_open or (self.mcap > 0 and (st >> _M) < self.mcap))
            if not ((self.mode1 == FIRST and opened) or (self.mattoni and st & _MATT
                                                         and not opened)):
                out |= 2
        return out

    def reach(self, i: int, left: int, st: int) -> bool:
        """Can targets ``i`` on, with ``left`` wild cards still to place, finish an accepted
        spread from state ``st``? Depth first in the exhaustive search's order (most wild
        cards first), memoised, so the first accepted spread is found in one pass and a
        position with none costs at most targets x states x wild cards left."""
        if i == len(self.targets):
            return left == 0 and self.accept(st) != 0
        key = (st * (self.wilds + 1) + left) * 32 + i  # targets: 14 at most
        got = self.memo.get(key)
        if got is not None:
            return got
        COUNTS["nodes"] += 1
        self.budget -= 1
        if self.budget < 0:
            raise SearchOverrun(f"going-out search past {LIMIT['nodes']} states")
        t = self.targets[i]
        top = min(t.hi, left)
        low = max(t.lo, left - self.slack[i + 1])
        out = False
        for k in range(top, low - 1, -1):
            nxt = self.step(i, st, k)
            if nxt >= 0 and self.reach(i + 1, left - k, nxt):
                out = True
                break
        self.memo[key] = out
        return out

    def possible(self) -> bool:
        """Does some spread work?"""
        return self.ok and self.reach(0, self.wilds, self.start)

    def reset(self, deuces_left: int) -> None:
        """Search again from nothing (memo and budget), as if ``deuces_left`` of the hand's
        deuces could go to the wild-card meld (the others are already melded elsewhere)."""
        self.deuces_left = deuces_left
        self.memo = {}
        self.budget = LIMIT["nodes"]

    def wild_counts(self) -> list[int]:
        """For each target, the numbers of wild cards it takes in some accepted spread, as a
        bit mask (bit ``k``: ``k`` wild cards); all 0 when no spread works. One forward pass
        over the targets that keeps only the states :meth:`reach` can finish, so it costs
        what :meth:`possible` costs, once more at most."""
        n = len(self.targets)
        out = [0] * n
        if not self.possible():
            return out
        # The states reached before each target, each with the wild cards left in it (a
        # step does not depend on them, so it is made once per state and count).
        frontier: dict[int, set[int]] = {self.start: {self.wilds}}
        for i in range(n):
            t = self.targets[i]
            after = self.slack[i + 1]
            ahead: dict[int, set[int]] = {}
            for st, lefts in frontier.items():
                top = min(t.hi, max(lefts))
                low = max(t.lo, min(lefts) - after)
                for k in range(top, low - 1, -1):
                    nxt = self.step(i, st, k)
                    if nxt < 0:
                        continue
                    for left in lefts:
                        if k <= left and left - k <= after and self.reach(i + 1, left - k, nxt):
                            out[i] |= 1 << k
                            ahead.setdefault(nxt, set()).add(left - k)
            frontier = ahead
        return out

    def spreads(self) -> Iterator[tuple[list[int], int]]:
        """Every accepted spread in the exhaustive search's order, with its orders (bits as
        :meth:`accept`)."""
        if not self.possible():
            return
        ks = [0] * len(self.targets)
        yield from self.walk(0, self.wilds, self.start, ks)

    def walk(self, i: int, left: int, st: int, ks: list[int]) -> Iterator[tuple[list[int], int]]:
        if i == len(self.targets):
            yield ks[:], self.accept(st)
            return
        t = self.targets[i]
        top = min(t.hi, left)
        low = max(t.lo, left - self.slack[i + 1])
        for k in range(top, low - 1, -1):  # most wild cards first, as the exhaustive search
            nxt = self.step(i, st, k)
            if nxt >= 0 and self.reach(i + 1, left - k, nxt):
                ks[i] = k
                yield from self.walk(i + 1, left - k, nxt, ks)
        ks[i] = 0
