"""Encounter checks (R93): what a ship at sea meets, rolled from its own dice stream.

Every ``encounter_interval`` hours (an option; a terrain of tables/encounters.yaml may set its
own) each ship at sea rolls an x-in-6 chance (R3): ``encounter_chance`` by day, and by night
``encounter_chance_night_coast`` in coastal and port-approach hexes. On an encounter she rolls
the region's table for her terrain (open sea, coastal, port approach), faces explicit (R20):
a ship (class and disposition rolled, a name drawn), a leviathan (tables/leviathans.yaml),
wreckage, castaways or a sight.

The dice come from a stream derived from (campaign seed, "encounter", ship, clock), never
from the campaign's roller (R93): checking late, ahead or after an undo gives the same
encounter, and an encounter never shifts another roll. The engine calls
:meth:`EncounterChecks.phase` once an hour (after the ships move); the advance stops for
the referee on an encounter (halt ``encounter``). ``voyage encounter check`` rolls one by
hand with the campaign's roller (voyage.actions.encounters).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.base.tiers import roman
from voyage.dice.events import Event, LoggedEvent, Outcome
from voyage.dice.roller import CheckOptions, Roll, Roller
from voyage.tables.calendar import is_night
from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import generate_name
from voyage.world.castaways import into_phase

TERRAINS = ("open sea", "coastal", "port approach")
#: Terrains "near the coast" for the night chance (R93).
NEAR_COAST = frozenset({"coastal", "port approach"})
#: The minute of the hour an engine check is logged at: after the hour's movement.
CHECK_MINUTE = 59


@dataclass(frozen=True)
class EncounterResult(Outcome):
    """An encounter check: ``met`` is False when nothing was met; else ``encounter`` holds
    what was (kind, and per kind: class, name, disposition, leviathan, people, text)."""

    met: bool
    encounter: dict[str, Any]


_FOUR_G = 1 << 32


class StreamRoller(Roller):
    """A :class:`~voyage.dice.roller.Roller` whose dice are drawn from SHA-256 of a key in counter
    mode (4 bytes a die, rejection-sampled so every face is equally likely): a stream of its
    own, cheap to start (the engine starts one per ship per check)."""

    def __init__(self, key: bytes, options: CheckOptions | None = None) -> None:
        # no super().__init__: seeding a random.Random costs more than the check itself
        self.options = options or CheckOptions()
        self.records = []
        self._key = key
        self._pool = b""  # the last block drawn (32 bytes: 8 values) ...
        self._at = 0  # ... and how many of its bytes are used
        self._block = 0

    def die(self, sides: int) -> int:
        # R93: each 4-byte value of the stream in turn (a block of SHA-256 gives 8); the
        # pool is read at an offset rather than sliced off (the same values, in order)
        limit = _FOUR_G - _FOUR_G % sides
        pool, at = self._pool, self._at
        while True:
            if at >= len(pool):
                pool = hashlib.sha256(self._key + self._block.to_bytes(4, "big")).digest()
                self._pool, at = pool, 0
                self._block += 1
            value = int.from_bytes(pool[at : at + 4], "big")
            at += 4
            if value < limit:
                self._at = at
                return value % sides + 1

    @classmethod
    def after_first(
        cls, key: bytes, block: bytes, options: CheckOptions | None = None
    ) -> StreamRoller:
        """The stream of ``key`` whose first value (of its first block, ``block``: already
        hashed by the engine's peek, R93) is drawn: the next die is its second value."""
        roller = cls(key, options)
        roller._pool, roller._at, roller._block = block, 4, 1
        return roller

    def get_state(self) -> str:
        raise VoyageRuleError("an encounter stream is derived from its key, never saved")


def stream(seed: int, ship: str, clock: int) -> Roller:
    """The dice for a ship's encounter check at campaign hour ``clock`` (R93): a stream
    derived from (seed, "encounter", ship, clock)."""
    return StreamRoller(f"{seed}\0encounter\0{ship.lower()}\0{clock}".encode())


#: StreamRoller.die's rejection limit for a d6: a 4-byte value at or over it is drawn again
_D6_LIMIT = _FOUR_G - _FOUR_G % 6


#: the start of a stream's key by (seed, ship): what :func:`stream` encodes before the clock
_HEADS: dict[tuple[int, str], bytes] = {}


def first_d6(seed: int, ship: str, clock: int) -> int:
    """The first d6 of :func:`stream` (seed, ship, clock): what the engine's check peeks at
    before it starts the stream (most checks meet nothing and roll no more)."""
    head = _HEADS.get((seed, ship))
    if head is None:
        if len(_HEADS) >= 4096:
            _HEADS.clear()
        head = _HEADS[seed, ship] = f"{seed}\0encounter\0{ship.lower()}\0".encode()
    key = head + f"{clock}".encode() + b"\0\0\0\0"  # stream()'s key, then block 0
    value = int.from_bytes(hashlib.sha256(key).digest()[:4], "big")
    if value < _D6_LIMIT:
        return value % 6 + 1
    return stream(seed, ship, clock).die(6)  # rejected: the stream draws on


#: x/6 for the x-in-6 chances a table can give (immutable, shared by the records)
_SIXTHS = {x: Fraction(x, 6) for x in range(1, 7)}


def _chance(roller: Roller, chance: int, face: int | None = None) -> Roll:
    """The x-in-6 encounter chance (R3), recorded as ``Roller.chance`` records it, with its
    exact probability written down (x/6) rather than computed: the engine rolls thousands.
    ``face``: the die already rolled from ``roller`` (the engine peeks before recording)."""
    face = roller.die(6) if face is None else face
    hit = face <= chance
    record = Roll(
        label="encounter check",
        dice="d6",
        faces=[face],
        natural=face,
        total=face,
        target=chance,
        compare="<=",
        target_text=f"vs {chance}-in-6",
        success=hit,
        outcome="an encounter" if hit else "nothing",
        probability=_SIXTHS[chance] if chance in _SIXTHS else Fraction(max(0, min(chance, 6)), 6),
    )
    roller.records.append(record)
    return record


def terrain_of(hex_info: Any) -> str:
    """The encounter terrain of a map hex: port approach (a port's hex), coastal (R33's
    coastal waters), else open sea."""
    if getattr(hex_info, "port", None) or getattr(hex_info, "terrain", "") == "port":
        return "port approach"
    if getattr(hex_info, "coastal", False) or getattr(hex_info, "narrow_passage", False):
        return "coastal"
    return "open sea"


def terrain_table(book: RuleBook, region: str, terrain: str) -> dict[str, Any]:
    """The table for a region and terrain: the region's own, else region ``all``; the
    terrain's own, else ``open sea``."""
    regions = book.encounters["regions"]
    terrains = regions.get(region) or regions["all"]
    return terrains.get(terrain) or terrains["open sea"]


def settings_of(settings: dict[str, Any]) -> tuple[int, int, int]:
    """(interval hours, chance, night-near-the-coast chance) from the campaign's options."""
    return (
        int(settings.get("encounter_interval", 4)),
        int(settings.get("encounter_chance", 1)),
        int(settings.get("encounter_chance_night_coast", 2)),
    )


def interval_for(book: RuleBook, settings: dict[str, Any], region: str, terrain: str) -> int:
    """Hours between checks in this region and terrain (0: no checks)."""
    return int(terrain_table(book, region, terrain).get("interval", settings_of(settings)[0]))


def chance_for(
    book: RuleBook, settings: dict[str, Any], region: str, terrain: str, night: bool
) -> int:
    """The x-in-6 chance of an encounter at a check (R93): the terrain's own day / night
    chance, else the options (by night near the coast the night option)."""
    table = terrain_table(book, region, terrain)
    _, day, night_coast = settings_of(settings)
    if night:
        return int(table.get("night", night_coast if terrain in NEAR_COAST else day))
    return int(table.get("day", day))


def face_odds(table: list[tuple[int, int, Any]]) -> list[tuple[Any, Fraction]]:
    """Each entry of a d6 face table with its exact chance ((last - first + 1) / 6)."""
    return [(value, Fraction(last - first + 1, 6)) for first, last, value in table]


def _on_face(roller: Roller, label: str, table: list[tuple[int, int, Any]]) -> tuple[Any, Roll]:
    if type(roller) is StreamRoller:
        # the engine's stream (R93): the record Roller.roll(label, "d6") makes, made here
        face = roller.die(6)
        record = Roll(label, "d6", [face], face, [], [], 0, [], face)
        roller.records.append(record)
    else:  # the campaign's roller (or a test's): its own roll
        record = roller.roll(label, "d6")
    by_face = _FACES.get(id(table))
    if by_face is None or by_face[0] is not table:
        if len(_FACES) >= 256:
            _FACES.clear()
        by_face = _FACES[id(table)] = (table, [_face_entry(table, face) for face in range(7)])
    if 1 <= record.natural <= 6:
        found = by_face[1][record.natural]
        if found is not None:
            record.outcome = found[1]
            return found[0], record
    for first, last, value in table:
        if first <= record.natural <= last:
            shown = value.get("kind") if isinstance(value, dict) else value
            faces = f" (faces {first}-{last})" if first != last else ""
            record.outcome = f"{shown}{faces}"
            return value, record
    raise VoyageRuleError(f"{label}: no entry for face {record.natural}")  # tables validated


#: a d6 table's entry and outcome text by face (index 1-6), worked out once per table
_FACES: dict[int, tuple[Any, list[tuple[Any, str] | None]]] = {}


def _face_entry(table: list[tuple[int, int, Any]], face: int) -> tuple[Any, str] | None:
    """What :func:`_on_face` finds for ``face``: the first entry whose faces hold it, and
    the outcome it writes on the roll (faces explicit, R93)."""
    for first, last, value in table:
        if first <= face <= last:
            shown = value.get("kind") if isinstance(value, dict) else value
            faces = f" (faces {first}-{last})" if first != last else ""
            return value, f"{shown}{faces}"
    return None


_POOLS: dict[int, tuple[Any, list[str], frozenset[str]]] = {}


def _ship_name(book: RuleBook, roller: Roller, taken: set[str]) -> tuple[str, Roll]:
    """A name for a ship met, drawn as voyage.vessels.ships.generate_name draws one (the same pool,
    the same roll), with the pool built once per rule book."""
    cached = _POOLS.get(id(book))
    if cached is None or cached[0] is not book.names:
        names = book.names
        pool = [f"{a} {b}" for a in names["first"] for b in names["second"] if a != b]
        pool += list(names["whole"])
        cached = _POOLS[id(book)] = (names, pool, frozenset(n.lower() for n in pool))
    pool, lowered = cached[1], cached[2]
    free = pool if taken.isdisjoint(lowered) else [n for n in pool if n.lower() not in taken]
    if len(free) < 2:  # every name taken: generate_name numbers them ("Sea Witch II")
        return generate_name(book, roller, taken)
    return roller.choose("ship name", free)


_BEASTS: dict[tuple[int, str], tuple[Any, dict[str, Any]]] = {}


def _leviathan(book: RuleBook, key: str) -> dict[str, Any]:
    """``book.leviathan(key)``, looked up once per table of leviathans (R93: the engine
    meets thousands a year, and the lookup compares every name)."""
    table = book.leviathans
    found = _BEASTS.get((id(table), key))
    if found is None or found[0] is not table:
        if len(_BEASTS) >= 256:
            _BEASTS.clear()
        found = _BEASTS[id(table), key] = (table, book.leviathan(key))
    return found[1]


def leviathan_text(beast: dict[str, Any]) -> str:
    """A leviathan met (R54, R93): its name, the referee's figures in one parenthesis
    (which a players' log leaves out: voyage.outputs.chronicle.for_players), then its note."""
    return (
        f"a {beast['name']} (speed {beast['speed']}, "
        f"Tier {roman(beast['tier'])}, attacks as an Explosion {beast['zones']} "
        f"{beast['modifier']:+d}). {beast['note']}".strip()
    )


def roll_encounter(
    book: RuleBook,
    roller: Roller,
    region: str,
    terrain: str,
    hex_name: str,
    taken: Callable[[], set[str]] = set,
) -> tuple[dict[str, Any], list[Roll]]:
    """Roll what is met on the region's table for the terrain (R93): the encounter and
    its rolls. ``taken`` gives the ship names already used (a met ship gets a new one)."""
    enc = book.encounters
    value, first = _on_face(roller, "encounter", terrain_table(book, region, terrain)["results"])
    rolls = [first]
    kind = value["kind"]
    found: dict[str, Any] = {"kind": kind, "hex": hex_name, "terrain": terrain}
    if kind == "ship":
        cls_key, r1 = _on_face(roller, "ship met: class", enc["ships"])
        # the key as classes.yaml spells it, else any name ship_class knows (slower)
        cls = book.classes.get(cls_key) or book.ship_class(cls_key)
        disposition, r2 = _on_face(roller, "ship met: disposition", enc["dispositions"])
        name, r3 = _ship_name(book, roller, taken())
        rolls += [r1, r2, r3]
        found.update(ship_class=cls["name"], disposition=disposition, name=name)
        text = f"a {cls['name'].lower()}, the {name}, {disposition}."
    elif kind == "leviathan":
        key, r1 = _on_face(roller, "leviathan", book.leviathans["table"])
        beast = _leviathan(book, key)
        rolls.append(r1)
        found.update(leviathan=beast["key"], name=beast["name"])
        text = leviathan_text(beast)
    elif kind == "castaways":
        r1 = roller.roll("castaways: people in the water", enc["castaways"])
        people = max(1, r1.total)
        r1.outcome = f"{people} in the water"
        rolls.append(r1)
        found["people"] = people
        who = "person" if people == 1 else "people"
        text = f"{people} {who} in the water."
    elif kind == "sight":
        sight, r1 = _on_face(roller, "sight", enc["sights"])
        rolls.append(r1)
        text = str(sight)
    else:  # wreckage
        text = "wreckage in the water."
    if value.get("text"):
        text = str(value["text"]) if kind in ("wreckage", "sight") else f"{text} {value['text']}"
    found["text"] = text
    return found, rolls


def encounter_check(
    book: RuleBook,
    roller: Roller,
    chance: int,
    region: str,
    terrain: str,
    hex_name: str,
    taken: Callable[[], set[str]] = set,
    sure: bool = False,
    face: int | None = None,
) -> EncounterResult:
    """One encounter check (R93): the x-in-6 chance (skipped when ``sure``), then the
    table. Every roll is kept on the result (R4)."""
    rolls: list[Roll] = []
    if not sure:
        hit = _chance(roller, chance, face)
        rolls.append(hit)
        if not hit.success:
            text = f"Encounter check at {hex_name} ({terrain}): nothing met."
            return EncounterResult("encounter check", text, tuple(rolls), {}, False, {})
    found, more = roll_encounter(book, roller, region, terrain, hex_name, taken)
    rolls += more
    text = met_text(hex_name, found)
    return EncounterResult("encounter", text, tuple(rolls), {"encounter": found}, True, found)


def met_text(hex_name: str, found: dict[str, Any]) -> str:
    """The words of an encounter met (R93), by hand and in the engine."""
    return f"Encounter at {hex_name} ({found['kind']}): {found['text']}"


@dataclass
class EncounterChecks:
    """The engine's encounter phase (R93) for one campaign: its seed, rules and options."""

    seed: int
    book: RuleBook
    settings: dict[str, Any]
    taken: Callable[[], set[str]] = set
    #: the weather region of a hex (R61, voyage.actions.voyages.region_lookup); ``all`` without
    region_of: Callable[[str], str] = lambda hex_name: "all"

    def __post_init__(self) -> None:
        self._names: set[str] | None = None
        self._heads: dict[str, bytes] = {}  # ship -> the start of her stream's key (R93)
        self._options = CheckOptions()  # the streams' options (R93: no Check is rolled)
        # hex -> region, terrain, interval, chance by day, by night (R93)
        self._where: dict[str, tuple[str, str, int, int, int]] = {}
        self._interval, _, _ = settings_of(self.settings)
        # a terrain's own interval in any region makes the quick skip below unsafe
        self._own_intervals = any(
            "interval" in t for r in self.book.encounters["regions"].values() for t in r.values()
        )

    def phase(self, engine: Any, clock: int, out: list[Any]) -> None:
        """After the hour ``clock``: each ship at sea whose check falls due rolls from her
        own stream; an encounter is logged with halt ``encounter`` (the advance stops).
        First, ships that meet in a hex on crossing courses are reported (:meth:`meetings`)."""
        states = engine.states
        if len(states) > 1:
            self.meetings(engine, clock, out)
        if not self._own_intervals and (not self._interval or (clock + 1) % self._interval):
            return  # the common hour: no check due anywhere
        night: bool | None = None
        places, heads, seed = self._where, self._heads, self.seed
        sha256, from_bytes = hashlib.sha256, int.from_bytes
        # R93: the key of the stream's first block is (seed, ship, clock) then block 0: the
        # clock's part is the same for every ship this hour
        at = b"%d" % clock
        tail = at + b"\0\0\0\0"
        for s in states:
            status = s.status
            # a ship under way is active and not arrived (ShipState.active): asked of the rest
            if status != "under way" and (not s.active or status == "arrived"):
                continue
            if s.sinking_in is not None:
                continue
            here = s.route[s.position]  # s.hex
            where = places.get(here)
            if where is None:
                where = places[here] = self._place(engine, here)
            every = where[2]
            if not every or (clock + 1) % every:
                continue
            if night is None:
                night = is_night(engine.world.calendar, clock)  # R93
            chance = where[4] if night else where[3]
            name = s.ship.name
            head = heads.get(name)
            if head is None:
                head = heads[name] = f"{seed}\0encounter\0{name.lower()}\0".encode()
            # first_d6(seed, name, clock), inline: the first d6 of her stream (R93)
            block = sha256(head + tail).digest()
            value = from_bytes(block[:4], "big")
            if value < _D6_LIMIT:
                face = value % 6 + 1
                if face > chance:
                    # a check that meets nothing is not logged: it changes nothing, and its
                    # die is derived from (seed, ship, hour), so it can be rolled again exactly
                    continue
                roller: Roller = StreamRoller.after_first(head + at, block, self._options)
            else:  # rejected (4 values in 2**32): the stream draws on
                roller = stream(seed, name, clock)
                face = roller.die(6)
                if face > chance:
                    continue
            self._met(engine, s, clock, out, roller, where, chance, face)

    def _place(self, engine: Any, here: str) -> tuple[str, str, int, int, int]:
        """(region, terrain, hours between checks, chance by day, chance by night) of a hex
        (R93), worked out at the first check there."""
        region = self.region_of(here)
        terrain = terrain_of(engine.hex_info(here))
        every = interval_for(self.book, self.settings, region, terrain)
        by_day = chance_for(self.book, self.settings, region, terrain, False)
        by_night = chance_for(self.book, self.settings, region, terrain, True)
        return region, terrain, every, by_day, by_night

    def _met(
        self,
        engine: Any,
        s: Any,
        clock: int,
        out: list[Any],
        roller: Roller,
        where: tuple[str, str, int, int, int],
        chance: int,
        face: int,
    ) -> None:
        """A check that met something (R93): roll what on her stream (``roller``, its first
        die ``face`` drawn), log it."""
        # encounter_check's roll (its chance met: face <= chance) and table, without the
        # EncounterResult the engine would unpack again (thousands a year)
        rolls = [_chance(roller, chance, face)]
        hex_name = s.route[s.position]  # s.hex
        found, more = roll_encounter(self.book, roller, where[0], where[1], hex_name, self._taken)
        rolls += more
        text = met_text(hex_name, found)
        water = engine.water
        if water is not None:  # (without a water phase into_phase adds nothing)
            # castaways go into the water of her hex (R71-R74): the referee searches
            text += into_phase(water, found, clock)
        event = Event("encounter", text, rolls, CHECK_MINUTE, {"encounter": found})
        out.append(LoggedEvent(s.voyage_id, s.ship.name, clock, event, "encounter"))

    def meetings(self, engine: Any, clock: int, out: list[Any]) -> None:
        """Two ships under way that end an hour in the same hex, at least one having come
        into it this hour, on different courses (their next hexes differ: ships sailing in
        company never "meet"), meet: an encounter of kind ship for each, and the advance
        stops for the referee, who may call a collision (`voyage encounter ram`, R91)."""
        # the common hour: no two ships under way share a hex (R93), seen in one pass that
        # stops at the first shared hex (every hour, with several ships)
        seen: set[str] = set()
        for s in engine.states:
            if s.status == "under way" and s.sinking_in is None:
                here = s.route[s.position]
                if here in seen:
                    break
                seen.add(here)
        else:
            return
        under_way = [s for s in engine.states if s.status == "under way" and s.sinking_in is None]
        first: dict[str, Any] = {}  # hex -> the first ship under way in it
        shared: dict[str, list[Any]] = {}  # hex -> the ships, where two or more
        for s in under_way:
            hex_name = s.route[s.position]
            other = first.setdefault(hex_name, s)
            if other is s:
                pass  # the first in her hex
            elif hex_name in shared:
                shared[hex_name].append(s)
            else:
                shared[hex_name] = [other, s]
        # the hexes in the order their first ship comes (as the ships are listed)
        here = {hex_name: shared[hex_name] for hex_name in first if hex_name in shared}
        for hex_name, ships in here.items():
            for i, a in enumerate(ships):
                for b in ships[i + 1 :]:
                    # ships in company first: they never meet, whoever came in (R93)
                    if _next_hex(a) == _next_hex(b):
                        continue
                    if not (_came_in(engine, a) or _came_in(engine, b)):
                        continue
                    text = (
                        f"{a.ship.name} and {b.ship.name} meet in {hex_name} on crossing "
                        "courses (R93; a collision only if the referee says so, R91)."
                    )
                    found = {
                        "kind": "ship",
                        "hex": hex_name,
                        "terrain": "meeting",
                        "ships": [a.ship.name, b.ship.name],
                        "text": text,
                    }
                    for s in (a, b):
                        event = Event(
                            "encounter",
                            f"Encounter at {hex_name} (ship): {text}",
                            [],
                            CHECK_MINUTE,
                            {"encounter": found},
                        )
                        out.append(LoggedEvent(s.voyage_id, s.ship.name, clock, event, "encounter"))

    def _taken(self) -> set[str]:
        """The campaign's ship names, read once an advance (no ship is made during one)."""
        if self._names is None:
            self._names = self.taken()
        return self._names


def _came_in(engine: Any, s: Any) -> bool:
    """Whether a ship under way entered the hex she is in during the hour just run (R31:
    the miles into it are fewer than she made this hour)."""
    return s.position > 0 and s.progress < engine.figures(s)[0]


def _next_hex(s: Any) -> str | None:
    """The hex a ship at sea makes for next (None at her destination)."""
    return s.route[s.position + 1] if s.position + 1 < len(s.route) else None


def region_lookup(chart: Any) -> Callable[[str], str]:
    """The weather region of a hex (R61) for the encounter tables (R93); ``all`` where the
    map names no region. Asked per hex a ship is in, never by listing the map's hexes
    (a 999 x 999 map has a million); the engine keeps each answer."""
    regions = list(getattr(chart, "regions", {}).items())
    if not regions:
        return lambda hex_name: "all"

    def region_of(hex_name: str) -> str:
        for name, region in regions:
            if hex_name in region.hexes:
                return name
        return "all"

    return region_of


def encounter_checks(camp: Any, chart: Any) -> EncounterChecks:
    """The engine's encounter phase for a campaign (voyage.actions.voyages.world_for); the ship
    names are read now, so the World keeps no campaign (and no open connection)."""
    names = camp.ship_names()
    return EncounterChecks(
        camp.seed, camp.rulebook, dict(camp.settings), lambda: names, region_lookup(chart)
    )
