"""``turbobleu.sacrebleu`` has every public name and module of sacrebleu 2.6.0 (``import
turbobleu.sacrebleu as sacrebleu``), those it computes give sacrebleu's results, and those it
forwards (test sets, downloads) reach the real sacrebleu only when used, also while
``sys.modules["sacrebleu"]`` is the drop-in.

The walk reads the installed sacrebleu: its top-level names (``__all__`` and public attributes),
its modules (all but ``__main__`` and the modules of its ``dataset`` package) and each module's
own names (defined at its top level or listed in its ``__all__``), and resolves each through the
drop-in.
"""

from __future__ import annotations

import argparse
import ast
import functools
import gzip
import importlib
import io
import json
import math
import os
import pkgutil
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Callable, FrozenSet, List, Set

import pytest
import sacrebleu as real
from hypothesis import given, settings
from hypothesis import strategies as st

import turbobleu
import turbobleu.sacrebleu as standin
from conftest import FIXTURE_DATA, read_lines

SRC = Path(turbobleu.__file__).resolve().parent.parent
# What the walk must find in sacrebleu 2.6.0 (so that a walk that finds nothing fails).
N_TOP_LEVEL_NAMES = 27
N_MODULES = 25


# -- the walk ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def top_level_names() -> FrozenSet[str]:
    """sacrebleu's public names right after ``import sacrebleu``, read in a fresh interpreter:
    here, other tests' imports (``sacrebleu.significance``, ...) add submodules to it."""
    code = (
        "import json, sacrebleu\n"
        "names = set(sacrebleu.__all__) | {n for n in dir(sacrebleu) if not n.startswith('_')}\n"
        "print(json.dumps(sorted(names)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return frozenset(json.loads(done.stdout))


def sacrebleu_modules() -> List[str]:
    found = []
    for info in pkgutil.walk_packages(real.__path__, "sacrebleu."):
        if info.name.endswith(".__main__") or info.name.startswith("sacrebleu.dataset."):
            continue
        found.append(info.name)
    return sorted(found)


def own_names(module: str) -> Set[str]:
    """The public names ``module`` defines at its top level, and its ``__all__``."""
    mod = importlib.import_module(module)
    tree = ast.parse(Path(mod.__file__).read_text(encoding="utf-8"))
    names: Set[str] = set(getattr(mod, "__all__", ()))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_") or n in getattr(mod, "__all__", ())}


def test_the_walk_finds_sacrebleus_names_and_modules() -> None:
    assert real.__version__ == "2.6.0"
    assert len(top_level_names()) == N_TOP_LEVEL_NAMES
    assert len(sacrebleu_modules()) == N_MODULES
    assert own_names("sacrebleu.metrics.helpers") == {
        "extract_all_word_ngrams",
        "extract_word_ngrams",
        "extract_char_ngrams",
        "extract_all_char_ngrams",
    }


def test_every_public_name_and_module_resolves_through_the_drop_in() -> None:
    misses: List[str] = []
    for name in sorted(top_level_names()):
        if not hasattr(standin, name):
            misses.append(f"sacrebleu.{name}")
    for module in sacrebleu_modules():
        ours = "turbobleu." + module
        try:
            mod = importlib.import_module(ours)
        except ImportError as exc:
            misses.append(f"{module} ({exc})")
            continue
        for name in sorted(own_names(module)):
            if not hasattr(mod, name):
                misses.append(f"{module}.{name}")
    assert misses == []


def test_the_modules_are_attributes_as_in_sacrebleu() -> None:
    """``sacrebleu.metrics.base``, ``sacrebleu.tokenizers.tokenizer_13a``, ... without importing
    them first."""
    for module in sacrebleu_modules():
        parent, _, leaf = ("turbobleu." + module).rpartition(".")
        assert getattr(importlib.import_module(parent), leaf) is importlib.import_module(
            f"{parent}.{leaf}"
        ), module


# -- generated text ----------------------------------------------------------------------------
# Characters where tokenizers differ: ASCII punctuation and digits, entities, whitespace of every
# kind, Chinese characters, Unicode punctuation and symbols, letters with case.
PIECES = st.sampled_from(
    list("aAbZ019 .,-'\"&;<>()[]{}/\\!?$%\t\n\r\x0b\x1c\u3000\u00a0")
    + ["&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "中", "文。", "「", "€", "—", "…"]
    + ["ß", "İ", "½", "²", "🙂", "\u2028", "٣", "Ⅻ", "x" * 3, "2019. ", "3,000.5"]
)
TEXT = st.lists(PIECES, max_size=30).map("".join)
WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "A", "."]), max_size=14)
SETTINGS = settings(max_examples=150, deadline=None)


