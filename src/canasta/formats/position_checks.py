"""What no play can reach: the checks a position passes once read (docs/formats.md, "What a
position may not say").

Three kinds: the table (:func:`check_table`: melds, red threes, turns and ends as the engine
makes them), the numbers (:func:`check_numbers`: every count and score within what a hand can
reach, derived from the rules and the deck), and the history where it cannot be replayed
(:func:`check_events`: a deal or an event showing more copies of a card than the deck holds, a
wild meld where the rules have none, a seat that is not at the table). A position that holds
its deal order and its history from the deal is replayed instead, by
:func:`canasta.formats.position.state_from_dict`.
"""

from __future__ import annotations

from math import gcd

from canasta.core import meldshape
from canasta.core.cards import (
    BLACK_THREES,
    JOKER,
    NUM_CODES,
    POINTS,
    RED_THREES,
    WILD_RANK,
    card_text,
    is_wild,
)
from canasta.core.events import Dealt, Discarded, Event, Melded, UpcardTurned
from canasta.core.melds import SEQUENCE_KEY
from canasta.core.rules import Rules
from canasta.core.state import Phase, State
from canasta.formats.eventjson import event_to_json
from canasta.formats.jsondoc import MAX_SCORE, Reader, count_text, deck_counts, sub

END_REASONS = ("went_out", "stock_exhausted", "last_card_red_three")


def max_turn(s: State) -> int:
    """The highest turn number a hand of these rules reaches: every finished turn drew at
    least one card from the stock (which gets none back from a later turn) or put the pile's
    top card on the table for good (a turn's retract gives back only that turn's cards), so
    there are at most twice the deck's cards of them."""
    return 2 * sum(deck_counts(s.rules, s.players))


def score_step(rules: Rules) -> int:
    """The greatest common divisor of every amount a score is made of under ``rules`` (the
    cards' points, the canasta bonuses, red threes, going out and the penalties of
    ``scoring.*``, ``red_threes.*`` and ``going_out.*``; a multiplier keeps a multiple): a
    match score is always a multiple of it (5 in every preset)."""
    sc, rt, g = rules.scoring, rules.red_threes, rules.going_out
    amounts = [*POINTS, sc.natural_canasta, sc.mixed_canasta, sc.natural_aces_canasta,
               sc.mixed_aces_canasta, sc.wild_canasta_mixed, sc.wild_canasta_deuces,
               sc.wild_canasta_six_jokers, sc.five_canastas, sc.five_natural_canastas,
               sc.black_three_in_hand, sc.all_black_threes_in_hand, sc.real_canasta,
               rt.value, rt.in_hand_penalty, *rt.totals.values(), g.bonus, g.concealed_bonus,
               g.ask_yes_unable_penalty]
    step = 0
    for amount in amounts:
        step = gcd(step, amount)
    return step or 1


