"""Information sets (``canasta.core.view``): what one seat knows, and deals consistent with it.

A seat's view holds, for every other seat, the cards known to be in its hand: those it took
with the discard pile (seed 002: the taker "prende tutte le carte del pozzo"; every discard was
seen) and has not played since; seed 004's surprise cards are shown to the others ("dupa ce
le arata celorlalti"); seed 000's cards put under the upcard are not ("A questa carta vengono
sottoposte ... altre carte prelevate dal tallone"). ``view.sample_state(rng)`` deals the rest
at random: every sample is a full state that gives the seat the same view, retract and play
work on it, each unseen card lands in each hidden place in proportion to the place's size (a
chi-square test), and the real state is one of the possible samples.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Discard, MisdealError, Retract, State, TakePile, load_preset
from canasta.core.cards import NUM_CODES, cards_of, display_cards, make_deck, parse_card, sort_key
from canasta.core.data import FIELDS, HandData
from canasta.core.events import TookPile as PileTaken
from canasta.core.melds import RED3
from canasta.core.view import HIDDEN, VIEW_FIELDS, View, blank, make_view
from helpers import check_conservation, deal, play

SEED_000 = "000_1cc8abd4e271b725.txt"
SEED_002 = "002_277939805e3ea5bf.txt"
SEED_004 = "004_de631c4ee768aa1b.txt"

CONFIGS: list[tuple[str, dict[str, str]]] = [
    ("international", {}),
    ("canastone", {}),
    ("classic_italian", {"keep_red_threes": "true"}),
    ("brazilian", {"canastra_real": "true"}),
    ("romanian", {"surprises": "four"}),
]
CASES = [(name, opts, players) for name, opts in CONFIGS
         for players in load_preset(name, opts).deal.player_counts]


def differences(a: HandData, b: HandData, path: str = "state") -> list[str]:
    """Fields (and snapshot fields) in which two states differ."""
    out = []
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if name == "snapshot":
            if (x is None) != (y is None):
                out.append(f"{path}.snapshot")
            elif x is not None:
                out.extend(differences(x, y, f"{path}.snapshot"))
        elif x != y:
            out.append(f"{path}.{name}")
    return out


def real_hidden(state: State, seat: int) -> list[int]:
    """Counts per code of the real cards ``seat`` cannot see."""
    counts = [0] * NUM_CODES
    for p in range(state.players):
        if p != seat:
            for c in range(NUM_CODES):
                counts[c] += state.hands[p][c] - state.known[p][c]
    under = state.pending_pile if state.pending_pile else state.pile
    for c in [*state.stock, *state.surprise, *under[:state.pile_hidden]]:
        counts[c] += 1
    return counts


def check_view(state: State, seat: int, rng: random.Random) -> None:
    """Every invariant of one seat's view and one sample of it."""
    view = state.view(seat)
    for p in range(state.players):
        assert all(0 <= k <= h for k, h in zip(state.known[p], state.hands[p], strict=True))
    # The real state is a possible sample: its hidden cards are the unseen ones, no red three
    # hides in a hand where they are laid out at once, and blanking it gives the view's table.
    assert view.unseen() == real_hidden(state, seat)
    assert sum(view.unseen()) == sum(view.hidden.values())
    assert not differences(blank(state, seat), view.table)
    sample = view.sample_state(rng)
    check_conservation(sample)
    if sample.provisional:
        assert sample.snapshot is not None
        check_conservation(sample.snapshot)
    # The sample gives this seat the same view.
    assert not differences(blank(sample, seat), view.table)
    again = sample.view(seat)
    for name in VIEW_FIELDS:
        if name != "table":
            assert getattr(again, name) == getattr(view, name), name
    assert again.events == view.events
    if not state.rules.red_threes.may_keep_as_stop:
        assert all(not sample.hands[p][c] for p in range(sample.players) for c in RED3)
    # It plays on: the same legal actions for the seat to act, and retract returns both to
    # states this seat sees alike.
    if seat == state.actor and not state.is_over:
        actions = sample.legal_actions()
        assert actions == list(view.legal_actions)
        probe = sample.clone()
        probe.apply(rng.choice(actions))
        check_conservation(probe)
    # Retract is legal for a player who cannot complete the opening (its hand decides), so
    # the seat to act sees the same answer in every sample; compare where both allow it.
    if seat == state.actor and state.provisional:
        assert sample.can(Retract()) == state.can(Retract())
    if state.provisional and state.can(Retract()) and sample.can(Retract()):
        real, sampled = state.clone(), sample.clone()
        real.apply(Retract())
        sampled.apply(Retract())
        check_conservation(sampled)
        assert not differences(blank(real, seat), blank(sampled, seat))


