"""`voyage roll PROCEDURE`: roll one ship procedure at the table, with its exact odds.

Each command prints the chance of success before the dice fall, the roll line (R4) and what
the result means in the rules' words. Figures are stated as options (`--tier 4 --load half`)
or taken from a ship of the campaign (`voyage roll capsize "Sea Witch"`); stated options win
over the ship's own figures.

Without a ship the roll uses ``--seed N`` (or a fresh seed, printed so the roll can be
repeated) and touches no campaign. With a ship it uses the campaign's dice: the rolls are
kept in the campaign's log and the dice move on, as one undoable action (R4, R5). Nothing
about the ship changes unless ``--apply`` is given: then the result is carried into the
ship's voyage as the engine would carry it (voyage/apply.py) and logged as voyage events,
in the same action, so ``voyage undo`` takes back the roll and its effect together.

Only click and the standard library are imported here at module level; the core loads when
a command runs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from voyage.cli.common import AMOUNT, KNOTS, MODIFIER, NOTE, Choice, Whole, emit_json
from voyage.cli.roll_table import (
    SEABEDS,
    _apply_option,
    _chance,
    _check_options,
    _errors,
    _load_option,
    _report,
    _seed_options,
    _ship_argument,
    _situational,
    _Table,
    _then_sinking,
    _tier_option,
    _trait_option,
    _zone_option,
)

# ----------------------------------------------------------------------------- commands


@click.group()
def roll() -> None:
    """Roll a ship procedure at the table, with its exact odds first.

    Give the figures as options, or name a ship of the campaign to use its own.

    With a ship at sea, --apply (capsize, hull-hit, ram, aground, escape, fire, strain,
    sinking) carries the result into her voyage as `voyage advance` would: a leak floods
    from the next hour, a fire burns minute by minute, a sinking ship counts down. It is
    logged on her voyage and undone with the roll. A ship in port is refused: sail first.

    Examples:

        voyage roll capsize --tier 4 --load half --steady --seed 7

        voyage roll hull-hit "Sea Witch" --weapon-mod 2 --apply
    """


@roll.command("capsize")
@_ship_argument
@_tier_option
@_load_option
@_trait_option
@click.option("--steady", is_flag=True, help="The ship is Steady: one more Advantage (R18).")
@_situational
@click.option("--storm", is_flag=True, help="The check is for storm-tossed seas (R32).")
@click.option(
    "--sea",
    type=Choice(["stormy", "major", "hurricane"]),
    default=None,
    help="The sea state of a storm Check (R60): major storm one Disadvantage, hurricane "
    "two (implies --storm). A SHIP with --storm alone takes her hex's sea now.",
)
@click.option(
    "--reason",
    type=Choice(["overloaded", "flooding", "listing", "storm"]),
    default=None,
    help="Why the ship may capsize (shown in the log).",
)
@_check_options
@_apply_option("a capsized ship begins sinking, her 3d6 + Tier minutes counting down")
@_seed_options
def capsize(
    ship: str | None,
    tier: str | None,
    load_name: str | None,
    traits: tuple[str, ...],
    steady: bool,
    advantages: tuple[str, ...],
    disadvantages: tuple[str, ...],
    storm: bool,
    sea: str | None,
    reason: str | None,
    natural_rolls: bool | None,
    advantage_mode: str | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """The helmsman's capsize Check (R41): DV 16, + Tier, + the Load's modifier.

    On a failure the ship capsizes and begins sinking, and the time it takes is rolled
    (R40). With --apply the SHIP at sea capsizes and starts sinking on her voyage: the next
    `voyage advance` counts the minutes down.

    A built boat (R85): her water counts in spaces, not by R37 (no flooding or listing
    trigger; her level is noted), and with a Weighted Keel a capsize is righted at the
    next minute instead of sinking her.

    In a storm (R60) the sea state counts: `--sea major` is one Disadvantage, `--sea
    hurricane` two; a SHIP with `--storm` alone takes the sea of her hex now (a port is
    sheltered: then R32 as written): `voyage roll capsize --tier 4 --load half --sea
    hurricane`.

    Example:

        voyage roll capsize --tier 4 --load half --steady --seed 7
    """
    with _errors():
        from voyage.rules.capsize import capsize_check, capsize_odds, capsize_triggers

        table = _Table(
            db_path, ship, seed, natural_rolls, advantage_mode, "capsize" if apply_ else None
        )
        t, load = table.tier(tier), table.load(load_name)
        names = table.traits(traits, (steady, "Steady"))
        from voyage.rules.boatwater import table_capsize, table_water_notes

        state = _storm_sea(table, sea, storm or reason == "storm")  # R60
        why = "storm" if storm or state else reason
        if state is not None:
            why, banes, _ = state.terms("")
            disadvantages = (*banes, *disadvantages)
        water, deadweight = table.water_and_deadweight(t)
        built = table.ship is not None and table.ship.design is not None
        if built:
            water = 0  # R85: a built boat's water counts in spaces, not by R37
        triggers = capsize_triggers(load, water, deadweight, table.book, storm, state)
        p = capsize_odds(t, load, table.book, names, advantages, disadvantages, table.options)
        with table.rolling("capsize") as roller:
            first = capsize_check(
                t, load, roller, table.book, names, advantages, disadvantages, why
            )
            keeled = table_capsize(table.ship, first) if built else None  # R85
            results = keeled or _then_sinking(table, roller, t, load, first)
            table.carry(results)
        inputs = {
            "tier": t,
            "load": load,
            "traits": names,
            "advantages": list(advantages),
            "disadvantages": list(disadvantages),
            "reason": why,
        }
        notes = tuple(f"may capsize: {trigger.text} ({trigger.ruling})" for trigger in triggers)
        notes += table_water_notes(table.ship, table.book) if built else ()
        _report(
            table,
            "capsize",
            inputs,
            [_chance("the ship stays upright", p)],
            results,
            as_json,
            notes,
            {
                "triggers": [
                    {
                        "reason": tr.reason,
                        "text": tr.text,
                        "ruling": tr.ruling,
                        "every_minutes": tr.every_minutes,
                        "per_hex": tr.per_hex,
                    }
                    for tr in triggers
                ]
            },
        )


def _storm_sea(table: Any, sea: str | None, storm: bool) -> Any:
    """R60: the sea state of a storm capsize Check at the table (its Disadvantages and
    same-hex interval): ``--sea``, else a named SHIP's hex now when ``--storm`` is asked;
    None for R32 as written (no storm, calm seas or a sheltering port)."""
    from voyage.rules.capsize import sea_state_rules
    from voyage.tables.world import SEA_STATES

    rules = sea_state_rules(table.book)
    if sea is not None:
        return rules[SEA_STATES.index(sea)]
    if not storm or table.camp is None or not table.ship.hex:
        return None
    from voyage.store.mapstore import sea_states_for

    level = sea_states_for(table.camp).for_ship(table.ship.hex, table.camp.clock)
    return rules[level] if level else None


@roll.command("dodge")
@_ship_argument
@_tier_option
@_trait_option
@click.option("--nimble", is_flag=True, help="The ship is Nimble: +1 (R18).")
@_situational
@_zone_option("none", "none, secondary (-1) or lethal (-2)")
@_seed_options
def dodge(
    ship: str | None,
    tier: str | None,
    traits: tuple[str, ...],
    nimble: bool,
    advantages: tuple[str, ...],
    disadvantages: tuple[str, ...],
    zone: str,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Dodge an imminent Explosion (R51): d12 +1 per advantage, -1 per disadvantage, the
    zone; meet the ship's Tier.

    Example:

        voyage roll dodge --tier 6 --zone lethal --advantage "fog bank" --seed 3
    """
    with _errors():
        from voyage.rules.dodge import dodge as dodge_roll
        from voyage.rules.dodge import dodge_odds

        table = _Table(db_path, ship, seed)
        t = table.tier(tier)
        names = table.traits(traits, (nimble, "Nimble"))
        p = dodge_odds(t, table.book, names, advantages, disadvantages, zone)
        with table.rolling("dodge") as roller:
            result = dodge_roll(t, roller, table.book, names, advantages, disadvantages, zone)
        inputs = {
            "tier": t,
            "traits": names,
            "advantages": list(advantages),
            "disadvantages": list(disadvantages),
            "zone": zone,
        }
        _report(table, "dodge", inputs, [_chance("the attack is dodged", p)], [result], as_json)


