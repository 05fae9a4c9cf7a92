"""Files the referee names are written whole or not at all (voyage/atomicfile.py): a write
that fails or is interrupted half-way leaves no partial file and no temporary file, an
older file replaced with --force stays as it was, and an export of several formats puts
none of them in place unless all were written."""

from __future__ import annotations

import builtins
import errno
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ok, refused
from written_voyage import SHIP, make_voyage

from voyage.base import atomicfile
from voyage.base.atomicfile import FileBatch
from voyage.cli import cli
from voyage.store.campaign import create_campaign

FULL = OSError(errno.ENOSPC, "No space left on device")


def hidden(folder: Path) -> list[str]:
    """The hidden files in ``folder`` (a temporary file left behind would be one)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def fail_text_writes(
    monkeypatch: pytest.MonkeyPatch, after: int = 0, error: BaseException = FULL
) -> None:
    """The (after + 1)-th text file voyage.base.atomicfile writes fails half-way through."""
    opened = [0]

    def half_open(path: Any, mode: str = "r", **kw: Any) -> Any:
        handle = builtins.open(path, mode, **kw)  # noqa: SIM115 - returned to a with
        opened[0] += 1
        if opened[0] <= after:
            return handle
        real_write = handle.write

        def write(text: str) -> int:
            real_write(text[: len(text) // 2])
            handle.flush()
            raise error

        handle.write = write
        return handle

    monkeypatch.setattr(atomicfile, "open", half_open, raising=False)


def fail_pictures(monkeypatch: pytest.MonkeyPatch, error: BaseException = FULL) -> None:
    """Every matplotlib picture fails half-way through being saved."""
    from matplotlib.figure import Figure

    def half_save(self: Any, fname: Any, *args: Any, **kw: Any) -> None:
        with builtins.open(fname, "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\nhalf a picture")
        raise error

    monkeypatch.setattr(Figure, "savefig", half_save)


# ----------------------------------------------------------------------------- the helper


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "log.md"
    target.write_text("the old log\n")
    fail_text_writes(monkeypatch)
    with pytest.raises(OSError):
        atomicfile.write_text(target, "the new log\n" * 100)
    assert target.read_text() == "the old log\n"
    assert hidden(tmp_path) == []


def test_an_interrupted_batch_puts_nothing_in_place(tmp_path):
    done = tmp_path / "a.md"
    with pytest.raises(KeyboardInterrupt), FileBatch() as batch:
        batch.add(done).write_text("complete")
        batch.add(tmp_path / "b.csv").write_text("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_without_force_a_file_made_meanwhile_is_kept(tmp_path):
    """The name was free when checked; another program wrote it before the rename."""
    target = tmp_path / "card.png"
    batch = FileBatch(force=False)
    batch.add(target).write_text("ours")
    target.write_text("theirs")
    with pytest.raises(FileExistsError, match="--force"):
        batch.commit()
    assert target.read_text() == "theirs"
    assert hidden(tmp_path) == []


def test_permissions_and_links_are_kept_and_devices_written_directly(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    atomicfile.write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    atomicfile.write_text(os.devnull, "into nothing")  # not replaced by a regular file
    assert not Path(os.devnull).is_file()
    assert hidden(tmp_path) == []


def test_a_temporary_file_of_a_killed_write_is_cleared_by_the_next(tmp_path):
    target = tmp_path / "log.md"
    stale = tmp_path / f".log.md.{2**22 + 12345}-deadbeef.part"  # no such process
    stale.write_text("half")
    atomicfile.write_text(target, "whole")
    assert target.read_text() == "whole" and hidden(tmp_path) == []


# ----------------------------------------------------------------------------- export


@pytest.fixture
def voyage_db(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.db"
    camp = create_campaign(path, "The Salt Reach", 7)
    make_voyage(camp)
    camp.close()
    return path


def export(db: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["export", "--db", str(db), SHIP, *args], catch_exceptions=False)


def test_an_export_failing_half_way_writes_no_format_and_keeps_the_old_files(
    voyage_db, tmp_path, monkeypatch
):
    out = tmp_path / "out"
    out.mkdir()
    fail_text_writes(monkeypatch, after=1)  # md is written whole, csv fails half-way
    result = export(voyage_db, "-f", "md", "-f", "csv", "--out", str(out / "log"))
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "no space left" in result.output
    assert "written: nothing" in result.output
    assert list(out.iterdir()) == []  # not even the complete Markdown: nothing to --force
    monkeypatch.undo()
    assert export(voyage_db, "-f", "md", "-f", "csv", "--out", str(out / "log")).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    fail_text_writes(monkeypatch, after=1)
    result = export(voyage_db, "-f", "md", "-f", "csv", "--out", str(out / "log"), "--force")
    assert result.exit_code == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_an_interrupted_picture_export_leaves_nothing(voyage_db, tmp_path, monkeypatch):
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.export import load_voyage
    from voyage.outputs.handouts import write_exports
    from voyage.store.campaign import open_campaign

    camp = open_campaign(voyage_db)
    log = load_voyage(camp, SHIP)
    camp.close()
    sea_map = load_map(bundled_campaign("salt_reach"))
    out = tmp_path / "pictures"
    out.mkdir()
    fail_pictures(monkeypatch, KeyboardInterrupt())  # Ctrl-C while the PNG is saved
    with pytest.raises(KeyboardInterrupt):
        write_exports(log, ["png", "md", "html"], out / "witch", sea_map=sea_map)
    assert list(out.iterdir()) == []
    monkeypatch.undo()
    # the page embeds the picture of the same export, read before it is put in place
    write_exports(log, ["png", "html"], out / "witch", sea_map=sea_map)
    assert sorted(p.name for p in out.iterdir()) == ["witch.html", "witch.png"]
    assert 'src="data:image/png;base64,' in (out / "witch.html").read_text()


# ----------------------------------------------------------------------------- the others


def test_journal_card_and_map_keep_the_old_file_when_the_write_fails(
    runner, db, tmp_path, monkeypatch
):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Sea Witch", "--class", "trawler", "--tier", "4", "--engine", "3")
    folder = tmp_path / "files"
    folder.mkdir()
    journal, card, chart = folder / "j.md", folder / "card.png", folder / "map.png"
    for path in (journal, card, chart):
        path.write_bytes(b"the old file")
    fail_text_writes(monkeypatch)
    fail_pictures(monkeypatch)
    for args in (
        ["journal", "--out", str(journal)],
        ["ship", "card", SHIP, "--out", str(card)],
        ["map", "render", "--out", str(chart)],
    ):
        message = refused(runner, *args, "--force")
        assert "cannot write" in message and "\n" not in message.strip()
    assert [p.read_bytes() for p in (journal, card, chart)] == [b"the old file"] * 3
    assert hidden(folder) == []


def test_tables_export_failing_half_way_writes_no_table(tmp_path, monkeypatch):
    path = tmp_path / "c.db"
    assert CliRunner().invoke(cli, ["init", "--db", str(path)]).exit_code == 0
    out = tmp_path / "tables"
    fail_text_writes(monkeypatch, after=3)
    message = refused(CliRunner(), "tables", "export", str(out), "--all", "--db", str(path))
    assert "no space left" in message.lower() and "written: nothing" in message
    assert not out.exists()  # the folder it made is gone again


def test_forecast_plot_keeps_the_old_picture(runner, db, tmp_path, monkeypatch):
    from voyage.base.errors import MapError
    from voyage.outputs.forecast_plot import plot_forecast

    picture = tmp_path / "f.png"
    picture.write_bytes(b"the old picture")
    fail_pictures(monkeypatch)
    data = {
        "route": ["0305", "0405"],
        "stops": [],
        "chances": {"lost": {"chance": 0}},
        "ship": SHIP,
        "from": "0305",
        "to": "0405",
        "runs": 1,
        "seed": 1,
    }
    from voyage.map.seamap import bundled_campaign, load_map

    class Setup:
        clock = 0

    with pytest.raises(MapError, match="cannot write"):
        plot_forecast(load_map(bundled_campaign("salt_reach")), Setup(), data, [], picture)
    assert picture.read_bytes() == b"the old picture" and hidden(tmp_path) == []
