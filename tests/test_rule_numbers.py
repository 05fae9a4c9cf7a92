"""Every rule number pinned by a hand-written expectation.

Nothing here reads an expected value from tables/: each number is written out as the rulings
give it (../shared/RULINGS.md, docs/rulings.md), and checked through the procedure that uses
it, so a wrong number in a table or a wrong branch in voyage/rules/ fails a test.
``python bench/mutate_rules.py`` changes each number by one step in turn to prove it.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from voyage.rules.aground import aground, aground_odds, coast_hazard_odds, seabed_damages
from voyage.rules.capsize import capsize_odds, capsize_triggers, storm_checks_due
from voyage.rules.dodge import dodge, dodge_odds
from voyage.rules.fire import fire_minute_odds, fire_start, fire_start_odds
from voyage.rules.flooding import flooding_state
from voyage.rules.hull import explosion_odds, hull_hit, leak_distribution
from voyage.rules.movement import slow_ahead_speed, strain_limit
from voyage.rules.ramming import ram, ram_odds
from voyage.rules.shiptables import (
    class_row_odds,
    roll_class_row,
    roll_ship,
    roll_trait,
    trait_odds,
)
from voyage.rules.sinking import sinking_distribution, sinking_reasons, sinking_time
from voyage.rules.strain import strain_check, strain_fire_odds, strain_odds
from voyage.vessels.vessel import load_category_for

# ----------------------------------------------------------------------------- R20, R21

SPOT_S, SPOT_M, SPOT_F = "Spotlight (Short-range)", "Spotlight (Mid-range)", "Spotlight (Far-range)"
FLOOD_S, FLOOD_F = "Floodlight (Short-range)", "Floodlight (Far-range)"
RADIO = ["Receiver"] * 3 + ["Transceiver"] * 3  # R21 "Radio": 2 values -> 1-3, 4-6 (R20)

#: The value each d6 face gives on every row of every class table (faces 1..6), as R21
#: prints the rows and R20 spreads them over the faces.
CLASS_FACES: dict[str, dict[str, list[object]]] = {
    "dinghy": {"tier": [1, 1, 1, 2, 2, 2]},
    "motorboat": {
        "tier": [1, 1, 2, 2, 3, 3],
        "engine": [1, 2, 3, 4, 5, 6],
        "light": [SPOT_S, SPOT_S, FLOOD_S, FLOOD_S, SPOT_M, SPOT_M],
        "radio": RADIO,
    },
    "trawler": {
        "tier": [3, 3, 4, 4, 5, 6],
        "engine": [3, 3, 4, 4, 5, 6],
        "light": [SPOT_S, SPOT_S, FLOOD_S, FLOOD_S, SPOT_M, SPOT_M],
        "radio": RADIO,
        "net": ["Net I", "Net I", "Net II", "Net II", "Net III", "Net III"],
    },
    "whaler": {
        "tier": [4, 4, 5, 5, 6, 7],
        "engine": [6, 6, 7, 7, 9, 10],
        "light": [SPOT_M] * 3 + [SPOT_F] * 3,
        "radio": RADIO,
        "harpoons": [0, 0, 0, "d6", "d6", "d6"],
    },
    "freighter": {
        "tier": [6, 6, 7, 8, 9, 10],
        "engine": [7, 7, 7, 7, 8, 9],  # printed VII, VII, VIII, IX: VII on 1-4
        "light": [FLOOD_S] * 3 + [FLOOD_F] * 3,
        "radio": RADIO,
    },
    "warship": {
        "tier": [6, 6, 7, 8, 9, 10],
        "engine": [8, 8, 9, 9, 10, 10],
        "light": [SPOT_M, SPOT_M, SPOT_F, SPOT_F, FLOOD_F, FLOOD_F],
        "heavy_weapon": ["Heavy Machine Gun"] * 3 + ["Artillery Cannon"] * 3,
        "radio": RADIO,
        "armor": [1, 1, 2, 3, 4, 5],
    },
}
#: R21: each class's Additional Standard Equipment (hlbs, items).
EQUIPMENT = {
    "dinghy": (2, ["Oars"]),
    "motorboat": (12, ["Propeller", "Rudder", "Antenna"]),
    "trawler": (52, ["Propeller", "Rudder", "Anchor", "Winch", "Antenna"]),
    "whaler": (50, ["Propeller", "Rudder", "Anchor", "Antenna", "Harpoon cannon"]),
    "freighter": (142, ["Propeller", "Rudder", "Anchor", "Antenna", "Crane"]),
    "warship": (42, ["Propeller", "Rudder", "Anchor", "Antenna"]),
}


@pytest.mark.parametrize(
    "ship_class,row", [(c, r) for c, rows in CLASS_FACES.items() for r in rows]
)
def test_r20_r21_every_face_of_every_row(book, faces, ship_class, row):
    for face, expected in enumerate(CLASS_FACES[ship_class][row], start=1):
        shown = [face, 4] if expected == "d6" else [face]  # harpoons: d6 more, shows 4
        roller = faces(*shown)
        result = roll_class_row(ship_class, row, roller, book)
        assert result.value == (4 if expected == "d6" else expected), (ship_class, row, face)
        assert roller.sides_asked == [6] * len(shown)  # R20 rows on a d6; R21 harpoons d6
    # and the odds of each value, counted by hand from the faces above
    values = CLASS_FACES[ship_class][row]
    odds = class_row_odds(ship_class, row, book)
    assert sum(odds.values()) == 1
    for value, p in odds.items():
        count = sum(1 for v in values if _shown(row, v) == value)
        assert p == F(count, 6), (ship_class, row, value)


@pytest.mark.parametrize("ship_class", CLASS_FACES)
@pytest.mark.parametrize("face", range(1, 7))
def test_r20_r21_a_new_ship_takes_each_rows_value(book, faces, ship_class, face):
    # voyage.rules.shiptables.roll_ship reads the rows itself: every row's d6 shows ``face``, the
    # harpoons' own d6 shows 3 and the Trait's 1-in-6 fails (2)
    rows = CLASS_FACES[ship_class]
    harpoons = rows.get("harpoons", [0] * 6)[face - 1] == "d6"
    roller = faces(*[face] * len(rows), *([3] if harpoons else []), 2)
    ship, _ = roll_ship(book, roller, "Pinned", ship_class)
    want = {row: values[face - 1] for row, values in rows.items()}
    assert ship.tier == want["tier"]
    assert ship.engine_tier == want.get("engine")
    eq = ship.equipment
    for row in ("light", "radio", "net"):
        assert eq.get(row) == want.get(row), row
    assert eq["heavy_weapons"] == ([want["heavy_weapon"]] if "heavy_weapon" in want else [])
    assert eq["armor"] == want.get("armor", 0)
    assert eq["harpoons"] == (3 if harpoons else 0)
    assert eq["standard"] == EQUIPMENT[ship_class][1] and ship.traits == []


def _shown(row: str, value: object) -> str:
    roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
    if row in ("tier", "engine") and isinstance(value, int):
        return roman[value - 1]
    return str(value)


def test_r21_rows_equipment_and_engines(book):
    assert set(book.classes) == set(CLASS_FACES)
    for key, (weight, items) in EQUIPMENT.items():
        cls = book.classes[key]
        assert list(cls["rows"]) == list(CLASS_FACES[key]), key  # rolled in this order
        assert cls["standard_equipment"] == {"weight": weight, "items": items}
        assert cls["engine"] is (key != "dinghy")  # R13: the Dinghy rows, no engine


# ----------------------------------------------------------------------------- R18

#: R18: the Trait table by d12 face, each trait's effects as the ruling gives them.
TRAITS = [
    ("Broad", {"deadweight_multiplier": 1.5}),
    ("Fireproof", {"fire_severity": -2, "fire_spread_in_6": 1, "firehose_in_6": 4}),
    ("Ironclad", {"armor_dice": "d6"}),
    ("Limpy", {"list_side": ["port", "starboard"]}),
    ("Nimble", {"dodge_bonus": 1}),
    ("Ram-bowed", {"ram_die": "d20"}),
    ("Steady", {"capsize_advantage": 1}),
    ("Strong", {"tow_multiplier": 5}),
    ("Thrifty", {"fuel_use": -1}),
    ("Quick", {"base_speed": 2}),
    ("Quiet", {}),
    ("Well-armed", {"heavy_weapon": ["Heavy Machine Gun", "Artillery Cannon"]}),
]


def test_r18_trait_table_faces_and_effects(book, faces):
    assert trait_odds(book) == F(1, 6)  # a Trait on a 1-in-6
    for face, (name, effects) in enumerate(TRAITS, start=1):
        assert book.trait(name)["effects"] == effects, name
        assert trait_odds(book, name) == F(1, 6) * F(1, 12)
        roller = faces(1, face, 1, 1)  # the chance, the d12, then the trait's own roll
        assert roll_trait(roller, book).trait == name
        assert roller.sides_asked[:2] == [6, 12]
    assert roll_trait(faces(2), book).trait is None  # d6 shows 2: no Trait


def test_r18_trait_sub_rolls_use_the_rulings_dice(book, faces):
    roller = faces(3, 6)
    assert roll_trait(roller, book, force=True).details == {"armor": 6}  # Ironclad d6
    assert roller.sides_asked == [12, 6]
    assert roll_trait(faces(2, 4), book, force=True).details == {"firehose": True}  # 4-in-6
    assert roll_trait(faces(2, 5), book, force=True).details == {"firehose": False}
    assert roll_trait(faces(4, 2), book, force=True).details == {"list_side": "starboard"}
    assert roll_trait(faces(12, 1), book, force=True).details == {
        "heavy_weapon": "Heavy Machine Gun"
    }


# ----------------------------------------------------------------------------- R11, R12

#: R12: (Load, Deadweight) -> category: Quarter <= DW/4 < Half <= DW/2 < Full <= DW <
#: Overloaded.
LOAD_CATEGORIES = [
    (250, 1000, "quarter"),
    (251, 1000, "half"),
    (500, 1000, "half"),
    (501, 1000, "full"),
    (1000, 1000, "full"),
    (1001, 1000, "overloaded"),
    (25, 100, "quarter"),
    (26, 100, "half"),
]


@pytest.mark.parametrize("load,deadweight,category", LOAD_CATEGORIES)
def test_r12_load_category_boundaries(book, load, deadweight, category):
    assert load_category_for(load, deadweight, book) == category


def test_r11_r12_load_numbers(book):
    assert book.load["person_weight"] == 10  # R11: 10 hlbs a person
    # R12: a Load over 2 x DW sinks the ship at once
    assert sinking_reasons(2000, 1000, 0, book) == []
    assert len(sinking_reasons(2001, 1000, 0, book)) == 1
    # R13 load modifiers to speed, R41 to capsizing, R16 fuel multipliers
    rows = {
        c["name"]: (c["speed"], c["capsize"], c["fuel_multiplier"]) for c in book.load_categories()
    }
    assert rows == {
        "quarter": (2, 1, 1),
        "half": (1, 2, 1),
        "full": (0, 0, 1),
        "overloaded": (-2, -4, 2),
    }


# ----------------------------------------------------------------------------- R41, R32

#: R41: d20 + Tier + load modifier >= 16, as exact fractions for Tier V.
CAPSIZE_TIER_V = {
    "quarter": F(11, 20),
    "half": F(12, 20),
    "full": F(10, 20),
    "overloaded": F(6, 20),
}


@pytest.mark.parametrize("load", CAPSIZE_TIER_V)
def test_r41_capsize_odds_for_each_load(book, load):
    assert capsize_odds(5, load, book) == CAPSIZE_TIER_V[load]
    # one Tier less is one face less (the DV is 16, the Tier adds)
    assert capsize_odds(4, load, book) == CAPSIZE_TIER_V[load] - F(1, 20)


def test_r32_storm_clock_is_six_hours(book):
    # one check per hex entered, and one per full 6 hours in the same hex
    assert [storm_checks_due(0, h, book) for h in (5, 6, 11, 12)] == [0, 1, 1, 2]
    assert storm_checks_due(3, 0, book) == 3


# ----------------------------------------------------------------------------- R33, R34

#: R34: d12 + seabed modifier under the travelling speed avoids getting stuck:
#: sandy +3, rocky 0, wreckage (ruins) +5. Speed 8: sandy d12 <= 4, rocky <= 7, wreckage <= 2.
SEABEDS = {"sandy": F(4, 12), "rocky": F(7, 12), "wreckage": F(2, 12), "ruins": F(2, 12)}


@pytest.mark.parametrize("seabed", SEABEDS)
def test_r34_seabed_modifiers(book, seabed):
    assert aground_odds(8, seabed, book) == SEABEDS[seabed]
    assert aground_odds(13, seabed, book) == min(F(1), SEABEDS[seabed] + F(5, 12))


def test_r33_only_rocks_and_wreckage_damage_the_hull(book, faces):
    assert coast_hazard_odds(book) == F(1, 6)
    assert [seabed_damages(b, book) for b in ("sandy", "rocky", "wreckage")] == [False, True, True]
    # a damaging seabed is rammed at the travelling speed (R34 -> R35): d12 12 is over 11
    roller = faces(12, 12)
    result = aground(4, 11, "wreckage", roller, book)
    assert result.stuck and result.ram is not None and not result.ram.damaged
    assert roller.sides_asked == [12, 12]
    assert result.rolls[1].target == 11


def test_r34_shallow_terrains_and_escape(book):
    coast = book.procedures["coast"]
    assert coast["shallow_terrains"] == ["reef", "shoal", "wreck"]  # R33 (project reading)
    assert book.procedures["aground"]["escape"] == {"dice": "2d6", "target": 8}


# ----------------------------------------------------------------------------- R35, R36


def test_r35_ram_die_and_zone(book, faces):
    assert ram_odds(4, book) == F(8, 12)  # d12 over 4
    assert ram_odds(4, book, ["Ram-bowed"]) == F(16, 20)
    # a failed ram puts the ship in the lethal zone of an Explosion (0/1/1 yd): +5
    roller = faces(1, 1, 10)  # d12 1 vs 4: margin 3; leak d6 1 + 3; d20 10 + 3 + 5 - 2
    result = ram(2, 4, roller, book)
    blast = result.rolls[2]
    assert blast.total == 16 and [m.value for m in blast.modifiers] == [3, 5, -2]
    assert result.hit is not None and result.hit.leak.leak_per_hour == 4
    assert book.procedures["ram"]["explosion"] == {"primary": 0, "secondary": 1, "lethal": 1}


#: R36: d20 + weapon + zone (secondary +2, lethal +5) - Tier >= 20 destroys. Tier V, no
#: weapon modifier: none d20 >= 25 never; secondary >= 23 never; lethal >= 20: 1/20.
EXPLOSION_TIER_V = {None: F(1), "secondary": F(1), "lethal": F(19, 20)}


@pytest.mark.parametrize("zone", EXPLOSION_TIER_V)
def test_r36_explosion_zone_modifiers(book, zone):
    assert explosion_odds(5, 0, zone, book) == EXPLOSION_TIER_V[zone]
    # weapon +8: none d20 >= 17 (4/20), secondary >= 15 (6/20), lethal >= 12 (9/20)
    destroyed = {None: F(4, 20), "secondary": F(6, 20), "lethal": F(9, 20)}[zone]
    assert explosion_odds(5, 8, zone, book) == 1 - destroyed


def test_r36_leak_is_one_d6(book, faces):
    assert leak_distribution(0, book) == {n: F(1, 6) for n in range(1, 7)}
    roller = faces(6, 1)
    result = hull_hit(3, 0, roller, book, explosion=True, zone="secondary")
    assert roller.sides_asked == [6, 20] and result.leak.leak_per_hour == 6


# ----------------------------------------------------------------------------- R37, R40

#: R37 for a Deadweight of 1000: over 100 capsize hourly, over 250 listing (every 10
#: minutes), over 500 sinking.
FLOODING = [
    (100, "none", None),
    (101, "capsize_hourly", 60),
    (250, "capsize_hourly", 60),
    (251, "listing", 10),
    (500, "listing", 10),
    (501, "sinking", None),
]


@pytest.mark.parametrize("water,state,every", FLOODING)
def test_r37_flooding_thresholds(book, water, state, every):
    flood = flooding_state(water, 1000, book)
    assert (flood.state, flood.capsize_every_minutes) == (state, every)
    reasons = [t.reason for t in capsize_triggers("full", water, 1000, book)]
    assert (
        reasons
        == {"none": [], "capsize_hourly": ["flooding"], "listing": ["listing"], "sinking": []}[
            state
        ]
    )


@pytest.mark.parametrize(
    "load,doubled", [("quarter", True), ("half", True), ("full", False), ("overloaded", False)]
)
def test_r40_sinking_is_3d6_plus_tier_doubled_at_half_or_less(book, faces, load, doubled):
    roller = faces(1, 2, 3)
    result = sinking_time(5, load, roller, book)
    assert roller.sides_asked == [6, 6, 6]
    assert result.minutes == (1 + 2 + 3 + 5) * (2 if doubled else 1)
    dist = sinking_distribution(5, load, book)
    assert (min(dist), max(dist)) == ((8, 23) if not doubled else (16, 46))


# ----------------------------------------------------------------------------- R50


def test_r50_new_fire_is_d4(book, faces):
    # Tier II: severity 1-2 burn, 3-4 out of control (over the Tier)
    assert fire_start_odds(2, [], book) == {
        "no_fire": 0,
        "burning": F(1, 2),
        "out_of_control": F(1, 2),
    }
    # Fireproof -2: 1-2 no fire, 3 -> 1, 4 -> 2
    assert fire_start_odds(1, ["Fireproof"], book) == {
        "no_fire": F(1, 2),
        "burning": F(1, 4),
        "out_of_control": F(1, 4),
    }
    roller = faces(4, 6, 6)  # severity 4 on Tier III: swallowed in 2d6 = 12 minutes
    result = fire_start(3, [], roller, book)
    assert roller.sides_asked == [4, 6, 6] and result.swallowed_in == 12


def test_r50_spread_fight_and_firehose(book):
    # spread 2-in-6; fight 4-in-6; Fireproof spreads 1-in-6; a firehose is one crew
    assert fire_minute_odds(1, 5, 2, book) == {
        "spreads": F(1, 3),
        "reduced": F(4, 6),
        "out": F(2, 3) * F(4, 6),
        "out_of_control": 0,
    }
    assert fire_minute_odds(1, 5, 2, book, ["Fireproof"])["spreads"] == F(1, 6)
    # severity 2, one crew: only with the hose (1 + 1 = 2) can they fight it unspread
    assert fire_minute_odds(2, 5, 1, book)["reduced"] == 0
    assert fire_minute_odds(2, 5, 1, book, firehose=True)["reduced"] == F(2, 3) * F(4, 6)


# ----------------------------------------------------------------------------- R14, R15


def test_r14_r15_pace_numbers(book, faces):
    assert [strain_limit(s, book) for s in (1, 2, 7, 8)] == [0, 1, 3, 4]
    assert [slow_ahead_speed(s, book) for s in (1, 2, 7, 8)] == [0, 1, 3, 4]
    # d6 + (extra - 1) >= 6 breaks; again >= 6 catches fire
    assert [strain_odds(e, book) for e in (1, 2, 4)] == [F(5, 6), F(4, 6), F(2, 6)]
    assert strain_fire_odds(2, book) == F(2, 6) * F(2, 6)
    roller = faces(5, 6)
    result = strain_check(2, roller, book, speed=4)  # 5 + 1 = 6 breaks; 6 + 1 fire
    assert result.broke and result.fire and roller.sides_asked == [6, 6]
    assert not strain_check(2, faces(4), book, speed=4).broke  # 4 + 1 = 5 holds


# ----------------------------------------------------------------------------- R51

#: R51: d12 - 1 (secondary) or - 2 (lethal) meets or beats the Tier. Tier VI.
DODGE_TIER_VI = {None: F(7, 12), "secondary": F(6, 12), "lethal": F(5, 12)}


@pytest.mark.parametrize("zone", DODGE_TIER_VI)
def test_r51_dodge_zone_modifiers(book, faces, zone):
    assert dodge_odds(6, book, zone=zone) == DODGE_TIER_VI[zone]
    assert dodge_odds(6, book, ["Nimble"], zone=zone) == DODGE_TIER_VI[zone] + F(1, 12)
    # the face that just makes it: 6, 7 or 8
    need = {None: 6, "secondary": 7, "lethal": 8}[zone]
    assert dodge(6, faces(need), book, zone=zone).dodged
    assert not dodge(6, faces(need - 1), book, zone=zone).dodged


def test_r54_leviathan_melee_bonus(book):
    assert book.procedures["leviathan"] == {"melee_bonus": 3}  # R54: +3 to unarmed Melee


def _without(book, section: str, key: str):
    import dataclasses

    trimmed = {k: v for k, v in book.procedures[section].items() if k != key}
    return dataclasses.replace(book, procedures={**book.procedures, section: trimmed})


def test_r37_r50_defaults_when_a_house_table_leaves_them_out(book):
    # a house procedures table may leave out the listing interval and the firehose's worth:
    # R37's 10 minutes and R50's one crew apply
    flood = flooding_state(300, 1000, _without(book, "flooding", "listing_check_minutes"))
    assert flood.capsize_every_minutes == 10
    hoseless = _without(book, "fire", "firehose_crew")
    assert fire_minute_odds(2, 5, 1, hoseless, firehose=True)["reduced"] == F(2, 3) * F(4, 6)


def test_the_edges_of_the_figures(book, faces):
    # a speed of 0 is a speed (R35: any d12 is over it; R34: nothing is under it)
    assert ram_odds(0, book) == 1 and aground_odds(0, "sandy", book) == 0
    assert strain_limit(0, book) == 0
    # an outcome's event is at minute 0 (the start of the hour) unless the engine says
    assert dodge(4, faces(12), book).event().minute == 0


def test_r51_each_advantage_and_disadvantage_is_one(book):
    # R51: +1 per situational advantage, -1 per disadvantage (Tier VI: d12 >= 6 is 7/12)
    assert dodge_odds(6, book, advantages=["fog"]) == F(8, 12)
    assert dodge_odds(6, book, advantages=["fog", "calm"]) == F(9, 12)
    assert dodge_odds(6, book, disadvantages=["spray"]) == F(6, 12)
    assert dodge_odds(6, book, disadvantages=["spray", "smoke"]) == F(5, 12)


def test_r14_the_first_extra_knot_adds_nothing(book, faces):
    # d6 + (extra knots - 1): one extra knot rolls a bare d6, two add +1
    assert strain_check(1, faces(5), book, speed=4).rolls[0].modifiers == []
    assert [m.value for m in strain_check(2, faces(1), book, speed=4).rolls[0].modifiers] == [1]


def test_r18_trait_descriptions_say_the_effects_numbers(book):
    # what a referee reads (voyage roll, the ship card) says what the rules do
    def says(name: str) -> str:
        return " ".join(book.trait(name)["description"].split())

    assert "Increase Deadweight by 50%" in says("Broad")  # x1.5
    assert "by 2" in says("Fireproof") and "4-in-6 chance" in says("Fireproof")
    assert "with d6 units" in says("Ironclad")
    assert "Roll a d20 instead of a d12 when" in says("Ram-bowed")
    assert "five times its Deadweight" in says("Strong")
    assert "Subtract 1 hlb" in says("Thrifty") and "+2 knots" in says("Quick")


def test_r50_a_fire_below_zero_is_no_fire_and_odds_need_a_fire(book, faces):
    # Fireproof: d4 1 - 2 = -1 is no fire at all (not a fire of severity -1)
    result = fire_start(4, ["Fireproof"], faces(1), book)
    assert result.severity == 0 and result.changes == {} and not result.out_of_control
    from voyage.base.errors import VoyageError

    with pytest.raises(VoyageError, match="fire severity"):
        fire_minute_odds(0, 5, 2, book)  # a minute of burning needs a fire


def test_r37_any_positive_deadweight_floods_by_its_fractions(book):
    # the thresholds are fractions of any Deadweight above 0 (a house table's 1 hlb boat too)
    assert flooding_state(0, 1, book).state == "none"
    assert flooding_state(0.6, 1, book).state == "sinking"


def test_r65_anchor_cable_and_depth(book, faces):
    from types import SimpleNamespace

    from voyage.rules.anchors import anchor_cable, anchorage_problem, cable_odds

    # 2d6 each storm-tossed hour; the cable parts on 2 or 12: 2/36
    assert cable_odds(book) == F(2, 36)
    for shown, parts in (((1, 1), True), ((6, 6), True), ((1, 2), False), ((5, 6), False)):
        roller = faces(*shown)
        result = anchor_cable(roller, book)
        assert (result.changes == {"anchor_lost": True}) is parts, shown
        assert result.rolls[0].probability == F(34, 36) and roller.sides_asked == [6, 6]

    # a charted depth of at most 150 ft (a 25-fathom cable) holds an anchor
    def sea(depth):
        return SimpleNamespace(
            coastal=False, narrow_passage=False, terrain="sea", depth=depth, name="0505"
        )

    assert anchorage_problem(sea(150), book) is None
    assert "150 ft" in str(anchorage_problem(sea(151), book))


def test_r60_sea_states_disadvantages_and_intervals(book):
    import dataclasses

    from voyage.rules.capsize import SeaStateRule, sea_state_rules, storm_clock

    rules = sea_state_rules(book)
    # R60: calm; stormy seas as R32 (6 hours); major storm 1 Disadvantage, 3 hours;
    # hurricane 2 Disadvantages, 1 hour
    assert rules == [
        SeaStateRule("calm", 0, 0),
        SeaStateRule("stormy seas", 0, 6),
        SeaStateRule("major storm", 1, 3),
        SeaStateRule("hurricane", 2, 1),
    ]
    assert rules[1].terms("0505") == ("storm: stormy seas", [], "Stormy seas in 0505 (R60). ")
    assert rules[2].terms("0505")[1:] == (
        ["major storm"],
        "Major storm in 0505 (R60, 1 Disadvantage). ",
    )
    assert rules[3].terms("0505")[2] == "Hurricane in 0505 (R60, 2 Disadvantages). "
    # the same-hex clock counts storm hours only and restarts at each Check
    assert storm_clock(5, 0, rules) == (0, False)
    assert [storm_clock(h, 1, rules) for h in (4, 5)] == [(5, False), (0, True)]
    assert [storm_clock(h, 2, rules) for h in (1, 2)] == [(2, False), (0, True)]
    assert storm_clock(0, 3, rules) == (0, True) and storm_clock(0, 4, rules) == (0, True)
    # a climates table that leaves a state's numbers out: no Disadvantage, R32's 6 hours
    bare = dataclasses.replace(book, climates={**book.climates, "sea_states": {}})
    assert sea_state_rules(bare)[2] == SeaStateRule("major", 0, 6)
