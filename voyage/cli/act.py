"""The referee's actions between advances: ``voyage act SHIP ...`` (each undoable, each
logged)."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    NUMBER,
    SHIP,
    SOME,
    Choice,
    Whole,
    core_errors,
    db_option,
    emit_json,
    hex_list,
    json_option,
    open_campaign,
)


class _ActGroup(click.Group):
    """``act``'s own options may also come after the ship or the action: ``voyage act
    "Sea Witch" pump 20 --db other.db`` works as ``voyage act --db other.db ...`` does."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        front: list[str] = []
        rest: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                rest.extend(args[i:])
                break
            if arg == "--db" and i + 1 < len(args):
                front += args[i : i + 2]
                i += 2
                continue
            if arg.startswith("--db=") or arg == "--json":
                front.append(arg)
            else:
                rest.append(arg)
            i += 1
        if (
            rest
            and rest[0] in self.commands
            and any(a in ("--help", "-h") for a in rest)
            and (len(rest) < 2 or rest[1] not in self.commands)
        ):
            rest.insert(0, "SHIP")  # `voyage act dive --help`: the action's help, not act's
        return super().parse_args(ctx, front + rest)


@click.group(cls=_ActGroup)
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@json_option
@click.pass_context
def act(ctx: click.Context, db_path: str, ship_name: str, as_json: bool) -> None:
    """A referee's action for a ship between advances (each one undoable, each logged).

    Examples:

        voyage act "Sea Witch" jettison 100

        voyage act "Sea Witch" refuel 40

        voyage act "Sea Witch" repair leak 1

        voyage act "Sea Witch" fight-fire --crew 3

        voyage act --json "Sea Witch" pump 20

    --db and --json may stand anywhere: `voyage act "Sea Witch" pump 20 --db other.db`.
    """
    ctx.obj = {"db": db_path, "ship": ship_name, "json": as_json}


def _act(ctx: click.Context, what: str, **kwargs: Any) -> None:
    from voyage.actions.referee import referee_action

    with core_errors():
        camp = open_campaign(ctx.obj["db"])
        if "to" in kwargs or "via" in kwargs:  # a course: hexes or ports' names
            from voyage.cli.hexarg import hex_or_port, hexes_or_ports

            kwargs["to"] = hex_or_port(camp, kwargs.get("to"))
            kwargs["via"] = hexes_or_ports(camp, kwargs.get("via") or ())
        event = referee_action(camp, ctx.obj["ship"], what, **kwargs)
    if ctx.obj.get("json"):
        from voyage.store.calendarrow import clock_text

        clock = camp.clock
        emit_json(
            {
                "ship": ctx.obj["ship"],
                "action": what,
                "clock": clock,
                "time": clock_text(camp, clock),
                "day": clock // 24 + 1,
                "hour": clock % 24,
                "kind": event.kind,
                "text": event.text,
                "changes": event.changes,
            }
        )
    else:
        click.echo(event.text)


@act.command()
@click.argument("hlbs", type=SOME)
@click.pass_context
def jettison(ctx: click.Context, hlbs: int) -> None:
    """Throw cargo overboard to lighten the ship (R11, R12).

    Example:

        voyage act "Sea Witch" jettison 100
    """
    _act(ctx, "jettison", amount=hlbs)


@act.command()
@click.argument("hlbs", type=SOME)
@click.pass_context
def refuel(ctx: click.Context, hlbs: int) -> None:
    """Buy fuel in a port that sells it (price and stock from the map).

    Example:

        voyage act "Sea Witch" refuel 40
    """
    _act(ctx, "refuel", amount=hlbs)


@act.command()
@click.pass_context
def recharge(ctx: click.Context) -> None:
    """Recharge a built boat's power plant in a port: 10 minutes and $50, to a full 200
    power units (R82).

    Example:

        voyage act "Moray" recharge
    """
    _act(ctx, "recharge")


@act.command()
@click.argument("what", type=Choice(["engine", "leak", "propellers", "armor"]))
@click.argument("number", type=NUMBER, required=False)
@click.option("--now", is_flag=True, help="At sea: the leak is patched at once (your call).")
@click.pass_context
def repair(ctx: click.Context, what: str, number: int | None, now: bool) -> None:
    """Repair the engine (a built boat's power plant), work on leak N (as numbered by
    `voyage status`), replace a built boat's lost propellers in port (R85), or make good in
    port the armour the deep wore off a built boat (R84, where `track_armor` is on: the
    body's armour cost a point).

    At sea the crew work on one leak at a time (R86): `repair leak N` sets them to it, and
    each 10 minutes 2d6 >= 8 stops it (rolled as the clock advances); `--now` patches it at
    once. In port a leak is repaired at once (R86): `repair leak` with no number patches
    every leak of a ship in port, and her voyage ends if nothing else is wrong aboard (R36:
    until then the clock steps her in port as at sea).

    Examples:

        voyage act "Sea Witch" repair engine

        voyage act "Sea Witch" repair leak 1

        voyage act "Sea Witch" repair leak 1 --now

        voyage act "Eel" repair armor
    """
    _act(ctx, "repair", target=what, amount=number, now=now)


