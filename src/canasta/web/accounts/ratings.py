"""What a rated match does to its players' ratings (pure functions; the service feeds them).

* **Per variant**: each account has one Glicko-2 rating per variant
  (:mod:`canasta.web.accounts.glicko`), new at 1500, RD 350; it is *provisional* while its RD
  is above :data:`PROVISIONAL_RD` (150: about five rated matches against anchors).
* **One match, one rating period**: a person's games are one per other team of the table,
  against that team as one opponent: its members' mean rating and the root mean square of
  their RDs. Bots are *anchors*: a bot's rating is fixed (``anchors.json``, from bot-vs-bot
  duplicate play, :mod:`canasta.web.accounts.anchors`) and never moves, so a person's first
  rating already says how they compare with the bots. A partner's strength is not taken out
  (a person with a strong partner is credited with the team's result).
* **Scores**: the team that won the match 1 against each other team; in a match of three
  or more teams, the others compare their totals (1, 0.5 for equal totals, 0).
* **Abandoning counts as a loss**: a person who abandons (the table's *Abandon*, a seat a
  bot plays for them when the match ends: away, or handed to a bot, or a seat nobody is
  connected to once the table has not moved for a day) scores 0 against every
  other team, and every other team scores 1 against the abandoner's team. A match
  abandoned before its end is settled at once with only those games; it plays on unrated.
* **Accounts at every human seat**: a rated match whose human seat has no account when it is
  settled is *void*: no rating moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from canasta.web.accounts.glicko import Rating, update

__all__ = ["PROVISIONAL_RD", "MatchFacts", "SeatFacts", "composite", "games", "outcome",
           "provisional"]

#: A rating whose RD is above this is provisional (a new one, 350, comes under it after
#: five matches against the anchors, won and lost by turns: 248, 210, 180, 162, 147).
PROVISIONAL_RD = 150.0


def provisional(rd: float) -> bool:
    """Whether a rating with deviation ``rd`` is still provisional."""
    return rd > PROVISIONAL_RD


@dataclass(frozen=True)
class SeatFacts:
    """A seat as settlement sees it: ``account`` (None: a bot, or a person without an
    account), ``human``, its bot ``level`` when a bot sits there, ``abandoned``."""

    human: bool
    account: str | None = None
    level: str = ""
    abandoned: bool = False


@dataclass(frozen=True)
class MatchFacts:
    """The match: its teams (seats), the winner (None: not over), the teams' totals."""

    teams: tuple[tuple[int, ...], ...]
    winner: int | None
    scores: tuple[int, ...]
    seats: tuple[SeatFacts, ...]

    @property
    def over(self) -> bool:
        return self.winner is not None


def composite(members: Sequence[Rating]) -> Rating:
    """A team as one opponent: the mean rating, the root mean square RD."""
    n = len(members)
    return Rating(sum(m.rating for m in members) / n,
                  math.sqrt(sum(m.rd * m.rd for m in members) / n))


def games(facts: MatchFacts, rating_of: dict[int, Rating]) -> dict[int, list[tuple[Rating,
                                                                                  float]]]:
    """Seat -> its games ``(opponent team as one rating, score)`` for every seat with an
    account; ``rating_of`` gives every seat's rating before the match (anchors for bots)."""
    team_of = {s: t for t, seats in enumerate(facts.teams) for s in seats}
    out: dict[int, list[tuple[Rating, float]]] = {}
    for seat, info in enumerate(facts.seats):
        if info.account is None:
            continue
        mine = team_of[seat]
        played: list[tuple[Rating, float]] = []
        for other, members in enumerate(facts.teams):
            if other == mine:
                continue
            opponent = composite([rating_of[m] for m in members])
            if info.abandoned:
                played.append((opponent, 0.0))
            elif any(facts.seats[m].abandoned for m in members):
                played.append((opponent, 1.0))
            elif facts.over:
                if facts.winner == mine:
                    score = 1.0
                elif facts.winner == other:
                    score = 0.0
                else:
                    a, b = facts.scores[mine], facts.scores[other]
                    score = 1.0 if a > b else 0.5 if a == b else 0.0
                played.append((opponent, score))
        if played:
            out[seat] = played
    return out


def outcome(played: Sequence[tuple[Rating, float]]) -> str:
    """``"win"``, ``"loss"`` or ``"draw"`` of a seat's games (more won than lost: a win)."""
    total = sum(score - 0.5 for _, score in played)
    return "win" if total > 0 else "loss" if total < 0 else "draw"


def settle(facts: MatchFacts, people: dict[str, Rating], anchor: dict[int, Rating]
           ) -> tuple[str, str, dict[str, tuple[str, Rating, Rating]]]:
    """The settlement of a rated match: ``(status, reason, results)``.

    ``people``: the accounts' ratings on the variant (an account without one: new);
    ``anchor``: the fixed rating of each bot seat. ``results``: account -> (result, before,
    after). A human seat without an account makes the match ``void``.
    """
    missing = [i for i, s in enumerate(facts.seats) if s.human and s.account is None]
    if missing:
        return "void", "seat " + ", ".join(map(str, missing)) + \
            " played without an account", {}
    rating_of = {}
    for seat, info in enumerate(facts.seats):
        rating_of[seat] = people.get(info.account, Rating()) if info.account else anchor[seat]
    results: dict[str, tuple[str, Rating, Rating]] = {}
    for seat, played in games(facts, rating_of).items():
        account = facts.seats[seat].account
        assert account is not None
        before = rating_of[seat]
        results[account] = (outcome(played), before, update(before, played))
    quitters = [i for i, s in enumerate(facts.seats) if s.abandoned]
    reason = ("abandoned at seat " + ", ".join(map(str, quitters))) if quitters else \
        "match over"
    return "settled", reason, results
