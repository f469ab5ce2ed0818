"""Tables of goods read from the words' positions on born-digital pages.

A printed table is words in columns. The column header is found by the profile's
``line_fields`` phrases (``headers``), one header cell per column, even when the
cell is wrapped over two or three lines ("Сумма / без НДС"); every data word then
belongs to the column under whose header it stands. A row starts where the row
number (or, without one, the quantity or the sum) is printed; the lines below it
until the next row are its wrapped cells ("1\\n944,30" is one value, 1944.30). The
same works whether the table is ruled or not, since only the words are read (PyMuPDF's
``find_tables`` finds ruled tables only, and its cell text loses spaces and moves
decimal commas).

Across pages: a header repeated on the next page starts its rows again under the
same table; lines between that header and the first numbered row finish the row the
page break cut. "Carried forward" and page-total lines are not goods. The table ends
at its totals line ("Итого", "Всего", "Total"); a document whose table has not ended
by its last page says so (``table_open``), and the checks call it incomplete.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from docbatch_gui.config.profile import LineFieldProfile, Profile
from docbatch_gui.domain.lines import LINE_KEYS, Line, decimal
from docbatch_gui.pipeline.table_headers import best_field_of, claims_of, fold, header_phrases
from docbatch_gui.pipeline.words import Word

__all__ = [
    "TableRead",
    "has_goods_table",
    "line_number",
    "line_rate",
    "printed_row_count",
    "read_table",
]

#: a gap between two words wider than this many average character widths parts
#: cells (a space is about half a character; the padding of two cells is more)
CELL_GAP_CHARS = 1.1
#: header lines at most (a header cell wrapped over three lines)
HEADER_LINES = 3
#: header cells a table needs: the goods' name and at least two more columns
MIN_HEADER_FIELDS = 3

_SPACES = str.maketrans("", "", " \u00a0\u2009\u202f\u2007'’")
#: currency signs at either end of a figure, a minus before them kept ("-$5" is -5)
_CURRENCY_SIGNS = "$€£¥₽₴₸₹¢₩₺"
_CURRENCY_SIGNS_RE = re.compile(rf"^(-?)[{_CURRENCY_SIGNS}]+|[{_CURRENCY_SIGNS}]+$")
_CARRIED_RE = re.compile(
    r"(?<!\w)(перенос|с переносом|итого по (листу|странице)|с предыдущей страницы|"
    r"carried forward|brought forward|balance forward|page total|subtotal this page)(?!\w)"
)
_TOTAL_RE = re.compile(r"^\W*(итого|всего|total|subtotal|grand total|sum)(?!\w)")
_PAGE_CUE_RE = re.compile(r"^\W*(страница|стр|лист|page)\W*\d+(\W*(из|of)\W*\d+)?\W*$")
_COUNT_RES = (
    re.compile(r"всего наименований\W*(\d{1,5})(?!\d)"),
    re.compile(r"итого\W*(\d{1,5})\W*(позици|наименовани)"),
    re.compile(r"(\d{1,5})\s+(позици\w*|наименовани\w*)\b.{0,20}на сумму"),
    re.compile(r"(?:number of items|total items|items total|line items)\W*(\d{1,5})(?!\d)"),
)
_WITHOUT_VAT_RE = re.compile(r"без\W*ндс|без налога|не облагается|exempt|no vat|n/?a")


@dataclass(frozen=True)
class TableRead:
    """What the reader found in a document's pages."""

    lines: list[Line] = field(default_factory=list)
    #: the row count the document prints, if it prints one
    printed_rows: int | None = None
    #: the table had not reached its totals line by the last page
    table_open: bool = False
    #: pages where a column header of goods was found
    header_pages: list[int] = field(default_factory=list)


# ------------------------------------------------------------------ values


