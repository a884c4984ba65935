"""The heuristic levels' play on constructed positions: going out when the engine says the
seat can (seed 002_277939805e3ea5bf.txt: "Si chiude quando un giocatore si libera di tutte le
carte che ha in mano"; "Per chiudere, la coppia deve avere formato almeno una canasta").

Each position is one where going out needs wild cards spread over several melds, or wild
cards laid off to complete the side's required canasta, which no single move shows: the bots
used to look only at whether one move leaves a card or none.
"""

from __future__ import annotations

import pytest

from canasta.bots import make_bot
from canasta.core.data import Phase
from canasta.core.state import State
from helpers import deal, play

LEVELS = ("easy:miss=0,careless=0", "medium", "hard", "greedy")


def needs_wild_canasta() -> State:
    """International, 4 players. Seat 3 has melded A-A-A; seat 1 holds five fives, two
    deuces, four kings and draws a queen: it goes out only by 5 5 5 5 5 2 2 (the side's
    canasta), K K K K and the queen discarded."""
    s = deal({1: "5s 5h 5d 5c 5s 2c 2d Ks Kh Kd Kc", 3: "As Ah Ad"},
             after="Jd 9c 8d 7h 6s Qd")
    play(s, "draw", "discard 9c", "draw", "discard 8d", "draw", "meld As Ah Ad",
         "discard 7h", "draw", "discard 6s", "draw")
    assert s.actor == 1 and s.phase is Phase.PLAY
    return s


def needs_wild_melds() -> State:
    """International, 4 players. Seat 3 has melded a natural canasta of kings; seat 1 holds
    9 9 2, 7 7 2, 6 6 6, 8 8 and draws an eight: it goes out with four melds, two of them
    pairs completed by a deuce (no canasta among them, so no single move is a going out)."""
    s = deal({1: "9s 9h 2c 7s 7h 2d 6s 6h 6d 8s 8h", 3: "Ks Kh Kd Kc Ks Kh Kd"},
             after="Jd 9c 8d 7c 6c 8d")
    play(s, "draw", "discard 9c", "draw", "discard 8d", "draw",
         "meld Ks Kh Kd Kc Ks Kh Kd", "discard 7c", "draw", "discard 6c", "draw")
    assert s.actor == 1 and s.phase is Phase.PLAY and s.going_out_plan() is not None
    return s


def needs_wild_layoff() -> State:
    """International, 4 players. Seat 3 has melded five queens; seat 1 holds 2 2, J J J,
    10 10 10, 4 4 4 and draws a nine: the deuces laid off on the queens make the side's
    canasta, and only then may the rest go down and the nine be discarded."""
    s = deal({1: "2c 2d Js Jh Jd 10s 10h 10d 4s 4h 4d", 3: "Qs Qh Qd Qc Qs"},
             after="Jc 9c 8d 7c 6c 9d")
    play(s, "draw", "discard 9c", "draw", "discard 8d", "draw",
         "meld Qs Qh Qd Qc Qs", "discard 7c", "draw", "discard 6c", "draw")
    assert s.actor == 1 and s.phase is Phase.PLAY and s.going_out_plan() is not None
    return s


def finish_turn(s: State, spec: str) -> None:
    bot = make_bot(spec, 1)
    seat = s.actor
    for _ in range(40):
        if s.is_over or s.current != seat:
            return
        view = s.view(s.actor)
        action = bot.choose(view)
        assert action in view.legal_actions
        s.apply(action)


@pytest.mark.parametrize("position", [needs_wild_canasta, needs_wild_melds, needs_wild_layoff])
@pytest.mark.parametrize("spec", LEVELS[:3])
def test_levels_go_out_when_it_needs_wild_cards(position: object, spec: str) -> None:
    """Seed 002: "Si chiude quando un giocatore si libera di tutte le carte che ha in mano":
    every level goes out in the turn the engine's plan says it can."""
    s = position()  # type: ignore[operator]
    finish_turn(s, spec)
    assert s.is_over and s.went_out == 1
