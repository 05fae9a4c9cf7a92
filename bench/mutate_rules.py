"""Mutation testing of the rules: does some test fail when a rule number or branch is wrong?

    python bench/mutate_rules.py [--tables] [--rules] [--jobs 2] [--timeout 90] [--only TEXT]
                                 [--list] [--show-equivalent]

Makes one small change at a time (a *mutant*) to a copy of the project and runs the rule
tests against it with ``pytest -x -q``. A mutant is **killed** when a test fails (or the
table loader refuses the change, or the run times out) and **survives** when every test
still passes: a surviving mutant is a rule the tests do not pin.

The changes, one at a time:

- ``tables/*.yaml`` (rule tables; names and options are not rule numbers): every number
  one step up and one step down (whole numbers by 1, fractions such as ``0.25`` by 0.05);
  every dice expression one step (``d6`` -> ``d4``/``d8``, ``3d6`` -> ``2d6``/``4d6``);
  every class-table boundary between two face ranges moved one face either way (R20) and
  every two neighbouring values of a row swapped (R21); every Tier value one Tier up and
  down; every Tier-band boundary moved one Tier either way; every two neighbouring faces of
  the Trait table swapped (R18); every name dropped from a list of names (seabeds, load
  categories, shallow terrains) and the one missing seabed added; ``engine: true/false``
  flipped.
- ``voyage/rules/*.py``: every whole-number literal one up and one down, every comparison
  operator to its neighbour (``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``), every
  ``+`` <-> ``-``.

Mutants listed in :data:`EQUIVALENT` change nothing a rule can show (an unused default, a
guard the table validation already makes) and are reported apart, with the reason. The kill
rate is killed / (mutants - equivalent).

The copy lives in a temporary folder (one per job); the project itself is never written.
Runs take a few minutes on two cores (each mutant costs one pytest start-up, and a survivor
the whole rule-test run).
"""

from __future__ import annotations

import argparse
import ast
import io
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The tests run against a mutant, fastest and most telling first: the pinned rule numbers
#: and exact engine scenarios always, then those of the file changed (:func:`tests_for`).
CORE_TESTS = ["tests/test_rule_numbers.py", "tests/test_engine_exact.py", "tests/test_tables.py"]
RULE_TESTS = [
    "tests/test_rules_aground.py",
    "tests/test_rules_capsize.py",
    "tests/test_rules_fire.py",
    "tests/test_rules_flooding.py",
    "tests/test_rules_hull.py",
    "tests/test_rules_shiptables.py",
    "tests/test_rules_sinking.py",
    "tests/test_rules_strain_dodge_movement.py",
]
ROUTES = {
    "tables/classes.yaml": ["tests/test_rules_shiptables.py", "tests/test_ships.py"],
    "tables/traits.yaml": RULE_TESTS + ["tests/test_ships.py"],
    "tables/tiers.yaml": ["tests/test_ships.py"],
    "tables/load.yaml": RULE_TESTS + ["tests/test_ships.py", "tests/test_engine_rules.py"],
    "tables/procedures.yaml": RULE_TESTS
    + ["tests/test_ships.py", "tests/test_engine_rules.py", "tests/test_anchors.py"],
    # R64 drift and R65 anchors (the calendar branch) have their own tests
    "voyage/rules/drift.py": ["tests/test_currents.py", "tests/test_anchors.py"],
    "voyage/rules/anchors.py": ["tests/test_anchors.py", "tests/test_currents.py"],
    "voyage/rules/": RULE_TESTS
    + ["tests/test_rules_hypothesis.py", "tests/test_ships.py", "tests/test_engine_rules.py"],
}


def tests_for(path: str) -> list[list[str]]:
    """The test files run against a mutant of ``path``, in two stages: the core tests (most
    mutants die there, and cheaply), then the tests of the file changed."""
    extra = next((tests for prefix, tests in ROUTES.items() if path.startswith(prefix)), [])
    core = [t for t in CORE_TESTS if (ROOT / t).exists()]
    return [core, [t for t in dict.fromkeys(extra) if (ROOT / t).exists() and t not in core]]


