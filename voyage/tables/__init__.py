"""The rule tables as data: loading and checking every YAML table into one RuleBook, and the
calendars they define.

Imports voyage.base and voyage.dice.
"""
