"""The parsed map is cached in the campaign keyed by its text's hash.

Commands run through click's CliRunner in one process, so each test empties the in-process
memo (``mapstore._PARSED``) between commands: what is checked is the campaign's cache.
"""

from __future__ import annotations

import json
import sqlite3
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.base.paths import campaigns_dir
from voyage.cli import cli
from voyage.map import hexes as hexmap
from voyage.map.seamap import SEA_TERRAINS, TERRAINS, coastal_cells, load_map, parse_map
from voyage.store import mapcache, mapstore

SALT_REACH = str(campaigns_dir() / "salt_reach")
LAGOON = textwrap.dedent(
    """\
    name: Lagoon
    rows: |
      ~~~~
      ~P#~
      ~~~~
    hexes:
      "0202": {port: Dot, fuel: {price: 1.5, stock: 20}}
    """
)


def run(runner, *args):
    mapstore._PARSED.clear()  # the next command starts as a fresh process would
    return runner.invoke(cli, list(args), catch_exceptions=False)


def cache_rows(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT hash, format FROM map_cache ORDER BY rowid").fetchall()


def map_text(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT text FROM sea_map").fetchone()[0]


@pytest.fixture
def no_parsing(monkeypatch):
    """Make any parse of map text fail: a command that still works used the cache."""

    def refuse(*args, **kwargs):
        raise AssertionError("the map was parsed again")

    monkeypatch.setattr(mapstore, "parse_map", refuse)


def test_map_load_caches_the_parse_and_later_commands_do_not_parse(runner, db, no_parsing):
    # (map load reads the file with maps.load_map, which the fixture leaves working)
    assert run(runner, "map", "load", SALT_REACH).exit_code == 0
    assert cache_rows(db) == [(mapcache.map_hash(map_text(db)), mapcache.FORMAT)]
    result = run(runner, "map", "hex", "0305", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["port"] == "Gullhaven"
    assert run(runner, "map", "show").exit_code == 0


def test_a_campaign_without_a_cache_row_parses_once_then_hits(runner, db, monkeypatch):
    assert run(runner, "map", "load", SALT_REACH).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM map_cache")  # as a campaign made before m070
    parses = []
    real = mapstore.parse_map
    monkeypatch.setattr(mapstore, "parse_map", lambda *a: parses.append(1) or real(*a))
    for _ in range(3):
        assert run(runner, "map", "hex", "0305").exit_code == 0
    assert len(parses) == 1
    assert [h for h, _ in cache_rows(db)] == [mapcache.map_hash(map_text(db))]


def test_cache_follows_the_map_through_load_and_undo(runner, db, tmp_path, no_parsing):
    lagoon = tmp_path / "lagoon.yaml"
    lagoon.write_text(LAGOON)
    assert run(runner, "map", "load", SALT_REACH).exit_code == 0
    assert run(runner, "map", "load", str(lagoon)).exit_code == 0
    shown = json.loads(run(runner, "map", "show", "--json").output)
    assert (shown["map"], shown["width"], shown["height"]) == ("Lagoon", 4, 3)
    hex_info = json.loads(run(runner, "map", "hex", "0202", "--json").output)
    assert hex_info["fuel"] == {"price": 1.5, "stock": 20, "left": 20}
    # Undo puts the Salt Reach's text back; its hash picks its own cached parse.
    assert run(runner, "undo").exit_code == 0
    shown = json.loads(run(runner, "map", "show", "--json").output)
    assert (shown["map"], shown["width"], shown["height"]) == ("The Salt Reach", 36, 24)


def test_a_row_for_another_text_is_never_used(runner, db, tmp_path):
    lagoon = tmp_path / "lagoon.yaml"
    lagoon.write_text(LAGOON)
    assert run(runner, "map", "load", str(lagoon)).exit_code == 0
    # The map text changes under the cache (as an undo or a hand edit would change it): the
    # old row no longer matches the hash, so the new text is parsed and cached.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sea_map SET text = ?", [LAGOON.replace("Lagoon", "Other")])
    assert json.loads(run(runner, "map", "show", "--json").output)["map"] == "Other"
    assert len(cache_rows(db)) == 2


def test_a_busy_campaign_is_simply_not_cached(runner, db, tmp_path, monkeypatch):
    from voyage.store import campaign as store

    lagoon = tmp_path / "lagoon.yaml"
    lagoon.write_text(LAGOON)
    assert run(runner, "map", "load", str(lagoon)).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM map_cache")
    monkeypatch.setattr(store, "LOCK_WAIT_SECONDS", 0.05)
    other = sqlite3.connect(db)
    other.execute("BEGIN IMMEDIATE")  # another command is writing: the cache cannot be
    try:
        result = run(runner, "map", "hex", "0202", "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["port"] == "Dot"
    finally:
        other.rollback()
        other.close()
    assert cache_rows(db) == []


def test_a_damaged_row_is_a_miss(runner, db, tmp_path):
    lagoon = tmp_path / "lagoon.yaml"
    lagoon.write_text(LAGOON)
    assert run(runner, "map", "load", str(lagoon)).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE map_cache SET blob = X'00010203'")
    assert json.loads(run(runner, "map", "show", "--json").output)["map"] == "Lagoon"


def test_the_cache_is_left_out_of_undo_and_keeps_a_few_maps(runner, db, tmp_path):
    for i in range(5):
        path = tmp_path / f"m{i}.yaml"
        path.write_text(LAGOON.replace("Lagoon", f"Map {i}"))
        assert run(runner, "map", "load", str(path)).exit_code == 0
    assert len(cache_rows(db)) == mapcache.KEEP
    before = cache_rows(db)
    assert run(runner, "undo").exit_code == 0
    assert cache_rows(db) == before  # derived data keyed by hash: undo leaves it alone


# ----------------------------------------------------------------------------- the blob


def random_map_text(draw_rows, entries=""):
    return "name: Random\nrows: |\n" + "".join(f"  {r}\n" for r in draw_rows) + entries


grids = st.integers(1, 9).flatmap(
    lambda w: st.lists(st.text("~~~##%:x", min_size=w, max_size=w), min_size=1, max_size=9)
)


@settings(max_examples=60)
@given(grids)
def test_blob_round_trip_gives_the_same_map(rows):
    sea = parse_map(random_map_text(rows))
    back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
    assert (back.name, back.width, back.height, back.rows) == (
        sea.name,
        sea.width,
        sea.height,
        sea.rows,
    )
    assert back.cells == sea.cells and back.coastal_cells == sea.coastal_cells
    assert [back.hex(n) for n in sea.names()] == [sea.hex(n) for n in sea.names()]


def test_blob_round_trip_of_the_bundled_map():
    sea = load_map(SALT_REACH)
    back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
    assert back.legend == sea.legend and back.entries == sea.entries
    assert sea.currents and back.currents == sea.currents  # R64: the Salt Reach has currents
    # R61: its two weather regions come back whole (a cached map must not fall back to the
    # one temperate region of a map without regions)
    assert len(sea.regions) == 2 and back.regions == sea.regions
    assert [back.hex(n) for n in sea.names()] == [sea.hex(n) for n in sea.names()]
    assert (back.description, back.notes, back.default_seabed) == (
        sea.description,
        sea.notes,
        sea.default_seabed,
    )


def old_coastal(terrain, width, height):
    """The per-cell coast finder the row-bit version replaced: the reference."""
    odd = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
    even = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
    coastal = bytearray(width * height)
    for index, kind in enumerate(terrain):
        if kind != "land":
            continue
        row0, col0 = divmod(index, width)
        for dc, dr in even if col0 & 1 else odd:
            c, r = col0 + dc, row0 + dr
            if 0 <= c < width and 0 <= r < height and terrain[r * width + c] in SEA_TERRAINS:
                coastal[r * width + c] = 1
    return bytes(coastal)


@settings(max_examples=150)
@given(grids)
def test_coast_by_row_bits_matches_the_cell_by_cell_reference(rows):
    sea = parse_map(random_map_text(rows))
    terrain = [TERRAINS[c] for c in sea.cells]
    assert coastal_cells(sea.cells, sea.width, sea.height) == old_coastal(
        terrain, sea.width, sea.height
    )


# ----------------------------------------------------------------------------- routes


@settings(max_examples=120)
@given(
    st.integers(2, 14).flatmap(
        lambda w: st.lists(st.text("~~~~#%", min_size=w, max_size=w), min_size=2, max_size=14)
    ),
    st.data(),
)
def test_route_on_integer_cells_is_the_route_by_names(rows, data):
    sea = parse_map(random_map_text(rows))
    names = list(sea.names())
    start = data.draw(st.sampled_from(names))
    goal = data.draw(st.sampled_from(names))
    avoid = data.draw(st.sets(st.sampled_from(["reef", *names]), max_size=4))

    def passable(name):  # the predicate route() used before the integer search
        if not sea.in_bounds(name) or name in avoid:
            return False
        terrain = sea.terrain(name)
        return terrain in SEA_TERRAINS and terrain not in avoid

    expected = hexmap.shortest_path(start, goal, passable)
    assert sea.route(start, goal, avoid=avoid) == expected


def test_round_trip_and_fills_with_a_long_unicode_legend():
    from voyage.outputs.palette import hex_colour, kind_colour
    from voyage.outputs.render import fill_kinds

    chars = [chr(0x4E00 + i) for i in range(300)]  # more kinds than a byte can number
    legend = "".join(f'  "{c}": {{terrain: sea, seabed: rocky}}\n' for c in chars[:-1])
    legend += f'  "{chars[-1]}": land\n'
    rows = "".join(
        "  " + "".join(chars[(r * 7 + i) % 300] for i in range(20)) + "\n" for r in range(20)
    )
    sea = parse_map("legend:\n" + legend + "rows: |\n" + rows)
    back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
    assert back.rows == sea.rows and back.cells == sea.cells
    assert back.coastal_cells == sea.coastal_cells
    import numpy as np

    cols, rows_ = np.meshgrid(np.arange(1, 21), np.arange(1, 21))
    fills, kinds = fill_kinds(sea, cols.ravel(), rows_.ravel())
    for col, row, fill in zip(cols.ravel(), rows_.ravel(), fills, strict=True):
        name = hexmap.hex_name(int(col), int(row))
        h = sea.hex(name)
        assert kinds[fill] == (h.terrain, h.seabed), name
        assert kind_colour(kinds[fill]) == hex_colour(h)  # the colour a Hex would get


def test_long_routes_on_a_bigger_map_match_the_search_by_names():
    import random

    rng = random.Random(14)  # test data, not a game roll
    size = 70
    grid = [["~"] * size for _ in range(size)]
    for _ in range(90):  # islands grown from random seeds, as in bench/bench_map.py
        col, row = rng.randrange(size), rng.randrange(size)
        for _ in range(rng.randrange(4, 30)):
            grid[row][col] = "#"
            col = min(size - 1, max(0, col + rng.choice((-1, 0, 1))))
            row = min(size - 1, max(0, row + rng.choice((-1, 0, 1))))
    sea = parse_map(random_map_text(["".join(r) for r in grid]))
    water = [n for n in sea.names() if sea.is_sea(n)]
    found = 0
    for _ in range(12):
        start, goal = rng.choice(water), rng.choice(water)
        route = sea.route(start, goal)
        assert route == hexmap.shortest_path(start, goal, sea.is_sea)
        found += route is not None
    assert found >= 10  # the islands leave most of the sea connected: real routes compared


def test_cell_search_edges():
    water = bytes([1, 1, 0, 1]) * 2  # 4 x 2: column 3 is land in both rows
    assert hexmap.shortest_path_cells("0101", "0101", water, 4, 2) == ["0101"]
    assert hexmap.shortest_path_cells("0101", "0301", water, 4, 2) is None  # goal is land
    assert hexmap.shortest_path_cells("0101", "0401", water, 4, 2) is None  # cut off
    assert hexmap.shortest_path_cells("0101", "0502", water, 4, 2) is None  # goal off the map
    route = hexmap.shortest_path_cells("0101", "0202", water, 4, 2)
    assert route == ["0101", "0102", "0202"]  # two ways of 2 steps; shortest_path's tie-break:
    assert route == hexmap.shortest_path("0101", "0202", lambda h: h in {"0102", "0201", "0202"})
    with pytest.raises(hexmap.MapError, match="off the map"):
        hexmap.shortest_path_cells("0501", "0101", water, 4, 2)


def test_a_read_command_fills_the_cache_without_keeping_the_write_lock(runner, db, tmp_path):
    from voyage.store.campaign import open_campaign
    from voyage.store.campaigndb import begin_reading, end_reading

    lagoon = tmp_path / "lagoon.yaml"
    lagoon.write_text(LAGOON)
    assert run(runner, "map", "load", str(lagoon)).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM map_cache")
    mapstore._PARSED.clear()
    camp = open_campaign(db)
    begin_reading(camp)  # as `map show` reads: one moment
    try:
        assert mapstore.current_map(camp).name == "Lagoon"
        assert camp.db.conn.in_transaction  # still its read moment
        other = sqlite3.connect(db, timeout=0.1)
        try:
            other.execute("BEGIN IMMEDIATE")  # another terminal can write at once
            other.rollback()
        finally:
            other.close()
    finally:
        end_reading(camp)
        camp.close()
    assert [h for h, _ in cache_rows(db)] == [mapcache.map_hash(map_text(db))]


def test_blob_round_trip_of_a_drawing_not_ascii_and_shared_fuel():
    """A drawing of one byte a hex takes its terrain by bytes.translate, any other the
    rows'; ports selling at one price and stock share one (frozen) Fuel, prices
    1 and 1.0 kept apart."""
    text = (
        "name: Wide\nlegend:\n  'â': reef\nrows: |\n  #P#P#\n  ##~P#\n  P#~~â\n"
        'hexes:\n  "0201": {port: A, fuel: {price: 2}}\n  "0401": {port: B, fuel: {price: 2}}\n'
        '  "0402": {port: C, fuel: {price: 2.0}}\n  "0103": {port: D, fuel: {price: 2, stock: 9}}\n'
    )
    for source in (text, text.replace("'â'", "'r'").replace("~~â", "~~r")):
        sea = parse_map(source)
        back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
        assert back.cells == sea.cells and back.entries == sea.entries
        assert [back.hex(n) for n in sea.names()] == [sea.hex(n) for n in sea.names()]
        fuel = {n: back.hex(n).fuel for n in ("0201", "0401", "0402", "0103")}
        assert fuel["0201"] is fuel["0401"]
        assert repr(fuel["0402"]) == repr(sea.hex("0402").fuel)
        assert fuel["0103"] == sea.hex("0103").fuel and fuel["0103"].stock == 9
