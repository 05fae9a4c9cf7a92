"""People in the campaign (R70-R74): the roster, ship's stores, leaving a ship, search and
rescue, and what became of everyone. The store side of :mod:`voyage.world.water`: it reads
and writes the ``people`` and ``floaters`` tables inside the caller's action.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plural
from voyage.dice.events import Event
from voyage.rules import water as rules
from voyage.world.water import (
    AFLOAT,
    FLOATER_FIELDS,
    Floater,
    board,
    leave_ship,
    leaving_words,
    people_aboard,
)

if TYPE_CHECKING:
    from voyage.store.campaign import Action, Campaign
    from voyage.vessels.vessel import Ship

ROLES = ("crew", "passenger")
MAX_RANK = 20  # R70: "Swimmers and Divers may reach Rank 20"


# -- the roster (R70) -----------------------------------------------------------------------


def roster(camp: Campaign, ship: str | None = None) -> list[dict[str, Any]]:
    """Named people, in the order they were added (optionally only those aboard ``ship``)."""
    if "people" not in camp.db.table_names():
        return []
    if ship is None:
        rows = camp.db.query("SELECT * FROM people ORDER BY id")
    else:
        rows = camp.db.query("SELECT * FROM people WHERE ship = ? ORDER BY id", [ship])
    return [dict(r) for r in rows]


def person(camp: Campaign, name: str) -> dict[str, Any]:
    """A named person (case does not matter), or a one-line error naming the roster."""
    rows = list(camp.db.query("SELECT * FROM people WHERE name = ? COLLATE NOCASE", [name]))
    if not rows:
        known = [r["name"] for r in roster(camp)][:8]
        hint = f" (roster: {', '.join(known)})" if known else " (the roster is empty)"
        raise VoyageRuleError(f"no person named {name!r} in this campaign{hint}")
    return dict(rows[0])


def _check_rank(rank: int) -> int:
    if not 0 <= rank <= MAX_RANK:
        raise VoyageRuleError(f"a Swimming rank is 0 to {MAX_RANK} (R70), not {rank}")
    return rank


def _named_count(camp: Campaign, ship: str, role: str) -> int:
    row = camp.db.execute(
        "SELECT COUNT(*) FROM people WHERE ship = ? AND role = ?", [ship, role]
    ).fetchone()
    return int(row[0])


def _aboard_ship(camp: Campaign, name: str) -> Ship:
    ship = camp.get_ship(name)
    if ship.status in ("sunk", "abandoned"):
        raise VoyageRuleError(f"{ship.name} is {ship.status}: nobody can be put aboard her")
    return ship


def add_person(
    camp: Campaign,
    name: str,
    ship_name: str,
    passenger: bool,
    swimming: int | None,
    jacket: bool,
) -> str:
    """Name someone aboard a ship (one action). Named people are among her crew or passenger
    counts (R11): one of the unnamed is named, or, if all are named, one more comes aboard."""
    name = name.strip()
    if not name:
        raise VoyageRuleError("a person needs a name")
    role = "passenger" if passenger else "crew"
    with camp.action("crew add", f"add {name}"):
        if list(camp.db.query("SELECT id FROM people WHERE name = ? COLLATE NOCASE", [name])):
            raise VoyageRuleError(f"{name!r} is already on the roster: choose another name")
        ship = _aboard_ship(camp, ship_name)
        key = "crew_swimming" if role == "crew" else "passenger_swimming"
        rank = _check_rank(int(camp.settings.get(key, 0)) if swimming is None else swimming)
        count = ship.crew if role == "crew" else ship.passengers
        grew = _named_count(camp, ship.name, role) >= count
        if grew:
            _set_count(camp, ship, role, count + 1)
        camp.db.execute(
            "INSERT INTO people (name, ship, role, swimming, jacket) VALUES (?, ?, ?, ?, ?)",
            [name, ship.name, role, rank, int(jacket)],
        )
    how = (
        "comes aboard"
        if grew
        else f"is one of the {count} {role if role == 'crew' else 'passengers'} aboard"
    )
    return f"{name} ({role}, Swimming {rank}{', life jacket' if jacket else ''}) {how} {ship.name}."


def _set_count(camp: Campaign, ship: Ship, role: str, count: int) -> None:
    from voyage.vessels.ships import load, sinking_load

    setattr(ship, "crew" if role == "crew" else "passengers", count)
    if load(ship, camp.rulebook, camp.water_in_load) > sinking_load(ship, camp.rulebook):
        raise VoyageRuleError(
            f"one more aboard would put {ship.name} over twice her Deadweight (R12)"
        )
    camp.save_ship(ship)


def move_person(camp: Campaign, name: str, ship_name: str) -> str:
    """Move a named person to another ship (one action): one fewer aboard the old ship, one
    more aboard the new (R11); both in the same hex."""
    with camp.action("crew move", f"move {name}"):
        p = person(camp, name)
        to = _aboard_ship(camp, ship_name)
        if p["ship"] is None:
            raise VoyageRuleError(
                f"{p['name']} is not aboard any ship: rescue them with `voyage act SHIP rescue`"
            )
        frm = camp.get_ship(p["ship"])
        if frm.name == to.name:
            raise VoyageRuleError(f"{p['name']} is already aboard {to.name}")
        if frm.hex != to.hex:
            raise VoyageRuleError(
                f"{frm.name} ({frm.hex}) and {to.name} ({to.hex}) are not in the same hex"
            )
        role = p["role"]
        _set_count(camp, frm, role, max(0, (frm.crew if role == "crew" else frm.passengers) - 1))
        _set_count(camp, to, role, (to.crew if role == "crew" else to.passengers) + 1)
        camp.db.execute("UPDATE people SET ship = ? WHERE id = ?", [to.name, p["id"]])
        adrift = _last_crew_off(camp, frm, role)
    return f"{p['name']} moves from {frm.name} to {to.name}." + adrift


def remove_person(camp: Campaign, name: str) -> str:
    """Take a named person off the roster (one action); aboard a ship, they leave her."""
    with camp.action("crew remove", f"remove {name}"):
        p = person(camp, name)
        where = adrift = ""
        if p["ship"] is not None:
            ship = camp.get_ship(p["ship"], archived=True)
            role = p["role"]
            _set_count(
                camp, ship, role, max(0, (ship.crew if role == "crew" else ship.passengers) - 1)
            )
            where = f" and leaves {ship.name}"
            adrift = _last_crew_off(camp, ship, role)
        camp.db.execute("DELETE FROM people WHERE id = ?", [p["id"]])
    return f"{p['name']} is off the roster{where}." + adrift


def _last_crew_off(camp: Campaign, ship: Ship, role: str) -> str:
    """Her last crewman gone while she is under way or searching (`crew move`, `crew
    remove`): nobody sails her, she lies adrift, and her search (R74) ends
    (voyage.actions.crewless.heave_to, as `ship load --crew 0`), saved inside the caller's action;
    the line saying so (after a newline), or ''."""
    if role != "crew" or ship.crew > 0:
        return ""
    from voyage.actions.crewless import heave_to
    from voyage.actions.voyages import save_state

    s, line = heave_to(camp, ship)
    if s is None:
        return ""
    save_state(camp, s, camp.clock)
    return "\n" + line


def check_counts(camp: Campaign, ship: Ship) -> None:
    """Crew and passenger counts never fall below the named people aboard (R70)."""
    for role, count in (("crew", ship.crew), ("passenger", ship.passengers)):
        named = _named_count(camp, ship.name, role)
        if count < named:
            raise VoyageRuleError(
                f"{ship.name} has {named} named {role if role == 'crew' else 'passengers'} "
                f"aboard: the count cannot be {count} (`voyage crew remove NAME` first)"
            )


def set_stores(camp: Campaign, ship: Ship, jackets: int | None, rafts: int | None) -> None:
    """R70: life jackets and rafts are ship's stores, bought in port (more only there)."""
    from voyage.vessels.vessel import life_jackets, life_rafts

    more = (jackets is not None and jackets > life_jackets(ship)) or (
        rafts is not None and rafts > life_rafts(ship)
    )
    if more and ship.status != "in port":
        raise VoyageRuleError(
            f"{ship.name} is {ship.status}: life jackets and rafts are bought in port (R70)"
        )
    if jackets is not None:
        ship.equipment["life_jackets"] = jackets
    if rafts is not None:
        ship.equipment["life_rafts"] = rafts


