"""The tokenizers' compiled module or its twin (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import loaded

tokenize = loaded("text._tokenize")
