"""A light import: ``import turbobleu``, the plain scoring calls, the NLTK drop-in and the command
line without significance tests load no NumPy; what returns arrays still works (and loads it).

Each case runs in a fresh interpreter (this process has long imported NumPy) on this checkout's
compiled build; the pure-Python twins import NumPy by design, so the cases skip there. The scores
the child prints are compared with sacrebleu's and NLTK's here, so a path that skipped the work
would fail too.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
import sacrebleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines

SRC = Path(turbobleu.__file__).resolve().parent.parent
HE_EN = FIXTURE_DATA / "he-en"
REFS = [HE_EN / "ref.refA.en", HE_EN / "ref.refB.en"]
SYSTEMS = [HE_EN / "hyp.GPT4-5shot.en", HE_EN / "hyp.NLLB_Greedy.en"]

pytestmark = pytest.mark.skipif(
    turbobleu.implementation != "cython",
    reason="the pure-Python twins import NumPy at the top by design",
)

# Printed by every child as its last stderr line.
REPORT = "import sys; print('NUMPY:', 'numpy' in sys.modules, file=sys.stderr)"


def _env() -> dict:
    return dict(
        os.environ,
        TURBOBLEU_IMPL="cython",
        PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    )


def run_child(code: str, data: object = None) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter, with ``data`` as JSON on its stdin."""
    proc = subprocess.run(
        [sys.executable, "-c", code + "\n" + REPORT],
        env=_env(),
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def numpy_loaded(proc: subprocess.CompletedProcess) -> bool:
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("NUMPY: "), proc.stderr
    return last == "NUMPY: True"


def test_the_child_sees_this_checkout_and_its_compiled_build() -> None:
    proc = run_child("import turbobleu; print(turbobleu.__file__, turbobleu.implementation)")
    path, implementation = proc.stdout.split()
    assert Path(path).resolve() == Path(turbobleu.__file__).resolve()
    assert implementation == "cython"


def test_the_check_sees_numpy_when_it_is_loaded() -> None:
    assert numpy_loaded(run_child("import numpy"))
    assert not numpy_loaded(run_child("pass"))


def test_import_turbobleu_loads_no_numpy_and_keeps_its_names() -> None:
    proc = run_child(
        "import sys, turbobleu\n"
        "print(sorted(set(turbobleu.__all__) - set(dir(turbobleu))))\n"
        "print(sorted(m for m in ('turbobleu.batch', 'turbobleu.significance',\n"
        "                         'turbobleu.patching') if m in sys.modules))\n"
    )
    missing, loaded = proc.stdout.splitlines()
    assert missing == "[]"  # dir() lists the lazy names too
    assert loaded == "[]"  # ... without importing them
    assert not numpy_loaded(proc)


def test_the_chrf_kernel_loads_on_first_chrf_call() -> None:
    """BLEU alone never loads the chrF counting extension; the first chrF call does."""
    hyps = read_lines(SYSTEMS[0])[:20]
    refs = [read_lines(path)[:20] for path in REFS]
    proc = run_child(
        "import json, sys, turbobleu\n"
        "hyps, refs = json.load(sys.stdin)\n"
        "kernel = 'turbobleu._engine.chrf._chrf'\n"
        "turbobleu.corpus_bleu(hyps, refs)\n"
        "print(kernel in sys.modules)\n"
        "print(repr(turbobleu.corpus_chrf(hyps, refs).score), kernel in sys.modules)\n",
        [hyps, refs],
    )
    before, after = proc.stdout.splitlines()
    assert before == "False"
    score, loaded = after.split()
    assert float(score) == sacrebleu.corpus_chrf(hyps, refs).score
    assert loaded == "True"


def test_bleus_text_paths_load_on_first_bleu_score() -> None:
    """``import turbobleu`` loads the tokenizers but not BLEU's fused text paths; the first
    score does."""
    proc = run_child(
        "import sys, turbobleu\n"
        "rows = 'turbobleu._engine.bleu._text_rows'\n"
        "print(rows in sys.modules, 'turbobleu._engine.text._tokenize' in sys.modules)\n"
        "turbobleu.sentence_bleu('a b c', ['a b d'])\n"
        "print(rows in sys.modules)\n"
    )
    assert proc.stdout.splitlines() == ["False True", "True"]
    assert not numpy_loaded(proc)


def test_the_lazy_names_resolve_on_first_use() -> None:
    proc = run_child(
        "import turbobleu\n"
        "from turbobleu import self_bleu, sentence_bleu_batch, significance, patch\n"
        "print(turbobleu.self_bleu is self_bleu, callable(patch),\n"
        "      turbobleu.significance.paired_bootstrap.__module__)\n"
        "try:\n"
        "    turbobleu.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    first, error = proc.stdout.splitlines()
    assert first == "True True turbobleu.significance"
    assert error == "module 'turbobleu' has no attribute 'no_such_name'"
    assert numpy_loaded(proc)  # batch and significance work on arrays


def test_plain_sacrebleu_scoring_loads_no_numpy() -> None:
    hyps = read_lines(SYSTEMS[0])
    refs = [read_lines(path) for path in REFS]
    proc = run_child(
        "import json, sys, turbobleu\n"
        "hyps, refs = json.load(sys.stdin)\n"
        "print(repr(turbobleu.corpus_bleu(hyps, refs).score))\n"
        "print(repr(turbobleu.BLEU().corpus_score(hyps, refs).score))\n"
        "print(repr(turbobleu.raw_corpus_bleu(hyps, refs).score))\n"
        "print(repr(turbobleu.BLEU(tokenize='zh').corpus_score(hyps, refs).score))\n"
        "print(json.dumps([turbobleu.sentence_bleu(h, [r[i] for r in refs]).score\n"
        "                  for i, h in enumerate(hyps)]))\n"
        "print(repr(turbobleu.BLEU().corpus_score(hyps, refs).format()))\n",
        [hyps, refs],
    )
    corpus, metric, raw, zh, sentences, text = proc.stdout.splitlines()
    assert float(corpus) == sacrebleu.corpus_bleu(hyps, refs).score
    assert float(metric) == float(corpus)
    assert float(raw) == sacrebleu.raw_corpus_bleu(hyps, refs).score
    assert float(zh) == sacrebleu.BLEU(tokenize="zh").corpus_score(hyps, refs).score
    assert json.loads(sentences) == [
        sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)
    ]
    assert ast.literal_eval(text) == str(sacrebleu.BLEU().corpus_score(hyps, refs))
    assert not numpy_loaded(proc)


def test_the_nltk_drop_in_loads_no_numpy() -> None:
    from nltk.translate import bleu_score

    hyps = [line.split() for line in read_lines(SYSTEMS[0])]
    refs = [[line.split() for line in lines] for lines in zip(*(read_lines(p) for p in REFS))]
    proc = run_child(
        "import json, sys\n"
        "from turbobleu import nltk as tb\n"
        "hyps, refs = json.load(sys.stdin)\n"
        "smooth = tb.SmoothingFunction()\n"
        "print(repr(tb.corpus_bleu(refs, hyps)))\n"
        "print(json.dumps([tb.sentence_bleu(r, h, smoothing_function=smooth.method1)\n"
        "                  for r, h in zip(refs, hyps)]))\n",
        [hyps, refs],
    )
    corpus, sentences = proc.stdout.splitlines()
    assert float(corpus) == bleu_score.corpus_bleu(refs, hyps)
    method1 = bleu_score.SmoothingFunction().method1
    assert json.loads(sentences) == [
        bleu_score.sentence_bleu(r, h, smoothing_function=method1) for r, h in zip(refs, hyps)
    ]
    assert not numpy_loaded(proc)


def cli(*args: str) -> subprocess.CompletedProcess:
    argv = [str(a) for a in args]
    return run_child(
        "import sys\nfrom turbobleu.cli import main\n"
        f"assert main({argv!r}) == 0\nsys.stdout.flush()\n"
    )


def sacrebleu_cli(args: List[str]) -> str:
    """What sacrebleu's command line prints for ``args`` (its main(), in a child)."""
    proc = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["-b"],
        [],
        ["-f", "text"],
        ["-sl", "-b"],
        ["-lc", "-w", "3"],
        ["-m", "chrf"],
        ["-m", "bleu", "chrf", "-f", "text"],
        ["-m", "chrf", "-cw", "2", "-sl"],
    ],
)
def test_the_command_line_without_significance_tests_loads_no_numpy(extra: List[str]) -> None:
    args = [str(p) for p in REFS] + ["-i", str(SYSTEMS[0])] + extra
    proc = cli(*args)
    assert proc.stdout == sacrebleu_cli(args)
    assert not numpy_loaded(proc)


