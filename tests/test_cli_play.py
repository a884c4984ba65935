"""`canasta play` driven through Typer's CliRunner with scripted input.

A replica of the game is played here through the library (the same seeded match, the same
seeded bot decisions, the person's moves chosen by a fixed policy); its moves become the typed
input, and the record the command saves must equal the replica's, move for move.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from canasta import Match, load_preset
from canasta.bots import BOTS, make_bot
from canasta.cli import _register as register_commands
from canasta.cli import app, render
from canasta.cli.play import decision_seed
from canasta.core.actions import Action, AskPartner, Discard, Draw, EndHand, parse_action
from canasta.core.cards import JOKER, card_text, cards_of
from canasta.core.events import Drew, action_of
from canasta.core.state import IllegalActionError, Phase, View
from canasta.formats.records import check_record, load_record
from canasta.i18n import describe_event
from canasta.i18n.refusals import refusal_text

register_commands()
runner = CliRunner()
SEED = 5
BOT_KINDS = ["", "random", "random", "random"]


def flat(text: str) -> str:
    """Output with Rich's line wrapping and table rules undone."""
    return " ".join(text.translate({ord(c): " " for c in "│┃╎"}).split())


def human_line(view: View) -> str:
    """The person's policy: draw (by number), discard the first listed card (typed)."""
    legal = view.legal_actions
    if view.phase is Phase.ANSWER:
        return "no"
    if view.phase is Phase.DRAW:
        if Draw() in legal:
            return str(legal.index(Draw()) + 1)
        if EndHand() in legal:
            return "end-hand"
        return "1"
    discards = [a for a in legal if isinstance(a, Discard)]
    return discards[0].text() if discards else "1"


def line_action(line: str, view: View) -> Action:
    if line.isdigit():
        return view.legal_actions[int(line) - 1]
    if line in ("yes", "no"):
        return parse_action(f"answer {line}")
    return parse_action(line)


def replica(hands: int, kinds: list[str] = BOT_KINDS, seed: int = SEED,
            options: dict[str, str] | None = None) -> tuple[list[str], list[int], Match]:
    """Play ``hands`` hands as `canasta play` would. Returns the person's input lines, the
    index in them where each hand starts, and the match."""
    match = Match(load_preset("international", options), 4, seed=seed)
    lines: list[str] = []
    starts = [0]
    while True:
        steps = 0
        while not match.state.is_over:
            steps += 1
            assert steps < 5000, "the scripted hand does not end"
            state = match.state
            seat = state.actor
            view = state.view(seat)
            if seat == 0:
                line = human_line(view)
                lines.append(line)
                match.apply(line_action(line, view))
            else:
                seed_now = decision_seed(seed, seat, len(match.hands), len(match.record.actions))
                match.apply(make_bot(kinds[seat], seed_now).choose(view))
        match.finish_hand()
        if match.winner is not None or len(match.hands) >= hands:
            return lines, starts, match
        lines.append("")  # "Press Enter to deal the next hand"
        starts.append(len(lines))
        match.next_hand()


