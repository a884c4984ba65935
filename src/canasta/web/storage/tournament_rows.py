"""The database tables of duplicate tournaments (:mod:`canasta.web.tournaments`): the
tournament, its entrants (one row per seat of a team, a person or a bot), the secrets of its
deals (shared by every table of a round) and its tables, one row per table of a round.

Everything a tournament is lives here, never in a worker's memory: any process reads it,
and a round is advanced by the one ``UPDATE ... WHERE round = :seen`` that wins
(:mod:`canasta.web.tournaments.store`). Migration ``0008`` builds the same tables.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from canasta.web.storage.models import Base, now


class TournamentRow(Base):
    __tablename__ = "canasta_tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    team_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the complete rules (canasta.web.play.game.rules_json), pinned at creation
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: tables, rounds, deals per round, clock, level, deal pause (TournamentSettings)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: "open" (taking entrants), "playing", "over"
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    #: the round in play, from 1 (0: not started)
    round: Mapped[int] = mapped_column(Integer, default=0)
    starts_at: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)
    host_hash: Mapped[str] = mapped_column(String(64))


class EntrantRow(Base):
    """One seat of a team: ``slot`` // team size is the squad (0 plays the first table of a
    pair, 1 the second), ``slot`` % team size the place in the squad's side."""

    __tablename__ = "canasta_tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tournaments.id", ondelete="CASCADE"), primary_key=True)
    team: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    level: Mapped[str] = mapped_column(String(32))
    #: the hash of the person's token (their seat token at every table they play)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: the account of the person, when accounts exist and they were signed in
    account_id: Mapped[str | None] = mapped_column(String(64), nullable=True)


class TournamentDealRow(Base):
    """The secrets of deal ``number`` of round ``round`` (canasta.core.dealproof): every
    table of the round is dealt its hand ``number`` from them."""

    __tablename__ = "canasta_tournament_deals"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))
    nonce: Mapped[str] = mapped_column(String(64))


class TournamentTableRow(Base):
    """Table ``number`` of round ``round``: tables ``2k`` and ``2k + 1`` are the pair of
    match ``k``, ``first`` sitting on side 0 at the first and on side 1 at the second."""

    __tablename__ = "canasta_tournament_tables"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("canasta_tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    #: the teams of side 0 and side 1 at this table
    side0: Mapped[int] = mapped_column(Integer)
    side1: Mapped[int] = mapped_column(Integer)
