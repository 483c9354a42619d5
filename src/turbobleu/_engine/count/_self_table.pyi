"""Type stubs for ``_self_table.pyx``: the signatures of its pure-Python twin ``_self_table_py.py``
(``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.count._self_table_py import (
    build_self_table as build_self_table,
)
from turbobleu._engine.count._self_table_py import (
    score_self_table as score_self_table,
)
