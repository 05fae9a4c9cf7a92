"""Exports read back: Markdown parsed, JSON validated, CSV loaded, PNG decoded."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image
from written_voyage import ROUTE, SHIP, START_CLOCK, insert_voyage, make_voyage

from voyage.cli import cli
from voyage.store.campaign import create_campaign


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.db"
    camp = create_campaign(path, "The Salt Reach", 7)
    make_voyage(camp)
    camp.close()
    return path


def run(args: list[str], db: Path, cwd: Path) -> Any:
    """``voyage export --db DB ARGS`` run in the folder ``cwd``."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, ["export", "--db", str(db), *args], catch_exceptions=False)
    finally:
        os.chdir(old)


# ----------------------------------------------------------------------------- Markdown


def _md_tokens(text: str) -> list[Any]:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(text)


def test_markdown_has_a_section_per_day_every_event_and_valid_tables(
    campaign: Path, tmp_path: Path
) -> None:
    result = run([SHIP, "--format", "md", "--for", "referee"], campaign, tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "sea-witch-voyage-1.md"
    assert path.is_file()
    text = path.read_text(encoding="utf-8")
    tokens = _md_tokens(text)
    headings = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == "h2"
    ]
    assert headings == ["The ship", "Summary", "Day 1", "Day 2"]
    inline = " ".join(t.content for t in tokens if t.type == "inline")
    for words in (
        "The storm \\| breaks over the \\*Sea Witch\\*.",
        "Close inshore \\<rocks\\> ahead",
        "ties up in harbour",
    ):
        assert words in inline
    # the summary table parsed as a table: one per document, six rows of two cells
    assert sum(1 for t in tokens if t.type == "table_open") == 1
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 7  # header + six rows
    assert "60 miles" in inline and "5 hlbs" in inline
    assert "arrived at hex 0807 on Day 2, 03:45" in inline
    # the opening line ends the voyage when she arrived, not at the top of that hour (it
    # read "Day 1, 18:00 to Day 2, 04:00: arrived at hex 0807 on Day 2, 03:45")
    opening = text.splitlines()[2]
    assert opening.endswith("to Day 2, 03:45: arrived at hex 0807 on Day 2, 03:45."), opening
    # every roll is shown as code, nothing renders as raw HTML
    codes = [
        c
        for t in tokens
        if t.type == "inline"
        for c in (t.children or [])
        if c.type == "code_inline"
    ]
    assert len(codes) == 3
    assert any(c.content.startswith("capsize check: d20=") for c in codes)
    assert not any(t.type in ("html_block", "html_inline") for t in tokens)
    assert not any(c.type == "html_inline" for t in tokens for c in (t.children or []))


def test_markdown_rolls_folded_or_hidden(campaign: Path, tmp_path: Path) -> None:
    assert run([SHIP, "--rolls", "folded", "--out", "folded.md"], campaign, tmp_path).exit_code == 0
    folded = (tmp_path / "folded.md").read_text()
    tokens = _md_tokens(folded)
    html = [t.content for t in tokens if t.type == "html_block"]
    assert html and all(h.strip().startswith(("<details>", "</details>")) for h in html)
    assert folded.count("<details>") == 2 and folded.count("</details>") == 2
    assert "capsize check: d20=" in folded

    assert run([SHIP, "--rolls", "none", "--out", "none.md"], campaign, tmp_path).exit_code == 0
    hidden = (tmp_path / "none.md").read_text()
    assert "capsize check" not in hidden and "<details>" not in hidden
    assert "ties up in harbour" in hidden


# ----------------------------------------------------------------------------- JSON


