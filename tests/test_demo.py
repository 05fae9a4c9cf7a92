"""`voyage demo` end to end in a temporary folder: files written, read back, reproducible."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.cli import cli

SEED = 5


def demo(args: list[str], cwd: Path) -> object:
    """``voyage demo ARGS`` run in ``cwd`` with nothing set up (no $VOYAGE_DB)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(
            cli, ["demo", *args], catch_exceptions=False, env={"VOYAGE_DB": None}
        )
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """One demo run with the default folder, shared by the read-back tests."""
    cwd = tmp_path_factory.mktemp("fresh")
    result = demo(["--seed", str(SEED)], cwd)
    return cwd, result


def test_demo_runs_from_nothing_and_writes_its_files(ran: tuple[Path, object]) -> None:
    cwd, result = ran
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    folder = cwd / "voyage-demo"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"demo-seed-{SEED}.db", f"demo-seed-{SEED}.md", f"demo-seed-{SEED}.png"]
    assert sorted(p.name for p in cwd.iterdir()) == ["voyage-demo"]
    out = result.output  # type: ignore[attr-defined]
    assert "Outcome:" in out and "Day 1:" in out and f"demo-seed-{SEED}.md" in out
    # the demo's storm moves (R63: placed by hand, moving) and the day's cells are told
    assert "moving S a hex every 4 hours" in out and "the storm has moved S from" in out


def test_demo_log_reads_back(ran: tuple[Path, object]) -> None:
    from markdown_it import MarkdownIt

    cwd, _ = ran
    text = (cwd / "voyage-demo" / f"demo-seed-{SEED}.md").read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == "h2"
    ]
    assert headings[:2] == ["The ship", "Summary"]
    assert headings[2] == "Day 1" and len(headings) >= 3
    assert f"](demo-seed-{SEED}.png)" in text
    # the players' log: numbered events, told without ruling codes or rolls
    assert "- **(1)** **Day 1, 00:00**" in text
    assert "(R" not in text and "capsize check" not in text and "d20=" not in text
    assert not any(t.type in ("html_block", "html_inline") for t in tokens)


def test_demo_picture_decodes(ran: tuple[Path, object]) -> None:
    from matplotlib.image import imread

    cwd, _ = ran
    image = imread(cwd / "voyage-demo" / f"demo-seed-{SEED}.png")
    assert image.ndim == 3 and image.shape[0] > 300 and image.shape[1] >= 640


def test_the_demo_campaign_plays_on_and_exports_valid_json(ran: tuple[Path, object]) -> None:
    import jsonschema

    from voyage.outputs.exportjson import load_schema

    cwd, _ = ran
    db = cwd / "voyage-demo" / f"demo-seed-{SEED}.db"
    runner = CliRunner()
    shown = runner.invoke(cli, ["ship", "list", "--db", str(db), "--json"])
    assert shown.exit_code == 0, shown.output
    ship = json.loads(shown.output)[0]["name"]
    out = cwd / "log.json"
    result = runner.invoke(
        cli, ["export", ship, "--db", str(db), "-f", "json", "-f", "csv", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    jsonschema.validate(data, load_schema())
    assert data["summary"]["rolls"] > 0 and data["hours"]
    assert len(out.with_suffix(".csv").read_text().splitlines()) == len(data["hours"]) + 1
    out.unlink()
    out.with_suffix(".csv").unlink()


def test_same_seed_same_story_another_seed_another(tmp_path: Path) -> None:
    texts = {}
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        result = demo(["--seed", str(seed), "--out", name], tmp_path)
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
        texts[name] = (tmp_path / name / f"demo-seed-{seed}.md").read_bytes()
        assert (tmp_path / name / f"demo-seed-{seed}.png").is_file()
    assert texts["a"] == texts["b"]
    assert texts["a"] != texts["c"]


def test_running_again_writes_a_new_run_and_never_replaces_one(tmp_path: Path) -> None:
    # the README's demo line works twice in the same folder
    first = demo(["--seed", "2", "--out", "d"], tmp_path)
    assert first.exit_code == 0, first.output  # type: ignore[attr-defined]
    log = tmp_path / "d" / "demo-seed-2.md"
    log.write_text("my notes\n")
    again = demo(["--seed", "2", "--out", "d"], tmp_path)
    assert again.exit_code == 0, again.output  # type: ignore[attr-defined]
    assert "demo-seed-2-run2.md" in again.output  # type: ignore[attr-defined]
    assert log.read_text() == "my notes\n"
    third = demo(["--seed", "2", "--out", "d"], tmp_path)
    assert "demo-seed-2-run3.md" in third.output  # type: ignore[attr-defined]
    run2 = (tmp_path / "d" / "demo-seed-2-run2.md").read_text()
    run3 = (tmp_path / "d" / "demo-seed-2-run3.md").read_text()
    assert run3 == run2.replace("run2", "run3")  # the same story, named after its own file
    other = demo(["--seed", "7", "--out", "d"], tmp_path)
    assert other.exit_code == 0  # another seed sits beside it
    forced = demo(["--seed", "2", "--out", "d", "--force"], tmp_path)
    assert forced.exit_code == 0, forced.output  # type: ignore[attr-defined]
    assert log.read_text().startswith("# Log of the")
    assert len(list((tmp_path / "d").iterdir())) == 12


def test_out_must_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    result = demo(["--out", "afile"], tmp_path)
    assert result.exit_code != 0  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]


def test_demo_help_explains_the_file_names() -> None:
    result = CliRunner().invoke(cli, ["demo", "--help"])
    assert result.exit_code == 0
    assert "demo-seed-N.db" in result.output and "--force" in result.output


def test_what_the_help_says_of_the_default_seed_and_of_seed_2(tmp_path: Path) -> None:
    from voyage.outputs.demo import default_seed, run_demo

    sank = run_demo(tmp_path / "a", default_seed())
    assert sank.summary["outcome"].startswith("sank")
    made_port = run_demo(tmp_path / "b", 2)
    assert made_port.summary["outcome"].startswith("arrived at Ironport")


@pytest.mark.encounters  # as a referee runs it: the encounter checks on (R93)
def test_each_day_is_told_in_time_order_and_never_past_the_clock(tmp_path: Path) -> None:
    """A day's weather and events are told in the order they happened, and weather the clock
    never reached (the rest of the day she sank in) is not told: the default seed's trawler
    sinks at 02:56 on day 2, before that day's 06:00 weather."""
    import re

    from voyage.outputs.demo import default_seed, run_demo

    result = run_demo(tmp_path / "d", default_seed())
    told = [re.match(r"^    Day (\d+), (\d\d):(\d\d) ", line) for line in result.lines]
    times = [tuple(int(g) for g in m.groups()) for m in told if m]
    assert len(times) >= 5
    assert times == sorted(times), result.lines
    assert result.summary["outcome"].startswith("sank in hex 1409 on Day 2, 02:56")
    assert max(times) < (2, 3, 0), result.lines  # the clock stopped at Day 2, 03:00
