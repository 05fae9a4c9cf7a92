"""Encounter commands (R93, R94): check, list."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    MODIFIER,
    NUMBER,
    SHIP,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
)

#: a fight's range in yards: a bound so a mistyped number is one line, not an overflow in
#: SQLite (a hundred sea miles is far past any weapon's reach)
YARDS = Whole(0, 200_000)


@click.group()
def encounter() -> None:
    """Encounters at sea: roll a check, list what ships have met (R93).

    Example:

        voyage encounter check "Sea Witch"
    """


@encounter.command("check")
@db_option
@click.argument("ship", type=SHIP)
@click.option("--sure", is_flag=True, help="Something is met: skip the x-in-6, roll the table.")
@json_option
@handles_errors
def check(db_path: str, ship: str, sure: bool, as_json: bool) -> None:
    """Roll an encounter check for a ship where she is, with the campaign's dice (R93).

    The chance is the campaign's (`voyage settings`): 1-in-6, by night 2-in-6 near the
    coast; on an encounter the table of her terrain in tables/encounters.yaml says what
    she meets. Logged on her voyage; `voyage undo` takes it back.

    Examples:

        voyage encounter check "Sea Witch"

        voyage encounter check "Sea Witch" --sure
    """
    from voyage.actions.encounters import check_by_hand
    from voyage.store.calendarrow import clock_text

    camp = open_campaign(db_path)
    result, where = check_by_hand(camp, ship, sure)
    if as_json:
        emit_json({**where, "time": clock_text(camp, where["clock"]), **result.to_dict()})
        return
    when = "night" if where["night"] else "day"
    click.echo(
        f"{where['ship']} at {where['hex']} ({where['terrain']}, {when}, "
        f"{clock_text(camp, where['clock'])}):"
    )
    for line in result.lines():
        click.echo(f"  {line}")


@encounter.command("list")
@db_option
@click.option("--ship", type=SHIP, default=None, help="Only this ship's encounters.")
@json_option
@handles_errors
def list_command(db_path: str, ship: str | None, as_json: bool) -> None:
    """List every encounter ships have met, oldest first (R93).

    Example:

        voyage encounter list --ship "Sea Witch"
    """
    from voyage.store.calendarrow import clock_text
    from voyage.store.logrows import encounter_rows

    camp = read_campaign(db_path)
    rows = encounter_rows(camp, ship)
    for r in rows:
        r["time"] = clock_text(camp, r["clock"], r["minute"])
    if as_json:
        emit_json({"encounters": rows})
        return
    if not rows:
        click.echo("No encounters yet.")
        return
    from voyage.cli.common import table

    shown: list[list[Any]] = [[r["time"], r["ship"], r["hex"], r["kind"], r["text"]] for r in rows]
    click.echo(table(shown, ["time", "ship", "hex", "kind", "what"]))


# -- a fight (R94) --------------------------------------------------------------------------

fight_option = click.option(
    "--fight",
    "fight_id",
    type=NUMBER,
    default=None,
    help="Which fight (when more than one is open).",
)


def _show_status(camp: Any, data: dict[str, Any]) -> None:
    from voyage.base.tiers import roman
    from voyage.store.calendarrow import clock_text

    when = clock_text(camp, data["clock"], data["minute"])
    distance = f", range {data['range_yards']} yd" if data["range_yards"] is not None else ""
    click.echo(
        f"Fight {data['fight']} at {data['hex']} ({data['status']}), round {data['round']}, "
        f"{when}{distance}"
    )
    if data["order"]:
        click.echo("Order (R90): " + ", ".join(data["order"]))
    from voyage.cli.common import table

    rows: list[list[Any]] = [
        [
            s["name"],
            s["kind"],
            roman(s["tier"]),
            s["speed"],
            s["declared"],
            "off balance" if s["off_balance"] else "",
            s.get("state", ""),
            len(s["damage"]) or "",
        ]
        for s in data["sides"]
    ]
    click.echo(table(rows, ["side", "kind", "tier", "speed", "declared", "crew", "state", "blows"]))
    _show_damage(data["sides"])


#: the width "damage so far" is wrapped to (one blow's text ran to ~400 characters)
DAMAGE_WIDTH = 88


def _show_damage(sides: list[dict[str, Any]]) -> None:
    """Each side's damage so far as a list under the table, one wrapped item a blow."""
    import textwrap

    hurt = [s for s in sides if s["damage"]]
    if not hurt:
        return
    click.echo("Damage so far:")
    for s in hurt:
        click.echo(f"  {s['name']}:")
        for blow in s["damage"]:
            click.echo(
                textwrap.fill(
                    " ".join(str(blow).split()),
                    DAMAGE_WIDTH,
                    initial_indent="    - ",
                    subsequent_indent="      ",
                )
            )


@encounter.command("start")
@db_option
@click.argument("ships", nargs=-1, required=True, metavar="SHIP...", type=SHIP)
@click.option("--leviathan", default=None, help="A leviathan from tables/leviathans.yaml.")
@click.option("--range", "range_yards", type=YARDS, default=None, help="Range in yards.")
@json_option
@handles_errors
def start(
    db_path: str,
    ships: tuple[str, ...],
    leviathan: str | None,
    range_yards: int | None,
    as_json: bool,
) -> None:
    """Open a fight (R94) in the current minute between ships in one hex (and a leviathan).

    Examples:

        voyage encounter start "Sea Witch" "Iron Harpy" --range 400

        voyage encounter start "Sea Witch" --leviathan kraken
    """
    from voyage.actions.fight import start as start_fight

    camp = open_campaign(db_path)
    data = start_fight(camp, list(ships), leviathan, range_yards)
    if as_json:
        emit_json(data)
        return
    _show_status(camp, data)