def line_number(text: str) -> str | None:
    """A printed number as a dot-decimal string: spaces and no-break spaces dropped,
    a decimal comma read as a point, thousands separators removed; None when it is
    not a number ("—", "-", a word)."""
    raw = text.translate(_SPACES).strip().replace("\u2212", "-")
    if not raw or not any(ch.isdigit() for ch in raw):
        return None
    # a currency sign printed with the figure ("$120.00", "120,00 ₽", "-$5"): the
    # column's currency is the document's, the figure is the cell's value
    raw = _CURRENCY_SIGNS_RE.sub(r"\1", raw)
    if "," in raw and "." in raw:
        decimal_mark = "," if raw.rfind(",") > raw.rfind(".") else "."
        thousands = "." if decimal_mark == "," else ","
        raw = raw.replace(thousands, "").replace(decimal_mark, ".")
    elif raw.count(",") == 1:
        raw = raw.replace(",", ".")
    elif raw.count(",") > 1:
        raw = raw.replace(",", "")
    if raw.count(".") > 1:
        head, _, tail = raw.rpartition(".")
        raw = head.replace(".", "") + "." + tail
    value = decimal(raw)
    return None if value is None else str(value)


def line_rate(text: str) -> str | None:
    """A VAT rate as printed: "20%" → "20", "20/120" kept, "без НДС" → "без НДС"."""
    folded = " ".join(text.lower().split())
    if not folded or folded in {"-", "—", "–"}:
        return None
    if _WITHOUT_VAT_RE.search(folded):
        return "без НДС"
    fraction = re.fullmatch(r"(\d{1,2})\s*/\s*(\d{3})", folded)
    if fraction:
        return f"{fraction[1]}/{fraction[2]}"
    return line_number(folded.rstrip("%").strip())


def printed_row_count(lines: Iterable[str]) -> int | None:
    """The row count a document prints ("Всего наименований 120", "Итого 12
    позиций", "Number of items: 3"); None when it prints none."""
    for line in lines:
        folded = line.lower().replace("ё", "е")
        for pattern in _COUNT_RES:
            found = pattern.search(folded)
            if found:
                return int(found[1])
    return None


# ------------------------------------------------------------------ layout


@dataclass
class _Row:
    """One visual line of a page: words at the same height, left to right."""

    words: list[Word]
    top: float = 0.0
    bottom: float = 0.0
    #: the column key of each word, once the row is read under a header
    keys: list[str | None] | None = None

    def __post_init__(self) -> None:
        if self.words and self.top == self.bottom == 0.0:
            self.top = min(w[2] for w in self.words)
            self.bottom = max(w[4] for w in self.words)

    def add(self, word: Word) -> None:
        self.words.append(word)
        self.top, self.bottom = min(self.top, word[2]), max(self.bottom, word[4])

    def keyed(self, columns: _Columns) -> list[str | None]:
        """Each word's column key (worked out once per row)."""
        if self.keys is None:
            self.keys = [columns.key_at((w[1] + w[3]) / 2) for w in self.words]
        return self.keys

    @property
    def text(self) -> str:
        return " ".join(w[0] for w in self.words)

    def folded(self) -> str:
        return self.text.lower().replace("ё", "е")


def _visual_lines(words: Sequence[Word]) -> list[_Row]:
    """Words grouped into lines: a word joins a line its vertical middle falls in."""
    rows: list[_Row] = []
    # words that crossed a pipe as JSON arrive as lists: tuples, to be looked up
    plain = [w if isinstance(w, tuple) else tuple(w) for w in words]
    for word in sorted(plain, key=lambda w: ((w[2] + w[4]) / 2, w[1])):
        middle = (word[2] + word[4]) / 2
        if rows and rows[-1].top <= middle <= rows[-1].bottom:
            rows[-1].add(word)
        else:
            rows.append(_Row([word]))
    for row in rows:
        row.words.sort(key=lambda w: w[1])
    return rows


