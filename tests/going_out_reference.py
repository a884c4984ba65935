"""The exhaustive going-out search that the engine used before the polynomial one (main at
7694377, ``canasta/core/goingout.py``), kept unchanged below this docstring as the reference
for tests/test_going_out_dp.py: on small hands the engine's plan must be exactly this one's
(the same first plan, or None where this finds none). It enumerates every spread of the wild
cards and plays each candidate plan on a copy, so its cost grows exponentially with the hand:
use it on small hands only.
"""
from __future__ import annotations

from collections.abc import Iterator

from canasta.core.actions import Action, Discard, LayOff, Meld
from canasta.core.cards import BLACK_THREES, JOKER, NATURAL_RANKS, POINTS, WILD_RANK
from canasta.core.data import HandData, Phase
from canasta.core.melds import DEUCES, IS_WILD, SEQUENCE_KEY
from canasta.core.rules import CANASTA_ONLY


class _Target:
    """A meld that may receive cards in a going-out plan: its key, whether it exists, the
    naturals and wild cards it will hold before wild cards are spread, and the hand's naturals
    that go on it."""

    __slots__ = ("key", "exists", "before", "naturals", "wilds", "cards", "lo", "hi")

    def __init__(self, key: int, exists: bool, before: int, naturals: int, wilds: int,
                 cards: list[int]) -> None:
        self.key = key
        self.exists = exists
        self.before = before  # cards already on the table
        self.naturals = naturals  # after the hand's naturals are added
        self.wilds = wilds  # already on the table
        self.cards = cards  # naturals from hand
        self.lo = 0
        self.hi = 0


def reference_going_out_plan(s: HandData) -> list[Action] | None:
    """A sequence of melds, lay-offs and a final discard with which the player to act goes
    out this turn, or None when no way out exists (exact: every final discard, every meld of
    the hand's ranks and every spread of its wild cards is considered; see the module
    docstring for the two cases left out). The plan is checked by playing it on a copy, so it
    always works; the state is not changed."""
    if s.phase is not Phase.PLAY or s.no_discard or s.answer is False or s.pending_pile:
        return None
    seat = s.actor
    hand = s.hands[seat]
    if not _may_go_out(s, hand):
        return None
    for last in _final_discards(s, hand):
        rest = hand[:]
        if last is not None:
            rest[last] -= 1
        for plan in _plans(s, rest):
            if last is not None:
                plan.append(Discard(last))
            if _works(s, seat, plan):
                return plan
    return None


def _may_go_out(s: HandData, hand: list[int]) -> bool:
    """Quick necessary conditions: every natural rank without a meld needs
    ``melds.min_naturals`` cards (one odd card may be the final discard), and the side must
    be able to reach its canastas with the cards held."""
    mr = s.rules.melds
    melds = s.melds[s.team_of[s.actor]]
    odd = 0
    wilds = hand[JOKER] + hand[4] + hand[5] + hand[6] + hand[7]
    size = mr.canasta_size
    reach = 0
    for rank in NATURAL_RANKS:
        b = (rank - 1) * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        meld = melds.get(rank)
        if meld is None:
            if n and n < mr.min_naturals:
                odd += n
            if n and n + wilds >= size:
                reach += 1
        elif len(meld) + n + wilds >= size:
            reach += 1
    blacks = hand[8] + hand[11]
    if blacks and (blacks < mr.min_naturals or not (
            mr.black_three_meld_going_out or mr.black_threes_out_of_play)):
        odd += blacks
    if hand[9] + hand[10]:
        odd += hand[9] + hand[10]
    if odd > 1:
        return False
    if mr.real_canasta or mr.wild_melds:
        return True  # sequences and wild-card canastas: leave it to the search
    for key, meld in melds.items():
        if key >= SEQUENCE_KEY or (key == 3 and len(meld) >= size):
            reach += 1
    return reach >= s.rules.canastas_required(s.players)


