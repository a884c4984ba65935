"""A table's match (a :class:`canasta.core.match.Match`, which deals, rotates the dealer and
scores), taken up from storage, and the views sent to clients.

This is the web server's thin adapter over the engine, through its public API:
:meth:`Match.resume <canasta.core.match.Match.resume>` takes a stored table up from its
current hand (the finished hands are not replayed), :meth:`Match.next_hand` deals, and
:meth:`canasta.core.state.State.view` gives what one seat may see. The JSON sent to a client
is built from that :class:`~canasta.core.state.View` alone, so a client never receives another
hand, the stock order or the surprise cards.

What every message repeats (the hand's public events, its log, the score sheets) is built
once per event or per hand and kept: a message after the hundredth action of a hand costs
what one after the first does, apart from copying the lists.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from canasta.core.actions import Action, action_to_json, parse_action
from canasta.core.cards import NATURAL_RANKS, WILD_RANK, card_text, is_wild, parse_card, rank_text
from canasta.core.dealproof import DealProof, deck_from_seed
from canasta.core.events import PUBLIC, Event
from canasta.core.match import HandRecord, Match
from canasta.core.melds import classify_meld
from canasta.core.rules import Rules
from canasta.core.scoring import ScoreSheet
from canasta.core.state import IllegalActionError, Phase, State, View
from canasta.formats.eventjson import event_to_json
from canasta.formats.jsondoc import Reader, rules_to_json
from canasta.formats.records import FORMAT, VERSION, RecordError
from canasta.i18n import describe_event
from canasta.i18n.events import Entry, event_entries, stand_in_entry, took_back_entry
from canasta.web.play.connections import JSONList
from canasta.web.play.glance import hand_points, hands_left, just_drawn, last_moves
from canasta.web.storage.models import FinishedHand, HandData, TableData


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rules as a table stores them: ``{"options": the options as applied (the preset's
    named house rules with their values, then any field set), "rules": every field}``."""
    return {"options": dict(rules.options), "rules": rules_to_json(rules)}


def rules_of(data: TableData) -> Rules:
    """The rules of a stored table: its complete stored rules (a changed or removed preset
    file changes nothing, not even the names of its options), or for a table stored before
    they were, its preset and options.

    Raises:
        canasta.formats.records.RecordError: the stored rules do not read.
    """
    doc: dict[str, Any] = {"variant": data.variant, "options": dict(data.options)}
    if data.rules is not None and isinstance(data.rules.get("rules"), dict):
        doc["options"] = dict(data.rules.get("options") or {})
        doc["rules"] = data.rules["rules"]
    return Reader(f"table {data.id}", RecordError).rules(doc)


def sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """A score sheet as stored: ``ScoreSheet.to_dict()`` and its item ``codes``."""
    out: dict[str, Any] = sheet.to_dict()
    out["codes"] = [[code, dict(values)] for code, values in sheet.codes]
    return out


def sheet_from_json(data: dict[str, Any]) -> ScoreSheet:
    """The score sheet :func:`sheet_to_json` stored (codes may be missing: old tables)."""
    codes = tuple((str(c), dict(v)) for c, v in data.get("codes", []))
    return ScoreSheet(int(data["team"]),
                      tuple((str(i["label"]), int(i["points"])) for i in data["items"]),
                      int(data["hand_total"]), int(data["score_before"]), codes)


def hand_record_of(hand: HandData) -> HandRecord:
    return HandRecord(hand.dealer, tuple(parse_card(c) for c in hand.deck),
                      tuple(hand.scores_before), list(hand.actions),
                      [sheet_from_json(s) for s in hand.sheets or []], hand.end_reason)


def hand_data_of(number: int, rec: HandRecord, proof: DealProof | None = None) -> HandData:
    return HandData(number, rec.dealer, [card_text(c) for c in rec.deck],
                    list(rec.scores_before),
                    deal=None if proof is None else {"seed": proof.seed, "nonce": proof.nonce})


def deals_of(hands: Iterable[HandData]) -> dict[int, DealProof]:
    """The deal secrets stored with ``hands``, by hand number."""
    return {h.number: DealProof(str(h.deal["seed"]), str(h.deal["nonce"]))
            for h in hands if isinstance(h.deal, dict)
            and isinstance(h.deal.get("seed"), str) and isinstance(h.deal.get("nonce"), str)}


def revealed_deal(proof: DealProof) -> dict[str, str]:
    """A finished hand's deal as records and sheets carry it: the commitment published
    before the hand, and the seed and nonce revealed after it (canasta.core.dealproof)."""
    return {"commitment": proof.commitment, "seed": proof.seed, "nonce": proof.nonce}


