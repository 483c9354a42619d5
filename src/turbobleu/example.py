"""Score the bundled example: ``python -m turbobleu.example``.

Prints the corpus BLEU of eight hypothesis sentences against their references, with sacrebleu's
signature, and (if sacrebleu is installed) whether sacrebleu gives the identical number.
"""

from __future__ import annotations

from importlib import resources

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import List


def _lines(name: str) -> List[str]:
    text = resources.files("turbobleu").joinpath("examples", name).read_text(encoding="utf-8")
    return text.rstrip("\n").split("\n")


def main() -> None:
    import turbobleu

    hypotheses = _lines("hypotheses.txt")
    references = _lines("references.txt")
    metric = turbobleu.BLEU()
    score = metric.corpus_score(hypotheses, [references])
    print(score.format(signature=str(metric.get_signature())))
    print(f"implementation: {turbobleu.implementation}")
    try:
        import sacrebleu
    except ImportError:
        print("sacrebleu: not installed, so not compared (pip install sacrebleu to compare)")
        return
    theirs = sacrebleu.corpus_bleu(hypotheses, [references])
    verdict = "identical" if theirs.score == score.score else f"DIFFERENT ({theirs.score!r})"
    print(f"sacrebleu {sacrebleu.__version__}: {verdict}")


if __name__ == "__main__":
    main()
