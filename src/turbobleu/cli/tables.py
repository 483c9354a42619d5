"""The multi-system tables of the ``turbobleu`` command, laid out as sacrebleu prints them.

sacrebleu renders them with ``tabulate`` (``fancy_grid`` for text, ``latex_booktabs`` for LaTeX,
first column right-aligned, the others centred, number parsing on). This module reproduces that
layout for the tables sacrebleu builds (a name column and a score column), without the
dependency: cell types and number re-formatting, whitespace stripping, minimum column widths,
multi-line cells, ANSI colour codes that take no width, and LaTeX escaping.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import List, Optional, Sequence

# Patterns, compiled (and ``re`` imported) on first use: one system's score needs no table.
# CSI escape sequences (colours); they take no room on screen.
_ANSI = r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"
_LINE_BREAK = r"\r|\n|\r\n"
# A number with thousands separators, e.g. 1,000 or 1,000.5 (also .5 and 1.).
_THOUSANDS = r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$"
# tabulate's minimum room around a header.
_MIN_PADDING = 2

_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}

# Cell types, from least to most generic.
_NONE, _BOOL, _INT, _FLOAT, _STR = range(5)


def strip_ansi(text: str) -> str:
    import re

    return re.sub(_ANSI, "", text)


def _converts(kind: type, text: str) -> bool:
    try:
        kind(text)
        return True
    except (ValueError, TypeError):
        return False


def _is_number(text: str) -> bool:
    if not _converts(float, text):
        return False
    value = float(text)
    return not (value != value or value in (float("inf"), float("-inf"))) or text.lower() in (
        "inf",
        "-inf",
        "nan",
    )


def _cell_type(text: str) -> int:
    import re

    text = strip_ansi(text)
    if not text:
        return _NONE
    if text in ("True", "False"):
        return _BOOL
    if _converts(int, text) or (re.match(_THOUSANDS, text) and "." not in text):
        return _INT
    if _is_number(text) or re.match(_THOUSANDS, text):
        return _FLOAT
    return _STR


def _format_cell(text: str, kind: int, floatfmt: str, has_invisible: bool) -> str:
    """A number column re-formats its floats with ``floatfmt``; everything else is kept."""
    if not text or kind != _FLOAT:
        return text
    if has_invisible:
        raw = strip_ansi(text)
        try:
            return text.replace(raw, format(float(raw), floatfmt))
        except ValueError:
            return text
    try:
        return format(float(text.replace(",", "")), floatfmt)
    except ValueError:
        return text


def _pad(text: str, width: int, align: str) -> str:
    return f"{text:>{width}}" if align == "right" else f"{text:^{width}}"


class _Widths:
    """Visible width of a cell line (colour codes are invisible), and of multi-line cells."""

    def __init__(self, has_invisible: bool, multiline: bool) -> None:
        self.has_invisible = has_invisible
        self.multiline = multiline

    def line(self, text: str) -> int:
        return len(strip_ansi(text)) if self.has_invisible else len(text)

    def cell(self, text: str) -> int:
        import re

        if self.multiline:
            return max(self.line(part) for part in re.split("[\r\n]", text))
        return self.line(text)


def _align_column(cells: List[str], align: str, min_width: int, widths: _Widths) -> List[str]:
    import re

    cells = [c.strip() for c in cells]
    if widths.multiline:
        line_widths = [[widths.line(p) for p in re.split("[\r\n]", c)] for c in cells]
        width = max(max(w for ws in line_widths for w in ws), min_width)
        out = []
        for cell, cell_widths in zip(cells, line_widths):
            lines = cell.splitlines()
            if widths.has_invisible:
                lens = [len(p) for p in re.split("[\r\n]", cell)]
                targets = [width - (w - n) for w, n in zip(cell_widths, lens)]
                out.append("\n".join(_pad(p, t, align) for p, t in zip(lines or cell, targets)))
            else:
                out.append("\n".join(_pad(p, width, align) for p in lines))
        return out
    width = max(max(widths.line(c) for c in cells), min_width)
    if widths.has_invisible:
        return [_pad(c, width - (widths.line(c) - len(c)), align) for c in cells]
    return [_pad(c, width, align) for c in cells]


def _align_header(header: str, align: str, width: int, widths: _Widths) -> str:
    import re

    if widths.multiline:
        return "\n".join(
            _align_header_line(h, align, width, widths) for h in re.split(_LINE_BREAK, header)
        )
    return _align_header_line(header, align, width, widths)


def _align_header_line(header: str, align: str, width: int, widths: _Widths) -> str:
    return _pad(header, width + len(header) - widths.line(header), align)


def render(
    headers: Sequence[str], columns: Sequence[Sequence[str]], style: str, floatfmt: str
) -> str:
    """A table (``style`` "grid" for text, "booktabs" for LaTeX) of string columns."""
    import re

    plain = "\t".join(list(headers) + [c for col in columns for c in col])
    has_invisible = re.search(_ANSI, plain) is not None
    multiline = style == "grid" and re.search(_LINE_BREAK, plain) is not None
    widths = _Widths(has_invisible, multiline)

    aligns = ["right"] + ["center"] * (len(columns) - 1)
    formatted = []
    for col in columns:
        kind = max([_BOOL] + [_cell_type(c) for c in col])
        formatted.append([_format_cell(c, kind, floatfmt, has_invisible) for c in col])
    min_widths = [widths.cell(h) + _MIN_PADDING for h in headers]
    aligned = [_align_column(col, a, w, widths) for col, a, w in zip(formatted, aligns, min_widths)]
    col_widths = [max(w, max(widths.cell(c) for c in col)) for w, col in zip(min_widths, aligned)]
    head = [_align_header(h, a, w, widths) for h, a, w in zip(headers, aligns, col_widths)]
    rows = [list(r) for r in zip(*aligned)]
    if style == "grid":
        return _grid(head, rows, col_widths, multiline)
    return _booktabs(head, rows, aligns)


def _grid(head: List[str], rows: List[List[str]], col_widths: List[int], multiline: bool) -> str:
    def line(begin: str, fill: str, sep: str, end: str) -> str:
        return begin + sep.join(fill * (w + 2) for w in col_widths) + end

    def row_lines(cells: List[str]) -> List[str]:
        if not multiline:
            return [("│" + "│".join(f" {c} " for c in cells) + "│").rstrip()]
        split = [c.splitlines() for c in cells]
        height = max(len(s) for s in split)
        split = [s + [" " * w] * (height - len(s)) for s, w in zip(split, col_widths)]
        return [("│" + "│".join(f" {s[i]} " for s in split) + "│").rstrip() for i in range(height)]

    lines = [line("╒", "═", "╤", "╕")]
    lines += row_lines(head)
    lines.append(line("╞", "═", "╪", "╡"))
    for i, row in enumerate(rows):
        if i:
            lines.append(line("├", "─", "┼", "┤"))
        lines += row_lines(row)
    lines.append(line("╘", "═", "╧", "╛"))
    return "\n".join(lines)


def _booktabs(head: List[str], rows: List[List[str]], aligns: List[str]) -> str:
    def latex_row(cells: List[str]) -> str:
        escaped = ["".join(_LATEX_ESCAPES.get(ch, ch) for ch in f" {c} ") for c in cells]
        return ("&".join(escaped) + "\\\\").rstrip()

    spec = "".join("r" if a == "right" else "c" for a in aligns)
    lines = ["\\begin{tabular}{" + spec + "}", "\\toprule", latex_row(head), "\\midrule"]
    lines += [latex_row(r) for r in rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines)


def colorize(text: str, color: Optional[str]) -> str:
    """``text`` in an ANSI colour (colorama's codes), or unchanged for ``None``."""
    codes = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
    if color is None:
        return text
    return f"{codes[color]}{text}\x1b[0m"
