"""The package keeps its house (DESIGN.md, "One house"): every import-linter contract of
pyproject.toml is kept (the layers, each importing only the ones below it, and no import
cycle in any package; imports inside functions and under TYPE_CHECKING count), no file
in the package is binary, no line of it names an issue (history belongs in commits), and
only voyage/store writes SQL or touches a database."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
PACKAGE = ROOT / "voyage"

CONTRACTS: list[str] = [
    c["name"] for c in tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
]


@pytest.fixture(scope="module")
def linted() -> subprocess.CompletedProcess[str]:
    """`lint-imports` on pyproject.toml, as CI runs it (from this Python's bin), with no
    cache written into the checkout."""
    command = Path(sys.executable).parent / "lint-imports"
    if not command.exists():
        pytest.skip("import-linter is not installed beside this Python (pip install '.[test]')")
    return subprocess.run(
        [str(command), "--no-logo", "--no-cache", str(PYPROJECT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def _verdicts(output: str) -> dict[str, str]:
    """Each contract's name and KEPT or BROKEN, from the command's summary lines."""
    return {
        line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1]
        for line in output.splitlines()
        if line.endswith((" KEPT", " BROKEN"))
    }


def test_every_contract_is_checked(linted: subprocess.CompletedProcess[str]) -> None:
    # a contract import-linter could not read or run would otherwise pass unseen
    assert sorted(_verdicts(linted.stdout)) == sorted(CONTRACTS), linted.stdout + linted.stderr


@pytest.mark.parametrize("name", CONTRACTS)
def test_every_contract_is_kept(linted: subprocess.CompletedProcess[str], name: str) -> None:
    assert _verdicts(linted.stdout).get(name) == "KEPT", linted.stdout


def test_lint_imports_passes(linted: subprocess.CompletedProcess[str]) -> None:
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_no_file_in_the_package_is_binary() -> None:
    binary = [
        str(path.relative_to(ROOT))
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and _is_binary(path)
    ]
    assert binary == []


def _is_binary(path: Path) -> bool:
    """A NUL byte, or bytes that are not UTF-8 text."""
    data = path.read_bytes()
    if b"\0" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def test_no_line_of_the_package_names_an_issue() -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = subprocess.run(
        [git, "grep", "-n", "-i", "-E", "issue [0-9]+", "--", "voyage"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    # git grep: 0 found, 1 nothing found, more an error
    assert found.returncode in (0, 1), found.stderr
    assert found.stdout == ""


# -- the only SQL is in voyage/store ------------------------------------------------------

#: SQL as voyage writes it (keywords in capitals), in a string of the code.
SQL = re.compile(
    r"\b(SELECT\b.*\bFROM|INSERT\s+(OR\s+[A-Z]+\s+)?INTO|UPDATE\s+\[?\w+\]?\s+SET|DELETE\s+FROM"
    r"|CREATE\s+(TEMP\s+)?(TABLE|INDEX|VIEW|TRIGGER)|DROP\s+(TABLE|INDEX|VIEW|TRIGGER)"
    r"|ALTER\s+TABLE|PRAGMA\s+\w+|BEGIN\b|COMMIT\b|ROLLBACK\b)",
    re.DOTALL,
)
#: Modules that open or hold a database; only voyage/store imports them.
DATABASE_MODULES = ("sqlite3", "sqlite_utils", "voyage.store.sqlitedb")
#: What a database or a connection answers to (a Campaign's ``.db`` and ``.conn`` too).
DATABASE_ATTRIBUTES = {"db", "conn", "execute", "executemany", "executescript", "query"}
#: Modules outside voyage/store allowed to touch a database, and why.
SQL_ALLOWED: dict[str, str] = {}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def database_use(source: str) -> list[str]:
    """Where ``source`` writes SQL or touches a database: one line for each, with its line
    number (docstrings and comments may talk about SQL; code may not)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.JoinedStr):  # an f-string: its pieces read as one text
            skip |= {id(v) for v in node.values}
            text = "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
            if SQL.search(text):
                out.append(f"{line}: SQL {text[:40]!r}")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and SQL.search(node.value)
        ):
            out.append(f"{line}: SQL {node.value[:40]!r}")
        elif isinstance(node, ast.Import):
            out += [f"{line}: import {a.name}" for a in node.names if a.name in DATABASE_MODULES]
        elif isinstance(node, ast.ImportFrom) and (
            node.module in DATABASE_MODULES
            or (node.module == "voyage.store" and any(a.name == "sqlitedb" for a in node.names))
        ):
            out.append(f"{line}: from {node.module} import")
        elif isinstance(node, ast.Attribute) and node.attr in DATABASE_ATTRIBUTES:
            out.append(f"{line}: .{node.attr}")
    return out


def test_the_check_finds_sql_and_database_use() -> None:
    source = (
        '"""SELECT name FROM ships: a docstring may say it."""\n'
        "import sqlite3\n"
        "from sqlite_utils import Database\n"
        "rows = camp.db.query('SELECT * FROM ships WHERE name = ?', [n])\n"
        "conn.execute(f'UPDATE [{t}] SET x = 1')\n"
        "text = 'the ships, selected from the map'\n"
    )
    found = database_use(source)
    assert [f.split(":")[0] for f in found].count("4") == 3  # .db, .query and its SQL
    assert any(f.startswith("2: import sqlite3") for f in found)
    assert any(f.startswith("3: from sqlite_utils") for f in found)
    assert any(f.startswith("5: .execute") for f in found)
    assert any(f.startswith("5: SQL") for f in found)
    assert not any(f.startswith(("1:", "6:")) for f in found)


def test_only_the_store_writes_sql_or_touches_a_database() -> None:
    store = PACKAGE / "store"
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if store not in path.parents and str(path.relative_to(ROOT)) not in SQL_ALLOWED
        for where in database_use(path.read_text(encoding="utf-8"))
    ]
    assert found == []
