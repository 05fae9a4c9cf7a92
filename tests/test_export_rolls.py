"""The export reads each distinct rolls text of a voyage once and shares the decoded records
among the events that stored it (a 1,000-day voyage repeats a few hundred roll
records thousands of times); the JSON export writes each shared record's text once
(voyage.base.jsontext). Neither changes a byte of any export."""

from __future__ import annotations

import json
from pathlib import Path

from written_voyage import SHIP, make_voyage

from voyage.dice.roller import Roller
from voyage.outputs import export, exportjson, exportmd
from voyage.store.campaign import create_campaign


def _campaign(tmp_path: Path) -> export.VoyageLog:
    camp = create_campaign(tmp_path / "c.db", "The Salt Reach", 7)
    vid = make_voyage(camp)
    hazard = Roller(3).chance("coastal hazard", 1, success="a hazard", failure="clear water")
    same = json.dumps([hazard.to_dict()])
    with camp.action("advance", "more checks") as act:
        for minute, rolls in ((1, same), (2, same), (3, same), (4, "{not json"), (5, '{"a": 1}')):
            camp.db["events"].insert(
                {
                    "action_id": act.id,
                    "voyage_id": vid,
                    "ship": SHIP,
                    "clock": 5,
                    "day": 1,
                    "hour": 5,
                    "minute": minute,
                    "kind": "coast",
                    "text": "Clear water.",
                    "rolls": rolls,
                    "changes": "{}",
                }
            )
    return export.load_voyage(camp, SHIP)


def test_equal_rolls_texts_are_decoded_once_and_shared(tmp_path: Path) -> None:
    log = _campaign(tmp_path)
    checks = [e for e in log.events if e["kind"] == "coast"]
    assert [e["minute"] for e in checks] == [1, 2, 3, 4, 5]
    first, second, third, broken, not_a_list = (e["rolls"] for e in checks)
    assert first is second is third
    assert first[0]["label"] == "coastal hazard"
    assert broken == [] and not_a_list == []  # not a list of rolls: none, as before
    # other events keep their own rolls
    storm = next(e for e in log.events if e["kind"] == "storm")
    assert [r["label"] for r in storm["rolls"]] == ["capsize check", "hull leak"]


def test_the_exports_are_the_text_json_and_the_rolls_make(tmp_path: Path) -> None:
    log = _campaign(tmp_path)
    text = exportjson.json_text(log)
    assert text == json.dumps(exportjson.to_json(log), indent=2, ensure_ascii=False) + "\n"
    assert json.loads(text)["summary"]["rolls"] == 3 + 3  # the voyage's three and one each
    markdown = exportmd.to_markdown(log)
    assert markdown.count("coastal hazard") == 3
