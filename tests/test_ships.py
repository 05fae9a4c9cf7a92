"""Ships: figures per R10-R17 and generation per R18-R21."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rule_numbers import CLASS_FACES  # the hand-written class tables (R20, R21)

from voyage.base.errors import ShipError
from voyage.dice.roller import Roller
from voyage.rules.shiptables import roll_ship
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.ships import (
    cruising_speed,
    deadweight,
    figures,
    fuel_use,
    load,
    load_category,
    make_ship,
    max_strain,
    speed,
    to_hit,
)
from voyage.vessels.vessel import Ship

BOOK = load_rulebook()
BASE = {1: 4, 2: 4, 3: 4, 4: 4, 5: 5, 6: 5, 7: 5, 8: 6, 9: 6, 10: 8}
FUEL = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}
DW = {1: 100, 2: 250, 3: 500, 4: 750, 5: 1000, 6: 1500, 7: 2000, 8: 2500, 9: 3000, 10: 4000}
LOAD_SPEED = {"quarter": 2, "half": 1, "full": 0, "overloaded": -2}


def motor(tier: int, engine: int, cargo: int = 0, traits=(), fuel: int = 1) -> Ship:
    """A motorboat (12 hlbs of standard equipment) of any tier, with 1 hlb of fuel."""
    s = make_ship(BOOK, "T", "motorboat", tier, engine, list(traits))
    s.fuel, s.cargo = fuel, cargo
    return s


def cargo_for(category: str, tier: int) -> int:
    """Cargo that puts a motorboat (12 hlbs equipment, 1 fuel) in a load category."""
    dw = DW[tier]
    target = {"quarter": dw // 4, "half": dw // 2, "full": dw, "overloaded": dw + 1}[category]
    return max(0, target - 13)


@pytest.mark.parametrize("tier", range(1, 11))
@pytest.mark.parametrize("engine", [1, 5, 10])
@pytest.mark.parametrize("category", ["quarter", "half", "full", "overloaded"])
def test_r13_speed_for_every_tier_engine_and_load(tier, engine, category):
    s = motor(tier, engine, cargo_for(category, tier))
    assert load_category(s, BOOK) == category
    expected = max(0, BASE[tier] + (engine - tier) + LOAD_SPEED[category])
    assert cruising_speed(s, BOOK) == expected
    assert speed(s, BOOK) == expected


@pytest.mark.parametrize("tier", range(1, 11))
@pytest.mark.parametrize("category", ["quarter", "half", "full", "overloaded"])
def test_r16_fuel_use_for_every_tier_and_load(tier, category):
    s = motor(tier, 5, cargo_for(category, tier))
    base = FUEL[tier] * (2 if category == "overloaded" else 1)
    assert fuel_use(s, BOOK) == base
    assert fuel_use(s, BOOK, pace="slow") == max(
        1, (FUEL[tier] - 1) * (2 if category == "overloaded" else 1)
    )
    s.pace, s.strain = "strain", 1
    assert fuel_use(s, BOOK) == base * 2


@pytest.mark.parametrize("tier", range(1, 11))
def test_r10_r17_deadweight_and_to_hit(tier):
    s = motor(tier, 5)
    assert deadweight(s, BOOK) == DW[tier]
    assert to_hit(s, BOOK) == tier // 2


def test_r12_load_category_boundaries():
    s = motor(4, 4, fuel=0)  # DW 750, equipment 12
    for load_hlbs, category in [
        (187, "quarter"),
        (188, "half"),
        (375, "half"),
        (376, "full"),
        (750, "full"),
        (751, "overloaded"),
    ]:
        s.cargo = load_hlbs - 12
        assert load(s, BOOK) == load_hlbs
        assert load_category(s, BOOK) == category, load_hlbs


def test_r11_load_parts():
    s = motor(4, 4, cargo=100, fuel=30)
    s.crew, s.passengers, s.water = 5, 2, 12
    assert load(s, BOOK) == 100 + 30 + 70 + 12 + 12
    assert load(s, BOOK, water_in_load=False) == 100 + 30 + 70 + 12


def test_r13_no_engine_counts_as_tier_0_and_uses_no_fuel():
    d = make_ship(BOOK, "D", "dinghy", 2)
    d.crew = 2  # 20 + 2 oars = 22 of 250: Quarter
    assert cruising_speed(d, BOOK) == max(0, 4 + (0 - 2) + 2)
    assert fuel_use(d, BOOK) == 0


def test_r13_broken_engine_or_no_fuel_drifts():
    s = motor(5, 6)
    assert speed(s, BOOK) > 0
    s.engine_broken = True
    assert speed(s, BOOK) == 0
    s.engine_broken, s.fuel = False, 0
    assert speed(s, BOOK) == 0


def test_r14_r15_paces():
    s = motor(5, 6)
    normal = cruising_speed(s, BOOK)
    assert speed(s, BOOK, pace="slow") == normal // 2
    assert max_strain(normal) == normal // 2
    assert speed(s, BOOK, pace="strain", strain=99) == normal + normal // 2
    assert speed(s, BOOK, pace="strain", strain=1) == normal + 1


def test_r18_trait_effects_on_figures():
    plain = motor(6, 8)
    assert deadweight(motor(6, 8, traits=["Broad"]), BOOK) == 2250
    assert cruising_speed(motor(6, 8, traits=["Quick"]), BOOK) == cruising_speed(plain, BOOK) + 2
    assert fuel_use(motor(6, 8, traits=["Thrifty"]), BOOK) == fuel_use(plain, BOOK) - 1
    assert fuel_use(motor(3, 3, traits=["Thrifty"]), BOOK) == 1  # never below 1
    assert make_ship(BOOK, "R", "warship", 6, 8, ["Ram-bowed"]).equipment["ram"] is True


def test_manual_ship_checks_engine():
    with pytest.raises(ShipError, match="has an engine"):
        make_ship(BOOK, "X", "freighter", 6)
    with pytest.raises(ShipError, match="has no engine"):
        make_ship(BOOK, "X", "dinghy", 1, 3)


@pytest.mark.parametrize("key", list(CLASS_FACES))
def test_r20_face_ranges_come_up_at_their_rates(key):
    """1,500 seeded ships per class: each row's values at the rates R20/R21 give them (the
    expected rates are counted from the hand-written faces, not read from the tables)."""
    n = 1500
    roller = Roller(11)
    seen: dict[str, Counter] = {row: Counter() for row in CLASS_FACES[key]}
    for i in range(n):
        _, records = roll_ship(BOOK, roller, f"s{i}", key)
        by_label = {r.label: r.natural for r in records}
        for row, values in CLASS_FACES[key].items():
            face = by_label[f"{BOOK.classes[key]['name']} {row.replace('_', ' ')}"]
            seen[row][values[face - 1]] += 1
    for row, values in CLASS_FACES[key].items():
        for value in set(values):
            p = values.count(value) / 6
            sigma = (p * (1 - p) / n) ** 0.5
            assert abs(seen[row][value] / n - p) < 5 * sigma, (key, row, value)


def test_r18_trait_rate_is_one_in_six():
    roller = Roller(5)
    n = 6000
    with_trait = sum(bool(roll_ship(BOOK, roller, "x", "motorboat")[0].traits) for _ in range(n))
    p = 1 / 6
    assert abs(with_trait / n - p) < 5 * (p * (1 - p) / n) ** 0.5


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    key=st.sampled_from([None, *BOOK.classes]),
    crew=st.integers(0, 40),
    cargo=st.integers(0, 3000),
    fuel=st.integers(0, 500),
)
def test_generated_ships_keep_the_invariants(seed, key, crew, cargo, fuel):
    s, records = roll_ship(BOOK, Roller(seed), "h", key)
    cls = BOOK.ship_class(s.ship_class)
    assert s.tier in {v for _, _, v in cls["rows"]["tier"]}
    if cls["engine"]:
        assert s.engine_tier in {v for _, _, v in cls["rows"]["engine"]}
    else:
        assert s.engine_tier is None
    s.crew, s.cargo, s.fuel = crew, cargo, fuel
    fig = figures(s, BOOK)
    cat = fig["load_category"]
    quick = 2 if "Quick" in s.traits else 0
    powered_engine = 0 if s.engine_tier is None or fuel == 0 else s.engine_tier
    expected = BASE[s.tier] + (powered_engine - s.tier) + LOAD_SPEED[cat] + quick
    if s.engine_tier is not None and fuel == 0:
        expected = 0  # adrift, R13
    assert fig["speed"] == max(0, expected)
    if s.engine_tier is None:
        assert fig["fuel_use"] == 0
    else:
        assert fig["fuel_use"] >= 1
    assert all(r.line() for r in records)
    assert (len(s.traits) == 1) == any(r.label == "trait" for r in records)


def test_r14_only_a_ship_under_power_may_strain():
    dinghy = make_ship(BOOK, "D", "dinghy", 1)
    assert figures(dinghy, BOOK)["max_strain"] == 0
    boat = motor(3, 5)
    assert figures(boat, BOOK)["max_strain"] == cruising_speed(boat, BOOK) // 2
    boat.fuel = 0
    assert figures(boat, BOOK)["max_strain"] == 0
