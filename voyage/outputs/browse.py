"""Browse a campaign in Datasette (the optional extra ``browse``).

The campaign is served read-only: Datasette opens a file database with ``mode=ro`` and
grants no write permission unless told to, and nothing here tells it to. The metadata says
what each table and view holds in the referee's words, which columns to facet on and how a
ship is labelled, so a player or referee can click from a voyage to its ship and its hours.
Datasette is imported only by :func:`datasette_app`, never at start-up.
"""

from __future__ import annotations

import errno
import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import Any

from voyage.base.errors import VoyageError

#: Datasette goes into the Python voyage runs in. Not ``pip install 'voyage[browse]'``: voyage
#: is installed from its folder, and that name on the package index is another project, which
#: pip would fetch in place of this one.
DATASETTE = "datasette>=0.65,<0.66"


def install_hint() -> str:
    """The one command that installs Datasette beside this voyage (its own Python's pip)."""
    return (
        f"install it with: {shlex.quote(sys.executable)} -m pip install '{DATASETTE}' "
        "(or, in voyage's folder, pip install '.[browse]')"
    )


#: table or view -> (description, facets)
TABLES: dict[str, tuple[str, list[str]]] = {
    "campaign": ("The campaign: its name, seed (R5), clock and dice state.", []),
    "settings": ("The campaign's options (the rulings marked option) changed from default.", []),
    "actions": (
        "Every referee action and advance, in order; `voyage undo` takes the last back.",
        ["kind"],
    ),
    "ships": (
        "The ships: class (its key and its name), Tier, engine, traits, equipment and "
        "what is aboard.",
        ["class_label", "status"],
    ),
    "voyages": (
        "Each voyage: ship, origin, destination, route and how it ended.",
        ["ship", "status"],
    ),
    "voyage_routes": (
        "Each voyage's planned route and the legs sailed inshore (R33), a row "
        "per voyage (kept apart so hourly updates never rewrite them).",
        [],
    ),
    "hours": (
        "A row per ship per hour at sea: hex, miles, speed, fuel, load and the water in her "
        "hull (a view of hour_days; filter by voyage_id or ship).",
        ["ship", "status", "load_category"],
    ),
    "hour_days": (
        "Where the hours are stored: a row per action, voyage, ship and day, its "
        "hours one JSON array (read them in hours).",
        ["ship"],
    ),
    "events": ("What happened, to the minute, with every roll (R4).", ["kind", "ship"]),
    "rolls": ("Rolls made outside a voyage: ship generation, table rolls.", ["label", "ship"]),
    "storms": ("Storm-tossed hexes and the hours they blow (R32, R60).", ["source"]),
    "weather_rerolls": (
        "The referee's rerolls of a region's day (R63); rolled weather itself "
        "is recomputed, never stored.",
        ["region"],
    ),
    "sea_map": ("The campaign's sea map, as the YAML it was loaded from.", []),
    "map_cache": (
        "Derived: the sea map parsed once, keyed by a hash of its text (not part "
        "of undo; rebuilt when missing).",
        [],
    ),
    "port_fuel": ("Fuel sold at each port so far.", []),
    "port_stores": ("Food and fresh water taken from each port so far (R103).", []),
    "undo_journal": (
        "What each recent action changed, for `voyage undo`: rows it added, old "
        "values of what it changed or deleted.",
        ["tbl", "op"],
    ),
    "people": (
        "The roster of named people (R70): ship, role, Swimming rank, jacket.",
        ["ship", "role"],
    ),
    "floaters": (
        "Rafts and people off a ship (R71-R74): hex, raft, state.",
        ["kind", "state", "ship"],
    ),
    "calendar": (
        "The campaign's calendar (a copy of its months and seasons) and day 1's date.",
        [],
    ),
    "ship_log": (
        "A readable ship's log: every event with its ship, voyage, time and hex.",
        ["ship", "kind"],
    ),
    "ships_at_sea": ("Ships at sea now: where, whither and how the voyage stands.", ["status"]),
}


#: How a row is named where another table links to it (Datasette's label column): a ship by
#: her name, an action by its summary ("advance 12 hours to Day 2, 00:00"), a voyage by
#: its ship, a named person by name.
LABELS: dict[str, str] = {
    "ships": "name",
    "actions": "summary",
    "voyages": "ship",
    "people": "name",
}

