"""``voyage undo COUNT`` and ``voyage undo --to ACTION``: exactly COUNT single undos, in one
transaction (all or nothing), refused in one line when fewer actions can be undone;
``voyage history`` shows the COUNT that takes each action back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import invoke, ok, refused

from voyage.store import campaign as store
from voyage.store import undojournal

SETUP = (
    ("init", "--name", "Many", "--seed", "11"),
    ("map", "load", "salt_reach"),
    ("ship", "add", "Sea Witch", "--class", "trawler", "--tier", "IV", "--engine", "V"),
    ("ship", "load", "Sea Witch", "--crew", "5", "--cargo", "200", "--fuel", "60"),
    ("ship", "place", "Sea Witch", "0305"),
    ("sail", "Sea Witch", "--to", "2812", "--inshore"),
    ("advance", "--hours", "5"),
    ("weather", "storm", "--around", "0807", "--radius", "2", "--hours", "24"),
    ("advance", "--hours", "20"),
    ("act", "Sea Witch", "jettison", "20"),
    ("advance", "--hours", "7"),
)  # ten actions (init is none)


def dump(path: Path) -> list[str]:
    """Every table of the campaign, schema and rows, as SQL (the journal and actions too)."""
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("many") / "template.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for args in SETUP:
        ok(runner, *args)
    return path


def copy(template: Path, path: Path) -> CliRunner:
    with sqlite3.connect(template) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
    return CliRunner(env={"VOYAGE_DB": str(path)})


@pytest.mark.parametrize("count", [1, 2, 4, 10])
def test_undo_count_is_count_single_undos(template, tmp_path, count):
    one_by_one, at_once = tmp_path / "single.db", tmp_path / "many.db"
    single, many = copy(template, one_by_one), copy(template, at_once)
    for _ in range(count):
        ok(single, "undo")
    text = ok(many, "undo", str(count))
    assert dump(at_once) == dump(one_by_one)
    lines = text.splitlines()
    assert sum(line.startswith("Undone: ") for line in lines) == count
    assert lines[0] == "Undone: advance: advance 7 hours to Day 2, 08:00"
    if count > 1:
        assert lines[-1].startswith(f"Undid {count} actions (#10 back to #{11 - count}): ")
    else:
        assert len(lines) == 1  # as `voyage undo` prints it


def test_undo_to_an_action_leaves_the_campaign_just_after_it(template, tmp_path):
    single, many = copy(template, tmp_path / "a.db"), copy(template, tmp_path / "b.db")
    for _ in range(6):  # actions 10 down to 5
        ok(single, "undo")
    out = json.loads(ok(many, "undo", "--to", "4", "--json"))
    assert [a["id"] for a in out["undone"]] == [10, 9, 8, 7, 6, 5]
    assert out["undone"][-1]["kind"] == "sail"
    assert dump(tmp_path / "b.db") == dump(tmp_path / "a.db")
    assert [r["id"] for r in json.loads(ok(many, "history", "--json"))] == [4, 3, 2, 1]


def test_undo_without_count_is_as_before(template, tmp_path):
    runner = copy(template, tmp_path / "c.db")
    assert ok(runner, "undo") == "Undone: advance: advance 7 hours to Day 2, 08:00\n"
    out = json.loads(ok(runner, "undo", "--json"))
    assert out["undone"]["id"] == 9 and out["undone"]["kind"] == "act jettison"


def test_too_many_is_refused_in_one_line_and_changes_nothing(template, tmp_path):
    path = tmp_path / "d.db"
    runner = copy(template, path)
    before = dump(path)
    assert refused(runner, "undo", "11") == (
        "Error: cannot undo 11 actions: the campaign has only 10 actions; nothing was undone\n"
    )
    ok(runner, "settings", "undo_keep", "3")  # prunes at the next action
    ok(runner, "ship", "load", "Sea Witch", "--water", "1")
    before = dump(path)
    message = refused(runner, "undo", "4")
    assert message.startswith("Error: cannot undo 4 actions: only the latest 3 actions can be")
    assert "undo_keep is 3" in message
    assert "3 actions can be undone" in refused(runner, "undo", "--to", "7")
    assert dump(path) == before
    ok(runner, "undo", "3")
    assert "cannot undo action" in refused(runner, "undo")


def test_bad_targets_are_refused(template, tmp_path):
    runner = copy(template, tmp_path / "e.db")
    assert "no action #99" in refused(runner, "undo", "--to", "99")
    assert "action #10 is the latest" in refused(runner, "undo", "--to", "10")
    assert "not both" in refused(runner, "undo", "2", "--to", "5")
    assert "must be from 1 to 1000000, not 0" in invoke(runner, "undo", "0").output


def test_an_interrupted_undo_of_many_undoes_nothing(template, tmp_path, monkeypatch):
    path = tmp_path / "f.db"
    copy(template, path)
    before = dump(path)
    real, calls = undojournal.undo_last, []

    def stopped(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C half-way through
        return real(*args, **kw)

    monkeypatch.setattr(undojournal, "undo_last", stopped)
    camp = store.open_campaign(path)
    with pytest.raises(KeyboardInterrupt):
        camp.undo_many(5)
    camp.close()
    assert len(calls) == 3 and dump(path) == before


def test_history_shows_the_count_that_takes_each_action_back(template, tmp_path):
    runner = copy(template, tmp_path / "g.db")
    ok(runner, "settings", "undo_keep", "4")
    ok(runner, "ship", "load", "Sea Witch", "--water", "1")  # prunes: 4 undoable
    rows = json.loads(ok(runner, "history", "--json"))
    assert [r["undo_count"] for r in rows[:6]] == [1, 2, 3, 4, None, None]
    text = ok(runner, "history")
    assert "undo N" in text.splitlines()[0] and "`voyage undo N`" in text
