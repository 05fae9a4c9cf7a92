"""The ship procedures as small pure functions (one module per family).

Each takes the plain figures it needs, a :class:`~voyage.dice.roller.Roller` and the
:class:`~voyage.tables.rulebook.RuleBook`, reads its numbers from the tables, and returns an
:class:`~voyage.dice.events.Outcome` carrying its rolls, a sentence in the rules' words and
the changes to apply. Each has a matching ``*_odds`` function giving the exact chance before
the dice fall.
"""
