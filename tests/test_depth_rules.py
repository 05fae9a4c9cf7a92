"""R83-R86 as pure rules: grounding by depth, bilge pumps, leak work, the Depth Damage Table.

Forced dice (FaceRoller) for the procedures; seeded runs against the exact odds (4 sigma)
for the tables' rates.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest
from conftest import within_binomial

from voyage.base.paths import campaigns_dir
from voyage.dice.roller import Roller
from voyage.map.seamap import load_map
from voyage.rules import hourly
from voyage.rules.depth import depth_hazard, escape_modifiers, escape_odds, help_cost
from voyage.rules.leakwork import leak_try, leak_try_odds
from voyage.rules.pumps import pump_hour
from voyage.tables.boatdesigns import sample_spec
from voyage.tables.submersibles import row_for
from voyage.vessels.boatpower import draft_ft, top_speed
from voyage.vessels.boatships import make_built_ship
from voyage.vessels.submersible import damage_modifiers, depth_damage, depth_damage_odds

# ----------------------------------------------------------------------------- R83


def test_r83_drafts_by_body_and_keel(book):
    def boat(body, *acc):
        spec = {"body": body, "accessories": {a: 1 for a in acc}}
        return SimpleNamespace(design=spec)

    drafts = {
        b: draft_ft(boat(b), book) for b in ("rowboat", "dinghy", "speeder", "cruiser", "yacht")
    }
    assert drafts == {"rowboat": 0, "dinghy": 4, "speeder": 8, "cruiser": 15, "yacht": 23}
    assert draft_ft(boat("cruiser", "weighted-keel"), book) == 23  # R83: keel +8 ft
    assert draft_ft(SimpleNamespace(design=None), book) is None  # a rolled ship: no draft


def test_r83_shallower_than_her_draft_she_grounds_and_rams_unless_on_sand(book, faces):
    sand = depth_hazard(15, 12, "sandy", 20, 6, faces(), book)
    assert sand.stuck and sand.ram is None and not sand.rolls  # no roll at all on sand
    assert sand.changes["grounded_mph"] == 20
    # rock: R35 at her speed: d12 = 3 is not over 20: damaged (hull hit rolls follow)
    rock = depth_hazard(15, 12, "rocky", 20, 6, faces(3, 4, 4, 4, 4, 4, 4, 4, 4), book)
    assert rock.stuck and rock.ram is not None and rock.ram.damaged
    assert rock.rolls[0].label == "ramming the rocky bottom"


def test_r83_at_her_draft_she_scrapes_rock_rams_on_one_in_six(book, faces):
    assert depth_hazard(15, 16, "rocky", 20, 6, faces(), book) is None  # water enough
    soft = depth_hazard(15, 15, "sandy", 20, 6, faces(), book)
    assert soft.scraped and not soft.stuck and not soft.rolls  # sand: nothing
    clear = depth_hazard(15, 15, "rocky", 20, 6, faces(2), book)
    assert clear.scraped and clear.ram is None and clear.rolls[0].probability == Fraction(1, 6)


def test_r83_scrape_strike_is_a_ram_at_her_speed(book, faces):
    struck = depth_hazard(8, 8, "rocky", 10, 4, faces(1, 11), book)
    assert struck.ram is not None and not struck.ram.damaged  # d12 11 over 10: no damage
    assert struck.rolls[1].target == 10


def test_r83_getting_off_modifiers_and_odds(book):
    mods = escape_modifiers(30, 2, book)  # the seed's example: -3 for 30 mph, +1 two props
    assert [(m.value, m.reason) for m in mods] == [(-3, "grounded at 30 mph"), (1, "2 propellers")]
    assert escape_modifiers(25, 1, book)[0].value == -2  # full 10 mph only
    assert escape_odds(0, 1, book) == Fraction(15, 36)  # 2d6 >= 8
    assert escape_odds(30, 2, book) == Fraction(6, 36)  # 2d6 >= 10


def test_r83_help_from_a_port_costs_1000_per_5000_lbs_rounded_up(book):
    assert help_cost(10_000, book) == 2000
    assert help_cost(14_995, book) == 3000  # the heavy Lucky Catch
    assert help_cost(799, book) == 1000


def _hour(ship, book, roller, speed=20):
    """A stand-in for the engine's hour (voyage.engine.clock._ShipHour) around ``ship``."""
    log: list = []
    s = SimpleNamespace(ship=ship, status="under way", more={}, leaks=[])
    h = SimpleNamespace(
        ship=ship,
        s=s,
        book=book,
        roller=roller,
        speed=speed,
        minute=0,
        clock=0,
        log=lambda event, halt=None: log.append((event, halt)),
        stop_moving=lambda: None,
        apply_damage=lambda changes: None,
    )
    return h, log


def test_a_heavy_cruiser_grounds_on_the_middle_ground_of_the_salt_reach(book):
    chart = load_map(campaigns_dir() / "salt_reach")
    heavy = make_built_ship(
        "Heavy", sample_spec("Lucky Catch (Heavy Armor Option)", book.boats), book
    )
    h, log = _hour(heavy, book, Roller(1))
    assert hourly.by_depth(h, chart.hex("2010"))  # charted 12 ft of sand; she draws 15
    assert h.s.status == "stuck" and log[0][1] == "aground"
    assert "12 ft of water over a sandy bottom; she draws 15 ft" in log[0][0].text
    assert h.s.more["grounded_mph"] == 20
    # a Speeder (8 ft) passes over; rolled ships and uncharted hexes keep R33-R34
    moray = make_built_ship("Moray", sample_spec("Moray", book.boats), book)
    h2, log2 = _hour(moray, book, Roller(1))
    assert hourly.by_depth(h2, chart.hex("2010")) and not log2 and h2.s.status == "under way"
    assert not hourly.by_depth(h2, chart.hex("0405"))  # uncharted: R33-R34 decide
    rolled = SimpleNamespace(design=None)
    h3, _ = _hour(rolled, book, Roller(1))
    assert not hourly.by_depth(h3, chart.hex("2010"))  # R83: depth changes nothing for her


