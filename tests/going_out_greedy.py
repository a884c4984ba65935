"""The greedy going-out search that the engine used before the exact one (main at 781aaee,
``canasta/core/goingout.py``), kept unchanged as a reference for tests/test_going_out_exact.py:
wherever it finds a way out, the exact search must find one too."""

from __future__ import annotations

from canasta.core.actions import Action, Discard, LayOff, Meld
from canasta.core.cards import BLACK_THREES, JOKER, NUM_CODES, WILD_RANK
from canasta.core.data import HandData, Phase
from canasta.core.melds import DEUCES, IS_WILD, RANK

# -- going out -----------------------------------------------------------------------------


def greedy_going_out_plan(s: HandData) -> list[Action] | None:
    """A sequence of melds, lay-offs and a final discard with which the player to act goes
    out this turn, checked by playing it on a copy; None when none is found.

    The search is greedy (one plan per choice of final discard), so it may miss an unusual
    way out; it never returns a plan that does not work.
    """
    if s.phase is not Phase.PLAY or s.no_discard:
        return None
    seat = s.actor
    hand = s.hands[seat]
    melds = s.melds[s.team_of[seat]]
    # Quick necessary condition: every natural rank without a meld needs two cards or more,
    # black threes three or more; one odd card may be the final discard.
    odd = 0
    for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
        b = (rank - 1) * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        if n == 1 and rank not in melds:
            odd += 1
    blacks = hand[8] + hand[11]
    if blacks and blacks < s.rules.melds.min_cards:
        odd += blacks
    if odd > 1:
        return None
    discards: list[int | None] = [] if s.rules.going_out.discard_required else [None]
    discards += [c for c in range(NUM_CODES) if hand[c]]
    for last in discards:
        plan = plan_with(s, seat, last)
        if plan is not None:
            return plan
    return None


def plan_with(s: HandData, seat: int, last: int | None) -> list[Action] | None:
    probe = s.clone()
    probe.lookahead = False
    probe.answer = None if s.answer is True else s.answer
    team = s.team_of[seat]
    hand = probe.hands[seat][:]
    if last is not None:
        hand[last] -= 1
    plan: list[Action] = []
    melds = probe.melds[team]
    wilds = [JOKER] * hand[JOKER] + [c for c in DEUCES for _ in range(hand[c])]
    blacks = [c for c in BLACK_THREES for _ in range(hand[c])]
    for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
        codes = range((rank - 1) * 4, rank * 4)
        nat = [c for c in codes for _ in range(hand[c])]
        if not nat:
            continue
        if rank in melds:
            plan.append(LayOff(rank, tuple(nat)))
        elif len(nat) >= s.rules.melds.min_cards:
            plan.insert(0, Meld(tuple(nat)))
        else:
            need = s.rules.melds.min_cards - len(nat)
            if len(wilds) < need:
                return None
            plan.insert(0, Meld(tuple(nat + wilds[:need])))
            wilds = wilds[need:]
    # Remaining wild cards go one at a time wherever they fit, nearest canasta first.
    for w in wilds:
        placed = False
        ranks = sorted(
            {*melds, *(rank_of_action(a) for a in plan)},
            key=lambda k: -len(melds.get(k, [])),
        )
        for k in ranks:
            if k == 3:
                continue
            plan.append(LayOff(k, (w,)))
            trial = probe.clone()
            ok = True
            for a in plan:
                if not trial.can(a):
                    ok = False
                    break
                trial.apply(a)
            if ok or trial.is_over:
                placed = True
                break
            plan.pop()
        if not placed:
            return None
    # Black threes are melded only when going out: last, before the final discard.
    if blacks:
        plan.append(Meld(tuple(blacks)))
    if last is not None:
        plan.append(Discard(last))
    trial = probe
    for a in plan:
        if not trial.can(a):
            return None
        trial.apply(a)
    if trial.is_over and trial.went_out == seat:
        return plan
    return None


def rank_of_action(a: Action) -> int:
    if isinstance(a, LayOff):
        return a.rank
    assert isinstance(a, Meld)
    nat = [c for c in a.cards if not IS_WILD[c]]
    return RANK[nat[0]] if nat else WILD_RANK