_ACTION = "The action that wrote this row (`voyage history`; undone with it)."
_VOYAGE = "The voyage this row belongs to (empty outside a voyage)."
_SHIP = "The ship's name (a link to her row in ships)."
_LOGGED = "The ship's name as the log keeps it (her voyage links her row in ships)."
#: Column descriptions: the keys (foreign keys since m190, voyage.store.foreignkeys) and the names
#: beside them.
COLUMNS: dict[str, dict[str, str]] = {
    "ships": {
        "class": "The class's key in the rule book (tables/classes.yaml).",
        "class_label": "The class's name in the campaign's rule book, beside its key.",
        "created": "The action that made her (0: made before the campaign's first action).",
        "archived": "1: removed with --force after she sailed; her log stays.",
    },
    "voyages": {"ship": _SHIP},
    "voyage_routes": {
        "route": "The hexes of her route, in order, separated by spaces (origin first).",
        "inshore": "One flag per hex of the route: 1 sailed inshore (R33), 0 not.",
    },
    "hours": {"action_id": _ACTION, "voyage_id": _VOYAGE, "ship": _LOGGED},
    "hour_days": {
        "action_id": _ACTION,
        "voyage_id": _VOYAGE,
        "ship": _LOGGED,
        "first_id": "The id of its first hour (in hours).",
        "last_id": "The id of its last hour (in hours).",
        "hours": "Its hours (JSON): each [id, clock, hour, hex, miles, speed, pace, "
        "fuel, load, load_category, water, leaks, status].",
    },
    "events": {
        "action_id": _ACTION,
        "voyage_id": _VOYAGE,
        "ship": _LOGGED,
        "hex": "The hex it happened in.",
        "rolls": "Every roll, in full (R4; JSON).",
    },
    "rolls": {
        "action_id": _ACTION,
        "ship": "The ship the roll was for (her name, kept as "
        "written: a ship removed before she sailed leaves her generation rolls).",
    },
    "storms": {"action_id": _ACTION},
    "sea_map": {"action_id": "The action that loaded the map."},
    "people": {"ship": "The ship they are aboard (empty: ashore, or off a ship)."},
    "floaters": {
        "ship": "The ship they came off.",
        "voyage_id": _VOYAGE,
        "raft": "The raft they are on (a row of this table).",
        "hours_swum": "Hours swum before swim_since (R72).",
        "swim_since": "Campaign hour their present swim began (empty: not "
        "swimming); hours swum now = hours_swum + clock - swim_since.",
    },
    "fighters": {"fight": "The fight (a row of fights)."},
    "undo_journal": {"action_id": "The action whose change this entry takes back."},
}


def browse_metadata(path: Path, title: str) -> dict[str, Any]:
    """Datasette metadata for the campaign file at ``path``."""
    tables: dict[str, Any] = {}
    for name, (description, facets) in TABLES.items():
        entry: dict[str, Any] = {"description": description}
        if facets:
            entry["facets"] = facets
        tables[name] = entry
    for table, label in LABELS.items():
        tables.setdefault(table, {})["label_column"] = label
    for table, columns in COLUMNS.items():
        tables.setdefault(table, {})["columns"] = columns
    return {
        "title": title,
        "description": "A voyage campaign, read-only. Tables link to each other (foreign "
        "keys): click a ship's name in a voyage, a voyage or an action in a day of hours "
        "(hour_days) or an event; a ship's page lists her voyages, a voyage's page its days "
        "of hours and events.",
        "source": "voyage",
        "databases": {path.stem: {"tables": tables}},
    }


#: The address browse serves on unless told another: this machine only.
LOCAL_HOST = "127.0.0.1"


def check_host(host: str) -> tuple[str, str | None]:
    """The address to serve on, and a one-line warning when it listens beyond this machine
    (every interface: "0", "0.0.0.0", "::"; or an address other machines reach), else None.

    An empty ``--host`` (a shell variable left unset) is refused: a server would take it
    for every interface."""
    name = host.strip()
    if not name:
        raise VoyageError(
            f"--host must not be empty: give an address, such as {LOCAL_HOST} (this "
            "machine only), or leave --host out"
        )
    if any(ch.isspace() or not ch.isprintable() for ch in name):
        raise VoyageError(f"--host {name!r} is not an address: give one such as {LOCAL_HOST}")
    bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        try:  # what the server's socket reads as IPv4: "0" is 0.0.0.0, "127.1" is 127.0.0.1
            address = ipaddress.IPv4Address(socket.inet_aton(bare))
        except OSError:
            address = None
    if address is None and bare.lower() in ("localhost", "localhost."):
        return bare, None
    if address is not None and address.is_loopback:
        return bare, None
    reach = (
        "every address of this machine"
        if address is not None and address.is_unspecified
        else f"{name}, an address other machines can reach"
    )
    return bare, (
        f"Warning: --host {name} listens on {reach}: anyone on the network can read the "
        f"campaign, its seed and every roll (leave --host out to serve this machine only)."
    )


def datasette_app(path: Path, title: str) -> Any:
    """A Datasette instance serving the campaign at ``path`` read-only. Its list of
    databases (``/-/databases.json``) names the campaign's file, not where it lies on the
    referee's disk."""
    try:
        from datasette.app import Datasette
    except ImportError:
        raise VoyageError(f"voyage browse needs Datasette: {install_hint()}") from None

    class CampaignDatasette(Datasette):  # type: ignore[misc]
        def _connected_databases(self) -> list[dict[str, Any]]:
            return [
                {**db, "path": Path(db["path"]).name if db.get("path") else db.get("path")}
                for db in super()._connected_databases()
            ]

    return CampaignDatasette(
        [str(path)], metadata=browse_metadata(path, title), settings={"default_page_size": 50}
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, bound before anything says it serves there;
    VoyageError in one line when the port is taken or the address is not this machine's."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except OSError:
        raise VoyageError(f"cannot serve on {host}: no such address on this machine") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise VoyageError(
                f"port {port} on {host} is in use: choose another with --port N"
            ) from None
        raise VoyageError(
            f"cannot serve on {host} port {port}: {exc.strerror or exc} (try --port N)"
        ) from None
    return sock


def serve(path: Path, title: str, sock: socket.socket) -> None:  # pragma: no cover - a server
    """Serve the campaign on the bound ``sock`` (:func:`bind`) until interrupted (Ctrl-C)."""
    ds = datasette_app(path, title)
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(ds.app(), log_level="warning"))
    server.run(sockets=[sock])
