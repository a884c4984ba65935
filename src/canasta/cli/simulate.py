"""`canasta simulate`: N hands between bots with a progress bar and a summary table
(:mod:`canasta.simulate` does the work)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from canasta.bots import BOTS
from canasta.cli.interrupt import EXIT_INTERRUPTED, StopOnInterrupt
from canasta.core.rules import RulesError, load_preset, parse_rule_args
from canasta.sim.simulate import SimStats, simulate


def default_bot() -> str:
    return "greedy" if "greedy" in BOTS else "random"


def summary_table(stats: SimStats) -> Table:
    """The summary of a run: per team and the hands' ends."""
    n = stats.hands_played
    done = stats.hands_played + stats.errors
    title = f"{done} hands of {stats.variant}, {stats.players} players (seed {stats.seed})"
    if stats.interrupted:
        title += f", interrupted: {done} of {stats.hands} played"
    tab = Table(title=title, title_justify="left",
                caption="Canastas: per hand played. Matches: matches won.",
                caption_justify="left")
    tab.add_column("Team")
    tab.add_column("Bots (seats)", no_wrap=True)
    tab.add_column("Hands won", justify="right")
    tab.add_column("Mean score", justify="right")
    tab.add_column("Canastas", justify="right")
    tab.add_column("Matches", justify="right")
    for t, seats in enumerate(stats.teams):
        kinds = {stats.bots[s] for s in seats}
        if len(kinds) == 1:
            who = f"{kinds.pop()} (seat{'s' if len(seats) > 1 else ''} "
            who += f"{', '.join(map(str, seats))})"
        else:
            who = ", ".join(f"{stats.bots[s]} ({s})" for s in seats)
        share = f" ({100 * stats.hand_wins[t] / n:.0f}%)" if n else ""
        tab.add_row(str(t), who, f"{stats.hand_wins[t]}{share}",
                    f"{stats.mean_scores[t]:.1f}",
                    f"{stats.canastas[t] / n:.2f}" if n else "-",
                    str(stats.match_wins[t]))
    return tab


def facts_table(stats: SimStats) -> Table:
    tab = Table(show_header=False, box=None, padding=(0, 2))
    tab.add_column()
    tab.add_column(justify="right")
    n = stats.hands_played
    tab.add_row("hands played", str(n))
    if stats.hand_ties:
        tab.add_row("hands tied", str(stats.hand_ties))
    for reason, count in stats.end_reasons.items():
        share = f"  ({100 * count / n:.1f}%)" if n else ""
        tab.add_row(f"ended: {reason.replace('_', ' ')}", f"{count}{share}")
        if reason == "went_out":
            tab.add_row("  of which concealed", str(stats.went_out_concealed))
    tab.add_row("mean actions per hand", f"{stats.mean_actions:.1f}")
    tab.add_row("mean turns per hand", f"{stats.mean_turns:.1f}")
    tab.add_row("canastas per hand (all teams)", f"{stats.canastas_per_hand:.2f}")
    tab.add_row("matches finished", str(stats.matches_finished))
    tab.add_row("errors", Text(str(stats.errors), style="bold red" if stats.errors else ""))
    rate = (stats.hands_played + stats.errors) / stats.seconds if stats.seconds else 0.0
    tab.add_row("time", f"{stats.seconds:.1f} s ({rate:.0f} hands/s)")
    return tab


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command("simulate")
    def simulate_cmd(
        n: Annotated[int, typer.Option("-n", "--hands", help="Hands to play.")] = 100,
        variant: Annotated[str, typer.Option(help="Rule set.")] = "international",
        bots: Annotated[str | None, typer.Option(
            help="Bots per seat in playing order, comma-separated (teams sit alternately: "
                 "with 4 players seats 0 and 2 are team 0); one name means every seat. "
                 "Default: greedy, else random.")] = None,
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", metavar="NAME=VALUE", help="House rule (repeatable).")] = None,
        players: Annotated[int, typer.Option(help="Players.")] = 4,
        seed: Annotated[int | None, typer.Option(
            help="Seed of the run (printed when drawn at random).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = (
            False),
    ) -> None:
        """Play N hands between bots (successive hands of matches) and sum them up.

        Ctrl-C stops after the hand in progress and sums up those played (exit status 130)."""
        console = Console(highlight=False)
        err = Console(stderr=True, highlight=False)
        try:
            rules = load_preset(variant, parse_rule_args(rule))
            if n < 1:
                raise ValueError("-n: play at least one hand")
            columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn())
            with StopOnInterrupt() as stop, \
                    Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task("hands", total=n)

                def advance(done: int) -> None:
                    bar.update(task, completed=done)

                stats = simulate(rules, n, bots or default_bot(), players=players, seed=seed,
                                 progress=advance, stop=stop)
        except (RulesError, ValueError) as exc:
            err.print(Text(f"Error: {exc}", style="bold red"), soft_wrap=True)
            raise typer.Exit(2) from None
        if as_json:
            print(json.dumps(stats.to_dict(), indent=1))
        else:
            console.print(summary_table(stats))
            console.print(facts_table(stats))
            for msg in stats.error_messages:
                console.print(Text(msg, style="red"))
        if stats.interrupted:
            err.print(f"Interrupted (Ctrl-C) after {stats.hands_played + stats.errors} of "
                      f"{stats.hands} hands: the figures above count those.")
            raise typer.Exit(EXIT_INTERRUPTED)
        if stats.errors:
            raise typer.Exit(1)
