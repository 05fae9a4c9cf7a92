"""The amended rulings R16, R36 and R37, in scenarios whose dice are forced.

R16: a ship enters a hex under power only with that hex's Fuel Use aboard; with less she
runs dry at its edge (adrift) and the remainder stays in her tanks.
R36: leaks (and fires, listings, sinkings) go on in port until repaired: the clock steps
such a ship in port as at sea; R86: in port a leak is repaired at once.
R37: the flooding thresholds hold at every moment: a ship that sails, or is loaded, with
water over DW/4 lists from minute 0, over DW/2 begins sinking at minute 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FaceRoller, ok, refused, trawler_at
from engine_helpers import run, ship, times, voyage, world

from voyage.engine.clock import Engine

# ----------------------------------------------------------------------------- R16


def test_a_ship_short_of_the_next_hexs_fuel_use_runs_dry_at_its_edge():
    # A Freighter VI/VII: Fuel Use 2 a hex (R16, Tier VI), speed 5 + 1 + 2 (Quarter) = 8.
    # With 3 hlbs she enters 0303 (3 - 2 = 1 left) and reaches the edge of 0403 at minute
    # 59 of hour 2 (4 miles in, 8 more to go at 8 knots): 1 < 2, so she stops there.
    s = ship(cls="freighter", tier=6, engine=7, fuel=3)
    st = voyage(s)
    result = run([st], seed=1, hours=4, halt=False)
    assert [r.hex for r in result.rows] == ["0202", "0303", "0303", "0303"]
    assert [r.fuel for r in result.rows] == [3, 1, 1, 1]  # the remainder stays in her tanks
    assert [r.miles for r in result.rows] == [8, 8, 8, 0]  # hour 2: up to the edge; then adrift
    assert [r.speed for r in result.rows][-1] == 0
    (dry,) = [e for e in result.events if e.event.kind == "fuel"]
    assert (dry.clock, dry.event.minute, dry.halt) == (2, 59, "out of fuel")
    assert dry.event.changes == {"fuel": 1, "adrift": True}
    assert "0403" in dry.event.text and "1 hlbs left" in dry.event.text
    assert st.position == 1 and st.progress == 12 and s.fuel == 1
    assert st.status == "adrift"  # R16 (amended): dry, she stays adrift until refuelled

    # with fuel aboard again and under way (`act weigh`) she enters the hex at once
    # (minute 0) and burns its Fuel Use
    s.fuel = 5
    st.status = "under way"
    later = run([st], seed=1, hours=1, start=4, halt=False)
    assert [(r.hex, r.fuel, r.miles) for r in later.rows] == [("0403", 3, 8)]
    assert st.position == 2 and st.progress == 8


def test_the_advance_stops_where_she_runs_dry():
    s = ship(cls="freighter", tier=6, engine=7, fuel=3)
    st = voyage(s)
    result = run([st], seed=1, hours=10)
    assert result.stopped == "Gull: out of fuel" and result.hours_run == 3


def test_exactly_the_fuel_use_aboard_enters_the_hex_and_empties_the_tanks():
    # R16: "at least that hex's Fuel Use": 2 hlbs aboard, Fuel Use 2 - she enters 0303
    s = ship(cls="freighter", tier=6, engine=7, fuel=2)
    st = voyage(s)
    result = run([st], seed=1, hours=3, halt=False)
    assert [(r.hex, r.fuel) for r in result.rows] == [("0202", 2), ("0303", 0), ("0303", 0)]
    assert times(result, "fuel") == [(1, 30)]  # 4 miles to go at 8 knots: minute 30
    assert st.progress == 0


# ----------------------------------------------------------------------------- R37


def test_sailing_with_water_over_a_quarter_of_deadweight_lists_from_minute_0():
    # Trawler IV: DW 750, a quarter 187.5. 200 hlbs aboard: she lists at minute 0 (not at
    # minute 59, when the hour's water would come in) and checks every 10 minutes.
    st = voyage(ship(cargo=100, water=200))
    roller = FaceRoller([20] * 5)  # every Check a natural 20: she stays upright
    result = Engine(world(), [st], roller).run(0, 1, halt=False)
    assert times(result, "listing") == [(0, 0)]
    assert times(result, "capsize") == [(0, 10), (0, 20), (0, 30), (0, 40), (0, 50)]
    assert roller.faces == [] and roller.sides_asked == [20] * 5
    assert {e.event.rolls[0].label for e in result.events if e.event.kind == "capsize"} == {
        "capsize check (listing)"
    }
    assert result.rows[0].status == "listing" and st.listing_since == 0


def test_sailing_with_water_over_half_deadweight_sinks_from_minute_0():
    # 400 hlbs > 375 (DW/2): sinking at minute 0; 3d6 = 3 + 4 + 5, + Tier 4 = 16 minutes
    # (a Full Load: not doubled, R40), so she is gone at minute 16 of the first hour.
    s = ship(cargo=100, water=400)
    st = voyage(s)
    result = Engine(world(), [st], FaceRoller([3, 4, 5])).run(0, 1, halt=False)
    assert times(result, "sinking") == [(0, 0)]
    assert times(result, "sunk") == [(0, 16)]
    assert result.rows[0].miles == 0 and st.status == "sunk"


def test_a_ship_loaded_with_water_at_sea_lists_at_minute_0_of_the_next_hour():
    # anchored mid-voyage, then loaded so (ship load --water): the next hour, minute 0
    s = ship(cargo=100)
    st = voyage(s, status="anchored", position=3)
    assert Engine(world(), [st], FaceRoller([])).run(0, 1, halt=False).events == []
    s.water = 190
    result = Engine(world(), [st], FaceRoller([20] * 5)).run(1, 1, halt=False)
    assert times(result, "listing") == [(1, 0)]


# ----------------------------------------------------------------------------- R36, R86


def test_a_leaking_ship_that_arrives_goes_on_flooding_in_port():
    # One hex short of East (1102) with a 30 hlbs/hour leak: she arrives at minute 20 of
    # hour 0 and the clock steps her in port (R36): 30 more hlbs each hour; above DW/10
    # (75) a capsize Check every hour at minute 0 (R37); above DW/4 (187.5) she lists.
    s = ship(cargo=100)
    st = voyage(s, position=9, progress=10, leaks=[30])
    roller = FaceRoller([20] * 4)
    result = Engine(world(), [st], roller).run(0, 7, halt=False)
    assert times(result, "arrived") == [(0, 20)]
    assert [r.hex for r in result.rows] == ["1102"] * 7
    assert [r.water for r in result.rows] == [30, 60, 90, 120, 150, 180, 210]
    assert [r.status for r in result.rows] == ["arrived"] * 6 + ["listing"]
    assert times(result, "capsize") == [(3, 0), (4, 0), (5, 0), (6, 0)]
    assert times(result, "listing") == [(6, 59)]
    assert roller.faces == []
    assert st.status == "arrived" and s.status == "in port" and st.active


def test_a_ship_in_port_without_trouble_is_not_stepped():
    st = voyage(ship(cargo=100), position=9, progress=10)
    result = run([st], seed=1, hours=3, halt=False)
    assert len(result.rows) == 1 and not st.active


def test_leaks_in_port_through_the_cli_until_repaired(runner: CliRunner, db: Path) -> None:
    # R36 end to end: holed at sea, she reaches Gullhaven leaking, floods there hour by
    # hour, and `act repair leak` in port mends every leak at once (R86) and ends her voyage.
    # a Freighter VIII (DW 2500): two small leaks stay under DW/10 all the way, so no
    # capsize Check interrupts the story
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "freighter", "--tier", "VIII", "--engine", "VIII")
    ok(runner, "ship", "load", "Gull", "--crew", "5", "--cargo", "100", "--fuel", "60")
    ok(runner, "ship", "place", "Gull", "0804")
    ok(runner, "sail", "Gull", "--to", "0305")
    ok(runner, "roll", "hull-hit", "Gull", "--weapon-mod", "2", "--apply")
    ok(runner, "roll", "hull-hit", "Gull", "--weapon-mod", "2", "--apply")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    leaks = row["leaks"]
    assert len(leaks) == 2 and all(3 <= leak <= 8 for leak in leaks)
    ok(runner, "advance", "--until", "arrival")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["voyage_status"] == "arrived" and row["hex"] == "0305"
    water = row["water"]
    ok(runner, "advance", "--hours", "2")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["water"] == water + 2 * sum(leaks)  # the clock steps her in port (R36)
    ship_row = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert ship_row["status"] == "in port"
    assert "voyage 1 is still open" in refused(runner, "sail", "Gull", "--to", "0804")
    out = ok(runner, "act", "Gull", "repair", "leak")
    assert "2 leaks" in out and "(R86)" in out and "voyage ends here" in out
    assert json.loads(ok(runner, "status", "--json"))["ships"] == []
    assert "Every ship is in port" in ok(runner, "advance")  # she is no longer stepped
    ok(runner, "sail", "Gull", "--to", "0804")


def test_at_sea_repair_leak_still_needs_a_number(runner: CliRunner, db: Path) -> None:
    trawler_at(runner, "0305", "Gull", crew=5, fuel=60)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "roll", "hull-hit", "Gull", "--weapon-mod", "2", "--apply")
    ok(runner, "roll", "hull-hit", "Gull", "--weapon-mod", "2", "--apply")
    assert "say which leak" in refused(runner, "act", "Gull", "repair", "leak")
    assert "Leak 2" in ok(runner, "act", "Gull", "repair", "leak", "2", "--now")


def test_water_loaded_at_sea_lists_at_minute_0_through_the_cli(runner: CliRunner, db: Path):
    trawler_at(runner, "0305", "Gull", crew=5, fuel=60)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "ship", "load", "Gull", "--water", "190")  # DW 750: over a quarter
    out = ok(runner, "advance", "--json")
    listing = [e for e in json.loads(out)["events"] if e["kind"] == "listing"]
    assert [(e["clock"], e["minute"]) for e in listing] == [(0, 0)]


def test_the_demo_mends_a_leaking_ship_in_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Holed with a 1 hlbs/hour leak as she sets out, with seed 26 she still reaches Ironport,
    # leaking; the demo, as a referee would, has the leak repaired at once in port (R86)
    # and her voyage ends there (R36).
    import voyage.actions.voyages
    import voyage.outputs.demo
    from voyage.outputs.demo import run_demo

    real_advance = voyage.actions.voyages.advance

    def holed_advance(camp, *args, **kwargs):  # type: ignore[no-untyped-def]
        for s in voyage.actions.voyages.open_voyages(camp):
            if not s.leaks and s.status == "under way":
                with camp.action("hull", "a test leak"):
                    s.open_leak(1)
                    voyage.actions.voyages.save_state(camp, s, camp.clock)
        return real_advance(camp, *args, **kwargs)

    monkeypatch.setattr(voyage.outputs.demo, "advance", holed_advance)
    lines: list[str] = []
    result = run_demo(str(tmp_path / "demo"), 26, echo=lines.append)
    assert result.summary["outcome"].startswith("arrived at Ironport")
    mended = [line for line in lines if "(R86)" in line]
    assert len(mended) == 1 and "1 leak (" in mended[0] and "voyage ends here" in mended[0]
