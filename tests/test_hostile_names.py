"""Names that try to become content: every output that carries a name shows its letters.

The same hostile names - a Markdown link and remote image, an HTML script, a spreadsheet
formula, TeX for the card's renderer, control characters, a right-to-left override, a
zero-width space - name ships (and the campaign) that sail and meet the sea; then every
exporter writes them: the voyage export in each text format for players and referee, the
journal in every format for both, the ship card. None may carry a live link, image, script
or formula, nor a raw control character; the JSON keeps each name exactly.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.base.escape import csv_cell, html_text, json_text, md_text
from voyage.base.text import control_character
from voyage.cli import cli

LINK = "[Click](https://evil.example/p) ![px](https://evil.example/px.png)"
SCRIPT = "<script>alert(1)</script>"
FORMULA = '=HYPERLINK("https://evil.example","x")'
TEX = r"$\frac{1}{$ Gull"
ZERO_WIDTH = "Sea\u200bWitch"
#: typed, these are refused (voyage.base.text); an old or hand-edited campaign may hold them
CONTROL = "Gull\x1b[31mRed\x07"
RTL = "Gull\u202egpj.exe"
TYPED = [LINK, SCRIPT, FORMULA, TEX, ZERO_WIDTH]
EDITED = {"Edited One": CONTROL, "Edited Two": RTL}
EVERY = [*TYPED, *EDITED.values()]
CAMPAIGN = "[Home](https://evil.example/home) <img src=x onerror=alert(1)>"


def _rename(db: Path, old: str, new: str) -> None:
    """A ship's name changed by hand in the file, everywhere it is kept."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE ships SET name = ? WHERE name = ?", [new, old])
        for sql in (
            "UPDATE voyages SET ship = ? WHERE ship = ?",
            "UPDATE people SET ship = ? WHERE ship = ?",
            "UPDATE events SET ship = ? WHERE ship = ?",
            "UPDATE hour_days SET ship = ? WHERE ship = ?",
            "UPDATE rolls SET ship = ? WHERE ship = ?",
        ):
            conn.execute(sql, [new, old])
        conn.execute("UPDATE events SET text = replace(text, ?, ?)", [old, new])
    conn.close()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign whose ships, all named to attack their readers, have sailed a day."""
    folder = tmp_path_factory.mktemp("hostile")
    db = folder / "campaign.db"
    runner = CliRunner()

    def run(*args: str) -> None:
        result = runner.invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)

    run("init", "--name", CAMPAIGN, "--seed", "11")
    run("map", "load", "salt_reach")
    for name in [*TYPED, *EDITED]:
        run("ship", "add", name, "--class", "trawler", "--tier", "IV", "--engine", "V")
        run("ship", "place", name, "Gullhaven")
        run("ship", "load", name, "--crew", "6", "--fuel", "60")
        run("sail", name, "--to", "Ironport")
    run("advance", "--hours", "30")
    for old, new in EDITED.items():
        _rename(db, old, new)
    return db


def _in(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def _exports(db: Path, folder: Path) -> dict[str, list[str]]:
    """Every text each exporter writes for these ships: format -> texts."""
    texts: dict[str, list[str]] = {"md": [], "html": [], "json": [], "csv": []}
    for audience in ("players", "referee"):
        for fmt in ("md", "html", "json"):
            texts[fmt].append(_in(db, "journal", "--since", "day 1", "--for", audience, "-f", fmt))
        for n, name in enumerate(EVERY):
            out = folder / f"{audience}-{n}"
            _in(db, "export", name, "-f", "md", "-f", "html", "-f", "json", "-f", "csv",
                "--for", audience, "--out", str(out), "--force")  # fmt: skip
            for fmt in texts:
                texts[fmt].append(out.with_name(f"{out.name}.{fmt}").read_text(encoding="utf-8"))
    return texts


def _tags(page: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every start tag of an HTML page, with its attributes."""
    from html.parser import HTMLParser

    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, attrs))

    Tags().feed(page)
    return found


def _raw_controls(text: str) -> list[str]:
    return [ch for ch in text if control_character(ch, multiline=True)]


