"""`voyage ship build`: a boat built from Boats in Car Wars' parts, or a bundled design (R80)."""

from __future__ import annotations

import click

from voyage.cli.common import (
    AMOUNT,
    NAME,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
)

_count = AMOUNT


@click.command("build")
@db_option
@click.argument("name", type=NAME)
@click.option("--design", default=None, help="A bundled design of the seed, e.g. 'Lucky Catch'.")
@click.option("--body", default=None, help="Rowboat, Dinghy, Speeder, Cruiser or Yacht.")
@click.option(
    "--plant", default=None, help="Mini, Small, Medium, Large, Super, Heavy-Duty (none: oars)."
)
@click.option("--propellers", type=_count, default=None, help="Propellers [1; 0 with jet drives].")
@click.option("--propeller-armor", type=Whole(0, 10), default=0, help="Points on each propeller.")
@click.option("--armor", default=None, help="Armor points by location, e.g. F10,L7,B3,T3,U10.")
@click.option(
    "--with",
    "fittings",
    multiple=True,
    help="Accessories, comma-separated, NAME or NAME:COUNT: deck,bilge-pump:2,life-raft.",
)
@click.option(
    "--extra",
    "extras",
    multiple=True,
    help="A component the seed does not price, NAME:LBS:SPACES[:COST] (repeatable).",
)
@click.option(
    "--weapon",
    "weapons",
    multiple=True,
    help="A weapon of the weapons table, NAME or NAME:LBS:SPACES[:COST] (R87; repeatable, "
    "one a mount): torpedo, homing-torpedo, depth-charge, mg, vgm, mml, heavy-rocket, "
    "laser, rr, tank-gun.",
)
@click.option("--crew", type=_count, default=None, help="Crew aboard, 150 lbs each [1].")
@click.option("--passengers", type=_count, default=None, help="Passengers, 150 lbs each [0].")
@click.option("--submersible", is_flag=True, help="A submersible (AquaWars, R84).")
@click.option(
    "--dive-depth",
    type=Whole(1, 1_000_000),
    default=None,
    help="A submersible's rated dive depth in feet.",
)
@click.option("--reinforced", is_flag=True, help="A submersible's reinforced hull (R84: -1).")
@click.option("--ca-frame", is_flag=True, help="A submersible's CA frame (R84: +1).")
@click.option("--dry-run", is_flag=True, help="Print the design sheet; build nothing.")
@json_option
@handles_errors
def build(
    db_path: str,
    name: str,
    design: str | None,
    body: str | None,
    plant: str | None,
    propellers: int | None,
    propeller_armor: int,
    armor: str | None,
    fittings: tuple[str, ...],
    extras: tuple[str, ...],
    weapons: tuple[str, ...],
    crew: int | None,
    passengers: int | None,
    submersible: bool,
    dive_depth: int | None,
    reinforced: bool,
    ca_frame: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Build a boat (Boats in Car Wars, R80-R82) and keep her with the campaign's ships.

    Refuses, with the overage, a design over its body's maximum load or spaces, and any
    of R80's limits. She sails like any ship (R81, R82: `voyage pace`, `act recharge`).

    Examples:

    \b
        voyage ship build "Sea Fox" --body cruiser --plant large --propellers 2 \\
            --armor F10,L7,B3,T3,U10 --with deck,half-top,bilge-pump,life-raft --crew 2

        voyage ship build "Lucky" --design "Lucky Catch"

    \b
        voyage ship build "Wasp" --body dinghy --plant small --crew 1 \\
            --weapon torpedo --weapon torpedo --weapon mg

    \b
        voyage ship build "Nautilus" --body speeder --plant large --with boat-top \\
            --submersible --dive-depth 300 --reinforced
    """
    from voyage.actions.fleet import build_boat
    from voyage.base.errors import ShipError
    from voyage.tables.boatdesigns import sample_spec, sheet, sheet_lines, spec_from_options
    from voyage.vessels.boatships import make_built_ship

    camp = open_campaign(db_path)
    table = camp.rulebook.boats
    if design:
        given = [
            o
            for o, v in (
                ("--body", body),
                ("--plant", plant),
                ("--armor", armor),
                ("--with", fittings),
                ("--extra", extras),
                ("--weapon", weapons),
                ("--propellers", propellers),
                ("--crew", crew),
                ("--passengers", passengers),
            )
            if v
        ]
        if given:
            raise ShipError(f"--design builds the design as the seed lists it: drop {given[0]}")
        spec = sample_spec(design, table)
    elif not body:
        raise ShipError("say what to build: --body (with --plant, ...) or --design NAME")
    else:
        spec = spec_from_options(
            table,
            body=body,
            plant=plant,
            propellers=propellers,
            propeller_armor=propeller_armor,
            armor=armor,
            fittings=list(fittings),
            extras=list(extras),
            weapons=list(weapons),
            weapons_table=camp.rulebook.weapons["weapons"],
            crew=1 if crew is None else crew,
            passengers=passengers or 0,
        )
    from voyage.tables.boatdesigns import submersible_part

    sub = submersible_part(submersible, dive_depth, reinforced, ca_frame)  # R84
    if sub:
        spec["submersible"] = sub
    s = sheet(spec, table)
    ship_name = name.strip()
    if not dry_run:
        build_boat(camp, make_built_ship(ship_name, spec, camp.rulebook))
    if as_json:
        emit_json({"name": ship_name, "built": not dry_run, **s, "spec": spec})
        return
    click.echo("\n".join(sheet_lines(s, ship_name)))
    if dry_run:
        click.echo("(dry run: nothing built)")