# -- floaters ---------------------------------------------------------------------------------


#: The stored columns of a floater, in Floater's field order, then the hour its present
#: swim is counted from (m140).
_COLUMNS = (*FLOATER_FIELDS, "swim_since")
_SWUM = FLOATER_FIELDS.index("hours_swum")
_FLAGS = tuple(FLOATER_FIELDS.index(k) for k in ("jacket", "capsized", "radio"))


def floaters(camp: Campaign) -> list[Floater]:
    """Every raft and group of people off a ship, afloat or not, in order, with their hours
    swum at the campaign clock (R72: those in the water count the hours since their
    ``swim_since``, m140)."""
    if "floaters" not in camp.db.table_names():
        return []
    clock = camp.clock
    out = []
    rows = camp.db.conn.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM floaters ORDER BY id"  # noqa: S608 (fixed)
    ).fetchall()
    _keep_stored(camp, {row[0]: row for row in rows})
    for row in rows:
        values = list(row[:-1])
        for i in _FLAGS:
            values[i] = bool(values[i])
        if row[-1] is not None:
            values[_SWUM] += clock - row[-1]
        out.append(Floater(*values))
    return out


def _stored(
    hours: int, values: tuple[Any, ...], old: tuple[Any, ...] | None, clock: int
) -> tuple[Any, ...]:
    """The stored row (:data:`_COLUMNS`) of a floater in the water at ``clock`` with
    ``hours`` swum: it keeps the ``swim_since`` it had (their hours swum grow with the clock,
    so a quiet hour changes nothing), or counts from now; ``hours_swum`` keeps the rest."""
    since = old[-1] if old is not None else None
    if since is None:
        since = clock
    elif hours < clock - since:
        since = clock - hours
    return (*values[:_SWUM], hours - (clock - since), *values[_SWUM + 1 :], since)


