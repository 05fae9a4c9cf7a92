"""Rafts and people in the water as things on the map (R70-R74), stepped by the engine.

A :class:`Floater` is a raft, or a group of like people off a ship (one per named person):
unnamed people who share a ship, role, Swimming rank, jacket and raft are one row with a
count, and split when the dice treat them differently. :class:`WaterPhase` is the engine's
phase for them; each hour, after the ships (DESIGN.md: "the hour is a list of phases"):

1. searching ships look through their hex (R74): rafts, then people in the water;
2. rafts in storm-tossed seas make capsize Checks (R73: R41 as Tier I at their load, R60's
   interval) and spill their people; at the first calm hour they climb back in;
3. people in the water roll for drowning (R72): an hourly roll once, a minute roll each
   minute until the person drowns (R52: only they are stepped by the minute);
4. rafts and people drift with the current (R64); a port hex rescues them, a shore is reached.

Leaving a ship (R71) is :func:`leave_ship`: everyone aboard, rafts filled four to a raft,
jackets to those in the water; in a sudden sinking each person rolls to escape first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from voyage.base.text import plural
from voyage.dice.events import Event
from voyage.dice.roller import Roll, Roller
from voyage.rules import water as rules
from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import load, sinking_load
from voyage.vessels.stores import raft_launched
from voyage.vessels.vessel import life_jackets, life_rafts

#: States of a floater: afloat (in a raft or the water) and how it ended.
AFLOAT = "afloat"
ENDED = ("drowned", "lost", "rescued", "ashore")
MINUTES = 60


@dataclass
class Floater:
    """A raft, or people off a ship (the ``floaters`` table)."""

    id: int
    kind: str  # "raft" or "people"
    ship: str
    name: str | None = None
    role: str = "crew"
    count: int = 1
    swimming: int = 0
    jacket: bool = False
    raft: int | None = None
    hex: str | None = None
    state: str = AFLOAT
    hours_swum: int = 0
    carry: str = "0"
    hours_in_hex: int = 0
    capsized: bool = False
    radio: bool = True
    since: int = 0
    ended: int | None = None
    note: str = ""
    voyage_id: int | None = None  #: the voyage they left (their events join its log)
    #: R100-R102: a raft's emergency stores (voyage.vessels.stores text), None if uncounted
    stores: str | None = None

    def to_row(self) -> dict[str, Any]:
        """The ``floaters`` row (flags as 0/1)."""
        row = {k: getattr(self, k) for k in _FIELDS}
        row["jacket"], row["capsized"], row["radio"] = (
            int(self.jacket),
            int(self.capsized),
            int(self.radio),
        )
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Floater:
        data = dict(row)
        for key in ("jacket", "capsized", "radio"):
            data[key] = bool(data[key])
        return cls(**data)

    @property
    def afloat(self) -> bool:
        return self.state == AFLOAT

    @property
    def in_water(self) -> bool:
        """People afloat and not in a raft (or in one that has capsized: R73)."""
        return self.kind == "people" and self.afloat and self.raft is None

    def who(self) -> str:
        """The people in the referee's words: a name, or "3 crew of Sea Witch"."""
        if self.kind == "raft":
            return self.name or f"a raft of {self.ship}"
        if self.name:
            return self.name
        what = {"crew": "crew", "passenger": "passengers" if self.count > 1 else "passenger"}
        return f"{self.count} {what.get(self.role, self.role)} of {self.ship}"

    def swimmer_text(self, count: int | None = None) -> str:
        """ "non-swimmer, no jacket" / "swimmer rank 3, jacket" (``count`` people like
        them: plural words, when a batch of like groups is named together)."""
        count = self.count if count is None else count
        kind = "non-swimmer" if self.swimming <= 0 else f"swimmer rank {self.swimming}"
        if count > 1:
            kind = "non-swimmers" if self.swimming <= 0 else f"swimmers rank {self.swimming}"
        jackets = "jacket" if count == 1 else "jackets"
        return f"{kind}, {jackets if self.jacket else 'no ' + jackets}"


_FIELDS = tuple(f.name for f in fields(Floater))
#: The ``floaters`` columns, ``id`` first.
FLOATER_FIELDS = _FIELDS


@dataclass
class Person:
    """One person (or group of like people) aboard a ship about to be left (R70)."""

    role: str
    swimming: int
    jacket: bool
    count: int = 1
    name: str | None = None


