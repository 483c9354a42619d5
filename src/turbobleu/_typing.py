"""``TYPE_CHECKING`` without importing :mod:`typing`, which costs several milliseconds of every
``import turbobleu``: type checkers take any name ``TYPE_CHECKING`` as true, the interpreter sees
False, so the ``typing`` names that modules use only in annotations are imported for the checker
alone (``from __future__ import annotations`` keeps annotations unevaluated)."""

TYPE_CHECKING = False
