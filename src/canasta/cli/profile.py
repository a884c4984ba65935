"""The local profile: one line of JSON per match finished at ``canasta play`` (``--no-profile``
leaves it out), and ``canasta stats``, the wins and losses it sums up by variant and by the
opponents' level.

The file lives where the platform keeps a user's data (``$XDG_DATA_HOME/canasta`` or
``~/.local/share/canasta`` on Linux, ``~/Library/Application Support/canasta`` on macOS,
``%APPDATA%\\canasta`` on Windows); ``CANASTA_PROFILE`` names another file. A line that does not
read (a file edited by hand, a newer version) is skipped, never fatal.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from canasta.cli.options import check_lang
from canasta.i18n import languages, t, variant_name

__all__ = ["MatchEntry", "Summary", "entry_of", "profile_path", "read_profile", "record",
           "register", "summarise"]


def profile_path() -> Path:
    """The profile file: ``CANASTA_PROFILE``, or ``profile.jsonl`` in the platform's place
    for a user's data (see the module docstring)."""
    named = os.environ.get("CANASTA_PROFILE")
    if named:
        return Path(named)
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "canasta" / "profile.jsonl"


@dataclass(frozen=True)
class MatchEntry:
    """One finished match, as the person at seat 0 played it.

    Attributes:
        when: the end, ``YYYY-MM-DD HH:MM`` local time.
        variant / players: the rules and the table.
        opponents: the opponents' bot specs, joined (``medium``, or ``easy+hard``).
        hands: hands played; ``ours`` / ``theirs``: the final scores of the person's side
            and the best other side's; ``won``: the person's side won.
    """

    when: str
    variant: str
    players: int
    opponents: str
    hands: int
    ours: int
    theirs: int
    won: bool

    def to_json(self) -> dict[str, Any]:
        return {"when": self.when, "variant": self.variant, "players": self.players,
                "opponents": self.opponents, "hands": self.hands, "ours": self.ours,
                "theirs": self.theirs, "won": self.won}


def entry_of(match: Any, kinds: list[str], human: int = 0) -> MatchEntry:
    """The entry of a finished match (:class:`canasta.core.match.Match`, ``winner`` set)
    whose seats are played by ``kinds`` (bot specs; the person's is ignored)."""
    team = next(i for i, seats in enumerate(match.teams) if human in seats)
    others = sorted({kinds[s] for i, seats in enumerate(match.teams) if i != team
                     for s in seats if kinds[s]})
    scores = list(match.scores)
    theirs = max((v for i, v in enumerate(scores) if i != team), default=0)
    return MatchEntry(time.strftime("%Y-%m-%d %H:%M"), match.rules.name, match.players,
                      "+".join(others) or "-", len(match.hands), scores[team], theirs,
                      match.winner == team)


def record(entry: MatchEntry, path: Path | None = None) -> Path:
    """Append ``entry`` to the profile; the file written.

    Raises:
        OSError: the file cannot be written.
    """
    where = path or profile_path()
    where.parent.mkdir(parents=True, exist_ok=True)
    with where.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry.to_json(), ensure_ascii=False) + "\n")
    return where


def read_profile(path: Path | None = None) -> list[MatchEntry]:
    """The entries of the profile (none when it does not exist); lines that do not read are
    skipped."""
    where = path or profile_path()
    try:
        lines = where.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in lines:
        try:
            d = json.loads(line)
            out.append(MatchEntry(str(d["when"]), str(d["variant"]), int(d["players"]),
                                  str(d["opponents"]), int(d["hands"]), int(d["ours"]),
                                  int(d["theirs"]), bool(d["won"])))
        except (ValueError, KeyError, TypeError):
            continue
    return out


@dataclass
class Summary:
    """Matches won and lost, hands, and the mean final scores of a group of entries."""

    matches: int = 0
    won: int = 0
    hands: int = 0
    ours: int = 0
    theirs: int = 0
    last: str = ""
    entries: list[MatchEntry] = field(default_factory=list, repr=False)

    def add(self, e: MatchEntry) -> None:
        self.matches += 1
        self.won += e.won
        self.hands += e.hands
        self.ours += e.ours
        self.theirs += e.theirs
        self.last = max(self.last, e.when)

    def to_json(self) -> dict[str, Any]:
        n = self.matches or 1
        return {"matches": self.matches, "won": self.won, "lost": self.matches - self.won,
                "hands": self.hands, "mean_ours": self.ours / n, "mean_theirs": self.theirs / n,
                "last": self.last}


def summarise(entries: Iterable[MatchEntry]) -> dict[str, dict[str, Summary]]:
    """``{"all": {"": …}, "variant": {name: …}, "opponents": {spec: …}}``."""
    out: dict[str, dict[str, Summary]] = {"all": {}, "variant": {}, "opponents": {}}
    for e in entries:
        for group, key in (("all", ""), ("variant", e.variant), ("opponents", e.opponents)):
            out[group].setdefault(key, Summary()).add(e)
    return out


def _table(title: str, rows: dict[str, Summary], lang: str, name: Any) -> Table:
    tab = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    tab.add_column("", no_wrap=True)  # what the row counts: all, a variant, a level
    for key in ("matches", "won", "lost", "hands", "ours"):
        tab.add_column(t(f"stats.col.{key}", lang), justify="right", no_wrap=True)
    for key, s in sorted(rows.items(), key=lambda kv: -kv[1].matches):
        n = s.matches or 1
        tab.add_row(name(key), str(s.matches), f"{s.won} ({100 * s.won / n:.0f}%)",
                    str(s.matches - s.won), str(s.hands),
                    f"{s.ours / n:.0f} – {s.theirs / n:.0f}")
    return tab


def register(app: typer.Typer) -> None:
    """Add ``canasta stats`` to ``app``."""

    @app.command("stats")
    def stats_cmd(
        as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = (
            False),
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language: " + ", ".join(languages()) + ".")] = "en",
    ) -> None:
        """Your matches at canasta play: won and lost, by variant and by opponents' level."""
        path = profile_path()
        entries = read_profile(path)
        groups = summarise(entries)
        if as_json:
            print(json.dumps({"profile": str(path),
                              **{g: {k: s.to_json() for k, s in rows.items()}
                                 for g, rows in groups.items()}}, indent=1))
            return
        console = Console(highlight=False)
        if not entries:
            console.print(t("stats.empty", lang, path=path))
            return
        console.print(_table(t("stats.title", lang, path=path), groups["all"], lang,
                             lambda _: t("stats.all", lang)))
        console.print(_table(t("stats.by_variant", lang), groups["variant"], lang,
                             lambda k: variant_name(k, lang)))
        console.print(_table(t("stats.by_opponents", lang), groups["opponents"], lang,
                             lambda k: k))
        console.print(t("stats.caption", lang), style="dim")
