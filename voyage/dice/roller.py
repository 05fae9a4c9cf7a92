"""The roller: every random outcome in voyage goes through here.

One :class:`Roller` per campaign, seeded, with its state saved in the campaign (R5), so the
same seed and the same commands give the same rolls. Every roll returns a :class:`Roll`
record (R4): what was rolled, the faces, the modifiers with their reasons, the target and the
outcome, plus the exact chance of success it had before the dice fell. A record prints as one
line a referee can check by hand::

    capsize check: d20=11 +3 (Tier III) +2 (Half) = 16 vs DV 16: holds

Parsing (:func:`parse`), exact odds (:func:`distribution`, :func:`odds`) and rolling
(:class:`Roller`) are kept apart, as in d20.
"""

from __future__ import annotations

import base64
import json
import random
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from voyage.base.errors import VoyageError

#: The log's JSON encoding (voyage.engine.clock.dumps uses the same settings).
_LOG_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))

Compare = Literal[">=", ">", "<", "<="]
AdvantageMode = Literal["boons", "2d20"]

MAX_DICE = 100
MAX_SIDES = 1000

# re.ASCII: only 0-9 are digits (\d would read other scripts' digits as numbers); at most
# nine digits each, so a runaway number in a house table is refused, not converted
_EXPR = re.compile(r"^\s*(\d{0,9})\s*[dD]\s*(\d{1,9})\s*(?:([+-])\s*(\d{1,9}))?\s*$", re.ASCII)
_CONST = re.compile(r"^\s*([+-]?\d{1,9})\s*$", re.ASCII)


class DiceError(VoyageError):
    """A dice expression cannot be parsed or is too big to roll."""


@dataclass(frozen=True)
class Dice:
    """A parsed dice expression NdM+K."""

    count: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        text = f"{self.count if self.count != 1 else ''}d{self.sides}" if self.count else ""
        if self.bonus:
            text += f"{self.bonus:+d}" if text else str(self.bonus)
        return text or "0"


@lru_cache(maxsize=1024)
def parse(expression: str) -> Dice:
    """Parse ``NdM``, ``dM``, ``NdM+K``, ``NdM-K`` or a plain number into :class:`Dice`."""
    match = _EXPR.match(expression)
    if match:
        count = int(match.group(1)) if match.group(1) else 1
        sides = int(match.group(2))
        bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if not 1 <= count <= MAX_DICE:
            raise DiceError(f"dice expression {expression!r}: roll between 1 and {MAX_DICE} dice")
        if not 2 <= sides <= MAX_SIDES:
            raise DiceError(
                f"dice expression {expression!r}: a die has between 2 and {MAX_SIDES} sides"
            )
        return Dice(count, sides, bonus)
    match = _CONST.match(expression)
    if match:
        return Dice(0, 0, int(match.group(1)))
    raise DiceError(f"dice expression {expression!r}: write it like d20, 3d6 or 2d6+1")


@dataclass(frozen=True)
class Modifier:
    """A number added to a roll, with the rule or reason for it (R4)."""

    value: int
    reason: str

    def text(self) -> str:
        return f"{self.value:+d} ({self.reason})"


# ----------------------------------------------------------------------------- exact odds


