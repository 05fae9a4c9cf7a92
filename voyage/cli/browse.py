"""`voyage browse`: the campaign in Datasette, read-only (optional extra voyage[browse])."""

from __future__ import annotations

import click

from .common import Whole, db_option, handles_errors


@click.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to serve on.")
@click.option(
    "--port", type=Whole(1, 65535), default=8001, show_default=True, help="Port to serve on."
)
@handles_errors
def browse(db_path: str, host: str, port: int) -> None:
    """Browse the campaign in Datasette, read-only, with tables that link to each other.

    Needs the optional extra: pip install 'voyage[browse]'. Ctrl-C stops it.

    Example:

        voyage browse --db salt-reach.db --port 8001
    """
    from pathlib import Path

    from ..browse import datasette_app, serve
    from ..campaignfile import campaign_title

    path = Path(db_path)
    title = campaign_title(path)
    datasette_app(path, title)  # a missing Datasette stops here, with the install line
    click.echo(f"Serving {title} read-only at http://{host}:{port}/ (Ctrl-C stops).")
    serve(path, title, host, port)
