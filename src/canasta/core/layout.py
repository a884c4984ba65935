"""The layout of a hand's state: one table of its fields, read by everything that walks them.

Each :class:`Field` says how :meth:`HandData.clone <canasta.core.data.HandData.clone>` copies
it (:class:`Copy`), who may see it and so how :mod:`canasta.core.blanking` treats it in a
seat's view (:class:`Sight`), whether it holds cards (the table of a view fills those from the
view's own fields), and where a position file holds it (:mod:`canasta.formats.position`, a
dotted JSON path). :data:`FIELDS` is the table's names, which are ``HandData``'s slots.

A new field is added to :data:`TABLE` (and annotated on ``HandData``); then the copying code
of ``clone`` and of a view's table, generated from the table (:func:`generated`), is written
again with ``python tools/layout_code.py --write``, and the position format's writer and reader
name the field (they raise ``KeyError`` / :class:`LayoutError` until they do). The tests check
that the annotations, the table and the generated code agree.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple


class Copy(Enum):
    """How a copy of the state copies a field."""

    #: The same object: immutable (ints, tuples, the rules) or persistent (the history; the
    #: retract snapshot, never changed once taken).
    SHARE = "share"
    #: A flat list, copied (``x[:]``); its items are immutable.
    LIST = "list"
    #: A list of lists, each copied (per seat or per team).
    LISTS = "lists"
    #: Per team, a dict of meld key to its cards, each list copied.
    MELDS = "melds"


class Sight(Enum):
    """Who may see a field; :mod:`canasta.core.blanking` takes out what a seat may not."""

    #: Everyone, as it is.
    PUBLIC = "public"
    #: Each seat its own entry; of the other seats, the cards known to be there (``known``).
    OWN = "own"
    #: Everyone sees how many cards, nobody which (:data:`~canasta.core.blanking.HIDDEN`).
    COUNT = "count"
    #: Everyone sees its cards but the ``pile_hidden`` face-down ones at the bottom.
    FACE_UP = "face up"
    #: Nobody: a view holds an empty value.
    NOBODY = "nobody"
    #: Each seat its own copy (:func:`canasta.core.events.seen_by`); the table holds none.
    OWN_EVENTS = "own events"
    #: A state of its own, blanked as the state is.
    BLANKED = "blanked"


class Field(NamedTuple):
    """One field of the state."""

    name: str
    copy: Copy
    sight: Sight
    #: Holds cards (a place of ``HandData.card_locations``): the table of a view fills it
    #: from the view's own fields.
    cards: bool
    #: Where a position file holds it: a dotted path in the document (``turn.took_pile``);
    #: ``""`` when a position derives it or it is the same in every position (see ``note``).
    position: str
    #: What it is, in a few words.
    note: str


_P, _O, _C, _F, _N = Sight.PUBLIC, Sight.OWN, Sight.COUNT, Sight.FACE_UP, Sight.NOBODY
_S, _L, _LL, _M = Copy.SHARE, Copy.LIST, Copy.LISTS, Copy.MELDS

#: Every field of the state, in the order a position file writes them.
TABLE: tuple[Field, ...] = (
    Field("rules", _S, _P, False, "rules", "the rule set (a position's header: variant, "
          "options, rules)"),
    Field("players", _S, _P, False, "players", "the player count"),
    Field("teams", _S, _P, False, "teams", "per team, its seats"),
    Field("team_of", _S, _P, False, "", "per seat, its team (derived from teams)"),
    Field("dealer", _S, _P, False, "dealer", "the dealer's seat"),
    Field("scores", _L, _P, False, "scores", "per team, the match score before the hand"),
    Field("hands", _LL, _O, True, "hands", "per seat, counts per card code"),
    Field("hand_size", _L, _P, False, "", "per seat, the cards in hand (derived from hands)"),
    Field("melds", _M, _P, True, "melds", "per team, meld key to its cards"),
    Field("red_threes", _LL, _P, True, "red_threes", "per team, the red threes laid out"),
    Field("opened", _L, _P, False, "opened", "per team, has it made its initial meld"),
    Field("min_extra", _L, _P, False, "minimum_raised", "per team, retract penalties added "
          "to its opening minimum"),
    Field("pile", _L, _F, True, "pile", "the discard pile, the top card last"),
    Field("pile_frozen", _S, _P, False, "pile_frozen", "the pile is frozen (for everyone)"),
    Field("stock", _L, _C, True, "stock", "the stock, the next card last"),
    Field("surprise", _L, _C, True, "surprise", "the surprise cards set aside (seed 004)"),
    Field("deck", _S, _N, False, "deck", "the deal order, top card first"),
    Field("turn", _S, _P, False, "turn.number", "the turn number (-1 before the first)"),
    Field("current", _S, _P, False, "turn.current", "whose turn it is"),
    Field("actor", _S, _P, False, "turn.actor", "the seat to act (the partner answering)"),
    Field("phase", _S, _P, False, "turn.phase", "draw, play, answer or over"),
    Field("took_pile", _S, _P, False, "turn.took_pile", "this turn took the pile"),
    Field("melded_this_turn", _S, _P, False, "turn.melded", "this turn put cards down"),
    Field("opening_points", _S, _P, False, "turn.opening_points", "the points of this "
          "turn's provisional opening melds"),
    Field("provisional", _S, _P, False, "turn.provisional", "the opening is provisional"),
    Field("pending_pile", _L, _F, True, "turn.pending_pile", "the taken pile waiting for "
          "the opening"),
    Field("asked", _S, _P, False, "turn.asked", "the partner was asked this turn"),
    Field("answer", _S, _P, False, "turn.answer", "the partner's answer (None: none)"),
    Field("opened_at_turn_start", _S, _P, False, "turn.opened_at_turn_start", "the side "
          "had opened when the turn began"),
    Field("stopped_turn", _S, _P, False, "turn.stopped", "the top card stopped this turn "
          "from taking the pile"),
    Field("no_discard", _S, _P, False, "turn.no_discard", "this turn may not discard"),
    Field("snapshot", _S, Sight.BLANKED, False, "turn.before_opening", "the state a "
          "retract returns to, while the opening is provisional"),
    Field("asks", _L, _P, False, "asks", "per seat, times it asked its partner"),
    Field("player_melded", _L, _P, False, "player_melded", "per seat, has it put cards "
          "down this hand"),
    Field("joker_turn", _L, _P, False, "joker_turn", "per team, the turn it last put a "
          "joker down (-1: never)"),
    Field("known", _L, _P, False, "known", "per seat, counts per code of the cards the "
          "others know it holds"),
    Field("pile_hidden", _S, _P, False, "pile_hidden", "face-down cards at the bottom of "
          "the pile (or pending pile)"),
    Field("end_reason", _S, _P, False, "result.end_reason", "why the hand ended (\"\": "
          "not over)"),
    Field("went_out", _S, _P, False, "result.went_out", "the seat that went out, or None"),
    Field("concealed", _S, _P, False, "result.concealed", "it went out concealed"),
    Field("event_log", _S, Sight.OWN_EVENTS, False, "events", "the history (a position's "
          "top level only)"),
    Field("lookahead", _S, _P, False, "", "False on legality's look-ahead copies (always "
          "True in a position)"),
)

#: The names of :data:`TABLE`, in its order: ``HandData``'s slots.
FIELDS: tuple[str, ...] = tuple(f.name for f in TABLE)

#: Field name -> its :class:`Field`.
BY_NAME: dict[str, Field] = {f.name: f for f in TABLE}


class LayoutError(ValueError):
    """Values for a state that are not exactly the table's fields."""


