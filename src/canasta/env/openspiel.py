"""Canasta as an OpenSpiel game: importing this module registers ``python_canasta``.

>>> import pyspiel, canasta.env.openspiel
>>> game = pyspiel.load_game("python_canasta", {"players": 2})
>>> game.num_distinct_actions()
2087

Parameters: ``variant`` (a preset name, default ``international``), ``players`` (default 4),
``options`` (house rules as ``load_preset`` takes them, written ``"name:value;name:value"``;
default none), ``team_size`` (6 players: 3 for two teams, 2 for three pairs; 0: the rules' default).

One game is **one hand**. Chance: the deck order is dealt by explicit chance nodes, one card
each (``deck size`` nodes, outcomes the card codes 0..52 with the remaining copies as
weights), before the first decision; the engine then deals from that order (a deal the rules
call a misdeal, seed 000, starts the chance nodes again). Every draw from the stock comes from
that order, so there is no chance node after the deal and a state is fully given by its
history (what OpenSpiel's default serialization stores). Actions are the
:class:`~canasta.core.codec.ActionCodec` ids. Returns, at the end only (terminal rewards):
each player's side hand total minus the mean of the other sides' totals (zero-sum).

Observations for player *p* come from ``state.view(p)`` only:

* observation tensor: the :class:`~canasta.env.observation.ObservationLayout` vector, its
  named parts as the observer's ``dict``; observation string: the same facts as text;
* information state string: the observation string followed by the seat's whole history as
  it saw it (``view.events``): equal for two states exactly when the seat cannot tell them
  apart (in a state dealt by ``resample_from_infostate`` the history is the resampling
  seat's, so there the other seats' strings are their current views only); the
  information state tensor is the observation tensor (not perfect recall: a fixed-size
  tensor of the whole history would be very large).

``state.resample_from_infostate(p, sampler)`` returns a state of the same information set
for *p* dealt by ``view.sample_state`` (so OpenSpiel's ``ISMCTSBot`` can search it); its
history is empty (it has none the player could know), so it is for search, not for
serialization.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from canasta.core.actions import Action
from canasta.core.cards import NUM_CODES, cards_text, make_deck
from canasta.core.codec import ActionCodec
from canasta.core.data import MisdealError
from canasta.core.rules import Rules, load_preset
from canasta.core.state import State
from canasta.env.observation import ObservationLayout
from canasta.env.render import render_text
from canasta.env.rewards import side_rewards

SHORT_NAME = "python_canasta"
#: Bounds of a return (points); no hand of the presets comes near them.
MAX_UTILITY = 50_000.0
#: Most decisions in a hand (a bound for ``max_game_length``; random play stays far below).
MAX_DECISIONS = 20_000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Canasta (canasta engine: international, canastone, classic_italian, "
              "brazilian, romanian)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "international", "players": 4, "options": "",
                             "team_size": 0},
)


def parse_options(text: str) -> dict[str, str]:
    """``"a:1;b:x"`` -> ``{"a": "1", "b": "x"}`` (empty text: no options). OpenSpiel's
    parameter syntax keeps ``=`` and ``,`` for itself, so a name and its value are joined
    by ``:``.

    Raises:
        ValueError: a part without ``:``.
    """
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, eq, value = part.partition(":")
        if not eq:
            raise ValueError(f"option {part!r} is not name:value")
        out[key.strip()] = value.strip()
    return out


@functools.lru_cache(maxsize=32)
def _rules(variant: str, options: str) -> Rules:
    return load_preset(variant, parse_options(options))


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """The game of one hand for the given parameters (see the module docstring).

    ``rules``, when given, is used instead of the preset the parameters name (a bot holds the
    Rules record of its view, however its house rules were set); such a game's states
    pickle by the parameters, so give it only for search.

    Raises:
        RulesError / ValueError: unknown variant or option, a player count the rules do not
        allow.
    """

    def __init__(self, params: dict[str, Any] | None = None, rules: Rules | None = None
                 ) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.variant = str(params["variant"])
        self.options = str(params["options"])
        self.players = int(params["players"])
        self.team_size = int(params["team_size"]) or None
        self.rules = rules if rules is not None else _rules(self.variant, self.options)
        self.codec = ActionCodec(self.rules, self.players)
        self.teams = self.rules.teams(self.players, self.team_size)
        self.layout = ObservationLayout(self.rules, self.players, len(self.teams))
        deck = make_deck(self.rules.packs(self.players), self.rules.deal.jokers_per_pack)
        self.deck_counts = tuple(deck.count(c) for c in range(NUM_CODES))
        self.deck_size = len(deck)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=NUM_CODES,
            num_players=self.players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CanastaObserver:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CanastaObserver(self, perfect)

    def max_chance_nodes_in_history(self) -> int:
        return self.deck_size


class Hand:
    """The Python-side data of a state: the deck dealt so far and, once dealt, the engine
    state. OpenSpiel copies a Python state by ``deepcopy`` of its attributes and serializes
    it by pickling them: both go through the engine's cheap ``clone()`` and the history
    (``__reduce__`` replays the deck and the actions)."""

    __slots__ = ("game", "deck", "remaining", "state")

    def __init__(self, game: CanastaGame) -> None:
        self.game = game
        self.deck: list[int] = []
        self.remaining = list(game.deck_counts)
        self.state: State | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        out = Hand.__new__(Hand)
        out.game = self.game
        out.deck = self.deck[:]
        out.remaining = self.remaining[:]
        out.state = self.state.clone() if self.state is not None else None
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        g = self.game
        actions = [a.text() for _, a in self.state.actions] if self.state is not None else []
        params = {"variant": g.variant, "options": g.options, "players": g.players,
                  "team_size": g.team_size or 0}
        return (_restore_hand, (params, self.deck[:], actions))

    def deal_card(self, card: int) -> None:
        self.deck.append(card)
        self.remaining[card] -= 1
        g = self.game
        if len(self.deck) == g.deck_size:
            try:
                self.state = State.deal(g.rules, g.players, deck=self.deck,
                                        team_size=g.team_size)
            except MisdealError:  # seed 000: deal again, by more chance nodes
                self.deck = []
                self.remaining = list(g.deck_counts)


def _restore_hand(params: dict[str, Any], deck: list[int], actions: list[str]) -> Hand:
    from canasta.core.actions import parse_action

    game = _game(tuple(sorted(params.items())))
    hand = Hand(game)
    hand.deck = deck[:]
    for c in deck:
        hand.remaining[c] -= 1
    if len(deck) == game.deck_size:
        hand.state = State.deal(game.rules, game.players, deck=deck, team_size=game.team_size)
        for text in actions:
            hand.state.apply(parse_action(text))
    return hand


@functools.lru_cache(maxsize=32)
def _game(items: tuple[tuple[str, Any], ...]) -> CanastaGame:
    return CanastaGame(dict(items))


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """One hand in OpenSpiel (see the module docstring)."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self.hand = Hand(game)

    # -- the engine state ----------------------------------------------------------------------
    @property
    def canasta_state(self) -> State | None:
        """The engine state (None while the deck is being dealt)."""
        return self.hand.state

    def _game_of(self) -> CanastaGame:
        return self.hand.game

    # -- OpenSpiel API -------------------------------------------------------------------------
    def current_player(self) -> int:
        s = self.hand.state
        if s is None:
            return int(pyspiel.PlayerId.CHANCE)
        if s.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.actor

    def is_terminal(self) -> bool:
        s = self.hand.state
        return s is not None and s.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self.hand.game.deck_size - len(self.hand.deck)
        return [(c, n / left) for c, n in enumerate(self.hand.remaining) if n]

    def _legal_actions(self, player: int) -> list[int]:
        s = self.hand.state
        assert s is not None and player == s.actor
        return sorted(self.hand.game.codec.encode_all(s.legal_actions()))

    def _apply_action(self, action: int) -> None:
        hand = self.hand
        if hand.state is None:
            if not 0 <= action < NUM_CODES or hand.remaining[action] <= 0:
                raise ValueError(f"chance outcome {action}: no such card left to deal")
            hand.deal_card(action)
            return
        move: Action = hand.game.codec.decode(action, hand.state)  # raises when not legal
        hand.state.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {cards_text([action])}"
        s = self.hand.state
        key = self.hand.game.codec.keys[action]
        if s is not None and player == s.actor and not s.is_over:
            try:
                return self.hand.game.codec.action(action, s).text()
            except Exception:  # an id whose cards this hand does not hold: say its key
                pass
        return " ".join(str(k) for k in key)

    def returns(self) -> list[float]:
        s = self.hand.state
        if s is None or not s.is_over:
            return [0.0] * self.hand.game.players
        totals = [sheet.hand_total for sheet in s.score()]
        return side_rewards(s.team_of, totals)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None
                                ) -> CanastaState:
        """A state that ``player_id`` cannot tell from this one, the cards it cannot see
        dealt at random by ``view.sample_state`` (``probability_sampler``, when it is a
        callable returning a number in [0, 1), seeds the draw; else Python's ``random``).

        Raises:
            ValueError: the deal is not complete (resample at a decision node).
        """
        s = self.hand.state
        if s is None:
            raise ValueError("resample_from_infostate: the deck is still being dealt")
        seed: int | None = None
        if callable(probability_sampler):
            try:
                seed = int(float(probability_sampler()) * 2**53)
            except TypeError:
                seed = None
        rng = random.Random(seed) if seed is not None else _RNG
        out = CanastaState(self.hand.game)
        out.hand.deck = self.hand.deck[:]
        out.hand.remaining = self.hand.remaining[:]
        out.hand.state = s.view(player_id).sample_state(rng)
        return out

    def __str__(self) -> str:
        s = self.hand.state
        if s is None:
            return f"dealing: {len(self.hand.deck)} of {self.hand.game.deck_size} cards"
        return render_text(s)


