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
