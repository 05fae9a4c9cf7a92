"""The world that moves on its own: weather regions, seasons, storm cells, sea states."""
