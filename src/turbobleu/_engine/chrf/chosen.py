"""chrF's compiled module or its twin (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

chrf_counts = on_first_use("chrf._chrf", "chrF / chrF++ n-gram counting and scores")