def test_json_validates_against_the_shipped_schema(campaign: Path, tmp_path: Path) -> None:
    import jsonschema

    from voyage.outputs.exportjson import load_schema, schema_path

    assert schema_path().is_file()
    assert "voyage/schemas" in schema_path().as_posix()
    result = run([SHIP, "--format", "json", "--out", "log.json"], campaign, tmp_path)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "log.json").read_text())
    jsonschema.Draft202012Validator.check_schema(load_schema())
    jsonschema.validate(data, load_schema())
    assert data["version"] == "1"
    assert len(data["hours"]) == 10
    assert [e["kind"] for e in data["events"]] == ["storm", "hazard", "arrived"]
    assert data["events"][0]["rolls"][0]["label"] == "capsize check"
    assert data["summary"]["fuel_burnt"] == 5
    assert data["summary"]["hexes_entered"] == 5
    assert data["summary"]["distance_miles"] == 60
    assert data["ship"]["name"] == SHIP
    # no wall-clock time in the export: the same campaign gives the same bytes (R5)
    again = run([SHIP, "--format", "json", "--out", "log.json", "--force"], campaign, tmp_path)
    assert again.exit_code == 0
    assert json.loads((tmp_path / "log.json").read_text()) == data


def test_a_broken_export_fails_the_schema() -> None:
    from voyage.outputs.export import ExportError
    from voyage.outputs.exportjson import validate

    with pytest.raises(ExportError, match="schema"):
        validate({"version": "2"})


def test_export_validate_passes_a_valid_export_and_changes_no_byte(
    campaign: Path, tmp_path: Path
) -> None:
    # the schema check is asked for with --validate, not made on every export
    plain = run([SHIP, "--format", "json", "--out", "plain.json"], campaign, tmp_path)
    checked = run(
        [SHIP, "--format", "json", "--out", "checked.json", "--validate"], campaign, tmp_path
    )
    assert plain.exit_code == 0 and checked.exit_code == 0, checked.output
    assert (tmp_path / "checked.json").read_bytes() == (tmp_path / "plain.json").read_bytes()


def _broken(data: dict[str, Any], where: str) -> dict[str, Any]:
    import copy

    broken = copy.deepcopy(data)
    if where == "hours/3/fuel":
        broken["hours"][3]["fuel"] = "a lot"
    elif where == "events/0/rolls/0/faces":
        broken["events"][0]["rolls"][0]["faces"] = "4 and 2"
    elif where == "summary":
        broken["summary"]["hexes_entered"] = -1
    elif where == "(top)":
        del broken["voyage"]
    return broken


@pytest.mark.parametrize("where", ["hours/3/fuel", "events/0/rolls/0/faces", "summary", "(top)"])
def test_the_validator_catches_a_broken_document(campaign: Path, where: str) -> None:
    from voyage.outputs.export import ExportError, load_voyage
    from voyage.outputs.exportjson import to_json, validate
    from voyage.store.campaign import open_campaign

    camp = open_campaign(campaign)
    try:
        data = to_json(load_voyage(camp, SHIP))
    finally:
        camp.close()
    validate(data)  # the document as exported passes
    with pytest.raises(ExportError) as info:
        validate(_broken(data, where))
    message = str(info.value)
    assert "does not match its schema" in message and "\n" not in message
    assert f"at {where}" in message