def people_aboard(
    ship: Any, named: Iterable[dict[str, Any]], settings: dict[str, Any]
) -> list[Person]:
    """Everyone aboard: the named people of the roster, and the rest of the crew and
    passenger counts as unnamed people with the campaign's default ranks (R70, options
    ``crew_swimming`` and ``passenger_swimming``)."""
    out: list[Person] = []
    named_crew = named_pass = 0
    for p in named:
        out.append(Person(p["role"], int(p["swimming"]), bool(p["jacket"]), 1, p["name"]))
        if p["role"] == "passenger":
            named_pass += 1
        else:
            named_crew += 1
    crew = max(0, ship.crew - named_crew)
    passengers = max(0, ship.passengers - named_pass)
    if crew:
        out.append(Person("crew", int(settings.get("crew_swimming", 1)), False, crew))
    if passengers:
        out.append(
            Person("passenger", int(settings.get("passenger_swimming", 0)), False, passengers)
        )
    return out


def _split(people: list[Person], take: Callable[[Person], bool]) -> list[Person]:
    return [p for p in people if take(p)]


def hand_out(
    people: list[Person], jackets: int, seats: int
) -> tuple[list[Person], list[Person], int]:
    """R71: raft seats to non-swimmers first, then swimmers by rank (lowest first); the
    jackets to those in the water without one, in the same order, and only those left over
    to the rafts' seats (a jacket is not wasted on a seat while a man swims without one).
    Returns (in rafts, in the water, jackets used)."""
    order = sorted(
        range(len(people)),
        key=lambda i: (people[i].swimming > 0, people[i].swimming, people[i].name is None, i),
    )
    # one entry per person, so groups split exactly where the jackets and seats run out
    singles: list[Person] = []
    for i in order:
        p = people[i]
        singles += [replace(p, count=1) for _ in range(p.count)]
    used = 0
    for p in singles[seats:] + singles[:seats]:  # the water first
        if not p.jacket and used < jackets:
            p.jacket = True
            used += 1
    return _merge(singles[:seats]), _merge(singles[seats:]), used


def _merge(singles: list[Person]) -> list[Person]:
    """Unnamed like people back into groups (order kept)."""
    out: list[Person] = []
    for p in singles:
        last = out[-1] if out else None
        if (
            last is not None
            and p.name is None
            and last.name is None
            and (last.role, last.swimming, last.jacket) == (p.role, p.swimming, p.jacket)
        ):
            last.count += p.count
        else:
            out.append(replace(p))
    return out


@dataclass
class Departure:
    """What leaving a ship made: the floaters, the people lost with her, the events."""

    floaters: list[Floater] = field(default_factory=list)
    lost: list[Floater] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    jackets_used: int = 0
    rafts_used: int = 0