@lru_cache(maxsize=512)
def _sum_distribution(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    dist: dict[int, Fraction] = {0: Fraction(1)}
    face = Fraction(1, sides)
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for f in range(1, sides + 1):
                nxt[total + f] = nxt.get(total + f, Fraction(0)) + p * face
        dist = nxt
    return tuple(sorted(dist.items()))


def _best_of(count: int, sides: int) -> dict[int, Fraction]:
    """Distribution of the highest of ``count`` dice: P(max = m) = (m^k - (m-1)^k) / s^k."""
    return {m: Fraction(m**count - (m - 1) ** count, sides**count) for m in range(1, sides + 1)}


def _worst_of(count: int, sides: int) -> dict[int, Fraction]:
    return {
        m: Fraction((sides - m + 1) ** count - (sides - m) ** count, sides**count)
        for m in range(1, sides + 1)
    }


def _combine(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def distribution(
    dice: Dice | str, advantage: int = 0, mode: AdvantageMode = "boons"
) -> dict[int, Fraction]:
    """Exact distribution of the natural total of ``dice`` with ``advantage`` net boons (R2).

    Positive ``advantage`` adds the highest of that many d6, negative subtracts it; in
    ``2d20`` mode n net Advantages (Disadvantages) roll n + 1 of the die and keep the
    highest (lowest) instead.
    """
    d = parse(dice) if isinstance(dice, str) else dice
    if d.count == 0:
        return {d.bonus: Fraction(1)}
    if advantage and mode == "2d20" and d.count == 1:
        kept = abs(advantage) + 1
        base = _best_of(kept, d.sides) if advantage > 0 else _worst_of(kept, d.sides)
    else:
        base = dict(_sum_distribution(d.count, d.sides))
        if advantage:
            boon = _best_of(abs(advantage), 6)
            if advantage < 0:
                boon = {-k: p for k, p in boon.items()}
            base = _combine(base, boon)
    return {k + d.bonus: p for k, p in base.items()} if d.bonus else base


def meets(total: int, target: int, compare: Compare) -> bool:
    """Whether ``total`` succeeds against ``target`` under ``compare``."""
    if compare == ">=":
        return total >= target
    if compare == ">":
        return total > target
    if compare == "<":
        return total < target
    if compare == "<=":
        return total <= target
    raise DiceError(f"unknown comparison {compare!r}")


@lru_cache(maxsize=4096)
def odds(
    dice: Dice | str,
    modifier: int,
    target: int,
    compare: Compare = ">=",
    advantage: int = 0,
    mode: AdvantageMode = "boons",
    natural: bool = False,
) -> Fraction:
    """Exact chance that ``dice + modifier`` (with boons) succeeds against ``target``.

    Cached: the voyage engine asks the same few questions thousands of times a year.

    With ``natural`` (the R1 option, d20 Checks only) a natural 20 always succeeds and a
    natural 1 always fails.
    """
    d = parse(dice) if isinstance(dice, str) else dice
    if natural and d.count == 1 and d.sides == 20 and not d.bonus:
        return _natural_odds(modifier, target, compare, advantage, mode)
    return sum(
        (
            p
            for total, p in distribution(d, advantage, mode).items()
            if meets(total + modifier, target, compare)
        ),
        Fraction(0),
    )


def _natural_odds(
    modifier: int, target: int, compare: Compare, advantage: int, mode: AdvantageMode
) -> Fraction:
    if advantage and mode == "2d20":  # R2: n + 1 d20, the highest (lowest) kept
        kept = abs(advantage) + 1
        d20 = _best_of(kept, 20) if advantage > 0 else _worst_of(kept, 20)
        boon: dict[int, Fraction] = {0: Fraction(1)}
    else:
        d20 = {f: Fraction(1, 20) for f in range(1, 21)}
        boon = {0: Fraction(1)}
        if advantage:
            best = _best_of(abs(advantage), 6)
            boon = {(k if advantage > 0 else -k): p for k, p in best.items()}
    total = Fraction(0)
    for face, p in d20.items():
        for b, q in boon.items():
            if face == 20:
                ok = True
            elif face == 1:
                ok = False
            else:
                ok = meets(face + b + modifier, target, compare)
            if ok:
                total += p * q
    return total


def percent(p: Fraction) -> str:
    """A probability for people: ``58.3%``."""
    value = float(p) * 100
    if value in (0, 100):
        return f"{value:.0f}%"
    return f"{value:.1f}%"


# ----------------------------------------------------------------------------- records


@dataclass
class Roll:
    """One roll as it happened (R4). ``success`` is None for rolls with no target."""

    label: str
    dice: str
    faces: list[int]
    natural: int
    modifiers: list[Modifier] = field(default_factory=list)
    boon_faces: list[int] = field(default_factory=list)
    boon: int = 0
    boon_reasons: list[str] = field(default_factory=list)
    total: int = 0
    target: int | None = None
    compare: Compare | None = None
    target_text: str | None = None
    success: bool | None = None
    outcome: str = ""
    probability: Fraction | None = None

    @property
    def expression(self) -> str:
        """What was rolled, with its modifiers summed: ``d20+5``."""
        mods = sum(m.value for m in self.modifiers)
        text = self.dice
        if self.boon_faces:
            text += f"{'+' if self.boon >= 0 else '-'}{len(self.boon_faces)}d6kh1"
        if mods:
            text += f"{mods:+d}"
        return text

    def line(self) -> str:
        """The roll as one readable line."""
        faces = "+".join(str(f) for f in self.faces) if self.faces else ""
        if len(self.faces) > 1 and "kh" not in self.dice and "kl" not in self.dice:
            faces += f"={self.natural}"
        elif "kh" in self.dice or "kl" in self.dice:
            faces = ",".join(str(f) for f in self.faces) + f"\u2192{self.natural}"
        parts = [f"{self.dice}={faces}" if self.dice else str(self.natural)]
        if self.boon_faces:
            sign = "+" if self.boon >= 0 else "-"
            word = "boon" if self.boon >= 0 else "bane"
            why = "; ".join(self.boon_reasons)
            shown = ",".join(str(f) for f in self.boon_faces)
            parts.append(f"{sign}{abs(self.boon)} ({word} {len(self.boon_faces)}d6={shown}: {why})")
        parts.extend(m.text() for m in self.modifiers)
        text = " ".join(parts)
        if self.modifiers or self.boon_faces:
            text += f" = {self.total}"
        if self.target is not None:
            text += f" {self.target_text or default_target_text(self.target, self.compare)}"
        if self.outcome:
            text += f": {self.outcome}"
        return f"{self.label}: {text}"

    def __str__(self) -> str:
        return self.line()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record with stable field names."""
        return {
            "label": self.label,
            "expression": self.expression,
            "dice": self.dice,
            "faces": list(self.faces),
            "natural": self.natural,
            "boon_faces": list(self.boon_faces),
            "boon": self.boon,
            "boon_reasons": list(self.boon_reasons),
            "modifiers": [{"value": m.value, "reason": m.reason} for m in self.modifiers],
            "total": self.total,
            "target": self.target,
            "compare": self.compare,
            "success": self.success,
            "outcome": self.outcome,
            "probability": None if self.probability is None else float(self.probability),
            "line": self.line(),
        }

    def to_json(self) -> str:
        """The record as the log stores it: :meth:`to_dict` in compact JSON with sorted keys,
        exactly the bytes of ``voyage.engine.clock.dumps(roll.to_dict())`` (so a list of records
        joins byte for byte), built directly: an advance encodes tens of thousands of rolls.
        Anything of an unexpected type is left to the JSON encoder."""
        try:
            return _roll_json(self)
        except _Unusual:
            return _LOG_JSON.encode(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        """Rebuild a record saved with :meth:`to_dict`."""
        prob = data.get("probability")
        return cls(
            label=data["label"],
            dice=data["dice"],
            faces=list(data["faces"]),
            natural=data["natural"],
            modifiers=[Modifier(m["value"], m["reason"]) for m in data.get("modifiers", [])],
            boon_faces=list(data.get("boon_faces", [])),
            boon=data.get("boon", 0),
            boon_reasons=list(data.get("boon_reasons", [])),
            total=data["total"],
            target=data.get("target"),
            compare=data.get("compare"),
            success=data.get("success"),
            outcome=data.get("outcome", ""),
            probability=None if prob is None else Fraction(prob).limit_denominator(10**9),
        )


def rolls_json(rolls: list[Roll]) -> str:
    """An event's rolls as the log stores them: the bytes of ``dumps([r.to_dict() ...])``,
    each record as :meth:`Roll.to_json` writes it (a drowning roll from a template,
    voyage.rules.water); most events have one roll, whose record is made here directly."""
    if not rolls:
        return "[]"
    if type(rolls) is list and len(rolls) == 1:
        r = rolls[0]
        if type(r) is not Roll:
            return "[" + r.to_json() + "]"  # a kind of roll may write its own (voyage.rules.water)
        try:
            return "[" + _roll_json(r) + "]"
        except _Unusual:
            return "[" + _LOG_JSON.encode(r.to_dict()) + "]"
    return "[" + ",".join([r.to_json() for r in rolls]) + "]"


def default_target_text(target: int, compare: Compare | None) -> str:
    if compare == ">=":
        return f"vs DV {target}"
    if compare == ">":
        return f"needs over {target}"
    if compare == "<":
        return f"needs under {target}"
    if compare == "<=":
        return f"needs {target} or less"
    return f"vs {target}"


# ----------------------------------------------------------------------------- the roller


@dataclass
class CheckOptions:
    """Campaign options for Checks: R1 natural 20/1, R2 advantage as boons or 2d20."""

    natural: bool = False
    advantage_mode: AdvantageMode = "boons"


#: A record made field by field (roll(), check() and chance() make 32,000 a year): an
#: instance of Roll with no fields, its fields then set in the order Roll's __init__ sets
#: them, so it is the record Roll(...) gives, attribute order included
#: (tests/test_rollrecords.py compares), without the call of a 15-argument __init__
_new = object.__new__
#: :meth:`Roller.roll`'s dice expressions, parsed: the bare dice, count, sides, bonus, text
_PARSED: dict[str, tuple[Dice, int, int, int, str]] = {}
#: :meth:`Roller.roll`'s exact odds by (bare dice, bonus, modifier, target, compare)
_ODDS: dict[tuple[str, int, int, int, str], Fraction] = {}
#: :meth:`Roller.check`'s exact odds by (DV, modifier, net Advantages, mode, natural rule)
_CHECK_ODDS: dict[tuple[int, int, int, str, bool], Fraction] = {}
#: :meth:`Roller.chance`'s dice text, target text, odds and the bits of its die by (x, sides)
_CHANCES: dict[tuple[int, int], tuple[str, str | None, Fraction | None, int]] = {}


class Roller:
    """A seeded source of dice for one campaign; its state can be saved and restored (R5)."""

    def __init__(self, seed: int | str | None = 0, options: CheckOptions | None = None) -> None:
        self._random = random.Random(seed)
        self.options = options or CheckOptions()
        self.records: list[Roll] = []

    # -- state ---------------------------------------------------------------------------
    def get_state(self) -> str:
        """The generator state as text, to save with the campaign: ``mt3:`` and the 625
        words of the Mersenne Twister in base64, then ``:`` and the cached Gaussian (empty
        when none). Half the size of the JSON list of numbers it replaces, which matters
        because the undo journal keeps the old state of every action that rolled."""
        version, internal, gauss = self._random.getstate()
        words = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode()
        return f"mt{version}:{words}:{'' if gauss is None else repr(gauss)}"

    def set_state(self, state: str) -> None:
        """Restore a state saved with :meth:`get_state` (or the older JSON form)."""
        if state.startswith("["):
            version, internal, gauss = json.loads(state)
        else:
            tag, words, cached = state.split(":")
            raw = base64.b64decode(words)
            version = int(tag[2:])
            try:
                internal = list(struct.unpack(f"<{len(raw) // 4}I", raw))
            except struct.error as exc:
                raise ValueError(f"not a saved dice state ({exc})") from None
            gauss = float(cached) if cached else None
        self._random.setstate((version, tuple(internal), gauss))

    @classmethod
    def from_state(cls, state: str, options: CheckOptions | None = None) -> Roller:
        roller = cls(0, options)
        roller.set_state(state)
        return roller

    # -- the state in two parts (bytes per action) --------------------------------------
    def split_state(self) -> tuple[str, str]:
        """(the key, the rest): the Mersenne Twister's 624 words in base64, which change
        only when it regenerates them (once every 624 draws), and ``mt3@POS:GAUSS``, its
        place in them and the cached Gaussian, which changes with every draw. The campaign
        keeps them in two columns, so the undo journal (which keeps the old value of each
        column an action changed, and only those) keeps the 3 KB key only for the actions
        that crossed a regeneration, not for every action that rolled."""
        version, internal, gauss = self._random.getstate()
        words = base64.b64encode(struct.pack(f"<{len(internal) - 1}I", *internal[:-1])).decode()
        return words, f"mt{version}@{internal[-1]}:{'' if gauss is None else repr(gauss)}"

    @classmethod
    def from_saved(
        cls, state: str, words: str | None, options: CheckOptions | None = None
    ) -> Roller:
        """A roller from the campaign's two columns (:meth:`split_state`), or from a whole
        state (:meth:`get_state`, or the older JSON form) where ``state`` holds one."""
        if "@" not in state.split(":", 1)[0]:
            return cls.from_state(state, options)
        if words is None:
            raise ValueError("not a saved dice state (its key is missing)")
        head, cached = state.split(":", 1)
        tag, pos = head.split("@")
        return cls.from_state(f"{tag}:{_with_position(words, int(pos))}:{cached}", options)

    # -- primitives ----------------------------------------------------------------------
    def die(self, sides: int) -> int:
        """One die of ``sides`` faces (no record; use :meth:`roll` for anything shown):
        ``random.randint(1, sides)``'s own draw (rejection sampling on ``getrandbits``, as
        :meth:`dice`), inline because the engine rolls tens of thousands a year."""
        if type(sides) is not int or sides < 1:
            return self._random.randint(1, sides)
        bits = self._random.getrandbits
        k = sides.bit_length()
        r = bits(k)
        while r >= sides:
            r = bits(k)
        return r + 1

    def dice(self, sides: int, count: int) -> list[int]:
        """``count`` dice of ``sides`` faces: the very faces ``count`` calls of :meth:`die`
        give from the same stream (random.randint's own draw, rejection sampling on
        ``getrandbits``, done inline for the many rolls of people in the water, R72;
        tests/test_water_odds.py checks the two agree)."""
        bits = self._random.getrandbits
        k = sides.bit_length()
        out: list[int] = []
        for _ in range(count):
            r = bits(k)
            while r >= sides:
                r = bits(k)
            out.append(r + 1)
        return out

    def _keep(self, roll: Roll) -> Roll:
        self.records.append(roll)
        return roll

    def roll(
        self,
        label: str,
        dice: str,
        modifiers: Iterable[Modifier] = (),
        target: int | None = None,
        compare: Compare = ">=",
        success: str = "",
        failure: str = "",
        target_text: str | None = None,
        outcome: str = "",
    ) -> Roll:
        """Roll ``dice`` plus modifiers; with a target, judge success by ``compare``."""
        found = _PARSED.get(dice)
        if found is None:  # parsed once per expression (the engine rolls the same few)
            parsed = parse(dice)
            bare = Dice(parsed.count, parsed.sides)
            if len(_PARSED) >= 1024:
                _PARSED.clear()
            found = _PARSED[dice] = (
                bare,
                parsed.count,
                parsed.sides,
                parsed.bonus,
                str(bare) if parsed.count else "",
            )
        bare, count, sides, bonus, text = found
        mods = list(modifiers)
        if bonus:
            mods.insert(0, Modifier(bonus, "flat"))
        if count == 1 and type(self).die is _PLAIN_DIE:
            # one die, drawn as die() draws it (the engine's usual roll)
            bits = self._random.getrandbits
            k = sides.bit_length()
            face = bits(k)
            while face >= sides:
                face = bits(k)
            natural = face + 1
            faces = [natural]
        elif type(self).die is _PLAIN_DIE:  # several dice, as die() draws each (2d6, 3d6)
            faces = self.dice(sides, count)
            natural = sum(faces)
        else:
            die = self.die
            faces = [die(sides) for _ in range(count)]
            natural = sum(faces)
        modifier = 0  # (the sum of the whole-number modifiers, without a comprehension)
        for m in mods:
            modifier += m.value
        total = natural + modifier
        if target is None:
            how, said, shown, ok, chance = None, outcome, None, None, None
        else:
            # meets(), its two usual comparisons inline
            if compare == ">=":
                ok = total >= target
            elif compare == "<=":
                ok = total <= target
            else:
                ok = meets(total, target, compare)
            key = (text, bonus, modifier, target, compare)
            chance = _ODDS.get(key)
            if chance is None:
                if len(_ODDS) >= 4096:
                    _ODDS.clear()
                chance = _ODDS[key] = odds(bare, modifier, target, compare)
            how, said, shown = compare, (success if ok else failure) or outcome, target_text
        # Roll(label, text, faces, natural, mods, [], 0, [], total, target, how, shown, ok,
        # said, chance), its fields set in their order without the call (see _new)
        record = _new(Roll)
        record.label = label
        record.dice = text
        record.faces = faces
        record.natural = natural
        record.modifiers = mods
        record.boon_faces = []
        record.boon = 0
        record.boon_reasons = []
        record.total = total
        record.target = target
        record.compare = how
        record.target_text = shown
        record.success = ok
        record.outcome = said
        record.probability = chance
        self.records.append(record)  # (what _keep does, without the call)
        return record

    def check(
        self,
        label: str,
        dv: int,
        modifiers: Iterable[Modifier] = (),
        advantages: Sequence[str] = (),
        disadvantages: Sequence[str] = (),
        success: str = "succeeds",
        failure: str = "fails",
    ) -> Roll:
        """A Check (R1): d20 + modifiers meets or beats ``dv``; Advantages per R2."""
        mods = list(modifiers)
        net = len(advantages) - len(disadvantages)
        reasons = list(advantages) if net > 0 else list(disadvantages) if net < 0 else []
        options = self.options
        mode = options.advantage_mode
        boon_faces: list[int] = []
        boon = 0
        modifier = 0
        for m in mods:
            modifier += m.value
        if net and mode == "2d20":  # R2: n net (Dis)Advantages roll n + 1 d20
            faces = [self.die(20) for _ in range(abs(net) + 1)]
            natural = max(faces) if net > 0 else min(faces)
            dice = f"{len(faces)}d20{'kh1' if net > 0 else 'kl1'}"
        else:
            if type(self).die is _PLAIN_DIE:  # the d20 drawn inline as die() draws it
                bits = self._random.getrandbits
                natural = bits(5)
                while natural >= 20:
                    natural = bits(5)
                natural += 1
            else:
                natural = self.die(20)
            faces = [natural]
            dice = "d20"
            if net:
                boon_faces = [self.die(6) for _ in range(abs(net))]
                boon = max(boon_faces) * (1 if net > 0 else -1)
        total = natural + boon + modifier
        ok = total >= dv
        note = ""
        natural_rule = options.natural
        if natural_rule and natural == 20:
            ok, note = True, " (natural 20)"
        elif natural_rule and natural == 1:
            ok, note = False, " (natural 1)"
        key = (dv, modifier, net, mode, natural_rule)
        probability = _CHECK_ODDS.get(key)  # check_odds, memoised: the same few all year
        if probability is None and len(_CHECK_ODDS) < 4096:
            probability = _CHECK_ODDS[key] = check_odds(dv, modifier, net, options)
        two = net and mode == "2d20"
        # Roll(label, dice, faces, natural, mods, boon_faces if not two else [], boon,
        # reasons if boon_faces else [], total, dv, ">=", None, ok, outcome, odds) made
        # field by field (see _new)
        record = _new(Roll)
        record.label = label
        record.dice = dice
        record.faces = faces
        record.natural = natural
        record.modifiers = mods
        record.boon_faces = boon_faces if not two else []
        record.boon = boon
        record.boon_reasons = reasons if boon_faces else []
        record.total = total
        record.target = dv
        record.compare = ">="
        record.target_text = None
        record.success = ok
        record.outcome = (success if ok else failure) + note
        record.probability = probability or check_odds(dv, modifier, net, options)
        if two:
            record.modifiers = [*mods]
            record.outcome += f" ({'advantage' if net > 0 else 'disadvantage'}: "
            record.outcome += "; ".join(reasons) + ")"
        self.records.append(record)
        return record

    def chance(
        self, label: str, x: int, sides: int = 6, success: str = "yes", failure: str = "no"
    ) -> Roll:
        """An "x-in-6" chance (R3): one die shows ``x`` or less."""
        cls = type(self)
        terms = _CHANCES.get((x, sides))
        if terms is not None and cls.die is _PLAIN_DIE and cls.roll is _PLAIN_ROLL:
            # what roll() records for it, its one die drawn as roll() draws it (R33's
            # coast hazards); its texts and odds are the first such roll's
            text, target_text, probability, k = terms
            bits = self._random.getrandbits
            face = bits(k)
            while face >= sides:
                face = bits(k)
            natural = face + 1
            ok = natural <= x
            record = _new(Roll)  # Roll(label, text, [natural], natural, [], [], 0, [], natural,
            # x, "<=", target_text, ok, success or failure, probability), field by field
            record.label = label
            record.dice = text
            record.faces = [natural]
            record.natural = natural
            record.modifiers = []
            record.boon_faces = []
            record.boon = 0
            record.boon_reasons = []
            record.total = natural
            record.target = x
            record.compare = "<="
            record.target_text = target_text
            record.success = ok
            record.outcome = success if ok else failure
            record.probability = probability
            self.records.append(record)
            return record
        record = self.roll(label, f"d{sides}", target=x, compare="<=", success=success,
                           failure=failure, target_text=f"vs {x}-in-{sides}")  # fmt: skip
        if type(sides) is int and type(x) is int and sides > 0 and len(_CHANCES) < 256:
            _CHANCES[(x, sides)] = (record.dice, record.target_text, record.probability,
                                    sides.bit_length())  # fmt: skip
        return record

    def choose(self, label: str, options: Sequence[str]) -> tuple[str, Roll]:
        """Pick one of ``options`` with equal chance (a coin for two); the roll is recorded."""
        sides = len(options)
        if sides < 2:
            raise DiceError(f"{label}: need at least two options to choose from")
        face = self.die(sides)
        chosen = options[face - 1]
        record = Roll(
            label=label, dice=f"d{sides}", faces=[face], natural=face, total=face, outcome=chosen
        )
        return chosen, self._keep(record)


#: Roller.die as defined here: roll() and check() draw a single die inline only while a
#: roller's die is this one (a subclass's or a test's own die is called instead)
_PLAIN_DIE = Roller.die
#: Roller.roll as defined here: chance() rolls its one die itself only while it is this one
_PLAIN_ROLL = Roller.roll


def check_odds(
    dv: int, modifier: int, advantage: int = 0, options: CheckOptions | None = None
) -> Fraction:
    """Exact chance of a Check (R1, R2) with the campaign's options."""
    opts = options or CheckOptions()
    return odds("d20", modifier, dv, ">=", advantage, opts.advantage_mode, natural=opts.natural)


def _with_position(words: str, pos: int) -> str:
    """The base64 of the 624 key words with the position word appended (get_state's form)."""
    raw = base64.b64decode(words) + struct.pack("<I", pos)
    return base64.b64encode(raw).decode()


# A roll's log record written directly (Roll.to_json): the bytes of
# ``voyage.engine.clock.dumps(roll.to_dict())``, built from the parts a kind of roll shares (its
# shape, made once) and its own dice, and kept by everything it is made of (a year's 45,000
# rolls have some 1,300 distinct records). A value of an unexpected type raises _Unusual:
# Roll.to_json then leaves the record to the JSON encoder.

_STR = json.encoder.encode_basestring_ascii  # what _LOG_JSON uses for a string (ASCII)


class _Unusual(Exception):
    """A value Roll.to_json leaves to the JSON encoder."""


def _json_value(v: Any) -> str:
    """One value as _LOG_JSON writes it, for the plain types a roll holds."""
    kind = type(v)
    if kind is str:
        return _STR(v)
    if kind is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if kind is float and v - v == 0:  # finite (NaN and infinities are spelled apart)
        return float.__repr__(v)
    raise _Unusual


def _json_list(values: Iterable[Any]) -> str:
    if type(values) is list and set(map(type, values)) == {int}:
        return "[" + ",".join(map(int.__repr__, values)) + "]"  # faces: the usual case
    return "[" + ",".join(_json_value(v) for v in values) + "]"


def _int_texts(values: Any) -> list[str]:
    """The faces as text (a plain list of ints, else _Unusual): both the JSON list and the
    line are joins of these."""
    if type(values) is not list:
        raise _Unusual
    for v in values:
        if type(v) is not int:
            raise _Unusual
    return list(map(int.__repr__, values))


#: What the JSON and the line of a roll share with every roll of the same kind (label,
#: dice, modifiers, target...): built once per kind, see _roll_shape.
_SHAPES: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _roll_key(r: Roll) -> tuple[Any, ...]:
    """The parts of a roll that its shape is made of, each checked for its exact type (so
    that keys equal as Python values, 1 and True say, are also written alike)."""
    label, dice, compare, text = r.label, r.dice, r.compare, r.target_text
    if not (
        type(label) is str
        and type(dice) is str
        and (compare is None or type(compare) is str)
        and (text is None or type(text) is str)
    ):
        raise _Unusual
    mods: tuple[Any, ...] = ()
    if r.modifiers:
        pairs = []
        for m in r.modifiers:
            if type(m) is not Modifier or type(m.value) is not int or type(m.reason) is not str:
                raise _Unusual
            pairs.append((m.value, m.reason))
        mods = tuple(pairs)
    reasons: tuple[str, ...] = ()
    if r.boon_reasons:
        reasons = tuple(r.boon_reasons)
        if type(r.boon_reasons) is not list or set(map(type, reasons)) != {str}:
            raise _Unusual
    boons = len(r.boon_faces)
    return (label, dice, compare, text, r.target, mods, reasons, boons, boons and r.boon >= 0)


def _roll_shape(r: Roll, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """(JSON from boon_reasons to expression, JSON of label and modifiers, the dice as the
    line starts them, kept-dice notation, the boon's words, the modifiers' and the target's
    text in the line, whether the line shows the total, the target's JSON, the last odds)."""
    dice, target, mods, bf = r.dice, r.target, r.modifiers, r.boon_faces
    head = (
        f'"boon_reasons":{_json_list(r.boon_reasons) if r.boon_reasons else "[]"},'
        f'"compare":{"null" if r.compare is None else _STR(r.compare)},'
        f'"dice":{_STR(dice)},"expression":{_STR(r.expression)},'
    )
    mods_json = ",".join(
        f'{{"reason":{_STR(m.reason)},"value":{int.__repr__(m.value)}}}' for m in mods
    )
    middle = f',"label":{_STR(r.label)},', f',"modifiers":[{mods_json}],"natural":'
    boon = None
    if bf:
        ahead = r.boon >= 0
        boon = (
            " " + ("+" if ahead else "-"),
            f" ({'boon' if ahead else 'bane'} {len(bf)}d6=",
            f": {'; '.join(r.boon_reasons)})",
        )
    after = "".join(" " + m.text() for m in mods)
    target_text = ""
    if target is not None:
        target_text = f" {r.target_text or default_target_text(target, r.compare)}"
    kept = "kh" in dice or "kl" in dice
    shape = (
        head,
        middle,
        f"{r.label}: {dice}=" if dice else f"{r.label}: ",
        kept,
        boon,
        after,
        bool(mods or bf),
        target_text,
        "null" if target is None else int.__repr__(target),
        [None, "null"],  # the last probability seen and its JSON (see _roll_json)
    )
    if len(_SHAPES) > 4096:  # bounded: a campaign has a few hundred kinds of roll
        _SHAPES.clear()
    _SHAPES[key] = shape
    return shape


#: The records of the rolls written lately by what they are made of, with their odds
_DONE: dict[tuple[Any, ...], tuple[str, Any]] = {}


def _roll_json(r: Roll) -> str:
    """Roll.to_dict() in _LOG_JSON's bytes, keys in sorted order, and its line() inside,
    from the shape of its kind (_roll_shape) and its own dice. The plain fields are checked
    for their usual types first (a roll with anything else raises _Unusual).

    A plain Roll's record is kept by everything it is made of (a year's 45,000 rolls have
    some 1,300 distinct records). Every part of the key is checked for its exact
    type first, so equal keys are equal records (1, True and 1.0 are equal as Python
    values, not as JSON). The odds go by identity: the cache holds them (no id reused)."""
    target, success, natural, total, boon = r.target, r.success, r.natural, r.total, r.boon
    outcome = r.outcome
    if not (
        type(natural) is int
        and type(total) is int
        and type(boon) is int
        and type(outcome) is str
        and (target is None or type(target) is int)
        and (success is None or type(success) is bool)
    ):
        raise _Unusual
    cls = type(r)
    if cls is not Roll:
        if cls.expression is not Roll.expression:
            raise _Unusual  # a kind of roll that words its expression its own way
        return _roll_text(r, cls)
    faces, mods, bf, reasons = r.faces, r.modifiers, r.boon_faces, r.boon_reasons
    prob = r.probability
    if type(faces) is not list or type(bf) is not list:
        raise _Unusual
    dealt = tuple(faces)
    for v in dealt:
        if type(v) is not int:
            raise _Unusual
    if not (mods or bf or reasons) and type(mods) is list and type(reasons) is list:
        label, dice, compare, text = r.label, r.dice, r.compare, r.target_text  # a bare die
        if not (type(label) is str and type(dice) is str and (compare is None or
                type(compare) is str) and (text is None or type(text) is str)):  # fmt: skip
            raise _Unusual
        key: tuple[Any, ...] = (label, dice, compare, text, target, dealt, natural, total,
                                boon, outcome, success, id(prob))  # fmt: skip
    else:  # (the shape's key checks the label, dice, modifiers and reasons)
        shown = tuple(bf)
        for v in shown:
            if type(v) is not int:
                raise _Unusual
        key = (_roll_key(r), dealt, shown, natural, total, boon, outcome, success, id(prob))
    done = _DONE.get(key)
    if done is not None:
        return done[0]
    made = _roll_text(r, cls)
    if len(_DONE) > 8192:  # bounded: a year of ten ships writes ~1,300 distinct rolls
        _DONE.clear()
    _DONE[key] = made, prob
    return made


def _roll_text(r: Roll, cls: type[Roll]) -> str:
    """_roll_json's record made from the shape of its kind (_roll_json checks the fields)."""
    success, natural, total, boon = r.success, r.natural, r.total, r.boon
    outcome = r.outcome
    key = _roll_key(r)
    shape = _SHAPES.get(key) or _roll_shape(r, key)
    head, (label, mods), line, kept, boon_words, after, shows_total, target_text, tj, seen = shape
    faces = _int_texts(r.faces)
    bf = r.boon_faces
    shown = _int_texts(bf) if bf else []
    bf_json = "[" + ",".join(shown) + "]"
    if cls is not Roll and cls.line is not Roll.line:
        line = r.line()  # its own line (a tally of drowning rolls, voyage.rules.water)
        if type(line) is not str:
            raise _Unusual
    else:
        if not r.dice:
            line += int.__repr__(natural)  # a number without dice: the faces are not shown
        elif kept:
            line += ",".join(faces) + f"\u2192{natural}"
        elif len(faces) > 1:
            line += "+".join(faces) + f"={natural}"
        elif faces:
            line += faces[0]
        if bf:
            line += f"{boon_words[0]}{abs(boon)}{boon_words[1]}{','.join(shown)}{boon_words[2]}"
        line += after
        if shows_total:
            line += f" = {total}"
        line += target_text
        if outcome:
            line += f": {outcome}"
    prob = r.probability
    if prob is seen[0]:  # rolls of a kind mostly share one (immutable) odds object
        pj = seen[1]
    elif prob is None:
        pj = "null"
    else:
        p = float(prob)
        if type(p) is not float or p - p != 0:
            raise _Unusual
        pj = float.__repr__(p)
        seen[:] = prob, pj
    return (
        f'{{"boon":{boon},"boon_faces":{bf_json},{head}"faces":[{",".join(faces)}]{label}'
        f'"line":{_STR(line)}{mods}{natural},"outcome":{_STR(outcome)},"probability":{pj},'
        f'"success":{"null" if success is None else ("true" if success else "false")},'
        f'"target":{tj},"total":{total}}}'
    )
