"""The scorepad: a match kept by hand, hand by hand as tallies, on the server.

- :mod:`~canasta.web.scorepad.pad`: the match, its sheets and the requests.
- :mod:`~canasta.web.scorepad.routes`: the page and the HTTP API.
"""
