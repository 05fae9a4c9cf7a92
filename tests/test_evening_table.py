"""What a referee's evening at the table found wrong, each held here: a capsize Check held
by a ship with nobody aboard has no helmsman in it (R41, R70)."""

from __future__ import annotations

from engine_helpers import first_seed, ship, voyage

from voyage.rules.capsize import UPRIGHT, UPRIGHT_UNMANNED


def _upright_texts(crew: int) -> list[str]:
    def make():
        # R37: water over DW/10 means an hourly capsize Check, anchored or not
        return [voyage(ship(cargo=100, water=80, crew=crew), status="anchored")]

    def held(result, _states) -> bool:
        return any(e.event.kind == "capsize" and e.event.rolls[0].success for e in result.events)

    _, result, _ = first_seed(make, held, hours=2, halt=False)
    return [e.event.text for e in result.events if e.event.kind == "capsize"]


def test_a_ship_with_nobody_aboard_rides_out_a_capsize_check_without_a_helmsman() -> None:
    texts = _upright_texts(crew=0)
    assert UPRIGHT_UNMANNED in texts
    assert not any("helmsman" in t for t in texts)


def test_a_crewed_ship_s_helmsman_still_holds_her() -> None:
    assert UPRIGHT in _upright_texts(crew=6)