@dataclass
class _Cell:
    x0: float
    x1: float
    words: list[Word] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The cell's words in reading order; a word hyphenated at the end of a line
        is joined again ("по-" "рядку" is "порядку")."""
        ordered = sorted(self.words, key=lambda w: (round(w[2], 3), w[1]))
        text = " ".join(w[0] for w in ordered)
        return re.sub(r"(\w)- (\w)", r"\1\2", text)


def _char_width(words: Sequence[Word]) -> float:
    """The median width of a character of these words, in fractions of the page."""
    widths = sorted((w[3] - w[1]) / len(w[0]) for w in words if w[0])
    return widths[len(widths) // 2] if widths else 0.005


def _cells(words: Iterable[Word]) -> list[_Cell]:
    """Words in cells: words that overlap or stand closer than ``CELL_GAP_CHARS``
    side by side (on one line or on the lines of a wrapped header) are one cell."""
    ordered = sorted(words, key=lambda w: w[1])
    gap = _char_width(ordered) * CELL_GAP_CHARS
    cells: list[_Cell] = []
    for word in ordered:
        if cells and word[1] <= cells[-1].x1 + gap:
            cells[-1].x1 = max(cells[-1].x1, word[3])
            cells[-1].words.append(word)
        else:
            cells.append(_Cell(word[1], word[3], [word]))
    return cells


_CACHE: dict[tuple[int, str, tuple[str, ...]], tuple[object, Any]] = {}
_CACHE_SIZE = 4096


def _cached(
    kind: str, texts: tuple[str, ...], fields: Sequence[LineFieldProfile], make: Any
) -> Any:
    """A header match worked out once per text and profile: a long table repeats its
    header on every page, and its rows are tried as headers until one is found."""
    key = (id(fields), kind, texts)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is fields:
        return hit[1]
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    value = make()
    _CACHE[key] = (fields, value)
    return value


def _claims(words: Sequence[Word], fields: Sequence[LineFieldProfile]) -> list[str | None]:
    """Which field's header phrase each word is part of (longest phrases first)."""
    texts = tuple(w[0] for w in words)
    return list(_cached("claims", texts, fields, lambda: claims_of(texts, fields)))


def _split(
    cell: _Cell, fields: Sequence[LineFieldProfile], claimed: dict[Word, str | None] | None = None
) -> list[_Cell]:
    """A header cell whose words name two columns (cells printed without a gap:
    "Кол-во Сумма") parted where the named column changes; ``claimed`` holds the
    claims of the cell's line, when they are known."""
    claims = (
        [claimed.get(w) for w in cell.words] if claimed is not None else _claims(cell.words, fields)
    )
    parts: list[_Cell] = []
    current: str | None = None
    for word, claim in zip(cell.words, claims, strict=True):
        if parts and (claim is None or claim == current or current is None):
            parts[-1].x1 = max(parts[-1].x1, word[3])
            parts[-1].words.append(word)
            current = current or claim
        else:
            parts.append(_Cell(word[1], word[3], [word]))
            current = claim
    return parts


def _header_cells(band: Sequence[_Row], fields: Sequence[LineFieldProfile]) -> list[_Cell]:
    """The cells of a header band: each line's words in cells, then the cells of
    the band's lines that stand over one another joined (a wrapped header cell)."""
    pieces: list[_Cell] = []
    for row in band:
        claimed = dict(zip(row.words, _claims(row.words, fields), strict=True))
        pieces.extend(part for c in _cells(row.words) for part in _split(c, fields, claimed))
    pieces.sort(key=lambda c: c.x0)
    merged: list[_Cell] = []
    for piece in pieces:
        if merged and piece.x0 < merged[-1].x1:
            merged[-1].x1 = max(merged[-1].x1, piece.x1)
            merged[-1].words.extend(piece.words)
        else:
            merged.append(piece)
    return merged


@dataclass(frozen=True)
class _Header:
    """A column header: its cells (left to right), each with the key the profile's
    phrases give it (None: a column the profile does not read)."""

    cells: tuple[tuple[float, float, str | None], ...]
    bottom: float  # where the header ends on its page


@dataclass(frozen=True)
class _Columns:
    """Where each column's values stand: the stretches of the page the table's
    words fill, each under the header cell it overlaps most (or stands nearest)."""

    spans: tuple[tuple[float, float, str | None], ...]
    header: _Header
    starts: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tuple(span[0] for span in self.spans))

    def key_at(self, x: float) -> str | None:
        """The key of the stretch ``x`` stands in, else of the nearest one."""
        at = bisect.bisect_right(self.starts, x) - 1
        near = [i for i in (at, at + 1) if 0 <= i < len(self.spans)]
        if not near:
            return None
        best = min(
            near,
            key=lambda i: (
                0.0
                if self.spans[i][0] <= x <= self.spans[i][1]
                else min(abs(x - self.spans[i][0]), abs(x - self.spans[i][1]))
            ),
        )
        return self.spans[best][2]

    def has(self, key: str) -> bool:
        return any(cell[2] == key for cell in self.header.cells)


