"""The ``expert`` bot and hints: the search sees only the View, plays
legal moves on several presets within its budget, and ``suggest`` returns legal moves sorted
by value with reasons the catalogues can say."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from canasta import State, load_preset
from canasta.bots import Reason, Suggestion, make_bot, suggest
from canasta.bots import expert as expert_module
from canasta.bots.expert import ExpertBot, evaluate, meld_progress
from canasta.bots.hints import reasons_for
from canasta.core.state import Phase
from canasta.formats.position import save_position
from canasta.i18n import catalogue, placeholders

GREEDY = lambda seed: make_bot("greedy", seed)  # noqa: E731


def _expert(seed: int = 0, **kw: object) -> ExpertBot:
    kw.setdefault("iterations", 2)
    return ExpertBot(seed, policy=GREEDY, **kw)  # type: ignore[arg-type]


def _midhand(variant: str = "international", seed: int = 7, steps: int = 25,
             players: int = 4) -> State:
    """A hand played by greedy bots for ``steps`` actions, stopped at a choice of moves."""
    state = State.deal(load_preset(variant), players, seed=seed)
    bots = [make_bot("greedy", seed * 10 + i) for i in range(players)]
    for _ in range(steps):
        state.apply(bots[state.actor].choose(state.view(state.actor)))
    while len(state.legal_actions()) < 3:
        state.apply(bots[state.actor].choose(state.view(state.actor)))
    assert not state.is_over
    return state


def test_same_view_with_other_hidden_cards_gives_the_same_search() -> None:
    """The expert reads only the View: two states that differ in every card the seat cannot
    see (other hands, stock) but give it the same view lead to the same move and values."""
    real = _midhand()
    seat = real.actor
    view = real.view(seat)
    other = view.sample_state(random.Random(99))
    while other.hands == real.hands and other.stock == real.stock:  # pragma: no cover
        other = view.sample_state(random.Random(random.randrange(10**6)))
    assert other.hands[seat] == real.hands[seat]
    assert other.hands != real.hands or other.stock != real.stock
    picks = []
    for state in (real, other):
        bot = _expert(5, iterations=3)
        picks.append((bot.choose(state.view(seat)),
                      [(a.action, a.values) for a in bot.last.arms] if bot.last else None))
    assert picks[0] == picks[1]
    assert picks[0][1] is not None and len(picks[0][1]) > 1


@pytest.mark.parametrize(("variant", "players"), [("international", 4), ("brazilian", 2)])
def test_expert_plays_legal_moves_on_a_preset(variant: str, players: int) -> None:
    state = State.deal(load_preset(variant), players, seed=3)
    bots = [_expert(i, iterations=1, depth=1, width=4) if i % 2 == 0 else
            make_bot("greedy", i) for i in range(players)]
    for _ in range(70):
        if state.is_over:
            break
        seat = state.actor
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    assert state.turn >= 8


def test_iteration_budget_is_exact_and_time_budget_is_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = _midhand(seed=11).view(_midhand(seed=11).actor)
    bot = _expert(1, iterations=4)
    bot.choose(view)
    assert bot.last is not None and bot.last.rounds == 4

    class Clock:
        """A clock that moves 10 ms at every reading: the budget is checked against it, not
        against the machine's speed."""

        now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.01
            return self.now

    clock = Clock()
    monkeypatch.setattr(expert_module, "_time", clock)
    timed = _expert(1, iterations=None, time=0.1)
    timed.choose(view)
    assert timed.last is not None and timed.last.rounds >= 1
    # The deadline is checked after every playout and the search stops at the first reading
    # past it (one round always completes): well before 200 readings of 10 ms.
    assert timed.last.seconds < 2.0 and clock.now < 2.0


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="time"):
        ExpertBot(0, policy=GREEDY, time=0)
    with pytest.raises(ValueError, match="iterations"):
        ExpertBot(0, policy=GREEDY, iterations=0)


def test_expert_is_in_the_registry_with_its_parameters() -> None:
    bot = make_bot("expert:iterations=2,playout=medium,depth=1", 3)
    assert isinstance(bot, ExpertBot) and bot.name == "expert"
    assert (bot.iterations, bot.playout, bot.searcher.depth) == (2, "medium", 1)
    assert make_bot("expert", 3).playout == "hard"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("expert:playout=nobody")
    with pytest.raises(ValueError, match="cannot be the expert"):
        make_bot("expert:playout=expert")
    with pytest.raises(ValueError, match="time"):
        make_bot("expert:time=-1")


