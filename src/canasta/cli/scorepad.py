"""``canasta score --interactive``: the scorepad of a real table. It asks a hand at a time, a
team at a time, as a scorekeeper would enter it, keeps the match sheet across hands (saved
after every hand, reopened, lines fixed by number), and scores each hand with the same reader
and scoring code as ``canasta score FILE``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from canasta import i18n
from canasta.cli.sheets import print_sheets
from canasta.core.cards import CardParseError, card_text, parse_cards
from canasta.core.rules import Rules, RulesError, load_preset
from canasta.formats.handresult import (
    CUSTOM,
    HandResult,
    HandResultError,
    hand_result_from_dict,
    penalty_catalogue,
)

Reader = Callable[[str], str]
#: Answers read as yes or no in any of the catalogues' languages.
YES = frozenset({"y", "yes", "s", "si", "sì", "d", "da", "sim"})
NO = frozenset({"n", "no", "nu", "não", "nao"})

#: The ``format`` of a saved match sheet (``canasta score --interactive --sheet FILE``).
SHEET_FORMAT = "canasta-match-sheet"


class _Stop(Exception):
    """The scorekeeper ended the session (end of input or `quit`; ``interrupted``: Ctrl-C)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__()
        self.interrupted = interrupted


#: The exit status after Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130


class Scorepad:
    """The interactive scorepad: asks a hand at a time, a team at a time, and keeps the match.

    Args:
        rules: the rule set (None: ask for it).
        players: the number of players (None: ask).
        console: where to print.
        read: reads one answer for a prompt (``console.input`` by default).
    """

    def __init__(self, rules: Rules | None, players: int | None, console: Console,
                 read: Reader | None = None, lang: str = "en",
                 names: Sequence[str] | None = None, sheet: Path | None = None) -> None:
        self.console = console
        self.lang = lang
        self.read = read or console.input
        self.rules = rules
        self.players = players
        self.given_names = list(names or [])
        self.sheet = sheet
        self.names: list[str] = []
        self.totals: list[int] = []
        self.hands: list[list[int]] = []  # hand totals per hand
        self.results: list[dict[str, Any]] = []

    # prompts ---------------------------------------------------------------------------
    def t(self, key: str, **values: Any) -> str:
        """A text of the catalogue in the scorekeeper's language."""
        return i18n.t(key, self.lang, **values)

    def ask(self, prompt: str, default: str = "") -> str:
        shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
        try:
            answer = self.read(escape(shown)).strip()
        except EOFError:
            raise _Stop() from None
        except KeyboardInterrupt:
            raise _Stop(interrupted=True) from None
        if answer.lower() in ("quit", "exit"):
            raise _Stop()
        return answer or default

    def say_error(self, message: str) -> None:
        self.console.print(Text(self.t("cli.pad.again", message=message), style="red"))

    def ask_yes(self, prompt: str, default: bool = False) -> bool:
        while True:
            answer = self.ask(f"{prompt} {self.t('cli.pad.yes_no')}",
                              self.t("cli.pad.y") if default else self.t("cli.pad.n")).lower()
            if answer in YES or answer == self.t("cli.pad.y").lower():
                return True
            if answer in NO or answer == self.t("cli.pad.n").lower():
                return False
            self.say_error(self.t("cli.pad.not_yes_no", answer=answer))

    def ask_int(self, prompt: str, default: int, lo: int | None = None,
                hi: int | None = None) -> int:
        while True:
            answer = self.ask(prompt, str(default))
            try:
                value = int(answer)
            except ValueError:
                self.say_error(self.t("cli.pad.not_a_number", answer=answer))
                continue
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                self.say_error(self.t("cli.pad.not_between", value=value, lo=lo, hi=hi))
                continue
            return value

    def ask_cards(self, prompt: str) -> list[str]:
        while True:
            answer = self.ask(prompt)
            try:
                return [card_text(c) for c in parse_cards(answer)]
            except CardParseError as exc:
                self.say_error(str(exc))

    # the match sheet file ------------------------------------------------------------------
    def sheet_doc(self) -> dict[str, Any]:
        """The match sheet as JSON data: rules, players, team names and every hand's table."""
        assert self.rules is not None
        from canasta.formats.jsondoc import rules_header

        return {"format": SHEET_FORMAT, "version": 1, **rules_header(self.rules),
                "players": self.players, "names": self.names, "hands": self.results}

    def save_sheet(self) -> None:
        if self.sheet is not None:
            self.sheet.write_text(json.dumps(self.sheet_doc(), indent=1, ensure_ascii=False)
                                  + "\n", "utf-8")

    def open_sheet(self, path: Path) -> None:
        """Reopen a saved match sheet: its rules, players, names and hands (re-scored).

        Raises:
            FormatError: the file cannot be read, is not a match sheet, or a hand in it does
                not read (naming the file and the JSON path).
        """
        from canasta.formats.jsondoc import Reader, loads

        r = Reader(str(path))
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            r.fail("$", f"a readable file ({exc.strerror})")
        data = loads(text, str(path))
        if not isinstance(data, dict) or data.get("format") != SHEET_FORMAT:
            r.fail("$.format", f'"{SHEET_FORMAT}" (a file written by canasta score --sheet)')
        self.rules = r.rules(data)
        players = data.get("players")
        if not isinstance(players, int) or players not in self.rules.deal.player_counts:
            r.fail("$.players", f"one of {self.rules.deal.player_counts}")
        self.players = players
        teams = self.rules.teams(players)
        names = data.get("names")
        if not (isinstance(names, list) and len(names) == len(teams)
                and all(isinstance(n, str) for n in names)):
            r.fail("$.names", f"{len(teams)} team names")
        self.names = list(names)
        hands = r.list_(data.get("hands"), "$.hands")
        for i, hand in enumerate(hands):
            r.obj(hand, f"$.hands[{i}]")
            r.list_(r.key(hand, "teams", f"$.hands[{i}]"), f"$.hands[{i}].teams",
                    length=len(teams))
            for t, team in enumerate(hand["teams"]):
                r.obj(team, f"$.hands[{i}].teams[{t}]")
            try:  # each hand alone first, so that an error names it
                self._read({"teams": [{**team, "score_before": 0, "name": self.names[t]}
                                      for t, team in enumerate(hand["teams"])]})
            except HandResultError as exc:
                r.fail(f"$.hands[{i}]", str(exc))
        self.results = hands
        try:
            self.rescore()
        except HandResultError as exc:
            r.fail("$.hands", str(exc))

    def rescore(self) -> None:
        """Score every hand again (after a correction or when reopened): each hand starts
        from the match score the hands before it left."""
        assert self.rules is not None
        running = [0] * len(self.names)
        hands: list[list[int]] = []
        for hand in self.results:
            for t, team in enumerate(hand["teams"]):
                team["score_before"] = running[t]
                team["name"] = self.names[t]
            result = self._read({"teams": hand["teams"]})
            sheets = result.score()
            hands.append([x.hand_total for x in sheets])
            running = [x.score_after for x in sheets]
        self.hands = hands
        self.totals = running

    # setup -----------------------------------------------------------------------------
    def setup(self) -> None:
        if self.sheet is not None and self.sheet.exists():
            self.open_sheet(self.sheet)
            assert self.rules is not None
            key = "cli.pad.reopened.one" if len(self.hands) == 1 else "cli.pad.reopened"
            self.console.print(Text(self.t(key, path=self.sheet, variant=self.rules.name,
                                           players=self.players, hands=len(self.hands)),
                                    style="bold"))
            if self.hands:
                self.console.print(self.match_table())
            return
        while self.rules is None:
            name = self.ask(self.t("cli.pad.variant"), "international")
            try:
                self.rules = load_preset(name)
            except RulesError as exc:
                self.say_error(str(exc))
        rules = self.rules
        counts = rules.deal.player_counts
        while self.players is None or self.players not in counts:
            if self.players is not None:
                self.say_error(self.t("cli.pad.played_by", variant=rules.name,
                                      counts=", ".join(map(str, counts))))
            default = 4 if 4 in counts else counts[0]
            self.players = self.ask_int(self.t("ui.players"), default, 2, 6)
        teams = rules.teams(self.players)
        self.names = [self.t("ui.team_n", n=t + 1) for t in range(len(teams))]
        for t, name in enumerate(self.given_names[:len(teams)]):
            self.names[t] = name
        self.totals = [0] * len(teams)
        catalogue = penalty_catalogue(rules)
        self.console.print(Text(self.t(
            "cli.pad.intro", variant=rules.name, players=self.players, teams=len(teams),
            target=rules.target(self.players)), style="bold"))
        if catalogue:
            self.console.print(Text(self.t("cli.pad.penalties_list",
                                           names=", ".join([*catalogue, CUSTOM])), style="dim"))

    # one hand --------------------------------------------------------------------------
    def ask_team(self, t: int, others_out: bool) -> dict[str, Any]:
        assert self.rules is not None and self.players is not None
        rules = self.rules
        per_team = self.players // len(self.names)
        name = self.names[t]
        self.console.print(Text(self.t("cli.pad.team", name=name, score=self.totals[t]),
                                style="bold cyan"))
        melds: list[list[str]] = []
        self.console.print(self.t("cli.pad.melds") + " " + self.t("cli.pad.meld_commands"))
        while True:
            answer = self.ask(self.t("cli.pad.meld_n", n=len(melds) + 1))
            words = answer.split()
            if len(words) == 2 and words[0].lower() in ("fix", "del") and words[1].isdigit():
                k = int(words[1])
                if not 1 <= k <= len(melds):
                    self.say_error(self.t("cli.pad.no_meld", n=k))
                    continue
                if words[0].lower() == "del":
                    removed = melds.pop(k - 1)
                    self.console.print(self.t("cli.pad.removed", n=k, cards=" ".join(removed)))
                    continue
                while True:
                    again = self.ask_cards(self.t("cli.pad.meld_again", n=k,
                                                  cards=" ".join(melds[k - 1])))
                    error = self._check_team_part({"melds": [again]}) if again else "empty"
                    if error is None:
                        melds[k - 1] = again
                        break
                    self.say_error(error)
                continue
            try:
                cards = [card_text(c) for c in parse_cards(answer)]
            except CardParseError as exc:
                self.say_error(str(exc))
                continue
            if not cards:
                break
            error = self._check_team_part({"melds": [cards]})
            if error:
                self.say_error(error)
                continue
            melds.append(cards)
        reds = self.ask_int(self.t("cli.pad.red_threes"), 0, 0,
                            rules.packs(self.players) * 2)
        went_out = False if others_out else self.ask_yes(self.t("cli.pad.went_out"))
        concealed = self.ask_yes(self.t("cli.pad.concealed")) if went_out else False
        hands: list[list[str]] = []
        for k in range(per_team):
            key = "cli.pad.hand_out" if went_out and k == 0 else "cli.pad.hand"
            hands.append(self.ask_cards(self.t(key, n=k + 1)))
        penalties: list[Any] = []
        while True:
            answer = self.ask(self.t("cli.pad.penalties"))
            if answer == "?":
                for p in penalty_catalogue(rules).values():
                    what = (p.description if self.lang == "en"
                            else i18n.penalty_text(p.name, self.lang))
                    times = self.t("cli.pad.x_difference") if p.kind == "difference" else ""
                    self.console.print(f"    {p.name}: {p.points:+d}{times} - {what}")
                self.console.print(self.t("cli.pad.custom", custom=CUSTOM))
                continue
            penalties = _parse_penalties(answer)
            error = self._check_team_part({"penalties": penalties})
            if error:
                self.say_error(error)
                continue
            break
        return {"name": name, "score_before": self.totals[t], "melds": melds,
                "red_threes": reds, "hands": hands, "went_out": went_out,
                "concealed": concealed, "penalties": penalties}

    def _check_team_part(self, part: dict[str, Any]) -> str | None:
        """Check melds or penalties alone, with the rest of the team empty."""
        assert self.rules is not None and self.players is not None
        per_team = self.players // len(self.names)
        team = {"hands": [[] for _ in range(per_team)], **part}
        teams = [team] + [{"hands": [[] for _ in range(per_team)]}
                          for _ in range(len(self.names) - 1)]
        try:
            self._read({"teams": teams})
        except HandResultError as exc:
            return exc.expected
        return None

    def _read(self, doc: dict[str, Any]) -> HandResult:
        assert self.rules is not None
        from canasta.formats.jsondoc import rules_header

        full = {"format": "canasta-hand-result", "version": 1, **rules_header(self.rules),
                **doc}
        return hand_result_from_dict(full, "the table")

    def hand(self, redo: int | None = None, team: int | None = None) -> None:
        """Ask one hand's table and score it; ``redo``: the index of a hand typed already,
        entered again (the hands after it are scored again from the new totals); with
        ``team``, only that team's line of it (the others stay as typed)."""
        number = len(self.hands) + 1 if redo is None else redo + 1
        self.console.rule(self.t("ui.hand_n", n=number)
                          + (" " + self.t("cli.pad.typed_again") if redo is not None else ""))
        if redo is not None:  # the prompts show the match score before that hand
            self.totals = self._totals_before(redo)
        teams: list[dict[str, Any] | None] = [None] * len(self.names)
        if redo is not None and team is not None:
            teams = [None if i == team else dict(part)
                     for i, part in enumerate(self.results[redo]["teams"])]
        while True:
            for t in range(len(teams)):
                if teams[t] is None:
                    others = any(o is not None and o["went_out"]
                                 for i, o in enumerate(teams) if i != t)
                    teams[t] = self.ask_team(t, others)
            try:
                result = self._read({"teams": teams})
                break
            except HandResultError as exc:
                self.console.print(Text("  " + self.in_words(exc), style="red"))
                for t in self.which_again(exc):
                    self.console.print(Text(self.t("cli.pad.enter_again", name=self.names[t]),
                                            style="red"))
                    teams[t] = None
        sheets = result.score()
        print_sheets(self.console, result, sheets, self.lang)
        if redo is None:
            self.hands.append([s.hand_total for s in sheets])
            self.totals = [s.score_after for s in sheets]
            self.results.append({"teams": teams})
        else:
            self.results[redo] = {"teams": teams}
            self.rescore()
        self.save_sheet()
        self.console.print(self.match_table())

    def in_words(self, exc: HandResultError) -> str:
        """A refused table in the scorekeeper's words: the JSON paths of the document the
        answers became ("$.teams[1].hands[0]") as the places typed ("Carla & Dan, cards left
        of player 1"), without the document's name."""
        def place(m: re.Match[str]) -> str:
            team = self.names[int(m.group(1))] if int(m.group(1)) < len(self.names) \
                else m.group(0)
            part, index = m.group(2), m.group(3)
            if part is None:
                return team
            key = {"melds": "cli.pad.where_meld", "hands": "cli.pad.where_hand",
                   "penalties": "cli.pad.where_penalty"}.get(part)
            if key is None or index is None:
                return f"{team}, {part.replace('_', ' ')}"
            return self.t(key, team=team, n=int(index) + 1)

        text = _TEAM_PATH.sub(place, exc.expected)
        where = _TEAM_PATH.sub(place, exc.path)
        return text if where in ("$", "$.teams") else f"{where}: {text}"

    def which_again(self, exc: HandResultError) -> list[int]:
        """The sides to type again after ``exc``: the one it names, or, when it names
        several (a card counted twice), those the scorekeeper picks (all by default)."""
        named = sorted({int(m.group(1)) for m in _TEAM_PATH.finditer(exc.path + " "
                                                                     + exc.expected)
                        if int(m.group(1)) < len(self.names)})
        if not named:
            return list(range(len(self.names)))
        if len(named) == 1:
            return named
        choices = ", ".join(f"{t + 1} {self.names[t]}" for t in named)
        while True:
            answer = self.ask(self.t("cli.pad.which_again", choices=choices),
                              self.t("cli.pad.all"))
            if answer.lower() == self.t("cli.pad.all").lower():
                return named
            picked = [int(w) - 1 for w in answer.replace(",", " ").split() if w.isdigit()]
            if picked and all(t in named for t in picked):
                return sorted(set(picked))
            self.say_error(self.t("cli.pad.not_a_side", answer=answer))

    def _totals_before(self, index: int) -> list[int]:
        running = [0] * len(self.names)
        for totals in self.hands[:index]:
            running = [a + b for a, b in zip(running, totals, strict=True)]
        return running

    def ask_next(self) -> bool:
        """After a hand: another (True), stop (False), or a correction: ``fix N`` enters
        hand N again, ``name N TEXT`` renames team N."""
        while True:
            answer = self.ask(self.t("cli.pad.another") + " " + self.t("cli.pad.next_commands"),
                              self.t("cli.pad.y"))
            words = answer.split()
            low = answer.lower()
            if low in YES or low == self.t("cli.pad.y").lower():
                return True
            if low in NO or low == self.t("cli.pad.n").lower():
                return False
            if (len(words) in (2, 3) and words[0].lower() == "fix"
                    and all(w.isdigit() for w in words[1:])):
                k = int(words[1])
                side = int(words[2]) if len(words) == 3 else None
                if not 1 <= k <= len(self.hands):
                    self.say_error(self.t("cli.pad.no_hand", n=k))
                elif side is not None and not 1 <= side <= len(self.names):
                    self.say_error(self.t("cli.pad.no_team", n=side))
                else:  # `fix N T`: only team T's line of hand N
                    self.hand(redo=k - 1, team=None if side is None else side - 1)
                continue
            if len(words) >= 3 and words[0].lower() == "name" and words[1].isdigit():
                k = int(words[1])
                if 1 <= k <= len(self.names):
                    self.names[k - 1] = " ".join(words[2:])
                    for hand in self.results:
                        hand["teams"][k - 1]["name"] = self.names[k - 1]
                    self.save_sheet()
                    self.console.print(self.match_table())
                else:
                    self.say_error(self.t("cli.pad.no_team", n=k))
                continue
            self.say_error(self.t("cli.pad.not_next", answer=answer))

    def match_table(self) -> Table:
        assert self.rules is not None and self.players is not None
        target = self.rules.target(self.players)
        tab = Table(title=i18n.t("cli.score.match_sheet", self.lang, target=target),
                    title_justify="left")
        tab.add_column(i18n.t("ui.hand", self.lang), justify="right")
        for name in self.names:
            tab.add_column(name, justify="right")
        running = [0] * len(self.names)
        for i, totals in enumerate(self.hands, 1):
            running = [a + b for a, b in zip(running, totals, strict=True)]
            tab.add_row(str(i), *(f"{h:+d} = {r}" for h, r in zip(totals, running, strict=True)))
        tab.add_section()
        tab.add_row(self.t("play.result.to_go"),
                    *(Text(self.t("scorepad.reached"), style="bold green") if r >= target
                               else Text(str(target - r)) for r in running))
        return tab

    def run(self) -> int:
        """Ask hands until the scorekeeper stops; 0, or :data:`EXIT_INTERRUPTED` after
        Ctrl-C (the hands entered are saved first, and the scorepad says where)."""
        try:
            self.setup()
            while True:
                self.hand()
                if not self.ask_next():
                    break
        except (_Stop, KeyboardInterrupt) as exc:
            self.console.print()
            if self.hands:
                self.console.print(self.match_table())
            if isinstance(exc, KeyboardInterrupt) or exc.interrupted:
                self.save_on_interrupt()
                return EXIT_INTERRUPTED
        return 0

    def save_on_interrupt(self) -> None:
        """After Ctrl-C: save the hands entered (to ``--sheet``, or without one to a new
        ``canasta-sheet-<date>.json`` in the current folder) and say where; a hand typed
        half-way is not kept."""
        if not self.hands or self.rules is None:
            self.console.print(Text(self.t("cli.pad.interrupted_empty"), style="bold"))
            return
        if self.sheet is None:
            import time

            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = Path(f"canasta-sheet-{stamp}.json")
            n = 1
            while path.exists():
                n += 1
                path = Path(f"canasta-sheet-{stamp}-{n}.json")
            self.sheet = path
        try:
            self.save_sheet()
        except OSError as exc:
            self.console.print(Text(self.t("cli.pad.not_saved", path=self.sheet,
                                           reason=exc.strerror or str(exc)), style="bold red"))
            return
        key = "cli.pad.interrupted_saved.one" if len(self.hands) == 1 else \
            "cli.pad.interrupted_saved"
        self.console.print(Text(self.t(key, path=self.sheet, hands=len(self.hands)),
                                style="bold"))


#: A place in a hand result document: a side, and a part of it with its index.
_TEAM_PATH = re.compile(r"\$\.teams\[(\d+)\](?:\.([a-z_]+)(?:\[(\d+)\])?)?")


def _parse_penalties(answer: str) -> list[Any]:
    """``draw_out_of_turn, miscount 30, custom -50 late`` → penalty entries."""
    out: list[Any] = []
    for part in answer.split(","):
        words = part.split()
        if not words:
            continue
        name = words[0]
        if name == CUSTOM:
            try:
                points = int(words[1]) if len(words) > 1 else 0
            except ValueError:
                points = 0
                words = [name, "0", *words[1:]]
            out.append({"name": CUSTOM, "points": points,
                        "label": " ".join(words[2:]) or "custom penalty"})
        elif len(words) > 1 and words[1].lstrip("-").isdigit():
            key = "difference" if name == "miscount" else "count"
            out.append({"name": name, key: int(words[1])})
        else:
            out.append(name)
    return out
