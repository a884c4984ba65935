"""The table explained in words for the seat that looks at it: the discard pile (what it takes
to take it now, for the variant in play), whose turn it is and what may be done, each player's
last move, "you can go out", and the points melded and held.

Everything is read from a :class:`~canasta.core.state.View`: its legal actions say what may
be done (the front end never decides a rule), its rules record says what the words explain,
and ``view.table`` (the state with the unseen cards taken out) says whether the pile is frozen
for everyone or only for a side that has not opened. Texts come from the ``play.*`` keys of
the catalogues (:mod:`canasta.i18n`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta.core.actions import Discard, Draw, EndHand, TakePile
from canasta.core.cards import POINTS, card_text, is_red_three, is_wild, rank_of, rank_text
from canasta.core.events import Drew, TookPile, action_of
from canasta.core.state import Phase, View
from canasta.i18n import describe_event, t

__all__ = ["can_go_out", "last_moves", "last_turns", "pile_cards_lines", "pile_lines",
           "points_line", "turn_line"]


def pile_lines(view: View, lang: str = "en") -> list[str]:
    """What the discard pile takes now, in a few sentences (the first says how it stands:
    empty, stopped, frozen for everyone, frozen for the seat's side only, or open)."""
    rules, pile = view.rules, view.rules.pile
    if view.pile_top is None or not view.pile_size:
        return [t("play.pile.empty", lang)]
    rank = rank_text(rank_of(view.pile_top)) if view.pile_top != 52 else "JK"
    out: list[str] = []
    table = view.table
    if rules.turn.first_round_no_meld and table.first_round:
        out.append(t("play.pile.first_round", lang))
    if view.stopped:  # this turn nobody takes it, whether or not its player has drawn yet
        return [*out, t("play.pile.stopped", lang)]
    frozen_all = table.pile_frozen or pile.always_frozen
    if is_wild(view.pile_top) or is_red_three(view.pile_top):
        # no rank to match: nobody takes it until a discard covers it (the engine's
        # "wild_on_top" refusal), and a wild card in it freezes it for everyone after
        out.append(t("play.pile.wild_top", lang, card=card_text(view.pile_top)))
        if frozen_all:
            out.append(t("play.pile.then_frozen", lang, n=pile.frozen_naturals))
    elif frozen_all:
        key = "play.pile.frozen_always" if pile.always_frozen else "play.pile.frozen_all"
        out.append(t(key, lang, n=pile.frozen_naturals, rank=rank))
        if pile.frozen_requires_canasta:
            out.append(t("play.pile.frozen_canasta", lang))
    elif view.pile_frozen:
        out.append(t("play.pile.frozen_unopened", lang, n=pile.frozen_naturals, rank=rank))
        if pile.frozen_requires_canasta:
            out.append(t("play.pile.frozen_canasta", lang))
    else:
        key = ("play.pile.open_one" if pile.unfrozen_naturals <= 1
               else "play.pile.open_wild" if pile.unfrozen_wild_may_substitute
               else "play.pile.open")
        out.append(t(key, lang, n=pile.unfrozen_naturals, rank=rank))
        if pile.layoff_takes_unfrozen_pile and rank_of(view.pile_top) in view.melds[view.team]:
            out.append(t("play.pile.onto_meld", lang, rank=rank))
    if pile.opening_take_top_card_only and not view.opened[view.team]:
        out.append(t("play.pile.top_only", lang))
    if view.actor == view.seat and view.phase is Phase.DRAW:
        takes = [a for a in view.legal_actions if isinstance(a, TakePile)]
        if takes:
            out.append(t("play.pile.you_can", lang))
        else:
            out.append(t("play.pile.you_cannot", lang))
    return out


def turn_line(view: View, names: Sequence[str], lang: str = "en") -> str:
    """Whose turn it is and, for the seat's own turn, what it may do now (from the legal
    actions: a first round that forbids taking the pile offers only the stock)."""
    if view.phase is Phase.OVER:
        return t("play.turn.over", lang)
    if view.phase is Phase.ANSWER:
        if view.actor == view.seat:
            return t("play.turn.answer", lang, name=names[view.current])
        return t("play.turn.other_answer", lang, name=names[view.actor])
    if view.actor != view.seat:
        return t("play.turn.other", lang, name=names[view.actor])
    if view.phase is Phase.DRAW:
        legal = view.legal_actions
        steps = []
        if Draw() in legal:
            steps.append(t("play.step.draw", lang))
        if any(isinstance(a, TakePile) for a in legal):
            steps.append(t("play.step.take", lang))
        if EndHand() in legal:
            steps.append(t("play.step.end", lang))
        return t("play.turn.yours", lang, steps=t("play.or", lang).join(steps))
    if not view.opened[view.team] and view.opening_points:
        return t("play.turn.opening", lang, points=view.opening_points,
                 minimum=view.opening_minimum[view.team])
    return t("play.turn.play", lang)


def last_turns(view: View, names: Sequence[str], teams: Sequence[str],
               lang: str = "en", card_label: Callable[[str], str] | None = None
               ) -> list[list[str]]:
    """Each seat's moves of its last turn this hand (from its draw or pile take on; a turn
    not begun yet is ``[]``), in words as the seat of ``view`` saw them; in seat order.
    A draw from the stock is left out when the turn did more (it is every turn's first
    move); a pile taken is kept. ``card_label`` writes the cards
    (:func:`canasta.i18n.events.render`)."""
    turns: dict[int, list[tuple[bool, str]]] = {}
    for event in view.events:
        played = action_of(event)
        if played is None:
            continue
        text = describe_event(event, view.seat, lang, names, teams, view.teams, card_label)
        if not text:
            continue
        seat = played[0]
        if isinstance(event, (Drew, TookPile)):
            turns[seat] = []
        turns.setdefault(seat, []).append((isinstance(event, Drew), text))
    out = []
    for seat in range(view.players):
        turn = turns.get(seat, [])
        if len(turn) > 1:
            turn = [m for m in turn if not m[0]] or turn[-1:]
        out.append([text for _, text in turn])
    return out


def last_moves(view: View, names: Sequence[str], teams: Sequence[str],
               lang: str = "en", card_label: Callable[[str], str] | None = None) -> list[str]:
    """Each seat's last move this hand, in words as the seat of ``view`` saw it ("-" for a
    seat that has not moved yet); in seat order. ``card_label`` writes the cards
    (:func:`canasta.i18n.events.render`)."""
    last: dict[int, str] = {}
    for event in view.events:
        played = action_of(event)
        if played is None:
            continue
        text = describe_event(event, view.seat, lang, names, teams, view.teams, card_label)
        if text:
            last[played[0]] = text
    return [last.get(seat, "-") for seat in range(view.players)]


def can_go_out(view: View) -> bool:
    """May the seat of ``view`` go out this turn (it is its turn to meld and discard, and a
    sequence of its legal moves empties its hand: a discard of its last card, or the engine's
    going-out plan over the cards it holds)."""
    if view.actor != view.seat or view.phase is not Phase.PLAY:
        return False
    if len(view.hand) == 1 and any(isinstance(a, Discard) for a in view.legal_actions):
        return True
    try:
        return view.table.going_out_plan() is not None
    except Exception:  # the plan is a convenience; a failure must not stop the game
        return False


def points_line(view: View, lang: str = "en") -> str:
    """The live count: points melded by each side and the points of the seat's own hand
    (what it would cost if the hand ended now), in card points."""
    melded = [sum(POINTS[c] for m in team.values() for c in m) for team in view.melds]
    return t("play.points", lang, ours=melded[view.team],
             theirs=" / ".join(str(m) for i, m in enumerate(melded) if i != view.team) or "-",
             hand=sum(POINTS[c] for c in view.hand))


def pile_cards_lines(view: View, lang: str = "en",
                     card_label: Callable[[str], str] | None = None) -> list[str]:
    """The discard pile's face-up cards, bottom to top (every discard was seen), and how many
    lie face down under them (seed 000's pile seeded under the upcard). ``card_label``
    writes each card (``7h`` -> ``7♥`` on the full-screen table)."""
    label = card_label or (lambda text: text)
    out = [t("play.pile.cards", lang, n=len(view.pile),
             cards=" ".join(label(card_text(c)) for c in view.pile) or "-")]
    hidden = view.hidden.get("pile", 0)
    if hidden:
        out.append(t("play.pile.hidden", lang, n=hidden))
    return out
