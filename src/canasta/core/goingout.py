"""Going out: decide exactly whether the player to act can go out this turn, and how.

Over the state's public API: a plan is tried on a copy with its ``can`` and ``apply``.

Used to allow ``ask-partner`` only when the player can go out, to hold the player to a
partner's binding "yes" (seed 002: "è obbligatorio obbedire alla risposta del compagno"), and
by front ends that offer a "go out" button.

Going out means every card leaves the hand this turn (seed 002: "Si chiude quando un giocatore
si libera di tutte le carte che ha in mano"), so the search is over the hand's rank counts:

* the final discard: none (where ``going_out.discard_required`` is off) or one card of each
  kind held (a natural of each rank, a black three, a red three, a joker, a deuce; suits do not
  matter to the rules);
* every natural rank left goes whole onto the side's meld of that rank, or makes a new meld;
  black threes make one meld (``melds.black_three_meld_going_out``) or one group out of play
  (``melds.black_threes_out_of_play``); with ``melds.real_canasta``, every set of sequence
  canastas the hand holds (sets that take the same number of cards of each rank are one case:
  the rules do not see suits);
* every way to spread the wild cards over those melds, the side's other melds and a wild-card
  meld, decided by :class:`canasta.core.goingout_model.Model`: a memoised search over the
  melds that carries only the running figures the checks read (canastas and their kinds, the
  wild meld's size, the opening), so its cost does not grow with the cards in hand.

The answer is exact: the plan returned is the first, in the order of the exhaustive search
that this replaced (most wild cards first on each meld, in rank order), whose every action
passes the legality checks; it is then played on a copy, so it always works. Cost, whatever
the hand: at most 16 final discards times, for each set of sequence canastas, a few thousand
memoised states (targets x states x wild cards per meld); ``python -m canasta.sim.goingout_sweep``
measures it on the largest hands the rules allow.

Two things are outside the search (it answers None for them): kept red threes other than as
the final discard (declaring one draws an unknown card), and a turn whose pile waits for the
opening (``pending_pile``: the pile would come to hand before going out).
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.core.actions import Action, Discard, LayOff, Meld
from canasta.core.cards import BLACK_THREES, JOKER, NATURAL_RANKS
from canasta.core.data import HandData, Phase
from canasta.core.goingout_model import COUNTS, Model, SearchOverrun
from canasta.core.melds import BLACK3, DEUCES, SEQUENCE_KEY

#: Plans the model accepts but a copy refuses, after which one model is given up (the model
#: is exact, so none is ever refused: ``COUNTS["misses"]`` counts them; this bounds the work).
MAX_MISSES = 8


def going_out_plan(s: HandData) -> list[Action] | None:
    """A sequence of melds, lay-offs and a final discard with which the player to act goes
    out this turn, or None when no way out exists (exact: every final discard, every meld of
    the hand's ranks and every spread of its wild cards is considered; see the module
    docstring for the two cases left out). The plan is checked by playing it on a copy, so it
    always works; the state is not changed. None too when a model spends its node budget
    (``goingout_model.LIMIT["nodes"]``, never reached in play) before a plan."""
    try:
        return _first_plan(s)
    except SearchOverrun:
        return None


def _first_plan(s: HandData) -> list[Action] | None:
    seat = s.actor
    min_cards = s.rules.melds.min_cards
    for model, seqs, last in models(s):
        misses = 0
        for ks, orders in model.spreads():
            for order in (0, 1):
                if not (orders >> order) & 1:
                    continue
                plan = _assemble(model, ks, seqs, min_cards if order else 0)
                if last is not None:
                    plan.append(Discard(last))
                COUNTS["tries"] += 1
                if _works(s, seat, plan):
                    return plan
                COUNTS["misses"] += 1
                misses += 1
            if misses >= MAX_MISSES:
                break
    return None


def can_go_out(s: HandData) -> bool:
    """Whether :func:`going_out_plan` finds a plan, decided by the model alone (no plan is
    laid out or played on a copy): what the checks of a partner's binding "yes" ask after each
    candidate meld. The same answer as ``going_out_plan(s) is not None`` (the model is exact:
    ``COUNTS["misses"]`` stays 0, and the tests compare the two). False where the search
    spent its node budget without finding a way (:func:`way_out` is -1): the conservative
    answer, under which a partner's "yes" does not bind (the player is never held to a going
    out the engine cannot show)."""
    return way_out(s) == 1


def way_out(s: HandData) -> int:
    """1 when the player to act can go out this turn, 0 when not, -1 when a model spent its
    budget (``goingout_model.LIMIT["nodes"]`` memoised states, :data:`~canasta.core.
    goingout_model.NODE_CAP` unless lowered) without an answer. 1 and 0 are exact."""
    for model, _, _ in models(s):
        try:
            if model.possible():
                return 1
        except SearchOverrun:
            return -1
    return 0


def models(s: HandData) -> Iterator[tuple[Model, list[tuple[int, ...]], int | None]]:
    """The model of every final discard and set of sequence canastas to try, in the
    exhaustive search's order, with its sequences and final discard (None: none)."""
    if s.phase is not Phase.PLAY or s.no_discard or s.answer is False or s.pending_pile:
        return
    r = s.rules
    if s.stopped_turn and r.pile.black_three_stops_going_out and s.pile and (
        s.pile[-1] in BLACK3
    ):
        return  # goingout_rules.going_out_error: a black three stops going out
    hand = s.hands[s.actor]
    if not _may_go_out(s, hand):
        return
    no_melds = r.turn.first_round_no_meld and s.first_round
    for last in _final_discards(s, hand):
        rest = hand[:]
        if last is not None:
            rest[last] -= 1
        if rest[9] or rest[10]:
            continue  # kept red threes: declaring one draws a card (module docstring)
        if no_melds and any(rest):
            continue  # turn.first_round_no_meld: only a last discard
        for seqs in (_sequences(s, rest) if r.melds.real_canasta else [[]]):
            left = rest[:]
            for seq in seqs:
                for c in seq:
                    left[c] -= 1
            model = Model(s, left, seqs, last)
            if model.ok:
                yield model, seqs, last



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


