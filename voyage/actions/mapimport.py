"""The referee's map import: a drawing tool's map read, converted, and made the campaign's."""

from __future__ import annotations

from typing import Any

from voyage.map.importers import Imported, import_file, is_importable
from voyage.map.seamap import SeaMap
from voyage.store.mapstore import install_map

__all__ = ["import_file", "is_importable", "load_imported"]


def load_imported(camp: Any, imported: Imported) -> SeaMap:
    """Make an imported map the campaign's: one undoable map load, or nothing at all."""
    return install_map(camp, imported.sea)
