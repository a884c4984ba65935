"""A greedy bot: melds what it can, takes good piles, keeps wild cards for canastas, goes out
when the rules let it.

It sees only its seat's :class:`~canasta.core.state.View` and picks one of ``view.legal_actions``,
so it can never make an illegal move; the heuristics only rank the legal ones.
"""

from __future__ import annotations

import random

from canasta.core.actions import (
    Action,
    Answer,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import POINTS, WILD_RANK, is_black_three, is_wild, rank_of
from canasta.core.events import Event, Retracted, action_of
from canasta.core.opening import naturals_only
from canasta.core.state import Phase, View


def _natural_rank(cards: tuple[int, ...]) -> int:
    for c in cards:
        if not is_wild(c):
            return rank_of(c)
    return WILD_RANK


class GreedyBot:
    """A sensible one-ply heuristic (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # -- entry point ---------------------------------------------------------------------------
    def _events(self, view: View) -> tuple[Event, ...]:
        """``view.events`` (built anew at each call: subclasses that read them twice per
        decision keep them for the decision)."""
        return view.events

    def _may_open(self, view: View) -> bool:
        """False once this seat has taken an opening back this turn: trying again would only
        repeat it. Read from the events, so the bot needs no memory between calls."""
        for event in reversed(self._events(view)):
            played = action_of(event)
            if played is None:
                continue
            if played[0] != view.seat:
                return True
            if isinstance(event, Retracted):
                return False
        return True

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if view.phase is Phase.ANSWER:
            points = sum(POINTS[c] for c in view.hand)
            return Answer(points <= 40) if Answer(points <= 40) in legal else legal[0]
        if view.phase is Phase.DRAW:
            return self._draw_or_take(view, legal)
        return self._play(view, legal)

    # -- helpers ---------------------------------------------------------------------------------
    def _hand_counts(self, view: View) -> dict[int, int]:
        counts: dict[int, int] = {}
        for c in view.hand:
            if not is_wild(c) and rank_of(c) != 3:
                counts[rank_of(c)] = counts.get(rank_of(c), 0) + 1
        return counts

    @staticmethod
    def _naturals_only(view: View) -> bool:
        """Must the side's opening be of natural cards only (the engine's predicate
        :func:`canasta.core.opening.naturals_only`, by the score band: a retracted opening's
        +10 does not lift the rule)?"""
        return naturals_only(view.rules, view.scores[view.team])

    def _opening_potential(self, view: View, used: tuple[int, ...] = ()) -> int:
        """Points the bot could meld from hand now without the pile (naturals in threes or more,
        pairs with one wild card), excluding the cards in ``used``."""
        hand = list(view.hand)
        for c in used:
            if c in hand:
                hand.remove(c)
        wilds = sorted((c for c in hand if is_wild(c)), key=lambda c: POINTS[c])
        by_rank: dict[int, list[int]] = {}
        for c in hand:
            if not is_wild(c) and rank_of(c) != 3:
                by_rank.setdefault(rank_of(c), []).append(c)
        total = 0
        naturals_only = self._naturals_only(view)
        for cards in sorted(by_rank.values(), key=len, reverse=True):
            if len(cards) >= view.rules.melds.min_cards:
                total += sum(POINTS[c] for c in cards)
            elif len(cards) == 2 and wilds and not naturals_only:
                total += sum(POINTS[c] for c in cards) + POINTS[wilds.pop(0)]
        return total

    def _draw_or_take(self, view: View, legal: tuple[Action, ...]) -> Action:
        takes = [a for a in legal if isinstance(a, TakePile)]
        best: TakePile | None = None
        best_score = -1e9
        opened = view.opened[view.team]
        for a in takes:
            wilds = sum(1 for c in a.cards if is_wild(c))
            score = view.pile_size * 10 - wilds * 30 - len(a.cards) * 2
            if not opened:
                if not self._may_open(view):
                    continue
                r = view.rules
                counted = sum(POINTS[c] for c in a.cards) + (
                    POINTS[view.pile_top] if view.pile_top is not None else 0)
                need = view.opening_minimum[view.team]
                have = (counted if r.opening.capture_cards_count else 0) + \
                    self._opening_potential(view, a.cards)
                if have < need:
                    continue
            if score > best_score:
                best, best_score = a, score
        # A legal take that leaves no card in hand goes out (State.apply): always worth it.
        goes_out = any(view.pile_size == 1 and len(a.cards) == len(view.hand)
                       and not view.rules.turn.draw_with_pile for a in takes)
        if goes_out:
            best = next(a for a in takes if len(a.cards) == len(view.hand))
        worth = best is not None and (view.pile_size >= 3 or not best.cards or not opened
                                      or view.stock_size == 0 or goes_out)
        if best is not None and worth:
            return best
        if Draw() in legal:
            return Draw()
        if EndHand() in legal:  # the stock is gone and no take is worth it
            return EndHand()
        return takes[0] if takes else legal[0]

    def _play(self, view: View, legal: tuple[Action, ...]) -> Action:
        team = view.team
        melds = view.melds[team]
        opened = view.opened[team]
        size = view.rules.melds.canasta_size
        melding: list[Meld | LayOff] = [a for a in legal if isinstance(a, (Meld, LayOff))]
        if not opened:
            need = view.opening_minimum[team] - view.opening_points
            plan = self._opening_moves(view, melding) if self._may_open(view) else []
            wilds_held = sum(1 for c in view.hand if is_wild(c))
            if view.opening_points > 0 or self._plan_points(plan, wilds_held) >= need:
                if plan:
                    return max(plan, key=lambda pa: pa[0])[1]
            if Retract() in legal and view.opening_points > 0:
                return Retract()
        else:
            scored: list[tuple[float, Action]] = []
            for a in melding:
                s = self._meld_score(a, melds, size)
                if s > 0:
                    scored.append((s, a))
            if scored:
                return max(scored, key=lambda sa: sa[0])[1]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return max(discards, key=lambda a: self._discard_score(view, a.card))
        if Retract() in legal:
            return Retract()
        return legal[0]

    @staticmethod
    def _plan_points(plan: list[tuple[int, Action]], wilds_held: int) -> int:
        """Points of the best disjoint choice: one move per rank, wild cards not reused."""
        best: dict[int, tuple[int, int]] = {}
        for points, a in plan:
            assert isinstance(a, (Meld, LayOff))
            rank = a.rank if isinstance(a, LayOff) else _natural_rank(a.cards)
            wilds = sum(1 for c in a.cards if is_wild(c))
            if rank not in best or points > best[rank][0]:
                best[rank] = (points, wilds)
        total = 0
        for points, wilds in sorted(best.values(), key=lambda pw: (pw[1], -pw[0])):
            if wilds <= wilds_held:
                wilds_held -= wilds
                total += points
        return total

    def _opening_moves(self, view: View,
                       melding: list[Meld | LayOff]) -> list[tuple[int, Action]]:
        """Candidate opening melds: all naturals of a rank, with at most one wild card."""
        counts = self._hand_counts(view)
        # Where the opening is natural-only, a wild card laid now keeps the side from opening
        # (the engine allows it only for a concealed going out, which the bots plan apart).
        one_wild = 0 if self._naturals_only(view) else 1
        out: list[tuple[int, Action]] = []
        for a in melding:
            if isinstance(a, LayOff):
                wilds = sum(1 for c in a.cards if is_wild(c))
                if wilds == 0:
                    out.append((sum(POINTS[c] for c in a.cards), a))
                continue
            assert isinstance(a, Meld)
            rank = _natural_rank(a.cards)
            if rank in (WILD_RANK, 3):
                continue
            naturals = sum(1 for c in a.cards if not is_wild(c))
            wilds = len(a.cards) - naturals
            if naturals == counts.get(rank, 0) and wilds <= (one_wild if naturals == 2 else 0):
                out.append((sum(POINTS[c] for c in a.cards), a))
        return out

    def _meld_score(self, a: Meld | LayOff, melds: dict[int, tuple[int, ...]],
                    size: int) -> float:
        wilds = sum(1 for c in a.cards if is_wild(c))
        naturals = len(a.cards) - wilds
        if isinstance(a, LayOff):
            if a.rank == 3:
                return 0.0
            before = len(melds.get(a.rank, ()))
            after = before + len(a.cards)
            if wilds == 0:
                return 10.0 + naturals + (50.0 if before < size <= after else 0.0)
            # Wild cards only to finish a canasta.
            if before < size <= after and wilds <= 2:
                return 40.0 - wilds * 5.0
            return 0.0
        assert isinstance(a, Meld)
        rank = _natural_rank(a.cards)
        if rank == 3:
            return 100.0  # black threes are melded only to go out
        if wilds == 0 and naturals >= 3:
            return 20.0 + naturals
        return 0.0

    def _discard_score(self, view: View, card: int) -> float:
        score = 0.0
        if is_wild(card):
            score -= 100.0
        if is_black_three(card):
            score += 40.0
        rank = rank_of(card)
        count = sum(1 for c in view.hand if rank_of(c) == rank)
        score += 15.0 if count == 1 else (-10.0 * count)
        for t, melds in enumerate(view.melds):
            if t != view.team and rank in melds:
                score -= 30.0
        score -= POINTS[card] / 2
        return score + self.rng.random()