def test_export_validate_refuses_to_write_a_broken_export(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage.outputs import exportjson

    real = exportjson.to_json
    monkeypatch.setattr(exportjson, "to_json", lambda log, *_: _broken(real(log), "hours/3/fuel"))
    out = tmp_path / "out"
    out.mkdir()
    result = run(
        [SHIP, "--format", "json", "--format", "csv", "--out", "x", "--validate"], campaign, out
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert "hours/3/fuel" in result.output
    assert list(out.iterdir()) == []  # nothing written, not even the CSV
    # without --validate the same export is written: the check is the flag's, not every run's
    assert run([SHIP, "--format", "json", "--out", "y.json"], campaign, out).exit_code == 0


def test_export_validate_needs_the_json_format(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    result = run([SHIP, "--format", "md", "--validate"], campaign, out)
    assert result.exit_code == 1 and "add --format json" in result.output
    assert result.output.count("\n") == 1
    assert list(out.iterdir()) == []


# ----------------------------------------------------------------------------- CSV


def test_csv_has_one_row_per_ship_hour(campaign: Path, tmp_path: Path) -> None:
    from voyage.outputs.csvexport import CSV_COLUMNS

    result = run([SHIP, "--format", "csv"], campaign, tmp_path)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "sea-witch-voyage-1.csv").read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 10
    assert list(rows[0]) == CSV_COLUMNS
    assert [r["clock"] for r in rows] == [str(START_CLOCK + i) for i in range(10)]
    assert rows[5]["time"] == "Day 1, 23:00" and rows[6]["time"] == "Day 2, 00:00"  # one format
    storm = [r for r in rows if r["events"] == "1" and "storm" in r["event_text"]]
    assert len(storm) == 1 and storm[0]["hex"] == "0506"


# ----------------------------------------------------------------------------- files


def test_refuses_to_overwrite_without_force(campaign: Path, tmp_path: Path) -> None:
    target = tmp_path / "mine.md"
    target.write_text("the referee's own notes\n")
    result = run([SHIP, "--out", "mine.md"], campaign, tmp_path)
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0  # one clean line
    assert "already exists" in result.output and "--force" in result.output
    assert target.read_text() == "the referee's own notes\n"
    assert run([SHIP, "--out", "mine.md", "--force"], campaign, tmp_path).exit_code == 0
    assert target.read_text().startswith("# Log of the Sea Witch")


def test_only_the_named_files_are_written(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    before = set(tmp_path.iterdir())
    result = run(
        [SHIP, "-f", "md", "-f", "json", "-f", "csv", "--out", "out/trip"], campaign, tmp_path
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["trip.csv", "trip.json", "trip.md"]
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Nobody"], "no ship named 'Nobody'"),
        ([SHIP, "--voyage", "9"], "has no voyage 9"),
        ([SHIP, "--out", "missing/log.md"], "does not exist"),
    ],
)
def test_errors_are_one_clean_line(
    campaign: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = run(args, campaign, tmp_path)
    assert result.exit_code == 1
    assert message in result.output
    assert result.output.startswith("Error: ")
    assert result.output.strip().count("\n") == 0
    assert "Traceback" not in result.output


def test_a_ship_that_never_sailed(tmp_path: Path) -> None:
    from voyage.vessels.ships import make_ship

    path = tmp_path / "campaign.db"
    camp = create_campaign(path, "Empty", 1)
    with camp.action("ship add", "add"):
        camp.add_ship(make_ship(camp.rulebook, "Dory", "dinghy", 1))
    camp.close()
    result = run(["Dory"], path, tmp_path)
    assert result.exit_code == 1
    assert "Dory has made no voyage yet" in result.output


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(cli, ["export", "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output and "voyage export" in result.output


# ----------------------------------------------------------------------------- PNG


def test_png_is_the_track_on_the_map_and_the_markdown_links_it(
    campaign: Path, tmp_path: Path
) -> None:
    from matplotlib.image import imread

    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.export import load_voyage
    from voyage.outputs.exportpicture import picture_area, picture_marks
    from voyage.outputs.handouts import write_exports
    from voyage.outputs.picturemarks import Mark
    from voyage.outputs.render import MapGeometry, hex_pixel
    from voyage.store.campaign import open_campaign

    sea_map = load_map(bundled_campaign("salt_reach"))
    camp = open_campaign(campaign)
    log = load_voyage(camp, SHIP)
    camp.close()
    marks = picture_marks(log)
    # the notable events by number, as the Markdown log numbers them
    assert marks == [
        Mark("start", "0305", "start"),
        Mark("event", "0506", "1"),
        Mark("event", "0707", "2"),
        Mark("event", "0807", "end 3"),  # a hex with an event is an event mark
        # where she was at 00:00 (she sailed at 18:00 on day 1): the hour ending at midnight
        # left her in 0606
        Mark("day", "0606", "Day 2"),
    ]
    out = tmp_path / "pictures"
    out.mkdir()
    paths = write_exports(log, ["md", "png"], out / "witch", sea_map=sea_map)
    assert sorted(p.name for p in out.iterdir()) == ["witch.md", "witch.png"]
    image = imread(paths["png"])
    around, radius = picture_area(log)
    geometry = MapGeometry.for_map(sea_map, around, radius)
    assert image.shape[:2] == (geometry.image_h, geometry.image_w)
    # the track is drawn through hex centres in the first ship colour (black): the centre
    # of a hex the ship passed with no mark on it is dark, a hex off the track is not
    x, y = hex_pixel(geometry, "0405")
    assert image[y, x, :3].mean() < 0.3
    x, y = hex_pixel(geometry, "0308")
    assert image[y, x, :3].mean() > 0.5
    assert "![Track of the Sea Witch, voyage 1](witch.png)" in paths["md"].read_text()


def test_png_needs_a_map(campaign: Path, tmp_path: Path) -> None:
    result = run([SHIP, "--format", "png"], campaign, tmp_path)
    assert result.exit_code == 1
    assert "no map" in result.output and "voyage map load" in result.output
    assert not list(tmp_path.glob("*.png"))


# ----------------------------------------------------------------------------- escaping


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=80))
@example("&amp; the <b>crew</b> | cheer ~~loudly~~ ![x](y) `code` *star* _under_ # 1.")
@example("   ")
@settings(max_examples=300, deadline=None)
def test_any_event_text_stays_plain_words_in_one_list_item(text: str) -> None:
    """Whatever an event says, the Markdown shows exactly those words: no markup, no HTML."""
    from markdown_it import MarkdownIt

    from voyage.base.escape import visible
    from voyage.outputs.export import md_text

    words = visible(text)  # a bidirectional override is shown as U+FFFD, as in a name
    tokens = MarkdownIt("commonmark").enable("table").parse(f"- **00:00** {md_text(text)}\n")
    assert [t.type for t in tokens].count("list_item_open") == 1
    inline = [t for t in tokens if t.type == "inline"]
    assert len(inline) == 1
    children = inline[0].children or []
    assert not any(c.type in ("html_inline", "link_open", "image", "code_inline") for c in children)
    shown = "".join(c.content for c in children if c.type == "text")
    assert shown.strip() == f"00:00 {words}".strip()


def test_latest_voyage_by_default_and_any_by_number(campaign: Path, tmp_path: Path) -> None:
    from voyage.store.campaign import open_campaign

    camp = open_campaign(campaign)
    with camp.action("sail", "the Sea Witch sails home"):
        insert_voyage(
            camp.db,
            {
                "ship": SHIP,
                "origin": "0807",
                "destination": "0305",
                "route": json.dumps(list(reversed(ROUTE))),
                "position": 0,
                "progress_miles": 0,
                "inshore": "[]",
                "pace": "slow",
                "strain": 0,
                "status": "under way",
                "started": 40,
                "ended": None,
                "state": "{}",
            },
        )
    camp.close()
    assert run(["sea witch", "-f", "json"], campaign, tmp_path).exit_code == 0
    latest = json.loads((tmp_path / "sea-witch-voyage-2.json").read_text())
    assert latest["voyage"]["id"] == 2 and latest["summary"]["outcome"].startswith(
        "still under way"
    )
    assert latest["hours"] == [] and latest["summary"]["hexes_entered"] == 0
    assert run([SHIP, "--voyage", "1", "-f", "json"], campaign, tmp_path).exit_code == 0
    first = json.loads((tmp_path / "sea-witch-voyage-1.json").read_text())
    assert first["voyage"]["id"] == 1 and len(first["hours"]) == 10


def test_the_picture_is_titled_in_plain_words_and_cropped_to_a_box(campaign: Path) -> None:
    # "Iron Harpy, voyage 1: Gullhaven to Ironport, arrived ..." - no hex sums
    from voyage.map import hexes as hexmap
    from voyage.outputs.export import load_voyage, track
    from voyage.outputs.exportpicture import picture_area, picture_title
    from voyage.outputs.render import area_names
    from voyage.store.campaign import open_campaign

    camp = open_campaign(campaign)
    log = load_voyage(camp, SHIP)
    camp.close()
    title = picture_title(log)
    assert title == f"{SHIP}, voyage 1: hex 0305 to hex 0807, arrived Day 2, 03:45"
    around, radius = picture_area(log)
    assert around is not None and radius is not None
    names = area_names(36, 24, around, radius)
    cols = sorted({hexmap.parse_hex(n)[0] for n in names})
    rows = sorted({hexmap.parse_hex(n)[1] for n in names})
    assert len(names) == len(cols) * len(rows)  # a full rectangle
    assert set(track(log)) <= set(names)


def test_players_log_leaves_out_routine_checks_ruling_codes_and_rolls(
    campaign: Path, tmp_path: Path
) -> None:
    # `export --for players` (the default) tells what happened in the sea's words;
    # the numbers of its events are the numbers on the picture
    assert run([SHIP, "--format", "md"], campaign, tmp_path).exit_code == 0
    players = (tmp_path / "sea-witch-voyage-1.md").read_text(encoding="utf-8")
    out = tmp_path / "referee.md"
    assert (
        run(
            [SHIP, "--format", "md", "--for", "referee", "--out", str(out)], campaign, tmp_path
        ).exit_code
        == 0
    )
    referee = out.read_text(encoding="utf-8")
    assert "`" not in players.split("## Day 1")[1]  # no roll lines for players
    assert "capsize check: d20=" in referee
    for n in (1, 2, 3):
        assert f"**({n})**" in players and f"**({n})**" in referee
    assert not re.search(r"\bR\d+\b", players.split("## Day 1")[1])


def test_html_export_is_one_page_with_the_picture_inside(campaign: Path, tmp_path: Path) -> None:
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.export import load_voyage
    from voyage.outputs.handouts import write_exports
    from voyage.store.campaign import open_campaign

    camp = open_campaign(campaign)
    log = load_voyage(camp, SHIP)
    camp.close()
    out = tmp_path / "pages"
    out.mkdir()
    sea_map = load_map(bundled_campaign("salt_reach"))
    write_exports(log, ["html"], out / "witch.html", sea_map=sea_map, audience="players")
    page = (out / "witch.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<h2>Summary</h2>" in page
    assert 'src="data:image/png;base64,' in page
    # the picture is inside the page: no file was written that was not asked for
    assert [p.name for p in out.iterdir()] == ["witch.html"]
    # and it is the picture the PNG export writes, pixel for pixel (one drawing for both)
    write_exports(log, ["png"], tmp_path / "witch.png", sea_map=sea_map, audience="players")
    inside = base64.b64decode(page.split('src="data:image/png;base64,')[1].split('"')[0])
    with Image.open(io.BytesIO(inside)) as shown, Image.open(tmp_path / "witch.png") as alone:
        assert shown.size == alone.size and shown.tobytes() == alone.tobytes()
    # without a map the page is written all the same, without a picture
    assert (
        run([SHIP, "-f", "html", "--out", str(out / "plain.html")], campaign, tmp_path).exit_code
        == 0
    )
    assert "<h2>Summary</h2>" in (out / "plain.html").read_text(encoding="utf-8")


def test_the_html_page_of_folded_rolls_lists_them_and_carries_no_raw_html(
    campaign: Path, tmp_path: Path
) -> None:
    args = [SHIP, "-f", "html", "--for", "referee", "--rolls", "folded", "--out", "f.html"]
    assert run(args, campaign, tmp_path).exit_code == 0
    page = (tmp_path / "f.html").read_text(encoding="utf-8")
    body = page.split("<body>")[1]
    # the Markdown's <details> lines are left out, neither live nor shown as text
    assert "<details>" not in body and "&lt;details" not in body and "summary" not in body
    assert body.count("<!-- raw HTML omitted -->") == 4  # two rolls folded: open, close each
    assert "<code>capsize check: d20=" in body  # the rolls, listed under their event


def test_the_days_line_says_the_water_in_her_hull_not_water_aboard(
    campaign: Path, tmp_path: Path
) -> None:
    # With fresh water counted in her stores (R100), "water aboard 0 hlbs" in a day's line
    # read to players as a ship with nothing to drink: it is the water she has shipped.
    for audience in ("players", "referee"):
        out = f"{audience}.md"
        assert run([SHIP, "--for", audience, "--out", out], campaign, tmp_path).exit_code == 0
        text = (tmp_path / out).read_text(encoding="utf-8")
        assert "water in her hull 3 hlbs" in text and "water aboard" not in text
