"""The engine's hour for rafts and people in the water (R72-R74); see voyage.world.water."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..dice import Roll
from ..events import Event
from ..report import plural
from ..rules import water as rules
from ..rules.capsize import capsize_check
from .water import AFLOAT, MINUTES, Floater, Person, board, leave_ship, people_aboard


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
        self.book = engine.book
        self.world = engine.world
        self.roller = engine.roller
        self.floaters = floaters
        self.roster = {r["name"]: r for r in roster}
        self.settings = settings
        self._next = max([f.id for f in floaters] + [0])
        self.clock = 0
        self.out: list[Any] = []
        self._states: dict[str, str] = {}
        self._quiet: dict[tuple[str, int | None, str], tuple[list[str], list[Roll]]] = {}

    # -- bookkeeping ---------------------------------------------------------------------
    def next_id(self) -> int:
        self._next += 1
        return self._next

    @property
    def active(self) -> bool:
        """Whether anyone is still afloat (the clock must run for them)."""
        return any(f.afloat for f in self.floaters)

    def capsized(self) -> set[int]:
        return {f.id for f in self.floaters if f.kind == "raft" and f.capsized and f.afloat}

    def log(
        self,
        ship: str,
        event: Event,
        halt: str | None = None,
        voyage_id: int | None = None,
        clock: int | None = None,
    ) -> None:
        from ..engine import LoggedEvent

        self.out.append(
            LoggedEvent(voyage_id, ship, self.clock if clock is None else clock, event, halt)
        )

    def log_f(self, f: Floater, event: Event, halt: str | None = None) -> None:
        """An event of a raft or people, in the log of the voyage they left."""
        self.log(f.ship, event, halt, voyage_id=f.voyage_id)

    # -- a ship goes down with people aboard (R71) ----------------------------------------
    def ship_lost(self, h: Any) -> None:
        """R71: she submerges (R40) or the fire swallowed her (R50): everyone aboard rolls
        to escape, then the rafts are launched (called by the engine as she goes under)."""
        ship = h.ship
        named = [r for r in self.roster.values() if r["ship"] == ship.name]
        people = people_aboard(ship, named, self.settings)
        if not people:
            return
        night = rules.is_night(h.clock % 24, self.book)
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
        self.floaters.extend(out.floaters)
        self.floaters.extend(out.lost)
        for r in named:
            r["ship"] = None
        ship.crew = ship.passengers = 0
        eq = ship.equipment
        eq["life_jackets"] = max(0, int(eq.get("life_jackets", 0) or 0) - out.jackets_used)
        eq["life_rafts"] = 0

    # -- the hour ------------------------------------------------------------------------
    def hour(self, clock: int) -> list[Any]:
        """One hour for everyone afloat: search, rafts, drowning, drift (module docstring)."""
        self.clock = clock
        self.out = []
        self._states = {}
        if not self.active:
            return self.out
        self.search_phase()
        self.raft_phase()
        self.drowning_phase()
        self.drift_phase()
        return self.out

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
        night = rules.is_night(self.clock % 24, self.book)
        for s in self.e.states:
            if not getattr(s, "searching", False) or not s.active:
                continue
            here = [f for f in self.floaters if f.afloat and f.hex == s.hex]
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
                aboard = [f for f in self.floaters if f.afloat and f.raft == raft.id]
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

    def split(self, group: Floater, count: int) -> Floater:
        """Take ``count`` people out of a group into a new row (the rest stay)."""
        part = replace(group, id=self.next_id(), count=count)
        group.count -= count
        self.floaters.append(part)
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
        text, left = board(
            s.ship, groups, self.clock, self.book, self.world.water_in_load, self.roster, self.split
        )
        if raft is not None and not left:
            raft.state, raft.ended = "rescued", self.clock
            raft.note = f"taken aboard {s.ship.name}"
        self.e.refresh(s)
        self.log(
            s.ship.name,
            Event("rescue", f"{s.ship.name} {how}: {text}", rolls, 0, {"rescued": True}),
            voyage_id=s.voyage_id,
        )

    # R73 ------------------------------------------------------------------------------
    def raft_phase(self) -> None:
        aboard = {f.raft for f in self.floaters if f.kind == "people" and f.afloat}
        for raft in [f for f in self.floaters if f.kind == "raft" and f.afloat]:
            if raft.id not in aboard:  # everyone in it is gone: it drifts off, empty
                raft.state, raft.ended, raft.note = "lost", self.clock, "adrift, empty"
                continue
            state = self.state_at(raft.hex)
            if raft.capsized:
                if state == "calm":  # R73 (our reading): they climb back at the first calm hour
                    raft.capsized = False
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
                    raft, state, f"{raft.hours_in_hex} hours in {rules.sea_words(state)}"
                )

    def raft_check(self, raft: Floater, state: str, reason: str) -> None:
        """R73: a raft's capsize Check, as a Tier I boat at the load of its people (R41)."""
        people = sum(f.count for f in self.floaters if f.afloat and f.raft == raft.id)
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
        )
        ev = result.event()
        if result.capsized:
            raft.capsized = True
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
        capsized = self.capsized()
        self._quiet = {}
        swimmers = [
            f
            for f in self.floaters
            if f.state == AFLOAT and f.kind == "people" and (f.raft is None or f.raft in capsized)
        ]
        for group in swimmers:
            state = self.state_at(group.hex)
            plan = rules.schedule(group.swimming, group.jacket, group.hours_swum, state, self.book)
            if plan.every is not None:
                self.drown_rolls(group, plan, state)
            if group.afloat and group.count:
                group.hours_swum += 1
        # the rolls in which nobody drowned: one event a hex (every roll kept, R4)
        for (ship, voyage_id, hex_name), (who, rolls) in self._quiet.items():
            text = (
                f"{plural(len(rolls), 'drowning roll')} at {hex_name}, nobody drowns (R72): "
                + "; ".join(who)
                + "."
            )
            self.log(ship, Event("water", text, rolls, MINUTES - 1), voyage_id=voyage_id)

    def drown_rolls(self, group: Floater, plan: rules.Schedule, state: str) -> None:
        rolls: list[Roll] = []
        minutes: list[int] = []
        who = group.name or ("a " + ("passenger" if group.role == "passenger" else "crewman"))
        for _ in range(group.count):
            if plan.every == "hour":
                roll = rules.drowning_roll(self.roller, plan.drowned_on, self.book, who)
                rolls.append(roll)
                if roll.success:
                    minutes.append(MINUTES - 1)
                continue
            for minute in range(MINUTES):  # R52: this person is stepped minute by minute
                roll = rules.drowning_roll(self.roller, plan.drowned_on, self.book, who)
                rolls.append(roll)
                if roll.success:
                    minutes.append(minute)
                    break
        sea = rules.sea_words(state)
        lead = f"{group.who()} ({group.swimmer_text()}, {plan.why}) in {sea} at {group.hex}"
        if not minutes:
            whom, kept = self._quiet.setdefault(
                (group.ship, group.voyage_id, str(group.hex)), ([], [])
            )
            whom.append(f"{lead}: {plan.text(state)}")
            kept.extend(rolls)
            return
        dead = group if len(minutes) == group.count else self.split(group, len(minutes))
        dead.state, dead.ended = "drowned", self.clock
        from ..calendar import format_time

        at = ", ".join(format_time(self.world.calendar, self.clock, m) for m in sorted(minutes))
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

    # R64 ------------------------------------------------------------------------------
    def drift_phase(self) -> None:
        from ..rules.drift import drift_hour

        chart = self.world.chart
        for f in [f for f in self.floaters if f.afloat and (f.kind == "raft" or f.raft is None)]:
            start = f.hex
            port = self.e.hex_info(f.hex).port if f.hex else None
            if port:  # R74: in a port's hex (a ship lost in harbour): they are brought ashore
                riders = [f] + [g for g in self.floaters if g.afloat and g.raft == f.id]
                self.reach(
                    riders if f.kind == "raft" else [f],
                    str(f.hex),
                    "rescued",
                    f"brought ashore in {port}",
                )
                continue
            current = self.world.current_at(f.hex or "")
            if current is None or current.knots <= 0:
                f.carry = "0"  # R64: no current, no drift: they stay in the hex
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
                [g for g in self.floaters if g.afloat and g.raft == f.id]
                if f.kind == "raft" and steps
                else []
            )
            for st in steps:
                for g in riders:
                    g.hex = st.into
                if st.onto_land:
                    self.reach(riders, st.into, "ashore", f"washed ashore at {st.into}")
                    break
                info = self.e.hex_info(st.into)
                if info.port:
                    self.reach(riders, st.into, "rescued", f"drifted into {info.port}")
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

    def _storm_clock(self, f: Floater, start: str | None) -> None:
        """R32/R73: only hours spent in storm-tossed seas in the same hex count."""
        if f.afloat:
            stormy = self.state_at(f.hex) != "calm"
            f.hours_in_hex = f.hours_in_hex + 1 if f.hex == start and stormy else 0

    def reach(self, riders: list[Floater], hex_name: str, state: str, how: str) -> None:
        """A port rescues everyone who drifts into it (R74); a shore is reached (R64)."""
        people = sum(g.count for g in riders if g.kind == "people")
        for g in riders:
            g.state, g.ended, g.note = state, self.clock, how
            if g.name and g.name in self.roster:
                self.roster[g.name]["ship"] = None
        self.log_f(
            riders[0],
            Event(
                "rescue",
                f"{riders[0].who()} {how}: {people} people saved (R74).",
                [],
                0,
                {"rescued": people},
            ),
        )


__all__ = ["WaterPhase", "in_the_water", "AFLOAT", "Person"]
