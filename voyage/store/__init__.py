"""The campaign in SQLite: the only SQL in voyage. The campaign file, its migrations, the
undo journal, hour rows, the map cache.

Imports the layers below: base ... engine.
"""
