"""Type stubs for ``_ref_tables.pyx``: the signatures of its pure-Python twin ``_ref_tables_py.py``
(``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.count._ref_tables_py import (
    build_ref_tables as build_ref_tables,
)
from turbobleu._engine.count._ref_tables_py import (
    group_capacity_of as group_capacity_of,
)
from turbobleu._engine.count._ref_tables_py import (
    score_ref_tables as score_ref_tables,
)
