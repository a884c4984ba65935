"""The partner's binding "yes" (seed 002_277939805e3ea5bf.txt: "è obbligatorio obbedire alla
risposta del compagno"): once a way out exists, a meld or lay-off is legal only if one is left
after it. The engine decides every candidate of a position from one shared search
(``canasta.core.goingout_binding``); these tests hold it to a search made after each
candidate on a copy, over every preset with house rules and rule fields drawn at random, on
hands up to 67 cards, and show what happens at the search's node cap: a meld is refused
("not shown"), never accepted wrongly, and the player always has a way on.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import LayOff, Meld, MisdealError, State, load_preset, preset_options
from canasta.core import goingout, goingout_model, legality
from canasta.core.actions import Action
from canasta.core.candidates import play_candidates
from canasta.core.cards import WILD_RANK
from canasta.core.data import Phase
from canasta.core.goingout_binding import KEEPS, STOPS, UNSHOWN, BindingCheck
from canasta.core.melds import IS_WILD, RANK
from canasta.sim.goingout_sweep import inflate

PRESETS = ("international", "canastone", "classic_italian", "brazilian", "romanian")
DRAWS = ("as dealt", "wild cards and pairs", "every rank")
# Rule fields the shared search reads, drawn as well (wild cards on a completed canasta off:
# a meld that completes its canasta takes no more wild cards after it).
FIELDS = {
    "melds.wilds_on_completed_canasta": (True, False),
    "melds.max_wilds": (2, 3, 99),
}


def binding_position(preset: str, seed: int, size: int, draw: str, opened: bool,
                     fields: dict[str, object] | None = None) -> State | None:
    """A random position of ``preset`` with house rules and rule fields drawn from ``seed``,
    the player to act holding ``size`` cards, in the PLAY phase, whose partner said yes and
    who can go out; None when the deal gives no such position."""
    rng = random.Random(f"binding:{preset}:{seed}")
    options: dict[str, object] = {
        o: rng.choice(sorted(spec.choices)) for o, spec in preset_options(preset).items()}
    for name, values in FIELDS.items():
        if rng.random() < 0.5:
            options[name] = rng.choice(values)
    options["going_out.ask_partner"] = True
    options.update(fields or {})
    rules = load_preset(preset, options)
    players = rng.choice([p for p in sorted(rules.deal.player_counts) if p >= 4] or [0])
    if not players:
        return None
    try:
        s = State.deal(rules, players, seed=rng.getrandbits(32))
    except MisdealError:
        return None
    for _ in range(rng.randrange(0, 4 * players)):
        if s.is_over:
            return None
        s.apply(rng.choice(s.legal_actions()))
    # Past the first round (turn.first_round_no_meld forbids every meld in it).
    while not s.is_over and (s.phase is not Phase.PLAY or s.first_round):
        s.apply(rng.choice(s.legal_actions()))
    if s.is_over or len(s.teams[s.team_of[s.actor]]) < 2:
        return None
    inflate(s, size, draw, rng)
    tidy(s, rng)
    team = s.team_of[s.actor]
    if opened:
        s.opened[team] = True
        table(s, rng)
    s.answer = True
    return s if BindingCheck(s).can_go_out() else None


def tidy(s: State, rng: random.Random) -> None:
    """Put back into the stock the hand's threes and the ranks too short to meld (keeping
    one odd card now and then for the final discard), so that going out is often within
    reach (the cards stay in the game)."""
    hand = s.hands[s.actor]
    melds = s.melds[s.team_of[s.actor]]
    short = [c for c in (8, 9, 10, 11) for _ in range(hand[c])]
    for rank in range(4, 15):
        r = 1 if rank == 14 else rank
        codes = [c for c in range((r - 1) * 4, r * 4) for _ in range(hand[c])]
        if 0 < len(codes) < s.rules.melds.min_naturals and r not in melds:
            short += codes
    rng.shuffle(short)
    for c in short[1 if rng.random() < 0.5 else 0:]:
        if s.hand_size[s.actor] <= 3:
            break
        hand[c] -= 1
        s.hand_size[s.actor] -= 1
        s.stock.append(c)


def table(s: State, rng: random.Random) -> None:
    """Move some of the hand's naturals (and now and then a wild card) onto the open side's
    melds, up to a canasta, so that going out is often within reach (the cards stay in the
    game)."""
    hand = s.hands[s.actor]
    melds = s.melds[s.team_of[s.actor]]
    size = s.rules.melds.canasta_size
    for rank in rng.sample(range(4, 14), 4):
        codes = [c for c in range((rank - 1) * 4, rank * 4) for _ in range(hand[c])]
        if len(codes) < 4 or rank in melds or s.hand_size[s.actor] < 8:
            continue
        take = codes[:rng.randint(3, min(len(codes) - 1, size))]
        wilds = [c for c in (52, 4, 5, 6, 7) if hand[c]]
        if wilds and rng.random() < 0.4 and len(take) >= 3:
            take.append(wilds[0])
        for c in take:
            hand[c] -= 1
        s.hand_size[s.actor] -= len(take)
        melds[rank] = take


def one_rank_melds(s: State) -> list[tuple[Action, int, int | None]]:
    """The melds and lay-offs of one rank (or of wild cards) that would be legal without the
    partner's "yes", with their meld key and lay-off target."""
    s.answer = None
    try:
        out = []
        for a in play_candidates(s):
            if not isinstance(a, (Meld, LayOff)) or not s.can(a):
                continue
            ranks = {RANK[c] for c in a.cards if not IS_WILD[c]}
            if len(ranks) > 1:
                continue
            target = a.rank if isinstance(a, LayOff) else None
            key = target if target is not None else (ranks.pop() if ranks else WILD_RANK)
            out.append((a, key, target))
        return out
    finally:
        s.answer = True


