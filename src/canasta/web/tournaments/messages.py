"""The requests of duplicate tournaments (strict pydantic models, as every request of the
server: :mod:`canasta.web.protocol.messages`). HTTP bodies name no tournament; the routes
add it from the path."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field

from canasta.web.protocol.fields import (
    Clock,
    Lang,
    Level,
    Name,
    Options,
    Players,
    TeamSize,
    Token,
    Variant,
    Whole,
)
from canasta.web.protocol.messages import Request, Strict

#: Most tables of one tournament (its teams are as many).
MAX_TABLES = 128
#: Most rounds and deals per round.
MAX_ROUNDS = 127
MAX_DEALS = 16
#: Seconds a scored hand waits before the next deal of a tournament's table is dealt.
MAX_DEAL_PAUSE = 600
#: Latest start time accepted (seconds since 1970: the year 2100).
MAX_START = 4_102_444_800

TournamentId = Annotated[str, Field(max_length=64, description="the tournament's id")]


class CreateTournament(Request):
    """A new duplicate tournament: ``tables`` tables (as many teams), ``rounds`` rounds of
    ``deals`` deals, a turn clock, the bot level of the seats nobody takes, and a start time
    (None: when the host starts it)."""

    limit: ClassVar[str | None] = "create"
    status: ClassVar[int] = 201
    name: Name | None = None
    variant: Variant = "international"
    options: Options | None = None
    players: Players = 4
    team_size: TeamSize | None = None
    tables: Annotated[int, Field(ge=2, le=MAX_TABLES, multiple_of=2, description=(
        "tables per round, an even number: match k is played at tables 2k and 2k+1")),
        Whole] = 4
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS, description=(
        "rounds (a round robin: after tables - 1 rounds the pairings start again)")),
        Whole] = 1
    deals: Annotated[int, Field(ge=1, le=MAX_DEALS, description=(
        "deals (hands) per round, the same at every table")), Whole] = 1
    clock: Clock = 60
    level: Level | None = Field(default=None, description=(
        "the bot of the seats nobody takes, and of a person away or out of time"))
    deal_pause: Annotated[float, Field(ge=0, le=MAX_DEAL_PAUSE, allow_inf_nan=False,
                                       description=(
        "seconds a scored hand stays on the table before the next deal"))] = 15
    starts_at: Annotated[float, Field(ge=0, le=MAX_START, allow_inf_nan=False, description=(
        "when the tournament starts (seconds since 1970, UTC); none: when the host "
        "starts it"))] | None = None
    lang: Lang = "en"


class JoinBody(Strict):
    """Take a seat of a team: ``team`` (from 0) to join that team, else a team nobody
    has joined yet, else any free seat. ``account``: the entrant's account, once accounts
    exist (kept, not checked here)."""

    name: Name | None = None
    team: Annotated[int, Field(ge=0, le=MAX_TABLES - 1), Whole] | None = None
    account: Annotated[str, Field(max_length=64)] | None = None
    lang: Lang = "en"


class JoinTournament(JoinBody, Request):
    limit: ClassVar[str | None] = "create"
    tournament: TournamentId


class StartBody(Strict):
    """The host's token (from the creation answer)."""

    token: Token


class StartTournament(StartBody, Request):
    limit: ClassVar[str | None] = "work"
    tournament: TournamentId


class ViewTournament(Request):
    """The tournament as it stands; ``token``: an entrant's (their team and table)."""

    tournament: TournamentId
    token: Token | None = None


class TournamentRecord(Request):
    """The tournament's record (a download)."""

    limit: ClassVar[str | None] = "work"
    tournament: TournamentId
