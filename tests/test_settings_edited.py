"""A setting edited into the campaign file by hand is checked when read, as one typed is when
written: every command that reads it refuses in one line naming the setting and the command
that mends it, the campaign unchanged; `voyage doctor` names it; setting it again mends it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused

from voyage.cli import cli
from voyage.tables.rulebook import load_rulebook, option_allows, option_value, stored_option


def _edit(db: Path, key: str, value: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )
    conn.close()


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


@pytest.mark.parametrize(
    ("key", "stored"),
    [
        ("encounter_interval", '"abc"'),
        ("encounter_interval", "5"),  # a number, but not one of its choices
        ("encounter_interval", "abc"),  # not JSON at all
        ("natural_rolls", "1"),  # 1 is not true
        ("undo_keep", "1e999"),
        ("undo_keep", "4.0"),
        ("undo_keep", "9" * 5000),
        ("undo_keep", "[" * 5000),
        ("advantage_mode", "null"),
    ],
)
def test_a_setting_edited_by_hand_is_one_line_and_mended_by_setting_it(
    runner: CliRunner, reach: Path, key: str, stored: str
) -> None:
    ok(runner, "ship", "add", "Gull", "--class", "dinghy", "--tier", "1")
    _edit(reach, key, stored)
    before = db_contents(reach)
    for args in (["advance", "--hours", "1"], ["settings"], ["sail", "Gull", "--to", "0405"]):
        line = refused(runner, *args)
        assert f"setting {key} in the campaign file is" in line, args
        assert f"`voyage settings {key} VALUE`" in line
    assert db_contents(reach) == before

    doctor = runner.invoke(cli, ["doctor"])
    assert doctor.exit_code == 1 and f"{key}" in doctor.output
    if _is_json(stored):  # not JSON at all, it is the JSON check's finding, with its advice
        assert f"settings: {key}: setting {key}" in doctor.output
        assert "restore the campaign from a backup" not in doctor.output  # the fix: a command

    book = load_rulebook()
    good = str(book.options[key]["default"]).lower()
    ok(runner, "settings", key, good)
    assert "healthy" in ok(runner, "doctor")
    ok(runner, "advance", "--hours", "1")


def test_one_check_for_a_setting_typed_and_a_setting_read() -> None:
    """option_value (typed) and stored_option (read back) agree, value by value."""
    book = load_rulebook()
    for key, option in book.options.items():
        values = option.get("choices") or list(range(option["range"][0], option["range"][1] + 1))
        for value in values[:50]:
            assert option_allows(option, value)
            assert option_value(key, option, json.dumps(value).strip('"')) == value
            assert stored_option(key, option, json.dumps(value)) == value
        for wrong in ("abc", 1.5, None, [1]):
            assert not option_allows(option, wrong)
