"""TER's compiled module or its twin (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

ter_edits = on_first_use("ter._ter", "TER's edit counting (beam edit distance and shifts)")
