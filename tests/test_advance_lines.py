"""What `voyage advance` prints: its lines in the order things happened (a storm cell that
formed at 06:00 among the ships' events, not after the hours' summaries), and the event an
``--until event`` stopped at named ("Stopped: an event." named none)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from conftest import add_trawler, ok

_TIMED = re.compile(r"^Day (\d+), (\d\d):(\d\d)  ")


def test_advance_prints_its_lines_in_time_order(runner: CliRunner, reach: Path) -> None:
    add_trawler(runner, "0305", "Gull", crew=5, fuel=60)
    ok(runner, "sail", "Gull", "--to", "2812")
    out = ok(runner, "advance", "--hours", "30").splitlines()
    timed = [(i, _TIMED.match(line)) for i, line in enumerate(out)]
    moments = [(i, tuple(int(x) for x in m.groups())) for i, m in timed if m]
    assert any("weather, " in out[i] for i, _ in moments), out  # a cell formed at 06:00
    assert [t for _, t in moments] == sorted(t for _, t in moments), out
    summary = next(i for i, line in enumerate(out) if line.startswith("  Gull: "))
    assert all(i < summary for i, _ in moments), out  # no line of the hours after them


def test_an_advance_stopped_at_an_event_names_it() -> None:
    from voyage.cli.voyages import _stopped_by
    from voyage.dice.events import Event, LoggedEvent
    from voyage.engine.clock import AdvanceResult

    result = AdvanceResult(10)
    result.hours_run, result.stopped = 3, "an event"
    quiet = LoggedEvent(1, "Gull", 12, Event("coast", "The coast is clear.", [], 5, {}))
    news = Event("hazard", "Rocks ahead. The lookout sees them in time.", [], 20, {})
    result.events = [quiet, LoggedEvent(1, "Gull", 12, news)]
    assert _stopped_by(result) == "an event: Gull: Rocks ahead"
