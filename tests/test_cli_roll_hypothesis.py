"""`voyage roll` with any valid options gives a result; with a bad value, a clean error.

The valid-input test draws only option values a referee may give for each procedure (so
every run reaches the rules and must exit 0); the bad-input test spoils one value and
expects exit 1 or 2 with an ``Error:`` line and no traceback.
``python bench/hypothesis_share.py`` measures the share of runs that reach the rules.
"""

import json

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.cli import cli

TIERS = st.one_of(
    st.integers(1, 10).map(str),
    st.sampled_from(["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]),
)
LOADS = st.sampled_from(["quarter", "half", "full", "overloaded"])
ZONES = st.sampled_from(["none", "secondary", "lethal"])
TRAITS = st.sampled_from(["Steady", "Nimble", "Fireproof", "Ram-bowed", "Quick", "Quiet"])
REASONS = st.sampled_from(["fog", "a steady hand", "spray"])
CLASS_ROWS = {
    "dinghy": ["tier"],
    "motorboat": ["tier", "engine", "light", "radio"],
    "trawler": ["tier", "engine", "light", "radio", "net"],
    "whaler": ["tier", "engine", "light", "radio", "harpoons"],
    "freighter": ["tier", "engine", "light", "radio"],
    "warship": ["tier", "engine", "light", "heavy-weapon", "radio", "armor"],
}


def _some(draw, option: str, values, most: int = 2) -> list[str]:
    out: list[str] = []
    for value in draw(st.lists(values, max_size=most)):
        out += [option, str(value)]
    return out


@st.composite
def valid_args(draw) -> list[str]:
    """A procedure and options a referee may give it (no campaign ship: --tier etc.)."""
    procedure = draw(
        st.sampled_from(
            [
                "capsize",
                "dodge",
                "hull-hit",
                "ram",
                "aground",
                "fire",
                "sinking",
                "strain",
                "movement",
                "class",
            ]
        )
    )
    args = ["roll", procedure]
    tier = draw(TIERS)
    if procedure == "capsize":
        args += [
            "--tier",
            tier,
            "--load",
            draw(LOADS),
            *_some(draw, "--trait", TRAITS),
            *_some(draw, "--advantage", REASONS),
            *_some(draw, "--disadvantage", REASONS),
        ]
        args += draw(st.sampled_from([[], ["--storm"], ["--advantage-mode", "2d20"]]))
    elif procedure == "dodge":
        args += [
            "--tier",
            tier,
            "--zone",
            draw(ZONES),
            *_some(draw, "--trait", TRAITS),
            *_some(draw, "--advantage", REASONS),
        ]
    elif procedure == "hull-hit":
        args += [
            "--tier",
            tier,
            "--weapon-mod",
            str(draw(st.integers(-5, 10))),
            "--zone",
            draw(ZONES),
            "--load",
            draw(LOADS),
            draw(st.sampled_from(["--explosion", "--no-explosion"])),
        ]
    elif procedure in ("ram", "aground"):
        args += [
            "--tier",
            tier,
            "--speed",
            str(draw(st.integers(0, 30))),
            "--load",
            draw(LOADS),
            *_some(draw, "--trait", TRAITS, 1),
        ]
        if procedure == "aground":
            args += ["--seabed", draw(st.sampled_from(["sandy", "rocky", "wreckage", "ruins"]))]
    elif procedure == "fire":
        number = int(tier) if tier.isdigit() else _roman(tier)
        args += ["--tier", tier, *_some(draw, "--trait", TRAITS, 1)]
        if draw(st.booleans()):
            args += [
                "--minute",
                "--severity",
                str(draw(st.integers(1, number))),
                "--crew",
                str(draw(st.integers(0, 12))),
                draw(st.sampled_from(["--firehose", "--no-firehose"])),
            ]
    elif procedure == "sinking":
        args += [
            "--tier",
            tier,
            "--load",
            draw(LOADS),
            *_some(draw, "--within", st.integers(0, 60), 1),
        ]
    elif procedure == "strain":
        speed = draw(st.integers(2, 30))
        args += [
            "--speed",
            str(speed),
            "--extra",
            str(draw(st.integers(1, speed // 2))),
            "--tier",
            tier,
        ]
    elif procedure == "movement":
        args += [
            "--tier",
            tier,
            *_some(draw, "--advantage", REASONS),
            *_some(draw, "--disadvantage", REASONS),
        ]
    else:
        ship_class = draw(st.sampled_from(sorted(CLASS_ROWS)))
        args += [ship_class, *_some(draw, "--row", st.sampled_from(CLASS_ROWS[ship_class]), 1)]
    return args


def _roman(text: str) -> int:
    return ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"].index(text) + 1


@settings(max_examples=100, deadline=None)
@given(valid_args(), st.booleans(), st.integers(0, 2**31))
def test_valid_rolls_give_a_result(args, as_json, seed):
    args = [*args, "--seed", str(seed), *(["--json"] if as_json else [])]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (args, result.output)
    if as_json:
        data = json.loads(result.output)
        assert data["seed"] == seed and data.get("procedure") in (args[1], None)
    else:
        assert f"--seed {seed}" in result.output


BAD = {
    "--tier": ["0", "11", "XI", "four", ""],
    "--load": ["brimming", ""],
    "--zone": ["primary"],
    "--trait": ["Lucky", ""],
    "--speed": ["-2", "x"],
    "--seabed": ["mud"],
    "--weapon-mod": ["x", "1.5"],
    "--severity": ["0", "x"],
    "--within": ["-1"],
    "--extra": ["0", "x"],
    "--row": ["engines", ""],
}


@settings(max_examples=60, deadline=None)
@given(valid_args(), st.data())
def test_a_bad_value_is_a_clean_error(args, data):
    spoilable = [i for i, a in enumerate(args) if a in BAD and i + 1 < len(args)]
    if not spoilable:
        args = [*args, "--tier", "0"]  # class: a Tier there is unknown
        spoilable = [len(args) - 2]
    at = data.draw(st.sampled_from(spoilable), label="spoiled option")
    args[at + 1] = data.draw(st.sampled_from(BAD[args[at]]), label="bad value")
    result = CliRunner().invoke(cli, [*args, "--seed", "1"])
    assert result.exit_code in (1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and "Error:" in result.output
