"""chrF and chrF++: the character and word n-gram counts per segment (compiled ``_chrf`` and
its twin ``_chrf_py``) and the F-score recipe over them (``recipe``)."""
