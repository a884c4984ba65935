"""The heuristic player behind the ``easy``, ``medium`` and ``hard`` levels.

One :class:`HeuristicBot` ranks the legal actions of its seat's
:class:`~canasta.core.state.View` with weighted terms (:class:`Weights`, in points-like units);
:class:`Features` switches terms on per level:

* drawing: the pile's value (its cards, those that fit the hand or the side's melds, wild
  cards in it, black threes) against the cost of the wild cards put down to take it;
  the opening: a take only when the hand can then open (the greedy bot's plan);
* melding: naturals onto the side's melds and new natural melds, wild cards to finish a
  canasta (or when going out), keeping cards in hand to take the pile with;
* going out when the side may, timed (``timing``) by the match score and the others' hands;
  with ``timing`` the hand keeps cards back to take the pile with (``hold_cards``) only while
  the hand is far from its end: not when an opponent holds four cards or fewer, nor when
  the stock is under ten cards (cards kept then only count against the side);
* discarding: single cards before pairs, black threes to stop a valuable pile, wild cards to
  freeze it (``freeze``), and the danger of giving the next players the pile: from their
  melds, and with ``tracking`` from what they took, declined and discarded
  (:mod:`canasta.bots.tracking`);
* partner play (``partner``): answering the partner's question by the hand's points against
  the gain of going out, not discarding what the partner needs... see ``_answer``.

It reads only the view (``view.table`` only for the going-out plan: it holds no card the seat
cannot see), so it cannot cheat, and it picks one of
``view.legal_actions``, so it cannot play an illegal action. Ties are broken by the bot's
seeded random source: the same seed and the same views give the same actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields

from canasta.bots.greedy import GreedyBot, _natural_rank
from canasta.bots.outplan import out_move
from canasta.bots.tracking import Tracker, Tracking, pair_chance, unseen_by_rank
from canasta.core.actions import (
    Action,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import POINTS, WILD_RANK, is_black_three, is_wild, rank_of
from canasta.core.state import Phase, View

#: Deuces are counted under rank 2 by the tracker (jokers under 0).
WILD_RANK_INDEX = 2


@dataclass(frozen=True)
class Weights:
    """The weights of :class:`HeuristicBot`'s terms (see the module docstring); each is in
    points-like units of one term. ``hard``'s are tuned (``canasta.sim.tune``) and shipped in
    ``hard_weights.json``."""

    # drawing
    take_base: float = 10.0
    take_per_card: float = 6.0
    take_useful: float = 8.0
    take_wild: float = 25.0
    take_cost_wild: float = 30.0
    take_black_three: float = -4.0
    #: What one card drawn from the stock is worth, given up when the pile is taken instead
    #: (``draw_count`` less ``draw_with_pile`` of the rules); 0: the pile is compared with
    #: nothing (``easy`` grabs small piles).
    stock_card: float = 0.0
    # melding
    meld_card: float = 6.0
    meld_new: float = 4.0
    canasta: float = 60.0
    wild_near: float = 2.0
    hold_cards: float = 3.0
    hold_penalty: float = 8.0
    # going out
    go_out: float = 60.0
    out_hold_stock: float = 20.0
    # discarding
    keep_pair: float = 14.0
    single: float = 12.0
    card_points: float = 0.3
    danger: float = 2.5
    black_three: float = 2.0
    freeze: float = 1.2
    #: The pile value (cards plus points / 10) below which a wild card's freeze gains
    #: nothing: a wild card is worth more than a pile of three or four cards.
    freeze_floor: float = 6.0
    keep_wild: float = 90.0
    answer_points: float = 45.0

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass(frozen=True)
class Features:
    """Which terms a level uses (see the module docstring)."""

    safety: bool = True
    freeze: bool = True
    tracking: bool = False
    #: going out timed by the score, and cards held back for the pile only far from the end.
    timing: bool = False
    partner: bool = False
    #: the danger of a discard read from the rules of taking the pile (a frozen pile needs
    #: more naturals or a canasta, an open one may be taken with a natural and a wild card),
    #: not only from the pairs the next players may hold.
    rules_danger: bool = False
    #: chance per decision of a careless discard (any card but a wild card) and of missing a
    #: meld the bot would make (``easy``'s human-like mistakes).
    careless: float = 0.0
    miss_meld: float = 0.0


class HeuristicBot(GreedyBot):
    """A weighted one-ply player; see the module docstring."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights | None = None,
                 features: Features | None = None, name: str | None = None) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.w = weights or Weights()
        self.f = features or Features()
        if name is not None:
            self.name = name
        self._track: Tracking | None = None
        # Follows the hand event by event (tracking and the opening's retract both read it).
        self._tracker = Tracker()

    def _may_open(self, view: View) -> bool:
        """False once this seat has taken an opening back this turn (read by the tracker,
        which ``choose`` has brought up to ``view``)."""
        return not self._tracker.retracted

    # -- entry point ---------------------------------------------------------------------------
    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        self._tracker.update(view)
        self._track = self._tracker.tracking(view) if self.f.tracking else None
        if view.phase is Phase.ANSWER:
            return self._answer(view, legal)
        if view.phase is Phase.DRAW:
            return self._draw_or_take(view, legal)
        return self._play(view, legal)

    # -- partner's question ------------------------------------------------------------------
    def _answer(self, view: View, legal: tuple[Action, ...]) -> Action:
        points = sum(POINTS[c] for c in view.hand)
        limit = self.w.answer_points
        if self.f.partner:
            # Going out ends the others' chances too: say yes more readily when they are close.
            others = min(view.hand_sizes[s] for s in range(view.players)
                         if view.teams[view.team].count(s) == 0)
            if others <= 3:
                limit *= 2
        yes = Answer(points <= limit)
        return yes if yes in legal else legal[0]

    # -- drawing -----------------------------------------------------------------------------
    def _rank_need(self, view: View) -> dict[int, int]:
        """Per natural rank, how much a card of it helps: 2 for a rank the side has melded or
        the hand holds in pairs, 1 for one in hand, 0 otherwise."""
        need: dict[int, int] = {}
        for c in view.hand:
            if not is_wild(c):
                r = rank_of(c)
                need[r] = need.get(r, 0) + 1
        for r in view.melds[view.team]:
            need[r] = 2
        return need

    def _pile_value(self, view: View) -> float:
        w = self.w
        need = self._rank_need(view)
        value = 0.0
        cards = list(view.pile)
        for c in cards:
            if is_wild(c):
                value += w.take_wild
            elif is_black_three(c):
                value += w.take_black_three
            else:
                value += w.take_per_card + w.take_useful * min(2, need.get(rank_of(c), 0)) / 2
        hidden = view.pile_size - len(cards)
        return value + hidden * w.take_per_card

    def _draw_or_take(self, view: View, legal: tuple[Action, ...]) -> Action:
        w = self.w
        takes = [a for a in legal if isinstance(a, TakePile)]
        opened = view.opened[view.team]
        best: Action | None = None
        best_score = 0.0
        if takes:
            rules = view.rules
            given_up = rules.draw_count(view.players) - rules.turn.draw_with_pile
            pile = self._pile_value(view) - w.stock_card * given_up
            for a in takes:
                if not opened and not self._opening_feasible(view, a):
                    continue
                wilds = sum(1 for c in a.cards if is_wild(c))
                score = w.take_base + pile - wilds * w.take_cost_wild - len(a.cards) * 1.0
                if not opened:
                    score += 40.0  # opening with the pile is worth a lot by itself
                score += self.rng.random() * 0.01
                if score > best_score:
                    best, best_score = a, score
        if best is not None:
            return best
        if Draw() in legal:
            return Draw()
        if EndHand() in legal:
            return EndHand()
        return takes[0] if takes else legal[0]

    def _opening_feasible(self, view: View, a: TakePile) -> bool:
        if not self._may_open(view):
            return False
        counted = sum(POINTS[c] for c in a.cards) + (
            POINTS[view.pile_top] if view.pile_top is not None else 0)
        need = view.opening_minimum[view.team]
        have = (counted if view.rules.opening.capture_cards_count else 0) + \
            self._opening_potential(view, a.cards)
        return have >= need

    # -- playing -------------------------------------------------------------------------------
    def _canastas(self, view: View) -> int:
        size = view.rules.melds.canasta_size
        return sum(1 for cards in view.melds[view.team].values() if len(cards) >= size)

    def _want_out(self, view: View) -> bool:
        """Should the side go out now, when it may?"""
        if not self.f.timing:
            return True
        w = self.w
        team = view.team
        target = view.rules.target(view.players)
        table = sum(POINTS[c] for cards in view.melds[team].values() for c in cards)
        bonus = self._canastas(view) * 300 + view.rules.going_out.bonus
        if view.scores[team] + table + bonus >= target:
            return True  # going out wins the match (or nearly)
        others = [view.hand_sizes[s] for s in range(view.players) if s not in view.teams[team]]
        if min(others, default=0) <= 4 or view.stock_size < 10:
            return True
        # Far from the end: keep building while the hand is rich and the stock long.
        return len(view.hand) * 2 < w.out_hold_stock

    def _play(self, view: View, legal: tuple[Action, ...]) -> Action:
        out = self._going_out(view)
        if out is not None:
            return out
        team = view.team
        opened = view.opened[team]
        melding: list[Meld | LayOff] = [a for a in legal if isinstance(a, (Meld, LayOff))]
        if not opened:
            step = self._opening_step(view, legal, melding)
            if step is not None:
                return step
            melding = []
        if melding and not (self.f.miss_meld and self.rng.random() < self.f.miss_meld):
            want_out = self._want_out(view) if self._may_go_out(view) else False
            scored: list[tuple[float, Action]] = []
            for a in melding:
                s = self._meld_value(view, a, want_out)
                if s > 0:
                    scored.append((s + self.rng.random() * 0.01, a))
            if scored:
                return max(scored, key=lambda sa: sa[0])[1]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            if self.f.careless and self.rng.random() < self.f.careless:
                plain = [a for a in discards if not is_wild(a.card)] or discards
                return self.rng.choice(plain)
            ctx = self._discard_context(view)
            return max(discards, key=lambda a: self._discard_value(view, a.card, ctx))
        if Retract() in legal:
            return Retract()
        asks = [a for a in legal if isinstance(a, AskPartner)]
        rest = [a for a in legal if not isinstance(a, AskPartner)]
        return (rest or asks)[0]

    def _going_out(self, view: View) -> Action | None:
        """The next move of the engine's going-out plan (:mod:`canasta.bots.outplan`) when
        the seat can go out this turn; None otherwise. ``easy`` misses it as it misses a meld
        (``miss_meld``).

        Every level goes out when it can: all the hand's cards then count for the side, the
        bonus is won, and the others' hands count against them; holding on for another
        canasta lost more than it won (of 150 international hands, 48 turns where `medium`
        and `hard` could have gone out and did not, 14 of them worth 300 points or more)."""
        if not view.opened[view.team] and not self._may_open(view):
            return None  # taken back once this turn: laying it again would only repeat it
        move = out_move(view)
        if move is None:
            return None
        if len(view.hand) > 1 and self.f.miss_meld and self.rng.random() < self.f.miss_meld:
            return None
        return move

    def _opening_step(self, view: View, legal: tuple[Action, ...],
                      melding: list[Meld | LayOff]) -> Action | None:
        """The greedy bot's opening: meld the planned opening when it reaches the minimum,
        take it back when it cannot; None to go on to the discard."""
        team = view.team
        need = view.opening_minimum[team] - view.opening_points
        plan = self._opening_moves(view, melding) if self._may_open(view) else []
        wilds_held = sum(1 for c in view.hand if is_wild(c))
        if view.opening_points > 0 or self._plan_points(plan, wilds_held) >= need:
            if plan:
                return max(plan, key=lambda pa: pa[0])[1]
        if Retract() in legal and view.opening_points > 0:
            return Retract()
        return None

    def _may_go_out(self, view: View) -> bool:
        return self._canastas(view) >= view.rules.canastas_required(view.players)

    def _meld_value(self, view: View, a: Meld | LayOff, want_out: bool) -> float:
        w = self.w
        size = view.rules.melds.canasta_size
        melds = view.melds[view.team]
        wilds = sum(1 for c in a.cards if is_wild(c))
        naturals = len(a.cards) - wilds
        left = len(view.hand) - len(a.cards)
        if isinstance(a, LayOff):
            rank = a.rank
            before = len(melds.get(rank, ()))
        else:
            rank = _natural_rank(a.cards)
            before = 0
        if rank == 3:
            # Black threes only go down to go out.
            return 100.0 if left <= 1 and want_out else 0.0
        if left <= 1 and not want_out:
            return 0.0
        after = before + len(a.cards)
        value = naturals * w.meld_card
        if before < size <= after:
            value += w.canasta
        if isinstance(a, Meld):
            if rank == WILD_RANK:
                return value if want_out and left <= 1 else 0.0
            value += w.meld_new
        if wilds:
            if want_out and left <= 1:
                return value + 100.0
            if not before < size <= after:
                if after < size - 1 or wilds > 1:
                    return 0.0
                value += w.wild_near - w.keep_wild / 3
            else:
                value -= wilds * w.keep_wild / 10
        if want_out:
            value += len(a.cards) * 3.0
        elif left < w.hold_cards and not (self.f.timing and self._near_end(view)):
            value -= w.hold_penalty * (w.hold_cards - left)
        return value

    def _near_end(self, view: View) -> bool:
        """An opponent holds four cards or fewer, or the stock is under ten cards: the hand
        may end soon, and cards kept back for the pile would only count against the side."""
        others = [view.hand_sizes[s] for s in range(view.players)
                  if s not in view.teams[view.team]]
        return min(others, default=0) <= 4 or view.stock_size < 10

    # -- discarding ----------------------------------------------------------------------------
    def _discard_context(self, view: View) -> dict[str, object]:
        counts: dict[int, int] = {}
        for c in view.hand:
            r = rank_of(c)
            counts[r] = counts.get(r, 0) + 1
        team = view.team
        opponents = [s for s in range((view.seat + 1) % view.players, view.seat + view.players)
                     if s % view.players not in view.teams[team]]
        order = [s % view.players for s in opponents]
        pile_value = view.pile_size + sum(POINTS[c] for c in view.pile) / 10
        unseen = self._track.unseen if self._track else unseen_by_rank(view)
        # Frozen as the next opponent sees it (the view's pile_frozen is this side's: a side
        # that has not opened may see a frozen pile the other side can take).
        table = view.table
        frozen = [table.frozen_for(t) for t in range(len(view.teams))]
        nxt_team = next(t for t, seats in enumerate(view.teams) if order[0] in seats) \
            if order else team
        freezes = view.rules.pile.wild_discard_freezes and not frozen[nxt_team]
        return {"counts": counts, "opponents": order, "pile_value": pile_value,
                "unseen": unseen, "unseen_total": sum(unseen), "frozen": frozen,
                "freezes": freezes}

    def _danger(self, view: View, rank: int, ctx: dict[str, object]) -> float:
        """The chance-like danger (0..1, more for the next opponent) that discarding a card
        of ``rank`` lets an opponent take the pile."""
        opponents: list[int] = ctx["opponents"]  # type: ignore[assignment]
        unseen: list[int] = ctx["unseen"]  # type: ignore[assignment]
        total: int = ctx["unseen_total"]  # type: ignore[assignment]
        rules = view.rules
        danger = 0.0
        for i, opp in enumerate(opponents[:2]):
            factor = 1.0 if i == 0 else 0.35
            opp_team = next(t for t, seats in enumerate(view.teams) if opp in seats)
            frozen = ctx["frozen"][opp_team]  # type: ignore[index]
            d = 0.0
            if (not frozen and rank in view.melds[opp_team]
                    and rules.pile.layoff_takes_unfrozen_pile):
                size = len(view.melds[opp_team][rank])
                if not rules.pile.layoff_take_max_meld_size or \
                        size <= rules.pile.layoff_take_max_meld_size:
                    d = 1.0
            hand = view.hand_sizes[opp]
            tr = self._track
            if self.f.rules_danger:
                d = max(d, self._take_chance(view, opp, opp_team, rank, frozen, ctx))
            elif tr is not None:
                known = tr.held[opp][rank]
                hidden_hand = hand - sum(tr.held[opp])
                if known >= 2:
                    d = max(d, 1.0)
                elif known == 1:
                    d = max(d, min(1.0, 0.5 + unseen[rank] * hidden_hand / max(1, total)))
                else:
                    p = pair_chance(unseen[rank], total, hidden_hand)
                    if tr.discarded[opp][rank] or tr.declined[opp][rank]:
                        p *= 0.25
                    d = max(d, p)
            else:
                d = max(d, pair_chance(unseen[rank], total, hand))
            danger = max(danger, d * factor)
        return danger

    def _take_chance(self, view: View, opp: int, opp_team: int, rank: int, frozen: bool,
                     ctx: dict[str, object]) -> float:
        """The chance (0..1) that seat ``opp`` can take the pile with a discard of ``rank``,
        by the rules of taking it (``rules.pile``): a frozen pile needs ``frozen_naturals``
        naturals of the rank (or, where it may be taken only to complete a canasta, the
        side's meld of the rank near its canasta), an open one ``unfrozen_naturals`` or a
        natural and a wild card; the hand's cards are drawn from the unseen ones (with
        tracking, less what the seat is known to hold and likely not to)."""
        pile = view.rules.pile
        unseen: list[int] = ctx["unseen"]  # type: ignore[assignment]
        total: int = ctx["unseen_total"]  # type: ignore[assignment]
        hand = view.hand_sizes[opp]
        tr = self._track
        known_nat = known_wild = 0
        if tr is not None:
            known_nat = tr.held[opp][rank]
            known_wild = tr.held[opp][0] + tr.held[opp][WILD_RANK_INDEX]
            hand -= sum(tr.held[opp])
        if hand <= 0 or total <= 0:
            p_card = 0.0
        else:
            p_card = min(1.0, hand / total)
        q = 1.0 - p_card
        u_nat = unseen[rank]
        u_wild = unseen[0] + unseen[WILD_RANK_INDEX]
        # naturals of the rank in the hand: P(0), P(1), P(2 or more)
        nat0 = q ** u_nat if known_nat == 0 else 0.0
        nat1 = (u_nat * p_card * q ** max(0, u_nat - 1) if known_nat == 0
                else (q ** u_nat if known_nat == 1 else 0.0))
        nat2 = max(0.0, 1.0 - nat0 - nat1)
        wild = 1.0 if known_wild else 1.0 - q ** u_wild
        if tr is not None and known_nat == 0 and (tr.discarded[opp][rank]
                                                  or tr.declined[opp][rank]):
            nat1 *= 0.5
            nat2 *= 0.25
        with_wild = nat1 * wild if pile.unfrozen_wild_may_substitute else 0.0
        melds = view.melds[opp_team]
        size = view.rules.melds.canasta_size
        if frozen:
            if pile.frozen_requires_canasta:
                have = len(melds.get(rank, ()))
                if have + 3 < size:
                    return 0.0
                return nat2 + with_wild
            need = pile.frozen_naturals
            if need <= 2:
                return nat2
            return nat2 * nat2  # three naturals: rarer than two (a rough square)
        chance = nat2 + with_wild
        if not view.opened[opp_team]:
            chance *= 0.5  # the take must also open the side
        return min(1.0, chance)

    def _discard_value(self, view: View, card: int, ctx: dict[str, object]) -> float:
        w = self.w
        counts: dict[int, int] = ctx["counts"]  # type: ignore[assignment]
        pile_value: float = ctx["pile_value"]  # type: ignore[assignment]
        rank = rank_of(card)
        if len(view.hand) == 1:
            return 1000.0  # going out
        if is_wild(card):
            value = -w.keep_wild
            if self.f.freeze and ctx["freezes"]:
                value += w.freeze * max(0.0, pile_value - w.freeze_floor) * 4
            return value
        if is_black_three(card):
            stops = view.rules.pile.black_three_stops
            return (w.black_three * pile_value + 10.0) if stops else 5.0
        n = counts.get(rank, 0)
        value = w.single if n == 1 else -w.keep_pair * (n - 1)
        if rank in view.melds[view.team]:
            value -= w.keep_pair  # it goes onto the side's meld
        value -= POINTS[card] * w.card_points
        if self.f.safety:
            value -= w.danger * self._danger(view, rank, ctx) * pile_value
        else:
            for t, melds in enumerate(view.melds):
                if t != view.team and rank in melds:
                    value -= 30.0
        return value + self.rng.random() * 0.01
