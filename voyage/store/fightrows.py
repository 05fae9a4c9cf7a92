"""The ``fights`` and ``fighters`` tables (R94): a fight between ships in one hex, and each
ship or leviathan in it, read and written inside the caller's action (voyage.actions.fight
runs the fight)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign


def fighters_of(camp: Campaign, fight_id: int) -> list[dict[str, Any]]:
    """The ships and leviathans in fight ``fight_id``, in their seats' order."""
    rows = camp.db.query("SELECT * FROM fighters WHERE fight = ? ORDER BY seat", [fight_id])
    return [dict(r) for r in rows]


def open_fights(camp: Campaign) -> list[dict[str, Any]]:
    """Every fight not yet ended, oldest first."""
    rows = camp.db.query("SELECT * FROM fights WHERE status = 'open' ORDER BY id")
    return [dict(r) for r in rows]


def fight_row(camp: Campaign, fight_id: int) -> dict[str, Any] | None:
    """The fight numbered ``fight_id``, open or ended, or None."""
    rows = [dict(r) for r in camp.db.query("SELECT * FROM fights WHERE id = ?", [fight_id])]
    return rows[0] if rows else None


def insert_fight(camp: Campaign, clock: int, hex_name: str, range_yards: int | None) -> int:
    """Open a fight at ``hex_name`` at the hour ``clock``, before its first round: its id."""
    cursor = camp.db.execute(
        "INSERT INTO fights (clock, hex, round, range_yards, status) VALUES (?, ?, 0, ?, 'open')",
        [clock, hex_name, range_yards],
    )
    return int(cursor.lastrowid or 0)


def insert_fighters(camp: Campaign, rows: Iterable[Sequence[Any]]) -> None:
    """Seat the fighters: each row (fight, name, kind, leviathan, tier, speed, seat), her
    declared speed her speed."""
    camp.db.conn.executemany(
        "INSERT INTO fighters (fight, name, kind, leviathan, tier, speed, declared, seat) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*r[:6], r[5], r[6]) for r in rows],
    )


def save_fighter(camp: Campaign, f: dict[str, Any]) -> None:
    """Write back a fighter's speed, declared speed, balance (R51) and damage."""
    camp.db.execute(
        "UPDATE fighters SET speed = ?, declared = ?, off_balance = ?, damage = ? "
        "WHERE fight = ? AND name = ?",
        [f["speed"], f["declared"], f["off_balance"], f["damage"], f["fight"], f["name"]],
    )


def set_round(camp: Campaign, fight_id: int, round_number: int, order: list[str]) -> None:
    """The fight's round now and its order of action (R90)."""
    camp.db.execute(
        "UPDATE fights SET round = ?, turn_order = ? WHERE id = ?",
        [round_number, json.dumps(order), fight_id],
    )


def end_fight(camp: Campaign, fight_id: int) -> None:
    """The fight is over."""
    camp.db.execute("UPDATE fights SET status = 'ended' WHERE id = ?", [fight_id])
