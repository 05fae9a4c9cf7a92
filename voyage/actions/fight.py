"""A fight between ships (R94) round by round, kept in the campaign (tables ``fights`` and
``fighters``), each command one undoable action.

Ships (and leviathans, R54) join a fight in the same hex. A round fixes the order of
actions slowest first (R90) and takes declared movements (a change is an R53 Check). Shots
are Checks (R1) + the target's to-hit modifier (R17); a hit is Harm or an Explosion by
weapon (tables/weapons.yaml, R36), and the target may dodge an Explosion first (R51). A
built boat fires what she was built with (R87), her torpedoes, rockets and depth charges one
shot each; a rolled ship her class's heavy weapons and explosive harpoons (R21).
Rams use R91's relative speeds and speeds after, each ship rolling her own R35. Every
result lands in the ships' voyages exactly as ``voyage roll --apply`` carries it
(voyage.actions.apply), at the fight's minute: six rounds a minute of the voyage clock (R94), so
fires, listing and sinking carry on from there (R52).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from typing import Any

from voyage.actions.apply import apply_outcomes, state_line, voyage_for_apply
from voyage.base.errors import VoyageError, VoyageRuleError
from voyage.base.text import plural
from voyage.base.tiers import roman
from voyage.dice.events import Event, Outcome
from voyage.dice.roller import Modifier
from voyage.engine.clock import ShipState
from voyage.rules.collisions import check_kind, relative_speed, speeds_after
from voyage.rules.crewless import no_crew
from voyage.rules.dodge import dodge
from voyage.rules.hull import hull_hit
from voyage.rules.ramming import ram
from voyage.rules.sinking import sinking_time
from voyage.store.campaigndb import Action, Campaign
from voyage.store.fightrows import (
    end_fight,
    fight_row,
    fighters_of,
    insert_fight,
    insert_fighters,
    open_fights,
    save_fighter,
    set_round,
)
from voyage.store.logrows import log_event
from voyage.store.voyagerows import open_voyage, save_state
from voyage.vessels import ships as shipfig
from voyage.vessels.fittings import armament, shots_left, spend_shot
from voyage.vessels.submersible import submerged

ROUNDS_A_MINUTE = 6  # R94 (our reading): a round is 10 seconds


# -- reading ------------------------------------------------------------------------------


def find_fight(camp: Campaign, fight_id: int | None = None) -> dict[str, Any]:
    """The fight numbered ``fight_id``, or the only open one; one line otherwise."""
    if fight_id is not None:
        row = fight_row(camp, fight_id)
        if row is None:
            raise VoyageRuleError(f"no fight {fight_id}: `voyage encounter status` lists them")
        return row
    fights = open_fights(camp)
    if not fights:
        raise VoyageRuleError("no fight is under way: `voyage encounter start SHIP...` opens one")
    if len(fights) > 1:
        ids = ", ".join(str(f["id"]) for f in fights)
        raise VoyageRuleError(f"{len(fights)} fights are under way ({ids}): say which with --fight")
    return fights[0]


def _beast(camp: Campaign, name: str) -> dict[str, Any] | None:
    """The leviathan ``name`` names (its table key, ``great-whale``, as `start --leviathan`
    takes it, or its name), or None (R54)."""

    try:
        return camp.rulebook.leviathan(name)
    except VoyageError:
        return None


def _names(camp: Campaign, name: str) -> set[str]:
    """The names ``name`` may stand for in a fight: itself, and for a leviathan's table key
    the beast's name (R54)."""
    beast = _beast(camp, name)
    wanted = {name.strip().lower()}
    if beast is not None:
        wanted.add(str(beast["name"]).lower())
    return wanted


