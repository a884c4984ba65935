"""The undo mark rebuilt from a hand's record (core/undo.py ``TurnMark.recover``): a game
resumed or a server restarted mid-turn still lets the player take back the turn's melds
(casual house rule undo; no seed text has it)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Match, load_preset
from canasta.cli import render
from canasta.cli.session import Session
from canasta.core.actions import Discard, Draw, LayOff, Meld, TakePile
from canasta.core.state import Phase
from canasta.core.undo import TurnMark
from canasta.formats.position import position_to_dict


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["international", "canastone",
                                                              "brazilian"]))
def test_the_recovered_mark_is_the_mark_made_at_the_draw(seed: int, variant: str) -> None:
    """At every point of random play where a mark made at the draw still applies, the mark
    rebuilt from the record holds the same state, action count and event count; elsewhere
    (after a discard, in the draw phase) there is none."""
    match = Match(load_preset(variant), 4, seed=seed)
    rng = random.Random(seed)
    live: TurnMark | None = None
    for _ in range(300):
        state = match.state
        if state.is_over:
            break
        got = TurnMark.recover(match)
        if live is not None and live.taken_back(match) is not None:
            assert got is not None
            assert (got.seat, got.actions, got.events) == (live.seat, live.actions, live.events)
            assert position_to_dict(got.state) == position_to_dict(live.state)
        if state.phase is not Phase.PLAY:
            assert got is None
        legal = state.legal_actions()
        # prefer melds and lay-offs, so turns hold several of them
        building = [a for a in legal if isinstance(a, (Meld, LayOff))]
        action = rng.choice(building if building and rng.random() < 0.7 else legal)
        seat = state.actor
        match.apply(action)
        if isinstance(action, (Draw, TakePile)):  # as the front ends do: at the draw
            live = TurnMark.after_draw(match, seat)
        elif match.state.actor != seat:
            live = None


def test_a_resumed_terminal_game_can_still_undo_the_turns_meld() -> None:
    """``canasta play --undo --resume``: a game saved after a meld and taken up again lets
    the person take the meld back, as if it had never stopped."""
    match = Match(load_preset("international"), 4, seed=1)
    names = render.seat_names(4)
    kinds = ["", "greedy", "greedy", "greedy"]
    s = Session(match, names, kinds, allow_undo=True)
    for _ in range(400):  # play until the person has drawn and can meld
        if s.bot_to_act():
            action, _ = s.decide_bot()
            s.match.apply(action)
            continue
        melds = [a for a in s.view.legal_actions if isinstance(a, Meld)]
        if s.state.phase is Phase.PLAY and melds:
            break
        legal = s.view.legal_actions
        s.play(next((a for a in legal if isinstance(a, Discard)), legal[0]))
    hand_before = sorted(s.view.hand)
    assert s.play(melds[0]).kind == "played"
    resumed = Match.resume(match.rules, 4, match.hands, seed=match.seed)
    again = Session(resumed, names, kinds, allow_undo=True)
    reply = again.submit("undo")
    assert reply.lines[0].startswith("Taken back: m "), reply.lines
    assert sorted(again.view.hand) == hand_before
