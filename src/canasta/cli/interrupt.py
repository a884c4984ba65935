"""Ctrl-C in the long commands (``canasta simulate``, ``canasta tournament``): the first asks
the run to stop after the hand or deal pair in progress, so that the command prints what it
has so far and exits with :data:`EXIT_INTERRUPTED`; a second one stops at once.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType
from typing import Any

__all__ = ["EXIT_INTERRUPTED", "StopOnInterrupt"]

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


class StopOnInterrupt:
    """A context manager and a ``stop()`` callable: inside the ``with``, Ctrl-C (SIGINT) makes
    ``stop()`` return True instead of raising; a second Ctrl-C raises KeyboardInterrupt as
    usual. Outside the main thread (where no signal handler can be set) it never stops.

    >>> with StopOnInterrupt() as stop:
    ...     stop()
    False
    """

    def __init__(self) -> None:
        self.asked = False
        self._previous: Any = None
        self._installed = False

    def __call__(self) -> bool:
        return self.asked

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self) -> StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False
