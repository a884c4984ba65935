"""Checks of option values shared by the commands: a value the command cannot honour is
refused with one line naming the option and what it accepts, never silently replaced."""

from __future__ import annotations

from pathlib import Path

import typer

from canasta.i18n import languages, resolve_lang

__all__ = ["check_lang", "check_save_path"]


def check_lang(value: str) -> str:
    """The ``--lang`` callback: the catalogue language of ``value`` (``it``, ``it-IT`` and
    ``it_IT`` give ``it``).

    Raises:
        typer.BadParameter: no catalogue for it (``de``): the message lists those there are.
    """
    code = resolve_lang(value)
    tag = value.replace("_", "-").lower()
    if code != tag and code != tag.split("-")[0]:
        raise typer.BadParameter(
            f"'{value}' is not one of the languages: {', '.join(languages())}")
    return code


def check_save_path(path: Path | None) -> Path | None:
    """The ``--save`` callback: a file, not a folder.

    Raises:
        typer.BadParameter: ``path`` is a folder (the message suggests a file in it).
    """
    if path is not None and path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; name a file, such as "
                                 f"{path / 'match.json'}")
    return path
