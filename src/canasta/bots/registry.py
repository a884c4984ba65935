"""The bot registry: bots by *spec string* ``name[:key=value,key=value]``.

``make_bot("hard:seed=3")`` parses the spec, checks every parameter against the bot's
declared :class:`Param` (type, bounds, choices) and calls the bot's factory. Every bot takes
``seed`` (an int; it wins over the ``seed`` argument of :func:`make_bot`). Bad specs raise
``ValueError`` naming the bad part and listing the choices, before any bot is built.

Bots living elsewhere (or needing optional packages) register themselves with
:func:`register_bot`, whose factory may be a ``"module:attribute"`` string imported only when
the bot is built, so listing the bots never imports an optional dependency.

Descriptions are message-catalogue keys (``bot.<name>`` and ``bot.param.<name>.<param>``,
:mod:`canasta.i18n`); this module holds no text for people beyond error messages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol

from canasta.core.actions import Action
from canasta.core.state import View

__all__ = ["BOTS", "Bot", "BotInfo", "Param", "bot_info", "bot_names", "make_bot",
           "parse_spec", "register_bot", "split_specs"]


class Bot(Protocol):
    """A player: picks one of ``view.legal_actions``; never sees hidden cards."""

    name: str

    def choose(self, view: View) -> Action: ...


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a bot spec.

    Attributes:
        name: the key in the spec (``time`` in ``expert:time=0.5``).
        kind: ``int``, ``float``, ``bool`` or ``str``.
        default: the value when the spec leaves it out.
        low / high: inclusive bounds of a number (None: unbounded).
        choices: the allowed values of a ``str`` parameter (empty: any).
    """

    name: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, bot: str, text: str) -> Any:
        """The value of ``text`` for this parameter.

        Raises:
            ValueError: not of the parameter's type, out of bounds or not one of the choices
                (the message names the bot, the parameter and what is allowed).
        """
        where = f"bot '{bot}', parameter '{self.name}'"
        value: Any
        if self.kind is bool:
            low = text.strip().lower()
            if low not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"{where}: {text!r} is not true or false")
            value = low in ("true", "1", "yes")
        elif self.kind in (int, float):
            try:
                value = self.kind(text)
            except ValueError:
                what = "an integer" if self.kind is int else "a number"
                raise ValueError(f"{where}: {text!r} is not {what}"
                                 f" ({self.range_text()})") from None
            if value != value or (self.low is not None and value < self.low) or \
                    (self.high is not None and value > self.high):
                raise ValueError(f"{where}: {text} is out of range ({self.range_text()})")
        else:
            value = text.strip()
            if self.choices and value not in self.choices:
                raise ValueError(f"{where}: {text!r} is not one of {', '.join(self.choices)}")
        return value

    def range_text(self) -> str:
        """The allowed values in short (``0..1``, ``a|b``, ``int``), for messages and lists."""
        if self.choices:
            return "|".join(self.choices)
        if self.kind is bool:
            return "true|false"
        def num(x: float) -> str:
            return str(int(x)) if self.kind is int else f"{x:g}"
        lo = "" if self.low is None else num(self.low)
        hi = "" if self.high is None else num(self.high)
        return f"{lo}..{hi}" if lo or hi else self.kind.__name__