# -- metrics.helpers ---------------------------------------------------------------------------
@SETTINGS
@given(TEXT, st.integers(1, 5), st.integers(1, 5))
def test_word_ngrams_are_sacrebleus(line: str, low: int, high: int) -> None:
    from sacrebleu.metrics import helpers as theirs

    from turbobleu.sacrebleu.metrics import helpers as ours

    got, want = (
        ours.extract_all_word_ngrams(line, low, high),
        theirs.extract_all_word_ngrams(line, low, high),
    )
    assert got == want and list(got[0].items()) == list(want[0].items())
    tokens = line.split()
    got_n, want_n = ours.extract_word_ngrams(tokens, high), theirs.extract_word_ngrams(tokens, high)
    assert list(got_n.items()) == list(want_n.items())


@SETTINGS
@given(TEXT, st.integers(1, 7), st.booleans())
def test_char_ngrams_are_sacrebleus(line: str, n: int, whitespace: bool) -> None:
    from sacrebleu.metrics import helpers as theirs

    from turbobleu.sacrebleu.metrics import helpers as ours

    got = ours.extract_char_ngrams(line, n, whitespace)
    assert list(got.items()) == list(theirs.extract_char_ngrams(line, n, whitespace).items())
    got_all = ours.extract_all_char_ngrams(line, n, include_whitespace=whitespace)
    want_all = theirs.extract_all_char_ngrams(line, n, include_whitespace=whitespace)
    assert [list(c.items()) for c in got_all] == [list(c.items()) for c in want_all]


def test_the_top_level_ngram_helpers_are_the_modules() -> None:
    from turbobleu.sacrebleu.metrics import helpers

    assert standin.extract_word_ngrams is helpers.extract_word_ngrams
    assert standin.extract_char_ngrams is helpers.extract_char_ngrams
    assert standin.extract_char_ngrams("a b", 2, True) == Counter({"a ": 1, " b": 1})


