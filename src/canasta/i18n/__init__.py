"""Text for people, in their language: message catalogues shared by the CLI and the web page.

One JSON file per language in this package (``en.json``, ``it.json``; adding a language is
adding a file with the same keys), each a flat map ``key -> text`` whose placeholders are
written ``{name}``. The web page loads the same files (``GET /i18n/{lang}.json``) and formats
them with the same rule, so the page never builds or parses English text.

Key families: ``ui.*`` (the web page), ``refusal.*`` (one per rule id an
:class:`~canasta.core.legality.IllegalActionError` can name, see :mod:`canasta.i18n.refusals`),
``event.*`` (what happened, ``.self`` as seen by the seat that acted and ``.other`` by the
others), ``score.*`` (score-sheet items, the English text being
:mod:`canasta.core.scoring`'s label), ``variant.*``, ``section.*`` (the ``Rules`` sections),
``option.*`` (house-rule names and per-variant descriptions) and ``choice.*`` (option values).

Standard library only; imported by the front ends, never by :mod:`canasta.core`.
"""

from canasta.i18n.catalogue import (
    DEFAULT,
    catalogue,
    choice_label,
    fill,
    has,
    languages,
    option_description,
    option_label,
    penalty_text,
    placeholders,
    resolve_lang,
    score_item_text,
    section_label,
    t,
    variant_name,
)
from canasta.i18n.events import describe_event

__all__ = [
    "DEFAULT",
    "catalogue",
    "choice_label",
    "describe_event",
    "fill",
    "has",
    "languages",
    "option_description",
    "option_label",
    "penalty_text",
    "placeholders",
    "resolve_lang",
    "score_item_text",
    "section_label",
    "t",
    "variant_name",
]