SEED = Param("seed", int, None)


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A registered bot: ``factory(seed, **params)`` builds it; ``description`` is a message
    key (``bot.<name>``) or, for bots registered from outside without a catalogue entry,
    plain text shown as is."""

    name: str
    factory: Callable[..., Bot] | str
    description: str
    params: tuple[Param, ...] = ()

    def build(self, seed: int | None, values: dict[str, Any]) -> Bot:
        factory = self.factory
        if isinstance(factory, str):
            module, _, attr = factory.partition(":")
            factory = getattr(importlib.import_module(module), attr)
        return factory(seed, **values)

    def all_params(self) -> tuple[Param, ...]:
        return (SEED, *self.params)


_INFO: dict[str, BotInfo] = {}


class _Registry(MutableMapping[str, Callable[[int | None], Bot]]):
    """``BOTS``: name -> factory of one argument (the seed), the bots' default parameters.
    Items set directly (a test's stand-in bot) are bots without parameters."""

    def __init__(self) -> None:
        self._extra: dict[str, Callable[[int | None], Bot]] = {}

    def __getitem__(self, name: str) -> Callable[[int | None], Bot]:
        if name in self._extra:
            return self._extra[name]
        info = _INFO[name]

        def build(seed: int | None = None) -> Bot:
            return info.build(seed, {})
        return build

    def __setitem__(self, name: str, factory: Callable[[int | None], Bot]) -> None:
        self._extra[name] = factory

    def __delitem__(self, name: str) -> None:
        if name in self._extra:
            del self._extra[name]
        else:
            del _INFO[name]

    def __iter__(self) -> Iterator[str]:
        yield from _INFO
        yield from (n for n in self._extra if n not in _INFO)

    def __len__(self) -> int:
        return len(set(_INFO) | set(self._extra))

    def __contains__(self, name: object) -> bool:
        return name in _INFO or name in self._extra

    def is_plain(self, name: str) -> bool:
        """Was ``name`` set directly (a bot without parameters)?"""
        return name in self._extra or name not in _INFO


#: name -> factory(seed) (see :class:`_Registry`); iterate it for the names.
BOTS = _Registry()


def register_bot(name: str, factory: Callable[..., Bot] | str, description: str,
                 params: tuple[Param, ...] = ()) -> None:
    """Add a bot to the registry (or replace one of that name).

    Args:
        name: lower-case name, no ``:``, ``,`` or ``=``.
        factory: ``factory(seed, **params)`` returning the bot, or ``"module:attribute"``
            naming it, imported when the bot is first built.
        description: message key ``bot.<name>`` or plain text.
        params: the parameters the spec may set (``seed`` is always there).

    Raises:
        ValueError: a bad name or a parameter named ``seed``.
    """
    if not name or name != name.strip().lower() or any(ch in name for ch in ":,= "):
        raise ValueError(f"bot name {name!r}: use lower case without ':', ',', '=' or spaces")
    if any(p.name == "seed" for p in params):
        raise ValueError(f"bot '{name}': 'seed' is a parameter of every bot; do not declare it")
    _INFO[name] = BotInfo(name, factory, description, tuple(params))


def bot_names() -> list[str]:
    """The names of the bots :func:`make_bot` knows, registered ones first."""
    return list(BOTS)


def bot_info(name: str) -> BotInfo:
    """The registration of ``name`` (a bot set directly in ``BOTS`` gets one without
    parameters).

    Raises:
        ValueError: unknown name (the message lists the known ones).
    """
    if name in BOTS and BOTS.is_plain(name):
        return BotInfo(name, BOTS[name], name)
    if name in _INFO:
        return _INFO[name]
    raise ValueError(f"unknown bot '{name}'; choose one of {', '.join(bot_names())}")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name:key=value,..."`` -> (name, checked values of the given parameters).

    Raises:
        ValueError: empty spec, unknown bot, unknown or repeated parameter, a part without
            ``=``, or a bad value (see :meth:`Param.parse`).
    """
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"bot spec {spec!r}: no bot name; choose one of {', '.join(bot_names())}")
    info = bot_info(name)
    params = {p.name: p for p in info.all_params()}
    values: dict[str, Any] = {}
    for part in (p.strip() for p in rest.split(",")) if rest.strip() else ():
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise ValueError(f"bot '{name}': {part!r} is not key=value")
        if key not in params:
            raise ValueError(f"bot '{name}' has no parameter '{key}'; its parameters: "
                             f"{', '.join(params)}")
        if key in values:
            raise ValueError(f"bot '{name}': parameter '{key}' given twice")
        values[key] = params[key].parse(name, value.strip())
    return name, values


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from its spec (``"greedy"``, ``"hard:seed=3"``, ``"expert:time=0.5"``).

    Args:
        spec: ``name[:key=value,...]``; names are those of :func:`bot_names`.
        seed: seed of the bot's randomness, unless the spec sets ``seed``.

    Raises:
        ValueError: see :func:`parse_spec`.
    """
    name, values = parse_spec(spec)
    if "seed" in values:
        seed = values.pop("seed")
    if BOTS.is_plain(name):
        return BOTS[name](seed)
    return _INFO[name].build(seed, values)


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, where a spec's own parameters are also
    separated by commas: a piece ``key=value`` (an ``=`` and no ``:``) continues the spec
    before it (``greedy,seed=3`` is ``greedy:seed=3``). Every front end that takes a list of
    bots (``--bots`` of ``play``, ``simulate``, ``tournament``) splits it here.

    >>> split_specs("expert:time=0.5,playout=hard,hard:seed=3,greedy")
    ['expert:time=0.5,playout=hard', 'hard:seed=3', 'greedy']

    Raises:
        ValueError: the list starts with a parameter that belongs to no bot.
    """
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part:
            if not out:
                raise ValueError(f"bots: '{part}' is a parameter, but no bot comes before it")
            out[-1] += ("," if ":" in out[-1] else ":") + part
        else:
            out.append(part)
    return out