#: Tables whose numbers are rules (names.yaml is ship names; options.yaml the options'
#: choices, pinned by the options' own tests).
TABLES = ["classes.yaml", "load.yaml", "procedures.yaml", "tiers.yaml", "traits.yaml"]

_EXACT = (
    "equivalent: the flooding thresholds (0.1, 0.25, 0.5) and the Deadweights and water a "
    "ship holds (whole or half hlbs) are exact fractions far inside any such bound"
)
_FLOODING = "voyage/rules/flooding.py: line "

#: Mutants that cannot change what a rule does, and why: a mutant is equivalent when its id
#: (see :attr:`Mutant.id`) starts with one of these (a whole line, or a line and a change).
EQUIVALENT: dict[str, str] = {
    _FLOODING + "`dw = Fraction(deadweight).limit_denominator(10**6)`": _EXACT,
    _FLOODING + "`amount = Fraction(water).limit_denominator(10**6)`": _EXACT,
    _FLOODING + '`CAPSIZE_HOURLY: dw * Fraction(rules["capsize_hourly_above"])'
    ".limit_denominator(1000),`": _EXACT,
    _FLOODING + '`LISTING: dw * Fraction(rules["listing_above"]).limit_denominator(1000),`': _EXACT,
    _FLOODING + '`SINKING: dw * Fraction(rules["sinking_above"]).limit_denominator(1000),`': _EXACT,
    _FLOODING + "`CAPSIZE_HOURLY: dw * Fraction(hourly).limit_denominator(1000),`": _EXACT,
    _FLOODING + "`LISTING: dw * Fraction(listing).limit_denominator(1000),`": _EXACT,
    _FLOODING + "`SINKING: dw * Fraction(sinking).limit_denominator(1000),`": _EXACT,
    _FLOODING + "`@lru_cache(maxsize=4096)`": (
        "equivalent: the size of a cache of states changes how often one is recomputed, "
        "never the state"
    ),
    "voyage/rules/ramming.py: line `return dice[-1] if dice else "
    'str(book.procedures["ram"]["die"])`: 1 -> 0': (
        "equivalent: the first and the last ram die are the same die, as one trait at most "
        "(Ram-bowed, R18) carries one and a ship has each trait once"
    ),
}


def equivalent(mutant: Mutant) -> str | None:
    """Why ``mutant`` cannot change a rule, or None."""
    return next((why for key, why in EQUIVALENT.items() if mutant.id.startswith(key)), None)


ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
DIE_SIDES = [2, 3, 4, 6, 8, 10, 12, 20, 100]


@dataclass(frozen=True)
class Mutant:
    """One change: the file (relative to the project), its new text, and what changed."""

    path: str
    text: str
    line: int
    what: str

    @property
    def id(self) -> str:
        """A stable name: file, the changed line's text (not its number) and the change."""
        return f"{self.path}: {self.what}"


# ----------------------------------------------------------------------------- tables

_NUMBER = re.compile(r"(?<![\w.\-])(-?\d+(?:\.\d+)?)(?![\w.])")
_DICE = re.compile(r"(?<![\w])(\d*)d(\d+)(?![\w])")
_FACES = re.compile(r"^(\s*- \{faces: \[)(\d+), (\d+)(\], value: )(.*?)(\}\s*)$")
_BAND = re.compile(r"^(\s*- \{tiers: \[)(\d+), (\d+)(\], .*)$")
_TRAIT_FACE = re.compile(r"^(\s*- face: )(\d+)\s*$")
_LIST = re.compile(r"^(\s*)(\w+): \[([a-z_, ]+)\](\s*(#.*)?)$")
_BOOL = re.compile(r"^(\s*engine: )(true|false)\s*$")
_ROMAN_VALUE = re.compile(r"value: (X|IX|VIII|VII|VI|V|IV|III|II|I)\}")


def _code_part(line: str) -> str:
    """The line without its comment (YAML comments start at ``#`` after a space)."""
    cut = line.find(" #")
    if line.lstrip().startswith("#"):
        return ""
    return line if cut < 0 else line[:cut]


def _step(token: str, up: bool) -> str:
    if "." in token:
        value = float(token) + (0.05 if up else -0.05)
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    return str(int(token) + (1 if up else -1))


