"""The compiled core (mypyc, built by setup.py where a C compiler exists) and the pure-Python
core (``CANASTA_PURE=1``) play identically: the same seeded random hands give
the same legal actions at every step, the same score sheets and the same going-out plans."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import canasta.core

SCRIPT = """
import hashlib, json, random, sys
import canasta.core
from canasta import State, load_preset
digest = hashlib.sha256()
for name in ("international", "canastone", "classic_italian", "brazilian", "romanian"):
    rules = load_preset(name)
    for seed in range(3):
        try:
            s = State.deal(rules, 4, seed=seed)
        except Exception as exc:
            digest.update(type(exc).__name__.encode())
            continue
        rng = random.Random(seed)
        while not s.is_over:
            actions = s.legal_actions()
            digest.update(repr(actions).encode())
            plan = s.going_out_plan()
            digest.update(repr(plan).encode())
            s.apply(rng.choice(actions))
        digest.update(repr([sheet.hand_total for sheet in s.score()]).encode())
print(json.dumps([canasta.core.COMPILED, digest.hexdigest()]))
"""


def run(pure: bool, script: str = SCRIPT) -> tuple[bool, str]:
    """Run ``script`` in a fresh interpreter, on the pure-Python core or the default one; it
    prints ``[COMPILED, digest]`` last."""
    env = dict(os.environ)
    env.pop("CANASTA_PURE", None)
    if pure:
        env["CANASTA_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True).stdout
    compiled, digest = json.loads(out.strip().splitlines()[-1])
    return bool(compiled), str(digest)


def test_pure_switch_imports_the_sources() -> None:
    """``CANASTA_PURE=1`` imports the ``.py`` sources, compiled modules or not."""
    compiled, _ = run(pure=True)
    assert compiled is False


def test_compiled_and_pure_cores_play_the_same() -> None:
    default_compiled, default_digest = run(pure=False)
    _, pure_digest = run(pure=True)
    assert default_digest == pure_digest
    if os.environ.get("CANASTA_PURE", "") in ("", "0"):
        assert default_compiled == canasta.core.COMPILED
    assert hashlib.sha256(b"").hexdigest() != pure_digest


def test_actions_copy_and_pickle_as_values() -> None:
    """Actions are values in both cores (``actions`` is not compiled: setup.py): a copy and a
    pickled action are equal to it."""
    import copy
    import pickle

    from canasta import (
        Answer,
        AskPartner,
        Discard,
        Draw,
        EndHand,
        LayOff,
        Meld,
        Retract,
        TakePile,
    )

    for action in (Draw(), TakePile((0, 1)), TakePile(), Meld((0, 1, 52)), LayOff(1, (2,)),
                   Discard(5), AskPartner(), Answer(True), Retract(), EndHand()):
        assert copy.deepcopy(action) == action and copy.copy(action) == action
        assert copy.deepcopy([action])[0] == action
        back = pickle.loads(pickle.dumps(action))
        assert back == action and type(back) is type(action)


def test_stale_compiled_core_falls_back_to_the_sources(tmp_path: object) -> None:
    """In a source checkout, a compiled core older than an edited source is not used: the
    sources run, with a warning (else edits to the core would silently not count)."""
    import shutil
    from pathlib import Path

    src = Path(canasta.core.__file__).resolve().parents[1]
    folder = Path(str(tmp_path)) / "checkout"
    shutil.copytree(src, folder / "canasta")
    core = folder / "canasta" / "core"
    lib = [p for p in core.iterdir() if p.name.startswith("_compiled__mypyc.")]
    script = "import canasta.core as c; print(c.COMPILED)"
    env = {k: v for k, v in os.environ.items() if k != "CANASTA_PURE"}
    env["PYTHONPATH"] = str(folder)
    if lib:
        fresh = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                               text=True, check=True, cwd=folder)
        assert fresh.stdout.strip() == "True" and "older" not in fresh.stderr
    later = lib[0].stat().st_mtime + 60 if lib else (core / "state.py").stat().st_mtime
    os.utime(core / "state.py", (later, later))
    run_ = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, check=True, cwd=folder)
    assert run_.stdout.strip() == "False"
    if lib:
        assert "older than state.py" in run_.stderr
