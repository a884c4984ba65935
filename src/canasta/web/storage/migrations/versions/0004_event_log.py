"""The event log: each table keeps its complete rules and a secret seed for its deals, the hand
in play, who is to act and which process plays its bots (a lease); a finished hand keeps its
own score sheets instead of the whole match record so far (which grew with the square of the
match).

Each table of the old schema is replayed once, here, by the engine as it is now (as the old
server did at every start-up): its finished hands get their sheets (with the score item
codes). Its rules are those of the newest game record it stored (records carry the complete
rules), or for a table that never finished a hand the preset as it is now; either way they
are pinned from here on. A table that does not replay keeps the sheets of its stored records
and is left with ``turn`` empty.

Downgrade drops the new columns; the old ``record`` column comes back empty (the old server
then answers that a hand's record is not found).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _sheet(sheet: Any) -> dict[str, Any]:
    out: dict[str, Any] = sheet.to_dict()
    out["codes"] = [[code, dict(values)] for code, values in sheet.codes]
    return out


def _replayed(conn: sa.Connection, t: Any) -> tuple[dict[str, Any], str, dict[int, Any]]:
    """(rules json, turn, {hand number: sheets}) of one old table, by the engine."""
    from canasta.core.rules import load_preset
    from canasta.formats.jsondoc import Reader, rules_to_json
    from canasta.formats.records import RecordError, record_to_match

    rules = load_preset(t.variant, _json(t.options) or {})
    # the rules the table was last played with: the complete rules of the newest record it
    # stored (records carry them); the preset as it is now only for a table without one
    # (a hand in play has no record: SQL NULL, or JSON null where SQLAlchemy wrote None)
    stored = None
    for (raw,) in conn.execute(sa.text(
            "SELECT record FROM canasta_hands WHERE table_id = :t AND finished "
            "ORDER BY number DESC"), {"t": t.id}):
        stored = _json(raw) if raw is not None else None
        if isinstance(stored, dict):
            break
    if isinstance(stored, dict) and isinstance(stored.get("rules"), dict):
        rules = Reader(f"table {t.id}", RecordError).rules(
            {"variant": t.variant, "options": stored.get("options") or {},
             "rules": stored["rules"]})
    hands = conn.execute(sa.text(
        "SELECT number, dealer, deck, scores_before FROM canasta_hands WHERE table_id = :t "
        "ORDER BY number"), {"t": t.id}).all()
    actions: dict[int, list[list[Any]]] = {h.number: [] for h in hands}
    for a in conn.execute(sa.text(
            "SELECT hand, seat, action FROM canasta_actions WHERE table_id = :t AND NOT undone"
            " ORDER BY seq"), {"t": t.id}):
        actions[a.hand].append([a.seat, a.action])
    record = {
        "format": "canasta-record", "version": 2, "variant": t.variant,
        "options": _json(t.options) or {}, "rules": rules_to_json(rules),
        "players": t.players, "team_size": t.team_size,
        "seed": None,
        "hands": [{"dealer": h.dealer, "deck": _json(h.deck),
                   "scores_before": _json(h.scores_before), "actions": actions[h.number],
                   "end_reason": "", "sheets": []} for h in hands],
    }
    match = record_to_match(record, f"table {t.id}")
    sheets = {n: [_sheet(s) for s in rec.sheets] for n, rec in enumerate(match.hands)
              if rec.sheets}
    state = match.state
    if t.status == "over" or match.is_over:
        turn = "over"
    elif state.is_over:
        turn = "deal"
    else:
        controller = conn.execute(sa.text(
            "SELECT controller FROM canasta_seats WHERE table_id = :t AND seat = :s"),
            {"t": t.id, "s": state.actor}).scalar()
        turn = "bot" if controller == "bot" else "human"
    # as the server stores them (canasta.web.play.game.rules_json): the options as applied too
    return {"options": dict(rules.options), "rules": rules_to_json(rules)}, turn, sheets


def upgrade() -> None:
    op.add_column("canasta_tables", sa.Column("rules", sa.JSON(), nullable=True))
    op.add_column("canasta_tables", sa.Column("seed", sa.BigInteger(), nullable=True))
    op.add_column("canasta_tables", sa.Column("hand", sa.Integer(), nullable=False,
                                              server_default="0"))
    op.add_column("canasta_tables", sa.Column("turn", sa.String(8), nullable=False,
                                              server_default=""))
    op.add_column("canasta_tables", sa.Column("owner", sa.String(64), nullable=True))
    op.add_column("canasta_tables", sa.Column("lease_until", sa.DateTime(), nullable=True))
    op.add_column("canasta_tables", sa.Column("updated_at", sa.DateTime(), nullable=True))
    op.create_index("ix_canasta_tables_turn", "canasta_tables", ["turn"])
    op.create_index("ix_canasta_tables_updated_at", "canasta_tables", ["updated_at"])
    op.add_column("canasta_hands", sa.Column("sheets", sa.JSON(), nullable=True))

    conn = op.get_bind()
    tables = conn.execute(sa.text(
        "SELECT id, variant, options, players, team_size, status, created_at "
        "FROM canasta_tables")).all()
    for t in tables:
        try:
            rules, turn, sheets = _replayed(conn, t)
        except Exception as exc:  # noqa: BLE001 - keep what the old rows say
            log.warning("table %s does not replay (%s): its stored sheets are kept", t.id, exc)
            rules, turn, sheets = None, "", {}
            for h in conn.execute(sa.text(
                    "SELECT number, record FROM canasta_hands WHERE table_id = :t "
                    "AND finished"), {"t": t.id}):
                rec = _json(h.record) if h.record is not None else None
                rec = rec if isinstance(rec, dict) else {}
                if len(rec.get("hands", [])) > h.number:
                    sheets[h.number] = rec["hands"][h.number].get("sheets") or None
        last = conn.execute(sa.text(
            "SELECT max(created_at) FROM canasta_actions WHERE table_id = :t"),
            {"t": t.id}).scalar()
        hand = conn.execute(sa.text(
            "SELECT max(number) FROM canasta_hands WHERE table_id = :t"), {"t": t.id}).scalar()
        conn.execute(sa.text(
            "UPDATE canasta_tables SET rules = :rules, seed = :seed, hand = :hand, "
            "turn = :turn, updated_at = :updated WHERE id = :t"),
            {"rules": None if rules is None else json.dumps(rules),
             "seed": secrets.randbits(62), "hand": hand or 0, "turn": turn,
             "updated": last or t.created_at, "t": t.id})
        for number, hand_sheets in sheets.items():
            conn.execute(sa.text(
                "UPDATE canasta_hands SET sheets = :s WHERE table_id = :t AND number = :n"),
                {"s": json.dumps(hand_sheets), "t": t.id, "n": number})
    # the only copy of each whole match record so far: what made storage quadratic
    # (a plain DROP COLUMN, which SQLite 3.35+ does in place: rebuilding a table would
    # fire the cascades of its foreign keys)
    op.drop_column("canasta_hands", "record")


def downgrade() -> None:
    op.add_column("canasta_hands", sa.Column("record", sa.JSON(), nullable=True))
    op.drop_column("canasta_hands", "sheets")
    op.drop_index("ix_canasta_tables_updated_at", "canasta_tables")
    op.drop_index("ix_canasta_tables_turn", "canasta_tables")
    for name in ("updated_at", "lease_until", "owner", "turn", "hand", "seed", "rules"):
        op.drop_column("canasta_tables", name)
