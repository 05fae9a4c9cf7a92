"""SIGTERM and SIGHUP (a closed terminal, `timeout`, a process manager) stop a command as
Ctrl-C does (voyage.base.stopsignals): the campaign rolled back or committed whole, the hidden
temporary files of a file being written removed (voyage.base.atomicfile), one line saying
whether the campaign changed, exit status 128 + the signal's number.

The commands run in real processes started as the console script starts them
(voyage.entry:main). A signal is sent while a file is being written by watching the output
folder for the temporary ``.part`` file and signalling as soon as it appears (the PNG of an
export takes a good part of a second to draw into it); a signal that lands too late (the
files already in place) is simply tried again.
"""

from __future__ import annotations

import gc
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, trawler_at

from voyage.cli import cli

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

#: the console script's code (voyage.entry:main), as pip's wrapper runs it
VOYAGE = [sys.executable, "-c", "import sys; from voyage.entry import main; sys.exit(main())"]
SIGNALS = [signal.SIGTERM, signal.SIGHUP] if hasattr(signal, "SIGHUP") else []
TRIES = 6


def _parts(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".part"))


def _export_stopped(folder: Path, signum: int, ignore_hup: bool = False) -> tuple[int, str]:
    """Run an export of the PNG, Markdown and JSON into ``folder``; send ``signum`` as soon
    as its first temporary file appears. Its exit status and what it wrote on stderr."""
    args = [
        "export",
        "Sea Witch",
        "-f",
        "png",
        "-f",
        "md",
        "-f",
        "json",
        "--out",
        "witch",
        "--for",
        "referee",
    ]

    def ignoring_hup() -> None:  # as `nohup` starts a command
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    child = subprocess.Popen(
        [*VOYAGE, *args],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=ignoring_hup if ignore_hup else None,
    )
    while child.poll() is None:
        if _parts(folder):
            child.send_signal(signum)
            break
    _, err = child.communicate(timeout=60)
    return child.returncode, err.decode()


@pytest.fixture
def out_folder(runner: CliRunner, db: Path, tmp_path: Path) -> Path:
    """The Sea Witch 6 hours out of Gullhaven on the Salt Reach; an empty folder to export to."""
    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "6")
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_stop_signal_while_an_export_is_written_leaves_nothing_and_says_one_line(
    out_folder: Path, signum: int
) -> None:
    for _ in range(TRIES):
        status, err = _export_stopped(out_folder, signum)
        assert _parts(out_folder) == [], "a stopped export left its temporary file"
        if status == 0:  # the signal came after the files were in place: try again
            for name in os.listdir(out_folder):
                (out_folder / name).unlink()
            continue
        name = signal.Signals(signum).name
        assert (status, err) == (
            128 + signum,
            f"Error: interrupted ({name}): the campaign was not changed\n",
        )
        # all the files or none (voyage.base.atomicfile: a signal while they are put in place
        # waits till they all are)
        assert sorted(os.listdir(out_folder)) in ([], ["witch.json", "witch.md", "witch.png"])
        return
    pytest.fail(f"no export was stopped while writing in {TRIES} tries")


def test_sighup_ignored_as_nohup_starts_a_command_stays_ignored(out_folder: Path) -> None:
    status, err = _export_stopped(out_folder, signal.SIGHUP, ignore_hup=True)
    assert (status, err) == (0, "")
    assert sorted(os.listdir(out_folder)) == ["witch.json", "witch.md", "witch.png"]


def _campaign_rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table but ``actions`` (its ``at`` is the wall clock); the
    connection closed at once (one left open would see the file replaced under it)."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            n: sorted(conn.execute(f"SELECT * FROM [{n}]").fetchall(), key=repr)
            for n in names
            if n != "actions"
        }
    finally:
        conn.close()


def test_a_sigterm_during_an_advance_leaves_it_whole_and_says_which(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    """Before or after, never between; and the one line tells which (R: DESIGN, one
    transaction per advance)."""
    ok(runner, "settings", "encounter_interval", "0")  # no encounter stops the advance
    for name, start, to in (("Sea Witch", "0305", "2812"), ("Gull", "2420", "0419")):
        trawler_at(runner, start, name=name, crew=5, fuel=60, cargo=200)
        ok(runner, "sail", name, "--to", to, "--inshore")
    gc.collect()  # the commands' connections closed, their writes in the file itself
    base = db.read_bytes()
    work = tmp_path / "work.db"  # a copy no connection of this process has open
    args = [*VOYAGE, "advance", "--hours", "60", "--db", str(work)]

    def fresh() -> None:
        for suffix in ("-wal", "-shm", "-journal"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)
        work.write_bytes(base)

    fresh()
    before = _campaign_rows(work)
    started = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    duration = time.perf_counter() - started
    after = _campaign_rows(work)
    assert after != before
    rng = random.Random(25)
    seen: set[str] = set()
    for _ in range(8):
        fresh()
        child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.2, 1.0) * duration)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
        conn = sqlite3.connect(work)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        now = _campaign_rows(work)
        assert now in (before, after), "a stopped advance left a half-applied campaign"
        if child.returncode == 0:
            assert now == after
            seen.add("finished")
        elif child.returncode == -signal.SIGTERM:
            # still starting, or the command done and Python shutting down: as before
            assert err == b""
            seen.add("default")
        else:
            said = "the campaign was not changed" if now == before else "after the change was saved"
            assert child.returncode == 143 and err.decode().count("\n") == 1, err
            assert err.decode().startswith("Error: interrupted (SIGTERM)") and said in err.decode()
            seen.add("stopped")
    print("SEEN", seen)
    assert "stopped" in seen, seen