def _columns(header: _Header, body: Sequence[_Row]) -> _Columns:
    """Columns from the words under ``header``: a value of a left-aligned text
    column or a right-aligned number column reaches past its header's text, so the
    header says which column a stretch of words is and the words say where it is."""
    words = [w for row in body for w in row.words]
    if not words:
        return _Columns(tuple(header.cells), header)
    gap = _char_width(words) * 0.6
    spans: list[tuple[float, float, list[str]]] = []
    for word in sorted(words, key=lambda w: w[1]):
        if spans and word[1] <= spans[-1][1] + gap:
            x0, x1, texts = spans[-1]
            spans[-1] = (x0, max(x1, word[3]), [*texts, word[0]])
        else:
            spans.append((word[1], word[3], [word[0]]))
    return _Columns(tuple((x0, x1, _span_key(x0, x1, header)) for x0, x1, _t in spans), header)


def _span_key(x0: float, x1: float, header: _Header) -> str | None:
    """The header cell a stretch of words stands under: the one it overlaps most;
    clear of every header (a long name left-aligned, a number right-aligned in a
    wide column), the last header that begins left of the stretch's end."""

    def overlap(cell: tuple[float, float, str | None]) -> float:
        return min(x1, cell[1]) - max(x0, cell[0])

    cell = max(header.cells, key=overlap)
    if overlap(cell) > 0:
        return cell[2]
    left = [c for c in header.cells if c[0] <= x1]
    return max(left, key=lambda c: c[0])[2] if left else header.cells[0][2]


def _best_field(text: str, fields: Sequence[LineFieldProfile]) -> tuple[str, int] | None:
    """The field whose header phrase matches the cell's text longest."""
    found: tuple[str, int] | None = _cached(
        "best", (text,), fields, lambda: best_field_of(text, fields)
    )
    return found


#: the share of a header line's words that column names take, at least: a sentence
#: that names three columns ("наименование, количество и цена товара указываются в
#: счетах…") is prose, not a header
HEADER_SHARE = 0.3


def _header_words(words: Sequence[Word], fields: Sequence[LineFieldProfile]) -> set[str]:
    """The columns a line of words names, if it reads as a header line."""
    most = header_phrases(fields).most_claimed([fold(w[0]) for w in words])
    if not words or most < HEADER_SHARE * len(words):
        return set()  # too few of its words can name a column
    claims = _claims(words, fields)
    named = [c for c in claims if c is not None]
    if not words or len(named) < HEADER_SHARE * len(words):
        return set()
    return set(named)


def _all_fields(text: str, fields: Sequence[LineFieldProfile]) -> set[str]:
    """The columns a line of text names, if it reads as a header line."""
    words = [(w, 0.0, 0.0, 0.0, 0.0) for w in text.split()]
    return _header_words(words, fields)


def _best_header(
    rows: Sequence[_Row], start: int, profile: Profile
) -> tuple[_Header, int, int] | None:
    """The header found at ``rows[start]`` or just below it, whichever names the most
    columns (a line above a header can name a column or two: "Валюта: наименование,
    код"); returns the header, its first line and how many lines it takes."""
    best: tuple[_Header, int, int, int] | None = None
    for index in range(start, min(start + HEADER_LINES, len(rows))):
        found = _header_at(rows, index, profile)
        if found and (best is None or found[2] > best[3]):
            best = (found[0], index, found[1], found[2])
    return (best[0], best[1], best[2]) if best else None


