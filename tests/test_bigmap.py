"""Big maps: a command on a large map does no Python work per hex of the map.

A 999 x 999 map has a million hexes; a one-hour advance must cost what it costs on the
bundled map. The default weather region (R61: every hex of a map without regions) and the
named regions hold their hexes as bytes (voyage.map.regions.HexSet, OpenSea), the
encounter tables' region (R93) is looked up per hex a ship is in, and the parsed map comes
from the campaign's cache. No timing here: per-hex work is caught by counting the calls
that name or describe hexes, on a map large enough that walking it would show.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.cli import cli
from voyage.map import hexes as hexmap
from voyage.map.regions import HexSet, OpenSea
from voyage.map.seamap import SeaMap, parse_map
from voyage.store import mapcache, mapstore

SIDE = 300  # 90,000 hexes: walking them shows as 90,000 calls, a command makes a few dozen


def big_map_text(regions: bool) -> str:
    """A SIDE x SIDE sea with an island and a port in two corners (and two regions)."""
    grid = [["~"] * SIDE for _ in range(SIDE)]
    grid[9][9], grid[9][10] = "#", "P"  # land at 1010, its port at 1110
    grid[SIDE - 11][SIDE - 10], grid[SIDE - 11][SIDE - 11] = "#", "P"
    west = hexmap.hex_name(SIDE - 10, SIDE - 10)
    text = "name: Wide\nrows: |\n" + "".join(f"  {''.join(r)}\n" for r in grid)
    text += f'hexes:\n  "1110": {{port: Eastend}}\n  "{west}": {{port: Westend}}\n'
    if regions:
        half = hexmap.hex_name(SIDE, SIDE // 2)
        low = hexmap.hex_name(1, SIDE // 2 + 1)
        last = hexmap.hex_name(SIDE, SIDE)
        text += (
            f'regions:\n  north: {{climate: temperate, hexes: ["0101-{half}"]}}\n'
            f'  south: {{climate: tropical, hexes: ["{low}-{last}"]}}\n'
        )
    return text


class Counter:
    """Counts the calls that name, parse or describe a hex, however they are reached."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        for module, name in ((hexmap, "hex_name"), (hexmap, "parse_hex"), (hexmap, "canonical")):
            real = getattr(module, name)
            monkeypatch.setattr(module, name, self.counting(real))
        real_hex, real_names = SeaMap.hex, SeaMap.names

        def counted_hex(sea_map: SeaMap, name: str):  # type: ignore[no-untyped-def]
            self.calls += 1
            return real_hex(sea_map, name)

        def counted_names(sea_map: SeaMap) -> Iterator[str]:
            for name in real_names(sea_map):
                self.calls += 1
                yield name

        monkeypatch.setattr(SeaMap, "hex", counted_hex)
        monkeypatch.setattr(SeaMap, "names", counted_names)

        def refuse(*args: object, **kwargs: object) -> None:
            raise AssertionError("the map was parsed again")

        monkeypatch.setattr(mapstore, "parse_map", refuse)

    def counting(self, real):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.calls += 1
            return real(*args, **kwargs)

        return wrapper


