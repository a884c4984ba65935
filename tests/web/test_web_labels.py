"""No two controls of one screen share a label, in any language: the buttons of each page
(those of its HTML and those its scripts make) are read from the sources, and per language
the texts of different catalogue keys among them must differ. Italian once had Undo and Clear
both "Annulla" side by side in the action bar, and "Chiudi" for both Go out and Close."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from canasta.i18n.catalogue import catalogue, languages

STATIC = Path(__file__).parents[2] / "src" / "canasta" / "web" / "static"
PAGES = ("index.html", "table.html", "scorepad.html", "offline.html")
#: labels of buttons a widget makes from a list rather than on its button's line
WIDGETS = {"scorepad.html": {"scorepad.by_points", "scorepad.as_cards"}}


def button_keys(page: str) -> set[str]:
    """The catalogue keys of the page's buttons: ``<button data-i18n>`` in its HTML, and the
    ``t("key")`` on a line of its scripts that makes a button (``button(`` or
    ``el("button"``), plus the widgets' lists."""
    html = (STATIC / page).read_text(encoding="utf-8")
    keys = set(re.findall(r'<button[^>]*\bdata-i18n="([^"]+)"', html))
    for script in re.findall(r'<script[^>]*\bsrc="/static/([^"]+)"', html):
        for line in (STATIC / script).read_text(encoding="utf-8").splitlines():
            if "button(" in line or 'el("button"' in line:
                keys |= set(re.findall(r'\bt\("([^"]+)"', line))
    # a key built from a prefix (``t("chat.preset." + key)``) names every key it may end as
    prefixes = {k for k in keys if k.endswith(".")}
    keys = (keys - prefixes) | {k for k in catalogue("en") for p in prefixes
                                if k.startswith(p)}
    return keys | WIDGETS.get(page, set())


def test_the_pages_buttons_are_found() -> None:
    """The reading finds the buttons that were confused (so the check below can fail)."""
    table = button_keys("table.html")
    assert {"ui.undo", "ui.clear", "ui.go_out", "ui.close", "ui.draw", "ui.meld"} <= table
    assert {"scorepad.preview", "scorepad.add", "scorepad.by_points"} <= \
        button_keys("scorepad.html")


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("page", PAGES)
def test_no_two_buttons_of_a_page_share_a_label(page: str, lang: str) -> None:
    texts = catalogue(lang)
    seen: dict[str, str] = {}
    clashes = []
    for key in sorted(button_keys(page)):
        assert key in texts, f"{page}: {key} has no {lang} text"
        label = re.sub(r"\{[^}]*\}", "", texts[key]).strip().casefold()
        if label in seen:
            clashes.append(f"{seen[label]} and {key}: {texts[key]!r}")
        seen.setdefault(label, key)
    assert not clashes, f"{page} in {lang}: " + "; ".join(clashes)
