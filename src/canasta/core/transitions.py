"""Transitions: the changes one action (or the automatic bookkeeping) makes to a hand.

Functions of a :class:`~canasta.core.data.HandData`; they decide no legality (the caller has
checked the action, see :mod:`canasta.core.legality`) and take what a rule decided as
arguments (``top_only`` of a take). The public :class:`~canasta.core.state.State` runs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.core.cards import JOKER, POINTS, card_text
from canasta.core.data import HandData, MisdealError, Phase
from canasta.core.melds import BLACK3, IS_WILD, RANK, RED3


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
    while hand[9] or hand[10]:
        for code in (9, 10):
            while hand[code]:
                hand[code] -= 1
                s.hand_size[seat] -= 1
                s.red_threes[team].append(code)
                s.log.append(f"seat {seat} lays out the red three {card_text(code)}")
                if replace:
                    if not s.stock:
                        return False
                    card = s.stock.pop()
                    hand[card] += 1
                    s.hand_size[seat] += 1
    return True


def form_pile(s: HandData) -> None:
    """Set aside the surprise cards and turn the upcard (special upcards as the rules say).

    Raises:
        MisdealError: ``deal.redeal_after_wild_upcards`` wild cards turned before a natural.
    """
    r = s.rules.deal
    for _ in range(r.surprise_cards):
        if s.stock:
            s.surprise.append(s.stock.pop())
    wild_upcards = 0
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
            s.pile.append(card)
            s.log.append(f"the upcard is {card_text(card)}")
            return
        s.log.append(f"the upcard {card_text(card)} is a special card")
        if IS_WILD[card]:
            wild_upcards += 1
            if r.redeal_after_wild_upcards and wild_upcards >= r.redeal_after_wild_upcards:
                raise MisdealError(
                    f"{wild_upcards} wild cards turned before a natural: redeal "
                    "[deal.redeal_after_wild_upcards]"
                )
        if r.special_upcard == "bury_in_stock":
            s.stock.insert(len(s.stock) // 2, card)
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


def end(s: HandData, reason: str) -> None:
    """End the hand; ``reason`` is ``went_out``, ``stock_exhausted`` or
    ``last_card_red_three``."""
    s.phase = Phase.OVER
    s.end_reason = reason
    s.log.append(f"the hand ends: {reason.replace('_', ' ')}")


def go_out(s: HandData, seat: int) -> None:
    s.concealed = s.is_concealed(seat)
    team = s.team_of[seat]
    if not s.opened[team]:
        s.opened[team] = True
        s.provisional = False
    s.went_out = seat
    s.player_melded[seat] = True
    end(s, "went_out")


# -- drawing and taking --------------------------------------------------------------------
def draw_one(s: HandData, seat: int) -> bool:
    """Draw a card into ``seat``'s hand, laying out red threes; False when the hand ended."""
    while True:
        card = s.stock.pop()
        if card in RED3 and not s.rules.red_threes.may_keep_as_stop:
            team = s.team_of[seat]
            s.red_threes[team].append(card)
            s.log.append(f"seat {seat} draws and lays out the red three {card_text(card)}")
            if not s.stock:
                rt = s.rules.red_threes
                if rt.last_stock_red_three_ends_hand:
                    if rt.meld_after_last_red_three:
                        s.no_discard = True
                        return True
                    end(s, "last_card_red_three")
                    return False
                return True
            continue
        s.hands[seat][card] += 1
        s.hand_size[seat] += 1
        return True


def draw(s: HandData, seat: int) -> None:
    n = s.rules.draw_count(s.players)
    for _ in range(n):
        if not s.stock or not draw_one(s, seat):
            break
    if s.phase is not Phase.OVER:
        s.phase = Phase.PLAY


def start_provisional(s: HandData) -> None:
    """Keep a snapshot to return to if the side's first melds are taken back."""
    if not s.provisional:
        s.snapshot = s.clone()
        s.snapshot.history = s.history[:-1]
        s.snapshot.log = s.log[:-1]
        s.provisional = True


def take_pile(s: HandData, seat: int, cards: tuple[int, ...], top_only: bool) -> None:
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
    if top_only:
        s.pile = rest  # still frozen if it was: its freezing cards are still in it
    else:
        s.pile_frozen = False
        s.pending_pile = rest + s.surprise
        s.surprise = []
    for _ in range(r.turn.draw_with_pile):
        if not s.stock or not draw_one(s, seat):
            break
    if s.phase is Phase.OVER:
        return
    s.phase = Phase.PLAY
    if opened:
        receive_pile(s, seat)
    else:
        maybe_complete_opening(s, seat)