def check_numbers(r: Reader, s: State, path: str) -> None:
    """Every number within what a hand can reach (the reader has bounded each by
    :data:`~canasta.formats.jsondoc.MAX_SCORE` or the deck already): the turn within
    :func:`max_turn`, a seat's questions within its turns (one a turn) and the rules' limit,
    a team's last joker turn within the turns (and a joker on its melds), the raised minimum
    a whole number of ``opening.retract_penalty``; each match score a multiple of
    :func:`score_step` (not bounded by the target: a hand may be dealt at any score, to
    reach every opening band); the turn's opening points
    a multiple of the cards' points and within the points the side has melded; a seat that
    melded (``player_melded``) on a side with melds."""
    tp = sub(path, "turn")
    step = score_step(s.rules)
    for t, score in enumerate(s.scores):
        at = sub(sub(path, "scores"), t)
        if score % step:
            r.fail(at, f"expected a multiple of {step}: every card, bonus and penalty of "
                       "these rules is [scoring]")
    card_step = 0
    for points in POINTS:
        card_step = gcd(card_step, points)
    team = s.team_of[s.current]
    melded = sum(POINTS[c] for m in s.melds[team].values() for c in m)
    if s.opening_points % card_step or s.opening_points > melded:
        r.fail(sub(tp, "opening_points"), f"expected a multiple of {card_step} up to the "
                                          f"{melded} points team {team} has melded")
    for seat, did in enumerate(s.player_melded):
        if did and not s.melds[s.team_of[seat]]:
            r.fail(sub(sub(path, "player_melded"), seat),
                   "expected false: this seat's side has no meld")
    limit = max_turn(s)
    if s.turn > limit:
        r.fail(sub(tp, "number"), f"expected at most {limit} turns: every turn draws from the "
                                  "stock or puts the pile's top card on the table for good")
    g = s.rules.going_out
    for seat, asks in enumerate(s.asks):
        turns = s.turn // s.players + 1 if s.turn >= 0 else 0
        most = min(turns, g.ask_partner_per_hand or turns) if g.ask_partner else 0
        if asks > most:
            r.fail(sub(sub(path, "asks"), seat),
                   f"expected at most {most} question{'s' if most != 1 else ''}: one a turn "
                   f"of this seat [going_out.ask_partner_per_hand]")
    for t, turn in enumerate(s.joker_turn):
        if turn > s.turn:
            r.fail(sub(sub(path, "joker_turn"), t), f"expected a turn up to {s.turn} (or -1)")
        if turn >= 0 and not any(c == JOKER for m in s.melds[t].values() for c in m):
            r.fail(sub(sub(path, "joker_turn"), t), "expected -1: team "
                   f"{t} has no joker on the table (a joker melded stays there)")
    penalty = s.rules.opening.retract_penalty
    for t, extra in enumerate(s.min_extra):
        if extra > MAX_SCORE or (extra % penalty if penalty else extra):
            r.fail(sub(sub(path, "minimum_raised"), t),
                   f"expected a multiple of {penalty} up to {MAX_SCORE} (each retract raises "
                   "the minimum by it) [opening.retract_penalty]")


def check_events(r: Reader, s: State, path: str) -> None:
    """The history of a position that cannot be replayed (no deal order, or not from the
    deal): each event at a seat and team of the table, showing no card more times than the
    deck holds; a deal only first, of the dealt sizes, its hands within the deck; a new
    meld of wild cards only where the rules have wild melds."""
    full = deck_counts(s.rules, s.players)
    dealt = s.rules.cards_dealt(s.players)
    for i, event in enumerate(s.events):
        at = sub(sub(path, "events"), i)
        doc = event_to_json(event)
        for key, limit in (("seat", s.players), ("partner", s.players),
                           ("first", s.players), ("dealer", s.players),
                           ("went_out", s.players), ("team", len(s.teams))):
            value = doc.get(key)
            if isinstance(value, int) and not 0 <= value < limit:
                r.fail(sub(at, key), f"expected a {'team' if key == 'team' else 'seat'} "
                                     f"from 0 to {limit - 1}")
        shown = _cards_shown(event)
        over = {c: shown[c] - full[c] for c in range(NUM_CODES) if shown[c] > full[c]}
        if over:
            r.fail(at, f"the event shows {count_text(over)} more than the deck holds")
        if isinstance(event, Dealt):
            _check_deal(r, s, event, path, i, dealt)
        if isinstance(event, Melded) and event.new and event.key == WILD_RANK and not (
                s.rules.melds.wild_melds):
            r.fail(sub(at, "key"), "a meld needs natural cards: these rules have no wild "
                                   "melds [melds.wild_melds]")


def _check_deal(r: Reader, s: State, event: Dealt, path: str, i: int, dealt: int) -> None:
    at = sub(sub(path, "events"), i)
    if i:
        r.fail(at, "the deal is the hand's first event")
    if event.dealer != s.dealer:
        r.fail(sub(path, "dealer"), f"expected the dealer of the deal ({sub(at, 'dealer')}): "
                                    f"{event.dealer}")
    if len(event.hands) != s.players or len(event.hand_sizes) != s.players:
        r.fail(sub(at, "hands"), f"expected a hand for each of the {s.players} seats")
    for seat, (hand, size) in enumerate(zip(event.hands, event.hand_sizes, strict=True)):
        if size != dealt or (hand is not None and len(hand) != dealt):
            r.fail(sub(sub(at, "hands"), seat), f"expected the {dealt} cards dealt "
                                                "[deal.cards_dealt]")


