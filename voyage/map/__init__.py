"""Hex geometry and the sea map: names, neighbours, routes, terrain, currents, depths,
weather regions and the storms a referee places by hand.

Imports voyage.base, voyage.dice and voyage.tables.
"""
