"""A match against bots as JSON in and JSON out: what the offline page (Pyodide) calls.

The page holds no rules: it shows :meth:`LocalTable.snapshot` and sends back the text of a
move the snapshot listed (``"meld 9s 9d JK"``, the canonical action text of
:mod:`canasta.core.actions`). Bots play their seats one move per :meth:`LocalTable.step`, so
the page can pace them and stay responsive. Seat 0 is the person; every other seat is a bot
of the chosen level (a partner on 4 and 6 players). The match is the engine's
:class:`~canasta.core.match.Match` (deals, dealer rotation, scores, the winner); a refused
move is answered with the refusal in the page's language (the seed's own sentence,
:func:`canasta.i18n.refusals.refusal_text`) and changes nothing.

Everything a snapshot holds comes from ``state.view(0)``: the person sees exactly what a seat
at a server table sees, never another hand or the stock's order.
"""

from __future__ import annotations

import json
import random
from typing import Any

from canasta.bots import make_bot
from canasta.core.actions import (
    Action,
    ActionParseError,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
    parse_action,
)
from canasta.core.cards import NATURAL_RANKS, WILD_RANK, card_text, rank_text
from canasta.core.match import Match
from canasta.core.rules import PRESETS, RulesError, load_preset
from canasta.core.state import IllegalActionError
from canasta.i18n.catalogue import languages, resolve_lang, score_item_text, t, variant_name
from canasta.i18n.events import describe_event
from canasta.i18n.refusals import refusal_text

__all__ = ["LEVELS", "LocalTable", "OfflineError", "variants"]

#: The bot levels the offline table offers: those that need nothing beyond the standard
#: library and answer in milliseconds in the page (the expert's search would take seconds).
LEVELS = ("easy", "medium", "hard")

#: How many log lines a snapshot carries (the newest last).
LOG_LINES = 40

#: The most moves the person may make in one turn (melds, lay-offs and retracts can
#: otherwise go round for ever); the same cap as a server table's.
MAX_TURN_ACTIONS = 100

#: Melds in the order the server's table shows them: wild cards, ace down to four, threes.
_RANK_ORDER = {rank: i for i, rank in enumerate((WILD_RANK, *NATURAL_RANKS, 3))}


class OfflineError(ValueError):
    """A request the offline table cannot take: an unknown variant, level, player count or
    language, or a move asked for at the wrong moment. The message says which."""


def _cards(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]


def variants(lang: str = "en") -> list[dict[str, Any]]:
    """The presets the offline table deals: ``[{"name", "label" (in ``lang``), "players"
    (the counts the preset allows)}]``, in the order of ``PRESETS``."""
    return [{"name": name, "label": variant_name(name, lang),
             "players": list(load_preset(name).deal.player_counts)} for name in PRESETS]


