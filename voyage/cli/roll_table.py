"""The machinery under `voyage roll` (voyage/cli/roll.py): the shared options, the table a
roll is made at (a campaign's dice, or a seed of its own), and the report of odds, roll and
meaning. Only click and the standard library at module level, as for every command module."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, TypeVar

import click

from voyage.cli.common import (
    NOTE,
    SEED,
    SHIP,
    Choice,
    FilePath,
    core_errors,
    db_option,
    emit_json,
    json_option,
)

F = TypeVar("F", bound=Callable[..., Any])

ZONES = ("none", "secondary", "lethal")
LOADS = ("quarter", "half", "full", "overloaded")
SEABEDS = ("sandy", "rocky", "wreckage", "ruins")


# ----------------------------------------------------------------------------- options


def _seed_options(func: F) -> F:
    func = click.option(
        "--seed",
        type=SEED,
        default=None,
        help="Seed for a roll without a campaign ship (default: a fresh seed, printed).",
    )(func)
    func = click.option(
        "--tables",
        type=FilePath(file_okay=False),
        default=None,
        expose_value=False,
        callback=_keep_tables,
        help="Folder of house-rule tables replacing the built-in ones, file by file "
        "(rolls without a campaign ship; a ship uses its campaign's tables).",
    )(func)
    func = db_option(func)
    return json_option(func)


def _keep_tables(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    ctx.meta["voyage.roll.tables"] = value


def _check_options(func: F) -> F:
    """R1/R2 options for Checks made without a campaign (a campaign ship uses its settings)."""
    func = click.option(
        "--advantage-mode",
        type=Choice(["boons", "2d20"]),
        default=None,
        help="R2: Advantage as boons (d6s, keep highest) or 2d20 keep higher/lower.",
    )(func)
    return click.option(
        "--natural-rolls/--no-natural-rolls",
        default=None,
        help="R1: a natural 20 always succeeds, a natural 1 always fails.",
    )(func)


def _ship_argument(func: F) -> F:
    return click.argument("ship", type=SHIP, required=False)(func)


def _tier_option(func: F) -> F:
    return click.option("--tier", default=None, help="Ship Tier, I-X or 1-10 (else the SHIP's).")(
        func
    )


def _load_option(func: F) -> F:
    return click.option(
        "--load",
        "load_name",
        type=Choice(LOADS, case_sensitive=False),
        default=None,
        help="Load category (else the SHIP's).",
    )(func)


def _trait_option(func: F) -> F:
    return click.option(
        "--trait",
        "traits",
        multiple=True,
        help="A Trait that applies (repeatable; else the SHIP's), e.g. --trait Steady.",
    )(func)


def _situational(func: F) -> F:
    func = click.option(
        "--disadvantage",
        "disadvantages",
        type=NOTE,
        multiple=True,
        metavar="REASON",
        help="A situational disadvantage, with its reason (repeatable).",
    )(func)
    return click.option(
        "--advantage",
        "advantages",
        type=NOTE,
        multiple=True,
        metavar="REASON",
        help="A situational advantage, with its reason (repeatable).",
    )(func)


def _zone_option(default: str, what: str) -> Callable[[F], F]:
    return click.option(
        "--zone",
        type=Choice(ZONES, case_sensitive=False),
        default=default,
        show_default=True,
        help=f"Where the ship is in the Explosion: {what}.",
    )


def _apply_option(what: str) -> Callable[[F], F]:
    """``--apply``: carry the result into the SHIP's voyage; ``what`` says what changes."""
    return click.option(
        "--apply",
        "apply_",
        is_flag=True,
        help=f"Carry the result into the SHIP's voyage ({what}), logged and undoable with "
        "the roll. The SHIP must be at sea: a ship in port is refused (sail first).",
    )


# ----------------------------------------------------------------------------- the table


