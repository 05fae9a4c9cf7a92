"""The demo: a whole voyage from nothing, in a few seconds, with no questions asked.

:func:`run_demo` makes a campaign from the bundled example campaign (its map and the
``demo:`` section of its campaign.yaml), rolls a fishing trawler, loads her, puts a storm
moving across her course, sails her along the coast (R33) and through the storm (R32, R60)
under the rolled weather of the map's regions (R61-R63), and advances
the clock a day at a time until she arrives, sinks, or ten days have passed. Then it writes
the ship's log (Markdown) and the track picture (PNG) beside the campaign file.

Everything goes through the same core functions the commands use, and every roll through
the campaign's roller, so the same seed tells the same story (R5). The demo plays a referee
who lets the dice decide: it takes no action between advances.

Files are named after the seed, so runs with different seeds sit side by side and a run is
never silently replaced: ``demo-seed-N.db`` (the campaign), ``demo-seed-N.md`` (the log)
and ``demo-seed-N.png`` (the picture).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voyage.actions.referee import referee_action
from voyage.actions.voyages import advance, place_ship, plan_route, sail, shallows
from voyage.base.errors import VoyageError
from voyage.base.text import load_said
from voyage.base.tiers import roman
from voyage.map import hexes as hexmap
from voyage.map.seamap import bundled_campaign, read_campaign_file
from voyage.outputs.export import load_voyage, summary
from voyage.outputs.handouts import write_exports
from voyage.rules.shiptables import roll_ship
from voyage.store.calendarrow import clock_text
from voyage.store.campaign import create_campaign
from voyage.store.mapstore import add_storm, campaign_chart, load_into_campaign, sea_states_for
from voyage.store.voyagerows import open_voyage
from voyage.tables.world import WIND_SIDES
from voyage.vessels import ships as shipfig
from voyage.vessels.ships import generate_name
from voyage.world.cells import STATE_WORDS

DEMO_CAMPAIGN = "salt_reach"
DEMO_CLASS = "trawler"
MAX_DAYS = 10
#: Events of these kinds are counted in the daily line; any other kind is told in full.
ROUTINE = frozenset({"coast", "capsize", "fuel", "strain"})


class DemoError(VoyageError):
    """The demo cannot run: its files are in the way, or the bundled campaign is broken."""


@dataclass
class DemoResult:
    """What the demo made: its files, the ship, the voyage and its summary."""

    folder: Path
    campaign: Path
    log: Path
    picture: Path
    ship: str
    voyage: int
    seed: int
    summary: dict[str, Any]
    lines: list[str] = field(default_factory=list)


def demo_paths(folder: Path, seed: int, run: int = 1) -> dict[str, Path]:
    """The three files a demo with ``seed`` writes in ``folder`` (``run`` 2, 3 … for later
    runs of the same seed, so an earlier run, perhaps played on since, is never replaced)."""
    stem = folder / (f"demo-seed-{seed}" if run == 1 else f"demo-seed-{seed}-run{run}")
    return {
        "db": stem.with_suffix(".db"),
        "md": stem.with_suffix(".md"),
        "png": stem.with_suffix(".png"),
    }


def free_demo_paths(folder: Path, seed: int) -> dict[str, Path]:
    """The first run's names whose three files are all free (README: the demo can be run
    again and again in the same folder)."""
    run = 1
    while any(p.exists() for p in demo_paths(folder, seed, run).values()):
        run += 1
    return demo_paths(folder, seed, run)


def demo_settings(name: str = DEMO_CAMPAIGN) -> tuple[Path, dict[str, Any]]:
    """The bundled campaign's folder and its campaign.yaml, with the demo section checked."""

    folder = bundled_campaign(name)
    data = read_campaign_file(folder)
    demo = data.get("demo")
    where = folder / "campaign.yaml"
    if not isinstance(demo, dict):
        raise DemoError(f"{where}: no 'demo' section (start, destination, storm)")
    for key in ("start", "destination"):
        if not hexmap.is_hex_name(str(demo.get(key, ""))):
            raise DemoError(f'{where}: demo.{key} must be a hex like "0305"')
    storm = demo.get("storm") or {}
    if not isinstance(storm, dict) or not hexmap.is_hex_name(str(storm.get("around", ""))):
        raise DemoError(f"{where}: demo.storm needs around (a hex), radius and hours")
    return folder, data