@act.command()
@click.argument("feet", type=Whole(0, 1_000_000))
@click.pass_context
def dive(ctx: click.Context, feet: int) -> None:
    """Take a submersible down to FEET (R84): under the storms, at full speed. Never below
    the charted seabed, nor, where the map charts none, below an anchor's 150 ft in a port,
    coastal or shallow hex (R65). Past her rated depth she rolls on the Depth Damage Table at once
    (on first passing it: a leak, or she implodes and sinks) and then every hour she stays
    there; with `voyage settings track_armor true` the table wears her armour too.

    Examples:

        voyage act "Nautilus" dive 200

        voyage act "Nautilus" dive 400
    """
    _act(ctx, "dive", amount=feet)


@act.command()
@click.pass_context
def surface(ctx: click.Context) -> None:
    """Surface a submersible (R84: there 3/4 of her top speed, and storms touch her).

    Example:

        voyage act "Nautilus" surface
    """
    _act(ctx, "surface")


@act.command()
@click.pass_context
def salvage(ctx: click.Context) -> None:
    """Call a salvage crew from a port in or next to her hex to get a stuck ship off (R83):
    1 hour, $1,000 per 5,000 lbs of her weight; never into a fight.

    Example:

        voyage act "Lucky" salvage
    """
    _act(ctx, "salvage")


@act.command()
@click.argument("switch", type=Choice(["on", "off", "auto"]))
@click.pass_context
def pumps(ctx: click.Context, switch: str) -> None:
    """Take the bilge pumps' switch (R85): `on` runs them every hour, wet or dry (more than
    5 dry hours in all burn them out); `off` keeps them off whatever comes in; `auto` gives
    the switch back to the crew (on while there is water, off after a dry hour).

    Example:

        voyage act "Sea Witch" pumps on
    """
    _act(ctx, "pumps", target=switch)


@act.command()
@click.argument("hlbs", type=SOME)
@click.pass_context
def pump(ctx: click.Context, hlbs: int) -> None:
    """Pump and bail water out (R37).

    Example:

        voyage act "Sea Witch" pump 20
    """
    _act(ctx, "pump", amount=hlbs)


@act.command()
@click.argument("size", type=Choice(["half", "full"]))
@click.option("--food", is_flag=True, help="Food only (R101).")
@click.option("--water", is_flag=True, help="Fresh water only (R101).")
@click.pass_context
def rations(ctx: click.Context, size: str, food: bool, water: bool) -> None:
    """Put everyone aboard on half or full rations of food, fresh water, or both (R101:
    half rations use half as much; R102: a day on half counts half a day without).

    Examples:

        voyage act "Sea Witch" rations half --water

        voyage act "Sea Witch" rations full
    """
    _act(ctx, "rations", target=size, food=food, water=water)


_PERSON_DAYS = Whole(0, 1_000_000)


@act.command()
@click.option("--food", type=_PERSON_DAYS, default=None, help="Person-days of food found.")
@click.option(
    "--fresh-water",
    "fresh_water",
    type=_PERSON_DAYS,
    default=None,
    help="Person-days of fresh water found.",
)
@click.pass_context
def found(ctx: click.Context, food: int | None, fresh_water: int | None) -> None:
    """Stores the referee declares found at sea (wreckage, R93), added to hers (R103).

    Example:

        voyage act "Sea Witch" found --food 20 --fresh-water 10
    """
    _act(ctx, "found", food=food, fresh_water=fresh_water)


@act.command()
@click.argument("other", type=SHIP)
@click.option("--food", type=_PERSON_DAYS, default=None, help="Person-days of food to hand over.")
@click.option(
    "--fresh-water",
    "fresh_water",
    type=_PERSON_DAYS,
    default=None,
    help="Person-days of fresh water to hand over.",
)
@click.pass_context
def transfer(ctx: click.Context, other: str, food: int | None, fresh_water: int | None) -> None:
    """Hand food and fresh water over to OTHER, a ship in the same hex (R103).

    Example:

        voyage act "Sea Witch" transfer "Sea Fox" --fresh-water 12
    """
    _act(ctx, "transfer", target=other, food=food, fresh_water=fresh_water)


@act.command("fight-fire")
@click.option(
    "--crew",
    type=Whole(0, 1_000_000),
    required=True,
    help="How many fight the fire (R50: at least its severity are needed).",
)
@click.pass_context
def fight_fire(ctx: click.Context, crew: int) -> None:
    """Set how many aboard fight a fire (by default the whole crew does).

    Example:

        voyage act "Sea Witch" fight-fire --crew 3
    """
    _act(ctx, "fight-fire", crew=crew)


