"""The README's promises: its test command is what CI runs, and its API tour runs as shown."""

import re
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
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)
    return namespace


def test_api_tour_runs_and_its_numbers_are_right():
    namespace = _run(_python_blocks()[0])
    score = namespace["score"]
    assert f"{score.score:.2f}" == "36.87"
    assert str(score).startswith("BLEU = 36.87 72.7/44.4/28.6/20.0 (BP = 1.000 ratio = 1.100")
    assert str(namespace["bleu"].get_signature()) == (
        "nrefs:1|case:lc|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0"
    )


def test_bundled_example_scores_like_sacrebleu(capsys):
    import sacrebleu

    from turbobleu import example

    example.main()
    out = capsys.readouterr().out
    assert f"sacrebleu {sacrebleu.__version__}: identical" in out
    assert out.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = ")
    assert f"implementation: {turbobleu.implementation}" in out


def test_every_python_example_runs():
    blocks = _python_blocks()
    assert len(blocks) >= 5
    for block in blocks:
        _run(block)


def test_drop_in_example_numbers_are_the_libraries():
    import nltk.translate.bleu_score as nltk_bleu
    import sacrebleu

    block = next(b for b in _python_blocks() if "import turbobleu.sacrebleu as sacrebleu" in b)
    ns = _run(block)
    hyp, refs = ns["hyp"], ns["refs"]
    want = nltk_bleu.sentence_bleu(
        [r.split() for r in refs],
        hyp.split(),
        smoothing_function=nltk_bleu.SmoothingFunction().method1,
    )
    assert (
        ns["sentence_bleu"](
            [r.split() for r in refs],
            hyp.split(),
            smoothing_function=ns["SmoothingFunction"]().method1,
        )
        == want
    )
    assert f"NLTK's {str(want)[:6]}..." in block
    sacre = sacrebleu.corpus_bleu([hyp], [[r] for r in refs]).score
    assert ns["sacrebleu"].corpus_bleu([hyp], [[r] for r in refs]).score == sacre
    assert f"sacrebleu's {str(sacre)[:5]}..." in block
