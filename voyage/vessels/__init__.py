"""The vessels: ships rolled from the class tables, boats built from parts and
submersibles, behind one set of figures the rules ask for.

Imports the layers below: base, dice, tables, map.
"""
