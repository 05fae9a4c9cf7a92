"""The engine's hour for rafts and people in the water (R64, R72-R74): search, rafts,
drowning and drift, in that order; see voyage.world.water."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from voyage.base.text import plural
from voyage.dice.events import Event, LoggedEvent
from voyage.dice.roller import Roll
from voyage.rules import water as rules
from voyage.rules.capsize import capsize_check
from voyage.rules.drift import drift_hour
from voyage.tables.calendar import format_time, is_night
from voyage.world.raftstores import raft_stores_aboard, raft_stores_phase
from voyage.world.searchend import end_search, restate_row
from voyage.world.water import (
    AFLOAT,
    MINUTES,
    Floater,
    Person,
    board,
    leave_ship,
    people_aboard,
    person_floater,
)


def in_the_water(f: Floater, capsized: set[int]) -> bool:
    """People afloat outside a raft, or in one that has capsized (R73)."""
    return f.kind == "people" and f.afloat and (f.raft is None or f.raft in capsized)


class WaterPhase:
    """Rafts and people off ships, stepped each hour after the ships (R71-R74)."""

    def __init__(
        self,
        engine: Any,
        floaters: list[Floater],
        roster: list[dict[str, Any]],
        settings: dict[str, Any],
    ) -> None:
        self.e = engine
        # bound once: an hour of people in the water logs dozens of events
        self._logged_event = LoggedEvent
        self._format_time = format_time
        self._times: dict[tuple[int, int], str] = {}
        self.book = engine.book
        self.world = engine.world
        self.roller = engine.roller
        self._rows = floaters
        #: hours in the water owed to batches of like people (R72): a batch in which nobody
        #: drowned, on a schedule its hours do not change, is owed the hour as a whole and
        #: each person's ``hours_swum`` is brought up to date when someone reads them
        #: (:attr:`floaters`) or a group splits (id of the batch's list -> [list, hours,
        #: people])
        self._owed: dict[int, list[Any]] = {}
        #: the calm words of a batch's list, while it rolls whole (id -> list, plan, words)
        self._list_words: dict[int, tuple[list[Floater], Any, str, CalmWords]] = {}
        self.roster = {r["name"]: r for r in roster}
        self.settings = settings
        self._next = max([f.id for f in floaters] + [0])
        self.clock = 0
        self.hour_rows: Sequence[Any] = ()
        self.out: list[Any] = []
        self._states: dict[str, str] = {}
        self._plans: dict[tuple[int, bool, bool, str], rules.Schedule] = {}
        self._ports: dict[str, str | None] = {}
        self._currents: dict[str, Any] = {}
        #: whether anything could happen to the people afloat this hour (a roll, a raft's
        #: Check, a drift, a search): an advance ``--until event`` stops when nothing can
        self.stirring = False
        self.calm_people = 0
        # who is where, worked out again only when someone's place or state changes (a
        # calm hour changes nobody's: the hour then costs the rolls, not a sort of everyone)
        self._dirty = True
        self._seen = -1
        self._afloat: list[Floater] = []
        self._afloat_count = 0  #: rows of the lay-out still afloat
        self._rafts: list[Floater] = []
        self._occupied: set[int | None] = set()
        self._batches: list[tuple[tuple[Any, ...], list[Floater]]] = []
        self._movers: list[Floater] = []
        self._mover_hexes: list[str | None] = []
        #: every mover sat in a still hex last hour (their drift clocks at nought) and the
        #: lay-out is the same: an hour in which their hexes stay still changes nothing (R64)
        self._settled = False
        self._sheltered = 0
        #: people in the water who drowned whole since the last lay-out: taken out of the
        #: lay-out alone rather than sorting everyone again (a drowning changes no one else)
        self._gone: list[Floater] = []
        self._order: dict[int, int] = {}
        #: each group's name and whose its rolls are ((id, count) -> words), for CalmWords
        self._pieces: dict[tuple[int, int], tuple[str, list[str]]] = {}
        #: the batches' own lists (id -> list): those whose hours may be owed as a whole
        self._lists: dict[int, list[Floater]] = {}
        #: the words of batches' calm rolls, kept while the batch is the same (R72)
        self._words: dict[tuple[Any, ...], CalmWords] = {}

    # -- bookkeeping ---------------------------------------------------------------------
    @property
    def floaters(self) -> list[Floater]:
        """Every raft and group of people off a ship, their hours swum up to date (R72)."""
        self.settle_hours()
        return self._rows

    @floaters.setter
    def floaters(self, rows: list[Floater]) -> None:
        self.settle_hours()
        self._rows = rows
        self._dirty = True

    def settle_hours(self) -> None:
        """Give every person the hours in the water their batch is owed (R72)."""
        if self._owed:
            for groups, hours, _people in self._owed.values():
                for g in groups:
                    g.hours_swum += hours
            self._owed = {}
            self._list_words = {}

    def _owe_hour(self, groups: list[Floater]) -> int:
        """An hour in the water for everyone of a batch's list (all afloat): owed to the
        list as a whole. Returns how many people it holds."""
        owed = self._owed.get(id(groups))
        if owed is None:
            owed = self._owed[id(groups)] = [groups, 0, sum([g.count for g in groups])]
        owed[1] += 1
        return int(owed[2])

    def _when(self, minute: int) -> str:
        """The time of a minute of this hour as the log shows it (worked out once)."""
        key = (self.clock, minute)
        found = self._times.get(key)
        if found is None:
            if len(self._times) > 512:
                self._times.clear()
            found = self._times[key] = self._format_time(self.world.calendar, self.clock, minute)
        return found

    def next_id(self) -> int:
        self._next += 1
        return self._next

    @property
    def active(self) -> bool:
        """Whether anyone is still afloat (the clock must run for them)."""
        return any(f.afloat for f in self._rows)

    def capsized(self) -> set[int]:
        return {f.id for f in self._rows if f.kind == "raft" and f.capsized and f.afloat}

    def log(
        self,
        ship: str,
        event: Event,
        halt: str | None = None,
        voyage_id: int | None = None,
        clock: int | None = None,
    ) -> None:
        self.out.append(
            self._logged_event(voyage_id, ship, self.clock if clock is None else clock, event, halt)
        )

    def log_f(self, f: Floater, event: Event, halt: str | None = None) -> None:
        """An event of a raft or people, in the log of the voyage they left."""
        self.log(f.ship, event, halt, voyage_id=f.voyage_id)

    # -- named people aboard (R102: going without) ----------------------------------------
    def named_aboard(self, ship_name: str) -> list[dict[str, Any]]:
        """The roster's named people aboard ``ship_name`` (R70), in the roster's order."""
        return [r for r in self.roster.values() if r["ship"] == ship_name]

    def died_aboard(self, ship: Any, person: dict[str, Any], clock: int, note: str) -> None:
        """A named person died aboard (R102): off the roster's ship, and their fate kept
        as the people lost with a ship are (``voyage survivors``, the crew list)."""
        p = Person(
            person["role"], int(person["swimming"]), bool(person["jacket"]), 1, person["name"]
        )
        row = person_floater(self.next_id(), ship.name, p, ship.hex, clock, "lost", note)
        person["ship"] = None
        self._rows.append(row)
        self._dirty = True

    # -- a ship goes down with people aboard (R71) ----------------------------------------
    def ship_lost(self, h: Any) -> None:
        """R71: she submerges (R40) or the fire swallowed her (R50): everyone aboard rolls
        to escape, then the rafts are launched (called by the engine as she goes under)."""
        ship = h.ship
        named = [r for r in self.roster.values() if r["ship"] == ship.name]
        people = people_aboard(ship, named, self.settings)
        if not people:
            return
        night = is_night(self.world.calendar, h.clock)  # R71: below deck by night
        out = leave_ship(
            ship,
            people,
            ship.hex,
            h.clock,
            self.book,
            self.next_id,
            self.roller,
            night,
            h.s.voyage_id,
        )
        self._gone_from(ship, named, out)
        for ev in out.events:
            h.log(ev, "people lost" if out.lost else None)
        self.e.refresh(h.s)

    def _gone_from(self, ship: Any, named: list[dict[str, Any]], out: Any) -> None:
        self._dirty = True
        self._rows.extend(out.floaters)
        self._rows.extend(out.lost)
        for r in named:
            r["ship"] = None
        ship.crew = ship.passengers = 0
        eq = ship.equipment
        eq["life_jackets"] = max(0, int(eq.get("life_jackets", 0) or 0) - out.jackets_used)
        eq["life_rafts"] = 0
        if ship.stores is not None:
            ship.stores.raft = 0  # R100: the rafts' emergency stores went with them

    # -- the hour ------------------------------------------------------------------------
    def hour(self, clock: int, rows: Sequence[Any] = ()) -> list[Any]:
        """One hour for everyone afloat: search, rafts, drowning, drift (module docstring);
        ``rows``: the ships' rows of the hour (voyage.world.searchend)."""
        self.clock, self.hour_rows = clock, rows
        self.out = []
        self._states = {}
        self.stirring = False
        self.lay_out()
        searching = any(getattr(s, "searching", False) and s.active for s in self.e.states)
        if not self._afloat_count and not searching:
            return self.out
        if searching:
            # R74: the search ends by itself when nobody is left afloat in her hex, also when
            # nobody is left afloat anywhere (the last raft found the hour before)
            self.stirring = True
            self.search_phase()
            self.lay_out()
            if not self._afloat_count:
                return self.out
        self.raft_phase()
        self.lay_out()  # a raft that capsized puts its people in the water (R73)
        raft_stores_phase(self)  # R100-R102: the people in rafts eat, drink and go without
        self.lay_out()
        self.drowning_phase()
        self.drift_phase()
        return self.out

    def invalidate(self) -> None:
        """Someone's place or state changed: sort everyone afloat again before the next
        phase (every change inside this class calls it; a caller changing floaters does)."""
        self._dirty = True

    def lay_out(self) -> None:
        """Everyone afloat sorted for the phases: rafts, the people under no raft in batches
        of like people (ship, voyage, hex, role, rank, jacket), and what drifts."""
        if not self._dirty and len(self._rows) == self._seen:
            if self._gone:
                self._drop_gone()
            return
        self._gone = []
        afloat = self._afloat = [f for f in self._rows if f.state == AFLOAT]
        self._afloat_count = len(afloat)
        self._rafts = [f for f in afloat if f.kind == "raft"]
        capsized = {f.id for f in self._rafts if f.capsized}
        self._occupied = {f.raft for f in afloat if f.kind == "people"}
        batches: dict[tuple[Any, ...], list[Floater]] = {}
        self._sheltered = 0
        for f in afloat:
            if f.kind != "people":
                continue
            if f.raft is not None and f.raft not in capsized:
                self._sheltered += f.count  # R72: people in a raft do not roll
                continue
            key = (f.ship, f.voyage_id, f.hex, f.role, f.swimming, f.jacket)
            batches.setdefault(key, []).append(f)
        self._batches = list(batches.items())
        self._lists = {id(groups): groups for groups in batches.values()}
        self._order = {id(f): i for i, f in enumerate(afloat)}
        self._movers = [f for f in afloat if f.kind == "raft" or f.raft is None]
        self._mover_hexes = list(dict.fromkeys(f.hex for f in self._movers))
        self._settled = False
        self._seen = len(self._rows)
        self._dirty = False

    def _drop_gone(self) -> None:
        """Take the people who drowned whole out of the lay-out (same order for the rest).
        While the lay-out stands, the people it holds who are no longer afloat are exactly
        those (anything else that ends someone's time afloat asks for a new lay-out)."""
        hit_rows = self._gone
        hit = {(f.ship, f.voyage_id, f.hex, f.role, f.swimming, f.jacket) for f in hit_rows}
        self._gone = []
        # the drowned stay in the lists of everyone afloat and of movers, and count no more
        # (the drift passes over whoever is not afloat)
        self._afloat_count -= len(hit_rows)
        batches = []
        first_gone = False
        for key, groups in self._batches:
            if key in hit:
                kept = [g for g in groups if g.state == AFLOAT]
                if not kept:
                    continue
                first_gone = first_gone or kept[0] is not groups[0]
                groups = kept
            batches.append((key, groups))
        if first_gone:  # the batches in the order a full lay-out gives them
            order = self._order
            batches.sort(key=lambda b: order[id(b[1][0])])
        self._batches = batches
        self._lists = {id(groups): groups for _key, groups in batches}

    def settled(self) -> str:
        """Why nothing more happens to the people afloat while the sea and the ships stay as
        they are (an advance ``--until event`` stops on it rather than run a year)."""
        return (
            f"nothing threatens or moves the {plural(self.calm_people, 'person', 'people')} "
            "afloat: in rafts or jacketed swimmers, they do not drown in these seas (R72), "
            "no raft has a Check to make (R73) and no current carries them (R64); "
            "`advance --hours N` waits for the weather, `act SHIP search` goes to them"
        )

    def state_at(self, hex_name: str | None) -> str:
        """The sea state at a hex this hour (asked once per hex and hour)."""
        if not hex_name:
            return "calm"
        found = self._states.get(hex_name)
        if found is None:
            found = self._states[hex_name] = rules.sea_state(self.world, hex_name, self.clock)
        return found

    # R74 ------------------------------------------------------------------------------
    def search_phase(self) -> None:
        night = is_night(self.world.calendar, self.clock)  # R74
        for s in self.e.states:
            if not getattr(s, "searching", False) or not s.active:
                continue
            here = [f for f in self._rows if f.afloat and f.hex == s.hex]
            rafts = [f for f in here if f.kind == "raft"]
            loose = [f for f in here if f.kind == "people" and f.raft is None]
            if not here:
                s.searching = False
                self.log(
                    s.ship.name,
                    Event(
                        "search",
                        f"{s.ship.name} finds no one left "
                        f"afloat in {s.hex}: the search is over (R74).",
                    ),
                    voyage_id=s.voyage_id,
                )
                continue
            radio = bool(s.ship.equipment.get("radio"))
            for raft in rafts:
                rolls: list[Roll] = []
                if not radio:
                    roll = rules.search_raft(self.roller, self.book, raft.who())
                    rolls.append(roll)
                    if not roll.success:
                        self.log(
                            s.ship.name,
                            Event(
                                "search",
                                f"{s.ship.name} searches {s.hex}: no sign of {raft.who()} (R74).",
                                rolls,
                            ),
                            voyage_id=s.voyage_id,
                        )
                        continue
                why = "her radio picks up its transponder" if radio else "a look-out sees it"
                aboard = [f for f in self._rows if f.afloat and f.raft == raft.id]
                self.take_aboard(s, aboard, f"found {raft.who()} ({why})", rolls, raft=raft)
            for group in loose:
                singles = [replace(group, count=1) for _ in range(group.count)]
                found = 0
                rolls = []
                for _ in singles:
                    roll = rules.search_person(self.roller, self.book, night, group.who())
                    rolls.append(roll)
                    found += bool(roll.success)
                if not found:
                    self.log(
                        s.ship.name,
                        Event(
                            "search",
                            f"{s.ship.name} searches {s.hex} "
                            f"{'by night' if night else 'by day'}: "
                            f"{group.who()} not seen (R74).",
                            rolls,
                        ),
                        voyage_id=s.voyage_id,
                    )
                    continue
                part = self.split(group, found) if found < group.count else group
                self.take_aboard(s, [part], f"found {part.who()}", rolls)
            end_search(self, s, self._rows)  # R74: the last of them aboard

    def split(self, group: Floater, count: int) -> Floater:
        """Take ``count`` people out of a group into a new row (the rest stay)."""
        self.settle_hours()  # the new row takes the hours swum so far
        part = replace(group, id=self.next_id(), count=count)
        self._dirty = True
        group.count -= count
        self._rows.append(part)
        return part

    def take_aboard(
        self,
        s: Any,
        groups: list[Floater],
        how: str,
        rolls: list[Roll],
        raft: Floater | None = None,
    ) -> None:
        """R74: found people come aboard while her Load stays within twice her Deadweight
        (R12); who does not fit stays where they are."""
        self._dirty = True
        text, left = board(
            s.ship, groups, self.clock, self.book, self.world.water_in_load, self.roster, self.split
        )
        if raft is not None and not left:
            raft.state, raft.ended = "rescued", self.clock
            raft.note = f"taken aboard {s.ship.name}"
            # R103 (our reading): what is left of its stores comes aboard with its people
            text += raft_stores_aboard(s.ship, raft, self.book, self.world.water_in_load)
        self.e.refresh(s)
        restate_row(self.e, s, self.hour_rows)  # her row: at the end of the hour
        self.log(
            s.ship.name,
            Event("rescue", f"{s.ship.name} {how}: {text}", rolls, 0, {"rescued": True}),
            voyage_id=s.voyage_id,
        )

    # R73 ------------------------------------------------------------------------------
    def raft_phase(self) -> None:
        for raft in self._rafts:
            if raft.id not in self._occupied:  # everyone in it is gone: it drifts off, empty
                raft.state, raft.ended, raft.note = "lost", self.clock, "adrift, empty"
                self._dirty = True
                continue
            state = self.state_at(raft.hex)
            if raft.capsized:
                if state == "calm":  # R73 (our reading): they climb back at the first calm hour
                    raft.capsized = False
                    self.stirring = self._dirty = True
                    self.log_f(
                        raft,
                        Event(
                            "raft",
                            f"The sea is calm in {raft.hex}: the "
                            f"people of {raft.who()} right it and climb "
                            "back in (R73).",
                            [],
                            0,
                            {"raft": raft.id},
                        ),
                    )
                continue
            if state == "calm":
                continue
            every = rules.storm_interval(state, self.book)
            if raft.hours_in_hex and raft.hours_in_hex % every == 0:
                self.raft_check(
                    raft, state, f"{plural(raft.hours_in_hex, 'hour')} in {rules.sea_words(state)}"
                )

    def raft_check(self, raft: Floater, state: str, reason: str) -> None:
        """R73: a raft's capsize Check, as a Tier I boat at the load of its people (R41)."""
        self.stirring = True
        people = sum(f.count for f in self._rows if f.afloat and f.raft == raft.id)
        cat = rules.raft_load_category(people, self.book)
        tier = int(rules.water_rules(self.book)["raft_tier"])
        result = capsize_check(
            tier,
            cat,
            self.roller,
            self.book,
            (),
            disadvantages=rules.storm_disadvantages(state, self.book),
            reason=reason,
            vessel="raft",  # R73: the roll's words are the raft's, not "the ship capsizes"
        )
        ev = result.event()
        if result.capsized:
            raft.capsized = True
            self._dirty = True
            ev.text = (
                f"{raft.who()} capsizes in {rules.sea_words(state)} at {raft.hex} (R73): "
                f"its {people} people are in the water."
            )
            self.log_f(raft, ev, "raft capsized")
        else:
            ev.text = f"{raft.who()} rides out {rules.sea_words(state)} at {raft.hex} (R73)."
            self.log_f(raft, ev)

    # R72 ------------------------------------------------------------------------------
    def drowning_phase(self) -> None:
        """R72: everyone in the water (or under a capsized raft) rolls on their schedule.
        Like people (same ship, hex, role, rank, jacket and schedule) roll as one batch:
        each person's own dice, one line of text, and the rolls in which nobody drowned kept
        in one event for the people of a ship (and voyage) and hour, hex by hex (every roll
        is in the log, R4)."""
        self.calm_people = self._sheltered
        batches: list[tuple[tuple[Any, ...], rules.Schedule, str, list[Floater]]] = []
        for key, groups in self._batches:
            ship, voyage_id, hex_name, _role, swimming, jacket = key
            state = self._states.get(hex_name or "") or self.state_at(hex_name)
            if swimming > 0 and not jacket:  # R72 (our reading): rank + 1 hours, then tired
                parts: dict[bool, list[Floater]] = {}
                for g in groups:
                    parts.setdefault(g.hours_swum > swimming, []).append(g)
            else:
                parts = {False: groups}
            for tired, part in parts.items():
                plan = self.plan(swimming, jacket, tired, state)
                if plan.every is None:
                    if part is groups and (jacket or swimming <= 0):  # hours change nothing
                        self.calm_people += self._owe_hour(groups)
                        continue
                    for g in part:
                        self.calm_people += g.count
                        g.hours_swum += 1
                    continue
                batches.append(((ship, voyage_id, hex_name), plan, state, part))
        quiet: dict[tuple[str, int | None, str], tuple[list[str], list[Roll], list[int]]] = {}
        for (ship, voyage_id, hex_name), plan, state, groups in batches:
            self.stirring = True
            calm, tally, n, words = self.drown_rolls(groups, plan, state)
            if calm and tally is not None and words is not None:
                whom, kept, count = quiet.setdefault((ship, voyage_id, str(hex_name)), ([], [], []))
                whom.append(words.says)
                kept.append(tally)
                count.append(n)
            if calm is groups and self._batch_of(groups):  # all calm, on an hourly plan
                self._owe_hour(groups)
                continue
            for group in groups:
                if group.state == AFLOAT and group.count:
                    group.hours_swum += 1
        # one event a ship's people and hour (R4: every die in its batch's record), the
        # hexes in the order their batches rolled
        hours: dict[tuple[str, int | None], list[tuple[str, list[str], list[Roll], int]]] = {}
        for (ship, voyage_id, hex_name), (who, rolls, counts) in quiet.items():
            hours.setdefault((ship, voyage_id), []).append((hex_name, who, rolls, sum(counts)))
        for (ship, voyage_id), hexes in hours.items():
            names = [h[0] for h in hexes]
            where = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            text = (
                f"{plural(sum(h[3] for h in hexes), 'drowning roll')} at {where}, "
                "nobody drowns (R72): " + "; ".join([w for h in hexes for w in h[1]]) + "."
            )
            rolls = [r for h in hexes for r in h[2]]
            self.log(ship, Event("water", text, rolls, MINUTES - 1), voyage_id=voyage_id)

    def plan(self, swimming: int, jacket: bool, tired: bool, state: str) -> rules.Schedule:
        """R72's schedule for a kind of person in a sea state (worked out once a kind)."""
        key = (swimming, jacket, tired, state)
        found = self._plans.get(key)
        if found is None:
            hours = swimming + 1 if tired else 0
            found = self._plans[key] = rules.schedule(swimming, jacket, hours, state, self.book)
        return found

    @staticmethod
    def _lead(
        groups: list[Floater], plan: rules.Schedule, state: str, names: list[str] | None = None
    ) -> str:
        """ "P1, P2 and 3 crew of Sea Witch (non-swimmers, jackets, ...) in calm seas at 1208"
        (``names``: the groups' who(), when the caller has them already)."""
        names = [g.who() for g in groups] if names is None else names
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        first = groups[0]
        swims = Floater.swimmer_text(first, sum([g.count for g in groups]))
        sea = rules.sea_words(state)
        why = f", {plan.why}" if plan.why else ""  # R72: only what swims does not say
        return f"{who} ({swims}{why}) in {sea} at {first.hex}"

    @staticmethod
    def _each(groups: list[Floater], plan: rules.Schedule, state: str) -> str:
        text = plan.text(state)
        return "each " + text.replace("rolls", "roll", 1) if len(groups) > 1 else text

    def _batch_of(self, groups: list[Floater]) -> bool:
        """Whether ``groups`` is a batch's own list whose schedule its hours do not change
        (R72: all but swimmers without a jacket), so its hours can be owed as a whole."""
        first = groups[0]
        return (first.jacket or first.swimming <= 0) and self._lists.get(id(groups)) is groups

    def words_for(
        self, calm: list[Floater], plan: rules.Schedule, state: str, hourly: bool, dice: Any
    ) -> CalmWords:
        """The words of a batch's calm rolls (R72): worked out once while the same people
        roll on the same schedule in the same sea and hex (a quiet day is the same batch
        every hour: only the dice change)."""
        mine = self._list_words.get(id(calm))
        if mine is not None and mine[0] is calm and mine[1] is plan and mine[2] == state:
            return mine[3]
        key = (id(plan), state, hourly, calm[0].hex, tuple([(g.id, g.count) for g in calm]))
        found = self._words.get(key)
        if found is None:
            if len(self._words) > 4096:  # a long advance of changing batches: start again
                self._words.clear()
            found = self._words[key] = CalmWords(calm, plan, state, hourly, dice, self._pieces)
        if self._lists.get(id(calm)) is calm:  # a batch's own list: counts change only by a
            self._list_words[id(calm)] = (calm, plan, state, found)  # split, which forgets
        return found

    def drown_rolls(
        self, groups: list[Floater], plan: rules.Schedule, state: str
    ) -> tuple[list[Floater], Roll | None, int, CalmWords | None]:
        """One batch's drowning rolls (R72): each person rolls once (hourly, the batch's
        dice thrown together) or each minute until drowned (R52). A group in which someone
        drowns has each roll recorded in its own event (:meth:`drowned`); the rest keep
        their dice in one tally record (R4: every roll in the log). Returns the groups in
        which nobody drowned, their tally, how many rolls it holds and their words."""
        dice = rules.drowning_dice(self.book)
        on, w, limit = plan.drowned_on, dice.count, plan.drowned_on - dice.bonus
        throw = self.roller.dice
        hourly = plan.every == "hour"
        each = 1 if hourly else MINUTES
        counts = [g.count for g in groups]
        if hourly:
            faces = throw(dice.sides, w * sum(counts))
        calm: list[Floater] = []
        kept: list[int] = []
        at = 0
        lowest = 10**9  # the calm groups' lowest roll (hourly; worked out again by the minute)
        if hourly and w == 2 and counts.count(1) == len(counts):
            calm, kept, lowest = self._singles(groups, faces, plan, state, dice, limit)
            groups = []  # done: the loop below is for groups of several and the minute steps
        for group in groups:
            who = _who(group)
            if hourly:
                mine = faces[at : at + w * group.count]
                at += len(mine)
                if group.count == 1:  # one person a row (named people): one sum
                    sums = [sum(mine)]
                else:
                    sums = [sum(mine[i : i + w]) for i in range(0, len(mine), w)]
                minutes = [MINUTES - 1 for t in sums if t <= limit]
                if not minutes:
                    lowest = min(lowest, min(sums))
            else:
                mine, minutes = [], []
                for _ in range(group.count):
                    for minute in range(MINUTES):  # R52: stepped minute by minute
                        roll = throw(dice.sides, w)
                        mine += roll
                        if sum(roll) <= limit:
                            minutes.append(minute)
                            break
            if minutes:
                label = f"drowning ({who})"
                rolls = [
                    rules.drowning_record(label, mine[i : i + w], dice, on)
                    for i in range(0, len(mine), w)
                ]
                self.roller.records.extend(rolls)
                self.drowned(group, plan, state, minutes, rolls)
            else:
                calm.append(group)
                kept += mine
        if not calm:
            return calm, None, 0, None
        words = self.words_for(calm, plan, state, hourly, dice)
        tally = rules.drowning_tally(
            words.label, words.whos, kept, each, dice, on, lowest if hourly else None, words.json
        )
        self.roller.records.append(tally)
        return calm, tally, len(kept) // w, words

    def _singles(
        self,
        groups: list[Floater],
        faces: list[int],
        plan: rules.Schedule,
        state: str,
        dice: Any,
        limit: int,
    ) -> tuple[list[Floater], list[int], int]:
        """:meth:`drown_rolls` for an hourly 2d6 batch of one person a row (named people):
        every sum at once, and the same records in the same order as person by person."""
        sums = [a + b for a, b in zip(faces[::2], faces[1::2], strict=True)]
        if min(sums) > limit:  # nobody drowns this hour: the whole batch is calm
            return groups, faces, min(sums)
        calm: list[Floater] = []
        kept: list[int] = []
        lowest = 10**9
        for i, group in enumerate(groups):
            mine = faces[2 * i : 2 * i + 2]
            if sums[i] <= limit:
                label = f"drowning ({_who(group)})"
                rolls = [rules.drowning_record(label, mine, dice, plan.drowned_on)]
                self.roller.records.extend(rolls)
                self.drowned(group, plan, state, [MINUTES - 1], rolls)
            else:
                calm.append(group)
                kept += mine
                lowest = min(lowest, sums[i])
        return calm, kept, lowest

    def drowned(
        self,
        group: Floater,
        plan: rules.Schedule,
        state: str,
        minutes: list[int],
        rolls: list[Roll],
    ) -> None:
        """Who of ``group`` drowned (R72): split off, their fate noted, the referee told."""
        when = self._when
        lead = self._lead([group], plan, state)
        seen, was = len(self._rows) == self._seen, self._dirty
        whole = len(minutes) == group.count
        dead = group if whole else self.split(group, len(minutes))
        dead.state, dead.ended = "drowned", self.clock
        if group.raft is not None:  # under a capsized raft: who is in it changed (R73)
            self._dirty = True
        elif whole:
            self._gone.append(group)
        else:  # the drowned part is a new row, never afloat: nobody else moved
            self._dirty = was
            if seen:
                self._seen = len(self._rows)
        at = ", ".join([when(m) for m in sorted(minutes)])
        dead.note = f"drowned in {rules.sea_words(state)} at {dead.hex} ({at})"
        self.log_f(
            group,
            Event(
                "drowned",
                f"{lead}: {plan.text(state)}; {len(minutes)} "
                f"{'drowns' if len(minutes) == 1 else 'drown'} ({at}) (R72).",
                rolls,
                min(minutes),
                {"drowned": len(minutes)},
            ),
            "drowned",
        )
        if dead.name and dead.name in self.roster:
            self.roster[dead.name]["ship"] = None

    # -- the drift phase (R64, R74) ------------------------------------------------------
    def _port(self, hex_name: str | None) -> str | None:
        if not hex_name:
            return None
        if hex_name not in self._ports:
            self._ports[hex_name] = self.e.hex_info(hex_name).port or None
        return self._ports[hex_name]

    def _current(self, hex_name: str | None) -> Any:
        """The current at a hex (R64: the map's, fixed), or None where none runs."""
        key = hex_name or ""
        if key not in self._currents:
            found = self.world.current_at(key)
            self._currents[key] = found if found is not None and found.knots > 0 else None
        return self._currents[key]

    def _still(self, hex_name: str | None) -> bool:
        """R64: no current, no port, calm: nothing moves there this hour, no clock runs."""
        return (
            self._current(hex_name) is None
            and not self._port(hex_name)
            and self.state_at(hex_name) == "calm"
        )

    def drift_phase(self) -> None:
        """R64: what floats drifts with the current; R74: a port's hex rescues them, a
        shore is reached."""
        if self._settled and all(self._still(h) for h in self._mover_hexes):
            return  # as last hour: everyone stays, their drift clocks at nought (R64)
        chart = self.world.chart
        stay: dict[str | None, bool] = {}
        settled = True
        for f in self._movers:
            if f.state != AFLOAT or (f.kind != "raft" and f.raft is not None):
                continue
            start = f.hex
            still = stay.get(start)
            if still is None:  # R64: no current, no port, calm: nothing moves, no clock runs
                still = stay[start] = self._still(start)
            if still:
                f.carry = "0"
                f.hours_in_hex = 0
                continue
            settled = False
            current = self._current(f.hex)
            port = self._port(f.hex)
            if current is None and not port:
                f.carry = "0"  # R64: no current, no drift: they stay in the hex
                self._storm_clock(f, start)
                continue
            self.stirring = True
            if port:  # R74: in a port's hex (a ship lost in harbour): they are brought ashore
                riders = [f] + [g for g in self._rows if g.afloat and g.raft == f.id]
                self.reach(
                    riders if f.kind == "raft" else [f],
                    str(f.hex),
                    "rescued",
                    f"brought ashore in {port}",
                    MINUTES - 1,  # the hour's end: after its drowning rolls (R72, R74)
                )
                continue
            if current is None:
                f.carry = "0"
                self._storm_clock(f, start)
                continue
            steps, left = drift_hour(
                f.hex or "",
                Fraction(f.carry),
                self.world.current_at,
                chart.is_sea,
                getattr(chart, "in_bounds", chart.is_sea),
                self.e._hex_miles,
            )
            f.carry = str(left)
            riders = [f] + (
                [g for g in self._rows if g.afloat and g.raft == f.id]
                if f.kind == "raft" and steps
                else []
            )
            for st in steps:
                self._dirty = True
                for g in riders:
                    g.hex = st.into
                if st.onto_land:
                    self.reach(riders, st.into, "ashore", f"washed ashore at {st.into}", st.minute)
                    break
                info = self.e.hex_info(st.into)
                if info.port:
                    self.reach(riders, st.into, "rescued", f"drifted into {info.port}", st.minute)
                    break
                self.log_f(
                    f,
                    Event(
                        "drift",
                        f"{f.who()} drifts into {st.into} (R64).",
                        [],
                        st.minute,
                        {"hex": st.into},
                    ),
                )
                state = self.state_at(st.into)
                if f.kind == "raft" and state != "calm" and not f.capsized:
                    self.raft_check(f, state, f"drifting into {state}")  # R73, as R32
            self._storm_clock(f, start)
        self._settled = settled

    def _storm_clock(self, f: Floater, start: str | None) -> None:
        """R32/R73: only hours spent in storm-tossed seas in the same hex count."""
        if f.afloat:
            stormy = self.state_at(f.hex) != "calm"
            f.hours_in_hex = f.hours_in_hex + 1 if f.hex == start and stormy else 0

    def reach(
        self, riders: list[Floater], hex_name: str, state: str, how: str, minute: int
    ) -> None:
        """A port rescues everyone who drifts into it (R74); a shore is reached (R64); at
        ``minute`` of the hour (the drift step's, or the hour's end in a port's hex)."""
        people = sum(g.count for g in riders if g.kind == "people")
        self._dirty = True
        for g in riders:
            g.state, g.ended, g.note = state, self.clock, how
            if g.name and g.name in self.roster:
                self.roster[g.name]["ship"] = None
        self.log_f(
            riders[0],
            Event(
                "rescue",
                f"{riders[0].who()} {how}: {plural(people, 'person', 'people')} saved (R74).",
                [],
                minute,
                {"rescued": people},
            ),
        )


