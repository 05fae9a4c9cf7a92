"""Ship commands: roll, add, list, show, load, remove."""

from __future__ import annotations

import re
from typing import Any

import click

from voyage.cli.common import (
    AMOUNT,
    NAME,
    NamedFile,
    Text,
    Whole,
    db_option,
    emit_json,
    force_option,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
    refuse_existing,
    table,
    whole_output,
)

_count = AMOUNT
#: equipment named on `ship add` (a light, a radio, a net, a weapon, a trait)
_ITEM = Text(60)


@click.group()
def ship() -> None:
    """Roll, make, list, show, load and remove ships.

    Example:

        voyage ship roll --class freighter --count 5
    """


def _figures(camp: Any, s: Any) -> dict[str, Any]:
    from voyage.vessels.ships import figures

    fig = figures(s, camp.rulebook, camp.water_in_load)
    if s.design is not None and camp.settings.get("track_armor"):
        from voyage.vessels.subarmor import armor_now

        fig["armor_now"] = armor_now(s)  # R84: her armour side by side, as worn
    return fig


def _print_card(fig: dict[str, Any]) -> None:
    from voyage.outputs.report import ship_card

    click.echo("\n".join(ship_card(fig)))


@ship.command("roll")
@db_option
@click.option(
    "--class",
    "ship_class",
    type=_ITEM,
    default=None,
    help="Class table: dinghy, motorboat, trawler, whaler, freighter, warship "
    "(or A-F). Random if left out.",
)
@click.option(
    "--count",
    type=Whole(1, 500),
    default=1,
    show_default=True,
    help="How many ships to roll.",
)
@click.option(
    "--name",
    type=NAME,
    default=None,
    help="Name for the ship (with --count, a numeral is added); generated if left out.",
)
@click.option(
    "--rolls/--no-rolls",
    "show_rolls",
    default=True,
    show_default=True,
    help="Print every roll that made the ship.",
)
@json_option
@handles_errors
def roll(
    db_path: str,
    ship_class: str | None,
    count: int,
    name: str | None,
    show_rolls: bool,
    as_json: bool,
) -> None:
    """Roll new ships from the class tables and keep them in the campaign (R18-R21).

    Each row of the class table is rolled separately on a d6, then a Trait on a 1-in-6.

    Example:

        voyage ship roll --class freighter --count 5 --json
    """
    from voyage.actions.fleet import roll_ships

    camp = open_campaign(db_path)
    made = roll_ships(camp, count, ship_class, name)
    if as_json:
        emit_json([{**_figures(camp, s), "rolls": [r.to_dict() for r in rs]} for s, rs in made])
        return
    for s, rs in made:
        _print_card(_figures(camp, s))
        if show_rolls:
            for r in rs:
                click.echo(f"    {r.line()}")


@ship.command("add")
@db_option
@click.argument("name", type=NAME)
@click.option(
    "--class", "ship_class", type=_ITEM, required=True, help="Class: dinghy ... warship (or A-F)."
)
@click.option("--tier", type=_ITEM, required=True, help="Ship Tier, I-X or 1-10.")
@click.option("--engine", "engine", default=None, help="Engine Tier, I-X (none for a dinghy).")
@click.option(
    "--trait",
    "traits",
    type=_ITEM,
    multiple=True,
    help="A Trait (repeatable), e.g. --trait Steady.",
)
@click.option("--light", type=_ITEM, default=None, help="Light, e.g. 'Spotlight (Mid-range)'.")
@click.option("--radio", type=_ITEM, default=None, help="Radio: Receiver or Transceiver.")
@click.option("--net", type=_ITEM, default=None, help="Net, e.g. 'Net II'.")
@click.option("--weapon", "weapons", type=_ITEM, multiple=True, help="Heavy weapon (repeatable).")
@click.option("--armor", type=_count, default=None, help="Units of armored plating.")
@click.option("--harpoons", type=_count, default=None, help="Explosive harpoons aboard.")
@click.option("--firehose", is_flag=True, help="The ship carries a firehose.")
@json_option
@handles_errors
def add(
    db_path: str,
    name: str,
    ship_class: str,
    tier: str,
    engine: str | None,
    traits: tuple[str, ...],
    light: str | None,
    radio: str | None,
    net: str | None,
    weapons: tuple[str, ...],
    armor: int | None,
    harpoons: int | None,
    firehose: bool,
    as_json: bool,
) -> None:
    """Add a ship with attributes you state (no rolls).

    Example:

        voyage ship add "Sea Witch" --class trawler --tier IV --engine V --trait Steady
    """
    from voyage.actions.fleet import add_ship
    from voyage.base.tiers import parse_tier
    from voyage.vessels.ships import make_ship

    camp = open_campaign(db_path)
    equipment: dict[str, Any] = {"light": light, "radio": radio, "net": net}
    equipment = {k: v for k, v in equipment.items() if v}
    if weapons:
        equipment["heavy_weapons"] = list(weapons)
    if armor is not None:
        equipment["armor"] = armor
    if harpoons is not None:
        equipment["harpoons"] = harpoons
    if firehose:
        equipment["firehose"] = True
    new_ship = make_ship(
        camp.rulebook,
        name.strip(),
        ship_class,
        parse_tier(tier, "--tier"),
        parse_tier(engine, "--engine") if engine else None,
        list(traits),
        equipment,
    )
    if not new_ship.name:
        raise click.BadParameter("the name must not be empty", param_hint="NAME")
    add_ship(camp, new_ship)
    fig = _figures(camp, new_ship)
    emit_json(fig) if as_json else _print_card(fig)


