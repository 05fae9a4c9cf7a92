"""Importing maps from Worldographer, Hexfriend and Tiled, and exporting to Worldographer.

Every sample here is written by the helpers below in the format's real container (gzip of
UTF-16 XML with a byte-order mark, JSON, TMX with CSV or base64 layers); no third-party map
file is copied into the project.
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
import zlib
from pathlib import Path

import pytest
from conftest import add_trawler, ok, refused

from voyage.base.errors import MapError
from voyage.map.importers import detect_format, import_file
from voyage.map.importers.source import unpack

# A small sea, drawn as voyage draws it: # land, ~ sea, : shoal, % reef.
SEA = [
    "########",
    "##~~~~##",
    "#~~:~~~#",
    "#~~~%~~~",
    "~~~~~~~~",
]
NAMES = {"#": "Flat Grassland", "~": "Water Sea", ":": "Water Shoals", "%": "Water Reef"}
TERRAIN_INDEX = {
    "Blank": 0,
    "Water Sea": 1,
    "Water Shoals": 2,
    "Water Reef": 3,
    "Flat Grassland": 4,
}


def centre(col: int, row: int) -> tuple[float, float]:
    """Worldographer coordinates of a 1-based hex's centre (ideal 300-unit hexes)."""
    c, r = col - 1, row - 1
    return 150.0 + 225 * c, 150.0 + 300 * r + 150 * (c % 2)


def wxx_xml(
    rows: list[str] = SEA,
    *,
    orientation: str = "COLUMNS",
    xml_version: str = "1.1",
    towns: tuple[tuple[str, int, int], ...] = (),
    labels: tuple[tuple[str, int, int, bool], ...] = (),
    notes: tuple[tuple[str, str, int, int, bool], ...] = (),
    gm_hexes: tuple[tuple[int, int], ...] = (),
    resources: bool = False,
    line_for: dict[tuple[int, int], str] | None = None,
) -> str:
    width, height = len(rows[0]), len(rows)
    columns = []
    for c in range(width):
        lines = []
        for r in range(height):
            index = TERRAIN_INDEX[NAMES[rows[r][c]]]
            gm = 1 if (c + 1, r + 1) in gm_hexes else 0
            tail = "3\t0\t0\t48\t9\t2" if resources else "Z"
            line = f"{index}\t0.0\t0\t{gm}\t0\t{tail}"
            if line_for and (c + 1, r + 1) in line_for:
                line = line_for[(c + 1, r + 1)]
            lines.append(line)
        columns.append("<tilerow>\n" + "\n".join(lines) + "\n</tilerow>")
    terrainmap = "\t".join(f"{n}\t{i}" for n, i in TERRAIN_INDEX.items())
    features = "".join(
        f'<feature type="Settlement City" isGMOnly="false"><location viewLevel="WORLD" '
        f'x="{centre(c, r)[0]}" y="{centre(c, r)[1]}" /><label isGMOnly="false"><location '
        f'viewLevel="WORLD" x="{centre(c, r)[0]}" y="{centre(c, r)[1] + 20}" scale="25.0" />'
        f"{name}</label></feature>"
        for name, c, r in towns
    )
    label_xml = "".join(
        f'<label isGMOnly="{str(gm).lower()}"><location viewLevel="WORLD" '
        f'x="{centre(c, r)[0] + 30}" y="{centre(c, r)[1] - 40}" scale="25.0" />{text}</label>'
        for text, c, r, gm in labels
    )
    note_xml = "".join(
        f'<note x="{centre(c, r)[0]}" y="{centre(c, r)[1]}" title="{title}" '
        f'isGMOnly="{str(gm).lower()}"><notetext><![CDATA[<html><body>{text}</body></html>]]>'
        "</notetext></note>"
        for title, text, c, r, gm in notes
    )
    return (
        f"<?xml version='{xml_version}' encoding='utf-16'?>\n"
        f'<map type="WORLD" version="2.06" hexOrientation="{orientation}" mapProjection="FLAT">\n'
        f"<terrainmap>{terrainmap}</terrainmap>\n"
        f'<tiles viewLevel="WORLD" tilesWide="{width}" tilesHigh="{height}">\n'
        + "\n".join(columns)
        + f"\n</tiles>\n<features>{features}</features>\n<labels>{label_xml}</labels>\n"
        f"<notes>{note_xml}</notes>\n</map>\n"
    )


