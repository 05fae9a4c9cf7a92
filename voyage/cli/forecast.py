"""Forecast commands: forecast (a voyage sailed many times in memory) and plan (routes
side by side). Neither writes to the campaign nor rolls its dice."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    NUMBER,
    RUN_SEED,
    SHIP,
    Choice,
    NamedFile,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    table,
)
from voyage.cli.progress import progress_bar, say_estimate

#: knots of strain (R14 then limits it to half the ship's Speed), runs, worker processes
STRAIN = Whole(1, 99)
RUNS = Whole(1, 1_000_000)
WORKERS = Whole(1, 256)


def _hexes(value: str | None) -> list[str]:
    return [h.strip() for h in value.split(",") if h.strip()] if value else []


@click.command()
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.option(
    "--to",
    "to",
    default=None,
    help="Destination: a hex CCRR or a port's name (shortest sea route).",
)
@click.option(
    "--via", "via", multiple=True, help="A hex (or port) to pass on the way (repeatable)."
)
@click.option("--route", "route", default=None, help="The whole route CCRR,CCRR,...")
@click.option("--inshore", is_flag=True, help="Sail within a mile of the coast (R33).")
@click.option(
    "--pace",
    type=Choice(["normal", "slow", "strain"]),
    default=None,
    help="R13 normal, R15 slow, R14 strain N (default: her pace now).",
)
@click.argument("strain", type=STRAIN, required=False, default=None)
@click.option(
    "--plan",
    "plan_number",
    type=NUMBER,
    default=None,
    help="Forecast route N of `voyage plan SHIP --to HEX` (with its fuel stops).",
)
@click.option("--runs", type=RUNS, default=10_000, show_default=True, help="Runs.")
@click.option(
    "--seed",
    type=RUN_SEED,
    default=None,
    help="Seed of the runs (default: from the campaign seed and the clock).",
)
@click.option(
    "--workers",
    type=WORKERS,
    default=None,
    help="Worker processes (default: the cores free, as the work needs).",
)
@click.option(
    "--plot",
    "plot_path",
    type=NamedFile("a picture", "--plot witch.png", dir_okay=False),
    default=None,
    help="Also draw the forecast to this PNG: losses on the map, histograms (a file: "
    "not - for standard output).",
)
@json_option
@handles_errors
def forecast(
    db_path: str,
    ship_name: str,
    to: str | None,
    via: tuple[str, ...],
    route: str | None,
    inshore: bool,
    pace: str | None,
    strain: int | None,
    plan_number: int | None,
    runs: int,
    seed: int | None,
    workers: int | None,
    plot_path: str | None,
    as_json: bool,
) -> None:
    """Forecast a voyage: sail it thousands of times in memory and count what happens.

    For a ship in port give the voyage as for `voyage sail`; for a ship at sea leave it
    out (from where she is now) or give a new course. It prints the chance she arrives,
    is lost, runs aground, runs out of fuel (a built boat: charge, R82) or needs the
    referee (each with its 95% interval), when she arrives, the fuel she burns, the water
    she takes on, and where she was lost; and, for a built boat, a route that crosses
    charted water shallower than her draft (R83). For a ship whose food and fresh water
    are counted, the chance they run out and that people die going without (R102), and
    the days they last against the expected and the slow (95th percentile) passage, with
    a warning when one will not last (R104). The campaign is read, never written, and
    its dice are not used: the same --seed gives the same forecast, with any number of
    --workers.

    Examples:

        voyage forecast "Sea Witch" --to 2812 --inshore

        voyage forecast "Sea Witch" --runs 2000 --seed 7 --json

        voyage forecast "Sea Witch" --plan 3 --to 2812 --plot witch.png
    """
    from voyage.actions.forecast import (
        check_counts,
        default_seed,
        prepare,
        text_report,
    )
    from voyage.actions.forecast import forecast as run_forecast
    from voyage.store.campaign import read_only_campaign

    if (to or via) and route:
        raise click.ClickException("give either --to (with --via) or --route, not both")
    if plan_number is not None and (not to or route or via or inshore):
        raise click.ClickException(
            "--plan N goes with --to HEX alone (the plan is the route): "
            "voyage forecast SHIP --plan N --to HEX"
        )
    if pace == "strain" and not strain:
        raise click.ClickException("say how many knots to strain: --pace strain N (R14)")
    check_counts(runs, workers)
    camp = read_only_campaign(db_path)
    from voyage.cli.hexarg import hex_or_port, hexes_or_ports

    to, via = hex_or_port(camp, to), hexes_or_ports(camp, via)
    if plan_number is not None:
        assert to is not None
        setup = _plan_setup(camp, ship_name, to, plan_number, pace, strain or 0)
    else:
        setup = prepare(camp, ship_name, to, via, _hexes(route), inshore, pace, strain or 0)
    if plot_path:
        from voyage.outputs.forecast_plot import check_plot_path

        check_plot_path(plot_path)
    seed = default_seed(camp.seed, camp.clock) if seed is None else seed

    def estimate(seconds: float) -> None:
        say_estimate(seconds, f"{runs:,} run{'' if runs == 1 else 's'}")

    with progress_bar(runs, "Sailing", not as_json) as progress:
        data, results = run_forecast(setup, runs, seed, workers, progress, estimate)
    from voyage.actions.depthroutes import shoal_warning

    # R83: her route has to cross charted water shallower than her draft (as `sail` says)
    data["depth_warning"] = shoal_warning(camp, None, setup.state.ship, setup.route)
    if plot_path:
        from voyage.outputs.forecast_plot import plot_forecast
        from voyage.store.mapstore import campaign_chart

        chart, _ = campaign_chart(camp)
        plot_forecast(chart, setup, data, results, plot_path, plan=plan_number)
    if as_json:
        emit_json(data)
        return
    from voyage.actions.voyages import open_voyage
    from voyage.store.calendarrow import campaign_calendar

    # R103: stores are taken on in port; a ship at sea finds or is handed them
    lines = text_report(data, campaign_calendar(camp), open_voyage(camp, data["ship"]) is None)
    places = _place_names(camp)
    bare = f": {data['from']} to {data['to']},"  # the ports by name, as `plan` gives them
    lines[0] = lines[0].replace(bare, f": {places(data['from'])} to {places(data['to'])},", 1)
    for line in lines:
        click.echo(line)
    _encounters_note(camp)
    if data["depth_warning"]:
        click.echo(data["depth_warning"])
    if plot_path:
        click.echo(f"Drew {plot_path}.")


def _plan_setup(
    camp: Any, ship_name: str, to: str, number: int, pace: str | None, strain: int
) -> Any:
    from voyage.actions.plan import candidates, choose, setup_for

    cand = choose(candidates(camp, ship_name, to, pace, strain), number)
    return setup_for(camp, ship_name, cand, pace, strain)


@click.command("plan")
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.option("--to", "to", required=True, help="Destination: a hex CCRR or a port's name.")
@click.option(
    "--objective",
    type=Choice(["fastest", "safest", "fuel"]),
    default="safest",
    show_default=True,
    help="Order the routes by expected time, chance of loss, or fuel left.",
)
@click.option(
    "--pace",
    type=Choice(["normal", "slow", "strain"]),
    default=None,
    help="R13 normal, R15 slow, R14 strain N (default: her pace now).",
)
@click.argument("strain", type=STRAIN, required=False, default=None)
@click.option("--runs", type=RUNS, default=2000, show_default=True, help="Runs per route.")
@click.option("--seed", type=RUN_SEED, default=None, help="Seed of the runs (default: campaign).")
@click.option(
    "--workers",
    type=WORKERS,
    default=None,
    help="Worker processes (default: the cores free, as the work needs).",
)
@json_option
@handles_errors
def plan_command(
    db_path: str,
    ship_name: str,
    to: str,
    objective: str,
    pace: str | None,
    strain: int | None,
    runs: int,
    seed: int | None,
    workers: int | None,
    as_json: bool,
) -> None:
    """Plan a voyage: the sensible routes, each forecast, side by side.

    The shortest sea route, one offshore, one inshore, one out of the storms, the fastest
    with the currents (R64), and when her fuel will not reach (R16), routes through ports
    that sell fuel, with what to buy; for a built boat whose charge will not last (R82:
    power units a hex by her speed), routes that stop to recharge in a port; when her food
    or fresh water will not last (R104), routes through a port to take them on (R103), and
    a warning for each plan whose expected or slow passage they will not last. A route that
    must cross charted water shallower than a boat's draft is named (R83). When no plan
    gets there on her fuel or charge, a line says how far they take her. Route numbers
    do not depend on --objective.
    Sail the one you choose with `voyage sail SHIP --plan N --to HEX`; forecast it in
    full with `voyage forecast SHIP --plan N --to HEX --plot PATH`.

    Examples:

        voyage plan "Sea Witch" --to 2812

        voyage plan "Sea Witch" --to 2812 --objective fuel --runs 5000 --json
    """
    from voyage.actions.forecast import check_counts, pct
    from voyage.actions.plan import plan
    from voyage.actions.storesplan import stop_stores, stores_lines, warnings
    from voyage.store.campaign import read_only_campaign

    if pace == "strain" and not strain:
        raise click.ClickException("say how many knots to strain: --pace strain N (R14)")
    check_counts(runs, workers)
    camp = read_only_campaign(db_path)
    from voyage.cli.hexarg import hex_or_port

    to = str(hex_or_port(camp, to))
    with progress_bar(None, "Planning", not as_json) as progress:

        def estimate(seconds: float, total: int) -> None:
            if progress is not None:
                progress.total = total  # every route's runs: the bar can fill
            say_estimate(seconds, f"{total:,} runs over the routes")

        data = plan(
            camp,
            ship_name,
            to,
            objective,
            runs,
            seed,
            workers,
            pace,
            strain or 0,
            progress,
            estimate,
        )
    if as_json:
        emit_json(data)
        return
    order = {"fastest": "fastest", "safest": "safest", "fuel": "most fuel left"}[objective]
    counted = any(p["stores"] for p in data["plans"])  # R100: her stores are counted
    place = _place_names(camp)
    click.echo(
        f"Plans for {data['ship']} from {place(data['from'])} to {place(data['to'])}, "
        f"{order} first "
        f"({runs:,} run{'' if runs == 1 else 's'} each, seed {data['seed']}; hours and what is "
        "left are the means of the runs):"
    )
    rows = [
        [
            p["plan"],
            p["label"],
            p["hexes"],
            pct(p["arrives"]),
            "-" if p["hours"] is None else f"{round(p['hours'], 1):g}",
            pct(p["lost"]),
            pct(p["aground"]),
            f"{round(p['fuel_left'], 1):g}",  # means: one decimal, as the forecast
            *([pct(p["out_of_stores"])] if counted else []),  # R104
        ]
        for p in data["plans"]
    ]
    click.echo(
        table(
            rows,
            [
                "plan",
                "route",
                "hexes",
                "arrives",
                "hours",
                "lost",
                "aground",
                "charge left" if data.get("fuel_unit") == "power units" else "fuel left",
                *(["stores out"] if counted else []),
            ],
        )
    )
    for p in data["plans"]:
        for stop in p["stops"]:
            if stop.get("recharge") is not None:  # R82: a built boat
                click.echo(
                    f"Plan {p['plan']}: at {stop['port']} ({stop['hex']}) recharge to "
                    f"{stop['recharge']} power units ({stop['minutes']} minutes, "
                    f"${stop['cost']:g}: `voyage act {data['ship']!r} recharge`)."
                )
                continue
            take = stop_stores(stop, data["ship"])  # R103
            if "price" not in stop:  # a stop for stores alone
                click.echo(f"Plan {p['plan']}: at {stop['port']} ({stop['hex']}) {take}.")
                continue
            click.echo(
                f"Plan {p['plan']}: at {stop['port']} ({stop['hex']}) buy {stop['buy']} hlbs "
                f"of fuel ({stop['cost']:g} at {stop['price']:g} a hlb)"
                + (f" and {take}." if take else ".")
            )
        if p.get("depth_warning"):
            click.echo(f"Plan {p['plan']}: {p['depth_warning']}")  # R83
    counted_by = [p for p in data["plans"] if p["stores"]]
    if counted_by:  # R104: the days she carries, and each plan they will not last
        click.echo(stores_lines(counted_by[0]["stores"], data["ship"], True, False)[0])
        stops = [p["plan"] for p in data["plans"] if p["kind"] == "stores" or p["stops"]]
        other = f"sail plan {stops[0]} (a stop in port)" if stops else ""
        for p in counted_by:
            if p["stops"] and p["stores"] and not p["stores"]["passages"]:
                continue  # it takes on stores on the way: its runs say how it goes
            for line in warnings(p["stores"], data["ship"], True, other):
                click.echo(f"Plan {p['plan']}: {line}")
    if data["shortfall"]:
        click.echo(data["shortfall"])  # R16/R82: no way there on her fuel or charge
    if any(p["arrives"] for p in data["plans"]):
        click.echo(f"Sail one with: voyage sail {data['ship']!r} --plan N --to {data['to']}")
    elif not data["shortfall"]:  # the shortfall line already says what to do
        click.echo(f"No plan reached {data['to']} in any run: none is worth sailing as she is.")


def _encounters_note(camp: Any) -> None:
    """R93: the runs meet no encounters (they are met at the table), but `advance` stops
    for them: say so, so "needs the referee 0%" is not read as "no stops"."""
    from voyage.world.encounters import settings_of

    every = settings_of(camp.settings)[0]
    if every > 0:
        click.echo(
            f"Encounters (R93) are not forecast: `voyage advance` also stops when she meets "
            f"something (a check every {every} hours at sea, by default)."
        )


def _place_names(camp: Any) -> Any:
    """A function naming a hex as people read it: "Gullhaven (0305)" for a port's, else
    the hex."""
    from voyage.outputs.chronicle import map_places

    ports = map_places(camp)

    def place(hex_name: str) -> str:
        return f"{ports[hex_name]} ({hex_name})" if hex_name in ports else hex_name

    return place
