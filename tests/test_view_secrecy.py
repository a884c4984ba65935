"""A view holds only what its seat saw, private fields included, and survives pickling.

The test builds two real hands that one seat cannot tell apart: the same deal but for two
cards that seat never sees swapped in the deck order (both among another hand's unknown
cards, the stock or the cards under the upcard), the same actions played. Every object
reachable from that seat's view, every private field and the history's every node
included, must then be the same in both hands, before and after a pickle round trip: a
field that held another seat's draw, an unknown hand, the stock order or the deal would
differ. The seat's information is what the events say it saw (seed 002: a draw from the
stock is the drawer's; "prende tutte le carte del pozzo": the pile's face-up cards were
seen by all).
"""

from __future__ import annotations

import enum
import pickle
import random
import types
from typing import Any

import pytest

from canasta import State, TakePile, load_preset
from canasta.core.cards import RED_THREES
from canasta.core.events import Drew, EventLog, seen_by
from canasta.core.features import ObservationWriter
from canasta.core.view import VIEW_FIELDS, View

CONFIGS: list[tuple[str, dict[str, str], int]] = [
    ("international", {}, 4),
    ("canastone", {}, 4),  # cards face down under the upcard
    ("classic_italian", {"keep_red_threes": "true"}, 4),  # red threes kept in hand
    ("romanian", {"surprises": "four"}, 3),  # surprise cards
    ("brazilian", {"canastra_real": "true"}, 2),
]


def play(name: str, opts: dict[str, str], players: int, seed: int, steps: int) -> State:
    """A hand played ``steps`` actions from ``seed``, taking the pile when it may (so that
    piles, pending piles and provisional openings occur)."""
    state = State.deal(load_preset(name, opts), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        takes = [a for a in actions if isinstance(a, TakePile)]
        state.apply(takes[0] if takes and rng.random() < 0.7 else rng.choice(actions))
    return state


def replay(state: State, deck: list[int]) -> State | None:
    """``state``'s actions played from the deck order ``deck``; None when one is illegal."""
    again = State.deal(state.rules, state.players, deck=deck, dealer=state.dealer,
                       team_size=len(state.teams[0]))
    for _, action in state.actions:
        if not again.can(action):
            return None
        again.apply(action)
    return again


def seat_sees_alike(a: View[State], b: View[State]) -> bool:
    return (all(getattr(a, n) == getattr(b, n) for n in VIEW_FIELDS if n != "table")
            and a.events == b.events)


def twin(state: State, seat: int, rng: random.Random) -> State:
    """Another real hand that ``seat`` cannot tell from ``state`` and whose history is not
    ``state``'s (a card another seat holds unseen, dealt or drawn, is another): two deck
    positions of different cards swapped."""
    deck = list(state.deck)
    mine = state.view(seat)
    for _ in range(2000):
        i, j = rng.sample(range(len(deck)), 2)
        if deck[i] == deck[j] or deck[i] in RED_THREES or deck[j] in RED_THREES:
            continue
        deck[i], deck[j] = deck[j], deck[i]
        other = replay(state, deck)
        if (other is not None and other.events != state.events
                and seat_sees_alike(mine, other.view(seat))):
            return other
        deck[i], deck[j] = deck[j], deck[i]
    raise AssertionError("no twin hand found")


_ATOMS = (int, float, str, bytes, bool, type(None))


def attributes(obj: object) -> list[str]:
    """Every attribute an object may hold: slots over its classes (pure Python), the
    attributes mypyc records for pickling (compiled), and its ``__dict__``."""
    names: list[str] = []
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
        names.extend(klass.__dict__.get("__mypyc_attrs__", ()))
    names.extend(getattr(obj, "__dict__", {}))
    return sorted({n for n in names if n not in ("__dict__", "__weakref__")})


def shape(obj: object, seen: dict[int, int] | None = None) -> Any:
    """Everything reachable from ``obj`` as plain nested data: atoms as themselves,
    ``("seq", type, items)``, ``("dict", pairs)``, and ``("obj", type, attributes)`` with
    every attribute set, private ones included; an object met twice is a back-reference
    (so cycles and sharing end)."""
    seen = {} if seen is None else seen
    if isinstance(obj, enum.Enum):
        return ("enum", type(obj).__qualname__, obj.value)
    if isinstance(obj, _ATOMS):
        return obj
    if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType, types.ModuleType)):
        return ("type", getattr(obj, "__qualname__", repr(obj)))
    if id(obj) in seen:
        return ("ref", seen[id(obj)])
    seen[id(obj)] = len(seen)
    if isinstance(obj, (tuple, list)):
        return ("seq", type(obj).__name__, [shape(v, seen) for v in obj])
    if isinstance(obj, dict):
        return ("dict", [(shape(k, seen), shape(v, seen)) for k, v in obj.items()])
    if isinstance(obj, (set, frozenset)):
        return ("set", sorted(repr(shape(v, seen)) for v in obj))
    out = []
    for name in attributes(obj):
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if callable(value) and not isinstance(value, type):
            value = ("method", name)  # a bound method, not data
        out.append((name, shape(value, seen)))
    return ("obj", type(obj).__qualname__, out)


