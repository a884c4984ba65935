"""Transitions: the changes one action (or the automatic bookkeeping) makes to a hand.

Functions of a :class:`~canasta.core.data.HandData`; they decide no legality (the caller has
checked the action, see :mod:`canasta.core.legality`) and take what a rule decided as
arguments (``top_only`` of a take). The public :class:`~canasta.core.state.State` runs them.

Each records what happened as events (:mod:`canasta.core.events`) in the order it happened;
the function of an action returns that action's own event, which comes before the events it
sets off (an opening completed, red threes laid out, the end of the hand).
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.core.actions import Action
from canasta.core.cards import JOKER, NUM_CODES, POINTS, WILD_RANK, cards_of
from canasta.core.data import HandData, MisdealError, Phase
from canasta.core.events import (
    Answered,
    Asked,
    Dealt,
    Discarded,
    Drew,
    EndReason,
    HandEnded,
    Melded,
    Opened,
    RedThreesDeclared,
    RedThreesLaidOut,
    Retracted,
    TookPile,
    UpcardTurned,
)
from canasta.core.melds import BLACK3, IS_WILD, RANK, RED3
from canasta.core.rules import CANASTA_ONLY


# -- the deal ------------------------------------------------------------------------------
def deal_cards(s: HandData, order: Sequence[int]) -> int:
    """Deal ``order`` (the deck, top card first) into an empty hand: the players' cards, the
    stock, red threes laid out and replaced, the pile formed. Returns the seat that plays
    first; its turn is not begun.

    Raises:
        MisdealError: the deal must be redone (seed 000).
    """
    rules = s.rules
    players = s.players
    n_cards = rules.cards_dealt(players)
    first = (s.dealer + 1) % players
    starter = first if rules.deal.first_player == "next" else (s.dealer - 1) % players
    pos = 0
    for _ in range(n_cards):
        for i in range(players):
            seat = (first + i) % players
            s.hands[seat][order[pos]] += 1
            s.hand_size[seat] += 1
            pos += 1
    s.stock = list(reversed(order[pos:]))  # next card at the end
    s.record(Dealt(s.dealer, starter, tuple(tuple(cards_of(h)) for h in s.hands),
                   tuple(s.hand_size)))
    if rules.deal.red_threes_replaced_before_upcard:
        replace_dealt_red_threes(s, starter)
    form_pile(s)
    if not rules.deal.red_threes_replaced_before_upcard:
        replace_dealt_red_threes(s, starter)
    return starter


def replace_dealt_red_threes(s: HandData, first: int) -> None:
    for i in range(s.players):
        seat = (first + i) % s.players
        lay_out_red_threes(s, seat, replace=True)


def lay_out_red_threes(s: HandData, seat: int, replace: bool) -> bool:
    """Lay out the red threes in ``seat``'s hand; draw replacements when ``replace``.
    Returns False when a replacement was due and the stock was empty."""
    if s.rules.red_threes.may_keep_as_stop:
        return True  # kept in hand until declared (``meld 3h``) or discarded
    hand = s.hands[seat]
    team = s.team_of[seat]
    laid: list[int] = []
    drawn: list[int] = []
    ok = True
    while ok and (hand[9] or hand[10]):
        for code in (9, 10):
            while ok and hand[code]:
                hand[code] -= 1
                s.hand_size[seat] -= 1
                forget(s, seat, (code,))
                s.red_threes[team].append(code)
                laid.append(code)
                if replace:
                    if not s.stock:
                        ok = False
                        break
                    card = s.stock.pop()
                    hand[card] += 1
                    s.hand_size[seat] += 1
                    drawn.append(card)
    if laid:
        s.record(RedThreesLaidOut(seat, tuple(laid), tuple(drawn), len(drawn)))
    return ok


def form_pile(s: HandData) -> None:
    """Set aside the surprise cards and turn the upcard (special upcards as the rules say).

    Raises:
        MisdealError: ``deal.redeal_after_wild_upcards`` wild cards turned before a natural.
    """
    r = s.rules.deal
    for _ in range(r.surprise_cards):
        if s.stock:
            s.surprise.append(s.stock.pop())
    wild_upcards = buried = 0
    while s.stock:
        card = s.stock.pop()
        special = IS_WILD[card] or card in RED3 or (
            r.black_three_upcard_special and card in BLACK3
        )
        if not special:
            if r.upcard_seeds_pile_by_rank:
                rank = RANK[card]
                count = 14 if rank == 1 else rank
                under = [s.stock.pop() for _ in range(min(count, len(s.stock)))]
                s.pile = under + s.pile
                s.pile_hidden = len(under)  # face down (seed 000: "sottoposte")
            s.pile.append(card)
            s.record(UpcardTurned(card, False))
            return
        s.record(UpcardTurned(card, True))
        if IS_WILD[card]:
            wild_upcards += 1
            if r.redeal_after_wild_upcards and wild_upcards >= r.redeal_after_wild_upcards:
                raise MisdealError(
                    f"{wild_upcards} wild cards turned before a natural: redeal "
                    "[deal.redeal_after_wild_upcards]"
                )
        if r.special_upcard == "bury_in_stock":
            # Buried in the middle of the stock (seed 003 "interratela immediatamente nel
            # tallone"). The cards below the middle never move, so when every card above it is
            # special the middle would turn them for ever: past one full turn of the stock the
            # card goes to the bottom instead, and the naturals below rise.
            buried += 1
            if buried > 2 * (len(s.stock) + 1):
                raise MisdealError("no natural card in the stock to turn up [deal.cards_dealt]")
            s.stock.insert(len(s.stock) // 2 if buried <= len(s.stock) + 1 else 0, card)
            continue
        s.pile.append(card)
        if r.special_upcard_freezes and (
            IS_WILD[card] or (card in RED3 and r.red_three_upcard_freezes)
        ):
            s.pile_frozen = True


# -- turns ---------------------------------------------------------------------------------
def begin_turn(s: HandData, seat: int) -> None:
    """Begin ``seat``'s turn (whether the empty stock ends the hand is the caller's check)."""
    s.reset_turn()
    s.turn += 1
    s.current = s.actor = seat
    team = s.team_of[seat]
    s.opened_at_turn_start = s.opened[team]
    s.stopped_turn = s.top_stops(team)


def finish_turn(s: HandData, seat: int) -> None:
    if s.melded_this_turn or s.took_pile:
        s.player_melded[seat] = True
    begin_turn(s, (seat + 1) % s.players)


def end(s: HandData, reason: str, seat: int | None = None,
        action: Action | None = None) -> HandEnded:
    """End the hand; ``reason`` is an :class:`~canasta.core.events.EndReason` or its text
    (ValueError for any other); ``seat`` and ``action``: the ``end-hand`` that ended it."""
    code = EndReason(reason)
    s.phase = Phase.OVER
    s.end_reason = code
    # Look-ahead copies (``lookahead`` False) are thrown away: no score sheet for them.
    scores = tuple(s.score()) if s.lookahead else ()
    event = HandEnded(code, s.went_out, s.concealed, scores, seat, action)
    s.record(event)
    return event


def go_out(s: HandData, seat: int) -> None:
    s.concealed = s.is_concealed(seat)
    team = s.team_of[seat]
    if not s.opened[team]:
        s.opened[team] = True
        s.provisional = False
    s.went_out = seat
    s.player_melded[seat] = True
    end(s, EndReason.WENT_OUT)


# -- drawing and taking --------------------------------------------------------------------
def draw_one(s: HandData, seat: int, drawn: list[int], reds: list[int]) -> bool:
    """Draw a card into ``seat``'s hand (appended to ``drawn``), laying out red threes
    (appended to ``reds``). False when the last card of the stock was a red three that ends
    the hand (``red_threes.last_stock_red_three_ends_hand``): the caller records its event,
    then calls :func:`end`."""
    while True:
        card = s.stock.pop()
        if card in RED3 and not s.rules.red_threes.may_keep_as_stop:
            team = s.team_of[seat]
            s.red_threes[team].append(card)
            reds.append(card)
            if not s.stock:
                rt = s.rules.red_threes
                if rt.last_stock_red_three_ends_hand:
                    if rt.meld_after_last_red_three:
                        s.no_discard = True
                        return True
                    return False
                return True
            continue
        s.hands[seat][card] += 1
        s.hand_size[seat] += 1
        drawn.append(card)
        return True


def draw_some(s: HandData, seat: int, n: int) -> tuple[list[int], list[int], bool]:
    """Draw up to ``n`` cards: ``(drawn, red threes laid out, the hand ends)``."""
    drawn: list[int] = []
    reds: list[int] = []
    for _ in range(n):
        if not s.stock:
            break
        if not draw_one(s, seat, drawn, reds):
            return drawn, reds, True
    return drawn, reds, False


def draw(s: HandData, seat: int, action: Action) -> Drew:
    drawn, reds, ends = draw_some(s, seat, s.rules.draw_count(s.players))
    event = Drew(seat, action, tuple(drawn), len(drawn), tuple(reds))
    s.record(event)
    if ends:
        end(s, EndReason.LAST_CARD_RED_THREE)
    else:
        s.phase = Phase.PLAY
    return event


def start_provisional(s: HandData) -> None:
    """Keep a snapshot to return to if the side's first melds are taken back."""
    if not s.provisional:
        s.snapshot = s.clone()
        s.provisional = True