def play_out(rules_name: str, opts: dict[str, str], players: int, seed: int,
             every: int = 1) -> int:
    rules = load_preset(rules_name, opts)
    rng = random.Random(seed)
    try:
        state = State.deal(rules, players, seed=seed)
    except MisdealError:
        return 0
    steps = 0
    while not state.is_over:
        if steps % every == 0:
            for seat in range(players):
                check_view(state, seat, rng)
        action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply(action)
        check_known_after(before, action, state)
        steps += 1
    for seat in range(players):
        check_view(state, seat, rng)
    return steps


def check_known_after(before: State, action: object, after: State) -> None:
    """A taken pile's face-up cards (and shown surprise cards) become known once they come to
    hand; a card played leaves its copies known no more than the hand holds."""
    seat = before.actor
    if isinstance(action, TakePile) and not after.pending_pile and before.pile:
        # The whole pile (after.pile is empty), or the top card alone (seed 004's opening).
        shown = [] if after.pile else before.pile[before.pile_hidden:-1] + before.surprise
        need = [0] * NUM_CODES
        for c in shown:
            if c not in RED3 or before.rules.red_threes.may_keep_as_stop:
                need[c] += 1
        for c in range(NUM_CODES):
            assert after.known[seat][c] >= min(need[c], after.hands[seat][c]), c
    if isinstance(action, Discard):
        assert after.known[seat][action.card] <= after.hands[seat][action.card]


@pytest.mark.parametrize(("name", "opts", "players"), CASES)
def test_views_and_samples_over_random_play(name: str, opts: dict[str, str],
                                            players: int) -> None:
    assert play_out(name, opts, players, seed=players + 10, every=2) > 0


