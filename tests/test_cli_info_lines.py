"""sacrebleu's informational stderr lines on turbobleu's command line: ``Found N systems.``, the
paired tests' ``Pre-computing ...`` / ``Computing ...`` / `` > Performing ...`` lines,
``Launching N parallel workers.`` and ``Ignoring ... as it was also given as the baseline.``,
at the same places among the warnings (the tokenizer hint, the tokenized-period warning) as
sacrebleu's ``sacreBLEU: ...`` lines, with ``turbobleu: `` in front.

Both console scripts run on the same files, two at a time (sacrebleu's outcomes are kept in a
cache file in the temporary folder, keyed by the call, the files' contents and the versions,
unless TURBOBLEU_TEST_NO_ORACLE_CACHE=1): the fixture's he-en excerpt doubled
to 120 lines (so that the tokenized-period warning, which needs 100, fires), two of its three
systems with tokenized periods, over single system, several systems, ``-pbs``, ``-par`` and
``-ci``, with BLEU, chrF and TER.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
import sacrebleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines

SRC = Path(turbobleu.__file__).resolve().parent.parent
CACHE_FILE = Path(tempfile.gettempdir()) / "turbobleu-test-cli-info-lines-cache.json"
BIN_DIR = Path(sys.executable).parent
SACREBLEU = shutil.which("sacrebleu", path=str(BIN_DIR))
TURBOBLEU = shutil.which("turbobleu", path=str(BIN_DIR))
HE_EN = FIXTURE_DATA / "he-en"

pytestmark = pytest.mark.skipif(
    not (SACREBLEU and TURBOBLEU),
    reason=f"the sacrebleu and turbobleu console scripts are not both in {BIN_DIR}",
)

REFS = ["ref.A.en", "ref.B.en"]
TOK_GPT4, NLLB, TOK_NLLB = "tok.GPT4.en", "NLLB.en", "tok.NLLB.en"
SYSTEMS = [TOK_GPT4, NLLB, TOK_NLLB]
MANY = [*REFS, "-i", *SYSTEMS]

# case id -> (arguments, stdin). Small resample counts: the lines, not the numbers, are tested.
CASES: Dict[str, Tuple[List[str], Optional[str]]] = {
    "one-system-ci": ([*REFS, "-i", TOK_GPT4, "-ci", "-cin", "20", "-m", "bleu", "chrf", "ter",
                       "-f", "text"], None),
    "systems-bleu-streamed": (MANY, None),
    "systems-metrics": ([*MANY, "-m", "ter", "chrf", "bleu", "-f", "text"], None),
    "paired-bs-bleu": ([*MANY, "-pbs", "-pbsn", "20"], None),
    "paired-bs-metrics": ([*MANY, "-pbs", "-pbsn", "20", "-m", "chrf", "bleu", "ter",
                           "-f", "text"], None),
    "paired-ar-metrics-chrf++": ([*MANY, "-par", "-parn", "20", "-m", "bleu", "chrf", "-cw", "2",
                                  "-f", "text"], None),
    "paired-ar-bleu-baseline-twice-tokenizer-hint": (
        [*REFS, "-i", TOK_GPT4, NLLB, TOK_GPT4, "-par", "-parn", "20", "-l", "en-zh",
         "-tok", "13a"], None),
    "paired-bs-two-workers-force": (
        [*REFS, "-i", TOK_GPT4, NLLB, "-pbs", "-pbsn", "20", "-j", "2", "--force"], None),
    "paired-bs-stdin": ([*REFS, "-pbs", "-pbsn", "20", "-f", "text"], "systems-on-stdin"),
    "quiet": ([*MANY, "-q", "-par", "-parn", "20", "-m", "bleu", "chrf"], None),
}  # fmt: skip


def _tokenized(line: str) -> str:
    """The line ending in a tokenized period (`` .``)."""
    return line.rstrip().rstrip(".").rstrip() + " ."


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files of CASES, made from the fixture excerpt (each doubled: 120 lines)."""
    folder = tmp_path_factory.mktemp("info-lines")
    gpt4 = read_lines(HE_EN / "hyp.GPT4-5shot.en") * 2
    nllb = read_lines(HE_EN / "hyp.NLLB_Greedy.en") * 2
    files = {
        "ref.A.en": read_lines(HE_EN / "ref.refA.en") * 2,
        "ref.B.en": read_lines(HE_EN / "ref.refB.en") * 2,
        TOK_GPT4: [_tokenized(line) for line in gpt4],
        NLLB: nllb,
        TOK_NLLB: [_tokenized(line) for line in nllb],
    }
    for name, lines in files.items():
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    stdin = ["\t".join(fields) for fields in zip(*(files[s] for s in SYSTEMS))]
    (folder / "systems-on-stdin").write_text("\n".join(stdin) + "\n", encoding="utf-8")
    return folder


