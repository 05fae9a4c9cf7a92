"""The one set of limits on every file voyage reads (voyage.base.readlimits): regular files
only, a size cap (decompressed too), no duplicate key, no deep nesting, no overlong number;
and through the CLI, a refused house-tables folder leaves the house rules as they were."""

from __future__ import annotations

import gzip
import os
import threading
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import db_contents, ok, refused

from voyage.base.errors import MapError, TableError, VoyageError
from voyage.base.paths import tables_dir
from voyage.base.readlimits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    LimitedSafeLoader,
    Loader,
    check_writable,
    load_yaml,
    read_bytes,
    read_text,
    unpack_bytes,
    yaml_loader,
)
from voyage.cli import cli
from voyage.map.seamap import parse_map

LOADERS = sorted({LimitedSafeLoader, Loader}, key=lambda c: c.__name__)


def _load(loader: type, text: str) -> object:
    reader = loader(text)
    reader.source, reader.error = "t.yaml", TableError
    try:
        return reader.get_single_data()
    finally:
        reader.dispose()


# ----------------------------------------------------------------------------- files


def test_a_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "tiers.yaml"
    os.mkfifo(fifo)
    started = time.perf_counter()
    with pytest.raises(TableError, match=r"tiers.yaml is a pipe \(FIFO\), not a regular file"):
        read_bytes(fifo, what="table file", error=TableError)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_link_to_a_device_is_refused(tmp_path: Path, target: str) -> None:
    link = tmp_path / "map.yaml"
    link.symlink_to(target)
    with pytest.raises(MapError, match="is a device, not a regular file: name a map file"):
        read_text(link, what="map file", error=MapError)


def test_a_folder_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(VoyageError, match="is a folder, not a regular file"):
        read_bytes(tmp_path, what="map file")
    with pytest.raises(VoyageError, match="no such map file"):
        read_bytes(tmp_path / "nowhere.yaml", what="map file")


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "names.yaml"
    with open(big, "wb") as f:  # sparse: nothing on the disk
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(VoyageError, match="is 20,971,521 bytes: a table file may be at most 20 MB"):
        read_bytes(big, what="table file")
    assert read_bytes(big, what="table file", limit=MAX_FILE_BYTES + 1)[:1] == b"\0"
    small = tmp_path / "small.yaml"
    small.write_bytes(b"x" * 11)
    with pytest.raises(VoyageError, match="at most"):
        read_bytes(small, what="table file", limit=10)


def test_a_gzip_bomb_stops_at_the_limit() -> None:
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024))  # 64 KB that unpack to 64 MB
    started = time.perf_counter()
    with pytest.raises(VoyageError, match="map.gz unpacks to over 20 MB"):
        unpack_bytes(bomb, what="map.gz")
    assert time.perf_counter() - started < 5
    assert unpack_bytes(gzip.compress(b"rows: x"), what="map.gz") == b"rows: x"
    with pytest.raises(VoyageError, match="cut short"):
        unpack_bytes(gzip.compress(b"rows: x")[:-6], what="map.gz")


def test_a_write_over_a_pipe_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "tiers.yaml"
    os.mkfifo(fifo)
    with pytest.raises(TableError, match="is a pipe \\(FIFO\\): voyage writes a table file"):
        check_writable(fifo, "table file", TableError)
    check_writable(tmp_path / "absent.yaml", "table file", TableError)
    (tmp_path / "there.yaml").write_text("x")
    check_writable(tmp_path / "there.yaml", "table file", TableError)


# ----------------------------------------------------------------------------- YAML


@pytest.mark.parametrize("loader", LOADERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a: 1\nb: 2\na: 3\n", "t.yaml, line 3: the key 'a' is written twice (first on line 1)"),
        ("a:\n  x: 1\n  x: 1\n", "line 3: the key 'x' is written twice"),
        ("1: a\n1: b\n", "the key 1 is written twice"),
        ("x: " + "9" * 5000 + "\n", "t.yaml, line 1: a number of 5000 characters"),
        ("x: -" + "9" * 41 + "\n", "a number of 42 characters"),
        ("x: 1." + "9" * 5000 + "\n", "a number of 5002 characters"),
        ("? " + "9" * 5000 + "\n: a\n", "a number of 5000 characters"),
        ("x: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nesting depth over {MAX_DEPTH}"),
        (
            "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH)) + "  " * MAX_DEPTH + "v: 1\n",
            f"nesting depth over {MAX_DEPTH}",
        ),
    ],
)
def test_yaml_beyond_the_limits_is_refused_in_one_line(loader: type, text: str, says: str) -> None:
    with pytest.raises(TableError) as caught:
        _load(loader, text)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda c: c.__name__)
def test_yaml_within_the_limits_reads_as_safe_load_does(loader: type) -> None:
    text = (
        "base: &b {x: 1, y: 2}\nmerged:\n  <<: *b\n  y: 3\n"
        f"n: {'9' * 40}\nf: 1.5e3\nlist: {'[' * (MAX_DEPTH - 2)}1{']' * (MAX_DEPTH - 2)}\n"
    )
    assert _load(loader, text) == yaml.safe_load(text)
    for table in sorted(tables_dir().glob("*.yaml")):
        assert _load(loader, table.read_text()) == yaml.safe_load(table.read_text()), table


