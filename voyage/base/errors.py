"""The one exception family of the core; the CLI turns each into a one-line message."""


class VoyageError(Exception):
    """Base class: something the referee asked for cannot be done; the message says why."""


class TableError(VoyageError):
    """A rule table or campaign file is malformed; names the file, the key and the problem."""


class MapError(VoyageError):
    """A map file or hex reference is wrong; names the line/column or hex."""


class ShipError(VoyageError):
    """A ship is unknown, or a change to it breaks the rules (e.g. a load that would sink it)."""


class CampaignError(VoyageError):
    """The campaign database is missing, locked, or cannot be opened."""


class VoyageRuleError(VoyageError):
    """A voyage order breaks the rules (a route over land, a ship already at sea, ...)."""


#: A name quoted in a refusal longer than any name voyage keeps (voyage.base.text.NAME_MAX) is
#: cut, so a mistyped 400-character argument is not said back whole.
QUOTED_MAX = 100


def quoted(name: str, most: int = QUOTED_MAX) -> str:
    """``name`` quoted for a refusal (``'Sea Witch'``); one longer than ``most`` is cut to
    its first 60 characters: ``'xxxx...' (400 characters)``."""
    if len(name) <= most:
        return repr(name)
    cut = repr(name[: min(60, most)])
    return f"{cut[:-1]}...{cut[-1]} ({len(name)} characters)"
