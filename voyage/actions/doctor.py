"""``voyage doctor``: check a campaign file without changing it.

Everything here reads the file through voyage.store.doctorreads (a read-only connection, one
read transaction) and never upgrades it, so a doctor can be called on any file, even one
that a newer voyage wrote or that is not a campaign at all. The checks, in order:

- the file: an SQLite database marked as a voyage campaign, of a version this voyage knows;
- ``PRAGMA integrity_check``: SQLite's own pages, indexes and records;
- the schema: every table and column the file's schema steps made is there;
- the campaign row, the dice state and the file's version record;
- every JSON column parses (a value edited by hand, a write cut short by a faulty disk),
  and every route (text since m106) is hex names and 0/1 inshore flags;
- every reference: a voyage at sea names a ship that exists, hours and events name voyages
  that exist, log rows name actions that exist (older actions may have been pruned);
- every foreign key (m190, voyage.store.foreignkeys) holds (``PRAGMA foreign_key_check``), and the
  keys an older campaign's rows kept from being declared are named, with those rows;
- the house tables kept in the campaign still validate, and every stored setting is one its
  option takes;
- the world within the limits newer voyage holds new things to (voyage.actions.doctor_world): the
  calendar, the map and its climates' seasons, ships at sea without a voyage, storms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voyage.actions.doctor_world import CHECKS, examine_world
from voyage.base.errors import VoyageError
from voyage.base.text import plural
from voyage.dice.roller import Roller
from voyage.map.routetext import INSHORE_GLOB, ROUTE_GLOB
from voyage.store.campaign import known_migrations
from voyage.store.campaignfile import (
    MAX_PER_CHECK,
    ROUTE_TEXT_STEP,
    FileInfo,
    Finding,
    inspect,
    path_problem,
    refuse_newer,
)
from voyage.store.doctorreads import FileReads, Unreadable, expected_schema, reading
from voyage.tables.rulebook import RuleBook, rulebook_from_texts, stored_option

#: Rows tagged with the action that made them (voyage.store.campaigndb LOG_TABLES and others).
ACTION_TAGGED = ["rolls", "hours", "events", "storms", "sea_map"]
#: Findings that say the file is not one to check (missing, a folder, not a campaign, from a
#: newer voyage), not that a campaign is damaged: a backup is not the answer to them.
NOT_DAMAGE = {"file", "version"}
#: Findings that say their own fix (a command to run), so no backup is offered for them.
OWN_FIX = CHECKS | {"settings"}
RECOVERY = (
    "To recover: restore the campaign from a backup copy (a copy of the file taken while no "
    "voyage command was running); for a corrupt file, SQLite's `.recover` command saves "
    "what is still readable."
)


@dataclass
class Report:
    """What the doctor found in one file."""

    path: Path
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def healthy(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "healthy": self.healthy,
            "findings": [f.__dict__ for f in self.findings],
            **self.facts,
        }


def examine(path: str | Path) -> Report:
    """Every check on the campaign file at ``path``; the file is not changed."""

    report = Report(Path(path))
    target = report.path
    what = path_problem(target)
    if what is not None:
        report.findings.append(
            Finding("file", str(target), f"{what}: no campaign file here; point --db at one")
        )
        return report
    try:
        info = inspect(target)
    except VoyageError as exc:
        problem = str(exc)  # "notes.txt is ...": the place is named once, as "where"
        problem = problem[len(f"{target} ") :] if problem.startswith(f"{target} ") else problem
        report.findings.append(Finding("file", str(target), problem))
        return report
    report.facts.update(
        schema_steps=len(info.applied),
        written_by=info.written_by,
        created_by=info.meta.get("created_by"),
    )
    try:
        refuse_newer(info, known_migrations())
    except VoyageError as exc:
        report.findings.append(Finding("version", "voyage_file", str(exc)))
        return report
    try:
        with reading(target) as reads:  # every check sees the same moment
            _integrity(reads, report)
            columns = _schema(reads, info, report)
            _campaign_row(reads, info, report)
            report.facts["json_values"] = reads.json_problems(columns, report.findings)
            _route_texts(reads, info, report.findings)
            _references(reads, info, report)
            _foreign_keys(reads, info, report)
            book = _house_tables(reads, info, report)
            if book is not None:
                _settings(reads, info, book, report)

            examine_world(reads, info, report)  # calendar, map, ships and storms: each its fix
    except Unreadable as exc:
        report.findings.append(Finding("integrity", str(target), f"SQLite cannot read it: {exc}"))
    return report


# ----------------------------------------------------------------------------- checks


def _integrity(reads: FileReads, report: Report) -> None:
    rows = reads.integrity()
    report.facts["integrity"] = "ok" if rows == ["ok"] else "damaged"
    if rows != ["ok"]:
        for row in rows[:MAX_PER_CHECK]:
            report.findings.append(Finding("integrity", str(report.path), row))


def _schema(reads: FileReads, info: FileInfo, report: Report) -> dict[str, list[str]]:
    expected = expected_schema(info.applied)
    report.facts["tables"] = len(expected)
    for table, columns in expected.items():
        if table not in info.tables:
            report.findings.append(Finding("schema", table, "table is missing"))
            continue
        have = reads.columns(table)
        for column in columns:
            if column not in have:
                report.findings.append(Finding("schema", f"{table}.{column}", "column is missing"))
    return reads.json_columns(info.tables, info.applied)


def _route_texts(reads: FileReads, info: FileInfo, out: list[Finding]) -> None:
    """Since m106 a route is hex names separated by spaces, its inshore flags 0s and 1s
    (voyage.map.routetext)."""

    if "voyage_routes" not in info.tables or ROUTE_TEXT_STEP not in info.applied:
        return
    for col, glob, what in (
        ("route", ROUTE_GLOB, "not hex names separated by spaces"),
        ("inshore", INSHORE_GLOB, "not one 0 or 1 per hex"),
    ):
        for vid in reads.routes_not_text(col, glob):
            out.append(Finding("route", f"voyage_routes.{col} of voyage {vid!r}", what))


def _campaign_row(reads: FileReads, info: FileInfo, report: Report) -> None:

    if "campaign" not in info.tables:
        return
    rows = reads.campaign_rows()
    if not any(r[0] == 1 for r in rows):
        report.findings.append(
            Finding("campaign", "campaign", "the campaign row (name, seed, clock, dice) is gone")
        )
        return
    _, clock, state, key = next(r for r in rows if r[0] == 1)
    report.facts["clock"] = clock
    if not isinstance(clock, int) or clock < 0:
        report.findings.append(Finding("campaign", "campaign.clock", f"{clock!r} is not an hour"))
    try:
        Roller.from_saved(state, key)
    except (ValueError, TypeError, IndexError, AttributeError):
        report.findings.append(
            Finding("campaign", "campaign.rng_state", "the dice state cannot be restored")
        )
    if "voyage_file" in info.tables and not info.written_by:
        report.findings.append(
            Finding("campaign", "voyage_file", "the record of which voyage wrote it is gone")
        )


def _references(reads: FileReads, info: FileInfo, report: Report) -> None:
    # hours: a view of hour_days since m102, its rows named by id (the old table's rowid)
    tables = info.tables | ({"hours"} if "hour_days" in info.tables else set())
    found = report.findings
    if {"voyages", "ships"} <= tables:
        for vid, ship in reads.voyages_missing_ship():
            found.append(Finding("reference", f"voyages row {vid}", f"ship {ship!r} is gone"))
    if "voyages" in tables:
        for table in ("hours", "events"):
            if table not in tables:
                continue
            for rowid in reads.rows_missing_voyage(table):
                found.append(Finding("reference", f"{table} row {rowid}", "its voyage is gone"))
    if {"people", "ships"} <= tables:
        # R70: a named person aboard names a ship of the campaign
        for pid, ship in reads.people_missing_ship():
            found.append(Finding("reference", f"people row {pid}", f"ship {ship!r} is gone"))
    if {"floaters", "voyages"} <= tables:
        for rowid in reads.rows_missing_voyage("floaters"):
            found.append(Finding("reference", f"floaters row {rowid}", "its voyage is gone"))
    if "actions" in tables:
        lowest = reads.lowest_action()
        # pruned actions are the oldest: a row naming an action at or after the oldest kept
        # one must find it
        for table in ACTION_TAGGED:
            if lowest is None or table not in tables:
                continue
            for rowid in reads.rows_missing_action(table, lowest):
                found.append(Finding("reference", f"{table} row {rowid}", "its action is gone"))
    if {"hours", "campaign"} <= tables:
        late = reads.hours_at_or_after_clock()
        if late:
            found.append(
                Finding(
                    "reference", "hours", f"{plural(late, 'hour')} logged at or after the clock"
                )
            )


def _foreign_keys(reads: FileReads, info: FileInfo, report: Report) -> None:
    """Rows that break a declared key (a hand edit made with keys off), and keys left
    undeclared because rows pointed at missing parents when the campaign was upgraded."""

    if "m190_foreign_keys" not in info.applied:
        return
    seen = {f.where for f in report.findings}
    listed: dict[tuple[str, str], int] = {}
    for table, rowid, parent, _ in reads.key_violations():
        where = f"{table} row {rowid}"
        if listed.get((table, parent), 0) >= MAX_PER_CHECK:
            continue  # enough of its kind listed
        listed[(table, parent)] = listed.get((table, parent), 0) + 1
        if table == "hour_days":  # hours a ship-day to a row (m102): named as hours
            hours = reads.packed_hours(rowid)
            if any(f"hours row {h}" in seen for h in hours):
                continue  # named by a check above
            where = f"hours row {hours[0]}" if hours else where
        if where in seen:
            continue  # named by a check above
        seen.add(where)
        report.findings.append(
            Finding("reference", where, f"the {parent} row it points at is gone")
        )
    notes = []
    for fk, count in reads.undeclared_keys():
        rows = plural(count, "row")
        notes.append(f"{fk.name} not declared ({rows} pointing at missing {fk.parent})")
        pruned = fk.parent == "actions" and reads.only_pruned(fk)
        if count and not pruned:
            report.findings.append(
                Finding(
                    "reference",
                    f"{fk.child}.{fk.column}",
                    f"{rows} point at {fk.parent} rows that are gone: kept as they are; the "
                    "foreign key is not declared while they do",
                )
            )
    report.facts["keys_not_declared"] = notes


def _house_tables(reads: FileReads, info: FileInfo, report: Report) -> RuleBook | None:
    """The campaign's rule book (its house tables over the built-in ones), or None when
    they no longer validate (a finding)."""
    texts: dict[str, str] = {}
    if "house_tables" in info.tables:
        texts = reads.house_table_texts()
        report.facts["house_tables"] = sorted(texts)
    try:
        return rulebook_from_texts(texts, {n: f"house table {n}.yaml" for n in texts})
    except VoyageError as exc:
        report.findings.append(Finding("tables", "house_tables", str(exc)))
        return None


def _settings(reads: FileReads, info: FileInfo, book: RuleBook, report: Report) -> None:
    """Every stored setting read as a command reads it (voyage.tables.rulebook.stored_option):
    one a hand edit left that no option takes is named, with the command that sets it. A
    value that is not JSON at all is the JSON check's finding, named once."""
    if "settings" not in info.tables:
        return
    named = {f.where for f in report.findings if f.check == "json"}
    for key, stored in reads.settings_rows():
        if key in book.options and f"settings.value of key {key!r}" not in named:
            try:
                stored_option(key, book.options[key], stored)
            except VoyageError as exc:
                report.findings.append(Finding("settings", str(key), str(exc)))


def summary(report: Report) -> str:
    """The report as text for a person."""
    said = report.facts.get("keys_not_declared", []) + report.facts.get("world_notes", [])
    notes = [f"  note: {n}" for n in said]
    if report.healthy:
        f = report.facts
        return "\n".join(
            [
                f"{report.path}: healthy (integrity ok; schema version {f.get('schema_steps')}, "
                f"written by voyage {f.get('written_by') or 'before 0.1'}; {f.get('tables')} "
                f"tables; {f.get('json_values')} JSON values checked; references ok)",
                *notes,
            ]
        )
    n = len(report.findings)
    lines = [f"{report.path}: {n} problem{'s' if n != 1 else ''}"]
    lines += [f"  {finding.line()}" for finding in report.findings] + notes

    if any(f.check not in NOT_DAMAGE | OWN_FIX for f in report.findings):
        lines.append(RECOVERY)
    return "\n".join(lines)