def test_ngram_helpers_name_a_bad_argument() -> None:
    from turbobleu.sacrebleu.metrics import helpers

    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        helpers.extract_char_ngrams("abc", 0)
    with pytest.raises(TypeError, match="line must be a str, got list"):
        helpers.extract_all_word_ngrams(["a"], 1, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tokens must be a list of tokens, got a str"):
        helpers.extract_word_ngrams("a b", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_order must be an int, got bool"):
        helpers.extract_all_char_ngrams("ab", True)


# -- tokenizers --------------------------------------------------------------------------------
TOKENIZER_CLASSES = [
    ("tokenizer_13a", "Tokenizer13a"),
    ("tokenizer_intl", "TokenizerV14International"),
    ("tokenizer_zh", "TokenizerZh"),
    ("tokenizer_char", "TokenizerChar"),
    ("tokenizer_none", "NoneTokenizer"),
    ("tokenizer_re", "TokenizerRegexp"),
]


def _pair(module: str, cls: str) -> List[Any]:
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    ours = getattr(importlib.import_module(f"turbobleu.sacrebleu.tokenizers.{module}"), cls)()
    return [ours, theirs]


@pytest.mark.parametrize(("module", "cls"), TOKENIZER_CLASSES)
def test_each_tokenizer_class_is_sacrebleus(module: str, cls: str) -> None:
    from turbobleu.sacrebleu.tokenizers import BaseTokenizer

    ours, theirs = _pair(module, cls)
    assert isinstance(ours, BaseTokenizer)
    assert ours.signature() == theirs.signature()

    @SETTINGS
    @given(TEXT)
    def same(line: str) -> None:
        assert ours(line) == theirs(line), repr(line)

    same()


def test_the_base_tokenizer_says_what_a_subclass_must_implement() -> None:
    from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

    with pytest.raises(NotImplementedError, match="signature"):
        BaseTokenizer().signature()
    with pytest.raises(NotImplementedError, match="__call__"):
        BaseTokenizer()("a")


def test_the_spm_models_table_is_sacrebleus() -> None:
    from sacrebleu.tokenizers import tokenizer_spm as theirs

    from turbobleu.sacrebleu.tokenizers import tokenizer_spm as ours

    assert ours.SPM_MODELS == theirs.SPM_MODELS
    with pytest.raises(ValueError, match="key must be one of"):
        ours.TokenizerSPM("nope")


# -- metrics.lib_ter ---------------------------------------------------------------------------
@SETTINGS
@given(WORDS, WORDS)
def test_translation_edit_rate_is_sacrebleus(hyp: List[str], ref: List[str]) -> None:
    from sacrebleu.metrics import lib_ter as theirs

    from turbobleu.sacrebleu.metrics import lib_ter as ours

    assert ours.translation_edit_rate(hyp, ref) == theirs.translation_edit_rate(hyp, ref)


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception:  # sacrebleu raises a bare Exception where the beam leaves no path
        return "fails"


@SETTINGS
@given(WORDS, st.lists(WORDS, min_size=1, max_size=4))
def test_beam_edit_distance_is_sacrebleus_call_after_call(
    ref: List[str], hyps: List[List[str]]
) -> None:
    """Hypotheses of several lengths sharing prefixes: the cache makes the results depend on the
    calls before, in sacrebleu; the same calls give the same results here."""
    from sacrebleu.metrics import lib_ter as theirs

    from turbobleu.sacrebleu.metrics import lib_ter as ours

    mine, its = ours.BeamEditDistance(ref), theirs.BeamEditDistance(ref)
    for k, hyp in enumerate(hyps):
        hyp = hyps[0][: len(hyp)] + hyp if k % 2 else hyp  # shared prefixes
        got, want = _outcome(lambda: mine(hyp)), _outcome(lambda: its(hyp))
        assert got == want
        if want != "fails":
            trace = want[1]
            assert ours.trace_to_alignment(trace) == theirs.trace_to_alignment(trace)


def test_trace_to_alignment_names_a_bad_operation() -> None:
    from turbobleu.sacrebleu.metrics import lib_ter

    with pytest.raises(ValueError, match=r"trace\[2\] is 'x'"):
        lib_ter.trace_to_alignment(" sx")


# -- metrics.base, version ---------------------------------------------------------------------
def test_the_bases_are_the_metrics_bases() -> None:
    from turbobleu.sacrebleu.metrics import base

    for metric in (standin.BLEU(), standin.CHRF(), standin.TER(), turbobleu.BLEU()):
        assert isinstance(metric, base.Metric)
        score = metric.corpus_score(["a b c"], [["a b d"]])
        assert isinstance(score, base.Score)
        assert isinstance(metric.get_signature(), base.Signature)


def test_the_version_module_is_sacrebleus() -> None:
    from sacrebleu import version as theirs

    from turbobleu.sacrebleu import version as ours

    for name in theirs.__all__:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert standin.version is ours and standin.__version__ == real.__version__


# -- significance ------------------------------------------------------------------------------
@SETTINGS
@given(st.lists(st.floats(0, 100, width=32), min_size=1, max_size=120), st.booleans())
def test_estimate_ci_is_sacrebleus(scores: List[float], as_float32: bool) -> None:
    import numpy as np
    from sacrebleu.significance import estimate_ci as theirs

    from turbobleu.sacrebleu.significance import estimate_ci as ours

    array = np.array(scores, dtype=np.float32 if as_float32 else np.float64)
    assert ours(array) == theirs(array)


def test_paired_test_gives_sacrebleus_results() -> None:
    from sacrebleu.significance import PairedTest as TheirTest

    from turbobleu.sacrebleu.significance import PairedTest, Result

    pair = FIXTURE_DATA / "he-en"
    refs = [read_lines(pair / "ref.refA.en")]
    systems = [("base", read_lines(pair / "hyp.GPT4-5shot.en"))]
    systems.append(("other", read_lines(pair / "hyp.NLLB_Greedy.en")))
    for test_type in ("bs", "ar"):
        ours = PairedTest(systems, {"BLEU": standin.BLEU()}, refs, test_type, n_samples=200)
        theirs = TheirTest(systems, {"BLEU": real.BLEU()}, refs, test_type, n_samples=200)
        (our_sigs, our_scores), (their_sigs, their_scores) = ours(), theirs()
        assert our_scores["System"] == their_scores["System"]
        for got, want in zip(our_scores["BLEU"], their_scores["BLEU"]):
            assert isinstance(got, Result)
            assert (got.score, got.p_value, got.mean, got.ci) == (
                want.score,
                want.p_value,
                want.mean,
                want.ci,
            )
        assert str(our_sigs["BLEU"]) == str(their_sigs["BLEU"])


# -- utils -------------------------------------------------------------------------------------
def _printed(function: Callable[..., None], *args: Any) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        function(*args)
    return out.getvalue()


def _table_inputs(paired: str) -> List[Any]:
    from sacrebleu.significance import Result as TheirResult

    from turbobleu.sacrebleu.significance import Result

    names = ["Baseline: a.txt", "b.txt", "c.txt"]
    values = [(36.86541, None, 36.9, 1.25), (40.0, 0.0099, 40.1, 1.5), (35.2, 0.4, 35.0, 2.0)]
    if paired == "ar":
        values = [(s, p, None, None) for s, p, _, _ in values]
    if paired:
        ours = {"System": names, "BLEU": [Result(*v) for v in values]}
        theirs = {"System": names, "BLEU": [TheirResult(*v) for v in values]}
        ours["chrF2"] = [Result(50.5 + k, None if k == 0 else 0.5) for k in range(3)]
        theirs["chrF2"] = [TheirResult(50.5 + k, None if k == 0 else 0.5) for k in range(3)]
    else:
        ours = {"System": names[1:], "BLEU": ["36.9", "40.0"], "TER": ["50.1", "48.0"]}
        theirs = json.loads(json.dumps(ours))
    signatures = {"BLEU": "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"}
    return [ours, theirs, signatures]


@pytest.mark.parametrize("colors", [True, False])
@pytest.mark.parametrize("fmt", ["text", "latex", "json"])
@pytest.mark.parametrize("paired", ["", "bs", "ar"])
def test_print_results_table_prints_what_sacrebleu_prints(
    paired: str, fmt: str, colors: bool
) -> None:
    from sacrebleu import utils as theirs

    from turbobleu.sacrebleu import utils as ours

    args = argparse.Namespace(
        format=fmt,
        width=2,
        paired_bs=paired == "bs",
        paired_ar=paired == "ar",
        paired_bs_n=1000,
        paired_ar_n=10000,
    )
    our_results, their_results, signatures = _table_inputs(paired)
    before = (ours.Color.ENABLE_COLORS, theirs.Color.ENABLE_COLORS)
    ours.Color.ENABLE_COLORS = theirs.Color.ENABLE_COLORS = colors
    try:
        got = _printed(ours.print_results_table, our_results, signatures, args)
        want = _printed(theirs.print_results_table, their_results, signatures, args)
    finally:
        ours.Color.ENABLE_COLORS, theirs.Color.ENABLE_COLORS = before
    assert got == want
    assert "System" in our_results  # left as it was


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_print_single_results_prints_what_sacrebleu_prints(fmt: str) -> None:
    from sacrebleu import utils as theirs

    from turbobleu.sacrebleu import utils as ours

    args = argparse.Namespace(format=fmt)
    hyps = read_lines(FIXTURE_DATA / "he-en" / "hyp.GPT4-5shot.en")
    refs = [read_lines(FIXTURE_DATA / "he-en" / "ref.refA.en")]
    lines = [
        str(real.BLEU().corpus_score(hyps, refs, n_bootstrap=20)),
        str(real.CHRF().corpus_score(hyps, refs)),
        str(real.TER().corpus_score(hyps, refs)),
    ]
    if fmt == "json":
        chrf = real.CHRF()
        score = chrf.corpus_score(hyps, refs)
        lines = [score.format(signature=str(chrf.get_signature()), is_json=True)] * 2
    for results in (lines, lines[:1], lines + ["12.5"]):
        got = _printed(ours.print_single_results, list(results), args)
        assert got == _printed(theirs.print_single_results, list(results), args)


def test_the_small_utils_are_sacrebleus(tmp_path: Path) -> None:
    from sacrebleu import utils as theirs

    from turbobleu.sacrebleu import utils as ours

    text = "a b\r\nc\n"
    plain, packed = tmp_path / "x.txt", tmp_path / "x.txt.gz"
    plain.write_bytes(text.encode("utf-8"))  # (write_text's newline= is 3.10+)
    with gzip.open(packed, "wt", encoding="utf-8", newline="") as handle:
        handle.write(text)
    for path in (str(plain), str(packed)):
        with ours.smart_open(path) as mine, theirs.smart_open(path) as its:
            assert mine.read() == its.read()
    assert standin.smart_open is ours.smart_open
    assert ours.get_md5sum(str(packed)) == theirs.get_md5sum(str(packed))
    for x in (0.0, 1e-300, 0.5, 3.0):
        assert ours.my_log(x) == theirs.my_log(x)
    for lists in ([[1, 2]], [[1, 2], [3, 4]], [[0.5, 1.0], [1, 2], [2, 3]]):
        got, want = ours.sum_of_lists(lists), theirs.sum_of_lists(lists)
        assert got == want and [type(v) for v in got] == [type(v) for v in want]
    args = argparse.Namespace(metric_bleu=1, metric_chrf=2, other=3, bleu_metric_x=4)
    for strip in (False, True):
        assert ours.args_to_dict(args, "metric", strip) == theirs.args_to_dict(
            args, "metric", strip
        )
    for color in ("red", "cyan", "lightblue_ex", "nope"):
        assert ours.Color.format("x", color) == theirs.Color.format("x", color)
    assert ours.USERHOME == theirs.USERHOME
    ours.sanity_check_lengths(["a"], [["b"]])
    with pytest.raises(SystemExit):
        ours.sanity_check_lengths(["a"], [["b", "c"]], "wmt23")


# -- the command line module -------------------------------------------------------------------
def test_the_command_line_module_runs_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from turbobleu.cli import main as cli_main
    from turbobleu.sacrebleu import sacrebleu as command

    pair = FIXTURE_DATA / "he-en"
    argv = [str(pair / "ref.refA.en"), "-i", str(pair / "hyp.GPT4-5shot.en"), "-f", "text"]
    assert command.main(argv) is None
    got = capsys.readouterr().out
    assert cli_main(argv) == 0
    assert got == capsys.readouterr().out
    hyps = read_lines(pair / "hyp.GPT4-5shot.en")
    want = real.corpus_bleu(hyps, [read_lines(pair / "ref.refA.en")]).format(width=1)
    assert got.rstrip().endswith(want[len("BLEU") :])
    assert command.parse_args(argv).refs == [str(pair / "ref.refA.en")]
    with pytest.raises(SystemExit) as stopped:
        command.main([str(tmp_path / "missing.txt"), "-i", str(pair / "hyp.GPT4-5shot.en")])
    assert stopped.value.code == 1


# -- forwarding --------------------------------------------------------------------------------
def _child(code: str, *flags: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, *flags, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


COMPUTING_MODULES = (
    [
        "turbobleu.sacrebleu",
        "turbobleu.sacrebleu.compat",
        "turbobleu.sacrebleu.metrics.base",
        "turbobleu.sacrebleu.metrics.helpers",
        "turbobleu.sacrebleu.metrics.lib_ter",
        "turbobleu.sacrebleu.significance",
        "turbobleu.sacrebleu.utils",
        "turbobleu.sacrebleu.version",
        "turbobleu.sacrebleu.sacrebleu",
    ]
    + [f"turbobleu.sacrebleu.tokenizers.{module}" for module, _ in TOKENIZER_CLASSES]
    + [
        "turbobleu.sacrebleu.tokenizers.tokenizer_spm",
        "turbobleu.sacrebleu.tokenizers.tokenizer_ja_mecab",
        "turbobleu.sacrebleu.tokenizers.tokenizer_ter",
    ]
)


@pytest.fixture(autouse=True)
def _sacrebleu_is_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk and the oracles import sacrebleu's modules by name: sacrebleu must be itself
    here, whatever an earlier test aliased."""
    monkeypatch.setitem(sys.modules, "sacrebleu", real)


def test_the_forwarded_names_are_the_real_sacrebleus() -> None:
    """In this process the drop-in forwards to sacrebleu itself or to its private copy (when a
    test aliased sacrebleu first): the same test sets either way."""
    assert sorted(standin.DATASETS) == sorted(real.DATASETS)
    assert standin.SACREBLEU_DIR == real.SACREBLEU_DIR
    assert standin.get_available_testsets() == real.get_available_testsets()
    assert standin.utils.get_available_testsets_for_langpair("de-en") == (
        real.utils.get_available_testsets_for_langpair("de-en")
    )
    assert standin.dataset.DATASETS is standin.DATASETS
    assert standin.dataset.wmt_xml.WMTXMLDataset.__name__ == "WMTXMLDataset"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        standin.dataset.nope  # noqa: B018


def test_an_imported_sacrebleu_is_shared_not_loaded_twice() -> None:
    proc = _child(
        "import sys\n"
        "import sacrebleu\n"
        "import turbobleu.sacrebleu as s\n"
        "import turbobleu.sacrebleu.dataset as d\n"
        "private = '_turbobleu_real_sacrebleu' in sys.modules\n"
        "print(s.DATASETS is sacrebleu.DATASETS, s.get_source_file is sacrebleu.get_source_file,\n"
        "      d.wmt_xml is sacrebleu.dataset.wmt_xml, private)\n"
    )
    assert proc.stdout.split() == ["True", "True", "True", "False"]


def test_importing_the_computing_modules_does_not_import_sacrebleu() -> None:
    proc = _child(
        "import importlib, sys\n"
        f"for name in {COMPUTING_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "import turbobleu.sacrebleu as s\n"
        "print(s.corpus_bleu(['a b c d'], [['a b c d']]).score, s.utils.my_log(2.0))\n"
        "print(sorted(m for m in sys.modules if 'sacrebleu' in m and 'turbobleu' not in m))\n"
    )
    score, loaded = proc.stdout.splitlines()
    assert score.split() == [
        repr(real.corpus_bleu(["a b c d"], [["a b c d"]]).score),
        repr(math.log(2.0)),
    ]
    assert loaded == "[]"


def test_forwarding_works_while_sacrebleu_is_the_drop_in() -> None:
    proc = _child(
        "import json, sys\n"
        "import turbobleu.sacrebleu as s\n"
        "sys.modules['sacrebleu'] = s\n"
        "import sacrebleu\n"
        "assert sacrebleu is s\n"
        "from sacrebleu import DATASETS, get_langpairs_for_testset\n"
        "from sacrebleu.utils import get_available_testsets\n"
        "import sacrebleu.dataset\n"
        "print(json.dumps([sorted(DATASETS), get_langpairs_for_testset('wmt23'),\n"
        "                  get_available_testsets(), s.SACREBLEU_DIR,\n"
        "                  type(sacrebleu.dataset.DATASETS['wmt23']).__name__,\n"
        "                  sys.modules['sacrebleu'] is s]))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if 'sacrebleu' in m}))\n"
    )
    found, loaded = proc.stdout.splitlines()
    datasets, pairs, testsets, home, wmt23, still = json.loads(found)
    assert datasets == sorted(real.DATASETS)
    assert pairs == real.get_langpairs_for_testset("wmt23")
    assert testsets == real.get_available_testsets()
    assert home == real.SACREBLEU_DIR
    assert wmt23 == type(real.DATASETS["wmt23"]).__name__
    assert still is True
    assert loaded == "['_turbobleu_real_sacrebleu', 'sacrebleu', 'turbobleu']"


def _site_without_sacrebleu(tmp_path: Path) -> Path:
    """A copy of sacrebleu's site-packages (links to its entries) without sacrebleu."""
    site = Path(real.__file__).resolve().parent.parent
    copy = tmp_path / "site-packages"
    copy.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith("sacrebleu"):
            (copy / entry.name).symlink_to(entry)
    return copy


def test_without_sacrebleu_the_forwarded_names_say_pip_install_sacrebleu(tmp_path: Path) -> None:
    """sacrebleu hidden: no site processing (-S), and its site-packages replaced by a copy
    without it."""
    site = str(_site_without_sacrebleu(tmp_path))
    proc = _child(
        "import sys\n"
        f"sys.path[:] = [p for p in sys.path if 'site-packages' not in p] + [{site!r}]\n"
        "import importlib.util\n"
        "assert importlib.util.find_spec('sacrebleu') is None\n"
        "import turbobleu.sacrebleu as s\n"
        "print(s.extract_char_ngrams('ab', 1) == {'a': 1, 'b': 1}, s.__version__)\n"
        "def error(run):\n"
        "    try:\n"
        "        run()\n"
        "    except ImportError as exc:\n"
        "        return type(exc).__name__ + ': ' + str(exc)\n"
        "    return 'no error'\n"
        "print(error(lambda: s.DATASETS))\n"
        "print(error(lambda: __import__('turbobleu.sacrebleu.dataset')))\n"
        "print(error(lambda: s.utils.get_source_file))\n"
        "def from_import():\n"
        "    from turbobleu.sacrebleu import get_reference_files  # noqa: F401\n"
        "print(error(from_import))\n"
        "exec('from turbobleu.sacrebleu import *')\n"
        "print(s.corpus_bleu(['a b c'], [['a b d']]).score)\n",
        "-S",
    )
    first, *errors, score = proc.stdout.splitlines()
    assert first == "True 2.6.0"
    assert float(score) == real.corpus_bleu(["a b c"], [["a b d"]]).score
    assert len(errors) == 4
    for line in errors:
        assert line.startswith("SacrebleuNotInstalled: turbobleu.sacrebleu forwards turbobleu.")
        assert line.endswith("sacrebleu is not installed: pip install sacrebleu")
    assert "turbobleu.sacrebleu.DATASETS" in errors[0]
    assert "turbobleu.sacrebleu.dataset" in errors[1]
    assert "turbobleu.sacrebleu.get_reference_files" in errors[3]


def test_metrics_base_takes_turbobleus_metric_interface() -> None:
    """``metrics.base.Metric`` and ``Signature`` are ``turbobleu._metric``'s where it exists
    (a stand-in module here, so that the check does not depend on this tree having it)."""
    proc = _child(
        "import sys, types\n"
        "import turbobleu\n"
        "interface = types.ModuleType('turbobleu._metric')\n"
        "class Metric: pass\n"
        "class Signature: pass\n"
        "interface.Metric, interface.Signature = Metric, Signature\n"
        "sys.modules['turbobleu._metric'] = interface\n"
        "from turbobleu.sacrebleu.metrics import base\n"
        "print(base.Metric is Metric, base.Signature is Signature)\n"
    )
    assert proc.stdout.split() == ["True", "True"]
