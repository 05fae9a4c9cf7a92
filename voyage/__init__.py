"""voyage: a hexcrawl campaign and voyage manager for 'Our Mother, the Sea'."""

__version__ = "0.1.0"