def take_pile(s: HandData, seat: int, action: Action, cards: tuple[int, ...],
              top_only: bool) -> TookPile:
    """Take the pile, melding its top card with ``cards``; ``top_only``: the side takes the
    top card alone (``pile.opening_take_top_card_only``). Going out with the take (an empty
    hand) is the caller's check."""
    r = s.rules
    team = s.team_of[seat]
    opened = s.opened[team]
    if not opened:
        start_provisional(s)
    top = s.pile.pop()
    rank = RANK[top]
    hand = s.hands[seat]
    for c in cards:
        hand[c] -= 1
    s.hand_size[seat] -= len(cards)
    forget(s, seat, cards)
    meld = s.melds[team].setdefault(rank, [])
    meld.append(top)
    meld.extend(cards)
    if JOKER in cards:
        s.joker_turn[team] = s.turn
    s.took_pile = True
    rest = s.pile
    s.pile = []
    if r.opening.capture_cards_count and not opened:
        s.opening_points += POINTS[top] + sum(POINTS[c] for c in cards)
    surprise: list[int] = []
    if top_only:
        s.pile = rest  # still frozen if it was: its freezing cards are still in it
        rest = []
    else:
        s.pile_frozen = False
        surprise = s.surprise
        s.pending_pile = rest + s.surprise
        s.surprise = []
    drawn, reds, ends = draw_some(s, seat, r.turn.draw_with_pile)
    event = TookPile(seat, action, top, rank, cards, tuple(rest), len(rest), top_only,
                     tuple(surprise),
                     len(surprise), tuple(drawn), len(drawn), tuple(reds))
    s.record(event)
    if ends:
        end(s, EndReason.LAST_CARD_RED_THREE)
        return event
    s.phase = Phase.PLAY
    if opened:
        receive_pile(s, seat)
    else:
        maybe_complete_opening(s, seat)
    return event


