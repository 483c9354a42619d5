"""mteval-v13a's rules, the readable specification shared by sacrebleu's 13a tokenizer (the twin
``_tokenize_py``; the compiled ``_tokenize`` follows it and is tested against it) and Hugging Face
evaluate's copy of it (``turbobleu.evaluate``), which differ only in what they do around them."""

from __future__ import annotations

import re

# The language-independent part: the entities 13a unescapes, in its order.
ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

# Every ASCII punctuation mark or symbol except ' , - . gets spaces around it.
_SYMBOL = re.compile(r"([{-~\[-` -&(-+:-@/])")
_PAIR_RULES = (
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),  # . or , not preceded by a digit
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),  # . or , not followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # - preceded by a digit
)


def language_independent(line: str) -> str:
    """13a's first steps: drop ``<skipped>`` and ``-\\n``, newlines to spaces, unescape."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in ENTITIES:
            line = line.replace(entity, char)
    return line


def rules_13a(line: str) -> str:
    """13a's four regex rules (sacrebleu's post-tokenizer, shared by 13a and zh)."""
    line = _SYMBOL.sub(r" \1 ", line)
    for pattern, replacement in _PAIR_RULES:
        line = pattern.sub(replacement, line)
    return line
