"""A table's match, rebuilt from stored deck orders and actions, and the views sent to clients.

This is the web server's thin adapter over the engine. It uses the public API only:
:func:`canasta.formats.records.record_to_match` replays a table's stored hands (the same code that
reads game records), :meth:`canasta.core.state.State.view` gives what one seat may see, and the
JSON sent to a client is built from that :class:`~canasta.core.state.View` alone, so a client never
receives another hand, the stock order or the surprise cards.
"""

from __future__ import annotations

import random
from typing import Any

from canasta.core.actions import Action, action_to_json
from canasta.core.cards import NATURAL_RANKS, WILD_RANK, card_text, is_wild, make_deck, rank_text
from canasta.core.events import PUBLIC
from canasta.core.match import MAX_REDEALS, Match
from canasta.core.rules import Rules, load_preset
from canasta.core.state import MisdealError, Phase, State, View
from canasta.formats.eventjson import event_to_json
from canasta.formats.records import match_to_record, record_to_match
from canasta.i18n import describe_event
from canasta.i18n.events import Entry, event_entries
from canasta.web.glance import hand_points, hands_left, just_drawn, last_moves
from canasta.web.storage import HandData, TableData

_SYSRAND = random.SystemRandom()


def shuffled_deck(rules: Rules, players: int, team_size: int | None, dealer: int,
                  scores: list[int], rng: random.Random | None = None) -> list[str]:
    """A fresh deck order (card texts, top card first) that deals without a misdeal."""
    rng = rng or _SYSRAND
    for _ in range(MAX_REDEALS):
        deck = make_deck(rules.packs(players), rules.deal.jokers_per_pack)
        rng.shuffle(deck)
        try:
            State.deal(rules, players, deck=deck, dealer=dealer, scores=scores,
                       team_size=team_size)
        except MisdealError:
            continue
        return [card_text(c) for c in deck]
    raise MisdealError(f"{MAX_REDEALS} misdeals in a row [deal.redeal_after_wild_upcards]")


def record_of(data: TableData, names: list[str], hands: list[HandData] | None = None
              ) -> dict[str, Any]:
    """The game record (canasta.formats.records format) of the stored ``hands`` of a table."""
    return {
        "format": "canasta-record",
        "version": 1,
        "variant": data.variant,
        "options": dict(data.options),
        "players": data.players,
        "team_size": data.team_size,
        "names": names,
        "seed": None,
        "hands": [
            {"dealer": h.dealer, "deck": list(h.deck), "scores_before": list(h.scores_before),
             "actions": [[seat, text] for seat, text in h.actions], "end_reason": "",
             "sheets": []}
            for h in (data.hands if hands is None else hands)
        ],
    }