def wxx_bytes(xml: str, byte_order: str = "be", bom: bool = True) -> bytes:
    codec = "utf-16-be" if byte_order == "be" else "utf-16-le"
    mark = (b"\xfe\xff" if byte_order == "be" else b"\xff\xfe") if bom else b""
    return gzip.compress(mark + xml.encode(codec))


def write(tmp_path: Path, name: str, data: bytes | str) -> str:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return str(path)


TOWNS = (("Gullhaven", 3, 1), ("Saltmere", 8, 4))  # on land (sea to the south), on the water


def gull_bay(**kw: object) -> bytes:
    return wxx_bytes(
        wxx_xml(
            towns=TOWNS,
            labels=(("The Teeth", 5, 4, False), ("Smugglers' cache", 2, 3, True)),
            notes=(("Wreck", "An old <b>hulk</b> &amp; her gold", 4, 3, False),),
            gm_hexes=((1, 1),),
            **kw,  # type: ignore[arg-type]
        )
    )


# ----------------------------------------------------------------------------- Worldographer


def test_a_worldographer_sea_imports_hex_for_hex_sails_and_comes_back(
    runner, db: Path, tmp_path: Path
) -> None:
    path = write(tmp_path, "gull.wxx", gull_bay())
    out = ok(runner, "map", "import", path, "--load", "--out", str(tmp_path / "gull.yaml"))
    assert "Loaded gull: 8 x 5 hexes, 2 ports." in out
    imported = import_file(path)
    sea = imported.sea
    # hex for hex where Worldographer draws it (column c, row r is hex c+1, r+1)
    drawn = [row.replace(":", "~").replace("%", "~") for row in SEA]
    assert [row.replace("P", "~").replace(":", "~").replace("%", "~") for row in sea.rows] == drawn
    assert sea.terrain("0403") == "shoal" and sea.terrain("0504") == "reef"
    # the town on land makes its first sea neighbour from north, clockwise, a port; the town
    # on the water makes its own hex one
    assert [(p.name, p.port) for p in sea.ports()] == [("0302", "Gullhaven"), ("0804", "Saltmere")]
    assert sea.hex("0302").fuel is not None and sea.hex("0302").fuel.stock is None
    assert any(
        "port Gullhaven at 0302, the sea beside the town at 0301" in r for r in imported.report
    )
    assert sea.hex("0504").label == "The Teeth"
    assert sea.hex("0203").label is None and "Smugglers' cache" in (sea.hex("0203").notes or "")
    assert sea.hex("0403").notes == "Wreck: An old hulk & her gold"
    assert "GM-only" in (sea.hex("0101").notes or "")
    assert (tmp_path / "gull.yaml").read_text(encoding="utf-8") == imported.text
    # a voyage sails across it
    add_trawler(runner, "0302", crew=5, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "0804")
    ok(runner, "advance", "--hours", "60")
    assert "0804" in ok(runner, "ship", "list")
    # out to Worldographer and back in: the same map
    back = tmp_path / "back.wxx"
    assert "no voyage of a ship by that name" in refused(
        runner, "map", "export", "--out", str(back), "--tracks", "Nobody"
    )
    assert not back.exists()
    out = ok(runner, "map", "export", "-f", "wxx", "--out", str(back), "--tracks", "sea witch")
    assert "1 track(s)" in out
    # the track is a path shape through the centres of the hexes she sailed
    xml = gzip.decompress(back.read_bytes())[2:].decode("utf-16-be")
    assert xml.count("<shape ") == 1 and 'tags="voyage 1 of Sea Witch"' in xml
    assert f'<p type="m" x="{centre(3, 2)[0]}" y="{centre(3, 2)[1]}"' in xml
    assert f'x="{centre(8, 4)[0]}" y="{centre(8, 4)[1]}"' in xml
    again = import_file(str(back)).sea
    assert again.rows == sea.rows
    assert [(p.name, p.port) for p in again.ports()] == [(p.name, p.port) for p in sea.ports()]
    assert [(h.name, h.label) for h in again.labelled()] == [
        (h.name, h.label) for h in sea.labelled()
    ]
    assert {n: e.get("notes") for n, e in again.entries.items()} == {
        n: e.get("notes") for n, e in sea.entries.items()
    }
    assert "already exists" in refused(runner, "map", "export", "--out", str(back))


