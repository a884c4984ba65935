"""Adapters for learning agents (the ``env`` and ``openspiel`` extras; docs/env.md).

* :mod:`canasta.env.pettingzoo`: the PettingZoo AEC environment (``env()``, ``raw_env``);
* :mod:`canasta.env.gym`: a Gymnasium single-agent wrapper, ``canasta/Canasta-v0``;
* :mod:`canasta.env.openspiel`: the OpenSpiel game ``python_canasta`` (registered on import);
* :mod:`canasta.env.ismcts`: OpenSpiel's ISMCTS as the bot ``openspiel-ismcts``;
* :mod:`canasta.env.observation`: the observation vector and its named parts;
* :mod:`canasta.env.bench`: environment steps per second against the raw engine.

Importing this package imports none of them (each needs its extra).
"""
