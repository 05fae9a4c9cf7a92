"""The water in her hull (R11, R37) is never read as her fresh water (R100): every text a
referee reads names it "water in her hull", or "hull water" where a table is narrow."""

from __future__ import annotations

import re

from conftest import ok


def test_the_water_in_her_hull_is_named_apart_from_her_fresh_water(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "50", "--water", "5")
    ok(runner, "ship", "load", "Gull", "--food", "30", "--fresh-water", "12")
    ok(runner, "ship", "place", "Gull", "0305")
    shown = ok(runner, "ship", "show", "Gull")
    assert "fuel 50, water in her hull 5, anchors" in shown
    assert "equipment 52, hull water 5, stores" in shown  # her Load's parts (R11, R100)
    assert "fresh water 12 person-days" in shown
    ok(runner, "sail", "Gull", "--to", "0804")
    status = ok(runner, "status")
    assert re.search(r"load +hull water +trouble", status), status
    advanced = ok(runner, "advance", "--hours", "1")
    assert re.search(r"load \d+ \(\w+\), hull water \d+$", advanced, re.M), advanced
    for text in (shown, status, advanced):
        assert not re.search(r"(?<!fresh )(?<!hull )water \d", text.replace("her hull", "")), text
