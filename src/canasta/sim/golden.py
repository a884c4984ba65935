"""Golden transcripts: one seeded hand per preset and player count, written out as text.

``python -m canasta.sim.golden --write [FOLDER]`` writes them (default ``tests/golden``);
``python -m canasta.sim.golden --check [FOLDER]`` compares them with what the engine plays now
and prints a unified diff of the first one that differs (exit 1). The suite runs the check
(``tests/test_golden.py``): a change that alters play, the legal actions, the events or the
score shows as a diff of these files, in the manner of OpenSpiel's playthroughs and
python-chess's perft files; a change meant to alter them is committed with the files written
anew by ``--write``.

A transcript holds, for every decision of the hand: the seat to act, the phase, the stock and
pile sizes, every legal action (as text, sorted, so that an order change alone shows
nothing), the action played, and the events it caused (their JSON form, ``formats``); then the
score sheets. The actions are chosen by :func:`choose`, a seeded policy written here (not a
bot), so that a change to the bots never changes a transcript: it prefers melds, lay-offs and
taking the pile to drawing, so hands reach their end by going out as often as by the stock.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from canasta.core.actions import Action, AskPartner, Discard, LayOff, Meld, Retract, TakePile
from canasta.core.rules import PRESETS, load_preset
from canasta.core.state import State
from canasta.formats.eventjson import event_to_json

#: The deal seed of every transcript.
SEED = 2026
#: Decisions after which a transcript stops (a safety bound; no hand reaches it).
MAX_DECISIONS = 2000

_WEIGHT: dict[type, float] = {Meld: 8.0, LayOff: 8.0, TakePile: 6.0, AskPartner: 2.0,
                              Retract: 0.1}


def choose(actions: Sequence[Action], rng: random.Random, retracted: bool = False) -> Action:
    """A seeded choice among ``actions`` (in the engine's order): melds and lay-offs weigh
    8, a take of the pile 6, asking the partner 2, a retract 0.1, anything else 1 (so each
    discard is as likely as a draw). After a retract in the same turn (``retracted``) no
    meld or lay-off is chosen where anything else is legal: a turn of melds and retracts
    can go on without end (each retract only raises the minimum)."""
    pool = list(actions)
    if retracted:
        pool = [a for a in pool if not isinstance(a, Meld | LayOff)] or pool
    weights = [_WEIGHT.get(type(a), 1.0) for a in pool]
    return rng.choices(pool, weights)[0]


def _events(events: Sequence[object]) -> Iterator[str]:
    for e in events:
        yield "  event " + json.dumps(event_to_json(e), sort_keys=True,  # type: ignore[arg-type]
                                      ensure_ascii=False, separators=(",", ":"))


def transcript(variant: str, players: int, seed: int = SEED) -> str:
    """The transcript of the hand dealt with ``seed`` for ``players`` under the preset
    ``variant`` (the format in the module docstring), ending with a newline.

    Raises:
        KeyError: no such preset. canasta.core.rules.RulesError: the preset does not allow
        ``players``.
    """
    rules = load_preset(variant)
    state = State.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    lines = [f"# golden transcript: {variant}, {players} players, deal seed {seed}",
             "# written by: python -m canasta.sim.golden --write"]
    lines.extend(_events(state.events))
    seen = len(state.events)
    step = 0
    retracted = False
    while not state.is_over and step < MAX_DECISIONS:
        seat = state.actor
        legal = state.legal_actions()
        lines.append(f"step {step} seat {state.actor} phase {state.phase.name} "
                     f"stock {len(state.stock)} pile {len(state.pile)}")
        lines.append(f"  legal {len(legal)}: " + " | ".join(sorted(a.text() for a in legal)))
        action = choose(legal, rng, retracted)
        lines.append(f"  play {action.text()}")
        state.apply(action)
        retracted = (retracted or isinstance(action, Retract)) and state.actor == seat \
            and not isinstance(action, Discard)
        lines.extend(_events(state.events[seen:]))
        seen = len(state.events)
        step += 1
    if state.is_over:
        for sheet in state.score():
            lines.append(f"score team {sheet.team}: {sheet.hand_total} "
                         + json.dumps(sheet.to_dict(), sort_keys=True, ensure_ascii=False,
                                      separators=(",", ":")))
    else:
        lines.append(f"stopped after {MAX_DECISIONS} decisions")
    return "\n".join(lines) + "\n"


def cases() -> list[tuple[str, int]]:
    """Every (preset, player count) the presets allow, in a fixed order."""
    return [(v, n) for v in sorted(PRESETS) for n in load_preset(v).deal.player_counts]


def file_name(variant: str, players: int) -> str:
    return f"{variant}_{players}p.txt"


def check(folder: Path) -> str | None:
    """None when every transcript in ``folder`` is what the engine plays now, else the
    unified diff of the first that is not (or the name of the missing file)."""
    for variant, players in cases():
        path = folder / file_name(variant, players)
        if not path.is_file():
            return f"{path}: missing (python -m canasta.sim.golden --write {folder})"
        want = path.read_text(encoding="utf-8")
        got = transcript(variant, players)
        if got != want:
            diff = difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                        str(path), "now", n=2)
            return "".join(list(diff)[:200])
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m canasta.sim.golden", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write the transcripts anew")
    mode.add_argument("--check", action="store_true", help="compare; print the first diff")
    parser.add_argument("folder", nargs="?", default="tests/golden", type=Path)
    args = parser.parse_args(argv)
    if args.write:
        args.folder.mkdir(parents=True, exist_ok=True)
        for variant, players in cases():
            path = args.folder / file_name(variant, players)
            path.write_text(transcript(variant, players), encoding="utf-8")
            print(f"wrote {path}")
        return 0
    problem = check(args.folder)
    if problem:
        print(problem)
        return 1
    print(f"{len(cases())} transcripts match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
