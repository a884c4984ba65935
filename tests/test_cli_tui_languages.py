"""The full-screen table of `canasta play` in the player's language: the table, its keys line
(80 columns in every language), the help and the score screen, driven headless with Textual's
pilot (tests/tuikit.py)."""

from __future__ import annotations

from textual.pilot import Pilot

from canasta import Match, load_preset
from canasta.cli import render
from canasta.cli.session import Session
from canasta.cli.tui import ResultScreen, TableApp
from tuikit import drive, new_session, play_out, screen_text, shot, until_human


def test_the_score_screen_speaks_the_players_language() -> None:
    """The hand's end was English on an Italian table: how it ended, the sheet's items
    (from their codes), the totals."""
    match = Match(load_preset("international"), 4, seed=10)
    s = Session(match, render.seat_names(4, lang="it"), ["", "greedy", "greedy", "greedy"],
                lang="it")
    play_out(s)
    app = TableApp.in_language("it")(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        text = "\n".join(shot(app, "table-result-it"))
        assert "Mano 1" in text and "Partita dopo 1 mano" in text and "Mancano" in text
        assert text.count("Totale della mano") == len(s.match.record.sheets) == 2
        assert "Carte calate" in text or "Carte in mano" in text
        for english in ("Match after", "Melded cards", "Cards left", "went out", "Hand 1"):
            assert english not in text
        await pilot.press("q")  # leave: the parting words are Italian too
        await pilot.pause()

    drive(app, (80, 24), script)
    assert app.quit_message.startswith("Ciao. (Con --save FILE"), app.quit_message


def test_the_table_speaks_the_players_language() -> None:
    """Seat names, the variant, the menu's words and the footer's keys too (they were
    English on an Italian table)."""
    match = Match(load_preset("international"), 4, seed=13)
    s = Session(match, render.seat_names(4, lang="it"), ["", "greedy", "greedy", "greedy"],
                lang="it")
    app = TableApp.in_language("it")(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        text = "\n".join(shot(app, "table-it"))
        assert text.startswith("Mano 1 · Canasta internazionale") and "Tallone" in text
        assert "La tua mano (11, per valore)" in text and "Tocca a te" in text
        assert "Tu & Nord" in text and "Ovest" in text and "s (pesca)" in text
        assert "Aiuto" in text and "Esci" in text and "f6 Pozzo" in text
        for english in ("Your hand", "North", "West", "(draw)", "Help", "Quit"):
            assert english not in text

    drive(app, (80, 24), script)


def test_the_keys_line_fits_80_columns_in_every_language() -> None:
    """The Romanian footer was cut at 80 columns ("f6 Tean"): every key and its label is on
    the screen in every language."""
    from canasta.i18n import languages, t

    for lang in languages():
        s = new_session(lang=lang)
        app = TableApp.in_language(lang)(s, speed=0)

        async def script(pilot: Pilot[None], lang: str = lang) -> None:
            await pilot.pause()
            footer = screen_text(pilot.app)[-1]  # type: ignore[arg-type]
            assert footer.rstrip().endswith(f"f6 {t('play.key.pile', lang)}"), (lang, footer)

        drive(app, (80, 24), script)


def test_help_speaks_the_players_language() -> None:
    """F1 was English on every table; it comes from the catalogues (play.help.*)."""
    match = Match(load_preset("brazilian"), 4, seed=11)
    s = Session(match, render.seat_names(4, lang="pt"), ["", "greedy", "greedy", "greedy"],
                lang="pt")
    app = TableApp.in_language("pt")(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.press("f1")
        await pilot.pause()
        text = "\n".join(screen_text(app))
        assert "m 9 9 JK" in text and "comprar do monte" in text and "pegar o lixo" in text
        assert "Digite uma jogada" in text and "draw from the stock" not in text

    drive(app, (80, 24), script)
