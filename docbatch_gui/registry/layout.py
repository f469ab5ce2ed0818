"""Where the table is on a registry sheet: the header rows above it and the footer
rows below it, guessed so the wizard can propose them.

A registry an accountant sends is rarely a bare table. It starts with a merged title
("Реестр счетов за март 2024"), may have a two-row header ("Сумма" merged over "с
НДС, руб." and "НДС, руб."), and ends with a totals row and a signature line
("Главный бухгалтер ____ Петрова"). Taken as they are, the title becomes the header
and the signature a data row. The guess here is the one a person makes at a glance:

* the header is the first row whose filled cells all look like labels (text without
  many digits) with a row that looks like data (a number, a date, digits) close below;
  rows of labels right under it belong to the header too (its lower rows), and the
  last of them is ``header_row``;
* a footer row holds a totals word or a signature mark; the word becomes a skip word,
  so the import leaves the row out whatever its other cells hold.

``header_names`` joins the texts of a multi-row header per column, a merged cell
giving its text to every column under it, so "Сумма" over "с НДС, руб." names the
column "Сумма с НДС, руб.". The importer calls it when the configuration says where
the header starts (``header_top_row``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

__all__ = [
    "FOOTER_SIGNATURE",
    "FOOTER_TOTALS",
    "FooterRow",
    "SheetLayout",
    "cell_kind",
    "footer_of",
    "guess_layout",
    "header_names",
    "with_layout",
]

Merged = Sequence[tuple[int, int, int, int]]  # (first col, first row, last col, last row)

FOOTER_TOTALS = "totals"
FOOTER_SIGNATURE = "signature"
#: words that make a row a totals row, as written in the registries seen (folded case)
TOTALS_WORDS = ("итого", "всего", "total")
#: words of a signature line; underscores are the line a person signs on
#: and of the signature block's other lines ("Исполнитель: Иванова И. И., тел. …"),
#: with their colon, so that a data row naming an "исполнитель" is not taken for one
SIGNATURE_WORDS = (
    "___",
    "подпись",
    "м.п.",
    "главный бухгалтер",
    "руководитель",
    "исполнитель:",
    "составил:",
    "ответственный:",
    "signature",
    "prepared by:",
)
#: how far down the header is looked for (a title block is a few rows)
HEADER_SEARCH_ROWS = 30
#: how close below the header the first data row must be
DATA_WITHIN = 4
_DIGIT = re.compile(r"\d")


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def cell_kind(value: Any) -> str:
    """ "empty", "data" (numbers, dates, text that is mostly digits) or "label"."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "empty"
    if isinstance(value, bool | int | float | date | datetime | time):
        return "data"
    text = "".join(str(value).split())
    digits = len(_DIGIT.findall(text))
    return "data" if digits and digits * 5 >= len(text) * 2 else "label"


def _kinds(values: Sequence[Any]) -> list[str]:
    return [cell_kind(v) for v in values]


def _is_label_row(values: Sequence[Any], least: int = 2) -> bool:
    kinds = _kinds(values)
    return kinds.count("label") >= least and "data" not in kinds


def _is_data_row(values: Sequence[Any]) -> bool:
    kinds = _kinds(values)
    return "data" in kinds and len(kinds) - kinds.count("empty") >= 2


def _is_header_part(resolved: Sequence[Any], plain: Sequence[Any]) -> bool:
    """A row under the header's first row that belongs to it: labels only (its own or
    merged from above), no data, and no footer word."""
    return _is_label_row(resolved, least=1) and not _is_data_row(plain) \
        and footer_of(0, plain) is None  # fmt: skip


@dataclass(frozen=True)
class FooterRow:
    """A row below the table: ``kind`` is FOOTER_TOTALS or FOOTER_SIGNATURE and
    ``word`` the skip word that leaves it out."""

    row: int
    kind: str
    word: str


@dataclass(frozen=True)
class SheetLayout:
    """The rows a wizard proposes; rows are 1-based as Excel shows them."""

    header_row: int = 1
    data_start_row: int = 2
    #: the top row of a multi-row header (None: the header is one row)
    header_top_row: int | None = None
    footer: list[FooterRow] = field(default_factory=list)

    @property
    def skip_words(self) -> list[str]:
        """The words that leave the footer rows out, each once, in sheet order."""
        return list(dict.fromkeys(f.word for f in self.footer))

    def footer_row(self, row: int) -> FooterRow | None:
        return next((f for f in self.footer if f.row == row), None)


