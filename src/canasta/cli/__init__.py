"""The ``canasta`` command line (Typer + Rich). Each command group lives in its own module
and registers itself on :data:`app`; no module here holds a rule of the game."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="canasta",
    help="Canasta: play, simulate, score and replay the five seed variants.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        import canasta
        from canasta.core import COMPILED

        typer.echo(f"canasta {canasta.__version__} "
                   f"({'compiled' if COMPILED else 'pure-Python'} core)")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version (and whether the core is compiled) and exit.")] = False,
) -> None:
    """Canasta: play, simulate, score and replay the five seed variants."""


def _register() -> None:
    from canasta.cli import (
        bots_cmd,
        hint,
        play,
        profile,
        replay,
        review,
        rules_cmd,
        score,
        serve,
        simulate,
        tournament,
    )

    for module in (play, simulate, tournament, bots_cmd, rules_cmd, score, replay, review, serve,
                   hint, profile):
        module.register(app)


def main() -> None:
    """Entry point of the ``canasta`` script."""
    _register()
    app()