def names(*, sight: Sight | None = None, cards: bool | None = None) -> tuple[str, ...]:
    """The fields with this sight and/or card-holding, in table order."""
    return tuple(f.name for f in TABLE
                 if (sight is None or f.sight is sight) and (cards is None or f.cards is cards))


def build(cls: type[Any], values: dict[str, Any]) -> Any:
    """A new ``cls`` (a ``HandData`` class, not initialised) with every field set from
    ``values``.

    Raises:
        LayoutError: ``values`` lacks a field of the table or has a name that is none.
    """
    missing = [n for n in FIELDS if n not in values]
    extra = sorted(set(values) - set(FIELDS))
    if missing or extra:
        raise LayoutError("state fields: " + "; ".join(
            part for part in (f"missing {', '.join(missing)}" if missing else "",
                              f"not fields: {', '.join(extra)}" if extra else "") if part))
    s = cls()  # no __init__: every field is set here
    for name in FIELDS:
        setattr(s, name, values[name])
    return s


# -- the generated copying code ------------------------------------------------------------

_COPY_EXPR = {
    Copy.SHARE: "{src}.{name}",
    Copy.LIST: "{src}.{name}[:]",
    Copy.LISTS: "[x[:] for x in {src}.{name}]",
    Copy.MELDS: "[{{k: v[:] for k, v in m.items()}} for m in {src}.{name}]",
}

#: The value the table of a view starts with, per sight that is not copied.
_TABLE_START_EXPR = {
    Sight.NOBODY: "()",
    Sight.OWN_EVENTS: "None  # the sample gets this seat's events (see view.sample)",
    Sight.BLANKED: "_blank_snapshot({src}, seat)",
}

#: The regions of generated code: (file under src/canasta/core, region name).
REGIONS = (("data.py", "clone"), ("blanking.py", "table_start"))


def generated(region: str, indent: str = "        ") -> str:
    """The lines of a generated region (``clone`` or ``table_start``), as they stand between
    its markers in the source (``# -- generated from canasta.core.layout: REGION``)."""
    lines: list[str] = []
    if region == "clone":
        for f in TABLE:
            expr = _COPY_EXPR[f.copy].format(src="self", name=f.name)
            lines.append(f"{indent}s.{f.name} = {expr}")
    elif region == "table_start":
        for f in TABLE:
            if f.cards:
                continue  # filled from the view's own fields (view._fill_table)
            template = _TABLE_START_EXPR.get(f.sight, _COPY_EXPR[f.copy])
            lines.append(f"{indent}t.{f.name} = {template.format(src='s', name=f.name)}")
    else:
        raise ValueError(f"no generated region {region!r}")
    return "\n".join(lines) + "\n"


def marker(region: str, end: bool = False) -> str:
    """The comment line that opens (or closes) a generated region."""
    return (f"# -- end of generated code: {region}" if end
            else f"# -- generated from canasta.core.layout ({region}): "
                 "python tools/layout_code.py --write")
