"""People in the water (R70-R74): the pure rules, each a function of (state, roller).

* R72 drowning: 2d6, drowned on 2 (calm), 2-3 (stormy seas), 2-4 (major storm), 2-6
  (hurricane). Who rolls how often is :func:`schedule`: a non-swimmer without a jacket every
  minute, with one every hour; a swimmer with a jacket never in calm or stormy seas and every
  minute on 2 / 2-4 in a major storm / hurricane; a swimmer without a jacket keeps afloat
  rank + 1 hours rolling as a non-swimmer with a jacket, then as one without (our reading).
* R71 escapes: below deck 1-2 on d6, above deck 3+ on 2d6; rafts launched on a 4-in-6.
* R74 search: a raft at once with a radio, else 3-in-6; a person 2-in-6 by day, 1-in-6 by
  night.

The numbers are in ``tables/procedures.yaml`` under ``water`` (a house table can change them).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.text import plural
from voyage.dice.roller import _STR, Dice, Modifier, Roll, Roller, odds, parse
from voyage.rules.capsize import sea_state_rules
from voyage.tables.rulebook import RuleBook
from voyage.vessels.vessel import load_category_for

#: R60: the four sea states, mildest first (their levels are 0 to 3).
SEA_STATES = ("calm", "stormy seas", "major storm", "hurricane")


def water_rules(book: RuleBook) -> dict[str, Any]:
    """The ``water`` numbers of the procedures table (R70-R74); read, never changed."""
    found: dict[str, Any] = book.procedures["water"]
    return found


def sea_state(world: Any, hex_name: str, clock: int) -> str:
    """R60: the sea state at a hex and hour, by name. The one seam to the weather: the
    world's ``sea_state`` gives a level, 0 calm to 3 hurricane (voyage.world.seastate)."""
    level = int(world.sea_state(hex_name, clock))
    return SEA_STATES[max(0, min(level, len(SEA_STATES) - 1))]


def sea_words(state: str) -> str:
    """A sea state as it reads after "in": calm seas, stormy seas, a major storm, a
    hurricane."""
    return {"calm": "calm seas", "major storm": "a major storm", "hurricane": "a hurricane"}.get(
        state, state
    )


@dataclass(frozen=True)
class Schedule:
    """How often one person in the water rolls for drowning (R72), and on what."""

    every: str | None  #: "minute", "hour" or None (does not drown)
    drowned_on: int  #: 2d6 total or less drowns
    why: str  #: what the swimmer words do not say: "keeping afloat", "exhausted", or ""

    def text(self, state: str) -> str:
        """The schedule in the sea's terms, e.g. "rolls every minute, drowned on 2-3"."""
        if self.every is None:
            return f"does not drown in {sea_words(state)}"
        on = "2" if self.drowned_on <= 2 else f"2-{self.drowned_on}"
        return f"rolls every {self.every}, drowned on {on} in {sea_words(state)}"


def schedule(swimming: int, jacket: bool, hours_swum: int, state: str, book: RuleBook) -> Schedule:
    """R72: the drowning schedule of one person in the water (not in a raft)."""
    w = water_rules(book)
    on = int(w["drowned_on"].get(state, 2))
    # ``why`` says only what "swimmer rank 1, no jacket" does not: a swimmer without a
    # jacket still keeping afloat, or exhausted (the event text gives both, side by side)
    if swimming <= 0:
        return Schedule("hour" if jacket else "minute", on, "")
    if jacket:
        worse = w["jacketed_swimmer_on"].get(state)
        if worse is None:
            return Schedule(None, 0, "")
        return Schedule("minute", int(worse), "")
    if hours_swum < swimming + 1:
        # our reading (003's fatigue): rank + 1 hours afloat, rolling as a jacketed non-swimmer
        return Schedule("hour", on, "keeping afloat")
    return Schedule("minute", on, "exhausted")


def drowning_odds(drowned_on: int, book: RuleBook) -> Fraction:
    """The exact chance that one drowning roll drowns (R72): 2d6 <= ``drowned_on``."""
    dice = parse(str(water_rules(book)["drowning_dice"]))
    return odds(Dice(dice.count, dice.sides), dice.bonus, drowned_on, "<=")