def first_difference(a: Any, b: Any, path: str = "view") -> str | None:
    """The path of the first place two shapes differ (``None``: they are the same)."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1]
            and a[0] in ("seq", "dict", "obj")):
        return None if a == b else path
    if a[0] == "dict":
        if len(a[1]) != len(b[1]) or [k for k, _ in a[1]] != [k for k, _ in b[1]]:
            return f"{path} (keys)"
        for (k, x), (_, y) in zip(a[1], b[1], strict=True):
            got = first_difference(x, y, f"{path}[{k!r}]")
            if got is not None:
                return got
        return None
    if a[1] != b[1] or len(a[2]) != len(b[2]):
        return f"{path} (type or length)"
    for i, (x, y) in enumerate(zip(a[2], b[2], strict=True)):
        if a[0] == "obj":
            if x[0] != y[0]:
                return f"{path}.{x[0]}"
            got = first_difference(x[1], y[1], f"{path}.{x[0]}")
        else:
            got = first_difference(x, y, f"{path}[{i}]")
        if got is not None:
            return got
    return None


def check_secret(state: State, seat: int, rng: random.Random) -> None:
    other = twin(state, seat, rng)
    for name, (a, b) in {
        "live": (state.view(seat), other.view(seat)),
        "pickled": (pickle.loads(pickle.dumps(state.view(seat))),
                    pickle.loads(pickle.dumps(other.view(seat)))),
    }.items():
        for v in (a, b):  # the parts built when first read are built, as a bot would
            _ = (v.table, v.hand, v.known, v.legal_actions, v.events, v.seen_log())
        diff = first_difference(shape(a), shape(b))
        assert diff is None, f"{name}: {diff} holds a card seat {seat} did not see"
    assert pickle.dumps(state.view(seat)) == pickle.dumps(other.view(seat))
    # The environments' observation, read from the state without a view, is the same too.
    writer = ObservationWriter(state.rules.melds.canasta_size, state.players, len(state.teams))
    assert writer.encode_state(state, seat) == writer.encode_state(other, seat)
    # The check has teeth: the whole history beside the view tells the two hands apart.
    assert first_difference(shape((state.view(seat), state.event_log)),
                            shape((other.view(seat), other.event_log))) is not None


@pytest.mark.parametrize(("name", "opts", "players"), CONFIGS)
@pytest.mark.parametrize("steps", [0, 9, 40])
def test_a_view_holds_nothing_its_seat_did_not_see(name: str, opts: dict[str, str],
                                                   players: int, steps: int) -> None:
    state = play(name, opts, players, seed=7 + steps, steps=steps)
    rng = random.Random(steps)
    for seat in {0, state.actor}:
        check_secret(state, seat, rng)


def test_a_view_during_a_provisional_opening_holds_nothing_hidden() -> None:
    """The snapshot a ``retract`` returns to (with the draws since) is blanked as well."""
    for seed in range(40):
        state = State.deal(load_preset("international"), 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and not state.provisional:
            state.apply(rng.choice(state.legal_actions()))
        if state.provisional:
            check_secret(state, (state.current + 1) % 4, rng)
            check_secret(state, state.current, rng)
            return
    raise AssertionError("no provisional opening reached")


def test_a_pickled_view_is_the_view() -> None:
    """``pickle.loads(pickle.dumps(view))`` gives the same fields, table, events and samples,
    and a bot's incremental reading goes on from it."""
    state = play("international", {}, 4, seed=3, steps=30)
    view = state.view(1)
    again = pickle.loads(pickle.dumps(view))
    for name in VIEW_FIELDS:
        if name != "table":
            assert getattr(again, name) == getattr(view, name), name
    assert again.events == view.events
    assert again.sample_state(random.Random(2)).hands == view.sample_state(
        random.Random(2)).hands
    events, mark = again.events_since(None)
    assert events == view.events and mark is not None


def test_the_seats_copies_of_a_history_are_shared_and_hide_the_others_draws() -> None:
    """``seen_by`` keeps one copy per seat of each point: views of later states reuse it,
    and an onlooker's copy hides every draw."""
    state = play("international", {}, 4, seed=5, steps=25)
    first = state.view(2)
    state.apply(state.legal_actions()[0])
    later = state.view(2)
    new, _ = later.events_since(first.events_since(None)[1])
    assert new is not None and len(new) == len(state.events) - len(first.events)
    public = seen_by(state.event_log, -1)
    assert isinstance(public, EventLog)
    draws = [e for e in public.events() if isinstance(e, Drew)]
    assert draws and all(e.drawn is None for e in draws)
    assert seen_by(public, -1) is public