@pytest.mark.parametrize("xml_version", ["1.0", "1.1"])
@pytest.mark.parametrize("byte_order", ["be", "le"])
@pytest.mark.parametrize("bom", [True, False])
@pytest.mark.parametrize("resources", [True, False])
def test_every_worldographer_container_reads_the_same(
    tmp_path: Path, xml_version: str, byte_order: str, bom: bool, resources: bool
) -> None:
    data = wxx_bytes(wxx_xml(xml_version=xml_version, resources=resources), byte_order, bom)
    assert detect_format(data) == "wxx"
    sea = import_file(write(tmp_path, "any.name", data)).sea
    assert sea.rows == ["########", "##~~~~##", "#~~:~~~#", "#~~~%~~~", "~~~~~~~~"]


def test_map_load_takes_a_worldographer_file_directly(runner, db: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "gull.wxx", gull_bay())
    assert "Loaded gull: 8 x 5 hexes, 2 ports" in ok(runner, "map", "load", path)
    assert "Gullhaven" in ok(runner, "map", "hex", "0302")


def test_rows_orientation_is_refused_in_one_line(runner, db: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "rows.wxx", wxx_bytes(wxx_xml(orientation="ROWS")))
    line = refused(runner, "map", "import", path, "--load")
    assert "flat-topped hexes in columns" in line and "Columns Line Up" in line
    assert "no map loaded" in refused(runner, "map", "show")