def receive_pile(s: HandData, seat: int) -> None:
    """Move the taken pile into ``seat``'s hand; red threes in it are laid out and not
    replaced (seed 002: "non va sostituito con una carta pescata dal tallone")."""
    hand = s.hands[seat]
    for c in s.pending_pile:
        hand[c] += 1
    s.hand_size[seat] += len(s.pending_pile)
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
    if s.opening_points >= s.opening_minimum(team) or has_canasta:
        s.opened[team] = True
        s.provisional = False
        s.snapshot = None
        s.log.append(f"team {team} has opened with {s.opening_points} points")
        if s.pending_pile:
            receive_pile(s, seat)


# -- melding and discarding ----------------------------------------------------------------
def meld(s: HandData, seat: int, cards: tuple[int, ...], key: int) -> None:
    """Put ``cards`` from ``seat``'s hand on the side's meld ``key`` (new or existing)."""
    team = s.team_of[seat]
    hand = s.hands[seat]
    opened = s.opened[team]
    if key == 3 and s.rules.melds.black_threes_out_of_play:
        # Out of play, not a meld: no part of an opening (S004 "se scoate din joc").
        for c in cards:
            hand[c] -= 1
        s.hand_size[seat] -= len(cards)
        s.melds[team].setdefault(key, []).extend(cards)
        # The partners' black threes leave with them (S004 "Partenerii se pot intreba intre ei
        # daca au treiari de negru pentru a-i scoate din joc").
        for p in s.teams[team]:
            for c in (8, 11):
                while p != seat and s.hands[p][c]:
                    s.hands[p][c] -= 1
                    s.hand_size[p] -= 1
                    s.melds[team][key].append(c)
        s.log.append(f"seat {seat} puts {len(s.melds[team][key])} black threes out of play")
        if s.hand_size[seat] == 0:
            go_out(s, seat)
        return
    if not opened:
        start_provisional(s)
    if JOKER in cards:
        s.joker_turn[team] = s.turn
    for c in cards:
        hand[c] -= 1
    s.hand_size[seat] -= len(cards)
    s.melds[team].setdefault(key, []).extend(cards)
    s.melded_this_turn = True
    if not opened:
        s.opening_points += sum(POINTS[c] for c in cards)
        maybe_complete_opening(s, seat)
    if s.hand_size[seat] == 0:
        go_out(s, seat)


def declare(s: HandData, seat: int, cards: tuple[int, ...]) -> None:
    """Lay out kept red threes and replace each from the stock."""
    team = s.team_of[seat]
    for c in cards:
        s.hands[seat][c] -= 1
        s.hand_size[seat] -= 1
        s.red_threes[team].append(c)
        s.log.append(f"seat {seat} declares the red three {card_text(c)}")
    for _ in cards:
        if not s.stock or not draw_one(s, seat):
            break


def discard(s: HandData, seat: int, card: int) -> None:
    """Discard ``card``: the player goes out with the last card, or the turn passes (whether
    the empty stock then ends the hand is the caller's check)."""
    s.hands[seat][card] -= 1
    s.hand_size[seat] -= 1
    s.pile.append(card)
    p = s.rules.pile
    if (IS_WILD[card] and p.wild_discard_freezes) or (
        card in BLACK3 and p.black_three_discard_freezes
    ):
        s.pile_frozen = True
    if s.hand_size[seat] == 0:
        go_out(s, seat)
        return
    finish_turn(s, seat)


def ask_partner(s: HandData, seat: int) -> None:
    s.asked = True
    s.asks[seat] += 1
    team = s.teams[s.team_of[seat]]
    s.actor = team[(team.index(seat) + 1) % len(team)]
    s.phase = Phase.ANSWER


def answer(s: HandData, yes: bool) -> None:
    s.answer = yes
    s.actor = s.current
    s.phase = Phase.PLAY


def retract(s: HandData, seat: int) -> None:
    """Take the side's provisional melds back and raise its minimum by
    ``opening.retract_penalty`` (seed 000: "il punteggio richiesto per l'apertura aumenta di
    10 punti")."""
    snap = s.snapshot
    assert snap is not None
    team = s.team_of[seat]
    history, log = s.history, s.log
    asked, answered, asks = s.asked, s.answer, s.asks[:]
    # Restore from a copy: clone() shares the snapshot, so its containers must not become
    # this state's (playing on would change the snapshot of every clone).
    s.restore(snap.clone())
    s.history = history
    s.log = log
    # A question asked this turn and its binding answer stand (seed 002: "è obbligatorio
    # obbedire alla risposta del compagno").
    s.asked, s.answer, s.asks = asked, answered, asks
    s.min_extra[team] += s.rules.opening.retract_penalty
    s.log.append(f"team {team} takes back its opening; its minimum rises by "
                 f"{s.rules.opening.retract_penalty}")