class LocalTable:
    """One person (seat 0) against bots, a whole match.

    Args:
        variant: a preset name (``canasta.core.rules.PRESETS``).
        players: 2 to 6, as the preset allows.
        level: the bots' level, one of :data:`LEVELS`.
        seed: the match's seed (None: a random one); the same seed deals the same match.
        lang: the language of every text in a snapshot (``en``, ``it``, ``ro``, ``pt``).

    Raises:
        OfflineError: an unknown variant, level or language, or a player count the preset
            does not allow (the message names it and what is allowed).
    """

    def __init__(self, variant: str = "international", players: int = 4, level: str = "medium",
                 seed: int | None = None, lang: str = "en") -> None:
        if variant not in PRESETS:
            raise OfflineError(f"unknown variant {variant!r}: one of {', '.join(PRESETS)}")
        if level not in LEVELS:
            raise OfflineError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
        if lang not in languages():
            raise OfflineError(f"unknown language {lang!r}: one of {', '.join(languages())}")
        self.variant = variant
        self.lang = resolve_lang(lang)
        self.seed = seed if seed is not None else random.randrange(2**31)
        try:
            self.match = Match(load_preset(variant), players, seed=self.seed)
        except (RulesError, ValueError) as exc:
            raise OfflineError(str(exc)) from None
        self.level = level
        self.bots = {s: make_bot(f"{level}:seed={self.seed + s}") for s in range(1, players)}
        self.names = [t("ui.you_default", self.lang)] + [
            t("ui.player_n", self.lang, n=s + 1) for s in range(1, players)]

    def set_lang(self, lang: str) -> None:
        """Write every later snapshot in ``lang``.

        Raises:
            OfflineError: an unknown language.
        """
        if lang not in languages():
            raise OfflineError(f"unknown language {lang!r}: one of {', '.join(languages())}")
        self.lang = lang
        self.names = [t("ui.you_default", lang)] + [
            t("ui.player_n", lang, n=s + 1) for s in range(1, self.match.players)]

    # -- moves ------------------------------------------------------------------------------
    def play(self, text: str) -> dict[str, Any]:
        """Play the person's move ``text`` (a move the snapshot listed, or any action text).

        Returns the new snapshot; a refused or malformed move returns the unchanged snapshot
        with ``error`` set to the refusal in the table's language (nothing is applied).

        Raises:
            OfflineError: it is not the person's turn, or the hand is over.
        """
        state = self.match.state
        if state.is_over:
            raise OfflineError("the hand is over: deal the next hand first")
        if state.actor != 0:
            raise OfflineError(f"it is not your turn: seat {state.actor} is to act")
        if self._turn_actions() >= MAX_TURN_ACTIONS:
            return self.snapshot(error=t("ui.err_not_allowed", self.lang))
        try:
            action = parse_action(text)
            state.apply(action)
        except ActionParseError as exc:
            return self.snapshot(error=t("ui.err_illegal", self.lang, msg=str(exc)))
        except IllegalActionError as exc:
            return self.snapshot(error=refusal_text(exc, self.match.rules, self.lang))
        self._after_move()
        return self.snapshot()

    def _turn_actions(self) -> int:
        count = 0
        for seat, _action in reversed(self.match.record.played):
            if seat != 0:
                break
            count += 1
        return count

    def step(self) -> dict[str, Any]:
        """One bot move, when a bot is to act; else the snapshot as it is."""
        state = self.match.state
        if not state.is_over and state.actor != 0:
            seat = state.actor
            state.apply(self.bots[seat].choose(state.view(seat)))
            self._after_move()
        return self.snapshot()

    def _after_move(self) -> None:
        if self.match.state.is_over and not self.match.record.sheets:
            self.match.finish_hand()

    def next_hand(self) -> dict[str, Any]:
        """Deal the next hand of the match.

        Raises:
            OfflineError: the hand is not over, or the match is.
        """
        if not self.match.state.is_over:
            raise OfflineError("the hand is not over")
        if self.match.is_over:
            raise OfflineError("the match is over: start a new one")
        self.match.next_hand()
        return self.snapshot()

    # -- what the page shows ----------------------------------------------------------------
    def snapshot(self, error: str = "") -> dict[str, Any]:
        """What seat 0 may see, as JSON-ready data.

        Keys: ``variant`` (name), ``players``, ``names``, ``teams`` (seats per side),
        ``hand_number``, ``actor`` (the seat to act, None after the hand), ``your_turn``,
        ``phase``, ``hand`` (card texts), ``hand_sizes``, ``melds`` (per side: rank, cards,
        canasta), ``red_threes``, ``pile_top``, ``pile_size``, ``pile_frozen``,
        ``stock_size``, ``scores``, ``moves`` (the person's legal moves: ``text`` to send
        back, ``kind``, ``label``, ``cards``), ``log`` (the newest lines in words),
        ``hand_over`` with ``sheets`` (per side: items and totals), ``match_over``,
        ``winner``, ``error``.
        """
        state = self.match.state
        view = state.view(0)
        lang = self.lang
        over = state.is_over
        melds = []
        for side in view.melds:
            rows = []
            for rank in sorted(side, key=lambda r: _RANK_ORDER.get(r, 99)):
                cards = side[rank]
                if cards:
                    rows.append({"rank": rank_text(rank), "cards": _cards(cards),
                                 "canasta": len(cards) >= self.match.rules.melds.canasta_size})
            melds.append(rows)
        teams = [list(team) for team in view.teams]
        log = [line for ev in view.events
               if (line := describe_event(ev, 0, lang, self.names))][-LOG_LINES:]
        out: dict[str, Any] = {
            "variant": variant_name(self.variant, lang),
            "players": self.match.players,
            "level": self.level,
            "seed": self.seed,
            "names": self.names,
            "teams": teams,
            "hand_number": len(self.match.hands),
            "actor": None if over else view.actor,
            "your_turn": not over and view.actor == 0,
            "phase": view.phase.value,
            "hand": _cards(view.hand),
            "hand_sizes": list(view.hand_sizes),
            "melds": melds,
            "red_threes": [_cards(r) for r in view.red_threes],
            "pile_top": None if view.pile_top is None else card_text(view.pile_top),
            "pile_size": view.pile_size,
            "pile_frozen": view.pile_frozen,
            "stock_size": view.stock_size,
            "scores": list(self.match.scores if over else view.scores),
            "moves": [] if over or view.actor != 0 else
            [self._move(a) for a in view.legal_actions],
            "log": log,
            "hand_over": over,
            "sheets": self._sheets() if over else [],
            "match_over": self.match.is_over,
            "winner": self.match.winner,
            "error": error,
        }
        return out

    def _move(self, action: Action) -> dict[str, Any]:
        lang = self.lang
        kind = type(action).__name__
        cards: list[str] = []
        if isinstance(action, Draw):
            label = t("ui.move_draw", lang)
        elif isinstance(action, TakePile):
            cards = _cards(action.cards)
            label = (t("ui.move_take_pile", lang, cards=" ".join(cards)) if cards
                     else t("ui.take_pile", lang))
        elif isinstance(action, Meld):
            cards = _cards(action.cards)
            label = t("ui.move_meld", lang, cards=" ".join(cards))
        elif isinstance(action, LayOff):
            cards = _cards(action.cards)
            label = t("ui.move_lay_off", lang, cards=" ".join(cards),
                      rank=rank_text(action.rank))
        elif isinstance(action, Discard):
            cards = [card_text(action.card)]
            label = t("ui.move_discard", lang, card=cards[0])
        elif isinstance(action, AskPartner):
            label = t("ui.ask_partner", lang)
        elif isinstance(action, Answer):
            label = t("ui.answer_yes" if action.yes else "ui.answer_no", lang)
        elif isinstance(action, Retract):
            label = t("ui.retract", lang)
        elif isinstance(action, EndHand):
            label = t("ui.end_hand", lang)
        else:  # pragma: no cover - every action class is named above
            label = action.text()
        return {"text": action.text(), "kind": kind, "label": label, "cards": cards}

    def _sheets(self) -> list[dict[str, Any]]:
        sheets = self.match.record.sheets or []
        out = []
        for sheet in sheets:
            seats = self.match.teams[sheet.team]
            items = []
            for (code, values), (_label, pts) in zip(sheet.codes, sheet.items, strict=True):
                # "player N" of a cards-in-hand row is the side's N-th seat: write its name
                player = values.get("player")
                name = self.names[seats[player - 1]] if isinstance(player, int) and \
                    0 < player <= len(seats) else None
                items.append({"text": score_item_text(str(code), values, self.lang, name),
                              "points": pts})
            out.append({"team": sheet.team, "items": items, "hand_total": sheet.hand_total,
                        "score_after": sheet.score_after})
        return out

    def snapshot_json(self, error: str = "") -> str:
        """:meth:`snapshot` as a JSON string (what crosses from Python to the page)."""
        return json.dumps(self.snapshot(error), ensure_ascii=False)
