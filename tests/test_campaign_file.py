"""Campaign files that protect themselves: a file that is not a campaign is
refused untouched, a newer one refused, an older one upgraded, a damaged one named in one
line, init whole or not at all, read-only files and a full disk in one line."""

from __future__ import annotations

import gc
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, permissions_bind, refused

from voyage import __version__
from voyage.store import campaign as store
from voyage.store import campaignfile
from voyage.store.migrations import migrations

SHIP = ["--class", "trawler", "--tier", "IV", "--engine", "V"]


def fingerprint(path: Path) -> tuple[bytes, int, list[str]]:
    """The file's bytes, its modification time and the files beside it."""
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


def other_programs_sqlite(path: Path, wal: bool = False, app_id: int = 0) -> Path:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    if app_id:
        conn.execute(f"PRAGMA application_id = {app_id}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('buy rope')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(
    "kind, make, words",
    [
        ("empty", lambda p: p.write_bytes(b""), "an empty file"),
        ("text", lambda p: p.write_text("captain's notes\n" * 20), "not an SQLite database"),
        ("sqlite", other_programs_sqlite, "another program"),
        ("sqlite-app-id", lambda p: other_programs_sqlite(p, app_id=0x4D504243), "another"),
        ("sqlite-wal", lambda p: other_programs_sqlite(p, wal=True), "another program"),
        (
            "sqlite-campaign-table",
            lambda p: sqlite3.connect(p).execute("CREATE TABLE campaign (id INTEGER)"),
            "another program",
        ),
    ],
)
def test_a_file_that_is_not_a_campaign_is_refused_untouched(tmp_path, kind, make, words):
    path = tmp_path / "notes.db"
    make(path)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # an old mtime, so a write would show
    before = fingerprint(path)
    runner = CliRunner()
    for args in (["status"], ["ship", "add", "Gull", *SHIP], ["advance", "--hours", "1"]):
        out = refused(runner, *args, "--db", str(path))
        assert "not a voyage campaign" in out and words in out and str(path) in out
    result = runner.invoke(
        __import__("voyage.cli", fromlist=["cli"]).cli, ["doctor", "--db", str(path)]
    )
    assert result.exit_code == 1 and "not a voyage campaign" in result.output
    assert fingerprint(path) == before


def test_a_campaign_records_its_versions(db):
    info = campaignfile.inspect(db)
    assert info.application_id == campaignfile.APPLICATION_ID
    assert info.written_by == __version__ and info.meta["created_by"] == __version__
    assert info.user_version == len(store.known_migrations()) == len(info.applied)
    assert info.applied == store.known_migrations()


def test_a_campaign_from_a_newer_voyage_is_refused_untouched(runner, db):
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE voyage_file SET value = '9.4.0' WHERE key = 'written_by'")
    conn.close()
    before = db_contents(db)
    out = refused(runner, "ship", "list")
    assert (
        f"this campaign was written by voyage 9.4.0 (newer than this {__version__}): "
        "upgrade voyage" in out
    )
    refused(runner, "ship", "add", "Gull", *SHIP)
    assert db_contents(db) == before


def test_a_campaign_with_schema_steps_this_voyage_lacks_is_refused(runner, db):
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('voyage', 'm099_from_the_future', '2030-01-01')"
        )
    conn.close()
    out = refused(runner, "status")
    assert "newer voyage" in out and "m099_from_the_future" in out and "upgrade voyage" in out


def old_campaign(path: Path, tables: str | None = None) -> None:
    """A campaign as voyage made them before m040: no version record, tables by folder."""
    from sqlite_utils import Database

    from voyage.dice.roller import Roller

    db = Database(path)
    db.execute("PRAGMA journal_mode=WAL")
    migrations.apply(db, stop_before="m040_file_meta")
    db["campaign"].insert(  # type: ignore[union-attr]
        {
            "id": 1,
            "name": "Old",
            "seed": 5,
            "rng_state": Roller(5).get_state(),
            "clock": 0,
            "tables": tables,
            "created": "2026-01-01T00:00:00+00:00",
        }
    )
    db.close()


def test_an_older_campaign_is_upgraded_and_stamped(runner, tmp_path):
    path = tmp_path / "old.db"
    old_campaign(path)
    assert campaignfile.inspect(path).application_id == 0
    ok(runner, "ship", "add", "Gull", *SHIP, "--db", str(path))
    info = campaignfile.inspect(path)
    assert info.applied == store.known_migrations()
    assert info.written_by == __version__ and info.application_id == campaignfile.APPLICATION_ID
    assert "Gull" in ok(runner, "ship", "list", "--db", str(path))


