"""Type stubs for ``_resample.pyx``: the signatures of its pure-Python twin ``_resample_py.py``
(``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.resample._resample_py import bounded_integers as bounded_integers
from turbobleu._engine.resample._resample_py import libm_map as libm_map
from turbobleu._engine.resample._resample_py import resample_counts as resample_counts
