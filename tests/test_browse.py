"""`voyage browse` (issue 15, item 6): the campaign in Datasette, read-only, tables linked."""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import db_contents, ok, refused

from voyage.browse import datasette_app
from voyage.campaignfile import campaign_title


def _get(db: Path, url: str) -> object:
    ds = datasette_app(db, campaign_title(db))

    async def fetch() -> object:
        response = await ds.client.get(url)
        assert response.status_code == 200, (url, response.text[:300])
        return response.json()

    return asyncio.run(fetch())


def test_datasette_serves_the_campaign_read_only_with_its_descriptions(runner, db: Path):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "dinghy", "--tier", "1")
    before = db_contents(db)
    ships = _get(db, f"/{db.stem}/ships.json?_shape=array")
    assert [s["name"] for s in ships] == ["Gull"]  # type: ignore[union-attr,index]
    meta = _get(db, "/-/metadata.json")
    assert "voyage campaign" in meta["description"]  # type: ignore[index]
    tables = meta["databases"][db.stem]["tables"]  # type: ignore[index]
    assert "readable ship's log" in tables["ship_log"]["description"]
    assert db_contents(db) == before


def test_browse_refuses_a_file_that_is_not_a_campaign(runner, tmp_path: Path):
    other = tmp_path / "notes.db"
    other.write_text("not a database at all")
    assert "not a voyage campaign" in refused(runner, "browse", "--db", str(other))
    assert other.read_text() == "not a database at all"


def test_events_carry_their_hex_and_the_views_answer_the_common_questions(runner, db: Path):
    import sqlite3

    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "4", "--engine", "3")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "40")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "12")
    with sqlite3.connect(db) as conn:
        # every event of the advance sits in the hex the hour row puts the ship in
        rows = conn.execute(
            "SELECT e.hex, h.hex FROM events e JOIN hours h ON h.ship = e.ship "
            "AND h.clock = e.clock WHERE e.kind != 'sail'"
        ).fetchall()
        assert rows and all(a == b for a, b in rows)
        placed = conn.execute("SELECT hex FROM events WHERE kind = 'place'").fetchone()
        assert placed == ("0305",)  # a referee's event: the ship's hex then
        log = conn.execute("SELECT ship, voyage, origin, destination FROM ship_log "
                           "WHERE kind = 'sail'").fetchall()
        assert log == [("Gull", 1, "0305", "2812")]
        at_sea = conn.execute("SELECT ship, voyage, destination FROM ships_at_sea").fetchall()
        assert at_sea == [("Gull", 1, "2812")]
    views = _get(db, f"/{db.stem}.json")
    names = {v["name"] for v in views["views"]}  # type: ignore[index]
    assert {"ship_log", "ships_at_sea"} <= names
