"""The referee's own views name a port where the stored event gives its bare hex, as the
players' share does (voyage.outputs.chronicle.name_places): `voyage journal --for referee`,
`voyage log`, the referee's Markdown export and `voyage status`. The stored rows keep the
bare hex (they are what the bench digest and the JSON export read)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, trawler_at

from voyage.outputs.chronicle import name_places, port_named

STORED = "Sea Witch sets sail from 0305 for 2812"
NAMED = "Sea Witch sets sail from Gullhaven (0305) for Ironport (2812)"


@pytest.fixture
def bound(runner: CliRunner, db: Path) -> Path:
    """The Sea Witch in Gullhaven (0305), bound for Ironport (2812), 2 hours out."""
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    return db


def test_the_referees_journal_log_and_markdown_name_the_ports(
    runner: CliRunner, bound: Path, tmp_path: Path
) -> None:
    md = tmp_path / "referee.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "--for", "referee", "--out", str(md))
    journal = ok(runner, "journal", "--for", "referee")
    journal_json = json.loads(ok(runner, "journal", "--for", "referee", "-f", "json"))
    log = ok(runner, "log", "Sea Witch")
    texts = [e["text"] for day in journal_json["days"] for e in day["entries"]]
    for told in (md.read_text(), journal, log, " ".join(texts)):
        assert NAMED in told
        assert STORED not in told


def test_the_stored_rows_and_the_machine_outputs_keep_the_bare_hex(
    runner: CliRunner, bound: Path, tmp_path: Path
) -> None:
    conn = sqlite3.connect(bound)
    try:
        stored = [r[0] for r in conn.execute("SELECT text FROM events WHERE kind = 'sail'")]
    finally:
        conn.close()
    assert stored and stored[0].startswith(STORED)
    logged = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    assert [e["text"] for e in logged["events"] if e["kind"] == "sail"] == stored
    out = tmp_path / "log.json"
    ok(runner, "export", "Sea Witch", "-f", "json", "--out", str(out))
    exported = json.loads(out.read_text())
    assert [e["text"] for e in exported["events"] if e["kind"] == "sail"] == stored
    status = json.loads(ok(runner, "status", "--json"))
    assert status["ships"][0]["destination"] == "2812"


def test_status_names_a_port_where_she_is_and_where_she_is_bound(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    lines = ok(runner, "status").splitlines()
    header, row = lines[1], lines[3]
    assert header.split()[:4] == ["ship", "status", "hex", "to"]
    assert "Gullhaven (0305)" in row and "Ironport (2812)" in row
    ok(runner, "advance", "--hours", "2")  # out at sea: her hex is a hex
    row = ok(runner, "status").splitlines()[3]
    assert "Ironport (2812)" in row and "Gullhaven" not in row


def test_a_hex_that_is_no_port_stays_bare() -> None:
    places = {"0305": "Gullhaven"}
    assert port_named("0305", places) == "Gullhaven (0305)"
    assert port_named("1409", places) == "1409"
    assert port_named(None, places) == ""
    assert name_places("drifts from 1409 to 0305", places) == (
        "drifts from 1409 to Gullhaven (0305)"
    )
    assert name_places("at Gullhaven (0305)", places) == "at Gullhaven (0305)"  # named once


def test_a_port_left_off_the_route_by_a_course_change_is_named_in_the_export(
    runner: CliRunner, bound: Path, tmp_path: Path
) -> None:
    # She set sail for Ironport, then turned back: the export named only the ports of her
    # last route, and its sail line read "for 2812" where `voyage log` said Ironport (2812).
    ok(runner, "act", "Sea Witch", "course", "--to", "0305")
    for audience in ("players", "referee"):
        md = tmp_path / f"{audience}.md"
        ok(runner, "export", "Sea Witch", "-f", "md", "--for", audience, "--out", str(md))
        assert "for Ironport (2812)" in md.read_text(), audience
