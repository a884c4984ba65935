"""The checks of a meld, a lay-off and a declaration of kept red threes: may the seat to act
put these cards down now (one rank or a sequence canasta, the wild-card limit, black and red
threes, the opening's naturals and its reach after a taken pile, the partner's binding "yes",
going out with the last cards)?

Part of :mod:`canasta.core.legality`, which calls them and hands them its look-ahead (does a
state still have a legal action?) through :func:`set_lookahead`: the checks and the list of
legal actions need each other, and the hook keeps the imports one-way. Each refusal is an
:class:`~canasta.core.illegal.IllegalActionError` naming the rule broken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta.core import opening, transitions
from canasta.core.actions import Action, LayOff, Meld
from canasta.core.candidates import meld_key, partners_black_threes
from canasta.core.cards import NUM_CODES, POINTS, WILD_RANK, rank_text
from canasta.core.data import HandData
from canasta.core.goingout_binding import STOPS, UNSHOWN, GoingOutMemo
from canasta.core.goingout_rules import going_out_error, opening_short
from canasta.core.illegal import IllegalActionError, fail
from canasta.core.melds import IS_WILD, RANK, RED3, SEQUENCE_KEY, is_sequence
from canasta.core.meldshape import is_mattoni, meld_error

#: The look-ahead of :mod:`canasta.core.legality` (``has_any_action``), set once at its import.
_LOOKAHEAD: list[Callable[[HandData], bool]] = []


def set_lookahead(has_any_action: Callable[[HandData], bool]) -> None:
    """Hand the checks the test "does this state have any legal action?" (legality's)."""
    _LOOKAHEAD[:] = [has_any_action]


def has_any_action(s: HandData) -> bool:
    """Does ``s`` have any legal action (:func:`canasta.core.legality.has_any_action`)?

    Raises:
        RuntimeError: :mod:`canasta.core.legality` has not been imported (nothing set the
            look-ahead; ``import canasta`` does).
    """
    if not _LOOKAHEAD:
        raise RuntimeError("the meld checks have no look-ahead: import canasta.core.legality")
    return _LOOKAHEAD[0](s)


def has(s: HandData, seat: int, cards: Sequence[int]) -> bool:
    """Does ``seat`` hold every card of ``cards`` (as many times as listed)?"""
    need = [0] * NUM_CODES
    hand = s.hands[seat]
    for c in cards:
        if not 0 <= c < NUM_CODES:
            return False
        need[c] += 1
        if need[c] > hand[c]:
            return False
    return True


def check_meld(s: HandData, seat: int, cards: Sequence[int], target: int | None,
               memo: GoingOutMemo | None = None) -> None:
    r = s.rules
    team = s.team_of[seat]
    if not cards:
        fail("melds.min_cards", "name the cards to meld", {"min_cards": r.melds.min_cards})
    if r.turn.first_round_no_meld and s.first_round:
        fail("turn.first_round_no_meld", "nobody melds in the first round")
    if not has(s, seat, cards):
        fail("cards", "you do not hold those cards")
    if any(c in RED3 for c in cards):
        if r.red_threes.may_keep_as_stop and target is None and all(
            c in RED3 for c in cards
        ):
            check_declare(s, seat, cards)
            return
        fail("red threes", "red threes are never melded")
    naturals = [c for c in cards if not IS_WILD[c]]
    ranks = {RANK[c] for c in naturals}
    if target is not None and target >= SEQUENCE_KEY:
        fail("melds.real_canasta", "a sequence canasta takes no more cards")
    if len(ranks) > 1:
        if not (r.melds.real_canasta and target is None
                and is_sequence(cards, r.melds.canasta_size)):
            fail("melds", "a meld is of one rank only"
                       + ("; a sequence canasta is seven naturals of one suit in a run"
                          if r.melds.real_canasta else ""))
        rank = meld_key(s, team, cards)
    else:
        rank = ranks.pop() if ranks else WILD_RANK
    if target is not None and target != rank and not (rank == WILD_RANK and target):
        fail("melds", f"those cards do not go on the meld of {rank_text(target)}",
             {"case": "wrong_meld", "rank": rank_text(target)})
    if target is not None:
        rank = target
    if rank == 3 and any(c in RED3 for c in cards):
        fail("red threes", "red threes are never melded")
    existing = s.melds[team].get(rank)
    if target is None and existing is not None:
        fail("one meld per rank",
                   f"your side already has a meld of {rank_text(rank)}: lay off onto it "
                   f"(`lay-off {rank_text(rank)} ...`)", {"rank": rank})
    if target is not None and existing is None:
        fail("melds", f"your side has no meld of {rank_text(rank)} to lay off onto",
             {"case": "no_such_meld", "rank": rank_text(rank)})
    out_of_play = (rank == 3 and target is None and r.melds.black_threes_out_of_play > 0
                   and len(cards) == s.hands[seat][8] + s.hands[seat][11]
                   and len(cards) + partners_black_threes(s, seat)
                   >= r.melds.black_threes_out_of_play)
    if rank == 3 and not r.melds.black_three_meld_going_out and not out_of_play:
        fail("melds.black_three_meld_going_out",
                   "black threes are never melded"
                   + (f" (they leave play only as a group of "
                      f"{r.melds.black_threes_out_of_play})"
                      if r.melds.black_threes_out_of_play else ""))
    final = (existing or []) + list(cards)
    err = None if out_of_play else meld_error(s, rank, final, cards, team)
    if err:
        raise err
    opened = s.opened[team]
    need = r.opening_minimum(s.scores[team])
    # Every meld of the opening turn, before and after the minimum is reached (S000 "Per la
    # discesa a 50 punti si richiedono solo combinazioni con carte naturali"); a concealed
    # going out that needs no opening (S001 "per la «chiusura in mano» non è richiesta
    # l'apertura") may use wild cards: the side then does not open, it goes out or retracts.
    if ((not opened or not s.opened_at_turn_start) and need in r.opening.naturals_only_at
            and any(IS_WILD[c] for c in cards)
            and not (not opened and r.going_out.concealed_waives_minimum
                     and s.is_concealed(seat))):
        fail("opening.naturals_only_at",
             f"an opening of {need} uses natural cards only, in every meld of the opening "
             "turn", {"minimum": need})
    if not opened:
        if (rank == WILD_RANK and is_mattoni(cards) and r.opening.joker_meld_blocks_mattoni
                and s.took_pile and s.mattoni_blocked(team)):
            fail("opening.joker_meld_blocks_mattoni",
                       "an opponent put a joker down within the last round: you may not "
                       "open with jokers (\"mattoni\") in the turn you take the pile")
    if (not opened and s.took_pile and s.lookahead
            and not (r.going_out.concealed_waives_minimum and s.is_concealed(seat))):
        # The take cannot be undone: no meld may leave the opening out of reach (a concealed
        # going out that waives the minimum may still be under way).
        hand2 = s.hands[seat][:]
        for c in cards:
            hand2[c] -= 1
        melds2 = {k: list(v) for k, v in s.melds[team].items()}
        melds2.setdefault(rank, []).extend(cards)
        need = s.opening_minimum(team)
        base = s.opening_points + sum(POINTS[c] for c in cards)
        if opening.reach(r, hand2, melds2, base, need,
                         r.opening_minimum(s.scores[team])) < need:
            raise opening_short(s, team, "after this meld your opening could not be "
                                "completed, and the pile you took cannot be given back")
    memo = memo or GoingOutMemo()
    if s.answer is True and s.lookahead and memo.can_go_out(s):
        binding = memo.binding_check(s)
        verdict = binding.verdict(cards, rank, target)
        if verdict == STOPS:
            fail("going_out.ask_partner",
                       "your partner said yes: you must go out, and this meld would stop you",
                 {"case": "meld_stops_going_out"})
        if verdict == UNSHOWN and not binding.plan_starts_with(cards, rank):
            fail("going_out.ask_partner",
                 "your partner said yes: you must go out, and the engine could not show "
                 "within its search limit that you still could after this meld; play the "
                 "first move of the engine's own way out",
                 {"case": "meld_unverified"})
    after = s.hand_size[seat] - len(cards)
    if after == 0 and s.pending_pile:
        # A meld that completes the opening brings the taken pile to hand: not going out.
        probe = s.clone()
        probe.lookahead = False
        transitions.meld(probe, seat, _as_action(cards, target), tuple(cards), rank)
        after = probe.hand_size[seat]
    if rank == 3 and after > 1 and not out_of_play:
        fail("melds.black_three_meld_going_out",
                   "black threes are melded only when going out")
    if after == 0:
        if r.going_out.discard_required:
            fail("going_out.discard_required",
                       "you must keep a card to discard when going out")
        err3 = going_out_error(s, seat, None, final_meld=(rank, tuple(cards)))
        if err3:
            raise IllegalActionError(err3.rule, "you may not meld your last card: "
                                     + err3.reason, err3.values)
    elif after == 1 and s.lookahead:
        probe = s.clone()
        probe.lookahead = False
        transitions.meld(probe, seat, _as_action(cards, target), tuple(cards), rank)
        if not probe.is_over and not has_any_action(probe):
            fail("going out",
                       "you may not meld down to one card when you cannot then go out")


def _as_action(cards: Sequence[int], target: int | None) -> Action:
    return Meld(tuple(cards)) if target is None else LayOff(target, tuple(cards))


def check_declare(s: HandData, seat: int, cards: Sequence[int]) -> None:
    """Declaring kept red threes (``red_threes.may_keep_as_stop``): each is laid out and
    replaced from the stock."""
    after = s.hand_size[seat] - len(cards) + min(len(cards), len(s.stock))
    if after == 0:
        fail("red_threes.may_keep_as_stop",
                   "you may not declare your last card: discard it")
    if not s.lookahead and s.hand_size[seat] == len(cards):
        # Inside the probe of a meld or lay-off: declaring every card held
        # leaves only the replacement, whose own check is not made in a probe; counting it as
        # a way on let a meld leave a player holding only a kept red three with no legal move.
        fail("red_threes.may_keep_as_stop",
             "a meld may not leave you holding only kept red threes you cannot go out with")
    if after == 1 and s.lookahead:
        probe = s.clone()
        probe.lookahead = False
        transitions.declare(probe, seat, Meld(tuple(cards)), tuple(cards))
        if not probe.is_over and not has_any_action(probe):
            fail("going out",
                       "you may not declare down to one card when you cannot then go out")
