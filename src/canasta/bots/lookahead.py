"""``hard``'s shallow search (off by default, ``hard:samples=8``): the heuristic's few best
moves at the decisions that matter, each tried on a handful of sampled deals, played on to the
next decision of another kind by the heuristic, and valued by the learned value.

At a draw with a pile it may take (take against draw) and at a discard (which card), the
heuristic (with ``hard``'s terms and weights) names its move, the
*baseline*, and its other best moves by its own score (``width`` in all). The bot then deals
the cards it cannot see ``samples`` times (``view.sample_state``, every deal consistent with
the view equally likely), plays each candidate on every deal (the same deals for every
candidate: common random numbers), plays on with the heuristic alone (``play``): after a draw
or a take to the end of the seat's turn, after a discard the next seat's draw (so a pile given
away is taken on the deal where it can be), and values that position with the learned value of
the full state (:func:`canasta.bots.learn.value.value_batch`, the seat's side's expected
hand-score difference, points; ``value="evaluate"``: the expert's hand-written one). It plays
an alternative only when its mean advantage over the baseline, paired deal by deal, is more
than ``margin`` points; otherwise the heuristic's move. Everything else (melding, going out,
answering the partner) is the heuristic's.

Where no learned model exists (numpy absent, a rule set or player count not trained) it is
the heuristic alone. It sees only the seat's View; the samples come from the bot's own seeded
source, so the same seed and views give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from canasta.bots.heuristic import Features, HeuristicBot, Weights
from canasta.core.actions import Action, Discard, Draw, TakePile
from canasta.core.cards import is_wild
from canasta.core.legality import IllegalActionError
from canasta.core.state import Phase, State, View

#: Deals sampled per decision searched; 0 by default: the search is off (``hard`` is the
#: heuristic alone) until it beats it, ``hard:samples=8`` turns it on (docs/bots.md, "A
#: shallow search for hard").
DEFAULT_SAMPLES = 0
#: Candidates per decision searched (the baseline and the heuristic's next best).
DEFAULT_WIDTH = 4
#: Points of mean advantage over the baseline an alternative needs to be played.
DEFAULT_MARGIN = 30.0

#: ``values(states, seats)``: the learned value of each state for the seat's side (points).
Values = Callable[[Sequence[State], Sequence[int]], Sequence[float]]


def _learned(view: View) -> Values | None:
    """The learned value's batch form for the view's rules and player count, or None."""
    try:
        from canasta.bots.learn.value import model_for, value_batch
    except ImportError:  # numpy absent
        return None
    if model_for(view.rules, view.players) is None:
        return None
    return value_batch  # type: ignore[return-value]


def _evaluate(states: Sequence[State], seats: Sequence[int]) -> list[float]:
    """The expert's hand-written :func:`~canasta.bots.expert.evaluate` in the form of
    :data:`Values`."""
    from canasta.bots.expert import evaluate

    return [evaluate(s, s.team_of[seat]) for s, seat in zip(states, seats, strict=True)]


class LookaheadBot(HeuristicBot):
    """``hard``: the heuristic with the weights of the view's preset (``by_preset``, else
    ``default``, as :class:`~canasta.bots.levels.LevelBot`) and the shallow search of the
    module docstring.

    Args:
        seed: seeds the heuristic's ties and the sampled deals.
        at: the decisions searched: ``"both"``, ``"draw"`` or ``"discard"``.
        play: play on with the heuristic before valuing (False: value right after the move).
        value: ``"learned"`` or ``"evaluate"``.
        samples: deals per decision searched (0: the heuristic alone).
        width: candidates per decision (the baseline included).
        margin: points an alternative must beat the baseline by, on average.
    """

    def __init__(self, seed: int | None, default: Weights, by_preset: dict[str, Weights],
                 features: Features, name: str, samples: int = DEFAULT_SAMPLES,
                 width: int = DEFAULT_WIDTH, margin: float = DEFAULT_MARGIN,
                 at: str = "both", play: bool = True, value: str = "learned") -> None:
        super().__init__(seed, default, features, name=name)
        self._default = default
        self._by_preset = by_preset
        self.samples = samples
        self.width = width
        self.margin = margin
        self.at = at
        self.play = play
        self.value = value
        self._srng = random.Random(None if seed is None else seed * 7919 + 17)

    def choose(self, view: View) -> Action:
        self.w = self._by_preset.get(view.rules.name, self._default)
        base = super().choose(view)
        if self.samples <= 0 or self.width <= 1 or len(view.legal_actions) == 1:
            return base
        if view.phase is Phase.DRAW and self.at != "discard":
            cands = self._draw_candidates(view, base)
        elif isinstance(base, Discard) and self.at != "draw":
            cands = self._discard_candidates(view, base)
        else:
            return base
        if len(cands) < 2:
            return base
        values = _learned(view) if self.value == "learned" else _evaluate
        if values is None:
            return base
        return self._search(view, cands, values)

    def _draw_candidates(self, view: View, base: Action) -> list[Action]:
        legal = view.legal_actions
        takes = [a for a in legal if isinstance(a, TakePile)]
        if not takes or Draw() not in legal:
            return []
        opened = view.opened[view.team]
        takes = [a for a in takes if opened or self._opening_feasible(view, a)]
        # The cheapest takes first: fewest wild cards, then fewest cards from the hand.
        takes.sort(key=lambda a: (sum(1 for c in a.cards if is_wild(c)), len(a.cards)))
        out: list[Action] = [base]
        more: list[Action] = [Draw(), *takes]
        for a in more:
            if len(out) >= self.width:
                break
            if a not in out:
                out.append(a)
        return out

    def _discard_candidates(self, view: View, base: Discard) -> list[Action]:
        discards = [a for a in view.legal_actions if isinstance(a, Discard)]
        if len(discards) < 2 or len(view.hand) == 1:
            return []
        # Ranked again without touching the heuristic's random source (its ties stay those
        # of the heuristic alone).
        saved = self.rng.getstate()
        ctx = self._discard_context(view)
        ranked = sorted(discards, key=lambda a: -self._discard_value(view, a.card, ctx))
        self.rng.setstate(saved)
        out: list[Discard] = [base]
        for a in ranked:
            if len(out) >= self.width:
                break
            if all(a.card != o.card for o in out):
                out.append(a)
        res: list[Action] = list(out)
        return res

    def _play_on(self, s: State, view: View, start: int) -> None:
        """Play the heuristic alone (``hard``'s, no search) on ``s``: after a draw or a take,
        to the end of the seat's turn; after a discard, the next seat's draw."""
        bots: dict[int, HeuristicBot] = {}
        for _ in range(60):
            if s.is_over:
                return
            if view.phase is Phase.DRAW and s.turn > start:
                return
            if view.phase is not Phase.DRAW and s.phase is not Phase.DRAW:
                return
            actor = s.actor
            bot = bots.get(actor)
            if bot is None:
                bot = bots[actor] = HeuristicBot(self._srng.randrange(1 << 30), self.w,
                                                 self.f, name="hard")
            move = bot.choose(s.view(actor))
            try:
                s.apply(move)
            except IllegalActionError:
                s.apply(s.legal_actions()[0])

    def _search(self, view: View, cands: list[Action], values: Values) -> Action:
        states: list[State] = []
        ok: list[bool] = []
        for _ in range(self.samples):
            sample = view.sample_state(self._srng)
            for a in cands:
                s = sample.clone()
                try:
                    s.apply(a)
                    ok.append(True)
                except IllegalActionError:
                    ok.append(False)
                if self.play and ok[-1]:
                    self._play_on(s, view, sample.turn)
                states.append(s)
        vals = values(states, [view.seat] * len(states))
        n = len(cands)
        best, best_gain = cands[0], self.margin
        for i in range(1, n):
            diffs = [vals[k * n + i] - vals[k * n] for k in range(self.samples)
                     if ok[k * n + i] and ok[k * n]]
            if not diffs:
                continue
            gain = sum(diffs) / len(diffs)
            if gain > best_gain:
                best, best_gain = cands[i], gain
        return best