def _header_at(
    rows: Sequence[_Row], start: int, profile: Profile
) -> tuple[_Header, int, int] | None:
    """The header that begins at ``rows[start]`` with the lines it takes, if any."""
    found: tuple[_Header, int, int] | None = None
    if not _header_words(rows[start].words, profile.line_fields):
        return None  # prose that names columns is no header
    claimed = dict(
        zip(rows[start].words, _claims(rows[start].words, profile.line_fields), strict=True)
    )
    first = [
        _best_field(part.text, profile.line_fields)
        for cell in _cells(rows[start].words)
        for part in _split(cell, profile.line_fields, claimed)
    ]
    if sum(1 for f in first if f) < MIN_HEADER_FIELDS:
        return None  # a header's first line names its columns itself
    for size in range(1, HEADER_LINES + 1):
        band = rows[start : start + size]
        if len(band) < size:
            break
        cells = _header_cells(band, profile.line_fields)
        chosen: dict[str, tuple[int, int]] = {}  # key → (cell index, match length)
        for index, cell in enumerate(cells):
            best = _best_field(cell.text, profile.line_fields)
            if best and (best[0] not in chosen or best[1] > chosen[best[0]][1]):
                chosen[best[0]] = (index, best[1])
        keys_by_cell = {index: key for key, (index, _n) in chosen.items()}
        numeric = {"qty", "price", "net"} & set(chosen)
        if "name" not in chosen or not numeric or len(chosen) < MIN_HEADER_FIELDS:
            continue
        numbers = any(line_number(w[0]) is not None for w in band[-1].words)
        if found is None or len(chosen) > found[2] or (len(chosen) == found[2] and not numbers):
            header = _Header(
                tuple((c.x0, c.x1, keys_by_cell.get(i)) for i, c in enumerate(cells)),
                max(row.bottom for row in band),
            )
            found = (header, size, len(chosen))
    return found


# ------------------------------------------------------------------ rows


@dataclass
class _Building:
    """A row of goods being read: its words per column, in reading order (line by
    line, over a page break too), and the page it starts on."""

    page: int
    cells: dict[str, list[Word]] = field(default_factory=dict)
    on_first_page: list[Word] = field(default_factory=list)
    bottom: float = 0.0
    height: float = 0.0

    def add(self, row: _Row, columns: _Columns, page: int) -> None:
        for word, key in zip(row.words, row.keyed(columns), strict=True):
            if key is not None:
                self.cells.setdefault(key, []).append(word)
                if page == self.page:
                    self.on_first_page.append(word)
        self.bottom = row.bottom
        self.height = max(self.height, row.bottom - row.top)

    def line(self, profile: Profile) -> Line:
        values: dict[str, str | None] = {}
        for spec in profile.line_fields:
            texts = [w[0] for w in self.cells.get(spec.key, [])]
            if spec.kind == "number":
                values[spec.key] = line_number("".join(texts))
            elif spec.kind == "rate":
                values[spec.key] = line_rate(" ".join(texts))
            else:
                values[spec.key] = " ".join(texts) or None
        standard = {k: v for k, v in values.items() if k in LINE_KEYS}
        extra = {k: v for k, v in values.items() if k not in LINE_KEYS}
        return Line(**standard, page=self.page, box=_box(self.on_first_page), extra=extra)


def _box(words: Sequence[Word]) -> list[float] | None:
    if not words:
        return None
    return [
        round(min(w[1] for w in words), 4),
        round(min(w[2] for w in words), 4),
        round(max(w[3] for w in words), 4),
        round(max(w[4] for w in words), 4),
    ]


def _starts_row(row: _Row, columns: _Columns) -> bool:
    """A row of goods starts where its number is printed (or, in a table without a
    number column, its quantity or its sum)."""
    anchor = "no" if columns.has("no") else ("qty" if columns.has("qty") else "net")
    texts = [w[0] for w, key in zip(row.words, row.keyed(columns), strict=True) if key == anchor]
    if not texts:
        return False
    if anchor == "no":
        return bool(re.fullmatch(r"\d{1,5}\.?", texts[0]))
    return line_number("".join(texts)) is not None


@dataclass
class _State:
    columns: _Columns | None = None
    current: _Building | None = None
    closed: bool = False
    lines: list[Line] = field(default_factory=list)
    header_pages: list[int] = field(default_factory=list)

    def finish(self, profile: Profile) -> None:
        if self.current is not None:
            self.lines.append(self.current.line(profile))
            self.current = None


def read_table(pages: Sequence[tuple[int, Sequence[Word]]], profile: Profile) -> TableRead:
    """The table of goods over a document's pages (``(page_no, words)`` in order)."""
    if not profile.line_fields:
        return TableRead()
    state = _State()
    texts: list[str] = []
    for page_no, words in pages:
        rows = _visual_lines(words)
        texts.extend(row.text for row in rows)
        if not state.closed:
            _read_page(page_no, rows, state, profile)
    state.finish(profile)
    return TableRead(
        lines=state.lines,
        printed_rows=printed_row_count(texts),
        table_open=bool(state.lines) and not state.closed,
        header_pages=state.header_pages,
    )


