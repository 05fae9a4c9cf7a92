"""Built boats sail: R81's figures in the engine, R82's speed and power, oars.

The power costs below are typed from R82 (the seed: "at 30 mph, it costs 12 units to go 10
miles, at 50 mph it costs 16 units"; a 12-mile hex 1.2 times that, fractions kept), not
read from tables/boats.yaml.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from engine_helpers import OPEN_ROUTE, run
from engine_helpers import voyage as _voyage

from voyage.tables.boatdesigns import sample_spec, spec_from_options
from voyage.tables.rulebook import load_rulebook
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import charge, set_charge
from voyage.vessels.boatships import make_built_ship

BOOK = load_rulebook()
# a long open leg: the channel's row 3 there and back again, ending in the east port
LONG_ROUTE = OPEN_ROUTE[:-1] + OPEN_ROUTE[-3:0:-1] + OPEN_ROUTE[1:]


def boat(design: str | dict[str, Any] = "Moray", pace: str = "normal", **aboard: Any):
    spec = sample_spec(design, BOOK.boats) if isinstance(design, str) else design
    b = make_built_ship("Fox", spec, BOOK)
    b.pace = pace
    for key, value in aboard.items():
        if key == "charge":
            set_charge(b, value)
        else:
            setattr(b, key, value)
    b.hex, b.status = "0202", "at sea"
    return b


def voyage(b: Any, route: list[str], **state: Any) -> Any:
    return _voyage(b, route, pace=b.pace, **state)  # the pace set in port (`voyage pace`)


@pytest.mark.parametrize(
    ("mph", "per_hex", "hexes"),
    [
        (20, Fraction(12), 1),
        (25, Fraction(12), 2),
        (30, Fraction(72, 5), 2),
        (50, Fraction(96, 5), 4),
    ],
)
def test_power_per_hex_is_r82_exactly(mph: int, per_hex: Fraction, hexes: int) -> None:
    # R82: 10 units a 10 miles up to 20 mph, +2 a FULL 10 mph above (25 mph costs as 20);
    # a 12-mile hex 1.2 times that: 12, 14.4, 19.2 units at 20, 30, 50 mph
    b = boat(pace=f"{mph}mph")
    assert shipfig.fuel_use(b, BOOK) == per_hex
    st = voyage(b, LONG_ROUTE)
    result = run([st], seed=1, hours=1, halt=False)
    assert result.rows[0].speed == mph and st.position == hexes
    assert charge(b) == 200 - hexes * per_hex  # exact: the fraction is kept, not rounded
    assert b.fuel == int(charge(b))  # the whole units, for the views that read fuel
    assert result.rows[0].fuel == float(200 - hexes * per_hex)


def test_she_enters_a_hex_only_with_its_cost_aboard_then_drifts() -> None:
    # R82 as R16: 20 units at 30 mph buy one hex (14.4), then 5.6 are short of the next
    b = boat(pace="30mph", charge=20)
    st = voyage(b, LONG_ROUTE)
    result = run([st], seed=1, hours=3)
    assert st.position == 1 and charge(b) == Fraction(28, 5)
    assert result.stopped == "Fox: out of charge"  # R82: a boat's halt says charge
    dry = [e.event for e in result.events if e.event.kind == "fuel"]
    assert "5.6 power units of charge, less than the 14.4 power units" in dry[0].text
    assert "(R82)" in dry[0].text
    again = run([st], seed=2, hours=2, halt=False)
    assert [r.speed for r in again.rows] == [0, 0] and st.position == 1  # adrift (R13)


def test_spending_the_last_of_her_charge_halts_out_of_charge() -> None:
    # R82 as R16: exactly one hex's cost aboard (12 at 20 mph): she enters it, spends the
    # last unit and is adrift there; the halt says charge, not fuel
    b = boat(pace="20mph", charge=12)
    st = voyage(b, LONG_ROUTE)
    result = run([st], seed=1, hours=2)
    assert st.position == 1 and charge(b) == 0 and result.hours_run == 1
    assert result.stopped == "Fox: out of charge"
    (ev,) = [e for e in result.events if e.event.kind == "fuel"]
    assert ev.halt == "out of charge" and "out of charge (R82)" in ev.event.text


def _heavy_cruiser() -> dict[str, Any]:
    # 5400 body + 800 plant + 40 propeller + 150 crew + 3510 ballast = 9,900 lbs:
    # 5000 power factors / 9,900 = .505 -> 60 mph; past 10,000 lbs under .5 -> 40 mph
    return spec_from_options(
        BOOK.boats,
        body="cruiser",
        plant="large",
        fittings=["deck"],
        extras=["Ballast:3510:0"],
        crew=1,
    )


def test_speed_follows_her_present_weight() -> None:
    b = boat(_heavy_cruiser(), pace="60mph")
    assert shipfig.speed(b, BOOK) == 60
    b.cargo = 10  # 100 lbs: 10,000 lbs, ratio exactly .5 -> still 60 (R82's table)
    assert shipfig.speed(b, BOOK) == 60
    b.cargo = 11
    assert shipfig.speed(b, BOOK) == 40  # her pace is capped at her top speed now
    assert shipfig.fuel_use(b, BOOK) == Fraction(84, 5)  # 14 units a 10 miles at 40 mph
    b.passengers = 0
    b.cargo, b.water = 0, 11  # water is weight too (R81, R11)
    assert shipfig.speed(b, BOOK) == 40


def test_speed_is_recomputed_hour_by_hour_as_water_comes_in() -> None:
    b = boat(_heavy_cruiser(), pace="60mph", charge=100_000)
    st = voyage(b, LONG_ROUTE * 1, leaks=[10])  # R36: 10 hlbs an hour
    result = run([st], seed=3, hours=3, halt=False)
    # water 0 -> 9,900 lbs; 10 -> 10,000 lbs; 20 -> 10,100 lbs: 60, 60, then 40 mph
    assert [r.speed for r in result.rows] == [60, 60, 40]
    assert [r.water for r in result.rows] == [10, 20, 30]


def test_oars_row_at_two_and_a_half_mph_a_rower() -> None:
    rowboat = spec_from_options(BOOK.boats, body="rowboat", plant=None, fittings=["oars"], crew=3)
    b = boat(rowboat)
    assert shipfig.speed(b, BOOK) == Fraction(15, 2) and shipfig.fuel_use(b, BOOK) == 0
    st = voyage(b, LONG_ROUTE)
    result = run([st], seed=4, hours=8, halt=False)
    # 7.5 mph for 8 hours is 60 miles, 5 hexes: the half miles are carried exactly
    assert sum(r.miles for r in result.rows) == 60 and st.position == 5
    assert b.fuel == 0 and b.charge is None
    b.crew = 7
    assert shipfig.speed(b, BOOK) == 15  # at most 15 mph


def test_a_dinghy_with_oars_rows_when_her_charge_is_gone() -> None:
    dinghy = spec_from_options(BOOK.boats, body="dinghy", plant="small", fittings=["oars"], crew=2)
    b = boat(dinghy, charge=0)
    assert not shipfig.under_power(b) and shipfig.speed(b, BOOK) == 5  # 2 rowers
    set_charge(b, 50)
    assert shipfig.under_power(b) and shipfig.speed(b, BOOK) == 20


def test_load_and_deadweight_are_r81s() -> None:
    b = boat()  # the Moray: 6,500 lbs on a Speeder (2,700 lbs, max 7,000)
    assert shipfig.deadweight(b, BOOK) == 430 and shipfig.load(b, BOOK) == 380
    b.cargo = 50
    assert shipfig.load(b, BOOK) == 430 and shipfig.load_category(b, BOOK) == "full"
    set_charge(b, 10)
    assert shipfig.load(b, BOOK) == 430  # R82: her charge weighs nothing


def test_a_tow_slows_a_built_boat_by_its_weight() -> None:
    # R92: the tow's hlbs counted weigh in her speed: the Moray's 6,500 lbs + 3,500 = 10,000
    # (ratio .5: still 60 mph); + 4,000 = 10,500 lbs: 40 mph (R82)
    b = boat(pace="60mph")
    b.equipment["tow_counted"] = 350
    assert shipfig.speed(b, BOOK) == 60
    b.equipment["tow_counted"] = 400
    assert shipfig.speed(b, BOOK) == 40
