"""What drifts with the current among the people and rafts off ships (R64), and what a
drift reaches: a port that rescues them or a shore (R74): the drift phase of
:class:`~voyage.world.waterphase.WaterPhase`, which takes these methods from
:class:`WaterDrift` (split from voyage.world.waterphase: house limit of 900 lines).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from voyage.base.text import plural
from voyage.dice.events import Event
from voyage.world.water import AFLOAT, MINUTES, Floater


class WaterDrift:
    """The drift phase (R64, R74) of :class:`~voyage.world.waterphase.WaterPhase`."""

    if TYPE_CHECKING:  # WaterPhase's, which these methods use
        e: Any
        world: Any
        clock: int
        roster: dict[str, dict[str, Any]]
        stirring: bool
        _rows: list[Floater]
        _dirty: bool
        _settled: bool
        _movers: list[Floater]
        _mover_hexes: list[str | None]
        _ports: dict[str, str | None]
        _currents: dict[str, Any]

        def state_at(self, hex_name: str | None) -> str: ...
        def log_f(self, f: Floater, event: Event, halt: str | None = None) -> None: ...
        def raft_check(self, raft: Floater, state: str, reason: str) -> None: ...

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
        if self._settled and all(self._still(h) for h in self._mover_hexes):
            return  # as last hour: everyone stays, their drift clocks at nought (R64)
        from voyage.rules.drift import drift_hour

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
