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
    DEFAULT as DEFAULT,
)
from canasta.i18n.catalogue import (
    catalogue as catalogue,
)
from canasta.i18n.catalogue import (
    choice_label as choice_label,
)
from canasta.i18n.catalogue import (
    fill as fill,
)
from canasta.i18n.catalogue import (
    has as has,
)
from canasta.i18n.catalogue import (
    languages as languages,
)
from canasta.i18n.catalogue import (
    option_description as option_description,
)
from canasta.i18n.catalogue import (
    option_label as option_label,
)
from canasta.i18n.catalogue import (
    placeholders as placeholders,
)
from canasta.i18n.catalogue import (
    resolve_lang as resolve_lang,
)
from canasta.i18n.catalogue import (
    score_item_text as score_item_text,
)
from canasta.i18n.catalogue import (
    section_label as section_label,
)
from canasta.i18n.catalogue import (
    t as t,
)
from canasta.i18n.catalogue import (
    variant_name as variant_name,
)
from canasta.i18n.events import describe_event as describe_event
