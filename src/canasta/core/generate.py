"""Fast generation of legal actions: per rank, from the hand's counts, without re-verifying.

:func:`canasta.core.legality.legal_actions` yields the same actions, in the same order, as
checking every candidate of :func:`canasta.core.candidates.play_candidates` and
``take_candidates`` with the full checks (``reference_legal_actions``; a differential test
compares the two on random positions of every preset). The difference is cost: here each
candidate is decided by arithmetic on counts (the meld's naturals and wild cards before and
after, the hand's size after) that mirrors the checks of ``legality.check_meld``,
``meld_error``, ``check_discard`` and ``check_ask`` term by term, with no exception raised,
no message built and no copy made. Only the rare candidates whose legality needs a look ahead
(the last cards of a hand: going out, melding down to one card, a pile waiting for the
opening, a partner's binding "yes") are handed to the full check (the ``full`` argument).

A verdict is one of ``SURE`` (legal), ``NO`` (illegal) or ``ASK`` (ask the full check). The
checks are a conjunction (an action is legal when no check refuses it), so any one refusal
decides ``NO`` whatever the order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from canasta.core.actions import (
    ORDER,
    Action,
    AskPartner,
    Discard,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import JOKER, NATURAL_RANKS, NUM_CODES, WILD_RANK
from canasta.core.data import HandData
from canasta.core.goingout_binding import OTHER, BindingCheck
from canasta.core.melds import IS_WILD
from canasta.core.rules import MeldRules
from canasta.core.wildlimit import ratio_code, wild_limit_broken

SURE = 0
NO = 1
ASK = 2

#: The full check of one action: True when it is legal now.
FullCheck = Callable[[HandData, Action], bool]


def shape_ok(mr: MeldRules, rank: int, total: int, wilds: int, added_wilds: int, before: int,
             wild_meld_unfinished: bool) -> bool:
    """Is a meld of ``rank`` holding ``total`` cards, ``wilds`` of them wild, valid after
    ``added_wilds`` wild cards were added to ``before`` cards on the table? Mirrors
    ``meldshape.meld_error`` (``melds.min_cards``, ``min_naturals``, ``max_wilds``,
    ``wild_ratio``, ``wild_melds``, ``black_three_meld_wilds``, ``wilds_on_completed_canasta``,
    ``unfinished_wild_meld_restricts``); ``wild_meld_unfinished`` is whether the side has an
    unfinished wild-card meld."""
    if rank == WILD_RANK:
        return mr.wild_melds and mr.min_cards <= total <= mr.canasta_size
    if total < mr.min_cards:
        return False
    if rank == 3:
        if not wilds:
            return True
        if not mr.black_three_meld_wilds or total >= mr.canasta_size:
            return False
    if wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio_code(mr.wild_ratio),
                         total - wilds, wilds):
        return False
    if added_wilds and not mr.wilds_on_completed_canasta and before >= mr.canasta_size:
        return False
    return not (added_wilds and mr.unfinished_wild_meld_restricts and wild_meld_unfinished)


def _first(hand: list[int], base: int, k: int, out: list[int]) -> None:
    """Append the first ``k`` cards of the four codes from ``base`` (canonical suits)."""
    for c in range(base, base + 4):
        take = hand[c] if hand[c] < k else k
        for _ in range(take):
            out.append(c)
        k -= take
        if not k:
            return


def _canonical(cards: tuple[int, ...]) -> bool:
    """Are ``cards`` already in an action's canonical order (``actions.ORDER``)?"""
    for i in range(1, len(cards)):
        if ORDER[cards[i - 1]] > ORDER[cards[i]]:
            return False
    return True


def _meld(cards: tuple[int, ...]) -> Meld:
    """``Meld(cards)``, without sorting again cards already in canonical order (the
    generated candidates always are; the differential test compares with the constructor)."""
    if not _canonical(cards):
        return Meld(cards)
    a = object.__new__(Meld)
    object.__setattr__(a, "cards", cards)
    return a