def drowning_roll(roller: Roller, drowned_on: int, book: RuleBook, who: str) -> Roll:
    """One drowning roll (R72): success means the person drowns.

    The same record :meth:`Roller.roll` makes, built directly: a night of people in the
    water is thousands of these, and the dice and their odds are the same every time."""
    return drowning_roller(roller, drowned_on, book)([f"drowning ({who})"])[0]


def drowning_roller(roller: Roller, drowned_on: int, book: RuleBook) -> Callable[..., list[Roll]]:
    """A function making drowning rolls (R72) on one target: ``roll(labels)`` is one roll
    for each label's person, in turn (their dice thrown together from the same stream,
    :meth:`Roller.dice`). The dice, their text and odds are worked out once for a
    batch; each roll is a record kept in the roller's records, as :meth:`Roller.roll` does."""
    dice = _drowning_dice(str(water_rules(book)["drowning_dice"]))
    shown = str(Dice(dice.count, dice.sides))
    chance = _drowning_odds(dice, drowned_on)
    bonus = dice.bonus
    sides, count, throw, keep = dice.sides, dice.count, roller.dice, roller.records.extend
    new = object.__new__

    def record(label: str, faces: list[int]) -> Roll:
        natural = sum(faces)
        drowns = natural + bonus <= drowned_on
        made: DrowningRoll = new(DrowningRoll)
        # the fields Roll's __init__ would set (a night is thousands of these), and the
        # template of its log record
        made.__dict__.update(
            label=label,
            dice=shown,
            faces=faces,
            natural=natural,
            modifiers=[Modifier(bonus, "flat")] if bonus else [],
            boon_faces=[],
            boon=0,
            boon_reasons=[],
            total=natural + bonus,
            target=drowned_on,
            compare="<=",
            target_text=None,
            success=drowns,
            outcome="drowns" if drowns else "stays afloat",
            probability=chance,
            _parts=None if bonus else _drowning_template(tuple(faces), drowned_on, shown),
        )
        return made

    def roll(labels: list[str]) -> list[Roll]:
        faces = throw(sides, count * len(labels))
        made = [
            record(label, faces[i * count : i * count + count]) for i, label in enumerate(labels)
        ]
        keep(made)
        return made

    return roll


class DrowningRoll(Roll):
    """A drowning roll (R72) that writes its log record from a template: the JSON of every
    roll with the same faces and target differs only in the label (twice: ``label`` and
    ``line``), so a night of rolls costs a string join each, not a dict and an encoding.
    The bytes are exactly :meth:`Roll.to_json`'s (tests/test_water_odds.py checks)."""

    _parts: tuple[str, ...] | None = None

    def to_json(self) -> str:
        parts = self._parts
        if parts is None:  # a house table's bonus, or made another way: encoded in full
            return super().to_json()
        label = _json_text(self.label)
        return parts[0] + label + parts[1] + label + parts[2]


def drowning_dice(book: RuleBook) -> Dice:
    """R72's drowning dice (2d6 unless a house table says otherwise)."""
    return _drowning_dice(str(water_rules(book)["drowning_dice"]))


def drowns(faces: list[int], dice: Dice, drowned_on: int) -> bool:
    """Whether one drowning roll's faces drown (R72: the total ``drowned_on`` or less)."""
    return sum(faces) + dice.bonus <= drowned_on


def drowning_record(label: str, faces: list[int], dice: Dice, drowned_on: int) -> Roll:
    """The record of one drowning roll already thrown (R72), as :func:`drowning_roll`
    makes it."""
    natural = sum(faces)
    shown = str(Dice(dice.count, dice.sides))
    made = DrowningRoll(
        label=label,
        dice=shown,
        faces=faces,
        natural=natural,
        modifiers=[Modifier(dice.bonus, "flat")] if dice.bonus else [],
        total=natural + dice.bonus,
        target=drowned_on,
        compare="<=",
        success=natural + dice.bonus <= drowned_on,
        outcome="drowns" if natural + dice.bonus <= drowned_on else "stays afloat",
        probability=_drowning_odds(dice, drowned_on),
    )
    if not dice.bonus:
        made._parts = _drowning_template(tuple(faces), drowned_on, shown)
    return made