@roll.command("hull-hit")
@_ship_argument
@_tier_option
@click.option(
    "--weapon-mod",
    type=MODIFIER,
    default=0,
    show_default=True,
    help="The weapon's modifier (-99 to 99).",
)
@click.option(
    "--explosion/--no-explosion",
    default=False,
    show_default=True,
    help="The hit is an Explosion: also roll d20 to see if the ship is destroyed.",
)
@_zone_option("none", "none, secondary (+2) or lethal (+5)")
@_load_option
@_apply_option("the leak is added to her leaks; a destroyed ship begins sinking")
@_seed_options
def hull_hit(
    ship: str | None,
    tier: str | None,
    weapon_mod: int,
    explosion: bool,
    zone: str,
    load_name: str | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """The hull is Harmed (R36): d6 + the weapon's modifier in hlbs of water an hour; with
    --explosion also d20 + modifier + zone - Tier, destroyed on 20+.

    A destroyed ship begins sinking; with --load (or a SHIP) its time is rolled (R40).
    With --apply the SHIP at sea takes the leak (water comes in from the next hour of
    `voyage advance`) and, destroyed, starts sinking.

    Example:

        voyage roll hull-hit --tier 5 --weapon-mod 3 --explosion --zone secondary --seed 1
    """
    with _errors():
        from voyage.rules.hull import explosion_odds, leak_distribution
        from voyage.rules.hull import hull_hit as hit

        table = _Table(db_path, ship, seed, apply="hull-hit" if apply_ else None)
        t = table.tier(tier)
        load = table.maybe_load(load_name)
        leaks = leak_distribution(weapon_mod, table.book)
        low, high = min(leaks), max(leaks)
        chances = [
            _chance(
                f"the hull leaks ({low}-{high} hlbs an hour)",
                sum((p for n, p in leaks.items() if n > 0), Fraction(0)),
            )
        ]
        if explosion:
            chances.insert(
                0,
                _chance(
                    "the ship survives the Explosion",
                    explosion_odds(t, weapon_mod, zone, table.book),
                ),
            )
        with table.rolling("hull hit") as roller:
            first = hit(t, weapon_mod, roller, table.book, explosion, zone)
            results = _then_sinking(table, roller, t, load, first)
            table.carry(results)
        inputs = {
            "tier": t,
            "weapon_mod": weapon_mod,
            "explosion": explosion,
            "zone": zone,
            "load": load,
        }
        _report(table, "hull-hit", inputs, chances, results, as_json)


@roll.command("ram")
@_ship_argument
@_tier_option
@click.option(
    "--speed",
    type=KNOTS,
    default=None,
    help="Speed relative to what is rammed, knots (else the SHIP's speed).",
)
@_trait_option
@click.option("--ram-bowed", is_flag=True, help="The ship is Ram-bowed: d20 instead of d12.")
@click.option(
    "--target",
    "what",
    type=NOTE,
    default="the obstacle",
    show_default=True,
    help="What the ship rams (for the log).",
)
@_load_option
@_apply_option("a leak from the hit; a destroyed ship begins sinking")
@_seed_options
def ram(
    ship: str | None,
    tier: str | None,
    speed: int | None,
    traits: tuple[str, ...],
    ram_bowed: bool,
    what: str,
    load_name: str | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Ram something (R35): d12 (d20 if Ram-bowed) over the relative speed avoids damage;
    else an Explosion hits the ship with the margin as its modifier, lethal zone (R36).

    With --apply the SHIP at sea takes the hit's leak and, destroyed, starts sinking.

    Example:

        voyage roll ram --tier 4 --speed 7 --seed 2
    """
    with _errors():
        from voyage.rules.ramming import ram as ram_roll
        from voyage.rules.ramming import ram_odds

        table = _Table(db_path, ship, seed, apply="ram" if apply_ else None)
        t = table.tier(tier)
        s = table.speed(speed)
        names = table.traits(traits, (ram_bowed, "Ram-bowed"))
        load = table.maybe_load(load_name)
        p = ram_odds(s, table.book, names)
        with table.rolling("ram") as roller:
            first = ram_roll(t, s, roller, table.book, names, what)
            results = _then_sinking(table, roller, t, load, first)
            table.carry(results)
        inputs = {"tier": t, "speed": s, "traits": names, "target": what, "load": load}
        _report(table, "ram", inputs, [_chance("the ship takes no damage", p)], results, as_json)


@roll.command("aground")
@_ship_argument
@_tier_option
@click.option(
    "--speed",
    type=KNOTS,
    default=None,
    help="Travelling speed in knots (else the SHIP's).",
)
@click.option(
    "--seabed",
    type=Choice(SEABEDS, case_sensitive=False),
    required=True,
    help="The seabed: sandy (+3), rocky, wreckage or ruins (+5).",
)
@_trait_option
@click.option("--ram-bowed", is_flag=True, help="The ship is Ram-bowed (if it rams).")
@_load_option
@_apply_option("stuck fast, and the ramming's leak or destruction")
@_seed_options
def aground(
    ship: str | None,
    tier: str | None,
    speed: int | None,
    seabed: str,
    traits: tuple[str, ...],
    ram_bowed: bool,
    load_name: str | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Run aground (R34): d12 + the seabed's modifier under the travelling speed avoids
    getting stuck; on rocks or wreckage the ship also rams the obstacle (R35).

    With --apply the SHIP (under way or at anchor) is stuck on her voyage and tries to get
    off each hour of `voyage advance`; the ramming's damage is applied too.

    Example:

        voyage roll aground --tier 3 --speed 6 --seabed rocky --seed 4
    """
    with _errors():
        from voyage.rules.aground import aground as aground_roll
        from voyage.rules.aground import aground_odds, seabed_damages
        from voyage.rules.ramming import ram_odds

        table = _Table(db_path, ship, seed, apply="aground" if apply_ else None)
        t = table.tier(tier)
        s = table.speed(speed)
        names = table.traits(traits, (ram_bowed, "Ram-bowed"))
        load = table.maybe_load(load_name)
        chances = [_chance("the ship does not get stuck", aground_odds(s, seabed, table.book))]
        if seabed_damages(seabed, table.book):
            chances.append(
                _chance("it rams the seabed without damage", ram_odds(s, table.book, names))
            )
        with table.rolling("aground") as roller:
            first = aground_roll(t, s, seabed, roller, table.book, names)
            results = _then_sinking(table, roller, t, load, first)
            table.carry(results)
        inputs = {"tier": t, "speed": s, "seabed": seabed, "traits": names, "load": load}
        _report(table, "aground", inputs, chances, results, as_json)


@roll.command("escape")
@_ship_argument
@_apply_option("a stuck ship that gets off is under way again")
@_seed_options
def escape(ship: str | None, apply_: bool, seed: int | None, db_path: str, as_json: bool) -> None:
    """A stuck ship's hourly try to get off (R34): 2d6 >= 8.

    With --apply the stuck SHIP is afloat again on a success.

    Example:

        voyage roll escape --seed 5
    """
    with _errors():
        from voyage.rules.aground import stuck_escape, stuck_escape_odds

        table = _Table(db_path, ship, seed, apply="escape" if apply_ else None)
        p = stuck_escape_odds(table.book)
        with table.rolling("escape") as roller:
            result = stuck_escape(roller, table.book)
            table.carry([result])
        _report(table, "escape", {}, [_chance("the ship gets off", p)], [result], as_json)


@roll.command("hazard")
@_ship_argument
@_seed_options
def hazard(ship: str | None, seed: int | None, db_path: str, as_json: bool) -> None:
    """A hex travelled within a mile of a coastline (R33): an underwater hazard on a 1-in-6.

    Example:

        voyage roll hazard --seed 6
    """
    with _errors():
        from voyage.rules.aground import coast_hazard, coast_hazard_odds

        table = _Table(db_path, ship, seed)
        p = coast_hazard_odds(table.book)
        with table.rolling("hazard") as roller:
            result = coast_hazard(roller, table.book)
        _report(table, "hazard", {}, [_chance("the shallows are clear", 1 - p)], [result], as_json)


@roll.command("fire")
@_ship_argument
@_tier_option
@_trait_option
@click.option("--fireproof", is_flag=True, help="The ship is Fireproof (R18).")
@click.option(
    "--minute", is_flag=True, help="Roll one minute of a burning fire instead of a new fire."
)
@click.option(
    "--severity",
    type=Whole(1, 99),
    default=None,
    help="The fire's severity now (with --minute).",
)
@click.option(
    "--crew",
    type=AMOUNT,
    default=None,
    help="Crew fighting the fire (with --minute; else the SHIP's crew).",
)
@click.option(
    "--firehose/--no-firehose",
    default=None,
    help="A firehose counts as one crew (else the SHIP's equipment).",
)
@_apply_option("a new fire starts burning; --minute updates the burning fire's severity")
@_seed_options
def fire(
    ship: str | None,
    tier: str | None,
    traits: tuple[str, ...],
    fireproof: bool,
    minute: bool,
    severity: int | None,
    crew: int | None,
    firehose: bool | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """A fire (R50): a new fire's severity (d4, Fireproof -2), or with --minute one minute
    of burning: spread on a 2-in-6, then the crew's 4-in-6 if there are enough of them.

    With --apply a new fire burns aboard the SHIP at sea from the next minute of
    `voyage advance`; with --minute --apply the SHIP's own fire burns a minute (its
    severity and fire-fighting crew are the defaults) and its severity is updated.

    Example:

        voyage roll fire --tier 3 --minute --severity 2 --crew 3 --seed 8
    """
    with _errors():
        from voyage.rules.fire import fire_minute, fire_minute_odds, fire_start, fire_start_odds

        procedure = "fire minute" if minute else "fire"
        table = _Table(db_path, ship, seed, apply=procedure if apply_ else None)
        t = table.tier(tier)
        names = table.traits(traits, (fireproof, "Fireproof"))
        if not minute:
            if severity is not None or crew is not None:
                raise click.UsageError("--severity and --crew go with --minute")
            found = fire_start_odds(t, names, table.book)
            chances = [
                _chance(
                    f"the fire is {k.replace('_', ' ')}" if k != "no_fire" else "no fire catches", p
                )
                for k, p in found.items()
            ]
            with table.rolling("fire") as roller:
                result: Any = fire_start(t, names, roller, table.book)
                table.carry([result])
            inputs: dict[str, Any] = {"tier": t, "traits": names}
        else:
            if table.state is not None:
                # the SHIP's own fire: its severity, and who fights it (R50; all hands
                # unless `voyage act SHIP fight-fire --crew N` said otherwise)
                if severity is None:
                    severity = int(table.state.fire)
                if crew is None and table.state.fire_crew is not None:
                    crew = int(table.state.fire_crew)
            if severity is None:
                raise click.UsageError("give the fire's --severity with --minute")
            c, hose = table.crew(crew), table.firehose(firehose)
            found = fire_minute_odds(severity, t, c, table.book, names, hose)
            words = {
                "spreads": "it spreads",
                "reduced": "the crew bring it down",
                "out": "it goes out",
                "out_of_control": "it grows out of control",
            }
            chances = [_chance(words[k], p) for k, p in found.items()]
            with table.rolling("fire minute") as roller:
                result = fire_minute(severity, t, c, roller, table.book, names, hose)
                table.carry([result])
            inputs = {"tier": t, "traits": names, "severity": severity, "crew": c, "firehose": hose}
        _report(table, "fire", inputs, chances, [result], as_json)


@roll.command("sinking")
@_ship_argument
@_tier_option
@_load_option
@click.option(
    "--within",
    type=Whole(0, 100_000),
    default=None,
    help="Also show the chance the ship is still afloat after this many minutes.",
)
@_apply_option("she begins sinking, the rolled minutes counting down")
@_seed_options
def sinking(
    ship: str | None,
    tier: str | None,
    load_name: str | None,
    within: int | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """How long a sinking ship takes to submerge (R40): 3d6 + Tier minutes, doubled at
    Half Load or less.

    With --apply the SHIP at sea begins sinking (the referee's call): `voyage advance`
    counts the minutes down, and `voyage act SHIP saved` can still save her.

    Example:

        voyage roll sinking --tier 4 --load half --within 20 --seed 9
    """
    with _errors():
        from voyage.rules.sinking import sinking_distribution, sinking_odds, sinking_time

        table = _Table(db_path, ship, seed, apply="sinking" if apply_ else None)
        t, load = table.tier(tier), table.load(load_name)
        dist = sinking_distribution(t, load, table.book)
        chances = []
        if within is not None:
            chances.append(
                _chance(
                    f"the ship is still afloat after {within} minutes",
                    sinking_odds(t, load, within, table.book),
                )
            )
        with table.rolling("sinking") as roller:
            result = sinking_time(t, load, roller, table.book, table.ship)
            table.carry([result])
        mean = sum(m * p for m, p in dist.items())
        note = f"sinks in {min(dist)} to {max(dist)} minutes, {float(mean):g} on average"
        minutes = {"shortest": min(dist), "longest": max(dist), "average": float(mean)}
        _report(
            table,
            "sinking",
            {"tier": t, "load": load},
            chances,
            [result],
            as_json,
            (note,),
            {"minutes": minutes},
        )


@roll.command("strain")
@_ship_argument
@click.option("--extra", type=KNOTS, required=True, help="Knots over Speed (at most half Speed).")
@click.option(
    "--speed",
    type=KNOTS,
    default=None,
    help="The ship's Speed, to check the limit (else the SHIP's).",
)
@_tier_option
@_apply_option("a broken engine, and a fire in it")
@_seed_options
def strain(
    ship: str | None,
    extra: int,
    speed: int | None,
    tier: str | None,
    apply_: bool,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """An hour of straining the engine (R14): d6 + (extra knots - 1), 6+ breaks it; then
    the same roll again, 6+ sets it on fire (a new fire is rolled when --tier is known).

    With --apply the SHIP at sea has a broken engine (she makes no way under power until
    `voyage act SHIP repair engine`) and, on a second 6+, a fire burning in it.

    Example:

        voyage roll strain --extra 3 --speed 8 --seed 10
    """
    with _errors():
        from voyage.rules.strain import strain_check, strain_fire_odds, strain_odds

        table = _Table(db_path, ship, seed, apply="strain" if apply_ else None)
        if table.ship is not None:
            from voyage.vessels.boatships import refuse_built

            refuse_built(table.ship, "she has no engine Tier to strain (R82: no straining)")
        s = None if speed is None and table.ship is None else table.speed(speed, cruising=True)
        t = table.tier(tier) if tier is not None or table.ship is not None else None
        chances = [
            _chance("the engine holds", strain_odds(extra, table.book, s)),
            _chance("the engine breaks and catches fire", strain_fire_odds(extra, table.book, s)),
        ]
        with table.rolling("strain") as roller:
            first = strain_check(extra, roller, table.book, s)
            results: list[Any] = [first]
            if first.fire and t is not None:
                from voyage.rules.fire import fire_start

                results.append(fire_start(t, table.traits(()), roller, table.book))
            table.carry(results)
        inputs = {"extra": extra, "speed": s, "tier": t}
        _report(table, "strain", inputs, chances, results, as_json)


@roll.command("movement")
@_ship_argument
@_tier_option
@_situational
@_check_options
@_seed_options
def movement(
    ship: str | None,
    tier: str | None,
    advantages: tuple[str, ...],
    disadvantages: tuple[str, ...],
    natural_rolls: bool | None,
    advantage_mode: str | None,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Change declared movement in secret (R53): a Check with DV equal to the ship's Tier.

    Example:

        voyage roll movement --tier 7 --seed 11
    """
    with _errors():
        from voyage.rules.movement import change_movement_check, change_movement_odds

        table = _Table(db_path, ship, seed, natural_rolls, advantage_mode)
        t = table.tier(tier)
        net = len(advantages) - len(disadvantages)
        p = change_movement_odds(t, 0, net, table.options)
        with table.rolling("movement") as roller:
            result = change_movement_check(t, roller, (), advantages, disadvantages)
        inputs = {"tier": t, "advantages": list(advantages), "disadvantages": list(disadvantages)}
        _report(
            table, "movement", inputs, [_chance("the change stays secret", p)], [result], as_json
        )


@roll.command("trait")
@click.option("--force", is_flag=True, help="Skip the 1-in-6: roll straight on the Trait table.")
@_seed_options
def trait(force: bool, seed: int | None, db_path: str, as_json: bool) -> None:
    """Roll a new ship's Trait (R18): a 1-in-6, then the d12 table and the trait's own rolls.

    Example:

        voyage roll trait --force --seed 12
    """
    with _errors():
        from voyage.rules.shiptables import roll_trait, trait_odds

        table = _Table(db_path, None, seed)
        with table.rolling("trait") as roller:
            result = roll_trait(roller, table.book, force)
        chances = [] if force else [_chance("the ship has a Trait", trait_odds(table.book))]
        _report(table, "trait", {"force": force}, chances, [result], as_json)


@roll.command("class")
@click.argument("ship_class", required=False)
@click.option("--class", "class_opt", default=None, help="The class, as `ship roll` takes it.")
@click.option(
    "--row",
    default=None,
    help="Roll only this row (tier, engine, light, radio, net, heavy_weapon, harpoons, armor).",
)
@_seed_options
def class_(
    ship_class: str | None,
    class_opt: str | None,
    row: str | None,
    seed: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Roll a class table (R20, R21) without saving anything: one row with --row, else a
    whole ship (every row, then a Trait). The class is random if left out.

    Example:

        voyage roll class freighter --row engine --seed 13
    """
    if class_opt is not None and ship_class is not None and class_opt != ship_class:
        raise click.UsageError(f"two classes given ({ship_class}, --class {class_opt}): give one")
    ship_class = ship_class if ship_class is not None else class_opt
    with _errors():
        table = _Table(db_path, None, seed)
        if row is not None:
            if ship_class is None:
                raise click.UsageError("name the class to roll a --row on")
            from voyage.rules.shiptables import class_row_odds, roll_class_row

            chances = [
                _chance(value, p)
                for value, p in class_row_odds(ship_class, row, table.book).items()
            ]
            with table.rolling("class") as roller:
                result = roll_class_row(ship_class, row, roller, table.book)
            inputs = {"class": ship_class, "row": row}
            _report(table, "class", inputs, chances, [result], as_json)
            return
        from voyage.dice.events import Outcome
        from voyage.outputs.report import ship_card
        from voyage.rules.shiptables import roll_ship
        from voyage.vessels.ships import figures

        with table.rolling("class") as roller:
            made, rolls = roll_ship(table.book, roller, "(not saved)", ship_class)
        fig = figures(made, table.book)
        card = "\n".join(ship_card(fig))
        whole: Any = Outcome("class", card, tuple(rolls), {})
        if as_json:
            emit_json(
                {
                    "procedure": "class",
                    "ship": None,
                    "seed": table.seed,
                    "inputs": {"class": ship_class},
                    "odds": [],
                    "results": [whole.to_dict()],
                    "figures": fig,
                }
            )
            return
        _report(table, "class", {"class": ship_class}, [], [whole], as_json)
