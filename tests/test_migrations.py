"""The schema steps (voyage.store.migrations): one list, by number, and a campaign stopped
before any step upgrades to the schema a new campaign has."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from voyage.store import campaign as store
from voyage.store import migrations as steps
from voyage.store.sqlitedb import Database


def _number(step: steps.Step) -> int:
    return int(step.__name__[1:4])


def test_schema_steps_are_listed_by_number_and_upgrades_after_them() -> None:
    numbers = [_number(s) for s in steps.SCHEMA_STEPS]
    assert numbers == sorted(set(numbers))
    assert [*steps.SCHEMA_STEPS, *steps.UPGRADES] == steps.STEPS
    assert [m.name for m in steps.migrations._migrations] == [s.__name__ for s in steps.STEPS]


def _schema(path: Path) -> set[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        return set(conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


@pytest.mark.parametrize("stop", [s.__name__ for s in steps.STEPS[2:]])
def test_a_campaign_stopped_before_a_step_upgrades_to_the_new_schema(
    stop: str, tmp_path: Path
) -> None:
    new = tmp_path / "new.db"
    store.create_campaign(new, "New", seed=1).close()
    half = tmp_path / "half.db"
    db = Database(half, execute_plugins=False)
    steps.migrations.apply(db, stop_before=stop)
    db.execute(
        "INSERT INTO campaign (id, name, seed, rng_state, clock, created) "
        "VALUES (1, 'Half', 1, '[]', 0, '2026-01-01T00:00:00+00:00')"
    )
    db.conn.commit()
    db.close()
    store.open_campaign(half).close()
    assert _schema(half) == _schema(new)
