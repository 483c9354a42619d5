"""Integer sufficient statistics of BLEU, one row per segment: ``BLEUStats`` (defined in
``turbobleu._engine.stats``, which the engine fills)."""

from turbobleu._engine.stats import BLEUStats

__all__ = ["BLEUStats"]