def test_a_stop_signal_during_start_up_is_never_a_traceback(db: Path) -> None:
    """From the moment the net is up (voyage.entry), a SIGTERM is one line; before it,
    the process ends silently; after the command, it ends as it would have."""
    rng = random.Random(4)
    statuses: set[int] = set()
    # twelve signals early in start-up, then, on a loaded machine where start-up is slower,
    # later ones until one lands once the net is up
    delays = [rng.uniform(0.0, 0.15) for _ in range(12)]
    delays += [rng.uniform(0.1, 0.3) * 1.25**n for n in range(16)]
    for n, delay in enumerate(delays):
        if n >= 12 and 143 in statuses:
            break
        child = subprocess.Popen(
            [*VOYAGE, "status"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        time.sleep(delay)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
        statuses.add(child.returncode)
        assert b"Traceback" not in err and err.count(b"\n") <= 1, err
        if child.returncode == 143:
            assert err == b"Error: interrupted (SIGTERM): the campaign was not changed\n"
        else:
            assert child.returncode in (0, -signal.SIGTERM) and err == b""
    assert statuses & {143}, statuses


def test_a_signal_wrapped_by_a_class_being_made_is_still_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Python 3.11 wraps an exception raised in ``__set_name__`` (a SIGTERM landing while
    ``ipaddress`` loads) in a RuntimeError: the console script still says one line, 143."""
    import voyage.cli
    from voyage import entry
    from voyage.base import stopsignals

    def loading_when_the_signal_lands() -> None:
        stopsignals.received = int(signal.SIGTERM)
        try:
            raise stopsignals.Stopped(int(signal.SIGTERM))
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'cached_property'") from exc

    monkeypatch.setattr(voyage.cli, "main", loading_when_the_signal_lands)
    with pytest.raises(SystemExit) as stop:
        entry.main()
    assert stop.value.code == 128 + signal.SIGTERM
    err = capsys.readouterr().err
    assert "SIGTERM" in err and err.count("\n") == 1 and "Traceback" not in err

    # an error that is no signal's stays what it is
    def broken() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(voyage.cli, "main", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        entry.main()


def test_ctrl_c_while_help_is_written_is_one_line(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --help is answered while click parses (not in a command): click would say "Aborted!"
    from voyage.cli import LazyGroup

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LazyGroup, "format_commands", interrupted)
    result = runner.invoke(cli, ["--help"])
    assert (result.exit_code, result.output) == (
        130,
        "Error: interrupted (Ctrl-C): the campaign was not changed\n",
    )


def test_a_signal_just_after_the_commit_counts_the_change_as_saved(
    runner: CliRunner, db: Path
) -> None:
    """The COMMIT went through and the signal came before the count of commits: the change
    stays, and the command line is told it was saved
    (voyage.store.campaigndb.Campaign.transaction)."""
    import voyage.store.campaigndb
    from voyage.store.campaign import open_campaign

    class SignalAfterCommit:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self._conn = conn

        def __getattr__(self, name: str) -> object:
            return getattr(self._conn, name)

        def execute(self, sql: str, *args: object) -> object:
            out = self._conn.execute(sql, *args)
            if sql == "COMMIT":
                raise KeyboardInterrupt
            return out

    camp = open_campaign(db)
    counted = voyage.base.stopsignals.commits
    real = camp.db.conn
    camp.db.conn = SignalAfterCommit(real)  # type: ignore[assignment]
    try:
        with pytest.raises(KeyboardInterrupt), camp.transaction():
            real.execute("UPDATE campaign SET name = 'Changed' WHERE id = 1")
    finally:
        camp.db.conn = real
        camp.close()
    assert voyage.base.stopsignals.commits == counted + 1
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT name FROM campaign").fetchone()[0] == "Changed"
    conn.close()


# sqlite_utils.cli (imported by other tests) turns SQLite's callback tracebacks on: the
# exception raised in the authorizer is then reported as well as swallowed
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_signal_inside_the_undo_journals_authorizer_is_not_lost(
    runner: CliRunner, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite calls the undo journal's authorizer (voyage.store.lazyjournal) while it prepares
    each statement; a signal's exception raised in there cannot leave it, and SQLite says
    "not authorized" instead, which the journal reads as its own refusal of a table whose
    triggers are not made yet (it makes them and runs the statement again). The interrupt
    is raised again instead: one line, nothing changed."""
    from voyage.base import stopsignals
    from voyage.store import lazyjournal

    trawler_at(runner, "0305", crew=5, fuel=60, cargo=100)
    before = _campaign_rows(db)
    real = lazyjournal.LazyJournal._authorize
    refused: list[str] = []

    def signalled(self: lazyjournal.LazyJournal, code: int, table: str, *rest: object) -> int:
        verdict = real(self, code, table, *rest)
        if verdict == sqlite3.SQLITE_DENY and not refused:  # the signal comes just then
            refused.append(table)
            stopsignals.received = signal.SIGTERM  # as the handler (stopsignals._stop) does
            raise stopsignals.Stopped(signal.SIGTERM)
        return verdict

    monkeypatch.setattr(stopsignals, "received", None)
    monkeypatch.setattr(lazyjournal.LazyJournal, "_authorize", signalled)
    result = runner.invoke(cli, ["sail", "Sea Witch", "--to", "2812"])
    assert refused, "no statement was refused: the test did not reach the authorizer"
    assert (result.exit_code, result.output) == (
        143,
        "Error: interrupted (SIGTERM): the campaign was not changed\n",
    )
    assert _campaign_rows(db) == before


def test_a_stop_signal_to_the_whole_group_ends_a_parallel_forecast_at_once(db: Path) -> None:
    """A closed terminal or `timeout` signals the forecast's workers too: one might die
    holding a lock of the pool's queues, and a parent closing its pool would wait for it
    for ever. The runs are in memory: the parent kills its workers and ends at once."""
    runner = CliRunner()
    trawler_at(runner, "0305", crew=5, fuel=60)
    args = [*VOYAGE, "forecast", "Sea Witch", "--to", "2812", "--runs", "100000", "--workers", "2"]
    rng = random.Random(9)
    for _ in range(6):
        child = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        time.sleep(rng.uniform(0.3, 0.9))
        os.killpg(child.pid, signal.SIGTERM)
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover - the failure this prevents
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail("the forecast hung after SIGTERM")
        # a long forecast may first say how long it will take ("About 30 s for ...")
        said = b"".join(line for line in err.splitlines(True) if not line.startswith(b"About "))
        assert (child.returncode, said) == (
            143,
            b"Error: interrupted (SIGTERM): the campaign was not changed\n",
        ) or (child.returncode, said) == (-signal.SIGTERM, b"")  # still starting


def test_an_interrupt_the_moment_a_temporary_file_is_made_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal the export test sends as soon as a ``.part`` file appears can land
    inside FileBatch.add, just after the file is made: it is staged first, so removed."""
    from voyage.base import atomicfile

    target = tmp_path / "log.md"
    target.write_text("the old log\n")  # an existing file: add() copies its permissions

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomicfile.os, "chmod", interrupted)
    with pytest.raises(KeyboardInterrupt), atomicfile.FileBatch() as batch:
        batch.add(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.md"]
    assert target.read_text() == "the old log\n"


def test_a_signal_while_the_files_are_put_in_place_waits_till_all_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FileBatch.commit renames its files one by one: a SIGTERM (or Ctrl-C) in between is
    held (stopsignals.held) and raised once every file is in place."""
    from voyage.base import atomicfile, stopsignals

    monkeypatch.setattr(stopsignals, "_PID", [os.getpid()])  # as install() records it
    monkeypatch.setattr(stopsignals, "received", None)
    real = atomicfile.FileBatch._place
    calls: list[Path] = []

    def place_then_signal(self: atomicfile.FileBatch, temp: Path, target: Path) -> None:
        real(self, temp, target)
        calls.append(target)
        if len(calls) == 1:
            stopsignals._stop(signal.SIGTERM, None)  # the handler, as the signal runs it

    monkeypatch.setattr(atomicfile.FileBatch, "_place", place_then_signal)
    files = {tmp_path / f"log.{ext}": f"{ext}\n" for ext in ("md", "csv", "json")}
    with pytest.raises(stopsignals.Stopped):
        atomicfile.FileBatch().write_texts(files, RuntimeError)
    assert len(calls) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv", "log.json", "log.md"]
    assert (tmp_path / "log.json").read_text() == "json\n"
