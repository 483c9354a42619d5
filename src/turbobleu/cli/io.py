"""Reading the ``turbobleu`` command's input files, with one-line errors that name file and line.

Lines are read as sacrebleu's command line reads them: files are opened with ``newline="\\n"``
(so only ``\\n`` ends a line; a ``\\r`` stays inside it), standard input with universal newlines
(``\\r\\n`` and ``\\r`` end lines too), and every line is ``rstrip()``-ed. ``.gz`` files are
decompressed.
"""

from __future__ import annotations

import codecs
import itertools
import operator
import sys

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Iterable, Iterator, List, Optional, Tuple

# Exit status of sacrebleu for a wrong number of tab-separated fields.
EXIT_FIELDS = 17


class InputError(Exception):
    """A problem with the user's input: reported as one line, with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def check_encoding(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} (-e/--encoding)", 2) from None


def _read_bytes(path: str) -> bytes:
    with _reading(path):
        if path.endswith(".gz"):
            return _read_gzip(path)
        with open(path, "rb") as handle:
            return handle.read()


class _reading:  # noqa: N801 (used as `with _reading(path):`, as a function would be)
    """OS errors while reading ``path`` as one-line InputErrors. (A class, not a contextlib
    generator: contextlib and functools would be imported for it alone.)"""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, traceback: Any) -> None:
        path = self.path
        if isinstance(exc, FileNotFoundError):
            raise InputError(f"{path}: no such file") from None
        if isinstance(exc, IsADirectoryError):
            raise InputError(f"{path}: is a directory, not a text file") from None
        if isinstance(exc, PermissionError):
            raise InputError(f"{path}: permission denied") from None
        if isinstance(exc, OSError):
            raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _read_gzip(path: str) -> bytes:
    import gzip  # here: only .gz inputs need it (and zlib, lzma, bz2 with it)
    import zlib

    try:
        with gzip.open(path, "rb") as handle:
            return handle.read()
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InputError(f"{path}: not a readable gzip file ({exc})") from None


def _decode(data: bytes, encoding: str, name: str, lines_before: int = 0) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = lines_before + before.decode(encoding, errors="replace").count("\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        bad = data[exc.start : exc.end]
        raise InputError(
            f"{name}:{line}: not valid {encoding} (byte{'s' if len(bad) > 1 else ''} "
            f"{' '.join(f'0x{b:02x}' for b in bad)} at byte {column} of the line); "
            "give the right encoding with -e/--encoding"
        ) from None


def _split(text: str) -> List[str]:
    """Lines split at ``\\n`` only (a final newline ends the last line), right-stripped."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_file(path: str, encoding: str) -> List[str]:
    """The lines of one reference or system file (an empty file is an error)."""
    lines = _split(_decode(_read_bytes(path), encoding, path))
    if not lines:
        raise InputError(f"{path}: empty file (it needs one line per segment)")
    return lines


def read_references(
    paths: List[str], encoding: str, num_refs: int
) -> Tuple[List[List[str]], List[str]]:
    """Reference streams and a name for each (``FILE`` or ``FILE (field K)`` with -nr)."""
    if num_refs == 1:
        return [read_file(p, encoding) for p in paths], list(paths)
    path = paths[0]
    streams: List[List[str]] = [[] for _ in range(num_refs)]
    for fields in _split_fields(read_file(path, encoding), path, num_refs):
        for stream, field in zip(streams, fields):
            stream.append(field)
    return streams, [f"{path} (field {k + 1})" for k in range(num_refs)]


def read_stdin_systems(encoding: str, stream: Optional[BinaryIO] = None) -> List[List[str]]:
    """Systems from standard input: one per tab-separated field (the first line sets how many)."""
    source = stream if stream is not None else sys.stdin.buffer
    text = _decode(source.read(), encoding, "<stdin>")
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as sacrebleu
    lines = _split(text)
    if not lines:
        raise InputError("<stdin>: no input (give hypotheses on standard input or with -i)")
    # sacrebleu strips each line as a whole (as _split does) and every later field on its own.
    systems = [[field] for field in lines[0].split("\t")]
    n = len(systems)
    for fields in _tab_fields(
        lines[1:],
        "<stdin>",
        n,
        lambda found: f"found {found} tab-separated fields but line 1 has {n} (one per system)",
        first=2,
    ):
        for system, field in zip(systems, fields):
            system.append(field.rstrip())
    return systems


def check_lengths(
    systems: List[List[str]],
    system_names: List[str],
    references: List[List[str]],
    reference_names: List[str],
) -> None:
    """Every system and reference stream must have one line per segment."""
    check_counts(
        [len(s) for s in systems], system_names, [len(r) for r in references], reference_names
    )


def check_counts(
    system_lines: List[int],
    system_names: List[str],
    reference_lines: List[int],
    reference_names: List[str],
) -> None:
    """``check_lengths`` from the line counts."""
    expected = reference_lines[0]
    for lines, name in zip(reference_lines[1:], reference_names[1:]):
        if lines != expected:
            raise _mismatch(reference_names[0], expected, name, lines)
    for lines, name in zip(system_lines, system_names):
        if lines != expected:
            raise _mismatch(reference_names[0], expected, name, lines)