@ship.command("list")
@db_option
@click.option("--all", "show_all", is_flag=True, help="Archived ships too (removed with --force).")
@json_option
@handles_errors
@whole_output
def list_ships(db_path: str, show_all: bool, as_json: bool) -> None:
    """List the campaign's ships with their main figures.

    "speed" is what she makes now, as `voyage status` gives it: 0 when she is anchored,
    adrift, stuck, sunk or abandoned; in port, what she would make. A built boat's speed is
    in mph and her fuel/hex in power units (R82); --json gives it as "speed_now".

    Example:

        voyage ship list --all
    """
    from voyage.base.text import load_said
    from voyage.base.tiers import roman
    from voyage.vessels.boatships import BUILT_CLASS

    camp = read_campaign(db_path)
    figs = [_figures(camp, s) for s in camp.ships(archived=show_all)]
    speed_now(camp, figs)
    if show_all:
        for fig in figs:
            if camp.is_archived(fig["name"]):
                fig["status"] = "archived"
    if as_json:
        emit_json(figs)
        return
    if not figs:
        click.echo("No ships yet: `voyage ship roll`, `voyage ship add` or `voyage ship build`.")
        return
    rows = [
        [
            f["name"],
            f["class"],
            roman(f["tier"]),
            roman(f["engine_tier"]),
            ", ".join(f["traits"]),
            f["deadweight"],
            load_said(f["load"]),  # whole hlbs, as status gives it (R81, R100)
            f["load_category"],
            f["speed_now"] if f["class_key"] != BUILT_CLASS else f"{f['speed_now']} mph",
            f["fuel_use"] if f["class_key"] != BUILT_CLASS else f"{f['fuel_use']} units",
            f["status"] if f["status"] == "archived" else f["status_now"],
            f["hex"] or "",
        ]
        for f in figs
    ]
    click.echo(
        table(
            rows,
            [
                "name",
                "class",
                "tier",
                "engine",
                "traits",
                "DW",
                "load",
                "category",
                "speed",
                "fuel/hex",
                "status",
                "hex",
            ],
        )
    )


def speed_now(camp: Any, figs: list[dict[str, Any]]) -> None:
    """Each ship's status and speed now (``status_now``, ``speed_now``), as `voyage status`
    gives them (voyage.engine.standing: 0 anchored, adrift, stuck; a tow's at her tower's,
    R92; 0 sunk or abandoned; in port, her figure)."""
    from voyage.store.voyagelog import ship_standings

    now = ship_standings(camp)
    for f in figs:
        found = now.get(f["name"])
        stopped = f["status"] in ("sunk", "abandoned")
        f["status_now"] = found.status if found else f["status"]
        f["speed_now"] = 0 if stopped else found.speed if found else f["speed"]