def _body(rows: Sequence[_Row]) -> list[_Row]:
    """The lines of a table's body on a page: up to its totals, without the
    "carried forward" lines and page cues, whose words do not stand in columns."""
    body = []
    for row in rows:
        folded = row.folded()
        if _TOTAL_RE.match(folded) and not _CARRIED_RE.search(folded):
            break
        if not (_CARRIED_RE.search(folded) or _PAGE_CUE_RE.match(folded)):
            body.append(row)
    return body


def _read_page(page_no: int, rows: Sequence[_Row], state: _State, profile: Profile) -> None:
    index = 0
    header_here = False
    while index < len(rows):
        found = _best_header(rows, index, profile) if _header_at(rows, index, profile) else None
        if found is not None:
            header, index, size = found
            index += size
            state.columns = _columns(header, _body(rows[index:]))
            state.header_pages.append(page_no)
            header_here = True
            break
        index += 1
    if not header_here:
        if state.columns is None:
            return
        index = 0  # a page that goes on without repeating the header
    columns = state.columns
    assert columns is not None
    if state.current is not None:
        state.current.bottom = columns.header.bottom if header_here else 0.0
    for row in rows[index:]:
        folded = row.folded()
        if _PAGE_CUE_RE.match(folded):
            continue
        if _CARRIED_RE.search(folded):
            state.finish(profile)
            continue
        if _TOTAL_RE.match(folded) and not _starts_row(row, columns):
            state.finish(profile)
            state.closed = True
            return
        if _starts_row(row, columns):
            state.finish(profile)
            state.current = _Building(page_no)
            state.current.add(row, columns, page_no)
        elif state.current is not None and _close_below(state.current, row, header_here):
            state.current.add(row, columns, page_no)  # a wrapped cell, or a row cut by the page
    if state.current is not None:
        state.current.bottom = 0.0


def _close_below(current: _Building, row: _Row, header_here: bool) -> bool:
    """A line belongs to the row above when it follows closely (a page footer far
    below does not); at the top of a page, right under a repeated header, it is the
    rest of the row the page break cut."""
    if current.bottom == 0.0:
        return header_here
    gap = row.top - current.bottom
    return gap <= max(current.height, row.bottom - row.top) * 1.2


def has_goods_table(lines: Sequence[str], profile: Profile) -> bool:
    """Whether text shows a table of goods' header (the name and two more columns
    within a few lines): what ``lines_missing`` looks for when no line was read."""
    if not profile.line_fields:
        return False
    window = 12
    keys_per_line = [_all_fields(line, profile.line_fields) for line in lines]
    for start in range(len(keys_per_line)):
        keys = set().union(*keys_per_line[start : start + window])
        if "name" in keys and len(keys & {"qty", "price", "net"}) >= 1 and len(keys) >= 3:
            return True
    return False


#: characters across a page in ``layout_text``, at most and at least
LAYOUT_COLUMNS = (80, 300)


def layout_text(words: Sequence[Word]) -> str:
    """A page's words as text laid out like the page: one line per visual line,
    each word at about its place across the page, two spaces or more between cells
    and one between the words of a cell. A table sent this way keeps its columns
    and rows, so a reader of the text (Claude) needs no image to read it."""
    rows = _visual_lines(words)
    char = _char_width(words)
    gap = char * CELL_GAP_CHARS
    # a character of text for two thirds of a glyph: words keep their places and the
    # narrow gap between two cells stays a gap
    columns = min(LAYOUT_COLUMNS[1], max(LAYOUT_COLUMNS[0], round(1.5 / char)))
    out = []
    for row in rows:
        line = ""
        previous: Word | None = None
        for word in row.words:
            # numbers print right-aligned: their right end is where they stand
            number = line_number(word[0]) is not None
            column = round((word[3] if number else word[1]) * columns) - (
                len(word[0]) if number else 0
            )
            if previous is not None:
                apart = word[1] - previous[3] > gap
                column = max(column, len(line) + 2) if apart else len(line) + 1
            line = line.ljust(column) + word[0]
            previous = word
        out.append(line.rstrip())
    return "\n".join(out)
