"""The refusal of an illegal action: :class:`IllegalActionError`, raised by every check of
:mod:`canasta.core.legality` (and the modules it draws on) with the rule it breaks; and
:func:`not_an_action`, the ``TypeError`` for a value that is no action at all."""

from __future__ import annotations

from collections.abc import Mapping


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; the state is unchanged.

    Attributes:
        rule: the rule broken: a ``Rules`` field path (``melds.min_cards``) or a named rule of
            the game (``turn order``, ``cards``, ``one meld per rank``, ``going out``, ...).
        reason: an English sentence (quoting the seed where one carries the rule).
        values: what broke it, by name (``{"min_cards": 3}``), for message catalogues.
    """

    def __init__(self, rule: str, message: str,
                 values: Mapping[str, object] | None = None) -> None:
        self.rule = rule
        self.reason = message
        self.values: dict[str, object] = dict(values or {})
        super().__init__(f"{message} [{rule}]")


def fail(rule: str, message: str, values: Mapping[str, object] | None = None) -> None:
    raise IllegalActionError(rule, message, values)


def not_an_action(value: object) -> TypeError:
    """The error for a value given as an action that is neither an action
    (:mod:`canasta.core.actions`) nor its text; raised before anything changes."""
    return TypeError(f"expected an action (canasta.core.actions) or its text, got "
                     f"{type(value).__name__} {value!r:.60}")