@ship.command("show")
@db_option
@click.argument("name")
@json_option
@handles_errors
@whole_output
def show(db_path: str, name: str, as_json: bool) -> None:
    """Show a ship with every derived figure (R10-R17).

    At sea her status and speed are what she makes now, as `voyage status` and `ship list`
    give them (0 anchored, adrift, stuck or arrived; a tow at her tower's speed); --json
    gives them as "status_now" and "speed_now" beside her figures.

    Her room for stores ends the card (R100, R103; --json "stores_room"): the most food or
    fresh water more she can take, the hlbs of her Load left for them (within twice her
    Deadweight; a built boat, her maximum load), and a built boat's Galley's food and what
    her free spaces hold and have left.

    Example:

        voyage ship show "Sea Witch" --json
    """
    from voyage.vessels.storesroom import room_figures, room_line

    camp = read_campaign(db_path)
    found = camp.get_ship(name, archived=True)
    fig = _figures(camp, found)
    speed_now(camp, [fig])  # "status_now", "speed_now": as `ship list` and `status` give them
    # R100, R103: what more food and fresh water she has room for (None: sunk)
    room = (
        None if found.status == "sunk" else room_figures(found, camp.rulebook, camp.water_in_load)
    )
    fig["stores_room"] = room
    if as_json:
        emit_json(fig)
        return
    if fig["status_now"] != fig["status"] and fig["status"] in ("at sea", "in port"):
        # on a voyage still open (adrift, anchored, under tow, arrived in tow ...): her word
        # and the speed she makes now, as `voyage status` says; the card adds her depth
        word = re.sub(r", \d+ ft down", "", str(fig["status_now"]))
        fig["status"] = "at sea" if word == "under way" else f"at sea, {word}"
        fig["speed"] = fig["speed_now"]
    if fig.get("hex"):  # "in port at Gullhaven (0305)", as status and the log name ports
        from voyage.outputs.chronicle import map_places, port_named

        fig["hex"] = port_named(fig["hex"], map_places(camp))
    _print_card(fig)
    if room is not None:
        click.echo(room_line(room))


@ship.command("card")
@db_option
@click.argument("name")
@click.option(
    "--out",
    "out",
    type=NamedFile("a ship card", "--out sea-witch.png", dir_okay=False),
    default=None,
    help="The card's file, .png or .pdf (a file: not - for standard output). "
    "Default: SHIP-card.png here.",
)
@force_option
@handles_errors
def card(db_path: str, name: str, out: str | None, force: bool) -> None:
    """Draw a printable ship card (PNG or PDF): figures, Load against Deadweight, odds.

    The odds are the exact chances of her capsize Check (R41) at her present Load and of
    dodging an Explosion (R51), from the same rules the rolls use.

    Example:

        voyage ship card "Sea Witch" --out sea-witch.pdf

    An existing file is kept unless --force is given.
    """
    import re

    from voyage.outputs.card import draw_ship_card

    camp = open_campaign(db_path)
    fig = _figures(camp, camp.get_ship(name, archived=True))
    slug = re.sub(r"[^a-z0-9]+", "-", fig["name"].lower()).strip("-") or "ship"
    refuse_existing(out or f"{slug}-card.png", force)
    path = draw_ship_card(fig, camp.rulebook, out or f"{slug}-card.png", force=force)
    click.echo(f"Wrote {path}: the ship card of {fig['name']}.")