def _final_discards(s: HandData, hand: list[int]) -> Iterator[int | None]:
    """None (no final discard) where allowed, then one card of each kind held that may be
    the last discard (``going_out.final_discard_may_be_wild`` / ``_black_three``)."""
    g = s.rules.going_out
    if not g.discard_required:
        yield None
    for rank in NATURAL_RANKS:
        b = (rank - 1) * 4
        for c in range(b, b + 4):
            if hand[c]:
                yield c
                break
    if g.final_discard_may_be_black_three:
        for group in (BLACK_THREES, (9, 10)):
            for c in group:
                if hand[c]:
                    yield c
                    break
    if g.final_discard_may_be_wild:
        if hand[JOKER]:
            yield JOKER
        for c in DEUCES:
            if hand[c]:
                yield c
                break


def _plans(s: HandData, hand: list[int]) -> Iterator[list[Action]]:
    """Every plan (without its final discard) that melds all of ``hand`` and meets the
    going-out requirements on paper."""
    r = s.rules
    mr = r.melds
    if hand[9] or hand[10]:
        return  # kept red threes: declaring one draws a card (module docstring)
    sequences = _sequences(s, hand) if mr.real_canasta else [[]]
    for seqs in sequences:
        rest = hand[:]
        for seq in seqs:
            for c in seq:
                rest[c] -= 1
        yield from _spreads(s, rest, seqs)


def _sequences(s: HandData, hand: list[int]) -> list[list[tuple[int, ...]]]:
    """Every set of sequence canastas (``melds.real_canasta``) that the hand holds at once,
    the empty set first."""
    size = s.rules.melds.canasta_size
    runs: list[tuple[int, ...]] = []
    for suit in range(4):
        for high in range(14, 2 + size, -1):
            ranks = [1 if v == 14 else v for v in range(high, high - size, -1)]
            runs.append(tuple((rk - 1) * 4 + suit for rk in ranks))
    out: list[list[tuple[int, ...]]] = []

    def walk(i: int, chosen: list[tuple[int, ...]], left: list[int]) -> None:
        if i == len(runs):
            out.append(chosen[:])
            return
        walk(i + 1, chosen, left)
        run = runs[i]
        if all(left[c] for c in run):
            for c in run:
                left[c] -= 1
            chosen.append(run)
            walk(i, chosen, left)  # the same run again (two or three packs)
            chosen.pop()
            for c in run:
                left[c] += 1

    walk(0, [], hand[:])
    out.sort(key=len)
    return out