BAD_FILES = {
    "not gzip": (lambda: wxx_xml().encode("utf-16"), "not gzip-compressed"),
    "not UTF-16": (lambda: gzip.compress(wxx_xml().encode("utf-8")), "not UTF-16"),
    "broken XML": (lambda: wxx_bytes(wxx_xml().replace("</tiles>", "")), "broken XML"),
    "entities": (
        lambda: wxx_bytes(
            "<?xml version='1.0'?><!DOCTYPE map [<!ENTITY a 'aaaaaaaaaa'>"
            "<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]><map hexOrientation='COLUMNS'>&b;</map>"
        ),
        "DOCTYPE",
    ),
    "index beyond": (
        lambda: wxx_bytes(wxx_xml(line_for={(2, 2): "9\t0\t0\t0\t0\tZ"})),
        "terrain index 9 is not in the terrain map",
    ),
    "short column": (
        lambda: wxx_bytes(wxx_xml().replace("1\t0.0\t0\t0\t0\tZ\n</tilerow>", "</tilerow>", 1)),
        "column 1 holds 4 hexes",
    ),
    "wrong line": (
        lambda: wxx_bytes(wxx_xml(line_for={(1, 1): "4\t0\t0"})),
        "has 3 values",
    ),
    "other JSON": (lambda: b'{"name": "a tileset", "tiles": []}', "not a Hexfriend save"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_are_refused_in_one_line_changing_nothing(
    runner, db: Path, tmp_path: Path, case: str
) -> None:
    make, words = BAD_FILES[case]
    path = write(tmp_path, "bad.wxx", make())
    line = refused(runner, "map", "import", path, "--load", "--out", str(tmp_path / "out.yaml"))
    assert path in line and words in line
    assert not (tmp_path / "out.yaml").exists()
    assert "no map loaded" in refused(runner, "map", "show")


def test_a_column_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    xml = wxx_xml()
    cut = xml.replace("1\t0.0\t0\t0\t0\tZ\n</tilerow>", "</tilerow>", 1)
    with pytest.raises(MapError, match=r"column 1 holds 4 hexes, not the map's 5"):
        import_file(write(tmp_path, "cut.wxx", wxx_bytes(cut)))


def test_a_gzip_bomb_stops_at_the_cap() -> None:
    with pytest.raises(MapError, match="unpacks to over"):
        unpack(gzip.compress(b"\0" * 5_000_000), "bomb.wxx", limit=1_000_000)


# ----------------------------------------------------------------------------- terrain table


def test_a_terrain_map_file_names_the_terrains_and_the_report_lists_them(tmp_path: Path) -> None:
    names = dict(NAMES)
    names["#"] = "Mountains"
    table = write(
        tmp_path,
        "terrains.yaml",
        "terrains:\n  Water Reef: rocky shallows\n  Mountains: land\n"
        "port_fuel: {price: 3, stock: 50}\n",
    )
    got = import_file(write(tmp_path, "gull.wxx", gull_bay()), terrain_map=table)
    assert got.sea.terrain("0504") == "shoal" and got.sea.hex("0504").seabed == "rocky"
    assert got.sea.hex("0302").fuel.price == 3 and got.sea.hex("0302").fuel.stock == 50
    assert any("'Water Reef' -> rocky shallows: 1 hex (your terrain map)" in r for r in got.report)
    assert any("made land because no rule knows them: 'Flat Grassland'" in r for r in got.report)
    bad = write(tmp_path, "bad.yaml", "terrains: {Hills: mountain}\n")
    with pytest.raises(MapError, match="use one of sea, coast"):
        import_file(write(tmp_path, "g.wxx", gull_bay()), terrain_map=bad)


# ----------------------------------------------------------------------------- size


def test_a_map_past_the_limit_is_refused_unless_a_window_is_given(tmp_path: Path) -> None:
    rows = ["~" * 1001] * 3
    path = write(tmp_path, "wide.wxx", wxx_bytes(wxx_xml(rows)))
    with pytest.raises(MapError, match=r"1001x3 hexes.*--window"):
        import_file(path)
    got = import_file(path, window="001001:020003")
    assert (got.sea.width, got.sea.height) == (20, 3)
    shifted = import_file(path, window="0201:0403")  # a lower first column: one more kept
    assert shifted.sea.width == 4 and any("one column earlier" in r for r in shifted.report)


# ----------------------------------------------------------------------------- Hexfriend


def hexfriend_save(
    rows: list[str] = SEA, *, raised: str = "odd", version: int = 13, orientation: str = "flatTop"
) -> bytes:
    hexes = {}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            # Hexfriend's offset-to-cube: odd-q with raised odd, even-q with raised even
            q = c
            cube_r = r - (c - (c & 1)) // 2 if raised == "odd" else r - (c + (c & 1)) // 2
            tile = None
            if ch != " ":
                tile = {"id": NAMES[ch].lower(), "display": NAMES[ch], "bgColor": 0}
                if version >= 10:
                    tile["tileset_id"] = "default"
            hexes[f"{q}:{cube_r}:{-q - cube_r}"] = {
                "q": q,
                "r": cube_r,
                "s": -q - cube_r,
                "tile": tile,
            }
    field = {"hexWidth": 50, "hexHeight": 44, "orientation": orientation, "mapShape": "square",
             "rows": len(rows), "columns": len(rows[0]), "raised": raised, "hexes": hexes,
             "grid": {"gap": 0}}  # fmt: skip
    texts = [{"text": "The Teeth", "x": 4 * 50 * 0.75, "y": 44 * 3}]  # 0-based (4, 3): 0504
    return json.dumps({"saveVersion": version, "title": "Gull Bay", "TerrainField": field,
                       "tilesets": [], "texts": texts}).encode()  # fmt: skip


def test_hexfriend_raised_odd_is_voyages_layout(tmp_path: Path) -> None:
    data = hexfriend_save()
    assert detect_format(data) == "hexfriend"
    got = import_file(write(tmp_path, "gull.hexfriend", data))
    assert got.sea.rows == ["########", "##~~~~##", "#~~:~~~#", "#~~~%~~~", "~~~~~~~~"]
    assert got.sea.name == "Gull Bay" and got.sea.hex("0504").label == "The Teeth"


def test_hexfriend_raised_even_gains_a_column_and_keeps_every_neighbour(tmp_path: Path) -> None:
    got = import_file(write(tmp_path, "even.json", hexfriend_save(raised="even")))
    assert got.sea.width == 9 and all(row[0] == "~" for row in got.sea.rows)
    assert [row[1:] for row in got.sea.rows] == SEA
    assert any("added one column of open sea" in r for r in got.report)


def test_an_old_hexfriend_save_and_blank_hexes_read(tmp_path: Path) -> None:
    rows = [*SEA[:-1], "~~~ ~~~~"]
    got = import_file(write(tmp_path, "old.json", hexfriend_save(rows, version=6)))
    assert got.sea.rows[-1] == "~~~#~~~~"  # a blank hex is land unless the terrain map says
    assert any("'Blank' -> land" in r for r in got.report)


def test_pointy_hexfriend_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="pointy-topped.*flat-top"):
        import_file(write(tmp_path, "p.json", hexfriend_save(orientation="pointyTop")))


# ----------------------------------------------------------------------------- Tiled


def tmx(
    rows: list[str] = SEA, *, encoding: str = "csv", compression: str = "", axis: str = "x",
    index: str = "odd", flips: bool = False,
) -> bytes:  # fmt: skip
    order = ["~", "#", ":", "%"]
    gids = [order.index(ch) + 1 for row in rows for ch in row]
    if flips:
        gids = [g | 0x80000000 if i % 3 == 0 else g | 0x20000000 for i, g in enumerate(gids)]
    if encoding == "csv":
        body = ",\n".join(",".join(str(g) for g in gids[i : i + len(rows[0])])
                          for i in range(0, len(gids), len(rows[0])))  # fmt: skip
    else:
        raw = struct.pack(f"<{len(gids)}I", *gids)
        if compression == "zlib":
            raw = zlib.compress(raw)
        elif compression == "gzip":
            raw = gzip.compress(raw)
        body = base64.b64encode(raw).decode()
    comp = f' compression="{compression}"' if compression else ""
    tiles = "".join(
        f'<tile id="{i}" type="{name}"/>'
        for i, name in enumerate(["Ocean", "Grassland", "Sandbar", "Coral Reef"])
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" '
        f'width="{len(rows[0])}" height="{len(rows)}" tilewidth="32" tileheight="28" '
        f'hexsidelength="16" staggeraxis="{axis}" staggerindex="{index}" infinite="0">\n'
        f'<tileset firstgid="1" name="sea" tilewidth="32" tileheight="28" tilecount="4">{tiles}'
        "</tileset>\n"
        f'<layer id="1" name="Terrain" width="{len(rows[0])}" height="{len(rows)}">'
        f'<data encoding="{encoding}"{comp}>\n{body}\n</data></layer>\n</map>\n'
    ).encode()


@pytest.mark.parametrize(
    ("encoding", "compression", "flips"),
    [("csv", "", False), ("base64", "", True), ("base64", "zlib", False), ("base64", "gzip", True)],
)
def test_tiled_layers_in_every_encoding(
    tmp_path: Path, encoding: str, compression: str, flips: bool
) -> None:
    data = tmx(encoding=encoding, compression=compression, flips=flips)
    assert detect_format(data) == "tiled"
    got = import_file(write(tmp_path, "gull.tmx", data))
    assert got.sea.rows == ["########", "##~~~~##", "#~~:~~~#", "#~~~%~~~", "~~~~~~~~"]


def test_tiled_stagger_even_gains_a_column_and_rows_are_refused(tmp_path: Path) -> None:
    got = import_file(write(tmp_path, "even.tmx", tmx(index="even")))
    assert [row[1:] for row in got.sea.rows] == SEA
    with pytest.raises(MapError, match="staggers rows.*Stagger Axis X"):
        import_file(write(tmp_path, "rows.tmx", tmx(axis="y")))
    with pytest.raises(MapError, match="compressed with zstd"):
        import_file(write(tmp_path, "z.tmx", tmx(encoding="base64", compression="zstd")))


# ----------------------------------------------------------------------------- any tile name

TILE_NAMES = {
    "Port": ("port", None),
    "Wreck": ("wreck", "wreckage"),
    "Rocky Shallows": ("shoal", "rocky"),
    "Harbour": ("port", None),
    "Transport Depot": ("land", None),
}


@pytest.mark.parametrize("name", sorted(TILE_NAMES))
def test_a_tiled_tile_of_any_name_imports_loads_and_exports(
    runner, db: Path, tmp_path: Path, name: str
) -> None:
    rows = [*SEA]
    rows[1] = "##%~~~##"  # the tile named below at 0302, beside land
    data = tmx(rows).replace(b'type="Coral Reef"', f'type="{name}"'.encode())
    path = write(tmp_path, "named.tmx", data)
    ok(runner, "map", "import", path, "--load")
    terrain, seabed = TILE_NAMES[name]
    sea = import_file(path).sea
    assert sea.terrain("0302") == terrain
    if seabed:
        assert sea.hex("0302").seabed == seabed
    if terrain == "port":
        assert [(p.name, p.port) for p in sea.ports()] == [("0302", "Port 0302")]
    ok(runner, "map", "hex", "0302")
    back = tmp_path / "back.wxx"
    ok(runner, "map", "export", "-f", "wxx", "--out", str(back))
    assert import_file(str(back)).sea.rows == sea.rows


# ----------------------------------------------------------------------------- huge and broken


HUGE = {
    "wxx": lambda: wxx_bytes(wxx_xml().replace('tilesHigh="5"', 'tilesHigh="999999999"')),
    "hexfriend": lambda: hexfriend_save().replace(b'"q": 0,', b'"q": 99999999999,', 1),
    "tiled": lambda: tmx().replace(b'width="8" height="5">', b'width="99999" height="99999">'),
    "tiled tilecount": lambda: tmx().replace(b'tilecount="4"', b'tilecount="2000000000"'),
}


@pytest.mark.parametrize("value", ["1e309", "-inf", "nan", "99999999999999999999"])
def test_a_town_placed_at_an_impossible_point_is_left_out(tmp_path: Path, value: str) -> None:
    xml = wxx_xml(towns=(("Gullhaven", 3, 1),)).replace(f'x="{centre(3, 1)[0]}"', f'x="{value}"', 1)
    got = import_file(write(tmp_path, "far.wxx", wxx_bytes(xml)))
    assert got.sea.ports() == [] and any("placed off the map" in r for r in got.report)


@pytest.mark.parametrize("case", sorted(HUGE))
def test_a_file_claiming_a_huge_size_is_refused_or_read_without_building_it(
    tmp_path: Path, case: str
) -> None:
    path = write(tmp_path, "huge.bin", HUGE[case]())
    if case == "tiled tilecount":  # the tiles drawn are read; the count builds nothing
        assert import_file(path).sea.rows == [
            "########",
            "##~~~~##",
            "#~~:~~~#",
            "#~~~%~~~",
            "~~~~~~~~",
        ]
        return
    with pytest.raises(MapError) as caught:
        import_file(path)
    assert "\n" not in str(caught.value) and path in str(caught.value)


def test_truncated_and_damaged_files_of_every_format_give_one_line(tmp_path: Path) -> None:
    import random

    rng = random.Random(31)
    samples = {"wxx": gull_bay(), "hexfriend": hexfriend_save(), "tiled": tmx()}
    path = tmp_path / "damaged.bin"
    for fmt, data in samples.items():
        cuts = [data[:n] for n in sorted(rng.sample(range(len(data)), 25))]
        flipped = []
        for _ in range(25):
            raw = bytearray(data)
            for _ in range(3):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            flipped.append(bytes(raw))
        for damaged in [*cuts, *flipped]:
            path.write_bytes(damaged)
            try:
                import_file(str(path))
            except MapError as exc:
                assert "\n" not in str(exc), (fmt, str(exc))


def test_tiled_object_layers_give_towns_ports_and_labels(tmp_path: Path) -> None:
    # points at hex centres: 32 x 28 tiles, side 16, so a column is 24 wide; odd columns lower
    objects = (
        '<objectgroup id="2" name="Places">'
        '<object id="1" name="Gullhaven" type="Town" x="64" y="14"><point/></object>'
        '<object id="2" name="Saltmere" class="Port City" x="184" y="112"><point/></object>'
        '<object id="3" name="The Teeth" x="112" y="98"><point/></object>'
        "</objectgroup>"
        '<objectgroup id="3" name="Referee" visible="0">'
        '<object id="4" name="Smugglers&apos; cache" x="40" y="84"><point/></object>'
        "</objectgroup>"
    )
    data = tmx().replace(b"</map>", objects.encode() + b"</map>")
    got = import_file(write(tmp_path, "gull.tmx", data))
    sea = got.sea
    assert [(p.name, p.port) for p in sea.ports()] == [("0302", "Gullhaven"), ("0804", "Saltmere")]
    assert any("port Gullhaven at 0302, the sea beside the town at 0301" in r for r in got.report)
    assert sea.hex("0302").fuel is not None and sea.hex("0302").fuel.stock is None
    assert sea.hex("0504").label == "The Teeth"
    assert sea.hex("0203").label is None and "Smugglers' cache" in (sea.hex("0203").notes or "")


def test_hexfriend_settlement_icons_are_towns_named_by_their_hexs_text(tmp_path: Path) -> None:
    save = json.loads(hexfriend_save())

    def at(col: int, row: int) -> dict[str, float]:  # a 0-based hex's centre, raised odd
        return {"x": 50 * 0.75 * col, "y": 44 * (row + (col % 2) / 2)}

    save["texts"] += [{"text": "Gullhaven", **at(2, 0)}, {"text": "Saltmere", **at(7, 3)}]
    save["icons"] = [
        {"display": "Town", "id": "town", **at(2, 0)},
        {"display": "City", "id": "city", **at(7, 3)},
        {"display": "Castle", "id": "castle", **at(0, 0)},  # not a settlement: left out
        {"display": "Village", "id": "village", **at(5, 0)},  # no text: named by its hex
    ]
    got = import_file(write(tmp_path, "gull.json", json.dumps(save).encode()))
    ports = [(p.name, p.port) for p in got.sea.ports()]
    assert ports == [("0302", "Gullhaven"), ("0602", "Village 0601"), ("0804", "Saltmere")]
    assert got.sea.hex("0504").label == "The Teeth" and got.sea.hex("0302").label is None
    assert any("port Gullhaven at 0302, the sea beside the town at 0301" in r for r in got.report)
    # a save whose lists hold something else is read, not a crash
    save["texts"], save["icons"] = 5, ["x", 3]
    import_file(write(tmp_path, "odd.json", json.dumps(save).encode()))


def test_a_campaigns_terrain_table_maps_the_names_and_a_file_goes_over_it(
    runner, db: Path, tmp_path: Path
) -> None:
    house = tmp_path / "house"
    house.mkdir()
    (house / "terrains.yaml").write_text(
        "terrains:\n  Water Reef: rocky shallows\n  Water Shoals: wreck\n"
        "port_fuel: {price: 5, stock: 80}\n",
        encoding="utf-8",
    )
    ok(runner, "tables", "load", str(house))
    path = write(tmp_path, "gull.wxx", gull_bay())
    err = ok(runner, "map", "import", path, "--load")
    sea = import_file(path, table={"terrains": {"Water Reef": "rocky shallows"}}).sea
    assert sea.hex("0504").seabed == "rocky"
    assert "rocky" in ok(runner, "map", "hex", "0504")
    assert "wreck" in ok(runner, "map", "hex", "0403")
    assert "5" in ok(runner, "map", "hex", "0302") and "80" in ok(runner, "map", "hex", "0302")
    assert "Loaded gull" in err
    # a file on the command line goes over the campaign's table, name by name
    over = write(tmp_path, "over.yaml", "terrains: {Water Shoals: shoal}\n")
    ok(runner, "map", "import", path, "--load", "--terrain-map", over)
    assert "wreck" not in ok(runner, "map", "hex", "0403")
    assert "rocky" in ok(runner, "map", "hex", "0504")
    # a bad house table is one line naming the file and the key
    (house / "terrains.yaml").write_text("terrains: {Hills: mountain}\n", encoding="utf-8")
    line = refused(runner, "tables", "load", str(house))
    assert "terrains.yaml" in line and "use one of sea, coast" in line


def test_a_hexfriend_text_or_icon_at_an_impossible_point_is_left_out(tmp_path: Path) -> None:
    save = json.loads(hexfriend_save())
    save["texts"] = [{"text": "Far", "x": 1e308, "y": 1e308}]
    save["icons"] = [{"display": "Town", "x": -1e308, "y": 5}]
    got = import_file(write(tmp_path, "far.json", json.dumps(save).encode()))
    assert got.sea.ports() == [] and got.sea.labelled() == []