def _lay_off(rank: int, cards: tuple[int, ...]) -> LayOff:
    """``LayOff(rank, cards)``, as :func:`_meld`."""
    if not _canonical(cards):
        return LayOff(rank, cards)
    a = object.__new__(LayOff)
    object.__setattr__(a, "rank", rank)
    object.__setattr__(a, "cards", cards)
    return a


def _take(cards: tuple[int, ...]) -> TakePile:
    """``TakePile(cards)``, as :func:`_meld`."""
    if not _canonical(cards):
        return TakePile(cards)
    a = object.__new__(TakePile)
    object.__setattr__(a, "cards", cards)
    return a


def _first_n(hand: list[int], base: int, k: int) -> list[int]:
    out: list[int] = []
    _first(hand, base, k, out)
    return out


def _wild_table(hand: list[int], jokers: int, deuces: int) -> list[list[tuple[int, ...]]]:
    """``table[j][d]``: the canonical wild cards of ``j`` jokers and ``d`` deuces (the
    first deuces by suit), as in ``candidates.wild_choices``."""
    ds = _first_n(hand, 4, deuces)
    return [[(JOKER,) * j + tuple(ds[:d]) for d in range(deuces + 1)]
            for j in range(jokers + 1)]


class _Turn:
    """What every candidate of one PLAY phase shares (computed once per call), with the meld
    rules it reads copied into plain fields."""

    __slots__ = ("s", "seat", "team", "hand", "size", "melds", "no_melds", "binding",
                 "opened", "wm_unfinished", "nat_only", "mattoni",
                 "min_cards", "min_naturals", "max_wilds", "canasta_size", "ratio",
                 "wild_melds", "black_wilds", "wilds_on_completed", "restricts",
                 "black_out_of_play", "black_going_out", "discard_required", "pending",
                 "lookahead", "check")


    def __init__(self, s: HandData, check: BindingCheck | None = None) -> None:
        r = s.rules
        mr = r.melds
        self.s = s
        self.seat = seat = s.actor
        self.team = team = s.team_of[seat]
        self.hand = s.hands[seat]
        self.size = s.hand_size[seat]
        self.melds = melds = s.melds[team]
        self.no_melds = r.turn.first_round_no_meld and s.first_round
        self.binding = s.answer is True and s.lookahead
        self.opened = opened = s.opened[team]
        wm = melds.get(WILD_RANK)
        self.wm_unfinished = wm is not None and len(wm) < mr.canasta_size
        # Every meld of the opening turn; not a concealed going out that needs no opening.
        self.nat_only = ((not opened or not s.opened_at_turn_start)
                         and r.opening_minimum(s.scores[team]) in r.opening.naturals_only_at
                         and not (not opened and r.going_out.concealed_waives_minimum
                                  and s.is_concealed(seat)))
        self.mattoni = (not opened and r.opening.joker_meld_blocks_mattoni and s.took_pile
                        and s.mattoni_blocked(team))
        # The binding "yes" (goingout_binding), shared with the full checks of the position.
        self.check: BindingCheck = check if check is not None else BindingCheck(s)
        self.min_cards: int = mr.min_cards
        self.min_naturals: int = mr.min_naturals
        self.max_wilds: int = mr.max_wilds
        self.canasta_size: int = mr.canasta_size
        self.ratio: int = ratio_code(mr.wild_ratio)  # wildlimit.RATIO_*
        self.wild_melds: bool = mr.wild_melds
        self.black_wilds: bool = mr.black_three_meld_wilds
        self.wilds_on_completed: bool = mr.wilds_on_completed_canasta
        self.restricts: bool = mr.unfinished_wild_meld_restricts and self.wm_unfinished
        self.black_out_of_play: int = mr.black_threes_out_of_play
        self.black_going_out: bool = mr.black_three_meld_going_out
        self.discard_required: bool = r.going_out.discard_required
        self.pending: bool = bool(s.pending_pile)
        self.lookahead: bool = s.lookahead


    def can_go_out(self) -> bool:
        """Can the player go out this turn (searched once per position)?"""
        return self.check.can_go_out()


