"""What makes the table readable at a glance, derived from the hand's events (never from
text): each seat's last move, the cards the seat to act just drew, the points of each card
in a hand (for the running count of a selection against the opening minimum), and, once the
hand is over, the cards every player was left with (shown by the players at a real table
for the count).
"""

from __future__ import annotations

from typing import Any

from canasta.core.cards import POINTS, card_text, rank_text
from canasta.core.events import Discarded, Drew, Event, Melded, TookPile
from canasta.core.state import State


def last_moves(events: tuple[Event, ...] | list[Event], players: int,
               team_of: tuple[int, ...] | list[int]) -> list[dict[str, Any] | None]:
    """Per seat, its last move of the hand, or None: ``{"kind": "discard", "card"}``,
    ``{"kind": "meld" | "lay-off", "rank", "team", "cards"}``, ``{"kind": "take-pile",
    "card", "rank", "team"}`` or ``{"kind": "draw", "count"}``; ``"n"`` numbers the moves
    of the hand, so that a page animates only what is new."""
    out: list[dict[str, Any] | None] = [None] * players
    for n, ev in enumerate(events):
        seat = getattr(ev, "seat", None)
        if seat is None or not 0 <= seat < players:
            continue
        if isinstance(ev, Discarded):
            out[seat] = {"kind": "discard", "card": card_text(ev.card), "n": n}
        elif isinstance(ev, Melded):
            kind = "meld" if ev.new else "lay-off"
            out[seat] = {"kind": kind, "rank": rank_text(ev.key), "team": team_of[seat],
                         "cards": [card_text(c) for c in ev.cards], "n": n}
        elif isinstance(ev, TookPile):
            out[seat] = {"kind": "take-pile", "card": card_text(ev.top),
                         "rank": rank_text(ev.key), "team": team_of[seat], "n": n}
        elif isinstance(ev, Drew):
            out[seat] = {"kind": "draw", "count": ev.drawn_count, "n": n}
    return out


def just_drawn(events: tuple[Event, ...] | list[Event], seat: int,
               hand: tuple[int, ...]) -> list[str]:
    """The cards ``seat`` drew from the stock in its current turn and still holds (their
    events as ``seat`` sees them), to be marked in its hand."""
    drawn: list[int] = []
    for ev in reversed(events):
        if isinstance(ev, Discarded):  # the turn of the draw is over
            break
        if isinstance(ev, Drew) and ev.seat == seat and ev.drawn:
            drawn = list(ev.drawn)
            break
    left = list(hand)
    out = []
    for c in drawn:
        if c in left:
            left.remove(c)
            out.append(card_text(c))
    return out


def hand_points(hand: tuple[int, ...]) -> list[int]:
    """The points of each card of a hand, in its order."""
    return [POINTS[c] for c in hand]


def hands_left(state: State) -> list[list[str]] | None:
    """Every seat's cards at the end of the hand (None while it is played)."""
    if not state.is_over:
        return None
    return [[card_text(c) for c in state.hand_cards(s)] for s in range(state.players)]
