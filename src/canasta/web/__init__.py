"""``canasta serve``: tables in the browser for people and bots, on SQLite or PostgreSQL.

The server is authoritative: the engine runs here only, every accepted action is stored before
it is sent, and each client receives only its own seat's view. See :mod:`canasta.web.app` for
the HTTP and WebSocket API. Needs the ``web`` extra (``pip install 'canasta[web]'``).
"""

from __future__ import annotations

from canasta.web.server import DEFAULT_DB, run

__all__ = ["DEFAULT_DB", "create_app", "run"]


def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
    """See :func:`canasta.web.app.create_app` (imported lazily: it needs the web extra)."""
    from canasta.web.app import create_app as _create_app

    return _create_app(*args, **kwargs)