def _shape(t: _Turn, key: int, total: int, wilds: int, added_wilds: int, before: int) -> bool:
    """:func:`shape_ok` over the rules copied into ``t``."""
    if key == WILD_RANK:
        return t.wild_melds and t.min_cards <= total <= t.canasta_size
    if total < t.min_cards:
        return False
    if key == 3:
        if not wilds:
            return True
        if not t.black_wilds or total >= t.canasta_size:
            return False
    if wild_limit_broken(t.min_naturals, t.max_wilds, t.ratio, total - wilds, wilds):
        return False
    if added_wilds and not t.wilds_on_completed and before >= t.canasta_size:
        return False
    return not (added_wilds and t.restricts)


def meld_verdict(t: _Turn, key: int, exists: bool, before: int, before_wilds: int,
                 added: int, jokers: int, deuces: int) -> int:
    """The verdict on melding ``added`` cards (``jokers`` and ``deuces`` of them wild) onto
    the side's meld ``key`` (``exists``: a lay-off; ``before`` cards, ``before_wilds`` wild,
    already there). Mirrors ``legality.check_meld`` for one-rank melds and the wild meld."""
    if t.no_melds:
        return NO  # turn.first_round_no_meld
    if not exists and key in t.melds:
        return NO  # one meld per rank
    hand = t.hand
    out_of_play = (key == 3 and not exists and t.black_out_of_play > 0
                   and added == hand[8] + hand[11]
                   and added + _partners_blacks(t) >= t.black_out_of_play)
    if key == 3 and not t.black_going_out and not out_of_play:
        return NO
    wild = jokers + deuces
    if not out_of_play and not _shape(t, key, before + added, before_wilds + wild, wild,
                                      before):
        return NO
    if wild and t.nat_only:
        return NO  # opening.naturals_only_at
    if key == WILD_RANK and t.mattoni and added == 3 and jokers >= 2 and wild == 3:
        return NO  # opening.joker_meld_blocks_mattoni (meldshape.is_mattoni)
    after = t.size - added
    if key == 3 and after > 1 and not out_of_play:
        return NO  # black threes only when going out
    if after == 0 and t.discard_required and not t.pending:
        return NO
    if after == 0 or (after == 1 and t.lookahead):
        return ASK
    s = t.s
    r = s.rules
    if not t.opened and s.took_pile and t.lookahead and not (
        r.going_out.concealed_waives_minimum and s.is_concealed(t.seat)
    ):
        return ASK  # the take cannot be undone: the opening must stay within reach
    if t.binding and t.can_go_out():
        # The partner's binding "yes": the shared search decides, or the full check.
        v = t.check.allows(key, added - wild, jokers, deuces)
        return ASK if v == OTHER else SURE if v else NO
    return SURE


def _partners_blacks(t: _Turn) -> int:
    """Mirrors ``candidates.partners_black_threes``."""
    s = t.s
    return sum(s.hands[p][8] + s.hands[p][11] for p in s.teams[t.team] if p != t.seat)