@act.command()
@click.pass_context
def saved(ctx: click.Context) -> None:
    """Declare a sinking ship saved (R40).

    Example:

        voyage act "Sea Witch" saved
    """
    _act(ctx, "saved")


@act.command()
@click.pass_context
def abandon(ctx: click.Context) -> None:
    """Abandon ship: rafts are filled four to a raft, non-swimmers first, the rest go into
    the water and the jackets to them (R71, no roll). A sound ship's voyage ends; a sinking
    one sinks on, and the next advance logs her going under at its minute (R40); a fire burns on
    with nobody to fight it until it swallows her (R50).

    Example:

        voyage act "Sea Witch" abandon
    """
    _act(ctx, "abandon")


@act.command()
@click.pass_context
def search(ctx: click.Context) -> None:
    """Stop and search the ship's hex each hour for rafts and people (R74).

    A radio finds a raft at once, else 3-in-6; a person 2-in-6 by day, 1-in-6 by night.
    Found people come aboard. A new course ends the search.

    Example:

        voyage act "Sea Witch" search
    """
    _act(ctx, "search")


@act.command()
@click.argument("names", nargs=-1)
@click.option("--all", "everyone", is_flag=True, help="Everyone afloat in the ship's hex.")
@click.pass_context
def rescue(ctx: click.Context, names: tuple[str, ...], everyone: bool) -> None:
    """Take people in the ship's hex aboard, by the referee's ruling (R74, no roll).

    NAMES are named people or rafts ("raft 1 of Sea Witch"). The ship takes no more than
    keeps her within twice her Deadweight (R12); who stays is said.

    Examples:

        voyage act "Gull" rescue --all

        voyage act "Gull" rescue "Anna Roe" "raft 1 of Sea Witch"
    """
    _act(ctx, "rescue", names=list(names), everyone=everyone)


@act.command()
@click.pass_context
def refloat(ctx: click.Context) -> None:
    """Get a stuck ship off the bottom (R34; with `stuck_escape referee` only you can).

    Example:

        voyage act "Sea Witch" refloat
    """
    _act(ctx, "refloat")


@act.command()
@click.pass_context
def anchor(ctx: click.Context) -> None:
    """Drop anchor where it reaches the bottom (R65): a coastal or shallow hex, or one
    charted 150 ft deep or less. She needs an anchor aboard; she stays in her hex (and does
    not drift, R64) until she weighs anchor. In storm-tossed seas the cable may part. In a
    port she moors at a quay: no anchor needed, sheltered (a port call on the way).

    Example:

        voyage act "Sea Witch" anchor
    """
    _act(ctx, "anchor")


@act.command()
@click.pass_context
def weigh(ctx: click.Context) -> None:
    """Weigh anchor and get under way again (or, adrift after losing her anchor, get under
    way: R65).

    Example:

        voyage act "Sea Witch" weigh
    """
    _act(ctx, "weigh")


@act.command()
@click.argument("other", metavar="OTHER")
@click.pass_context
def tow(ctx: click.Context, other: str) -> None:
    """Take OTHER (in the same hex) in tow (R92): they move together at this ship's speed;
    the tow's Deadweight and Load count in her Load (a fifth for a Strong ship); in a storm
    the line may part like an anchor cable.

    Example:

        voyage act "Old Faithful" tow "Sea Witch"
    """
    _act(ctx, "tow", target=other)


@act.command("cast-off")
@click.pass_context
def cast_off(ctx: click.Context) -> None:
    """Cast off the ship in tow (R92): she is adrift until she gets under way (`weigh`).

    Example:

        voyage act "Old Faithful" cast-off
    """
    _act(ctx, "cast-off")


@act.command()
@click.option(
    "--to",
    "to",
    default=None,
    help="New destination: a hex CCRR or a port's name (shortest sea route).",
)
@click.option(
    "--via", "via", multiple=True, help="A hex (or port) to pass on the way (repeatable)."
)
@click.option("--route", "route", default=None, help="New route CCRR,CCRR,... from her hex.")
@click.pass_context
def course(ctx: click.Context, to: str | None, via: tuple[str, ...], route: str | None) -> None:
    """Change the route of a ship at sea, from the hex she is in. A ship adrift gets under
    way on it when she can make way (an engine that works and a hex's fuel, R13, R16); if
    she cannot, the course is refused with what she needs. At anchor she stays until `weigh`.

    Example:

        voyage act "Sea Witch" course --to 2420
    """
    if to and route:
        raise click.UsageError("give either --to (with --via) or --route, not both")
    _act(ctx, "course", to=to, via=via, route=hex_list(route))
