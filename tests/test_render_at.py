"""`voyage map render --at TIME`: the ships where they were at TIME, their tracks up to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ok, trawler_at


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each `map render` asked to draw (the picture itself is not made)."""
    import voyage.outputs.weatherplot as weatherplot

    calls: list[dict[str, Any]] = []

    def capture(sea_map: Any, sea: Any, hour: int, out: Any, **kw: Any) -> Path:
        calls.append({"hour": hour, **kw})
        return Path(out)

    monkeypatch.setattr(weatherplot, "render_weather", capture)
    return calls


def test_render_at_an_hour_gone_by_draws_the_ships_and_tracks_of_that_hour(
    runner, db: Path, tmp_path: Path, drawn: list[dict[str, Any]]
) -> None:
    from voyage.store.campaign import open_campaign
    from voyage.store.voyagelog import hour_rows

    trawler_at(runner, "0305", "Sea Witch", crew=5, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "20")
    camp = open_campaign(db)
    rows = hour_rows(camp, "Sea Witch")
    camp.close()
    then = next(r["hex"] for r in rows if r["clock"] == 5)  # where hour 05:00-06:00 left her
    now = rows[-1]["hex"]
    assert then != now

    ok(runner, "map", "render", "--out", str(tmp_path / "now.png"))
    ok(runner, "map", "render", "--out", str(tmp_path / "then.png"), "--at", "day 1, 06:00")
    current, past = drawn
    assert dict(current["ships"])["Sea Witch"] == now
    assert current["tracks"][0][1][-1] == now
    assert past["hour"] == 6
    assert dict(past["ships"])["Sea Witch"] == then
    (label, track) = past["tracks"][0]
    assert label == current["tracks"][0][0]
    assert track[0] == "0305" and track[-1] == then
    assert track == current["tracks"][0][1][: len(track)]  # the same way, cut at 06:00
    # before she sailed: in port, no track yet
    ok(runner, "map", "render", "--out", str(tmp_path / "first.png"), "--at", "day 1, 00:00")
    assert dict(drawn[2]["ships"])["Sea Witch"] == "0305" and drawn[2]["tracks"] == []