@settings(max_examples=10, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_views_and_samples_property(case: tuple[str, dict[str, str], int], seed: int) -> None:
    name, opts, players = case
    play_out(name, opts, players, seed, every=3)


@pytest.mark.parametrize(("name", "opts", "players"), CASES[::2])
def test_a_view_is_a_snapshot_its_parts_built_late_included(name: str, opts: dict[str, str],
                                                            players: int) -> None:
    """``hand``, ``known`` and ``table`` are built when first read, from what the view took
    from the state when it was made: read after the state has moved on, they are what they
    were then (the state's own lists are changed in place by its moves)."""
    rules = load_preset(name, opts)
    rng = random.Random(players)
    try:
        state = State.deal(rules, players, seed=players)
    except MisdealError:
        return
    while not state.is_over:
        then = state.clone()
        views = [state.view(seat) for seat in range(players)]
        for _ in range(3):
            if not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
        for seat, view in enumerate(views):
            assert view.hand == tuple(then.hand_cards(seat))
            assert view.known == then.view(seat).known
            assert not differences(blank(then, seat), view.table)
            assert view.table is view.table


@settings(max_examples=50, deadline=None)
@given(counts=st.lists(st.integers(0, 3), min_size=NUM_CODES, max_size=NUM_CODES))
def test_hands_are_listed_in_display_order(counts: list[int]) -> None:
    """``cards_of`` and ``display_cards`` (a view's ``hand``) walk the codes in display order
    instead of sorting: the same list as sorting by ``sort_key``."""
    cards = sorted((c for c in range(NUM_CODES) for _ in range(counts[c])), key=sort_key)
    assert cards_of(counts) == cards
    assert display_cards(tuple(counts)) == tuple(cards)


def test_a_view_pickles_and_copies() -> None:
    """Views cross process boundaries (tournament workers): a pickled or deep-copied view
    has the same fields, table and events."""
    import copy
    import pickle

    state = _mid_hand("international", {}, 4, seed=3, steps=30)
    for seat in (state.actor, (state.actor + 1) % 4):
        view = state.view(seat)
        for again in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
            for name in VIEW_FIELDS:
                if name != "table":
                    assert getattr(again, name) == getattr(view, name), name
            assert not differences(view.table, again.table)
            assert again.events == view.events


# -- known cards ------------------------------------------------------------------------------
SEAT1 = "As Ah Ad 7s 7d 7c 4s 5h 6c 9h 10c"
SEAT3 = "9s 9d 7h Qc JK 2c Ks Kh 8s 6d 5d"


def test_cards_taken_with_the_pile_are_known_until_played() -> None:
    """Seed 002_277939805e3ea5bf.txt: the taker "prende tutte le carte del pozzo" after
    melding its top card; every card in it was seen, so the others know it holds them until
    it plays them."""
    s = deal({1: SEAT1, 2: "9c", 3: SEAT3}, after="Jd Qd 10d 8d")
    play(s, "draw", "meld As Ah Ad", "meld 7s 7d 7c", "discard 4s", "draw", "discard 9c")
    play(s, "take-pile 9s 9d")
    jd, four = parse_card("Jd"), parse_card("4s")
    view = s.view(0)
    assert sorted(view.known[3]) == sorted([jd, four])
    assert view.hidden["hand 3"] == s.hand_size[3] - 2
    assert s.view(2).known[3] == view.known[3]  # the partner sees the same, no more
    play(s, "discard 4s")
    assert s.view(0).known[3] == (jd,)
    assert s.view(3).known[3] == (jd,)  # what the others know of seat 3's own hand


def test_surprise_cards_are_shown_to_the_others() -> None:
    """Seed 004_de631c4ee768aa1b.txt: "Cel care rupe primul ia si surprizele daca exista dupa
    ce le arata celorlalti jucatori": the first taker's surprise cards are known."""
    rules = load_preset("romanian", {"surprises": "four"})
    rng = random.Random(4)
    for seed in range(40):
        s = State.deal(rules, 4, seed=seed)
        while not s.is_over:
            takes = [a for a in s.legal_actions() if isinstance(a, TakePile)]
            if takes and s.surprise:
                seat, surprise = s.actor, list(s.surprise)
                before = s.view((seat + 1) % 4)
                assert before.hidden["surprise"] == 4
                s.apply(takes[0])
                if s.pending_pile or s.surprise:
                    break  # an opening in progress, or the top card alone: try another deal
                known = list(s.view((seat + 1) % 4).known[seat])
                for c in surprise:
                    if c in RED3:
                        continue
                    if s.hands[seat][c]:
                        assert c in known
                        known.remove(c)
                assert s.view((seat + 1) % 4).hidden["surprise"] == 0
                # The event every seat sees shows them.
                took = [e for e in s.view((seat + 1) % 4).events if isinstance(e, PileTaken)]
                assert sorted(took[-1].surprise or ()) == sorted(surprise)
                return
            s.apply(rng.choice(s.legal_actions()))
    pytest.fail("no deal took the surprise cards")


def test_cards_under_the_upcard_stay_unseen() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "A questa carta vengono sottoposte a formare l'inizio del
    monte degli scarti ... altre carte prelevate dal tallone in un numero determinato dalla carta
    esposta: per un Asso 14 carte, per un Re 13 carte": face down, unseen by all."""
    rules = load_preset("canastone")
    s = State.deal(rules, 4, seed=2)
    top = s.pile[-1]
    rank = 14 if top // 4 == 0 else top // 4 + 1
    view = s.view(0)
    assert s.pile_hidden == view.hidden["pile"] > 0
    assert view.hidden["pile"] == rank
    assert len(view.pile) == len(s.pile) - s.pile_hidden and view.pile[-1] == top
    assert all(c == HIDDEN for c in view.table.pile[:s.pile_hidden])


# -- the sampling distribution ----------------------------------------------------------------
def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom: the regularized
    upper incomplete gamma function Q(df/2, x/2) (series below a+1, continued fraction
    above, as in Numerical Recipes)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1.0 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = z + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def test_chi2_sf_matches_known_values() -> None:
    # Tables: chi-square 95th percentiles 3.841 (1 df), 18.307 (10 df), 124.342 (100 df).
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=2e-4)
    assert chi2_sf(18.307, 10) == pytest.approx(0.05, abs=2e-4)
    assert chi2_sf(124.342, 100) == pytest.approx(0.05, abs=2e-4)
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1))