def receive_pile(s: HandData, seat: int) -> None:
    """Move the taken pile into ``seat``'s hand; red threes in it are laid out and not
    replaced (seed 002: "non va sostituito con una carta pescata dal tallone")."""
    hand = s.hands[seat]
    for c in s.pending_pile:
        hand[c] += 1
    s.hand_size[seat] += len(s.pending_pile)
    # Every other seat saw these cards (the discards, the surprise cards shown) but not those
    # put face down under the upcard.
    known = list(s.known[seat])
    for c in s.pending_pile[s.pile_hidden:]:
        known[c] += 1
    s.known[seat] = tuple(known)
    s.pile_hidden = 0
    s.pending_pile = []
    lay_out_red_threes(s, seat, replace=False)


def maybe_complete_opening(s: HandData, seat: int) -> None:
    team = s.team_of[seat]
    r = s.rules
    has_canasta = r.opening.canasta_always_opens and any(
        len(m) >= r.melds.canasta_size for m in s.melds[team].values()
    )
    if r.opening_minimum(s.scores[team]) in r.opening.naturals_only_at and any(
        IS_WILD[c] for m in s.melds[team].values() for c in m
    ):
        # Wild cards laid for a concealed going out: no opening (S000 "Per la discesa a 50
        # punti si richiedono solo combinazioni con carte naturali").
        return
    # S004 "se poate efectua si cu formatie de valori": a wild meld opens without the points.
    # Where only a canasta opens (CANASTA_ONLY) points are not the question: no wild meld.
    wild = (s.melds[team].get(WILD_RANK)
            if r.opening.wild_meld_opens and s.opening_minimum(team) < CANASTA_ONLY else None)
    has_wild = wild is not None and len(wild) >= r.melds.min_cards
    if s.opening_points >= s.opening_minimum(team) or has_canasta or has_wild:
        s.opened[team] = True
        s.provisional = False
        s.snapshot = None
        s.record(Opened(team, seat, s.opening_points, tuple(s.pending_pile),
                        len(s.pending_pile)))
        if s.pending_pile:
            receive_pile(s, seat)


