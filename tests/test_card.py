"""`voyage ship card`: a printable card of a ship's figures and odds."""

from __future__ import annotations

from pathlib import Path

from conftest import ok, refused

from voyage.outputs.card import card_lines
from voyage.store.campaign import open_campaign
from voyage.vessels.ships import figures


def _trawler(runner, db: Path) -> None:
    ok(runner, "ship", "add", "Sea Witch", "--class", "trawler", "--tier", "4", "--engine", "3")
    # Load 52 equipment + 60 people + 40 fuel + 200 cargo = 352 of DW 750: Half (R12)
    ok(runner, "ship", "load", "Sea Witch", "--crew", "6", "--cargo", "200", "--fuel", "40")


def test_the_card_states_the_figures_and_the_exact_odds(runner, db: Path) -> None:
    _trawler(runner, db)
    camp = open_campaign(db)
    fig = figures(camp.get_ship("Sea Witch"), camp.rulebook, camp.water_in_load)
    text = card_lines(fig, camp.rulebook)
    assert text["heading"][:2] == ["Sea Witch", "Fishing Trawler, Tier IV, Engine III"]
    assert "Load 352 hlbs (Half)" in text["figures"]
    # R41: d20 + 4 (Tier IV) + 2 (Half) >= 16 stays upright on 10-20: 11 in 20
    assert text["odds"][0] == "Capsize Check (R41): stays upright 55%"
    # R51: d12 - 0 >= Tier 4 on 4-12: 9 in 12
    assert text["odds"][1] == "Dodge an Explosion (R51): 75%"


def test_png_and_pdf_cards_are_written_and_other_names_refused(runner, db: Path, tmp_path):
    _trawler(runner, db)
    png, pdf = tmp_path / "card.png", tmp_path / "card.pdf"
    assert "Wrote" in ok(runner, "ship", "card", "Sea Witch", "--out", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from matplotlib import image

    height, width = image.imread(png).shape[:2]
    assert (width, height) == (874, 619)  # 5.83 x 4.13 inches at 150 dpi: an A6 card
    ok(runner, "ship", "card", "Sea Witch", "--out", str(pdf))
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert ".png or .pdf" in refused(
        runner, "ship", "card", "Sea Witch", "--out", str(tmp_path / "card.txt")
    )
    assert "does not exist" in refused(
        runner, "ship", "card", "Sea Witch", "--out", str(tmp_path / "nowhere" / "card.png")
    )
    assert "no ship named" in refused(runner, "ship", "card", "Nobody")


def test_a_long_card_keeps_its_figures_above_the_odds(runner, db: Path) -> None:
    # A whaler with stores, raft stores and her gear ran her last equipment line
    # ("Harpoon cannon") over "Capsize Check (R41)" at the card's foot.
    from voyage.outputs.card import ODDS_TOP, figure_rows

    ok(runner, "ship", "roll", "--class", "whaler", "--name", "Widow", "--no-rolls")
    ok(runner, "ship", "load", "Widow", "--crew", "8", "--rafts", "2", "--jackets", "4")
    ok(runner, "ship", "load", "Widow", "--food", "46", "--fresh-water", "6", "--raft-stores", "4")
    camp = open_campaign(db)
    fig = figures(camp.get_ship("Widow"), camp.rulebook, camp.water_in_load)
    rows = figure_rows(card_lines(fig, camp.rulebook)["figures"], 0.71, ODDS_TOP)
    assert any("Harpoon cannon" in text for _, text, _ in rows)
    last_y, _, size = rows[-1]
    # its row (va="top") ends a line's height below its y, above the odds' first line
    assert last_y - 0.045 * size / 8.5 >= ODDS_TOP