def _sequences(s: HandData, hand: list[int]) -> list[list[tuple[int, ...]]]:
    """The sets of sequence canastas (``melds.real_canasta``) that the hand holds at once,
    one set for each number of runs from each high card (the sets that take the same cards
    of each rank; suits do not matter to the other melds), in the exhaustive search's order:
    fewer runs first, then the first such set in run order (suit by suit, ace high first).

    A depth-first walk over the suits that never enters twice the same suit with the same
    runs so far: at most 4 times the number of run counts, whatever the hand."""
    size = s.rules.melds.canasta_size
    highs = list(range(14, 2 + size, -1))
    per_suit: list[list[tuple[int, ...]]] = []
    for suit in range(4):
        runs = [tuple(((1 if v == 14 else v) - 1) * 4 + suit
                      for v in range(high, high - size, -1)) for high in highs]
        per_suit.append(runs)
    options = [_suit_options(hand, runs) for runs in per_suit]
    out: list[list[tuple[int, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    chosen: list[tuple[int, ...]] = []

    def walk(suit: int, counts: tuple[int, ...]) -> None:
        key = (suit, *counts)
        if key in seen:
            return
        seen.add(key)
        if suit == 4:
            out.append(chosen[:])
            return
        for option in options[suit]:
            for j, n in enumerate(option):
                for _ in range(n):
                    chosen.append(per_suit[suit][j])
            walk(suit + 1, tuple(a + b for a, b in zip(counts, option, strict=True)))
            for _ in range(sum(option)):
                chosen.pop()

    walk(0, tuple(0 for _ in highs))
    out.sort(key=len)
    return out


def _suit_options(hand: list[int], runs: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Every count of each run of one suit that the hand holds at once, in increasing order
    (the first run's count first)."""
    out: list[tuple[int, ...]] = []
    counts = [0] * len(runs)
    left = hand[:]

    def walk(j: int) -> None:
        if j == len(runs):
            out.append(tuple(counts))
            return
        walk(j + 1)
        run = runs[j]
        taken = 0
        while all(left[c] for c in run):
            for c in run:
                left[c] -= 1
            taken += 1
            counts[j] = taken
            walk(j + 1)
        for c in run:
            left[c] += taken
        counts[j] = 0

    walk(0)
    return out


def _assemble(model: Model, ks: list[int], seqs: list[tuple[int, ...]],
              naturals_first: int) -> list[Action]:
    """The actions of one spread: the wild-card meld first (deuces before jokers, so a
    joker-free wild meld is tried where jokers are blocked), then sequence canastas, the
    natural melds and lay-offs, and the black threes last (melded only when going out).

    With ``naturals_first`` (``melds.min_cards``; 0: off) the order is instead: the melds
    and lay-offs that need no wild card (a new meld of at least ``naturals_first`` naturals
    is laid without its wild cards), sequence canastas, the wild-card meld, the melds that
    need wild cards, the remaining wild cards as lay-offs, the black threes."""
    wild_target = model.wild_target
    black_target = model.black_target
    pool_j = model.jokers
    pool_d = model.deuces[:]
    plain: list[Action] = []
    wild: list[Action] = []
    mixed: list[Action] = []
    later: list[Action] = []
    last: list[Action] = []
    for t, k in zip(model.targets, ks, strict=True):
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
    if model.black_group:
        last.append(Meld(tuple(model.blacks)))  # a group out of play
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