def leave_ship(
    ship: Any,
    people: list[Person],
    hex_name: str,
    clock: int,
    book: RuleBook,
    next_id: Callable[[], int],
    roller: Roller | None = None,
    night: bool = False,
    voyage_id: int | None = None,
) -> Departure:
    """R71: everyone leaves ``ship`` at ``hex_name``. Without a roller (``abandon``, the ship
    afloat) nobody rolls; with one (she submerges or is swallowed) each below deck escapes on
    1-2 on d6 and each above deck on 3+ on 2d6, and each raft is launched on a 4-in-6."""

    w = rules.water_rules(book)
    out = Departure()
    rafts = life_rafts(ship)
    rolls: list[Roll] = []
    if roller is not None:
        escaped: list[Person] = []
        crew_total = sum(p.count for p in people if p.role != "passenger")
        below_crew = crew_total // 2 if night else 0  # R71: half the crew by night, rounded down
        for p in people:
            for _ in range(p.count):
                below = p.role == "passenger" or (p.role != "passenger" and below_crew > 0)
                if p.role != "passenger" and below:
                    below_crew -= 1
                who = p.name or f"{'a passenger' if p.role == 'passenger' else 'a crewman'}"
                roll = rules.escape_roll(roller, below, book, who)
                rolls.append(roll)
                single = replace(p, count=1)
                if roll.success:
                    escaped.append(single)
                else:
                    out.lost.append(
                        person_floater(
                            next_id(),
                            ship.name,
                            single,
                            hex_name,
                            clock,
                            "lost",
                            f"went down with {ship.name}",
                        )
                    )
        launched = 0
        for n in range(1, rafts + 1):
            roll = rules.raft_launch(roller, book, n)
            rolls.append(roll)
            launched += bool(roll.success)
        people, rafts = _merge(escaped), launched
        out.lost = _merge_floaters(out.lost)
    seats = rafts * int(w["raft_seats"])
    in_rafts, in_water, used = hand_out(people, life_jackets(ship), seats)
    out.jackets_used = used
    raft_rows: list[Floater] = []
    raft_stores = raft_launched(getattr(ship, "stores", None))
    boarding = [replace(p, count=1) for p in in_rafts for _ in range(p.count)]
    for n in range(rafts):
        group = boarding[n * int(w["raft_seats"]) : (n + 1) * int(w["raft_seats"])]
        if not group:
            continue  # an empty raft is not launched
        raft = Floater(
            next_id(),
            "raft",
            ship.name,
            f"raft {n + 1} of {ship.name}",
            count=0,
            hex=hex_name,
            since=clock,
            radio=True,
            stores=raft_stores,  # R100: its emergency stores go with it
        )  # R70: every raft carries a radio transponder
        raft_rows.append(raft)
        out.floaters.append(raft)
        for p in _merge(group):
            f = person_floater(next_id(), ship.name, p, hex_name, clock, AFLOAT, "")
            f.raft = raft.id
            out.floaters.append(f)
    out.rafts_used = len(raft_rows)
    for p in in_water:
        out.floaters.append(person_floater(next_id(), ship.name, p, hex_name, clock, AFLOAT, ""))
    aboard_rafts = sum(f.count for f in out.floaters if f.kind == "people" and f.raft)
    swimming = sum(f.count for f in out.floaters if f.in_water)
    lost = sum(f.count for f in out.lost)
    where = leaving_words(len(raft_rows), aboard_rafts, swimming, used)
    if roller is None:  # R71: `abandon`, no roll
        text = f"They leave {ship.name} at {hex_name}: {where}"
    elif not lost:
        text = f"Everyone gets out of {ship.name} at {hex_name}: {where} (R71)"
    elif where:
        text = (
            f"Those who get out leave {ship.name} at {hex_name}: {where}; "
            f"{lost} went down with her (R71)"
        )
    else:
        text = f"Nobody gets out of {ship.name} at {hex_name}: {lost} went down with her (R71)"
    out.events.append(
        Event(
            "people",
            text + ".",
            rolls,
            0,
            {"rafts": len(raft_rows), "in_water": swimming, "lost": lost},
        )
    )
    for f in out.floaters + out.lost:
        f.voyage_id = voyage_id
    return out


def leaving_words(rafts: int, in_rafts: int, in_water: int, jackets: int) -> str:
    """Where the people who leave a ship went (R71), saying only what there is: ``2 rafts
    with 8 aboard``; ``4 in the water, no rafts, no life jackets``; ``1 raft with 4 aboard,
    2 in the water, 2 life jackets handed out`` (it read "0 in 0 rafts, 4 in the water (0
    life jackets handed out)"). Rafts and jackets that were none are said only for those in
    the water."""
    parts = [f"{plural(rafts, 'raft')} with {in_rafts} aboard"] if rafts else []
    if in_water:
        parts.append(f"{in_water} in the water")
        if not rafts:
            parts.append("no rafts")
    if jackets:
        parts.append(f"{plural(jackets, 'life jacket')} handed out")
    elif in_water:
        parts.append("no life jackets")
    return ", ".join(parts)


def person_floater(
    fid: int, ship: str, p: Person, hex_name: str, clock: int, state: str, note: str
) -> Floater:
    return Floater(
        fid,
        "people",
        ship,
        p.name,
        p.role,
        p.count,
        p.swimming,
        p.jacket,
        None,
        hex_name,
        state,
        since=clock,
        ended=clock if state != AFLOAT else None,
        note=note,
    )


def _merge_floaters(rows: list[Floater]) -> list[Floater]:
    out: list[Floater] = []
    for f in rows:
        last = out[-1] if out else None
        if (
            last is not None
            and f.name is None
            and last.name is None
            and (last.role, last.swimming, last.jacket) == (f.role, f.swimming, f.jacket)
        ):
            last.count += f.count
        else:
            out.append(f)
    return out