def _places(sample: State, seat: int, view: View[State]) -> dict[str, list[int]]:
    """Counts per code of the sampled cards in each hidden place of ``view``."""
    out: dict[str, list[int]] = {}
    for p in range(sample.players):
        if p != seat:
            out[f"hand {p}"] = [h - k for h, k in zip(sample.hands[p], sample.known[p],
                                                       strict=True)]
    under = sample.pending_pile if sample.pending_pile else sample.pile
    for name, cards in (("stock", sample.stock), ("surprise", sample.surprise),
                        ("pile", [] if sample.pending_pile else under[:sample.pile_hidden]),
                        ("pending", under[:sample.pile_hidden] if sample.pending_pile else [])):
        counts = [0] * NUM_CODES
        for c in cards:
            counts[c] += 1
        out[name] = counts
    return out


def chi_square(view: View[State], draw: Callable[[random.Random], State], n: int,
               seed: int) -> tuple[float, int]:
    """Pearson's statistic of where each unseen card lands over ``n`` samples, against the
    frequency proportional to each hidden place's size (red threes, laid out at once, only
    outside the hands), and its degrees of freedom."""
    rng = random.Random(seed)
    sizes = {k: v for k, v in view.hidden.items() if v}
    observed = {(c, p): 0 for c in range(NUM_CODES) for p in sizes}
    for _ in range(n):
        sample = draw(rng)
        for place, counts in _places(sample, view.seat, view).items():
            for c in range(NUM_CODES):
                if counts[c]:
                    observed[(c, place)] += counts[c]
    unseen = view.unseen()
    keep = not view.rules.red_threes.may_keep_as_stop
    stat, df = 0.0, 0
    for c in range(NUM_CODES):
        if not unseen[c]:
            continue
        allowed = {p: k for p, k in sizes.items()
                   if not (keep and c in RED3 and p.startswith("hand"))}
        total = sum(allowed.values())
        for p in sizes:
            if p not in allowed:
                assert observed[(c, p)] == 0
                continue
            expected = n * unseen[c] * allowed[p] / total
            stat += (observed[(c, p)] - expected) ** 2 / expected
        df += len(allowed) - 1
    return stat, df


def _mid_hand(name: str, opts: dict[str, str], players: int, seed: int,
              steps: int) -> State:
    rules = load_preset(name, opts)
    state = State.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        takes = [a for a in state.legal_actions() if isinstance(a, TakePile)]
        state.apply(takes[0] if takes else rng.choice(state.legal_actions()))
        if state.is_over:
            break
    return state


@pytest.mark.parametrize(("name", "opts", "players", "steps"), [
    ("international", {}, 4, 30),
    ("canastone", {}, 4, 0),  # the face-down cards under the upcard
    ("romanian", {"surprises": "four"}, 3, 10),  # the surprise cards
])
def test_unseen_cards_land_in_proportion_to_each_place(name: str, opts: dict[str, str],
                                                       players: int, steps: int) -> None:
    """Over 600 samples (fixed seed) Pearson's statistic is not extreme: p > 0.001."""
    state = _mid_hand(name, opts, players, seed=3, steps=steps)
    view = state.view(0)
    assert len([v for v in view.hidden.values() if v]) >= 3
    stat, df = chi_square(view, view.sample_state, 600, seed=11)
    assert chi2_sf(stat, df) > 0.001, (stat, df)


def test_the_chi_square_test_catches_a_biased_sampler() -> None:
    """A sampler that always deals the unseen cards in the same order (no shuffle) fails."""
    state = _mid_hand("international", {}, 4, seed=3, steps=30)
    view = state.view(0)

    def biased(rng: random.Random) -> State:
        return view.sample_state(random.Random(0))

    stat, df = chi_square(view, biased, 200, seed=11)
    assert chi2_sf(stat, df) < 1e-9