_RNG = random.Random()


class CanastaObserver:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over :class:`ObservationLayout` (see the module docstring)."""

    def __init__(self, game: CanastaGame, perfect_recall: bool) -> None:
        self.layout = game.layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = self.layout.split(self.tensor)

    def set_from(self, state: CanastaState, player: int) -> None:
        s = state.hand.state
        if s is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.layout.encode(s.view(player))

    def string_from(self, state: CanastaState, player: int) -> str:
        s = state.hand.state
        if s is None:
            return f"seat {player}: dealing {len(state.hand.deck)}"
        view = s.view(player)
        if self.perfect_recall:
            # The view's facts as well as the events: a state dealt by sample_state holds only
            # the events the resampling seat saw, so another seat's history there says less
            # than its hand (which decides its legal actions).
            return view_text(view) + "\n" + "\n".join(repr(e) for e in view.events)
        return view_text(view)


def view_text(view: Any) -> str:
    """The facts of a view as text (the observation string)."""
    melds = " | ".join(
        " ".join(f"[{cards_text(c)}]" for _, c in sorted(m.items())) for m in view.melds)
    known = " | ".join(cards_text(k) for k in view.known)
    return (f"seat {view.seat} phase {view.phase.value} current {view.current} actor "
            f"{view.actor}\nhand {cards_text(view.hand)}\nhand sizes {view.hand_sizes}\n"
            f"melds {melds}\nred threes {[cards_text(r) for r in view.red_threes]}\n"
            f"pile {cards_text(view.pile)} size {view.pile_size} frozen {view.pile_frozen} "
            f"stopped {view.stopped}\npending {cards_text(view.pending_pile)}\n"
            f"stock {view.stock_size} hidden {sorted(view.hidden.items())}\nknown {known}\n"
            f"scores {view.scores} opened {view.opened} minimum {view.opening_minimum} "
            f"opening points {view.opening_points} provisional "
            f"{view.provisional is not None}")


pyspiel.register_game(GAME_TYPE, CanastaGame)