def board(
    ship: Any,
    groups: list[Floater],
    clock: int,
    book: RuleBook,
    water_in_load: bool,
    roster: dict[str, dict[str, Any]],
    split: Callable[[Floater, int], Floater],
) -> tuple[str, list[Floater]]:
    """R74: people come aboard ``ship`` (10 hlbs each, R11) while her Load stays within
    twice her Deadweight (R12); the rest stay where they are. Returns the text and who
    stays. Rescued people are her passengers, survivors she carries whatever they were on
    their own ship; her own people (off her, ``Floater.ship``) come back as what they were:
    her crew as her crew (our reading). Named ones move to her in the roster."""
    # R74: 10 hlbs a person on a rolled ship (R11), 150 lbs on a built boat (R80)
    person = (
        book.load["person_weight"]
        if ship.design is None
        else Fraction(book.boats["person_weight"], 10)
    )
    room = math.floor((sinking_load(ship, book) - load(ship, book, water_in_load)) / max(1, person))
    taken: list[Floater] = []
    left: list[Floater] = []
    for g in groups:
        if room <= 0:
            left.append(g)
            continue
        part = g if g.count <= room else split(g, room)
        if part is not g:
            left.append(g)
        room -= part.count
        part.state, part.ended, part.note = "rescued", clock, f"taken aboard {ship.name}"
        role = rescued_role(part, ship.name)
        if role == "crew":
            ship.crew += part.count
        else:
            ship.passengers += part.count
        if part.name and part.name in roster:
            roster[part.name]["ship"] = ship.name
            roster[part.name]["role"] = role
        taken.append(part)
    text = taken_text(taken, ship.name)
    if left:
        text += (
            f"; {', '.join(g.who() for g in left)} stay in the water: more would put her "
            "over twice her Deadweight (R12)"
        )
    text += " (R74)."
    jackets = stores_jackets(taken, roster)
    if jackets:  # R70, R74 (our reading): the ship's gear comes aboard with who wears it
        ship.equipment["life_jackets"] = int(ship.equipment.get("life_jackets", 0) or 0) + jackets
        text += (
            f" {plural(jackets, 'life jacket')} come{'s' if jackets == 1 else ''} aboard "
            f"with them into {ship.name}'s gear ({ship.equipment['life_jackets']} aboard "
            "now, R70)."
        )
    return text, left


def stores_jackets(taken: list[Floater], roster: dict[str, dict[str, Any]]) -> int:
    """R70, R74 (our reading): the life jackets the rescued wore that are ship's gear (a
    ship's jacket handed out at R71, a castaway's): they come aboard with them into the
    rescuing ship's gear. A named person's own jacket (the roster's) stays his."""
    return sum(
        g.count
        for g in taken
        if g.jacket and not (g.name and g.name in roster and roster[g.name].get("jacket"))
    )


def rescued_role(group: Floater, ship_name: str) -> str:
    """R74 (our reading): what rescued people are aboard ``ship_name``: her own crew come
    back as her crew; everyone else (her passengers, and anyone off another ship, crew
    there or not) is her passenger."""
    return "crew" if group.ship == ship_name and group.role == "crew" else "passenger"


def taken_text(taken: list[Floater], ship_name: str) -> str:
    """ "4 taken aboard as passengers (Anna Roe, 3 crew of Mercy)"; her own crew "back in
    her crew"."""
    n = sum(g.count for g in taken)
    if not taken:
        return f"{n} taken aboard (nobody)"
    back = [g for g in taken if rescued_role(g, ship_name) == "crew"]
    carried = [g for g in taken if rescued_role(g, ship_name) != "crew"]
    parts = []
    if back:
        parts.append(f"back in her crew ({', '.join(g.who() for g in back)})")
    if carried:
        many = sum(g.count for g in carried) != 1  # "as a passenger (Tom Pike)"
        parts.append(
            f"as {'passengers' if many else 'a passenger'} ({', '.join(g.who() for g in carried)})"
        )
    if len(parts) == 1:
        return f"{n} taken aboard{',' if back else ''} {parts[0]}"
    return (
        f"{n} taken aboard: {sum(g.count for g in back)} {parts[0]}, "
        f"{sum(g.count for g in carried)} {parts[1]}"
    )