def _who(g: Floater) -> str:
    """Whose drowning roll it is: a name, or "a passenger" / "a crewman" (R72)."""
    return g.name or ("a passenger" if g.role == "passenger" else "a crewman")


class CalmWords:
    """What the log says of a batch's rolls in which nobody drowned (R72), made once for
    as long as the batch stays the same (:meth:`WaterPhase.words_for`): the tally's label
    and whose each roll is, the line in the hour's event, and the tally's fixed words."""

    __slots__ = ("label", "whos", "says", "json")

    def __init__(
        self,
        calm: list[Floater],
        plan: rules.Schedule,
        state: str,
        hourly: bool,
        dice: Any,
        pieces: dict[tuple[int, int], tuple[str, list[str]]] | None = None,
    ) -> None:
        # each group's name and whose its rolls are, kept by (id, count) across batches
        pieces = {} if pieces is None else pieces
        mine = []
        for g in calm:
            piece = pieces.get((g.id, g.count))
            if piece is None:
                piece = pieces[(g.id, g.count)] = (g.who(), [_who(g)] * g.count)
            mine.append(piece)
        names = [p[0] for p in mine]
        self.label = "drowning (" + (names[0] if len(names) == 1 else ", ".join(names)) + ")"
        self.whos = [w for p in mine for w in p[1]]
        lead = WaterPhase._lead(calm, plan, state, names)
        self.says = lead + ": " + WaterPhase._each(calm, plan, state)
        self.json = (
            rules.TallyWords(self.label, self.whos, dice, plan.drowned_on)
            if hourly and rules.TallyWords.fits(dice)
            else None
        )


__all__ = ["WaterPhase", "in_the_water", "AFLOAT", "Person"]