def _spreads(s: HandData, hand: list[int], seqs: list[tuple[int, ...]]) -> Iterator[list[Action]]:
    r = s.rules
    mr = r.melds
    g = r.going_out
    size = mr.canasta_size
    team = s.team_of[s.actor]
    melds = s.melds[team]
    targets: list[_Target] = []
    for rank in NATURAL_RANKS:
        b = (rank - 1) * 4
        nat = [c for c in range(b, b + 4) for _ in range(hand[c])]
        meld = melds.get(rank)
        if meld is None and not nat:
            continue
        before = len(meld) if meld is not None else 0
        w0 = sum(1 for c in meld if IS_WILD[c]) if meld is not None else 0
        if meld is None and len(nat) < mr.min_naturals:
            return
        targets.append(_Target(rank, meld is not None, before, before - w0 + len(nat), w0,
                               nat))
    blacks = [c for c in BLACK_THREES for _ in range(hand[c])]
    black_target: _Target | None = None
    if blacks:
        if 3 in melds:
            return  # one meld per rank: black threes are melded or put out of play once
        partners = sum(s.hands[p][8] + s.hands[p][11]
                       for p in s.teams[team] if p != s.actor)
        if mr.black_threes_out_of_play and (
            len(blacks) + partners >= mr.black_threes_out_of_play
        ):
            black_target = _Target(3, False, 0, len(blacks), 0, blacks)
        elif mr.black_three_meld_going_out and len(blacks) >= (
                mr.min_naturals if mr.black_three_meld_wilds else mr.min_cards):
            black_target = _Target(3, False, 0, len(blacks), 0, blacks)
            targets.append(black_target)
        else:
            return
    wild_meld = melds.get(WILD_RANK)
    wild_target: _Target | None = None
    if mr.wild_melds:
        w = len(wild_meld) if wild_meld is not None else 0
        wild_target = _Target(WILD_RANK, wild_meld is not None, w, 0, w, [])
    jokers = hand[JOKER]
    deuces = [c for c in DEUCES for _ in range(hand[c])]
    wilds = jokers + len(deuces)
    wild_deuces_only = wild_meld is None or all(c in DEUCES for c in wild_meld)
    opened = s.opened[team]
    wild_opens = False
    if not opened:
        need = s.opening_minimum(team)
        points = s.opening_points + sum(POINTS[c] * hand[c] for c in range(len(hand)))
        points += sum(POINTS[c] for seq in seqs for c in seq)
        concealed = s.is_concealed(s.actor) and g.concealed_waives_minimum
        opening_ok = points >= need or concealed
        wild_opens = r.opening.wild_meld_opens and need < CANASTA_ONLY
        if not (opening_ok or r.opening.canasta_always_opens or wild_opens):
            return
    for t in targets:
        if t is black_target:
            t.lo, t.hi = 0, (wilds if mr.black_three_meld_wilds else 0)
        else:
            t.lo, t.hi = 0, wilds
        _bound(s, t)
    if wild_target is not None:
        room = size - wild_target.before
        wild_target.lo, wild_target.hi = 0, max(room, 0)
        targets.insert(0, wild_target)
    spread = [0] * len(targets)
    slack = [0] * (len(targets) + 1)  # most wild cards targets i.. can take
    for i in range(len(targets) - 1, -1, -1):
        slack[i] = slack[i + 1] + targets[i].hi
    if slack[0] < wilds:
        return
    needed = r.canastas_required(s.players)
    seq_canastas = len(seqs) + sum(1 for k in melds if k >= SEQUENCE_KEY)

    def fits(t: _Target, k: int) -> bool:
        if not t.cards and k == 0:
            return True  # nothing laid on it
        if t is wild_target:
            total = t.before + k
            return (t.exists or total >= mr.min_cards) and total <= size
        n, w = t.naturals, t.wilds + k
        if n + w < mr.min_cards or n < mr.min_naturals:
            return False
        if t.key == 3:
            return w == 0 or (mr.black_three_meld_wilds and n + w < size)
        if w > mr.max_wilds:
            return False
        if mr.wild_ratio == "lt" and w >= n:
            return False
        if mr.wild_ratio == "le" and w > n:
            return False
        return not (k and not mr.wilds_on_completed_canasta and t.before >= size)

    def meets(ks: list[int]) -> bool:
        canastas = seq_canastas
        natural = mixed = 0
        for t, k in zip(targets, ks, strict=True):
            total = t.before + len(t.cards) + k
            if total >= size:
                canastas += 1
                if t is not wild_target:
                    if t.wilds + k:
                        mixed += 1
                    else:
                        natural += 1
                elif mr.wild_canasta_kinds:
                    # melds.wild_canasta_kinds: deuces only is pure (S000 "canasta pura di
                    # pinelle"); _assemble gives the wild meld deuces before jokers.
                    if wild_deuces_only and k <= len(deuces):
                        natural += 1
                    else:
                        mixed += 1
            elif t is wild_target and (t.exists or k) and mr.unfinished_wild_meld_restricts:
                return False
        if canastas < needed:
            return False
        if g.natural_and_mixed_required and not (natural and mixed):
            return False
        if g.natural_canastas_required and natural < g.natural_canastas_required:
            return False
        if not opened and not opening_ok:
            if r.opening.canasta_always_opens and canastas > 0:
                return True
            # opening.wild_meld_opens: the wild meld (targets[0]) reaches a meld's size.
            return (wild_opens and wild_target is not None
                    and wild_target.before + ks[0] >= mr.min_cards)
        return True

    def walk(i: int, left: int) -> Iterator[list[int]]:
        if i == len(targets):
            if left == 0:
                yield spread[:]
            return
        t = targets[i]
        top = min(t.hi, left)
        low = max(t.lo, left - slack[i + 1])
        for k in range(top, low - 1, -1):  # most wild cards first: canastas sooner
            if fits(t, k):
                spread[i] = k
                yield from walk(i + 1, left - k)
        spread[i] = 0

    for ks in walk(0, wilds):
        if meets(ks):
            yield _assemble(targets, ks, wild_target, black_target, jokers, deuces, seqs, 0)
            if not opened and wilds:
                # Natural melds first: wild cards may have to wait for the opening (seed
                # 000: "Per la discesa a 50 punti si richiedono solo combinazioni con carte
                # naturali").
                yield _assemble(targets, ks, wild_target, black_target, jokers, deuces, seqs,
                                mr.min_cards)


