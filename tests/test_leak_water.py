"""Leak water to the minute, parts of an hlb kept from hour to hour (R36, R86;
voyage.rules.leakwater), with every die chosen (conftest's ``faces``)."""

from __future__ import annotations

from types import SimpleNamespace

from engine_helpers import COAST_ROUTE, ship, voyage, world

from voyage.engine.clock import Engine
from voyage.rules import leakwater


def _run(states, roller, start, hours=1):
    result = Engine(world(), states, roller).run(start, hours, halt=False)
    assert roller.faces == [], "the scenario left dice unrolled"
    return result


def test_r36_r86_a_leak_open_20_then_40_minutes_lets_in_its_whole_hour(faces):
    # Slow ahead (3 knots) 2 miles short of the rocks at 0702: she enters at minute 40.
    # d6 1: a hazard; d12 12: stuck; d12 1: the rocks rammed at 3 knots, margin 2 (R35);
    # the leak d6 3 + 2 = 5 hlbs an hour; the Explosion d20 1 + 2 + 5 - 4: she survives.
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, pace="slow", position=4, progress=10)
    first = _run([st], faces(1, 12, 1, 3, 1), 0)
    assert (first.events[-1].event.kind, first.events[-1].event.minute) == ("aground", 40)
    assert st.leaks == [5]
    # 20 minutes of 5 hlbs an hour: 1 2/3 hlbs. The row shows the whole hlb; 2/3 is kept.
    assert first.rows[0].water == 1
    assert st.more == {leakwater.PART: 40}
    # The crew work on it (R86): 2d6 at minutes 10, 20, 30 fail, 8 at minute 40 stops it;
    # then she fails to get off (R34: 2d6 = 2). 40 minutes: 3 1/3 hlbs more, 5 in all,
    # exactly the leak's hour (rounded down part by part it was 1 + 3 = 4).
    st.more["repair"] = {"leak": 1, "hlbs": 5, "since": 60}
    second = _run([st], faces(1, 1, 1, 1, 1, 1, 4, 4, 1, 1), 1)
    assert [e.event.minute for e in second.events if e.event.kind == "repair"] == [10, 20, 30, 40]
    assert st.leaks == []
    assert second.rows[0].water == 5 and st.ship.water == 5
    assert st.more == {}  # nothing left over


def test_r36_the_part_of_an_hlb_is_exact_in_sixtieths():
    s = SimpleNamespace(ship=SimpleNamespace(water=0), more={}, leaks=[5], new_leaks=[(5, 25)])
    # a 5 hlbs an hour leak opened at minute 25: 5 x 35/60 = 2 11/12 hlbs
    assert leakwater.hour_in(s) == 2 and s.more == {leakwater.PART: 55}
    # stopped at minute 50 of the next hour: 4 1/6 more, 7 1/12 in all (not 2 + 4 = 6)
    s.leaks, s.new_leaks = [], []
    assert leakwater.stopped_in(s, 5, 50) == 5
    assert s.ship.water == 7 and leakwater.part_of(s) == 5
    # two leaks opened in the same hour share their parts: 5 x 30/60 + 3 x 10/60 = 3
    t = SimpleNamespace(
        ship=SimpleNamespace(water=0), more={}, leaks=[5, 3], new_leaks=[(5, 30), (3, 50)]
    )
    assert leakwater.hour_in(t) == 3 and t.more == {}
    # pumped dry (R85): no whole hlb left, no part either
    s.ship.water = 0
    leakwater.pumped_dry(s)
    assert leakwater.part_of(s) == 0 and s.more == {}


def test_r36_the_part_is_kept_with_the_voyage_between_advances():
    # voyages.state keeps what differs from a new voyage: the part goes with it (and back)
    st = voyage(ship(), more={leakwater.PART: 55})
    kept = st.stored_extra()
    assert kept["more"] == {leakwater.PART: 55}
    again = voyage(ship())
    again.set_extra(kept)
    assert leakwater.part_of(again) == 55


def test_each_forecast_run_has_its_own_leak_work_and_part():
    # voyage.actions.forecast's runs each step a copy of the voyage: the crew's leak work (R86) and
    # the part of an hlb (R36) one run changes are not the next run's (they shared one dict)
    from voyage.actions.forecast import fresh_state

    template = voyage(ship(), more={"repair": {"leak": 1, "hlbs": 5, "since": 0}})
    run = fresh_state(template)
    run.more.pop("repair")
    run.more[leakwater.PART] = 30
    assert template.more == {"repair": {"leak": 1, "hlbs": 5, "since": 0}}
