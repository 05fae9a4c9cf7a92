"""Shell completion: `voyage completion bash|zsh|fish` prints the script, and the
commands' arguments complete ship names, hexes (ports first), bundled campaigns and classes.

Completion is attached in one place (:func:`attach`, called by the lazy group as it loads a
command) by parameter name, so the command modules stay as they are. Every lookup reads the
campaign file through voyage.store.peek (read-only: completing never makes or changes a
file) and answers nothing rather than fail: a half-typed command line must never print an
error.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem, get_completion_class

from voyage.cli.common import Choice
from voyage.store import peek

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]

SHELLS = ("bash", "zsh", "fish")


def _campaign_path(ctx: click.Context) -> Path:
    """The campaign file the command line names so far (as the commands resolve --db)."""
    for c in (ctx, *_parents(ctx)):
        value = c.params.get("db_path")
        if value:
            return Path(value)
    group_value = ctx.meta.get("voyage.db")
    return Path(group_value or os.environ.get("VOYAGE_DB") or "campaign.db")


def _parents(ctx: click.Context) -> list[click.Context]:
    out = []
    while ctx.parent is not None:
        ctx = ctx.parent
        out.append(ctx)
    return out


def _campaign_map(ctx: click.Context) -> Any:
    """The campaign's map from its parsed-map cache (voyage.store.mapcache), parsed only when the
    cache has no row for its text (a 999 x 999 map is never parsed per Tab)."""
    from voyage.store import mapcache

    path = _campaign_path(ctx)
    text = peek.map_text(path)
    if text is None:
        return None
    blob = peek.map_cache_blob(path, mapcache.map_hash(text), mapcache.FORMAT)
    if blob is not None:
        try:
            return mapcache.decode(blob, text, "<campaign>")
        except Exception:  # noqa: BLE001 - a damaged row: parse, as commands do
            pass
    from voyage.map.seamap import parse_map

    return parse_map(text)


def _hexes_starting(width: int, height: int, incomplete: str, limit: int = 200) -> list[str]:
    """Hex names of a ``width`` x ``height`` map starting with ``incomplete`` (at least two
    digits), column by column, at most ``limit``: only the columns the digits allow."""
    from voyage.map.hexes import hex_name

    out: list[str] = []
    for col in range(1, width + 1):
        short, long = f"{col:02d}", f"{col:03d}"
        if not (short.startswith(incomplete[:2]) or long.startswith(incomplete[:3])):
            continue
        for row in range(1, height + 1):
            name = hex_name(col, row)
            if name.startswith(incomplete):
                out.append(name)
                if len(out) >= limit:
                    return out
    return out


def complete_ship(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Ship names (not archived ones) starting with what is typed, case-insensitively."""
    names = peek.ship_names(_campaign_path(ctx))
    low = incomplete.lower()
    return [CompletionItem(n) for n in names if str(n).lower().startswith(low)]


def complete_hex(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """The campaign map's ports (with their names as help), then any hex that fits."""
    try:
        sea_map = _campaign_map(ctx)
    except Exception:  # noqa: BLE001 - a broken map completes nothing, it is not an error here
        return []
    if sea_map is None:
        return []
    if incomplete[:1].isalpha():  # a port by her name, as hexarg.hex_or_port reads it
        low = incomplete.lower()
        return [
            CompletionItem(h.port, help=h.name)
            for h in sea_map.ports()
            if h.port and h.port.lower().startswith(low)
        ]
    ports = [CompletionItem(h.name, help=h.port) for h in sea_map.ports()]
    found = [p for p in ports if p.value.startswith(incomplete)]
    if len(incomplete) >= 2 and not found:
        names = _hexes_starting(sea_map.width, sea_map.height, incomplete)
        found = [CompletionItem(n) for n in names]
    return found


def complete_campaign(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Bundled campaigns by name (``voyage map load salt_reach`` works from any folder)."""
    from voyage.base.paths import campaigns_dir

    names = sorted(p.name for p in campaigns_dir().iterdir() if (p / "campaign.yaml").is_file())
    items = [CompletionItem(n) for n in names if n.startswith(incomplete)]
    return items + [CompletionItem(incomplete, type="file")]


def complete_class(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Ship class keys from the rule book."""
    try:
        from voyage.tables.rulebook import load_rulebook

        keys = sorted(load_rulebook().classes)
    except Exception:  # noqa: BLE001 - completion answers nothing rather than fail
        return []
    return [CompletionItem(k) for k in keys if k.startswith(incomplete)]


def complete_person(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Named people on the roster (R70) starting with what is typed."""
    names = peek.people_names(_campaign_path(ctx))
    low = incomplete.lower()
    return [CompletionItem(n) for n in names if str(n).lower().startswith(low)]


def complete_afloat(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Named people and rafts still afloat (R74: whom `act SHIP rescue` can take)."""
    names = peek.afloat_names(_campaign_path(ctx))
    low = incomplete.lower()
    return [CompletionItem(n) for n in names if str(n).lower().startswith(low)]


def _boat_keys(section: str) -> Completer:
    """Names from the boats table (R80): bodies, plants or designs, for `ship build`."""

    def complete(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
        try:
            from voyage.tables.rulebook import load_rulebook

            keys = sorted(load_rulebook().boats[section])
        except Exception:  # noqa: BLE001 - completion answers nothing rather than fail
            return []
        return [CompletionItem(k) for k in keys if k.lower().startswith(incomplete.lower())]

    return complete


#: parameter name -> completer, for every command; "name" means a ship under `voyage ship`.
BY_NAME: dict[str, Completer] = {
    "ship_name": complete_ship,
    "ship": complete_ship,
    "hex_name": complete_hex,
    "to": complete_hex,
    "via": complete_hex,
    "around": complete_hex,
    "hexes": complete_hex,
    "ship_class": complete_class,
    "names": complete_afloat,
    "body": _boat_keys("bodies"),
    "plant": _boat_keys("plants"),
    "design": _boat_keys("designs"),
}


def attach(cmd: click.Command, path: tuple[str, ...] = ()) -> None:
    """Give the parameters of ``cmd`` (and its subcommands) their completers, by name."""
    for param in cmd.params:
        completer = BY_NAME.get(param.name or "")
        if param.name == "name" and path[:1] == ("ship",) and path[1:] != ("build",):
            completer = complete_ship
        if param.name == "name" and path[:1] == ("crew",) and path[1:2] != ("add",):
            completer = complete_person
        if param.name == "path" and path[:2] == ("map", "load"):
            completer = complete_campaign
        if completer is not None and getattr(param, "_custom_shell_complete", None) is None:
            # click's own hook for shell_complete=..., set here so the commands stay plain
            param._custom_shell_complete = completer  # type: ignore[attr-defined]
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            attach(sub, (*path, name))


@click.command()
@click.argument("shell", type=Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script for bash, zsh or fish.

    Commands, options, ship names, hexes (ports first) and bundled campaigns complete.

    Examples:

        eval "$(voyage completion bash)"     # in ~/.bashrc

        voyage completion fish > ~/.config/fish/completions/voyage.fish
    """
    from voyage.cli import cli

    cls = get_completion_class(shell)
    if cls is None:  # pragma: no cover - click knows all three
        raise click.ClickException(f"no completion for {shell}")
    click.echo(cls(cli, {}, "voyage", "_VOYAGE_COMPLETE").source())
