"""canasta: an exact engine for the Canasta family of card games.

Five rule sets from the seed texts (international, canastone, classic_italian, brazilian,
romanian) as data; one engine; bots; terminal and browser play.

>>> from canasta import load_preset, State
>>> state = State.deal(load_preset("international"), players=4, seed=1)
>>> state.legal_actions()[0].text()
'draw'
"""

from canasta.core.actions import (
    Action,
    ActionParseError,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
    action_from_json,
    action_to_json,
    parse_action,
)
from canasta.core.cards import CardParseError, card_text, cards_text, parse_card, parse_cards
from canasta.core.codec import ActionCodec
from canasta.core.events import Event
from canasta.core.match import HandRecord, Match
from canasta.core.rules import PRESETS, Rules, RulesError, load_preset, preset_options
from canasta.core.scoring import ScoreSheet, TeamHand, score_hand
from canasta.core.state import IllegalActionError, LegalActions, MisdealError, Phase, State, View

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionCodec", "ActionParseError", "Answer", "AskPartner", "CardParseError",
    "Discard", "Draw", "EndHand", "Event", "HandRecord", "IllegalActionError", "LayOff",
    "LegalActions", "Match", "Meld", "MisdealError", "PRESETS", "Phase", "Retract", "Rules",
    "RulesError", "ScoreSheet", "State", "TakePile", "TeamHand", "View", "action_from_json",
    "action_to_json", "card_text", "cards_text", "load_preset", "parse_action", "parse_card",
    "parse_cards", "preset_options", "score_hand", "__version__",
]
