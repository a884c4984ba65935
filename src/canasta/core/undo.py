"""The casual house rule *undo*: a player takes back their own melds and lay-offs of the
current turn, before the discard.

One mechanism for every front end (the terminal's ``canasta play --undo`` and the browser
table): a :class:`TurnMark` is a copy of the hand taken right after the player's own draw (or
pile take), with the number of actions and events at that moment. Undoing puts that copy
back as the match's state; the hand's record is read from the state's events, so the actions
since are gone from it too. It is allowed only while everything since the mark is the
same player's melds and lay-offs and their events (a meld, an opening): nothing another seat
did and no card the player had not seen comes back into view, so the rewind reveals nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from canasta.core.actions import Action, Draw, LayOff, Meld, TakePile
from canasta.core.events import Melded, Opened
from canasta.core.match import Match
from canasta.core.state import Phase, State

__all__ = ["TurnMark"]


@dataclass(frozen=True)
class TurnMark:
    """Where ``seat``'s turn may be rewound to: ``state`` (a copy), and how many actions of
    the hand's record and events of the state there were then."""

    seat: int
    state: State
    actions: int
    events: int

    @classmethod
    def after_draw(cls, match: Match, seat: int) -> TurnMark | None:
        """The mark of ``seat``'s turn, when ``seat`` has just drawn and now plays (None
        otherwise: the turn passed, the hand ended, or a question is pending)."""
        state = match.state
        if state.is_over or state.actor != seat or state.phase is not Phase.PLAY:
            return None
        return cls(seat, state.clone(), len(match.record.played), len(state.events))

    @classmethod
    def recover(cls, match: Match) -> TurnMark | None:
        """The mark of the current turn rebuilt from the hand's events, for a match taken up
        again (a saved game resumed, a server restarted) after its actor drew: the hand is
        replayed from its deal up to the actor's own draw or pile take, when every action
        since is that seat's meld or lay-off. None when there is no such turn, or the hand
        started from a position rather than a deal (``record.start``).

        Cost: one replay of the hand so far (``O(actions)``), so callers keep the result."""
        state = match.state
        rec = match.record
        if state.is_over or state.phase is not Phase.PLAY or rec.start is not None:
            return None
        seat = state.actor
        actions = rec.played
        i = len(actions)
        while i > 0 and actions[i - 1][0] == seat and isinstance(actions[i - 1][1],
                                                                  (Meld, LayOff)):
            i -= 1
        if i == 0 or actions[i - 1][0] != seat or not isinstance(actions[i - 1][1],
                                                                  (Draw, TakePile)):
            return None
        replay = State.deal(match.rules, match.players, deck=list(rec.deck),
                            dealer=rec.dealer, scores=list(rec.scores_before),
                            team_size=match.team_size)
        for _seat, action in actions[:i]:
            replay.apply(action)
        if replay.actor != seat or replay.phase is not Phase.PLAY:
            return None
        return cls(seat, replay, i, len(replay.events))

    def taken_back(self, match: Match) -> list[tuple[int, Action]] | None:
        """The actions ``(seat, action)`` an undo would take back now, oldest first; None
        when there is nothing to undo or the rule does not allow it."""
        state = match.state
        rec = match.record
        if state.is_over or state.actor != self.seat:
            return None
        since = rec.played[self.actions:]
        if not since:
            return None
        own = all(seat == self.seat and isinstance(action, (Meld, LayOff))
                  for seat, action in since)
        quiet = all(isinstance(e, (Melded, Opened)) for e in state.events[self.events:])
        return since if own and quiet else None

    def undo(self, match: Match) -> list[tuple[int, Action]]:
        """Rewind ``match`` to the mark (its state, and so its record); returns the actions
        taken back (empty: nothing was undone, the match is unchanged)."""
        since = self.taken_back(match)
        if not since:
            return []
        match.state = self.state.clone()
        return since
