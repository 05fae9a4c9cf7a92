"""The voyage clock: every ship at sea hour by hour, and minute by minute in an emergency.

Imports the layers below: base, dice, tables, map, vessels, rules, world.
"""