def test_evaluate_a_finished_hand_is_the_score_difference() -> None:
    state = State.deal(load_preset("international"), 4, seed=2)
    bots = [make_bot("greedy", i) for i in range(4)]
    while not state.is_over:
        state.apply(bots[state.actor].choose(state.view(state.actor)))
    totals = [s.hand_total for s in state.score()]
    assert evaluate(state, 0) == totals[0] - totals[1]
    assert evaluate(state, 1) == -evaluate(state, 0)


def test_meld_progress_grows_towards_a_canasta_and_stops_there() -> None:
    values = [meld_progress(k, 7, 300) for k in range(2, 8)]
    assert values[0] == 0 and values[-1] == 0
    assert values[1:-1] == sorted(values[1:-1]) and values[-2] > values[1] > 0


def test_suggest_returns_legal_moves_sorted_by_value_with_known_reasons() -> None:
    state = _midhand(seed=7)
    view = state.view(state.actor)
    out = suggest(view, 3, iterations=4, seed=1, playout="greedy")
    assert len(out) == 3
    assert all(isinstance(s, Suggestion) for s in out)
    assert len({s.action for s in out}) == 3
    assert all(s.action in view.legal_actions for s in out)
    assert [s.value for s in out] == sorted((s.value for s in out), reverse=True)
    # The first suggestion is what the expert plays with the same search.
    bot = _expert(0, iterations=4)
    bot.rng = _FixedSeed(1)  # type: ignore[assignment]
    assert bot.choose(view) == out[0].action
    en, it = catalogue("en"), catalogue("it")
    for s in out:
        assert s.reasons
        for r in s.reasons:
            assert isinstance(r, Reason)
            key = f"hint.reason.{r.key}"
            assert key in en and key in it
            assert placeholders(en[key]) <= set(r.params)
            assert "{" not in r.text("it")