def _run(command: str, args: List[str], stdin: Optional[str], folder: Path) -> Tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    env["NO_COLOR"] = "1"
    data = (folder / stdin).read_bytes() if stdin else b""
    done = subprocess.run(
        [command, *args], cwd=folder, env=env, input=data, capture_output=True, timeout=300
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def _cache_key(args: List[str], stdin: Optional[str], folder: Path) -> str:
    """sacrebleu's outcome depends on these only (no case runs on every CPU: -j 0 is not used)."""
    digest = hashlib.sha256(
        json.dumps([sacrebleu.__version__, sys.version, args, stdin]).encode("utf-8")
    )
    for path in sorted(folder.iterdir()):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _load_cache() -> Dict[str, list]:
    if os.environ.get("TURBOBLEU_TEST_NO_ORACLE_CACHE", "") not in ("", "0"):
        return {}
    try:
        return dict(json.loads(CACHE_FILE.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return {}


@pytest.fixture(scope="module")
def outcomes(corpus: Path) -> Dict[str, Tuple[Tuple[int, str, str], Tuple[int, str, str]]]:
    """(sacrebleu, turbobleu) outcomes of every case, two commands at a time; sacrebleu's from
    the cache where it has them."""
    cache = _load_cache()
    keys = {case: _cache_key(args, stdin, corpus) for case, (args, stdin) in CASES.items()}
    calls = [(TURBOBLEU, case) for case in CASES]
    calls += [(SACREBLEU, case) for case in CASES if keys[case] not in cache]
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda call: _run(call[0], *CASES[call[1]], corpus), calls))
    ran = {(command, case): outcome for (command, case), outcome in zip(calls, done)}
    for case in CASES:
        if (SACREBLEU, case) in ran:
            cache[keys[case]] = list(ran[SACREBLEU, case])
    if any(command == SACREBLEU for command, _ in calls):
        try:
            CACHE_FILE.write_text(json.dumps(cache), encoding="utf-8")
        except OSError:
            pass  # (a read-only temporary folder: no cache)
    return {case: (tuple(cache[keys[case]]), ran[TURBOBLEU, case]) for case in CASES}  # type: ignore[misc]


def _prefixed(stderr: str, prefix: str) -> List[str]:
    """The lines of ``stderr`` that start with ``prefix``, without it."""
    return [line[len(prefix) :] for line in stderr.splitlines() if line.startswith(prefix)]


@pytest.mark.parametrize("case", list(CASES))
def test_the_same_lines_as_sacrebleu_in_the_same_order(case: str, outcomes: dict) -> None:
    (s_rc, s_out, s_err), (t_rc, t_out, t_err) = outcomes[case]
    assert s_rc == 0, s_err
    assert t_rc == 0, t_err
    assert t_out == s_out
    theirs = _prefixed(s_err, "sacreBLEU: ")
    ours = _prefixed(t_err, "turbobleu: ")
    assert ours == theirs
    assert len(ours) == len(t_err.splitlines())  # nothing else on turbobleu's stderr
    if "-q" not in CASES[case][0]:
        assert len(theirs) == len(s_err.splitlines())  # ... nor on sacrebleu's


def test_the_cases_show_every_kind_of_line(outcomes: dict) -> None:
    """The comparison above is not vacuous: the cases print what they are here for."""

    def lines(case: str) -> List[str]:
        return _prefixed(outcomes[case][1][2], "turbobleu: ")

    tokenized = "That's 100 lines that end in a tokenized period ('.')"
    assert lines("one-system-ci")[0] == tokenized and len(lines("one-system-ci")) == 3
    assert lines("systems-bleu-streamed")[0] == "Found 3 systems."
    assert lines("systems-bleu-streamed").count(tokenized) == 2
    assert lines("systems-metrics")[0] == "Found 3 systems."
    paired = lines("paired-ar-metrics-chrf++")
    assert paired[1] == f"Pre-computing BLEU statistics for 'Baseline: {TOK_GPT4}'"
    assert f"Computing chrF2++ for '{TOK_NLLB}' and extracting sufficient statistics" in paired
    assert paired[-1] == " > Performing approximate randomization test (# trials: 20)"
    bs = lines("paired-bs-metrics")
    assert bs[-1] == " > Performing paired bootstrap resampling test (# resamples: 20)"
    hint = lines("paired-ar-bleu-baseline-twice-tokenizer-hint")
    assert hint[:3] == [
        f"Ignoring '{TOK_GPT4}' as it was also given as the baseline.",
        "Consider using the 'zh' or 'spm' tokenizer for Chinese.",
        "Found 2 systems.",
    ]
    assert lines("paired-bs-two-workers-force")[2] == "Launching 2 parallel workers."
    assert "Pre-computing BLEU statistics for 'Baseline'" in lines("paired-bs-stdin")
    assert outcomes["quiet"][1][2] == ""