class DrowningTally(Roll):
    """The drowning rolls of a batch of like people in one hour in which nobody drowned
    (R72): one record holding every person's dice (``faces``: each person's rolls in turn,
    ``each`` rolls a person: 1 hourly, 60 by the minute; the ``line`` names whose they are),
    so a calm hour of 200 people is a few records, not hundreds. ``natural``/``total`` are
    the lowest roll; ``probability`` the chance of each roll (R72's exact odds)."""

    whos: list[str]
    each: int = 1
    #: the record's fixed words, worked out once for a batch (:class:`TallyWords`), or None
    _words: TallyWords | None = None

    def line(self) -> str:
        on = f"{self.target}" if (self.target or 0) <= 2 else f"2-{self.target}"
        w = max(1, len(self.faces) // max(1, len(self.whos) * self.each))
        faces = self.faces
        if w == 2:  # 2d6, R72's own dice: the pairs without slicing
            rolls = [f"{a}+{b}" for a, b in zip(faces[::2], faces[1::2], strict=True)]
        else:
            rolls = ["+".join(map(str, faces[i : i + w])) for i in range(0, len(faces), w)]
        e = self.each
        if e == 1 and len(rolls) == len(self.whos):  # hourly: one roll a person
            people = "; ".join([f"{who} {r}" for who, r in zip(self.whos, rolls, strict=True)])
        else:
            people = "; ".join(
                [who + " " + " ".join(rolls[i * e : i * e + e]) for i, who in enumerate(self.whos)]
            )
        bonus = sum(m.value for m in self.modifiers)
        extra = f" {bonus:+d} each" if bonus else ""
        return (
            f"{self.label}: {plural(len(rolls), 'roll')} of {self.dice}{extra}, "
            f"each drowned on {on}: "
            f"{people}: {self.outcome}"
        )

    def to_json(self) -> str:
        words = self._words
        if (
            words is None
            or words.whos is not self.whos
            or words.label is not self.label
            or len(self.faces) != 2 * len(self.whos)
        ):
            return super().to_json()
        return words.json(self.faces, self.natural)


class TallyWords:
    """The fixed parts of an hourly tally's log record (:class:`DrowningTally`), for a batch
    of people rolling two dice without a bonus (R72's 2d6): the label, the names and the
    odds are the same every quiet hour, only the dice and the lowest roll change. The
    bytes are exactly :meth:`Roll.to_json`'s (tests/test_water_quiet.py checks)."""

    __slots__ = (
        "label",
        "whos",
        "target",
        "shown",
        "chance",
        "_head",
        "_mid",
        "_people",
        "_tail",
        "_pairs",
    )

    def __init__(self, label: str, whos: list[str], dice: Dice, drowned_on: int) -> None:
        self.label, self.whos, self.target = label, whos, drowned_on
        self.shown, self.chance, self._head, self._tail = _tally_frame(dice, drowned_on)
        on = f"{drowned_on}" if drowned_on <= 2 else f"2-{drowned_on}"
        line = _STR(f"{label}: {plural(len(whos), 'roll')} of {self.shown}, each drowned on {on}: ")
        self._mid = f'],"label":{_STR(label)},"line":{line[:-1]}'
        self._people = [_json_text(who) + " " for who in whos]
        self._pairs = _pairs(dice.sides)

    def json(self, faces: list[int], lowest: int) -> str:
        pairs = self._pairs
        people = "; ".join(
            [w + pairs[a][b] for w, a, b in zip(self._people, faces[::2], faces[1::2], strict=True)]
        )
        low = str(lowest)
        tail = self._tail
        # the faces as the encoder writes a list of ints: "[1, 2]" without its spaces
        return "".join(
            (
                self._head,
                str(faces)[1:-1].replace(" ", ""),
                self._mid,
                people,
                ": nobody drowns (lowest ",
                low,
                tail[0],
                low,
                tail[1],
                low,
                tail[2],
                low,
                tail[3],
            )
        )

    @classmethod
    def fits(cls, dice: Dice) -> bool:
        """Whether a batch's tallies can use these words (two dice, no bonus)."""
        return dice.count == 2 and not dice.bonus


@functools.lru_cache(maxsize=64)
def _tally_frame(dice: Dice, drowned_on: int) -> tuple[str, Fraction, str, tuple[str, ...]]:
    """A tally's dice as shown, the chance of each roll, and its record's fixed head and
    tail (:class:`TallyWords`) for these dice and target."""
    shown = str(Dice(dice.count, dice.sides))
    chance = _drowning_odds(dice, drowned_on)
    head = (
        '{"boon":0,"boon_faces":[],"boon_reasons":[],"compare":"<=",'
        f'"dice":{_STR(shown)},"expression":{_STR(shown)},"faces":['
    )
    # around the lowest roll, which the record gives four times (the line's outcome,
    # natural, outcome, total)
    tail = (
        ')","modifiers":[],"natural":',
        ',"outcome":"nobody drowns (lowest ',
        ')","probability":'
        + float.__repr__(float(chance))
        + ',"success":false,"target":'
        + str(drowned_on)
        + ',"total":',
        "}",
    )
    return shown, chance, head, tail


@functools.lru_cache(maxsize=8)
def _pairs(sides: int) -> list[list[str]]:
    """Two dice as a tally's line shows them: ``_pairs(6)[3][5]`` is "3+5"."""
    return [[f"{a}+{b}" for b in range(sides + 1)] for a in range(sides + 1)]


def drowning_tally(
    label: str,
    whos: list[str],
    faces: list[int],
    each: int,
    dice: Dice,
    drowned_on: int,
    lowest: int | None = None,
    words: TallyWords | None = None,
) -> Roll:
    """One record of the rolls in which nobody drowned (see :class:`DrowningTally`):
    ``whos`` one a person, ``faces`` their dice in turn, ``each`` rolls a person;
    ``lowest`` the lowest roll's natural total when the caller already knows it; ``words``
    the batch's fixed words (hourly rolls of 2d6 only), made once for many hours."""
    w = dice.count
    if lowest is None:
        lowest = min(sum(faces[i : i + w]) for i in range(0, len(faces), w))
    if words is not None and each == 1 and words.target == drowned_on and TallyWords.fits(dice):
        # a quiet hour of a batch: the fields Roll's __init__ would set, made directly
        fast: DrowningTally = object.__new__(DrowningTally)
        fast.__dict__.update(
            label=label,
            dice=words.shown,
            faces=faces,
            natural=lowest,
            modifiers=[],
            boon_faces=[],
            boon=0,
            boon_reasons=[],
            total=lowest,
            target=drowned_on,
            compare="<=",
            target_text=None,
            success=False,
            outcome=f"nobody drowns (lowest {lowest})",
            probability=words.chance,
            whos=whos,
            each=1,
            _words=words,
        )
        return fast
    made = DrowningTally(
        label=label,
        dice=str(Dice(dice.count, dice.sides)),
        faces=faces,
        natural=lowest,
        modifiers=[Modifier(dice.bonus, "flat")] if dice.bonus else [],
        total=lowest + dice.bonus,
        target=drowned_on,
        compare="<=",
        success=False,
        outcome=f"nobody drowns (lowest {lowest + dice.bonus})",
        probability=_drowning_odds(dice, drowned_on),  # of each roll
    )
    made.whos, made.each = whos, each
    return made


_LABEL = "@@drowning-label@@"


@functools.lru_cache(maxsize=1024)
def _drowning_template(faces: tuple[int, ...], drowned_on: int, dice: str) -> tuple[str, ...]:
    parsed = _drowning_dice(dice)  # the plain dice ("2d6"): no bonus (see to_json)
    natural = sum(faces)
    drowns = natural <= drowned_on
    plain = Roll(
        label=_LABEL,
        dice=dice,
        faces=list(faces),
        natural=natural,
        total=natural,
        target=drowned_on,
        compare="<=",
        success=drowns,
        outcome="drowns" if drowns else "stays afloat",
        probability=_drowning_odds(parsed, drowned_on),
    ).to_json()
    parts = tuple(plain.split(_LABEL))
    assert len(parts) == 3, plain  # the label, then the line that starts with it
    return parts


@functools.lru_cache(maxsize=4096)
def _json_text(text: str) -> str:
    """A string as it reads inside JSON quotes."""
    return json.dumps(text)[1:-1]


@functools.lru_cache(maxsize=8)
def _drowning_dice(expression: str) -> Dice:
    return parse(expression)


@functools.lru_cache(maxsize=64)
def _drowning_odds(dice: Dice, drowned_on: int) -> Fraction:
    return odds(Dice(dice.count, dice.sides), dice.bonus, drowned_on, "<=")


def escape_roll(roller: Roller, below_deck: bool, book: RuleBook, who: str) -> Roll:
    """R71: one person's escape from a ship going down: below deck 1-2 on d6, above deck 3+
    on 2d6 (Boats in Car Wars). Success means the person gets out."""
    w = water_rules(book)
    if below_deck:
        x = int(w["below_deck_in_6"])
        return roller.chance(
            f"escape below deck ({who})", x, success="escapes", failure="goes down with her"
        )
    above = w["above_deck"]
    return roller.roll(
        f"escape above deck ({who})",
        str(above["dice"]),
        target=int(above["target"]),
        success="escapes",
        failure="goes down with her",
    )


def escape_odds(below_deck: bool, book: RuleBook) -> Fraction:
    """The exact chance of one R71 escape roll."""
    w = water_rules(book)
    if below_deck:
        return Fraction(int(w["below_deck_in_6"]), 6)
    d = parse(str(w["above_deck"]["dice"]))
    return odds(Dice(d.count, d.sides), d.bonus, int(w["above_deck"]["target"]), ">=")


def raft_launch(roller: Roller, book: RuleBook, number: int) -> Roll:
    """R71 (our reading): in a sudden sinking each raft is launched on a 4-in-6."""
    return roller.chance(
        f"raft {number} launched",
        int(water_rules(book)["raft_launch_in_6"]),
        success="launched",
        failure="goes down with her",
    )


def search_raft(roller: Roller, book: RuleBook, raft: str) -> Roll:
    """R74: a ship without a radio finds a raft in her hex on a 3-in-6 each hour."""
    return roller.chance(
        f"search for {raft}",
        int(water_rules(book)["search_raft_in_6"]),
        success="found",
        failure="not seen",
    )


def search_person(roller: Roller, book: RuleBook, night: bool, who: str) -> Roll:
    """R74: a person in the water is found on a 2-in-6 by day, 1-in-6 by night."""
    w = water_rules(book)
    x = int(w["search_person_night_in_6" if night else "search_person_day_in_6"])
    return roller.chance(f"search for {who}", x, success="found", failure="not seen")


def raft_load_category(people: int, book: RuleBook) -> str:
    """R73: a raft's load category, 10 hlbs a person against a Tier I Deadweight."""

    tier = int(water_rules(book)["raft_tier"])
    return load_category_for(people * int(book.load["person_weight"]), book.deadweight(tier), book)


def storm_interval(state: str, book: RuleBook) -> int:
    """R32/R60: the same-hex capsize interval in hours for a sea state (6 in stormy seas, 3
    in a major storm, 1 in a hurricane: tables/climates.yaml ``sea_states``)."""
    return sea_state_rules(book)[SEA_STATES.index(state)].hours_in_same_hex


def storm_disadvantages(state: str, book: RuleBook) -> list[str]:
    """R60: the capsize Check's Disadvantages in a sea state (a major storm one, a hurricane
    two)."""
    return [state] * sea_state_rules(book)[SEA_STATES.index(state)].disadvantages
