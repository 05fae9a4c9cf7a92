"""The hour row of a calm hour (_ShipHour.calm, which fills the row field by field and
passes on the Load it read) is the row the same hour stepped phase by phase makes."""

from __future__ import annotations

from dataclasses import fields

import pytest
from engine_helpers import ship, voyage, world

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine, HourRow, _ShipHour


def _hour(calm: bool, seed: int, progress: int, fuel: int) -> tuple[dict[str, object], int]:
    s = voyage(ship(fuel=fuel), progress=progress)
    engine = Engine(world(), [s], Roller(seed))
    h = _ShipHour(engine, s, 5, [])
    row = h.calm() if calm else h.stepped()
    assert row is not None
    # every field set (getattr raises on one left unset)
    return {f.name: getattr(row, f.name) for f in fields(HourRow)}, s.position


@pytest.mark.parametrize("progress", [0, 11])  # a hex entered (fuel burnt) or none
@pytest.mark.parametrize("fuel", [50, 30])
def test_calm_row_is_the_stepped_row(fuel: int, progress: int) -> None:
    calm, at = _hour(True, 7, progress, fuel)
    stepped, at_too = _hour(False, 7, progress, fuel)
    assert calm == stepped and at == at_too
    assert (at == 1) == bool(progress) and (calm["fuel"] < fuel) == bool(progress)
    assert calm["status"] == "under way" and calm["load_category"]
