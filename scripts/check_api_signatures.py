"""Check that the built API reference shows the type hints of every signature.

mkdocstrings renders each function's and class's signature (mkdocs.yml: show_signature_annotations,
separate_signature) in a ``doc-signature`` block; each is parsed back as Python here, and every
parameter (``self`` and ``cls`` aside) must carry its annotation, every function its return type.
Without those options the signatures are bare (``f(a, b=1)``) or not in such blocks at all.

    python scripts/check_api_signatures.py [build/site/api/index.html]

scripts/build_docs.sh runs it after the build; tests/test_api_reference.py runs it on a built site.
"""

from __future__ import annotations

import ast
import html
import re
import sys
from pathlib import Path
from typing import List, Tuple

DEFAULT_PAGE = Path(__file__).resolve().parent.parent / "build" / "site" / "api" / "index.html"
# Fewer signatures than this means the page did not render them (the API has about 150).
MIN_SIGNATURES = 50

_BLOCK = re.compile(r'<div class="doc-signature highlight"><pre[^>]*>(.*?)</pre>', re.S)
_TAG = re.compile(r"<[^>]+>")
_CALLABLE = re.compile(r"^([A-Za-z_][\w.]*)\s*\(", re.S)


def signatures(page: str) -> List[str]:
    """The text of every signature block of a rendered page."""
    return [html.unescape(_TAG.sub("", block)).strip() for block in _BLOCK.findall(page)]


def missing_hints(signature: str) -> List[str]:
    """What ``signature`` (``name(params) -> type``) lacks: unannotated parameters, and the
    return type of a function (a class's signature, capitalised, has none). Attribute
    signatures (``name: type``) are not callables and lack nothing here."""
    found = _CALLABLE.match(signature)
    if found is None:
        return []
    name = found.group(1).rsplit(".", 1)[-1]
    try:
        tree = ast.parse(f"def {name}{signature[found.end() - 1 :]}: pass")
    except SyntaxError as exc:
        return [f"unparsable ({exc.msg})"]
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    every = args.posonlyargs + args.args + args.kwonlyargs
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    missing = [a.arg for a in every if a.annotation is None and a.arg not in ("self", "cls")]
    if function.returns is None and not name[:1].isupper():
        missing.append("return type")
    return missing


def check(page: str) -> Tuple[int, List[str]]:
    """The number of signatures, and a line for each one that lacks a hint."""
    found = signatures(page)
    problems = []
    for sig in found:
        gaps = missing_hints(sig)
        if gaps:
            problems.append(f"{sig.splitlines()[0][:90]}: no hint for {', '.join(gaps)}")
    if len(found) < MIN_SIGNATURES:
        problems.insert(0, f"only {len(found)} signature blocks (expected {MIN_SIGNATURES}+)")
    return len(found), problems


def main(argv: List[str]) -> int:
    page = Path(argv[1]) if len(argv) > 1 else DEFAULT_PAGE
    count, problems = check(page.read_text(encoding="utf-8"))
    if problems:
        print(f"{page}: signatures without their type hints:", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"{page}: {count} signatures, all with their type hints")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