def _number_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        code = _code_part(line)
        if _FACES.match(code) or _BAND.match(code) or _TRAIT_FACE.match(code):
            continue  # face ranges, bands and trait faces are moved as boundaries below
        for m in _NUMBER.finditer(code):
            if code[: m.start()].rstrip().endswith("d") or code[m.end() :].startswith("d"):
                continue  # part of a dice expression
            if re.match(r"^\s*\d+:", code) and m.start() == len(code) - len(code.lstrip()):
                continue  # a key (deadweight's tier): moving it only breaks the table
            for up in (True, False):
                new = _step(m.group(1), up)
                changed = code[: m.start()] + new + code[m.end() :] + line[len(code) :]
                what = f"{code[: m.start()]}[{m.group(1)} -> {new}]{code[m.end() :]}".strip()
                yield _replace(path, lines, i, changed, what)


def _dice_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        code = _code_part(line)
        for m in _DICE.finditer(code):
            count = int(m.group(1) or 1)
            sides = int(m.group(2))
            options = []
            at = DIE_SIDES.index(sides) if sides in DIE_SIDES else -1
            if at > 0:
                options.append(f"{m.group(1)}d{DIE_SIDES[at - 1]}")
            if 0 <= at < len(DIE_SIDES) - 1:
                options.append(f"{m.group(1)}d{DIE_SIDES[at + 1]}")
            options.append(f"{count + 1}d{sides}")
            if count > 1:
                options.append(f"{count - 1}d{sides}" if count > 2 else f"d{sides}")
            for new in options:
                changed = code[: m.start()] + new + code[m.end() :] + line[len(code) :]
                what = f"{code[: m.start()]}[{m.group(0)} -> {new}]{code[m.end() :]}".strip()
                yield _replace(path, lines, i, changed, what)


def _replace(path: str, lines: list[str], i: int, new_line: str, what: str) -> Mutant:
    out = list(lines)
    out[i] = new_line
    return Mutant(path, "".join(out), i + 1, what)


def _runs(lines: list[str], pattern: re.Pattern[str]) -> Iterator[list[int]]:
    """Runs of consecutive lines matching ``pattern`` (one class-table row, one band list)."""
    run: list[int] = []
    for i, line in enumerate(lines):
        if pattern.match(line.rstrip("\n")):
            run.append(i)
        else:
            if len(run) > 1:
                yield run
            run = []
    if len(run) > 1:
        yield run


def _boundary_mutants(path: str, lines: list[str], pattern: re.Pattern[str]) -> Iterator[Mutant]:
    """R20 face ranges / R13-R16 Tier bands: move each boundary one step either way."""
    for run in _runs(lines, pattern):
        for a, b in zip(run, run[1:], strict=False):
            ma = pattern.match(lines[a].rstrip("\n"))
            mb = pattern.match(lines[b].rstrip("\n"))
            assert ma and mb
            a_first, a_last = int(ma.group(2)), int(ma.group(3))
            b_first, b_last = int(mb.group(2)), int(mb.group(3))
            for shift in (1, -1):
                new_a_last, new_b_first = a_last + shift, b_first + shift
                if new_a_last < a_first or new_b_first > b_last:
                    continue
                out = list(lines)
                out[a] = _with_range(ma, a_first, new_a_last)
                out[b] = _with_range(mb, new_b_first, b_last)
                what = (
                    f"{lines[a].strip()} / {lines[b].strip()}: boundary "
                    f"{a_last}|{b_first} -> {new_a_last}|{new_b_first}"
                )
                yield Mutant(path, "".join(out), a + 1, what)


def _with_range(m: re.Match[str], first: int, last: int) -> str:
    return f"{m.group(1)}{first}, {last}{''.join(g or '' for g in m.groups()[3:])}\n"


