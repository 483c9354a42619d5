"""Significance tests in C: NumPy's resampling draws counted per segment, libm over arrays."""