# -- melding and discarding ----------------------------------------------------------------
def forget(s: HandData, seat: int, cards: Sequence[int]) -> None:
    """``cards`` leave ``seat``'s hand: the other seats no longer know that it holds as many
    copies of each (a copy they knew of may be the one played)."""
    known = s.known[seat]
    if any(known[c] for c in cards):
        fewer = list(known)
        for c in cards:
            if fewer[c]:
                fewer[c] -= 1
        s.known[seat] = tuple(fewer)


def meld(s: HandData, seat: int, action: Action, cards: tuple[int, ...], key: int) -> Melded:
    """Put ``cards`` from ``seat``'s hand on the side's meld ``key`` (new or existing)."""
    team = s.team_of[seat]
    hand = s.hands[seat]
    opened = s.opened[team]
    out_of_play = key == 3 and s.rules.melds.black_threes_out_of_play > 0
    # The partners' black threes leave with them (S004 "Partenerii se pot intreba intre ei
    # daca au treiari de negru pentru a-i scoate din joc").
    partner_cards = tuple(c for p in s.teams[team] if p != seat for c in (8, 11)
                          for _ in range(s.hands[p][c])) if out_of_play else ()
    event = Melded(seat, action, key, cards, key not in s.melds[team], out_of_play,
                   partner_cards)
    s.record(event)
    if out_of_play:
        # Out of play, not a meld: no part of an opening (S004 "se scoate din joc").
        for c in cards:
            hand[c] -= 1
        s.hand_size[seat] -= len(cards)
        forget(s, seat, cards)
        s.melds[team].setdefault(key, []).extend(cards)
        for p in s.teams[team]:
            for c in (8, 11):
                while p != seat and s.hands[p][c]:
                    s.hands[p][c] -= 1
                    s.hand_size[p] -= 1
                    forget(s, p, (c,))
                    s.melds[team][key].append(c)
        if s.hand_size[seat] == 0:
            go_out(s, seat)
        return event
    if not opened:
        start_provisional(s)
    if JOKER in cards:
        s.joker_turn[team] = s.turn
    for c in cards:
        hand[c] -= 1
    s.hand_size[seat] -= len(cards)
    forget(s, seat, cards)
    s.melds[team].setdefault(key, []).extend(cards)
    s.melded_this_turn = True
    if not opened:
        s.opening_points += sum(POINTS[c] for c in cards)
        maybe_complete_opening(s, seat)
    if s.hand_size[seat] == 0:
        go_out(s, seat)
    return event


def declare(s: HandData, seat: int, action: Action, cards: tuple[int, ...]
            ) -> RedThreesDeclared:
    """Lay out kept red threes and replace each from the stock."""
    team = s.team_of[seat]
    forget(s, seat, cards)
    for c in cards:
        s.hands[seat][c] -= 1
        s.hand_size[seat] -= 1
        s.red_threes[team].append(c)
    drawn, reds, ends = draw_some(s, seat, len(cards))
    event = RedThreesDeclared(seat, action, cards, tuple(drawn), len(drawn), tuple(reds))
    s.record(event)
    if ends:
        end(s, EndReason.LAST_CARD_RED_THREE)
    return event


