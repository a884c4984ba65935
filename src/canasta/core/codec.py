"""Integer action ids for learning agents: :class:`ActionCodec`.

An id names an action up to the choice of suits where suits do not matter to the rules: a meld
of nines is (rank 9, naturals, jokers, deuces), whatever the suits of the nines and deuces.
Where suits matter, the id keeps them: a discard is its exact card code (black and red threes
differ; the 53 codes keep it simple), a sequence canasta is its suit and high card (seed 003:
"Canastra Real ... una sequenza naturale di sette carte tutte dello stesso seme"), a
declaration of kept red threes counts hearts and diamonds apart.

The id space depends only on the rules and the player count (through the packs in play), so
``size`` is fixed for a game; docs/formats.md ("Action ids") gives the layout. Counts are
bounded by what the rules allow (the copies of a rank in the packs, ``melds.max_wilds``, the
jokers and deuces in the deck, ``melds.canasta_size`` for a wild meld, ``melds.wild_ratio`` for
a new meld), which keeps ``size`` at about two thousand for the default presets.

Decoding picks the concrete cards from the acting seat's hand by the engine's canonical suit
choice (lowest card code first, jokers before deuces), the choice ``State.legal_actions`` makes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from canasta.core.actions import (
    Action,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import BLACK_THREES, JOKER, NUM_CODES, RED_THREES, WILD_RANK, rank_of
from canasta.core.legality import IllegalActionError, verify
from canasta.core.rules import Rules
from canasta.core.wildlimit import ratio_code, wild_cap

if TYPE_CHECKING:
    from canasta.core.state import State

#: Natural ranks that make melds, in id order (ace high, as ``cards.NATURAL_RANKS``).
_RANKS = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4)
_BLACK3_RANK = 3
_DEUCES = (4, 5, 6, 7)
_RANK = tuple(rank_of(c) for c in range(NUM_CODES))
_IS_DEUCE = tuple(c in _DEUCES for c in range(NUM_CODES))

# Key shapes (tuples, first item the kind); docs/formats.md lists them in id order.
Key = tuple[object, ...]


class ActionCodec:
    """Maps actions to integer ids in ``range(size)`` and back, for one rule set and player
    count.

    Args:
        rules: the rule set (its packs, wild-card limits and optional mechanics shape the ids).
        players: the player count (the packs in play depend on it).

    Raises:
        ValueError: ``players`` is not a player count of ``rules``.

    ``size`` is fixed; ``keys[i]`` is the key of id ``i`` (a tuple such as
    ``("meld", 9, 2, 1, 0)``: rank 9, two naturals, one joker, no deuce).
    """

    __slots__ = ("rules", "players", "size", "keys", "_ids", "_pairs", "_run_size")

    def __init__(self, rules: Rules, players: int) -> None:
        if players not in rules.deal.player_counts:
            raise ValueError(f"{rules.name} is not played by {players} players "
                             "[deal.player_counts]")
        self.rules = rules
        self.players = players
        packs = rules.packs(players)
        mr = rules.melds
        jokers = packs * rules.deal.jokers_per_pack
        deuces = packs * 4
        cap = max(0, min(mr.max_wilds, jokers + deuces))
        # (jokers, deuces) pairs of at most ``cap`` wild cards, jokers first.
        self._pairs = [(j, d) for j in range(min(jokers, cap) + 1)
                       for d in range(min(deuces, cap - j) + 1)]
        self._run_size = mr.canasta_size
        keys: list[Key] = [("draw",), ("end-hand",), ("ask-partner",), ("answer", True),
                           ("answer", False), ("retract",)]
        keys += [("discard", c) for c in range(NUM_CODES)]
        nat_max = packs * 4
        # Taking the pile: naturals of the top card's rank from hand (the top card is one of
        # the copies), wild cards from hand.
        keys += [("take", k, j, d) for k in range(nat_max) for j, d in self._pairs]
        ranks: list[tuple[int, int]] = [(r, nat_max) for r in _RANKS]
        if mr.black_three_meld_going_out or mr.black_threes_out_of_play:
            ranks.append((_BLACK3_RANK, packs * 2))
        ratio = ratio_code(mr.wild_ratio)
        for rank, most in ranks:
            for k in range(1, most + 1):
                for j, d in self._pairs:
                    if j + d <= wild_cap(mr.max_wilds, ratio, k):
                        keys.append(("meld", rank, k, j, d))
        for rank, most in ranks:
            for k in range(most + 1):
                for j, d in self._pairs:
                    if k + j + d:
                        keys.append(("lay-off", rank, k, j, d))
        if mr.wild_melds:
            # A meld of wild cards only holds at most a canasta (seed 000: "canasta di Joker
            # e pinelle"; legality: "a wild-card canasta has canasta_size cards").
            wild = [(j, d) for j in range(min(jokers, mr.canasta_size) + 1)
                    for d in range(min(deuces, mr.canasta_size - j) + 1) if j + d]
            keys += [("wild-meld", j, d) for j, d in wild]
            keys += [("wild-lay-off", j, d) for j, d in wild]
        if mr.real_canasta:
            size = mr.canasta_size
            keys += [("run", suit, high) for suit in range(4)
                     for high in range(14, 2 + size, -1)]
        if rules.red_threes.may_keep_as_stop:
            keys += [("declare", h, dm) for h in range(packs + 1) for dm in range(packs + 1)
                     if h + dm]
        self.keys: tuple[Key, ...] = tuple(keys)
        self._ids: dict[Key, int] = {k: i for i, k in enumerate(keys)}
        self.size = len(keys)

    # -- encoding ------------------------------------------------------------------------------
    def key(self, action: Action) -> Key:
        """The key of ``action`` (see the class docstring); no range check.

        Raises:
            ValueError: naming the action when it has no key (e.g. cards of two ranks that are
            not a sequence canasta, a lay-off onto a sequence canasta).
        """
        if isinstance(action, Discard):
            return ("discard", action.card)
        if isinstance(action, Draw):
            return ("draw",)
        if isinstance(action, Answer):
            return ("answer", action.yes)
        if isinstance(action, (Meld, LayOff, TakePile)):
            return self._card_key(action)
        if isinstance(action, EndHand):
            return ("end-hand",)
        if isinstance(action, AskPartner):
            return ("ask-partner",)
        if isinstance(action, Retract):
            return ("retract",)
        raise ValueError(f"cannot encode {action!r}: not an action")

    def _card_key(self, action: Meld | LayOff | TakePile) -> Key:
        jokers = deuces = 0
        ranks: set[int] = set()
        for c in action.cards:
            if not 0 <= c < NUM_CODES:
                raise ValueError(f"cannot encode {action.text()}: no card has code {c}")
            if c == JOKER:
                jokers += 1
            elif _IS_DEUCE[c]:
                deuces += 1
            else:
                ranks.add(_RANK[c])
        naturals = len(action.cards) - jokers - deuces
        if isinstance(action, TakePile):
            if len(ranks) > 1:
                raise ValueError(f"cannot encode {action.text()}: cards of several ranks")
            return ("take", naturals, jokers, deuces)
        if isinstance(action, LayOff):
            if action.rank == WILD_RANK:
                if naturals:
                    raise ValueError(f"cannot encode {action.text()}: natural cards on the "
                                     "wild meld")
                return ("wild-lay-off", jokers, deuces)
            if ranks - {action.rank}:
                raise ValueError(f"cannot encode {action.text()}: cards of another rank")
            if action.rank == _BLACK3_RANK and not set(action.cards) <= {
                    *BLACK_THREES, JOKER, *_DEUCES}:
                raise ValueError(f"cannot encode {action.text()}: red threes are not laid off")
            return ("lay-off", action.rank, naturals, jokers, deuces)
        if not ranks:
            return ("wild-meld", jokers, deuces)
        if len(ranks) > 1:
            return self._run_key(action)
        rank = ranks.pop()
        if rank == _BLACK3_RANK:
            reds = sum(1 for c in action.cards if c in RED_THREES)
            if reds:
                if reds != len(action.cards):
                    raise ValueError(f"cannot encode {action.text()}: red threes with other "
                                     "cards")
                hearts = sum(1 for c in action.cards if c == RED_THREES[0])
                return ("declare", hearts, reds - hearts)
        return ("meld", rank, naturals, jokers, deuces)

    def _run_key(self, action: Meld) -> Key:
        cards = action.cards
        suits = {c % 4 for c in cards if c != JOKER}
        values = sorted(14 if _RANK[c] == 1 else _RANK[c] for c in cards if c != JOKER)
        n = self._run_size
        if (JOKER in cards or any(_IS_DEUCE[c] for c in cards) or len(suits) != 1
                or len(cards) != n or values != list(range(values[0], values[0] + n))):
            raise ValueError(f"cannot encode {action.text()}: cards of several ranks that are "
                             f"not a run of {n} natural cards of one suit")
        return ("run", suits.pop(), values[-1])

    def encode(self, action: Action) -> int:
        """The id of ``action``, in ``range(size)``.

        Raises:
            ValueError: naming the action when these rules give it no id (a meld kind the rules
            do not have, more cards of a kind than the packs hold or the rules allow).
        """
        key = self.key(action)
        found = self._ids.get(key)
        if found is None:
            raise ValueError(f"cannot encode {action.text()}: {key} is outside the ids of "
                             f"{self.rules.name} for {self.players} players")
        return found

    def encode_all(self, actions: Iterable[Action]) -> list[int]:
        """``[encode(a) for a in actions]``."""
        return [self.encode(a) for a in actions]

    # -- decoding ------------------------------------------------------------------------------
    def action(self, action_id: int, state: State) -> Action:
        """The action of ``action_id`` with cards chosen from the acting seat's hand by the
        canonical suit choice, without checking that it is legal now.

        Raises:
            ValueError: ``action_id`` is not in ``range(size)``.
            IllegalActionError: the hand does not hold the cards the id names (rule
            ``cards``), or the pile is empty for a take.
        """
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is not in range({self.size})")
        key = self.keys[action_id]
        kind = key[0]
        hand = state.hands[state.actor]
        if kind == "draw":
            return Draw()
        if kind == "end-hand":
            return EndHand()
        if kind == "ask-partner":
            return AskPartner()
        if kind == "answer":
            return Answer(bool(key[1]))
        if kind == "retract":
            return Retract()
        if kind == "discard":
            return Discard(_int(key[1]))
        if kind == "take":
            if not state.pile:
                raise IllegalActionError("pile", "the discard pile is empty")
            rank = _RANK[state.pile[-1]]
            return TakePile(tuple(_pick(hand, _codes(rank), _int(key[1]))
                                  + _wilds(hand, _int(key[2]), _int(key[3]))))
        if kind in ("meld", "lay-off"):
            rank = _int(key[1])
            cards = tuple(_pick(hand, _codes(rank), _int(key[2]))
                          + _wilds(hand, _int(key[3]), _int(key[4])))
            return Meld(cards) if kind == "meld" else LayOff(rank, cards)
        if kind in ("wild-meld", "wild-lay-off"):
            cards = tuple(_wilds(hand, _int(key[1]), _int(key[2])))
            return Meld(cards) if kind == "wild-meld" else LayOff(WILD_RANK, cards)
        if kind == "run":
            suit, high = _int(key[1]), _int(key[2])
            codes = [((1 if v == 14 else v) - 1) * 4 + suit
                     for v in range(high, high - self._run_size, -1)]
            return Meld(tuple(_pick(hand, [c], 1)[0] for c in codes))
        # declare
        return Meld(tuple(_pick(hand, RED_THREES[:1], _int(key[1]))
                          + _pick(hand, RED_THREES[1:], _int(key[2]))))

    def decode(self, action_id: int, state: State) -> Action:
        """The legal action of ``action_id`` in ``state`` (cards chosen as :meth:`action`).

        Raises:
            ValueError: ``action_id`` is not in ``range(size)``.
            IllegalActionError: the action is not legal now (``.rule`` names the rule).
        """
        action = self.action(action_id, state)
        verify(state, action)
        return action

    def legal_ids(self, state: State) -> list[int]:
        """The ids of ``state.legal_actions()``, in that order."""
        return [self.encode(a) for a in state.legal_actions()]

    def legal_mask(self, state: State) -> bytes:
        """``size`` bytes, 1 at the id of every legal action and 0 elsewhere (numpy reads it
        with ``np.frombuffer(mask, dtype=np.int8)``). Built from ``state.legal_actions()``:
        time proportional to the legal actions, not to ``size``."""
        mask = bytearray(self.size)
        ids = self._ids
        for a in state.legal_actions():
            i = ids.get(self.key(a))
            if i is None:
                self.encode(a)  # raises, naming the action
            else:
                mask[i] = 1
        return bytes(mask)

    def __repr__(self) -> str:
        return f"<ActionCodec {self.rules.name} {self.players} players: {self.size} ids>"


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


def _codes(rank: int) -> list[int]:
    """Card codes that are naturals of ``rank`` (the black threes for rank 3)."""
    if rank == _BLACK3_RANK:
        return list(BLACK_THREES)
    return list(range((rank - 1) * 4, rank * 4))


def _pick(hand: list[int], codes: Iterable[int], k: int) -> list[int]:
    out: list[int] = []
    if k <= 0:
        return out
    for c in codes:
        take = min(hand[c], k - len(out))
        out.extend([c] * take)
        if len(out) == k:
            return out
    raise IllegalActionError("cards", "you do not hold those cards")


def _wilds(hand: list[int], jokers: int, deuces: int) -> list[int]:
    return _pick(hand, (JOKER,), jokers) + _pick(hand, _DEUCES, deuces)
