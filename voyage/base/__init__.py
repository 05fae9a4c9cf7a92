"""Words, numbers, files and signals every layer may use: errors, text, tiers, paths.

Imports nothing else of voyage.
"""