def footer_of(row: int, values: Sequence[Any]) -> FooterRow | None:
    """The row as a footer row, or None when it reads as data or as nothing.

    A totals row may carry numbers (the sums); a signature line carries none but
    the date it was signed, so it is told by its words alone."""
    texts = [_text(v).casefold() for v in values if isinstance(v, str) and v.strip()]
    if not texts:
        return None
    for word in TOTALS_WORDS:
        if any(t.startswith(word) for t in texts):
            return FooterRow(row, FOOTER_TOTALS, word)
    joined = " ".join(texts)
    for word in SIGNATURE_WORDS:
        if word in joined:
            return FooterRow(row, FOOTER_SIGNATURE, word)
    return None


def _resolved(rows: Sequence[Sequence[Any]], merged: Merged) -> list[list[Any]]:
    """The rows with each merged range's value in every cell it covers."""
    out = [list(r) for r in rows]
    for c0, r0, c1, r1 in merged:
        if r0 > len(out):
            continue
        top = out[r0 - 1]
        value = top[c0] if c0 < len(top) else None
        for r in range(r0, min(r1, len(out)) + 1):
            line = out[r - 1]
            line.extend([None] * (c1 + 1 - len(line)))
            for c in range(c0, c1 + 1):
                if r != r0 or c != c0:
                    line[c] = value
    return out


def guess_layout(
    rows: Sequence[Sequence[Any]], merged: Merged = (), tail: Iterable[tuple[int, Any]] = ()
) -> SheetLayout:
    """The header and data rows of the first ``rows`` of a sheet (row 1 first), and
    its footer rows among those and ``tail`` ((row number, values) past them).

    Nothing found (no row of labels above data) gives the defaults: header row 1."""
    plain = [list(r) for r in rows]
    filled = _resolved(plain, merged)
    header_top = header = None
    for index in range(min(len(plain), HEADER_SEARCH_ROWS)):
        below = plain[index + 1 : index + 1 + DATA_WITHIN]
        if _is_label_row(plain[index]) and any(_is_data_row(r) for r in below):
            header_top = header = index
            break
    layout = SheetLayout()
    if header is not None and header_top is not None:
        # the header's lower rows: labels only (merged from above or new), no data
        while header + 1 < len(plain) and _is_header_part(filled[header + 1], plain[header + 1]):
            header += 1
        layout = SheetLayout(
            header_row=header + 1,
            data_start_row=header + 2,
            header_top_row=header_top + 1 if header > header_top else None,
        )
    start = layout.data_start_row
    footer = [f for n, values in enumerate(plain, 1) if n >= start if (f := footer_of(n, values))]
    footer.extend(f for n, values in tail if n >= start if (f := footer_of(n, values)))
    return SheetLayout(layout.header_row, layout.data_start_row, layout.header_top_row, footer)


def header_names(
    header_rows: Mapping[int, Sequence[Any]], top: int, bottom: Sequence[int], merged: Merged
) -> list[Any]:
    """Each column's header text from row ``top`` down to its own header row
    (``bottom[col]``), merged cells resolved, a text repeated by a merge once:
    "Сумма" (merged over two columns) above "с НДС, руб." gives "Сумма с НДС, руб.";
    None for a column with no text at all."""

    def cell(row: int, col: int) -> Any:
        for c0, r0, c1, r1 in merged:
            if r0 <= row <= r1 and c0 <= col <= c1:
                row, col = r0, c0
                break
        values = header_rows.get(row, ())
        return values[col] if col < len(values) else None

    names: list[Any] = []
    for col, last in enumerate(bottom):
        parts: list[str] = []
        for row in range(min(top, last), last + 1):
            text = _text(cell(row, col))
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        names.append(" ".join(parts) or None)
    return names


def with_layout(draft: dict[str, Any], layout: SheetLayout) -> dict[str, Any]:
    """A configuration JSON (the wizard's draft) with the guessed rows, and the
    footer's skip words added to those it has."""
    words = list(draft.get("skip_rows_containing") or [])
    folded = {w.casefold() for w in words}
    words.extend(w for w in layout.skip_words if w.casefold() not in folded)
    return {
        **draft,
        "header_row": layout.header_row,
        "data_start_row": layout.data_start_row,
        "header_top_row": layout.header_top_row,
        "column_header_row": {},
        "skip_rows_containing": words,
    }