def sailing(tmp_path: Path, regions: bool) -> tuple[CliRunner, str]:
    """A campaign on the big map with a trawler sailing corner to corner."""
    runner, db = CliRunner(), str(tmp_path / "wide.db")
    path = tmp_path / "wide.yaml"
    path.write_text(big_map_text(regions))
    west = hexmap.hex_name(SIDE - 10, SIDE - 10)
    for args in (
        ["init", "--name", "Wide", "--seed", "3"],
        ["map", "load", str(path)],
        ["ship", "add", "Gull", "--class", "trawler", "--tier", "4", "--engine", "3"],
        ["ship", "load", "Gull", "--crew", "6", "--fuel", "400"],
        ["ship", "place", "Gull", "1110"],
        ["sail", "Gull", "--to", west],
    ):
        result = runner.invoke(cli, [*args, "--db", db], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return runner, db


def run(runner: CliRunner, db: str, *args: str) -> str:
    mapstore._PARSED.clear()  # as a fresh process: the map comes from the campaign's cache
    result = runner.invoke(cli, [*args, "--db", db], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.encounters
@pytest.mark.parametrize("regions", [False, True], ids=["one region", "named regions"])
def test_an_hour_on_a_big_map_never_walks_its_hexes(tmp_path, monkeypatch, regions) -> None:
    runner, db = sailing(tmp_path, regions)
    # a few days in first (untimed, uncounted): the weather has rolled days and cells
    run(runner, db, "settings", "encounter_chance", "0")
    run(runner, db, "advance", "--hours", "60")
    run(runner, db, "settings", "encounter_chance", "6")  # R93: a check every due hour
    from voyage.store.campaign import open_campaign

    mapstore._PARSED.clear()
    camp = open_campaign(db)
    try:  # the cached map's regions are bytes, not a set of names per region
        sea = mapstore.current_map(camp)
        assert all(isinstance(r.hexes, HexSet) for r in sea.weather_regions().values())
        assert len(sea.regions) == (2 if regions else 0)
    finally:
        camp.close()
    counter = Counter(monkeypatch)
    for args in (
        ("advance", "--hours", "1"),
        ("status",),
        ("undo",),
        ("map", "show", "--around", "1110", "--radius", "3"),
        ("weather", "show"),
    ):
        before = counter.calls
        run(runner, db, *args)
        made = counter.calls - before
        assert made < SIDE * 10, f"{' '.join(args)}: {made} hex calls on a {SIDE}x{SIDE} map"


@pytest.mark.parametrize("regions", [False, True], ids=["one region", "named regions"])
def test_weather_forecast_on_a_big_map_never_walks_its_hexes(tmp_path, monkeypatch, regions):
    runner, db = sailing(tmp_path, regions)
    counter = Counter(monkeypatch)
    shown = json.loads(run(runner, db, "weather", "forecast", "--days", "5", "--json"))
    assert len(shown["days"]) == 5
    assert counter.calls < SIDE * 10, counter.calls


# ----------------------------------------------------------------------------- regions


def reference_open_sea(sea: SeaMap, hexes: set[str]) -> tuple[str, ...]:
    """R62 worked out the plain way: names sorted, filtered hex by hex."""
    names = sorted(hexes, key=hexmap.parse_hex)
    sea_hexes = [h for h in names if sea.terrain(h) == "sea"]
    offshore = [h for h in sea_hexes if not sea.is_coastal(h)]
    return tuple(offshore or sea_hexes or [h for h in names if sea.is_sea(h)])


grids = st.integers(1, 9).flatmap(
    lambda w: st.lists(st.text("~~~#%:P", min_size=w, max_size=w), min_size=1, max_size=9)
)


def _map(rows: list[str], regions: str = "") -> SeaMap:
    entries = "".join(
        f'  "{hexmap.hex_name(c + 1, r + 1)}": {{port: P{r}{c}}}\n'
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch == "P"
    )
    text = "rows: |\n" + "".join(f"  {r}\n" for r in rows)
    return parse_map(text + ("hexes:\n" + entries if entries else "") + regions)


@settings(max_examples=80)
@given(grids)
def test_the_default_region_is_every_hex_and_its_open_sea_is_the_old_list(rows) -> None:
    rows = [r.replace("P", "~") for r in rows]  # ports need names and a coast: not here
    sea = _map(rows)
    region = sea.weather_regions()["sea"]
    every = set(sea.names())
    assert isinstance(region.hexes, HexSet) and region.hexes == every
    assert len(region.hexes) == len(every) and set(region.hexes) == every
    assert all(h in region.hexes for h in every)
    assert "0101 " not in region.hexes and "001001" not in region.hexes  # canonical names only
    assert hexmap.hex_name(sea.width + 1, 1) not in region.hexes and 101 not in region.hexes
    expected = reference_open_sea(sea, every)
    assert isinstance(region.open_sea, OpenSea) and tuple(region.open_sea) == expected
    assert len(region.open_sea) == len(expected)
    assert [region.open_sea[i] for i in range(len(expected))] == list(expected)
    if expected:
        assert region.open_sea[-1] == expected[-1]
    with pytest.raises(IndexError):
        region.open_sea[len(expected)]


@settings(max_examples=60)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 10_000), st.integers(1, 4))
def test_named_regions_as_bytes_hold_the_hexes_they_were_given(width, height, seed, count):
    rng = random.Random(seed)  # test data, not a game roll
    rows = ["".join(rng.choice("~~~~#%") for _ in range(width)) for _ in range(height)]
    rows[0] = "~" + rows[0][1:]  # at least one sea hex
    owner = {
        hexmap.hex_name(c, r): rng.randrange(count)
        for r in range(1, height + 1)
        for c in range(1, width + 1)
    }
    owner[hexmap.hex_name(1, 1)] = 0
    names = [f"r{i}" for i in range(count)]
    lists = {
        n: sorted((h for h, i in owner.items() if names[i] == n), key=hexmap.parse_hex)
        for n in names
    }
    spec = "".join(
        f"  {n}: {{climate: temperate, hexes: {json.dumps(hexes)}}}\n"
        for n, hexes in lists.items()
        if hexes
    )
    try:
        sea = _map(rows, "regions:\n" + spec)
    except Exception as exc:  # a region with no sea hexes is refused (R61): fine here
        assert "has no sea hexes" in str(exc)
        return
    back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
    for got in (sea, back):
        assert list(got.regions) == [n for n in names if lists[n]]
        for n, region in got.regions.items():
            assert set(region.hexes) == set(lists[n]) and len(region.hexes) == len(lists[n])
            assert tuple(region.open_sea) == reference_open_sea(sea, set(lists[n]))
            assert got.region_of(lists[n][0]).name == n