# -- streaming: files read block by block, for the scores that need no per-segment rows -------
BLOCK_BYTES = 1 << 20


def can_stream(encoding: str) -> bool:
    """Whether ``encoding`` can be cut into lines at ``\n`` bytes before decoding (UTF-8 and
    the other ASCII-compatible, stateless encodings; not UTF-16/32 or UTF-7)."""
    name = codecs.lookup(encoding).name
    return "\n".encode(name) == b"\n" and not name.startswith(("utf-7", "iso2022", "hz"))


def stream_lines(path: str, encoding: str) -> Iterator[str]:
    """The lines of one file as ``read_file`` gives them, read ``BLOCK_BYTES`` at a time."""
    return itertools.chain.from_iterable(_line_blocks(path, encoding))


def _line_blocks(path: str, encoding: str) -> Iterator[List[str]]:
    done = 0
    carry = b""
    with _reading(path):
        if path.endswith(".gz"):
            import gzip

            handle: BinaryIO = gzip.open(path, "rb")  # type: ignore[assignment]
        else:
            handle = open(path, "rb")
        with handle:
            while True:
                block = _read_block(handle, path)
                if not block:
                    break
                data = carry + block
                cut = data.rfind(b"\n") + 1
                carry = data[cut:]
                if cut:
                    lines = _decode(data[:cut], encoding, path, done).split("\n")
                    lines.pop()  # (empty: the block ends with its last line's newline)
                    done += len(lines)
                    yield [line.rstrip() for line in lines]
    if carry:
        done += 1
        yield [_decode(carry, encoding, path, done - 1).rstrip()]
    if not done:
        raise InputError(f"{path}: empty file (it needs one line per segment)")


def _read_block(handle: BinaryIO, path: str) -> bytes:
    if not path.endswith(".gz"):
        return handle.read(BLOCK_BYTES)
    import zlib  # here: only a gzip stream raises its errors

    try:
        return handle.read(BLOCK_BYTES)
    except (EOFError, zlib.error, OSError) as exc:  # (gzip.BadGzipFile is an OSError)
        raise InputError(f"{path}: not a readable gzip file ({exc})") from None


def stream_references(paths: List[str], encoding: str, num_refs: int) -> List[Iterator[str]]:
    """Reference streams (as ``read_references`` gives them), read lazily."""
    if num_refs == 1:
        return [stream_lines(p, encoding) for p in paths]
    path = paths[0]
    split = _split_fields(stream_lines(path, encoding), path, num_refs)
    copies = itertools.tee(split, num_refs)
    return [map(operator.itemgetter(k), copy) for k, copy in enumerate(copies)]


def _split_fields(lines: Iterable[str], path: str, num_refs: int) -> Iterator[List[str]]:
    """Each line's ``num_refs`` tab-separated references (-nr), or the error naming the line."""
    return _tab_fields(
        lines,
        path,
        num_refs,
        lambda found: (
            f"expected {num_refs} tab-separated references (-nr {num_refs}), found {found}"
        ),
        maxsplit=num_refs - 1,
    )


def _tab_fields(
    lines: Iterable[str],
    name: str,
    count: int,
    mismatch: Callable[[int], str],
    maxsplit: int = -1,
    first: int = 1,
) -> Iterator[List[str]]:
    """Each line split at tabs into ``count`` fields, or sacrebleu's exit status with an error
    that names the line (line numbers from ``first``; ``mismatch(found)`` words the rest)."""
    for number, line in enumerate(lines, first):
        fields = line.split("\t", maxsplit)
        if len(fields) != count:
            raise InputError(f"{name}:{number}: {mismatch(len(fields))}", EXIT_FIELDS)
        yield fields


def segment_chunks(
    systems: List[Iterator[str]],
    system_names: List[str],
    references: List[Iterator[str]],
    reference_names: List[str],
    size: int,
) -> Iterator[Tuple[List[List[str]], List[List[str]]]]:
    """(systems, references) chunks of ``size`` segments, read in lock-step; streams of
    different lengths raise ``check_lengths``' error (the rest of each stream is counted)."""
    streams = references + systems
    done = 0
    while True:
        parts = [list(itertools.islice(s, size)) for s in streams]
        if len({len(p) for p in parts}) > 1:
            counts = [done + len(p) + sum(1 for _ in s) for p, s in zip(parts, streams)]
            k = len(references)
            check_counts(counts[k:], system_names, counts[:k], reference_names)
        if not parts[0]:
            return
        done += len(parts[0])
        yield parts[len(references) :], parts[: len(references)]


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _mismatch(ref_name: str, ref_lines: int, name: str, lines: int) -> InputError:
    longer, shorter = (ref_name, name) if ref_lines > lines else (name, ref_name)
    first_extra = min(ref_lines, lines) + 1
    return InputError(
        f"{name} has {_lines(lines)} but {ref_name} has {ref_lines}: line "
        f"{first_extra} of {longer} has no counterpart in {shorter} (system and "
        "reference streams must have the same number of lines)"
    )
