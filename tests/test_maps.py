"""The map file format (docs/maps.md): good maps, and bad ones with line/column errors."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.base.errors import MapError
from voyage.base.paths import campaigns_dir
from voyage.map import hexes as hexmap
from voyage.map.seamap import load_map, parse_map

GOOD = textwrap.dedent(
    """\
    name: Test Sound
    seabed: sandy
    legend:
      o: {terrain: sea, seabed: rocky, name: rocky shallows}
    rows: |
      ~~~~~~~~
      ~P#~#~~~
      ~~#:~o~~
      x~~~%~~~
    hexes:
      "0202":
        port: Bay Town
        fuel: {price: 2.5, stock: 100}
        notes: A quiet harbour.
      "0402": {narrow_passage: true, label: The Gap}
      "0101": {seabed: rocky}
      "0104": {seabed: ruins}
    """
)


def write(tmp_path: Path, text: str, name: str = "map.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(MapError) as err:
        load_map(path)
    message = str(err.value)
    assert "\n" not in message, message
    assert message.startswith(str(path)), message
    return message


# ----------------------------------------------------------------------------- good maps


def test_good_map_lookups(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    assert (sea.name, sea.width, sea.height) == ("Test Sound", 8, 4)
    port = sea.hex("0202")
    assert port.terrain == "port" and port.port == "Bay Town"
    assert port.fuel is not None and port.fuel.price == 2.5 and port.fuel.stock == 100
    assert port.coastal and port.is_sea and port.notes == "A quiet harbour."
    assert [p.name for p in sea.ports()] == ["0202"]
    assert sea.port("bay town").name == "0202"
    assert sea.hex("0302").terrain == "land" and sea.hex("0302").seabed is None
    assert not sea.is_sea("0302") and sea.is_sea("0101")


def test_coastal_is_derived_from_land(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    assert sea.hex("0801").coastal is False
    assert sea.hex("0402").coastal is True  # the gap between two land hexes
    assert sea.hex("0102").coastal is False  # 0202 is a port (water), not land
    assert sea.hex("0203").coastal is True  # next to 0303 land
    assert sea.hex("0403").coastal is True  # a shoal beside land


def test_seabeds_default_implied_legend_and_override(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    assert sea.hex("0201").seabed == "sandy"  # map default
    assert sea.hex("0403").seabed == "sandy"  # shoal implies sand
    assert sea.hex("0504").seabed == "rocky"  # reef implies rock
    assert sea.hex("0603").seabed == "rocky"  # legend 'o'
    assert sea.hex("0101").seabed == "rocky"  # per-hex override
    assert sea.hex("0104").seabed == "ruins" and sea.hex("0104").terrain == "wreck"


def test_narrow_passage_labels_and_json(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    gap = sea.hex("0402")
    assert gap.narrow_passage and gap.label == "The Gap" and gap.inshore
    data = sea.hex("0202").to_dict()
    assert data["fuel"] == {"price": 2.5, "stock": 100}
    assert data["hex"] == "0202" and data["coastal"] is True


def test_bounds_and_names(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    assert sea.in_bounds("0804") and not sea.in_bounds("0904") and not sea.in_bounds("0805")
    assert not sea.in_bounds("12A4")
    with pytest.raises(MapError, match="off the map"):
        sea.hex("0705")
    with pytest.raises(MapError, match="is not a CCRR name"):
        sea.hex("12A4")
    assert len(list(sea.hexes())) == 32


def test_route_never_crosses_land(tmp_path):
    sea = load_map(write(tmp_path, GOOD))
    route = sea.route("0102", "0602")
    assert route is not None and route[0] == "0102" and route[-1] == "0602"
    assert all(sea.is_sea(h) for h in route)
    assert sea.route("0102", "0302") is None  # land is never a destination
    avoiding = sea.route("0601", "0101", avoid={"0201", "0301", "0401"})
    assert avoiding is not None and not {"0201", "0301", "0401"} & set(avoiding)


def test_rows_as_a_list_of_strings(tmp_path):
    sea = load_map(write(tmp_path, 'rows: ["~~#", "~~#"]\n'))
    assert (sea.width, sea.height) == (3, 2)
    assert sea.name == "map"  # the file's name when no name is given


# ----------------------------------------------------------------------------- errors


def test_ragged_row_names_line_and_column(tmp_path):
    message = error_of(tmp_path, "rows: |\n  ~~~~\n  ~~~\n  ~~~~\n")
    assert "line 3, column 6" in message and "ragged" in message and "row 2 has 3" in message


def test_long_row_points_at_the_extra_character(tmp_path):
    message = error_of(tmp_path, "name: x\nrows: |\n    ~~~\n    ~~~~\n")
    assert "line 4, column 8" in message


def test_unknown_character_names_line_column_and_hex(tmp_path):
    message = error_of(tmp_path, "rows: |\n  ~~~~\n  ~~Q~\n")
    assert "line 3, column 5" in message and "'Q'" in message and "hex 0302" in message


def test_unknown_character_in_a_quoted_list_row(tmp_path):
    message = error_of(tmp_path, 'rows:\n  - "~~~"\n  - "~ ~"\n')
    assert "line 3, column 7" in message and "a space" in message


def test_port_not_on_the_coast(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~~#\n  ~P~~\n  ~~~~\nhexes:\n  "0202": {port: Mid}\n')
    assert "line 3, column 4" in message and "not on the coast" in message


def test_port_without_a_name(tmp_path):
    message = error_of(tmp_path, "rows: |\n  ~P#\n")
    assert "line 2, column 4" in message and "has no name" in message


def test_port_name_on_a_hex_not_drawn_as_port(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0201": {port: Nowhere}\n')
    assert "line 4, column 3" in message and "draws sea there" in message


TWIN_PORTS = 'rows: |\n  P#P\nhexes:\n  "0101": {port: Gullhaven}\n  "0301": {port: gullhaven}\n'


def test_two_ports_of_one_name_are_refused(tmp_path):
    # the log and the plans name a port, not its hex: a second Gullhaven is a typo to catch
    message = error_of(tmp_path, TWIN_PORTS)
    assert "line 5, column 3" in message
    assert "port name 'gullhaven' at 0301 is already the port at 0101" in message


def test_a_stored_map_with_two_ports_of_one_name_still_reads():
    # a campaign that stored such a map before the check keeps working
    assert [p.port for p in parse_map(TWIN_PORTS).ports()] == ["Gullhaven", "gullhaven"]


def test_hex_off_the_map(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0405": {label: Far}\n')
    assert "line 4, column 3" in message and "off the map" in message
    assert "3 columns, 1 row)" in message


def test_bad_hex_key(tmp_path):
    message = error_of(tmp_path, "rows: |\n  ~~#\nhexes:\n  12A4: {label: Far}\n")
    assert "line 4, column 3" in message and "hex '12A4' is not a CCRR name" in message


def test_misspelt_keys_suggest_the_right_one(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0101": {lable: X}\n')
    assert "line 4, column 12" in message and "did you mean 'label'" in message
    message = error_of(tmp_path, "name: x\nrow: |\n  ~~\n")
    assert "line 2, column 1" in message and "did you mean 'rows'" in message


def test_wrong_types(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0201": {narrow_passage: 3}\n')
    assert "line 4, column 28" in message and "true or false" in message
    message = error_of(
        tmp_path, 'rows: |\n  ~P#\nhexes:\n  "0201": {port: A, fuel: {price: cheap}}\n'
    )
    assert "fuel price must be a finite number" in message
    message = error_of(tmp_path, 'rows: |\n  ~P#\nhexes:\n  "0201": {port: [A, B]}\n')
    assert "port must be text" in message
    message = error_of(tmp_path, "seabed: muddy\nrows: |\n  ~~\n")
    assert "line 1, column 9" in message and "unknown seabed 'muddy'" in message


def test_fuel_only_at_ports_and_seabed_only_in_water(tmp_path):
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0101": {fuel: {price: 1}}\n')
    assert "sells fuel but is not a port" in message
    message = error_of(tmp_path, 'rows: |\n  ~~#\nhexes:\n  "0301": {seabed: rocky}\n')
    assert "is land: it has no seabed" in message


def test_narrow_passage_must_touch_land(tmp_path):
    # R33: a narrow passage is always within a mile of the coast.
    message = error_of(
        tmp_path, 'rows: |\n  ~~~~\n  ~~~~\n  ~~~#\nhexes:\n  "0101": {narrow_passage: true}\n'
    )
    assert "does not touch land" in message and "R33" in message


def test_invalid_yaml_and_empty_and_unknown_legend_terrain(tmp_path):
    message = error_of(tmp_path, "rows: |\n  ~~\nhexes: {\n")
    assert "not valid YAML" in message and "line" in message
    assert "empty" in error_of(tmp_path, "")
    message = error_of(tmp_path, "legend:\n  '*': lava\nrows: |\n  ~*\n")
    assert "line 2, column 8" in message and "unknown terrain 'lava'" in message
    assert "draw the map as a block" in error_of(tmp_path, "rows: >\n  ~~\n  ~~\n")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(MapError, match="no such map file"):
        load_map(tmp_path / "nope.yaml")
    with pytest.raises(MapError, match="no campaign.yaml or map.yaml"):
        load_map(tmp_path)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="~#P%:xQ ", min_size=1, max_size=6), min_size=1, max_size=5),
    st.dictionaries(
        st.sampled_from(["0101", "0202", "0303", "0912"]),
        st.fixed_dictionaries({}, optional={"port": st.just("A"), "narrow_passage": st.booleans()}),
        max_size=3,
    ),
)
def test_any_drawing_gives_a_map_or_one_clean_error(rows, entries):
    lines = ["rows:"] + [f'  - "{row}"' for row in rows]
    if entries:
        lines.append("hexes:")
        for name, entry in entries.items():
            body = ", ".join(f"{k}: {str(v).lower()}" for k, v in entry.items())
            lines.append(f'  "{name}": {{{body}}}')
    text = "\n".join(lines) + "\n"
    try:
        sea = parse_map(text, "gen.yaml")
    except MapError as err:
        assert "\n" not in str(err)
        assert re.match(r"^gen\.yaml(, line \d+(, column \d+)?)?: ", str(err)), str(err)
        return
    assert sea.width == len(rows[0]) and sea.height == len(rows)
    for h in sea.hexes():
        assert h.coastal == (h.is_sea and any(not sea.is_sea(n) for n in sea.neighbours(h.name)))


# ----------------------------------------------------------------------------- the campaign


def test_bundled_campaign_has_what_the_demo_needs():
    folder = campaigns_dir() / "salt_reach"
    sea = load_map(folder)
    assert sea.width >= 30 and sea.height >= 20
    ports = sea.ports()
    assert len([p for p in ports if p.fuel]) >= 3
    terrains = {h.terrain for h in sea.hexes()}
    assert {"sea", "land", "port", "reef", "shoal", "wreck"} <= terrains
    assert len([h for h in sea.hexes() if h.terrain == "wreck"]) >= 5
    assert len([h for h in sea.hexes() if h.narrow_passage]) >= 3
    assert {h.seabed for h in sea.hexes() if h.is_sea} == {"sandy", "rocky", "wreckage", "ruins"}
    open_ocean = [h for h in sea.hexes() if h.is_sea and not h.coastal]
    assert len(open_ocean) > sea.width * sea.height // 3


def test_demo_route_runs_along_a_coast_and_through_the_storm():
    import yaml

    folder = campaigns_dir() / "salt_reach"
    data = yaml.safe_load((folder / "campaign.yaml").read_text())
    demo = data["demo"]
    sea = load_map(folder)
    start, goal = demo["start"], demo["destination"]
    assert sea.hex(start).port and sea.hex(goal).port
    route = sea.route(start, goal)
    assert route is not None and len(route) - 1 >= 20  # several days at 4-6 knots
    assert all(sea.is_sea(h) for h in route)
    assert any(sea.hex(h).coastal for h in route[3:-3])
    storm = set(hexmap.within(demo["storm"]["around"], demo["storm"]["radius"]))
    assert storm & set(route)
    assert not sea.hex(demo["storm"]["around"]).coastal  # the storm centres on open water
    for ship in demo["ships"]:
        assert sea.route(ship["start"], ship["destination"]) is not None


def test_the_example_in_docs_maps_md_is_a_valid_map():
    docs = Path(__file__).parent.parent / "docs" / "maps.md"
    text = docs.read_text()
    example = text.split("## A complete small map", 1)[1].split("```yaml\n", 1)[1]
    example = example.split("```", 1)[0]
    sea = parse_map(example, "harbour.yaml")
    assert (sea.name, sea.width, sea.height) == ("Gull Bay", 10, 6)
    assert sea.hex("0303").port == "Gullhaven" and sea.hex("0303").coastal
    assert sea.hex("0402").narrow_passage and sea.hex("0706").seabed == "rocky"
    assert sea.hex("0504").seabed == "rocky"  # the legend's 'o'


def test_campaign_info_of_the_bundled_campaign():
    from voyage.actions.campaignfolders import load_campaign_info

    info = load_campaign_info(campaigns_dir() / "salt_reach")
    assert info.name == "The Salt Reach" and isinstance(info.seed, int)
    assert info.map_path.name == "map.yaml"
    assert info.demo is not None
    assert (info.demo.start, info.demo.destination) == ("0305", "2812")
    assert (info.demo.storm_around, info.demo.storm_radius) == ("1510", 2)
    assert [s.start for s in info.demo.ships] == ["2420", "3016"]


def test_campaign_info_rejects_a_demo_on_land(tmp_path):
    from voyage.actions.campaignfolders import load_campaign_info

    write(tmp_path, "rows: |\n  ~~#\n  ~~#\n")
    (tmp_path / "campaign.yaml").write_text(
        'name: Pond\nmap: map.yaml\ndemo: {start: "0101", destination: "0301"}\n'
    )
    with pytest.raises(MapError, match="demo destination 0301 is land"):
        load_campaign_info(tmp_path)
    (tmp_path / "campaign.yaml").write_text("name: Pond\nmpa: map.yaml\n")
    with pytest.raises(MapError, match="did you mean 'map'"):
        load_campaign_info(tmp_path)