def play_actions(s: HandData, full: FullCheck,
                 rare: Callable[[HandData], Iterable[Action]],
                 check: BindingCheck | None = None) -> Iterator[Action]:
    """The legal actions of the PLAY phase, in the order of ``legality.play_candidates``.
    ``full`` decides the candidates that need a look ahead; ``rare`` yields the candidates
    of the rare rules (sequence canastas, declared red threes), all decided by ``full``.
    ``check``: the position's binding-"yes" verdicts, shared with ``full``'s checks."""
    t = _Turn(s, check)
    melded = False  # a meld or lay-off was yielded (then a take cannot be given back)
    r = s.rules
    mr = r.melds
    hand = t.hand
    melds = t.melds
    jokers = hand[JOKER]
    deuces = hand[4] + hand[5] + hand[6] + hand[7]
    wild_tab = _wild_table(hand, jokers, deuces)
    for rank in NATURAL_RANKS:
        base = (rank - 1) * 4
        n = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
        existing = melds.get(rank)
        if n:
            nat = tuple(_first_n(hand, base, n))
        else:
            nat = ()
        if existing is not None:
            before = len(existing)
            before_wilds = 0
            for c in existing:
                if IS_WILD[c]:
                    before_wilds += 1
            cap = max(t.max_wilds - before_wilds, 0)
            for k in range(n + 1):
                for j in range(min(jokers, cap) + 1):
                    for d in range(min(deuces, cap - j) + 1):
                        if not (k or j or d):
                            continue
                        v = meld_verdict(t, rank, True, before, before_wilds, k + j + d, j, d)
                        if v == NO:
                            continue
                        a: Action = _lay_off(rank, nat[:k] + wild_tab[j][d])
                        if v == SURE or full(s, a):
                            melded = True
                            yield a
        elif n >= t.min_naturals:
            for k in range(t.min_naturals, n + 1):
                for j in range(min(jokers, t.max_wilds) + 1):
                    for d in range(min(deuces, t.max_wilds - j) + 1):
                        if k + j + d < t.min_cards:
                            continue
                        v = meld_verdict(t, rank, False, 0, 0, k + j + d, j, d)
                        if v == NO:
                            continue
                        a = _meld(nat[:k] + wild_tab[j][d])
                        if v == SURE or full(s, a):
                            melded = True
                            yield a
    if mr.wild_melds:
        wild_meld = melds.get(WILD_RANK)
        before = len(wild_meld) if wild_meld is not None else 0
        room = t.canasta_size - before
        for j in range(min(jokers, room) + 1):
            for d in range(min(deuces, room - j) + 1):
                if not (j or d):
                    continue
                v = meld_verdict(t, WILD_RANK, wild_meld is not None, before, before, j + d,
                                 j, d)
                if v == NO:
                    continue
                ws = wild_tab[j][d]
                a = _lay_off(WILD_RANK, ws) if wild_meld is not None else _meld(ws)
                if v == SURE or full(s, a):
                    melded = True
                    yield a
    b = hand[8] + hand[11]
    if mr.black_three_meld_going_out:
        with_wilds = mr.black_three_meld_wilds
        for k in range(t.min_naturals if with_wilds else t.min_cards, b + 1):
            for j in range(min(jokers, t.max_wilds) + 1 if with_wilds else 1):
                for d in range(min(deuces, t.max_wilds - j) + 1 if with_wilds else 1):
                    if k + j + d < t.min_cards:
                        continue
                    v = meld_verdict(t, 3, False, 0, 0, k + j + d, j, d)
                    if v == NO:
                        continue
                    cards: list[int] = []
                    _first_blacks(hand, k, cards)
                    a = _meld(tuple(cards) + wild_tab[j][d])
                    if v == SURE or full(s, a):
                        melded = True
                        yield a
    if mr.black_threes_out_of_play and b and (
        b + _partners_blacks(t) >= mr.black_threes_out_of_play
    ):
        cards = []
        _first_blacks(hand, b, cards)
        a = Meld(tuple(cards))
        v = meld_verdict(t, 3, False, 0, 0, len(cards), 0, 0)
        if v == SURE or (v == ASK and full(s, a)):
            melded = True
            yield a
    if mr.real_canasta or r.red_threes.may_keep_as_stop:
        for a in rare(s):
            if full(s, a):
                melded = True
                yield a
    if r.going_out.ask_partner and _ask_ok(t):
        yield AskPartner()
    if s.provisional and not (s.took_pile and s.lookahead and melded):
        # After a take, retract gives the pile back only when no meld or lay-off is legal
        # (legality.take_stranded: the melds and lay-offs just generated are exactly those).
        if full(s, Retract()):
            yield Retract()
    if s.no_discard:
        yield EndHand()
        return  # red_threes.last_stock_red_three_ends_hand: no discard
    last = t.size == 1
    if s.provisional and not last:
        return  # opening.minimums: meld more or retract
    if not last and t.binding and t.can_go_out():
        return  # going_out.ask_partner: the "yes" binds
    wild_blocked = (mr.unfinished_wild_meld_restricts and t.wm_unfinished
                    and any(hand[c] and not IS_WILD[c] for c in range(NUM_CODES)))
    for code in range(NUM_CODES):
        if hand[code]:
            a = Discard(code)
            if last:
                if full(s, a):
                    yield a
            elif not (wild_blocked and IS_WILD[code]):
                yield a