def _swap_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    """R21: two neighbouring values of a class-table row swapped."""
    for run in _runs(lines, _FACES):
        for a, b in zip(run, run[1:], strict=False):
            ma = _FACES.match(lines[a].rstrip("\n"))
            mb = _FACES.match(lines[b].rstrip("\n"))
            assert ma and mb
            if ma.group(5) == mb.group(5):
                continue
            out = list(lines)
            out[a] = lines[a].replace(f"value: {ma.group(5)}}}", f"value: {mb.group(5)}}}")
            out[b] = lines[b].replace(f"value: {mb.group(5)}}}", f"value: {ma.group(5)}}}")
            what = f"{lines[a].strip()} / {lines[b].strip()}: values swapped"
            yield Mutant(path, "".join(out), a + 1, what)


def _roman_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    """R21: a Tier or engine value one Tier up or down."""
    for i, line in enumerate(lines):
        m = _ROMAN_VALUE.search(line)
        if not m:
            continue
        at = ROMAN.index(m.group(1))
        for new_at in (at - 1, at + 1):
            if 0 <= new_at < len(ROMAN):
                new = line[: m.start(1)] + ROMAN[new_at] + line[m.end(1) :]
                yield _replace(path, lines, i, new, f"{line.strip()} -> {ROMAN[new_at]}")


def _trait_face_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    """R18: two neighbouring faces of the Trait table swapped."""
    found = [(i, _TRAIT_FACE.match(line.rstrip("\n"))) for i, line in enumerate(lines)]
    faces = [(i, m) for i, m in found if m]
    for (a, ma), (b, mb) in zip(faces, faces[1:], strict=False):
        out = list(lines)
        out[a] = f"{ma.group(1)}{mb.group(2)}\n"
        out[b] = f"{mb.group(1)}{ma.group(2)}\n"
        names = [lines[a + 1].strip(), lines[b + 1].strip()]
        yield Mutant(path, "".join(out), a + 1, f"trait faces swapped: {names[0]} / {names[1]}")


#: Names a list of names in procedures.yaml may be missing (R33 seabeds).
LIST_ADDITIONS = {"damaging_seabeds": ["sandy"], "slow_load_categories": ["full"]}


def _list_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        m = _LIST.match(line.rstrip("\n"))
        if not m:
            continue
        items = [x.strip() for x in m.group(3).split(",")]
        variants = [[x for x in items if x != drop] for drop in items]
        variants += [[*items, extra] for extra in LIST_ADDITIONS.get(m.group(2), [])]
        for new_items in variants:
            new = f"{m.group(1)}{m.group(2)}: [{', '.join(new_items)}]{m.group(4) or ''}\n"
            yield _replace(path, lines, i, new, f"{m.group(2)}: [{', '.join(new_items)}]")


def _bool_mutants(path: str, lines: list[str]) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        m = _BOOL.match(line.rstrip("\n"))
        if m:
            flipped = "false" if m.group(2) == "true" else "true"
            where = next(
                (
                    lines[j].strip()
                    for j in range(i, -1, -1)
                    if lines[j].startswith("  ") and not lines[j].startswith("    ")
                ),
                "",
            )
            yield _replace(path, lines, i, f"{m.group(1)}{flipped}\n", f"{where} engine: {flipped}")


def _yaml_path(lines: list[str], i: int) -> str:
    """The keys leading to line ``i`` (``trawler.rows.tier``), found by indentation."""
    keys: list[str] = []
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        code = _code_part(lines[j]).rstrip()
        if not code.strip():
            continue
        here = len(code) - len(code.lstrip())
        m = re.match(r"^\s*([\w-]+):\s*$", code)
        if here < indent and m:
            keys.append(m.group(1))
            indent = here
    return ".".join(reversed(keys))


def _unique(mutants: Iterator[Mutant]) -> Iterator[Mutant]:
    """Number repeated ids (two identical lines) so that every id names one mutant."""
    seen: set[str] = set()
    for mutant in mutants:
        what, n = mutant.what, 2
        while what in seen:
            what = f"{mutant.what} #{n}"
            n += 1
        seen.add(what)
        yield Mutant(mutant.path, mutant.text, mutant.line, what)


