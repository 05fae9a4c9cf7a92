"""A voyage's end read one way by the export's header, its summary and its days: an
"arrives ... but cannot anchor" event that left her adrift did not end her voyage (the
header said "arrived" at it while the summary and the days counted other hours)."""

from __future__ import annotations

import json
from pathlib import Path

from written_voyage import SHIP, START_CLOCK, _insert, make_voyage

from voyage.outputs.export import ending_time, hours_at_sea, hours_sailed, load_voyage
from voyage.outputs.exportmd import to_markdown
from voyage.store.campaign import create_campaign, open_campaign


def _adrift_then_arrived(tmp_path: Path) -> Path:
    path = tmp_path / "c.db"
    camp = create_campaign(path, name="End", seed=1)
    vid = make_voyage(camp)
    with camp.action("advance", "an arrival that did not end her voyage") as act:
        _insert(
            camp.db,
            "events",
            {
                "action_id": act.id,
                "voyage_id": vid,
                "ship": SHIP,
                "clock": START_CLOCK + 9,
                "day": (START_CLOCK + 9) // 24 + 1,
                "hour": (START_CLOCK + 9) % 24,
                "minute": 50,
                "kind": "arrived",
                "text": "The Sea Witch arrives at 0405 but cannot anchor there.",
                "rolls": "[]",
                "changes": json.dumps({"status": "adrift"}),
            },
        )
    camp.close()
    return path


def test_the_header_the_summary_and_the_days_read_one_end(tmp_path: Path) -> None:
    camp = open_campaign(_adrift_then_arrived(tmp_path))
    log = load_voyage(camp, SHIP)
    camp.close()
    assert ending_time(log) == "Day 2, 03:45"  # the arrival in harbour, not 03:50 adrift
    assert hours_at_sea(log) == len(hours_sailed(log)) == 10
    text = to_markdown(log, audience="referee")
    assert "to Day 2, 03:45: arrived" in text
    days = [line for line in text.splitlines() if " hours at sea, " in line]
    assert sum(int(line.split(" hour")[0]) for line in days) == 10
    assert "03:50" not in text.split("## The ship")[0]
