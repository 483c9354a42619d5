"""The command line's two parsers: ``options.parse_plain`` (no argparse, for the plain forms)
must give argparse's namespace or None, on chosen and on generated command lines."""

from __future__ import annotations

import subprocess
import sys
from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turbobleu.cli import options
from turbobleu.cli.options import UsageError, build_parser, parse_plain


def argparse_result(argv: List[str]) -> object:
    """argparse's namespace as a dict, or the string "error"."""
    try:
        return vars(build_parser().parse_args(argv))
    except (UsageError, SystemExit):
        return "error"


PLAIN = [
    [],
    ["ref.txt"],
    ["ref.txt", "-i", "hyp.txt"],
    ["ref.txt", "-i", "hyp.txt", "-b"],
    ["r1", "r2", "--input", "h1", "h2", "h3", "--paired-bs", "-q"],
    ["ref", "-i", "hyp", "-m", "bleu", "chrf", "-w", "2", "-f", "text", "-lc", "-tok", "intl"],
    ["ref", "-i", "hyp", "-m", "chrf", "--chrf-word-order", "2", "--chrf-lowercase"],
    ["ref", "-i", "hyp", "-ci", "-cin", "100", "-sh", "-nc", "-sl", "-l", "en-de"],
    ["ref", "-i", "hyp", "-s", "floor", "-sv", "0.5", "-nr", "2", "-e", "latin-1"],
    ["-i", "hyp"],
    ["ref", "-i"],
    ["ref", "-i", "hyp", "-t", "wmt14"],  # hidden: read, then refused after parsing
]

NOT_PLAIN = [
    ["--help"],
    ["-V"],
    ["ref", "-i", "hyp", "--width=2"],
    ["ref", "-i", "hyp", "-w2"],
    ["ref", "--inp", "hyp"],  # an abbreviation
    ["ref", "-i", "hyp", "-b", "-b"],  # repeated
    ["ref", "-i", "hyp", "-w", "-1"],  # a value that starts with -
    ["ref", "-i", "hyp", "-w", "x"],  # argparse refuses it
    ["ref", "-i", "hyp", "-tok", "nope"],  # not a choice
    ["ref", "-i", "hyp", "--paired-bs", "--paired-ar"],  # mutually exclusive
    ["ref", "-b", "ref2"],  # a reference after an option
    ["-", "-i", "hyp"],
    ["ref", "--", "-i"],
]


@pytest.mark.parametrize("argv", PLAIN, ids=lambda a: " ".join(a) or "(none)")
def test_plain_command_lines_read_as_argparse_reads_them(argv: List[str]) -> None:
    plain = parse_plain(argv)
    assert plain is not None
    assert vars(plain) == argparse_result(argv)


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=" ".join)
def test_other_command_lines_are_left_to_argparse(argv: List[str]) -> None:
    assert parse_plain(argv) is None


TOKENS = sorted({flag for option in options.OPTIONS for flag in option.flags}) + [
    "ref.txt",
    "hyp.txt",
    "2",
    "-1",
    "0.5",
    "bleu",
    "chrf",
    "intl",
    "text",
    "en-de",
    "",
    "-",
    "--",
    "--width=3",
    "--inp",
    "-h",
    "a b",
    "-x y",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=9))
def test_generated_command_lines_agree_with_argparse(argv: List[str]) -> None:
    plain = parse_plain(argv)
    if plain is not None:
        assert vars(plain) == argparse_result(argv)


def test_every_option_has_one_default_in_both_parsers() -> None:
    assert vars(parse_plain([])) == vars(build_parser().parse_args([]))


def test_plain_command_line_does_not_import_argparse(tmp_path) -> None:
    """The point of the plain parser: a plain run loads no argparse (and, compiled, neither re
    nor NumPy: the pure-Python twins need both)."""
    from turbobleu._engine import choice as _choice

    (tmp_path / "ref.txt").write_text("a b c d\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c e\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from turbobleu.cli import main\n"
        "status = main(['ref.txt', '-i', 'hyp.txt', '-b'])\n"
        "print(status, sorted(m for m in ('argparse', 're', 'numpy') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    status, loaded = done.stdout.splitlines()[-1].split(" ", 1)
    assert status == "0"
    assert "argparse" not in loaded
    if _choice.implementation == "cython":
        assert loaded == "[]"
