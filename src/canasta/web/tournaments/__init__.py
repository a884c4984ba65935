"""Duplicate tournaments for people: every table of a round plays the same deals, the two
teams of a match swap sides across its pair of tables, and each deal is scored by comparing
the two tables (the scoring of the bots' duplicate harness, :mod:`canasta.sim.duplicate`).
Entrants join by link with a name; bots fill the seats nobody took.

``schedule`` (rounds, pairings, who sits where), ``scoring`` (deal pairs and standings),
``store`` (the tournament in the database), ``service`` (creating, joining, starting and
advancing rounds), ``routes`` (the page and the HTTP API) and ``messages`` (the bodies).
"""
