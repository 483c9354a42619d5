"""Type stubs for the compiled kernel ``_kernel.pyx``: the signatures of its pure-Python twin
``_kernel_py.py`` (``_engine/buffer_types.py`` says why and how they are checked), and its test
hook."""

from turbobleu._engine.count._kernel_py import count_stats as count_stats

def table_slots_of(max_order: int, hyp_len: int) -> int:
    """The slots a hypothesis of ``hyp_len`` ids gets for orders 1..max_order (a test hook)."""
