"""Where the bundled data lives, in a source checkout and in an installed copy.

In the repository the rule tables are in ``tables/`` and the example campaigns in
``campaigns/``; an installed package carries the same folders as ``voyage/_tables`` and
``voyage/_campaigns`` (see pyproject.toml's package-dir).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # voyage/ (this file is voyage/base/paths.py)


def _find(installed: str, source: str) -> Path:
    inside = _PACKAGE / installed
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / source


def tables_dir() -> Path:
    """The folder of built-in rule tables (YAML)."""
    return _find("_tables", "tables")


def campaigns_dir() -> Path:
    """The folder of bundled example campaigns."""
    return _find("_campaigns", "campaigns")


def schemas_dir() -> Path:
    """The folder of JSON Schemas shipped with the package."""
    return _PACKAGE / "schemas"


def no_folder(parent: Path) -> str:
    """Why nothing can be written into ``parent``, which is not a folder, and what to do: a
    missing folder is to be made, but a file in its place is not a folder to make."""
    if parent.exists():
        return f"{parent} is a file, not a folder: give a path inside a folder"
    return f"folder {parent} does not exist: make it first"
