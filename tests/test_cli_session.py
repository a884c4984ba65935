"""The terminal front ends' shared game logic (src/canasta/cli/session.py, moves.py,
explain.py): short moves, the grouped menu, undo as a house rule, hints, refusals in plain
words, the pile explained for the variant in play, and the bugs once found in them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from canasta import Match, State, load_preset
from canasta.cli import explain, moves, render
from canasta.cli.session import Session
from canasta.core.actions import Discard, Draw, LayOff, Meld, TakePile
from canasta.core.cards import POINTS, card_text, parse_card, rank_of
from canasta.core.events import Retracted
from canasta.core.state import Phase
from canasta.i18n import describe_event


def session(variant: str = "international", seed: int = 1, undo: bool = False,
            lang: str = "en") -> Session:
    match = Match(load_preset(variant), 4, seed=seed)
    return Session(match, render.seat_names(4), ["", "greedy", "greedy", "greedy"],
                   allow_undo=undo, lang=lang)


def to_human(s: Session) -> None:
    while s.bot_to_act():
        s.play_bot()


def to_a_meld(s: Session, limit: int = 300) -> Meld:
    """Play (draw, discard the first card) until the person, opened, may meld after drawing;
    returns that meld."""
    for _ in range(limit):
        to_human(s)
        assert not s.state.is_over, "the hand ended before the person could meld"
        view = s.view
        if Draw() in view.legal_actions:
            assert s.submit("s").kind == "played"
            continue
        melds = [a for a in view.legal_actions if isinstance(a, Meld)]
        if melds and view.opened[view.team]:
            return melds[0]
        s.play(next(a for a in view.legal_actions if isinstance(a, Discard)))
    raise AssertionError("no meld reached")


def test_short_forms_name_the_same_actions_as_the_text_forms() -> None:
    s = session()
    to_human(s)
    view = s.view
    assert moves.resolve("s", view) == Draw()
    held = view.hand[0]
    assert moves.resolve(f"d {card_text(held)}", view) == Discard(held)
    # A rank alone takes a card of that rank from the hand.
    rank = next(rank_of(c) for c in view.hand if c != 52 and rank_of(c) not in (2, 3))
    cards = [c for c in view.hand if c != 52 and rank_of(c) == rank]
    token = card_text(cards[0])[:-1]
    resolved = moves.resolve(f"m {token} JK", view)
    assert isinstance(resolved, Meld) and rank_of(resolved.cards[0]) == rank
    assert moves.resolve(f"l {token} {card_text(cards[0])}", view) == LayOff(rank, (cards[0],))
    # Every legal action's short form reads back as that action.
    for action in view.legal_actions:
        assert moves.resolve(moves.short_text(action), view) == action
    with pytest.raises(moves.MoveError, match="is not a card or a rank"):
        moves.resolve("m 9x", view)


def test_the_grouped_menu_has_one_line_per_meld_rank_and_one_for_discards() -> None:
    s = session("romanian", seed=3)
    to_human(s)
    s.submit("s")
    for _ in range(40):  # first rounds forbid melding (seed 004): play until a meld is legal
        view = s.view
        if any(isinstance(a, Meld) for a in view.legal_actions):
            break
        s.play(next(a for a in view.legal_actions if isinstance(a, Discard)))
        to_human(s)
        s.submit("s")
    view = s.view
    lines = moves.grouped_menu(view)
    melds = [a for a in view.legal_actions if isinstance(a, Meld)]
    assert melds, "no meld legal in the first 40 turns"
    labels = [line.label for line in lines]
    assert len(labels) == len(set(labels)), "one line per group"
    meld_lines = [line for line in lines if line.kind == "meld"]
    assert sum(len(line.moves) for line in meld_lines) == len(melds)
    assert len(meld_lines) < len(melds) or len(melds) == 1
    discards = [line for line in lines if line.kind == "discard"]
    assert len(discards) == 1
    assert set(discards[0].moves) == {card_text(a.card) for a in view.legal_actions
                                      if isinstance(a, Discard)}


def test_a_refusal_is_told_in_plain_words_and_why_quotes_the_seed() -> None:
    s = session("canastone", lang="it")
    to_human(s)
    held = card_text(s.view.hand[0])
    before = s.state.clone()
    reply = s.submit(f"d {held}")  # before drawing
    assert reply.kind == "refused"
    assert reply.lines[0].startswith("Non consentito: ") and "«" not in reply.lines[0]
    assert s.state.actions == before.actions  # nothing changed
    why = s.submit("why")
    assert "testo 000" in why.lines[0] and "«" in why.lines[0]


def test_undo_is_a_house_rule_off_by_default() -> None:
    s = session(seed=1)
    meld = to_a_meld(s)
    assert s.play(meld).kind == "played"
    reply = s.submit("undo")
    assert "house rule" in reply.lines[0]
    assert s.match.record.actions[-1] == (0, meld.text())  # the meld stays


def test_undo_takes_back_this_turns_melds_and_nothing_else() -> None:
    s = session(seed=1, undo=True)
    meld = to_a_meld(s)
    hand_before = sorted(s.view.hand)
    actions_before = list(s.match.record.actions)
    assert s.submit("undo").lines[0].startswith("Nothing to undo")
    assert s.play(meld).kind == "played"
    assert sorted(s.view.hand) != hand_before
    reply = s.submit("u")
    assert reply.lines[0].startswith("Taken back: m ")
    assert sorted(s.view.hand) == hand_before
    assert s.match.record.actions == actions_before
    assert s.state.phase is Phase.PLAY and s.state.actor == 0
    # After the discard there is nothing to undo: the turn is over.
    s.play(next(a for a in s.view.legal_actions if isinstance(a, Discard)))
    to_human(s)
    assert s.submit("undo").lines[0].startswith("Nothing to undo")


@dataclass(frozen=True)
class FakeReason:
    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FakeSuggestion:
    action: Any
    value: float
    reasons: tuple[FakeReason, ...] = ()


def test_hint_lists_suggest_s_moves_in_short_form(monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.bots

    seen: list[int] = []

    def suggest(view: Any, n: int = 3, budget: Any = None) -> list[FakeSuggestion]:
        seen.append(n)
        legal = list(view.legal_actions)[:n]
        return [FakeSuggestion(a, 40.0 - 10 * i, (FakeReason("test", {}),))
                for i, a in enumerate(legal)]

    monkeypatch.setattr(canasta.bots, "suggest", suggest, raising=False)
    s = session()
    to_human(s)
    reply = s.submit("hint")
    assert seen == [3]
    assert reply.lines[0].startswith("1. s  (+40 points)")
    assert len(reply.lines) == min(3, len(s.view.legal_actions))
    assert reply.choices[0] == Draw()


def random_states(variant: str, seeds: range, pred: Any,
                  options: dict[str, str] | None = None) -> State:
    rules = load_preset(variant, options or {})
    for seed in seeds:
        state = State.deal(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if pred(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no state found")


def test_a_pile_frozen_for_everyone_is_not_said_to_wait_for_the_opening() -> None:
    """A pile frozen by a wild card was said to be "FROZEN until your side opens"."""
    state = random_states("international", range(200), lambda s: s.pile_frozen and s.pile
                          and not s.opened[s.team_of[s.actor]])
    view = state.view(state.actor)
    first = explain.pile_lines(view)[0]
    assert first.startswith("Frozen for everyone")
    assert "until it opens" not in " ".join(explain.pile_lines(view))
    # Seed 002 freezes the pile only by the freezing cards; pagat's freeze for an unopened side
    # is the option frozen_for_unopened.
    other = random_states("international", range(200), lambda s: not s.pile_frozen and s.pile
                          and not s.opened[s.team_of[s.actor]],
                          {"frozen_for_unopened": "true"})
    assert explain.pile_lines(other.view(other.actor))[0].startswith(
        "Frozen for your side until it opens")


def test_romanian_first_round_does_not_offer_the_pile() -> None:
    """Seed 004 forbids taking the pile in the first round; the prompt follows the
    engine's legal actions."""
    s = session("romanian", seed=2)
    to_human(s)
    view = s.view
    assert s.state.first_round
    assert not any(isinstance(a, TakePile) for a in view.legal_actions)
    line = explain.turn_line(view, s.names)
    assert "take the pile" not in line and "draw from the stock" in line
    assert "Nobody takes the pile in the first round." in explain.pile_lines(view)
    assert not any("(take" in m for row in moves.grouped_menu(view) for m in row.moves)


