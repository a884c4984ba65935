"""The bodies of the accounts' requests (pydantic, strict, unknown fields refused, like every
body of :mod:`canasta.web.protocol.messages`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from canasta.web.protocol.fields import Clock, Lang, Level, Players, TeamSize, Token, Variant
from canasta.web.protocol.messages import Strict

__all__ = ["AbandonBody", "ClaimBody", "Credentials", "DeleteBody", "PasswordChange", "Prefs",
           "RatedSeat", "RatedTable", "Register", "MAX_NAME", "MIN_PASSWORD", "MAX_PASSWORD"]

MAX_NAME = 40
MIN_PASSWORD = 8
MAX_PASSWORD = 200
#: A name: words of letters, digits and . ' - (any script), single spaces between them.
NAME_PATTERN = r"^[\w.'-]+( [\w.'-]+)*$"

AccountName = Annotated[str, Field(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN,
                                   description="the account's name: letters, digits, . ' - "
                                               "and single spaces (1 to 40); unique, "
                                               "whatever its case")]
Password = Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD,
                                description="the password (8 to 200 characters to register)")]
NewPassword = Annotated[str, Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD,
                                   description="the password: 8 to 200 characters")]


class Prefs(Strict):
    """What the table page uses: the language, the four-colour deck (diamonds blue, clubs
    green), the order of the hand (by rank, or by suit)."""

    lang: Lang | None = None
    four_colour: bool = False
    sort: Literal["rank", "suit"] = "rank"


class Register(Strict):
    name: AccountName
    password: NewPassword
    prefs: Prefs | None = None


class Credentials(Strict):
    name: AccountName
    password: Password


class DeleteBody(Strict):
    password: Password = Field(description="the password again: deleting cannot be undone")


class PasswordChange(Strict):
    password: Password = Field(description="the current password")
    new_password: NewPassword


class RatedSeat(Strict):
    """A seat of a rated table: a person (who must sign in to sit there) or a bot."""

    type: Literal["human", "bot"] = "human"
    level: Level | None = None


class RatedTable(Strict):
    """A rated table: the variant's own rules (no house rules), no hints, no undo, not in the
    lobby; the signed-in creator sits at the first human seat."""

    variant: Variant = "international"
    players: Players | None = None
    team_size: TeamSize | None = None
    seats: Annotated[list[RatedSeat], Field(min_length=2, max_length=6)] | None = None
    clock: Clock | None = None
    lang: Lang = "en"


class ClaimBody(Strict):
    token: Token


class AbandonBody(Strict):
    token: Token
