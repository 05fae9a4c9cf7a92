"""The doctor command: check a campaign file without changing it."""

from __future__ import annotations

import click

from voyage.cli.common import db_option, emit_json, handles_errors, json_option


@click.command()
@db_option
@json_option
@handles_errors
def doctor(db_path: str, as_json: bool) -> None:
    """Check a campaign file: integrity, schema, JSON, references, tables, calendar, map.

    Also what newer voyage refuses when it comes in: a calendar beyond the limits, seasons
    the climates lack, a ship at anchor with no voyage, a storm no command makes; each
    line names its fix.

    The file is only read (never upgraded or repaired), so any file can be checked, even
    one a newer voyage wrote. Exit status 0 when the campaign is healthy, 1 when something
    was found; each finding names the check, the place and the problem.

    Examples:

        voyage doctor

        voyage doctor --db old-campaign.db --json
    """
    from voyage.actions.doctor import examine, summary
    from voyage.store.campaign import resolve_path

    report = examine(resolve_path(db_path))
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(summary(report))
    if not report.healthy:
        raise SystemExit(1)
