"""The JSON export gives the minute a voyage ended (``voyage.ended_minute``), as the Markdown
export and the journal do: ``ended`` and ``ended_time`` keep naming the hour, as version 1
always did, so a file written before the field still validates."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from conftest import ok, trawler_at

from voyage.outputs.exportjson import load_schema
from voyage.tables.calendar import format_time


def _export(runner: CliRunner, tmp_path: Path) -> dict:
    out = tmp_path / "witch.json"
    ok(runner, "export", "Sea Witch", "-f", "json", "--out", str(out), "--force", "--validate")
    return json.loads(out.read_text())


def test_an_arrival_is_given_to_the_minute(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "0804")  # Silt Harbour, a few hexes off
    ok(runner, "advance", "--hours", "48")
    data = _export(runner, tmp_path)
    voyage = data["voyage"]
    assert voyage["status"] == "arrived"
    arrived = [e for e in data["events"] if e["kind"] == "arrived"]
    assert len(arrived) == 1
    assert (voyage["ended"], voyage["ended_minute"]) == (arrived[0]["clock"], arrived[0]["minute"])
    assert voyage["ended_time"] == format_time(None, voyage["ended"], 0)  # the hour, as before
    exact = format_time(None, voyage["ended"], voyage["ended_minute"])
    assert exact == arrived[0]["time"]
    assert data["summary"]["outcome"].endswith(f"on {exact}")  # the words the Markdown has
    md = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "--out", str(md), "--for", "referee")
    assert exact in md.read_text()


def test_under_way_the_minute_is_null(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    voyage = _export(runner, tmp_path)["voyage"]
    assert voyage["status"] == "under way"
    assert (voyage["ended"], voyage["ended_time"], voyage["ended_minute"]) == (None, None, None)


def test_a_file_written_before_the_field_still_validates(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "0804")
    ok(runner, "advance", "--hours", "48")
    data = _export(runner, tmp_path)
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert "ended_minute" not in schema["$defs"]["voyage"]["required"]
    del data["voyage"]["ended_minute"]
    jsonschema.validate(data, schema)
    assert data["version"] == "1"  # a field added, none changed: the version stays
    for wrong in (60, -1, "59"):
        data["voyage"]["ended_minute"] = wrong
        try:
            jsonschema.validate(data, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"ended_minute {wrong!r} passed the schema")
