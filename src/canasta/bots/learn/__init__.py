"""The bots' learned parts: a value of full states trained on self-play.

* :mod:`~canasta.bots.learn.features`: the feature vector of a full state seen by a side;
* :mod:`~canasta.bots.learn.selfplay`: bot matches on local processes or Ray, written as
  ``.npz`` shards with their seeds (``python -m canasta.bots.learn.selfplay``);
* :mod:`~canasta.bots.learn.train`: fits the model, prints its held-out loss beside the
  expert's hand-written ``evaluate`` and writes the weights
  (``python -m canasta.bots.learn.train``);
* :mod:`~canasta.bots.learn.model`: the model (numpy) and the shipped weights file;
* :mod:`~canasta.bots.learn.value`: ``value(state, seat)`` and ``value_batch``, which the
  expert uses as its leaf value with ``expert:value=learned``.

Everything here needs numpy (the ``cli`` and ``web`` extras install it); nothing needs a GPU
or PyTorch. This package imports none of its modules, so importing it never needs numpy.
docs/bots.md ("The learned value") gives the commands and seeds of the shipped weights.
"""
