"""The figures a grounding works out once per rule book (R34's seabed, R35's
ramming die, R36's Explosion modifiers) are what working them out each time gives, a bad
input is refused every time (never kept), and another book is asked afresh."""

from __future__ import annotations

import dataclasses

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules import aground as ag
from voyage.rules import hull, ramming
from voyage.tables.rulebook import load_rulebook


def test_a_seabeds_terms_are_its_name_modifiers_and_damage():
    book = load_rulebook()
    for seabed in ("sandy", "rocky", "wreckage", "ruins", "Sand", " rocks "):
        for _ in range(2):  # worked out, then kept
            bed, mods, damages = ag._seabed_terms(seabed, book)
            assert bed == ag.seabed_name(seabed, book)
            assert list(mods) == ag._aground_mods(bed, book)
            assert damages == ag.seabed_damages(bed, book)
    for _ in range(2):
        with pytest.raises(VoyageError, match="unknown seabed"):
            ag._seabed_terms("lava", book)
    other = dataclasses.replace(
        book,
        procedures={
            **book.procedures,
            "aground": {
                **book.procedures["aground"],
                "seabed_modifiers": {**book.procedures["aground"]["seabed_modifiers"], "sandy": 1},
            },
        },
    )
    assert [m.value for m in ag._seabed_terms("sandy", other)[1]] == [1]
    assert [m.value for m in ag._seabed_terms("sandy", book)[1]] == [3]


def test_the_ramming_die_and_explosion_modifiers_are_the_plain_ones():
    book = load_rulebook()
    for traits in ([], ["Steady"], ["Ram-bowed"], ["Steady", "Ram-bowed"]):
        for _ in range(2):
            assert ramming._ram_die(traits, book) == ramming.ram_die(traits, book)
    for tier in (1, 4, "IX", 10):
        for modifier in (0, 3, -2):
            for zone in (None, "none", "secondary", "lethal", "Lethal"):
                for _ in range(2):
                    kept = hull._explosion_mods(tier, modifier, zone, book)
                    assert list(kept) == hull.explosion_modifiers(tier, modifier, zone, book)
    for _ in range(2):
        with pytest.raises(VoyageError):
            hull._explosion_mods(4, 1, "nowhere", book)
        with pytest.raises(VoyageError):
            ramming._ram_die(["No Such Trait"], book)


@pytest.mark.parametrize("seabed", ["sandy", "rocky", "wreckage", "ruins"])
def test_a_grounding_rolls_and_says_what_it_did(seabed: str):
    # the same rolls and records, seed by seed, whether the terms were kept or not
    book = load_rulebook()
    for seed in range(40):
        kept, fresh = Roller(seed), Roller(seed)
        a = ag.aground(5, 9, seabed, kept, book, ["Steady"])
        ag._SEABEDS.clear()
        ramming._DICE.clear()
        hull._BLASTS.clear()
        b = ag.aground(5, 9, seabed, fresh, book, ["Steady"])
        assert a.to_dict() == b.to_dict() and a.event().text == b.event().text
        assert kept.get_state() == fresh.get_state()


def test_a_stuck_ships_event_is_her_escape_rolls_event():
    # R34 (R83's modifiers for a boat grounded by depth): the engine's stuck_event is
    # stuck_escape(...).event(), the same roll from the same dice
    from voyage.dice.roller import Modifier

    book = load_rulebook()
    for mods in ((), (Modifier(-2, "depth"),), (Modifier(1, "a"), Modifier(2, "b"))):
        for seed in range(30):
            plain, quick = Roller(seed), Roller(seed)
            result = ag.stuck_escape(plain, book, mods)
            event = ag.stuck_event(quick, book, mods)
            assert event.to_dict() == result.event().to_dict()
            assert event.rolls[0].success == result.freed
            assert plain.get_state() == quick.get_state()
