"""Shared by Canastone's tests: the preset and :func:`start`, a deal with the upcard and the
cards put under it (seed 000_1cc8abd4e271b725.txt: "A questa carta vengono sottoposte ... altre
carte prelevate dal tallone")."""

from __future__ import annotations

from deck_helpers import deal

from canasta import State, load_preset

RULES = load_preset("canastone")
UNDER4 = "5s 5h 6s 6h"  # the four cards put under a 4 turned up


def start(hands: dict[int, str], draws: str = "", *, upcard: str = "4c",
          under: str = UNDER4, scores: list[int] | None = None,
          options: dict[str, str] | None = None, players: int = 4) -> State:
    """Deal with ``upcard`` turned (a 4: four cards under it) and ``draws`` next in the
    stock."""
    rules = load_preset("canastone", options) if options else RULES
    return deal(rules, hands, f"{upcard} {under} {draws}", scores=scores, players=players)