@ship.command("load")
@db_option
@click.argument("name")
@click.option("--crew", type=_count, default=None, help="Crew aboard (10 hlbs each, R11).")
@click.option("--passengers", type=_count, default=None, help="Passengers (10 hlbs each).")
@click.option("--cargo", type=_count, default=None, help="Cargo in hlbs.")
@click.option(
    "--fuel",
    type=_count,
    default=None,
    help="Fuel aboard in hlbs; in a port, what she takes on comes out of the port's stock "
    "(R16, as `act refuel`), and fuel put ashore goes back into it.",
)
@click.option(
    "--water",
    type=_count,
    default=None,
    help="Water in her hull in hlbs (R11; her fresh water is --fresh-water).",
)
@click.option(
    "--anchors",
    type=_count,
    default=None,
    help="Anchors aboard (R65: ship's stores; more are bought only in port).",
)
@click.option(
    "--jackets",
    type=_count,
    default=None,
    help="Life jackets aboard (R70: ship's stores, bought in port; no weight).",
)
@click.option(
    "--rafts",
    type=_count,
    default=None,
    help="Life rafts aboard (R70: 3 hlbs each in the Load, four seats each).",
)
@click.option(
    "--pumps",
    type=_count,
    default=None,
    help="Bilge pumps fitted (R85: 20 hlbs each; new ones, fitted in port).",
)
@click.option(
    "--harpoons",
    type=_count,
    default=None,
    help="Explosive harpoons aboard (R87: a ship with a harpoon cannon; 1 hlb each; "
    "taken aboard in port).",
)
@click.option(
    "--food",
    type=_count,
    default=None,
    help="Food aboard in person-days (R100: 0.2 hlb each; in port, R103).",
)
@click.option(
    "--fresh-water",
    "fresh_water",
    type=_count,
    default=None,
    help="Fresh water aboard in person-days (R100: 0.8 hlb each; in port, R103).",
)
@click.option(
    "--raft-stores",
    "raft_stores",
    type=_count,
    default=None,
    help="Emergency food and fresh water in each life raft, person-days of each (R100: 0-4).",
)
@json_option
@handles_errors
def load_ship(
    db_path: str,
    name: str,
    crew: int | None,
    passengers: int | None,
    cargo: int | None,
    fuel: int | None,
    water: int | None,
    anchors: int | None,
    jackets: int | None,
    rafts: int | None,
    pumps: int | None,
    harpoons: int | None,
    food: int | None,
    fresh_water: int | None,
    raft_stores: int | None,
    as_json: bool,
) -> None:
    """Set what a ship carries: crew, passengers, cargo, fuel, anchors, life jackets,
    rafts, bilge pumps, explosive harpoons, food and fresh water (totals, not additions).

    A load over twice the ship's Deadweight would sink it (R12) and is refused. In a port,
    fuel taken on comes out of the port's stock at its price (more than is left is refused;
    a port without fuel gives none) and fuel put ashore goes back into it; at sea the fuel
    is your say-so (R16 in docs/rulings.md).

    Example:

        voyage ship load "Sea Witch" --crew 6 --passengers 2 --cargo 200 --fuel 40

        voyage ship load "Sea Witch" --anchors 2

        voyage ship load "Sea Witch" --jackets 8 --rafts 2

        voyage ship load "Sea Witch" --pumps 2

        voyage ship load "Moby" --harpoons 6

        voyage ship load "Sea Witch" --food 120 --fresh-water 60
    """
    from voyage.actions.fleet import Loading, load_ship, ship_to_load

    camp = open_campaign(db_path)
    s = ship_to_load(camp, name)
    loading = Loading(
        crew,
        passengers,
        cargo,
        fuel,
        water,
        anchors,
        jackets,
        rafts,
        pumps,
        harpoons,
        food,
        fresh_water,
        raft_stores,
    )
    if loading.empty:
        raise click.UsageError(
            "say what to load: --crew, --passengers, --cargo, --fuel, --water, --anchors, "
            "--jackets, --rafts, --pumps, --harpoons, --food, --fresh-water, --raft-stores"
        )
    notes = load_ship(camp, s, loading)
    fig = _figures(camp, s)
    if as_json:
        emit_json({**fig, "notes": notes} if notes else fig)
        return
    for note in notes:
        click.echo(note)
    _print_card(fig)


@ship.command("remove")
@db_option
@click.argument("name")
@click.option(
    "--force",
    is_flag=True,
    help="Remove a ship that has sailed: she is archived, her voyages kept.",
)
@handles_errors
def remove(db_path: str, name: str, force: bool) -> None:
    """Remove a ship from the campaign (undoable with `voyage undo`).

    A ship with voyages in the log needs --force, and is then archived: `voyage log` and
    `voyage export` still reach her, `ship list --all` shows her, nothing else does.

    Example:

        voyage ship remove "Sea Witch" --force
    """
    from voyage.actions.fleet import remove_ship

    camp = open_campaign(db_path)
    gone, sailed, archived = remove_ship(camp, name, force)
    if sailed:
        plural = "voyage stays" if sailed == 1 else "voyages stay"
        click.echo(f"Removed {gone.name}: archived, her {sailed} {plural} in the log.")
    elif archived:  # rafts or people off her point at her (m190)
        click.echo(f"Removed {gone.name}: archived, the rafts and people off her stay.")
    else:
        click.echo(f"Removed {gone.name}.")


@ship.command("place")
@db_option
@click.argument("name")
@click.argument("hex_name", metavar="CCRR|PORT")
@handles_errors
def place(db_path: str, name: str, hex_name: str) -> None:
    """Put a ship in a hex of the map (a port, usually) before she sails: a hex CCRR or
    the name of a port on the map.

    In a hex with no port she lies on a voyage of that one hex, as a ship that arrives
    there: anchored where she can anchor (R65: an anchor aboard, a coastal or shallow hex
    or one charted 150 ft deep or less), rolling for her cable in storms, else adrift,
    drifting with the current (R64), until she sails.

    Examples:

        voyage ship place "Sea Witch" 0305

        voyage ship place "Sea Witch" Gullhaven
    """
    from voyage.actions.voyages import place_ship
    from voyage.cli.hexarg import hex_or_port

    camp = open_campaign(db_path)
    click.echo(place_ship(camp, name, str(hex_or_port(camp, hex_name))))


from voyage.cli.build import build as _build  # noqa: E402  (R80: its own module)

ship.add_command(_build)
