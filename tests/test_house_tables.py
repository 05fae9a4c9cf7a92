"""House rules travel with the campaign: copied in at init, never read from the
folder again, shown, written out, changed mid-campaign as an undoable action."""

from __future__ import annotations

import gc
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused
from sqlite_utils import Database

from voyage.base.paths import tables_dir
from voyage.dice.roller import Roller
from voyage.store.migrations import migrations
from voyage.tables.rulebook import TABLE_NAMES

SHIP = ["--class", "trawler", "--tier", "IV", "--engine", "V"]


def house_folder(tmp_path: Path, deadweight_iv: int = 900, name: str = "house") -> Path:
    """A folder overriding tiers.yaml: Tier IV carries ``deadweight_iv`` hlbs (R10 is 750)."""
    folder = tmp_path / name
    folder.mkdir()
    text = (tables_dir() / "tiers.yaml").read_text().replace("  4: 750", f"  4: {deadweight_iv}")
    (folder / "tiers.yaml").write_text(text)
    return folder


def run(path: Path, *args: str) -> str:
    return ok(CliRunner(), *args, "--db", str(path))


def setup_voyage(path: Path) -> None:
    run(path, "map", "load", "salt_reach")
    run(path, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    run(path, "ship", "add", "Gull", *SHIP)
    run(path, "ship", "load", "Gull", "--crew", "5", "--cargo", "500", "--fuel", "60")
    run(path, "ship", "place", "Gull", "0305")
    run(path, "sail", "Gull", "--to", "2812", "--inshore")


def log_rows(path: Path) -> list[list[tuple]]:
    with sqlite3.connect(path) as conn:
        out = [
            conn.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
            for t in ("hours", "events", "voyages")
        ]
    conn.close()
    return out


def test_a_campaign_with_house_rules_moves_and_keeps_playing_identically(tmp_path):
    house = house_folder(tmp_path)
    here = tmp_path / "here" / "campaign.db"
    here.parent.mkdir()
    out = run(here, "init", "--seed", "21", "--tables", str(house))
    assert "House tables kept in the campaign: tiers." in out
    setup_voyage(here)
    assert json.loads(run(here, "ship", "show", "Gull", "--json"))["deadweight"] == 900
    # copy the campaign elsewhere and take the rules folder away
    there = tmp_path / "elsewhere" / "moved.db"
    there.parent.mkdir()
    gc.collect()  # as when the commands' processes end: connections closed, WAL folded in
    assert not Path(f"{here}-wal").exists()
    shutil.copy(here, there)
    shutil.rmtree(house)
    for path in (here, there):
        run(path, "advance", "--hours", "10")
        run(path, "advance", "--hours", "10")
        assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 900
    assert log_rows(here) == log_rows(there)
    assert log_rows(here)[0]  # hours were sailed
    # and a campaign without those rules plays differently (the house rule is in use)
    plain = tmp_path / "plain.db"
    run(plain, "init", "--seed", "21")
    setup_voyage(plain)
    assert json.loads(run(plain, "ship", "show", "Gull", "--json"))["deadweight"] == 750


def test_editing_the_folder_after_init_changes_nothing(tmp_path):
    house = house_folder(tmp_path)
    path = tmp_path / "c.db"
    run(path, "init", "--tables", str(house))
    run(path, "ship", "add", "Gull", *SHIP)
    (house / "tiers.yaml").write_text("this: is not a tiers table\n")
    assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 900


def test_settings_tables_and_tables_show_name_the_overridden_tables(tmp_path):
    house = house_folder(tmp_path)
    path = tmp_path / "c.db"
    run(path, "init", "--tables", str(house))
    for args in (("settings", "tables"), ("tables", "show")):
        text = run(path, *args)
        lines = {line.split()[0]: line for line in text.splitlines()[2:]}
        assert lines["tiers"].split()[1] == "house" and str(house / "tiers.yaml") in text
        assert lines["classes"].split()[1] == "built-in"
        rows = json.loads(run(path, *args, "--json"))
        assert [r["table"] for r in rows if r["overridden"]] == ["tiers"]


def test_tables_export_writes_the_kept_text(tmp_path):
    house = house_folder(tmp_path)
    path = tmp_path / "c.db"
    run(path, "init", "--tables", str(house))
    out = tmp_path / "out"
    run(path, "tables", "export", str(out))
    assert sorted(p.name for p in out.iterdir()) == ["tiers.yaml"]
    assert (out / "tiers.yaml").read_text() == (house / "tiers.yaml").read_text()
    before = (out / "tiers.yaml").read_text()
    assert "already exists" in refused(
        CliRunner(), "tables", "export", str(out), "--db", str(path), "--all"
    )
    assert sorted(p.name for p in out.iterdir()) == ["tiers.yaml"]  # nothing written
    run(path, "tables", "export", str(out), "--all", "--force")
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.yaml" for t in TABLE_NAMES)
    assert (out / "tiers.yaml").read_text() == before
    assert (out / "classes.yaml").read_text() == (tables_dir() / "classes.yaml").read_text()


def test_tables_load_is_a_logged_undoable_action(tmp_path):
    path = tmp_path / "c.db"
    run(path, "init", "--seed", "3")
    run(path, "ship", "add", "Gull", *SHIP)
    before = db_contents(path)
    new = house_folder(tmp_path, 1100, "new")
    out = run(path, "tables", "load", str(new))
    assert "House tables now tiers" in out
    assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 1100
    with sqlite3.connect(path) as conn:
        kind, summary = conn.execute(
            "SELECT kind, summary FROM actions ORDER BY id DESC LIMIT 1"
        ).fetchone()
    conn.close()
    assert kind == "tables" and str(new) in summary and "tiers" in summary
    assert "Undone: tables" in run(path, "undo")
    assert db_contents(path) == before
    assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 750


def test_an_empty_folder_loads_the_built_in_tables(tmp_path):
    path = tmp_path / "c.db"
    run(path, "init", "--tables", str(house_folder(tmp_path)))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "none: the built-in tables" in run(path, "tables", "load", str(empty))
    assert not [r for r in json.loads(run(path, "tables", "show", "--json")) if r["overridden"]]


def test_tables_that_do_not_fit_the_campaign_change_nothing(tmp_path):
    path = tmp_path / "c.db"
    run(path, "init")
    run(path, "ship", "add", "Gull", *SHIP)
    before = db_contents(path)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "tiers.yaml").write_text("deadweight: {1: 100}\n")
    out = refused(CliRunner(), "tables", "load", str(bad), "--db", str(path))
    assert "tiers.yaml" in out
    no_trawler = tmp_path / "nt"
    no_trawler.mkdir()
    classes = (tables_dir() / "classes.yaml").read_text()
    trawler = classes[classes.index("  trawler:") : classes.index("  whaler:")]
    (no_trawler / "classes.yaml").write_text(classes.replace(trawler, ""))
    out = refused(CliRunner(), "tables", "load", str(no_trawler), "--db", str(path))
    assert "do not fit Gull" in out and "trawler" in out
    assert db_contents(path) == before


