"""Things on the map that move on their own: rafts and people in the water (R70-R74)."""
