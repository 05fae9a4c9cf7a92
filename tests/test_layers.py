"""The package keeps its house (DESIGN.md, "One house"): every import-linter contract of
pyproject.toml is kept (the layers, each importing only the ones below it, and no import
cycle in any package; imports inside functions and under TYPE_CHECKING count), no file
in the package is binary, and no line of it names an issue (history belongs in commits)."""

from __future__ import annotations

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