def old_campaign(path: Path, tables: str | None) -> None:
    """A campaign as made before m041: its house rules named by folder, not kept."""
    db = Database(path)
    db.execute("PRAGMA journal_mode=WAL")
    migrations.apply(db, stop_before="m040_file_meta")
    db["campaign"].insert(  # type: ignore[union-attr]
        {
            "id": 1,
            "name": "Old",
            "seed": 5,
            "rng_state": Roller(5).get_state(),
            "clock": 0,
            "tables": tables,
            "created": "2026-01-01T00:00:00+00:00",
        }
    )
    db.close()


def test_an_older_campaign_takes_a_copy_of_its_folder_once(tmp_path):
    house = house_folder(tmp_path)
    path = tmp_path / "old.db"
    old_campaign(path, "house")  # relative to the campaign's folder, as init once stored it
    run(path, "ship", "add", "Gull", *SHIP)  # the first open copies the folder in
    shutil.rmtree(house)
    assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 900
    assert [
        r["table"] for r in json.loads(run(path, "tables", "show", "--json")) if r["overridden"]
    ] == ["tiers"]


def test_an_older_campaign_whose_folder_is_gone_says_so_in_one_line(tmp_path):
    path = tmp_path / "old.db"
    old_campaign(path, str(tmp_path / "gone"))
    out = refused(CliRunner(), "ship", "add", "Gull", *SHIP, "--db", str(path))
    assert f"was made with the house rules in {tmp_path / 'gone'}, which is gone" in out
    # new tables can be given to it, and then it plays
    run(path, "tables", "load", str(house_folder(tmp_path)))
    run(path, "ship", "add", "Gull", *SHIP)
    assert json.loads(run(path, "ship", "show", "Gull", "--json"))["deadweight"] == 900


@pytest.mark.parametrize("extra", ["notes.yaml", "tiers.yml"])
def test_init_refuses_a_folder_with_a_stray_table(tmp_path, extra):
    house = house_folder(tmp_path)
    (house / extra).write_text("a: 1\n")
    out = refused(CliRunner(), "init", "--db", str(tmp_path / "c.db"), "--tables", str(house))
    assert extra in out and not (tmp_path / "c.db").exists()


def test_a_campaign_with_a_built_boat_loads_house_tables(tmp_path):
    # R80: a built boat has class "built", which no class table holds: every `tables load`
    # of a campaign with one was refused ("do not fit Skiff: unknown ship class 'built'")
    path = tmp_path / "c.db"
    run(path, "init")
    run(
        path,
        "ship",
        "build",
        "Skiff",
        "--body",
        "dinghy",
        "--plant",
        "small",
        "--with",
        "depth-charge",
    )
    run(path, "tables", "export", str(tmp_path / "all"), "--all")
    assert "House tables now boats" in run(path, "tables", "load", str(tmp_path / "all"))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "none: the built-in tables" in run(path, "tables", "load", str(empty))
    # a boats.yaml without a part of her design still does not fit her, in one line
    before = db_contents(path)
    lacking = tmp_path / "lacking"
    lacking.mkdir()
    boats = (tables_dir() / "boats.yaml").read_text()
    line = next(x for x in boats.splitlines(keepends=True) if x.startswith("  depth-charge:"))
    (lacking / "boats.yaml").write_text(boats.replace(line, ""))
    out = refused(CliRunner(), "tables", "load", str(lacking), "--db", str(path))
    assert "do not fit Skiff: her design needs 'depth-charge' in boats.yaml (R80)" in out
    assert db_contents(path) == before
