"""`canasta tournament`: a round-robin duplicate tournament between bots, with a progress bar,
the pairings' win rates with 95% intervals, openskill ratings, ``--json`` and ``--plot``
(:mod:`canasta.sim.tournament` does the work; texts from :mod:`canasta.i18n`)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from canasta.cli.interrupt import EXIT_INTERRUPTED, StopOnInterrupt
from canasta.cli.options import check_lang, check_save_path
from canasta.core.rules import RulesError, load_preset, parse_rule_args
from canasta.i18n import languages, resolve_lang, t
from canasta.sim.duplicate import DuplicateSetup
from canasta.sim.tournament import (
    TournamentResult,
    default_workers,
    run_tournament,
    split_bot_specs,
)


def pairings_table(res: TournamentResult, lang: str) -> Table:
    """One row per pairing: deal pairs won, tied, *a*'s win rate and its 95% interval."""
    tab = Table(title=t("tournament.title", lang, variant=res.variant, players=res.players,
                        deals=res.deals, seed=res.seed,
                        unit=t("tournament.unit_match" if res.match else "tournament.unit_hand",
                               lang)),
                title_justify="left", caption=t("tournament.caption", lang),
                caption_justify="left")
    tab.add_column(t("tournament.col.pairing", lang), overflow="fold", ratio=1)
    for key in ("record", "a_win_rate", "ci95", "mean_diff"):
        # Numbers never wrap; long bot specs fold onto a second line instead.
        tab.add_column(t(f"tournament.col.{key}", lang), justify="right", no_wrap=True)
    for p in res.pairings:
        lo, hi = p.ci95
        style = "bold green" if lo > 0.5 else "bold red" if hi < 0.5 else ""
        tab.add_row(f"{p.a} – {p.b}", f"{p.a_wins}–{p.b_wins}–{p.ties}",
                    Text(f"{100 * p.a_win_rate:.1f}%", style=style),
                    f"{100 * lo:.1f}–{100 * hi:.1f}%", f"{p.mean_diff:+.0f}")
    return tab


def ratings_table(res: TournamentResult, lang: str) -> Table:
    """The bots ranked by μ − 3σ."""
    tab = Table(title=t("tournament.ratings", lang), title_justify="left")
    for key in ("rank", "bot", "mu", "sigma", "ordinal"):
        tab.add_column(t(f"tournament.col.{key}", lang),
                       justify="left" if key == "bot" else "right")
    for i, r in enumerate(res.ratings, 1):
        tab.add_row(str(i), r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}")
    return tab


