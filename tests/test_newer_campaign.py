"""A campaign from a newer voyage (a later version, or schema steps this one does not know)
is refused by every command that reads or writes a campaign in one line naming the cure,
upgrade voyage, and the file is left as it was (`voyage browse` too, which serves a campaign
rather than reading it); `voyage doctor` names it as its finding."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import db_contents, invoke, ok, refused, trawler_at

COMMANDS = [
    ("status",),
    ("ship", "list"),
    ("ship", "show", "Sea Witch"),
    ("ship", "add", "Gull", "--class", "dinghy", "--tier", "1"),
    ("ship", "load", "Sea Witch", "--fuel", "10"),
    ("ship", "place", "Sea Witch", "0404"),
    ("crew", "add", "Anna", "--ship", "Sea Witch"),
    ("map", "load", "salt_reach"),
    ("map", "show"),
    ("sail", "Sea Witch", "--to", "2812"),
    ("advance", "--hours", "1"),
    ("log", "Sea Witch"),
    ("history",),
    ("undo",),
    ("settings", "undo_keep", "5"),
    ("weather", "forecast"),
    ("calendar",),
    ("forecast", "Sea Witch", "--to", "2812", "--runs", "10"),
    ("roll", "capsize", "Sea Witch"),
    ("act", "Sea Witch", "anchor"),
    ("export", "Sea Witch", "--format", "json"),
    ("browse",),
]


def _newer(db: Path, how: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        if how == "version":
            conn.execute("UPDATE voyage_file SET value = '9.4.0' WHERE key = 'written_by'")
        else:
            conn.execute(
                "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                "VALUES ('voyage', 'm139_from_the_future', '2030-01-01')"
            )
    conn.close()


@pytest.mark.parametrize("how", ["version", "steps"])
def test_every_command_refuses_a_newer_campaign_in_one_line(
    runner, db: Path, how: str, monkeypatch
):
    import voyage.outputs.browse

    def served(*_: object) -> None:
        raise AssertionError("voyage browse served a newer campaign")

    monkeypatch.setattr(voyage.outputs.browse, "serve", served)  # a server would never return
    trawler_at(runner, "0305", crew=5, fuel=60)
    _newer(db, how)
    before = db_contents(db)
    for command in COMMANDS:
        out = refused(runner, *command)  # one line, exit 1
        assert "upgrade voyage" in out and str(db) in out, (command, out)
        assert ("9.4.0" if how == "version" else "m139_from_the_future") in out, command
    assert db_contents(db) == before
    report = invoke(runner, "doctor")  # its finding, said as every command says it
    assert report.exit_code == 1
    assert report.output.splitlines()[1].startswith("  version: voyage_file: this campaign was")
    assert db_contents(db) == before


def test_browse_still_serves_a_campaign_of_this_voyage(runner, db: Path):
    from voyage.store.campaign import campaign_title

    ok(runner, "ship", "add", "Gull", "--class", "dinghy", "--tier", "1")
    assert campaign_title(db) == "Test"