# and no control character reaches a picture's words: a font has no glyph for it
# (matplotlib warns "Glyph 27 missing"), and the picture shows U+FFFD as every output does
@pytest.mark.filterwarnings("error::UserWarning")
def test_no_exporter_lets_a_name_become_a_link_a_script_or_a_formula(
    hostile: Path, tmp_path: Path
) -> None:
    from markdown_it import MarkdownIt

    texts = _exports(hostile, tmp_path)
    every_text = "\n".join(t for group in texts.values() for t in group)
    for name in EVERY:  # every name reached every format
        assert json.dumps(name)[1:-1] in every_text or name in every_text, name

    live = {"link_open", "image", "html_inline", "html_block", "autolink"}
    for md in texts["md"]:
        tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(md)
        kinds = {t.type for t in tokens} | {
            c.type for t in tokens for c in (t.children or []) if t.type == "inline"
        }
        assert not kinds & live, kinds & live
        # GitHub links bare addresses: none is left whole
        assert "://" not in md.replace("\\://", ""), md
        assert not _raw_controls(md)
        assert "\u202e" not in md and "\x1b" not in md

    for page in texts["html"]:
        tags = _tags(page)
        assert not {name for name, _ in tags} & {"script", "a", "iframe", "object", "embed"}
        for name, attrs in tags:
            assert not [k for k, _ in attrs if k.startswith("on") or k == "href"], (name, attrs)
            if name == "img":  # the export's own picture, embedded, is the one image
                assert dict(attrs)["src"].startswith("data:image/png;base64,"), attrs
        assert not _raw_controls(page)
        assert "\u202e" not in page

    for text in texts["csv"]:
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
                    float(cell)  # only a number may start so
        assert not _raw_controls(text) and "\u202e" not in text
    assert "'=HYPERLINK(" in "".join(texts["csv"])  # shown, as written, after the apostrophe

    for text in texts["json"]:
        data = json.loads(text)
        assert not _raw_controls(text)  # the encoder escapes them
        flat = json.dumps(data)  # every string as ASCII escapes, a name's as one
        assert any(json.dumps(name)[1:-1] in flat for name in EVERY)


def test_the_json_keeps_each_name_exactly(hostile: Path, tmp_path: Path) -> None:
    journal = json.loads(
        _in(hostile, "journal", "--since", "day 1", "--for", "referee", "-f", "json")
    )
    ships = {e["ship"] for day in journal["days"] for e in day["entries"]}
    assert set(EVERY) <= ships
    assert journal["campaign"] == CAMPAIGN
    for name in EVERY:
        out = tmp_path / "v.json"
        _in(hostile, "export", name, "-f", "json", "--out", str(out), "--force")
        assert json.loads(out.read_text(encoding="utf-8"))["voyage"]["ship"] == name


def test_the_ship_card_draws_every_name_as_letters(hostile: Path, tmp_path: Path) -> None:
    for n, name in enumerate(EVERY):
        out = tmp_path / f"card-{n}.png"
        _in(hostile, "ship", "card", name, "--out", str(out))
        assert out.stat().st_size > 1000


@pytest.mark.parametrize("name", [*EVERY, CAMPAIGN])
def test_each_format_escapes_in_one_place(name: str) -> None:
    """The escape functions themselves: what each format's writer calls."""
    from markdown_it import MarkdownIt

    md = md_text(name)
    tokens = MarkdownIt("commonmark", {"html": True}).parse(md)
    inline = [c.type for t in tokens for c in (t.children or [])]
    assert set(inline) <= {"text", "softbreak"}, inline
    assert "://" not in md.replace("\\://", "")
    assert "<" not in html_text(name) and not _raw_controls(html_text(name))
    cell = csv_cell(name)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    value = {"name": name, "rows": [[name, 1], {"x": None}]}
    text = json_text(value)
    assert json.loads(text) == value and not _raw_controls(text) and "\u202e" not in text


def test_the_escapes_refuse_what_a_name_may_not_hold_no_more_no_less() -> None:
    """voyage.base.escape scans with one expression; it matches the name rule's characters
    (voyage.base.text.control_character) over every code point."""
    from voyage.base.escape import REPLACEMENT, visible

    differ = [
        c
        for c in range(0x110000)
        if (control_character(chr(c)) is None) != (visible(f"a{chr(c)}b") == f"a{chr(c)}b")
        and not chr(c).isspace()
    ]
    assert differ == []
    assert visible("a\u202eb\x1bc") == f"a{REPLACEMENT}b{REPLACEMENT}c"