class _Table:
    """What a roll needs: the rule book, the dice, the ship if one was named."""

    def __init__(
        self,
        db_path: str,
        ship_name: str | None,
        seed: int | None,
        natural: bool | None = None,
        mode: str | None = None,
        apply: str | None = None,
    ) -> None:
        """``apply`` names the procedure whose result --apply carries into the SHIP's
        voyage (checked here, before any dice fall)."""
        from voyage.dice.roller import CheckOptions, Roller
        from voyage.tables.rulebook import load_rulebook

        self.camp: Any = None
        self.ship: Any = None
        self.seed: int | None = None
        self.applying: str | None = None
        self.state: Any = None
        self.applied: Any = None
        self.act: Any = None
        tables = click.get_current_context().meta.get("voyage.roll.tables")
        if apply and not ship_name:
            raise click.UsageError(
                "--apply needs a SHIP of the campaign: it changes that ship's voyage"
            )
        if ship_name:
            # name what was read as a SHIP: `--storm major` reads 'major' as one
            read_as = f" (and {ship_name!r} was read as a SHIP)"
            if tables is not None:
                raise click.UsageError(
                    f"--tables is for rolls without a ship{read_as}: a campaign ship uses "
                    "its campaign's tables"
                )
            if seed is not None:
                raise click.UsageError(
                    f"--seed is for rolls without a ship{read_as}: a campaign ship "
                    "rolls with the campaign's dice"
                )
            from voyage.cli.common import open_campaign

            self.camp = open_campaign(db_path)
            self.ship = self.camp.get_ship(ship_name)
            self.book = self.camp.rulebook
            options = self.camp.check_options()
            if natural is not None or mode is not None:
                raise click.UsageError(
                    "--natural-rolls and --advantage-mode are for rolls "
                    "without a ship: the campaign's settings apply"
                )
            self.options = options
            self.roller: Any = None
            if apply:
                self.apply_to(apply)
        else:
            self.book = load_rulebook(tables)
            defaults = self.book.option_defaults()
            self.options = CheckOptions(
                natural=bool(defaults["natural_rolls"] if natural is None else natural),
                advantage_mode=(mode or defaults["advantage_mode"]),  # type: ignore[arg-type]
            )
            self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
            self.roller = Roller(self.seed, self.options)

    # -- the ship's figures, unless stated --------------------------------------------
    def tier(self, stated: str | None) -> int:
        from voyage.base.tiers import parse_tier

        if stated is not None:
            return parse_tier(stated, "--tier")
        if self.ship is None:
            raise click.UsageError("give --tier (or name a SHIP of the campaign)")
        return int(self.ship.tier)

    def load(self, stated: str | None) -> str:
        if stated is not None:
            return stated.lower()
        if self.ship is None:
            raise click.UsageError("give --load quarter|half|full|overloaded (or name a SHIP)")
        from voyage.vessels.ships import load_category

        return load_category(self.ship, self.book, self.camp.water_in_load)

    def traits(self, stated: tuple[str, ...], *flags: tuple[bool, str]) -> list[str]:
        for name in stated:  # a misspelt --trait is refused even where no rule reads it
            self.book.trait(name)
        names = list(stated) if stated or self.ship is None else list(self.ship.traits)
        for on, name in flags:
            if on and name.lower() not in {n.lower() for n in names}:
                names.append(name)
        return names

    def speed(self, stated: int | None, what: str = "--speed", cruising: bool = False) -> int:
        """The stated speed, else the ship's travelling speed at her pace (or, with
        ``cruising``, her Speed before any strain: what R14's limit is measured from)."""
        if stated is not None:
            return stated
        if self.ship is None:
            raise click.UsageError(f"give {what} (or name a SHIP of the campaign)")
        from voyage.vessels.ships import cruising_speed, speed

        # R81: a built boat's speed in mph serves as knots (whole knots for the dice)
        if cruising:
            return math.floor(cruising_speed(self.ship, self.book, self.camp.water_in_load))
        return math.floor(speed(self.ship, self.book, water_in_load=self.camp.water_in_load))

    def crew(self, stated: int | None) -> int:
        if stated is not None:
            return stated
        if self.ship is None:
            raise click.UsageError("give --crew (or name a SHIP of the campaign)")
        return int(self.ship.crew)

    def firehose(self, stated: bool | None) -> bool:
        if stated is not None:
            return stated
        return bool(self.ship is not None and self.ship.equipment.get("firehose"))

    def water_and_deadweight(self, tier: int) -> tuple[float, float]:
        """Water aboard and Deadweight: the SHIP's, else none aboard and the Tier's (R10)."""
        if self.ship is None:
            return 0, self.book.deadweight(tier)
        from voyage.vessels.ships import deadweight

        return self.ship.water, deadweight(self.ship, self.book)

    def maybe_load(self, stated: str | None) -> str | None:
        if stated is None and self.ship is None:
            return None
        return self.load(stated)

    # -- applying ------------------------------------------------------------------------
    def apply_to(self, procedure: str) -> Any:
        """Check (before any dice fall) that ``procedure``'s result can be carried into the
        SHIP's voyage; its state now (a one-line refusal if she is not at sea, ...)."""
        from voyage.actions.apply import voyage_for_apply

        self.applying = procedure
        self.state = voyage_for_apply(self.camp, self.ship.name, procedure)
        self.ship = self.state.ship
        return self.state

    @property
    def already_sinking(self) -> bool:
        """Whether the voyage the result is applied to is sinking already (no new time)."""
        return self.state is not None and self.state.sinking_in is not None

    def carry(self, results: list[Any]) -> None:
        """With --apply, change the SHIP's voyage by ``results`` inside the roll's action."""
        if self.applying is None:
            return
        from voyage.actions.apply import apply_roll

        self.state, events = apply_roll(self.camp, self.act, self.ship.name, self.applying, results)
        self.applied = events

    # -- rolling -------------------------------------------------------------------------
    @contextmanager
    def rolling(self, procedure: str) -> Iterator[Any]:
        """Yield the roller; with a campaign ship, as one action whose rolls are logged
        (with --apply, :meth:`carry` changes the voyage inside the same action)."""
        if self.camp is None:
            yield self.roller
            return
        from voyage.actions.apply import logged_roll

        applying = self.applying is not None
        with logged_roll(self.camp, self.ship.name, procedure, applying) as (act, roller):
            self.act = act
            yield roller