def plot_ratings(res: TournamentResult, path: Path, lang: str) -> None:
    """Draw each bot's μ with a bar of ±3σ to ``path`` (PNG; matplotlib, the ``tournament``
    extra), best bot on top.

    Raises:
        ImportError: matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("--plot needs matplotlib: pip install 'canasta[tournament]'") from exc
    ratings = list(reversed(res.ratings))
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(ratings)))
    ys = range(len(ratings))
    ax.errorbar([r.mu for r in ratings], list(ys), xerr=[3 * r.sigma for r in ratings],
                fmt="o", capsize=4)
    ax.set_yticks(list(ys), [r.bot for r in ratings])
    ax.set_ylim(-0.6, len(ratings) - 0.4)
    ax.set_xlabel(t("tournament.plot_x", lang))
    ax.set_title(t("tournament.plot_title", lang, variant=res.variant, players=res.players,
                   deals=res.deals))
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command("tournament")
    def tournament_cmd(
        bots: Annotated[str, typer.Option(
            help="Two or more bots, comma-separated (bot specs: greedy,random or "
                 "expert:time=0.5,playout=hard,hard:seed=3; a key=value piece belongs to the "
                 "bot before it).")],
        variant: Annotated[str, typer.Option(help="Rule set.")] = "international",
        players: Annotated[int, typer.Option(help="Players.")] = 4,
        deals: Annotated[int, typer.Option(help="Deal pairs per pairing.")] = 100,
        workers: Annotated[int | None, typer.Option(
            help="Local worker processes (default: the CPUs available); with --ray, the CPUs "
                 "of a local Ray instance.")] = None,
        ray: Annotated[str | None, typer.Option(
            "--ray", metavar="local|auto|ADDRESS",
            help="Run on Ray (the ray extra): 'local' starts a local instance, 'auto' joins the "
                 "running cluster, or a cluster address.")] = None,
        json_file: Annotated[Path | None, typer.Option(
            "--json", callback=check_save_path,
            help="Write the results as JSON to this file.")] = None,
        plot: Annotated[Path | None, typer.Option(
            callback=check_save_path,
            help="Draw the ratings with their intervals to this PNG file.")] = None,
        seed: Annotated[int | None, typer.Option(
            help="Seed of the deals and bots (printed when drawn at random).")] = None,
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", metavar="NAME=VALUE", help="House rule (repeatable).")] = None,
        team_size: Annotated[int | None, typer.Option(
            help="Players per team (6 players: 3, or 2 for three pairs).")] = None,
        match: Annotated[bool, typer.Option(
            "--match", help="A deal is a whole match, not one hand.")] = False,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the output: " + ", ".join(languages()) + ".")] = "en",
    ) -> None:
        """Round-robin duplicate tournament between bots: win rates and openskill ratings.

        Every pair of bots plays the same deals with the sides swapped (95% intervals).

        Ctrl-C stops after the deal pairs in progress and shows those (exit status 130)."""
        lang = resolve_lang(lang)
        console = Console(highlight=False)
        err = Console(stderr=True, highlight=False)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        n_workers = workers if workers is not None else default_workers()
        try:
            rules = load_preset(variant, parse_rule_args(rule))
            setup = DuplicateSetup(rules, players, seed=seed, team_size=team_size,
                                   match=match)
            columns = (TextColumn(t("tournament.progress", lang)), BarColumn(),
                       MofNCompleteColumn(), TextColumn(t("tournament.games", lang)),
                       TimeElapsedColumn(), TimeRemainingColumn())
            total_games = 0
            with StopOnInterrupt() as stop, \
                    Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task("games", total=None)

                def advance(done: int, total: int) -> None:
                    nonlocal total_games
                    total_games = total
                    bar.update(task, completed=done, total=total)

                res = run_tournament(setup, split_bot_specs(bots), deals, workers=n_workers,
                                     ray=ray, progress=advance, stop=stop)
        except (RulesError, ValueError, ImportError, RuntimeError) as exc:
            err.print(Text(t("tournament.error", lang, message=str(exc)), style="bold red"),
                      soft_wrap=True)
            raise typer.Exit(2) from None
        if res.interrupted and not res.pairings:
            err.print(t("tournament.interrupted_empty", lang))
            raise typer.Exit(EXIT_INTERRUPTED)
        console.print(pairings_table(res, lang))
        console.print(ratings_table(res, lang))
        where = (t("tournament.where_ray", lang) if res.where == "ray"
                 else t("tournament.where_this", lang) if res.where == "this process"
                 else t("tournament.where_local", lang, n=res.processes))
        console.print(t("tournament.time", lang, games=res.games, hands=res.hands,
                        seconds=f"{res.seconds:.1f}", where=where))
        if json_file is not None:
            json_file.write_text(json.dumps(res.to_json(), indent=1) + "\n", encoding="utf-8")
            console.print(t("tournament.saved", lang, path=str(json_file)))
        if plot is not None:
            try:
                plot_ratings(res, plot, lang)
            except ImportError as exc:
                err.print(Text(t("tournament.error", lang, message=str(exc)),
                               style="bold red"), soft_wrap=True)
                raise typer.Exit(2) from None
            console.print(t("tournament.saved", lang, path=str(plot)))
        if res.interrupted:
            err.print(t("tournament.interrupted", lang, games=res.games, total=total_games))
            raise typer.Exit(EXIT_INTERRUPTED)