_STORED = ("floaters", "stored")


def _version(camp: Campaign) -> tuple[int, int]:
    """What changes whenever the file may have changed: this connection's writes and other
    connections' commits (SQLite's ``data_version``)."""
    conn = camp.db.conn
    return conn.total_changes, int(conn.execute("PRAGMA data_version").fetchone()[0])


def _keep_stored(camp: Campaign, rows: dict[int, tuple[Any, ...]]) -> None:
    """Keep the stored rows just read or written (the campaign's cache, dropped on rollback
    and undo), for :func:`save_floaters` to compare against if nothing wrote in between."""
    camp.cache[_STORED] = (_version(camp), rows)


def _stored_rows(camp: Campaign) -> dict[int, tuple[Any, ...]] | None:
    """The stored rows kept by :func:`_keep_stored`, if the file is as it was then."""
    kept = camp.cache.pop(_STORED, None)
    if kept is None or kept[0] != _version(camp):
        return None
    rows: dict[int, tuple[Any, ...]] = kept[1]
    return rows


def _ints(values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(int(v) if type(v) is bool else v for v in values)


def save_floaters(
    camp: Campaign, rows: list[Floater], people: list[dict[str, Any]], clock: int | None = None
) -> None:
    """Write the floaters and the roster back (inside the caller's action), as they stand
    at ``clock`` (the campaign clock unless given: an advance gives the hour it ends at).
    Only the rows that changed are written (the undo journal keeps the old value of each
    changed column only), and an hour in the water changes nobody's row: their hours swum
    are counted from ``swim_since`` (m140, R72)."""
    clock = camp.clock if clock is None else clock
    cols = _COLUMNS
    listed = ", ".join(cols)
    before = _stored_rows(camp)
    if before is None:  # not read since the last write: read them now
        before = {
            r[0]: tuple(r)
            for r in camp.db.conn.execute(f"SELECT {listed} FROM floaters")  # noqa: S608
        }
    stored: dict[int, tuple[Any, ...]] = {}
    capsized = {f.id for f in rows if f.kind == "raft" and f.capsized and f.state == AFLOAT}
    new: list[tuple[Any, ...]] = []
    # the rows changed, by which columns changed (an hour afloat changes one or two)
    changed: dict[tuple[int, ...], list[tuple[Any, ...]]] = {}
    values_of = attrgetter(*FLOATER_FIELDS)  # flags stay bools here: True == 1 compares
    for f in rows:
        old = before.pop(f.id, None)
        if f.kind == "people" and f.state == AFLOAT and (f.raft is None or f.raft in capsized):
            values = _stored(f.hours_swum, values_of(f), old, clock)  # in the water (R72)
        else:
            values = (*values_of(f), None)
        if old is None:
            new.append(stored.setdefault(f.id, _ints(values)))
        elif old != values:
            which = tuple(i for i in range(1, len(cols)) if old[i] != values[i])
            changed.setdefault(which, []).append(_ints(tuple(values[i] for i in which)) + (f.id,))
            stored[f.id] = _ints(values)
        else:
            stored[f.id] = old
    if before:
        camp.db.conn.executemany("DELETE FROM floaters WHERE id = ?", [[k] for k in before])
    for which, params in changed.items():
        sets = ", ".join(f"{cols[i]} = ?" for i in which)
        camp.db.conn.executemany(
            f"UPDATE floaters SET {sets} WHERE id = ?",
            params,  # noqa: S608 (fixed columns)
        )
    if new:
        camp.db.conn.executemany(
            f"INSERT INTO floaters ({listed}) VALUES ({', '.join('?' for _ in cols)})", new
        )
    for p in people:
        camp.db.execute(
            "UPDATE people SET ship = ?, role = ? WHERE id = ?", [p["ship"], p["role"], p["id"]]
        )
    _keep_stored(camp, stored)  # what the table holds now


def abandon(
    camp: Campaign, ship: Ship, hex_name: str, chart: Any, voyage_id: int | None = None
) -> tuple[str, dict[str, Any]]:
    """R71: `act SHIP abandon` while she floats: rafts four to a raft, jackets to non-swimmers
    first, the rest in the water; no roll. Refused in port (they would simply go ashore)."""
    info = chart.hex(hex_name) if chart is not None else None
    if info is not None and info.port:
        raise VoyageRuleError(
            f"{ship.name} is in {info.port} ({hex_name}): nobody abandons ship in port; "
            "her people simply go ashore"
        )
    named = roster(camp, ship.name)
    rows = floaters(camp)
    people = people_aboard(ship, named, camp.settings)
    next_id = _counter(rows)
    out = leave_ship(
        ship, people, hex_name, camp.clock, camp.rulebook, next_id, voyage_id=voyage_id
    )
    rows += out.floaters
    for r in named:
        r["ship"] = None
    ship.crew = ship.passengers = 0
    ship.equipment["life_jackets"] = max(
        0, int(ship.equipment.get("life_jackets", 0) or 0) - out.jackets_used
    )
    ship.equipment["life_rafts"] = 0
    save_floaters(camp, rows, named)
    in_rafts = sum(f.count for f in out.floaters if f.kind == "people" and f.raft)
    in_water = int(out.events[0].changes["in_water"])
    # R71: one sentence, saying only what there is (it read "All hands abandon Gull at 1005.
    # They leave Gull at 1005: 0 in 0 rafts, 4 in the water (0 life jackets handed out).")
    where = leaving_words(out.rafts_used, in_rafts, in_water, out.jackets_used)
    text = f"All hands abandon {ship.name} at {hex_name}: {where}."
    return text, dict(out.events[0].changes, status="abandoned")


def _search_voyage(camp: Campaign, ship: Ship) -> Any:
    """R74: a ship lying in a hex (arrived, in port) puts out to search it: a voyage of
    one hex, held open while she searches (she arrives there again when the search ends)."""
    from voyage.actions.voyages import insert_voyage
    from voyage.engine.clock import ShipState

    if not ship.hex:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map")
    if ship.status == "abandoned":
        raise VoyageRuleError(f"{ship.name} was abandoned: she has no crew to search")
    vid = insert_voyage(camp, ship.name, [ship.hex], [False], "normal", 0)
    return ShipState(ship, vid, [ship.hex], inshore=[False])


def rescue_action(
    camp: Campaign, act: Action, ship_name: str, names: list[str], everyone: bool
) -> Event:
    """R74: `act SHIP rescue`: the referee declares people in the ship's hex rescued."""
    from voyage.actions.voyages import log_event, open_voyage, save_state

    ship = camp.get_ship(ship_name)
    if ship.status in ("sunk", "abandoned"):
        raise VoyageRuleError(f"{ship.name} is {ship.status}: she can take nobody aboard")
    s = open_voyage(camp, ship.name)
    if s is not None:
        ship = s.ship
    event = rescue(camp, act, ship, names, everyone)
    if s is not None:
        save_state(camp, s, camp.clock)
    else:
        camp.save_ship(ship)
    log_event(camp, act, ship.name, s.voyage_id if s else None, event)
    return event


def _counter(rows: list[Floater]) -> Any:
    state = {"n": max([f.id for f in rows] + [0])}

    def next_id() -> int:
        state["n"] += 1
        return state["n"]

    return next_id


def rescue(camp: Campaign, act: Action, ship: Ship, names: list[str], everyone: bool) -> Event:
    """R74: the referee declares people in the ship's hex rescued (no roll): ``everyone``
    afloat there, or the named people (rafts by their name, e.g. "raft 1 of Sea Witch")."""
    rows = floaters(camp)
    here = [f for f in rows if f.afloat and f.hex == ship.hex]
    if not everyone and not names:
        raise VoyageRuleError("say who to rescue: --all, or the names of people or rafts")
    picked: list[Floater] = []
    if everyone:
        picked = [f for f in here if f.kind == "people"]
        if not picked:
            raise VoyageRuleError(f"nobody is afloat in {ship.name}'s hex {ship.hex}")
    for name in names:
        match = [f for f in rows if f.afloat and f.name and f.name.lower() == name.lower()]
        if not match:
            raise VoyageRuleError(f"nobody named {name!r} is afloat (see `voyage survivors`)")
        f = match[0]
        if f.hex != ship.hex:
            raise VoyageRuleError(
                f"{f.name} is in {f.hex}, not in {ship.name}'s hex {ship.hex}: sail there first"
            )
        if f.kind == "raft":
            picked += [g for g in rows if g.afloat and g.raft == f.id]
        else:
            picked.append(f)
    people = roster(camp)
    by_name = {p["name"]: p for p in people}
    next_id = _counter(rows)

    def split(group: Floater, count: int) -> Floater:
        from dataclasses import replace

        part = replace(group, id=next_id(), count=count)
        group.count -= count
        rows.append(part)
        return part

    text, _left = board(ship, picked, camp.clock, camp.rulebook, camp.water_in_load, by_name, split)
    for raft in [f for f in rows if f.kind == "raft" and f.afloat]:
        if not any(g.afloat and g.raft == raft.id for g in rows) and raft.hex == ship.hex:
            raft.state, raft.ended, raft.note = "rescued", camp.clock, f"taken aboard {ship.name}"
    save_floaters(camp, rows, people)
    # "The referee rules: Gull 1 taken aboard ..." read badly, and told players of the
    # referee: the ruling is in a parenthesis with its code, which the players' log drops
    return Event(
        "rescue",
        f"{ship.name} picks them up (the referee's ruling, R74): {text}",
        [],
        0,
        {"rescued": True},
    )


def start_search(camp: Campaign, ship: Ship, s: Any) -> tuple[str, Any]:
    """R74: she stops and searches her hex each hour from the next advance; a ship lying in
    the hex puts out to search it. Returns the text and her voyage."""
    where = s.hex if s is not None else ship.hex
    if where is None:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map: place her in a port first")
    if ship.status == "abandoned":
        raise VoyageRuleError(f"{ship.name} was abandoned: she has no crew to search")
    if ship.crew < 1:  # R74: a crewless ship (put back after an abandon) cannot search, as
        # she cannot sail (voyages.sail) nor do any work that needs hands (voyage.actions.crewless)
        from voyage.actions.crewless import no_crew

        raise no_crew(ship, "search")
    here = [f for f in floaters(camp) if f.afloat and f.hex == where]
    if not here:
        raise VoyageRuleError(f"nobody is afloat in {ship.name}'s hex {where}: nothing to search")
    if s is None:
        s = _search_voyage(camp, ship)
    s.searching = True
    radio = (
        "her radio will find any raft at once"
        if ship.equipment.get("radio")
        else ("no radio: a raft is found on a 3-in-6")
    )
    text = (
        f"{ship.name} stops to search {s.hex} (R74: each hour; {radio}; people 2-in-6 by "
        "day, 1-in-6 by night)."
    )
    return text, s


# -- what became of them ------------------------------------------------------------------------


def schedule_text(f: Floater, state: str, book: Any) -> str:
    """A group's time left in the sea's terms (R72)."""
    plan = rules.schedule(f.swimming, f.jacket, f.hours_swum, state, book)
    each = "each " if f.count > 1 else ""
    text = f"{f.count} {f.swimmer_text()}: {each}{plan.text(state)}"
    if f.swimming > 0 and not f.jacket and f.hours_swum < f.swimming + 1:
        text += f" (exhausted in {plural(f.swimming + 1 - f.hours_swum, 'hour')})"
    return text


def survivors(camp: Campaign, world: Any = None) -> list[dict[str, Any]]:
    """Every raft and group off a ship, with where they are and their schedule (R72)."""
    from voyage.world.waterphase import in_the_water

    rows = floaters(camp)
    capsized = {f.id for f in rows if f.kind == "raft" and f.capsized and f.afloat}
    out = []
    for f in rows:
        entry = f.to_row()
        entry["who"] = f.who()
        entry["in_water"] = in_the_water(f, capsized)
        if entry["in_water"] and world is not None:
            state = rules.sea_state(world, f.hex or "", camp.clock)
            entry["sea_state"] = state
            entry["schedule"] = schedule_text(f, state, camp.rulebook)
        out.append(entry)
    return out


def fates_by_name(camp: Campaign) -> dict[str, str]:
    """Where each named person off a ship is: "in raft 1 of X at 0403", "drowned: ..."."""
    rows = floaters(camp)
    rafts = {f.id: f for f in rows if f.kind == "raft"}
    out: dict[str, str] = {}
    for f in rows:
        if f.kind != "people" or not f.name:
            continue
        if f.afloat:
            out[f.name] = (
                f"in {rafts[f.raft].who()} at {f.hex}"
                if f.raft in rafts
                else f"in the water at {f.hex}"
            )
        else:
            out[f.name] = _fate(f)
    return out


def rescued_aboard(camp: Campaign) -> dict[str, str]:
    """Named people carried as survivors (R74): name -> "rescued from Mercy, R74" for each
    one aboard the ship that took them out of the water, off another ship (`crew list`)."""
    last: dict[str, tuple[str, str]] = {}  # name -> (rescuer, her own ship)
    for f in floaters(camp):  # in id order: a name's last rescue is the one that holds
        if f.kind == "people" and f.name and f.state == "rescued":
            last[f.name] = (f.note.removeprefix("taken aboard "), f.ship)
    aboard = {p["name"]: p["ship"] for p in roster(camp)}
    return {
        name: f"rescued from {ship}, R74"
        for name, (rescuer, ship) in last.items()
        if aboard.get(name) == rescuer and ship != rescuer
    }


def fate_rows(camp: Campaign, voyage_id: int) -> list[dict[str, Any]]:
    """What became of everyone who left a voyage's ship: who, how many, state, fate."""
    rows = floaters(camp)
    rafts = {f.id: f for f in rows if f.kind == "raft"}
    out = []
    for f in rows:
        if f.voyage_id != voyage_id or f.kind != "people":
            continue
        if f.afloat:
            where = f"in {rafts[f.raft].who()}" if f.raft in rafts else "in the water"
            fate = f"still afloat {where} at {f.hex}"
        else:
            fate = _fate(f)
        out.append(
            {
                "who": f.who(),
                "name": f.name,
                "role": f.role,
                "count": f.count,
                "state": f.state,
                "hex": f.hex,
                "fate": fate,
            }
        )
    return out


def afloat_marks(camp: Campaign, compact: bool = False) -> list[tuple[str, str]]:
    """(label, hex) for everyone afloat now, one mark a hex (so labels on a rendered map do
    not print over each other), to mark on a map beside the ships: "raft 1 of Mercy (4
    aboard), 3 crew of Mercy and Tom Pike (in the water)". ``compact`` (a picture's marks
    and legend) counts three or more rafts of a ship in a hex as one, "8 rafts of Mercy (30
    aboard)", and three or more groups in the water by heads, "12 people in the water":
    eight rafts' names ran off the picture."""
    rows = floaters(camp)
    capsized = {f.id for f in rows if f.kind == "raft" and f.capsized and f.afloat}
    rafts: dict[str, list[str]] = {}
    swimmers: dict[str, list[str]] = {}
    heads: dict[str, int] = {}
    by_ship: dict[str, dict[str, list[tuple[str, int, bool]]]] = {}
    for f in rows:
        if not f.afloat or not f.hex:
            continue
        if f.kind == "raft":
            aboard = sum(g.count for g in rows if g.afloat and g.raft == f.id)
            what = "capsized" if f.capsized else f"{aboard} aboard"
            label = f"{f.who()} ({what})"
            rafts.setdefault(f.hex, []).append(label)
            swimmers.setdefault(f.hex, [])
            by_ship.setdefault(f.hex, {}).setdefault(str(f.ship), []).append(
                (label, aboard, bool(f.capsized))
            )
        elif f.raft is None or f.raft in capsized:
            rafts.setdefault(f.hex, [])
            swimmers.setdefault(f.hex, []).append(f.who())
            heads[f.hex] = heads.get(f.hex, 0) + f.count
    out = []
    for where, labels in rafts.items():
        if compact:
            labels = _rafts_counted(by_ship.get(where, {}))
        people = swimmers.get(where, [])
        if people and compact and len(people) > 2:
            labels = labels + [f"{heads[where]} people in the water"]
        elif people:
            them = people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]
            labels = labels + [f"{them} (in the water)"]
        out.append((", ".join(labels), where))
    return out


def _rafts_counted(ships: dict[str, list[tuple[str, int, bool]]]) -> list[str]:
    """The rafts of a hex (per ship: label, people aboard, capsized), a ship's as one label
    when she has three or more there: "8 rafts of Mercy (30 aboard)", "3 rafts of Mercy (8
    aboard, 1 capsized)"."""
    out: list[str] = []
    for ship, rafts in ships.items():
        if len(rafts) < 3:
            out.extend(label for label, _, _ in rafts)
            continue
        aboard = sum(n for _, n, upset in rafts if not upset)
        upset = sum(1 for _, _, u in rafts if u)
        what = f"{aboard} aboard" + (f", {upset} capsized" if upset else "")
        out.append(f"{len(rafts)} rafts of {ship} ({what})")
    return out


def _fate(f: Floater) -> str:
    """How it ended, in words: "drowned in a major storm at 1709 (...)", "rescued: taken
    aboard Gull", "lost: went down with Mercy"."""
    if not f.note:
        return f.state
    return f.note if f.note.startswith(f.state) else f"{f.state}: {f.note}"