def _chance(what: str, p: Fraction) -> dict[str, Any]:
    return {"what": what, "chance": float(p), "fraction": f"{p.numerator}/{p.denominator}"}


def _report(
    table: _Table,
    procedure: str,
    inputs: dict[str, Any],
    odds: list[dict[str, Any]],
    results: list[Any],
    as_json: bool,
    notes: tuple[str, ...] = (),
    extra: dict[str, Any] | None = None,
) -> None:
    """Print the odds, each result's roll lines and meaning, and how to repeat the roll.

    ``notes`` are printed under the header; ``extra`` keys are added to the JSON record.
    """
    if as_json:
        record = {
            "procedure": procedure,
            "ship": table.ship.name if table.ship is not None else None,
            "seed": table.seed,
            "inputs": inputs,
            "odds": odds,
            "results": [r.to_dict() for r in results],
        }
        if table.applied is not None:
            from voyage.actions.apply import state_summary

            record["applied"] = {
                "events": [e.to_dict() for e in table.applied],
                "state": state_summary(table.state),
            }
        emit_json({**record, **(extra or {})})
        return
    from voyage.dice.roller import percent

    header = _describe(inputs)
    if table.ship is not None:
        click.echo(f"{table.ship.name}: {header}")
    elif header:
        click.echo(header)
    for note in notes:
        click.echo(note)
    shown = [c for c in odds if c["chance"] > 0] or odds
    for chance in shown:
        click.echo(
            f"chance {chance['what']}: {percent(Fraction(chance['fraction']))} "
            f"({chance['fraction']})"
        )
    for result in results:
        for roll in result.rolls:
            click.echo(f"  {roll.line()}")
        click.echo(result.text)
    if table.seed is not None:
        click.echo(f"seed {table.seed} (repeat with --seed {table.seed})")
    elif table.applied is not None:
        from voyage.actions.apply import state_line

        s = table.state
        click.echo(f"applied to {s.ship.name}'s voyage {s.voyage_id}: {state_line(s)}")
        click.echo(
            "rolled with the campaign's dice; roll and effect logged as one action "
            "(`voyage undo` takes both back)"
        )
    else:
        # kept in the table `rolls`, not in `voyage log`, which tells her voyages: say where
        click.echo(
            "rolled with the campaign's dice and kept with its rolls (an action in "
            "`voyage history`: `voyage undo` takes it back); nothing changed aboard, "
            "and her log shows a roll only with --apply"
        )


def _describe(inputs: dict[str, Any]) -> str:
    """The stated figures as a short line: ``Tier IV, Half Load, traits: Steady``."""
    from voyage.base.tiers import roman

    parts = []
    for key, value in inputs.items():
        if value in (None, [], "", False, "none"):
            continue
        if key == "tier":
            parts.append(f"Tier {roman(value)}")
        elif key == "load":
            parts.append(f"{str(value).capitalize()} Load")
        elif isinstance(value, list):
            parts.append(f"{key.replace('_', ' ')}: {', '.join(value)}")
        elif value is True:
            parts.append(key.replace("_", " "))
        else:
            parts.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(parts)


def _then_sinking(table: _Table, roller: Any, tier: int, load: str | None, first: Any) -> list[Any]:
    """A ship that begins sinking: roll how long it has (R40), when its Load is known."""
    if not first.changes.get("sinking") or load is None or table.already_sinking:
        return [first]
    from voyage.rules.sinking import sinking_time

    return [first, sinking_time(tier, load, roller, table.book, table.ship)]


@contextmanager
def _errors() -> Iterator[None]:
    with core_errors():
        yield