def test_your_own_retract_is_told_as_yours() -> None:
    """It said "You take back their opening; their minimum rises" for one's own retract."""
    event = Retracted(seat=0, action=moves.parse_action("retract"), team=0,
                      to_hand=(parse_card("9s"),), to_pile=None, to_pile_count=0, minimum=60)
    names = render.seat_names(4)
    text = describe_event(event, 0, "en", names, render.team_names(((0, 2), (1, 3)), names))
    assert text.startswith("You take back your opening.")
    assert "their" not in text and "60" in text


def test_you_can_go_out_marker_follows_the_engine() -> None:
    state = random_states("international", range(300), lambda s: s.phase is Phase.PLAY
                          and s.going_out_plan() is not None)
    assert explain.can_go_out(state.view(state.actor))
    assert not explain.can_go_out(state.view((state.actor + 1) % 4))


@pytest.mark.parametrize("variant", ["international", "canastone", "classic_italian",
                                     "brazilian", "romanian"])
def test_every_legal_action_reads_back_from_its_short_form(variant: str) -> None:
    """Over random play, the short form of every legal action (what the menu and the
    completion show) names exactly that action, and the menu lists every action once."""
    rules = load_preset(variant)
    checked = 0
    kinds: set[str] = set()
    for seed in range(3):
        state = Match(rules, 4, seed=seed).state  # Match deals again after a misdeal
        rng = random.Random(seed)
        while not state.is_over and checked < 4000:
            view = state.view(state.actor)
            for action in view.legal_actions:
                assert moves.resolve(moves.short_text(action), view) == action, action
                checked += 1
                kinds.add(type(action).__name__)
            shown = sum(len(line.moves) for line in moves.grouped_menu(view))
            takes = sum(1 for a in view.legal_actions if isinstance(a, TakePile))
            # The takes share one entry ("take the pile: t 7h 7c · t 7h JK").
            assert shown == len(view.legal_actions) - takes + (1 if takes else 0)
            state.apply(rng.choice(state.legal_actions()))
    assert {"Draw", "Meld", "LayOff", "Discard", "TakePile"} <= kinds