def _cards_shown(event: Event) -> list[int]:
    """Counts per card code of the cards an event shows. Each field holds each physical card
    once; a red three drawn and laid out in the same event shows in two of them, so red
    threes count by the field that shows most."""
    counts = [0] * NUM_CODES
    if isinstance(event, Dealt):
        for hand in event.hands:
            for c in hand or ():
                counts[c] += 1
        return counts
    reds = [0] * NUM_CODES
    for name in ("cards", "drawn", "red_threes", "pile", "surprise", "replaced", "to_hand",
                 "to_pile", "to_stock", "pile_to_hand", "partner_cards", "top", "card"):
        value = getattr(event, name, None)
        cards = (value,) if isinstance(value, int) else value
        if not isinstance(cards, tuple):
            continue
        field = [0] * NUM_CODES
        for c in cards:
            field[c] += 1
        for c in range(NUM_CODES):
            if c in RED_THREES:
                reds[c] = max(reds[c], field[c])
            else:
                counts[c] += field[c]
    for c in RED_THREES:
        counts[c] = reds[c]
    return counts


def check_table(r: Reader, s: State, path: str) -> None:
    """What the engine can never produce: the rules of melds, red threes, turns and ends."""
    rules = s.rules
    over = s.phase is Phase.OVER
    tp = sub(path, "turn")
    current_team = s.team_of[s.current]
    for seat in range(s.players):
        hand = s.hands[seat]
        for code in RED_THREES:
            if hand[code] and not rules.red_threes.may_keep_as_stop:
                r.fail(sub(sub(path, "hands"), seat),
                       f"{card_text(code)} in a hand: a red three is laid out at once "
                       "[red_threes.may_keep_as_stop]")
        if not over and s.hand_size[seat] == 0:
            r.fail(sub(sub(path, "hands"), seat),
                   "an empty hand in a hand still being played (the player would have gone out)")
    for t, melds in enumerate(s.melds):
        tpath = sub(sub(path, "melds"), t)
        for m, (rank, cards) in enumerate(melds.items()):
            mpath = sub(tpath, m)
            for i, c in enumerate(cards):
                if c in RED_THREES:
                    r.fail(sub(mpath, i), "red threes are never melded")
            if rank == 3 and not (rules.melds.black_three_meld_going_out
                                  or rules.melds.black_threes_out_of_play):
                r.fail(mpath, "black threes are never melded [melds.black_three_meld_going_out]")
            if rank >= SEQUENCE_KEY and any(is_wild(c) for c in cards):
                r.fail(mpath, "a sequence canasta holds natural cards only")
            err = meldshape.meld_error(s, rank, cards, (), t)
            if err is not None:
                r.fail(mpath, f"{err.reason} [{err.rule}]")
        provisional_here = s.provisional and t == current_team
        # Black threes put out of play (seed 004 "3-arii de negru se pot scoate din joc (daca
        # ii ai pe toti 4)") need no opening: such a group alone leaves the side unopened.
        opening_melds = [k for k in melds
                         if not (k == 3 and rules.melds.black_threes_out_of_play)]
        if opening_melds and not s.opened[t] and not provisional_here and not over:
            r.fail(sub(sub(path, "opened"), t), "expected true: the team has melds")
        if s.opened[t] and not melds and not over:
            r.fail(sub(sub(path, "opened"), t), "expected false: the team has no meld")
    if s.phase is Phase.ANSWER:
        seats = s.teams[current_team]
        if len(seats) < 2 or s.actor == s.current or s.actor not in seats or not s.asked:
            r.fail(sub(tp, "actor"), "while a question waits, the partner of the current "
                                     "player acts (and turn.asked is true)")
    elif s.actor != s.current:
        r.fail(sub(tp, "actor"), f"expected the current player {s.current} to act")
    # A question and its answer may stand before the draw: a take of the pile given back by
    # ``retract`` (legality.take_stranded) keeps them, as any retract does; and a question may
    # be asked during a provisional opening.
    if s.phase is Phase.DRAW and (s.took_pile or s.melded_this_turn or s.provisional
                                  or s.pending_pile):
        r.fail(tp, "before the draw nothing of the turn has happened yet")
    if s.provisional:
        if s.opened[current_team] or s.phase not in (Phase.PLAY, Phase.ANSWER, Phase.OVER):
            r.fail(sub(tp, "provisional"), "a provisional opening belongs to an unopened side "
                                           "in the play step or while a question waits")
        points = sum(POINTS[c] for c in [c for m in s.melds[current_team].values() for c in m])
        if s.opening_points > points:
            r.fail(sub(tp, "opening_points"), f"expected at most the {points} points melded")
    elif s.pending_pile and not over:
        r.fail(sub(tp, "pending_pile"), "the pile waits only for a provisional opening")
    if s.phase is Phase.DRAW and s.turn == 0 and s.stock:
        dealt = rules.cards_dealt(s.players)
        for seat in range(s.players):
            if s.hand_size[seat] != dealt:
                r.fail(sub(sub(path, "hands"), seat),
                       f"expected the {dealt} cards dealt: nobody has played yet (turn 0), got "
                       f"{s.hand_size[seat]}")
    if s.answer is not None and not s.asked:
        r.fail(sub(tp, "answer"), "expected null: nobody asked")
    _check_impossible(r, s, path)
    if over:
        rp = sub(path, "result")
        if s.end_reason not in END_REASONS:
            r.fail(sub(rp, "end_reason"), f"expected one of {', '.join(END_REASONS)}")
        if (s.end_reason == "went_out") != (s.went_out is not None):
            r.fail(sub(rp, "went_out"), "expected the seat that went out exactly when "
                                        "end_reason is went_out")
        if s.went_out is not None and s.hand_size[s.went_out]:
            r.fail(sub(sub(path, "hands"), s.went_out), "expected no card: this player went out")
        if s.concealed and s.went_out is None:
            r.fail(sub(rp, "concealed"), "expected false: nobody went out")
    elif s.end_reason or s.went_out is not None or s.concealed:
        r.fail(sub(path, "result"), "expected no result while the hand is played")