@encounter.command("round")
@db_option
@click.option(
    "--move",
    "moves",
    multiple=True,
    metavar="SHIP=KNOTS",
    help="Declare a side's movement this round (a change is an R53 Check).",
)
@fight_option
@json_option
@handles_errors
def round_command(
    db_path: str, moves: tuple[str, ...], fight_id: int | None, as_json: bool
) -> None:
    """Begin the next round: declared movements, then the order, slowest first (R90).

    Each side moves half her declared movement, then the rest; a change of declared
    movement after the first round is a Check with DV = Tier (R53).

    Example:

        voyage encounter round --move "Sea Witch=4"
    """
    from voyage.actions.fight import next_round

    declared: dict[str, int] = {}
    for item in moves:
        name, sep, knots = item.rpartition("=")
        if not sep or not name or not knots.strip().isdigit():
            raise click.UsageError(f'--move {item!r}: write SHIP=KNOTS, e.g. "Sea Witch=4"')
        declared[name] = int(knots)
    camp = open_campaign(db_path)
    data = next_round(camp, declared, fight_id)
    if as_json:
        emit_json(data)
        return
    _show_status(camp, data)


@encounter.command("shoot")
@db_option
@click.argument("ship", type=SHIP)
@click.option("--at", "target", required=True, help="The side shot at.")
@click.option("--weapon", required=True, help="A weapon of tables/weapons.yaml she carries.")
@click.option(
    "--zone",
    type=click.Choice(["lethal", "secondary"]),
    default="lethal",
    show_default=True,
    help="Where the target is in an Explosion.",
)
@click.option("--no-dodge", is_flag=True, help="The target does not try to dodge (R51).")
@click.option("--modifier", type=MODIFIER, default=0, help="The referee's modifier to the shot.")
@json_option
@handles_errors
def shoot(
    db_path: str,
    ship: str,
    target: str,
    weapon: str,
    zone: str,
    no_dodge: bool,
    modifier: int,
    as_json: bool,
) -> None:
    """A shot at a hull (R94): to-hit with R17, Harm or an Explosion by weapon (R36).

    The target may dodge an Explosion first (R51; --no-dodge if she does not try). The
    result lands in the target's voyage as `voyage roll --apply` does.

    Example:

        voyage encounter shoot "Iron Harpy" --at "Sea Witch" --weapon artillery
    """
    from voyage.actions.fight import shoot as shoot_at

    camp = open_campaign(db_path)
    data = shoot_at(camp, ship, target, weapon, zone, not no_dodge, modifier)
    if as_json:
        emit_json(data)
        return
    _show_rolls(data)
    click.echo(data["text"])


def _show_rolls(data: dict[str, Any]) -> None:
    """Each roll's line (R4), as `voyage roll` prints them, before what came of them."""
    for r in data["rolls"]:
        click.echo(f"  {r['line']}")


@encounter.command("ram")
@db_option
@click.argument("ship", type=SHIP)
@click.argument("target")
@click.option("--kind", required=True, help="head-on, t-bone, shunt or sideswipe (R91).")
@json_option
@handles_errors
def ram_command(db_path: str, ship: str, target: str, kind: str, as_json: bool) -> None:
    """SHIP rams TARGET (R91): each ship rolls R35 at the relative speed; the speeds after.

    A leviathan moves as a ship but rolls no R35 (R54): the blow is noted for the referee.
    One that does not move is rammed head-on at the rammer's speed and stops her (R91).

    Example:

        voyage encounter ram "Sea Witch" "Iron Harpy" --kind t-bone
    """
    from voyage.actions.fight import collide

    camp = open_campaign(db_path)
    data = collide(camp, ship, target, kind)
    if as_json:
        emit_json(data)
        return
    _show_rolls(data)
    click.echo(data["text"])


@encounter.command("attack")
@db_option
@click.argument("leviathan")
@click.option("--at", "target", required=True, help="The ship attacked.")
@click.option(
    "--zone",
    type=click.Choice(["lethal", "secondary"]),
    default="lethal",
    show_default=True,
    help="Where the ship is in the Explosion.",
)
@click.option("--no-dodge", is_flag=True, help="The ship does not try to dodge (R51).")
@json_option
@handles_errors
def attack_command(
    db_path: str, leviathan: str, target: str, zone: str, no_dodge: bool, as_json: bool
) -> None:
    """A leviathan attacks a ship: an Explosion at the point declared (R54, R36).

    Example:

        voyage encounter attack Kraken --at "Sea Witch" --zone secondary
    """
    from voyage.actions.fight import attack

    camp = open_campaign(db_path)
    data = attack(camp, leviathan, target, zone, not no_dodge)
    if as_json:
        emit_json(data)
        return
    _show_rolls(data)
    click.echo(data["text"])


@encounter.command("end")
@db_option
@fight_option
@json_option
@handles_errors
def end_command(db_path: str, fight_id: int | None, as_json: bool) -> None:
    """End the fight; the voyage clock goes on from its last minute (six rounds a minute).

    Example:

        voyage encounter end
    """
    from voyage.actions.fight import end

    camp = open_campaign(db_path)
    data = end(camp, fight_id)
    if as_json:
        emit_json(data)
        return
    _show_status(camp, data)


@encounter.command("status")
@db_option
@fight_option
@json_option
@handles_errors
def status_command(db_path: str, fight_id: int | None, as_json: bool) -> None:
    """The fight: round, order, each side's speed and declared movement, damage so far.

    Example:

        voyage encounter status --json
    """
    from voyage.actions.fight import status

    camp = read_campaign(db_path)
    data = status(camp, fight_id)
    if as_json:
        emit_json(data)
        return
    _show_status(camp, data)
