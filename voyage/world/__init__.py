"""The world that moves on its own: weather regions, seasons, storm cells, sea states;
rafts and people in the water (R70-R74)."""
