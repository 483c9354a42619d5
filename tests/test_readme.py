"""The README's promises: its test command is what CI runs, and its examples give the numbers of
the libraries they stand in for (tests/test_docs_examples.py runs every example and checks what
it prints)."""

import contextlib
import io
import re
import sys
from pathlib import Path

import turbobleu

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _bash_blocks():
    return re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_ci_runs_the_readme_test_command():
    test_command = next(b.strip() for b in _bash_blocks() if "pytest" in b)
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines


def test_the_readme_test_command_says_why_tests_skip_and_uses_every_core():
    test_command = next(b.strip() for b in _bash_blocks() if "pytest" in b)
    runs = test_command.split("python -m pytest")[1:]
    assert len(runs) == 2  # the compiled build, then the pure-Python twins
    for run in runs:
        assert " -rs " in f"{run} "
        assert "-n auto" in run
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"pytest-xdist' in pyproject.split("test = [", 1)[1].split("]", 1)[0]


def test_ci_also_runs_the_whole_wmt23_matrix():
    """The README's command checks a subset of the WMT23 matrix; CI adds the rest."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    full_runs = [line for line in ci.splitlines() if line.startswith("TURBOBLEU_TEST_FULL=1 ")]
    assert any("TURBOBLEU_IMPL=cython" in line and "pytest" in line for line in full_runs)


def test_quick_start_runs_the_bundled_example():
    quick_start = _bash_blocks()[0]
    assert "python -m turbobleu.example" in quick_start


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _run(block: str) -> dict:
    """Runs a README block (its printed lines are checked by tests/test_docs_examples.py)."""
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, "README.md", "exec"), namespace)
    return namespace


def test_bundled_example_scores_like_sacrebleu(capsys):
    import sacrebleu

    from turbobleu import example

    example.main()
    out = capsys.readouterr().out
    assert f"sacrebleu {sacrebleu.__version__}: identical" in out
    assert out.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = ")
    assert f"implementation: {turbobleu.implementation}" in out


def test_bundled_example_says_when_it_cannot_compare(capsys, monkeypatch):
    from turbobleu import example

    monkeypatch.setitem(sys.modules, "sacrebleu", None)  # `import sacrebleu` now fails
    example.main()
    assert "sacrebleu: not installed, so not compared" in capsys.readouterr().out


def test_the_tour_gives_sacrebleus_numbers():
    import sacrebleu

    ns = _run(next(b for b in _python_blocks() if "turbobleu.corpus_bleu(" in b))
    hyps, refs = ns["hyps"], ns["refs"]
    assert str(ns["score"]) == str(sacrebleu.corpus_bleu(hyps, refs))
    assert ns["score"].score == sacrebleu.corpus_bleu(hyps, refs).score
    want = sacrebleu.BLEU(references=refs)
    assert ns["bleu"].corpus_score(hyps).score == want.corpus_score(hyps, None).score
    assert str(ns["bleu"].get_signature()) == str(want.get_signature())
    assert ns["bleu"].sentence_scores(hyps, refs).tolist() == [
        sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)
    ]


def test_the_drop_in_block_is_sacrebleu_compatible():
    """Its calls, written for sacrebleu, give sacrebleu's numbers when run on sacrebleu itself."""
    import sacrebleu

    block = next(b for b in _python_blocks() if "import turbobleu.sacrebleu as sacrebleu" in b)
    ours = _run(block)
    theirs = _run(block.replace("import turbobleu.sacrebleu as sacrebleu", "import sacrebleu"))
    assert theirs["sacrebleu"] is sacrebleu
    hyps = ours["hyps"]
    assert (
        ours["bleu"].corpus_score(hyps, None).score == theirs["bleu"].corpus_score(hyps, None).score
    )


def test_the_reward_block_scores_like_sacrebleu_on_ids_as_words():
    import sacrebleu

    ns = _run(next(b for b in _python_blocks() if "ReferenceSets" in b))
    scores = ns["refs"].score(ns["completions"], group_size=2)
    group = len(ns["completions"]) // len(ns["references"])
    for i, ids in enumerate(ns["completions"]):
        refs = [" ".join(map(str, r)) for r in ns["references"][i // group]]
        want = sacrebleu.sentence_bleu(" ".join(map(str, ids)), refs, tokenize="none").score
        assert scores[i] == want


def _one_line_migrations() -> list:
    """The import statements of the README's list of one-line migrations (inline code that may
    wrap over two lines)."""
    text = README.read_text(encoding="utf-8")
    found = re.findall(
        r"`((?:from turbobleu\.[\w.]+ import|import turbobleu\.[\w.]+ as)[^`]+)`", text
    )
    return [" ".join(statement.split()) for statement in found]


def test_the_one_line_migrations_import():
    """Each one-liner runs as written (turbobleu.torchmetrics only where torch is installed)."""
    import importlib.util

    statements = _one_line_migrations()
    assert len(statements) >= 5
    for statement in statements:
        module = statement.split()[1]
        if module == "turbobleu.torchmetrics" and not all(
            importlib.util.find_spec(name) for name in ("torch", "torchmetrics")
        ):
            continue
        exec(compile(statement, "README.md", "exec"), {})


def test_the_readme_and_the_site_link_every_migration_guide():
    readme = README.read_text(encoding="utf-8")
    site = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    guides = sorted((ROOT / "docs" / "migrating").glob("*.md"))
    assert guides
    for guide in guides:
        assert f"(docs/migrating/{guide.name})" in readme, f"the README misses {guide.name}"
        assert f"migrating/{guide.name}" in site, f"mkdocs.yml's nav misses {guide.name}"