def record_of(data: TableData, names: list[str], upto: int | None = None) -> dict[str, Any]:
    """The game record (canasta.formats.records) of a table's finished hands, up to hand
    ``upto``, from ``data`` loaded with every hand's actions (:meth:`Store.load`): nothing is
    replayed. The deck of a hand in play is never in it, nor the seed of the deals to come."""
    from canasta import __version__

    rules = rules_of(data)
    done = [h for h in data.hands if h.finished and h.sheets is not None
            and (upto is None or h.number <= upto)]
    deals = deals_of(done)
    scores = [int(s["score_after"]) for s in done[-1].sheets or []] if done else []
    winner = None
    if done and data.status == "over" and done[-1].number == data.hands[-1].number:
        winner = _winner(rules, data)
    return {
        "format": FORMAT, "version": VERSION, "engine": __version__,
        "variant": rules.name, "options": dict(rules.options), "rules": rules_to_json(rules),
        "players": data.players, "team_size": data.team_size, "names": names, "seed": None,
        "hands": [{"dealer": h.dealer, "deck": list(h.deck),
                   "scores_before": list(h.scores_before),
                   "actions": [[seat, text] for seat, text in h.actions],
                   "end_reason": h.end_reason,
                   "sheets": [{k: v for k, v in s.items() if k != "codes"}
                              for s in h.sheets or []],
                   **({"deal": revealed_deal(deals[h.number])} if h.number in deals else {}),
                   **({"stand_ins": list(h.stand_ins)} if h.stand_ins else {})}
                  for h in done],
        "scores": scores, "winner": winner,
    }


def _winner(rules: Rules, data: TableData) -> int | None:
    """The winner of a finished match: the last hand replayed to learn who went out."""
    last = data.hands[-1]
    match = Match.resume(rules, data.players, [hand_record_of(last)],
                         seed=0, team_size=data.team_size)
    return match.winner