def _bound(s: HandData, t: _Target) -> None:
    """Narrow ``t.hi`` by the limits on wild cards in one meld."""
    mr = s.rules.melds
    if t.key == 3:
        if mr.black_three_meld_wilds:
            t.hi = min(t.hi, mr.max_wilds, mr.canasta_size - 1 - t.naturals)
        return
    cap = mr.max_wilds - t.wilds
    if mr.wild_ratio == "lt":
        cap = min(cap, t.naturals - 1 - t.wilds)
    elif mr.wild_ratio == "le":
        cap = min(cap, t.naturals - t.wilds)
    if not mr.wilds_on_completed_canasta and t.before >= mr.canasta_size:
        cap = 0
    t.hi = min(t.hi, max(cap, 0))


def _assemble(targets: list[_Target], ks: list[int], wild_target: _Target | None,
              black_target: _Target | None, jokers: int, deuces: list[int],
              seqs: list[tuple[int, ...]], naturals_first: int) -> list[Action]:
    """The actions of one spread: the wild-card meld first (deuces before jokers, so a
    joker-free wild meld is tried where jokers are blocked), then sequence canastas, the
    natural melds and lay-offs, and the black threes last (melded only when going out).

    With ``naturals_first`` (``melds.min_cards``; 0: off) the order is instead: the melds
    and lay-offs that need no wild card (a new meld of at least ``naturals_first`` naturals
    is laid without its wild cards), sequence canastas, the wild-card meld, the melds that
    need wild cards, the remaining wild cards as lay-offs, the black threes."""
    pool_j = jokers
    pool_d = deuces[:]
    plain: list[Action] = []
    wild: list[Action] = []
    mixed: list[Action] = []
    later: list[Action] = []
    last: list[Action] = []
    for t, k in zip(targets, ks, strict=True):
        ws: list[int] = []
        for _ in range(k):
            if pool_j and (t is not wild_target or not pool_d):
                pool_j -= 1
                ws.append(JOKER)
            else:
                ws.append(pool_d.pop())
        cards = tuple(t.cards + ws)
        if not cards:
            continue
        action: Action = LayOff(t.key, cards) if t.exists else Meld(cards)
        if t is wild_target:
            wild.append(action)
        elif t is black_target:
            last.append(action)
        elif not naturals_first or not ws:
            plain.append(action)
        elif t.exists or len(t.cards) >= naturals_first:
            if t.cards:
                nat = tuple(t.cards)
                plain.append(LayOff(t.key, nat) if t.exists else Meld(nat))
            later.append(LayOff(t.key, tuple(ws)))
        else:
            mixed.append(action)
    if black_target is not None and not last:
        last.append(Meld(tuple(black_target.cards)))  # a group out of play
    seq_melds: list[Action] = [Meld(seq) for seq in seqs]
    if naturals_first:
        return plain + seq_melds + wild + mixed + later + last
    return wild + seq_melds + plain + last


def _works(s: HandData, seat: int, plan: list[Action]) -> bool:
    """Play ``plan`` on a copy; True when every action is legal and the player goes out."""
    probe = s.clone()
    probe.lookahead = False
    probe.answer = None if s.answer is True else s.answer
    for a in plan:
        if not probe.can(a):
            return False
        probe.apply(a)
        if probe.is_over:
            break
    return probe.is_over and probe.went_out == seat and len(plan) > 0 and (
        probe.hand_size[seat] == 0)