def fighter_in(camp: Campaign, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(fight, fighter) of the open fight ``name`` is in; one line if she is in none."""
    wanted = _names(camp, name)
    for fight in open_fights(camp):
        for f in fighters_of(camp, fight["id"]):
            if f["name"].lower() in wanted:
                return fight, f
    raise VoyageRuleError(_not_fighting(camp, name))


def _not_fighting(camp: Campaign, name: str) -> str:
    """Why ``name`` is in no open fight, with the command that brings her (or it) into one:
    a leviathan joins with `start SHIP --leviathan KIND` (R54), not as a ship."""
    beast = _beast(camp, name)
    if beast is not None:
        kind = next(k for k, b in camp.rulebook.leviathans["leviathans"].items() if b is beast)
        return (
            f"no {beast['name']} is in a fight: a leviathan joins one with "
            f"`voyage encounter start SHIP --leviathan {kind}` (R54)"
        )
    ship = camp.get_ship(name)  # an unknown name is refused here, naming the ships
    return f"{ship.name} is not in a fight: `voyage encounter start {ship.name!r} OTHER...` first"


def _same_fight(camp: Campaign, actor: str, target: str) -> tuple[dict, dict, dict]:
    fight, a = fighter_in(camp, actor)
    wanted = _names(camp, target)
    for f in fighters_of(camp, fight["id"]):
        if f["name"].lower() in wanted:
            if f["name"] == a["name"]:
                raise VoyageRuleError(f"{a['name']} cannot attack herself")
            return fight, a, f
    names = ", ".join(f["name"] for f in fighters_of(camp, fight["id"]) if f["name"] != a["name"])
    # quoted: an empty name, or one with a right-to-left mark, once printed as nothing
    raise VoyageRuleError(f"{target!r} is not in {a['name']}'s fight: the others are {names}")


def fight_minute(fight: dict[str, Any]) -> int:
    """The campaign minute of the fight's current round (R94: six rounds a minute)."""
    rounds = max(int(fight["round"]), 1)
    return int(fight["clock"]) * 60 + (rounds - 1) // ROUNDS_A_MINUTE


# -- writing ------------------------------------------------------------------------------


def _log(
    camp: Campaign,
    act: Action,
    fight: dict[str, Any],
    ship: str | None,
    event: Event,
    voyage_id: int | None = None,
    target: str | None = None,
) -> None:
    """Log a fight's event at its minute; ``target``: the side it was done to (a shot's,
    a ram's), so that side's journal tells it too (voyage.outputs.chronicle.gather)."""
    event.minute = (fight_minute(fight) - int(fight["clock"]) * 60) % 60
    event.changes = {
        **event.changes,
        "fight": fight["id"],
        "round": fight["round"],
        "hex": fight["hex"],
    }  # the map marks the fight there
    if target is not None:
        event.changes["target"] = target
    log_event(camp, act, ship, voyage_id, event)


def _note_damage(f: dict[str, Any], text: str) -> None:
    damage = json.loads(f["damage"] or "[]")
    damage.append(text)
    f["damage"] = json.dumps(damage)


def _land(
    camp: Campaign,
    act: Action,
    fight: dict[str, Any],
    target: dict[str, Any],
    outcomes: list[Outcome],
    procedure: str,
    rolled: list[Any] | None = None,
) -> str:
    """Carry outcomes into the target: a ship's voyage as ``roll --apply`` does (with the
    sinking time rolled when she is destroyed, R40), a leviathan's damage list. The rolls
    of what was logged are added to ``rolled`` (R4: the command prints them)."""
    if target["kind"] == "leviathan":
        for o in outcomes:
            if rolled is not None:
                rolled.extend(o.rolls)
            if o.changes:
                _note_damage(target, o.text)
            event = o.event(0)
            # logged with no ship (a beast has no voyage): its name, not "The ship" (R54)
            event.text = re.sub(
                r"(^|(?<=[.:;] ))The ship\b", f"The {target['name']}", event.text
            ).replace("the ship", "it")
            _log(camp, act, fight, None, event)
        return "; ".join(o.text for o in outcomes)
    s = voyage_for_apply(camp, target["name"], procedure)
    book = camp.rulebook
    destroyed = any(o.changes.get("destroyed") for o in outcomes)
    if destroyed and s.sinking_in is None:
        load = shipfig.load_category(s.ship, book, camp.water_in_load)
        outcomes = [*outcomes, sinking_time(s.ship.tier, load, camp.roller, book, s.ship)]
    events = apply_outcomes(s, outcomes, fight_minute(fight))
    save_state(camp, s, camp.clock)
    for event in events:
        if rolled is not None:
            rolled.extend(event.rolls)
        if event.changes:
            _note_damage(target, event.text)
        _log(camp, act, fight, s.ship.name, event, s.voyage_id)
    return " ".join(e.text for e in events)


# -- the commands ---------------------------------------------------------------------------


def _hands(camp: Campaign, f: dict[str, Any], work: str, why: str = "") -> None:
    """A fighting ship with no crew (R70, our reading; voyage.actions.crewless) cannot ``work``:
    nobody aboard fires her guns, rams or makes way (she only drifts, R64). One line."""
    if f["kind"] == "ship":
        ship = camp.get_ship(f["name"])
        if ship.crew < 1:
            raise no_crew(ship, work, why)


def _try_dodge(camp: Campaign, f: dict[str, Any], zone: str) -> tuple[Outcome, bool]:
    """The target ``f`` dodges an Explosion (R51): (the outcome, whether she dodged); failed,
    her crew are off balance. A ship with no crew (R70, our reading) has nobody at the helm
    to dodge: no roll, the blow lands."""
    traits: list[str] = []
    if f["kind"] == "ship":
        ship = camp.get_ship(f["name"])
        if ship.crew < 1:
            return Outcome(
                "dodge",
                f"Nobody is aboard {f['name']} to dodge (R51, R70): the blow lands.",
                (),
                {},
            ), False
        traits = list(ship.traits)
    d = dodge(f["tier"], camp.roller, camp.rulebook, traits, zone=zone)
    if not d.dodged:
        f["off_balance"] = 1
    return d, d.dodged


def _ship_speed(camp: Campaign, s: ShipState) -> int:
    """Her speed now (R13-R15): 0 unless under way."""
    if s.status != "under way":
        return 0
    # R81: a built boat's mph are knots, whole ones here
    return math.floor(shipfig.speed(s.ship, camp.rulebook, s.pace, s.strain, camp.water_in_load))


def start(
    camp: Campaign, names: list[str], leviathan: str | None = None, range_yards: int | None = None
) -> dict[str, Any]:
    """Open a fight in the current minute between ships in one hex (and a leviathan)."""
    if len(names) + (1 if leviathan else 0) < 2:
        raise VoyageRuleError("a fight needs two sides: name two ships, or a ship and --leviathan")
    if range_yards is not None and range_yards < 0:
        raise VoyageRuleError(f"--range must be 0 yards or more, not {range_yards}")
    with camp.action("encounter start", "encounter start") as act:
        book = camp.rulebook
        states: list[ShipState] = []
        for name in names:
            ship = camp.get_ship(name)
            if any(s.ship.name == ship.name for s in states):
                raise VoyageRuleError(f"{ship.name} is named twice")
            busy = [
                f
                for f in open_fights(camp)
                if any(x["name"] == ship.name for x in fighters_of(camp, f["id"]))
            ]
            if busy:
                raise VoyageRuleError(
                    f"{ship.name} is already in fight {busy[0]['id']}: end it first "
                    f"(`voyage encounter end --fight {busy[0]['id']}`)"
                )
            s = open_voyage(camp, ship.name)
            if s is None or s.status in ("sunk", "abandoned"):
                raise VoyageRuleError(
                    f"{ship.name} is not at sea: a fight is between ships on voyages (sail first)"
                )
            states.append(s)
        hexes = {s.hex for s in states}
        if len(hexes) > 1:
            where = ", ".join(f"{s.ship.name} {s.hex}" for s in states)
            raise VoyageRuleError(f"the ships are in different hexes ({where}): one hex a fight")
        beast = book.leviathan(leviathan) if leviathan else None
        fight_id = insert_fight(camp, camp.clock, states[0].hex, range_yards)
        rows = [
            (fight_id, s.ship.name, "ship", None, s.ship.tier, _ship_speed(camp, s), seat)
            for seat, s in enumerate(states)
        ]
        if beast:
            rows.append(
                (
                    fight_id,
                    beast["name"],
                    "leviathan",
                    beast["key"],
                    beast["tier"],
                    beast["speed"],
                    len(rows),
                )
            )
        insert_fighters(camp, rows)
        fight = find_fight(camp, fight_id)
        who = ", ".join(r[1] for r in rows)
        distance = f" at {range_yards} yards" if range_yards is not None else ""
        text = f"A fight begins at {states[0].hex}{distance}: {who} (R94)."
        for s in states:
            _log(camp, act, fight, s.ship.name, Event("fight", text, [], 0, {}), s.voyage_id)
        camp.set_summary(act, text)
    return status(camp, fight_id)


def order_of(fighters: list[dict[str, Any]]) -> list[str]:
    """R90: slowest first, ties by the lower Tier, then by name."""
    ranked = sorted(fighters, key=lambda f: (f["declared"], f["tier"], f["name"].lower()))
    return [f["name"] for f in ranked]


def next_round(
    camp: Campaign, moves: dict[str, int], fight_id: int | None = None
) -> dict[str, Any]:
    """A new round: declared movements (a change after the first round is an R53 Check:
    DV = Tier; on a failure it is declared publicly), then the order fixed (R90)."""
    with camp.action("encounter round", "encounter round") as act:
        fight = find_fight(camp, fight_id)
        if fight["status"] != "open":
            raise VoyageRuleError(f"fight {fight['id']} is over")
        fighters = fighters_of(camp, fight["id"])
        by_name = {f["name"].lower(): f for f in fighters}
        fight["round"] = int(fight["round"]) + 1
        lines = []
        for raw, knots in moves.items():
            f = by_name.get(raw.strip().lower())
            if f is None:
                raise VoyageRuleError(
                    f"{raw} is not in fight {fight['id']}: {', '.join(x['name'] for x in fighters)}"
                )
            if not 0 <= knots <= 99:
                raise VoyageRuleError(f"{f['name']}: a movement of {knots} knots is not possible")
            if knots:
                _hands(camp, f, f"make {knots} knots", "she only drifts, R64")
            if knots == f["declared"]:
                continue
            if fight["round"] > 1:
                roll = camp.roller.check(
                    f"{f['name']} changes her movement (R53)",
                    f["tier"],
                    success="changed quietly",
                    failure="declared publicly: every other side may rewrite its orders",
                )
                _log(
                    camp,
                    act,
                    fight,
                    f["name"] if f["kind"] == "ship" else None,
                    Event("fight", roll.line(), [roll], 0, {}),
                )
            f["declared"] = knots
            f["speed"] = knots
            lines.append(f"{f['name']} {knots} knots")
        for f in fighters:
            f["off_balance"] = 0  # R51: off balance for the rest of the round only
            save_fighter(camp, f)
        order = order_of(fighters)
        set_round(camp, fight["id"], fight["round"], order)
        halves = ", ".join(f"{f['name']} {f['declared'] / 2:g}" for f in fighters)
        text = (
            f"Round {fight['round']}: order {', '.join(order)} (R90, slowest first); "
            f"each moves half her declared knots, then the rest ({halves} then the same)"
            + (f"; new movement: {', '.join(lines)}" if lines else "")
            + "."
        )
        _log(camp, act, fight, None, Event("fight round", text, [], 0, {}))
        camp.set_summary(act, text)
    return status(camp, fight["id"])


def _weapon(
    camp: Campaign, shooter: dict[str, Any], key: str, target: dict[str, Any]
) -> dict[str, Any]:
    """The weapons table's row ``key`` names, when the shooter carries it and it serves
    against the target (R87, R94); one line naming what is wrong and the fix otherwise."""
    book = camp.rulebook
    weapons = book.weapons["weapons"]
    found = weapons.get(key.strip().lower())
    if found is None:
        raise VoyageRuleError(f"unknown weapon {key!r}: use one of {', '.join(weapons)}")
    if shooter["kind"] == "leviathan":
        raise VoyageRuleError(
            f"{shooter['name']} is a leviathan: it attacks with `voyage encounter attack`"
        )
    ship = camp.get_ship(shooter["name"])
    eq = ship.equipment
    article = "an" if found["name"][:1].lower() in "aeiou" else "a"
    mounted = armament(ship, book)
    if ship.design is not None and found["carried"] != "any":
        if found["key"] not in mounted:  # R87: a built boat carries what she was built with
            carried = ", ".join(_mount_text(weapons, k, n) for k, n in mounted.items())
            raise VoyageRuleError(
                f"{ship.name} carries no {found['name']} (her weapons: {carried or 'none'}; "
                f"a boat is armed when built: `voyage ship build ... --weapon {found['key']}`)"
            )
        left = shots_left(ship, found, mounted[found["key"]])
        if left == 0:
            raise VoyageRuleError(
                f"{ship.name} has no {found['name']} shots left: "
                f"{plural(found['shots'] * mounted[found['key']], 'shot')} fired (R87)"
            )
    elif found["carried"] == "built":
        raise VoyageRuleError(
            f"{ship.name} is a rolled ship: {article} {found['name']} arms a built boat (R87); "
            "she fires her class's heavy weapons and harpoons (R21)"
        )
    elif found["carried"] == "heavy_weapon" and found["name"] not in eq.get("heavy_weapons", []):
        carried = ", ".join(eq.get("heavy_weapons", [])) or "none"
        raise VoyageRuleError(
            f"{ship.name} does not carry {article} {found['name']} (her heavy weapons: "
            f"{carried}; a ship is armed when made: `voyage ship add ... --weapon`)"
        )
    if found["carried"] == "harpoons" and int(eq.get("harpoons", 0) or 0) < 1:
        raise VoyageRuleError(
            f"{ship.name} has no explosive harpoons aboard: `voyage ship load "
            f"{ship.name!r} --harpoons N` in port (R87)"
        )
    _reaches(camp, found, target)
    return found


def _mount_text(weapons: dict[str, Any], key: str, n: int) -> str:
    name = weapons[key]["name"] if key in weapons else key
    return name if n == 1 else f"{n} x {name}"


def _reaches(camp: Campaign, w: dict[str, Any], target: dict[str, Any]) -> None:
    """R87: against a submerged submersible only a depth charge or a homing torpedo serves
    (``targets`` submerged or any); a depth charge serves against nothing else."""
    s = open_voyage(camp, target["name"]) if target["kind"] == "ship" else None
    down = s is not None and submerged(s)
    if down and w["targets"] == "surface":
        raise VoyageRuleError(
            f"{target['name']} is submerged: the {w['name']} cannot reach her; only a depth "
            "charge or a homing torpedo serves (R87)"
        )
    if not down and w["targets"] == "submerged":
        raise VoyageRuleError(
            f"{target['name']} is not a submerged submersible: the {w['name']} serves against "
            "nothing else (R87)"
        )


def shoot(
    camp: Campaign,
    shooter: str,
    target: str,
    weapon: str,
    zone: str = "lethal",
    try_dodge: bool = True,
    modifier: int = 0,
) -> dict[str, Any]:
    """A shot at a hull (R94): a Check against the weapons table's DV + the target's to-hit
    modifier (R17) + the weapon's aim; a hit is Harm or an Explosion (R36), the target
    dodging an Explosion first when ``try_dodge`` (R51)."""
    with camp.action("encounter shoot", f"{shooter} shoots at {target}") as act:
        fight, a, b = _same_fight(camp, shooter, target)
        if int(fight["round"]) < 1:
            raise VoyageRuleError("no round has begun: `voyage encounter round` first")
        if a["off_balance"]:
            raise VoyageRuleError(
                f"{a['name']}'s crew are off balance this round (R51): they may only regain "
                "their composure"
            )
        w = _weapon(camp, a, weapon, b)
        _hands(camp, a, f"fire the {w['name']}")
        book, roller = camp.rulebook, camp.roller
        to_hit = int(b["tier"]) // 2  # R17
        mods = [Modifier(to_hit, f"to-hit, Tier {roman(b['tier'])} hull (R17)")]
        if w["aim"]:
            mods.append(Modifier(w["aim"], w["name"]))
        if modifier:
            mods.append(Modifier(modifier, "the referee"))
        shot = roller.check(
            f"{a['name']} fires the {w['name']} at {b['name']}",
            int(book.weapons["dv"]),
            mods,
            success="a hit",
            failure="a miss",
        )
        outcomes: list[Outcome] = [
            Outcome("shot", f"{a['name']} fires at {b['name']}: {shot.outcome}.", (shot,), {})
        ]
        if w["carried"] == "harpoons" or w.get("shots") is not None:
            ship = camp.get_ship(a["name"])
            s = open_voyage(camp, ship.name)
            held = s.ship if s else ship
            if w["carried"] == "harpoons":
                held.equipment["harpoons"] = int(held.equipment.get("harpoons", 0)) - 1
            else:  # R87: a torpedo, rocket or depth charge is one shot
                spend_shot(held, w["key"])
            camp.save_ship(held)
        text = outcomes[0].text
        if shot.success:
            explosion = w["hit"] == "explosion"
            dodged = False
            if explosion and try_dodge:
                d, dodged = _try_dodge(camp, b, zone)
                outcomes.append(d)
            if not dodged:
                outcomes.append(
                    hull_hit(
                        b["tier"],
                        w["modifier"],
                        roller,
                        book,
                        explosion=explosion,
                        zone=zone if explosion else None,
                    )
                )
        _log(
            camp,
            act,
            fight,
            a["name"] if a["kind"] == "ship" else None,
            outcomes[0].event(0),
            target=b["name"],
        )
        rolled: list[Any] = list(outcomes[0].rolls)
        if len(outcomes) > 1:
            text += " " + _land(camp, act, fight, b, outcomes[1:], "hull-hit", rolled)
        save_fighter(camp, b)
        camp.set_summary(act, text[:200])
    # R4: every roll, the sinking time of a hull destroyed included
    return {"fight": fight["id"], "text": text, "rolls": [r.to_dict() for r in rolled]}


def collide(camp: Campaign, rammer: str, target: str, kind: str) -> dict[str, Any]:
    """A ram between two sides of a fight (R91): each ship rolls R35 at the relative speed
    of the kind; the speeds after follow the kind."""
    kind = check_kind(kind)
    with camp.action("encounter ram", f"{rammer} rams {target}") as act:
        fight, a, b = _same_fight(camp, rammer, target)
        if int(fight["round"]) < 1:
            raise VoyageRuleError("no round has begun: `voyage encounter round` first")
        _hands(camp, a, "ram", "she only drifts, R64")
        for f in (a, b):
            if f["kind"] == "ship":
                s = open_voyage(camp, f["name"])
                if s is not None and s.hex != fight["hex"]:
                    raise VoyageRuleError(
                        f"{f['name']} is at {s.hex}, not {fight['hex']}: a ram is in one hex"
                    )
        # R91: "leviathans that do not move are rammed head-on at the rammer's speed and
        # stop her", whatever kind of blow was named
        still = b["kind"] == "leviathan" and int(b["speed"]) == 0
        kind = "head-on" if still else kind
        rel = relative_speed(kind, a["speed"], b["speed"])
        after = (
            (0, 0) if still else speeds_after(kind, a["speed"], a["tier"], b["speed"], b["tier"])
        )
        book, roller = camp.rulebook, camp.roller
        texts = [
            f"{a['name']} rams {b['name']} {kind} at {a['speed']} knots against "
            f"{b['speed']}: relative speed {rel} (R91)."
        ]
        if still:
            texts[0] = (
                f"{a['name']} rams the {b['name']}, which is not moving: head-on at "
                f"her own {a['speed']} knots, and she stops (R91)."
            )
        _log(
            camp,
            act,
            fight,
            a["name"] if a["kind"] == "ship" else None,
            Event("ram", texts[0], [], 0, {"kind": kind, "relative_speed": rel}),
            target=b["name"],
        )
        rolled: list[Any] = []
        for me, other in ((a, b), (b, a)):
            if me["kind"] == "leviathan":  # R54: a ship only for movement; no R35 of its own
                texts.append(_beast_rammed(camp, act, fight, me, other, rel, me is a))
                continue
            traits = camp.get_ship(me["name"]).traits
            result = ram(me["tier"], rel, roller, book, traits, what=other["name"])
            if me is b:  # R91: she rolls R35 too, but she was rammed: told from her side
                result = replace(result, text=rammed_text(result.text, other["name"]))
            told = _land(camp, act, fight, me, [result], "ram", rolled)
            named = re.sub(r"^The ship\b", me["name"], told)
            texts.append(named if named != told else f"{me['name']}: {told}")
        a["speed"], b["speed"] = after
        a["declared"], b["declared"] = after
        texts.append(f"Speeds after: {a['name']} {after[0]}, {b['name']} {after[1]} knots.")
        save_fighter(camp, a)
        save_fighter(camp, b)
        camp.set_summary(act, texts[0])
    return {
        "fight": fight["id"],
        "relative_speed": rel,
        "speeds_after": list(after),
        "text": " ".join(texts),
        "rolls": [r.to_dict() for r in rolled],
    }


def rammed_text(text: str, rammer: str) -> str:
    """R35's sentence for the ship that was rammed, from her side: "The ship rams Red Jack
    and is hit by ..." (the rule's words for the rammer) reads "The ship is rammed by Red
    Jack and is hit by ...", "... rams Red Jack without damage" "... and takes no damage"."""
    head = f"The ship rams {rammer}"
    if not text.startswith(head):
        return text
    rest = text[len(head) :]
    if rest.startswith(" without damage"):
        rest = " and takes no damage" + rest[len(" without damage") :]
    return f"The ship is rammed by {rammer}{rest}"


def _beast_rammed(
    camp: Campaign,
    act: Action,
    fight: dict[str, Any],
    beast: dict[str, Any],
    other: dict[str, Any],
    rel: int,
    rammer: bool,
) -> str:
    """A leviathan in a collision (R91): the ship rolls her own R35; the beast rolls none.
    R35 is a ship's roll for her hull, and a leviathan "acts as a ship for the purposes of
    movement" only (R54: the relative speed and the speeds after are a ship's); what the
    blow does to it is the referee's to rule by its own rules. Noted on its damage list and
    logged (no ship: a beast has no voyage). The text."""
    hit = "strikes" if rammer else "is struck by"
    note = (
        f"The {beast['name']} {hit} {other['name']} at relative speed {rel} "
        "(R91): a leviathan is a ship only for movement (R54), so it makes no ramming "
        "roll (R35); the referee rules its harm"
    )
    _note_damage(
        beast,
        f"{'rams' if rammer else 'rammed by'} {other['name']} at relative "
        f"speed {rel} (R91): the referee rules its harm (R54)",
    )
    _log(
        camp,
        act,
        fight,
        None,
        Event("ram", note + ".", [], 0, {"rammed": beast["name"], "relative_speed": rel}),
    )
    return note + "."


def attack(
    camp: Campaign, beast: str, target: str, zone: str = "lethal", try_dodge: bool = True
) -> dict[str, Any]:
    """A leviathan attacks (R54): an Explosion at the point declared; the target in its
    ``zone`` may dodge (R51), else the hull hit (R36) with the beast's modifier."""
    with camp.action("encounter attack", f"{beast} attacks {target}") as act:
        fight, a, b = _same_fight(camp, beast, target)
        if a["kind"] != "leviathan":
            raise VoyageRuleError(
                f"{a['name']} is a ship: she shoots with `voyage encounter shoot`"
            )
        if int(fight["round"]) < 1:
            raise VoyageRuleError("no round has begun: `voyage encounter round` first")
        book, roller = camp.rulebook, camp.roller
        info = book.leviathan(a["leviathan"])
        outcomes: list[Outcome] = []
        dodged = False
        if try_dodge:
            d, dodged = _try_dodge(camp, b, zone)
            outcomes.append(d)
        if not dodged:
            outcomes.append(hull_hit(b["tier"], info["modifier"], roller, book, True, zone))
        head = (
            f"The {a['name']} attacks {b['name']}: an Explosion ({info['zones']}, "
            f"{info['modifier']:+d}), {b['name']} in its {zone} zone (R54)."
        )
        # the attack itself is news: the log (and the exports' fight story) said only "The
        # Gull swerves clear", never who attacked her (R54)
        _log(
            camp,
            act,
            fight,
            None,
            Event("attack", head, [], 0, {"attacker": a["name"]}),
            target=b["name"],
        )
        rolled: list[Any] = []
        text = head + " " + _land(camp, act, fight, b, outcomes, "hull-hit", rolled)
        save_fighter(camp, b)
        camp.set_summary(act, head)
    return {"fight": fight["id"], "text": text, "rolls": [r.to_dict() for r in rolled]}


def end(camp: Campaign, fight_id: int | None = None) -> dict[str, Any]:
    """End the fight: the voyage goes on from its last round's minute (R94)."""
    with camp.action("encounter end", "encounter end") as act:
        fight = find_fight(camp, fight_id)
        if fight["status"] != "open":
            raise VoyageRuleError(f"fight {fight['id']} is already over")
        rounds = int(fight["round"])
        minutes = -(-rounds // ROUNDS_A_MINUTE)
        end_fight(camp, fight["id"])
        text = (
            f"The fight at {fight['hex']} ends after {plural(rounds, 'round')}, "
            f"{plural(minutes, 'minute')} of the voyage clock (R94)."
        )
        _log(camp, act, fight, None, Event("fight", text, [], 0, {"ended": True}))
        camp.set_summary(act, text)
    return status(camp, fight["id"])


def status(camp: Campaign, fight_id: int | None = None) -> dict[str, Any]:
    """The fight: round, order, each side's speed, declared movement, damage so far."""
    fight = find_fight(camp, fight_id)
    sides = []
    for f in fighters_of(camp, fight["id"]):
        side = {
            "name": f["name"],
            "kind": f["kind"],
            "tier": f["tier"],
            "speed": f["speed"],
            "declared": f["declared"],
            "off_balance": bool(f["off_balance"]),
            "damage": json.loads(f["damage"] or "[]"),
        }
        if f["kind"] == "ship":
            s = open_voyage(camp, f["name"])

            side["state"] = state_line(s) if s else "voyage over"
        sides.append(side)
    return {
        "fight": fight["id"],
        "status": fight["status"],
        "hex": fight["hex"],
        "clock": fight["clock"],
        "round": fight["round"],
        "minute": fight_minute(fight) % 60,
        "range_yards": fight["range_yards"],
        "order": json.loads(fight["turn_order"] or "[]"),
        "sides": sides,
    }
