"""How much of what the property tests generate reaches the rules, not a usage error.

    python bench/hypothesis_share.py

Runs the hypothesis tests of the rules (tests/test_rules_hypothesis.py) and of ``voyage roll``
(tests/test_cli_roll_hypothesis.py) derandomized, and counts, for the rules, the calls into
voyage/rules/ that returned a result against those refused with a VoyageError, and for the
command, the runs that exited 0 against those refused (exit 1 or 2). A property test whose
inputs are mostly refused proves little about the rules themselves.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ["CI"] = "1"  # the tests' conftest profile: derandomized

import conftest  # noqa: E402, F401  (loads the hypothesis profile)
from click.testing import CliRunner  # noqa: E402

from voyage import rules  # noqa: E402
from voyage.base.errors import VoyageError  # noqa: E402
from voyage.rules import (  # noqa: E402
    aground,
    capsize,
    dodge,
    fire,
    hull,
    ramming,
    sinking,
    strain,
)
from voyage.tables.rulebook import load_rulebook  # noqa: E402

MODULES = [aground, capsize, dodge, fire, hull, ramming, sinking, strain]


def _counting(counts: Counter[str], depth: list[int], fn: Callable[..., Any]) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        try:
            result = fn(*args, **kwargs)
        except VoyageError:
            if depth[0] == 1:
                counts["refused"] += 1
            raise
        finally:
            depth[0] -= 1
        if depth[0] == 0:
            counts["valid"] += 1
        return result

    return wrapper


def rules_share() -> dict[str, Counter[str]]:
    """Run the rule property tests, counting outermost calls into voyage/rules/ per test."""
    import test_rules_hypothesis as tests

    per_test: dict[str, Counter[str]] = {}
    counts: Counter[str] = Counter()
    depth = [0]
    saved = []
    for module in MODULES:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__ and not name.startswith("_"):
                saved.append((module, name, fn))
                setattr(module, name, _counting(counts, depth, fn))
    try:
        book = load_rulebook()
        for name, test in inspect.getmembers(tests, inspect.isfunction):
            if name.startswith("test_"):
                test(book) if "book" in inspect.signature(test).parameters else test()
                per_test[name] = Counter(counts)
                counts.clear()
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)
    return per_test


def cli_share() -> dict[str, Counter[str]]:
    """Run the ``voyage roll`` property tests, counting exit statuses per test."""
    import test_cli_roll_hypothesis as tests

    per_test: dict[str, Counter[str]] = {}
    counts: Counter[str] = Counter()
    real = CliRunner.invoke

    def invoke(self: CliRunner, *args: Any, **kwargs: Any) -> Any:
        result = real(self, *args, **kwargs)
        counts["valid" if result.exit_code == 0 else "refused"] += 1
        return result

    CliRunner.invoke = invoke  # type: ignore[method-assign]
    try:
        for name, test in inspect.getmembers(tests, inspect.isfunction):
            if name.startswith("test_"):
                test()
                per_test[name] = Counter(counts)
                counts.clear()
    finally:
        CliRunner.invoke = real  # type: ignore[method-assign]
    return per_test


def main() -> None:
    assert rules  # the package itself is imported for its modules
    for what, tests in (("rules, calls", rules_share()), ("voyage roll, runs", cli_share())):
        for name, counts in tests.items():
            total = counts["valid"] + counts["refused"]
            share = 100.0 * counts["valid"] / total if total else 0.0
            print(
                f"{what}: {name:52} {counts['valid']:5} valid, {counts['refused']:5} "
                f"refused: {share:3.0f}% valid"
            )


if __name__ == "__main__":
    main()