def play(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def recorded_actions(path: Path) -> list[list[list[object]]]:
    data = json.loads(path.read_text("utf-8"))
    return [h["actions"] for h in data["hands"]]


def test_a_whole_hand_by_numbers_and_typed_moves(tmp_path: Path) -> None:
    lines, starts, match = replica(1)
    first = Match(load_preset("international"), 4, seed=SEED)
    # What the engine says about a discard before drawing, at the person's first decision.
    state = first.state
    while state.actor != 0:
        seat = state.actor
        seed_now = decision_seed(SEED, seat, 1, len(first.record.actions))
        first.apply(make_bot("random", seed_now).choose(state.view(seat)))
    held = state.hand_cards(0)[0]
    with pytest.raises(IllegalActionError) as info:
        state.clone().apply(Discard(held))
    not_held = next(c for c in range(JOKER) if c not in cards_of(state.hands[0]))
    extra = ["help", f"discard {card_text(held)}", "why", "meld 9x 9s", "99",
             f"discard {card_text(not_held)}", "table"]
    save = tmp_path / "game.json"
    code, out = play(["--seed", str(SEED), "--bots", "random", "--save", str(save)],
                     extra + lines + ["quit"])
    text = flat(out)
    assert code == 0
    # help lists the legal moves by number; the first decision is to draw.
    assert "Type the number of a move" in text and "1 draw" in text
    # The illegal discard gets the engine's reason in plain words; `why` adds the seed's
    # own sentence and the rule; the game goes on.
    full = flat(refusal_text(info.value, first.rules, "en"))
    plain, quote = full.split(" — ", 1)
    assert plain.startswith("Not allowed: ") and plain in text
    assert quote.startswith("seed 002: ")
    sentence = quote.removeprefix("seed 002: ")
    assert text.index(plain) < text.index(sentence), "the quote comes only with `why`"
    assert "the International Canasta text (seed 002, written in Italian) says: " in text
    assert f"rule: {info.value.rule}" not in text  # no internal rule id
    assert "Cannot read that move: '9x' is not a card or a rank" in text
    assert text.count("Not allowed: ") >= 2  # the card not held, refused by the engine
    assert "No move number 99" in text
    # The hand was played to its end and scored, item by item.
    sheets = match.record.sheets
    ends = {"went_out": "went out (", "stock_exhausted": "the stock is gone",
            "last_card_red_three": "the last card of the stock was a red three"}
    assert f"Hand 1 ends: {ends[match.record.end_reason]}" in text
    for sheet in sheets:
        assert f"Hand total {sheet.hand_total:+d}" in text
        assert f"Score after {sheet.score_after}" in text
    assert "Match after 1 hand" in text
    assert "Saved to" in text
    # The saved record is the replica's, move for move.
    assert recorded_actions(save) == [[[s, t] for s, t in match.record.actions]]
    data = json.loads(save.read_text("utf-8"))
    assert data["scores"] == match.scores
    assert data["names"] == ["You", "West (random)", "North (random)", "East (random)"]


def test_bots_moves_show_as_they_happen() -> None:
    lines, _, match = replica(1)
    code, out = play(["--seed", str(SEED), "--bots", "random"], lines[:3] + ["quit"])
    assert code == 0
    # Each move is told from its event, as the person sees it (a bot's draw: "West draws a
    # card", without the card).
    bot_events = [e for e in match.state.events
                  if (played := action_of(e)) is not None and played[0] != 0][:3]
    names = render.seat_names(4)
    teams = render.team_names(match.teams, names)
    assert bot_events
    for event in bot_events:
        assert describe_event(event, 0, "en", names, teams) in out


def test_help_says_quit_keeps_the_match_only_with_save() -> None:
    """`help` said "quit (save and leave)" where quitting without --save keeps nothing."""
    code, out = play(["--seed", str(SEED), "--bots", "random"], ["help", "quit"])
    assert code == 0
    flat = " ".join(out.split())
    assert "save and leave" not in flat
    assert "quit (leave; with --save the match is kept)" in flat
    assert "Use --save PATH to keep a game for later." in flat


def test_save_quit_resume_goes_on_identically(tmp_path: Path) -> None:
    lines, starts, match = replica(3)
    assert len(starts) == 3, "the scripted match must reach a third hand"
    save = tmp_path / "game.json"
    common = ["--bots", "random"]

    # 1. Play into the middle of hand 2 and quit.
    mid = starts[1] + (starts[2] - starts[1]) // 2
    code, out = play(["--seed", str(SEED), "--save", str(save), *common], lines[:mid] + ["quit"])
    assert code == 0 and "Saved to" in out
    resumed, _ = load_record(save)
    saved = recorded_actions(save)
    assert len(saved) == 2
    assert saved[0] == [[s, t] for s, t in match.hands[0].actions]
    assert saved[1] == [[s, t] for s, t in match.hands[1].actions[:len(saved[1])]]
    assert resumed.state.actor == 0  # it stopped at the person's decision

    # 2. Resume, finish hand 2, quit at the "next hand" prompt.
    code, out = play(["--resume", str(save), *common], lines[mid:starts[2] - 1] + ["quit"])
    assert code == 0
    assert "Resumed" in out and "Hand 2" in out
    saved = recorded_actions(save)
    assert saved[1] == [[s, t] for s, t in match.hands[1].actions]
    data = json.loads(save.read_text("utf-8"))
    assert data["hands"][1]["sheets"] == [s.to_dict() for s in match.hands[1].sheets]

    # 3. Resume again: hand 3 is dealt from the deck the uninterrupted match had, and goes on
    #    move for move.
    code, out = play(["--resume", str(save), *common], lines[starts[2] - 1:starts[2] + 6]
                     + ["quit"])
    assert code == 0
    data = json.loads(save.read_text("utf-8"))
    assert len(data["hands"]) == 3
    replica_deck = match.hands[2].deck
    assert data["hands"][2]["deck"] == [card_text(c) for c in replica_deck]
    played = data["hands"][2]["actions"]
    assert played == [[s, t] for s, t in match.hands[2].actions[:len(played)]]
    assert sum(1 for s, _ in played if s == 0) == 6
    assert check_record(data, str(save)) == []


def test_a_match_is_played_to_its_winner(tmp_path: Path) -> None:
    lines, starts, match = replica(20, options={"end.target": "1000"})
    assert match.winner is not None
    save = tmp_path / "m.json"
    code, out = play(["--seed", str(SEED), "--bots", "random", "--rule", "end.target=1000",
                      "--save", str(save)], lines)
    assert code == 0
    won = ["Your side wins the match!", "West & East win the match!"]
    assert won[match.winner] in out
    assert f"Match after {len(match.hands)} hand" in out
    data = json.loads(save.read_text("utf-8"))
    assert data["winner"] == match.winner and data["scores"] == match.scores
    assert len(data["hands"]) == len(starts)
    assert check_record(data, str(save)) == []  # the saved match replays and checks


class AskerBot:
    """Asks its partner whenever it may; otherwise plays as the greedy bot."""

    name = "asker"

    def __init__(self, seed: int | None = None) -> None:
        self.inner = make_bot("greedy", seed)

    def choose(self, view: View) -> Action:
        if AskPartner() in view.legal_actions:
            return AskPartner()
        return self.inner.choose(view)


def script_until_asked(seed: int, kinds: list[str]) -> list[str] | None:
    """The person's lines up to the partner's question "may I go out?" (answered "y"), or
    None when the first hand ends without one."""
    match = Match(load_preset("international"), 4, seed=seed)
    lines: list[str] = []
    while not match.state.is_over:
        state = match.state
        seat = state.actor
        view = state.view(seat)
        if seat == 0:
            if view.phase is Phase.ANSWER:
                return [*lines, "y"]
            line = human_line(view)
            lines.append(line)
            match.apply(line_action(line, view))
        else:
            seed_now = decision_seed(seed, seat, 1, len(match.record.actions))
            match.apply(BOTS[kinds[seat]](seed_now).choose(view))
    return None


def test_the_person_answers_the_partners_question(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "asker", AskerBot)
    kinds = ["", "random", "asker", "random"]
    found = next(((seed, lines) for seed in range(1, 30)
                  if (lines := script_until_asked(seed, kinds)) is not None), None)
    assert found is not None, "no seed in 1..29 has the partner ask"
    seed, lines = found
    code, out = play(["--seed", str(seed), "--bots", "random,asker,random"], lines + ["quit"])
    assert code == 0
    assert "North asks: may I go out?" in out
    assert "You answer yes." in out  # the answer event, as the log tells it


@pytest.mark.parametrize(("args", "message"), [
    (["--rule", "no.such_rule=1"], "unknown rule 'no.such_rule'"),
    (["--rule", "noequals"], "expected name=value"),
    (["--variant", "klondike"], "unknown variant 'klondike'"),
    (["--players", "5"], "not 5"),
    (["--bots", "random,random"], "expected 1 or 3 bot names"),
    (["--bots", "nobot"], "unknown bot 'nobot'"),
])
def test_bad_options_exit_2_with_the_reason(args: list[str], message: str) -> None:
    code, out = play(args, [])
    assert code == 2
    assert message in flat(out)


def test_two_players_draw_two_and_have_no_partner() -> None:
    code, out = play(["--players", "2", "--seed", "1", "--bots", "random"], ["1", "quit"])
    assert code == 0
    assert "Your partner" not in out and " & " not in out
    match = Match(load_preset("international"), 2, seed=1)
    while match.state.actor != 0:
        seat = match.state.actor
        seed_now = decision_seed(1, seat, 1, len(match.record.actions))
        match.apply(make_bot("random", seed_now).choose(match.state.view(seat)))
    event = match.apply(Draw())
    assert isinstance(event, Drew) and event.drawn is not None
    drawn = list(event.drawn)
    assert len(drawn) == 2  # seed 001/pagat: two players draw two cards
    # The draw is told once, by its event ("You draw Qd 5h."), not again as "You drew".
    assert f"You draw {card_text(drawn[0])} {card_text(drawn[1])}." in out
    assert "You drew" not in out


def test_an_unwritable_save_path_exits_2(tmp_path: Path) -> None:
    code, out = play(["--save", str(tmp_path / "no" / "dir" / "g.json")], ["quit"])
    assert code == 2
    assert "cannot save to" in flat(out)


def test_resume_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, out = play(["--resume", str(tmp_path / "none.json")], [])
    assert code == 2
    assert "cannot read" in out


def test_play_from_a_saved_position_continues_that_table(tmp_path: Path) -> None:
    """`canasta play --from POSITION` starts from a position printed by `canasta position`:
    the table it shows is that position's, and moves continue from it."""
    save = tmp_path / "g.json"
    code, _ = play(["--save", str(save), "--bots", "random"], ["1", "quit"])
    assert code == 0
    match, _ = load_record(save)
    played = len(match.state.actions)
    pos = tmp_path / "pos.json"
    result = runner.invoke(app, ["position", str(save)])
    assert result.exit_code == 0
    pos.write_text(result.stdout, "utf-8")
    save2 = tmp_path / "g2.json"
    code, out = play(["--from", str(pos), "--bots", "random", "--save", str(save2)],
                     ["help", "quit"])
    assert code == 0
    assert f"{played} actions played" in flat(out)
    resumed, _ = load_record(save2)
    assert resumed.state.hand_cards(0) == match.state.hand_cards(0)
    assert resumed.state.actions == match.state.actions


def test_play_from_a_malformed_position_exits_2_and_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "canasta-position", "version": 1', "utf-8")
    code, out = play(["--from", str(bad)], [])
    assert code == 2
    assert "bad.json" in flat(out)


def test_refusals_in_italian_with_the_variants_own_seed() -> None:
    """`--lang it`: "Non consentito: …" with the sentence of the variant's seed text."""
    code, out = play(["--seed", str(SEED), "--bots", "random", "--variant", "canastone",
                      "--lang", "it"], ["discard JK", "why", "quit"])
    text = flat(out)
    assert code == 0
    assert "Non consentito: " in text and "(testo 000, scritto in italiano) dice: «" in text
    assert "Not allowed" not in text
