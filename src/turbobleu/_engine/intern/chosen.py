"""The interning module, compiled or its twin (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

interning = on_first_use("intern._intern", "Hashable tokens (NLTK, MATLAB, evaluate) -> ids, rows")
