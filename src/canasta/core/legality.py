"""Legality: which actions the seat to act may take now, and why any other is refused.

Functions of a :class:`~canasta.core.state.State` (the engine's methods ``legal_actions``,
``check`` and ``apply`` call them); they read the state and never change it, except on
copies (``clone()``) used to look one action ahead. Every refusal is an
:class:`IllegalActionError` that names the rule broken (a ``Rules`` field, or a rule of the
game) and, where a seed sentence carries the rule, quotes it. The checks of melds, lay-offs
and declared red threes are in :mod:`canasta.core.meldcheck`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from canasta.core import generate, meldcheck, opening, transitions
from canasta.core.actions import (
    ACTION_TYPES,
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
from canasta.core.candidates import (
    play_candidates,
    rare_candidates,
    take_candidates,
)
from canasta.core.cards import (
    NUM_CODES,
    POINTS,
    WILD_RANK,
    card_text,
    rank_text,
)
from canasta.core.data import HandData, Phase
from canasta.core.goingout_binding import GoingOutMemo as GoingOutMemo
from canasta.core.goingout_rules import going_out_error, opening_short
from canasta.core.illegal import IllegalActionError as IllegalActionError
from canasta.core.illegal import fail, not_an_action
from canasta.core.meldcheck import check_declare as check_declare
from canasta.core.meldcheck import check_meld as check_meld
from canasta.core.meldcheck import has as has
from canasta.core.melds import (
    BLACK3,
    IS_WILD,
    RANK,
    RED3,
)
from canasta.core.meldshape import meld_error

# -- legal actions -------------------------------------------------------------------------


def legal_actions(s: HandData) -> list[Action]:
    """Every legal action of the seat to act (``s.actor``); empty once the hand is over.

    Cards of one rank are interchangeable for the rules, so an action names one canonical
    choice of suits; :meth:`apply` accepts any cards actually held. Never changes the state.
    """
    return list(iter_legal(s))


def iter_legal(s: HandData) -> Iterator[Action]:
    """The legal actions, generated per rank from the hand's counts
    (:mod:`canasta.core.generate`); the same actions in the same order as
    :func:`reference_legal_actions`."""
    if s.phase is Phase.OVER:
        return
    if s.phase is Phase.ANSWER:
        yield Answer(True)
        yield Answer(False)
        return
    if s.phase is Phase.DRAW:
        if s.stock:
            yield Draw()
        yield from generate.take_actions(s, _full_check)
        if check_end_hand(s) is None:
            yield EndHand()
        return
    memo = GoingOutMemo()

    def full(t: HandData, action: Action) -> bool:
        return check(t, action, memo if t is s else None) is None

    yield from generate.play_actions(s, full, rare_candidates, memo.binding_check(s))


def _full_check(s: HandData, action: Action) -> bool:
    return check(s, action) is None


def reference_legal_actions(s: HandData) -> list[Action]:
    """Every legal action, found the slow way: every candidate of :func:`take_candidates` /
    :func:`play_candidates` verified with the full checks. The reference that the fast
    generation (:func:`legal_actions`) is tested against."""
    if s.phase is not Phase.DRAW and s.phase is not Phase.PLAY:
        return legal_actions(s)
    out: list[Action] = []
    if s.phase is Phase.DRAW:
        if s.stock:
            out.append(Draw())
        out.extend(t for t in take_candidates(s) if check_take(s, s.actor, t.cards) is None)
        if check_end_hand(s) is None:
            out.append(EndHand())
        return out
    return [a for a in play_candidates(s) if check(s, a) is None]


# -- checking ------------------------------------------------------------------------------


def check(s: HandData, action: Action, memo: GoingOutMemo | None = None) -> str | None:
    """Why ``action`` is illegal now (the message names the rule), or None when legal.
    ``memo``: the going-out answer of this position, shared between checks."""
    try:
        verify(s, action, memo)
    except IllegalActionError as exc:
        return str(exc)
    return None


def is_legal(s: HandData, action: Action) -> bool:
    return check(s, action) is None


def verify(s: HandData, action: Action, memo: GoingOutMemo | None = None) -> None:
    """Raise IllegalActionError when ``action`` is not legal now (``memo`` as
    :func:`check`)."""
    if memo is None:
        memo = GoingOutMemo()
    if s.phase is Phase.OVER:
        fail("hand over", "the hand is over")
    if s.phase is Phase.ANSWER:
        if not isinstance(action, Answer):
            if not isinstance(action, ACTION_TYPES):
                raise not_an_action(action)
            fail("going_out.ask_partner",
                       f"seat {s.actor} must answer the partner's question first",
                 {"case": "must_answer"})
        return
    if isinstance(action, Answer):
        fail("going_out.ask_partner", "nobody has asked to go out", {"case": "nobody_asked"})
    seat = s.actor
    if s.phase is Phase.DRAW:
        if isinstance(action, Draw):
            if not s.stock:
                fail("end of stock", "the stock is empty: take the pile or end the hand",
                     {"case": "stock_empty"})
            return
        if isinstance(action, TakePile):
            err = check_take(s, seat, action.cards)
            if err:
                raise err
            return
        if isinstance(action, EndHand):
            err2 = check_end_hand(s)
            if err2:
                raise err2
            return
        if not isinstance(action, ACTION_TYPES):
            raise not_an_action(action)
        fail("turn order", "first draw from the stock or take the discard pile",
             {"case": "draw_first"})
    # PLAY
    if isinstance(action, (Draw, TakePile)):
        fail("turn order", "you have already drawn this turn", {"case": "already_drawn"})
    if isinstance(action, EndHand):
        if not s.no_discard:
            fail("end of stock", "the hand ends only when the stock is gone")
        return
    if s.no_discard and isinstance(action, (Discard, AskPartner)):
        fail("red_threes.last_stock_red_three_ends_hand",
                   "the last card of the stock was a red three: meld, then end the hand")
    if isinstance(action, Meld):
        check_meld(s, seat, action.cards, None, memo)
    elif isinstance(action, LayOff):
        check_meld(s, seat, action.cards, action.rank, memo)
    elif isinstance(action, Discard):
        check_discard(s, seat, action.card, memo)
    elif isinstance(action, AskPartner):
        check_ask(s, seat)
    elif isinstance(action, Retract):
        if not s.provisional:
            fail("opening.retract_penalty",
                       "there is no unfinished opening to take back")
        if s.answer is True and s.lookahead and memo.can_go_out(s):
            fail("going_out.ask_partner",
                       "your partner said yes: the answer is binding and you must go out",
                 {"case": "must_go_out"})
        if s.took_pile and s.lookahead and not take_stranded(s):
            fail("retract after a take",
                 "taking the pile cannot be undone: complete your opening")
    elif not isinstance(action, ACTION_TYPES):
        raise not_an_action(action)


def check_take(s: HandData, seat: int, cards: Sequence[int]) -> IllegalActionError | None:
    r = s.rules
    if not s.pile:
        return IllegalActionError("pile", "the discard pile is empty", {"case": "empty"})
    if r.turn.first_round_no_meld and s.first_round:
        return IllegalActionError("turn.first_round_no_meld",
                                  "nobody takes the pile in the first round")
    top = s.pile[-1]
    team = s.team_of[seat]
    if top in BLACK3:
        return IllegalActionError("pile.black_three_stops",
                                  "a black three on top stops you from taking the pile")
    if IS_WILD[top] or top in RED3:
        return IllegalActionError("pile", "a wild card on top of the pile cannot be taken",
                                  {"case": "wild_on_top"})
    if s.stopped_turn:
        return IllegalActionError("pile.canasta_rank_discard_stops",
                                  "this discard matches your side's canasta and stops you")
    if not has(s, seat, cards):
        return IllegalActionError("cards", "you do not hold those cards")
    rank = RANK[top]
    for c in cards:
        if not (IS_WILD[c] or RANK[c] == rank):
            return IllegalActionError("pile", f"{card_text(c)} does not go with the top card "
                                              f"{card_text(top)}",
                                      {"case": "not_matching", "card": card_text(c),
                                       "top": card_text(top)})
    nat = sum(1 for c in cards if not IS_WILD[c])
    wild = len(cards) - nat
    existing = s.melds[team].get(rank)
    final = (existing or []) + [top] + list(cards)
    frozen = s.frozen_for(team)
    unfrozen_ok = (
        nat >= r.pile.unfrozen_naturals
        or (r.pile.unfrozen_wild_may_substitute and nat >= 1 and wild >= 1
            and nat + 1 >= r.pile.unfrozen_naturals)
    )
    top_only = top_card_only(s, team, cards)
    if top_only:
        # An opening with the discard takes the top card only, whatever the freeze (S004).
        if not cards or not unfrozen_ok:
            return IllegalActionError("pile.opening_take_top_card_only",
                                      "opening with the discard needs "
                                      f"{r.pile.unfrozen_naturals} natural "
                                      f"{rank_text(rank)}s"
                                      + (" (or one and a wild card)"
                                         if r.pile.unfrozen_wild_may_substitute else "")
                                      + " from your hand",
                                      {"naturals": r.pile.unfrozen_naturals, "rank": rank})
    elif frozen and r.pile.frozen_requires_canasta:
        if not cards or not unfrozen_ok or len(final) < r.melds.canasta_size:
            return IllegalActionError("pile.frozen_requires_canasta",
                                      "the pile is frozen: it can be taken only to complete a "
                                      f"canasta of {r.melds.canasta_size} cards")
    elif frozen:
        if nat < r.pile.frozen_naturals:
            # Say why it is frozen: a freezing card, always (a house rule), or unopened.
            why = ("frozen" if s.pile_frozen or r.pile.always_frozen
                   else "frozen for a side that has not opened")
            return IllegalActionError("pile.frozen_naturals",
                                      f"the pile is {why}: taking it needs "
                                      f"{r.pile.frozen_naturals} natural {rank_text(rank)}s "
                                      "from your hand",
                                      {"naturals": r.pile.frozen_naturals, "rank": rank,
                                       **({} if why == "frozen" else {"case": "unopened"})})
    elif not cards:
        if existing is None or not r.pile.layoff_takes_unfrozen_pile:
            return IllegalActionError("pile.unfrozen_naturals",
                                      f"taking the pile needs the top card melded: with "
                                      f"{r.pile.unfrozen_naturals} natural "
                                      f"{rank_text(rank)}s"
                                      + (" (or one and a wild card)"
                                         if r.pile.unfrozen_wild_may_substitute else "")
                                      + (" or on your side's meld of that rank"
                                         if r.pile.layoff_takes_unfrozen_pile else ""),
                                         {"naturals": r.pile.unfrozen_naturals, "rank": rank})
        cap = r.pile.layoff_take_max_meld_size
        if cap and len(existing) > cap:
            return IllegalActionError("pile.layoff_take_max_meld_size",
                                      "the top card may be added only to a meld smaller "
                                      "than a canasta")
    elif not unfrozen_ok:
        return IllegalActionError("pile.unfrozen_naturals",
                                  f"taking the pile needs {r.pile.unfrozen_naturals} natural "
                                  f"{rank_text(rank)}s from your hand"
                                  + (" (or one and a wild card)"
                                     if r.pile.unfrozen_wild_may_substitute else ""),
                                     {"naturals": r.pile.unfrozen_naturals, "rank": rank})
    err = meld_error(s, rank, final, [top, *cards], team)
    if err:
        return err
    opened = s.opened[team]
    if not opened:
        need = r.opening_minimum(s.scores[team])
        if need in r.opening.naturals_only_at and wild:
            return IllegalActionError("opening.naturals_only_at",
                                      f"an opening of {need} uses natural cards only",
                                      {"minimum": need})
        # Taking the pile cannot be undone: only a take with which the opening can be
        # completed this turn (S000: the side that has not opened "non può impossessarsene").
        if opening_reach(s, seat, top, cards) < s.opening_minimum(team):
            return opening_short(s, team, "your hand cannot make the opening with this take")
    # Cards in hand after the take (the pile goes to hand once the side is open).
    pts = POINTS[top] + sum(POINTS[c] for c in cards) if r.opening.capture_cards_count else 0
    opens_now = opened or pts >= s.opening_minimum(team) or (
        r.opening.canasta_always_opens and len(final) >= r.melds.canasta_size)
    gets_pile = opens_now and not top_only
    after = (s.hand_size[seat] - len(cards)
             + min(r.turn.draw_with_pile, len(s.stock))
             + (len(s.pile) - 1 + len(s.surprise) if gets_pile else 0))
    # The outside rule (Britannica: "he cannot go out by taking the deck") where a preset
    # chooses it; otherwise a take that empties the hand goes out where going out is allowed
    # (State.apply), as the seed texts let it.
    if not r.pile.take_single_card_pile_to_go_out:
        if s.hand_size[seat] == 1 and len(s.pile) == 1 and not s.surprise:
            return IllegalActionError("pile.take_single_card_pile_to_go_out",
                                      "with one card in hand you may not take a pile of one "
                                      "card (Britannica)", {"case": "one_card"})
        if after == 0:
            return IllegalActionError("pile.take_single_card_pile_to_go_out",
                                      "you may not go out by taking the pile (Britannica)")
    if after <= 1 and s.lookahead:
        probe = s.clone()
        probe.lookahead = False
        transitions.take_pile(probe, seat, TakePile(tuple(cards)), tuple(cards), top_only)
        # As State.apply: a take that empties the hand goes out where going out is allowed.
        goes_out = (probe.hand_size[seat] == 0 and not probe.is_over
                    and going_out_error(probe, seat, None) is None)
        if not probe.is_over and not goes_out and not has_any_action(probe):
            return IllegalActionError("going out",
                                      "after this take you could neither discard nor go out")
    return None


def opening_reach(s: HandData, seat: int, top: int, cards: Sequence[int]) -> int:
    """The most points an unopened side could count toward its opening this turn after
    taking the pile with ``cards`` (:func:`canasta.core.opening.reach`): the top card and
    ``cards`` when they count (``opening.capture_cards_count``), the naturals of that rank
    still in hand, every other rank that can make a meld and the best wild cards those melds
    can hold. The stock card drawn with the pile (``turn.draw_with_pile``) is not known and
    does not count."""
    r = s.rules
    team = s.team_of[seat]
    hand = s.hands[seat][:]
    for c in cards:
        hand[c] -= 1
    melds = {k: list(v) for k, v in s.melds[team].items()}
    melds.setdefault(RANK[top], []).extend([top, *cards])
    base = s.opening_points
    if r.opening.capture_cards_count:
        base += POINTS[top] + sum(POINTS[c] for c in cards)
    return opening.reach(r, hand, melds, base, s.opening_minimum(team),
                         r.opening_minimum(s.scores[team]))


def take_stranded(s: HandData) -> bool:
    """After an unopened side's take of the pile, may the player not complete the opening by
    any meld or lay-off? Then (and only then) ``retract`` gives the pile back, as seed 000's
    irregularity remedy ("prendere il «pozzo» senza averne diritto ... con obbligo di sanare
    l'irregolarità"); otherwise taking the pile cannot be undone."""
    for a in play_candidates(s):
        if isinstance(a, (Meld, LayOff)) and check(s, a) is None:
            return False
    return True


def top_card_only(s: HandData, team: int, cards: Sequence[int]) -> bool:
    """Does taking the pile with ``cards`` give ``team`` only its top card (an opening with
    the discard, ``pile.opening_take_top_card_only``)? A frozen-pile capture that
    completes a canasta takes the whole pile."""
    r = s.rules
    if s.opened[team] or not r.pile.opening_take_top_card_only:
        return False
    if r.pile.frozen_requires_canasta and cards and s.frozen_for(team):
        meld = s.melds[team].get(RANK[s.pile[-1]])
        if (len(meld) if meld else 0) + 1 + len(cards) >= r.melds.canasta_size:
            return False
    return True


def check_end_hand(s: HandData) -> IllegalActionError | None:
    if s.stock:
        return IllegalActionError("end of stock", "the hand ends only when the stock is gone")
    if s.rules.end.must_take_any_discard and any(
        check_take(s, s.actor, t.cards) is None for t in take_candidates(s)
    ):
        return IllegalActionError("end.must_take_any_discard",
                                  "with the stock gone the hand ends only when you cannot take "
                                  "the discard")
    if s.rules.end.must_take_matching_discard and (
        check_take(s, s.actor, ()) is None
    ):
        return IllegalActionError("end.must_take_matching_discard",
                                  "the discard fits your side's meld: with the stock gone you "
                                  "must take it")
    return None


def check_discard(s: HandData, seat: int, card: int,
                  memo: GoingOutMemo | None = None) -> None:
    r = s.rules
    team = s.team_of[seat]
    hand = s.hands[seat]
    if not 0 <= card < NUM_CODES or not hand[card]:
        fail("cards", "you do not hold that card")
    last = s.hand_size[seat] == 1
    if s.provisional and not last:
        if (s.opening_points >= s.opening_minimum(team)
                and opening.naturals_only(r, s.scores[team])):
            # The points are there: what keeps the side from opening is its wild cards.
            fail("opening.naturals_only_at",
                 f"an opening of {r.opening_minimum(s.scores[team])} uses natural cards "
                 "only: take the wild cards back with `retract`",
                 {"minimum": r.opening_minimum(s.scores[team])})
        raise opening_short(s, team, "meld more or `retract`", s.opening_points)
    if last:
        err = going_out_error(s, seat, card)
        if err:
            raise IllegalActionError(err.rule, "you may not go out: " + err.reason, err.values)
        return
    if IS_WILD[card] and r.melds.unfinished_wild_meld_restricts:
        wm = s.melds[team].get(WILD_RANK)
        if wm is not None and len(wm) < r.melds.canasta_size and any(
            hand[c] and not IS_WILD[c] for c in range(NUM_CODES)
        ):
            fail("melds.unfinished_wild_meld_restricts",
                       "while your wild-card canasta is unfinished you may not discard wild "
                       "cards")
    if s.answer is True and s.lookahead and (memo or GoingOutMemo()).can_go_out(s):
        fail("going_out.ask_partner",
                   "your partner said yes: the answer is binding and you must go out",
             {"case": "must_go_out"})


def check_ask(s: HandData, seat: int) -> None:
    g = s.rules.going_out
    if not g.ask_partner:
        fail("going_out.ask_partner", "asking the partner is not allowed",
             {"case": "disabled"})
    if len(s.teams[s.team_of[seat]]) < 2:
        fail("going_out.ask_partner", "you have no partner to ask", {"case": "no_partner"})
    if s.asked:
        fail("going_out.ask_partner", "you have already asked this turn",
             {"case": "already_asked"})
    if g.ask_partner_per_hand and s.asks[seat] >= g.ask_partner_per_hand:
        fail("going_out.ask_partner_per_hand",
                   f"you may ask at most {g.ask_partner_per_hand} time(s) per hand",
                   {"asks": g.ask_partner_per_hand})
    if s.hand_size[seat] < 2:
        # With one card a "no" could not be obeyed: any move would go out.
        fail("going_out.ask_partner",
                   "with one card left you could not obey a \"no\"", {"case": "one_card"})


def has_any_action(s: HandData) -> bool:
    for _ in iter_legal(s):
        return True
    return False


# The meld checks look one action ahead with the full generator (does a player who melds
# down to one card still have a move?); it is handed to them here, so imports stay one-way.
meldcheck.set_lookahead(has_any_action)
