"""`voyage doctor`: healthy and each kind of damage, said right, the file untouched."""

from __future__ import annotations

import gc
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok

from voyage.cli import cli

SHIP = ["--class", "trawler", "--tier", "IV", "--engine", "V"]


def doctor(path: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["doctor", "--db", str(path), *extra])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture
def played(runner, db) -> Path:
    """A campaign with a map, a ship at sea for a few hours, a storm and a setting."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "1", "--hours", "12")
    ok(runner, "ship", "add", "Gull", *SHIP)
    ok(runner, "ship", "load", "Gull", "--crew", "5", "--cargo", "100", "--fuel", "60")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "advance", "--hours", "6")
    ok(runner, "settings", "natural_rolls", "true")
    return db


def change(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    gc.collect()  # the commands' connections closed, as when their processes end
    assert not Path(f"{path}-wal").exists()


def test_a_healthy_campaign(played):
    code, out = doctor(played)
    assert code == 0
    assert out.startswith(f"{played}: healthy (integrity ok;") and "references ok" in out
    code, out = doctor(played, "--json")
    report = json.loads(out)
    assert code == 0 and report["healthy"] is True and report["findings"] == []
    assert report["integrity"] == "ok" and report["clock"] == 6 and report["json_values"] > 15


@pytest.mark.parametrize(
    "statements, check, where, problem",
    [
        (["DROP TABLE storms"], "schema", "storms", "table is missing"),
        (["ALTER TABLE ships DROP COLUMN strain"], "schema", "ships.strain", "column is missing"),
        (["DELETE FROM campaign"], "campaign", "campaign", "the campaign row"),
        (
            ["UPDATE campaign SET rng_state = '[1, 2]'"],
            "campaign",
            "campaign.rng_state",
            "dice state",
        ),
        (
            ["UPDATE ships SET traits = '[\"Broad\"'"],
            "json",
            "ships.traits of name 'Gull'",
            "not valid JSON",
        ),
        (
            ["UPDATE events SET changes = '{oops' WHERE id = 2"],
            "json",
            "events.changes of row 2",
            "not valid JSON",
        ),
        (
            ["UPDATE settings SET value = 'yes'"],
            "json",
            "settings.value of key 'natural_rolls'",
            "not valid JSON",
        ),
        (
            ["UPDATE actions SET snapshot = '{x' WHERE id = 1"],
            "json",
            "actions.snapshot of row 1",
            "not valid JSON",
        ),
        (
            ["UPDATE voyages SET ship = 'Ghost'"],
            "reference",
            "voyages row 1",
            "ship 'Ghost' is gone",
        ),
        (
            ["UPDATE hours SET voyage_id = 9 WHERE id = 1"],
            "reference",
            "hours row 1",
            "its voyage is gone",
        ),
        (
            ["UPDATE events SET voyage_id = 9 WHERE id = 1"],
            "reference",
            "events row 1",
            "its voyage is gone",
        ),
        (
            ["UPDATE hours SET action_id = 99 WHERE id = 3"],
            "reference",
            "hours row 3",
            "its action is gone",
        ),
        (["UPDATE campaign SET clock = 2"], "reference", "hours", "at or after the clock"),
        (
            ["INSERT INTO house_tables (name, text, source) VALUES ('tiers', 'x: [', 'typed')"],
            "tables",
            "house_tables",
            "tiers.yaml",
        ),
    ],
)
def test_each_kind_of_damage_is_found_and_named(played, statements, check, where, problem):
    change(played, *statements)
    before = played.read_bytes()
    code, out = doctor(played)
    assert code == 1
    assert out.splitlines()[0] == f"{played}: 1 problem", out
    assert f"  {check}: {where}: " in out and problem in out
    assert "To recover: restore the campaign from a backup copy" in out
    report = json.loads(doctor(played, "--json")[1])
    assert report["healthy"] is False
    assert [(f["check"], f["where"]) for f in report["findings"]] == [(check, where)]
    gc.collect()
    assert played.read_bytes() == before  # the doctor only reads


def test_a_corrupt_page_is_found_by_the_integrity_check(played):
    conn = sqlite3.connect(played)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'hour_days_voyage'"
    ).fetchone()
    conn.close()
    data = bytearray(played.read_bytes())
    start = (root[0] - 1) * page_size
    data[start + 8 : start + 200] = b"\xff" * 192  # scribble over an index page
    played.write_bytes(bytes(data))
    code, out = doctor(played)
    assert code == 1 and "integrity: " in out


def test_doctor_on_what_is_not_a_campaign(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    code, out = doctor(text)
    assert code == 1 and "file: " in out and "not a voyage campaign" in out
    assert text.read_text() == "hello"
    # the wrong file is not a damaged campaign: no advice to restore a backup, and the file
    # is named once (it read "file: notes.txt: notes.txt is ...")
    assert (
        out.splitlines()[1] == f"  file: {text}: is not an SQLite database, not a voyage "
        "campaign: nothing in it was changed; point --db (or VOYAGE_DB) at your campaign file"
    )
    assert "To recover" not in out
    code, out = doctor(tmp_path / "none.db")
    assert code == 1 and "does not exist" in out and "To recover" not in out
    assert not (tmp_path / "none.db").exists()


def test_doctor_reports_a_newer_campaign_without_opening_it(played):
    change(played, "UPDATE voyage_file SET value = '7.0' WHERE key = 'written_by'")
    code, out = doctor(played)
    assert code == 1 and "written by voyage 7.0 (newer than this" in out
    assert "To recover" not in out  # upgrade voyage, as the line says: nothing is damaged