def test_regions_past_255_take_a_second_byte_plane() -> None:
    width, height = 20, 15  # 300 one-hex regions
    rows = ["~" * width] * height
    spec = "".join(
        f'  z{c}_{r}: {{climate: temperate, hexes: ["{hexmap.hex_name(c, r)}"]}}\n'
        for r in range(1, height + 1)
        for c in range(1, width + 1)
    )
    sea = _map(rows, "regions:\n" + spec)
    back = mapcache.decode(mapcache.encode(sea), sea.text, sea.source)
    assert back.regions == sea.regions and len(sea.regions) == 300
    last = back.regions[f"z{width}_{height}"]
    assert set(last.hexes) == {hexmap.hex_name(width, height)}
    assert back.region_of("0101").name == "z1_1" and back.region_of("1310").name == "z13_10"


def test_completion_reads_the_map_cache_and_finds_hexes_by_their_digits(tmp_path, monkeypatch):
    from click.shell_completion import ShellComplete

    from voyage.cli import completion

    runner, db = sailing(tmp_path, False)
    monkeypatch.setenv("VOYAGE_DB", db)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("completion parsed the map")

    monkeypatch.setattr("voyage.map.seamap.parse_map", refuse)
    comp = ShellComplete(cli, {}, "voyage", "_VOYAGE_COMPLETE")

    def complete(incomplete: str) -> list[str]:
        return [i.value for i in comp.get_completions(["sail", "Gull", "--to"], incomplete)]

    assert complete("") == ["1110", hexmap.hex_name(SIDE - 10, SIDE - 10)]  # the ports
    for typed in ("28", "0281", "2812", "29", "100", "999", "1005"):
        brute = [
            n
            for n in (hexmap.hex_name(c, r) for c in range(1, SIDE + 1) for r in range(1, SIDE + 1))
            if n.startswith(typed)
        ][:200]
        assert completion._hexes_starting(SIDE, SIDE, typed) == brute, typed
    assert complete("2812")[:2] == ["2812", "281200"]
