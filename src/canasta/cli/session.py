"""A match between one person and bots, as the terminal front ends drive it (the plain line
mode of ``canasta play --plain`` and the full-screen table of :mod:`canasta.cli.tui`).

A :class:`Session` holds the match and answers a typed line with a :class:`Reply`: the move
was played (its event), or a message (a refusal in plain words, a hint, an undo, a list of
the moves the line could mean). Bots move one decision at a time (:meth:`Session.play_bot`),
so that a front end paces or steps them. Every move goes through the engine; the session
decides no rule. The one house rule it adds, ``undo`` of the person's own melds and lay-offs
of the current turn before the discard, is off unless asked for (``allow_undo``), and it only
rewinds to a copy of the state taken after the person's own draw: no card the person has not
seen comes back into view.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import canasta.cli.moves as moves
from canasta.bots import DEFAULT_BUDGET, Bot, make_bot
from canasta.cli.render import symbol_text, team_names
from canasta.core.actions import Action, Draw
from canasta.core.cards import card_text, sort_key
from canasta.core.events import Drew, Event, RedThreesLaidOut, TookPile
from canasta.core.match import Match
from canasta.core.state import IllegalActionError, Phase, State, View
from canasta.core.undo import TurnMark
from canasta.formats.records import save_record
from canasta.i18n import describe_event, t, variant_name
from canasta.i18n.refusals import SEED_LANGUAGE, literal_text, refusal_parts

__all__ = ["Reply", "Session", "decision_seed", "split_record_name"]


def decision_seed(seed: int, seat: int, hand: int, action: int) -> int:
    """The seed of a bot's decision at action number ``action`` of hand ``hand`` (from 1)."""
    return ((seed * 31 + seat) * 1009 + hand) * 100_003 + action


@dataclass
class Reply:
    """The answer to a typed line.

    Attributes:
        kind: ``played`` (``event`` holds what happened), ``refused`` (the engine said no;
            ``lines`` says why in plain words), ``error`` (the line names no move),
            ``choices`` (it could mean several: ``choices``), ``info`` (hint, undo, why).
        lines: text for the person, in the session's language.
        event: the event of the move played.
        choices: the legal actions an ambiguous line could mean.
    """

    kind: str
    lines: list[str] = field(default_factory=list)
    event: Event | None = None
    choices: tuple[Action, ...] = ()


#: The commands a line may name besides a move, each also in the person's language.
COMMANDS = ("help", "hint", "why", "pile", "log", "quit", "table", "sort", "undo")

_KIND_RE = re.compile(r"^(.*) \(([^()]+)\)$")


def split_record_name(raw: str) -> tuple[str, str]:
    """``West (greedy)`` -> ``("West", "greedy")``; a name without a bot -> ``(name, "")``."""
    m = _KIND_RE.match(raw)
    return (m.group(1), m.group(2)) if m else (raw, "")