class Game:
    """The match played at one table: the :class:`Match`, the players' names and what the
    messages of the current version share."""

    def __init__(self, match: Match, names: list[str],
                 deals: dict[int, DealProof] | None = None,
                 stand_in_hands: dict[int, set[int]] | None = None) -> None:
        self.match = match
        self.names = names
        #: the secrets each hand was shuffled from, by hand number (canasta.core.dealproof):
        #: the commitment of the hand in play is published, the secrets of finished hands
        #: revealed
        self.deals: dict[int, DealProof] = dict(deals or {})
        self._views: dict[int, View] = {}
        self._views_of: tuple[State | None, object] = (None, None)
        #: the going-out plan of the position the views are of (``_NO_PLAN``: not sought)
        self._plan: list[Action] | None | object = _NO_PLAN
        self._events: _EventCache = _EventCache()
        self._sheets: tuple[int, list[dict[str, Any]]] | None = None
        #: Undos of the hand in play, for the log: (events before it, seat, cards taken
        #: back). Kept by the process that played the undo, not stored.
        self.taken_back: list[tuple[int, int, tuple[int, ...]]] = []
        #: Seats a bot plays for their person now (set by the table), and the events of
        #: the hand in play that such a bot made: the logs say "Bot for Ann ...". Kept by
        #: the processes that saw the moves, not stored.
        self.stand_ins: frozenset[int] = frozenset()
        self.by_bot: set[int] = set()
        #: hand number -> the seats a bot played for their person in it (stored with the
        #: moves: the results and the record say which hands a bot played)
        self.stand_in_hands: dict[int, set[int]] = dict(stand_in_hands or {})

    @classmethod
    def new(cls, rules: Rules, players: int, team_size: int | None,
            names: list[str], proof: DealProof | None = None) -> Game:
        """A new match. Each hand is shuffled from secrets of its own
        (:class:`DealProof`; ``proof``: the first hand's, a tournament's deal shared by its
        tables, else fresh ones), committed to before the hand and revealed after it; the
        match's own seed (never used to deal here) never leaves the server."""
        proof = proof or DealProof.fresh()
        zeros = (0,) * len(rules.teams(players, team_size))
        deck = deck_from_seed(rules, players, proof.seed, dealer=0, scores=zeros,
                              team_size=team_size)
        match = Match.resume(rules, players, [HandRecord(0, deck, zeros)],
                             seed=secrets.randbits(62), team_size=team_size)
        return cls(match, names, {0: proof})

    @classmethod
    def from_data(cls, data: TableData, names: list[str]) -> Game:
        """Take a stored table up (:meth:`Match.resume`: its current hand replayed alone).

        Raises:
            canasta.formats.records.RecordError: the stored rules do not read.
            ValueError, IllegalActionError: the stored hands do not replay.
        """
        rules = rules_of(data)
        seed = data.seed if data.seed is not None else secrets.randbits(62)
        match = Match.resume(rules, data.players, [hand_record_of(h) for h in data.hands],
                             seed=seed, team_size=data.team_size)
        return cls(match, names, deals_of(data.hands),
                   {h.number: set(h.stand_ins) for h in data.hands if h.stand_ins})

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

    def apply(self, action: Action) -> Event:
        """Apply ``action`` for the seat to act (IllegalActionError leaves all unchanged);
        a hand it ends is scored."""
        state = self.state
        before, by_bot = len(state.events), state.actor in self.stand_ins
        seat, hand = state.actor, self.hand_number
        event = self.match.apply(action)
        if by_bot:
            self.by_bot.update(range(before, len(state.events)))
            self.stand_in_hands.setdefault(hand, set()).add(seat)
        if self.state.is_over:
            self.finish_hand()
        return event

    def note_taken_back(self, seat: int, events: int, actions: Sequence[tuple[int, Action]]
                        ) -> None:
        """Log an undo of ``seat`` (the match already rewound to ``events`` events): the
        cards of its melds and lay-offs ``actions`` (seat, action) went back to its hand."""
        cards = tuple(c for _seat, action in actions for c in getattr(action, "cards", ()))
        self.taken_back.append((events, seat, cards))
        self.by_bot = {i for i in self.by_bot if i < events}

    def finish_hand(self) -> None:
        if self.state.is_over and not self.match.record.sheets:
            self.match.finish_hand()

    def next_hand(self, proof: DealProof | None = None) -> HandData:
        """Deal the next hand (:meth:`Match.next_hand`: the next dealer, a shuffle from new
        secrets of its own, :class:`DealProof`, or from ``proof``, misdeals dealt again);
        returns its stored form."""
        match = self.match
        proof = proof or DealProof.fresh()
        deck = deck_from_seed(self.rules, match.players, proof.seed,
                              dealer=(match.dealer + 1) % match.players, scores=match.scores,
                              team_size=match.team_size)
        match.next_hand(deck)
        self.deals[self.hand_number] = proof
        self.taken_back = []
        self.by_bot = set()
        return self.stored_hand(self.hand_number)

    def stored_hand(self, number: int) -> HandData:
        """Hand ``number`` as it is stored when dealt (its deck, dealer, scores before and
        deal secrets)."""
        return hand_data_of(number, self.match.hands[number], self.deals.get(number))

    def deal_json(self) -> dict[str, Any] | None:
        """The commitment to the hand in play, ``{"hand", "commitment"}``, published
        before its first move (None for a hand dealt without one); its seed and nonce are
        revealed in the hand's sheet once it is over (:meth:`sheets_json`)."""
        proof = self.deals.get(self.hand_number)
        if proof is None:
            return None
        return {"hand": self.hand_number, "commitment": proof.commitment}

    def sheets_stored(self) -> list[dict[str, Any]]:
        """The sheets of the hand just finished, as stored."""
        return [sheet_to_json(s) for s in self.match.record.sheets]

    def view(self, seat: int) -> View:
        """``state.view(seat)``, built once per position (bots, hints and messages share
        it; a view is never changed)."""
        state = self.state
        # the state object itself is kept and compared (an undo puts back a copy; a new
        # hand deals a new one), with its history (each action makes a new event log)
        self._same_position()
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = state.view(seat)
        return view

    def _same_position(self) -> bool:
        """Whether the views kept are of the current position (else they are dropped)."""
        state = self.state
        seen, log = self._views_of
        if seen is not state or log is not state.event_log:
            self._views = {}
            self._views_of = (state, state.event_log)
            self._plan = _NO_PLAN
            return False
        return True

    def go_out_plan(self) -> list[Action] | None:
        """``state.going_out_plan()`` of the seat to act, sought once per position (None
        also when it is not the play phase)."""
        self._same_position()
        if self._plan is _NO_PLAN:
            state = self.state
            self._plan = state.going_out_plan() if state.phase is Phase.PLAY \
                and not state.is_over else None
        plan: list[Action] | None = self._plan  # type: ignore[assignment]
        return plan

    def _needs(self, seats: Iterable[int | None]) -> set[int]:
        state = self.state
        return {state.current if seat is None else seat for seat in seats}

    def prepare(self, seats: Iterable[int | None]) -> None:
        """Build what the state messages of ``seats`` (None: a spectator) take from the
        engine: each one's view with its legal actions, the going-out plan of the seat to
        act, and the hand's events. The server calls it in a worker thread, under the
        table's lock; :meth:`view_json` then only reads what it left."""
        state = self.state
        for seat in self._needs(seats):
            self.view(seat)
        if not state.is_over and state.actor in self._needs(seats):
            self.go_out_plan()
        self._events.update(state, self.taken_back, self.by_bot)

    def prepared(self, seats: Iterable[int | None]) -> bool:
        """Whether :meth:`prepare` has nothing left to build for ``seats``."""
        state = self.state
        needs = self._needs(seats)
        return (self._same_position() and all(s in self._views for s in needs)
                and (state.is_over or state.actor not in needs or self._plan is not _NO_PLAN)
                and self._events.current(state))

    # -- what clients see ------------------------------------------------------------------
    def view_json(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator, who sees the public part only)."""
        state = self.state
        view = self.view(state.current if seat is None else seat)
        events = self._events.update(state, self.taken_back, self.by_bot)
        out = _public(view, self.rules)
        out["log"] = JSONList(events.log, events.log_texts)
        out["events"] = JSONList(events.public, events.public_texts)
        out["end_reason"] = state.end_reason
        out["went_out"] = state.went_out
        out["log_entries"] = events.entries(seat)
        out["last_moves"] = events.last_moves()
        out["hands_left"] = hands_left(state)
        if seat is not None:
            out["hand"] = [card_text(c) for c in view.hand]
            out["hand_points"] = hand_points(view.hand)
            out["drawn"] = just_drawn(view.events, seat, view.hand)
            out["legal"] = [_action_json(a) for a in view.legal_actions]
            out["go_out"] = None
            if view.legal_actions and view.phase is Phase.PLAY:
                plan = self.go_out_plan()
                if plan is not None:
                    out["go_out"] = [a.text() for a in plan]
        return out

    def log_entries(self, view: View, seat: int | None) -> list[Entry]:
        """The hand's log as ``seat`` may read it (None: an onlooker), as catalogue entries
        (canasta.i18n.events), from the view's events."""
        return [e for ev in view.events for e in event_entries(ev, seat)]

    def sheets_json(self) -> list[dict[str, Any]]:
        """Every finished hand's score sheets, in order; ``codes`` gives, per sheet, each
        item's code and values (the page's text for it comes from the catalogues). Built
        once per finished hand."""
        done = sum(1 for rec in self.match.hands if rec.sheets)
        if self._sheets is not None and self._sheets[0] == done:
            return self._sheets[1]
        out = []
        for number, rec in enumerate(self.match.hands):
            if rec.sheets:
                out.append({"hand": number, "end_reason": rec.end_reason,
                            "sheets": [s.to_dict() for s in rec.sheets],
                            "codes": [[{"code": code, "values": dict(values)}
                                       for code, values in s.codes] for s in rec.sheets]})
                if number in self.deals:
                    out[-1]["deal"] = revealed_deal(self.deals[number])
                if self.stand_in_hands.get(number):
                    out[-1]["stand_ins"] = sorted(self.stand_in_hands[number])
        self._sheets = (done, out)
        return out


