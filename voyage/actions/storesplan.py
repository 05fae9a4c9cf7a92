"""The days of food and fresh water she carries against a passage (R104), as `sail`, `plan`
and `forecast` give them: the figures (for --json) and the lines a referee reads, with the
one-line warning when a store will not last.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.base.text import plural
from voyage.rules.storesplan import days_of, short_of
from voyage.vessels.stores import StoreRules, Stores, days_said, person_days_said
from voyage.vessels.storesroom import at_most, room

#: the passages a store is weighed against, as the lines name them
PASSAGE_WORDS = {
    "expected": "the expected passage",
    "slow": "a slow passage (the 95th percentile)",
}


def _days(x: Fraction | None) -> float | None:
    return None if x is None else round(float(x), 2)


def room_of(ship: Any, book: Any, water_in_load: bool) -> dict[str, int] | None:
    """R100, R103: the most person-days of food and of fresh water she can carry, each
    beside the other as it is (None: her stores are not counted)."""
    if ship.stores is None:
        return None
    r = room(ship, book, water_in_load)
    return {
        "food": r.most_food(ship.stores.fresh_water),
        "fresh_water": r.most_water(ship.stores.food),
    }


def against_passage(
    stores: Stores | None,
    people: int,
    passages: dict[str, float | None],
    rules: StoreRules,
    room: dict[str, int] | None = None,
) -> dict[str, Any] | None:
    """R104: her stores' days for the people aboard against each passage (hours by name:
    "expected", and for `plan` and `forecast` "slow"), and each store that falls short
    (None: her stores are not counted). ``room``: the most person-days of each she can
    carry beside the other as it is (R100, R103; voyage.vessels.storesroom), which the
    warnings' fix keeps within."""
    if stores is None:
        return None
    days = days_of(stores, people)
    a_day = float(1 / rules.hourly)  # R101: hours in which a person uses a person-day
    return {
        **({"room": room} if room is not None else {}),
        "people": people,
        "food": float(stores.food),
        "fresh_water": float(stores.fresh_water),
        "food_days": _days(days["food"]),
        "fresh_water_days": _days(days["fresh_water"]),
        "passages": {
            name: None if hours is None else {"hours": hours, "days": round(hours / a_day, 2)}
            for name, hours in passages.items()
        },
        "short": [
            {**s, "days": _days(s["days"]), "passage_days": _days(s["passage_days"])}  # type: ignore[arg-type]
            for s in short_of(stores, people, passages, rules)
        ],
    }


def stores_lines(
    data: dict[str, Any] | None, ship: str, in_port: bool | None, passages: bool = True
) -> list[str]:
    """The referee's lines: the days she carries (against the passages, with
    ``passages``), then a one-line warning for each store that will not last (R104)."""
    if data is None:
        return []
    people = data["people"]
    if people <= 0:
        return ["Stores: nobody aboard uses them (R101)."]

    def lasts(key: str, word: str) -> str:
        return f"{word} {person_days_said(data[key])} ({days_said(data[key + '_days'])})"

    ahead = [
        f"{'expected' if name == 'expected' else 'slow (95th percentile)'} "
        f"{days_said(p['days'])} ({plural(round(p['hours']), 'hour')})"
        for name, p in data["passages"].items()
        if p is not None and passages
    ]
    lines = [
        f"Stores for the {people} aboard: {lasts('food', 'food')}, "
        f"{lasts('fresh_water', 'fresh water')}"
        + (f"; the passage: {', '.join(ahead)}." if ahead else ".")
    ]
    if data.get("rain_counted"):  # R103: a rain catcher with storms on her way (forecast)
        lines.append(
            "Rain: the runs count the fresh water she catches in the storms on her way "
            "(R103: a person-day a head, once a day); the days above and any warning do not."
        )
    return lines + warnings(data, ship, in_port)


def warnings(
    data: dict[str, Any] | None,
    ship: str,
    in_port: bool | None,
    stop: str = "`voyage plan` a stop",
) -> list[str]:
    """R104: one line for each store that will not last a passage (none: they will).
    ``in_port``: she is in port, where stores are taken on (R103); False, at sea; None,
    `sail` has just opened her voyage from a port. ``stop``: the other way to go."""
    lines: list[str] = []
    for short in [] if data is None else data["short"]:
        flag = "--fresh-water" if short["store"] == "fresh water" else "--food"
        key = "fresh_water" if short["store"] == "fresh water" else "food"
        # `ship load` sets what she carries: the whole person-days that last the passage;
        # what she takes on is that less what she has, said to the hundredth as she shows it
        have = data[key] if data else 0
        total = short["total"]
        load = f"`voyage ship load {ship!r} {flag} {total}`"
        gap = f"{total - have:.2f}".rstrip("0").rstrip(".")
        take = f"{'1 person-day' if gap == '1' else gap + ' person-days'} more"
        take += f" (to {total} in all: {load})"
        most = (data or {}).get("room", {}).get(key)
        if in_port is not False and most is not None and total > most:
            # R100, R103: she has no room for all of it
            fix = stop or "`voyage plan` a stop"
            if most > have:
                fix = f"{at_most(f'voyage ship load {ship!r}', flag, most)} and {fix}"
            more = (
                f"she has room for at most {most} person-days of {short['store']} (R100, "
                f"R103), not the {total} the passage needs; "
                + ("`voyage undo`, " if in_port is None and most > have else "")
                + f"{fix}, or carry less"
            )
        elif in_port is None:  # `sail` has opened the voyage: stores are loaded before it
            more = f"`voyage undo`, then take on {take}, and sail again"
        elif in_port:
            more = f"take on {take} before she leaves" + (f" or {stop}" if stop else "")
        else:
            more = (
                f"she needs {short['more']} person-days more: put into a port on the way "
                f"(`voyage act {ship!r} course --to PORT`) or find or transfer some (R103)"
            )
        lines.append(
            f"Warning: her {short['store']} ({days_said(short['days'])}) will not last "
            f"{PASSAGE_WORDS[short['passage']]} ({days_said(short['passage_days'])}): when it runs "
            f"out the advance stops (R104) and her people go without (R102); {more}."
        )
    return lines


def stop_stores(stop: dict[str, Any], ship: str) -> str:
    """What a plan's stop takes on (R103), as a clause: "take on 30 person-days of food and
    9 of fresh water (to 32 and 12 in all: `voyage ship load 'Gull' --food 32 --fresh-water
    12`)", `ship load` giving what she has then in all; with "all she has room for" when
    her room (R100, R103) holds less than the rest of the way needs; "" when she takes on
    none."""
    food, water = stop.get("food", 0), stop.get("fresh_water", 0)
    if not food and not water:
        return ""
    said = " and ".join(
        part
        for part in (
            f"{food} person-days of food" if food else "",
            (f"{water} of fresh water" if food else f"{water} person-days of fresh water")
            if water
            else "",
        )
        if part
    )
    totals = {
        "food": stop.get("food_total", food),
        "fresh_water": stop.get("fresh_water_total", water),
    }
    flags = " ".join(
        f
        for f in (
            f"--food {totals['food']}" if food else "",
            f"--fresh-water {totals['fresh_water']}" if water else "",
        )
        if f
    )
    in_all = " and ".join(str(totals[k]) for k, n in (("food", food), ("fresh_water", water)) if n)
    room = (
        ", all she has room for (R103): not enough for the rest of the way"
        if stop.get("room")
        else ""
    )
    return f"take on {said}{room} (to {in_all} in all: `voyage ship load {ship!r} {flags}`)"