def test_a_black_three_on_top_is_told_as_a_stop_after_the_draw_too() -> None:
    """Seed 002: "Quando viene scartato un 3 nero, il giocatore successivo non può raccogliere
    il pozzo": after drawing from the stock the top is still a black three, and the banner
    said "meld its top card with 2 cards of rank 3" (a black three cannot be melded so)."""
    state = random_states("international", range(300), lambda s: s.phase is Phase.PLAY
                          and s.pile and card_text(s.pile[-1]) in ("3s", "3c"))
    lines = explain.pile_lines(state.view(state.actor))
    assert lines[0].startswith("Stopped: a black three on top")
    assert not any("rank 3" in line for line in lines)


def test_the_log_s_verb_agrees_with_the_side_and_one_card_is_a_card() -> None:
    """The terminal log read "You & North has opened" and "West draws 1 card(s)"; it now
    agrees as the web page does (ui.match_over.plural, event.opened.yours)."""
    s = session(seed=1)
    lines: list[str] = []
    for _ in range(400):
        if s.state.is_over or s.human_to_act():
            if s.state.is_over:
                break
            view = s.view
            legal = view.legal_actions
            s.play(next((a for a in legal if isinstance(a, Meld)), legal[0]))
        else:
            s.play_bot()
    lines = [s.describe(e) for e in s.state.events]
    text = "\n".join(lines)
    assert "card(s)" not in text and " has opened" not in text.replace("Your side has", "")
    assert any(line.endswith("draws a card from the stock.") for line in lines)
    assert any(" have opened with " in line or "Your side has opened" in line
               for line in lines), text


