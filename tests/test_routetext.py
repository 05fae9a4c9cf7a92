"""A voyage's route read lazily: :class:`voyage.map.routetext.TextRoute` and
:class:`~voyage.map.routetext.TextFlags` behave as the lists ``text.split()`` and
``inshore_from_text`` make, and ``save_state`` rewrites ``voyage_routes`` only when the
route or its flags changed (a new course, a drift, a tow)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from voyage.actions import referee, voyages
from voyage.map.hexes import hex_name
from voyage.map.routetext import (
    TextFlags,
    TextRoute,
    copy_of,
    inshore_from_text,
    inshore_text,
    read_inshore,
    read_route,
    route_from_text,
    route_text,
)
from voyage.store import campaign as store
from voyage.store import campaigndb, mapstore, voyagelog
from voyage.store.mapstore import load_into_campaign
from voyage.vessels.ships import make_ship

SMALL = ["0305", "0405", "0506", "0606", "0707"]  # a Salt Reach route: 4-digit names (R30)
BIG = ["998997", "998998", "999999", "100100", "100101"]  # a 999 x 999 map's names: 6 digits (R30)
MIXED = ["9899", "9999", "100099", "100100", "9998"]  # a 200 x 200 map: both widths (R30)


def lazy(hexes: list[str]) -> TextRoute:
    route = read_route(route_text(hexes))
    assert isinstance(route, TextRoute)
    return route


@pytest.mark.parametrize("hexes", [SMALL, BIG, MIXED], ids=["4 digits", "6 digits", "mixed"])
def test_a_text_route_is_the_list_it_was_written_from(hexes):
    route = lazy(hexes)
    assert route.text == " ".join(hexes)
    assert len(route) == len(hexes) and list(route) == hexes
    assert [route[i] for i in range(len(hexes))] == hexes
    assert [route[-i] for i in range(1, len(hexes) + 1)] == hexes[::-1]
    assert route[-1] == hexes[-1] and route[len(hexes) - 1] == hexes[-1]
    for bad in (len(hexes), -len(hexes) - 1):
        with pytest.raises(IndexError):
            route[bad]
    # slices are plain lists, as a list's are
    for a, b, step in [
        (1, 3, None),
        (2, None, None),
        (None, -1, None),
        (0, 5, 2),
        (None, None, -1),
        (3, 1, None),
        (9, 12, None),
        (-2, None, None),
        (4, 0, -2),
    ]:
        part = route[a:b:step]
        assert type(part) is list and part == hexes[a:b:step]
    assert list(reversed(route)) == hexes[::-1]
    assert hexes[2] in route and "0" not in route and hexes[2][:-1] not in route
    assert route.index(hexes[3]) == 3 and route.count(hexes[0]) == 1


def test_equality_and_concatenation_make_lists():
    route, small = lazy(SMALL), list(SMALL)
    assert route == small and small == route and route == tuple(small) and route == lazy(small)
    assert route != small[:-1] and small[:-1] != route and route != lazy(small[::-1])
    assert route != "0305 0405 0506 0606 0707" and route != 5
    # what a new course, a drift and a forecast do: plain lists
    assert route[:2] + ["0507"] == ["0305", "0405", "0507"]
    assert route + ["0808"] == [*SMALL, "0808"] and type(route + ["0808"]) is list
    assert ["0204"] + route == ["0204", *SMALL] and type(["0204"] + route) is list
    with pytest.raises(TypeError):
        hash(route)
    # a ShipState's repr (the engine digest hashes it) is the list's
    assert repr(route) == repr(SMALL)
    assert route_text(route) == " ".join(SMALL) and copy_of(route) is route
    copied = copy_of(SMALL)
    assert copied == SMALL and copied is not SMALL


def test_empty_and_one_hex():
    empty = read_route("")
    assert len(empty) == 0 and list(empty) == [] and empty == [] and empty[:3] == []
    with pytest.raises(IndexError):
        empty[0]
    with pytest.raises(IndexError):
        empty[-1]
    for name in ("0305", "100100", "7"):
        one = lazy([name])
        assert len(one) == 1 and one[0] == one[-1] == name and one[:] == [name] and one == [name]
        with pytest.raises(IndexError):
            one[1]


@pytest.mark.parametrize(
    "text",
    ["0305  0405", " 0305 0405", "0305 0405 ", "0305\n0405", "0305\t0405", "03a5 0405", "０３０５"],
)
def test_text_not_as_route_text_writes_it_is_read_as_split_reads_it(text):
    # the m106 format is digits between single spaces; anything else (a damaged file, that
    # `voyage doctor` names) is read as before, by split()
    route = read_route(text)
    assert type(route) is list and route == route_from_text(text) == text.split()


def test_a_route_of_several_widths_is_read_from_a_cursor():
    # a 200 x 200 map: 0101-9999 have 4 digits, any hex past column or row 99 6 (R30)
    hexes = [hex_name(c, 95 + c % 10) for c in range(1, 200)] * 30
    route = lazy(hexes)
    assert len({len(h) for h in hexes}) == 2
    # the way an advance reads it: her hex and the next, hour by hour, the last hex...
    for position in range(0, len(hexes) - 1, 7):
        assert route[position] == hexes[position] and route[position + 1] == hexes[position + 1]
        assert route[-1] == hexes[-1]
    # ...and far jumps both ways, from the cursor, the start or the end
    for i in [5000, 17, 5900, 3, 5969, 2500, 2499, 2501, 0, 5968, 100]:
        assert route[i] == hexes[i] and route[i - 1] == hexes[i - 1]
        assert route[i : i + 40] == hexes[i : i + 40] and route[i:] == hexes[i:]


def test_a_route_of_wildly_varying_widths_is_read_exactly():
    # runs of 1-digit and 6-digit names: leaps by the mean width miss, and bisection finds it
    hexes: list[str] = []
    for k in range(40):
        hexes += [("7", "100100", "0101", "12")[k % 4]] * (50, 900, 400, 1)[k % 3]
    route = lazy(hexes)
    n = len(hexes)
    for i in [n // 2, 3, n - 3, n // 3, 2 * n // 3, 901, 16000, 7, n - 900, *range(0, n, 997)]:
        assert route[i] == hexes[i] and route[-i - 1] == hexes[-i - 1]


names = st.builds(hex_name, st.integers(1, 999), st.integers(1, 999))


@given(
    st.sampled_from([(1, 99), (100, 999)]).flatmap(
        lambda bounds: st.lists(
            st.builds(hex_name, st.integers(*bounds), st.integers(*bounds)), max_size=60
        )
    ),
    st.data(),
)
def test_a_route_of_names_of_one_width_behaves_as_its_list(hexes, data):
    route = read_route(route_text(hexes))
    assert isinstance(route, TextRoute) and route._w in (0, 4, 6)
    _behaves_as(route, hexes, data)


@given(st.lists(names, max_size=60), st.data())
def test_a_route_of_any_names_behaves_as_its_list(hexes, data):
    route = read_route(route_text(hexes))
    assert isinstance(route, TextRoute)
    _behaves_as(route, hexes, data)


def _behaves_as(route: TextRoute, hexes: list[str], data: st.DataObject) -> None:
    assert len(route) == len(hexes) and list(route) == hexes and route == hexes
    n = len(hexes)
    for _ in range(data.draw(st.integers(0, 12))):  # indices in any order: the cursor moves
        if n:
            i = data.draw(st.integers(-n, n - 1))
            assert route[i] == hexes[i]
        a, b = data.draw(st.integers(-n - 2, n + 2)), data.draw(st.integers(-n - 2, n + 2))
        step = data.draw(st.sampled_from([None, 1, 2, -1, -3]))
        assert route[a:b:step] == hexes[a:b:step]
    if n:
        name = data.draw(st.sampled_from(hexes))
        assert name in route and route.index(name) == hexes.index(name)


@given(st.lists(st.booleans(), max_size=80))
def test_text_flags_behave_as_the_list(flags):
    text = inshore_text(flags)
    lazy_flags = read_inshore(text)
    assert isinstance(lazy_flags, TextFlags) and inshore_text(lazy_flags) == text
    assert lazy_flags == flags and flags == lazy_flags and list(lazy_flags) == flags
    assert lazy_flags == inshore_from_text(text) and repr(lazy_flags) == repr(flags)
    assert [lazy_flags[i] for i in range(-len(flags), len(flags))] == flags + flags
    assert lazy_flags[1:5] == flags[1:5] and lazy_flags[::-2] == flags[::-2]
    assert any(lazy_flags) == any(flags) and (True in lazy_flags) == (True in flags)
    assert (False in lazy_flags) == (False in flags)
    assert lazy_flags + [True] == [*flags, True] and [True] + lazy_flags == [True, *flags]
    assert list(reversed(lazy_flags)) == flags[::-1]
    assert lazy_flags != [*flags, False]


# -- save_state writes the route only when it changed --------------------------------------


@pytest.fixture
def camp(tmp_path: Path) -> campaigndb.Campaign:
    c = store.create_campaign(tmp_path / "c.db", "Routes", seed=14)
    load_into_campaign(c, "salt_reach")
    chart = mapstore.campaign_chart(c)[0]
    for name, kind, tier, engine, crew, cargo, fuel in [
        ("Long", "freighter", 10, 9, 12, 100, 400),
        ("Tug", "motorboat", 2, 3, 2, 0, 30),  # light enough to tow (R92)
    ]:
        with c.action("ship add", name):
            ship = make_ship(c.rulebook, name, kind, tier, engine, ["Steady"])
            ship.crew, ship.cargo, ship.fuel, ship.hex = crew, cargo, fuel, "0305"
            c.add_ship(ship)
    there = chart.route("0305", "2812")
    assert there is not None
    # long enough to be read lazily by a day's advance (> 24 x EAGER_HEXES_PER_HOUR hexes)
    voyages.sail(c, "Long", route=(there + there[-2:0:-1]) * 40 + ["0305"])
    voyages.sail(c, "Tug", to="2420")
    return c


@contextmanager
def route_writes(camp: campaigndb.Campaign) -> Iterator[list[str]]:
    """The statements that write voyage_routes while the block runs."""
    written: list[str] = []

    def seen(sql: str) -> None:
        if sql.lstrip().upper().startswith("UPDATE VOYAGE_ROUTES"):
            written.append(sql)

    camp.db.conn.set_trace_callback(seen)
    try:
        yield written
    finally:
        camp.db.conn.set_trace_callback(None)


def stored(camp: campaigndb.Campaign, ship: str) -> tuple[str, str]:
    return camp.db.conn.execute(
        "SELECT r.route, r.inshore FROM voyage_routes r JOIN voyages v ON v.id = r.voyage_id "
        "WHERE v.ship = ? ORDER BY v.id DESC LIMIT 1",
        [ship],
    ).fetchone()


def test_a_route_short_for_the_hours_to_sail_is_split_at_once():
    """An advance of many hours reads each hex of a short route many times over: it is
    split once into a list; a long one for a short advance is read lazily."""
    hexes = [hex_name(c, 5) for c in range(1, 100)] * 2  # 198 hexes, 197 spaces
    text, flags = route_text(hexes), inshore_text([i % 3 == 0 for i in range(198)])
    assert isinstance(read_route(text), TextRoute) and isinstance(read_inshore(flags), TextFlags)
    for hours, kind in [(1, TextRoute), (3, TextRoute), (4, list), (8760, list)]:
        route, inshore = read_route(text, hours), read_inshore(flags, hours)
        assert type(route) is kind and route == hexes, hours
        assert type(inshore) is (TextFlags if kind is TextRoute else list)
        assert list(inshore) == [i % 3 == 0 for i in range(198)]
    assert read_route("", 8760) == [] and read_inshore("", 8760) == []


def test_open_voyages_reads_routes_as_the_hours_to_sail_need(camp):
    by_ship = {s.ship.name: s for s in voyages.open_voyages(camp, 24)}
    assert isinstance(by_ship["Long"].route, TextRoute)  # 2,001 hexes for 24 hours
    assert type(by_ship["Tug"].route) is list and type(by_ship["Tug"].inshore) is list
    year = voyages.open_voyages(camp, 8760)
    assert all(type(s.route) is list and type(s.inshore) is list for s in year)
    assert [s.route for s in year] == [list(by_ship[s.ship.name].route) for s in year]


def test_a_day_at_sea_reads_the_route_lazily_and_never_rewrites_it(camp):
    before = stored(camp, "Long")
    with route_writes(camp) as written:
        voyages.advance(camp, 24)
    assert written == [] and stored(camp, "Long") == before
    s = voyages.open_voyage(camp, "Long")
    assert s is not None and isinstance(s.route, TextRoute) and isinstance(s.inshore, TextFlags)
    assert s.route == before[0].split() and s.position > 0
    # saved as read, or with a route equal to it made anew: nothing to write
    with route_writes(camp) as written, camp.action("test", "save"):
        voyages.save_state(camp, s, camp.clock)
        s.route, s.inshore = list(s.route), [c == "1" for c in before[1]]
        voyages.save_state(camp, s, camp.clock)
        s.route = read_route(before[0])
        voyages.save_state(camp, s, camp.clock)
    assert written == []


def test_a_new_course_rewrites_the_route(camp):
    voyages.advance(camp, 3)
    with route_writes(camp) as written:
        referee.referee_action(camp, "Long", "course", to="2420")
    route, inshore = stored(camp, "Long")
    assert written and route.split()[-1] == "2420" and len(inshore) == len(route.split())
    assert voyagelog.voyage_list(camp)[0]["destination"] == "2420"


def test_a_drift_rewrites_the_route(camp):
    # what voyage.rules.drift._carry does: the hexes sailed kept, the rest planned anew
    voyages.advance(camp, 3)
    s = voyages.open_voyage(camp, "Long")
    assert s is not None and isinstance(s.route, TextRoute)
    kept, inshore = s.route[: s.position + 1], s.inshore[: s.position + 1]
    s.route, s.inshore = kept + ["0306", "0305"], inshore + [False, False]
    with route_writes(camp) as written, camp.action("test", "drift"):
        voyages.save_state(camp, s, camp.clock)
    assert written
    assert stored(camp, "Long") == (" ".join(kept + ["0306", "0305"]), "0" * (len(kept) + 2))


def test_inshore_flags_alone_changed_rewrite_the_route(camp):
    s = voyages.open_voyage(camp, "Long")
    assert s is not None
    route, flags = stored(camp, "Long")
    s.inshore = [True] + list(s.inshore)[1:]
    with route_writes(camp) as written, camp.action("test", "inshore"):
        voyages.save_state(camp, s, camp.clock)
    assert written and stored(camp, "Long") == (route, "1" + flags[1:])


def test_a_tow_rewrites_the_towed_ships_route_as_her_towers(camp):
    # both at 0305 at the start: the Long takes the Tug in tow (R92) and the Tug's route
    # becomes the Long's (shared, not copied: voyage.map.routetext.copy_of)
    long_route = stored(camp, "Long")
    with route_writes(camp) as written:
        referee.referee_action(camp, "Long", "tow", target="Tug")
    assert written and stored(camp, "Tug") == long_route
    with route_writes(camp) as written:
        voyages.advance(camp, 5)  # the Tug follows her tower: the same route, not rewritten
    assert written == [] and stored(camp, "Tug") == long_route
    tug = voyages.open_voyage(camp, "Tug")
    long = voyages.open_voyage(camp, "Long")
    assert tug is not None and long is not None and tug.hex == long.hex != "0305"
    assert tug.status == "under tow" and tug.position == long.position


def test_a_forecast_reads_a_short_route_as_a_list_and_shares_a_long_one(camp, monkeypatch):
    """A forecast's runs read her route hundreds of times each: a list (split once) up
    to forecast.SHARED_ROUTE_HEXES hexes, else the TextRoute as read, either way shared by
    every run (never copied: nothing changes a route in place); the runs come out the same
    either way."""
    from voyage.actions import forecast

    setup = forecast.prepare(camp, "Long")  # 2,001 hexes
    assert type(setup.state.route) is list and type(setup.state.inshore) is list
    one, two = forecast.fresh_state(setup.state), forecast.fresh_state(setup.state)
    assert one.route is setup.state.route is two.route and one.inshore is two.inshore
    as_lists = forecast.simulate(setup, 12, 5, workers=1)

    monkeypatch.setattr(forecast, "SHARED_ROUTE_HEXES", 1000)
    shared = forecast.prepare(camp, "Long")
    assert isinstance(shared.state.route, TextRoute)
    assert forecast.fresh_state(shared.state).route is shared.state.route
    assert forecast.simulate(shared, 12, 5, workers=1) == as_lists
