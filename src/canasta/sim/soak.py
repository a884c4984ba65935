"""Soak benchmark: ``python -m canasta.sim.soak --hands N [--workers W] [--seed S]``.

Plays random and bot hands over every preset x player count x sampled house-rule combination
and checks DESIGN.md's invariants:

* after every action: each physical card is in one place (``State.card_locations()`` adds up
  to the deck, hand sizes agree) and a state that is not over has a legal action;
* every ``--every`` actions (default 10, from an offset that differs from case to case, so
  that over many hands every kind of state is checked; ``--every 1`` checks after each, at a
  fifth of the speed), and at the hand end: ``clone()`` is independent (playing on the clone
  leaves the original unchanged) and the position round trip (write, read back) gives the
  same legal actions and the same position;
* at each hand end: the score sheet equals ``canasta score`` of the hand result.

It prints the hands played per preset and player count and each break with the command that
reproduces it (``--case SEED:INDEX``). Hands are spread over ``--workers`` processes.

``--stock-end`` drives every hand to its longest instead of playing it with bots: each seat
draws and discards, melds now and then (one time in ten), asks its partner rarely and takes
the pile only once it has grown past a size drawn per hand (8 to 60 cards), so the hands run
to the end of the stock with huge hands and big piles. It also times every action (the
``legal_actions()`` it chooses from and the ``apply()``, in CPU time of the process so that
a busy machine does not inflate it; the checks are not timed) and prints the slowest, with
its case (an engine call is to stay within 50 ms).

Case ``i`` of seed ``S`` is drawn from ``random.Random(f"{S}:{i}")`` alone, so every case can
be replayed on its own.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from canasta.bots import Bot, make_bot
from canasta.core.actions import Action, AskPartner, Discard, Draw, LayOff, Meld, TakePile
from canasta.core.cards import NUM_CODES, make_deck
from canasta.core.data import FIELDS, Phase
from canasta.core.events import EndReason, HandEnded
from canasta.core.rules import PRESETS, Rules, load_preset, preset_options
from canasta.core.state import MisdealError, State
from canasta.formats.handresult import hand_result_from_dict, hand_result_of_state
from canasta.formats.position import position_to_dict, state_from_dict

#: A hand longer than this many actions is a break ("the hand does not end").
MAX_ACTIONS = 5000


@dataclass(frozen=True)
class Case:
    """One soak hand: the preset, its sampled options, the player count, the bots, the deal."""

    seed: int
    index: int
    preset: str
    options: tuple[tuple[str, str], ...]
    players: int
    bots: tuple[str, ...]
    deal_seed: int
    stock_end: bool = False  # driven to the end of the stock (the module docstring)

    @property
    def label(self) -> str:
        return f"{self.seed}:{self.index}"

    def describe(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options) or "(defaults)"
        who = "stock's end" if self.stock_end else f"bots={','.join(self.bots)}"
        return (f"{self.preset} {self.players}p {who} "
                f"deal_seed={self.deal_seed} options: {opts}")


@dataclass
class Outcome:
    """What one case gave: the actions played and, for a break, where and why."""

    case: Case
    actions: int = 0
    broke: str = ""
    step: int = -1
    slowest_ms: float = 0.0  # the slowest action: legal_actions() and apply()
    slowest_step: int = -1
    longest_hand: int = 0  # the most cards one seat held
    #: The hand ended by going out in a turn that began by taking the pile (seed 001's and
    #: seed 003's going out on the pile); ``out_no_discard``: and without a final discard.
    out_on_pile: bool = False
    out_no_discard: bool = False


def make_case(seed: int, index: int, bot_share: float = 0.25, stock_end: bool = False
              ) -> Case:
    """Case ``index`` of ``seed``: presets in turn; each named option of the preset set to a
    random choice half of the time; a random player count; each seat a greedy bot with
    probability ``bot_share``, else random (``stock_end``: the stock's-end driver instead)."""
    rng = random.Random(f"{seed}:{index}")
    preset = PRESETS[index % len(PRESETS)]
    chosen: dict[str, str] = {}
    for name, option in sorted(preset_options(preset).items()):
        if rng.random() < 0.5:
            chosen[name] = rng.choice(sorted(option.choices))
    rules = load_preset(preset, dict(chosen))
    players = rng.choice(sorted(rules.deal.player_counts))
    bots = tuple("greedy" if rng.random() < bot_share else "random" for _ in range(players))
    return Case(seed, index, preset, tuple(sorted(chosen.items())), players, bots,
                rng.getrandbits(63), stock_end)


def _deck_counts(rules: Rules, players: int) -> list[int]:
    counts = [0] * NUM_CODES
    for c in make_deck(rules.packs(players), rules.deal.jokers_per_pack):
        counts[c] += 1
    return counts


def check_cards(state: State, full: Sequence[int]) -> str:
    """'' when every physical card is in one place and hand sizes agree; else what is wrong."""
    totals = [0] * NUM_CODES
    for counts in state.card_locations().values():
        for c, k in enumerate(counts):
            if k < 0:
                return f"a negative count of card {c}"
            totals[c] += k
    if totals != list(full):
        diff = {c: totals[c] - full[c] for c in range(NUM_CODES) if totals[c] != full[c]}
        return f"cards not each in one place (code: extra) {diff}"
    for seat in range(state.players):
        if state.hand_size[seat] != sum(state.hands[seat]):
            return f"seat {seat}: hand size {state.hand_size[seat]} != {sum(state.hands[seat])}"
    return ""


def fingerprint(state: State) -> tuple[Any, ...]:
    """Every field of ``state`` as text (the retract snapshot's fingerprint nested), for
    comparing a state before and after something that must not change it."""
    out: list[Any] = []
    for name in FIELDS:  # not __slots__: the compiled (mypyc) class has no such attribute
        value = getattr(state, name, None)
        if name == "rules":
            continue
        if isinstance(value, State):
            out.append((name, fingerprint(value)))
        else:
            out.append((name, repr(value)))
    return tuple(out)


def check_clone(state: State, rng: random.Random) -> str:
    """'' when a clone equals the state and playing on the clone leaves the state unchanged."""
    before = fingerprint(state)
    twin = state.clone()
    if fingerprint(twin) != before:
        return "clone() differs from the state"
    for _ in range(3):
        if twin.is_over:
            break
        twin.apply(rng.choice(twin.legal_actions()))
    if fingerprint(state) != before:
        return "playing on a clone changed the original"
    return ""


def check_round_trip(state: State) -> str:
    """'' when the position read back from the state's position gives the same legal actions
    and writes the same position."""
    doc = position_to_dict(state)
    again = state_from_dict(doc, "soak position")
    if Counter(again.legal_actions()) != Counter(state.legal_actions()):
        return "the position read back has other legal actions"
    if position_to_dict(again) != doc:
        return "the position read back is not the position written"
    return ""


def check_score(state: State) -> str:
    """'' when ``state.score()`` equals the score of its hand result (``canasta score``)."""
    result = hand_result_from_dict(hand_result_of_state(state), "soak hand result")
    mine = [(s.team, s.items, s.hand_total, s.score_after) for s in state.score()]
    theirs = [(s.team, s.items, s.hand_total, s.score_after) for s in result.score()]
    if mine != theirs:
        return f"score sheet {mine} != canasta score {theirs}"
    return ""


class StockEnd:
    """The stock's-end driver: draws and discards, melds one time in ten, asks the partner
    one time in fifty, takes the pile once it holds ``threshold`` cards or more."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.threshold = rng.randrange(8, 61)

    def choose(self, state: State, actions: Sequence[Action]) -> Action:
        rng = self.rng
        if state.phase is Phase.DRAW:
            takes = [a for a in actions if isinstance(a, TakePile)]
            if takes and len(state.pile) >= self.threshold:
                return rng.choice(takes)
            for a in actions:
                if isinstance(a, Draw):
                    return a
            return rng.choice(list(actions))
        if state.phase is Phase.PLAY:
            melds = [a for a in actions if isinstance(a, (Meld, LayOff))]
            discards = [a for a in actions if isinstance(a, Discard)]
            asks = [a for a in actions if isinstance(a, AskPartner)]
            roll = rng.random()
            if asks and roll < 0.02:
                return asks[0]
            if melds and (roll < 0.1 or not discards):
                return rng.choice(melds)
            if discards:
                return rng.choice(discards)
        return rng.choice(list(actions))


def play_case(case: Case, every: int = 10) -> Outcome:
    """Play ``case`` with every check (the clone and position checks every ``every`` actions,
    from an offset that varies with the case, and at the end); a raised exception or a failed
    check is its break."""
    out = Outcome(case)
    try:
        _play(case, every, out)
    except Exception as exc:  # a break: reported with the case that reproduces it
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
        out.broke = f"{type(exc).__name__}: {exc} (at {where})"
    return out


def _play(case: Case, every: int, out: Outcome) -> None:
    rules = load_preset(case.preset, dict(case.options))
    rng = random.Random(case.deal_seed)
    try:
        state = State.deal(rules, case.players, seed=case.deal_seed, dealer=rng.randrange(
            case.players))
    except MisdealError:
        return  # seed 000's redeal: a legal outcome, not a hand
    bots: list[Bot] = [make_bot(name, rng.getrandbits(32)) for name in case.bots]
    driver = StockEnd(random.Random(rng.getrandbits(32))) if case.stock_end else None
    full = _deck_counts(rules, case.players)
    step = 0
    took_pile = False  # the turn under way began by taking the pile
    last: Action | None = None
    while True:
        out.step = step
        problem = check_cards(state, full)
        # CPU time of this process: a machine shared with other work does not inflate it.
        t0 = time.process_time()
        legal = state.legal_actions() if not state.is_over else []
        spent = time.process_time() - t0
        if not problem and not state.is_over and not legal:
            problem = "no legal action in a state that is not over"
        if not problem and (step % every == case.index % every or state.is_over):
            problem = check_clone(state, random.Random(step)) or check_round_trip(state)
        if problem:
            out.broke = problem
            return
        if state.is_over:
            end = state.events[-1]
            if took_pile and isinstance(end, HandEnded) and end.reason == EndReason.WENT_OUT:
                out.out_on_pile = True
                out.out_no_discard = not isinstance(last, Discard)
            break
        if step >= MAX_ACTIONS:
            out.broke = f"the hand did not end in {MAX_ACTIONS} actions"
            return
        out.longest_hand = max(out.longest_hand, state.hand_size[state.actor])
        if driver is not None:
            action = driver.choose(state, legal)
        else:
            action = bots[state.actor].choose(state.view(state.actor))
        if state.phase is Phase.DRAW:
            took_pile = isinstance(action, TakePile)
        t0 = time.process_time()
        state.apply(action)
        spent += time.process_time() - t0
        last = action
        if spent * 1000 > out.slowest_ms:
            out.slowest_ms, out.slowest_step = spent * 1000, step
        step += 1
        out.actions = step
    out.broke = check_score(state)


def _run_chunk(args: tuple[int, list[int], int, bool]) -> list[Outcome]:
    seed, indexes, every, stock_end = args
    return [play_case(make_case(seed, i, stock_end=stock_end), every) for i in indexes]


@dataclass
class Report:
    """Hands played per (preset, players), actions, breaks, time."""

    hands: Counter[tuple[str, int]] = field(default_factory=Counter)
    actions: int = 0
    breaks: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    lost: list[str] = field(default_factory=list)  # cases of a worker process that died
    slowest: Outcome | None = None  # the hand with the slowest action
    longest_hand: int = 0
    out_on_pile: int = 0  # hands gone out in a turn that began by taking the pile
    out_no_discard: int = 0  # of them, without a final discard

    def add(self, outcome: Outcome) -> None:
        self.hands[(outcome.case.preset, outcome.case.players)] += 1
        self.out_on_pile += outcome.out_on_pile
        self.out_no_discard += outcome.out_no_discard
        self.actions += outcome.actions
        self.longest_hand = max(self.longest_hand, outcome.longest_hand)
        if self.slowest is None or outcome.slowest_ms > self.slowest.slowest_ms:
            self.slowest = outcome
        if outcome.broke:
            self.breaks.append(outcome)

    def text(self) -> str:
        lines = ["preset            players   hands"]
        for (preset, players), n in sorted(self.hands.items()):
            lines.append(f"{preset:<17} {players:>7} {n:>7}")
        total = sum(self.hands.values())
        rate = total / self.seconds if self.seconds else 0.0
        lines.append(f"hands {total}, actions {self.actions}, breaks {len(self.breaks)}, "
                     f"{self.seconds:.1f} s ({rate:.1f} hands/s)")
        lines.append(f"gone out in a turn begun by taking the pile: {self.out_on_pile} hands "
                     f"({self.out_no_discard} of them without a final discard)")
        if self.slowest is not None:
            b = self.slowest
            lines.append(f"slowest action {b.slowest_ms:.1f} ms (legal_actions + apply; case "
                         f"{b.case.label} action {b.slowest_step}); most cards in one hand "
                         f"{self.longest_hand}")
        if self.lost:
            lines.append(f"LOST {len(self.lost)} hands: a worker process died (cases "
                         f"{self.lost[0]} .. {self.lost[-1]} not all played)")
        for b in self.breaks:
            lines.append(f"BREAK case {b.case.label} at action {b.step}: {b.broke}")
            lines.append(f"  {b.case.describe()}")
            lines.append(f"  reproduce: python -m canasta.sim.soak --case {b.case.label}")
        return "\n".join(lines)


def soak(hands: int, seed: int = 0, workers: int = 2, every: int = 10, start: int = 0,
         chunk: int = 20, progress: Callable[[Report], None] | None = None,
         stock_end: bool = False) -> Report:
    """Play cases ``start .. start + hands - 1`` of ``seed`` over ``workers`` processes
    (1: in this process) and return the :class:`Report`. ``progress`` is called with the
    report so far after each chunk of ``chunk`` cases; ``stock_end``: the stock's-end mode
    (module docstring).

    A worker process that dies (killed, or a crash of the interpreter) does not hang the
    run: the cases it held, and those not yet started, are counted in ``Report.lost`` (a
    ``multiprocessing.Pool`` waits forever for the tasks of a dead worker)."""
    report = Report()
    t0 = time.perf_counter()
    indexes = list(range(start, start + hands))
    chunks = [(seed, indexes[i:i + chunk], every, stock_end)
              for i in range(0, len(indexes), chunk)]

    def done(outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            report.add(outcome)
        report.seconds = time.perf_counter() - t0
        if progress is not None:
            progress(report)

    if workers <= 1:
        for c in chunks:
            done(_run_chunk(c))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = {pool.submit(_run_chunk, c): c for c in chunks}
            for future in as_completed(futures):
                try:
                    done(future.result())
                except BrokenProcessPool:
                    report.lost.extend(f"{seed}:{i}" for i in futures[future][1])
    report.seconds = time.perf_counter() - t0
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m canasta.sim.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200, help="hands to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cases (default 0)")
    parser.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    parser.add_argument("--workers", type=int, default=max(1, multiprocessing.cpu_count()),
                        help="processes (default: one per core)")
    parser.add_argument("--every", type=int, default=10,
                        help="clone and position checks every N actions (default 10)")
    parser.add_argument("--case", help="replay one case SEED:INDEX and print its result")
    parser.add_argument("--stock-end", action="store_true",
                        help="drive every hand to the end of the stock (draw, discard, big "
                             "piles taken) and time every action")
    args = parser.parse_args(argv)
    if args.every < 1 or args.hands < 0 or args.workers < 1:
        parser.error("--every and --workers must be at least 1, --hands at least 0")
    if args.case:
        seed_text, _, index_text = args.case.partition(":")
        case = make_case(int(seed_text), int(index_text), stock_end=args.stock_end)
        outcome = play_case(case, args.every)
        print(case.describe())
        print(f"actions {outcome.actions}: " + (f"BREAK at action {outcome.step}: "
                                                 f"{outcome.broke}" if outcome.broke else "ok"))
        print(f"slowest action {outcome.slowest_ms:.1f} ms (action {outcome.slowest_step}), "
              f"most cards in one hand {outcome.longest_hand}")
        return 1 if outcome.broke else 0
    shown = 0  # breaks already printed: each is printed as soon as it is found

    def progress(r: Report) -> None:
        nonlocal shown
        for b in r.breaks[shown:]:
            print(f"soak: BREAK case {b.case.label} at action {b.step}: {b.broke}",
                  file=sys.stderr, flush=True)
        shown = len(r.breaks)
        played = sum(r.hands.values())
        if played % 1000 < 20 or played == args.hands or (
                args.stock_end and played % 100 < 20):  # about every thousand hands
            slow = (f", slowest action {r.slowest.slowest_ms:.1f} ms (case "
                    f"{r.slowest.case.label})" if r.slowest is not None else "")
            print(f"soak: {played}/{args.hands} hands, {len(r.breaks)} breaks, "
                  f"{r.seconds:.0f} s{slow}", file=sys.stderr, flush=True)

    try:
        report = soak(args.hands, args.seed, args.workers, args.every, args.start,
                      progress=progress, stock_end=args.stock_end)
    except KeyboardInterrupt:
        # Stopped early (Ctrl-C, or SIGINT from a time limit): the progress lines above
        # hold the hands played so far, their breaks and the slowest action.
        print("soak: interrupted", file=sys.stderr, flush=True)
        return 130
    print(report.text())
    return 1 if report.breaks or report.lost else 0


if __name__ == "__main__":
    sys.exit(main())
