"""Map commands: load, show, render, hex."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    NOTE,
    RADIUS,
    Choice,
    FilePath,
    NamedFile,
    db_option,
    emit_json,
    force_option,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
    refuse_existing,
    whole_output,
)
from voyage.cli.hexarg import hex_or_port


@click.group("map")
def map_group() -> None:
    """Load the campaign's sea map, look at it, draw it, ask about a hex.

    Example:

        voyage map load salt_reach
    """


def _area_options(func: Any) -> Any:
    func = click.option(
        "--radius", type=RADIUS, default=None, help="Hexes around --around (0 to 999)."
    )(func)
    return click.option(
        "--around", default=None, metavar="HEX", help="Show only near HEX (or a port)."
    )(func)


@map_group.command("load")
@db_option
@click.argument("path", type=FilePath())
@json_option
@handles_errors
def load(db_path: str, path: str, as_json: bool) -> None:
    """Load a map file or a campaign folder's map into the campaign.

    The file is checked first; a bad file changes nothing. PATH may also name a bundled
    campaign (salt_reach), or a Worldographer, Hexfriend or Tiled map (imported as
    `voyage map import PATH --load` does). Undo with `voyage undo`.

    Example:

        voyage map load salt_reach
    """
    from voyage.actions.mapimport import import_file, is_importable, load_imported
    from voyage.store.mapstore import load_into_campaign, ship_positions, unplaced_encounter_regions

    camp = open_campaign(db_path)
    if is_importable(path):  # a Worldographer, Hexfriend or Tiled map: converted first
        imported = import_file(path, table=camp.rulebook.terrains)
        sea = load_imported(camp, imported)
        for line in imported.report:
            click.echo(line, err=True)
    else:
        sea = load_into_campaign(camp, path)
    stranded = [f"{n} ({h})" for n, h in ship_positions(camp) if not sea.is_sea(h)]
    ports = [{"hex": p.name, "port": p.port} for p in sea.ports()]
    info: dict[str, Any] = {
        "name": sea.name,
        "source": sea.source,
        "width": sea.width,
        "height": sea.height,
        "ports": ports,
        "ships_not_at_sea": stranded,
    }
    if as_json:
        emit_json(info)
        return
    click.echo(
        f"Loaded {sea.name}: {sea.width} x {sea.height} hexes, {len(ports)} ports, "
        f"from {sea.source}."
    )
    if stranded:
        click.echo(f"Warning: not on water in this map: {', '.join(stranded)}", err=True)
    for line in unplaced_encounter_regions(camp.rulebook, sea):
        click.echo(line, err=True)  # R93: a house table's region this map has not


@map_group.command("show")
@db_option
@_area_options
@json_option
@handles_errors
@whole_output
def show(db_path: str, around: str | None, radius: int | None, as_json: bool) -> None:
    """Print the map in the terminal: a character per hex, ships, storms now, a legend.

    Even columns sit half a hex lower on the real map (hexes 0101, 0201, ... as in print).

    Examples:

        voyage map show

        voyage map show --around 1510 --radius 3
    """
    from voyage.outputs.render import text_map
    from voyage.store.calendarrow import clock_text
    from voyage.store.mapstore import current_map, ship_positions, storms_now
    from voyage.store.portfuel import fuel_left

    camp = read_campaign(db_path)
    sea = current_map(camp)
    around = hex_or_port(camp, around)
    from voyage.actions.people import afloat_marks

    storms, ships = storms_now(camp), ship_positions(camp)
    afloat = afloat_marks(camp)  # R71-R74: rafts and people in the water, marked as ships are
    left = fuel_left(camp, sea)
    # a wreck is no ship afloat: "1  Quiet Hound (2914)" read as a ship there now
    lost = camp.lost_ships()
    marks = [(f"{n} ({lost[n]})" if n in lost else n, h) for n, h in ships]
    text = text_map(
        sea, around=around, radius=radius, storms=storms, ships=marks + afloat, fuel_left=left
    )
    if as_json:
        emit_json(
            {
                "map": sea.name,
                "width": sea.width,
                "height": sea.height,
                "hour": camp.clock,
                "time": clock_text(camp, camp.clock),
                "lines": text.splitlines(),
                "storms": sorted(storms),
                "ships": [{"name": name, "hex": where} for name, where in ships],
                "afloat": [{"name": name, "hex": where} for name, where in afloat],
                "ports": [_port_json(p, left) for p in sea.ports()],
            }
        )
        return
    click.echo(f"{sea.name} ({clock_text(camp, camp.clock)})")
    click.echo(text)


@map_group.command("render")
@db_option
@click.option(
    "--out",
    "out",
    required=True,
    type=NamedFile("a picture", "--out map.png", dir_okay=False),
    help="Picture to write (.png, .svg or .pdf; a file: not - for standard output); "
    "nothing else is written.",
)
@click.option("--labels", is_flag=True, help="Write every hex's CCRR name.")
@_area_options
@click.option(
    "--title", type=NOTE, default=None, help="Title (default: the map's name and the time)."
)
@click.option(
    "--tracks",
    type=Choice(["open", "all", "none"]),
    default="open",
    show_default=True,
    help="Voyage tracks to draw: voyages still at sea, every voyage, or none.",
)
@click.option(
    "--at",
    "when",
    default=None,
    help="Draw this hour: its weather, and the ships where they were then with their "
    "tracks up to it: 'day 3, 14:00', '14:00', '+6h' (default: now).",
)
@force_option
@handles_errors
def render(
    db_path: str,
    out: str,
    labels: bool,
    around: str | None,
    radius: int | None,
    title: str | None,
    tracks: str,
    when: str | None,
    force: bool,
) -> None:
    """Draw the map as a picture: ports, the weather, currents, the ships and their tracks.

    The weather of the hour (now, or --at) is shaded by sea state (R60), with each storm
    cell outlined and an arrow the way it drifts (R62); each current is an arrow the way it
    flows, with its knots (R64). With --at an hour gone by, each ship is drawn where she
    was then and her track up to it (a later hour: where she is now).

    Big maps are drawn with smaller hexes to stay within 10 megapixels; past that (a map
    over about 420 x 420 hexes) draw a part with --around HEX --radius N. --labels works
    on up to 3,000 hexes. An existing --out file is kept unless --force is given.

    Examples:

        voyage map render --out map.png --labels

        voyage map render --out storm.png --around 1510 --radius 3 --at "day 2, 12:00"
    """
    from voyage.actions.people import afloat_marks
    from voyage.actions.weather import parse_when
    from voyage.outputs.encountermarks import render_places
    from voyage.outputs.weatherplot import render_weather
    from voyage.store.calendarrow import campaign_calendar, clock_text
    from voyage.store.mapstore import current_map, sea_states_for, ship_positions
    from voyage.store.voyagelog import lost_by, positions_at, voyage_tracks

    refuse_existing(out, force)
    camp = read_campaign(db_path)
    sea = current_map(camp)
    around = hex_or_port(camp, around)
    calendar = campaign_calendar(camp)
    hour = parse_when(when, camp.clock, calendar) if when is not None else camp.clock
    if hour < camp.clock:  # an hour gone by: the ships where they were, tracks up to it
        ships = positions_at(camp, hour)
        drawn_tracks = voyage_tracks(camp, tracks, until=hour)
        wrecks = set(lost_by(camp, hour))
    else:  # rafts and people in the water are known as they are now (R71-R74)
        ships = ship_positions(camp) + afloat_marks(camp, compact=True)
        drawn_tracks = voyage_tracks(camp, tracks)
        wrecks = set(camp.lost_ships())  # sunk or abandoned: drawn as wrecks
    from voyage.cli.progress import progress_bar
    from voyage.outputs.render import RENDER_STEPS

    with progress_bar(RENDER_STEPS, "Drawing") as progress:  # a big map takes a while
        path = render_weather(
            sea,
            sea_states_for(camp, sea),
            hour,
            out,
            labels=labels,
            around=around,
            radius=radius,
            ships=ships,
            wrecks=wrecks,
            tracks=drawn_tracks,
            encounters=render_places(camp, tracks, hour),  # encounters marked
            title=title or f"{sea.name}, {clock_text(camp, hour)}",
            currents=[(h, c.side, float(c.knots)) for h, c in sorted(sea.currents.items())],
            progress=progress,
            force=force,  # a file made meanwhile is kept too (voyage.base.atomicfile)
        )
    click.echo(f"Wrote {path}")


@map_group.command("hex")
@db_option
@click.argument("hex_name", metavar="CCRR|PORT")
@json_option
@handles_errors
def hex_command(db_path: str, hex_name: str, as_json: bool) -> None:
    """Say what is in a hex: terrain, seabed, coast, port and fuel, passage, storm, ships.

    HEX is CCRR or a port's name.

    Examples:

        voyage map hex 0305

        voyage map hex Ironport
    """
    from voyage.store.calendarrow import clock_text
    from voyage.store.mapstore import current_map, sea_states_for, ship_positions
    from voyage.store.portfuel import fuel_left, fuel_words

    camp = read_campaign(db_path)
    sea = current_map(camp)
    h = sea.hex(str(hex_or_port(camp, hex_name)))
    info = h.to_dict()
    left = fuel_left(camp, sea)
    if h.fuel is not None:
        info["fuel"]["left"] = left.get(h.name)  # the stock less what ships bought here
    weather = sea_states_for(camp, sea)
    state = weather.state(h.name, camp.clock)
    info["storm"] = state != "calm"
    info["sea_state"] = state  # R60 (a port shelters the ships in it)
    region = sea.region_of(h.name)
    info["region"] = region.name if region else None
    info["ships"] = [n for n, at in ship_positions(camp) if at == h.name]
    info["hour"] = camp.clock
    info["time"] = clock_text(camp, camp.clock)
    current = sea.currents.get(h.name)
    info["current"] = (
        None if current is None else {"flows": current.direction, "knots": float(current.knots)}
    )
    if as_json:
        emit_json(info)
        return
    lines = [f"{h.name}: {h.label + ', ' if h.label else ''}{_terrain_words(h)}"]
    if h.is_sea:
        lines.append(f"  seabed: {h.seabed}")
        lines.append(f"  coastal: {'yes' if h.coastal else 'no'}")
        if h.depth is not None:
            lines.append(f"  depth: {h.depth:g} ft")
        if current is not None:
            lines.append(f"  current: {current.text()} (R64)")
    if h.narrow_passage:
        lines.append("  narrow passage: yes (within a mile of the coast, R33)")
    if h.port:
        lines.append(f"  port: {h.port}, {fuel_words(h, left, ' per hlb')}")
    from voyage.world.cells import STATE_WORDS

    if h.is_sea:  # land has no sea state (a storm over it tosses nothing, R60)
        lines.append(f"  sea now ({info['time']}): {STATE_WORDS[state]}")
    if region is not None:
        lines.append(f"  weather region: {region.name} ({region.climate})")
    lines.append(f"  ships here: {', '.join(info['ships']) if info['ships'] else 'none'}")
    if h.notes:
        lines.append(f"  notes: {h.notes}")
    click.echo("\n".join(lines))


def _port_json(p: Any, left: dict[str, int | None]) -> dict[str, Any]:
    """A port for `map show --json`: its fuel price, stock and what is left (null: none
    sold there, or no limit)."""
    fuel = None
    if p.fuel is not None:
        fuel = {"price": p.fuel.price, "stock": p.fuel.stock, "left": left.get(p.name)}
    return {"hex": p.name, "port": p.port, "fuel": fuel}


def _terrain_words(h: Any) -> str:
    from voyage.map.seamap import TERRAIN_WORDS

    return TERRAIN_WORDS[h.terrain]


@map_group.command("import")
@db_option
@click.argument("path", type=FilePath())
@click.option(
    "--terrain-map",
    "terrain_map",
    type=FilePath(),
    default=None,
    help="YAML naming the tool's terrains: terrains: {Hills: land, Kelp Beds: shoal}; goes "
    "over the campaign's terrains table (with --load).",
)
@click.option(
    "--out",
    "out",
    type=NamedFile("a map file", "--out map.yaml", dir_okay=False),
    default=None,
    help="Write voyage's map file here (default: standard output, unless --load).",
)
@click.option("--load", "load_it", is_flag=True, help="Load the map into the campaign too.")
@click.option(
    "--window",
    default=None,
    metavar="CCRR:CCRR",
    help="Import only the hexes from this top-left to this bottom-right hex.",
)
@force_option
@handles_errors
def import_command(
    db_path: str,
    path: str,
    terrain_map: str | None,
    out: str | None,
    load_it: bool,
    window: str | None,
    force: bool,
) -> None:
    """Import a Worldographer (.wxx), Hexfriend (.json) or hexagonal Tiled (.tmx) map.

    The format is told from the file's content. The map becomes voyage's own map file, to
    edit by hand; the report (on standard error) says how each terrain name was mapped,
    which towns became ports and what was left out. A bad file changes nothing.

    Examples:

        voyage map import reach.wxx --out reach.yaml

        voyage map import reach.wxx --load
    """
    from voyage.actions.mapimport import import_file, load_imported
    from voyage.base.atomicfile import write_text

    if out is not None:
        refuse_existing(out, force)
    camp = open_campaign(db_path) if load_it else None
    table = camp.rulebook.terrains if camp is not None else None
    imported = import_file(path, terrain_map=terrain_map, window=window, table=table)
    if camp is not None:
        sea = load_imported(camp, imported)
    for line in imported.report:
        click.echo(line, err=True)
    if out is not None:
        write_text(out, imported.text, force=force)
        click.echo(f"Wrote {out}")
    elif not load_it:
        click.echo(imported.text, nl=False)
    if load_it:
        click.echo(
            f"Loaded {sea.name}: {sea.width} x {sea.height} hexes, {len(sea.ports())} ports."
        )


@map_group.command("export")
@db_option
@click.option(
    "-f", "--format", "fmt", type=Choice(["wxx"]), default="wxx", show_default=True,
    help="The drawing tool's format: wxx (Worldographer).",
)  # fmt: skip
@click.option(
    "--out",
    "out",
    required=True,
    type=NamedFile("a map file", "--out sea.wxx", dir_okay=False),
    help="The file to write.",
)
@click.option(
    "--tracks",
    "tracks",
    multiple=True,
    metavar="SHIP|N",
    help="Draw the hexes sailed on a ship's voyages (or voyage number N) as path shapes.",
)
@force_option
@handles_errors
def export_command(db_path: str, fmt: str, out: str, tracks: tuple[str, ...], force: bool) -> None:
    """Write the campaign's sea (terrain, ports, labels, notes) for a drawing tool.

    `voyage map import` reads the file back to the same terrain, ports and labels; fuel,
    seabeds, currents, depths and weather regions stay in voyage's own map file. With
    --tracks, the hexes sailed on the named voyages are drawn as path shapes on a Tracks
    layer (the importer leaves shapes out).

    Examples:

        voyage map export -f wxx --out sea.wxx

        voyage map export -f wxx --out tracks.wxx --tracks "Sea Witch"
    """
    from voyage.base.atomicfile import FileBatch
    from voyage.base.voyagenames import ship_voyage_name
    from voyage.map.importers import export_wxx
    from voyage.store.mapstore import current_map
    from voyage.store.voyagelog import voyage_list

    refuse_existing(out, force)
    camp = read_campaign(db_path)
    sea = current_map(camp)
    drawn: list[tuple[str, list[str]]] = []
    if tracks:
        counts: dict[str, int] = {}
        named = []  # oldest first, each named with the ship's own count: "voyage 3 of Eel"
        for row in voyage_list(camp):
            nth = counts[row["ship"].lower()] = counts.get(row["ship"].lower(), 0) + 1
            sailed = row["route"][: int(row["position"]) + 1]
            name = ship_voyage_name(row["ship"], int(row["id"]), nth)
            named.append((row["ship"].casefold(), str(row["id"]), name, sailed))
        for wanted in tracks:
            chosen = [(n, h) for ship, vid, n, h in named if wanted.casefold() in (ship, vid)]
            if not chosen:
                raise click.ClickException(
                    f"--tracks {wanted}: no voyage of a ship by that name or with that "
                    "number: give a ship's name or a voyage's number"
                )
            drawn += [item for item in chosen if item not in drawn]
    data = export_wxx(sea, drawn)
    with FileBatch(force=force) as batch:
        batch.add(out).write_bytes(data)
    shown = f", {len(drawn)} track(s)" if drawn else ""
    click.echo(f"Wrote {out} (Worldographer, {sea.width} x {sea.height} hexes{shown})")