def search_after(s: State, check: BindingCheck, cards: tuple[int, ...], key: int,
                 target: int | None) -> int:
    """The verdict of a search made on a copy after the meld (the reference)."""
    return check._probe(cards, key, target)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6),
       size=st.sampled_from([9, 16, 30, 67]), draw=st.sampled_from(DRAWS),
       opened=st.booleans())
def test_shared_search_matches_a_search_after_each_meld(preset: str, seed: int, size: int,
                                                        draw: str, opened: bool) -> None:
    s = binding_position(preset, seed, size, draw, opened)
    if s is None:
        return
    check = BindingCheck(s)
    listed = {a for a in s.legal_actions() if isinstance(a, (Meld, LayOff))}
    for a, key, target in one_rank_melds(s)[:150]:
        want = search_after(s, check, a.cards, key, target)
        assert want != UNSHOWN
        # Exact, or not shown within the fallback's budget (then refused, test below).
        assert check.verdict(a.cards, key, target) in (want, UNSHOWN), (preset, seed, a)
        # legal_actions() lists none that stops the going out, and none it lists does.
        assert not (a in listed and want == STOPS), (preset, seed, a)


@pytest.mark.parametrize(("preset", "fields", "draw"), [
    # A meld that completes its canasta takes no more wild cards after it.
    ("international", {"melds.wilds_on_completed_canasta": False}, "every rank"),
    # A wild-card canasta all of deuces is the natural kind: the deuces a meld takes count.
    ("classic_italian", {}, "wild cards and pairs"),
    ("canastone", {}, "wild cards and pairs"),
])
def test_shared_search_on_the_rules_it_counts_exactly(preset: str, fields: dict[str, object],
                                                       draw: str) -> None:
    """The shared search's two exact counts, checked against a search after each meld on
    open sides (where it applies): with ``melds.wilds_on_completed_canasta`` off, a meld whose
    canasta it completes has exactly its own wild cards; with ``melds.wild_canasta_kinds``,
    the deuces the meld takes are no longer there for a wild-card canasta of deuces."""
    compared = counted = positions = 0
    for seed in range(80):
        s = binding_position(preset, seed, 67, draw, True, fields)
        if s is None:
            continue
        positions += 1
        check = BindingCheck(s)
        size = s.rules.melds.canasta_size
        for a, key, target in one_rank_melds(s)[:150]:
            jokers = sum(1 for c in a.cards if c == 52)
            deuces = sum(1 for c in a.cards if IS_WILD[c]) - jokers
            v = check.counted(key, len(a.cards) - jokers - deuces, jokers, deuces)
            if v == UNSHOWN:
                continue
            compared += 1
            meld = s.melds[s.team_of[s.actor]].get(key, [])
            counted += (len(meld) + len(a.cards) >= size if preset == "international"
                        else deuces > 0)
            assert v == search_after(s, check, a.cards, key, target), (seed, a)
        if positions >= 3 and counted >= 5:
            break
    assert compared and counted >= 5, (positions, compared, counted)


@pytest.fixture()
def low_cap():
    """A node budget lowered for one test (``goingout_model.LIMIT``), restored after."""
    saved = goingout_model.LIMIT["nodes"]
    yield goingout_model.LIMIT
    goingout_model.LIMIT["nodes"] = saved


def test_at_the_cap_a_meld_is_refused_never_wrongly_accepted(low_cap: dict[str, int]) -> None:
    """At the node cap the answer is conservative and still exact: every meld listed (and
    accepted by ``can``) leaves a way out by a full search, ``can`` agrees with the list,
    the refusal names the cap, and the player has a legal way on (the first move of the
    engine's own way out is never refused)."""
    unshown = checked = 0
    for seed in range(40):
        if unshown >= 3 and checked >= 2:
            break
        low_cap["nodes"] = goingout_model.NODE_CAP
        s = binding_position("brazilian", seed, 30, "wild cards and pairs", seed % 2 == 0)
        if s is None:
            continue
        truth = BindingCheck(s)
        melds = one_rank_melds(s)[:40]
        plan = goingout.going_out_plan(s)
        assert plan
        # The smallest budget under which the position still shows a way out.
        for cap in (8, 16, 32, 64):
            low_cap["nodes"] = cap
            if BindingCheck(s).can_go_out() and goingout.going_out_plan(s):
                break
        else:
            continue
        checked += 1
        listed = s.legal_actions()
        assert listed, seed
        for a, key, target in melds:
            ok = s.can(a)
            assert ok == (a in listed), (seed, a)
            if ok:
                low_cap["nodes"] = goingout_model.NODE_CAP
                assert truth._probe(a.cards, key, target) == KEEPS, (seed, a)
                low_cap["nodes"] = cap
            else:
                why = legality.check(s, a)
                unshown += why is not None and "search limit" in why
        first = goingout.going_out_plan(s)
        assert first and s.can(first[0]), seed
    assert unshown, "no meld met the cap: lower the caps tried"


def test_the_cap_bounds_every_search(low_cap: dict[str, int]) -> None:
    """No search evaluates more than ``LIMIT["nodes"]`` states: past it the going-out
    questions answer conservatively (no way out shown, so a "yes" does not bind) instead of
    running on."""
    s = None
    for seed in range(40):
        s = binding_position("classic_italian", seed, 67, "wild cards and pairs", False)
        if s is not None:
            break
    assert s is not None
    low_cap["nodes"] = 0
    assert goingout.way_out(s) == -1
    assert goingout.can_go_out(s) is False
    assert goingout.going_out_plan(s) is None
    # Not binding: the player may discard, and the position has legal actions.
    assert any(a.__class__.__name__ == "Discard" for a in s.legal_actions())