def test_every_bundled_map_and_campaign_reads_within_the_limits() -> None:
    campaigns = Path(__file__).parent.parent / "campaigns"
    files = sorted(campaigns.rglob("*.yaml"))
    assert files
    for file in files:
        text = read_text(file, what="file")
        assert load_yaml(text, source=str(file)) == yaml.safe_load(text), file


def test_the_loader_refuses_python_objects() -> None:
    with pytest.raises(yaml.YAMLError):
        yaml_loader("!!python/object/apply:os.system ['true']", source="t").get_single_data()
    with pytest.raises(VoyageError, match="not valid YAML"):
        load_yaml("!!python/object/apply:os.system ['true']", source="t.yaml")


def test_text_over_the_limit_is_refused_unparsed() -> None:
    with pytest.raises(TableError, match="stored.yaml is 2 MB: a YAML text may be at most 1 MB"):
        yaml_loader("#" * (2 * 1024 * 1024), source="stored.yaml", error=TableError, limit=2**20)


def test_a_map_with_a_duplicate_key_or_a_long_number_names_its_line() -> None:
    rows = "name: M\nrows: |\n  ###\n  #~#\n  ###\n"
    with pytest.raises(MapError, match=r"m.yaml, line 2, column 1: the map file: 'name' is given"):
        parse_map("name: M\nname: N\nrows: |\n  ###\n", "m.yaml")
    with pytest.raises(
        MapError, match=r"m.yaml, line 8: the key 'x' is written twice \(first on line 7\)"
    ):
        parse_map(rows + "notes:\n  x: 1\n  x: 2\n", "m.yaml")
    with pytest.raises(MapError, match="m.yaml, line 7: a number of 5000 characters"):
        parse_map(rows + 'hexes:\n  "0202": {depth: ' + "9" * 5000 + "}\n", "m.yaml")


# ----------------------------------------------------------------------------- the CLI


def _house_folder(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir()
    text = (tables_dir() / "tiers.yaml").read_text().replace("  4: 750", "  4: 900")
    (folder / "tiers.yaml").write_text(text)
    return folder


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "big", "duplicate"])
def test_a_bad_tiers_file_leaves_the_house_rules_loaded(tmp_path: Path, kind: str) -> None:
    """A pipe, a device, a 30 MB file or a duplicate key named tiers.yaml is refused in one
    line: it is never skipped, which would put the built-in tiers back."""
    runner = CliRunner()
    db = str(tmp_path / "c.db")
    ok(runner, "init", "--db", db, "--seed", "3")
    ok(runner, "tables", "load", str(_house_folder(tmp_path, "house")), "--db", db)
    before = db_contents(Path(db))
    bad = tmp_path / "bad"
    bad.mkdir()
    tiers = bad / "tiers.yaml"
    if kind == "fifo":
        os.mkfifo(tiers)
    elif kind == "dev_zero":
        tiers.symlink_to("/dev/zero")
    elif kind == "big":
        with open(tiers, "wb") as f:
            f.truncate(30 * 1024 * 1024)
    else:
        tiers.write_text("deadweight: {1: 1}\ndeadweight: {1: 2}\n")
    says = {
        "fifo": "is a pipe (FIFO), not a regular file",
        "dev_zero": "is a device, not a regular file",
        "big": "is 30 MB: a table file may be at most 256 KB",
        "duplicate": "line 2: the key 'deadweight' is written twice (first on line 1): keep one",
    }[kind]
    started = time.perf_counter()
    line = refused(runner, "tables", "load", str(bad), "--db", db)
    assert time.perf_counter() - started < 5
    assert str(tiers) in line and says in line, line
    assert db_contents(Path(db)) == before
    assert "tiers" in ok(runner, "tables", "show", "--db", db)


def test_tables_export_refuses_a_pipe_in_the_way_without_blocking(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "c.db")
    ok(runner, "init", "--db", db, "--seed", "3")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "names.yaml")
    before = db_contents(Path(db))
    done: list[str] = []

    def export() -> None:
        done.append(refused(runner, "tables", "export", str(out), "--all", "--force", "--db", db))

    worker = threading.Thread(target=export, daemon=True)
    worker.start()
    worker.join(10)
    assert done, "tables export blocked on a pipe"
    assert "names.yaml is a pipe (FIFO): voyage writes a table file only over a regular" in done[0]
    assert sorted(p.name for p in out.iterdir()) == ["names.yaml"]  # nothing written
    assert db_contents(Path(db)) == before


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("/dev/zero", "is a device, not a regular file: no campaign file here; point --db"),
        ("{tmp}/fifo.db", "is a pipe (FIFO), not a regular file: no campaign file here"),
        ("{tmp}/nothing.db", "does not exist: no campaign file here"),
    ],
)
def test_doctor_names_what_the_path_is(tmp_path: Path, target: str, says: str) -> None:
    os.mkfifo(tmp_path / "fifo.db")
    path = target.format(tmp=tmp_path)
    started = time.perf_counter()
    result = CliRunner().invoke(cli, ["doctor", "--db", path])
    assert time.perf_counter() - started < 5
    assert result.exit_code != 0, result.output
    assert says in result.output, result.output
    assert "Traceback" not in result.output