def table_mutants() -> Iterator[Mutant]:
    """Every mutant of the rule tables."""
    for name in TABLES:
        path = f"tables/{name}"
        lines = (ROOT / path).read_text().splitlines(keepends=True)
        found = [
            *_number_mutants(path, lines),
            *_dice_mutants(path, lines),
            *_boundary_mutants(path, lines, _FACES),
            *_boundary_mutants(path, lines, _BAND),
            *_swap_mutants(path, lines),
            *_roman_mutants(path, lines),
            *_trait_face_mutants(path, lines),
            *_list_mutants(path, lines),
            *_bool_mutants(path, lines),
        ]
        named = (
            Mutant(m.path, m.text, m.line, f"{_yaml_path(lines, m.line - 1)} {m.what}".strip())
            for m in found
        )
        yield from _unique(named)


# ----------------------------------------------------------------------------- rules/*.py

_SWAP_OPS = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
}


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _op_position(text: str, starts: list[int], left: ast.expr, right: ast.expr, op: str) -> int:
    """Where the operator ``op`` stands between ``left`` and ``right`` (via the tokenizer)."""
    begin = starts[left.end_lineno - 1] + left.end_col_offset  # type: ignore[operator]
    end = starts[right.lineno - 1] + right.col_offset
    gap = text[begin:end]
    for tok in tokenize.generate_tokens(io.StringIO(gap).readline):
        if tok.type == tokenize.OP and tok.string == op:
            return begin + tok.start[1]  # the gap never spans lines in these modules
    return -1


def python_mutants(path: str) -> Iterator[Mutant]:
    """Every literal, comparison and +/- mutant of one module."""
    text = (ROOT / path).read_text()
    tree = ast.parse(text)
    starts = _offsets(text)
    docs = _docstring_nodes(tree)
    lines = text.splitlines()

    def make(at: int, old: str, new: str, lineno: int) -> Mutant:
        changed = text[:at] + new + text[at + len(old) :]
        what = f"line `{lines[lineno - 1].strip()}`: {old} -> {new}"
        return Mutant(path, changed, lineno, what)

    out: list[Mutant] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docs:
            value = node.value
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            at = starts[node.lineno - 1] + node.col_offset
            old = text[at : starts[node.end_lineno - 1] + node.end_col_offset]  # type: ignore[operator]
            for new in (str(value + 1), str(value - 1)):
                out.append(make(at, old, new, node.lineno))
        elif isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                pair = _SWAP_OPS.get(type(op))
                if pair:
                    at = _op_position(text, starts, left, right, pair[0])
                    if at >= 0:
                        out.append(make(at, pair[0], pair[1], node.lineno))
                left = right
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            old, new = ("+", "-") if isinstance(node.op, ast.Add) else ("-", "+")
            at = _op_position(text, starts, node.left, node.right, old)
            if at >= 0:
                out.append(make(at, old, new, node.lineno))
    yield from _unique(iter(sorted(out, key=lambda m: (m.line, m.what))))


def rules_mutants() -> Iterator[Mutant]:
    """Every mutant of voyage/rules/*.py."""
    for file in sorted((ROOT / "voyage" / "rules").glob("*.py")):
        yield from python_mutants(str(file.relative_to(ROOT)))


# ----------------------------------------------------------------------------- running