# ----------------------------------------------------------------------------- R85


def test_r85_a_pump_works_on_1_to_4_and_bails_d6_times_5(book, faces):
    out = pump_hour(100, 2, 0, faces(4, 3, 5), book)  # pump 1 works, bails 15; pump 2 fails
    assert out.bailed == 15 and not out.dry and out.rolls[0].probability == Fraction(4, 6)
    assert pump_hour(10, 1, 0, faces(1, 6), book).bailed == 10  # never more than aboard


def test_r85_dry_hours_burn_the_pumps_out_after_five(book, faces):
    assert pump_hour(0, 2, 4, faces(), book).burnt == 0  # the 5th dry hour: still good
    sixth = pump_hour(0, 2, 5, faces(), book)
    assert sixth.dry and sixth.burnt == 2 and "burn out" in sixth.text


def test_r85_pump_odds_over_seeded_hours(book):
    roller = Roller(85)
    hours, worked, bailed = 3000, 0, 0
    for _ in range(hours):
        out = pump_hour(10_000, 1, 0, roller, book)
        worked += bool(out.bailed)
        bailed += out.bailed
    assert within_binomial(worked, hours, Fraction(2, 3), sigmas=4)
    # each working hour bails d6 x 5: mean 17.5, sd 5 * 1.708
    mean, sd = 17.5 * worked, 5 * (35 / 12) ** 0.5 * worked**0.5
    assert abs(bailed - mean) <= 4 * sd


# ----------------------------------------------------------------------------- R86


def test_r86_a_try_stops_the_leak_on_8_or_more(book, faces):
    assert leak_try(10, faces(4, 4), book).stopped
    assert not leak_try(10, faces(3, 4), book).stopped
    assert leak_try_odds(book) == Fraction(15, 36)
    roller, n = Roller(86), 3000
    stopped = sum(leak_try(10, roller, book).stopped for _ in range(n))
    assert within_binomial(stopped, n, Fraction(15, 36), sigmas=4)


# ----------------------------------------------------------------------------- R84


def test_r84_depth_damage_modifiers(book):
    sub = {"dive_depth": 300, "reinforced": True, "ca_frame": False}
    assert damage_modifiers(300, 300, sub, book)[0].value == -1  # reinforced only
    mods = damage_modifiers(400, 300, sub, book)  # 33% beyond: +3 (full 10% steps)
    assert [m.value for m in mods] == [-1, 3]
    assert [m.value for m in damage_modifiers(329, 300, {"ca_frame": True}, book)] == [1]


def test_r84_the_tables_rows_follow_the_seed(book):
    rows = book.boats["submersible"]["depth_damage"]
    assert [row_for(rows, t)["leak_in_6"] for t in (0, 4, 5, 8, 9, 10, 11)] == [0, 0, 1, 1, 2, 2, 3]
    assert row_for(rows, 12)["implodes"] and row_for(rows, 30)["implodes"]
    assert not row_for(rows, -3)["implodes"]


def test_r84_implodes_at_12_and_leaks_as_r36_modifier_0(book, faces):
    spec = {"dive_depth": 100}
    out = depth_damage(160, 100, spec, faces(6), book)  # 60% beyond: 6 + 6 = 12
    assert out.imploded and out.changes == {"destroyed": True}
    leak = depth_damage(160, 100, spec, faces(5, 4, 3), book)  # 11: leaks on 4-6; d6 = 3
    assert leak.leak == 3 and leak.changes == {"add_leak": 3}
    held = depth_damage(160, 100, spec, faces(5, 3), book)
    assert held.leak == 0 and not held.imploded


@pytest.mark.parametrize(
    "depth, spec",
    [
        (130, {"dive_depth": 100}),  # +3: 4-9 on the table
        (150, {"dive_depth": 100, "reinforced": True}),  # +4: 5-10
        (160, {"dive_depth": 100, "ca_frame": True}),  # +7: 8-13, implodes on 5-6
    ],
)
def test_r84_depth_damage_rates_over_seeded_hours(book, depth, spec):
    mod = sum(m.value for m in damage_modifiers(depth, spec["dive_depth"], spec, book))
    p_leak, p_implode = depth_damage_odds(mod, book)
    roller, hours = Roller(depth), 4000
    results = [depth_damage(depth, spec["dive_depth"], spec, roller, book) for _ in range(hours)]
    assert within_binomial(sum(bool(r.leak) for r in results), hours, p_leak, sigmas=4)
    assert within_binomial(sum(r.imploded for r in results), hours, p_implode, sigmas=4)


def test_r84_exact_odds(book):
    assert depth_damage_odds(0, book) == (Fraction(2, 36), Fraction(0))  # 5-6: 1-in-6 each
    assert depth_damage_odds(6, book)[1] == Fraction(1, 6)  # a 6 makes 12: implodes


def test_r84_a_surfaced_sub_makes_three_quarters_of_her_top_speed(book):
    spec = sample_spec("Moray", book.boats)
    plain = make_built_ship("Moray", spec, book)
    sub = make_built_ship("Sub", {**spec, "submersible": {"dive_depth": 300}}, book)
    assert top_speed(sub, book) == top_speed(plain, book) * Fraction(3, 4)
    sub.equipment["depth_ft"] = 100
    assert top_speed(sub, book) == top_speed(plain, book)