def _top_is_the_upcard(s: State) -> bool:
    """Whether the pile's top card can be the upcard rather than a discard. The discard rules
    freeze the pile for a discarded card; the upcard is judged by the upcard rules (a black
    three turned up freezes nothing in seed 003, whose black three freezes "quando vengono
    scartati"). Without events (positions typed by hand or written before events), nothing
    discarded yet (turn 0) is all that can be known."""
    if s.turn > 0:
        return False
    events = list(s.events)
    if not events:
        return True
    if any(isinstance(e, Discarded) for e in events):
        return False
    upcards = [e.card for e in events if isinstance(e, UpcardTurned)]
    return bool(upcards) and upcards[-1] == s.pile[-1]


def _check_impossible(r: Reader, s: State, path: str) -> None:
    """Positions no play can reach: a hand ended by the stock while the stock
    holds cards, a side out without the canastas its rules require, surprise cards under rules
    that deal none (or more than they deal); the pile's freeze is :func:`_check_pile_freeze`."""
    rules = s.rules
    rp = sub(path, "result")
    if s.phase is Phase.OVER and s.end_reason in ("stock_exhausted", "last_card_red_three"):
        if s.stock:
            r.fail(sub(rp, "end_reason"), f"the hand ended with the stock ({s.end_reason}) "
                                          f"while the stock holds {len(s.stock)} cards")
    if s.phase is Phase.OVER and s.went_out is not None:
        team = s.team_of[s.went_out]
        size = rules.melds.canasta_size
        have = sum(1 for m in s.melds[team].values() if len(m) >= size)
        need = rules.canastas_required(s.players)
        if have < need:
            r.fail(sub(rp, "went_out"), f"team {team} went out with {have} canasta"
                                        f"{'s' if have != 1 else ''}; its rules require {need} "
                                        "[going_out.canastas_required]")
    if len(s.surprise) > rules.deal.surprise_cards:
        r.fail(sub(path, "surprise"), f"{len(s.surprise)} surprise cards, the rules deal "
                                      f"{rules.deal.surprise_cards} [deal.surprise_cards]")


def check_pile_freeze(r: Reader, s: State, path: str) -> None:
    """A pile not frozen under a discarded card that freezes it is impossible. Read after
    the events, which tell a discard from the upcard."""
    if not s.pile or s.pile_frozen or _top_is_the_upcard(s):
        return
    top, rules = s.pile[-1], s.rules
    if is_wild(top) and rules.pile.wild_discard_freezes:
        r.fail(sub(path, "pile_frozen"), f"expected true: {card_text(top)} on top of the "
                                         "pile freezes it [pile.wild_discard_freezes]")
    if top in BLACK_THREES and rules.pile.black_three_discard_freezes:
        r.fail(sub(path, "pile_frozen"), f"expected true: {card_text(top)} on top of the "
                                         "pile freezes it [pile.black_three_discard_freezes]")