def make_copy(folder: Path) -> Path:
    """A copy of what the tests need: the package, its tables and campaigns, the tests."""
    copy = folder / "project"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
    for part in ("voyage", "tables", "campaigns", "tests"):
        shutil.copytree(ROOT / part, copy / part, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    return copy


def run_tests(copy: Path, timeout: float, tests: list[str]) -> tuple[str, float]:
    """Run the rule tests in ``copy``: 'passed', 'failed' or 'timeout', and the seconds."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)  # the copy's voyage wins over the editable install
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a stale .pyc must never hide a mutant
    env["CI"] = "1"  # hypothesis derandomized: the same verdict every run
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    began = time.perf_counter()
    try:
        done = subprocess.run(
            cmd, cwd=copy, env=env, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - began
    verdict = "passed" if done.returncode == 0 else "failed"
    return verdict, time.perf_counter() - began


def try_mutant(mutant: Mutant, copies: queue.Queue[Path], timeout: float) -> str:
    """Apply ``mutant`` in a free copy, run its tests, restore the file: the verdict."""
    copy = copies.get()
    target = copy / mutant.path
    original = target.read_text()
    try:
        target.write_text(mutant.text)
        verdict = "passed"
        for stage in tests_for(mutant.path):
            if stage and verdict == "passed":
                verdict, _ = run_tests(copy, timeout, stage)
    finally:
        target.write_text(original)
        copies.put(copy)
    return "survived" if verdict == "passed" else "killed"


def main(argv: list[str] | None = None) -> int:
    """Run the mutants and print killed / survived, then the kill rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", action="store_true", help="mutate tables/*.yaml")
    parser.add_argument("--rules", action="store_true", help="mutate voyage/rules/*.py")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="only mutants whose id contains this (repeatable: any of them)",
    )
    parser.add_argument(
        "--rerun",
        metavar="FILE",
        default=None,
        help="only the mutants a previous run's output lists as SURVIVED",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--show-equivalent", action="store_true")
    args = parser.parse_args(argv)
    both = not args.tables and not args.rules
    mutants: list[Mutant] = []
    if args.tables or both:
        mutants += list(table_mutants())
    if args.rules or both:
        mutants += list(rules_mutants())
    if args.only:
        mutants = [m for m in mutants if any(text in m.id for text in args.only)]
    if args.rerun:
        again = set(
            re.findall(r"^SURVIVED (\S+?):\d+: (.*)$", Path(args.rerun).read_text(), re.MULTILINE)
        )
        mutants = [m for m in mutants if (m.path, m.what) in again]
    if args.list:
        for m in mutants:
            print(m.id)
        print(f"{len(mutants)} mutants")
        return 0
    every_test = list(dict.fromkeys(t for m in mutants for st in tests_for(m.path) for t in st))
    with tempfile.TemporaryDirectory(prefix="voyage-mutants-") as tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for n in range(max(1, args.jobs)):
            copies.put(make_copy(Path(tmp) / str(n)))
        first = copies.get()
        verdict, seconds = run_tests(first, args.timeout, every_test)
        copies.put(first)
        if verdict != "passed":
            print(f"the rule tests do not pass on the unchanged project ({verdict})")
            return 2
        print(f"{len(mutants)} mutants; the unchanged rule tests take {seconds:.1f} s", flush=True)
        began = time.perf_counter()
        results: dict[str, str] = {}
        pool = ThreadPoolExecutor(max_workers=max(1, args.jobs))
        futures = {pool.submit(try_mutant, m, copies, args.timeout): m for m in mutants}
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                mutant = futures[future]
                verdict = future.result()
                if equivalent(mutant):
                    verdict = "equivalent" if verdict == "survived" else verdict
                results[mutant.id] = verdict
                if verdict == "survived":
                    print(f"SURVIVED {mutant.path}:{mutant.line}: {mutant.what}", flush=True)
                if done % 50 == 0:
                    print(f"... {done}/{len(mutants)} mutants run", flush=True)
        finally:
            # on Ctrl-C or SIGTERM: drop the mutants not started, wait for the running ones
            pool.shutdown(wait=True, cancel_futures=True)
    killed = sum(v == "killed" for v in results.values())
    equivalent_ids = [k for k, v in results.items() if v == "equivalent"]
    counted = len(results) - len(equivalent_ids)
    for kind, prefix in (("tables", "tables/"), ("rules/", "voyage/rules/")):
        mine = {k: v for k, v in results.items() if k.startswith(prefix)}
        if mine:
            k = sum(v == "killed" for v in mine.values())
            e = sum(v == "equivalent" for v in mine.values())
            print(f"{kind}: {k} killed of {len(mine) - e} ({e} equivalent)")
    if args.show_equivalent:
        why = {m.id: equivalent(m) for m in mutants}
        for key in equivalent_ids:
            print(f"EQUIVALENT {key}: {why[key]}")
    rate = 100.0 * killed / counted if counted else 100.0
    elapsed = time.perf_counter() - began
    print(
        f"kill rate {rate:.1f}% ({killed}/{counted}; {len(equivalent_ids)} equivalent) "
        f"in {elapsed:.0f} s"
    )
    return 0 if killed == counted else 1


if __name__ == "__main__":
    # a SIGTERM unwinds like Ctrl-C, so the temporary copies are removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
