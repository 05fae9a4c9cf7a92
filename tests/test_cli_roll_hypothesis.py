"""Any options to `voyage roll` give a result or a one-line error, never a traceback."""

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.cli import cli

PROCEDURES = {
    "capsize": ["--tier", "--load", "--trait", "--advantage", "--disadvantage"],
    "dodge": ["--tier", "--zone", "--trait", "--advantage"],
    "hull-hit": ["--tier", "--weapon-mod", "--zone", "--load"],
    "ram": ["--tier", "--speed", "--trait"],
    "aground": ["--tier", "--speed", "--seabed"],
    "fire": ["--tier", "--severity", "--crew", "--trait"],
    "sinking": ["--tier", "--load", "--within"],
    "strain": ["--extra", "--speed", "--tier"],
    "movement": ["--tier", "--advantage"],
    "class": ["--row"],
}
VALUES = st.sampled_from(
    [
        "0",
        "1",
        "3",
        "IV",
        "10",
        "11",
        "-2",
        "half",
        "overloaded",
        "lethal",
        "secondary",
        "rocky",
        "sandy",
        "Steady",
        "Nimble",
        "Fireproof",
        "Lucky",
        "engine",
        "x",
        "",
    ]
)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(sorted(PROCEDURES)),
    st.data(),
    st.booleans(),
    st.integers(0, 2**31),
)
def test_roll_never_tracebacks(procedure, data, as_json, seed):
    options = PROCEDURES[procedure]
    args = ["roll", procedure, "--seed", str(seed)]
    if procedure == "fire" and data.draw(st.booleans()):
        args.append("--minute")
    for option in data.draw(st.lists(st.sampled_from(options), max_size=4)):
        args += [option, data.draw(VALUES)]
    if as_json:
        args.append("--json")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