def _first_blacks(hand: list[int], k: int, out: list[int]) -> None:
    for c in (8, 11):
        take = hand[c] if hand[c] < k else k
        for _ in range(take):
            out.append(c)
        k -= take


def _ask_ok(t: _Turn) -> bool:
    """Mirrors ``legality.check_ask`` (and the no-discard refusal of ``verify``)."""
    s = t.s
    g = s.rules.going_out
    if s.no_discard or len(s.teams[t.team]) < 2 or s.asked:
        return False
    if g.ask_partner_per_hand and s.asks[t.seat] >= g.ask_partner_per_hand:
        return False
    return t.size >= 2


def take_actions(s: HandData, full: FullCheck) -> Iterator[TakePile]:
    """The legal takes of the pile, in the order of ``legality.take_candidates``: each
    candidate whose meld has a valid shape (a necessary condition, :func:`take_ok_shape`) is
    decided by ``full`` (``legality.check_take``)."""
    if not s.pile:
        return
    top = s.pile[-1]
    rank = top // 4 + 1
    if IS_WILD[top] or rank == 3:
        return
    r = s.rules
    if s.stopped_turn or (r.turn.first_round_no_meld and s.first_round):
        return
    hand = s.hands[s.actor]
    base = (rank - 1) * 4
    n = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
    jokers = hand[JOKER]
    deuces = hand[4] + hand[5] + hand[6] + hand[7]
    cap = r.melds.max_wilds
    nat = tuple(_first_n(hand, base, n))
    wild_tab = _wild_table(hand, jokers, deuces)
    for k in range(n + 1):
        for j in range(min(jokers, cap) + 1):
            for d in range(min(deuces, cap - j) + 1):
                if not take_ok_shape(s, k, j + d):
                    continue
                a = _take(nat[:k] + wild_tab[j][d])
                if full(s, a):
                    yield a


def take_ok_shape(s: HandData, nat: int, wild: int) -> bool:
    """A necessary condition for taking the pile with ``nat`` naturals of the top card's
    rank and ``wild`` wild cards (mirrors the ``meld_error`` and ``opening.naturals_only_at``
    refusals of ``legality.check_take``)."""
    r = s.rules
    team = s.team_of[s.actor]
    rank = s.pile[-1] // 4 + 1
    melds = s.melds[team]
    existing = melds.get(rank)
    before = len(existing) if existing is not None else 0
    before_wilds = 0
    if existing is not None:
        for c in existing:
            if IS_WILD[c]:
                before_wilds += 1
    wm = melds.get(WILD_RANK)
    unfinished = wm is not None and len(wm) < r.melds.canasta_size
    if not shape_ok(r.melds, rank, before + 1 + nat + wild, before_wilds + wild, wild, before,
                    unfinished):
        return False
    return not (wild and not s.opened[team]
                and r.opening_minimum(s.scores[team]) in r.opening.naturals_only_at)


__all__ = ["ASK", "NO", "SURE", "meld_verdict", "play_actions", "shape_ok", "take_actions"]
