"""Hashable tokens (NLTK style) -> interned ids -> statistics rows (compiled and twin)."""
