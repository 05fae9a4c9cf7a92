"""Rule tables as data (R10, R13, R16, R18, R20, R21): content and validation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from voyage.base.errors import TableError
from voyage.base.paths import tables_dir
from voyage.tables.rulebook import load_rulebook, load_table

DEADWEIGHT = {1: 100, 2: 250, 3: 500, 4: 750, 5: 1000, 6: 1500, 7: 2000, 8: 2500, 9: 3000, 10: 4000}
BASE_SPEED = {1: 4, 2: 4, 3: 4, 4: 4, 5: 5, 6: 5, 7: 5, 8: 6, 9: 6, 10: 8}
FUEL_BAND = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}


@pytest.mark.parametrize("tier", range(1, 11))
def test_r10_r13_r16_bands_for_every_tier(book, tier):
    assert book.deadweight(tier) == DEADWEIGHT[tier]
    assert book.base_speed(tier) == BASE_SPEED[tier]
    assert book.fuel_band(tier) == FUEL_BAND[tier]


# R21: rows as printed, with R20's face spans.
EXPECTED_ROWS = {
    "dinghy": {"tier": [(1, 3, 1), (4, 6, 2)]},
    "motorboat": {
        "tier": [(1, 2, 1), (3, 4, 2), (5, 6, 3)],
        "engine": [(f, f, f) for f in range(1, 7)],
    },
    "trawler": {
        "tier": [(1, 2, 3), (3, 4, 4), (5, 5, 5), (6, 6, 6)],
        "engine": [(1, 2, 3), (3, 4, 4), (5, 5, 5), (6, 6, 6)],
    },
    "whaler": {
        "tier": [(1, 2, 4), (3, 4, 5), (5, 5, 6), (6, 6, 7)],
        "engine": [(1, 2, 6), (3, 4, 7), (5, 5, 9), (6, 6, 10)],
        "harpoons": [(1, 3, 0), (4, 6, "d6")],
    },
    "freighter": {
        "tier": [(1, 2, 6), (3, 3, 7), (4, 4, 8), (5, 5, 9), (6, 6, 10)],
        "engine": [(1, 2, 7), (3, 4, 7), (5, 5, 8), (6, 6, 9)],
    },
    "warship": {
        "tier": [(1, 2, 6), (3, 3, 7), (4, 4, 8), (5, 5, 9), (6, 6, 10)],
        "engine": [(1, 2, 8), (3, 4, 9), (5, 6, 10)],
        "armor": [(1, 2, 1), (3, 3, 2), (4, 4, 3), (5, 5, 4), (6, 6, 5)],
    },
}
EQUIPMENT_WEIGHT = {
    "dinghy": 2,
    "motorboat": 12,
    "trawler": 52,
    "whaler": 50,
    "freighter": 142,
    "warship": 42,
}


@pytest.mark.parametrize("key", EXPECTED_ROWS)
def test_r20_r21_class_tables(book, key):
    cls = book.classes[key]
    for row, expected in EXPECTED_ROWS[key].items():
        assert cls["rows"][row] == expected
    assert cls["standard_equipment"]["weight"] == EQUIPMENT_WEIGHT[key]
    assert cls["engine"] == (key != "dinghy")


def test_r18_trait_table(book):
    assert book.traits["chance"] == 1 and book.traits["die"] == "d12"
    assert [book.traits["by_face"][f] for f in range(1, 13)] == [
        "Broad",
        "Fireproof",
        "Ironclad",
        "Limpy",
        "Nimble",
        "Ram-bowed",
        "Steady",
        "Strong",
        "Thrifty",
        "Quick",
        "Quiet",
        "Well-armed",
    ]


def test_class_lookup_by_key_letter_and_name(book):
    assert book.ship_class("E")["key"] == "freighter"
    assert book.ship_class("Fishing Trawler")["key"] == "trawler"
    assert book.ship_class("WARSHIP")["key"] == "warship"


def _copy_tables(tmp_path: Path) -> Path:
    folder = tmp_path / "tables"
    shutil.copytree(tables_dir(), folder)
    return folder


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "classes",
            "- {faces: [6, 6], value: VI}\n      light:",
            "- {faces: [5, 5], value: VI}\n      light:",
            "face 5 is doubled",
        ),
        (
            "classes",
            "        - {faces: [4, 6], value: II}",
            "        - {faces: [4, 5], value: II}",
            "face 6 is missing",
        ),
        ("classes", "{faces: [1, 3], value: I}", "{faces: [1, 3], value: XI}", "unknown tier"),
        (
            "classes",
            "standard_equipment: {weight: 2,",
            "standard_equipmnt: {weight: 2,",
            "unknown key 'standard_equipmnt'",
        ),
        ("classes", "{weight: 142,", "{weight: lots,", "expected a whole number"),
        ("tiers", "  7: 2000\n", "", "tier 7 has no deadweight"),
        (
            "tiers",
            "{tiers: [8, 9], knots: 6}",
            "{tiers: [7, 9], knots: 6}",
            "tier 7 appears in two bands",
        ),
        ("traits", "  - face: 12", "  - face: 11", "face 11 is doubled"),
        ("load", "up_to: 0.5", "up_to: 0.2", "increasing order"),
        ("procedures", "  dv: 16", "  dv: sixteen", "expected a whole number"),
        ("procedures", "severity_die: d4", "severity_die: d", "dice expression"),
        ("options", "range: [1, 1000000]", "range: [1]", "expected [lowest, highest]"),
        ("options", "default: 1000\n", "default: 0\n", "not in the range"),
        ("options", "range: [1, 1000000]", "choices: [1]\n    range: [1, 9]", "either"),
    ],
)
def test_malformed_tables_name_file_key_and_problem(tmp_path, name, old, new, message):
    folder = _copy_tables(tmp_path)
    file = folder / f"{name}.yaml"
    text = file.read_text()
    assert old in text, old
    file.write_text(text.replace(old, new, 1))
    with pytest.raises(TableError) as info:
        load_table(name, file)
    text = str(info.value)
    assert str(file) in text and message in text
    assert "\n" not in text


def test_yaml_syntax_error_names_line(tmp_path):
    file = tmp_path / "tiers.yaml"
    file.write_text("deadweight: {1: 100\nbase_speed: [\n")
    with pytest.raises(TableError, match=r"tiers.yaml line \d+ column \d+"):
        load_table("tiers", file)


def test_override_folder_replaces_table_by_table(tmp_path):
    folder = tmp_path / "house"
    folder.mkdir()
    text = (tables_dir() / "procedures.yaml").read_text().replace("  dv: 16", "  dv: 14")
    (folder / "procedures.yaml").write_text(text)
    book = load_rulebook(folder)
    assert book.procedures["capsize"]["dv"] == 14
    assert book.deadweight(4) == 750  # other tables stay built-in
    assert book.sources["procedures"].startswith(str(folder))


def test_override_folder_with_stray_file_is_refused(tmp_path):
    folder = tmp_path / "house2"
    folder.mkdir()
    (folder / "tierz.yaml").write_text("a: 1\n")
    with pytest.raises(TableError, match="tierz.yaml: not a rule table"):
        load_rulebook(folder)


def test_tables_use_safe_load_only():
    # only the safe loaders (yaml.safe_load, SafeLoader, CSafeLoader) are ever used
    unsafe = (
        "yaml.load(",
        "yaml.Loader",
        "CLoader",
        "FullLoader",
        "UnsafeLoader",
        "unsafe_load",
        "full_load",
    )
    source = (Path(__file__).parent.parent / "voyage").rglob("*.py")
    for file in source:
        text = file.read_text()
        for word in unsafe:
            assert word not in text, (file, word)


def test_the_table_loader_is_a_safe_loader():
    import yaml

    from voyage.base.readlimits import Loader, yaml_loader

    safe = tuple(c for c in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", None)) if c)
    assert issubclass(Loader, safe)
    with pytest.raises(yaml.YAMLError):
        yaml_loader("!!python/object/apply:os.system ['true']", source="t").get_single_data()
