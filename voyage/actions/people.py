"""People in the campaign (R70-R74): the roster, ship's stores, leaving a ship, search and
rescue, and what became of everyone: the actions on :mod:`voyage.world.water`, whose rows
voyage.store.peoplerows reads and writes inside the caller's action.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from voyage.actions.crewless import heave_to
from voyage.base.errors import VoyageRuleError
from voyage.base.text import check_name, plural
from voyage.dice.events import Event
from voyage.engine.clock import ShipState
from voyage.rules import water as rules
from voyage.rules.crewless import no_crew
from voyage.store.peoplerows import (
    delete_person,
    floaters,
    insert_person,
    named_count,
    on_roster,
    person,
    roster,
    save_floaters,
    set_person_ship,
)
from voyage.store.voyagerows import insert_voyage, save_state
from voyage.vessels.ships import load, sinking_load
from voyage.vessels.stores import stores_figures, stores_from_text
from voyage.vessels.vessel import life_jackets, life_rafts
from voyage.world.raftstores import raft_stores_aboard
from voyage.world.water import (
    Floater,
    board,
    leave_ship,
    leaving_words,
    people_aboard,
)
from voyage.world.waterphase import in_the_water

if TYPE_CHECKING:
    from voyage.store.campaigndb import Action, Campaign
    from voyage.vessels.vessel import Ship

ROLES = ("crew", "passenger")
MAX_RANK = 20  # R70: "Swimmers and Divers may reach Rank 20"


# -- the roster (R70) -----------------------------------------------------------------------


def _check_rank(rank: int) -> int:
    if not 0 <= rank <= MAX_RANK:
        raise VoyageRuleError(f"a Swimming rank is 0 to {MAX_RANK} (R70), not {rank}")
    return rank


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
    name = check_name(name, "a person's name", error=VoyageRuleError)
    role = "passenger" if passenger else "crew"
    with camp.action("crew add", f"add {name}"):
        if on_roster(camp, name):
            raise VoyageRuleError(f"{name!r} is already on the roster: choose another name")
        ship = _aboard_ship(camp, ship_name)
        key = "crew_swimming" if role == "crew" else "passenger_swimming"
        rank = _check_rank(int(camp.settings.get(key, 0)) if swimming is None else swimming)
        count = ship.crew if role == "crew" else ship.passengers
        grew = named_count(camp, ship.name, role) >= count
        if grew:
            _set_count(camp, ship, role, count + 1)
        insert_person(camp, name, ship.name, role, rank, jacket)
    how = (
        "comes aboard"
        if grew
        else f"is one of the {count} {role if role == 'crew' else 'passengers'} aboard"
    )
    return f"{name} ({role}, Swimming {rank}{', life jacket' if jacket else ''}) {how} {ship.name}."


def _set_count(camp: Campaign, ship: Ship, role: str, count: int) -> None:

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
        set_person_ship(camp, p["id"], to.name)
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
        delete_person(camp, p["id"])
    return f"{p['name']} is off the roster{where}." + adrift


def _last_crew_off(camp: Campaign, ship: Ship, role: str) -> str:
    """Her last crewman gone while she is under way or searching (`crew move`, `crew
    remove`): nobody sails her, she lies adrift, and her search (R74) ends
    (voyage.actions.crewless.heave_to, as `ship load --crew 0`), saved inside the caller's action;
    the line saying so (after a newline), or ''."""
    if role != "crew" or ship.crew > 0:
        return ""

    s, line = heave_to(camp, ship)
    if s is None:
        return ""
    save_state(camp, s, camp.clock)
    return "\n" + line


def check_counts(camp: Campaign, ship: Ship) -> None:
    """Crew and passenger counts never fall below the named people aboard (R70)."""
    for role, count in (("crew", ship.crew), ("passenger", ship.passengers)):
        named = named_count(camp, ship.name, role)
        if count < named:
            raise VoyageRuleError(
                f"{ship.name} has {named} named {role if role == 'crew' else 'passengers'} "
                f"aboard: the count cannot be {count} (`voyage crew remove NAME` first)"
            )


def set_stores(camp: Campaign, ship: Ship, jackets: int | None, rafts: int | None) -> None:
    """R70: life jackets and rafts are ship's stores, bought in port (more only there)."""

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


def abandon(
    camp: Campaign, ship: Ship, hex_name: str, chart: Any, voyage_id: int | None = None
) -> tuple[str, dict[str, Any]]:
    """R71: `act SHIP abandon` while she floats: rafts four to a raft (non-swimmers
    first), the rest in the water with the jackets; no roll. Refused in port (they would
    simply go ashore)."""
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
    if ship.stores is not None:
        ship.stores.raft = 0  # R100: the rafts' emergency stores went with them
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

    if not ship.hex:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map")
    if ship.status == "abandoned":
        raise VoyageRuleError(f"{ship.name} was abandoned: she has no crew to search")
    vid = insert_voyage(camp, ship.name, [ship.hex], [False], "normal", 0)
    return ShipState(ship, vid, [ship.hex], inshore=[False])


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

        part = replace(group, id=next_id(), count=count)
        group.count -= count
        rows.append(part)
        return part

    text, _left = board(ship, picked, camp.clock, camp.rulebook, camp.water_in_load, by_name, split)
    text = text.replace(" (R74).", ".", 1)  # the ruling's parenthesis below names R74 once
    for raft in [f for f in rows if f.kind == "raft" and f.afloat]:
        if not any(g.afloat and g.raft == raft.id for g in rows) and raft.hex == ship.hex:
            raft.state, raft.ended, raft.note = "rescued", camp.clock, f"taken aboard {ship.name}"
            # R103 (our reading): what is left of its stores comes aboard with its people
            text += raft_stores_aboard(ship, raft, camp.rulebook, camp.water_in_load)
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

    rows = floaters(camp)
    capsized = {f.id for f in rows if f.kind == "raft" and f.capsized and f.afloat}
    out = []
    for f in rows:
        entry = f.to_row()
        entry["who"] = f.who()
        entry["in_water"] = in_the_water(f, capsized)
        if f.stores is not None:  # R100-R102: a raft's emergency stores, as a ship's show
            aboard = sum(g.count for g in rows if g.afloat and g.raft == f.id)
            entry["stores"] = stores_figures(stores_from_text(f.stores), aboard)
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
