"""Type stubs for ``_draws.pyx``: the signatures of its pure-Python twin ``_draws_py.py``
(``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.resample._draws_py import resample_sums as resample_sums
