"""The table server's protocol: what it reads and what it answers.

- :mod:`~canasta.web.protocol.fields`: the field types (ranges, lengths, names).
- :mod:`~canasta.web.protocol.messages`: every HTTP body and WebSocket message, as pydantic
  models (strict; unknown fields refused, naming them).
- :mod:`~canasta.web.protocol.reading`: raw bytes into those models, and the message of a
  validation failure.
- :mod:`~canasta.web.protocol.answers`: the answers, for the OpenAPI schema.
- :mod:`~canasta.web.protocol.errors`: the error codes and their HTTP statuses.
- :mod:`~canasta.web.protocol.limits`: sizes and rates.
"""
