"""The table as text for ``render_mode="ansi"``: a spectator's picture of the whole state.

Unlike an observation this shows every hand (it is for a person watching, not for an agent).
The words come from the message catalogues (``env.render.*``); cards in their usual text.
"""

from __future__ import annotations

from canasta.core.cards import cards_text
from canasta.core.meldkey import is_run_key
from canasta.core.state import State
from canasta.i18n import t, variant_name


def render_text(state: State, lang: str = "en") -> str:
    """A few lines: the turn, the stock and pile, each team's melds, red threes and match
    score, and every hand (the seat to act marked ``>``)."""
    s = state
    lines = [t("env.render.header", lang, variant=variant_name(s.rules.name, lang),
               players=s.players, turn=max(s.turn, 0), seat=s.actor,
               phase=t(f"env.render.phase.{s.phase.value}", lang))]
    top = cards_text(s.pile[-1:]) if s.pile else "-"
    frozen = t("env.render.frozen", lang) if s.frozen_for(s.team_of[s.actor]) else ""
    lines.append(t("env.render.table", lang, stock=len(s.stock), pile=len(s.pile), top=top,
                   frozen=frozen).rstrip())
    size = s.rules.melds.canasta_size
    for team, seats in enumerate(s.teams):
        melds = []
        for key in sorted(s.melds[team], key=lambda k: (is_run_key(k), k)):
            cards = s.melds[team][key]
            mark = "*" if len(cards) >= size else ""
            melds.append(f"[{cards_text(cards)}]{mark}")
        lines.append(t("env.render.team", lang, team=team,
                       seats=", ".join(str(x) for x in seats), score=s.scores[team],
                       melds=" ".join(melds) or "-",
                       red_threes=cards_text(s.red_threes[team]) or "-"))
    for seat in range(s.players):
        mark = ">" if seat == s.actor and not s.is_over else " "
        lines.append(f"{mark} " + t("env.render.seat", lang, seat=seat,
                                    n=s.hand_size[seat], cards=cards_text(s.hand_cards(seat))))
    if s.is_over:
        lines.append(t(f"env.render.over.{s.end_reason}", lang, seat=s.went_out))
    return "\n".join(lines) + "\n"