class Game:
    """The match played at one table.

    Build it with :meth:`from_data` (a replay of what is stored); then :meth:`apply` actions and
    :meth:`finish_hand` as the play goes on, and :meth:`from_data` again for a new hand.
    """

    def __init__(self, match: Match, names: list[str]) -> None:
        self.match = match
        self.names = names

    @classmethod
    def from_data(cls, data: TableData, names: list[str]) -> Game:
        """Replay the stored hands (the last one left where its actions stop).

        Raises:
            canasta.formats.records.RecordError: the stored actions do not replay.
        """
        return cls(record_to_match(record_of(data, names), f"table {data.id}"), names)

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def hand_number(self) -> int:
        return len(self.match.hands) - 1

    @property
    def dealer(self) -> int:
        return self.match.record.dealer

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to act (IllegalActionError leaves all unchanged)."""
        self.match.apply(action)

    def finish_hand(self) -> None:
        if self.state.is_over and not self.match.record.sheets:
            self.match.finish_hand()

    def next_hand(self) -> HandData:
        """The next hand's stored form: the next dealer, the scores and a fresh deck."""
        dealer = (self.dealer + 1) % self.match.players
        scores = list(self.match.scores)
        deck = shuffled_deck(self.rules, self.match.players, self.match.team_size, dealer,
                             scores)
        return HandData(self.hand_number + 1, dealer, deck, scores)

    def record(self) -> dict[str, Any]:
        """The game record of the finished hands only (never the deck of a hand in play)."""
        rec = match_to_record(self.match, self.names)
        done = len(self.match.hands) if self.match.record.sheets else len(self.match.hands) - 1
        rec["hands"] = rec["hands"][:done]
        return rec

    # -- what clients see ------------------------------------------------------------------
    def view_json(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator, who sees the public part only)."""
        state = self.state
        view = state.view(state.current if seat is None else seat)
        out = _public(view, self.rules)
        out["end_reason"] = state.end_reason
        out["went_out"] = state.went_out
        out["log_entries"] = self.log_entries(view, seat)
        out["last_moves"] = last_moves(view.events, state.players, state.team_of)
        out["hands_left"] = hands_left(state)
        if seat is not None:
            out["hand"] = [card_text(c) for c in view.hand]
            out["hand_points"] = hand_points(view.hand)
            out["drawn"] = just_drawn(view.events, seat, view.hand)
            out["legal"] = [_action_json(a) for a in view.legal_actions]
            out["go_out"] = None
            if view.legal_actions and view.phase is Phase.PLAY:
                plan = state.going_out_plan()
                if plan is not None:
                    out["go_out"] = [a.text() for a in plan]
        return out

    def log_entries(self, view: View, seat: int | None) -> list[Entry]:
        """The hand's log as ``seat`` may read it (None: an onlooker), as catalogue entries
        (canasta.i18n.events), from the view's events."""
        return [e for ev in view.events for e in event_entries(ev, seat)]

    def sheets_json(self) -> list[dict[str, Any]]:
        """Every finished hand's score sheets, in order; ``codes`` gives, per sheet, each
        item's code and values (the page's text for it comes from the catalogues)."""
        out = []
        for number, rec in enumerate(self.match.hands):
            if rec.sheets:
                out.append({"hand": number, "end_reason": rec.end_reason,
                            "sheets": [s.to_dict() for s in rec.sheets],
                            "codes": [[{"code": code, "values": dict(values)}
                                       for code, values in s.codes] for s in rec.sheets]})
        return out


def _action_json(action: Action) -> dict[str, Any]:
    out = action_to_json(action)
    out["text"] = action.text()
    return out


_RANK_ORDER = {rank: i for i, rank in enumerate((WILD_RANK, *NATURAL_RANKS, 3))}


def _melds_json(melds: dict[int, tuple[int, ...]], rules: Rules) -> list[dict[str, Any]]:
    size = rules.melds.canasta_size
    out = []
    for rank in sorted(melds, key=lambda r: _RANK_ORDER.get(r, 99)):
        cards = melds[rank]
        if not cards:
            continue
        wilds = sum(1 for c in cards if is_wild(c))
        kind = None
        if len(cards) >= size:
            kind = "wild" if rank == WILD_RANK else ("natural" if not wilds else "mixed")
        out.append({"rank": rank_text(rank), "cards": [card_text(c) for c in cards],
                    "count": len(cards), "wilds": wilds, "canasta": kind})
    return out


def _public(view: View, rules: Rules) -> dict[str, Any]:
    """The public part of a view: nothing here depends on the seat's own hand."""
    return {
        "phase": view.phase.value,
        "current": view.current,
        "actor": view.actor,
        "teams": [list(t) for t in view.teams],
        "hand_sizes": list(view.hand_sizes),
        "melds": [_melds_json(m, rules) for m in view.melds],
        "red_threes": [[card_text(c) for c in r] for r in view.red_threes],
        "pile_top": None if view.pile_top is None else card_text(view.pile_top),
        "pile_size": view.pile_size,
        "pile_frozen": view.pile_frozen,
        "stopped": view.stopped,
        "stock_size": view.stock_size,
        "scores": list(view.scores),
        "opened": list(view.opened),
        "opening_minimum": list(view.opening_minimum),
        "opening_points": view.opening_points,
        "log": [describe_event(e, PUBLIC) for e in view.events],
        "events": [event_to_json(e.public()) for e in view.events],
        "canasta_size": rules.melds.canasta_size,
    }


def rules_for(variant: str, options: dict[str, Any]) -> Rules:
    return load_preset(variant, options)