class _FixedSeed:
    """Stands for the bot's generator: its next decision seed is ``seed``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def getrandbits(self, _: int) -> int:
        return self.seed


def test_suggest_refuses_a_seat_not_to_act_and_bad_n() -> None:
    state = _midhand()
    idle = (state.actor + 1) % state.players
    with pytest.raises(ValueError, match="not to act"):
        suggest(state.view(idle), 3, iterations=1)
    with pytest.raises(ValueError, match="n must be"):
        suggest(state.view(state.actor), 0, iterations=1)


def test_reasons_name_pile_value_discard_danger_and_canasta_progress() -> None:
    state = _midhand(steps=1)  # the second player, about to draw or take
    seen: set[str] = set()
    bots = [make_bot("greedy", i) for i in range(4)]
    for _ in range(200):
        if state.is_over:
            break
        view = state.view(state.actor)
        for action in view.legal_actions:
            seen.update(r.key for r in reasons_for(view, action))
        state.apply(bots[state.actor].choose(view))
    assert {"pile_value", "canasta_progress", "freeze", "opening"} <= seen
    assert seen & {"discard_danger", "discard_safe"}


def test_hint_command_prints_the_suggestions(tmp_path: object) -> None:
    from pathlib import Path

    from canasta.cli import _register, app

    _register()
    state = _midhand()
    path = Path(str(tmp_path)) / "pos.json"
    save_position(state, path)
    runner = CliRunner()
    res = runner.invoke(app, ["hint", str(path), "--iterations", "2", "--n", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data) == 2 and all(d["reasons"] for d in data)
    legal = {a.text() for a in state.legal_actions()}
    assert {d["action"] for d in data} <= legal
    res = runner.invoke(app, ["hint", str(path), "--iterations", "1", "--lang", "it"])
    assert res.exit_code == 0 and "Suggerimenti" in res.output
    res = runner.invoke(app, ["hint", str(path), "--seat", str((state.actor + 1) % 4)])
    assert res.exit_code == 2 and "not to act" in res.output
    assert state.phase is not Phase.OVER


def test_a_move_that_cannot_beat_the_baseline_is_dropped_and_the_search_stops() -> None:
    """The budget is a maximum: once every alternative is out (one no better than the
    baseline on every deal, one clearly worse), only the baseline is left and the search is
    decided; an alternative still in doubt keeps it going."""
    from canasta.bots.expert import MIN_ROUNDS, Arm, Searcher
    from canasta.core.actions import Discard, Draw

    base = [float(10 * (i % 3)) for i in range(MIN_ROUNDS)]
    same = Arm(Discard(5), values=list(base), base=list(base))
    worse = Arm(Discard(6), values=[v - 50 - i for i, v in enumerate(base)], base=list(base))
    doubt = Arm(Discard(7), values=[v + (30 if i % 2 else -25) for i, v in enumerate(base)],
                base=list(base))
    baseline = Arm(Draw(), values=list(base), base=list(base))
    searcher = Searcher(GREEDY)
    arms = [baseline, same, worse, doubt]
    searcher._eliminate(arms, keep=1)
    assert [a.alive for a in arms] == [True, False, False, True]
    assert not searcher._decided(arms, keep=1)
    doubt.alive = False
    assert searcher._decided(arms, keep=1)
    assert not searcher._decided(arms, keep=3)  # hints want their n moves valued


def test_with_one_candidate_the_expert_answers_without_searching() -> None:
    """Asking the partner is searched only as the baseline's move, so a choice between it and
    one other move is no choice for the search: no deal is sampled."""
    from canasta.core.actions import AskPartner

    for seed in range(40):
        state = State.deal(load_preset("international"), 4, seed=seed)
        bots = [make_bot("greedy", seed * 10 + i) for i in range(4)]
        while not state.is_over:
            view = state.view(state.actor)
            legal = view.legal_actions
            if len(legal) == 2 and any(isinstance(a, AskPartner) for a in legal):
                bot = _expert(1, iterations=50)
                action = bot.choose(view)
                assert action in legal and not isinstance(action, AskPartner)
                assert bot.last is not None and bot.last.rounds == 0
                return
            state.apply(bots[state.actor].choose(view))
    pytest.fail("no position with one move besides asking the partner in 40 hands")


def test_a_playout_is_valued_for_the_deciding_seat_whoever_moved_last() -> None:
    """The leaf values the play-out's last state from the seat that decided (not from the
    seat that happened to move last in the play-out): the value is that seat's side's."""
    from canasta.bots.expert import Searcher

    state = _midhand()
    seen: list[int] = []

    def leaf(s: State, seat: int) -> float:
        seen.append(seat)
        return evaluate(s, s.team_of[seat])

    searcher = Searcher(GREEDY, depth=1, leaf=leaf)
    me = state.actor
    action = state.legal_actions()[0]
    value = searcher.playout(state, action, state.team_of[me], 11, me)
    assert seen == [me]
    # The same play-out valued for the deciding team directly.
    assert value == searcher.playout(state, action, state.team_of[me], 11)


def test_the_first_hint_says_why_it_waits() -> None:
    """Where the search finds a discard better than a meld, or a move better than going out,
    the first suggestion says so with its lead in points; where it does not lead, nothing."""
    from canasta.bots.expert import Arm
    from canasta.bots.hints import _why_wait
    from canasta.core.actions import Discard, Meld

    view = _midhand().view(_midhand().actor)
    hand = tuple(view.hand)
    discard = Arm(Discard(hand[0]), values=[100.0, 120.0, 80.0])
    meld = Arm(Meld(hand[:3]), values=[40.0, 60.0, 50.0])
    reason = _why_wait(view, discard, [discard, meld])
    assert reason == Reason("wait_meld", {"move": meld.action.text(), "points": "50"})
    assert _why_wait(view, meld, [discard, meld]) is None  # a meld does not wait
    worse = Arm(Discard(hand[1]), values=[10.0, 20.0, 30.0])
    assert _why_wait(view, worse, [worse, meld]) is None  # it does not lead the meld
    out = Arm(Meld(hand), values=[0.0, 50.0, 10.0])
    reason = _why_wait(view, discard, [discard, meld, out])
    assert reason is not None and reason.key == "wait_going_out"
    assert reason.params["points"] == "80" and "{" not in reason.text("it")
