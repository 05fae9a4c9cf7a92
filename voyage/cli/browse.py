"""`voyage browse`: the campaign in Datasette, read-only (optional extra browse)."""

from __future__ import annotations

import click

from voyage.cli.common import Whole, db_option, handles_errors


@click.command()
@db_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve on: 127.0.0.1 is this machine only (an address other machines "
    "can reach is served with a warning).",
)
@click.option(
    "--port", type=Whole(1, 65535), default=8001, show_default=True, help="Port to serve on."
)
@handles_errors
def browse(db_path: str, host: str, port: int) -> None:
    """Browse the campaign in Datasette, read-only, with tables that link to each other.

    Needs Datasette, the optional extra: `pip install '.[browse]'` in voyage's
    folder (or `pip install 'datasette>=0.65,<0.66'` into voyage's Python). Ctrl-C
    stops it. It shows everything the campaign holds, the seed and every roll
    included: the referee's view, not one for players (share `voyage export` or
    `voyage journal` with them).

    Example:

        voyage browse --db salt-reach.db --port 8001
    """
    from pathlib import Path

    from voyage.outputs import browse as served
    from voyage.store.campaign import campaign_title

    host, warning = served.check_host(host)  # "" refused; beyond this machine said
    path = Path(db_path)
    title = campaign_title(path)
    served.datasette_app(path, title)  # a missing Datasette stops here, with the install line
    if warning:
        click.echo(warning, err=True)
    sock = served.bind(host, port)  # a port in use stops here, before a word of serving
    click.echo(f"Serving {title} read-only at http://{host}:{port}/ (Ctrl-C stops).")
    served.serve(path, title, sock)