def default_seed() -> int:
    """The bundled campaign's own seed (campaign.yaml ``seed``)."""
    _, data = demo_settings()
    seed = data.get("seed", 1)
    return seed if isinstance(seed, int) else 1


def run_demo(
    folder: str | Path = "voyage-demo",
    seed: int | None = None,
    *,
    force: bool = False,
    echo: Callable[[str], None] | None = None,
    max_days: int = MAX_DAYS,
) -> DemoResult:
    """Make a campaign, roll and load a ship, sail her through a storm, write her log."""

    say = echo or (lambda line: None)
    lines: list[str] = []

    def tell(line: str) -> None:
        lines.append(line)
        say(line)

    source, settings = demo_settings()
    seed = settings.get("seed", 1) if seed is None else seed
    if not isinstance(seed, int):
        seed = 1
    demo = settings["demo"]
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise DemoError(f"{out} is a file: give --out a folder")
    above = next((p for p in out.parents if p.exists()), None)  # the folder made in
    if above is not None and not above.is_dir():
        raise DemoError(f"{above} is a file, not a folder: give --out a folder")
    paths = demo_paths(out, seed) if force else free_demo_paths(out, seed)
    out.mkdir(parents=True, exist_ok=True)
    if force:
        for path in paths.values():
            path.unlink(missing_ok=True)
        for suffix in ("-wal", "-shm", "-journal"):
            Path(f"{paths['db']}{suffix}").unlink(missing_ok=True)

    name = str(settings.get("name") or "Demo")
    camp = create_campaign(paths["db"], f"{name} (demo, seed {seed})", seed)
    try:
        tell(f"Campaign {camp.name!r} in {paths['db']}.")
        sea_map = load_into_campaign(camp, source)
        chart, _ = campaign_chart(camp)
        book = camp.rulebook
        start, destination = str(demo["start"]), str(demo["destination"])
        storm = demo["storm"]
        start_port = chart.hex(start).port or start
        end_port = chart.hex(destination).port or destination
        tell(f"Map: {sea_map.name} ({sea_map.width}x{sea_map.height} hexes).")

        # A ship rolled on the class table (R18-R21), every roll kept (R4).
        ship = _roll_ship(camp)
        tell(
            f"Rolled the {ship.name}: {book.ship_class(ship.ship_class)['name']}, "
            f"Tier {roman(ship.tier)}, engine Tier {roman(ship.engine_tier)}"
            f"{', ' + ', '.join(ship.traits) if ship.traits else ''}."
        )

        # The course: along the coast (inshore, R33), and through the storm (R32).
        route = plan_route(chart, start, destination, avoid=shallows(book))
        around, radius = str(storm["around"]), int(storm.get("radius", 2))
        if not any(hexmap.distance(h, around) <= radius for h in route):
            route = plan_route(chart, start, destination, via=[around], avoid=shallows(book))
        _load_ship(camp, ship.name, len(route) - 1)
        ship = camp.get_ship(ship.name)
        fig = shipfig.figures(ship, book, camp.water_in_load)
        tell(
            f"Loaded her: crew {ship.crew}, cargo {ship.cargo} hlbs, fuel {ship.fuel} hlbs; "
            f"Load {load_said(fig['load'])} of Deadweight {fig['deadweight']} "
            f"({fig['load_category']}), "
            f"{fig['speed']} knots."
        )
        place_ship(camp, ship.name, start, chart=chart)

        # The storm (R60, R63: placed by hand) moves across the Reach one hex every few
        # hours; it is put up-track so that its centre reaches campaign.yaml's hex about
        # when she is due there, so that she meets it (R32: a capsize check per storm hex).
        first = min(i for i, h in enumerate(route) if hexmap.distance(h, around) <= radius)
        speed = max(1, int(fig["speed"]))
        due = math.ceil(first * int(book.procedures["hex_miles"]) / speed) + 2
        hours = max(int(storm.get("hours", 24)), due + 12)
        moving = str(storm.get("moving") or "").upper() or None
        every = int(storm.get("every", 4))
        centre = _storm_start(around, moving, due // every if moving else 0, chart)
        state_key = str(storm.get("state", "stormy"))
        add_storm(
            camp,
            [],
            hours,
            around=centre,
            radius=radius,
            note="the demo's storm",
            state=state_key,
            moving=moving,
            every=every,
        )

        drift = f", moving {moving} a hex every {every} hours" if moving else ""
        tell(
            f"A storm ({STATE_WORDS[state_key]}) blows within {radius} hexes of {centre} "
            f"for {hours} hours{drift}."
        )
        storm_path = (centre, moving, every, hours)

        state = sail(camp, ship.name, to=destination, route=route, inshore=True, chart=chart)
        tell(
            f"The {ship.name} sails from {start_port} ({start}) for {end_port} "
            f"({destination}): {len(route) - 1} hexes, inshore where the coast allows."
        )

        started = camp.clock
        while camp.clock - started < max_days * 24:
            current = open_voyage(camp, ship.name)
            if current is None:
                break
            if (
                current.status == "arrived"
                and current.leaks
                and not current.emergency
                and current.ship.status == "in port"
            ):
                # R36: her leaks would go on in port; a referee has them mended (R86)
                tell(referee_action(camp, ship.name, "repair", target="leak").text)
                continue
            if (
                current.status == "under way"
                and not current.emergency
                and current.position == len(current.route) - 1
            ):
                # Known engine gap: a ship that gets off the ground in her destination hex
                # is left "under way" there and never arrives; stepping on changes nothing.
                tell(
                    f"She lies off {end_port} ({destination}) but her arrival was never "
                    "logged; the demo stops here."
                )
                break
            day = camp.clock // 24 + 1
            day_end = (camp.clock // 24 + 1) * 24
            rows: list[Any] = []
            logged: list[Any] = []
            while camp.clock < day_end and open_voyage(camp, ship.name) is not None:
                try:
                    result = advance(camp, hours=day_end - camp.clock)
                except VoyageError:
                    break  # nothing left at sea to step
                rows += [r for r in result.rows if r.ship == ship.name]
                logged += [e for e in result.events if e.ship == ship.name]
                if result.hours_run == 0:
                    break
            tell(_day_line(day, rows, logged))
            # the day's weather and events in the order they happened; weather the clock
            # has not reached (the rest of a day she sank in) is not told
            told = [w for w in _weather_lines(camp, chart, day, storm_path) if w[0] < camp.clock]
            told += [
                (event.clock, event.event.minute, event.event.text)
                for event in logged
                if event.halt or event.event.kind not in ROUTINE
            ]
            for hour, minute, text in sorted(told, key=lambda w: (w[0], w[1])):
                tell(f"    {clock_text(camp, hour, minute)} {text}")

        log = load_voyage(camp, ship.name, state.voyage_id)
        written = write_exports(
            log,
            ["md", "png"],
            paths["md"],
            force=force,
            sea_map=sea_map,
            rolls="none",
            audience="players",
        )
        facts = summary(log)
        tell(
            f"Outcome: {facts['outcome']}. {facts['distance_miles']:g} miles, "
            f"{facts['hexes_entered']} hexes, {facts['fuel_burnt']} hlbs of fuel burnt, "
            f"{facts['time_at_sea']} at sea, {facts['rolls']} rolls."
        )
        return DemoResult(
            folder=out,
            campaign=paths["db"],
            log=written["md"],
            picture=written["png"],
            ship=ship.name,
            voyage=log.id,
            seed=seed,
            summary=facts,
            lines=lines,
        )
    finally:
        camp.close()


def _storm_start(around: str, moving: str | None, steps: int, chart: Any) -> str:
    """The hex a moving storm starts from so that after ``steps`` moves it is centred on
    ``around``: as far back up its path as the map allows."""

    if not moving:
        return around
    d = hexmap.CUBE_DIRECTIONS[(WIND_SIDES.index(moving) + 3) % 6]
    q, r, s = hexmap.to_cube(around)
    for n in range(steps, -1, -1):
        col, row = hexmap.cube_to_offset((q + d[0] * n, r + d[1] * n, s + d[2] * n))
        if 1 <= col <= chart.width and 1 <= row <= chart.height:
            return hexmap.hex_name(col, row)
    return around


def _weather_lines(
    camp: Any, chart: Any, day: int, storm: tuple[Any, ...]
) -> list[tuple[int, int, str]]:
    """What the weather did on ``day``, as (hour, minute, text): cells rolled at 06:00
    (R61, R62) and where the moving storm's centre got to (R63)."""

    sea = sea_states_for(camp, chart)
    lines: list[tuple[int, int, str]] = []
    if sea.rolled:
        for name in sea.regions:
            rolled = sea.day(name, day)
            if rolled.cell is not None:
                lines.append((rolled.cell.start_hour, 0, f"weather, {name}: {rolled.text}."))
    centre, moving, every, hours = storm
    end = day * 24 - 1
    if moving and end < hours:
        d = hexmap.CUBE_DIRECTIONS[WIND_SIDES.index(moving)]
        q, r, s = hexmap.to_cube(centre)
        n = end // every
        col, row = hexmap.cube_to_offset((q + d[0] * n, r + d[1] * n, s + d[2] * n))
        where = (
            hexmap.hex_name(col, row)
            if 1 <= col <= chart.width and 1 <= row <= chart.height
            else "off the map"
        )
        lines.append((end, 0, f"the storm has moved {moving} from {centre}: centred on {where}."))
    return lines


def _roll_ship(camp: Any) -> Any:
    """Roll a named trawler (one action, its rolls recorded as `voyage ship roll` does)."""

    book = camp.rulebook
    with camp.action("ship roll", "roll the demo ship"):
        roller = camp.roller
        name, record = generate_name(book, roller, camp.ship_names())
        ship, rolls = roll_ship(book, roller, name, DEMO_CLASS)
        camp.add_ship(ship)
        camp.record_rolls([record, *rolls], name)
    return ship


def _load_ship(camp: Any, name: str, hexes: int) -> None:
    """Crew, fuel for the course and half again (R16), and cargo up to about half of the
    Deadweight (R12: Half load, +1 knot), as a referee would load her for a fishing run."""

    book = camp.rulebook
    ship = camp.get_ship(name)
    dw = shipfig.deadweight(ship, book)
    ship.crew = 4 + ship.tier
    ship.fuel = 0
    ship.cargo = 0
    # Fuel at Half load, and half again for detours and bad luck.
    use = max(1, book.fuel_band(ship.tier) + shipfig.trait_effect(ship, book, "fuel_use"))
    ship.fuel = math.ceil(hexes * use * 1.5) + 10
    ship.cargo = max(0, int(dw * 0.45) - shipfig.load(ship, book, camp.water_in_load))
    with camp.action("ship load", f"load {name}"):
        camp.save_ship(ship)


def _day_line(day: int, rows: list[Any], logged: list[Any]) -> str:
    if not rows:
        return f"Day {day}: no hours at sea."
    miles = sum(r.miles for r in rows)
    kinds = Counter(e.event.kind for e in logged if not e.halt and e.event.kind in ROUTINE)
    counted = ", ".join(f"{n} {k} roll{'s' if n != 1 else ''}" for k, n in sorted(kinds.items()))
    last = rows[-1]
    return (
        f"Day {day}: {len(rows)} hours, {miles} miles to hex {last.hex}; fuel {last.fuel}, "
        f"water in her hull {last.water}; {last.status}" + (f" ({counted})" if counted else "")
    )