class Refused(Exception):
    """The first action of a move was refused: nothing changed."""

    def __init__(self, error: IllegalActionError) -> None:
        super().__init__(str(error))
        self.error = error


def play_actions(game: Game, seat: int, actions: list[Action], seats: set[int | None]
          ) -> tuple[list[tuple[int, str]], Any, FinishedHand | None]:
    """Apply ``actions`` of ``seat`` to ``game`` (in a worker thread) and build the views
    of ``seats`` after them; returns the stored texts, the last event and the finished hand.

    Raises:
        Refused: the first action is illegal (nothing changed).
        IllegalActionError: a later one is (the match holds the actions before it, and
            must be read again).
    """
    hand = game.hand_number
    texts: list[tuple[int, str]] = []
    event = None
    for action in actions:
        try:
            if game.state.actor != seat:
                raise IllegalActionError("turn order", "the turn passed mid-plan")
            event = game.apply(action)
        except IllegalActionError as exc:
            if not texts:
                raise Refused(exc) from None
            raise
        texts.append((seat, action.text()))
    finished = None
    if game.state.is_over:
        finished = FinishedHand(hand, game.state.end_reason, game.sheets_stored(),
                                game.match.is_over)
    game.prepare(seats)
    return texts, event, finished


def apply_texts(game: Game, texts: list[str]) -> Any:
    """Apply stored actions (their texts) to ``game`` in a worker thread; the last event.

    Raises:
        ValueError, IllegalActionError: a text that does not read or apply.
    """
    event = None
    for text in texts:
        event = game.apply(parse_action(text))
    return event


