"""`voyage browse`: the campaign in Datasette, read-only, tables linked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import db_contents, ok, refused, trawler_at

from voyage.outputs.browse import datasette_app
from voyage.store.campaign import campaign_title


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

    trawler_at(runner, "0305", "Gull", tier="4", engine="3", crew=6, fuel=40)
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
        log = conn.execute(
            "SELECT ship, voyage, origin, destination FROM ship_log WHERE kind = 'sail'"
        ).fetchall()
        assert log == [("Gull", 1, "0305", "2812")]
        at_sea = conn.execute("SELECT ship, voyage, destination FROM ships_at_sea").fetchall()
        assert at_sea == [("Gull", 1, "2812")]
    views = _get(db, f"/{db.stem}.json")
    names = {v["name"] for v in views["views"]}  # type: ignore[index]
    assert {"ship_log", "ships_at_sea"} <= names


def _html(db: Path, url: str) -> str:
    ds = datasette_app(db, campaign_title(db))

    async def fetch() -> str:
        response = await ds.client.get(url)
        assert response.status_code == 200, (url, response.text[:300])
        return str(response.text)

    return asyncio.run(fetch())


def test_tables_link_to_each_other_in_datasette(runner, db: Path):
    """The foreign keys (m190) make Datasette link a voyage to its ship, an hour
    to its voyage and action, and list on a row's page the rows that point at it. (A row's
    own page in Datasette 0.65 shows its values unlinked; the table page links them.)"""
    import pytest

    pytest.importorskip("datasette")
    trawler_at(runner, "0305", "Gull", tier="4", engine="3", crew=6, fuel=40)
    ok(runner, "sail", "Gull", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "3")
    name = db.stem
    # the voyage's row, as the voyages table shows it: her ship is a link to her row
    voyage = _html(db, f"/{name}/voyages?id=1")
    assert f'<a href="/{name}/ships/Gull">Gull</a>' in voyage
    # a ship-day of hours links to its voyage (labelled by its ship) and to the action that
    # wrote it; the view hours shows each hour (m102: a view has no keys, so no links)
    day = _get(db, f"/{name}/hour_days.json?_labels=on&_shape=array&_size=1")[0]  # type: ignore[index]
    assert day["voyage_id"] == {"value": 1, "label": "Gull"}
    assert day["action_id"]["label"].startswith("advance 3 hours")
    hours = _get(db, f"/{name}/hours.json?_shape=array&voyage_id=1")
    seen = [(h["id"], h["voyage_id"], h["clock"]) for h in hours]  # type: ignore[index]
    assert seen == [(1, 1, 0), (2, 1, 1), (3, 1, 2)]
    # the ship's own page lists what points at her; her class has its name beside its key
    ship = _html(db, f"/{name}/ships/Gull")
    assert f'<a href="/{name}/voyages?ship=Gull">' in ship and "from ship in voyages" in ship
    # and a voyage's page lists her hours and events
    voyage_page = _html(db, f"/{name}/voyages/1")
    assert f'<a href="/{name}/hour_days?voyage_id=1">' in voyage_page
    assert "from voyage_id in events" in voyage_page
    row = _get(db, f"/{name}/ships/Gull.json?_shape=array")[0]  # type: ignore[index]
    assert (row["class"], row["class_label"]) == ("trawler", "Fishing Trawler")
    meta = _get(db, "/-/metadata.json")["databases"][name]["tables"]  # type: ignore[index]
    assert "beside its key" in meta["ships"]["columns"]["class_label"]


def test_without_datasette_the_refusal_installs_it_beside_this_voyage(
    runner, db: Path, monkeypatch
):
    """The package index's "voyage" is another project: `pip install 'voyage[browse]'` would
    put it in place of this one. The hint names this Python's pip and Datasette itself."""
    import sys

    monkeypatch.setitem(sys.modules, "datasette", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "datasette.app", None)
    line = refused(runner, "browse")
    assert "voyage[browse]" not in line
    assert f"{sys.executable} -m pip install 'datasette>=0.65,<0.66'" in line
    assert "pip install '.[browse]'" in line  # from voyage's own folder


def test_browse_serves_this_machine_only_unless_told_and_warns_beyond_it(
    runner, db: Path, monkeypatch
):
    """An empty --host (a shell variable left unset) is refused, not taken for every
    interface; an address other machines reach is served with one line of warning."""
    import voyage.outputs.browse as browse

    served: list[str] = []
    monkeypatch.setattr(browse, "bind", lambda host, port: host)  # no socket: the host checked
    monkeypatch.setattr(browse, "serve", lambda path, title, sock: served.append(sock))
    assert "--host must not be empty" in refused(runner, "browse", "--host", "")
    assert "--host must not be empty" in refused(runner, "browse", "--host", "  ")
    assert served == []
    quiet = ok(runner, "browse")
    assert served == ["127.0.0.1"] and "Warning" not in quiet
    for host in ("127.0.0.1", "localhost", "::1", "127.1"):
        assert "Warning" not in ok(runner, "browse", "--host", host), host
    for host in ("0", "0.0.0.0", "::", "192.168.1.5"):
        lines = [line for line in ok(runner, "browse", "--host", host).splitlines() if line]
        warned = [line for line in lines if line.startswith("Warning:")]
        assert len(warned) == 1 and f"--host {host} listens on" in warned[0], lines
    assert served[-1] == "192.168.1.5"


def test_datasette_does_not_show_where_the_campaign_lies(db: Path):
    """/-/databases.json names the file, not the referee's folders."""
    listed = _get(db.resolve(), "/-/databases.json")
    assert [d["path"] for d in listed] == [db.name]  # type: ignore[index,union-attr]
    assert str(db.parent) not in str(listed)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_browse_says_serving_only_once_the_port_is_bound(runner, db: Path, monkeypatch):
    import socket

    import voyage.outputs.browse as browse

    ok(runner, "map", "load", "salt_reach")
    port = _free_port()
    seen: list[object] = []

    def fake_serve(path: Path, title: str, sock: socket.socket) -> None:
        # the port is ours before a word is said: another bind on it fails
        seen.append(sock.getsockname())
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", port))
        sock.close()

    monkeypatch.setattr(browse, "serve", fake_serve)
    out = ok(runner, "browse", "--port", str(port))
    assert seen == [("127.0.0.1", port)]
    assert out.startswith("Serving ") and f"at http://127.0.0.1:{port}/ " in out


def test_browse_refuses_a_port_in_use_in_one_line_and_never_says_serving(runner, db: Path):
    import socket

    ok(runner, "map", "load", "salt_reach")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = refused(runner, "browse", "--port", str(port))
    assert "Serving" not in message
    assert f"port {port}" in message and "--port" in message
