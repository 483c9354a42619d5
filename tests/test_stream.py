"""Streaming corpus BLEU (issue 22): chunks of lines, statistics summed as they go, the same score
as the in-memory call; and the command line, which streams its files for plain corpus scores."""

from __future__ import annotations

import gzip
import io
from pathlib import Path
from typing import Any, List

import pytest
import sacrebleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines
from turbobleu import cli
from turbobleu.cli import bleu as cli_bleu

HE_EN = FIXTURE_DATA / "he-en"
HYP = HE_EN / "hyp.GPT4-5shot.en"
REFS = [HE_EN / "ref.refA.en", HE_EN / "ref.refB.en"]


def fields(score: Any) -> List[Any]:
    return [score.score, score.counts, score.totals, score.sys_len, score.ref_len, score.bp]


@pytest.mark.parametrize("chunk_size", [1, 7, 100, 20000])
@pytest.mark.parametrize("tokenize", ["13a", "intl", "char"])
def test_streaming_equals_the_in_memory_call(chunk_size: int, tokenize: str) -> None:
    hyps, refs = read_lines(HYP), [read_lines(r) for r in REFS]
    want = turbobleu.corpus_bleu(hyps, refs, tokenize=tokenize)
    got = turbobleu.corpus_bleu_stream(
        iter(hyps), [iter(r) for r in refs], tokenize=tokenize, chunk_size=chunk_size
    )
    assert fields(got) == fields(want)
    assert fields(want) == fields(sacrebleu.corpus_bleu(hyps, refs, tokenize=tokenize))


def test_streaming_reads_files_as_the_command_line(tmp_path: Path) -> None:
    hyps, refs = read_lines(HYP), [read_lines(r) for r in REFS]
    want = turbobleu.corpus_bleu(hyps, refs)
    assert fields(turbobleu.corpus_bleu_stream(HYP, REFS, chunk_size=9)) == fields(want)
    with open(HYP, encoding="utf-8") as handle:  # an open file is an iterable of lines too
        got = turbobleu.corpus_bleu_stream(
            (line.rstrip() for line in handle), [str(p) for p in REFS]
        )
    assert fields(got) == fields(want)


def test_a_library_tokenizer_and_missing_references_take_the_general_path() -> None:
    hyps = ["a b c", "d e", "f g h ."]
    refs = [["a b c", None, "f g"], ["a b", "d e", None]]
    want = turbobleu.corpus_bleu(hyps, refs)
    got = turbobleu.BLEU().corpus_score_stream(hyps, refs, chunk_size=2)
    assert fields(got) == fields(want)
    pytest.importorskip("MeCab")
    want = sacrebleu.corpus_bleu(hyps, [["a b c", "d", "f g"]], tokenize="ja-mecab")
    got = turbobleu.corpus_bleu_stream(
        hyps, [["a b c", "d", "f g"]], tokenize="ja-mecab", chunk_size=2
    )
    assert fields(got) == fields(want)


@pytest.mark.parametrize(
    "hyps,refs,error,name",
    [
        (["a", "b"], [["a"]], ValueError, "references[0] has 1 lines"),
        (["a"], [["a", "b"]], ValueError, "hypotheses has 1 lines"),
        (["a", None], [["a", "b"]], TypeError, "hypotheses[1]"),
        (["a", "b"], [["a", 5]], TypeError, "references[0][1]"),
        (5, [["a"]], TypeError, "hypotheses"),
        (["a"], "a", TypeError, "references"),
        (["a"], [], ValueError, "references is empty"),
        ([], [[]], ValueError, "hypotheses is empty"),
    ],
)
def test_bad_streams_name_the_argument(hyps: Any, refs: Any, error: type, name: str) -> None:
    with pytest.raises(error) as info:
        turbobleu.corpus_bleu_stream(hyps, refs, chunk_size=1)
    assert str(info.value).startswith(name)
    with pytest.raises(ValueError, match="chunk_size"):
        turbobleu.corpus_bleu_stream(["a"], [["a"]], chunk_size=0)


# -- the command line ---------------------------------------------------------------------------
def run_cli(*argv: str) -> str:
    out = io.StringIO()
    assert cli.run(list(argv), stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("block", [3, 20000])
def test_the_command_line_streams_with_the_same_output(monkeypatch: Any, block: int) -> None:
    monkeypatch.setattr(cli_bleu, "STATS_BLOCK", block)
    calls: List[int] = []
    real = cli_bleu.streamed_rows
    monkeypatch.setattr(cli_bleu, "streamed_rows", lambda *a: calls.append(1) or real(*a))
    argv = [str(REFS[0]), str(REFS[1]), "-i", str(HYP), str(HE_EN / "hyp.NLLB_Greedy.en")]
    streamed = run_cli(*argv, "-b")
    assert calls == [1]
    hyps, refs = read_lines(HYP), [read_lines(r) for r in REFS]
    assert f"{sacrebleu.corpus_bleu(hyps, refs).score:.1f}" in streamed
    # The in-memory path (stdin) prints the same table.
    monkeypatch.setattr(cli_bleu, "streams", lambda args: False)
    assert run_cli(*argv, "-b") == streamed


def test_the_command_line_streams_gzip_and_tab_separated_references(tmp_path: Path) -> None:
    hyps, refs = read_lines(HYP), [read_lines(r) for r in REFS]
    packed = tmp_path / "refs.tsv.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as handle:
        handle.write("".join(f"{a}\t{b}\n" for a, b in zip(*refs)))
    got = run_cli(str(packed), "-nr", "2", "-i", str(HYP), "-b")
    assert got.strip() == f"{sacrebleu.corpus_bleu(hyps, refs).score:.1f}"


def test_stream_errors_match_the_in_memory_ones(tmp_path: Path, monkeypatch: Any) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"a\n\xff\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    cases = [[str(REFS[0]), "-i", str(short)], [str(bad), "-i", str(short)]]
    cases += [[str(empty), "-i", str(short)], [str(REFS[0]), "-i", str(tmp_path / "missing")]]
    for argv in cases:
        with pytest.raises(cli.InputError) as streamed:
            cli.run(argv, stdout=io.StringIO())
        with monkeypatch.context() as m:
            m.setattr(cli_bleu, "streams", lambda args: False)
            with pytest.raises(cli.InputError) as in_memory:
                cli.run(argv, stdout=io.StringIO())
        assert str(streamed.value) == str(in_memory.value)
