"""The requirements for going out: may a seat go out now, with a last discard or by melding
its last cards (canastas required and their kinds, the opening, the partner's answer, the
last discard, a stopping black three)? The exact search for a way out is
:mod:`canasta.core.goingout`; the checks of :mod:`canasta.core.legality` ask this module."""

from __future__ import annotations

from canasta.core.cards import POINTS, WILD_RANK
from canasta.core.data import HandData
from canasta.core.illegal import IllegalActionError
from canasta.core.melds import BLACK3, IS_WILD, RED3, purity
from canasta.core.rules import CANASTA_ONLY


def opening_short(s: HandData, team: int, tail: str,
                  points: int | None = None) -> IllegalActionError:
    """The refusal of a move that leaves ``team``'s opening short (rule ``opening.minimums``),
    with the side's minimum in force (``s.opening_minimum``: its score band plus any retract
    penalty) and, where given, the ``points`` laid so far; a side that may open only with a
    canasta (:data:`CANASTA_ONLY`) is told so, never the sentinel number. ``tail`` says what
    the move would do."""
    minimum = s.opening_minimum(team)
    values: dict[str, object] = {"minimum": minimum}
    if points is not None:
        values["points"] = points
    if minimum >= CANASTA_ONLY:
        values.update({"case": "canasta_only"})
        return IllegalActionError("opening.minimums",
                                  f"your side opens only with a canasta: {tail}", values)
    have = f"your opening has {points} of the {minimum} points needed" if points is not None \
        else f"the opening needs {minimum} points"
    return IllegalActionError("opening.minimums", f"{have}: {tail}", values)


def going_out_error(s: HandData, seat: int, discard: int | None,
                     final_meld: tuple[int, tuple[int, ...]] | None = None
                     ) -> IllegalActionError | None:
    """Why ``seat`` may not go out now (with ``discard`` as the last card, or by melding
    ``final_meld``), or None."""
    r = s.rules
    g = r.going_out
    team = s.team_of[seat]
    if s.answer is False:
        return IllegalActionError("going_out.ask_partner",
                                  "your partner said no (the answer is binding)",
                                  {"case": "partner_said_no"})
    if s.pending_pile:
        # The pile taken this turn comes to hand only with a complete opening (seed 002:
        # "solo una volta calate le combinazioni di apertura potrà prendere il resto del
        # pozzo"); going out would leave it nowhere.
        return opening_short(s, team, "complete it to take the rest of the pile into your hand",
                             s.opening_points)
    if s.stopped_turn and r.pile.black_three_stops_going_out and s.pile and (
        s.pile[-1] in BLACK3
    ):
        return IllegalActionError("pile.black_three_stops_going_out",
                                  "a black three stops you from going out this turn")
    if discard is None and g.discard_required:
        # Going out with no last discard: by melding the last cards or by a take of the pile
        # that empties the hand.
        return IllegalActionError("going_out.discard_required",
                                  "going out needs a final discard")
    if discard is not None:
        if IS_WILD[discard] and not g.final_discard_may_be_wild:
            return IllegalActionError("going_out.final_discard_may_be_wild",
                                      "the last discard may not be a wild card")
        if discard in BLACK3 and not g.final_discard_may_be_black_three:
            return IllegalActionError("going_out.final_discard_may_be_black_three",
                                      "the last discard may not be a black three")
        if discard in RED3 and not g.final_discard_may_be_black_three:
            return IllegalActionError("going_out.final_discard_may_be_black_three",
                                      "a red three kept as a stop card is not a last discard, "
                                      "like a black three")
    size = r.melds.canasta_size
    melds = {k: list(v) for k, v in s.melds[team].items()}
    if final_meld is not None:
        rank, cards = final_meld
        melds.setdefault(rank, []).extend(cards)
    canastas = [m for k, m in melds.items() if len(m) >= size]
    needed = r.canastas_required(s.players)
    if len(canastas) < needed:
        return IllegalActionError("going_out.canastas_required",
                                  f"your side needs {needed} canasta"
                                  f"{'s' if needed > 1 else ''} to go out",
                                  {"needed": needed, "canastas_required": needed})
    kinds = [purity(m, r) for m in melds.values() if len(m) >= size]
    if g.natural_and_mixed_required:
        if not (True in kinds and False in kinds):
            return IllegalActionError("going_out.natural_and_mixed_required",
                                      "your side needs a natural and a mixed canasta to go "
                                      "out")
    if g.natural_canastas_required:
        if kinds.count(True) < g.natural_canastas_required:
            return IllegalActionError("going_out.natural_canastas_required",
                                      f"your side needs {g.natural_canastas_required} natural "
                                      "canastas to go out",
                                      {"needed": g.natural_canastas_required})
    if r.melds.unfinished_wild_meld_restricts:
        wm = melds.get(WILD_RANK)
        if wm is not None and len(wm) < size:
            return IllegalActionError("melds.unfinished_wild_meld_restricts",
                                      "your wild-card canasta is unfinished")
    if not s.opened[team]:
        points = s.opening_points
        if final_meld is not None:
            points += sum(POINTS[c] for c in final_meld[1])
        concealed = s.is_concealed(seat)
        if points < s.opening_minimum(team) and not (
            concealed and g.concealed_waives_minimum
        ) and not (r.opening.canasta_always_opens and canastas) and not (
            r.opening.wild_meld_opens and s.opening_minimum(team) < CANASTA_ONLY
            and len(melds.get(WILD_RANK, ())) >= r.melds.min_cards
        ):
            return opening_short(s, team, "you may not go out before your side opens",
                                 points)
    return None
