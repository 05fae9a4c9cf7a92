"""The demo command: a whole voyage from nothing, written to a folder."""

from __future__ import annotations

import click

from voyage.cli.common import SEED, NamedFile, emit_json, handles_errors, json_option


@click.command()
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed for every roll (R5); the same seed tells the same story. "
    "Default: the example campaign's own seed.",
)
@click.option(
    "--out",
    "out",
    type=NamedFile("the demo's files", "--out voyage-demo", file_okay=False),
    default="voyage-demo",
    show_default=True,
    help="Folder for the demo's files (made if missing; a folder, not - for standard output).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace the files of the first demo with the same seed instead of "
    "writing a new run beside them.",
)
@json_option
@handles_errors
def demo(seed: int | None, out: str, force: bool, as_json: bool) -> None:
    """Run a whole voyage from nothing: a campaign, a ship, a storm, a log and a picture.

    Makes a campaign from the bundled example campaign (the Salt Reach), rolls a
    fishing trawler, loads her, puts a storm across her course, sails her along the
    coast and through the storm, and advances a day at a time until she arrives, sinks,
    or ten days pass. No questions asked; the dice decide, and storms are deadly
    (R32, R41): with most seeds she goes down in it, the default seed among them;
    --seed 2 makes port.

    Files are named after the seed, in the --out folder: demo-seed-N.db (the campaign:
    open it with --db to go on playing), demo-seed-N.md (the ship's log) and
    demo-seed-N.png (her track). Another --seed makes new files beside them; the same
    seed again writes demo-seed-N-run2.* (run3, ...) so an earlier run, perhaps played on
    since, is never replaced; --force replaces the first run instead.

    Examples:

        voyage demo

        voyage demo --seed 12 --out ~/voyage-demo
    """
    from voyage.outputs.demo import run_demo

    result = run_demo(out, seed, force=force, echo=None if as_json else click.echo)
    if as_json:
        emit_json(
            {
                "seed": result.seed,
                "ship": result.ship,
                "voyage": result.voyage,
                "campaign": str(result.campaign),
                "log": str(result.log),
                "picture": str(result.picture),
                "summary": result.summary,
            }
        )
        return
    click.echo(f"Wrote {result.log} and {result.picture}.")
    import shlex

    click.echo(
        f"Go on playing with --db {result.campaign}, e.g. "
        f"voyage log {shlex.quote(result.ship)} --db {shlex.quote(str(result.campaign))}"
    )