class Session:
    """One person (seat ``human``) and bots playing ``match``.

    Args:
        match: the match; its current hand is ``match.state``.
        names: display name per seat.
        kinds: bot spec per seat (``""`` for the person), for :func:`canasta.bots.make_bot`
            and the record.
        human: the person's seat.
        lang: language of every text (a catalogue of :mod:`canasta.i18n`).
        save: the record file rewritten after every move, or None.
        allow_undo: the casual house rule ``undo`` (off by default).
        hand_offset: hands played before the first hand of ``match`` (a game started from a
            position of a later hand), for the hand number shown.
        auto_draw: draw from the stock for the person when that is the only way to start the
            turn (:meth:`auto_draw_now`).
    """

    def __init__(self, match: Match, names: list[str], kinds: list[str], *, human: int = 0,
                 lang: str = "en", save: Path | None = None, allow_undo: bool = False,
                 hand_offset: int = 0, auto_draw: bool = False) -> None:
        self.match = match
        self.names = names
        self.kinds = kinds
        self.human = human
        self.lang = lang
        self.save = save
        self.allow_undo = allow_undo
        self.hand_offset = hand_offset
        self.auto_draw = auto_draw
        #: Write each finished match to the local profile (``canasta stats``).
        self.profile = False
        self.bots: dict[int, Bot] = {s: make_bot(k) for s, k in enumerate(kinds)
                                     if s != human and k}
        #: Cards that came into the person's hand this turn (shown marked).
        self.gained: tuple[int, ...] = ()
        self.last_refusal: IllegalActionError | None = None
        #: Why the last line named no move ("you hold no more 4"), for ``why``.
        self.last_error = ""
        #: Seconds of search per hint (canasta.bots.suggest).
        self.hint_budget = DEFAULT_BUDGET
        self._mark: TurnMark | None = None
        if allow_undo and self.human_to_act():
            # a game resumed mid-turn: the person may still take back this turn's melds
            self._mark = TurnMark.recover(self.match)
        #: Cards in lines of words with their suits' symbols ("7♥", the full-screen table),
        #: or as typed ("7h", the line-by-line play that scripts read).
        self.symbols = False

    # -- what the front ends show --------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.match.state

    @property
    def view(self) -> View:
        return self.state.view(self.human)

    @property
    def team_names(self) -> list[str]:
        return team_names(self.match.teams, self.names)

    def describe(self, event: Event) -> str:
        """``event`` in words as the player reads it, the verb agreeing with each side, the
        cards as :attr:`symbols` says."""
        return describe_event(event, self.human, self.lang, self.names, self.team_names,
                              self.match.teams, symbol_text if self.symbols else None)

    def cards_text(self, cards: list[int] | tuple[int, ...]) -> str:
        """Cards in a line of words, as :attr:`symbols` says ("7♥ 7♦" or "7h 7d")."""
        texts = [card_text(c) for c in cards]
        return " ".join(symbol_text(c) if self.symbols else c for c in texts)

    def sheet_players(self, team: int) -> list[str]:
        """The names of ``team``'s players in seat order: the score sheet's "player N" is
        the N-th of them (the player who went out keeps a number but has no row)."""
        return [self.names[p] for p in self.match.teams[team]]

    def hand_end_text(self) -> str:
        """How the hand ended, in the player's words: "Hand 2 ends: went out (East)."."""
        state = self.state
        if state.went_out is not None:
            reason = t("play.result.went_out_concealed" if state.concealed
                       else "play.result.went_out", self.lang, name=self.names[state.went_out])
        else:
            reason = t(f"play.result.{state.end_reason}", self.lang)
        return t("play.tui.hand_ends", self.lang, n=self.hand_number, reason=reason)

    def match_over_text(self) -> str:
        """Who won the match, the verb agreeing with the side ("Your side wins", "West &
        East win"); "" while the match goes on."""
        team = self.match.winner
        if team is None:
            return ""
        seats = self.match.teams[team]
        key = ("ui.match_over.yours" if self.human in seats
               else "ui.match_over.plural" if len(seats) > 1 else "ui.match_over")
        return t(key, self.lang, team=self.team_names[team])

    @property
    def hand_number(self) -> int:
        return self.hand_offset + len(self.match.hands)

    def record_names(self) -> list[str]:
        """Names as stored in the record: a bot seat carries its spec, ``West (greedy)``."""
        return [f"{name} ({kind})" if kind else name
                for name, kind in zip(self.names, self.kinds, strict=False)]

    def autosave(self) -> None:
        if self.save is not None:
            save_record(self.match, self.save, self.record_names())

    def bot_to_act(self) -> bool:
        return not self.state.is_over and self.state.actor != self.human

    def human_to_act(self) -> bool:
        return not self.state.is_over and self.state.actor == self.human

    def auto_draw_now(self) -> Reply | None:
        """With ``auto_draw``, when the person's turn can start only by drawing from the
        stock (the pile cannot be taken, the hand cannot be ended), draw; the reply of the
        draw, or None when there is a choice (or the option is off)."""
        if not (self.auto_draw and self.human_to_act()):
            return None
        view = self.view
        if view.phase is not Phase.DRAW or list(view.legal_actions) != [Draw()]:
            return None
        return self.play(Draw())

    # -- bots ----------------------------------------------------------------------------------
    def bot_for(self, seat: int) -> Bot:
        """The bot to decide now. In a seeded match each decision gets a bot seeded from the
        place in the match, so a resumed game goes on exactly as the uninterrupted one."""
        seed = self.match.seed
        if seed is None:
            return self.bots[seat]
        place = decision_seed(seed, seat, len(self.match.hands), len(self.match.record.played))
        return make_bot(self.kinds[seat], place)

    def decide_bot(self) -> tuple[Action, str | None]:
        """The decision of the bot to act, without playing it (a front end may think in
        another thread): the action and, if the bot failed, why (it then plays its first
        legal action: a bot's bug must not end the person's game)."""
        seat = self.state.actor
        view = self.state.view(seat)
        try:
            action = self.bot_for(seat).choose(view)
            if action not in view.legal_actions:
                raise ValueError(f"{action.text()} is not legal")
            return action, None
        except Exception as exc:
            return view.legal_actions[0], (f"{self.names[seat]}'s bot failed ({exc}); it "
                                           f"played {view.legal_actions[0].text()}")

    def apply_bot(self, action: Action) -> Event:
        """Play a bot's decision (from :meth:`decide_bot`) and save."""
        event = self.match.apply(action)
        self.autosave()
        return event

    def play_bot(self) -> tuple[Event, str | None]:
        """One bot decision, played; its event and the bot's failure, if any."""
        action, failure = self.decide_bot()
        return self.apply_bot(action), failure

    # -- the person's lines --------------------------------------------------------------------
    def action_of_line(self, line: str) -> Action | Reply:
        """The action a typed line names (a number of the legal list, a short or full form),
        or the :class:`Reply` saying why it names none."""
        view = self.view
        legal = view.legal_actions
        low = line.strip().lower()
        if re.fullmatch(r"\d+", low):
            n = int(low)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            return Reply("error", [t("plain.no_move_number", self.lang, n=n,
                                     count=len(legal))])
        try:
            return moves.resolve(line, view)
        except moves.MoveError as exc:
            said = t(exc.key, self.lang, **exc.values) if exc.key else str(exc)
            if exc.choices:
                return Reply("choices", [f"{said}:"] + [moves.short_text(a)
                                                       for a in exc.choices],
                             choices=exc.choices)
            return Reply("error", [t("plain.cannot_read", self.lang, message=said)])

    def command(self, line: str) -> str:
        """The line in lower case, a command typed in the person's language (``ajuda``,
        ``dica``: catalogue keys ``play.cmd.*``) given as its English word (``help``,
        ``hint``), which is always read too."""
        low = line.strip().lower()
        for cmd in COMMANDS:
            words = t(f"play.cmd.{cmd}", self.lang).lower().split(",")
            if low in (w.strip() for w in words if w.strip()):
                return cmd
        return low

    def submit(self, line: str) -> Reply:
        """Play the move a typed line names, or answer a command (``hint``, ``undo``,
        ``why``). The state is unchanged unless the reply is ``played`` or an undo."""
        low = self.command(line)
        if low in ("hint", "hints"):
            return self.hint()
        if low in ("undo", "u"):
            return self.undo()
        if low == "why":
            return self.why()
        found = self.action_of_line(line)
        if isinstance(found, Reply):
            if found.kind == "error":  # `why` must not explain an older refusal
                self.last_refusal = None
                self.last_error = found.lines[0]
            return found
        self.last_error = ""
        return self.play(found)

    def play(self, action: Action) -> Reply:
        """Apply the person's action; a refusal is told in plain words (``why`` tells the
        seed's own sentence)."""
        before = self.state
        try:
            event = self.match.apply(action)
        except IllegalActionError as exc:
            self.last_refusal = exc
            parts = refusal_parts(exc, self.match.rules, before)
            reason = t(parts["key"], self.lang, **parts["values"])
            return Reply("refused", [t("refusal.not_allowed", self.lang, reason=reason),
                                     t("play.refused_hint", self.lang)])
        self.last_refusal = None
        lines: list[str] = []
        if isinstance(event, (Drew, TookPile)):
            self.gained = tuple(self._gains(event))
            if isinstance(event, TookPile) and self.gained:
                lines.append(t("play.you_took", self.lang, cards=self.cards_text(self.gained)))
            self._mark = TurnMark.after_draw(self.match, self.human)
        if self.state.actor != self.human or self.state.is_over:
            self.gained = ()
            self._mark = None
        self.autosave()
        return Reply("played", lines, event=event)

    def _gains(self, event: Drew | TookPile) -> list[int]:
        """The cards a draw or a pile take brought into the person's hand (red threes that
        went straight to the table left out)."""
        gained = list(event.drawn or ())
        if isinstance(event, TookPile) and not event.top_only and not self.state.pending_pile:
            gained += [*(event.pile or ()), *(event.surprise or ())]
        hand = list(self.state.hand_cards(self.human))
        out = []
        for c in gained:
            if c in hand:
                hand.remove(c)
                out.append(c)
        for later in self.state.events:
            if isinstance(later, RedThreesLaidOut) and later.seat == self.human:
                for c in later.cards:
                    if c in out and c not in hand:
                        out.remove(c)
        return sorted(out, key=sort_key)

    # -- commands ------------------------------------------------------------------------------
    def undo(self) -> Reply:
        """Take back the person's melds and lay-offs of this turn (house rule ``undo``)."""
        if not self.allow_undo:
            return Reply("info", [t("play.undo.off", self.lang)])
        mark = self._mark
        since = mark.undo(self.match) if mark is not None and self.human_to_act() else []
        if not since:
            return Reply("info", [t("play.undo.nothing", self.lang)])
        self.autosave()
        taken = ", ".join(moves.short_text(action) for _, action in since)
        return Reply("info", [t("play.undo.done", self.lang, moves=taken)])

    def why(self) -> Reply:
        """The seed's own sentence for the last refusal, labelled in the person's language
        (which variant's text, its seed number and the language it is written in); for a rule
        no seed sentence covers, the rule in words. Never an internal rule id."""
        exc = self.last_refusal
        if exc is None:
            if self.last_error:
                return Reply("info", [t("play.why.not_a_move", self.lang,
                                        message=self.last_error)])
            return Reply("info", [t("play.why.none", self.lang)])
        parts = refusal_parts(exc, self.match.rules)
        reason = t(parts["key"], self.lang, **parts["values"])
        if not parts["quote"]:
            return Reply("info", [t("play.why.no_quote", self.lang, reason=reason,
                                    variant=variant_name(self.match.rules.name, self.lang))])
        seed = parts["seed"]
        language = t(f"language.{SEED_LANGUAGE.get(seed, 'it')}", self.lang)
        if parts["inherited"]:
            label = t("play.why.quote_inherited", self.lang, seed=seed, language=language,
                      parent=variant_name(parts["inherited"], self.lang), quote=parts["quote"],
                      variant=variant_name(self.match.rules.name, self.lang))
        else:
            label = t("play.why.quote", self.lang, seed=seed, language=language,
                      quote=parts["quote"],
                      variant=variant_name(self.match.rules.name, self.lang))
        literal = literal_text(parts, self.lang)
        if literal:  # the seed's sentence word for word, in English
            label += " " + literal
        return Reply("info", [t("play.why", self.lang, quote=label),
                              t("play.why.reason", self.lang, reason=reason)])

    def hint(self, n: int = 3) -> Reply:
        """Up to ``n`` suggested moves from :func:`canasta.bots.suggest`, best first, each
        with its estimated value (points for the person's side) and reasons."""
        if not self.human_to_act():
            return Reply("info", [t("play.hint.none", self.lang)])
        from canasta.bots import suggest  # looked up when asked: tests put their own

        found: list[Any] = list(suggest(self.view, n=n, budget=self.hint_budget))
        if not found:
            return Reply("info", [t("play.hint.none", self.lang)])
        lines = []
        for i, s in enumerate(found, 1):
            only = any(r.key == "only_move" for r in getattr(s, "reasons", ()))
            line = (t("play.hint.only", self.lang, n=i, move=moves.short_text(s.action))
                    if only else
                    t("play.hint.line", self.lang, n=i, move=moves.short_text(s.action),
                      value=f"{s.value:+.0f}"))
            # What the move does; the search's own figures ("estimate") stay out of the way.
            reasons = [t(f"hint.reason.{r.key}", self.lang, **dict(r.params))
                       for r in getattr(s, "reasons", ())
                       if r.key not in ("estimate", "only_move")][:2]
            lines.append(line + (" — " + " ".join(reasons) if reasons else ""))
        return Reply("info", lines, choices=tuple(s.action for s in found))

    # -- hands ---------------------------------------------------------------------------------
    def finish_hand(self) -> None:
        if not self.match.record.sheets:
            self.match.finish_hand()
            self.autosave()

    def record_profile(self) -> str:
        """With :attr:`profile`, once the match is won: add it to the local profile
        (:mod:`canasta.cli.profile`); what to tell the person ("" when nothing is written)."""
        if not self.profile or self.match.winner is None:
            return ""
        import canasta.cli.profile as profile

        try:
            where = profile.record(profile.entry_of(self.match, self.kinds, self.human))
        except OSError as exc:
            return t("stats.not_written", self.lang, reason=exc.strerror or str(exc))
        self.profile = False  # once per match
        return t("stats.written", self.lang, path=where)

    def next_hand(self) -> None:
        self.match.next_hand()
        self.gained = ()
        self._mark = None
        self.autosave()
