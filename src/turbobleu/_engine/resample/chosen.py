"""The resampling modules, compiled or their twins (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

resample = on_first_use("resample._resample", "Bootstrap resample counts and libm over arrays")
draws = on_first_use("resample._draws", "Bootstrap resample sums without NumPy")
