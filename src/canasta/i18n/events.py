"""What happened, in words: the log lines of the CLI and the web page, from events.

An entry is data, ``{"key": "event.meld.self", "values": {...}, "seat": 2}``: the catalogue
key, its values (cards as card texts, which read the same in every language) and the seat
(``seat``) or side (``team``) it is about, whose name the front end fills in as ``{name}`` /
``{team}``. The seat that acted reads the ``.self`` form ("You draw 7h"), the others the
``.other`` form ("North draws a card from the stock"); hidden cards are never in an
``.other`` entry. ``"bot": true`` marks what a bot did for the seat's absent person
(:func:`stand_in_entry`): the ``.other`` form, whose ``{name}`` reads "Bot for Ann".

:func:`event_entries` reads the frozen Event values of ``canasta.core.events`` by their kind
(class name) and fields; nothing here reads text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from canasta.core.cards import WILD_RANK, card_text, rank_text
from canasta.i18n.catalogue import DEFAULT, has, t

Entry = dict[str, Any]

#: The values of an entry that hold card texts (one card, or several apart by spaces).
CARD_VALUES = ("card", "cards", "top")


def _cards(cards: Sequence[int] | None) -> str:
    return " ".join(card_text(c) for c in cards or ())


def _entry(kind: str, seat: int | None, viewer: int | None, **values: Any) -> Entry:
    """An entry of a per-seat kind (``.self`` for the viewer's own act, else ``.other``)."""
    form = "self" if seat is not None and seat == viewer else "other"
    out: Entry = {"key": f"event.{kind}.{form}", "values": values}
    if seat is not None:
        out["seat"] = seat
    return out


def event_entries(event: Any, viewer: int | None = None) -> list[Entry]:
    """The log entries of one event as ``viewer`` (a seat; None: an onlooker) sees it.

    Hidden cards (another seat's draw) never appear: only their count. Kinds without a line
    (the deal itself) give ``[]``.
    """
    if viewer is not None and viewer >= 0 and hasattr(event, "visible_to"):
        event = event.visible_to(viewer)
    elif hasattr(event, "public"):
        event = event.public()
    kind = type(event).__name__
    seat = getattr(event, "seat", None)
    own = seat is not None and seat == viewer
    out: list[Entry] = []
    if kind == "Dealt":
        out.append({"key": "event.dealt", "values": {}, "seat": event.first})
    elif kind == "RedThreesLaidOut":
        for c in event.cards:
            out.append(_entry("red_three", seat, viewer, card=card_text(c)))
    elif kind == "UpcardTurned":
        key = "event.upcard_special" if event.special else "event.upcard"
        out.append({"key": key, "values": {"card": card_text(event.card)}})
    elif kind == "Drew":
        drawn = event.drawn if own else None
        out.append(_entry("draw", seat, viewer, cards=_cards(drawn), count=event.drawn_count))
        for c in event.red_threes:
            out.append(_entry("draw_red_three", seat, viewer, card=card_text(c)))
    elif kind == "TookPile":
        if event.cards:
            out.append(_entry("take_pile", seat, viewer, top=card_text(event.top),
                              cards=_cards(event.cards)))
        else:
            out.append(_entry("take_pile_onto_meld", seat, viewer, top=card_text(event.top)))
        if event.surprise:
            out.append(_entry("show_surprise", seat, viewer, cards=_cards(event.surprise)))
        for c in event.red_threes:
            out.append(_entry("draw_red_three", seat, viewer, card=card_text(c)))
    elif kind == "Melded":
        if event.out_of_play:
            out.append(_entry("black_threes_out", seat, viewer,
                              count=len(event.cards) + len(event.partner_cards)))
        elif event.new:
            out.append(_entry("meld", seat, viewer, cards=_cards(event.cards)))
        elif event.key == WILD_RANK:
            out.append(_entry("lay_off_wild", seat, viewer, cards=_cards(event.cards)))
        else:
            out.append(_entry("lay_off", seat, viewer, cards=_cards(event.cards),
                              rank=rank_text(event.key)))
    elif kind == "RedThreesDeclared":
        for c in event.cards:
            out.append(_entry("declare_red_three", seat, viewer, card=card_text(c)))
    elif kind == "Opened":
        out.append({"key": "event.opened", "values": {"points": event.points},
                    "team": event.team})
    elif kind == "Discarded":
        out.append(_entry("discard", seat, viewer, card=card_text(event.card)))
    elif kind == "Asked":
        out.append(_entry("ask_partner", seat, viewer))
    elif kind == "Answered":
        out.append(_entry("answer_yes" if event.yes else "answer_no", seat, viewer))
    elif kind == "Retracted":
        out.append(_entry("retract", seat, viewer))
        out.append({"key": "event.opening_minimum", "values": {"minimum": event.minimum},
                    "team": event.team})
    elif kind == "HandEnded":
        if event.action is not None:
            out.append(_entry("end_hand", seat, viewer))
        entry: Entry = {"key": f"event.hand_end.{event.reason}", "values": {}}
        if event.went_out is not None:
            entry["seat"] = event.went_out
            if event.went_out == viewer and has(entry["key"] + ".self"):
                entry["key"] += ".self"  # "you go out", not "You goes out"
        out.append(entry)
    elif kind == "Played":
        out.append(_entry("played", seat, viewer, action=event.action.text()))
    return out


def took_back_entry(seat: int, viewer: int | None, cards: Sequence[int]) -> Entry:
    """The log entry of the house rule *undo* (canasta.core.undo): ``seat`` took ``cards``
    (the melds and lay-offs of its turn, which every seat saw laid) back into its hand. The
    undo is no engine event, so the front end that played it adds this entry."""
    return _entry("took_back", seat, viewer, cards=_cards(sorted(cards)))


def stand_in_entry(entry: Entry) -> Entry:
    """``entry`` as made by the bot that plays a seat for its absent person: marked
    ``"bot": true``, and in the ``.other`` form even in that seat's own log, so that it
    reads "Bot for Ann draws a card" (``event.bot_for`` fills ``{name}``), never "You
    draw". The values stay those the seat may see."""
    out = dict(entry)
    key = str(out["key"])
    if key.endswith(".self"):
        base = key[:-len(".self")]
        out["key"] = base + ".other" if has(base + ".other") else base
    out["bot"] = True
    return out


def render(entry: Entry, lang: str = DEFAULT, names: Sequence[str] | None = None,
           teams: Sequence[str] | None = None,
           team_seats: Sequence[Sequence[int]] | None = None,
           viewer: int | None = None,
           card_label: Callable[[str], str] | None = None) -> str:
    """The text of one entry: ``names[seat]`` fills ``{name}`` and ``teams[team]``
    ``{team}`` (without names: ``seat N`` / ``team N``, numbered from 0 as in the engine).

    With ``team_seats`` (the seats of each side) the verb agrees with the side: the key's
    ``.yours`` form when ``viewer`` is on it ("Your side has opened"), its ``.plural`` form
    for a side of several players ("Ann & Bo have opened"). A ``count`` of 1 takes the
    key's ``.one`` form ("draws a card"). Each form is used only where the catalogue has it,
    as the web page does (``entryText`` in ``static/table.js``). ``card_label`` writes
    each card of the values that hold cards (:data:`CARD_VALUES`), e.g. with its suit's
    symbol ("7♥"); without it the card texts stay as they are ("7h")."""
    key = entry["key"]
    values = dict(entry.get("values", {}))
    if card_label is not None:
        for name in CARD_VALUES:
            if name in values:
                values[name] = " ".join(card_label(c) for c in str(values[name]).split())
    seat = entry.get("seat")
    if seat is not None:
        values["name"] = names[seat] if names else f"seat {seat}"
        if entry.get("bot"):
            values["name"] = t("event.bot_for", lang, name=values["name"])
    team = entry.get("team")
    if team is not None:
        values["team"] = teams[team] if teams else f"team {team}"
        if team_seats is not None:
            seats = team_seats[team]
            form = (".yours" if viewer is not None and viewer in seats
                    else ".plural" if len(seats) > 1 else "")
            if form and has(key + form, lang):
                key += form
    if values.get("count") == 1 and has(key + ".one", lang):
        key += ".one"
    return t(key, lang, **values)


def describe_event(event: Any, viewer_seat: int | None = None, lang: str = DEFAULT,
                   names: Sequence[str] | None = None,
                   teams: Sequence[str] | None = None,
                   team_seats: Sequence[Sequence[int]] | None = None,
                   card_label: Callable[[str], str] | None = None) -> str:
    """One event in words, as ``viewer_seat`` sees it ("You draw 7h" / "North draws a card
    from the stock"); "" for an event without a line. ``viewer_seat`` None (or
    ``canasta.core.events.PUBLIC``): an onlooker, who sees the public form only.
    ``team_seats`` makes the verb agree with a side and ``card_label`` writes the cards
    (:func:`render`)."""
    return " ".join(render(e, lang, names, teams, team_seats, viewer_seat, card_label)
                    for e in event_entries(event, viewer_seat))