class _Lists:
    """The parts of the messages built from the hand's events, kept per state and grown by
    the new events only, with each item's JSON text (:class:`JSONList`)."""

    def __init__(self, state: State, taken_back: list[tuple[int, int, tuple[int, ...]]],
                 by_bot: set[int]) -> None:
        self.state = state
        self.taken_back = taken_back  # Game.taken_back: undos, at their place in the log
        self.by_bot = by_bot  # Game.by_bot: the events a bot made for a person
        self.count = 0
        self.public: list[dict[str, Any]] = []
        self.public_texts: list[str] = []
        self.log: list[str] = []
        self.log_texts: list[str] = []
        self.by_seat: dict[int | None, tuple[int, list[Entry], list[str], int]] = {}
        self.moves: list[dict[str, Any] | None] = [None] * state.players
        self.raw: tuple[Event, ...] = ()

    def grow(self, raw: tuple[Event, ...]) -> None:
        new = raw[self.count:]
        publics = [ev.public() for ev in new]
        for pub in publics:
            item = event_to_json(pub)
            self.public.append(item)
            self.public_texts.append(json.dumps(item))
            line = describe_event(pub, PUBLIC)
            self.log.append(line)
            self.log_texts.append(json.dumps(line))
        # each seat's last move: the last among the new events, else the one it had
        state = self.state
        for seat, move in enumerate(last_moves(publics, state.players, state.team_of)):
            if move is not None:
                move["n"] += self.count
                self.moves[seat] = move
        self.count = len(raw)
        self.raw = raw

    def entries(self, seat: int | None) -> JSONList:
        # an event gives no entry or several: the events read are counted apart, and so
        # are the undos written (each after the events that were left when it was made)
        read, out, texts, noted = self.by_seat.get(seat) or (0, [], [], 0)
        viewer = PUBLIC if seat is None else seat
        raw, undos = self.raw, self.taken_back
        for i in range(read, len(raw) + 1):
            while noted < len(undos) and undos[noted][0] <= i:
                entry = took_back_entry(undos[noted][1], seat, undos[noted][2])
                out.append(entry)
                texts.append(json.dumps(entry))
                noted += 1
            if i < len(raw):
                for entry in event_entries(raw[i].visible_to(viewer), seat):
                    if i in self.by_bot:
                        entry = stand_in_entry(entry)
                    out.append(entry)
                    texts.append(json.dumps(entry))
        self.by_seat[seat] = (len(raw), out, texts, noted)
        return JSONList(out, texts)

    def last_moves(self) -> list[dict[str, Any] | None]:
        return [None if m is None else dict(m) for m in self.moves]


class _EventCache:
    def __init__(self) -> None:
        self.lists: _Lists | None = None

    def current(self, state: State) -> bool:
        lists = self.lists
        return lists is not None and lists.state is state and lists.count == len(state.events)

    def update(self, state: State, taken_back: list[tuple[int, int, tuple[int, ...]]],
               by_bot: set[int]) -> _Lists:
        raw = state.events
        lists = self.lists
        # a new hand, or an undo (which puts back an earlier copy of the state): anew
        if lists is None or lists.state is not state or len(raw) < lists.count \
                or lists.by_bot is not by_bot:
            lists = self.lists = _Lists(state, taken_back, by_bot)
        if len(raw) > lists.count:
            lists.grow(raw)
        return lists


#: Marks a going-out plan not sought yet (None is "no plan").
_NO_PLAN = object()


def _action_json(action: Action) -> dict[str, Any]:
    out = action_to_json(action)
    out["text"] = action.text()
    return out


_RANK_ORDER = {rank: i for i, rank in enumerate((WILD_RANK, *NATURAL_RANKS, 3))}


def _melds_json(melds: dict[int, tuple[int, ...]], rules: Rules) -> list[dict[str, Any]]:
    out = []
    for rank in sorted(melds, key=lambda r: _RANK_ORDER.get(r, 99)):
        cards = melds[rank]
        if not cards:
            continue
        wilds = sum(1 for c in cards if is_wild(c))
        # the engine's kind (canasta.core.melds.classify_meld), as the page names it
        found = classify_meld(cards, rules)
        kind = None if found is None else (
            "wild" if found.wild else "natural" if found.natural else "mixed")
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
        "canasta_size": rules.melds.canasta_size,
    }


def turn_actions(match: Match) -> int:
    """How many actions the seat to act has made in a row (its current turn so far)."""
    actor = match.state.actor
    count = 0
    for seat, _action in reversed(match.record.played):
        if seat != actor:
            break
        count += 1
    return count