def drop_table(path: Path, table: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(f"DROP TABLE {table}")
    conn.close()


def sql(path: Path, statement: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(statement)
    conn.close()


@pytest.mark.parametrize(
    "damage, command, words",
    [
        (lambda p: drop_table(p, "ships"), ["ship", "list"], "table ships is missing"),
        (lambda p: drop_table(p, "storms"), ["weather", "list"], "table storms is missing"),
        (lambda p: sql(p, "DELETE FROM campaign"), ["status"], "the campaign row"),
        (
            lambda p: sql(p, "UPDATE ships SET traits = '[\"Broad\"' WHERE name = 'Gull'"),
            ["ship", "list"],
            "ships.traits of name 'Gull' is not valid JSON",
        ),
        (
            lambda p: sql(p, "UPDATE ships SET equipment = 'oops' WHERE name = 'Gull'"),
            ["ship", "show", "Gull"],
            "ships.equipment of name 'Gull' is not valid JSON",
        ),
    ],
)
def test_a_damaged_campaign_is_named_in_one_line(runner, db, damage, command, words):
    ok(runner, "ship", "add", "Gull", *SHIP)
    damage(db)
    before = db_contents(db)
    out = refused(runner, *command)
    assert f"{db} is damaged: {words}" in out and "backup" in out and "voyage doctor" in out
    assert db_contents(db) == before


def test_init_builds_beside_and_leaves_nothing_when_it_fails(tmp_path, monkeypatch):
    path = tmp_path / "c.db"

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(campaignfile, "stamp", broken)
    out = refused(CliRunner(), "init", "--db", str(path), "--seed", "3")
    assert "is full" in out
    assert list(tmp_path.iterdir()) == []


def test_init_clears_what_a_killed_init_left(tmp_path):
    stale = tmp_path / ".c.db.999999999.voyage-init"  # no such process
    stale.write_bytes(b"half a campaign")
    Path(f"{stale}-journal").write_bytes(b"")
    other = tmp_path / ".other.db.999999999.voyage-init"
    other.write_bytes(b"")
    ok(CliRunner(), "init", "--db", str(tmp_path / "c.db"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.db.999999999.voyage-init", "c.db"]


def test_init_in_a_missing_folder_or_over_a_file_is_refused(tmp_path):
    refused(CliRunner(), "init", "--db", str(tmp_path / "nope" / "c.db"))
    (tmp_path / "c.db").write_text("mine")
    assert "already exists" in refused(CliRunner(), "init", "--db", str(tmp_path / "c.db"))
    assert (tmp_path / "c.db").read_text() == "mine"


def _connect_with(monkeypatch, pragma: str | None = None, readonly: bool = False) -> None:
    real = store._connect

    def connect(path: Path):
        if readonly:
            from sqlite_utils import Database

            conn = sqlite3.connect(campaignfile.readonly_uri(path), uri=True)
            return Database(conn, execute_plugins=False)
        db = real(path)
        if pragma:
            size = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(pragma.format(pages=size))
        return db

    monkeypatch.setattr(store, "_connect", connect)


def test_a_full_disk_is_one_line_and_changes_nothing(runner, db, monkeypatch):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", *SHIP)
    ok(runner, "ship", "load", "Gull", "--crew", "5", "--fuel", "60")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    with sqlite3.connect(db) as conn:  # no free pages left inside the file either
        conn.execute("VACUUM")
    before = db_contents(db)
    # the file may not grow by a page: as a full disk looks to SQLite
    _connect_with(monkeypatch, "PRAGMA max_page_count = {pages}")
    # forty ships and their rolls need new pages (an advance of one ship now writes only
    # what it changed, and that fits in the slack of the pages there are)
    out = refused(runner, "ship", "roll", "--class", "freighter", "--count", "40")
    assert f"the disk holding {db} is full: nothing was changed" in out
    assert db_contents(db) == before
    ok(runner, "status")  # reading still works


def test_a_read_only_campaign_reads_and_refuses_changes_in_one_line(runner, db, monkeypatch):
    ok(runner, "ship", "add", "Gull", *SHIP)
    before = db_contents(db)
    _connect_with(monkeypatch, readonly=True)
    assert "Gull" in ok(runner, "ship", "list")
    out = refused(runner, "ship", "add", "Tern", *SHIP)
    assert f"{db} is read-only" in out
    assert db_contents(db) == before


@pytest.mark.skipif(not permissions_bind(), reason="this user writes through file permissions")
@pytest.mark.parametrize("what", ["file", "folder"])
def test_file_permissions_read_only(runner, db, what):
    ok(runner, "ship", "add", "Gull", *SHIP)
    ok(runner, "status")
    gc.collect()  # every connection closed: the WAL is folded in and its files are gone
    assert not Path(f"{db}-wal").exists()
    target = db if what == "file" else db.parent
    mode = target.stat().st_mode
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        out = refused(runner, "ship", "add", "Tern", *SHIP)
        assert "read-only" in out or "cannot be opened" in out
        assert "Gull" in ok(runner, "ship", "list")  # reading still works
        if what == "folder":
            out = refused(runner, "init", "--db", str(db.parent / "new.db"))
            assert "read-only" in out and not (db.parent / "new.db").exists()
    finally:
        target.chmod(mode)