def test_known_cards_stay_in_every_sample() -> None:
    s = deal({1: SEAT1, 2: "9c", 3: SEAT3}, after="Jd Qd 10d 8d")
    play(s, "draw", "meld As Ah Ad", "meld 7s 7d 7c", "discard 4s", "draw", "discard 9c")
    play(s, "take-pile 9s 9d", "discard 8s")
    view = s.view(0)
    rng = random.Random(1)
    for _ in range(50):
        sample = view.sample_state(rng)
        for c in range(NUM_CODES):
            assert sample.hands[3][c] >= s.known[3][c]
        assert sample.hands[0] == s.hands[0] and sample.pile == s.pile


def test_make_view_refuses_a_seat_that_is_not_there() -> None:
    s = State.deal(load_preset("international"), 2, seed=1)
    with pytest.raises(IndexError):
        make_view(s, 2)


def test_full_deck_is_every_card_somewhere_in_a_view() -> None:
    """The unseen cards and everything the view shows add up to the deck."""
    s = _mid_hand("international", {}, 4, seed=5, steps=25)
    view = s.view(1)
    seen = [0] * NUM_CODES
    for cards in [view.hand, view.pile, view.pending_pile, *view.known[:1], *view.known[2:],
                  *view.red_threes, *(m for team in view.melds for m in team.values())]:
        for c in cards:
            seen[c] += 1
    deck = make_deck(s.rules.packs(4), s.rules.deal.jokers_per_pack)
    full = [deck.count(c) for c in range(NUM_CODES)]
    assert [a + b for a, b in zip(seen, view.unseen(), strict=True)] == full


def test_no_public_field_of_a_view_holds_another_seats_hidden_draw() -> None:
    """DESIGN.md: "Bots, clients and RL observations are built from views only", so a view's
    public fields must not reach the real event chain (a bot could read the cards another
    seat drew from the stock there). The events a view gives are each seat-filtered."""
    from canasta.core.events import Drew, EventLog

    state = State.deal(load_preset("international"), 4, seed=5)
    rng = random.Random(5)
    while not state.is_over and len(state.events) < 40:
        state.apply(rng.choice(state.legal_actions()))
    hidden_draws = [e for e in state.events if isinstance(e, Drew) and e.seat != 0]
    assert hidden_draws, "the hand should have other seats' draws"
    view = state.view(0)

    def reaches_events(value: object, depth: int = 0) -> bool:
        if isinstance(value, EventLog) or hasattr(value, "visible_to"):
            return True
        if depth < 3 and isinstance(value, (tuple, list)):
            return any(reaches_events(v, depth + 1) for v in value)
        if depth < 3 and isinstance(value, dict):
            return any(reaches_events(v, depth + 1) for v in value.values())
        return False

    public = [n for n in VIEW_FIELDS if n != "table"]
    assert not [n for n in public if reaches_events(getattr(view, n))]
    assert view.table.event_log is None
    seen = [e for e in view.events if isinstance(e, Drew) and e.seat != 0]
    assert len(seen) == len(hidden_draws)
    assert all(e.drawn is None for e in seen), seen[:2]


def test_a_finished_hands_view_pickles_with_its_score_sheets() -> None:
    """A view at a hand's end holds the score sheets (frozen values of the compiled scoring
    module, which did not unpickle by their default: "cannot assign to field 'team'")."""
    import pickle

    from canasta.bots import make_bot
    from canasta.core.scoring import Penalty, TeamHand

    state = State.deal(load_preset("international"), 4, seed=3)
    bot = make_bot("greedy:seed=1")
    while not state.is_over:
        state.apply(bot.choose(state.view(state.actor)))
    view = state.view(0)
    again = pickle.loads(pickle.dumps(view))
    assert again.events == view.events and list(again.events[-1].scores) == state.score()
    assert [s.score_after for s in again.events[-1].scores] == \
        [s.score_after for s in state.score()]
    penalty = Penalty("custom", -100, "late", 2, None)
    team = TeamHand(melds=((1, 1, 1),), red_threes=1, penalties=(penalty,))
    assert pickle.loads(pickle.dumps(penalty)) == penalty
    assert pickle.loads(pickle.dumps(team)) == team
