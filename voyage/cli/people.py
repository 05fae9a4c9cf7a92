"""People commands: the roster (`voyage crew`), `voyage survivors`, and the lines `voyage
status` shows for rafts and people in the water (R70-R74)."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    NAME,
    SHIP,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
    table,
    whole_output,
)


@click.group()
def crew() -> None:
    """Name the people aboard: add, list, move and remove (R70; counts stay the default).

    Example:

        voyage crew add "Anna Roe" --ship "Sea Witch" --passenger --swimming 0 --jacket
    """


@crew.command("add")
@db_option
@click.argument("name", type=NAME)
@click.option("--ship", "ship_name", type=SHIP, required=True, help="The ship they are aboard.")
@click.option("--passenger", is_flag=True, help="A passenger (else crew).")
@click.option(
    "--swimming",
    type=Whole(0, 20),
    default=None,
    help="Swimming rank 0-20 (0 a non-swimmer; default: the campaign's option).",
)
@click.option("--jacket", is_flag=True, help="They have their own life jacket.")
@handles_errors
def add(
    db_path: str, name: str, ship_name: str, passenger: bool, swimming: int | None, jacket: bool
) -> None:
    """Name someone aboard a ship: one of her unnamed crew or passengers, or one more.

    Example:

        voyage crew add "Tom Pike" --ship "Sea Witch" --swimming 4
    """
    from voyage.actions.people import add_person

    click.echo(add_person(open_campaign(db_path), name, ship_name, passenger, swimming, jacket))


@crew.command("list")
@db_option
@click.option(
    "--ship", "ship_name", type=SHIP, default=None, help="Only the people aboard this ship."
)
@json_option
@handles_errors
def list_people(db_path: str, ship_name: str | None, as_json: bool) -> None:
    """The roster: who is aboard which ship, their Swimming rank and jacket.

    Example:

        voyage crew list --ship "Sea Witch"
    """
    from voyage.actions.people import fates_by_name, rescued_aboard
    from voyage.store.peoplerows import roster

    camp = read_campaign(db_path)
    ship = camp.get_ship(ship_name, archived=True).name if ship_name else None
    rows = roster(camp, ship)
    where = fates_by_name(camp)
    carried = rescued_aboard(camp)  # R74: survivors carried as passengers say so
    for r in rows:
        r["jacket"] = bool(r["jacket"])
        r["whereabouts"] = f"aboard {r['ship']}" if r["ship"] else where.get(r["name"], "ashore")
        if r["name"] in carried:
            r["whereabouts"] += f" ({carried[r['name']]})"
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(
            "Nobody is named" + (f" aboard {ship}." if ship else " yet (`voyage crew add`).")
        )
        return
    click.echo(
        table(
            [
                [
                    r["name"],
                    r["role"],
                    r["swimming"],
                    "yes" if r["jacket"] else "no",
                    r["whereabouts"],
                ]
                for r in rows
            ],
            ["name", "role", "swimming", "jacket", "where"],
        )
    )


@crew.command("move")
@db_option
@click.argument("name")
@click.option(
    "--ship", "ship_name", type=SHIP, required=True, help="The ship they move to (same hex)."
)
@handles_errors
def move(db_path: str, name: str, ship_name: str) -> None:
    """Move a named person to another ship in the same hex.

    The last of a ship's crew moved off while she is under way, nobody sails her: she lies
    adrift where she is (R64, R70), as the second line says.

    Example:

        voyage crew move "Tom Pike" --ship Gull
    """
    from voyage.actions.people import move_person

    click.echo(move_person(open_campaign(db_path), name, ship_name))


@crew.command("remove")
@db_option
@click.argument("name")
@handles_errors
def remove(db_path: str, name: str) -> None:
    """Take a named person off the roster (aboard a ship, they leave her).

    The last of a ship's crew removed while she is under way, nobody sails her: she lies
    adrift where she is (R64, R70), as the second line says.

    Example:

        voyage crew remove "Tom Pike"
    """
    from voyage.actions.people import remove_person

    click.echo(remove_person(open_campaign(db_path), name))


@click.command()
@db_option
@json_option
@handles_errors
@whole_output
def survivors(db_path: str, as_json: bool) -> None:
    """Everyone who has left a ship: in rafts, in the water, drowned, lost or rescued.

    Example:

        voyage survivors --json
    """
    camp = read_campaign(db_path)
    rows = _survivors(camp)
    if as_json:
        emit_json({"clock": camp.clock, "floaters": rows})
        return
    if not rows:
        click.echo("Nobody has left a ship.")
        return
    click.echo(
        table(
            [
                [
                    r["who"],
                    r["hex"],
                    _where(r, rows),
                    r.get("schedule") or r["note"] or _in_raft(r, rows),
                ]
                for r in rows
                if r["kind"] == "people"
            ],
            ["who", "hex", "state", "time left / fate"],
        )
    )


def _in_raft(r: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """People safe in a raft: no roll (R72), what they would have if it capsized, and the
    raft's stores and the days they last them (R100, R101), as `--json` gives them."""
    if r["state"] != "afloat" or r["raft"] is None:
        return ""
    from voyage.vessels.stores import stores_line
    from voyage.world.water import Floater

    raft = next((f for f in rows if f["kind"] == "raft" and f["id"] == r["raft"]), None)
    said = stores_line((raft or {}).get("stores") or {})
    stores = [line.strip().replace("Stores: ", "stores: ", 1) for line in said]

    kind = Floater(
        0,
        "people",
        "",
        count=int(r["count"]),
        swimming=int(r["swimming"]),
        jacket=bool(r["jacket"]),
    )
    return f"no roll in a raft (R72); {kind.swimmer_text()}" + "".join(f"; {x}" for x in stores)


def _survivors(camp: Any) -> list[dict[str, Any]]:
    from voyage.actions.people import survivors as rows_of

    return rows_of(camp, _world(camp))


def _world(camp: Any) -> Any:
    from voyage.store.mapstore import map_row

    if map_row(camp) is None:
        return None
    from voyage.actions.voyages import world_for

    return world_for(camp)


def _where(r: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    if r["state"] != "afloat":
        return str(r["state"])
    if r["raft"] is not None and not r["in_water"]:
        return next((x["who"] for x in rows if x["id"] == r["raft"]), "a raft")
    return "in the water"


def afloat_json(camp: Any) -> list[dict[str, Any]]:
    """Rafts and people still afloat (for `voyage status --json`)."""
    return [r for r in _survivors(camp) if r["state"] == "afloat"]


def water_lines(camp: Any) -> list[str]:
    """`voyage status` lines: rafts and people in the water by hex, with their time left
    in the sea's terms (R72)."""
    rows = afloat_json(camp)
    if not rows:
        return []
    lines = ["Afloat:"]
    for hex_name in sorted({str(r["hex"]) for r in rows}):
        here = [r for r in rows if str(r["hex"]) == hex_name]
        rafts = [r for r in here if r["kind"] == "raft"]
        for raft in rafts:
            aboard = sum(x["count"] for x in here if x["raft"] == raft["id"] and not x["in_water"])
            state = "capsized" if raft["capsized"] else f"{aboard} aboard, no roll (R72)"
            lines.append(f"  {hex_name}: {raft['who']} ({state})")
        for r in here:
            if r["kind"] == "people" and r["in_water"]:
                lines.append(f"  {hex_name}: {r['who']} in the water - {r.get('schedule', '')}")
    return lines
