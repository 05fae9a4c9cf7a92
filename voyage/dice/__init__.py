"""The roller, the records of its rolls, and the events that carry them (R4, R5).

Imports voyage.base only.
"""