@pytest.mark.parametrize("metrics", [["bleu"], ["chrf", "bleu"]])
def test_a_multi_system_table_loads_no_numpy(metrics: List[str]) -> None:
    args = [str(p) for p in REFS] + ["-i"] + [str(p) for p in SYSTEMS] + ["-f", "text"]
    args += ["-m", *metrics]
    proc = cli(*args)
    assert proc.stdout == sacrebleu_cli(args)
    assert not numpy_loaded(proc)


def test_the_module_entry_point_loads_no_numpy() -> None:
    """``python -m turbobleu`` (what the console script runs), seen from -X importtime."""
    args = [str(p) for p in REFS] + ["-i", str(SYSTEMS[0]), "-b"]
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "turbobleu", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    imported = [
        line.rsplit("|", 1)[-1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:")
    ]
    assert "turbobleu.cli" in imported
    assert "numpy" not in imported
    assert proc.stdout == sacrebleu_cli(args)


def test_paired_bootstrap_on_bleu_loads_no_numpy() -> None:
    """--paired-bs on BLEU draws sacrebleu's resamples without NumPy (resample.plain)."""
    args = [str(p) for p in REFS] + ["-i"] + [str(p) for p in SYSTEMS] + ["-pbs", "-pbsn", "50"]
    proc = cli(*args)
    assert proc.stdout == sacrebleu_cli(args)
    assert not numpy_loaded(proc)


def test_significance_tests_and_array_results_still_load_numpy() -> None:
    args = [str(p) for p in REFS] + ["-i"] + [str(p) for p in SYSTEMS] + ["-par", "-parn", "50"]
    proc = cli(*args)
    assert proc.stdout == sacrebleu_cli(args)
    assert numpy_loaded(proc)
    proc = run_child(
        "import turbobleu\n"
        "hyps, refs = ['a b c d', 'e f g'], [['a b c d', 'e f h']]\n"
        "metric = turbobleu.BLEU(effective_order=True)\n"
        "stats = metric.corpus_stats(hyps, refs)\n"
        "print(type(stats.array).__name__, stats.array.dtype, stats.array.shape)\n"
        "print(type(metric.sentence_scores(hyps, refs)).__name__)\n"
    )
    assert proc.stdout.splitlines() == ["ndarray int64 (2, 10)", "ndarray"]
    assert numpy_loaded(proc)