def test_a_player_with_one_card_holds_a_card_not_1_cards() -> None:
    """The seats' panel said "East 1 cards"; one card takes the ``.one`` form."""
    from canasta.cli.table_view import seats_text

    state = random_states("international", range(300), lambda s: 1 in s.hand_size)
    view = state.view(0)
    names = render.seat_names(4)
    teams = render.team_names(((0, 2), (1, 3)), names)
    lines = seats_text(view, names, teams, "en").plain.splitlines()
    one = names[list(state.hand_size).index(1)]
    assert any(line.strip().endswith(f"{one} 1 card") for line in lines), lines
    assert not any("1 cards" in line for line in lines)
    assert "1 carta" in seats_text(view, names, teams, "it").plain


def test_a_canasta_is_told_by_its_kind_in_the_players_language() -> None:
    """The Italian table showed "[A×7 mixed canasta of aces]": English, and "×7" read as a
    product. A canasta reads "A: canasta sporca (7)"; a side's header that wraps goes on
    indented, not as if it were a meld."""
    from rich.console import Console

    from canasta.cli.render import CardStyle
    from canasta.cli.table_view import melds_text

    state = random_states("international", range(400), lambda s: any(
        len(m) >= 7 for side in s.melds for m in side.values()))
    view = state.view(0)
    names = render.seat_names(4, lang="it")
    teams = render.team_names(((0, 2), (1, 3)), names)

    def shown(width: int, lang: str) -> list[str]:
        console = Console(width=80, file=None, record=True, color_system=None)
        with console.capture() as cap:
            console.print(melds_text(view, names, teams, CardStyle(symbols=True), lang, width))
        return cap.get().splitlines()

    italian = "\n".join(shown(46, "it"))
    assert "mixed" not in italian and "natural" not in italian and "×" not in italian
    assert any(w in italian for w in ("canasta pulita (", "canasta sporca (", "canasta di matte ("))
    narrow = shown(24, "en")
    headers = [i for i, line in enumerate(narrow) if line.startswith(tuple(teams))]
    assert headers
    for i in headers:  # a header too long for 24 cells goes on indented deeper than melds
        assert narrow[i + 1].startswith("    "), narrow


def test_a_wild_card_on_top_is_told_as_untakeable_until_covered() -> None:
    """With a deuce on top the pile read "Frozen for everyone: only 2 natural cards of rank 2
    from your hand take it", which no hand can do: the engine refuses any take while a wild
    card is on top."""
    from canasta.core.cards import is_wild

    state = random_states("international", range(400), lambda s: s.pile and is_wild(s.pile[-1])
                          and s.phase is Phase.DRAW)
    view = state.view(state.actor)
    assert not any(isinstance(a, TakePile) for a in view.legal_actions)
    lines = explain.pile_lines(view)
    top = card_text(state.pile[-1])
    assert lines[0] == f"{top} on top: nobody takes the pile until a discard covers it."
    assert "of rank 2" not in " ".join(lines) and "of rank JK" not in " ".join(lines)
    assert lines[1].startswith("Then it stays frozen for everyone")
    assert lines[-1] == "You cannot take it now."


def test_an_empty_pile_and_the_hands_points_read_as_sentences() -> None:
    """"Pile The pile is empty." and "· your hand 150" (150 what?)."""
    from canasta.cli.render import CardStyle
    from canasta.cli.table_view import pile_text

    state = random_states("international", range(300), lambda s: not s.pile)
    view = state.view(0)
    assert pile_text(view, CardStyle(symbols=True), "en").plain == "The pile is empty."
    assert explain.points_line(view).endswith(
        f"your hand counts {sum(POINTS[c] for c in view.hand)}")