def discard(s: HandData, seat: int, action: Action, card: int) -> Discarded:
    """Discard ``card``: the player goes out with the last card, or the turn passes (whether
    the empty stock then ends the hand is the caller's check)."""
    event = Discarded(seat, action, card)
    s.record(event)
    s.hands[seat][card] -= 1
    s.hand_size[seat] -= 1
    if s.known[seat][card]:
        forget(s, seat, (card,))
    s.pile.append(card)
    p = s.rules.pile
    if (IS_WILD[card] and p.wild_discard_freezes) or (
        card in BLACK3 and p.black_three_discard_freezes
    ):
        s.pile_frozen = True
    if s.hand_size[seat] == 0:
        go_out(s, seat)
        return event
    finish_turn(s, seat)
    return event


def ask_partner(s: HandData, seat: int, action: Action) -> Asked:
    s.asked = True
    s.asks[seat] += 1
    team = s.teams[s.team_of[seat]]
    s.actor = team[(team.index(seat) + 1) % len(team)]
    s.phase = Phase.ANSWER
    event = Asked(seat, action, s.actor)
    s.record(event)
    return event


def answer(s: HandData, seat: int, action: Action, yes: bool) -> Answered:
    s.answer = yes
    s.actor = s.current
    s.phase = Phase.PLAY
    event = Answered(seat, action, yes)
    s.record(event)
    return event


def returned_known(s: HandData, seat: int) -> list[int]:
    """What the other seats know of ``seat``'s hand once its provisional melds are taken back:
    what they knew, and the cards they saw it meld from hand since the snapshot, less as many
    of each as it drew unseen since (one of those may be the card melded, and goes back to the
    stock)."""
    snap = s.snapshot
    assert snap is not None
    team = s.team_of[seat]
    shown = [0] * NUM_CODES
    for key, cards in s.melds[team].items():
        for c in cards:
            shown[c] += 1
        for c in snap.melds[team].get(key, ()):
            shown[c] -= 1
    if s.took_pile and not snap.took_pile and snap.pile:
        shown[snap.pile[-1]] -= 1  # the top card goes back to the pile
    # Cards drawn into the hand since (a count every seat saw): red threes drawn are laid out.
    drawn_cards = snap.stock[len(s.stock):]
    drawn = len(drawn_cards)
    if not s.rules.red_threes.may_keep_as_stop:
        drawn -= sum(1 for c in drawn_cards if c in RED3)
    return [k + max(0, n - drawn) for k, n in zip(s.known[seat], shown, strict=True)]


def retract(s: HandData, seat: int, action: Action) -> Retracted:
    """Take the side's provisional melds back and raise its minimum by
    ``opening.retract_penalty`` (seed 000: "il punteggio richiesto per l'apertura aumenta di
    10 punti")."""
    snap = s.snapshot
    assert snap is not None
    team = s.team_of[seat]
    log = s.event_log
    asked, answered, asks = s.asked, s.answer, s.asks[:]
    hand_before, pile_before = s.hands[seat][:], len(s.pile)
    known = returned_known(s, seat)
    # Restore from a copy: clone() shares the snapshot, so its containers must not become
    # this state's (playing on would change the snapshot of every clone).
    s.restore(snap.clone())
    s.event_log = log
    # A question asked this turn and its binding answer stand (seed 002: "è obbligatorio
    # obbedire alla risposta del compagno").
    s.asked, s.answer, s.asks = asked, answered, asks
    s.known[seat] = tuple(min(k, h) for k, h in zip(known, s.hands[seat], strict=True))
    s.min_extra[team] += s.rules.opening.retract_penalty
    to_hand = [c for c, n in enumerate(s.hands[seat]) for _ in range(n - hand_before[c])]
    to_stock = [c for c, n in enumerate(s.hands[seat]) for _ in range(hand_before[c] - n)]
    to_pile = tuple(s.pile[pile_before:])
    event = Retracted(seat, action, team, tuple(to_hand), to_pile, len(to_pile),
                      s.opening_minimum(team), tuple(to_stock), len(to_stock))
    s.record(event)
    return event
